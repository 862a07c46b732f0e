/* akc-policy-trace-private.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-policy-trace.h"

G_BEGIN_DECLS

AkcPolicyTrace *akc_policy_trace_new (const char         *id,
                                      const char         *tool_call_id,
                                      const char         *action,
                                      AkcToolPhase        phase,
                                      AkcPolicyReason     reason,
                                      const char * const *required_capabilities,
                                      gint64              timestamp);

G_END_DECLS

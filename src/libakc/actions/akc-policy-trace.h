/* akc-policy-trace.h: one decision of a capability policy
 * (application §5.4)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-tool.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcPolicyReason:
 * @AKC_POLICY_REASON_ALLOWED: `allowed`: every required capability is there
 * @AKC_POLICY_REASON_POLICY_FAILURE: `policy-failure`: the trusted context
 *   could not be read or is malformed, or the upstream authorizer failed
 * @AKC_POLICY_REASON_ACTION_UNREGISTERED: `action-unregistered`: the action
 *   has no requirement entry
 * @AKC_POLICY_REASON_MISSING_CONTEXT: `missing-context`: the host gave no
 *   trusted context
 * @AKC_POLICY_REASON_SESSION_MISMATCH: `session-mismatch`: the context
 *   belongs to another session
 * @AKC_POLICY_REASON_MISSING_CAPABILITY: `missing-capability`: a required
 *   capability is missing
 * @AKC_POLICY_REASON_COMPOSED_POLICY_DENIED: `composed-policy-denied`: the
 *   upstream authorizer denied
 *
 * Why a capability policy decided as it did ([application §5.4](wire-formats.html#application-5)). The
 * wire strings are those of [func@PolicyReason.to_string].
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_POLICY_REASON_ALLOWED,
  AKC_POLICY_REASON_POLICY_FAILURE,
  AKC_POLICY_REASON_ACTION_UNREGISTERED,
  AKC_POLICY_REASON_MISSING_CONTEXT,
  AKC_POLICY_REASON_SESSION_MISMATCH,
  AKC_POLICY_REASON_MISSING_CAPABILITY,
  AKC_POLICY_REASON_COMPOSED_POLICY_DENIED,
} AkcPolicyReason;

AKC_AVAILABLE_IN_ALL
const char *akc_policy_reason_to_string (AkcPolicyReason reason);

#define AKC_TYPE_POLICY_TRACE (akc_policy_trace_get_type ())

typedef struct _AkcPolicyTrace AkcPolicyTrace;

AKC_AVAILABLE_IN_ALL
GType               akc_policy_trace_get_type                  (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcPolicyTrace     *akc_policy_trace_ref                       (AkcPolicyTrace       *self);
AKC_AVAILABLE_IN_ALL
void                akc_policy_trace_unref                     (AkcPolicyTrace       *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_policy_trace_get_id                    (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_policy_trace_get_tool_call_id          (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_policy_trace_get_action                (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
AkcToolPhase        akc_policy_trace_get_phase                 (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
gboolean            akc_policy_trace_get_allowed               (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
AkcPolicyReason     akc_policy_trace_get_reason                (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
const char * const *akc_policy_trace_get_required_capabilities (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
gint64              akc_policy_trace_get_timestamp             (const AkcPolicyTrace *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue       *akc_policy_trace_to_json                   (const AkcPolicyTrace *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcPolicyTrace, akc_policy_trace_unref)

G_END_DECLS

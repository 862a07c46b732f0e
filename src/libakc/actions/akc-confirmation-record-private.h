/* akc-confirmation-record-private.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-confirmation-record.h"

G_BEGIN_DECLS

/* A record from fields the caller has already checked (the coordinator's
 * own proposals: the upstream validated the call). */
AkcConfirmationRecord *akc_confirmation_record_new_unchecked (const char            *token,
                                                              const char            *session_id,
                                                              const char            *action,
                                                              AkcJsonValue          *input,
                                                              const char            *tool_call_id,
                                                              gint64                 expires_at,
                                                              AkcConfirmationStatus  status);

G_END_DECLS

/* akc-confirmation-record.h: one confirmation of a typed action
 * (application §5.2)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcConfirmationStatus:
 * @AKC_CONFIRMATION_STATUS_PENDING: `pending`: waits for approval or rejection
 * @AKC_CONFIRMATION_STATUS_APPROVING: `approving`: claimed for approval; the
 *   upstream approval is running or failed after a durable claim
 * @AKC_CONFIRMATION_STATUS_REJECTING: `rejecting`: claimed for rejection
 * @AKC_CONFIRMATION_STATUS_EXPIRING: `expiring`: claimed for expiry
 * @AKC_CONFIRMATION_STATUS_APPROVED: `approved`: the upstream approved the call
 * @AKC_CONFIRMATION_STATUS_REJECTED: `rejected`: the upstream denied the call,
 *   or the proposal did not need confirmation
 * @AKC_CONFIRMATION_STATUS_EXPIRED: `expired`: approved too late; the upstream
 *   denied the call
 *
 * Where a confirmation is in its life ([application §5.2](wire-formats.html#application-5)):
 * `pending → approving → approved`, `pending → rejecting → rejected`,
 * `pending → expiring → expired`, and `pending → rejected` directly for a
 * proposal the upstream did not gate. The wire strings are those of
 * [func@ConfirmationStatus.to_string].
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CONFIRMATION_STATUS_PENDING,
  AKC_CONFIRMATION_STATUS_APPROVING,
  AKC_CONFIRMATION_STATUS_REJECTING,
  AKC_CONFIRMATION_STATUS_EXPIRING,
  AKC_CONFIRMATION_STATUS_APPROVED,
  AKC_CONFIRMATION_STATUS_REJECTED,
  AKC_CONFIRMATION_STATUS_EXPIRED,
} AkcConfirmationStatus;

AKC_AVAILABLE_IN_ALL
const char *akc_confirmation_status_to_string   (AkcConfirmationStatus  status);
AKC_AVAILABLE_IN_ALL
gboolean    akc_confirmation_status_from_string (const char            *string,
                                                 AkcConfirmationStatus *status);

#define AKC_TYPE_CONFIRMATION_RECORD (akc_confirmation_record_get_type ())

typedef struct _AkcConfirmationRecord AkcConfirmationRecord;

AKC_AVAILABLE_IN_ALL
GType                  akc_confirmation_record_get_type         (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_confirmation_record_new              (const char                  *token,
                                                                 const char                  *session_id,
                                                                 const char                  *action,
                                                                 AkcJsonValue                *input,
                                                                 const char                  *tool_call_id,
                                                                 gint64                       expires_at,
                                                                 AkcConfirmationStatus        status,
                                                                 GError                     **error);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_confirmation_record_new_from_json    (AkcJsonValue                *value,
                                                                 const char                  *session_id,
                                                                 GError                     **error);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_confirmation_record_ref              (AkcConfirmationRecord       *self);
AKC_AVAILABLE_IN_ALL
void                   akc_confirmation_record_unref            (AkcConfirmationRecord       *self);
AKC_AVAILABLE_IN_ALL
const char            *akc_confirmation_record_get_token        (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
const char            *akc_confirmation_record_get_session_id   (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
const char            *akc_confirmation_record_get_action       (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue          *akc_confirmation_record_get_input        (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
const char            *akc_confirmation_record_get_tool_call_id (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
gint64                 akc_confirmation_record_get_expires_at   (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
AkcConfirmationStatus  akc_confirmation_record_get_status       (const AkcConfirmationRecord *self);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_confirmation_record_with_status      (const AkcConfirmationRecord *self,
                                                                 AkcConfirmationStatus        status);
AKC_AVAILABLE_IN_ALL
AkcJsonValue          *akc_confirmation_record_to_json          (const AkcConfirmationRecord *self,
                                                                 gboolean                     with_session_id);
AKC_AVAILABLE_IN_ALL
gboolean               akc_confirmation_record_equal            (const AkcConfirmationRecord *a,
                                                                 const AkcConfirmationRecord *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcConfirmationRecord, akc_confirmation_record_unref)

G_END_DECLS

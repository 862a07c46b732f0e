/* akc-action-confirmation.h: the confirmation coordinator of typed actions
 * (application §5.2)
 *
 * SPDX-License-Identifier: MIT
 *
 * Design: the reference's onChange and claimStatus hooks persist a session
 * (an SQLite write, away from the main thread) and are awaited, so they are
 * the asynchronous methods of one interface, AkcConfirmationStore, and the
 * coordinator's operations are _async/_finish with a GCancellable that is
 * honoured until an operation starts. A session with storage implements
 * the store with both methods (claim_status as a compare-and-set write);
 * without a claim method the coordinator saves every record after each
 * status change and undoes a claim whose upstream call failed. The
 * upstream is the AkcChatSource propose/approve/deny, which run on the
 * main context. The clock (`now`) and the id function (`createId`) are
 * injectable for tests.
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-chat-source.h"
#include "akc-clock.h"
#include "akc-confirmation-record.h"
#include "akc-confirmation-store.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS:
 *
 * How long a proposal waits for approval unless told otherwise: five
 * minutes, in milliseconds ([application §5.2](wire-formats.html#application-5)).
 *
 * Since: 0.1
 */
#define AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS 300000

/**
 * AkcConfirmationIdFunc:
 * @user_data: the data given to [method@ActionConfirmation.set_id_func]
 *
 * Makes the id of a new proposal: the suffix of its token (`confirm-«id»`)
 * and of its upstream tool call (`app-«id»`). It must match
 * `^[A-Za-z0-9][A-Za-z0-9._:-]{0,119}$`.
 *
 * Returns: (transfer full): the id
 *
 * Since: 0.1
 */
typedef char *(*AkcConfirmationIdFunc) (gpointer user_data);

#define AKC_TYPE_ACTION_CONFIRMATION (akc_action_confirmation_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcActionConfirmation, akc_action_confirmation, AKC, ACTION_CONFIRMATION, GObject)

AKC_AVAILABLE_IN_ALL
AkcActionConfirmation *akc_action_confirmation_new               (const char             *session_id,
                                                                  AkcChatSource          *chat,
                                                                  gint64                  ttl_ms,
                                                                  GPtrArray              *initial_records,
                                                                  AkcConfirmationStore   *store,
                                                                  GError                **error);
AKC_AVAILABLE_IN_ALL
const char            *akc_action_confirmation_get_session_id    (AkcActionConfirmation  *self);
AKC_AVAILABLE_IN_ALL
AkcChatSource         *akc_action_confirmation_get_chat          (AkcActionConfirmation  *self);
AKC_AVAILABLE_IN_ALL
gint64                 akc_action_confirmation_get_ttl_ms        (AkcActionConfirmation  *self);
AKC_AVAILABLE_IN_ALL
AkcConfirmationStore  *akc_action_confirmation_get_store         (AkcActionConfirmation  *self);
AKC_AVAILABLE_IN_ALL
void                   akc_action_confirmation_set_clock         (AkcActionConfirmation  *self,
                                                                  AkcClockFunc            func,
                                                                  gpointer                user_data,
                                                                  GDestroyNotify          destroy);
AKC_AVAILABLE_IN_ALL
void                   akc_action_confirmation_set_id_func       (AkcActionConfirmation  *self,
                                                                  AkcConfirmationIdFunc   func,
                                                                  gpointer                user_data,
                                                                  GDestroyNotify          destroy);

AKC_AVAILABLE_IN_ALL
void                   akc_action_confirmation_propose_async     (AkcActionConfirmation  *self,
                                                                  const char             *action,
                                                                  AkcJsonValue           *input,
                                                                  GCancellable           *cancellable,
                                                                  GAsyncReadyCallback     callback,
                                                                  gpointer                user_data);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_action_confirmation_propose_finish    (AkcActionConfirmation  *self,
                                                                  GAsyncResult           *result,
                                                                  GError                **error);
AKC_AVAILABLE_IN_ALL
void                   akc_action_confirmation_approve_async     (AkcActionConfirmation  *self,
                                                                  const char             *token,
                                                                  const char             *session_id,
                                                                  GCancellable           *cancellable,
                                                                  GAsyncReadyCallback     callback,
                                                                  gpointer                user_data);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_action_confirmation_approve_finish    (AkcActionConfirmation  *self,
                                                                  GAsyncResult           *result,
                                                                  GError                **error);
AKC_AVAILABLE_IN_ALL
void                   akc_action_confirmation_reject_async      (AkcActionConfirmation  *self,
                                                                  const char             *token,
                                                                  const char             *session_id,
                                                                  const char             *reason,
                                                                  GCancellable           *cancellable,
                                                                  GAsyncReadyCallback     callback,
                                                                  gpointer                user_data);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_action_confirmation_reject_finish     (AkcActionConfirmation  *self,
                                                                  GAsyncResult           *result,
                                                                  GError                **error);

AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_action_confirmation_get_by_tool_call  (AkcActionConfirmation  *self,
                                                                  const char             *tool_call_id);
AKC_AVAILABLE_IN_ALL
AkcConfirmationRecord *akc_action_confirmation_get_by_token      (AkcActionConfirmation  *self,
                                                                  const char             *token);
AKC_AVAILABLE_IN_ALL
GPtrArray             *akc_action_confirmation_get_snapshot      (AkcActionConfirmation  *self);

G_END_DECLS

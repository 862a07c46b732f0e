/* akc-session.h: one running session of a chat definition
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-action-confirmation.h"
#include "akc-adapter.h"
#include "akc-chat.h"
#include "akc-chat-history.h"
#include "akc-definition.h"
#include "akc-json.h"
#include "akc-session-storage.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_SESSION_ERROR:
 *
 * The error domain of sessions.
 */
#define AKC_SESSION_ERROR (akc_session_error_quark ())

/**
 * AkcSessionError:
 * @AKC_SESSION_ERROR_CONFLICT: the stored snapshot changed in another
 *   client (`SessionConflictError`, “Session snapshot changed in another
 *   client.”)
 *
 * Errors of [class@Session]. Configuration errors are
 * %AKC_ERROR_CONFIG_INVALID.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_SESSION_ERROR_CONFLICT,
} AkcSessionError;

AKC_AVAILABLE_IN_ALL
GQuark akc_session_error_quark (void);

/**
 * AkcTurnOutcome:
 * @AKC_TURN_OUTCOME_COMPLETED: `completed`
 * @AKC_TURN_OUTCOME_INDETERMINATE: `indeterminate`: the turn ended without
 *   a known result
 *
 * How a claimed turn ended ([application §4.4](wire-formats.html#application-4)).
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_TURN_OUTCOME_COMPLETED,
  AKC_TURN_OUTCOME_INDETERMINATE,
} AkcTurnOutcome;

/**
 * AkcSessionClockFunc:
 * @user_data: the data given with the function
 *
 * A clock.
 *
 * Returns: the time in milliseconds since the Unix epoch
 *
 * Since: 0.1
 */
typedef gint64 (*AkcSessionClockFunc) (gpointer user_data);

#define AKC_TYPE_SESSION (akc_session_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcSession, akc_session, AKC, SESSION, GObject)

AKC_AVAILABLE_IN_ALL
AkcSession        *akc_session_new                       (AkcDefinition        *definition,
                                                          const char           *session_id,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
AkcSession        *akc_session_resolve                   (AkcDefinition        *definition,
                                                          AkcSession           *session,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
void               akc_session_resume_async              (AkcDefinition        *definition,
                                                          const char           *session_id,
                                                          AkcSessionStorage    *storage,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
AkcSession        *akc_session_resume_finish             (GAsyncResult         *result,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
void               akc_session_attach_storage_async      (AkcSession           *self,
                                                          AkcSessionStorage    *storage,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean           akc_session_attach_storage_finish     (AkcSession           *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
const char        *akc_session_get_id                    (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcDefinition     *akc_session_get_definition            (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_session_get_definition_id         (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
gint64             akc_session_get_definition_revision   (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcSessionStorage *akc_session_get_storage               (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcAdapter        *akc_session_get_upstream              (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
void               akc_session_set_upstream              (AkcSession           *self,
                                                          AkcAdapter           *upstream);
AKC_AVAILABLE_IN_ALL
AkcChat           *akc_session_create_chat               (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcCapabilityPolicy *akc_session_get_policy              (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcChatHistory    *akc_session_get_history               (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_session_get_state                 (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue      *akc_session_get_conversation_snapshot (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
gint64             akc_session_get_cursor                (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
gboolean           akc_session_get_persisting            (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
void               akc_session_set_clock                 (AkcSession           *self,
                                                          AkcSessionClockFunc   func,
                                                          gpointer              user_data,
                                                          GDestroyNotify        destroy);
AKC_AVAILABLE_IN_ALL
AkcJsonValue      *akc_session_build_snapshot            (AkcSession           *self,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
void               akc_session_persist_async             (AkcSession           *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean           akc_session_persist_finish            (AkcSession           *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
void               akc_session_claim_turn_async          (AkcSession           *self,
                                                          const char           *turn_id,
                                                          gint64                lease_ms,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean           akc_session_claim_turn_finish         (AkcSession           *self,
                                                          GAsyncResult         *result,
                                                          gboolean             *claimed,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
void               akc_session_release_turn_async        (AkcSession           *self,
                                                          const char           *turn_id,
                                                          AkcTurnOutcome        outcome,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean           akc_session_release_turn_finish       (AkcSession           *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
AkcJsonValue      *akc_session_get_confirmations         (AkcSession           *self);
AKC_AVAILABLE_IN_ALL
AkcActionConfirmation *akc_session_create_confirmation   (AkcSession           *self,
                                                          AkcChatSource        *chat,
                                                          gint64                ttl_ms,
                                                          GError              **error);

G_END_DECLS

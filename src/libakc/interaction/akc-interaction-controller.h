/* akc-interaction-controller.h: what happens when a person answers a
 * component or a confirmation (application §12.7, §12.8)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-action-confirmation.h"
#include "akc-chat-source.h"
#include "akc-choice-reservations.h"
#include "akc-component-manifest.h"
#include "akc-component-resolution.h"
#include "akc-input-ownership.h"
#include "akc-message.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_INTERACTION_ERROR:
 *
 * The error domain of [class@InteractionController].
 */
#define AKC_INTERACTION_ERROR (akc_interaction_error_quark ())

/**
 * AkcInteractionError:
 * @AKC_INTERACTION_ERROR_RESOLVED: the instance was already answered (here,
 *   by another program sharing the history, or set aside); nothing was done
 * @AKC_INTERACTION_ERROR_INVALID: the frame does not resolve against the
 *   manifest, is not interactive, or has no such choice or event; nothing
 *   was done
 * @AKC_INTERACTION_ERROR_ACTION_PROPOSAL: proposing the chosen choice's
 *   typed action failed; the instance is un-resolved and may be answered
 *   again ("Action proposal failed.")
 * @AKC_INTERACTION_ERROR_SUBMISSION_AUTHORIZATION: the choice submission
 *   hook failed; the instance is un-resolved
 * @AKC_INTERACTION_ERROR_SUBMISSION_EXPIRED: the deterministic choice is
 *   stale; the instance is un-resolved
 * @AKC_INTERACTION_ERROR_SUBMISSION: sending the reserved choice failed;
 *   the instance is un-resolved
 * @AKC_INTERACTION_ERROR_SETTLEMENT: committing the reservation failed; the
 *   choice was sent and the instance stays resolved
 * @AKC_INTERACTION_ERROR_STORAGE: the answer could not be kept in the
 *   history; the instance is un-resolved and nothing was done
 * @AKC_INTERACTION_ERROR_APPROVAL: approving a tool call failed ("Action
 *   approval failed.")
 * @AKC_INTERACTION_ERROR_REJECTION: denying a tool call failed ("Action
 *   rejection failed.")
 *
 * Error codes of %AKC_INTERACTION_ERROR. Their order follows the failures
 * of [application §12.7](wire-formats.html#application-12); messages are safe to show.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_INTERACTION_ERROR_RESOLVED,
  AKC_INTERACTION_ERROR_INVALID,
  AKC_INTERACTION_ERROR_ACTION_PROPOSAL,
  AKC_INTERACTION_ERROR_SUBMISSION_AUTHORIZATION,
  AKC_INTERACTION_ERROR_SUBMISSION_EXPIRED,
  AKC_INTERACTION_ERROR_SUBMISSION,
  AKC_INTERACTION_ERROR_SETTLEMENT,
  AKC_INTERACTION_ERROR_STORAGE,
  AKC_INTERACTION_ERROR_APPROVAL,
  AKC_INTERACTION_ERROR_REJECTION,
} AkcInteractionError;

AKC_AVAILABLE_IN_ALL
GQuark akc_interaction_error_quark (void);

#define AKC_TYPE_INTERACTION_CONTROLLER (akc_interaction_controller_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcInteractionController, akc_interaction_controller, AKC, INTERACTION_CONTROLLER, GObject)

AKC_AVAILABLE_IN_ALL
AkcInteractionController *akc_interaction_controller_new               (AkcChatSource            *source);

AKC_AVAILABLE_IN_ALL
AkcChatSource            *akc_interaction_controller_get_source        (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
AkcInputOwnership        *akc_interaction_controller_get_ownership     (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
AkcComponentManifest     *akc_interaction_controller_get_manifest      (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_set_manifest      (AkcInteractionController *self,
                                                                        AkcComponentManifest     *manifest);
AKC_AVAILABLE_IN_ALL
AkcActionConfirmation    *akc_interaction_controller_get_confirmation  (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_set_confirmation  (AkcInteractionController *self,
                                                                        AkcActionConfirmation    *confirmation);
AKC_AVAILABLE_IN_ALL
AkcChoiceReservations    *akc_interaction_controller_get_reservations  (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_set_reservations  (AkcInteractionController *self,
                                                                        AkcChoiceReservations    *reservations);
AKC_AVAILABLE_IN_ALL
const char               *akc_interaction_controller_get_session_id    (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_set_session_id    (AkcInteractionController *self,
                                                                        const char               *session_id);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_set_history       (AkcInteractionController *self,
                                                                        AkcSqliteChatMemory      *memory,
                                                                        const char               *conversation_id);
AKC_AVAILABLE_IN_ALL
AkcSqliteChatMemory      *akc_interaction_controller_get_memory        (AkcInteractionController *self);
AKC_AVAILABLE_IN_ALL
const char               *akc_interaction_controller_get_conversation_id (AkcInteractionController *self);

AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_load_async        (AkcInteractionController *self,
                                                                        GCancellable             *cancellable,
                                                                        GAsyncReadyCallback       callback,
                                                                        gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_load_finish       (AkcInteractionController *self,
                                                                        GAsyncResult             *result,
                                                                        GError                  **error);

AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_is_resolved       (AkcInteractionController *self,
                                                                        const char               *instance_id);
AKC_AVAILABLE_IN_ALL
AkcComponentResolution   *akc_interaction_controller_get_resolution    (AkcInteractionController *self,
                                                                        const char               *instance_id);

AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_select_async      (AkcInteractionController *self,
                                                                        AkcMessage               *message,
                                                                        AkcJsonValue             *frame,
                                                                        const char               *choice_id,
                                                                        GCancellable             *cancellable,
                                                                        GAsyncReadyCallback       callback,
                                                                        gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_select_finish     (AkcInteractionController *self,
                                                                        GAsyncResult             *result,
                                                                        AkcConfirmationRecord   **record,
                                                                        GError                  **error);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_interact_async    (AkcInteractionController *self,
                                                                        AkcMessage               *message,
                                                                        AkcJsonValue             *frame,
                                                                        const char               *event,
                                                                        AkcJsonValue             *value,
                                                                        GCancellable             *cancellable,
                                                                        GAsyncReadyCallback       callback,
                                                                        gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_interact_finish   (AkcInteractionController *self,
                                                                        GAsyncResult             *result,
                                                                        GError                  **error);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_set_aside         (AkcInteractionController *self,
                                                                        const char               *instance_id);

AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_approve_async     (AkcInteractionController *self,
                                                                        const char               *tool_call_id,
                                                                        GCancellable             *cancellable,
                                                                        GAsyncReadyCallback       callback,
                                                                        gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_approve_finish    (AkcInteractionController *self,
                                                                        GAsyncResult             *result,
                                                                        GError                  **error);
AKC_AVAILABLE_IN_ALL
void                      akc_interaction_controller_deny_async        (AkcInteractionController *self,
                                                                        const char               *tool_call_id,
                                                                        const char               *reason,
                                                                        GCancellable             *cancellable,
                                                                        GAsyncReadyCallback       callback,
                                                                        gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_deny_finish       (AkcInteractionController *self,
                                                                        GAsyncResult             *result,
                                                                        GError                  **error);

AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_is_redundant      (AkcInteractionController *self,
                                                                        AkcMessage               *message);
AKC_AVAILABLE_IN_ALL
const char               *akc_interaction_describe_denial              (const char               *reason);

AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_open_link         (AkcInteractionController *self,
                                                                        AkcJsonValue             *frame,
                                                                        AkcJsonValue             *value);
AKC_AVAILABLE_IN_ALL
gboolean                  akc_interaction_controller_open_source       (AkcInteractionController *self,
                                                                        AkcJsonValue             *frame,
                                                                        const char               *source_id);

G_END_DECLS

/* akc-interaction-controller-confirmations.c: a person's approval or
 * denial of a tool call (application §12.8)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-interaction-controller-private.h"

typedef struct
{
  gboolean approve;
} Decision;

static void
on_decided (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Decision *decision = g_task_get_task_data (task);
  AkcActionConfirmation *confirmation = AKC_ACTION_CONFIRMATION (source);
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  if (decision->approve)
    record = akc_action_confirmation_approve_finish (confirmation, result, &error);
  else
    record = akc_action_confirmation_reject_finish (confirmation, result, &error);

  if (record == NULL)
    {
      g_task_return_new_error (task, AKC_INTERACTION_ERROR,
                               decision->approve ? AKC_INTERACTION_ERROR_APPROVAL : AKC_INTERACTION_ERROR_REJECTION,
                               "%s",
                               error != NULL && error->message[0] != '\0'
                               ? error->message
                               : decision->approve ? _("Action approval failed.") : _("Action rejection failed."));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/* §12.8: through the coordinator when it proposed the call (single-flight,
 * expiry, tokens bound to the session); the source's own approve and
 * deny otherwise. */
static void
decide (AkcInteractionController *self,
        const char               *tool_call_id,
        gboolean                  approve,
        const char               *reason,
        GCancellable             *cancellable,
        GAsyncReadyCallback       callback,
        gpointer                  user_data,
        gpointer                  source_tag)
{
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;
  GTask *task;
  Decision *decision;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  decision = g_new0 (Decision, 1);
  decision->approve = approve;
  g_task_set_task_data (task, decision, g_free);

  if (self->confirmation != NULL)
    record = akc_action_confirmation_get_by_tool_call (self->confirmation, tool_call_id);

  if (record == NULL)
    {
      gboolean ok = approve
                    ? akc_chat_source_approve (self->source, tool_call_id, &error)
                    : akc_chat_source_deny (self->source, tool_call_id, reason, &error);

      if (ok)
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_new_error (task, AKC_INTERACTION_ERROR,
                                 approve ? AKC_INTERACTION_ERROR_APPROVAL : AKC_INTERACTION_ERROR_REJECTION,
                                 "%s",
                                 error != NULL && error->message[0] != '\0'
                                 ? error->message
                                 : approve ? _("Action approval failed.") : _("Action rejection failed."));
      g_object_unref (task);
      return;
    }

  if (approve)
    akc_action_confirmation_approve_async (self->confirmation,
                                           akc_confirmation_record_get_token (record),
                                           akc_action_confirmation_get_session_id (self->confirmation),
                                           cancellable, on_decided, task);
  else
    akc_action_confirmation_reject_async (self->confirmation,
                                          akc_confirmation_record_get_token (record),
                                          akc_action_confirmation_get_session_id (self->confirmation),
                                          reason, cancellable, on_decided, task);
}

/**
 * akc_interaction_controller_approve_async:
 * @self: a #AkcInteractionController
 * @tool_call_id: the id of a tool call that waits for confirmation
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the call was approved or the approval failed
 * @user_data: data for @callback
 *
 * The person approved a tool call ([application §12.8](wire-formats.html#application-12)): through the
 * confirmation coordinator when it proposed the call, otherwise through
 * the source.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_approve_async (AkcInteractionController *self,
                                          const char               *tool_call_id,
                                          GCancellable             *cancellable,
                                          GAsyncReadyCallback       callback,
                                          gpointer                  user_data)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (tool_call_id != NULL);

  decide (self, tool_call_id, TRUE, NULL, cancellable, callback, user_data,
          akc_interaction_controller_approve_async);
}

/**
 * akc_interaction_controller_approve_finish:
 * @self: a #AkcInteractionController
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@InteractionController.approve_async].
 *
 * Returns: %TRUE if the call was approved, %FALSE with @error set
 *   (%AKC_INTERACTION_ERROR_APPROVAL)
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_approve_finish (AkcInteractionController  *self,
                                           GAsyncResult              *result,
                                           GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * akc_interaction_controller_deny_async:
 * @self: a #AkcInteractionController
 * @tool_call_id: the id of a tool call that waits for confirmation
 * @reason: (nullable): why, or %NULL for the upstream default
 *   ("Permission denied: user denied access", §12.8)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the call was denied or the denial failed
 * @user_data: data for @callback
 *
 * The person denied a tool call ([application §12.8](wire-formats.html#application-12)).
 *
 * Since: 0.1
 */
void
akc_interaction_controller_deny_async (AkcInteractionController *self,
                                       const char               *tool_call_id,
                                       const char               *reason,
                                       GCancellable             *cancellable,
                                       GAsyncReadyCallback       callback,
                                       gpointer                  user_data)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (tool_call_id != NULL);

  decide (self, tool_call_id, FALSE, reason, cancellable, callback, user_data,
          akc_interaction_controller_deny_async);
}

/**
 * akc_interaction_controller_deny_finish:
 * @self: a #AkcInteractionController
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@InteractionController.deny_async].
 *
 * Returns: %TRUE if the call was denied, %FALSE with @error set
 *   (%AKC_INTERACTION_ERROR_REJECTION)
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_deny_finish (AkcInteractionController  *self,
                                        GAsyncResult              *result,
                                        GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

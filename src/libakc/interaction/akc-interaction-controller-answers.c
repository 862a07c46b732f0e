/* akc-interaction-controller-answers.c: a person's answer to a component
 * (application §12.7): selections, interactions, components set aside
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-component-frame-private.h"
#include "akc-interaction-controller-private.h"
#include "akc-presentation.h"
#include "akc-resolved-component.h"

typedef struct
{
  AkcInteractionController *self;
  AkcResolvedComponent     *resolved;
  AkcComponentResolution   *resolution;
  char                     *choice_id;
  char                     *event;
  AkcJsonValue             *value;
  AkcConfirmationRecord    *record;
} Answer;

static void
answer_free (gpointer data)
{
  Answer *answer = data;

  if (answer->resolution != NULL)
    g_hash_table_remove (answer->self->in_flight,
                         akc_component_resolution_get_instance_id (answer->resolution));
  g_clear_object (&answer->resolved);
  g_clear_object (&answer->resolution);
  g_free (answer->choice_id);
  g_free (answer->event);
  g_clear_pointer (&answer->value, akc_json_value_unref);
  g_clear_pointer (&answer->record, akc_confirmation_record_unref);
  g_object_unref (answer->self);
  g_free (answer);
}

static void
on_withdrawn (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The answer stays stored: the card stays answered after a restart,
   * which never runs anything twice. */
  if (!akc_sqlite_chat_memory_delete_resolution_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error) &&
      error != NULL)
    g_debug ("A withdrawn answer stays in the history: %s", error->message);
}

/* §12.7: the person may answer again. */
static void
unresolve (AkcInteractionController *self,
           Answer                   *answer)
{
  const char *instance_id = akc_component_resolution_get_instance_id (answer->resolution);

  akc_input_ownership_unmark_resolved (self->ownership, instance_id);
  if (akc_interaction_controller_is_durable (self) && akc_component_resolution_get_message_id (answer->resolution) != NULL)
    akc_sqlite_chat_memory_delete_resolution_async (self->memory, self->conversation_id, instance_id,
                                                    NULL, on_withdrawn, NULL);
}

static void
fail_answer (GTask      *task,
             gboolean    unresolve_it,
             int         code,
             const char *message,
             const char *fallback)
{
  Answer *answer = g_task_get_task_data (task);

  if (unresolve_it)
    unresolve (answer->self, answer);

  g_task_return_new_error (task, AKC_INTERACTION_ERROR, code, "%s",
                           message != NULL && message[0] != '\0' ? message : fallback);
}

/* The message that shows @instance_id, newest first. */
static AkcMessage *
find_message (AkcInteractionController *self,
              const char               *instance_id)
{
  GListModel *messages = akc_chat_source_get_messages (self->source);

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      g_autoptr(GListModel) presentations = NULL;

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT)
        continue;

      presentations = akc_present_message (message, self->manifest);
      for (guint j = 0; j < g_list_model_get_n_items (presentations); j++)
        {
          g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, j);
          AkcResolvedComponent *resolved = akc_presentation_get_resolved (presentation);

          if (resolved != NULL &&
              g_strcmp0 (akc_resolved_component_get_instance_id (resolved), instance_id) == 0)
            return g_steal_pointer (&message);
        }
    }

  return NULL;
}

/* Steps 1 and 2 of §12.7: NULL (with the task returned) when the answer
 * is refused. */
static Answer *
begin_answer (AkcInteractionController *self,
              GTask                    *task,
              AkcMessage               *message,
              AkcJsonValue             *frame,
              const char               *event,
              AkcJsonValue             *value,
              const char               *choice_id)
{
  g_autoptr(AkcResolvedComponent) resolved = NULL;
  g_autoptr(AkcJsonValue) wire_event = NULL;
  g_autoptr(AkcJsonValue) choice = NULL;
  g_autoptr(AkcMessage) found = NULL;
  g_autoptr(GError) error = NULL;
  const char *instance_id;
  Answer *answer;

  resolved = self->manifest != NULL ? akc_component_manifest_resolve (self->manifest, frame, NULL) : NULL;
  if (resolved == NULL || !akc_resolved_component_is_interactive (resolved))
    {
      g_task_return_new_error (task, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_INVALID,
                               "%s", _("This card cannot be answered."));
      return NULL;
    }

  wire_event = choice_id != NULL
               ? akc_resolved_component_select_choice (resolved, choice_id, &error)
               : akc_resolved_component_create_interaction (resolved, event, value, &error);
  if (wire_event == NULL)
    {
      g_task_return_new_error (task, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_INVALID,
                               "%s", error != NULL ? error->message : _("This card cannot be answered."));
      return NULL;
    }

  instance_id = akc_resolved_component_get_instance_id (resolved);
  if (akc_input_ownership_get_resolution (self->ownership, instance_id) != NULL ||
      g_hash_table_contains (self->in_flight, instance_id) ||
      g_hash_table_contains (self->set_aside, instance_id))
    {
      g_task_return_new_error (task, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED,
                               "%s", _("This card was already answered."));
      return NULL;
    }

  if (message == NULL)
    message = found = find_message (self, instance_id);

  if (choice_id != NULL)
    choice = akc_json_value_new_string (choice_id, -1);

  answer = g_new0 (Answer, 1);
  answer->self = g_object_ref (self);
  answer->resolved = g_steal_pointer (&resolved);
  answer->choice_id = g_strdup (choice_id);
  answer->event = g_strdup (choice_id != NULL ? AKC_COMPONENT_RESOLUTION_SELECT : event);
  answer->value = value != NULL ? akc_json_value_ref (value) : NULL;
  answer->resolution = akc_component_resolution_new (instance_id,
                                                     message != NULL ? akc_message_get_id (message) : NULL,
                                                     answer->event,
                                                     choice != NULL ? choice : value,
                                                     g_get_real_time ());
  g_hash_table_add (self->in_flight, g_strdup (instance_id));
  g_task_set_task_data (task, answer, answer_free);

  /* Resolved before anything acts on it (step 2); a view may have marked
   * it already. */
  akc_input_ownership_resolve (self->ownership, answer->resolution);

  return answer;
}

static void act_on_answer (GTask *task);

static void
on_answer_stored (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Answer *answer = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!akc_sqlite_chat_memory_save_resolution_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error))
    {
      /* Answered already, by another program sharing the history: it
       * stays answered here too, and nothing runs again. */
      if (g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS))
        {
          g_task_return_new_error (task, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_RESOLVED,
                                   "%s", error->message);
          return;
        }

      akc_input_ownership_unmark_resolved (answer->self->ownership,
                                           akc_component_resolution_get_instance_id (answer->resolution));
      g_task_return_new_error (task, AKC_INTERACTION_ERROR, AKC_INTERACTION_ERROR_STORAGE,
                               "%s", error->message);
      return;
    }

  act_on_answer (g_steal_pointer (&task));
}

/* Keeps the answer with its message, then acts on it. */
static void
store_answer (GTask *task)
{
  Answer *answer = g_task_get_task_data (task);
  AkcInteractionController *self = answer->self;

  if (!akc_interaction_controller_is_durable (self) || akc_component_resolution_get_message_id (answer->resolution) == NULL)
    {
      act_on_answer (task);
      return;
    }

  akc_sqlite_chat_memory_save_resolution_async (self->memory, self->conversation_id, answer->resolution,
                                                g_task_get_cancellable (task), on_answer_stored, task);
}

/**
 * akc_interaction_describe_denial:
 * @reason: a denial reason: a capability policy's code ([application
 *   §5.4](wire-formats.html#application-5), such as `missing-context`), the upstream default `user denied
 *   access` (§12.8), or a tool call's result `Permission denied: «reason»`
 *
 * Says in a sentence why an action did not run, for the known reasons.
 *
 * Returns: (nullable): a translated sentence, or %NULL for a reason that
 *   is not known (show it as it is)
 *
 * Since: 0.1
 */
const char *
akc_interaction_describe_denial (const char *reason)
{
  static const struct {
    const char *code;
    const char *sentence;
  } sentences[] = {
    { "user denied access", N_("You denied this action.") },
    { "missing-context", N_("This action needs a signed-in account, and there is none.") },
    { "missing-capability", N_("Your account is not allowed to do this.") },
    { "session-mismatch", N_("This action belongs to another conversation.") },
    { "action-unregistered", N_("The app does not know this action.") },
    { "composed-policy-denied", N_("A policy of the app does not allow this action.") },
    { "policy-failure", N_("The app could not check whether this action is allowed.") },
  };

  g_return_val_if_fail (reason != NULL, NULL);

  if (g_str_has_prefix (reason, "Permission denied: "))
    reason += strlen ("Permission denied: ");

  for (gsize i = 0; i < G_N_ELEMENTS (sentences); i++)
    if (g_strcmp0 (reason, sentences[i].code) == 0)
      return _(sentences[i].sentence);

  return NULL;
}

static void
on_action_proposed (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Answer *answer = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  answer->record = akc_action_confirmation_propose_finish (AKC_ACTION_CONFIRMATION (source), result, &error);
  if (answer->record == NULL)
    {
      const char *sentence = error != NULL ? akc_interaction_describe_denial (error->message) : NULL;

      /* Step 4: a refused proposal may be chosen again. */
      fail_answer (task, TRUE, AKC_INTERACTION_ERROR_ACTION_PROPOSAL,
                   sentence != NULL ? sentence : error != NULL ? error->message : NULL,
                   _("Action proposal failed."));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/* Step 5 of a selection: a deterministic choice is sent exactly once. */
static void
submit_choice (GTask *task)
{
  Answer *answer = g_task_get_task_data (task);
  AkcInteractionController *self = answer->self;
  g_autoptr(AkcChoiceSubmission) submission = NULL;
  g_autoptr(GError) error = NULL;
  const char *session_id = akc_interaction_controller_get_session_id (self);

  if (self->reservations == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  submission = akc_choice_reservations_submission_func (akc_resolved_component_get_frame (answer->resolved),
                                                        answer->choice_id, session_id,
                                                        self->reservations, &error);
  if (submission == NULL)
    {
      if (error != NULL)
        fail_answer (task, TRUE, AKC_INTERACTION_ERROR_SUBMISSION_AUTHORIZATION,
                     error->message, _("Choice submission authorization failed."));
      else
        g_task_return_boolean (task, TRUE);  /* a host frame: nothing to send */
      return;
    }

  if (akc_choice_submission_get_kind (submission) == AKC_CHOICE_SUBMISSION_UNAVAILABLE)
    {
      fail_answer (task, TRUE, AKC_INTERACTION_ERROR_SUBMISSION_EXPIRED, NULL,
                   _("This deterministic choice expired. Select it again after asking the question once more."));
      return;
    }

  if (!akc_chat_source_send (self->source, akc_choice_submission_get_value (submission), &error))
    {
      akc_choice_submission_release (submission, NULL);
      fail_answer (task, TRUE, AKC_INTERACTION_ERROR_SUBMISSION,
                   error != NULL ? error->message : NULL, _("Choice submission failed."));
      return;
    }

  if (!akc_choice_submission_commit (submission, &error))
    {
      fail_answer (task, FALSE, AKC_INTERACTION_ERROR_SETTLEMENT,
                   error != NULL ? error->message : NULL, _("Choice submission settlement failed."));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
act_on_answer (GTask *task)
{
  Answer *answer = g_task_get_task_data (task);
  AkcInteractionController *self = answer->self;
  AkcJsonValue *frame = akc_resolved_component_get_frame (answer->resolved);
  AkcJsonValue *action;
  gboolean handled = FALSE;

  if (answer->choice_id == NULL)
    {
      /* Interaction step 3: the host's handler. */
      g_signal_emit (self, akc_interaction_controller_signals[INTERACTION], 0, frame, answer->event, answer->value, &handled);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  /* Selection step 4: a typed action waits for the person's approval. */
  action = akc_resolved_component_get_choice_action (answer->resolved, answer->choice_id);
  if (action != NULL)
    {
      if (self->confirmation == NULL)
        {
          fail_answer (task, TRUE, AKC_INTERACTION_ERROR_ACTION_PROPOSAL, NULL, _("Action proposal failed."));
          g_object_unref (task);
          return;
        }

      akc_action_confirmation_propose_async (self->confirmation,
                                             akc_json_value_get_string (akc_json_value_get_member (action, "name"), NULL),
                                             akc_json_value_get_member (action, "input"),
                                             g_task_get_cancellable (task), on_action_proposed, task);
      return;
    }

  /* Selection step 3: the host's own intent handler keeps the choice. */
  g_signal_emit (self, akc_interaction_controller_signals[CHOICE_SELECTED], 0, frame, answer->choice_id,
                 akc_component_frame_get_choice_label (frame, answer->choice_id), &handled);
  if (handled)
    g_task_return_boolean (task, TRUE);
  else
    submit_choice (task);
  g_object_unref (task);
}

/**
 * akc_interaction_controller_select_async:
 * @self: a #AkcInteractionController
 * @message: (nullable): the message that shows the choice list, or %NULL
 *   to look it up in the source
 * @frame: the choice list's decoded frame
 * @choice_id: the chosen option
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the choice was acted on
 * @user_data: data for @callback
 *
 * The person chose an option ([application §12.7](wire-formats.html#application-12) selection). The
 * instance is resolved and its answer kept (with a history, before
 * anything acts on it); then a typed action is proposed through the
 * confirmation coordinator, where it waits for
 * [method@InteractionController.approve_async]; the host's
 * [signal@InteractionController::choice-selected] may keep any other
 * choice; otherwise a deterministic choice is sent as the next message
 * through the reservations, exactly once.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_select_async (AkcInteractionController *self,
                                         AkcMessage               *message,
                                         AkcJsonValue             *frame,
                                         const char               *choice_id,
                                         GCancellable             *cancellable,
                                         GAsyncReadyCallback       callback,
                                         gpointer                  user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (message == NULL || AKC_IS_MESSAGE (message));
  g_return_if_fail (frame != NULL);
  g_return_if_fail (choice_id != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_interaction_controller_select_async);
  if (begin_answer (self, task, message, frame, NULL, NULL, choice_id) == NULL)
    {
      g_object_unref (task);
      return;
    }

  store_answer (task);
}

/**
 * akc_interaction_controller_select_finish:
 * @self: a #AkcInteractionController
 * @result: the result given to the callback
 * @record: (out) (optional) (nullable) (transfer full): the confirmation
 *   proposed for the choice's typed action, or %NULL when it has none
 * @error: return location for a #GError
 *
 * Finishes [method@InteractionController.select_async]. Whether the
 * instance stays resolved after a failure depends on the error's code
 * (see [error@InteractionError]).
 *
 * Returns: %TRUE if the choice was acted on, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_select_finish (AkcInteractionController  *self,
                                          GAsyncResult              *result,
                                          AkcConfirmationRecord    **record,
                                          GError                   **error)
{
  Answer *answer;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (record != NULL)
    *record = NULL;
  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  answer = g_task_get_task_data (G_TASK (result));
  if (record != NULL && answer->record != NULL)
    *record = akc_confirmation_record_ref (answer->record);

  return TRUE;
}

/**
 * akc_interaction_controller_interact_async:
 * @self: a #AkcInteractionController
 * @message: (nullable): the message that shows the component, or %NULL to
 *   look it up in the source
 * @frame: the component's decoded frame
 * @event: the interaction's event, such as `submit`
 * @value: (nullable): the interaction's value
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the answer was acted on
 * @user_data: data for @callback
 *
 * The person answered a component other than a choice list ([application
 * §12.7](wire-formats.html#application-12) interaction): a form submitted, a confirmation confirmed. The
 * catalog validates the event and its value, the instance is resolved
 * and its answer kept, and the host's
 * [signal@InteractionController::interaction] acts on it.
 *
 * Opening a link of a source list or a link card is navigation, not an
 * answer: use [method@InteractionController.open_link].
 *
 * Since: 0.1
 */
void
akc_interaction_controller_interact_async (AkcInteractionController *self,
                                           AkcMessage               *message,
                                           AkcJsonValue             *frame,
                                           const char               *event,
                                           AkcJsonValue             *value,
                                           GCancellable             *cancellable,
                                           GAsyncReadyCallback       callback,
                                           gpointer                  user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (message == NULL || AKC_IS_MESSAGE (message));
  g_return_if_fail (frame != NULL);
  g_return_if_fail (event != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_interaction_controller_interact_async);
  if (begin_answer (self, task, message, frame, event, value, NULL) == NULL)
    {
      g_object_unref (task);
      return;
    }

  store_answer (task);
}

/**
 * akc_interaction_controller_interact_finish:
 * @self: a #AkcInteractionController
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@InteractionController.interact_async].
 *
 * Returns: %TRUE if the answer was acted on, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_interact_finish (AkcInteractionController  *self,
                                            GAsyncResult              *result,
                                            GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_set_aside_stored (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* Answered already by another program sharing the history, or not
   * written: the card stays inert in this run all the same. */
  if (!akc_sqlite_chat_memory_save_resolution_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error))
    g_debug ("A component set aside is not kept in the history: %s", error->message);
}

/**
 * akc_interaction_controller_set_aside:
 * @self: a #AkcInteractionController
 * @instance_id: the instance that owns input
 *
 * Sets a component aside without an answer (Escape, or typing into the
 * composer): it becomes inert and input returns to the host. With a
 * history it is kept with its message like an answer (the event
 * %AKC_COMPONENT_RESOLUTION_SET_ASIDE, no value), so after a restart the
 * card is still inert and never takes the keyboard again; it has no
 * answer to show ([method@InteractionController.get_resolution] is %NULL).
 *
 * Returns: %TRUE if the instance was not resolved before
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_set_aside (AkcInteractionController *self,
                                      const char               *instance_id)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (instance_id != NULL, FALSE);

  if (!akc_input_ownership_mark_resolved (self->ownership, instance_id))
    return FALSE;

  g_hash_table_add (self->set_aside, g_strdup (instance_id));

  if (akc_interaction_controller_is_durable (self))
    {
      g_autoptr(AkcMessage) message = find_message (self, instance_id);

      if (message != NULL)
        {
          g_autoptr(AkcComponentResolution) resolution =
            akc_component_resolution_new (instance_id, akc_message_get_id (message),
                                          AKC_COMPONENT_RESOLUTION_SET_ASIDE, NULL, g_get_real_time ());

          akc_sqlite_chat_memory_save_resolution_async (self->memory, self->conversation_id, resolution,
                                                        NULL, on_set_aside_stored, NULL);
        }
    }

  return TRUE;
}

/* akc-interaction-controller.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat.h"
#include "akc-deterministic-adapter.h"
#include "akc-interaction-controller.h"
#include "akc-knowledge-key.h"
#include "akc-presentation.h"
#include "akc-resolved-component.h"

/**
 * AkcInteractionController:
 *
 * What happens when a person answers a component of the transcript or a
 * tool confirmation (application.md §12.7, §12.8), without any GTK: a
 * view, a window, a command-line host or a test forwards the person's
 * choice, form submission, approval, denial or opened source to it.
 *
 * It works over one [iface@ChatSource] and, when they are set, the
 * [class@ComponentManifest] frames resolve against, the
 * [class@ActionConfirmation] coordinator that proposes a choice's typed
 * action (§5.2), the [class@ChoiceReservations] of deterministic choices
 * (§2.8, §9.5), and the history database that keeps the answers
 * ([method@InteractionController.set_history]).
 *
 * ## Single-shot instances
 *
 * Every answer is an [class@ComponentResolution] in
 * [property@InteractionController:ownership], the set of resolved
 * instances a view presents: an answered instance ignores every later
 * answer (%AKC_INTERACTION_ERROR_RESOLVED). With a history the answer is
 * stored with its message before anything acts on it, and the first
 * answer of an instance wins across processes, so a card answered before a
 * restart is shown answered and never runs its action again
 * ([method@InteractionController.load_async] reads the answers back). When
 * acting on an answer fails in a way that lets the person try again
 * (§12.7: a refused proposal, an expired or failed submission), the
 * instance is un-resolved and its stored answer withdrawn.
 *
 * ## Hosts
 *
 * The host's intent handlers are signals:
 * [signal@InteractionController::choice-selected] for a choice without a
 * typed action and [signal@InteractionController::interaction] for other
 * answers. [signal@InteractionController::link-requested] asks the host
 * to open an address the person chose.
 *
 * Since: 0.1
 */

struct _AkcInteractionController
{
  GObject                parent_instance;

  AkcChatSource         *source;
  AkcComponentManifest  *manifest;
  AkcActionConfirmation *confirmation;
  AkcChoiceReservations *reservations;
  char                  *session_id;
  AkcSqliteChatMemory   *memory;
  char                  *conversation_id;
  AkcInputOwnership     *ownership;
  GHashTable            *in_flight;   /* instance id → itself */
  GHashTable            *set_aside;   /* instance id → itself */
};

G_DEFINE_FINAL_TYPE (AkcInteractionController, akc_interaction_controller, G_TYPE_OBJECT)

/**
 * akc_interaction_error_quark:
 *
 * Gets the error domain of [error@InteractionError], the quark %AKC_INTERACTION_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-interaction-error-quark, akc_interaction_error)

enum {
  PROP_0,
  PROP_SOURCE,
  PROP_OWNERSHIP,
  PROP_MANIFEST,
  PROP_CONFIRMATION,
  PROP_RESERVATIONS,
  PROP_SESSION_ID,
  PROP_MEMORY,
  PROP_CONVERSATION_ID,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  CHOICE_SELECTED,
  INTERACTION,
  LINK_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* -------------------------------------------------------------------- */
/* Answers                                                              */
/* -------------------------------------------------------------------- */

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

static gboolean
set_str (char       **field,
         const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

static gboolean
is_durable (AkcInteractionController *self)
{
  return self->memory != NULL && self->conversation_id != NULL;
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
  if (is_durable (self) && akc_component_resolution_get_message_id (answer->resolution) != NULL)
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

  if (!is_durable (self) || akc_component_resolution_get_message_id (answer->resolution) == NULL)
    {
      act_on_answer (task);
      return;
    }

  akc_sqlite_chat_memory_save_resolution_async (self->memory, self->conversation_id, answer->resolution,
                                                g_task_get_cancellable (task), on_answer_stored, task);
}

/**
 * akc_interaction_describe_denial:
 * @reason: a denial reason: a capability policy's code (application.md
 *   §5.4, such as `missing-context`), the upstream default `user denied
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
      g_signal_emit (self, signals[INTERACTION], 0, frame, answer->event, answer->value, &handled);
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
  g_signal_emit (self, signals[CHOICE_SELECTED], 0, frame, answer->choice_id, &handled);
  if (handled)
    g_task_return_boolean (task, TRUE);
  else
    submit_choice (task);
  g_object_unref (task);
}

/* -------------------------------------------------------------------- */
/* GObject                                                              */
/* -------------------------------------------------------------------- */

static void
akc_interaction_controller_dispose (GObject *object)
{
  AkcInteractionController *self = AKC_INTERACTION_CONTROLLER (object);

  g_clear_object (&self->confirmation);
  g_clear_object (&self->reservations);
  g_clear_object (&self->memory);
  g_clear_object (&self->manifest);

  G_OBJECT_CLASS (akc_interaction_controller_parent_class)->dispose (object);
}

static void
akc_interaction_controller_finalize (GObject *object)
{
  AkcInteractionController *self = AKC_INTERACTION_CONTROLLER (object);

  g_clear_object (&self->source);
  g_clear_object (&self->ownership);
  g_clear_pointer (&self->in_flight, g_hash_table_unref);
  g_clear_pointer (&self->set_aside, g_hash_table_unref);
  g_free (self->session_id);
  g_free (self->conversation_id);

  G_OBJECT_CLASS (akc_interaction_controller_parent_class)->finalize (object);
}

static void
akc_interaction_controller_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  AkcInteractionController *self = AKC_INTERACTION_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_OWNERSHIP:
      g_value_set_object (value, self->ownership);
      break;
    case PROP_MANIFEST:
      g_value_set_object (value, self->manifest);
      break;
    case PROP_CONFIRMATION:
      g_value_set_object (value, self->confirmation);
      break;
    case PROP_RESERVATIONS:
      g_value_set_object (value, self->reservations);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, akc_interaction_controller_get_session_id (self));
      break;
    case PROP_MEMORY:
      g_value_set_object (value, self->memory);
      break;
    case PROP_CONVERSATION_ID:
      g_value_set_string (value, self->conversation_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_interaction_controller_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  AkcInteractionController *self = AKC_INTERACTION_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      self->source = g_value_dup_object (value);
      break;
    case PROP_MANIFEST:
      akc_interaction_controller_set_manifest (self, g_value_get_object (value));
      break;
    case PROP_CONFIRMATION:
      akc_interaction_controller_set_confirmation (self, g_value_get_object (value));
      break;
    case PROP_RESERVATIONS:
      akc_interaction_controller_set_reservations (self, g_value_get_object (value));
      break;
    case PROP_SESSION_ID:
      akc_interaction_controller_set_session_id (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_interaction_controller_class_init (AkcInteractionControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_interaction_controller_dispose;
  object_class->finalize = akc_interaction_controller_finalize;
  object_class->get_property = akc_interaction_controller_get_property;
  object_class->set_property = akc_interaction_controller_set_property;

  /**
   * AkcInteractionController:source:
   *
   * The conversation the answers act on.
   *
   * Since: 0.1
   */
  props[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         AKC_TYPE_CHAT_SOURCE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:ownership:
   *
   * The resolved instances of the conversation, with their answers: what
   * a view presents as answered, and where it finds the component that
   * owns input (§12.4).
   *
   * Since: 0.1
   */
  props[PROP_OWNERSHIP] =
    g_param_spec_object ("ownership", NULL, NULL,
                         AKC_TYPE_INPUT_OWNERSHIP,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:manifest:
   *
   * The manifest frames resolve against, or %NULL: then nothing can be
   * answered.
   *
   * Since: 0.1
   */
  props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL,
                         AKC_TYPE_COMPONENT_MANIFEST,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:confirmation:
   *
   * The coordinator that proposes a choice's typed action and resolves
   * the confirmations it proposed (§5.2), or %NULL. It must coordinate
   * [property@InteractionController:source].
   *
   * Since: 0.1
   */
  props[PROP_CONFIRMATION] =
    g_param_spec_object ("confirmation", NULL, NULL,
                         AKC_TYPE_ACTION_CONFIRMATION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:reservations:
   *
   * The reservations of deterministic choices (§2.8, §9.5), or %NULL when
   * no choice is sent as a message.
   *
   * Since: 0.1
   */
  props[PROP_RESERVATIONS] =
    g_param_spec_object ("reservations", NULL, NULL,
                         AKC_TYPE_CHOICE_RESERVATIONS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:session-id:
   *
   * The session reservations are claimed in: when not set, the session of
   * an [class@Chat] source, else %AKC_DETERMINISTIC_UNSCOPED_SESSION.
   *
   * Since: 0.1
   */
  props[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:memory:
   *
   * The history database the answers are kept in, or %NULL when they
   * live only as long as the controller.
   *
   * Since: 0.1
   */
  props[PROP_MEMORY] =
    g_param_spec_object ("memory", NULL, NULL,
                         AKC_TYPE_SQLITE_CHAT_MEMORY,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /**
   * AkcInteractionController:conversation-id:
   *
   * The stored conversation of the source, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_CONVERSATION_ID] =
    g_param_spec_string ("conversation-id", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcInteractionController::choice-selected:
   * @self: the controller
   * @frame: the choice list's decoded frame
   * @choice_id: the chosen option
   *
   * The host's intent handler for a choice without a typed action
   * (§12.7, selection step 3). The instance is already resolved. Return
   * %TRUE to keep the choice; otherwise a deterministic choice is sent as
   * the next message through the reservations.
   *
   * Returns: %TRUE if the host kept the choice
   *
   * Since: 0.1
   */
  signals[CHOICE_SELECTED] =
    g_signal_new ("choice-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  g_signal_accumulator_true_handled, NULL,
                  NULL,
                  G_TYPE_BOOLEAN, 2,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcInteractionController::interaction:
   * @self: the controller
   * @frame: the component's decoded frame
   * @event: the interaction's event, such as `submit`
   * @value: (nullable): the interaction's value, validated by the catalog
   *
   * The host's intent handler for an answer to a component other than a
   * choice (§12.7, interaction step 3). The instance is already resolved.
   *
   * Returns: %TRUE if the host acted on the answer
   *
   * Since: 0.1
   */
  signals[INTERACTION] =
    g_signal_new ("interaction",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  g_signal_accumulator_true_handled, NULL,
                  NULL,
                  G_TYPE_BOOLEAN, 3,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcInteractionController::link-requested:
   * @self: the controller
   * @uri: an absolute http or https address
   *
   * The person opened a source whose address a browser can open (§12.7
   * navigation). The host decides how to open it.
   *
   * Since: 0.1
   */
  signals[LINK_REQUESTED] =
    g_signal_new ("link-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_interaction_controller_init (AkcInteractionController *self)
{
  self->ownership = akc_input_ownership_new ();
  self->in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->set_aside = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* -------------------------------------------------------------------- */
/* Public API                                                           */
/* -------------------------------------------------------------------- */

/**
 * akc_interaction_controller_new:
 * @source: the conversation the answers act on
 *
 * Creates a controller for the answers of @source.
 *
 * Returns: (transfer full): a new controller
 *
 * Since: 0.1
 */
AkcInteractionController *
akc_interaction_controller_new (AkcChatSource *source)
{
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (source), NULL);

  return g_object_new (AKC_TYPE_INTERACTION_CONTROLLER, "source", source, NULL);
}

/**
 * akc_interaction_controller_get_source:
 * @self: a #AkcInteractionController
 *
 * Gets the conversation the answers act on.
 *
 * Returns: (transfer none): the source
 *
 * Since: 0.1
 */
AkcChatSource *
akc_interaction_controller_get_source (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->source;
}

/**
 * akc_interaction_controller_get_ownership:
 * @self: a #AkcInteractionController
 *
 * Gets the resolved instances of the conversation, with their answers.
 *
 * Returns: (transfer none): the set of resolved instances
 *
 * Since: 0.1
 */
AkcInputOwnership *
akc_interaction_controller_get_ownership (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->ownership;
}

/**
 * akc_interaction_controller_get_manifest:
 * @self: a #AkcInteractionController
 *
 * Gets the manifest frames resolve against.
 *
 * Returns: (transfer none) (nullable): the manifest, or %NULL
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_interaction_controller_get_manifest (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->manifest;
}

/**
 * akc_interaction_controller_set_manifest:
 * @self: a #AkcInteractionController
 * @manifest: (nullable): the manifest, or %NULL
 *
 * Sets the manifest frames resolve against.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_set_manifest (AkcInteractionController *self,
                                         AkcComponentManifest     *manifest)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest));

  if (g_set_object (&self->manifest, manifest))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MANIFEST]);
}

/**
 * akc_interaction_controller_get_confirmation:
 * @self: a #AkcInteractionController
 *
 * Gets the confirmation coordinator.
 *
 * Returns: (transfer none) (nullable): the coordinator, or %NULL
 *
 * Since: 0.1
 */
AkcActionConfirmation *
akc_interaction_controller_get_confirmation (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->confirmation;
}

/**
 * akc_interaction_controller_set_confirmation:
 * @self: a #AkcInteractionController
 * @confirmation: (nullable): the coordinator, or %NULL
 *
 * Sets the coordinator that proposes a choice's typed action and resolves
 * the confirmations it proposed. It must coordinate the controller's
 * source.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_set_confirmation (AkcInteractionController *self,
                                             AkcActionConfirmation    *confirmation)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (confirmation == NULL || AKC_IS_ACTION_CONFIRMATION (confirmation));

  if (g_set_object (&self->confirmation, confirmation))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONFIRMATION]);
}

/**
 * akc_interaction_controller_get_reservations:
 * @self: a #AkcInteractionController
 *
 * Gets the reservations of deterministic choices.
 *
 * Returns: (transfer none) (nullable): the reservations, or %NULL
 *
 * Since: 0.1
 */
AkcChoiceReservations *
akc_interaction_controller_get_reservations (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->reservations;
}

/**
 * akc_interaction_controller_set_reservations:
 * @self: a #AkcInteractionController
 * @reservations: (nullable): the reservations, or %NULL
 *
 * Sets the reservations a deterministic choice is claimed from before it
 * is sent as the next message (§2.8).
 *
 * Since: 0.1
 */
void
akc_interaction_controller_set_reservations (AkcInteractionController *self,
                                             AkcChoiceReservations    *reservations)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (reservations == NULL || AKC_IS_CHOICE_RESERVATIONS (reservations));

  if (g_set_object (&self->reservations, reservations))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RESERVATIONS]);
}

/**
 * akc_interaction_controller_get_session_id:
 * @self: a #AkcInteractionController
 *
 * Gets the session reservations are claimed in.
 *
 * Returns: the session id
 *
 * Since: 0.1
 */
const char *
akc_interaction_controller_get_session_id (AkcInteractionController *self)
{
  const char *session_id = NULL;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  if (self->session_id != NULL)
    return self->session_id;
  if (AKC_IS_CHAT (self->source))
    session_id = akc_chat_get_session_id (AKC_CHAT (self->source));

  return session_id != NULL ? session_id : AKC_DETERMINISTIC_UNSCOPED_SESSION;
}

/**
 * akc_interaction_controller_set_session_id:
 * @self: a #AkcInteractionController
 * @session_id: (nullable): a session id, or %NULL for the default
 *
 * Sets the session reservations are claimed in.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_set_session_id (AkcInteractionController *self,
                                           const char               *session_id)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));

  if (set_str (&self->session_id, session_id))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SESSION_ID]);
}

/**
 * akc_interaction_controller_set_history:
 * @self: a #AkcInteractionController
 * @memory: (nullable): the history database, or %NULL
 * @conversation_id: (nullable): the stored conversation of the source
 *
 * Keeps the answers in the history database, with their messages, for
 * the conversation @conversation_id (application.md §12.7, kept beyond
 * the view's life). Call [method@InteractionController.load_async] to
 * read the answers already kept. %NULL for either keeps them in memory
 * only.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_set_history (AkcInteractionController *self,
                                        AkcSqliteChatMemory      *memory,
                                        const char               *conversation_id)
{
  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));
  g_return_if_fail (memory == NULL || AKC_IS_SQLITE_CHAT_MEMORY (memory));

  if (memory == NULL || conversation_id == NULL)
    memory = NULL, conversation_id = NULL;

  if (g_set_object (&self->memory, memory))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MEMORY]);
  if (set_str (&self->conversation_id, conversation_id))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONVERSATION_ID]);
}

/**
 * akc_interaction_controller_get_memory:
 * @self: a #AkcInteractionController
 *
 * Gets the history database the answers are kept in.
 *
 * Returns: (transfer none) (nullable): the history, or %NULL
 *
 * Since: 0.1
 */
AkcSqliteChatMemory *
akc_interaction_controller_get_memory (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->memory;
}

/**
 * akc_interaction_controller_get_conversation_id:
 * @self: a #AkcInteractionController
 *
 * Gets the stored conversation the answers are kept for.
 *
 * Returns: (nullable): the conversation id, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_interaction_controller_get_conversation_id (AkcInteractionController *self)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);

  return self->conversation_id;
}

static void
on_resolutions_loaded (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcInteractionController *self = g_task_get_source_object (task);
  g_autoptr(GListModel) resolutions = NULL;
  GError *error = NULL;

  resolutions = akc_sqlite_chat_memory_load_resolutions_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);
  if (resolutions == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  for (guint i = 0; i < g_list_model_get_n_items (resolutions); i++)
    {
      g_autoptr(AkcComponentResolution) resolution = g_list_model_get_item (resolutions, i);
      const char *instance_id = akc_component_resolution_get_instance_id (resolution);

      /* Set aside before the restart: inert, without an answer. */
      if (g_strcmp0 (akc_component_resolution_get_event (resolution), AKC_COMPONENT_RESOLUTION_SET_ASIDE) == 0)
        {
          g_hash_table_add (self->set_aside, g_strdup (instance_id));
          akc_input_ownership_mark_resolved (self->ownership, instance_id);
          continue;
        }

      akc_input_ownership_resolve (self->ownership, resolution);
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * akc_interaction_controller_load_async:
 * @self: a #AkcInteractionController
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the answers are read
 * @user_data: data for @callback
 *
 * Reads the answers kept in the history for the conversation (see
 * [method@InteractionController.set_history]) into
 * [property@InteractionController:ownership]: their cards are answered.
 * Without a history there is nothing to read and it succeeds.
 *
 * Since: 0.1
 */
void
akc_interaction_controller_load_async (AkcInteractionController *self,
                                       GCancellable             *cancellable,
                                       GAsyncReadyCallback       callback,
                                       gpointer                  user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_INTERACTION_CONTROLLER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_interaction_controller_load_async);
  if (!is_durable (self))
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  akc_sqlite_chat_memory_load_resolutions_async (self->memory, self->conversation_id, cancellable,
                                                 on_resolutions_loaded, task);
}

/**
 * akc_interaction_controller_load_finish:
 * @self: a #AkcInteractionController
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@InteractionController.load_async].
 *
 * Returns: %TRUE if the answers were read, %FALSE with @error set (an
 *   %AKC_CHAT_MEMORY_ERROR)
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_load_finish (AkcInteractionController  *self,
                                        GAsyncResult              *result,
                                        GError                   **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * akc_interaction_controller_is_resolved:
 * @self: a #AkcInteractionController
 * @instance_id: an instance id
 *
 * Gets whether an instance was answered or set aside.
 *
 * Returns: %TRUE if the instance is resolved
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_is_resolved (AkcInteractionController *self,
                                        const char               *instance_id)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (instance_id != NULL, FALSE);

  return akc_input_ownership_is_resolved (self->ownership, instance_id);
}

/**
 * akc_interaction_controller_get_resolution:
 * @self: a #AkcInteractionController
 * @instance_id: an instance id
 *
 * Gets how an instance was answered.
 *
 * Returns: (transfer none) (nullable): the answer, or %NULL when the
 *   instance was not answered
 *
 * Since: 0.1
 */
AkcComponentResolution *
akc_interaction_controller_get_resolution (AkcInteractionController *self,
                                           const char               *instance_id)
{
  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), NULL);
  g_return_val_if_fail (instance_id != NULL, NULL);

  return akc_input_ownership_get_resolution (self->ownership, instance_id);
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
 * The person chose an option (application.md §12.7 selection). The
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
 * The person answered a component other than a choice list (application.md
 * §12.7 interaction): a form submitted, a confirmation confirmed. The
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

  if (is_durable (self))
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
 * The person approved a tool call (application.md §12.8): through the
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
 * The person denied a tool call (application.md §12.8).
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

/* How far back a replayed card is looked for: a continuation replays the
 * card of the turn it continues (§3.6), a few messages before it. */
#define REPLAY_LOOKBACK 6

/* The instance ids of the components @message presents, or NULL when it
 * presents anything else too (text, a diagnostic). */
static GPtrArray *
component_instances (AkcInteractionController *self,
                     AkcMessage               *message)
{
  g_autoptr(GListModel) presentations = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  guint n;

  if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT || self->manifest == NULL)
    return NULL;

  presentations = akc_present_message (message, self->manifest);
  n = g_list_model_get_n_items (presentations);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      AkcResolvedComponent *resolved = akc_presentation_get_resolved (presentation);

      if (akc_presentation_get_kind (presentation) != AKC_PRESENTATION_COMPONENT || resolved == NULL)
        return NULL;
      g_ptr_array_add (ids, g_strdup (akc_resolved_component_get_instance_id (resolved)));
    }

  return ids->len > 0 ? g_steal_pointer (&ids) : NULL;
}

/**
 * akc_interaction_controller_is_redundant:
 * @self: a #AkcInteractionController
 * @message: a message of the source
 *
 * Gets whether @message adds nothing a person needs to read (issue 13
 * item 6: one settled card per interaction): the result of a tool call
 * that an earlier assistant message carries (the call's settled card
 * says it), or a continuation right after a tool's result that only
 * replays cards an earlier message of the last few already shows
 * (application.md §3.6). Other copies of an instance are not redundant
 * (§14, A14). A view may leave redundant messages out.
 *
 * Returns: %TRUE if @message is redundant
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_is_redundant (AkcInteractionController *self,
                                         AkcMessage               *message)
{
  GListModel *messages;
  g_autoptr(GPtrArray) ids = NULL;
  const char *call_id;
  guint n, position = G_MAXUINT;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (AKC_IS_MESSAGE (message), FALSE);

  if (akc_message_get_status (message) == AKC_MESSAGE_STATUS_PENDING ||
      akc_message_get_status (message) == AKC_MESSAGE_STATUS_STREAMING)
    return FALSE;

  messages = akc_chat_source_get_messages (self->source);
  n = g_list_model_get_n_items (messages);
  for (guint i = n; i > 0 && position == G_MAXUINT; i--)
    {
      g_autoptr(AkcMessage) item = g_list_model_get_item (messages, i - 1);

      if (item == message)
        position = i - 1;
    }
  if (position == G_MAXUINT)
    return FALSE;

  if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_TOOL)
    {
      call_id = akc_message_get_tool_call_id (message);
      if (call_id == NULL)
        return FALSE;

      for (guint i = position; i > 0; i--)
        {
          g_autoptr(AkcMessage) earlier = g_list_model_get_item (messages, i - 1);

          if (akc_message_get_role (earlier) == AKC_MESSAGE_ROLE_ASSISTANT &&
              akc_message_find_tool_call (earlier, call_id) != NULL)
            return TRUE;
        }
      return FALSE;
    }

  /* A replay is a continuation: it comes right after a tool's result.
   * Copies of an instance elsewhere stay (§14, A14). */
  if (position == 0)
    return FALSE;
  {
    g_autoptr(AkcMessage) before = g_list_model_get_item (messages, position - 1);

    if (akc_message_get_role (before) != AKC_MESSAGE_ROLE_TOOL)
      return FALSE;
  }

  ids = component_instances (self, message);
  if (ids == NULL)
    return FALSE;

  for (guint i = position; i > 0 && position - i < REPLAY_LOOKBACK; i--)
    {
      g_autoptr(AkcMessage) earlier = g_list_model_get_item (messages, i - 1);
      g_autoptr(GPtrArray) shown = component_instances (self, earlier);
      gboolean all = shown != NULL;

      for (guint j = 0; all && j < ids->len; j++)
        all = g_ptr_array_find_with_equal_func (shown, g_ptr_array_index (ids, j), g_str_equal, NULL);
      if (all)
        return TRUE;
    }

  return FALSE;
}

/* The address a link of a source list (@value: a source id) or a link
 * card (@value: its href, or NULL) leads to, or NULL. */
static const char *
link_address (AkcJsonValue *frame,
              AkcJsonValue *value)
{
  AkcJsonValue *key = akc_json_value_get_member (frame, "componentKey");
  AkcJsonValue *frame_props = akc_json_value_get_member (frame, "props");
  const char *wanted = value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING
                       ? akc_json_value_get_string (value, NULL) : NULL;
  const char *component_key;

  if (key == NULL || akc_json_value_get_kind (key) != AKC_JSON_KIND_STRING ||
      frame_props == NULL || akc_json_value_get_kind (frame_props) != AKC_JSON_KIND_OBJECT)
    return NULL;
  component_key = akc_json_value_get_string (key, NULL);

  if (g_strcmp0 (component_key, "link-card") == 0)
    {
      AkcJsonValue *href = akc_json_value_get_member (frame_props, "href");

      if (href == NULL || akc_json_value_get_kind (href) != AKC_JSON_KIND_STRING ||
          (value != NULL && g_strcmp0 (wanted, akc_json_value_get_string (href, NULL)) != 0))
        return NULL;
      return akc_json_value_get_string (href, NULL);
    }

  if (g_strcmp0 (component_key, "source-list") == 0 && wanted != NULL)
    {
      AkcJsonValue *sources = akc_json_value_get_member (frame_props, "sources");

      if (sources == NULL || akc_json_value_get_kind (sources) != AKC_JSON_KIND_ARRAY)
        return NULL;

      for (gsize i = 0; i < akc_json_value_get_length (sources); i++)
        {
          AkcJsonValue *source = akc_json_value_get_element (sources, i);
          AkcJsonValue *id = akc_json_value_get_member (source, "id");
          AkcJsonValue *url = akc_json_value_get_member (source, "url");

          if (id != NULL && url != NULL &&
              akc_json_value_get_kind (id) == AKC_JSON_KIND_STRING &&
              akc_json_value_get_kind (url) == AKC_JSON_KIND_STRING &&
              g_strcmp0 (akc_json_value_get_string (id, NULL), wanted) == 0)
            return akc_json_value_get_string (url, NULL);
        }
    }

  return NULL;
}

/**
 * akc_interaction_controller_open_link:
 * @self: a #AkcInteractionController
 * @frame: the decoded frame of a source list or a link card
 * @value: (nullable): the link's value: the id of one of the source
 *   list's sources, or the link card's `href` (%NULL: the card's own)
 *
 * The person activated a link of a source list or a link card. These are
 * navigation, not answers (docs/port-decisions.md): nothing is resolved
 * and a link works every time. When the link's address is an absolute
 * http or https SafeHref (no credentials, application.md §0.5),
 * [signal@InteractionController::link-requested] asks the host to open
 * it.
 *
 * Returns: %TRUE if a link was requested
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_open_link (AkcInteractionController *self,
                                      AkcJsonValue             *frame,
                                      AkcJsonValue             *value)
{
  const char *address;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);

  /* A root-relative address is a SafeHref too, but has no base here
   * (§14 B2). */
  address = link_address (frame, value);
  if (address == NULL || !akc_is_safe_href (address) ||
      (g_ascii_strncasecmp (address, "https://", 8) != 0 && g_ascii_strncasecmp (address, "http://", 7) != 0))
    return FALSE;

  g_signal_emit (self, signals[LINK_REQUESTED], 0, address);
  return TRUE;
}

/**
 * akc_interaction_controller_open_source:
 * @self: a #AkcInteractionController
 * @frame: a source list's decoded frame
 * @source_id: the id of one of its sources
 *
 * The person opened a source of a source list: see
 * [method@InteractionController.open_link].
 *
 * Returns: %TRUE if a link was requested
 *
 * Since: 0.1
 */
gboolean
akc_interaction_controller_open_source (AkcInteractionController *self,
                                        AkcJsonValue             *frame,
                                        const char               *source_id)
{
  g_autoptr(AkcJsonValue) value = NULL;
  AkcJsonValue *key;

  g_return_val_if_fail (AKC_IS_INTERACTION_CONTROLLER (self), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);
  g_return_val_if_fail (source_id != NULL, FALSE);

  key = akc_json_value_get_member (frame, "componentKey");
  if (key == NULL || akc_json_value_get_kind (key) != AKC_JSON_KIND_STRING ||
      g_strcmp0 (akc_json_value_get_string (key, NULL), "source-list") != 0)
    return FALSE;

  value = akc_json_value_new_string (source_id, -1);
  return akc_interaction_controller_open_link (self, frame, value);
}

/* akc-interaction-controller.c: the object, its properties and signals,
 * and what it is set up with
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-chat.h"
#include "akc-deterministic-adapter.h"
#include "akc-interaction-controller-private.h"

/**
 * AkcInteractionController:
 *
 * What happens when a person answers a component of the transcript or a
 * tool confirmation ([application §12.7](wire-formats.html#application-12), §12.8), without any GTK: a
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

guint akc_interaction_controller_signals[N_SIGNALS];

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

/* Whether the answers are kept in the history. */
gboolean
akc_interaction_controller_is_durable (AkcInteractionController *self)
{
  return self->memory != NULL && self->conversation_id != NULL;
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
   * @label: the chosen option's label, as the person saw it
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
  akc_interaction_controller_signals[CHOICE_SELECTED] =
    g_signal_new ("choice-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  g_signal_accumulator_true_handled, NULL,
                  NULL,
                  G_TYPE_BOOLEAN, 3,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
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
  akc_interaction_controller_signals[INTERACTION] =
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
  akc_interaction_controller_signals[LINK_REQUESTED] =
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
 * the conversation @conversation_id ([application §12.7](wire-formats.html#application-12), kept beyond
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
  if (!akc_interaction_controller_is_durable (self))
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

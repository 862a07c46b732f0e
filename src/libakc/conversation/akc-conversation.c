/* akc-conversation.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-private.h"
#include "akc-error.h"
#include "akc-text-private.h"

#define ROUTE_IDENTITY_INVALID "Conversation route identity is invalid."
#define ROUTE_IDS_NOT_UNIQUE   "Conversation route ids must be unique."
#define ROUTE_STATE_UNKNOWN    "Conversation route state is unknown."
#define COMMAND_EMPTY          "Conversation command cannot be empty."

/**
 * AkcConversation:
 *
 * The conversation of a chat definition ([application §3.1](wire-formats.html#application-3)): a state
 * machine and the deterministic routes that drive it.
 *
 * A conversation has an initial state, states with their transitions
 * (`on`: event → target state, in the order they were added) and
 * informational actions, and an ordered list of [class@Route]s. Sessions
 * ([class@Session]) run it: for each model request the first route, in
 * the order added, that is allowed in the current state, whose event the
 * state accepts and whose matcher accepts the latest user message answers
 * the turn without the model, and fires its event.
 *
 * A conversation is built once and then shared: the first session that
 * uses it validates it ([method@Conversation.validate]) and seals it, and
 * it can no longer change.
 *
 * Since: 0.1
 */

typedef struct
{
  char      *name;
  GPtrArray *events;   /* char*, in the order added */
  GPtrArray *targets;  /* char*, parallel to events */
  GStrv      actions;
} State;

struct _AkcConversation
{
  GObject     parent_instance;

  char       *initial;
  GPtrArray  *states;        /* State*, in the order added */
  GHashTable *states_by_name;
  GListStore *routes;
  gboolean    sealed;
};

G_DEFINE_FINAL_TYPE (AkcConversation, akc_conversation, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INITIAL,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
state_free (gpointer data)
{
  State *state = data;

  g_free (state->name);
  g_ptr_array_unref (state->events);
  g_ptr_array_unref (state->targets);
  g_strfreev (state->actions);
  g_free (state);
}

static void
akc_conversation_finalize (GObject *object)
{
  AkcConversation *self = AKC_CONVERSATION (object);

  g_free (self->initial);
  g_hash_table_unref (self->states_by_name);
  g_ptr_array_unref (self->states);
  g_object_unref (self->routes);

  G_OBJECT_CLASS (akc_conversation_parent_class)->finalize (object);
}

static void
akc_conversation_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AkcConversation *self = AKC_CONVERSATION (object);

  switch (prop_id)
    {
    case PROP_INITIAL:
      g_value_set_string (value, self->initial);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AkcConversation *self = AKC_CONVERSATION (object);

  switch (prop_id)
    {
    case PROP_INITIAL:
      g_free (self->initial);
      self->initial = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_conversation_class_init (AkcConversationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_conversation_finalize;
  object_class->get_property = akc_conversation_get_property;
  object_class->set_property = akc_conversation_set_property;

  /**
   * AkcConversation:initial:
   *
   * The state a session starts in.
   *
   * Since: 0.1
   */
  props[PROP_INITIAL] =
    g_param_spec_string ("initial", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_conversation_init (AkcConversation *self)
{
  self->states = g_ptr_array_new_with_free_func (state_free);
  self->states_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->routes = g_list_store_new (AKC_TYPE_ROUTE);
}

/**
 * akc_conversation_new:
 * @initial: the initial state
 *
 * Creates a conversation without states or routes.
 *
 * Returns: (transfer full): a new #AkcConversation
 *
 * Since: 0.1
 */
AkcConversation *
akc_conversation_new (const char *initial)
{
  g_return_val_if_fail (initial != NULL, NULL);

  return g_object_new (AKC_TYPE_CONVERSATION, "initial", initial, NULL);
}

/**
 * akc_conversation_get_initial:
 * @self: a #AkcConversation
 *
 * Gets the initial state.
 *
 * Returns: the initial state
 *
 * Since: 0.1
 */
const char *
akc_conversation_get_initial (AkcConversation *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);

  return self->initial != NULL ? self->initial : "";
}

/**
 * akc_conversation_add_state:
 * @self: a #AkcConversation
 * @name: the state name
 * @actions: (nullable) (array zero-terminated=1): the state's actions, or
 *   %NULL
 *
 * Adds a state. @actions are informational: they appear in
 * [method@Session.get_conversation_snapshot] and are never enforced.
 * Adding a state that exists replaces its actions.
 *
 * Since: 0.1
 */
void
akc_conversation_add_state (AkcConversation    *self,
                            const char         *name,
                            const char * const *actions)
{
  State *state;

  g_return_if_fail (AKC_IS_CONVERSATION (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!self->sealed);

  state = g_hash_table_lookup (self->states_by_name, name);
  if (state == NULL)
    {
      state = g_new0 (State, 1);
      state->name = g_strdup (name);
      state->events = g_ptr_array_new_with_free_func (g_free);
      state->targets = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (self->states, state);
      g_hash_table_insert (self->states_by_name, state->name, state);
    }

  g_strfreev (state->actions);
  state->actions = g_strdupv ((char **) actions);
}

/**
 * akc_conversation_add_transition:
 * @self: a #AkcConversation
 * @state: a state added with [method@Conversation.add_state]
 * @event: the event
 * @target: the state @event leads to
 *
 * Adds the transition @state —@event→ @target, after the state's other
 * transitions; adding an event the state has replaces its target in place.
 * @target need not be added yet, but must exist when the conversation is
 * validated.
 *
 * Since: 0.1
 */
void
akc_conversation_add_transition (AkcConversation *self,
                                 const char      *state,
                                 const char      *event,
                                 const char      *target)
{
  State *s;

  g_return_if_fail (AKC_IS_CONVERSATION (self));
  g_return_if_fail (state != NULL && event != NULL && target != NULL);
  g_return_if_fail (!self->sealed);

  s = g_hash_table_lookup (self->states_by_name, state);
  g_return_if_fail (s != NULL);

  for (guint i = 0; i < s->events->len; i++)
    if (strcmp (g_ptr_array_index (s->events, i), event) == 0)
      {
        g_free (s->targets->pdata[i]);
        s->targets->pdata[i] = g_strdup (target);
        return;
      }

  g_ptr_array_add (s->events, g_strdup (event));
  g_ptr_array_add (s->targets, g_strdup (target));
}

/**
 * akc_conversation_add_route:
 * @self: a #AkcConversation
 * @route: the route
 *
 * Adds @route after the routes already added: routes are tried in this
 * order.
 *
 * Since: 0.1
 */
void
akc_conversation_add_route (AkcConversation *self,
                            AkcRoute        *route)
{
  g_return_if_fail (AKC_IS_CONVERSATION (self));
  g_return_if_fail (AKC_IS_ROUTE (route));
  g_return_if_fail (!self->sealed);

  g_list_store_append (self->routes, route);
}

/**
 * akc_conversation_dup_states:
 * @self: a #AkcConversation
 *
 * Gets the state names, in the order they were added.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names
 *
 * Since: 0.1
 */
char **
akc_conversation_dup_states (AkcConversation *self)
{
  GStrvBuilder *builder;
  char **names;

  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->states->len; i++)
    g_strv_builder_add (builder, ((State *) g_ptr_array_index (self->states, i))->name);
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return names;
}

/**
 * akc_conversation_dup_events:
 * @self: a #AkcConversation
 * @state: a state name
 *
 * Gets the events @state accepts, in the order they were added.
 *
 * Returns: (transfer full) (array zero-terminated=1): the events, empty
 *   for an unknown state
 *
 * Since: 0.1
 */
char **
akc_conversation_dup_events (AkcConversation *self,
                             const char      *state)
{
  GStrvBuilder *builder;
  char **events;
  State *s;

  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);
  g_return_val_if_fail (state != NULL, NULL);

  builder = g_strv_builder_new ();
  s = g_hash_table_lookup (self->states_by_name, state);
  for (guint i = 0; s != NULL && i < s->events->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (s->events, i));
  events = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return events;
}

/**
 * akc_conversation_dup_actions:
 * @self: a #AkcConversation
 * @state: a state name
 *
 * Gets the informational actions of @state.
 *
 * Returns: (transfer full) (array zero-terminated=1): the actions, empty
 *   when the state has none or is unknown
 *
 * Since: 0.1
 */
char **
akc_conversation_dup_actions (AkcConversation *self,
                              const char      *state)
{
  State *s;

  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);
  g_return_val_if_fail (state != NULL, NULL);

  s = g_hash_table_lookup (self->states_by_name, state);
  if (s == NULL || s->actions == NULL)
    return g_new0 (char *, 1);

  return g_strdupv (s->actions);
}

/**
 * akc_conversation_get_target:
 * @self: a #AkcConversation
 * @state: a state name
 * @event: an event
 *
 * Gets where @event leads from @state.
 *
 * Returns: (nullable): the target state, or %NULL when @state does not
 *   accept @event
 *
 * Since: 0.1
 */
const char *
akc_conversation_get_target (AkcConversation *self,
                             const char      *state,
                             const char      *event)
{
  State *s;

  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);
  g_return_val_if_fail (state != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);

  s = g_hash_table_lookup (self->states_by_name, state);
  for (guint i = 0; s != NULL && i < s->events->len; i++)
    if (strcmp (g_ptr_array_index (s->events, i), event) == 0)
      return g_ptr_array_index (s->targets, i);

  return NULL;
}

/**
 * akc_conversation_get_routes:
 * @self: a #AkcConversation
 *
 * Gets the routes, in the order they are tried.
 *
 * Returns: (transfer none): a list of [class@Route]
 *
 * Since: 0.1
 */
GListModel *
akc_conversation_get_routes (AkcConversation *self)
{
  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);

  return G_LIST_MODEL (self->routes);
}

/**
 * akc_conversation_lookup_route:
 * @self: a #AkcConversation
 * @id: a route id
 *
 * Finds the first route with the id @id.
 *
 * Returns: (transfer none) (nullable): the route, or %NULL
 *
 * Since: 0.1
 */
AkcRoute *
akc_conversation_lookup_route (AkcConversation *self,
                               const char      *id)
{
  guint n;

  g_return_val_if_fail (AKC_IS_CONVERSATION (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->routes));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcRoute) route = g_list_model_get_item (G_LIST_MODEL (self->routes), i);

      if (g_strcmp0 (akc_route_get_id (route), id) == 0)
        return route;
    }

  return NULL;
}

static gboolean
is_blank (const char *s)
{
  gsize len = 0;

  akc_text_trim (s, strlen (s), &len);
  return len == 0;
}

static gboolean
config_error (GError     **error,
              const char  *message)
{
  g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, message);
  return FALSE;
}

/* §3.3 step 4; the messages are informative (§14 A10). */
static gboolean
validate_machine (AkcConversation  *self,
                  GError          **error)
{
  if (self->states->len == 0)
    return config_error (error, "states must contain at least one state");

  if (self->initial == NULL || is_blank (self->initial))
    return config_error (error, "initial must be a non-empty string");

  if (!g_hash_table_contains (self->states_by_name, self->initial))
    {
      g_set_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                   "initial state \"%s\" is not defined", self->initial);
      return FALSE;
    }

  for (guint i = 0; i < self->states->len; i++)
    {
      State *s = g_ptr_array_index (self->states, i);

      if (is_blank (s->name))
        return config_error (error, "state names must be non-empty strings");

      for (guint j = 0; j < s->events->len; j++)
        {
          const char *event = g_ptr_array_index (s->events, j);
          const char *target = g_ptr_array_index (s->targets, j);

          if (is_blank (event))
            {
              g_set_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           "state \"%s\" has an empty event name", s->name);
              return FALSE;
            }

          if (!g_hash_table_contains (self->states_by_name, target))
            {
              g_set_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           "transition \"%s.%s\" targets unknown state \"%s\"",
                           s->name, event, target);
              return FALSE;
            }
        }
    }

  return TRUE;
}

/**
 * akc_conversation_validate:
 * @self: a #AkcConversation
 * @error: return location for a #GError
 *
 * Checks the conversation as a session does when it is created
 * ([application §3.3](wire-formats.html#application-3) steps 3 and 4), first failure winning, each with
 * %AKC_ERROR_CONFIG_INVALID:
 *
 * 1. each route in order: an empty command, “Conversation command cannot
 *    be empty.”; an empty id or event, “Conversation route identity is
 *    invalid.”; an id used before, “Conversation route ids must be
 *    unique.”; a restriction to a state that does not exist,
 *    “Conversation route state is unknown.”;
 * 2. the state machine: at least one state, an initial state that exists,
 *    no blank state or event name, every target a state (these messages
 *    are informative only).
 *
 * A route whose event no state accepts is valid: it never fires.
 *
 * Returns: %TRUE if the conversation is valid
 *
 * Since: 0.1
 */
gboolean
akc_conversation_validate (AkcConversation  *self,
                           GError          **error)
{
  g_autoptr(GHashTable) ids = NULL;
  guint n;

  g_return_val_if_fail (AKC_IS_CONVERSATION (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ids = g_hash_table_new (g_str_hash, g_str_equal);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->routes));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcRoute) route = g_list_model_get_item (G_LIST_MODEL (self->routes), i);
      const char *id = akc_route_get_id (route);
      const char *event = akc_route_get_event (route);
      const char *command = akc_route_get_command (route);
      const char * const *states = akc_route_get_states (route);

      if (command != NULL && *command == '\0')
        return config_error (error, COMMAND_EMPTY);

      if (id == NULL || *id == '\0' || event == NULL || *event == '\0')
        return config_error (error, ROUTE_IDENTITY_INVALID);

      if (!g_hash_table_add (ids, (gpointer) id))
        return config_error (error, ROUTE_IDS_NOT_UNIQUE);

      for (guint j = 0; states != NULL && states[j] != NULL; j++)
        if (!g_hash_table_contains (self->states_by_name, states[j]))
          return config_error (error, ROUTE_STATE_UNKNOWN);
    }

  return validate_machine (self, error);
}

void
akc_conversation_seal (AkcConversation *self)
{
  self->sealed = TRUE;
}

/* akc-route.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-enum-types.h"
#include "akc-error.h"
#include "akc-route.h"

#define COMMAND_EMPTY "Conversation command cannot be empty."

/**
 * AkcRoute:
 *
 * One deterministic route of an [class@Conversation] ([application §3.1](wire-formats.html#application-3)).
 *
 * A route has an id, unique in its conversation, the event it fires, an
 * optional list of the states it is restricted to, a matcher that decides
 * whether it answers the latest user message, a responder that writes the
 * whole reply, and the kind its turns are traced as.
 *
 * There are three ways to define one:
 *
 * - a command route ([ctor@Route.new_command], or the
 *   [property@Route:command] property) matches by exact string equality:
 *   no trimming, no case folding, no Unicode normalisation;
 * - [ctor@Route.new] takes a matcher and a responder as C functions;
 * - a subclass overrides [vfunc@Route.match] and [vfunc@Route.respond]
 *   (this is how routes are written from Python or JavaScript).
 *
 * Without a responder, a route answers with [property@Route:response].
 * Matchers and responders fail by returning with an error set: the turn
 * then becomes the error stream “Deterministic route failed.” and the
 * state does not change.
 *
 * Since: 0.1
 */

typedef struct
{
  char                *id;
  char                *event;
  GStrv                states;
  char                *command;
  char                *response;
  AkcTraceKind         trace_kind;

  AkcRouteMatchFunc    match;
  AkcRouteRespondFunc  respond;
  gpointer             user_data;     /* the responder's (and, from akc_route_new(), the matcher's) */
  GDestroyNotify       destroy;
  gpointer             match_data;
  GDestroyNotify       match_destroy; /* only from akc_route_new_full() */
} AkcRoutePrivate;

G_DEFINE_TYPE_WITH_PRIVATE (AkcRoute, akc_route, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_EVENT,
  PROP_STATES,
  PROP_COMMAND,
  PROP_RESPONSE,
  PROP_TRACE_KIND,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static const char * const trace_kinds[] = {
  [AKC_TRACE_KIND_DETERMINISTIC] = "deterministic",
  [AKC_TRACE_KIND_AGENTIC] = "agentic",
  [AKC_TRACE_KIND_REPAIRED] = "repaired",
  [AKC_TRACE_KIND_FALLBACK] = "fallback",
};

/**
 * akc_trace_kind_to_string:
 * @kind: a trace kind
 *
 * Gets the wire name of @kind (`deterministic`, `agentic`, `repaired` or
 * `fallback`).
 *
 * Returns: the name
 *
 * Since: 0.1
 */
const char *
akc_trace_kind_to_string (AkcTraceKind kind)
{
  g_return_val_if_fail (kind <= AKC_TRACE_KIND_FALLBACK, NULL);

  return trace_kinds[kind];
}

/**
 * akc_trace_kind_from_string:
 * @string: a wire name
 * @kind: (out): return location for the kind
 *
 * Parses the wire name of a trace kind.
 *
 * Returns: %TRUE if @string names a trace kind
 *
 * Since: 0.1
 */
gboolean
akc_trace_kind_from_string (const char   *string,
                            AkcTraceKind *kind)
{
  g_return_val_if_fail (string != NULL, FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (trace_kinds); i++)
    if (strcmp (trace_kinds[i], string) == 0)
      {
        *kind = i;
        return TRUE;
      }

  return FALSE;
}

static gboolean
akc_route_real_match (AkcRoute    *self,
                      const char  *input,
                      GError     **error)
{
  AkcRoutePrivate *priv = akc_route_get_instance_private (self);

  if (priv->command != NULL)
    return strcmp (priv->command, input) == 0;

  if (priv->match != NULL)
    return priv->match (self, input, priv->match_data, error);

  return FALSE;
}

static char *
akc_route_real_respond (AkcRoute    *self,
                        const char  *input,
                        const char  *session_id,
                        const char  *message_id,
                        GError     **error)
{
  AkcRoutePrivate *priv = akc_route_get_instance_private (self);

  if (priv->respond != NULL)
    return priv->respond (self, input, session_id, message_id, priv->user_data, error);

  return g_strdup (priv->response != NULL ? priv->response : "");
}

static void
akc_route_finalize (GObject *object)
{
  AkcRoute *self = AKC_ROUTE (object);
  AkcRoutePrivate *priv = akc_route_get_instance_private (self);

  if (priv->destroy != NULL)
    priv->destroy (priv->user_data);
  if (priv->match_destroy != NULL)
    priv->match_destroy (priv->match_data);
  g_free (priv->id);
  g_free (priv->event);
  g_strfreev (priv->states);
  g_free (priv->command);
  g_free (priv->response);

  G_OBJECT_CLASS (akc_route_parent_class)->finalize (object);
}

static void
akc_route_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  AkcRoute *self = AKC_ROUTE (object);
  AkcRoutePrivate *priv = akc_route_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, priv->id);
      break;
    case PROP_EVENT:
      g_value_set_string (value, priv->event);
      break;
    case PROP_STATES:
      g_value_set_boxed (value, priv->states);
      break;
    case PROP_COMMAND:
      g_value_set_string (value, priv->command);
      break;
    case PROP_RESPONSE:
      g_value_set_string (value, priv->response);
      break;
    case PROP_TRACE_KIND:
      g_value_set_enum (value, priv->trace_kind);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_route_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  AkcRoute *self = AKC_ROUTE (object);
  AkcRoutePrivate *priv = akc_route_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_ID:
      priv->id = g_value_dup_string (value);
      break;
    case PROP_EVENT:
      priv->event = g_value_dup_string (value);
      break;
    case PROP_STATES:
      priv->states = g_value_dup_boxed (value);
      break;
    case PROP_COMMAND:
      priv->command = g_value_dup_string (value);
      break;
    case PROP_RESPONSE:
      priv->response = g_value_dup_string (value);
      break;
    case PROP_TRACE_KIND:
      priv->trace_kind = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_route_class_init (AkcRouteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_route_finalize;
  object_class->get_property = akc_route_get_property;
  object_class->set_property = akc_route_set_property;

  klass->match = akc_route_real_match;
  klass->respond = akc_route_real_respond;

  /**
   * AkcRoute:id:
   *
   * The route's id, unique in its conversation. It is persisted in session
   * snapshots, so it should be an identifier ([application §0.3](wire-formats.html#application-0)).
   *
   * Since: 0.1
   */
  props[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcRoute:event:
   *
   * The event the route fires in the conversation's state machine.
   *
   * Since: 0.1
   */
  props[PROP_EVENT] =
    g_param_spec_string ("event", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcRoute:states:
   *
   * The states the route is restricted to, or %NULL for every state.
   *
   * Since: 0.1
   */
  props[PROP_STATES] =
    g_param_spec_boxed ("states", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcRoute:command:
   *
   * When set, the route matches exactly this input ([application §3.2](wire-formats.html#application-3)).
   * An empty command makes the conversation invalid.
   *
   * Since: 0.1
   */
  props[PROP_COMMAND] =
    g_param_spec_string ("command", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcRoute:response:
   *
   * The fixed reply of a route that has no responder.
   *
   * Since: 0.1
   */
  props[PROP_RESPONSE] =
    g_param_spec_string ("response", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcRoute:trace-kind:
   *
   * The kind the route's turns are traced and cached as: deterministic,
   * repaired or fallback.
   *
   * Since: 0.1
   */
  props[PROP_TRACE_KIND] =
    g_param_spec_enum ("trace-kind", NULL, NULL,
                       AKC_TYPE_TRACE_KIND, AKC_TRACE_KIND_DETERMINISTIC,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_route_init (AkcRoute *self)
{
}

/**
 * akc_route_new: (skip)
 * @id: the route id
 * @event: the event the route fires
 * @states: (nullable) (array zero-terminated=1): the states the route is
 *   restricted to, or %NULL
 * @trace_kind: how its turns are traced
 * @match: the matcher
 * @respond: the responder
 * @user_data: data for @match and @respond
 * @destroy: (nullable): frees @user_data with the route
 *
 * Creates a route that matches with @match and answers with @respond,
 * both given @user_data. Language bindings use [ctor@Route.new_full],
 * which gives each its own data.
 *
 * Returns: (transfer full): a new route
 *
 * Since: 0.1
 */
AkcRoute *
akc_route_new (const char          *id,
               const char          *event,
               const char * const  *states,
               AkcTraceKind         trace_kind,
               AkcRouteMatchFunc    match,
               AkcRouteRespondFunc  respond,
               gpointer             user_data,
               GDestroyNotify       destroy)
{
  AkcRoute *self;
  AkcRoutePrivate *priv;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (trace_kind != AKC_TRACE_KIND_AGENTIC, NULL);
  g_return_val_if_fail (match != NULL, NULL);
  g_return_val_if_fail (respond != NULL, NULL);

  self = g_object_new (AKC_TYPE_ROUTE,
                       "id", id,
                       "event", event,
                       "states", states,
                       "trace-kind", trace_kind,
                       NULL);
  priv = akc_route_get_instance_private (self);
  priv->match = match;
  priv->respond = respond;
  priv->user_data = user_data;
  priv->destroy = destroy;
  priv->match_data = user_data;

  return self;
}

/**
 * akc_route_new_full:
 * @id: the route id
 * @event: the event the route fires
 * @states: (nullable) (array zero-terminated=1): the states the route is
 *   restricted to, or %NULL
 * @trace_kind: how its turns are traced
 * @match: (scope notified) (closure match_data) (destroy match_destroy):
 *   the matcher
 * @match_data: data for @match
 * @match_destroy: (nullable): frees @match_data with the route
 * @respond: (scope notified) (closure respond_data) (destroy respond_destroy):
 *   the responder
 * @respond_data: data for @respond
 * @respond_destroy: (nullable): frees @respond_data with the route
 *
 * Creates a route that matches with @match and answers with @respond, as
 * [ctor@Route.new] does, with data of their own for each: the form
 * language bindings use (a Python or JavaScript function for each).
 *
 * Returns: (transfer full): a new route
 *
 * Since: 0.1
 */
AkcRoute *
akc_route_new_full (const char          *id,
                    const char          *event,
                    const char * const  *states,
                    AkcTraceKind         trace_kind,
                    AkcRouteMatchFunc    match,
                    gpointer             match_data,
                    GDestroyNotify       match_destroy,
                    AkcRouteRespondFunc  respond,
                    gpointer             respond_data,
                    GDestroyNotify       respond_destroy)
{
  AkcRoute *self;
  AkcRoutePrivate *priv;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (trace_kind != AKC_TRACE_KIND_AGENTIC, NULL);
  g_return_val_if_fail (match != NULL, NULL);
  g_return_val_if_fail (respond != NULL, NULL);

  self = akc_route_new (id, event, states, trace_kind, match, respond, respond_data, respond_destroy);
  priv = akc_route_get_instance_private (self);
  priv->match_data = match_data;
  priv->match_destroy = match_destroy;

  return self;
}

/**
 * akc_route_new_command:
 * @id: the route id
 * @command: the exact input the route answers
 * @event: the event the route fires
 * @states: (nullable) (array zero-terminated=1): the states the route is
 *   restricted to, or %NULL
 * @trace_kind: how its turns are traced
 * @respond: (scope notified) (closure user_data) (destroy destroy): the
 *   responder
 * @user_data: data for @respond
 * @destroy: (nullable): frees @user_data with the route
 * @error: return location for a #GError
 *
 * Creates a command route ([application §3.2](wire-formats.html#application-3)): it matches when the input
 * equals @command exactly. An empty @command fails with
 * %AKC_ERROR_CONFIG_INVALID, “Conversation command cannot be empty.”
 * (@destroy is then called at once).
 *
 * Returns: (transfer full) (nullable): a new route, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcRoute *
akc_route_new_command (const char          *id,
                       const char          *command,
                       const char          *event,
                       const char * const  *states,
                       AkcTraceKind         trace_kind,
                       AkcRouteRespondFunc  respond,
                       gpointer             user_data,
                       GDestroyNotify       destroy,
                       GError             **error)
{
  AkcRoute *self;
  AkcRoutePrivate *priv;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (command != NULL, NULL);
  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (trace_kind != AKC_TRACE_KIND_AGENTIC, NULL);
  g_return_val_if_fail (respond != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (*command == '\0')
    {
      if (destroy != NULL)
        destroy (user_data);
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, COMMAND_EMPTY);
      return NULL;
    }

  self = g_object_new (AKC_TYPE_ROUTE,
                       "id", id,
                       "command", command,
                       "event", event,
                       "states", states,
                       "trace-kind", trace_kind,
                       NULL);
  priv = akc_route_get_instance_private (self);
  priv->respond = respond;
  priv->user_data = user_data;
  priv->destroy = destroy;

  return self;
}

/**
 * akc_route_get_id:
 * @self: a #AkcRoute
 *
 * Gets the route id.
 *
 * Returns: (nullable): the id
 *
 * Since: 0.1
 */
const char *
akc_route_get_id (AkcRoute *self)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), NULL);

  priv = akc_route_get_instance_private (self);
  return priv->id;
}

/**
 * akc_route_get_event:
 * @self: a #AkcRoute
 *
 * Gets the event the route fires.
 *
 * Returns: (nullable): the event
 *
 * Since: 0.1
 */
const char *
akc_route_get_event (AkcRoute *self)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), NULL);

  priv = akc_route_get_instance_private (self);
  return priv->event;
}

/**
 * akc_route_get_states:
 * @self: a #AkcRoute
 *
 * Gets the states the route is restricted to.
 *
 * Returns: (nullable) (transfer none) (array zero-terminated=1): the
 *   states, or %NULL for every state
 *
 * Since: 0.1
 */
const char * const *
akc_route_get_states (AkcRoute *self)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), NULL);

  priv = akc_route_get_instance_private (self);
  return (const char * const *) priv->states;
}

/**
 * akc_route_get_command:
 * @self: a #AkcRoute
 *
 * Gets the command of a command route.
 *
 * Returns: (nullable): the command, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_route_get_command (AkcRoute *self)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), NULL);

  priv = akc_route_get_instance_private (self);
  return priv->command;
}

/**
 * akc_route_get_response:
 * @self: a #AkcRoute
 *
 * Gets the fixed reply of a route without a responder.
 *
 * Returns: (nullable): the reply, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_route_get_response (AkcRoute *self)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), NULL);

  priv = akc_route_get_instance_private (self);
  return priv->response;
}

/**
 * akc_route_get_trace_kind:
 * @self: a #AkcRoute
 *
 * Gets the kind the route's turns are traced as.
 *
 * Returns: the kind
 *
 * Since: 0.1
 */
AkcTraceKind
akc_route_get_trace_kind (AkcRoute *self)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), AKC_TRACE_KIND_DETERMINISTIC);

  priv = akc_route_get_instance_private (self);
  return priv->trace_kind;
}

/**
 * akc_route_allows_state:
 * @self: a #AkcRoute
 * @state: a state name
 *
 * Gets whether the route may fire in @state: it has no state restriction,
 * or its [property@Route:states] contain @state.
 *
 * Returns: %TRUE if the route may fire in @state
 *
 * Since: 0.1
 */
gboolean
akc_route_allows_state (AkcRoute   *self,
                        const char *state)
{
  AkcRoutePrivate *priv;

  g_return_val_if_fail (AKC_IS_ROUTE (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);

  priv = akc_route_get_instance_private (self);
  return priv->states == NULL || g_strv_contains ((const char * const *) priv->states, state);
}

/**
 * akc_route_match:
 * @self: a #AkcRoute
 * @input: the latest user message's content
 * @error: return location for a #GError
 *
 * Asks the route whether it answers @input.
 *
 * Returns: %TRUE when the route answers; %FALSE when it does not, or with
 *   @error set when the matcher failed
 *
 * Since: 0.1
 */
gboolean
akc_route_match (AkcRoute    *self,
                 const char  *input,
                 GError     **error)
{
  g_return_val_if_fail (AKC_IS_ROUTE (self), FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_ROUTE_GET_CLASS (self)->match (self, input, error);
}

/**
 * akc_route_respond:
 * @self: a #AkcRoute
 * @input: the latest user message's content
 * @session_id: the session's id
 * @message_id: (nullable): the latest user message's id, or %NULL
 * @error: return location for a #GError
 *
 * Asks the route for its whole reply to @input ([application §3.8](wire-formats.html#application-3) for
 * the context).
 *
 * Returns: (transfer full) (nullable): the reply, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_route_respond (AkcRoute    *self,
                   const char  *input,
                   const char  *session_id,
                   const char  *message_id,
                   GError     **error)
{
  g_return_val_if_fail (AKC_IS_ROUTE (self), NULL);
  g_return_val_if_fail (input != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return AKC_ROUTE_GET_CLASS (self)->respond (self, input, session_id, message_id, error);
}

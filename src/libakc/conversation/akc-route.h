/* akc-route.h: one deterministic route of a conversation
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcTraceKind:
 * @AKC_TRACE_KIND_DETERMINISTIC: `deterministic`: a route answered
 * @AKC_TRACE_KIND_AGENTIC: `agentic`: the model answered (never a route's kind)
 * @AKC_TRACE_KIND_REPAIRED: `repaired`: a route answered in place of a
 *   repaired model turn
 * @AKC_TRACE_KIND_FALLBACK: `fallback`: a route answered as a fallback
 *
 * How a turn was answered ([application §3.7](wire-formats.html#application-3)).
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_TRACE_KIND_DETERMINISTIC,
  AKC_TRACE_KIND_AGENTIC,
  AKC_TRACE_KIND_REPAIRED,
  AKC_TRACE_KIND_FALLBACK,
} AkcTraceKind;

AKC_AVAILABLE_IN_ALL
const char *akc_trace_kind_to_string   (AkcTraceKind  kind);
AKC_AVAILABLE_IN_ALL
gboolean    akc_trace_kind_from_string (const char   *string,
                                        AkcTraceKind *kind);

#define AKC_TYPE_ROUTE (akc_route_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (AkcRoute, akc_route, AKC, ROUTE, GObject)

/**
 * AkcRouteClass:
 * @parent_class: the parent class
 * @match: whether the route answers @input; fails with @error set
 * @respond: the whole reply to @input; fails with @error set
 *
 * The virtual methods of [class@Route]. A subclass (in C or through
 * introspection) overrides them to define a route in code.
 */
struct _AkcRouteClass
{
  GObjectClass parent_class;

  gboolean  (*match)   (AkcRoute    *self,
                        const char  *input,
                        GError     **error);
  char     *(*respond) (AkcRoute    *self,
                        const char  *input,
                        const char  *session_id,
                        const char  *message_id,
                        GError     **error);

  /*< private >*/
  gpointer padding[8];
};

/**
 * AkcRouteMatchFunc:
 * @route: the route
 * @input: the latest user message's content
 * @user_data: (closure): the data given to [ctor@Route.new]
 * @error: return location for a #GError
 *
 * Decides whether @route answers @input. A matcher that fails (returns
 * %FALSE with @error set) makes the turn an error stream.
 *
 * Returns: %TRUE when the route answers
 *
 * Since: 0.1
 */
typedef gboolean (*AkcRouteMatchFunc)   (AkcRoute    *route,
                                         const char  *input,
                                         gpointer     user_data,
                                         GError     **error);

/**
 * AkcRouteRespondFunc:
 * @route: the route
 * @input: the latest user message's content
 * @session_id: the session's id
 * @message_id: (nullable): the latest user message's id, %NULL when there
 *   is none
 * @user_data: (closure): the data given to the constructor
 * @error: return location for a #GError
 *
 * Writes the whole assistant reply: plain text, a component frame or an
 * ordered-content envelope. Component instance ids are derived from
 * @message_id, or @session_id when it is %NULL, never from a counter, so
 * a replayed turn shows the same frames ([application §3.8](wire-formats.html#application-3)).
 *
 * Returns: (transfer full) (nullable): the reply, or %NULL with @error set
 *
 * Since: 0.1
 */
typedef char *   (*AkcRouteRespondFunc) (AkcRoute    *route,
                                         const char  *input,
                                         const char  *session_id,
                                         const char  *message_id,
                                         gpointer     user_data,
                                         GError     **error);

AKC_AVAILABLE_IN_ALL
AkcRoute           *akc_route_new             (const char          *id,
                                               const char          *event,
                                               const char * const  *states,
                                               AkcTraceKind         trace_kind,
                                               AkcRouteMatchFunc    match,
                                               AkcRouteRespondFunc  respond,
                                               gpointer             user_data,
                                               GDestroyNotify       destroy);
AKC_AVAILABLE_IN_ALL
AkcRoute           *akc_route_new_full        (const char          *id,
                                               const char          *event,
                                               const char * const  *states,
                                               AkcTraceKind         trace_kind,
                                               AkcRouteMatchFunc    match,
                                               gpointer             match_data,
                                               GDestroyNotify       match_destroy,
                                               AkcRouteRespondFunc  respond,
                                               gpointer             respond_data,
                                               GDestroyNotify       respond_destroy);
AKC_AVAILABLE_IN_ALL
AkcRoute           *akc_route_new_command     (const char          *id,
                                               const char          *command,
                                               const char          *event,
                                               const char * const  *states,
                                               AkcTraceKind         trace_kind,
                                               AkcRouteRespondFunc  respond,
                                               gpointer             user_data,
                                               GDestroyNotify       destroy,
                                               GError             **error);
AKC_AVAILABLE_IN_ALL
const char         *akc_route_get_id          (AkcRoute            *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_route_get_event       (AkcRoute            *self);
AKC_AVAILABLE_IN_ALL
const char * const *akc_route_get_states      (AkcRoute            *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_route_get_command     (AkcRoute            *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_route_get_response    (AkcRoute            *self);
AKC_AVAILABLE_IN_ALL
AkcTraceKind        akc_route_get_trace_kind  (AkcRoute            *self);
AKC_AVAILABLE_IN_ALL
gboolean            akc_route_allows_state    (AkcRoute            *self,
                                               const char          *state);
AKC_AVAILABLE_IN_ALL
gboolean            akc_route_match           (AkcRoute            *self,
                                               const char          *input,
                                               GError             **error);
AKC_AVAILABLE_IN_ALL
char               *akc_route_respond         (AkcRoute            *self,
                                               const char          *input,
                                               const char          *session_id,
                                               const char          *message_id,
                                               GError             **error);

G_END_DECLS

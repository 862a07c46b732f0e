/* akc-conversation-test.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-test.h"

/* ------------------------------------------------------------------ */
/* The fake model                                                      */
/* ------------------------------------------------------------------ */

struct _AkcTestUpstream
{
  GObject  parent_instance;
  guint    n_calls;
  char    *session_id;
};

static void akc_test_upstream_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTestUpstream, akc_test_upstream, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_test_upstream_iface_init))

typedef struct
{
  AkcStream *stream;
  char      *text;
  gboolean   sent;
} Pending;

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_object_unref (p->stream);
  g_free (p->text);
  g_free (p);
}

static gboolean
pending_step (gpointer data)
{
  Pending *p = data;

  if (akc_stream_is_closed (p->stream))
    return G_SOURCE_REMOVE;
  if (!p->sent)
    {
      p->sent = TRUE;
      akc_stream_push_text (p->stream, p->text);
      return G_SOURCE_CONTINUE;
    }
  akc_stream_finish (p->stream);
  return G_SOURCE_REMOVE;
}

static void
upstream_stream (AkcAdapter        *adapter,
                 AkcAdapterRequest *request,
                 AkcStream         *stream)
{
  AkcTestUpstream *self = AKC_TEST_UPSTREAM (adapter);
  AkcMessage *latest = akc_adapter_request_get_latest_user_message (request);
  Pending *p = g_new0 (Pending, 1);

  self->n_calls++;
  g_free (self->session_id);
  self->session_id = g_strdup (akc_adapter_request_get_session_id (request));

  p->stream = g_object_ref (stream);
  p->text = g_strconcat ("AgentsKit received: ", latest != NULL ? akc_message_get_content (latest) : "", NULL);
  g_idle_add_full (G_PRIORITY_DEFAULT, pending_step, p, pending_free);
}

static AkcJsonValue *
upstream_get_capabilities (AkcAdapter *adapter)
{
  return akc_json_value_parse ("{\"streaming\":true}", -1, NULL);
}

static void
akc_test_upstream_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = upstream_stream;
  iface->get_capabilities = upstream_get_capabilities;
}

static void
akc_test_upstream_finalize (GObject *object)
{
  g_free (AKC_TEST_UPSTREAM (object)->session_id);
  G_OBJECT_CLASS (akc_test_upstream_parent_class)->finalize (object);
}

static void
akc_test_upstream_class_init (AkcTestUpstreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_test_upstream_finalize;
}

static void
akc_test_upstream_init (AkcTestUpstream *self)
{
}

AkcTestUpstream *
akc_test_upstream_new (void)
{
  return g_object_new (AKC_TYPE_TEST_UPSTREAM, NULL);
}

guint
akc_test_upstream_get_n_calls (AkcTestUpstream *self)
{
  return self->n_calls;
}

const char *
akc_test_upstream_get_session_id (AkcTestUpstream *self)
{
  return self->session_id;
}

/* ------------------------------------------------------------------ */
/* Definitions as data                                                 */
/* ------------------------------------------------------------------ */

typedef struct
{
  AkcJsonValue *match;     /* nullable */
  AkcJsonValue *response;
  guint         calls;
} RouteData;

static void
route_data_free (gpointer data)
{
  RouteData *rd = data;

  g_clear_pointer (&rd->match, akc_json_value_unref);
  g_clear_pointer (&rd->response, akc_json_value_unref);
  g_free (rd);
}

static gboolean
data_match (AkcRoute    *route,
            const char  *input,
            gpointer     user_data,
            GError     **error)
{
  RouteData *rd = user_data;
  const char *equals = akc_test_member_string (rd->match, "equals");

  if (akc_json_value_get_member (rd->match, "throws") != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "matcher failed");
      return FALSE;
    }

  if (equals != NULL)
    return strcmp (equals, input) == 0;

  return akc_json_value_get_member (rd->match, "always") != NULL;
}

static void
replace_all (GString    *s,
             const char *pattern,
             const char *value)
{
  g_string_replace (s, pattern, value, 0);
}

static char *
data_respond (AkcRoute    *route,
              const char  *input,
              const char  *session_id,
              const char  *message_id,
              gpointer     user_data,
              GError     **error)
{
  RouteData *rd = user_data;
  const char *text = akc_test_member_string (rd->response, "text");
  const char *template = akc_test_member_string (rd->response, "template");
  g_autofree char *calls = NULL;
  GString *out;

  rd->calls++;

  if (akc_json_value_get_member (rd->response, "throws") != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "response failed");
      return NULL;
    }

  if (text != NULL)
    return g_strdup (text);

  g_assert_nonnull (template);
  calls = g_strdup_printf ("%u", rd->calls);
  out = g_string_new (template);
  replace_all (out, "{calls}", calls);
  replace_all (out, "{messageId}", message_id != NULL ? message_id : "");
  replace_all (out, "{sessionId}", session_id);
  replace_all (out, "{input}", input);
  return g_string_free (out, FALSE);
}

static char **
strv_from (AkcJsonValue *array)
{
  GStrvBuilder *builder;
  char **strv;

  if (array == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  for (gsize i = 0; i < akc_json_value_get_length (array); i++)
    g_strv_builder_add (builder, akc_json_value_get_string (akc_json_value_get_element (array, i), NULL));
  strv = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return strv;
}

static AkcRoute *
route_new (AkcJsonValue  *data,
           GError       **error)
{
  RouteData *rd = g_new0 (RouteData, 1);
  AkcJsonValue *match = akc_json_value_get_member (data, "match");
  const char *command = akc_test_member_string (data, "command");
  const char *kind_name = akc_test_member_string (data, "traceKind");
  g_auto(GStrv) states = strv_from (akc_json_value_get_member (data, "states"));
  AkcTraceKind kind = AKC_TRACE_KIND_DETERMINISTIC;

  if (kind_name != NULL)
    g_assert_true (akc_trace_kind_from_string (kind_name, &kind));

  rd->match = match != NULL ? akc_json_value_ref (match) : NULL;
  rd->response = akc_json_value_ref (akc_json_value_get_member (data, "response"));

  if (command != NULL)
    return akc_route_new_command (akc_test_member_string (data, "id"), command, akc_test_member_string (data, "event"),
                                  (const char * const *) states, kind,
                                  data_respond, rd, route_data_free, error);

  return akc_route_new (akc_test_member_string (data, "id"), akc_test_member_string (data, "event"),
                        (const char * const *) states, kind,
                        data_match, data_respond, rd, route_data_free);
}

AkcDefinition *
akc_test_definition_new (AkcJsonValue  *data,
                         AkcAdapter    *upstream,
                         GError       **error)
{
  g_autoptr(AkcDefinition) definition = akc_definition_new (akc_test_member_string (data, "id"), upstream);
  AkcJsonValue *revision = akc_json_value_get_member (data, "revision");
  AkcJsonValue *conv = akc_json_value_get_member (data, "conversation");
  g_autoptr(AkcConversation) conversation = NULL;
  AkcJsonValue *states, *routes;

  if (revision != NULL)
    akc_definition_set_revision (definition, (gint64) akc_json_value_get_number (revision));

  if (conv == NULL)
    return g_steal_pointer (&definition);

  conversation = akc_conversation_new (akc_test_member_string (conv, "initial"));
  states = akc_json_value_get_member (conv, "states");
  for (gsize i = 0; i < akc_json_value_get_member_count (states); i++)
    {
      AkcJsonValue *state = akc_json_value_get_member_value (states, i);
      g_auto(GStrv) actions = strv_from (akc_json_value_get_member (state, "actions"));

      akc_conversation_add_state (conversation, akc_json_value_get_member_name (states, i, NULL),
                                  (const char * const *) actions);
    }
  for (gsize i = 0; i < akc_json_value_get_member_count (states); i++)
    {
      AkcJsonValue *on = akc_json_value_get_member (akc_json_value_get_member_value (states, i), "on");

      for (gsize j = 0; on != NULL && j < akc_json_value_get_member_count (on); j++)
        akc_conversation_add_transition (conversation, akc_json_value_get_member_name (states, i, NULL),
                                         akc_json_value_get_member_name (on, j, NULL),
                                         akc_json_value_get_string (akc_json_value_get_member_value (on, j), NULL));
    }

  routes = akc_json_value_get_member (conv, "routes");
  for (gsize i = 0; routes != NULL && i < akc_json_value_get_length (routes); i++)
    {
      g_autoptr(AkcRoute) route = route_new (akc_json_value_get_element (routes, i), error);

      if (route == NULL)
        return NULL;
      akc_conversation_add_route (conversation, route);
    }

  akc_definition_set_conversation (definition, conversation);
  return g_steal_pointer (&definition);
}

gboolean
akc_test_message_is_normative (const char *message)
{
  static const char * const normative[] = {
    "Chat definition revision is invalid.",
    "Chat session identity is invalid.",
    "Conversation route identity is invalid.",
    "Conversation route ids must be unique.",
    "Conversation route state is unknown.",
    "Conversation command cannot be empty.",
    "Session snapshot is incompatible with this chat definition.",
    "Session conversation metadata is incompatible with this chat definition.",
    "Prepared session is incompatible with this chat definition.",
    "Turn claim is invalid.",
    "Session snapshot changed in another client.",
    "Session snapshot is not valid JSON.",
    "Session snapshot payload is invalid.",
    "Session snapshot uses an unsupported version.",
    NULL
  };

  return g_strv_contains (normative, message);
}

/* ------------------------------------------------------------------ */
/* Requests and streams                                                */
/* ------------------------------------------------------------------ */

GListModel *
akc_test_messages_new (AkcJsonValue *messages)
{
  GListStore *store = g_list_store_new (AKC_TYPE_MESSAGE);

  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *m = akc_json_value_get_element (messages, i);
      const char *role = akc_test_member_string (m, "role");
      g_autoptr(AkcMessage) message = NULL;

      message = akc_message_new (akc_test_member_string (m, "id"),
                                 strcmp (role, "user") == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                 akc_test_member_string (m, "content"), AKC_MESSAGE_STATUS_COMPLETE);
      g_list_store_append (store, message);
    }

  return G_LIST_MODEL (store);
}

AkcJsonValue *
akc_test_str (const char *s)
{
  return akc_json_value_new_string (s, -1);
}

AkcJsonValue *
akc_test_object (const char *first_name,
                 ...)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  const char *name = first_name;
  va_list args;

  va_start (args, first_name);
  while (name != NULL)
    {
      AkcJsonValue *value = va_arg (args, AkcJsonValue *);

      if (value != NULL)
        {
          g_ptr_array_add (names, (gpointer) name);
          g_ptr_array_add (values, value);
        }
      name = va_arg (args, const char *);
    }
  va_end (args);

  return akc_json_value_new_object ((const char * const *) names->pdata,
                                    (AkcJsonValue * const *) values->pdata, names->len);
}

AkcJsonValue *
akc_test_take_array (GPtrArray *values)
{
  return akc_json_value_new_array ((AkcJsonValue * const *) values->pdata, values->len);
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          gpointer   user_data)
{
  GPtrArray *chunks = user_data;

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      g_ptr_array_add (chunks, akc_test_object ("type", akc_test_str ("text"),
                                                "content", akc_test_str (akc_chunk_get_text (chunk, NULL)),
                                                NULL));
      break;
    case AKC_CHUNK_DONE:
      g_ptr_array_add (chunks, akc_test_object ("type", akc_test_str ("done"), NULL));
      break;
    case AKC_CHUNK_ERROR:
      g_ptr_array_add (chunks, akc_test_object ("type", akc_test_str ("error"),
                                                "content", akc_test_str (akc_chunk_get_text (chunk, NULL)),
                                                NULL));
      break;
    case AKC_CHUNK_TOOL_CALL:
    case AKC_CHUNK_METADATA:
    default:
      g_assert_not_reached ();
    }
}

AkcJsonValue *
akc_test_run_stream (AkcAdapter        *adapter,
                     AkcAdapterRequest *request)
{
  g_autoptr(AkcStream) stream = akc_stream_new ();
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), chunks);
  akc_adapter_stream (adapter, request, stream);
  WAIT_UNTIL (akc_stream_is_closed (stream));

  return akc_test_take_array (chunks);
}

static void
on_trace (AkcSession   *session,
          AkcTraceKind  kind,
          const char   *route_id,
          const char   *from_state,
          const char   *to_state,
          gpointer      user_data)
{
  GPtrArray *traces = user_data;

  g_ptr_array_add (traces, akc_test_object ("kind", akc_test_str (akc_trace_kind_to_string (kind)),
                                            "routeId", route_id != NULL ? akc_test_str (route_id) : NULL,
                                            "fromState", akc_test_str (from_state),
                                            "toState", akc_test_str (to_state),
                                            NULL));
}

void
akc_test_collect_traces (AkcSession *session,
                         GPtrArray  *traces)
{
  g_signal_connect (session, "trace", G_CALLBACK (on_trace), traces);
}

void
akc_test_wait_persisted (AkcSession *session)
{
  WAIT_UNTIL (!akc_session_get_persisting (session));
}

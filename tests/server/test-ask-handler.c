/* test-ask-handler.c: every §11.2 vector of server-diagnostics.json
 *
 * SPDX-License-Identifier: MIT
 *
 * Each askServiceHandler case builds an AkcAskHandler with the case's
 * behaviour, mounts it on a loopback SoupServer in this process and sends
 * the request with a real SoupSession; status, headers, body (JSON error,
 * text, or NDJSON events), every metric record (name, unit, outcome, and
 * the value of those that are not durations), what the generator saw and
 * the stored sessions are compared with the reference's.
 *
 * The harness of the reference: site `docs` (assistant `docs-guide`,
 * corpus `docs-public`), subject `user-1`, token `Bearer valid`, request
 * ids `request-1`…, a local retriever with one source (`local-guide`), a
 * generator answering `Grounded answer for «question» ` + `from «first
 * title».` with usage 10/8/18, cost 0.001, model `fixture-model`, and the
 * default headers (JSON content type and the token) when a case gives none.
 */

#include "config.h"

#include <string.h>

#include "akc-ask-handler.h"
#include "akc-server-test.h"
#include "akc-fixture.h"

#define FIXTURES "application/server-diagnostics.json"

/* The retrievers of the harness ---------------------------------------- */

#define TEST_TYPE_RETRIEVER (test_retriever_get_type ())
G_DECLARE_FINAL_TYPE (TestRetriever, test_retriever, TEST, RETRIEVER, GObject)

struct _TestRetriever
{
  GObject  parent_instance;
  char    *mode;   /* NULL: the local guide */
  GTask   *hung;
};

static void test_retriever_iface_init (AkcAskRetrieverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestRetriever, test_retriever, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ASK_RETRIEVER, test_retriever_iface_init))

static void
test_retriever_finalize (GObject *object)
{
  TestRetriever *self = TEST_RETRIEVER (object);

  g_free (self->mode);
  g_clear_object (&self->hung);
  G_OBJECT_CLASS (test_retriever_parent_class)->finalize (object);
}

static void
test_retriever_class_init (TestRetrieverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_retriever_finalize;
}

static void
test_retriever_init (TestRetriever *self)
{
}

static void
on_cancelled (GCancellable *cancellable,
              gpointer      user_data)
{
  GTask *task = user_data;

  g_task_return_pointer (task, akc_test_parse_json ("[]"), (GDestroyNotify) akc_json_value_unref);
}

static void
retrieve_async (AkcAskRetriever *retriever, const char *question, guint limit, GCancellable *cancellable,
                GAsyncReadyCallback callback, gpointer user_data)
{
  TestRetriever *self = TEST_RETRIEVER (retriever);
  g_autoptr(GTask) task = g_task_new (self, NULL, callback, user_data);
  const char *mode = self->mode;

  g_task_set_check_cancellable (task, FALSE);
  if (g_strcmp0 (mode, "throws") == 0)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "retriever exploded at /secret/path");
  else if (g_strcmp0 (mode, "hangs") == 0)
    g_set_object (&self->hung, task);
  else if (g_strcmp0 (mode, "waits") == 0)
    g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), g_object_ref (task), g_object_unref);
  else if (g_strcmp0 (mode, "unsafe") == 0)
    g_task_return_pointer (task, akc_test_parse_json ("[{\"id\":\"bad\",\"title\":\"Bad\",\"href\":\"javascript:alert(1)\","
                                        "\"excerpt\":\"x\"},{\"id\":\"creds\",\"title\":\"Creds\","
                                        "\"href\":\"https://user:pass@example.test/\",\"excerpt\":\"x\"}]"),
                           (GDestroyNotify) akc_json_value_unref);
  else if (g_strcmp0 (mode, "many") == 0)
    {
      g_autoptr(GString) text = g_string_new ("[");

      for (guint i = 1; i <= 6; i++)
        g_string_append_printf (text, "%s{\"id\":\"s%u\",\"title\":\"Source %u\",\"href\":\"/docs/%u\","
                                "\"excerpt\":\"Excerpt %u.\"}", i > 1 ? "," : "", i, i, i, i);
      g_string_append (text, "]");
      g_task_return_pointer (task, akc_test_parse_json (text->str), (GDestroyNotify) akc_json_value_unref);
    }
  else
    g_task_return_pointer (task, akc_test_parse_json ("[{\"id\":\"local-guide\",\"title\":\"Local guide\",\"href\":\"/docs/start\","
                                        "\"excerpt\":\"Start with the local guide.\"}]"),
                           (GDestroyNotify) akc_json_value_unref);
}

static AkcJsonValue *
retrieve_finish (AkcAskRetriever *retriever, GAsyncResult *result, GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_retriever_iface_init (AkcAskRetrieverInterface *iface)
{
  iface->retrieve_async = retrieve_async;
  iface->retrieve_finish = retrieve_finish;
}

/* The generator of the harness ----------------------------------------- */

#define TEST_TYPE_GENERATOR (test_generator_get_type ())
G_DECLARE_FINAL_TYPE (TestGenerator, test_generator, TEST, GENERATOR, GObject)

struct _TestGenerator
{
  GObject    parent_instance;
  char      *mode;
  GPtrArray *saw;   /* AkcJsonValue: ["role:content", …] per call */
};

static void test_generator_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestGenerator, test_generator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, test_generator_iface_init))

static void
test_generator_finalize (GObject *object)
{
  TestGenerator *self = TEST_GENERATOR (object);

  g_free (self->mode);
  g_ptr_array_unref (self->saw);
  G_OBJECT_CLASS (test_generator_parent_class)->finalize (object);
}

static void
test_generator_class_init (TestGeneratorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_generator_finalize;
}

static void
test_generator_init (TestGenerator *self)
{
  self->saw = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
}

typedef struct
{
  AkcStream *stream;
  GPtrArray *chunks;
  guint      next;
} Generation;

static gboolean
generation_tick (gpointer data)
{
  Generation *g = data;

  if (akc_stream_is_closed (g->stream) || g->next >= g->chunks->len)
    {
      g_object_unref (g->stream);
      g_ptr_array_unref (g->chunks);
      g_free (g);
      return G_SOURCE_REMOVE;
    }
  akc_stream_push (g->stream, g_ptr_array_index (g->chunks, g->next++));
  return G_SOURCE_CONTINUE;
}

static void
generator_stream (AkcAdapter *adapter, AkcAdapterRequest *request, AkcStream *stream)
{
  TestGenerator *self = TEST_GENERATOR (adapter);
  GListModel *messages = akc_adapter_request_get_messages (request);
  AkcJsonValue *sources = akc_json_value_get_member (akc_adapter_request_get_metadata (request), "sources");
  const char *title = akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (sources, 0),
                                                                             "title"), NULL);
  const char *question = akc_message_get_content (akc_adapter_request_get_latest_user_message (request));
  g_autoptr(GPtrArray) saw = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  Generation *g;

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) m = g_list_model_get_item (messages, i);
      g_autofree char *entry = g_strdup_printf ("%s:%s", akc_message_get_role (m) == AKC_MESSAGE_ROLE_USER
                                                         ? "user" : "assistant", akc_message_get_content (m));

      g_ptr_array_add (saw, akc_json_value_new_string (entry, -1));
    }
  g_ptr_array_add (self->saw, akc_json_value_new_array ((AkcJsonValue * const *) saw->pdata, saw->len));

  if (g_strcmp0 (self->mode, "waits") == 0)
    return;

  g = g_new0 (Generation, 1);
  g->stream = g_object_ref (stream);
  g->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  if (g_strcmp0 (self->mode, "empty") == 0)
    g_ptr_array_add (g->chunks, akc_chunk_new_text ("   ", 3));
  else if (g_strcmp0 (self->mode, "long") == 0)
    {
      g_autofree char *x = g_strnfill (16000, 'x');

      g_ptr_array_add (g->chunks, akc_chunk_new_text (x, 16000));
      g_ptr_array_add (g->chunks, akc_chunk_new_text (x, 1000));
    }
  else if (g_strcmp0 (self->mode, "throws") == 0)
    {
      g_ptr_array_add (g->chunks, akc_chunk_new_text ("partial", 7));
      g_ptr_array_add (g->chunks, akc_chunk_new_error ("GENERATOR_EXPLODED", "secret detail"));
    }
  else
    {
      g_autofree char *first = g_strdup_printf ("Grounded answer for %s ", question);
      g_autofree char *second = g_strdup_printf ("from %s.", title);

      g_ptr_array_add (g->chunks, akc_chunk_new_text (first, -1));
      g_ptr_array_add (g->chunks, akc_chunk_new_text (second, -1));
      g_ptr_array_add (g->chunks, akc_chunk_new_metadata ("{\"usage\":{\"inputTokens\":10,\"outputTokens\":8,"
                                                          "\"totalTokens\":18,\"costUsd\":0.001,"
                                                          "\"model\":\"fixture-model\"}}"));
    }
  g_ptr_array_add (g->chunks, akc_chunk_new_done ());
  g_idle_add (generation_tick, g);
}

static void
test_generator_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = generator_stream;
}

/* The host ---------------------------------------------------------------- */

typedef struct
{
  AkcJsonValue *behaviour;
  AkcJsonValue *site;
  GPtrArray    *metrics;
  guint         next_id;
} Host;

static AkcJsonValue *
host_site (AkcJsonValue *context, gpointer user_data, GError **error)
{
  Host *host = user_data;

  return akc_json_value_ref (host->site);
}

static char *
host_subject (AkcJsonValue *context, gpointer user_data)
{
  Host *host = user_data;
  AkcJsonValue *v = akc_json_value_get_member (host->behaviour, "subjectId");

  return g_strdup (v != NULL ? akc_json_value_get_string (v, NULL) : "user-1");
}

static gboolean
host_rate_limit (AkcJsonValue *context, AkcJsonValue *site, gint64 *retry_after, gpointer user_data)
{
  *retry_after = 15;
  return FALSE;
}

static void
host_metric (AkcJsonValue *metric, gpointer user_data)
{
  Host *host = user_data;

  g_ptr_array_add (host->metrics, akc_json_value_ref (metric));
}

static gint64
host_now (gpointer user_data)
{
  return 0;
}

static char *
host_create_id (gpointer user_data)
{
  Host *host = user_data;

  return g_strdup_printf ("request-%u", ++host->next_id);
}

static AkcJsonValue *
host_auth (SoupServerMessage *message, gpointer user_data)
{
  const char *header = soup_message_headers_get_one (soup_server_message_get_request_headers (message),
                                                     "Authorization");

  if (g_strcmp0 (header, "Bearer valid") == 0)
    return akc_test_parse_json ("{\"subject\":\"user-1\"}");
  soup_server_message_set_status (message, 401, NULL);
  soup_server_message_set_response (message, "text/plain;charset=UTF-8", SOUP_MEMORY_STATIC, "Unauthorized", 12);
  return NULL;
}

static AkcJsonValue *
default_site (AkcJsonValue *behaviour)
{
  AkcJsonValue *given = akc_json_value_get_member (behaviour, "site");
  AkcJsonValue *limits = akc_json_value_get_member (behaviour, "limits");
  const char *persistence = akc_test_member_string (behaviour, "persistence");
  const char *mode = akc_test_member_string (behaviour, "mode");
  g_autoptr(GString) text = NULL;
  double limit[4] = { 10000, 5000, 10000, 5 };
  static const char * const names[] = { "requestTimeoutMs", "retrievalTimeoutMs", "generationTimeoutMs", "maxSources" };

  if (given != NULL)
    return akc_json_value_ref (given);
  for (guint i = 0; limits != NULL && i < 4; i++)
    if (akc_json_value_get_member (limits, names[i]) != NULL)
      limit[i] = akc_json_value_get_number (akc_json_value_get_member (limits, names[i]));

  text = g_string_new (NULL);
  g_string_printf (text, "{\"protocol\":\"agentskit.chat.backend-site\",\"version\":1,\"siteId\":\"docs\","
                   "\"assistant\":{\"id\":\"docs-guide\",\"name\":\"Docs Guide\",\"suggestions\":[\"How do I start?\"]},"
                   "\"corpus\":{\"id\":\"docs-public\",\"mode\":\"%s\"},\"components\":[\"source-list\"],"
                   "\"actions\":[],\"limits\":{\"requestTimeoutMs\":%.0f,\"retrievalTimeoutMs\":%.0f,"
                   "\"generationTimeoutMs\":%.0f,\"maxSources\":%.0f},\"persistence\":{\"mode\":\"%s\"}}",
                   mode != NULL ? mode : "local", limit[0], limit[1], limit[2], limit[3],
                   persistence != NULL ? persistence : "disabled");
  return akc_test_parse_json (text->str);
}

/* Each line is the canonical text of its event. */
static AkcJsonValue *
canonical_event (AkcJsonValue *event,
                 const char   *line)
{
  g_autofree char *canonical = akc_json_value_to_canonical (event, NULL);

  g_assert_cmpstr (canonical, ==, line);
  return akc_json_value_ref (event);
}

static gboolean
is_duration (const char *unit)
{
  return g_strcmp0 (unit, "ms") == 0;
}

static void
run_case (const AkcFixtureCase *fc, gconstpointer user_data)
{
  AkcJsonValue *request = akc_json_value_get_member (fc->input, "request");
  AkcJsonValue *behaviour = akc_json_value_get_member (fc->input, "behaviour");
  AkcJsonValue *options_value = akc_json_value_get_member (behaviour, "options");
  AkcJsonValue *construction = akc_fixture_expect (fc, "constructionError");
  AkcJsonValue *headers = akc_json_value_get_member (request, "headers");
  AkcJsonValue *stored = akc_json_value_get_member (behaviour, "storedSessions");
  const char *store_kind = akc_test_member_string (behaviour, "store");
  const char *url_text = akc_test_member_string (request, "url");
  const char *method = akc_test_member_string (request, "method");
  AkcJsonValue *v;
  AkcAskHandlerOptions options;
  Host host = { 0, };
  g_autoptr(TestRetriever) retriever = g_object_new (TEST_TYPE_RETRIEVER, NULL);
  g_autoptr(TestGenerator) generator = g_object_new (TEST_TYPE_GENERATOR, NULL);
  g_autoptr(AkcAskStore) store = NULL;
  g_autoptr(AkcAskHandler) handler = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) base = NULL;
  g_autofree char *url = NULL;
  GSList *uris;

  host.behaviour = behaviour;
  host.site = default_site (behaviour);
  host.metrics = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  akc_ask_handler_options_init (&options);
  if (options_value != NULL)
    {
      if ((v = akc_json_value_get_member (options_value, "maxBodyBytes")) != NULL)
        options.max_body_bytes = akc_json_value_get_number (v);
      if ((v = akc_json_value_get_member (options_value, "bootstrapTimeoutMs")) != NULL)
        options.bootstrap_timeout_ms = akc_json_value_get_number (v);
    }
  handler = akc_ask_handler_new (&options, host_site, host_subject, &host, &error);
  if (construction != NULL)
    {
      guint status = 0;

      g_assert_null (handler);
      g_assert_cmpstr (akc_server_error_get_code (error, &status), ==, akc_test_member_string (construction, "code"));
      g_assert_cmpstr (error->message, ==, akc_test_member_string (construction, "message"));
      g_assert_cmpuint (status, ==, akc_json_value_get_number (akc_json_value_get_member (construction, "status")));
      goto out;
    }
  g_assert_no_error (error);

  retriever->mode = g_strdup (akc_test_member_string (behaviour, "retriever"));
  generator->mode = g_strdup (akc_test_member_string (behaviour, "generator"));
  akc_ask_handler_set_auth (handler, host_auth, NULL);
  if ((v = akc_json_value_get_member (behaviour, "noRetriever")) != NULL && akc_json_value_get_boolean (v))
    akc_ask_handler_set_retrievers (handler, NULL, NULL);
  else if (g_strcmp0 (akc_test_member_string (behaviour, "mode"), "federated") == 0)
    akc_ask_handler_set_retrievers (handler, NULL, AKC_ASK_RETRIEVER (retriever));
  else
    akc_ask_handler_set_retrievers (handler, AKC_ASK_RETRIEVER (retriever), NULL);
  akc_ask_handler_set_generator (handler, AKC_ADAPTER (generator));
  if (store_kind != NULL)
    {
      store = akc_ask_memory_store_new ();
      if (g_strcmp0 (store_kind, "conflict") == 0)
        akc_ask_memory_store_refuse (AKC_ASK_MEMORY_STORE (store), "conflict");
      for (gsize i = 0; stored != NULL && i < akc_json_value_get_member_count (stored); i++)
        akc_ask_memory_store_put (AKC_ASK_MEMORY_STORE (store), akc_json_value_get_member_name (stored, i, NULL),
                                  akc_json_value_get_member_value (stored, i));
      akc_ask_handler_set_store (handler, store);
    }
  if ((v = akc_json_value_get_member (behaviour, "rateLimited")) != NULL && akc_json_value_get_boolean (v))
    akc_ask_handler_set_rate_limit (handler, host_rate_limit, NULL);
  akc_ask_handler_set_metrics (handler, host_metric, &host);
  akc_ask_handler_set_clock (handler, host_now, host_create_id, &host);

  server = soup_server_new (NULL, NULL);
  akc_ask_handler_attach (handler, server, "/v1/ask");
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  base = g_uri_ref (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  {
    const char *query = url_text != NULL ? strchr (url_text, '?') : NULL;

    url = g_strdup_printf ("http://127.0.0.1:%d/v1/ask%s", g_uri_get_port (base), query != NULL ? query : "");
  }

  message = soup_message_new (method != NULL ? method : "POST", url);
  if (headers == NULL)
    {
      soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", "Bearer valid");
    }
  else
    for (gsize i = 0; i < akc_json_value_get_member_count (headers); i++)
      if (g_ascii_strcasecmp (akc_json_value_get_member_name (headers, i, NULL), "content-type") != 0)
        soup_message_headers_replace (soup_message_get_request_headers (message),
                                      akc_json_value_get_member_name (headers, i, NULL),
                                      akc_json_value_get_string (akc_json_value_get_member_value (headers, i), NULL));
  if ((body = akc_server_test_vector_body (request)) != NULL)
    soup_message_set_request_body_from_bytes (message,
                                              headers == NULL ? "application/json" : akc_test_member_string (headers, "content-type"),
                                              body);

  session = soup_session_new ();
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  response = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  WAIT_UNTIL (akc_ask_handler_get_n_active (handler) <= 0);

  akc_server_test_check_head (fc, message);
  /* no headers beyond the reference's, but the transport's own */
  v = akc_fixture_expect (fc, "headers");
  if (akc_fixture_expect (fc, "text") == NULL)
    g_assert_cmpint (soup_message_headers_get_one (soup_message_get_response_headers (message), "Retry-After") != NULL,
                     ==, akc_json_value_get_member (v, "retry-after") != NULL);
  akc_server_test_check_body (fc, response, canonical_event);

  /* metrics: in order, with the values that are not durations */
  v = akc_fixture_expect (fc, "metrics");
  g_assert_nonnull (v);
  {
    g_autoptr(GPtrArray) projected = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
    g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
    g_autoptr(AkcJsonValue) a = NULL;
    g_autoptr(AkcJsonValue) e = NULL;

    for (guint i = 0; i < host.metrics->len; i++)
      {
        AkcJsonValue *m = g_ptr_array_index (host.metrics, i);
        g_autofree char *value = akc_json_value_to_canonical (akc_json_value_get_member (m, "value"), NULL);
        g_autofree char *text = g_strdup_printf ("{\"name\":\"%s\",\"unit\":\"%s\",\"outcome\":\"%s\",\"value\":%s}",
                                                 akc_test_member_string (m, "name"), akc_test_member_string (m, "unit"),
                                                 akc_test_member_string (m, "outcome"),
                                                 is_duration (akc_test_member_string (m, "unit")) ? "0" : value);

        g_assert_cmpstr (akc_test_member_string (m, "siteId"), ==, akc_test_member_string (host.site, "siteId"));
        g_assert_cmpstr (akc_test_member_string (m, "requestId"), ==, "request-1");
        g_ptr_array_add (projected, akc_test_parse_json (text));
      }
    for (gsize i = 0; i < akc_json_value_get_length (v); i++)
      g_ptr_array_add (expected, akc_json_value_ref (akc_json_value_get_element (v, i)));
    a = akc_json_value_new_array ((AkcJsonValue * const *) projected->pdata, projected->len);
    e = akc_json_value_new_array ((AkcJsonValue * const *) expected->pdata, expected->len);
    akc_assert_json_equal (a, e);
  }

  if ((v = akc_fixture_expect (fc, "storedSessions")) != NULL)
    {
      g_autoptr(AkcJsonValue) all = store != NULL ? akc_ask_memory_store_dup_all (AKC_ASK_MEMORY_STORE (store))
                                                  : akc_test_parse_json ("{}");

      akc_assert_json_equal (all, v);
    }
  if ((v = akc_fixture_expect (fc, "generatorSaw")) != NULL)
    {
      g_autoptr(AkcJsonValue) saw = akc_json_value_new_array ((AkcJsonValue * const *) generator->saw->pdata,
                                                              generator->saw->len);

      akc_assert_json_equal (saw, v);
    }

  soup_server_disconnect (server);
out:
  akc_json_value_unref (host.site);
  g_ptr_array_unref (host.metrics);
}

int
main (int argc, char **argv)
{
  guint n;

  g_test_init (&argc, &argv, NULL);
  n = akc_fixture_add_tests (FIXTURES, "/server/ask-handler", "askServiceHandler", run_case, NULL);
  g_assert_cmpuint (n, ==, 37);
  return g_test_run ();
}

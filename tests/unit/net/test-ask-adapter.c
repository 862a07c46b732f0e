/* test-ask-adapter.c: AkcAskAdapter (application.md §8.1–§8.5)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every projectAskEvent, projectAskMessages, decodeAskEvents, askRequest
 * and askStream vector of application/ask-adapter.json as its own test.
 *
 * askStream vectors run twice. The decoding core is driven with exactly
 * the fixture's transport reads. Then the adapter runs against a loopback
 * SoupServer that writes each body chunk as one HTTP chunk, paced so the
 * client reads one chunk at a time: when the adapter's reads matched the
 * fixture's, its chunks must be the expected ones; when HTTP split or
 * joined them, its chunks must be what the core makes of the reads it
 * really saw.
 */

#include "config.h"

#include <string.h>

#include "akc.h"
#include "akc-ask-adapter-private.h"
#include "akc-ask-projection-private.h"
#include "akc-ask-response-private.h"
#include "akc-fixture.h"
#include "akc-test-http-server.h"
#include "akc-test.h"

static AkcTestHttpServer *server;

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The fixture projectors (README "Stream cases"). */
static AkcJsonValue *
fixture_projector (AkcJsonValue *event,
                   const char   *kind)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *args = NULL;
  g_autofree char *id = NULL;

  if (g_strcmp0 (kind, "throws") == 0)
    return NULL;

  args = akc_json_value_to_canonical (akc_json_value_get_member (event, "args"), NULL);
  id = akc_json_value_to_canonical (akc_json_value_get_member (event, "id"), NULL);
  g_string_printf (text, "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                         "\"componentKey\":\"%s\",\"instanceId\":%s,\"props\":%s,"
                         "\"fallback\":{\"kind\":\"ask-tool\",\"summary\":\"Tool.\"}}",
                   g_strcmp0 (kind, "invalid") == 0 ? "Invalid Key" : "ask-tool", id, args);

  return akc_test_parse_json (text->str);
}

static AkcJsonValue *
core_projector (AkcJsonValue *event,
                gpointer      user_data)
{
  return fixture_projector (event, user_data);
}

static AkcJsonValue *
project_tool_cb (AkcAskAdapter *adapter,
                 AkcJsonValue  *event,
                 gpointer       user_data)
{
  return fixture_projector (event, user_data);
}

static AkcMessageRole
role_from_string (const char *role)
{
  if (g_strcmp0 (role, "user") == 0)
    return AKC_MESSAGE_ROLE_USER;
  if (g_strcmp0 (role, "assistant") == 0)
    return AKC_MESSAGE_ROLE_ASSISTANT;
  if (g_strcmp0 (role, "system") == 0)
    return AKC_MESSAGE_ROLE_SYSTEM;
  return AKC_MESSAGE_ROLE_TOOL;
}

static GListModel *
messages_from_json (AkcJsonValue *messages)
{
  GListStore *store = g_list_store_new (AKC_TYPE_MESSAGE);

  for (gsize i = 0; messages != NULL && i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *m = akc_json_value_get_element (messages, i);
      g_autofree char *id = g_strdup_printf ("m%" G_GSIZE_FORMAT, i);
      g_autoptr(AkcMessage) message = NULL;

      message = akc_message_new (id, role_from_string (akc_test_member_string (m, "role")),
                                 akc_test_member_string (m, "content"), AKC_MESSAGE_STATUS_COMPLETE);
      g_list_store_append (store, message);
    }

  return G_LIST_MODEL (store);
}

static GListModel *
one_question (void)
{
  g_autoptr(AkcJsonValue) messages = akc_test_parse_json ("[{\"role\":\"user\",\"content\":\"Question\"}]");

  return messages_from_json (messages);
}

static AkcJsonValue *
chunk_to_json (AkcChunk *chunk)
{
  g_autoptr(GString) text = g_string_new (NULL);
  gsize length;
  const char *content = akc_chunk_get_text (chunk, &length);

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      g_string_append (text, "{\"type\":\"text\",\"content\":");
      break;
    case AKC_CHUNK_ERROR:
      g_string_append (text, "{\"type\":\"error\",\"content\":");
      break;
    case AKC_CHUNK_DONE:
      return akc_test_parse_json ("{\"type\":\"done\"}");
    case AKC_CHUNK_TOOL_CALL:
    case AKC_CHUNK_METADATA:
    default:
      g_assert_not_reached ();
    }

  {
    g_autoptr(AkcJsonValue) s = akc_json_value_new_string (content, length);
    g_autofree char *encoded = akc_json_value_to_canonical (s, NULL);

    g_string_append (text, encoded);
    g_string_append_c (text, '}');
  }

  return akc_test_parse_json (text->str);
}

static AkcJsonValue *
chunks_to_json (GPtrArray *chunks)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < chunks->len; i++)
    g_ptr_array_add (items, chunk_to_json (g_ptr_array_index (chunks, i)));

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

/* The text chunks' contents, concatenated. */
static GString *
text_content (GPtrArray *chunks,
              guint     *n_text)
{
  GString *content = g_string_new (NULL);

  *n_text = 0;
  for (guint i = 0; i < chunks->len; i++)
    {
      AkcChunk *chunk = g_ptr_array_index (chunks, i);
      gsize length;
      const char *text = akc_chunk_get_text (chunk, &length);

      if (akc_chunk_get_kind (chunk) != AKC_CHUNK_TEXT)
        continue;
      g_string_append_len (content, text, length);
      (*n_text)++;
    }

  return content;
}

/* Compares @chunks with the expectation: `chunks` + `decoded`, or the
 * `summary` of a large result. */
static void
assert_stream_expect (const AkcFixtureCase *fc,
                      GPtrArray            *chunks)
{
  AkcJsonValue *expected_chunks = akc_fixture_expect (fc, "chunks");
  AkcJsonValue *summary = akc_fixture_expect (fc, "summary");
  AkcJsonValue *decoded_expect = akc_fixture_expect (fc, "decoded");
  guint n_text;
  g_autoptr(GString) content = text_content (chunks, &n_text);
  g_autoptr(AkcJsonValue) parts = NULL;
  gboolean complete = FALSE;

  if (n_text > 0)
    parts = akc_assistant_content_decode (content->str, content->len, &complete, NULL);

  if (expected_chunks != NULL)
    {
      g_autoptr(AkcJsonValue) actual = chunks_to_json (chunks);

      akc_assert_json_equal (actual, expected_chunks);

      if (decoded_expect == NULL || akc_json_value_get_kind (decoded_expect) == AKC_JSON_KIND_NULL)
        g_assert_cmpuint (n_text, ==, 0);
      else
        {
          g_assert_nonnull (parts);
          akc_assert_json_equal (parts, akc_json_value_get_member (decoded_expect, "parts"));
          g_assert_cmpint (complete, ==,
                           akc_json_value_get_boolean (akc_json_value_get_member (decoded_expect, "complete")));
        }
      return;
    }

  g_assert_nonnull (summary);
  g_assert_cmpuint (chunks->len, ==,
                    (guint) akc_json_value_get_number (akc_json_value_get_member (summary, "chunkCount")));
  g_assert_cmpuint (n_text, ==,
                    (guint) akc_json_value_get_number (akc_json_value_get_member (summary, "textChunkCount")));
  g_assert_cmpuint (content->len, ==,
                    (gsize) akc_json_value_get_number (akc_json_value_get_member (summary, "contentUtf8Bytes")));
  {
    g_autoptr(AkcJsonValue) last = chunk_to_json (g_ptr_array_index (chunks, chunks->len - 1));

    akc_assert_json_equal (last, akc_json_value_get_member (summary, "last"));
  }
  g_assert_nonnull (parts);
  g_assert_true (akc_json_value_get_boolean (akc_json_value_get_member (summary, "decodedOk")));
  g_assert_cmpint (complete, ==,
                   akc_json_value_get_boolean (akc_json_value_get_member (summary, "decodedComplete")));
  g_assert_cmpuint (akc_json_value_get_length (parts), ==,
                    (gsize) akc_json_value_get_number (akc_json_value_get_member (summary, "decodedPartCount")));
  akc_assert_json_equal (akc_json_value_get_element (parts, 0),
                         akc_json_value_get_member (summary, "firstPart"));
  akc_assert_json_equal (akc_json_value_get_element (parts, akc_json_value_get_length (parts) - 1),
                         akc_json_value_get_member (summary, "lastPart"));
}

/* ------------------------------------------------------------------ */
/* §8.4 projectAskEvent                                                */
/* ------------------------------------------------------------------ */

static void
test_project_event (const AkcFixtureCase *fc,
                    gconstpointer         data)
{
  AkcJsonValue *event_json = akc_json_value_get_member (fc->input, "event");
  const char *projector = akc_test_member_string (fc->input, "projector");
  g_autofree char *event_text = akc_json_value_to_canonical (event_json, NULL);
  g_autoptr(AkcJsonValue) event = akc_ask_event_decode (event_text, -1);
  AkcJsonValue *expected = akc_fixture_expect (fc, "projection");
  AkcAskProjection projection;
  g_autoptr(GString) actual = g_string_new (NULL);

  g_assert_nonnull (event);
  akc_ask_project_event (event, projector != NULL ? core_projector : NULL,
                         (gpointer) projector, &projection);

  switch (projection.kind)
    {
    case AKC_ASK_PROJECTION_NONE:
      g_string_append (actual, "null");
      break;
    case AKC_ASK_PROJECTION_TEXT:
    case AKC_ASK_PROJECTION_ERROR:
      {
        g_autoptr(AkcJsonValue) s = akc_json_value_new_string (projection.text, projection.length);
        g_autofree char *encoded = akc_json_value_to_canonical (s, NULL);

        g_string_printf (actual, projection.kind == AKC_ASK_PROJECTION_TEXT
                                   ? "{\"kind\":\"text\",\"text\":%s}"
                                   : "{\"kind\":\"error\",\"message\":%s}", encoded);
      }
      break;
    case AKC_ASK_PROJECTION_DONE:
      g_string_append (actual, "{\"kind\":\"done\"}");
      break;
    case AKC_ASK_PROJECTION_COMPONENT:
      {
        g_autofree char *frame = akc_json_value_to_canonical (projection.frame, NULL);

        g_string_printf (actual, "{\"kind\":\"component\",\"frame\":%s}", frame);
        /* The frame is the exact source-list frame, member order too. */
        if (g_strcmp0 (akc_test_member_string (projection.frame, "componentKey"), "source-list") == 0)
          akc_assert_canonical (projection.frame, frame);
      }
      break;
    default:
      g_assert_not_reached ();
    }
  akc_ask_projection_clear (&projection);

  {
    g_autoptr(AkcJsonValue) value = akc_test_parse_json (actual->str);

    akc_assert_json_equal (value, expected);
  }
}

/* ------------------------------------------------------------------ */
/* §8.2 projectAskMessages                                             */
/* ------------------------------------------------------------------ */

static void
test_project_messages (const AkcFixtureCase *fc,
                       gconstpointer         data)
{
  g_autoptr(GListModel) messages = messages_from_json (akc_json_value_get_member (fc->input, "messages"));
  g_autoptr(AkcJsonValue) projected = akc_ask_project_messages (messages);

  akc_assert_json_equal (projected, akc_fixture_expect (fc, "messages"));
}

/* ------------------------------------------------------------------ */
/* §8.5 decodeAskEvents                                                */
/* ------------------------------------------------------------------ */

static void
test_decode_events (const AkcFixtureCase *fc,
                    gconstpointer         data)
{
  AkcJsonValue *buffer = akc_json_value_get_member (fc->input, "buffer");
  gsize length;
  const char *text = akc_json_value_get_string (buffer, &length);
  g_autofree char *rest = NULL;
  gsize rest_length = 0;
  gboolean discarded = FALSE;
  g_autoptr(GPtrArray) events = akc_ask_events_decode (text, length, &rest, &rest_length, &discarded);
  g_autoptr(AkcJsonValue) actual = akc_json_value_new_array ((AkcJsonValue * const *) events->pdata,
                                                             events->len);
  AkcJsonValue *expected_rest = akc_fixture_expect (fc, "rest");
  gsize expected_rest_length;
  const char *expected_rest_text = akc_json_value_get_string (expected_rest, &expected_rest_length);

  akc_assert_json_equal (actual, akc_fixture_expect (fc, "events"));
  g_assert_cmpmem (rest, rest_length, expected_rest_text, expected_rest_length);
  g_assert_cmpint (discarded, ==, akc_json_value_get_boolean (akc_fixture_expect (fc, "discardedPartial")));
}

/* ------------------------------------------------------------------ */
/* Running the adapter against the loopback server                     */
/* ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray  *chunks;
  GPtrArray  *reads;
  gboolean    closed;
  gboolean    cancel_on_request;
  AkcStream  *stream;
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->chunks, g_ptr_array_unref);
  g_clear_pointer (&run->reads, g_ptr_array_unref);
  g_clear_object (&run->stream);
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          gpointer   data)
{
  Run *run = data;

  g_ptr_array_add (run->chunks, akc_chunk_ref (chunk));
}

static void
on_closed (GObject    *object,
           GParamSpec *pspec,
           gpointer    data)
{
  Run *run = data;

  run->closed = akc_stream_is_closed (AKC_STREAM (object));
}

static void
on_read (GBytes   *read,
         gpointer  data)
{
  Run *run = data;

  if (read == NULL)
    return;
  g_ptr_array_add (run->reads, g_bytes_ref (read));
  akc_test_http_server_consumed (server, g_bytes_get_size (read));
}

/* Streams one turn of @adapter and waits until the adapter let it go. */
static void
run_adapter (AkcAskAdapter     *adapter,
             AkcAdapterRequest *request,
             Run               *run)
{
  guint n_requests = akc_test_http_server_get_n_requests (server);

  run->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  run->reads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  run->stream = akc_stream_new ();
  g_signal_connect (run->stream, "chunk", G_CALLBACK (on_chunk), run);
  g_signal_connect (run->stream, "notify::closed", G_CALLBACK (on_closed), run);
  akc_ask_adapter_set_read_observer (adapter, on_read, run);

  akc_adapter_stream (AKC_ADAPTER (adapter), request, run->stream);

  while (!run->closed)
    {
      g_main_context_iteration (NULL, TRUE);
      if (run->cancel_on_request && akc_test_http_server_get_n_requests (server) > n_requests)
        akc_stream_cancel (run->stream);
    }

  /* The turn lets go of the adapter once its transport work is over. */
  WAIT_UNTIL (akc_ask_adapter_get_n_turns (adapter) <= 0);

  akc_ask_adapter_set_read_observer (adapter, NULL, NULL);
}

static AkcAskAdapter *
new_adapter (AkcJsonValue *options)
{
  const char *endpoint = akc_test_member_string (options, "endpoint");
  AkcAskAdapter *adapter;

  adapter = akc_ask_adapter_new (endpoint != NULL ? endpoint : "/api/ask");
  akc_ask_adapter_set_base_uri (adapter, akc_test_http_server_get_base_uri (server));
  akc_ask_adapter_set_corpus (adapter, akc_test_member_string (options, "corpus"));
  akc_ask_adapter_set_persona (adapter, akc_test_member_string (options, "persona"));
  if (akc_test_member_string (options, "projectTool") != NULL)
    g_signal_connect (adapter, "project-tool", G_CALLBACK (project_tool_cb),
                      (gpointer) akc_test_member_string (options, "projectTool"));

  return adapter;
}

/* ------------------------------------------------------------------ */
/* §8.1 askRequest                                                     */
/* ------------------------------------------------------------------ */

static void
test_request (const AkcFixtureCase *fc,
              gconstpointer         data)
{
  AkcJsonValue *options = akc_json_value_get_member (fc->input, "options");
  const char *endpoint = akc_test_member_string (options, "endpoint");
  g_autoptr(GListModel) messages = messages_from_json (akc_json_value_get_member (fc->input, "messages"));
  g_autoptr(AkcJsonValue) projected = akc_ask_project_messages (messages);
  AkcJsonValue *metadata = akc_json_value_get_member (fc->input, "metadata");
  const char *session_id = akc_test_member_string (fc->input, "sessionId");
  g_autofree char *url = akc_ask_request_url (endpoint, akc_test_member_string (options, "corpus"),
                                              akc_test_member_string (options, "persona"));
  g_autofree char *body = akc_ask_request_body (session_id != NULL ? session_id : "unscoped",
                                                projected, metadata, NULL);
  const char *expected_url = akc_fixture_expect_string (fc, "url");
  const char *expected_body = akc_fixture_expect_string (fc, "body");
  AkcJsonValue *headers = akc_fixture_expect (fc, "headers");

  g_assert_cmpstr (url, ==, expected_url);
  g_assert_cmpstr (body, ==, expected_body);
  g_assert_cmpstr (akc_fixture_expect_string (fc, "method"), ==, "POST");
  g_assert_cmpuint (akc_json_value_get_member_count (headers), ==, 1);
  g_assert_cmpstr (akc_test_member_string (headers, "content-type"), ==, "application/json");

  /* What really goes out, when the loopback server can receive it. */
  if (expected_url[0] == '/')
    {
      g_autoptr(AkcAskAdapter) adapter = new_adapter (options);
      g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, session_id, NULL, metadata);
      g_autoptr(GBytes) expected_bytes = g_bytes_new_static (expected_body, strlen (expected_body));
      Run run = { 0 };

      akc_test_http_server_set_response (server, akc_test_response_new (200, "application/x-ndjson"));
      run_adapter (adapter, request, &run);

      g_assert_cmpstr (akc_test_http_server_get_method (server), ==, "POST");
      g_assert_cmpstr (akc_test_http_server_get_path_query (server), ==, expected_url);
      g_assert_true (g_bytes_equal (akc_test_http_server_get_body (server), expected_bytes));
      g_assert_cmpstr (akc_test_http_server_get_header (server, "Content-Type"), ==, "application/json");
      g_assert_null (akc_test_http_server_get_header (server, "Authorization"));
      run_clear (&run);
      g_assert_finalize_object (g_steal_pointer (&adapter));
    }
}

/* ------------------------------------------------------------------ */
/* §8.3 askStream                                                      */
/* ------------------------------------------------------------------ */

static GBytes *
body_chunk (AkcJsonValue *chunk)
{
  AkcJsonValue *b64 = akc_json_value_get_kind (chunk) == AKC_JSON_KIND_OBJECT
    ? akc_json_value_get_member (chunk, "bytesBase64") : NULL;

  if (b64 != NULL)
    {
      gsize length;
      guchar *bytes = g_base64_decode (akc_json_value_get_string (b64, NULL), &length);

      return g_bytes_new_take (bytes, length);
    }

  return akc_fixture_get_bytes (chunk);
}

static void
collect_chunk (AkcChunk *chunk,
               gpointer  data)
{
  g_ptr_array_add (data, akc_chunk_ref (chunk));
}

/* The decoding core on exactly @reads (GBytes). */
static GPtrArray *
run_core (const char   *content_type,
          const char   *projector,
          GPtrArray    *reads)
{
  GPtrArray *chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  AkcAskResponse *response = akc_ask_response_new (content_type,
                                                   projector != NULL ? core_projector : NULL,
                                                   (gpointer) projector, collect_chunk, chunks);
  gboolean going = TRUE;

  for (guint i = 0; i < reads->len && going; i++)
    {
      gsize length;
      const guint8 *data = g_bytes_get_data (g_ptr_array_index (reads, i), &length);

      going = akc_ask_response_feed (response, data, length);
    }
  if (going)
    akc_ask_response_finish (response);
  akc_ask_response_free (response);

  return chunks;
}

static gboolean
same_reads (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!g_bytes_equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
      return FALSE;
  return TRUE;
}

static void
assert_same_chunks (GPtrArray *actual,
                    GPtrArray *expected)
{
  g_autoptr(AkcJsonValue) a = chunks_to_json (actual);
  g_autoptr(AkcJsonValue) b = chunks_to_json (expected);

  akc_assert_json_equal (a, b);
}

static guint16
closed_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  guint16 port;

  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_listener_close (listener);

  return port;
}

static void
test_stream (const AkcFixtureCase *fc,
             gconstpointer         data)
{
  AkcJsonValue *options = akc_json_value_get_member (fc->input, "options");
  AkcJsonValue *response = akc_json_value_get_member (fc->input, "response");
  AkcJsonValue *body_chunks = akc_json_value_get_member (response, "bodyChunks");
  AkcJsonValue *status_value = akc_json_value_get_member (response, "status");
  const char *content_type = akc_test_member_string (response, "contentType");
  const char *projector = akc_test_member_string (options, "projectTool");
  guint status = status_value != NULL ? (guint) akc_json_value_get_number (status_value) : 200;
  gboolean no_body = akc_json_value_get_member (response, "noBody") != NULL;
  gboolean network_error = akc_json_value_get_member (response, "networkError") != NULL;
  gboolean abort_early = akc_json_value_get_member (response, "abortBeforeResponse") != NULL;
  g_autoptr(GPtrArray) reads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GListModel) messages = one_question ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  g_autoptr(AkcAskAdapter) adapter = new_adapter (options);
  Run run = { 0 };

  for (gsize i = 0; body_chunks != NULL && i < akc_json_value_get_length (body_chunks); i++)
    g_ptr_array_add (reads, body_chunk (akc_json_value_get_element (body_chunks, i)));

  if (network_error)
    {
      g_autofree char *base = g_strdup_printf ("http://127.0.0.1:%u", closed_port ());
      AkcChunk *chunk;

      akc_ask_adapter_set_base_uri (adapter, base);
      run_adapter (adapter, request, &run);
      /* The transport's own message ("fetch failed" in the reference). */
      g_assert_cmpuint (run.chunks->len, ==, 1);
      chunk = g_ptr_array_index (run.chunks, 0);
      g_assert_cmpint (akc_chunk_get_kind (chunk), ==, AKC_CHUNK_ERROR);
      g_assert_cmpstr (akc_chunk_get_error_code (chunk), ==, "ASK_NETWORK_FAILED");
      g_assert_cmpstr (akc_chunk_get_text (chunk, NULL), !=, "");
      g_test_message ("transport message: %s", akc_chunk_get_text (chunk, NULL));
    }
  else if (abort_early)
    {
      AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");

      r->end = AKC_TEST_END_HANG_BEFORE_HEADERS;
      akc_test_http_server_set_response (server, r);
      run.cancel_on_request = TRUE;
      run_adapter (adapter, request, &run);
      assert_stream_expect (fc, run.chunks);
    }
  else if (no_body)
    {
      g_autoptr(AkcChunk) core = akc_ask_response_http_error (status, NULL, 0);
      g_autoptr(GPtrArray) core_chunks = g_ptr_array_new ();

      /* The core's answer to a response without a body... */
      g_ptr_array_add (core_chunks, core);
      assert_stream_expect (fc, core_chunks);

      /* ... and over HTTP, where only a 204 or 205 has none. */
      akc_test_http_server_set_response (server, akc_test_response_new (204, NULL));
      run_adapter (adapter, request, &run);
      g_assert_cmpuint (run.chunks->len, ==, 1);
      g_assert_cmpstr (akc_chunk_get_text (g_ptr_array_index (run.chunks, 0), NULL), ==,
                       "Ask request failed (204).");
    }
  else if (status < 200 || status > 299)
    {
      g_autoptr(GByteArray) joined = g_byte_array_new ();
      g_autoptr(AkcChunk) core = NULL;
      g_autoptr(GPtrArray) core_chunks = g_ptr_array_new ();
      AkcTestResponse *r = akc_test_response_new (status, content_type);

      for (guint i = 0; i < reads->len; i++)
        {
          g_byte_array_append (joined, g_bytes_get_data (g_ptr_array_index (reads, i), NULL),
                               g_bytes_get_size (g_ptr_array_index (reads, i)));
          g_ptr_array_add (r->chunks, g_bytes_ref (g_ptr_array_index (reads, i)));
        }
      core = akc_ask_response_http_error (status, joined->data, joined->len);
      g_ptr_array_add (core_chunks, core);
      assert_stream_expect (fc, core_chunks);

      akc_test_http_server_set_response (server, r);
      run_adapter (adapter, request, &run);
      assert_stream_expect (fc, run.chunks);
    }
  else
    {
      g_autoptr(GPtrArray) core_chunks = run_core (content_type, projector, reads);
      AkcTestResponse *r = akc_test_response_new (status, content_type);

      assert_stream_expect (fc, core_chunks);

      for (guint i = 0; i < reads->len; i++)
        g_ptr_array_add (r->chunks, g_bytes_ref (g_ptr_array_index (reads, i)));
      r->paced = TRUE;
      akc_test_http_server_set_response (server, r);
      run_adapter (adapter, request, &run);

      if (same_reads (run.reads, reads))
        assert_stream_expect (fc, run.chunks);
      else
        {
          g_autoptr(GPtrArray) seen = run_core (content_type, projector, run.reads);

          g_test_message ("HTTP delivered %u reads for %u chunks", run.reads->len, reads->len);
          assert_same_chunks (run.chunks, seen);
        }
    }

  run_clear (&run);
  g_assert_finalize_object (g_steal_pointer (&adapter));
}

/* ------------------------------------------------------------------ */
/* Connection deadline, stop and the token                             */
/* ------------------------------------------------------------------ */

static void
test_deadline_fires_without_headers (void)
{
  g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/api/ask");
  g_autoptr(GListModel) messages = one_question ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  Run run = { 0 };
  gint64 start;
  AkcChunk *chunk;

  r->end = AKC_TEST_END_HANG_BEFORE_HEADERS;
  akc_test_http_server_set_response (server, r);
  akc_ask_adapter_set_base_uri (adapter, akc_test_http_server_get_base_uri (server));
  akc_ask_adapter_set_connect_timeout (adapter, 200);

  start = g_get_monotonic_time ();
  run_adapter (adapter, request, &run);

  g_assert_cmpint (g_get_monotonic_time () - start, >=, 200 * 1000);
  g_assert_cmpuint (run.chunks->len, ==, 1);
  chunk = g_ptr_array_index (run.chunks, 0);
  g_assert_cmpint (akc_chunk_get_kind (chunk), ==, AKC_CHUNK_ERROR);
  g_assert_cmpstr (akc_chunk_get_error_code (chunk), ==, "ASK_TIMEOUT");

  run_clear (&run);
  g_assert_finalize_object (g_steal_pointer (&adapter));
}

static void
test_deadline_spares_slow_stream (void)
{
  g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/api/ask");
  g_autoptr(GListModel) messages = one_question ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  Run run = { 0 };
  gint64 start;
  guint n_text;
  g_autoptr(GString) content = NULL;
  g_autoptr(AkcJsonValue) parts = NULL;

  for (guint i = 0; i < 5; i++)
    akc_test_response_add_chunk (r, "{\"type\":\"text\",\"delta\":\"slow \"}\n", -1);
  akc_test_response_add_chunk (r, "{\"type\":\"done\"}\n", -1);
  r->drip_ms = 300;
  akc_test_http_server_set_response (server, r);
  akc_ask_adapter_set_base_uri (adapter, akc_test_http_server_get_base_uri (server));
  akc_ask_adapter_set_connect_timeout (adapter, 1000);

  start = g_get_monotonic_time ();
  run_adapter (adapter, request, &run);

  /* The answer took longer than the deadline, and nothing cut it. */
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 1800 * 1000);
  content = text_content (run.chunks, &n_text);
  g_assert_cmpuint (n_text, ==, 5);
  g_assert_cmpint (akc_chunk_get_kind (g_ptr_array_index (run.chunks, run.chunks->len - 1)), ==,
                   AKC_CHUNK_DONE);
  parts = akc_assistant_content_decode (content->str, content->len, NULL, NULL);
  g_assert_cmpuint (akc_json_value_get_length (parts), ==, 5);

  run_clear (&run);
  g_assert_finalize_object (g_steal_pointer (&adapter));
}

static GBytes *
endless_text (guint    index,
              gpointer data)
{
  return g_bytes_new_static ("{\"type\":\"text\",\"delta\":\"more \"}\n", 32);
}

static void
on_chunk_stop (AkcStream *stream,
               AkcChunk  *chunk,
               gpointer   data)
{
  Run *run = data;

  /* The first chunk arrived: the person presses Stop. */
  if (run->chunks->len == 1)
    akc_stream_cancel (stream);
}

static void
test_stop_closes_connection (void)
{
  g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/api/ask");
  g_autoptr(GListModel) messages = one_question ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  Run run = { 0 };

  r->generate = endless_text;
  r->drip_ms = 10;
  akc_test_http_server_set_response (server, r);
  akc_ask_adapter_set_base_uri (adapter, akc_test_http_server_get_base_uri (server));

  run.chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  run.reads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  run.stream = akc_stream_new ();
  g_signal_connect (run.stream, "chunk", G_CALLBACK (on_chunk), &run);
  g_signal_connect_after (run.stream, "chunk", G_CALLBACK (on_chunk_stop), &run);
  g_signal_connect (run.stream, "notify::closed", G_CALLBACK (on_closed), &run);
  akc_adapter_stream (AKC_ADAPTER (adapter), request, run.stream);

  WAIT_UNTIL (run.closed);
  WAIT_UNTIL (akc_ask_adapter_get_n_turns (adapter) <= 0);

  /* Silently: the one chunk before the stop and nothing after. */
  g_assert_cmpuint (run.chunks->len, ==, 1);
  g_assert_cmpint (akc_chunk_get_kind (g_ptr_array_index (run.chunks, 0)), ==, AKC_CHUNK_TEXT);

  /* The server sees the connection go away at its next write. */
  WAIT_UNTIL (akc_test_http_server_get_finished (server));
  g_assert_true (akc_test_http_server_get_cut_off (server));

  run_clear (&run);
  g_assert_finalize_object (g_steal_pointer (&adapter));
}

static void
test_bearer_token (void)
{
  g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/api/ask");
  g_autoptr(GListModel) messages = one_question ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, "s1", NULL, NULL);
  Run run = { 0 };

  akc_test_http_server_set_response (server, akc_test_response_new (200, "application/x-ndjson"));
  akc_ask_adapter_set_base_uri (adapter, akc_test_http_server_get_base_uri (server));
  akc_ask_adapter_set_bearer_token (adapter, "tok-123");
  g_assert_true (akc_ask_adapter_has_bearer_token (adapter));

  run_adapter (adapter, request, &run);
  g_assert_cmpstr (akc_test_http_server_get_header (server, "Authorization"), ==, "Bearer tok-123");
  run_clear (&run);

  akc_ask_adapter_set_bearer_token (adapter, NULL);
  g_assert_false (akc_ask_adapter_has_bearer_token (adapter));
  run_adapter (adapter, request, &run);
  g_assert_null (akc_test_http_server_get_header (server, "Authorization"));
  run_clear (&run);

  g_assert_finalize_object (g_steal_pointer (&adapter));
}

/* An absolute source URL is written back with its host as the URL parser
 * reads it (akc-url.c, the one splitter): IPv4 in dotted decimal,
 * percent-decoded and lower-cased, the scheme's default port dropped. */
static void
test_safe_href_host (void)
{
  static const char * const cases[][2] = {
    { "http://0x7F.0.0.1:80/a", "http://127.0.0.1/a" },
    { "https://%45xample.COM:8443/x", "https://example.com:8443/x" },
    { "HTTPS://example.com:443", "https://example.com/" },
    { "http://example.com:/p?q", "http://example.com/p?q" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *href = akc_ask_safe_href (cases[i][0], strlen (cases[i][0]), NULL, 0);

      g_assert_cmpstr (href, ==, cases[i][1]);
    }
}

static void
test_invalid_endpoint (void)
{
  g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/api/ask");
  g_autoptr(GListModel) messages = one_question ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  Run run = { 0 };

  /* A root-relative endpoint with nothing to resolve it against. */
  run_adapter (adapter, request, &run);
  g_assert_cmpuint (run.chunks->len, ==, 1);
  g_assert_cmpstr (akc_chunk_get_error_code (g_ptr_array_index (run.chunks, 0)), ==, "ASK_INVALID_ENDPOINT");
  run_clear (&run);
  g_assert_finalize_object (g_steal_pointer (&adapter));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  server = akc_test_http_server_new ();

  akc_fixture_add_tests ("application/ask-adapter.json", "/ask-adapter/fixtures/project-event",
                         "projectAskEvent", test_project_event, NULL);
  akc_fixture_add_tests ("application/ask-adapter.json", "/ask-adapter/fixtures/project-messages",
                         "projectAskMessages", test_project_messages, NULL);
  akc_fixture_add_tests ("application/ask-adapter.json", "/ask-adapter/fixtures/decode-events",
                         "decodeAskEvents", test_decode_events, NULL);
  akc_fixture_add_tests ("application/ask-adapter.json", "/ask-adapter/fixtures/request",
                         "askRequest", test_request, NULL);
  akc_fixture_add_tests ("application/ask-adapter.json", "/ask-adapter/fixtures/stream",
                         "askStream", test_stream, NULL);

  g_test_add_func ("/ask-adapter/deadline/fires-without-headers", test_deadline_fires_without_headers);
  g_test_add_func ("/ask-adapter/deadline/spares-slow-stream", test_deadline_spares_slow_stream);
  g_test_add_func ("/ask-adapter/stop-closes-connection", test_stop_closes_connection);
  g_test_add_func ("/ask-adapter/bearer-token", test_bearer_token);
  g_test_add_func ("/ask-adapter/invalid-endpoint", test_invalid_endpoint);
  g_test_add_func ("/ask-adapter/safe-href/host", test_safe_href_host);

  status = g_test_run ();

  akc_test_http_server_free (server);

  return status;
}

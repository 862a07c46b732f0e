/* test-ask-hostile.c: an AkcChat on AkcAskAdapter against a hostile Ask
 * server (issue #7 item 7)
 *
 * SPDX-License-Identifier: MIT
 *
 * A loopback SoupServer streams real NDJSON with adversarial behaviour:
 * UTF-8 sequences cut at every byte, oversized and endless lines, NDJSON
 * labelled text/plain, a slow drip, a disconnect in the middle of a
 * record, 10 000 events, invalid JSON, and the §11.2 error bodies. Each
 * case first has the chat answer one good question, then asks the hostile
 * one: the adapter never crashes, the turn ends with a clear error where
 * there is one, and the conversation keeps its history.
 */

#include "config.h"

#include <string.h>

#include "akc.h"
#include "akc-test.h"
#include "akc-ask-adapter-private.h"
#include "akc-ask-response-private.h"
#include "akc-test-http-server.h"
#include "akc-test-raw-peer.h"

static AkcTestHttpServer *server;

typedef struct
{
  AkcAskAdapter *adapter;
  AkcChat       *chat;
  gsize          max_retained;
  gsize          n_read;
} Fixture;

static void
on_read (GBytes   *read,
         gpointer  data)
{
  Fixture *fixture = data;
  gsize retained = akc_ask_adapter_get_retained_size (fixture->adapter);

  if (read == NULL)
    return;
  fixture->n_read += g_bytes_get_size (read);
  fixture->max_retained = MAX (fixture->max_retained, retained);
  akc_test_http_server_consumed (server, g_bytes_get_size (read));
}

static AkcChatSource *
source (Fixture *fixture)
{
  return AKC_CHAT_SOURCE (fixture->chat);
}

static AkcMessage *
message_at (Fixture *fixture,
            guint    index)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (source (fixture)), index);

  return message;
}

static guint
n_messages (Fixture *fixture)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (source (fixture)));
}

static void
ask (Fixture    *fixture,
     const char *question)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (source (fixture), question, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (source (fixture)) != AKC_CHAT_STATUS_STREAMING);
  WAIT_UNTIL (akc_ask_adapter_get_n_turns (fixture->adapter) <= 0);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  AkcTestResponse *good = akc_test_response_new (200, "application/x-ndjson");

  fixture->adapter = akc_ask_adapter_new ("/api/ask");
  akc_ask_adapter_set_base_uri (fixture->adapter, akc_test_http_server_get_base_uri (server));
  akc_ask_adapter_set_read_observer (fixture->adapter, on_read, fixture);
  fixture->chat = akc_chat_new (AKC_ADAPTER (fixture->adapter));

  /* A good first exchange: the history the hostile turn must not lose. */
  akc_test_response_add_chunk (good, "{\"type\":\"text\",\"delta\":\"First answer.\"}\n{\"type\":\"done\"}\n", -1);
  good->paced = TRUE;
  akc_test_http_server_set_response (server, good);
  ask (fixture, "First question");
  g_assert_cmpint (akc_chat_source_get_status (source (fixture)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  fixture->max_retained = 0;
  fixture->n_read = 0;
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  akc_ask_adapter_set_read_observer (fixture->adapter, NULL, NULL);
  g_assert_finalize_object (fixture->chat);
  g_assert_finalize_object (fixture->adapter);
}

/* The first exchange is still there, unchanged, followed by the second
 * question. */
static void
assert_history_kept (Fixture *fixture)
{
  g_autoptr(AkcJsonValue) parts = NULL;
  AkcMessage *first_answer;

  g_assert_cmpuint (n_messages (fixture), ==, 4);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 0)), ==, "First question");
  first_answer = message_at (fixture, 1);
  parts = akc_assistant_content_decode (akc_message_get_content (first_answer), -1, NULL, NULL);
  g_assert_nonnull (parts);
  g_assert_cmpuint (akc_json_value_get_length (parts), ==, 1);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 0), "text"), NULL),
                   ==, "First answer.");
  g_assert_cmpint (akc_message_get_status (first_answer), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 2)), ==, "Hostile question");
}

/* The text of the last answer, its parts joined. */
static char *
last_answer_text (Fixture *fixture,
                  guint   *n_parts)
{
  AkcMessage *answer = message_at (fixture, n_messages (fixture) - 1);
  const char *content = akc_message_get_content (answer);
  g_autoptr(AkcJsonValue) parts = NULL;
  GString *text = g_string_new (NULL);

  *n_parts = 0;
  if (content[0] == '\0')
    return g_string_free (text, FALSE);

  parts = akc_assistant_content_decode (content, akc_message_get_content_length (answer), NULL, NULL);
  g_assert_nonnull (parts);
  *n_parts = akc_json_value_get_length (parts);
  for (guint i = 0; i < *n_parts; i++)
    {
      AkcJsonValue *t = akc_json_value_get_member (akc_json_value_get_element (parts, i), "text");

      if (t != NULL)
        g_string_append (text, akc_json_value_get_string (t, NULL));
    }

  return g_string_free (text, FALSE);
}

static void
assert_error (Fixture    *fixture,
              const char *code,
              const char *message)
{
  AkcDiagnostic *error = akc_chat_source_get_error (source (fixture));

  g_assert_cmpint (akc_chat_source_get_status (source (fixture)), ==, AKC_CHAT_STATUS_ERROR);
  g_assert_nonnull (error);
  if (code != NULL)
    g_assert_cmpstr (akc_diagnostic_get_code (error), ==, code);
  if (message != NULL)
    g_assert_nonnull (strstr (akc_diagnostic_get_message (error), message));
  g_test_message ("turn error: %s: %s", akc_diagnostic_get_code (error), akc_diagnostic_get_message (error));
}

static void
assert_idle (Fixture *fixture)
{
  g_assert_cmpint (akc_chat_source_get_status (source (fixture)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_null (akc_chat_source_get_error (source (fixture)));
}

/* ------------------------------------------------------------------ */

static void
test_utf8_split_everywhere (Fixture       *fixture,
                            gconstpointer  data)
{
  const char *body = "{\"type\":\"text\",\"delta\":\"h\xc3\xa9llo \xf0\x9f\x98\x80 \"}\n"
                     "{\"type\":\"text\",\"delta\":\"w\xc3\xb6rld \xe2\x82\xac\"}\n{\"type\":\"done\"}\n";
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *text = NULL;
  guint n_parts;

  /* One byte per chunk: every multi-byte character is cut. */
  for (const char *p = body; *p != '\0'; p++)
    akc_test_response_add_chunk (r, p, 1);
  r->paced = TRUE;
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "h\xc3\xa9llo \xf0\x9f\x98\x80 w\xc3\xb6rld \xe2\x82\xac");
  g_assert_cmpuint (n_parts, ==, 2);
}

static void
test_utf8_split_text_mode (Fixture       *fixture,
                           gconstpointer  data)
{
  const char *body = "pl\xc3\xa4in \xf0\x9f\x98\x80 text";
  AkcTestResponse *r = akc_test_response_new (200, "text/plain; charset=utf-8");
  g_autofree char *text = NULL;
  guint n_parts;

  for (const char *p = body; *p != '\0'; p++)
    akc_test_response_add_chunk (r, p, 1);
  r->paced = TRUE;
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, body);
}

static void
test_oversized_line (Fixture       *fixture,
                     gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *big = g_malloc (2 * 1024 * 1024);
  g_autofree char *text = NULL;
  guint n_parts;

  /* A 2 MiB record that would be valid if it were not oversized. */
  memset (big, 'x', 2 * 1024 * 1024);
  memcpy (big, "{\"type\":\"text\",\"delta\":\"", 24);
  akc_test_response_add_chunk (r, big, 2 * 1024 * 1024 - 3);
  akc_test_response_add_chunk (r, "\"}{\"type\":\"text\",\"delta\":\"smuggled\"}\n", -1);
  akc_test_response_add_chunk (r, "{\"type\":\"text\",\"delta\":\"safe\"}\n{\"type\":\"done\"}\n", -1);
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "safe");
  g_assert_cmpuint (fixture->max_retained, <=, 2 * 1024 * 1024);
}

static void
test_ndjson_labelled_text_plain (Fixture       *fixture,
                                 gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "text/plain");
  g_autofree char *text = NULL;
  guint n_parts;

  akc_test_response_add_chunk (r, "\n  {\"type\":\"text\",\"delta\":\"sniffed \"}", -1);
  akc_test_response_add_chunk (r, "\n{\"type\":\"tool\",\"id\":\"c\",\"name\":\"cite\",\"args\":{\"sources\":"
                                  "[{\"title\":\"T\",\"path\":\"/t\"}]}}\n{\"type\":\"done\"}\n", -1);
  r->paced = TRUE;
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "sniffed ");
  g_assert_cmpuint (n_parts, ==, 2);
}

static void
test_slow_drip (Fixture       *fixture,
                gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *text = NULL;
  guint n_parts;

  for (guint i = 0; i < 8; i++)
    akc_test_response_add_chunk (r, "{\"type\":\"text\",\"delta\":\"drip \"}\n", -1);
  akc_test_response_add_chunk (r, "{\"type\":\"done\"}\n", -1);
  r->drip_ms = 250;
  akc_test_http_server_set_response (server, r);
  /* Much shorter than the whole answer (over 2 s): only the headers count. */
  akc_ask_adapter_set_connect_timeout (fixture->adapter, 1000);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpuint (n_parts, ==, 8);
}

/* The server drops the connection between two HTTP chunks, in the middle
 * of a record. libsoup 3.2 reads a chunked body cut at a chunk boundary as
 * its end, so the turn ends as a body without `done` does (§8.3): the
 * partial record is inert and what arrived stays. The cuts libsoup does
 * report (inside a chunk, short of a Content-Length) end the turn with an
 * error: see disconnect-inside-chunk and disconnect-inside-length-body. */
static void
test_disconnect_between_chunks (Fixture       *fixture,
                                gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *text = NULL;
  guint n_parts;

  akc_test_response_add_chunk (r, "{\"type\":\"text\",\"delta\":\"kept \"}\n{\"type\":\"text\",\"del", -1);
  r->end = AKC_TEST_END_DISCONNECT;
  r->paced = TRUE;
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "kept ");
  g_assert_cmpint (akc_message_get_status (message_at (fixture, 3)), !=, AKC_MESSAGE_STATUS_STREAMING);
}

/* What SoupServer will not do, a raw peer does: a chunk cut short, or a
 * Content-Length body cut short, and then the connection closed. */
typedef struct
{
  const char *response;
  gsize       length;
} RawReply;

static void
test_raw_cut (Fixture       *fixture,
              gconstpointer  data)
{
  const RawReply *reply = data;
  g_autoptr(AkcTestRawPeer) peer = akc_test_raw_peer_new ();
  g_autofree char *text = NULL;
  guint n_parts;

  akc_test_raw_peer_set_reply (peer, reply->response, reply->length, NULL, NULL, 0, AKC_TEST_RAW_CLOSE);
  akc_ask_adapter_set_base_uri (fixture->adapter, akc_test_raw_peer_get_base_uri (peer));

  ask (fixture, "Hostile question");
  assert_error (fixture, "ASK_NETWORK_FAILED", NULL);
  assert_history_kept (fixture);
  /* What arrived before the cut stays. */
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "kept ");
}

#define CUT_RECORD "{\"type\":\"text\",\"delta\":\"kept \"}\n{\"type\":\"text\",\"del"

static const RawReply cut_chunk = {
  "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
  "64\r\n" CUT_RECORD,
  sizeof ("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
          "64\r\n" CUT_RECORD) - 1,
};

static const RawReply cut_length = {
  "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n" CUT_RECORD,
  sizeof ("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: 1000\r\n\r\n"
          CUT_RECORD) - 1,
};

static GBytes *
endless_line (guint    index,
              gpointer data)
{
  static char block[65536];

  if (block[0] == '\0')
    memset (block, 'x', sizeof block);
  return g_bytes_new_static (block, sizeof block);
}

static void
test_endless_line (Fixture       *fixture,
                   gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");

  akc_test_response_add_chunk (r, "{\"type\":\"text\",\"delta\":\"before \"}\n", -1);
  r->generate = endless_line;
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_error (fixture, "ASK_RESPONSE_LIMIT", "16 MiB");
  assert_history_kept (fixture);
  /* The decoder held about one record, whatever streamed past it. */
  g_assert_cmpuint (fixture->n_read, >, 16 * 1024 * 1024);
  g_assert_cmpuint (fixture->max_retained, <=, 2 * 1024 * 1024);
  g_test_message ("read %" G_GSIZE_FORMAT " bytes, held at most %" G_GSIZE_FORMAT,
                  fixture->n_read, fixture->max_retained);
}

static GBytes *
ten_thousand_inert (guint    index,
                    gpointer data)
{
  static const char inert[] = "{\"type\":\"text\",\"delta\":\"\"}\n"
                              "{\"type\":\"tool\",\"id\":\"t\",\"name\":\"unknown\",\"args\":{}}\n";
  static const char last[] = "{\"type\":\"text\",\"delta\":\"end\"}\n{\"type\":\"done\"}\n";

  if (index < 10000)
    return g_bytes_new_static (inert, sizeof inert - 1);
  if (index == 10000)
    return g_bytes_new_static (last, sizeof last - 1);
  return NULL;
}

static void
test_ten_thousand_events (Fixture       *fixture,
                          gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *text = NULL;
  guint n_parts;
  gint64 start = g_get_monotonic_time ();

  r->generate = ten_thousand_inert;
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "end");
  g_test_message ("20 001 events in %" G_GINT64_FORMAT " ms", (g_get_monotonic_time () - start) / 1000);
}

static void
test_ten_thousand_text_events (Fixture       *fixture,
                               gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint n_parts;

  for (guint i = 0; i < 10000; i++)
    g_string_append (body, "{\"type\":\"text\",\"delta\":\"x\"}\n");
  g_string_append (body, "{\"type\":\"done\"}\n");
  akc_test_response_add_chunk (r, body->str, body->len);
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_error (fixture, "ASK_RESPONSE_LIMIT", "Ask response exceeded the assistant content record limit.");
  assert_history_kept (fixture);
  /* Everything up to the limit stays and decodes. */
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpuint (n_parts, ==, 512);
}

static void
test_invalid_json (Fixture       *fixture,
                   gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (200, "application/x-ndjson");
  g_autofree char *text = NULL;
  guint n_parts;

  akc_test_response_add_chunk (r, "{not json}\n[1,2\n\xff\xfe\n{\"type\":\"text\",\"delta\":\"a\",\"x\":1}\n", -1);
  akc_test_response_add_chunk (r, "{\"type\":\"text\",\"delta\":\"valid\"}\n{\"type\":\"text\",\"delta\":\"\\ud800\"}\n"
                                  "null\n\"str\"\n{\"type\":\"done\"", -1);
  r->paced = TRUE;
  akc_test_http_server_set_response (server, r);

  /* The last record is not a `done` either: the answer was cut off, and
   * what arrived stays (issue 12 item 6). */
  ask (fixture, "Hostile question");
  assert_error (fixture, "REPLY_CUT_OFF", "cut off");
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpstr (text, ==, "valid");
}

typedef struct
{
  guint       status;
  const char *content_type;
  const char *body;
  const char *code;
  const char *server_message;
} ErrorCase;

static const ErrorCase error_cases[] = {
  { 401, "text/plain", "Unauthorized", "ASK_HTTP_FAILED", NULL },
  { 409, "application/json; charset=utf-8",
    "{\"error\":{\"code\":\"ASK_PERSISTENCE_CONFLICT\",\"message\":\"The Ask session changed concurrently.\",\"retryable\":true}}",
    "ASK_PERSISTENCE_CONFLICT", "The Ask session changed concurrently." },
  { 413, "application/json; charset=utf-8",
    "{\"error\":{\"code\":\"ASK_INVALID_REQUEST\",\"message\":\"Request body is too large.\",\"retryable\":false}}",
    "ASK_INVALID_REQUEST", "Request body is too large." },
  { 415, "application/json; charset=utf-8",
    "{\"error\":{\"code\":\"ASK_INVALID_REQUEST\",\"message\":\"Content-Type must be application/json.\",\"retryable\":false}}",
    "ASK_INVALID_REQUEST", "Content-Type must be application/json." },
  { 500, "application/json; charset=utf-8",
    "{\"error\":{\"code\":\"ASK_INTERNAL\",\"message\":\"The Ask request failed.\",\"retryable\":true}}",
    "ASK_INTERNAL", "The Ask request failed." },
  /* A body that only looks like one is not trusted. */
  { 500, "application/json", "{\"error\":{\"code\":\"lower case\",\"message\":\"x\"}}", "ASK_HTTP_FAILED", NULL },
};

static void
test_error_body (Fixture       *fixture,
                 gconstpointer  data)
{
  const ErrorCase *c = data;
  AkcTestResponse *r = akc_test_response_new (c->status, c->content_type);
  g_autofree char *expected = g_strdup_printf ("Ask request failed (%u).", c->status);
  guint n_parts;
  g_autofree char *text = NULL;

  akc_test_response_add_chunk (r, c->body, -1);
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_error (fixture, c->code, expected);
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpuint (n_parts, ==, 0);
}

static void
collect_chunk (AkcStream *stream,
               AkcChunk  *chunk,
               gpointer   data)
{
  g_ptr_array_add (data, akc_chunk_ref (chunk));
}

/* The error chunks carry the status and the server's error body. */
static void
test_error_body_metadata (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      const ErrorCase *c = &error_cases[i];
      g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/api/ask");
      g_autoptr(AkcStream) stream = akc_stream_new ();
      g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
      g_autoptr(AkcMessage) question = akc_message_new ("q", AKC_MESSAGE_ROLE_USER, "Q", AKC_MESSAGE_STATUS_COMPLETE);
      g_autoptr(AkcAdapterRequest) request = NULL;
      g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
      AkcTestResponse *r = akc_test_response_new (c->status, c->content_type);
      AkcJsonValue *metadata, *error;
      AkcChunk *chunk;

      g_list_store_append (messages, question);
      request = akc_adapter_request_new (G_LIST_MODEL (messages), NULL, NULL, NULL);
      akc_test_response_add_chunk (r, c->body, -1);
      akc_test_http_server_set_response (server, r);
      akc_ask_adapter_set_base_uri (adapter, akc_test_http_server_get_base_uri (server));

      g_signal_connect (stream, "chunk", G_CALLBACK (collect_chunk), chunks);
      akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
      WAIT_UNTIL (akc_ask_adapter_get_n_turns (adapter) <= 0);

      g_assert_cmpuint (chunks->len, ==, 1);
      chunk = g_ptr_array_index (chunks, 0);
      g_assert_cmpint (akc_chunk_get_kind (chunk), ==, AKC_CHUNK_ERROR);
      g_assert_cmpstr (akc_chunk_get_error_code (chunk), ==, c->code);
      metadata = akc_chunk_get_metadata (chunk);
      g_assert_nonnull (metadata);
      g_assert_cmpfloat (akc_json_value_get_number (akc_json_value_get_member (metadata, "status")), ==, c->status);
      error = akc_json_value_get_member (metadata, "error");
      if (c->server_message == NULL)
        g_assert_null (error);
      else
        g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (error, "message"), NULL), ==,
                         c->server_message);
      g_assert_finalize_object (g_steal_pointer (&adapter));
    }
}

/* U+0000 is text (protocol.md §1.2): an escaped one in an NDJSON delta
 * and a raw one in a text/plain body are kept, never a crash (issue #12
 * item 1). */
typedef struct
{
  const char *content_type;
  const char *body;
  gssize      body_length;
  const char *text;
  gsize       text_length;
} NulCase;

static const NulCase nul_ndjson = {
  "application/x-ndjson", "{\"type\":\"text\",\"delta\":\"a\\u0000b\"}\n{\"type\":\"done\"}\n", -1, "a\0b", 3,
};
static const NulCase nul_text_plain = { "text/plain", "raw \0 nul", 10, "raw \0 nul", 10 };

static void
test_nul (Fixture       *fixture,
          gconstpointer  data)
{
  const NulCase *c = data;
  AkcTestResponse *r = akc_test_response_new (200, c->content_type);
  AkcMessage *answer;
  g_autoptr(AkcJsonValue) parts = NULL;
  const char *text;
  gsize length;

  akc_test_response_add_chunk (r, c->body, c->body_length);
  akc_test_http_server_set_response (server, r);

  ask (fixture, "Hostile question");
  assert_idle (fixture);
  assert_history_kept (fixture);
  answer = message_at (fixture, 3);
  parts = akc_assistant_content_decode (akc_message_get_content (answer), akc_message_get_content_length (answer),
                                        NULL, NULL);
  g_assert_nonnull (parts);
  text = akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (parts, 0), "text"),
                                    &length);
  g_assert_cmpmem (text, length, c->text, c->text_length);
}

/* An error body of 65 536 bytes or more is capped by truncating it: the
 * turn ends with the status at once (issue #12 item 2). */
static void
test_huge_error_body (Fixture       *fixture,
                      gconstpointer  data)
{
  gsize size = GPOINTER_TO_SIZE (data);
  AkcTestResponse *r = akc_test_response_new (500, "text/plain");
  g_autofree char *body = g_malloc (size);
  guint n_parts;
  g_autofree char *text = NULL;

  memset (body, 'e', size);
  akc_test_response_add_chunk (r, body, size);
  /* Past the cap nothing more is read, so a body that never ends cannot
   * hold the turn either. */
  if (size > 65536)
    r->end = AKC_TEST_END_OPEN;
  else
    r->content_length = TRUE;
  akc_test_http_server_set_response (server, r);
  akc_ask_adapter_set_connect_timeout (fixture->adapter, 0);

  ask (fixture, "Hostile question");
  assert_error (fixture, "ASK_HTTP_FAILED", "Ask request failed (500).");
  assert_history_kept (fixture);
  text = last_answer_text (fixture, &n_parts);
  g_assert_cmpuint (n_parts, ==, 0);
}

static void
stop_when_streaming (AkcChatSource *chat,
                     GParamSpec    *pspec,
                     gpointer       data)
{
  if (akc_chat_source_get_status (chat) == AKC_CHAT_STATUS_STREAMING)
    akc_chat_source_stop (chat);
}

/* Stop ends a turn whose error body never comes (issue #12 item 2). */
static void
test_stop_during_error_body (Fixture       *fixture,
                             gconstpointer  data)
{
  AkcTestResponse *r = akc_test_response_new (401, "text/plain");
  g_autoptr(GError) error = NULL;
  gulong handler;

  akc_test_response_add_chunk (r, "Unauth", -1);
  r->end = AKC_TEST_END_OPEN;
  akc_test_http_server_set_response (server, r);
  akc_ask_adapter_set_connect_timeout (fixture->adapter, 0);

  g_assert_true (akc_chat_source_send (source (fixture), "Hostile question", &error));
  g_assert_no_error (error);
  /* Once the server has written its first error chunk, stop. */
  WAIT_UNTIL (akc_test_http_server_get_n_written (server) >= 1);
  handler = g_signal_connect (fixture->chat, "notify::status", G_CALLBACK (stop_when_streaming), NULL);
  stop_when_streaming (source (fixture), NULL, NULL);
  WAIT_UNTIL (akc_ask_adapter_get_n_turns (fixture->adapter) <= 0);
  g_signal_handler_disconnect (fixture->chat, handler);
  g_assert_cmpint (akc_chat_source_get_status (source (fixture)), !=, AKC_CHAT_STATUS_STREAMING);
  assert_history_kept (fixture);
}

static void
collect_core_chunk (AkcChunk *chunk,
                    gpointer  data)
{
  g_ptr_array_add (data, akc_chunk_ref (chunk));
}

/* While the mode is undecided, white space (line feeds included) takes
 * bounded memory and linear work: 8 MiB of " \n" lines never hold more
 * than the 1 MiB sniff limit, and an NDJSON line after them is still
 * found (issue #12 item 3). */
static void
test_undecided_whitespace (void)
{
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  AkcAskResponse *response = akc_ask_response_new ("text/plain", NULL, NULL, collect_core_chunk, chunks);
  g_autofree guint8 *block = g_malloc (65536);
  const char *events = "{\"type\":\"text\",\"delta\":\"hi\"}\n{\"type\":\"done\"}\n";
  gsize max_retained = 0;
  AkcChunk *done;

  for (gsize i = 0; i < 65536; i += 2)
    memcpy (block + i, " \n", 2);
  for (guint i = 0; i < 8 * 1024 * 1024 / 65536; i++)
    {
      g_assert_true (akc_ask_response_feed (response, block, 65536));
      max_retained = MAX (max_retained, akc_ask_response_get_retained_size (response));
    }
  g_assert_cmpuint (chunks->len, ==, 0);
  g_test_message ("retained at most %" G_GSIZE_FORMAT " bytes", max_retained);
  g_assert_cmpuint (max_retained, <=, 2 * 1024 * 1024 + 65536);

  akc_ask_response_feed (response, (const guint8 *) events, strlen (events));
  akc_ask_response_finish (response);
  for (guint i = 0; i < chunks->len; i++)
    g_test_message ("chunk %u: kind %d %s", i, akc_chunk_get_kind (g_ptr_array_index (chunks, i)),
                    akc_chunk_get_text (g_ptr_array_index (chunks, i), NULL));
  g_assert_cmpuint (chunks->len, ==, 2);
  g_assert_cmpint (akc_chunk_get_kind (g_ptr_array_index (chunks, 0)), ==, AKC_CHUNK_TEXT);
  done = g_ptr_array_index (chunks, 1);
  g_assert_cmpint (akc_chunk_get_kind (done), ==, AKC_CHUNK_DONE);
  g_assert_null (akc_chunk_get_metadata (done));
  akc_ask_response_free (response);
}

/* An NDJSON body that ends without `done` ends as done (§8.3), marked
 * synthetic so a host can tell it was cut off (issue #12 item 6). */
static void
test_synthetic_done (void)
{
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  AkcAskResponse *response = akc_ask_response_new ("application/x-ndjson", NULL, NULL, collect_core_chunk, chunks);
  const char *events = "{\"type\":\"text\",\"delta\":\"kept\"}\n";
  AkcJsonValue *metadata;
  AkcChunk *done;

  akc_ask_response_feed (response, (const guint8 *) events, strlen (events));
  akc_ask_response_finish (response);
  g_assert_cmpuint (chunks->len, ==, 2);
  done = g_ptr_array_index (chunks, 1);
  g_assert_cmpint (akc_chunk_get_kind (done), ==, AKC_CHUNK_DONE);
  metadata = akc_chunk_get_metadata (done);
  g_assert_nonnull (metadata);
  g_assert_true (akc_json_value_get_boolean (akc_json_value_get_member (metadata, "synthetic")));
  akc_ask_response_free (response);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  server = akc_test_http_server_new ();

#define ADD(path, func) \
  g_test_add ("/ask-hostile/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("utf8-split-everywhere", test_utf8_split_everywhere);
  ADD ("utf8-split-text-mode", test_utf8_split_text_mode);
  ADD ("oversized-line", test_oversized_line);
  ADD ("ndjson-labelled-text-plain", test_ndjson_labelled_text_plain);
  ADD ("slow-drip", test_slow_drip);
  ADD ("disconnect-between-chunks", test_disconnect_between_chunks);
  ADD ("endless-line", test_endless_line);
  g_test_add ("/ask-hostile/disconnect-inside-chunk", Fixture, &cut_chunk, fixture_set_up, test_raw_cut,
              fixture_tear_down);
  g_test_add ("/ask-hostile/disconnect-inside-length-body", Fixture, &cut_length, fixture_set_up, test_raw_cut,
              fixture_tear_down);
  ADD ("ten-thousand-events", test_ten_thousand_events);
  ADD ("ten-thousand-text-events", test_ten_thousand_text_events);
  ADD ("invalid-json", test_invalid_json);
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ask-hostile/error-body/%u-%u", error_cases[i].status, i);

      g_test_add (path, Fixture, &error_cases[i], fixture_set_up, test_error_body, fixture_tear_down);
    }
  g_test_add_func ("/ask-hostile/error-body-metadata", test_error_body_metadata);
  g_test_add ("/ask-hostile/nul-ndjson", Fixture, &nul_ndjson, fixture_set_up, test_nul, fixture_tear_down);
  g_test_add ("/ask-hostile/nul-text-plain", Fixture, &nul_text_plain, fixture_set_up, test_nul, fixture_tear_down);
  g_test_add ("/ask-hostile/error-body-65535", Fixture, GSIZE_TO_POINTER (65535), fixture_set_up,
              test_huge_error_body, fixture_tear_down);
  g_test_add ("/ask-hostile/error-body-65536", Fixture, GSIZE_TO_POINTER (65536), fixture_set_up,
              test_huge_error_body, fixture_tear_down);
  g_test_add ("/ask-hostile/error-body-1-mib", Fixture, GSIZE_TO_POINTER (1024 * 1024), fixture_set_up,
              test_huge_error_body, fixture_tear_down);
  ADD ("stop-during-error-body", test_stop_during_error_body);
  g_test_add_func ("/ask-hostile/undecided-whitespace", test_undecided_whitespace);
  g_test_add_func ("/ask-hostile/synthetic-done", test_synthetic_done);

  status = g_test_run ();

  akc_test_http_server_free (server);

  return status;
}

/* test-turn-client.c: AkcTurnClient against a loopback server in this
 * process that streams real NDJSON, well and badly (protocol.md §2,
 * application.md §11.1)
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "akc.h"
#include "akc-test.h"
#include "akc-turn-test-server.h"

#define SESSION "desk-1"
#define TOKEN "test-bearer-token"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

/* One snapshot line: a user message and a reply. */
static char *
snapshot (const char *session,
          gint64      sequence,
          const char *status,
          const char *question,
          const char *reply,
          const char *reply_status)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e%" G_GINT64_FORMAT "\","
                          "\"sessionId\":\"%s\",\"turnId\":\"t1\",\"sequence\":%" G_GINT64_FORMAT ","
                          "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"server.turn.snapshot\","
                          "\"payload\":{\"messages\":["
                          "{\"id\":\"u-%s\",\"role\":\"user\",\"content\":\"%s\",\"status\":\"complete\","
                          "\"createdAt\":\"2026-07-11T00:00:00.000Z\"},"
                          "{\"id\":\"a-%s\",\"role\":\"assistant\",\"content\":\"%s\",\"status\":\"%s\","
                          "\"createdAt\":\"2026-07-11T00:00:01.000Z\"}],"
                          "\"status\":\"%s\",\"lineage\":{\"operation\":\"submit\"},"
                          "\"usage\":{\"promptTokens\":3,\"completionTokens\":%" G_GINT64_FORMAT ",\"totalTokens\":9}}}\n",
                          sequence, session, sequence, question, question, question, reply, reply_status,
                          status, sequence);
}

static char *
diagnostic_line (gint64      sequence,
                 const char *code,
                 const char *message)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"d%" G_GINT64_FORMAT "\","
                          "\"sessionId\":\"" SESSION "\",\"turnId\":\"t1\",\"sequence\":%" G_GINT64_FORMAT ","
                          "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"server.turn.diagnostic\","
                          "\"payload\":{\"version\":1,\"code\":\"%s\",\"message\":\"%s\",\"retryable\":true}}\n",
                          sequence, sequence, code, message);
}

static void
add_line (AkcTurnTestServer *server,
          char              *line,
          guint              delay_ms)
{
  akc_turn_test_server_add_chunk (server, line, -1, delay_ms);
  g_free (line);
}

typedef struct {
  AkcTurnTestServer *server;
  AkcTurnClient     *client;
  GPtrArray         *contents;   /* the reply's content at every change */
  guint              accepted;
  guint              items_changed;
} Fixture;

static void
on_accepted (AkcTurnClient *client,
             AkcJsonValue  *snapshot_event,
             Fixture       *fixture)
{
  fixture->accepted++;
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *fixture)
{
  fixture->items_changed++;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->server = akc_turn_test_server_new ();
  fixture->client = akc_turn_client_new (akc_turn_test_server_get_url (fixture->server), SESSION, &error);
  g_assert_no_error (error);
  akc_turn_client_set_token (fixture->client, TOKEN);
  fixture->contents = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (fixture->client, "snapshot-accepted", G_CALLBACK (on_accepted), fixture);
  g_signal_connect (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->client)), "items-changed",
                    G_CALLBACK (on_items_changed), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->client)), fixture);
  g_clear_object (&fixture->client);
  /* Let the server see the client go. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_pointer (&fixture->server, akc_turn_test_server_free);
  g_clear_pointer (&fixture->contents, g_ptr_array_unref);
}

static void
wait_until_done (Fixture *fixture)
{
  WAIT_UNTIL (!akc_turn_client_get_busy (fixture->client));
}

static AkcMessage *
message_at (Fixture *fixture,
            guint    position)
{
  g_autoptr(AkcMessage) message =
    g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->client)), position);

  return message; /* the model keeps it alive */
}

static guint
n_messages (Fixture *fixture)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->client)));
}

static void
on_content (AkcMessage *message,
            GParamSpec *pspec,
            Fixture    *fixture)
{
  g_ptr_array_add (fixture->contents, g_strdup (akc_message_get_content (message)));
}

static void
run_turn (Fixture    *fixture,
          const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), text, &error));
  g_assert_no_error (error);
  wait_until_done (fixture);
}

/* A first, good turn: the history the hostile turns must keep. */
static void
good_turn (Fixture *fixture)
{
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson; charset=utf-8");
  add_line (fixture->server, snapshot (SESSION, 2, "streaming", "first", "", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 3, "complete", "first", "Kept answer.", "complete"), 0);
  run_turn (fixture, "first");
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
}

static void
assert_history_kept (Fixture    *fixture,
                     const char *code)
{
  AkcDiagnostic *error = akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client));

  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_ERROR);
  g_assert_nonnull (error);
  g_assert_cmpstr (akc_diagnostic_get_code (error), ==, code);
  g_assert_cmpuint (strlen (akc_diagnostic_get_message (error)), >, 0);
  g_assert_cmpuint (n_messages (fixture), >=, 2);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 0)), ==, "first");
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Kept answer.");
  g_assert_false (akc_turn_client_get_busy (fixture->client));
}

/* ------------------------------------------------------------------ */
/* Tests                                                                */
/* ------------------------------------------------------------------ */

static void
test_construction (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTurnClient) client = NULL;

  client = akc_turn_client_new ("ftp://example.com/turn", SESSION, &error);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_null (client);
  g_clear_error (&error);

  client = akc_turn_client_new ("relative/turn", SESSION, &error);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);

  client = akc_turn_client_new ("https://example.com/turn", "not safe", &error);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Chat session identity is invalid.");
  g_clear_error (&error);

  client = akc_turn_client_new ("https://example.com/turn", SESSION, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (akc_turn_client_get_connect_timeout (client), ==, 30);
  g_assert_false (akc_turn_client_get_has_token (client));
  akc_turn_client_set_token (client, TOKEN);
  g_assert_true (akc_turn_client_get_has_token (client));
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (client)), ==, AKC_CHAT_STATUS_IDLE);
}

static void
test_submit (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) event = NULL;
  AkcTurnEventKind kind;
  AkcJsonValue *payload;
  AkcMessage *user, *reply;

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson; charset=utf-8");
  add_line (fixture->server, snapshot (SESSION, 2, "streaming", "hello", "", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 3, "streaming", "hello", "Hel", "streaming"), 20);
  add_line (fixture->server, snapshot (SESSION, 4, "complete", "hello", "Hello!", "complete"), 20);

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "hello", &error));
  g_assert_no_error (error);
  /* Nothing is shown before the server says so. */
  g_assert_cmpuint (n_messages (fixture), ==, 0);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_STREAMING);
  g_assert_false (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "again", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY);
  g_clear_error (&error);

  WAIT_UNTIL (n_messages (fixture) != 0);
  user = message_at (fixture, 0);
  reply = message_at (fixture, 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (on_content), fixture);
  wait_until_done (fixture);

  /* The request. */
  g_assert_cmpstr (akc_turn_test_server_get_method (fixture->server), ==, "POST");
  g_assert_true (g_str_has_prefix (akc_turn_test_server_get_header (fixture->server, "Content-Type"),
                                   "application/json"));
  g_assert_cmpstr (akc_turn_test_server_get_header (fixture->server, "Authorization"), ==, "Bearer " TOKEN);
  event = akc_turn_event_decode (akc_turn_test_server_get_body (fixture->server), -1, &diagnostic);
  g_assert_null (diagnostic);
  g_assert_true (akc_turn_event_get_kind (event, &kind));
  g_assert_cmpint (kind, ==, AKC_TURN_EVENT_KIND_SUBMIT);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (event, "sessionId"), NULL), ==, SESSION);
  payload = akc_json_value_get_member (event, "payload");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (payload, "input"), NULL), ==, "hello");

  /* The conversation: the same objects throughout, the reply grew. */
  g_assert_cmpuint (fixture->accepted, ==, 3);
  g_assert_cmpuint (fixture->items_changed, ==, 1);
  g_assert_true (message_at (fixture, 0) == user);
  g_assert_true (message_at (fixture, 1) == reply);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "Hello!");
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpuint (fixture->contents->len, ==, 2);
  g_assert_cmpstr (fixture->contents->pdata[0], ==, "Hel");
  g_assert_cmpstr (fixture->contents->pdata[1], ==, "Hello!");
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
  g_assert_cmpuint (akc_chat_source_get_usage (AKC_CHAT_SOURCE (fixture->client))->completion_tokens, ==, 4);
  g_assert_cmpint (akc_json_value_get_number (akc_json_value_get_member (akc_turn_client_get_snapshot (fixture->client),
                                                                         "sequence")), ==, 4);

  /* The lifecycle operations have no wire form: AkcChatSource's
   * defaults refuse them and change nothing. */
  g_assert_false (akc_chat_source_retry (AKC_CHAT_SOURCE (fixture->client), &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_regenerate (AKC_CHAT_SOURCE (fixture->client), NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_edit (AKC_CHAT_SOURCE (fixture->client),
                                        akc_message_get_id (user), "Hi", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (fixture->client), "call_1", "lookup",
                                                    NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_approve (AKC_CHAT_SOURCE (fixture->client), "call_1", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_false (akc_chat_source_deny (AKC_CHAT_SOURCE (fixture->client), "call_1", NULL, &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->client))), ==, 2);
  g_assert_cmpstr (akc_message_get_content (user), !=, "Hi");
  g_assert_false (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), " \n", &error));
  g_assert_error (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT);
  g_assert_cmpuint (akc_turn_test_server_get_n_requests (fixture->server), ==, 1);
}

static void
test_utf8_splits (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *first = snapshot (SESSION, 5, "streaming", "ünïcode", "😀 grüße", "streaming");
  g_autofree char *second = snapshot (SESSION, 6, "complete", "ünïcode", "😀 grüße — 終わり", "complete");
  g_autofree char *all = g_strconcat (first, second, NULL);
  gsize len = strlen (all);

  /* Every byte its own read: lines and UTF-8 sequences are split everywhere. */
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  for (gsize i = 0; i < len; i++)
    akc_turn_test_server_add_chunk (fixture->server, all + i, 1, 0);
  run_turn (fixture, "ünïcode");

  g_assert_cmpuint (fixture->accepted, ==, 2);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 0)), ==, "ünïcode");
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "😀 grüße — 終わり");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
}

static void
test_text_plain (Fixture       *fixture,
                 gconstpointer  data)
{
  akc_turn_test_server_respond (fixture->server, 200, "text/plain");
  add_line (fixture->server, snapshot (SESSION, 1, "complete", "plain", "Labelled as text.", "complete"), 0);
  run_turn (fixture, "plain");

  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Labelled as text.");
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_IDLE);
}

static void
test_slow_drip (Fixture       *fixture,
                gconstpointer  data)
{
  const char *steps[] = { "S", "Sl", "Slo", "Slow", "Slow d", "Slow drip" };
  guint streaming_seen = 0;

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_autofree char *line = snapshot (SESSION, 10 + i, i + 1 < G_N_ELEMENTS (steps) ? "streaming" : "complete",
                                        "drip", steps[i], i + 1 < G_N_ELEMENTS (steps) ? "streaming" : "complete");
      gsize half = strlen (line) / 2;

      /* Each line in two reads, 30 ms apart. */
      akc_turn_test_server_add_chunk (fixture->server, line, half, 30);
      akc_turn_test_server_add_chunk (fixture->server, line + half, -1, 30);
    }

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "drip", NULL));
  while (akc_turn_client_get_busy (fixture->client))
    {
      g_main_context_iteration (NULL, TRUE);
      if (n_messages (fixture) == 2 &&
          akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)) == AKC_CHAT_STATUS_STREAMING &&
          akc_turn_client_get_busy (fixture->client))
        streaming_seen++;
    }

  g_assert_cmpuint (streaming_seen, >, 0);
  g_assert_cmpuint (fixture->accepted, ==, G_N_ELEMENTS (steps));
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Slow drip");
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_IDLE);
}

static void
test_disconnect_mid_record (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *next = NULL;
  AkcMessage *reply;

  good_turn (fixture);
  reply = message_at (fixture, 1);

  next = snapshot (SESSION, 5, "streaming", "first", "Kept answer. And more", "streaming");
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  akc_turn_test_server_add_chunk (fixture->server, next, strlen (next) / 2, 0);
  akc_turn_test_server_set_end (fixture->server, AKC_TURN_TEST_END_DISCONNECT);
  run_turn (fixture, "second");

  assert_history_kept (fixture, "TURN_INCOMPLETE");
  g_assert_true (message_at (fixture, 1) == reply);
  g_assert_cmpuint (fixture->accepted, ==, 2);
}

static void
test_disconnect_while_streaming (Fixture       *fixture,
                                 gconstpointer  data)
{
  good_turn (fixture);

  /* Whole records, but the stream ends while the reply streams. */
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 5, "streaming", "first", "Kept answer.", "streaming"), 0);
  akc_turn_test_server_set_end (fixture->server, AKC_TURN_TEST_END_DISCONNECT);
  run_turn (fixture, "second");

  assert_history_kept (fixture, "TURN_INCOMPLETE");
  g_assert_cmpuint (fixture->accepted, ==, 3);
}

static void
test_oversized_line (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *big = NULL;
  g_autofree char *reply = g_strnfill (8192, 'b');

  good_turn (fixture);
  akc_turn_client_set_max_line_length (fixture->client, 4096);

  big = snapshot (SESSION, 9, "complete", "first", reply, "complete");
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  akc_turn_test_server_add_chunk (fixture->server, big, -1, 0);
  run_turn (fixture, "big");

  assert_history_kept (fixture, "TURN_LINE_TOO_LONG");
  g_assert_cmpuint (fixture->accepted, ==, 2);
}

/* A line of white space is not a turn event: it ends the turn with the
 * decoding diagnostic (empty lines are inert). */
static void
test_blank_line (Fixture       *fixture,
                 gconstpointer  data)
{
  good_turn (fixture);

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  akc_turn_test_server_add_chunk (fixture->server, "\r\n\n \t \n", -1, 0);
  run_turn (fixture, "blank");

  assert_history_kept (fixture, "PROTOCOL_INVALID_PAYLOAD");
}

static void
test_endless_line (Fixture       *fixture,
                   gconstpointer  data)
{
  const guint limit = 1024 * 1024;

  good_turn (fixture);
  akc_turn_client_set_max_line_length (fixture->client, limit);

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  akc_turn_test_server_add_chunk (fixture->server, "{\"protocol\":\"", -1, 0);
  akc_turn_test_server_set_end (fixture->server, AKC_TURN_TEST_END_ENDLESS);
  run_turn (fixture, "endless");

  assert_history_kept (fixture, "TURN_LINE_TOO_LONG");
  /* The client gave up right after the limit: it never held much more. */
  g_test_message ("server wrote %" G_GUINT64_FORMAT " bytes before the client left",
                  akc_turn_test_server_get_bytes_sent (fixture->server));
  g_assert_cmpuint (akc_turn_test_server_get_bytes_sent (fixture->server), <, 16 * limit);
  WAIT_UNTIL (akc_turn_test_server_get_finished (fixture->server));
}

static void
test_many_snapshots (Fixture       *fixture,
                     gconstpointer  data)
{
  const guint n = 10000;
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GString) reply = g_string_new (NULL);
  AkcMessage *first_reply = NULL;
  gint64 start;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = NULL;

      g_string_printf (reply, "Step %u of the reply", i);
      line = snapshot (SESSION, 100 + i, i + 1 < n ? "streaming" : "complete", "many", reply->str,
                       i + 1 < n ? "streaming" : "complete");
      g_string_append (body, line);
    }

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  /* In reads of about 1 MiB. */
  for (gsize offset = 0; offset < body->len; offset += 1024 * 1024)
    akc_turn_test_server_add_chunk (fixture->server, body->str + offset, MIN (1024 * 1024, body->len - offset), 0);

  start = g_get_monotonic_time ();
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "many", NULL));
  while (akc_turn_client_get_busy (fixture->client))
    {
      g_main_context_iteration (NULL, TRUE);
      if (first_reply == NULL && n_messages (fixture) == 2)
        first_reply = message_at (fixture, 1);
    }
  g_test_message ("%u snapshots (%.1f MiB) in %.2f s", n, body->len / 1048576.0,
                  (g_get_monotonic_time () - start) / 1e6);

  g_assert_cmpuint (fixture->accepted, ==, n);
  g_assert_cmpuint (fixture->items_changed, ==, 1);
  g_assert_true (message_at (fixture, 1) == first_reply);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, reply->str);
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_IDLE);
}

static void
test_large_snapshot_in_thread (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *content = g_strnfill (300 * 1024, 'z');
  g_autofree char *grown = g_strconcat (content, "!", NULL);
  AkcMessage *user;

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 1, "streaming", "large", content, "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 2, "complete", "large", grown, "complete"), 10);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "large", NULL));
  WAIT_UNTIL (n_messages (fixture) != 0);
  user = message_at (fixture, 0);
  wait_until_done (fixture);

  g_assert_cmpuint (fixture->accepted, ==, 2);
  g_assert_true (message_at (fixture, 0) == user);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, grown);
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
}

static void
test_invalid_json (Fixture       *fixture,
                   gconstpointer  data)
{
  good_turn (fixture);

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  akc_turn_test_server_add_chunk (fixture->server, "{\"protocol\": not json\n", -1, 0);
  add_line (fixture->server, snapshot (SESSION, 9, "complete", "never", "Never shown.", "complete"), 0);
  run_turn (fixture, "bad");

  assert_history_kept (fixture, "PROTOCOL_INVALID_PAYLOAD");
  g_assert_cmpstr (akc_diagnostic_get_message (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client))), ==,
                   "Turn event is not valid JSON.");
  g_assert_cmpuint (n_messages (fixture), ==, 2);
}

static void
test_invalid_payload (Fixture       *fixture,
                      gconstpointer  data)
{
  good_turn (fixture);

  /* A snapshot whose message has an impossible date. */
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server,
            g_strdup ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"x\",\"sessionId\":\"" SESSION "\","
                      "\"turnId\":\"t\",\"sequence\":50,\"emittedAt\":\"2026-07-11T00:00:00.000Z\","
                      "\"event\":\"server.turn.snapshot\",\"payload\":{\"messages\":[{\"id\":\"m\",\"role\":\"user\","
                      "\"content\":\"x\",\"status\":\"complete\",\"createdAt\":\"2026-02-30T00:00:00.000Z\"}],"
                      "\"status\":\"complete\",\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}}\n"),
            0);
  run_turn (fixture, "bad");

  assert_history_kept (fixture, "PROTOCOL_INVALID_PAYLOAD");
  g_assert_cmpuint (n_messages (fixture), ==, 2);
}

static void
test_unknown_events_are_inert (Fixture       *fixture,
                               gconstpointer  data)
{
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  akc_turn_test_server_add_chunk (fixture->server,
                                  "{\"protocol\":\"agentskit.chat.turn\",\"version\":2,\"eventId\":\"v2\"}\n"
                                  "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"event\":\"server.turn.future\"}\n"
                                  "\n\r\n", -1, 0);
  add_line (fixture->server, snapshot (SESSION, 1, "complete", "inert", "Fine.", "complete"), 0);
  run_turn (fixture, "inert");

  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Fine.");
}

static void
test_duplicate_and_stale (Fixture       *fixture,
                          gconstpointer  data)
{
  AkcMessage *reply;

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 5, "streaming", "order", "A", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 5, "streaming", "order", "duplicate", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 3, "streaming", "order", "stale", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 6, "streaming", "order", "AB", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 4, "complete", "order", "rolled back", "complete"), 0);
  add_line (fixture->server, snapshot (SESSION, 7, "complete", "order", "ABC", "complete"), 0);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "order", NULL));
  WAIT_UNTIL (n_messages (fixture) != 0);
  reply = message_at (fixture, 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (on_content), fixture);
  wait_until_done (fixture);

  g_assert_cmpuint (fixture->accepted, ==, 3);
  g_assert_cmpuint (fixture->contents->len, ==, 2);
  g_assert_cmpstr (fixture->contents->pdata[0], ==, "AB");
  g_assert_cmpstr (fixture->contents->pdata[1], ==, "ABC");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));

  /* The next turn starts where the cursor is: an old sequence stays inert. */
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 2, "complete", "order", "replayed", "complete"), 0);
  run_turn (fixture, "again");
  g_assert_cmpstr (akc_message_get_content (reply), ==, "ABC");
  g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client))), ==,
                   "TURN_NO_REPLY");
}

static void
test_foreign_session (Fixture       *fixture,
                      gconstpointer  data)
{
  good_turn (fixture);

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot ("other-session", 99, "complete", "intruder", "Not yours.", "complete"), 0);
  add_line (fixture->server, snapshot (SESSION, 8, "complete", "first", "Kept answer. Mine.", "complete"), 0);
  run_turn (fixture, "mine");

  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
  g_assert_cmpuint (fixture->accepted, ==, 3);
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Kept answer. Mine.");
}

static void
test_server_diagnostic (Fixture       *fixture,
                        gconstpointer  data)
{
  good_turn (fixture);

  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 5, "streaming", "first", "Kept answer.", "streaming"), 0);
  add_line (fixture->server, diagnostic_line (6, "SERVER_TIMEOUT", "The chat request timed out."), 0);
  run_turn (fixture, "slow");

  assert_history_kept (fixture, "SERVER_TIMEOUT");
  g_assert_cmpstr (akc_diagnostic_get_message (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client))), ==,
                   "The chat request timed out.");
  g_assert_true (akc_diagnostic_get_retryable (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client))));
}

typedef struct {
  guint       status;
  const char *content_type;
  const char *body;
  const char *code;
  const char *message;
  gboolean    retryable;
} HttpCase;

static const HttpCase http_cases[] = {
  { 401, "text/plain;charset=UTF-8", "Unauthorized", "HTTP_UNAUTHORIZED", NULL, FALSE },
  { 409, "application/json; charset=utf-8",
    "{\"error\":{\"version\":1,\"code\":\"SESSION_BUSY\",\"message\":\"Another turn is active for this session.\",\"retryable\":true}}",
    "SESSION_BUSY", "Another turn is active for this session.", TRUE },
  { 413, "application/json; charset=utf-8",
    "{\"error\":{\"version\":1,\"code\":\"REQUEST_TOO_LARGE\",\"message\":\"Request body is too large.\",\"retryable\":false}}",
    "REQUEST_TOO_LARGE", "Request body is too large.", FALSE },
  { 415, "application/json; charset=utf-8",
    "{\"error\":{\"version\":1,\"code\":\"REQUEST_UNSUPPORTED_MEDIA_TYPE\",\"message\":\"Content-Type must be application/json.\",\"retryable\":false}}",
    "REQUEST_UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json.", FALSE },
  { 500, "application/json; charset=utf-8",
    "{\"error\":{\"version\":1,\"code\":\"SERVER_INTERNAL\",\"message\":\"The chat request failed.\",\"retryable\":true}}",
    "SERVER_INTERNAL", "The chat request failed.", TRUE },
  { 502, "text/html", "<html>Bad gateway</html>", "HTTP_ERROR", NULL, TRUE },
};

static void
test_http_error (Fixture       *fixture,
                 gconstpointer  data)
{
  const HttpCase *c = data;
  AkcDiagnostic *error;

  good_turn (fixture);

  akc_turn_test_server_respond (fixture->server, c->status, c->content_type);
  akc_turn_test_server_add_chunk (fixture->server, c->body, -1, 0);
  run_turn (fixture, "refused");

  assert_history_kept (fixture, c->code);
  error = akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client));
  if (c->message != NULL)
    g_assert_cmpstr (akc_diagnostic_get_message (error), ==, c->message);
  g_assert_cmpint (akc_diagnostic_get_retryable (error), ==, c->retryable);
  /* The token never reaches what is shown. */
  g_assert_null (strstr (akc_diagnostic_get_message (error), TOKEN));

  /* A later turn clears the error. */
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 40, "complete", "first", "Back.", "complete"), 0);
  run_turn (fixture, "retry by hand");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Back.");
}

static void
test_connect_timeout (Fixture       *fixture,
                      gconstpointer  data)
{
  good_turn (fixture);
  akc_turn_client_set_connect_timeout (fixture->client, 1);

  akc_turn_test_server_set_end (fixture->server, AKC_TURN_TEST_END_HANG);
  run_turn (fixture, "hang");

  assert_history_kept (fixture, "TURN_TIMEOUT");
}

static void
test_no_timer_after_headers (Fixture       *fixture,
                             gconstpointer  data)
{
  /* The deadline covers the headers only: a reply may take longer. */
  akc_turn_client_set_connect_timeout (fixture->client, 1);
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 1, "streaming", "long", "", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 2, "complete", "long", "Took a while.", "complete"), 1500);
  run_turn (fixture, "long");

  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Took a while.");
}

static void
test_connection_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTurnClient) client = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autofree char *url = NULL;
  guint16 port;

  /* A port that was free a moment ago. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  address = g_inet_socket_address_new (loopback, 0);
  g_assert_true (g_socket_bind (socket, address, TRUE, &error));
  g_clear_object (&address);
  address = g_socket_get_local_address (socket, &error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (address));
  g_socket_close (socket, NULL);
  url = g_strdup_printf ("http://127.0.0.1:%u/turn", port);

  client = akc_turn_client_new (url, SESSION, &error);
  g_assert_no_error (error);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (client), "anyone?", NULL));
  WAIT_UNTIL (!akc_turn_client_get_busy (client));
  g_assert_cmpstr (akc_diagnostic_get_code (akc_chat_source_get_error (AKC_CHAT_SOURCE (client))), ==,
                   "TURN_CONNECTION_FAILED");
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (client)), ==, AKC_CHAT_STATUS_ERROR);
}

static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  akc_turn_test_server_respond (fixture->server, 200, "application/x-ndjson");
  add_line (fixture->server, snapshot (SESSION, 1, "streaming", "stop", "Partial", "streaming"), 0);
  add_line (fixture->server, snapshot (SESSION, 2, "complete", "stop", "Partial and never seen", "complete"), 2000);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->client), "stop", NULL));
  WAIT_UNTIL (n_messages (fixture) != 0);

  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture->client));
  g_assert_false (akc_turn_client_get_busy (fixture->client));
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->client)), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (fixture->client)));
  /* The connection closes; what arrived stays. */
  WAIT_UNTIL (akc_turn_test_server_get_finished (fixture->server));
  g_assert_cmpstr (akc_message_get_content (message_at (fixture, 1)), ==, "Partial");
  g_assert_cmpuint (fixture->accepted, ==, 1);
}

static void
test_dispose_while_streaming (void)
{
  g_autoptr(AkcTurnTestServer) server = akc_turn_test_server_new ();
  g_autoptr(AkcTurnClient) client = akc_turn_client_new (akc_turn_test_server_get_url (server), SESSION, NULL);
  g_autofree char *content = g_strnfill (200 * 1024, 'q');

  akc_turn_test_server_respond (server, 200, "application/x-ndjson");
  add_line (server, snapshot (SESSION, 1, "streaming", "gone", content, "streaming"), 0);
  add_line (server, snapshot (SESSION, 2, "complete", "gone", "late", "complete"), 500);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (client), "gone", NULL));
  WAIT_UNTIL (akc_turn_test_server_get_bytes_sent (server) != 0);

  /* Dropped mid-turn, perhaps while a worker decodes: nothing crashes. */
  g_clear_object (&client);
  WAIT_UNTIL (akc_turn_test_server_get_finished (server));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/turn-client/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  g_test_add_func ("/turn-client/construction", test_construction);
  ADD ("submit", test_submit);
  ADD ("hostile/utf8-splits", test_utf8_splits);
  ADD ("hostile/text-plain", test_text_plain);
  ADD ("hostile/slow-drip", test_slow_drip);
  ADD ("hostile/disconnect-mid-record", test_disconnect_mid_record);
  ADD ("hostile/disconnect-while-streaming", test_disconnect_while_streaming);
  ADD ("hostile/oversized-line", test_oversized_line);
  ADD ("hostile/endless-line", test_endless_line);
  ADD ("hostile/10000-snapshots", test_many_snapshots);
  ADD ("large-snapshot-in-thread", test_large_snapshot_in_thread);
  ADD ("blank-line", test_blank_line);
  ADD ("hostile/invalid-json", test_invalid_json);
  ADD ("hostile/invalid-payload", test_invalid_payload);
  ADD ("hostile/unknown-events", test_unknown_events_are_inert);
  ADD ("hostile/duplicate-and-stale", test_duplicate_and_stale);
  ADD ("hostile/foreign-session", test_foreign_session);
  ADD ("hostile/server-diagnostic", test_server_diagnostic);
  for (guint i = 0; i < G_N_ELEMENTS (http_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/turn-client/hostile/http-%u", http_cases[i].status);

      g_test_add (path, Fixture, &http_cases[i], fixture_setup, test_http_error, fixture_teardown);
    }
  ADD ("connect-timeout", test_connect_timeout);
  ADD ("no-timer-after-headers", test_no_timer_after_headers);
  g_test_add_func ("/turn-client/connection-refused", test_connection_refused);
  ADD ("stop", test_stop);
  g_test_add_func ("/turn-client/dispose-while-streaming", test_dispose_while_streaming);

  return g_test_run ();
}

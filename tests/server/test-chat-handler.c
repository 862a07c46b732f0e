/* test-chat-handler.c: every §11.1 vector of server-diagnostics.json
 *
 * SPDX-License-Identifier: MIT
 *
 * Each chatHandler case builds an AkcChatHandler with the case's
 * behaviour, mounts it on a loopback SoupServer in this process and sends
 * the case's request with a real SoupSession: status, headers and body
 * (JSON error, verbatim text, or NDJSON events) are compared with the
 * reference's, and so is what the session storage holds afterwards.
 *
 * The harness of the reference: a definition `chat` (revision 1) whose
 * adapter answers `Echo: «input»` in one chunk (or waits until stopped),
 * with a message memory; the clock fixed at 2026-07-11T00:00:00.000Z;
 * event ids `event-1`, `event-2`, …; snapshots compared without message
 * ids and creation times.
 */

#include "config.h"

#include <string.h>

#include "akc-chat-handler.h"
#include "akc-server-test.h"
#include "akc-fixture.h"
#include "akc-server-memory.h"
#include "akc-server-script.h"

#define FIXTURES "application/server-diagnostics.json"
#define NOW_MS G_GINT64_CONSTANT (1783728000000) /* 2026-07-11T00:00:00.000Z */

/* A storage whose saves start failing after a number of them. */
#define TEST_TYPE_STORAGE (test_storage_get_type ())
G_DECLARE_FINAL_TYPE (TestStorage, test_storage, TEST, STORAGE, GObject)

struct _TestStorage
{
  GObject            parent_instance;
  AkcSessionStorage *inner;
  gint64             conflict_after;  /* -1: never */
  gint64             n_saves;
};

static void test_storage_iface_init (AkcSessionStorageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestStorage, test_storage, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_SESSION_STORAGE, test_storage_iface_init))

static void
test_storage_finalize (GObject *object)
{
  g_object_unref (TEST_STORAGE (object)->inner);
  G_OBJECT_CLASS (test_storage_parent_class)->finalize (object);
}

static void
test_storage_class_init (TestStorageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_storage_finalize;
}

static void
test_storage_init (TestStorage *self)
{
  self->inner = akc_memory_session_storage_new ();
  self->conflict_after = -1;
}

static void
storage_load_async (AkcSessionStorage *storage, const char *session_id, GCancellable *cancellable,
                    GAsyncReadyCallback callback, gpointer user_data)
{
  akc_session_storage_load_async (TEST_STORAGE (storage)->inner, session_id, cancellable, callback, user_data);
}

static AkcJsonValue *
storage_load_finish (AkcSessionStorage *storage, GAsyncResult *result, GError **error)
{
  return akc_session_storage_load_finish (TEST_STORAGE (storage)->inner, result, error);
}

static void
storage_save_async (AkcSessionStorage *storage, AkcJsonValue *snapshot, gint64 expected_cursor,
                    GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  TestStorage *self = TEST_STORAGE (storage);

  if (self->conflict_after >= 0 && self->n_saves++ >= self->conflict_after)
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_return_int (task, 0);
      return;
    }
  akc_session_storage_save_async (self->inner, snapshot, expected_cursor, cancellable, callback, user_data);
}

static gboolean
storage_save_finish (AkcSessionStorage *storage, GAsyncResult *result, gboolean *saved, GError **error)
{
  TestStorage *self = TEST_STORAGE (storage);

  if (g_task_is_valid (result, self))
    {
      *saved = FALSE;
      return g_task_propagate_int (G_TASK (result), error) >= 0;
    }
  return akc_session_storage_save_finish (self->inner, result, saved, error);
}

static void
test_storage_iface_init (AkcSessionStorageInterface *iface)
{
  iface->load_async = storage_load_async;
  iface->load_finish = storage_load_finish;
  iface->save_async = storage_save_async;
  iface->save_finish = storage_save_finish;
}

/* ------------------------------------------------------------------ */

typedef struct
{
  AkcDefinition *definition;
  gboolean       resolve_fails;
  guint          next_id;
} Harness;

static AkcDefinition *
resolve (AkcJsonValue *context, const char *session_id, gpointer user_data, GError **error)
{
  Harness *harness = user_data;

  if (harness->resolve_fails)
    {
      g_set_error_literal (error, AKC_SERVER_ERROR, AKC_SERVER_ERROR_INTERNAL, "resolveDefinition threw");
      return NULL;
    }
  return g_object_ref (harness->definition);
}

static gint64
now (gpointer user_data)
{
  return NOW_MS;
}

static char *
create_id (gpointer user_data)
{
  Harness *harness = user_data;

  return g_strdup_printf ("event-%u", ++harness->next_id);
}

static AkcJsonValue *
deny (SoupServerMessage *message, gpointer user_data)
{
  soup_server_message_set_status (message, 401, NULL);
  soup_server_message_set_response (message, "text/plain;charset=UTF-8", SOUP_MEMORY_STATIC, "Unauthorized", 12);
  return NULL;
}

/* A snapshot event as the vectors show it: envelope and payload in one
 * object, messages without id and createdAt. */
static AkcJsonValue *
project_event (AkcJsonValue *event)
{
  g_autoptr(GString) text = g_string_new ("{");
  AkcJsonValue *payload = akc_json_value_get_member (event, "payload");
  AkcJsonValue *messages;
  static const char * const envelope[] = { "event", "eventId", "sessionId", "turnId", "sequence", "emittedAt", NULL };

  if (g_strcmp0 (akc_test_member_string (event, "event"), "server.turn.snapshot") != 0)
    return akc_json_value_ref (event);

  g_assert_cmpstr (akc_test_member_string (event, "protocol"), ==, "agentskit.chat.turn");
  for (guint i = 0; envelope[i] != NULL; i++)
    {
      g_autofree char *v = akc_json_value_to_canonical (akc_json_value_get_member (event, envelope[i]), NULL);

      g_string_append_printf (text, "%s\"%s\":%s", i > 0 ? "," : "", envelope[i], v);
    }
  for (gsize i = 0; i < akc_json_value_get_member_count (payload); i++)
    {
      const char *name = akc_json_value_get_member_name (payload, i, NULL);
      g_autofree char *v = NULL;

      if (strcmp (name, "messages") == 0)
        continue;
      v = akc_json_value_to_canonical (akc_json_value_get_member_value (payload, i), NULL);
      g_string_append_printf (text, ",\"%s\":%s", name, v);
    }
  g_string_append (text, ",\"messages\":[");
  messages = akc_json_value_get_member (payload, "messages");
  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *m = akc_json_value_get_element (messages, i);
      g_autofree char *content = akc_json_value_to_canonical (akc_json_value_get_member (m, "content"), NULL);

      g_string_append_printf (text, "%s{\"role\":\"%s\",\"content\":%s,\"status\":\"%s\"}", i > 0 ? "," : "",
                              akc_test_member_string (m, "role"), content, akc_test_member_string (m, "status"));
    }
  g_string_append (text, "]}");
  return akc_test_parse_json (text->str);
}

/* Every line is a valid turn event; what is compared is its projection. */
static AkcJsonValue *
checked_event (AkcJsonValue *event,
               const char   *line)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) decoded = akc_turn_event_decode_value (event, &diagnostic);

  g_assert_null (diagnostic);
  g_assert_nonnull (decoded);
  return project_event (event);
}

static void
run_case (const AkcFixtureCase *fc, gconstpointer user_data)
{
  AkcJsonValue *request = akc_json_value_get_member (fc->input, "request");
  AkcJsonValue *behaviour = akc_json_value_get_member (fc->input, "behaviour");
  AkcJsonValue *options_value = akc_json_value_get_member (behaviour, "options");
  AkcJsonValue *construction = akc_fixture_expect (fc, "constructionError");
  AkcJsonValue *headers = akc_json_value_get_member (request, "headers");
  AkcJsonValue *stored = akc_json_value_get_member (behaviour, "stored");
  AkcJsonValue *v;
  AkcChatHandlerOptions options;
  Harness harness = { 0, };
  g_autoptr(TestStorage) storage = g_object_new (TEST_TYPE_STORAGE, NULL);
  g_autoptr(AkcChatMemory) memory = akc_server_memory_new ();
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(AkcChatHandler) handler = NULL;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) script = NULL;
  g_autoptr(AkcJsonValue) script_value = NULL;
  g_autoptr(GUri) base = NULL;
  g_autofree char *url = NULL;
  const char *method = akc_test_member_string (request, "method");
  const char *input = "hello";
  const char *content_type;
  gboolean waits;
  GSList *uris;

  akc_chat_handler_options_init (&options);
  if (options_value != NULL)
    {
      if ((v = akc_json_value_get_member (options_value, "timeoutMs")) != NULL)
        options.timeout_ms = akc_json_value_get_number (v);
      if ((v = akc_json_value_get_member (options_value, "cleanupTimeoutMs")) != NULL)
        options.cleanup_timeout_ms = akc_json_value_get_number (v);
      if ((v = akc_json_value_get_member (options_value, "maxBodyBytes")) != NULL)
        options.max_body_bytes = akc_json_value_get_number (v);
    }

  if ((v = akc_json_value_get_member (request, "bodyJson")) != NULL &&
      (v = akc_json_value_get_member (v, "payload")) != NULL && akc_test_member_string (v, "input") != NULL)
    input = akc_test_member_string (v, "input");
  script = g_string_new ("{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,\"replies\":[{\"chunks\":[");
  if ((v = akc_json_value_get_member (behaviour, "adapterWaitsForAbort")) != NULL && akc_json_value_get_boolean (v))
    g_string_append (script, "{\"waitForStop\":true}");
  else
    {
      g_autofree char *reply = g_strconcat ("Echo: ", input, NULL);
      g_autoptr(AkcJsonValue) reply_value = akc_json_value_new_string (reply, -1);
      g_autofree char *quoted = akc_json_value_to_canonical (reply_value, NULL);

      g_string_append_printf (script, "{\"text\":%s}", quoted);
    }
  g_string_append (script, "]}]}");
  script_value = akc_test_parse_json (script->str);
  adapter = akc_server_script_new_from_value (script_value, "the harness", &error);
  g_assert_no_error (error);
  harness.definition = akc_definition_new ("chat", adapter);
  akc_definition_set_memory (harness.definition, memory);
  if ((v = akc_json_value_get_member (behaviour, "memorySaveFails")) != NULL && akc_json_value_get_boolean (v))
    akc_server_memory_set_fail_writes (AKC_SERVER_MEMORY (memory), TRUE);
  harness.resolve_fails = (v = akc_json_value_get_member (behaviour, "resolveDefinitionThrows")) != NULL &&
                          akc_json_value_get_boolean (v);
  if ((v = akc_json_value_get_member (behaviour, "conflictAfterSaves")) != NULL)
    storage->conflict_after = (gint64) akc_json_value_get_number (v);
  if (stored != NULL)
    akc_memory_session_storage_put (AKC_MEMORY_SESSION_STORAGE (storage->inner), "session", stored);

  handler = akc_chat_handler_new (&options, AKC_SESSION_STORAGE (storage), resolve, &harness, &error);
  if (construction != NULL)
    {
      guint status = 0;

      g_assert_null (handler);
      g_assert_cmpstr (akc_server_error_get_code (error, &status), ==, akc_test_member_string (construction, "code"));
      g_assert_cmpstr (error->message, ==, akc_test_member_string (construction, "message"));
      g_assert_cmpuint (status, ==, akc_json_value_get_number (akc_json_value_get_member (construction, "status")));
      g_clear_object (&harness.definition);
      return;
    }
  g_assert_no_error (error);
  akc_chat_handler_set_clock (handler, now, create_id, &harness);
  if (g_strcmp0 (akc_test_member_string (behaviour, "authenticate"), "deny") == 0)
    akc_chat_handler_set_auth (handler, deny, NULL);

  server = soup_server_new (NULL, NULL);
  akc_chat_handler_attach (handler, server, "/chat");
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  base = g_uri_ref (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  url = g_strdup_printf ("http://127.0.0.1:%d/chat", g_uri_get_port (base));

  message = soup_message_new (method != NULL ? method : "POST", url);
  content_type = akc_test_member_string (headers, "content-type");
  if ((body = akc_server_test_vector_body (request)) != NULL)
    soup_message_set_request_body_from_bytes (message, content_type, body);
  else if ((v = akc_json_value_get_member (request, "bodyChunks")) != NULL)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new ();

      for (gsize i = 0; i < akc_json_value_get_length (v); i++)
        g_memory_input_stream_add_data (G_MEMORY_INPUT_STREAM (stream),
                                        g_strdup (akc_json_value_get_string (akc_json_value_get_element (v, i), NULL)),
                                        -1, g_free);
      soup_message_set_request_body (message, content_type, stream, -1);
    }
  else if (content_type != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), "Content-Type", content_type);

  /* The deadline of the adapter that waits comes once the first snapshot
   * is out, as in the reference (where the snapshot takes microseconds and
   * the deadline 10 ms), so the test does not depend on timing. */
  waits = (v = akc_json_value_get_member (behaviour, "adapterWaitsForAbort")) != NULL && akc_json_value_get_boolean (v);
  akc_chat_handler_set_manual_deadlines (handler, waits);

  session = soup_session_new ();
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, akc_test_store_result, &result);
  while (result == NULL)
    {
      g_main_context_iteration (NULL, TRUE);
      if (waits && akc_chat_handler_get_n_lines (handler) == 1)
        {
          akc_chat_handler_expire (handler);
          waits = FALSE;
        }
    }
  response = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);

  /* status, headers and body */
  akc_server_test_check_head (fc, message);
  akc_server_test_check_body (fc, response, checked_event);

  /* what the storage holds when the response is over */
  if ((v = akc_fixture_expect (fc, "storedAfter")) != NULL)
    {
      AkcJsonValue *after;
      AkcJsonValue *turns;
      AkcJsonValue *active;

      WAIT_UNTIL (akc_chat_handler_get_n_active (handler) <= 0);
      after = akc_memory_session_storage_lookup (AKC_MEMORY_SESSION_STORAGE (storage->inner), "session");
      g_assert_nonnull (after);
      g_assert_cmpfloat (akc_json_value_get_number (akc_json_value_get_member (after, "cursor")), ==,
                         akc_json_value_get_number (akc_json_value_get_member (v, "cursor")));
      active = akc_json_value_get_member (after, "activeTurn");
      g_assert_true (active == NULL);
      g_assert_cmpint (akc_json_value_get_kind (akc_json_value_get_member (v, "activeTurn")), ==, AKC_JSON_KIND_NULL);
      turns = akc_json_value_get_member (after, "terminalTurns");
      akc_assert_json_equal (turns, akc_json_value_get_member (v, "terminalTurns"));
    }

  /* every turn ends, with its cleanup at most once */
  WAIT_UNTIL (akc_chat_handler_get_n_active (handler) <= 0);
  g_assert_cmpuint (akc_chat_handler_get_n_cleanups (handler), <=, 1);

  soup_server_disconnect (server);
  g_clear_object (&harness.definition);
}

int
main (int argc, char **argv)
{
  guint n;

  g_test_init (&argc, &argv, NULL);
  n = akc_fixture_add_tests (FIXTURES, "/server/chat-handler", "chatHandler", run_case, NULL);
  g_assert_cmpuint (n, ==, 22);
  return g_test_run ();
}

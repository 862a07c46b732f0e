/* test-chat-hostile.c: the chat turn handler against hostile clients
 *
 * SPDX-License-Identifier: MIT
 *
 * Over a raw loopback socket: a client that disconnects in the middle of
 * a streamed turn (cleanup runs once, the lease is released, the next
 * turn of the session works) or of an Ask answer (the request ends as
 * cancelled at once, the next one is answered), a body that is not
 * UTF-8, a body that never ends (slowloris: the turn deadline, or the Ask
 * request deadline, closes the connection), and bodies over
 * the limit, declared and streamed: small ones, and 8 MiB ones that the
 * client writes whole before it reads, for a turn, an Ask request and a
 * turn refused before its body; each is read to its end without being
 * kept, and the client reads its 413 (or 415).
 */

#include "config.h"

#include <string.h>

#include "akc-ask-handler.h"
#include "akc-chat-handler.h"
#include "akc-server-memory.h"
#include "akc-server-script.h"
#include "akc-server-test.h"

typedef struct
{
  AkcDefinition     *definition;
  AkcSessionStorage *storage;
  AkcChatHandler    *handler;
  AkcAskHandler     *ask;
  SoupServer        *server;
  guint16            port;
  gssize             kept;   /* bytes of the last request body libsoup kept */
  guint              deadline_ms;
  GPtrArray         *metrics;   /* "name outcome" of each Ask metric record */
} Fixture;

static void
on_metric (AkcJsonValue *metric,
           gpointer      user_data)
{
  Fixture *fixture = user_data;

  g_ptr_array_add (fixture->metrics,
                   g_strdup_printf ("%s %s", akc_test_member_string (metric, "name"),
                                    akc_test_member_string (metric, "outcome")));
}

/* The Ask site; its request deadline is the fixture's turn deadline. */
static AkcJsonValue *
ask_site (AkcJsonValue *context, gpointer user_data, GError **error)
{
  g_autofree char *site = g_strdup_printf (
    "{\"protocol\":\"agentskit.chat.backend-site\",\"version\":1,\"siteId\":\"docs-site\","
    "\"assistant\":{\"id\":\"docs-guide\",\"name\":\"Docs Guide\",\"suggestions\":[]},"
    "\"corpus\":{\"id\":\"public-docs\",\"mode\":\"local\"},\"components\":[\"source-list\"],\"actions\":[],"
    "\"limits\":{\"requestTimeoutMs\":%u,\"retrievalTimeoutMs\":5000,\"generationTimeoutMs\":10000,"
    "\"maxSources\":3},\"persistence\":{\"mode\":\"disabled\"}}", ((Fixture *) user_data)->deadline_ms);

  return akc_json_value_parse (site, -1, NULL);
}

static char *
ask_subject (AkcJsonValue *context, gpointer user_data)
{
  return g_strdup ("subject-1");
}

static void
on_request_read (SoupServer *server, SoupServerMessage *message, gpointer user_data)
{
  ((Fixture *) user_data)->kept = soup_server_message_get_request_body (message)->length;
}

static AkcDefinition *
resolve (AkcJsonValue *context, const char *session_id, gpointer user_data, GError **error)
{
  return g_object_ref (((Fixture *) user_data)->definition);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  static const char script[] =
    "{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,\"replies\":["
    "{\"input\":\"/slow\",\"chunks\":[{\"text\":\"first words \"},{\"waitForStop\":true}]},"
    "{\"chunks\":[{\"text\":\"Hello\"},{\"text\":\" there\",\"delayMs\":5}]}]}";
  g_autoptr(AkcJsonValue) value = akc_json_value_parse (script, -1, NULL);
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(AkcChatMemory) memory = akc_server_memory_new ();
  g_autoptr(GError) error = NULL;
  static const char generator_text[] =
    "{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,\"replies\":["
    "{\"contains\":\"slow\",\"chunks\":[{\"text\":\"first words \"},{\"waitForStop\":true}]},"
    "{\"chunks\":[{\"text\":\"Install it [1].\"}]}]}";
  g_autoptr(AkcJsonValue) generator_script = NULL;
  g_autoptr(AkcAdapter) generator = NULL;
  g_autoptr(AkcAskRetriever) retriever = NULL;
  g_autofree char *retriever_path = NULL;
  AkcChatHandlerOptions options;
  AkcAskHandlerOptions ask_options;
  GSList *uris;

  adapter = akc_server_script_new_from_value (value, "the test", &error);
  g_assert_no_error (error);
  fixture->definition = akc_definition_new ("hostile", adapter);
  akc_definition_set_memory (fixture->definition, memory);
  fixture->storage = akc_memory_session_storage_new ();

  akc_chat_handler_options_init (&options);
  options.timeout_ms = GPOINTER_TO_UINT (data) != 0 ? GPOINTER_TO_UINT (data) : 30000;
  options.max_body_bytes = 4096;
  fixture->handler = akc_chat_handler_new (&options, fixture->storage, resolve, fixture, &error);
  g_assert_no_error (error);

  akc_ask_handler_options_init (&ask_options);
  ask_options.max_body_bytes = 4096;
  fixture->deadline_ms = (guint) options.timeout_ms;
  fixture->ask = akc_ask_handler_new (&ask_options, ask_site, ask_subject, fixture, &error);
  g_assert_no_error (error);
  retriever_path = g_build_filename (g_getenv ("AKC_SERVER_TESTS"), "ask-retriever.json", NULL);
  retriever = akc_ask_script_retriever_new_from_file (retriever_path, &error);
  g_assert_no_error (error);
  generator_script = akc_json_value_parse (generator_text, -1, NULL);
  generator = akc_server_script_new_from_value (generator_script, "the test", &error);
  g_assert_no_error (error);
  akc_ask_handler_set_retrievers (fixture->ask, retriever, NULL);
  akc_ask_handler_set_generator (fixture->ask, generator);
  fixture->metrics = g_ptr_array_new_with_free_func (g_free);
  akc_ask_handler_set_metrics (fixture->ask, on_metric, fixture);

  fixture->kept = -1;
  fixture->server = soup_server_new (NULL, NULL);
  g_signal_connect (fixture->server, "request-read", G_CALLBACK (on_request_read), fixture);
  akc_chat_handler_attach (fixture->handler, fixture->server, "/chat");
  akc_ask_handler_attach (fixture->ask, fixture->server, "/ask");
  soup_server_listen_local (fixture->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (fixture->server);
  fixture->port = (guint16) g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  WAIT_UNTIL (!(akc_chat_handler_get_n_active (fixture->handler) > 0 || akc_ask_handler_get_n_active (fixture->ask) > 0));
  soup_server_disconnect (fixture->server);
  g_clear_object (&fixture->server);
  g_clear_object (&fixture->handler);
  g_clear_object (&fixture->ask);
  g_clear_pointer (&fixture->metrics, g_ptr_array_unref);
  g_clear_object (&fixture->storage);
  g_clear_object (&fixture->definition);
}

static char *
submit_body (const char *session_id,
             const char *turn_id,
             const char *input)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e-%s\","
                          "\"sessionId\":\"%s\",\"turnId\":\"%s\",\"sequence\":0,"
                          "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"client.turn.submit\","
                          "\"payload\":{\"input\":\"%s\"}}", turn_id, session_id, turn_id, input);
}

static GSocketConnection *
connect_raw (Fixture *fixture)
{
  return akc_server_test_connect (fixture->port);
}

static void
write_all (GSocketConnection *connection,
           const char        *data,
           gsize              length)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)), data, length, NULL, NULL,
                             &error);
  g_assert_no_error (error);
}

static void
send_request (GSocketConnection *connection,
              const char        *body,
              gssize             declared)
{
  g_autofree char *head = g_strdup_printf ("POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                           "Content-Length: %" G_GSSIZE_FORMAT "\r\n\r\n",
                                           declared >= 0 ? declared : (gssize) strlen (body));

  write_all (connection, head, strlen (head));
  write_all (connection, body, strlen (body));
}

static void
test_disconnect (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *slow = submit_body ("hostile-1", "turn-1", "/slow");
  g_autofree char *next = submit_body ("hostile-1", "turn-2", "hello");
  g_autoptr(GSocketConnection) first = connect_raw (fixture);
  g_autoptr(GSocketConnection) second = NULL;
  g_autoptr(GString) streamed = NULL;
  g_autoptr(GString) answer = NULL;
  AkcJsonValue *stored;

  /* no deadline: only the client going away ends the turn */
  akc_chat_handler_set_manual_deadlines (fixture->handler, TRUE);
  send_request (first, slow, -1);
  /* the turn is streaming: its first words are out */
  streamed = akc_server_test_read_until (first, "first words");
  g_assert_nonnull (strstr (streamed->str, "200 OK"));
  g_io_stream_close (G_IO_STREAM (first), NULL, NULL);

  WAIT_UNTIL (akc_chat_handler_get_n_active (fixture->handler) <= 0);
  g_assert_cmpuint (akc_chat_handler_get_n_cleanups (fixture->handler), ==, 1);
  stored = akc_memory_session_storage_lookup (AKC_MEMORY_SESSION_STORAGE (fixture->storage), "hostile-1");
  g_assert_null (akc_json_value_get_member (stored, "activeTurn"));

  second = connect_raw (fixture);
  send_request (second, next, -1);
  answer = akc_server_test_read_until (second, "\"status\":\"complete\",\"usage\"");
  g_assert_nonnull (strstr (answer->str, "Hello there"));
  g_assert_nonnull (strstr (answer->str, "first words"));  /* the stopped reply was kept */
}

static void
test_not_utf8 (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GSocketConnection) connection = connect_raw (fixture);
  g_autoptr(GString) answer = NULL;

  send_request (connection, "{\"protocol\":\"\xff\xfe\"}", -1);
  answer = akc_server_test_read_until (connection, "}}");
  g_assert_nonnull (strstr (answer->str, "400 Bad Request"));
  g_assert_nonnull (strstr (answer->str, "REQUEST_INVALID_JSON"));
}

static void
test_slowloris (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GSocketConnection) connection = connect_raw (fixture);
  g_autoptr(GString) answer = NULL;

  /* 10 of the 100 bytes declared, then nothing: the deadline closes it */
  send_request (connection, "{\"protocol", 100);
  answer = akc_server_test_read_until (connection, NULL);
  g_assert_cmpuint (answer->len, ==, 0);
  WAIT_UNTIL (akc_chat_handler_get_n_active (fixture->handler) <= 0);
}

static void
send_ask (GSocketConnection *connection,
          const char        *question,
          gssize             declared)
{
  g_autofree char *body = g_strdup_printf ("{\"protocol\":\"agentskit.chat.ask\",\"version\":1,\"sessionId\":"
                                           "\"ask-1\",\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}",
                                           question);
  g_autofree char *head = g_strdup_printf ("POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                           "Content-Length: %" G_GSSIZE_FORMAT "\r\n\r\n",
                                           declared >= 0 ? declared : (gssize) strlen (body));

  write_all (connection, head, strlen (head));
  write_all (connection, body, declared >= 0 ? MIN ((gsize) declared / 2, strlen (body)) : strlen (body));
}

/* An Ask client that goes away in the middle of the answer, while the
 * generator is silent: the request ends at once as cancelled (its
 * generation stopped, not at the generation deadline) and the next one
 * is answered. */
static void
test_ask_disconnect (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GSocketConnection) first = connect_raw (fixture);
  g_autoptr(GSocketConnection) second = connect_raw (fixture);
  g_autoptr(GString) streamed = NULL;
  g_autoptr(GString) answer = NULL;

  send_ask (first, "a slow question", -1);
  streamed = akc_server_test_read_until (first, "first words");
  g_assert_nonnull (strstr (streamed->str, "200 OK"));
  g_assert_cmpuint (akc_ask_handler_get_n_active (fixture->ask), ==, 1);
  g_io_stream_close (G_IO_STREAM (first), NULL, NULL);
  WAIT_UNTIL (akc_ask_handler_get_n_active (fixture->ask) <= 0);
  /* it ended as cancelled by the client, not at the generation deadline */
  g_assert_true (g_ptr_array_find_with_equal_func (fixture->metrics, "cancellation.count cancelled", g_str_equal,
                                                   NULL));
  for (guint i = 0; i < fixture->metrics->len; i++)
    g_assert_false (g_str_has_prefix (g_ptr_array_index (fixture->metrics, i), "error.count"));

  send_ask (second, "How do I install it?", -1);
  answer = akc_server_test_read_until (second, "{\"type\":\"done\"");
  g_assert_nonnull (strstr (answer->str, "Install it [1]."));
  g_assert_nonnull (strstr (answer->str, "\"name\":\"cite\""));
}

static void
test_ask_not_utf8 (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GSocketConnection) connection = connect_raw (fixture);
  g_autoptr(GString) answer = NULL;
  static const char body[] = "{\"protocol\":\"agentskit.chat.ask\",\"version\":1,\"sessionId\":\"\xff\xfe\"}";
  g_autofree char *head = g_strdup_printf ("POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                           "Content-Length: %" G_GSIZE_FORMAT "\r\n\r\n", strlen (body));

  write_all (connection, head, strlen (head));
  write_all (connection, body, strlen (body));
  answer = akc_server_test_read_until (connection, "}}");
  g_assert_nonnull (strstr (answer->str, "400 Bad Request"));
  g_assert_nonnull (strstr (answer->str, "Request body is not valid JSON."));
}

/* Half of the declared body, then nothing: the request deadline closes
 * the connection, as the turn handler's does. */
static void
test_ask_slowloris (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GSocketConnection) connection = connect_raw (fixture);
  g_autoptr(GString) answer = NULL;

  send_ask (connection, "How do I install it?", 120);
  answer = akc_server_test_read_until (connection, NULL);
  g_assert_cmpuint (answer->len, ==, 0);
  WAIT_UNTIL (akc_ask_handler_get_n_active (fixture->ask) <= 0);
}

static void
test_over_limit (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *big = g_strnfill (5000, 'x');
  g_autoptr(GSocketConnection) declared = connect_raw (fixture);
  g_autoptr(GSocketConnection) streamed = connect_raw (fixture);
  g_autoptr(GString) answer = NULL;
  static const char head[] = "POST /chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Transfer-Encoding: chunked\r\n\r\n";

  send_request (declared, big, -1);
  answer = akc_server_test_read_until (declared, "}}");
  g_assert_nonnull (strstr (answer->str, "413"));
  g_assert_nonnull (strstr (answer->str, "REQUEST_TOO_LARGE"));
  g_string_free (g_steal_pointer (&answer), TRUE);

  /* chunked, no length: the limit is counted as the bytes arrive */
  write_all (streamed, head, strlen (head));
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *chunk = g_strdup_printf ("7d0\r\n%s\r\n", big + 3000);   /* 2000 bytes */

      write_all (streamed, chunk, strlen (chunk));
    }
  write_all (streamed, "0\r\n\r\n", 5);
  answer = akc_server_test_read_until (streamed, "}}");
  g_assert_nonnull (strstr (answer->str, "413"));
  g_assert_nonnull (strstr (answer->str, "REQUEST_TOO_LARGE"));
}

typedef struct
{
  GSocketConnection *connection;
  char              *data;
  gsize              length;
  gint               done;
} Writer;

static gboolean
wake_up (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* The client writes all its request before it reads (as many do). */
static gpointer
write_thread (gpointer user_data)
{
  Writer *writer = user_data;
  GError *error = NULL;

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (writer->connection)), writer->data,
                             writer->length, NULL, NULL, &error);
  g_atomic_int_set (&writer->done, 1);
  g_main_context_wakeup (NULL);
  return error;
}

/* A body far larger than the socket buffers, sent whole before the client
 * reads: the server reads it to its end and throws it away, so the client's
 * write succeeds and it reads the 413 (a server that closed with the body
 * unread would reset the connection and the 413 would be lost). */
static void
over_limit_large (Fixture  *fixture,
                  gboolean  chunked)
{
  static const gsize size = 8 * 1024 * 1024;

  /* a turn over the limit, an Ask request over the limit, a turn refused
   * before its body (wrong media type) */
  static const struct { const char *path, *type, *status, *code; } rounds[] = {
    { "/chat", "application/json", "HTTP/1.1 413", "REQUEST_TOO_LARGE" },
    { "/ask", "application/json", "HTTP/1.1 413", "ASK_INVALID_REQUEST" },
    { "/chat", "text/plain", "HTTP/1.1 415", "REQUEST_UNSUPPORTED_MEDIA_TYPE" },
  };

  for (guint round = 0; round < G_N_ELEMENTS (rounds); round++)
    {
      g_autoptr(GSocketConnection) connection = connect_raw (fixture);
      g_autoptr(GString) request = g_string_new (NULL);
      g_autoptr(GString) answer = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *filler = g_strnfill (64 * 1024, 'x');
      Writer writer = { connection, NULL, 0, 0 };
      GThread *thread;
      guint wake;

      g_string_append_printf (request, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: %s\r\n",
                              rounds[round].path, rounds[round].type);
      if (chunked)
        g_string_append (request, "Transfer-Encoding: chunked\r\n\r\n");
      else
        g_string_append_printf (request, "Content-Length: %" G_GSIZE_FORMAT "\r\n\r\n", size);
      for (gsize sent = 0; sent < size; sent += 64 * 1024)
        {
          if (chunked)
            g_string_append_printf (request, "%x\r\n", 64 * 1024);
          g_string_append_len (request, filler, 64 * 1024);
          if (chunked)
            g_string_append (request, "\r\n");
        }
      if (chunked)
        g_string_append (request, "0\r\n\r\n");
      writer.data = request->str;
      writer.length = request->len;

      thread = g_thread_new ("writer", write_thread, &writer);
      /* the server runs while the client writes; the client reads only after */
      wake = g_timeout_add (10, wake_up, NULL);
      WAIT_UNTIL (g_atomic_int_get (&writer.done));
      g_source_remove (wake);
      error = g_thread_join (thread);
      g_assert_no_error (error);
      answer = akc_server_test_read_until (connection, "}}");
      g_assert_true (g_str_has_prefix (answer->str, rounds[round].status));
      g_assert_nonnull (strstr (answer->str, rounds[round].code));
      /* and nothing of the body was kept */
      g_assert_cmpint (fixture->kept, ==, 0);
      fixture->kept = -1;
    }
}

static void
test_over_limit_large_declared (Fixture       *fixture,
                                gconstpointer  data)
{
  over_limit_large (fixture, FALSE);
}

/* chunked: the limit is counted as the bytes arrive */
static void
test_over_limit_large_streamed (Fixture       *fixture,
                                gconstpointer  data)
{
  over_limit_large (fixture, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/server/hostile/disconnect", Fixture, NULL, fixture_set_up, test_disconnect, fixture_tear_down);
  g_test_add ("/server/hostile/not-utf8", Fixture, NULL, fixture_set_up, test_not_utf8, fixture_tear_down);
  g_test_add ("/server/hostile/slowloris", Fixture, GUINT_TO_POINTER (300), fixture_set_up, test_slowloris,
              fixture_tear_down);
  g_test_add ("/server/hostile/over-limit", Fixture, NULL, fixture_set_up, test_over_limit, fixture_tear_down);
  g_test_add ("/server/hostile/ask-disconnect", Fixture, NULL, fixture_set_up, test_ask_disconnect,
              fixture_tear_down);
  g_test_add ("/server/hostile/ask-not-utf8", Fixture, NULL, fixture_set_up, test_ask_not_utf8, fixture_tear_down);
  g_test_add ("/server/hostile/ask-slowloris", Fixture, GUINT_TO_POINTER (300), fixture_set_up, test_ask_slowloris,
              fixture_tear_down);
  /* the fixture's data is the turn deadline: the default (30 s) here */
  g_test_add ("/server/hostile/over-limit-large-declared", Fixture, NULL, fixture_set_up,
              test_over_limit_large_declared, fixture_tear_down);
  g_test_add ("/server/hostile/over-limit-large-streamed", Fixture, NULL, fixture_set_up,
              test_over_limit_large_streamed, fixture_tear_down);
  return g_test_run ();
}

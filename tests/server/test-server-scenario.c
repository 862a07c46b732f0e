/* test-server-scenario.c: akc-server with tests/server/reference-scenario.json
 *
 * SPDX-License-Identifier: MIT
 *
 * Starts the real program on a loopback port and talks to it over HTTP
 * with our own client, AkcTurnClient: a streamed turn, the scripted
 * replies, refused tokens, a session bound to another definition, the
 * deadline of /chat-timeout and the turn after it, /healthz, and SIGTERM.
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <akc.h>
#include <libsoup/soup.h>

typedef struct
{
  GSubprocess *process;
  char        *base;   /* http://127.0.0.1:PORT */
} Server;

static Server server;

static void
start_server (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  const char *uri;

  server.process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                     g_getenv ("AKC_SERVER"), "--config", g_getenv ("AKC_SERVER_SCENARIO"),
                                     "--listen", "127.0.0.1:0", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server.process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "listening on http://127.0.0.1:"));
  uri = line + strlen ("listening on ");
  server.base = g_strndup (uri, strlen (uri) - 1);  /* without the last '/' */
}

static char *
endpoint (const char *path)
{
  return g_strconcat (server.base, path, NULL);
}

static AkcTurnClient *
client_for (const char *path,
            const char *session_id,
            const char *token)
{
  g_autofree char *url = endpoint (path);
  g_autoptr(GError) error = NULL;
  AkcTurnClient *client = akc_turn_client_new (url, session_id, &error);

  g_assert_no_error (error);
  if (token != NULL)
    akc_turn_client_set_token (client, token);
  return client;
}

static void
turn (AkcTurnClient *client,
      const char    *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (client), text, &error));
  g_assert_no_error (error);
  while (akc_turn_client_get_busy (client))
    g_main_context_iteration (NULL, TRUE);
}

static AkcMessage *
message_at (AkcTurnClient *client,
            guint          position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (client)),
                                                         position);

  g_assert_nonnull (message);
  return message;  /* the model keeps it */
}

static guint
n_messages (AkcTurnClient *client)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (client)));
}

static void
test_streamed_turn (void)
{
  g_autoptr(AkcTurnClient) client = client_for ("/chat", "scenario-hello", "chat-token-1");
  const AkcUsage *usage;

  turn (client, "hello");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (client)));
  g_assert_cmpuint (n_messages (client), ==, 2);
  g_assert_cmpstr (akc_message_get_content (message_at (client, 0)), ==, "hello");
  g_assert_cmpstr (akc_message_get_content (message_at (client, 1)), ==, "Hello, world! héllo 🌍");
  g_assert_cmpint (akc_message_get_status (message_at (client, 1)), ==, AKC_MESSAGE_STATUS_COMPLETE);
  usage = akc_chat_source_get_usage (AKC_CHAT_SOURCE (client));
  g_assert_cmpuint (usage->prompt_tokens, ==, 11);
  g_assert_cmpuint (usage->completion_tokens, ==, 7);
  g_assert_cmpuint (usage->total_tokens, ==, 18);

  /* the session keeps its conversation: a second turn sees both */
  turn (client, "/choices");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (client)));
  g_assert_cmpuint (n_messages (client), ==, 4);
  g_assert_true (g_str_has_prefix (akc_message_get_content (message_at (client, 3)),
                                   "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                                   "\"componentKey\":\"choice-list\",\"instanceId\":\"plan-choice\""));
}

static void
test_sources (void)
{
  g_autoptr(AkcTurnClient) client = client_for ("/chat-noauth", "scenario-sources", NULL);
  g_autoptr(AkcJsonValue) decoded = NULL;
  const char *content;

  turn (client, "/sources");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (client)));
  content = akc_message_get_content (message_at (client, 1));
  g_assert_true (akc_assistant_content_is_candidate (content, -1));
  g_assert_nonnull (strstr (content, "\"instanceId\":\"sources-1\""));
  g_assert_true (g_str_has_suffix (content, "{\"kind\":\"text\",\"text\":\"Anything else?\"}\n"));
}

static void
test_failures (void)
{
  g_autoptr(AkcTurnClient) refused = client_for ("/chat", "scenario-refused", "chat-token-2");
  g_autoptr(AkcTurnClient) foreign = client_for ("/chat", "foreign-1", "chat-token-1");
  g_autoptr(AkcTurnClient) failing = client_for ("/chat", "scenario-fail", "chat-token-1");

  turn (refused, "hello");
  g_assert_nonnull (akc_chat_source_get_error (AKC_CHAT_SOURCE (refused)));
  g_assert_cmpuint (n_messages (refused), ==, 0);

  turn (foreign, "hello");
  g_assert_nonnull (akc_chat_source_get_error (AKC_CHAT_SOURCE (foreign)));
  g_assert_cmpuint (n_messages (foreign), ==, 0);

  turn (failing, "/fail");
  g_assert_cmpint (akc_message_get_status (message_at (failing, 1)), ==, AKC_MESSAGE_STATUS_ERROR);
}

static void
test_deadline (void)
{
  g_autoptr(AkcTurnClient) client = client_for ("/chat-timeout", "scenario-slow", "chat-token-1");
  AkcDiagnostic *diagnostic;

  turn (client, "/slow");
  diagnostic = akc_chat_source_get_error (AKC_CHAT_SOURCE (client));
  g_assert_nonnull (diagnostic);
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "SERVER_TIMEOUT");

  /* the lease was released: the next turn of the session runs */
  turn (client, "hello");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (client)));
  g_assert_cmpstr (akc_message_get_content (message_at (client, n_messages (client) - 1)), ==,
                   "Hello, world! héllo 🌍");
}

static void
on_sent (GObject *source, GAsyncResult *result, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_healthz (void)
{
  g_autofree char *url = endpoint ("/healthz");
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) message = soup_message_new ("GET", url);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;

  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, on_sent, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  body = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  g_assert_cmpmem (g_bytes_get_data (body, NULL), g_bytes_get_size (body), "{\"status\":\"ok\"}", 15);
}

static void
test_sigterm (void)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (server.process, SIGTERM);
  g_assert_true (g_subprocess_wait (server.process, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (server.process));
  g_assert_cmpint (g_subprocess_get_exit_status (server.process), ==, 0);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  start_server ();
  g_test_add_func ("/server/scenario/healthz", test_healthz);
  g_test_add_func ("/server/scenario/streamed-turn", test_streamed_turn);
  g_test_add_func ("/server/scenario/sources", test_sources);
  g_test_add_func ("/server/scenario/failures", test_failures);
  g_test_add_func ("/server/scenario/deadline", test_deadline);
  g_test_add_func ("/server/scenario/sigterm", test_sigterm);
  status = g_test_run ();
  if (g_subprocess_get_identifier (server.process) != NULL)
    g_subprocess_force_exit (server.process);
  g_clear_object (&server.process);
  g_free (server.base);
  return status;
}

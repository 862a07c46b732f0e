/* test-server-scenario.c: akc-server with tests/server/reference-scenario.json
 *
 * SPDX-License-Identifier: MIT
 *
 * Starts the real program on a loopback port and talks to it over HTTP
 * with our own client, AkcTurnClient: a streamed turn, the scripted
 * replies, refused tokens, a session bound to another definition, the
 * deadline of /chat-timeout and the turn after it, /healthz, and SIGTERM;
 * and grounded answers of /ask through AkcAskAdapter in an AkcChat (the
 * sources, multibyte text, every stream error, refused tokens and sites),
 * with raw exchanges where the adapter hides the wire (persistence).
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <akc.h>
#include <libsoup/soup.h>
#include "akc-test.h"

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
  WAIT_UNTIL (!akc_turn_client_get_busy (client));
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
  WAIT_UNTIL (result != NULL);
  body = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  g_assert_cmpmem (g_bytes_get_data (body, NULL), g_bytes_get_size (body), "{\"status\":\"ok\"}", 15);
}


static AkcChat *
ask_chat (const char     *token,
          AkcAskAdapter **adapter_out)
{
  g_autoptr(AkcAskAdapter) adapter = akc_ask_adapter_new ("/ask");

  akc_ask_adapter_set_base_uri (adapter, server.base);
  akc_ask_adapter_set_corpus (adapter, "public-docs");
  akc_ask_adapter_set_persona (adapter, "docs-guide");
  if (token != NULL)
    akc_ask_adapter_set_bearer_token (adapter, token);
  if (adapter_out != NULL)
    *adapter_out = g_object_ref (adapter);
  return akc_chat_new (AKC_ADAPTER (adapter));
}

/* The text parts of an answer joined, and its components as JSON text. */
static char *
answer_text (const char *content)
{
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean complete = FALSE;

  if (!akc_assistant_content_is_candidate (content, -1))
    return g_strdup (content);
  parts = akc_assistant_content_decode (content, -1, &complete, &diagnostic);
  g_assert_null (diagnostic);
  g_assert_true (complete);
  for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
    {
      AkcJsonValue *part = akc_json_value_get_element (parts, i);
      AkcJsonValue *part_text = akc_json_value_get_member (part, "text");

      if (part_text != NULL)
        g_string_append (text, akc_json_value_get_string (part_text, NULL));
      else
        {
          g_autofree char *frame = akc_json_value_to_canonical (akc_json_value_get_member (part, "frame"), NULL);

          g_string_append (text, frame);
        }
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
ask (AkcChat    *chat,
     const char *question)
{
  g_autoptr(GError) error = NULL;
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));
  g_autoptr(AkcMessage) reply = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), question, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING);
  reply = g_list_model_get_item (messages, g_list_model_get_n_items (messages) - 1);
  return answer_text (akc_message_get_content (reply));
}

static void
test_ask_answer (void)
{
  g_autoptr(AkcChat) chat = ask_chat ("ask-token", NULL);
  g_autofree char *answer = ask (chat, "How do I install AgentsKit Chat?");
  g_autofree char *multibyte = NULL;

  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (chat)));
  g_assert_nonnull (strstr (answer, "AgentsKit Chat installs with `npm i @agentskit/chat` [1]."));
  /* the cite event became the sources, without the unsafe ones */
  g_assert_nonnull (strstr (answer, "Installing AgentsKit Chat"));
  g_assert_nonnull (strstr (answer, "Running the Ask server"));
  g_assert_null (strstr (answer, "javascript:"));
  g_assert_null (strstr (answer, "user:pass"));

  multibyte = ask (chat, "multibyte please");
  g_assert_null (akc_chat_source_get_error (AKC_CHAT_SOURCE (chat)));
  g_assert_nonnull (strstr (multibyte, "Grüße 👋🏽 — 日本語 cafe\xcc\x81"));
}

static void
test_ask_failures (void)
{
  static const struct { const char *token, *question; } cases[] = {
    { "ask-token", "tell me nothing" },          /* 422 no grounded sources */
    { "ask-token", "retrievalfail" },            /* 502 */
    { "ask-token", "empty answer" },             /* stream error: empty */
    { "ask-token", "toolong answer" },           /* stream error: limit */
    { "ask-token", "genfail now" },              /* stream error: generator */
    { "ask-token-fast-timeout", "slow answer" }, /* stream error: generation deadline */
    { "ask-token-limited", "hello" },            /* 429 */
    { "ask-token-federated", "hello" },          /* 403: the corpus hint is public-docs */
    { "ask-token-bad-site", "hello" },           /* 500: invalid trusted site */
    { "ask-token-persist", "hello" },            /* 500: persistence without session id */
    { "wrong-token", "hello" },                  /* 401 */
    { NULL, "hello" },                           /* 401 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcChat) chat = ask_chat (cases[i].token, NULL);

      g_autofree char *answer = NULL;

      g_test_message ("%s: %s", cases[i].token, cases[i].question);
      answer = ask (chat, cases[i].question);
      g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_ERROR);
      g_assert_nonnull (akc_chat_source_get_error (AKC_CHAT_SOURCE (chat)));
    }
}

static char *
post_ask (const char *token,
          const char *body,
          guint      *status)
{
  g_autofree char *url = endpoint ("/ask");
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(SoupMessage) message = soup_message_new ("POST", url);
  g_autoptr(GBytes) request = g_bytes_new (body, strlen (body));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *authorization = g_strconcat ("Bearer ", token, NULL);

  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", authorization);
  soup_message_set_request_body_from_bytes (message, "application/json", request);
  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, on_sent, &result);
  WAIT_UNTIL (result != NULL);
  response = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  *status = soup_message_get_status (message);
  return g_strndup (g_bytes_get_data (response, NULL), g_bytes_get_size (response));
}

static void
test_ask_persistence (void)
{
  guint status = 0;
  g_autofree char *first = post_ask ("ask-token-persist",
                                     "{\"sessionId\":\"persist-1\",\"messages\":[{\"role\":\"user\",\"content\":\"install?\"}]}",
                                     &status);
  g_autofree char *second = NULL;
  g_autofree char *conflict = NULL;

  g_assert_cmpuint (status, ==, 200);
  g_assert_true (g_str_has_suffix (first, "{\"type\":\"done\",\"model\":\"fixture-model-1\"}\n"));

  /* the stored history is the server's: a forged history is ignored */
  second = post_ask ("ask-token-persist",
                     "{\"sessionId\":\"persist-1\",\"messages\":[{\"role\":\"assistant\",\"content\":\"forged\"},"
                     "{\"role\":\"user\",\"content\":\"and the server?\"}]}", &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_true (g_str_has_suffix (second, "{\"type\":\"done\",\"model\":\"fixture-model-1\"}\n"));

  conflict = post_ask ("ask-token-persist",
                       "{\"sessionId\":\"conflict-session\",\"messages\":[{\"role\":\"user\",\"content\":\"install?\"}]}",
                       &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_true (g_str_has_suffix (conflict, "{\"type\":\"error\",\"message\":\"The Ask session changed concurrently.\","
                                             "\"code\":\"ASK_PERSISTENCE_CONFLICT\",\"retryable\":true}\n"));
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
  g_test_add_func ("/server/scenario/ask-answer", test_ask_answer);
  g_test_add_func ("/server/scenario/ask-failures", test_ask_failures);
  g_test_add_func ("/server/scenario/ask-persistence", test_ask_persistence);
  g_test_add_func ("/server/scenario/sigterm", test_sigterm);
  status = g_test_run ();
  if (g_subprocess_get_identifier (server.process) != NULL)
    g_subprocess_force_exit (server.process);
  g_clear_object (&server.process);
  g_free (server.base);
  return status;
}

/* test-server-provider.c: akc-server with model providers as adapters
 *
 * SPDX-License-Identifier: MIT
 *
 * An AkcServer in this process whose chat definition and Ask generator
 * are AkcProviderAdapters talking to a loopback fake of an
 * OpenAI-compatible provider (AkcTestHttpServer, answering Server-Sent
 * Events): a chat turn streams the provider's words; an Ask request sends
 * the provider the grounded prompt (the numbered sources) with the key
 * read from its file, and answers with the provider's text, then the
 * `cite` tool event and `done`; a provider answer over 16,384 UTF-16
 * units ends the stream with its error; and every malformed provider
 * configuration is refused with an error naming its place.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <libsoup/soup.h>

#include "akc-demo.h"
#include "akc-json-private.h"
#include "akc-server-test.h"
#include "akc-server-util.h"
#include "akc-test-http-server.h"

#define KEY "sk-server-provider-7f3a"

typedef struct
{
  char              *folder;
  AkcTestHttpServer *provider;
} Fixture;

static char *
write_file (Fixture    *fixture,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (fixture->folder, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* One OpenAI streaming chunk per word, usage, then [DONE]. */
static AkcTestResponse *
openai_words (const char * const *words)
{
  AkcTestResponse *response = akc_test_response_new (200, "text/event-stream");

  akc_test_response_add_chunk (response, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":"
                                         "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      AkcJsonWriter w;
      g_autofree char *chunk = NULL;

      akc_json_writer_init (&w, text);
      akc_json_writer_string (&w, words[i], -1);
      chunk = g_strdup_printf ("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":"
                               "[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", text->str);
      akc_test_response_add_chunk (response, chunk, -1);
    }
  akc_test_response_add_chunk (response, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":"
                                         "[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", -1);
  akc_test_response_add_chunk (response, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
                                         "\"usage\":{\"prompt_tokens\":30,\"completion_tokens\":4,"
                                         "\"total_tokens\":34}}\n\n", -1);
  akc_test_response_add_chunk (response, "data: [DONE]\n\n", -1);
  return response;
}

static char *
config_text (Fixture    *fixture,
             const char *chat_adapter,
             const char *generator)
{
  const char *base = akc_test_http_server_get_base_uri (fixture->provider);
  g_autofree char *default_chat = g_strdup_printf ("{\"kind\":\"provider\",\"api\":\"openai\",\"baseUrl\":\"%s/v1\","
                                                   "\"model\":\"chat-model\",\"apiKeyFile\":\"key.txt\"}", base);
  g_autofree char *default_generator = g_strdup_printf ("{\"kind\":\"provider\",\"api\":\"openai\",\"baseUrl\":"
                                                        "\"%s/v1\",\"model\":\"ask-model\",\"apiKeyFile\":\"key.txt\","
                                                        "\"maxTokens\":512}", base);

  return g_strdup_printf (
    "{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,\"listen\":[\"127.0.0.1:0\"],"
    "\"metrics\":{\"kind\":\"file\",\"path\":\"metrics.ndjson\"},"
    "\"definitions\":[{\"id\":\"model\",\"adapter\":%s}],"
    "\"mounts\":[{\"path\":\"/chat\",\"handler\":\"chat\",\"auth\":{\"kind\":\"none\"},"
    "\"sessions\":[{\"prefix\":\"\",\"definition\":\"model\"}]},"
    "{\"path\":\"/ask\",\"handler\":\"ask\",\"auth\":{\"kind\":\"bearer\",\"tokens\":[{\"sha256\":"
    "\"1b62d2bf8ce600af0872d68f25e3fe6348faaf48eec3edbba564704318ca7912\",\"subject\":\"subject-1\","
    "\"site\":\"docs\"}]},"
    "\"sites\":[{\"name\":\"docs\",\"site\":{\"protocol\":\"agentskit.chat.backend-site\",\"version\":1,"
    "\"siteId\":\"docs-site\",\"assistant\":{\"id\":\"docs-guide\",\"name\":\"Docs Guide\",\"suggestions\":[]},"
    "\"corpus\":{\"id\":\"public-docs\",\"mode\":\"local\"},\"components\":[\"source-list\"],\"actions\":[],"
    "\"limits\":{\"requestTimeoutMs\":10000,\"retrievalTimeoutMs\":5000,\"generationTimeoutMs\":10000,"
    "\"maxSources\":3},\"persistence\":{\"mode\":\"disabled\"}}}],"
    "\"retrievers\":{\"local\":{\"kind\":\"script\",\"file\":\"retriever.json\"}},"
    "\"generator\":%s}]}",
    chat_adapter != NULL ? chat_adapter : default_chat,
    generator != NULL ? generator : default_generator);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->folder = g_dir_make_tmp ("akc-provider-XXXXXX", NULL);
  fixture->provider = akc_test_http_server_new ();
  g_free (write_file (fixture, "key.txt", KEY "\n"));
  g_free (write_file (fixture, "retriever.json",
                      "{\"protocol\":\"agentskit.chat.server-retriever\",\"version\":1,\"rules\":[{\"documents\":["
                      "{\"id\":\"install\",\"title\":\"Installing AgentsKit Chat\","
                      "\"href\":\"https://chat.example.test/docs/install\","
                      "\"excerpt\":\"Install AgentsKit Chat with npm i @agentskit/chat.\"},"
                      "{\"id\":\"server\",\"title\":\"Running the Ask server\","
                      "\"href\":\"https://chat.example.test/docs/server\","
                      "\"excerpt\":\"The Ask server answers grounded questions.\"}]}]}"));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->folder, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fixture->folder);
  g_free (fixture->folder);
  akc_test_http_server_free (fixture->provider);
}

static AkcServer *
start_server (Fixture     *fixture,
              const char  *text,
              GError     **error)
{
  g_autofree char *config = write_file (fixture, "server.json", text);

  return akc_server_test_start (config, error);
}

static const char ask_body[] = "{\"protocol\":\"agentskit.chat.ask\",\"version\":1,\"sessionId\":\"ask-1\","
                               "\"messages\":[{\"role\":\"user\",\"content\":\"How do I install it?\"}]}";

static void
test_chat (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *text = config_text (fixture, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcServer) server = start_server (fixture, text, &error);
  g_autofree char *answer = NULL;
  g_autofree char *sent = NULL;
  GBytes *body;
  guint status = 0;

  g_assert_no_error (error);
  akc_test_http_server_set_response (fixture->provider,
                                     openai_words ((const char * const []) { "Hello", " from", " the model", NULL }));
  answer = akc_server_test_post (server, "/chat", NULL,
                 "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e-1\",\"sessionId\":\"p-1\","
                 "\"turnId\":\"t-1\",\"sequence\":0,\"emittedAt\":\"2026-07-11T00:00:00.000Z\","
                 "\"event\":\"client.turn.submit\",\"payload\":{\"input\":\"say hello\"}}", &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_nonnull (strstr (answer, "Hello from the model"));
  g_assert_nonnull (strstr (answer, "\"status\":\"complete\""));

  g_assert_cmpuint (akc_test_http_server_get_n_requests (fixture->provider), ==, 1);
  g_assert_cmpstr (akc_test_http_server_get_path_query (fixture->provider), ==, "/v1/chat/completions");
  g_assert_cmpstr (akc_test_http_server_get_header (fixture->provider, "Authorization"), ==, "Bearer " KEY);
  body = akc_test_http_server_get_body (fixture->provider);
  sent = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  g_assert_nonnull (strstr (sent, "\"model\":\"chat-model\""));
  g_assert_nonnull (strstr (sent, "say hello"));
}

static void
test_ask (Fixture       *fixture,
          gconstpointer  data)
{
  g_autofree char *text = config_text (fixture, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcServer) server = start_server (fixture, text, &error);
  g_autofree char *answer = NULL;
  g_autofree char *sent = NULL;
  GBytes *body;
  g_autoptr(AkcJsonValue) request = NULL;
  AkcJsonValue *messages, *system;
  const char *prompt, *cite, *done;
  g_autofree char *metrics_path = NULL;
  g_autofree char *metrics = NULL;
  guint status = 0;

  g_assert_no_error (error);
  akc_test_http_server_set_response (fixture->provider,
                                     openai_words ((const char * const []) { "Run ", "`npm i @agentskit/chat`", " [1].",
                                                                             NULL }));
  answer = akc_server_test_post (server, "/ask", "ask-token", ask_body, &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_nonnull (strstr (answer, "{\"type\":\"text\",\"delta\":\"Run \"}"));
  g_assert_nonnull (strstr (answer, "{\"type\":\"text\",\"delta\":\" [1].\"}"));
  cite = strstr (answer, "\"name\":\"cite\"");
  done = strstr (answer, "{\"type\":\"done\"");
  g_assert_nonnull (cite);
  g_assert_nonnull (done);
  g_assert_true (cite < done);
  g_assert_nonnull (strstr (answer, "\"path\":\"https://chat.example.test/docs/install\""));
  /* the provider's usage is in the metric records */
  akc_server_flush_metrics (server);
  metrics_path = g_build_filename (fixture->folder, "metrics.ndjson", NULL);
  g_assert_true (g_file_get_contents (metrics_path, &metrics, NULL, NULL));
  g_assert_nonnull (strstr (metrics, "\"name\":\"usage.input_tokens\""));
  g_assert_nonnull (strstr (metrics, "\"value\":30"));

  /* the provider got the grounded prompt: the numbered sources, then the question */
  g_assert_cmpstr (akc_test_http_server_get_header (fixture->provider, "Authorization"), ==, "Bearer " KEY);
  body = akc_test_http_server_get_body (fixture->provider);
  sent = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  request = akc_json_value_parse (sent, -1, NULL);
  g_assert_nonnull (request);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (request, "model"), NULL), ==, "ask-model");
  g_assert_cmpint ((gint64) akc_json_value_get_number (akc_json_value_get_member (request, "max_tokens")), ==, 512);
  messages = akc_json_value_get_member (request, "messages");
  g_assert_cmpuint (akc_json_value_get_length (messages), ==, 2);
  system = akc_json_value_get_element (messages, 0);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (system, "role"), NULL), ==, "system");
  prompt = akc_json_value_get_string (akc_json_value_get_member (system, "content"), NULL);
  g_assert_nonnull (strstr (prompt, "You are Docs Guide."));
  g_assert_nonnull (strstr (prompt, "[1] Installing AgentsKit Chat (https://chat.example.test/docs/install)\n"
                                    "Install AgentsKit Chat with npm i @agentskit/chat."));
  g_assert_nonnull (strstr (prompt, "[2] Running the Ask server"));
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (messages, 1),
                                                                         "content"), NULL),
                   ==, "How do I install it?");
}

static void
test_ask_too_long (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *text = config_text (fixture, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcServer) server = start_server (fixture, text, &error);
  g_autofree char *half = g_strnfill (8192, 'a');
  g_autofree char *answer = NULL;
  guint status = 0;

  g_assert_no_error (error);
  /* 8,192 + 8,192 units pass; one more is over the bound */
  akc_test_http_server_set_response (fixture->provider,
                                     openai_words ((const char * const []) { half, half, "b", NULL }));
  answer = akc_server_test_post (server, "/ask", "ask-token", ask_body, &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_nonnull (strstr (answer, "ASK_GENERATION_FAILED"));
  g_assert_nonnull (strstr (answer, "The grounded answer exceeded its safe limit."));
  g_assert_null (strstr (answer, "\"delta\":\"b\""));
  g_assert_null (strstr (answer, "\"name\":\"cite\""));
}

static void
test_invalid (Fixture       *fixture,
              gconstpointer  data)
{
  const char *base = akc_test_http_server_get_base_uri (fixture->provider);
  g_autofree char *good = g_strdup_printf ("\"kind\":\"provider\",\"api\":\"openai\",\"baseUrl\":\"%s/v1\","
                                           "\"model\":\"m\"", base);
  struct
  {
    const char *members;   /* after the good ones, or instead of them when they start with '!' */
    const char *message;
  } cases[] = {
    { ",\"temperature\":1", "the adapter of definition 1 has an unknown member “temperature”." },
    { "!\"kind\":\"provider\",\"api\":\"openai\",\"model\":\"m\"",
      "the adapter of definition 1 lacks the member “baseUrl”." },
    { "!\"kind\":\"provider\",\"api\":\"gemini\",\"baseUrl\":\"http://127.0.0.1:1/v1\",\"model\":\"m\"",
      "“api” of the adapter of definition 1 must be “openai”, “ollama” or “anthropic”." },
    { "!\"kind\":\"provider\",\"api\":\"openai\",\"baseUrl\":\"ftp://127.0.0.1/\",\"model\":\"m\"",
      "“baseUrl” of the adapter of definition 1 is invalid: " },
    { "!\"kind\":\"provider\",\"api\":\"openai\",\"baseUrl\":\"http://127.0.0.1:1/v1\",\"model\":\"\"",
      "“model” of the adapter of definition 1 is empty." },
    { ",\"apiKeyFile\":\"missing.txt\"", "The key of the adapter of definition 1 cannot be read: " },
    { ",\"apiKeyFile\":\"empty.txt\"", "The key file of the adapter of definition 1 is empty or not one line of text." },
    { ",\"apiKeyEnv\":\"AKC_TEST_UNSET_KEY\"",
      "The environment variable “AKC_TEST_UNSET_KEY” of the adapter of definition 1 is unset, empty or not one "
      "line of text." },
    { ",\"apiKeyFile\":\"key.txt\",\"apiKeyEnv\":\"HOME\"",
      "the adapter of definition 1 has both “apiKeyFile” and “apiKeyEnv”: name one place for the key." },
    { ",\"maxTokens\":0", "“maxTokens” of the adapter of definition 1 must be a whole number from 1 to 1000000." },
    { ",\"connectTimeoutMs\":\"5\"",
      "“connectTimeoutMs” of the adapter of definition 1 must be a whole number from 100 to 3600000." },
  };

  g_free (write_file (fixture, "empty.txt", "\n"));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *adapter = cases[i].members[0] == '!' ? g_strdup_printf ("{%s}", cases[i].members + 1)
                                                             : g_strdup_printf ("{%s%s}", good, cases[i].members);
      g_autofree char *text = config_text (fixture, adapter, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcServer) server = start_server (fixture, text, &error);

      g_test_message ("case %u: %s", i, adapter);
      g_assert_null (server);
      g_assert_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID);
      g_assert_true (g_str_has_prefix (error->message, cases[i].message));
    }

  /* the generator is checked the same way */
  {
    g_autofree char *generator = g_strdup_printf ("{%s,\"apiKeyFile\":\"empty.txt\"}", good);
    g_autofree char *text = config_text (fixture, NULL, generator);
    g_autoptr(GError) error = NULL;
    g_autoptr(AkcServer) server = start_server (fixture, text, &error);

    g_assert_null (server);
    g_assert_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID);
    g_assert_cmpstr (error->message, ==, "The key file of the generator of mount 2 is empty or not one line of text.");
  }
  g_assert_cmpuint (akc_test_http_server_get_n_requests (fixture->provider), ==, 0);
}

static AkcTestResponse *
openai_tool_call (const char *name,
                  const char *arguments)
{
  AkcTestResponse *response = akc_test_response_new (200, "text/event-stream");
  g_autoptr(GString) quoted = g_string_new (NULL);
  g_autofree char *first = NULL;
  AkcJsonWriter w;

  akc_json_writer_init (&w, quoted);
  akc_json_writer_string (&w, arguments, -1);
  first = g_strdup_printf ("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                           "\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                           "\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":%s}}]}}]}\n\n",
                           name, quoted->str);
  akc_test_response_add_chunk (response, first, -1);
  akc_test_response_add_chunk (response, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":"
                                         "[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n", -1);
  akc_test_response_add_chunk (response, "data: [DONE]\n\n", -1);
  return response;
}

/* A reference application whose model is a provider: the support
 * application answers what its routes do not with the provider, and a
 * ticket the model proposes waits for its confirmation (nothing runs in
 * the turn). */
static void
test_reference_model (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *base = akc_test_http_server_get_base_uri (fixture->provider);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "chat-token-1", -1);
  g_autofree char *text = g_strdup_printf (
    "{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,\"listen\":[\"127.0.0.1:0\"],"
    "\"definitions\":[{\"id\":\"support-reference\",\"reference\":\"support\","
    "\"capabilities\":[\"support.ticket.create\"],"
    "\"adapter\":{\"kind\":\"provider\",\"api\":\"openai\",\"baseUrl\":\"%s/v1\",\"model\":\"m\"}}],"
    "\"mounts\":[{\"path\":\"/chat\",\"handler\":\"chat\",\"auth\":{\"kind\":\"bearer\",\"tokens\":"
    "[{\"sha256\":\"%s\",\"subject\":\"user-1\"}]},"
    "\"sessions\":[{\"prefix\":\"support-\",\"definition\":\"support-reference\"}]}]}", base, hash);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcServer) server = start_server (fixture, text, &error);
  g_autofree char *answer = NULL;
  const char *last;
  guint status = 0;

  g_assert_no_error (error);
  akc_test_http_server_set_response (fixture->provider,
                                     openai_tool_call ("create-support-ticket",
                                                       "{\"subject\":\"Printer on fire\",\"priority\":\"urgent\"}"));
  answer = akc_server_test_post (server, "/chat", "chat-token-1",
                 "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e-1\",\"sessionId\":"
                 "\"support-7\",\"turnId\":\"t-1\",\"sequence\":0,\"emittedAt\":\"2026-07-11T00:00:00.000Z\","
                 "\"event\":\"client.turn.submit\",\"payload\":{\"input\":\"I need a human\"}}", &status);
  g_assert_cmpuint (status, ==, 200);
  g_assert_cmpuint (akc_test_http_server_get_n_requests (fixture->provider), ==, 1);
  last = g_strrstr (answer, "\"event\":\"server.turn.snapshot\"");
  g_assert_nonnull (last);
  g_assert_nonnull (strstr (last, "\"name\":\"create-support-ticket\",\"args\":{\"subject\":\"Printer on fire\","
                                  "\"priority\":\"urgent\"},\"status\":\"requires_confirmation\""));
  g_assert_null (strstr (last, "SUP-1"));
}

/* The trusted context the server's policies get is the demo's own code's:
 * for the support application, the session's id, the authenticated
 * subject as the customer and the configured capabilities. */
static void
test_support_context (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDemo) granted = akc_demo_new_full ("support", NULL,
                                                  (const char * const []) { "support.ticket.create", NULL }, NULL,
                                                  &error);
  g_autoptr(AkcDemo) none = akc_demo_new_full ("support", NULL, (const char * const []) { NULL }, NULL, &error);
  g_autoptr(AkcDemo) rag = akc_demo_new ("rag", &error);
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  g_autoptr(AkcCapabilityPolicy) refused = NULL;
  g_autoptr(AkcJsonValue) context = NULL;
  AkcPolicyReason reason = AKC_POLICY_REASON_ALLOWED;

  g_assert_no_error (error);
  context = akc_demo_dup_host_context (granted, "support-7", "user-1");
  g_assert_nonnull (context);
  {
    g_autofree char *text = akc_json_value_to_canonical (context, NULL);

    g_assert_cmpstr (text, ==, "{\"sessionId\":\"support-7\",\"customerId\":\"user-1\","
                               "\"capabilities\":[\"support.ticket.create\"]}");
  }
  policy = akc_demo_new_policy (granted, "support-7", "user-1", &error);
  g_assert_no_error (error);
  g_assert_true (akc_capability_policy_authorize_tool_call (policy, "call-1", "create-support-ticket",
                                                            AKC_TOOL_PHASE_EXECUTE, &reason));
  refused = akc_demo_new_policy (none, "support-7", "user-1", &error);
  g_assert_no_error (error);
  g_assert_false (akc_capability_policy_authorize_tool_call (refused, "call-1", "create-support-ticket",
                                                             AKC_TOOL_PHASE_EXECUTE, &reason));
  g_assert_cmpint (reason, ==, AKC_POLICY_REASON_MISSING_CAPABILITY);
  /* the rag application has no actions, so no policy */
  g_assert_null (akc_demo_new_policy (rag, "rag-1", "user-1", &error));
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_unsetenv ("AKC_TEST_UNSET_KEY");
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/server/provider/chat", Fixture, NULL, fixture_set_up, test_chat, fixture_tear_down);
  g_test_add ("/server/provider/ask", Fixture, NULL, fixture_set_up, test_ask, fixture_tear_down);
  g_test_add ("/server/provider/ask-too-long", Fixture, NULL, fixture_set_up, test_ask_too_long, fixture_tear_down);
  g_test_add ("/server/provider/invalid", Fixture, NULL, fixture_set_up, test_invalid, fixture_tear_down);
  g_test_add ("/server/provider/reference-model", Fixture, NULL, fixture_set_up, test_reference_model,
              fixture_tear_down);
  g_test_add_func ("/server/provider/support-context", test_support_context);
  return g_test_run ();
}

/* test-devtools-wire.c: the wire events of a traced conversation are what
 * went over the wire (issue 19)
 *
 * SPDX-License-Identifier: MIT
 *
 * A chat on the Ask adapter or a provider adapter, wrapped by
 * akc_trace_capture_wrap_adapter(), and a turn client watched by
 * akc_trace_capture_watch_turn_client(), each against a loopback server
 * (akc-test-http-server.c, akc-turn-test-server.c): the capture's wire
 * events are the request body as sent and each event of the answer as
 * received, redacted (no token, API key, session id, nor any message
 * text of a request or of the person), and a turn server's diagnostic
 * lines are among them.
 */

#include "config.h"

#include <string.h>

#include "akc.h"
#include "akc-test-http-server.h"
#include "akc-turn-test-server.h"
#include "akc-test.h"

#define SECRET_QUESTION "my secret question"
#define SYSTEM_PROMPT   "the host's hidden prompt"
#define TOKEN           "tok-very-private"
#define SESSION         "desk-42"

static AkcJsonValue *
event_at (GPtrArray *events,
          guint      index_)
{
  g_assert_cmpuint (index_, <, events->len);
  return akc_json_value_get_member (g_ptr_array_index (events, index_), "event");
}

static const char *
direction_at (GPtrArray *events,
              guint      index_)
{
  return akc_test_member_string (g_ptr_array_index (events, index_), "direction");
}

/* Nothing the capture keeps holds @needle. */
static void
assert_nowhere (GPtrArray  *events,
                const char *needle)
{
  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *text = akc_json_value_to_canonical (g_ptr_array_index (events, i), NULL);

      if (strstr (text, needle) != NULL)
        g_error ("wire event %u shows “%s”: %s", i, needle, text);
    }
}

static void
wait_idle (AkcChatSource *source)
{
  WAIT_UNTIL (akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Sends @text on a chat over @adapter wrapped by @capture. */
static void
run_turn (AkcTraceCapture *capture,
          AkcAdapter      *adapter,
          const char      *source,
          const char      *text)
{
  g_autoptr(AkcAdapter) traced = akc_trace_capture_wrap_adapter (capture, adapter, source);
  g_autoptr(AkcChat) chat = g_object_new (AKC_TYPE_CHAT, "adapter", traced,
                                          "system-prompt", SYSTEM_PROMPT, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), text, &error));
  g_assert_no_error (error);
  wait_idle (AKC_CHAT_SOURCE (chat));
}

/* The Ask service: its request body as sent (messages' texts and session
 * redacted, the token never anywhere) and its NDJSON event objects as
 * received, not the chunks the adapter made of them. */
static void
test_ask (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  AkcTestResponse *response = akc_test_response_new (200, "application/x-ndjson");
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcAskAdapter) ask = NULL;
  g_autoptr(GPtrArray) events = NULL;
  GBytes *body;
  g_autofree char *endpoint = NULL;
  AkcJsonValue *request, *messages;

  akc_test_response_add_chunk (response, "{\"type\":\"text\",\"delta\":\"Hello \"}\n", -1);
  akc_test_response_add_chunk (response, "{\"type\":\"text\",\"delta\":\"there\"}\n", -1);
  akc_test_response_add_chunk (response, "{\"type\":\"done\",\"model\":\"ask-1\"}\n", -1);
  akc_test_http_server_set_response (server, response);
  endpoint = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1/ask", NULL);
  ask = akc_ask_adapter_new (endpoint);
  akc_ask_adapter_set_bearer_token (ask, TOKEN);

  run_turn (capture, AKC_ADAPTER (ask), "ask", SECRET_QUESTION);

  /* The server did get the text: the capture does not show it. */
  body = akc_test_http_server_get_body (server);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (body, NULL), g_bytes_get_size (body), SECRET_QUESTION));

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 4);
  for (guint i = 0; i < events->len; i++)
    g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, i), "source"), ==, "ask");

  g_assert_cmpstr (direction_at (events, 0), ==, "sent");
  request = event_at (events, 0);
  g_assert_cmpstr (akc_test_member_string (request, "protocol"), ==, "agentskit.chat.ask");
  messages = akc_json_value_get_member (request, "messages");
  g_assert_nonnull (messages);
  g_assert_cmpuint (akc_json_value_get_length (messages), >=, 1);
  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *message = akc_json_value_get_element (messages, i);

      g_assert_nonnull (akc_test_member_string (message, "role"));
      g_assert_cmpstr (akc_test_member_string (message, "content"), ==, "[REDACTED]");
    }

  g_assert_cmpstr (direction_at (events, 1), ==, "received");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 1), "type"), ==, "text");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 1), "delta"), ==, "Hello ");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 2), "delta"), ==, "there");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 3), "type"), ==, "done");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 3), "model"), ==, "ask-1");

  assert_nowhere (events, SECRET_QUESTION);
  assert_nowhere (events, TOKEN);
  assert_nowhere (events, SYSTEM_PROMPT);

  /* The turn is still traced. */
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), ==, 1);

  g_clear_object (&ask);
  akc_test_http_server_free (server);
}

/* Behind a layer that answers through a stream of its own (the
 * deterministic answer plane escalating a question it cannot answer to
 * the Ask service): the wire events are still the Ask service's. */
static void
test_ask_behind_layer (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  AkcTestResponse *response = akc_test_response_new (200, "application/x-ndjson");
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcAskAdapter) ask = NULL;
  g_autoptr(AkcJsonValue) artifact = akc_test_parse_json ("{}");
  g_autoptr(AkcDeterministicAdapter) layer = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *endpoint = NULL;

  akc_test_response_add_chunk (response, "{\"type\":\"text\",\"delta\":\"From Ask\"}\n", -1);
  akc_test_response_add_chunk (response, "{\"type\":\"done\"}\n", -1);
  akc_test_http_server_set_response (server, response);
  endpoint = g_strconcat (akc_test_http_server_get_base_uri (server), "/v1/ask", NULL);
  ask = akc_ask_adapter_new (endpoint);
  /* An artifact that does not verify: every question escalates. */
  layer = akc_deterministic_adapter_new (artifact, "sha256:0", "site", AKC_DETERMINISTIC_FALLBACK_BACKEND,
                                         AKC_ADAPTER (ask));

  run_turn (capture, AKC_ADAPTER (layer), "ask", SECRET_QUESTION);

  g_assert_cmpuint (akc_test_http_server_get_n_requests (server), ==, 1);
  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpstr (direction_at (events, 0), ==, "sent");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 0), "protocol"), ==, "agentskit.chat.ask");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 1), "delta"), ==, "From Ask");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 2), "type"), ==, "done");
  assert_nowhere (events, SECRET_QUESTION);

  g_clear_object (&layer);
  g_clear_object (&ask);
  akc_test_http_server_free (server);
}

static AkcProviderAdapter *
provider_for (AkcTestHttpServer *server,
              AkcProviderKind    kind)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_strconcat (akc_test_http_server_get_base_uri (server),
                                       kind == AKC_PROVIDER_KIND_OLLAMA ? "" : "/v1", NULL);
  AkcProviderAdapter *provider = akc_provider_adapter_new (kind, base, "test-model", &error);

  g_assert_no_error (error);
  akc_provider_adapter_set_api_key (provider, TOKEN);
  return provider;
}

/* An OpenAI-compatible provider: the request body as sent (model and
 * roles, every text redacted) and the JSON of each SSE `data:` as
 * received, `[DONE]` too. */
static void
test_provider_sse (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  AkcTestResponse *response = akc_test_response_new (200, "text/event-stream");
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcProviderAdapter) provider = provider_for (server, AKC_PROVIDER_KIND_OPENAI);
  g_autoptr(GPtrArray) events = NULL;
  AkcJsonValue *request, *messages, *choices;
  gboolean saw_user = FALSE, saw_system = FALSE;

  akc_test_response_add_chunk (response, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
                                         "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n", -1);
  akc_test_response_add_chunk (response, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
                                         "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n", -1);
  akc_test_response_add_chunk (response, "data: [DONE]\n\n", -1);
  akc_test_http_server_set_response (server, response);

  run_turn (capture, AKC_ADAPTER (provider), "provider", SECRET_QUESTION);

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 4);

  g_assert_cmpstr (direction_at (events, 0), ==, "sent");
  request = event_at (events, 0);
  g_assert_cmpstr (akc_test_member_string (request, "model"), ==, "test-model");
  messages = akc_json_value_get_member (request, "messages");
  g_assert_nonnull (messages);
  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *message = akc_json_value_get_element (messages, i);

      saw_user |= g_strcmp0 (akc_test_member_string (message, "role"), "user") == 0;
      saw_system |= g_strcmp0 (akc_test_member_string (message, "role"), "system") == 0;
      if (akc_json_value_get_member (message, "content") != NULL)
        g_assert_cmpstr (akc_test_member_string (message, "content"), ==, "[REDACTED]");
    }
  g_assert_true (saw_user);
  g_assert_true (saw_system);

  g_assert_cmpstr (direction_at (events, 1), ==, "received");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 1), "object"), ==, "chat.completion.chunk");
  choices = akc_json_value_get_member (event_at (events, 1), "choices");
  /* What the provider sent back is shown: the reply's text. */
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_member (akc_json_value_get_element (choices, 0), "delta"),
                                  "content"), ==, "Hi");
  g_assert_cmpstr (direction_at (events, 3), ==, "received");
  g_assert_cmpint (akc_json_value_get_kind (event_at (events, 3)), ==, AKC_JSON_KIND_STRING);
  g_assert_cmpstr (akc_json_value_get_string (event_at (events, 3), NULL), ==, "[DONE]");

  assert_nowhere (events, SECRET_QUESTION);
  assert_nowhere (events, SYSTEM_PROMPT);
  assert_nowhere (events, TOKEN);

  g_clear_object (&provider);
  akc_test_http_server_free (server);
}

/* Ollama's native API: each NDJSON line as received. */
static void
test_provider_ndjson (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  AkcTestResponse *response = akc_test_response_new (200, "application/x-ndjson");
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcProviderAdapter) provider = provider_for (server, AKC_PROVIDER_KIND_OLLAMA);
  g_autoptr(GPtrArray) events = NULL;

  akc_test_response_add_chunk (response, "{\"model\":\"test-model\",\"message\":{\"role\":\"assistant\",\"content\":\"Hey\"},\"done\":false}\n", -1);
  akc_test_response_add_chunk (response, "{\"model\":\"test-model\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},"
                                         "\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":1}\n", -1);
  akc_test_http_server_set_response (server, response);

  run_turn (capture, AKC_ADAPTER (provider), "provider", SECRET_QUESTION);

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpstr (direction_at (events, 0), ==, "sent");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 0), "model"), ==, "test-model");
  g_assert_cmpstr (direction_at (events, 1), ==, "received");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_member (event_at (events, 1), "message"), "content"), ==, "Hey");
  g_assert_true (akc_json_value_get_boolean (akc_json_value_get_member (event_at (events, 2), "done")));
  assert_nowhere (events, SECRET_QUESTION);
  assert_nowhere (events, SYSTEM_PROMPT);

  g_clear_object (&provider);
  akc_test_http_server_free (server);
}

/* A failed request: its status and body as received. */
static void
test_provider_error (void)
{
  AkcTestHttpServer *server = akc_test_http_server_new ();
  AkcTestResponse *response = akc_test_response_new (401, "application/json");
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcProviderAdapter) provider = provider_for (server, AKC_PROVIDER_KIND_OPENAI);
  g_autoptr(GPtrArray) events = NULL;
  AkcJsonValue *received;

  akc_test_response_add_chunk (response, "{\"error\":{\"message\":\"Incorrect API key\",\"type\":\"invalid_request_error\"}}", -1);
  akc_test_http_server_set_response (server, response);

  run_turn (capture, AKC_ADAPTER (provider), "provider", SECRET_QUESTION);

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 2);
  g_assert_cmpstr (direction_at (events, 1), ==, "received");
  received = event_at (events, 1);
  g_assert_cmpint (akc_json_value_get_number (akc_json_value_get_member (received, "status")), ==, 401);
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_member (akc_json_value_get_member (received, "body"), "error"),
                                  "message"), ==, "Incorrect API key");
  assert_nowhere (events, TOKEN);

  g_clear_object (&provider);
  akc_test_http_server_free (server);
}

static char *
turn_line (guint       sequence,
           const char *event,
           const char *payload)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e%u\","
                          "\"sessionId\":\"" SESSION "\",\"turnId\":\"t1\",\"sequence\":%u,"
                          "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"%s\",\"payload\":%s}\n",
                          sequence, sequence, event, payload);
}

/* The turn server: its snapshots and its diagnostic lines as received,
 * the person's messages redacted, the session never shown. */
static void
test_turn_diagnostic (void)
{
  g_autoptr(AkcTurnTestServer) server = akc_turn_test_server_new ();
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcTurnClient) client = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  AkcJsonValue *messages, *payload;

  client = akc_turn_client_new (akc_turn_test_server_get_url (server), SESSION, &error);
  g_assert_no_error (error);
  akc_turn_client_set_token (client, TOKEN);
  akc_trace_capture_watch_turn_client (capture, client);

  akc_turn_test_server_respond (server, 200, "application/x-ndjson");
  line = turn_line (1, "server.turn.snapshot",
                    "{\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"" SECRET_QUESTION "\","
                    "\"status\":\"complete\",\"createdAt\":\"2026-07-11T00:00:00.000Z\"},"
                    "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"Working\",\"status\":\"streaming\","
                    "\"createdAt\":\"2026-07-11T00:00:01.000Z\"}],"
                    "\"status\":\"streaming\",\"usage\":{\"promptTokens\":1,\"completionTokens\":1,\"totalTokens\":2}}");
  akc_turn_test_server_add_chunk (server, line, -1, 0);
  g_free (line);
  line = turn_line (2, "server.turn.diagnostic",
                    "{\"version\":1,\"code\":\"ADAPTER_FAILED\",\"message\":\"The model went away.\",\"retryable\":true}");
  akc_turn_test_server_add_chunk (server, line, -1, 0);

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (client), SECRET_QUESTION, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!akc_turn_client_get_busy (client));

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 0), "type"), ==, "client.turn.submit");
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 1), "type"), ==, "server.turn.snapshot");
  messages = akc_json_value_get_member (akc_json_value_get_member (event_at (events, 1), "payload"), "messages");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (messages, 0), "content"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (messages, 1), "content"), ==, "Working");

  g_assert_cmpstr (direction_at (events, 2), ==, "received");
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 2), "type"), ==, "server.turn.diagnostic");
  payload = akc_json_value_get_member (event_at (events, 2), "payload");
  g_assert_cmpstr (akc_test_member_string (payload, "code"), ==, "ADAPTER_FAILED");
  g_assert_cmpstr (akc_test_member_string (payload, "message"), ==, "The model went away.");
  g_assert_cmpstr (akc_test_member_string (event_at (events, 2), "sessionId"), ==, "[REDACTED]");

  assert_nowhere (events, SECRET_QUESTION);
  assert_nowhere (events, SESSION);
  assert_nowhere (events, TOKEN);

  g_clear_object (&client);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* What the turn protocol carries of a server's decisions becomes records
 * under its turns: each tool call's status as it changes (never its
 * arguments), each diagnostic of the session; and the capture says the
 * routes and policy are the turn server's. */
static void
test_turn_records (void)
{
  g_autoptr(AkcTurnTestServer) server = akc_turn_test_server_new ();
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcTurnClient) client = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  const char *statuses[] = { "pending", "requires_confirmation", "requires_confirmation" };
  struct { AkcTraceCategory category; const char *member, *value; } expected[] = {
    { AKC_TRACE_CATEGORY_AGENT, "toState", "streaming" },
    { AKC_TRACE_CATEGORY_ACTION, "status", "pending" },
    { AKC_TRACE_CATEGORY_ACTION, "status", "requires_confirmation" },
    { AKC_TRACE_CATEGORY_LIFECYCLE, "code", "TOOL_REFUSED" },
  };

  client = akc_turn_client_new (akc_turn_test_server_get_url (server), SESSION, &error);
  g_assert_no_error (error);
  g_assert_null (akc_trace_capture_get_decided_by (capture));
  akc_trace_capture_watch_turn_client (capture, client);
  g_assert_cmpstr (akc_trace_capture_get_decided_by (capture), ==, "turn");

  akc_turn_test_server_respond (server, 200, "application/x-ndjson");
  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      g_autofree char *payload = g_strdup_printf ("{\"messages\":[{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"\","
                                                  "\"status\":\"streaming\",\"createdAt\":\"2026-07-11T00:00:01.000Z\","
                                                  "\"toolCalls\":[{\"id\":\"call-1\",\"name\":\"refund\","
                                                  "\"args\":{\"amount\":\"secret-amount\"},\"status\":\"%s\"}]}],"
                                                  "\"status\":\"streaming\",\"usage\":{\"promptTokens\":1,"
                                                  "\"completionTokens\":1,\"totalTokens\":2}}", statuses[i]);
      g_autofree char *line = turn_line (i + 1, "server.turn.snapshot", payload);

      akc_turn_test_server_add_chunk (server, line, -1, 0);
    }
  {
    g_autofree char *line = turn_line (9, "server.turn.diagnostic",
                                       "{\"version\":1,\"code\":\"TOOL_REFUSED\",\"message\":\"Not allowed.\",\"retryable\":false}");

    akc_turn_test_server_add_chunk (server, line, -1, 0);
  }

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (client), "refund me", &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!akc_turn_client_get_busy (client));

  records = akc_trace_capture_snapshot (capture);
  g_assert_cmpuint (records->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < records->len; i++)
    {
      AkcTraceRecord *record = g_ptr_array_index (records, i);
      g_autofree char *text = akc_json_value_to_canonical (akc_trace_record_get_detail (record), NULL);

      g_assert_cmpint (akc_trace_record_get_category (record), ==, expected[i].category);
      g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (record), expected[i].member), ==, expected[i].value);
      g_assert_null (strstr (text, "secret-amount"));
      if (i > 0)
        g_assert_cmpstr (akc_trace_record_get_parent_id (record), ==, "trace-0");
    }
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 1)), "action"), ==, "refund");
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 1)), "toolCallId"), ==, "call-1");
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 3)), "event"), ==,
                   "server.turn.diagnostic");
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 3)), "message"), ==,
                   "Not allowed.");

  g_clear_object (&client);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Each event is bounded: a long string is cut (and says how long it
 * was), a request's texts are redacted however they are nested. */
static void
test_bounds_and_sent_texts (void)
{
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autofree char *long_text = g_strnfill (10000, 'y');
  g_autofree char *json = g_strdup_printf ("{\"type\":\"text\",\"delta\":\"%s\"}", long_text);
  g_autoptr(AkcJsonValue) received = akc_test_parse_json (json);
  g_autoptr(AkcJsonValue) request = akc_test_parse_json ("{\"model\":\"m\",\"system\":[{\"type\":\"text\",\"text\":\"sys\"}],"
                                           "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"typed\"},"
                                           "{\"type\":\"image\",\"source\":{\"data\":\"aW1n\"}}]},"
                                           "{\"role\":\"user\",\"content\":\"hi\",\"images\":[\"aW1n\"]}],"
                                           "\"tools\":[{\"name\":\"lookup\"}]}");
  g_autoptr(AkcJsonValue) kept = NULL;
  g_autoptr(AkcJsonValue) kept_request = NULL;
  g_autofree char *text = NULL;
  const char *delta;
  AkcJsonValue *event;

  kept = akc_trace_capture_add_wire_event (capture, "ask", "received", received);
  delta = akc_test_member_string (akc_json_value_get_member (kept, "event"), "delta");
  g_assert_nonnull (delta);
  g_assert_cmpuint (strlen (delta), <, 4200);
  g_assert_true (g_str_has_prefix (delta, "yyyy"));
  g_assert_true (g_str_has_suffix (delta, "… [10000 bytes]"));

  kept_request = akc_trace_capture_add_wire_event (capture, "provider", "sent", request);
  event = akc_json_value_get_member (kept_request, "event");
  g_assert_cmpstr (akc_test_member_string (event, "model"), ==, "m");
  g_assert_cmpstr (akc_test_member_string (event, "system"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (akc_json_value_get_member (event, "messages"), 0),
                                  "content"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (akc_json_value_get_member (event, "messages"), 1),
                                  "images"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (akc_json_value_get_member (event, "tools"), 0),
                                  "name"), ==, "lookup");
  text = akc_json_value_to_canonical (kept_request, NULL);
  g_assert_null (strstr (text, "typed"));
  g_assert_null (strstr (text, "sys\""));
  g_assert_null (strstr (text, "aW1n"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/devtools/wire/ask", test_ask);
  g_test_add_func ("/devtools/wire/ask-behind-layer", test_ask_behind_layer);
  g_test_add_func ("/devtools/wire/provider-sse", test_provider_sse);
  g_test_add_func ("/devtools/wire/provider-ndjson", test_provider_ndjson);
  g_test_add_func ("/devtools/wire/provider-error", test_provider_error);
  g_test_add_func ("/devtools/wire/turn-diagnostic", test_turn_diagnostic);
  g_test_add_func ("/devtools/wire/turn-records", test_turn_records);
  g_test_add_func ("/devtools/wire/bounds-and-sent-texts", test_bounds_and_sent_texts);

  return g_test_run ();
}

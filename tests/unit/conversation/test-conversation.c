/* test-conversation.c: deterministic routes and the conversation state
 * machine (application.md §3)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every `conversation` vector of application/routes.json, dispatched
 * through AkcSession as an adapter, and every `controllerLifecycle` vector
 * through a real AkcChat; plus the stream abort rules and the API checks
 * the vectors do not reach.
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-test.h"

#define FIXTURES "application/routes.json"

static void
assert_config_error (const GError *error,
                     AkcJsonValue *expected)
{
  const char *message = akc_json_value_get_string (akc_json_value_get_member (expected, "message"), NULL);

  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (expected, "code"), NULL), ==,
                   "AK_CONFIG_INVALID");
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  if (akc_test_message_is_normative (message))
    g_assert_cmpstr (error->message, ==, message);
}

static void
run_conversation (const AkcFixtureCase *fc,
                  gconstpointer         user_data)
{
  AkcJsonValue *input = fc->input;
  AkcJsonValue *expected_error = akc_fixture_expect (fc, "error");
  AkcJsonValue *steps = akc_json_value_get_member (input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  g_autoptr(AkcTestUpstream) upstream = akc_test_upstream_new ();
  g_autoptr(AkcDefinition) definition = NULL;
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) initial = NULL;
  g_autoptr(GError) error = NULL;
  const char *session_id = akc_json_value_get_string (akc_json_value_get_member (input, "sessionId"), NULL);

  definition = akc_test_definition_new (akc_json_value_get_member (input, "definition"),
                                        AKC_ADAPTER (upstream), &error);
  if (definition != NULL)
    session = akc_session_new (definition, session_id, &error);

  if (expected_error != NULL)
    {
      g_assert_null (session);
      assert_config_error (error, expected_error);
      return;
    }

  g_assert_no_error (error);
  g_assert_cmpstr (akc_session_get_id (session), ==, session_id);
  akc_test_collect_traces (session, traces);

  initial = akc_session_get_conversation_snapshot (session);
  akc_assert_json_equal (initial, akc_fixture_expect (fc, "initial"));

  g_assert_cmpuint (akc_json_value_get_length (steps), ==, akc_json_value_get_length (expected_steps));
  for (gsize i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *expected = akc_json_value_get_element (expected_steps, i);
      AkcJsonValue *dispatch = akc_json_value_get_member (step, "dispatch");
      g_autoptr(GListModel) messages = akc_test_messages_new (akc_json_value_get_member (dispatch, "messages"));
      g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
      g_autoptr(AkcJsonValue) chunks = NULL;
      g_autoptr(AkcJsonValue) snapshot = NULL;
      g_autoptr(AkcJsonValue) step_traces = NULL;
      guint calls_before = akc_test_upstream_get_n_calls (upstream);
      const char *result;

      g_ptr_array_set_size (traces, 0);
      chunks = akc_test_run_stream (AKC_ADAPTER (session), request);

      if (akc_test_upstream_get_n_calls (upstream) > calls_before)
        {
          result = "delegated";
          /* §4.6: the model is called with the session's id */
          g_assert_cmpstr (akc_test_upstream_get_session_id (upstream), ==, session_id);
        }
      else if (akc_json_value_get_length (chunks) == 1)
        result = "error";
      else
        result = "deterministic";

      g_assert_cmpstr (result, ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected, "result"), NULL));
      akc_assert_json_equal (chunks, akc_json_value_get_member (expected, "chunks"));
      snapshot = akc_session_get_conversation_snapshot (session);
      akc_assert_json_equal (snapshot, akc_json_value_get_member (expected, "snapshot"));
      step_traces = akc_test_take_array (traces);
      akc_assert_json_equal (step_traces, akc_json_value_get_member (expected, "traces"));

      /* without storage every dispatch still advances the cursor */
      akc_test_wait_persisted (session);
    }

  g_signal_handlers_disconnect_by_data (session, traces);
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* ------------------------------------------------------------------ */
/* §3.6 through the controller                                         */
/* ------------------------------------------------------------------ */

static const char *
last_user_id (AkcChat *chat)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) m = g_list_model_get_item (messages, i - 1);

      if (akc_message_get_role (m) == AKC_MESSAGE_ROLE_USER)
        return akc_message_get_id (m);
    }

  g_assert_not_reached ();
}

static AkcJsonValue *
transcript (AkcChat *chat)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) m = g_list_model_get_item (messages, i);

      g_ptr_array_add (items, akc_test_object ("role", akc_test_str (akc_message_get_role (m) == AKC_MESSAGE_ROLE_USER
                                                                     ? "user" : "assistant"),
                                               "content", akc_test_str (akc_message_get_content (m)),
                                               NULL));
    }

  return akc_test_take_array (items);
}

static void
run_lifecycle (const AkcFixtureCase *fc,
               gconstpointer         user_data)
{
  AkcJsonValue *steps = akc_json_value_get_member (fc->input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  g_autoptr(AkcTestUpstream) upstream = akc_test_upstream_new ();
  g_autoptr(AkcDefinition) definition = NULL;
  g_autoptr(AkcSession) session = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GError) error = NULL;

  definition = akc_test_definition_new (akc_json_value_get_member (fc->input, "definition"),
                                        AKC_ADAPTER (upstream), &error);
  g_assert_no_error (error);
  session = akc_session_new (definition,
                             akc_json_value_get_string (akc_json_value_get_member (fc->input, "sessionId"), NULL),
                             &error);
  g_assert_no_error (error);
  akc_test_collect_traces (session, traces);
  chat = akc_session_create_chat (session);
  g_assert_cmpstr (akc_chat_get_session_id (chat), ==, akc_session_get_id (session));

  for (gsize i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *expected = akc_json_value_get_element (expected_steps, i);
      AkcJsonValue *v;
      g_autoptr(AkcJsonValue) actual_transcript = NULL;
      g_autoptr(GPtrArray) kinds = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
      g_autoptr(AkcJsonValue) actual_kinds = NULL;
      gboolean ok;

      if ((v = akc_json_value_get_member (step, "send")) != NULL)
        ok = akc_chat_source_send (AKC_CHAT_SOURCE (chat), akc_json_value_get_string (v, NULL), &error);
      else if (akc_json_value_get_member (step, "retry") != NULL)
        ok = akc_chat_source_retry (AKC_CHAT_SOURCE (chat), &error);
      else if (akc_json_value_get_member (step, "regenerate") != NULL)
        ok = akc_chat_source_regenerate (AKC_CHAT_SOURCE (chat), NULL, &error);
      else
        {
          g_autofree char *id = g_strdup (last_user_id (chat));

          v = akc_json_value_get_member (step, "editLastUser");
          ok = akc_chat_source_edit (AKC_CHAT_SOURCE (chat), id, akc_json_value_get_string (v, NULL), &error);
        }
      g_assert_no_error (error);
      g_assert_true (ok);
      wait_until_idle (AKC_CHAT_SOURCE (chat));
      akc_test_wait_persisted (session);

      actual_transcript = transcript (chat);
      akc_assert_json_equal (actual_transcript, akc_json_value_get_member (expected, "transcript"));
      g_assert_cmpstr (akc_session_get_state (session), ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected, "state"), NULL));
      g_assert_cmpuint (akc_test_upstream_get_n_calls (upstream), ==,
                        (guint) akc_json_value_get_number (akc_json_value_get_member (expected, "agentCalls")));

      for (guint j = 0; j < traces->len; j++)
        g_ptr_array_add (kinds, akc_json_value_ref (akc_json_value_get_member (g_ptr_array_index (traces, j), "kind")));
      actual_kinds = akc_test_take_array (kinds);
      akc_assert_json_equal (actual_kinds, akc_json_value_get_member (expected, "traceKinds"));
    }

  g_signal_handlers_disconnect_by_data (session, traces);
  g_assert_finalize_object (g_steal_pointer (&chat));
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* ------------------------------------------------------------------ */
/* Beyond the vectors                                                  */
/* ------------------------------------------------------------------ */

static AkcDefinition *
start_definition (AkcAdapter *upstream)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) data = NULL;
  AkcDefinition *definition;

  data = akc_json_value_parse ("{\"id\":\"d\",\"conversation\":{\"initial\":\"idle\","
                               "\"states\":{\"idle\":{\"on\":{\"start\":\"done\"}},\"done\":{}},"
                               "\"routes\":[{\"id\":\"start\",\"command\":\"/start\",\"event\":\"start\","
                               "\"response\":{\"text\":\"Started\"}}]}}", -1, &error);
  g_assert_no_error (error);
  definition = akc_test_definition_new (data, upstream, &error);
  g_assert_no_error (error);
  return definition;
}

static void
on_chunk_cancel (AkcStream *stream,
                 AkcChunk  *chunk,
                 gpointer   user_data)
{
  guint *n = user_data;

  (*n)++;
  if (akc_chunk_get_kind (chunk) == AKC_CHUNK_TEXT)
    akc_stream_cancel (stream);
}

/* §3.4 Streams: stopped before it is read, the deterministic stream yields
 * nothing; stopped after the text, it yields no done. The turn is decided
 * either way. */
static void
test_abort (void)
{
  g_autoptr(AkcDefinition) definition = start_definition (NULL);
  g_autoptr(AkcSession) session = akc_session_new (definition, "s", NULL);
  g_autoptr(AkcJsonValue) messages_data = akc_json_value_parse ("[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"/start\"}]", -1, NULL);
  g_autoptr(GListModel) messages = akc_test_messages_new (messages_data);
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, NULL, NULL, NULL);
  g_autoptr(AkcStream) first = akc_stream_new ();
  g_autoptr(AkcStream) second = akc_stream_new ();
  guint n_first = 0, n_second = 0;

  g_signal_connect (first, "chunk", G_CALLBACK (on_chunk_cancel), &n_first);
  akc_adapter_stream (AKC_ADAPTER (session), request, first);
  akc_stream_cancel (first);
  g_assert_cmpstr (akc_session_get_state (session), ==, "done");

  g_signal_connect (second, "chunk", G_CALLBACK (on_chunk_cancel), &n_second);
  akc_adapter_stream (AKC_ADAPTER (session), request, second);
  WAIT_UNTIL (!(g_main_context_pending (NULL) || akc_session_get_persisting (session)));

  g_assert_cmpuint (n_first, ==, 0);
  g_assert_cmpuint (n_second, ==, 1);
  g_assert_cmpint (akc_session_get_cursor (session), ==, 2);
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* §3.3: the default session id is «definition id»:«now in base 36». */
static void
test_default_id (void)
{
  g_autoptr(AkcDefinition) definition = start_definition (NULL);
  g_autoptr(AkcSession) session = akc_session_new (definition, NULL, NULL);
  const char *id = akc_session_get_id (session);

  g_assert_true (g_str_has_prefix (id, "d:"));
  g_assert_cmpuint (strspn (id + 2, "0123456789abcdefghijklmnopqrstuvwxyz"), ==, strlen (id + 2));
  g_assert_cmpuint (strlen (id + 2), >=, 8);
  g_assert_finalize_object (g_steal_pointer (&session));
}

/* A definition without conversation only scopes the model by session. */
static void
test_no_conversation (void)
{
  g_autoptr(AkcTestUpstream) upstream = akc_test_upstream_new ();
  g_autoptr(AkcDefinition) definition = akc_definition_new ("plain", AKC_ADAPTER (upstream));
  g_autoptr(AkcSession) session = akc_session_new (definition, "plain-1", NULL);
  g_autoptr(AkcJsonValue) messages_data = akc_json_value_parse ("[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\"}]", -1, NULL);
  g_autoptr(GListModel) messages = akc_test_messages_new (messages_data);
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, "other", NULL, NULL);
  g_autoptr(AkcJsonValue) chunks = NULL;

  g_assert_null (akc_session_get_conversation_snapshot (session));
  g_assert_null (akc_session_get_state (session));
  chunks = akc_test_run_stream (AKC_ADAPTER (session), request);
  g_assert_cmpuint (akc_json_value_get_length (chunks), ==, 2);
  g_assert_cmpstr (akc_test_upstream_get_session_id (upstream), ==, "plain-1");

  /* the session declares what its upstream declares */
  {
    g_autoptr(AkcJsonValue) declared = akc_adapter_get_capabilities (AKC_ADAPTER (session));
    g_autoptr(AkcJsonValue) expected = akc_json_value_parse ("{\"streaming\":true}", -1, NULL);

    akc_assert_json_equal (declared, expected);
  }

  /* updateChat never wraps the session in itself */
  akc_session_set_upstream (session, AKC_ADAPTER (session));
  g_assert_true (akc_session_get_upstream (session) == AKC_ADAPTER (upstream));
  akc_session_set_upstream (session, NULL);
  g_assert_null (akc_adapter_get_capabilities (AKC_ADAPTER (session)));
  g_assert_finalize_object (g_steal_pointer (&session));
}

int
main (int   argc,
      char *argv[])
{
  guint n;

  g_test_init (&argc, &argv, NULL);

  n = akc_fixture_add_tests (FIXTURES, "/conversation/routes", "conversation", run_conversation, NULL);
  g_assert_cmpuint (n, ==, 27);
  n = akc_fixture_add_tests (FIXTURES, "/conversation/lifecycle", "controllerLifecycle", run_lifecycle, NULL);
  g_assert_cmpuint (n, ==, 4);

  g_test_add_func ("/conversation/abort", test_abort);
  g_test_add_func ("/conversation/default-id", test_default_id);
  g_test_add_func ("/conversation/no-conversation", test_no_conversation);

  return g_test_run ();
}

/* test-reference-scripts.c: the offline demos against the transcripts of
 * application/reference-scripts.json (application.md §13)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-fixture.h"
#include "akc-demo.h"
#include "akc-test.h"

#define FIXTURE "application/reference-scripts.json"

/* The reference scripts run the support demo without its capability and the
 * operations demo as an operator without any (§13.2, §13.4); the case names
 * say which. */
static AkcDemo *
demo_for_case (const AkcFixtureCase *fc,
               const char           *application)
{
  const char * const none[] = { NULL };
  g_autoptr(GError) error = NULL;
  AkcDemo *demo;

  if (strstr (fc->name, "missing capability") != NULL || strstr (fc->name, "unauthorized") != NULL)
    demo = akc_demo_new_with_capabilities (application, none, &error);
  else
    demo = akc_demo_new (application, &error);
  g_assert_no_error (error);
  akc_demo_set_reply_interval (demo, 0);

  return demo;
}

static const char *
status_name (AkcChatStatus status)
{
  switch (status)
    {
    case AKC_CHAT_STATUS_IDLE:
      return "idle";
    case AKC_CHAT_STATUS_STREAMING:
      return "streaming";
    case AKC_CHAT_STATUS_ERROR:
    default:
      return "error";
    }
}

static const char *
role_name (AkcMessageRole role)
{
  switch (role)
    {
    case AKC_MESSAGE_ROLE_SYSTEM:
      return "system";
    case AKC_MESSAGE_ROLE_USER:
      return "user";
    case AKC_MESSAGE_ROLE_ASSISTANT:
      return "assistant";
    case AKC_MESSAGE_ROLE_TOOL:
    default:
      return "tool";
    }
}

static const char *
message_status_name (AkcMessageStatus status)
{
  switch (status)
    {
    case AKC_MESSAGE_STATUS_PENDING:
      return "pending";
    case AKC_MESSAGE_STATUS_STREAMING:
      return "streaming";
    case AKC_MESSAGE_STATUS_COMPLETE:
      return "complete";
    case AKC_MESSAGE_STATUS_ERROR:
    default:
      return "error";
    }
}

/* The fixtures write controller-made message ids as {message:N}, N the
 * message's index in the final transcript. */
static char *
normalise_ids (GListModel *messages,
               const char *text)
{
  g_autofree char *result = g_strdup (text);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      const char *id = akc_message_get_id (message);
      g_autofree char *placeholder = g_strdup_printf ("{message:%u}", i);
      g_auto(GStrv) parts = NULL;

      if (id == NULL || id[0] == '\0' || strstr (result, id) == NULL)
        continue;
      parts = g_strsplit (result, id, -1);
      g_free (result);
      result = g_strjoinv (placeholder, parts);
    }

  return g_steal_pointer (&result);
}

static const char *
error_code (const GError *error)
{
  if (error->domain == AKC_ERROR)
    switch (error->code)
      {
      case AKC_ERROR_CONFIG_INVALID:
        return "AK_CONFIG_INVALID";
      case AKC_ERROR_TOOL_NOT_FOUND:
        return "AK_TOOL_NOT_FOUND";
      case AKC_ERROR_TOOL_INVALID_INPUT:
        return "AK_TOOL_INVALID_INPUT";
      case AKC_ERROR_TOOL_FORBIDDEN:
        return "AK_TOOL_FORBIDDEN";
      default:
        break;
      }
  return g_quark_to_string (error->domain);
}

static const char *
tool_call_status_name (AkcToolCallStatus status)
{
  return akc_tool_call_status_to_string (status);
}

/* The frame of the latest assistant message that holds one with @key. */
static AkcJsonValue *
latest_frame (AkcChat    *chat,
              const char *key)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      g_autoptr(AkcJsonValue) frame = NULL;

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT)
        continue;
      frame = akc_component_frame_decode (akc_message_get_content (message), -1, NULL);
      if (frame != NULL &&
          g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (frame, "componentKey"), NULL), key) == 0)
        return g_steal_pointer (&frame);
    }

  return NULL;
}

/* Proposes an action as a choice's action would; returns the record, or
 * NULL with @error set. */
static AkcConfirmationRecord *
propose (AkcDemo       *demo,
         AkcJsonValue  *step,
         GError       **error)
{
  AkcActionConfirmation *confirmation = akc_demo_get_confirmation (demo);
  g_autoptr(GAsyncResult) result = NULL;

  akc_action_confirmation_propose_async (confirmation,
                                         akc_json_value_get_string (akc_json_value_get_member (step, "name"), NULL),
                                         akc_json_value_get_member (step, "input"),
                                         NULL, akc_test_store_result, &result);
  return akc_action_confirmation_propose_finish (confirmation, akc_test_wait (&result), error);
}

static AkcConfirmationRecord *
approve (AkcDemo               *demo,
         AkcConfirmationRecord *record,
         GError               **error)
{
  AkcActionConfirmation *confirmation = akc_demo_get_confirmation (demo);
  g_autoptr(GAsyncResult) result = NULL;

  akc_action_confirmation_approve_async (confirmation,
                                         akc_confirmation_record_get_token (record),
                                         akc_demo_get_session_id (demo),
                                         NULL, akc_test_store_result, &result);
  return akc_action_confirmation_approve_finish (confirmation, akc_test_wait (&result), error);
}

static void
check_error (AkcJsonValue *expected,
             const GError *error)
{
  AkcJsonValue *expected_error = akc_json_value_get_member (expected, "error");
  const char *code;

  g_assert_nonnull (expected_error);
  g_assert_nonnull (error);
  code = akc_json_value_get_string (akc_json_value_get_member (expected_error, "code"), NULL);
  g_assert_cmpstr (error_code (error), ==, code);
  /* The schema validator's words are informative (§5.4); the policy's
   * reason is normative. */
  if (g_strcmp0 (code, "AK_TOOL_INVALID_INPUT") != 0)
    g_assert_cmpstr (error->message, ==,
                     akc_json_value_get_string (akc_json_value_get_member (expected_error, "message"), NULL));
}

static void
check_step (AkcDemo      *demo,
            AkcJsonValue *expected,
            guint         index_)
{
  AkcChat *chat = akc_demo_get_chat (demo);
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));
  guint n = g_list_model_get_n_items (messages);
  AkcJsonValue *last = akc_json_value_get_member (expected, "lastMessage");
  AkcJsonValue *status = akc_json_value_get_member (expected, "status");
  AkcJsonValue *state = akc_json_value_get_member (expected, "state");

  if (last != NULL && akc_json_value_get_kind (last) == AKC_JSON_KIND_OBJECT)
    {
      g_autoptr(AkcMessage) message = NULL;
      g_autofree char *content = NULL;
      const char *expected_content = akc_json_value_get_string (akc_json_value_get_member (last, "content"), NULL);

      g_assert_cmpuint (n, >, 0);
      message = g_list_model_get_item (messages, n - 1);
      content = normalise_ids (messages, akc_message_get_content (message));
      if (g_strcmp0 (content, expected_content) != 0)
        g_error ("step %u: the last message is\n  %s\nnot\n  %s", index_, content, expected_content);
      g_assert_cmpstr (role_name (akc_message_get_role (message)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (last, "role"), NULL));
    }

  if (status != NULL)
    g_assert_cmpstr (status_name (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat))), ==,
                     akc_json_value_get_string (status, NULL));

  if (state != NULL && akc_json_value_get_kind (state) == AKC_JSON_KIND_NULL)
    g_assert_null (akc_demo_get_state (demo));
  else if (state != NULL)
    g_assert_cmpstr (akc_demo_get_state (demo), ==, akc_json_value_get_string (state, NULL));
}

static void
check_transcript (AkcDemo      *demo,
                  AkcJsonValue *expected)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));

  g_assert_cmpuint (g_list_model_get_n_items (messages), ==, akc_json_value_get_length (expected));
  for (guint i = 0; i < akc_json_value_get_length (expected); i++)
    {
      AkcJsonValue *entry = akc_json_value_get_element (expected, i);
      AkcJsonValue *expected_calls = akc_json_value_get_member (entry, "toolCalls");
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = akc_message_get_tool_calls (message);
      guint n_calls = calls != NULL ? g_list_model_get_n_items (calls) : 0;

      g_assert_cmpstr (role_name (akc_message_get_role (message)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (entry, "role"), NULL));
      g_assert_cmpstr (message_status_name (akc_message_get_status (message)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (entry, "status"), NULL));
      g_assert_cmpuint (n_calls, ==, expected_calls != NULL ? akc_json_value_get_length (expected_calls) : 0);
      for (guint j = 0; j < n_calls; j++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, j);
          AkcJsonValue *expected_call = akc_json_value_get_element (expected_calls, j);

          g_assert_cmpstr (akc_tool_call_get_name (call), ==,
                           akc_json_value_get_string (akc_json_value_get_member (expected_call, "name"), NULL));
          g_assert_cmpstr (tool_call_status_name (akc_tool_call_get_status (call)), ==,
                           akc_json_value_get_string (akc_json_value_get_member (expected_call, "status"), NULL));
        }
    }
}

static void
run_step (AkcDemo      *demo,
          AkcJsonValue *step,
          AkcJsonValue *expected,
          guint         index_)
{
  AkcChat *chat = akc_demo_get_chat (demo);
  AkcJsonValue *member;
  g_autoptr(GError) error = NULL;

  if ((member = akc_json_value_get_member (step, "send")) != NULL)
    {
      g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), akc_json_value_get_string (member, NULL), &error));
      g_assert_no_error (error);
    }
  else if ((member = akc_json_value_get_member (step, "propose")) != NULL)
    {
      g_autoptr(AkcConfirmationRecord) record = propose (demo, member, &error);

      if (akc_json_value_get_member (expected, "result") != NULL &&
          akc_json_value_get_member (akc_json_value_get_member (expected, "result"), "error") != NULL)
        {
          g_assert_null (record);
          check_error (akc_json_value_get_member (expected, "result"), error);
        }
      else
        g_assert_no_error (error);
    }
  else if ((member = akc_json_value_get_member (step, "proposeAndApprove")) != NULL)
    {
      g_autoptr(AkcConfirmationRecord) record = propose (demo, member, &error);
      g_autoptr(AkcConfirmationRecord) approved = NULL;
      AkcToolCall *call;
      AkcJsonValue *result = akc_json_value_get_member (expected, "result");
      AkcJsonValue *expected_call = akc_json_value_get_member (result, "toolCall");

      g_assert_no_error (error);
      approved = approve (demo, record, &error);
      g_assert_no_error (error);
      wait_until_idle (AKC_CHAT_SOURCE (chat));
      g_assert_cmpstr (akc_confirmation_status_to_string (akc_confirmation_record_get_status (approved)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (result, "status"), NULL));
      call = akc_test_find_tool_call (AKC_CHAT_SOURCE (chat), akc_confirmation_record_get_tool_call_id (approved));
      g_assert_nonnull (call);
      g_assert_cmpstr (akc_tool_call_get_name (call), ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected_call, "name"), NULL));
      g_assert_cmpstr (tool_call_status_name (akc_tool_call_get_status (call)), ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected_call, "status"), NULL));
      g_assert_cmpstr (akc_tool_call_get_result (call), ==,
                       akc_json_value_get_string (akc_json_value_get_member (expected_call, "result"), NULL));
    }
  else if ((member = akc_json_value_get_member (step, "interact")) != NULL)
    {
      g_autoptr(AkcJsonValue) frame =
        latest_frame (chat, akc_json_value_get_string (akc_json_value_get_member (member, "componentKey"), NULL));

      g_assert_nonnull (frame);
      akc_demo_interact (demo, frame,
                         akc_json_value_get_string (akc_json_value_get_member (member, "event"), NULL),
                         akc_json_value_get_member (member, "value"));
    }
  else if ((member = akc_json_value_get_member (step, "select")) != NULL)
    {
      g_autoptr(AkcJsonValue) frame = latest_frame (chat, "choice-list");

      g_assert_nonnull (frame);
      akc_demo_select (demo, frame, akc_json_value_get_string (akc_json_value_get_member (member, "choiceId"), NULL));
    }
  else
    g_error ("step %u: an operation this harness does not know", index_);

  wait_until_idle (AKC_CHAT_SOURCE (chat));
}

static void
test_reference_script (gconstpointer data)
{
  const AkcFixtureCase *fc = data;
  const char *application = akc_json_value_get_string (akc_json_value_get_member (fc->input, "application"), NULL);
  AkcJsonValue *steps = akc_json_value_get_member (fc->input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  g_autoptr(AkcDemo) demo = demo_for_case (fc, application);

  g_assert_cmpuint (akc_json_value_get_length (steps), ==, akc_json_value_get_length (expected_steps));
  for (guint i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *expected = akc_json_value_get_element (expected_steps, i);

      run_step (demo, akc_json_value_get_element (steps, i), expected, i);
      check_step (demo, expected, i);
    }

  check_transcript (demo, akc_fixture_expect (fc, "finalTranscript"));
}

static char *
fixed_id (gpointer user_data)
{
  return g_strdup (user_data);
}

static gint64
clock_at_zero (gpointer user_data)
{
  return 0;
}

/* The audit of one confirmed restart (§13.4): a proposal, then the same
 * token approved twice at once, which the coordinator runs once. */
static void
test_reference_trace (gconstpointer data)
{
  const AkcFixtureCase *fc = data;
  AkcJsonValue *capabilities = akc_json_value_get_member (fc->input, "capabilities");
  g_autoptr(GPtrArray) granted = g_ptr_array_new ();
  g_autoptr(AkcDemo) demo = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) step = akc_json_value_parse ("{\"name\":\"restart-operation\",\"input\":{\"id\":\"checkout-api\"}}", -1, NULL);
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(AkcConfirmationRecord) first_record = NULL;
  g_autoptr(AkcConfirmationRecord) second_record = NULL;
  g_autoptr(AkcJsonValue) traces = NULL;
  AkcActionConfirmation *confirmation;
  GPtrArray *audit;

  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (fc->input, "application"), NULL), ==, "operations");
  for (gsize i = 0; i < akc_json_value_get_length (capabilities); i++)
    g_ptr_array_add (granted, (gpointer) akc_json_value_get_string (akc_json_value_get_element (capabilities, i), NULL));
  g_ptr_array_add (granted, NULL);

  demo = akc_demo_new_full ("operations",
                            akc_json_value_get_string (akc_json_value_get_member (fc->input, "sessionId"), NULL),
                            (const char * const *) granted->pdata, NULL, &error);
  g_assert_no_error (error);
  akc_demo_set_reply_interval (demo, 0);
  confirmation = akc_demo_get_confirmation (demo);
  akc_action_confirmation_set_id_func (confirmation, fixed_id,
                                       g_strdup (akc_json_value_get_string (akc_json_value_get_member (fc->input, "createId"), NULL)),
                                       g_free);
  akc_action_confirmation_set_clock (confirmation, clock_at_zero, NULL, NULL);
  akc_capability_policy_set_clock (akc_demo_get_policy (demo), clock_at_zero, NULL, NULL);

  record = propose (demo, step, &error);
  g_assert_no_error (error);

  akc_action_confirmation_approve_async (confirmation, akc_confirmation_record_get_token (record),
                                         akc_demo_get_session_id (demo), NULL, akc_test_store_result, &first);
  akc_action_confirmation_approve_async (confirmation, akc_confirmation_record_get_token (record),
                                         akc_demo_get_session_id (demo), NULL, akc_test_store_result, &second);
  first_record = akc_action_confirmation_approve_finish (confirmation, akc_test_wait (&first), &error);
  g_assert_no_error (error);
  second_record = akc_action_confirmation_approve_finish (confirmation, akc_test_wait (&second), &error);
  g_assert_no_error (error);
  g_assert_true (akc_confirmation_record_equal (first_record, second_record));
  wait_until_idle (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));

  audit = akc_demo_get_audit (demo);
  traces = akc_json_value_new_array ((AkcJsonValue * const *) audit->pdata, audit->len);
  akc_assert_json_equal (traces, akc_fixture_expect (fc, "traces"));
}

/* The demo's trace capture follows the whole conversation (§10.1): the
 * route that answered, then the policy's decision and the action's
 * statuses, each naming that turn as its parent; the audit is the same
 * without the turn. */
static void
test_demo_capture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDemo) demo = akc_demo_new ("operations", &error);
  g_autoptr(AkcJsonValue) step = akc_json_value_parse ("{\"name\":\"read-operation-status\",\"input\":{\"id\":\"checkout-api\"}}", -1, NULL);
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) approved = NULL;
  g_autoptr(GPtrArray) snapshot = NULL;
  AkcTraceRecord *first;

  g_assert_no_error (error);
  akc_demo_set_reply_interval (demo, 0);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)), "/operations", &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));
  record = propose (demo, step, &error);
  g_assert_no_error (error);
  approved = approve (demo, record, &error);
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (akc_demo_get_chat (demo)));

  snapshot = akc_trace_capture_snapshot (akc_demo_get_trace_capture (demo));
  g_assert_cmpuint (snapshot->len, >=, 4);
  first = g_ptr_array_index (snapshot, 0);
  g_assert_cmpint (akc_trace_record_get_category (first), ==, AKC_TRACE_CATEGORY_ROUTE);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_trace_record_get_detail (first), "routeId"), NULL),
                   ==, "operations");
  {
    const char *turn = NULL;
    guint turns = 0;

    /* Every other record names the latest turn before it as its parent. */
    for (guint i = 0; i < snapshot->len; i++)
      {
        AkcTraceRecord *trace = g_ptr_array_index (snapshot, i);

        switch (akc_trace_record_get_category (trace))
          {
          case AKC_TRACE_CATEGORY_ROUTE:
          case AKC_TRACE_CATEGORY_AGENT:
          case AKC_TRACE_CATEGORY_REPAIR:
          case AKC_TRACE_CATEGORY_FALLBACK:
            turn = akc_trace_record_get_id (trace);
            turns++;
            break;
          default:
            g_assert_cmpstr (akc_trace_record_get_parent_id (trace), ==, turn);
            break;
          }
      }
    g_assert_cmpuint (akc_trace_record_get_category (g_ptr_array_index (snapshot, 1)), ==, AKC_TRACE_CATEGORY_POLICY);
    g_assert_cmpstr (akc_trace_record_get_parent_id (g_ptr_array_index (snapshot, 1)), ==, "trace-0");

    /* The audit is the capture without its turns. */
    g_assert_cmpuint (akc_demo_get_audit (demo)->len, ==, snapshot->len - turns);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) cases = NULL;
  g_autoptr(GError) error = NULL;
  guint registered = 0;

  g_test_init (&argc, &argv, NULL);

  cases = akc_fixture_load (FIXTURE, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < cases->len; i++)
    {
      AkcFixtureCase *fc = g_ptr_array_index (cases, i);
      g_autofree char *name = g_strdelimit (g_strdup (fc->name), "/#", '_');
      g_autofree char *path = g_strdup_printf ("/reference-scripts/%03u %s", fc->index, name);

      if (g_strcmp0 (fc->op, "referenceScript") == 0)
        g_test_add_data_func (path, fc, test_reference_script);
      else if (g_strcmp0 (fc->op, "referenceTrace") == 0)
        g_test_add_data_func (path, fc, test_reference_trace);
      else
        g_error ("%s: an operation this harness does not know", fc->name);
      registered++;
    }
  g_assert_cmpuint (registered, >, 0);
  g_test_add_func ("/reference-scripts/demo-capture", test_demo_capture);

  return g_test_run ();
}

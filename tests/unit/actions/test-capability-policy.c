/* test-capability-policy.c: AkcCapabilityPolicy (application.md §5.4),
 * alone, composed with an upstream authorizer, and installed on AkcChat
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include "akc.h"
#include "akc-fixture.h"
#include "akc-test.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static gint64
fixed_clock (gpointer user_data)
{
  return *(gint64 *) user_data;
}

static AkcToolPhase
phase_of (AkcJsonValue *object)
{
  const char *phase = akc_test_member_string (object, "phase");

  g_assert_true (g_strcmp0 (phase, "propose") == 0 || g_strcmp0 (phase, "execute") == 0);
  return strcmp (phase, "execute") == 0 ? AKC_TOOL_PHASE_EXECUTE : AKC_TOOL_PHASE_PROPOSE;
}

/* {allowed: true} or {allowed: false, reason}. */
static AkcJsonValue *
decision_json (gboolean        allowed,
               AkcPolicyReason reason)
{
  g_autoptr(AkcJsonValue) flag = akc_json_value_new_boolean (allowed);
  g_autoptr(AkcJsonValue) why = akc_json_value_new_string (akc_policy_reason_to_string (reason), -1);

  if (allowed)
    {
      g_assert_cmpint (reason, ==, AKC_POLICY_REASON_ALLOWED);
      return akc_json_value_new_object ((const char *[]) { "allowed" }, (AkcJsonValue *[]) { flag }, 1);
    }

  return akc_json_value_new_object ((const char *[]) { "allowed", "reason" },
                                    (AkcJsonValue *[]) { flag, why }, 2);
}

static AkcJsonValue *
traces_json (AkcCapabilityPolicy *policy)
{
  g_autoptr(GPtrArray) traces = akc_capability_policy_get_trace (policy);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < traces->len; i++)
    g_ptr_array_add (items, akc_policy_trace_to_json (g_ptr_array_index (traces, i)));

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

/* The fixture's context: a JSON value handed out as it is, absent for
 * null, or a failure for {"throws": true}. */
static AkcJsonValue *
fixture_context (AkcCapabilityPolicy  *policy,
                 gpointer              user_data,
                 GError              **error)
{
  AkcJsonValue *context = user_data;
  AkcJsonValue *throws;

  if (context == NULL)
    return NULL;

  throws = akc_json_value_get_kind (context) == AKC_JSON_KIND_OBJECT
           ? akc_json_value_get_member (context, "throws") : NULL;
  if (throws != NULL && akc_json_value_get_kind (throws) == AKC_JSON_KIND_BOOLEAN &&
      akc_json_value_get_boolean (throws))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "context unavailable");
      return NULL;
    }

  return akc_json_value_ref (context);
}

typedef struct
{
  guint traces;
  char *last_id;
} TraceLog;

static void
on_trace (AkcCapabilityPolicy *policy,
          AkcPolicyTrace      *trace,
          TraceLog            *log)
{
  log->traces++;
  g_free (log->last_id);
  log->last_id = g_strdup (akc_policy_trace_get_id (trace));
}

/* ------------------------------------------------------------------ */
/* §5.4 vectors                                                         */
/* ------------------------------------------------------------------ */

static void
run_policy_create (const AkcFixtureCase *fc,
                   gconstpointer         user_data)
{
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *expected_error = akc_fixture_expect (fc, "error");

  policy = akc_capability_policy_new (akc_test_member_string (fc->input, "sessionId"),
                                      akc_json_value_get_member (fc->input, "requirements"),
                                      &error);
  if (akc_fixture_expect_ok (fc))
    {
      g_assert_no_error (error);
      g_assert_nonnull (policy);
      g_assert_finalize_object (g_steal_pointer (&policy));
      return;
    }

  g_assert_null (policy);
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (akc_test_member_string (expected_error, "code"), ==, "AK_CONFIG_INVALID");
  g_assert_cmpstr (error->message, ==, akc_test_member_string (expected_error, "message"));
}

static void
run_policy_authorize (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  AkcJsonValue *calls = akc_json_value_get_member (fc->input, "calls");
  AkcJsonValue *context = akc_json_value_get_member (fc->input, "context");
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) actual_results = NULL;
  g_autoptr(AkcJsonValue) actual_traces = NULL;
  g_autoptr(GError) error = NULL;
  TraceLog log = { 0, NULL };
  gint64 now = 42;

  policy = akc_capability_policy_new (akc_test_member_string (fc->input, "sessionId"),
                                      akc_json_value_get_member (fc->input, "requirements"),
                                      &error);
  g_assert_no_error (error);
  akc_capability_policy_set_clock (policy, fixed_clock, &now, NULL);
  if (context != NULL && akc_json_value_get_kind (context) != AKC_JSON_KIND_NULL)
    akc_capability_policy_set_context_func (policy, fixture_context,
                                            akc_json_value_ref (context),
                                            (GDestroyNotify) akc_json_value_unref);
  else
    akc_capability_policy_set_context_func (policy, fixture_context, NULL, NULL);
  g_signal_connect (policy, "trace", G_CALLBACK (on_trace), &log);

  for (gsize i = 0; i < akc_json_value_get_length (calls); i++)
    {
      AkcJsonValue *call = akc_json_value_get_element (calls, i);
      AkcPolicyReason reason = AKC_POLICY_REASON_POLICY_FAILURE;
      gboolean allowed;

      allowed = akc_capability_policy_authorize_tool_call (policy,
                                                           akc_test_member_string (call, "id"),
                                                           akc_test_member_string (call, "name"),
                                                           phase_of (call),
                                                           &reason);
      g_ptr_array_add (results, decision_json (allowed, reason));
    }

  actual_results = akc_json_value_new_array ((AkcJsonValue * const *) results->pdata, results->len);
  akc_assert_json_equal (actual_results, akc_fixture_expect (fc, "results"));
  actual_traces = traces_json (policy);
  akc_assert_json_equal (actual_traces, akc_fixture_expect (fc, "traces"));

  /* The observer saw every trace, in order. */
  g_assert_cmpuint (log.traces, ==, akc_json_value_get_length (calls));
  g_free (log.last_id);

  g_assert_finalize_object (g_steal_pointer (&policy));
}

typedef struct
{
  GPtrArray    *capabilities;  /* the host's grant, mutable */
  const char   *session_id;
  AkcJsonValue *upstream;
  guint         upstream_calls;
} ComposeCase;

static AkcJsonValue *
compose_context (AkcCapabilityPolicy  *policy,
                 gpointer              user_data,
                 GError              **error)
{
  ComposeCase *cc = user_data;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) capabilities = NULL;

  for (guint i = 0; i < cc->capabilities->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (cc->capabilities, i));
  capabilities = g_strv_builder_end (builder);

  return akc_policy_context_new (cc->session_id, (const char * const *) capabilities);
}

static gboolean
is_true (AkcJsonValue *object,
         const char   *name)
{
  AkcJsonValue *member = akc_json_value_get_member (object, name);

  return member != NULL && akc_json_value_get_kind (member) == AKC_JSON_KIND_BOOLEAN &&
         akc_json_value_get_boolean (member);
}

static gboolean
compose_upstream (AkcCapabilityPolicy  *policy,
                  const char           *tool_call_id,
                  const char           *action,
                  AkcToolPhase          phase,
                  gpointer              user_data,
                  GError              **error)
{
  ComposeCase *cc = user_data;

  cc->upstream_calls++;
  g_assert_cmpstr (tool_call_id, ==, "call-1");

  if (is_true (cc->upstream, "throws"))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "authorizer failed");
      return FALSE;
    }

  /* The host revokes every capability while the upstream decides. */
  if (is_true (cc->upstream, "revokeDuring"))
    g_ptr_array_set_size (cc->capabilities, 0);

  return is_true (cc->upstream, "allowed");
}

static void
run_policy_compose (const AkcFixtureCase *fc,
                    gconstpointer         user_data)
{
  AkcJsonValue *granted = akc_json_value_get_member (fc->input, "capabilities");
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  g_autoptr(GPtrArray) capabilities = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcJsonValue) actual_result = NULL;
  g_autoptr(AkcJsonValue) actual_traces = NULL;
  g_autoptr(GError) error = NULL;
  ComposeCase cc = { capabilities, akc_test_member_string (fc->input, "sessionId"),
                     akc_json_value_get_member (fc->input, "upstream"), 0 };
  AkcPolicyReason reason = AKC_POLICY_REASON_POLICY_FAILURE;
  gboolean none = is_true (cc.upstream, "none");
  gboolean allowed;
  gint64 now = 7;

  for (gsize i = 0; i < akc_json_value_get_length (granted); i++)
    g_ptr_array_add (capabilities, g_strdup (akc_json_value_get_string (akc_json_value_get_element (granted, i), NULL)));

  policy = akc_capability_policy_new (cc.session_id,
                                      akc_json_value_get_member (fc->input, "requirements"),
                                      &error);
  g_assert_no_error (error);
  akc_capability_policy_set_clock (policy, fixed_clock, &now, NULL);
  akc_capability_policy_set_context_func (policy, compose_context, &cc, NULL);

  allowed = akc_capability_policy_authorize_composed (policy, "call-1",
                                                      akc_test_member_string (fc->input, "action"),
                                                      phase_of (fc->input),
                                                      none ? NULL : compose_upstream, &cc,
                                                      &reason);

  actual_result = decision_json (allowed, reason);
  akc_assert_json_equal (actual_result, akc_fixture_expect (fc, "result"));
  actual_traces = traces_json (policy);
  akc_assert_json_equal (actual_traces, akc_fixture_expect (fc, "traces"));

  /* The upstream is asked only when the local policy allows. */
  if (reason == AKC_POLICY_REASON_MISSING_CAPABILITY && !is_true (cc.upstream, "revokeDuring"))
    g_assert_cmpuint (cc.upstream_calls, ==, 0);
  else
    g_assert_cmpuint (cc.upstream_calls, ==, none ? 0 : 1);

  g_assert_finalize_object (g_steal_pointer (&policy));
}

static void
on_result_slot (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* ------------------------------------------------------------------ */
/* Installed on AkcChat                                                 */
/* ------------------------------------------------------------------ */

typedef struct
{
  GPtrArray *capabilities;
} Host;

static AkcJsonValue *
host_context (AkcCapabilityPolicy  *policy,
              gpointer              user_data,
              GError              **error)
{
  Host *host = user_data;

  g_ptr_array_add (host->capabilities, NULL);
  {
    AkcJsonValue *context = akc_policy_context_new ("session", (const char * const *) host->capabilities->pdata);

    g_ptr_array_remove_index (host->capabilities, host->capabilities->len - 1);
    return context;
  }
}

typedef struct
{
  guint asked[2];
  gboolean deny;
} Existing;

static char *
existing_authorizer (AkcChat      *chat,
                     AkcToolCall  *call,
                     AkcToolPhase  phase,
                     gpointer      user_data)
{
  Existing *existing = user_data;

  existing->asked[phase]++;
  return existing->deny ? g_strdup ("existing says no") : NULL;
}

static char *
count_tool (AkcTool       *tool,
            AkcJsonValue  *arguments,
            gpointer       user_data,
            GError       **error)
{
  (*(guint *) user_data)++;
  return g_strdup ("done");
}

static void
revoke_all (AkcCapabilityPolicy *policy,
            AkcPolicyTrace      *trace,
            Host                *host)
{
  /* An observer that changes the host's grant (or does anything else)
   * cannot change the decision it is told about. */
  g_ptr_array_set_size (host->capabilities, 0);
}

/* withActionPolicy: the policy composed with the existing authorizer
 * becomes the controller's; proposals are checked in the order of
 * application.md §5.4, and a capability revoked between proposal and
 * approval keeps the approved call from running. */
static void
test_install_on_chat (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  AkcScriptedAdapter *script = AKC_SCRIPTED_ADAPTER (adapter);
  g_autoptr(AkcChat) chat = akc_chat_new (adapter);
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  g_autoptr(AkcJsonValue) requirements = NULL;
  g_autoptr(AkcJsonValue) arguments = akc_json_value_parse ("{\"id\":7}", -1, NULL);
  g_autoptr(AkcJsonValue) not_object = akc_json_value_parse ("[7]", -1, NULL);
  g_autoptr(AkcJsonValue) wrong_type = akc_json_value_parse ("{\"id\":\"x\"}", -1, NULL);
  g_autoptr(AkcJsonSchema) schema = NULL;
  g_autoptr(AkcToolCall) call = NULL;
  g_autoptr(GPtrArray) capabilities = g_ptr_array_new ();
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(GError) error = NULL;
  Host host = { capabilities };
  Existing existing = { { 0, 0 }, FALSE };
  guint runs = 0;
  gint64 now = 3;

  tool = akc_tool_new ("delete-user", TRUE, count_tool, &runs, NULL);
  schema = akc_json_schema_new_from_string ("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}},"
                                            "\"required\":[\"id\"]}", &error);
  g_assert_no_error (error);
  akc_tool_set_argument_schema (tool, schema);
  akc_chat_add_tool (chat, tool);
  akc_chat_set_tool_authorizer (chat, existing_authorizer, &existing, NULL);

  requirements = akc_json_value_parse ("{\"delete-user\":[\"user.delete\"]}", -1, &error);
  g_assert_no_error (error);
  policy = akc_capability_policy_new ("session", requirements, &error);
  g_assert_no_error (error);
  akc_capability_policy_set_clock (policy, fixed_clock, &now, NULL);
  akc_capability_policy_set_context_func (policy, host_context, &host, NULL);
  akc_capability_policy_install (policy, chat);

  /* Malformed arguments, unknown tools and arguments the tool's schema
   * refuses are reported before a missing capability. */
  g_assert_null (akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c1", "delete-user", not_object, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c1", "unknown", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c1", "delete-user", wrong_type, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT);
  g_clear_error (&error);
  traces = akc_capability_policy_get_trace (policy);
  g_assert_cmpuint (traces->len, ==, 0);
  g_clear_pointer (&traces, g_ptr_array_unref);

  /* Denied locally: the existing authorizer is not asked. */
  g_assert_null (akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c1", "delete-user", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN);
  g_assert_cmpstr (error->message, ==, "missing-capability");
  g_clear_error (&error);
  g_assert_cmpuint (existing.asked[AKC_TOOL_PHASE_PROPOSE], ==, 0);

  /* Granted, but the existing authorizer denies. */
  g_ptr_array_add (capabilities, (gpointer) "user.delete");
  existing.deny = TRUE;
  g_assert_null (akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c1", "delete-user", arguments, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN);
  g_assert_cmpstr (error->message, ==, "composed-policy-denied");
  g_clear_error (&error);
  g_assert_cmpuint (existing.asked[AKC_TOOL_PHASE_PROPOSE], ==, 1);

  /* Both allow: the proposal waits for confirmation. */
  existing.deny = FALSE;
  call = akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c1", "delete-user", arguments, &error);
  g_assert_no_error (error);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);

  /* Revoked before approval: the approval succeeds, the call is an error
   * with the reason, and the tool never runs. */
  g_ptr_array_set_size (capabilities, 0);
  akc_test_script_reply (script, "Could not.");
  g_assert_true (akc_chat_source_approve (AKC_CHAT_SOURCE (chat), "c1", &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "missing-capability");
  g_assert_cmpuint (runs, ==, 0);
  g_assert_cmpuint (existing.asked[AKC_TOOL_PHASE_EXECUTE], ==, 0);

  traces = akc_capability_policy_get_trace (policy);
  g_assert_cmpuint (traces->len, ==, 4);
  g_assert_cmpint (akc_policy_trace_get_reason (g_ptr_array_index (traces, 0)), ==, AKC_POLICY_REASON_MISSING_CAPABILITY);
  g_assert_cmpint (akc_policy_trace_get_reason (g_ptr_array_index (traces, 1)), ==, AKC_POLICY_REASON_COMPOSED_POLICY_DENIED);
  g_assert_cmpint (akc_policy_trace_get_reason (g_ptr_array_index (traces, 2)), ==, AKC_POLICY_REASON_ALLOWED);
  g_assert_cmpint (akc_policy_trace_get_phase (g_ptr_array_index (traces, 3)), ==, AKC_TOOL_PHASE_EXECUTE);
  g_assert_cmpint (akc_policy_trace_get_reason (g_ptr_array_index (traces, 3)), ==, AKC_POLICY_REASON_MISSING_CAPABILITY);
  g_assert_cmpstr (akc_policy_trace_get_id (g_ptr_array_index (traces, 3)), ==, "policy-4");
  g_assert_cmpstr (akc_policy_trace_get_tool_call_id (g_ptr_array_index (traces, 3)), ==, "c1");

  /* A second call with the grant runs the tool once. */
  g_ptr_array_add (capabilities, (gpointer) "user.delete");
  g_clear_object (&call);
  call = akc_chat_source_propose_tool_call (AKC_CHAT_SOURCE (chat), "c2", "delete-user", arguments, &error);
  g_assert_no_error (error);
  akc_test_script_reply (script, "Deleted.");
  g_assert_true (akc_chat_source_approve (AKC_CHAT_SOURCE (chat), "c2", &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);
  g_assert_cmpuint (runs, ==, 1);
  g_assert_cmpuint (existing.asked[AKC_TOOL_PHASE_EXECUTE], ==, 1);

  /* The trace observer is isolated: revoking from it changes nothing in
   * the decision being reported. */
  g_signal_connect (policy, "trace", G_CALLBACK (revoke_all), &host);
  g_assert_true (akc_capability_policy_authorize_tool_call (policy, "c3", "delete-user", AKC_TOOL_PHASE_PROPOSE, NULL));
  g_assert_false (akc_capability_policy_authorize_tool_call (policy, "c4", "delete-user", AKC_TOOL_PHASE_PROPOSE, NULL));

  g_clear_object (&call);
  g_assert_finalize_object (g_steal_pointer (&chat));
  g_assert_finalize_object (g_steal_pointer (&policy));
}

/* The coordinator over the controller with a policy: an approval after a
 * revocation records the approval (it does not raise), and the tool never
 * runs. */
static void
test_confirmation_with_policy (void)
{
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  AkcScriptedAdapter *script = AKC_SCRIPTED_ADAPTER (adapter);
  g_autoptr(AkcChat) chat = akc_chat_new (adapter);
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcCapabilityPolicy) policy = NULL;
  g_autoptr(AkcActionConfirmation) coordinator = NULL;
  g_autoptr(AkcJsonValue) requirements = akc_json_value_parse ("{\"send-email\":[\"email.send\"]}", -1, NULL);
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(AkcConfirmationRecord) approved = NULL;
  g_autoptr(GPtrArray) capabilities = g_ptr_array_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Host host = { capabilities };
  guint runs = 0;

  tool = akc_tool_new ("send-email", TRUE, count_tool, &runs, NULL);
  akc_chat_add_tool (chat, tool);
  policy = akc_capability_policy_new ("session", requirements, &error);
  g_assert_no_error (error);
  akc_capability_policy_set_context_func (policy, host_context, &host, NULL);
  akc_capability_policy_install (policy, chat);
  coordinator = akc_action_confirmation_new ("session", AKC_CHAT_SOURCE (chat),
                                             AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Without the capability the proposal is forbidden and nothing is
   * recorded. */
  akc_action_confirmation_propose_async (coordinator, "send-email", NULL, NULL, on_result_slot, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_null (akc_action_confirmation_propose_finish (coordinator, result, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN);
  g_clear_error (&error);
  g_clear_object (&result);
  {
    g_autoptr(GPtrArray) records = akc_action_confirmation_get_snapshot (coordinator);

    g_assert_cmpuint (records->len, ==, 0);
  }

  g_ptr_array_add (capabilities, (gpointer) "email.send");
  akc_action_confirmation_propose_async (coordinator, "send-email", NULL, NULL, on_result_slot, &result);
  WAIT_UNTIL (result != NULL);
  record = akc_action_confirmation_propose_finish (coordinator, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  g_ptr_array_set_size (capabilities, 0);
  akc_test_script_reply (script, "Could not send.");
  akc_action_confirmation_approve_async (coordinator, akc_confirmation_record_get_token (record), "session",
                                         NULL, on_result_slot, &result);
  WAIT_UNTIL (result != NULL);
  approved = akc_action_confirmation_approve_finish (coordinator, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  wait_until_idle (AKC_CHAT_SOURCE (chat));

  g_assert_cmpint (akc_confirmation_record_get_status (approved), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (runs, ==, 0);

  g_assert_finalize_object (g_steal_pointer (&coordinator));
  g_assert_finalize_object (g_steal_pointer (&chat));
  g_assert_finalize_object (g_steal_pointer (&policy));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/actions.json", "/capability-policy/fixtures",
                         "policyCreate", run_policy_create, NULL);
  akc_fixture_add_tests ("application/actions.json", "/capability-policy/fixtures",
                         "policyAuthorize", run_policy_authorize, NULL);
  akc_fixture_add_tests ("application/actions.json", "/capability-policy/fixtures",
                         "policyCompose", run_policy_compose, NULL);

  g_test_add_func ("/capability-policy/install-on-chat", test_install_on_chat);
  g_test_add_func ("/capability-policy/confirmation-with-policy", test_confirmation_with_policy);

  return g_test_run ();
}

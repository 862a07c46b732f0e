/* test-devtools.c: trace capture, replay fixtures and renderer parity
 * (application.md §10) against every vector of application/devtools.json,
 * plus the behaviour the vectors leave out: the caller's detail is never
 * modified, snapshots do not change, records follow a live session, and
 * the replay adapter plays a cassette.
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-policy-trace-private.h"
#include "akc-turn-client-private.h"
#include "akc-test.h"

static const struct { AkcTraceError code; const char *nick; } error_nicks[] = {
  { AKC_TRACE_ERROR_INVALID_DETAIL, "invalid-detail" },
  { AKC_TRACE_ERROR_TOO_LARGE, "too-large" },
  { AKC_TRACE_ERROR_ENVELOPE_INVALID, "envelope-invalid" },
  { AKC_TRACE_ERROR_CASSETTE_VERSION, "cassette-version" },
  { AKC_TRACE_ERROR_CASSETTE_INVALID, "cassette-invalid" },
  { AKC_TRACE_ERROR_INVALID_INPUT, "invalid-input" },
};

/* An expected error is either the harness's code name or the normative
 * message: compare the code for the first, the exact message for the
 * second. */
static void
assert_error (const GError *error,
              const char   *expected)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == AKC_TRACE_ERROR);

  for (guint i = 0; i < G_N_ELEMENTS (error_nicks); i++)
    if (g_str_equal (expected, error_nicks[i].nick))
      {
        g_assert_cmpint (error->code, ==, error_nicks[i].code);
        return;
      }

  g_assert_cmpstr (error->message, ==, expected);
}

static gint64
fixed_clock (gpointer user_data)
{
  return *(gint64 *) user_data;
}

static AkcPolicyTrace *
policy_trace_from_json (AkcJsonValue *value)
{
  AkcJsonValue *caps = akc_json_value_get_member (value, "requiredCapabilities");
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *reason = akc_test_member_string (value, "reason");
  AkcPolicyReason r = AKC_POLICY_REASON_ALLOWED;

  for (gsize i = 0; i < akc_json_value_get_length (caps); i++)
    g_ptr_array_add (names, (gpointer) akc_json_value_get_string (akc_json_value_get_element (caps, i), NULL));
  g_ptr_array_add (names, NULL);

  for (int k = AKC_POLICY_REASON_ALLOWED; k <= AKC_POLICY_REASON_COMPOSED_POLICY_DENIED; k++)
    if (g_str_equal (akc_policy_reason_to_string (k), reason))
      r = k;

  return akc_policy_trace_new (akc_test_member_string (value, "id"),
                               akc_test_member_string (value, "toolCallId"),
                               akc_test_member_string (value, "action"),
                               g_str_equal (akc_test_member_string (value, "phase"), "execute")
                                 ? AKC_TOOL_PHASE_EXECUTE : AKC_TOOL_PHASE_PROPOSE,
                               r,
                               (const char * const *) names->pdata,
                               (gint64) akc_json_value_get_number (akc_json_value_get_member (value, "timestamp")));
}

static AkcConfirmationRecord *
action_record_from_json (AkcJsonValue *value)
{
  AkcConfirmationStatus status;
  g_autoptr(GError) error = NULL;
  AkcConfirmationRecord *record;

  g_assert_true (akc_confirmation_status_from_string (akc_test_member_string (value, "status"), &status));
  record = akc_confirmation_record_new (akc_test_member_string (value, "token"),
                                        akc_test_member_string (value, "sessionId"),
                                        akc_test_member_string (value, "action"),
                                        akc_json_value_get_member (value, "input"),
                                        akc_test_member_string (value, "toolCallId"),
                                        (gint64) akc_json_value_get_number (akc_json_value_get_member (value, "expiresAt")),
                                        status, &error);
  g_assert_no_error (error);

  return record;
}

static GStrv
strv_from_json (AkcJsonValue *array)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (gsize i = 0; array != NULL && i < akc_json_value_get_length (array); i++)
    g_strv_builder_add (builder, akc_json_value_get_string (akc_json_value_get_element (array, i), NULL));

  return g_strv_builder_end (builder);
}

static void
run_trace_capture (const AkcFixtureCase *fc,
                   gconstpointer         user_data)
{
  g_auto(GStrv) redact = strv_from_json (akc_json_value_get_member (fc->input, "redactFields"));
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new ((const char * const *) redact);
  AkcJsonValue *steps = akc_json_value_get_member (fc->input, "steps");
  AkcJsonValue *expected_steps = akc_fixture_expect (fc, "steps");
  AkcJsonValue *now_value = akc_json_value_get_member (fc->input, "now");
  gint64 now = now_value != NULL ? (gint64) akc_json_value_get_number (now_value) : 0;
  g_autoptr(GPtrArray) snapshot = NULL;
  g_autoptr(GPtrArray) snapshot_json = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) snapshot_value = NULL;

  akc_trace_capture_set_clock (capture, fixed_clock, &now, NULL);
  g_assert_cmpuint (akc_json_value_get_length (steps), ==, akc_json_value_get_length (expected_steps));

  for (gsize i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *expected = akc_json_value_get_element (expected_steps, i);
      const char *parent = akc_test_member_string (step, "parentId");
      g_autoptr(AkcTraceRecord) record = NULL;
      g_autoptr(GError) error = NULL;
      AkcJsonValue *spec;

      if ((spec = akc_json_value_get_member (step, "append")) != NULL)
        {
          AkcTraceCategory category;
          AkcJsonValue *detail = akc_json_value_get_member (spec, "detail");
          g_autofree char *before = akc_json_value_to_canonical (detail, NULL);

          if (!akc_trace_category_from_string (akc_test_member_string (spec, "category"), &category))
            {
              /* Not a category: the typed API cannot even express it. */
              g_assert_cmpstr (akc_test_member_string (expected, "error"), ==, "invalid-detail");
              continue;
            }
          record = akc_trace_capture_append (capture, category, detail,
                                             akc_test_member_string (spec, "parentId"),
                                             akc_test_member_string (spec, "at"), &error);
          /* The caller's detail is never modified. */
          {
            g_autofree char *after = akc_json_value_to_canonical (detail, NULL);

            g_assert_cmpstr (after, ==, before);
          }
        }
      else if ((spec = akc_json_value_get_member (step, "turnTrace")) != NULL)
        {
          AkcTraceKind kind;

          g_assert_true (akc_trace_kind_from_string (akc_test_member_string (spec, "kind"), &kind));
          record = akc_trace_capture_capture_turn (capture, kind,
                                                   akc_test_member_string (spec, "routeId"),
                                                   akc_test_member_string (spec, "fromState"),
                                                   akc_test_member_string (spec, "toState"),
                                                   parent, &error);
        }
      else if ((spec = akc_json_value_get_member (step, "policyTrace")) != NULL)
        {
          g_autoptr(AkcPolicyTrace) trace = policy_trace_from_json (spec);

          record = akc_trace_capture_capture_policy (capture, trace, parent, &error);
        }
      else if ((spec = akc_json_value_get_member (step, "actionTrace")) != NULL)
        {
          g_autoptr(AkcConfirmationRecord) action = action_record_from_json (spec);

          record = akc_trace_capture_capture_action (capture, action, parent, &error);
        }
      else
        {
          g_assert_not_reached ();
        }

      if (akc_json_value_get_member (expected, "error") != NULL)
        {
          g_assert_null (record);
          assert_error (error, akc_test_member_string (expected, "error"));
        }
      else
        {
          g_autoptr(AkcJsonValue) json = NULL;

          g_assert_no_error (error);
          g_assert_nonnull (record);
          json = akc_trace_record_to_json (record);
          akc_assert_json_equal (json, akc_json_value_get_member (expected, "record"));
        }
    }

  snapshot = akc_trace_capture_snapshot (capture);
  for (guint i = 0; i < snapshot->len; i++)
    g_ptr_array_add (snapshot_json, akc_trace_record_to_json (g_ptr_array_index (snapshot, i)));
  snapshot_value = akc_json_value_new_array ((AkcJsonValue * const *) snapshot_json->pdata, snapshot_json->len);
  akc_assert_json_equal (snapshot_value, akc_fixture_expect (fc, "snapshot"));
}

static void
run_parse_replay (const AkcFixtureCase *fc,
                  gconstpointer         user_data)
{
  AkcJsonValue *text = akc_json_value_get_member (fc->input, "text");
  gsize len = 0;
  const char *s = akc_json_value_get_string (text, &len);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcReplayFixture) fixture = akc_replay_fixture_parse (s, len, &error);
  g_autoptr(GPtrArray) categories = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) categories_value = NULL;
  g_autoptr(AkcJsonValue) chunks_value = NULL;
  GPtrArray *traces;

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (fixture);
      assert_error (error, akc_fixture_expect_string (fc, "error"));
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (fixture);

  traces = akc_replay_fixture_get_traces (fixture);
  for (guint i = 0; i < traces->len; i++)
    g_ptr_array_add (categories, akc_json_value_new_string (
                       akc_trace_category_to_string (akc_trace_record_get_category (g_ptr_array_index (traces, i))), -1));
  categories_value = akc_json_value_new_array ((AkcJsonValue * const *) categories->pdata, categories->len);
  akc_assert_json_equal (categories_value, akc_fixture_expect (fc, "traceCategories"));

  g_assert_cmpfloat (akc_replay_fixture_get_n_entries (fixture), ==,
                     akc_json_value_get_number (akc_fixture_expect (fc, "cassetteEntries")));

  for (guint e = 0; e < akc_replay_fixture_get_n_entries (fixture); e++)
    {
      AkcJsonValue *entry_chunks = akc_replay_fixture_get_entry_chunks (fixture, e);

      for (gsize i = 0; i < akc_json_value_get_length (entry_chunks); i++)
        g_ptr_array_add (chunks, akc_json_value_ref (akc_json_value_get_element (entry_chunks, i)));
    }
  chunks_value = akc_json_value_new_array ((AkcJsonValue * const *) chunks->pdata, chunks->len);
  akc_assert_json_equal (chunks_value, akc_fixture_expect (fc, "chunks"));

  /* What is written reads back to the same fixture. */
  {
    g_autofree char *written = akc_replay_fixture_serialize (fixture);
    g_autoptr(AkcReplayFixture) again = akc_replay_fixture_parse (written, -1, &error);
    g_autofree char *rewritten = NULL;

    g_assert_no_error (error);
    rewritten = akc_replay_fixture_serialize (again);
    g_assert_cmpstr (rewritten, ==, written);
  }
}

static void
run_serialize_replay (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  AkcJsonValue *trace_list = akc_json_value_get_member (fc->input, "traces");
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_trace_record_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autofree char *text = NULL;

  for (gsize i = 0; i < akc_json_value_get_length (trace_list); i++)
    {
      AkcTraceRecord *record = akc_trace_record_new_from_json (akc_json_value_get_element (trace_list, i), &error);

      g_assert_no_error (error);
      g_ptr_array_add (traces, record);
    }

  fixture = akc_replay_fixture_new (akc_json_value_get_member (fc->input, "cassette"), traces, &error);
  g_assert_no_error (error);
  text = akc_replay_fixture_serialize (fixture);
  g_assert_cmpstr (text, ==, akc_fixture_expect_string (fc, "text"));
}

static void
run_compare (const AkcFixtureCase *fc,
             gconstpointer         user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) report =
    akc_renderer_outcomes_compare (akc_json_value_get_member (fc->input, "renderers"), &error);

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (report);
      assert_error (error, akc_fixture_expect_string (fc, "error"));
      return;
    }

  g_assert_no_error (error);
  akc_assert_json_equal (report, akc_fixture_expect (fc, "report"));
}

/* ------------------------------------------------------------------ */
/* Beyond the vectors                                                  */
/* ------------------------------------------------------------------ */

static void
on_record_added (AkcTraceCapture *capture,
                 AkcTraceRecord  *record,
                 guint           *count)
{
  (*count)++;
}

static void
test_snapshot_is_immutable (void)
{
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcJsonValue) detail = akc_test_parse_json ("{\"a\":1}");
  g_autoptr(AkcTraceRecord) first = NULL;
  g_autoptr(AkcTraceRecord) second = NULL;
  g_autoptr(GPtrArray) snapshot = NULL;
  g_autoptr(GError) error = NULL;
  guint added = 0;

  g_signal_connect (capture, "record-added", G_CALLBACK (on_record_added), &added);
  first = akc_trace_capture_append (capture, AKC_TRACE_CATEGORY_LIFECYCLE, detail, NULL, NULL, &error);
  g_assert_no_error (error);
  snapshot = akc_trace_capture_snapshot (capture);
  second = akc_trace_capture_append (capture, AKC_TRACE_CATEGORY_LIFECYCLE, detail,
                                     akc_trace_record_get_id (first), NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (snapshot->len, ==, 1);
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), ==, 2);
  g_assert_cmpuint (added, ==, 2);
  g_assert_cmpstr (akc_trace_record_get_parent_id (second), ==, "trace-0");

  /* A failed append appends nothing and says why. */
  g_assert_null (akc_trace_capture_append (capture, AKC_TRACE_CATEGORY_LIFECYCLE, detail, "trace-9", NULL, &error));
  g_assert_error (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_INVALID_PARENT);
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), ==, 2);
  g_assert_cmpuint (added, ==, 2);

  akc_trace_capture_clear (capture);
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), ==, 0);
  g_assert_cmpuint (snapshot->len, ==, 1);
  g_assert_cmpstr (akc_trace_record_get_id (g_ptr_array_index (snapshot, 0)), ==, "trace-0");
}

/* Redaction applies to the projections too: a token member nested in a
 * policy's capabilities cannot exist, but an action named like a redact
 * field is kept while its members' values are not. */
static void
test_redaction_of_projections (void)
{
  const char * const redact[] = { "ROUTEID", NULL };
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (redact);
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = akc_trace_capture_capture_turn (capture, AKC_TRACE_KIND_DETERMINISTIC, "secret-route",
                                           "idle", "open", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_trace_record_get_detail (record), "routeId"), NULL),
                   ==, "[REDACTED]");
  g_assert_cmpstr (akc_trace_capture_get_redact_fields (capture)[0], ==, "ROUTEID");
}

static const char replay_text[] =
  "{\"protocol\":\"agentskit.chat.replay\",\"version\":1,"
  "\"cassette\":{\"version\":1,\"seed\":7,\"entries\":["
  "{\"request\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}]},"
  " \"chunks\":[{\"type\":\"text\",\"content\":\"Hel\"},{\"type\":\"text\",\"content\":\"lo\"},"
  "            {\"type\":\"tool_call\",\"toolCall\":{\"id\":\"c1\",\"name\":\"lookup\",\"args\":\"{\\\"q\\\":1}\"}},"
  "            {\"type\":\"done\"}]},"
  "{\"request\":{\"messages\":[]},\"chunks\":[{\"type\":\"error\",\"content\":\"Nope.\",\"code\":\"X_FAILED\"}]},"
  "{\"request\":{\"messages\":[]},\"chunks\":[{\"type\":\"sparkle\"}]},"
  "{\"request\":{\"messages\":[]},\"chunks\":[{\"type\":\"text\",\"content\":\"cut\"}]}"
  "]},\"traces\":[]}";

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          GPtrArray *chunks)
{
  g_ptr_array_add (chunks, akc_chunk_to_replay_json (chunk));
}

static AkcJsonValue *
play (AkcAdapter *adapter)
{
  g_autoptr(AkcStream) stream = akc_stream_new ();
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (G_LIST_MODEL (messages), NULL, NULL, NULL);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), chunks);
  akc_adapter_stream (adapter, request, stream);
  g_assert_cmpuint (chunks->len, ==, 0);  /* never inside the call */
  WAIT_UNTIL (akc_stream_is_closed (stream));

  return akc_json_value_new_array ((AkcJsonValue * const *) chunks->pdata, chunks->len);
}

static void
test_replay_adapter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcReplayFixture) fixture = akc_replay_fixture_parse (replay_text, -1, &error);
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(AkcJsonValue) first = NULL;
  g_autoptr(AkcJsonValue) second = NULL;
  g_autoptr(AkcJsonValue) third = NULL;
  g_autoptr(AkcJsonValue) fourth = NULL;
  g_autoptr(AkcJsonValue) unended = NULL;
  g_autoptr(AkcJsonValue) again = NULL;

  g_assert_no_error (error);
  adapter = akc_replay_adapter_new (fixture);

  first = play (adapter);
  akc_assert_json_equal (first, akc_replay_fixture_get_entry_chunks (fixture, 0));
  second = play (adapter);
  akc_assert_json_equal (second, akc_replay_fixture_get_entry_chunks (fixture, 1));

  /* A chunk type it cannot play fails the stream, it does not crash. */
  third = play (adapter);
  g_assert_cmpuint (akc_json_value_get_length (third), ==, 1);
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (third, 0), "code"), ==, "REPLAY_INVALID");

  /* A recording without done ends after its last chunk; it never hangs. */
  unended = play (adapter);
  g_assert_cmpuint (akc_json_value_get_length (unended), ==, 2);
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (unended, 0), "content"), ==, "cut");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (unended, 1), "type"), ==, "done");

  fourth = play (adapter);
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (fourth, 0), "code"), ==, "REPLAY_EXHAUSTED");

  akc_replay_adapter_set_position (AKC_REPLAY_ADAPTER (adapter), 0);
  g_assert_cmpuint (akc_replay_adapter_get_position (AKC_REPLAY_ADAPTER (adapter)), ==, 0);
  again = play (adapter);
  akc_assert_json_equal (again, first);
}

static void
test_replay_rejects (void)
{
  static const char * const bad[] = {
    "",
    "[]",
    "{\"protocol\":\"agentskit.chat.replay\",\"version\":1,\"cassette\":{\"version\":1,\"entries\":[]}}",
    "{\"protocol\":\"agentskit.chat.replay\",\"version\":1,\"cassette\":{\"version\":1,\"entries\":[]},\"traces\":{}}",
    "{\"protocol\":\"agentskit.chat.replay\",\"version\":1,\"cassette\":{\"version\":1,\"entries\":[]},"
      "\"traces\":[{\"id\":\"t\",\"sequence\":0,\"at\":\"1970-01-01T00:00:00.000Z\",\"category\":\"route\",\"detail\":{},\"x\":1}]}",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcReplayFixture) seed = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(AkcReplayFixture) fixture = akc_replay_fixture_parse (bad[i], -1, &error);

      g_assert_null (fixture);
      g_assert_error (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_ENVELOPE_INVALID);
      g_clear_error (&error);
    }

  seed = akc_replay_fixture_parse ("{\"protocol\":\"agentskit.chat.replay\",\"version\":1,"
                                   "\"cassette\":{\"version\":1,\"seed\":true,\"entries\":[]},\"traces\":[]}", -1, &error);
  g_assert_null (seed);
  g_assert_error (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_CASSETTE_INVALID);
}

/* A capture following a live session: a route's turn, then the policy's
 * decision, whose parent is the turn. */
static void
test_watch_policy (void)
{
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcJsonValue) requirements = akc_test_parse_json ("{\"open-ticket\":[\"ticket.write\"]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcCapabilityPolicy) policy = akc_capability_policy_new ("session-1", requirements, &error);
  g_autoptr(AkcPolicyTrace) trace = akc_policy_trace_new ("policy-1", "tool-1", "open-ticket", AKC_TOOL_PHASE_PROPOSE,
                                                          AKC_POLICY_REASON_MISSING_CAPABILITY,
                                                          (const char * const[]) { "ticket.write", NULL }, 0);
  g_autoptr(GPtrArray) snapshot = NULL;

  g_assert_no_error (error);
  akc_trace_capture_watch_policy (capture, policy);
  akc_trace_capture_watch_policy (capture, policy);  /* once only */
  g_signal_emit_by_name (policy, "trace", trace);
  snapshot = akc_trace_capture_snapshot (capture);
  g_assert_cmpuint (snapshot->len, ==, 1);
  g_assert_cmpint (akc_trace_record_get_category (g_ptr_array_index (snapshot, 0)), ==, AKC_TRACE_CATEGORY_POLICY);
  g_assert_null (akc_trace_record_get_parent_id (g_ptr_array_index (snapshot, 0)));
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (snapshot, 0)), "decision"), ==, "deny");

  g_clear_object (&policy);  /* the capture outlives what it watched */
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), ==, 1);
}

/* A conversation as it was shown becomes a fixture that reads back: one
 * entry per user message, the reply's text then done (or error), the
 * capture's records, and the cassette redacted like them. */
static void
test_fixture_from_messages (void)
{
  const char * const redact[] = { "content", NULL };
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcTraceCapture) redacting = akc_trace_capture_new (redact);
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autoptr(AkcReplayFixture) again = NULL;
  g_autoptr(AkcReplayFixture) secret = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *secret_text = NULL;
  struct { const char *id; AkcMessageRole role; const char *content; AkcMessageStatus status; } rows[] = {
    { "u1", AKC_MESSAGE_ROLE_USER, "/start", AKC_MESSAGE_STATUS_COMPLETE },
    { "a1", AKC_MESSAGE_ROLE_ASSISTANT, "What is your name?", AKC_MESSAGE_STATUS_COMPLETE },
    { "u2", AKC_MESSAGE_ROLE_USER, "/fail", AKC_MESSAGE_STATUS_COMPLETE },
    { "a2", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_ERROR },
    { "u3", AKC_MESSAGE_ROLE_USER, "unanswered", AKC_MESSAGE_STATUS_COMPLETE },
  };
  AkcJsonValue *chunks;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autoptr(AkcMessage) m = akc_message_new (rows[i].id, rows[i].role, rows[i].content, rows[i].status);

      g_list_store_append (messages, m);
    }
  record = akc_trace_capture_capture_turn (capture, AKC_TRACE_KIND_DETERMINISTIC, "start", "idle", "collecting", NULL, &error);
  g_assert_no_error (error);

  fixture = akc_replay_fixture_new_from_messages (G_LIST_MODEL (messages), capture, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (akc_replay_fixture_get_n_entries (fixture), ==, 3);
  g_assert_cmpuint (akc_json_value_get_length (akc_replay_fixture_get_entry_messages (fixture, 1)), ==, 3);
  chunks = akc_replay_fixture_get_entry_chunks (fixture, 0);
  g_assert_cmpuint (akc_json_value_get_length (chunks), ==, 2);
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (chunks, 0), "content"), ==, "What is your name?");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (chunks, 1), "type"), ==, "done");
  chunks = akc_replay_fixture_get_entry_chunks (fixture, 1);
  g_assert_cmpuint (akc_json_value_get_length (chunks), ==, 1);
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_element (chunks, 0), "type"), ==, "error");
  g_assert_cmpuint (akc_json_value_get_length (akc_replay_fixture_get_entry_chunks (fixture, 2)), ==, 0);
  g_assert_cmpuint (akc_replay_fixture_get_traces (fixture)->len, ==, 1);

  text = akc_replay_fixture_serialize (fixture);
  again = akc_replay_fixture_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (akc_replay_fixture_get_n_entries (again), ==, 3);

  secret = akc_replay_fixture_new_from_messages (G_LIST_MODEL (messages), redacting, &error);
  g_assert_no_error (error);
  secret_text = akc_replay_fixture_serialize (secret);
  g_assert_null (strstr (secret_text, "What is your name?"));
  g_assert_nonnull (strstr (secret_text, "[REDACTED]"));
}

/* Wire events: redacted with the capture's fields and, always, the names
 * that never show (token, input, sessionId, API keys …) at any depth;
 * the caller's event untouched; a bounded ring; an oversized event
 * omitted, not kept. */
static void
on_wire_event (AkcTraceCapture *capture,
               AkcJsonValue    *event,
               guint           *count)
{
  (*count)++;
}

static void
test_wire_events (void)
{
  const char * const redact[] = { "Private", NULL };
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (redact);
  g_autoptr(AkcJsonValue) event = akc_test_parse_json ("{\"type\":\"server.thing\",\"Token\":\"t-1\",\"payload\":{\"input\":\"typed\","
                                         "\"nested\":[{\"SESSIONID\":\"s-1\",\"apiKey\":\"k\",\"private\":1,\"kept\":\"yes\"}]},"
                                         "\"headers\":{\"Authorization\":\"Bearer b\"}}");
  g_autofree char *before = akc_json_value_to_canonical (event, NULL);
  g_autofree char *after = NULL;
  g_autofree char *kept_text = NULL;
  g_autofree char *huge = NULL;
  g_autoptr(AkcJsonValue) kept = NULL;
  g_autoptr(AkcJsonValue) big = NULL;
  g_autoptr(AkcJsonValue) omitted = NULL;
  g_autoptr(GPtrArray) events = NULL;
  AkcJsonValue *inner;
  gint64 now = 0;
  guint count = 0;

  akc_trace_capture_set_clock (capture, fixed_clock, &now, NULL);
  g_signal_connect (capture, "wire-event-added", G_CALLBACK (on_wire_event), &count);
  kept = akc_trace_capture_add_wire_event (capture, "turn", "received", event);
  g_assert_cmpuint (count, ==, 1);
  after = akc_json_value_to_canonical (event, NULL);
  g_assert_cmpstr (before, ==, after);

  g_assert_cmpstr (akc_test_member_string (kept, "source"), ==, "turn");
  g_assert_cmpstr (akc_test_member_string (kept, "direction"), ==, "received");
  g_assert_cmpstr (akc_test_member_string (kept, "type"), ==, "server.thing");
  g_assert_cmpstr (akc_test_member_string (kept, "at"), ==, "1970-01-01T00:00:00.000Z");
  inner = akc_json_value_get_member (kept, "event");
  g_assert_cmpstr (akc_test_member_string (inner, "Token"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_member (inner, "payload"), "input"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (akc_json_value_get_member (inner, "headers"), "Authorization"), ==, "[REDACTED]");
  inner = akc_json_value_get_element (akc_json_value_get_member (akc_json_value_get_member (inner, "payload"), "nested"), 0);
  g_assert_cmpstr (akc_test_member_string (inner, "SESSIONID"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (inner, "apiKey"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (inner, "private"), ==, "[REDACTED]");
  g_assert_cmpstr (akc_test_member_string (inner, "kept"), ==, "yes");
  kept_text = akc_json_value_to_canonical (kept, NULL);
  g_assert_null (strstr (kept_text, "t-1"));
  g_assert_null (strstr (kept_text, "typed"));
  g_assert_null (strstr (kept_text, "Bearer"));

  /* Wire events are not records: the §10.1 records stay as they were. */
  g_assert_cmpuint (akc_trace_capture_get_n_records (capture), ==, 0);

  /* A bounded ring: the oldest go first, sequences keep counting. */
  akc_trace_capture_set_max_wire_events (capture, 3);
  for (guint i = 0; i < 4; i++)
    akc_json_value_unref (akc_trace_capture_add_wire_event (capture, "ask", "sent", event));
  g_assert_cmpuint (akc_trace_capture_get_n_wire_events (capture), ==, 3);
  g_assert_cmpuint (akc_trace_capture_get_max_wire_events (capture), ==, 3);
  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 3);
  g_assert_cmpint (akc_json_value_get_number (akc_json_value_get_member (g_ptr_array_index (events, 0), "sequence")), ==, 2);
  g_assert_cmpint (akc_json_value_get_number (akc_json_value_get_member (g_ptr_array_index (events, 2), "sequence")), ==, 4);

  /* Over 64 KiB once its strings are cut to 4 KiB each: only its size
   * is kept. */
  huge = g_strnfill (4000, 'x');
  {
    AkcJsonValue *parts[20];

    for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
      parts[i] = akc_json_value_new_string (huge, -1);
    big = akc_json_value_new_array (parts, G_N_ELEMENTS (parts));
    for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
      akc_json_value_unref (parts[i]);
  }
  omitted = akc_trace_capture_add_wire_event (capture, "provider", "received", big);
  g_assert_cmpint (akc_json_value_get_number (akc_json_value_get_member (akc_json_value_get_member (omitted, "event"),
                                                                        "omittedBytes")), >, 70000);
  g_assert_null (akc_test_member_string (omitted, "type"));
  g_assert_cmpuint (count, ==, 6);

  akc_trace_capture_clear (capture);
  g_assert_cmpuint (akc_trace_capture_get_n_wire_events (capture), ==, 0);
}

/* A chat whose adapter is wrapped: the request (without the messages'
 * text), each chunk and the end of each turn, done, failed or stopped. */
static void
test_wrap_adapter (void)
{
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(AkcAdapter) echo = akc_echo_adapter_new ();
  g_autoptr(AkcAdapter) wrapped = akc_trace_capture_wrap_adapter (capture, echo, "provider");
  g_autoptr(AkcChat) chat = akc_chat_new (wrapped);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *all = NULL;
  GString *text = g_string_new (NULL);
  AkcJsonValue *last;

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "secret question", &error));
  g_assert_no_error (error);
  wait_until_idle (AKC_CHAT_SOURCE (chat));

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, >=, 3);
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 0), "direction"), ==, "sent");
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 0), "type"), ==, "request");
  g_assert_cmpint (akc_json_value_get_number (akc_json_value_get_member (akc_json_value_get_member (g_ptr_array_index (events, 0), "event"),
                                                                        "messageCount")), >=, 1);
  for (guint i = 1; i + 1 < events->len; i++)
    {
      AkcJsonValue *event = akc_json_value_get_member (g_ptr_array_index (events, i), "event");

      g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, i), "source"), ==, "provider");
      g_assert_cmpstr (akc_test_member_string (event, "type"), ==, "text");
      g_string_append (text, akc_test_member_string (event, "content"));
    }
  g_assert_cmpstr (text->str, ==, "AgentsKit received: secret question");
  g_string_free (text, TRUE);
  last = g_ptr_array_index (events, events->len - 1);
  g_assert_cmpstr (akc_test_member_string (last, "type"), ==, "done");
  all = akc_json_value_to_canonical (g_ptr_array_index (events, 0), NULL);
  g_assert_null (strstr (all, "secret question"));

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/fail", &error));
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "/slow", &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    g_main_context_iteration (NULL, FALSE);
  akc_chat_source_stop (AKC_CHAT_SOURCE (chat));
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  /* The stop is recorded once the main loop has run. */
  WAIT_UNTIL (akc_trace_capture_get_n_records (capture) >= 3);

  records = akc_trace_capture_snapshot (capture);
  g_assert_cmpuint (records->len, ==, 3);
  for (guint i = 0; i < records->len; i++)
    {
      AkcTraceRecord *record = g_ptr_array_index (records, i);
      const char *expected[] = { "done", "error", "stopped" };

      g_assert_cmpint (akc_trace_record_get_category (record), ==, AKC_TRACE_CATEGORY_AGENT);
      g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (record), "fromState"), ==, "streaming");
      g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (record), "toState"), ==, expected[i]);
    }

  /* The wrapper does not keep the capture: a chat outliving it still answers. */
  g_clear_object (&capture);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (chat), "after", &error));
  wait_until_idle (AKC_CHAT_SOURCE (chat));
  g_assert_cmpint (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)), ==, AKC_CHAT_STATUS_IDLE);
}

/* A conversation the turn server keeps: the submit event (what the
 * person typed and the session never shown), each snapshot, and a turn
 * record for each change of status. */
static void
test_watch_turn_client (void)
{
  g_autoptr(AkcTraceCapture) capture = akc_trace_capture_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTurnClient) client = akc_turn_client_new ("https://turn.invalid/turn", "desk-1", &error);
  g_autoptr(GInputStream) response = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *sent = NULL;
  const char *statuses[] = { "streaming", "streaming", "complete" };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    g_string_append_printf (body,
                            "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e%u\","
                            "\"sessionId\":\"desk-1\",\"turnId\":\"t1\",\"sequence\":%u,"
                            "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"server.turn.snapshot\","
                            "\"payload\":{\"messages\":["
                            "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\",\"status\":\"complete\","
                            "\"createdAt\":\"2026-07-11T00:00:00.000Z\"},"
                            "{\"id\":\"a1\",\"role\":\"assistant\",\"content\":\"hel%s\",\"status\":\"%s\","
                            "\"createdAt\":\"2026-07-11T00:00:01.000Z\"}],"
                            "\"status\":\"%s\",\"usage\":{\"promptTokens\":1,\"completionTokens\":1,\"totalTokens\":2}}}\n",
                            i, i + 1, i == 2 ? "lo" : "", i == 2 ? "complete" : "streaming", statuses[i]);
  response = g_memory_input_stream_new_from_data (g_strdup (body->str), body->len, g_free);

  akc_trace_capture_watch_turn_client (capture, client);
  g_assert_true (akc_turn_client_submit_with_response (client, "my secret words", 200, response, &error));
  g_assert_no_error (error);
  WAIT_UNTIL (!akc_turn_client_get_busy (client));

  events = akc_trace_capture_dup_wire_events (capture);
  g_assert_cmpuint (events->len, ==, 4);
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 0), "direction"), ==, "sent");
  g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, 0), "type"), ==, "client.turn.submit");
  sent = akc_json_value_to_canonical (g_ptr_array_index (events, 0), NULL);
  g_assert_null (strstr (sent, "my secret words"));
  g_assert_null (strstr (sent, "desk-1"));
  for (guint i = 1; i < events->len; i++)
    {
      AkcJsonValue *event = akc_json_value_get_member (g_ptr_array_index (events, i), "event");

      g_assert_cmpstr (akc_test_member_string (g_ptr_array_index (events, i), "type"), ==, "server.turn.snapshot");
      g_assert_cmpstr (akc_test_member_string (event, "sessionId"), ==, "[REDACTED]");
    }

  records = akc_trace_capture_snapshot (capture);
  g_assert_cmpuint (records->len, ==, 2);
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 0)), "fromState"), ==, "idle");
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 0)), "toState"), ==, "streaming");
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 1)), "fromState"), ==, "streaming");
  g_assert_cmpstr (akc_test_member_string (akc_trace_record_get_detail (g_ptr_array_index (records, 1)), "toState"), ==, "complete");
  g_assert_cmpstr (akc_trace_capture_get_current_turn (capture), ==, "trace-1");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/devtools.json", "/devtools/fixtures", "traceCapture", run_trace_capture, NULL);
  akc_fixture_add_tests ("application/devtools.json", "/devtools/fixtures", "parseReplayFixture", run_parse_replay, NULL);
  akc_fixture_add_tests ("application/devtools.json", "/devtools/fixtures", "serializeReplayFixture", run_serialize_replay, NULL);
  akc_fixture_add_tests ("application/devtools.json", "/devtools/fixtures", "compareRendererOutcomes", run_compare, NULL);

  g_test_add_func ("/devtools/trace/snapshot-immutable", test_snapshot_is_immutable);
  g_test_add_func ("/devtools/trace/redacted-projections", test_redaction_of_projections);
  g_test_add_func ("/devtools/trace/watch-policy", test_watch_policy);
  g_test_add_func ("/devtools/replay/adapter", test_replay_adapter);
  g_test_add_func ("/devtools/replay/rejects", test_replay_rejects);
  g_test_add_func ("/devtools/replay/from-messages", test_fixture_from_messages);
  g_test_add_func ("/devtools/wire/events", test_wire_events);
  g_test_add_func ("/devtools/wire/adapter", test_wrap_adapter);
  g_test_add_func ("/devtools/wire/turn-client", test_watch_turn_client);

  return g_test_run ();
}

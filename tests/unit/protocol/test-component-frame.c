/* test-component-frame.c: render frames, selection and interaction events
 * (protocol.md §3)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-frame.h"
#include "akc-fixture.h"
#include "akc-json-private.h"
#include "akc-test.h"

/* Checks a decode result against a fixture expectation. */
static void
check_result (const AkcFixtureCase *fc,
              AkcJsonValue         *frame,
              AkcDiagnostic        *diagnostic)
{
  AkcJsonValue *expected;

  if (!akc_fixture_expect_ok (fc))
    {
      const char *message = akc_fixture_expect_string (fc, "message");

      g_assert_null (frame);
      g_assert_nonnull (diagnostic);
      g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, akc_fixture_expect_string (fc, "code"));
      if (message != NULL)
        g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, message);
      g_assert_false (akc_diagnostic_get_retryable (diagnostic));
      g_assert_null (akc_diagnostic_get_event_id (diagnostic));
      return;
    }

  g_assert_null (diagnostic);
  g_assert_nonnull (frame);
  expected = akc_fixture_expect (fc, "value");
  if (expected != NULL)
    akc_assert_json_equal (frame, expected);
  if (akc_fixture_expect_string (fc, "canonical") != NULL)
    akc_assert_canonical (frame, akc_fixture_expect_string (fc, "canonical"));
}

static void
run_decode_case (const AkcFixtureCase *fc,
                 gconstpointer         user_data)
{
  gsize len;
  g_autofree char *text = akc_fixture_input_text (fc, &len);
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;

  /* The text form, always (for value cases: the canonical text). */
  frame = akc_component_frame_decode (text, len, &diagnostic);
  check_result (fc, frame, diagnostic);

  /* The value form agrees for every text that parses. */
  if (g_strcmp0 (fc->input_kind, "value") == 0)
    {
      g_autoptr(AkcJsonValue) frame2 = NULL;
      g_autoptr(AkcDiagnostic) diagnostic2 = NULL;

      frame2 = akc_component_frame_decode_value (fc->input, &diagnostic2);
      check_result (fc, frame2, diagnostic2);
    }
  else
    {
      g_autoptr(AkcJsonValue) parsed = akc_json_parse (text, len, NULL, NULL, NULL);

      if (parsed != NULL)
        {
          g_autoptr(AkcJsonValue) frame2 = NULL;
          g_autoptr(AkcDiagnostic) diagnostic2 = NULL;

          frame2 = akc_component_frame_decode_value (parsed, &diagnostic2);
          check_result (fc, frame2, diagnostic2);
        }
    }

  /* A decoded frame re-encodes to text that decodes to the same frame,
   * and the frame is a candidate. */
  if (frame != NULL)
    {
      g_autofree char *canonical = akc_json_value_to_canonical (frame, NULL);
      g_autoptr(AkcJsonValue) again = akc_component_frame_decode (canonical, -1, NULL);

      akc_assert_json_equal (again, frame);
      akc_assert_canonical (again, canonical);
      g_assert_true (akc_component_frame_is_candidate (canonical, -1));
    }
}

static void
run_selection_case (const AkcFixtureCase *fc,
                    gconstpointer         user_data)
{
  AkcJsonValue *frame = akc_json_value_get_member (fc->input, "frame");
  AkcJsonValue *choice = akc_json_value_get_member (fc->input, "choiceId");
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) event = NULL;

  event = akc_component_selection_event_new (frame, akc_json_value_get_string (choice, NULL), &error);
  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (event);
      g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
      return;
    }

  g_assert_no_error (error);
  akc_assert_json_equal (event, akc_fixture_expect (fc, "value"));
  if (akc_fixture_expect_string (fc, "canonical") != NULL)
    akc_assert_canonical (event, akc_fixture_expect_string (fc, "canonical"));
}

static void
run_interaction_case (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  AkcJsonValue *frame = akc_json_value_get_member (fc->input, "frame");
  AkcJsonValue *name = akc_json_value_get_member (fc->input, "event");
  /* a `value` member present in the input, even null, is passed */
  AkcJsonValue *value = akc_json_value_get_member (fc->input, "value");
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) event = NULL;

  event = akc_component_interaction_event_new (frame, akc_json_value_get_string (name, NULL), value, &error);
  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (event);
      g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
      return;
    }

  g_assert_no_error (error);
  akc_assert_json_equal (event, akc_fixture_expect (fc, "value"));
  if (akc_fixture_expect_string (fc, "canonical") != NULL)
    akc_assert_canonical (event, akc_fixture_expect_string (fc, "canonical"));
}

static void
run_candidate_case (const AkcFixtureCase *fc,
                    gconstpointer         user_data)
{
  gsize len;
  g_autofree char *text = akc_fixture_input_text (fc, &len);
  AkcJsonValue *result = akc_fixture_expect (fc, "result");

  g_assert_cmpint (akc_component_frame_is_candidate (text, len), ==, akc_json_value_get_boolean (result));
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

#define FALLBACK "\"fallback\":{\"kind\":\"k\",\"summary\":\"s\"}"
#define HEAD "\"protocol\":\"agentskit.chat.component\""

static const char *
code_of (const char *text)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) frame = akc_component_frame_decode (text, -1, &diagnostic);
  static char code[64];

  if (frame != NULL)
    {
      g_assert_null (diagnostic);
      return "OK";
    }
  g_assert_nonnull (diagnostic);
  g_strlcpy (code, akc_diagnostic_get_code (diagnostic), sizeof code);
  return code;
}

/* §3.5 step order and §10 item 12, one step at a time. */
static void
test_precedence (void)
{
  const char *base = "{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":null," FALLBACK "}";

  g_assert_cmpstr (code_of (base), ==, "OK");
  /* step 1 */
  g_assert_cmpstr (code_of (""), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("{"), ==, "COMPONENT_INVALID_FRAME");
  {
    g_autoptr(AkcDiagnostic) d = NULL;
    g_assert_null (akc_component_frame_decode ("{\"a\":1,}", -1, &d));
    g_assert_cmpstr (akc_diagnostic_get_message (d), ==, "Component frame is not valid JSON.");
  }
  /* step 2.1 before 2.2: a numeric version other than 1 wins over the type */
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":2,\"type\":\"select\"}"), ==, "COMPONENT_UNSUPPORTED_VERSION");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":0}"), ==, "COMPONENT_UNSUPPORTED_VERSION");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1e999,\"type\":\"render\"}"), ==, "COMPONENT_UNSUPPORTED_VERSION");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1.5,\"type\":\"render\"}"), ==, "COMPONENT_UNSUPPORTED_VERSION");
  /* 1.0 and 1e0 are version 1 */
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1e0,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1," FALLBACK "}"), ==, "OK");
  /* step 2.2 with missing, string, null or boolean versions */
  g_assert_cmpstr (code_of ("{" HEAD ",\"type\":\"interact\"}"), ==, "COMPONENT_UNKNOWN_TYPE");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":\"2\",\"type\":\"select\"}"), ==, "COMPONENT_UNKNOWN_TYPE");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":null}"), ==, "COMPONENT_UNKNOWN_TYPE");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":true,\"type\":\"RENDER\"}"), ==, "COMPONENT_UNKNOWN_TYPE");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":[\"render\"]}"), ==, "COMPONENT_UNKNOWN_TYPE");
  /* …but a render type with a bad version is step 3 */
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":\"1\",\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1," FALLBACK "}"), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("{" HEAD ",\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1," FALLBACK "}"), ==, "COMPONENT_INVALID_FRAME");
  /* step 2 applies only to the exact protocol string */
  g_assert_cmpstr (code_of ("{\"protocol\":\"agentskit.chat.componentx\",\"version\":2,\"type\":\"select\"}"), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("{\"protocol\":\"agentskit.chat.component \",\"version\":2}"), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("{\"version\":2,\"type\":\"select\"}"), ==, "COMPONENT_INVALID_FRAME");
  /* non-objects, and a JSON string holding a frame (not parsed twice) */
  g_assert_cmpstr (code_of ("[]"), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("null"), ==, "COMPONENT_INVALID_FRAME");
  {
    g_autoptr(GString) quoted = g_string_new ("\"");
    for (const char *p = base; *p; p++)
      {
        if (*p == '"')
          g_string_append_c (quoted, '\\');
        g_string_append_c (quoted, *p);
      }
    g_string_append_c (quoted, '"');
    g_assert_cmpstr (code_of (quoted->str), ==, "COMPONENT_INVALID_FRAME");
    g_assert_false (akc_component_frame_is_candidate (quoted->str, -1));
  }
  /* props must be present; null is a value */
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\"," FALLBACK "}"), ==, "COMPONENT_INVALID_FRAME");
  /* fallback: kind 1..64, summary 1..4096 units; not trimmed, not patterned */
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1,\"fallback\":{\"kind\":\"\",\"summary\":\"s\"}}"), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1,\"fallback\":{\"kind\":\" Any Kind! \",\"summary\":\" \"}}"), ==, "OK");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1,\"fallback\":null}"), ==, "COMPONENT_INVALID_FRAME");
  /* componentKey and instanceId: JavaScript `$` does not match before a final LF */
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\\n\",\"instanceId\":\"i\",\"props\":1," FALLBACK "}"), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (code_of ("{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\\n\",\"props\":1," FALLBACK "}"), ==, "COMPONENT_INVALID_FRAME");
}

/* Bounds at n and n + 1 that the fixtures do not reach. */
static void
test_bounds (void)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint i;

  /* componentKey: 64 characters ok, 65 not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k");
      for (guint j = 0; j < 63 + i; j++)
        g_string_append_c (s, 'a');
      g_string_append (s, "\",\"instanceId\":\"i\",\"props\":1," FALLBACK "}");
      g_assert_cmpstr (code_of (s->str), ==, i == 0 ? "OK" : "COMPONENT_INVALID_FRAME");
    }

  /* fallback kind: 32 emoji = 64 units ok, 33 not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":1,\"fallback\":{\"kind\":\"");
      for (guint j = 0; j < 32 + i; j++)
        g_string_append (s, "\xF0\x9F\x98\x80");
      g_string_append (s, "\",\"summary\":\"s\"}}");
      g_assert_cmpstr (code_of (s->str), ==, i == 0 ? "OK" : "COMPONENT_INVALID_FRAME");
    }

  /* props object with 999 members = 1000 values ok, 1000 members not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":{");
      for (guint j = 0; j < 999 + i; j++)
        g_string_append_printf (s, "%s\"m%u\":0", j ? "," : "", j);
      g_string_append (s, "}," FALLBACK "}");
      g_assert_cmpstr (code_of (s->str), ==, i == 0 ? "OK" : "COMPONENT_INVALID_FRAME");
    }

  /* props member name: 256 units ok, 257 not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "{" HEAD ",\"version\":1,\"type\":\"render\",\"componentKey\":\"k\",\"instanceId\":\"i\",\"props\":{\"");
      for (guint j = 0; j < 256 + i; j++)
        g_string_append_c (s, 'n');
      g_string_append (s, "\":1}," FALLBACK "}");
      g_assert_cmpstr (code_of (s->str), ==, i == 0 ? "OK" : "COMPONENT_INVALID_FRAME");
    }
}

static void
test_candidate (void)
{
  g_autoptr(AkcJsonValue) object = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.component\"}");
  g_autoptr(AkcJsonValue) other = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.turn\"}");
  g_autoptr(AkcJsonValue) array = akc_test_parse_json ("[\"agentskit.chat.component\"]");

  g_assert_true (akc_component_frame_is_candidate ("{\"protocol\":\"agentskit.chat.component\"}", -1));
  g_assert_true (akc_component_frame_is_candidate (" {\"version\":9,\"protocol\":\"agentskit.chat.component\"}\n", -1));
  g_assert_false (akc_component_frame_is_candidate ("{\"protocol\":\"agentskit.chat.component\"", -1));
  g_assert_false (akc_component_frame_is_candidate ("{\"protocol\":1}", -1));
  g_assert_false (akc_component_frame_is_candidate ("", 0));
  g_assert_false (akc_component_frame_is_candidate ("\x1e" "agentskit.chat.content/1\n", -1));
  g_assert_true (akc_component_frame_is_candidate_value (object));
  g_assert_false (akc_component_frame_is_candidate_value (other));
  g_assert_false (akc_component_frame_is_candidate_value (array));
}

static void
test_events (void)
{
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\",\"componentKey\":\"form\",\"instanceId\":\"f-1\",\"props\":{},\"fallback\":{\"kind\":\"form\",\"summary\":\"A form.\"}}");
  g_autoptr(AkcJsonValue) keyless = akc_test_parse_json ("{\"instanceId\":\"f-1\"}");
  g_autoptr(AkcJsonValue) deep = NULL;
  g_autoptr(AkcJsonValue) ok_deep = NULL;
  g_autoptr(AkcJsonValue) bad_number = akc_test_parse_json ("[1e999]");
  g_autoptr(GString) s = g_string_new (NULL);
  AkcJsonValue *event;
  GError *error = NULL;
  guint i;

  /* a frame without a valid key cannot make events */
  g_assert_null (akc_component_selection_event_new (keyless, "a", &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_null (akc_component_interaction_event_new (keyless, "submit", NULL, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
  g_clear_error (&error);

  /* choiceId is a SafeId: 128 ok, 129 not */
  for (i = 0; i < 2; i++)
    {
      g_string_assign (s, "c");
      for (guint j = 0; j < 127 + i; j++)
        g_string_append_c (s, 'x');
      event = akc_component_selection_event_new (frame, s->str, i == 0 ? NULL : &error);
      g_assert_true ((event != NULL) == (i == 0));
      g_clear_pointer (&event, akc_json_value_unref);
    }
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
  g_clear_error (&error);

  /* the value is a bounded JSON value: depth 20 ok, 21 not */
  g_string_truncate (s, 0);
  for (i = 0; i < 20; i++)
    g_string_append_c (s, '[');
  g_string_append_c (s, '0');
  for (i = 0; i < 20; i++)
    g_string_append_c (s, ']');
  ok_deep = akc_test_parse_json (s->str);
  g_string_prepend_c (s, '[');
  g_string_append_c (s, ']');
  deep = akc_test_parse_json (s->str);
  event = akc_component_interaction_event_new (frame, "submit", ok_deep, NULL);
  g_assert_nonnull (event);
  g_clear_pointer (&event, akc_json_value_unref);
  g_assert_null (akc_component_interaction_event_new (frame, "submit", deep, &error));
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_null (akc_component_interaction_event_new (frame, "submit", bad_number, NULL));
  g_assert_null (akc_component_interaction_event_new (frame, "", NULL, NULL));
  g_assert_null (akc_component_interaction_event_new (frame, "submit\n", NULL, NULL));

  /* events are copied from the frame: a foreign member order does not matter */
  event = akc_component_selection_event_new (frame, "docs", NULL);
  akc_assert_canonical (event, "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"select\",\"componentKey\":\"form\",\"instanceId\":\"f-1\",\"choiceId\":\"docs\"}");
  g_clear_pointer (&event, akc_json_value_unref);
}

static void
test_fallback_text (void)
{
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json ("{\"fallback\":{\"kind\":\"table\",\"summary\":\"3 rows.\"}}");
  g_autoptr(AkcJsonValue) bad = akc_test_parse_json ("{\"fallback\":{\"kind\":\"\",\"summary\":\"x\"}}");
  g_autofree char *text = akc_component_frame_dup_fallback_text (frame);

  g_assert_cmpstr (text, ==, "[unsupported visual: table] 3 rows.");
  g_assert_null (akc_component_frame_dup_fallback_text (bad));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("protocol/component-frames.json", "/component-frame/fixtures",
                         "decodeComponentFrame", run_decode_case, NULL);
  akc_fixture_add_tests ("protocol/component-frames.json", "/component-frame/fixtures",
                         "createSelectionEvent", run_selection_case, NULL);
  akc_fixture_add_tests ("protocol/component-frames.json", "/component-frame/fixtures",
                         "createInteractionEvent", run_interaction_case, NULL);
  akc_fixture_add_tests ("protocol/component-frames.json", "/component-frame/fixtures",
                         "isComponentFrameCandidate", run_candidate_case, NULL);

  g_test_add_func ("/component-frame/precedence", test_precedence);
  g_test_add_func ("/component-frame/bounds", test_bounds);
  g_test_add_func ("/component-frame/candidate", test_candidate);
  g_test_add_func ("/component-frame/events", test_events);
  g_test_add_func ("/component-frame/fallback-text", test_fallback_text);

  return g_test_run ();
}

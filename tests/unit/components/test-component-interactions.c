/* test-component-interactions.c: interaction events, selections, choice
 * actions and the choice-submission hook (application.md §2.5–§2.8)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-component-test.h"
#include "akc-test.h"

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

/* createInteraction {manifest, frame, event, value?} → {ok, event} | {ok:false, error} */
static void
run_create_interaction (const AkcFixtureCase *fc,
                        gconstpointer         user_data)
{
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest (akc_test_input_string (fc, "manifest"));
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) event = NULL;

  /* An absent `value` is NULL; a JSON null is a value. */
  event = akc_component_manifest_create_interaction (manifest,
                                                     akc_test_input (fc, "frame"),
                                                     akc_test_input_string (fc, "event"),
                                                     akc_test_input (fc, "value"),
                                                     &error);

  if (akc_fixture_expect_ok (fc))
    {
      g_assert_no_error (error);
      akc_assert_json_equal (event, akc_fixture_expect (fc, "event"));
    }
  else
    {
      g_assert_null (event);
      akc_test_assert_error (error, akc_fixture_expect (fc, "error"));
    }
}

/* selectChoice {frame, choiceId} → {ok, event} | {ok:false, error} */
static void
run_select_choice (const AkcFixtureCase *fc,
                   gconstpointer         user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) event = akc_choice_list_select (akc_test_input (fc, "frame"),
                                                          akc_test_input_string (fc, "choiceId"),
                                                          &error);

  if (akc_fixture_expect_ok (fc))
    {
      g_assert_no_error (error);
      akc_assert_json_equal (event, akc_fixture_expect (fc, "event"));
    }
  else
    {
      g_assert_null (event);
      akc_test_assert_error (error, akc_fixture_expect (fc, "error"));
    }
}

/* resolveChoiceAction {frame, choiceId} → {action | null} */
static void
run_resolve_choice_action (const AkcFixtureCase *fc,
                           gconstpointer         user_data)
{
  g_autoptr(AkcJsonValue) action = akc_choice_list_resolve_action (akc_test_input (fc, "frame"),
                                                                   akc_test_input_string (fc, "choiceId"));
  AkcJsonValue *expected = akc_fixture_expect (fc, "action");

  g_assert_nonnull (expected);
  if (akc_json_value_get_kind (expected) == AKC_JSON_KIND_NULL)
    g_assert_null (action);
  else
    akc_assert_json_equal (action, expected);
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

#define FRAME(key, props) \
  "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\",\"componentKey\":\"" key \
  "\",\"instanceId\":\"" key "-1\",\"props\":" props ",\"fallback\":{\"kind\":\"" key "\",\"summary\":\"S.\"}}"

#define NUMBER_FORM FRAME ("form", "{\"submitLabel\":\"Go\",\"fields\":[{\"id\":\"n\",\"label\":\"N\",\"type\":\"number\"}]}")

static gboolean
interaction_ok (const char *manifest_name,
                const char *frame_text,
                const char *event,
                AkcJsonValue *value)
{
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest (manifest_name);
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json (frame_text);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) result = akc_component_manifest_create_interaction (manifest, frame, event, value, &error);

  g_assert_true ((result == NULL) == (error != NULL));
  return result != NULL;
}

static gboolean
number_ok (const char *text)
{
  g_autoptr(AkcJsonValue) string = akc_json_value_new_string (text, -1);
  g_autoptr(AkcJsonValue) value = akc_json_value_new_object ((const char *[]) { "n" }, &string, 1);

  return interaction_ok ("standard", NUMBER_FORM, "submit", value);
}

static void
test_form_numbers (void)
{
  /* ECMAScript StringToNumber (§14 A4) */
  const char *accepted[] = {
    "0", "-0", "12", " 12.5 ", "+1", "-1", ".5", "5.", "1e3", "1E+3", "2.5e-3", "0x10", "0XfF",
    "0o17", "0B101", "\xc2\xa0" "7\xe2\x80\xa8", "\t\n1\r", "1e308", "00012",
  };
  const char *rejected[] = {
    "twelve", "Infinity", "-Infinity", "+Infinity", "NaN", "inf", "1e", "e3", ".", "+", "-.e1",
    "1_000", "0x", "0xg", "-0x10", "+0x10", "0o8", "0b2", "12px", "1 2", "1e400", "0x1p3", "1,5",
  };

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    if (!number_ok (accepted[i]))
      g_error ("\"%s\" should be a finite number", accepted[i]);
  for (guint i = 0; i < G_N_ELEMENTS (rejected); i++)
    if (number_ok (rejected[i]))
      g_error ("\"%s\" should not be a finite number", rejected[i]);

  /* A hex literal is finite until it overflows a double. */
  {
    g_autofree char *ff200 = g_strnfill (200, 'f');
    g_autofree char *ff300 = g_strnfill (300, 'f');
    g_autofree char *finite = g_strconcat ("0x", ff200, NULL);
    g_autofree char *infinite = g_strconcat ("0x", ff300, NULL);

    g_assert_true (number_ok (finite));
    g_assert_false (number_ok (infinite));
  }

  /* Numbers proper, blank strings, other types */
  {
    g_autoptr(AkcJsonValue) v1 = akc_test_parse_json ("{\"n\":-3.5}");
    g_autoptr(AkcJsonValue) v2 = akc_test_parse_json ("{\"n\":\" \"}");
    g_autoptr(AkcJsonValue) v3 = akc_test_parse_json ("{\"n\":true}");
    g_autoptr(AkcJsonValue) v4 = akc_test_parse_json ("{\"n\":1e999}");
    g_autoptr(AkcJsonValue) v5 = akc_test_parse_json ("{}");

    g_assert_true (interaction_ok ("standard", NUMBER_FORM, "submit", v1));
    g_assert_false (interaction_ok ("standard", NUMBER_FORM, "submit", v2));
    g_assert_false (interaction_ok ("standard", NUMBER_FORM, "submit", v3));
    g_assert_false (interaction_ok ("standard", NUMBER_FORM, "submit", v4));
    g_assert_true (interaction_ok ("standard", NUMBER_FORM, "submit", v5));
    g_assert_false (interaction_ok ("standard", NUMBER_FORM, "submit", NULL));
  }
}

static gboolean
custom_ok (const char   *event,
           const char   *value_text)
{
  g_autoptr(AkcJsonValue) value = value_text != NULL ? akc_test_parse_json (value_text) : NULL;

  return interaction_ok ("custom", FRAME ("map-view", "{}"), event, value);
}

static void
test_custom_values (void)
{
  /* id */
  g_assert_true (custom_ok ("pick", "\"A9.b:c-d_e\""));
  g_assert_false (custom_ok ("pick", "\"-a\""));
  g_assert_false (custom_ok ("pick", "7"));
  g_assert_false (custom_ok ("pick", NULL));
  /* url: WHATWG parsing, no length, control or backslash rule (§14 A3) */
  g_assert_true (custom_ok ("go", "\"/\""));
  g_assert_true (custom_ok ("go", "\"/a\\nb\""));
  g_assert_true (custom_ok ("go", "\"https://exa\\tmple.com/\""));
  g_assert_true (custom_ok ("go", "\"https:\\\\\\\\example.com\\\\x\""));
  g_assert_true (custom_ok ("go", "\" \\u0001https://example.com \""));
  g_assert_true (custom_ok ("go", "\"HTTP:example.com\""));
  g_assert_false (custom_ok ("go", "\"https://user@example.com\""));
  g_assert_false (custom_ok ("go", "\"https://exa\\u0001mple.com/\""));
  g_assert_false (custom_ok ("go", "\"mailto:a@b.c\""));
  g_assert_false (custom_ok ("go", "\"\""));
  g_assert_false (custom_ok ("go", "{}"));
  /* form */
  g_assert_true (custom_ok ("send", "{}"));
  g_assert_false (custom_ok ("send", "null"));
  g_assert_false (custom_ok ("send", "\"{}\""));
  /* none: JSON null is a value */
  g_assert_true (custom_ok ("close", NULL));
  g_assert_false (custom_ok ("close", "null"));
}

static void
test_unbounded_value (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest ("custom");
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json (FRAME ("map-view", "{}"));
  g_autofree char *long_text = g_strnfill (16385, 'x');
  g_autofree char *value_text = g_strdup_printf ("{\"t\":\"%s\"}", long_text);
  g_autoptr(AkcJsonValue) value = akc_test_parse_json (value_text);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) event = NULL;

  /* The value passes the `form` rule but is not a bounded JSON value
   * (§0.6): the wire event builder refuses it. */
  event = akc_component_manifest_create_interaction (manifest, frame, "send", value, &error);
  g_assert_null (event);
  g_assert_nonnull (error);
}

static void
test_resolved_interactions (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json (FRAME ("button-group",
                                            "{\"label\":\"A\",\"buttons\":[{\"id\":\"a\",\"label\":\"A\"},{\"id\":\"b\",\"label\":\"B\",\"disabled\":false},{\"id\":\"c\",\"label\":\"C\",\"disabled\":true}]}"));
  g_autoptr(AkcResolvedComponent) resolved = akc_component_manifest_resolve (manifest, frame, NULL);
  g_autoptr(AkcJsonValue) b = akc_json_value_new_string ("b", -1);
  g_autoptr(AkcJsonValue) c = akc_json_value_new_string ("c", -1);
  g_autoptr(AkcJsonValue) event = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_nonnull (resolved);
  event = akc_resolved_component_create_interaction (resolved, "select", b, &error);
  g_assert_no_error (error);
  text = akc_json_value_to_canonical (event, NULL);
  g_assert_cmpstr (text, ==,
                   "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"interact\","
                   "\"componentKey\":\"button-group\",\"instanceId\":\"button-group-1\",\"event\":\"select\",\"value\":\"b\"}");

  g_assert_null (akc_resolved_component_create_interaction (resolved, "select", c, &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_clear_error (&error);

  /* A button group is not a choice list. */
  g_assert_null (akc_resolved_component_select_choice (resolved, "a", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "Selection frame is not a ChoiceList.");
}

static void
test_selection_errors (void)
{
  g_autoptr(AkcJsonValue) invalid_props = akc_test_parse_json (FRAME ("choice-list", "{\"prompt\":\"\",\"choices\":[]}"));
  g_autoptr(AkcJsonValue) not_a_frame = akc_test_parse_json ("{\"componentKey\":\"choice-list\",\"props\":{}}");
  g_autoptr(AkcJsonValue) choices = akc_test_parse_json (FRAME ("choice-list", "{\"prompt\":\"P\",\"choices\":[{\"id\":\"a\",\"label\":\"A\"}]}"));
  g_autoptr(AkcJsonValue) event = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (akc_choice_list_select (invalid_props, "a", &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==, "ChoiceList props are invalid.");
  g_clear_error (&error);

  g_assert_null (akc_choice_list_select (not_a_frame, "a", &error));
  g_assert_cmpstr (error->message, ==, "Selection frame is not a ChoiceList.");
  g_clear_error (&error);

  g_assert_null (akc_choice_list_resolve_action (invalid_props, "a"));
  g_assert_null (akc_choice_list_resolve_action (not_a_frame, "a"));
  g_assert_null (akc_choice_list_resolve_action (choices, "a"));

  event = akc_choice_list_select (choices, "a", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (event, "type"), NULL), ==, "select");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (event, "choiceId"), NULL), ==, "a");
}

typedef struct {
  guint commits;
  guint releases;
  guint destroyed;
  gboolean fail;
} Settle;

static gboolean
settle_cb (AkcChoiceSubmission  *submission,
           AkcChoiceSettlement   settlement,
           gpointer              user_data,
           GError              **error)
{
  Settle *s = user_data;

  g_assert_true (AKC_IS_CHOICE_SUBMISSION (submission));
  if (settlement == AKC_CHOICE_SETTLEMENT_COMMIT)
    s->commits++;
  else
    s->releases++;

  if (s->fail)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "storage is gone");
      return FALSE;
    }
  return TRUE;
}

static void
settle_destroy (gpointer user_data)
{
  ((Settle *) user_data)->destroyed++;
}

static void
test_choice_submission (void)
{
  Settle s = { 0 };
  AkcChoiceSubmission *submission;
  g_autoptr(GError) error = NULL;

  submission = akc_choice_submission_new_unavailable ();
  g_assert_cmpint (akc_choice_submission_get_kind (submission), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);
  g_assert_null (akc_choice_submission_get_value (submission));
  g_assert_true (akc_choice_submission_is_settled (submission));
  g_assert_true (akc_choice_submission_commit (submission, &error));
  g_assert_finalize_object (submission);

  /* A reservation settles once. */
  submission = akc_choice_submission_new_reservation ("Open the docs", settle_cb, &s, settle_destroy);
  g_assert_cmpint (akc_choice_submission_get_kind (submission), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_cmpstr (akc_choice_submission_get_value (submission), ==, "Open the docs");
  g_assert_false (akc_choice_submission_is_settled (submission));
  g_assert_true (akc_choice_submission_commit (submission, &error));
  g_assert_true (akc_choice_submission_is_settled (submission));
  g_assert_true (akc_choice_submission_release (submission, &error));
  g_assert_true (akc_choice_submission_commit (submission, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (s.commits, ==, 1);
  g_assert_cmpuint (s.releases, ==, 0);
  g_assert_finalize_object (submission);
  g_assert_cmpuint (s.destroyed, ==, 1);

  /* A failing settlement reports its error, and still counts. */
  s = (Settle) { .fail = TRUE };
  submission = akc_choice_submission_new_reservation ("x", settle_cb, &s, NULL);
  g_assert_false (akc_choice_submission_release (submission, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_true (akc_choice_submission_is_settled (submission));
  g_assert_true (akc_choice_submission_release (submission, &error));
  g_assert_cmpuint (s.releases, ==, 1);
  g_assert_finalize_object (submission);
  g_assert_cmpuint (s.destroyed, ==, 0);
}

/* A hook as a view would call it (§2.8, §12.7 step 5). */
static AkcChoiceSubmission *
hook (AkcJsonValue  *frame,
      const char    *choice_id,
      const char    *session_id,
      gpointer       user_data,
      GError       **error)
{
  Settle *s = user_data;

  if (g_strcmp0 (session_id, "unknown") == 0)
    return akc_choice_submission_new_unavailable ();
  if (g_strcmp0 (choice_id, "boom") == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "denied");
      return NULL;
    }
  if (g_strcmp0 (choice_id, "host") == 0)
    return NULL;
  return akc_choice_submission_new_reservation (choice_id, settle_cb, s, NULL);
}

static void
test_choice_submission_hook (void)
{
  AkcChoiceSubmissionFunc func = hook;
  Settle s = { 0 };
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json (FRAME ("choice-list", "{\"prompt\":\"P\",\"choices\":[{\"id\":\"a\",\"label\":\"A\"}]}"));
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcChoiceSubmission) unavailable = func (frame, "a", "unknown", &s, &error);
  g_autoptr(AkcChoiceSubmission) reservation = func (frame, "a", "session", &s, &error);
  g_autoptr(AkcChoiceSubmission) none = func (frame, "host", "session", &s, &error);

  g_assert_no_error (error);
  g_assert_cmpint (akc_choice_submission_get_kind (unavailable), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);
  g_assert_cmpstr (akc_choice_submission_get_value (reservation), ==, "a");
  g_assert_null (none);
  g_assert_null (func (frame, "boom", "session", &s, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/catalog-interactions.json", "/components/interactions", "createInteraction",
                         run_create_interaction, NULL);
  akc_fixture_add_tests ("application/catalog-interactions.json", "/components/interactions", "selectChoice",
                         run_select_choice, NULL);
  akc_fixture_add_tests ("application/catalog-interactions.json", "/components/interactions", "resolveChoiceAction",
                         run_resolve_choice_action, NULL);

  g_test_add_func ("/components/interactions/form-numbers", test_form_numbers);
  g_test_add_func ("/components/interactions/custom-values", test_custom_values);
  g_test_add_func ("/components/interactions/unbounded-value", test_unbounded_value);
  g_test_add_func ("/components/interactions/resolved", test_resolved_interactions);
  g_test_add_func ("/components/interactions/selection-errors", test_selection_errors);
  g_test_add_func ("/components/interactions/choice-submission", test_choice_submission);
  g_test_add_func ("/components/interactions/choice-submission-hook", test_choice_submission_hook);

  return g_test_run ();
}

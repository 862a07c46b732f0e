/* test-component-frames.c: decoding and resolving frames, definition
 * fallbacks and manifest registration (application.md §2.2–§2.4, §2.9)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-test.h"
#include "akc-test.h"

static gboolean
is_string (AkcJsonValue *v)
{
  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING;
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

/* decodeFrame {frame: value | JSON text} → {ok, frame} | {ok:false, diagnostic} */
static void
run_decode (const AkcFixtureCase *fc,
            gconstpointer         user_data)
{
  AkcJsonValue *input = akc_test_input (fc, "frame");
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;

  g_assert_nonnull (input);
  if (is_string (input))
    {
      gsize length;
      const char *text = akc_json_value_get_string (input, &length);

      frame = akc_component_frame_decode (text, (gssize) length, &diagnostic);
    }
  else
    {
      frame = akc_component_frame_decode_value (input, &diagnostic);
    }

  if (akc_fixture_expect_ok (fc))
    {
      g_assert_null (diagnostic);
      akc_assert_json_equal (frame, akc_fixture_expect (fc, "frame"));
    }
  else
    {
      g_assert_null (frame);
      akc_test_assert_diagnostic (diagnostic, akc_fixture_expect (fc, "diagnostic"));
    }
}

static AkcResolvedComponent *
resolve_input (const AkcFixtureCase  *fc,
               AkcComponentManifest  *manifest,
               gboolean               choice_list,
               AkcDiagnostic        **diagnostic)
{
  AkcJsonValue *input = akc_test_input (fc, "frame");

  g_assert_nonnull (input);
  if (is_string (input) && !choice_list)
    {
      gsize length;
      const char *text = akc_json_value_get_string (input, &length);

      return akc_component_manifest_resolve_text (manifest, text, (gssize) length, diagnostic);
    }

  return choice_list
    ? akc_component_manifest_resolve_choice_list (manifest, input, diagnostic)
    : akc_component_manifest_resolve (manifest, input, diagnostic);
}

/* resolveFrame / resolveChoiceListFrame {manifest, frame} → {ok, props} | {ok:false, diagnostic} */
static void
run_resolve (const AkcFixtureCase *fc,
             gconstpointer         user_data)
{
  gboolean choice_list = GPOINTER_TO_INT (user_data);
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest (akc_test_input_string (fc, "manifest"));
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcResolvedComponent) resolved = resolve_input (fc, manifest, choice_list, &diagnostic);

  if (akc_fixture_expect_ok (fc))
    {
      AkcJsonValue *expected_frame = akc_fixture_expect (fc, "frame");
      g_autoptr(AkcJsonValue) decoded = akc_component_frame_decode_value (akc_test_input (fc, "frame"), NULL);

      g_assert_null (diagnostic);
      g_assert_nonnull (resolved);
      akc_assert_json_equal (akc_resolved_component_get_props (resolved), akc_fixture_expect (fc, "props"));
      /* `frame` is the decoded frame (the fixture shows only the props). */
      akc_assert_json_equal (akc_resolved_component_get_frame (resolved), expected_frame != NULL ? expected_frame : decoded);
      g_assert_true (akc_component_manifest_lookup (manifest, akc_resolved_component_get_component_key (resolved)) ==
                     akc_resolved_component_get_definition (resolved));
    }
  else
    {
      g_assert_null (resolved);
      akc_test_assert_diagnostic (diagnostic, akc_fixture_expect (fc, "diagnostic"));
    }
}

/* resolveFallback {manifest, frame} → {text | null} */
static void
run_resolve_fallback (const AkcFixtureCase *fc,
                      gconstpointer         user_data)
{
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest (akc_test_input_string (fc, "manifest"));
  g_autofree char *text = akc_component_manifest_resolve_fallback (manifest, akc_test_input (fc, "frame"));

  g_assert_true (akc_fixture_expect (fc, "text") != NULL);
  g_assert_cmpstr (text, ==, akc_fixture_expect_string (fc, "text"));
}

/* defineManifest {components: [standard key | {key} | "custom-form-override"]} */
static void
run_define_manifest (const AkcFixtureCase *fc,
                     gconstpointer         user_data)
{
  AkcJsonValue *components = akc_test_input (fc, "components");
  g_autoptr(GPtrArray) definitions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcComponentManifest) manifest = NULL;
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < akc_json_value_get_length (components); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (components, i);
      const char *key;

      if (is_string (item) && g_strcmp0 (akc_json_value_get_string (item, NULL), "custom-form-override") == 0)
        key = "form";  /* a custom definition that takes a standard key */
      else if (is_string (item))
        {
          AkcComponentDefinition *standard = akc_component_definition_get_standard (akc_json_value_get_string (item, NULL));

          g_assert_nonnull (standard);
          g_ptr_array_add (definitions, g_object_ref (standard));
          continue;
        }
      else
        key = akc_json_value_get_string (akc_json_value_get_member (item, "key"), NULL);

      g_ptr_array_add (definitions,
                       akc_component_definition_new (key, NULL, 0, NULL, FALSE, AKC_COMPONENT_LIVE_NONE,
                                                     AKC_COMPONENT_CAPABILITY_DISPLAY,
                                                     NULL, NULL, NULL, NULL, NULL, NULL));
    }

  manifest = akc_component_manifest_new ((AkcComponentDefinition **) definitions->pdata, definitions->len, &error);

  if (akc_fixture_expect_ok (fc))
    {
      AkcJsonValue *keys = akc_fixture_expect (fc, "keys");

      g_assert_no_error (error);
      g_assert_cmpuint (akc_component_manifest_get_n_definitions (manifest), ==, akc_json_value_get_length (keys));
      for (guint i = 0; i < akc_component_manifest_get_n_definitions (manifest); i++)
        g_assert_cmpstr (akc_component_definition_get_key (akc_component_manifest_get_definition (manifest, i)), ==,
                         akc_json_value_get_string (akc_json_value_get_element (keys, i), NULL));
    }
  else
    {
      g_assert_null (manifest);
      akc_test_assert_error (error, akc_fixture_expect (fc, "error"));
    }
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

#define FRAME(key, id, props) \
  "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\",\"componentKey\":\"" key \
  "\",\"instanceId\":\"" id "\",\"props\":" props ",\"fallback\":{\"kind\":\"" key "\",\"summary\":\"Fixture.\"}}"

static void
test_resolved_accessors (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  const char *frame_text = FRAME ("progress", "p-1", "{\"label\":\"Upload\",\"value\":42.5}");
  g_autofree char *text = g_strconcat ("{\"extra\":1,", frame_text + 1, NULL);
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json (text);
  g_autoptr(AkcResolvedComponent) resolved = NULL;
  g_autofree char *description = NULL;
  g_autofree char *fallback = NULL;
  g_autofree char *canonical = NULL;

  resolved = akc_component_manifest_resolve (manifest, frame, NULL);
  g_assert_nonnull (resolved);
  g_assert_cmpstr (akc_resolved_component_get_component_key (resolved), ==, "progress");
  g_assert_cmpstr (akc_resolved_component_get_instance_id (resolved), ==, "p-1");
  g_assert_true (akc_resolved_component_is_standard (resolved));
  g_assert_false (akc_resolved_component_is_interactive (resolved));
  g_assert_true (akc_resolved_component_get_definition (resolved) == akc_component_definition_get_standard ("progress"));

  description = akc_resolved_component_dup_description (resolved);
  g_assert_cmpstr (description, ==, "Upload: 42.5%.");
  fallback = akc_resolved_component_dup_semantic_fallback (resolved);
  g_assert_cmpstr (fallback, ==, "[unsupported visual: progress] Fixture.");

  /* The frame is the decoded one: unknown members dropped. */
  canonical = akc_json_value_to_canonical (akc_resolved_component_get_frame (resolved), NULL);
  g_assert_null (strstr (canonical, "extra"));
  g_assert_null (akc_resolved_component_get_choice_action (resolved, "x"));
}

static void
test_resolve_text (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcResolvedComponent) resolved = NULL;
  const char *text = FRAME ("button-group", "b", "{\"label\":\"A\",\"buttons\":[{\"id\":\"x\",\"label\":\"X\"}]}");

  resolved = akc_component_manifest_resolve_text (manifest, text, -1, &diagnostic);
  g_assert_nonnull (resolved);
  g_assert_null (diagnostic);
  g_assert_true (akc_resolved_component_is_interactive (resolved));
  g_clear_object (&resolved);

  resolved = akc_component_manifest_resolve_text (manifest, "{bad", -1, &diagnostic);
  g_assert_null (resolved);
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "COMPONENT_INVALID_FRAME");
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Component frame is not valid JSON.");
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  /* A JSON string literal is not parsed twice. */
  resolved = akc_component_manifest_resolve_text (manifest, "\"{}\"", -1, &diagnostic);
  g_assert_null (resolved);
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Component frame payload is invalid.");
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  /* Without a diagnostic location. */
  g_assert_null (akc_component_manifest_resolve_text (manifest, "", 0, NULL));
}

static void
test_choice_list_resolution (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(AkcJsonValue) unknown = akc_test_parse_json (FRAME ("future", "f", "{}"));
  g_autoptr(AkcJsonValue) invalid = akc_test_parse_json (FRAME ("choice-list", "c", "{\"prompt\":\"P\",\"choices\":[]}"));
  g_autoptr(AkcJsonValue) valid = akc_test_parse_json (FRAME ("choice-list", "c",
                                            "{\"prompt\":\"P\",\"choices\":[{\"id\":\"a\",\"label\":\"A\",\"action\":{\"name\":\"go\",\"input\":{\"x\":1}}},{\"id\":\"b\",\"label\":\"B\"}]}"));
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcResolvedComponent) resolved = NULL;
  AkcJsonValue *action;

  g_assert_null (akc_component_manifest_resolve_choice_list (manifest, unknown, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "COMPONENT_UNKNOWN");
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Component is not registered.");
  g_assert_false (akc_diagnostic_get_retryable (diagnostic));
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  g_assert_null (akc_component_manifest_resolve_choice_list (manifest, invalid, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "COMPONENT_INVALID_PROPS");
  g_assert_cmpstr (akc_diagnostic_get_message (diagnostic), ==, "Component props are invalid.");
  g_clear_pointer (&diagnostic, akc_diagnostic_unref);

  resolved = akc_component_manifest_resolve_choice_list (manifest, valid, &diagnostic);
  g_assert_nonnull (resolved);
  action = akc_resolved_component_get_choice_action (resolved, "a");
  g_assert_nonnull (action);
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (action, "name"), NULL), ==, "go");
  g_assert_null (akc_resolved_component_get_choice_action (resolved, "b"));
  g_assert_null (akc_resolved_component_get_choice_action (resolved, "c"));
}

static void
test_custom_resolution (void)
{
  g_autoptr(AkcComponentManifest) manifest = akc_test_manifest ("custom");
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json (FRAME ("map-view", "m", "{\"region\":\"eu\"}"));
  g_autoptr(AkcJsonValue) not_object = akc_test_parse_json (FRAME ("map-view", "m", "[1]"));
  g_autoptr(AkcResolvedComponent) resolved = akc_component_manifest_resolve (manifest, frame, NULL);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;

  g_assert_nonnull (resolved);
  g_assert_false (akc_resolved_component_is_standard (resolved));
  g_assert_true (akc_resolved_component_is_interactive (resolved));
  /* No fallback function: no definition fallback (§2.9). */
  g_assert_null (akc_resolved_component_dup_description (resolved));
  g_assert_null (akc_component_manifest_resolve_fallback (manifest, frame));

  g_assert_null (akc_component_manifest_resolve (manifest, not_object, &diagnostic));
  g_assert_cmpstr (akc_diagnostic_get_code (diagnostic), ==, "COMPONENT_INVALID_PROPS");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/component-frames.json", "/components/frames", "decodeFrame",
                         run_decode, NULL);
  akc_fixture_add_tests ("application/component-frames.json", "/components/frames", "resolveFrame",
                         run_resolve, GINT_TO_POINTER (FALSE));
  akc_fixture_add_tests ("application/component-frames.json", "/components/frames", "resolveChoiceListFrame",
                         run_resolve, GINT_TO_POINTER (TRUE));
  akc_fixture_add_tests ("application/component-frames.json", "/components/frames", "resolveFallback",
                         run_resolve_fallback, NULL);
  akc_fixture_add_tests ("application/component-frames.json", "/components/frames", "defineManifest",
                         run_define_manifest, NULL);

  g_test_add_func ("/components/frames/resolved-accessors", test_resolved_accessors);
  g_test_add_func ("/components/frames/resolve-text", test_resolve_text);
  g_test_add_func ("/components/frames/choice-list-resolution", test_choice_list_resolution);
  g_test_add_func ("/components/frames/custom-resolution", test_custom_resolution);

  return g_test_run ();
}

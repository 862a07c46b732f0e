/* akc-component-test.c: shared pieces of the component tests
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-component-test.h"

AkcComponentDefinition *
akc_test_map_view_new (void)
{
  g_autoptr(AkcComponentEvent) pick = akc_component_event_new ("pick", AKC_COMPONENT_VALUE_ID);
  g_autoptr(AkcComponentEvent) go = akc_component_event_new ("go", AKC_COMPONENT_VALUE_URL);
  g_autoptr(AkcComponentEvent) send = akc_component_event_new ("send", AKC_COMPONENT_VALUE_FORM);
  g_autoptr(AkcComponentEvent) close = akc_component_event_new ("close", AKC_COMPONENT_VALUE_NONE);
  AkcComponentEvent *events[] = { pick, go, send, close };

  return akc_component_definition_new ("map-view", events, G_N_ELEMENTS (events),
                                       "region", TRUE, AKC_COMPONENT_LIVE_NONE,
                                       AKC_COMPONENT_CAPABILITY_DISPLAY | AKC_COMPONENT_CAPABILITY_SELECTION,
                                       NULL, NULL, NULL, NULL, NULL, NULL);
}

AkcComponentManifest *
akc_test_manifest (const char *name)
{
  g_autoptr(GPtrArray) definitions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  AkcComponentManifest *manifest;

  if (g_strcmp0 (name, "standard") == 0)
    return akc_component_manifest_new_standard ();

  if (g_strcmp0 (name, "choice-list-only") == 0)
    {
      g_ptr_array_add (definitions, g_object_ref (akc_component_definition_get_standard ("choice-list")));
    }
  else if (g_strcmp0 (name, "custom") == 0)
    {
      for (const char * const *k = akc_component_definition_get_standard_keys (); *k != NULL; k++)
        g_ptr_array_add (definitions, g_object_ref (akc_component_definition_get_standard (*k)));
      g_ptr_array_add (definitions, akc_test_map_view_new ());
    }
  else
    {
      g_error ("unknown fixture manifest %s", name);
    }

  manifest = akc_component_manifest_new ((AkcComponentDefinition **) definitions->pdata, definitions->len, &error);
  g_assert_no_error (error);
  return manifest;
}

AkcJsonValue *
akc_test_input (const AkcFixtureCase *fc,
                const char           *name)
{
  g_assert_nonnull (fc->input);
  return akc_json_value_get_member (fc->input, name);
}

const char *
akc_test_input_string (const AkcFixtureCase *fc,
                       const char           *name)
{
  AkcJsonValue *v = akc_test_input (fc, name);

  g_assert_nonnull (v);
  g_assert_cmpint (akc_json_value_get_kind (v), ==, AKC_JSON_KIND_STRING);
  return akc_json_value_get_string (v, NULL);
}

void
akc_test_assert_error (const GError *error,
                       AkcJsonValue *expected)
{
  AkcJsonValue *code = akc_json_value_get_member (expected, "code");
  AkcJsonValue *message = akc_json_value_get_member (expected, "message");

  g_assert_nonnull (error);
  g_assert_nonnull (code);
  g_assert_cmpstr (akc_json_value_get_string (code, NULL), ==, "AK_CONFIG_INVALID");
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_nonnull (message);
  g_assert_cmpstr (error->message, ==, akc_json_value_get_string (message, NULL));
}

void
akc_test_assert_diagnostic (AkcDiagnostic *diagnostic,
                            AkcJsonValue  *expected)
{
  g_autoptr(AkcJsonValue) actual = NULL;

  g_assert_nonnull (diagnostic);
  g_assert_nonnull (expected);
  actual = akc_diagnostic_to_json (diagnostic);
  akc_assert_json_equal (actual, expected);
}

/* test-component-catalog.c: the standard catalog and custom definitions
 * (application.md §1, §2.3)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-component-test.h"
#include "akc-test.h"

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

/* catalog-props.json: validateProps {componentKey, props} → {valid, fallback?} */
static void
run_validate_props (const AkcFixtureCase *fc,
                    gconstpointer         user_data)
{
  AkcComponentDefinition *definition = akc_component_definition_get_standard (akc_test_input_string (fc, "componentKey"));
  AkcJsonValue *props = akc_test_input (fc, "props");
  AkcJsonValue *valid = akc_fixture_expect (fc, "valid");
  g_autoptr(AkcJsonValue) validated = NULL;
  g_autofree char *fallback = NULL;

  g_assert_nonnull (definition);
  g_assert_nonnull (props);
  g_assert_nonnull (valid);

  validated = akc_component_definition_validate_props (definition, props);
  fallback = akc_component_definition_dup_fallback (definition, props);

  if (akc_json_value_get_boolean (valid))
    {
      g_assert_nonnull (validated);
      /* Strict objects: a valid props object keeps every member. */
      g_assert_true (akc_json_value_equal (validated, props));
      g_assert_cmpstr (fallback, ==, akc_fixture_expect_string (fc, "fallback"));
    }
  else
    {
      g_assert_null (validated);
      g_assert_null (fallback);
      g_assert_null (akc_fixture_expect (fc, "fallback"));
    }
}

static AkcJsonValue *
metadata_of (AkcComponentDefinition *definition)
{
  g_autoptr(GString) out = g_string_new ("{");
  g_autoptr(GFlagsClass) flags = g_type_class_ref (AKC_TYPE_COMPONENT_CAPABILITIES);
  g_autoptr(GEnumClass) kinds = g_type_class_ref (AKC_TYPE_COMPONENT_VALUE_KIND);
  g_autoptr(GEnumClass) lives = g_type_class_ref (AKC_TYPE_COMPONENT_LIVE);
  const char * const *keys = akc_component_definition_get_standard_keys ();
  AkcComponentCapabilities capabilities = akc_component_definition_get_capabilities (definition);
  gboolean first = TRUE;
  guint index = 0;

  while (g_strcmp0 (keys[index], akc_component_definition_get_key (definition)) != 0)
    index++;
  g_string_append_printf (out, "\"index\":%u,\"events\":[", index);

  for (guint i = 0; i < akc_component_definition_get_n_events (definition); i++)
    {
      AkcComponentEvent *event = akc_component_definition_get_event (definition, i);

      g_string_append_printf (out, "%s{\"name\":\"%s\",\"value\":\"%s\"}", i > 0 ? "," : "",
                              akc_component_event_get_name (event),
                              g_enum_get_value (kinds, akc_component_event_get_value_kind (event))->value_nick);
    }

  g_string_append_printf (out, "],\"accessibility\":{\"role\":\"%s\",\"keyboard\":%s,\"live\":\"%s\"},\"capabilities\":[",
                          akc_component_definition_get_role (definition),
                          akc_component_definition_get_keyboard (definition) ? "true" : "false",
                          g_enum_get_value (lives, akc_component_definition_get_live (definition))->value_nick);

  /* Flags in declaration order are the reference's capability order. */
  for (guint i = 0; i < flags->n_values; i++)
    {
      if (flags->values[i].value == 0 || (capabilities & flags->values[i].value) == 0)
        continue;
      g_string_append_printf (out, "%s\"%s\"", first ? "" : ",", flags->values[i].value_nick);
      first = FALSE;
    }
  g_string_append (out, "]}");

  return akc_test_parse_json (out->str);
}

/* catalog-metadata.json: definition {componentKey}; standardKeys */
static void
run_definition (const AkcFixtureCase *fc,
                gconstpointer         user_data)
{
  AkcComponentDefinition *definition = akc_component_definition_get_standard (akc_test_input_string (fc, "componentKey"));
  g_autoptr(AkcJsonValue) actual = NULL;

  g_assert_nonnull (definition);
  g_assert_true (akc_component_definition_is_standard (definition));
  g_assert_true (akc_component_definition_has_fallback (definition));
  actual = metadata_of (definition);
  akc_assert_json_equal (actual, fc->expect);
}

static void
run_standard_keys (const AkcFixtureCase *fc,
                   gconstpointer         user_data)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  AkcJsonValue *keys = akc_fixture_expect (fc, "keys");
  const char * const *standard = akc_component_definition_get_standard_keys ();

  g_assert_cmpuint (g_strv_length ((char **) standard), ==, akc_json_value_get_length (keys));
  g_assert_cmpuint (akc_component_manifest_get_n_definitions (manifest), ==, akc_json_value_get_length (keys));

  for (gsize i = 0; i < akc_json_value_get_length (keys); i++)
    {
      const char *key = akc_json_value_get_string (akc_json_value_get_element (keys, i), NULL);
      AkcComponentDefinition *definition = akc_component_manifest_get_definition (manifest, i);

      g_assert_cmpstr (standard[i], ==, key);
      g_assert_cmpstr (akc_component_definition_get_key (definition), ==, key);
      g_assert_true (definition == akc_component_definition_get_standard (key));
      g_assert_true (akc_component_manifest_lookup (manifest, key) == definition);
    }
}

/* ------------------------------------------------------------------ */
/* Own cases                                                           */
/* ------------------------------------------------------------------ */

static gboolean
props_valid (const char *key,
             const char *props_text)
{
  g_autoptr(AkcJsonValue) props = akc_test_parse_json (props_text);
  g_autoptr(AkcJsonValue) validated = NULL;

  validated = akc_component_definition_validate_props (akc_component_definition_get_standard (key), props);
  return validated != NULL;
}

static void
test_normalised_order (void)
{
  AkcComponentDefinition *form = akc_component_definition_get_standard ("form");
  g_autoptr(AkcJsonValue) props = akc_test_parse_json ("{\"submitLabel\":\"Go\",\"fields\":[{\"type\":\"select\",\"options\":[{\"label\":\"A\",\"id\":\"a\"}],\"label\":\"Role\",\"id\":\"role\"}]}");
  g_autoptr(AkcJsonValue) validated = akc_component_definition_validate_props (form, props);
  g_autoptr(AkcJsonValue) again = NULL;
  g_autofree char *text = NULL;

  /* Members of strict objects come out in declaration order (§0.4). */
  g_assert_nonnull (validated);
  text = akc_json_value_to_canonical (validated, NULL);
  g_assert_cmpstr (text, ==,
                   "{\"fields\":[{\"id\":\"role\",\"label\":\"Role\",\"type\":\"select\",\"options\":[{\"id\":\"a\",\"label\":\"A\"}]}],\"submitLabel\":\"Go\"}");

  /* Already normalised props are returned as they are. */
  again = akc_component_definition_validate_props (form, validated);
  g_assert_true (again == validated);
}

static void
test_labels_are_not_trimmed (void)
{
  /* Label is z.string ().min (1).max (256): white space counts. */
  g_assert_true (props_valid ("button-group", "{\"label\":\"  \",\"buttons\":[{\"id\":\"a\",\"label\":\" \"}]}"));
  g_assert_false (props_valid ("button-group", "{\"label\":\"\",\"buttons\":[{\"id\":\"a\",\"label\":\" \"}]}"));
}

static void
test_json_values_are_finite (void)
{
  /* 1e999 parses to Infinity, which z.json () rejects. */
  g_assert_true (props_valid ("tool-call", "{\"name\":\"S\",\"status\":\"running\",\"arguments\":{\"n\":1e308},\"result\":[1e308]}"));
  g_assert_false (props_valid ("tool-call", "{\"name\":\"S\",\"status\":\"running\",\"arguments\":{\"n\":1e999}}"));
  g_assert_false (props_valid ("tool-call", "{\"name\":\"S\",\"status\":\"running\",\"result\":{\"deep\":[-1e999]}}"));
  g_assert_false (props_valid ("choice-list", "{\"prompt\":\"P\",\"choices\":[{\"id\":\"a\",\"label\":\"A\",\"action\":{\"name\":\"n\",\"input\":{\"x\":1e999}}}]}"));
  g_assert_false (props_valid ("progress", "{\"label\":\"U\",\"value\":1e999}"));
  g_assert_false (props_valid ("table", "{\"caption\":\"C\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[{\"a\":1e999}]}"));
  /* null is a JSON value for a tool result */
  g_assert_true (props_valid ("tool-call", "{\"name\":\"S\",\"status\":\"error\",\"result\":null}"));
}

static void
test_proto_members (void)
{
  AkcComponentDefinition *table = akc_component_definition_get_standard ("table");
  g_autoptr(AkcJsonValue) props = akc_test_parse_json ("{\"caption\":\"C\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[{\"a\":1,\"__proto__\":\"x\"}],\"__proto__\":{}}");
  g_autoptr(AkcJsonValue) validated = akc_component_definition_validate_props (table, props);
  g_autofree char *text = NULL;

  /* A record drops `__proto__` and a strict object ignores it, as the
   * reference's parsed objects do. */
  g_assert_nonnull (validated);
  text = akc_json_value_to_canonical (validated, NULL);
  g_assert_cmpstr (text, ==, "{\"caption\":\"C\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[{\"a\":1}]}");
}

static void
test_table_rows (void)
{
  g_autofree char *long_key = g_strnfill (300, 'k');
  g_autofree char *props = g_strdup_printf ("{\"caption\":\"C\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[{\"%s\":\"\"}]}", long_key);

  g_assert_true (props_valid ("table", props));
  g_assert_false (props_valid ("table", "{\"caption\":\"C\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[[]]}"));
  g_assert_false (props_valid ("table", "{\"caption\":\"C\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[null]}"));
  g_assert_false (props_valid ("table", "{\"caption\":\"C\",\"columns\":[],\"rows\":[]}"));
}

static gboolean
url_valid (const char *url)
{
  g_autoptr(GString) props = g_string_new ("{\"title\":\"T\",\"href\":");
  g_autoptr(AkcJsonValue) string = akc_json_value_new_string (url, -1);
  g_autofree char *quoted = akc_json_value_to_canonical (string, NULL);

  g_string_append (props, quoted);
  g_string_append_c (props, '}');
  return props_valid ("link-card", props->str);
}

static void
test_portable_url (void)
{
  /* §0.5 PortableUrl beyond the fixtures */
  g_assert_true (url_valid ("/"));
  g_assert_true (url_valid ("/a?b#c"));
  g_assert_true (url_valid ("https://example.com/ "));      /* trailing space stripped */
  g_assert_true (url_valid ("  http://example.com"));       /* leading spaces stripped */
  g_assert_true (url_valid ("https:///example.com"));      /* extra slashes ignored */
  g_assert_true (url_valid ("https://@example.com/"));     /* empty credentials */
  g_assert_true (url_valid ("https://example.com:8080/"));
  g_assert_true (url_valid ("https://[::1]/"));
  g_assert_false (url_valid (""));
  g_assert_false (url_valid (" /docs"));                   /* relative after the space */
  g_assert_false (url_valid ("//"));
  g_assert_false (url_valid ("https://"));
  g_assert_false (url_valid ("https://exa mple.com/"));
  g_assert_false (url_valid ("https://example.com:99999/"));
  g_assert_false (url_valid ("https://:pw@example.com/"));
  g_assert_false (url_valid ("https://example.com/\t"));   /* control characters */
  g_assert_false (url_valid ("data:text/plain,x"));
  g_assert_false (url_valid ("file:///etc/passwd"));
  g_assert_false (url_valid ("HTTPS:\\\\example.com"));
}

static char *
custom_fallback (AkcComponentDefinition *definition,
                 AkcJsonValue           *props,
                 gpointer                user_data)
{
  AkcJsonValue *region = akc_json_value_get_member (props, "region");

  return g_strdup_printf ("%s: %s", (const char *) user_data, akc_json_value_get_string (region, NULL));
}

static AkcJsonValue *
custom_props (AkcComponentDefinition *definition,
              AkcJsonValue           *props,
              gpointer                user_data)
{
  AkcJsonValue *region = akc_json_value_get_member (props, "region");

  (*(guint *) user_data)++;
  if (region == NULL || akc_json_value_get_kind (region) != AKC_JSON_KIND_STRING)
    return NULL;
  return akc_json_value_ref (props);
}

static void
count_destroy (gpointer data)
{
  (*(guint *) data) += 100;
}

static void
test_custom_definition (void)
{
  g_autoptr(AkcComponentEvent) pick = akc_component_event_new ("pick", AKC_COMPONENT_VALUE_ID);
  AkcComponentEvent *events[] = { pick };
  guint calls = 0;
  AkcComponentDefinition *definition;
  g_autoptr(AkcJsonValue) good = akc_test_parse_json ("{\"region\":\"eu\"}");
  g_autoptr(AkcJsonValue) bad = akc_test_parse_json ("{\"region\":1}");
  g_autoptr(AkcJsonValue) validated = NULL;
  g_autofree char *fallback = NULL;

  definition = akc_component_definition_new ("map-view", events, 1, NULL, FALSE, AKC_COMPONENT_LIVE_ASSERTIVE,
                                             AKC_COMPONENT_CAPABILITY_DISPLAY,
                                             custom_props, &calls, count_destroy,
                                             custom_fallback, (gpointer) "Map", NULL);
  g_assert_false (akc_component_definition_is_standard (definition));
  g_assert_null (akc_component_definition_get_role (definition));
  g_assert_false (akc_component_definition_get_keyboard (definition));
  g_assert_cmpint (akc_component_definition_get_live (definition), ==, AKC_COMPONENT_LIVE_ASSERTIVE);
  g_assert_cmpuint (akc_component_definition_get_n_events (definition), ==, 1);
  g_assert_true (akc_component_definition_lookup_event (definition, "pick") == pick);
  g_assert_null (akc_component_definition_lookup_event (definition, "go"));
  g_assert_true (akc_component_definition_has_fallback (definition));

  validated = akc_component_definition_validate_props (definition, good);
  g_assert_true (validated == good);
  g_assert_null (akc_component_definition_validate_props (definition, bad));
  fallback = akc_component_definition_dup_fallback (definition, good);
  g_assert_cmpstr (fallback, ==, "Map: eu");
  g_assert_null (akc_component_definition_dup_fallback (definition, bad));
  g_assert_cmpuint (calls, ==, 4);

  g_assert_finalize_object (definition);
  g_assert_cmpuint (calls, ==, 104);  /* props_destroy ran once */

  /* Without functions: any JSON object, no fallback. */
  definition = akc_component_definition_new ("plain", NULL, 0, "img", FALSE, AKC_COMPONENT_LIVE_NONE,
                                             AKC_COMPONENT_CAPABILITY_NONE, NULL, NULL, NULL, NULL, NULL, NULL);
  {
    g_autoptr(AkcJsonValue) object = akc_component_definition_validate_props (definition, good);
    g_autoptr(AkcJsonValue) array = akc_test_parse_json ("[]");
    g_autoptr(AkcJsonValue) null = akc_test_parse_json ("null");

    g_assert_true (object == good);
    g_assert_null (akc_component_definition_validate_props (definition, array));
    g_assert_null (akc_component_definition_validate_props (definition, null));
  }
  g_assert_false (akc_component_definition_has_fallback (definition));
  g_assert_null (akc_component_definition_dup_fallback (definition, good));
  g_assert_finalize_object (definition);
}

static void
test_manifest_registration (void)
{
  g_autoptr(AkcComponentDefinition) map_view = akc_test_map_view_new ();
  g_autoptr(AkcComponentDefinition) invalid = akc_component_definition_new ("1x", NULL, 0, NULL, FALSE, AKC_COMPONENT_LIVE_NONE,
                                                                            0, NULL, NULL, NULL, NULL, NULL, NULL);
  AkcComponentDefinition *form = akc_component_definition_get_standard ("form");
  AkcComponentDefinition *definitions[] = { map_view, form };
  AkcComponentDefinition *bad[] = { form, invalid };
  g_autoptr(AkcComponentManifest) manifest = NULL;
  g_autoptr(AkcComponentManifest) empty = NULL;
  g_autoptr(GError) error = NULL;

  manifest = akc_component_manifest_new (definitions, G_N_ELEMENTS (definitions), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (akc_component_manifest_get_n_definitions (manifest), ==, 2);
  g_assert_true (akc_component_manifest_get_definition (manifest, 0) == map_view);
  g_assert_true (akc_component_manifest_get_definition (manifest, 1) == form);
  g_assert_true (akc_component_manifest_lookup (manifest, "map-view") == map_view);
  g_assert_null (akc_component_manifest_lookup (manifest, "button-group"));
  /* Own keys only. */
  g_assert_null (akc_component_manifest_lookup (manifest, "constructor"));
  g_assert_null (akc_component_manifest_lookup (manifest, "toString"));
  g_assert_null (akc_component_manifest_lookup (manifest, "__proto__"));
  g_assert_null (akc_component_manifest_lookup (manifest, ""));

  g_assert_null (akc_component_manifest_new (bad, G_N_ELEMENTS (bad), &error));
  g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "Component manifest keys must be non-empty, unique, and must not override standard catalog keys.");

  empty = akc_component_manifest_new (NULL, 0, NULL);
  g_assert_nonnull (empty);
  g_assert_cmpuint (akc_component_manifest_get_n_definitions (empty), ==, 0);

  /* The standard manifest is one shared, immutable instance. */
  {
    g_autoptr(AkcComponentManifest) a = akc_component_manifest_new_standard ();
    g_autoptr(AkcComponentManifest) b = akc_component_manifest_new_standard ();

    g_assert_true (a == b);
    g_assert_null (akc_component_definition_get_standard ("map-view"));
    g_assert_null (akc_component_definition_get_standard ("Form"));
  }
}

static void
test_cell_text (void)
{
  g_autoptr(AkcJsonValue) row = akc_test_parse_json ("{\"s\":\"x\\u0000y\",\"n\":33.333333333333336,\"i\":1024,\"t\":1e-7,\"z\":-0,\"b\":true,\"f\":false,\"null\":null,\"big\":1e21}");
  struct { const char *key; const char *text; } cases[] = {
    { "n", "33.333333333333336" }, { "i", "1024" }, { "t", "1e-7" }, { "z", "0" },
    { "b", "true" }, { "f", "false" }, { "null", "" }, { "missing", "" }, { "big", "1e+21" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = akc_component_dup_cell_text (akc_json_value_get_member (row, cases[i].key), NULL);

      g_assert_cmpstr (text, ==, cases[i].text);
    }

  {
    gsize length;
    g_autofree char *text = akc_component_dup_cell_text (akc_json_value_get_member (row, "s"), &length);

    g_assert_cmpmem (text, length, "x\0y", 3);
  }
}

static void
test_pretty_json (void)
{
  struct { const char *in; const char *out; } cases[] = {
    { "{\"q\":\"AgentsKit\"}", "{\n  \"q\": \"AgentsKit\"\n}" },
    { "{}", "{}" },
    { "[]", "[]" },
    { "\"a,b:{c}\"", "\"a,b:{c}\"" },
    { "{\"b\":1,\"10\":[1,{},[]],\"a\":\"x\\\"]\"}",
      "{\n  \"10\": [\n    1,\n    {},\n    []\n  ],\n  \"b\": 1,\n  \"a\": \"x\\\"]\"\n}" },
    { "[null,true,1.5e-7]", "[\n  null,\n  true,\n  1.5e-7\n]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcJsonValue) value = akc_test_parse_json (cases[i].in);
      g_autofree char *text = akc_component_dup_pretty_json (value);

      g_assert_cmpstr (text, ==, cases[i].out);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/catalog-props.json", "/components/catalog/props", "validateProps",
                         run_validate_props, NULL);
  akc_fixture_add_tests ("application/catalog-metadata.json", "/components/catalog/metadata", "definition",
                         run_definition, NULL);
  akc_fixture_add_tests ("application/catalog-metadata.json", "/components/catalog/metadata", "standardKeys",
                         run_standard_keys, NULL);

  g_test_add_func ("/components/catalog/normalised-order", test_normalised_order);
  g_test_add_func ("/components/catalog/labels-are-not-trimmed", test_labels_are_not_trimmed);
  g_test_add_func ("/components/catalog/json-values-are-finite", test_json_values_are_finite);
  g_test_add_func ("/components/catalog/proto-members", test_proto_members);
  g_test_add_func ("/components/catalog/table-rows", test_table_rows);
  g_test_add_func ("/components/catalog/portable-url", test_portable_url);
  g_test_add_func ("/components/catalog/custom-definition", test_custom_definition);
  g_test_add_func ("/components/catalog/manifest-registration", test_manifest_registration);
  g_test_add_func ("/components/catalog/cell-text", test_cell_text);
  g_test_add_func ("/components/catalog/pretty-json", test_pretty_json);

  return g_test_run ();
}

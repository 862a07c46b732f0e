/* test-theme.c: AkcTheme, the semantic theme (application.md §6)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every vector of application/theme.json (`resolveTheme`,
 * `domCssVariables`), plus the canonical form, the getters and the
 * failure messages.
 */

#include "config.h"

#include <string.h>

#include "akc-component-test.h"
#include "akc-test.h"

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */
/* ------------------------------------------------------------------ */

/* The case's `theme`: NULL when the member is absent (an absent input),
 * JSON null when it is null. */
static AkcJsonValue *
input_theme (const AkcFixtureCase *fc)
{
  return akc_json_value_get_member (fc->input, "theme");
}

static void
run_resolve (const AkcFixtureCase *fc,
             gconstpointer         user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTheme) theme = akc_theme_resolve (input_theme (fc), &error);

  if (!akc_fixture_expect_ok (fc))
    {
      g_assert_null (theme);
      g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
      g_assert_true (g_str_has_prefix (error->message, "Chat theme is invalid: "));
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (theme);
  {
    g_autoptr(AkcJsonValue) json = akc_theme_to_json (theme);
    g_autofree char *canonical = NULL;
    g_autoptr(AkcTheme) again = NULL;

    akc_assert_json_equal (json, akc_fixture_expect (fc, "theme"));

    /* The canonical text resolves to the same theme. */
    canonical = akc_theme_to_canonical (theme, NULL);
    again = akc_theme_resolve_text (canonical, -1, &error);
    g_assert_no_error (error);
    g_assert_true (akc_theme_equal (theme, again));
  }
}

static void
run_dom_css_variables (const AkcFixtureCase *fc,
                       gconstpointer         user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTheme) theme = akc_theme_resolve (input_theme (fc), &error);
  g_autoptr(AkcJsonValue) variables = NULL;
  AkcJsonValue *expected = akc_fixture_expect (fc, "variables");

  g_assert_no_error (error);
  variables = akc_theme_dup_dom_css_variables (theme);
  akc_assert_json_equal (variables, expected);

  /* In the order of the table in §6.4, as the fixture lists them. */
  g_assert_cmpuint (akc_json_value_get_member_count (variables), ==, akc_json_value_get_member_count (expected));
  for (gsize i = 0; i < akc_json_value_get_member_count (expected); i++)
    g_assert_cmpstr (akc_json_value_get_member_name (variables, i, NULL), ==,
                     akc_json_value_get_member_name (expected, i, NULL));
}

/* ------------------------------------------------------------------ */
/* Our own cases                                                       */
/* ------------------------------------------------------------------ */

static void
test_theme_defaults (void)
{
  g_autoptr(AkcTheme) theme = akc_theme_new_default ();
  g_autoptr(AkcTheme) resolved = akc_theme_resolve (NULL, NULL);
  g_autofree char *canonical = akc_theme_to_canonical (theme, NULL);

  g_assert_true (akc_theme_equal (theme, resolved));
  g_assert_cmpstr (akc_theme_get_color (theme, AKC_THEME_COLOR_BACKGROUND), ==, "#ffffff");
  g_assert_cmpstr (akc_theme_get_color (theme, AKC_THEME_COLOR_ON_ACCENT), ==, "#ffffff");
  g_assert_cmpstr (akc_theme_get_color (theme, AKC_THEME_COLOR_DANGER), ==, "#dc2626");
  g_assert_cmpfloat (akc_theme_get_spacing (theme, AKC_THEME_SPACING_SMALL), ==, 8);
  g_assert_cmpfloat (akc_theme_get_spacing (theme, AKC_THEME_SPACING_LARGE), ==, 16);
  g_assert_cmpfloat (akc_theme_get_radius (theme, AKC_THEME_RADIUS_LARGE), ==, 12);
  g_assert_cmpstr (akc_theme_get_font_family (theme), ==, AKC_THEME_FONT_FAMILY_SYSTEM);
  g_assert_true (akc_theme_uses_system_font (theme));

  /* Byte-exact, in schema order (§0.4). */
  g_assert_cmpstr (canonical, ==,
                   "{\"colors\":{\"background\":\"#ffffff\",\"surface\":\"#f3f4f6\",\"border\":\"#d1d5db\","
                   "\"text\":\"#111827\",\"muted\":\"#6b7280\",\"accent\":\"#2563eb\",\"onAccent\":\"#ffffff\","
                   "\"danger\":\"#dc2626\"},\"spacing\":{\"small\":8,\"medium\":12,\"large\":16},"
                   "\"radius\":{\"medium\":8,\"large\":12},\"fontFamily\":\"system\"}");
}

static void
test_theme_getters (void)
{
  g_autoptr(AkcJsonValue) input = akc_test_parse_json ("{\"fontFamily\":\"Inter\",\"radius\":{\"large\":0.5},"
                                     "\"colors\":{\"muted\":\"#ABC\"},\"spacing\":{\"medium\":1000}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTheme) theme = akc_theme_resolve (input, &error);
  g_autoptr(AkcTheme) defaults = akc_theme_new_default ();
  g_autoptr(AkcTheme) copy = NULL;
  g_autofree char *canonical = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (akc_theme_get_color (theme, AKC_THEME_COLOR_MUTED), ==, "#ABC");
  g_assert_cmpstr (akc_theme_get_color (theme, AKC_THEME_COLOR_TEXT), ==, "#111827");
  g_assert_cmpfloat (akc_theme_get_spacing (theme, AKC_THEME_SPACING_MEDIUM), ==, 1000);
  g_assert_cmpfloat (akc_theme_get_radius (theme, AKC_THEME_RADIUS_LARGE), ==, 0.5);
  g_assert_cmpfloat (akc_theme_get_radius (theme, AKC_THEME_RADIUS_MEDIUM), ==, 8);
  g_assert_cmpstr (akc_theme_get_font_family (theme), ==, "Inter");
  g_assert_false (akc_theme_uses_system_font (theme));
  g_assert_false (akc_theme_equal (theme, defaults));

  /* Input order does not matter: the canonical form is in schema order. */
  canonical = akc_theme_to_canonical (theme, NULL);
  g_assert_true (g_str_has_prefix (canonical, "{\"colors\":"));
  g_assert_true (g_str_has_suffix (canonical, "\"radius\":{\"medium\":8,\"large\":0.5},\"fontFamily\":\"Inter\"}"));

  copy = akc_theme_ref (theme);
  g_assert_true (copy == theme);
  akc_theme_unref (g_steal_pointer (&copy));
}

typedef struct {
  const char *input;
  const char *message;
} FailureCase;

static void
test_theme_failure_messages (void)
{
  static const FailureCase cases[] = {
    { "null", "Chat theme is invalid: the theme must be a JSON object." },
    { "[]", "Chat theme is invalid: the theme must be a JSON object." },
    { "{\"secretToken\":1}",
      "Chat theme is invalid: the theme has a member that is not colors, spacing, radius or fontFamily." },
    { "{\"colors\":null}", "Chat theme is invalid: colors must be an object." },
    { "{\"colors\":{\"secretBrand\":\"#fff\"}}",
      "Chat theme is invalid: colors has a token that is not one of background, surface, border, "
      "text, muted, accent, onAccent, danger." },
    { "{\"colors\":{\"accent\":\"secret-red\"}}",
      "Chat theme is invalid: colors.accent must be a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)." },
    { "{\"colors\":{\"accent\":7}}",
      "Chat theme is invalid: colors.accent must be a hex colour (#rgb, #rgba, #rrggbb or #rrggbbaa)." },
    { "{\"spacing\":{\"large\":1000.5}}", "Chat theme is invalid: spacing.large must be a number from 0 to 1000." },
    { "{\"radius\":{\"small\":4}}",
      "Chat theme is invalid: radius has a token that is not one of medium, large." },
    { "{\"radius\":{\"medium\":-0.5}}", "Chat theme is invalid: radius.medium must be a number from 0 to 1000." },
    { "{\"radius\":{\"medium\":1e999}}", "Chat theme is invalid: radius.medium must be a number from 0 to 1000." },
    { "{\"fontFamily\":\"secret, serif\"}",
      "Chat theme is invalid: fontFamily must be “system” or one font family name of at most 128 "
      "letters, digits, spaces, “_” and “-”, starting with a letter or digit." },
    { "{\"fontFamily\":\"\"}",
      "Chat theme is invalid: fontFamily must be “system” or one font family name of at most 128 "
      "letters, digits, spaces, “_” and “-”, starting with a letter or digit." },
    /* The first failing member is named; valid ones before it are not. */
    { "{\"colors\":{\"accent\":\"#fff\"},\"spacing\":{\"small\":\"8px\"},\"radius\":null}",
      "Chat theme is invalid: spacing.small must be a number from 0 to 1000." },
    { "{\"colors\":", "Chat theme is invalid: the theme is not valid JSON." },
    { "", "Chat theme is invalid: the theme is not valid JSON." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcTheme) theme = akc_theme_resolve_text (cases[i].input, -1, &error);

      g_test_message ("input: %s", cases[i].input);
      g_assert_null (theme);
      g_assert_error (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID);
      g_assert_cmpstr (error->message, ==, cases[i].message);
      /* Never an echo of the input. */
      g_assert_null (strstr (error->message, "secret"));
    }
}

static void
test_theme_text (void)
{
  g_autoptr(GError) error = NULL;
  /* Duplicate members: the last one wins (§0.4 JSON.parse). */
  g_autoptr(AkcTheme) theme = akc_theme_resolve_text ("{\"colors\":{\"accent\":\"#111\",\"accent\":\"#222\"}}", -1, &error);
  g_autoptr(AkcTheme) bounded = NULL;
  g_autoptr(AkcTheme) defaults = akc_theme_new_default ();

  g_assert_no_error (error);
  g_assert_cmpstr (akc_theme_get_color (theme, AKC_THEME_COLOR_ACCENT), ==, "#222");

  /* @length bounds the text. */
  bounded = akc_theme_resolve_text ("{}garbage", 2, &error);
  g_assert_no_error (error);
  g_assert_true (akc_theme_equal (bounded, defaults));
}

static void
test_theme_dom_numbers (void)
{
  g_autoptr(AkcJsonValue) input = akc_test_parse_json ("{\"spacing\":{\"small\":4.5,\"medium\":0},\"radius\":{\"medium\":0.1}}");
  g_autoptr(AkcTheme) theme = akc_theme_resolve (input, NULL);
  g_autoptr(AkcJsonValue) variables = akc_theme_dup_dom_css_variables (theme);

  /* ECMAScript Number::toString, then `px` (§0.7, §6.4). */
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (variables, "--ak-spacing-sm"), NULL), ==, "4.5px");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (variables, "--ak-spacing-md"), NULL), ==, "0px");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (variables, "--ak-radius"), NULL), ==, "0.1px");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/theme.json", "/components/theme", "resolveTheme",
                         run_resolve, NULL);
  akc_fixture_add_tests ("application/theme.json", "/components/theme", "domCssVariables",
                         run_dom_css_variables, NULL);
  g_test_add_func ("/components/theme/defaults", test_theme_defaults);
  g_test_add_func ("/components/theme/getters", test_theme_getters);
  g_test_add_func ("/components/theme/failure-messages", test_theme_failure_messages);
  g_test_add_func ("/components/theme/text", test_theme_text);
  g_test_add_func ("/components/theme/dom-numbers", test_theme_dom_numbers);

  return g_test_run ();
}

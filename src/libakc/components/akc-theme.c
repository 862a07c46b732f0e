/* akc-theme.c: the semantic theme (application §6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-error.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-theme.h"

/**
 * AkcTheme:
 *
 * A resolved semantic theme (`resolveChatTheme`, [application §6](wire-formats.html#application-6)): eight
 * colours, three spacings, two corner radii and a font family, each one
 * either given by the application or taken from the defaults of §6.2.
 *
 * A theme is resolved from JSON with [func@Theme.resolve] or
 * [ctor@Theme.resolve_text], which validate it strictly at every level:
 * colours are `#` and 3, 4, 6 or 8 hex digits (no names, `rgb()` or
 * `var()`), lengths are finite numbers from 0 to 1000, the font family is
 * `system` or one family name, and a token or group the schema does not
 * know fails. A theme that fails is a configuration error
 * (%AKC_ERROR_CONFIG_INVALID): nothing of it is applied.
 *
 * A theme has no light and dark variants: its colours are absolute, and
 * text and background both come from it, so a renderer that applies it
 * stays legible whatever the platform's colour scheme. An application that
 * wants to follow the platform resolves one theme for each scheme and
 * applies the one that matches.
 *
 * Themes are immutable and reference counted.
 *
 * Since: 0.1
 */

#define N_COLORS  8
#define N_SPACING 3
#define N_RADIUS  2
#define MAX_LENGTH 1000
#define MAX_FONT_FAMILY 128

/* The DOM shells' system font stack (application §6.4). */
#define DOM_SYSTEM_FONT_STACK "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif"

#define INVALID_PREFIX "Chat theme is invalid: "

struct _AkcTheme {
  gint    ref_count;
  char   *colors[N_COLORS];
  double  spacing[N_SPACING];
  double  radius[N_RADIUS];
  char   *font_family;
};

G_DEFINE_BOXED_TYPE (AkcTheme, akc_theme, akc_theme_ref, akc_theme_unref)

/* ------------------------------------------------------------------ */
/* Schema (§6.1) and defaults (§6.2)                                    */
/* ------------------------------------------------------------------ */

/* `^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$` */
static gboolean
is_hex_color (const char *s,
              gsize       len)
{
  if (len != 4 && len != 5 && len != 7 && len != 9)
    return FALSE;
  if (s[0] != '#')
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!g_ascii_isxdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* `system` or `^[A-Za-z0-9][A-Za-z0-9 _-]{0,127}$` */
static gboolean
is_font_family (const char *s,
                gsize       len)
{
  if (len < 1 || len > MAX_FONT_FAMILY || !g_ascii_isalnum (s[0]))
    return FALSE;
  for (gsize i = 1; i < len; i++)
    if (!g_ascii_isalnum (s[i]) && s[i] != ' ' && s[i] != '_' && s[i] != '-')
      return FALSE;
  return TRUE;
}

#define COLOR_FIELD(name)  { name, AKC_SCHEMA_PATTERN (is_hex_color), .optional = TRUE }
#define LENGTH_FIELD(name) { name, AKC_SCHEMA_NUMBER (0, MAX_LENGTH), .optional = TRUE }

/* In AkcThemeColor order. */
static const AkcSchemaField color_fields[] = {
  COLOR_FIELD ("background"),
  COLOR_FIELD ("surface"),
  COLOR_FIELD ("border"),
  COLOR_FIELD ("text"),
  COLOR_FIELD ("muted"),
  COLOR_FIELD ("accent"),
  COLOR_FIELD ("onAccent"),
  COLOR_FIELD ("danger"),
};
static const AkcSchemaTable color_table = AKC_SCHEMA_TABLE (color_fields, AKC_SCHEMA_CLOSED);

/* In AkcThemeSpacing order. */
static const AkcSchemaField spacing_fields[] = {
  LENGTH_FIELD ("small"),
  LENGTH_FIELD ("medium"),
  LENGTH_FIELD ("large"),
};
static const AkcSchemaTable spacing_table = AKC_SCHEMA_TABLE (spacing_fields, AKC_SCHEMA_CLOSED);

/* In AkcThemeRadius order. */
static const AkcSchemaField radius_fields[] = {
  LENGTH_FIELD ("medium"),
  LENGTH_FIELD ("large"),
};
static const AkcSchemaTable radius_table = AKC_SCHEMA_TABLE (radius_fields, AKC_SCHEMA_CLOSED);

enum {
  GROUP_COLORS,
  GROUP_SPACING,
  GROUP_RADIUS,
  FIELD_FONT_FAMILY,
};

static const AkcSchemaField theme_fields[] = {
  { "colors",     AKC_SCHEMA_OBJECT (&color_table),       .optional = TRUE },
  { "spacing",    AKC_SCHEMA_OBJECT (&spacing_table),     .optional = TRUE },
  { "radius",     AKC_SCHEMA_OBJECT (&radius_table),      .optional = TRUE },
  { "fontFamily", AKC_SCHEMA_PATTERN (is_font_family),    .optional = TRUE },
};
static const AkcSchemaTable theme_table = AKC_SCHEMA_TABLE (theme_fields, AKC_SCHEMA_CLOSED);

G_STATIC_ASSERT (G_N_ELEMENTS (color_fields) == N_COLORS);
G_STATIC_ASSERT (G_N_ELEMENTS (spacing_fields) == N_SPACING);
G_STATIC_ASSERT (G_N_ELEMENTS (radius_fields) == N_RADIUS);

static const char * const default_colors[N_COLORS] = {
  "#ffffff", "#f3f4f6", "#d1d5db", "#111827", "#6b7280", "#2563eb", "#ffffff", "#dc2626",
};
static const double default_spacing[N_SPACING] = { 8, 12, 16 };
static const double default_radius[N_RADIUS] = { 8, 12 };

/* ------------------------------------------------------------------ */
/* Failure messages                                                    */
/* ------------------------------------------------------------------ */

/* The messages name tokens of the schema only, never a rejected value or
 * an unknown member's name. */

static char *
describe_token (const char *group,
                const char *token)
{
  if (g_strcmp0 (group, "colors") == 0)
    return g_strdup_printf (INVALID_PREFIX "colors.%s must be a hex colour "
                            "(#rgb, #rgba, #rrggbb or #rrggbbaa).", token);
  if (group != NULL)
    return g_strdup_printf (INVALID_PREFIX "%s.%s must be a number from 0 to %d.",
                            group, token, MAX_LENGTH);
  return g_strdup_printf (INVALID_PREFIX "fontFamily must be “system” or one font family "
                          "name of at most %d letters, digits, spaces, “_” and “-”, "
                          "starting with a letter or digit.", MAX_FONT_FAMILY);
}

static const AkcSchemaField *
find_field (const AkcSchemaTable *table,
            const char           *name,
            gsize                 len)
{
  for (guint i = 0; i < table->n_fields; i++)
    if (strlen (table->fields[i].name) == len && memcmp (table->fields[i].name, name, len) == 0)
      return &table->fields[i];
  return NULL;
}

static gboolean
is_proto (const char *name,
          gsize       len)
{
  return len == 9 && memcmp (name, "__proto__", 9) == 0;
}

/* Why @input failed theme_table: the first member that does. */
static char *
describe_failure (AkcJsonValue *input)
{
  if (akc_json_value_get_kind (input) != AKC_JSON_KIND_OBJECT)
    return g_strdup (INVALID_PREFIX "the theme must be a JSON object.");

  for (gsize i = 0; i < akc_json_value_get_member_count (input); i++)
    {
      gsize len;
      const char *name = akc_json_value_get_member_name (input, i, &len);
      AkcJsonValue *value = akc_json_value_get_member_value (input, i);
      const AkcSchemaField *field = find_field (&theme_table, name, len);
      const AkcSchemaTable *group;

      if (field == NULL)
        {
          if (is_proto (name, len))
            continue;
          return g_strdup (INVALID_PREFIX "the theme has a member that is not colors, "
                           "spacing, radius or fontFamily.");
        }
      if (akc_schema_validate (&field->type, value, input, NULL))
        continue;
      if (field->type.kind != AKC_SCHEMA_KIND_OBJECT)
        return describe_token (NULL, field->name);

      if (akc_json_value_get_kind (value) != AKC_JSON_KIND_OBJECT)
        return g_strdup_printf (INVALID_PREFIX "%s must be an object.", field->name);

      group = field->type.table;
      for (gsize j = 0; j < akc_json_value_get_member_count (value); j++)
        {
          gsize token_len;
          const char *token_name = akc_json_value_get_member_name (value, j, &token_len);
          const AkcSchemaField *token = find_field (group, token_name, token_len);
          g_autoptr(GString) known = NULL;

          if (token != NULL)
            {
              if (!akc_schema_validate (&token->type, akc_json_value_get_member_value (value, j), value, NULL))
                return describe_token (field->name, token->name);
              continue;
            }
          if (is_proto (token_name, token_len))
            continue;

          known = g_string_new (NULL);
          for (guint k = 0; k < group->n_fields; k++)
            g_string_append_printf (known, "%s%s", k == 0 ? "" : ", ", group->fields[k].name);
          return g_strdup_printf (INVALID_PREFIX "%s has a token that is not one of %s.",
                                  field->name, known->str);
        }
    }

  return g_strdup (INVALID_PREFIX "the theme does not match its schema.");
}

/* ------------------------------------------------------------------ */
/* Resolution (§6.3)                                                   */
/* ------------------------------------------------------------------ */

static AkcTheme *
theme_new (void)
{
  AkcTheme *self = g_new0 (AkcTheme, 1);

  self->ref_count = 1;
  for (guint i = 0; i < N_COLORS; i++)
    self->colors[i] = g_strdup (default_colors[i]);
  memcpy (self->spacing, default_spacing, sizeof self->spacing);
  memcpy (self->radius, default_radius, sizeof self->radius);
  self->font_family = g_strdup (AKC_THEME_FONT_FAMILY_SYSTEM);

  return self;
}

static void
merge_numbers (AkcJsonValue         *group,
               const AkcSchemaTable *table,
               double               *numbers)
{
  for (guint i = 0; group != NULL && i < table->n_fields; i++)
    {
      AkcJsonValue *v = akc_json_value_get_member (group, table->fields[i].name);

      if (v != NULL)
        numbers[i] = akc_json_value_get_number (v);
    }
}

/**
 * akc_theme_new_default:
 *
 * Creates the default theme of [application §6.2](wire-formats.html#application-6), the one an absent
 * input resolves to.
 *
 * Returns: (transfer full): the default theme
 *
 * Since: 0.1
 */
AkcTheme *
akc_theme_new_default (void)
{
  return theme_new ();
}

/**
 * akc_theme_resolve:
 * @input: (nullable): the theme as JSON, or %NULL when there is none
 * @error: return location for a #GError
 *
 * Resolves a semantic theme (`resolveChatTheme`, [application §6.3](wire-formats.html#application-6)):
 * each group of @input (`colors`, `spacing`, `radius`) and `fontFamily` is
 * merged over the defaults of §6.2, token by token. A %NULL @input means
 * `{}`, the defaults.
 *
 * The theme is strict at every level (§6.1). A JSON `null`, a value that
 * is not an object, a group that is not an object, a member or token the
 * schema does not know, or a token value of the wrong form fail with
 * %AKC_ERROR_CONFIG_INVALID; the message names the token that failed, and
 * never the rejected value or an unknown member's name.
 *
 * Returns: (transfer full): the resolved theme, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTheme *
akc_theme_resolve (AkcJsonValue  *input,
                   GError       **error)
{
  g_autoptr(AkcJsonValue) normalised = NULL;
  AkcJsonValue *colors;
  AkcJsonValue *font_family;
  AkcTheme *self;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (input == NULL)
    return theme_new ();

  if (!akc_schema_validate_table (&theme_table, input, &normalised))
    {
      g_autofree char *message = describe_failure (input);

      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, message);
      return NULL;
    }

  self = theme_new ();

  colors = akc_json_value_get_member (normalised, "colors");
  for (guint i = 0; colors != NULL && i < N_COLORS; i++)
    {
      AkcJsonValue *v = akc_json_value_get_member (colors, color_fields[i].name);

      if (v != NULL)
        {
          g_free (self->colors[i]);
          self->colors[i] = g_strdup (akc_json_value_get_string (v, NULL));
        }
    }
  merge_numbers (akc_json_value_get_member (normalised, "spacing"), &spacing_table, self->spacing);
  merge_numbers (akc_json_value_get_member (normalised, "radius"), &radius_table, self->radius);

  font_family = akc_json_value_get_member (normalised, "fontFamily");
  if (font_family != NULL)
    {
      g_free (self->font_family);
      self->font_family = g_strdup (akc_json_value_get_string (font_family, NULL));
    }

  return self;
}

/**
 * akc_theme_resolve_text: (constructor)
 * @text: the theme as JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #GError
 *
 * Parses @text as JSON and resolves it with [func@Theme.resolve]. Text
 * that is not JSON fails with %AKC_ERROR_CONFIG_INVALID too.
 *
 * Returns: (transfer full): the resolved theme, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTheme *
akc_theme_resolve_text (const char  *text,
                        gssize       length,
                        GError     **error)
{
  g_autoptr(AkcJsonValue) input = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (text == NULL)
    text = "";

  input = akc_json_parse (text, length < 0 ? strlen (text) : (gsize) length, NULL, NULL, NULL);
  if (input == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           INVALID_PREFIX "the theme is not valid JSON.");
      return NULL;
    }

  return akc_theme_resolve (input, error);
}

/**
 * akc_theme_resolve_text_utf8: (rename-to akc_theme_resolve_text) (constructor)
 * @text: the theme as JSON text
 * @error: return location for a #GError
 *
 * Does what akc_theme_resolve_text() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full): the resolved theme, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTheme *
akc_theme_resolve_text_utf8 (const char  *text,
                             GError     **error)
{
  return akc_theme_resolve_text (text, -1, error);
}

/**
 * akc_theme_ref:
 * @self: a theme
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcTheme *
akc_theme_ref (AkcTheme *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_int_inc (&self->ref_count);
  return self;
}

/**
 * akc_theme_unref:
 * @self: (transfer full): a theme
 *
 * Releases a reference on @self, freeing it when it was the last one.
 *
 * Since: 0.1
 */
void
akc_theme_unref (AkcTheme *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_int_dec_and_test (&self->ref_count))
    return;

  for (guint i = 0; i < N_COLORS; i++)
    g_free (self->colors[i]);
  g_free (self->font_family);
  g_free (self);
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */
/* ------------------------------------------------------------------ */

/**
 * akc_theme_get_color:
 * @self: a theme
 * @token: a colour token
 *
 * Gets a colour of @self as it was given: `#` and 3, 4, 6 or 8 hex
 * digits, in the case it was written in.
 *
 * Returns: (transfer none): the colour
 *
 * Since: 0.1
 */
const char *
akc_theme_get_color (const AkcTheme *self,
                     AkcThemeColor   token)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail ((guint) token < N_COLORS, NULL);

  return self->colors[token];
}

/**
 * akc_theme_get_spacing:
 * @self: a theme
 * @token: a spacing token
 *
 * Gets a spacing of @self in pixels, from 0 to 1000 (fractions allowed).
 *
 * Returns: the spacing
 *
 * Since: 0.1
 */
double
akc_theme_get_spacing (const AkcTheme  *self,
                       AkcThemeSpacing  token)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) token < N_SPACING, 0);

  return self->spacing[token];
}

/**
 * akc_theme_get_radius:
 * @self: a theme
 * @token: a radius token
 *
 * Gets a corner radius of @self in pixels, from 0 to 1000.
 *
 * Returns: the radius
 *
 * Since: 0.1
 */
double
akc_theme_get_radius (const AkcTheme *self,
                      AkcThemeRadius  token)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail ((guint) token < N_RADIUS, 0);

  return self->radius[token];
}

/**
 * akc_theme_get_font_family:
 * @self: a theme
 *
 * Gets the font family of @self: %AKC_THEME_FONT_FAMILY_SYSTEM, or one
 * family name of letters, digits, spaces, `_` and `-` (never a list, never
 * quoted).
 *
 * Returns: (transfer none): the font family
 *
 * Since: 0.1
 */
const char *
akc_theme_get_font_family (const AkcTheme *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->font_family;
}

/**
 * akc_theme_uses_system_font:
 * @self: a theme
 *
 * Gets whether the font family of @self is %AKC_THEME_FONT_FAMILY_SYSTEM,
 * in which case a renderer leaves the platform's font alone.
 *
 * Returns: %TRUE for the system font
 *
 * Since: 0.1
 */
gboolean
akc_theme_uses_system_font (const AkcTheme *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return strcmp (self->font_family, AKC_THEME_FONT_FAMILY_SYSTEM) == 0;
}

/**
 * akc_theme_equal:
 * @a: a theme
 * @b: another theme
 *
 * Compares two themes token by token.
 *
 * Returns: %TRUE when every token of @a equals that of @b
 *
 * Since: 0.1
 */
gboolean
akc_theme_equal (const AkcTheme *a,
                 const AkcTheme *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  if (a == b)
    return TRUE;
  for (guint i = 0; i < N_COLORS; i++)
    if (strcmp (a->colors[i], b->colors[i]) != 0)
      return FALSE;
  for (guint i = 0; i < N_SPACING; i++)
    if (a->spacing[i] != b->spacing[i])
      return FALSE;
  for (guint i = 0; i < N_RADIUS; i++)
    if (a->radius[i] != b->radius[i])
      return FALSE;
  return strcmp (a->font_family, b->font_family) == 0;
}

/* ------------------------------------------------------------------ */
/* Serialisation                                                       */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
numbers_object (const AkcSchemaTable *table,
                const double         *numbers)
{
  AkcJsonMemberInit members[N_SPACING];

  g_assert (table->n_fields <= G_N_ELEMENTS (members));
  for (guint i = 0; i < table->n_fields; i++)
    members[i] = (AkcJsonMemberInit) {
      table->fields[i].name, strlen (table->fields[i].name), akc_json_value_new_number (numbers[i]),
    };
  return akc_json_object_new_steal (members, table->n_fields, TRUE, AKC_JSON_FLAG_STATIC_NAMES);
}

/**
 * akc_theme_to_json:
 * @self: a theme
 *
 * Gets @self as the resolved theme of the reference: every group with
 * every token, in the schema's order (`colors`, `spacing`, `radius`,
 * `fontFamily`; [application §6.1](wire-formats.html#application-6)).
 *
 * Returns: (transfer full): the theme as a JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_theme_to_json (const AkcTheme *self)
{
  AkcJsonMemberInit colors[N_COLORS];
  AkcJsonMemberInit members[4];

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < N_COLORS; i++)
    colors[i] = (AkcJsonMemberInit) {
      color_fields[i].name, strlen (color_fields[i].name), akc_json_value_new_string (self->colors[i], -1),
    };

  members[GROUP_COLORS] = (AkcJsonMemberInit) {
    "colors", strlen ("colors"),
    akc_json_object_new_steal (colors, N_COLORS, TRUE, AKC_JSON_FLAG_STATIC_NAMES),
  };
  members[GROUP_SPACING] = (AkcJsonMemberInit) {
    "spacing", strlen ("spacing"), numbers_object (&spacing_table, self->spacing),
  };
  members[GROUP_RADIUS] = (AkcJsonMemberInit) {
    "radius", strlen ("radius"), numbers_object (&radius_table, self->radius),
  };
  members[FIELD_FONT_FAMILY] = (AkcJsonMemberInit) {
    "fontFamily", strlen ("fontFamily"), akc_json_value_new_string (self->font_family, -1),
  };

  return akc_json_object_new_steal (members, G_N_ELEMENTS (members), TRUE, AKC_JSON_FLAG_STATIC_NAMES);
}

/**
 * akc_theme_to_canonical:
 * @self: a theme
 * @length: (out) (optional): return location for the length in bytes
 *
 * Serialises @self canonically ([application §0.4](wire-formats.html#application-0)): the value of
 * [method@Theme.to_json], compact, in schema order. Resolving the text
 * again gives an equal theme.
 *
 * Returns: (transfer full): the canonical JSON text
 *
 * Since: 0.1
 */
char *
akc_theme_to_canonical (const AkcTheme *self,
                        gsize          *length)
{
  g_autoptr(AkcJsonValue) json = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  json = akc_theme_to_json (self);
  return akc_json_value_to_canonical (json, length);
}

/**
 * akc_theme_to_canonical_utf8: (rename-to akc_theme_to_canonical)
 * @self: a theme
 *
 * Does what akc_theme_to_canonical() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full): the canonical JSON text
 *
 * Since: 0.1
 */
char *
akc_theme_to_canonical_utf8 (const AkcTheme *self)
{
  return akc_theme_to_canonical (self, NULL);
}

static void
append_length (GPtrArray  *names,
               GPtrArray  *values,
               const char *name,
               double      px)
{
  char buf[AKC_JSON_NUMBER_BUF_SIZE + 2];
  gsize n = akc_json_format_number (px, buf);

  memcpy (buf + n, "px", 3);
  g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_add (values, akc_json_value_new_string (buf, -1));
}

static void
append_color (GPtrArray      *names,
              GPtrArray      *values,
              const char     *name,
              const AkcTheme *self,
              AkcThemeColor   token)
{
  g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_add (values, akc_json_value_new_string (self->colors[token], -1));
}

/**
 * akc_theme_dup_dom_css_variables:
 * @self: a theme
 *
 * Maps @self to the CSS custom properties of the reference's DOM shells
 * ([application §6.4](wire-formats.html#application-6)): `--ak-color-bg`, `--ak-color-bubble-user` and the
 * rest, with lengths in pixels (`12px`) and the system font as a font
 * stack. Native renderers do not use it; it is the mapping's contract, and
 * what a web view showing a conversation would be given.
 *
 * Returns: (transfer full): a JSON object of variable names to values, in
 *   the order of §6.4
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_theme_dup_dom_css_variables (const AkcTheme *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  AkcJsonValue *object;

  g_return_val_if_fail (self != NULL, NULL);

  append_color (names, values, "--ak-color-bg", self, AKC_THEME_COLOR_BACKGROUND);
  append_color (names, values, "--ak-color-surface", self, AKC_THEME_COLOR_SURFACE);
  append_color (names, values, "--ak-color-border", self, AKC_THEME_COLOR_BORDER);
  append_color (names, values, "--ak-color-text", self, AKC_THEME_COLOR_TEXT);
  append_color (names, values, "--ak-color-text-muted", self, AKC_THEME_COLOR_MUTED);
  append_color (names, values, "--ak-color-bubble-user", self, AKC_THEME_COLOR_ACCENT);
  append_color (names, values, "--ak-color-bubble-user-text", self, AKC_THEME_COLOR_ON_ACCENT);
  append_color (names, values, "--ak-color-bubble-assistant", self, AKC_THEME_COLOR_SURFACE);
  append_color (names, values, "--ak-color-bubble-assistant-text", self, AKC_THEME_COLOR_TEXT);
  append_color (names, values, "--ak-color-input-bg", self, AKC_THEME_COLOR_BACKGROUND);
  append_color (names, values, "--ak-color-input-border", self, AKC_THEME_COLOR_BORDER);
  append_color (names, values, "--ak-color-input-focus", self, AKC_THEME_COLOR_ACCENT);
  append_color (names, values, "--ak-color-button", self, AKC_THEME_COLOR_ACCENT);
  append_color (names, values, "--ak-color-button-text", self, AKC_THEME_COLOR_ON_ACCENT);
  append_color (names, values, "--ak-color-tool-bg", self, AKC_THEME_COLOR_SURFACE);
  append_color (names, values, "--ak-color-tool-border", self, AKC_THEME_COLOR_BORDER);
  append_color (names, values, "--ak-app-color-danger", self, AKC_THEME_COLOR_DANGER);

  g_ptr_array_add (names, (gpointer) "--ak-font-family");
  g_ptr_array_add (values, akc_json_value_new_string (akc_theme_uses_system_font (self)
                                                        ? DOM_SYSTEM_FONT_STACK
                                                        : self->font_family, -1));

  append_length (names, values, "--ak-radius", self->radius[AKC_THEME_RADIUS_MEDIUM]);
  append_length (names, values, "--ak-radius-lg", self->radius[AKC_THEME_RADIUS_LARGE]);
  append_length (names, values, "--ak-spacing-sm", self->spacing[AKC_THEME_SPACING_SMALL]);
  append_length (names, values, "--ak-spacing-md", self->spacing[AKC_THEME_SPACING_MEDIUM]);
  append_length (names, values, "--ak-spacing-lg", self->spacing[AKC_THEME_SPACING_LARGE]);

  object = akc_json_value_new_object ((const char * const *) names->pdata,
                                      (AkcJsonValue * const *) values->pdata,
                                      names->len);
  g_ptr_array_set_free_func (values, (GDestroyNotify) akc_json_value_unref);
  return object;
}

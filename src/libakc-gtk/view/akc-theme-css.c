/* akc-theme-css.c: a semantic theme as a GTK style sheet
 * (application §6.4, port note)
 *
 * SPDX-License-Identifier: MIT
 *
 * GTK 4.8 has no CSS custom properties, so the tokens are written out as
 * concrete CSS: one `@define-color` per colour, named after the view's
 * scope class so two views with different themes never share a name, and
 * rules under `chatview.<scope>` that mirror the reference's native
 * mapping:
 *
 *  - root: `background` fill, `text` colour, `spacing.large` above and
 *    below the transcript and beside the rows;
 *  - user bubble: `accent` fill, `onAccent` text, `radius.large`,
 *    `spacing.medium` padding; assistant bubble: `surface` fill, `text`;
 *  - cards (components, tool confirmations): `surface` fill, a 1-px
 *    `border`, `radius.large`, `spacing.medium` padding;
 *  - choices: a 1-px `border`, `radius.medium`, `spacing.medium` padding;
 *  - secondary text `muted`; links, focus rings and suggested buttons
 *    `accent`; errors `danger`; tool status as in the terminal mapping
 *    (pending `muted`; running, complete, requires_confirmation `accent`;
 *    error `danger`);
 *  - the font family, unless it is `system`.
 *
 * Every text colour inside the view is set next to the fill it sits on,
 * so the platform's light or dark colours never meet the theme's.
 */

#include "config.h"

#include <string.h>

#include "akc-theme-css-private.h"

typedef struct {
  GString    *css;
  const char *scope;   /* "chatview.akc-theme-1" */
  char       *prefix;  /* "akc_theme_1" */
} Sheet;

static const char * const color_names[] = {
  "background", "surface", "border", "text", "muted", "accent", "on_accent", "danger",
};

/* `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (validated by AkcTheme). */
static GdkRGBA
parse_hex (const char *hex)
{
  gsize len = strlen (hex) - 1;
  gsize digits = len <= 4 ? 1 : 2;
  double channel[4] = { 0, 0, 0, 1 };

  g_assert (hex[0] == '#' && (len == 3 || len == 4 || len == 6 || len == 8));

  for (gsize i = 0; i < len / digits; i++)
    {
      int value = g_ascii_xdigit_value (hex[1 + i * digits]);

      if (digits == 2)
        value = value * 16 + g_ascii_xdigit_value (hex[2 + i * digits]);
      else
        value = value * 17;
      channel[i] = value / 255.0;
    }

  return (GdkRGBA) { channel[0], channel[1], channel[2], channel[3] };
}

/* A length in pixels, without exponent (CSS of GTK 4.8). */
static void
append_px (GString *css,
           double   px)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  g_ascii_formatd (buf, sizeof buf, "%.3f", px);
  end = buf + strlen (buf) - 1;
  while (*end == '0')
    *end-- = '\0';
  if (*end == '.')
    *end = '\0';
  g_string_append_printf (css, "%spx", buf);
}

static void
rule (Sheet      *sheet,
      const char *selectors,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

/* One rule: @selectors are comma-separated, each relative to the scope
 * ("" for the view itself); @format gives the declarations. */
static void
rule (Sheet      *sheet,
      const char *selectors,
      const char *format,
      ...)
{
  g_auto(GStrv) parts = g_strsplit (selectors, ",", -1);
  va_list args;

  if (*selectors == '\0')
    g_string_append (sheet->css, sheet->scope);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *sel = g_strstrip (parts[i]);

      g_string_append_printf (sheet->css, "%s%s%s%s", i > 0 ? ",\n" : "", sheet->scope,
                              *sel != '\0' && *sel != ':' ? " " : "", sel);
    }
  g_string_append (sheet->css, " {\n  ");
  va_start (args, format);
  g_string_append_vprintf (sheet->css, format, args);
  va_end (args);
  g_string_append (sheet->css, "\n}\n\n");
}

/* "@akc_theme_1_accent" */
static char *
color (Sheet         *sheet,
       AkcThemeColor  token)
{
  return g_strdup_printf ("@%s_%s", sheet->prefix, color_names[token]);
}

static char *
px (double value)
{
  g_autoptr(GString) s = g_string_new (NULL);

  append_px (s, value);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
akc_theme_css_generate (const AkcTheme *theme,
                        const char     *scope_class)
{
  Sheet sheet;
  g_autofree char *scope = NULL;
  g_autofree char *bg = NULL, *surface = NULL, *border = NULL, *text = NULL;
  g_autofree char *muted = NULL, *accent = NULL, *on_accent = NULL, *danger = NULL;
  g_autofree char *small = NULL, *medium = NULL, *large = NULL;
  g_autofree char *radius = NULL, *radius_large = NULL;

  g_assert (theme != NULL);
  g_assert (scope_class != NULL);

  scope = g_strconcat ("chatview.", scope_class, NULL);
  sheet.css = g_string_new (NULL);
  sheet.scope = scope;
  sheet.prefix = g_strdelimit (g_strdup (scope_class), "-", '_');

  g_string_append_printf (sheet.css, "/* Semantic theme of %s */\n\n", scope);
  for (guint i = 0; i < G_N_ELEMENTS (color_names); i++)
    {
      GdkRGBA rgba = parse_hex (akc_theme_get_color (theme, (AkcThemeColor) i));
      g_autofree char *value = gdk_rgba_to_string (&rgba);

      g_string_append_printf (sheet.css, "@define-color %s_%s %s;\n", sheet.prefix, color_names[i], value);
    }
  g_string_append (sheet.css, "\n");

  bg = color (&sheet, AKC_THEME_COLOR_BACKGROUND);
  surface = color (&sheet, AKC_THEME_COLOR_SURFACE);
  border = color (&sheet, AKC_THEME_COLOR_BORDER);
  text = color (&sheet, AKC_THEME_COLOR_TEXT);
  muted = color (&sheet, AKC_THEME_COLOR_MUTED);
  accent = color (&sheet, AKC_THEME_COLOR_ACCENT);
  on_accent = color (&sheet, AKC_THEME_COLOR_ON_ACCENT);
  danger = color (&sheet, AKC_THEME_COLOR_DANGER);
  small = px (akc_theme_get_spacing (theme, AKC_THEME_SPACING_SMALL));
  medium = px (akc_theme_get_spacing (theme, AKC_THEME_SPACING_MEDIUM));
  large = px (akc_theme_get_spacing (theme, AKC_THEME_SPACING_LARGE));
  radius = px (akc_theme_get_radius (theme, AKC_THEME_RADIUS_MEDIUM));
  radius_large = px (akc_theme_get_radius (theme, AKC_THEME_RADIUS_LARGE));

  /* Root */
  if (akc_theme_uses_system_font (theme))
    rule (&sheet, "", "background-color: %s;\n  color: %s;", bg, text);
  else
    rule (&sheet, "", "background-color: %s;\n  color: %s;\n  font-family: \"%s\";",
          bg, text, akc_theme_get_font_family (theme));
  rule (&sheet, "> listview.transcript", "padding: %s 0;", large);
  rule (&sheet, "messagerow", "padding: %s %s;", small, large);
  rule (&sheet, "> listview.transcript > row:focus-visible", "outline-color: alpha(%s, 0.5);", accent);

  /* Bubbles */
  rule (&sheet, "messagerow .bubble",
        "padding: %s;\n  border-radius: %s;\n  background-color: %s;\n  color: %s;",
        medium, radius_large, surface, text);
  rule (&sheet, "messagerow.user .bubble", "background-color: %s;\n  color: %s;", accent, on_accent);
  rule (&sheet, "messagerow.failed .bubble", "box-shadow: inset 0 0 0 1px %s;", danger);

  /* Secondary and error text */
  rule (&sheet, "messagerow > box > .author, messagerow .note, .dim-label, choicelist button.choice .description, "
        "choicelist button.choice .number",
        "color: %s;\n  opacity: 1;", muted);
  rule (&sheet, "messagerow.user .bubble .dim-label", "color: %s;\n  opacity: 0.8;", on_accent);
  rule (&sheet, "label.diagnostic, componentview > box > label.component-error, .error-area",
        "border-radius: %s;\n  color: %s;\n  background-color: alpha(%s, 0.1);", radius, danger, danger);
  rule (&sheet, ".error-area label", "color: %s;", text);
  rule (&sheet, "componentform .field-error, errornotice .icon", "color: %s;", danger);

  /* Cards */
  rule (&sheet, ".component, .tool-confirmation",
        "padding: %s;\n  border-radius: %s;\n  background-color: %s;\n  color: %s;\n  box-shadow: inset 0 0 0 1px %s;",
        medium, radius_large, surface, text, border);
  rule (&sheet, "errornotice.component",
        "background-color: alpha(%s, 0.08);\n  box-shadow: inset 0 0 0 1px %s;", danger, danger);
  rule (&sheet, ".tool-confirmation, .thinking, .error-area, .response-actions",
        "margin: %s %s;", small, large);
  rule (&sheet, "codeblock, .json, componenttable .table-frame", "border-radius: %s;", radius);

  /* Choices */
  rule (&sheet, "choicelist button.choice",
        "padding: %s;\n  border-radius: %s;\n  box-shadow: inset 0 0 0 1px %s;", medium, radius, border);
  rule (&sheet, "choicelist button.choice:focus-visible, choicelist button.choice.current:not(:disabled), "
        ".tool-confirmation button.current",
        "outline-color: alpha(%s, 0.5);", accent);

  /* Buttons, links, focus */
  rule (&sheet, "button.suggested-action", "background-color: %s;\n  color: %s;", accent, on_accent);
  rule (&sheet, "button.destructive-action", "background-color: %s;\n  color: %s;", danger, on_accent);
  rule (&sheet, "linkcard .link-text, button.link, link", "color: %s;", accent);
  rule (&sheet, "linkcard.component:focus-visible", "outline-color: alpha(%s, 0.5);", accent);

  /* Text input inside the view (the inline editor, form fields) */
  rule (&sheet, ".response-actions .editor-frame",
        "border-radius: %s;\n  background-color: %s;\n  box-shadow: inset 0 0 0 1px %s;", radius_large, bg, border);
  rule (&sheet, ".response-actions .editor-frame:focus-within", "box-shadow: inset 0 0 0 2px %s;", accent);
  rule (&sheet, "textview, textview > text, entry, entry > text, spinbutton, spinbutton > text",
        "color: %s;", text);

  /* Tool status (terminal mapping of §6.4) */
  rule (&sheet, "toolcall .status-badge, toolcall.pending .status-badge",
        "color: %s;\n  background-color: alpha(%s, 0.12);", muted, muted);
  rule (&sheet, "toolcall.running .status-badge, toolcall.complete .status-badge, "
        "toolcall.requires_confirmation .status-badge, .tool-confirmation .status-badge",
        "color: %s;\n  background-color: alpha(%s, 0.12);", accent, accent);
  rule (&sheet, "toolcall.error .status-badge", "color: %s;\n  background-color: alpha(%s, 0.12);", danger, danger);

  g_free (sheet.prefix);
  return g_string_free (sheet.css, FALSE);
}

/* akc-component-text.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-component-frame.h"
#include "akc-component-text.h"
#include "akc-json-private.h"

/**
 * akc_component_format_semantic_fallback:
 * @fallback: a frame's `fallback` object, `{kind, summary}`
 *
 * Formats the semantic fallback of [application §12.5](wire-formats.html#application-12),
 * `[unsupported visual: «kind»] «summary»`: what a renderer shows, dimmed,
 * for a frame it cannot render (unknown key, invalid props, no manifest,
 * or a custom key without a renderer). The fallback must be valid: `kind`
 * 1–64 and `summary` 1–4096 UTF-16 code units; other members are ignored.
 *
 * Returns: (transfer full) (nullable): the text, or %NULL when @fallback
 *   is invalid (an invalid fallback is not rendered)
 *
 * Since: 0.1
 */
char *
akc_component_format_semantic_fallback (AkcJsonValue *fallback)
{
  g_autoptr(AkcJsonValue) holder = NULL;
  AkcJsonMemberInit member = { "fallback", 8, NULL };

  g_return_val_if_fail (fallback != NULL, NULL);

  /* The frame's rule, applied to a frame that holds only this fallback. */
  member.value = akc_json_value_ref (fallback);
  holder = akc_json_object_new_steal (&member, 1, TRUE, AKC_JSON_FLAG_STATIC_NAMES);

  return akc_component_frame_dup_fallback_text (holder);
}

/* @len bytes of @s (which may hold U+0000) and a terminating NUL. */
static char *
dup_len (const char *s,
         gsize       len,
         gsize      *length)
{
  char *copy = g_malloc (len + 1);

  memcpy (copy, s, len);
  copy[len] = '\0';
  if (length != NULL)
    *length = len;

  return copy;
}

/**
 * akc_component_dup_cell_text:
 * @cell: (nullable): a table cell, `row[column.key]`, or %NULL when the row
 *   has no such member
 * @length: (out) (optional): return location for the length of the text
 *   in bytes (a string cell may hold U+0000)
 *
 * The text of a table cell ([application §12.6](wire-formats.html#application-12)): `""` for a missing or
 * `null` cell, `true`/`false` for booleans, numbers as ECMAScript
 * Number::toString writes them (§0.7: `42.5`, `1e-7`, never `3.0`), and
 * strings verbatim. The same rule writes `«sizeBytes» bytes` and the
 * progress value.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
akc_component_dup_cell_text (AkcJsonValue *cell,
                             gsize        *length)
{
  char buf[AKC_JSON_NUMBER_BUF_SIZE];

  if (cell == NULL)
    return dup_len ("", 0, length);

  switch (AKC_JSON_KIND (cell))
    {
    case AKC_JSON_KIND_NULL:
      return dup_len ("", 0, length);
    case AKC_JSON_KIND_BOOLEAN:
      return cell->u.boolean ? dup_len ("true", 4, length) : dup_len ("false", 5, length);
    case AKC_JSON_KIND_NUMBER:
      return dup_len (buf, akc_json_format_number (AKC_JSON_NUMBER (cell), buf), length);
    case AKC_JSON_KIND_STRING:
      return dup_len (AKC_JSON_STR (cell), AKC_JSON_STR_LEN (cell), length);
    case AKC_JSON_KIND_ARRAY:
    case AKC_JSON_KIND_OBJECT:
    default:
      /* not a valid cell; shown as its JSON */
      return akc_json_value_to_canonical (cell, length);
    }
}

/**
 * akc_component_dup_cell_text_utf8: (rename-to akc_component_dup_cell_text)
 * @cell: (nullable): a table cell, `row[column.key]`, or %NULL when the row
 *   has no such member
 *
 * Does what akc_component_dup_cell_text() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
akc_component_dup_cell_text_utf8 (AkcJsonValue *cell)
{
  return akc_component_dup_cell_text (cell, NULL);
}

static void
newline (GString *out,
         guint    level)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

/**
 * akc_component_dup_pretty_json:
 * @value: a JSON value
 *
 * Writes @value as `JSON.stringify (value, null, 2)` does: the canonical
 * form ([application §0.4](wire-formats.html#application-0): the same escapes, numbers and member order)
 * with two-space indentation, one member or element per line, and `{}` /
 * `[]` for empty containers. A tool-call widget shows `arguments` and
 * `result` this way (§12.6), and so does the tool confirmation (§12.8).
 *
 * Returns: (transfer full): the indented JSON text
 *
 * Since: 0.1
 */
char *
akc_component_dup_pretty_json (AkcJsonValue *value)
{
  g_autofree char *compact = NULL;
  GString *out;
  gsize len;
  guint level = 0;
  gboolean in_string = FALSE;

  g_return_val_if_fail (value != NULL, NULL);

  /* The canonical text has no white space outside strings, so layout is
   * decided by the structural characters alone. */
  compact = akc_json_value_to_canonical (value, &len);
  out = g_string_sized_new (len + len / 2);

  for (gsize i = 0; i < len; i++)
    {
      char c = compact[i];

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\')
            g_string_append_c (out, compact[++i]);
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      switch (c)
        {
        case '"':
          in_string = TRUE;
          g_string_append_c (out, c);
          break;
        case '{':
        case '[':
          g_string_append_c (out, c);
          if (i + 1 < len && (compact[i + 1] == '}' || compact[i + 1] == ']'))
            g_string_append_c (out, compact[++i]);
          else
            newline (out, ++level);
          break;
        case '}':
        case ']':
          newline (out, --level);
          g_string_append_c (out, c);
          break;
        case ',':
          g_string_append_c (out, c);
          newline (out, level);
          break;
        case ':':
          g_string_append (out, ": ");
          break;
        default:
          g_string_append_c (out, c);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

/* Members whose strings are never shown as text: ids and keys, links,
 * types and variants, actions, and tool-call data (JSON, not prose). */
static gboolean
is_hidden_member (const char *name,
                  gsize       length)
{
  static const char * const hidden[] = {
    "id", "key", "url", "href", "mimeType", "type", "variant", "action",
    "arguments", "result", "instanceId",
  };

  for (guint i = 0; i < G_N_ELEMENTS (hidden); i++)
    if (strlen (hidden[i]) == length && memcmp (hidden[i], name, length) == 0)
      return TRUE;

  return FALSE;
}

static void
add_visible (GPtrArray  *texts,
             const char *text,
             gsize       length)
{
  /* U+0000 cannot be shown as it is: such a text is left out. */
  if (length > 0 && memchr (text, '\0', length) == NULL)
    g_ptr_array_add (texts, g_strndup (text, length));
}

static void
collect_visible (GPtrArray    *texts,
                 AkcJsonValue *value)
{
  switch (AKC_JSON_KIND (value))
    {
    case AKC_JSON_KIND_STRING:
      add_visible (texts, AKC_JSON_STR (value), AKC_JSON_STR_LEN (value));
      break;

    case AKC_JSON_KIND_ARRAY:
      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        collect_visible (texts, AKC_JSON_ELEMENT (value, i));
      break;

    case AKC_JSON_KIND_OBJECT:
      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        {
          const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

          if (is_hidden_member (m->name, m->name_len))
            continue;

          /* Table rows: every cell is shown, whatever its column key. */
          if (m->name_len == 4 && memcmp (m->name, "rows", 4) == 0 && AKC_JSON_IS_ARRAY (m->value))
            {
              for (gsize r = 0; r < AKC_JSON_LEN (m->value); r++)
                {
                  AkcJsonValue *row = AKC_JSON_ELEMENT (m->value, r);

                  for (gsize c = 0; AKC_JSON_IS_OBJECT (row) && c < AKC_JSON_LEN (row); c++)
                    {
                      gsize length = 0;
                      g_autofree char *cell = akc_component_dup_cell_text (AKC_JSON_MEMBER (row, c)->value, &length);

                      add_visible (texts, cell, length);
                    }
                }
              continue;
            }

          collect_visible (texts, m->value);
        }
      break;

    case AKC_JSON_KIND_NULL:
    case AKC_JSON_KIND_BOOLEAN:
    case AKC_JSON_KIND_NUMBER:
    default:
      break;
    }
}

/**
 * akc_component_dup_visible_texts:
 * @props: the validated props of a resolved component
 *   ([method@ResolvedComponent.get_props])
 *
 * The texts a native component shows of its props, in the order of the
 * props: every string but ids, keys, links, types, variants, actions and
 * tool-call arguments and results (labels, titles, prompts, descriptions,
 * snippets, messages, captions, column labels), and every table cell as
 * [func@component_dup_cell_text] writes it. Never a member name. What
 * search and find match in a component (issue 14). Texts holding U+0000
 * and empty ones are left out.
 *
 * Returns: (transfer full) (array zero-terminated=1): the texts
 *
 * Since: 0.1
 */
char **
akc_component_dup_visible_texts (AkcJsonValue *props)
{
  GPtrArray *texts = g_ptr_array_new ();

  if (props != NULL)
    collect_visible (texts, props);
  g_ptr_array_add (texts, NULL);

  return (char **) g_ptr_array_free (texts, FALSE);
}

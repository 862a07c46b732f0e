/* akc-standard-components.c: the twelve standard components as data
 * (application §1)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every props object is a field table of the project's schema helper; the
 * shared field types of §1.2 are declared once below and every bound,
 * enumeration and uniqueness rule of §1.3–§1.14 appears exactly once, in
 * its table. What the tables cannot say is a small named function: the
 * select/options rule of form fields (a table check), table rows (a
 * custom type), the URL predicates of §0.5, the fallback texts and the
 * interaction rules.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-choice-list.h"
#include "akc-component-private.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

/* ------------------------------------------------------------------ */
/* §0.5 URL predicates                                                 */
/* ------------------------------------------------------------------ */

#define PORTABLE_URL_MAX_LENGTH 2048

/* `^/(?!/)`: a root-relative reference. */
static inline gboolean
is_root_relative (const char *s,
                  gsize       len)
{
  return len >= 1 && s[0] == '/' && (len == 1 || s[1] != '/');
}

/* `new URL (s)` without a base succeeds with an http(s) scheme and empty
 * credentials. The WHATWG parser first strips leading and trailing C0
 * controls and spaces, removes every ASCII tab and newline, and (for the
 * special schemes, the only ones accepted) reads '\' as '/'; the rest of
 * the state machine is akc_url_is_safe_absolute_http(). */
static gboolean
is_absolute_http_url (const char *s,
                      gsize       len)
{
  g_autofree char *copy = NULL;
  gsize start = 0, end = len, n = 0;

  while (start < end && (guchar) s[start] <= 0x20)
    start++;
  while (end > start && (guchar) s[end - 1] <= 0x20)
    end--;

  copy = g_malloc (end - start + 1);
  for (gsize i = start; i < end; i++)
    {
      if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        continue;
      copy[n++] = s[i] == '\\' ? '/' : s[i];
    }
  copy[n] = '\0';

  return akc_url_is_safe_absolute_http (copy, n);
}

gboolean
akc_component_is_portable_url (const char *s,
                               gsize       len)
{
  if (akc_text_len16 (s, len) > PORTABLE_URL_MAX_LENGTH)
    return FALSE;

  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] < 0x20 || s[i] == 0x7F || s[i] == '\\')
      return FALSE;

  return is_root_relative (s, len) || is_absolute_http_url (s, len);
}

gboolean
akc_component_is_interaction_url (const char *s,
                                  gsize       len)
{
  /* No length, control-character or backslash rule here (§14 A3). */
  return is_root_relative (s, len) || is_absolute_http_url (s, len);
}

/* ------------------------------------------------------------------ */
/* §1.2 shared field types                                             */
/* ------------------------------------------------------------------ */

/* z.json (): any JSON value whose numbers are finite; its size is bounded
 * by the frame's props (§0.6), not here. */
static const AkcBjvLimits json_limits = {
  .max_values = G_MAXUINT32,
  .max_depth = AKC_JSON_MAX_DEPTH,
  .max_string_len16 = G_MAXSIZE,
  .max_array_len = G_MAXUINT32,
  .max_members = G_MAXUINT32,
  .max_name_len16 = G_MAXSIZE,
};

#define ID            AKC_SCHEMA_PATTERN (akc_text_is_safe_id)
#define TEXT          AKC_SCHEMA_STRING (1, 4096)
#define LABEL         AKC_SCHEMA_STRING (1, 256)
#define JSON_VALUE    AKC_SCHEMA_BJV (&json_limits)
#define JSON_RECORD   AKC_SCHEMA_MAP (128, &json_limits)
#define PORTABLE_URL  AKC_SCHEMA_PATTERN (akc_component_is_portable_url)

/* An array of @table objects, @lo..@hi items, @unique members distinct. */
#define LIST(table, lo, hi, unique) \
  AKC_SCHEMA_ARRAY_UNIQUE (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (table)), (lo), (hi), (unique))

static const char * const unique_id[] = { "id", NULL };
static const char * const unique_key[] = { "key", NULL };

/* Action: strict {name: Id, input: JsonRecord}. */
static const AkcSchemaField action_fields[] = {
  { "name",  ID },
  { "input", JSON_RECORD },
};
static const AkcSchemaTable action_table = AKC_SCHEMA_TABLE (action_fields, AKC_SCHEMA_CLOSED);

/* Option: strict {id: Id, label: Label}. */
static const AkcSchemaField option_fields[] = {
  { "id",    ID },
  { "label", LABEL },
};
static const AkcSchemaTable option_table = AKC_SCHEMA_TABLE (option_fields, AKC_SCHEMA_CLOSED);

/* ------------------------------------------------------------------ */
/* Small helpers for fallbacks and interaction rules                   */
/* ------------------------------------------------------------------ */

static inline AkcJsonValue *
member (const AkcJsonValue *object,
        const char         *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

static inline gboolean
is_true (const AkcJsonValue *v)
{
  return AKC_JSON_IS (v, AKC_JSON_KIND_BOOLEAN) && v->u.boolean;
}

static inline gboolean
strings_equal (const AkcJsonValue *a,
               const AkcJsonValue *b)
{
  return AKC_JSON_IS_STRING (a) && AKC_JSON_IS_STRING (b) &&
         AKC_JSON_STR_LEN (a) == AKC_JSON_STR_LEN (b) &&
         memcmp (AKC_JSON_STR (a), AKC_JSON_STR (b), AKC_JSON_STR_LEN (a)) == 0;
}

/* The first item of @items whose member @name is the string (@s, @len). */
static AkcJsonValue *
find_item_len (AkcJsonValue *items,
               const char   *name,
               const char   *s,
               gsize         len)
{
  for (gsize i = 0; i < AKC_JSON_LEN (items); i++)
    {
      AkcJsonValue *item = AKC_JSON_ELEMENT (items, i);
      AkcJsonValue *v = member (item, name);

      if (AKC_JSON_IS_STRING (v) && AKC_JSON_STR_LEN (v) == len && memcmp (AKC_JSON_STR (v), s, len) == 0)
        return item;
    }

  return NULL;
}

/* The same for a value, which matches only when it is a string. */
static AkcJsonValue *
find_item (AkcJsonValue       *items,
           const char         *name,
           const AkcJsonValue *value)
{
  if (!AKC_JSON_IS_STRING (value))
    return NULL;

  return find_item_len (items, name, AKC_JSON_STR (value), AKC_JSON_STR_LEN (value));
}

static void
append_member (GString            *out,
               const AkcJsonValue *object,
               const char         *name)
{
  AkcJsonValue *v = member (object, name);

  g_string_append_len (out, AKC_JSON_STR (v), AKC_JSON_STR_LEN (v));
}

/* join (items[].name) with ", " */
static void
append_joined (GString            *out,
               const AkcJsonValue *items,
               const char         *name)
{
  for (gsize i = 0; i < AKC_JSON_LEN (items); i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      append_member (out, AKC_JSON_ELEMENT (items, i), name);
    }
}

/* «head»«separator»join (list[].item). */
static void
append_list_summary (GString            *out,
                     const AkcJsonValue *props,
                     const char         *head,
                     const char         *separator,
                     const char         *list,
                     const char         *item)
{
  append_member (out, props, head);
  g_string_append (out, separator);
  append_joined (out, member (props, list), item);
  g_string_append_c (out, '.');
}

/* «first»: «second» */
static void
append_pair (GString            *out,
             const AkcJsonValue *props,
             const char         *first,
             const char         *second)
{
  append_member (out, props, first);
  g_string_append (out, ": ");
  append_member (out, props, second);
}

/* The rule shared by every event whose value must be absent. */
static gboolean
no_value (const char   *event,
          AkcJsonValue *props,
          AkcJsonValue *value)
{
  return value == NULL;
}

/* ------------------------------------------------------------------ */
/* §1.3 button-group                                                   */
/* ------------------------------------------------------------------ */

static const char * const button_variants[] = { "primary", "secondary", "danger", NULL };

static const AkcSchemaField button_fields[] = {
  { "id",       ID },
  { "label",    LABEL },
  { "disabled", AKC_SCHEMA_BOOL, .optional = TRUE },
  { "variant",  AKC_SCHEMA_ENUM (button_variants), .optional = TRUE },
};
static const AkcSchemaTable button_table = AKC_SCHEMA_TABLE (button_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField button_group_fields[] = {
  { "label",   LABEL },
  { "buttons", LIST (&button_table, 1, 12, unique_id) },
};
static const AkcSchemaTable button_group_table = AKC_SCHEMA_TABLE (button_group_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent button_group_events[] = { { "select", AKC_COMPONENT_VALUE_ID } };

static void
button_group_fallback (GString      *out,
                       AkcJsonValue *props)
{
  append_list_summary (out, props, "label", ": ", "buttons", "label");
}

/* select: the id of a button that is not disabled. */
static gboolean
button_group_interaction (const char   *event,
                          AkcJsonValue *props,
                          AkcJsonValue *value)
{
  AkcJsonValue *button = find_item (member (props, "buttons"), "id", value);

  return button != NULL && !is_true (member (button, "disabled"));
}

/* ------------------------------------------------------------------ */
/* §1.4 choice-list                                                    */
/* ------------------------------------------------------------------ */

static const AkcSchemaField choice_fields[] = {
  { "id",          ID },
  { "label",       LABEL },
  { "description", TEXT, .optional = TRUE },
  { "action",      AKC_SCHEMA_OBJECT (&action_table), .optional = TRUE },
};
static const AkcSchemaTable choice_table = AKC_SCHEMA_TABLE (choice_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField choice_list_fields[] = {
  { "prompt",  TEXT },
  { "choices", LIST (&choice_table, 1, 20, unique_id) },
};
static const AkcSchemaTable choice_list_table = AKC_SCHEMA_TABLE (choice_list_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent choice_list_events[] = { { "select", AKC_COMPONENT_VALUE_ID } };

static void
choice_list_fallback (GString      *out,
                      AkcJsonValue *props)
{
  append_list_summary (out, props, "prompt", " ", "choices", "label");
}

/* Selections go through §2.6, never through interaction events. */
static gboolean
choice_list_interaction (const char   *event,
                         AkcJsonValue *props,
                         AkcJsonValue *value)
{
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* §1.5 form                                                           */
/* ------------------------------------------------------------------ */

static const char * const field_types[] = { "text", "email", "number", "checkbox", "select", NULL };

/* `options` is required for select fields and forbidden for the others. */
static gboolean
field_options_match_type (const AkcJsonValue *field,
                          gpointer            user_data)
{
  gboolean is_select = akc_json_string_equals (member (field, "type"), "select");

  return is_select == (member (field, "options") != NULL);
}

static const AkcSchemaField field_fields[] = {
  { "id",          ID },
  { "label",       LABEL },
  { "type",        AKC_SCHEMA_ENUM (field_types) },
  { "required",    AKC_SCHEMA_BOOL, .optional = TRUE },
  { "placeholder", AKC_SCHEMA_STRING (0, 256), .optional = TRUE },
  /* option ids need not be unique */
  { "options",     AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_OBJECT (&option_table)), 1, 50), .optional = TRUE },
};
static const AkcSchemaTable field_table =
  AKC_SCHEMA_TABLE_CHECKED (field_fields, AKC_SCHEMA_CLOSED, field_options_match_type, NULL);

static const AkcSchemaField form_fields[] = {
  { "title",       LABEL, .optional = TRUE },
  { "fields",      LIST (&field_table, 1, 30, unique_id) },
  { "submitLabel", LABEL },
};
static const AkcSchemaTable form_table = AKC_SCHEMA_TABLE (form_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent form_events[] = { { "submit", AKC_COMPONENT_VALUE_FORM } };

static void
form_fallback (GString      *out,
               AkcJsonValue *props)
{
  if (member (props, "title") != NULL)
    append_member (out, props, "title");
  else
    g_string_append (out, "Form");
  g_string_append (out, ": ");
  append_joined (out, member (props, "fields"), "label");
  g_string_append_c (out, '.');
}

static inline gboolean
is_digit_in_radix (guchar c,
                   guint  radix)
{
  int d = g_ascii_xdigit_value (c);

  return d >= 0 && (guint) d < radix;
}

/* ECMAScript StringToNumber (s) is finite, for a non-blank @s (§14 A4):
 * after trimming, a StrDecimalLiteral (sign, digits, fraction, exponent;
 * "Infinity" is a literal but not finite) or a 0x / 0o / 0b integer. */
static gboolean
string_is_finite_number (const char *s,
                         gsize       len)
{
  g_autofree char *literal = NULL;
  const char *t;
  gsize n, i = 0, digits = 0;

  t = akc_text_trim (s, len, &n);
  if (n == 0)
    return FALSE;

  if (n > 2 && t[0] == '0' && strchr ("xXoObB", t[1]) != NULL)
    {
      guint radix = (t[1] == 'x' || t[1] == 'X') ? 16 : (t[1] == 'o' || t[1] == 'O') ? 8 : 2;
      double value = 0;

      for (i = 2; i < n; i++)
        {
          if (!is_digit_in_radix ((guchar) t[i], radix))
            return FALSE;
          value = value * radix + g_ascii_xdigit_value (t[i]);
        }
      return isfinite (value);
    }

  if (t[i] == '+' || t[i] == '-')
    i++;
  for (; i < n && g_ascii_isdigit (t[i]); i++)
    digits++;
  if (i < n && t[i] == '.')
    for (i++; i < n && g_ascii_isdigit (t[i]); i++)
      digits++;
  if (digits == 0)
    return FALSE;  /* also "Infinity", which is not finite */
  if (i < n && (t[i] == 'e' || t[i] == 'E'))
    {
      gsize exponent_digits = 0;

      i++;
      if (i < n && (t[i] == '+' || t[i] == '-'))
        i++;
      for (; i < n && g_ascii_isdigit (t[i]); i++)
        exponent_digits++;
      if (exponent_digits == 0)
        return FALSE;
    }
  if (i != n)
    return FALSE;

  /* Only ASCII digits, sign, '.' and 'e' remain: strtod reads exactly the
   * ECMAScript value (overflow to ±HUGE_VAL). */
  literal = g_strndup (t, n);
  return isfinite (g_ascii_strtod (literal, NULL));
}

/* One present field value against its field (§1.5 "Interaction"). */
static gboolean
field_value_is_valid (const AkcJsonValue *field,
                      AkcJsonValue       *value)
{
  AkcJsonValue *type = member (field, "type");

  if (akc_json_string_equals (type, "checkbox"))
    return AKC_JSON_IS (value, AKC_JSON_KIND_BOOLEAN);

  if (akc_json_string_equals (type, "number"))
    return (AKC_JSON_IS_NUMBER (value) && isfinite (AKC_JSON_NUMBER (value))) ||
           (AKC_JSON_IS_STRING (value) && string_is_finite_number (AKC_JSON_STR (value), AKC_JSON_STR_LEN (value)));

  if (akc_json_string_equals (type, "select"))
    return AKC_JSON_IS_STRING (value) && find_item (member (field, "options"), "id", value) != NULL;

  /* text, email: any string; email format is not checked */
  return AKC_JSON_IS_STRING (value);
}

/* submit: a plain object whose keys are declared field ids, each field
 * absent ("" counts as absent) only when not required, or valid. */
static gboolean
form_interaction (const char   *event,
                  AkcJsonValue *props,
                  AkcJsonValue *value)
{
  AkcJsonValue *fields = member (props, "fields");

  if (value == NULL || !AKC_JSON_IS_OBJECT (value))
    return FALSE;

  for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

      if (find_item_len (fields, "id", m->name, m->name_len) == NULL)
        return FALSE;
    }

  for (gsize i = 0; i < AKC_JSON_LEN (fields); i++)
    {
      AkcJsonValue *field = AKC_JSON_ELEMENT (fields, i);
      AkcJsonValue *id = member (field, "id");
      AkcJsonValue *v = akc_json_object_lookup (value, AKC_JSON_STR (id), AKC_JSON_STR_LEN (id), NULL);

      if (v == NULL || (AKC_JSON_IS_STRING (v) && AKC_JSON_STR_LEN (v) == 0))
        {
          if (is_true (member (field, "required")))
            return FALSE;
          continue;
        }

      if (!field_value_is_valid (field, v))
        return FALSE;
    }

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* §1.6 confirmation                                                   */
/* ------------------------------------------------------------------ */

static const AkcSchemaField confirmation_fields[] = {
  { "title",        LABEL },
  { "message",      TEXT },
  { "confirmLabel", LABEL },
  { "cancelLabel",  LABEL },
};
static const AkcSchemaTable confirmation_table = AKC_SCHEMA_TABLE (confirmation_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent confirmation_events[] = {
  { "confirm", AKC_COMPONENT_VALUE_NONE },
  { "cancel",  AKC_COMPONENT_VALUE_NONE },
};

static void
confirmation_fallback (GString      *out,
                       AkcJsonValue *props)
{
  append_pair (out, props, "title", "message");
}

/* ------------------------------------------------------------------ */
/* §1.7 progress                                                       */
/* ------------------------------------------------------------------ */

static const AkcSchemaField progress_fields[] = {
  { "label",  LABEL },
  { "value",  AKC_SCHEMA_NUMBER (0, 100) },
  { "status", TEXT, .optional = TRUE },
};
static const AkcSchemaTable progress_table = AKC_SCHEMA_TABLE (progress_fields, AKC_SCHEMA_CLOSED);

static void
progress_fallback (GString      *out,
                   AkcJsonValue *props)
{
  append_member (out, props, "label");
  g_string_append (out, ": ");
  akc_json_append_number (out, AKC_JSON_NUMBER (member (props, "value")));
  g_string_append (out, "%.");
}

/* ------------------------------------------------------------------ */
/* §1.8 source-list                                                    */
/* ------------------------------------------------------------------ */

static const AkcSchemaField source_fields[] = {
  { "id",      ID },
  { "title",   LABEL },
  { "url",     PORTABLE_URL, .optional = TRUE },
  { "snippet", TEXT, .optional = TRUE },
};
static const AkcSchemaTable source_table = AKC_SCHEMA_TABLE (source_fields, AKC_SCHEMA_CLOSED);

static const AkcSchemaField source_list_fields[] = {
  { "label",   LABEL },
  { "sources", LIST (&source_table, 1, 50, unique_id) },
};
static const AkcSchemaTable source_list_table = AKC_SCHEMA_TABLE (source_list_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent source_list_events[] = { { "open", AKC_COMPONENT_VALUE_ID } };

static void
source_list_fallback (GString      *out,
                      AkcJsonValue *props)
{
  append_list_summary (out, props, "label", ": ", "sources", "title");
}

/* open: the id of a source that has a url. */
static gboolean
source_list_interaction (const char   *event,
                         AkcJsonValue *props,
                         AkcJsonValue *value)
{
  AkcJsonValue *source = find_item (member (props, "sources"), "id", value);

  return source != NULL && member (source, "url") != NULL;
}

/* ------------------------------------------------------------------ */
/* §1.9 link-card                                                      */
/* ------------------------------------------------------------------ */

static const AkcSchemaField link_card_fields[] = {
  { "title",       LABEL },
  { "description", TEXT, .optional = TRUE },
  { "href",        PORTABLE_URL },
  { "label",       LABEL, .optional = TRUE },
};
static const AkcSchemaTable link_card_table = AKC_SCHEMA_TABLE (link_card_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent link_card_events[] = { { "open", AKC_COMPONENT_VALUE_URL } };

static void
link_card_fallback (GString      *out,
                    AkcJsonValue *props)
{
  append_pair (out, props, "title", member (props, "description") != NULL ? "description" : "href");
}

/* open: exactly the href. */
static gboolean
link_card_interaction (const char   *event,
                       AkcJsonValue *props,
                       AkcJsonValue *value)
{
  return strings_equal (value, member (props, "href"));
}

/* ------------------------------------------------------------------ */
/* §1.10 error-notice                                                  */
/* ------------------------------------------------------------------ */

static const AkcSchemaField error_notice_fields[] = {
  { "title",      LABEL },
  { "message",    TEXT },
  { "code",       AKC_SCHEMA_STRING (0, 128), .optional = TRUE },
  { "retryLabel", LABEL, .optional = TRUE },
};
static const AkcSchemaTable error_notice_table = AKC_SCHEMA_TABLE (error_notice_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent error_notice_events[] = { { "retry", AKC_COMPONENT_VALUE_NONE } };

static void
error_notice_fallback (GString      *out,
                       AkcJsonValue *props)
{
  append_pair (out, props, "title", "message");
}

/* retry: no value, and only when a retry label is offered. */
static gboolean
error_notice_interaction (const char   *event,
                          AkcJsonValue *props,
                          AkcJsonValue *value)
{
  return value == NULL && member (props, "retryLabel") != NULL;
}

/* ------------------------------------------------------------------ */
/* §1.11 tool-call                                                     */
/* ------------------------------------------------------------------ */

static const char * const tool_call_statuses[] = { "pending", "running", "complete", "error", NULL };

static const AkcSchemaField tool_call_fields[] = {
  { "name",      LABEL },
  { "status",    AKC_SCHEMA_ENUM (tool_call_statuses) },
  { "arguments", JSON_RECORD, .optional = TRUE },
  { "result",    JSON_VALUE, .optional = TRUE },
};
static const AkcSchemaTable tool_call_table = AKC_SCHEMA_TABLE (tool_call_fields, AKC_SCHEMA_CLOSED);

static void
tool_call_fallback (GString      *out,
                    AkcJsonValue *props)
{
  append_pair (out, props, "name", "status");
  g_string_append_c (out, '.');
}

/* ------------------------------------------------------------------ */
/* §1.12 approval-request                                              */
/* ------------------------------------------------------------------ */

static const AkcSchemaField approval_request_fields[] = {
  { "title",        LABEL },
  { "description",  TEXT },
  { "approveLabel", LABEL },
  { "denyLabel",    LABEL },
};
static const AkcSchemaTable approval_request_table = AKC_SCHEMA_TABLE (approval_request_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent approval_request_events[] = {
  { "approve", AKC_COMPONENT_VALUE_NONE },
  { "deny",    AKC_COMPONENT_VALUE_NONE },
};

static void
approval_request_fallback (GString      *out,
                           AkcJsonValue *props)
{
  append_pair (out, props, "title", "description");
}

/* ------------------------------------------------------------------ */
/* §1.13 table                                                         */
/* ------------------------------------------------------------------ */

static const AkcSchemaField column_fields[] = {
  { "key",   ID },
  { "label", LABEL },
};
static const AkcSchemaTable column_table = AKC_SCHEMA_TABLE (column_fields, AKC_SCHEMA_CLOSED);

/* A cell: a string of at most 4096 units, a finite number, a boolean or
 * null. Row keys are unconstrained (they need not name columns). */
static const AkcSchemaType cell_string = AKC_SCHEMA_STRING (0, 4096);
static const AkcSchemaType cell_number = AKC_SCHEMA_NUMBER_ANY;
static const AkcSchemaType row_object = AKC_SCHEMA_MAP (AKC_SCHEMA_UNBOUNDED, NULL);

static gboolean
table_row (const AkcSchemaType  *type,
           AkcJsonValue         *value,
           const AkcJsonValue   *parent,
           AkcJsonValue        **out)
{
  g_autoptr(AkcJsonValue) row = NULL;

  if (!akc_schema_validate (&row_object, value, NULL, &row))
    return FALSE;

  for (gsize i = 0; i < AKC_JSON_LEN (row); i++)
    {
      AkcJsonValue *cell = AKC_JSON_MEMBER (row, i)->value;

      switch (AKC_JSON_KIND (cell))
        {
        case AKC_JSON_KIND_STRING:
          if (!akc_schema_validate (&cell_string, cell, row, NULL))
            return FALSE;
          break;
        case AKC_JSON_KIND_NUMBER:
          if (!akc_schema_validate (&cell_number, cell, row, NULL))
            return FALSE;
          break;
        case AKC_JSON_KIND_BOOLEAN:
        case AKC_JSON_KIND_NULL:
          break;
        case AKC_JSON_KIND_ARRAY:
        case AKC_JSON_KIND_OBJECT:
        default:
          return FALSE;
        }
    }

  if (out != NULL)
    *out = g_steal_pointer (&row);
  return TRUE;
}

static const AkcSchemaField table_fields[] = {
  { "caption", LABEL },
  { "columns", LIST (&column_table, 1, 30, unique_key) },
  { "rows",    AKC_SCHEMA_ARRAY (&AKC_SCHEMA_TYPE (AKC_SCHEMA_CUSTOM (table_row, NULL)), 0, 1000) },
};
static const AkcSchemaTable table_table = AKC_SCHEMA_TABLE (table_fields, AKC_SCHEMA_CLOSED);

static void
table_fallback (GString      *out,
                AkcJsonValue *props)
{
  /* always "rows", even for one row */
  append_member (out, props, "caption");
  g_string_append_printf (out, ": %" G_GSIZE_FORMAT " rows.", AKC_JSON_LEN (member (props, "rows")));
}

/* ------------------------------------------------------------------ */
/* §1.14 file-attachment                                               */
/* ------------------------------------------------------------------ */

static const AkcSchemaField file_attachment_fields[] = {
  { "name",      LABEL },
  { "mimeType",  AKC_SCHEMA_STRING (1, 256) },
  { "sizeBytes", AKC_SCHEMA_INT (0, AKC_SCHEMA_INT_MAX), .optional = TRUE },
  { "url",       PORTABLE_URL, .optional = TRUE },
};
static const AkcSchemaTable file_attachment_table = AKC_SCHEMA_TABLE (file_attachment_fields, AKC_SCHEMA_CLOSED);

static const AkcStandardEvent file_attachment_events[] = { { "open", AKC_COMPONENT_VALUE_URL } };

static void
file_attachment_fallback (GString      *out,
                          AkcJsonValue *props)
{
  append_member (out, props, "name");
  g_string_append (out, " (");
  append_member (out, props, "mimeType");
  g_string_append (out, ").");
}

/* open: exactly the url, which must exist. */
static gboolean
file_attachment_interaction (const char   *event,
                             AkcJsonValue *props,
                             AkcJsonValue *value)
{
  return strings_equal (value, member (props, "url"));
}

/* ------------------------------------------------------------------ */
/* §1.1 the catalog, in catalog order                                  */
/* ------------------------------------------------------------------ */

#define EVENTS(array) (array), G_N_ELEMENTS (array)
#define NO_EVENTS     NULL, 0
#define INTERACTIVE(role) (role), TRUE, AKC_COMPONENT_LIVE_NONE
#define DISPLAY(role, live) (role), FALSE, (live)

#define CAP(name) AKC_COMPONENT_CAPABILITY_ ## name

const AkcStandardComponent akc_standard_components[AKC_N_STANDARD_COMPONENTS] = {
  { "button-group", &button_group_table, EVENTS (button_group_events), INTERACTIVE ("group"),
    CAP (DISPLAY) | CAP (SELECTION), button_group_fallback, button_group_interaction },
  { AKC_CHOICE_LIST_COMPONENT_KEY, &choice_list_table, EVENTS (choice_list_events), INTERACTIVE ("group"),
    CAP (DISPLAY) | CAP (SELECTION), choice_list_fallback, choice_list_interaction },
  { "form", &form_table, EVENTS (form_events), INTERACTIVE ("form"),
    CAP (DISPLAY) | CAP (INPUT), form_fallback, form_interaction },
  { "confirmation", &confirmation_table, EVENTS (confirmation_events), INTERACTIVE ("group"),
    CAP (DISPLAY) | CAP (ACTION), confirmation_fallback, no_value },
  { "progress", &progress_table, NO_EVENTS, DISPLAY ("progressbar", AKC_COMPONENT_LIVE_POLITE),
    CAP (DISPLAY) | CAP (PROGRESS), progress_fallback, NULL },
  { "source-list", &source_list_table, EVENTS (source_list_events), INTERACTIVE ("list"),
    CAP (DISPLAY) | CAP (NAVIGATION), source_list_fallback, source_list_interaction },
  { "link-card", &link_card_table, EVENTS (link_card_events), INTERACTIVE ("link"),
    CAP (DISPLAY) | CAP (NAVIGATION), link_card_fallback, link_card_interaction },
  { "error-notice", &error_notice_table, EVENTS (error_notice_events), INTERACTIVE ("alert"),
    CAP (DISPLAY) | CAP (ACTION), error_notice_fallback, error_notice_interaction },
  { "tool-call", &tool_call_table, NO_EVENTS, DISPLAY ("status", AKC_COMPONENT_LIVE_POLITE),
    CAP (DISPLAY), tool_call_fallback, NULL },
  { "approval-request", &approval_request_table, EVENTS (approval_request_events), INTERACTIVE ("group"),
    CAP (DISPLAY) | CAP (ACTION), approval_request_fallback, no_value },
  { "table", &table_table, NO_EVENTS, DISPLAY ("table", AKC_COMPONENT_LIVE_NONE),
    CAP (DISPLAY), table_fallback, NULL },
  { "file-attachment", &file_attachment_table, EVENTS (file_attachment_events), INTERACTIVE ("link"),
    CAP (DISPLAY) | CAP (DOWNLOAD), file_attachment_fallback, file_attachment_interaction },
};

/* akc-schema-explain.c: which field of a value fails its schema, and why
 *
 * SPDX-License-Identifier: MIT
 *
 * Validation answers with a bare FALSE (the caller maps it to the fixed
 * diagnostic of the wire, which never changes). When a host needs to know
 * what to fix, this walks the same tables again, only after a failure, and
 * names the first field that fails: `messages[3].createdAt: not a UTC
 * timestamp with milliseconds`.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-message-record-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"

static char *
range_text (const char *what,
            double      min,
            double      max)
{
  if (isinf (max))
    return g_strdup_printf ("%s of at least %.17g", what, min);
  if (min == max)
    return g_strdup_printf ("%s of exactly %.17g", what, min);
  return g_strdup_printf ("%s of %.17g to %.17g", what, min, max);
}

static gboolean
field_named (const AkcSchemaTable *table,
             const char           *name,
             gsize                 name_len)
{
  for (guint i = 0; i < table->n_fields; i++)
    if (strlen (table->fields[i].name) == name_len &&
        memcmp (table->fields[i].name, name, name_len) == 0)
      return TRUE;
  return FALSE;
}

char *
akc_schema_explain_table (const AkcSchemaTable *table,
                          AkcJsonValue         *object,
                          GString              *path)
{
  g_assert (table != NULL);
  g_assert (object != NULL);
  g_assert (path != NULL);

  if (!AKC_JSON_IS_OBJECT (object))
    return g_strdup ("not an object");

  if (table->flags & AKC_SCHEMA_CLOSED)
    for (gsize i = 0; i < AKC_JSON_LEN (object); i++)
      {
        const AkcJsonMember *member = AKC_JSON_MEMBER (object, i);

        if (!field_named (table, member->name, member->name_len))
          {
            g_string_append_c (path, '.');
            g_string_append_len (path, member->name, member->name_len);
            return g_strdup ("not a member this object may have");
          }
      }

  for (guint i = 0; i < table->n_fields; i++)
    {
      const AkcSchemaField *field = &table->fields[i];
      AkcJsonValue *value = akc_json_object_lookup (object, field->name, strlen (field->name), NULL);

      if (value == NULL)
        {
          if (field->optional)
            continue;
          g_string_append_printf (path, ".%s", field->name);
          return g_strdup ("missing");
        }
      if (!akc_schema_validate (&field->type, value, object, NULL))
        {
          g_string_append_printf (path, ".%s", field->name);
          return akc_schema_explain (&field->type, value, object, path);
        }
    }

  return g_strdup ("inconsistent with the other members");
}

char *
akc_schema_explain (const AkcSchemaType *type,
                    AkcJsonValue        *value,
                    const AkcJsonValue  *parent,
                    GString             *path)
{
  g_assert (type != NULL);
  g_assert (value != NULL);
  g_assert (path != NULL);

  switch (type->kind)
    {
    case AKC_SCHEMA_KIND_STRING:
      if (!AKC_JSON_IS_STRING (value))
        return g_strdup ("not a string");
      if (type->flags & AKC_SCHEMA_FLAG_NOT_BLANK)
        return range_text ("not a string that is not blank, of UTF-16 length", type->min, type->max);
      return range_text ("not a string of UTF-16 length", type->min, type->max);

    case AKC_SCHEMA_KIND_LITERAL:
      return g_strdup_printf ("not \"%s\"", type->literal);

    case AKC_SCHEMA_KIND_ENUM:
      {
        g_autofree char *values = g_strjoinv (", ", (char **) type->values);

        return g_strdup_printf ("not one of %s", values);
      }

    case AKC_SCHEMA_KIND_PATTERN:
      if (!AKC_JSON_IS_STRING (value))
        return g_strdup ("not a string");
      if (type->pattern == akc_message_timestamp_is_valid)
        return g_strdup ("not a UTC timestamp with milliseconds");
      if (type->pattern == akc_text_is_safe_id)
        return g_strdup ("not an Identifier");
      return g_strdup ("not in the form this field takes");

    case AKC_SCHEMA_KIND_INT:
      return range_text ("not an integer", type->min, type->max);

    case AKC_SCHEMA_KIND_NUMBER:
    case AKC_SCHEMA_KIND_NUMERIC_LITERAL:
      return range_text ("not a number", type->min, type->max);

    case AKC_SCHEMA_KIND_BOOL:
      return g_strdup ("not a boolean");

    case AKC_SCHEMA_KIND_OBJECT:
      return akc_schema_explain_table (type->table, value, path);

    case AKC_SCHEMA_KIND_ARRAY:
      if (!AKC_JSON_IS_ARRAY (value))
        return g_strdup ("not an array");
      if (AKC_JSON_LEN (value) < type->min || AKC_JSON_LEN (value) > type->max)
        {
          g_autofree char *range = range_text ("items", type->min, type->max);

          return g_strdup_printf ("holds %" G_GSIZE_FORMAT " items, not %s", AKC_JSON_LEN (value), range);
        }
      for (gsize i = 0; i < AKC_JSON_LEN (value); i++)
        if (!akc_schema_validate (type->item, AKC_JSON_ELEMENT (value, i), value, NULL))
          {
            g_string_append_printf (path, "[%" G_GSIZE_FORMAT "]", i);
            return akc_schema_explain (type->item, AKC_JSON_ELEMENT (value, i), value, path);
          }
      return g_strdup ("holds items that repeat what must be unique");

    case AKC_SCHEMA_KIND_UNION:
      if (!AKC_JSON_IS_OBJECT (value))
        return g_strdup ("not an object");
      {
        AkcJsonValue *kind = akc_json_object_lookup (value, type->discriminant, strlen (type->discriminant), NULL);

        for (guint i = 0; kind != NULL && type->tables[i] != NULL; i++)
          {
            const AkcSchemaTable *table = type->tables[i];

            for (guint f = 0; f < table->n_fields; f++)
              if (strcmp (table->fields[f].name, type->discriminant) == 0 &&
                  table->fields[f].type.kind == AKC_SCHEMA_KIND_LITERAL &&
                  akc_json_string_equals (kind, table->fields[f].type.literal))
                return akc_schema_explain_table (table, value, path);
          }
        g_string_append_printf (path, ".%s", type->discriminant);
        return g_strdup ("not a kind this value may be");
      }

    case AKC_SCHEMA_KIND_BJV:
    case AKC_SCHEMA_KIND_FREE_OBJECT:
    case AKC_SCHEMA_KIND_MAP:
      if (type->kind != AKC_SCHEMA_KIND_BJV && !AKC_JSON_IS_OBJECT (value))
        return g_strdup ("not an object");
      return g_strdup ("beyond the limits of a JSON value here");

    case AKC_SCHEMA_KIND_ANY:
    case AKC_SCHEMA_KIND_CUSTOM:
    default:
      return g_strdup ("not valid here");
    }
}

char *
akc_schema_explain_field_path (const AkcSchemaType *type,
                               AkcJsonValue        *value,
                               const char          *root)
{
  g_autoptr(GString) path = g_string_new (NULL);
  g_autofree char *reason = akc_schema_explain (type, value, NULL, path);

  return g_strdup_printf ("%s: %s", path->len > 0 ? path->str + 1 : root, reason);
}

/* akc-schema.c: declarative field-table validation and normalisation
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "akc-schema-private.h"
#include "akc-text-private.h"

#define STACK_SLOTS 32

gboolean
akc_schema_is_int (double d)
{
  return isfinite (d) && d == floor (d) && fabs (d) <= AKC_SCHEMA_INT_MAX;
}

/* len16(s) within [min, max] (doubles; max may be INFINITY). Counting is
 * avoided when the byte length decides: bytes / 3 <= len16 <= bytes. */
static gboolean
len16_in (const char *s,
          gsize       len,
          double      min,
          double      max)
{
  gsize n;

  if ((double) len < min)
    return FALSE;
  if ((double) len <= max && (double) ((len + 2) / 3) >= min)
    return TRUE;
  if ((double) ((len + 2) / 3) > max)
    return FALSE;

  n = akc_text_len16 (s, len);
  return (double) n >= min && (double) n <= max;
}

static gboolean
number_in (const AkcSchemaType *type,
           double               d)
{
  if (type->flags & AKC_SCHEMA_FLAG_EXCLUSIVE_MIN)
    {
      if (!(d > type->min))
        return FALSE;
    }
  else if (!(d >= type->min))
    return FALSE;

  return d <= type->max;
}

static gboolean
string_in_list (const AkcJsonValue *v,
                const char * const *values)
{
  for (; *values != NULL; values++)
    if (akc_json_string_equals (v, *values))
      return TRUE;

  return FALSE;
}

static inline void
set_out_ref (AkcJsonValue **out,
             AkcJsonValue  *value)
{
  if (out != NULL)
    *out = akc_json_value_ref (value);
}

/* ------------------------------------------------------------------ */
/* Objects                                                             */
/* ------------------------------------------------------------------ */

static gboolean
is_field_name (const AkcSchemaTable *table,
               const AkcJsonMember  *m)
{
  guint i;

  for (i = 0; i < table->n_fields; i++)
    {
      const char *name = table->fields[i].name;

      if (strlen (name) == m->name_len && memcmp (name, m->name, m->name_len) == 0)
        return TRUE;
    }

  return FALSE;
}

static inline gboolean
is_proto (const AkcJsonMember *m)
{
  return m->name_len == 9 && memcmp (m->name, "__proto__", 9) == 0;
}

static void
unref_slots (AkcJsonValue **slots,
             gsize          n)
{
  gsize i;

  for (i = 0; i < n; i++)
    if (slots[i] != NULL)
      akc_json_value_unref (slots[i]);
}

static gboolean
validate_object (const AkcSchemaTable *table,
                 AkcJsonValue         *value,
                 AkcJsonValue        **out)
{
  AkcJsonValue *ins_stack[STACK_SLOTS];
  AkcJsonValue *outs_stack[STACK_SLOTS];
  AkcJsonValue **ins = ins_stack;
  AkcJsonValue **outs = outs_stack;
  guint n = table->n_fields;
  gboolean build = out != NULL || table->check != NULL;
  gboolean unchanged = TRUE;
  gboolean ok = FALSE;
  gsize present = 0;
  guint hint = 0;
  guint i;

  if (!AKC_JSON_IS_OBJECT (value))
    return FALSE;

  if (n > STACK_SLOTS)
    {
      ins = g_new (AkcJsonValue *, n);
      outs = g_new (AkcJsonValue *, n);
    }

  /* Pass 1 (no allocation): locate the fields, required ones must exist. */
  for (i = 0; i < n; i++)
    {
      const char *name = table->fields[i].name;
      gssize pos = akc_json_object_find (value, name, strlen (name), &hint);

      if (pos < 0)
        {
          if (!table->fields[i].optional)
            goto done;
          ins[i] = NULL;
          continue;
        }

      if ((gsize) pos != present)
        unchanged = FALSE;
      present++;
      ins[i] = AKC_JSON_MEMBER (value, pos)->value;
    }

  /* Unknown members: dropped (open) or rejected (closed, except __proto__). */
  if (present != AKC_JSON_LEN (value))
    {
      unchanged = FALSE;
      if (table->flags & AKC_SCHEMA_CLOSED)
        {
          gsize j;

          for (j = 0; j < AKC_JSON_LEN (value); j++)
            {
              const AkcJsonMember *m = AKC_JSON_MEMBER (value, j);

              if (!is_proto (m) && !is_field_name (table, m))
                goto done;
            }
        }
    }

  /* Pass 2: validate (and normalise) the present fields in table order. */
  for (i = 0; i < n; i++)
    {
      outs[i] = NULL;
      if (ins[i] == NULL)
        continue;
      if (!akc_schema_validate (&table->fields[i].type, ins[i], value,
                                build ? &outs[i] : NULL))
        {
          if (build)
            unref_slots (outs, i);
          goto done;
        }
      if (build && outs[i] != ins[i])
        unchanged = FALSE;
    }

  if (!build)
    {
      ok = TRUE;
      goto done;
    }

  {
    AkcJsonValue *result;

    if (unchanged)
      {
        unref_slots (outs, n);
        result = akc_json_value_ref (value);
      }
    else
      {
        AkcJsonMemberInit members_stack[STACK_SLOTS];
        AkcJsonMemberInit *members = n > STACK_SLOTS ? g_new (AkcJsonMemberInit, n) : members_stack;
        gsize m = 0;

        for (i = 0; i < n; i++)
          {
            if (outs[i] == NULL)
              continue;
            members[m].name = table->fields[i].name;
            members[m].name_len = strlen (table->fields[i].name);
            members[m].value = outs[i];
            m++;
          }
        result = akc_json_object_new_steal (members, m, TRUE, AKC_JSON_FLAG_STATIC_NAMES);
        if (members != members_stack)
          g_free (members);
      }

    if (table->check != NULL && !table->check (result, table->check_data))
      {
        akc_json_value_unref (result);
        goto done;
      }

    if (out != NULL)
      *out = result;
    else
      akc_json_value_unref (result);
    ok = TRUE;
  }

done:
  if (ins != ins_stack)
    {
      g_free (ins);
      g_free (outs);
    }

  return ok;
}

/* ------------------------------------------------------------------ */
/* Arrays                                                              */
/* ------------------------------------------------------------------ */

typedef struct {
  const char *s;
  gsize       len;
} Key;

static int
compare_keys (const void *a,
              const void *b)
{
  const Key *x = a, *y = b;
  int c = memcmp (x->s, y->s, MIN (x->len, y->len));

  if (c != 0)
    return c;
  return x->len < y->len ? -1 : x->len > y->len;
}

/* Exact string equality of the named member across items (§5.1, §8.3). */
static gboolean
items_unique (AkcJsonValue * const *items,
              gsize                 n,
              const char * const   *names)
{
  g_autofree Key *keys = NULL;

  if (n < 2)
    return TRUE;

  keys = g_new (Key, n);

  for (; *names != NULL; names++)
    {
      gsize name_len = strlen (*names);
      gsize k = 0, i;

      for (i = 0; i < n; i++)
        {
          AkcJsonValue *v;

          if (!AKC_JSON_IS_OBJECT (items[i]))
            continue;
          v = akc_json_object_lookup (items[i], *names, name_len, NULL);
          if (!AKC_JSON_IS_STRING (v))
            continue;
          keys[k].s = AKC_JSON_STR (v);
          keys[k].len = AKC_JSON_STR_LEN (v);
          k++;
        }

      qsort (keys, k, sizeof (Key), compare_keys);
      for (i = 1; i < k; i++)
        if (compare_keys (&keys[i - 1], &keys[i]) == 0)
          return FALSE;
    }

  return TRUE;
}

static gboolean
validate_array (const AkcSchemaType *type,
                AkcJsonValue        *value,
                AkcJsonValue       **out)
{
  AkcJsonValue *outs_stack[STACK_SLOTS];
  AkcJsonValue **outs = outs_stack;
  gboolean build = out != NULL || type->unique != NULL;
  gboolean unchanged = TRUE;
  gboolean ok = FALSE;
  gsize n, i;

  if (!AKC_JSON_IS_ARRAY (value))
    return FALSE;

  n = AKC_JSON_LEN (value);
  if ((double) n < type->min || (double) n > type->max)
    return FALSE;

  if (!build)
    {
      for (i = 0; i < n; i++)
        if (!akc_schema_validate (type->item, AKC_JSON_ELEMENT (value, i), NULL, NULL))
          return FALSE;
      return TRUE;
    }

  if (n > STACK_SLOTS)
    outs = g_new (AkcJsonValue *, n);

  for (i = 0; i < n; i++)
    {
      AkcJsonValue *item = AKC_JSON_ELEMENT (value, i);

      if (!akc_schema_validate (type->item, item, NULL, &outs[i]))
        {
          unref_slots (outs, i);
          goto done;
        }
      if (outs[i] != item)
        unchanged = FALSE;
    }

  if (type->unique != NULL && !items_unique (outs, n, type->unique))
    {
      unref_slots (outs, n);
      goto done;
    }

  if (out == NULL)
    unref_slots (outs, n);
  else if (unchanged)
    {
      unref_slots (outs, n);
      *out = akc_json_value_ref (value);
    }
  else
    *out = akc_json_array_new_steal (outs, n);

  ok = TRUE;

done:
  if (outs != outs_stack)
    g_free (outs);

  return ok;
}

/* ------------------------------------------------------------------ */
/* Maps, unions                                                        */
/* ------------------------------------------------------------------ */

static gboolean
validate_map (const AkcSchemaType *type,
              AkcJsonValue        *value,
              AkcJsonValue       **out)
{
  g_autoptr(AkcJsonValue) copy = NULL;
  AkcJsonValue *result = value;
  gssize proto = -1;
  gsize i, n;

  if (!AKC_JSON_IS_OBJECT (value))
    return FALSE;

  n = AKC_JSON_LEN (value);
  for (i = 0; i < n; i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

      if (is_proto (m))
        {
          proto = (gssize) i;
          continue;
        }
      if (!len16_in (m->name, m->name_len, 0, type->max))
        return FALSE;
    }

  if (proto >= 0)
    {
      /* §9 item 9: a `__proto__` member is not copied. */
      g_autofree AkcJsonMemberInit *members = g_new (AkcJsonMemberInit, n);
      gsize k = 0;

      for (i = 0; i < n; i++)
        {
          const AkcJsonMember *m = AKC_JSON_MEMBER (value, i);

          if ((gssize) i == proto)
            continue;
          members[k].name = m->name;
          members[k].name_len = m->name_len;
          members[k].value = akc_json_value_ref (m->value);
          k++;
        }
      copy = akc_json_object_new_steal (members, k, TRUE, 0);
      result = copy;
    }

  if (type->bjv != NULL && !akc_bjv_check (result, type->bjv))
    return FALSE;

  set_out_ref (out, result);
  return TRUE;
}

static gboolean
variant_accepts (const AkcSchemaTable *table,
                 const char           *discriminant,
                 const AkcJsonValue   *tag)
{
  guint i;

  for (i = 0; i < table->n_fields; i++)
    {
      const AkcSchemaField *f = &table->fields[i];

      if (strcmp (f->name, discriminant) != 0)
        continue;
      if (f->type.kind == AKC_SCHEMA_KIND_LITERAL)
        return akc_json_string_equals (tag, f->type.literal);
      if (f->type.kind == AKC_SCHEMA_KIND_ENUM)
        return string_in_list (tag, f->type.values);
      return FALSE;
    }

  return FALSE;
}

static gboolean
validate_union (const AkcSchemaType *type,
                AkcJsonValue        *value,
                AkcJsonValue       **out)
{
  const AkcSchemaTable * const *t;
  AkcJsonValue *tag;

  if (!AKC_JSON_IS_OBJECT (value))
    return FALSE;

  tag = akc_json_object_lookup (value, type->discriminant, strlen (type->discriminant), NULL);
  if (!AKC_JSON_IS_STRING (tag))
    return FALSE;

  for (t = type->tables; *t != NULL; t++)
    if (variant_accepts (*t, type->discriminant, tag))
      return validate_object (*t, value, out);

  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

gboolean
akc_schema_validate (const AkcSchemaType  *type,
                     AkcJsonValue         *value,
                     const AkcJsonValue   *parent,
                     AkcJsonValue        **out)
{
  g_assert (type != NULL);
  g_assert (value != NULL);

  switch (type->kind)
    {
    case AKC_SCHEMA_KIND_STRING:
      {
        const char *s;
        gsize len;

        if (!AKC_JSON_IS_STRING (value))
          return FALSE;
        s = AKC_JSON_STR (value);
        len = AKC_JSON_STR_LEN (value);

        if (type->flags & AKC_SCHEMA_FLAG_TRIM)
          {
            gsize tlen;
            const char *t = akc_text_trim (s, len, &tlen);

            if (!len16_in (t, tlen, type->min, type->max))
              return FALSE;
            if (out != NULL)
              *out = tlen == len ? akc_json_value_ref (value) : akc_json_string_new_len (t, tlen);
            return TRUE;
          }

        if (!len16_in (s, len, type->min, type->max))
          return FALSE;
        if (type->flags & AKC_SCHEMA_FLAG_NOT_BLANK)
          {
            gsize tlen;

            (void) akc_text_trim (s, len, &tlen);
            if (tlen == 0)
              return FALSE;
          }
        set_out_ref (out, value);
        return TRUE;
      }

    case AKC_SCHEMA_KIND_LITERAL:
      if (!akc_json_string_equals (value, type->literal))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_ENUM:
      if (!AKC_JSON_IS_STRING (value) || !string_in_list (value, type->values))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_PATTERN:
      {
        const char *s;
        gsize len;

        if (!AKC_JSON_IS_STRING (value))
          return FALSE;
        s = AKC_JSON_STR (value);
        len = AKC_JSON_STR_LEN (value);

        if (type->flags & AKC_SCHEMA_FLAG_TRIM)
          {
            gsize tlen;
            const char *t = akc_text_trim (s, len, &tlen);

            if (!type->pattern (t, tlen))
              return FALSE;
            if (out != NULL)
              *out = tlen == len ? akc_json_value_ref (value) : akc_json_string_new_len (t, tlen);
            return TRUE;
          }

        if (!type->pattern (s, len))
          return FALSE;
        set_out_ref (out, value);
        return TRUE;
      }

    case AKC_SCHEMA_KIND_INT:
      if (!AKC_JSON_IS_NUMBER (value) ||
          !akc_schema_is_int (AKC_JSON_NUMBER (value)) ||
          !number_in (type, AKC_JSON_NUMBER (value)))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_NUMBER:
      if (!AKC_JSON_IS_NUMBER (value) ||
          !isfinite (AKC_JSON_NUMBER (value)) ||
          !number_in (type, AKC_JSON_NUMBER (value)))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_NUMERIC_LITERAL:
      if (!AKC_JSON_IS_NUMBER (value) || AKC_JSON_NUMBER (value) != type->min)
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_BOOL:
      if (!AKC_JSON_IS (value, AKC_JSON_KIND_BOOLEAN))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_OBJECT:
      return validate_object (type->table, value, out);

    case AKC_SCHEMA_KIND_ARRAY:
      return validate_array (type, value, out);

    case AKC_SCHEMA_KIND_BJV:
      if (!akc_bjv_check (value, type->bjv))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_FREE_OBJECT:
      if (!AKC_JSON_IS_OBJECT (value))
        return FALSE;
      if (type->bjv != NULL && !akc_bjv_check (value, type->bjv))
        return FALSE;
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_MAP:
      return validate_map (type, value, out);

    case AKC_SCHEMA_KIND_ANY:
      set_out_ref (out, value);
      return TRUE;

    case AKC_SCHEMA_KIND_UNION:
      return validate_union (type, value, out);

    case AKC_SCHEMA_KIND_CUSTOM:
      return type->custom (type, value, parent, out);

    default:
      g_assert_not_reached ();
    }
}

gboolean
akc_schema_validate_table (const AkcSchemaTable  *table,
                           AkcJsonValue          *value,
                           AkcJsonValue         **out)
{
  g_assert (table != NULL);
  g_assert (value != NULL);

  return validate_object (table, value, out);
}

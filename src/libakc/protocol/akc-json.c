/* akc-json.c: immutable, length-aware JSON values
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-json-private.h"

/**
 * AkcJsonValue:
 *
 * An immutable, reference-counted JSON value.
 *
 * Unlike `JsonNode`, strings carry an explicit byte length and may contain
 * U+0000, objects keep member order with unique names, and the whole tree
 * of a parsed document is allocated at once. Values come from
 * [ctor@JsonValue.parse] (strict ECMAScript `JSON.parse` grammar) or from the
 * `new_*` constructors, and are serialised with
 * [method@JsonValue.to_canonical] (the protocol's canonical JSON).
 *
 * Since: 0.1
 */

G_DEFINE_ENUM_TYPE (AkcJsonKind, akc_json_kind,
  G_DEFINE_ENUM_VALUE (AKC_JSON_KIND_NULL, "null"),
  G_DEFINE_ENUM_VALUE (AKC_JSON_KIND_BOOLEAN, "boolean"),
  G_DEFINE_ENUM_VALUE (AKC_JSON_KIND_NUMBER, "number"),
  G_DEFINE_ENUM_VALUE (AKC_JSON_KIND_STRING, "string"),
  G_DEFINE_ENUM_VALUE (AKC_JSON_KIND_ARRAY, "array"),
  G_DEFINE_ENUM_VALUE (AKC_JSON_KIND_OBJECT, "object"))

G_DEFINE_BOXED_TYPE (AkcJsonValue, akc_json_value, akc_json_value_ref, akc_json_value_unref)

AkcJsonValue akc_json_null_value = {
  .kind = AKC_JSON_KIND_NULL, .storage = AKC_JSON_STORAGE_STATIC, .n_values = 1,
};
AkcJsonValue akc_json_true_value = {
  .kind = AKC_JSON_KIND_BOOLEAN, .storage = AKC_JSON_STORAGE_STATIC, .n_values = 1,
  .u.boolean = TRUE,
};
AkcJsonValue akc_json_false_value = {
  .kind = AKC_JSON_KIND_BOOLEAN, .storage = AKC_JSON_STORAGE_STATIC, .n_values = 1,
  .u.boolean = FALSE,
};

/* ------------------------------------------------------------------ */
/* Refcounting                                                         */
/* ------------------------------------------------------------------ */

/**
 * akc_json_value_ref:
 * @self: a value
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_ref (AkcJsonValue *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  switch (self->storage)
    {
    case AKC_JSON_STORAGE_ARENA:
      akc_json_arena_ref (self->arena);
      break;
    case AKC_JSON_STORAGE_HEAP:
      g_atomic_int_inc (&self->ref_count);
      break;
    default:
      break;
    }

  return self;
}

static void
heap_free (AkcJsonValue *self)
{
  gsize i;

  if (self->kind == AKC_JSON_KIND_ARRAY)
    {
      for (i = 0; i < self->len; i++)
        akc_json_value_unref (self->u.elements[i]);
    }
  else if (self->kind == AKC_JSON_KIND_OBJECT)
    {
      for (i = 0; i < self->len; i++)
        akc_json_value_unref (self->u.members[i].value);
    }

  g_free (self);
}

/**
 * akc_json_value_unref:
 * @self: (transfer full): a value
 *
 * Releases a reference on @self; the value is freed when the last
 * reference goes.
 *
 * Since: 0.1
 */
void
akc_json_value_unref (AkcJsonValue *self)
{
  g_return_if_fail (self != NULL);

  switch (self->storage)
    {
    case AKC_JSON_STORAGE_ARENA:
      akc_json_arena_unref (self->arena);
      break;
    case AKC_JSON_STORAGE_HEAP:
      if (g_atomic_int_dec_and_test (&self->ref_count))
        heap_free (self);
      break;
    default:
      break;
    }
}

/* ------------------------------------------------------------------ */
/* Members, hashing, lookup                                            */
/* ------------------------------------------------------------------ */

guint32
akc_json_hash_name (const char *name,
                    gsize       len)
{
  guint32 h = 2166136261u;
  gsize i;

  for (i = 0; i < len; i++)
    {
      h ^= (guint8) name[i];
      h *= 16777619u;
    }

  return h;
}

gsize
akc_json_index_capacity (gsize n)
{
  gsize cap = 16;

  while (cap < n * 2)
    cap <<= 1;

  return cap;
}

static inline gboolean
member_name_eq (const AkcJsonMember *m,
                const char          *name,
                gsize                len,
                guint32              hash)
{
  return m->hash == hash && m->name_len == len && memcmp (m->name, name, len) == 0;
}

gsize
akc_json_members_dedup (AkcJsonMember *src,
                        gsize          n,
                        AkcJsonMember *dst,
                        guint32       *index,
                        void         (*on_duplicate) (AkcJsonValue *))
{
  gsize m = 0;
  gsize i, j;

  if (index == NULL)
    {
      for (i = 0; i < n; i++)
        {
          AkcJsonMember cur = src[i];

          for (j = 0; j < m; j++)
            if (member_name_eq (&dst[j], cur.name, cur.name_len, cur.hash))
              break;

          if (j < m)
            {
              if (on_duplicate != NULL)
                on_duplicate (dst[j].value);
              dst[j].value = cur.value;
            }
          else
            dst[m++] = cur;
        }
    }
  else
    {
      gsize cap = akc_json_index_capacity (n);
      guint32 *slots = index + 1;

      index[0] = (guint32) cap;
      memset (slots, 0, cap * sizeof (guint32));

      for (i = 0; i < n; i++)
        {
          AkcJsonMember cur = src[i];
          gsize pos = cur.hash & (cap - 1);

          for (;;)
            {
              guint32 slot = slots[pos];

              if (slot == 0)
                {
                  slots[pos] = (guint32) (m + 1);
                  dst[m++] = cur;
                  break;
                }
              if (member_name_eq (&dst[slot - 1], cur.name, cur.name_len, cur.hash))
                {
                  if (on_duplicate != NULL)
                    on_duplicate (dst[slot - 1].value);
                  dst[slot - 1].value = cur.value;
                  break;
                }
              pos = (pos + 1) & (cap - 1);
            }
        }
    }

  return m;
}

gssize
akc_json_object_find (const AkcJsonValue *object,
                      const char         *name,
                      gsize               name_len,
                      guint              *hint)
{
  guint32 hash;
  gsize n, i, start;

  g_assert (object->kind == AKC_JSON_KIND_OBJECT);

  n = object->len;
  if (n == 0)
    return -1;

  hash = akc_json_hash_name (name, name_len);

  if (object->flags & AKC_JSON_FLAG_INDEXED)
    {
      const guint32 *index = (const guint32 *) (object->u.members + n);
      gsize cap = index[0];
      const guint32 *slots = index + 1;
      gsize pos = hash & (cap - 1);

      for (;;)
        {
          guint32 slot = slots[pos];

          if (slot == 0)
            return -1;
          if (member_name_eq (&object->u.members[slot - 1], name, name_len, hash))
            return slot - 1;
          pos = (pos + 1) & (cap - 1);
        }
    }

  start = (hint != NULL && *hint < n) ? *hint : 0;
  i = start;
  do
    {
      if (member_name_eq (&object->u.members[i], name, name_len, hash))
        {
          if (hint != NULL)
            *hint = (guint) (i + 1);
          return i;
        }
      i = (i + 1 == n) ? 0 : i + 1;
    }
  while (i != start);

  return -1;
}

AkcJsonValue *
akc_json_object_lookup (const AkcJsonValue *object,
                        const char         *name,
                        gsize               name_len,
                        guint              *hint)
{
  gssize pos = akc_json_object_find (object, name, name_len, hint);

  return pos < 0 ? NULL : object->u.members[pos].value;
}

gboolean
akc_json_string_equals (const AkcJsonValue *v,
                        const char         *literal)
{
  gsize len;

  if (v == NULL || v->kind != AKC_JSON_KIND_STRING)
    return FALSE;

  len = strlen (literal);
  return v->len == len && memcmp (v->u.str, literal, len) == 0;
}

/* ------------------------------------------------------------------ */
/* Builder                                                             */
/* ------------------------------------------------------------------ */

static inline guint32
sat_add (guint32 a,
         guint32 b)
{
  return a > G_MAXUINT32 - b ? G_MAXUINT32 : a + b;
}

static AkcJsonValue *
heap_node (gsize extra)
{
  AkcJsonValue *v = g_malloc (sizeof (AkcJsonValue) + extra);

  v->ref_count = 1;
  v->storage = AKC_JSON_STORAGE_HEAP;
  v->height = 0;
  v->flags = 0;
  v->len = 0;
  v->n_values = 1;
  v->arena = NULL;

  return v;
}

AkcJsonValue *
akc_json_string_new_len (const char *str,
                         gsize       len)
{
  AkcJsonValue *v;
  char *dst;

  g_assert (len <= G_MAXUINT32);

  v = heap_node (len + 1);
  v->kind = AKC_JSON_KIND_STRING;
  v->len = (guint32) len;
  dst = (char *) (v + 1);
  if (len > 0)
    memcpy (dst, str, len);
  dst[len] = '\0';
  v->u.str = dst;

  return v;
}

static void
account_child (AkcJsonValue       *parent,
               const AkcJsonValue *child,
               guint              *height)
{
  if (child->height + 1u > *height)
    *height = child->height + 1u;
  parent->n_values = sat_add (parent->n_values, child->n_values);
  parent->flags |= child->flags & AKC_JSON_FLAG_NONFINITE;
}

AkcJsonValue *
akc_json_array_new_steal (AkcJsonValue **elements,
                          gsize          n)
{
  AkcJsonValue *v;
  guint height = 0;
  gsize i;

  g_assert (n <= G_MAXUINT32);

  v = heap_node (n * sizeof (AkcJsonValue *));
  v->kind = AKC_JSON_KIND_ARRAY;
  v->len = (guint32) n;
  v->u.elements = (AkcJsonValue **) (v + 1);

  for (i = 0; i < n; i++)
    {
      v->u.elements[i] = elements[i];
      account_child (v, elements[i], &height);
    }

  g_assert (height <= AKC_JSON_MAX_DEPTH);
  v->height = (guint16) height;

  return v;
}

AkcJsonValue *
akc_json_object_new_steal (AkcJsonMemberInit *members,
                           gsize              n,
                           gboolean           unique,
                           guint              flags)
{
  AkcJsonValue *v;
  AkcJsonMember *dst;
  gboolean indexed = n > AKC_JSON_INDEX_THRESHOLD;
  gboolean static_names = (flags & AKC_JSON_FLAG_STATIC_NAMES) != 0;
  gsize index_size = indexed ? (akc_json_index_capacity (n) + 1) * sizeof (guint32) : 0;
  gsize names_size = 0;
  guint32 *index = NULL;
  char *names;
  guint height = 0;
  gsize i, m;

  g_assert (n <= G_MAXUINT32);

  if (!static_names)
    for (i = 0; i < n; i++)
      names_size += members[i].name_len + 1;

  v = heap_node (n * sizeof (AkcJsonMember) + index_size + names_size);
  v->kind = AKC_JSON_KIND_OBJECT;
  dst = (AkcJsonMember *) (v + 1);
  v->u.members = dst;
  if (indexed)
    index = (guint32 *) (dst + n);
  names = (char *) (dst + n) + index_size;

  for (i = 0; i < n; i++)
    {
      const char *name = members[i].name;

      g_assert (members[i].name_len <= G_MAXUINT32);

      if (!static_names)
        {
          memcpy (names, members[i].name, members[i].name_len);
          names[members[i].name_len] = '\0';
          name = names;
          names += members[i].name_len + 1;
        }

      dst[i].name = name;
      dst[i].name_len = (guint32) members[i].name_len;
      dst[i].hash = akc_json_hash_name (members[i].name, members[i].name_len);
      dst[i].value = members[i].value;
    }

  if (indexed || !unique)
    m = akc_json_members_dedup (dst, n, dst, index, akc_json_value_unref);
  else
    m = n;

  /* Index slots refer to positions < m, so a shrunken member array keeps
   * the index right behind the original n slots: record where it is by
   * keeping the member pointer layout (index sits at members + len only
   * when m == n). Move the index down if members shrank. */
  if (indexed && m != n)
    memmove (dst + m, index, index_size);

  v->len = (guint32) m;
  if (indexed)
    v->flags |= AKC_JSON_FLAG_INDEXED;
  if (static_names)
    v->flags |= AKC_JSON_FLAG_STATIC_NAMES;

  for (i = 0; i < m; i++)
    account_child (v, dst[i].value, &height);

  g_assert (height <= AKC_JSON_MAX_DEPTH);
  v->height = (guint16) height;

  return v;
}

/* ------------------------------------------------------------------ */
/* Public constructors                                                 */
/* ------------------------------------------------------------------ */

/**
 * akc_json_value_new_null:
 *
 * Returns the JSON `null` value.
 *
 * Returns: (transfer full): `null`
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_null (void)
{
  return &akc_json_null_value;
}

/**
 * akc_json_value_new_boolean:
 * @value: the boolean
 *
 * Returns the JSON `true` or `false` value.
 *
 * Returns: (transfer full): a boolean value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_boolean (gboolean value)
{
  return value ? &akc_json_true_value : &akc_json_false_value;
}

/**
 * akc_json_value_new_number:
 * @value: a number, not NaN
 *
 * Creates a number value. Infinities are representable (a parsed literal
 * may overflow) but every protocol check rejects them, and the canonical
 * writer emits them as `null`, like `JSON.stringify`.
 *
 * Returns: (transfer full): a number value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_number (double value)
{
  AkcJsonValue *v;

  g_return_val_if_fail (!isnan (value), NULL);

  v = heap_node (0);
  v->kind = AKC_JSON_KIND_NUMBER;
  v->u.number = value;
  if (!isfinite (value))
    v->flags |= AKC_JSON_FLAG_NONFINITE;

  return v;
}

/**
 * akc_json_value_new_string:
 * @value:: UTF-8 text, may
 *   contain U+0000 when @length is given
 * @length: length of @value in bytes, or -1 if it is NUL-terminated
 *
 * Creates a string value holding a copy of @value, which must be valid
 * UTF-8.
 *
 * Returns: (transfer full): a string value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_string (const char *value,
                           gssize      length)
{
  gsize len;

  g_return_val_if_fail (value != NULL || length == 0, NULL);

  len = length < 0 ? strlen (value) : (gsize) length;
  g_return_val_if_fail (len <= G_MAXUINT32, NULL);
  g_return_val_if_fail (akc_utf8_valid_prefix (value, len) == len, NULL);

  return akc_json_string_new_len (value, len);
}

/**
 * akc_json_value_new_string_utf8: (rename-to akc_json_value_new_string)
 * @value:: UTF-8 text, may
 *   contain U+0000 when @length is given
 *
 * Does what akc_json_value_new_string() does, for NUL-terminated @value:
 * the form bindings see.
 *
 * Returns: (transfer full): a string value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_string_utf8 (const char *value)
{
  return akc_json_value_new_string (value, -1);
}

/**
 * akc_json_value_new_array:
 * @elements: (array length=n_elements) (transfer none): the elements
 * @n_elements: number of elements
 *
 * Creates an array value holding a reference to each element.
 *
 * Returns: (transfer full): an array value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_array (AkcJsonValue * const *elements,
                          gsize                 n_elements)
{
  g_autofree AkcJsonValue **refs = NULL;
  gsize i;

  g_return_val_if_fail (elements != NULL || n_elements == 0, NULL);
  g_return_val_if_fail (n_elements <= G_MAXUINT32, NULL);
  for (i = 0; i < n_elements; i++)
    {
      g_return_val_if_fail (elements[i] != NULL, NULL);
      g_return_val_if_fail (elements[i]->height < AKC_JSON_MAX_DEPTH, NULL);
    }

  refs = g_new (AkcJsonValue *, n_elements + 1);
  for (i = 0; i < n_elements; i++)
    refs[i] = akc_json_value_ref (elements[i]);

  return akc_json_array_new_steal (refs, n_elements);
}

/**
 * akc_json_value_new_object:
 * @names: (array length=n_members): member names (UTF-8)
 * @values: (array length=n_members) (transfer none): member values
 * @n_members: number of members
 *
 * Creates an object value with the members in the given order. When a
 * name occurs twice, the last value is kept at the position of the first
 * occurrence (as `JSON.parse` does).
 *
 * Returns: (transfer full): an object value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_new_object (const char * const   *names,
                           AkcJsonValue * const *values,
                           gsize                 n_members)
{
  g_autofree AkcJsonMemberInit *members = NULL;
  gsize i;

  g_return_val_if_fail ((names != NULL && values != NULL) || n_members == 0, NULL);
  g_return_val_if_fail (n_members <= G_MAXUINT32, NULL);
  for (i = 0; i < n_members; i++)
    {
      g_return_val_if_fail (names[i] != NULL, NULL);
      g_return_val_if_fail (g_utf8_validate (names[i], -1, NULL), NULL);
      g_return_val_if_fail (values[i] != NULL, NULL);
      g_return_val_if_fail (values[i]->height < AKC_JSON_MAX_DEPTH, NULL);
    }

  members = g_new (AkcJsonMemberInit, n_members + 1);
  for (i = 0; i < n_members; i++)
    {
      members[i].name = names[i];
      members[i].name_len = strlen (names[i]);
      members[i].value = akc_json_value_ref (values[i]);
    }

  return akc_json_object_new_steal (members, n_members, FALSE, 0);
}

/**
 * akc_json_value_parse: (constructor)
 * @text:: JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #GError
 *
 * Parses one JSON text strictly, exactly as ECMAScript `JSON.parse` does
 * ([protocol §1.2](wire-formats.html#protocol-1)): no byte-order mark, comments, trailing commas,
 * single quotes, leading zeros or `+`, `NaN`, raw control characters in
 * strings, invalid escapes or trailing data. Invalid UTF-8 is replaced by
 * U+FFFD first. U+0000 in strings is preserved. Unlike `JSON.parse`, an
 * escape producing an unpaired surrogate is rejected (§10 item 1), and
 * nesting is limited to 10 000 levels.
 *
 * On failure @error is set in the %AKC_PROTOCOL_ERROR domain with code
 * %AKC_PROTOCOL_ERROR_INVALID_JSON.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL on error
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_parse (const char *text,
                      gssize      length,
                      GError    **error)
{
  AkcJsonParseStatus status = AKC_JSON_PARSE_OK;
  gsize offset = 0;
  AkcJsonValue *v;
  gsize len;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  v = akc_json_parse (text, len, NULL, &status, &offset);

  if (v == NULL)
    {
      const char *why;

      switch (status)
        {
        case AKC_JSON_PARSE_LONE_SURROGATE:
          why = "unpaired surrogate escape";
          break;
        case AKC_JSON_PARSE_TOO_DEEP:
          why = "nesting too deep";
          break;
        case AKC_JSON_PARSE_TOO_LARGE:
          why = "text too large";
          break;
        default:
          why = "syntax error";
          break;
        }

      g_set_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_INVALID_JSON,
                   "Invalid JSON: %s at byte %" G_GSIZE_FORMAT, why, offset);
    }

  return v;
}

/**
 * akc_json_value_parse_utf8: (rename-to akc_json_value_parse) (constructor)
 * @text:: JSON text
 * @error: return location for a #GError
 *
 * Does what akc_json_value_parse() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL on error
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_parse_utf8 (const char  *text,
                           GError     **error)
{
  return akc_json_value_parse (text, -1, error);
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */
/* ------------------------------------------------------------------ */

/**
 * akc_json_value_get_kind:
 * @self: a value
 *
 * Gets the kind of @self.
 *
 * Returns: the kind
 *
 * Since: 0.1
 */
AkcJsonKind
akc_json_value_get_kind (const AkcJsonValue *self)
{
  g_return_val_if_fail (self != NULL, AKC_JSON_KIND_NULL);

  return (AkcJsonKind) self->kind;
}

/**
 * akc_json_value_get_boolean:
 * @self: a boolean value
 *
 * Gets the boolean held by @self.
 *
 * Returns: the boolean
 *
 * Since: 0.1
 */
gboolean
akc_json_value_get_boolean (const AkcJsonValue *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_BOOLEAN, FALSE);

  return self->u.boolean;
}

/**
 * akc_json_value_get_number:
 * @self: a number value
 *
 * Gets the number held by @self.
 *
 * Returns: the number (may be infinite for an overflowing literal)
 *
 * Since: 0.1
 */
double
akc_json_value_get_number (const AkcJsonValue *self)
{
  g_return_val_if_fail (self != NULL, 0.0);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_NUMBER, 0.0);

  return self->u.number;
}

/**
 * akc_json_value_get_string:
 * @self: a string value
 * @length: (out) (optional): return location for the length in bytes
 *
 * Gets the UTF-8 text of a string value. The text is NUL-terminated but
 * may also contain U+0000: use @length for the full string (bindings that
 * see a plain string see it up to the first U+0000).
 *
 * Returns: (transfer none): the text
 *
 * Since: 0.1
 */
const char *
akc_json_value_get_string (const AkcJsonValue *self,
                           gsize              *length)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_STRING, NULL);

  if (length != NULL)
    *length = self->len;

  return self->u.str;
}

/**
 * akc_json_value_get_string_utf8: (rename-to akc_json_value_get_string)
 * @self: a string value
 *
 * Does what akc_json_value_get_string() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer none): the text
 *
 * Since: 0.1
 */
const char *
akc_json_value_get_string_utf8 (const AkcJsonValue *self)
{
  return akc_json_value_get_string (self, NULL);
}

/**
 * akc_json_value_get_length:
 * @self: an array value
 *
 * Gets the number of elements of an array value.
 *
 * Returns: the element count
 *
 * Since: 0.1
 */
gsize
akc_json_value_get_length (const AkcJsonValue *self)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_ARRAY, 0);

  return self->len;
}

/**
 * akc_json_value_get_element:
 * @self: an array value
 * @index_: the element position
 *
 * Gets one element of an array value.
 *
 * Returns: (transfer none): the element
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_get_element (const AkcJsonValue *self,
                            gsize               index_)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_ARRAY, NULL);
  g_return_val_if_fail (index_ < self->len, NULL);

  return self->u.elements[index_];
}

/**
 * akc_json_value_get_member_count:
 * @self: an object value
 *
 * Gets the number of members of an object value.
 *
 * Returns: the member count
 *
 * Since: 0.1
 */
gsize
akc_json_value_get_member_count (const AkcJsonValue *self)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_OBJECT, 0);

  return self->len;
}

/**
 * akc_json_value_get_member_name:
 * @self: an object value
 * @index_: the member position
 * @length: (out) (optional): return location for the name length in bytes
 *
 * Gets the name of the member at @index_ (members keep their order).
 *
 * Returns: (transfer none): the name, NUL-terminated, may contain U+0000
 *
 * Since: 0.1
 */
const char *
akc_json_value_get_member_name (const AkcJsonValue *self,
                                gsize               index_,
                                gsize              *length)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_OBJECT, NULL);
  g_return_val_if_fail (index_ < self->len, NULL);

  if (length != NULL)
    *length = self->u.members[index_].name_len;

  return self->u.members[index_].name;
}

/**
 * akc_json_value_get_member_name_utf8: (rename-to akc_json_value_get_member_name)
 * @self: an object value
 * @index_: the member position
 *
 * Does what akc_json_value_get_member_name() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer none): the name, NUL-terminated, may contain U+0000
 *
 * Since: 0.1
 */
const char *
akc_json_value_get_member_name_utf8 (const AkcJsonValue *self,
                                     gsize               index_)
{
  return akc_json_value_get_member_name (self, index_, NULL);
}

/**
 * akc_json_value_get_member_value:
 * @self: an object value
 * @index_: the member position
 *
 * Gets the value of the member at @index_.
 *
 * Returns: (transfer none): the member value
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_get_member_value (const AkcJsonValue *self,
                                 gsize               index_)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_OBJECT, NULL);
  g_return_val_if_fail (index_ < self->len, NULL);

  return self->u.members[index_].value;
}

/**
 * akc_json_value_get_member:
 * @self: an object value
 * @name: a member name
 *
 * Looks up a member by name.
 *
 * Returns: (transfer none) (nullable): the member value, or %NULL if
 *   @self has no such member
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_json_value_get_member (const AkcJsonValue *self,
                           const char         *name)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (self->kind == AKC_JSON_KIND_OBJECT, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return akc_json_object_lookup (self, name, strlen (name), NULL);
}

/**
 * akc_json_value_equal:
 * @a: a value
 * @b: another value
 *
 * Compares two values structurally: same kind, numbers numerically equal
 * (`0` equals `-0`), strings byte-equal, arrays element-wise, objects with
 * the same member names and equal values regardless of member order.
 *
 * Returns: %TRUE if @a and @b are equal
 *
 * Since: 0.1
 */
gboolean
akc_json_value_equal (const AkcJsonValue *a,
                      const AkcJsonValue *b)
{
  gsize i;

  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  if (a == b)
    return TRUE;
  if (a->kind != b->kind)
    return FALSE;

  switch ((AkcJsonKind) a->kind)
    {
    case AKC_JSON_KIND_NULL:
      return TRUE;
    case AKC_JSON_KIND_BOOLEAN:
      return !a->u.boolean == !b->u.boolean;
    case AKC_JSON_KIND_NUMBER:
      return a->u.number == b->u.number;
    case AKC_JSON_KIND_STRING:
      return a->len == b->len && memcmp (a->u.str, b->u.str, a->len) == 0;
    case AKC_JSON_KIND_ARRAY:
      if (a->len != b->len)
        return FALSE;
      for (i = 0; i < a->len; i++)
        if (!akc_json_value_equal (a->u.elements[i], b->u.elements[i]))
          return FALSE;
      return TRUE;
    case AKC_JSON_KIND_OBJECT:
      {
        guint hint = 0;

        if (a->len != b->len)
          return FALSE;
        for (i = 0; i < a->len; i++)
          {
            const AkcJsonMember *m = &a->u.members[i];
            AkcJsonValue *other = akc_json_object_lookup (b, m->name, m->name_len, &hint);

            if (other == NULL || !akc_json_value_equal (m->value, other))
              return FALSE;
          }
        return TRUE;
      }
    default:
      g_assert_not_reached ();
    }
}

/**
 * akc_json_value_to_canonical:
 * @self: a value
 * @length: (out) (optional): return location for the length in bytes
 *
 * Serialises @self as canonical JSON ([protocol §1.10](wire-formats.html#protocol-1)): compact, the
 * escapes and number format of `JSON.stringify`, and members of every
 * object whose names are array indices first in ascending numeric order,
 * then the others in their order. The result may contain U+0000 only as
 * the escape `\u0000`, so it is a regular NUL-terminated string.
 *
 * Returns: (transfer full): the JSON text
 *
 * Since: 0.1
 */
char *
akc_json_value_to_canonical (const AkcJsonValue *self,
                             gsize              *length)
{
  GString *out;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_string_sized_new (64);
  akc_json_append_value (out, self);

  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}

/**
 * akc_json_value_to_canonical_utf8: (rename-to akc_json_value_to_canonical)
 * @self: a value
 *
 * Does what akc_json_value_to_canonical() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full): the JSON text
 *
 * Since: 0.1
 */
char *
akc_json_value_to_canonical_utf8 (const AkcJsonValue *self)
{
  return akc_json_value_to_canonical (self, NULL);
}


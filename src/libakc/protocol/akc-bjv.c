/* akc-bjv.c: the bounded JSON value check (protocol §1.9, §2.9.1)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-schema-private.h"
#include "akc-text-private.h"

const AkcBjvLimits akc_bjv_default_limits = {
  .max_values = 1000,
  .max_depth = 20,
  .max_string_len16 = 16384,
  .max_array_len = 1000,
  .max_members = 1000,
  .max_name_len16 = 256,
};

const AkcBjvLimits akc_bjv_message_limits = {
  .max_values = 10000,
  .max_depth = 32,
  .max_string_len16 = G_MAXSIZE,
  .max_array_len = 10000,
  .max_members = 10000,
  .max_name_len16 = 256,
};

/* Application §5.4: strings (member names too) 16384 units, 10000 nodes,
 * depth 32, arrays 10000 items; the node count bounds members too. */
const AkcBjvLimits akc_bjv_tool_argument_limits = {
  .max_values = 10000,
  .max_depth = 32,
  .max_string_len16 = 16384,
  .max_array_len = 10000,
  .max_members = 10000,
  .max_name_len16 = 16384,
};

/* len16 <= max without counting when the byte length decides it:
 * len16 <= bytes always, and len16 >= bytes / 3 (rounded up). */
static inline gboolean
len16_at_most (const char *s,
               gsize       len,
               gsize       max)
{
  if (len <= max)
    return TRUE;
  if ((len + 2) / 3 > max)
    return FALSE;
  return akc_text_len16 (s, len) <= max;
}

static gboolean
walk (const AkcJsonValue *v,
      const AkcBjvLimits *limits)
{
  gsize i;

  switch ((AkcJsonKind) v->kind)
    {
    case AKC_JSON_KIND_STRING:
      return len16_at_most (v->u.str, v->len, limits->max_string_len16);

    case AKC_JSON_KIND_ARRAY:
      if (v->len > limits->max_array_len)
        return FALSE;
      for (i = 0; i < v->len; i++)
        if (v->u.elements[i]->kind >= AKC_JSON_KIND_STRING &&
            !walk (v->u.elements[i], limits))
          return FALSE;
      return TRUE;

    case AKC_JSON_KIND_OBJECT:
      if (v->len > limits->max_members)
        return FALSE;
      for (i = 0; i < v->len; i++)
        {
          const AkcJsonMember *m = &v->u.members[i];

          if (!len16_at_most (m->name, m->name_len, limits->max_name_len16))
            return FALSE;
          if (m->value->kind >= AKC_JSON_KIND_STRING && !walk (m->value, limits))
            return FALSE;
        }
      return TRUE;

    default:
      return TRUE;   /* null, booleans; numbers were checked via the flag */
    }
}

gboolean
akc_bjv_check (const AkcJsonValue *value,
               const AkcBjvLimits *limits)
{
  g_assert (value != NULL);
  g_assert (limits != NULL);

  /* O(1) checks first: finiteness, depth and count are recorded in nodes. */
  if (value->flags & AKC_JSON_FLAG_NONFINITE)
    return FALSE;
  if (value->height > limits->max_depth)
    return FALSE;
  if (value->n_values > limits->max_values)
    return FALSE;

  return walk (value, limits);
}

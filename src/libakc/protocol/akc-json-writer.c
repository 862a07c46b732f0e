/* akc-json-writer.c: the canonical JSON writer (protocol §1.10)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "akc-json-private.h"

/* ------------------------------------------------------------------ */
/* Numbers: ECMAScript Number::toString                               */
/* ------------------------------------------------------------------ */

/* Shortest decimal digits that round-trip to @value (> 0, finite), as a
 * digit string without dot and the ECMAScript exponent n such that
 * value = 0.d1d2...dk × 10^n. glibc's printf is exact and round-half-even on
 * the exact binary value, so the first precision that round-trips gives the
 * shortest digits, and among those the closest to @value (as required by
 * Number::toString step 5). */
static gsize
shortest_digits (double  value,
                 char   *digits,
                 int    *out_n)
{
  char buf[40];
  int prec;
  int exp10 = 0;
  gsize k = 0;
  const char *p;

  for (prec = 0; prec <= 17; prec++)
    {
      g_snprintf (buf, sizeof buf, "%.*e", prec, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }

  /* buf is d[.ddd]e±XX */
  for (p = buf; *p != 'e'; p++)
    if (*p >= '0' && *p <= '9')
      digits[k++] = *p;
  exp10 = atoi (p + 1);

  /* strip trailing zeros (only possible at prec 0..: keep at least one) */
  while (k > 1 && digits[k - 1] == '0')
    k--;
  digits[k] = '\0';

  *out_n = exp10 + 1;
  return k;
}

gsize
akc_json_format_number (double  value,
                        char   *buf)
{
  char digits[24];
  char *o = buf;
  gsize k;
  int n;

  if (isnan (value))
    return (gsize) g_stpcpy (buf, "NaN") - (gsize) buf;
  if (isinf (value))
    return (gsize) g_stpcpy (buf, value > 0 ? "Infinity" : "-Infinity") - (gsize) buf;
  if (value == 0)
    return (gsize) g_stpcpy (buf, "0") - (gsize) buf;   /* also -0 */

  if (value < 0)
    {
      *o++ = '-';
      value = -value;
    }

  /* Integers below 2^53 print exactly and are always plain decimals. */
  if (value < 9007199254740992.0 && value == floor (value))
    {
      o += g_snprintf (o, 24, "%" G_GINT64_FORMAT, (gint64) value);
      return (gsize) (o - buf);
    }

  k = shortest_digits (value, digits, &n);

  if ((int) k <= n && n <= 21)
    {
      /* digits followed by n-k zeros */
      memcpy (o, digits, k);
      o += k;
      for (int i = 0; i < n - (int) k; i++)
        *o++ = '0';
    }
  else if (0 < n && n <= 21)
    {
      memcpy (o, digits, n);
      o += n;
      *o++ = '.';
      memcpy (o, digits + n, k - n);
      o += k - n;
    }
  else if (-6 < n && n <= 0)
    {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -n; i++)
        *o++ = '0';
      memcpy (o, digits, k);
      o += k;
    }
  else
    {
      int e = n - 1;

      *o++ = digits[0];
      if (k > 1)
        {
          *o++ = '.';
          memcpy (o, digits + 1, k - 1);
          o += k - 1;
        }
      *o++ = 'e';
      *o++ = e < 0 ? '-' : '+';
      o += g_snprintf (o, 8, "%d", ABS (e));
    }

  *o = '\0';
  return (gsize) (o - buf);
}

void
akc_json_append_number (GString *out,
                        double   value)
{
  char buf[AKC_JSON_NUMBER_BUF_SIZE];
  gsize n;

  if (!isfinite (value))
    {
      g_string_append_len (out, "null", 4);  /* JSON.stringify */
      return;
    }

  n = akc_json_format_number (value, buf);
  g_string_append_len (out, buf, n);
}

/* ------------------------------------------------------------------ */
/* Strings                                                             */
/* ------------------------------------------------------------------ */

/* 0: literal; otherwise the escape letter or 'u' */
static const char escape_table[128] = {
  ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
  ['"'] = '"', ['\\'] = '\\',
  [0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u',
  [0x05] = 'u', [0x06] = 'u', [0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u',
  [0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u', [0x13] = 'u',
  [0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u', [0x18] = 'u',
  [0x19] = 'u', [0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u', [0x1d] = 'u',
  [0x1e] = 'u', [0x1f] = 'u',
};

void
akc_json_append_string (GString    *out,
                        const char *str,
                        gsize       len)
{
  static const char hex[] = "0123456789abcdef";
  const guint8 *p = (const guint8 *) str;
  gsize i = 0, run = 0;

  g_string_append_c (out, '"');

  while (i < len)
    {
      guint8 c = p[i];
      char e;

      if (c >= 0x80 || (e = escape_table[c]) == 0)
        {
          i++;
          continue;
        }

      g_string_append_len (out, str + run, i - run);
      if (e == 'u')
        {
          char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };
          g_string_append_len (out, u, 6);
        }
      else
        {
          char esc[2] = { '\\', e };
          g_string_append_len (out, esc, 2);
        }
      i++;
      run = i;
    }

  g_string_append_len (out, str + run, len - run);
  g_string_append_c (out, '"');
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

gboolean
akc_json_is_array_index (const char *name,
                         gsize       len,
                         guint32    *out_index)
{
  guint64 v = 0;
  gsize i;

  if (len == 0 || len > 10)
    return FALSE;
  if (name[0] == '0' && len > 1)
    return FALSE;
  for (i = 0; i < len; i++)
    {
      if (name[i] < '0' || name[i] > '9')
        return FALSE;
      v = v * 10 + (guint64) (name[i] - '0');
    }
  if (v > G_GUINT64_CONSTANT (4294967294))
    return FALSE;
  if (out_index != NULL)
    *out_index = (guint32) v;

  return TRUE;
}

typedef struct {
  guint32 index;
  guint32 pos;
} IndexedMember;

static int
compare_indexed (const void *a,
                 const void *b)
{
  const IndexedMember *x = a, *y = b;

  return x->index < y->index ? -1 : x->index > y->index;
}

static void
append_member (GString             *out,
               const AkcJsonMember *m,
               gboolean             first)
{
  if (!first)
    g_string_append_c (out, ',');
  akc_json_append_string (out, m->name, m->name_len);
  g_string_append_c (out, ':');
  akc_json_append_value (out, m->value);
}

static void
append_object (GString            *out,
               const AkcJsonValue *v)
{
  gsize n = v->len;
  gsize n_index = 0;
  gsize i;

  for (i = 0; i < n; i++)
    {
      const AkcJsonMember *m = &v->u.members[i];

      if (m->name_len > 0 && m->name[0] >= '0' && m->name[0] <= '9' &&
          akc_json_is_array_index (m->name, m->name_len, NULL))
        n_index++;
    }

  g_string_append_c (out, '{');

  if (n_index == 0)
    {
      for (i = 0; i < n; i++)
        append_member (out, &v->u.members[i], i == 0);
    }
  else
    {
      /* §1.10 rule 2: array-index names ascending, then the rest in order */
      g_autofree IndexedMember *idx = g_new (IndexedMember, n_index);
      gsize j = 0;
      gboolean first = TRUE;

      for (i = 0; i < n; i++)
        {
          const AkcJsonMember *m = &v->u.members[i];
          guint32 index;

          if (akc_json_is_array_index (m->name, m->name_len, &index))
            {
              idx[j].index = index;
              idx[j].pos = (guint32) i;
              j++;
            }
        }
      qsort (idx, n_index, sizeof (IndexedMember), compare_indexed);

      for (j = 0; j < n_index; j++)
        {
          append_member (out, &v->u.members[idx[j].pos], first);
          first = FALSE;
        }
      for (i = 0; i < n; i++)
        {
          const AkcJsonMember *m = &v->u.members[i];

          if (akc_json_is_array_index (m->name, m->name_len, NULL))
            continue;
          append_member (out, m, first);
          first = FALSE;
        }
    }

  g_string_append_c (out, '}');
}

void
akc_json_append_value (GString            *out,
                       const AkcJsonValue *v)
{
  gsize i;

  switch ((AkcJsonKind) v->kind)
    {
    case AKC_JSON_KIND_NULL:
      g_string_append_len (out, "null", 4);
      break;
    case AKC_JSON_KIND_BOOLEAN:
      if (v->u.boolean)
        g_string_append_len (out, "true", 4);
      else
        g_string_append_len (out, "false", 5);
      break;
    case AKC_JSON_KIND_NUMBER:
      akc_json_append_number (out, v->u.number);
      break;
    case AKC_JSON_KIND_STRING:
      akc_json_append_string (out, v->u.str, v->len);
      break;
    case AKC_JSON_KIND_ARRAY:
      g_string_append_c (out, '[');
      for (i = 0; i < v->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          akc_json_append_value (out, v->u.elements[i]);
        }
      g_string_append_c (out, ']');
      break;
    case AKC_JSON_KIND_OBJECT:
      append_object (out, v);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------ */
/* Streaming writer                                                    */
/* ------------------------------------------------------------------ */

void
akc_json_writer_init (AkcJsonWriter *w,
                      GString       *out)
{
  w->out = out;
  w->start = out->len;
}

/* A value or member starts here: add a comma unless it is the first item
 * of its container, the value of a member, or the first thing written. */
static inline void
separate (AkcJsonWriter *w)
{
  char last;

  if (w->out->len == w->start)
    return;
  last = w->out->str[w->out->len - 1];
  if (last != '[' && last != '{' && last != ':')
    g_string_append_c (w->out, ',');
}

void
akc_json_writer_begin_object (AkcJsonWriter *w)
{
  separate (w);
  g_string_append_c (w->out, '{');
}

void
akc_json_writer_end_object (AkcJsonWriter *w)
{
  g_string_append_c (w->out, '}');
}

void
akc_json_writer_begin_array (AkcJsonWriter *w)
{
  separate (w);
  g_string_append_c (w->out, '[');
}

void
akc_json_writer_end_array (AkcJsonWriter *w)
{
  g_string_append_c (w->out, ']');
}

void
akc_json_writer_member_len (AkcJsonWriter *w,
                            const char    *name,
                            gsize          len)
{
  separate (w);
  akc_json_append_string (w->out, name, len);
  g_string_append_c (w->out, ':');
}

void
akc_json_writer_member (AkcJsonWriter *w,
                        const char    *name)
{
  akc_json_writer_member_len (w, name, strlen (name));
}

void
akc_json_writer_null (AkcJsonWriter *w)
{
  separate (w);
  g_string_append_len (w->out, "null", 4);
}

void
akc_json_writer_boolean (AkcJsonWriter *w,
                         gboolean       value)
{
  separate (w);
  if (value)
    g_string_append_len (w->out, "true", 4);
  else
    g_string_append_len (w->out, "false", 5);
}

void
akc_json_writer_number (AkcJsonWriter *w,
                        double         value)
{
  separate (w);
  akc_json_append_number (w->out, value);
}

void
akc_json_writer_int (AkcJsonWriter *w,
                     gint64         value)
{
  separate (w);
  g_string_append_printf (w->out, "%" G_GINT64_FORMAT, value);
}

void
akc_json_writer_string (AkcJsonWriter *w,
                        const char    *str,
                        gssize         len)
{
  separate (w);
  akc_json_append_string (w->out, str, len < 0 ? strlen (str) : (gsize) len);
}

void
akc_json_writer_value (AkcJsonWriter      *w,
                       const AkcJsonValue *value)
{
  separate (w);
  akc_json_append_value (w->out, value);
}

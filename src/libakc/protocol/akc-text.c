/* akc-text.c: text rules of the wire protocol
 *
 * SPDX-License-Identifier: MIT
 *
 * protocol §1.3 (len16), §1.4 (WS, trim), §1.5/§1.6 (patterns, DateTime,
 * SafeHref rules 1–4) and §8.1 (normalizeKnowledgeKey). The WHATWG part of
 * SafeHref (rule 5) lives in akc-url.c.
 *
 * Everything here runs on hot paths: every string field of every decoded
 * record is measured and most are pattern-checked, and an artifact index
 * normalises up to 16k aliases. So: ASCII fast paths, hand-written matchers
 * (no GRegex, whose `$` also matches before a final "\n", §1.5), and no
 * allocation in predicates.
 */

#include "config.h"

#include <string.h>

#include "akc-text-private.h"

/* ------------------------------------------------------------------------ */
/* §1.3 len16                                                                */

#define ASCII_MASK_64 G_GUINT64_CONSTANT (0x8080808080808080)

gsize
akc_text_len16 (const char *s,
                gsize       len)
{
  const guchar *p = (const guchar *) s;
  gsize n = 0;
  gsize i = 0;

  /* Eight ASCII bytes at a time. */
  while (i + 8 <= len)
    {
      guint64 w;

      memcpy (&w, p + i, sizeof w);
      if ((w & ASCII_MASK_64) != 0)
        break;
      n += 8;
      i += 8;
    }

  /* One unit per lead byte (every byte that is not 10xxxxxx), one more per
   * four-byte sequence (a code point above U+FFFF is a surrogate pair). */
  for (; i < len; i++)
    n += ((p[i] & 0xC0) != 0x80) + (p[i] >= 0xF0);

  return n;
}

/* ------------------------------------------------------------------------ */
/* §1.4 WS and trim                                                          */

gboolean
akc_text_is_ws (gunichar c)
{
  switch (c)
    {
    case 0x0009: case 0x000A: case 0x000B: case 0x000C: case 0x000D:
    case 0x0020:
    case 0x00A0:
    case 0x1680:
    case 0x2000: case 0x2001: case 0x2002: case 0x2003: case 0x2004:
    case 0x2005: case 0x2006: case 0x2007: case 0x2008: case 0x2009:
    case 0x200A:
    case 0x2028: case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF:
      return TRUE;
    default:
      /* Notably not U+0085 NEL nor U+180E MONGOLIAN VOWEL SEPARATOR. */
      return FALSE;
    }
}

static inline gboolean
is_ascii_ws (guchar c)
{
  return c == ' ' || (c >= 0x09 && c <= 0x0D);
}

gsize
akc_text_ws_prefix_len (const char *s,
                        gsize       len)
{
  const guchar *p = (const guchar *) s;
  gunichar c;

  if (len == 0)
    return 0;

  if (p[0] < 0x80)
    return is_ascii_ws (p[0]) ? 1 : 0;

  /* U+00A0 is the only two-byte member. */
  if (p[0] == 0xC2)
    return (len >= 2 && p[1] == 0xA0) ? 2 : 0;

  /* All others are three bytes, with lead byte E1, E2, E3 or EF. */
  if (len < 3 || (p[0] != 0xE1 && p[0] != 0xE2 && p[0] != 0xE3 && p[0] != 0xEF))
    return 0;

  c = ((gunichar) (p[0] & 0x0F) << 12) | ((gunichar) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
  return akc_text_is_ws (c) ? 3 : 0;
}

/* Byte length of the WS code point that ends at @s + @len (0 if none). */
static gsize
ws_suffix_len (const char *s,
               gsize       len)
{
  const guchar *p = (const guchar *) s;
  gsize start;

  if (len == 0)
    return 0;

  if (p[len - 1] < 0x80)
    return is_ascii_ws (p[len - 1]) ? 1 : 0;

  start = len - 1;
  while (start > 0 && (p[start] & 0xC0) == 0x80 && len - start < 4)
    start--;

  return akc_text_ws_prefix_len (s + start, len - start) == len - start ? len - start : 0;
}

const char *
akc_text_trim (const char *s,
               gsize       len,
               gsize      *out_len)
{
  gsize n;

  while ((n = akc_text_ws_prefix_len (s, len)) > 0)
    {
      s += n;
      len -= n;
    }

  while ((n = ws_suffix_len (s, len)) > 0)
    len -= n;

  if (out_len != NULL)
    *out_len = len;

  return s;
}

/* ------------------------------------------------------------------------ */
/* §1.6 patterns                                                             */

static inline gboolean
is_digit (guchar c)
{
  return c >= '0' && c <= '9';
}

static inline gboolean
is_upper (guchar c)
{
  return c >= 'A' && c <= 'Z';
}

static inline gboolean
is_lower (guchar c)
{
  return c >= 'a' && c <= 'z';
}

static inline gboolean
is_alnum (guchar c)
{
  return is_digit (c) || is_upper (c) || is_lower (c);
}

/* ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$ */
gboolean
akc_text_is_safe_id (const char *s,
                     gsize       len)
{
  const guchar *p = (const guchar *) s;

  if (len < 1 || len > 128 || !is_alnum (p[0]))
    return FALSE;

  for (gsize i = 1; i < len; i++)
    if (!is_alnum (p[i]) && p[i] != '.' && p[i] != '_' && p[i] != ':' && p[i] != '-')
      return FALSE;

  return TRUE;
}

/* ^[a-z][a-z0-9-]{0,63}$ (ComponentKey and EventName) */
gboolean
akc_text_is_component_key (const char *s,
                           gsize       len)
{
  const guchar *p = (const guchar *) s;

  if (len < 1 || len > 64 || !is_lower (p[0]))
    return FALSE;

  for (gsize i = 1; i < len; i++)
    if (!is_lower (p[i]) && !is_digit (p[i]) && p[i] != '-')
      return FALSE;

  return TRUE;
}

/* ^[A-Z][A-Z0-9_]*$ with an optional upper bound on the total length */
static gboolean
is_code (const char *s,
         gsize       len,
         gsize       max_len)
{
  const guchar *p = (const guchar *) s;

  if (len < 1 || len > max_len || !is_upper (p[0]))
    return FALSE;

  for (gsize i = 1; i < len; i++)
    if (!is_upper (p[i]) && !is_digit (p[i]) && p[i] != '_')
      return FALSE;

  return TRUE;
}

/* ^[A-Z][A-Z0-9_]*$ */
gboolean
akc_text_is_turn_code (const char *s,
                       gsize       len)
{
  return is_code (s, len, G_MAXSIZE);
}

/* ^[A-Z][A-Z0-9_]{0,127}$ */
gboolean
akc_text_is_ask_code (const char *s,
                      gsize       len)
{
  return is_code (s, len, 128);
}

/* ^sha256:[a-f0-9]{64}$ */
gboolean
akc_text_is_content_hash (const char *s,
                          gsize       len)
{
  const guchar *p = (const guchar *) s;

  if (len != 7 + 64 || memcmp (s, "sha256:", 7) != 0)
    return FALSE;

  for (gsize i = 7; i < len; i++)
    if (!is_digit (p[i]) && !(p[i] >= 'a' && p[i] <= 'f'))
      return FALSE;

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* §1.6 DateTime                                                             */

typedef struct
{
  int year;
  int month;
  int day;
  int hour;
  int minute;
  int second;
  int millisecond;     /* the first three fraction digits, zero-padded */
  int offset_minutes;  /* east of UTC */
} DateTimeParts;

/* Reads @n ASCII digits at @p[*i] into @out. */
static gboolean
read_digits (const guchar *p,
             gsize         len,
             gsize        *i,
             int           n,
             int          *out)
{
  int v = 0;

  if (len - *i < (gsize) n)
    return FALSE;

  for (int k = 0; k < n; k++)
    {
      if (!is_digit (p[*i + k]))
        return FALSE;
      v = v * 10 + (p[*i + k] - '0');
    }

  *i += n;
  *out = v;
  return TRUE;
}

static inline gboolean
read_char (const guchar *p,
           gsize         len,
           gsize        *i,
           guchar        c)
{
  if (*i >= len || p[*i] != c)
    return FALSE;
  (*i)++;
  return TRUE;
}

static inline gboolean
is_leap_year (int y)
{
  /* Proleptic Gregorian; year 0000 is a leap year. */
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static int
days_in_month (int y,
               int m)
{
  static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

  if (m == 2 && is_leap_year (y))
    return 29;
  return days[m - 1];
}

/* The §1.6 pattern, by hand:
 *   YYYY-MM-DD 'T' HH:MM [ :SS [ . digit+ ] ] ( 'Z' | [+-]HH:MM )
 */
static gboolean
parse_date_time (const char    *s,
                 gsize          len,
                 DateTimeParts *out)
{
  const guchar *p = (const guchar *) s;
  DateTimeParts dt = { 0, };
  gsize i = 0;

  if (!read_digits (p, len, &i, 4, &dt.year) ||
      !read_char (p, len, &i, '-') ||
      !read_digits (p, len, &i, 2, &dt.month) ||
      !read_char (p, len, &i, '-') ||
      !read_digits (p, len, &i, 2, &dt.day) ||
      !read_char (p, len, &i, 'T') ||
      !read_digits (p, len, &i, 2, &dt.hour) ||
      !read_char (p, len, &i, ':') ||
      !read_digits (p, len, &i, 2, &dt.minute))
    return FALSE;

  if (dt.month < 1 || dt.month > 12 ||
      dt.day < 1 || dt.day > days_in_month (dt.year, dt.month) ||
      dt.hour > 23 || dt.minute > 59)
    return FALSE;

  if (read_char (p, len, &i, ':'))
    {
      if (!read_digits (p, len, &i, 2, &dt.second) || dt.second > 59)
        return FALSE;

      if (read_char (p, len, &i, '.'))
        {
          gsize start = i;

          while (i < len && is_digit (p[i]))
            {
              if (i - start < 3)
                dt.millisecond = dt.millisecond * 10 + (p[i] - '0');
              i++;
            }

          if (i == start)
            return FALSE;

          for (gsize k = i - start; k < 3; k++)
            dt.millisecond *= 10;
        }
    }

  if (i < len && p[i] == 'Z')
    {
      i++;
    }
  else if (i < len && (p[i] == '+' || p[i] == '-'))
    {
      int sign = p[i] == '+' ? 1 : -1;
      int oh, om;

      i++;
      if (!read_digits (p, len, &i, 2, &oh) ||
          !read_char (p, len, &i, ':') ||
          !read_digits (p, len, &i, 2, &om) ||
          oh > 23 || om > 59)
        return FALSE;

      dt.offset_minutes = sign * (oh * 60 + om);
    }
  else
    {
      return FALSE;
    }

  if (i != len)
    return FALSE;

  if (out != NULL)
    *out = dt;

  return TRUE;
}

gboolean
akc_text_is_date_time (const char *s,
                       gsize       len)
{
  return parse_date_time (s, len, NULL);
}

/* Days since 1970-01-01 of a proleptic-Gregorian civil date
 * (H. Hinnant's days_from_civil). */
static gint64
days_from_civil (gint64 y,
                 int    m,
                 int    d)
{
  gint64 era, yoe, doy, doe;

  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = y - era * 400;
  doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

  return era * 146097 + doe - 719468;
}

char *
akc_text_format_unix_ms (gint64 ms)
{
  g_autoptr(GDateTime) dt = NULL;
  gint64 seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
  int millis = (int) (ms - seconds * 1000);
  g_autofree char *base = NULL;

  dt = g_date_time_new_from_unix_utc (seconds);
  if (dt == NULL)
    {
      dt = g_date_time_new_from_unix_utc (0);
      millis = 0;
    }
  base = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");

  return g_strdup_printf ("%s.%03dZ", base, millis);
}

gboolean
akc_text_date_time_to_unix_ms (const char *s,
                               gsize       len,
                               gint64     *out_ms)
{
  DateTimeParts dt;
  gint64 ms;

  if (!parse_date_time (s, len, &dt))
    return FALSE;

  ms = days_from_civil (dt.year, dt.month, dt.day) * G_GINT64_CONSTANT (86400000);
  ms += ((gint64) dt.hour * 3600 + dt.minute * 60 + dt.second) * 1000 + dt.millisecond;
  ms -= (gint64) dt.offset_minutes * 60000;

  if (out_ms != NULL)
    *out_ms = ms;

  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* §1.6 SafeHref                                                             */

gboolean
akc_text_is_safe_href (const char *s,
                       gsize       len)
{
  const guchar *p = (const guchar *) s;
  gsize len16;
  gsize i;

  /* Rule 1: len16 1..2048. */
  if (len == 0)
    return FALSE;
  len16 = akc_text_len16 (s, len);
  if (len16 < 1 || len16 > 2048)
    return FALSE;

  /* Rule 2: no C0 control, no DEL, no backslash. */
  for (i = 0; i < len; i++)
    if (p[i] < 0x20 || p[i] == 0x7F || p[i] == '\\')
      return FALSE;

  /* Rule 3: not protocol-relative. */
  if (len >= 2 && p[0] == '/' && p[1] == '/')
    return FALSE;

  /* Rule 4: without a scheme prefix ^[A-Za-z][A-Za-z0-9+.-]*: only a
   * root-relative path is accepted. */
  if (is_upper (p[0]) || is_lower (p[0]))
    {
      for (i = 1; i < len; i++)
        if (!is_alnum (p[i]) && p[i] != '+' && p[i] != '.' && p[i] != '-')
          break;

      if (i < len && p[i] == ':')
        return akc_url_is_safe_absolute_http (s, len);  /* rule 5 */
    }

  return p[0] == '/';
}

/* ------------------------------------------------------------------------ */
/* §8.1 normalizeKnowledgeKey                                                */

/* Other_Lowercase and Other_Uppercase (PropList.txt, Unicode 15.0): the
 * code points that are cased although their general category is not
 * Ll/Lu/Lt. Most of them have compatibility decompositions and never survive
 * step 1 (NFKC); the table is kept whole so the rule does not depend on it. */
static const gunichar other_cased[][2] = {
  { 0x00AA, 0x00AA }, { 0x00BA, 0x00BA }, { 0x02B0, 0x02B8 }, { 0x02C0, 0x02C1 },
  { 0x02E0, 0x02E4 }, { 0x0345, 0x0345 }, { 0x037A, 0x037A }, { 0x10FC, 0x10FC },
  { 0x1D2C, 0x1D6A }, { 0x1D78, 0x1D78 }, { 0x1D9B, 0x1DBF }, { 0x2071, 0x2071 },
  { 0x207F, 0x207F }, { 0x2090, 0x209C }, { 0x2160, 0x217F }, { 0x24B6, 0x24E9 },
  { 0x2C7C, 0x2C7D }, { 0xA69C, 0xA69D }, { 0xA770, 0xA770 }, { 0xA7F2, 0xA7F4 },
  { 0xA7F8, 0xA7F9 }, { 0xAB5C, 0xAB5F }, { 0xAB69, 0xAB69 }, { 0x10780, 0x10780 },
  { 0x10783, 0x10785 }, { 0x10787, 0x107B0 }, { 0x107B2, 0x107BA },
  { 0x1E030, 0x1E06D }, { 0x1F130, 0x1F149 }, { 0x1F150, 0x1F169 },
  { 0x1F170, 0x1F189 },
};

/* Unicode "Cased": Lowercase or Uppercase or Lt. */
static gboolean
is_cased (gunichar c)
{
  switch (g_unichar_type (c))
    {
    case G_UNICODE_LOWERCASE_LETTER:
    case G_UNICODE_UPPERCASE_LETTER:
    case G_UNICODE_TITLECASE_LETTER:
      return TRUE;
    default:
      break;
    }

  for (gsize k = 0; k < G_N_ELEMENTS (other_cased); k++)
    if (c >= other_cased[k][0] && c <= other_cased[k][1])
      return TRUE;

  return FALSE;
}

/* Unicode "Case_Ignorable": Word_Break MidLetter, MidNumLet or Single_Quote,
 * or general category Mn, Me, Cf, Lm, Sk. */
static gboolean
is_case_ignorable (gunichar c)
{
  switch (c)
    {
    case 0x0027:                                         /* Single_Quote */
    case 0x002E: case 0x2018: case 0x2019: case 0x2024:  /* MidNumLet */
    case 0xFE52: case 0xFF07: case 0xFF0E:
    case 0x003A: case 0x00B7: case 0x0387: case 0x055F:  /* MidLetter */
    case 0x05F4: case 0x2027: case 0xFE13: case 0xFE55:
    case 0xFF1A:
      return TRUE;
    default:
      break;
    }

  switch (g_unichar_type (c))
    {
    case G_UNICODE_NON_SPACING_MARK:
    case G_UNICODE_ENCLOSING_MARK:
    case G_UNICODE_FORMAT:
    case G_UNICODE_MODIFIER_LETTER:
    case G_UNICODE_MODIFIER_SYMBOL:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Final_Sigma (Unicode 15 §3.13, Table 3-17) for the U+03A3 at byte @pos of
 * @s: preceded by a cased letter (skipping case-ignorable code points) and
 * not followed by one. A code point that is both cased and case-ignorable
 * (e.g. U+0345) is skipped as case-ignorable, as ICU — the reference
 * runtime's library — and CPython do. */
static gboolean
is_final_sigma (const char *s,
                gsize       len,
                gsize       pos)
{
  const char *p;
  const char *end = s + len;
  gboolean before = FALSE;

  p = s + pos;
  while (p > s)
    {
      gunichar c;

      p = g_utf8_prev_char (p);
      c = g_utf8_get_char (p);
      if (is_case_ignorable (c))
        continue;
      before = is_cased (c);
      break;
    }

  if (!before)
    return FALSE;

  p = g_utf8_next_char (s + pos);
  while (p < end)
    {
      gunichar c = g_utf8_get_char (p);

      if (!is_case_ignorable (c))
        return !is_cased (c);
      p = g_utf8_next_char (p);
    }

  return TRUE;
}

/* Step 4: Unicode default full lower-casing, locale-independent.
 *
 * g_utf8_strdown() is not used: it consults the process-wide LC_CTYPE
 * (Turkish, Azeri and Lithuanian tailorings) and applies its own final-sigma
 * rule. The default full mapping is the simple mapping (g_unichar_tolower(),
 * which is table-driven and locale-free) except for the entries of
 * SpecialCasing.txt that change lower-casing without a language condition:
 * U+0130 → U+0069 U+0307, and U+03A3 under Final_Sigma. The other code points
 * with a lower-case mapping that g_unichar_tolower() ignores (Nl/So: U+2160…,
 * U+24B6…) are all compatibility-decomposed by step 1. */
static void
append_lowercase (GString    *out,
                  const char *s,
                  gsize       len)
{
  const char *p = s;
  const char *end = s + len;

  while (p < end)
    {
      if ((guchar) *p < 0x80)
        {
          g_string_append_c (out, g_ascii_tolower (*p));
          p++;
          continue;
        }
      else
        {
          gunichar c = g_utf8_get_char (p);

          if (c == 0x0130)
            g_string_append (out, "i\xCC\x87");
          else if (c == 0x03A3)
            g_string_append_unichar (out, is_final_sigma (s, len, p - s) ? 0x03C2 : 0x03C3);
          else
            g_string_append_unichar (out, g_unichar_tolower (c));

          p = g_utf8_next_char (p);
        }
    }
}

/* Steps 2 and 3 together: drop leading and trailing WS, replace each inner
 * run of WS by one U+0020. Appends to @out. */
static void
append_trimmed_collapsed (GString    *out,
                          const char *s,
                          gsize       len)
{
  gboolean pending_space = FALSE;
  gboolean any = FALSE;
  gsize i = 0;

  while (i < len)
    {
      gsize ws = akc_text_ws_prefix_len (s + i, len - i);
      gsize start;

      if (ws > 0)
        {
          pending_space = any;
          i += ws;
          continue;
        }

      if (pending_space)
        g_string_append_c (out, ' ');
      pending_space = FALSE;
      any = TRUE;

      /* Copy a run of non-WS code points at once. */
      start = i;
      do
        i += (guchar) s[i] < 0x80 ? 1 : (gsize) (g_utf8_next_char (s + i) - (s + i));
      while (i < len && akc_text_ws_prefix_len (s + i, len - i) == 0);
      g_string_append_len (out, s + start, i - start);
    }
}

/* Step 1. g_utf8_normalize() stops at U+0000, so normalise each NUL-free
 * segment separately (U+0000 is a starter that never composes, so this is
 * the NFKC of the whole text). */
static GString *
nfkc (const char *s,
      gsize       len)
{
  GString *out = g_string_sized_new (len + 16);
  const char *end = s + len;

  for (;;)
    {
      const char *nul = memchr (s, '\0', end - s);
      const char *seg_end = nul != NULL ? nul : end;
      g_autofree char *n = NULL;

      if (seg_end > s)
        {
          n = g_utf8_normalize (s, seg_end - s, G_NORMALIZE_NFKC);
          if (n != NULL)
            g_string_append (out, n);
          else  /* invalid UTF-8: outside the contract; keep the bytes */
            g_string_append_len (out, s, seg_end - s);
        }

      if (nul == NULL)
        break;

      g_string_append_c (out, '\0');
      s = nul + 1;
    }

  return out;
}

char *
akc_text_normalize_key (const char *s,
                        gsize       len,
                        gsize      *out_len)
{
  g_autoptr(GString) normalized = NULL;
  g_autoptr(GString) collapsed = NULL;
  GString *lowered;
  gboolean ascii = TRUE;

  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] >= 0x80)
      {
        ascii = FALSE;
        break;
      }

  if (ascii)
    {
      /* NFKC is the identity on ASCII and so are Final_Sigma and U+0130:
       * trim, collapse and lower-case in one pass. */
      char *out = g_malloc (len + 1);
      gboolean pending_space = FALSE;
      gsize n = 0;

      for (gsize i = 0; i < len; i++)
        {
          guchar c = (guchar) s[i];

          if (is_ascii_ws (c))
            {
              pending_space = n > 0;
              continue;
            }
          if (pending_space)
            out[n++] = ' ';
          pending_space = FALSE;
          out[n++] = g_ascii_tolower (c);
        }

      out[n] = '\0';
      if (out_len != NULL)
        *out_len = n;
      return out;
    }

  normalized = nfkc (s, len);

  collapsed = g_string_sized_new (normalized->len);
  append_trimmed_collapsed (collapsed, normalized->str, normalized->len);

  lowered = g_string_sized_new (collapsed->len + collapsed->len / 2 + 1);
  append_lowercase (lowered, collapsed->str, collapsed->len);

  if (out_len != NULL)
    *out_len = lowered->len;

  return g_string_free (lowered, FALSE);
}

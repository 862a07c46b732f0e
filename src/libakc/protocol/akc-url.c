/* akc-url.c: the WHATWG URL parser outcome for SafeHref rule 5
 *
 * SPDX-License-Identifier: MIT
 *
 * protocol §1.6 SafeHref rule 5 and §10 item 3. An absolute href is safe
 * iff the WHATWG URL Standard parser (no base URL) succeeds, the scheme is
 * http or https, and username and password are empty. GUri is an RFC 3986
 * parser and disagrees on exactly these inputs (`http:example.com`,
 * `https:///x`, `https://1.2.3.256/`, …), so this file reproduces the parts
 * of the WHATWG state machine that can fail for a special scheme, or that
 * decide the credentials:
 *
 *   scheme ':' → special authority (ignore) slashes → authority (credentials
 *   up to the LAST '@') → host (up to ':' outside brackets) → port → path,
 *   query and fragment (which can never fail).
 *
 * Callers have already applied rules 1–3, so the input holds no C0 control,
 * DEL or backslash; the parser's removal of tab/newline and of leading C0
 * controls is therefore moot, and only trailing U+0020 needs stripping.
 *
 * Host parsing follows the "host parser" of the URL Standard for special
 * schemes: IPv6 literal, or percent-decode → domain to ASCII → forbidden
 * domain code points → "ends in a number" → IPv4 parser. Domain to ASCII is
 * exact for ASCII hosts without an `xn--` label (the standard's fast path:
 * ASCII lower-casing). Full UTS #46 processing is out of scope; for the rest
 * this file approximates it with NFKC + simple lower-casing, the IDNA label
 * separator U+3002, removal of a few "ignored" code points, and rejection of
 * controls, separators, private-use, unassigned and replacement characters. Punycode
 * (`xn--`) labels are not decoded or validated, and the bidi / joiner / NFC
 * validity checks of UTS #46 are not applied.
 */

#include "config.h"

#include <string.h>

#include "akc-text-private.h"

static inline gboolean
is_digit (guchar c)
{
  return c >= '0' && c <= '9';
}

static inline int
hex_value (guchar c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* ------------------------------------------------------------------------ */
/* IPv6 parser (URL Standard §3.5 "IPv6 parser"); only success matters.      */

static gboolean
ipv6_is_valid (const guchar *p,
               gsize         len)
{
  gsize i = 0;
  int piece_index = 0;
  int compress = -1;

#define C() (i < len ? (int) p[i] : -1)

  if (C () == ':')
    {
      if (i + 1 >= len || p[i + 1] != ':')
        return FALSE;
      i += 2;
      piece_index++;
      compress = piece_index;
    }

  while (C () != -1)
    {
      int length = 0;

      if (piece_index == 8)
        return FALSE;

      if (C () == ':')
        {
          if (compress != -1)
            return FALSE;
          i++;
          piece_index++;
          compress = piece_index;
          continue;
        }

      while (length < 4 && C () != -1 && hex_value (p[i]) >= 0)
        {
          i++;
          length++;
        }

      if (C () == '.')
        {
          int numbers_seen = 0;

          if (length == 0)
            return FALSE;
          i -= length;

          if (piece_index > 6)
            return FALSE;

          while (C () != -1)
            {
              int ipv4_piece = -1;

              if (numbers_seen > 0)
                {
                  if (C () == '.' && numbers_seen < 4)
                    i++;
                  else
                    return FALSE;
                }

              if (C () == -1 || !is_digit (p[i]))
                return FALSE;

              while (C () != -1 && is_digit (p[i]))
                {
                  int number = p[i] - '0';

                  if (ipv4_piece == -1)
                    ipv4_piece = number;
                  else if (ipv4_piece == 0)
                    return FALSE;
                  else
                    ipv4_piece = ipv4_piece * 10 + number;

                  if (ipv4_piece > 255)
                    return FALSE;
                  i++;
                }

              numbers_seen++;
              if (numbers_seen == 2 || numbers_seen == 4)
                piece_index++;
            }

          if (numbers_seen != 4)
            return FALSE;

          break;
        }
      else if (C () == ':')
        {
          i++;
          if (C () == -1)
            return FALSE;
        }
      else if (C () != -1)
        {
          return FALSE;
        }

      piece_index++;
    }

#undef C

  /* With "::" the pieces are shifted into place; without it there must be
   * exactly eight. */
  return compress != -1 || piece_index == 8;
}

/* ------------------------------------------------------------------------ */
/* IPv4 (URL Standard §3.5 "IPv4 number parser", "ends in a number", "IPv4  */
/* parser").                                                                 */

#define IPV4_SATURATED G_GUINT64_CONSTANT (0x100000000)

/* Parses one dot-separated part: decimal, octal with a leading "0", or hex
 * with "0x"/"0X"; an empty remainder after the prefix is 0. Values above
 * 2^32 are saturated (they fail every later range check anyway). */
static gboolean
ipv4_number (const guchar *p,
             gsize         len,
             guint64      *out)
{
  guint64 v = 0;
  int radix = 10;

  if (len == 0)
    return FALSE;

  if (len >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      p += 2;
      len -= 2;
      radix = 16;
    }
  else if (len >= 2 && p[0] == '0')
    {
      p += 1;
      len -= 1;
      radix = 8;
    }

  for (gsize i = 0; i < len; i++)
    {
      int d = hex_value (p[i]);

      if (d < 0 || d >= radix)
        return FALSE;

      v = v * radix + d;
      if (v > IPV4_SATURATED)
        v = IPV4_SATURATED;
    }

  *out = v;
  return TRUE;
}

static gboolean
ends_in_a_number (const guchar *p,
                  gsize         len)
{
  const guchar *last;
  gsize last_len;
  guint64 v;
  gsize i;

  /* A single trailing empty label is ignored (but "" alone is not a number). */
  if (len > 0 && p[len - 1] == '.')
    len--;

  for (i = len; i > 0 && p[i - 1] != '.'; i--)
    ;
  last = p + i;
  last_len = len - i;

  if (last_len == 0)
    return FALSE;

  for (i = 0; i < last_len; i++)
    if (!is_digit (last[i]))
      break;
  if (i == last_len)
    return TRUE;

  return ipv4_number (last, last_len, &v);
}

/* The IPv4 parser; on success the address is stored in @out when non-NULL. */
static gboolean
ipv4_parse (const guchar *p,
            gsize         len,
            guint32      *out)
{
  guint64 numbers[4];
  guint64 address = 0;
  gsize n = 0;
  gsize start = 0;

  /* One trailing empty part is dropped (a validation error, not a failure). */
  if (len > 0 && p[len - 1] == '.')
    len--;

  for (gsize i = 0; i <= len; i++)
    {
      if (i < len && p[i] != '.')
        continue;

      if (n == 4)
        return FALSE;  /* more than four parts */
      if (!ipv4_number (p + start, i - start, &numbers[n]))
        return FALSE;
      n++;
      start = i + 1;
    }

  for (gsize k = 0; k + 1 < n; k++)
    if (numbers[k] > 255)
      return FALSE;

  /* The last part fills the remaining 5 − n bytes. */
  if (numbers[n - 1] >= (G_GUINT64_CONSTANT (1) << (8 * (5 - n))))
    return FALSE;

  for (gsize k = 0; k + 1 < n; k++)
    address |= numbers[k] << (8 * (3 - k));
  address += numbers[n - 1];

  if (out != NULL)
    *out = (guint32) address;
  return TRUE;
}

/* A valid IPv4 host as the URL serializer writes it, into @out (nullable). */
static gboolean
ipv4_host (const guchar *p,
           gsize         len,
           GString      *out)
{
  guint32 address;

  if (!ipv4_parse (p, len, &address))
    return FALSE;

  if (out != NULL)
    g_string_append_printf (out, "%u.%u.%u.%u",
                            address >> 24, (address >> 16) & 0xFF,
                            (address >> 8) & 0xFF, address & 0xFF);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Domains                                                                   */

/* Forbidden domain code point (ASCII part): the forbidden host code points
 * (NUL, TAB, LF, CR, space, # / : < > ? @ [ \ ] ^ |), every C0 control,
 * '%' and DEL. */
static inline gboolean
is_forbidden_domain_byte (guchar c)
{
  if (c <= 0x20 || c == 0x7F)
    return TRUE;

  switch (c)
    {
    case '#': case '%': case '/': case ':': case '<': case '>': case '?':
    case '@': case '[': case '\\': case ']': case '^': case '|':
      return TRUE;
    default:
      return FALSE;
    }
}

/* UTS #46 "ignored" code points (mapped to nothing), the common ones. */
static gboolean
is_idna_ignored (gunichar c)
{
  return c == 0x00AD || c == 0x034F || (c >= 0x180B && c <= 0x180D) || c == 0x180F ||
         c == 0x200B || c == 0x2060 || c == 0x2064 || (c >= 0xFE00 && c <= 0xFE0F) ||
         c == 0xFEFF || (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0xE0100 && c <= 0xE01EF);
}

/* Domain to ASCII for a domain with non-ASCII code points, approximated (see
 * the top of the file), followed by the forbidden-code-point and IPv4 steps
 * of the host parser. */
static gboolean
unicode_domain_is_valid (const guchar *p,
                         gsize         len,
                         GString      *out)
{
  g_autofree char *nfkc = NULL;
  g_autoptr(GString) mapped = NULL;

  /* UTF-8 decode without BOM: an invalid sequence becomes U+FFFD, which
   * UTS #46 disallows. */
  if (!g_utf8_validate_len ((const char *) p, len, NULL))
    return FALSE;

  nfkc = g_utf8_normalize ((const char *) p, len, G_NORMALIZE_NFKC);
  if (nfkc == NULL)
    return FALSE;

  mapped = g_string_sized_new (strlen (nfkc));
  for (const char *q = nfkc; *q != '\0'; q = g_utf8_next_char (q))
    {
      gunichar c = g_utf8_get_char (q);

      if (is_idna_ignored (c))
        continue;

      if (c < 0x80)
        {
          if (is_forbidden_domain_byte ((guchar) c))
            return FALSE;
          g_string_append_c (mapped, g_ascii_tolower ((char) c));
          continue;
        }

      switch (g_unichar_type (c))
        {
        case G_UNICODE_CONTROL:
        case G_UNICODE_PRIVATE_USE:
        case G_UNICODE_SURROGATE:
        case G_UNICODE_UNASSIGNED:
        case G_UNICODE_SPACE_SEPARATOR:      /* those NFKC keeps, e.g. U+1680 */
        case G_UNICODE_LINE_SEPARATOR:
        case G_UNICODE_PARAGRAPH_SEPARATOR:
          return FALSE;
        default:
          break;
        }

      if (c == 0xFFFD)
        return FALSE;

      if (c == 0x3002)  /* IDEOGRAPHIC FULL STOP is a label separator */
        c = '.';

      g_string_append_unichar (mapped, g_unichar_tolower (c));
    }

  if (mapped->len == 0)
    return FALSE;

  if (ends_in_a_number ((const guchar *) mapped->str, mapped->len))
    return ipv4_host ((const guchar *) mapped->str, mapped->len, out);

  if (out != NULL)
    {
      /* Domain to ASCII ends in Punycode: what the browser connects to,
       * and what shows a look-alike for what it is. */
      g_autofree char *ascii = g_hostname_to_ascii (mapped->str);

      g_string_append (out, ascii != NULL ? ascii : mapped->str);
    }
  return TRUE;
}

/* The host parser for a special scheme; @p is the non-empty host text. On
 * success the host is appended to @out (nullable): a domain percent-decoded
 * and lower-cased (non-ASCII ones mapped as approximated above, then
 * Punycode), an IPv4 address in dotted decimal, an IPv6 literal as written
 * (lower-cased, brackets kept; not compressed as the serializer would). */
static gboolean
host_is_valid (const guchar *p,
               gsize         len,
               GString      *out)
{
  guchar stack_buf[512];
  g_autofree guchar *heap_buf = NULL;
  guchar *d;
  gsize n = 0;
  gboolean ascii = TRUE;

  if (p[0] == '[')
    {
      if (len < 2 || p[len - 1] != ']' || !ipv6_is_valid (p + 1, len - 2))
        return FALSE;
      if (out != NULL)
        for (gsize i = 0; i < len; i++)
          g_string_append_c (out, g_ascii_tolower ((char) p[i]));
      return TRUE;
    }

  /* Percent-decode ("%XY" with two hex digits; any other '%' stays and is
   * then a forbidden domain code point). */
  d = len <= sizeof stack_buf ? stack_buf : (heap_buf = g_malloc (len));
  for (gsize i = 0; i < len; i++)
    {
      if (p[i] == '%' && i + 2 < len && hex_value (p[i + 1]) >= 0 && hex_value (p[i + 2]) >= 0)
        {
          d[n++] = (guchar) (hex_value (p[i + 1]) * 16 + hex_value (p[i + 2]));
          i += 2;
        }
      else
        {
          d[n++] = p[i];
        }
      ascii = ascii && d[n - 1] < 0x80;
    }

  if (!ascii)
    return unicode_domain_is_valid (d, n, out);

  /* The fast path of "domain to ASCII" is ASCII lower-casing, which cannot
   * change the answers below, so it is skipped. An ASCII domain with an
   * `xn--` label would go through UTS #46 (Punycode decoding and label
   * validation); that is not reproduced, such labels are taken as they are. */
  for (gsize i = 0; i < n; i++)
    if (is_forbidden_domain_byte (d[i]))
      return FALSE;

  if (ends_in_a_number (d, n))
    return ipv4_host (d, n, out);

  if (out != NULL)
    for (gsize i = 0; i < n; i++)
      g_string_append_c (out, g_ascii_tolower ((char) d[i]));
  return TRUE;
}

/* ------------------------------------------------------------------------ */

/* Rule 5, filling @parts (nullable) on success. */
static gboolean
safe_absolute_http (const char  *s,
                    gsize        len,
                    AkcUrlParts *parts)
{
  GString *host = parts != NULL ? g_string_new (NULL) : NULL;
  gboolean ok = FALSE;
  const guchar *p = (const guchar *) s;
  gsize colon, i, end, auth_end, host_start, host_end;
  const guchar *at;

  /* Scheme: everything before the first ':' (the caller checked the
   * ^[A-Za-z][A-Za-z0-9+.-]*: prefix). The parser lower-cases it. */
  for (colon = 0; colon < len && p[colon] != ':'; colon++)
    ;
  if (colon == len)
    goto out;
  if (!((colon == 4 && g_ascii_strncasecmp (s, "http", 4) == 0) ||
        (colon == 5 && g_ascii_strncasecmp (s, "https", 5) == 0)))
    goto out;

  /* Trailing C0 control or space is stripped before parsing; rule 2 leaves
   * only spaces. */
  end = len;
  while (end > colon + 1 && p[end - 1] == ' ')
    end--;

  /* Special authority slashes / ignore slashes: any number of '/' (and '\',
   * excluded by rule 2), including none: `http:example.com`, `https:///x`. */
  i = colon + 1;
  while (i < end && p[i] == '/')
    i++;

  /* Authority: up to the first '/', '?' or '#'. */
  for (auth_end = i; auth_end < end; auth_end++)
    if (p[auth_end] == '/' || p[auth_end] == '?' || p[auth_end] == '#')
      break;

  /* Credentials: everything before the LAST '@'. Each '@' after the first is
   * percent-encoded into the credentials, and every code point except the
   * first ':' ends up in the username or password, so both are empty iff
   * there is one '@' and the userinfo is "" or ":". Percent-encoding never
   * turns a non-empty credential into an empty one. */
  host_start = i;
  at = NULL;
  for (gsize k = auth_end; k > i; k--)
    if (p[k - 1] == '@')
      {
        at = p + k - 1;
        break;
      }
  if (at != NULL)
    {
      gsize userinfo_len = (gsize) (at - (p + i));

      if (!(userinfo_len == 0 || (userinfo_len == 1 && p[i] == ':')))
        goto out;
      host_start = (gsize) (at - p) + 1;
    }

  /* Host: up to a ':' outside "[…]". */
  {
    gboolean in_brackets = FALSE;

    for (host_end = host_start; host_end < auth_end; host_end++)
      {
        if (p[host_end] == ':' && !in_brackets)
          break;
        if (p[host_end] == '[')
          in_brackets = TRUE;
        else if (p[host_end] == ']')
          in_brackets = FALSE;
      }
  }

  if (host_end == host_start)
    goto out;  /* empty host (also "user@" with nothing after it) */

  if (!host_is_valid (p + host_start, host_end - host_start, host))
    goto out;

  /* Port: ASCII digits only, ≤ 65535, may be empty. */
  {
    gint port = -1;

    if (host_end + 1 < auth_end)
      {
        port = 0;
        for (i = host_end + 1; i < auth_end; i++)
          {
            if (!is_digit (p[i]))
              goto out;
            port = port * 10 + (p[i] - '0');
            if (port > 65535)
              goto out;
          }
      }

    /* Path, query and fragment never fail. */
    ok = TRUE;
    if (parts != NULL)
      {
        parts->https = colon == 5;
        parts->host = g_string_free (g_steal_pointer (&host), FALSE);
        parts->port = port;
        parts->path_start = auth_end;
      }
  }

out:
  if (host != NULL)
    g_string_free (host, TRUE);
  return ok;
}

gboolean
akc_url_is_safe_absolute_http (const char *s,
                               gsize       len)
{
  return safe_absolute_http (s, len, NULL);
}

gboolean
akc_url_split_safe_absolute_http (const char  *s,
                                  gsize        len,
                                  AkcUrlParts *parts)
{
  g_return_val_if_fail (parts != NULL, FALSE);

  return safe_absolute_http (s, len, parts);
}

void
akc_url_parts_clear (AkcUrlParts *parts)
{
  g_clear_pointer (&parts->host, g_free);
}

char *
akc_url_safe_absolute_http_host (const char *s,
                                 gsize       len)
{
  AkcUrlParts parts = { 0 };

  if (!safe_absolute_http (s, len, &parts))
    return NULL;

  return parts.host;
}

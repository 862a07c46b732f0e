/* test-json-scan.c: the vector string scanner and the strings it parses
 *
 * SPDX-License-Identifier: MIT
 *
 * Every implementation compiled into this build (portable everywhere,
 * SSE2 and AVX2 on x86-64, NEON on aarch64) is run on its own, and then
 * the strict parser is run with each of them in use: escapes, control
 * bytes and invalid UTF-8 at every position of a block, strings that end
 * at block boundaries, and the U+FFFD replacement rules of protocol.md
 * §1.2 (WHATWG: one U+FFFD per maximal subpart).
 */

#include "config.h"

#include <string.h>

#include "akc-json-private.h"
#include "akc-json-scan-private.h"

/* Bytes that end a plain run, and plain bytes next to them. */
static const guint8 stop_bytes[] = { '"', '\\', 0x00, 0x01, 0x0A, 0x1F, 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0xFF };
static const guint8 edge_plain[] = { 0x20, 0x21, 0x23, 0x2F, 0x5B, 0x5D, 0x7E, 0x7F };

static const char *
current_name (gconstpointer data)
{
  return data;
}

/* @n plain bytes cycling through every plain value (so each lane of a
 * block sees each of them), from @seed. */
static void
fill_plain (guint8 *buf,
            gsize   n,
            guint   seed)
{
  guint v = seed;

  for (gsize i = 0; i < n; i++)
    {
      guint8 c;

      do
        c = (guint8) (0x20 + (v++ % 0x60));
      while (c == '"' || c == '\\');
      buf[i] = c;
    }
}

static void
check_scan (AkcJsonScanFunc  scan,
            const guint8    *src,
            gsize            n,
            gsize            expected)
{
  g_autofree guint8 *dst = g_malloc (n + 1);
  gsize got = scan (src, n, dst);

  if (got != expected)
    g_error ("scan of %" G_GSIZE_FORMAT " bytes stopped at %" G_GSIZE_FORMAT ", expected %" G_GSIZE_FORMAT,
             n, got, expected);
  g_assert_true (memcmp (dst, src, got) == 0);
}

/* A stop byte at every position of runs of every length up to 80 bytes
 * (one to five SSE2 blocks, up to two and a half AVX2 ones), at every
 * alignment of the source; more stop bytes after it change nothing. */
static void
test_scan_positions (gconstpointer data)
{
  AkcJsonScanFunc scan = akc_json_scan_lookup (current_name (data));
  guint8 storage[80 + 64];

  if (scan == NULL)
    {
      g_test_skip ("this processor lacks the implementation");
      return;
    }

  for (gsize offset = 0; offset < 32; offset += 3)
    for (gsize n = 0; n <= 80; n++)
      {
        guint8 *src = storage + offset;

        fill_plain (src, n, (guint) (n + offset));
        check_scan (scan, src, n, n);

        for (gsize i = 0; i < n; i++)
          for (gsize b = 0; b < G_N_ELEMENTS (stop_bytes); b++)
            {
              fill_plain (src, n, (guint) (i + b));
              src[i] = stop_bytes[b];
              if (i + 2 < n)
                src[i + 2] = stop_bytes[(b + 1) % G_N_ELEMENTS (stop_bytes)];
              check_scan (scan, src, n, i);
            }

        for (gsize i = 0; i < n; i++)
          for (gsize b = 0; b < G_N_ELEMENTS (edge_plain); b++)
            {
              fill_plain (src, n, (guint) i);
              src[i] = edge_plain[b];
              check_scan (scan, src, n, n);
            }
      }
}

/* Long runs: the unrolled rounds (for SSE2: three blocks of 64 bytes
 * after the first block, then rounds of 1024 bytes from byte 208, then
 * blocks of 64; 64 for NEON; 512 for AVX2 from byte 224), a
 * stop byte at every position of runs that end on either side of their
 * edges, and every seventh one of a longer run. */
static void
test_scan_long (gconstpointer data)
{
  AkcJsonScanFunc scan = akc_json_scan_lookup (current_name (data));
  static const gsize lengths[] = { 207, 208, 209, 223, 224, 225, 255, 256, 257, 271, 272, 273, 511, 512, 513, 527, 528,
                                   529, 543, 544, 545, 719, 720, 721, 735, 736, 737, 1024, 1061,
                                   1231, 1232, 1233, 1247, 1248, 1249, 2255, 2256, 2257, 4096 };

  if (scan == NULL)
    {
      g_test_skip ("this processor lacks the implementation");
      return;
    }

  for (gsize l = 0; l < G_N_ELEMENTS (lengths); l++)
    {
      gsize n = lengths[l];
      g_autofree guint8 *src = g_malloc (n);

      fill_plain (src, n, (guint) n);
      check_scan (scan, src, n, n);

      for (gsize i = 0; i < n; i += n > 2300 ? 7 : 1)
        {
          guint8 b = stop_bytes[i % G_N_ELEMENTS (stop_bytes)];

          fill_plain (src, n, (guint) i);
          src[i] = b;
          check_scan (scan, src, n, i);
        }
    }
}

/* The parser, with the implementation of @data in use. */

static void
use_implementation (gconstpointer data)
{
  g_assert_true (akc_json_scan_set_implementation (current_name (data)));
  g_assert_cmpstr (akc_json_scan_get_implementation (), ==, current_name (data));
}

static gboolean
usable (gconstpointer data)
{
  if (akc_json_scan_lookup (current_name (data)) == NULL)
    {
      g_test_skip ("this processor lacks the implementation");
      return FALSE;
    }
  use_implementation (data);
  return TRUE;
}

/* Parses the JSON string text `"@body"` and checks its value. */
static void
assert_string (const char *body,
               gsize       body_len,
               const char *expected,
               gsize       expected_len)
{
  g_autoptr(GString) text = g_string_new ("\"");
  AkcJsonParseStatus status = AKC_JSON_PARSE_OK;
  AkcJsonValue *v;

  g_string_append_len (text, body, body_len);
  g_string_append_c (text, '"');
  v = akc_json_parse (text->str, text->len, NULL, &status, NULL);
  if (v == NULL)
    g_error ("rejected (status %d): %s", status, text->str);
  g_assert_true (AKC_JSON_IS_STRING (v));
  g_assert_cmpuint (AKC_JSON_STR_LEN (v), ==, expected_len);
  g_assert_true (memcmp (AKC_JSON_STR (v), expected, expected_len) == 0);
  g_assert_cmpint (AKC_JSON_STR (v)[expected_len], ==, '\0');
  akc_json_value_unref (v);
}

static void
assert_rejected (const char *text,
                 gsize       len,
                 gsize       offset)
{
  AkcJsonParseStatus status = AKC_JSON_PARSE_OK;
  gsize error_offset = 0;

  g_assert_null (akc_json_parse (text, len, NULL, &status, &error_offset));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_SYNTAX);
  g_assert_cmpuint (error_offset, ==, offset);
}

static const struct {
  const char *escape;
  const char *value;
} escapes[] = {
  { "\\n", "\n" }, { "\\\"", "\"" }, { "\\\\", "\\" }, { "\\/", "/" },
  { "\\b", "\b" }, { "\\f", "\f" }, { "\\r", "\r" }, { "\\t", "\t" },
  { "\\u00e9", "\xC3\xA9" }, { "\\u20AC", "\xE2\x82\xAC" }, { "\\ud83d\\ude00", "\xF0\x9F\x98\x80" },
  { "\\u0000", "" /* U+0000, one byte */ },
};

/* An escape at every position of strings up to 70 bytes long, alone and
 * followed by a second one. */
static void
test_parse_escapes (gconstpointer data)
{
  if (!usable (data))
    return;

  for (gsize n = 0; n <= 70; n++)
    for (gsize i = 0; i <= n; i++)
      for (gsize e = 0; e < G_N_ELEMENTS (escapes); e++)
        {
          g_autofree guint8 *plain = g_malloc (n + 1);
          g_autoptr(GString) body = g_string_new (NULL);
          g_autoptr(GString) expected = g_string_new (NULL);
          gsize value_len = escapes[e].value[0] == '\0' ? 1 : strlen (escapes[e].value);

          fill_plain (plain, n, (guint) (i + e));
          g_string_append_len (body, (char *) plain, i);
          g_string_append (body, escapes[e].escape);
          g_string_append_len (body, (char *) plain + i, n - i);
          g_string_append_len (expected, (char *) plain, i);
          g_string_append_len (expected, escapes[e].value, value_len);
          g_string_append_len (expected, (char *) plain + i, n - i);
          if (n % 3 == 0)
            {
              g_string_append (body, escapes[(e + 1) % G_N_ELEMENTS (escapes)].escape);
              g_string_append_len (expected, escapes[(e + 1) % G_N_ELEMENTS (escapes)].value,
                                   escapes[(e + 1) % G_N_ELEMENTS (escapes)].value[0] == '\0'
                                   ? 1 : strlen (escapes[(e + 1) % G_N_ELEMENTS (escapes)].value));
            }
          assert_string (body->str, body->len, expected->str, expected->len);
        }
}

/* A raw control byte at any position is rejected, at its offset; so is a
 * string cut short at any position, or in the middle of an escape. */
static void
test_parse_controls (gconstpointer data)
{
  if (!usable (data))
    return;

  for (gsize n = 1; n <= 70; n++)
    for (gsize i = 0; i < n; i++)
      {
        g_autofree guint8 *text = g_malloc (n + 2);

        text[0] = '"';
        fill_plain (text + 1, n, (guint) i);
        text[n + 1] = '"';
        text[1 + i] = (guint8) (i % 0x20);
        assert_rejected ((char *) text, n + 2, 1 + i);

        /* Unterminated: the error is at the end of the text. */
        fill_plain (text + 1, n, (guint) i);
        assert_rejected ((char *) text, 1 + i, 1 + i);
      }

  assert_rejected ("\"abc\\", 5, 5);
  assert_rejected ("\"abc\\q\"", 7, 6);
  assert_rejected ("\"abc\\u12\"", 9, 6);
}

/* Strings that end exactly at, just before and just after block and
 * round boundaries, plain and with non-ASCII text. */
static void
test_parse_boundaries (gconstpointer data)
{
  static const gsize lengths[] = { 0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65,
                                   255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 8191, 8192, 70000 };

  if (!usable (data))
    return;

  for (gsize l = 0; l < G_N_ELEMENTS (lengths); l++)
    {
      gsize n = lengths[l];
      g_autofree guint8 *body = g_malloc (n + 1);

      fill_plain (body, n, (guint) n);
      assert_string ((char *) body, n, (char *) body, n);

      /* A two-byte character ending the string, and one across the end of
       * the first block. */
      if (n >= 2)
        {
          body[n - 2] = 0xC3;
          body[n - 1] = 0xA9;
          assert_string ((char *) body, n, (char *) body, n);
        }
      if (n >= 18)
        {
          fill_plain (body, n, (guint) n);
          body[15] = 0xE2;
          body[16] = 0x82;
          body[17] = 0xAC;
          assert_string ((char *) body, n, (char *) body, n);
        }
    }

  /* Many strings in one text, each ending at another offset. */
  {
    g_autoptr(GString) text = g_string_new ("[");
    AkcJsonValue *v;

    for (guint i = 0; i < 100; i++)
      {
        guint8 body[100];

        fill_plain (body, i, i);
        g_string_append_printf (text, "%s\"", i > 0 ? "," : "");
        g_string_append_len (text, (char *) body, i);
        g_string_append_c (text, '"');
      }
    g_string_append_c (text, ']');
    v = akc_json_parse (text->str, text->len, NULL, NULL, NULL);
    g_assert_nonnull (v);
    g_assert_cmpuint (AKC_JSON_LEN (v), ==, 100);
    for (guint i = 0; i < 100; i++)
      g_assert_cmpuint (AKC_JSON_STR_LEN (AKC_JSON_ELEMENT (v, i)), ==, i);
    akc_json_value_unref (v);
  }
}

/* Invalid UTF-8 at every position of a block: each maximal subpart of an
 * ill-formed sequence becomes one U+FFFD (protocol.md §1.2, WHATWG), and
 * the text after it is kept. */
static const struct {
  const char *bytes;
  const char *value;
} utf8_cases[] = {
  { "\x80", "\xEF\xBF\xBD" },                                      /* lone continuation */
  { "\xBF\x80", "\xEF\xBF\xBD\xEF\xBF\xBD" },
  { "\xC3", "\xEF\xBF\xBD" },                                      /* truncated 2-byte */
  { "\xE2\x82", "\xEF\xBF\xBD" },                                  /* truncated 3-byte: one */
  { "\xF0\x9F\x98", "\xEF\xBF\xBD" },                              /* truncated 4-byte: one */
  { "\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD" },                      /* overlong */
  { "\xE0\x80\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },      /* overlong 3-byte */
  { "\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },      /* UTF-16 surrogate */
  { "\xF4\x90\x80\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" }, /* > U+10FFFF */
  { "\xF5", "\xEF\xBF\xBD" },
  { "\xFF", "\xEF\xBF\xBD" },
  { "\xC3\xA9", "\xC3\xA9" },                                      /* valid: kept */
  { "\xE2\x82\xAC", "\xE2\x82\xAC" },
  { "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80" },
  { "\xEF\xBF\xBD", "\xEF\xBF\xBD" },
};

static void
test_parse_utf8 (gconstpointer data)
{
  if (!usable (data))
    return;

  for (gsize n = 0; n <= 40; n++)
    for (gsize i = 0; i <= n; i++)
      for (gsize c = 0; c < G_N_ELEMENTS (utf8_cases); c++)
        {
          g_autofree guint8 *plain = g_malloc (n + 1);
          g_autoptr(GString) body = g_string_new (NULL);
          g_autoptr(GString) expected = g_string_new (NULL);

          fill_plain (plain, n, (guint) (i * 7 + c));
          g_string_append_len (body, (char *) plain, i);
          g_string_append (body, utf8_cases[c].bytes);
          g_string_append_len (body, (char *) plain + i, n - i);
          g_string_append_len (expected, (char *) plain, i);
          g_string_append (expected, utf8_cases[c].value);
          g_string_append_len (expected, (char *) plain + i, n - i);
          assert_string (body->str, body->len, expected->str, expected->len);

          /* Followed by an escape instead of plain text. */
          g_string_truncate (body, 0);
          g_string_truncate (expected, 0);
          g_string_append_len (body, (char *) plain, i);
          g_string_append (body, utf8_cases[c].bytes);
          g_string_append (body, "\\n");
          g_string_append_len (expected, (char *) plain, i);
          g_string_append (expected, utf8_cases[c].value);
          g_string_append_c (expected, '\n');
          assert_string (body->str, body->len, expected->str, expected->len);
        }
}

/* Resuming a string from a known decoded prefix gives what a full parse
 * gives, wherever the known prefix ends between two characters. */
static void
test_parse_resume (gconstpointer data)
{
  static const char body[] =
    "Caf\xC3\xA9 \\\"au lait\\\" \xE2\x80\x94 line\\none\\u00e9 and \\ud83d\\ude00 then \x80 bad, "
    "and more plain text to cross a block or two of the scanner.";
  g_autoptr(GString) text = g_string_new ("{\"id\":\"x\",\"content\":\"");
  gsize start = text->len;
  AkcJsonValue *full;

  if (!usable (data))
    return;

  g_string_append (text, body);
  g_string_append (text, "\",\"n\":1}");
  full = akc_json_parse (text->str, text->len, NULL, NULL, NULL);
  g_assert_nonnull (full);

  for (gsize cut = 0; cut <= strlen (body); cut++)
    {
      g_autofree char *prefix_text = NULL;
      AkcJsonValue *prefix, *resumed;
      AkcJsonResume resume;
      AkcJsonValue *s;

      /* Where a string parsed before ended: the prefix as a whole string. */
      prefix_text = g_strdup_printf ("\"%.*s\"", (int) cut, body);
      prefix = akc_json_parse (prefix_text, strlen (prefix_text), NULL, NULL, NULL);
      if (prefix == NULL)
        continue;  /* the cut splits an escape */
      if (AKC_JSON_STR_LEN (prefix) >= 3 &&
          memcmp (AKC_JSON_STR (prefix) + AKC_JSON_STR_LEN (prefix) - 3, "\xEF\xBF\xBD", 3) == 0)
        {
          /* A replacement that the closing quote decided: not resumable. */
          akc_json_value_unref (prefix);
          continue;
        }

      resume.offset = start;
      resume.raw_len = cut;
      resume.decoded = AKC_JSON_STR (prefix);
      resume.decoded_len = AKC_JSON_STR_LEN (prefix);
      resumed = akc_json_parse_resume (text->str, text->len, NULL, &resume, NULL, NULL, NULL);
      g_assert_nonnull (resumed);
      g_assert_true (akc_json_value_equal (resumed, full));
      s = akc_json_value_get_member (resumed, "content");
      g_assert_nonnull (s);
      akc_json_value_unref (resumed);
      akc_json_value_unref (prefix);
    }

  akc_json_value_unref (full);
}

static void
test_selection (void)
{
  const char * const *names = akc_json_scan_list ();
  const char *in_use = akc_json_scan_get_implementation ();
  gboolean found = FALSE;

  g_test_message ("scanner in use: %s", in_use);
  for (guint i = 0; names[i] != NULL; i++)
    found |= g_str_equal (names[i], in_use);
  g_assert_true (found);
  g_assert_nonnull (akc_json_scan_lookup ("portable"));
  g_assert_null (akc_json_scan_lookup ("no-such-scanner"));
  g_assert_false (akc_json_scan_set_implementation ("no-such-scanner"));
  g_assert_cmpstr (akc_json_scan_get_implementation (), ==, in_use);
#if defined(__x86_64__)
  g_assert_nonnull (akc_json_scan_lookup ("sse2"));
#endif
#if defined(__aarch64__)
  g_assert_nonnull (akc_json_scan_lookup ("neon"));
#endif
}

int
main (int   argc,
      char *argv[])
{
  const char * const *names;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/scan/selection", test_selection);

  names = akc_json_scan_list ();
  for (guint i = 0; names[i] != NULL; i++)
    {
      static const struct {
        const char *name;
        GTestDataFunc func;
      } cases[] = {
        { "scan/positions", test_scan_positions },
        { "scan/long", test_scan_long },
        { "parse/escapes", test_parse_escapes },
        { "parse/controls", test_parse_controls },
        { "parse/boundaries", test_parse_boundaries },
        { "parse/utf8", test_parse_utf8 },
        { "parse/resume", test_parse_resume },
      };

      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autofree char *path = g_strdup_printf ("/json/%s/%s", names[i], cases[c].name);

          g_test_add_data_func (path, names[i], cases[c].func);
        }
    }

  return g_test_run ();
}

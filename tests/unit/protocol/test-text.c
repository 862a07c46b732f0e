/* test-text.c: the text rules of the wire protocol (protocol.md §1.3–§1.6, §8.1)
 *
 * SPDX-License-Identifier: MIT
 *
 * The isSafeHref and normalizeKnowledgeKey vectors of
 * $AKC_FIXTURES_DIR/protocol/deterministic.json are registered as one test
 * case each; everything else is covered by the tables below.
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "akc.h"
#include "akc-text-private.h"

#define STR_LEN(s) (s), (sizeof (s) - 1)

/* ------------------------------------------------------------------------ */
/* Fixture vectors                                                           */

typedef struct
{
  char     *name;
  char     *op;
  GString  *input;
  gboolean  expect_bool;
  GString  *expect_str;
} FixtureCase;

static void
fixture_case_free (gpointer data)
{
  FixtureCase *fc = data;

  g_free (fc->name);
  g_free (fc->op);
  g_string_free (fc->input, TRUE);
  if (fc->expect_str != NULL)
    g_string_free (fc->expect_str, TRUE);
  g_free (fc);
}

/* Expands the string-yielding generators of fixtures/protocol/README.md §2
 * ($repeat, $concat). json-glib stops strings at U+0000; none of the inputs
 * of these two ops contains one (checked in load_fixture_cases()). */
static gboolean
expand_string (JsonNode *node,
               GString  *out)
{
  JsonObject *obj;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_string_append (out, json_node_get_string (node));
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  obj = json_node_get_object (node);

  if (json_object_has_member (obj, "$repeat"))
    {
      g_autoptr(GString) unit = g_string_new (NULL);
      gint64 count = json_object_get_int_member (obj, "count");

      if (!expand_string (json_object_get_member (obj, "$repeat"), unit))
        return FALSE;
      for (gint64 k = 0; k < count; k++)
        g_string_append_len (out, unit->str, unit->len);
      return TRUE;
    }

  if (json_object_has_member (obj, "$concat"))
    {
      JsonArray *parts = json_object_get_array_member (obj, "$concat");

      for (guint k = 0; k < json_array_get_length (parts); k++)
        if (!expand_string (json_array_get_element (parts, k), out))
          return FALSE;
      return TRUE;
    }

  return FALSE;
}

static void
test_fixture_case (gconstpointer data)
{
  const FixtureCase *fc = data;

  if (g_str_equal (fc->op, "isSafeHref"))
    {
      g_assert_cmpint (akc_text_is_safe_href (fc->input->str, fc->input->len), ==, fc->expect_bool);
      g_assert_cmpint (akc_is_safe_href (fc->input->str), ==, fc->expect_bool);
    }
  else
    {
      g_autofree char *got = NULL;
      g_autofree char *pub = NULL;
      gsize got_len = 0;

      got = akc_text_normalize_key (fc->input->str, fc->input->len, &got_len);
      g_assert_cmpmem (got, got_len, fc->expect_str->str, fc->expect_str->len);

      pub = akc_normalize_knowledge_key (fc->input->str);
      g_assert_cmpstr (pub, ==, fc->expect_str->str);
    }
}

/* Test paths are split at '/', so escape it (and '%') in case names. */
static char *
escape_test_name (const char *name)
{
  GString *s = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '/')
        g_string_append (s, "%2F");
      else if (*p == '%')
        g_string_append (s, "%25");
      else
        g_string_append_c (s, *p);
    }

  return g_string_free (s, FALSE);
}

static GPtrArray *
load_fixture_cases (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *path = NULL;
  g_autofree char *raw = NULL;
  GPtrArray *cases = g_ptr_array_new_with_free_func (fixture_case_free);
  const char *dir = g_getenv ("AKC_FIXTURES_DIR");
  JsonArray *array;
  guint n_href = 0, n_norm = 0;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, "protocol", "deterministic.json", NULL);

  g_file_get_contents (path, &raw, NULL, &error);
  g_assert_no_error (error);
  /* json-glib truncates strings at U+0000; make sure that cannot bite. */
  g_assert_null (strstr (raw, "\\u0000"));

  json_parser_load_from_data (parser, raw, -1, &error);
  g_assert_no_error (error);

  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *obj = json_array_get_object_element (array, i);
      const char *op = json_object_get_string_member (obj, "op");
      JsonObject *expect = json_object_get_object_member (obj, "expect");
      FixtureCase *fc;

      if (!g_str_equal (op, "isSafeHref") && !g_str_equal (op, "normalizeKnowledgeKey"))
        continue;

      fc = g_new0 (FixtureCase, 1);
      fc->name = g_strdup (json_object_get_string_member (obj, "name"));
      fc->op = g_strdup (op);
      fc->input = g_string_new (NULL);
      g_assert_true (expand_string (json_object_get_member (obj, "input"), fc->input));

      if (g_str_equal (op, "isSafeHref"))
        {
          fc->expect_bool = json_object_get_boolean_member (expect, "result");
          n_href++;
        }
      else
        {
          fc->expect_str = g_string_new (NULL);
          g_assert_true (expand_string (json_object_get_member (expect, "result"), fc->expect_str));
          n_norm++;
        }

      g_ptr_array_add (cases, fc);
    }

  /* The counts of fixtures/protocol/README.md; a change there must be seen. */
  g_assert_cmpuint (n_href, ==, 28);
  g_assert_cmpuint (n_norm, ==, 14);

  return cases;
}

/* ------------------------------------------------------------------------ */
/* §1.3 len16                                                                */

static void
test_len16 (void)
{
  static const struct { const char *s; gsize len; gsize len16; } cases[] = {
    { STR_LEN (""), 0 },
    { STR_LEN ("abc"), 3 },
    { STR_LEN ("\xC3\xA9"), 1 },                  /* é */
    { STR_LEN ("\xE2\x82\xAC"), 1 },              /* € */
    { STR_LEN ("\xF0\x9F\x98\x80"), 2 },          /* 😀 */
    { STR_LEN ("\xF4\x8F\xBF\xBF"), 2 },          /* U+10FFFF */
    { STR_LEN ("a\0b"), 3 },                      /* embedded U+0000 */
    { STR_LEN ("\0\0\0\0\0\0\0\0\0"), 9 },
    { STR_LEN ("0123456789abcdef\xF0\x9F\x98\x80xyz"), 21 },  /* past the 8-byte path */
    { STR_LEN ("abcdefg\xC3\xA9" "abcdefgh\xF0\x90\x80\x80"), 18 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpuint (akc_text_len16 (cases[i].s, cases[i].len), ==, cases[i].len16);
}

/* len16 agrees with a UTF-16 conversion on text with every sequence length. */
static void
test_len16_vs_utf16 (void)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (gunichar c = 1; c < 0x110000; c += 97)
    {
      g_autofree gunichar2 *u16 = NULL;
      glong n16 = 0;

      if (c >= 0xD800 && c < 0xE000)
        continue;
      g_string_append_unichar (s, c);
      u16 = g_utf8_to_utf16 (s->str, s->len, NULL, &n16, NULL);
      g_assert_nonnull (u16);
      g_assert_cmpuint (akc_text_len16 (s->str, s->len), ==, (gsize) n16);
    }
}

/* ------------------------------------------------------------------------ */
/* §1.4 WS and trim                                                          */

static const gunichar ws_set[] = {
  0x0009, 0x000A, 0x000B, 0x000C, 0x000D, 0x0020, 0x00A0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
  0xFEFF,
};

static gboolean
in_ws_set (gunichar c)
{
  for (gsize k = 0; k < G_N_ELEMENTS (ws_set); k++)
    if (ws_set[k] == c)
      return TRUE;
  return FALSE;
}

static void
test_ws_set (void)
{
  guint count = 0;

  /* Every code point: the predicate is the set, and the byte-level prefix
   * matcher agrees with it. */
  for (gunichar c = 0; c < 0x110000; c++)
    {
      char buf[8];
      gint n;

      if (c >= 0xD800 && c < 0xE000)
        continue;

      g_assert_cmpint (akc_text_is_ws (c), ==, in_ws_set (c));
      count += akc_text_is_ws (c);

      n = g_unichar_to_utf8 (c, buf);
      g_assert_cmpuint (akc_text_ws_prefix_len (buf, n), ==, in_ws_set (c) ? (gsize) n : 0);
    }
  g_assert_cmpuint (count, ==, 25);

  g_assert_false (akc_text_is_ws (0x0085));  /* NEL */
  g_assert_false (akc_text_is_ws (0x180E));  /* MONGOLIAN VOWEL SEPARATOR */
  g_assert_false (akc_text_is_ws (0x200B));  /* ZERO WIDTH SPACE */
  g_assert_false (akc_text_is_ws (0x0000));

  /* Where g_unichar_isspace() differs. */
  g_assert_true (akc_text_is_ws (0x000B) && !g_unichar_isspace (0x000B));
  g_assert_true (akc_text_is_ws (0xFEFF) && !g_unichar_isspace (0xFEFF));

  /* Truncated sequences are not WS. */
  g_assert_cmpuint (akc_text_ws_prefix_len ("\xE3\x80", 2), ==, 0);
  g_assert_cmpuint (akc_text_ws_prefix_len ("\xC2", 1), ==, 0);
  g_assert_cmpuint (akc_text_ws_prefix_len ("", 0), ==, 0);
}

static void
test_trim (void)
{
  static const struct { const char *in; gsize in_len; const char *out; gsize out_len; } cases[] = {
    { STR_LEN (""), STR_LEN ("") },
    { STR_LEN ("a"), STR_LEN ("a") },
    { STR_LEN ("  a b  "), STR_LEN ("a b") },
    { STR_LEN (" \t\n\v\f\r"), STR_LEN ("") },
    { STR_LEN ("\xEF\xBB\xBFx\xE3\x80\x80"), STR_LEN ("x") },               /* U+FEFF x U+3000 */
    { STR_LEN ("\xC2\xA0\xE1\x9A\x80x\xE2\x80\xA8\xE2\x80\xA9"), STR_LEN ("x") },
    { STR_LEN ("\xC2\x85x\xC2\x85"), STR_LEN ("\xC2\x85x\xC2\x85") },       /* U+0085 stays */
    { STR_LEN ("\xE1\xA0\x8Ex\xE1\xA0\x8E"), STR_LEN ("\xE1\xA0\x8Ex\xE1\xA0\x8E") },  /* U+180E */
    { STR_LEN (" \0 "), STR_LEN ("\0") },                                  /* U+0000 is not WS */
    { STR_LEN ("\xF0\x9F\x98\x80 "), STR_LEN ("\xF0\x9F\x98\x80") },
    { STR_LEN (" \xE2\x80\x8A"), STR_LEN ("") },                           /* U+200A */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize out_len = 12345;
      const char *out = akc_text_trim (cases[i].in, cases[i].in_len, &out_len);

      g_assert_true (out >= cases[i].in && out + out_len <= cases[i].in + cases[i].in_len);
      g_assert_cmpmem (out, out_len, cases[i].out, cases[i].out_len);
    }
}

/* ------------------------------------------------------------------------ */
/* §1.6 patterns                                                             */

typedef gboolean (*Predicate) (const char *s, gsize len);

typedef struct
{
  const char *s;
  gsize       len;
  gboolean    ok;
} PatternCase;

static void
check_pattern (Predicate          pred,
               const PatternCase *cases,
               gsize              n)
{
  for (gsize i = 0; i < n; i++)
    {
      if (pred (cases[i].s, cases[i].len) != cases[i].ok)
        g_error ("case %" G_GSIZE_FORMAT " (\"%s\"): expected %d", i, cases[i].s, cases[i].ok);
    }
}

static void
check_length_edge (Predicate   pred,
                   char        first,
                   char        fill,
                   gsize       max_ok)
{
  g_autofree char *s = g_malloc (max_ok + 2);

  memset (s, fill, max_ok + 1);
  s[0] = first;
  s[max_ok + 1] = '\0';
  g_assert_true (pred (s, max_ok));
  g_assert_false (pred (s, max_ok + 1));
}

static void
test_safe_id (void)
{
  static const PatternCase cases[] = {
    { STR_LEN ("a"), TRUE },
    { STR_LEN ("Z"), TRUE },
    { STR_LEN ("0"), TRUE },
    { STR_LEN ("a.b_c:d-e"), TRUE },
    { STR_LEN ("evt-1:part.2_x"), TRUE },
    { STR_LEN (""), FALSE },
    { STR_LEN (".a"), FALSE },
    { STR_LEN ("-a"), FALSE },
    { STR_LEN ("_a"), FALSE },
    { STR_LEN (":a"), FALSE },
    { STR_LEN ("event\n"), FALSE },  /* `$` is end-only (§1.5) */
    { STR_LEN ("\nevent"), FALSE },
    { STR_LEN ("a b"), FALSE },
    { STR_LEN ("a/b"), FALSE },
    { STR_LEN ("a\0"), FALSE },
    { STR_LEN ("caf\xC3\xA9"), FALSE },  /* ASCII classes only */
    { STR_LEN ("\xEF\xBC\xA1"), FALSE }, /* full-width A */
  };

  check_pattern (akc_text_is_safe_id, cases, G_N_ELEMENTS (cases));
  check_length_edge (akc_text_is_safe_id, 'a', '.', 128);
}

static void
test_component_key (void)
{
  static const PatternCase cases[] = {
    { STR_LEN ("a"), TRUE },
    { STR_LEN ("select"), TRUE },
    { STR_LEN ("a-1-"), TRUE },
    { STR_LEN (""), FALSE },
    { STR_LEN ("A"), FALSE },
    { STR_LEN ("aB"), FALSE },
    { STR_LEN ("1a"), FALSE },
    { STR_LEN ("-a"), FALSE },
    { STR_LEN ("a_b"), FALSE },
    { STR_LEN ("a.b"), FALSE },
    { STR_LEN ("event\n"), FALSE },
    { STR_LEN ("a\0"), FALSE },
  };

  check_pattern (akc_text_is_component_key, cases, G_N_ELEMENTS (cases));
  check_length_edge (akc_text_is_component_key, 'a', '-', 64);
}

static void
test_codes (void)
{
  static const PatternCase turn[] = {
    { STR_LEN ("A"), TRUE },
    { STR_LEN ("PROTOCOL_INVALID_PAYLOAD"), TRUE },
    { STR_LEN ("A1_"), TRUE },
    { STR_LEN (""), FALSE },
    { STR_LEN ("a"), FALSE },
    { STR_LEN ("_A"), FALSE },
    { STR_LEN ("1A"), FALSE },
    { STR_LEN ("A-B"), FALSE },
    { STR_LEN ("Ab"), FALSE },
    { STR_LEN ("CODE\n"), FALSE },
  };
  g_autofree char *long_code = g_malloc (10001);

  check_pattern (akc_text_is_turn_code, turn, G_N_ELEMENTS (turn));
  check_pattern (akc_text_is_ask_code, turn, G_N_ELEMENTS (turn));

  /* TurnCode has no upper bound, AskCode stops at 128. */
  memset (long_code, 'A', 10000);
  long_code[10000] = '\0';
  g_assert_true (akc_text_is_turn_code (long_code, 10000));
  g_assert_false (akc_text_is_ask_code (long_code, 10000));
  check_length_edge (akc_text_is_ask_code, 'A', '_', 128);
}

static void
test_content_hash (void)
{
  static const PatternCase cases[] = {
    { STR_LEN ("sha256:0000000000000000000000000000000000000000000000000000000000000000"), TRUE },
    { STR_LEN ("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), TRUE },
    { STR_LEN ("sha256:0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"), FALSE },
    { STR_LEN ("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde"), FALSE },
    { STR_LEN ("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0"), FALSE },
    { STR_LEN ("SHA256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), FALSE },
    { STR_LEN ("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg"), FALSE },
    { STR_LEN ("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"), FALSE },
    { STR_LEN ("sha256:"), FALSE },
    { STR_LEN (""), FALSE },
  };

  check_pattern (akc_text_is_content_hash, cases, G_N_ELEMENTS (cases));
}

/* ------------------------------------------------------------------------ */
/* §1.6 DateTime and §8.3 rule 5                                             */

static void
test_date_time (void)
{
  static const PatternCase cases[] = {
    { STR_LEN ("2026-07-11T03:00Z"), TRUE },          /* seconds optional */
    { STR_LEN ("2026-07-11T03:00:59Z"), TRUE },
    { STR_LEN ("2026-07-11T03:00:00.1Z"), TRUE },
    { STR_LEN ("2026-07-11T03:00:00.123456789012Z"), TRUE },  /* unbounded fraction */
    { STR_LEN ("2026-07-11T03:00+05:30"), TRUE },
    { STR_LEN ("2026-07-11T03:00:00-23:59"), TRUE },
    { STR_LEN ("2026-07-11T23:59:59.999+00:00"), TRUE },
    { STR_LEN ("0000-02-29T00:00Z"), TRUE },          /* year 0000 is leap */
    { STR_LEN ("2000-02-29T00:00Z"), TRUE },
    { STR_LEN ("2024-02-29T00:00Z"), TRUE },
    { STR_LEN ("1600-02-29T00:00Z"), TRUE },
    { STR_LEN ("9999-12-31T23:59:59Z"), TRUE },
    { STR_LEN ("0000-01-01T00:00Z"), TRUE },
    { STR_LEN ("2026-01-31T00:00Z"), TRUE },
    { STR_LEN ("2026-04-30T00:00Z"), TRUE },
    { STR_LEN ("2026-02-28T00:00Z"), TRUE },
    { STR_LEN ("1900-02-29T00:00Z"), FALSE },         /* century, not /400 */
    { STR_LEN ("2100-02-29T00:00Z"), FALSE },
    { STR_LEN ("2023-02-29T00:00Z"), FALSE },
    { STR_LEN ("2026-02-30T00:00Z"), FALSE },
    { STR_LEN ("2026-04-31T00:00Z"), FALSE },
    { STR_LEN ("2026-01-32T00:00Z"), FALSE },
    { STR_LEN ("2026-00-10T00:00Z"), FALSE },
    { STR_LEN ("2026-13-10T00:00Z"), FALSE },
    { STR_LEN ("2026-01-00T00:00Z"), FALSE },
    { STR_LEN ("2026-07-11t03:00Z"), FALSE },         /* lower-case t */
    { STR_LEN ("2026-07-11T03:00z"), FALSE },         /* lower-case z */
    { STR_LEN ("2026-07-11 03:00Z"), FALSE },         /* space separator */
    { STR_LEN ("2026-07-11T03:00+0530"), FALSE },
    { STR_LEN ("2026-07-11T03:00+05"), FALSE },
    { STR_LEN ("2026-07-11T03:00+24:00"), FALSE },
    { STR_LEN ("2026-07-11T03:00+05:60"), FALSE },
    { STR_LEN ("2026-07-11T24:00Z"), FALSE },
    { STR_LEN ("2026-07-11T23:60Z"), FALSE },
    { STR_LEN ("2026-07-11T23:59:60Z"), FALSE },      /* no leap second */
    { STR_LEN ("2026-07-11T03:00"), FALSE },          /* zone required */
    { STR_LEN ("2026-07-11T03:00:00.Z"), FALSE },     /* fraction needs a digit */
    { STR_LEN ("2026-07-11T03:00.5Z"), FALSE },       /* fraction needs seconds */
    { STR_LEN ("2026-07-11T03Z"), FALSE },
    { STR_LEN ("2026-07-11T3:00Z"), FALSE },
    { STR_LEN ("2026-7-11T03:00Z"), FALSE },
    { STR_LEN ("26-07-11T03:00Z"), FALSE },
    { STR_LEN ("+02026-07-11T03:00Z"), FALSE },
    { STR_LEN ("2026-07-11"), FALSE },
    { STR_LEN ("2026-07-11T03:00Z\n"), FALSE },
    { STR_LEN ("2026-07-11T03:00ZZ"), FALSE },
    { STR_LEN (" 2026-07-11T03:00Z"), FALSE },
    { STR_LEN ("2026-07-11T03:00:00,5Z"), FALSE },
    { STR_LEN ("\xEF\xBC\x92" "026-07-11T03:00Z"), FALSE },  /* full-width digit */
    { STR_LEN (""), FALSE },
  };

  check_pattern (akc_text_is_date_time, cases, G_N_ELEMENTS (cases));
}

static void
test_date_time_unix_ms (void)
{
  static const struct { const char *s; gint64 ms; } cases[] = {
    { "1970-01-01T00:00Z", 0 },
    { "1970-01-01T00:00:00Z", 0 },
    { "1970-01-01T00:00:00.001Z", 1 },
    { "1970-01-01T00:00:00.1Z", 100 },
    { "1970-01-01T00:00:00.12Z", 120 },
    { "1970-01-01T00:00:00.0019Z", 1 },              /* truncated, not rounded */
    { "1970-01-01T00:00:00.9999999Z", 999 },
    { "1970-01-01T01:00+01:00", 0 },                  /* offsets applied */
    { "1969-12-31T23:00-01:00", 0 },
    { "1970-01-01T05:30:00.000+05:30", 0 },
    { "1969-12-31T23:59:59.999Z", -1 },
    { "2000-02-29T12:34:56.789Z", G_GINT64_CONSTANT (951827696789) },
    { "2026-07-11T03:00Z", G_GINT64_CONSTANT (1783738800000) },
    { "0000-01-01T00:00Z", G_GINT64_CONSTANT (-62167219200000) },
    { "0000-03-01T00:00Z", G_GINT64_CONSTANT (-62162035200000) },  /* after 0000-02-29 */
    { "9999-12-31T23:59:59.999Z", G_GINT64_CONSTANT (253402300799999) },
    { "9999-12-31T23:59:59.999-23:59", G_GINT64_CONSTANT (253402387139999) },
  };
  gint64 ms = 42;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (akc_text_date_time_to_unix_ms (cases[i].s, strlen (cases[i].s), &ms));
      g_assert_cmpint (ms, ==, cases[i].ms);
    }

  /* Invalid text leaves the output alone. */
  ms = 42;
  g_assert_false (akc_text_date_time_to_unix_ms (STR_LEN ("2026-07-11T24:00Z"), &ms));
  g_assert_false (akc_text_date_time_to_unix_ms (STR_LEN ("1900-02-29T00:00Z"), &ms));
  g_assert_cmpint (ms, ==, 42);

  /* Sub-millisecond differences are equal instants (§10 item 6). */
  {
    gint64 a, b;

    g_assert_true (akc_text_date_time_to_unix_ms (STR_LEN ("2026-07-11T03:00:00.1231Z"), &a));
    g_assert_true (akc_text_date_time_to_unix_ms (STR_LEN ("2026-07-11T03:00:00.1239Z"), &b));
    g_assert_cmpint (a, ==, b);
  }
}

/* The civil-date arithmetic agrees with GDateTime on every day of years 1–9999
 * (GDateTime starts at year 1), sampled across the day and offsets. */
static void
test_date_time_vs_gdatetime (void)
{
  g_autoptr(GDateTime) day = g_date_time_new_utc (1, 1, 1, 0, 0, 0);

  while (g_date_time_get_year (day) <= 9999)
    {
      g_autoptr(GDateTime) next = NULL;
      char text[64];
      gint64 ms = 0;
      int y, m, d;

      g_date_time_get_ymd (day, &y, &m, &d);
      g_snprintf (text, sizeof text, "%04d-%02d-%02dT13:07:09.250-04:30", y, m, d);
      g_assert_true (akc_text_date_time_to_unix_ms (text, strlen (text), &ms));
      g_assert_cmpint (ms, ==, g_date_time_to_unix (day) * 1000 + ((13 + 4) * 3600 + 37 * 60 + 9) * 1000 + 250);

      next = g_date_time_add_days (day, 37);
      g_clear_pointer (&day, g_date_time_unref);
      day = g_steal_pointer (&next);
      if (day == NULL)
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* §1.6 SafeHref                                                             */

static const PatternCase href_cases[] = {
  /* Rules 1–4. */
  { STR_LEN (""), FALSE },
  { STR_LEN ("/"), TRUE },
  { STR_LEN ("/x:y"), TRUE },
  { STR_LEN ("/caf\xC3\xA9 menu"), TRUE },
  { STR_LEN ("/?q#f"), TRUE },
  { STR_LEN ("//"), FALSE },
  { STR_LEN ("///x"), FALSE },
  { STR_LEN ("/\\x"), FALSE },
  { STR_LEN ("/a\tb"), FALSE },
  { STR_LEN ("/a\nb"), FALSE },
  { STR_LEN ("/a\x1f"), FALSE },
  { STR_LEN ("/a\x7f"), FALSE },
  { STR_LEN ("/a\0b"), FALSE },                   /* U+0000 is a C0 control */
  { STR_LEN ("/a\xC2\x85"), TRUE },               /* U+0085 is not C0 */
  { STR_LEN ("a"), FALSE },
  { STR_LEN (" /x"), FALSE },
  { STR_LEN ("1http://x"), FALSE },               /* a scheme starts with a letter */
  { STR_LEN ("+http://x"), FALSE },
  { STR_LEN ("../x"), FALSE },
  { STR_LEN ("x/y:z"), FALSE },                   /* '/' before ':' → no scheme */
  /* Rule 5: schemes. */
  { STR_LEN ("http://x"), TRUE },
  { STR_LEN ("HtTpS://x"), TRUE },
  { STR_LEN ("javascript:alert(1)"), FALSE },
  { STR_LEN ("JavaScript:alert(1)"), FALSE },
  { STR_LEN ("mailto:a@b.c"), FALSE },
  { STR_LEN ("ftp://x.org"), FALSE },
  { STR_LEN ("file:///etc/passwd"), FALSE },
  { STR_LEN ("data:text/html,x"), FALSE },
  { STR_LEN ("ws://x"), FALSE },
  { STR_LEN ("httpx://x"), FALSE },
  { STR_LEN ("http+s://x"), FALSE },
  { STR_LEN ("https-://x"), FALSE },
  /* Special-scheme slashes. */
  { STR_LEN ("http:example.com"), TRUE },
  { STR_LEN ("https:/example.com"), TRUE },
  { STR_LEN ("https:///x"), TRUE },
  { STR_LEN ("https:////x/y"), TRUE },
  { STR_LEN ("http:"), FALSE },
  { STR_LEN ("http:/"), FALSE },
  { STR_LEN ("http://"), FALSE },
  { STR_LEN ("http:///"), FALSE },
  { STR_LEN ("http:?x"), FALSE },
  { STR_LEN ("http:#x"), FALSE },
  { STR_LEN ("http://?x"), FALSE },
  /* Credentials. */
  { STR_LEN ("https://@example.com"), TRUE },
  { STR_LEN ("https://:@example.com"), TRUE },     /* ':' alone: both empty */
  { STR_LEN ("https://user@example.com"), FALSE },
  { STR_LEN ("https://user:pass@example.com"), FALSE },
  { STR_LEN ("https://user:@example.com"), FALSE },
  { STR_LEN ("https://:pass@example.com"), FALSE },
  { STR_LEN ("https://::@example.com"), FALSE },   /* password ":" */
  { STR_LEN ("https://@@example.com"), FALSE },    /* second '@' → "%40" */
  { STR_LEN ("https://a@b@example.com"), FALSE },
  { STR_LEN ("https://%40@example.com"), FALSE },
  { STR_LEN ("https://@"), FALSE },
  { STR_LEN ("https://@/x"), FALSE },
  { STR_LEN ("https://@:80"), FALSE },
  { STR_LEN ("https://example.com/@user"), TRUE }, /* '@' after the authority */
  { STR_LEN ("https://example.com?@x"), TRUE },
  { STR_LEN ("https://example.com#@x"), TRUE },
  /* Ports. */
  { STR_LEN ("https://example.com:"), TRUE },
  { STR_LEN ("https://example.com:/x"), TRUE },
  { STR_LEN ("https://example.com:0"), TRUE },
  { STR_LEN ("https://example.com:65535"), TRUE },
  { STR_LEN ("https://example.com:0000000000065535"), TRUE },
  { STR_LEN ("https://example.com:443/"), TRUE },
  { STR_LEN ("https://example.com:65536"), FALSE },
  { STR_LEN ("https://example.com:99999"), FALSE },
  { STR_LEN ("https://example.com:99999999999999999999"), FALSE },
  { STR_LEN ("https://example.com:8a"), FALSE },
  { STR_LEN ("https://example.com:-1"), FALSE },
  { STR_LEN ("https://example.com:+1"), FALSE },
  { STR_LEN ("https://example.com: 80"), FALSE },
  { STR_LEN ("https://example.com:80 "), TRUE },  /* trailing spaces stripped */
  { STR_LEN ("https://example.com:8 0"), FALSE },
  { STR_LEN ("https://example.com:80:81"), FALSE },
  { STR_LEN ("https://:80"), FALSE },
  /* Domains. */
  { STR_LEN ("https://EXAMPLE.com"), TRUE },
  { STR_LEN ("https://example.com."), TRUE },
  { STR_LEN ("https://."), TRUE },
  { STR_LEN ("https://a..b"), TRUE },
  { STR_LEN ("https://ex_ample-.com"), TRUE },
  { STR_LEN ("https://ex%41mple.com"), TRUE },      /* percent-decoded host */
  { STR_LEN ("https://exa mple.com"), FALSE },
  { STR_LEN ("https://exa%20mple.com"), FALSE },
  { STR_LEN ("https://exa%2Fmple.com"), FALSE },
  { STR_LEN ("https://exa%2fmple.com"), FALSE },
  { STR_LEN ("https://exa%25mple.com"), FALSE },
  { STR_LEN ("https://exa%mple.com"), FALSE },
  { STR_LEN ("https://exa%zzmple.com"), FALSE },
  { STR_LEN ("https://exa%00mple.com"), FALSE },
  { STR_LEN ("https://exa%7Fmple.com"), FALSE },
  { STR_LEN ("https://exa%FFmple.com"), FALSE },    /* not UTF-8 → U+FFFD */
  { STR_LEN ("https://a<b"), FALSE },
  { STR_LEN ("https://a>b"), FALSE },
  { STR_LEN ("https://a^b"), FALSE },
  { STR_LEN ("https://a|b"), FALSE },
  { STR_LEN ("https://a[b]"), FALSE },
  { STR_LEN ("https://a]b"), FALSE },
  { STR_LEN ("https:// example.com"), FALSE },
  { STR_LEN ("https://example.com "), TRUE },
  { STR_LEN ("https://example.com/a b"), TRUE },
  { STR_LEN ("https://example.com/a b?c d#e f"), TRUE },
  { STR_LEN ("https://example.com/%zz%"), TRUE },  /* path never fails */
  { STR_LEN ("https://example.com/<>\"{}|^`"), TRUE },
  { STR_LEN ("https://xn--bcher-kva.example"), TRUE },
  /* Non-ASCII domains (approximate UTS #46, see akc-url.c). */
  { STR_LEN ("https://b\xC3\xBC" "cher.example"), TRUE },
  { STR_LEN ("https://B\xC3\x9C" "CHER.example"), TRUE },
  { STR_LEN ("https://ex%C3%BCample.de"), TRUE },
  { STR_LEN ("https://\xEF\xBD\x85\xEF\xBD\x98.com"), TRUE },                 /* full-width "ex" */
  { STR_LEN ("https://exa\xC2\xA0mple.com"), FALSE },                          /* U+00A0 → space */
  { STR_LEN ("https://exa\xE3\x80\x80mple.com"), FALSE },                      /* U+3000 → space */
  { STR_LEN ("https://exa\xE1\x9A\x80mple.com"), FALSE },                      /* U+1680 */
  { STR_LEN ("https://exa\xE2\x80\xA8mple.com"), FALSE },                      /* U+2028 */
  { STR_LEN ("https://a\xEF\xBC\x9A" "b"), FALSE },                            /* U+FF1A → ':' */
  { STR_LEN ("https://a\xEF\xBC\x8F" "b"), FALSE },                            /* U+FF0F → '/' */
  { STR_LEN ("https://a\xEF\xBC\x85" "b"), FALSE },                            /* U+FF05 → '%' */
  { STR_LEN ("https://a\xC2\x85" "b"), FALSE },                                /* C1 control */
  { STR_LEN ("https://a\xEE\x80\x80" "b"), FALSE },                            /* private use */
  { STR_LEN ("https://a\xEF\xBF\xBD" "b"), FALSE },                            /* U+FFFD */
  { STR_LEN ("https://\xC2\xAD"), FALSE },                                     /* maps to nothing */
  { STR_LEN ("https://\xEF\xBC\x91\xEF\xBC\x8E\xEF\xBC\x92\xEF\xBC\x8E\xEF\xBC\x93\xEF\xBC\x8E\xEF\xBC\x94"), TRUE },  /* "１．２．３．４" */
  { STR_LEN ("https://1.2.3.2\xEF\xBC\x95\xEF\xBC\x96"), FALSE },              /* "1.2.3.2５６" */
  { STR_LEN ("https://1\xE3\x80\x82" "2\xE3\x80\x82" "3\xE3\x80\x82" "256"), FALSE },  /* U+3002 dots */
  { STR_LEN ("https://b\xC3\xBC" "cher.1"), FALSE },                           /* numeric last label */
  /* IPv4. */
  { STR_LEN ("https://1.2.3.4/"), TRUE },
  { STR_LEN ("https://1.2.3.4./"), TRUE },
  { STR_LEN ("https://1.2.3.255"), TRUE },
  { STR_LEN ("https://1.2.3.256/"), FALSE },
  { STR_LEN ("https://256.1.1.1"), FALSE },
  { STR_LEN ("https://0x7f.1/"), TRUE },
  { STR_LEN ("https://0X7F.0.0.1"), TRUE },
  { STR_LEN ("https://0177.0.0.1"), TRUE },
  { STR_LEN ("https://0377.0xff.255.1"), TRUE },
  { STR_LEN ("https://0400.1.1.1"), FALSE },         /* octal 256 */
  { STR_LEN ("https://09.1.1.1"), FALSE },           /* not octal */
  { STR_LEN ("https://08"), FALSE },
  { STR_LEN ("https://0x"), TRUE },                  /* "0x" alone is 0 */
  { STR_LEN ("https://0x.0x.0x.0x"), TRUE },
  { STR_LEN ("https://0xg"), TRUE },                 /* not a number: a domain */
  { STR_LEN ("https://foo.0x"), FALSE },
  { STR_LEN ("https://foo.0x1"), FALSE },
  { STR_LEN ("https://foo.0xg"), TRUE },
  { STR_LEN ("https://4294967295"), TRUE },
  { STR_LEN ("https://4294967296"), FALSE },
  { STR_LEN ("https://0xffffffff"), TRUE },
  { STR_LEN ("https://0x100000000"), FALSE },
  { STR_LEN ("https://0x00000000000000000000001"), TRUE },
  { STR_LEN ("https://99999999999999999999999"), FALSE },
  { STR_LEN ("https://1.16777215"), TRUE },
  { STR_LEN ("https://1.16777216"), FALSE },
  { STR_LEN ("https://1.2.65535"), TRUE },
  { STR_LEN ("https://1.2.65536"), FALSE },
  { STR_LEN ("https://1.256.1"), FALSE },
  { STR_LEN ("https://1.2.3.4.5"), FALSE },
  { STR_LEN ("https://1..2"), FALSE },
  { STR_LEN ("https://.1"), FALSE },
  { STR_LEN ("https://1.2.3.4.."), TRUE },           /* last label "": a domain */
  { STR_LEN ("https://example.1"), FALSE },
  { STR_LEN ("https://example.1."), FALSE },
  { STR_LEN ("https://1.example"), TRUE },
  { STR_LEN ("https://1.2.3.4.example"), TRUE },
  { STR_LEN ("https://1e3"), TRUE },
  { STR_LEN ("https://%31.2.3.256"), FALSE },        /* decoded before the check */
  /* IPv6. */
  { STR_LEN ("https://[::1]/"), TRUE },
  { STR_LEN ("https://[::]"), TRUE },
  { STR_LEN ("https://[::1]:8080/x"), TRUE },
  { STR_LEN ("https://[1:2:3:4:5:6:7:8]"), TRUE },
  { STR_LEN ("https://[1:2:3:4:5:6::]"), TRUE },
  { STR_LEN ("https://[1::8]"), TRUE },
  { STR_LEN ("https://[ABCD:ef01::]"), TRUE },
  { STR_LEN ("https://[::ffff:1.2.3.4]"), TRUE },
  { STR_LEN ("https://[1:2:3:4:5:6:1.2.3.4]"), TRUE },
  { STR_LEN ("https://[::1.2.3.4]"), TRUE },
  { STR_LEN ("https://[1:2:3:4:5:6:7:8:9]"), FALSE },
  { STR_LEN ("https://[1:2:3:4:5:6:7]"), FALSE },
  { STR_LEN ("https://[1:2:3:4:5:6:7:1.2.3.4]"), FALSE },
  { STR_LEN ("https://[1::2::3]"), FALSE },
  { STR_LEN ("https://[:1]"), FALSE },
  { STR_LEN ("https://[1:]"), FALSE },
  { STR_LEN ("https://[12345::]"), FALSE },
  { STR_LEN ("https://[g::]"), FALSE },
  { STR_LEN ("https://[::1.2.3]"), FALSE },
  { STR_LEN ("https://[::1.2.3.4.5]"), FALSE },
  { STR_LEN ("https://[::1.2.3.04]"), FALSE },
  { STR_LEN ("https://[::1.2.3.256]"), FALSE },
  { STR_LEN ("https://[::.1.2.3]"), FALSE },
  { STR_LEN ("https://[]"), FALSE },
  { STR_LEN ("https://["), FALSE },
  { STR_LEN ("https://[::1"), FALSE },
  { STR_LEN ("https://[::1]x"), FALSE },
  { STR_LEN ("https://x[::1]"), FALSE },
  { STR_LEN ("https://[::1]:99999"), FALSE },
  { STR_LEN ("https://[%3A%3A1]"), FALSE },          /* no decoding inside brackets */
};

static void
test_safe_href (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (href_cases); i++)
    {
      if (akc_text_is_safe_href (href_cases[i].s, href_cases[i].len) != href_cases[i].ok)
        g_error ("SafeHref \"%s\": expected %s", href_cases[i].s, href_cases[i].ok ? "safe" : "unsafe");
    }
}

static void
test_safe_href_length (void)
{
  g_autoptr(GString) s = g_string_new ("/");

  /* len16 counts, not bytes: 1 + 1023 × 2 = 2047, + 1 = 2048, + 2 = 2050. */
  for (int k = 0; k < 1023; k++)
    g_string_append (s, "\xF0\x9F\x98\x80");
  g_assert_true (akc_text_is_safe_href (s->str, s->len));
  g_string_append_c (s, 'a');
  g_assert_true (akc_text_is_safe_href (s->str, s->len));
  g_string_truncate (s, s->len - 1);
  g_string_append (s, "\xF0\x9F\x98\x80");
  g_assert_false (akc_text_is_safe_href (s->str, s->len));

  /* The same limit applies to absolute URLs. */
  g_string_assign (s, "https://example.com/");
  while (s->len < 2048)
    g_string_append_c (s, 'x');
  g_assert_true (akc_text_is_safe_href (s->str, s->len));
  g_string_append_c (s, 'x');
  g_assert_false (akc_text_is_safe_href (s->str, s->len));

  /* A long host goes through the heap buffer of the host parser. */
  g_string_assign (s, "https://");
  for (int k = 0; k < 300; k++)
    g_string_append (s, "ab.");
  g_string_append (s, "com/");
  g_assert_true (akc_text_is_safe_href (s->str, s->len));
  g_string_truncate (s, s->len - 4);
  g_string_append (s, "256/");
  g_assert_false (akc_text_is_safe_href (s->str, s->len));
}

static void
test_safe_href_public (void)
{
  g_assert_true (akc_is_safe_href ("/docs"));
  g_assert_true (akc_is_safe_href ("https://example.com/"));
  g_assert_false (akc_is_safe_href ("javascript:alert(1)"));
  g_assert_false (akc_is_safe_href ("/\xFF"));  /* not UTF-8 */
  g_assert_false (akc_is_safe_href (""));
}

/* The host a safe link leads to, as a WHATWG parser (a browser) reads it. */
static void
test_safe_href_host (void)
{
  static const struct { const char *href; const char *host; } cases[] = {
    { "https://example.com/a", "example.com" },
    { "HTTPS://EXAMPLE.com:8080/x", "example.com" },
    { "http:example.com", "example.com" },
    { "https:///x", "x" },
    { "https://@example.com/", "example.com" },
    { "https://:@example.com/", "example.com" },
    { "https://ex%61mple.com/", "example.com" },
    { "http://0x7f.1/", "127.0.0.1" },
    { "http://2130706433/", "127.0.0.1" },
    { "http://192.168.0.1./", "192.168.0.1" },
    { "https://[::1]:443/", "[::1]" },
    { "https://b\xC3\xBC" "cher.example/", "xn--bcher-kva.example" },
    { "https://\xD0\xB0pple.com/", "xn--pple-43d.com" },     /* Cyrillic а */
    { "https://example.com?q#f", "example.com" },
    /* Not safe, or no host of its own. */
    { "https://user:pw@host/", NULL },
    { "https://user@host/", NULL },
    { "http://a\\@b", NULL },
    { "http://a@b", NULL },
    { "/docs", NULL },
    { "//example.com", NULL },
    { "javascript:alert(1)", NULL },
    { "ftp://example.com/", NULL },
    { "http://", NULL },
    { "https://1.2.3.256/", NULL },
    { "https://example.com:99999/", NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *host = akc_safe_href_dup_host (cases[i].href);

      g_test_message ("%s", cases[i].href);
      g_assert_cmpstr (host, ==, cases[i].host);
    }

  /* Every safe absolute vector has a host, every other none. */
  for (gsize i = 0; i < G_N_ELEMENTS (href_cases); i++)
    {
      g_autofree char *host = NULL;

      if (memchr (href_cases[i].s, '\0', href_cases[i].len) != NULL ||
          !g_utf8_validate_len (href_cases[i].s, href_cases[i].len, NULL))
        continue;
      host = akc_safe_href_dup_host (href_cases[i].s);
      if ((host != NULL) != (href_cases[i].ok && href_cases[i].s[0] != '/'))
        g_error ("SafeHref \"%s\": host %s", href_cases[i].s, host != NULL ? host : "(none)");
    }
}

/* ------------------------------------------------------------------------ */
/* §8.1 normalizeKnowledgeKey                                                */

typedef struct
{
  const char *in;
  gsize       in_len;
  const char *out;
  gsize       out_len;
} NormCase;

static const NormCase norm_cases[] = {
  { STR_LEN (""), STR_LEN ("") },
  { STR_LEN ("Install CLI"), STR_LEN ("install cli") },
  { STR_LEN ("  a \t\n\v\f\r b  "), STR_LEN ("a b") },
  { STR_LEN ("a  b   c"), STR_LEN ("a b c") },
  { STR_LEN (" \t "), STR_LEN ("") },
  /* Step 1: NFKC. */
  { STR_LEN ("\xEF\xAC\x81" "le"), STR_LEN ("file") },                  /* ﬁ */
  { STR_LEN ("\xE2\x91\xA0"), STR_LEN ("1") },                          /* ① */
  { STR_LEN ("\xE2\x84\xAB"), STR_LEN ("\xC3\xA5") },                   /* Å (ANGSTROM SIGN) → å */
  { STR_LEN ("\xE2\x84\xAA"), STR_LEN ("k") },                          /* KELVIN SIGN */
  { STR_LEN ("E\xCC\x81"), STR_LEN ("\xC3\xA9") },                      /* E + U+0301 → é */
  { STR_LEN ("\xE2\x85\xAB"), STR_LEN ("xii") },                        /* Ⅻ */
  { STR_LEN ("\xE2\x92\xB6"), STR_LEN ("a") },                          /* Ⓐ */
  { STR_LEN ("\xEF\xBC\xA9\xEF\xBC\xAE"), STR_LEN ("in") },             /* full-width IN */
  /* Steps 2–3: the §1.4 set, nothing else. */
  { STR_LEN ("a\xC2\x85" "b"), STR_LEN ("a\xC2\x85" "b") },             /* U+0085 kept */
  { STR_LEN ("a\xE1\xA0\x8E" "b"), STR_LEN ("a\xE1\xA0\x8E" "b") },     /* U+180E kept */
  { STR_LEN ("a\xE2\x80\x8B" "b"), STR_LEN ("a\xE2\x80\x8B" "b") },     /* U+200B kept */
  { STR_LEN ("a\xE2\x80\xA8\xE2\x80\xA9\xEF\xBB\xBF" "b"), STR_LEN ("a b") },
  { STR_LEN ("\xE2\x80\xAF" "a\xE2\x81\x9F" "b\xE1\x9A\x80"), STR_LEN ("a b") },
  { STR_LEN ("\xC2\xA0" "A\xC2\xA0"), STR_LEN ("a") },                  /* NFKC makes U+0020 */
  /* Step 4: full lower-casing. */
  { STR_LEN ("\xC4\xB0"), STR_LEN ("i\xCC\x87") },                      /* İ → i̇ */
  { STR_LEN ("\xC4\xB0stanbul"), STR_LEN ("i\xCC\x87stanbul") },
  { STR_LEN ("I"), STR_LEN ("i") },                                     /* not ı */
  { STR_LEN ("\xC4\xB1"), STR_LEN ("\xC4\xB1") },                       /* ı stays */
  { STR_LEN ("\xC3\x8C"), STR_LEN ("\xC3\xAC") },                       /* Ì → ì (no Lithuanian dot) */
  { STR_LEN ("\xC3\x9F"), STR_LEN ("\xC3\x9F") },                       /* ß */
  { STR_LEN ("\xE1\xBA\x9E"), STR_LEN ("\xC3\x9F") },                   /* ẞ → ß */
  { STR_LEN ("\xC7\x85"), STR_LEN ("d\xC5\xBE") },                       /* ǅ (Lt): NFKC → Dž → dž */
  { STR_LEN ("\xE1\xBE\x88"), STR_LEN ("\xE1\xBE\x80") },               /* ᾈ (Lt) → ᾀ */
  { STR_LEN ("\xD0\x9F\xD0\xA0\xD0\x98"), STR_LEN ("\xD0\xBF\xD1\x80\xD0\xB8") },  /* ПРИ */
  { STR_LEN ("\xF0\x90\x90\x80"), STR_LEN ("\xF0\x90\x90\xA8") },       /* Deseret 𐐀 → 𐐨 */
  /* Final_Sigma. */
  { STR_LEN ("\xCE\xA3"), STR_LEN ("\xCF\x83") },                       /* Σ → σ */
  { STR_LEN ("A\xCE\xA3"), STR_LEN ("a\xCF\x82") },                     /* AΣ → aς */
  { STR_LEN ("\xCE\xA3\xCE\x91\xCE\xA3"), STR_LEN ("\xCF\x83\xCE\xB1\xCF\x82") },  /* ΣΑΣ → σας */
  { STR_LEN ("\xCE\xA3 \xCE\xA3"), STR_LEN ("\xCF\x83 \xCF\x83") },     /* lone words */
  { STR_LEN ("A\xCE\xA3 B"), STR_LEN ("a\xCF\x82 b") },
  { STR_LEN ("A\xCE\xA3" "B"), STR_LEN ("a\xCF\x83" "b") },             /* followed by cased */
  { STR_LEN ("A.\xCE\xA3"), STR_LEN ("a.\xCF\x82") },                   /* '.' is case-ignorable */
  { STR_LEN ("A'\xCE\xA3"), STR_LEN ("a'\xCF\x82") },
  { STR_LEN ("A:\xCE\xA3"), STR_LEN ("a:\xCF\x82") },
  { STR_LEN ("A\xCE\xA3.B"), STR_LEN ("a\xCF\x83.b") },                 /* ignorable, then cased */
  { STR_LEN ("A\xCE\xA3." ), STR_LEN ("a\xCF\x82.") },
  { STR_LEN ("A\xCE\xA3\xCC\x81"), STR_LEN ("a\xCF\x82\xCC\x81") },     /* Mn after Σ */
  { STR_LEN ("A\xCE\xA3\xCD\x85"), STR_LEN ("a\xCF\x82\xCD\x85") },     /* U+0345: ignorable wins */
  { STR_LEN ("A\xCE\xA3\xC2\xAD" "B"), STR_LEN ("a\xCF\x83\xC2\xAD" "b") },  /* U+00AD (Cf) skipped */
  { STR_LEN ("1\xCE\xA3"), STR_LEN ("1\xCF\x83") },                     /* digit is not cased */
  { STR_LEN ("\xCE\x91\xCE\xA3" "1"), STR_LEN ("\xCE\xB1\xCF\x82" "1") },
  { STR_LEN ("-\xCE\xA3"), STR_LEN ("-\xCF\x83") },
  { STR_LEN ("\xC2\xB7\xCE\xA3"), STR_LEN ("\xC2\xB7\xCF\x83") },       /* only ignorables before */
  { STR_LEN ("\xE1\xBE\x88\xCE\xA3"), STR_LEN ("\xE1\xBE\x80\xCF\x82") },  /* Lt is cased */
  { STR_LEN ("\xCE\xA3\xCE\xA3"), STR_LEN ("\xCF\x83\xCF\x82") },
  /* Embedded U+0000 (JSON strings may hold it). */
  { STR_LEN ("A\0B"), STR_LEN ("a\0b") },
  { STR_LEN ("\0"), STR_LEN ("\0") },
  { STR_LEN (" \xC3\x89\0\xE2\x85\xAB "), STR_LEN ("\xC3\xA9\0xii") },
  { STR_LEN ("A\xCE\xA3\0"), STR_LEN ("a\xCF\x82\0") },                 /* U+0000: neither */
};

static void
test_normalize (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (norm_cases); i++)
    {
      gsize out_len = 0;
      g_autofree char *out = akc_text_normalize_key (norm_cases[i].in, norm_cases[i].in_len, &out_len);

      if (out_len != norm_cases[i].out_len || memcmp (out, norm_cases[i].out, out_len) != 0)
        g_error ("normalisation case %" G_GSIZE_FORMAT " (\"%s\") gave \"%s\"", i, norm_cases[i].in, out);
      g_assert_cmpint (out[out_len], ==, '\0');
    }
}

static void
test_normalize_expands (void)
{
  g_autofree char *out = NULL;
  gsize out_len = 0;

  /* U+FDFA (ARABIC LIGATURE SALLALLAHOU ALAYHE WASALLAM) becomes 18 units. */
  out = akc_text_normalize_key (STR_LEN ("\xEF\xB7\xBA"), &out_len);
  g_assert_cmpuint (akc_text_len16 (out, out_len), ==, 18);
  g_assert_cmpuint (out_len, ==, strlen (out));
  g_clear_pointer (&out, g_free);

  /* Public wrapper. */
  out = akc_normalize_knowledge_key ("  \xEF\xBC\xA9\xEF\xBC\xAE\xEF\xBC\xB3\xEF\xBC\xB4\xEF\xBC\xA1\xEF\xBC\xAC\xEF\xBC\xAC\n CLI  ");
  g_assert_cmpstr (out, ==, "install cli");
}

/* A Turkish LC_CTYPE changes g_utf8_strdown() but not the normaliser. */

static char *
make_turkish_locale_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *localedef = g_find_program_in_path ("localedef");
  int status = 0;
  const char *argv[] = { NULL, "-i", "tr_TR", "-f", "UTF-8", NULL, NULL };

  if (localedef == NULL)
    return NULL;

  dir = g_dir_make_tmp ("akc-locale-XXXXXX", &error);
  g_assert_no_error (error);
  target = g_build_filename (dir, "tr_TR.UTF-8", NULL);

  argv[0] = localedef;
  argv[5] = target;
  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL) ||
      !g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("localedef could not build tr_TR.UTF-8");
    }

  return g_steal_pointer (&dir);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
    }
  g_remove (path);
}

static void
test_normalize_turkish_locale (void)
{
  g_autofree char *saved = g_strdup (setlocale (LC_ALL, NULL));
  g_autofree char *locale_dir = NULL;
  g_autofree char *lowered = NULL;
  g_autofree char *key_i = NULL;
  g_autofree char *key_dot_i = NULL;
  g_autofree char *key_word = NULL;
  const char *old_locpath = g_getenv ("LOCPATH");

  if (setlocale (LC_ALL, "tr_TR.UTF-8") == NULL)
    {
      /* Not installed: build it into a temporary LOCPATH (about a second). */
      locale_dir = make_turkish_locale_dir ();
      if (locale_dir != NULL)
        {
          g_setenv ("LOCPATH", locale_dir, TRUE);
          if (setlocale (LC_ALL, "tr_TR.UTF-8") == NULL)
            {
              if (old_locpath != NULL)
                g_setenv ("LOCPATH", old_locpath, TRUE);
              else
                g_unsetenv ("LOCPATH");
            }
        }
    }

  if (g_strcmp0 (setlocale (LC_CTYPE, NULL), "tr_TR.UTF-8") != 0)
    {
      if (locale_dir != NULL)
        remove_tree (locale_dir);
      setlocale (LC_ALL, saved);
      g_test_skip ("tr_TR.UTF-8 is not available; independence holds by construction "
                   "(no locale-aware call) and I/İ are checked in /text/normalize/cases");
      return;
    }

  /* The trap is live: GLib lower-cases I to dotless ı here. */
  lowered = g_utf8_strdown ("I", -1);
  g_assert_cmpstr (lowered, ==, "\xC4\xB1");

  key_i = akc_text_normalize_key (STR_LEN ("I"), NULL);
  key_dot_i = akc_text_normalize_key (STR_LEN ("\xC4\xB0"), NULL);
  key_word = akc_normalize_knowledge_key ("  INSTALL \xC4\xB0ZM\xC4\xB0R \xCE\xA3 ");

  setlocale (LC_ALL, saved);
  if (locale_dir != NULL)
    {
      if (old_locpath != NULL)
        g_setenv ("LOCPATH", old_locpath, TRUE);
      else
        g_unsetenv ("LOCPATH");
      remove_tree (locale_dir);
    }

  g_assert_cmpstr (key_i, ==, "i");
  g_assert_cmpstr (key_dot_i, ==, "i\xCC\x87");
  g_assert_cmpstr (key_word, ==, "install i\xCC\x87zmi\xCC\x87r \xCF\x83");
}

/* Index build: 16k aliases, mostly ASCII. Timed under -m perf only. */
static void
test_normalize_throughput (void)
{
  g_autoptr(GPtrArray) aliases = g_ptr_array_new_with_free_func (g_free);
  gint64 start, elapsed;
  gsize total = 0;

  for (guint k = 0; k < 16384; k++)
    {
      if (k % 8 == 0)
        g_ptr_array_add (aliases, g_strdup_printf ("  Ｃｏｎｆｉｇｕｒｅ %u ΣΕΛΙΔΑ  ", k));
      else
        g_ptr_array_add (aliases, g_strdup_printf ("  How do I Install the CLI  on\tLinux %u? ", k));
    }

  start = g_get_monotonic_time ();
  for (guint k = 0; k < aliases->len; k++)
    {
      const char *s = g_ptr_array_index (aliases, k);
      gsize n = 0;
      g_autofree char *key = akc_text_normalize_key (s, strlen (s), &n);

      total += n;
    }
  elapsed = g_get_monotonic_time () - start;

  g_assert_cmpuint (total, >, 0);
  g_test_message ("normalised 16384 aliases in %" G_GINT64_FORMAT " µs", elapsed);
  if (g_test_perf ())
    {
      g_test_minimized_result (elapsed / 1e6, "normalising 16384 aliases: %g s", elapsed / 1e6);
      g_assert_cmpint (elapsed, <=, 10000);
    }
}

/* ------------------------------------------------------------------------ */

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) cases = NULL;
  int ret;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text/len16/cases", test_len16);
  g_test_add_func ("/text/len16/vs-utf16", test_len16_vs_utf16);
  g_test_add_func ("/text/ws/set", test_ws_set);
  g_test_add_func ("/text/ws/trim", test_trim);
  g_test_add_func ("/text/pattern/safe-id", test_safe_id);
  g_test_add_func ("/text/pattern/component-key", test_component_key);
  g_test_add_func ("/text/pattern/codes", test_codes);
  g_test_add_func ("/text/pattern/content-hash", test_content_hash);
  g_test_add_func ("/text/date-time/pattern", test_date_time);
  g_test_add_func ("/text/date-time/unix-ms", test_date_time_unix_ms);
  g_test_add_func ("/text/date-time/vs-gdatetime", test_date_time_vs_gdatetime);
  g_test_add_func ("/text/safe-href/cases", test_safe_href);
  g_test_add_func ("/text/safe-href/length", test_safe_href_length);
  g_test_add_func ("/text/safe-href/public", test_safe_href_public);
  g_test_add_func ("/text/safe-href/host", test_safe_href_host);
  g_test_add_func ("/text/normalize/cases", test_normalize);
  g_test_add_func ("/text/normalize/expands", test_normalize_expands);
  g_test_add_func ("/text/normalize/turkish-locale", test_normalize_turkish_locale);
  g_test_add_func ("/text/normalize/throughput", test_normalize_throughput);

  cases = load_fixture_cases ();
  for (guint i = 0; i < cases->len; i++)
    {
      FixtureCase *fc = g_ptr_array_index (cases, i);
      g_autofree char *escaped = escape_test_name (fc->name);
      g_autofree char *path = g_strdup_printf ("/text/fixture/%s/%s", fc->op, escaped);

      g_test_add_data_func (path, fc, test_fixture_case);
    }

  ret = g_test_run ();

  return ret;
}

/* test-json.c: AkcJsonValue, the strict parser and the canonical writer
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "akc-diagnostic.h"
#include "akc-fixture.h"
#include "akc-json-glib.h"
#include "akc-json-private.h"

static AkcJsonValue *
parse (const char *text,
       gsize       len)
{
  return akc_json_parse (text, len, NULL, NULL, NULL);
}

#define PARSE(lit) parse ((lit), sizeof (lit) - 1)

/* ------------------------------------------------------------------ */
/* Strictness (toolchain.md json-glib table and §1.2)                  */
/* ------------------------------------------------------------------ */

typedef struct {
  const char *text;
  gsize       len;     /* 0: strlen */
} Text;

static const Text rejected[] = {
  /* every row of the toolchain.md table that JSON.parse rejects */
  { "/* c */ {\"a\":1}" },
  { "{'a':1}" },
  { "[01]" },
  { "[0x10]" },
  { "[\"a\tb\"]" },
  { "[\"a\nb\"]" },
  { "[\"\\x41\"]" },
  { "{\"a\":1}{\"b\":2}" },
  { "" },
  { "   \n\t " },
  { "[.5]" },
  { "[5.]" },
  { "\xEF\xBB\xBF{\"a\":1}" },
  { "{\"a\":1,}" },
  { "[1,2,]" },
  { "// c" },
  { "{a:1}" },
  { "[NaN]" },
  { "[+1]" },
  { "\"\\ud800\"" },
  /* more */
  { "[Infinity]" }, { "[-Infinity]" }, { "-" }, { "[-]" }, { "1e" }, { "1e+" },
  { "1." }, { "-01" }, { "00" }, { "tru" }, { "nul" }, { "True" }, { "[1 2]" },
  { "{\"a\" 1}" }, { "{\"a\":}" }, { "[,]" }, { "[,1]" }, { "{,}" }, { "[" }, { "]" },
  { "{" }, { "{\"a\":1" }, { "\"abc" }, { "\"\\u12\"" }, { "\"\\u12G4\"" },
  { "\"\\udc00\"" }, { "\"\\ud800\\u0041\"" }, { "\"\\ud800x\"" }, { "\"\\ud800\\\"" },
  { "\"\\'\"" }, { "\"\\a\"" }, { "\"\\U0041\"" }, { "1 2" }, { "[1],"}, { "{} {}" },
  { "\v[1]" }, { "\f[1]" }, { "\xC2\xA0[1]" }, { "\xE2\x80\xA8[1]" },
  { "[\"a\x01\"]" }, { "[\"a\x1f\"]" }, { "[\"a\0b\"]", 7 }, { "[1]\0", 4 },
  { "{\"a\":1 \"b\":2}" }, { "{\"a\"::1}" }, { "{1:1}" }, { "[undefined]" },
  { "[1e1.5]" }, { "[.]" }, { "[-.5]" }, { "[1_000]" }, { "\xFF" }, { "[\xFF]" },
  { "'a'" }, { "\"\\u{41}\"" },
};

static void
test_reject (void)
{
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (rejected); i++)
    {
      gsize len = rejected[i].len ? rejected[i].len : strlen (rejected[i].text);
      AkcJsonParseStatus status = AKC_JSON_PARSE_OK;
      AkcJsonValue *v = akc_json_parse (rejected[i].text, len, NULL, &status, NULL);

      if (v != NULL)
        {
          g_autofree char *c = akc_json_value_to_canonical (v, NULL);
          g_test_message ("accepted %s as %s", rejected[i].text, c);
          akc_json_value_unref (v);
        }
      g_assert_null (v);
      g_assert_cmpint (status, !=, AKC_JSON_PARSE_OK);
    }
}

/* An empty body without storage, as an empty GByteArray gives it: found
 * by fuzz-turn-client (UBSan: applying zero offset to null pointer). */
static void
test_reject_null_empty (void)
{
  AkcJsonParseStatus status = AKC_JSON_PARSE_OK;

  g_assert_null (akc_json_parse (NULL, 0, NULL, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_SYNTAX);
}

static void
test_accept (void)
{
  static const struct { const char *text; const char *canonical; } cases[] = {
    { "{\"a\":1,\"a\":2}", "{\"a\":2}" },
    { " \t\n\r[1] \r\n", "[1]" },
    { "\"\\ud83d\\ude00\"", "\"\xF0\x9F\x98\x80\"" },
    { "\"\\uD83D\\uDE00\"", "\"\xF0\x9F\x98\x80\"" },
    { "-0", "0" },
    { "0", "0" },
    { "1E+2", "100" },
    { "1e-2", "0.01" },
    { "-1.5e0", "-1.5" },
    { "\"\\/\\\\\\\"\\b\\f\\n\\r\\t\"", "\"/\\\\\\\"\\b\\f\\n\\r\\t\"" },
    { "[[[[]]],{}]", "[[[[]]],{}]" },
    { "123456789012345678901234567890", "1.2345678901234568e+29" },
    { "9007199254740993", "9007199254740992" },
    { "-9223372036854775809", "-9223372036854776000" },
    { "1e-400", "0" },
    { "\"\\u00e9\"", "\"\xC3\xA9\"" },
    { "\"\xC3\xA9\"", "\"\xC3\xA9\"" },
    { "\"\xE2\x80\xA8\x7F\"", "\"\xE2\x80\xA8\x7F\"" },
    { "\"\\u2028\\u007f\\u001f\"", "\"\xE2\x80\xA8\x7F\\u001f\"" },
    { "true", "true" },
    { "false", "false" },
    { "null", "null" },
    { "{\"\":0}", "{\"\":0}" },
    { "[1e309]", "[null]" },   /* Infinity: accepted by the parser; JSON.stringify writes null */
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcJsonValue) v = parse (cases[i].text, strlen (cases[i].text));

      g_test_message ("%s", cases[i].text);
      g_assert_nonnull (v);
      akc_assert_canonical (v, cases[i].canonical);
    }
}

static void
test_overflow (void)
{
  g_autoptr(AkcJsonValue) v = PARSE ("[1e309,-1e400,1]");

  g_assert_nonnull (v);
  g_assert_true (isinf (akc_json_value_get_number (AKC_JSON_ELEMENT (v, 0))));
  g_assert_cmpfloat (akc_json_value_get_number (AKC_JSON_ELEMENT (v, 0)), >, 0);
  g_assert_cmpfloat (akc_json_value_get_number (AKC_JSON_ELEMENT (v, 1)), <, 0);
  g_assert_true (v->flags & AKC_JSON_FLAG_NONFINITE);
  g_assert_false (AKC_JSON_ELEMENT (v, 2)->flags & AKC_JSON_FLAG_NONFINITE);
}

static void
test_nul_preserved (void)
{
  g_autoptr(AkcJsonValue) v = PARSE ("{\"k\\u0000ey\":[\"a\\u0000b\"]}");
  AkcJsonValue *s;
  const char *str;
  gsize len = 0;

  g_assert_nonnull (v);
  g_assert_cmpuint (akc_json_value_get_member_count (v), ==, 1);
  str = akc_json_value_get_member_name (v, 0, &len);
  g_assert_cmpmem (str, len, "k\0ey", 4);
  s = akc_json_value_get_element (akc_json_value_get_member_value (v, 0), 0);
  str = akc_json_value_get_string (s, &len);
  g_assert_cmpmem (str, len, "a\0b", 3);
  g_assert_cmpint (str[3], ==, '\0');
  g_assert_null (akc_json_value_get_member (v, "k"));
  g_assert_nonnull (akc_json_object_lookup (v, "k\0ey", 4, NULL));
  akc_assert_canonical (v, "{\"k\\u0000ey\":[\"a\\u0000b\"]}");
}

static void
test_surrogates (void)
{
  g_autoptr(AkcJsonValue) v = PARSE ("\"x\\ud834\\udd1ey\"");
  AkcJsonParseStatus status;
  gsize len;

  g_assert_nonnull (v);
  g_assert_cmpmem (akc_json_value_get_string (v, &len), len, "x\xF0\x9D\x84\x9Ey", 6);

  g_assert_null (akc_json_parse ("\"\\ud800\"", 8, NULL, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_LONE_SURROGATE);
  g_assert_null (akc_json_parse ("\"\\udfff\\ud800\"", 14, NULL, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_LONE_SURROGATE);
  g_assert_null (akc_json_parse ("[\"\\ud800\\n\"]", 12, NULL, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_LONE_SURROGATE);
}

static void
test_invalid_utf8 (void)
{
  static const struct { const char *in; gsize len; const char *out; } cases[] = {
    { "\"a\xFF" "b\"", 5, "a\xEF\xBF\xBD" "b" },
    { "\"\xE2\x82\"", 4, "\xEF\xBF\xBD" },                              /* truncated: one U+FFFD */
    { "\"\xED\xA0\x80\"", 5, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },  /* UTF-8 surrogate: three */
    { "\"\xF0\x9F\x98\"", 5, "\xEF\xBF\xBD" },
    { "\"\xC0\xAF\"", 4, "\xEF\xBF\xBD\xEF\xBF\xBD" },                  /* overlong */
    { "\"\xF4\x90\x80\x80\"", 6, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" },
    { "\"\xE2\x82\xAC\\n\xE2\"", 8, "\xE2\x82\xAC\n\xEF\xBF\xBD" },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcJsonValue) v = parse (cases[i].in, cases[i].len);
      gsize len;
      const char *s;

      g_assert_nonnull (v);
      s = akc_json_value_get_string (v, &len);
      g_assert_cmpmem (s, len, cases[i].out, strlen (cases[i].out));
    }
}

static void
test_sanitize (void)
{
  gsize len = 0;
  g_autofree char *out = NULL;
  g_autoptr(GString) s = g_string_new (NULL);

  /* fast path: valid input (including U+0000) is not copied */
  g_assert_null (akc_utf8_sanitize ("a\0\xC3\xA9", 4, &len));
  g_assert_cmpuint (len, ==, 4);
  g_assert_cmpuint (akc_utf8_valid_prefix ("abc\xC3", 4), ==, 3);
  g_assert_cmpuint (akc_utf8_valid_prefix ("0123456789abcdef\x80", 17), ==, 16);

  out = akc_utf8_sanitize ("a\x80\x80z\xF0\x9F\x98", 7, &len);
  g_assert_cmpmem (out, len, "a\xEF\xBF\xBD\xEF\xBF\xBDz\xEF\xBF\xBD", 11);

  akc_utf8_sanitize_append (s, "\xE0\x80x", 3);   /* E0 80: E0 alone, 80 alone */
  g_assert_cmpmem (s->str, s->len, "\xEF\xBF\xBD\xEF\xBF\xBDx", 7);
}

static void
test_deep (void)
{
  gsize n = 1024 * 1024;
  g_autofree char *text = g_malloc (2 * n);
  AkcJsonParseStatus status;
  AkcJsonLimits limits = { .max_depth = 3 };
  g_autoptr(AkcJsonValue) ok = NULL;

  memset (text, '[', n);
  g_assert_null (akc_json_parse (text, n, NULL, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_TOO_DEEP);

  memset (text + n, ']', n);
  g_assert_null (akc_json_parse (text, 2 * n, NULL, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_TOO_DEEP);

  /* exactly the maximum nesting still parses; one more does not */
  ok = akc_json_parse (text + n - AKC_JSON_MAX_DEPTH, 2 * AKC_JSON_MAX_DEPTH, NULL, &status, NULL);
  g_assert_nonnull (ok);
  g_assert_cmpuint (ok->height, ==, AKC_JSON_MAX_DEPTH - 1);
  g_assert_null (akc_json_parse (text + n - AKC_JSON_MAX_DEPTH - 1, 2 * AKC_JSON_MAX_DEPTH + 2, NULL, &status, NULL));

  g_assert_null (akc_json_parse ("[[[[]]]]", 8, &limits, &status, NULL));
  g_assert_cmpint (status, ==, AKC_JSON_PARSE_TOO_DEEP);
  g_clear_pointer (&ok, akc_json_value_unref);
  ok = akc_json_parse ("[[[]]]", 6, &limits, &status, NULL);
  g_assert_nonnull (ok);

  {
    AkcJsonLimits small = { .max_bytes = 4 };
    g_assert_null (akc_json_parse ("[1,2]", 5, &small, &status, NULL));
    g_assert_cmpint (status, ==, AKC_JSON_PARSE_TOO_LARGE);
  }
}

static void
test_duplicates (void)
{
  g_autoptr(AkcJsonValue) v = PARSE ("{\"a\":1,\"b\":2,\"a\":3}");
  g_autoptr(GString) big = g_string_new ("{");
  g_autoptr(AkcJsonValue) large = NULL;
  guint i;

  akc_assert_canonical (v, "{\"a\":3,\"b\":2}");

  /* large object (hash index path): duplicates and lookups */
  for (i = 0; i < 100; i++)
    g_string_append_printf (big, "\"k%u\":%u,", i, i);
  g_string_append (big, "\"k5\":\"last\",\"k99\":null,\"z\":true}");
  large = parse (big->str, big->len);
  g_assert_nonnull (large);
  g_assert_true (large->flags & AKC_JSON_FLAG_INDEXED);
  g_assert_cmpuint (akc_json_value_get_member_count (large), ==, 101);
  g_assert_cmpstr (akc_json_value_get_member_name (large, 5, NULL), ==, "k5");
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member_value (large, 5), NULL), ==, "last");
  g_assert_cmpint (akc_json_value_get_kind (akc_json_value_get_member (large, "k99")), ==, AKC_JSON_KIND_NULL);
  g_assert_cmpstr (akc_json_value_get_member_name (large, 100, NULL), ==, "z");
  for (i = 0; i < 99; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "k%u", i);
      g_assert_nonnull (akc_json_value_get_member (large, name));
    }
  g_assert_null (akc_json_value_get_member (large, "k100"));
  g_assert_null (akc_json_value_get_member (large, "k"));
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

static void
test_values (void)
{
  g_autoptr(AkcJsonValue) n = akc_json_value_new_number (1.5);
  g_autoptr(AkcJsonValue) s = akc_json_value_new_string ("h\0i", 3);
  g_autoptr(AkcJsonValue) t = akc_json_value_new_boolean (TRUE);
  g_autoptr(AkcJsonValue) z = akc_json_value_new_null ();
  g_autoptr(AkcJsonValue) arr = NULL;
  g_autoptr(AkcJsonValue) obj = NULL;
  g_autoptr(AkcJsonValue) obj2 = NULL;
  g_autoptr(AkcJsonValue) parsed = NULL;
  AkcJsonValue *elements[4];
  const char *names[] = { "n", "s", "n" };
  AkcJsonValue *values[3];

  elements[0] = n; elements[1] = s; elements[2] = t; elements[3] = z;
  arr = akc_json_value_new_array (elements, 4);
  g_assert_cmpuint (akc_json_value_get_length (arr), ==, 4);
  g_assert_true (akc_json_value_get_element (arr, 0) == n);
  akc_assert_canonical (arr, "[1.5,\"h\\u0000i\",true,null]");
  g_assert_cmpuint (arr->height, ==, 1);
  g_assert_cmpuint (arr->n_values, ==, 5);

  values[0] = n; values[1] = arr; values[2] = t;
  obj = akc_json_value_new_object (names, values, 3);
  g_assert_cmpuint (akc_json_value_get_member_count (obj), ==, 2);
  akc_assert_canonical (obj, "{\"n\":true,\"s\":[1.5,\"h\\u0000i\",true,null]}");

  parsed = PARSE ("{\"s\":[1.5,\"h\\u0000i\",true,null],\"n\":true}");
  g_assert_true (akc_json_value_equal (obj, parsed));
  obj2 = PARSE ("{\"s\":[1.5,\"h\\u0000i\",true,null],\"n\":false}");
  g_assert_false (akc_json_value_equal (obj, obj2));
  g_assert_false (akc_json_value_equal (n, s));
  {
    g_autoptr(AkcJsonValue) zero = PARSE ("0");
    g_autoptr(AkcJsonValue) negzero = PARSE ("-0");
    g_autoptr(AkcJsonValue) a1 = PARSE ("[1,2]");
    g_autoptr(AkcJsonValue) a2 = PARSE ("[2,1]");
    g_autoptr(AkcJsonValue) s1 = PARSE ("\"a\\u0000b\"");
    g_autoptr(AkcJsonValue) s2 = PARSE ("\"a\\u0000c\"");

    g_assert_true (akc_json_value_equal (zero, negzero));
    g_assert_false (akc_json_value_equal (a1, a2));
    g_assert_false (akc_json_value_equal (s1, s2));
  }

  g_assert_cmpint (akc_json_value_get_kind (z), ==, AKC_JSON_KIND_NULL);
  g_assert_true (akc_json_value_get_boolean (t));
  g_assert_cmpfloat (akc_json_value_get_number (n), ==, 1.5);
  g_assert_true (G_TYPE_IS_BOXED (AKC_TYPE_JSON_VALUE));
  g_assert_true (G_TYPE_IS_ENUM (AKC_TYPE_JSON_KIND));
}

static void
test_large_object_builder (void)
{
  const char *names[24];
  AkcJsonValue *values[24];
  char buf[24][8];
  g_autoptr(AkcJsonValue) obj = NULL;
  guint i;

  for (i = 0; i < 24; i++)
    {
      g_snprintf (buf[i], sizeof buf[i], "m%u", i % 16);   /* 8 duplicates */
      names[i] = buf[i];
      values[i] = akc_json_value_new_number (i);
    }
  obj = akc_json_value_new_object (names, values, 24);
  for (i = 0; i < 24; i++)
    akc_json_value_unref (values[i]);

  g_assert_true (obj->flags & AKC_JSON_FLAG_INDEXED);
  g_assert_cmpuint (akc_json_value_get_member_count (obj), ==, 16);
  for (i = 0; i < 16; i++)
    {
      char name[8];
      double expected = i < 8 ? i + 16 : i;

      g_snprintf (name, sizeof name, "m%u", i);
      g_assert_cmpstr (akc_json_value_get_member_name (obj, i, NULL), ==, name);
      g_assert_cmpfloat (akc_json_value_get_number (akc_json_value_get_member (obj, name)), ==, expected);
    }
  g_assert_null (akc_json_value_get_member (obj, "m16"));
}

static void
test_subvalue_lifetime (void)
{
  AkcJsonValue *root = PARSE ("{\"a\":{\"b\":[\"keep me\"]}}");
  AkcJsonValue *inner = akc_json_value_ref (akc_json_value_get_member (root, "a"));
  AkcJsonValue *copy;

  akc_json_value_unref (root);   /* the arena stays alive through inner */
  akc_assert_canonical (inner, "{\"b\":[\"keep me\"]}");

  copy = g_boxed_copy (AKC_TYPE_JSON_VALUE, inner);
  g_boxed_free (AKC_TYPE_JSON_VALUE, copy);
  akc_json_value_unref (inner);
}

static void
test_public_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) v = akc_json_value_parse ("{\"a\":[1]}", -1, &error);
  AkcJsonValue *bad;

  g_assert_no_error (error);
  g_assert_nonnull (v);

  bad = akc_json_value_parse ("{\"a\":[1]", -1, &error);
  g_assert_null (bad);
  g_assert_error (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_INVALID_JSON);
}

static void
test_json_node (void)
{
  g_autoptr(AkcJsonValue) v = PARSE ("{\"b\":[1,2.5,\"x\",true,null],\"a\":{}}");
  g_autoptr(JsonNode) node = akc_json_value_to_json_node (v);
  g_autoptr(AkcJsonValue) back = akc_json_value_new_from_json_node (node);
  g_autofree char *text = json_to_string (node, FALSE);

  g_assert_nonnull (back);
  g_assert_true (akc_json_value_equal (v, back));
  akc_assert_canonical (back, "{\"b\":[1,2.5,\"x\",true,null],\"a\":{}}");
  g_assert_nonnull (strstr (text, "\"x\""));
}

/* ------------------------------------------------------------------ */
/* Canonical writer                                                    */
/* ------------------------------------------------------------------ */

static void
test_numbers (void)
{
  static const struct { double d; const char *s; } cases[] = {
    { 3, "3" },
    { -0.0, "0" },
    { 0, "0" },
    { 1e21, "1e+21" },
    { 1e20, "100000000000000000000" },
    { 1e-7, "1e-7" },
    { 1.5e-7, "1.5e-7" },
    { 0.000001, "0.000001" },
    { 0.0000015, "0.0000015" },
    { 1.5, "1.5" },
    { -1.5, "-1.5" },
    { 0.1, "0.1" },
    { 0.1 + 0.2, "0.30000000000000004" },
    { 5e-324, "5e-324" },
    { -5e-324, "-5e-324" },
    { 1.7976931348623157e308, "1.7976931348623157e+308" },
    { 123456789012345680000.0, "123456789012345680000" },
    { 9007199254740992.0, "9007199254740992" },
    { 18446744073709551616.0, "18446744073709552000" },
    { 1e100, "1e+100" },
    { 1.23e-18, "1.23e-18" },
    { 0.000012345, "0.000012345" },
    { 100, "100" },
    { -42, "-42" },
    { 123.456, "123.456" },
    { 2.5e-8, "2.5e-8" },
    { 4.35, "4.35" },
    { 1.0 / 3.0, "0.3333333333333333" },
    { 2.0 / 3.0, "0.6666666666666666" },
    { 1e-6 * 1.1, "0.0000011" },
    { 9.999999999999999e20, "999999999999999900000" },
  };
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[AKC_JSON_NUMBER_BUF_SIZE];
      gsize len = akc_json_format_number (cases[i].d, buf);

      g_test_message ("%.17g", cases[i].d);
      g_assert_cmpstr (buf, ==, cases[i].s);
      g_assert_cmpuint (len, ==, strlen (cases[i].s));
    }

  {
    char buf[AKC_JSON_NUMBER_BUF_SIZE];
    akc_json_format_number (INFINITY, buf);
    g_assert_cmpstr (buf, ==, "Infinity");
    akc_json_format_number (-INFINITY, buf);
    g_assert_cmpstr (buf, ==, "-Infinity");
  }
}

static void
test_number_roundtrip (void)
{
  GRand *rand = g_rand_new_with_seed (42);
  guint i;

  for (i = 0; i < 20000; i++)
    {
      union { double d; guint64 u; } x;
      char buf[AKC_JSON_NUMBER_BUF_SIZE];
      g_autoptr(AkcJsonValue) v = NULL;

      x.u = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      if (!isfinite (x.d))
        continue;
      akc_json_format_number (x.d, buf);
      v = parse (buf, strlen (buf));
      g_assert_nonnull (v);
      g_assert_true (akc_json_value_get_number (v) == x.d);
    }

  g_rand_free (rand);
}

static void
test_escapes (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  char all[32];
  int i;

  for (i = 0; i < 32; i++)
    all[i] = (char) i;
  akc_json_append_string (out, all, 32);
  g_assert_cmpstr (out->str, ==,
                   "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
                   "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                   "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                   "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\"");

  g_string_truncate (out, 0);
  akc_json_append_string (out, "/\"\\\x7F\xE2\x80\xA8\xE2\x80\xA9\xF0\x9F\x98\x80", 14);
  g_assert_cmpstr (out->str, ==, "\"/\\\"\\\\\x7F\xE2\x80\xA8\xE2\x80\xA9\xF0\x9F\x98\x80\"");
}

static void
test_member_order (void)
{
  g_autoptr(AkcJsonValue) v = PARSE ("{\"b\":1,\"10\":2,\"a\":3,\"2\":4}");
  g_autoptr(AkcJsonValue) w = PARSE ("{\"01\":1,\"4294967295\":2,\"4294967294\":3,\"-1\":4,\"1.5\":5,\"0\":6,\"x\":{\"9\":0,\"1\":1}}");

  akc_assert_canonical (v, "{\"2\":4,\"10\":2,\"b\":1,\"a\":3}");
  akc_assert_canonical (w, "{\"0\":6,\"4294967294\":3,\"01\":1,\"4294967295\":2,\"-1\":4,\"1.5\":5,\"x\":{\"1\":1,\"9\":0}}");
}

static void
test_writer (void)
{
  g_autoptr(GString) out = g_string_new ("prefix:");
  g_autoptr(AkcJsonValue) frame = PARSE ("{\"z\":1,\"0\":[]}");
  AkcJsonWriter w;

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "kind");
  akc_json_writer_string (&w, "text", -1);
  akc_json_writer_member (&w, "n");
  akc_json_writer_begin_array (&w);
  akc_json_writer_int (&w, -3);
  akc_json_writer_number (&w, 0.5);
  akc_json_writer_boolean (&w, FALSE);
  akc_json_writer_null (&w);
  akc_json_writer_begin_object (&w);
  akc_json_writer_end_object (&w);
  akc_json_writer_begin_array (&w);
  akc_json_writer_end_array (&w);
  akc_json_writer_value (&w, frame);
  akc_json_writer_end_array (&w);
  akc_json_writer_member_len (&w, "a\0b", 3);
  akc_json_writer_number (&w, NAN);
  akc_json_writer_end_object (&w);

  g_assert_cmpstr (out->str, ==,
                   "prefix:{\"kind\":\"text\",\"n\":[-3,0.5,false,null,{},[],{\"0\":[],\"z\":1}],\"a\\u0000b\":null}");

  /* a fresh writer on an emptied buffer writes no leading comma */
  g_string_truncate (out, 0);
  akc_json_writer_init (&w, out);
  akc_json_writer_string (&w, ":", 1);
  g_assert_cmpstr (out->str, ==, "\":\"");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json/parse/reject", test_reject);
  g_test_add_func ("/json/parse/reject-null-empty", test_reject_null_empty);
  g_test_add_func ("/json/parse/accept", test_accept);
  g_test_add_func ("/json/parse/overflow", test_overflow);
  g_test_add_func ("/json/parse/nul-preserved", test_nul_preserved);
  g_test_add_func ("/json/parse/surrogates", test_surrogates);
  g_test_add_func ("/json/parse/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/json/parse/sanitize", test_sanitize);
  g_test_add_func ("/json/parse/deep", test_deep);
  g_test_add_func ("/json/parse/duplicates", test_duplicates);
  g_test_add_func ("/json/value/basics", test_values);
  g_test_add_func ("/json/value/large-object-builder", test_large_object_builder);
  g_test_add_func ("/json/value/subvalue-lifetime", test_subvalue_lifetime);
  g_test_add_func ("/json/value/public-parse", test_public_parse);
  g_test_add_func ("/json/value/json-node", test_json_node);
  g_test_add_func ("/json/writer/numbers", test_numbers);
  g_test_add_func ("/json/writer/number-roundtrip", test_number_roundtrip);
  g_test_add_func ("/json/writer/escapes", test_escapes);
  g_test_add_func ("/json/writer/member-order", test_member_order);
  g_test_add_func ("/json/writer/streaming", test_writer);

  return g_test_run ();
}

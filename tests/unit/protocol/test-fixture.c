/* test-fixture.c: the fixture harness itself (generators, loading)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-fixture.h"
#include "akc-json-private.h"

static AkcJsonValue *
expand_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) v = akc_json_value_parse (text, -1, &error);
  AkcJsonValue *out;

  g_assert_no_error (error);
  out = akc_fixture_expand (v, &error);
  g_assert_no_error (error);
  return out;
}

static void
assert_expands (const char *generator,
                const char *expected)
{
  g_autoptr(AkcJsonValue) v = expand_text (generator);
  g_autoptr(AkcJsonValue) e = akc_json_value_parse (expected, -1, NULL);

  g_assert_nonnull (e);
  akc_assert_json_equal (v, e);
}

static void
test_repeat (void)
{
  g_autoptr(AkcJsonValue) big = expand_text ("{\"$repeat\":\"ab\",\"count\":20000}");
  gsize len;
  const char *s = akc_json_value_get_string (big, &len);

  g_assert_cmpuint (len, ==, 40000);
  g_assert_cmpint (s[39998], ==, 'a');
  g_assert_cmpint (s[39999], ==, 'b');

  assert_expands ("{\"$repeat\":\"x\",\"count\":0}", "\"\"");
  assert_expands ("{\"$repeat\":\"xy\",\"times\":3}", "\"xyxyxy\"");
  assert_expands ("{\"$repeat\":{\"$repeat\":\"a\",\"count\":2},\"count\":2}", "\"aaaa\"");
  assert_expands ("{\"$repeat\":\"\\u0000\",\"count\":2}", "\"\\u0000\\u0000\"");
}

static void
test_concat (void)
{
  assert_expands ("{\"$concat\":[\"a\",{\"$repeat\":\"b\",\"count\":2},\"c\"]}", "\"abbc\"");
  assert_expands ("{\"$concat\":[]}", "\"\"");
}

static void
test_nest (void)
{
  assert_expands ("{\"$nest\":{\"key\":\"k\",\"depth\":0,\"leaf\":1}}", "1");
  assert_expands ("{\"$nest\":{\"key\":\"k\",\"depth\":3,\"leaf\":[true]}}",
                  "{\"k\":{\"k\":{\"k\":[true]}}}");
}

static void
test_array (void)
{
  assert_expands ("{\"$array\":{\"count\":3,\"item\":{\"id\":\"e{i}\",\"n{i}\":[\"{i}{i}\",{\"$repeat\":\"z\",\"count\":2}]}}}",
                  "[{\"id\":\"e0\",\"n0\":[\"00\",\"zz\"]},{\"id\":\"e1\",\"n1\":[\"11\",\"zz\"]},{\"id\":\"e2\",\"n2\":[\"22\",\"zz\"]}]");
  assert_expands ("{\"$repeatItem\":{\"a\":1},\"times\":2}", "[{\"a\":1},{\"a\":1}]");
}

static void
test_nested_and_plain (void)
{
  /* generators anywhere in a tree; objects that merely contain $-names
   * with another shape are left alone */
  assert_expands ("{\"input\":{\"props\":[{\"$repeat\":\"a\",\"count\":1}]},\"x\":{\"$repeat\":\"a\"}}",
                  "{\"input\":{\"props\":[\"a\"]},\"x\":{\"$repeat\":\"a\"}}");
}

static void
test_hex (void)
{
  g_autoptr(AkcJsonValue) v = expand_text ("[\"ab\",{\"$hex\":\"e29c\"}]");
  g_autoptr(GBytes) a = akc_fixture_get_bytes (akc_json_value_get_element (v, 0));
  g_autoptr(GBytes) b = akc_fixture_get_bytes (akc_json_value_get_element (v, 1));
  gsize len;
  const guint8 *data = g_bytes_get_data (b, &len);

  g_assert_cmpuint (g_bytes_get_size (a), ==, 2);
  g_assert_cmpuint (len, ==, 2);
  g_assert_cmpuint (data[0], ==, 0xe2);
  g_assert_cmpuint (data[1], ==, 0x9c);
}

static void
test_malformed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) v = akc_json_value_parse ("{\"$repeat\":\"a\",\"count\":-1}", -1, NULL);
  AkcJsonValue *out = akc_fixture_expand (v, &error);

  g_assert_null (out);
  g_assert_nonnull (error);
}

static void
test_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cases = akc_fixture_load ("protocol/component-frames.json", &error);
  g_autoptr(GPtrArray) app = akc_fixture_load ("application/catalog-props.json", &error);
  const AkcFixtureCase *fc;
  guint i, nested = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (cases->len, ==, 58);
  fc = g_ptr_array_index (cases, 0);
  g_assert_cmpstr (fc->op, ==, "decodeComponentFrame");
  g_assert_cmpstr (fc->input_kind, ==, "text");
  g_assert_true (akc_fixture_expect_ok (fc));

  for (i = 0; i < cases->len; i++)
    {
      fc = g_ptr_array_index (cases, i);
      if (strcmp (fc->name, "props nested 21 levels (depth 21) is rejected") == 0)
        {
          AkcJsonValue *props = akc_json_value_get_member (fc->input, "props");

          g_assert_nonnull (props);
          g_assert_cmpuint (props->height, ==, 21);
          nested++;
        }
    }
  g_assert_cmpuint (nested, ==, 1);

  /* application fixtures: op inside input */
  g_assert_no_error (error);
  g_assert_cmpuint (app->len, ==, 177);
  fc = g_ptr_array_index (app, 0);
  g_assert_cmpstr (fc->op, ==, "validateProps");
}

static guint counted;

static void
count_case (const AkcFixtureCase *fc,
            gconstpointer         user_data)
{
  g_assert_nonnull (fc->name);
  g_assert_cmpstr (fc->op, ==, user_data);
  counted++;
}

static void
test_registered (void)
{
  /* GTest runs sub-suites in the order they were created, so this runs
   * after the 23 tests of "/fixture/cases" (unless those were filtered) */
  if (counted == 0)
    g_test_skip ("fixture cases were not run");
  else
    g_assert_cmpuint (counted, ==, 23);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fixture/generators/repeat", test_repeat);
  g_test_add_func ("/fixture/generators/concat", test_concat);
  g_test_add_func ("/fixture/generators/nest", test_nest);
  g_test_add_func ("/fixture/generators/array", test_array);
  g_test_add_func ("/fixture/generators/nested-and-plain", test_nested_and_plain);
  g_test_add_func ("/fixture/generators/hex", test_hex);
  g_test_add_func ("/fixture/generators/malformed", test_malformed);
  g_test_add_func ("/fixture/load", test_load);
  g_assert_cmpuint (akc_fixture_add_tests ("protocol/ask-events.json", "/fixture/cases",
                                           "decodeAskRecord", count_case, "decodeAskRecord"), ==, 23);
  g_test_add_func ("/fixture/zz/registered", test_registered);

  return g_test_run ();
}

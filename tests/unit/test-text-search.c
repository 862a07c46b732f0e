/* test-text-search.c: what the find of a transcript matches
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <akc.h>

/* Checks that @query finds exactly @expected (start, end pairs, ended by
 * -1) in @text of @length bytes. */
static void
assert_matches (const char *query,
                const char *text,
                gssize      length,
                ...)
{
  g_autoptr(AkcTextSearch) search = akc_text_search_new (query);
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree gsize *offsets = NULL;
  gsize n_offsets = 99;
  va_list args;
  int value;

  va_start (args, length);
  while ((value = va_arg (args, int)) >= 0)
    {
      gsize offset = (gsize) value;

      g_array_append_val (expected, offset);
    }
  va_end (args);

  offsets = akc_text_search_find_all (search, text, length, &n_offsets);
  g_assert_cmpuint (n_offsets, ==, expected->len);
  g_assert_cmpuint (akc_text_search_count (search, text, length), ==, expected->len / 2);
  if (expected->len == 0)
    g_assert_null (offsets);
  for (guint i = 0; i < expected->len; i++)
    g_assert_cmpuint (offsets[i], ==, g_array_index (expected, gsize, i));
}

static void
test_empty (void)
{
  g_autoptr(AkcTextSearch) none = akc_text_search_new (NULL);
  g_autoptr(AkcTextSearch) empty = akc_text_search_new ("");
  g_autoptr(AkcTextSearch) word = akc_text_search_new ("word");
  gsize n = 99;

  g_assert_true (akc_text_search_is_empty (none));
  g_assert_cmpstr (akc_text_search_get_query (none), ==, "");
  g_assert_true (akc_text_search_is_empty (empty));
  g_assert_false (akc_text_search_is_empty (word));
  g_assert_cmpstr (akc_text_search_get_query (word), ==, "word");

  g_assert_cmpuint (akc_text_search_count (empty, "anything", -1), ==, 0);
  g_assert_null (akc_text_search_find_all (empty, "anything", -1, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (akc_text_search_count (word, NULL, -1), ==, 0);
  g_assert_cmpuint (akc_text_search_count (word, "", -1), ==, 0);
  g_assert_cmpuint (akc_text_search_count (word, "wor", -1), ==, 0);

  /* A query that is not UTF-8 is no query. */
  g_autoptr(AkcTextSearch) invalid = akc_text_search_new ("\xff\xfe");
  g_assert_true (akc_text_search_is_empty (invalid));
}

static void
test_case (void)
{
  assert_matches ("hello", "Hello hello HELLO", -1, 0, 5, 6, 11, 12, 17, -1);
  assert_matches ("HeLLo", "say hello", -1, 4, 9, -1);
  /* Non-ASCII capitals: É and é are one letter. */
  assert_matches ("ÉTÉ", "un été", -1, 3, 8, -1);
  /* Final sigma folds as sigma. */
  assert_matches ("σίσυφος", "ΣΊΣΥΦΟΣ", -1, 0, 14, -1);
  assert_matches ("missing", "nothing here", -1, -1);
}

static void
test_overlap (void)
{
  /* From the start on, without overlaps. */
  assert_matches ("aa", "aaaaa", -1, 0, 2, 2, 4, -1);
  assert_matches ("aba", "ababa", -1, 0, 3, -1);
}

static void
test_expansions (void)
{
  /* ß folds to "ss": the match covers the whole character. */
  assert_matches ("STRASSE", "Straße", -1, 0, 7, -1);
  assert_matches ("ss", "Maße", -1, 2, 4, -1);
  /* Both halves of one "ß" are one match. */
  assert_matches ("s", "ß", -1, 0, 2, -1);
  /* A compatibility ligature: "ﬁ" is "fi". */
  assert_matches ("file", "\xef\xac\x81le", -1, 0, 5, -1);
  assert_matches ("ﬁ", "fine", -1, 0, 2, -1);
}

static void
test_normalization (void)
{
  /* Composed and decomposed forms of é find each other. */
  assert_matches ("café", "cafe\xcc\x81!", -1, 0, 6, -1);
  assert_matches ("cafe\xcc\x81", "Café", -1, 0, 5, -1);
  /* An accent is part of the letter: "e" alone finds the letter it is on. */
  assert_matches ("cafe", "café", -1, 0, 5, -1);
}

static void
test_bytes (void)
{
  /* U+0000 inside text of a given length. */
  assert_matches ("a", "a\0b a", 5, 0, 1, 4, 5, -1);
  /* Bytes that are not UTF-8 never match, and never hide what follows. */
  assert_matches ("abc", "\xff" "abc\xc3", -1, 1, 4, -1);
  /* A length that ends inside the text. */
  assert_matches ("b", "abcb", 2, 1, 2, -1);
}

static void
test_ref (void)
{
  AkcTextSearch *search = akc_text_search_new ("x");
  AkcTextSearch *other = akc_text_search_ref (search);

  g_assert_true (search == other);
  akc_text_search_unref (other);
  g_assert_cmpstr (akc_text_search_get_query (search), ==, "x");
  g_assert_true (G_TYPE_IS_BOXED (AKC_TYPE_TEXT_SEARCH));
  akc_text_search_unref (search);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/text-search/empty", test_empty);
  g_test_add_func ("/text-search/case", test_case);
  g_test_add_func ("/text-search/overlap", test_overlap);
  g_test_add_func ("/text-search/expansions", test_expansions);
  g_test_add_func ("/text-search/normalization", test_normalization);
  g_test_add_func ("/text-search/bytes", test_bytes);
  g_test_add_func ("/text-search/ref", test_ref);

  return g_test_run ();
}

/* akc-text-search.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-text-search.h"

/**
 * AkcTextSearch:
 *
 * What a person looks for in a conversation, ready to be found in text:
 * the find bar of a transcript counts and highlights its matches with it.
 *
 * Matching ignores case and compatibility forms, the way people expect a
 * find to: the query and the text are compared character by character
 * after Unicode compatibility decomposition (NFKD) and case folding
 * ([func@GLib.utf8_normalize], [func@GLib.utf8_casefold]), so "STRASSE"
 * finds "Straße", "café" written with a combining accent finds "café" and "ﬁle" finds "file". A
 * match always covers whole characters of the text: when one character
 * of the text folds to several ("ß" to "ss"), a match of a part of it
 * covers all of it.
 *
 * Matches do not overlap; they are found from the start of the text on.
 * Offsets are in bytes, so they can be used for Pango attributes and for
 * [struct@GLib.String] edits alike. Text may contain U+0000 when its
 * length is given. Bytes that are not UTF-8 never match.
 *
 * The matching needs no display: it is what the chat view's find uses,
 * and a headless host can use it too.
 *
 * Since: 0.1
 */

struct _AkcTextSearch
{
  gatomicrefcount  ref_count;
  char            *query;
  GString         *folded;   /* the query, folded */
};

G_DEFINE_BOXED_TYPE (AkcTextSearch, akc_text_search, akc_text_search_ref, akc_text_search_unref)

/* Appends @c as it is compared: decomposed, case-folded, decomposed
 * again (folding can produce characters that decompose). */
static void
fold_char (gunichar  c,
           GString  *out)
{
  char buf[8];
  int n;
  g_autofree char *decomposed = NULL;
  g_autofree char *folded = NULL;
  g_autofree char *again = NULL;

  if (c < 0x80)
    {
      g_string_append_c (out, g_ascii_tolower ((char) c));
      return;
    }

  n = g_unichar_to_utf8 (c, buf);
  decomposed = g_utf8_normalize (buf, n, G_NORMALIZE_ALL);
  folded = g_utf8_casefold (decomposed != NULL ? decomposed : buf, decomposed != NULL ? -1 : n);
  again = g_utf8_normalize (folded, -1, G_NORMALIZE_ALL);
  g_string_append (out, again != NULL ? again : folded);
}

/* Folds @text; when @starts and @ends are given, they get for each byte
 * of the result the offsets of the character of @text it comes from. */
static GString *
fold_text (const char *text,
           gsize       length,
           GArray     *starts,
           GArray     *ends)
{
  GString *out = g_string_sized_new (length + 1);
  const char *p = text;
  const char *end = text + length;

  while (p < end)
    {
      gsize before = out->len;
      gunichar c = (guchar) *p;
      const char *next = p + 1;

      if (c >= 0x80)
        c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        /* Not UTF-8: a byte that never matches (a folded query is UTF-8,
         * and 0xFF never is). */
        g_string_append_c (out, '\xff');
      else
        {
          if (c >= 0x80)
            next = g_utf8_next_char (p);
          fold_char (c, out);
        }

      if (starts != NULL)
        for (gsize i = before; i < out->len; i++)
          {
            gsize s = (gsize) (p - text), e = (gsize) (next - text);

            g_array_append_val (starts, s);
            g_array_append_val (ends, e);
          }
      p = next;
    }

  return out;
}

/**
 * akc_text_search_new:
 * @query: (nullable): what to look for, as typed; %NULL is the empty query
 *
 * Makes a search for @query. An empty query (or one that is not UTF-8)
 * matches nothing.
 *
 * Returns: (transfer full): a new #AkcTextSearch
 *
 * Since: 0.1
 */
AkcTextSearch *
akc_text_search_new (const char *query)
{
  AkcTextSearch *self = g_new0 (AkcTextSearch, 1);

  g_atomic_ref_count_init (&self->ref_count);
  if (query == NULL || !g_utf8_validate (query, -1, NULL))
    query = "";
  self->query = g_strdup (query);
  self->folded = fold_text (self->query, strlen (self->query), NULL, NULL);

  return self;
}

/**
 * akc_text_search_ref:
 * @self: a #AkcTextSearch
 *
 * Takes a reference.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcTextSearch *
akc_text_search_ref (AkcTextSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * akc_text_search_unref:
 * @self: (transfer full): a #AkcTextSearch
 *
 * Drops a reference; the last one frees the search.
 *
 * Since: 0.1
 */
void
akc_text_search_unref (AkcTextSearch *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_string_free (self->folded, TRUE);
  g_free (self->query);
  g_free (self);
}

/**
 * akc_text_search_get_query:
 * @self: a #AkcTextSearch
 *
 * Gets the query, as it was given (the empty string for %NULL).
 *
 * Returns: the query
 *
 * Since: 0.1
 */
const char *
akc_text_search_get_query (AkcTextSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->query;
}

/**
 * akc_text_search_is_empty:
 * @self: a #AkcTextSearch
 *
 * Gets whether the query is empty, so that it matches nothing.
 *
 * Returns: %TRUE for an empty query
 *
 * Since: 0.1
 */
gboolean
akc_text_search_is_empty (AkcTextSearch *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return self->folded->len == 0;
}

static const char *
find_bytes (const char *haystack,
            gsize       haystack_len,
            const char *needle,
            gsize       needle_len)
{
  const char *p = haystack;
  const char *last;

  if (needle_len == 0 || needle_len > haystack_len)
    return NULL;

  last = haystack + haystack_len - needle_len;
  while (p <= last)
    {
      p = memchr (p, needle[0], (gsize) (last - p) + 1);
      if (p == NULL)
        return NULL;
      if (memcmp (p, needle, needle_len) == 0)
        return p;
      p++;
    }

  return NULL;
}

/* The matches of @self in @text, as pairs of byte offsets. */
static GArray *
find_matches (AkcTextSearch *self,
              const char    *text,
              gssize         length)
{
  g_autoptr(GArray) starts = NULL;
  g_autoptr(GArray) ends = NULL;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GString) folded = NULL;
  gsize from = 0;
  gsize previous_end = 0;

  if (text == NULL || self->folded->len == 0)
    return g_steal_pointer (&found);

  if (length < 0)
    length = (gssize) strlen (text);

  starts = g_array_sized_new (FALSE, FALSE, sizeof (gsize), (guint) length);
  ends = g_array_sized_new (FALSE, FALSE, sizeof (gsize), (guint) length);
  folded = fold_text (text, (gsize) length, starts, ends);

  while (from < folded->len)
    {
      const char *hit = find_bytes (folded->str + from, folded->len - from,
                                    self->folded->str, self->folded->len);
      gsize at, start, end;

      if (hit == NULL)
        break;

      at = (gsize) (hit - folded->str);
      start = g_array_index (starts, gsize, at);
      end = g_array_index (ends, gsize, at + self->folded->len - 1);
      from = at + self->folded->len;

      /* Two matches inside one character of the text are one. */
      if (found->len > 0 && start < previous_end)
        continue;

      g_array_append_val (found, start);
      g_array_append_val (found, end);
      previous_end = end;
    }

  return g_steal_pointer (&found);
}

/**
 * akc_text_search_count:
 * @self: a #AkcTextSearch
 * @text: (nullable): the text to search
 * @length: the length of @text in bytes, or -1 when it ends with a NUL
 *
 * Counts the matches of the query in @text.
 *
 * Returns: the number of matches
 *
 * Since: 0.1
 */
guint
akc_text_search_count (AkcTextSearch *self,
                       const char    *text,
                       gssize         length)
{
  g_autoptr(GArray) found = NULL;

  g_return_val_if_fail (self != NULL, 0);

  found = find_matches (self, text, length);
  return found->len / 2;
}

/**
 * akc_text_search_find_all:
 * @self: a #AkcTextSearch
 * @text: (nullable): the text to search
 * @length: the length of @text in bytes, or -1 when it ends with a NUL
 * @n_offsets: (out): the number of offsets returned, twice the number
 *   of matches
 *
 * Finds every match of the query in @text, from its start on.
 *
 * Returns: (array length=n_offsets) (transfer full) (nullable): the
 *   start and end byte offsets of each match, in pairs and in order, or
 *   %NULL when there is none
 *
 * Since: 0.1
 */
gsize *
akc_text_search_find_all (AkcTextSearch *self,
                          const char    *text,
                          gssize         length,
                          gsize         *n_offsets)
{
  g_autoptr(GArray) found = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_offsets != NULL, NULL);

  found = find_matches (self, text, length);
  *n_offsets = found->len;
  if (found->len == 0)
    return NULL;

  return (gsize *) g_array_free (g_steal_pointer (&found), FALSE);
}

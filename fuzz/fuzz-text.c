/* fuzz-text.c: libFuzzer target for SafeHref and knowledge-key normalisation
 * (protocol.md §1.6, §8.1)
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *
normalize (const char *s,
           gsize       len,
           gsize      *out_len)
{
  char *key = akc_text_normalize_key (s, len, out_len);

  g_assert (key != NULL);
  g_assert (akc_utf8_valid_prefix (key, *out_len) == *out_len);
  return key;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *sanitised = NULL;
  g_autofree char *once = NULL;
  g_autofree char *twice = NULL;
  g_autofree char *thrice = NULL;
  const char *text = size > 0 ? (const char *) data : "";
  gsize len, once_len, twice_len, thrice_len;
  gboolean safe;

  /* The text rules take valid UTF-8 (the JSON layer guarantees it). */
  sanitised = akc_utf8_sanitize (text, size, &len);
  if (sanitised != NULL)
    text = sanitised;

  safe = akc_text_is_safe_href (text, len);
  if (memchr (text, '\0', len) == NULL)
    {
      g_autofree char *copy = g_strndup (text, len);

      g_assert (akc_is_safe_href (copy) == safe);
    }

  /* The key is trimmed, white space collapsed to single spaces. */
  once = normalize (text, len, &once_len);
  if (once_len > 0)
    {
      g_assert (akc_text_ws_prefix_len (once, once_len) == 0);
      g_assert (once[once_len - 1] != ' ');
    }
  for (const char *p = once; p < once + once_len; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_assert (!akc_text_is_ws (c) || c == ' ');
      g_assert (!(c == ' ' && p[1] == ' '));
    }

  /* Idempotent on its own output, except where lower-casing left text that
   * NFKC composes further (e.g. "H\u0331" -> "h\u0331" -> "\u1e96"; the
   * reference does the same, §8.1 applies nothing after lower-casing);
   * after that second pass it is stable. */
  twice = normalize (once, once_len, &twice_len);
  if (memchr (once, '\0', once_len) == NULL)
    {
      g_autofree char *nfkc = g_utf8_normalize (once, once_len, G_NORMALIZE_NFKC);

      if (nfkc != NULL && strlen (nfkc) == once_len && memcmp (nfkc, once, once_len) == 0)
        g_assert (twice_len == once_len && memcmp (twice, once, once_len) == 0);
    }
  thrice = normalize (twice, twice_len, &thrice_len);
  g_assert (thrice_len == twice_len && memcmp (thrice, twice, twice_len) == 0);

  return 0;
}

/* akc-knowledge-key.c: public entry points for two wire-protocol text rules
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-knowledge-key.h"
#include "akc-text-private.h"

/**
 * akc_normalize_knowledge_key:
 * @text: a UTF-8 string
 *
 * Normalises @text into the key that the deterministic answer plane matches
 * exactly (`normalizeKnowledgeKey`, [protocol §8.1](wire-formats.html#protocol-8)).
 *
 * The steps are, in order: Unicode NFKC normalisation; trimming of the
 * ECMAScript white-space and line-terminator set (which, unlike
 * [func@GLib.unichar_isspace], contains U+000B and U+FEFF but not U+0085);
 * replacement of every run of such white space by a single space; and Unicode
 * default full lower-casing, including U+0130 → "i̇" and the Final_Sigma rule
 * for U+03A3.
 *
 * The result never depends on the locale: unlike [func@GLib.utf8_strdown],
 * a Turkish, Azeri or Lithuanian `LC_CTYPE` does not change how "I" or "İ"
 * are lower-cased. For example `"  ＩＮＳＴＡＬＬ\n CLI  "` becomes
 * `"install cli"`.
 *
 * Returns: (transfer full): the normalised key, a newly allocated string
 *
 * Since: 0.1
 */
char *
akc_normalize_knowledge_key (const char *text)
{
  gsize len;

  g_return_val_if_fail (text != NULL, NULL);

  len = strlen (text);
  g_return_val_if_fail (g_utf8_validate_len (text, len, NULL), NULL);

  return akc_text_normalize_key (text, len, NULL);
}

/**
 * akc_is_safe_href:
 * @href: a string
 *
 * Checks whether @href may be used as a link target in protocol data
 * (`SafeHref`, [protocol §1.6](wire-formats.html#protocol-1)).
 *
 * A safe link is 1 to 2048 UTF-16 code units long, holds no control
 * character and no backslash, and is either a root-relative path such as
 * `/docs` (but not a protocol-relative `//host` reference) or an absolute
 * `http` or `https` URL, as parsed by the WHATWG URL Standard, without a user
 * name or password. Relative references such as `docs/x`, `./x`, `#x` or
 * `?q`, and every other scheme (`javascript:`, `mailto:`, `ftp:`, …) are
 * not safe.
 *
 * Internationalised host names are checked approximately: full UTS #46
 * processing is not performed.
 *
 * Returns: %TRUE if @href is safe, %FALSE otherwise (also when @href is not
 *   valid UTF-8)
 *
 * Since: 0.1
 */
gboolean
akc_is_safe_href (const char *href)
{
  gsize len;

  g_return_val_if_fail (href != NULL, FALSE);

  len = strlen (href);
  if (!g_utf8_validate_len (href, len, NULL))
    return FALSE;

  return akc_text_is_safe_href (href, len);
}

/**
 * akc_safe_href_dup_host:
 * @href: a string
 *
 * Gets the host that @href leads to when it is a safe absolute link
 * (see [func@is_safe_href]): the host a browser, which parses links with
 * the WHATWG URL Standard, connects to. Use it to show a person where a
 * link really goes, whatever its text says.
 *
 * The host is lower-cased and percent-decoded, an IPv4 address is written
 * in dotted decimal (`http://0x7f.1/` leads to `127.0.0.1`), and an
 * internationalised domain is given in its ASCII (Punycode) form, so a
 * look-alike of another name shows as what it is (its Unicode mapping is
 * approximated, as [func@is_safe_href] checks it). The port is not part of
 * it.
 *
 * Returns: (transfer full) (nullable): the host, or %NULL when @href is
 *   not safe or is a root-relative path, which has no host of its own
 *
 * Since: 0.1
 */
char *
akc_safe_href_dup_host (const char *href)
{
  gsize len;

  g_return_val_if_fail (href != NULL, NULL);

  len = strlen (href);
  if (!g_utf8_validate_len (href, len, NULL) || !akc_text_is_safe_href (href, len))
    return NULL;

  /* Safe and not root-relative: an absolute http(s) URL. */
  if (href[0] == '/')
    return NULL;

  return akc_url_safe_absolute_http_host (href, len);
}

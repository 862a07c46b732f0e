/* fuzz-json.c: libFuzzer target for the strict JSON parser and the canonical writer
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc-json-private.h"
#include "akc-json-scan-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(AkcJsonValue) again = NULL;
  g_autoptr(GString) canonical = NULL;
  AkcJsonParseStatus status = AKC_JSON_PARSE_OK;
  gsize offset = 0;
  const char * const *scanners = akc_json_scan_list ();
  g_autofree char *in_use = g_strdup (akc_json_scan_get_implementation ());

  value = akc_json_parse ((const char *) data, size, NULL, &status, &offset);

  /* Every other string scanner this build has and this processor runs
   * decodes the input alike, errors and their offsets included. */
  for (guint s = 0; scanners[s] != NULL; s++)
    {
      g_autoptr(AkcJsonValue) other = NULL;
      AkcJsonParseStatus other_status = AKC_JSON_PARSE_OK;
      gsize other_offset = 0;

      if (g_str_equal (scanners[s], in_use) || !akc_json_scan_set_implementation (scanners[s]))
        continue;
      other = akc_json_parse ((const char *) data, size, NULL, &other_status, &other_offset);
      g_assert ((value == NULL) == (other == NULL));
      if (value == NULL)
        g_assert (other_status == status && other_offset == offset);
      else
        g_assert (akc_json_value_equal (value, other));
    }
  g_assert (akc_json_scan_set_implementation (in_use));

  if (value == NULL)
    return 0;

  /* Whatever parses re-encodes to canonical text that parses to an equal
   * value (non-finite numbers are written as null, as JSON.stringify does). */
  canonical = g_string_new (NULL);
  akc_json_append_value (canonical, value);
  again = akc_json_parse (canonical->str, canonical->len, NULL, &status, NULL);
  g_assert (again != NULL);
  if ((value->flags & AKC_JSON_FLAG_NONFINITE) == 0)
    g_assert (akc_json_value_equal (value, again));

  return 0;
}

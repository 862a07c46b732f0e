/* fuzz-json.c: libFuzzer target for the strict JSON parser and the canonical writer
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(AkcJsonValue) again = NULL;
  g_autoptr(GString) canonical = NULL;
  AkcJsonParseStatus status;

  value = akc_json_parse ((const char *) data, size, NULL, &status, NULL);
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

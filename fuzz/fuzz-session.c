/* fuzz-session.c: libFuzzer target for session snapshots (protocol.md §5)
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc.h"
#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(AkcJsonValue) parsed = NULL;

  snapshot = akc_session_snapshot_decode ((const char *) data, (gssize) size, &diagnostic);
  g_assert ((snapshot == NULL) != (diagnostic == NULL));

  /* the value form agrees with the text form */
  parsed = akc_json_parse ((const char *) data, size, NULL, NULL, NULL);
  if (parsed != NULL)
    {
      g_autoptr(AkcDiagnostic) d2 = NULL;
      g_autoptr(AkcJsonValue) v2 = akc_session_snapshot_decode_value (parsed, &d2);

      if (snapshot != NULL)
        g_assert (v2 != NULL && akc_json_value_equal (v2, snapshot));
      else
        g_assert (v2 == NULL && akc_diagnostic_equal (d2, diagnostic));
    }

  /* what decodes is a v1 snapshot that encodes and decodes to itself */
  if (snapshot != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcJsonValue) again = NULL;
      g_autofree char *text = NULL;
      gsize len;

      text = akc_session_snapshot_encode (snapshot, &len, &error);
      g_assert (text != NULL && error == NULL);
      again = akc_session_snapshot_decode (text, (gssize) len, NULL);
      g_assert (again != NULL && akc_json_value_equal (again, snapshot));
    }

  return 0;
}

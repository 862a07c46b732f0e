/* fuzz-content.c: libFuzzer target for ordered assistant content
 * (protocol.md §4): the one-shot decoder, the incremental decoder at
 * data-derived split points, and the encoder round trip
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc-assistant-content.h"
#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* {"complete":…,"parts":…} or the diagnostic, as text. */
static char *
describe (AkcAssistantContentDecoder *decoder)
{
  AkcDiagnostic *d = akc_assistant_content_decoder_get_diagnostic (decoder);
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autofree char *text = NULL;

  if (d != NULL)
    return akc_diagnostic_to_canonical (d, NULL);
  parts = akc_assistant_content_decoder_dup_parts (decoder);
  text = akc_json_value_to_canonical (parts, NULL);
  return g_strdup_printf ("%d%s", akc_assistant_content_decoder_get_complete (decoder), text);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *sanitized = NULL;
  g_autoptr(AkcAssistantContentDecoder) whole = akc_assistant_content_decoder_new ();
  g_autoptr(AkcAssistantContentDecoder) pieces = akc_assistant_content_decoder_new ();
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  const char *text;
  gboolean complete = FALSE;
  gsize len, pos = 0, k = 0;

  parts = akc_assistant_content_decode ((const char *) data, size, &complete, &diagnostic);
  g_assert ((parts == NULL) != (diagnostic == NULL));
  g_assert (akc_assistant_content_is_candidate ((const char *) data, size) || parts == NULL);

  /* Pieces are text on their own: cut the sanitised text at character
   * boundaries chosen by the data. */
  sanitized = akc_utf8_sanitize ((const char *) data, size, &len);
  text = sanitized != NULL ? sanitized : (const char *) data;
  akc_assistant_content_decoder_append (whole, text, len);

  while (pos < len)
    {
      gsize step = 1 + (size > 0 ? data[k++ % size] % 40 : 0);
      gsize next = MIN (pos + step, len);

      while (next < len && ((guchar) text[next] & 0xC0) == 0x80)
        next++;
      akc_assistant_content_decoder_append (pieces, text + pos, next - pos);
      pos = next;
    }

  a = describe (whole);
  b = describe (pieces);
  g_assert (strcmp (a, b) == 0);

  /* Accepted parts re-encode into content that decodes to them. */
  if (parts != NULL && akc_json_value_get_length (parts) > 0)
    {
      g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (FALSE);
      g_autoptr(GString) out = g_string_new (NULL);
      g_autoptr(AkcJsonValue) again = NULL;
      gboolean complete2 = FALSE;

      for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
        {
          g_autofree char *record = akc_assistant_content_encoder_encode (encoder, akc_json_value_get_element (parts, i), NULL, NULL);

          g_assert (record != NULL);
          g_string_append (out, record);
        }
      again = akc_assistant_content_decode (out->str, out->len, &complete2, NULL);
      g_assert (again != NULL && complete2);
      g_assert (akc_json_value_equal (again, parts));
    }

  return 0;
}

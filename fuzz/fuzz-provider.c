/* fuzz-provider.c: libFuzzer target for the provider adapters' streams
 * (issue 15): bytes in arbitrary pieces through the line framer (SSE or
 * NDJSON) into the OpenAI, Ollama and Anthropic decoders, and the error
 * bodies and model lists of their HTTP answers
 *
 * SPDX-License-Identifier: MIT
 *
 * Input: byte 0 picks the protocol (0 OpenAI, 1 Ollama, 2 Anthropic, 3 an
 * HTTP error body and a model list), byte 1 the size of the pieces the
 * rest is fed in (0: whole). Every text chunk must be valid UTF-8 and
 * every tool call's arguments too; the decoder never holds more than its
 * bounds.
 */

#include <stdint.h>
#include <string.h>

#include "akc.h"
#include "akc-provider-codec-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_chunk (AkcChunk *chunk,
             gpointer  user_data)
{
  gsize length;
  const char *text;

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &length);
      g_assert (g_utf8_validate_len (text, length, NULL));
      break;
    case AKC_CHUNK_TOOL_CALL:
      g_assert (g_utf8_validate (akc_chunk_get_arguments (chunk), -1, NULL));
      g_assert (g_utf8_validate (akc_chunk_get_tool_name (chunk), -1, NULL));
      g_assert (akc_chunk_get_tool_call_id (chunk) != NULL);
      break;
    default:
      break;
    }
}

static AkcFrameResult
frame (const AkcFrame  *frame,
       gpointer         user_data,
       GError         **error)
{
  AkcProviderDecoder *decoder = user_data;
  AkcFrameResult result = akc_provider_decoder_frame (decoder, frame, error);

  g_assert (result != AKC_FRAME_FAILED || (error != NULL && *error != NULL));
  g_assert (akc_provider_decoder_retained (decoder) <=
            AKC_PROVIDER_MAX_TOOL_CALLS * (AKC_PROVIDER_MAX_ARGUMENT_BYTES + AKC_PROVIDER_MAX_TOOL_NAME) + 4);
  return result;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  AkcProviderKind kind;
  gsize piece, pos = 0;

  if (size < 2)
    return 0;

  piece = data[1];
  if (data[0] % 4 == 3)
    {
      gint64 retry;
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) models_error = NULL;
      g_auto(GStrv) models = NULL;

      for (guint k = 0; k < 3; k++)
        {
          g_clear_error (&error);
          error = akc_provider_http_error (k, 400 + piece, "model", "http://127.0.0.1:1", "5",
                                           data + 2, size - 2, &retry);
          g_assert (error != NULL && g_utf8_validate (error->message, -1, NULL));
          g_clear_pointer (&models, g_strfreev);
          g_clear_error (&models_error);
          models = akc_provider_parse_models (k, data + 2, size - 2, &models_error);
          g_assert ((models == NULL) == (models_error != NULL));
        }
      return 0;
    }

  kind = data[0] % 4;
  data += 2;
  size -= 2;

  {
    g_autoptr(AkcProviderDecoder) decoder = akc_provider_decoder_new (kind, check_chunk, NULL);
    g_autoptr(AkcLineFramer) framer = akc_line_framer_new (akc_provider_decoder_framing (kind), frame, decoder);
    g_autoptr(GError) error = NULL;
    AkcFrameResult result = AKC_FRAME_CONTINUE;

    akc_line_framer_set_limits (framer, 4096, 8192, 10000);
    while (pos < size && result == AKC_FRAME_CONTINUE)
      {
        gsize n = piece == 0 ? size : MIN (piece, size - pos);

        result = akc_line_framer_feed (framer, data + pos, n, &error);
        g_assert (akc_line_framer_get_retained (framer) <= 4096 + 8192 + 4096 + 2);
        pos += n;
      }
    if (result == AKC_FRAME_CONTINUE)
      result = akc_line_framer_finish (framer, &error);
    g_assert ((result == AKC_FRAME_FAILED) == (error != NULL));
    g_assert ((result == AKC_FRAME_END) == akc_provider_decoder_ended (decoder) || result == AKC_FRAME_FAILED);
  }

  return 0;
}

/* fuzz-ask-events.c: libFuzzer target for the Ask NDJSON decoder
 * (protocol.md §6.2, §6.3): the stream driver fed in chunks split at
 * data-derived positions must give exactly what one decoder call gives
 *
 * SPDX-License-Identifier: MIT
 */

#include <stdint.h>
#include <string.h>

#include "akc-ask-events.h"
#include "akc-ask-events-private.h"
#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static char *
events_text (GPtrArray *events)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < events->len; i++)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      akc_json_append_value (s, g_ptr_array_index (events, i));
    }
  g_string_append_c (s, ']');

  return g_string_free (s, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(AkcAskEventDecoder) decoder = akc_ask_event_decoder_new ();
  g_autoptr(GPtrArray) streamed = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) last = NULL;
  g_autoptr(GPtrArray) oneshot = NULL;
  g_autoptr(GPtrArray) single = NULL;
  g_autofree char *buffer = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  gsize rest_len = 0, lines = 0, pos = 0, k = 0;
  gboolean discarded = FALSE;

  /* The equivalence holds while no call passes the record budget and no
   * partial passes the record limit (§6.2). */
  for (gsize i = 0; i < size; i++)
    lines += data[i] == '\n';
  if (lines >= AKC_ASK_EVENT_MAX_RECORDS || size > AKC_ASK_EVENT_MAX_RECORD_BYTES / 3)
    return 0;

  /* One call on the whole body with the final LF of the driver. */
  buffer = g_malloc (size + 1);
  memcpy (buffer, data, size);
  buffer[size] = '\n';
  oneshot = akc_ask_events_decode (buffer, size + 1, &rest, &rest_len, &discarded);
  g_assert (rest_len == 0 && !discarded);

  /* The driver, cut where the data says (inside UTF-8 sequences too). */
  while (pos < size)
    {
      gsize step = size > 0 ? (data[k % size] * 7u + k) % 23 : 1;

      k++;
      step = MIN (step, size - pos);
      akc_ask_event_decoder_feed_into (decoder, data + pos, step, streamed);
      g_assert (akc_ask_event_decoder_get_pending_size (decoder) <= AKC_ASK_EVENT_MAX_RECORD_BYTES);
      g_assert (akc_ask_event_decoder_get_retained_size (decoder) <= AKC_ASK_EVENT_MAX_RECORD_BYTES + 3);
      pos += step;
    }
  last = akc_ask_event_decoder_finish (decoder);
  g_ptr_array_extend_and_steal (streamed, g_steal_pointer (&last));

  a = events_text (oneshot);
  b = events_text (streamed);
  g_assert (strcmp (a, b) == 0);

  /* One feed without the flush is one call without the LF. */
  g_clear_pointer (&rest, g_free);
  g_clear_pointer (&oneshot, g_ptr_array_unref);
  g_clear_pointer (&a, g_free);
  g_clear_pointer (&b, g_free);
  oneshot = akc_ask_events_decode ((const char *) data, size, &rest, &rest_len, &discarded);
  single = akc_ask_event_decoder_feed (decoder, data, size);
  a = events_text (oneshot);
  b = events_text (single);
  g_assert (strcmp (a, b) == 0);
  /* the pending size leaves out a UTF-8 sequence cut at the end, which
   * one call replaces by U+FFFD */
  g_assert (akc_ask_event_decoder_get_pending_size (decoder) == rest_len ||
            akc_ask_event_decoder_get_pending_size (decoder) + 3 == rest_len);

  /* Every event re-encodes to one line that decodes to itself. */
  for (guint i = 0; i < single->len; i++)
    {
      gsize n;
      g_autofree char *line = akc_ask_event_encode (g_ptr_array_index (single, i), &n);
      g_autoptr(AkcJsonValue) again = NULL;

      g_assert (line != NULL && n > 0 && line[n - 1] == '\n');
      again = akc_ask_event_decode (line, n - 1);
      g_assert (again != NULL && akc_json_value_equal (again, g_ptr_array_index (single, i)));
    }

  return 0;
}

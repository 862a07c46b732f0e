/* fuzz-turn.c: libFuzzer target for the turn protocol (protocol.md §2):
 * the decoder, the encoder round trip, message records, and the
 * incremental decoder checked differentially against the full one
 *
 * SPDX-License-Identifier: MIT
 *
 * Input: one text, or two texts separated by a U+001E byte. The decoder
 * first sees text A (the whole input when there is no separator) and then
 * text B (a copy of A with one byte changed three quarters in, which is
 * where the last message of a snapshot usually is); its result for B must
 * be exactly the stateless decoder's.
 */

#include <stdint.h>
#include <string.h>

#include "akc.h"
#include "akc-json-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
assert_same (AkcJsonValue  *a,
             AkcDiagnostic *da,
             AkcJsonValue  *b,
             AkcDiagnostic *db)
{
  if (a == NULL)
    {
      g_assert (b == NULL);
      g_assert (akc_diagnostic_equal (da, db));
    }
  else
    {
      g_autofree char *ca = akc_json_value_to_canonical (a, NULL);
      g_autofree char *cb = NULL;

      g_assert (b != NULL);
      cb = akc_json_value_to_canonical (b, NULL);
      g_assert (strcmp (ca, cb) == 0);
    }
}

static void
check_event (AkcJsonValue *event)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *encoded = NULL;
  g_autoptr(AkcJsonValue) again = NULL;
  AkcTurnEventKind kind;
  gsize len;

  encoded = akc_turn_event_encode (event, &len, &error);
  g_assert (encoded != NULL && error == NULL);
  again = akc_turn_event_decode (encoded, (gssize) len, NULL);
  g_assert (again != NULL && akc_json_value_equal (again, event));

  g_assert (akc_turn_event_get_kind (event, &kind));
  if (kind == AKC_TURN_EVENT_KIND_SNAPSHOT)
    {
      g_autoptr(GPtrArray) records = akc_turn_snapshot_messages (event, &error);

      /* only a year-0000 createdAt is refused by the in-memory form */
      g_assert (records != NULL || error != NULL);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *sep = memchr (data, 0x1e, size);
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  g_autoptr(AkcTurnCursor) cursor = akc_turn_cursor_new ("session-conformance", NULL);
  g_autoptr(AkcDiagnostic) d_full = NULL;
  g_autoptr(AkcDiagnostic) d_inc = NULL;
  g_autoptr(AkcJsonValue) full = NULL;
  g_autoptr(AkcJsonValue) inc = NULL;
  g_autoptr(AkcJsonValue) first = NULL;
  g_autofree char *b = NULL;
  gsize a_len, b_len;

  /* the whole input, stateless */
  full = akc_turn_event_decode (text, (gssize) size, &d_full);
  if (full != NULL)
    check_event (full);
  else
    g_assert (d_full != NULL);
  g_clear_pointer (&full, akc_json_value_unref);
  g_clear_pointer (&d_full, akc_diagnostic_unref);

  /* A then B through one decoder (and one cursor) */
  if (sep != NULL)
    {
      a_len = (gsize) (sep - text);
      b_len = size - a_len - 1;
      b = g_malloc (b_len + 1);
      memcpy (b, sep + 1, b_len);
    }
  else
    {
      a_len = size;
      b_len = size;
      b = g_malloc (b_len + 1);
      memcpy (b, text, b_len);
      if (size > 0)
        {
          gsize at = size * 3 / 4;

          b[at] = (char) (b[at] ^ 0x01);
        }
    }

  b[b_len] = '\0';

  first = akc_turn_decoder_decode (decoder, text, (gssize) a_len, NULL);
  (void) akc_turn_cursor_apply_text (cursor, text, (gssize) a_len, NULL, NULL);

  full = akc_turn_event_decode (b, (gssize) b_len, &d_full);
  inc = akc_turn_decoder_decode (decoder, b, (gssize) b_len, &d_inc);
  assert_same (full, d_full, inc, d_inc);
  (void) akc_turn_cursor_apply_text (cursor, b, (gssize) b_len, NULL, NULL);

  /* and A again after B */
  g_clear_pointer (&full, akc_json_value_unref);
  g_clear_pointer (&inc, akc_json_value_unref);
  g_clear_pointer (&d_full, akc_diagnostic_unref);
  g_clear_pointer (&d_inc, akc_diagnostic_unref);
  full = akc_turn_event_decode (text, (gssize) a_len, &d_full);
  inc = akc_turn_decoder_decode (decoder, text, (gssize) a_len, &d_inc);
  assert_same (full, d_full, inc, d_inc);

  return 0;
}

/* akc-bench-protocol.c: decoding speed of the wire protocol
 *
 * SPDX-License-Identifier: MIT
 *
 * Prints, measured in one run on this machine:
 *  - Ask NDJSON decode throughput: 16 MiB of ~58-byte text-delta lines fed
 *    to the incremental decoder in 16 KiB chunks;
 *  - turn-snapshot decode time for 20 and 200 messages of ~230 characters;
 *  - for a 1,000-message conversation, the cost of applying the next
 *    streamed snapshot when only the last message changed (incremental
 *    decoder) beside fully decoding and validating the same snapshot;
 * with the ratios against the targets: decoding at least 2x the reference
 * implementation (about 50 MB/s on the Ask stream, 0.215 / 1.37 ms for the
 * 20 / 200-message snapshots on a 2-core machine), and the streamed apply
 * at least 5x cheaper than the full decode.
 */

#include <stdio.h>
#include <string.h>

#include "akc.h"

#define REFERENCE_ASK_MBPS 50.0
#define REFERENCE_SNAPSHOT_20_MS 0.215
#define REFERENCE_SNAPSHOT_200_MS 1.37

static double
now_seconds (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* ~230 characters of message text, different for every message. */
static void
append_message (GString *out,
                guint    index,
                guint    extra)
{
  g_string_append_printf (out,
                          "%s{\"id\":\"message-%u\",\"role\":\"%s\",\"content\":\"Message %u: the quick brown fox "
                          "jumps over the lazy dog while the agent explains, step by step, how a streamed reply "
                          "reaches the desktop through a versioned NDJSON protocol and stays within its "
                          "bounds.",
                          index > 0 ? "," : "",
                          index, index % 2 == 0 ? "user" : "assistant", index);
  for (guint i = 0; i < extra; i++)
    g_string_append (out, " more");
  g_string_append_printf (out, "\",\"status\":\"complete\",\"createdAt\":\"2026-07-11T03:%02u:%02u.000Z\"}",
                          (index / 60) % 60, index % 60);
}

static char *
snapshot_text (guint n_messages,
               guint sequence,
               guint last_extra)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out,
                          "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"sessionId\":\"session-bench\","
                          "\"turnId\":\"turn-bench\",\"emittedAt\":\"2026-07-11T03:00:00.000Z\","
                          "\"eventId\":\"event-%u\",\"sequence\":%u,\"event\":\"server.turn.snapshot\","
                          "\"payload\":{\"status\":\"streaming\",\"usage\":{\"promptTokens\":12,\"completionTokens\":34,\"totalTokens\":46},\"messages\":[",
                          sequence, sequence);
  for (guint i = 0; i < n_messages; i++)
    append_message (out, i, i + 1 == n_messages ? last_extra : 0);
  g_string_append (out, "]}}");

  return g_string_free (out, FALSE);
}

/* Mean seconds per full decode of @text, over enough runs for ~0.5 s. */
static double
time_full_decode (const char *text)
{
  gsize length = strlen (text);
  guint runs = 0;
  double start, elapsed;

  start = now_seconds ();
  do
    {
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autoptr(AkcJsonValue) event = akc_turn_event_decode (text, length, &diagnostic);

      if (event == NULL)
        g_error ("benchmark snapshot rejected: %s", akc_diagnostic_get_message (diagnostic));
      runs++;
      elapsed = now_seconds () - start;
    }
  while (elapsed < 0.5 || runs < 20);

  return elapsed / runs;
}

static void
bench_ask_stream (void)
{
  const gsize total = 16 * 1024 * 1024;
  const gsize chunk = 16 * 1024;
  g_autoptr(GString) stream = g_string_sized_new (total + 128);
  g_autoptr(AkcAskEventDecoder) decoder = akc_ask_event_decoder_new ();
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) rest = NULL;
  guint n_lines = 0, n_events = 0;
  double best = G_MAXDOUBLE;

  while (stream->len < total)
    {
      /* {"type":"text","delta":"…"} + LF: 58 bytes a line */
      g_string_append_printf (stream, "{\"type\":\"text\",\"delta\":\"token #%08u of the reply ok\"}\n", n_lines);
      n_lines++;
    }

  for (guint round = 0; round < 5; round++)
    {
      double start = now_seconds (), elapsed;

      n_events = 0;
      for (gsize offset = 0; offset < stream->len; offset += chunk)
        {
          n_events += akc_ask_event_decoder_feed_into (decoder,
                                                       (const guint8 *) stream->str + offset,
                                                       MIN (chunk, stream->len - offset),
                                                       events);
          g_ptr_array_set_size (events, 0);
        }
      rest = akc_ask_event_decoder_finish (decoder);
      n_events += rest->len;
      g_clear_pointer (&rest, g_ptr_array_unref);
      elapsed = now_seconds () - start;
      best = MIN (best, elapsed);
    }

  if (n_events != n_lines)
    g_error ("decoded %u events from %u lines", n_events, n_lines);

  printf ("Ask NDJSON decode: %.1f MiB, %u lines of %.0f bytes, 16 KiB chunks\n",
          stream->len / 1048576.0, n_lines, (double) stream->len / n_lines);
  printf ("  %.1f MB/s (best of 5)   reference ~%.0f MB/s   ratio %.2fx   target >= 2x: %s\n",
          stream->len / best / 1e6, REFERENCE_ASK_MBPS,
          stream->len / best / 1e6 / REFERENCE_ASK_MBPS,
          stream->len / best / 1e6 / REFERENCE_ASK_MBPS >= 2.0 ? "met" : "NOT MET");
}

static void
bench_snapshot (guint  n_messages,
                double reference_ms)
{
  g_autofree char *text = snapshot_text (n_messages, 1, 0);
  double ms = time_full_decode (text) * 1e3;

  printf ("Turn snapshot, %u messages (%zu bytes): %.4f ms   reference %.3f ms   ratio %.2fx   target >= 2x: %s\n",
          n_messages, strlen (text), ms, reference_ms, reference_ms / ms,
          reference_ms / ms >= 2.0 ? "met" : "NOT MET");
}

static void
bench_streamed_apply (void)
{
  const guint n = 1000;
  const guint steps = 400;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  double full, start, apply;

  /* A reply streaming into the last of 1,000 messages: each snapshot grows
   * the last message by one word. */
  for (guint i = 0; i < steps; i++)
    g_ptr_array_add (texts, snapshot_text (n, i + 1, i));

  full = time_full_decode (texts->pdata[steps / 2]);

  {
    g_autoptr(AkcDiagnostic) diagnostic = NULL;
    g_autoptr(AkcJsonValue) first = akc_turn_decoder_decode (decoder, texts->pdata[0], -1, &diagnostic);

    g_assert (first != NULL);
  }

  start = now_seconds ();
  for (guint i = 1; i < steps; i++)
    {
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autoptr(AkcJsonValue) event = akc_turn_decoder_decode (decoder, texts->pdata[i], strlen (texts->pdata[i]), &diagnostic);

      if (event == NULL)
        g_error ("streamed snapshot rejected: %s", akc_diagnostic_get_message (diagnostic));
    }
  apply = (now_seconds () - start) / (steps - 1);

  /* The incremental result is the full decode's, value for value. */
  {
    g_autoptr(AkcJsonValue) a = akc_turn_decoder_decode (decoder, texts->pdata[steps - 1], -1, NULL);
    g_autoptr(AkcJsonValue) b = akc_turn_event_decode (texts->pdata[steps - 1], -1, NULL);

    g_assert (a != NULL && b != NULL && akc_json_value_equal (a, b));
  }

  printf ("Streamed snapshot apply, %u messages, last one changed: %.4f ms   full decode %.4f ms   "
          "full/apply %.1fx   target >= 5x: %s\n",
          n, apply * 1e3, full * 1e3, full / apply, full / apply >= 5.0 ? "met" : "NOT MET");
}

int
main (int   argc,
      char *argv[])
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("akc-bench-protocol (libakc %s)\n\n", akc_get_version ());

  bench_ask_stream ();
  bench_snapshot (20, REFERENCE_SNAPSHOT_20_MS);
  bench_snapshot (200, REFERENCE_SNAPSHOT_200_MS);
  bench_streamed_apply ();

  return 0;
}

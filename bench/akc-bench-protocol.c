/* akc-bench-protocol.c: decoding cost of the wire protocol
 *
 * SPDX-License-Identifier: MIT
 *
 * Prints our own figures, all measured in this run on this machine:
 *  - Ask NDJSON decode: ~58-byte text-delta lines fed to the incremental
 *    decoder in 16 KiB chunks;
 *  - turn-snapshot decode of 20 and 200 messages of ~230 characters;
 *  - for a 1,000-message conversation, applying the next streamed snapshot
 *    when only the last message changed (incremental decoder) beside fully
 *    decoding the same snapshot (both sides run here, so the ratio holds);
 *  - a growing reply: a Markdown reply streamed in 5-character chunks into
 *    the last message of a snapshot, decoded at 2,000 and 20,000
 *    characters (issue 18 item 2: at least 3x fewer instructions than
 *    before the vector scanner at 20,000, which
 *    bench/compare-growing-reply.sh measures side by side);
 *  - one long JSON string (1 MiB, ASCII and mostly-ASCII Markdown):
 *    bytes scanned per instruction (target: at least 4 on ASCII), with
 *    each string scanner the build has (on x86-64: AVX2 where the
 *    processor has it, and SSE2, the baseline every x86-64 one has).
 * Each figure comes as wall time (moves with the machine's load) and, from
 * a second run of this program under callgrind, as instructions, which do
 * not. The figures of the TypeScript reference implementation and of
 * earlier builds are printed as what they are, figures from elsewhere, and
 * never divided into ours.
 *
 *   akc-bench-protocol                 wall time and instructions
 *   akc-bench-protocol --no-callgrind  wall time only
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "akc.h"
#include "akc-bench-callgrind.h"
#include "akc-json-scan-private.h"
#include "akc-bench-turn-input.h"

/* Figures from elsewhere: the TypeScript reference implementation on a
 * 2-core machine (not this run, not this machine). */
#define REFERENCE_ASK_MBPS 50.0
#define REFERENCE_SNAPSHOT_20_MS 0.215
#define REFERENCE_SNAPSHOT_200_MS 1.37

/* Figures from elsewhere: instructions of this bench's workloads on the
 * build before the vector scanner (main at 48bbc39, debugoptimized,
 * callgrind, x86-64; the growing reply by bench/compare-growing-reply.sh,
 * which builds and runs it beside this build's). */
#define BEFORE_GROWING_20K_INSTRUCTIONS 561605
#define BEFORE_LONG_STRING_BYTES_PER_INSTRUCTION 0.07

#define GROWING_CHUNK 5

static gboolean counted;

static double
now_seconds (void)
{
  return g_get_monotonic_time () / 1e6;
}

static char *
snapshot_text (guint n_messages,
               guint sequence,
               guint last_extra)
{
  GString *out = g_string_new (NULL);

  akc_bench_append_envelope (out, sequence, "streaming");
  for (guint i = 0; i < n_messages; i++)
    akc_bench_append_message (out, i, i + 1 == n_messages ? last_extra : 0);
  g_string_append (out, "]}}");

  return g_string_free (out, FALSE);
}

static AkcJsonValue *
decode_or_die (const char *text,
               gsize       length)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  AkcJsonValue *event = akc_turn_event_decode (text, length, &diagnostic);

  if (event == NULL)
    g_error ("benchmark snapshot rejected: %s", akc_diagnostic_get_message (diagnostic));
  return event;
}

static AkcJsonValue *
decoder_decode_or_die (AkcTurnDecoder *decoder,
                       const char     *text,
                       gsize           length)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  AkcJsonValue *event = akc_turn_decoder_decode (decoder, text, length, &diagnostic);

  if (event == NULL)
    g_error ("streamed snapshot rejected: %s", akc_diagnostic_get_message (diagnostic));
  return event;
}

/* Mean seconds per full decode of @text, over enough runs for ~0.5 s; in
 * the counted run, @counted_runs decodes closed as @phase. */
static double
time_full_decode (const char *text,
                  const char *phase,
                  guint       counted_runs)
{
  gsize length = strlen (text);
  guint runs = 0;
  double start, elapsed;

  if (counted)
    {
      akc_bench_callgrind_mark ("setup");
      for (guint i = 0; i < counted_runs; i++)
        akc_json_value_unref (decode_or_die (text, length));
      akc_bench_callgrind_mark (phase);
      return 0;
    }

  start = now_seconds ();
  do
    {
      akc_json_value_unref (decode_or_die (text, length));
      runs++;
      elapsed = now_seconds () - start;
    }
  while (elapsed < 0.5 || runs < 20);

  return elapsed / runs;
}

/* Workloads. Each prints its wall-time figures (not in the counted run)
 * and, from @phases (NULL without callgrind), its instruction counts. */

#define ASK_COUNTED_BYTES (1024 * 1024)

static void
ask_stream (GString *stream,
            gsize    total)
{
  guint n_lines = 0;

  while (stream->len < total)
    {
      /* {"type":"text","delta":"…"} + LF: 58 bytes a line */
      g_string_append_printf (stream, "{\"type\":\"text\",\"delta\":\"token #%08u of the reply ok\"}\n", n_lines);
      n_lines++;
    }
}

static guint
decode_ask_stream (const GString *stream)
{
  const gsize chunk = 16 * 1024;
  g_autoptr(AkcAskEventDecoder) decoder = akc_ask_event_decoder_new ();
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) rest = NULL;
  guint n_events = 0;

  for (gsize offset = 0; offset < stream->len; offset += chunk)
    {
      n_events += akc_ask_event_decoder_feed_into (decoder,
                                                   (const guint8 *) stream->str + offset,
                                                   MIN (chunk, stream->len - offset),
                                                   events);
      g_ptr_array_set_size (events, 0);
    }
  rest = akc_ask_event_decoder_finish (decoder);

  return n_events + rest->len;
}

static void
bench_ask_stream (GHashTable *phases)
{
  const gsize total = 16 * 1024 * 1024;
  g_autoptr(GString) stream = g_string_sized_new (total + 128);
  guint n_lines;
  double best = G_MAXDOUBLE;

  if (counted)
    {
      ask_stream (stream, ASK_COUNTED_BYTES);
      akc_bench_callgrind_mark ("setup");
      if (decode_ask_stream (stream) == 0)
        g_error ("the Ask stream decoded to nothing");
      akc_bench_callgrind_mark ("ask");
      return;
    }

  ask_stream (stream, total);
  n_lines = (guint) (stream->len / 58);
  for (guint round = 0; round < 5; round++)
    {
      double start = now_seconds ();
      guint n_events = decode_ask_stream (stream);

      best = MIN (best, now_seconds () - start);
      if (n_events != n_lines)
        g_error ("decoded %u events from %u lines", n_events, n_lines);
    }

  printf ("Ask NDJSON decode: %.1f MiB, %u lines of 58 bytes, 16 KiB chunks\n",
          stream->len / 1048576.0, n_lines);
  printf ("  %.1f MB/s (best of 5)", stream->len / best / 1e6);
  if (phases != NULL)
    {
      g_autoptr(GString) small = g_string_new (NULL);

      ask_stream (small, ASK_COUNTED_BYTES);
      printf ("   %.2f instructions/byte",
              (double) akc_bench_callgrind_lookup (phases, "ask") / small->len);
    }
  printf ("\n  figure from elsewhere: the TypeScript reference, ~%.0f MB/s on another machine\n",
          REFERENCE_ASK_MBPS);
}

#define SNAPSHOT_COUNTED_RUNS 10

static void
bench_snapshot (GHashTable *phases,
                guint       n_messages,
                double      reference_ms)
{
  g_autofree char *text = snapshot_text (n_messages, 1, 0);
  g_autofree char *phase = g_strdup_printf ("snapshot-%u", n_messages);
  double ms = time_full_decode (text, phase, SNAPSHOT_COUNTED_RUNS) * 1e3;

  if (counted)
    return;

  printf ("Turn snapshot, %u messages (%zu bytes): %.4f ms", n_messages, strlen (text), ms);
  if (phases != NULL)
    printf ("   %" G_GUINT64_FORMAT " instructions",
            akc_bench_callgrind_lookup (phases, phase) / SNAPSHOT_COUNTED_RUNS);
  printf ("\n  figure from elsewhere: the TypeScript reference, %.3f ms on another machine\n", reference_ms);
}

#define APPLY_STEPS 400
#define APPLY_COUNTED_STEPS 20

static void
bench_streamed_apply (GHashTable *phases)
{
  const guint n = 1000;
  guint steps = counted ? APPLY_COUNTED_STEPS + 1 : APPLY_STEPS;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  double full, start, apply;

  /* A reply streaming into the last of 1,000 messages: each snapshot grows
   * the last message by one word. */
  for (guint i = 0; i < steps; i++)
    g_ptr_array_add (texts, snapshot_text (n, i + 1, i));

  full = time_full_decode (texts->pdata[steps / 2], "apply-full", 2);

  akc_json_value_unref (decoder_decode_or_die (decoder, texts->pdata[0], strlen (texts->pdata[0])));

  akc_bench_callgrind_mark ("setup");
  start = now_seconds ();
  for (guint i = 1; i < steps; i++)
    akc_json_value_unref (decoder_decode_or_die (decoder, texts->pdata[i], strlen (texts->pdata[i])));
  apply = (now_seconds () - start) / (steps - 1);
  akc_bench_callgrind_mark ("apply");

  /* The incremental result is the full decode's, value for value. */
  {
    g_autoptr(AkcJsonValue) a = decoder_decode_or_die (decoder, texts->pdata[steps - 1], strlen (texts->pdata[steps - 1]));
    g_autoptr(AkcJsonValue) b = decode_or_die (texts->pdata[steps - 1], strlen (texts->pdata[steps - 1]));

    if (!akc_json_value_equal (a, b))
      g_error ("the incremental decode differs from the full decode");
  }

  if (counted)
    return;

  printf ("Streamed snapshot apply, %u messages, last one changed: %.4f ms   full decode %.4f ms   "
          "full/apply %.1fx   target >= 5x: %s\n",
          n, apply * 1e3, full * 1e3, full / apply, full / apply >= 5.0 ? "met" : "NOT MET");
  if (phases != NULL)
    {
      guint64 full_i = akc_bench_callgrind_lookup (phases, "apply-full") / 2;
      guint64 apply_i = akc_bench_callgrind_lookup (phases, "apply") / APPLY_COUNTED_STEPS;

      printf ("  instructions: apply %" G_GUINT64_FORMAT "   full decode %" G_GUINT64_FORMAT
              "   full/apply %.1fx\n", apply_i, full_i, (double) full_i / apply_i);
    }
}

#define GROWING_TIMED_STEPS 200
#define GROWING_COUNTED_STEPS 10

/* Mean seconds and (counted run) instructions per decode of the growing
 * reply's snapshots just after @n_chars characters. */
static double
growing_at (guint      n_chars,
            const char *phase)
{
  guint steps = counted ? GROWING_COUNTED_STEPS : GROWING_TIMED_STEPS;
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GString) reply = akc_bench_growing_reply (n_chars + (steps + 1) * GROWING_CHUNK, offsets);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
  double start, elapsed;

  for (guint i = 0; i <= steps; i++)
    g_ptr_array_add (texts, akc_bench_growing_snapshot (reply, offsets, n_chars + i * GROWING_CHUNK, i + 1));

  akc_json_value_unref (decoder_decode_or_die (decoder, texts->pdata[0], strlen (texts->pdata[0])));
  akc_bench_callgrind_mark ("setup");
  start = now_seconds ();
  for (guint i = 1; i <= steps; i++)
    akc_json_value_unref (decoder_decode_or_die (decoder, texts->pdata[i], strlen (texts->pdata[i])));
  elapsed = now_seconds () - start;
  akc_bench_callgrind_mark (phase);

  {
    g_autoptr(AkcJsonValue) a = decoder_decode_or_die (decoder, texts->pdata[steps], strlen (texts->pdata[steps]));
    g_autoptr(AkcJsonValue) b = decode_or_die (texts->pdata[steps], strlen (texts->pdata[steps]));

    if (!akc_json_value_equal (a, b))
      g_error ("the incremental decode of the growing reply differs from the full decode");
  }

  return elapsed / steps;
}

static void
bench_growing_reply (GHashTable *phases)
{
  static const guint sizes[] = { 2000, 20000 };
  guint64 instructions[G_N_ELEMENTS (sizes)] = { 0, };
  double seconds[G_N_ELEMENTS (sizes)];

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree char *phase = g_strdup_printf ("growing-%u", sizes[s]);

      seconds[s] = growing_at (sizes[s], phase);
      if (phases != NULL)
        instructions[s] = akc_bench_callgrind_lookup (phases, phase) / GROWING_COUNTED_STEPS;
    }

  if (counted)
    return;

  printf ("Growing reply (Markdown, %u-character chunks, 2 messages, incremental decoder), per snapshot:\n",
          GROWING_CHUNK);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      printf ("  %6u characters: %.4f ms", sizes[s], seconds[s] * 1e3);
      if (phases != NULL)
        printf ("   %" G_GUINT64_FORMAT " instructions   %.2f instructions/character",
                instructions[s], (double) instructions[s] / sizes[s]);
      printf ("\n");
    }
  printf ("  figure from elsewhere: %u instructions at 20000 characters before the vector scanner; "
          "the ratio, target >= 3x fewer now, is measured side by side by bench/compare-growing-reply.sh\n",
          (guint) BEFORE_GROWING_20K_INSTRUCTIONS);
}

#define LONG_STRING_BYTES (1024 * 1024)

static char *
long_string (gboolean markdown)
{
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  GString *out = g_string_new ("\"");

  if (markdown)
    {
      g_autoptr(GString) reply = akc_bench_growing_reply (LONG_STRING_BYTES, offsets);
      gsize n = 0;

      while (n < offsets->len && g_array_index (offsets, gsize, n) <= LONG_STRING_BYTES)
        n++;
      g_string_append_len (out, reply->str, g_array_index (offsets, gsize, n - 1));
    }
  else
    while (out->len < LONG_STRING_BYTES)
      g_string_append (out, "The quick brown fox jumps over the lazy dog, and the agent explains why. ");
  g_string_append_c (out, '"');

  return g_string_free (out, FALSE);
}

static double
parse_string (const char *text,
              gsize       len)
{
  g_autoptr(GError) error = NULL;
  double start = now_seconds ();
  g_autoptr(AkcJsonValue) value = akc_json_value_parse (text, len, &error);

  if (value == NULL)
    g_error ("the long string was rejected: %s", error->message);
  return now_seconds () - start;
}

static void
bench_long_string (GHashTable *phases)
{
  static const char * const names[] = { "ASCII prose", "Markdown with escapes and non-ASCII" };
  static const char * const phase_names[] = { "string-ascii", "string-markdown" };
  const char * const *scanners = akc_json_scan_list ();
  g_autofree char *in_use = g_strdup (akc_json_scan_get_implementation ());

  /* Every scanner this build has and this processor runs, the one
   * libakc chooses first: SSE2 is what every x86-64 processor gets. */
  for (guint s = 0; scanners[s] != NULL; s++)
    for (guint k = 0; k < 2; k++)
      {
        g_autofree char *text = long_string (k == 1);
        g_autofree char *phase = g_strdup_printf ("%s-%s", phase_names[k], scanners[s]);
        gsize len = strlen (text);
        double best = G_MAXDOUBLE;

        if (!akc_json_scan_set_implementation (scanners[s]))
          {
            if (!counted && k == 0)
              printf ("  scanner %-8s not run: this processor lacks it\n", scanners[s]);
            break;
          }

        akc_bench_callgrind_mark ("setup");
        if (counted)
          {
            parse_string (text, len);
            akc_bench_callgrind_mark (phase);
            continue;
          }
        for (guint round = 0; round < 20; round++)
          best = MIN (best, parse_string (text, len));

        if (s == 0 && k == 0)
          printf ("One long JSON string (akc_json_value_parse), each scanner (%s is the one in use):\n",
                  in_use);
        printf ("  %-8s %-36s %.1f MiB: %5.0f MB/s", scanners[s], names[k], len / 1048576.0, len / best / 1e6);
        if (phases != NULL)
          {
            double per = (double) len / akc_bench_callgrind_lookup (phases, phase);

            printf ("   %.2f bytes/instruction", per);
            if (k == 0)
              printf ("   target >= 4: %s", per >= 4.0 ? "met" : "NOT MET");
          }
        printf ("\n");
      }
  if (!akc_json_scan_set_implementation (in_use))
    g_error ("the scanner %s cannot be chosen again", in_use);
  if (!counted && BEFORE_LONG_STRING_BYTES_PER_INSTRUCTION > 0)
    printf ("  figure from elsewhere: %.2f bytes/instruction on ASCII before the vector scanner\n",
            BEFORE_LONG_STRING_BYTES_PER_INSTRUCTION);
}

static void
run_all (GHashTable *phases)
{
  bench_ask_stream (phases);
  bench_snapshot (phases, 20, REFERENCE_SNAPSHOT_20_MS);
  bench_snapshot (phases, 200, REFERENCE_SNAPSHOT_200_MS);
  bench_streamed_apply (phases);
  bench_growing_reply (phases);
  bench_long_string (phases);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GHashTable) phases = NULL;
  g_autoptr(GError) error = NULL;
  gboolean use_callgrind = TRUE;

  setvbuf (stdout, NULL, _IOLBF, 0);

  if (argc == 2 && strcmp (argv[1], "--counted-run") == 0)
    {
      counted = TRUE;
      run_all (NULL);
      return 0;
    }
  if (argc == 2 && strcmp (argv[1], "--no-callgrind") == 0)
    use_callgrind = FALSE;
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--no-callgrind]\n", argv[0]);
      return 2;
    }

  printf ("akc-bench-protocol (libakc %s; JSON string scanner in use: %s)\n", akc_get_version (),
          akc_json_scan_get_implementation ());

  if (use_callgrind)
    {
      const char *child[] = { argv[0], "--counted-run", NULL };

      printf ("counting instructions under callgrind first (about a minute) ...\n");
      phases = akc_bench_callgrind_run (child, &error);
      if (phases == NULL)
        g_error ("the run under callgrind failed: %s (use --no-callgrind to skip it)", error->message);
    }
  printf ("\n");

  run_all (phases);

  return 0;
}

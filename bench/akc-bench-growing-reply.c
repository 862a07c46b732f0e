/* akc-bench-growing-reply.c: a growing reply's decode, this build beside another
 *
 * SPDX-License-Identifier: MIT
 *
 * Issue 18 item 2 asks for the growing-reply decode at 20,000 characters
 * to take at least 3x fewer instructions than before the vector scanner.
 * A ratio only holds when both sides decode the same input on the same
 * machine, so this program uses libakc's public API alone and builds
 * against an older tree too (bench/compare-growing-reply.sh builds it in
 * a temporary worktree of the commit before issue 18 and runs both).
 *
 * The input is akc-bench-protocol's growing reply (akc-bench-turn-input.h):
 * a Markdown reply streamed in 5-character chunks into the last of two
 * messages, each snapshot decoded by one AkcTurnDecoder; counted are the
 * instructions of 10 snapshots after the first, at 2,000 and at 20,000
 * characters, under callgrind.
 *
 *   akc-bench-growing-reply                 instructions of this build
 *   akc-bench-growing-reply --before PATH   and of PATH (this program built
 *                                           against another tree), and
 *                                           the ratio
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "akc.h"
#include "akc-bench-callgrind.h"
#include "akc-bench-turn-input.h"

#define CHUNK 5
#define STEPS 10

static const guint sizes[] = { 2000, 20000 };

static AkcJsonValue *
decode_or_die (AkcTurnDecoder *decoder,
               const char     *text)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  AkcJsonValue *event = akc_turn_decoder_decode (decoder, text, (gssize) strlen (text), &diagnostic);

  if (event == NULL)
    g_error ("streamed snapshot rejected: %s", akc_diagnostic_get_message (diagnostic));
  return event;
}

static void
counted_run (void)
{
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guint n_chars = sizes[s];
      g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
      g_autoptr(GString) reply = akc_bench_growing_reply (n_chars + (STEPS + 1) * CHUNK, offsets);
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(AkcTurnDecoder) decoder = akc_turn_decoder_new ();
      g_autofree char *phase = g_strdup_printf ("growing-%u", n_chars);

      for (guint i = 0; i <= STEPS; i++)
        g_ptr_array_add (texts, akc_bench_growing_snapshot (reply, offsets, n_chars + i * CHUNK, i + 1));

      akc_json_value_unref (decode_or_die (decoder, texts->pdata[0]));
      akc_bench_callgrind_mark ("setup");
      for (guint i = 1; i <= STEPS; i++)
        akc_json_value_unref (decode_or_die (decoder, texts->pdata[i]));
      akc_bench_callgrind_mark (phase);
    }
}

/* Instructions per snapshot at each size, from @program's counted run. */
static gboolean
count (const char *program,
       guint64     per_snapshot[G_N_ELEMENTS (sizes)])
{
  const char *argv[] = { program, "--counted-run", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) phases = akc_bench_callgrind_run (argv, &error);

  if (phases == NULL)
    {
      fprintf (stderr, "akc-bench-growing-reply: %s under callgrind failed: %s\n", program, error->message);
      return FALSE;
    }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree char *phase = g_strdup_printf ("growing-%u", sizes[s]);

      per_snapshot[s] = akc_bench_callgrind_lookup (phases, phase) / STEPS;
    }
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  guint64 now[G_N_ELEMENTS (sizes)], before[G_N_ELEMENTS (sizes)];
  const char *before_program = NULL;

  setvbuf (stdout, NULL, _IOLBF, 0);

  if (argc == 2 && strcmp (argv[1], "--counted-run") == 0)
    {
      counted_run ();
      return 0;
    }
  if (argc == 3 && strcmp (argv[1], "--before") == 0)
    before_program = argv[2];
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--before PATH]\n", argv[0]);
      return 2;
    }

  if (!count (argv[0], now) || (before_program != NULL && !count (before_program, before)))
    return 1;

  printf ("Growing reply (Markdown, %d-character chunks, 2 messages, incremental decoder), "
          "instructions per snapshot (callgrind):\n", CHUNK);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      printf ("  %6u characters: %9" G_GUINT64_FORMAT " (%.2f/character)", sizes[s], now[s],
              (double) now[s] / sizes[s]);
      if (before_program != NULL)
        printf ("   before: %9" G_GUINT64_FORMAT " (%.2f/character)   %.2fx fewer now", before[s],
                (double) before[s] / sizes[s], (double) before[s] / now[s]);
      printf ("\n");
    }
  if (before_program != NULL)
    printf ("  target at 20000 characters, >= 3x fewer than before: %s\n",
            before[1] >= 3 * now[1] ? "met" : "NOT MET");

  return 0;
}

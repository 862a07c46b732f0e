/* akc-bench-store.c: the cost of appending a message to a long conversation
 *
 * SPDX-License-Identifier: MIT
 *
 * Builds a history in a temporary folder with conversations of 1,000,
 * 10,000 and 50,000 messages, then appends messages of ~200 characters to
 * each through AkcChatMemory, as the app does when a message ends, and
 * prints for each size:
 *  - wall time and CPU time (all threads) per append, measured here;
 *  - instructions per append, counted by callgrind in a second run of
 *    this program (the history it reads is the one built by the first),
 *    which a busy machine does not change.
 * The target (issue 18 item 3): an append at 50,000 messages costs at
 * most 1.5x an append at 1,000. Wall time includes the fsync() of each
 * commit (the history is synchronous=FULL) and moves with the disk; the
 * instruction count is the figure the target is judged by.
 *
 *   akc-bench-store                 both runs
 *   akc-bench-store --no-callgrind  wall and CPU time only
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "akc.h"
#include "akc-bench-callgrind.h"
#include "akc-bench-util.h"

#define TARGET_RATIO 1.5

static const guint sizes[] = { 1000, 10000, 50000 };

/* Appends measured per size: timed run, callgrind run. */
#define TIMED_APPENDS 200
#define COUNTED_APPENDS 20
#define WARM_UP_APPENDS 5

static const char message_text[] =
  "The quick brown fox jumps over the lazy dog while the agent explains, step by step, "
  "how a streamed reply reaches the desktop and is kept in the history for the next session.";

static AkcChatMemory *
open_memory (const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteChatMemory *memory;

  akc_sqlite_chat_memory_new_async (path, NULL, akc_bench_store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (akc_bench_wait_result (&result), &error);
  if (memory == NULL)
    g_error ("cannot open the bench history %s: %s", path, error->message);

  return AKC_CHAT_MEMORY (memory);
}

static void
splice (AkcChatMemory  *memory,
        const char     *conversation_id,
        AkcMessage    **added,
        guint           n_added)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  akc_chat_memory_splice_messages_async (memory, conversation_id, G_MAXUINT, 0, added, n_added,
                                         NULL, akc_bench_store_result, &result);
  if (!akc_chat_memory_splice_messages_finish (memory, akc_bench_wait_result (&result), &error))
    g_error ("cannot add messages to %s: %s", conversation_id, error->message);
}

static void
append (AkcChatMemory *memory,
        const char    *conversation_id,
        const char    *message_id)
{
  g_autoptr(AkcMessage) message = akc_message_new (message_id, AKC_MESSAGE_ROLE_ASSISTANT,
                                                   message_text, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  akc_chat_memory_append_message_async (memory, conversation_id, message, NULL, akc_bench_store_result, &result);
  if (!akc_chat_memory_append_message_finish (memory, akc_bench_wait_result (&result), &error))
    g_error ("cannot append to %s: %s", conversation_id, error->message);
}

static char *
conversation_id (guint size)
{
  return g_strdup_printf ("conversation-%u", size);
}

static void
build_history (const char *path)
{
  g_autoptr(AkcChatMemory) memory = open_memory (path);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree char *id = conversation_id (sizes[s]);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcConversationInfo) info = NULL;

      akc_chat_memory_create_conversation_async (memory, id, id, NULL, akc_bench_store_result, &result);
      info = akc_chat_memory_create_conversation_finish (memory, akc_bench_wait_result (&result), &error);
      if (info == NULL)
        g_error ("cannot create %s: %s", id, error->message);

      /* A thousand messages a transaction. */
      for (guint done = 0; done < sizes[s]; done += 1000)
        {
          g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func (g_object_unref);

          for (guint i = done; i < MIN (done + 1000, sizes[s]); i++)
            {
              g_autofree char *message_id = g_strdup_printf ("message-%u", i);

              g_ptr_array_add (batch, akc_message_new (message_id,
                                                       i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                       message_text, AKC_MESSAGE_STATUS_COMPLETE));
            }
          splice (memory, id, (AkcMessage **) batch->pdata, batch->len);
        }
    }
}

/* Appends @n messages to the conversation of @size, named @prefix-i. */
static void
append_many (AkcChatMemory *memory,
             guint          size,
             const char    *prefix,
             guint          n)
{
  g_autofree char *id = conversation_id (size);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *message_id = g_strdup_printf ("%s-%u", prefix, i);

      append (memory, id, message_id);
    }
}

static void
timed_run (const char *path,
           double     *wall_ms,
           double     *cpu_ms)
{
  g_autoptr(AkcChatMemory) memory = open_memory (path);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      double wall, cpu;

      append_many (memory, sizes[s], "warm-up", WARM_UP_APPENDS);
      wall = g_get_monotonic_time () / 1e6;
      cpu = akc_bench_cpu_seconds ();
      append_many (memory, sizes[s], "timed", TIMED_APPENDS);
      cpu_ms[s] = (akc_bench_cpu_seconds () - cpu) * 1e3 / TIMED_APPENDS;
      wall_ms[s] = (g_get_monotonic_time () / 1e6 - wall) * 1e3 / TIMED_APPENDS;
    }
}

/* The run under callgrind: the same appends, each size's its own phase. */
static int
counted_run (const char *path)
{
  g_autoptr(AkcChatMemory) memory = open_memory (path);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree char *setup = g_strdup_printf ("setup-%u", sizes[s]);
      g_autofree char *phase = g_strdup_printf ("append-%u", sizes[s]);

      append_many (memory, sizes[s], "counted-warm-up", WARM_UP_APPENDS);
      akc_bench_callgrind_mark (setup);
      append_many (memory, sizes[s], "counted", COUNTED_APPENDS);
      akc_bench_callgrind_mark (phase);
    }

  return 0;
}

static const char *
verdict (double ratio)
{
  return ratio <= TARGET_RATIO ? "met" : "NOT MET";
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *folder = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) phases = NULL;
  gboolean use_callgrind = TRUE;
  double wall_ms[G_N_ELEMENTS (sizes)], cpu_ms[G_N_ELEMENTS (sizes)];
  guint64 instructions[G_N_ELEMENTS (sizes)];

  setvbuf (stdout, NULL, _IOLBF, 0);

  if (argc == 3 && strcmp (argv[1], "--counted-run") == 0)
    return counted_run (argv[2]);
  if (argc == 2 && strcmp (argv[1], "--no-callgrind") == 0)
    use_callgrind = FALSE;
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--no-callgrind]\n", argv[0]);
      return 2;
    }

  printf ("akc-bench-store (libakc %s, SQLite %s)\n\n", akc_get_version (), sqlite3_libversion ());

  folder = g_dir_make_tmp ("akc-bench-store-XXXXXX", &error);
  if (folder == NULL)
    g_error ("cannot make a folder for the bench history: %s", error->message);
  path = g_build_filename (folder, "history.sqlite3", NULL);

  build_history (path);
  timed_run (path, wall_ms, cpu_ms);

  if (use_callgrind)
    {
      const char *child[] = { argv[0], "--counted-run", path, NULL };

      phases = akc_bench_callgrind_run (child, &error);
      if (phases == NULL)
        g_error ("the run under callgrind failed: %s (use --no-callgrind to skip it)", error->message);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          g_autofree char *phase = g_strdup_printf ("append-%u", sizes[s]);

          instructions[s] = akc_bench_callgrind_lookup (phases, phase) / COUNTED_APPENDS;
        }
    }

  printf ("Appending a message of %zu bytes to a conversation (AkcSqliteChatMemory, one commit each)\n",
          strlen (message_text));
  printf ("  %-10s %12s %12s %16s\n", "messages", "wall ms", "CPU ms", "instructions");
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      if (use_callgrind)
        printf ("  %-10u %12.3f %12.3f %16" G_GUINT64_FORMAT "\n", sizes[s], wall_ms[s], cpu_ms[s], instructions[s]);
      else
        printf ("  %-10u %12.3f %12.3f %16s\n", sizes[s], wall_ms[s], cpu_ms[s], "-");
    }

  {
    guint last = G_N_ELEMENTS (sizes) - 1;
    double cpu_ratio = cpu_ms[last] / cpu_ms[0];

    printf ("\n  50k / 1k: CPU %.2fx", cpu_ratio);
    if (use_callgrind)
      {
        double ratio = (double) instructions[last] / (double) instructions[0];

        printf ("   instructions %.2fx   target <= %.1fx (instructions): %s\n",
                ratio, TARGET_RATIO, verdict (ratio));
      }
    else
      printf ("   target <= %.1fx (CPU, without callgrind): %s\n", TARGET_RATIO, verdict (cpu_ratio));
  }

  g_unlink (path);
  {
    g_autofree char *wal = g_strconcat (path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (path, "-shm", NULL);

    g_unlink (wal);
    g_unlink (shm);
  }
  g_rmdir (folder);

  return 0;
}

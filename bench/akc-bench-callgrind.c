/* akc-bench-callgrind.c: instruction counts of a bench's phases, from callgrind
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "akc-bench-callgrind.h"

#ifdef HAVE_VALGRIND_CALLGRIND_H
# include <valgrind/callgrind.h>
#endif

gboolean
akc_bench_callgrind_available (void)
{
#ifdef HAVE_VALGRIND_CALLGRIND_H
  return TRUE;
#else
  return FALSE;
#endif
}

gboolean
akc_bench_callgrind_active (void)
{
#ifdef HAVE_VALGRIND_CALLGRIND_H
  return RUNNING_ON_VALGRIND != 0;
#else
  return FALSE;
#endif
}

void
akc_bench_callgrind_mark (const char *phase)
{
#ifdef HAVE_VALGRIND_CALLGRIND_H
  if (RUNNING_ON_VALGRIND)
    CALLGRIND_DUMP_STATS_AT (phase);
#else
  (void) phase;
#endif
}

/* One dump: "desc: Trigger: Client Request: PHASE" and "totals: N". */
static gboolean
read_dump (const char  *path,
           GHashTable  *phases,
           GError     **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  const char *phase = NULL;
  const char *totals = NULL;

  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "desc: Trigger: Client Request: "))
        phase = lines[i] + strlen ("desc: Trigger: Client Request: ");
      else if (g_str_has_prefix (lines[i], "totals: "))
        totals = lines[i] + strlen ("totals: ");
    }

  if (phase != NULL && totals != NULL)
    {
      guint64 *count = g_hash_table_lookup (phases, phase);

      if (count == NULL)
        {
          count = g_new0 (guint64, 1);
          g_hash_table_insert (phases, g_strdup (phase), count);
        }
      /* A phase marked twice adds up. */
      *count += g_ascii_strtoull (totals, NULL, 10);
    }

  return TRUE;
}

GHashTable *
akc_bench_callgrind_run (const char * const  *argv,
                         GError             **error)
{
  g_autofree char *folder = NULL;
  g_autofree char *out_file = NULL;
  g_autofree char *out_flag = NULL;
  g_autofree char *valgrind = g_find_program_in_path ("valgrind");
  g_autoptr(GPtrArray) command = g_ptr_array_new ();
  g_autoptr(GHashTable) phases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  int status = 0;
  gboolean ok = TRUE;

  if (!akc_bench_callgrind_available () || valgrind == NULL)
    {
      g_set_error_literal (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
                           "instruction counts need valgrind (and its headers at build time)");
      return NULL;
    }

  folder = g_dir_make_tmp ("akc-bench-callgrind-XXXXXX", error);
  if (folder == NULL)
    return NULL;
  out_file = g_build_filename (folder, "callgrind.out", NULL);
  out_flag = g_strconcat ("--callgrind-out-file=", out_file, NULL);

  g_ptr_array_add (command, valgrind);
  g_ptr_array_add (command, (char *) "--tool=callgrind");
  g_ptr_array_add (command, (char *) "--quiet");
  g_ptr_array_add (command, out_flag);
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (command, (char *) argv[i]);
  g_ptr_array_add (command, NULL);

  if (!g_spawn_sync (NULL, (char **) command->pdata, NULL, G_SPAWN_CHILD_INHERITS_STDIN,
                     NULL, NULL, NULL, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    ok = FALSE;

  dir = g_dir_open (folder, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (ok && !read_dump (path, phases, error))
        ok = FALSE;
      g_unlink (path);
    }
  g_rmdir (folder);

  if (ok && g_hash_table_size (phases) == 0)
    {
      g_set_error_literal (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                           "the run under callgrind marked no phase");
      ok = FALSE;
    }

  return ok ? g_steal_pointer (&phases) : NULL;
}

guint64
akc_bench_callgrind_lookup (GHashTable *phases,
                            const char *phase)
{
  const guint64 *count = g_hash_table_lookup (phases, phase);

  if (count == NULL)
    g_error ("the run under callgrind did not reach the phase “%s”", phase);

  return *count;
}

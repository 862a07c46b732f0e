/* test-file-modes.c: the history is private to its user (issue #12 item 8)
 *
 * SPDX-License-Identifier: MIT
 *
 * Whatever the umask, the history database and its write-ahead log are
 * created 0600, an existing one that others could read is tightened to
 * 0600, and the application's data folder is tightened to 0700. A history
 * at a path of the person's choosing keeps its folder's mode.
 */

#include "config.h"

#include <sys/stat.h>

#include <glib/gstdio.h>

#include "akc-store-test.h"

static guint
mode_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

static void
write_one (AkcChatMemory *memory)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) info = akc_test_create (memory, "c1", "Title", &error);

  g_assert_no_error (error);
  g_assert_nonnull (info);
}

/* The default history in the application's data folder. */
static void
test_default_history (void)
{
  g_autofree char *path = akc_sqlite_chat_memory_dup_default_path ();
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autoptr(AkcChatMemory) memory = NULL;

  /* A folder made earlier, readable by everyone. */
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_cmpint (g_chmod (folder, 0755), ==, 0);
  umask (022);

  memory = akc_test_open (path);
  write_one (memory);

  g_assert_cmpuint (mode_of (folder), ==, 0700);
  g_assert_cmpuint (mode_of (path), ==, 0600);
  if (g_file_test (wal, G_FILE_TEST_EXISTS))
    g_assert_cmpuint (mode_of (wal), ==, 0600);
}

/* A history that exists already, made 0644 by an earlier version. */
static void
test_existing_history (void)
{
  g_autofree char *folder = g_build_filename (g_get_user_cache_dir (), "chosen", NULL);
  g_autofree char *path = g_build_filename (folder, "mine.sqlite3", NULL);
  g_autoptr(AkcChatMemory) first = NULL;
  g_autoptr(AkcChatMemory) second = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_cmpint (g_chmod (folder, 0755), ==, 0);
  umask (022);

  first = akc_test_open (path);
  write_one (first);
  g_clear_object (&first);
  g_assert_cmpint (g_chmod (path, 0644), ==, 0);

  second = akc_test_open (path);
  g_assert_nonnull (second);
  g_assert_cmpuint (mode_of (path), ==, 0600);
  /* A folder the person chose is theirs to set. */
  g_assert_cmpuint (mode_of (folder), ==, 0755);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/file-modes/default-history", test_default_history);
  g_test_add_func ("/file-modes/existing-history", test_existing_history);

  return g_test_run ();
}

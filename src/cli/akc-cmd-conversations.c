/* akc-cmd-conversations.c: `akc conversations`, `akc export` and
 * `akc import`, against the history the app uses
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "akc.h"
#include "akc-cli.h"
#include "akc-cli-output.h"

static void
store_result (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);

  return *slot;
}

/* The history at @path (the app's when NULL); NULL with a message on
 * standard error. */
static AkcSqliteChatMemory *
open_history (const char *command,
              const char *path)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AkcSqliteChatMemory *memory;

  akc_sqlite_chat_memory_new_async (path, NULL, store_result, &result);
  memory = akc_sqlite_chat_memory_new_finish (wait_for (&result), &error);
  if (memory == NULL)
    akc_cli_print_untrusted (stderr, "akc %s: %s\n", command, error->message);

  return memory;
}

/* akc conversations ------------------------------------------------- */

static void
print_conversations_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc conversations [--history FILE] [--offset N] [--limit N]"));
  fprintf (out, "\n%s\n", _("Lists the conversations of the history, pinned first, then the most recently changed: "
                            "one line each with its id, assistant, last change (UTC), number of messages, "
                            "“pinned” or “-”, and title (on one line, shortened), separated by tabs."));
  fprintf (out, "\n%s\n", _("Options:"));
  fprintf (out, "  %-16s %s\n", "--history FILE", _("The history to read (default: the one the app uses)"));
  fprintf (out, "  %-16s %s\n", "--offset N", _("Skip the first N conversations"));
  fprintf (out, "  %-16s %s\n", "--limit N", _("List at most N conversations (default: all)"));
}

static gboolean
parse_count (const char *text,
             guint      *value)
{
  guint64 number = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, &number, NULL))
    return FALSE;

  *value = (guint) number;
  return TRUE;
}

int
akc_cmd_conversations (int    argc,
                       char **argv)
{
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) page = NULL;
  g_autoptr(GError) error = NULL;
  const char *history = NULL;
  guint offset = 0;
  guint limit = G_MAXUINT;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_conversations_usage (stdout);
          return AKC_CLI_EXIT_OK;
        }
      else if (strcmp (argv[i], "--history") == 0 && i + 1 < argc)
        history = argv[++i];
      else if (strcmp (argv[i], "--offset") == 0 && i + 1 < argc && parse_count (argv[i + 1], &offset))
        i++;
      else if (strcmp (argv[i], "--limit") == 0 && i + 1 < argc && parse_count (argv[i + 1], &limit))
        i++;
      else
        {
          print_conversations_usage (stderr);
          return AKC_CLI_EXIT_USAGE;
        }
    }

  memory = open_history ("conversations", history);
  if (memory == NULL)
    return AKC_CLI_EXIT_REJECTED;

  akc_chat_memory_list_conversations_page_async (AKC_CHAT_MEMORY (memory), offset, limit, NULL,
                                                 store_result, &result);
  page = akc_chat_memory_list_conversations_page_finish (AKC_CHAT_MEMORY (memory), wait_for (&result), &error);
  if (page == NULL)
    {
      akc_cli_print_untrusted (stderr, "akc conversations: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  for (guint i = 0; i < g_list_model_get_n_items (page); i++)
    {
      g_autoptr(AkcConversationInfo) info = g_list_model_get_item (page, i);
      g_autofree char *updated = g_date_time_format (akc_conversation_info_get_updated_at (info), "%Y-%m-%d %H:%M");
      g_autofree char *title = akc_derive_conversation_title (akc_conversation_info_get_title (info), -1);

      /* Titles and ids are the person's (or an imported file's): through
       * the sanitiser, on one line. */
      akc_cli_print_untrusted (stdout, "%s\t%s\t%s\t%u\t%s\t%s\n",
                               akc_conversation_info_get_id (info),
                               akc_conversation_info_get_assistant_id (info),
                               updated,
                               akc_conversation_info_get_n_messages (info),
                               akc_conversation_info_get_pinned (info) ? "pinned" : "-",
                               title);
    }

  return AKC_CLI_EXIT_OK;
}

/* akc export -------------------------------------------------------- */

static void
print_export_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc export --conversation ID --format md|json [--output FILE] [--history FILE]"));
  fprintf (out, "\n%s\n", _("Writes a conversation of the history as Markdown (to read) or as JSON "
                            "(every field, for “akc import”; see docs/conversation-format.md), "
                            "to standard output or to FILE."));
  fprintf (out, "\n%s\n", _("Options:"));
  fprintf (out, "  %-20s %s\n", "--conversation ID", _("The conversation (see “akc conversations”)"));
  fprintf (out, "  %-20s %s\n", "--format md|json", _("Markdown or JSON"));
  fprintf (out, "  %-20s %s\n", "--output FILE", _("Write to FILE (readable by you only) instead of standard output"));
  fprintf (out, "  %-20s %s\n", "--history FILE", _("The history to read (default: the one the app uses)"));
}

int
akc_cmd_export (int    argc,
                char **argv)
{
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *history = NULL;
  const char *conversation = NULL;
  const char *format = NULL;
  const char *output = NULL;
  const char *data;
  gsize length = 0;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_export_usage (stdout);
          return AKC_CLI_EXIT_OK;
        }
      else if (strcmp (argv[i], "--history") == 0 && i + 1 < argc)
        history = argv[++i];
      else if (strcmp (argv[i], "--conversation") == 0 && i + 1 < argc)
        conversation = argv[++i];
      else if (strcmp (argv[i], "--format") == 0 && i + 1 < argc)
        format = argv[++i];
      else if (strcmp (argv[i], "--output") == 0 && i + 1 < argc)
        output = argv[++i];
      else
        {
          print_export_usage (stderr);
          return AKC_CLI_EXIT_USAGE;
        }
    }

  if (conversation == NULL || format == NULL ||
      (strcmp (format, "md") != 0 && strcmp (format, "json") != 0))
    {
      print_export_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  memory = open_history ("export", history);
  if (memory == NULL)
    return AKC_CLI_EXIT_REJECTED;

  akc_sqlite_chat_memory_export_async (memory, conversation,
                                       strcmp (format, "json") == 0 ? AKC_CONVERSATION_FORMAT_JSON
                                                                    : AKC_CONVERSATION_FORMAT_MARKDOWN,
                                       NULL, store_result, &result);
  bytes = akc_sqlite_chat_memory_export_finish (memory, wait_for (&result), &error);
  if (bytes == NULL)
    {
      akc_cli_print_untrusted (stderr, "akc export: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  data = g_bytes_get_data (bytes, &length);

  if (output != NULL && strcmp (output, "-") != 0)
    {
      /* Replaced whole or not at all, private as the history is. */
      if (!g_file_set_contents_full (output, data != NULL ? data : "", length,
                                     G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
        {
          akc_cli_print_untrusted (stderr, "akc export: %s\n", error->message);
          return AKC_CLI_EXIT_REJECTED;
        }
      return AKC_CLI_EXIT_OK;
    }

  /* The conversation's text is untrusted on a terminal; a pipe or a file
   * gets the exact bytes. */
  akc_cli_write_untrusted (stdout, data != NULL ? data : "", length);
  fflush (stdout);

  return AKC_CLI_EXIT_OK;
}

/* akc import -------------------------------------------------------- */

static void
print_import_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc import [--history FILE] FILE"));
  fprintf (out, "\n%s\n", _("Reads a conversation exported as JSON (“akc export --format json”) from FILE, "
                            "or standard input for “-”, into a new conversation of the history, and prints "
                            "its id. A file that is not a valid export adds nothing."));
  fprintf (out, "\n%s\n", _("Options:"));
  fprintf (out, "  %-16s %s\n", "--history FILE", _("The history to write (default: the one the app uses)"));
}

int
akc_cmd_import (int    argc,
                char **argv)
{
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *history = NULL;
  const char *file = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_import_usage (stdout);
          return AKC_CLI_EXIT_OK;
        }
      else if (strcmp (argv[i], "--history") == 0 && i + 1 < argc)
        history = argv[++i];
      else if (file == NULL && (argv[i][0] != '-' || strcmp (argv[i], "-") == 0))
        file = argv[i];
      else
        {
          print_import_usage (stderr);
          return AKC_CLI_EXIT_USAGE;
        }
    }

  if (file == NULL)
    {
      print_import_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (!akc_cli_read_input (file, &bytes, &error))
    {
      akc_cli_print_untrusted (stderr, "akc import: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  memory = open_history ("import", history);
  if (memory == NULL)
    return AKC_CLI_EXIT_REJECTED;

  akc_sqlite_chat_memory_import_async (memory, bytes, NULL, store_result, &result);
  info = akc_sqlite_chat_memory_import_finish (memory, wait_for (&result), &error);
  if (info == NULL)
    {
      akc_cli_print_untrusted (stderr, "akc import: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  printf ("%s\n", akc_conversation_info_get_id (info));

  return AKC_CLI_EXIT_OK;
}

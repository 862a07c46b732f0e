/* akc-sqlite-side-table.c: the operations on a conversation's side
 * tables of the history database
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat-memory.h"
#include "akc-sqlite-side-table-private.h"
#include "akc-text-private.h"

gboolean
akc_sqlite_side_table_check_id (const char  *id,
                                GError     **error)
{
  if (id == NULL || !akc_text_is_safe_id (id, strlen (id)))
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                           _("A conversation, message or instance id is 1 to 128 letters, digits, "
                             "“.”, “_”, “:” or “-”, starting with a letter or a digit."));
      return FALSE;
    }

  return TRUE;
}

GTask *
akc_sqlite_side_table_task_new (AkcSqliteChatMemory *self,
                                const char          *conversation_id,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data,
                                gpointer             source_tag)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GError *error = NULL;

  g_task_set_source_tag (task, source_tag);
  if (!akc_sqlite_side_table_check_id (conversation_id, &error))
    {
      g_task_return_error (task, error);
      return NULL;
    }

  return g_steal_pointer (&task);
}

/* The caller's task, waiting for the transaction. */
typedef struct
{
  GTask          *task;
  GDestroyNotify  result_free;
} Pending;

static void
run_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Pending *pending = user_data;
  g_autoptr(GTask) task = pending->task;
  GDestroyNotify result_free = pending->result_free;
  GError *error = NULL;
  gpointer value = akc_sqlite_chat_memory_run_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);

  g_free (pending);
  if (value == NULL)
    g_task_return_error (task, error);
  else if (result_free != NULL)
    g_task_return_pointer (task, value, result_free);
  else
    g_task_return_boolean (task, value == AKC_SIDE_TABLE_TRUE);
}

void
akc_sqlite_side_table_run (GTask                    *task,
                           AkcSqliteTransactionFunc  func,
                           gpointer                  job,
                           GDestroyNotify            job_free,
                           GDestroyNotify            result_free)
{
  Pending *pending = g_new0 (Pending, 1);

  pending->task = task;
  pending->result_free = result_free;
  akc_sqlite_chat_memory_run_async (AKC_SQLITE_CHAT_MEMORY (g_task_get_source_object (task)),
                                    func, job, job_free, result_free,
                                    g_task_get_cancellable (task), run_done, pending);
}

/* akc-sqlite-drafts.c: the unsent draft of each conversation of the
 * history database (the conversation_drafts side table, created with
 * the message extras when the file opens)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <sqlite3.h>

#include "akc-chat-memory.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-sqlite-schema-private.h"
#include "akc-sqlite-side-table-private.h"

/* What a job needs, copied on the calling thread. */
typedef struct
{
  char *conversation_id;
  char *text;             /* NULL: no draft */
} DraftJob;

static void
draft_job_free (gpointer data)
{
  DraftJob *job = data;

  g_free (job->conversation_id);
  g_free (job->text);
  g_free (job);
}

static gpointer
load_in_transaction (sqlite3     *db,
                     const char  *path,
                     gpointer     data,
                     GError     **error)
{
  DraftJob *job = data;
  sqlite3_stmt *stmt = NULL;
  char *text = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT text FROM conversation_drafts WHERE conversation_id = ?1",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, job->conversation_id, -1, SQLITE_STATIC);
      rc = sqlite3_step (stmt);
    }
  if (rc == SQLITE_ROW)
    {
      const char *column = (const char *) sqlite3_column_text (stmt, 0);
      gsize len = (gsize) sqlite3_column_bytes (stmt, 0);

      /* A damaged draft is dropped rather than failing the conversation:
       * it is text the person can type again, the messages are not. */
      if (column != NULL && strlen (column) == len && g_utf8_validate (column, len, NULL))
        text = g_strdup (column);
      rc = SQLITE_DONE;
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return NULL;
    }

  return text != NULL ? text : g_strdup ("");
}

static gpointer
save_in_transaction (sqlite3     *db,
                     const char  *path,
                     gpointer     data,
                     GError     **error)
{
  DraftJob *job = data;
  sqlite3_stmt *stmt = NULL;
  int rc;

  /* Only for a conversation the history holds: a draft written after its
   * conversation was deleted stays deleted with it. */
  if (job->text != NULL)
    rc = sqlite3_prepare_v2 (db,
                             "INSERT INTO conversation_drafts (conversation_id, text, updated_at)"
                             " SELECT id, ?2, ?3 FROM conversations WHERE id = ?1"
                             " ON CONFLICT (conversation_id) DO UPDATE SET text = ?2, updated_at = ?3",
                             -1, &stmt, NULL);
  else
    rc = sqlite3_prepare_v2 (db, "DELETE FROM conversation_drafts WHERE conversation_id = ?1",
                             -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, job->conversation_id, -1, SQLITE_STATIC);
      if (job->text != NULL)
        {
          sqlite3_bind_text (stmt, 2, job->text, -1, SQLITE_STATIC);
          sqlite3_bind_int64 (stmt, 3, g_get_real_time () / G_USEC_PER_SEC);
        }
      rc = sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      return NULL;
    }

  return AKC_SIDE_TABLE_TRUE;
}

/**
 * akc_sqlite_chat_memory_load_draft_async:
 * @self: a #AkcSqliteChatMemory
 * @conversation_id: a conversation id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the draft is read
 * @user_data: data for @callback
 *
 * Reads the draft of a conversation: what the person typed in its
 * composer and did not send, as [method@SqliteChatMemory.save_draft_async]
 * stored it.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_load_draft_async (AkcSqliteChatMemory *self,
                                         const char          *conversation_id,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  DraftJob *job;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);

  task = akc_sqlite_side_table_task_new (self, conversation_id, cancellable, callback, user_data,
                                         akc_sqlite_chat_memory_load_draft_async);
  if (task == NULL)
    return;

  job = g_new0 (DraftJob, 1);
  job->conversation_id = g_strdup (conversation_id);
  akc_sqlite_side_table_run (g_steal_pointer (&task), load_in_transaction, job, draft_job_free, g_free);
}

/**
 * akc_sqlite_chat_memory_load_draft_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@SqliteChatMemory.load_draft_async].
 *
 * Returns: (transfer full) (nullable): the draft, empty when the
 *   conversation has none, or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_sqlite_chat_memory_load_draft_finish (AkcSqliteChatMemory  *self,
                                          GAsyncResult         *result,
                                          GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_sqlite_chat_memory_save_draft_async:
 * @self: a #AkcSqliteChatMemory
 * @conversation_id: a conversation id
 * @text: (nullable): the draft; %NULL or empty for none
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the draft is stored
 * @user_data: data for @callback
 *
 * Keeps what the person typed in a conversation's composer and did not
 * send, with the conversation, replacing its previous draft; an empty
 * one removes it. The draft goes with its conversation when that is
 * deleted; a conversation the history does not hold keeps none (the
 * operation succeeds without writing).
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_save_draft_async (AkcSqliteChatMemory *self,
                                         const char          *conversation_id,
                                         const char          *text,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  DraftJob *job;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);

  task = akc_sqlite_side_table_task_new (self, conversation_id, cancellable, callback, user_data,
                                         akc_sqlite_chat_memory_save_draft_async);
  if (task == NULL)
    return;
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    {
      g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                               "%s", _("A draft must be UTF-8 text."));
      return;
    }

  job = g_new0 (DraftJob, 1);
  job->conversation_id = g_strdup (conversation_id);
  job->text = text != NULL && *text != '\0' ? g_strdup (text) : NULL;
  akc_sqlite_side_table_run (g_steal_pointer (&task), save_in_transaction, job, draft_job_free, NULL);
}

/**
 * akc_sqlite_chat_memory_save_draft_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@SqliteChatMemory.save_draft_async].
 *
 * Returns: %TRUE if the draft is stored (or removed), %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
akc_sqlite_chat_memory_save_draft_finish (AkcSqliteChatMemory  *self,
                                          GAsyncResult         *result,
                                          GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

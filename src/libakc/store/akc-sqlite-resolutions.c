/* akc-sqlite-resolutions.c: the component resolutions of the history
 * database (schema version 4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <sqlite3.h>

#include "akc-chat-memory.h"
#include "akc-component-resolution.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-sqlite-schema-private.h"
#include "akc-sqlite-side-table-private.h"
#include "akc-text-private.h"

/* What a job needs, copied on the calling thread. */
typedef struct
{
  char   *conversation_id;
  char   *instance_id;
  char   *message_id;
  char   *event;
  char   *value;       /* canonical JSON, or NULL */
  gint64  resolved_at;
} ResolutionJob;

static void
resolution_job_free (gpointer data)
{
  ResolutionJob *job = data;

  g_free (job->conversation_id);
  g_free (job->instance_id);
  g_free (job->message_id);
  g_free (job->event);
  g_free (job->value);
  g_free (job);
}

static gboolean
step_failed (sqlite3     *db,
             int          rc,
             const char  *path,
             GError     **error)
{
  akc_sqlite_set_error (error, db, rc, path);
  return FALSE;
}

static void
bind_text (sqlite3_stmt *stmt,
           int           index,
           const char   *text)
{
  if (text == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
}

/* A copy of a text column without U+0000, or NULL. */
static char *
column_dup (sqlite3_stmt *stmt,
            int           column)
{
  const char *text;

  if (sqlite3_column_type (stmt, column) != SQLITE_TEXT)
    return NULL;

  text = (const char *) sqlite3_column_text (stmt, column);
  if (text == NULL || strlen (text) != (gsize) sqlite3_column_bytes (stmt, column))
    return NULL;

  return g_strdup (text);
}

static gpointer
load_in_transaction (sqlite3     *db,
                     const char  *path,
                     gpointer     data,
                     GError     **error)
{
  ResolutionJob *job = data;
  g_autoptr(GListStore) resolutions = g_list_store_new (AKC_TYPE_COMPONENT_RESOLUTION);
  sqlite3_stmt *stmt = NULL;
  int rc;

  /* Only those whose message is still in the conversation. */
  rc = sqlite3_prepare_v2 (db,
                           "SELECT r.instance_id, r.message_id, r.event, r.value, r.resolved_at"
                           " FROM component_resolutions AS r"
                           " JOIN messages AS m ON m.conversation_id = r.conversation_id AND m.id = r.message_id"
                           " WHERE r.conversation_id = ?1"
                           " ORDER BY r.resolved_at, r.instance_id",
                           -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      step_failed (db, rc, path, error);
      return NULL;
    }

  bind_text (stmt, 1, job->conversation_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *instance_id = column_dup (stmt, 0);
      g_autofree char *message_id = column_dup (stmt, 1);
      g_autofree char *event = column_dup (stmt, 2);
      g_autofree char *text = column_dup (stmt, 3);
      g_autoptr(AkcJsonValue) value = NULL;
      g_autoptr(AkcComponentResolution) resolution = NULL;

      /* A damaged row still resolves its instance: an answered card is
       * never offered again because its answer cannot be read. */
      if (instance_id == NULL || !akc_text_is_safe_id (instance_id, strlen (instance_id)))
        continue;
      if (text != NULL)
        value = akc_json_value_parse (text, -1, NULL);

      resolution = akc_component_resolution_new (instance_id, message_id,
                                                 event != NULL ? event : "",
                                                 value, sqlite3_column_int64 (stmt, 4));
      g_list_store_append (resolutions, resolution);
    }
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      step_failed (db, rc, path, error);
      return NULL;
    }

  return g_steal_pointer (&resolutions);
}

static gpointer
save_in_transaction (sqlite3     *db,
                     const char  *path,
                     gpointer     data,
                     GError     **error)
{
  ResolutionJob *job = data;
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT 1 FROM messages WHERE conversation_id = ?1 AND id = ?2",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (stmt, 1, job->conversation_id);
      bind_text (stmt, 2, job->message_id);
      rc = sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
                           _("There is no such message in the history."));
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      step_failed (db, rc, path, error);
      return NULL;
    }

  rc = sqlite3_prepare_v2 (db,
                           "INSERT INTO component_resolutions"
                           " (conversation_id, instance_id, message_id, event, value, resolved_at)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (stmt, 1, job->conversation_id);
      bind_text (stmt, 2, job->instance_id);
      bind_text (stmt, 3, job->message_id);
      bind_text (stmt, 4, job->event);
      bind_text (stmt, 5, job->value);
      sqlite3_bind_int64 (stmt, 6, job->resolved_at);
      rc = sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      step_failed (db, rc, path, error);
      return NULL;
    }

  /* The first answer wins, whichever process gave it. */
  if (sqlite3_changes (db) == 0)
    {
      g_set_error_literal (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS,
                           _("This card was already answered."));
      return NULL;
    }

  return AKC_SIDE_TABLE_TRUE;
}

static gpointer
delete_in_transaction (sqlite3     *db,
                       const char  *path,
                       gpointer     data,
                       GError     **error)
{
  ResolutionJob *job = data;
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db,
                           "DELETE FROM component_resolutions WHERE conversation_id = ?1 AND instance_id = ?2",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (stmt, 1, job->conversation_id);
      bind_text (stmt, 2, job->instance_id);
      rc = sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      step_failed (db, rc, path, error);
      return NULL;
    }

  return sqlite3_changes (db) > 0 ? AKC_SIDE_TABLE_TRUE : AKC_SIDE_TABLE_FALSE;
}

/**
 * akc_sqlite_chat_memory_load_resolutions_async:
 * @self: a #AkcSqliteChatMemory
 * @conversation_id: a conversation id
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the resolutions are read
 * @user_data: data for @callback
 *
 * Reads how the component instances of a conversation were answered
 * ([application §12.7](wire-formats.html#application-12)), for the messages still in the conversation.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_load_resolutions_async (AkcSqliteChatMemory *self,
                                               const char          *conversation_id,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ResolutionJob *job;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);

  task = akc_sqlite_side_table_task_new (self, conversation_id, cancellable, callback, user_data,
                                         akc_sqlite_chat_memory_load_resolutions_async);
  if (task == NULL)
    return;

  job = g_new0 (ResolutionJob, 1);
  job->conversation_id = g_strdup (conversation_id);
  akc_sqlite_side_table_run (g_steal_pointer (&task), load_in_transaction, job, resolution_job_free,
                             g_object_unref);
}

/**
 * akc_sqlite_chat_memory_load_resolutions_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@SqliteChatMemory.load_resolutions_async].
 *
 * Returns: (transfer full) (nullable): a list of [class@ComponentResolution],
 *   oldest first (empty for a conversation without any), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GListModel *
akc_sqlite_chat_memory_load_resolutions_finish (AkcSqliteChatMemory  *self,
                                                GAsyncResult         *result,
                                                GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * akc_sqlite_chat_memory_save_resolution_async:
 * @self: a #AkcSqliteChatMemory
 * @conversation_id: the conversation of the message
 * @resolution: how an instance was answered; its message id must be set
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the resolution is stored or refused
 * @user_data: data for @callback
 *
 * Stores how a component instance was answered, with its message. The
 * first answer of an instance wins: when the instance already has one
 * (answered by this or another program), nothing is written and the
 * operation fails with %AKC_CHAT_MEMORY_ERROR_EXISTS. A message that is
 * not in the conversation fails with %AKC_CHAT_MEMORY_ERROR_NOT_FOUND.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_save_resolution_async (AkcSqliteChatMemory    *self,
                                              const char             *conversation_id,
                                              AkcComponentResolution *resolution,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value;
  ResolutionJob *job;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (AKC_IS_COMPONENT_RESOLUTION (resolution));

  task = akc_sqlite_side_table_task_new (self, conversation_id, cancellable, callback, user_data,
                                         akc_sqlite_chat_memory_save_resolution_async);
  if (task == NULL)
    return;
  if (!akc_sqlite_side_table_check_id (akc_component_resolution_get_instance_id (resolution), &error) ||
      !akc_sqlite_side_table_check_id (akc_component_resolution_get_message_id (resolution), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  value = akc_component_resolution_get_value (resolution);
  job = g_new0 (ResolutionJob, 1);
  job->conversation_id = g_strdup (conversation_id);
  job->instance_id = g_strdup (akc_component_resolution_get_instance_id (resolution));
  job->message_id = g_strdup (akc_component_resolution_get_message_id (resolution));
  job->event = g_strdup (akc_component_resolution_get_event (resolution));
  job->value = value != NULL ? akc_json_value_to_canonical (value, NULL) : NULL;
  job->resolved_at = akc_component_resolution_get_resolved_at (resolution);
  akc_sqlite_side_table_run (g_steal_pointer (&task), save_in_transaction, job, resolution_job_free, NULL);
}

/**
 * akc_sqlite_chat_memory_save_resolution_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@SqliteChatMemory.save_resolution_async].
 *
 * Returns: %TRUE if the resolution was stored, %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
akc_sqlite_chat_memory_save_resolution_finish (AkcSqliteChatMemory  *self,
                                               GAsyncResult         *result,
                                               GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * akc_sqlite_chat_memory_delete_resolution_async:
 * @self: a #AkcSqliteChatMemory
 * @conversation_id: a conversation id
 * @instance_id: the instance whose answer is withdrawn
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the resolution is removed
 * @user_data: data for @callback
 *
 * Forgets the answer of an instance, when acting on it failed and the
 * person may answer again ([application §12.7](wire-formats.html#application-12)). Removing an answer that
 * is not stored succeeds and returns %FALSE from the finish function.
 *
 * Since: 0.1
 */
void
akc_sqlite_chat_memory_delete_resolution_async (AkcSqliteChatMemory *self,
                                                const char          *conversation_id,
                                                const char          *instance_id,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  ResolutionJob *job;

  g_return_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (instance_id != NULL);

  task = akc_sqlite_side_table_task_new (self, conversation_id, cancellable, callback, user_data,
                                         akc_sqlite_chat_memory_delete_resolution_async);
  if (task == NULL)
    return;
  if (!akc_sqlite_side_table_check_id (instance_id, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  job = g_new0 (ResolutionJob, 1);
  job->conversation_id = g_strdup (conversation_id);
  job->instance_id = g_strdup (instance_id);
  akc_sqlite_side_table_run (g_steal_pointer (&task), delete_in_transaction, job, resolution_job_free, NULL);
}

/**
 * akc_sqlite_chat_memory_delete_resolution_finish:
 * @self: a #AkcSqliteChatMemory
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Finishes [method@SqliteChatMemory.delete_resolution_async].
 *
 * Returns: %TRUE if an answer was removed; %FALSE with @error set on
 *   failure, or without it when there was none
 *
 * Since: 0.1
 */
gboolean
akc_sqlite_chat_memory_delete_resolution_finish (AkcSqliteChatMemory  *self,
                                                 GAsyncResult         *result,
                                                 GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

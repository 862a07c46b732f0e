/* akc-record-table.c: records kept by key in the history database
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "akc-record-table-private.h"
#include "akc-sqlite-chat-memory-private.h"
#include "akc-sqlite-schema-private.h"

struct _AkcRecordTable
{
  sqlite3    *db;
  const char *path;
};

gboolean
akc_record_table_get (AkcRecordTable  *table,
                      const char      *key,
                      char           **value,
                      gsize           *length)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;
  int rc;

  *value = NULL;
  if (sqlite3_prepare_v2 (table->db, "SELECT value FROM ask_sessions WHERE key = ?1", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 0);

      *length = sqlite3_column_bytes (stmt, 0);
      *value = g_malloc (*length + 1);
      if (*length > 0)
        memcpy (*value, text, *length);
      (*value)[*length] = '\0';
      ok = TRUE;
    }
  else if (rc == SQLITE_DONE)
    ok = TRUE;
  sqlite3_finalize (stmt);

  return ok;
}

gboolean
akc_record_table_set (AkcRecordTable *table,
                      const char     *key,
                      const char     *value,
                      gsize           length)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (table->db,
                          "INSERT INTO ask_sessions (key, value, updated_at) VALUES (?1, ?2, ?3)"
                          "  ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                          "                                  updated_at = excluded.updated_at",
                          -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text64 (stmt, 2, value, length, SQLITE_STATIC, SQLITE_UTF8);
  sqlite3_bind_int64 (stmt, 3, g_get_real_time ());
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);

  return rc == SQLITE_DONE;
}

gboolean
akc_record_table_remove (AkcRecordTable *table,
                         const char     *key)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (table->db, "DELETE FROM ask_sessions WHERE key = ?1", -1, &stmt, NULL) != SQLITE_OK)
    return FALSE;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);

  return rc == SQLITE_DONE;
}

void
akc_record_table_set_error (AkcRecordTable  *table,
                            GError         **error)
{
  akc_sqlite_set_error (error, table->db, sqlite3_errcode (table->db), table->path);
}

typedef struct
{
  AkcRecordTableFunc func;
  gpointer           data;
  GDestroyNotify     data_free;
} TableJob;

static void
table_job_free (gpointer data)
{
  TableJob *job = data;

  if (job->data_free != NULL)
    job->data_free (job->data);
  g_free (job);
}

static gpointer
run_in_transaction (sqlite3     *db,
                    const char  *path,
                    gpointer     data,
                    GError     **error)
{
  TableJob *job = data;
  AkcRecordTable table = { db, path };

  return job->func (&table, job->data, error);
}

void
akc_record_table_run_async (AkcSqliteChatMemory *memory,
                            AkcRecordTableFunc   func,
                            gpointer             data,
                            GDestroyNotify       data_free,
                            GDestroyNotify       result_free,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  TableJob *job = g_new0 (TableJob, 1);

  job->func = func;
  job->data = data;
  job->data_free = data_free;
  akc_sqlite_chat_memory_run_async (memory, run_in_transaction, job, table_job_free, result_free,
                                    cancellable, callback, user_data);
}

gpointer
akc_record_table_run_finish (AkcSqliteChatMemory  *memory,
                             GAsyncResult         *result,
                             GError              **error)
{
  return akc_sqlite_chat_memory_run_finish (memory, result, error);
}

/* akc-sqlite-ask-store.c: Ask session records in an SQLite file
 *
 * SPDX-License-Identifier: MIT
 *
 * `"store": {"kind": "sqlite", "path"?: P}` of an Ask mount: the records
 * {revision, messages} of §11.2 in the table `akc_ask_sessions` of an
 * SQLite file (WAL), by default the session store's own. A save is one
 * compare-and-set statement, as in PostgreSQL: an INSERT … ON CONFLICT DO
 * NOTHING when no record may exist yet (expected revision 0), otherwise an
 * UPDATE … WHERE revision = the expected one; the number of rows it
 * changed says whether it won, so of two saves of one revision (two
 * requests, or two processes on one file) exactly one wins and the other
 * answers the conflict error.
 *
 * The connection is used on worker threads one statement at a time (GTask
 * threads, a mutex), never on the main loop.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sqlite3.h>

#include "akc-server-util.h"
#include "akc-sqlite-ask-store.h"

#define BUSY_TIMEOUT_MS 5000

struct _AkcSqliteAskStore
{
  GObject  parent_instance;

  GMutex   lock;
  sqlite3 *db;
};

static void akc_sqlite_ask_store_iface_init (AkcAskStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSqliteAskStore, akc_sqlite_ask_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ASK_STORE, akc_sqlite_ask_store_iface_init))

static void
set_sqlite_error (GError     **error,
                  sqlite3     *db,
                  const char  *what)
{
  g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_READ, "%s: %s", what,
               db != NULL ? sqlite3_errmsg (db) : "out of memory");
}

typedef struct
{
  char   *key;
  char   *record;      /* save: the canonical JSON */
  gint64  revision;    /* save: the record's */
  gint64  expected;    /* save: 0 when no record may exist yet */
} Op;

static void
op_free (gpointer data)
{
  Op *op = data;

  g_free (op->key);
  g_free (op->record);
  g_free (op);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  AkcSqliteAskStore *self = source;
  Op *op = data;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  (void) locker;  /* held to the end of the statement */
  rc = sqlite3_prepare_v2 (self->db, "SELECT record FROM akc_ask_sessions WHERE key = ?1", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 1, op->key, -1, SQLITE_TRANSIENT);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      const char *text = (const char *) sqlite3_column_text (stmt, 0);

      value = akc_json_value_parse (text, sqlite3_column_bytes (stmt, 0), &error);
      if (value == NULL)
        {
          sqlite3_finalize (stmt);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  else if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("An Ask session record cannot be read"));
      sqlite3_finalize (stmt);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  sqlite3_finalize (stmt);
  if (value == NULL)
    value = akc_json_value_new_null ();
  g_task_return_pointer (task, value, (GDestroyNotify) akc_json_value_unref);
}

static void
save_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  AkcSqliteAskStore *self = source;
  Op *op = data;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  (void) locker;  /* held to the end of the statement */
  rc = sqlite3_prepare_v2 (self->db,
                           op->expected == 0
                           ? "INSERT INTO akc_ask_sessions (key, revision, record, updated_at)"
                             " VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
                             " ON CONFLICT (key) DO NOTHING"
                           : "UPDATE akc_ask_sessions SET revision = ?2, record = ?3,"
                             " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                             " WHERE key = ?1 AND revision = ?4",
                           -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 1, op->key, -1, SQLITE_TRANSIENT);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_int64 (stmt, 2, op->revision);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 3, op->record, -1, SQLITE_TRANSIENT);
  if (rc == SQLITE_OK && op->expected != 0)
    rc = sqlite3_bind_int64 (stmt, 4, op->expected);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (&error, self->db, _("An Ask session record cannot be saved"));
      sqlite3_finalize (stmt);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  sqlite3_finalize (stmt);
  g_task_return_int (task, sqlite3_changes (self->db) == 1);
}

static void
sqlite_load_async (AkcAskStore         *store,
                   const char          *key,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->key = g_strdup (key);
  akc_server_run_in_thread (AKC_SQLITE_ASK_STORE (store), op, op_free, load_thread, cancellable, callback, user_data);
}

static AkcJsonValue *
sqlite_load_finish (AkcAskStore   *store,
                    GAsyncResult  *result,
                    GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sqlite_save_async (AkcAskStore         *store,
                   const char          *key,
                   AkcJsonValue        *record,
                   gint64               expected_revision,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->key = g_strdup (key);
  op->record = akc_json_value_to_canonical (record, NULL);
  op->revision = (gint64) akc_json_value_get_number (akc_json_value_get_member (record, "revision"));
  op->expected = expected_revision;
  akc_server_run_in_thread (AKC_SQLITE_ASK_STORE (store), op, op_free, save_thread, cancellable, callback, user_data);
}

static gboolean
sqlite_save_finish (AkcAskStore   *store,
                    GAsyncResult  *result,
                    gboolean      *saved,
                    GError       **error)
{
  return akc_server_propagate_saved (result, saved, error);
}

static void
akc_sqlite_ask_store_iface_init (AkcAskStoreInterface *iface)
{
  iface->load_async = sqlite_load_async;
  iface->load_finish = sqlite_load_finish;
  iface->save_async = sqlite_save_async;
  iface->save_finish = sqlite_save_finish;
}

static void
akc_sqlite_ask_store_finalize (GObject *object)
{
  AkcSqliteAskStore *self = AKC_SQLITE_ASK_STORE (object);

  g_clear_pointer (&self->db, sqlite3_close);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (akc_sqlite_ask_store_parent_class)->finalize (object);
}

static void
akc_sqlite_ask_store_class_init (AkcSqliteAskStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_sqlite_ask_store_finalize;
}

static void
akc_sqlite_ask_store_init (AkcSqliteAskStore *self)
{
  g_mutex_init (&self->lock);
}

/* Opens (or creates) @path with its table, in WAL mode. This runs when
 * the server starts, before it serves anything. */
AkcAskStore *
akc_sqlite_ask_store_new (const char  *path,
                          GError     **error)
{
  g_autoptr(AkcSqliteAskStore) self = g_object_new (AKC_TYPE_SQLITE_ASK_STORE, NULL);
  char *message = NULL;
  int rc;

  rc = sqlite3_open_v2 (path, &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MS);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec (self->db,
                       "PRAGMA journal_mode = WAL;"
                       "PRAGMA synchronous = NORMAL;"
                       "CREATE TABLE IF NOT EXISTS akc_ask_sessions ("
                       " key TEXT PRIMARY KEY,"
                       " revision INTEGER NOT NULL,"
                       " record TEXT NOT NULL,"
                       " updated_at TEXT NOT NULL)",
                       NULL, NULL, &message);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_READ,
                   _("The Ask session records in “%s” cannot be opened: %s"), path,
                   message != NULL ? message : self->db != NULL ? sqlite3_errmsg (self->db) : "out of memory");
      sqlite3_free (message);
      return NULL;
    }
  return AKC_ASK_STORE (g_steal_pointer (&self));
}

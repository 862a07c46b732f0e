/* akc-pg-storage.c: sessions and Ask records in PostgreSQL (libpq)
 *
 * SPDX-License-Identifier: MIT
 *
 * `"sessionStore": {"kind": "postgresql", "conninfo": …}`: several
 * akc-server processes behind a load balancer share one database, which
 * is their only coordination point. One object is both an
 * AkcSessionStorage (session snapshots, application.md §4.5) and an
 * AkcAskStore (Ask session records, §11.2).
 *
 * A save is one statement: an INSERT … ON CONFLICT DO NOTHING when the
 * session must not exist yet, otherwise an UPDATE … WHERE cursor = the
 * expected cursor; the number of rows it changed says whether it won. A
 * turn lease (`activeTurn` with its `expiresAt`) and the terminal history
 * live in the snapshot, so two instances that race for one turn make two
 * compare-and-set saves of the same cursor, and exactly one wins. Ask
 * records are saved the same way on their revision.
 *
 * Each object has one connection, used on worker threads one statement at
 * a time (GTask threads, a mutex); a lost connection is reset once before
 * the statement fails.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libpq-fe.h>
#include <string.h>

#include "akc-pg-storage.h"
#include "akc-server-util.h"

struct _AkcPgStorage
{
  GObject  parent_instance;

  GMutex   lock;
  PGconn  *conn;
};

static void akc_pg_storage_session_init (AkcSessionStorageInterface *iface);
static void akc_pg_storage_ask_init (AkcAskStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcPgStorage, akc_pg_storage, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_SESSION_STORAGE, akc_pg_storage_session_init)
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ASK_STORE, akc_pg_storage_ask_init))

static const char * const schema[] = {
  "CREATE TABLE IF NOT EXISTS akc_sessions ("
  " session_id text PRIMARY KEY,"
  " cursor bigint NOT NULL,"
  " snapshot text NOT NULL,"
  " updated_at timestamptz NOT NULL DEFAULT now())",
  "CREATE TABLE IF NOT EXISTS akc_ask_sessions ("
  " key text PRIMARY KEY,"
  " revision bigint NOT NULL,"
  " record text NOT NULL,"
  " updated_at timestamptz NOT NULL DEFAULT now())",
};

static void
set_pg_error (GError     **error,
              PGconn      *conn,
              gboolean     connecting)
{
  g_autofree char *detail = g_strdup (conn != NULL ? PQerrorMessage (conn) : "");

  if (connecting)
    g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_READ,
                 _("The PostgreSQL database cannot be reached: %s"), g_strstrip (detail));
  else
    g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_READ,
                 _("A PostgreSQL statement failed: %s"), g_strstrip (detail));
}

/* Runs one statement; returns its result when it succeeded. */
static PGresult *
run (AkcPgStorage        *self,
     const char          *sql,
     int                  n_params,
     const char * const  *params,
     GError             **error)
{
  PGresult *result = NULL;

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      ExecStatusType status;

      result = PQexecParams (self->conn, sql, n_params, NULL, params, NULL, NULL, 0);
      status = PQresultStatus (result);
      if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        return result;
      if (PQstatus (self->conn) != CONNECTION_BAD || attempt > 0)
        break;
      PQclear (result);
      result = NULL;
      PQreset (self->conn);
    }
  set_pg_error (error, self->conn, FALSE);
  PQclear (result);
  return NULL;
}

typedef struct
{
  char  *key;
  char  *text;
  char  *number;
  char  *expected;   /* NULL: create only */
  gint64 expected_value;
  int    kind;       /* 0 session, 1 ask */
} Op;

static void
op_free (gpointer data)
{
  Op *op = data;

  g_free (op->key);
  g_free (op->text);
  g_free (op->number);
  g_free (op->expected);
  g_free (op);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  AkcPgStorage *self = source;
  Op *op = data;
  const char *params[] = { op->key };
  g_autoptr(GError) error = NULL;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  (void) locker;  /* held to the end of the statement */
  PGresult *result = run (self,
                          op->kind == 0 ? "SELECT snapshot FROM akc_sessions WHERE session_id = $1"
                                        : "SELECT record FROM akc_ask_sessions WHERE key = $1",
                          1, params, &error);
  AkcJsonValue *value = NULL;

  if (result == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (PQntuples (result) == 1)
    {
      const char *text = PQgetvalue (result, 0, 0);

      value = akc_json_value_parse (text, PQgetlength (result, 0, 0), &error);
      if (value == NULL)
        {
          PQclear (result);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }
  PQclear (result);
  if (value == NULL && op->kind == 1)
    value = akc_json_value_new_null ();
  g_task_return_pointer (task, value, (GDestroyNotify) akc_json_value_unref);
}

static void
save_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  AkcPgStorage *self = source;
  Op *op = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  (void) locker;  /* held to the end of the statement */
  PGresult *result;
  gboolean saved;

  if (op->kind == 0 && op->expected == NULL)
    {
      const char *params[] = { op->key, op->number, op->text };

      result = run (self, "INSERT INTO akc_sessions (session_id, cursor, snapshot) VALUES ($1, $2, $3)"
                          " ON CONFLICT (session_id) DO NOTHING", 3, params, &error);
    }
  else if (op->kind == 0)
    {
      const char *params[] = { op->key, op->number, op->text, op->expected };

      result = run (self, "UPDATE akc_sessions SET cursor = $2, snapshot = $3, updated_at = now()"
                          " WHERE session_id = $1 AND cursor = $4", 4, params, &error);
    }
  else if (op->expected_value == 0)
    {
      const char *params[] = { op->key, op->number, op->text };

      result = run (self, "INSERT INTO akc_ask_sessions (key, revision, record) VALUES ($1, $2, $3)"
                          " ON CONFLICT (key) DO NOTHING", 3, params, &error);
    }
  else
    {
      const char *params[] = { op->key, op->number, op->text, op->expected };

      result = run (self, "UPDATE akc_ask_sessions SET revision = $2, record = $3, updated_at = now()"
                          " WHERE key = $1 AND revision = $4", 4, params, &error);
    }
  if (result == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  saved = g_strcmp0 (PQcmdTuples (result), "1") == 0;
  PQclear (result);
  g_task_return_int (task, saved);
}

static void
session_load_async (AkcSessionStorage   *storage,
                    const char          *session_id,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->key = g_strdup (session_id);
  akc_server_run_in_thread (AKC_PG_STORAGE (storage), op, op_free, load_thread, cancellable, callback, user_data);
}

static AkcJsonValue *
session_load_finish (AkcSessionStorage  *storage,
                     GAsyncResult       *result,
                     GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
session_save_async (AkcSessionStorage   *storage,
                    AkcJsonValue        *snapshot,
                    gint64               expected_cursor,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->key = g_strdup (akc_json_value_get_string (akc_json_value_get_member (snapshot, "sessionId"), NULL));
  op->text = akc_json_value_to_canonical (snapshot, NULL);
  op->number = g_strdup_printf ("%" G_GINT64_FORMAT,
                                (gint64) akc_json_value_get_number (akc_json_value_get_member (snapshot, "cursor")));
  if (expected_cursor != AKC_SESSION_STORAGE_CREATE_ONLY)
    op->expected = g_strdup_printf ("%" G_GINT64_FORMAT, expected_cursor);
  akc_server_run_in_thread (AKC_PG_STORAGE (storage), op, op_free, save_thread, cancellable, callback, user_data);
}

static gboolean
session_save_finish (AkcSessionStorage  *storage,
                     GAsyncResult       *result,
                     gboolean           *saved,
                     GError            **error)
{
  return akc_server_propagate_saved (result, saved, error);
}

static void
akc_pg_storage_session_init (AkcSessionStorageInterface *iface)
{
  iface->load_async = session_load_async;
  iface->load_finish = session_load_finish;
  iface->save_async = session_save_async;
  iface->save_finish = session_save_finish;
}

static void
ask_load_async (AkcAskStore         *store,
                const char          *key,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->kind = 1;
  op->key = g_strdup (key);
  akc_server_run_in_thread (AKC_PG_STORAGE (store), op, op_free, load_thread, cancellable, callback, user_data);
}

static AkcJsonValue *
ask_load_finish (AkcAskStore   *store,
                 GAsyncResult  *result,
                 GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
ask_save_async (AkcAskStore         *store,
                const char          *key,
                AkcJsonValue        *record,
                gint64               expected_revision,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  Op *op = g_new0 (Op, 1);

  op->kind = 1;
  op->key = g_strdup (key);
  op->text = akc_json_value_to_canonical (record, NULL);
  op->number = g_strdup_printf ("%" G_GINT64_FORMAT,
                                (gint64) akc_json_value_get_number (akc_json_value_get_member (record, "revision")));
  op->expected_value = expected_revision;
  op->expected = g_strdup_printf ("%" G_GINT64_FORMAT, expected_revision);
  akc_server_run_in_thread (AKC_PG_STORAGE (store), op, op_free, save_thread, cancellable, callback, user_data);
}

static gboolean
ask_save_finish (AkcAskStore   *store,
                 GAsyncResult  *result,
                 gboolean      *saved,
                 GError       **error)
{
  return akc_server_propagate_saved (result, saved, error);
}

static void
akc_pg_storage_ask_init (AkcAskStoreInterface *iface)
{
  iface->load_async = ask_load_async;
  iface->load_finish = ask_load_finish;
  iface->save_async = ask_save_async;
  iface->save_finish = ask_save_finish;
}

static void
akc_pg_storage_finalize (GObject *object)
{
  AkcPgStorage *self = AKC_PG_STORAGE (object);

  g_clear_pointer (&self->conn, PQfinish);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (akc_pg_storage_parent_class)->finalize (object);
}

static void
akc_pg_storage_class_init (AkcPgStorageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_pg_storage_finalize;
}

static void
akc_pg_storage_init (AkcPgStorage *self)
{
  g_mutex_init (&self->lock);
}

static void
open_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  AkcPgStorage *self = source;
  g_autoptr(GError) error = NULL;
  PGresult *result;

  self->conn = PQconnectdb (data);
  if (PQstatus (self->conn) != CONNECTION_OK)
    {
      set_pg_error (&error, self->conn, TRUE);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* two instances starting at once may both create the tables */
  result = run (self, "SELECT pg_advisory_lock (1919811)", 0, NULL, &error);
  PQclear (result);
  for (guint i = 0; result != NULL && i < G_N_ELEMENTS (schema); i++)
    {
      result = run (self, schema[i], 0, NULL, &error);
      if (result != NULL && i + 1 < G_N_ELEMENTS (schema))
        PQclear (result);
    }
  PQclear (run (self, "SELECT pg_advisory_unlock (1919811)", 0, NULL, NULL));
  if (result == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  PQclear (result);
  g_task_return_boolean (task, TRUE);
}

/* Connects to @conninfo (a libpq connection string) on a worker thread
 * and creates the tables when they are missing. */
void
akc_pg_storage_new_async (const char          *conninfo,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(AkcPgStorage) self = g_object_new (AKC_TYPE_PG_STORAGE, NULL);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_task_data (task, g_strdup (conninfo), g_free);
  g_task_run_in_thread (task, open_thread);
}

AkcPgStorage *
akc_pg_storage_new_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_autoptr(AkcPgStorage) self = g_object_ref (g_task_get_source_object (G_TASK (result)));

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  return g_steal_pointer (&self);
}

/* akc-sqlite-session-storage.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <sqlite3.h>

#include <glib/gi18n-lib.h>

#include "akc-json-private.h"
#include "akc-session-snapshot.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-sqlite-schema-private.h"
#include "akc-sqlite-session-storage.h"

/**
 * AkcSqliteSessionStorage:
 *
 * A [iface@SessionStorage] in the history database (the `sessions` table
 * of schema version 2, next to the conversations of
 * [class@SqliteChatMemory]).
 *
 * Each save is one SQL statement, so one transaction: an
 * `INSERT … ON CONFLICT DO NOTHING` when only creating, an
 * `UPDATE … WHERE session_id = ? AND cursor = ?` otherwise, and the number
 * of rows changed tells whether the comparison held. SQLite serialises
 * writers across processes, so two clients that resumed one session can
 * never both win a save of the same cursor, even from two programs.
 *
 * Snapshots are stored as canonical `agentskit.chat.session` v1 text; a
 * snapshot that is not valid is refused before anything is written. The
 * database work runs on a worker thread of its own that owns the
 * connection, one statement at a time, in the order asked.
 *
 * Since: 0.1
 */

struct _AkcSqliteSessionStorage
{
  GObject      parent_instance;

  char        *path;
  GThreadPool *worker;  /* one thread; the only user of db */
  sqlite3     *db;
};

/* A job runs on the worker and hands its task back to the task's context
 * to return: the worker never holds the last reference to anything. */
typedef void (*JobFunc) (AkcSqliteSessionStorage *self,
                         GTask                   *task);

typedef struct
{
  GTask   *task;
  JobFunc  func;
} Job;

static void
run_job (gpointer data,
         gpointer user_data)
{
  Job *job = data;

  job->func (user_data, job->task);
  g_free (job);
}

static void
queue_job (AkcSqliteSessionStorage *self,
           GTask                   *task,
           JobFunc                  func)
{
  Job *job = g_new0 (Job, 1);

  job->task = g_object_ref (task);
  job->func = func;
  g_thread_pool_push (self->worker, job, NULL);
}

/* Worker side: records the outcome, the task returns it on its context. */
typedef struct
{
  GTask          *task;
  GError         *error;
  gpointer        pointer;
  GDestroyNotify  pointer_free;
  gssize          number;
  gboolean        is_pointer;
} Outcome;

static gboolean
deliver (gpointer data)
{
  Outcome *o = data;

  if (o->error != NULL)
    g_task_return_error (o->task, o->error);
  else if (o->is_pointer)
    g_task_return_pointer (o->task, o->pointer, o->pointer_free);
  else
    g_task_return_int (o->task, o->number);

  g_object_unref (o->task);
  g_free (o);
  return G_SOURCE_REMOVE;
}

static void
finish_job (GTask          *task,
            GError         *error,
            gboolean        is_pointer,
            gpointer        pointer,
            GDestroyNotify  pointer_free,
            gssize          number)
{
  Outcome *o = g_new0 (Outcome, 1);

  o->task = task;  /* the job's reference */
  o->error = error;
  o->is_pointer = is_pointer;
  o->pointer = pointer;
  o->pointer_free = pointer_free;
  o->number = number;
  g_main_context_invoke_full (g_task_get_context (task), g_task_get_priority (task), deliver, o, NULL);
}

static void akc_sqlite_session_storage_iface_init (AkcSessionStorageInterface *iface);
static void akc_sqlite_session_storage_async_initable_iface_init (GAsyncInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSqliteSessionStorage, akc_sqlite_session_storage, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_SESSION_STORAGE,
                                                      akc_sqlite_session_storage_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_ASYNC_INITABLE,
                                                      akc_sqlite_session_storage_async_initable_iface_init))

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_sqlite_session_storage_finalize (GObject *object)
{
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (object);

  /* No job is left: each holds its task, and the task holds @self. */
  if (self->worker != NULL)
    g_thread_pool_free (self->worker, FALSE, TRUE);
  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_free (self->path);

  G_OBJECT_CLASS (akc_sqlite_session_storage_parent_class)->finalize (object);
}

static void
akc_sqlite_session_storage_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_sqlite_session_storage_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_free (self->path);
      self->path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_sqlite_session_storage_constructed (GObject *object)
{
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (object);

  G_OBJECT_CLASS (akc_sqlite_session_storage_parent_class)->constructed (object);

  if (self->path == NULL)
    self->path = akc_sqlite_chat_memory_dup_default_path ();
}

static void
akc_sqlite_session_storage_class_init (AkcSqliteSessionStorageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = akc_sqlite_session_storage_constructed;
  object_class->finalize = akc_sqlite_session_storage_finalize;
  object_class->get_property = akc_sqlite_session_storage_get_property;
  object_class->set_property = akc_sqlite_session_storage_set_property;

  /**
   * AkcSqliteSessionStorage:path:
   *
   * The file of the database; by default the history of the application
   * ([func@SqliteChatMemory.dup_default_path]).
   *
   * Since: 0.1
   */
  props[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_sqlite_session_storage_init (AkcSqliteSessionStorage *self)
{
  self->worker = g_thread_pool_new (run_job, self, 1, FALSE, NULL);
}

/* ------------------------------------------------------------------ */
/* Worker thread jobs                                                  */
/* ------------------------------------------------------------------ */

static void
open_job (AkcSqliteSessionStorage *self,
          GTask                   *task)
{
  const AkcSqliteMigration *migrations;
  gsize n_migrations = 0;
  GError *error = NULL;

  migrations = akc_sqlite_schema_get_migrations (&n_migrations);
  self->db = akc_sqlite_open (self->path, migrations, n_migrations, &error);
  finish_job (task, error, FALSE, NULL, NULL, 1);
}

static gboolean
check_open (AkcSqliteSessionStorage  *self,
            GError                  **error)
{
  g_autofree char *name = NULL;

  if (self->db != NULL)
    return TRUE;

  name = g_filename_display_name (self->path);
  g_set_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
               _("The history “%s” could not be opened."), name);
  return FALSE;
}

static void
load_job (AkcSqliteSessionStorage *self,
          GTask                   *task)
{
  const char *session_id = g_task_get_task_data (task);
  AkcJsonValue *snapshot = NULL;
  sqlite3_stmt *stmt = NULL;
  GError *error = NULL;
  int rc;

  if (!check_open (self, &error))
    {
      finish_job (task, error, TRUE, NULL, NULL, 0);
      return;
    }

  rc = sqlite3_prepare_v2 (self->db, "SELECT snapshot FROM sessions WHERE session_id = ?", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 1, session_id, -1, SQLITE_TRANSIENT);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);

  if (rc == SQLITE_ROW)
    snapshot = akc_json_value_new_string ((const char *) sqlite3_column_text (stmt, 0),
                                          sqlite3_column_bytes (stmt, 0));
  else if (rc != SQLITE_DONE)
    akc_sqlite_set_error (&error, self->db, rc, self->path);
  sqlite3_finalize (stmt);

  if (error != NULL)
    g_clear_pointer (&snapshot, akc_json_value_unref);
  finish_job (task, error, TRUE, snapshot, (GDestroyNotify) akc_json_value_unref, 0);
}

typedef struct
{
  char   *session_id;
  char   *text;
  gsize   length;
  gint64  cursor;
  gint64  expected_cursor;
} SaveData;

static void
save_data_free (gpointer data)
{
  SaveData *sd = data;

  g_free (sd->session_id);
  g_free (sd->text);
  g_free (sd);
}

static void
save_job (AkcSqliteSessionStorage *self,
          GTask                   *task)
{
  SaveData *sd = g_task_get_task_data (task);
  sqlite3_stmt *stmt = NULL;
  GError *error = NULL;
  gboolean saved = FALSE;
  int rc;

  if (!check_open (self, &error))
    {
      finish_job (task, error, FALSE, NULL, NULL, 0);
      return;
    }

  if (sd->expected_cursor == AKC_SESSION_STORAGE_CREATE_ONLY)
    {
      rc = sqlite3_prepare_v2 (self->db,
                               "INSERT INTO sessions (session_id, cursor, snapshot, updated_at) "
                               "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (session_id) DO NOTHING",
                               -1, &stmt, NULL);
    }
  else
    {
      rc = sqlite3_prepare_v2 (self->db,
                               "UPDATE sessions SET cursor = ?2, snapshot = ?3, updated_at = ?4 "
                               "WHERE session_id = ?1 AND cursor = ?5",
                               -1, &stmt, NULL);
      if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64 (stmt, 5, sd->expected_cursor);
    }

  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 1, sd->session_id, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_int64 (stmt, 2, sd->cursor);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 3, sd->text, (int) sd->length, SQLITE_STATIC);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_int64 (stmt, 4, g_get_real_time ());
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);

  if (rc == SQLITE_DONE)
    saved = sqlite3_changes (self->db) == 1;
  else
    akc_sqlite_set_error (&error, self->db, rc, self->path);
  sqlite3_finalize (stmt);

  finish_job (task, error, FALSE, NULL, NULL, saved);
}

/* ------------------------------------------------------------------ */
/* AkcSessionStorage                                                   */
/* ------------------------------------------------------------------ */

static void
sqlite_load_async (AkcSessionStorage   *storage,
                   const char          *session_id,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (storage, cancellable, callback, user_data);

  g_task_set_source_tag (task, sqlite_load_async);
  g_task_set_task_data (task, g_strdup (session_id), g_free);
  queue_job (AKC_SQLITE_SESSION_STORAGE (storage), task, load_job);
}

static AkcJsonValue *
sqlite_load_finish (AkcSessionStorage  *storage,
                    GAsyncResult       *result,
                    GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, storage), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sqlite_save_async (AkcSessionStorage   *storage,
                   AkcJsonValue        *snapshot,
                   gint64               expected_cursor,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (storage, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  SaveData *sd;
  char *text;
  gsize length = 0;

  g_task_set_source_tag (task, sqlite_save_async);

  /* Validated and written canonically before anything is stored. */
  text = akc_session_snapshot_encode (snapshot, &length, &error);
  if (text == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  sd = g_new0 (SaveData, 1);
  sd->session_id = g_strdup (AKC_JSON_STR (akc_json_value_get_member (snapshot, "sessionId")));
  sd->cursor = (gint64) AKC_JSON_NUMBER (akc_json_value_get_member (snapshot, "cursor"));
  sd->text = text;
  sd->length = length;
  sd->expected_cursor = expected_cursor;
  g_task_set_task_data (task, sd, save_data_free);
  queue_job (AKC_SQLITE_SESSION_STORAGE (storage), task, save_job);
}

static gboolean
sqlite_save_finish (AkcSessionStorage  *storage,
                    GAsyncResult       *result,
                    gboolean           *saved,
                    GError            **error)
{
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, storage), FALSE);

  value = g_task_propagate_int (G_TASK (result), error);
  if (value < 0)
    return FALSE;

  *saved = value != 0;
  return TRUE;
}

static void
akc_sqlite_session_storage_iface_init (AkcSessionStorageInterface *iface)
{
  iface->load_async = sqlite_load_async;
  iface->load_finish = sqlite_load_finish;
  iface->save_async = sqlite_save_async;
  iface->save_finish = sqlite_save_finish;
}

/* ------------------------------------------------------------------ */
/* GAsyncInitable                                                      */
/* ------------------------------------------------------------------ */

static void
akc_sqlite_session_storage_init_async (GAsyncInitable      *initable,
                                       int                  io_priority,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (initable, cancellable, callback, user_data);

  g_task_set_source_tag (task, akc_sqlite_session_storage_init_async);
  g_task_set_priority (task, io_priority);
  queue_job (AKC_SQLITE_SESSION_STORAGE (initable), task, open_job);
}

static gboolean
akc_sqlite_session_storage_init_finish (GAsyncInitable  *initable,
                                        GAsyncResult    *result,
                                        GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, initable), FALSE);

  return g_task_propagate_int (G_TASK (result), error) > 0;
}

static void
akc_sqlite_session_storage_async_initable_iface_init (GAsyncInitableIface *iface)
{
  iface->init_async = akc_sqlite_session_storage_init_async;
  iface->init_finish = akc_sqlite_session_storage_init_finish;
}

/**
 * akc_sqlite_session_storage_new_async:
 * @path: (nullable) (type filename): the database file, or %NULL for the
 *   application's history
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the database is open
 * @user_data: data for @callback
 *
 * Opens (creating or migrating it when needed, like
 * [func@SqliteChatMemory.new_async]) the database at @path for session
 * snapshots.
 *
 * Since: 0.1
 */
void
akc_sqlite_session_storage_new_async (const char          *path,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  g_async_initable_new_async (AKC_TYPE_SQLITE_SESSION_STORAGE, G_PRIORITY_DEFAULT, cancellable,
                              callback, user_data, "path", path, NULL);
}

/**
 * akc_sqlite_session_storage_new_finish:
 * @result: the result
 * @error: return location for a #GError
 *
 * Finishes [func@SqliteSessionStorage.new_async]. Errors are in
 * %AKC_CHAT_MEMORY_ERROR, as for the history.
 *
 * Returns: (transfer full) (nullable): the storage, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
AkcSqliteSessionStorage *
akc_sqlite_session_storage_new_finish (GAsyncResult  *result,
                                       GError       **error)
{
  g_autoptr(GObject) source = NULL;
  GObject *object;

  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  source = g_async_result_get_source_object (result);
  object = g_async_initable_new_finish (G_ASYNC_INITABLE (source), result, error);

  return object != NULL ? AKC_SQLITE_SESSION_STORAGE (object) : NULL;
}

/**
 * akc_sqlite_session_storage_get_path:
 * @self: a #AkcSqliteSessionStorage
 *
 * Gets the database file.
 *
 * Returns: (type filename): the path
 *
 * Since: 0.1
 */
const char *
akc_sqlite_session_storage_get_path (AkcSqliteSessionStorage *self)
{
  g_return_val_if_fail (AKC_IS_SQLITE_SESSION_STORAGE (self), NULL);

  return self->path;
}

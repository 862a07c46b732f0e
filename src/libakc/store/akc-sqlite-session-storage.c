/* akc-sqlite-session-storage.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <sqlite3.h>

#include <glib/gi18n-lib.h>

#include "akc-json-private.h"
#include "akc-session-snapshot.h"
#include "akc-session-storage-private.h"
#include "akc-sqlite-chat-memory-private.h"
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
 * database work runs on the worker of the history of the same file
 * ([class@SqliteChatMemory]), over its one connection, in the order asked
 * among the history's own work.
 *
 * A storage made for one conversation of the history
 * ([ctor@SqliteSessionStorage.new_for_conversation]) keeps its sessions
 * with that conversation (the `conversation_sessions` table of schema
 * version 8): the same session id in two conversations is two sessions,
 * and deleting the conversation deletes its sessions.
 *
 * Since: 0.1
 */

struct _AkcSqliteSessionStorage
{
  GObject              parent_instance;

  char                *path;
  char                *conversation_id; /* or NULL: the `sessions` table */
  AkcSqliteChatMemory *memory;  /* whose worker runs the statements */
};

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

  g_clear_object (&self->memory);
  g_free (self->path);
  g_free (self->conversation_id);

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
}

/* ------------------------------------------------------------------ */
/* On the history's worker                                             */
/* ------------------------------------------------------------------ */

/* What a load found: a row or none (the worker takes NULL for a
 * failure). */
typedef struct
{
  AkcJsonValue *snapshot;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_pointer (&loaded->snapshot, akc_json_value_unref);
  g_free (loaded);
}

/* Which session: its id, in a conversation or not. */
typedef struct
{
  char *session_id;
  char *conversation_id;
} Key;

static void
key_free (gpointer data)
{
  Key *key = data;

  g_free (key->session_id);
  g_free (key->conversation_id);
  g_free (key);
}

static gpointer
load_in_transaction (sqlite3     *db,
                     const char  *path,
                     gpointer     data,
                     GError     **error)
{
  const Key *key = data;
  sqlite3_stmt *stmt = NULL;
  Loaded *loaded = g_new0 (Loaded, 1);
  int rc;

  if (key->conversation_id != NULL)
    rc = sqlite3_prepare_v2 (db,
                             "SELECT snapshot FROM conversation_sessions "
                             "WHERE session_id = ?1 AND conversation_id = ?2",
                             -1, &stmt, NULL);
  else
    rc = sqlite3_prepare_v2 (db, "SELECT snapshot FROM sessions WHERE session_id = ?1", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_bind_text (stmt, 1, key->session_id, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK && key->conversation_id != NULL)
    rc = sqlite3_bind_text (stmt, 2, key->conversation_id, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);

  if (rc == SQLITE_ROW)
    loaded->snapshot = akc_json_value_new_string ((const char *) sqlite3_column_text (stmt, 0),
                                                  sqlite3_column_bytes (stmt, 0));
  else if (rc != SQLITE_DONE)
    {
      akc_sqlite_set_error (error, db, rc, path);
      g_clear_pointer (&loaded, loaded_free);
    }
  sqlite3_finalize (stmt);

  return loaded;
}

typedef struct
{
  char   *session_id;
  char   *conversation_id;
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
  g_free (sd->conversation_id);
  g_free (sd->text);
  g_free (sd);
}

/* Returns 2 when the row was written, 1 when the comparison failed. */
static gpointer
save_in_transaction (sqlite3     *db,
                     const char  *path,
                     gpointer     data,
                     GError     **error)
{
  SaveData *sd = data;
  sqlite3_stmt *stmt = NULL;
  gboolean saved = FALSE;
  int rc;

  if (sd->conversation_id != NULL && sd->expected_cursor == AKC_SESSION_STORAGE_CREATE_ONLY)
    {
      /* A conversation that is not (or no longer) in the history has no
       * row to refer to: the foreign key refuses the save. */
      rc = sqlite3_prepare_v2 (db,
                               "INSERT INTO conversation_sessions "
                               "(session_id, cursor, snapshot, updated_at, conversation_id) "
                               "VALUES (?1, ?2, ?3, ?4, ?6) ON CONFLICT (conversation_id, session_id) DO NOTHING",
                               -1, &stmt, NULL);
    }
  else if (sd->conversation_id != NULL)
    {
      rc = sqlite3_prepare_v2 (db,
                               "UPDATE conversation_sessions SET cursor = ?2, snapshot = ?3, updated_at = ?4 "
                               "WHERE session_id = ?1 AND cursor = ?5 AND conversation_id = ?6",
                               -1, &stmt, NULL);
      if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64 (stmt, 5, sd->expected_cursor);
    }
  else if (sd->expected_cursor == AKC_SESSION_STORAGE_CREATE_ONLY)
    {
      rc = sqlite3_prepare_v2 (db,
                               "INSERT INTO sessions (session_id, cursor, snapshot, updated_at) "
                               "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (session_id) DO NOTHING",
                               -1, &stmt, NULL);
    }
  else
    {
      rc = sqlite3_prepare_v2 (db,
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
  if (rc == SQLITE_OK && sd->conversation_id != NULL)
    rc = sqlite3_bind_text (stmt, 6, sd->conversation_id, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);

  if (rc == SQLITE_DONE)
    saved = sqlite3_changes (db) == 1;
  else
    akc_sqlite_set_error (error, db, rc, path);
  sqlite3_finalize (stmt);

  return rc == SQLITE_DONE ? GINT_TO_POINTER (saved ? 2 : 1) : NULL;
}

/* ------------------------------------------------------------------ */
/* AkcSessionStorage                                                   */
/* ------------------------------------------------------------------ */

static void
load_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  Loaded *loaded = akc_sqlite_chat_memory_run_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);

  if (loaded == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&loaded->snapshot), (GDestroyNotify) akc_json_value_unref);
  g_clear_pointer (&loaded, loaded_free);
}

static void
save_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  gpointer outcome = akc_sqlite_chat_memory_run_finish (AKC_SQLITE_CHAT_MEMORY (source), result, &error);

  if (outcome == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, GPOINTER_TO_INT (outcome) == 2);
}

static void
sqlite_load_async (AkcSessionStorage   *storage,
                   const char          *session_id,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (storage);
  GTask *task = g_task_new (storage, cancellable, callback, user_data);
  Key *key = g_new0 (Key, 1);

  g_task_set_source_tag (task, sqlite_load_async);
  key->session_id = g_strdup (session_id);
  key->conversation_id = g_strdup (self->conversation_id);
  /* As before the worker was shared: a statement that was asked for runs;
   * the task alone answers G_IO_ERROR_CANCELLED once it is cancelled. */
  akc_sqlite_chat_memory_run_async (self->memory, load_in_transaction, key, key_free,
                                    loaded_free, NULL, load_done, task);
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
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (storage);
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
  sd->conversation_id = g_strdup (self->conversation_id);
  sd->cursor = (gint64) AKC_JSON_NUMBER (akc_json_value_get_member (snapshot, "cursor"));
  sd->text = text;
  sd->length = length;
  sd->expected_cursor = expected_cursor;
  akc_sqlite_chat_memory_run_async (self->memory, save_in_transaction, sd, save_data_free, NULL,
                                    NULL, save_done, g_steal_pointer (&task));
}

static gboolean
sqlite_save_finish (AkcSessionStorage  *storage,
                    GAsyncResult       *result,
                    gboolean           *saved,
                    GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, storage), FALSE);

  return akc_session_storage_propagate_saved (result, saved, error);
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
memory_opened (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcSqliteSessionStorage *self = g_task_get_source_object (task);
  GError *error = NULL;
  GObject *memory = g_async_initable_new_finish (G_ASYNC_INITABLE (source), result, &error);

  if (memory == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_clear_object (&self->memory);
  self->memory = AKC_SQLITE_CHAT_MEMORY (memory);
  g_task_return_boolean (task, TRUE);
}

static void
akc_sqlite_session_storage_init_async (GAsyncInitable      *initable,
                                       int                  io_priority,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  AkcSqliteSessionStorage *self = AKC_SQLITE_SESSION_STORAGE (initable);
  GTask *task = g_task_new (initable, cancellable, callback, user_data);

  g_task_set_source_tag (task, akc_sqlite_session_storage_init_async);
  g_task_set_priority (task, io_priority);
  /* The history of the same file: one worker, one connection. */
  g_async_initable_new_async (AKC_TYPE_SQLITE_CHAT_MEMORY, io_priority, cancellable,
                              memory_opened, task, "path", self->path, NULL);
}

static gboolean
akc_sqlite_session_storage_init_finish (GAsyncInitable  *initable,
                                        GAsyncResult    *result,
                                        GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, initable), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
 * akc_sqlite_session_storage_new_for_conversation:
 * @memory: the open history
 * @conversation_id: a conversation of @memory
 *
 * Keeps the sessions of one conversation of the history, next to its
 * messages, over the history's own worker and connection (so its saves
 * are in order with the conversation's, and done before the history
 * closes). A session resumed from it is the one that conversation left;
 * deleting the conversation deletes its sessions. While the conversation
 * is not in the history, a save fails with an error in
 * %AKC_CHAT_MEMORY_ERROR and stores nothing.
 *
 * Returns: (transfer full): the storage
 *
 * Since: 0.1
 */
AkcSqliteSessionStorage *
akc_sqlite_session_storage_new_for_conversation (AkcSqliteChatMemory *memory,
                                                 const char          *conversation_id)
{
  AkcSqliteSessionStorage *self;

  g_return_val_if_fail (AKC_IS_SQLITE_CHAT_MEMORY (memory), NULL);
  g_return_val_if_fail (conversation_id != NULL, NULL);

  self = g_object_new (AKC_TYPE_SQLITE_SESSION_STORAGE,
                       "path", akc_sqlite_chat_memory_get_path (memory),
                       NULL);
  self->memory = g_object_ref (memory);
  self->conversation_id = g_strdup (conversation_id);

  return self;
}

/**
 * akc_sqlite_session_storage_get_conversation_id:
 * @self: a #AkcSqliteSessionStorage
 *
 * Gets the conversation whose sessions the storage keeps.
 *
 * Returns: (nullable): the conversation id, or %NULL for the sessions of
 *   no conversation
 *
 * Since: 0.1
 */
const char *
akc_sqlite_session_storage_get_conversation_id (AkcSqliteSessionStorage *self)
{
  g_return_val_if_fail (AKC_IS_SQLITE_SESSION_STORAGE (self), NULL);

  return self->conversation_id;
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

/* akc-memory-session-storage.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-diagnostic.h"
#include "akc-json-private.h"
#include "akc-memory-session-storage.h"
#include "akc-session-storage-private.h"

/**
 * AkcMemorySessionStorage:
 *
 * A [iface@SessionStorage] that keeps snapshots in memory, for tests and
 * for sessions that need not outlive the process. Its saves are
 * compare-and-set like every storage's.
 *
 * Since: 0.1
 */

struct _AkcMemorySessionStorage
{
  GObject     parent_instance;

  GHashTable *snapshots;  /* session id → AkcJsonValue */
};

static void akc_memory_session_storage_iface_init (AkcSessionStorageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcMemorySessionStorage, akc_memory_session_storage, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_SESSION_STORAGE,
                                                      akc_memory_session_storage_iface_init))

static void
akc_memory_session_storage_finalize (GObject *object)
{
  AkcMemorySessionStorage *self = AKC_MEMORY_SESSION_STORAGE (object);

  g_hash_table_unref (self->snapshots);

  G_OBJECT_CLASS (akc_memory_session_storage_parent_class)->finalize (object);
}

static void
akc_memory_session_storage_class_init (AkcMemorySessionStorageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_memory_session_storage_finalize;
}

static void
akc_memory_session_storage_init (AkcMemorySessionStorage *self)
{
  self->snapshots = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                           (GDestroyNotify) akc_json_value_unref);
}

static void
memory_load_async (AkcSessionStorage   *storage,
                   const char          *session_id,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  AkcMemorySessionStorage *self = AKC_MEMORY_SESSION_STORAGE (storage);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  AkcJsonValue *snapshot;

  g_task_set_source_tag (task, memory_load_async);
  snapshot = g_hash_table_lookup (self->snapshots, session_id);
  g_task_return_pointer (task, snapshot != NULL ? akc_json_value_ref (snapshot) : NULL,
                         (GDestroyNotify) akc_json_value_unref);
}

static AkcJsonValue *
memory_load_finish (AkcSessionStorage  *storage,
                    GAsyncResult       *result,
                    GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, storage), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gint64
snapshot_cursor (AkcJsonValue *snapshot)
{
  AkcJsonValue *cursor = akc_json_value_get_member (snapshot, "cursor");

  return AKC_JSON_IS_NUMBER (cursor) ? (gint64) AKC_JSON_NUMBER (cursor) : -1;
}

static void
memory_save_async (AkcSessionStorage   *storage,
                   AkcJsonValue        *snapshot,
                   gint64               expected_cursor,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  AkcMemorySessionStorage *self = AKC_MEMORY_SESSION_STORAGE (storage);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  AkcJsonValue *session_id = akc_json_value_get_member (snapshot, "sessionId");
  AkcJsonValue *stored;
  gboolean saved;

  g_task_set_source_tag (task, memory_save_async);

  if (!AKC_JSON_IS_STRING (session_id))
    {
      /* As the SQLite storage refuses it (akc_session_snapshot_encode()). */
      g_task_return_new_error (task, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT,
                               "Session snapshot payload is invalid.");
      return;
    }

  stored = g_hash_table_lookup (self->snapshots, AKC_JSON_STR (session_id));
  if (expected_cursor == AKC_SESSION_STORAGE_CREATE_ONLY)
    saved = stored == NULL;
  else
    saved = stored != NULL && snapshot_cursor (stored) == expected_cursor;

  if (saved)
    g_hash_table_replace (self->snapshots, g_strdup (AKC_JSON_STR (session_id)),
                          akc_json_value_ref (snapshot));

  g_task_return_int (task, saved);
}

static gboolean
memory_save_finish (AkcSessionStorage  *storage,
                    GAsyncResult       *result,
                    gboolean           *saved,
                    GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, storage), FALSE);

  return akc_session_storage_propagate_saved (result, saved, error);
}

static void
akc_memory_session_storage_iface_init (AkcSessionStorageInterface *iface)
{
  iface->load_async = memory_load_async;
  iface->load_finish = memory_load_finish;
  iface->save_async = memory_save_async;
  iface->save_finish = memory_save_finish;
}

/**
 * akc_memory_session_storage_new:
 *
 * Creates an empty storage.
 *
 * Returns: (transfer full): a new #AkcMemorySessionStorage
 *
 * Since: 0.1
 */
AkcSessionStorage *
akc_memory_session_storage_new (void)
{
  return g_object_new (AKC_TYPE_MEMORY_SESSION_STORAGE, NULL);
}

/**
 * akc_memory_session_storage_lookup:
 * @self: a #AkcMemorySessionStorage
 * @session_id: a session id
 *
 * Gets the snapshot stored for @session_id.
 *
 * Returns: (transfer none) (nullable): the snapshot, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_memory_session_storage_lookup (AkcMemorySessionStorage *self,
                                   const char              *session_id)
{
  g_return_val_if_fail (AKC_IS_MEMORY_SESSION_STORAGE (self), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  return g_hash_table_lookup (self->snapshots, session_id);
}

/**
 * akc_memory_session_storage_put:
 * @self: a #AkcMemorySessionStorage
 * @session_id: a session id
 * @snapshot: (nullable): what to store (an object or JSON text in a
 *   string; it is decoded when loaded), or %NULL to remove it
 *
 * Stores @snapshot for @session_id without comparison, as another client
 * or an older version would have.
 *
 * Since: 0.1
 */
void
akc_memory_session_storage_put (AkcMemorySessionStorage *self,
                                const char              *session_id,
                                AkcJsonValue            *snapshot)
{
  g_return_if_fail (AKC_IS_MEMORY_SESSION_STORAGE (self));
  g_return_if_fail (session_id != NULL);

  if (snapshot == NULL)
    g_hash_table_remove (self->snapshots, session_id);
  else
    g_hash_table_replace (self->snapshots, g_strdup (session_id), akc_json_value_ref (snapshot));
}

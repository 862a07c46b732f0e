/* akc-session-storage.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-session-storage.h"
#include "akc-session-storage-private.h"

/**
 * AkcSessionStorage:
 *
 * Where [class@Session]s keep their snapshots ([application §4.5](wire-formats.html#application-4)).
 *
 * A storage loads the snapshot of a session id, and saves one with an
 * **atomic compare-and-set**: with an expected cursor of
 * %AKC_SESSION_STORAGE_CREATE_ONLY the save only creates (it fails when a
 * snapshot is stored); with a cursor it only replaces a stored snapshot
 * whose `cursor` is that number. A failed comparison is not an error: the
 * save reports `saved = FALSE`, and the session reports “Session snapshot
 * changed in another client.” Last-write-wins storage is unsafe: two
 * clients could then both resolve one confirmation.
 *
 * [class@MemorySessionStorage] keeps snapshots in memory;
 * [class@SqliteSessionStorage] keeps them in the history database, safe
 * across processes.
 *
 * Since: 0.1
 */

G_DEFINE_INTERFACE (AkcSessionStorage, akc_session_storage, G_TYPE_OBJECT)

static void
akc_session_storage_default_init (AkcSessionStorageInterface *iface)
{
}

/**
 * akc_session_storage_load_async:
 * @self: a #AkcSessionStorage
 * @session_id: the session id
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the snapshot is loaded
 * @user_data: data for @callback
 *
 * Starts loading the snapshot stored for @session_id.
 *
 * Since: 0.1
 */
void
akc_session_storage_load_async (AkcSessionStorage   *self,
                                const char          *session_id,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (AKC_IS_SESSION_STORAGE (self));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_SESSION_STORAGE_GET_IFACE (self)->load_async (self, session_id, cancellable, callback, user_data);
}

/**
 * akc_session_storage_load_finish:
 * @self: a #AkcSessionStorage
 * @result: the result
 * @error: return location for a #GError
 *
 * Finishes [method@SessionStorage.load_async].
 *
 * Returns: (transfer full) (nullable): the stored snapshot as a JSON object
 *   or as a JSON string holding its text (it is decoded by the session);
 *   %NULL without @error when nothing is stored, %NULL with @error set on
 *   failure
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_storage_load_finish (AkcSessionStorage  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (AKC_IS_SESSION_STORAGE (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return AKC_SESSION_STORAGE_GET_IFACE (self)->load_finish (self, result, error);
}

/**
 * akc_session_storage_save_async:
 * @self: a #AkcSessionStorage
 * @snapshot: a valid `agentskit.chat.session` v1 snapshot
 * @expected_cursor: the cursor of the stored snapshot to replace, or
 *   %AKC_SESSION_STORAGE_CREATE_ONLY
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the save is done
 * @user_data: data for @callback
 *
 * Starts an atomic compare-and-set save of @snapshot (see
 * [iface@SessionStorage]).
 *
 * Since: 0.1
 */
void
akc_session_storage_save_async (AkcSessionStorage   *self,
                                AkcJsonValue        *snapshot,
                                gint64               expected_cursor,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (AKC_IS_SESSION_STORAGE (self));
  g_return_if_fail (snapshot != NULL);
  g_return_if_fail (expected_cursor >= AKC_SESSION_STORAGE_CREATE_ONLY);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_SESSION_STORAGE_GET_IFACE (self)->save_async (self, snapshot, expected_cursor, cancellable,
                                                    callback, user_data);
}

/**
 * akc_session_storage_save_finish:
 * @self: a #AkcSessionStorage
 * @result: the result
 * @saved: (out) (optional): return location for whether the comparison
 *   held and the snapshot was stored
 * @error: return location for a #GError
 *
 * Finishes [method@SessionStorage.save_async].
 *
 * Returns: %TRUE when the storage answered (see @saved), %FALSE with
 *   @error set when it failed
 *
 * Since: 0.1
 */
gboolean
akc_session_storage_save_finish (AkcSessionStorage  *self,
                                 GAsyncResult       *result,
                                 gboolean           *saved,
                                 GError            **error)
{
  gboolean dummy = FALSE;

  g_return_val_if_fail (AKC_IS_SESSION_STORAGE (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return AKC_SESSION_STORAGE_GET_IFACE (self)->save_finish (self, result, saved != NULL ? saved : &dummy, error);
}

gboolean
akc_session_storage_propagate_saved (GAsyncResult  *result,
                                     gboolean      *saved,
                                     GError       **error)
{
  gssize value = g_task_propagate_int (G_TASK (result), error);

  if (value < 0)
    return FALSE;

  *saved = value != 0;
  return TRUE;
}

/* akc-session-storage.h: where session snapshots are kept
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_SESSION_STORAGE_CREATE_ONLY:
 *
 * The expected cursor of a save that only creates a snapshot (there must
 * be none stored yet).
 *
 * Since: 0.1
 */
#define AKC_SESSION_STORAGE_CREATE_ONLY ((gint64) -1)

#define AKC_TYPE_SESSION_STORAGE (akc_session_storage_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AkcSessionStorage, akc_session_storage, AKC, SESSION_STORAGE, GObject)

/**
 * AkcSessionStorageInterface:
 * @load_async: starts loading the snapshot of a session
 * @load_finish: finishes @load_async: the snapshot (an object, or a string
 *   holding its JSON text), or %NULL without error when nothing is stored
 * @save_async: starts a compare-and-set save
 * @save_finish: finishes @save_async; `saved` is %FALSE when the
 *   comparison failed
 *
 * The virtual methods of [iface@SessionStorage].
 */
struct _AkcSessionStorageInterface
{
  GTypeInterface parent_iface;

  void          (*load_async)  (AkcSessionStorage    *self,
                                const char           *session_id,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data);
  AkcJsonValue *(*load_finish) (AkcSessionStorage    *self,
                                GAsyncResult         *result,
                                GError              **error);
  void          (*save_async)  (AkcSessionStorage    *self,
                                AkcJsonValue         *snapshot,
                                gint64                expected_cursor,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data);
  gboolean      (*save_finish) (AkcSessionStorage    *self,
                                GAsyncResult         *result,
                                gboolean             *saved,
                                GError              **error);
};

AKC_AVAILABLE_IN_ALL
void          akc_session_storage_load_async  (AkcSessionStorage    *self,
                                               const char           *session_id,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_session_storage_load_finish (AkcSessionStorage    *self,
                                               GAsyncResult         *result,
                                               GError              **error);
AKC_AVAILABLE_IN_ALL
void          akc_session_storage_save_async  (AkcSessionStorage    *self,
                                               AkcJsonValue         *snapshot,
                                               gint64                expected_cursor,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean      akc_session_storage_save_finish (AkcSessionStorage    *self,
                                               GAsyncResult         *result,
                                               gboolean             *saved,
                                               GError              **error);

G_END_DECLS

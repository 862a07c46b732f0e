/* akc-sqlite-session-storage.h: session snapshots in the history database
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-session-storage.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_SQLITE_SESSION_STORAGE (akc_sqlite_session_storage_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcSqliteSessionStorage, akc_sqlite_session_storage, AKC, SQLITE_SESSION_STORAGE, GObject)

AKC_AVAILABLE_IN_ALL
void                     akc_sqlite_session_storage_new_async  (const char              *path,
                                                                GCancellable            *cancellable,
                                                                GAsyncReadyCallback      callback,
                                                                gpointer                 user_data);
AKC_AVAILABLE_IN_ALL
AkcSqliteSessionStorage *akc_sqlite_session_storage_new_finish (GAsyncResult            *result,
                                                                GError                 **error);
AKC_AVAILABLE_IN_ALL
AkcSqliteSessionStorage *akc_sqlite_session_storage_new_for_conversation (AkcSqliteChatMemory *memory,
                                                                          const char          *conversation_id);
AKC_AVAILABLE_IN_ALL
const char              *akc_sqlite_session_storage_get_path   (AkcSqliteSessionStorage *self);
AKC_AVAILABLE_IN_ALL
const char              *akc_sqlite_session_storage_get_conversation_id (AkcSqliteSessionStorage *self);

G_END_DECLS

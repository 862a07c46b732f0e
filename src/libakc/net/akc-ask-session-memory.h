/* akc-ask-session-memory.h: the memory of an Ask session (application §8.6)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-message-record.h"
#include "akc-sqlite-chat-memory.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_ASK_SESSION_MEMORY (akc_ask_session_memory_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAskSessionMemory, akc_ask_session_memory, AKC, ASK_SESSION_MEMORY, GObject)

AKC_AVAILABLE_IN_ALL
AkcAskSessionMemory *akc_ask_session_memory_new          (AkcSqliteChatMemory      *store,
                                                          const char               *key,
                                                          const char * const       *legacy_keys);
AKC_AVAILABLE_IN_ALL
void                 akc_ask_session_memory_load_async   (AkcAskSessionMemory      *self,
                                                          GCancellable             *cancellable,
                                                          GAsyncReadyCallback       callback,
                                                          gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
GPtrArray           *akc_ask_session_memory_load_finish  (AkcAskSessionMemory      *self,
                                                          GAsyncResult             *result,
                                                          GError                  **error);
AKC_AVAILABLE_IN_ALL
void                 akc_ask_session_memory_save_async   (AkcAskSessionMemory      *self,
                                                          AkcMessageRecord * const *records,
                                                          guint                     n_records,
                                                          GCancellable             *cancellable,
                                                          GAsyncReadyCallback       callback,
                                                          gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_ask_session_memory_save_finish  (AkcAskSessionMemory      *self,
                                                          GAsyncResult             *result,
                                                          GError                  **error);
AKC_AVAILABLE_IN_ALL
void                 akc_ask_session_memory_clear_async  (AkcAskSessionMemory      *self,
                                                          GCancellable             *cancellable,
                                                          GAsyncReadyCallback       callback,
                                                          gpointer                  user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_ask_session_memory_clear_finish (AkcAskSessionMemory      *self,
                                                          GAsyncResult             *result,
                                                          GError                  **error);

G_END_DECLS

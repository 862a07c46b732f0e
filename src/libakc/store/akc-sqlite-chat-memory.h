/* akc-sqlite-chat-memory.h: the conversation history in one SQLite database
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-chat-memory.h"
#include "akc-component-resolution.h"
#include "akc-search-result.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcConversationFormat:
 * @AKC_CONVERSATION_FORMAT_MARKDOWN: Markdown, to read: components as
 *   their fallback text, sources as links
 * @AKC_CONVERSATION_FORMAT_JSON: the versioned JSON format of
 *   `docs/conversation-format.md`, which keeps every field and is read
 *   back by [method@SqliteChatMemory.import_async]
 *
 * The forms [method@SqliteChatMemory.export_async] writes a conversation in.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CONVERSATION_FORMAT_MARKDOWN,
  AKC_CONVERSATION_FORMAT_JSON,
} AkcConversationFormat;

#define AKC_TYPE_SQLITE_CHAT_MEMORY (akc_sqlite_chat_memory_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcSqliteChatMemory, akc_sqlite_chat_memory, AKC, SQLITE_CHAT_MEMORY, GObject)

AKC_AVAILABLE_IN_ALL
char                *akc_sqlite_chat_memory_dup_default_path (void);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_new_async        (const char           *path,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
AKC_AVAILABLE_IN_ALL
AkcSqliteChatMemory *akc_sqlite_chat_memory_new_finish       (GAsyncResult         *result,
                                                              GError              **error);
AKC_AVAILABLE_IN_ALL
const char          *akc_sqlite_chat_memory_get_path         (AkcSqliteChatMemory  *self);

AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_load_resolutions_async  (AkcSqliteChatMemory    *self,
                                                                     const char             *conversation_id,
                                                                     GCancellable           *cancellable,
                                                                     GAsyncReadyCallback     callback,
                                                                     gpointer                user_data);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_sqlite_chat_memory_load_resolutions_finish (AkcSqliteChatMemory    *self,
                                                                     GAsyncResult           *result,
                                                                     GError                **error);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_save_resolution_async   (AkcSqliteChatMemory    *self,
                                                                     const char             *conversation_id,
                                                                     AkcComponentResolution *resolution,
                                                                     GCancellable           *cancellable,
                                                                     GAsyncReadyCallback     callback,
                                                                     gpointer                user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_sqlite_chat_memory_save_resolution_finish  (AkcSqliteChatMemory    *self,
                                                                     GAsyncResult           *result,
                                                                     GError                **error);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_delete_resolution_async (AkcSqliteChatMemory    *self,
                                                                     const char             *conversation_id,
                                                                     const char             *instance_id,
                                                                     GCancellable           *cancellable,
                                                                     GAsyncReadyCallback     callback,
                                                                     gpointer                user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_sqlite_chat_memory_delete_resolution_finish (AkcSqliteChatMemory   *self,
                                                                     GAsyncResult           *result,
                                                                     GError                **error);

AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_search_async     (AkcSqliteChatMemory  *self,
                                                              const char           *text,
                                                              guint                 limit,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_sqlite_chat_memory_search_finish    (AkcSqliteChatMemory  *self,
                                                              GAsyncResult         *result,
                                                              GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_list_assistant_async  (AkcSqliteChatMemory  *self,
                                                                   const char           *assistant_id,
                                                                   guint                 limit,
                                                                   GCancellable         *cancellable,
                                                                   GAsyncReadyCallback   callback,
                                                                   gpointer              user_data);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_sqlite_chat_memory_list_assistant_finish (AkcSqliteChatMemory  *self,
                                                                   GAsyncResult         *result,
                                                                   GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_export_async     (AkcSqliteChatMemory   *self,
                                                              const char            *conversation_id,
                                                              AkcConversationFormat  format,
                                                              GCancellable          *cancellable,
                                                              GAsyncReadyCallback    callback,
                                                              gpointer               user_data);
AKC_AVAILABLE_IN_ALL
GBytes              *akc_sqlite_chat_memory_export_finish    (AkcSqliteChatMemory   *self,
                                                              GAsyncResult          *result,
                                                              GError               **error);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_import_async     (AkcSqliteChatMemory   *self,
                                                              GBytes                *data,
                                                              GCancellable          *cancellable,
                                                              GAsyncReadyCallback    callback,
                                                              gpointer               user_data);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_sqlite_chat_memory_import_finish    (AkcSqliteChatMemory   *self,
                                                              GAsyncResult          *result,
                                                              GError               **error);

AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_load_draft_async (AkcSqliteChatMemory  *self,
                                                              const char           *conversation_id,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
AKC_AVAILABLE_IN_ALL
char                *akc_sqlite_chat_memory_load_draft_finish (AkcSqliteChatMemory *self,
                                                               GAsyncResult        *result,
                                                               GError             **error);
AKC_AVAILABLE_IN_ALL
void                 akc_sqlite_chat_memory_save_draft_async (AkcSqliteChatMemory  *self,
                                                              const char           *conversation_id,
                                                              const char           *text,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_sqlite_chat_memory_save_draft_finish (AkcSqliteChatMemory *self,
                                                               GAsyncResult        *result,
                                                               GError             **error);

G_END_DECLS

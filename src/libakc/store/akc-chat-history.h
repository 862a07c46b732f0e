/* akc-chat-history.h: keeps a chat and a stored conversation in step
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-chat.h"
#include "akc-chat-memory.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_CHAT_HISTORY_DEFAULT_CHECKPOINT_INTERVAL:
 *
 * The default of [property@ChatHistory:checkpoint-interval], in
 * milliseconds.
 *
 * Since: 0.1
 */
#define AKC_CHAT_HISTORY_DEFAULT_CHECKPOINT_INTERVAL 1000

#define AKC_TYPE_CHAT_HISTORY (akc_chat_history_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChatHistory, akc_chat_history, AKC, CHAT_HISTORY, GObject)

AKC_AVAILABLE_IN_ALL
AkcChatHistory *akc_chat_history_new                     (AkcChat              *chat,
                                                          AkcChatMemory        *memory,
                                                          const char           *conversation_id);
AKC_AVAILABLE_IN_ALL
AkcChat        *akc_chat_history_get_chat                (AkcChatHistory       *self);
AKC_AVAILABLE_IN_ALL
AkcChatMemory  *akc_chat_history_get_memory              (AkcChatHistory       *self);
AKC_AVAILABLE_IN_ALL
const char     *akc_chat_history_get_conversation_id     (AkcChatHistory       *self);
AKC_AVAILABLE_IN_ALL
guint           akc_chat_history_get_checkpoint_interval (AkcChatHistory       *self);
AKC_AVAILABLE_IN_ALL
void            akc_chat_history_set_checkpoint_interval (AkcChatHistory       *self,
                                                          guint                 interval);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_history_get_loaded              (AkcChatHistory       *self);
AKC_AVAILABLE_IN_ALL
const GError   *akc_chat_history_get_error               (AkcChatHistory       *self);

AKC_AVAILABLE_IN_ALL
void            akc_chat_history_load_async              (AkcChatHistory       *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_history_load_finish             (AkcChatHistory       *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
AKC_AVAILABLE_IN_ALL
void            akc_chat_history_flush_async             (AkcChatHistory       *self,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean        akc_chat_history_flush_finish            (AkcChatHistory       *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

G_END_DECLS

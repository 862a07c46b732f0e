/* akc-chat-memory.h: durable conversation history
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-conversation-info.h"
#include "akc-message.h"
#include "akc-usage.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_CHAT_MEMORY_ERROR:
 *
 * The error domain of [iface@ChatMemory].
 */
#define AKC_CHAT_MEMORY_ERROR (akc_chat_memory_error_quark ())

/**
 * AkcChatMemoryError:
 * @AKC_CHAT_MEMORY_ERROR_FAILED: the storage failed (a disk, permission or
 *   I/O error); the message says what happened
 * @AKC_CHAT_MEMORY_ERROR_CORRUPT: the history file is damaged or is not a
 *   history at all
 * @AKC_CHAT_MEMORY_ERROR_NEWER_VERSION: the history (or a conversation to
 *   import) was written by a newer version of the application; it is left
 *   untouched
 * @AKC_CHAT_MEMORY_ERROR_NOT_FOUND: there is no such conversation or message
 * @AKC_CHAT_MEMORY_ERROR_EXISTS: a conversation or message with that id
 *   already exists
 * @AKC_CHAT_MEMORY_ERROR_INVALID: the request does not fit the conversation
 *   (an invalid id, a position past its end, or a conversation an
 *   [class@ChatHistory] was asked to read a second time)
 * @AKC_CHAT_MEMORY_ERROR_BUSY: another program kept the history locked too
 *   long; trying again may work
 * @AKC_CHAT_MEMORY_ERROR_CLOSED: the history is not open
 * @AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED: the history does not keep that
 *   (the default of an optional method of [iface@ChatMemory])
 *
 * Error codes of %AKC_CHAT_MEMORY_ERROR. Messages are safe to show: they
 * name the problem and the file, never the stored text.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CHAT_MEMORY_ERROR_FAILED,
  AKC_CHAT_MEMORY_ERROR_CORRUPT,
  AKC_CHAT_MEMORY_ERROR_NEWER_VERSION,
  AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
  AKC_CHAT_MEMORY_ERROR_EXISTS,
  AKC_CHAT_MEMORY_ERROR_INVALID,
  AKC_CHAT_MEMORY_ERROR_BUSY,
  AKC_CHAT_MEMORY_ERROR_CLOSED,
  AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED,
} AkcChatMemoryError;

AKC_AVAILABLE_IN_ALL
GQuark akc_chat_memory_error_quark (void);

#define AKC_TYPE_CHAT_MEMORY (akc_chat_memory_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AkcChatMemory, akc_chat_memory, AKC, CHAT_MEMORY, GObject)

/**
 * AkcChatMemoryInterface:
 * @list_conversations_async: starts listing the conversations
 * @list_conversations_finish: finishes listing the conversations
 * @create_conversation_async: starts creating a conversation
 * @create_conversation_finish: finishes creating a conversation
 * @update_conversation_async: starts changing the title of a conversation or
 *   adding to its usage
 * @update_conversation_finish: finishes changing a conversation
 * @delete_conversation_async: starts deleting a conversation and its messages
 * @delete_conversation_finish: finishes deleting a conversation
 * @load_messages_async: starts reading the messages of a conversation
 * @load_messages_finish: finishes reading the messages of a conversation
 * @splice_messages_async: starts replacing a range of messages
 * @splice_messages_finish: finishes replacing a range of messages
 * @save_message_async: starts writing the current state of a stored message
 * @save_message_finish: finishes writing a message
 * @list_conversations_page_async: starts listing a range of the
 *   conversations; the default lists all and takes the range
 * @list_conversations_page_finish: finishes listing a range
 * @get_conversation_async: starts reading what is known of one
 *   conversation; the default lists all and finds it
 * @get_conversation_finish: finishes reading one conversation
 * @create_conversation_full_async: starts creating a conversation of an
 *   assistant; the default creates it without its assistant
 * @create_conversation_full_finish: finishes creating a conversation of an
 *   assistant
 * @set_conversation_pinned_async: starts pinning or unpinning a
 *   conversation; the default fails with %AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED
 * @set_conversation_pinned_finish: finishes pinning or unpinning
 * @set_conversation_model_async: starts recording the model provider and
 *   model of a conversation; the default fails with
 *   %AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED
 * @set_conversation_model_finish: finishes recording the model
 *
 * The virtual methods of [iface@ChatMemory].
 *
 * Implementations copy what they write from the arguments before the
 * `_async` call returns: a message may change right after it was handed
 * over (a streamed reply keeps growing), and what is written is its state
 * at the call. Operations complete in the order they were started.
 * After a change of a conversation (or of one of its messages) was
 * stored, implementations emit [signal@ChatMemory::conversation-changed]
 * with [method@ChatMemory.conversation_changed].
 */
struct _AkcChatMemoryInterface
{
  GTypeInterface parent_iface;

  void                 (*list_conversations_async)   (AkcChatMemory        *self,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  GListModel          *(*list_conversations_finish)  (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
  void                 (*create_conversation_async)  (AkcChatMemory        *self,
                                                      const char           *id,
                                                      const char           *title,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  AkcConversationInfo *(*create_conversation_finish) (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
  void                 (*update_conversation_async)  (AkcChatMemory        *self,
                                                      const char           *id,
                                                      const char           *title,
                                                      const AkcUsage       *usage,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  gboolean             (*update_conversation_finish) (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
  void                 (*delete_conversation_async)  (AkcChatMemory        *self,
                                                      const char           *id,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  gboolean             (*delete_conversation_finish) (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
  void                 (*load_messages_async)        (AkcChatMemory        *self,
                                                      const char           *conversation_id,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  GListModel          *(*load_messages_finish)       (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
  void                 (*splice_messages_async)      (AkcChatMemory        *self,
                                                      const char           *conversation_id,
                                                      guint                 position,
                                                      guint                 n_removed,
                                                      AkcMessage          **added,
                                                      guint                 n_added,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  gboolean             (*splice_messages_finish)     (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
  void                 (*save_message_async)         (AkcChatMemory        *self,
                                                      const char           *conversation_id,
                                                      AkcMessage           *message,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
  gboolean             (*save_message_finish)        (AkcChatMemory        *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);

  void                 (*list_conversations_page_async)  (AkcChatMemory        *self,
                                                          guint                 offset,
                                                          guint                 limit,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
  GListModel          *(*list_conversations_page_finish) (AkcChatMemory        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
  void                 (*get_conversation_async)         (AkcChatMemory        *self,
                                                          const char           *id,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
  AkcConversationInfo *(*get_conversation_finish)        (AkcChatMemory        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
  void                 (*create_conversation_full_async) (AkcChatMemory        *self,
                                                          const char           *id,
                                                          const char           *assistant_id,
                                                          const char           *title,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
  AkcConversationInfo *(*create_conversation_full_finish) (AkcChatMemory       *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
  void                 (*set_conversation_pinned_async)  (AkcChatMemory        *self,
                                                          const char           *id,
                                                          gboolean              pinned,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
  gboolean             (*set_conversation_pinned_finish) (AkcChatMemory        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);
  void                 (*set_conversation_model_async)   (AkcChatMemory        *self,
                                                          const char           *id,
                                                          const char           *provider_kind,
                                                          const char           *provider_url,
                                                          const char           *model,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
  gboolean             (*set_conversation_model_finish)  (AkcChatMemory        *self,
                                                          GAsyncResult         *result,
                                                          GError              **error);

  /*< private >*/
  gpointer padding[6];
};

AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_list_conversations_async   (AkcChatMemory        *self,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_chat_memory_list_conversations_finish  (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_create_conversation_async  (AkcChatMemory        *self,
                                                                 const char           *id,
                                                                 const char           *title,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_chat_memory_create_conversation_finish (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_update_conversation_async  (AkcChatMemory        *self,
                                                                 const char           *id,
                                                                 const char           *title,
                                                                 const AkcUsage       *usage,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_update_conversation_finish (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_delete_conversation_async  (AkcChatMemory        *self,
                                                                 const char           *id,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_delete_conversation_finish (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_load_messages_async        (AkcChatMemory        *self,
                                                                 const char           *conversation_id,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_chat_memory_load_messages_finish       (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_splice_messages_async      (AkcChatMemory        *self,
                                                                 const char           *conversation_id,
                                                                 guint                 position,
                                                                 guint                 n_removed,
                                                                 AkcMessage          **added,
                                                                 guint                 n_added,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_splice_messages_finish     (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_append_message_async       (AkcChatMemory        *self,
                                                                 const char           *conversation_id,
                                                                 AkcMessage           *message,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_append_message_finish      (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_save_message_async         (AkcChatMemory        *self,
                                                                 const char           *conversation_id,
                                                                 AkcMessage           *message,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_save_message_finish        (AkcChatMemory        *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_list_conversations_page_async   (AkcChatMemory        *self,
                                                                      guint                 offset,
                                                                      guint                 limit,
                                                                      GCancellable         *cancellable,
                                                                      GAsyncReadyCallback   callback,
                                                                      gpointer              user_data);
AKC_AVAILABLE_IN_ALL
GListModel          *akc_chat_memory_list_conversations_page_finish  (AkcChatMemory        *self,
                                                                      GAsyncResult         *result,
                                                                      GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_get_conversation_async          (AkcChatMemory        *self,
                                                                      const char           *id,
                                                                      GCancellable         *cancellable,
                                                                      GAsyncReadyCallback   callback,
                                                                      gpointer              user_data);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_chat_memory_get_conversation_finish         (AkcChatMemory        *self,
                                                                      GAsyncResult         *result,
                                                                      GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_create_conversation_full_async  (AkcChatMemory        *self,
                                                                      const char           *id,
                                                                      const char           *assistant_id,
                                                                      const char           *title,
                                                                      GCancellable         *cancellable,
                                                                      GAsyncReadyCallback   callback,
                                                                      gpointer              user_data);
AKC_AVAILABLE_IN_ALL
AkcConversationInfo *akc_chat_memory_create_conversation_full_finish (AkcChatMemory        *self,
                                                                      GAsyncResult         *result,
                                                                      GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_set_conversation_pinned_async   (AkcChatMemory        *self,
                                                                      const char           *id,
                                                                      gboolean              pinned,
                                                                      GCancellable         *cancellable,
                                                                      GAsyncReadyCallback   callback,
                                                                      gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_set_conversation_pinned_finish  (AkcChatMemory        *self,
                                                                      GAsyncResult         *result,
                                                                      GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_set_conversation_model_async    (AkcChatMemory        *self,
                                                                      const char           *id,
                                                                      const char           *provider_kind,
                                                                      const char           *provider_url,
                                                                      const char           *model,
                                                                      GCancellable         *cancellable,
                                                                      GAsyncReadyCallback   callback,
                                                                      gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean             akc_chat_memory_set_conversation_model_finish   (AkcChatMemory        *self,
                                                                      GAsyncResult         *result,
                                                                      GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_chat_memory_conversation_changed            (AkcChatMemory        *self,
                                                                      const char           *id);

G_END_DECLS

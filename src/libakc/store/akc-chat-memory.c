/* akc-chat-memory.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-chat-memory.h"

/**
 * AkcChatMemory:
 *
 * Durable conversation history: many conversations, each an ordered list
 * of [class@Message]s.
 *
 * Every operation is asynchronous and cancellable, so storage never blocks
 * the main loop. Operations complete in the order they were started, and
 * each one changes the history entirely or not at all. Cancelling a change
 * before it starts prevents it; once it has started it is carried out, and
 * its result says what happened (the `_finish` function does not report
 * %G_IO_ERROR_CANCELLED for a change that was made).
 *
 * What is stored of a message is its state when it was handed over: a
 * streamed reply can be saved again and again as it grows
 * ([method@ChatMemory.save_message_async]). Reading a conversation back gives
 * new [class@Message] objects equal to what was saved, field by field.
 *
 * [class@SqliteChatMemory] keeps the history in one SQLite database;
 * [class@ChatHistory] keeps an [class@Chat] and a stored conversation in
 * step.
 *
 * Since: 0.1
 */

/**
 * akc_chat_memory_error_quark:
 *
 * Gets the error domain of [error@ChatMemoryError], the quark %AKC_CHAT_MEMORY_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-chat-memory-error-quark, akc_chat_memory_error)

G_DEFINE_INTERFACE (AkcChatMemory, akc_chat_memory, G_TYPE_OBJECT)

static void
akc_chat_memory_default_init (AkcChatMemoryInterface *iface)
{
}

/**
 * akc_chat_memory_list_conversations_async:
 * @self: a #AkcChatMemory
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the list is ready
 * @user_data: data for @callback
 *
 * Starts listing the stored conversations, the most recently changed
 * first.
 *
 * Since: 0.1
 */
void
akc_chat_memory_list_conversations_async (AkcChatMemory       *self,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->list_conversations_async (self, cancellable, callback, user_data);
}

/**
 * akc_chat_memory_list_conversations_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes listing the stored conversations.
 *
 * Returns: (transfer full): a #GListModel of [class@ConversationInfo], the
 *   most recently changed first, or %NULL on error
 *
 * Since: 0.1
 */
GListModel *
akc_chat_memory_list_conversations_finish (AkcChatMemory  *self,
                                           GAsyncResult   *result,
                                           GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->list_conversations_finish (self, result, error);
}

/**
 * akc_chat_memory_create_conversation_async:
 * @self: a #AkcChatMemory
 * @id: (nullable): the id of the new conversation, or %NULL for a random one
 * @title: (nullable): its title, or %NULL for none
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the conversation exists
 * @user_data: data for @callback
 *
 * Starts creating an empty conversation. It fails with
 * %AKC_CHAT_MEMORY_ERROR_EXISTS when @id is taken.
 *
 * Since: 0.1
 */
void
akc_chat_memory_create_conversation_async (AkcChatMemory       *self,
                                           const char          *id,
                                           const char          *title,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->create_conversation_async (self, id, title, cancellable, callback, user_data);
}

/**
 * akc_chat_memory_create_conversation_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes creating a conversation.
 *
 * Returns: (transfer full): the new conversation, or %NULL on error
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_chat_memory_create_conversation_finish (AkcChatMemory  *self,
                                            GAsyncResult   *result,
                                            GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->create_conversation_finish (self, result, error);
}

/**
 * akc_chat_memory_update_conversation_async:
 * @self: a #AkcChatMemory
 * @id: the id of the conversation
 * @title: (nullable): the new title, or %NULL to keep it
 * @usage: (nullable): tokens to add to the usage of the conversation, or
 *   %NULL to add none
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the change is stored
 * @user_data: data for @callback
 *
 * Starts changing a conversation: its title becomes @title, and @usage is
 * added to the token usage it accumulated over every session (counts
 * saturate at %G_MAXUINT64). It fails with
 * %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is no such conversation.
 *
 * Since: 0.1
 */
void
akc_chat_memory_update_conversation_async (AkcChatMemory       *self,
                                           const char          *id,
                                           const char          *title,
                                           const AkcUsage      *usage,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->update_conversation_async (self, id, title, usage,
                                                               cancellable, callback, user_data);
}

/**
 * akc_chat_memory_update_conversation_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes changing a conversation.
 *
 * Returns: %TRUE if the change was stored
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_update_conversation_finish (AkcChatMemory  *self,
                                            GAsyncResult   *result,
                                            GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->update_conversation_finish (self, result, error);
}

/**
 * akc_chat_memory_delete_conversation_async:
 * @self: a #AkcChatMemory
 * @id: the id of the conversation
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the conversation is gone
 * @user_data: data for @callback
 *
 * Starts deleting a conversation with all its messages. It fails with
 * %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is no such conversation.
 *
 * Since: 0.1
 */
void
akc_chat_memory_delete_conversation_async (AkcChatMemory       *self,
                                           const char          *id,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->delete_conversation_async (self, id, cancellable, callback, user_data);
}

/**
 * akc_chat_memory_delete_conversation_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes deleting a conversation.
 *
 * Returns: %TRUE if the conversation was deleted
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_delete_conversation_finish (AkcChatMemory  *self,
                                            GAsyncResult   *result,
                                            GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->delete_conversation_finish (self, result, error);
}

/**
 * akc_chat_memory_load_messages_async:
 * @self: a #AkcChatMemory
 * @conversation_id: the id of the conversation
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the messages are read
 * @user_data: data for @callback
 *
 * Starts reading the messages of a conversation, in order. It fails with
 * %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is no such conversation.
 *
 * Since: 0.1
 */
void
akc_chat_memory_load_messages_async (AkcChatMemory       *self,
                                     const char          *conversation_id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->load_messages_async (self, conversation_id, cancellable, callback, user_data);
}

/**
 * akc_chat_memory_load_messages_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes reading the messages of a conversation.
 *
 * Returns: (transfer full): a #GListModel of new [class@Message]s, in
 *   order, or %NULL on error
 *
 * Since: 0.1
 */
GListModel *
akc_chat_memory_load_messages_finish (AkcChatMemory  *self,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->load_messages_finish (self, result, error);
}

/**
 * akc_chat_memory_splice_messages_async:
 * @self: a #AkcChatMemory
 * @conversation_id: the id of the conversation
 * @position: where the range starts, or %G_MAXUINT for the end of the
 *   conversation
 * @n_removed: how many messages to remove from @position, or %G_MAXUINT
 *   for all of them to the end
 * @added: (array length=n_added) (nullable): the messages to insert at
 *   @position
 * @n_added: the length of @added
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the change is stored
 * @user_data: data for @callback
 *
 * Starts replacing @n_removed messages at @position by @added, in one
 * step, as [method@Gio.ListStore.splice] does in memory. The messages are
 * copied before this returns. `(0, G_MAXUINT)` replaces the whole
 * conversation. It fails with
 * %AKC_CHAT_MEMORY_ERROR_INVALID when the range does not fit the
 * conversation and with %AKC_CHAT_MEMORY_ERROR_EXISTS when an added id is
 * already in it.
 *
 * Since: 0.1
 */
void
akc_chat_memory_splice_messages_async (AkcChatMemory        *self,
                                       const char           *conversation_id,
                                       guint                 position,
                                       guint                 n_removed,
                                       AkcMessage          **added,
                                       guint                 n_added,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (added != NULL || n_added == 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  for (guint i = 0; i < n_added; i++)
    g_return_if_fail (AKC_IS_MESSAGE (added[i]));

  AKC_CHAT_MEMORY_GET_IFACE (self)->splice_messages_async (self, conversation_id, position, n_removed,
                                                           added, n_added,
                                                           cancellable, callback, user_data);
}

/**
 * akc_chat_memory_splice_messages_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes replacing a range of messages.
 *
 * Returns: %TRUE if the change was stored
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_splice_messages_finish (AkcChatMemory  *self,
                                        GAsyncResult   *result,
                                        GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->splice_messages_finish (self, result, error);
}

/**
 * akc_chat_memory_append_message_async:
 * @self: a #AkcChatMemory
 * @conversation_id: the id of the conversation
 * @message: the message to add
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the message is stored
 * @user_data: data for @callback
 *
 * Starts adding @message at the end of a conversation: a
 * [method@ChatMemory.splice_messages_async] at the end.
 *
 * Since: 0.1
 */
void
akc_chat_memory_append_message_async (AkcChatMemory       *self,
                                      const char          *conversation_id,
                                      AkcMessage          *message,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (AKC_IS_MESSAGE (message));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->splice_messages_async (self, conversation_id, G_MAXUINT, 0,
                                                           &message, 1,
                                                           cancellable, callback, user_data);
}

/**
 * akc_chat_memory_append_message_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes adding a message.
 *
 * Returns: %TRUE if the message was stored
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_append_message_finish (AkcChatMemory  *self,
                                       GAsyncResult   *result,
                                       GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->splice_messages_finish (self, result, error);
}

/**
 * akc_chat_memory_save_message_async:
 * @self: a #AkcChatMemory
 * @conversation_id: the id of the conversation
 * @message: a message of the conversation
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the message is stored
 * @user_data: data for @callback
 *
 * Starts writing the current state of a stored message: everything that
 * can change after a message was created (its content, status, tool
 * calls, usage…). The message keeps its place. Its state is copied before
 * this returns. It fails with %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when the
 * conversation holds no message with the id of @message: a message is
 * added with [method@ChatMemory.splice_messages_async] or
 * [method@ChatMemory.append_message_async], never by saving it.
 *
 * Since: 0.1
 */
void
akc_chat_memory_save_message_async (AkcChatMemory       *self,
                                    const char          *conversation_id,
                                    AkcMessage          *message,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (conversation_id != NULL);
  g_return_if_fail (AKC_IS_MESSAGE (message));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->save_message_async (self, conversation_id, message,
                                                        cancellable, callback, user_data);
}

/**
 * akc_chat_memory_save_message_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes writing a message.
 *
 * Returns: %TRUE if the message was stored
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_save_message_finish (AkcChatMemory  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->save_message_finish (self, result, error);
}

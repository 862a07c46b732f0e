/* akc-chat-memory.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

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

enum {
  CONVERSATION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The order of every listing: pinned first, then the most recently
 * changed, then by id. */
static int
compare_infos (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  AkcConversationInfo *x = (AkcConversationInfo *) a;
  AkcConversationInfo *y = (AkcConversationInfo *) b;
  int order;

  if (akc_conversation_info_get_pinned (x) != akc_conversation_info_get_pinned (y))
    return akc_conversation_info_get_pinned (x) ? -1 : 1;

  order = g_date_time_compare (akc_conversation_info_get_updated_at (y),
                               akc_conversation_info_get_updated_at (x));
  if (order != 0)
    return order;

  return strcmp (akc_conversation_info_get_id (x), akc_conversation_info_get_id (y));
}

static int
compare_info_pointers (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  return compare_infos (*(gconstpointer *) a, *(gconstpointer *) b, user_data);
}

typedef struct
{
  guint  offset;
  guint  limit;
  char  *id;
} Range;

static void
range_free (gpointer data)
{
  Range *range = data;

  g_free (range->id);
  g_free (range);
}

static void
on_default_listed (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Range *range = g_task_get_task_data (task);
  g_autoptr(GListModel) all = NULL;
  g_autoptr(GPtrArray) sorted = NULL;
  GError *error = NULL;
  guint n;

  all = akc_chat_memory_list_conversations_finish (AKC_CHAT_MEMORY (source), result, &error);
  if (all == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  n = g_list_model_get_n_items (all);

  if (range->id != NULL)
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(AkcConversationInfo) info = g_list_model_get_item (all, i);

          if (g_str_equal (akc_conversation_info_get_id (info), range->id))
            {
              g_task_return_pointer (task, g_steal_pointer (&info), g_object_unref);
              return;
            }
        }

      g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
                               "%s", _("There is no such conversation in the history."));
      return;
    }

  sorted = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (sorted, g_list_model_get_item (all, i));
  g_ptr_array_sort_with_data (sorted, compare_info_pointers, NULL);

  {
    GListStore *page = g_list_store_new (AKC_TYPE_CONVERSATION_INFO);
    guint start = MIN (range->offset, n);
    guint count = MIN (range->limit, n - start);

    g_list_store_splice (page, 0, 0, sorted->pdata + start, count);
    g_task_return_pointer (task, page, g_object_unref);
  }
}

static void
default_list_conversations_page_async (AkcChatMemory       *self,
                                       guint                offset,
                                       guint                limit,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Range *range = g_new0 (Range, 1);

  range->offset = offset;
  range->limit = limit;
  g_task_set_source_tag (task, default_list_conversations_page_async);
  g_task_set_task_data (task, range, range_free);
  akc_chat_memory_list_conversations_async (self, cancellable, on_default_listed, task);
}

static GListModel *
default_list_finish (AkcChatMemory  *self,
                     GAsyncResult   *result,
                     GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static AkcConversationInfo *
default_info_finish (AkcChatMemory  *self,
                     GAsyncResult   *result,
                     GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
default_get_conversation_async (AkcChatMemory       *self,
                                const char          *id,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Range *range = g_new0 (Range, 1);

  range->id = g_strdup (id);
  g_task_set_source_tag (task, default_get_conversation_async);
  g_task_set_task_data (task, range, range_free);
  akc_chat_memory_list_conversations_async (self, cancellable, on_default_listed, task);
}

static void
on_default_created (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcConversationInfo *info;
  GError *error = NULL;

  info = akc_chat_memory_create_conversation_finish (AKC_CHAT_MEMORY (source), result, &error);
  if (info == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, info, g_object_unref);
}

static void
default_create_conversation_full_async (AkcChatMemory       *self,
                                        const char          *id,
                                        const char          *assistant_id,
                                        const char          *title,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, default_create_conversation_full_async);
  akc_chat_memory_create_conversation_async (self, id, title, cancellable, on_default_created, task);
}

static void
default_set_conversation_pinned_async (AkcChatMemory       *self,
                                       const char          *id,
                                       gboolean             pinned,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, default_set_conversation_pinned_async,
                           AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED,
                           "%s", _("This history cannot pin conversations."));
}

static void
default_set_conversation_model_async (AkcChatMemory       *self,
                                      const char          *id,
                                      const char          *provider_kind,
                                      const char          *provider_url,
                                      const char          *model,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_task_report_new_error (self, callback, user_data, default_set_conversation_model_async,
                           AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_SUPPORTED,
                           "%s", _("This history cannot record the model of a conversation."));
}

static gboolean
default_boolean_finish (AkcChatMemory  *self,
                        GAsyncResult   *result,
                        GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
akc_chat_memory_default_init (AkcChatMemoryInterface *iface)
{
  iface->list_conversations_page_async = default_list_conversations_page_async;
  iface->list_conversations_page_finish = default_list_finish;
  iface->get_conversation_async = default_get_conversation_async;
  iface->get_conversation_finish = default_info_finish;
  iface->create_conversation_full_async = default_create_conversation_full_async;
  iface->create_conversation_full_finish = default_info_finish;
  iface->set_conversation_pinned_async = default_set_conversation_pinned_async;
  iface->set_conversation_pinned_finish = default_boolean_finish;
  iface->set_conversation_model_async = default_set_conversation_model_async;
  iface->set_conversation_model_finish = default_boolean_finish;

  /**
   * AkcChatMemory::conversation-changed:
   * @self: the memory
   * @id: the id of the conversation
   *
   * Emitted on the main context of the call, after a change of the
   * conversation @id was stored and before the call that made it
   * completes: it was created, renamed, pinned or unpinned, deleted, its
   * usage grew, or one of its messages was added, changed or removed.
   * [class@ConversationList] follows the history with it.
   *
   * Since: 0.1
   */
  signals[CONVERSATION_CHANGED] =
    g_signal_new ("conversation-changed",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

/**
 * akc_chat_memory_list_conversations_async:
 * @self: a #AkcChatMemory
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the list is ready
 * @user_data: data for @callback
 *
 * Starts listing every stored conversation: the pinned ones first, then
 * the most recently changed. [method@ChatMemory.list_conversations_page_async]
 * lists them a page at a time.
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
 * Returns: (transfer full): a #GListModel of [class@ConversationInfo],
 *   pinned first, then the most recently changed, or %NULL on error
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
 * akc_chat_memory_list_conversations_page_async:
 * @self: a #AkcChatMemory
 * @offset: how many conversations to skip
 * @limit: the most conversations to list
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the page is ready
 * @user_data: data for @callback
 *
 * Starts listing at most @limit stored conversations from @offset, in the
 * order of every listing: the pinned ones first, then the most recently
 * changed (by [property@ConversationInfo:updated-at], newest first), then
 * by id. A page shorter than @limit is the last one.
 *
 * Since: 0.1
 */
void
akc_chat_memory_list_conversations_page_async (AkcChatMemory       *self,
                                               guint                offset,
                                               guint                limit,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->list_conversations_page_async (self, offset, limit, cancellable,
                                                                   callback, user_data);
}

/**
 * akc_chat_memory_list_conversations_page_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes listing a page of conversations.
 *
 * Returns: (transfer full): a #GListModel of [class@ConversationInfo], or
 *   %NULL on error
 *
 * Since: 0.1
 */
GListModel *
akc_chat_memory_list_conversations_page_finish (AkcChatMemory  *self,
                                                GAsyncResult   *result,
                                                GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->list_conversations_page_finish (self, result, error);
}

/**
 * akc_chat_memory_get_conversation_async:
 * @self: a #AkcChatMemory
 * @id: the id of the conversation
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when it is read
 * @user_data: data for @callback
 *
 * Starts reading what is known of one conversation, without its
 * messages. It fails with %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is
 * no such conversation.
 *
 * Since: 0.1
 */
void
akc_chat_memory_get_conversation_async (AkcChatMemory       *self,
                                        const char          *id,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->get_conversation_async (self, id, cancellable, callback, user_data);
}

/**
 * akc_chat_memory_get_conversation_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes reading one conversation.
 *
 * Returns: (transfer full): the conversation, or %NULL on error
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_chat_memory_get_conversation_finish (AkcChatMemory  *self,
                                         GAsyncResult   *result,
                                         GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->get_conversation_finish (self, result, error);
}

/**
 * akc_chat_memory_create_conversation_full_async:
 * @self: a #AkcChatMemory
 * @id: (nullable): the id of the new conversation, or %NULL for a random one
 * @assistant_id: (nullable): the id of the assistant it is held with, or
 *   %NULL when unknown
 * @title: (nullable): its title, or %NULL for none
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the conversation exists
 * @user_data: data for @callback
 *
 * Starts creating an empty conversation with an assistant: what New Chat
 * does. It fails with %AKC_CHAT_MEMORY_ERROR_EXISTS when @id is taken and
 * %AKC_CHAT_MEMORY_ERROR_INVALID when @id or @assistant_id is not an id.
 *
 * Since: 0.1
 */
void
akc_chat_memory_create_conversation_full_async (AkcChatMemory       *self,
                                                const char          *id,
                                                const char          *assistant_id,
                                                const char          *title,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->create_conversation_full_async (self, id, assistant_id, title,
                                                                    cancellable, callback, user_data);
}

/**
 * akc_chat_memory_create_conversation_full_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes creating a conversation of an assistant.
 *
 * Returns: (transfer full): the new conversation, or %NULL on error
 *
 * Since: 0.1
 */
AkcConversationInfo *
akc_chat_memory_create_conversation_full_finish (AkcChatMemory  *self,
                                                 GAsyncResult   *result,
                                                 GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->create_conversation_full_finish (self, result, error);
}

/**
 * akc_chat_memory_set_conversation_pinned_async:
 * @self: a #AkcChatMemory
 * @id: the id of the conversation
 * @pinned: whether it is pinned
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the change is stored
 * @user_data: data for @callback
 *
 * Starts pinning or unpinning a conversation. Pinning does not change
 * [property@ConversationInfo:updated-at]. It fails with
 * %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is no such conversation.
 *
 * Since: 0.1
 */
void
akc_chat_memory_set_conversation_pinned_async (AkcChatMemory       *self,
                                               const char          *id,
                                               gboolean             pinned,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->set_conversation_pinned_async (self, id, !!pinned,
                                                                   cancellable, callback, user_data);
}

/**
 * akc_chat_memory_set_conversation_pinned_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes pinning or unpinning a conversation.
 *
 * Returns: %TRUE if the change was stored
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_set_conversation_pinned_finish (AkcChatMemory  *self,
                                                GAsyncResult   *result,
                                                GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->set_conversation_pinned_finish (self, result, error);
}

/**
 * akc_chat_memory_set_conversation_model_async:
 * @self: a #AkcChatMemory
 * @id: the id of the conversation
 * @provider_kind: (nullable): the kind of model provider (`openai`,
 *   `ollama`, `anthropic`), or %NULL for none
 * @provider_url: (nullable): the provider's base URL, or %NULL for none
 * @model: (nullable): the model, or %NULL for none
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the change is stored
 * @user_data: data for @callback
 *
 * Starts recording which model provider and model a conversation is held
 * with, so that it asks the same model when it is opened again (and
 * [property@ConversationInfo:model] says which). It does not change
 * [property@ConversationInfo:updated-at]. It fails with
 * %AKC_CHAT_MEMORY_ERROR_NOT_FOUND when there is no such conversation.
 *
 * Since: 0.1
 */
void
akc_chat_memory_set_conversation_model_async (AkcChatMemory       *self,
                                              const char          *id,
                                              const char          *provider_kind,
                                              const char          *provider_url,
                                              const char          *model,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  AKC_CHAT_MEMORY_GET_IFACE (self)->set_conversation_model_async (self, id, provider_kind, provider_url, model,
                                                                  cancellable, callback, user_data);
}

/**
 * akc_chat_memory_set_conversation_model_finish:
 * @self: a #AkcChatMemory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes recording the model of a conversation.
 *
 * Returns: %TRUE if the change was stored
 *
 * Since: 0.1
 */
gboolean
akc_chat_memory_set_conversation_model_finish (AkcChatMemory  *self,
                                               GAsyncResult   *result,
                                               GError        **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  return AKC_CHAT_MEMORY_GET_IFACE (self)->set_conversation_model_finish (self, result, error);
}

/**
 * akc_chat_memory_conversation_changed:
 * @self: a #AkcChatMemory
 * @id: the id of the conversation that changed
 *
 * Emits [signal@ChatMemory::conversation-changed]. For implementations.
 *
 * Since: 0.1
 */
void
akc_chat_memory_conversation_changed (AkcChatMemory *self,
                                      const char    *id)
{
  g_return_if_fail (AKC_IS_CHAT_MEMORY (self));
  g_return_if_fail (id != NULL);

  g_signal_emit (self, signals[CONVERSATION_CHANGED], 0, id);
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
 * saturate at %G_MAXUINT64). Neither is a change of the conversation's
 * messages: [property@ConversationInfo:updated-at] stays as it is, so a
 * renamed conversation keeps its place among the others. It fails with
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

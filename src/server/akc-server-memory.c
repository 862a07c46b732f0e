/* akc-server-memory.c: a message memory kept in the server's memory
 *
 * SPDX-License-Identifier: MIT
 *
 * The `"memory": "memory"` message memory of a definition in akc-server's
 * configuration: each session's conversation as rows (AkcStoredMessage,
 * the form the SQLite history stores), so what a chat later changes never
 * reaches what was stored, and a loaded message is a new object. Lost when
 * the process ends.
 *
 * akc_server_memory_set_fail_writes() makes every write of messages or
 * usage fail as a full disk would (an empty conversation can still be
 * created, so a chat still loads); the turn handler's tests use it for the "memory save
 * failure" vector of server-diagnostics.json.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-server-memory.h"
#include "akc-stored-message-private.h"

typedef struct
{
  char      *id;
  char      *title;
  AkcUsage  *usage;
  GDateTime *created_at;
  GDateTime *updated_at;
  GPtrArray *rows;  /* AkcStoredMessage */
} Conversation;

struct _AkcServerMemory
{
  GObject     parent_instance;

  GHashTable *conversations;  /* id → Conversation */
  gboolean    fail_writes;
};

static void akc_server_memory_iface_init (AkcChatMemoryInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcServerMemory, akc_server_memory, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_MEMORY, akc_server_memory_iface_init))

static void
conversation_free (gpointer data)
{
  Conversation *c = data;

  g_free (c->id);
  g_free (c->title);
  akc_usage_free (c->usage);
  g_date_time_unref (c->created_at);
  g_date_time_unref (c->updated_at);
  g_ptr_array_unref (c->rows);
  g_free (c);
}

static AkcConversationInfo *
conversation_info (Conversation *c)
{
  return akc_conversation_info_new (c->id, c->title, c->usage, c->created_at, c->updated_at, c->rows->len);
}

static void
touch (Conversation *c)
{
  g_date_time_unref (c->updated_at);
  c->updated_at = g_date_time_new_now_utc ();
}

static GTask *
new_task (AkcServerMemory     *self,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data,
          gpointer             tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  return task;
}

static gboolean
refuse_write (AkcServerMemory *self,
              GTask           *task)
{
  if (!self->fail_writes)
    return FALSE;

  g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED,
                           _("The message memory refused the write."));
  return TRUE;
}

static Conversation *
lookup (AkcServerMemory *self,
        const char      *id,
        GTask           *task)
{
  Conversation *c = g_hash_table_lookup (self->conversations, id);

  if (c == NULL)
    g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
                             _("The conversation “%s” does not exist."), id);
  return c;
}

static void
list_conversations_async (AkcChatMemory       *memory,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, list_conversations_async);
  g_autoptr(GListStore) store = g_list_store_new (AKC_TYPE_CONVERSATION_INFO);
  g_autoptr(GList) values = g_hash_table_get_values (self->conversations);

  for (GList *l = values; l != NULL; l = l->next)
    {
      g_autoptr(AkcConversationInfo) info = conversation_info (l->data);

      g_list_store_append (store, info);
    }
  g_task_return_pointer (task, g_steal_pointer (&store), g_object_unref);
}

static gpointer
propagate_pointer (GAsyncResult  *result,
                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static GListModel *
list_conversations_finish (AkcChatMemory  *memory,
                           GAsyncResult   *result,
                           GError        **error)
{
  return propagate_pointer (result, error);
}

static void
create_conversation_async (AkcChatMemory       *memory,
                           const char          *id,
                           const char          *title,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, create_conversation_async);
  g_autofree char *random_id = NULL;
  Conversation *c;

  if (id == NULL)
    id = random_id = g_uuid_string_random ();
  if (g_hash_table_contains (self->conversations, id))
    {
      g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS,
                               _("The conversation “%s” exists already."), id);
      return;
    }

  c = g_new0 (Conversation, 1);
  c->id = g_strdup (id);
  c->title = g_strdup (title);
  c->usage = akc_usage_new (0, 0, 0);
  c->created_at = g_date_time_new_now_utc ();
  c->updated_at = g_date_time_ref (c->created_at);
  c->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_stored_message_free);
  g_hash_table_insert (self->conversations, c->id, c);
  g_task_return_pointer (task, conversation_info (c), g_object_unref);
}

static AkcConversationInfo *
create_conversation_finish (AkcChatMemory  *memory,
                            GAsyncResult   *result,
                            GError        **error)
{
  return propagate_pointer (result, error);
}

static void
update_conversation_async (AkcChatMemory       *memory,
                           const char          *id,
                           const char          *title,
                           const AkcUsage      *usage,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, update_conversation_async);
  Conversation *c;

  if (refuse_write (self, task) || (c = lookup (self, id, task)) == NULL)
    return;

  if (title != NULL)
    {
      g_free (c->title);
      c->title = g_strdup (title);
    }
  /* A rename or a turn's usage leaves the time of the last change. */
  if (usage != NULL)
    akc_usage_add (c->usage, usage);
  g_task_return_boolean (task, TRUE);
}

/* The finish of every write */
static gboolean
finish_boolean (AkcChatMemory  *memory,
                GAsyncResult   *result,
                GError        **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
delete_conversation_async (AkcChatMemory       *memory,
                           const char          *id,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, delete_conversation_async);

  if (refuse_write (self, task) || lookup (self, id, task) == NULL)
    return;

  g_hash_table_remove (self->conversations, id);
  g_task_return_boolean (task, TRUE);
}

static void
load_messages_async (AkcChatMemory       *memory,
                     const char          *conversation_id,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, load_messages_async);
  g_autoptr(GListStore) store = NULL;
  Conversation *c;

  if ((c = lookup (self, conversation_id, task)) == NULL)
    return;

  store = g_list_store_new (AKC_TYPE_MESSAGE);
  for (guint i = 0; i < c->rows->len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AkcMessage) message = akc_stored_message_to_message (g_ptr_array_index (c->rows, i), &error);

      if (message == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_list_store_append (store, message);
    }
  g_task_return_pointer (task, g_steal_pointer (&store), g_object_unref);
}

static GListModel *
load_messages_finish (AkcChatMemory  *memory,
                      GAsyncResult   *result,
                      GError        **error)
{
  return propagate_pointer (result, error);
}

static gboolean
has_id (Conversation *c,
        const char   *id,
        guint         skip_from,
        guint         skip_n)
{
  for (guint i = 0; i < c->rows->len; i++)
    {
      AkcStoredMessage *row = g_ptr_array_index (c->rows, i);

      if (i >= skip_from && i - skip_from < skip_n)
        continue;
      if (g_strcmp0 (row->id, id) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
splice_messages_async (AkcChatMemory        *memory,
                       const char           *conversation_id,
                       guint                 position,
                       guint                 n_removed,
                       AkcMessage          **added,
                       guint                 n_added,
                       GCancellable         *cancellable,
                       GAsyncReadyCallback   callback,
                       gpointer              user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, splice_messages_async);
  Conversation *c;

  if (refuse_write (self, task) || (c = lookup (self, conversation_id, task)) == NULL)
    return;

  if (position == G_MAXUINT)
    position = c->rows->len;
  if (n_removed == G_MAXUINT)
    n_removed = position <= c->rows->len ? c->rows->len - position : 0;
  if (position > c->rows->len || n_removed > c->rows->len - position)
    {
      g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                               _("The messages to replace are not in the conversation."));
      return;
    }
  for (guint i = 0; i < n_added; i++)
    {
      gboolean twice = FALSE;

      for (guint j = 0; j < i; j++)
        twice |= g_strcmp0 (akc_message_get_id (added[i]), akc_message_get_id (added[j])) == 0;
      if (twice || has_id (c, akc_message_get_id (added[i]), position, n_removed))
        {
          g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_EXISTS,
                                   _("The message “%s” is in the conversation already."),
                                   akc_message_get_id (added[i]));
          return;
        }
    }

  g_ptr_array_remove_range (c->rows, position, n_removed);
  for (guint i = 0; i < n_added; i++)
    g_ptr_array_insert (c->rows, position + i, akc_stored_message_new_from_message (added[i]));
  touch (c);
  g_task_return_boolean (task, TRUE);
}

static void
save_message_async (AkcChatMemory       *memory,
                    const char          *conversation_id,
                    AkcMessage          *message,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (memory);
  g_autoptr(GTask) task = new_task (self, cancellable, callback, user_data, save_message_async);
  Conversation *c;

  if (refuse_write (self, task) || (c = lookup (self, conversation_id, task)) == NULL)
    return;

  for (guint i = 0; i < c->rows->len; i++)
    {
      AkcStoredMessage *row = g_ptr_array_index (c->rows, i);

      if (g_strcmp0 (row->id, akc_message_get_id (message)) == 0)
        {
          c->rows->pdata[i] = akc_stored_message_new_from_message (message);
          akc_stored_message_free (row);
          touch (c);
          g_task_return_boolean (task, TRUE);
          return;
        }
    }

  g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND,
                           _("The message “%s” is not in the conversation."), akc_message_get_id (message));
}

static void
akc_server_memory_iface_init (AkcChatMemoryInterface *iface)
{
  iface->list_conversations_async = list_conversations_async;
  iface->list_conversations_finish = list_conversations_finish;
  iface->create_conversation_async = create_conversation_async;
  iface->create_conversation_finish = create_conversation_finish;
  iface->update_conversation_async = update_conversation_async;
  iface->update_conversation_finish = finish_boolean;
  iface->delete_conversation_async = delete_conversation_async;
  iface->delete_conversation_finish = finish_boolean;
  iface->load_messages_async = load_messages_async;
  iface->load_messages_finish = load_messages_finish;
  iface->splice_messages_async = splice_messages_async;
  iface->splice_messages_finish = finish_boolean;
  iface->save_message_async = save_message_async;
  iface->save_message_finish = finish_boolean;
}

static void
akc_server_memory_finalize (GObject *object)
{
  AkcServerMemory *self = AKC_SERVER_MEMORY (object);

  g_clear_pointer (&self->conversations, g_hash_table_unref);
  G_OBJECT_CLASS (akc_server_memory_parent_class)->finalize (object);
}

static void
akc_server_memory_class_init (AkcServerMemoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_server_memory_finalize;
}

static void
akc_server_memory_init (AkcServerMemory *self)
{
  self->conversations = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, conversation_free);
}

/* Returns a new, empty memory. */
AkcChatMemory *
akc_server_memory_new (void)
{
  return g_object_new (AKC_TYPE_SERVER_MEMORY, NULL);
}

/* From now on, every write fails with AKC_CHAT_MEMORY_ERROR_FAILED (or
 * succeeds again). */
void
akc_server_memory_set_fail_writes (AkcServerMemory *self,
                                   gboolean         fail_writes)
{
  g_return_if_fail (AKC_IS_SERVER_MEMORY (self));

  self->fail_writes = fail_writes;
}

/* The number of messages stored for @conversation_id (0 when none). */
guint
akc_server_memory_get_n_messages (AkcServerMemory *self,
                                  const char      *conversation_id)
{
  Conversation *c;

  g_return_val_if_fail (AKC_IS_SERVER_MEMORY (self), 0);

  c = g_hash_table_lookup (self->conversations, conversation_id);
  return c != NULL ? c->rows->len : 0;
}

/* akc-chat-history.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat-history.h"
#include "akc-chat-private.h"
#include "akc-tool-call.h"

/**
 * AkcChatHistory:
 *
 * Keeps an [class@Chat] and one conversation of an [iface@ChatMemory] in
 * step, so a conversation reopens exactly as it was.
 *
 * [method@ChatHistory.load_async] reads the stored conversation (creating it
 * when it does not exist yet) into the chat with [method@Chat.restore].
 * From then on the history observes the chat and writes every change;
 * the chat itself knows nothing of storage.
 *
 * What is written, and when:
 *
 * - A message added, removed or replaced (send, retry, edit, regenerate,
 *   clear, restore) is written at once, as one
 *   [method@ChatMemory.splice_messages_async] with the messages as they are at
 *   that moment.
 * - A change of status, [property@Message:stopped],
 *   [property@Message:lineage] or of a tool call is written at the end of
 *   the main-loop iteration it happened in, so a reply that completes is
 *   written completed before anything else happens.
 * - Text streaming into a pending or streaming message is checkpointed at
 *   most once every [property@ChatHistory:checkpoint-interval]
 *   milliseconds (and at once when the message completes, fails or is
 *   stopped). A process killed while a reply streams keeps that reply
 *   as of its last checkpoint, at most one interval behind; every message
 *   that was complete before is kept whole.
 *
 * The memory runs the writes in order on its own thread; nothing here
 * waits for the disk. [method@ChatHistory.flush_async] writes what is pending
 * and tells when all of it is stored.
 *
 * When a write fails, [property@ChatHistory:error] says why, and the next
 * change rewrites the whole conversation in one step, so the stored
 * conversation never stays out of step with the chat.
 *
 * A reply that was still pending or streaming when the application
 * stopped is loaded as stopped: %AKC_MESSAGE_STATUS_COMPLETE with
 * [property@Message:stopped] set, keeping the text that was stored.
 *
 * Since: 0.1
 */

typedef struct _Watch Watch;

struct _AkcChatHistory
{
  GObject         parent_instance;

  AkcChat        *chat;
  AkcChatMemory  *memory;
  char           *conversation_id;
  char           *assistant_id;
  GError         *error;

  /* One Watch per message of the chat, in its order, once loaded. */
  GPtrArray      *watches;
  guint           usage_source;
  AkcUsage        written_usage;  /* the chat's usage when last written */

  GList          *flushes;     /* GTask, waiting for n_pending == 0 */
  guint           n_pending;
  guint           checkpoint_interval;

  guint           loading : 1;
  guint           loaded : 1;
  guint           needs_resync : 1;
};

G_DEFINE_FINAL_TYPE (AkcChatHistory, akc_chat_history, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CHAT,
  PROP_MEMORY,
  PROP_CONVERSATION_ID,
  PROP_ASSISTANT_ID,
  PROP_CHECKPOINT_INTERVAL,
  PROP_LOADED,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

struct _Watch
{
  AkcChatHistory *history;     /* unowned: the history owns the watch */
  AkcMessage     *message;
  GPtrArray      *tool_calls;  /* the AkcToolCalls observed */
  guint           save_source;
  gboolean        urgent;      /* save_source is the end-of-iteration save */
};

static void akc_chat_history_save_message (AkcChatHistory *self,
                                           AkcMessage     *message);
static void akc_chat_history_resync       (AkcChatHistory *self);

/* ------------------------------------------------------------------ */
/* Pending writes                                                      */
/* ------------------------------------------------------------------ */

static void
akc_chat_history_take_error (AkcChatHistory *self,
                             GError         *error)
{
  if (self->error == NULL && error == NULL)
    return;

  g_clear_error (&self->error);
  self->error = error;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ERROR]);
}

static void
akc_chat_history_complete_flushes (AkcChatHistory *self)
{
  GList *flushes;

  if (self->n_pending > 0)
    return;

  flushes = g_steal_pointer (&self->flushes);
  for (GList *l = flushes; l != NULL; l = l->next)
    {
      GTask *task = l->data;

      if (self->error != NULL)
        g_task_return_error (task, g_error_copy (self->error));
      else
        g_task_return_boolean (task, TRUE);
    }
  g_list_free_full (flushes, g_object_unref);
}

typedef enum
{
  WRITE_SAVE,
  WRITE_SPLICE,
  WRITE_RESYNC,
  WRITE_UPDATE,
} WriteKind;

typedef struct
{
  AkcChatHistory *history;  /* owned */
  WriteKind       kind;
} Write;

static Write *
akc_chat_history_begin_write (AkcChatHistory *self,
                              WriteKind       kind)
{
  Write *write = g_new0 (Write, 1);

  write->history = g_object_ref (self);
  write->kind = kind;
  self->n_pending++;

  return write;
}

static void
on_write_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  Write *write = user_data;
  AkcChatMemory *memory = AKC_CHAT_MEMORY (source);
  g_autoptr(AkcChatHistory) self = write->history;
  g_autoptr(GError) error = NULL;
  WriteKind kind = write->kind;
  gboolean ok = FALSE;

  g_free (write);

  switch (kind)
    {
    case WRITE_SAVE:
      ok = akc_chat_memory_save_message_finish (memory, result, &error);
      break;
    case WRITE_SPLICE:
    case WRITE_RESYNC:
      ok = akc_chat_memory_splice_messages_finish (memory, result, &error);
      break;
    case WRITE_UPDATE:
      ok = akc_chat_memory_update_conversation_finish (memory, result, &error);
      break;
    default:
      g_assert_not_reached ();
    }

  g_assert (self->n_pending > 0);
  self->n_pending--;

  if (!ok)
    {
      /* The stored conversation may now differ from the chat: the next
       * change rewrites all of it. */
      self->needs_resync = TRUE;
      akc_chat_history_take_error (self, g_steal_pointer (&error));
    }
  else if (kind == WRITE_RESYNC && !self->needs_resync)
    {
      akc_chat_history_take_error (self, NULL);
    }

  akc_chat_history_complete_flushes (self);
}

/* ------------------------------------------------------------------ */
/* Observing messages                                                  */
/* ------------------------------------------------------------------ */

static gboolean
is_in_progress (AkcMessage *message)
{
  AkcMessageStatus status = akc_message_get_status (message);

  return status == AKC_MESSAGE_STATUS_PENDING || status == AKC_MESSAGE_STATUS_STREAMING;
}

static void
watch_save_now (Watch *watch)
{
  g_clear_handle_id (&watch->save_source, g_source_remove);
  watch->urgent = FALSE;
  akc_chat_history_save_message (watch->history, watch->message);
}

static gboolean
watch_save_cb (gpointer user_data)
{
  Watch *watch = user_data;

  watch->save_source = 0;
  watch->urgent = FALSE;
  akc_chat_history_save_message (watch->history, watch->message);

  return G_SOURCE_REMOVE;
}

/* Schedules a save: at the end of this main-loop iteration when @urgent,
 * otherwise at most checkpoint-interval from the first unsaved change. */
static void
watch_mark_dirty (Watch    *watch,
                  gboolean  urgent)
{
  guint interval = watch->history->checkpoint_interval;

  if (watch->save_source != 0 && (watch->urgent || !urgent))
    return;

  g_clear_handle_id (&watch->save_source, g_source_remove);

  if (urgent || interval == 0)
    {
      watch->save_source = g_idle_add_full (G_PRIORITY_DEFAULT, watch_save_cb, watch, NULL);
      watch->urgent = TRUE;
    }
  else
    {
      watch->save_source = g_timeout_add_full (G_PRIORITY_DEFAULT, interval, watch_save_cb, watch, NULL);
      watch->urgent = FALSE;
    }
}

static void
on_message_notify (AkcMessage *message,
                   GParamSpec *pspec,
                   Watch      *watch)
{
  /* Streamed text is checkpointed; everything else is written at the end
   * of this iteration, with the text as it is then. */
  if (g_strcmp0 (pspec->name, "content") == 0 && is_in_progress (message))
    watch_mark_dirty (watch, FALSE);
  else
    watch_mark_dirty (watch, TRUE);
}

static void
on_tool_call_notify (AkcToolCall *tool_call,
                     GParamSpec  *pspec,
                     Watch       *watch)
{
  watch_mark_dirty (watch, TRUE);
}

static void
watch_unwatch_tool_calls (Watch *watch)
{
  for (guint i = 0; i < watch->tool_calls->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (watch->tool_calls, i), watch);
  g_ptr_array_set_size (watch->tool_calls, 0);
}

static void
watch_watch_tool_calls (Watch *watch)
{
  GListModel *tool_calls = akc_message_get_tool_calls (watch->message);
  guint n = g_list_model_get_n_items (tool_calls);

  watch_unwatch_tool_calls (watch);

  for (guint i = 0; i < n; i++)
    {
      AkcToolCall *tool_call = g_list_model_get_item (tool_calls, i);

      g_signal_connect (tool_call, "notify", G_CALLBACK (on_tool_call_notify), watch);
      g_ptr_array_add (watch->tool_calls, tool_call);
    }
}

static void
on_tool_calls_changed (GListModel *tool_calls,
                       guint       position,
                       guint       removed,
                       guint       added,
                       Watch      *watch)
{
  watch_watch_tool_calls (watch);
  watch_mark_dirty (watch, TRUE);
}

static Watch *
watch_new (AkcChatHistory *self,
           AkcMessage     *message)
{
  Watch *watch = g_new0 (Watch, 1);

  watch->history = self;
  watch->message = g_object_ref (message);
  watch->tool_calls = g_ptr_array_new_with_free_func (g_object_unref);

  g_signal_connect (message, "notify", G_CALLBACK (on_message_notify), watch);
  g_signal_connect (akc_message_get_tool_calls (message), "items-changed",
                    G_CALLBACK (on_tool_calls_changed), watch);
  watch_watch_tool_calls (watch);

  return watch;
}

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_clear_handle_id (&watch->save_source, g_source_remove);
  watch_unwatch_tool_calls (watch);
  g_signal_handlers_disconnect_by_data (akc_message_get_tool_calls (watch->message), watch);
  g_signal_handlers_disconnect_by_data (watch->message, watch);
  g_ptr_array_unref (watch->tool_calls);
  g_object_unref (watch->message);
  g_free (watch);
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

static void
akc_chat_history_save_message (AkcChatHistory *self,
                               AkcMessage     *message)
{
  if (self->needs_resync)
    {
      akc_chat_history_resync (self);
      return;
    }

  akc_chat_memory_save_message_async (self->memory, self->conversation_id, message, NULL,
                                      on_write_done, akc_chat_history_begin_write (self, WRITE_SAVE));
}

static guint64
usage_increase (guint64 now,
                guint64 before)
{
  /* The chat's usage only grows, until a restore or a clear starts it
   * again from zero. */
  return now >= before ? now - before : now;
}

/* Adds to the stored usage what the chat used since it was last written:
 * the stored usage is that of the conversation over every session. */
static void
akc_chat_history_save_usage (AkcChatHistory *self)
{
  const AkcUsage *usage = akc_chat_source_get_usage (AKC_CHAT_SOURCE (self->chat));
  AkcUsage increase;

  g_clear_handle_id (&self->usage_source, g_source_remove);

  if (usage == NULL)
    return;

  increase.prompt_tokens = usage_increase (usage->prompt_tokens, self->written_usage.prompt_tokens);
  increase.completion_tokens = usage_increase (usage->completion_tokens, self->written_usage.completion_tokens);
  increase.total_tokens = usage_increase (usage->total_tokens, self->written_usage.total_tokens);
  self->written_usage = *usage;

  if (increase.prompt_tokens == 0 && increase.completion_tokens == 0 && increase.total_tokens == 0)
    return;

  akc_chat_memory_update_conversation_async (self->memory, self->conversation_id, NULL, &increase, NULL,
                                             on_write_done, akc_chat_history_begin_write (self, WRITE_UPDATE));
}

static gboolean
save_usage_cb (gpointer user_data)
{
  AkcChatHistory *self = user_data;

  self->usage_source = 0;
  akc_chat_history_save_usage (self);

  return G_SOURCE_REMOVE;
}

static void
on_usage_changed (AkcChatHistory *self)
{
  if (self->usage_source == 0)
    self->usage_source = g_idle_add_full (G_PRIORITY_DEFAULT, save_usage_cb, self, NULL);
}

/* Rewrites the whole stored conversation as the chat holds it now, in one
 * change; every pending save is part of it. */
static void
akc_chat_history_resync (AkcChatHistory *self)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new ();

  self->needs_resync = FALSE;

  for (guint i = 0; i < self->watches->len; i++)
    {
      Watch *watch = g_ptr_array_index (self->watches, i);

      g_clear_handle_id (&watch->save_source, g_source_remove);
      watch->urgent = FALSE;
      g_ptr_array_add (messages, watch->message);
    }

  akc_chat_memory_splice_messages_async (self->memory, self->conversation_id, 0, G_MAXUINT,
                                         (AkcMessage **) messages->pdata, messages->len, NULL,
                                         on_write_done, akc_chat_history_begin_write (self, WRITE_RESYNC));
}

static void
on_messages_changed (AkcChatHistory *self,
                     guint           position,
                     guint           removed,
                     guint           added,
                     GListModel     *messages)
{
  g_autoptr(GPtrArray) new_watches = g_ptr_array_new ();
  g_autoptr(GPtrArray) new_messages = g_ptr_array_new ();

  g_assert (position + removed <= self->watches->len);

  for (guint i = 0; i < added; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, position + i);

      g_ptr_array_add (new_watches, watch_new (self, message));
      g_ptr_array_add (new_messages, message);
    }

  /* A removed message is written no more; a save already queued for it
   * runs before this splice, in order. */
  g_ptr_array_remove_range (self->watches, position, removed);
  for (guint i = 0; i < new_watches->len; i++)
    g_ptr_array_insert (self->watches, position + i, g_ptr_array_index (new_watches, i));

  if (self->needs_resync)
    {
      akc_chat_history_resync (self);
      return;
    }

  akc_chat_memory_splice_messages_async (self->memory, self->conversation_id, position, removed,
                                         (AkcMessage **) new_messages->pdata, new_messages->len, NULL,
                                         on_write_done, akc_chat_history_begin_write (self, WRITE_SPLICE));
}

static void
akc_chat_history_bind (AkcChatHistory *self)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (self->chat));
  guint n = g_list_model_get_n_items (messages);
  const AkcUsage *usage;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

      g_ptr_array_add (self->watches, watch_new (self, message));
    }

  usage = akc_chat_source_get_usage (AKC_CHAT_SOURCE (self->chat));
  if (usage != NULL)
    self->written_usage = *usage;

  g_signal_connect_object (messages, "items-changed",
                           G_CALLBACK (on_messages_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->chat, "notify::usage",
                           G_CALLBACK (on_usage_changed), self, G_CONNECT_SWAPPED);
}

static void
akc_chat_history_unbind (AkcChatHistory *self)
{
  GListModel *messages;

  if (!self->loaded)
    return;

  messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (self->chat));
  g_signal_handlers_disconnect_by_data (messages, self);
  g_signal_handlers_disconnect_by_data (self->chat, self);

  g_ptr_array_set_size (self->watches, 0);
  g_clear_handle_id (&self->usage_source, g_source_remove);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

static void
akc_chat_history_finish_load (AkcChatHistory *self,
                              GTask          *task,
                              GListModel     *stored)
{
  GListModel *current = akc_chat_source_get_messages (AKC_CHAT_SOURCE (self->chat));
  guint n_stored = stored != NULL ? g_list_model_get_n_items (stored) : 0;
  guint n_current = g_list_model_get_n_items (current);
  g_autoptr(GPtrArray) all = g_ptr_array_new_full (n_stored + n_current, g_object_unref);
  g_autoptr(GPtrArray) interrupted = g_ptr_array_new ();

  for (guint i = 0; i < n_stored; i++)
    {
      AkcMessage *message = g_list_model_get_item (stored, i);

      /* A reply the application was writing when it stopped: nothing will
       * finish it now. It keeps its text and reads as stopped. */
      if (is_in_progress (message))
        {
          akc_message_set_status (message, AKC_MESSAGE_STATUS_COMPLETE);
          akc_message_set_stopped (message, TRUE);
          g_ptr_array_add (interrupted, message);
        }
      g_ptr_array_add (all, message);
    }

  /* Messages the chat got before the history was read come after it:
   * the conversation went on meanwhile (a person who wrote at once), and
   * its reply on the way and its error stay. */
  for (guint i = 0; i < n_current; i++)
    g_ptr_array_add (all, g_list_model_get_item (current, i));
  if (n_current > 0)
    akc_chat_prepend_restored (self->chat, (AkcMessage * const *) all->pdata, n_stored);
  else
    akc_chat_restore (self->chat, (AkcMessage * const *) all->pdata, all->len);

  self->loading = FALSE;
  self->loaded = TRUE;
  akc_chat_history_bind (self);

  for (guint i = 0; i < interrupted->len; i++)
    akc_chat_history_save_message (self, g_ptr_array_index (interrupted, i));

  if (n_current > 0)
    akc_chat_memory_splice_messages_async (self->memory, self->conversation_id, n_stored, 0,
                                           (AkcMessage **) all->pdata + n_stored, n_current, NULL,
                                           on_write_done, akc_chat_history_begin_write (self, WRITE_SPLICE));

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LOADED]);
  g_task_return_boolean (task, TRUE);
}

static void
on_created (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcChatHistory *self = g_task_get_source_object (task);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  info = akc_chat_memory_create_conversation_full_finish (AKC_CHAT_MEMORY (source), result, &error);
  if (info == NULL)
    {
      self->loading = FALSE;
      akc_chat_history_take_error (self, g_error_copy (error));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  akc_chat_history_finish_load (self, task, NULL);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcChatHistory *self = g_task_get_source_object (task);
  g_autoptr(GListModel) stored = NULL;
  g_autoptr(GError) error = NULL;

  stored = akc_chat_memory_load_messages_finish (AKC_CHAT_MEMORY (source), result, &error);
  if (stored != NULL)
    {
      akc_chat_history_finish_load (self, task, stored);
      return;
    }

  if (g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND))
    {
      akc_chat_memory_create_conversation_full_async (self->memory, self->conversation_id,
                                                      self->assistant_id, NULL,
                                                 g_task_get_cancellable (task),
                                                 on_created, g_object_ref (task));
      return;
    }

  self->loading = FALSE;
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    akc_chat_history_take_error (self, g_error_copy (error));
  g_task_return_error (task, g_steal_pointer (&error));
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
on_detached_save_done (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  /* Nobody is left to tell. */
  akc_chat_memory_save_message_finish (AKC_CHAT_MEMORY (source), result, NULL);
}

static void
on_detached_splice_done (GObject      *source,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  akc_chat_memory_splice_messages_finish (AKC_CHAT_MEMORY (source), result, NULL);
}

static void
akc_chat_history_dispose (GObject *object)
{
  AkcChatHistory *self = (AkcChatHistory *)object;

  /* What is still waiting is written now; the memory carries it out after
   * the history is gone: the checkpoints, or all of the conversation when
   * a write had failed. */
  if (self->loaded && self->needs_resync)
    {
      g_autoptr(GPtrArray) messages = g_ptr_array_new ();

      for (guint i = 0; i < self->watches->len; i++)
        g_ptr_array_add (messages, ((Watch *) g_ptr_array_index (self->watches, i))->message);
      akc_chat_memory_splice_messages_async (self->memory, self->conversation_id, 0, G_MAXUINT,
                                             (AkcMessage **) messages->pdata, messages->len, NULL,
                                             on_detached_splice_done, NULL);
    }
  else if (self->loaded)
    {
      for (guint i = 0; i < self->watches->len; i++)
        {
          Watch *watch = g_ptr_array_index (self->watches, i);

          if (watch->save_source != 0)
            akc_chat_memory_save_message_async (self->memory, self->conversation_id, watch->message,
                                                NULL, on_detached_save_done, NULL);
        }
    }

  akc_chat_history_unbind (self);

  g_clear_object (&self->chat);
  g_clear_object (&self->memory);

  G_OBJECT_CLASS (akc_chat_history_parent_class)->dispose (object);
}

static void
akc_chat_history_finalize (GObject *object)
{
  AkcChatHistory *self = (AkcChatHistory *)object;

  g_assert (self->flushes == NULL);

  g_clear_pointer (&self->watches, g_ptr_array_unref);
  g_clear_pointer (&self->conversation_id, g_free);
  g_clear_pointer (&self->assistant_id, g_free);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (akc_chat_history_parent_class)->finalize (object);
}

static void
akc_chat_history_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AkcChatHistory *self = AKC_CHAT_HISTORY (object);

  switch (prop_id)
    {
    case PROP_CHAT:
      g_value_set_object (value, self->chat);
      break;
    case PROP_MEMORY:
      g_value_set_object (value, self->memory);
      break;
    case PROP_CONVERSATION_ID:
      g_value_set_string (value, self->conversation_id);
      break;
    case PROP_ASSISTANT_ID:
      g_value_set_string (value, self->assistant_id);
      break;
    case PROP_CHECKPOINT_INTERVAL:
      g_value_set_uint (value, self->checkpoint_interval);
      break;
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_history_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AkcChatHistory *self = AKC_CHAT_HISTORY (object);

  switch (prop_id)
    {
    case PROP_CHAT:
      self->chat = g_value_dup_object (value);
      break;
    case PROP_MEMORY:
      self->memory = g_value_dup_object (value);
      break;
    case PROP_CONVERSATION_ID:
      self->conversation_id = g_value_dup_string (value);
      break;
    case PROP_ASSISTANT_ID:
      self->assistant_id = g_value_dup_string (value);
      break;
    case PROP_CHECKPOINT_INTERVAL:
      akc_chat_history_set_checkpoint_interval (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_history_class_init (AkcChatHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_chat_history_dispose;
  object_class->finalize = akc_chat_history_finalize;
  object_class->get_property = akc_chat_history_get_property;
  object_class->set_property = akc_chat_history_set_property;

  /**
   * AkcChatHistory:chat:
   *
   * The conversation kept in step with the memory.
   *
   * Since: 0.1
   */
  props[PROP_CHAT] =
    g_param_spec_object ("chat", NULL, NULL,
                         AKC_TYPE_CHAT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatHistory:memory:
   *
   * Where the conversation is stored.
   *
   * Since: 0.1
   */
  props[PROP_MEMORY] =
    g_param_spec_object ("memory", NULL, NULL,
                         AKC_TYPE_CHAT_MEMORY,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatHistory:conversation-id:
   *
   * The id of the stored conversation.
   *
   * Since: 0.1
   */
  props[PROP_CONVERSATION_ID] =
    g_param_spec_string ("conversation-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatHistory:assistant-id:
   *
   * The assistant of the conversation, recorded when
   * [method@ChatHistory.load_async] creates it
   * ([method@ChatMemory.create_conversation_full_async]); %NULL when
   * unknown. A conversation that exists keeps its own.
   *
   * Since: 0.1
   */
  props[PROP_ASSISTANT_ID] =
    g_param_spec_string ("assistant-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatHistory:checkpoint-interval:
   *
   * The longest time, in milliseconds, that text streaming into a reply
   * stays unwritten. 0 writes every change at the end of the main-loop
   * iteration it happened in. A change of interval applies from the next
   * checkpoint.
   *
   * Since: 0.1
   */
  props[PROP_CHECKPOINT_INTERVAL] =
    g_param_spec_uint ("checkpoint-interval", NULL, NULL,
                       0, G_MAXUINT, AKC_CHAT_HISTORY_DEFAULT_CHECKPOINT_INTERVAL,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatHistory:loaded:
   *
   * Whether the stored conversation was read into the chat and changes
   * are being written.
   *
   * Since: 0.1
   */
  props[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatHistory:error:
   *
   * Why the last read or write failed, or %NULL. It is cleared once the
   * stored conversation is back in step with the chat.
   *
   * Since: 0.1
   */
  props[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL,
                        G_TYPE_ERROR,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_chat_history_init (AkcChatHistory *self)
{
  self->watches = g_ptr_array_new_with_free_func (watch_free);
  self->checkpoint_interval = AKC_CHAT_HISTORY_DEFAULT_CHECKPOINT_INTERVAL;
}

/**
 * akc_chat_history_new:
 * @chat: the conversation to keep
 * @memory: where to keep it
 * @conversation_id: the id of the stored conversation
 *
 * Creates the link between @chat and a stored conversation. Nothing is
 * read or written until [method@ChatHistory.load_async].
 *
 * Returns: (transfer full): a new #AkcChatHistory
 *
 * Since: 0.1
 */
AkcChatHistory *
akc_chat_history_new (AkcChat       *chat,
                      AkcChatMemory *memory,
                      const char    *conversation_id)
{
  g_return_val_if_fail (AKC_IS_CHAT (chat), NULL);
  g_return_val_if_fail (AKC_IS_CHAT_MEMORY (memory), NULL);
  g_return_val_if_fail (conversation_id != NULL, NULL);

  return g_object_new (AKC_TYPE_CHAT_HISTORY,
                       "chat", chat,
                       "memory", memory,
                       "conversation-id", conversation_id,
                       NULL);
}

/**
 * akc_chat_history_get_chat:
 * @self: a #AkcChatHistory
 *
 * Gets the conversation kept in step with the memory.
 *
 * Returns: (transfer none): the chat
 *
 * Since: 0.1
 */
AkcChat *
akc_chat_history_get_chat (AkcChatHistory *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), NULL);

  return self->chat;
}

/**
 * akc_chat_history_get_memory:
 * @self: a #AkcChatHistory
 *
 * Gets where the conversation is stored.
 *
 * Returns: (transfer none): the memory
 *
 * Since: 0.1
 */
AkcChatMemory *
akc_chat_history_get_memory (AkcChatHistory *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), NULL);

  return self->memory;
}

/**
 * akc_chat_history_get_conversation_id:
 * @self: a #AkcChatHistory
 *
 * Gets the id of the stored conversation.
 *
 * Returns: (transfer none): the id
 *
 * Since: 0.1
 */
const char *
akc_chat_history_get_conversation_id (AkcChatHistory *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), NULL);

  return self->conversation_id;
}

/**
 * akc_chat_history_get_checkpoint_interval:
 * @self: a #AkcChatHistory
 *
 * Gets the longest time streamed text stays unwritten.
 *
 * Returns: the interval in milliseconds
 *
 * Since: 0.1
 */
guint
akc_chat_history_get_checkpoint_interval (AkcChatHistory *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), 0);

  return self->checkpoint_interval;
}

/**
 * akc_chat_history_set_checkpoint_interval:
 * @self: a #AkcChatHistory
 * @interval: the interval in milliseconds; 0 writes every change
 *
 * Sets the longest time streamed text stays unwritten. Shorter intervals
 * lose less of a reply that was streaming when the process died, at the
 * cost of more writes.
 *
 * Since: 0.1
 */
void
akc_chat_history_set_checkpoint_interval (AkcChatHistory *self,
                                          guint           interval)
{
  g_return_if_fail (AKC_IS_CHAT_HISTORY (self));

  if (self->checkpoint_interval == interval)
    return;

  self->checkpoint_interval = interval;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CHECKPOINT_INTERVAL]);
}

/**
 * akc_chat_history_get_loaded:
 * @self: a #AkcChatHistory
 *
 * Tells whether the stored conversation was read into the chat and
 * changes are being written.
 *
 * Returns: %TRUE once [method@ChatHistory.load_async] succeeded
 *
 * Since: 0.1
 */
gboolean
akc_chat_history_get_loaded (AkcChatHistory *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), FALSE);

  return self->loaded;
}

/**
 * akc_chat_history_get_error:
 * @self: a #AkcChatHistory
 *
 * Gets why the last read or write failed.
 *
 * Returns: (transfer none) (nullable): the error, or %NULL
 *
 * Since: 0.1
 */
const GError *
akc_chat_history_get_error (AkcChatHistory *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), NULL);

  return self->error;
}

/**
 * akc_chat_history_load_async:
 * @self: a #AkcChatHistory
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the chat holds the stored conversation
 * @user_data: data for @callback
 *
 * Reads the stored conversation into the chat, creating an empty one when
 * the memory has none with this id, and starts writing every change of
 * the chat. Messages the chat already holds are kept after the stored
 * ones, and stored. Call it once: a second call fails with
 * %AKC_CHAT_MEMORY_ERROR_INVALID and changes nothing.
 *
 * Since: 0.1
 */
void
akc_chat_history_load_async (AkcChatHistory      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (AKC_IS_CHAT_HISTORY (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_chat_history_load_async);

  if (self->loading || self->loaded)
    {
      g_task_return_new_error (task, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID,
                               "%s", _("The conversation was already read from the history."));
      return;
    }

  self->loading = TRUE;
  akc_chat_memory_load_messages_async (self->memory, self->conversation_id, cancellable,
                                       on_loaded, g_steal_pointer (&task));
}

/**
 * akc_chat_history_load_finish:
 * @self: a #AkcChatHistory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes reading the stored conversation. On failure the chat is left
 * as it was and nothing is written; the error, in
 * %AKC_CHAT_MEMORY_ERROR, is also [property@ChatHistory:error]. A
 * cancelled load fails with %G_IO_ERROR_CANCELLED and a second load with
 * %AKC_CHAT_MEMORY_ERROR_INVALID; neither sets the property.
 *
 * Returns: %TRUE if the chat holds the stored conversation
 *
 * Since: 0.1
 */
gboolean
akc_chat_history_load_finish (AkcChatHistory  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * akc_chat_history_flush_async:
 * @self: a #AkcChatHistory
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when everything is stored
 * @user_data: data for @callback
 *
 * Writes the checkpoints that are waiting now, and tells when every
 * change made so far is stored. Call it before quitting, or to know that
 * a message is safe.
 *
 * Since: 0.1
 */
void
akc_chat_history_flush_async (AkcChatHistory      *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (AKC_IS_CHAT_HISTORY (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_chat_history_flush_async);

  if (self->loaded)
    {
      if (self->needs_resync)
        akc_chat_history_resync (self);

      for (guint i = 0; i < self->watches->len; i++)
        {
          Watch *watch = g_ptr_array_index (self->watches, i);

          if (watch->save_source != 0)
            watch_save_now (watch);
        }

      if (self->usage_source != 0)
        akc_chat_history_save_usage (self);
    }

  self->flushes = g_list_append (self->flushes, task);
  akc_chat_history_complete_flushes (self);
}

/**
 * akc_chat_history_flush_finish:
 * @self: a #AkcChatHistory
 * @result: the result passed to the callback
 * @error: return location for a #GError
 *
 * Finishes writing what was pending.
 *
 * Returns: %TRUE if every change is stored; %FALSE with
 *   [property@ChatHistory:error] when a write failed
 *
 * Since: 0.1
 */
gboolean
akc_chat_history_flush_finish (AkcChatHistory  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (AKC_IS_CHAT_HISTORY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* akc-history-writer.c: the process the kill test kills
 *
 * SPDX-License-Identifier: MIT
 *
 *   akc-history-writer PATH ROUND CHECKPOINT-INTERVAL-MS
 *
 * Opens the history at PATH, loads the conversation "kill" into a chat
 * through an AkcChatHistory and streams one long reply after another into
 * it, until it is killed. It tells on stdout, one line each, what is
 * known to be stored (every line is printed only after a flush said so):
 *
 *   loaded N                 the conversation was read: N messages
 *   turn K USER-ID REPLY-ID  turn K was sent
 *   checkpoint REPLY-ID LEN  the first LEN bytes of the reply are stored
 *   complete ID LEN SHA256   the message is stored, complete
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <akc.h>

#include "akc-kill-script.h"

static guint round_number;
static guint turn_number;
static AkcChat *chat;
static AkcChatHistory *history;
static AkcMessage *user_message;
static AkcMessage *reply_message;

static void start_turn (void);

static void
say (const char *format,
     ...) G_GNUC_PRINTF (1, 2);

static void
say (const char *format,
     ...)
{
  va_list args;

  va_start (args, format);
  vprintf (format, args);
  va_end (args);
  putchar ('\n');
  fflush (stdout);
}

static G_NORETURN void
die (const GError *error)
{
  fprintf (stderr, "akc-history-writer: %s\n", error->message);
  exit (1);
}

/* The adapter: one chunk of the script per millisecond. */
#define KILL_TYPE_ADAPTER (kill_adapter_get_type ())
G_DECLARE_FINAL_TYPE (KillAdapter, kill_adapter, KILL, ADAPTER, GObject)

struct _KillAdapter
{
  GObject parent_instance;
};

typedef struct
{
  AkcStream *stream;
  guint      turn;
  guint      chunk;
} Turn;

static void
turn_free (gpointer data)
{
  Turn *turn = data;

  g_object_unref (turn->stream);
  g_free (turn);
}

static gboolean
turn_tick (gpointer data)
{
  Turn *turn = data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(AkcChunk) chunk = NULL;
  gsize length;
  const char *text;

  if (akc_stream_is_closed (turn->stream))
    return G_SOURCE_REMOVE;

  if (turn->chunk == KILL_N_CHUNKS)
    {
      akc_stream_finish (turn->stream);
      return G_SOURCE_REMOVE;
    }

  bytes = kill_chunk (round_number, turn->turn, turn->chunk++);
  text = g_bytes_get_data (bytes, &length);
  chunk = akc_chunk_new_text (text, length);
  akc_stream_push (turn->stream, chunk);

  return G_SOURCE_CONTINUE;
}

static void
kill_adapter_stream (AkcAdapter *adapter,
                     AkcAdapterRequest *request,
                     AkcStream  *stream)
{
  Turn *turn = g_new0 (Turn, 1);

  turn->stream = g_object_ref (stream);
  turn->turn = turn_number;
  g_timeout_add_full (G_PRIORITY_DEFAULT, 1, turn_tick, turn, turn_free);
}

static void
kill_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = kill_adapter_stream;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (KillAdapter, kill_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, kill_adapter_iface_init))

static void
kill_adapter_class_init (KillAdapterClass *klass)
{
}

static void
kill_adapter_init (KillAdapter *self)
{
}

static char *
checksum (AkcMessage *message)
{
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                      (const guchar *) akc_message_get_content (message),
                                      akc_message_get_content_length (message));
}

typedef struct
{
  AkcMessage *message;
  gsize       length;
} Checkpoint;

static void
on_checkpoint_flushed (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  Checkpoint *checkpoint = user_data;
  g_autoptr(GError) error = NULL;

  if (!akc_chat_history_flush_finish (AKC_CHAT_HISTORY (source), result, &error))
    die (error);

  say ("checkpoint %s %" G_GSIZE_FORMAT, akc_message_get_id (checkpoint->message), checkpoint->length);
  g_object_unref (checkpoint->message);
  g_free (checkpoint);
}

static void
on_reply_content (AkcMessage *message)
{
  static guint n_chunks;
  Checkpoint *checkpoint;

  if (++n_chunks % KILL_CHECKPOINT_EVERY != 0)
    return;

  checkpoint = g_new0 (Checkpoint, 1);
  checkpoint->message = g_object_ref (message);
  checkpoint->length = akc_message_get_content_length (message);
  akc_chat_history_flush_async (history, NULL, on_checkpoint_flushed, checkpoint);
}

static void
on_turn_flushed (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcMessage) user = user_message;
  g_autoptr(AkcMessage) reply = reply_message;
  g_autofree char *user_sum = checksum (user);
  g_autofree char *reply_sum = checksum (reply);

  user_message = reply_message = NULL;

  if (!akc_chat_history_flush_finish (AKC_CHAT_HISTORY (source), result, &error))
    die (error);

  g_assert (akc_message_get_status (reply) == AKC_MESSAGE_STATUS_COMPLETE);
  say ("complete %s %" G_GSIZE_FORMAT " %s", akc_message_get_id (user),
       akc_message_get_content_length (user), user_sum);
  say ("complete %s %" G_GSIZE_FORMAT " %s", akc_message_get_id (reply),
       akc_message_get_content_length (reply), reply_sum);

  turn_number++;
  start_turn ();
}

static void
on_status (AkcChat *source)
{
  if (reply_message == NULL ||
      akc_chat_source_get_status (AKC_CHAT_SOURCE (source)) == AKC_CHAT_STATUS_STREAMING)
    return;

  g_signal_handlers_disconnect_by_func (reply_message, on_reply_content, NULL);
  akc_chat_history_flush_async (history, NULL, on_turn_flushed, NULL);
}

static void
start_turn (void)
{
  g_autofree char *question = kill_user_text (round_number, turn_number);
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat));
  g_autoptr(GError) error = NULL;
  guint n;

  if (!akc_chat_source_send (AKC_CHAT_SOURCE (chat), question, &error))
    die (error);

  n = g_list_model_get_n_items (messages);
  user_message = g_list_model_get_item (messages, n - 2);
  reply_message = g_list_model_get_item (messages, n - 1);
  g_signal_connect (reply_message, "notify::content", G_CALLBACK (on_reply_content), NULL);

  say ("turn %u %s %s", turn_number, akc_message_get_id (user_message), akc_message_get_id (reply_message));
}

static void
on_loaded_flushed (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!akc_chat_history_flush_finish (AKC_CHAT_HISTORY (source), result, &error))
    die (error);

  say ("loaded %u", g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat))));
  start_turn ();
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!akc_chat_history_load_finish (AKC_CHAT_HISTORY (source), result, &error))
    die (error);

  /* Interrupted replies were marked stopped: stored before going on. */
  akc_chat_history_flush_async (history, NULL, on_loaded_flushed, NULL);
}

static void
on_opened (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  guint interval = GPOINTER_TO_UINT (user_data);
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(GError) error = NULL;

  memory = akc_sqlite_chat_memory_new_finish (result, &error);
  if (memory == NULL)
    die (error);

  adapter = g_object_new (KILL_TYPE_ADAPTER, NULL);
  chat = akc_chat_new (adapter);
  g_signal_connect (chat, "notify::status", G_CALLBACK (on_status), NULL);

  history = akc_chat_history_new (chat, AKC_CHAT_MEMORY (memory), KILL_CONVERSATION);
  akc_chat_history_set_checkpoint_interval (history, interval);
  akc_chat_history_load_async (history, NULL, on_loaded, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GMainLoop) loop = NULL;

  if (argc != 4)
    {
      fprintf (stderr, "usage: %s PATH ROUND CHECKPOINT-INTERVAL-MS\n", argv[0]);
      return 2;
    }

  round_number = (guint) g_ascii_strtoull (argv[2], NULL, 10);

  loop = g_main_loop_new (NULL, FALSE);
  akc_sqlite_chat_memory_new_async (argv[1], NULL, on_opened,
                                    GUINT_TO_POINTER ((guint) g_ascii_strtoull (argv[3], NULL, 10)));

  /* Runs until killed. */
  g_main_loop_run (loop);

  return 0;
}

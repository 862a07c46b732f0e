/* controlled-host.c: a controlled host in C
 *
 * It owns the chat, echoes each message word by word, and stops on Stop.
 *
 *   cc controlled-host.c $(pkg-config --cflags --libs akc-gtk-1) -o controlled-host
 *
 * SPDX-License-Identifier: MIT
 */

#include <akc-gtk.h>

typedef struct {
  AkcControlledSource *source;
  char                *message_id;
  char               **words;
  guint                next;
} Reply;

static void
reply_free (gpointer data)
{
  Reply *reply = data;

  g_object_unref (reply->source);
  g_free (reply->message_id);
  g_strfreev (reply->words);
  g_free (reply);
}

/* A word every 50 ms, until the words run out or the person stops the reply. */
static gboolean
stream (gpointer data)
{
  Reply *reply = data;
  AkcChatSource *chat = AKC_CHAT_SOURCE (reply->source);

  if (akc_chat_source_get_status (chat) != AKC_CHAT_STATUS_STREAMING)
    return G_SOURCE_REMOVE;   /* stopped */

  while (reply->words[reply->next] != NULL && *reply->words[reply->next] == '\0')
    reply->next++;
  if (reply->words[reply->next] != NULL)
    {
      g_autofree char *text = g_strconcat (" ", reply->words[reply->next++], NULL);

      return akc_controlled_source_append_text (reply->source, reply->message_id, text, NULL);
    }

  akc_controlled_source_set_message_status (reply->source, reply->message_id,
                                            AKC_MESSAGE_STATUS_COMPLETE, NULL);
  akc_controlled_source_set_status (reply->source, AKC_CHAT_STATUS_IDLE);
  return G_SOURCE_REMOVE;
}

static void
on_send (AkcControlledSource *source,
         const char          *text,
         gpointer             user_data)
{
  guint n = g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source)));
  g_autofree char *user_id = g_strdup_printf ("u%u", n);
  Reply *reply = g_new0 (Reply, 1);
  g_autoptr(AkcMessageRecord) question = NULL;
  g_autoptr(AkcMessageRecord) answer = NULL;

  reply->source = g_object_ref (source);
  reply->message_id = g_strdup_printf ("a%u", n);
  reply->words = g_strsplit_set (text, " \t\n", -1);

  question = akc_message_record_new_text (user_id, AKC_MESSAGE_ROLE_USER, text,
                                          AKC_MESSAGE_STATUS_COMPLETE, NULL, NULL);
  answer = akc_message_record_new_text (reply->message_id, AKC_MESSAGE_ROLE_ASSISTANT, "You said:",
                                        AKC_MESSAGE_STATUS_STREAMING, NULL, NULL);
  akc_controlled_source_append_message (source, question, NULL);
  akc_controlled_source_append_message (source, answer, NULL);
  akc_controlled_source_set_status (source, AKC_CHAT_STATUS_STREAMING);

  g_timeout_add_full (G_PRIORITY_DEFAULT, 50, stream, reply, reply_free);
}

/* The host's window: a chat widget over a controlled source. */
static GtkWidget *
controlled_host_window_new (AkcControlledSource **source_out)
{
  g_autoptr(AkcControlledSource) source = akc_controlled_source_new ();
  GtkWidget *window = gtk_window_new ();

  akc_controlled_source_set_session_id (source, "c-host", NULL);
  g_signal_connect (source, "send", G_CALLBACK (on_send), NULL);
  g_signal_connect (source, "stop", G_CALLBACK (akc_controlled_source_mark_stopped), NULL);

  gtk_window_set_title (GTK_WINDOW (window), "Controlled host");
  gtk_window_set_default_size (GTK_WINDOW (window), 480, 640);
  gtk_window_set_child (GTK_WINDOW (window), akc_chat_widget_new (AKC_CHAT_SOURCE (source)));
  /* The window holds the widget, the widget the source. */

  if (source_out != NULL)
    *source_out = g_object_ref (source);
  return window;
}

static void
on_close (GMainLoop *loop)
{
  g_main_loop_quit (loop);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  GtkWidget *window;

  gtk_init ();
  window = controlled_host_window_new (NULL);
  g_signal_connect_swapped (window, "close-request", G_CALLBACK (on_close), loop);
  gtk_window_present (GTK_WINDOW (window));
  g_main_loop_run (loop);

  return 0;
}

/* akc-chat-view-messages.c: the actions of one message (issue 14 item 7)
 *
 * SPDX-License-Identifier: MIT
 *
 * Copy a message (as Markdown or as plain text), delete it, and edit an
 * earlier message of the person, sending it again from there
 * (application.md §3.6 edit). Each is a chat.* action of the view whose
 * parameter is the message's id; the context menu of a row (right click,
 * Menu, Shift+F10: AkcMessageRow) offers them.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-markdown-private.h"
#include "akc-message-row-private.h"

static AkcMessage *
find_message (AkcChatView *self,
              const char  *id)
{
  guint n = self->messages != NULL ? g_list_model_get_n_items (self->messages) : 0;

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i - 1);

      if (g_strcmp0 (akc_message_get_id (message), id) == 0)
        return g_steal_pointer (&message);
    }

  return NULL;
}

/* What a message says, as Markdown or as plain text: its text runs, the
 * fallback text of its components, its diagnostics, in order. */
char *
akc_chat_view_message_text (AkcChatView *self,
                            AkcMessage  *message,
                            gboolean     plain)
{
  g_autoptr(GListModel) presentations = akc_present_message (message, self->manifest);
  GString *out = g_string_new (NULL);
  guint n = g_list_model_get_n_items (presentations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      gsize length;
      const char *text = akc_presentation_get_text (presentation, &length);
      g_autofree char *shown = NULL;

      if (text == NULL || length == 0)
        continue;

      if (plain && akc_presentation_get_kind (presentation) == AKC_PRESENTATION_MESSAGE &&
          (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER ||
           akc_message_get_role (message) == AKC_MESSAGE_ROLE_ASSISTANT))
        shown = akc_markdown_to_plain_text (text, length);
      else
        shown = akc_display_text (text, (gssize) length);

      g_strstrip (shown);
      if (*shown == '\0')
        continue;
      if (out->len > 0)
        g_string_append (out, "\n\n");
      g_string_append (out, shown);
    }

  return g_string_free (out, FALSE);
}

static void
copy (AkcChatView *self,
      GVariant    *parameter,
      gboolean     plain)
{
  g_autoptr(AkcMessage) message = find_message (self, g_variant_get_string (parameter, NULL));
  g_autofree char *text = NULL;

  if (message == NULL)
    return;

  text = akc_chat_view_message_text (self, message, plain);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  akc_chat_view_announce (self, _("Message copied"));
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  copy (AKC_CHAT_VIEW (widget), parameter, FALSE);
}

static void
copy_text_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  copy (AKC_CHAT_VIEW (widget), parameter, TRUE);
}

/* Hides the messages after the person's @message up to the person's next
 * one (those hidden already stay so); returns how many it hid. */
static guint
hide_reply (AkcChatView *self,
            AkcMessage  *message)
{
  AkcChat *chat = AKC_CHAT (self->source);
  GListModel *messages = akc_chat_source_get_messages (self->source);
  guint n = g_list_model_get_n_items (messages), n_hidden = 0, at;

  for (at = 0; at < n; at++)
    {
      g_autoptr(AkcMessage) other = g_list_model_get_item (messages, at);

      if (other == message)
        break;
    }

  for (at++; at < n; at++)
    {
      g_autoptr(AkcMessage) reply = g_list_model_get_item (messages, at);

      if (akc_message_get_role (reply) == AKC_MESSAGE_ROLE_USER)
        break;
      if (!akc_chat_get_message_hidden (chat, reply) &&
          akc_chat_hide_message (chat, akc_message_get_id (reply), NULL))
        n_hidden++;
    }

  return n_hidden;
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autoptr(AkcMessage) message = find_message (self, g_variant_get_string (parameter, NULL));
  g_autoptr(GError) error = NULL;
  guint position, n_reply;

  if (message == NULL || !AKC_IS_CHAT (self->source))
    return;

  akc_chat_view_set_action_error (self, NULL);
  /* Hidden, not deleted: the host makes it final (or undoes it). */
  for (position = 0; position < g_list_model_get_n_items (self->messages); position++)
    {
      g_autoptr(AkcMessage) other = g_list_model_get_item (self->messages, position);

      if (other == message)
        break;
    }
  if (!akc_chat_hide_message (AKC_CHAT (self->source), akc_message_get_id (message), &error))
    {
      akc_chat_view_set_action_error (self, error->message);
      return;
    }

  /* A person's message goes with the reply that answered it (the
   * assistant's messages and tool calls up to the person's next message):
   * a reply to nothing shown would misrepresent the conversation. One
   * undo brings both back. */
  n_reply = akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER ? hide_reply (self, message) : 0;

  akc_chat_view_announce (self, n_reply > 0 ? _("Message and its reply deleted") : _("Message deleted"));
  g_signal_emit (self, akc_chat_view_signals[MESSAGE_DELETED], 0, message, position);
}

static void
edit_message_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autoptr(AkcMessage) message = find_message (self, g_variant_get_string (parameter, NULL));
  g_autofree char *user_id = NULL;
  g_autofree char *draft = NULL;

  if (message == NULL || akc_message_get_role (message) != AKC_MESSAGE_ROLE_USER ||
      akc_chat_view_is_streaming (self) || self->editing)
    return;

  akc_chat_view_set_action_error (self, NULL);
  draft = akc_display_text (akc_message_get_content (message), (gssize) akc_message_get_content_length (message));
  akc_chat_view_set_editing (self, TRUE, akc_message_get_id (message), draft);

  /* §3.6: saving it removes every later message. Say so when there are
   * more than its reply. */
  if (!akc_chat_view_lifecycle_targets (self, &user_id, NULL) ||
      g_strcmp0 (user_id, akc_message_get_id (message)) != 0)
    akc_chat_view_announce (self, _("Editing an earlier message: sending it again replaces the messages after it"));
}

void
akc_chat_view_sync_message_actions (AkcChatView *self)
{
  gboolean streaming = akc_chat_view_is_streaming (self);
  gboolean idle = self->source != NULL && !streaming && !self->editing;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.copy-message", self->source != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.copy-message-text", self->source != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.delete-message", idle && AKC_IS_CHAT (self->source));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.edit-message", idle);
}

void
akc_chat_view_class_install_message_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "chat.copy-message", "s", copy_action);
  gtk_widget_class_install_action (widget_class, "chat.copy-message-text", "s", copy_text_action);
  gtk_widget_class_install_action (widget_class, "chat.delete-message", "s", delete_action);
  gtk_widget_class_install_action (widget_class, "chat.edit-message", "s", edit_message_action);

  /**
   * AkcChatView::message-deleted:
   * @self: the view
   * @message: the message, hidden
   * @position: where it is in the conversation
   *
   * A person deleted @message (its context menu, the
   * `chat.delete-message` action), from a source that is an
   * [class@Akc.Chat]: [method@Akc.Chat.hide_message] took it out of the
   * transcript, and the conversation and its history keep it while an
   * undo is offered. The host makes the deletion final with
   * [method@Akc.Chat.delete_message] (when its undo goes: a toast
   * dismissed, the application quitting) or undoes it with
   * [method@Akc.Chat.unhide_message]; a crash in between keeps the
   * message. The view leaves it out of the transcript while it is hidden.
   *
   * A person's message is deleted with the reply that answered it: the
   * messages after it up to the person's next message (the assistant's
   * replies, tool calls and results) are hidden with it, before this
   * signal. They are the hidden messages that follow @message up to the
   * next person's message; the host makes them final or undoes them with
   * it, as one deletion.
   *
   * The other actions of a message are `chat.copy-message` (its
   * Markdown), `chat.copy-message-text` (its text without Markdown) and
   * `chat.edit-message` (the person's message in the inline editor;
   * saving it sends it again and replaces the messages after it, as
   * [method@Akc.ChatSource.edit] does), each with the message id as
   * parameter.
   *
   * Since: 0.1
   */
  akc_chat_view_signals[MESSAGE_DELETED] =
    g_signal_new ("message-deleted",
                  G_TYPE_FROM_CLASS (widget_class),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_MESSAGE,
                  G_TYPE_UINT);
}

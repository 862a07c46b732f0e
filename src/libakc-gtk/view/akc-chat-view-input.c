/* akc-chat-view-input.c: input ownership (application §12.4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-component-view.h"
#include "akc-gtk-main.h"
#include "akc-markdown-private.h"
#include "akc-message-row-private.h"
#include "akc-message-window-private.h"
#include "akc-theme-css-private.h"

void
akc_chat_view_apply_active_to_row (AkcChatView   *self,
                                   AkcMessageRow *row)
{
  AkcMessage *message = akc_message_row_get_message (row);

  akc_message_row_set_active_position (row, message != NULL && message == self->active_message
                                            ? self->active_presentation : -1);
}

static gboolean
focus_active_component (AkcChatView *self)
{
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    {
      AkcComponentView *view;

      if (akc_message_row_get_message (row) != self->active_message)
        continue;

      view = akc_message_row_get_active_view (row);
      if (view != NULL && gtk_widget_grab_focus (GTK_WIDGET (view)))
        {
          akc_chat_view_show_focus (GTK_WIDGET (view));
          self->focus_active_pending = FALSE;
          return TRUE;
        }
    }

  return FALSE;
}

/* A JSON object starts with "{" after JSON white space: text that does
 * not is not parsed at all. */
static gboolean
may_be_json_object (const char *text,
                    gssize      length)
{
  for (gssize i = 0; i < length; i++)
    if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
      return text[i] == '{';

  return FALSE;
}

/* akc_input_ownership_find_active() on the messages that can hold a
 * component at all: assistant messages that are an ordered content or a
 * component frame candidate (§12.2 rules 2 and 3); every other message is
 * one plain bubble. The same answer, without presenting each of the
 * thousands of plain messages of a long conversation. */
static AkcPresentation *
find_active (AkcChatView *self,
             guint       *message_position,
             guint       *presentation_position)
{
  g_autoptr(GListStore) one = NULL;

  if (self->manifest == NULL)
    return NULL;

  one = g_list_store_new (AKC_TYPE_MESSAGE);
  for (guint i = g_list_model_get_n_items (self->messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i - 1);
      const char *content = akc_message_get_content (message);
      gssize length = (gssize) akc_message_get_content_length (message);
      AkcPresentation *active;

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT ||
          (!akc_assistant_content_is_candidate (content, length) &&
           !(may_be_json_object (content, length) && akc_component_frame_is_candidate (content, length))))
        continue;

      g_list_store_splice (one, 0, g_list_model_get_n_items (G_LIST_MODEL (one)), (gpointer *) &message, 1);
      active = akc_input_ownership_find_active (self->ownership, G_LIST_MODEL (one), self->manifest,
                                                NULL, presentation_position);
      if (active != NULL)
        {
          *message_position = i - 1;
          return active;
        }
    }

  return NULL;
}


gboolean
akc_chat_view_focus_active_idle (gpointer user_data)
{
  AkcChatView *self = user_data;

  self->active_idle = 0;
  if (self->focus_active_pending)
    focus_active_component (self);

  return G_SOURCE_REMOVE;
}

void
akc_chat_view_sync_ownership (AkcChatView *self)
{
  g_autoptr(AkcPresentation) active = NULL;
  g_autoptr(AkcMessage) previous_message = g_steal_pointer (&self->active_message);
  int previous_presentation = self->active_presentation;
  gboolean was_owned = previous_message != NULL;
  guint message_position = 0, presentation_position = 0;
  GHashTableIter iter;
  gpointer row;

  if (self->messages != NULL)
    active = find_active (self, &message_position, &presentation_position);

  g_clear_pointer (&self->active_instance_id, g_free);
  if (active != NULL)
    {
      AkcJsonValue *frame = akc_presentation_get_frame (active);

      self->active_message = g_list_model_get_item (self->messages, message_position);
      self->active_presentation = (int) presentation_position;
      if (frame != NULL)
        self->active_instance_id = g_strdup (akc_json_value_get_string (akc_json_value_get_member (frame, "instanceId"), NULL));
    }
  else
    {
      self->active_presentation = -1;
    }
  akc_chat_view_sync_actions (self);

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    akc_chat_view_apply_active_to_row (self, row);

  /* A new owner takes the keyboard; one scrolled away is brought in. What
   * was to take it before (a row the keyboard was on its way to) no
   * longer does, nor the owner before. */
  if (self->active_message != previous_message || self->active_presentation != previous_presentation)
    akc_chat_view_forget_owner_focus (self);
  if (self->active_message != NULL &&
      (self->active_message != previous_message || self->active_presentation != previous_presentation))
    {
      g_clear_object (&self->focus_pending);
      if (!focus_active_component (self))
        {
          self->focus_active_pending = TRUE;
          akc_message_window_include (self->window, message_position);
          gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                      akc_chat_view_get_shown_position (self, self->active_message));
        }
    }

  akc_chat_view_sync_focus_hint (self);

  if (was_owned != (self->active_message != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_INPUT_OWNED]);
}

/* The hint over the transcript while the component that owns input has
 * the keyboard: what answers it, and how to go back to the composer,
 * which stays enabled (docs/port-decisions.md). */
void
akc_chat_view_sync_focus_hint (AkcChatView *self)
{
  GtkWidget *focus = self->focus_root != NULL ? gtk_root_get_focus (self->focus_root) : NULL;
  GtkWidget *component = focus != NULL ? gtk_widget_get_ancestor (focus, AKC_TYPE_COMPONENT_VIEW) : NULL;
  gboolean shown = FALSE;

  akc_chat_view_focus_moved (self);

  if (self->focus_hint == NULL)
    return;

  if (self->active_message != NULL && component != NULL && gtk_widget_is_ancestor (component, GTK_WIDGET (self)))
    {
      GtkWidget *row = gtk_widget_get_ancestor (component, AKC_TYPE_MESSAGE_ROW);

      shown = row != NULL && akc_message_row_get_active_view (AKC_MESSAGE_ROW (row)) == AKC_COMPONENT_VIEW (component);
    }

  if (gtk_widget_get_visible (self->focus_hint) == shown)
    return;

  gtk_widget_set_visible (self->focus_hint, shown);
  if (shown)
    akc_chat_view_announce (self, gtk_label_get_text (GTK_LABEL (self->focus_hint)));
}

/* Follows the focus of the window the view is in, for the hint. */
void
akc_chat_view_follow_focus (AkcChatView *self,
                            GtkRoot     *root)
{
  if (self->focus_root == root)
    return;

  if (self->focus_root != NULL)
    g_clear_signal_handler (&self->focus_handler, self->focus_root);
  self->focus_root = root;
  if (root != NULL)
    self->focus_handler = g_signal_connect_object (root, "notify::focus-widget",
                                                   G_CALLBACK (akc_chat_view_sync_focus_hint),
                                                   self, G_CONNECT_SWAPPED);
  akc_chat_view_sync_focus_hint (self);
}

/**
 * akc_chat_view_get_input_owned:
 * @self: a #AkcChatView
 *
 * Gets whether a component owns the keyboard ([application §12.4](../Akc-1/wire-formats.html#application-12)).
 *
 * Returns: %TRUE while a component owns input
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_get_input_owned (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return self->active_message != NULL;
}

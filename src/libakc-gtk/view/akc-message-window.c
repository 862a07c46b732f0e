/* akc-message-window.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-message-window-private.h"

/* AkcMessageWindow: the messages of a conversation from a start position
 * to the end, as a GListModel.
 *
 * GTK 4.8's GtkListView keeps up to 200 rows bound, measured and styled
 * around what is in sight, whatever the height of the view: opening a long
 * conversation would lay out 200 messages before the first frame. The
 * transcript gives it this window instead: the newest page of messages at
 * first, and an older page each time the reader reaches the top
 * (akc_message_window_extend()), as chat clients page in history.
 *
 * Changes of the conversation are passed on exactly: new messages at the
 * end, replaced replies, a truncated tail. A change before the window
 * only moves its start, so the window keeps showing the same messages;
 * one that reaches into it grows the window back to where the change
 * began. A change that brings in more than a page at once (a conversation
 * restored or cleared) starts over with the newest page. */

struct _AkcMessageWindow
{
  GObject     parent_instance;

  GListModel *messages;
  gulong      items_handler;
  guint       start;
  guint       page_size;
};

static void akc_message_window_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcMessageWindow, akc_message_window, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, akc_message_window_model_init))

static GType
akc_message_window_get_item_type (GListModel *model)
{
  return g_list_model_get_item_type (AKC_MESSAGE_WINDOW (model)->messages);
}

static guint
akc_message_window_get_n_items (GListModel *model)
{
  AkcMessageWindow *self = AKC_MESSAGE_WINDOW (model);
  guint n = g_list_model_get_n_items (self->messages);

  return n > self->start ? n - self->start : 0;
}

static gpointer
akc_message_window_get_item (GListModel *model,
                             guint       position)
{
  AkcMessageWindow *self = AKC_MESSAGE_WINDOW (model);

  if (position >= akc_message_window_get_n_items (model))
    return NULL;

  return g_list_model_get_item (self->messages, self->start + position);
}

static void
akc_message_window_model_init (GListModelInterface *iface)
{
  iface->get_item_type = akc_message_window_get_item_type;
  iface->get_n_items = akc_message_window_get_n_items;
  iface->get_item = akc_message_window_get_item;
}

static guint
newest_page_start (AkcMessageWindow *self,
                   guint             n)
{
  return n > self->page_size ? n - self->page_size : 0;
}

static void
on_items_changed (AkcMessageWindow *self,
                  guint             position,
                  guint             removed,
                  guint             added,
                  GListModel       *messages)
{
  guint n = g_list_model_get_n_items (messages);
  guint old_size = n + removed - added > self->start ? n + removed - added - self->start : 0;

  if (added > self->page_size)
    {
      /* Restored, switched or cleared: the newest page again. */
      self->start = newest_page_start (self, n);
      g_list_model_items_changed (G_LIST_MODEL (self), 0, old_size, akc_message_window_get_n_items (G_LIST_MODEL (self)));
      return;
    }

  if (position >= self->start)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position - self->start, removed, added);
      return;
    }

  if (position + removed <= self->start)
    {
      /* All before the window: the same messages stay in it. */
      self->start = self->start + added - removed;
      return;
    }

  /* It reaches into the window: the window now starts where it began. */
  {
    guint removed_in_window = position + removed - self->start;

    self->start = position;
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed_in_window, added);
  }
}

static void
akc_message_window_dispose (GObject *object)
{
  AkcMessageWindow *self = AKC_MESSAGE_WINDOW (object);

  g_clear_signal_handler (&self->items_handler, self->messages);
  g_clear_object (&self->messages);

  G_OBJECT_CLASS (akc_message_window_parent_class)->dispose (object);
}

static void
akc_message_window_class_init (AkcMessageWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = akc_message_window_dispose;
}

static void
akc_message_window_init (AkcMessageWindow *self)
{
}

AkcMessageWindow *
akc_message_window_new (GListModel *messages,
                        guint       page_size)
{
  AkcMessageWindow *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (messages), NULL);
  g_return_val_if_fail (page_size > 0, NULL);

  self = g_object_new (AKC_TYPE_MESSAGE_WINDOW, NULL);
  self->messages = g_object_ref (messages);
  self->page_size = page_size;
  self->start = newest_page_start (self, g_list_model_get_n_items (messages));
  self->items_handler = g_signal_connect_object (messages, "items-changed",
                                                 G_CALLBACK (on_items_changed),
                                                 self, G_CONNECT_SWAPPED);

  return self;
}

/* Where the window starts in the conversation. */
guint
akc_message_window_get_start (AkcMessageWindow *self)
{
  g_return_val_if_fail (AKC_IS_MESSAGE_WINDOW (self), 0);

  return self->start;
}

/* Takes in @n more older messages; returns whether there were any. */
gboolean
akc_message_window_extend (AkcMessageWindow *self,
                           guint             n)
{
  guint new_start;

  g_return_val_if_fail (AKC_IS_MESSAGE_WINDOW (self), FALSE);

  if (self->start == 0 || n == 0)
    return FALSE;

  new_start = self->start > n ? self->start - n : 0;
  n = self->start - new_start;
  self->start = new_start;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, n);

  return TRUE;
}

/* Makes sure the message at @position of the conversation is in the
 * window. */
void
akc_message_window_include (AkcMessageWindow *self,
                            guint             position)
{
  g_return_if_fail (AKC_IS_MESSAGE_WINDOW (self));

  if (position < self->start)
    akc_message_window_extend (self, self->start - position);
}

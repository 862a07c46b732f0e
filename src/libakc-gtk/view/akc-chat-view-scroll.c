/* akc-chat-view-scroll.c: sticky scrolling and paging in older history
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

static double
bottom_value (GtkAdjustment *adjustment)
{
  return MAX (gtk_adjustment_get_lower (adjustment),
              gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

void
akc_chat_view_set_at_bottom (AkcChatView *self,
                             gboolean     at_bottom)
{
  gtk_widget_set_visible (self->jump_button, !at_bottom);

  if (self->at_bottom == at_bottom)
    return;

  self->at_bottom = at_bottom;
  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_AT_BOTTOM]);
}

void
akc_chat_view_scroll_to_end (AkcChatView *self)
{
  GtkSelectionModel *model;

  if (self->vadjustment == NULL)
    return;
  /* An empty list has no end to go to, and GTK 4.8's list warns ("failed
   * to scroll to given position") when its adjustment moves while it has
   * no items: a source just set without messages still has the previous
   * conversation's bounds until the list is laid out again. */
  model = gtk_list_view_get_model (GTK_LIST_VIEW (self->list_view));
  if (model == NULL || g_list_model_get_n_items (G_LIST_MODEL (model)) == 0)
    return;

  gtk_adjustment_set_value (self->vadjustment, bottom_value (self->vadjustment));
}

static void schedule_follow (AkcChatView *self);


static void
run_deferred (AkcChatView *self)
{
  if (self->scan_pending)
    {
      self->scan_pending = FALSE;
      akc_chat_view_scan_conversation (self);
    }

  if (self->extend_pending)
    {
      self->extend_pending = FALSE;
      if (self->window != NULL)
        akc_message_window_extend (self->window, HISTORY_PAGE);
    }
}

static gboolean
run_deferred_idle (gpointer user_data)
{
  AkcChatView *self = user_data;

  self->deferred_idle = 0;
  run_deferred (self);

  return G_SOURCE_REMOVE;
}

void
akc_chat_view_on_after_paint (AkcChatView *self)
{
  run_deferred (self);
}

/* Work that can wait until the frame being prepared is on screen: paging
 * in older history, and passes over a whole conversation that was just
 * loaded. Never from within a layout pass: the list view must not change
 * under itself. */
void
akc_chat_view_defer (AkcChatView *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock != NULL && self->after_paint_handler != 0)
    gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT);
  else if (self->deferred_idle == 0)
    self->deferred_idle = g_idle_add (run_deferred_idle, self);
}

static void
schedule_extend (AkcChatView *self)
{
  if (self->window == NULL || akc_message_window_get_start (self->window) == 0 || self->extend_pending)
    return;

  self->extend_pending = TRUE;
  akc_chat_view_defer (self);
}

static void
on_value_changed (AkcChatView   *self,
                  GtkAdjustment *adjustment)
{
  gboolean at_bottom = gtk_adjustment_get_value (adjustment) >= bottom_value (adjustment) - BOTTOM_SLACK;

  /* The list view moves the value itself while it lays out rows whose
   * height it had only estimated: that is not the reader scrolling. */
  if (self->allocating)
    {
      if (self->stick_to_bottom)
        schedule_follow (self);
      else
        akc_chat_view_set_at_bottom (self, at_bottom);
      return;
    }

  /* The reader moved (or we did): follow new content only from the end. */
  self->stick_to_bottom = at_bottom;
  akc_chat_view_set_at_bottom (self, at_bottom);

  /* Near the top of what is loaded: page in older messages. */
  if (gtk_adjustment_get_value (adjustment) - gtk_adjustment_get_lower (adjustment) <
      gtk_adjustment_get_page_size (adjustment))
    schedule_extend (self);
}

static gboolean
follow_tick (GtkWidget     *widget,
             GdkFrameClock *frame_clock,
             gpointer       user_data)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  self->follow_tick = 0;
  if (self->stick_to_bottom)
    akc_chat_view_scroll_to_end (self);

  return G_SOURCE_REMOVE;
}

static void
schedule_follow (AkcChatView *self)
{
  if (self->follow_tick == 0)
    self->follow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), follow_tick, NULL, NULL);
}

static void
on_adjustment_changed (AkcChatView   *self,
                       GtkAdjustment *adjustment)
{
  /* Too little history loaded to scroll up through: load more. */
  if (gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_lower (adjustment) <
      2 * gtk_adjustment_get_page_size (adjustment))
    schedule_extend (self);

  /* The content grew or shrank, or the view was resized: stay at the end
   * only when the reader was there before.
   *
   * Not here and now: the list view configures its adjustment while it
   * allocates its rows, with its own value handler blocked, so a value
   * set from this handler would never reach it. The frame's update phase
   * comes before its layout, so the end is in sight in the next frame. */
  if (self->stick_to_bottom)
    {
      schedule_follow (self);
      akc_chat_view_set_at_bottom (self, TRUE);
    }
  else
    {
      akc_chat_view_set_at_bottom (self, gtk_adjustment_get_value (adjustment) >= bottom_value (adjustment) - BOTTOM_SLACK);
    }
}

void
akc_chat_view_track_vadjustment (AkcChatView *self)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->list_view));

  if (self->vadjustment == adjustment)
    return;

  if (self->vadjustment != NULL)
    {
      g_clear_signal_handler (&self->value_handler, self->vadjustment);
      g_clear_signal_handler (&self->changed_handler, self->vadjustment);
      g_clear_object (&self->vadjustment);
    }

  if (adjustment != NULL)
    {
      self->vadjustment = g_object_ref (adjustment);
      self->value_handler = g_signal_connect_object (adjustment, "value-changed",
                                                     G_CALLBACK (on_value_changed),
                                                     self, G_CONNECT_SWAPPED);
      self->changed_handler = g_signal_connect_object (adjustment, "changed",
                                                       G_CALLBACK (on_adjustment_changed),
                                                       self, G_CONNECT_SWAPPED);
    }
}

/**
 * akc_chat_view_get_at_bottom:
 * @self: a #AkcChatView
 *
 * Gets whether the end of the transcript is in sight.
 *
 * Returns: %TRUE at the end
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_get_at_bottom (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return self->at_bottom;
}

/**
 * akc_chat_view_scroll_to_bottom:
 * @self: a #AkcChatView
 *
 * Scrolls to the newest message and follows new content from there on,
 * as "Jump to newest" does.
 *
 * Since: 0.1
 */
void
akc_chat_view_scroll_to_bottom (AkcChatView *self)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  self->stick_to_bottom = TRUE;
  akc_chat_view_scroll_to_end (self);
  akc_chat_view_set_at_bottom (self, TRUE);
}

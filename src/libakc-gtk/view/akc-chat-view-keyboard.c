/* akc-chat-view-keyboard.c: the transcript as a focus stop
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-component-view.h"
#include "akc-markdown-private.h"
#include "akc-message-row-private.h"
#include "akc-message-window-private.h"

/* How much of a message is read out when it gets the focus. */
#define PREVIEW_MAX_CHARS 80

/* The row of the list (a message row, or one of the rows below the
 * messages) that holds @widget, or %NULL. */
static GtkWidget *
item_of (AkcChatView *self,
         GtkWidget   *widget)
{
  GtkWidget *list = GTK_WIDGET (self->list_view);

  for (; widget != NULL && widget != list; widget = gtk_widget_get_parent (widget))
    {
      GtkWidget *parent = gtk_widget_get_parent (widget);

      /* The list view's children are its own item widgets: ours are theirs. */
      if (parent != NULL && gtk_widget_get_parent (parent) == list)
        return widget;
    }

  return NULL;
}

static GtkWidget *
current_focus (AkcChatView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (focus == NULL || (focus != GTK_WIDGET (self) && !gtk_widget_is_ancestor (focus, GTK_WIDGET (self))))
    return NULL;

  return focus;
}

/* The position in the list of @item's object, or -1. */
static int
position_of (AkcChatView *self,
             GtkWidget   *item)
{
  GObject *object = g_hash_table_lookup (self->items, item);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));

  if (object == NULL)
    return -1;

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(GObject) other = g_list_model_get_item (G_LIST_MODEL (self->model), i - 1);

      if (other == object)
        return (int) i - 1;
    }

  return -1;
}

/* The row bound to the list's object at @position, if it is built. */
static GtkWidget *
item_at (AkcChatView *self,
         guint        position)
{
  g_autoptr(GObject) object = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  GHashTableIter iter;
  gpointer item, bound;

  g_hash_table_iter_init (&iter, self->items);
  while (g_hash_table_iter_next (&iter, &item, &bound))
    if (bound == object)
      return item;

  return NULL;
}

static gboolean
takes_focus (GtkWidget *widget)
{
  return gtk_widget_get_visible (widget) && gtk_widget_get_mapped (widget) &&
         gtk_widget_is_sensitive (widget) && gtk_widget_get_can_focus (widget) &&
         gtk_widget_get_focusable (widget);
}

/* The view moved the keyboard by itself (to a question that arrived, to
 * the confirmation of a chosen action): it shows where. GTK draws focus
 * rings only once a key has moved the focus, and hides them again while
 * a person types, so the message that asked, or the Enter that chose,
 * left the new focus without a ring. */
void
akc_chat_view_show_focus (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);

  if (GTK_IS_WINDOW (root))
    gtk_window_set_focus_visible (GTK_WINDOW (root), TRUE);
}

/* The component that owns input (§12.4), if its row is bound. */
static GtkWidget *
owner_view (AkcChatView *self)
{
  GHashTableIter iter;
  gpointer row;

  if (self->active_message == NULL)
    return NULL;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    if (akc_message_row_get_message (row) == self->active_message)
      return (GtkWidget *) akc_message_row_get_active_view (row);

  return NULL;
}

static gboolean
is_inside (GtkWidget *widget,
           GtkWidget *container)
{
  return widget != NULL && container != NULL && (widget == container || gtk_widget_is_ancestor (widget, container));
}

/* Where GTK leaves the keyboard when it takes it from a widget that goes
 * off screen or away: nowhere, on a widget it is unmapping, or on one of
 * the widgets around the component (its row, the list, the view and what
 * holds it). Nobody puts it there: a person moves it to a widget on
 * screen that is none of these (the composer, another message). */
static gboolean
is_parking (AkcChatView *self,
            GtkWidget   *focus)
{
  GtkWidget *view = GTK_WIDGET (self);
  GtkWidget *list = GTK_WIDGET (self->list_view);

  if (focus == NULL || gtk_widget_get_root (focus) == NULL || !gtk_widget_get_mapped (focus))
    return TRUE;
  if (is_inside (view, focus))
    return TRUE;
  if (!gtk_widget_is_ancestor (focus, view))
    return FALSE;
  if (focus == list || gtk_widget_get_parent (focus) == list)
    return TRUE;
  if (self->owner_item != NULL && is_inside (self->owner_item, focus))
    return TRUE;

  return AKC_IS_MESSAGE_ROW (focus) && akc_message_row_get_message (AKC_MESSAGE_ROW (focus)) == self->active_message;
}

static void on_owner_mapped (AkcChatView *self);

/* The keyboard goes back to the component that owns input, to the very
 * widget it was on if that is still there, once the component is on
 * screen: not while the list lays its rows out, and not by scrolling to
 * it (the reader may have scrolled away). */
static gboolean
reclaim_idle (gpointer user_data)
{
  AkcChatView *self = user_data;
  GtkWidget *focus = self->focus_root != NULL ? gtk_root_get_focus (self->focus_root) : NULL;
  GtkWidget *owner;
  GtkWidget *target;

  self->reclaim_idle = 0;
  if (!self->owner_lost)
    return G_SOURCE_REMOVE;
  if (!is_parking (self, focus))
    {
      akc_chat_view_forget_owner_focus (self);
      return G_SOURCE_REMOVE;
    }

  owner = owner_view (self);
  if (owner == NULL)
    return G_SOURCE_REMOVE;   /* its row is not bound: its bind tries again */
  if (!gtk_widget_get_mapped (owner))
    {
      g_signal_handlers_disconnect_by_func (owner, on_owner_mapped, self);
      g_signal_connect_object (owner, "map", G_CALLBACK (on_owner_mapped), self, G_CONNECT_SWAPPED);
      return G_SOURCE_REMOVE;
    }

  target = self->owner_focus;
  if (target == NULL || !gtk_widget_get_mapped (target) || !is_inside (target, owner))
    target = owner;
  g_object_ref (target);
  if (gtk_widget_grab_focus (target) || (target != owner && gtk_widget_grab_focus (owner)))
    akc_chat_view_show_focus (owner);
  g_object_unref (target);

  return G_SOURCE_REMOVE;
}

static void
schedule_reclaim (AkcChatView *self)
{
  if (self->owner_lost && self->reclaim_idle == 0)
    self->reclaim_idle = g_idle_add (reclaim_idle, self);
}

static void
on_owner_mapped (AkcChatView *self)
{
  schedule_reclaim (self);
}

void
akc_chat_view_forget_owner_focus (AkcChatView *self)
{
  g_clear_handle_id (&self->reclaim_idle, g_source_remove);
  self->owner_focused = FALSE;
  self->owner_lost = FALSE;
  g_clear_weak_pointer (&self->owner_focus);
  g_clear_weak_pointer (&self->owner_item);
}

/* Follows the keyboard of the component that owns input: lost when GTK
 * takes it from a widget of the component that went off screen or away
 * and parks it (is_parking()), and found again when a person moves it
 * anywhere else. */
static void
track_owner_focus (AkcChatView *self,
                   GtkWidget   *focus)
{
  GtkWidget *owner = owner_view (self);
  GtkWidget *was = self->owner_focus;

  /* (The component may take it before its row is on screen.) */
  if (owner != NULL && is_inside (focus, owner))
    {
      g_clear_handle_id (&self->reclaim_idle, g_source_remove);
      self->owner_focused = TRUE;
      self->owner_lost = FALSE;
      g_set_weak_pointer (&self->owner_focus, focus);
      g_set_weak_pointer (&self->owner_item, item_of (self, focus));
      return;
    }

  if (self->owner_focused)
    {
      /* Moved on from a widget still on screen in the component (Shift+Tab
       * to its message, a click elsewhere): it stays moved. */
      gboolean taken = was == NULL || gtk_widget_get_root (was) == NULL || !gtk_widget_get_mapped (was) ||
                       !is_inside (was, owner);

      self->owner_focused = FALSE;
      self->owner_lost = self->active_message != NULL && taken && is_parking (self, focus);
    }
  else if (self->owner_lost && !is_parking (self, focus))
    {
      self->owner_lost = FALSE;
    }

  if (self->owner_lost)
    schedule_reclaim (self);
  else
    akc_chat_view_forget_owner_focus (self);
}

/* The widgets below @widget that Tab may stop at, in order: only below
 * ancestors that let their children take the focus. *mark is how many
 * come before @focus. */
static void
collect_focusable (GtkWidget *widget,
                   GtkWidget *focus,
                   GPtrArray *out,
                   guint     *mark)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (child == focus)
        *mark = out->len;
      if (!gtk_widget_get_visible (child) || !gtk_widget_get_can_focus (child))
        continue;
      if (takes_focus (child))
        g_ptr_array_add (out, child);
      collect_focusable (child, focus, out, mark);
    }
}

/* The control of @item after (or before) @focus, in the order of the
 * widget tree, or %NULL. */
static GtkWidget *
next_control (GtkWidget        *item,
              GtkWidget        *focus,
              GtkDirectionType  direction)
{
  g_autoptr(GPtrArray) controls = g_ptr_array_new ();
  guint mark = 0;
  guint next;

  collect_focusable (item, focus, controls, &mark);
  if (focus == item)
    return direction == GTK_DIR_TAB_FORWARD && controls->len > 0 ? g_ptr_array_index (controls, 0) : NULL;

  if (direction == GTK_DIR_TAB_FORWARD)
    {
      next = mark < controls->len && g_ptr_array_index (controls, mark) == focus ? mark + 1 : mark;
      return next < controls->len ? g_ptr_array_index (controls, next) : NULL;
    }

  return mark > 0 ? g_ptr_array_index (controls, mark - 1) : NULL;
}

static char *
message_preview (AkcMessage *message)
{
  g_autofree char *plain = akc_markdown_to_plain_text (akc_message_get_content (message),
                                                       akc_message_get_content_length (message));
  g_autofree char *flat = g_strstrip (g_strdelimit (g_steal_pointer (&plain), "\n\t", ' '));

  if (g_utf8_strlen (flat, -1) > PREVIEW_MAX_CHARS)
    {
      const char *end = g_utf8_offset_to_pointer (flat, PREVIEW_MAX_CHARS);

      return g_strdup_printf ("%.*s…", (int) (end - flat), flat);
    }

  return g_steal_pointer (&flat);
}

/* Says which message has the focus: its author and the start of it. */
static void
announce_item (AkcChatView *self,
               GtkWidget   *item)
{
  AkcMessage *message;
  g_autofree char *preview = NULL;
  g_autofree char *announcement = NULL;

  if (!AKC_IS_MESSAGE_ROW (item) || (message = akc_message_row_get_message (AKC_MESSAGE_ROW (item))) == NULL)
    return;

  preview = message_preview (message);
  /* Translators: read out when a message of the transcript gets the
   * keyboard focus: its author ("You", "Assistant") and its first words. */
  announcement = g_strdup_printf (_("%s: %s"), akc_message_role_name (akc_message_get_role (message)), preview);
  akc_chat_view_announce (self, announcement);
}

static gboolean
focus_item (AkcChatView *self,
            GtkWidget   *item)
{
  if (item == NULL || !gtk_widget_grab_focus (item))
    return FALSE;

  announce_item (self, item);
  return TRUE;
}

/* The position of the newest message in the list (the rows below the
 * messages come after it). */
static guint
newest_position (AkcChatView *self)
{
  guint n = self->window != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->window)) : 0;

  return n > 0 ? n - 1 : 0;
}

static void
on_pending_mapped (AkcChatView *self,
                   GtkWidget   *item)
{
  g_signal_handlers_disconnect_by_func (item, on_pending_mapped, self);
  if (self->focus_pending_idle == 0)
    self->focus_pending_idle = g_idle_add (akc_chat_view_focus_pending_idle, self);
}

/* The row that is to take the focus takes it once it is on screen. */
static void
wait_for_map (AkcChatView *self,
              GtkWidget   *item)
{
  g_signal_handlers_disconnect_by_func (item, on_pending_mapped, self);
  g_signal_connect_object (item, "map", G_CALLBACK (on_pending_mapped), self, G_CONNECT_SWAPPED);
}

/* Moves the focus to the row at @position, bringing it in first when it
 * is not built (it takes the focus once it is bound). */
static void
focus_position (AkcChatView *self,
                guint        position)
{
  GtkWidget *item;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->model));

  if (n == 0)
    return;
  position = MIN (position, n - 1);

  /* The reader went up: new content must not pull the view back down
   * before the row is in sight. */
  self->stick_to_bottom = position >= newest_position (self);
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
  g_clear_object (&self->focus_pending);
  item = item_at (self, position);
  /* A row out of sight may be built already, but not on screen yet. */
  if (item != NULL && gtk_widget_get_mapped (item) && focus_item (self, item))
    return;

  self->focus_pending = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  if (item != NULL)
    wait_for_map (self, item);
}

/**
 * akc_chat_view_focus_newest:
 * @self: a #AkcChatView
 *
 * Gives the keyboard focus to the newest message of the transcript (and
 * brings it in), as Shift+Tab from the composer does.
 *
 * Returns: %TRUE if there is a message to focus
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_focus_newest (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  if (self->window == NULL || g_list_model_get_n_items (G_LIST_MODEL (self->window)) == 0)
    return FALSE;

  akc_chat_view_scroll_to_bottom (self);
  focus_position (self, newest_position (self));
  return TRUE;
}

/* A row was bound: the one the focus was to move to takes it now. */
void
akc_chat_view_item_bound (AkcChatView *self,
                          GtkWidget   *item,
                          GObject     *object)
{
  g_hash_table_insert (self->items, item, object);
  /* The row of the component that owns input may be the one bound. */
  schedule_reclaim (self);

  if (self->focus_pending != object)
    return;
  if (!gtk_widget_get_mapped (item))
    wait_for_map (self, item);
  else if (self->focus_pending_idle == 0)
    self->focus_pending_idle = g_idle_add (akc_chat_view_focus_pending_idle, self);
}

gboolean
akc_chat_view_focus_pending_idle (gpointer user_data)
{
  AkcChatView *self = user_data;
  GHashTableIter iter;
  gpointer item, bound;

  self->focus_pending_idle = 0;
  if (self->focus_pending == NULL)
    return G_SOURCE_REMOVE;

  /* The row may have gone again while the list laid itself out: then the
   * next bind of the object tries again. */
  g_hash_table_iter_init (&iter, self->items);
  while (g_hash_table_iter_next (&iter, &item, &bound))
    if (bound == self->focus_pending)
      {
        if (!gtk_widget_get_mapped (item))
          wait_for_map (self, item);
        else if (focus_item (self, item))
          g_clear_object (&self->focus_pending);
        break;
      }

  return G_SOURCE_REMOVE;
}

/* Tab and Shift+Tab through the links of a text (a selectable label) that
 * has the keyboard: the text as a whole first (it selects all of itself
 * when it takes the focus), then each link, the caret on it, for Enter to
 * open. GTK's own label does this only from a caret, not from a
 * selection. %FALSE when the next stop is after (or before) the label. */
static gboolean
label_move_focus (GtkLabel         *label,
                  GtkDirectionType  direction)
{
  int start, end;
  gboolean selection = gtk_label_get_selection_bounds (label, &start, &end);

  if (direction == GTK_DIR_TAB_FORWARD)
    {
      if (selection)
        {
          /* From the whole text to its first link (which may start it). */
          gtk_label_select_region (label, 0, 0);
          if (gtk_label_get_current_uri (label) != NULL)
            return TRUE;
        }
      if (gtk_widget_child_focus (GTK_WIDGET (label), direction))
        return TRUE;
      /* No link after: the text keeps what was selected. */
      if (selection)
        gtk_label_select_region (label, start, end);
      return FALSE;
    }

  if (direction != GTK_DIR_TAB_BACKWARD || selection)
    return FALSE;
  /* From a link to the one before it, or to the whole text. */
  if (gtk_widget_child_focus (GTK_WIDGET (label), direction))
    return TRUE;
  gtk_label_select_region (label, 0, -1);
  return TRUE;
}

/* Tab and Shift+Tab: into the transcript on its newest message, through
 * a message's own controls, and out again to the widgets before and after
 * it (the header, the composer). Other directions are GTK's: *handled is
 * %FALSE for them. */
gboolean
akc_chat_view_move_focus (AkcChatView      *self,
                          GtkDirectionType  direction,
                          gboolean         *handled)
{
  GtkWidget *focus = current_focus (self);
  GtkWidget *item, *next;

  *handled = direction == GTK_DIR_TAB_FORWARD || direction == GTK_DIR_TAB_BACKWARD;
  if (!*handled || self->leaving)
    return FALSE;

  item = focus != NULL ? item_of (self, focus) : NULL;
  if (item == NULL)
    return focus == NULL || focus == GTK_WIDGET (self->list_view) ? akc_chat_view_focus_newest (self) : FALSE;

  if (GTK_IS_LABEL (focus) && gtk_label_get_selectable (GTK_LABEL (focus)) &&
      label_move_focus (GTK_LABEL (focus), direction))
    return TRUE;

  next = next_control (item, focus, direction);
  if (next != NULL)
    return gtk_widget_grab_focus (next);

  /* Back from the first control to its message. */
  if (direction == GTK_DIR_TAB_BACKWARD)
    return focus != item ? focus_item (self, item) : FALSE;

  /* On from the newest message through the rows below it (a confirmation,
   * the response actions): they are its controls too. */
  for (int position = position_of (self, item) + 1;
       position > (int) newest_position (self) && position < (int) g_list_model_get_n_items (G_LIST_MODEL (self->model));
       position++)
    {
      GtkWidget *below = item_at (self, (guint) position);

      if (below != NULL && (next = next_control (below, below, GTK_DIR_TAB_FORWARD)) != NULL)
        return gtk_widget_grab_focus (next);
    }

  return FALSE;
}

/* Keys that are not the view's here: those of an entry, and those of a
 * component (a choice list's arrows). */
static gboolean
keys_belong_to_focus (GtkWidget *focus)
{
  GtkWidget *component = gtk_widget_get_ancestor (focus, AKC_TYPE_COMPONENT_VIEW);
  AkcResolvedComponent *resolved;
  const char *key;

  if (GTK_IS_TEXT_VIEW (focus) || GTK_IS_TEXT (focus) || GTK_IS_EDITABLE (focus))
    return TRUE;
  if (component == NULL)
    return FALSE;

  /* A source list or a link card is navigation, like a message's links:
   * the arrows go on to the next message from it. */
  resolved = akc_component_view_get_resolved_component (AKC_COMPONENT_VIEW (component));
  key = resolved != NULL && akc_resolved_component_is_standard (resolved)
        ? akc_resolved_component_get_component_key (resolved) : NULL;
  return g_strcmp0 (key, "source-list") != 0 && g_strcmp0 (key, "link-card") != 0;
}

/* Leaves the transcript for the widget after it (the composer), as Tab
 * from its last control does. */
static void
leave (AkcChatView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (root == NULL)
    return;

  /* Tab moves on from the focus along the focus children of its
   * ancestors, which GTK at times leaves empty while the window is not
   * the active one, the widget keeping the focus (seen with another
   * window active: the chain held the window alone). From nowhere, Tab
   * starts over at the first widget of the window (the header's New
   * Chat) instead of going on to the composer: the chain is put back
   * first. */
  for (GtkWidget *widget = focus; widget != NULL && gtk_widget_get_parent (widget) != NULL;
       widget = gtk_widget_get_parent (widget))
    if (gtk_widget_get_focus_child (gtk_widget_get_parent (widget)) != widget)
      gtk_widget_set_focus_child (gtk_widget_get_parent (widget), widget);

  self->leaving = TRUE;
  gtk_widget_child_focus (GTK_WIDGET (root), GTK_DIR_TAB_FORWARD);
  self->leaving = FALSE;
}

/* The person decided a confirmation that has the keyboard: it goes back
 * to the composer now, before the confirmation's row goes. Left in the
 * row, GTK would move it when the row goes, a frame later, to the first
 * widget it finds (after the view had sent it to the composer, at times,
 * on a loaded machine). */
void
akc_chat_view_leave_decided (AkcChatView *self)
{
  GtkWidget *focus = current_focus (self);

  if (focus != NULL && gtk_widget_get_ancestor (focus, AKC_TYPE_TOOL_CONFIRMATION_ROW) != NULL)
    leave (self);
}

/* The row that had the focus went (an approved confirmation, the
 * response actions made again): the keyboard goes back to the composer,
 * as when it is lost, unless a component or the editor took it meanwhile
 * or the keyboard is on its way somewhere in the transcript. */
static gboolean
refocus_idle (gpointer user_data)
{
  AkcChatView *self = user_data;
  GtkWidget *focus = current_focus (self);

  self->refocus_idle = 0;
  if (focus == NULL || self->focus_pending != NULL || self->editing || self->owner_lost ||
      gtk_widget_get_ancestor (focus, AKC_TYPE_COMPONENT_VIEW) != NULL)
    return G_SOURCE_REMOVE;

  leave (self);
  return G_SOURCE_REMOVE;
}

/* GTK gives the focus of a widget that went away inside a row (an
 * approved confirmation, a settled card) to the list itself, not to
 * nothing, and the row stays bound: nobody put the keyboard there, so it
 * goes back to the composer as when the row goes. A widget the person
 * moved to, still on screen in the transcript, keeps it. */
static gboolean
parked_idle (gpointer user_data)
{
  AkcChatView *self = user_data;
  GtkWidget *from = self->parked_from;

  self->parked_idle = 0;
  g_clear_weak_pointer (&self->parked_from);
  if (current_focus (self) != GTK_WIDGET (self->list_view))
    return G_SOURCE_REMOVE;
  if (from != NULL && gtk_widget_get_mapped (from) && gtk_widget_get_root (from) != NULL &&
      gtk_widget_is_ancestor (from, GTK_WIDGET (self)))
    return G_SOURCE_REMOVE;

  return refocus_idle (self);
}

/* GTK takes the keyboard from a widget whose row left the visible part
 * of the list (the window shrank, the list scrolled) and gives it to the
 * row or to the list: @last is still in the transcript, shown, only out
 * of sight, and @focus holds it. */
static gboolean
went_out_of_sight (AkcChatView *self,
                   GtkWidget   *last,
                   GtkWidget   *focus)
{
  return gtk_widget_get_root (last) != NULL && !gtk_widget_get_mapped (last) &&
         gtk_widget_is_visible (last) && gtk_widget_is_ancestor (last, GTK_WIDGET (self)) &&
         gtk_widget_is_ancestor (last, focus);
}

static gboolean
unseen_focus_idle (gpointer user_data)
{
  AkcChatView *self = user_data;
  GtkWidget *widget = self->unseen_focus;
  gboolean parked = current_focus (self) == self->unseen_parking;

  self->unseen_idle = 0;
  if (widget != NULL && parked && gtk_widget_get_mapped (widget))
    {
      g_object_ref (widget);
      akc_chat_view_forget_unseen_focus (self);
      gtk_widget_grab_focus (widget);
      g_object_unref (widget);
    }

  return G_SOURCE_REMOVE;
}

/* In sight again, while the list lays its rows out: the keyboard moves
 * once that is done (a focus change shows or hides the hint, which
 * changes the layout). */
static void
on_unseen_focus_mapped (AkcChatView *self)
{
  if (self->unseen_idle == 0)
    self->unseen_idle = g_idle_add (unseen_focus_idle, self);
}

/* Nobody moved the keyboard: it goes back to @widget once @widget is in
 * sight again, unless it has moved on from @parking by then. This keeps
 * a component that owns input (§12.4) its focus through a resize. */
static void
keep_for_when_in_sight (AkcChatView *self,
                        GtkWidget   *widget,
                        GtkWidget   *parking)
{
  akc_chat_view_forget_unseen_focus (self);
  g_set_weak_pointer (&self->unseen_focus, widget);
  g_set_weak_pointer (&self->unseen_parking, parking);
  self->unseen_map_handler = g_signal_connect_object (widget, "map", G_CALLBACK (on_unseen_focus_mapped),
                                                      self, G_CONNECT_SWAPPED);
}

void
akc_chat_view_forget_unseen_focus (AkcChatView *self)
{
  g_clear_handle_id (&self->unseen_idle, g_source_remove);
  if (self->unseen_focus != NULL)
    g_clear_signal_handler (&self->unseen_map_handler, self->unseen_focus);
  self->unseen_map_handler = 0;
  g_clear_weak_pointer (&self->unseen_focus);
  g_clear_weak_pointer (&self->unseen_parking);
}

void
akc_chat_view_focus_moved (AkcChatView *self)
{
  GtkWidget *focus = current_focus (self);
  GtkWidget *last = self->last_focus;

  track_owner_focus (self, self->focus_root != NULL ? gtk_root_get_focus (self->focus_root) : NULL);
  /* The component takes it back itself (reclaim_idle()). */
  if (self->owner_lost)
    {
      akc_chat_view_forget_unseen_focus (self);
      g_set_weak_pointer (&self->last_focus, focus);
      return;
    }

  /* Somebody (the person, or the view for them) moved the keyboard on
   * from where GTK parked it: what was out of sight does not take it back. */
  if (self->unseen_focus != NULL && focus != self->unseen_parking && focus != self->unseen_focus)
    akc_chat_view_forget_unseen_focus (self);

  if (focus != NULL && last != NULL && last != focus && went_out_of_sight (self, last, focus))
    {
      keep_for_when_in_sight (self, last, focus);
      g_set_weak_pointer (&self->last_focus, focus);
      return;
    }

  if (focus != NULL && focus == GTK_WIDGET (self->list_view) && last != NULL && last != focus &&
      (gtk_widget_get_root (last) == NULL || !gtk_widget_get_mapped (last) ||
       gtk_widget_is_ancestor (last, GTK_WIDGET (self))) &&
      self->parked_idle == 0)
    {
      g_set_weak_pointer (&self->parked_from, last);
      self->parked_idle = g_idle_add (parked_idle, self);
    }

  g_set_weak_pointer (&self->last_focus, focus);
}

void
akc_chat_view_item_unbound (AkcChatView *self,
                            GtkWidget   *item)
{
  GtkWidget *focus = current_focus (self);

  g_hash_table_remove (self->items, item);
  if (focus != NULL && (focus == item || gtk_widget_is_ancestor (focus, item)) && self->refocus_idle == 0)
    self->refocus_idle = g_idle_add (refocus_idle, self);
}

/* How many rows a page is: the rows in sight, less one to keep context. */
static guint
page_rows (AkcChatView *self)
{
  GHashTableIter iter;
  gpointer item;
  guint n = 0;
  int height = gtk_widget_get_height (GTK_WIDGET (self->list_view));

  g_hash_table_iter_init (&iter, self->items);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    {
      graphene_rect_t bounds;

      if (gtk_widget_compute_bounds (item, GTK_WIDGET (self->list_view), &bounds) &&
          bounds.origin.y + bounds.size.height > 0 && bounds.origin.y < height)
        n++;
    }

  return MAX (1, n > 1 ? n - 1 : 1);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AkcChatView           *self)
{
  GtkWidget *focus = current_focus (self);
  GtkWidget *item;
  int position;
  guint n;

  if (focus == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0 ||
      keys_belong_to_focus (focus))
    return GDK_EVENT_PROPAGATE;

  if (keyval == GDK_KEY_Escape)
    {
      /* Escape stops a reply or sets a component aside first (the view's
       * shortcuts); otherwise it goes back to the composer. */
      if (akc_chat_view_is_streaming (self) || self->active_instance_id != NULL)
        return GDK_EVENT_PROPAGATE;
      leave (self);
      return GDK_EVENT_STOP;
    }

  item = item_of (self, focus);
  position = item != NULL ? position_of (self, item) : -1;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  if (n == 0)
    return GDK_EVENT_PROPAGATE;
  if (position < 0)
    position = (int) newest_position (self);

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (position == 0 && self->window != NULL && akc_message_window_get_start (self->window) > 0)
        {
          /* Older history first: the row above is paged in. */
          guint start = akc_message_window_get_start (self->window);

          akc_message_window_include (self->window, start - 1);
          position = (int) (start - akc_message_window_get_start (self->window));
        }
      focus_position (self, position > 0 ? (guint) position - 1 : 0);
      return GDK_EVENT_STOP;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      focus_position (self, MIN ((guint) position + 1, n - 1));
      return GDK_EVENT_STOP;
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
      focus_position (self, (guint) MAX (0, position - (int) page_rows (self)));
      return GDK_EVENT_STOP;
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Down:
      focus_position (self, MIN ((guint) position + page_rows (self), n - 1));
      return GDK_EVENT_STOP;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      if (self->window != NULL)
        akc_message_window_include (self->window, 0);
      focus_position (self, 0);
      return GDK_EVENT_STOP;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      focus_position (self, newest_position (self));
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

/* The keys of the transcript, before the list view's own. */
void
akc_chat_view_init_keyboard (AkcChatView *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->items = g_hash_table_new (NULL, NULL);
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

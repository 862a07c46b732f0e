/* akc-chat-view.c
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

/**
 * AkcChatView:
 *
 * The transcript of a conversation: a virtualised [class@Gtk.ListView]
 * over the messages of an [iface@Akc.ChatSource], with what [application
 * §12.1](../Akc-1/wire-formats.html#application-12) shows below them.
 *
 * Each message is an [class@MessageRow] (§12.2). A message that changes
 * updates its own row only: the list model does not change when a message
 * does, so no other row is bound again, and a streaming reply is drawn at
 * most once per frame. Below the messages come a confirmation for every
 * tool call that waits for one (§12.8: the tool's name, its arguments as
 * pretty JSON, Approve and Deny), a "Thinking..." indicator while a reply
 * streams, the error of the last turn or action as an alert with Retry,
 * and the response actions of §12.3 after every reply: Retry, Regenerate
 * and Edit last message (flat icon buttons with tooltips and accessible
 * names; Retry is the alert's alone while there is one) and the inline
 * editor. An error stays where it happened: once the next turn clears it,
 * it is shown under the message it came with.
 *
 * ## Scrolling
 *
 * `AkcChatView` is a [iface@Gtk.Scrollable] that hands its adjustments and
 * scroll policies to the list view inside it. Put it in a
 * [class@Gtk.ScrolledWindow] directly or through a width clamp such as
 * `AdwClampScrollable`: the list view still scrolls itself, so it creates
 * rows only for the messages in sight, however long the conversation.
 * The view is sticky: when content grows it follows the end only if the
 * reader was already there; otherwise a "Jump to newest" button appears
 * over the bottom of the transcript.
 *
 * ## Keyboard
 *
 * The view installs the actions `chat.stop`, `chat.retry`,
 * `chat.regenerate`, `chat.edit`, `chat.save-edit`, `chat.cancel-edit`,
 * `chat.jump-to-newest`, `chat.set-aside`, `chat.approve` and `chat.deny`
 * (the last two with the tool call id), each enabled only when it can act,
 * and these shortcuts, active while the focus is in the view (their scope
 * is local: a host makes them window-wide with actions of its own that
 * activate the view's): Escape stops a reply or, when no reply streams,
 * sets aside the component that owns input (it becomes inert without an
 * answer and input returns to the host), Ctrl+R retries, Ctrl+Shift+R
 * regenerates, Ctrl+E edits the last message and Ctrl+End jumps to the
 * newest message. In the inline editor Enter saves and Escape cancels.
 *
 * A confirmation takes the keyboard on Deny (Tab reaches Approve) when the
 * person has just chosen its action in a component, and when a reply ends
 * on a call that waits for one, once the reply has ended; never while
 * the person is writing in a text field that holds text, such as the
 * composer with a draft.
 *
 * Input ownership (§12.4): the latest unresolved interactive component
 * ([method@Akc.InputOwnership.find_active]) is the only
 * [class@ComponentView] that reacts to keys, and it gets the keyboard
 * focus; while it has it, a hint over the bottom of the transcript says
 * how to answer or leave it. [property@ChatView:input-owned] tells the
 * host a component owns input: the host keeps its composer enabled (the
 * port decision of §14 B1) and sets the component aside (`chat.set-aside`)
 * when the person types into the composer or clicks it. Every other
 * component stays readable and clickable.
 * Resolved instances are kept by instance id for the life of the source,
 * so copies of one frame resolve together (§14, A14).
 *
 * The transcript is a focus stop between the widgets before and after it
 * (a header, a composer): Tab and Shift+Tab enter it on its newest
 * message ([method@ChatView.focus_newest]), ↑ and ↓, Page Up and Page Down,
 * Home and End move between its messages and the rows below them, Tab
 * goes through the focused message's own controls (copy buttons, links,
 * sources, the response actions) and on out of the transcript, and Escape
 * goes back to the widget after it. A message that gets the focus is
 * announced with its author and its first words.
 *
 * ## Accessibility
 *
 * The view has the log role and the name "Messages". A finished reply is
 * announced once, with its text; a stopped or failed one says so.
 *
 * ## CSS nodes
 *
 * `AkcChatView` has a main CSS node named `chatview` with a
 * `listview.transcript` and a `button.jump-to-newest`. The rows below the
 * messages are `box.tool-confirmation`, `box.thinking`, `box.error-area`
 * and `box.response-actions`.
 *
 * ## Theme
 *
 * Without a theme the view follows the platform's style, light, dark or
 * high contrast. [property@ChatView:theme] applies a semantic theme
 * ([application §6](../Akc-1/wire-formats.html#application-6)) instead: a style sheet generated from its tokens for
 * this view only (a CSS class of its own, `akc-theme-N`, at application
 * priority), which sets every colour inside the transcript, its spacings,
 * corner radii and font family.
 *
 * Since: 0.1
 */

static void akc_chat_view_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcChatView, akc_chat_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, akc_chat_view_scrollable_init))

GParamSpec *akc_chat_view_props[N_PROPS];
guint akc_chat_view_signals[N_SIGNALS];

gboolean
akc_chat_view_is_streaming (AkcChatView *self)
{
  return self->source != NULL && akc_chat_source_get_status (self->source) == AKC_CHAT_STATUS_STREAMING;
}

/* -------------------------------------------------------------------- */
/* The source                                                           */
/* -------------------------------------------------------------------- */

void
akc_chat_view_sync (AkcChatView *self)
{
  akc_chat_view_sync_thinking (self);
  akc_chat_view_sync_actions (self);
  akc_chat_view_sync_extras (self);
}

void
akc_chat_view_scan_conversation (AkcChatView *self)
{
  akc_chat_view_scan_tool_calls (self);
  akc_chat_view_sync_extras (self);
  akc_chat_view_sync_ownership (self);
}

static void
on_messages_changed (AkcChatView *self,
                     guint        position,
                     guint        removed,
                     guint        added,
                     GListModel  *messages)
{
  guint n = g_list_model_get_n_items (messages);

  akc_chat_view_find_messages_changed (self);

  /* The person sent something: show it, wherever they were reading. */
  if (added > 0 && added <= HISTORY_PAGE && position + added == n)
    {
      for (guint i = position; i < n; i++)
        {
          g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

          if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
            {
              self->stick_to_bottom = TRUE;
              akc_chat_view_scroll_to_end (self);
              break;
            }
        }
    }

  /* A whole conversation at once (restored, cleared): what needs a pass
   * over all of it waits until its first frame is drawn. */
  if (added > HISTORY_PAGE || removed > HISTORY_PAGE)
    {
      g_ptr_array_set_size (self->pending_calls, 0);
      akc_chat_view_sync (self);
      self->scan_pending = TRUE;
      akc_chat_view_defer (self);
      return;
    }

  akc_chat_view_scan_tool_calls (self);
  akc_chat_view_sync (self);
  akc_chat_view_sync_ownership (self);
}

/* The first call of the reply that just ended, complete, that waits for
 * the person's confirmation, or NULL. */
static AkcToolCall *
reply_confirmation (AkcChatView *self)
{
  g_autoptr(AkcMessage) last = NULL;
  GListModel *calls;
  guint n = self->messages != NULL ? g_list_model_get_n_items (self->messages) : 0;

  if (n == 0)
    return NULL;
  last = g_list_model_get_item (self->messages, n - 1);
  if (akc_message_get_role (last) != AKC_MESSAGE_ROLE_ASSISTANT ||
      akc_message_get_status (last) != AKC_MESSAGE_STATUS_COMPLETE)
    return NULL;

  calls = akc_message_get_tool_calls (last);
  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      AkcToolCall *call = g_list_model_get_item (calls, i);

      g_object_unref (call);  /* the message keeps it */
      if (akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION)
        return call;
    }

  return NULL;
}

static void
on_status_changed (AkcChatView *self)
{
  AkcChatStatus status = akc_chat_source_get_status (self->source);

  if (status == AKC_CHAT_STATUS_STREAMING && self->editing)
    akc_chat_view_set_editing (self, FALSE, NULL, NULL);

  akc_chat_view_sync (self);
  akc_chat_view_sync_ownership (self);
  if (status != AKC_CHAT_STATUS_STREAMING)
    akc_chat_view_refilter (self);

  /* A reply ended: read it out, once, after everybody has seen the new
   * status (the composer gives the focus back to its entry). */
  if (self->status == AKC_CHAT_STATUS_STREAMING && status != AKC_CHAT_STATUS_STREAMING &&
      self->announce_idle == 0)
    self->announce_idle = g_idle_add (akc_chat_view_announce_turn_end, self);

  /* A reply that ended on a call waiting for the person (a model's
   * open_link): its confirmation takes the keyboard, on Deny, as the
   * confirmation of an action chosen in a component does. Only now: while
   * the reply streams nothing can be approved or denied. */
  if (self->status == AKC_CHAT_STATUS_STREAMING && status == AKC_CHAT_STATUS_IDLE)
    {
      AkcToolCall *call = reply_confirmation (self);

      if (call != NULL)
        akc_chat_view_focus_confirmation (self, akc_tool_call_get_id (call));
    }

  self->status = status;
}

static void
on_error_changed (AkcChatView *self)
{
  akc_chat_view_sync_error (self);
  akc_chat_view_sync_extras (self);
}

static void
on_hidden_changed (AkcChatView *self,
                   AkcMessage  *message)
{
  akc_chat_view_refilter (self);
}

static void
disconnect_source (AkcChatView *self)
{
  if (self->source == NULL)
    return;

  g_clear_signal_handler (&self->items_handler, self->messages);
  g_clear_signal_handler (&self->status_handler, self->source);
  g_clear_signal_handler (&self->error_handler, self->source);
  g_clear_signal_handler (&self->hidden_handler, self->source);
  akc_chat_view_unwatch_calls (self);
  akc_chat_view_watch_last_message (self, NULL);
  self->extend_pending = FALSE;
  self->scan_pending = FALSE;
  g_ptr_array_set_size (self->pending_calls, 0);
  g_clear_object (&self->shown);
  g_clear_object (&self->shown_filter);
  g_clear_object (&self->window);
  g_clear_object (&self->messages);
  g_clear_object (&self->source);
}

/* -------------------------------------------------------------------- */
/* GtkWidget, GtkScrollable                                             */
/* -------------------------------------------------------------------- */

static void
akc_chat_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  int button_min = 0, button_nat = 0;

  /* A scrolled window asks its child for its height even when it scrolls
   * it; for the list view that means laying out every row it holds (up
   * to 200 in GTK 4.8) at every width it is asked about. The transcript
   * always scrolls, so its height says nothing: only its width is
   * measured, which the list view needs before it is allocated. */
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = 0;
  else
    gtk_widget_measure (GTK_WIDGET (self->list_view), orientation, for_size,
                        minimum, natural, NULL, NULL);

  if (gtk_widget_get_visible (self->jump_button))
    {
      gtk_widget_measure (self->jump_button, orientation, -1, &button_min, &button_nat, NULL, NULL);
      *minimum = MAX (*minimum, button_min + 2 * JUMP_BUTTON_MARGIN);
      *natural = MAX (*natural, button_nat + 2 * JUMP_BUTTON_MARGIN);
    }
  if (gtk_widget_get_visible (self->focus_hint) && orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      gtk_widget_measure (self->focus_hint, orientation, -1, &button_min, NULL, NULL, NULL);
      *minimum = MAX (*minimum, button_min + 2 * JUMP_BUTTON_MARGIN);
    }
}

static void
allocate_children (AkcChatView *self,
                   int          width,
                   int          height)
{
  int bottom = height - JUMP_BUTTON_MARGIN;
  int list_height = height;

  /* The hint sits under the messages, never over them: the newest row
   * and the controls below it (the response actions) stay in sight and
   * reachable while it shows; the jump button floats above it. */
  if (gtk_widget_get_visible (self->focus_hint))
    {
      int hint_width = MAX (0, width - 2 * JUMP_BUTTON_MARGIN), hint_height;

      gtk_widget_measure (self->focus_hint, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &hint_width, NULL, NULL);
      hint_width = MIN (hint_width, MAX (0, width - 2 * JUMP_BUTTON_MARGIN));
      gtk_widget_measure (self->focus_hint, GTK_ORIENTATION_VERTICAL, hint_width, NULL, &hint_height, NULL, NULL);
      bottom -= hint_height;
      gtk_widget_allocate (self->focus_hint, hint_width, hint_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT ((width - hint_width) / 2.0f, bottom)));
      bottom -= JUMP_BUTTON_MARGIN;
      list_height = MAX (0, bottom);
    }

  self->allocating = TRUE;
  gtk_widget_allocate (GTK_WIDGET (self->list_view), width, list_height, -1, NULL);
  self->allocating = FALSE;

  if (gtk_widget_get_visible (self->jump_button))
    {
      int button_width, button_height;

      gtk_widget_measure (self->jump_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &button_width, NULL, NULL);
      gtk_widget_measure (self->jump_button, GTK_ORIENTATION_VERTICAL, button_width, NULL, &button_height, NULL, NULL);
      button_width = MIN (button_width, width);
      gtk_widget_allocate (self->jump_button, button_width, button_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT ((width - button_width) / 2.0f,
                                                                                bottom - button_height)));
    }
}

static void
akc_chat_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  gboolean hint_shown = gtk_widget_get_visible (self->focus_hint);

  allocate_children (self, width, height);

  /* The keyboard moved while the list laid its rows out (a row came into
   * sight and its widget took it back): the hint came or went with it,
   * and is laid out now, not a frame late (a shown hint nobody placed is
   * not drawn at all). */
  if (gtk_widget_get_visible (self->focus_hint) != hint_shown)
    allocate_children (self, width, height);
}

static void
akc_chat_view_realize (GtkWidget *widget)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  GdkFrameClock *clock;

  GTK_WIDGET_CLASS (akc_chat_view_parent_class)->realize (widget);

  akc_chat_view_install_theme_provider (self);
  clock = gtk_widget_get_frame_clock (widget);
  self->after_paint_handler = g_signal_connect_object (clock, "after-paint",
                                                       G_CALLBACK (akc_chat_view_on_after_paint),
                                                       self, G_CONNECT_SWAPPED);
  /* Now there are frames to wait for. */
  g_clear_handle_id (&self->deferred_idle, g_source_remove);
  if (self->extend_pending || self->scan_pending)
    akc_chat_view_defer (self);
}

static void
akc_chat_view_unrealize (GtkWidget *widget)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  g_clear_signal_handler (&self->after_paint_handler, gtk_widget_get_frame_clock (widget));
  if (self->extend_pending || self->scan_pending)
    akc_chat_view_defer (self);

  GTK_WIDGET_CLASS (akc_chat_view_parent_class)->unrealize (widget);
}

static void
akc_chat_view_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (akc_chat_view_parent_class)->root (widget);

  akc_chat_view_follow_focus (AKC_CHAT_VIEW (widget), gtk_widget_get_root (widget));
}

static void
akc_chat_view_unroot (GtkWidget *widget)
{
  akc_chat_view_follow_focus (AKC_CHAT_VIEW (widget), NULL);

  GTK_WIDGET_CLASS (akc_chat_view_parent_class)->unroot (widget);
}

static gboolean
akc_chat_view_focus (GtkWidget        *widget,
                     GtkDirectionType  direction)
{
  gboolean handled;
  gboolean moved = akc_chat_view_move_focus (AKC_CHAT_VIEW (widget), direction, &handled);

  if (handled)
    return moved;

  return GTK_WIDGET_CLASS (akc_chat_view_parent_class)->focus (widget, direction);
}

/* On the newest message, or the list when there is none. */
static gboolean
akc_chat_view_grab_focus (GtkWidget *widget)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  return akc_chat_view_focus_newest (self) || gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
akc_chat_view_dispose (GObject *object)
{
  AkcChatView *self = AKC_CHAT_VIEW (object);

  if (self->follow_tick != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->follow_tick);
      self->follow_tick = 0;
    }
  g_clear_handle_id (&self->thinking_timeout, g_source_remove);
  g_clear_handle_id (&self->deferred_idle, g_source_remove);
  g_clear_handle_id (&self->announce_idle, g_source_remove);
  g_clear_handle_id (&self->focus_idle, g_source_remove);
  g_clear_handle_id (&self->active_idle, g_source_remove);
  g_clear_handle_id (&self->focus_pending_idle, g_source_remove);
  g_clear_handle_id (&self->refocus_idle, g_source_remove);
  g_clear_handle_id (&self->parked_idle, g_source_remove);
  g_clear_weak_pointer (&self->last_focus);
  g_clear_weak_pointer (&self->parked_from);
  akc_chat_view_forget_unseen_focus (self);
  akc_chat_view_forget_owner_focus (self);
  g_clear_object (&self->focus_pending);
  akc_chat_view_clear_announcements (self);
  akc_chat_view_find_dispose (self);

  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  disconnect_source (self);

  if (self->vadjustment != NULL)
    {
      g_clear_signal_handler (&self->value_handler, self->vadjustment);
      g_clear_signal_handler (&self->changed_handler, self->vadjustment);
      g_clear_object (&self->vadjustment);
    }
  if (self->ownership != NULL)
    g_clear_signal_handler (&self->ownership_handler, self->ownership);

  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_CHAT_VIEW);
  self->list_view = NULL;
  self->jump_button = NULL;
  self->focus_hint = NULL;

  g_clear_object (&self->model);
  g_clear_object (&self->sections);
  g_clear_object (&self->extras);
  g_clear_object (&self->factory);
  g_clear_object (&self->thinking_item);
  g_clear_object (&self->error_item);
  g_clear_object (&self->actions_item);
  g_clear_object (&self->manifest);
  g_clear_object (&self->confirmation);
  g_clear_object (&self->ownership);
  g_clear_object (&self->interaction);
  g_clear_object (&self->active_message);
  akc_chat_view_uninstall_theme_provider (self);
  g_clear_object (&self->theme_provider);
  g_clear_pointer (&self->theme, akc_theme_unref);
  g_clear_pointer (&self->active_instance_id, g_free);
  g_clear_pointer (&self->focus_call_id, g_free);

  G_OBJECT_CLASS (akc_chat_view_parent_class)->dispose (object);
}

static void
akc_chat_view_finalize (GObject *object)
{
  AkcChatView *self = AKC_CHAT_VIEW (object);

  /* Again: a find bar that outlived the view's dispose may have ended
   * its find since. */
  akc_chat_view_find_dispose (self);
  g_hash_table_unref (self->rows);
  g_hash_table_unref (self->items);
  g_hash_table_unref (self->past_errors);
  g_free (self->error_message_id);
  g_free (self->error_shown);
  g_ptr_array_unref (self->watched_calls);
  g_ptr_array_unref (self->pending_calls);
  g_weak_ref_clear (&self->announce_target);
  g_weak_ref_clear (&self->editor);
  g_free (self->action_error);
  g_free (self->edit_message_id);
  g_free (self->edit_draft);
  g_free (self->theme_class);

  G_OBJECT_CLASS (akc_chat_view_parent_class)->finalize (object);
}

static void
akc_chat_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  AkcChatView *self = AKC_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_MANIFEST:
      g_value_set_object (value, self->manifest);
      break;
    case PROP_INPUT_OWNED:
      g_value_set_boolean (value, akc_chat_view_get_input_owned (self));
      break;
    case PROP_AT_BOTTOM:
      g_value_set_boolean (value, self->at_bottom);
      break;
    case PROP_EDITING:
      g_value_set_boolean (value, self->editing);
      break;
    case PROP_ACTION_ERROR:
      g_value_set_string (value, self->action_error);
      break;
    case PROP_THEME:
      g_value_set_boxed (value, self->theme);
      break;
    case PROP_CONFIRMATION:
      g_value_set_object (value, self->confirmation);
      break;
    case PROP_INTERACTION:
      g_value_set_object (value, self->interaction);
      break;
    case PROP_SEARCH_TEXT:
      g_value_set_string (value, akc_chat_view_get_search_text (self));
      break;
    case PROP_N_MATCHES:
      g_value_set_uint (value, akc_chat_view_get_n_matches (self));
      break;
    case PROP_MATCH_POSITION:
      g_value_set_uint (value, akc_chat_view_get_match_position (self));
      break;
    case PROP_HADJUSTMENT:
    case PROP_VADJUSTMENT:
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY:
      g_object_get_property (G_OBJECT (self->list_view), pspec->name, value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  AkcChatView *self = AKC_CHAT_VIEW (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      akc_chat_view_set_source (self, g_value_get_object (value));
      break;
    case PROP_MANIFEST:
      akc_chat_view_set_manifest (self, g_value_get_object (value));
      break;
    case PROP_THEME:
      akc_chat_view_set_theme (self, g_value_get_boxed (value));
      break;
    case PROP_CONFIRMATION:
      akc_chat_view_set_confirmation (self, g_value_get_object (value));
      break;
    case PROP_INTERACTION:
      akc_chat_view_set_interaction (self, g_value_get_object (value));
      break;
    case PROP_SEARCH_TEXT:
      akc_chat_view_set_search_text (self, g_value_get_string (value));
      break;
    case PROP_HADJUSTMENT:
    case PROP_VADJUSTMENT:
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY:
      /* The list view scrolls; the view only passes these on. */
      g_object_set_property (G_OBJECT (self->list_view), pspec->name, value);
      if (prop_id == PROP_VADJUSTMENT)
        akc_chat_view_track_vadjustment (self);
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
akc_chat_view_get_border (GtkScrollable *scrollable,
                          GtkBorder     *border)
{
  return gtk_scrollable_get_border (GTK_SCROLLABLE (AKC_CHAT_VIEW (scrollable)->list_view), border);
}

static void
akc_chat_view_scrollable_init (GtkScrollableInterface *iface)
{
  iface->get_border = akc_chat_view_get_border;
}

static void
add_shortcut (GtkShortcutController *controller,
              guint                  keyval,
              GdkModifierType        modifiers,
              const char            *action)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (keyval, modifiers),
                                                          gtk_named_action_new (action)));
}

static void
akc_chat_view_class_init (AkcChatViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_chat_view_dispose;
  object_class->finalize = akc_chat_view_finalize;
  object_class->get_property = akc_chat_view_get_property;
  object_class->set_property = akc_chat_view_set_property;

  widget_class->measure = akc_chat_view_measure;
  widget_class->size_allocate = akc_chat_view_size_allocate;
  widget_class->grab_focus = akc_chat_view_grab_focus;
  widget_class->focus = akc_chat_view_focus;
  widget_class->realize = akc_chat_view_realize;
  widget_class->unrealize = akc_chat_view_unrealize;
  widget_class->root = akc_chat_view_root;
  widget_class->unroot = akc_chat_view_unroot;

  /**
   * AkcChatView:source:
   *
   * The conversation the view shows.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         AKC_TYPE_CHAT_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:manifest:
   *
   * The manifest component frames resolve against, or %NULL when none is
   * configured: every frame is shown as its semantic fallback then, and
   * no component owns input ([application §12.2](../Akc-1/wire-formats.html#application-12), §12.4).
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL,
                         AKC_TYPE_COMPONENT_MANIFEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:input-owned:
   *
   * Whether a component owns the keyboard ([application §12.4](../Akc-1/wire-formats.html#application-12)). The
   * host keeps its composer enabled meanwhile, sets the component aside
   * (`chat.set-aside`) when the person types into the composer or clicks
   * it, and gives the composer the focus back when no component owns
   * input any more.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_INPUT_OWNED] =
    g_param_spec_boolean ("input-owned", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:at-bottom:
   *
   * Whether the end of the transcript is in sight. New content is
   * followed only then; otherwise the view offers "Jump to newest".
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_AT_BOTTOM] =
    g_param_spec_boolean ("at-bottom", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:editing:
   *
   * Whether the inline editor of the last user message is open
   * ([application §12.3](../Akc-1/wire-formats.html#application-12)).
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_EDITING] =
    g_param_spec_boolean ("editing", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:action-error:
   *
   * The message of the last failed local action (a lifecycle operation,
   * an approval or a denial), or %NULL. It is cleared when the next action
   * starts, and shown when the conversation has no error of its own.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_ACTION_ERROR] =
    g_param_spec_string ("action-error", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:theme:
   *
   * The semantic theme the view is drawn with ([application §6](../Akc-1/wire-formats.html#application-6)), or
   * %NULL to follow the platform's style.
   *
   * The theme is already resolved, so it is valid: an invalid one fails
   * in [func@Akc.Theme.resolve] and never reaches the view, which keeps
   * the theme it has.
   *
   * A theme's colours are absolute. In the platform's dark style the view
   * keeps the theme's background and text, which belong together, so it
   * stays legible; to follow the platform, resolve a theme for each style
   * and set the one that matches (for example on
   * `notify::dark` of `AdwStyleManager`).
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_THEME] =
    g_param_spec_boxed ("theme", NULL, NULL,
                        AKC_TYPE_THEME,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:confirmation:
   *
   * The coordinator that resolves the confirmations of the tool calls it
   * proposed ([application §5.2](../Akc-1/wire-formats.html#application-5)), or %NULL. A choice with a typed
   * action proposes it through the coordinator (§12.7); the transcript's
   * Approve and Deny buttons go through it for the calls it proposed, and
   * straight to the source for the others.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_CONFIRMATION] =
    g_param_spec_object ("confirmation", NULL, NULL,
                         AKC_TYPE_ACTION_CONFIRMATION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:interaction:
   *
   * What acts on the person's answers: choices, forms, approvals,
   * denials, opened sources and cards set aside ([application §12.7](../Akc-1/wire-formats.html#application-12),
   * §12.8). The view only forwards to it and shows the answers it keeps,
   * also those kept in the history before a restart. Setting it shows its
   * source with its manifest and coordinator. Without one, the view makes
   * its own for each source, with the view's manifest and coordinator.
   *
   * Since: 0.1
   */
  akc_chat_view_props[PROP_INTERACTION] =
    g_param_spec_object ("interaction", NULL, NULL,
                         AKC_TYPE_INTERACTION_CONTROLLER,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  akc_chat_view_find_class_init (object_class);

  g_object_class_install_properties (object_class, N_PROPS, akc_chat_view_props);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * AkcChatView::component-interaction:
   * @self: the view
   * @view: the component view
   * @event: the interaction event ([application §2.5](../Akc-1/wire-formats.html#application-2))
   *
   * A component of the transcript emitted
   * [signal@ComponentView::interaction]. Its instance is already resolved;
   * report a failure with [method@ComponentView.fail]. Otherwise the
   * answer then reaches an [class@Akc.ControlledSource] source
   * ([signal@Akc.ControlledSource::component-interaction]) and the view's
   * interaction controller.
   *
   * Since: 0.1
   */
  akc_chat_view_signals[COMPONENT_INTERACTION] =
    g_signal_new ("component-interaction",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_COMPONENT_VIEW,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcChatView::component-selection:
   * @self: the view
   * @view: the component view
   * @event: the selection event ([application §2.6](../Akc-1/wire-formats.html#application-2))
   *
   * A choice list of the transcript emitted
   * [signal@ComponentView::selection]. Unless a handler fails it, the
   * choice then reaches the source, when it is an
   * [class@Akc.ControlledSource] ([signal@Akc.ControlledSource::choice-selected]),
   * and the view's [property@ChatView:interaction] controller
   * ([signal@Akc.InteractionController::choice-selected]), both with the
   * choice's label.
   *
   * Since: 0.1
   */
  akc_chat_view_signals[COMPONENT_SELECTION] =
    g_signal_new ("component-selection",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_COMPONENT_VIEW,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  akc_chat_view_class_install_actions (widget_class);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-chat-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcChatView, list_view);
  gtk_widget_class_bind_template_child (widget_class, AkcChatView, jump_button);
  gtk_widget_class_bind_template_child (widget_class, AkcChatView, focus_hint);

  gtk_widget_class_set_css_name (widget_class, "chatview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LOG);
}

static void
akc_chat_view_init (AkcChatView *self)
{
  GtkEventController *shortcuts;

  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->rows = g_hash_table_new (NULL, NULL);
  self->past_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  akc_chat_view_init_keyboard (self);
  self->watched_calls = g_ptr_array_new_with_free_func (g_object_unref);
  self->pending_calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_weak_ref_init (&self->announce_target, NULL);
  g_weak_ref_init (&self->editor, NULL);
  self->ownership = akc_input_ownership_new ();
  /* Source lists and link cards are navigation (docs/port-decisions.md). */
  akc_input_ownership_set_navigation_owns_input (self->ownership, FALSE);
  self->ownership_handler = g_signal_connect_object (self->ownership, "changed",
                                                     G_CALLBACK (akc_chat_view_sync_ownership),
                                                     self, G_CONNECT_SWAPPED);
  self->stick_to_bottom = TRUE;
  self->at_bottom = TRUE;
  self->active_presentation = -1;
  self->status = AKC_CHAT_STATUS_IDLE;

  self->extras = g_list_store_new (G_TYPE_OBJECT);
  self->sections = g_list_store_new (G_TYPE_LIST_MODEL);
  self->model = gtk_flatten_list_model_new (g_object_ref (G_LIST_MODEL (self->sections)));

  self->factory = akc_chat_view_create_factory (self);
  gtk_list_view_set_factory (self->list_view, self->factory);
  gtk_list_view_set_model (self->list_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->model)))));
  g_list_store_append (self->sections, self->extras);
  akc_chat_view_track_vadjustment (self);

  /* The view's own keys, while the focus is in it: an application that
   * embeds the view keeps its keys everywhere else, and makes them
   * window-wide with actions of its own if it wants (as AkcWindow does). */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_LOCAL);
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_Escape, 0, "chat.stop");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_Escape, 0, "chat.set-aside");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_r, GDK_CONTROL_MASK, "chat.retry");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "chat.regenerate");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_e, GDK_CONTROL_MASK, "chat.edit");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_End, GDK_CONTROL_MASK, "chat.jump-to-newest");
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  akc_chat_view_set_at_bottom (self, TRUE);
  akc_chat_view_sync (self);
}

/**
 * akc_chat_view_new:
 *
 * Creates a view with no conversation.
 *
 * Returns: (transfer none): a new floating #AkcChatView
 *
 * Since: 0.1
 */
GtkWidget *
akc_chat_view_new (void)
{
  return g_object_new (AKC_TYPE_CHAT_VIEW, NULL);
}

/**
 * akc_chat_view_get_source:
 * @self: a #AkcChatView
 *
 * Gets the conversation the view shows.
 *
 * Returns: (transfer none) (nullable): the source
 *
 * Since: 0.1
 */
AkcChatSource *
akc_chat_view_get_source (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->source;
}

/* The resolved instances the view shows are @interaction's. */
static void
use_interaction (AkcChatView              *self,
                 AkcInteractionController *interaction)
{
  g_autoptr(AkcInputOwnership) ownership = NULL;
  GHashTableIter iter;
  gpointer row;

  if (!g_set_object (&self->interaction, interaction))
    return;

  ownership = interaction != NULL
              ? g_object_ref (akc_interaction_controller_get_ownership (interaction))
              : akc_input_ownership_new ();
  /* Source lists and link cards are navigation (docs/port-decisions.md),
   * in the controller's set of resolved instances too. */
  akc_input_ownership_set_navigation_owns_input (ownership, FALSE);
  if (self->ownership != NULL)
    g_clear_signal_handler (&self->ownership_handler, self->ownership);
  g_set_object (&self->ownership, ownership);
  self->ownership_handler = g_signal_connect_object (self->ownership, "changed",
                                                     G_CALLBACK (akc_chat_view_sync_ownership),
                                                     self, G_CONNECT_SWAPPED);

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    akc_message_row_set_ownership (row, self->ownership);

  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_INTERACTION]);
}

/**
 * akc_chat_view_get_interaction:
 * @self: a #AkcChatView
 *
 * Gets what acts on the person's answers.
 *
 * Returns: (transfer none) (nullable): the interaction controller, or
 *   %NULL without a source
 *
 * Since: 0.1
 */
AkcInteractionController *
akc_chat_view_get_interaction (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->interaction;
}

/**
 * akc_chat_view_set_interaction:
 * @self: a #AkcChatView
 * @interaction: (nullable): an interaction controller, or %NULL
 *
 * Shows the source of @interaction, with its manifest and confirmation
 * coordinator, and forwards every answer to it ([application §12.7](../Akc-1/wire-formats.html#application-12),
 * §12.8). %NULL shows nothing.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_interaction (AkcChatView              *self,
                               AkcInteractionController *interaction)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (interaction == NULL || AKC_IS_INTERACTION_CONTROLLER (interaction));

  if (self->interaction == interaction)
    return;

  if (interaction == NULL)
    {
      akc_chat_view_set_source (self, NULL);
      return;
    }

  use_interaction (self, interaction);
  akc_chat_view_set_manifest (self, akc_interaction_controller_get_manifest (interaction));
  akc_chat_view_set_confirmation (self, akc_interaction_controller_get_confirmation (interaction));
  akc_chat_view_set_source (self, akc_interaction_controller_get_source (interaction));
  akc_chat_view_sync_ownership (self);
}

/**
 * akc_chat_view_set_source:
 * @self: a #AkcChatView
 * @source: (nullable): the conversation to show
 *
 * Sets the conversation the view shows. The view binds to the source's
 * messages, status and error only. A new source is a new session: the
 * resolved instances, the open editor and the errors are forgotten
 * ([application §12.7](../Akc-1/wire-formats.html#application-12), §12.9).
 *
 * Since: 0.1
 */
void
akc_chat_view_set_source (AkcChatView   *self,
                          AkcChatSource *source)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (source == NULL || AKC_IS_CHAT_SOURCE (source));

  if (self->source == source)
    return;

  disconnect_source (self);
  g_list_store_remove_all (self->sections);
  /* A new source is a new set of resolved instances: those of its
   * interaction controller. */
  if (source == NULL)
    use_interaction (self, NULL);
  else if (self->interaction == NULL || akc_interaction_controller_get_source (self->interaction) != source)
    {
      g_autoptr(AkcInteractionController) own = akc_interaction_controller_new (source);

      akc_interaction_controller_set_manifest (own, self->manifest);
      akc_interaction_controller_set_confirmation (own, self->confirmation);
      use_interaction (self, own);
    }
  akc_chat_view_set_editing (self, FALSE, NULL, NULL);
  g_clear_pointer (&self->action_error, g_free);
  g_clear_pointer (&self->error_message_id, g_free);
  g_clear_pointer (&self->error_shown, g_free);
  g_hash_table_remove_all (self->past_errors);
  self->status = AKC_CHAT_STATUS_IDLE;

  if (source != NULL)
    {
      self->source = g_object_ref (source);
      self->messages = g_object_ref (akc_chat_source_get_messages (source));
      self->status = akc_chat_source_get_status (source);
      self->window = akc_message_window_new (self->messages, FIRST_PAGE);
      /* Results and replays that a settled card already says are left out
       * (issue 13 item 6). */
      self->shown_filter = GTK_FILTER (gtk_custom_filter_new ((GtkCustomFilterFunc) akc_chat_view_message_is_shown,
                                                              self, NULL));
      self->shown = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->window)),
                                               g_object_ref (self->shown_filter));
      g_list_store_append (self->sections, self->shown);
      /* After the flattening model, which has to know of a change of the
       * messages before the rows below them move. */
      self->items_handler = g_signal_connect_object (self->messages, "items-changed",
                                                     G_CALLBACK (on_messages_changed),
                                                     self, G_CONNECT_SWAPPED);
      self->status_handler = g_signal_connect_object (source, "notify::status",
                                                      G_CALLBACK (on_status_changed),
                                                      self, G_CONNECT_SWAPPED);
      self->error_handler = g_signal_connect_object (source, "notify::error",
                                                     G_CALLBACK (on_error_changed),
                                                     self, G_CONNECT_SWAPPED);
      /* A message deleted with its undo offered leaves the transcript
       * (and comes back with the undo). */
      if (AKC_IS_CHAT (source))
        self->hidden_handler = g_signal_connect_object (source, "hidden-changed",
                                                        G_CALLBACK (on_hidden_changed),
                                                        self, G_CONNECT_SWAPPED);
    }
  g_list_store_append (self->sections, self->extras);

  self->stick_to_bottom = TRUE;
  akc_chat_view_sync_error (self);
  akc_chat_view_scan_tool_calls (self);
  akc_chat_view_sync (self);
  akc_chat_view_sync_ownership (self);
  akc_chat_view_scroll_to_end (self);
  akc_chat_view_find_source_changed (self);
  /* Anchor the list at its end before it is laid out, so the first frame
   * already shows the newest messages (the adjustment knows no size yet). */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->model)) > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                g_list_model_get_n_items (G_LIST_MODEL (self->model)) - 1);

  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_SOURCE]);
}

/**
 * akc_chat_view_get_confirmation:
 * @self: a #AkcChatView
 *
 * Gets the coordinator that resolves confirmations.
 *
 * Returns: (transfer none) (nullable): the coordinator, or %NULL
 *
 * Since: 0.1
 */
AkcActionConfirmation *
akc_chat_view_get_confirmation (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->confirmation;
}

/**
 * akc_chat_view_set_confirmation:
 * @self: a #AkcChatView
 * @confirmation: (nullable): the coordinator, or %NULL
 *
 * Sets the coordinator that resolves the confirmations of the tool calls
 * it proposed. It must coordinate the view's source.
 *
 * Since: 0.1
 */
void
akc_chat_view_set_confirmation (AkcChatView           *self,
                                AkcActionConfirmation *confirmation)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (confirmation == NULL || AKC_IS_ACTION_CONFIRMATION (confirmation));

  if (self->interaction != NULL)
    akc_interaction_controller_set_confirmation (self->interaction, confirmation);
  if (g_set_object (&self->confirmation, confirmation))
    g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_CONFIRMATION]);
}

/**
 * akc_chat_view_get_manifest:
 * @self: a #AkcChatView
 *
 * Gets the manifest component frames resolve against.
 *
 * Returns: (transfer none) (nullable): the manifest
 *
 * Since: 0.1
 */
AkcComponentManifest *
akc_chat_view_get_manifest (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->manifest;
}

/**
 * akc_chat_view_set_manifest:
 * @self: a #AkcChatView
 * @manifest: (nullable): the manifest, or %NULL for none
 *
 * Sets the manifest component frames resolve against (for example
 * [ctor@Akc.ComponentManifest.new_standard]).
 *
 * Since: 0.1
 */
void
akc_chat_view_set_manifest (AkcChatView          *self,
                            AkcComponentManifest *manifest)
{
  GHashTableIter iter;
  gpointer row;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest));

  if (self->interaction != NULL)
    akc_interaction_controller_set_manifest (self->interaction, manifest);
  if (!g_set_object (&self->manifest, manifest))
    return;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    akc_message_row_set_manifest (row, manifest);
  akc_chat_view_sync_ownership (self);

  g_object_notify_by_pspec (G_OBJECT (self), akc_chat_view_props[PROP_MANIFEST]);
}


/* Private API for the tests. */

GtkListView *
akc_chat_view_get_list_view (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->list_view;
}

GtkWidget *
akc_chat_view_get_jump_button (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->jump_button;
}

guint
akc_chat_view_get_n_binds (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), 0);

  return self->n_binds;
}

AkcMessageRow *
akc_chat_view_get_row (AkcChatView *self,
                       AkcMessage  *message)
{
  GHashTableIter iter;
  gpointer row;

  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    if (akc_message_row_get_message (row) == message)
      return row;

  return NULL;
}

AkcInputOwnership *
akc_chat_view_get_ownership (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->ownership;
}

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
 * over the messages of an [iface@Akc.ChatSource], with what application.md
 * §12.1 shows below them.
 *
 * Each message is an [class@MessageRow] (§12.2). A message that changes
 * updates its own row only: the list model does not change when a message
 * does, so no other row is bound again, and a streaming reply is drawn at
 * most once per frame. Below the messages come a confirmation for every
 * tool call that waits for one (§12.8: the tool's name, its arguments as
 * pretty JSON, Approve and Deny), a "Thinking..." indicator while a reply
 * streams, the error of the last turn or action as an alert with Retry,
 * and the response actions of §12.3: Retry, Regenerate and Edit last
 * message with its inline editor.
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
 * and these shortcuts, active anywhere in its window: Escape stops a reply
 * or, when no reply streams, sets aside the component that owns input
 * (it becomes inert without an answer and input returns to the host),
 * Ctrl+R retries, Ctrl+Shift+R regenerates, Ctrl+E edits the last message and
 * Ctrl+End jumps to the newest message. In the inline editor Enter saves
 * and Escape cancels.
 *
 * Input ownership (§12.4): the latest unresolved interactive component
 * ([method@Akc.InputOwnership.find_active]) is the only
 * [class@ComponentView] that reacts to keys, and it gets the keyboard
 * focus; [property@ChatView:input-owned] tells the host to disable its
 * composer meanwhile. Every other component stays readable and clickable.
 * Resolved instances are kept by instance id for the life of the source,
 * so copies of one frame resolve together (§14, A14).
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
 * (application.md §6) instead: a style sheet generated from its tokens for
 * this view only (a CSS class of its own, `akc-theme-N`, at application
 * priority), which sets every colour inside the transcript, its spacings,
 * corner radii and font family.
 *
 * Since: 0.1
 */

/* Spinners appear only when a wait is noticeable. */
#define THINKING_DELAY_MS 150
/* How long an announcement stays in a description (GTK < 4.14). */
#define ANNOUNCE_CLEAR_MS 1500
/* How much of a reply is read out when it is finished. */
#define ANNOUNCE_MAX_CHARS 2000
/* Messages given to the list view at first, about a window's height, and
 * added each time the reader nears the top (see AkcMessageWindow). */
#define FIRST_PAGE 6
#define HISTORY_PAGE 10
/* Pixels from the end that still count as "at the end". */
#define BOTTOM_SLACK 2.0
#define JUMP_BUTTON_MARGIN 12

/* The kinds of rows below the messages, as the strings of their items. */
#define EXTRA_THINKING "thinking"
#define EXTRA_ERROR "error"
#define EXTRA_ACTIONS "actions"

struct _AkcChatView
{
  GtkWidget             parent_instance;

  GtkListView          *list_view;
  GtkWidget            *jump_button;

  AkcChatSource        *source;
  GListModel           *messages;
  AkcMessageWindow     *window;
  guint                 deferred_idle;
  gulong                after_paint_handler;
  gboolean              extend_pending;
  gboolean              scan_pending;
  AkcComponentManifest *manifest;
  AkcActionConfirmation *confirmation;
  /* A call proposed from a choice of this view: its confirmation takes the
   * keyboard once it is shown. */
  char                 *focus_call_id;
  AkcInputOwnership    *ownership;

  GListStore           *extras;       /* AkcToolCall, GtkStringObject */
  GListStore           *sections;     /* the messages, then the extras */
  GtkFlattenListModel  *model;
  GtkListItemFactory   *factory;
  GHashTable           *rows;         /* bound AkcMessageRow → itself */
  GtkStringObject      *thinking_item;
  GtkStringObject      *error_item;
  GtkStringObject      *actions_item;

  gulong                items_handler;
  gulong                status_handler;
  gulong                error_handler;
  gulong                ownership_handler;
  AkcChatStatus         status;

  /* Tool calls that may change what is confirmed: those of the last
   * message and those waiting for a confirmation. */
  AkcMessage           *watched_message;
  GPtrArray            *watched_calls;
  GPtrArray            *pending_calls;   /* AkcToolCall awaiting confirmation, in order */

  GtkAdjustment        *vadjustment;
  gulong                value_handler;
  gulong                changed_handler;
  gboolean              stick_to_bottom;
  gboolean              at_bottom;
  guint                 follow_tick;
  gboolean              allocating;

  AkcMessage           *active_message;
  char                 *active_instance_id;
  int                   active_presentation;
  gboolean              focus_active_pending;
  guint                 active_idle;

  char                 *action_error;
  gboolean              editing;
  char                 *edit_message_id;
  char                 *edit_draft;
  gboolean              focus_editor_pending;
  GWeakRef              editor;
  guint                 focus_idle;

  guint                 thinking_timeout;
  gboolean              thinking_shown;
  guint                 announce_idle;
  GWeakRef              announce_target;
  guint                 announce_timeout;

  guint                 n_binds;

  AkcTheme             *theme;
  char                 *theme_class;    /* "akc-theme-N", unique to this view */
  GtkCssProvider       *theme_provider;
  GdkDisplay           *theme_display;  /* where theme_provider is installed */
};

static void akc_chat_view_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcChatView, akc_chat_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, akc_chat_view_scrollable_init))

enum {
  PROP_0,
  PROP_SOURCE,
  PROP_MANIFEST,
  PROP_INPUT_OWNED,
  PROP_AT_BOTTOM,
  PROP_EDITING,
  PROP_ACTION_ERROR,
  PROP_THEME,
  PROP_CONFIRMATION,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *props[N_PROPS];

enum {
  COMPONENT_INTERACTION,
  COMPONENT_SELECTION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void akc_chat_view_sync (AkcChatView *self);
static void akc_chat_view_sync_extras (AkcChatView *self);

static gboolean
akc_chat_view_is_streaming (AkcChatView *self)
{
  return self->source != NULL && akc_chat_source_get_status (self->source) == AKC_CHAT_STATUS_STREAMING;
}

/* -------------------------------------------------------------------- */
/* Announcements                                                        */
/* -------------------------------------------------------------------- */

#if !GTK_CHECK_VERSION (4, 14, 0)
static gboolean
clear_announcement (gpointer user_data)
{
  AkcChatView *self = user_data;
  g_autoptr(GtkWidget) target = g_weak_ref_get (&self->announce_target);

  self->announce_timeout = 0;
  if (target != NULL)
    gtk_accessible_reset_property (GTK_ACCESSIBLE (target), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  g_weak_ref_set (&self->announce_target, NULL);

  return G_SOURCE_REMOVE;
}

/* Whether the description of @focus is free to carry an announcement:
 * text entries, and the widgets of this view outside components, never
 * have a description of their own. */
static gboolean
may_describe (AkcChatView *self,
              GtkWidget   *focus)
{
  if (GTK_IS_TEXT_VIEW (focus) || GTK_IS_TEXT (focus))
    return TRUE;

  return gtk_widget_is_ancestor (focus, GTK_WIDGET (self)) &&
         gtk_widget_get_ancestor (focus, AKC_TYPE_COMPONENT_VIEW) == NULL;
}
#endif

/* Says @message to assistive technologies, once, politely. */
static void
akc_chat_view_announce (AkcChatView *self,
                        const char  *message)
{
#if GTK_CHECK_VERSION (4, 14, 0)
  gtk_accessible_announce (GTK_ACCESSIBLE (self), message,
                           GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
#else
  /* GTK 4.8 has no gtk_accessible_announce() and no live-region property,
   * and a label whose text changes out of the focus is not read by Orca.
   * What Orca does read, in every version since 3.x, is a change of the
   * accessible description of the object that has the focus: its default
   * script presents object:property-change:accessible-description events
   * whose source is the locus of focus (Orca 43, in Debian 12, requires
   * exactly that object; newer versions also take an ancestor of it).
   *
   * So the announcement becomes, for a moment, the description of the
   * focused widget, when that widget has no description of its own (the
   * composer's entry, the inline editor, this view's own buttons and
   * labels; see may_describe()); otherwise, or when nothing has the
   * focus, of the window, which newer Orca reads as an ancestor of the
   * focus. The description is taken away again after ANNOUNCE_CLEAR_MS,
   * long enough for the event to have been delivered (Orca speaks the
   * event's own copy of the text), so that it is not read again as part
   * of the widget later; clearing it is never spoken (Orca ignores an
   * empty description). */
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus, *target;

  if (root == NULL)
    return;

  if (self->announce_timeout != 0)
    {
      g_clear_handle_id (&self->announce_timeout, g_source_remove);
      clear_announcement (self);
    }

  focus = gtk_root_get_focus (root);
  target = focus != NULL && may_describe (self, focus) ? focus : GTK_WIDGET (root);

  gtk_accessible_update_property (GTK_ACCESSIBLE (target),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message,
                                  -1);
  g_weak_ref_set (&self->announce_target, target);
  self->announce_timeout = g_timeout_add (ANNOUNCE_CLEAR_MS, clear_announcement, self);
#endif
}

static char *
truncate_for_speech (const char *text)
{
  const char *end;

  if (g_utf8_strlen (text, -1) <= ANNOUNCE_MAX_CHARS)
    return g_strdup (text);

  end = g_utf8_offset_to_pointer (text, ANNOUNCE_MAX_CHARS);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

/* The text of a finished reply, as it is read out: its text runs without
 * Markdown, and the fallback of its components. */
static char *
reply_speech_text (AkcChatView *self,
                   AkcMessage  *message)
{
  g_autoptr(GListModel) presentations = akc_present_message (message, self->manifest);
  g_autoptr(GString) speech = g_string_new (NULL);
  guint n = g_list_model_get_n_items (presentations);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, i);
      g_autofree char *part = NULL;
      gsize length;
      const char *text = akc_presentation_get_text (presentation, &length);

      if (akc_presentation_get_kind (presentation) == AKC_PRESENTATION_MESSAGE)
        part = akc_markdown_to_plain_text (text, length);
      else
        part = akc_display_text (text, (gssize) length);

      if (*part == '\0')
        continue;
      if (speech->len > 0)
        g_string_append_c (speech, '\n');
      g_string_append (speech, part);
    }

  return g_string_free (g_steal_pointer (&speech), FALSE);
}

static gboolean
announce_turn_end (gpointer user_data)
{
  AkcChatView *self = user_data;
  g_autoptr(AkcMessage) last = NULL;
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *announcement = NULL;
  AkcDiagnostic *error;
  guint n;

  self->announce_idle = 0;

  if (self->messages == NULL || (n = g_list_model_get_n_items (self->messages)) == 0)
    return G_SOURCE_REMOVE;

  last = g_list_model_get_item (self->messages, n - 1);
  if (akc_message_get_role (last) != AKC_MESSAGE_ROLE_ASSISTANT)
    return G_SOURCE_REMOVE;

  error = akc_chat_source_get_error (self->source);
  if (akc_message_get_status (last) == AKC_MESSAGE_STATUS_ERROR || error != NULL)
    {
      /* Translators: read out when a reply fails; %s is why. */
      announcement = g_strdup_printf (_("The reply failed: %s"),
                                      error != NULL ? akc_diagnostic_get_message (error) : _("No answer"));
    }
  else if (akc_message_get_stopped (last))
    {
      announcement = g_strdup (_("Reply stopped"));
    }
  else
    {
      text = reply_speech_text (self, last);
      if (*text == '\0')
        return G_SOURCE_REMOVE;
      shown = truncate_for_speech (text);
      /* Translators: read out when a reply is finished; %s is its text. */
      announcement = g_strdup_printf (_("Assistant: %s"), shown);
    }

  akc_chat_view_announce (self, announcement);

  return G_SOURCE_REMOVE;
}

/* -------------------------------------------------------------------- */
/* Sticky scrolling                                                     */
/* -------------------------------------------------------------------- */

static double
bottom_value (GtkAdjustment *adjustment)
{
  return MAX (gtk_adjustment_get_lower (adjustment),
              gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
}

static void
set_at_bottom (AkcChatView *self,
               gboolean     at_bottom)
{
  gtk_widget_set_visible (self->jump_button, !at_bottom);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.jump-to-newest", !at_bottom);

  if (self->at_bottom == at_bottom)
    return;

  self->at_bottom = at_bottom;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_AT_BOTTOM]);
}

static void
scroll_to_end (AkcChatView *self)
{
  if (self->vadjustment == NULL)
    return;

  gtk_adjustment_set_value (self->vadjustment, bottom_value (self->vadjustment));
}

static void schedule_follow (AkcChatView *self);

static void scan_conversation (AkcChatView *self);

static void
run_deferred (AkcChatView *self)
{
  if (self->scan_pending)
    {
      self->scan_pending = FALSE;
      scan_conversation (self);
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

static void
on_after_paint (AkcChatView *self)
{
  run_deferred (self);
}

/* Work that can wait until the frame being prepared is on screen: paging
 * in older history, and passes over a whole conversation that was just
 * loaded. Never from within a layout pass: the list view must not change
 * under itself. */
static void
defer (AkcChatView *self)
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
  defer (self);
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
        set_at_bottom (self, at_bottom);
      return;
    }

  /* The reader moved (or we did): follow new content only from the end. */
  self->stick_to_bottom = at_bottom;
  set_at_bottom (self, at_bottom);

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
    scroll_to_end (self);

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
      set_at_bottom (self, TRUE);
    }
  else
    {
      set_at_bottom (self, gtk_adjustment_get_value (adjustment) >= bottom_value (adjustment) - BOTTOM_SLACK);
    }
}

static void
track_vadjustment (AkcChatView *self)
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

/* -------------------------------------------------------------------- */
/* Input ownership (§12.4)                                              */
/* -------------------------------------------------------------------- */

static void
apply_active_to_row (AkcChatView   *self,
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

static void akc_chat_view_sync_actions (AkcChatView *self);

static gboolean
focus_active_idle (gpointer user_data)
{
  AkcChatView *self = user_data;

  self->active_idle = 0;
  if (self->focus_active_pending)
    focus_active_component (self);

  return G_SOURCE_REMOVE;
}

static void
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
    apply_active_to_row (self, row);

  /* A new owner takes the keyboard; one scrolled away is brought in. */
  if (self->active_message != NULL &&
      (self->active_message != previous_message || self->active_presentation != previous_presentation))
    {
      if (!focus_active_component (self))
        {
          self->focus_active_pending = TRUE;
          akc_message_window_include (self->window, message_position);
          gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                      message_position - akc_message_window_get_start (self->window));
        }
    }

  if (was_owned != (self->active_message != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_INPUT_OWNED]);
}

/* -------------------------------------------------------------------- */
/* Actions                                                              */
/* -------------------------------------------------------------------- */

static void
set_action_error (AkcChatView *self,
                  const char  *message)
{
  if (g_strcmp0 (self->action_error, message) == 0)
    return;

  g_free (self->action_error);
  self->action_error = g_strdup (message);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ACTION_ERROR]);
  akc_chat_view_sync_extras (self);

  if (message != NULL)
    akc_chat_view_announce (self, message);
}

/* §12.3: the error of a failed lifecycle operation, or the fixed text. */
static void
fail_action (AkcChatView  *self,
             const GError *error,
             const char   *fallback)
{
  set_action_error (self, error != NULL && error->message != NULL && *error->message != '\0'
                          ? error->message : fallback);
}

static gboolean
lifecycle_targets (AkcChatView  *self,
                   char        **user_id,
                   char        **assistant_id)
{
  if (self->messages == NULL)
    return FALSE;

  return akc_get_lifecycle_targets (self->messages, user_id, assistant_id) &&
         user_id != NULL && *user_id != NULL;
}

static void
akc_chat_view_sync_actions (AkcChatView *self)
{
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  gboolean streaming = akc_chat_view_is_streaming (self);
  gboolean has_user = !streaming && lifecycle_targets (self, &user_id, &assistant_id);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.stop", streaming);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.retry", has_user && !self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.regenerate",
                                 has_user && assistant_id != NULL && !self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.edit", has_user && !self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.save-edit", self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.cancel-edit", self->editing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.approve", self->source != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.deny", self->source != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.set-aside",
                                 !streaming && self->active_instance_id != NULL);
}

static void
set_editing (AkcChatView *self,
             gboolean     editing,
             const char  *message_id,
             const char  *draft)
{
  if (!editing && !self->editing)
    return;

  self->editing = editing;
  g_free (self->edit_message_id);
  self->edit_message_id = g_strdup (editing ? message_id : NULL);
  g_free (self->edit_draft);
  self->edit_draft = g_strdup (editing ? draft : NULL);
  self->focus_editor_pending = editing;

  /* A new item: the row is made again, as the editor or the buttons. */
  g_clear_object (&self->actions_item);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EDITING]);
  akc_chat_view_sync (self);

  if (editing)
    {
      self->stick_to_bottom = TRUE;
      scroll_to_end (self);
    }
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  akc_chat_source_stop (self->source);
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autoptr(GError) error = NULL;

  set_action_error (self, NULL);
  if (!akc_chat_source_retry (self->source, &error))
    fail_action (self, error, _("Lifecycle operation failed."));
}

static void
regenerate_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  g_autoptr(GError) error = NULL;

  set_action_error (self, NULL);
  if (!lifecycle_targets (self, &user_id, &assistant_id) || assistant_id == NULL)
    {
      fail_action (self, NULL, _("Lifecycle operation failed."));
      return;
    }

  if (!akc_chat_source_regenerate (self->source, assistant_id, &error))
    fail_action (self, error, _("Lifecycle operation failed."));
}

static AkcMessage *
find_message (AkcChatView *self,
              const char  *id)
{
  guint n = g_list_model_get_n_items (self->messages);

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i - 1);

      if (g_strcmp0 (akc_message_get_id (message), id) == 0)
        return g_steal_pointer (&message);
    }

  return NULL;
}

static void
edit_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autofree char *user_id = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autofree char *draft = NULL;

  set_action_error (self, NULL);
  if (!lifecycle_targets (self, &user_id, NULL) || (message = find_message (self, user_id)) == NULL)
    return;

  draft = akc_display_text (akc_message_get_content (message), (gssize) akc_message_get_content_length (message));
  set_editing (self, TRUE, user_id, draft);
}

static void
save_edit_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *message_id = NULL;
  g_autofree char *text = NULL;

  /* §12.3: saving blank text is ignored (the editor stays open). */
  if (!self->editing || akc_is_blank_input (self->edit_draft))
    return;

  message_id = g_strdup (self->edit_message_id);
  text = g_strdup (self->edit_draft);

  set_action_error (self, NULL);
  set_editing (self, FALSE, NULL, NULL);
  if (!akc_chat_source_edit (self->source, message_id, text, &error))
    fail_action (self, error, _("Lifecycle operation failed."));
}

static void
cancel_edit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  set_editing (AKC_CHAT_VIEW (widget), FALSE, NULL, NULL);
}

static void
jump_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  akc_chat_view_scroll_to_bottom (AKC_CHAT_VIEW (widget));
}

/* The record of a tool call the coordinator proposed, if any. */
static AkcConfirmationRecord *
lookup_record (AkcChatView *self,
               const char  *tool_call_id)
{
  if (self->confirmation == NULL)
    return NULL;

  return akc_action_confirmation_get_by_tool_call (self->confirmation, tool_call_id);
}

typedef struct
{
  AkcChatView *view;
  gboolean     approve;
} Resolution;

static void
on_confirmation_resolved (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  Resolution *resolution = user_data;
  AkcActionConfirmation *confirmation = AKC_ACTION_CONFIRMATION (source);
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  if (resolution->approve)
    record = akc_action_confirmation_approve_finish (confirmation, result, &error);
  else
    record = akc_action_confirmation_reject_finish (confirmation, result, &error);

  if (record == NULL)
    fail_action (resolution->view, error,
                 resolution->approve ? _("Action approval failed.") : _("Action rejection failed."));

  g_object_unref (resolution->view);
  g_free (resolution);
}

/* Through the coordinator when it proposed the call (§5.2: single-flight,
 * expiry, tokens bound to the session); the source's own approve and deny
 * otherwise. */
static void
resolve_tool_call (AkcChatView *self,
                   const char  *tool_call_id,
                   gboolean     approve)
{
  g_autoptr(AkcConfirmationRecord) record = lookup_record (self, tool_call_id);
  g_autoptr(GError) error = NULL;
  Resolution *resolution;

  set_action_error (self, NULL);

  if (record == NULL)
    {
      gboolean ok = approve
                    ? akc_chat_source_approve (self->source, tool_call_id, &error)
                    /* No reason: the controller records the upstream default (§12.8). */
                    : akc_chat_source_deny (self->source, tool_call_id, NULL, &error);

      if (!ok)
        fail_action (self, error, approve ? _("Action approval failed.") : _("Action rejection failed."));
      return;
    }

  resolution = g_new0 (Resolution, 1);
  resolution->view = g_object_ref (self);
  resolution->approve = approve;
  if (approve)
    akc_action_confirmation_approve_async (self->confirmation,
                                           akc_confirmation_record_get_token (record),
                                           akc_action_confirmation_get_session_id (self->confirmation),
                                           NULL, on_confirmation_resolved, resolution);
  else
    akc_action_confirmation_reject_async (self->confirmation,
                                          akc_confirmation_record_get_token (record),
                                          akc_action_confirmation_get_session_id (self->confirmation),
                                          NULL, NULL, on_confirmation_resolved, resolution);
}

/* Escape on a component that owns input sets it aside without an answer:
 * it becomes inert, as if resolved, and input returns to the host (the
 * composer). A choice whose action was denied can be left this way. */
static void
set_aside_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  g_autofree char *instance_id = g_strdup (self->active_instance_id);

  if (instance_id != NULL)
    akc_input_ownership_mark_resolved (self->ownership, instance_id);
}

static void
approve_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  resolve_tool_call (AKC_CHAT_VIEW (widget), g_variant_get_string (parameter, NULL), TRUE);
}

static void
deny_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  resolve_tool_call (AKC_CHAT_VIEW (widget), g_variant_get_string (parameter, NULL), FALSE);
}

/* -------------------------------------------------------------------- */
/* Rows below the messages                                              */
/* -------------------------------------------------------------------- */

static const char *
error_text (AkcChatView *self)
{
  AkcDiagnostic *error = self->source != NULL ? akc_chat_source_get_error (self->source) : NULL;

  /* §12.1: the chat error, else the last local action error. */
  if (error != NULL)
    return akc_diagnostic_get_message (error);

  return self->action_error;
}

static gboolean
actions_visible (AkcChatView *self)
{
  g_autofree char *user_id = NULL;

  return !akc_chat_view_is_streaming (self) && lifecycle_targets (self, &user_id, NULL);
}

static void scan_tool_calls (AkcChatView *self);

static void
on_watched_call_changed (AkcChatView *self)
{
  scan_tool_calls (self);
  akc_chat_view_sync_extras (self);
}

static void
unwatch_calls (AkcChatView *self)
{
  for (guint i = 0; i < self->watched_calls->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->watched_calls, i), self);
  g_ptr_array_set_size (self->watched_calls, 0);
}

static void
watch_call (AkcChatView *self,
            AkcToolCall *call)
{
  if (g_ptr_array_find (self->watched_calls, call, NULL))
    return;

  g_ptr_array_add (self->watched_calls, g_object_ref (call));
  g_signal_connect_object (call, "notify::status", G_CALLBACK (on_watched_call_changed),
                           self, G_CONNECT_SWAPPED);
}

static void
on_last_tool_calls_changed (AkcChatView *self)
{
  scan_tool_calls (self);
  akc_chat_view_sync_extras (self);
}

/* The tool calls of the last message may appear while it streams. */
static void
watch_last_message (AkcChatView *self,
                    AkcMessage  *last)
{
  if (self->watched_message == last)
    return;

  if (self->watched_message != NULL)
    {
      g_signal_handlers_disconnect_by_data (akc_message_get_tool_calls (self->watched_message), self);
      g_clear_object (&self->watched_message);
    }

  if (last != NULL)
    {
      self->watched_message = g_object_ref (last);
      g_signal_connect_object (akc_message_get_tool_calls (last), "items-changed",
                               G_CALLBACK (on_last_tool_calls_changed), self, G_CONNECT_SWAPPED);
    }
}

/* §12.1, §12.8: every tool call of any message that waits for a
 * confirmation, in order; and the calls to watch for changes. A pass over
 * the whole conversation: done when the messages change, not on every
 * status change. */
static void
scan_tool_calls (AkcChatView *self)
{
  g_autoptr(AkcMessage) last = NULL;
  guint n_messages = self->messages != NULL ? g_list_model_get_n_items (self->messages) : 0;

  unwatch_calls (self);
  g_ptr_array_set_size (self->pending_calls, 0);

  for (guint i = 0; i < n_messages; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (self->messages, i);
      GListModel *calls = akc_message_get_tool_calls (message);
      guint n_calls = g_list_model_get_n_items (calls);

      for (guint j = 0; j < n_calls; j++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, j);

          if (i + 1 == n_messages)
            watch_call (self, call);

          if (akc_tool_call_get_status (call) != AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION)
            continue;

          watch_call (self, call);
          g_ptr_array_add (self->pending_calls, g_steal_pointer (&call));
        }

      if (i + 1 == n_messages)
        last = g_steal_pointer (&message);
    }
  watch_last_message (self, last);
}

static void
akc_chat_view_sync_extras (AkcChatView *self)
{
  g_autoptr(GPtrArray) wanted = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_old, n_new, prefix = 0, suffix = 0;
  const char *error;

  for (guint i = 0; i < self->pending_calls->len; i++)
    g_ptr_array_add (wanted, g_object_ref (g_ptr_array_index (self->pending_calls, i)));

  if (self->thinking_shown)
    {
      if (self->thinking_item == NULL)
        self->thinking_item = gtk_string_object_new (EXTRA_THINKING);
      g_ptr_array_add (wanted, g_object_ref (self->thinking_item));
    }

  error = error_text (self);
  if (error != NULL)
    {
      /* A new text is a new item, so the row is bound again. */
      if (self->error_item == NULL || g_strcmp0 (g_object_get_data (G_OBJECT (self->error_item), "text"), error) != 0)
        {
          g_clear_object (&self->error_item);
          self->error_item = gtk_string_object_new (EXTRA_ERROR);
          g_object_set_data_full (G_OBJECT (self->error_item), "text", g_strdup (error), g_free);
        }
      g_ptr_array_add (wanted, g_object_ref (self->error_item));
    }
  else
    {
      g_clear_object (&self->error_item);
    }

  if (actions_visible (self) || self->editing)
    {
      if (self->actions_item == NULL)
        self->actions_item = gtk_string_object_new (EXTRA_ACTIONS);
      g_ptr_array_add (wanted, g_object_ref (self->actions_item));
    }
  else
    {
      g_clear_object (&self->actions_item);
    }

  /* Change only what differs, so that unchanged rows stay bound. */
  n_old = g_list_model_get_n_items (G_LIST_MODEL (self->extras));
  n_new = wanted->len;
  while (prefix < MIN (n_old, n_new))
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->extras), prefix);

      if (item != g_ptr_array_index (wanted, prefix))
        break;
      prefix++;
    }
  while (suffix < MIN (n_old, n_new) - prefix)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (self->extras), n_old - 1 - suffix);

      if (item != g_ptr_array_index (wanted, n_new - 1 - suffix))
        break;
      suffix++;
    }

  if (prefix + suffix < n_old || prefix + suffix < n_new)
    g_list_store_splice (self->extras, prefix, n_old - prefix - suffix,
                         wanted->pdata + prefix, n_new - prefix - suffix);
}

static gboolean
show_thinking (gpointer user_data)
{
  AkcChatView *self = user_data;

  self->thinking_timeout = 0;
  self->thinking_shown = TRUE;
  akc_chat_view_sync_extras (self);

  return G_SOURCE_REMOVE;
}

static void
akc_chat_view_sync_thinking (AkcChatView *self)
{
  if (akc_chat_view_is_streaming (self))
    {
      if (!self->thinking_shown && self->thinking_timeout == 0)
        self->thinking_timeout = g_timeout_add (THINKING_DELAY_MS, show_thinking, self);
      return;
    }

  g_clear_handle_id (&self->thinking_timeout, g_source_remove);
  self->thinking_shown = FALSE;
}

static GtkWidget *
new_button (const char *label,
            const char *accessible_label,
            const char *tooltip,
            const char *action,
            GVariant   *target)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *face;

  /* The face of the button; its name is @accessible_label alone (GTK 4.8
   * would append the text of a child label to the name). */
  face = g_object_new (GTK_TYPE_LABEL,
                       "label", label,
                       "use-underline", TRUE,
                       "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                       NULL);
  gtk_label_set_mnemonic_widget (GTK_LABEL (face), button);
  gtk_button_set_child (GTK_BUTTON (button), face);
  /* A mnemonic label also labels its widget for assistive technologies,
   * which would read "Retry response Retry". */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  if (target != NULL)
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), target);
  if (tooltip != NULL)
    gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label,
                                  -1);
  return button;
}

static void
on_mapped_take_focus (GtkWidget *widget)
{
  g_signal_handlers_disconnect_by_func (widget, on_mapped_take_focus, NULL);
  gtk_widget_grab_focus (widget);
}

/* Gives @widget the keyboard once it is on screen. */
static void
focus_when_mapped (GtkWidget *widget)
{
  if (gtk_widget_get_mapped (widget))
    gtk_widget_grab_focus (widget);
  else
    g_signal_connect (widget, "map", G_CALLBACK (on_mapped_take_focus), NULL);
}

static GtkWidget *
build_confirmation (AkcChatView *self,
                    AkcToolCall *call)
{
  GtkWidget *box, *header, *name, *status, *arguments, *buttons, *button;
  g_autofree char *json = NULL;
  g_autofree char *title = NULL;
  const char *tool = akc_tool_call_get_name (call);
  GVariant *target = g_variant_new_string (akc_tool_call_get_id (call));

  g_variant_ref_sink (target);

  box = g_object_new (GTK_TYPE_BOX,
                      "orientation", GTK_ORIENTATION_VERTICAL,
                      "spacing", 8,
                      "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                      NULL);
  gtk_widget_add_css_class (box, "tool-confirmation");

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  name = g_object_new (GTK_TYPE_LABEL,
                       "label", tool,
                       "xalign", 0.0f,
                       "hexpand", TRUE,
                       "wrap", TRUE,
                       "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                       "wrap-mode", PANGO_WRAP_WORD_CHAR,
                       "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING,
                       NULL);
  gtk_widget_add_css_class (name, "heading");
  gtk_box_append (GTK_BOX (header), name);
  status = gtk_label_new (_("Requires confirmation"));
  gtk_widget_add_css_class (status, "status-badge");
  gtk_box_append (GTK_BOX (header), status);
  gtk_box_append (GTK_BOX (box), header);

  /* §12.8: the arguments as 2-space pretty JSON, verbatim. */
  json = akc_tool_call_get_arguments (call) != NULL
         ? akc_component_dup_pretty_json (akc_tool_call_get_arguments (call))
         : g_strdup ("{}");
  arguments = g_object_new (GTK_TYPE_LABEL,
                            "label", json,
                            "xalign", 0.0f,
                            "selectable", TRUE,
                            "wrap", TRUE,
                            "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                            "wrap-mode", PANGO_WRAP_CHAR,
                            NULL);
  gtk_widget_add_css_class (arguments, "monospace");
  gtk_widget_add_css_class (arguments, "json");
  gtk_box_append (GTK_BOX (box), arguments);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  button = new_button (_("_Deny"), _("Deny"), NULL, "chat.deny", target);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_box_append (GTK_BOX (buttons), button);
  /* The confirmation of a call the person just chose takes the keyboard,
   * on the safe choice: Tab reaches Approve (Alt+A approves). */
  if (g_strcmp0 (self->focus_call_id, akc_tool_call_get_id (call)) == 0)
    {
      g_clear_pointer (&self->focus_call_id, g_free);
      focus_when_mapped (button);
    }
  button = new_button (_("_Approve"), _("Approve"), NULL, "chat.approve", target);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_box_append (GTK_BOX (buttons), button);
  gtk_box_append (GTK_BOX (box), buttons);

  /* Translators: the accessible name of a tool call that waits for the
   * person's approval; %s is the tool's name. */
  title = g_strdup_printf (_("Allow %s?"), tool);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, json,
                                  -1);
  g_variant_unref (target);

  return box;
}

static GtkWidget *
build_thinking (void)
{
  GtkWidget *box, *spinner, *label;

  box = g_object_new (GTK_TYPE_BOX,
                      "spacing", 8,
                      "accessible-role", GTK_ACCESSIBLE_ROLE_STATUS,
                      NULL);
  gtk_widget_add_css_class (box, "thinking");
  gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Thinking..."),
                                  -1);

  spinner = gtk_spinner_new ();
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_box_append (GTK_BOX (box), spinner);
  label = gtk_label_new (_("Thinking..."));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), label);

  return box;
}

static GtkWidget *
build_error (AkcChatView *self,
             const char  *text)
{
  GtkWidget *box, *icon, *label, *button;

  box = g_object_new (GTK_TYPE_BOX,
                      "spacing", 12,
                      "accessible-role", GTK_ACCESSIBLE_ROLE_ALERT,
                      NULL);
  gtk_widget_add_css_class (box, "error-area");
  gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Error"),
                                  -1);

  icon = g_object_new (GTK_TYPE_IMAGE,
                       "icon-name", "dialog-error-symbolic",
                       "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                       NULL);
  gtk_box_append (GTK_BOX (box), icon);

  label = g_object_new (GTK_TYPE_LABEL,
                        "label", text,
                        "hexpand", TRUE,
                        "xalign", 0.0f,
                        "wrap", TRUE,
                        "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                        "wrap-mode", PANGO_WRAP_WORD_CHAR,
                        "selectable", TRUE,
                        NULL);
  gtk_box_append (GTK_BOX (box), label);

  button = new_button (_("_Retry"), _("Retry response"), _("Retry response (Ctrl+R)"), "chat.retry", NULL);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), button);

  return box;
}

static void
on_editor_changed (GtkTextBuffer *buffer,
                   AkcChatView   *self)
{
  GtkTextIter start, end;

  if (!self->editing)
    return;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  g_free (self->edit_draft);
  self->edit_draft = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.save-edit", !akc_is_blank_input (self->edit_draft));
}

static gboolean
on_editor_key_pressed (GtkEventControllerKey *controller,
                       guint                  keyval,
                       guint                  keycode,
                       GdkModifierType        state,
                       AkcChatView           *self)
{
  if (keyval == GDK_KEY_Escape)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "chat.cancel-edit", NULL);
      return GDK_EVENT_STOP;
    }

  /* Like the composer: Enter saves, Shift+Enter is a new line. */
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "chat.save-edit", NULL);
      return GDK_EVENT_STOP;
    }

  return GDK_EVENT_PROPAGATE;
}

static gboolean
focus_editor (gpointer user_data)
{
  AkcChatView *self = user_data;
  g_autoptr(GtkWidget) editor = g_weak_ref_get (&self->editor);

  self->focus_idle = 0;
  if (editor != NULL && self->focus_editor_pending && gtk_widget_grab_focus (editor))
    self->focus_editor_pending = FALSE;

  return G_SOURCE_REMOVE;
}

static void
on_editor_map (GtkWidget   *editor,
               AkcChatView *self)
{
  if (!self->focus_editor_pending)
    return;

  /* The row is mapped while the list lays its rows out: move the focus
   * once that is done. */
  g_weak_ref_set (&self->editor, editor);
  if (self->focus_idle == 0)
    self->focus_idle = g_idle_add (focus_editor, self);
}

static GtkWidget *
build_actions (AkcChatView *self)
{
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  GtkWidget *box, *buttons, *button, *frame, *editor;
  GtkEventController *keys;
  GtkTextBuffer *buffer;

  box = g_object_new (GTK_TYPE_BOX,
                      "orientation", GTK_ORIENTATION_VERTICAL,
                      "spacing", 8,
                      "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                      NULL);
  gtk_widget_add_css_class (box, "response-actions");

  if (self->editing)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Edit message"),
                                      -1);

      frame = gtk_frame_new (NULL);
      gtk_widget_add_css_class (frame, "editor-frame");
      editor = g_object_new (GTK_TYPE_TEXT_VIEW,
                             "wrap-mode", GTK_WRAP_WORD_CHAR,
                             "accepts-tab", FALSE,
                             "top-margin", 8, "bottom-margin", 8,
                             "left-margin", 10, "right-margin", 10,
                             NULL);
      gtk_accessible_update_property (GTK_ACCESSIBLE (editor),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Edit message"),
                                      GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE,
                                      -1);
      buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));
      gtk_text_buffer_set_text (buffer, self->edit_draft != NULL ? self->edit_draft : "", -1);
      g_signal_connect_object (buffer, "changed", G_CALLBACK (on_editor_changed), self, 0);
      keys = gtk_event_controller_key_new ();
      g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_editor_key_pressed), self, 0);
      gtk_widget_add_controller (editor, keys);
      g_signal_connect_object (editor, "map", G_CALLBACK (on_editor_map), self, 0);
      gtk_frame_set_child (GTK_FRAME (frame), editor);
      gtk_box_append (GTK_BOX (box), frame);

      buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      gtk_widget_set_halign (buttons, GTK_ALIGN_END);
      button = new_button (_("_Cancel"), _("Cancel edit"), _("Cancel (Escape)"), "chat.cancel-edit", NULL);
      gtk_box_append (GTK_BOX (buttons), button);
      button = new_button (_("_Save"), _("Save edit"), _("Save and Answer Again (Enter)"), "chat.save-edit", NULL);
      gtk_widget_add_css_class (button, "suggested-action");
      gtk_box_append (GTK_BOX (buttons), button);
      gtk_box_append (GTK_BOX (box), buttons);

      return box;
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Response actions"),
                                  -1);
  lifecycle_targets (self, &user_id, &assistant_id);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  button = new_button (_("_Retry"), _("Retry response"), _("Retry response (Ctrl+R)"), "chat.retry", NULL);
  gtk_widget_add_css_class (button, "flat");
  gtk_box_append (GTK_BOX (buttons), button);
  if (assistant_id != NULL)
    {
      button = new_button (_("Re_generate"), _("Regenerate response"),
                           _("Regenerate Response (Ctrl+Shift+R)"), "chat.regenerate", NULL);
      gtk_widget_add_css_class (button, "flat");
      gtk_box_append (GTK_BOX (buttons), button);
    }
  button = new_button (_("_Edit Last Message"), _("Edit last message"),
                       _("Edit Last Message (Ctrl+E)"), "chat.edit", NULL);
  gtk_widget_add_css_class (button, "flat");
  gtk_box_append (GTK_BOX (buttons), button);
  gtk_box_append (GTK_BOX (box), buttons);

  return box;
}

/* -------------------------------------------------------------------- */
/* Rows                                                                 */
/* -------------------------------------------------------------------- */

static void
on_row_interaction (AkcMessageRow    *row,
                    AkcComponentView *view,
                    AkcJsonValue     *event,
                    AkcChatView      *self)
{
  g_signal_emit (self, signals[COMPONENT_INTERACTION], 0, view, event);
}

typedef struct
{
  AkcChatView      *view;
  AkcComponentView *component;
} Proposal;

static void focus_when_mapped (GtkWidget *widget);

/* The Deny button of the confirmation of @call_id, if it is built. */
static GtkWidget *
find_deny_button (GtkWidget  *widget,
                  const char *call_id)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "chat.deny") == 0)
    {
      GVariant *target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (widget));

      if (target != NULL && g_strcmp0 (g_variant_get_string (target, NULL), call_id) == 0)
        return widget;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_deny_button (child, call_id);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
on_choice_action_proposed (GObject      *source,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  Proposal *proposal = user_data;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  record = akc_action_confirmation_propose_finish (AKC_ACTION_CONFIRMATION (source), result, &error);
  /* A denied or malformed proposal un-resolves the choice so the person
   * can try again (§12.7 step 4). */
  if (record == NULL)
    akc_component_view_fail (proposal->component, AKC_COMPONENT_FAILURE_ACTION_PROPOSAL,
                             error != NULL && error->message[0] != '\0' ? error->message : NULL);
  else if (akc_confirmation_record_get_status (record) == AKC_CONFIRMATION_STATUS_PENDING)
    {
      /* The person chose the action: its confirmation is the next step,
       * shown already or about to be. */
      const char *call_id = akc_confirmation_record_get_tool_call_id (record);
      GtkWidget *deny = find_deny_button (GTK_WIDGET (proposal->view), call_id);

      g_free (proposal->view->focus_call_id);
      proposal->view->focus_call_id = NULL;
      if (deny != NULL)
        focus_when_mapped (deny);
      else
        proposal->view->focus_call_id = g_strdup (call_id);
    }

  g_object_unref (proposal->component);
  g_object_unref (proposal->view);
  g_free (proposal);
}

/* §12.7 selection: the host's handlers first, then a choice's typed action
 * is proposed through the confirmation coordinator, where it waits for
 * the person's approval. */
static void
on_row_selection (AkcMessageRow    *row,
                  AkcComponentView *view,
                  AkcJsonValue     *event,
                  AkcChatView      *self)
{
  AkcResolvedComponent *resolved = akc_component_view_get_resolved_component (view);
  AkcJsonValue *choice = akc_json_value_get_member (event, "choiceId");
  AkcJsonValue *action = NULL;
  Proposal *proposal;

  g_signal_emit (self, signals[COMPONENT_SELECTION], 0, view, event);

  if (self->confirmation == NULL || resolved == NULL || choice == NULL ||
      akc_json_value_get_kind (choice) != AKC_JSON_KIND_STRING)
    return;

  action = akc_resolved_component_get_choice_action (resolved, akc_json_value_get_string (choice, NULL));
  if (action == NULL)
    return;

  set_action_error (self, NULL);
  proposal = g_new0 (Proposal, 1);
  proposal->view = g_object_ref (self);
  proposal->component = g_object_ref (view);
  akc_action_confirmation_propose_async (self->confirmation,
                                         akc_json_value_get_string (akc_json_value_get_member (action, "name"), NULL),
                                         akc_json_value_get_member (action, "input"),
                                         NULL, on_choice_action_proposed, proposal);
}

static GtkWidget *
new_row (AkcChatView *self)
{
  GtkWidget *row = akc_message_row_new ();

  akc_message_row_set_ownership (AKC_MESSAGE_ROW (row), self->ownership);
  g_signal_connect_object (row, "component-interaction", G_CALLBACK (on_row_interaction), self, 0);
  g_signal_connect_object (row, "component-selection", G_CALLBACK (on_row_selection), self, 0);

  return row;
}

static void
factory_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               AkcChatView              *self)
{
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
}

static void
factory_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              AkcChatView              *self)
{
  GObject *object = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  const char *kind;

  if (AKC_IS_MESSAGE (object))
    {
      /* Rows are recycled; the extras below are few and made anew. */
      if (!AKC_IS_MESSAGE_ROW (child))
        {
          child = new_row (self);
          gtk_list_item_set_child (item, child);
        }

      self->n_binds++;
      akc_message_row_set_manifest (AKC_MESSAGE_ROW (child), self->manifest);
      akc_message_row_set_message (AKC_MESSAGE_ROW (child), AKC_MESSAGE (object));
      g_hash_table_add (self->rows, child);
      apply_active_to_row (self, AKC_MESSAGE_ROW (child));

      /* Not while the list lays its rows out. */
      if (self->focus_active_pending && AKC_MESSAGE (object) == self->active_message && self->active_idle == 0)
        self->active_idle = g_idle_add (focus_active_idle, self);
      return;
    }

  if (AKC_IS_TOOL_CALL (object))
    {
      gtk_list_item_set_child (item, build_confirmation (self, AKC_TOOL_CALL (object)));
      return;
    }

  kind = gtk_string_object_get_string (GTK_STRING_OBJECT (object));
  if (g_str_equal (kind, EXTRA_THINKING))
    gtk_list_item_set_child (item, build_thinking ());
  else if (g_str_equal (kind, EXTRA_ERROR))
    gtk_list_item_set_child (item, build_error (self, g_object_get_data (object, "text")));
  else
    gtk_list_item_set_child (item, build_actions (self));
}

static void
factory_unbind (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                AkcChatView              *self)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (AKC_IS_MESSAGE_ROW (child))
    {
      g_hash_table_remove (self->rows, child);
      akc_message_row_set_message (AKC_MESSAGE_ROW (child), NULL);
    }
}

static void
factory_teardown (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  AkcChatView              *self)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (child != NULL)
    g_hash_table_remove (self->rows, child);
}

/* -------------------------------------------------------------------- */
/* The source                                                           */
/* -------------------------------------------------------------------- */

static void
akc_chat_view_sync (AkcChatView *self)
{
  akc_chat_view_sync_thinking (self);
  akc_chat_view_sync_actions (self);
  akc_chat_view_sync_extras (self);
}

static void
scan_conversation (AkcChatView *self)
{
  scan_tool_calls (self);
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

  /* The person sent something: show it, wherever they were reading. */
  if (added > 0 && added <= HISTORY_PAGE && position + added == n)
    {
      for (guint i = position; i < n; i++)
        {
          g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

          if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
            {
              self->stick_to_bottom = TRUE;
              scroll_to_end (self);
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
      defer (self);
      return;
    }

  scan_tool_calls (self);
  akc_chat_view_sync (self);
  akc_chat_view_sync_ownership (self);
}

static void
on_status_changed (AkcChatView *self)
{
  AkcChatStatus status = akc_chat_source_get_status (self->source);

  if (status == AKC_CHAT_STATUS_STREAMING && self->editing)
    set_editing (self, FALSE, NULL, NULL);

  akc_chat_view_sync (self);
  akc_chat_view_sync_ownership (self);

  /* A reply ended: read it out, once, after everybody has seen the new
   * status (the composer gives the focus back to its entry). */
  if (self->status == AKC_CHAT_STATUS_STREAMING && status != AKC_CHAT_STATUS_STREAMING &&
      self->announce_idle == 0)
    self->announce_idle = g_idle_add (announce_turn_end, self);

  self->status = status;
}

static void
on_error_changed (AkcChatView *self)
{
  akc_chat_view_sync_extras (self);
}

static void
disconnect_source (AkcChatView *self)
{
  if (self->source == NULL)
    return;

  g_clear_signal_handler (&self->items_handler, self->messages);
  g_clear_signal_handler (&self->status_handler, self->source);
  g_clear_signal_handler (&self->error_handler, self->source);
  unwatch_calls (self);
  watch_last_message (self, NULL);
  self->extend_pending = FALSE;
  self->scan_pending = FALSE;
  g_ptr_array_set_size (self->pending_calls, 0);
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
}

static void
akc_chat_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  self->allocating = TRUE;
  gtk_widget_allocate (GTK_WIDGET (self->list_view), width, height, -1, NULL);
  self->allocating = FALSE;

  /* The button floats over the bottom of what is in sight. */
  if (gtk_widget_get_visible (self->jump_button))
    {
      int button_width, button_height;

      gtk_widget_measure (self->jump_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &button_width, NULL, NULL);
      gtk_widget_measure (self->jump_button, GTK_ORIENTATION_VERTICAL, button_width, NULL, &button_height, NULL, NULL);
      button_width = MIN (button_width, width);
      gtk_widget_allocate (self->jump_button, button_width, button_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT ((width - button_width) / 2.0f,
                                                                                height - button_height - JUMP_BUTTON_MARGIN)));
    }
}

/* The theme's provider is added to the display the view is on, and goes
 * with it if the view moves to another. */
static void
uninstall_theme_provider (AkcChatView *self)
{
  if (self->theme_display == NULL)
    return;

  gtk_style_context_remove_provider_for_display (self->theme_display,
                                                 GTK_STYLE_PROVIDER (self->theme_provider));
  g_clear_object (&self->theme_display);
}

static void
install_theme_provider (AkcChatView *self)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (self));

  if (self->theme_provider == NULL || display == self->theme_display)
    return;

  uninstall_theme_provider (self);
  if (display == NULL)
    return;
  gtk_style_context_add_provider_for_display (display,
                                              GTK_STYLE_PROVIDER (self->theme_provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  self->theme_display = g_object_ref (display);
}

static void
akc_chat_view_realize (GtkWidget *widget)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);
  GdkFrameClock *clock;

  GTK_WIDGET_CLASS (akc_chat_view_parent_class)->realize (widget);

  install_theme_provider (self);
  clock = gtk_widget_get_frame_clock (widget);
  self->after_paint_handler = g_signal_connect_object (clock, "after-paint",
                                                       G_CALLBACK (on_after_paint),
                                                       self, G_CONNECT_SWAPPED);
  /* Now there are frames to wait for. */
  g_clear_handle_id (&self->deferred_idle, g_source_remove);
  if (self->extend_pending || self->scan_pending)
    defer (self);
}

static void
akc_chat_view_unrealize (GtkWidget *widget)
{
  AkcChatView *self = AKC_CHAT_VIEW (widget);

  g_clear_signal_handler (&self->after_paint_handler, gtk_widget_get_frame_clock (widget));
  if (self->extend_pending || self->scan_pending)
    defer (self);

  GTK_WIDGET_CLASS (akc_chat_view_parent_class)->unrealize (widget);
}

static gboolean
akc_chat_view_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (AKC_CHAT_VIEW (widget)->list_view));
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
#if !GTK_CHECK_VERSION (4, 14, 0)
  if (self->announce_timeout != 0)
    {
      g_clear_handle_id (&self->announce_timeout, g_source_remove);
      clear_announcement (self);
    }
#endif

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
  g_clear_object (&self->active_message);
  uninstall_theme_provider (self);
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

  g_hash_table_unref (self->rows);
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
    case PROP_HADJUSTMENT:
    case PROP_VADJUSTMENT:
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY:
      /* The list view scrolls; the view only passes these on. */
      g_object_set_property (G_OBJECT (self->list_view), pspec->name, value);
      if (prop_id == PROP_VADJUSTMENT)
        track_vadjustment (self);
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
  widget_class->realize = akc_chat_view_realize;
  widget_class->unrealize = akc_chat_view_unrealize;

  /**
   * AkcChatView:source:
   *
   * The conversation the view shows.
   *
   * Since: 0.1
   */
  props[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         AKC_TYPE_CHAT_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:manifest:
   *
   * The manifest component frames resolve against, or %NULL when none is
   * configured: every frame is shown as its semantic fallback then, and
   * no component owns input (application.md §12.2, §12.4).
   *
   * Since: 0.1
   */
  props[PROP_MANIFEST] =
    g_param_spec_object ("manifest", NULL, NULL,
                         AKC_TYPE_COMPONENT_MANIFEST,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:input-owned:
   *
   * Whether a component owns the keyboard (application.md §12.4): the host
   * disables its composer while it does, and gives it the focus back when
   * it no longer does.
   *
   * Since: 0.1
   */
  props[PROP_INPUT_OWNED] =
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
  props[PROP_AT_BOTTOM] =
    g_param_spec_boolean ("at-bottom", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:editing:
   *
   * Whether the inline editor of the last user message is open
   * (application.md §12.3).
   *
   * Since: 0.1
   */
  props[PROP_EDITING] =
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
  props[PROP_ACTION_ERROR] =
    g_param_spec_string ("action-error", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:theme:
   *
   * The semantic theme the view is drawn with (application.md §6), or
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
  props[PROP_THEME] =
    g_param_spec_boxed ("theme", NULL, NULL,
                        AKC_TYPE_THEME,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChatView:confirmation:
   *
   * The coordinator that resolves the confirmations of the tool calls it
   * proposed (application.md §5.2), or %NULL. A choice with a typed
   * action proposes it through the coordinator (§12.7); the transcript's
   * Approve and Deny buttons go through it for the calls it proposed, and
   * straight to the source for the others.
   */
  props[PROP_CONFIRMATION] =
    g_param_spec_object ("confirmation", NULL, NULL,
                         AKC_TYPE_ACTION_CONFIRMATION,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /**
   * AkcChatView::component-interaction:
   * @self: the view
   * @view: the component view
   * @event: the interaction event (application.md §2.5)
   *
   * A component of the transcript emitted
   * [signal@ComponentView::interaction]. Its instance is already resolved;
   * report a failure with [method@ComponentView.fail].
   *
   * Since: 0.1
   */
  signals[COMPONENT_INTERACTION] =
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
   * @event: the selection event (application.md §2.6)
   *
   * A choice list of the transcript emitted
   * [signal@ComponentView::selection].
   *
   * Since: 0.1
   */
  signals[COMPONENT_SELECTION] =
    g_signal_new ("component-selection",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  AKC_TYPE_COMPONENT_VIEW,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_install_action (widget_class, "chat.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "chat.set-aside", NULL, set_aside_action);
  gtk_widget_class_install_action (widget_class, "chat.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "chat.regenerate", NULL, regenerate_action);
  gtk_widget_class_install_action (widget_class, "chat.edit", NULL, edit_action);
  gtk_widget_class_install_action (widget_class, "chat.save-edit", NULL, save_edit_action);
  gtk_widget_class_install_action (widget_class, "chat.cancel-edit", NULL, cancel_edit_action);
  gtk_widget_class_install_action (widget_class, "chat.jump-to-newest", NULL, jump_action);
  gtk_widget_class_install_action (widget_class, "chat.approve", "s", approve_action);
  gtk_widget_class_install_action (widget_class, "chat.deny", "s", deny_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-chat-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcChatView, list_view);
  gtk_widget_class_bind_template_child (widget_class, AkcChatView, jump_button);

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
  self->watched_calls = g_ptr_array_new_with_free_func (g_object_unref);
  self->pending_calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_weak_ref_init (&self->announce_target, NULL);
  g_weak_ref_init (&self->editor, NULL);
  self->ownership = akc_input_ownership_new ();
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

  self->factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (self->factory, "setup", G_CALLBACK (factory_setup), self);
  g_signal_connect (self->factory, "bind", G_CALLBACK (factory_bind), self);
  g_signal_connect (self->factory, "unbind", G_CALLBACK (factory_unbind), self);
  g_signal_connect (self->factory, "teardown", G_CALLBACK (factory_teardown), self);
  gtk_list_view_set_factory (self->list_view, self->factory);
  gtk_list_view_set_model (self->list_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->model)))));
  g_list_store_append (self->sections, self->extras);
  track_vadjustment (self);

  /* Shortcuts for the whole window: the conversation is what the window
   * is about, and the composer usually has the focus. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_Escape, 0, "chat.stop");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_Escape, 0, "chat.set-aside");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_r, GDK_CONTROL_MASK, "chat.retry");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_R, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "chat.regenerate");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_e, GDK_CONTROL_MASK, "chat.edit");
  add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_End, GDK_CONTROL_MASK, "chat.jump-to-newest");
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  set_at_bottom (self, TRUE);
  akc_chat_view_sync (self);
}

/**
 * akc_chat_view_new:
 *
 * Creates a view with no conversation.
 *
 * Returns: (transfer full): a new #AkcChatView
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

/**
 * akc_chat_view_set_source:
 * @self: a #AkcChatView
 * @source: (nullable): the conversation to show
 *
 * Sets the conversation the view shows. The view binds to the source's
 * messages, status and error only. A new source is a new session: the
 * resolved instances, the open editor and the errors are forgotten
 * (application.md §12.7, §12.9).
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
  akc_input_ownership_reset (self->ownership);
  set_editing (self, FALSE, NULL, NULL);
  g_clear_pointer (&self->action_error, g_free);
  self->status = AKC_CHAT_STATUS_IDLE;

  if (source != NULL)
    {
      self->source = g_object_ref (source);
      self->messages = g_object_ref (akc_chat_source_get_messages (source));
      self->status = akc_chat_source_get_status (source);
      self->window = akc_message_window_new (self->messages, FIRST_PAGE);
      g_list_store_append (self->sections, self->window);
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
    }
  g_list_store_append (self->sections, self->extras);

  self->stick_to_bottom = TRUE;
  scan_tool_calls (self);
  akc_chat_view_sync (self);
  akc_chat_view_sync_ownership (self);
  scroll_to_end (self);
  /* Anchor the list at its end before it is laid out, so the first frame
   * already shows the newest messages (the adjustment knows no size yet). */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->model)) > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                                g_list_model_get_n_items (G_LIST_MODEL (self->model)) - 1);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SOURCE]);
}

/**
 * akc_chat_view_get_confirmation:
 * @self: a #AkcChatView
 *
 * Gets the coordinator that resolves confirmations.
 *
 * Returns: (transfer none) (nullable): the coordinator, or %NULL
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
 */
void
akc_chat_view_set_confirmation (AkcChatView           *self,
                                AkcActionConfirmation *confirmation)
{
  g_return_if_fail (AKC_IS_CHAT_VIEW (self));
  g_return_if_fail (confirmation == NULL || AKC_IS_ACTION_CONFIRMATION (confirmation));

  if (g_set_object (&self->confirmation, confirmation))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONFIRMATION]);
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
 * [func@Akc.ComponentManifest.new_standard]).
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

  if (!g_set_object (&self->manifest, manifest))
    return;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    akc_message_row_set_manifest (row, manifest);
  akc_chat_view_sync_ownership (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MANIFEST]);
}

/**
 * akc_chat_view_get_input_owned:
 * @self: a #AkcChatView
 *
 * Gets whether a component owns the keyboard (application.md §12.4).
 *
 * Returns: %TRUE while the host's composer should be disabled
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_get_input_owned (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return self->active_message != NULL;
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
  scroll_to_end (self);
  set_at_bottom (self, TRUE);
}

/**
 * akc_chat_view_get_editing:
 * @self: a #AkcChatView
 *
 * Gets whether the inline editor of the last user message is open.
 *
 * Returns: %TRUE while editing
 *
 * Since: 0.1
 */
gboolean
akc_chat_view_get_editing (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), FALSE);

  return self->editing;
}

/**
 * akc_chat_view_get_action_error:
 * @self: a #AkcChatView
 *
 * Gets the message of the last failed local action.
 *
 * Returns: (nullable): the message, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_chat_view_get_action_error (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->action_error;
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

/**
 * akc_chat_view_get_theme:
 * @self: a #AkcChatView
 *
 * Gets the semantic theme of @self.
 *
 * Returns: (transfer none) (nullable): the theme, or %NULL when the view
 *   follows the platform's style
 *
 * Since: 0.1
 */
AkcTheme *
akc_chat_view_get_theme (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->theme;
}

/**
 * akc_chat_view_set_theme:
 * @self: a #AkcChatView
 * @theme: (nullable): a resolved theme, or %NULL to follow the platform's
 *   style
 *
 * Draws @self with @theme (application.md §6.4), replacing the theme it
 * had. See [property@ChatView:theme].
 *
 * Since: 0.1
 */
void
akc_chat_view_set_theme (AkcChatView *self,
                         AkcTheme    *theme)
{
  static guint n_themed_views;

  g_return_if_fail (AKC_IS_CHAT_VIEW (self));

  if (self->theme == theme ||
      (self->theme != NULL && theme != NULL && akc_theme_equal (self->theme, theme)))
    return;

  g_clear_pointer (&self->theme, akc_theme_unref);
  if (theme != NULL)
    {
      g_autofree char *css = NULL;

      self->theme = akc_theme_ref (theme);
      if (self->theme_class == NULL)
        self->theme_class = g_strdup_printf ("akc-theme-%u", ++n_themed_views);
      if (self->theme_provider == NULL)
        self->theme_provider = gtk_css_provider_new ();

      css = akc_theme_css_generate (theme, self->theme_class);
      gtk_css_provider_load_from_data (self->theme_provider, css, -1);
      install_theme_provider (self);
      gtk_widget_add_css_class (GTK_WIDGET (self), self->theme_class);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self), self->theme_class);
      uninstall_theme_provider (self);
      g_clear_object (&self->theme_provider);
    }

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_THEME]);
}

GtkCssProvider *
akc_chat_view_get_theme_provider (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->theme_provider;
}

const char *
akc_chat_view_get_theme_class (AkcChatView *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_VIEW (self), NULL);

  return self->theme_class;
}

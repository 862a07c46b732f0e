/* akc-chat-view-rows.c: the list factory and the rows below the messages
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-chat-view-private.h"
#include "akc-response-actions-private.h"
#include "akc-thinking-row-private.h"
#include "akc-chat-view-slots-private.h"
#include "akc-component-view.h"
#include "akc-gtk-main.h"
#include "akc-markdown-private.h"
#include "akc-message-row-private.h"
#include "akc-message-window-private.h"
#include "akc-theme-css-private.h"

static const char *
error_text (AkcChatView *self)
{
  AkcDiagnostic *error = self->source != NULL ? akc_chat_source_get_error (self->source) : NULL;

  /* §12.1: the chat error, else the last local action error. */
  if (error != NULL)
    return akc_diagnostic_get_message (error);

  return self->action_error;
}

/* An error stays in the transcript where it happened: while it is the
 * conversation's error it is the alert below the messages, with Retry;
 * when the next turn clears it, it goes under the message it came with. */
void
akc_chat_view_sync_error (AkcChatView *self)
{
  AkcDiagnostic *error = self->source != NULL ? akc_chat_source_get_error (self->source) : NULL;
  const char *text = error != NULL ? akc_diagnostic_get_message (error) : NULL;
  guint n = self->messages != NULL ? g_list_model_get_n_items (self->messages) : 0;

  if (g_strcmp0 (text, self->error_shown) == 0)
    return;

  if (self->error_shown != NULL && self->error_message_id != NULL)
    {
      AkcMessageRow *row = NULL;
      GHashTableIter iter;
      gpointer bound;

      g_hash_table_insert (self->past_errors, g_strdup (self->error_message_id), g_strdup (self->error_shown));
      g_hash_table_iter_init (&iter, self->rows);
      while (row == NULL && g_hash_table_iter_next (&iter, &bound, NULL))
        {
          AkcMessage *message = akc_message_row_get_message (bound);

          if (message != NULL && g_strcmp0 (akc_message_get_id (message), self->error_message_id) == 0)
            row = bound;
        }
      if (row != NULL)
        akc_message_row_set_error (row, self->error_shown);
    }

  g_clear_pointer (&self->error_message_id, g_free);
  g_free (self->error_shown);
  self->error_shown = g_strdup (text);
  if (text != NULL && n > 0)
    {
      g_autoptr(AkcMessage) last = g_list_model_get_item (self->messages, n - 1);

      self->error_message_id = g_strdup (akc_message_get_id (last));
    }
}

/* The error shown under @message: the one the view saw it end with, else
 * the one it keeps (AkcMessage:error, from the history after a restart),
 * unless that is the conversation's error, shown below the messages. */
static const char *
past_error (AkcChatView *self,
            AkcMessage  *message)
{
  const char *seen = g_hash_table_lookup (self->past_errors, akc_message_get_id (message));
  AkcDiagnostic *kept = akc_message_get_error (message);

  if (seen != NULL)
    return seen;
  if (kept == NULL || akc_message_get_status (message) != AKC_MESSAGE_STATUS_ERROR ||
      g_strcmp0 (self->error_message_id, akc_message_get_id (message)) == 0)
    return NULL;
  return akc_diagnostic_get_message (kept);
}

static gboolean
actions_visible (AkcChatView *self)
{
  g_autofree char *user_id = NULL;

  return !akc_chat_view_is_streaming (self) && akc_chat_view_lifecycle_targets (self, &user_id, NULL);
}


static void
on_watched_call_changed (AkcChatView *self)
{
  /* A call that settled is shown as its settled card now. */
  akc_chat_view_refilter (self);
  akc_chat_view_sync_rows_calls (self);
  akc_chat_view_scan_tool_calls (self);
  akc_chat_view_sync_extras (self);
}

void
akc_chat_view_unwatch_calls (AkcChatView *self)
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
  akc_chat_view_sync_rows_calls (self);
  akc_chat_view_scan_tool_calls (self);
  akc_chat_view_sync_extras (self);
}

/* The tool calls of the last message may appear while it streams. */
void
akc_chat_view_watch_last_message (AkcChatView *self,
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
void
akc_chat_view_scan_tool_calls (AkcChatView *self)
{
  g_autoptr(AkcMessage) last = NULL;
  guint n_messages = self->messages != NULL ? g_list_model_get_n_items (self->messages) : 0;

  akc_chat_view_unwatch_calls (self);
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
  akc_chat_view_watch_last_message (self, last);
}

void
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
      /* One Retry: the error's, while there is one (§12.3 issue 13). */
      gboolean retry = error == NULL;

      if (self->actions_item != NULL && self->actions_retry != retry)
        g_clear_object (&self->actions_item);
      if (self->actions_item == NULL)
        self->actions_item = gtk_string_object_new (EXTRA_ACTIONS);
      self->actions_retry = retry;
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

void
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

/* Whether the person is writing: the keyboard is in a text field that
 * holds text (the composer with a draft, a search entry, the inline
 * editor). Nothing the view moves by itself takes the keyboard from it:
 * what they type stays theirs, and Space or Enter would answer. */
static gboolean
person_is_writing (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (GTK_IS_TEXT_VIEW (focus))
    return gtk_text_buffer_get_char_count (gtk_text_view_get_buffer (GTK_TEXT_VIEW (focus))) > 0;
  if (GTK_IS_EDITABLE (focus))
    {
      const char *text = gtk_editable_get_text (GTK_EDITABLE (focus));

      return text != NULL && *text != '\0';
    }

  return FALSE;
}

static void
take_focus (GtkWidget *widget)
{
  if (!person_is_writing (widget) && gtk_widget_grab_focus (widget))
    akc_chat_view_show_focus (widget);
}

static void
on_mapped_take_focus (GtkWidget *widget)
{
  g_signal_handlers_disconnect_by_func (widget, on_mapped_take_focus, NULL);
  take_focus (widget);
}

/* Gives @widget the keyboard once it is on screen, unless the person is
 * writing then. */
void
akc_chat_view_focus_when_mapped (GtkWidget *widget)
{
  g_signal_handlers_disconnect_by_func (widget, on_mapped_take_focus, NULL);
  if (gtk_widget_get_mapped (widget))
    take_focus (widget);
  else
    g_signal_connect (widget, "map", G_CALLBACK (on_mapped_take_focus), NULL);
}

static GtkWidget *
build_confirmation (AkcChatView *self,
                    AkcToolCall *call)
{
  AkcTool *tool = AKC_IS_CHAT (self->source)
                  ? akc_chat_get_tool (AKC_CHAT (self->source), akc_tool_call_get_name (call))
                  : NULL;
  GtkWidget *row = akc_chat_view_slots_build_confirmation (self, call, tool);

  /* A host's confirmation (§12.10) takes the keyboard as the view's own. */
  if (row != NULL)
    {
      if (g_strcmp0 (self->focus_call_id, akc_tool_call_get_id (call)) == 0)
        {
          g_clear_pointer (&self->focus_call_id, g_free);
          akc_chat_view_focus_when_mapped (row);
        }
      return row;
    }
  row = akc_tool_confirmation_row_new (call, tool);

  /* The confirmation that is to take the keyboard (a call the person just
   * chose, or the one a reply ended with) takes it on the safe choice:
   * Tab reaches Approve (Alt+A approves); see
   * akc_chat_view_focus_confirmation(). */
  if (g_strcmp0 (self->focus_call_id, akc_tool_call_get_id (call)) == 0)
    {
      g_clear_pointer (&self->focus_call_id, g_free);
      akc_chat_view_focus_when_mapped (akc_tool_confirmation_row_get_deny (AKC_TOOL_CONFIRMATION_ROW (row)));
    }

  return row;
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

/* The response actions, or the inline editor while editing (§12.3). */
static GtkWidget *
build_actions (AkcChatView *self)
{
  g_autofree char *user_id = NULL;
  g_autofree char *assistant_id = NULL;
  GtkWidget *actions;
  GtkTextView *editor;
  GtkEventController *keys;

  if (!self->editing)
    {
      /* Retry is the error's alone while there is one: one Retry. */
      akc_chat_view_lifecycle_targets (self, &user_id, &assistant_id);
      return akc_response_actions_new (self->actions_retry, assistant_id != NULL);
    }

  actions = akc_response_actions_new_editor (self->edit_draft);
  editor = akc_response_actions_get_editor (AKC_RESPONSE_ACTIONS (actions));
  g_signal_connect_object (gtk_text_view_get_buffer (editor), "changed", G_CALLBACK (on_editor_changed), self, 0);
  keys = gtk_event_controller_key_new ();
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_editor_key_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (editor), keys);
  g_signal_connect_object (editor, "map", G_CALLBACK (on_editor_map), self, 0);

  return actions;
}

static GtkWidget *
new_row (AkcChatView *self)
{
  GtkWidget *row = akc_message_row_new ();

  /* A focus stop of its own: the arrow keys move between messages. */
  gtk_widget_set_focusable (row, TRUE);

  akc_message_row_set_ownership (AKC_MESSAGE_ROW (row), self->ownership);
  g_signal_connect_object (row, "component-interaction", G_CALLBACK (akc_chat_view_on_row_interaction), self, 0);
  g_signal_connect_object (row, "component-selection", G_CALLBACK (akc_chat_view_on_row_selection), self, 0);
  g_signal_connect_object (row, "component-link-activated", G_CALLBACK (akc_chat_view_on_row_link_activated), self, 0);

  return row;
}

/* An assistant message that only carries tool calls (the calls a person
 * approved or denied): it is shown as the calls' settled cards. */
static gboolean
is_call_carrier (AkcMessage *message)
{
  return akc_message_get_role (message) == AKC_MESSAGE_ROLE_ASSISTANT &&
         akc_is_blank_input (akc_message_get_content (message)) &&
         g_list_model_get_n_items (akc_message_get_tool_calls (message)) > 0;
}

static gboolean
call_is_settled (AkcToolCall *call)
{
  AkcToolCallStatus status = akc_tool_call_get_status (call);

  return status == AKC_TOOL_CALL_STATUS_COMPLETE || status == AKC_TOOL_CALL_STATUS_ERROR;
}

gboolean
akc_chat_view_message_is_shown (AkcMessage  *message,
                                AkcChatView *self)
{
  /* Deleted, its undo still offered (akc_chat_hide_message()). */
  if (AKC_IS_CHAT (self->source) && akc_chat_get_message_hidden (AKC_CHAT (self->source), message))
    return FALSE;

  if (is_call_carrier (message))
    {
      GListModel *calls = akc_message_get_tool_calls (message);

      /* While a call waits, its confirmation below is its card. */
      for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
        {
          g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, i);

          if (!call_is_settled (call))
            return FALSE;
        }
      return TRUE;
    }

  return self->interaction == NULL || !akc_interaction_controller_is_redundant (self->interaction, message);
}

void
akc_chat_view_refilter (AkcChatView *self)
{
  if (self->shown_filter != NULL)
    gtk_filter_changed (self->shown_filter, GTK_FILTER_CHANGE_DIFFERENT);
}

guint
akc_chat_view_get_shown_position (AkcChatView *self,
                                  AkcMessage  *message)
{
  guint n = self->shown != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->shown)) : 0;

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) item = g_list_model_get_item (G_LIST_MODEL (self->shown), i - 1);

      if (item == message)
        return i - 1;
    }

  return n > 0 ? n - 1 : 0;
}

/* The settled card of each call a message carries: what was done, and
 * how it ended, in words (issue 13 item 6). */
static GtkWidget *
build_settled (AkcChatView *self,
               AkcMessage  *message)
{
  GListModel *calls = akc_message_get_tool_calls (message);
  GtkWidget *box = g_object_new (GTK_TYPE_BOX,
                                 "orientation", GTK_ORIENTATION_VERTICAL,
                                 "spacing", 6,
                                 "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                 NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, i);
      AkcTool *tool;
      gboolean done = akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_COMPLETE;
      const char *outcome = done ? akc_tool_call_get_result (call) : akc_tool_call_get_error (call);
      const char *sentence = outcome != NULL ? akc_interaction_describe_denial (outcome) : NULL;
      g_autofree char *name = NULL;
      g_autofree char *accessible = NULL;
      const char *title;
      GtkWidget *card, *header, *icon, *heading, *text;

      /* A call that waits has its confirmation below instead. */
      if (!call_is_settled (call))
        continue;
      tool = AKC_IS_CHAT (self->source)
             ? akc_chat_get_tool (AKC_CHAT (self->source), akc_tool_call_get_name (call))
             : NULL;
      title = tool != NULL ? akc_tool_get_title (tool) : NULL;
      if (title == NULL)
        title = name = akc_tool_confirmation_humanize (akc_tool_call_get_name (call));
      if (sentence == NULL)
        sentence = outcome != NULL ? outcome : done ? _("Done.") : _("It did not run.");

      card = g_object_new (GTK_TYPE_BOX,
                           "orientation", GTK_ORIENTATION_VERTICAL,
                           "spacing", 4,
                           "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                           NULL);
      gtk_widget_add_css_class (card, "tool-settled");
      gtk_widget_add_css_class (card, done ? "complete" : "refused");
      header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      icon = g_object_new (GTK_TYPE_IMAGE,
                           "icon-name", done ? "emblem-ok-symbolic" : "action-unavailable-symbolic",
                           "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                           NULL);
      gtk_box_append (GTK_BOX (header), icon);
      heading = g_object_new (GTK_TYPE_LABEL,
                              "label", title,
                              "xalign", 0.0f,
                              "hexpand", TRUE,
                              "wrap", TRUE,
                              "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                              "wrap-mode", PANGO_WRAP_WORD_CHAR,
                              NULL);
      gtk_widget_add_css_class (heading, "heading");
      gtk_box_append (GTK_BOX (header), heading);
      gtk_box_append (GTK_BOX (card), header);
      text = g_object_new (GTK_TYPE_LABEL,
                           "label", sentence,
                           "xalign", 0.0f,
                           "wrap", TRUE,
                           "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                           "wrap-mode", PANGO_WRAP_WORD_CHAR,
                           "selectable", TRUE,
                           NULL);
      gtk_box_append (GTK_BOX (card), text);

      /* Translators: the accessible name of an action that ran or was
       * refused; the first %s is what it does, the second how it ended. */
      accessible = g_strdup_printf (_("%s: %s"), title, sentence);
      gtk_accessible_update_property (GTK_ACCESSIBLE (card),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                      -1);
      gtk_box_append (GTK_BOX (box), card);
      g_ptr_array_add (names, g_steal_pointer (&accessible));
    }

  /* A stop of the arrow keys like a message, named by what it says, from
   * which Tab reaches its text. */
  g_ptr_array_add (names, NULL);
  {
    g_autofree char *label = g_strjoinv ("; ", (char **) names->pdata);

    gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  }
  gtk_widget_set_focusable (box, TRUE);

  return box;
}

/* A reply with text that carries tool calls shows its text, and under it
 * the settled card of each call that ran, failed or was refused: the tool
 * message that says the same is left out (is_redundant), so without the
 * card a failed call would vanish from the transcript. */
void
akc_chat_view_sync_row_calls (AkcChatView   *self,
                              AkcMessageRow *row)
{
  AkcMessage *message = akc_message_row_get_message (row);
  GListModel *calls = message != NULL ? akc_message_get_tool_calls (message) : NULL;
  gboolean settled = FALSE;

  for (guint i = 0; calls != NULL && !settled && i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, i);

      settled = call_is_settled (call);
    }

  akc_message_row_set_extra (row, settled && akc_message_get_role (message) == AKC_MESSAGE_ROLE_ASSISTANT
                                  ? build_settled (self, message) : NULL);
}

/* The same for every row shown (a call settles). */
void
akc_chat_view_sync_rows_calls (AkcChatView *self)
{
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    akc_chat_view_sync_row_calls (self, row);
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

  if (AKC_IS_MESSAGE (object) && is_call_carrier (AKC_MESSAGE (object)))
    {
      child = build_settled (self, AKC_MESSAGE (object));
      gtk_list_item_set_child (item, child);
      akc_chat_view_item_bound (self, child, object);
      return;
    }

  /* A host's row (§12.10), made anew at each bind. */
  if (AKC_IS_MESSAGE (object) && (child = akc_chat_view_slots_build_message (self, AKC_MESSAGE (object))) != NULL)
    {
      gtk_list_item_set_child (item, child);
      akc_chat_view_item_bound (self, child, object);
      return;
    }
  child = gtk_list_item_get_child (item);

  if (AKC_IS_MESSAGE (object))
    {
      /* Rows are recycled; the extras below are few and made anew. */
      if (!AKC_IS_MESSAGE_ROW (child))
        {
          child = new_row (self);
          gtk_list_item_set_child (item, child);
        }

      self->n_binds++;
      akc_message_row_set_ownership (AKC_MESSAGE_ROW (child), self->ownership);
      akc_message_row_set_manifest (AKC_MESSAGE_ROW (child), self->manifest);
      akc_message_row_set_message (AKC_MESSAGE_ROW (child), AKC_MESSAGE (object));
      akc_message_row_set_error (AKC_MESSAGE_ROW (child), past_error (self, AKC_MESSAGE (object)));
      g_hash_table_add (self->rows, child);
      akc_chat_view_sync_row_calls (self, AKC_MESSAGE_ROW (child));
      akc_chat_view_apply_active_to_row (self, AKC_MESSAGE_ROW (child));
      akc_chat_view_find_bind_row (self, AKC_MESSAGE_ROW (child));

      /* Not while the list lays its rows out. */
      if (self->focus_active_pending && AKC_MESSAGE (object) == self->active_message && self->active_idle == 0)
        self->active_idle = g_idle_add (akc_chat_view_focus_active_idle, self);
      akc_chat_view_item_bound (self, child, object);
      return;
    }

  if (AKC_IS_TOOL_CALL (object))
    {
      child = build_confirmation (self, AKC_TOOL_CALL (object));
    }
  else
    {
      kind = gtk_string_object_get_string (GTK_STRING_OBJECT (object));
      if (g_str_equal (kind, EXTRA_THINKING))
        {
          child = akc_chat_view_slots_build_thinking (self);
          if (child == NULL)
            child = akc_thinking_row_new ();
        }
      else if (g_str_equal (kind, EXTRA_ERROR))
        child = build_error (self, g_object_get_data (object, "text"));
      else
        child = build_actions (self);
    }

  /* A stop of the arrow keys too, from which Tab reaches its buttons. */
  gtk_widget_set_focusable (child, TRUE);
  gtk_list_item_set_child (item, child);
  akc_chat_view_item_bound (self, child, object);
}

static void
factory_unbind (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                AkcChatView              *self)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (child != NULL)
    akc_chat_view_item_unbound (self, child);
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
    {
      g_hash_table_remove (self->rows, child);
      akc_chat_view_item_unbound (self, child);
    }
}

GtkListItemFactory *
akc_chat_view_create_factory (AkcChatView *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (factory_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (factory_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (factory_unbind), self);
  g_signal_connect (factory, "teardown", G_CALLBACK (factory_teardown), self);

  return factory;
}

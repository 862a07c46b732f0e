/* akc-inspector.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>

#include "akc-conversation-item.h"
#include "akc-demo.h"
#include "akc-inspector.h"

/* Developer Tools (application.md §10): the live trace records of the
 * conversation in the window, in a sentence each (which route answered
 * and how the state moved, what the policy decided and why, which status
 * an action took), with the redacted detail under it, and "Save Replay
 * Fixture…", which writes the conversation and its traces as an
 * agentskit.chat.replay fixture that `akc replay` plays back.
 *
 * It only reads: nothing here changes the conversation. */

struct _AkcInspector
{
  AdwWindow        parent_instance;

  AdwWindowTitle  *title;
  AdwToastOverlay *toasts;
  GtkStack        *stack;
  GtkListBox      *list;
  GtkScrolledWindow *scroller;
  GtkButton       *save_button;

  AkcTraceCapture *capture;
  GListModel      *messages;
  gulong           added_id;
  guint            n_rows;
  GtkFileChooserNative *chooser;
  AkcWindow       *window;        /* weak: the window followed */
  gulong           window_id;
};

G_DEFINE_FINAL_TYPE (AkcInspector, akc_inspector, ADW_TYPE_WINDOW)

static const char *
detail_string (AkcJsonValue *detail,
               const char   *name)
{
  AkcJsonValue *value = akc_json_value_get_member (detail, name);

  return value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING
    ? akc_json_value_get_string (value, NULL) : "?";
}

/* One sentence per record, for people. */
static char *
record_title (AkcTraceRecord *record)
{
  AkcJsonValue *detail = akc_trace_record_get_detail (record);

  switch (akc_trace_record_get_category (record))
    {
    case AKC_TRACE_CATEGORY_ROUTE:
      /* Translators: a route of the conversation answered; then the state before and after */
      return g_strdup_printf (_("Route “%s” answered: %s → %s"), detail_string (detail, "routeId"),
                              detail_string (detail, "fromState"), detail_string (detail, "toState"));
    case AKC_TRACE_CATEGORY_AGENT:
      return g_strdup_printf (_("The model answered: %s → %s"),
                              detail_string (detail, "fromState"), detail_string (detail, "toState"));
    case AKC_TRACE_CATEGORY_REPAIR:
      return g_strdup_printf (_("Route “%s” repaired the turn: %s → %s"), detail_string (detail, "routeId"),
                              detail_string (detail, "fromState"), detail_string (detail, "toState"));
    case AKC_TRACE_CATEGORY_FALLBACK:
      return g_strdup_printf (_("Fallback route “%s” answered: %s → %s"), detail_string (detail, "routeId"),
                              detail_string (detail, "fromState"), detail_string (detail, "toState"));
    case AKC_TRACE_CATEGORY_POLICY:
      if (g_strcmp0 (detail_string (detail, "decision"), "allow") == 0)
        /* Translators: the capability policy allowed an action; the phase is propose or execute */
        return g_strdup_printf (_("Policy allowed “%s” (%s)"), detail_string (detail, "action"),
                                detail_string (detail, "phase"));
      /* Translators: the capability policy denied an action; then its reason code */
      return g_strdup_printf (_("Policy denied “%s”: %s"), detail_string (detail, "action"),
                              detail_string (detail, "reason"));
    case AKC_TRACE_CATEGORY_ACTION:
      /* Translators: a typed action took a status, such as pending or approved */
      return g_strdup_printf (_("Action “%s” is %s"), detail_string (detail, "action"),
                              detail_string (detail, "status"));
    case AKC_TRACE_CATEGORY_LIFECYCLE:
    default:
      return g_strdup (_("Lifecycle event"));
    }
}

static char *
record_subtitle (AkcTraceRecord *record)
{
  g_autofree char *detail = akc_json_value_to_canonical (akc_trace_record_get_detail (record), NULL);
  const char *parent = akc_trace_record_get_parent_id (record);

  if (parent != NULL)
    /* Translators: a trace record's id, the record it follows from, its time and its detail */
    return g_strdup_printf (_("%s, after %s, at %s\n%s"), akc_trace_record_get_id (record), parent,
                            akc_trace_record_get_at (record), detail);

  /* Translators: a trace record's id, its time and its detail */
  return g_strdup_printf (_("%s at %s\n%s"), akc_trace_record_get_id (record),
                          akc_trace_record_get_at (record), detail);
}

static gboolean
scroll_to_end (gpointer user_data)
{
  AkcInspector *self = user_data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  return G_SOURCE_REMOVE;
}

static void
add_row (AkcInspector   *self,
         AkcTraceRecord *record)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scroller);
  gboolean at_end = gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
                    >= gtk_adjustment_get_upper (adjustment) - 1;
  g_autofree char *title = record_title (record);
  g_autofree char *subtitle = record_subtitle (record);
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());

  /* Records hold text a peer or a host wrote: never markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (row, subtitle);
  adw_action_row_set_subtitle_lines (row, 0);
  gtk_widget_add_css_class (GTK_WIDGET (row), "property");
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_append (self->list, GTK_WIDGET (row));
  self->n_rows++;

  gtk_stack_set_visible_child_name (self->stack, "records");
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), TRUE);
  if (at_end)
    g_idle_add_full (G_PRIORITY_LOW, scroll_to_end, g_object_ref (self), g_object_unref);
}

static void
on_record_added (AkcTraceCapture *capture,
                 AkcTraceRecord  *record,
                 AkcInspector    *self)
{
  add_row (self, record);
}

static void
clear_rows (AkcInspector *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  self->n_rows = 0;
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* ------------------------------------------------------------------ */
/* Saving                                                              */
/* ------------------------------------------------------------------ */

/**
 * akc_inspector_save_fixture:
 * @self: an inspector
 * @file: where to write
 * @error: return location for a #GError
 *
 * Writes the conversation and its traces as a replay fixture, redacted
 * like the capture's records.
 *
 * Returns: %TRUE on success, or %FALSE with @error set
 */
gboolean
akc_inspector_save_fixture (AkcInspector  *self,
                            GFile         *file,
                            GError       **error)
{
  g_autoptr(GListModel) empty = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autofree char *text = NULL;
  g_autofree char *contents = NULL;

  g_return_val_if_fail (AKC_IS_INSPECTOR (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->messages == NULL)
    empty = G_LIST_MODEL (g_list_store_new (AKC_TYPE_MESSAGE));
  fixture = akc_replay_fixture_new_from_messages (self->messages != NULL ? self->messages : empty,
                                                  self->capture, error);
  if (fixture == NULL)
    return FALSE;

  text = akc_replay_fixture_serialize (fixture);
  contents = g_strconcat (text, "\n", NULL);

  return g_file_replace_contents (file, contents, strlen (contents), NULL, FALSE,
                                  G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION,
                                  NULL, NULL, error);
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     AkcInspector    *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  g_clear_object (&self->chooser);
  if (file == NULL)
    return;

  if (akc_inspector_save_fixture (self, file, &error))
    adw_toast_overlay_add_toast (self->toasts, adw_toast_new (_("Replay fixture saved")));
  else
    {
      /* Translators: saving a replay fixture failed; then why */
      g_autofree char *message = g_strdup_printf (_("Could not save the replay fixture: %s"), error->message);

      adw_toast_overlay_add_toast (self->toasts, adw_toast_new (message));
    }
}

static void
save_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  AkcInspector *self = AKC_INSPECTOR (widget);

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Save Replay Fixture"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), "conversation.replay.json");
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ------------------------------------------------------------------ */
/* The window                                                          */
/* ------------------------------------------------------------------ */

static void
akc_inspector_dispose (GObject *object)
{
  AkcInspector *self = AKC_INSPECTOR (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->window != NULL)
    g_clear_signal_handler (&self->window_id, self->window);
  g_clear_weak_pointer (&self->window);
  g_clear_signal_handler (&self->added_id, self->capture);
  g_clear_object (&self->capture);
  g_clear_object (&self->messages);

  G_OBJECT_CLASS (akc_inspector_parent_class)->dispose (object);
}

static void
akc_inspector_class_init (AkcInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_inspector_dispose;

  gtk_widget_class_install_action (widget_class, "inspector.save", NULL, save_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "inspector.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
akc_inspector_init (AkcInspector *self)
{
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *empty = adw_status_page_new ();
  GtkWidget *clamp = adw_clamp_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("Developer Tools"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 640);

  self->title = ADW_WINDOW_TITLE (adw_window_title_new (_("Developer Tools"), NULL));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));

  self->save_button = GTK_BUTTON (gtk_button_new_from_icon_name ("document-save-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button), _("Save Replay Fixture… (Ctrl+S)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->save_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Save Replay Fixture…"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->save_button), "inspector.save");
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->save_button));
  gtk_box_append (GTK_BOX (box), header);

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "utilities-terminal-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("Nothing Traced Yet"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Which route answered, what the policy decided and why, and how each action went appear here as the conversation goes on."));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_widget_set_margin_top (GTK_WIDGET (self->list), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->list), 12);
  gtk_widget_set_margin_start (GTK_WIDGET (self->list), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->list), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Trace records"), -1);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 900);
  adw_clamp_set_child (ADW_CLAMP (clamp), GTK_WIDGET (self->list));

  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (self->scroller, clamp);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_add_named (self->stack, empty, "empty");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->scroller), "records");
  gtk_stack_set_visible_child_name (self->stack, "empty");

  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toasts, GTK_WIDGET (self->stack));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toasts));

  adw_window_set_content (ADW_WINDOW (self), box);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), FALSE);
}

/**
 * akc_inspector_new:
 *
 * Creates an inspector showing no conversation.
 *
 * Returns: (transfer full): a new inspector window
 */
AkcInspector *
akc_inspector_new (void)
{
  return g_object_new (AKC_TYPE_INSPECTOR, NULL);
}

/**
 * akc_inspector_set_conversation:
 * @self: an inspector
 * @title: (nullable): the conversation's title
 * @capture: (nullable): its traces, followed live
 * @messages: (nullable) (element-type AkcMessage): its messages, for
 *   "Save Replay Fixture…"
 *
 * Shows another conversation: its records so far, then each new one.
 */
void
akc_inspector_set_conversation (AkcInspector    *self,
                                const char      *title,
                                AkcTraceCapture *capture,
                                GListModel      *messages)
{
  g_autoptr(GPtrArray) snapshot = NULL;

  g_return_if_fail (AKC_IS_INSPECTOR (self));
  g_return_if_fail (capture == NULL || AKC_IS_TRACE_CAPTURE (capture));
  g_return_if_fail (messages == NULL || G_IS_LIST_MODEL (messages));

  adw_window_title_set_subtitle (self->title, title);
  g_set_object (&self->messages, messages);
  if (self->capture != capture)
    {
      g_clear_signal_handler (&self->added_id, self->capture);
      g_set_object (&self->capture, capture);
      clear_rows (self);
      if (capture != NULL)
        {
          snapshot = akc_trace_capture_snapshot (capture);
          for (guint i = 0; i < snapshot->len; i++)
            add_row (self, g_ptr_array_index (snapshot, i));
          self->added_id = g_signal_connect (capture, "record-added", G_CALLBACK (on_record_added), self);
        }
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), capture != NULL || messages != NULL);
}

/**
 * akc_inspector_get_capture:
 * @self: an inspector
 *
 * Returns: (transfer none) (nullable): the capture shown
 */
AkcTraceCapture *
akc_inspector_get_capture (AkcInspector *self)
{
  g_return_val_if_fail (AKC_IS_INSPECTOR (self), NULL);
  return self->capture;
}

/**
 * akc_inspector_get_n_rows:
 * @self: an inspector
 *
 * Returns: how many records the inspector shows
 */
guint
akc_inspector_get_n_rows (AkcInspector *self)
{
  g_return_val_if_fail (AKC_IS_INSPECTOR (self), 0);
  return self->n_rows;
}

/**
 * akc_inspector_dup_row_title:
 * @self: an inspector
 * @index_: a row's position
 *
 * Returns: (transfer full) (nullable): the sentence the row shows
 */
char *
akc_inspector_dup_row_title (AkcInspector *self,
                             guint         index_)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (AKC_IS_INSPECTOR (self), NULL);

  row = gtk_list_box_get_row_at_index (self->list, index_);
  return row != NULL ? g_strdup (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row))) : NULL;
}

static void
show_window_conversation (AkcInspector *self)
{
  AkcConversationItem *item = self->window != NULL ? akc_window_get_item (self->window) : NULL;
  AkcDemo *demo = item != NULL ? akc_conversation_item_get_demo (item) : NULL;
  AkcChatSource *source = item != NULL ? akc_conversation_item_get_source (item) : NULL;

  /* Only the offline applications trace their routes, policies and
   * actions; the others show the empty state and still save their
   * conversation. */
  akc_inspector_set_conversation (self,
                                  item != NULL ? akc_conversation_item_get_display_title (item) : NULL,
                                  demo != NULL ? akc_demo_get_trace_capture (demo) : NULL,
                                  source != NULL ? akc_chat_source_get_messages (source) : NULL);
}

static void
on_window_conversation (AkcWindow    *window,
                        GParamSpec   *pspec,
                        AkcInspector *self)
{
  show_window_conversation (self);
}

/**
 * akc_inspector_follow:
 * @self: an inspector
 * @window: the window whose conversation it shows
 *
 * Shows the conversation of @window, and the next one when the window
 * switches.
 */
void
akc_inspector_follow (AkcInspector *self,
                      AkcWindow    *window)
{
  g_return_if_fail (AKC_IS_INSPECTOR (self));
  g_return_if_fail (AKC_IS_WINDOW (window));

  if (self->window != window)
    {
      if (self->window != NULL)
        g_clear_signal_handler (&self->window_id, self->window);
      g_set_weak_pointer (&self->window, window);
      self->window_id = g_signal_connect_object (window, "notify::conversation",
                                                 G_CALLBACK (on_window_conversation), self, 0);
    }
  show_window_conversation (self);
}

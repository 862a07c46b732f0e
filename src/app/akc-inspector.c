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
 * an action took), with the redacted detail under it; on a second page
 * (Alt+2) the conversation's raw wire events (turn protocol events, the
 * Ask service's and the provider's request bodies and the events of their
 * answers, as they went over the wire), redacted, the latest the capture
 * keeps; and "Save Replay Fixture…", which writes the
 * conversation and its traces as an agentskit.chat.replay fixture that
 * `akc replay` plays back, redacted with the fields the preferences name.
 *
 * A conversation whose routes and policy run on its backend (the turn
 * server, the Ask service: AkcTraceCapture:decided-by) says so over its
 * traces: what is shown is what its protocol carries (the states of its
 * turns, the server's tool calls and diagnostics, the wire), and the
 * decisions themselves are the server's.
 *
 * It only reads: nothing here changes the conversation. */

/* How much of a wire event a row shows; the rest is in a saved capture. */
#define WIRE_ROW_MAX_CHARS 600

struct _AkcInspector
{
  AdwWindow        parent_instance;

  AdwViewSwitcherTitle *title;
  AdwViewStack    *pages;
  AdwToastOverlay *toasts;
  GtkStack        *stack;
  GtkListBox      *list;
  GtkScrolledWindow *scroller;
  GtkStack        *wire_stack;
  GtkListBox      *wire_list;
  GtkScrolledWindow *wire_scroller;
  GtkButton       *save_button;
  GtkWidget       *notice;        /* routes and policy are the backend's */
  GtkLabel        *notice_label;

  AkcTraceCapture *capture;
  GListModel      *messages;
  GSettings       *settings;      /* nullable: the redact fields of saved fixtures */
  gulong           added_id;
  gulong           wire_id;
  gulong           decided_id;
  guint            n_rows;
  guint            n_wire_rows;
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
      if (g_strcmp0 (detail_string (detail, "event"), "server.turn.diagnostic") == 0)
        /* Translators: the turn server reported a problem; its code, such as ADAPTER_FAILED, then its message */
        return g_strdup_printf (_("The turn server reported %s: %s"), detail_string (detail, "code"),
                                detail_string (detail, "message"));
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
  GtkScrolledWindow *scroller = user_data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  return G_SOURCE_REMOVE;
}

static gboolean
is_at_end (GtkScrolledWindow *scroller)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);

  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
         >= gtk_adjustment_get_upper (adjustment) - 1;
}

/* A read-only row: records and events hold text a peer or a host wrote,
 * never markup. Focusable, so a keyboard or screen reader goes through
 * them one by one. */
static GtkWidget *
text_row (const char *title,
          const char *subtitle)
{
  AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (row, subtitle);
  adw_action_row_set_subtitle_lines (row, 0);
  gtk_widget_add_css_class (GTK_WIDGET (row), "property");
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  return GTK_WIDGET (row);
}

static void
add_row (AkcInspector   *self,
         AkcTraceRecord *record)
{
  gboolean at_end = is_at_end (self->scroller);
  g_autofree char *title = record_title (record);
  g_autofree char *subtitle = record_subtitle (record);

  gtk_list_box_append (self->list, text_row (title, subtitle));
  self->n_rows++;

  gtk_stack_set_visible_child_name (self->stack, "records");
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), TRUE);
  if (at_end)
    g_idle_add_full (G_PRIORITY_LOW, scroll_to_end, g_object_ref (self->scroller), g_object_unref);
}

/* An event that names no type: a request body, a provider's event (an
 * OpenAI chunk, an Ollama line), a failed response `{status, body}`. */
static char *
untyped_wire_title (const char   *source,
                    gboolean      sent,
                    AkcJsonValue *inner)
{
  AkcJsonValue *status = inner != NULL && akc_json_value_get_kind (inner) == AKC_JSON_KIND_OBJECT
    ? akc_json_value_get_member (inner, "status") : NULL;
  gboolean ask = g_strcmp0 (source, "ask") == 0;
  gboolean provider = g_strcmp0 (source, "provider") == 0;

  if (sent)
    {
      if (ask)
        return g_strdup (_("Sent a request to the Ask service"));
      if (provider)
        return g_strdup (_("Sent a request to the model provider"));
      /* Translators: %s names where a request went */
      return g_strdup_printf (_("Sent a request to %s"), source);
    }

  if (status != NULL && akc_json_value_get_kind (status) == AKC_JSON_KIND_NUMBER)
    {
      guint code = (guint) akc_json_value_get_number (status);

      /* Translators: a failed HTTP response; %u is its status, such as 401 */
      if (ask)
        return g_strdup_printf (_("Received HTTP %u from the Ask service"), code);
      if (provider)
        return g_strdup_printf (_("Received HTTP %u from the model provider"), code);
      /* Translators: a failed HTTP response; its status, then where from */
      return g_strdup_printf (_("Received HTTP %u from %s"), code, source);
    }

  if (ask)
    return g_strdup (_("Received an event from the Ask service"));
  if (provider)
    return g_strdup (_("Received an event from the model provider"));
  /* Translators: %s names where an event came from */
  return g_strdup_printf (_("Received an event from %s"), source);
}

/* "Sent client.turn.submit to the turn server" … */
static char *
wire_title (AkcJsonValue *event)
{
  const char *source = detail_string (event, "source");
  const char *type;
  gboolean sent = g_strcmp0 (detail_string (event, "direction"), "sent") == 0;

  if (akc_json_value_get_member (event, "type") == NULL)
    return untyped_wire_title (source, sent, akc_json_value_get_member (event, "event"));
  type = detail_string (event, "type");

  /* Translators: in the following, a wire event went out or came in;
   * %s is its type, such as client.turn.submit or server.turn.snapshot */
  if (g_strcmp0 (source, "turn") == 0)
    return g_strdup_printf (sent ? _("Sent %s to the turn server") : _("Received %s from the turn server"), type);
  if (g_strcmp0 (source, "ask") == 0)
    return g_strdup_printf (sent ? _("Sent %s to the Ask service") : _("Received %s from the Ask service"), type);
  if (g_strcmp0 (source, "provider") == 0)
    return g_strdup_printf (sent ? _("Sent %s to the model provider") : _("Received %s from the model provider"), type);
  /* Translators: a wire event went out or came in; its type, then where to or from */
  return g_strdup_printf (sent ? _("Sent %s to %s") : _("Received %s from %s"), type, source);
}

static char *
wire_subtitle (AkcJsonValue *event)
{
  AkcJsonValue *sequence = akc_json_value_get_member (event, "sequence");
  g_autofree char *text = akc_json_value_to_canonical (akc_json_value_get_member (event, "event"), NULL);

  if (g_utf8_strlen (text, -1) > WIRE_ROW_MAX_CHARS)
    {
      char *end = g_utf8_offset_to_pointer (text, WIRE_ROW_MAX_CHARS);
      g_autofree char *shortened = g_strndup (text, end - text);

      g_free (text);
      text = g_strconcat (shortened, "…", NULL);
    }

  /* Translators: a wire event's number, its time, then the event itself */
  return g_strdup_printf (_("#%.0f at %s\n%s"),
                          sequence != NULL ? akc_json_value_get_number (sequence) : 0,
                          detail_string (event, "at"), text);
}

static void
add_wire_row (AkcInspector *self,
              AkcJsonValue *event)
{
  gboolean at_end = is_at_end (self->wire_scroller);
  g_autofree char *title = wire_title (event);
  g_autofree char *subtitle = wire_subtitle (event);
  guint max = self->capture != NULL ? akc_trace_capture_get_max_wire_events (self->capture) : G_MAXUINT;

  gtk_list_box_append (self->wire_list, text_row (title, subtitle));
  self->n_wire_rows++;
  /* The capture keeps a ring: so does the view. */
  while (self->n_wire_rows > max)
    {
      gtk_list_box_remove (self->wire_list, gtk_widget_get_first_child (GTK_WIDGET (self->wire_list)));
      self->n_wire_rows--;
    }

  gtk_stack_set_visible_child_name (self->wire_stack, "events");
  if (at_end)
    g_idle_add_full (G_PRIORITY_LOW, scroll_to_end, g_object_ref (self->wire_scroller), g_object_unref);
}

static void
on_wire_event_added (AkcTraceCapture *capture,
                     AkcJsonValue    *event,
                     AkcInspector    *self)
{
  add_wire_row (self, event);
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
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->wire_list))) != NULL)
    gtk_list_box_remove (self->wire_list, child);
  self->n_wire_rows = 0;
  gtk_stack_set_visible_child_name (self->wire_stack, "empty");
}

/* ------------------------------------------------------------------ */
/* Saving                                                              */
/* ------------------------------------------------------------------ */

/* The capture's records again, redacted with its fields and the
 * configured ones: what a saved fixture holds. */
static AkcTraceCapture *
redacting_capture (AkcInspector  *self,
                   GError       **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) configured = NULL;
  g_auto(GStrv) fields = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(AkcTraceCapture) capture = NULL;

  if (self->capture != NULL)
    g_strv_builder_addv (builder, (const char **) akc_trace_capture_get_redact_fields (self->capture));
  if (self->settings != NULL)
    {
      configured = g_settings_get_strv (self->settings, "replay-redact-fields");
      g_strv_builder_addv (builder, (const char **) configured);
    }
  fields = g_strv_builder_end (builder);
  capture = akc_trace_capture_new ((const char * const *) fields);

  records = self->capture != NULL ? akc_trace_capture_snapshot (self->capture) : g_ptr_array_new ();
  for (guint i = 0; i < records->len; i++)
    {
      AkcTraceRecord *record = g_ptr_array_index (records, i);
      g_autoptr(AkcTraceRecord) copy = NULL;

      copy = akc_trace_capture_append (capture, akc_trace_record_get_category (record),
                                       akc_trace_record_get_detail (record),
                                       akc_trace_record_get_parent_id (record),
                                       akc_trace_record_get_at (record), error);
      if (copy == NULL)
        return NULL;
    }

  return g_steal_pointer (&capture);
}

/**
 * akc_inspector_save_fixture:
 * @self: an inspector
 * @file: where to write
 * @error: return location for a #GError
 *
 * Writes the conversation and its traces as a replay fixture, redacted
 * like the capture's records and, at any depth, with the fields the
 * `replay-redact-fields` setting names (see
 * [method@Inspector.set_settings]).
 *
 * Returns: %TRUE on success, or %FALSE with @error set
 */
gboolean
akc_inspector_save_fixture (AkcInspector  *self,
                            GFile         *file,
                            GError       **error)
{
  g_autoptr(GListModel) empty = NULL;
  g_autoptr(AkcTraceCapture) redacting = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autofree char *text = NULL;
  g_autofree char *contents = NULL;

  g_return_val_if_fail (AKC_IS_INSPECTOR (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (self->messages == NULL)
    empty = G_LIST_MODEL (g_list_store_new (AKC_TYPE_MESSAGE));
  redacting = redacting_capture (self, error);
  if (redacting == NULL)
    return FALSE;
  fixture = akc_replay_fixture_new_from_messages (self->messages != NULL ? self->messages : empty,
                                                  redacting, error);
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

/* Alt+1, Alt+2: a page, and the keyboard focus on its first row. */
static void
page_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  AkcInspector *self = AKC_INSPECTOR (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  GtkListBox *list = g_str_equal (name, "wire") ? self->wire_list : self->list;
  GtkListBoxRow *first;

  adw_view_stack_set_visible_child_name (self->pages, name);
  first = gtk_list_box_get_row_at_index (list, 0);
  if (first != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (first));
}

static GtkWidget *
records_page (const char         *empty_icon,
              const char         *empty_title,
              const char         *empty_description,
              const char         *list_label,
              const char         *content_name,
              GtkStack          **stack_out,
              GtkListBox        **list_out,
              GtkScrolledWindow **scroller_out)
{
  GtkWidget *empty = adw_status_page_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkListBox *list = GTK_LIST_BOX (gtk_list_box_new ());
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  GtkStack *stack = GTK_STACK (gtk_stack_new ());

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), empty_icon);
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), empty_title);
  adw_status_page_set_description (ADW_STATUS_PAGE (empty), empty_description);

  gtk_list_box_set_selection_mode (list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (list), "boxed-list");
  gtk_widget_set_margin_top (GTK_WIDGET (list), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (list), 12);
  gtk_widget_set_margin_start (GTK_WIDGET (list), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (list), 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, list_label, -1);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 900);
  adw_clamp_set_child (ADW_CLAMP (clamp), GTK_WIDGET (list));

  gtk_scrolled_window_set_policy (scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (scroller, clamp);

  gtk_widget_set_vexpand (GTK_WIDGET (stack), TRUE);
  gtk_stack_add_named (stack, empty, "empty");
  gtk_stack_add_named (stack, GTK_WIDGET (scroller), content_name);
  gtk_stack_set_visible_child_name (stack, "empty");

  *stack_out = stack;
  *list_out = list;
  *scroller_out = scroller;
  return GTK_WIDGET (stack);
}

/* Over the traces of a conversation whose routes and policy run on its
 * backend: that they do, and what is shown instead. */
static void
update_notice (AkcInspector *self)
{
  const char *backend = self->capture != NULL ? akc_trace_capture_get_decided_by (self->capture) : NULL;
  g_autofree char *text = NULL;

  if (backend == NULL)
    ;
  else if (g_str_equal (backend, "turn"))
    text = g_strdup (_("The routes and policy decisions of this conversation are the turn server’s: they run there and are not seen here. "
                       "Shown here: the states of its turns, its tool calls and its diagnostics, and, under Wire Events, what went over the wire."));
  else if (g_str_equal (backend, "ask"))
    text = g_strdup (_("The routes and policy decisions of this conversation are the Ask service’s: they run there and are not seen here. "
                       "Shown here: its turns, and, under Wire Events, what went over the wire."));
  else
    /* Translators: %s names the backend of a conversation */
    text = g_strdup_printf (_("The routes and policy decisions of this conversation are made by %s and are not seen here."), backend);

  gtk_label_set_text (self->notice_label, text != NULL ? text : "");
  gtk_widget_set_visible (self->notice, text != NULL);
  /* A screen reader hears it with the list too. */
  if (text != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
on_decided_by (AkcTraceCapture *capture,
               GParamSpec      *pspec,
               AkcInspector    *self)
{
  update_notice (self);
}

static GtkWidget *
notice_new (GtkLabel **label_out)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *icon = g_object_new (GTK_TYPE_IMAGE, "icon-name", "dialog-information-symbolic",
                                  "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  /* Selectable, so the keyboard reaches it (Tab) and it can be copied. */
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_add_css_class (box, "card");
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_visible (box, FALSE);
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_start (icon, 12);
  gtk_widget_set_margin_top (icon, 12);

  *label_out = GTK_LABEL (label);
  return box;
}

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
  g_clear_signal_handler (&self->wire_id, self->capture);
  g_clear_signal_handler (&self->decided_id, self->capture);
  g_clear_object (&self->capture);
  g_clear_object (&self->messages);
  g_clear_object (&self->settings);

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
  gtk_widget_class_install_action (widget_class, "inspector.page", "s", page_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "inspector.page", "s", "traces");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "inspector.page", "s", "wire");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
akc_inspector_init (AkcInspector *self)
{
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *switcher_bar = adw_view_switcher_bar_new ();
  GtkWidget *traces;
  GtkWidget *wire;
  AdwViewStackPage *page;

  gtk_window_set_title (GTK_WINDOW (self), _("Developer Tools"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 640);

  traces = records_page ("utilities-terminal-symbolic", _("Nothing Traced Yet"),
                         _("Which route answered, what the policy decided and why, and how each action went appear here as the conversation goes on."),
                         _("Trace records"), "records", &self->stack, &self->list, &self->scroller);
  wire = records_page ("network-transmit-receive-symbolic", _("No Wire Events Yet"),
                       _("What goes to the turn server, the Ask service or the model provider and what comes back appears here, redacted, as the conversation goes on."),
                       _("Wire events"), "events", &self->wire_stack, &self->wire_list, &self->wire_scroller);

  {
    GtkWidget *traces_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

    self->notice = notice_new (&self->notice_label);
    gtk_box_append (GTK_BOX (traces_box), self->notice);
    gtk_box_append (GTK_BOX (traces_box), traces);
    traces = traces_box;
  }

  self->pages = ADW_VIEW_STACK (adw_view_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->pages), TRUE);
  page = adw_view_stack_add_titled (self->pages, traces, "traces", _("Traces"));
  adw_view_stack_page_set_icon_name (page, "view-list-symbolic");
  page = adw_view_stack_add_titled (self->pages, wire, "wire", _("Wire Events"));
  adw_view_stack_page_set_icon_name (page, "network-transmit-receive-symbolic");

  self->title = ADW_VIEW_SWITCHER_TITLE (adw_view_switcher_title_new ());
  adw_view_switcher_title_set_title (self->title, _("Developer Tools"));
  adw_view_switcher_title_set_stack (self->title, self->pages);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->title));
  adw_view_switcher_bar_set_stack (ADW_VIEW_SWITCHER_BAR (switcher_bar), self->pages);
  g_object_bind_property (self->title, "title-visible", switcher_bar, "reveal", G_BINDING_SYNC_CREATE);

  self->save_button = GTK_BUTTON (gtk_button_new_from_icon_name ("document-save-symbolic"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button), _("Save Replay Fixture… (Ctrl+S)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->save_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Save Replay Fixture…"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->save_button), "inspector.save");
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->save_button));
  gtk_box_append (GTK_BOX (box), header);

  self->toasts = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toasts, GTK_WIDGET (self->pages));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toasts));
  gtk_box_append (GTK_BOX (box), switcher_bar);

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

  adw_view_switcher_title_set_subtitle (self->title, title);
  g_set_object (&self->messages, messages);
  if (self->capture != capture)
    {
      g_clear_signal_handler (&self->added_id, self->capture);
      g_clear_signal_handler (&self->wire_id, self->capture);
      g_clear_signal_handler (&self->decided_id, self->capture);
      g_set_object (&self->capture, capture);
      clear_rows (self);
      if (capture != NULL)
        {
          g_autoptr(GPtrArray) events = akc_trace_capture_dup_wire_events (capture);

          snapshot = akc_trace_capture_snapshot (capture);
          for (guint i = 0; i < snapshot->len; i++)
            add_row (self, g_ptr_array_index (snapshot, i));
          for (guint i = 0; i < events->len; i++)
            add_wire_row (self, g_ptr_array_index (events, i));
          self->added_id = g_signal_connect (capture, "record-added", G_CALLBACK (on_record_added), self);
          self->wire_id = g_signal_connect (capture, "wire-event-added", G_CALLBACK (on_wire_event_added), self);
          self->decided_id = g_signal_connect (capture, "notify::decided-by", G_CALLBACK (on_decided_by), self);
        }
      update_notice (self);
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
  AkcChatSource *source = item != NULL ? akc_conversation_item_get_source (item) : NULL;

  /* A demo traces its routes, policies and actions; a conversation of
   * the Ask service, the turn server or the model provider its turns and
   * its wire events (the session made the capture when it opened it). */
  akc_inspector_set_conversation (self,
                                  item != NULL ? akc_conversation_item_get_display_title (item) : NULL,
                                  item != NULL ? akc_conversation_item_get_trace_capture (item) : NULL,
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

/**
 * akc_inspector_set_settings:
 * @self: an inspector
 * @settings: (nullable): the application's settings
 *
 * Redacts the fixtures it saves with the fields `replay-redact-fields`
 * names too, as it names them when saving.
 */
void
akc_inspector_set_settings (AkcInspector *self,
                            GSettings    *settings)
{
  g_return_if_fail (AKC_IS_INSPECTOR (self));
  g_return_if_fail (settings == NULL || G_IS_SETTINGS (settings));

  g_set_object (&self->settings, settings);
}

/**
 * akc_inspector_get_n_wire_rows:
 * @self: an inspector
 *
 * Returns: how many wire events the inspector shows
 */
guint
akc_inspector_get_n_wire_rows (AkcInspector *self)
{
  g_return_val_if_fail (AKC_IS_INSPECTOR (self), 0);
  return self->n_wire_rows;
}

/**
 * akc_inspector_dup_wire_row_text:
 * @self: an inspector
 * @index_: a wire row's position
 *
 * Returns: (transfer full) (nullable): the row's title and, after a
 *   newline, what it shows of the event
 */
char *
akc_inspector_dup_wire_row_text (AkcInspector *self,
                                 guint         index_)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (AKC_IS_INSPECTOR (self), NULL);

  row = gtk_list_box_get_row_at_index (self->wire_list, index_);
  if (row == NULL)
    return NULL;
  return g_strconcat (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), "\n",
                      adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), NULL);
}

/**
 * akc_inspector_get_visible_page:
 * @self: an inspector
 *
 * Returns: `traces` or `wire`
 */
const char *
akc_inspector_get_visible_page (AkcInspector *self)
{
  g_return_val_if_fail (AKC_IS_INSPECTOR (self), NULL);
  return adw_view_stack_get_visible_child_name (self->pages);
}

/**
 * akc_inspector_dup_notice:
 * @self: an inspector
 *
 * Returns: (transfer full) (nullable): what the notice over the traces
 *   says (the routes and policy are the backend's), or %NULL when none
 *   shows
 */
char *
akc_inspector_dup_notice (AkcInspector *self)
{
  g_return_val_if_fail (AKC_IS_INSPECTOR (self), NULL);

  if (!gtk_widget_get_visible (self->notice))
    return NULL;
  return g_strdup (gtk_label_get_text (self->notice_label));
}


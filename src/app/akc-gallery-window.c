/* akc-gallery-window.c: every standard component, live, with its events
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>
#include <akc-gtk.h>

#include "akc-gallery-window.h"

/* The page a designer opens to see the whole catalog: each of the twelve
 * standard components (application.md §1) with realistic props, rendered
 * by AkcComponentView and fully interactive, one frame the catalog cannot
 * render (the semantic fallback), and a log of every event the views emit
 * as its canonical wire JSON.
 *
 * "Fail Next Event" makes the gallery report the next event as failed
 * (§12.7), to show the error and the un-resolved state; "Reset" renders
 * every frame afresh.
 *
 * The sample props are wire data, as a server would send them, so they
 * are not translated; the gallery's own text is. */

struct _AkcGalleryWindow
{
  AdwApplicationWindow  parent_instance;

  GtkScrolledWindow    *scroller;
  GtkBox               *columns[3];
  GtkBox               *log_box;
  GtkLabel             *log_placeholder;
  GtkScrolledWindow    *log_scroller;
  GtkToggleButton      *fail_toggle;

  GPtrArray            *sections;    /* in catalog order, the fallback last */
  guint                 n_columns;
  guint                 relayout_id;
  guint                 n_events;
};

G_DEFINE_FINAL_TYPE (AkcGalleryWindow, akc_gallery_window, ADW_TYPE_APPLICATION_WINDOW)

typedef struct {
  const char *key;
  const char *instance_id;
  const char *props;
  const char *fallback_summary;
} GallerySample;

/* In catalog order (§1.1), then a key the catalog does not know. */
static const GallerySample samples[] = {
  { "button-group", "gallery-button-group",
    "{\"label\":\"How should I handle this ticket?\",\"buttons\":["
    "{\"id\":\"resolve\",\"label\":\"Resolve\",\"variant\":\"primary\"},"
    "{\"id\":\"snooze\",\"label\":\"Snooze\",\"variant\":\"secondary\"},"
    "{\"id\":\"escalate\",\"label\":\"Escalate\",\"disabled\":true},"
    "{\"id\":\"close\",\"label\":\"Close\",\"variant\":\"danger\"}]}",
    "Choose Resolve, Snooze, Escalate or Close." },
  { "choice-list", "gallery-choice-list",
    "{\"prompt\":\"Where should we go next?\",\"choices\":["
    "{\"id\":\"docs\",\"label\":\"Documentation\",\"description\":\"Read the component guide.\"},"
    "{\"id\":\"demo\",\"label\":\"Live demo\",\"description\":\"Try the support assistant.\"},"
    "{\"id\":\"pricing\",\"label\":\"Pricing\",\"action\":{\"name\":\"open-pricing\",\"input\":{\"plan\":\"team\"}}}]}",
    "Choose Documentation, Live demo or Pricing." },
  { "form", "gallery-form",
    "{\"title\":\"Book a demo\",\"fields\":["
    "{\"id\":\"name\",\"label\":\"Name\",\"type\":\"text\",\"required\":true,\"placeholder\":\"Ada Lovelace\"},"
    "{\"id\":\"email\",\"label\":\"Work email\",\"type\":\"email\",\"required\":true,\"placeholder\":\"ada@example.com\"},"
    "{\"id\":\"seats\",\"label\":\"Seats\",\"type\":\"number\",\"placeholder\":\"5\"},"
    "{\"id\":\"plan\",\"label\":\"Plan\",\"type\":\"select\",\"options\":["
    "{\"id\":\"starter\",\"label\":\"Starter\"},{\"id\":\"team\",\"label\":\"Team\"},{\"id\":\"enterprise\",\"label\":\"Enterprise\"}]},"
    "{\"id\":\"updates\",\"label\":\"Send me product updates\",\"type\":\"checkbox\"}],"
    "\"submitLabel\":\"Request demo\"}",
    "A form to book a demo." },
  { "confirmation", "gallery-confirmation",
    "{\"title\":\"Delete this conversation?\",\"message\":\"All 24 messages will be removed. This cannot be undone.\","
    "\"confirmLabel\":\"Delete\",\"cancelLabel\":\"Keep\"}",
    "Confirm deleting the conversation." },
  { "progress", "gallery-progress",
    "{\"label\":\"Indexing documents\",\"value\":68,\"status\":\"1,360 of 2,000 pages\"}",
    "Indexing is 68% complete." },
  { "source-list", "gallery-source-list",
    "{\"label\":\"Sources\",\"sources\":["
    "{\"id\":\"guide\",\"title\":\"AgentsKit component guide\",\"url\":\"https://agentskit.io/docs/components\","
    "\"snippet\":\"The latest unresolved interactive component owns input.\"},"
    "{\"id\":\"notes\",\"title\":\"Release notes 0.4\",\"url\":\"/docs/releases\"},"
    "{\"id\":\"wiki\",\"title\":\"Team wiki (not linked)\",\"snippet\":\"Internal page.\"}]}",
    "Three sources." },
  { "link-card", "gallery-link-card",
    "{\"title\":\"Component guide\",\"description\":\"Roles, keys and events of the twelve standard components.\","
    "\"href\":\"https://agentskit.io/docs/components\",\"label\":\"Read the guide\"}",
    "A link to the component guide." },
  { "error-notice", "gallery-error-notice",
    "{\"title\":\"Couldn't reach the knowledge base\",\"message\":\"The request timed out after 30 seconds.\","
    "\"code\":\"ASK_TIMEOUT\",\"retryLabel\":\"Try again\"}",
    "The knowledge base timed out." },
  { "tool-call", "gallery-tool-call",
    "{\"name\":\"search_docs\",\"status\":\"complete\",\"arguments\":{\"query\":\"component keyboard rules\",\"limit\":3},"
    "\"result\":{\"hits\":2,\"top\":\"Input ownership\"}}",
    "search_docs finished." },
  { "approval-request", "gallery-approval-request",
    "{\"title\":\"Send this email?\",\"description\":\"The assistant wants to send the meeting summary to team@example.com.\","
    "\"approveLabel\":\"Send\",\"denyLabel\":\"Don't send\"}",
    "Approve sending the summary." },
  { "table", "gallery-table", NULL, "Open tickets." },
  { "file-attachment", "gallery-file-attachment",
    "{\"name\":\"quarterly-report.pdf\",\"mimeType\":\"application/pdf\",\"sizeBytes\":482133,"
    "\"url\":\"https://example.com/files/quarterly-report.pdf\"}",
    "The quarterly report." },
  /* Not in the catalog: the semantic fallback (§12.5). */
  { "revenue-chart", "gallery-fallback",
    "{\"series\":[12,15,19]}",
    "Revenue grew 12% quarter over quarter." },
};

/* Which samples go in which column, for 1, 2 and 3 columns: roughly
 * balanced heights. Indices into samples[]. */
static const int layouts[3][3][14] = {
  { { 0, 1, 2, 3, 9, 7, 4, 8, 6, 5, 11, 10, 12, -1 } },
  { { 0, 1, 2, 3, 9, 7, -1 }, { 4, 8, 6, 5, 11, 10, 12, -1 } },
  { { 0, 1, 2, -1 }, { 3, 9, 7, 4, 6, -1 }, { 8, 5, 11, 10, 12, -1 } },
};

static const char *
sample_title (const char *key)
{
  static const struct { const char *key; const char *title; } titles[] = {
    { "button-group", N_("Button Group") },
    { "choice-list", N_("Choice List") },
    { "form", N_("Form") },
    { "confirmation", N_("Confirmation") },
    { "progress", N_("Progress") },
    { "source-list", N_("Source List") },
    { "link-card", N_("Link Card") },
    { "error-notice", N_("Error Notice") },
    { "tool-call", N_("Tool Call") },
    { "approval-request", N_("Approval Request") },
    { "table", N_("Table") },
    { "file-attachment", N_("File Attachment") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    if (strcmp (titles[i].key, key) == 0)
      return _(titles[i].title);

  return _("Semantic Fallback");
}

/* A table of 40 tickets: enough to scroll. */
static char *
table_props (void)
{
  static const char * const titles[] = {
    "Login loop on Safari", "Export to CSV is empty", "Wrong invoice total",
    "Dark mode contrast", "Webhook retries twice", "Slow search on large sites",
    "SSO group mapping", "Typo in the welcome mail",
  };
  static const char * const priorities[] = { "high", "medium", "low" };
  static const char * const people[] = { "Ada", "Grace", "Linus", "Margaret", "Ken" };
  GString *props = g_string_new ("{\"caption\":\"Open tickets\",\"columns\":["
                                 "{\"key\":\"id\",\"label\":\"Ticket\"},{\"key\":\"title\",\"label\":\"Title\"},"
                                 "{\"key\":\"priority\",\"label\":\"Priority\"},{\"key\":\"age\",\"label\":\"Age (days)\"},"
                                 "{\"key\":\"assignee\",\"label\":\"Assignee\"},{\"key\":\"escalated\",\"label\":\"Escalated\"}],"
                                 "\"rows\":[");

  for (guint i = 0; i < 40; i++)
    {
      g_string_append_printf (props, "%s{\"id\":\"T-%u\",\"title\":\"%s\",\"priority\":\"%s\",\"age\":%g,",
                              i > 0 ? "," : "", 1200 + i, titles[i % G_N_ELEMENTS (titles)],
                              priorities[i % G_N_ELEMENTS (priorities)], (i * 7 % 30) + 0.5 * (i % 2));
      if (i % 4 == 3)
        g_string_append (props, "\"assignee\":null,");
      else
        g_string_append_printf (props, "\"assignee\":\"%s\",", people[i % G_N_ELEMENTS (people)]);
      g_string_append_printf (props, "\"escalated\":%s}", i % 5 == 0 ? "true" : "false");
    }
  g_string_append (props, "]}");

  return g_string_free (props, FALSE);
}

static AkcJsonValue *
sample_frame (const GallerySample *sample)
{
  g_autofree char *generated = sample->props == NULL ? table_props () : NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *frame;

  text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                          "\"componentKey\":\"%s\",\"instanceId\":\"%s\",\"props\":%s,"
                          "\"fallback\":{\"kind\":\"%s\",\"summary\":\"%s\"}}",
                          sample->key, sample->instance_id,
                          generated != NULL ? generated : sample->props,
                          sample->key, sample->fallback_summary);
  frame = akc_json_value_parse (text, -1, &error);
  g_assert_no_error (error);

  return frame;
}

static void
append_log (AkcGalleryWindow *self,
            const char       *kind,
            AkcJsonValue     *event)
{
  g_autofree char *json = akc_json_value_to_canonical (event, NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *time = g_date_time_format (now, "%H:%M:%S");
  /* Translators: a line of the event log: time, signal name */
  g_autofree char *header = g_strdup_printf (_("%s · %s"), time, kind);
  GtkWidget *entry = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (header);
  GtkWidget *body = gtk_label_new (json);
  GtkAdjustment *adjustment;

  gtk_widget_add_css_class (entry, "log-entry");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "caption-heading");
  gtk_widget_add_css_class (title, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (body), 0);
  gtk_label_set_wrap (GTK_LABEL (body), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (body), PANGO_WRAP_CHAR);
  gtk_label_set_selectable (GTK_LABEL (body), TRUE);
  gtk_widget_add_css_class (body, "monospace");
  gtk_widget_add_css_class (body, "caption");
  gtk_box_append (GTK_BOX (entry), title);
  gtk_box_append (GTK_BOX (entry), body);

  gtk_widget_set_visible (GTK_WIDGET (self->log_placeholder), FALSE);
  gtk_box_append (self->log_box, entry);
  self->n_events++;

  adjustment = gtk_scrolled_window_get_vadjustment (self->log_scroller);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
}

static void
log_event (AkcGalleryWindow    *self,
           AkcComponentView    *view,
           const char          *signal_name,
           AkcJsonValue        *event,
           AkcComponentFailure  failure)
{
  append_log (self, signal_name, event);

  /* Show how a failed handler looks (§12.7). */
  if (gtk_toggle_button_get_active (self->fail_toggle))
    {
      gtk_toggle_button_set_active (self->fail_toggle, FALSE);
      akc_component_view_fail (view, failure, NULL);
    }
}

static void
on_interaction (AkcComponentView *view,
                AkcJsonValue     *event,
                AkcGalleryWindow *self)
{
  log_event (self, view, "interaction", event, AKC_COMPONENT_FAILURE_INTERACTION);
}

static void
on_selection (AkcComponentView *view,
              AkcJsonValue     *event,
              AkcGalleryWindow *self)
{
  log_event (self, view, "selection", event, AKC_COMPONENT_FAILURE_ACTION_PROPOSAL);
}

static GtkWidget *
sample_section_new (AkcGalleryWindow    *self,
                    const GallerySample *sample)
{
  g_autoptr(AkcJsonValue) frame = sample_frame (sample);
  GtkWidget *section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title = gtk_label_new (sample_title (sample->key));
  GtkWidget *key = gtk_label_new (sample->key);
  GtkWidget *view = akc_component_view_new (frame, NULL);

  gtk_widget_add_css_class (section, "gallery-section");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (key, "monospace");
  gtk_widget_add_css_class (key, "caption");
  gtk_widget_add_css_class (key, "dim-label");
  gtk_widget_set_valign (key, GTK_ALIGN_BASELINE);
  gtk_widget_set_valign (title, GTK_ALIGN_BASELINE);
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), key);
  gtk_box_append (GTK_BOX (section), header);

  g_signal_connect_object (view, "interaction", G_CALLBACK (on_interaction), self, 0);
  g_signal_connect_object (view, "selection", G_CALLBACK (on_selection), self, 0);
  gtk_box_append (GTK_BOX (section), view);

  return section;
}

/* Puts the sections into @n_columns columns (moving, not rebuilding, so
 * their state survives). */
static void
akc_gallery_window_set_n_columns (AkcGalleryWindow *self,
                                  guint             n_columns)
{
  g_assert (n_columns >= 1 && n_columns <= 3);

  for (guint c = 0; c < 3; c++)
    {
      GtkWidget *child;

      while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->columns[c]))) != NULL)
        gtk_box_remove (self->columns[c], child);
      gtk_widget_set_visible (GTK_WIDGET (self->columns[c]), c < n_columns);
    }

  for (guint c = 0; c < n_columns; c++)
    for (guint i = 0; layouts[n_columns - 1][c][i] >= 0; i++)
      gtk_box_append (self->columns[c], g_ptr_array_index (self->sections, layouts[n_columns - 1][c][i]));

  self->n_columns = n_columns;
}

static void
akc_gallery_window_populate (AkcGalleryWindow *self)
{
  g_ptr_array_set_size (self->sections, 0);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    g_ptr_array_add (self->sections, g_object_ref_sink (sample_section_new (self, &samples[i])));

  akc_gallery_window_set_n_columns (self, self->n_columns);
}

static guint
columns_for_width (double width)
{
  if (width >= 1240)
    return 3;
  if (width >= 820)
    return 2;
  return 1;
}

static gboolean
relayout (gpointer user_data)
{
  AkcGalleryWindow *self = user_data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_hadjustment (self->scroller);
  guint n_columns = columns_for_width (gtk_adjustment_get_page_size (adjustment));

  self->relayout_id = 0;
  if (n_columns != self->n_columns)
    akc_gallery_window_set_n_columns (self, n_columns);

  return G_SOURCE_REMOVE;
}

static void
on_width_changed (AkcGalleryWindow *self)
{
  /* Not during the size allocation that reported the width. */
  if (self->relayout_id == 0)
    self->relayout_id = g_idle_add (relayout, self);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  akc_gallery_window_populate (AKC_GALLERY_WINDOW (widget));
}

static void
clear_log_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AkcGalleryWindow *self = AKC_GALLERY_WINDOW (widget);
  GtkWidget *child;

  while ((child = gtk_widget_get_last_child (GTK_WIDGET (self->log_box))) != GTK_WIDGET (self->log_placeholder))
    gtk_box_remove (self->log_box, child);
  gtk_widget_set_visible (GTK_WIDGET (self->log_placeholder), TRUE);
  self->n_events = 0;
}

static void
akc_gallery_window_dispose (GObject *object)
{
  AkcGalleryWindow *self = AKC_GALLERY_WINDOW (object);

  g_clear_handle_id (&self->relayout_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_GALLERY_WINDOW);
  g_clear_pointer (&self->sections, g_ptr_array_unref);

  G_OBJECT_CLASS (akc_gallery_window_parent_class)->dispose (object);
}

static void
akc_gallery_window_class_init (AkcGalleryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_gallery_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-gallery-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcGalleryWindow, scroller);
  gtk_widget_class_bind_template_child_full (widget_class, "column_1", FALSE, G_STRUCT_OFFSET (AkcGalleryWindow, columns[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "column_2", FALSE, G_STRUCT_OFFSET (AkcGalleryWindow, columns[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "column_3", FALSE, G_STRUCT_OFFSET (AkcGalleryWindow, columns[2]));
  gtk_widget_class_bind_template_child (widget_class, AkcGalleryWindow, log_box);
  gtk_widget_class_bind_template_child (widget_class, AkcGalleryWindow, log_placeholder);
  gtk_widget_class_bind_template_child (widget_class, AkcGalleryWindow, log_scroller);
  gtk_widget_class_bind_template_child (widget_class, AkcGalleryWindow, fail_toggle);

  gtk_widget_class_install_action (widget_class, "gallery.reset", NULL, reset_action);
  gtk_widget_class_install_action (widget_class, "gallery.clear-log", NULL, clear_log_action);
}

static void
akc_gallery_window_init (AkcGalleryWindow *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->sections = g_ptr_array_new_with_free_func (g_object_unref);
  self->n_columns = 3;
  akc_gallery_window_populate (self);

  g_signal_connect_object (gtk_scrolled_window_get_hadjustment (self->scroller), "notify::page-size",
                           G_CALLBACK (on_width_changed), self, G_CONNECT_SWAPPED);
}

/**
 * akc_gallery_window_new:
 * @application: the application
 *
 * Creates the component gallery.
 *
 * Returns: (transfer full): a new #AkcGalleryWindow
 */
AkcGalleryWindow *
akc_gallery_window_new (AdwApplication *application)
{
  return g_object_new (AKC_TYPE_GALLERY_WINDOW,
                       "application", application,
                       NULL);
}

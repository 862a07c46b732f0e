/* test-components.c: AkcComponentView and the standard component widgets,
 * in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 *
 * Frames are resolved by the libakc catalog; the events the views emit are
 * compared byte for byte (canonical JSON) with the wire events of
 * application.md §2.5/§2.6. Keys are delivered to the component widgets'
 * own key controllers along GTK's propagation path (capture from the
 * window down, then bubble up), and keys GTK's widgets handle natively
 * (Enter on a button, Space on a check button, Enter in an entry) are
 * applied as those widgets would: through gtk_widget_activate().
 *
 * The program links a static copy of libakc-gtk, so it can also build a
 * component widget from props no frame could carry (the 1000 × 30 table).
 */

#include "config.h"

#include <locale.h>
#include <akc-gtk.h>

#include "akc-component-widget-private.h"
#include "akc-test-ui.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
  GtkWidget *window;
  GtkWidget *view;
  GPtrArray *events;     /* canonical JSON of each emitted event */
  GPtrArray *uris;       /* URIs of open-uri */
  gboolean   fail_next;  /* the handler reports a failure */
} Fixture;

/* A render frame around @props_json (§2.1). */
static AkcJsonValue *
make_frame (const char *key,
            const char *instance_id,
            const char *props_json)
{
  g_autofree char *text = g_strdup_printf ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,"
                                           "\"type\":\"render\",\"componentKey\":\"%s\",\"instanceId\":\"%s\","
                                           "\"props\":%s,\"fallback\":{\"kind\":\"%s\",\"summary\":\"A %s.\"}}",
                                           key, instance_id, props_json, key, key);

  return akc_test_parse_json (text);
}

static void
record_event (AkcComponentView *view,
              AkcJsonValue     *event,
              Fixture          *fixture)
{
  g_ptr_array_add (fixture->events, akc_json_value_to_canonical (event, NULL));

  if (fixture->fail_next)
    {
      fixture->fail_next = FALSE;
      akc_component_view_fail (view, AKC_COMPONENT_FAILURE_INTERACTION, NULL);
    }
}

static void
record_uri (AkcComponentView *view,
            const char       *uri,
            Fixture          *fixture)
{
  g_ptr_array_add (fixture->uris, g_strdup (uri));
  /* Never start a browser from a test. */
  g_signal_stop_emission_by_name (view, "open-uri");
}

static void
fixture_init_frame (Fixture      *fixture,
                    AkcJsonValue *frame,
                    gboolean      handle_interactions)
{
  fixture->events = g_ptr_array_new_with_free_func (g_free);
  fixture->uris = g_ptr_array_new_with_free_func (g_free);
  fixture->view = akc_component_view_new (frame, NULL);
  if (handle_interactions)
    g_signal_connect (fixture->view, "interaction", G_CALLBACK (record_event), fixture);
  g_signal_connect (fixture->view, "selection", G_CALLBACK (record_event), fixture);
  g_signal_connect (fixture->view, "open-uri", G_CALLBACK (record_uri), fixture);

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 500);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->view);
  gtk_window_present (GTK_WINDOW (fixture->window));
  spin ();
}

static void
fixture_init (Fixture    *fixture,
              const char *key,
              const char *instance_id,
              const char *props_json)
{
  g_autoptr(AkcJsonValue) frame = make_frame (key, instance_id, props_json);

  fixture_init_frame (fixture, frame, TRUE);
}

static void
fixture_clear (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  spin ();
  g_clear_pointer (&fixture->events, g_ptr_array_unref);
  g_clear_pointer (&fixture->uris, g_ptr_array_unref);
}

static GtkWidget *
content (Fixture *fixture)
{
  GtkWidget *widget = akc_component_view_get_content (AKC_COMPONENT_VIEW (fixture->view));

  g_assert_nonnull (widget);
  return widget;
}

static GtkWidget *
focus_of (Fixture *fixture)
{
  return gtk_root_get_focus (GTK_ROOT (fixture->window));
}

static gboolean
has_role (GtkWidget     *widget,
          gconstpointer  data)
{
  return gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget)) == (GtkAccessibleRole) GPOINTER_TO_INT (data);
}

static GtkWidget *
find_nth (GtkWidget *root,
          GType      type,
          guint      n)
{
  g_autoptr(GPtrArray) all = find_all (root, is_type, GSIZE_TO_POINTER (type));

  g_assert_cmpuint (all->len, >, n);
  return g_ptr_array_index (all, n);
}

static guint
count_type (GtkWidget *root,
            GType      type)
{
  g_autoptr(GPtrArray) all = find_all (root, is_type, GSIZE_TO_POINTER (type));

  return all->len;
}

static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  g_autoptr(GPtrArray) all = find_all (root, is_label_with_text, text);

  g_assert_cmpuint (all->len, >=, 1);
  return g_ptr_array_index (all, 0);
}

static void
on_clicked_flag (GtkButton *button,
                 gboolean  *clicked)
{
  *clicked = TRUE;
}

static gboolean
on_timeout_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Activates @widget as its key binding does. A GtkButton shows itself
 * pressed and emits "clicked" when its activation ends: wait for that. */
static void
activate (GtkWidget *widget)
{
  gboolean clicked = FALSE, timed_out = FALSE;
  gulong handler;
  guint timeout;

  if (!GTK_IS_BUTTON (widget) || !gtk_widget_is_sensitive (widget))
    {
      gtk_widget_activate (widget);
      return;
    }

  handler = g_signal_connect (widget, "clicked", G_CALLBACK (on_clicked_flag), &clicked);
  timeout = g_timeout_add (5000, on_timeout_flag, &timed_out);
  g_assert_true (gtk_widget_activate (widget));
  WAIT_UNTIL (!(!clicked && !timed_out));
  g_assert_false (timed_out);
  g_source_remove (timeout);
  g_signal_handler_disconnect (widget, handler);
}

static gboolean
is_ours (GtkWidget *widget)
{
  return g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Akc");
}

static gboolean
run_key_controllers (GtkWidget           *widget,
                     GtkPropagationPhase  phase,
                     guint                keyval)
{
  g_autoptr(GListModel) controllers = NULL;
  guint n;

  if (!is_ours (widget))
    return FALSE;

  controllers = gtk_widget_observe_controllers (widget);
  n = g_list_model_get_n_items (controllers);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);
      gboolean handled = FALSE;

      if (!GTK_IS_EVENT_CONTROLLER_KEY (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != phase)
        continue;

      g_signal_emit_by_name (controller, "key-pressed", keyval, 0, (GdkModifierType) 0, &handled);
      if (handled)
        return TRUE;
    }

  return FALSE;
}

static gboolean
is_activation_key (guint keyval)
{
  return keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_space;
}

/* Presses @keyval with the focus where it is, along GTK's propagation. */
static void
press (Fixture *fixture,
       guint    keyval)
{
  GtkWidget *focus = focus_of (fixture);
  g_autoptr(GPtrArray) path = g_ptr_array_new ();

  g_assert_nonnull (focus);
  for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
    g_ptr_array_insert (path, 0, w);

  /* Capture, from the window down to the focus. */
  for (guint i = 0; i < path->len; i++)
    if (run_key_controllers (g_ptr_array_index (path, i), GTK_PHASE_CAPTURE, keyval))
      return;

  /* The focus widget's own bindings. */
  if (is_activation_key (keyval) &&
      (GTK_IS_BUTTON (focus) || GTK_IS_CHECK_BUTTON (focus) ||
       (GTK_IS_TEXT (focus) && keyval != GDK_KEY_space)))
    {
      if (gtk_widget_is_sensitive (focus))
        activate (focus);
      return;
    }

  /* Bubble, from the focus up to the window. */
  for (guint i = path->len; i > 0; i--)
    if (run_key_controllers (g_ptr_array_index (path, i - 1), GTK_PHASE_BUBBLE, keyval))
      return;
}

static void
assert_events (Fixture    *fixture,
               const char *first,
               ...)
{
  va_list args;
  guint n = 0;

  va_start (args, first);
  for (const char *expected = first; expected != NULL; expected = va_arg (args, const char *))
    {
      g_assert_cmpuint (fixture->events->len, >, n);
      g_assert_cmpstr (g_ptr_array_index (fixture->events, n), ==, expected);
      n++;
    }
  va_end (args);

  g_assert_cmpuint (fixture->events->len, ==, n);
}

#define EVENT_PREFIX "{\"protocol\":\"agentskit.chat.component\",\"version\":1,"
#define INTERACT(key, id, event) EVENT_PREFIX "\"type\":\"interact\",\"componentKey\":\"" key "\",\"instanceId\":\"" id "\",\"event\":\"" event "\"}"
#define INTERACT_VALUE(key, id, event, value) EVENT_PREFIX "\"type\":\"interact\",\"componentKey\":\"" key "\",\"instanceId\":\"" id "\",\"event\":\"" event "\",\"value\":" value "}"
#define SELECT(id, choice) EVENT_PREFIX "\"type\":\"select\",\"componentKey\":\"choice-list\",\"instanceId\":\"" id "\",\"choiceId\":\"" choice "\"}"

/* After a resolving event: inert, insensitive (disabled), and a second
 * activation of the same control emits nothing. */
static void
assert_resolved_and_inert (Fixture   *fixture,
                           GtkWidget *control)
{
  guint before = fixture->events->len;

  g_assert_true (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture->view)));
  g_assert_false (akc_component_view_get_interactive (AKC_COMPONENT_VIEW (fixture->view)));
  g_assert_false (gtk_widget_is_sensitive (content (fixture)));
  gtk_test_accessible_assert_state (content (fixture), GTK_ACCESSIBLE_STATE_DISABLED, TRUE);
  /* Its controls too, for assistive technologies. */
  g_assert_false (gtk_widget_is_sensitive (control));
  gtk_test_accessible_assert_state (control, GTK_ACCESSIBLE_STATE_DISABLED, TRUE);

  activate (control);
  g_signal_emit_by_name (control, "clicked");
  g_assert_cmpuint (fixture->events->len, ==, before);
}

static void
count_link (AkcComponentView *view,
            AkcJsonValue     *value,
            GPtrArray        *links)
{
  g_ptr_array_add (links, value != NULL ? akc_json_value_to_canonical (value, NULL) : g_strdup ("null"));
}

/* Issue 13 item 3: a source list or a link card is navigation. After its
 * first use it is not resolved, its links stay usable and keep working
 * (link-activated every time), and its `open` event is not emitted
 * again. */
static void
assert_navigation_keeps_working (Fixture    *fixture,
                                 GtkWidget  *control,
                                 GPtrArray  *links,
                                 const char *value)
{
  guint events = fixture->events->len;
  guint activated = links->len;

  g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture->view)));
  g_assert_true (gtk_widget_is_sensitive (content (fixture)));
  g_assert_true (gtk_widget_is_sensitive (control));
  gtk_test_accessible_assert_state (control, GTK_ACCESSIBLE_STATE_DISABLED, FALSE);

  activate (control);
  g_assert_cmpuint (links->len, ==, activated + 1);
  g_assert_cmpstr (g_ptr_array_index (links, links->len - 1), ==, value);
  g_signal_emit_by_name (control, "clicked");
  g_assert_cmpuint (links->len, ==, activated + 2);
  g_assert_cmpuint (fixture->events->len, ==, events);
}

/* A resolved component gives the keyboard back (to the composer, in a
 * chat): no key can reach it any more. */
static void
assert_focus_left (Fixture *fixture)
{
  GtkWidget *focus = focus_of (fixture);

  g_assert_true (focus == NULL || !gtk_widget_is_ancestor (focus, fixture->view));
}

/* ------------------------------------------------------------------ */
/* The canonical fixture frames (§1.15) render natively                */
/* ------------------------------------------------------------------ */

/* The GTK role of a catalog role (§1.1 port note). */
static GtkAccessibleRole
gtk_role_of (const char *role)
{
  static const struct { const char *name; GtkAccessibleRole role; } roles[] = {
    { "group", GTK_ACCESSIBLE_ROLE_GROUP },
    { "form", GTK_ACCESSIBLE_ROLE_FORM },
    { "progressbar", GTK_ACCESSIBLE_ROLE_PROGRESS_BAR },
    { "list", GTK_ACCESSIBLE_ROLE_LIST },
    { "link", GTK_ACCESSIBLE_ROLE_LINK },
    { "alert", GTK_ACCESSIBLE_ROLE_ALERT },
    { "status", GTK_ACCESSIBLE_ROLE_STATUS },
    { "table", GTK_ACCESSIBLE_ROLE_TABLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (roles); i++)
    if (g_strcmp0 (roles[i].name, role) == 0)
      return roles[i].role;

  g_assert_not_reached ();
}

/* The widget carries the role its definition declares; the file
 * attachment is a group whose opening element is the link (§12.6). */
static void
assert_definition_role (Fixture *fixture)
{
  AkcResolvedComponent *resolved = akc_component_view_get_resolved_component (AKC_COMPONENT_VIEW (fixture->view));
  AkcComponentDefinition *definition = akc_resolved_component_get_definition (resolved);
  GtkAccessibleRole role = gtk_role_of (akc_component_definition_get_role (definition));

  if (g_strcmp0 (akc_component_definition_get_key (definition), "file-attachment") == 0)
    {
      g_autoptr(GPtrArray) links = find_all (content (fixture), has_role, GINT_TO_POINTER (role));

      gtk_test_accessible_assert_role (content (fixture), GTK_ACCESSIBLE_ROLE_GROUP);
      g_assert_cmpuint (links->len, ==, 1);
      return;
    }

  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (content (fixture))), ==, role);
}

static void
test_fixture_frames (void)
{
  const char *dir = g_getenv ("AKC_FIXTURES_DIR");
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) cases = NULL;
  guint checked = 0;

  if (dir == NULL)
    {
      g_test_fail_printf ("AKC_FIXTURES_DIR is not set");
      return;
    }

  path = g_build_filename (dir, "application", "component-frames.json", NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  cases = akc_test_parse_json (text);

  for (gsize i = 0; i < akc_json_value_get_length (cases); i++)
    {
      AkcJsonValue *c = akc_json_value_get_element (cases, i);
      const char *name = akc_json_value_get_string (akc_json_value_get_member (c, "name"), NULL);
      AkcJsonValue *input = akc_json_value_get_member (c, "input");
      AkcJsonValue *expected = akc_json_value_get_member (akc_json_value_get_member (c, "expect"), "text");
      Fixture fixture = { 0 };

      if (!g_str_has_prefix (name, "§2.9 resolveFallback: "))
        continue;

      g_test_message ("%s", name);
      fixture_init_frame (&fixture, akc_json_value_get_member (input, "frame"), TRUE);

      if (akc_json_value_get_kind (expected) == AKC_JSON_KIND_STRING)
        {
          /* A standard key: its native widget, described by the
           * definition fallback. */
          g_assert_false (akc_component_view_get_is_fallback (AKC_COMPONENT_VIEW (fixture.view)));
          g_assert_true (is_ours (content (&fixture)));
          gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                               akc_json_value_get_string (expected, NULL));
          assert_definition_role (&fixture);
          /* Interactive exactly when the definition declares events (§12.4). */
          g_assert_cmpint (akc_component_view_get_interactive (AKC_COMPONENT_VIEW (fixture.view)), ==,
                           akc_resolved_component_is_interactive (akc_component_view_get_resolved_component (AKC_COMPONENT_VIEW (fixture.view))));
        }
      else
        {
          /* An unknown key: the semantic fallback. */
          g_assert_true (akc_component_view_get_is_fallback (AKC_COMPONENT_VIEW (fixture.view)));
          gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_LABEL);
          g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (find_nth (content (&fixture), GTK_TYPE_LABEL, 0))),
                                           "[unsupported visual: "));
        }

      fixture_clear (&fixture);
      checked++;
    }

  g_assert_cmpuint (checked, ==, 13);
}

/* ------------------------------------------------------------------ */
/* One test per component                                              */
/* ------------------------------------------------------------------ */

static void
test_button_group (void)
{
  Fixture fixture = { 0 };
  GtkWidget *save, *archive, *delete;

  fixture_init (&fixture, "button-group", "bg-1",
                "{\"label\":\"Actions\",\"buttons\":[{\"id\":\"save\",\"label\":\"Save\",\"variant\":\"primary\"},"
                "{\"id\":\"archive\",\"label\":\"Archive\",\"disabled\":true},"
                "{\"id\":\"delete\",\"label\":\"Delete\",\"variant\":\"danger\"}]}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Actions");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Actions: Save, Archive, Delete.");
  g_assert_true (gtk_widget_get_visible (find_label (content (&fixture), "Actions")));
  g_assert_true (akc_component_view_get_interactive (AKC_COMPONENT_VIEW (fixture.view)));

  save = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  archive = find_nth (content (&fixture), GTK_TYPE_BUTTON, 1);
  delete = find_nth (content (&fixture), GTK_TYPE_BUTTON, 2);
  gtk_test_accessible_assert_role (save, GTK_ACCESSIBLE_ROLE_BUTTON);
  gtk_test_accessible_assert_property (save, GTK_ACCESSIBLE_PROPERTY_LABEL, "Save");
  g_assert_true (gtk_widget_has_css_class (save, "suggested-action"));
  g_assert_true (gtk_widget_has_css_class (delete, "destructive-action"));
  gtk_test_accessible_assert_state (archive, GTK_ACCESSIBLE_STATE_DISABLED, TRUE);
  g_assert_false (gtk_widget_is_sensitive (archive));

  /* Focus starts on the first action; ↓ skips the disabled one; ↓ again is clamped. */
  g_assert_true (gtk_widget_grab_focus (fixture.view));
  g_assert_true (focus_of (&fixture) == save);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (focus_of (&fixture) == delete);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (focus_of (&fixture) == delete);
  press (&fixture, GDK_KEY_Up);
  g_assert_true (focus_of (&fixture) == save);
  press (&fixture, GDK_KEY_Up);
  g_assert_true (focus_of (&fixture) == save);
  press (&fixture, GDK_KEY_Down);
  g_assert_cmpuint (fixture.events->len, ==, 0);

  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, INTERACT_VALUE ("button-group", "bg-1", "select", "\"delete\""), NULL);
  assert_resolved_and_inert (&fixture, delete);
  assert_resolved_and_inert (&fixture, save);

  fixture_clear (&fixture);
}

static void
test_choice_list (void)
{
  Fixture fixture = { 0 };
  GtkWidget *first, *second, *third;

  fixture_init (&fixture, "choice-list", "destination-choice",
                "{\"prompt\":\"Where should we go?\",\"choices\":["
                "{\"id\":\"docs\",\"label\":\"Documentation\",\"description\":\"Read the component guide.\"},"
                "{\"id\":\"demo\",\"label\":\"Demo\"},"
                "{\"id\":\"pricing\",\"label\":\"Pricing\",\"action\":{\"name\":\"open-pricing\",\"input\":{}}}]}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Where should we go?");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Where should we go? Documentation, Demo, Pricing.");
  g_assert_nonnull (find_label (content (&fixture), "Use ↑/↓ or a number, then Enter."));

  first = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  second = find_nth (content (&fixture), GTK_TYPE_BUTTON, 1);
  third = find_nth (content (&fixture), GTK_TYPE_BUTTON, 2);
  gtk_test_accessible_assert_property (first, GTK_ACCESSIBLE_PROPERTY_LABEL, "Documentation");
  gtk_test_accessible_assert_property (first, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Read the component guide.");
  g_assert_nonnull (find_label (first, "Read the component guide."));

  /* Arrows move the highlight, clamped at both ends. The option Enter
   * takes is marked while it has the keyboard, whether or not the window
   * draws focus rings. */
  gtk_window_set_focus_visible (GTK_WINDOW (gtk_widget_get_root (fixture.view)), FALSE);
  g_assert_true (gtk_widget_grab_focus (fixture.view));
  g_assert_true (focus_of (&fixture) == first);
  g_assert_true (gtk_widget_has_css_class (first, "current"));
  g_assert_false (gtk_widget_has_css_class (second, "current"));
  press (&fixture, GDK_KEY_Up);
  g_assert_true (focus_of (&fixture) == first);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (gtk_widget_has_css_class (second, "current"));
  g_assert_false (gtk_widget_has_css_class (first, "current"));
  press (&fixture, GDK_KEY_Down);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (focus_of (&fixture) == third);
  g_assert_true (gtk_widget_has_css_class (third, "current"));
  g_assert_false (gtk_widget_has_css_class (second, "current"));

  /* "1", "2": the buffer names 12, which is no choice, so Enter takes the
   * highlighted one (third)... but first an arrow clears the buffer. */
  press (&fixture, GDK_KEY_1);
  g_assert_true (focus_of (&fixture) == first);
  press (&fixture, GDK_KEY_2);
  g_assert_true (focus_of (&fixture) == first);   /* 12: not a choice */
  press (&fixture, GDK_KEY_Down);                 /* clears the buffer */
  g_assert_true (focus_of (&fixture) == second);
  press (&fixture, GDK_KEY_0);
  press (&fixture, GDK_KEY_2);                    /* "02" names choice 2 */
  g_assert_true (focus_of (&fixture) == second);
  press (&fixture, GDK_KEY_KP_1);                 /* "21": the last two digits, no choice */
  g_assert_true (focus_of (&fixture) == second);
  press (&fixture, GDK_KEY_3);                    /* "13": no choice */
  press (&fixture, GDK_KEY_Up);
  g_assert_true (focus_of (&fixture) == first);
  press (&fixture, GDK_KEY_1);
  press (&fixture, GDK_KEY_0);
  press (&fixture, GDK_KEY_2);                    /* "102" keeps "02": choice 2 */
  g_assert_true (focus_of (&fixture) == second);
  press (&fixture, GDK_KEY_Up);
  g_assert_true (focus_of (&fixture) == first);
  press (&fixture, GDK_KEY_3);                    /* "3" */
  g_assert_cmpuint (fixture.events->len, ==, 0);
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, SELECT ("destination-choice", "pricing"), NULL);
  assert_resolved_and_inert (&fixture, third);
  assert_focus_left (&fixture);

  /* A failed action proposal un-resolves; the person can choose again,
   * and Enter with an empty buffer takes the highlighted choice. */
  akc_component_view_fail (AKC_COMPONENT_VIEW (fixture.view), AKC_COMPONENT_FAILURE_ACTION_PROPOSAL, NULL);
  g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpstr (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)), ==, "Action proposal failed.");
  gtk_test_accessible_assert_role (find_label (fixture.view, "Action proposal failed."), GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_widget_grab_focus (second);
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, SELECT ("destination-choice", "pricing"), SELECT ("destination-choice", "demo"), NULL);
  g_assert_null (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)));

  /* A failed selection callback keeps the instance resolved. */
  akc_component_view_fail (AKC_COMPONENT_VIEW (fixture.view), AKC_COMPONENT_FAILURE_SELECTION, NULL);
  g_assert_true (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpstr (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)), ==,
                   "Component selection callback failed.");

  /* An expired choice always says so, whatever the host passes. */
  akc_component_view_fail (AKC_COMPONENT_VIEW (fixture.view), AKC_COMPONENT_FAILURE_SUBMISSION_EXPIRED, "ignored");
  g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpstr (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)), ==,
                   "This deterministic choice expired. Select it again after asking the question once more.");

  fixture_clear (&fixture);
}

#define FORM_PROPS \
  "{\"title\":\"Contact\",\"fields\":[" \
  "{\"id\":\"email\",\"label\":\"Email\",\"type\":\"email\",\"required\":true,\"placeholder\":\"you@example.com\"}," \
  "{\"id\":\"name\",\"label\":\"Name\",\"type\":\"text\"}," \
  "{\"id\":\"seats\",\"label\":\"Seats\",\"type\":\"number\"}," \
  "{\"id\":\"news\",\"label\":\"Newsletter\",\"type\":\"checkbox\"}," \
  "{\"id\":\"plan\",\"label\":\"Plan\",\"type\":\"select\",\"required\":true,\"options\":[" \
  "{\"id\":\"free\",\"label\":\"Free\"},{\"id\":\"pro\",\"label\":\"Pro\"},{\"id\":\"team\",\"label\":\"Team\"}]}]," \
  "\"submitLabel\":\"Send\"}"

static void
test_form (void)
{
  Fixture fixture = { 0 };
  GtkWidget *email, *name, *seats, *news, *plan, *submit;

  fixture_init (&fixture, "form", "form-1", FORM_PROPS);

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_FORM);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Contact");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Contact: Email, Name, Seats, Newsletter, Plan.");

  email = find_nth (content (&fixture), GTK_TYPE_ENTRY, 0);
  name = find_nth (content (&fixture), GTK_TYPE_ENTRY, 1);
  seats = find_nth (content (&fixture), GTK_TYPE_ENTRY, 2);
  news = find_nth (content (&fixture), GTK_TYPE_CHECK_BUTTON, 0);
  plan = find_nth (content (&fixture), GTK_TYPE_DROP_DOWN, 0);
  submit = find_nth (content (&fixture), GTK_TYPE_BUTTON, count_type (content (&fixture), GTK_TYPE_BUTTON) - 1);

  gtk_test_accessible_assert_property (email, GTK_ACCESSIBLE_PROPERTY_LABEL, "Email");
  gtk_test_accessible_assert_property (email, GTK_ACCESSIBLE_PROPERTY_REQUIRED, TRUE);
  gtk_test_accessible_assert_property (email, GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, "you@example.com");
  g_assert_cmpint (gtk_entry_get_input_purpose (GTK_ENTRY (email)), ==, GTK_INPUT_PURPOSE_EMAIL);
  g_assert_cmpint (gtk_entry_get_input_purpose (GTK_ENTRY (seats)), ==, GTK_INPUT_PURPOSE_NUMBER);
  gtk_test_accessible_assert_property (name, GTK_ACCESSIBLE_PROPERTY_REQUIRED, FALSE);
  gtk_test_accessible_assert_role (news, GTK_ACCESSIBLE_ROLE_CHECKBOX);
  gtk_test_accessible_assert_property (news, GTK_ACCESSIBLE_PROPERTY_LABEL, "Newsletter");
  gtk_test_accessible_assert_state (news, GTK_ACCESSIBLE_STATE_CHECKED, GTK_ACCESSIBLE_TRISTATE_FALSE);
  gtk_test_accessible_assert_property (plan, GTK_ACCESSIBLE_PROPERTY_LABEL, "Plan");
  gtk_test_accessible_assert_property (plan, GTK_ACCESSIBLE_PROPERTY_REQUIRED, TRUE);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (submit)), ==, "Send");

  /* Enter on an empty required field blocks, and says why. */
  g_assert_true (gtk_widget_grab_focus (fixture.view));
  g_assert_true (gtk_widget_is_ancestor (focus_of (&fixture), email));
  press (&fixture, GDK_KEY_Return);
  g_assert_true (gtk_widget_is_ancestor (focus_of (&fixture), email));
  gtk_test_accessible_assert_state (email, GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE);
  g_assert_true (gtk_widget_get_visible (find_label (content (&fixture), "This field is required.")));

  /* Typing clears it; Enter moves to the next field. */
  gtk_editable_set_text (GTK_EDITABLE (email), "ada@example.com");
  gtk_test_accessible_assert_state (email, GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_FALSE);
  press (&fixture, GDK_KEY_Return);
  g_assert_true (gtk_widget_is_ancestor (focus_of (&fixture), name));
  press (&fixture, GDK_KEY_Return);   /* untouched optional field */
  g_assert_true (gtk_widget_is_ancestor (focus_of (&fixture), seats));
  gtk_editable_set_text (GTK_EDITABLE (seats), " 0x10 ");
  press (&fixture, GDK_KEY_Return);
  g_assert_true (focus_of (&fixture) == news);

  /* Space toggles the checkbox; Enter confirms it. */
  press (&fixture, GDK_KEY_space);
  gtk_test_accessible_assert_state (news, GTK_ACCESSIBLE_STATE_CHECKED, GTK_ACCESSIBLE_TRISTATE_TRUE);
  press (&fixture, GDK_KEY_Return);
  g_assert_true (gtk_widget_is_ancestor (focus_of (&fixture), plan));

  /* The select starts on "Select" (no value) and blocks; ↓/↑ cycle. */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (plan)), ==, 0);
  press (&fixture, GDK_KEY_Return);
  g_assert_cmpuint (fixture.events->len, ==, 0);
  gtk_test_accessible_assert_state (plan, GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE);
  press (&fixture, GDK_KEY_Up);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (plan)), ==, 3);
  press (&fixture, GDK_KEY_Down);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (plan)), ==, 1);
  press (&fixture, GDK_KEY_Down);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (plan)), ==, 2);

  /* Enter on the last field submits the touched fields only, with the
   * value types of §12.6: the name was never touched. */
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture,
                 INTERACT_VALUE ("form", "form-1", "submit",
                                 "{\"email\":\"ada@example.com\",\"seats\":\" 0x10 \",\"news\":true,\"plan\":\"pro\"}"),
                 NULL);
  assert_resolved_and_inert (&fixture, submit);
  assert_focus_left (&fixture);

  fixture_clear (&fixture);
}

/* A form answered before a restart is built from its frame again: it
 * shows the values that were submitted, not empty fields; fields that
 * were not submitted stay as they are. */
static void
test_form_shows_answer (void)
{
  g_autoptr(AkcJsonValue) submitted = akc_test_parse_json ("{\"email\":\"ada@example.com\",\"news\":true,\"plan\":\"team\"}");
  g_autoptr(AkcComponentResolution) resolution = akc_component_resolution_new ("form-3", "m1", "submit", submitted, 1);
  Fixture fixture = { 0 };
  GtkWidget *email, *name, *news, *plan;

  fixture_init (&fixture, "form", "form-3", FORM_PROPS);
  email = find_nth (content (&fixture), GTK_TYPE_ENTRY, 0);
  name = find_nth (content (&fixture), GTK_TYPE_ENTRY, 1);
  news = find_nth (content (&fixture), GTK_TYPE_CHECK_BUTTON, 0);
  plan = find_nth (content (&fixture), GTK_TYPE_DROP_DOWN, 0);

  akc_component_view_set_resolved (AKC_COMPONENT_VIEW (fixture.view), TRUE);
  akc_component_view_set_resolution (AKC_COMPONENT_VIEW (fixture.view), resolution);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (email)), ==, "ada@example.com");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (news)));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (plan)), ==, 3);
  g_assert_false (gtk_widget_is_sensitive (email));
  g_assert_cmpuint (fixture.events->len, ==, 0);

  fixture_clear (&fixture);
}

/* Enter in a form's last field, an entry, submits: the resolved form is
 * made insensitive with the keyboard in that entry. GTK takes the focus
 * off an insensitive widget without its focus-out, so the entry's cursor
 * went on blinking and GTK warned "GtkText - did not receive a focus-out
 * event" at the next blink (fatal here). The blink is made short so that
 * the wait after the submit sees several. */
static void
test_form_submitted_from_entry (void)
{
  GtkSettings *settings = gtk_settings_get_default ();
  Fixture fixture = { 0 };
  GtkWidget *goal, *text;
  gboolean waited = FALSE;
  int blink_time = 0;

  g_object_get (settings, "gtk-cursor-blink-time", &blink_time, NULL);
  g_object_set (settings, "gtk-cursor-blink-time", 100, NULL);
  fixture_init (&fixture, "form", "form-4",
                "{\"fields\":[{\"id\":\"goal\",\"label\":\"First goal\",\"type\":\"text\",\"required\":true}],"
                "\"submitLabel\":\"Continue\"}");
  goal = find_nth (content (&fixture), GTK_TYPE_ENTRY, 0);
  text = find_nth (goal, GTK_TYPE_TEXT, 0);

  /* The cursor blinks only in a window that has the keyboard. */
  g_assert_true (gtk_widget_grab_focus (fixture.view));
  g_assert_true (focus_of (&fixture) == text);
  g_assert_true (gtk_window_is_active (GTK_WINDOW (fixture.window)));
  g_assert_true (gtk_widget_has_focus (text));

  gtk_editable_set_text (GTK_EDITABLE (goal), "Automate handoffs");
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, INTERACT_VALUE ("form", "form-4", "submit", "{\"goal\":\"Automate handoffs\"}"), NULL);
  g_assert_false (gtk_widget_is_sensitive (text));
  assert_focus_left (&fixture);

  g_timeout_add (1000, on_timeout_flag, &waited);
  WAIT_UNTIL (waited);

  fixture_clear (&fixture);
  g_object_set (settings, "gtk-cursor-blink-time", blink_time, NULL);
}

static void
test_form_rejected_value (void)
{
  Fixture fixture = { 0 };
  GtkWidget *seats, *submit;

  fixture_init (&fixture, "form", "form-2",
                "{\"fields\":[{\"id\":\"seats\",\"label\":\"Seats\",\"type\":\"number\"},"
                "{\"id\":\"ok\",\"label\":\"I agree\",\"type\":\"checkbox\",\"required\":true}],\"submitLabel\":\"Go\"}");

  /* No title: the form is named "Form" and has no heading. */
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Form");
  seats = find_nth (content (&fixture), GTK_TYPE_ENTRY, 0);
  submit = find_nth (content (&fixture), GTK_TYPE_BUTTON, count_type (content (&fixture), GTK_TYPE_BUTTON) - 1);

  /* "twelve" is no number: the catalog refuses the event, nothing is
   * emitted, the instance stays open and the form says so. */
  gtk_editable_set_text (GTK_EDITABLE (seats), "twelve");
  activate (submit);
  g_assert_cmpuint (fixture.events->len, ==, 0);
  g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_nonnull (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)));

  /* Fixed, it goes out; the required checkbox is sent as false. */
  gtk_editable_set_text (GTK_EDITABLE (seats), "12");
  activate (submit);
  assert_events (&fixture, INTERACT_VALUE ("form", "form-2", "submit", "{\"seats\":\"12\",\"ok\":false}"), NULL);
  g_assert_null (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)));

  fixture_clear (&fixture);
}

static void
test_confirmation (void)
{
  Fixture fixture = { 0 };
  GtkWidget *cancel, *confirm;

  fixture.fail_next = TRUE;
  fixture_init (&fixture, "confirmation", "confirmation-fixture",
                "{\"title\":\"Delete?\",\"message\":\"This cannot be undone.\",\"confirmLabel\":\"Delete\",\"cancelLabel\":\"Cancel\"}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Delete?");
  gtk_test_accessible_assert_role (find_label (content (&fixture), "Delete?"), GTK_ACCESSIBLE_ROLE_HEADING);
  g_assert_nonnull (find_label (content (&fixture), "This cannot be undone."));
  cancel = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  confirm = find_nth (content (&fixture), GTK_TYPE_BUTTON, 1);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (cancel)), ==, "Cancel");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (confirm)), ==, "Delete");

  /* The handler fails the first time: un-resolved, message shown, focus back. */
  gtk_widget_grab_focus (fixture.view);
  press (&fixture, GDK_KEY_Right);
  g_assert_true (focus_of (&fixture) == confirm);
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, INTERACT ("confirmation", "confirmation-fixture", "confirm"), NULL);
  g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpstr (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)), ==,
                   "Component interaction callback failed.");
  g_assert_true (gtk_widget_is_sensitive (confirm));
  g_assert_true (gtk_widget_is_ancestor (focus_of (&fixture), fixture.view));

  press (&fixture, GDK_KEY_Left);
  g_assert_true (focus_of (&fixture) == cancel);
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture,
                 INTERACT ("confirmation", "confirmation-fixture", "confirm"),
                 INTERACT ("confirmation", "confirmation-fixture", "cancel"),
                 NULL);
  g_assert_null (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)));
  assert_resolved_and_inert (&fixture, confirm);

  fixture_clear (&fixture);
}

static void
test_approval_request (void)
{
  Fixture fixture = { 0 };
  GtkWidget *deny, *approve;

  fixture_init (&fixture, "approval-request", "approval-request-fixture",
                "{\"title\":\"Approve send?\",\"description\":\"Send the email.\",\"approveLabel\":\"Approve\",\"denyLabel\":\"Deny\"}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Approve send?");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Approve send?: Send the email.");
  deny = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  approve = find_nth (content (&fixture), GTK_TYPE_BUTTON, 1);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (deny)), ==, "Deny");

  gtk_widget_grab_focus (fixture.view);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (focus_of (&fixture) == approve);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (focus_of (&fixture) == approve);
  press (&fixture, GDK_KEY_space);
  assert_events (&fixture, INTERACT ("approval-request", "approval-request-fixture", "approve"), NULL);
  assert_resolved_and_inert (&fixture, deny);

  fixture_clear (&fixture);
}

static void
test_progress (void)
{
  const char *value_text = "42.5%";
  const char *description = "Upload: 42.5%.";
  Fixture fixture = { 0 };
  GtkWidget *widget;

  fixture_init (&fixture, "progress", "progress-fixture", "{\"label\":\"Upload\",\"value\":42.5,\"status\":\"Uploading\"}");
  widget = content (&fixture);

  gtk_test_accessible_assert_role (widget, GTK_ACCESSIBLE_ROLE_PROGRESS_BAR);
  gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_LABEL, "Upload");
  gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0);
  gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, 100.0);
  gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, 42.5);
  /* (The assertion macros stringify their arguments into a format.) */
  gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, value_text);
  gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description);
  g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (find_nth (widget, GTK_TYPE_PROGRESS_BAR, 0))),
                                  0.425, 1e-9);
  g_assert_nonnull (find_label (widget, "Uploading"));

  /* Display only: never owns input, nothing to activate. */
  g_assert_false (akc_component_view_get_interactive (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpuint (count_type (widget, GTK_TYPE_BUTTON), ==, 0);

  fixture_clear (&fixture);
}

static void
test_source_list (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GPtrArray) links = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) activated = NULL;

  fixture_init (&fixture, "source-list", "sources-1",
                "{\"label\":\"Sources\",\"sources\":["
                "{\"id\":\"docs\",\"title\":\"Documentation\",\"url\":\"/docs\",\"snippet\":\"The guide.\"},"
                "{\"id\":\"paper\",\"title\":\"A paper\"},"
                "{\"id\":\"site\",\"title\":\"Website\",\"url\":\"https://example.com/\"}]}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_LIST);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Sources");
  items = find_all (content (&fixture), has_role, GINT_TO_POINTER (GTK_ACCESSIBLE_ROLE_LIST_ITEM));
  g_assert_cmpuint (items->len, ==, 3);
  links = find_all (content (&fixture), has_role, GINT_TO_POINTER (GTK_ACCESSIBLE_ROLE_LINK));
  g_assert_cmpuint (links->len, ==, 2);   /* the source without a url is plain text */
  gtk_test_accessible_assert_property (g_ptr_array_index (links, 0), GTK_ACCESSIBLE_PROPERTY_LABEL, "Documentation");
  g_assert_nonnull (find_label (content (&fixture), "A paper"));
  g_assert_nonnull (find_label (content (&fixture), "The guide."));

  /* With a host handler, links only emit `open`, never navigate. */
  activated = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (fixture.view, "link-activated", G_CALLBACK (count_link), activated);
  gtk_widget_grab_focus (fixture.view);
  press (&fixture, GDK_KEY_Down);
  g_assert_true (focus_of (&fixture) == g_ptr_array_index (links, 1));
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, INTERACT_VALUE ("source-list", "sources-1", "open", "\"site\""), NULL);
  g_assert_cmpuint (activated->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (activated, 0), ==, "\"site\"");
  g_assert_cmpuint (fixture.uris->len, ==, 0);
  /* The other link, and the same one again, still work; `open` was
   * emitted once. */
  assert_navigation_keeps_working (&fixture, g_ptr_array_index (links, 0), activated, "\"docs\"");
  assert_navigation_keeps_working (&fixture, g_ptr_array_index (links, 1), activated, "\"site\"");
  g_assert_cmpuint (fixture.uris->len, ==, 0);

  fixture_clear (&fixture);
}

static void
test_source_list_navigates_without_handler (void)
{
  const char *props = "{\"label\":\"Sources\",\"sources\":["
                      "{\"id\":\"docs\",\"title\":\"Documentation\",\"url\":\"/docs\"},"
                      "{\"id\":\"site\",\"title\":\"Website\",\"url\":\"https://example.com/x?y=1\"}]}";

  /* Absolute http(s): opened after the event. */
  for (guint which = 0; which < 2; which++)
    {
      g_autoptr(AkcJsonValue) frame = make_frame ("source-list", "sources-2", props);
      g_autoptr(GPtrArray) links = NULL;
      Fixture fixture = { 0 };

      fixture_init_frame (&fixture, frame, FALSE);
      links = find_all (content (&fixture), has_role, GINT_TO_POINTER (GTK_ACCESSIBLE_ROLE_LINK));
      activate (g_ptr_array_index (links, which));
      /* Navigation: not resolved by it. */
      g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));

      if (which == 1)
        {
          g_assert_cmpuint (fixture.uris->len, ==, 1);
          g_assert_cmpstr (g_ptr_array_index (fixture.uris, 0), ==, "https://example.com/x?y=1");
          /* And opened again the next time. */
          activate (g_ptr_array_index (links, which));
          g_assert_cmpuint (fixture.uris->len, ==, 2);
        }
      else
        {
          /* Root-relative: no base on the desktop (§14 B2), not opened. */
          g_assert_cmpuint (fixture.uris->len, ==, 0);
        }
      fixture_clear (&fixture);
    }

  /* A link card never navigates by itself, handler or not. */
  {
    g_autoptr(AkcJsonValue) frame = make_frame ("link-card", "card-2",
                                                "{\"title\":\"Guide\",\"href\":\"https://example.com/guide\"}");
    Fixture fixture = { 0 };

    fixture_init_frame (&fixture, frame, FALSE);
    activate (content (&fixture));
    activate (content (&fixture));
    g_assert_false (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (fixture.view)));
    g_assert_cmpuint (fixture.uris->len, ==, 0);
    fixture_clear (&fixture);
  }
}

static void
test_link_card (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GPtrArray) activated = g_ptr_array_new_with_free_func (g_free);

  fixture_init (&fixture, "link-card", "link-card-fixture",
                "{\"title\":\"Guide\",\"description\":\"Read the guide.\",\"href\":\"https://example.com/guide\",\"label\":\"Open the guide\"}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_LINK);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Guide");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Guide: Read the guide.");
  g_assert_nonnull (find_label (content (&fixture), "Open the guide"));
  g_assert_true (gtk_widget_get_focusable (content (&fixture)));

  g_signal_connect (fixture.view, "link-activated", G_CALLBACK (count_link), activated);
  g_assert_true (gtk_widget_grab_focus (fixture.view));
  g_assert_true (focus_of (&fixture) == content (&fixture));
  press (&fixture, GDK_KEY_KP_Enter);
  assert_events (&fixture, INTERACT_VALUE ("link-card", "link-card-fixture", "open", "\"https://example.com/guide\""), NULL);
  g_assert_cmpuint (activated->len, ==, 1);
  assert_navigation_keeps_working (&fixture, content (&fixture), activated, "\"https://example.com/guide\"");
  /* By key too: the card keeps the focus and works again. */
  g_assert_true (focus_of (&fixture) == content (&fixture));
  press (&fixture, GDK_KEY_Return);
  g_assert_cmpuint (activated->len, ==, 4);
  g_assert_cmpuint (fixture.events->len, ==, 1);

  fixture_clear (&fixture);
}

static void
test_error_notice (void)
{
  Fixture fixture = { 0 };
  GtkWidget *retry;

  fixture_init (&fixture, "error-notice", "error-notice-fixture",
                "{\"title\":\"Failed\",\"message\":\"Try again.\",\"code\":\"E_TEST\",\"retryLabel\":\"Retry\"}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Failed");
  g_assert_true (gtk_widget_has_css_class (find_label (content (&fixture), "E_TEST"), "monospace"));
  retry = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (retry)), ==, "Retry");

  gtk_widget_grab_focus (fixture.view);
  g_assert_true (focus_of (&fixture) == retry);
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, INTERACT ("error-notice", "error-notice-fixture", "retry"), NULL);
  assert_resolved_and_inert (&fixture, retry);

  fixture_clear (&fixture);

  /* Without retryLabel there is no retry, and nothing is interactive... */
  fixture_init (&fixture, "error-notice", "error-2", "{\"title\":\"Failed\",\"message\":\"No way.\",\"code\":\"\"}");
  retry = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  g_assert_false (gtk_widget_get_visible (retry));
  g_assert_false (gtk_widget_get_visible (find_label (content (&fixture), "")));
  g_assert_false (gtk_widget_grab_focus (fixture.view));
  fixture_clear (&fixture);
}

static void
test_tool_call (void)
{
  Fixture fixture = { 0 };

  fixture_init (&fixture, "tool-call", "tool-1",
                "{\"name\":\"Search\",\"status\":\"running\",\"arguments\":{\"q\":\"AgentsKit\",\"n\":[1,2.5],\"o\":{}},\"result\":null}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_STATUS);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Search");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Search: running.");
  gtk_test_accessible_assert_state (content (&fixture), GTK_ACCESSIBLE_STATE_BUSY, TRUE);
  g_assert_true (gtk_widget_has_css_class (content (&fixture), "running"));
  g_assert_nonnull (find_label (content (&fixture), "Running"));
  /* JSON.stringify (value, null, 2); a null result is shown. */
  g_assert_nonnull (find_label (content (&fixture),
                                "{\n  \"q\": \"AgentsKit\",\n  \"n\": [\n    1,\n    2.5\n  ],\n  \"o\": {}\n}"));
  g_assert_true (gtk_widget_get_visible (find_label (content (&fixture), "null")));
  g_assert_false (akc_component_view_get_interactive (AKC_COMPONENT_VIEW (fixture.view)));
  fixture_clear (&fixture);

  fixture_init (&fixture, "tool-call", "tool-2", "{\"name\":\"Search\",\"status\":\"complete\"}");
  gtk_test_accessible_assert_state (content (&fixture), GTK_ACCESSIBLE_STATE_BUSY, FALSE);
  g_assert_false (gtk_widget_is_visible (find_label (content (&fixture), "Result")));
  fixture_clear (&fixture);
}

static void
test_table (void)
{
  Fixture fixture = { 0 };
  GtkColumnView *column_view;
  GListModel *columns;

  fixture_init (&fixture, "table", "table-1",
                "{\"caption\":\"Users\",\"columns\":[{\"key\":\"name\",\"label\":\"Name\"},{\"key\":\"age\",\"label\":\"Age\"},"
                "{\"key\":\"admin\",\"label\":\"Admin\"},{\"key\":\"note\",\"label\":\"<b>Note</b>\"}],"
                "\"rows\":[{\"name\":\"Ada\",\"age\":36,\"admin\":true,\"note\":null},"
                "{\"name\":\"<i>Bob</i> &amp;\",\"age\":1e-7,\"admin\":false,\"extra\":1}]}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_TABLE);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "Users");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Users: 2 rows.");
  gtk_test_accessible_assert_relation (content (&fixture), GTK_ACCESSIBLE_RELATION_ROW_COUNT, 2);
  gtk_test_accessible_assert_relation (content (&fixture), GTK_ACCESSIBLE_RELATION_COL_COUNT, 4);

  column_view = GTK_COLUMN_VIEW (find_nth (content (&fixture), GTK_TYPE_COLUMN_VIEW, 0));
  columns = gtk_column_view_get_columns (column_view);
  g_assert_cmpuint (g_list_model_get_n_items (columns), ==, 4);
  g_assert_nonnull (find_label (GTK_WIDGET (column_view), "<b>Note</b>"));

  spin ();
  {
    g_autoptr(GPtrArray) cells = find_all (GTK_WIDGET (column_view), is_type, GSIZE_TO_POINTER (GTK_TYPE_INSCRIPTION));
    g_autoptr(GString) texts = g_string_new (NULL);

    for (guint i = 0; i < cells->len; i++)
      g_string_append_printf (texts, "%s|", gtk_inscription_get_text (g_ptr_array_index (cells, i)));
    /* Cells by §12.6: booleans, §0.7 numbers, "" for null and missing,
     * strings verbatim (no markup). */
    g_assert_cmpstr (texts->str, ==, "Ada|36|true||<i>Bob</i> &amp;|1e-7|false||");
  }

  fixture_clear (&fixture);
}

#define MAX_LIVE_ROWS 250

static guint
count_rows_with_widgets (GtkWidget *table)
{
  g_autoptr(GPtrArray) rows = find_all (table, has_role, GINT_TO_POINTER (GTK_ACCESSIBLE_ROLE_ROW));

  g_test_message ("%u rows have widgets", rows->len);
  return rows->len;
}

static guint
count_realized_cells (GtkWidget *table)
{
  guint cells = count_type (table, GTK_TYPE_INSCRIPTION);

  g_test_message ("%u cells have widgets", cells);
  return cells;
}

static void
test_table_large (void)
{
  g_autoptr(GString) props = g_string_new ("{\"caption\":\"Big\",\"columns\":[");
  g_autoptr(GString) empty_rows = g_string_new ("{\"caption\":\"Many\",\"columns\":[{\"key\":\"a\",\"label\":\"A\"}],\"rows\":[");
  g_autoptr(AkcJsonValue) value = NULL;
  Fixture fixture = { 0 };
  GtkWidget *window, *table;
  guint cells;

  for (guint c = 0; c < 30; c++)
    g_string_append_printf (props, "%s{\"key\":\"c%u\",\"label\":\"C%u\"}", c > 0 ? "," : "", c, c);
  g_string_append (props, "],\"rows\":[");
  for (guint r = 0; r < 1000; r++)
    {
      g_string_append (props, r > 0 ? ",{" : "{");
      for (guint c = 0; c < 30; c++)
        g_string_append_printf (props, "%s\"c%u\":%u", c > 0 ? "," : "", c, r);
      g_string_append_c (props, '}');
    }
  g_string_append (props, "]}");

  /* 1000 × 30 cells are far beyond the 1000 values a frame's props may
   * hold (§0.6): the frame does not decode and the view says so. */
  fixture_init (&fixture, "table", "big", props->str);
  g_assert_null (akc_component_view_get_content (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpstr (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)), ==,
                   "Component frame payload is invalid.");
  fixture_clear (&fixture);

  /* The largest table a frame can carry: 990 rows. */
  for (guint r = 0; r < 990; r++)
    g_string_append (empty_rows, r > 0 ? ",{}" : "{}");
  g_string_append (empty_rows, "]}");
  fixture_init (&fixture, "table", "many", empty_rows->str);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Many: 990 rows.");
  /* GTK 4.8's list views keep at most about 200 rows around the visible
   * ones; the point is that it is not 990. */
  cells = count_realized_cells (content (&fixture));
  g_assert_cmpuint (cells, >, 0);
  g_assert_cmpuint (cells, <=, MAX_LIVE_ROWS);
  fixture_clear (&fixture);

  /* The widget itself on 1000 × 30 props builds widgets for the visible
   * rows only. */
  value = akc_test_parse_json (props->str);
  table = akc_table_view_new (value);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_set_child (GTK_WINDOW (window), table);
  gtk_window_present (GTK_WINDOW (window));
  spin ();

  cells = count_realized_cells (table);
  g_assert_cmpuint (cells, >, 0);
  g_assert_cmpuint (cells, <=, 30 * MAX_LIVE_ROWS);
  g_assert_cmpuint (count_rows_with_widgets (table), <=, MAX_LIVE_ROWS);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (find_nth (table, GTK_TYPE_COLUMN_VIEW, 0))))), ==, 1000);
  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

static void
test_file_attachment (void)
{
  Fixture fixture = { 0 };
  GtkWidget *open;

  fixture_init (&fixture, "file-attachment", "file-attachment-fixture",
                "{\"name\":\"report.pdf\",\"mimeType\":\"application/pdf\",\"sizeBytes\":1024,\"url\":\"/report.pdf\"}");

  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "report.pdf");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "report.pdf (application/pdf).");
  g_assert_nonnull (find_label (content (&fixture), "application/pdf · 1024 bytes"));
  open = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  gtk_test_accessible_assert_role (open, GTK_ACCESSIBLE_ROLE_LINK);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (open)), ==, "Open");

  gtk_widget_grab_focus (fixture.view);
  g_assert_true (focus_of (&fixture) == open);
  press (&fixture, GDK_KEY_Return);
  assert_events (&fixture, INTERACT_VALUE ("file-attachment", "file-attachment-fixture", "open", "\"/report.pdf\""), NULL);
  g_assert_cmpuint (fixture.uris->len, ==, 0);
  assert_resolved_and_inert (&fixture, open);
  fixture_clear (&fixture);

  /* No url: no Open link, not interactive. */
  fixture_init (&fixture, "file-attachment", "file-2", "{\"name\":\"notes.txt\",\"mimeType\":\"text/plain\"}");
  g_assert_false (gtk_widget_get_visible (find_nth (content (&fixture), GTK_TYPE_BUTTON, 0)));
  g_assert_nonnull (find_label (content (&fixture), "text/plain"));
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* Fallback, diagnostics, verbatim text                                */
/* ------------------------------------------------------------------ */

static void
test_fallback (void)
{
  Fixture fixture = { 0 };

  /* Unknown key. */
  fixture_init (&fixture, "chart", "chart-1", "{\"series\":[1,2,3]}");
  g_assert_true (akc_component_view_get_is_fallback (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_false (akc_component_view_get_interactive (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_null (akc_component_view_get_resolved_component (AKC_COMPONENT_VIEW (fixture.view)));
  gtk_test_accessible_assert_role (content (&fixture), GTK_ACCESSIBLE_ROLE_LABEL);
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL, "[unsupported visual: chart] A chart.");
  g_assert_nonnull (find_label (content (&fixture), "[unsupported visual: chart] A chart."));
  g_assert_cmpstr (akc_component_view_get_component_key (AKC_COMPONENT_VIEW (fixture.view)), ==, "chart");
  fixture_clear (&fixture);

  /* Invalid props of a standard key. */
  fixture_init (&fixture, "progress", "p-bad", "{\"label\":\"Upload\",\"value\":\"42\"}");
  g_assert_true (akc_component_view_get_is_fallback (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_nonnull (find_label (content (&fixture), "[unsupported visual: progress] A progress."));
  fixture_clear (&fixture);
}

static void
test_undecodable_frame (void)
{
  g_autoptr(AkcJsonValue) frame = akc_test_parse_json ("{\"protocol\":\"agentskit.chat.component\",\"version\":2,\"type\":\"render\"}");
  Fixture fixture = { 0 };
  GtkWidget *alert;

  fixture_init_frame (&fixture, frame, TRUE);
  g_assert_null (akc_component_view_get_content (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_null (akc_component_view_get_component_key (AKC_COMPONENT_VIEW (fixture.view)));
  g_assert_cmpstr (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (fixture.view)), ==,
                   "Component frame uses an unsupported version.");
  alert = find_label (fixture.view, "Component frame uses an unsupported version.");
  gtk_test_accessible_assert_role (alert, GTK_ACCESSIBLE_ROLE_ALERT);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (alert), ==, "COMPONENT_UNSUPPORTED_VERSION");
  fixture_clear (&fixture);
}

static void
test_verbatim_text (void)
{
  Fixture fixture = { 0 };
  GtkWidget *label, *button;

  fixture_init (&fixture, "button-group", "bg-markup",
                "{\"label\":\"<b>Bold</b> & <span foreground='red'>red</span>\","
                "\"buttons\":[{\"id\":\"a\",\"label\":\"_Save &amp; <i>go</i>\"}]}");

  label = find_label (content (&fixture), "<b>Bold</b> & <span foreground='red'>red</span>");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (label)));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "<b>Bold</b> & <span foreground='red'>red</span>");
  gtk_test_accessible_assert_property (content (&fixture), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "<b>Bold</b> & <span foreground='red'>red</span>");

  button = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);
  label = find_label (button, "_Save &amp; <i>go</i>");
  g_assert_false (gtk_label_get_use_markup (GTK_LABEL (label)));
  g_assert_false (gtk_label_get_use_underline (GTK_LABEL (label)));
  fixture_clear (&fixture);
}

static void
test_host_resolution_state (void)
{
  Fixture fixture = { 0 };
  GtkWidget *save;

  fixture_init (&fixture, "button-group", "bg-host", "{\"label\":\"Actions\",\"buttons\":[{\"id\":\"save\",\"label\":\"Save\"}]}");
  save = find_nth (content (&fixture), GTK_TYPE_BUTTON, 0);

  /* The host applies its set of resolved ids... */
  akc_component_view_set_resolved (AKC_COMPONENT_VIEW (fixture.view), TRUE);
  activate (save);
  g_assert_cmpuint (fixture.events->len, ==, 0);
  g_assert_false (gtk_widget_grab_focus (fixture.view));

  /* ...and resets it with the session. */
  akc_component_view_set_resolved (AKC_COMPONENT_VIEW (fixture.view), FALSE);
  gtk_test_accessible_assert_state (content (&fixture), GTK_ACCESSIBLE_STATE_DISABLED, FALSE);
  gtk_test_accessible_assert_state (save, GTK_ACCESSIBLE_STATE_DISABLED, FALSE);
  activate (save);
  assert_events (&fixture, INTERACT_VALUE ("button-group", "bg-host", "select", "\"save\""), NULL);
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* Input ownership (§12.4): only the active component reacts to keys   */
/* ------------------------------------------------------------------ */

/* A transcript in miniature, run the way a host does: three assistant
 * messages with a component each (an older choice list, a progress bar, a
 * newer button group), their views in a column above a composer, and the
 * set of resolved instances in an AkcInputOwnership. */
typedef struct {
  Fixture            fixture;
  AkcInputOwnership *ownership;
  GListStore        *messages;
  GtkWidget         *views[3];
  GtkWidget         *composer;
} Transcript;

/* The host's half of §12.7: the set follows the views' resolution. */
static void
on_view_resolved (AkcComponentView *view,
                  GParamSpec       *pspec,
                  Transcript       *transcript)
{
  const char *instance_id = akc_component_view_get_instance_id (view);

  if (akc_component_view_get_resolved (view))
    akc_input_ownership_mark_resolved (transcript->ownership, instance_id);
  else
    akc_input_ownership_unmark_resolved (transcript->ownership, instance_id);
}

/* The host's half of §12.4: the active component (one per message here)
 * is the only active view and gets the focus; without one the composer
 * does. Returns the active view's index, or -1. */
static int
apply_ownership (Transcript *transcript)
{
  guint position = G_MAXUINT;
  g_autoptr(AkcPresentation) active = NULL;
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();

  active = akc_input_ownership_find_active (transcript->ownership, G_LIST_MODEL (transcript->messages),
                                            manifest, &position, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (transcript->views); i++)
    akc_component_view_set_active (AKC_COMPONENT_VIEW (transcript->views[i]), active != NULL && i == position);

  if (active == NULL)
    {
      g_assert_true (gtk_widget_grab_focus (transcript->composer));
      return -1;
    }

  g_assert_cmpstr (akc_resolved_component_get_instance_id (akc_presentation_get_resolved (active)), ==,
                   akc_component_view_get_instance_id (AKC_COMPONENT_VIEW (transcript->views[position])));
  g_assert_true (gtk_widget_grab_focus (transcript->views[position]));
  return (int) position;
}

static gboolean
focus_is_in (Transcript *transcript,
             GtkWidget  *widget)
{
  GtkWidget *focus = focus_of (&transcript->fixture);

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Inert to keys, yet sensitive and readable: role, name, not disabled. */
static void
assert_inert_but_readable (Transcript *transcript,
                           guint       index_,
                           const char *name)
{
  AkcComponentView *view = AKC_COMPONENT_VIEW (transcript->views[index_]);
  GtkWidget *widget = akc_component_view_get_content (view);
  GtkWidget *focus = focus_of (&transcript->fixture);
  g_autoptr(GPtrArray) buttons = find_all (widget, is_type, GSIZE_TO_POINTER (GTK_TYPE_BUTTON));

  g_assert_false (akc_component_view_get_active (view));
  g_assert_false (focus_is_in (transcript, GTK_WIDGET (view)));

  /* No way in for the keyboard: grab_focus on the view or on any of its
   * controls (what a click does) is refused, and Tab passes it by. */
  g_assert_false (gtk_widget_grab_focus (GTK_WIDGET (view)));
  for (guint i = 0; i < buttons->len; i++)
    g_assert_false (gtk_widget_grab_focus (g_ptr_array_index (buttons, i)));
  g_assert_true (focus_of (&transcript->fixture) == focus);
  for (guint i = 0; i < 12; i++)
    {
      gtk_widget_child_focus (transcript->fixture.window, GTK_DIR_TAB_FORWARD);
      g_assert_false (focus_is_in (transcript, GTK_WIDGET (view)));
    }
  for (guint i = 0; i < 12; i++)
    {
      gtk_widget_child_focus (transcript->fixture.window, GTK_DIR_TAB_BACKWARD);
      g_assert_false (focus_is_in (transcript, GTK_WIDGET (view)));
    }
  if (focus != NULL)
    gtk_widget_grab_focus (focus);

  /* Still there for assistive technologies, and still sensitive. */
  g_assert_true (gtk_widget_is_sensitive (widget));
  gtk_test_accessible_assert_state (widget, GTK_ACCESSIBLE_STATE_DISABLED, FALSE);
  if (name != NULL)
    gtk_test_accessible_assert_property (widget, GTK_ACCESSIBLE_PROPERTY_LABEL, name);
  for (guint i = 0; i < buttons->len; i++)
    {
      g_assert_true (gtk_widget_is_sensitive (g_ptr_array_index (buttons, i)));
      gtk_test_accessible_assert_state (g_ptr_array_index (buttons, i), GTK_ACCESSIBLE_STATE_DISABLED, FALSE);
    }
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_input_ownership (void)
{
  Transcript transcript = { 0 };
  Fixture *fixture = &transcript.fixture;
  AkcJsonValue *frames[3] = {
    make_frame ("choice-list", "older-choice",
                "{\"prompt\":\"Where should we go?\",\"choices\":[{\"id\":\"docs\",\"label\":\"Documentation\"},"
                "{\"id\":\"demo\",\"label\":\"Demo\"}]}"),
    make_frame ("progress", "upload", "{\"label\":\"Upload\",\"value\":42}"),
    make_frame ("button-group", "newer-actions", "{\"label\":\"Actions\",\"buttons\":[{\"id\":\"save\",\"label\":\"Save\"}]}"),
  };
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  AkcComponentView *older, *progress, *newer;
  GtkWidget *save, *docs;
  guint notifies = 0;

  fixture->events = g_ptr_array_new_with_free_func (g_free);
  fixture->uris = g_ptr_array_new_with_free_func (g_free);
  transcript.ownership = akc_input_ownership_new ();
  transcript.messages = g_list_store_new (AKC_TYPE_MESSAGE);

  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    {
      g_autofree char *id = g_strdup_printf ("a%u", i);
      g_autofree char *content = akc_json_value_to_canonical (frames[i], NULL);
      g_autoptr(AkcMessage) message = akc_message_new (id, AKC_MESSAGE_ROLE_ASSISTANT, content, AKC_MESSAGE_STATUS_COMPLETE);

      g_list_store_append (transcript.messages, message);
      transcript.views[i] = akc_component_view_new (frames[i], NULL);
      /* A view shown on its own is active. */
      g_assert_true (akc_component_view_get_active (AKC_COMPONENT_VIEW (transcript.views[i])));
      g_signal_connect (transcript.views[i], "interaction", G_CALLBACK (record_event), fixture);
      g_signal_connect (transcript.views[i], "selection", G_CALLBACK (record_event), fixture);
      g_signal_connect (transcript.views[i], "notify::resolved", G_CALLBACK (on_view_resolved), &transcript);
      gtk_box_append (GTK_BOX (column), transcript.views[i]);
    }
  older = AKC_COMPONENT_VIEW (transcript.views[0]);
  progress = AKC_COMPONENT_VIEW (transcript.views[1]);
  newer = AKC_COMPONENT_VIEW (transcript.views[2]);
  docs = find_nth (akc_component_view_get_content (older), GTK_TYPE_BUTTON, 0);
  save = find_nth (akc_component_view_get_content (newer), GTK_TYPE_BUTTON, 0);
  g_signal_connect (newer, "notify::active", G_CALLBACK (count_notify), &notifies);

  transcript.composer = gtk_entry_new ();
  gtk_box_append (GTK_BOX (column), transcript.composer);
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 700);
  gtk_window_set_child (GTK_WINDOW (fixture->window), column);
  gtk_window_present (GTK_WINDOW (fixture->window));
  spin ();

  /* The newest unresolved interactive component owns input: it has the
   * focus; the older one and the progress bar are inert. */
  g_assert_cmpint (apply_ownership (&transcript), ==, 2);
  g_assert_true (akc_component_view_get_active (newer));
  g_assert_true (focus_of (fixture) == save);
  g_assert_cmpuint (notifies, ==, 0);
  assert_inert_but_readable (&transcript, 0, "Where should we go?");
  assert_inert_but_readable (&transcript, 1, NULL);
  g_assert_true (focus_of (fixture) == save);

  /* The property notifies real changes only. */
  akc_component_view_set_active (newer, TRUE);
  g_assert_cmpuint (notifies, ==, 0);
  g_object_set (newer, "active", FALSE, NULL);
  g_assert_cmpuint (notifies, ==, 1);
  /* Made inactive with the focus inside, it lets the focus go. */
  g_assert_false (focus_is_in (&transcript, GTK_WIDGET (newer)));
  assert_inert_but_readable (&transcript, 2, "Actions");
  g_assert_cmpint (apply_ownership (&transcript), ==, 2);
  g_assert_cmpuint (notifies, ==, 2);
  g_assert_true (focus_of (fixture) == save);

  /* Keys go to the active component only. */
  press (fixture, GDK_KEY_Return);
  assert_events (fixture, INTERACT_VALUE ("button-group", "newer-actions", "select", "\"save\""), NULL);
  g_assert_true (akc_input_ownership_is_resolved (transcript.ownership, "newer-actions"));

  /* Resolved: the older choice list owns input now. */
  g_assert_cmpint (apply_ownership (&transcript), ==, 0);
  g_assert_true (focus_of (fixture) == docs);
  g_assert_false (akc_component_view_get_active (newer));
  g_assert_false (akc_component_view_get_active (progress));
  assert_inert_but_readable (&transcript, 1, NULL);
  press (fixture, GDK_KEY_2);
  press (fixture, GDK_KEY_Return);
  assert_events (fixture,
                 INTERACT_VALUE ("button-group", "newer-actions", "select", "\"save\""),
                 SELECT ("older-choice", "demo"),
                 NULL);

  /* Nothing left to answer: input returns to the composer. */
  g_assert_cmpint (apply_ownership (&transcript), ==, -1);
  g_assert_true (focus_is_in (&transcript, transcript.composer));
  for (guint i = 0; i < G_N_ELEMENTS (transcript.views); i++)
    g_assert_false (akc_component_view_get_active (AKC_COMPONENT_VIEW (transcript.views[i])));

  /* A failed proposal un-resolves the choice list: it owns input again. */
  akc_component_view_fail (older, AKC_COMPONENT_FAILURE_ACTION_PROPOSAL, NULL);
  g_assert_false (akc_input_ownership_is_resolved (transcript.ownership, "older-choice"));
  g_assert_cmpint (apply_ownership (&transcript), ==, 0);
  g_assert_true (focus_of (fixture) == docs);

  /* A failed interaction un-resolves the newer button group, which takes
   * input back; the older list is inert to keys but not to the pointer
   * (§14, B1). */
  akc_component_view_fail (newer, AKC_COMPONENT_FAILURE_INTERACTION, NULL);
  g_assert_cmpint (apply_ownership (&transcript), ==, 2);
  g_assert_true (focus_of (fixture) == save);
  assert_inert_but_readable (&transcript, 0, "Where should we go?");
  g_signal_emit_by_name (docs, "clicked");
  assert_events (fixture,
                 INTERACT_VALUE ("button-group", "newer-actions", "select", "\"save\""),
                 SELECT ("older-choice", "demo"),
                 SELECT ("older-choice", "docs"),
                 NULL);
  g_assert_cmpint (apply_ownership (&transcript), ==, 2);

  fixture_clear (fixture);
  g_assert_finalize_object (transcript.messages);
  g_assert_finalize_object (transcript.ownership);
  for (guint i = 0; i < G_N_ELEMENTS (frames); i++)
    akc_json_value_unref (frames[i]);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/components/fixture-frames", test_fixture_frames);
  g_test_add_func ("/components/button-group", test_button_group);
  g_test_add_func ("/components/choice-list", test_choice_list);
  g_test_add_func ("/components/form", test_form);
  g_test_add_func ("/components/form/rejected-value", test_form_rejected_value);
  g_test_add_func ("/components/form/shows-answer", test_form_shows_answer);
  g_test_add_func ("/components/form/submitted-from-entry", test_form_submitted_from_entry);
  g_test_add_func ("/components/confirmation", test_confirmation);
  g_test_add_func ("/components/progress", test_progress);
  g_test_add_func ("/components/source-list", test_source_list);
  g_test_add_func ("/components/source-list/navigation", test_source_list_navigates_without_handler);
  g_test_add_func ("/components/link-card", test_link_card);
  g_test_add_func ("/components/error-notice", test_error_notice);
  g_test_add_func ("/components/tool-call", test_tool_call);
  g_test_add_func ("/components/approval-request", test_approval_request);
  g_test_add_func ("/components/table", test_table);
  g_test_add_func ("/components/table/large", test_table_large);
  g_test_add_func ("/components/file-attachment", test_file_attachment);
  g_test_add_func ("/components/fallback", test_fallback);
  g_test_add_func ("/components/undecodable-frame", test_undecodable_frame);
  g_test_add_func ("/components/verbatim-text", test_verbatim_text);
  g_test_add_func ("/components/host-resolution-state", test_host_resolution_state);
  g_test_add_func ("/components/input-ownership", test_input_ownership);

  return g_test_run ();
}

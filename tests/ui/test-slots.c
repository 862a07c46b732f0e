/* test-slots.c: what a host puts into an AkcChatView (application.md
 * §12.10): the native widget of a custom component, in process with
 * GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <locale.h>
#include <string.h>
#include <akc-gtk.h>

#include "akc-chat-view-private.h"
#include "akc-message-row-private.h"
#include "akc-test-ui.h"

/* ------------------------------------------------------------------ */
/* A window with a chat view on a restored conversation                */
/* ------------------------------------------------------------------ */

typedef struct {
  GtkWidget   *window;
  AkcChatView *view;
  AkcChat     *chat;
} Fixture;

static char *
frame_json (const char *key,
            const char *instance_id,
            const char *props)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                          "\"componentKey\":\"%s\",\"instanceId\":\"%s\",\"props\":%s,"
                          "\"fallback\":{\"kind\":\"%s\",\"summary\":\"A %s.\"}}",
                          key, instance_id, props, key, key);
}

static char *
map_view_fallback (AkcComponentDefinition *definition,
                   AkcJsonValue           *props,
                   gpointer                user_data)
{
  AkcJsonValue *center = akc_json_value_get_member (props, "center");

  return g_strdup_printf ("Map of %s.", center != NULL ? akc_json_value_get_string (center, NULL) : "?");
}

/* The standard catalog and a custom `map-view` whose `pick` event takes
 * the id of a place. */
static AkcComponentManifest *
manifest_with_map_view (void)
{
  g_autoptr(AkcComponentEvent) pick = akc_component_event_new ("pick", AKC_COMPONENT_VALUE_ID);
  AkcComponentEvent *events[] = { pick };
  g_autoptr(AkcComponentDefinition) map_view =
    akc_component_definition_new ("map-view", events, G_N_ELEMENTS (events),
                                  "region", TRUE, AKC_COMPONENT_LIVE_NONE,
                                  AKC_COMPONENT_CAPABILITY_DISPLAY | AKC_COMPONENT_CAPABILITY_SELECTION,
                                  NULL, NULL, NULL, map_view_fallback, NULL, NULL);
  const char * const *keys = akc_component_definition_get_standard_keys ();
  g_autoptr(GPtrArray) definitions = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  AkcComponentManifest *manifest;

  for (guint i = 0; keys[i] != NULL; i++)
    g_ptr_array_add (definitions, akc_component_definition_get_standard (keys[i]));
  g_ptr_array_add (definitions, map_view);

  manifest = akc_component_manifest_new ((AkcComponentDefinition * const *) definitions->pdata,
                                         definitions->len, &error);
  g_assert_no_error (error);
  return manifest;
}

typedef struct {
  guint     built;
  GPtrArray *events;
} Host;

static void
on_pick_clicked (GtkButton        *button,
                 AkcComponentView *view)
{
  g_autoptr(AkcJsonValue) paris = akc_json_value_new_string ("paris", -1);

  akc_component_view_emit_event (view, "pick", paris);
}

/* The host's map: a button that picks Paris. */
static GtkWidget *
build_map (AkcComponentView     *view,
           AkcResolvedComponent *component,
           gpointer              user_data)
{
  Host *host = user_data;
  GtkWidget *button = gtk_button_new_with_label ("Pick Paris");

  g_assert_cmpstr (akc_resolved_component_get_component_key (component), ==, "map-view");
  g_assert_false (akc_resolved_component_is_standard (component));
  host->built++;
  gtk_widget_set_name (button, "host-map");
  g_signal_connect_object (button, "clicked", G_CALLBACK (on_pick_clicked), view, 0);
  return button;
}

static void
record_event (AkcChatView      *view,
              AkcComponentView *component,
              AkcJsonValue     *event,
              Host             *host)
{
  g_ptr_array_add (host->events, akc_json_value_to_canonical (event, NULL));
}

static void
fixture_init (Fixture     *fixture,
              Host        *host,
              const char **contents)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcComponentManifest) manifest = manifest_with_map_view ();
  AkcAdapter *adapter = akc_scripted_adapter_new ();

  fixture->chat = akc_chat_new (adapter);
  g_object_unref (adapter);

  for (guint i = 0; contents[i] != NULL; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);

      g_ptr_array_add (messages, akc_message_new (id, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                  contents[i], AKC_MESSAGE_STATUS_COMPLETE));
    }
  akc_chat_restore (fixture->chat, (AkcMessage * const *) messages->pdata, messages->len);

  fixture->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  if (host != NULL)
    {
      akc_chat_view_register_component (fixture->view, "map-view", build_map, host, NULL);
      g_signal_connect (fixture->view, "component-interaction", G_CALLBACK (record_event), host);
    }
  akc_chat_view_set_manifest (fixture->view, manifest);
  akc_chat_view_set_source (fixture->view, AKC_CHAT_SOURCE (fixture->chat));

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 900);
  {
    GtkWidget *scroller = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (fixture->view));
    gtk_window_set_child (GTK_WINDOW (fixture->window), scroller);
  }
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_frames (fixture->window, 3);
}

static void
fixture_clear (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  spin ();
  g_assert_finalize_object (fixture->chat);
}

static AkcComponentView *
view_of (Fixture *fixture,
         guint    position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat)),
                                                         position);
  AkcMessageRow *row = akc_chat_view_get_row (fixture->view, message);

  g_assert_nonnull (row);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_COMPONENT);
  return AKC_COMPONENT_VIEW (akc_message_row_get_part (row, 0));
}

#define PLACES "{\"center\":\"Europe\"}"

/* A custom key the manifest resolves is drawn by the host's widget, not
 * the fallback; the widget keeps its role and name and gets the
 * definition fallback as description. */
static void
test_custom_component_renders_host_widget (void)
{
  g_autofree char *map = frame_json ("map-view", "where", PLACES);
  const char *contents[] = { "where?", map, NULL };
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  Host host = { 0, events };
  Fixture fixture = { 0 };
  AkcComponentView *component;
  GtkWidget *content;

  fixture_init (&fixture, &host, contents);
  component = view_of (&fixture, 1);
  content = akc_component_view_get_content (component);

  g_assert_cmpuint (host.built, ==, 1);
  g_assert_true (GTK_IS_BUTTON (content));
  g_assert_cmpstr (gtk_widget_get_name (content), ==, "host-map");
  g_assert_false (akc_component_view_get_is_fallback (component));
  g_assert_true (gtk_widget_get_parent (content) != NULL);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (content), GTK_ACCESSIBLE_ROLE_BUTTON);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (content), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Map of Europe.");
  g_assert_cmpuint (events->len, ==, 0);

  fixture_clear (&fixture);
}

/* The host's widget reports through the interaction path of the standard
 * widgets: the instance resolves once (§12.7). */
static void
test_custom_component_event_resolves_once (void)
{
  g_autofree char *map = frame_json ("map-view", "where", PLACES);
  const char *contents[] = { "where?", map, NULL };
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcJsonValue) nowhere = akc_json_value_new_string ("", -1);
  g_autoptr(AkcJsonValue) again = akc_json_value_new_string ("rome", -1);
  Host host = { 0, events };
  Fixture fixture = { 0 };
  AkcComponentView *component;
  GtkWidget *content;

  fixture_init (&fixture, &host, contents);
  component = view_of (&fixture, 1);
  content = akc_component_view_get_content (component);
  g_assert_true (akc_component_view_get_interactive (component));

  /* A value the definition refuses leaves the instance open. */
  akc_component_view_emit_event (component, "pick", nowhere);
  g_assert_cmpuint (events->len, ==, 0);
  g_assert_false (akc_component_view_get_resolved (component));
  g_assert_nonnull (akc_component_view_get_error_message (component));

  g_signal_emit_by_name (content, "clicked");
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (events, 0), "\"pick\""));
  g_assert_nonnull (strstr (g_ptr_array_index (events, 0), "\"paris\""));
  g_assert_nonnull (strstr (g_ptr_array_index (events, 0), "\"where\""));
  g_assert_true (akc_component_view_get_resolved (component));
  g_assert_null (akc_component_view_get_error_message (component));
  g_assert_false (gtk_widget_get_sensitive (content));
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (content), GTK_ACCESSIBLE_STATE_DISABLED, TRUE);

  /* Single-shot: nothing more is emitted. */
  akc_component_view_emit_event (component, "pick", again);
  g_signal_emit_by_name (content, "clicked");
  g_assert_cmpuint (events->len, ==, 1);

  fixture_clear (&fixture);
}

/* Without a factory, or for a key the manifest does not know, the
 * semantic fallback; a factory can be removed. */
static void
test_custom_component_fallbacks (void)
{
  g_autofree char *map = frame_json ("map-view", "where", PLACES);
  g_autofree char *unknown = frame_json ("globe-view", "globe", PLACES);
  const char *contents[] = { "where?", map, "and?", unknown, NULL };
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  Host host = { 0, events };
  Fixture fixture = { 0 };

  fixture_init (&fixture, NULL, contents);
  g_assert_true (akc_component_view_get_is_fallback (view_of (&fixture, 1)));
  g_assert_true (akc_component_view_get_is_fallback (view_of (&fixture, 3)));
  g_assert_false (akc_chat_view_unregister_component (fixture.view, "map-view"));
  fixture_clear (&fixture);

  fixture_init (&fixture, &host, contents);
  g_assert_false (akc_component_view_get_is_fallback (view_of (&fixture, 1)));
  /* Registered, but unknown to the manifest: not resolved, the fallback. */
  akc_chat_view_register_component (fixture.view, "globe-view", build_map, &host, NULL);
  g_assert_true (akc_component_view_get_is_fallback (view_of (&fixture, 3)));
  g_assert_cmpuint (host.built, ==, 1);
  g_assert_true (akc_chat_view_unregister_component (fixture.view, "map-view"));
  g_assert_false (akc_chat_view_unregister_component (fixture.view, "map-view"));
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* The thinking indicator                                              */
/* ------------------------------------------------------------------ */

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
find_label (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (find_label (child, text))
      return TRUE;
  return FALSE;
}

static GtkWidget *
build_dots (AkcChatView *view,
            gpointer     user_data)
{
  guint *built = user_data;
  GtkWidget *dots = gtk_label_new ("• • •");

  (*built)++;
  gtk_widget_set_name (dots, "host-thinking");
  return dots;
}

typedef struct {
  Fixture    *fixture;
  const char *name;
} NamedWait;

static gboolean
named_shown (NamedWait *wait)
{
  return find_named (GTK_WIDGET (wait->fixture->view), wait->name) != NULL;
}

static gboolean
default_thinking_shown (Fixture *fixture)
{
  return find_label (GTK_WIDGET (fixture->view), "Thinking...");
}

static gboolean
nothing_thinking (Fixture *fixture)
{
  return !default_thinking_shown (fixture) && find_named (GTK_WIDGET (fixture->view), "host-thinking") == NULL;
}

static gboolean
is_streaming (Fixture *fixture)
{
  return akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->chat)) == AKC_CHAT_STATUS_STREAMING;
}

static void
start_open_reply (Fixture    *fixture,
                  AkcScriptedAdapter *script,
                  const char *question)
{
  /* A turn with no chunk stays open until it is stopped. */
  akc_scripted_adapter_begin_turn (script);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture->chat), question, NULL));
  g_assert_true (is_streaming (fixture));
}

/* A replaced thinking indicator keeps the role and the name of the view's
 * own; without a factory the view's own comes back. */
static void
test_thinking_keeps_role_and_name (void)
{
  const char *contents[] = { "hi", "hello", NULL };
  Fixture fixture = { 0 };
  NamedWait wait = { &fixture, "host-thinking" };
  AkcScriptedAdapter *script;
  GtkWidget *dots, *slot;
  guint built = 0;

  fixture_init (&fixture, NULL, contents);
  script = AKC_SCRIPTED_ADAPTER (akc_chat_get_adapter (fixture.chat));
  akc_chat_view_set_thinking_factory (fixture.view, build_dots, &built, NULL);

  start_open_reply (&fixture, script, "Slow one");
  WAIT_FOR (named_shown, &wait);
  dots = find_named (GTK_WIDGET (fixture.view), "host-thinking");
  slot = gtk_widget_get_parent (dots);
  g_assert_cmpuint (built, ==, 1);
  g_assert_false (default_thinking_shown (&fixture));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_ROLE_STATUS);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_LABEL, "Thinking...");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.stop", NULL));
  WAIT_FOR (nothing_thinking, &fixture);

  akc_chat_view_set_thinking_factory (fixture.view, NULL, NULL, NULL);
  start_open_reply (&fixture, script, "Slow two");
  WAIT_FOR (default_thinking_shown, &fixture);
  g_assert_null (find_named (GTK_WIDGET (fixture.view), "host-thinking"));
  g_assert_cmpuint (built, ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.stop", NULL));
  WAIT_FOR (nothing_thinking, &fixture);

  fixture_clear (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/slots/custom-component/renders-host-widget", test_custom_component_renders_host_widget);
  g_test_add_func ("/slots/custom-component/event-resolves-once", test_custom_component_event_resolves_once);
  g_test_add_func ("/slots/custom-component/fallbacks", test_custom_component_fallbacks);

  g_test_add_func ("/slots/thinking/keeps-role-and-name", test_thinking_keeps_role_and_name);

  return g_test_run ();
}

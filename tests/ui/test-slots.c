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

typedef void (*Prepare) (AkcChatView *view,
                         gpointer     data);

static void fixture_init_full (Fixture     *fixture,
                               Host        *host,
                               const char **contents,
                               Prepare      prepare,
                               gpointer     data);

static void
fixture_init (Fixture     *fixture,
              Host        *host,
              const char **contents)
{
  fixture_init_full (fixture, host, contents, NULL, NULL);
}

static void
fixture_init_full (Fixture     *fixture,
                   Host        *host,
                   const char **contents,
                   Prepare      prepare,
                   gpointer     data)
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
  if (prepare != NULL)
    prepare (fixture->view, data);
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
  return find_widget (GTK_WIDGET (wait->fixture->view), is_named, wait->name) != NULL;
}

static gboolean
default_thinking_shown (Fixture *fixture)
{
  return find_widget (GTK_WIDGET (fixture->view), is_label_with_text, "Thinking...") != NULL;
}

static gboolean
nothing_thinking (Fixture *fixture)
{
  return !default_thinking_shown (fixture) && find_widget (GTK_WIDGET (fixture->view), is_named, "host-thinking") == NULL;
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
  dots = find_widget (GTK_WIDGET (fixture.view), is_named, "host-thinking");
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
  g_assert_null (find_widget (GTK_WIDGET (fixture.view), is_named, "host-thinking"));
  g_assert_cmpuint (built, ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.stop", NULL));
  WAIT_FOR (nothing_thinking, &fixture);

  fixture_clear (&fixture);
}

static GtkEventController *key_controller_of (GtkWidget *widget);

/* ------------------------------------------------------------------ */
/* Standard components: the choice list and the others                 */
/* ------------------------------------------------------------------ */

#define CHOICES "{\"prompt\":\"Where to?\",\"choices\":[{\"id\":\"docs\",\"label\":\"Docs\"},{\"id\":\"demo\",\"label\":\"Demo\"}]}"

static void
on_choice_clicked (GtkButton        *button,
                   AkcComponentView *view)
{
  g_autoptr(AkcJsonValue) id = akc_json_value_new_string (gtk_widget_get_name (GTK_WIDGET (button)), -1);

  akc_component_view_emit_event (view, "select", id);
}

/* The host's choice list: one flat button per choice, named by its id. */
static GtkWidget *
build_choices (AkcComponentView     *view,
               AkcResolvedComponent *component,
               gpointer              user_data)
{
  Host *host = user_data;
  AkcJsonValue *choices = akc_json_value_get_member (akc_resolved_component_get_props (component), "choices");
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  g_assert_cmpstr (akc_resolved_component_get_component_key (component), ==, "choice-list");
  g_assert_true (akc_resolved_component_is_standard (component));
  host->built++;
  gtk_widget_set_name (box, "host-choices");
  for (gsize i = 0; i < akc_json_value_get_length (choices); i++)
    {
      AkcJsonValue *choice = akc_json_value_get_element (choices, i);
      GtkWidget *button = gtk_button_new_with_label (akc_json_value_get_string (akc_json_value_get_member (choice, "label"), NULL));

      gtk_widget_set_name (button, akc_json_value_get_string (akc_json_value_get_member (choice, "id"), NULL));
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_choice_clicked), view, 0);
      gtk_box_append (GTK_BOX (box), button);
    }
  return box;
}

static void
record_selection (AkcChatView      *view,
                  AkcComponentView *component,
                  AkcJsonValue     *event,
                  Host             *host)
{
  g_ptr_array_add (host->events, akc_json_value_to_canonical (event, NULL));
}

static void
replace_choices (AkcChatView *view,
                 gpointer     data)
{
  akc_chat_view_replace_component (view, "choice-list", build_choices, data, NULL);
  g_signal_connect (view, "component-selection", G_CALLBACK (record_selection), data);
}

/* A replaced choice list is the host's widget inside a group named by the
 * prompt and described by the fallback; its selection resolves the
 * instance once (§12.7), and it owns input as the view's own would. */
static void
test_choice_list_replaced (void)
{
  g_autofree char *frame = frame_json ("choice-list", "where", CHOICES);
  const char *contents[] = { "where?", frame, NULL };
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  Host host = { 0, events };
  Fixture fixture = { 0 };
  AkcComponentView *component;
  GtkWidget *slot, *choices, *docs;

  fixture_init_full (&fixture, NULL, contents, replace_choices, &host);
  component = view_of (&fixture, 1);
  slot = akc_component_view_get_content (component);
  choices = find_widget (slot, is_named, "host-choices");
  g_assert_nonnull (choices);
  g_assert_true (gtk_widget_get_parent (choices) == slot);
  g_assert_cmpuint (host.built, ==, 1);
  g_assert_false (akc_component_view_get_is_fallback (component));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_LABEL, "Where to?");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Where to? Docs, Demo.");

  /* The latest unresolved instance owns input (§12.4), replaced or not. */
  g_assert_true (akc_component_view_get_active (component));
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));

  docs = find_widget (slot, is_named, "docs");
  g_signal_emit_by_name (docs, "clicked");
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (events, 0), "\"docs\""));
  g_assert_true (akc_component_view_get_resolved (component));
  g_assert_false (gtk_widget_get_sensitive (slot));
  gtk_test_accessible_assert_state (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_STATE_DISABLED, TRUE);

  /* Single-shot: another choice changes nothing. */
  g_signal_emit_by_name (find_widget (slot, is_named, "demo"), "clicked");
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_false (akc_chat_view_get_input_owned (fixture.view));

  /* Restored, the view's own widget is back for what is shown next. */
  g_assert_true (akc_chat_view_restore_component (fixture.view, "choice-list"));
  g_assert_false (akc_chat_view_restore_component (fixture.view, "choice-list"));
  fixture_clear (&fixture);

  fixture_init (&fixture, NULL, contents);
  g_assert_null (find_widget (akc_component_view_get_content (view_of (&fixture, 1)), is_named, "host-choices"));
  fixture_clear (&fixture);
}

static GtkWidget *
build_notice (AkcComponentView     *view,
              AkcResolvedComponent *component,
              gpointer              user_data)
{
  GtkWidget *label = gtk_label_new ("Host notice");

  gtk_widget_set_name (label, "host-notice");
  return label;
}

static GtkWidget *
build_nothing (AkcComponentView     *view,
               AkcResolvedComponent *component,
               gpointer              user_data)
{
  return NULL;
}

static void
replace_notice (AkcChatView *view,
                gpointer     data)
{
  akc_chat_view_replace_component (view, "error-notice", build_notice, NULL, NULL);
  akc_chat_view_replace_component (view, "progress", build_nothing, NULL, NULL);
}

/* Any standard renderer: an error notice stays an alert named by its
 * title; a factory that returns nothing leaves the view's own. */
static void
test_standard_component_replaced (void)
{
  g_autofree char *notice = frame_json ("error-notice", "oops",
                                        "{\"title\":\"Sync failed\",\"message\":\"The server is away.\"}");
  g_autofree char *progress = frame_json ("progress", "bar", "{\"label\":\"Indexing\",\"value\":40}");
  const char *contents[] = { "sync", notice, "and?", progress, NULL };
  Fixture fixture = { 0 };
  GtkWidget *slot;

  fixture_init_full (&fixture, NULL, contents, replace_notice, NULL);
  slot = akc_component_view_get_content (view_of (&fixture, 1));
  g_assert_nonnull (find_widget (slot, is_named, "host-notice"));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_LABEL, "Sync failed");

  slot = akc_component_view_get_content (view_of (&fixture, 3));
  g_assert_false (gtk_widget_has_css_class (slot, "component-slot"));
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* The confirmation of a tool call                                     */
/* ------------------------------------------------------------------ */

static char *
run_tool (AkcTool       *tool,
          AkcJsonValue  *arguments,
          gpointer       user_data,
          GError       **error)
{
  (*(guint *) user_data)++;
  return g_strdup ("deleted");
}

static void
on_yes_clicked (GtkButton *button,
                gpointer   user_data)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (button), "chat.approve", "s",
                                             gtk_widget_get_name (GTK_WIDGET (button))));
}

static GtkWidget *
build_confirmation (AkcChatView *view,
                    AkcToolCall *call,
                    gpointer     user_data)
{
  guint *built = user_data;
  GtkWidget *yes = gtk_button_new_with_label ("Yes, go ahead");

  (*built)++;
  gtk_widget_set_name (yes, akc_tool_call_get_id (call));
  g_signal_connect (yes, "clicked", G_CALLBACK (on_yes_clicked), NULL);
  return yes;
}

static gboolean
named_call_shown (NamedWait *wait)
{
  return find_widget (GTK_WIDGET (wait->fixture->view), is_named, wait->name) != NULL;
}

static gboolean
source_idle (Fixture *fixture)
{
  return !is_streaming (fixture);
}

typedef struct {
  guint *runs;
  guint  target;
} RunsWait;

static gboolean
runs_reached (RunsWait *wait)
{
  return *wait->runs >= wait->target;
}

/* The host's confirmation is in a group named and described as the
 * view's own, takes the keyboard as the view's own, and approves through
 * the view: the tool runs once. */
static void
test_confirmation_replaced (void)
{
  const char *contents[] = { NULL };
  Fixture fixture = { 0 };
  NamedWait wait = { &fixture, "call-1" };
  g_autoptr(AkcTool) tool = NULL;
  AkcScriptedAdapter *script;
  GtkWidget *yes, *slot, *focus;
  RunsWait runs_wait;
  guint runs = 0, built = 0;

  fixture_init (&fixture, NULL, contents);
  script = AKC_SCRIPTED_ADAPTER (akc_chat_get_adapter (fixture.chat));
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);
  akc_chat_view_set_confirmation_factory (fixture.view, build_confirmation, &built, NULL);

  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_tool_call (script, "call-1", "delete_file", "{\"path\":\"/tmp/x\"}", 0);
  akc_scripted_adapter_add_done (script, 0);
  akc_scripted_adapter_begin_turn (script);
  akc_scripted_adapter_add_text (script, "Deleted.", 0);
  akc_scripted_adapter_add_done (script, 0);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "Delete /tmp/x", NULL));
  WAIT_FOR (source_idle, &fixture);
  WAIT_FOR (named_call_shown, &wait);

  yes = find_widget (GTK_WIDGET (fixture.view), is_named, "call-1");
  slot = gtk_widget_get_parent (yes);
  g_assert_cmpuint (built, >=, 1);
  g_assert_true (gtk_widget_has_css_class (slot, "confirmation-slot"));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Allow the assistant to use “Delete file”?");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Nothing happens until you approve it.");
  g_assert_null (find_widget (GTK_WIDGET (fixture.view), is_named, "GtkExpander"));

  /* A stop of the transcript's arrow keys, and Tab reaches the host's button. */
  g_assert_true (gtk_widget_get_focusable (slot));
  g_assert_true (gtk_widget_grab_focus (slot));
  focus = gtk_root_get_focus (GTK_ROOT (fixture.window));
  g_assert_true (focus == slot);
  g_assert_true (gtk_widget_child_focus (slot, GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (fixture.window)) == yes);

  g_signal_emit_by_name (yes, "clicked");
  runs_wait = (RunsWait) { &runs, 1 };
  WAIT_FOR (runs_reached, &runs_wait);
  WAIT_FOR (source_idle, &fixture);
  g_assert_cmpuint (runs, ==, 1);

  /* Without a factory, the view's own comes back. */
  akc_chat_view_set_confirmation_factory (fixture.view, NULL, NULL, NULL);
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* The message row                                                     */
/* ------------------------------------------------------------------ */

static GtkWidget *
build_message (AkcChatView *view,
               AkcMessage  *message,
               gpointer     user_data)
{
  guint *built = user_data;
  g_autofree char *text = NULL;
  GtkWidget *label;

  /* Only the assistant's messages: the others keep the view's own row. */
  if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT)
    return NULL;
  (*built)++;
  text = g_strdup_printf ("» %s", akc_message_get_content (message));
  label = gtk_label_new (text);
  gtk_widget_set_name (label, "host-message");
  return label;
}

static void
replace_messages (AkcChatView *view,
                  gpointer     data)
{
  akc_chat_view_set_message_factory (view, build_message, data, NULL);
}

/* The host's row of a message is in a group named after its author, a
 * stop of the arrow keys; a message the factory leaves keeps the view's
 * own row. */
static void
test_message_row_replaced (void)
{
  const char *contents[] = { "hi", "hello there", NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcMessage) question = NULL;
  GtkWidget *label, *slot;
  guint built = 0;

  fixture_init_full (&fixture, NULL, contents, replace_messages, &built);
  label = find_widget (GTK_WIDGET (fixture.view), is_named, "host-message");
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "» hello there");
  g_assert_cmpuint (built, >=, 1);
  slot = gtk_widget_get_parent (label);
  g_assert_true (gtk_widget_has_css_class (slot, "message-slot"));
  g_assert_true (gtk_widget_has_css_class (slot, "assistant"));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (slot), GTK_ACCESSIBLE_PROPERTY_LABEL, "Assistant");
  g_assert_true (gtk_widget_get_focusable (slot));

  question = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture.chat)), 0);
  g_assert_nonnull (akc_chat_view_get_row (fixture.view, question));

  /* ↑ from the host's row reaches the view's own row above it. */
  {
    GtkEventController *keys = key_controller_of (GTK_WIDGET (fixture.view));
    GtkWidget *row = GTK_WIDGET (akc_chat_view_get_row (fixture.view, question));
    GtkWidget *focus;
    gboolean handled = FALSE;

    g_assert_nonnull (keys);
    g_assert_true (gtk_widget_grab_focus (slot));
    g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Up, 0, 0, &handled);
    g_assert_true (handled);
    spin ();
    focus = gtk_root_get_focus (GTK_ROOT (fixture.window));
    g_assert_true (focus == row || gtk_widget_is_ancestor (focus, row));
  }

  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* The composer                                                        */
/* ------------------------------------------------------------------ */

/* The key controller that sees keys first (capture phase). */
static GtkEventController *
key_controller_of (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
          gtk_event_controller_get_propagation_phase (controller) == GTK_PHASE_CAPTURE)
        return controller;
    }
  return NULL;
}

static gboolean
input_free (Fixture *fixture)
{
  return !akc_chat_view_get_input_owned (fixture->view);
}

/* A host's own composer keeps the keyboard ownership rule (§12.4 and its
 * port decision): a key that writes into it sets the owning component
 * aside, unanswered, and the composer takes the keyboard back; a key
 * that does not write (Tab) leaves the component the owner. */
static void
test_composer_bound (void)
{
  g_autofree char *frame = frame_json ("choice-list", "where", CHOICES);
  const char *contents[] = { "where?", frame, NULL };
  Fixture fixture = { 0 };
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller;
  GtkEventController *keys;
  AkcComponentView *component;
  gboolean handled = FALSE;

  fixture_init (&fixture, NULL, contents);
  /* The host puts its composer under the transcript. */
  scroller = gtk_window_get_child (GTK_WINDOW (fixture.window));
  g_object_ref (scroller);
  gtk_window_set_child (GTK_WINDOW (fixture.window), box);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_box_append (GTK_BOX (box), entry);
  g_object_unref (scroller);
  wait_frames (fixture.window, 2);

  g_assert_null (key_controller_of (entry));
  g_assert_null (akc_chat_view_get_composer (fixture.view));
  akc_chat_view_set_composer (fixture.view, entry);
  g_assert_true (akc_chat_view_get_composer (fixture.view) == entry);
  component = view_of (&fixture, 1);
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (component)));
  keys = key_controller_of (entry);
  g_assert_nonnull (keys);

  /* Tab moves on: the component still owns input. */
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_Tab, 0, 0, &handled);
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));

  /* A letter writes: the component is set aside (inert, unanswered),
   * and the composer has the keyboard. */
  g_signal_emit_by_name (keys, "key-pressed", GDK_KEY_a, 0, 0, &handled);
  g_assert_false (handled);
  WAIT_FOR (input_free, &fixture);
  g_assert_false (akc_component_view_get_active (component));
  g_assert_true (gtk_widget_has_focus (entry) || gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (fixture.window)), entry));

  /* Unbound, the composer is the host's alone again. */
  akc_chat_view_set_composer (fixture.view, NULL);
  g_assert_null (akc_chat_view_get_composer (fixture.view));
  g_assert_null (key_controller_of (entry));

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
  g_test_add_func ("/slots/choice-list/keeps-role-and-resolves-once", test_choice_list_replaced);
  g_test_add_func ("/slots/standard/keeps-role-and-name", test_standard_component_replaced);
  g_test_add_func ("/slots/confirmation/keeps-role-and-approves", test_confirmation_replaced);
  g_test_add_func ("/slots/message-row/keeps-role-and-keys", test_message_row_replaced);
  g_test_add_func ("/slots/composer/keeps-input-ownership", test_composer_bound);

  return g_test_run ();
}

/* akc-window.c: the main window
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <akc-gtk.h>

#include "akc-backend.h"
#include "akc-demo.h"
#include "akc-knowledge-layer.h"
#include "akc-preferences-window.h"
#include "akc-window.h"

/* The stored conversation the hello-world demo lives in; the other demos
 * live in "demo-«id»". */
#define DEMO_CONVERSATION_ID "demo"
#define DEFAULT_DEMO "hello-world"

/* The conversations on network backends: an Ask service (stored in the
 * history as "ask") and a turn server (which keeps it). */
#define ASK_ID  "ask"
#define TURN_ID "turn"
#define PROVIDER_ID "provider"
#define ASK_CONVERSATION_ID "ask"

/* The remembered local knowledge: file paths, never their contents. */
#define SETTING_SITE_CONFIG "knowledge-site-config"
#define SETTING_ARTIFACT    "knowledge-artifact"

struct _AkcWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  AdwStatusPage        *status_page;
  GtkRevealer          *knowledge_revealer;
  GtkWidget            *knowledge_banner;
  GtkLabel             *knowledge_warning;
  GtkStack             *stack;
  GtkScrolledWindow    *scroller;
  AkcChatView          *transcript;
  AkcComposer          *composer;

  GSettings            *settings;
  AkcChatSource        *source;
  AkcKnowledgeLayer    *knowledge;
  GFile                *chosen_site_config;  /* while choosing the artifact */

  /* The offline demos this window opened (id → AkcDemo), each with its
   * own session and conversation, and the one it shows. */
  GHashTable           *demos;
  AkcDemo              *demo;               /* NULL on a backend */
  /* What acts on the answers of a backend's conversation (source →
   * AkcInteractionController); a demo has its own. */
  GHashTable           *interactions;
  char                 *conversation;       /* the shown conversation's id */
  gulong                messages_handler;

  /* The backends the preferences set up, and the Ask conversation, with
   * local knowledge in front of the Ask service as in front of the demos. */
  AkcCredentialStore   *credentials;
  AkcBackend           *ask_backend;
  AkcBackend           *turn_backend;
  AkcKnowledgeLayer    *ask_knowledge;
  AkcChat              *ask_chat;
  AkcBackend           *provider_backend;
  AkcChat              *provider_chat;
  GtkWindow            *preferences;

  /* Keeps the conversations in the history once the application opened
   * it: one per demo (id → AkcChatHistory). */
  AkcChatMemory        *memory;
  GHashTable           *histories;
  AkcChatHistory       *history;
  GCancellable         *history_cancellable;
};

G_DEFINE_FINAL_TYPE (AkcWindow, akc_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_CONVERSATION,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  OPEN_LINK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void akc_window_attach_history (AkcWindow *self);

static gboolean
is_conversation (AkcWindow  *self,
                 const char *id)
{
  return g_strcmp0 (self->conversation, id) == 0;
}

/* The local knowledge in front of the shown conversation's model; the
 * turn server answers on its own. */
static AkcKnowledgeLayer *
current_knowledge (AkcWindow *self)
{
  if (is_conversation (self, ASK_ID))
    return self->ask_knowledge;
  if (is_conversation (self, TURN_ID) || is_conversation (self, PROVIDER_ID))
    return NULL;
  return self->knowledge;
}

static const char *
conversation_title (const char *id)
{
  if (g_strcmp0 (id, ASK_ID) == 0)
    return _("Ask Service");
  if (g_strcmp0 (id, TURN_ID) == 0)
    return _("Turn Server");
  if (g_strcmp0 (id, PROVIDER_ID) == 0)
    return _("Model Provider");
  return akc_demo_get_title_for (id);
}

static GListModel *
akc_window_get_messages (AkcWindow *self)
{
  return akc_chat_source_get_messages (self->source);
}

static void
akc_window_sync_actions (AkcWindow *self)
{
  guint n = self->source != NULL ? g_list_model_get_n_items (akc_window_get_messages (self)) : 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-chat", n > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.forget-knowledge",
                                 akc_knowledge_layer_get_state (self->knowledge) != AKC_KNOWLEDGE_STATE_NONE);
}

static void
on_messages_changed (AkcWindow  *self,
                     guint       position,
                     guint       removed,
                     guint       added,
                     GListModel *messages)
{
  guint n = g_list_model_get_n_items (messages);

  gtk_stack_set_visible_child_name (self->stack, n > 0 ? "transcript" : "empty");
  akc_window_sync_actions (self);
}

/* §12.4 with its port decision (docs/port-decisions.md): a component of
 * the transcript that owns input has the focus, but the composer stays
 * enabled, for the pointer and for Tab; when no component owns input any
 * more, the composer takes the keyboard back. */
static void
on_input_owned_changed (AkcWindow *self)
{
  gboolean owned = akc_chat_view_get_input_owned (self->transcript);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (!owned && (focus == NULL || gtk_widget_is_ancestor (focus, GTK_WIDGET (self->transcript))))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/* Typing into the composer, or clicking it, sets the component that owns
 * input aside: it stays unanswered, and the person writes instead. */
static void
set_component_aside (AkcWindow *self)
{
  if (akc_chat_view_get_input_owned (self->transcript))
    gtk_widget_activate_action (GTK_WIDGET (self->transcript), "chat.set-aside", NULL);
}

static void
on_composer_pressed (AkcWindow *self)
{
  set_component_aside (self);
}

static gboolean
on_composer_key_pressed (AkcWindow       *self,
                         guint            keyval,
                         guint            keycode,
                         GdkModifierType  state)
{
  /* A key that writes, not one that moves the focus on (Tab) or is a
   * shortcut. */
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0 &&
      (gdk_keyval_to_unicode (keyval) >= 0x20 || keyval == GDK_KEY_BackSpace || keyval == GDK_KEY_Delete))
    set_component_aside (self);

  return GDK_EVENT_PROPAGATE;
}

static gboolean
focus_is_lost (AkcWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  /* Nowhere, or gone. (When a row of the transcript that had it goes, the
   * transcript gives the keyboard back itself, unless it is moving it.) */
  return focus == NULL || !gtk_widget_get_mapped (focus);
}

/* The keyboard never stays nowhere: when the widget that had it goes (an
 * approved confirmation, a reply's buttons rebuilt), it returns to the
 * composer unless a component of the transcript owns input. */
static gboolean
restore_focus_idle (gpointer user_data)
{
  AkcWindow *self = user_data;

  if (focus_is_lost (self) &&
      !akc_chat_view_get_input_owned (self->transcript) &&
      gtk_widget_is_sensitive (GTK_WIDGET (self->composer)))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));

  return G_SOURCE_REMOVE;
}

static void
on_focus_widget_changed (AkcWindow *self)
{
  if (focus_is_lost (self))
    g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, restore_focus_idle, g_object_ref (self), g_object_unref);
}

/* The window-wide keys of the conversation are the window's actions,
 * which do what the transcript's do: the transcript's own shortcuts act
 * only while the focus is in it. */
static void
forward_to_transcript (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  g_autofree char *name = g_strconcat ("chat.", action_name + strlen ("win."), NULL);

  gtk_widget_activate_action (GTK_WIDGET (self->transcript), name, NULL);
}

static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  /* The turn server keeps its conversations: a new one is a new session. */
  if (is_conversation (self, TURN_ID))
    akc_backend_new_turn_session (self->turn_backend);
  else
    akc_chat_source_clear (self->source);
  akc_composer_set_text (self->composer, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/* The warning stays while the knowledge cannot answer; the title says
 * which knowledge answers. */
static void
on_knowledge_changed (AkcWindow *self)
{
  AkcKnowledgeLayer *knowledge = current_knowledge (self);
  const char *warning = knowledge != NULL ? akc_knowledge_layer_get_warning (knowledge) : NULL;
  const char *artifact_id = knowledge != NULL ? akc_knowledge_layer_get_artifact_id (knowledge) : NULL;
  g_autofree char *subtitle = NULL;

  gtk_label_set_text (self->knowledge_warning, warning != NULL ? warning : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->knowledge_banner),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, warning != NULL ? warning : "",
                                  -1);
  gtk_revealer_set_reveal_child (self->knowledge_revealer, warning != NULL);
  gtk_widget_set_visible (self->knowledge_banner, warning != NULL);

  if (knowledge != NULL && akc_knowledge_layer_get_state (knowledge) == AKC_KNOWLEDGE_STATE_READY && artifact_id != NULL)
    /* Translators: %s is the id of a knowledge artifact. */
    subtitle = g_strdup_printf (_("Local Knowledge: %s"), artifact_id);
  else if (is_conversation (self, PROVIDER_ID) && akc_backend_get_model (self->provider_backend) != NULL)
    /* Translators: %s is the name of a model, such as llama3.2 */
    subtitle = g_strdup_printf (_("Model Provider: %s"), akc_backend_get_model (self->provider_backend));
  adw_window_title_set_subtitle (self->window_title,
                                 subtitle != NULL ? subtitle :
                                 self->conversation != NULL ? conversation_title (self->conversation) : NULL);

  akc_window_sync_actions (self);
}

static GFile *
setting_file (GSettings  *settings,
              const char *key)
{
  g_autofree char *path = g_settings_get_string (settings, key);

  return path[0] != '\0' ? g_file_new_for_commandline_arg (path) : NULL;
}

static char *
file_setting (GFile *file)
{
  char *path = g_file_get_path (file);

  return path != NULL ? path : g_file_get_uri (file);
}

/**
 * akc_window_use_knowledge:
 * @self: a #AkcWindow
 * @site_config: (nullable): the site configuration file, or %NULL to stop
 *   using local knowledge
 * @artifact: (nullable): the knowledge artifact file the configuration pins
 *
 * Answers exact questions of the conversation from the local knowledge in
 * @artifact, verified against @site_config, in front of the backend; the
 * two paths are remembered for the next start. When they cannot be used,
 * a warning says why and the backend answers.
 */
void
akc_window_use_knowledge (AkcWindow *self,
                          GFile     *site_config,
                          GFile     *artifact)
{
  g_autofree char *site_path = NULL;
  g_autofree char *artifact_path = NULL;

  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (site_config == NULL || G_IS_FILE (site_config));
  g_return_if_fail ((site_config == NULL) == (artifact == NULL));

  if (site_config != NULL)
    {
      site_path = file_setting (site_config);
      artifact_path = file_setting (artifact);
    }

  g_settings_delay (self->settings);
  g_settings_set_string (self->settings, SETTING_SITE_CONFIG, site_path != NULL ? site_path : "");
  g_settings_set_string (self->settings, SETTING_ARTIFACT, artifact_path != NULL ? artifact_path : "");
  g_settings_apply (self->settings);

  if (site_config != NULL)
    {
      akc_knowledge_layer_load (self->knowledge, site_config, artifact);
      akc_knowledge_layer_load (self->ask_knowledge, site_config, artifact);
    }
  else
    {
      akc_knowledge_layer_clear (self->knowledge);
      akc_knowledge_layer_clear (self->ask_knowledge);
    }
}

/**
 * akc_window_get_knowledge:
 * @self: a #AkcWindow
 *
 * Gets the adapter layer that holds the shown conversation's local
 * knowledge (the demos share one; the Ask service has its own).
 *
 * Returns: (transfer none): the knowledge layer
 */
AkcKnowledgeLayer *
akc_window_get_knowledge (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return current_knowledge (self) != NULL ? current_knowledge (self) : self->knowledge;
}

static GtkFileChooserNative *
new_json_chooser (AkcWindow  *self,
                  const char *title)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                                               _("_Use"), _("_Cancel"));
  g_autoptr(GtkFileFilter) json = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (json, _("JSON Files"));
  gtk_file_filter_add_mime_type (json, "application/json");
  gtk_file_filter_add_suffix (json, "json");
  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), json);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);

  return chooser;
}

static void
on_artifact_chosen (GtkNativeDialog *dialog,
                    int              response,
                    AkcWindow       *self)
{
  g_autoptr(GFile) site_config = g_steal_pointer (&self->chosen_site_config);

  if (response == GTK_RESPONSE_ACCEPT && site_config != NULL)
    {
      g_autoptr(GFile) artifact = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (artifact != NULL)
        akc_window_use_knowledge (self, site_config, artifact);
    }
  g_object_unref (dialog);
}

static void
on_site_config_chosen (GtkNativeDialog *dialog,
                       int              response,
                       AkcWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      GtkFileChooserNative *next;

      g_set_object (&self->chosen_site_config, NULL);
      self->chosen_site_config = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      next = new_json_chooser (self, _("Choose the Knowledge Artifact"));
      g_signal_connect_object (next, "response", G_CALLBACK (on_artifact_chosen), self, 0);
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (next));
    }
  g_object_unref (dialog);
}

/* Two steps: the site configuration, then the knowledge artifact it pins. */
static void
choose_knowledge_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  GtkFileChooserNative *chooser = new_json_chooser (self, _("Choose the Site Configuration"));

  g_signal_connect_object (chooser, "response", G_CALLBACK (on_site_config_chosen), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
forget_knowledge_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  akc_window_use_knowledge (AKC_WINDOW (widget), NULL, NULL);
}

/* What the person does with a card or a confirmation is the interaction
 * controller's (application.md §12.7, §12.8): the transcript forwards to
 * it. The window is the host of its links and its reservations. */
static void
on_link_requested (AkcWindow  *self,
                   const char *uri)
{
  g_signal_emit (self, signals[OPEN_LINK], 0, uri);
}

/* The controller of a conversation on a backend: one per source. */
static AkcInteractionController *
backend_interaction (AkcWindow     *self,
                     AkcChatSource *source)
{
  AkcInteractionController *interaction = g_hash_table_lookup (self->interactions, source);

  if (interaction == NULL)
    {
      g_autoptr(AkcComponentManifest) standard = akc_component_manifest_new_standard ();

      interaction = akc_interaction_controller_new (source);
      akc_interaction_controller_set_manifest (interaction, standard);
      g_hash_table_insert (self->interactions, source, interaction);
    }

  return interaction;
}

/* Once per controller: the window opens its links. */
static void
host_interaction (AkcWindow                *self,
                  AkcInteractionController *interaction)
{
  if (g_object_get_data (G_OBJECT (interaction), "akc-window-host") == self)
    return;

  g_object_set_data (G_OBJECT (interaction), "akc-window-host", self);
  g_signal_connect_object (interaction, "link-requested", G_CALLBACK (on_link_requested),
                           self, G_CONNECT_SWAPPED);
}

/**
 * akc_window_get_conversation:
 * @self: a #AkcWindow
 *
 * Gets the id of the conversation the window shows: an offline demo's id,
 * `ask` (the Ask service) or `turn` (the turn server).
 *
 * Returns: the conversation id
 */
const char *
akc_window_get_conversation (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->conversation;
}

static void
update_status_page (AkcWindow *self)
{
  const char *id = self->conversation;
  g_autofree char *description = NULL;

  if (g_strcmp0 (id, ASK_ID) == 0)
    /* Translators: %s is a URL. */
    description = g_strdup_printf (_("Questions go to the Ask service at %s."),
                                   akc_backend_get_endpoint (self->ask_backend));
  else if (g_strcmp0 (id, TURN_ID) == 0)
    /* Translators: %s is a URL. */
    description = g_strdup_printf (_("The turn server at %s keeps this conversation."),
                                   akc_backend_get_endpoint (self->turn_backend));
  else if (g_strcmp0 (id, PROVIDER_ID) == 0)
    /* Translators: the first %s is a model name, the second a URL. */
    description = g_strdup_printf (_("The model %s at %s answers."),
                                   akc_backend_get_model (self->provider_backend) != NULL
                                     ? akc_backend_get_model (self->provider_backend) : "?",
                                   akc_backend_get_endpoint (self->provider_backend));
  else
    description = g_strdup (akc_demo_get_summary_for (id));

  adw_status_page_set_title (self->status_page, conversation_title (id));
  adw_status_page_set_description (self->status_page, description);
}

/* Shows @source in the transcript and the composer. */
static void
show_conversation (AkcWindow             *self,
                   const char            *id,
                   AkcChatSource         *source,
                   AkcDemo               *demo,
                   AkcComponentManifest  *manifest,
                   AkcActionConfirmation *confirmation)
{
  /* A demo's own controller, or one per backend source. */
  AkcInteractionController *interaction = demo != NULL ? akc_demo_get_interaction (demo)
                                                       : backend_interaction (self, source);

  GListModel *messages;

  if (self->messages_handler != 0)
    g_clear_signal_handler (&self->messages_handler, akc_window_get_messages (self));

  self->demo = demo;
  g_set_object (&self->source, source);
  if (!is_conversation (self, id))
    {
      g_free (self->conversation);
      self->conversation = g_strdup (id);
    }
  messages = akc_window_get_messages (self);

  /* A deterministic choice is claimed from the conversation's local
   * knowledge before it is sent (§2.8, §9.5). */
  akc_interaction_controller_set_manifest (interaction, manifest);
  akc_interaction_controller_set_confirmation (interaction, confirmation);
  host_interaction (self, interaction);
  akc_interaction_controller_set_reservations (interaction,
                                               akc_knowledge_layer_get_reservations (akc_window_get_knowledge (self)));
  akc_chat_view_set_interaction (self->transcript, interaction);
  akc_composer_set_source (self->composer, self->source);

  on_knowledge_changed (self);
  update_status_page (self);

  self->messages_handler = g_signal_connect_object (messages, "items-changed",
                                                    G_CALLBACK (on_messages_changed),
                                                    self, G_CONNECT_SWAPPED);
  on_messages_changed (self, 0, 0, 0, messages);

  g_settings_set_string (self->settings, "conversation", id);
  akc_window_attach_history (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONVERSATION]);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

static void
refuse (AkcWindow  *self,
        const char *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_set_button_label (toast, _("_Preferences"));
  adw_toast_set_action_name (toast, "win.preferences");
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * akc_window_set_conversation:
 * @self: a #AkcWindow
 * @id: a demo id (see akc_demo_get_ids()), `ask` or `turn`
 *
 * Shows one of the offline demos, the Ask service or the turn server. Each
 * keeps its own conversation for as long as the window lives: the demos
 * and the Ask service in the history too, when there is one, and the turn
 * server on the server. The choice is remembered for the next start.
 * Local knowledge, when chosen, answers exact questions in front of the
 * demos' stand-in model and of the Ask service. An unknown id, or a
 * backend that is not set up in the preferences, is refused with a
 * message and the shown conversation stays.
 */
void
akc_window_set_conversation (AkcWindow  *self,
                             const char *id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcComponentManifest) standard = NULL;
  AkcComponentManifest *manifest;
  AkcChatSource *source;
  AkcDemo *demo;

  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (id != NULL);

  if (g_str_equal (id, ASK_ID) || g_str_equal (id, TURN_ID) || g_str_equal (id, PROVIDER_ID))
    {
      gboolean ask = g_str_equal (id, ASK_ID);
      gboolean provider = g_str_equal (id, PROVIDER_ID);

      if (provider)
        source = akc_backend_get_configured (self->provider_backend) &&
                 akc_backend_get_model (self->provider_backend) != NULL
                   ? AKC_CHAT_SOURCE (self->provider_chat) : NULL;
      else
        source = ask ? AKC_CHAT_SOURCE (self->ask_chat) : akc_backend_get_turn_client (self->turn_backend);
      if ((provider || !ask) ? source == NULL : !akc_backend_get_configured (self->ask_backend))
        {
          refuse (self, provider ? _("The model provider is not set up yet. Enter its base URL and model in Preferences.")
                        : ask ? _("The Ask service is not set up yet. Enter its URL in Preferences.")
                              : _("The turn server is not set up yet. Enter its URL in Preferences."));
          return;
        }
      if (is_conversation (self, id) && self->source == source)
        return;

      standard = akc_component_manifest_new_standard ();
      show_conversation (self, id, source, NULL, standard, NULL);
      return;
    }

  if (self->demo != NULL && is_conversation (self, id))
    return;

  demo = g_hash_table_lookup (self->demos, id);
  if (demo == NULL)
    {
      demo = akc_demo_new_full (id, NULL, NULL, AKC_ADAPTER (self->knowledge), &error);
      if (demo == NULL)
        {
          /* Translators: %s is the id of a demo that does not exist. */
          g_autofree char *title = g_strdup_printf (_("There is no demo named “%s”."), id);

          adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
          return;
        }
      g_hash_table_insert (self->demos, g_strdup (id), demo);
    }

  /* The definition's manifest, or the whole standard catalog. */
  manifest = akc_definition_get_manifest (akc_session_get_definition (akc_demo_get_session (demo)));
  if (manifest == NULL)
    manifest = standard = akc_component_manifest_new_standard ();
  show_conversation (self, id, AKC_CHAT_SOURCE (akc_demo_get_chat (demo)), demo,
                     manifest, akc_demo_get_confirmation (demo));
}

static gboolean
is_replaced_turn_client (gpointer key,
                         gpointer value,
                         gpointer user_data)
{
  AkcWindow *self = user_data;

  return AKC_IS_TURN_CLIENT (key) && key != (gpointer) akc_backend_get_turn_client (self->turn_backend);
}

/* A new endpoint or session is a new conversation on the turn server. */
static void
on_turn_client_changed (AkcWindow *self)
{
  /* The replaced client's controller goes with it. */
  g_hash_table_foreach_remove (self->interactions, is_replaced_turn_client, self);

  if (!is_conversation (self, TURN_ID))
    return;

  if (akc_backend_get_turn_client (self->turn_backend) != NULL)
    akc_window_set_conversation (self, TURN_ID);
  else
    akc_window_set_conversation (self, DEFAULT_DEMO);
}

static void
on_endpoint_changed (AkcWindow *self)
{
  if (is_conversation (self, ASK_ID) && !akc_backend_get_configured (self->ask_backend))
    akc_window_set_conversation (self, DEFAULT_DEMO);
  else if (self->conversation != NULL)
    update_status_page (self);
}

/**
 * akc_window_show_preferences:
 * @self: a #AkcWindow
 *
 * Presents the preferences of the window's backends.
 *
 * Returns: (transfer none): the preferences window
 */
GtkWindow *
akc_window_show_preferences (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  if (self->preferences == NULL)
    {
      self->preferences = GTK_WINDOW (akc_preferences_window_new (self->settings,
                                                                  self->ask_backend,
                                                                  self->turn_backend,
                                                                  self->provider_backend));
      gtk_window_set_transient_for (self->preferences, GTK_WINDOW (self));
      g_object_add_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
    }

  gtk_window_present (self->preferences);

  return self->preferences;
}

static void
preferences_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  akc_window_show_preferences (AKC_WINDOW (widget));
}

/**
 * akc_window_get_backend:
 * @self: a #AkcWindow
 * @kind: which backend
 *
 * Returns: (transfer none): the backend the preferences set up
 */
AkcBackend *
akc_window_get_backend (AkcWindow      *self,
                        AkcBackendKind  kind)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  if (kind == AKC_BACKEND_KIND_PROVIDER)
    return self->provider_backend;
  return kind == AKC_BACKEND_KIND_ASK ? self->ask_backend : self->turn_backend;
}

static void
akc_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  AkcWindow *self = AKC_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CONVERSATION:
      /* The conversation menu's state: a string, empty before the first. */
      g_value_set_string (value, self->conversation != NULL ? self->conversation : "");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_window_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  AkcWindow *self = AKC_WINDOW (object);

  switch (prop_id)
    {
    case PROP_CONVERSATION:
      if (g_value_get_string (value) != NULL)
        akc_window_set_conversation (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_window_real_open_link (AkcWindow  *self,
                           const char *uri)
{
  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

static gboolean
akc_window_close_request (GtkWindow *window)
{
  AkcWindow *self = AKC_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);

  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window))
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);

  return GTK_WINDOW_CLASS (akc_window_parent_class)->close_request (window);
}

static void
akc_window_dispose (GObject *object)
{
  AkcWindow *self = (AkcWindow *)object;

  /* The history hands its last checkpoints to the memory as it goes. */
  g_cancellable_cancel (self->history_cancellable);
  g_clear_object (&self->history_cancellable);
  self->history = NULL;
  g_clear_pointer (&self->histories, g_hash_table_unref);
  g_clear_object (&self->memory);

  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_WINDOW);
  if (self->preferences != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
      gtk_window_destroy (self->preferences);
      self->preferences = NULL;
    }
  g_clear_object (&self->source);
  self->demo = NULL;
  g_clear_pointer (&self->conversation, g_free);
  g_clear_pointer (&self->interactions, g_hash_table_unref);
  g_clear_pointer (&self->demos, g_hash_table_unref);
  g_clear_object (&self->ask_chat);
  g_clear_object (&self->provider_chat);
  g_clear_object (&self->provider_backend);
  g_clear_object (&self->ask_knowledge);
  g_clear_object (&self->ask_backend);
  g_clear_object (&self->turn_backend);
  g_clear_object (&self->credentials);
  g_clear_object (&self->knowledge);
  g_clear_object (&self->chosen_site_config);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (akc_window_parent_class)->dispose (object);
}

static void
akc_window_class_init (AkcWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = akc_window_dispose;
  object_class->get_property = akc_window_get_property;
  object_class->set_property = akc_window_set_property;
  window_class->close_request = akc_window_close_request;

  /**
   * AkcWindow:conversation:
   *
   * The id of the conversation the window shows: an offline demo's id,
   * `ask` or `turn`.
   */
  props[PROP_CONVERSATION] =
    g_param_spec_string ("conversation", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcWindow::open-link:
   * @self: the window
   * @uri: an absolute http or https address
   *
   * The person opened a link of the transcript, such as a source of a
   * source list. The default handler shows it in the browser.
   */
  signals[OPEN_LINK] =
    g_signal_new_class_handler ("open-link",
                                G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST,
                                G_CALLBACK (akc_window_real_open_link),
                                NULL, NULL,
                                NULL,
                                G_TYPE_NONE, 1,
                                G_TYPE_STRING);

  g_type_ensure (AKC_TYPE_CHAT_VIEW);
  g_type_ensure (AKC_TYPE_COMPOSER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, status_page);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_revealer);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_banner);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_warning);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, scroller);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, transcript);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, composer);

  /* Escape stops a reply from the composer and the transcript; retry
   * (Ctrl+R), regenerate (Ctrl+Shift+R), edit (Ctrl+E) and jump to the
   * newest message (Ctrl+End) work from anywhere in the window, through
   * these actions and their accels (akc_application_add_accels()). */
  gtk_widget_class_install_action (widget_class, "win.new-chat", NULL, new_chat_action);
  gtk_widget_class_install_action (widget_class, "win.retry", NULL, forward_to_transcript);
  gtk_widget_class_install_action (widget_class, "win.regenerate", NULL, forward_to_transcript);
  gtk_widget_class_install_action (widget_class, "win.edit", NULL, forward_to_transcript);
  gtk_widget_class_install_action (widget_class, "win.jump-to-newest", NULL, forward_to_transcript);
  /* The conversation menu's radio items. */
  gtk_widget_class_install_property_action (widget_class, "win.conversation", "conversation");
  gtk_widget_class_install_action (widget_class, "win.preferences", NULL, preferences_action);
  gtk_widget_class_install_action (widget_class, "win.choose-knowledge", NULL, choose_knowledge_action);
  gtk_widget_class_install_action (widget_class, "win.forget-knowledge", NULL, forget_knowledge_action);
}

static void
akc_window_init (AkcWindow *self)
{
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(GFile) site_config = NULL;
  g_autoptr(GFile) artifact = NULL;
  g_autofree char *conversation = NULL;
  GtkEventController *composer_keys;
  GtkGesture *composer_click;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->demos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->interactions = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_object_unref);
  self->histories = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* The demos' stand-in model: no network, no model. Local knowledge,
   * when the person chose some, answers exact questions in front of it. */
  adapter = akc_echo_adapter_new ();
  self->knowledge = akc_knowledge_layer_new (adapter);
  g_signal_connect_object (self->knowledge, "notify::warning",
                           G_CALLBACK (on_knowledge_changed), self, G_CONNECT_SWAPPED);
  site_config = setting_file (self->settings, SETTING_SITE_CONFIG);
  artifact = setting_file (self->settings, SETTING_ARTIFACT);

  /* The Ask service and the turn server, as the preferences set them up;
   * local knowledge answers in front of the Ask service too. */
  self->credentials = akc_credential_store_new ();
  self->ask_backend = akc_backend_new (AKC_BACKEND_KIND_ASK, self->settings, self->credentials);
  self->turn_backend = akc_backend_new (AKC_BACKEND_KIND_TURN, self->settings, self->credentials);
  self->provider_backend = akc_backend_new (AKC_BACKEND_KIND_PROVIDER, self->settings, self->credentials);
  self->provider_chat = akc_chat_new (AKC_ADAPTER (self->provider_backend));
  g_signal_connect_object (self->provider_backend, "notify::model",
                           G_CALLBACK (on_knowledge_changed), self, G_CONNECT_SWAPPED);
  self->ask_knowledge = akc_knowledge_layer_new (AKC_ADAPTER (self->ask_backend));
  self->ask_chat = akc_chat_new (AKC_ADAPTER (self->ask_knowledge));
  g_signal_connect_object (self->ask_knowledge, "notify::warning",
                           G_CALLBACK (on_knowledge_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->turn_backend, "notify::turn-client",
                           G_CALLBACK (on_turn_client_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->ask_backend, "notify::endpoint",
                           G_CALLBACK (on_endpoint_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->turn_backend, "notify::endpoint",
                           G_CALLBACK (on_endpoint_changed), self, G_CONNECT_SWAPPED);

  if (site_config != NULL && artifact != NULL)
    {
      akc_knowledge_layer_load (self->knowledge, site_config, artifact);
      akc_knowledge_layer_load (self->ask_knowledge, site_config, artifact);
    }

  /* Before the entry sees the key or the click. */
  composer_keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (composer_keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (composer_keys, "key-pressed", G_CALLBACK (on_composer_key_pressed),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->composer), composer_keys);
  composer_click = gtk_gesture_click_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (composer_click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (composer_click, "pressed", G_CALLBACK (on_composer_pressed),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->composer), GTK_EVENT_CONTROLLER (composer_click));

  g_signal_connect_object (self->transcript, "notify::input-owned",
                           G_CALLBACK (on_input_owned_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (on_focus_widget_changed), NULL);

  /* The conversation shown last, or hello-world. */
  conversation = g_settings_get_string (self->settings, "conversation");
  akc_window_set_conversation (self, conversation);
  if (self->conversation == NULL)
    akc_window_set_conversation (self, DEFAULT_DEMO);
  on_knowledge_changed (self);
}

/**
 * akc_window_new:
 * @application: the application
 *
 * Creates a main window on the built-in demo.
 *
 * Returns: (transfer full): a new #AkcWindow
 */
AkcWindow *
akc_window_new (AdwApplication *application)
{
  return g_object_new (AKC_TYPE_WINDOW, "application", application, NULL);
}

/**
 * akc_window_show_history_error:
 * @self: a #AkcWindow
 * @error: why the history cannot be read or written
 *
 * Tells the person that the conversation is not being saved, and why. It
 * stays until dismissed.
 */
void
akc_window_show_history_error (AkcWindow    *self,
                               const GError *error)
{
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  AdwToast *toast;

  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (error != NULL);

  escaped = g_markup_escape_text (error->message, -1);
  /* Translators: %s says why, such as "The history “…” is damaged (…)." */
  title = g_strdup_printf (_("The conversation is not being saved. %s"), escaped);
  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
on_history_error (AkcWindow      *self,
                  GParamSpec     *pspec,
                  AkcChatHistory *history)
{
  const GError *error = akc_chat_history_get_error (history);

  if (error != NULL)
    akc_window_show_history_error (self, error);
}

static void
on_history_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  AkcWindow *self = user_data;

  /* A failure is the history's error, shown by on_history_error. The
   * window was kept alive for the load. */
  akc_chat_history_load_finish (AKC_CHAT_HISTORY (source), result, NULL);
  g_object_unref (self);
}

static void
on_resolutions_loaded (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(AkcWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  /* Answers that cannot be read are the history's failure: say so. */
  if (!akc_interaction_controller_load_finish (AKC_INTERACTION_CONTROLLER (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    akc_window_show_history_error (self, error);
}

/* Keeps the shown demo's conversation in the history, once there is one. */
static void
akc_window_attach_history (AkcWindow *self)
{
  const char *id = self->conversation;
  g_autofree char *conversation_id = NULL;
  AkcChatHistory *history;
  AkcChat *chat;

  if (self->memory == NULL || id == NULL)
    return;

  /* The turn server keeps its conversation itself. */
  if (g_str_equal (id, TURN_ID))
    {
      self->history = NULL;
      return;
    }
  if (g_str_equal (id, ASK_ID))
    chat = self->ask_chat;
  else if (g_str_equal (id, PROVIDER_ID))
    chat = self->provider_chat;
  else
    chat = akc_demo_get_chat (self->demo);

  history = g_hash_table_lookup (self->histories, id);
  if (history == NULL)
    {
      if (g_str_equal (id, ASK_ID))
        conversation_id = g_strdup (ASK_CONVERSATION_ID);
      else if (g_str_equal (id, PROVIDER_ID))
        conversation_id = g_strdup (PROVIDER_ID);
      else if (g_str_equal (id, DEFAULT_DEMO))
        conversation_id = g_strdup (DEMO_CONVERSATION_ID);
      else
        conversation_id = g_strconcat (DEMO_CONVERSATION_ID, "-", id, NULL);
      history = akc_chat_history_new (chat, self->memory, conversation_id);
      g_hash_table_insert (self->histories, g_strdup (id), history);
      g_signal_connect_object (history, "notify::error",
                               G_CALLBACK (on_history_error), self, G_CONNECT_SWAPPED);
      akc_chat_history_load_async (history, self->history_cancellable,
                                   on_history_loaded, g_object_ref (self));

      /* The answers of its cards are kept with its messages: a card
       * answered before a restart stays answered (§12.7). */
      if (AKC_IS_SQLITE_CHAT_MEMORY (self->memory))
        {
          AkcInteractionController *interaction = self->demo != NULL
                                                  ? akc_demo_get_interaction (self->demo)
                                                  : backend_interaction (self, AKC_CHAT_SOURCE (chat));

          akc_interaction_controller_set_history (interaction, AKC_SQLITE_CHAT_MEMORY (self->memory),
                                                  conversation_id);
          akc_interaction_controller_load_async (interaction, self->history_cancellable,
                                                 on_resolutions_loaded, g_object_ref (self));
        }
    }

  self->history = history;
}

/**
 * akc_window_set_memory:
 * @self: a #AkcWindow
 * @memory: the open history
 *
 * Keeps the window's conversations in @memory: the stored conversation of
 * each demo, and of the Ask service, is read into its chat when it is
 * shown (what was typed meanwhile comes after it), and every change is
 * written from then on. The turn server keeps its own. It is set once.
 */
void
akc_window_set_memory (AkcWindow     *self,
                       AkcChatMemory *memory)
{
  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (AKC_IS_CHAT_MEMORY (memory));

  if (self->memory != NULL)
    return;

  self->memory = g_object_ref (memory);
  self->history_cancellable = g_cancellable_new ();
  akc_window_attach_history (self);
}

/**
 * akc_window_get_history:
 * @self: a #AkcWindow
 *
 * Gets what keeps the window's conversation stored.
 *
 * Returns: (transfer none) (nullable): the history, or %NULL before
 *   [method@Window.set_memory]
 */
AkcChatHistory *
akc_window_get_history (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->history;
}

/**
 * akc_window_get_source:
 * @self: a #AkcWindow
 *
 * Gets the conversation the window shows.
 *
 * Returns: (transfer none): the chat source
 */
AkcChatSource *
akc_window_get_source (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->source;
}

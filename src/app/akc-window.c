/* akc-window.c: the main window
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <akc-gtk.h>

#include "akc-app-session.h"
#include "akc-application.h"
#include "akc-backend.h"
#include "akc-demo.h"
#include "akc-knowledge-layer.h"
#include "akc-model-switch.h"
#include "akc-preferences-window.h"
#include "akc-provider-page.h"
#include "akc-render-cache.h"
#include "akc-sidebar-model.h"
#include "akc-window.h"
#include "akc-window-private.h"

#define DEFAULT_ASSISTANT "hello-world"

/**
 * AkcWindow:
 *
 * The main window: the conversations of the application's
 * [class@AppSession] in a sidebar, and the one it shows, with its
 * transcript and composer. Windows only show: the conversations, their
 * messages and the assistants belong to the session, so two windows stay
 * consistent.
 */
struct _AkcWindow
{
  AdwApplicationWindow  parent_instance;

  AkcRenderCache       *render_cache;        /* the cairo renderer's frames */

  AdwToastOverlay      *toast_overlay;
  GtkWidget            *leaflet;             /* AdwLeaflet, from the template */
  GtkWidget            *split_view;          /* AdwNavigationSplitView, on 1.4 */
  GtkWidget            *sidebar_pane;
  GtkWidget            *content_pane;
  AdwHeaderBar         *sidebar_header;
  AdwHeaderBar         *content_header;
  GtkWidget            *back_button;
  AdwSplitButton       *new_chat_button;
  GtkToggleButton      *search_button;
  GtkToggleButton      *select_button;
  GtkWidget            *selection_bar;
  GtkSearchBar         *search_bar;
  GtkSearchEntry       *search_entry;
  GtkStack             *sidebar_stack;
  AdwStatusPage        *sidebar_status;
  GtkListView          *conversation_list;
  GtkBox               *title_box;
  AdwWindowTitle       *window_title;
  AdwStatusPage        *status_page;
  GtkWidget            *welcome_buttons;
  GtkLabel             *knowledge_label;
  GtkRevealer          *knowledge_revealer;
  GtkWidget            *knowledge_banner;
  GtkLabel             *knowledge_warning;
  GtkStack             *stack;
  GtkScrolledWindow    *scroller;
  AkcChatView          *transcript;
  AkcFindBar           *find_bar;
  AkcComposer          *composer;
  GMenuModel           *conversation_menu;
  GMenu                *new_chat_menu;
  GMenu                *primary_menu;
  GtkMenuButton        *primary_menu_button;
  GtkMenuButton        *demo_button;         /* Try a Demo on the welcome page */
  GMenu                *provider_menu;       /* its section: the provider's models */
  AkcModelSwitch       *model_switch;        /* a provider conversation's model */
  GtkWidget            *ollama_button;       /* "Chat with Ollama (model)" */

  GSettings            *settings;
  AkcAppSession        *session;
  gboolean              session_set_up;
  GFile                *chosen_site_config;  /* while choosing the artifact */

  /* The sidebar: the session's conversations (or those the search
   * found), under their headings. */
  GListStore           *results;             /* what the search found */
  char                 *search_key;          /* casefolded, or NULL */
  GHashTable           *found;               /* id → snippet, from the history */
  GCancellable         *search_cancellable;
  GCancellable         *default_cancellable; /* the lookup of the first conversation shown */
  AkcSidebarModel      *sidebar_model;
  GtkSingleSelection   *selection;
  GtkWidget            *renaming;            /* the row being renamed */
  AdwToast             *delete_toast;        /* the last "Deleted …" */
  gboolean              selection_mode;      /* rows have check boxes */
  GHashTable           *checked;             /* AkcConversationItem set */
  gboolean              selecting;           /* the window moves the selection */
  gboolean              keep_focus;          /* in the sidebar, while deleting */

  /* The shown conversation. */
  AkcConversationItem  *item;
  AkcChatSource        *source;
  gulong                messages_handler;
  AkcInteractionController *interaction;
  gulong                link_handler;
  gulong                item_source_handler;
  gulong                item_title_handler;
  char                 *pending_assistant;   /* until the session is ready */
  gboolean              chosen;              /* by the person, not at start */

  GtkWindow            *preferences;
};

G_DEFINE_FINAL_TYPE (AkcWindow, akc_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_CONVERSATION,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

enum {
  OPEN_LINK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void show_item (AkcWindow *self, AkcConversationItem *item);
static void ensure_session (AkcWindow *self);
static void on_row_item_notify (GtkWidget *child);
static void toggle_checked (AkcWindow *self, AkcConversationItem *item);
static GtkWidget *row_of (AkcWindow *self, AkcConversationItem *item);

static AkcAssistant *
current_assistant (AkcWindow *self)
{
  return self->item != NULL ? akc_conversation_item_get_assistant (self->item) : NULL;
}

static AkcAssistantKind
current_kind (AkcWindow *self)
{
  AkcAssistant *assistant = current_assistant (self);

  return assistant != NULL ? akc_assistant_get_kind (assistant) : AKC_ASSISTANT_KIND_DEMO;
}

/* The local knowledge in front of the shown conversation's model; the
 * turn server and the model provider answer on their own. */
static AkcKnowledgeLayer *
current_knowledge (AkcWindow *self)
{
  return akc_app_session_get_knowledge (self->session, current_kind (self));
}

/**
 * akc_window_get_model_switch:
 * @self: a #AkcWindow
 *
 * Returns: (transfer none): the header's model switch
 */
AkcModelSwitch *
akc_window_get_model_switch (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->model_switch;
}

/**
 * akc_window_get_session:
 * @self: a #AkcWindow
 *
 * Returns: (transfer none): the conversations and assistants the window
 *   shows
 */
AkcAppSession *
akc_window_get_session (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  ensure_session (self);

  return self->session;
}

/* ------------------------------------------------------------------ */
/* The panes: side by side, or one at a time when narrow. */

static gboolean
is_folded (AkcWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  return adw_navigation_split_view_get_collapsed (ADW_NAVIGATION_SPLIT_VIEW (self->split_view));
#else
  return adw_leaflet_get_folded (ADW_LEAFLET (self->leaflet));
#endif
}

static void
show_pane (AkcWindow *self,
           gboolean   content)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  adw_navigation_split_view_set_show_content (ADW_NAVIGATION_SPLIT_VIEW (self->split_view), content);
#else
  adw_leaflet_set_visible_child (ADW_LEAFLET (self->leaflet), content ? self->content_pane : self->sidebar_pane);
#endif
}

/* Folded, whether the conversation's pane is the one that shows. */
static gboolean
content_shown (AkcWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  return adw_navigation_split_view_get_show_content (ADW_NAVIGATION_SPLIT_VIEW (self->split_view));
#else
  return adw_leaflet_get_visible_child (ADW_LEAFLET (self->leaflet)) == self->content_pane;
#endif
}

/* Folded, the keyboard is never in the pane that does not show: what
 * is typed would go nowhere to be seen. The pane of the widget that
 * takes the keyboard comes into view with it. */
static void
show_pane_of_focus (AkcWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus == NULL || !is_folded (self))
    return;
  if (gtk_widget_is_ancestor (focus, self->content_pane) && !content_shown (self))
    show_pane (self, TRUE);
  else if (gtk_widget_is_ancestor (focus, self->sidebar_pane) && content_shown (self))
    show_pane (self, FALSE);
}

static void on_folded_changed (AkcWindow *self);

/* libadwaita 1.4 replaced the leaflet: the two panes move into an
 * AdwNavigationSplitView, which collapses under the same width. */
static void
set_up_panes (AkcWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  AdwNavigationPage *sidebar, *content;
  AdwBreakpoint *breakpoint;

  g_object_ref (self->sidebar_pane);
  g_object_ref (self->content_pane);
  adw_toast_overlay_set_child (self->toast_overlay, NULL);
  self->leaflet = NULL;
  self->split_view = adw_navigation_split_view_new ();
  sidebar = adw_navigation_page_new (self->sidebar_pane, _("Conversations"));
  content = adw_navigation_page_new (self->content_pane, _("Conversation"));
  adw_navigation_split_view_set_sidebar (ADW_NAVIGATION_SPLIT_VIEW (self->split_view), sidebar);
  adw_navigation_split_view_set_content (ADW_NAVIGATION_SPLIT_VIEW (self->split_view), content);
  g_object_unref (self->sidebar_pane);
  g_object_unref (self->content_pane);
  adw_toast_overlay_set_child (self->toast_overlay, self->split_view);
  breakpoint = adw_breakpoint_new (adw_breakpoint_condition_parse ("max-width: 500sp"));
  {
    GValue collapsed = G_VALUE_INIT;

    g_value_init (&collapsed, G_TYPE_BOOLEAN);
    g_value_set_boolean (&collapsed, TRUE);
    adw_breakpoint_add_setter (breakpoint, G_OBJECT (self->split_view), "collapsed", &collapsed);
  }
  adw_application_window_add_breakpoint (ADW_APPLICATION_WINDOW (self), breakpoint);
  g_signal_connect_object (self->split_view, "notify::collapsed", G_CALLBACK (on_folded_changed),
                           self, G_CONNECT_SWAPPED);
#else
  g_signal_connect_object (self->leaflet, "notify::folded", G_CALLBACK (on_folded_changed),
                           self, G_CONNECT_SWAPPED);
#endif
}

static void
on_folded_changed (AkcWindow *self)
{
#if ADW_CHECK_VERSION (1, 4, 0)
  /* The split view's header bars have their back button and window
   * buttons of their own. */
  gtk_widget_set_visible (self->back_button, FALSE);
  adw_header_bar_set_show_end_title_buttons (self->sidebar_header, is_folded (self));
#else
  gboolean folded = is_folded (self);

  gtk_widget_set_visible (self->back_button, folded);
  adw_header_bar_set_show_end_title_buttons (self->sidebar_header, folded);
  adw_header_bar_set_show_start_title_buttons (self->content_header, folded);
#endif

  /* Narrowed to one pane: the one the person is in stays, so a
   * conversation being read or written in does not give way to the
   * list (only the list has the keyboard keeps the list). */
  if (is_folded (self))
    {
      GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

      show_pane (self, focus == NULL || !gtk_widget_is_ancestor (focus, self->sidebar_pane));
    }
}

/* ------------------------------------------------------------------ */
/* A local Ollama, the first time                                      */

static gboolean
provider_configured (AkcWindow *self)
{
  return self->session != NULL &&
         akc_backend_get_configured (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER));
}

/* The session asks once for all the windows whether an Ollama answers on
 * this computer (akc_app_session_probe_local_ollama()); each window
 * offers it while no provider is set up. */
static void
update_ollama_offer (AkcWindow *self)
{
  const char *model = self->session != NULL ? akc_app_session_get_local_ollama_model (self->session) : NULL;
  g_autofree char *label = NULL;

  if (model != NULL)
    {
      /* Translators: the welcome page's offer; %s is a model name such as
       * llama3.2:latest */
      label = g_strdup_printf (_("Chat with Ollama (%s)"), model);
      gtk_button_set_label (GTK_BUTTON (self->ollama_button), label);
    }
  gtk_widget_set_visible (self->ollama_button, model != NULL && !provider_configured (self));
}

static void
on_ollama_clicked (AkcWindow *self)
{
  g_autofree char *model = NULL;

  if (self->session == NULL || akc_app_session_get_local_ollama_model (self->session) == NULL)
    return;
  model = g_strdup (akc_app_session_get_local_ollama_model (self->session));

  g_settings_set_string (self->settings, "provider-kind", "ollama");
  g_settings_set_string (self->settings, "provider-url", akc_provider_page_get_local_ollama_url ());
  g_settings_set_string (self->settings, "provider-model", model);
  update_ollama_offer (self);
  akc_window_set_conversation (self, "provider");
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/**
 * akc_window_get_ollama_offer:
 * @self: a #AkcWindow
 * @probing: (out) (optional): whether the window is still asking
 *
 * Returns: (transfer none): the welcome page's “Chat with Ollama” button
 */
GtkWidget *
akc_window_get_ollama_offer (AkcWindow *self,
                             gboolean  *probing)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  if (probing != NULL)
    *probing = self->session != NULL && akc_app_session_get_probing_local_ollama (self->session);
  return self->ollama_button;
}

static void
switch_model_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  /* Narrow, the switch is in the conversation's pane: show it first. */
  if (current_kind (self) == AKC_ASSISTANT_KIND_PROVIDER && is_folded (self))
    show_pane (self, TRUE);
  akc_model_switch_popup (self->model_switch);
}

static void
show_conversations_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  show_pane (self, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->conversation_list));
}

/* ------------------------------------------------------------------ */

static AkcConversationItem *target_item (AkcWindow *self);

static void
akc_window_sync_actions (AkcWindow *self)
{
  AkcKnowledgeLayer *knowledge = akc_app_session_get_knowledge (self->session, AKC_ASSISTANT_KIND_DEMO);
  AkcConversationItem *selected = target_item (self);
  gboolean listed = AKC_IS_CONVERSATION_ITEM (selected);
  gboolean pinned = listed && akc_conversation_item_get_pinned (AKC_CONVERSATION_ITEM (selected));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.forget-knowledge",
                                 akc_knowledge_layer_get_state (knowledge) != AKC_KNOWLEDGE_STATE_NONE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.rename-conversation", listed);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-conversation", listed);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.pin-conversation", listed && !pinned);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.unpin-conversation", listed && pinned);
}

static void
update_title (AkcWindow *self)
{
  AkcAssistant *assistant = current_assistant (self);

  if (self->model_switch != NULL)
    akc_model_switch_set_conversation (self->model_switch, self->session, self->item);

  if (self->item == NULL)
    {
      adw_window_title_set_title (self->window_title, _("AgentsKit Chat"));
      adw_window_title_set_subtitle (self->window_title, NULL);
      gtk_window_set_title (GTK_WINDOW (self), _("AgentsKit Chat"));
      return;
    }

  adw_window_title_set_title (self->window_title, akc_conversation_item_get_display_title (self->item));
  /* A provider conversation's subtitle is its model (the model switch). */
  adw_window_title_set_subtitle (self->window_title,
                                 self->model_switch != NULL && gtk_widget_get_visible (GTK_WIDGET (self->model_switch))
                                 ? NULL : akc_assistant_get_title (assistant));
  gtk_window_set_title (GTK_WINDOW (self), akc_conversation_item_get_display_title (self->item));
}

/* What an empty conversation says to the person about its assistant. */
static char *
empty_state (AkcWindow    *self,
             AkcAssistant *assistant)
{
  const char *id = akc_assistant_get_id (assistant);
  AkcBackend *backend;

  switch (akc_assistant_get_kind (assistant))
    {
    case AKC_ASSISTANT_KIND_ASK:
      backend = akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_ASK);
      /* Translators: %s is a URL. */
      return g_strdup_printf (_("Ask a question: the Ask service at %s answers from what it knows, and shows its sources."),
                              akc_backend_get_endpoint (backend));
    case AKC_ASSISTANT_KIND_TURN:
      backend = akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_TURN);
      /* Translators: %s is a URL. */
      return g_strdup_printf (_("Write a message: the turn server at %s answers, and keeps this conversation."),
                              akc_backend_get_endpoint (backend));
    case AKC_ASSISTANT_KIND_PROVIDER:
      backend = akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER);
      /* Translators: the first %s is a model name, the second a URL. */
      return g_strdup_printf (_("Write a message: the model %s at %s answers it."),
                              akc_backend_get_model (backend) != NULL ? akc_backend_get_model (backend) : "?",
                              akc_backend_get_endpoint (backend));
    case AKC_ASSISTANT_KIND_DEMO:
    default:
      break;
    }

  if (g_str_equal (id, "hello-world"))
    return g_strdup (_("Say anything: this demo answers on this computer, with no account and no network. "
                       "Type /start to be asked your name."));
  if (g_str_equal (id, "support"))
    return g_strdup (_("Ask for help: type /support and the assistant offers to open a support ticket. "
                       "Nothing is created until you approve it."));
  if (g_str_equal (id, "onboarding"))
    return g_strdup (_("Set up how you work: type /onboarding for a short form, then /recommend for a setup "
                       "you can accept."));
  if (g_str_equal (id, "operations"))
    return g_strdup (_("Check on a service: type /operations to read its status or restart it. "
                       "A restart always asks you first."));
  if (g_str_equal (id, "rag"))
    return g_strdup (_("Ask about AgentsKit Chat, such as “What is AgentsKit Chat?”: the answers come from a "
                       "document on this computer, with their sources."));
  return g_strdup (akc_demo_get_summary_for (id));
}

static void
update_status_page (AkcWindow *self)
{
  AkcAssistant *assistant = current_assistant (self);
  g_autofree char *description = NULL;
  gboolean welcome;

  /* The first time, before anything was chosen or said, on the Hello
   * World demo the welcome speaks of: what the application can talk to.
   * Any other conversation the first run opens on (a model's, kept in the
   * settings) says what it is, as it does every other time. */
  welcome = assistant == NULL ||
            (akc_app_session_get_first_run (self->session) && !self->chosen &&
             akc_assistant_get_kind (assistant) == AKC_ASSISTANT_KIND_DEMO &&
             g_str_equal (akc_assistant_get_id (assistant), "hello-world"));
  gtk_widget_set_visible (self->welcome_buttons, welcome);
  if (welcome)
    {
      adw_status_page_set_title (self->status_page, _("Welcome to AgentsKit Chat"));
      adw_status_page_set_description (self->status_page,
                                       _("Write a message below to chat with the offline Hello World demo, "
                                         "right away and on this computer. Connect a model you run yourself "
                                         "(Ollama, llama.cpp), an OpenAI-compatible or Anthropic service, an "
                                         "Ask service or a turn server in Preferences; try the other demos "
                                         "from New Chat. Your conversations are kept on this computer."));
      return;
    }

  description = empty_state (self, assistant);
  adw_status_page_set_title (self->status_page, akc_assistant_get_title (assistant));
  adw_status_page_set_description (self->status_page, description);
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
  if (added > 0 && !self->chosen)
    {
      self->chosen = TRUE;
      update_status_page (self);
    }
  akc_window_sync_actions (self);
}

/* The warning stays while the knowledge cannot answer; a line above the
 * composer says which knowledge answers. */
static void
on_knowledge_changed (AkcWindow *self)
{
  AkcKnowledgeLayer *knowledge = current_knowledge (self);
  const char *warning = knowledge != NULL ? akc_knowledge_layer_get_warning (knowledge) : NULL;
  const char *artifact_id = knowledge != NULL ? akc_knowledge_layer_get_artifact_id (knowledge) : NULL;
  g_autofree char *line = NULL;

  gtk_label_set_text (self->knowledge_warning, warning != NULL ? warning : "");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->knowledge_banner),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, warning != NULL ? warning : "",
                                  -1);
  gtk_revealer_set_reveal_child (self->knowledge_revealer, warning != NULL);
  gtk_widget_set_visible (self->knowledge_banner, warning != NULL);

  if (knowledge != NULL && akc_knowledge_layer_get_state (knowledge) == AKC_KNOWLEDGE_STATE_READY && artifact_id != NULL)
    /* Translators: %s is the id of a knowledge artifact. */
    line = g_strdup_printf (_("Local Knowledge: %s"), artifact_id);
  gtk_label_set_text (self->knowledge_label, line != NULL ? line : "");
  gtk_widget_set_visible (GTK_WIDGET (self->knowledge_label), line != NULL);

  update_status_page (self);
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
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->search_bar)))
    return FALSE;  /* the search entry, before its bar is shown */
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->find_bar)))
    return FALSE;  /* the find entry, likewise */
  return focus == NULL || !gtk_widget_get_mapped (focus);
}

/* The keyboard never stays nowhere: when the widget that had it goes (an
 * approved confirmation, a reply's buttons rebuilt), it returns to the
 * composer unless a component of the transcript owns input. */
static gboolean
restore_focus_idle (gpointer user_data)
{
  AkcWindow *self = user_data;

  if (!focus_is_lost (self))
    return G_SOURCE_REMOVE;
  /* Folded on the list of conversations, the keyboard stays in the list. */
  if (is_folded (self) && !content_shown (self))
    gtk_widget_grab_focus (GTK_WIDGET (self->conversation_list));
  else if (!akc_chat_view_get_input_owned (self->transcript) &&
           gtk_widget_is_sensitive (GTK_WIDGET (self->composer)))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));

  return G_SOURCE_REMOVE;
}

static void
on_focus_widget_changed (AkcWindow *self)
{
  show_pane_of_focus (self);
  /* Rename, Pin, Delete act on the row the keyboard is on. */
  if (self->selection != NULL)
    akc_window_sync_actions (self);
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
refuse (AkcWindow    *self,
        const GError *error)
{
  AdwToast *toast = adw_toast_new (error->message);

  if (g_error_matches (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_NOT_SET_UP))
    {
      adw_toast_set_button_label (toast, _("_Preferences"));
      adw_toast_set_action_name (toast, "win.preferences");
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* A new conversation with the assistant, and, for the model provider,
 * held with @model (%NULL: the default one). */
static void
start_new_chat (AkcWindow  *self,
                const char *assistant_id,
                const char *model)
{
  g_autoptr(GError) error = NULL;
  AkcConversationItem *item;

  item = akc_app_session_new_conversation (self->session, assistant_id, &error);
  if (item == NULL)
    {
      refuse (self, error);
      return;
    }
  if (model != NULL)
    akc_app_session_set_conversation_model (self->session, item, model);

  self->chosen = TRUE;
  show_item (self, item);
  akc_composer_set_text (self->composer, NULL);
  show_pane (self, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/* Ctrl+N: a new conversation with the shown conversation's assistant;
 * the one shown stays in the sidebar. */
static void
new_chat_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  AkcAssistant *assistant = current_assistant (self);

  start_new_chat (self, assistant != NULL ? akc_assistant_get_id (assistant) : DEFAULT_ASSISTANT, NULL);
}

/* The New Chat button's menu: one item per assistant. */
static void
new_chat_with_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  start_new_chat (AKC_WINDOW (widget), g_variant_get_string (parameter, NULL), NULL);
}

/* The New Chat menu's models of the configured provider: a new
 * conversation held with that model. */
static void
new_chat_with_model_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  const char *model = g_variant_get_string (parameter, NULL);
  AkcBackend *backend = akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER);

  if (model[0] == '\0')
    model = NULL;
  /* A first choice is the default model when none is set, as a first
   * Test Connection makes it. */
  if (model != NULL && akc_backend_get_configured (backend) && akc_backend_get_model (backend) == NULL)
    g_settings_set_string (self->settings, "provider-model", model);
  start_new_chat (self, "provider", model);
}

/* At most this many models in the New Chat menu (the model switch in the
 * header lists them all). */
#define MAX_MENU_MODELS 10

/* A menu label takes _ as the mark of its access key. */
static char *
escape_mnemonic (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "_", -1);

  return g_strjoinv ("__", parts);
}

static void
append_model (AkcWindow  *self,
              AkcBackend *backend,
              const char *model)
{
  g_autofree char *escaped = escape_mnemonic (model);
  g_autofree char *label = NULL;
  g_autoptr(GMenuItem) item = NULL;

  /* Translators: an item of the New Chat With… menu: the kind of model
   * provider (such as Ollama), then one of its models (such as llama3.2) */
  label = g_strdup_printf (_("%s — %s"), akc_backend_get_provider_title (backend), escaped);
  item = g_menu_item_new (label, NULL);
  g_menu_item_set_action_and_target_value (item, "win.new-chat-with-model", g_variant_new_string (model));
  g_menu_append_item (self->provider_menu, item);
}

/* The New Chat With… menu offers the configured provider's models (its
 * default first, then what it listed when the menu last opened), or the
 * Model Provider, which says how to set one up. */
static void
update_new_chat_models (AkcWindow *self)
{
  AkcBackend *backend = akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER);
  const char *current = akc_backend_get_model (backend);
  const char * const *models = akc_backend_get_models (backend);
  guint n = 0;

  g_menu_remove_all (self->provider_menu);

  if (!akc_backend_get_configured (backend) || (current == NULL && (models == NULL || models[0] == NULL)))
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("_Model Provider"), NULL);

      g_menu_item_set_action_and_target_value (item, "win.new-chat-with", g_variant_new_string ("provider"));
      g_menu_append_item (self->provider_menu, item);
      return;
    }

  if (current != NULL)
    {
      append_model (self, backend, current);
      n++;
    }
  for (guint i = 0; models != NULL && models[i] != NULL && n < MAX_MENU_MODELS; i++)
    if (g_strcmp0 (models[i], current) != 0)
      {
        append_model (self, backend, models[i]);
        n++;
      }
}

/* Opening the New Chat With… menu asks the provider for its models. */
static void
on_new_chat_menu_shown (AkcWindow *self)
{
  if (self->session != NULL)
    akc_backend_refresh_models (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER));
}

/* A menu button's menu is given to it the first time it opens, and its
 * popover built then: none of them is on screen when the window opens,
 * and building their items (about 22 M instructions for the three)
 * stood in the way of the first frame. The main menu and the New Chat
 * With… menu ask the provider for its models each time they open. */
static void
create_menu_popup (GtkMenuButton *button,
                   gpointer       user_data)
{
  AkcWindow *self = AKC_WINDOW (user_data);
  GMenu *menu = button == self->primary_menu_button ? self->primary_menu : self->new_chat_menu;

  if (gtk_menu_button_get_menu_model (button) == NULL)
    {
      gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
      akc_application_add_accels_to_popover (gtk_menu_button_get_popover (button));
    }
  if (button != self->demo_button)
    on_new_chat_menu_shown (self);
}

/**
 * akc_window_use_knowledge:
 * @self: a #AkcWindow
 * @site_config: (nullable): the site configuration file, or %NULL to stop
 *   using local knowledge
 * @artifact: (nullable): the knowledge artifact file the configuration pins
 *
 * Answers exact questions of the demos and the Ask service from the local
 * knowledge in @artifact, verified against @site_config, in front of the
 * backend; the two paths are remembered for the next start. When they
 * cannot be used, a warning says why and the backend answers.
 */
void
akc_window_use_knowledge (AkcWindow *self,
                          GFile     *site_config,
                          GFile     *artifact)
{
  g_return_if_fail (AKC_IS_WINDOW (self));

  ensure_session (self);
  g_return_if_fail (site_config == NULL || G_IS_FILE (site_config));
  g_return_if_fail ((site_config == NULL) == (artifact == NULL));

  akc_app_session_use_knowledge (self->session, site_config, artifact);
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

  ensure_session (self);

  return current_knowledge (self) != NULL ? current_knowledge (self)
                                          : akc_app_session_get_knowledge (self->session, AKC_ASSISTANT_KIND_DEMO);
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

/* ------------------------------------------------------------------ */
/* The sidebar. */

static AkcConversationItem *
selected_item (AkcWindow *self)
{
  gpointer selected = gtk_single_selection_get_selected_item (self->selection);

  return AKC_IS_CONVERSATION_ITEM (selected) ? selected : NULL;
}

/* The conversation of the sidebar row the keyboard is on, if it is on one. */
static AkcConversationItem *
focused_row_item (AkcWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget *list = GTK_WIDGET (self->conversation_list);

  if (focus == NULL || !gtk_widget_is_ancestor (focus, list))
    return NULL;

  for (GtkWidget *widget = focus; widget != NULL && widget != list; widget = gtk_widget_get_parent (widget))
    {
      GtkWidget *child = gtk_widget_get_first_child (widget);
      gpointer item = g_object_get_data (G_OBJECT (widget), "akc-item");

      if (item == NULL && child != NULL)
        item = g_object_get_data (G_OBJECT (child), "akc-item");
      if (AKC_IS_CONVERSATION_ITEM (item))
        return item;
    }

  return NULL;
}

/* What Rename, Pin, Delete and the row's menu act on: the row the
 * keyboard is on in the sidebar (the arrows move it without opening),
 * else the selected row, the conversation shown. */
static AkcConversationItem *
target_item (AkcWindow *self)
{
  AkcConversationItem *item = focused_row_item (self);

  return item != NULL ? item : selected_item (self);
}

static void
select_item (AkcWindow           *self,
             AkcConversationItem *item)
{
  guint position;

  self->selecting = TRUE;
  /* Its row, if its page of the history is read: no more is read for it. */
  if (akc_sidebar_model_find (self->sidebar_model, item, &position))
    gtk_single_selection_set_selected (self->selection, position);
  else
    gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->selecting = FALSE;
}

/* The keyboard on the selected row (after the one it was on went). */
static gboolean
focus_selected_idle (gpointer user_data)
{
  AkcWindow *self = user_data;
  AkcConversationItem *item = selected_item (self);
  GtkWidget *row = item != NULL ? row_of (self, item) : NULL;

  if (row != NULL && gtk_widget_grab_focus (gtk_widget_get_parent (row)))
    return G_SOURCE_REMOVE;
  /* Nothing left that the search finds: back to the search. */
  if (gtk_search_bar_get_search_mode (self->search_bar))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  else
    gtk_widget_grab_focus (GTK_WIDGET (self->conversation_list));

  return G_SOURCE_REMOVE;
}

static void
focus_selected_later (AkcWindow *self)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE + 10, focus_selected_idle, g_object_ref (self), g_object_unref);
}

static void
on_selection_changed (AkcWindow *self)
{
  AkcConversationItem *item = selected_item (self);

  akc_window_sync_actions (self);
  /* In the selection mode, moving along the list only moves. */
  if (self->selecting || self->selection_mode || item == NULL || item == self->item)
    return;

  self->chosen = TRUE;
  show_item (self, item);
}

/* Enter on a row, or a click: the conversation, on the whole window when
 * it is narrow. */
static void
on_list_activate (AkcWindow   *self,
                  guint        position)
{
  g_autoptr(GObject) object = g_list_model_get_item (G_LIST_MODEL (self->sidebar_model), position);

  if (!AKC_IS_CONVERSATION_ITEM (object))
    return;

  if (self->selection_mode)
    {
      toggle_checked (self, AKC_CONVERSATION_ITEM (object));
      return;
    }

  self->chosen = TRUE;
  show_item (self, AKC_CONVERSATION_ITEM (object));
  show_pane (self, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/* The conversation of the row under a point of the list. */
static AkcConversationItem *
item_at (AkcWindow *self,
         double     x,
         double     y)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->conversation_list), x, y, GTK_PICK_DEFAULT);

  for (; picked != NULL && picked != GTK_WIDGET (self->conversation_list); picked = gtk_widget_get_parent (picked))
    if (g_object_get_data (G_OBJECT (picked), "akc-item") != NULL)
      return g_object_get_data (G_OBJECT (picked), "akc-item");

  return NULL;
}

/* A click on a row (seen before the row, which selects it after this): in
 * the selection mode it checks or unchecks the row; in a narrow window it
 * shows the conversation on the whole window. */
static void
on_list_released (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  AkcWindow       *self)
{
  AkcConversationItem *item = item_at (self, x, y);

  if (item == NULL)
    return;

  if (self->selection_mode)
    {
      toggle_checked (self, item);
      return;
    }
  if (is_folded (self))
    {
      self->chosen = TRUE;
      show_item (self, item);
      show_pane (self, TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (self->composer));
    }
}

static int
compare_items_indirect (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  return akc_conversation_item_compare (*(gconstpointer *) a, *(gconstpointer *) b, NULL);
}

/* A conversation matches a search by its title, here, or by its title or
 * its messages in the history's full-text index. */
static gboolean
match_search (gpointer object,
              gpointer user_data)
{
  AkcWindow *self = user_data;
  AkcConversationItem *item = object;
  g_autofree char *title = NULL;

  if (self->search_key == NULL)
    return TRUE;
  if (self->found != NULL && g_hash_table_contains (self->found, akc_conversation_item_get_id (item)))
    return TRUE;
  title = g_utf8_casefold (akc_conversation_item_get_display_title (item), -1);
  return strstr (title, self->search_key) != NULL;
}

/* The search's results: the conversations the history found, and those
 * listed so far whose title has the text, in the sidebar's order. */
static void
update_results (AkcWindow *self)
{
  AkcConversationModel *all = AKC_CONVERSATION_MODEL (akc_app_session_get_conversations (self->session));
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (all));

  if (self->search_key == NULL)
    {
      akc_sidebar_model_set_conversations (self->sidebar_model, G_LIST_MODEL (all));
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      AkcConversationItem *item = akc_conversation_model_peek_item (all, i);

      if (match_search (item, self) && g_hash_table_add (seen, item))
        g_ptr_array_add (found, g_object_ref (item));
    }
  if (self->found != NULL)
    {
      GHashTableIter iter;
      gpointer id;

      g_hash_table_iter_init (&iter, self->found);
      while (g_hash_table_iter_next (&iter, &id, NULL))
        {
          AkcConversationItem *item = akc_app_session_lookup_conversation (self->session, id);

          if (item != NULL && g_hash_table_add (seen, item))
            g_ptr_array_add (found, g_object_ref (item));
        }
    }
  g_ptr_array_sort_with_data (found, compare_items_indirect, NULL);
  g_list_store_splice (self->results, 0, g_list_model_get_n_items (G_LIST_MODEL (self->results)),
                       found->pdata, found->len);
  akc_sidebar_model_set_conversations (self->sidebar_model, G_LIST_MODEL (self->results));
}

/* Scrolled to within a screen of the end of what is read (or it does not
 * fill the sidebar): the next page of the history, on its worker. The
 * list view makes rows for more than it shows, so it is the scrolling,
 * not the rows asked for, that says what the person reaches. */
static void
on_sidebar_scrolled (AkcWindow     *self,
                     GtkAdjustment *adjustment)
{
  double page = gtk_adjustment_get_page_size (adjustment);

  if (self->search_key != NULL || page <= 0)
    return;
  if (gtk_adjustment_get_value (adjustment) + 2 * page >= gtk_adjustment_get_upper (adjustment))
    akc_conversation_model_load_more (AKC_CONVERSATION_MODEL (akc_app_session_get_conversations (self->session)));
}

/* A change of the conversations while searching: the results follow. */
static void
on_conversations_changed (AkcWindow *self)
{
  if (self->search_key != NULL)
    update_results (self);
}

/* Whether the sidebar says it has nothing to list: not before the
 * history was read (it opens after the window's first frame), when an
 * empty list is all it can show, and "No Conversations" would be said of
 * a history that has some. */
static gboolean
sidebar_is_empty (AkcWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (g_list_model_get_n_items (G_LIST_MODEL (self->sidebar_model)) > 0)
    return FALSE;

  return text[0] != '\0' || self->session == NULL || akc_app_session_get_ready (self->session);
}

static void
update_sidebar_status (AkcWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  gboolean empty = sidebar_is_empty (self);

  if (text[0] != '\0')
    {
      /* Translators: %s is what the person searched for. */
      g_autofree char *description = g_strdup_printf (_("No conversation has “%s” in its title or its messages."), text);

      adw_status_page_set_title (self->sidebar_status, _("No Results"));
      adw_status_page_set_description (self->sidebar_status, description);
      adw_status_page_set_icon_name (self->sidebar_status, "system-search-symbolic");
    }
  else
    {
      adw_status_page_set_title (self->sidebar_status, _("No Conversations"));
      adw_status_page_set_description (self->sidebar_status, _("Start one with New Chat."));
      adw_status_page_set_icon_name (self->sidebar_status, "chat-message-new-symbolic");
    }
  gtk_stack_set_visible_child_name (self->sidebar_stack, empty ? "empty" : "list");
}

static void
on_searched (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(AkcWindow) self = user_data;
  g_autoptr(GHashTable) found = NULL;
  g_autoptr(GError) error = NULL;

  found = akc_app_session_search_finish (AKC_APP_SESSION (source), result, &error);
  if (found == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_message ("Search: %s", error->message);
      return;
    }

  g_clear_pointer (&self->found, g_hash_table_unref);
  self->found = g_steal_pointer (&found);
  update_results (self);
  /* The rows found by a message say where. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->conversation_list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_first_child (child) != NULL)
      on_row_item_notify (gtk_widget_get_first_child (child));
  update_sidebar_status (self);
  if (self->item != NULL)
    select_item (self, self->item);
}

static void
on_filter_changed (AkcWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *key = text[0] != '\0' ? g_utf8_casefold (text, -1) : NULL;

  if (g_strcmp0 (key, self->search_key) == 0 && self->search_key != NULL)
    return;

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->found, g_hash_table_unref);
  g_free (self->search_key);
  self->search_key = g_steal_pointer (&key);
  update_results (self);
  update_sidebar_status (self);
  if (self->item != NULL)
    select_item (self, self->item);

  if (self->search_key != NULL && self->session != NULL)
    {
      self->search_cancellable = g_cancellable_new ();
      akc_app_session_search_async (self->session, text, self->search_cancellable,
                                    on_searched, g_object_ref (self));
    }
}

static void
on_sidebar_items_changed (AkcWindow *self)
{
  gboolean empty = sidebar_is_empty (self);

  gtk_stack_set_visible_child_name (self->sidebar_stack, empty ? "empty" : "list");
  if (self->item != NULL && selected_item (self) != self->item)
    select_item (self, self->item);
}

static gboolean
focus_search_idle (gpointer user_data)
{
  AkcWindow *self = user_data;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  /* Only while the keyboard is still in the sidebar, or nowhere: a person
   * who went on to the conversation meanwhile (this idle runs last, late
   * on a busy machine) keeps it, and, narrow, keeps its pane. */
  if (gtk_search_bar_get_search_mode (self->search_bar) &&
      (focus == NULL || gtk_widget_is_ancestor (focus, self->sidebar_pane)))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));

  return G_SOURCE_REMOVE;
}

/* The entry takes the keyboard once the bar is shown. */
static void
on_search_mode_changed (AkcWindow *self)
{
  if (gtk_search_bar_get_search_mode (self->search_bar))
    {
      gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
      g_idle_add_full (G_PRIORITY_LOW, focus_search_idle, g_object_ref (self), g_object_unref);
    }
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  show_pane (self, FALSE);
  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Ctrl+F (docs/port-decisions.md): with a conversation on screen and the
 * keyboard anywhere but the sidebar, the find bar of the conversation;
 * in the sidebar, or when only the sidebar shows, the search of the
 * conversations (which Ctrl+Shift+F opens from anywhere). */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if ((focus == NULL || !gtk_widget_is_ancestor (focus, self->sidebar_pane)) &&
      gtk_widget_get_mapped (GTK_WIDGET (self->transcript)))
    akc_find_bar_set_search_mode (self->find_bar, TRUE);
  else
    search_action (widget, "win.search-conversations", NULL);
}

static void
on_search_stopped (AkcWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->conversation_list));
}

static void selection_mode_action (GtkWidget  *widget,
                                   const char *action_name,
                                   GVariant   *parameter);

/* Up, Down, Home, End, Page Up and Page Down in the sidebar move the
 * keyboard from row to row without opening each conversation they pass
 * (as in GNOME Settings' sidebar: Enter or a click opens). GtkListView
 * moves the selection with its focus, and the selection is the
 * conversation shown; its Ctrl+ bindings move the focus alone: the plain
 * keys do what those do. A day heading is passed over. */
static gboolean
move_focus_like_ctrl (AkcWindow *self,
                      guint      keyval)
{
  GtkWidget *list = GTK_WIDGET (self->conversation_list);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (list);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == GDK_CONTROL_MASK)
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                 list, gtk_shortcut_get_arguments (shortcut));
        }
    }

  return FALSE;
}

static gboolean
on_list_key_pressed (AkcWindow       *self,
                     guint            keyval,
                     guint            keycode,
                     GdkModifierType  state)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  guint again;

  if ((state & gtk_accelerator_get_default_mod_mask ()) != 0 || self->renaming != NULL ||
      (focus != NULL && GTK_IS_EDITABLE (focus)))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_KP_Up: case GDK_KEY_Page_Up: case GDK_KEY_KP_Page_Up:
      again = GDK_KEY_Up;
      break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down: case GDK_KEY_Page_Down: case GDK_KEY_KP_Page_Down:
    case GDK_KEY_Home: case GDK_KEY_KP_Home:
      again = GDK_KEY_Down;
      break;
    case GDK_KEY_End: case GDK_KEY_KP_End:
      again = GDK_KEY_Up;
      break;
    default:
      return FALSE;
    }

  if (!move_focus_like_ctrl (self, keyval))
    return FALSE;
  /* On a heading: on to the conversation past it, or back below the
   * first heading. */
  if (focused_row_item (self) == NULL)
    {
      move_focus_like_ctrl (self, again);
      if (focused_row_item (self) == NULL && again == GDK_KEY_Up)
        move_focus_like_ctrl (self, GDK_KEY_Down);
    }

  return TRUE;
}

/* Escape in the list: out of the selection mode, or the search ends (as
 * Escape in its entry does), the keyboard staying in the list. */
static gboolean
on_list_escape (GtkWidget *widget,
                GVariant  *args,
                gpointer   user_data)
{
  AkcWindow *self = user_data;

  if (self->selection_mode)
    {
      selection_mode_action (GTK_WIDGET (self), NULL, NULL);
      return TRUE;
    }
  if (gtk_search_bar_get_search_mode (self->search_bar))
    {
      on_search_stopped (self);
      return TRUE;
    }

  return FALSE;
}

/* Enter in the search: the first conversation found, and the keyboard
 * on its row, where Enter opens it (on the list itself, the keyboard was
 * on no row: Enter did nothing and no focus ring showed). */
static void
on_search_activate (AkcWindow *self)
{
  GListModel *model = G_LIST_MODEL (self->sidebar_model);
  GtkWidget *row = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      GObject *object = akc_sidebar_model_peek_item (self->sidebar_model, i);

      if (AKC_IS_CONVERSATION_ITEM (object))
        {
          gtk_single_selection_set_selected (self->selection, i);
          row = row_of (self, AKC_CONVERSATION_ITEM (object));
          break;
        }
    }
  if (row == NULL || !gtk_widget_grab_focus (gtk_widget_get_parent (row)))
    gtk_widget_grab_focus (GTK_WIDGET (self->conversation_list));
}

/* Tab or Shift+Tab into the sidebar's list puts the keyboard on the
 * selected conversation's row (or the first one's). GTK 4.8's list,
 * entered from outside before the keyboard was ever on one of its rows,
 * tries its first row only, the heading ("Today") that takes no focus, and
 * gives up: its scrolled window then took the keyboard itself, a stop
 * with no name that shows nothing, and Tab went on from there past the
 * list. The row takes it once GTK is done giving it to the scrolled
 * window (taken during that, it went back). */
static gboolean
focus_row_idle (gpointer user_data)
{
  AkcWindow *self = user_data;
  AkcConversationItem *item = selected_item (self);
  GtkWidget *row = item != NULL ? row_of (self, item) : NULL;
  GListModel *model = G_LIST_MODEL (self->sidebar_model);
  GtkWidget *scroller = gtk_widget_get_parent (GTK_WIDGET (self->conversation_list));

  if (gtk_root_get_focus (GTK_ROOT (self)) != scroller)
    return G_SOURCE_REMOVE;
  for (guint i = 0; row == NULL && i < g_list_model_get_n_items (model); i++)
    {
      GObject *object = akc_sidebar_model_peek_item (self->sidebar_model, i);

      if (AKC_IS_CONVERSATION_ITEM (object))
        row = row_of (self, AKC_CONVERSATION_ITEM (object));
    }
  if (row != NULL)
    gtk_widget_grab_focus (gtk_widget_get_parent (row));

  return G_SOURCE_REMOVE;
}

static void
on_list_scroller_enter (AkcWindow               *self,
                        GtkEventControllerFocus *controller)
{
  if (gtk_event_controller_focus_is_focus (controller))
    g_idle_add_full (G_PRIORITY_HIGH_IDLE, focus_row_idle, g_object_ref (self), g_object_unref);
}

/* A row: a heading, or a conversation's title, assistant and time. */
typedef struct
{
  GtkWidget *check;
  GtkWidget *heading;
  GtkWidget *box;
  GtkWidget *title_stack;
  GtkWidget *title;
  GtkWidget *entry;
  GtkWidget *pin;
  GtkWidget *subtitle;
} Row;

static void
row_free (gpointer data)
{
  g_free (data);
}

static void
update_row (GtkWidget           *child,
            AkcConversationItem *item)
{
  Row *row = g_object_get_data (G_OBJECT (child), "akc-row");
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = akc_sidebar_model_relative_time (akc_conversation_item_get_updated_at (item), now);
  const char *assistant = akc_assistant_get_title (akc_conversation_item_get_assistant (item));
  g_autofree char *subtitle = NULL;
  g_autofree char *name = NULL;

  /* A model provider's conversation says which model it is held with. */
  if (akc_conversation_item_get_model (item) != NULL)
    assistant = akc_conversation_item_get_model (item);

  /* Translators: under a conversation's title: its assistant, then when it
   * last changed, such as "Support · 5 minutes ago". */
  subtitle = g_strdup_printf (_("%s · %s"), assistant, when);
  {
    AkcWindow *self = g_object_get_data (G_OBJECT (child), "akc-window");
    const char *snippet = self != NULL && self->found != NULL
                          ? g_hash_table_lookup (self->found, akc_conversation_item_get_id (item)) : NULL;

    /* Found by a message: the words around the match. */
    if (snippet != NULL && snippet[0] != '\0')
      {
        g_free (subtitle);
        subtitle = g_strdup (snippet);
      }
  }

  gtk_label_set_text (GTK_LABEL (row->title), akc_conversation_item_get_display_title (item));
  gtk_label_set_text (GTK_LABEL (row->subtitle), subtitle);
  gtk_widget_set_visible (row->pin, akc_conversation_item_get_pinned (item));
  {
    AkcWindow *window = g_object_get_data (G_OBJECT (child), "akc-window");

    gtk_widget_set_visible (row->check, window != NULL && window->selection_mode);
    gtk_check_button_set_active (GTK_CHECK_BUTTON (row->check),
                                 window != NULL && g_hash_table_contains (window->checked, item));
  }

  /* Translators: a conversation of the sidebar for a screen reader: its
   * title, its assistant and when it last changed. */
  name = g_strdup_printf (akc_conversation_item_get_pinned (item) ? _("%s, pinned, %s, %s") : _("%s, %s, %s"),
                          akc_conversation_item_get_display_title (item), assistant, when);
  gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  if (gtk_widget_get_parent (child) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (child)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

static void
on_row_item_notify (GtkWidget *child)
{
  AkcConversationItem *item = g_object_get_data (G_OBJECT (child), "akc-item");

  if (item != NULL)
    update_row (child, item);
}

static void
on_factory_setup (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  AkcWindow                *self)
{
  Row *row = g_new0 (Row, 1);
  GtkWidget *child = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  row->heading = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (row->heading), 0);
  gtk_widget_add_css_class (row->heading, "heading");
  gtk_widget_add_css_class (row->heading, "dim-label");
  gtk_widget_add_css_class (row->heading, "sidebar-heading");
  gtk_box_append (GTK_BOX (child), row->heading);

  row->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  row->title_stack = gtk_stack_new ();
  row->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (row->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (row->title), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (row->title), TRUE);
  gtk_widget_set_hexpand (row->title, TRUE);
  row->entry = gtk_entry_new ();
  gtk_widget_set_visible (row->entry, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Title"), -1);
  gtk_stack_add_named (GTK_STACK (row->title_stack), row->title, "label");
  gtk_stack_add_named (GTK_STACK (row->title_stack), row->entry, "entry");
  row->check = gtk_check_button_new ();
  gtk_widget_set_valign (row->check, GTK_ALIGN_CENTER);
  gtk_widget_set_can_focus (row->check, FALSE);
  gtk_widget_set_can_target (row->check, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->check), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Selected"), -1);
  gtk_box_append (GTK_BOX (line), row->check);
  row->pin = gtk_image_new_from_icon_name ("view-pin-symbolic");
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->pin), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pinned"), -1);
  gtk_box_append (GTK_BOX (line), row->title_stack);
  gtk_box_append (GTK_BOX (line), row->pin);
  gtk_box_append (GTK_BOX (row->box), line);
  row->subtitle = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (row->subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (row->subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (row->subtitle, "caption");
  gtk_widget_add_css_class (row->subtitle, "dim-label");
  gtk_box_append (GTK_BOX (row->box), row->subtitle);
  gtk_widget_set_margin_top (row->box, 6);
  gtk_widget_set_margin_bottom (row->box, 6);
  gtk_box_append (GTK_BOX (child), row->box);

  g_object_set_data_full (G_OBJECT (child), "akc-row", row, row_free);
  g_object_set_data (G_OBJECT (child), "akc-window", self);
  gtk_list_item_set_child (list_item, child);
}

static void
on_factory_bind (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 AkcWindow                *self)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  Row *row = g_object_get_data (G_OBJECT (child), "akc-row");
  GObject *object = gtk_list_item_get_item (list_item);

  if (GTK_IS_STRING_OBJECT (object))
    {
      gtk_label_set_text (GTK_LABEL (row->heading), gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
      gtk_widget_set_visible (row->heading, TRUE);
      gtk_widget_set_visible (row->box, FALSE);
      gtk_list_item_set_selectable (list_item, FALSE);
      gtk_list_item_set_activatable (list_item, FALSE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      gtk_string_object_get_string (GTK_STRING_OBJECT (object)), -1);
      if (gtk_widget_get_parent (child) != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (child)), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        gtk_string_object_get_string (GTK_STRING_OBJECT (object)), -1);
      return;
    }

  gtk_widget_set_visible (row->heading, FALSE);
  gtk_widget_set_visible (row->box, TRUE);
  gtk_list_item_set_selectable (list_item, TRUE);
  gtk_list_item_set_activatable (list_item, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (row->title_stack), "label");
  gtk_widget_set_visible (row->entry, FALSE);
  g_object_set_data (G_OBJECT (child), "akc-item", object);
  g_signal_connect_object (object, "notify::display-title", G_CALLBACK (on_row_item_notify), child, G_CONNECT_SWAPPED);
  g_signal_connect_object (object, "notify::pinned", G_CALLBACK (on_row_item_notify), child, G_CONNECT_SWAPPED);
  g_signal_connect_object (object, "notify::updated-at", G_CALLBACK (on_row_item_notify), child, G_CONNECT_SWAPPED);
  g_signal_connect_object (object, "notify::model", G_CALLBACK (on_row_item_notify), child, G_CONNECT_SWAPPED);
  update_row (child, AKC_CONVERSATION_ITEM (object));
}

static void
on_factory_unbind (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   AkcWindow                *self)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GObject *object = gtk_list_item_get_item (list_item);

  if (child == self->renaming)
    self->renaming = NULL;
  if (AKC_IS_CONVERSATION_ITEM (object))
    g_signal_handlers_disconnect_by_func (object, on_row_item_notify, child);
  g_object_set_data (G_OBJECT (child), "akc-item", NULL);
}

/* The row widget of a conversation, when the list shows it. */
static GtkWidget *
row_of (AkcWindow           *self,
        AkcConversationItem *item)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->conversation_list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *row = gtk_widget_get_first_child (child);

      if (row != NULL && g_object_get_data (G_OBJECT (row), "akc-item") == (gpointer) item)
        return row;
    }

  return NULL;
}

static void
refresh_rows (AkcWindow *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->conversation_list));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (gtk_widget_get_first_child (child) != NULL)
      on_row_item_notify (gtk_widget_get_first_child (child));
}

static void
sync_selection_mode (AkcWindow *self)
{
  guint n = g_hash_table_size (self->checked);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-selected", n > 0);
  refresh_rows (self);
}

/* The sidebar's Select button: check boxes on the rows, to delete many. */
static void
selection_mode_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);

  self->selection_mode = !self->selection_mode;
  g_hash_table_remove_all (self->checked);
  gtk_widget_set_visible (self->selection_bar, self->selection_mode);
  gtk_toggle_button_set_active (self->select_button, self->selection_mode);
  sync_selection_mode (self);
  if (self->selection_mode)
    {
      show_pane (self, FALSE);
      focus_selected_later (self);
    }
}

static void
toggle_checked (AkcWindow           *self,
                AkcConversationItem *item)
{
  if (!g_hash_table_remove (self->checked, item))
    g_hash_table_add (self->checked, g_object_ref (item));
  sync_selection_mode (self);
}

static void
finish_rename (AkcWindow *self,
               gboolean   commit)
{
  GtkWidget *child = self->renaming;
  Row *row;
  AkcConversationItem *item;

  if (child == NULL)
    return;

  self->renaming = NULL;
  row = g_object_get_data (G_OBJECT (child), "akc-row");
  item = g_object_get_data (G_OBJECT (child), "akc-item");
  if (commit && item != NULL)
    akc_app_session_rename (self->session, item, gtk_editable_get_text (GTK_EDITABLE (row->entry)));
  gtk_stack_set_visible_child_name (GTK_STACK (row->title_stack), "label");
  gtk_widget_set_visible (row->entry, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->conversation_list));
}

static void
on_rename_activate (AkcWindow *self)
{
  finish_rename (self, TRUE);
}

static gboolean
on_rename_key_pressed (AkcWindow       *self,
                       guint            keyval,
                       guint            keycode,
                       GdkModifierType  state)
{
  if (keyval == GDK_KEY_Escape)
    {
      finish_rename (self, FALSE);
      return GDK_EVENT_STOP;
    }

  return GDK_EVENT_PROPAGATE;
}

static void
on_rename_focus_left (AkcWindow *self)
{
  finish_rename (self, TRUE);
}

/* F2, or Rename in the row's menu: the title becomes an entry, in place. */
static void
rename_conversation_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  AkcConversationItem *item = target_item (self);
  GtkWidget *child;
  Row *row;

  if (item == NULL)
    return;

  show_pane (self, FALSE);
  child = row_of (self, item);
  if (child == NULL)
    return;

  finish_rename (self, TRUE);
  row = g_object_get_data (G_OBJECT (child), "akc-row");
  if (g_object_get_data (G_OBJECT (row->entry), "akc-connected") == NULL)
    {
      GtkEventController *keys = gtk_event_controller_key_new ();
      GtkEventController *focus = gtk_event_controller_focus_new ();

      g_signal_connect_object (row->entry, "activate", G_CALLBACK (on_rename_activate), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_rename_key_pressed), self, G_CONNECT_SWAPPED);
      gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
      gtk_widget_add_controller (row->entry, keys);
      g_signal_connect_object (focus, "leave", G_CALLBACK (on_rename_focus_left), self, G_CONNECT_SWAPPED);
      gtk_widget_add_controller (row->entry, focus);
      g_object_set_data (G_OBJECT (row->entry), "akc-connected", GINT_TO_POINTER (TRUE));
    }
  self->renaming = child;
  gtk_editable_set_text (GTK_EDITABLE (row->entry), akc_conversation_item_get_display_title (item));
  gtk_widget_set_visible (row->entry, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (row->title_stack), "entry");
  gtk_widget_grab_focus (row->entry);
  gtk_editable_select_region (GTK_EDITABLE (row->entry), 0, -1);
}

static void
pin_conversation_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  AkcConversationItem *item = target_item (self);

  if (item == NULL)
    return;

  akc_app_session_set_pinned (self->session, item, g_str_equal (action_name, "win.pin-conversation"));
  select_item (self, item);
  akc_window_sync_actions (self);
}

/* A message deleted from its context menu (issue 14 item 7) is hidden at
 * once (akc_chat_hide_message()) and stays in the conversation and its
 * history while the toast offers Undo: a crash in between keeps it, as it
 * keeps a deleted conversation. Undo shows it again; the toast going
 * (dismissed, timed out, the window closing, the application quitting)
 * deletes it for good. */
static void
on_message_undo (AdwToast  *toast,
                 AkcWindow *self)
{
  AkcChat *chat = g_object_get_data (G_OBJECT (toast), "akc-chat");
  g_autoptr(AkcMessage) message = g_object_steal_data (G_OBJECT (toast), "akc-message");
  g_autoptr(GPtrArray) replies = g_object_steal_data (G_OBJECT (toast), "akc-replies");

  /* Stolen first: nothing is left for the toast's dismissal to do. */
  if (chat == NULL || message == NULL)
    return;

  akc_chat_unhide_message (chat, akc_message_get_id (message));
  for (guint i = 0; replies != NULL && i < replies->len; i++)
    akc_chat_unhide_message (chat, akc_message_get_id (g_ptr_array_index (replies, i)));
}

static void
on_message_toast_dismissed (AdwToast *toast)
{
  AkcChat *chat = g_object_get_data (G_OBJECT (toast), "akc-chat");
  g_autoptr(AkcMessage) message = g_object_steal_data (G_OBJECT (toast), "akc-message");
  g_autoptr(GPtrArray) replies = g_object_steal_data (G_OBJECT (toast), "akc-replies");
  g_autoptr(GError) error = NULL;

  /* Not undone, and still waiting: now it goes, with its reply. */
  if (chat == NULL || message == NULL || !akc_chat_get_message_hidden (chat, message))
    return;

  for (guint i = 0; replies != NULL && i < replies->len; i++)
    {
      AkcMessage *reply = g_ptr_array_index (replies, i);

      if (akc_chat_get_message_hidden (chat, reply) &&
          !akc_chat_delete_message (chat, akc_message_get_id (reply), NULL, &error))
        {
          g_message ("History: %s", error->message);
          g_clear_error (&error);
        }
    }
  if (!akc_chat_delete_message (chat, akc_message_get_id (message), NULL, &error))
    g_message ("History: %s", error->message);
}

/* The message was shown again or left the conversation some other way
 * (the conversation went on, which deletes it for good): nothing left to
 * undo. */
static void
on_message_hidden_changed (AdwToast   *toast,
                           AkcMessage *message)
{
  AkcChat *chat = g_object_get_data (G_OBJECT (toast), "akc-chat");

  if (message == g_object_get_data (G_OBJECT (toast), "akc-message") &&
      chat != NULL && !akc_chat_get_message_hidden (chat, message))
    {
      g_object_set_data (G_OBJECT (toast), "akc-message", NULL);
      adw_toast_dismiss (toast);
    }
}

static void
on_message_deleted (AkcWindow  *self,
                    AkcMessage *message,
                    guint       position)
{
  GListModel *messages;
  g_autoptr(GPtrArray) replies = g_ptr_array_new_with_free_func (g_object_unref);
  AdwToast *toast;

  if (!AKC_IS_CHAT (self->source))
    return;

  /* The person's message went with its reply (AkcChatView::message-deleted):
   * the hidden messages after it up to the person's next one. */
  messages = akc_chat_source_get_messages (self->source);
  for (position = 0; position < g_list_model_get_n_items (messages); position++)
    {
      g_autoptr(AkcMessage) other = g_list_model_get_item (messages, position);

      if (other == message)
        break;
    }
  for (guint at = position + 1; at < g_list_model_get_n_items (messages); at++)
    {
      g_autoptr(AkcMessage) reply = g_list_model_get_item (messages, at);

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_USER ||
          akc_message_get_role (reply) == AKC_MESSAGE_ROLE_USER ||
          !akc_chat_get_message_hidden (AKC_CHAT (self->source), reply))
        break;
      g_ptr_array_add (replies, g_steal_pointer (&reply));
    }

  toast = adw_toast_new (replies->len > 0 ?
                         /* Translators: a toast, after a message of the person and the reply to it were deleted */
                         _("Message and its reply deleted") :
                         /* Translators: a toast, after a message of the conversation was deleted */
                         _("Message deleted"));
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  /* Time to change one's mind, with a screen reader too. */
  adw_toast_set_timeout (toast, 10);
  g_object_set_data_full (G_OBJECT (toast), "akc-chat", g_object_ref (self->source), g_object_unref);
  g_object_set_data_full (G_OBJECT (toast), "akc-message", g_object_ref (message), g_object_unref);
  if (replies->len > 0)
    g_object_set_data_full (G_OBJECT (toast), "akc-replies", g_steal_pointer (&replies),
                            (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_message_undo), self, 0);
  g_signal_connect (toast, "dismissed", G_CALLBACK (on_message_toast_dismissed), NULL);
  g_signal_connect_object (self->source, "hidden-changed", G_CALLBACK (on_message_hidden_changed),
                           toast, G_CONNECT_SWAPPED);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
on_toast_button_clicked (AdwToast *toast,
                         AkcWindow *self)
{
  guint removal = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (toast), "akc-removal"));
  AkcConversationItem *first = g_object_get_data (G_OBJECT (toast), "akc-first");

  g_object_set_data (G_OBJECT (toast), "akc-removal", NULL);
  akc_app_session_restore (self->session, removal);
  self->keep_focus = TRUE;
  if (first != NULL)
    {
      show_item (self, first);
      select_item (self, first);
    }
  self->keep_focus = FALSE;
  focus_selected_later (self);
}

/* Ctrl+Z in the list: the last deletion is undone while its toast shows. */
static void
undo_delete_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  AdwToast *toast = self->delete_toast;

  if (toast == NULL || g_object_get_data (G_OBJECT (toast), "akc-removal") == NULL)
    return;

  g_object_ref (toast);
  on_toast_button_clicked (toast, self);
  adw_toast_dismiss (toast);
  g_object_unref (toast);
}

static void
on_toast_dismissed (AdwToast      *toast,
                    AkcAppSession *session)
{
  guint removal = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (toast), "akc-removal"));

  /* Not undone: now the history lets them go. */
  if (removal != 0)
    akc_app_session_purge (session, removal);
}

static void
on_delete_toast_gone (AkcWindow *self,
                      AdwToast  *toast)
{
  if (toast == self->delete_toast)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-delete", FALSE);
}

/* The conversations go at once, and a toast offers to bring them back
 * until it is dismissed. */
static void
delete_items (AkcWindow            *self,
              AkcConversationItem **items,
              guint                 n_items)
{
  g_autofree char *title = NULL;
  AkcConversationItem *first;
  AdwToast *toast;
  guint removal;

  if (n_items == 0)
    return;

  if (n_items == 1)
    /* Translators: a toast; %s is the title of the deleted conversation. */
    title = g_strdup_printf (_("Deleted «%s»"), akc_conversation_item_get_display_title (items[0]));
  else
    /* Translators: a toast, after deleting several conversations. */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Deleted %u conversation", "Deleted %u conversations", n_items),
                             n_items);
  first = g_object_ref (items[0]);
  self->keep_focus = TRUE;
  removal = akc_app_session_remove (self->session, items, n_items);
  self->keep_focus = FALSE;
  if (removal == 0)
    {
      g_object_unref (first);
      return;
    }

  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  /* Time to change one's mind, with a screen reader too. */
  adw_toast_set_timeout (toast, 10);
  g_object_set_data (G_OBJECT (toast), "akc-removal", GUINT_TO_POINTER (removal));
  g_object_set_data_full (G_OBJECT (toast), "akc-first", first, g_object_unref);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_toast_button_clicked), self, 0);
  /* The session outlives the window: the toast is dismissed when the
   * window goes too. */
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_toast_dismissed), self->session, 0);
  if (self->delete_toast != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->delete_toast), (gpointer *) &self->delete_toast);
  self->delete_toast = toast;
  g_object_add_weak_pointer (G_OBJECT (toast), (gpointer *) &self->delete_toast);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_delete_toast_gone), self, G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-delete", TRUE);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  focus_selected_later (self);
}

/* Delete, or Delete in the row's menu; in the selection mode, every
 * checked conversation. */
static void
delete_conversation_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  AkcConversationItem *item = target_item (self);

  if (self->selection_mode && g_hash_table_size (self->checked) > 0)
    {
      g_autofree gpointer *items = NULL;
      guint n = 0;

      items = g_hash_table_get_keys_as_array (self->checked, &n);
      for (guint i = 0; i < n; i++)
        g_object_ref (items[i]);
      delete_items (self, (AkcConversationItem **) items, n);
      for (guint i = 0; i < n; i++)
        g_object_unref (items[i]);
      selection_mode_action (widget, NULL, NULL);
      return;
    }
  if (item != NULL && !self->selection_mode)
    delete_items (self, &item, 1);
}

static gboolean
unparent_idle (gpointer data)
{
  gtk_widget_unparent (data);

  return G_SOURCE_REMOVE;
}

/* The menu's item is activated after the menu closed: it goes after that. */
static void
on_menu_closed (GtkWidget *popover)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, unparent_idle, g_object_ref (popover), g_object_unref);
}

/* Right click, the Menu key or Shift+F10 on a row: its menu. */
static void
popup_conversation_menu (AkcWindow *self,
                         double     x,
                         double     y)
{
  GtkWidget *popover = gtk_popover_menu_new_from_model (self->conversation_menu);
  GtkWidget *anchor = GTK_WIDGET (self->conversation_list);
  AkcConversationItem *item = target_item (self);
  GtkWidget *row = item != NULL ? row_of (self, item) : NULL;
  graphene_point_t point;

  if (item == NULL)
    return;

  if (x < 0 && row != NULL &&
      gtk_widget_compute_point (row, anchor, &GRAPHENE_POINT_INIT (12, gtk_widget_get_height (row)), &point))
    {
      x = point.x;
      y = point.y;
    }
  gtk_widget_set_parent (popover, anchor);
  akc_application_add_accels_to_popover (GTK_POPOVER (popover));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), TRUE);
  gtk_popover_set_position (GTK_POPOVER (popover), GTK_POS_BOTTOM);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  if (x >= 0)
    gtk_popover_set_pointing_to (GTK_POPOVER (popover), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  g_signal_connect (popover, "closed", G_CALLBACK (on_menu_closed), NULL);
  gtk_popover_popup (GTK_POPOVER (popover));
}

static void
on_list_pressed (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 AkcWindow       *self)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->conversation_list), x, y, GTK_PICK_DEFAULT);

  /* The row under the pointer first. */
  for (; picked != NULL && picked != GTK_WIDGET (self->conversation_list); picked = gtk_widget_get_parent (picked))
    {
      AkcConversationItem *item = g_object_get_data (G_OBJECT (picked), "akc-item");

      if (item != NULL)
        {
          /* The keyboard on it too: the menu acts on the row the keyboard is on. */
          gtk_widget_grab_focus (gtk_widget_get_parent (picked));
          select_item (self, item);
          on_selection_changed (self);
          break;
        }
    }
  popup_conversation_menu (self, x, y);
}

static void
conversation_menu_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  popup_conversation_menu (AKC_WINDOW (widget), -1, -1);
}

/* ------------------------------------------------------------------ */
/* The shown conversation. */

/* ------------------------------------------------------------------ */
/* Export and import, through the file chooser portal. */

/* The largest file Import reads: the import's own bound (256 MiB). */
#define IMPORT_MAX_BYTES (256 * 1024 * 1024)

static void
show_message (AkcWindow  *self,
              const char *text)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

/* The name a person knows @file by, for a heading. */
static char *
file_display_name (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return basename != NULL ? g_filename_display_name (basename) : g_file_get_parse_name (file);
}

/* A failure of Export or Import: a dialog, not a toast, for the person
 * must read why, and a toast shows one line cut at the window's width.
 * @body says in plain words what is wrong and what to do; the error's own
 * message (a decoder's names the field of the format, GIO's the path)
 * follows as the detail, selectable so that it can be copied into a bug
 * report. Escape and Enter close it, and the window gets the focus back. */
static void
show_failure (AkcWindow    *self,
              const char   *heading,
              const char   *body,
              const GError *error)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);

  if (error != NULL)
    {
      GtkWidget *detail = gtk_label_new (error->message);

      gtk_label_set_wrap (GTK_LABEL (detail), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (detail), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (detail), TRUE);
      gtk_label_set_xalign (GTK_LABEL (detail), 0.5);
      gtk_label_set_justify (GTK_LABEL (detail), GTK_JUSTIFY_CENTER);
      /* Focusable, it would take the focus as the dialog opens, all its
       * text selected; the button keeps it, and the pointer can still
       * select the text and copy it from the label's menu. */
      gtk_widget_set_focusable (detail, FALSE);
      gtk_widget_add_css_class (detail, "caption");
      gtk_widget_add_css_class (detail, "dim-label");
      adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), detail);
    }
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

/* What went wrong with a file read or written, for a person: GIO's
 * message names the path and the system's reason, which is detail. */
static const char *
file_failure_body (const GError *error,
                   gboolean      writing)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return writing ? _("The folder to save the file in does not exist.") : _("The file does not exist.");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    return writing ? _("You are not allowed to save files in that folder.") : _("You are not allowed to read the file.");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
    return _("There is not enough space on the disk.");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
    return _("That is a folder, not a file.");
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY))
    return _("The disk or folder is read-only.");

  return writing ? _("The file could not be written.") : _("The file could not be read.");
}

/* What a failure of the history means to a person. */
static const char *
history_failure_body (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
    /* check_history () of the session: the history did not open. */
    return _("The history of conversations is not open, so conversations cannot be exported or imported. "
             "Restarting AgentsKit Chat may help.");
  if (g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_BUSY))
    return _("Another program is using the history of conversations. Try again in a moment.");

  return _("The history of conversations could not be used.");
}

static void
show_export_failure (AkcWindow    *self,
                     GFile        *file,
                     gboolean      writing,
                     const GError *error)
{
  g_autofree char *name = file != NULL ? file_display_name (file) : NULL;
  /* Translators: the heading of a dialog; %s is a file name. */
  g_autofree char *heading = name != NULL ? g_strdup_printf (_("Could Not Export to “%s”"), name)
                                          : g_strdup (_("Could Not Export"));

  show_failure (self, heading, writing ? file_failure_body (error, TRUE) : history_failure_body (error), error);
}

/* The plain sentence of why Import refused a file. The decoder's message
 * names the field of the format that is wrong, detail only its author
 * can use; every problem with the content is one code of it, since for
 * the person they are one: the file is not an intact export. */
static const char *
import_failure_body (const GError *error)
{
  if (error->domain == G_IO_ERROR && error->code != G_IO_ERROR_NOT_SUPPORTED)
    return file_failure_body (error, FALSE);
  if (g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID))
    return _("The file is not a conversation exported by AgentsKit Chat, or it was changed or damaged after it "
             "was exported. Nothing was imported.");
  if (g_error_matches (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NEWER_VERSION))
    return _("The conversation was exported by a newer version of AgentsKit Chat. Update AgentsKit Chat to "
             "import it.");
  if (g_error_matches (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_UNKNOWN_ASSISTANT))
    return _("The conversation is with an assistant this version of AgentsKit Chat cannot talk to. It is kept "
             "in the history, but not listed.");

  return history_failure_body (error);
}

static void
show_import_failure (AkcWindow    *self,
                     GFile        *file,
                     const char   *body,
                     const GError *error)
{
  g_autofree char *name = file_display_name (file);
  /* Translators: the heading of a dialog; %s is a file name. */
  g_autofree char *heading = g_strdup_printf (_("Could Not Import “%s”"), name);

  show_failure (self, heading, body != NULL ? body : import_failure_body (error), error);
}

static void
on_export_written (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(AkcWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *text = NULL;

  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    {
      show_export_failure (self, G_FILE (source), TRUE, error);
      return;
    }
  name = g_file_get_basename (G_FILE (source));
  /* Translators: a toast; %s is a file name. */
  text = g_strdup_printf (_("Exported to «%s»"), name);
  show_message (self, text);
}

/* An export or an import on its way: its window, and the file it writes
 * or reads. Each has its own (two may be in flight at once). */
typedef struct {
  AkcWindow *window;
  GFile     *file;
} FileTask;

static FileTask *
file_task_new (AkcWindow *window,
               GFile     *file)
{
  FileTask *task = g_new0 (FileTask, 1);

  task->window = g_object_ref (window);
  task->file = g_object_ref (file);
  return task;
}

static void
file_task_free (FileTask *task)
{
  g_object_unref (task->window);
  g_object_unref (task->file);
  g_free (task);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FileTask, file_task_free)

static void
on_exported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(FileTask) export = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = akc_app_session_export_finish (AKC_APP_SESSION (source), result, &error);
  if (bytes == NULL)
    {
      show_export_failure (export->window, export->file, FALSE, error);
      return;
    }
  g_file_replace_contents_bytes_async (export->file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       NULL, on_export_written, g_object_ref (export->window));
}

static void
export_to (AkcWindow           *self,
           AkcConversationItem *item,
           GFile               *file,
           gboolean             markdown)
{
  akc_app_session_export_async (self->session, item, markdown, NULL, on_exported, file_task_new (self, file));
}

#if !GTK_CHECK_VERSION (4, 10, 0)
static void
on_export_chosen (GtkNativeDialog *dialog,
                  int              response,
                  AkcWindow       *self)
{
  AkcConversationItem *item = g_object_get_data (G_OBJECT (dialog), "akc-item");
  gboolean markdown = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "akc-markdown"));

  if (response == GTK_RESPONSE_ACCEPT && item != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        export_to (self, item, file, markdown);
    }
  g_object_unref (dialog);
}
#endif

/* The longest name Export suggests, before its extension: in characters,
 * for the chooser's entry, and in bytes, as file systems count (255). */
#define EXPORT_NAME_MAX_CHARS 80
#define EXPORT_NAME_MAX_BYTES 200

/* Appends @text to @out as a part of a file name: folder separators
 * (Windows' too, and ':' of macOS) become '-', control characters and
 * runs of white space one space, and direction overrides (which could
 * show "txt.exe" as "exe.txt") are dropped. Stops at the bounds. */
static void
append_file_name_part (GString    *out,
                       const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *normal = g_utf8_normalize (valid, -1, G_NORMALIZE_DEFAULT_COMPOSE);
  glong n_chars = 0;

  for (const char *p = normal; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gsize before = out->len;

      if (c == '/' || c == '\\' || c == ':')
        c = '-';
      else if (g_unichar_iscntrl (c) || g_unichar_isspace (c))
        c = ' ';
      else if (g_unichar_type (c) == G_UNICODE_FORMAT && c != 0x200C && c != 0x200D)
        continue;   /* but the joiners of scripts and emoji */

      /* No space first, and one for a run. */
      if (c == ' ' && (out->len == 0 || out->str[out->len - 1] == ' '))
        continue;
      /* No dot first: a hidden file, or "..". */
      if (c == '.' && out->len == 0)
        continue;
      if (n_chars == EXPORT_NAME_MAX_CHARS)
        break;
      g_string_append_unichar (out, c);
      if (out->len > EXPORT_NAME_MAX_BYTES)
        {
          g_string_truncate (out, before);
          break;
        }
      n_chars++;
    }
  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
}

/**
 * akc_window_export_file_name:
 * @title: (nullable): the conversation's title, as the window shows it
 * @fallback: (nullable): a name for a conversation whose title leaves
 *   nothing (its assistant's name)
 * @markdown: %TRUE for a `.md` name, %FALSE for `.json`
 *
 * The file name Export suggests for a conversation: its title, made safe
 * for a file name (no folder separators or control characters, white
 * space trimmed and collapsed, at most 80 characters), or @fallback made
 * so, or "Conversation".
 *
 * Returns: (transfer full): the file name
 */
char *
akc_window_export_file_name (const char *title,
                             const char *fallback,
                             gboolean    markdown)
{
  g_autoptr(GString) name = g_string_new (NULL);

  append_file_name_part (name, title != NULL ? title : "");
  if (name->len == 0)
    append_file_name_part (name, fallback != NULL ? fallback : "");
  if (name->len == 0)
    /* Translators: the name Export suggests for a conversation without a
     * title; ".md" or ".json" follows. */
    append_file_name_part (name, _("Conversation"));
  g_string_append (name, markdown ? ".md" : ".json");

  return g_string_free (g_steal_pointer (&name), FALSE);
}

static char *
export_name (AkcConversationItem *item,
             gboolean             markdown)
{
  AkcAssistant *assistant = akc_conversation_item_get_assistant (item);

  return akc_window_export_file_name (akc_conversation_item_get_display_title (item),
                                      assistant != NULL ? akc_assistant_get_title (assistant) : NULL,
                                      markdown);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
on_export_saved (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(AkcWindow) self = user_data;
  g_autoptr(AkcConversationItem) item = g_object_steal_data (source, "akc-item");
  gboolean markdown = GPOINTER_TO_INT (g_object_get_data (source, "akc-markdown"));
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (source), result, NULL);

  if (file != NULL && item != NULL)
    export_to (self, item, file, markdown);
}
#endif

/* Main menu: Export as Markdown… / as JSON… the shown conversation. */
static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  gboolean markdown = g_str_equal (g_variant_get_string (parameter, NULL), "md");
  g_autofree char *name = NULL;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
#else
  GtkFileChooserNative *chooser;
#endif

  if (self->item == NULL)
    return;

  name = export_name (self->item, markdown);
  gtk_file_filter_set_name (filter, markdown ? _("Markdown Files") : _("JSON Files"));
  gtk_file_filter_add_suffix (filter, markdown ? "md" : "json");
#if GTK_CHECK_VERSION (4, 10, 0)
  g_list_store_append (filters, filter);
  gtk_file_dialog_set_title (dialog, markdown ? _("Export as Markdown") : _("Export as JSON"));
  gtk_file_dialog_set_accept_label (dialog, _("_Export"));
  gtk_file_dialog_set_initial_name (dialog, name);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  g_object_set_data_full (G_OBJECT (dialog), "akc-item", g_object_ref (self->item), g_object_unref);
  g_object_set_data (G_OBJECT (dialog), "akc-markdown", GINT_TO_POINTER (markdown));
  gtk_file_dialog_save (dialog, GTK_WINDOW (self), NULL, on_export_saved, g_object_ref (self));
#else
  chooser = gtk_file_chooser_native_new (markdown ? _("Export as Markdown") : _("Export as JSON"),
                                         GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_object_set_data_full (G_OBJECT (chooser), "akc-item", g_object_ref (self->item), g_object_unref);
  g_object_set_data (G_OBJECT (chooser), "akc-markdown", GINT_TO_POINTER (markdown));
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_export_chosen), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
#endif
}

/* What the file chooser of Export as … gives (and a way to export without
 * it, as a test does): ("md" or "json", the URI of the file to write). */
static void
export_to_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
  const char *format, *uri;
  g_autoptr(GFile) file = NULL;

  g_variant_get (parameter, "(&s&s)", &format, &uri);
  if (self->item == NULL || uri[0] == '\0')
    return;
  file = g_file_new_for_uri (uri);
  export_to (self, self->item, file, g_str_equal (format, "md"));
}

/* What the file chooser of Import… gives: the URI of the file to read. */
static void
import_from_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  akc_window_import (AKC_WINDOW (widget), file);
}

static void
on_imported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(FileTask) import = user_data;
  AkcWindow *self = import->window;
  g_autoptr(AkcConversationItem) item = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  item = akc_app_session_import_finish (AKC_APP_SESSION (source), result, &error);
  if (item == NULL)
    {
      show_import_failure (self, import->file, NULL, error);
      return;
    }
  akc_window_show_item (self, item);
  /* Translators: a toast; %s is the title of the imported conversation. */
  text = g_strdup_printf (_("Imported «%s»"), akc_conversation_item_get_display_title (item));
  show_message (self, text);
}

static void
on_import_loaded (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(FileTask) import = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  AkcAppSession *session;

  bytes = g_file_load_bytes_finish (G_FILE (source), result, NULL, &error);
  if (bytes == NULL)
    {
      show_import_failure (import->window, import->file, NULL, error);
      return;
    }
  session = import->window->session;   /* before the arguments take import */
  akc_app_session_import_async (session, bytes, NULL, on_imported, g_steal_pointer (&import));
}

/**
 * akc_window_import:
 * @self: a #AkcWindow
 * @file: a JSON export of a conversation
 *
 * Imports @file into a new conversation and shows it; a file that is not
 * a valid export is refused with a dialog that says why, and nothing is
 * imported.
 */
void
akc_window_import (AkcWindow *self,
                   GFile     *file)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  ensure_session (self);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, &error);
  if (info == NULL)
    {
      show_import_failure (self, file, NULL, error);
      return;
    }
  if (g_file_info_get_size (info) > IMPORT_MAX_BYTES)
    {
      /* Plain already: no detail to add. */
      show_import_failure (self, file, _("The file is larger than any conversation export can be (256 MiB)."), NULL);
      return;
    }
  g_file_load_bytes_async (file, NULL, on_import_loaded, file_task_new (self, file));
}

#if !GTK_CHECK_VERSION (4, 10, 0)
static void
on_import_chosen (GtkNativeDialog *dialog,
                  int              response,
                  AkcWindow       *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL)
        akc_window_import (self, file);
    }
  g_object_unref (dialog);
}
#endif

#if GTK_CHECK_VERSION (4, 10, 0)
static void
on_import_opened (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AkcWindow) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (source), result, NULL);

  if (file != NULL)
    akc_window_import (self, file);
}
#endif

/* Main menu: Import… a JSON export into a new conversation. */
static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  AkcWindow *self = AKC_WINDOW (widget);
#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GtkFileFilter) json = gtk_file_filter_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);

  gtk_file_filter_set_name (json, _("JSON Files"));
  gtk_file_filter_add_mime_type (json, "application/json");
  gtk_file_filter_add_suffix (json, "json");
  g_list_store_append (filters, json);
  gtk_file_dialog_set_title (dialog, _("Import a Conversation"));
  gtk_file_dialog_set_accept_label (dialog, _("_Import"));
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_open (dialog, GTK_WINDOW (self), NULL, on_import_opened, g_object_ref (self));
#else
  GtkFileChooserNative *chooser = new_json_chooser (self, _("Import a Conversation"));

  gtk_file_chooser_native_set_accept_label (chooser, _("_Import"));
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_import_chosen), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
#endif
}

/* What the person does with a card or a confirmation is the interaction
 * controller's (application.md §12.7, §12.8): the transcript forwards to
 * it. The window that was used last among those showing the
 * conversation opens its links. */
static void
on_link_requested (AkcWindow  *self,
                   const char *uri)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  AkcInteractionController *interaction = self->item != NULL ? akc_conversation_item_get_interaction (self->item) : NULL;

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    {
      AkcWindow *window = l->data;

      if (!AKC_IS_WINDOW (window) || window->item == NULL ||
          akc_conversation_item_get_interaction (window->item) != interaction)
        continue;
      if (window != self)
        return;
      break;
    }

  g_signal_emit (self, signals[OPEN_LINK], 0, uri);
}

static void
forget_item (AkcWindow *self)
{
  if (self->item == NULL)
    return;

  /* Left or closed: what was typed in it is kept now. */
  if (self->session != NULL)
    akc_app_session_keep_draft (self->session, self->item);

  if (self->messages_handler != 0 && self->source != NULL)
    g_clear_signal_handler (&self->messages_handler, akc_chat_source_get_messages (self->source));
  if (self->link_handler != 0)
    g_clear_signal_handler (&self->link_handler, self->interaction);
  g_clear_object (&self->interaction);
  g_clear_signal_handler (&self->item_source_handler, self->item);
  g_clear_signal_handler (&self->item_title_handler, self->item);
  g_clear_object (&self->source);
  g_clear_object (&self->item);
}

static void on_item_source_changed (AkcWindow *self);

/* Shows @item in the transcript and the composer, and in the sidebar. */
static void
show_item (AkcWindow           *self,
           AkcConversationItem *item)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcComponentManifest) standard = NULL;
  AkcInteractionController *interaction;
  AkcComponentManifest *manifest = NULL;
  AkcActionConfirmation *confirmation = NULL;
  AkcDemo *demo;
  GListModel *messages;
  GtkWidget *focus;

  if (item == self->item && self->source == akc_conversation_item_get_source (item))
    return;

  if (!akc_app_session_open (self->session, item, &error))
    {
      refuse (self, error);
      return;
    }

  g_object_ref (item);
  forget_item (self);
  self->item = item;
  self->source = g_object_ref (akc_conversation_item_get_source (item));
  self->item_source_handler = g_signal_connect_object (item, "notify::source",
                                                       G_CALLBACK (on_item_source_changed), self,
                                                       G_CONNECT_SWAPPED);
  self->item_title_handler = g_signal_connect_object (item, "notify::display-title",
                                                      G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  interaction = akc_conversation_item_get_interaction (item);
  demo = akc_conversation_item_get_demo (item);

  /* The definition's manifest, or the whole standard catalog. */
  if (demo != NULL)
    {
      manifest = akc_definition_get_manifest (akc_session_get_definition (akc_demo_get_session (demo)));
      confirmation = akc_demo_get_confirmation (demo);
    }
  if (manifest == NULL)
    manifest = standard = akc_component_manifest_new_standard ();

  /* A deterministic choice is claimed from the conversation's local
   * knowledge before it is sent (§2.8, §9.5). */
  akc_interaction_controller_set_manifest (interaction, manifest);
  akc_interaction_controller_set_confirmation (interaction, confirmation);
  akc_interaction_controller_set_reservations (interaction,
                                               akc_knowledge_layer_get_reservations (akc_window_get_knowledge (self)));
  self->interaction = g_object_ref (interaction);
  self->link_handler = g_signal_connect_object (interaction, "link-requested",
                                                G_CALLBACK (on_link_requested), self, G_CONNECT_SWAPPED);
  akc_chat_view_set_interaction (self->transcript, interaction);
  akc_composer_set_source (self->composer, self->source);

  on_knowledge_changed (self);
  update_title (self);

  messages = akc_chat_source_get_messages (self->source);
  self->messages_handler = g_signal_connect_object (messages, "items-changed",
                                                    G_CALLBACK (on_messages_changed),
                                                    self, G_CONNECT_SWAPPED);
  on_messages_changed (self, 0, 0, 0, messages);

  g_settings_set_string (self->settings, "conversation",
                         akc_assistant_get_id (akc_conversation_item_get_assistant (item)));
  select_item (self, item);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONVERSATION]);

  /* Moving along the sidebar keeps the keyboard there. */
  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (!self->keep_focus &&
      (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->conversation_list))))
    gtk_widget_grab_focus (GTK_WIDGET (self->composer));
}

/* The turn server's conversation is a new session: show it; or the turn
 * server went away: show a demo. */
static void
on_item_source_changed (AkcWindow *self)
{
  AkcConversationItem *item = self->item;

  if (item == NULL)
    return;

  g_object_ref (item);
  show_item (self, item);
  g_object_unref (item);
}

static void
show_default (AkcWindow  *self,
              const char *assistant_id)
{
  g_autoptr(GError) error = NULL;
  AkcConversationItem *item;

  item = akc_app_session_get_default_conversation (self->session, assistant_id, &error);
  if (item == NULL)
    {
      refuse (self, error);
      return;
    }
  show_item (self, item);
}

/* A conversation that another window (or this one) removed: this window
 * shows another of the same assistant. */
static void
on_conversation_removed (AkcWindow           *self,
                         AkcConversationItem *item)
{
  AkcAssistant *assistant;

  if (item != self->item)
    return;

  assistant = akc_conversation_item_get_assistant (item);
  forget_item (self);
  /* The turn server has one conversation at a time: the one deleted (its
   * undo offered) is not shown again. */
  if (akc_assistant_get_kind (assistant) != AKC_ASSISTANT_KIND_TURN)
    show_default (self, akc_assistant_get_id (assistant));
  if (self->item == NULL)
    show_default (self, DEFAULT_ASSISTANT);
}

static void
on_history_error (AkcWindow    *self,
                  const GError *error)
{
  akc_window_show_history_error (self, error);
}

static void
on_default_found (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AkcWindow) self = user_data;
  g_autoptr(AkcConversationItem) item = NULL;
  g_autoptr(GError) error = NULL;

  item = akc_app_session_find_default_conversation_finish (AKC_APP_SESSION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->session == NULL)
    return;
  /* Chosen meanwhile (a click, New Chat): that stays. */
  if (self->chosen || self->item != NULL)
    return;
  if (item != NULL)
    show_item (self, item);
  else
    refuse (self, error);
  if (self->item == NULL)
    show_default (self, DEFAULT_ASSISTANT);
}

/* The conversations of the history are listed: a window that chose
 * nothing yet shows the newest conversation of its assistant. */
static void
on_session_ready (AkcWindow *self)
{
  g_autofree char *assistant = NULL;

  if (!akc_app_session_get_ready (self->session) || self->chosen)
    return;

  assistant = self->pending_assistant != NULL ? g_steal_pointer (&self->pending_assistant)
                                              : g_settings_get_string (self->settings, "conversation");
  /* With more conversations than the sidebar listed, the assistant's
   * newest is looked up in the history. */
  if (!akc_app_session_get_complete (self->session))
    {
      g_cancellable_cancel (self->default_cancellable);
      g_clear_object (&self->default_cancellable);
      self->default_cancellable = g_cancellable_new ();
      akc_app_session_find_default_conversation_async (self->session, assistant, self->default_cancellable,
                                                       on_default_found, g_object_ref (self));
      return;
    }
  show_default (self, assistant);
  if (self->item == NULL)
    show_default (self, DEFAULT_ASSISTANT);
}

/**
 * akc_window_get_conversation:
 * @self: a #AkcWindow
 *
 * Gets the assistant of the conversation the window shows: an offline
 * demo's id, `ask` (the Ask service), `turn` (the turn server) or
 * `provider` (the model provider).
 *
 * Returns: (nullable): the assistant's id
 */
const char *
akc_window_get_conversation (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  if (self->item == NULL)
    return self->pending_assistant;
  return akc_assistant_get_id (akc_conversation_item_get_assistant (self->item));
}

/**
 * akc_window_get_item:
 * @self: a #AkcWindow
 *
 * Returns: (transfer none) (nullable): the conversation the window shows
 */
AkcConversationItem *
akc_window_get_item (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->item;
}

/**
 * akc_window_show_item:
 * @self: a #AkcWindow
 * @item: a conversation of the window's session
 *
 * Shows the conversation (another window may show it too).
 */
void
akc_window_show_item (AkcWindow           *self,
                      AkcConversationItem *item)
{
  g_return_if_fail (AKC_IS_WINDOW (self));

  ensure_session (self);
  g_return_if_fail (AKC_IS_CONVERSATION_ITEM (item));

  self->chosen = TRUE;
  show_item (self, item);
}

/**
 * akc_window_set_conversation:
 * @self: a #AkcWindow
 * @id: an assistant's id: a demo id (see akc_demo_get_ids()), `ask`,
 *   `turn` or `provider`
 *
 * Shows the newest conversation with one of the offline demos, the Ask
 * service, the turn server or the model provider (its first, when it has
 * none yet). The choice is remembered for the next start. An unknown id,
 * or a backend that is not set up in the preferences, is refused with a
 * message and the shown conversation stays.
 */
void
akc_window_set_conversation (AkcWindow  *self,
                             const char *id)
{
  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (id != NULL);

  ensure_session (self);

  if (self->item != NULL && g_strcmp0 (akc_window_get_conversation (self), id) == 0)
    return;

  if (self->session == NULL || !akc_app_session_get_ready (self->session))
    {
      g_free (self->pending_assistant);
      self->pending_assistant = g_strdup (id);
      return;
    }

  self->chosen = TRUE;
  show_default (self, id);
}

/* Network backends that are no longer set up: their conversation gives
 * way to a demo. */
static void
on_endpoint_changed (AkcWindow *self)
{
  AkcAssistant *assistant = current_assistant (self);

  if (assistant != NULL &&
      !akc_app_session_check_assistant (self->session, akc_assistant_get_id (assistant), NULL))
    {
      forget_item (self);
      show_default (self, DEFAULT_ASSISTANT);
    }
  else
    update_status_page (self);
}

/* @dialog, transient for @self, is one of the application's windows: the
 * application's keys (Ctrl+Q, Shift+Ctrl+N) work in it as in @self;
 * before, Ctrl+Q did nothing while the preferences or the shortcuts window
 * had the keyboard. It is destroyed with @self (akc_window_dispose(), and
 * GtkApplicationWindow's for the shortcuts window), so it never keeps the
 * application running. */
static void
add_dialog (AkcWindow *self,
            GtkWindow *dialog)
{
  gtk_window_set_application (dialog, gtk_window_get_application (GTK_WINDOW (self)));
}

/* @dialog goes with @self. It lets go of @self first: a dialog can outlive
 * its destruction (the quit action holds the application's windows while
 * it closes them, GTK holds a window it is handling an event of), and
 * GTK 4.8 then disconnects from a transient parent that is gone. */
static void
drop_dialog (GtkWindow *dialog)
{
  gtk_window_set_transient_for (dialog, NULL);
  gtk_window_destroy (dialog);
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

  ensure_session (self);

  if (self->preferences == NULL)
    {
      self->preferences = GTK_WINDOW (akc_preferences_window_new (self->settings,
                                                                  akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_ASK),
                                                                  akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_TURN),
                                                                  akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER)));
      gtk_window_set_transient_for (self->preferences, GTK_WINDOW (self));
      add_dialog (self, self->preferences);
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

/* Connect a Model… on the welcome page: the preferences, on the page
 * where a model provider is set up (they open on the Ask service's). */
static void
connect_model_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  GtkWindow *preferences = akc_window_show_preferences (AKC_WINDOW (widget));

  adw_preferences_window_set_visible_page_name (ADW_PREFERENCES_WINDOW (preferences), "providers");
}

/* The shortcuts window, built the first time it is asked for (Ctrl+?, the
 * main menu): it is not on screen when the window opens, so it is not in
 * the way of the first frame (GtkApplication would build it for every
 * window from a gtk/help-overlay.ui resource). */
static void
show_help_overlay_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (widget);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/agentskit/Chat/help-overlay.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      gtk_application_window_set_help_overlay (window, overlay);
      add_dialog (AKC_WINDOW (window), GTK_WINDOW (overlay));
    }
  gtk_window_present (GTK_WINDOW (overlay));
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

  ensure_session (self);

  return akc_app_session_get_backend (self->session, kind);
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
      /* The assistant's id: a string, empty before the first. */
      g_value_set_string (value, akc_window_get_conversation (self) != NULL ? akc_window_get_conversation (self) : "");
      break;
    case PROP_SESSION:
      g_value_set_object (value, self->session);
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
      if (g_value_get_string (value) != NULL && g_value_get_string (value)[0] != '\0')
        akc_window_set_conversation (self, g_value_get_string (value));
      break;
    case PROP_SESSION:
      g_assert (self->session == NULL);
      self->session = g_value_dup_object (value);
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

  forget_item (self);
  if (self->delete_toast != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->delete_toast), (gpointer *) &self->delete_toast);
  self->delete_toast = NULL;
  if (self->preferences != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
      drop_dialog (self->preferences);
      self->preferences = NULL;
    }
  if (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self)) != NULL)
    drop_dialog (GTK_WINDOW (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self))));
  if (self->conversation_list != NULL)
    gtk_list_view_set_model (self->conversation_list, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), AKC_TYPE_WINDOW);
  g_clear_object (&self->selection);
  g_clear_object (&self->provider_menu);
  g_clear_object (&self->sidebar_model);
  g_clear_object (&self->results);
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_cancellable_cancel (self->default_cancellable);
  g_clear_object (&self->default_cancellable);
  g_clear_pointer (&self->found, g_hash_table_unref);
  g_clear_pointer (&self->search_key, g_free);
  g_clear_pointer (&self->pending_assistant, g_free);
  g_clear_pointer (&self->checked, g_hash_table_unref);
  g_clear_object (&self->session);
  g_clear_object (&self->chosen_site_config);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->render_cache, akc_render_cache_free);

  G_OBJECT_CLASS (akc_window_parent_class)->dispose (object);
}

/* With the cairo renderer, which draws every node of the window in every
 * frame, what did not change since the last frame is drawn from images
 * (see akc-render-cache.c). */
static void
akc_window_snapshot (GtkWidget   *widget,
                     GtkSnapshot *snapshot)
{
  AkcWindow *self = AKC_WINDOW (widget);
  GtkWidgetClass *parent_class = GTK_WIDGET_CLASS (akc_window_parent_class);

  if (self->render_cache == NULL)
    self->render_cache = akc_render_cache_new ();
  akc_render_cache_snapshot (self->render_cache, widget, snapshot, parent_class->snapshot);
}

static void
akc_window_unrealize (GtkWidget *widget)
{
  AkcWindow *self = AKC_WINDOW (widget);

  /* The next renderer may not be the cairo renderer. */
  if (self->render_cache != NULL)
    akc_render_cache_clear (self->render_cache);
  GTK_WIDGET_CLASS (akc_window_parent_class)->unrealize (widget);
}

/* The window joins its application's session, or (in a test, on a plain
 * GtkApplication) has one of its own: once, when it is given its
 * application (after construction), or when it is first used. */
static void
ensure_session (AkcWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GtkListItemFactory *factory;
  GtkAdjustment *vadjustment;

  if (self->session_set_up || gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;
  self->session_set_up = TRUE;

  if (self->session != NULL)
    ;
  else if (AKC_IS_APPLICATION (app))
    self->session = g_object_ref (akc_application_get_session (AKC_APPLICATION (app)));
  else
    self->session = akc_app_session_new (self->settings);

  /* The sidebar: the conversations read so far (a page more as it is
   * scrolled to the end), or the search's results, under day headings. */
  self->results = g_list_store_new (AKC_TYPE_CONVERSATION_ITEM);
  self->sidebar_model = akc_sidebar_model_new (akc_app_session_get_conversations (self->session));
  g_signal_connect_object (akc_app_session_get_conversations (self->session), "items-changed",
                           G_CALLBACK (on_conversations_changed), self, G_CONNECT_SWAPPED);
  /* One found by a search may be on a page not read yet. */
  g_signal_connect_object (self->session, "conversation-removed", G_CALLBACK (on_conversations_changed),
                           self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->session, "conversation-restored", G_CALLBACK (on_conversations_changed),
                           self, G_CONNECT_SWAPPED);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sidebar_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (on_selection_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->sidebar_model, "items-changed", G_CALLBACK (on_sidebar_items_changed),
                           self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_factory_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_factory_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (on_factory_unbind), self);
  gtk_list_view_set_factory (self->conversation_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->conversation_list, GTK_SELECTION_MODEL (self->selection));
  /* The next page of the history when the end is in sight. */
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->conversation_list));
  if (vadjustment != NULL)
    {
      g_signal_connect_object (vadjustment, "value-changed", G_CALLBACK (on_sidebar_scrolled), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (vadjustment, "changed", G_CALLBACK (on_sidebar_scrolled), self, G_CONNECT_SWAPPED);
    }
  on_filter_changed (self);


  g_signal_connect_object (self->session, "conversation-removed", G_CALLBACK (on_conversation_removed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "history-error", G_CALLBACK (on_history_error),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::ready", G_CALLBACK (on_session_ready),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::ready", G_CALLBACK (update_sidebar_status),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_knowledge (self->session, AKC_ASSISTANT_KIND_DEMO), "notify::warning",
                           G_CALLBACK (on_knowledge_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_knowledge (self->session, AKC_ASSISTANT_KIND_ASK), "notify::warning",
                           G_CALLBACK (on_knowledge_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER), "notify::model",
                           G_CALLBACK (on_knowledge_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_ASK), "notify::endpoint",
                           G_CALLBACK (on_endpoint_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_TURN), "notify::endpoint",
                           G_CALLBACK (on_endpoint_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_TURN), "notify::turn-client",
                           G_CALLBACK (on_endpoint_changed), self, G_CONNECT_SWAPPED);

  if (akc_app_session_get_memory_error (self->session) != NULL)
    akc_window_show_history_error (self, akc_app_session_get_memory_error (self->session));

  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER), "notify::endpoint",
                           G_CALLBACK (update_ollama_offer), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER), "notify::endpoint",
                           G_CALLBACK (update_new_chat_models), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER), "notify::model",
                           G_CALLBACK (update_new_chat_models), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (akc_app_session_get_backend (self->session, AKC_BACKEND_KIND_PROVIDER), "notify::models",
                           G_CALLBACK (update_new_chat_models), self, G_CONNECT_SWAPPED);
  update_new_chat_models (self);
  g_signal_connect_object (self->session, "notify::local-ollama-model",
                           G_CALLBACK (update_ollama_offer), self, G_CONNECT_SWAPPED);
  akc_app_session_probe_local_ollama (self->session);
  update_ollama_offer (self);

  /* The conversation shown last, or hello-world, once the history is
   * listed. */
  update_status_page (self);
  on_session_ready (self);
  on_knowledge_changed (self);
}

static void
akc_window_constructed (GObject *object)
{
  AkcWindow *self = AKC_WINDOW (object);

  G_OBJECT_CLASS (akc_window_parent_class)->constructed (object);

  g_signal_connect (self, "notify::application", G_CALLBACK (ensure_session), NULL);
  if (self->session != NULL || gtk_window_get_application (GTK_WINDOW (self)) != NULL)
    ensure_session (self);
}

/* AdwStatusPage (libadwaita 1.2) centres its content, a box holding the
 * clamp of icon, title and description and the page's child, in its
 * scrolled window (valign center), and the box of icon, title and
 * description in the clamp. GTK measures a widget that is aligned other
 * than to fill for its width at the height it is given, every time it is
 * allocated, and GtkBoxLayout finds that width by laying the wrapping
 * description out at a dozen widths: the welcome page's long description
 * was laid out at about 50 widths while the window was first sized (60 M
 * instructions before the first frame). Here both boxes fill instead,
 * which looks the same: the clamp gives its box its natural height, no
 * more, and the outer box is centred by two empty boxes that share what
 * height is left, each taking the place of the outer box's margin (36 px
 * above and below, the box's spacing; see status-page-filled in
 * style.css). Left alone when the page is not built so. */
static void
fill_status_page (AdwStatusPage *page)
{
  GtkWidget *child = adw_status_page_get_child (page);
  GtkWidget *outer = child != NULL ? gtk_widget_get_parent (child) : NULL;
  GtkWidget *clamp = outer != NULL ? gtk_widget_get_first_child (outer) : NULL;
  GtkWidget *content = ADW_IS_CLAMP (clamp) ? adw_clamp_get_child (ADW_CLAMP (clamp)) : NULL;

  if (!GTK_IS_BOX (outer) || !GTK_IS_VIEWPORT (gtk_widget_get_parent (outer)) ||
      gtk_widget_get_valign (outer) != GTK_ALIGN_CENTER || !GTK_IS_BOX (content) ||
      gtk_widget_get_valign (content) != GTK_ALIGN_CENTER || gtk_widget_get_vexpand (clamp))
    return;

  gtk_widget_set_valign (content, GTK_ALIGN_FILL);
  gtk_widget_set_valign (outer, GTK_ALIGN_FILL);
  gtk_widget_add_css_class (outer, "status-page-filled");
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *spacer = g_object_new (GTK_TYPE_BOX,
                                        "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                        "vexpand", TRUE,
                                        NULL);

      if (i == 0)
        gtk_box_prepend (GTK_BOX (outer), spacer);
      else
        {
          /* GtkBox gives a pixel that does not share evenly to its first
           * expanding child: the one above would take it, and the page
           * sat a pixel lower than centred whenever the height left was
           * odd. One pixel of the box's own below makes that share
           * round down above, as valign center does. */
          gtk_widget_set_size_request (spacer, -1, 1);
          gtk_box_append (GTK_BOX (outer), spacer);
        }
    }
}

static void
akc_window_class_init (AkcWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = akc_window_constructed;
  object_class->dispose = akc_window_dispose;
  object_class->get_property = akc_window_get_property;
  object_class->set_property = akc_window_set_property;
  window_class->close_request = akc_window_close_request;
  widget_class->snapshot = akc_window_snapshot;
  widget_class->unrealize = akc_window_unrealize;

  /**
   * AkcWindow:conversation:
   *
   * The assistant of the conversation the window shows: an offline demo's
   * id, `ask`, `turn` or `provider`. Setting it shows that assistant's
   * newest conversation.
   */
  props[PROP_CONVERSATION] =
    g_param_spec_string ("conversation", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcWindow:session:
   *
   * The conversations and assistants the window shows: by default its
   * application's (an #AkcApplication), or its own.
   */
  props[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         AKC_TYPE_APP_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

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
  g_type_ensure (AKC_TYPE_FIND_BAR);
  g_type_ensure (AKC_TYPE_COMPOSER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/Chat/akc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, sidebar_pane);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, content_pane);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, sidebar_header);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, content_header);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, new_chat_button);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, select_button);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, selection_bar);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, sidebar_status);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, conversation_list);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, conversation_menu);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, new_chat_menu);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, demo_button);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, title_box);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, status_page);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, welcome_buttons);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_label);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_revealer);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_banner);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, knowledge_warning);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, scroller);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, transcript);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, find_bar);
  gtk_widget_class_bind_template_child (widget_class, AkcWindow, composer);

  /* Escape stops a reply from the composer and the transcript; retry
   * (Ctrl+R), regenerate (Ctrl+Shift+R), edit (Ctrl+E) and jump to the
   * newest message (Ctrl+End) work from anywhere in the window, through
   * these actions and their accels (akc_application_add_accels()). */
  gtk_widget_class_install_action (widget_class, "win.new-chat", NULL, new_chat_action);
  gtk_widget_class_install_action (widget_class, "win.new-chat-with", "s", new_chat_with_action);
  gtk_widget_class_install_action (widget_class, "win.new-chat-with-model", "s", new_chat_with_model_action);
  gtk_widget_class_install_action (widget_class, "win.retry", NULL, forward_to_transcript);
  gtk_widget_class_install_action (widget_class, "win.regenerate", NULL, forward_to_transcript);
  gtk_widget_class_install_action (widget_class, "win.edit", NULL, forward_to_transcript);
  gtk_widget_class_install_action (widget_class, "win.jump-to-newest", NULL, forward_to_transcript);
  /* The newest conversation of an assistant (--demo, and scripts). */
  gtk_widget_class_install_property_action (widget_class, "win.conversation", "conversation");
  gtk_widget_class_install_action (widget_class, "win.show-conversations", NULL, show_conversations_action);
  gtk_widget_class_install_action (widget_class, "win.switch-model", NULL, switch_model_action);
  gtk_widget_class_install_action (widget_class, "win.search-conversations", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.rename-conversation", NULL, rename_conversation_action);
  gtk_widget_class_install_action (widget_class, "win.pin-conversation", NULL, pin_conversation_action);
  gtk_widget_class_install_action (widget_class, "win.unpin-conversation", NULL, pin_conversation_action);
  gtk_widget_class_install_action (widget_class, "win.delete-conversation", NULL, delete_conversation_action);
  gtk_widget_class_install_action (widget_class, "win.conversation-menu", NULL, conversation_menu_action);
  gtk_widget_class_install_action (widget_class, "win.undo-delete", NULL, undo_delete_action);
  gtk_widget_class_install_action (widget_class, "win.export-conversation", "s", export_action);
  gtk_widget_class_install_action (widget_class, "win.import-conversation", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.export-conversation-to", "(ss)", export_to_action);
  gtk_widget_class_install_action (widget_class, "win.import-conversation-from", "s", import_from_action);
  gtk_widget_class_install_action (widget_class, "win.selection-mode", NULL, selection_mode_action);
  gtk_widget_class_install_action (widget_class, "win.delete-selected", NULL, delete_conversation_action);
  gtk_widget_class_install_action (widget_class, "win.preferences", NULL, preferences_action);
  gtk_widget_class_install_action (widget_class, "win.connect-model", NULL, connect_model_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL, show_help_overlay_action);
  gtk_widget_class_install_action (widget_class, "win.choose-knowledge", NULL, choose_knowledge_action);
  gtk_widget_class_install_action (widget_class, "win.forget-knowledge", NULL, forget_knowledge_action);
}

static void
akc_window_init (AkcWindow *self)
{
  GtkEventController *composer_keys;
  GtkGesture *composer_click;
  GtkGesture *list_click;
  GtkGesture *list_menu;
  GtkEventController *list_keys;
  GtkEventController *list_moves;
  GtkEventController *window_keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  {
    GtkEventController *scroller_focus = gtk_event_controller_focus_new ();

    g_signal_connect_swapped (scroller_focus, "enter", G_CALLBACK (on_list_scroller_enter), self);
    gtk_widget_add_controller (gtk_widget_get_parent (GTK_WIDGET (self->conversation_list)), scroller_focus);
  }
  /* The model provider's part of the New Chat With… menu. */
  self->provider_menu = g_menu_new ();
  g_menu_append_section (self->new_chat_menu, NULL, G_MENU_MODEL (self->provider_menu));
  /* The main menu's New Chat With offers them too: it is where a person
   * who set up a provider looks for it. */
  g_menu_insert_section (self->primary_menu, 1, NULL, G_MENU_MODEL (self->provider_menu));
  /* The first time, with no provider set up: a local Ollama, when one
   * answers. */
  self->ollama_button = gtk_button_new_with_label ("");
  gtk_widget_add_css_class (self->ollama_button, "pill");
  gtk_widget_add_css_class (self->ollama_button, "suggested-action");
  gtk_widget_set_visible (self->ollama_button, FALSE);
  gtk_widget_set_tooltip_text (self->ollama_button, _("Use the Ollama that runs on this computer"));
  g_signal_connect_object (self->ollama_button, "clicked", G_CALLBACK (on_ollama_clicked), self, G_CONNECT_SWAPPED);
  gtk_box_prepend (GTK_BOX (self->welcome_buttons), self->ollama_button);
  fill_status_page (self->status_page);

  /* The model of a provider conversation, as the subtitle of the title:
   * the middle of the header has room for a model's whole name, where
   * beside the main menu and the window's buttons it was cut to a few
   * letters at the default width. */
  self->model_switch = AKC_MODEL_SWITCH (akc_model_switch_new ());
  gtk_widget_set_halign (GTK_WIDGET (self->model_switch), GTK_ALIGN_CENTER);
  gtk_box_append (self->title_box, GTK_WIDGET (self->model_switch));
  g_signal_connect_object (self->model_switch, "chosen", G_CALLBACK (gtk_widget_grab_focus), self->composer,
                           G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-delete", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-selected", FALSE);
  self->checked = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref, NULL);

  self->settings = g_settings_new (APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

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
  g_signal_connect_object (self->transcript, "message-deleted",
                           G_CALLBACK (on_message_deleted),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (on_focus_widget_changed), NULL);

  /* The sidebar: a click or Enter opens, a right click, the Menu key or
   * Shift+F10 show the row's menu, F2 renames, Delete deletes. */
  set_up_panes (self);
  /* The window opens with the keyboard in the composer, not on the first
   * button of the sidebar: what is typed at once goes there, and a
   * window that opens narrow shows the conversation. */
  gtk_widget_grab_focus (GTK_WIDGET (self->composer));
  on_folded_changed (self);
  g_signal_connect_object (self->conversation_list, "activate", G_CALLBACK (on_list_activate),
                           self, G_CONNECT_SWAPPED);
  list_click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (list_click), GDK_BUTTON_PRIMARY);
  /* Before the rows, which claim the click (they select on the press). */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (list_click), GTK_PHASE_CAPTURE);
  g_signal_connect (list_click, "released", G_CALLBACK (on_list_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->conversation_list), GTK_EVENT_CONTROLLER (list_click));
  list_menu = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (list_menu), GDK_BUTTON_SECONDARY);
  g_signal_connect (list_menu, "pressed", G_CALLBACK (on_list_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->conversation_list), GTK_EVENT_CONTROLLER (list_menu));
  /* Before GtkListView's own bindings, which would open each row passed. */
  list_moves = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (list_moves, GTK_PHASE_CAPTURE);
  g_signal_connect_object (list_moves, "key-pressed", G_CALLBACK (on_list_key_pressed), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->conversation_list), list_moves);
  list_keys = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (list_keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, 0),
                                                          gtk_named_action_new ("win.delete-conversation")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (list_keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                                          gtk_named_action_new ("win.conversation-menu")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (list_keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK),
                                                          gtk_named_action_new ("win.conversation-menu")));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (list_keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_callback_action_new (on_list_escape, self, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self->conversation_list), list_keys);

  /* Ctrl+Z undoes a deletion while its toast shows (the action is
   * enabled only then): the deletion is the last thing done. */
  window_keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (window_keys, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (window_keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_z, GDK_CONTROL_MASK),
                                                          gtk_named_action_new ("win.undo-delete")));
  gtk_widget_add_controller (GTK_WIDGET (self), window_keys);

  /* The split button's halves have names of their own. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->new_chat_button));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_MENU_BUTTON (child))
        {
          gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, _("New Chat With…"), -1);
          gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (child), create_menu_popup, self, NULL);
        }
      else if (GTK_IS_BUTTON (child))
        gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, _("New Chat"), -1);
    }

  gtk_menu_button_set_create_popup_func (self->primary_menu_button, create_menu_popup, self, NULL);
  gtk_menu_button_set_create_popup_func (self->demo_button, create_menu_popup, self, NULL);

  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (on_filter_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "stop-search", G_CALLBACK (on_search_stopped),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "activate", G_CALLBACK (on_search_activate),
                           self, G_CONNECT_SWAPPED);
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  /* Typing in the list searches it. */
  gtk_search_bar_set_key_capture_widget (self->search_bar, GTK_WIDGET (self->conversation_list));
  g_signal_connect_object (self->search_bar, "notify::search-mode-enabled", G_CALLBACK (on_search_mode_changed),
                           self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

/**
 * akc_window_new:
 * @application: the application
 *
 * Creates a main window on the application's conversations.
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

/**
 * akc_window_set_memory:
 * @self: a #AkcWindow
 * @memory: the open history
 *
 * Keeps the window's session in @memory (see
 * [method@AppSession.set_memory]): a window of the application shares
 * the application's.
 */
void
akc_window_set_memory (AkcWindow     *self,
                       AkcChatMemory *memory)
{
  g_return_if_fail (AKC_IS_WINDOW (self));
  g_return_if_fail (AKC_IS_CHAT_MEMORY (memory));

  ensure_session (self);

  akc_app_session_set_memory (self->session, memory);
}

/**
 * akc_window_get_history:
 * @self: a #AkcWindow
 *
 * Gets what keeps the shown conversation stored.
 *
 * Returns: (transfer none) (nullable): the history, or %NULL before
 *   [method@Window.set_memory] (or for the turn server's conversation)
 */
AkcChatHistory *
akc_window_get_history (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->item != NULL ? akc_conversation_item_get_history (self->item) : NULL;
}

/**
 * akc_window_get_source:
 * @self: a #AkcWindow
 *
 * Gets the conversation the window shows.
 *
 * Returns: (transfer none) (nullable): the chat source
 */
AkcChatSource *
akc_window_get_source (AkcWindow *self)
{
  g_return_val_if_fail (AKC_IS_WINDOW (self), NULL);

  return self->source;
}

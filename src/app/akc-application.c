/* akc-application.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include "akc-application.h"
#include "akc-gallery-window.h"
#include "akc-inspector.h"
#include "akc-window.h"

/* How long quitting waits for the history to write what it was given. */
#define HISTORY_CLOSE_TIMEOUT_MS 5000

struct _AkcApplication
{
  AdwApplication  parent_instance;

  /* The conversations and assistants every window shows; the history,
   * opened on a worker thread once the first window has drawn its first
   * frame (or why it could not be opened: the application runs without
   * saving). */
  AkcAppSession  *session;
  AkcChatMemory  *memory;
  GCancellable   *memory_cancellable;

  gboolean        show_gallery;   /* --gallery */
  char           *start_demo;     /* --demo */
};

G_DEFINE_FINAL_TYPE (AkcApplication, akc_application, ADW_TYPE_APPLICATION)

static GtkWindow *
find_window (GApplication *app,
             GType         type)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;

  return NULL;
}

static void
on_memory_opened (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AkcApplication) self = user_data;
  g_autoptr(AkcSqliteChatMemory) memory = NULL;
  g_autoptr(GError) error = NULL;

  memory = akc_sqlite_chat_memory_new_finish (result, &error);
  if (memory == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      /* Never fatal: the application starts, and says it is not saving. */
      g_message ("History: %s", error->message);
      if (self->session != NULL)
        akc_app_session_set_memory_error (self->session, error);
      return;
    }

  self->memory = AKC_CHAT_MEMORY (g_steal_pointer (&memory));
  if (self->session != NULL)
    akc_app_session_set_memory (self->session, self->memory);
}

#ifdef __GLIBC__
static gboolean
trim_memory (gpointer user_data)
{
  malloc_trim (0);

  return G_SOURCE_REMOVE;
}
#endif

/* Once the history is listed, the start is over: the memory it used and
 * freed again (the stylesheets' text and tokens, the first layouts) is
 * given back to the system, instead of staying resident in malloc's free
 * lists while the application waits. */
static void
on_session_ready (AkcAppSession  *session,
                  GParamSpec     *pspec,
                  AkcApplication *self)
{
  if (!akc_app_session_get_ready (session))
    return;

  g_signal_handlers_disconnect_by_func (session, on_session_ready, self);
#ifdef __GLIBC__
  g_idle_add_full (G_PRIORITY_LOW, trim_memory, NULL, NULL);
#endif
}

/**
 * akc_application_get_session:
 * @self: a #AkcApplication
 *
 * Returns: (transfer none): the conversations and assistants the windows
 *   show
 */
AkcAppSession *
akc_application_get_session (AkcApplication *self)
{
  g_return_val_if_fail (AKC_IS_APPLICATION (self), NULL);

  if (self->session == NULL)
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

      self->session = akc_app_session_new (settings);
    }

  return self->session;
}

/* Opens the history (once): the windows wait for its list of
 * conversations. */
static void
open_history (AkcApplication *self)
{
  if (self->memory_cancellable != NULL)
    return;

  self->memory_cancellable = g_cancellable_new ();
  g_signal_connect_object (akc_application_get_session (self), "notify::ready", G_CALLBACK (on_session_ready),
                           self, 0);
  akc_sqlite_chat_memory_new_async (NULL, self->memory_cancellable, on_memory_opened, g_object_ref (self));
}

static void
on_first_frame (GdkFrameClock  *clock,
                AkcApplication *self)
{
  g_signal_handlers_disconnect_by_func (clock, on_first_frame, self);
  open_history (self);
}

/* The history is opened after @window's first frame: opening it, and
 * listing its conversations when it is open, are no part of what the
 * first frame waits for (issue #18 item 6). */
static void
open_history_after_first_frame (AkcApplication *self,
                                GtkWindow      *window)
{
  GdkFrameClock *clock;

  if (self->memory_cancellable != NULL)
    return;

  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  if (clock == NULL)
    {
      open_history (self);
      return;
    }

  /* Disconnected after its first emission, or when the application
   * goes; a window gone before it drew anything leaves it to the next
   * window, or to the application's shutdown. */
  g_signal_handlers_disconnect_by_func (clock, on_first_frame, self);
  g_signal_connect_object (clock, "after-paint", G_CALLBACK (on_first_frame), self, 0);
}

static void
present_gallery (GApplication *app)
{
  GtkWindow *gallery = find_window (app, AKC_TYPE_GALLERY_WINDOW);

  if (gallery == NULL)
    gallery = GTK_WINDOW (akc_gallery_window_new (ADW_APPLICATION (app)));

  gtk_window_present (gallery);
}

static void
akc_application_activate (GApplication *app)
{
  GtkWindow *window;

  if (AKC_APPLICATION (app)->show_gallery)
    {
      AKC_APPLICATION (app)->show_gallery = FALSE;
      present_gallery (app);
      return;
    }

  window = find_window (app, AKC_TYPE_WINDOW);
  if (window == NULL)
    window = GTK_WINDOW (akc_window_new (ADW_APPLICATION (app)));

  if (AKC_APPLICATION (app)->start_demo != NULL)
    {
      g_autofree char *demo = g_steal_pointer (&AKC_APPLICATION (app)->start_demo);

      akc_window_set_conversation (AKC_WINDOW (window), demo);
    }

  gtk_window_present (window);
  open_history_after_first_frame (AKC_APPLICATION (app), window);
}

static int
akc_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  g_autoptr(GError) error = NULL;
  const char *demo = NULL;

  /* --demo=ID: the main window shows that conversation, in a running
   * instance too. */
  if (g_variant_dict_lookup (options, "demo", "&s", &demo))
    {
      if (!g_application_register (app, NULL, &error))
        {
          g_printerr ("%s\n", error->message);
          return EXIT_FAILURE;
        }
      if (g_application_get_is_remote (app))
        {
          g_action_group_activate_action (G_ACTION_GROUP (app), "demo", g_variant_new_string (demo));
          return EXIT_SUCCESS;
        }
      g_free (AKC_APPLICATION (app)->start_demo);
      AKC_APPLICATION (app)->start_demo = g_strdup (demo);
    }

  if (!g_variant_dict_contains (options, "gallery"))
    return -1;

  if (!g_application_register (app, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_FAILURE;
    }

  /* A running instance opens its gallery; otherwise this one starts with it. */
  if (g_application_get_is_remote (app))
    {
      g_action_group_activate_action (G_ACTION_GROUP (app), "gallery", NULL);
      return EXIT_SUCCESS;
    }

  AKC_APPLICATION (app)->show_gallery = TRUE;
  return -1;
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  AkcApplication *self = user_data;

  g_free (self->start_demo);
  self->start_demo = g_variant_dup_string (parameter, NULL);
  g_application_activate (G_APPLICATION (self));
}

static void
gallery_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  present_gallery (G_APPLICATION (user_data));
}

static void
on_inspector_destroyed (GtkWidget *inspector,
                        GObject   *window)
{
  g_object_set_data (window, "akc-inspector", NULL);
}

/* Ctrl+Shift+D: the Developer Tools of the window in front, one per
 * window, following its conversation (application.md §10). */
static void
developer_tools_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  AkcInspector *inspector;

  if (!AKC_IS_WINDOW (active))
    return;

  inspector = g_object_get_data (G_OBJECT (active), "akc-inspector");
  if (inspector == NULL)
    {
      inspector = akc_inspector_new ();
      akc_inspector_set_settings (inspector,
                                  akc_app_session_get_settings (akc_application_get_session (AKC_APPLICATION (user_data))));
      gtk_window_set_application (GTK_WINDOW (inspector), GTK_APPLICATION (user_data));
      /* The inspector goes with its window. */
      g_signal_connect_object (active, "destroy", G_CALLBACK (gtk_window_destroy), inspector, G_CONNECT_SWAPPED);
      g_object_set_data (G_OBJECT (active), "akc-inspector", inspector);
      g_signal_connect_object (inspector, "destroy", G_CALLBACK (on_inspector_destroyed), active, 0);
      akc_inspector_follow (inspector, AKC_WINDOW (active));
    }
  gtk_window_present (GTK_WINDOW (inspector));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The AgentsKit Chat developers", NULL };
  AdwAboutWindow *about;

  about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  adw_about_window_set_application_name (about, _("AgentsKit Chat"));
  adw_about_window_set_application_icon (about, APP_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_developer_name (about, "The AgentsKit Chat developers");
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_website (about, "https://agentskit.io");
  adw_about_window_set_license_type (about, GTK_LICENSE_MIT_X11);
  /* Translators: replace with your names, one per line */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (app));
  /* One of the application's windows, as the preferences are: its keys
   * (Ctrl+Q) work in it; it goes with the window it is for. */
  gtk_window_set_destroy_with_parent (GTK_WINDOW (about), TRUE);
  gtk_window_set_application (GTK_WINDOW (about), app);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  GtkWindow *window = find_window (G_APPLICATION (user_data), AKC_TYPE_WINDOW);
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  if (AKC_IS_WINDOW (active))
    window = active;
  if (window == NULL)
    {
      window = GTK_WINDOW (akc_window_new (ADW_APPLICATION (user_data)));
      gtk_window_present (window);
    }

  akc_window_show_preferences (AKC_WINDOW (window));
}

/* Ctrl+Shift+N: another window, on a new conversation with the active
 * window's assistant; both show the session's conversations. */
static void
new_window_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  AkcApplication *self = user_data;
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  const char *assistant = AKC_IS_WINDOW (active) ? akc_window_get_conversation (AKC_WINDOW (active)) : NULL;
  AkcWindow *window = akc_window_new (ADW_APPLICATION (self));

  if (assistant != NULL && akc_app_session_get_ready (akc_application_get_session (self)))
    {
      AkcConversationItem *item = akc_app_session_new_conversation (akc_application_get_session (self),
                                                                    assistant, NULL);

      if (item != NULL)
        akc_window_show_item (window, item);
    }
  gtk_window_present (GTK_WINDOW (window));
  open_history_after_first_frame (self, GTK_WINDOW (window));
}

static gboolean
quit_now (gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  g_autoptr(GHashTable) asked = g_hash_table_new (NULL, NULL);

  /* Close windows first so they save their state. Closing one closes its
   * preferences and shortcuts windows too, which are the application's:
   * so the list is looked at again after each (without holding them: a
   * dialog must not outlive its window). */
  for (;;)
    {
      GtkWindow *window = NULL;

      for (GList *l = gtk_application_get_windows (app); l != NULL && window == NULL; l = l->next)
        if (!g_hash_table_contains (asked, l->data))
          window = l->data;
      if (window == NULL)
        break;
      g_hash_table_add (asked, window);
      gtk_window_close (window);
    }

  g_application_quit (G_APPLICATION (app));

  return G_SOURCE_REMOVE;
}

/* Ctrl+Q, from any of the application's windows: the windows close once
 * the key that asked is handled. GTK holds the window a key went to until
 * then; a shortcuts window that outlived its own window so disconnected
 * from it after it was gone (GTK 4.8). */
static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, quit_now, g_object_ref (user_data), g_object_unref);
}

static const GActionEntry app_actions[] = {
  { .name = "about", .activate = about_action },
  { .name = "developer-tools", .activate = developer_tools_action },
  { .name = "gallery", .activate = gallery_action },
  { .name = "new-window", .activate = new_window_action },
  { .name = "preferences", .activate = preferences_action },
  { .name = "demo", .activate = demo_action, .parameter_type = "s" },
  { .name = "quit", .activate = quit_action },
};

static gboolean
on_quit_signal (gpointer user_data)
{
  /* As app.quit: the windows close and the history is written. */
  g_action_group_activate_action (G_ACTION_GROUP (user_data), "quit", NULL);

  return G_SOURCE_CONTINUE;
}

/* Every key of the shortcuts window that is not the composer's or the
 * transcript's own: the application's and the windows' actions. */
static const struct
{
  const char *action;
  const char *accels[3];
} accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
  { "win.new-chat", { "<Control>n", NULL } },
  { "app.new-window", { "<Control><Shift>n", NULL } },
  { "app.developer-tools", { "<Control><Shift>d", NULL } },
  { "win.search-conversations", { "<Control><Shift>f", NULL } },
  { "win.find", { "<Control>f", NULL } },
  { "win.rename-conversation", { "F2", NULL } },
  { "win.retry", { "<Control>r", NULL } },
  { "win.regenerate", { "<Control><Shift>r", NULL } },
  { "win.edit", { "<Control>e", NULL } },
  { "win.jump-to-newest", { "<Control>End", NULL } },
  { "win.switch-model", { "<Control>m", NULL } },
};

/**
 * akc_application_add_accels:
 * @application: an application with #AkcWindow windows
 *
 * Gives the actions of the application and of its windows their keys, the
 * ones the shortcuts window shows.
 */
void
akc_application_add_accels (GtkApplication *application)
{
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (application, accels[i].action, accels[i].accels);
}

/* A key of the application pressed in a popover: its action, activated
 * from the popover (whose actions are its window's and the
 * application's), and the popover closed, as choosing an item closes a
 * menu. An action gtk_widget_activate_action_variant() does not find
 * from the popover (one of no window of the application's) leaves the
 * key to the popover. */
static gboolean
activate_from_popover (GtkWidget *widget,
                       GVariant  *args,
                       gpointer   user_data)
{
  const char *action = user_data;

  if (!gtk_widget_activate_action_variant (widget, action, NULL))
    return FALSE;
  gtk_popover_popdown (GTK_POPOVER (widget));
  return TRUE;
}

/**
 * akc_application_add_accels_to_popover:
 * @popover: a popover of one of the application's windows
 *
 * Gives @popover the application's keys (those of
 * akc_application_add_accels()). While a popover is open it has the
 * keyboard, and GTK 4.8 hands its keys to the popover's widgets only, not
 * to its window, whose controller holds the application's keys: a menu
 * answers the keys of its own items (Ctrl+, for Preferences), but Ctrl+Q,
 * Ctrl+F and the others did nothing while a menu was open. A key a
 * popover's own widgets handle stays theirs (the event goes no further).
 * Adding them twice to one popover adds them once.
 */
void
akc_application_add_accels_to_popover (GtkPopover *popover)
{
  GtkEventController *controller;

  g_return_if_fail (GTK_IS_POPOVER (popover));

  if (g_object_get_data (G_OBJECT (popover), "akc-application-accels") != NULL)
    return;

  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_name (controller, "akc-application-accels");
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    for (guint j = 0; accels[i].accels[j] != NULL; j++)
      {
        GtkShortcutTrigger *trigger = gtk_shortcut_trigger_parse_string (accels[i].accels[j]);

        g_assert (trigger != NULL);
        gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                              gtk_shortcut_new (trigger,
                                                                gtk_callback_action_new (activate_from_popover,
                                                                                         (gpointer) accels[i].action,
                                                                                         NULL)));
      }
  gtk_widget_add_controller (GTK_WIDGET (popover), controller);
  g_object_set_data (G_OBJECT (popover), "akc-application-accels", controller);
}

static void
akc_application_startup (GApplication *app)
{
  AkcApplication *self = AKC_APPLICATION (app);

  G_APPLICATION_CLASS (akc_application_parent_class)->startup (app);

  /* The application's styles, which AdwApplication would have loaded
   * from the resource base path (see akc_application_constructed()). */
  {
    g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (provider, "/io/agentskit/Chat/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

  /* The history of conversations, opened off the main thread after the
   * first window's first frame (see akc_application_activate()): the
   * windows wait for its list of conversations. */
  akc_app_session_expect_memory (akc_application_get_session (self));

  g_unix_signal_add (SIGTERM, on_quit_signal, app);
  g_unix_signal_add (SIGINT, on_quit_signal, app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  akc_application_add_accels (GTK_APPLICATION (app));

  /* The main menu offers the Developer Tools once the preferences turn
   * them on (hidden while this action is disabled); Ctrl+Shift+D opens
   * them either way. */
  {
    g_autoptr(GSimpleAction) menu_action = g_simple_action_new ("developer-tools-menu", NULL);

    g_signal_connect (menu_action, "activate", G_CALLBACK (developer_tools_action), app);
    g_settings_bind (akc_app_session_get_settings (akc_application_get_session (AKC_APPLICATION (app))),
                     "developer-tools", menu_action, "enabled", G_SETTINGS_BIND_GET);
    g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (menu_action));
  }
}

static gboolean
on_history_close_timeout (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;

  return G_SOURCE_REMOVE;
}

static void
akc_application_shutdown (GApplication *app)
{
  AkcApplication *self = AKC_APPLICATION (app);
  GList *windows;

  g_cancellable_cancel (self->memory_cancellable);

  /* Closing the windows hands their last changes to the history. */
  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))) != NULL)
    gtk_window_destroy (windows->data);

  /* Deleted conversations whose undo was still offered go now; every
   * conversation hands its last changes over. */
  if (self->session != NULL)
    akc_app_session_close (self->session);

  /* The history writes them on its own thread, then closes the database
   * when its last operation is done: wait for that, not forever. */
  if (self->memory != NULL)
    {
      GObject *memory = G_OBJECT (self->memory);
      gboolean timed_out = FALSE;
      guint timeout;

      g_object_add_weak_pointer (memory, (gpointer *) &memory);
      g_clear_object (&self->memory);
      timeout = g_timeout_add (HISTORY_CLOSE_TIMEOUT_MS, on_history_close_timeout, &timed_out);
      while (memory != NULL && !timed_out)
        g_main_context_iteration (NULL, TRUE);
      if (memory != NULL)
        g_object_remove_weak_pointer (memory, (gpointer *) &memory);
      if (!timed_out)
        g_source_remove (timeout);
    }

  G_APPLICATION_CLASS (akc_application_parent_class)->shutdown (app);
}

static void
akc_application_constructed (GObject *object)
{
  G_OBJECT_CLASS (akc_application_parent_class)->constructed (object);

  /* No resource base path (GApplication makes one of the application's
   * ID): with one, GtkApplication's start-up adds its icons folder to the
   * display's icon theme, which starts reading the theme on a thread, and
   * libadwaita then adds its own folder, which throws that reading away;
   * the theme was read a second time on the main thread before the first
   * frame. The application's icons are where GTK's icon theme looks
   * already (see the gresource file), and its styles are loaded in
   * akc_application_startup(). */
  g_application_set_resource_base_path (G_APPLICATION (object), NULL);
}

static void
akc_application_finalize (GObject *object)
{
  AkcApplication *self = (AkcApplication *)object;

  g_clear_object (&self->session);
  g_clear_object (&self->memory);
  g_clear_object (&self->memory_cancellable);
  g_clear_pointer (&self->start_demo, g_free);

  G_OBJECT_CLASS (akc_application_parent_class)->finalize (object);
}

static void
akc_application_class_init (AkcApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->constructed = akc_application_constructed;
  object_class->finalize = akc_application_finalize;

  app_class->activate = akc_application_activate;
  app_class->handle_local_options = akc_application_handle_local_options;
  app_class->startup = akc_application_startup;
  app_class->shutdown = akc_application_shutdown;
}

static void
akc_application_init (AkcApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "gallery", 0,
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Show the gallery of the standard components"), NULL);
  g_application_add_main_option (G_APPLICATION (self), "demo", 0,
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING,
                                 _("Show a conversation: the offline demo hello-world, support, onboarding, operations or rag, or ask (the Ask service) or turn (the turn server)"),
                                 _("DEMO"));
}

/* Whether @flags (GDK_DEBUG's value) names @flag. */
static gboolean
debug_flags_hold (const char *flags,
                  const char *flag)
{
  g_auto(GStrv) names = g_strsplit_set (flags, ",:; ", -1);

  for (guint i = 0; names[i] != NULL; i++)
    if (g_ascii_strcasecmp (names[i], flag) == 0)
      return TRUE;
  return FALSE;
}

/**
 * akc_application_choose_gl:
 *
 * With the cairo renderer chosen (GSK_RENDERER=cairo), nothing the
 * application shows draws with OpenGL, but GDK 4.8 on X11 still sets up
 * OpenGL when it opens the display, to choose the windows' visual among
 * its configurations: Mesa's driver is loaded and, without a GPU, LLVM
 * with it, which is more than half the process's resident memory
 * (102.8 MiB idle against 44.7 MiB without it, 45 ms more to the first
 * frame). GDK_DEBUG's gl-disable, read when GTK starts, tells GDK not to;
 * it is set only when the renderer is cairo (the flags already there are
 * kept), and so is handed to the processes this one starts with
 * GSK_RENDERER itself.
 *
 * Call it before GTK starts and before any thread does:
 * akc_application_new() does; a program that makes the application's
 * windows without it (a bench) calls it itself.
 */
void
akc_application_choose_gl (void)
{
  const char *renderer = g_getenv ("GSK_RENDERER");
  const char *debug = g_getenv ("GDK_DEBUG");
  g_autofree char *value = NULL;

  if (renderer == NULL || g_ascii_strcasecmp (renderer, "cairo") != 0)
    return;
  if (debug != NULL && debug_flags_hold (debug, "gl-disable"))
    return;

  value = debug != NULL && *debug != '\0' ? g_strconcat (debug, ",gl-disable", NULL) : g_strdup ("gl-disable");
  g_setenv ("GDK_DEBUG", value, TRUE);
}

AkcApplication *
akc_application_new (void)
{
  /* Before GTK starts, and before any thread does. */
  akc_application_choose_gl ();

#if defined (__GLIBC__) && defined (M_ARENA_MAX)
  /* One malloc arena for every thread, made before any thread is: glibc
   * gives each thread that allocates while another holds the lock an
   * arena of its own (up to 8 per core), and each keeps the pages it
   * once used and the fragments between its blocks. This process's
   * threads (GLib's, the history's worker, GTK's loaders, Mesa's) allocate
   * little and seldom, while the main thread does the work; malloc's
   * per-thread caches spare them most of the lock. */
  mallopt (M_ARENA_MAX, 1);
#endif

  return g_object_new (AKC_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       NULL);
}

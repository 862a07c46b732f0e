/* akc-application.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n.h>

#include "akc-application.h"
#include "akc-gallery-window.h"
#include "akc-window.h"

struct _AkcApplication
{
  AdwApplication parent_instance;

  gboolean       show_gallery;   /* --gallery */
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

  gtk_window_present (window);
}

static int
akc_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  g_autoptr(GError) error = NULL;

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
gallery_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  present_gallery (G_APPLICATION (user_data));
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
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GList *windows = gtk_application_get_windows (app);

  /* Close windows first so they save their state. */
  while (windows != NULL)
    {
      GtkWindow *window = windows->data;

      windows = windows->next;
      gtk_window_close (window);
    }

  g_application_quit (G_APPLICATION (app));
}

static const GActionEntry app_actions[] = {
  { .name = "about", .activate = about_action },
  { .name = "gallery", .activate = gallery_action },
  { .name = "quit", .activate = quit_action },
};

static void
akc_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *help_accels[] = { "<Control>question", NULL };

  G_APPLICATION_CLASS (akc_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay", help_accels);
}

static void
akc_application_class_init (AkcApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = akc_application_activate;
  app_class->handle_local_options = akc_application_handle_local_options;
  app_class->startup = akc_application_startup;
}

static void
akc_application_init (AkcApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "gallery", 0,
                                 G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 _("Show the gallery of the standard components"), NULL);
}

AkcApplication *
akc_application_new (void)
{
  return g_object_new (AKC_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/agentskit/Chat",
                       NULL);
}

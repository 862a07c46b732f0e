/* test-startup.c: the application's start-up (issue 18 item 6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <akc-gtk.h>

#include "akc-test-ui.h"

#include "akc-application.h"

typedef struct {
  AkcApplication *app;
  GtkWidget      *window;
  gboolean        painted;
  gboolean        ready_at_first_frame;
  gboolean        history_at_first_frame;
  gboolean        ready_later;
  gboolean        source_view_when_ready;
  guint           timeout;
} Start;

/* Whether a file whose name holds @name is mapped into the process. */
static gboolean
maps_hold (const char *name)
{
  g_autofree char *maps = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, name) != NULL;
}

static void
on_after_paint (GdkFrameClock *clock,
                Start         *start)
{
  AkcAppSession *session = akc_application_get_session (start->app);

  g_signal_handlers_disconnect_by_func (clock, on_after_paint, start);
  start->painted = TRUE;
  start->ready_at_first_frame = akc_app_session_get_ready (session);
  start->history_at_first_frame = akc_app_session_get_memory (session) != NULL;
}

static void
on_realize (GtkWidget *window,
            Start     *start)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_after_paint), start);
}

static void
on_ready (AkcAppSession *session,
          GParamSpec    *pspec,
          Start         *start)
{
  if (!start->painted || !akc_app_session_get_ready (session))
    return;

  start->ready_later = TRUE;
  start->source_view_when_ready = maps_hold ("libgtksourceview-5");
  g_action_group_activate_action (G_ACTION_GROUP (start->app), "quit", NULL);
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow      *window,
                 Start          *start)
{
  if (start->window != NULL)
    return;

  start->window = GTK_WIDGET (window);
  g_assert_false (gtk_widget_get_realized (start->window));
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), start);
  g_signal_connect (akc_application_get_session (start->app), "notify::ready", G_CALLBACK (on_ready), start);
}

static gboolean
on_timeout (gpointer user_data)
{
  Start *start = user_data;

  start->timeout = 0;
  g_application_quit (G_APPLICATION (start->app));
  return G_SOURCE_REMOVE;
}

/* Runs @app until it quits (or 60 s pass), @on_added connected to its
 * "window-added" with @start; it must exit with 0. */
static void
run_app (AkcApplication *app,
         Start          *start,
         GCallback       on_added)
{
  const char *argv[] = { "agentskit-chat", NULL };
  int status;

  start->app = app;
  /* Under a bus other tests may use: never hand over to another copy. */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", on_added, start);
  start->timeout = g_timeout_add_seconds (60, on_timeout, start);

  status = g_application_run (G_APPLICATION (app), 1, (char **) argv);
  g_clear_handle_id (&start->timeout, g_source_remove);

  g_assert_cmpint (status, ==, 0);
}

/* The first frame does not wait for the history: it is opened after it,
 * and its conversations are listed then. */
static void
test_history_after_first_frame (void)
{
  g_autoptr(AkcApplication) app = akc_application_new ();
  Start start = { 0 };

  run_app (app, &start, G_CALLBACK (on_window_added));
  g_assert_true (start.painted);
  g_assert_false (start.history_at_first_frame);
  g_assert_false (start.ready_at_first_frame);
  /* And then it is opened. */
  g_assert_true (start.ready_later);
}

/* GtkSourceView is not loaded while no code block is shown (the started
 * application shows none), and is with the first one, which it
 * highlights. */
static void
test_source_view_with_first_code_block (void)
{
  g_autoptr(AkcApplication) app = akc_application_new ();
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(GtkWidget) row = NULL;
  Start start = { 0 };

  run_app (app, &start, G_CALLBACK (on_window_added));
  g_assert_true (start.ready_later);
  g_assert_false (start.source_view_when_ready);
  g_assert_false (maps_hold ("libgtksourceview-5"));

  /* A reply with a code block. */
  message = akc_message_new ("m1", AKC_MESSAGE_ROLE_ASSISTANT, "Here:\n\n```python\nx = 1\n```\n",
                             AKC_MESSAGE_STATUS_COMPLETE);
  row = g_object_ref_sink (akc_message_row_new ());
  akc_message_row_set_message (AKC_MESSAGE_ROW (row), message);
  g_assert_true (maps_hold ("libgtksourceview-5"));
}

static void
check_icons_and_styles (GdkFrameClock *clock,
                        Start         *start)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (start->window));
  g_auto(GStrv) resource_path = gtk_icon_theme_get_resource_path (theme);
  g_autoptr(GtkWidget) notice = g_object_ref_sink (gtk_label_new ("notice"));
  GtkBorder padding;

  g_signal_handlers_disconnect_by_func (clock, check_icons_and_styles, start);
  start->painted = TRUE;

  /* The application's icons are in the display's icon theme... */
  g_assert_true (gtk_icon_theme_has_icon (theme, "io.agentskit.Chat"));
  g_assert_true (gtk_icon_theme_has_icon (theme, "io.agentskit.Chat-symbolic"));
  /* ...without a resource folder of its own: adding one after
   * libadwaita's made GTK read the theme again. */
  for (guint i = 0; resource_path[i] != NULL; i++)
    g_assert_false (g_str_has_prefix (resource_path[i], "/io/agentskit/"));

  /* Its stylesheet is loaded: an error area has its padding. */
  gtk_widget_add_css_class (notice, "error-area");
  gtk_widget_set_parent (notice, start->window);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_padding (gtk_widget_get_style_context (notice), &padding);
  G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_widget_unparent (notice);
  g_assert_cmpint (padding.top, ==, 8);
  g_assert_cmpint (padding.left, ==, 12);

  g_action_group_activate_action (G_ACTION_GROUP (start->app), "quit", NULL);
}

static void
on_realize_check (GtkWidget *window,
                  Start     *start)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (check_icons_and_styles), start);
}

static void
on_window_added_check (GtkApplication *app,
                       GtkWindow      *window,
                       Start          *start)
{
  if (start->window != NULL)
    return;

  start->window = GTK_WIDGET (window);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize_check), start);
}

/* The application's own icons and styles are there at its first frame,
 * though it gives GtkApplication no resource base path. */
static void
test_icons_and_styles (void)
{
  g_autoptr(AkcApplication) app = akc_application_new ();
  Start start = { 0 };

  run_app (app, &start, G_CALLBACK (on_window_added_check));
  g_assert_true (start.painted);
}

static void
quit_from_about (GdkFrameClock *clock,
                 Start         *start)
{
  GtkApplication *app = GTK_APPLICATION (start->app);
  GtkWindow *about = NULL;

  g_signal_handlers_disconnect_by_func (clock, quit_from_about, start);
  start->painted = TRUE;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (ADW_IS_ABOUT_WINDOW (l->data))
      about = l->data;

  /* Ctrl+Q in the About window: the application's accel, and its action
   * reached from there. */
  start->ready_later = about != NULL &&
                       gtk_window_get_transient_for (about) == GTK_WINDOW (start->window) &&
                       gtk_widget_activate_action (GTK_WIDGET (about), "app.quit", NULL);
  if (!start->ready_later)
    g_application_quit (G_APPLICATION (app));
}

static void
on_realize_about (GtkWidget *window,
                  Start     *start)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (quit_from_about), start);
}

static void
on_window_added_about (GtkApplication *app,
                       GtkWindow      *window,
                       Start          *start)
{
  if (start->window != NULL)
    return;

  start->window = GTK_WIDGET (window);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize_about), start);
}

/* The About window is one of the application's: Ctrl+Q there quits (it
 * did nothing), and the application ends with it open. */
static void
test_about_keys (void)
{
  g_autoptr(AkcApplication) app = akc_application_new ();
  Start start = { 0 };

  run_app (app, &start, G_CALLBACK (on_window_added_about));
  g_assert_true (start.painted);
  g_assert_true (start.ready_later);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = akc_test_use_fresh_profile ("akc-test-startup");
  int status;

  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/startup/history-after-first-frame", test_history_after_first_frame);
  g_test_add_func ("/startup/icons-and-styles", test_icons_and_styles);
  g_test_add_func ("/startup/source-view-with-first-code-block", test_source_view_with_first_code_block);
  g_test_add_func ("/startup/about-keys", test_about_keys);

  status = g_test_run ();
  akc_test_remove_tree (home);
  return status;
}

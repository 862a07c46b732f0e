/* test-startup-cairo.c: the application started with the cairo renderer
 * sets no OpenGL up (issue 18 item 6)
 *
 * SPDX-License-Identifier: MIT
 *
 * GTK is not started before the application is made, as in main.c: the
 * choice is read when GTK starts. (test-startup starts GTK first, with
 * gtk_test_init(), so it cannot see it.)
 */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "akc-test.h"

#include "akc-application.h"

typedef struct {
  AkcApplication *app;
  gboolean        painted;
  gboolean        gl_mapped;
  char           *renderer;
  guint           timeout;
} Start;

/* The libraries OpenGL's set-up loads: GLVND's vendor libraries and
 * Mesa's drivers (with LLVM, for software rendering). GTK links only
 * libepoxy, which loads them when OpenGL is first used. */
static gboolean
gl_is_mapped (void)
{
  const char *names[] = { "libEGL_mesa", "libGLX_mesa", "_dri.so", "libLLVM", NULL };
  g_autofree char *maps = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  for (guint i = 0; names[i] != NULL; i++)
    if (strstr (maps, names[i]) != NULL)
      {
        g_test_message ("%s is mapped", names[i]);
        return TRUE;
      }
  return FALSE;
}

static void
on_after_paint (GdkFrameClock *clock,
                Start         *start)
{
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, start);
  start->painted = TRUE;
  start->gl_mapped = gl_is_mapped ();
  g_action_group_activate_action (G_ACTION_GROUP (start->app), "quit", NULL);
}

static void
on_realize (GtkWidget *window,
            Start     *start)
{
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  start->renderer = g_strdup (G_OBJECT_TYPE_NAME (renderer));
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_after_paint), start);
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow      *window,
                 Start          *start)
{
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), start);
}

static gboolean
on_timeout (gpointer user_data)
{
  Start *start = user_data;

  start->timeout = 0;
  g_application_quit (G_APPLICATION (start->app));
  return G_SOURCE_REMOVE;
}

/* Started with GSK_RENDERER=cairo (as every UI test is), the application
 * draws its first frame with cairo, and no OpenGL library is loaded then:
 * without GDK_DEBUG's gl-disable, GDK 4.8 sets OpenGL up when it opens an
 * X display, whatever the renderer. */
static void
test_cairo_without_gl (void)
{
  const char *argv[] = { "agentskit-chat", NULL };
  g_autoptr(AkcApplication) app = NULL;
  Start start = { 0 };
  int status;

  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
  g_assert_false (gl_is_mapped ());

  g_unsetenv ("GDK_DEBUG");
  app = akc_application_new ();
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "gl-disable");

  start.app = app;
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), &start);
  start.timeout = g_timeout_add_seconds (60, on_timeout, &start);
  status = g_application_run (G_APPLICATION (app), 1, (char **) argv);
  g_clear_handle_id (&start.timeout, g_source_remove);

  g_assert_cmpint (status, ==, 0);
  g_assert_true (start.painted);
  g_assert_cmpstr (start.renderer, ==, "GskCairoRenderer");
  g_assert_false (start.gl_mapped);
  g_free (start.renderer);
}

/* GDK_DEBUG's other flags are kept, and gl-disable is added once. */
static void
test_debug_flags_kept (void)
{
  g_autoptr(AkcApplication) first = NULL;
  g_autoptr(AkcApplication) second = NULL;
  g_autofree char *saved = g_strdup (g_getenv ("GDK_DEBUG"));

  g_setenv ("GDK_DEBUG", "misc", TRUE);
  first = akc_application_new ();
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "misc,gl-disable");
  second = akc_application_new ();
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "misc,gl-disable");

  /* Another renderer chosen: nothing is set. */
  g_setenv ("GSK_RENDERER", "gl", TRUE);
  g_setenv ("GDK_DEBUG", "misc", TRUE);
  g_clear_object (&first);
  first = akc_application_new ();
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "misc");

  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  if (saved != NULL)
    g_setenv ("GDK_DEBUG", saved, TRUE);
  else
    g_unsetenv ("GDK_DEBUG");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = akc_test_use_fresh_profile ("akc-test-startup-cairo");
  int status;

  /* Not gtk_test_init(): GTK starts with the application. */
  g_test_init (&argc, &argv, NULL);

  /* The first case starts GTK, so it runs first. */
  g_test_add_func ("/startup-cairo/without-gl", test_cairo_without_gl);
  g_test_add_func ("/startup-cairo/debug-flags-kept", test_debug_flags_kept);

  status = g_test_run ();
  akc_test_remove_tree (home);
  return status;
}

/* akc-test-ui.c: what the in-process UI tests share
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc-test-ui.h"

#include <glib/gstdio.h>

/* Runs the main loop until @condition holds; a hang fails the test. */
void
wait_for (Condition condition,
          gpointer  data)
{
  gint64 deadline = g_get_monotonic_time () + AKC_TEST_WAIT_TIMEOUT_USEC;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the condition did not hold within %d s",
                 (int) (AKC_TEST_WAIT_TIMEOUT_USEC / G_USEC_PER_SEC));
      /* Replies arrive from idle and timeout sources, rows at the next
       * frames: sleep only when nothing was ready. */
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

/* Runs what is ready on the main loop now, a few rounds. */
void
spin (void)
{
  for (guint i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

typedef struct {
  GtkWidget *widget;
  gint64     target;
} FrameWait;

static gboolean
frames_passed (FrameWait *wait)
{
  GdkFrameClock *clock;

  if (!gtk_widget_get_mapped (wait->widget))
    return FALSE;
  clock = gtk_widget_get_frame_clock (wait->widget);
  if (wait->target < 0)
    wait->target = gdk_frame_clock_get_frame_counter (clock) - wait->target;
  if (gdk_frame_clock_get_frame_counter (clock) >= wait->target)
    return TRUE;
  gtk_widget_queue_draw (wait->widget);
  return FALSE;
}

/* Waits until @widget is mapped and its window has drawn @n more frames. */
void
wait_frames (GtkWidget *widget,
             guint      n)
{
  FrameWait wait = { widget, -(gint64) n };

  WAIT_FOR (frames_passed, &wait);
}

static gboolean
is_not_streaming (AkcChatSource *source)
{
  return akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING;
}

/* Waits until @source's reply has ended (idle or failed), then lets rows
 * pick up the last chunks. */
void
wait_until_idle (AkcChatSource *source)
{
  WAIT_FOR (is_not_streaming, source);
}

/* Adds @root and every widget below it that @match takes to @found, in
 * tree order. */
void
collect (GtkWidget     *root,
         WidgetMatch    match,
         gconstpointer  data,
         GPtrArray     *found)
{
  if (match (root, data))
    g_ptr_array_add (found, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, match, data, found);
}

GPtrArray *
find_all (GtkWidget     *root,
          WidgetMatch    match,
          gconstpointer  data)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (root, match, data, found);
  return found;
}

/* The first widget in tree order that @match takes, or NULL. */
GtkWidget *
find_widget (GtkWidget     *root,
             WidgetMatch    match,
             gconstpointer  data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

typedef struct {
  GtkWidget     *root;
  WidgetMatch    match;
  gconstpointer  data;
} Search;

static gboolean
is_found (Search *search)
{
  return find_widget (search->root, search->match, search->data) != NULL;
}

/* Waits until a widget that @match takes is in the tree, and returns it. */
GtkWidget *
wait_for_widget (GtkWidget     *root,
                 WidgetMatch    match,
                 gconstpointer  data)
{
  Search search = { root, match, data };

  WAIT_FOR (is_found, &search);
  return find_widget (root, match, data);
}

/* @data: a GType, as GSIZE_TO_POINTER (type) */
gboolean
is_type (GtkWidget     *widget,
         gconstpointer  data)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (data));
}

gboolean
is_label_with_text (GtkWidget     *widget,
                    gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), data) == 0;
}

/* A label that reads @data, visible with all its ancestors. */
gboolean
is_visible_label (GtkWidget     *widget,
                  gconstpointer  data)
{
  return is_label_with_text (widget, data) && gtk_widget_is_visible (widget);
}

/* A visible label whose text begins with @data. */
gboolean
is_label_with_prefix (GtkWidget     *widget,
                      gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
         g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), data);
}

/* A button whose label is @data. */
gboolean
is_button_with_label (GtkWidget     *widget,
                      gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), data) == 0;
}

/* A button whose tooltip is @data. */
gboolean
is_button_with_tooltip (GtkWidget     *widget,
                        gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), data) == 0;
}

/* A widget whose name (gtk_widget_set_name()) is @data. */
gboolean
is_named (GtkWidget     *widget,
          gconstpointer  data)
{
  return g_strcmp0 (gtk_widget_get_name (widget), data) == 0;
}

/* A widget with the CSS class @data. */
gboolean
has_css_class (GtkWidget     *widget,
               gconstpointer  data)
{
  return gtk_widget_has_css_class (widget, data);
}

/* A mapped widget of a type; @data: the GType, as GSIZE_TO_POINTER (type). */
gboolean
is_mapped_type (GtkWidget     *widget,
                gconstpointer  data)
{
  return is_type (widget, data) && gtk_widget_get_mapped (widget);
}

/* The first widget of @type below @root; there must be one. */
GtkWidget *
find_by_type (GtkWidget *root,
              GType      type)
{
  GtkWidget *widget = find_widget (root, is_type, GSIZE_TO_POINTER (type));

  g_assert_nonnull (widget);
  return widget;
}

/* Removes @path and everything in it (a test's temporary folder: a
 * history leaves its -wal and -shm files next to it). Symbolic links are
 * removed, never followed. */
void
akc_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (path == NULL)
    return;

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        akc_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* akc-test-ui.c: what the in-process UI tests share
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc-test-ui.h"

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

static GtkWidget *
find_skipping (GtkWidget     *root,
               WidgetMatch    match,
               gconstpointer  data,
               guint         *skip)
{
  if (match (root, data))
    {
      if (*skip == 0)
        return root;
      (*skip)--;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_skipping (child, match, data, skip);

      if (found != NULL)
        return found;
    }

  return NULL;
}

GtkWidget *
find_nth_widget (GtkWidget     *root,
                 WidgetMatch    match,
                 gconstpointer  data,
                 guint          nth)
{
  return find_skipping (root, match, data, &nth);
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

/* Keys, delivered the way GTK does: the key controllers from the focus
 * up to the window, then the window's shortcuts (local on the focus
 * chain, then those of global scope anywhere in the window). GTK 4 has
 * no public way to inject a key event in process; the AT-SPI tests type
 * real ones. */

/* A key trigger, or either of an alternative (GtkWindow's Tab and KP_Tab). */
static gboolean
trigger_matches (GtkShortcutTrigger *trigger,
                 guint               keyval,
                 GdkModifierType     state)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return trigger_matches (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval, state) ||
           trigger_matches (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval, state);

  return GTK_IS_KEYVAL_TRIGGER (trigger) &&
         gdk_keyval_to_lower (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger))) == gdk_keyval_to_lower (keyval) &&
         gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == state;
}

static gboolean
shortcut_matches (GtkShortcut     *shortcut,
                  guint            keyval,
                  GdkModifierType  state)
{
  return trigger_matches (gtk_shortcut_get_trigger (shortcut), keyval, state);
}

static gboolean
try_shortcuts (GtkWidget          *widget,
               GtkShortcutScope    scope,
               guint               keyval,
               GdkModifierType     state)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_shortcut_controller_get_scope (GTK_SHORTCUT_CONTROLLER (controller)) != scope)
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (shortcut_matches (shortcut, keyval, state) &&
              gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                            gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }

  return FALSE;
}

static gboolean
try_global_shortcuts (GtkWidget       *widget,
                      guint            keyval,
                      GdkModifierType  state)
{
  if (gtk_widget_get_mapped (widget) && try_shortcuts (widget, GTK_SHORTCUT_SCOPE_GLOBAL, keyval, state))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (try_global_shortcuts (child, keyval, state))
      return TRUE;

  return FALSE;
}

/* The accels of the window's application (gtk_application_set_accels_for_action()). */
static gboolean
try_accels (GtkWindow       *window,
            guint            keyval,
            GdkModifierType  state)
{
  GtkApplication *application = gtk_window_get_application (window);
  g_autofree char *accel = NULL;
  g_auto(GStrv) actions = NULL;

  if (application == NULL)
    return FALSE;

  accel = gtk_accelerator_name (keyval, state);
  actions = gtk_application_get_actions_for_accel (application, accel);
  for (guint i = 0; actions[i] != NULL; i++)
    if (gtk_widget_activate_action (GTK_WIDGET (window), actions[i], NULL))
      return TRUE;

  return FALSE;
}

gboolean
press_key (GtkWindow       *window,
           guint            keyval,
           GdkModifierType  state)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  for (GtkWidget *widget = focus; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
          gboolean handled = FALSE;

          if (!GTK_IS_EVENT_CONTROLLER_KEY (controller))
            continue;
          g_signal_emit_by_name (controller, "key-pressed", keyval, 0, state, &handled);
          if (handled)
            return TRUE;
        }

      if (try_shortcuts (widget, GTK_SHORTCUT_SCOPE_LOCAL, keyval, state))
        return TRUE;
    }

  return try_accels (window, keyval, state) || try_global_shortcuts (GTK_WIDGET (window), keyval, state);
}

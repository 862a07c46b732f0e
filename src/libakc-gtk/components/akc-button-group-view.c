/* akc-button-group-view.c: the `button-group` component (application §1.3, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A group named by its label, with the label shown as its legend and one
 * button per item. A click on an enabled button requests `select` with the
 * button's id. Variants are styling hints: `primary` is a suggested
 * action, `danger` a destructive one.
 *
 * CSS: `buttongroup.component`. Accessibility: role group, named by the
 * label; disabled buttons are insensitive (state disabled). */

#define AKC_TYPE_BUTTON_GROUP_VIEW (akc_button_group_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcButtonGroupView, akc_button_group_view, AKC, BUTTON_GROUP_VIEW, GtkWidget)

struct _AkcButtonGroupView
{
  GtkWidget  parent_instance;

  GtkLabel  *legend;
  GtkBox    *buttons;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcButtonGroupView, akc_button_group_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

/* Short rows of buttons sit side by side; longer ones are stacked. */
#define MAX_ROW_BUTTONS 4
#define MAX_ROW_CHARS   48

static void
akc_button_group_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_BUTTON_GROUP_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_button_group_view_parent_class)->dispose (object);
}

static void
akc_button_group_view_class_init (AkcButtonGroupViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_button_group_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-button-group-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcButtonGroupView, legend);
  gtk_widget_class_bind_template_child (widget_class, AkcButtonGroupView, buttons);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "buttongroup");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_button_group_view_init (AkcButtonGroupView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_button_group_view_new (AkcJsonValue *props)
{
  AkcButtonGroupView *self = g_object_new (AKC_TYPE_BUTTON_GROUP_VIEW, NULL);
  AkcJsonValue *buttons = akc_props_get_array (props, "buttons");
  const char *label = akc_props_get_string (props, "label");
  g_autoptr(GPtrArray) actions = g_ptr_array_new ();
  gsize n = akc_props_get_length (buttons);
  glong chars = 0;

  gtk_label_set_text (self->legend, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *item = akc_props_get_object_at (buttons, i);
      const char *text = akc_props_get_string (item, "label");
      const char *variant = akc_props_get_string (item, "variant");
      GtkWidget *button = gtk_button_new ();
      GtkWidget *child = akc_component_label_new (text, NULL);

      gtk_label_set_xalign (GTK_LABEL (child), 0.5);
      gtk_label_set_justify (GTK_LABEL (child), GTK_JUSTIFY_CENTER);
      gtk_button_set_child (GTK_BUTTON (button), child);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                      -1);
      if (g_strcmp0 (variant, "primary") == 0)
        gtk_widget_add_css_class (button, "suggested-action");
      else if (g_strcmp0 (variant, "danger") == 0)
        gtk_widget_add_css_class (button, "destructive-action");

      gtk_widget_set_sensitive (button, !akc_props_get_boolean (item, "disabled"));
      akc_component_connect_request (button, "select", akc_json_value_get_member (item, "id"));

      gtk_box_append (self->buttons, button);
      g_ptr_array_add (actions, button);
      chars += g_utf8_strlen (text != NULL ? text : "", -1);
    }

  if (n > MAX_ROW_BUTTONS || chars > MAX_ROW_CHARS)
    gtk_orientable_set_orientation (GTK_ORIENTABLE (self->buttons), GTK_ORIENTATION_VERTICAL);

  akc_component_set_actions (GTK_WIDGET (self), actions);

  return GTK_WIDGET (self);
}

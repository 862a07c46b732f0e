/* akc-confirmation-view.c: the `confirmation` component (application §1.6, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A section named by its title: a heading with the title, the message, and Cancel and Confirm buttons (GNOME order: the affirmative action last) that request `cancel` and `confirm`.
 * ↑/↓ and ←/→ move between the two buttons (clamped); Enter activates.
 *
 * CSS: `confirmation.component`. Accessibility: role group, named by the title
 * and described by the message. */

#define AKC_TYPE_CONFIRMATION_VIEW (akc_confirmation_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcConfirmationView, akc_confirmation_view, AKC, CONFIRMATION_VIEW, GtkWidget)

struct _AkcConfirmationView
{
  GtkWidget  parent_instance;

  GtkLabel  *heading;
  GtkLabel  *body;
  GtkButton *cancel_button;
  GtkButton *confirm_button;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcConfirmationView, akc_confirmation_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_confirmation_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_CONFIRMATION_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_confirmation_view_parent_class)->dispose (object);
}

static void
akc_confirmation_view_class_init (AkcConfirmationViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_confirmation_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-confirmation-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcConfirmationView, heading);
  gtk_widget_class_bind_template_child (widget_class, AkcConfirmationView, body);
  gtk_widget_class_bind_template_child (widget_class, AkcConfirmationView, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, AkcConfirmationView, confirm_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "confirmation");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_confirmation_view_init (AkcConfirmationView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_confirmation_view_new (AkcJsonValue *props)
{
  AkcConfirmationView *self = g_object_new (AKC_TYPE_CONFIRMATION_VIEW, NULL);
  const char *title = akc_props_get_string (props, "title");
  const char *body = akc_props_get_string (props, "message");
  g_autoptr(GPtrArray) actions = g_ptr_array_new ();

  gtk_label_set_text (self->heading, title);
  gtk_label_set_text (self->body, body);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, body,
                                  -1);

  gtk_button_set_label (self->cancel_button, akc_props_get_string (props, "cancelLabel"));
  gtk_button_set_label (self->confirm_button, akc_props_get_string (props, "confirmLabel"));
  akc_component_connect_request (GTK_WIDGET (self->cancel_button), "cancel", NULL);
  akc_component_connect_request (GTK_WIDGET (self->confirm_button), "confirm", NULL);

  g_ptr_array_add (actions, self->cancel_button);
  g_ptr_array_add (actions, self->confirm_button);
  akc_component_set_actions (GTK_WIDGET (self), actions);

  return GTK_WIDGET (self);
}

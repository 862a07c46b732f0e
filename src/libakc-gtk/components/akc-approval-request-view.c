/* akc-approval-request-view.c: the `approval-request` component (application §1.12, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A section named by its title: a heading with the title, the description, and Deny and Approve buttons (GNOME order: the affirmative action last) that request `deny` and `approve`. It only carries an intent: real side effects go through typed actions (§5).
 * ↑/↓ and ←/→ move between the two buttons (clamped); Enter activates.
 *
 * CSS: `approvalrequest.component`. Accessibility: role group, named by the title
 * and described by the description. */

#define AKC_TYPE_APPROVAL_REQUEST_VIEW (akc_approval_request_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcApprovalRequestView, akc_approval_request_view, AKC, APPROVAL_REQUEST_VIEW, GtkWidget)

struct _AkcApprovalRequestView
{
  GtkWidget  parent_instance;

  GtkLabel  *heading;
  GtkLabel  *body;
  GtkButton *deny_button;
  GtkButton *approve_button;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcApprovalRequestView, akc_approval_request_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_approval_request_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_APPROVAL_REQUEST_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_approval_request_view_parent_class)->dispose (object);
}

static void
akc_approval_request_view_class_init (AkcApprovalRequestViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_approval_request_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-approval-request-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcApprovalRequestView, heading);
  gtk_widget_class_bind_template_child (widget_class, AkcApprovalRequestView, body);
  gtk_widget_class_bind_template_child (widget_class, AkcApprovalRequestView, deny_button);
  gtk_widget_class_bind_template_child (widget_class, AkcApprovalRequestView, approve_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "approvalrequest");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_approval_request_view_init (AkcApprovalRequestView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_approval_request_view_new (AkcJsonValue *props)
{
  AkcApprovalRequestView *self = g_object_new (AKC_TYPE_APPROVAL_REQUEST_VIEW, NULL);
  const char *title = akc_props_get_string (props, "title");
  const char *body = akc_props_get_string (props, "description");
  g_autoptr(GPtrArray) actions = g_ptr_array_new ();

  gtk_label_set_text (self->heading, title);
  gtk_label_set_text (self->body, body);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, body,
                                  -1);

  gtk_button_set_label (self->deny_button, akc_props_get_string (props, "denyLabel"));
  gtk_button_set_label (self->approve_button, akc_props_get_string (props, "approveLabel"));
  akc_component_connect_request (GTK_WIDGET (self->deny_button), "deny", NULL);
  akc_component_connect_request (GTK_WIDGET (self->approve_button), "approve", NULL);

  g_ptr_array_add (actions, self->deny_button);
  g_ptr_array_add (actions, self->approve_button);
  akc_component_set_actions (GTK_WIDGET (self), actions);

  return GTK_WIDGET (self);
}

/* akc-error-notice-view.c: the `error-notice` component (application §1.10, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* An alert with the title, the message, the code (monospace, when it is
 * not empty) and, only when `retryLabel` is given, a retry button that
 * requests `retry`.
 *
 * CSS: `errornotice.component`. Accessibility: role alert, named by the
 * title and described by the message. */

#define AKC_TYPE_ERROR_NOTICE_VIEW (akc_error_notice_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcErrorNoticeView, akc_error_notice_view, AKC, ERROR_NOTICE_VIEW, GtkWidget)

struct _AkcErrorNoticeView
{
  GtkWidget  parent_instance;

  GtkLabel  *title;
  GtkLabel  *message;
  GtkLabel  *code;
  GtkButton *retry_button;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcErrorNoticeView, akc_error_notice_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_error_notice_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_ERROR_NOTICE_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_error_notice_view_parent_class)->dispose (object);
}

static void
akc_error_notice_view_class_init (AkcErrorNoticeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_error_notice_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-error-notice-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcErrorNoticeView, title);
  gtk_widget_class_bind_template_child (widget_class, AkcErrorNoticeView, message);
  gtk_widget_class_bind_template_child (widget_class, AkcErrorNoticeView, code);
  gtk_widget_class_bind_template_child (widget_class, AkcErrorNoticeView, retry_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "errornotice");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_ALERT);
}

static void
akc_error_notice_view_init (AkcErrorNoticeView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_error_notice_view_new (AkcJsonValue *props)
{
  AkcErrorNoticeView *self = g_object_new (AKC_TYPE_ERROR_NOTICE_VIEW, NULL);
  const char *title = akc_props_get_string (props, "title");
  const char *message = akc_props_get_string (props, "message");
  const char *code = akc_props_get_string (props, "code");
  const char *retry_label = akc_props_get_string (props, "retryLabel");
  g_autoptr(GPtrArray) actions = g_ptr_array_new ();

  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->message, message);
  gtk_label_set_text (self->code, code != NULL ? code : "");
  gtk_widget_set_visible (GTK_WIDGET (self->code), code != NULL && *code != '\0');
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message,
                                  -1);

  /* Retrying is declared only when the notice offers it (§1.10). */
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), retry_label != NULL);
  if (retry_label != NULL)
    {
      gtk_button_set_label (self->retry_button, retry_label);
      akc_component_connect_request (GTK_WIDGET (self->retry_button), "retry", NULL);
      g_ptr_array_add (actions, self->retry_button);
    }
  akc_component_set_actions (GTK_WIDGET (self), actions);

  return GTK_WIDGET (self);
}

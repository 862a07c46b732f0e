/* akc-progress-view.c: the `progress` component (application §1.7, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* The label, a progress bar (0–100, the current value, shown as text) and
 * the status text when there is one. Display only: it never owns input.
 *
 * CSS: `componentprogress.component`. Accessibility: the widget itself is
 * the progress bar (role progress-bar, named by the label, value min 0,
 * max 100, now, and the value text "42%"); the drawn GtkProgressBar is
 * presentation only, so the value is announced once. */

#define AKC_TYPE_PROGRESS_VIEW (akc_progress_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcProgressView, akc_progress_view, AKC, PROGRESS_VIEW, GtkWidget)

struct _AkcProgressView
{
  GtkWidget       parent_instance;

  GtkLabel       *label;
  GtkProgressBar *bar;
  GtkLabel       *status;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcProgressView, akc_progress_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_progress_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_PROGRESS_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_progress_view_parent_class)->dispose (object);
}

static void
akc_progress_view_class_init (AkcProgressViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_progress_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-progress-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcProgressView, label);
  gtk_widget_class_bind_template_child (widget_class, AkcProgressView, bar);
  gtk_widget_class_bind_template_child (widget_class, AkcProgressView, status);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "componentprogress");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_PROGRESS_BAR);
}

static void
akc_progress_view_init (AkcProgressView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_progress_view_new (AkcJsonValue *props)
{
  AkcProgressView *self = g_object_new (AKC_TYPE_PROGRESS_VIEW, NULL);
  const char *label = akc_props_get_string (props, "label");
  const char *status = akc_props_get_string (props, "status");
  g_autofree char *number = NULL;
  g_autofree char *value_text = NULL;
  double value = 0;

  akc_props_get_number (props, "value", &value);
  value = CLAMP (value, 0.0, 100.0);
  number = akc_component_format_number (value);
  /* Translators: a percentage; %s is the number, as in "42.5%" */
  value_text = g_strdup_printf (_("%s%%"), number);

  gtk_label_set_text (self->label, label);
  gtk_progress_bar_set_fraction (self->bar, value / 100.0);
  gtk_progress_bar_set_text (self->bar, value_text);
  gtk_label_set_text (self->status, status != NULL ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status), status != NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, 0.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, 100.0,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, value,
                                  GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, value_text,
                                  -1);
  if (status != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, status,
                                    -1);

  return GTK_WIDGET (self);
}

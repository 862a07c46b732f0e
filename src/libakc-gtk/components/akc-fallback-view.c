/* akc-fallback-view.c: the semantic fallback (application §12.5)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* Shows `[unsupported visual: «kind»] «summary»` as muted paragraph text
 * for a frame that cannot be rendered natively. It never emits events.
 *
 * CSS: `componentfallback`. Accessibility: role label, named by the text
 * (the drawn label is presentation only, so it is read once). */

#define AKC_TYPE_FALLBACK_VIEW (akc_fallback_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcFallbackView, akc_fallback_view, AKC, FALLBACK_VIEW, GtkWidget)

struct _AkcFallbackView
{
  GtkWidget  parent_instance;

  GtkLabel  *text;
};

G_DEFINE_FINAL_TYPE (AkcFallbackView, akc_fallback_view, GTK_TYPE_WIDGET)

static void
akc_fallback_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_FALLBACK_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_fallback_view_parent_class)->dispose (object);
}

static void
akc_fallback_view_class_init (AkcFallbackViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_fallback_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-fallback-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcFallbackView, text);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "componentfallback");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
akc_fallback_view_init (AkcFallbackView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_fallback_view_new (const char *text)
{
  AkcFallbackView *self = g_object_new (AKC_TYPE_FALLBACK_VIEW, NULL);

  gtk_label_set_text (self->text, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, text,
                                  -1);

  return GTK_WIDGET (self);
}

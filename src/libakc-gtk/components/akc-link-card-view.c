/* akc-link-card-view.c: the `link-card` component (application §1.9, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* One link, drawn as a card, holding the title (bold), the description and
 * the link text (`label`, or "Open"). Activating it requests `open` with
 * the href; a link card never navigates by itself (§12.7).
 *
 * It is a GtkButton, so Enter, Space, a click and the accessibility
 * "click" action all activate it, and it draws the focus ring.
 *
 * CSS: `linkcard.component.card`. Accessibility: role link, named by the
 * title and described by the description; the href is the tooltip. */

#define AKC_TYPE_LINK_CARD_VIEW (akc_link_card_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcLinkCardView, akc_link_card_view, AKC, LINK_CARD_VIEW, GtkButton)

struct _AkcLinkCardView
{
  GtkButton  parent_instance;

  GtkLabel  *title;
  GtkLabel  *description;
  GtkLabel  *link_text;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcLinkCardView, akc_link_card_view, GTK_TYPE_BUTTON,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_link_card_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_LINK_CARD_VIEW);

  G_OBJECT_CLASS (akc_link_card_view_parent_class)->dispose (object);
}

static void
akc_link_card_view_class_init (AkcLinkCardViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_link_card_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-link-card-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcLinkCardView, title);
  gtk_widget_class_bind_template_child (widget_class, AkcLinkCardView, description);
  gtk_widget_class_bind_template_child (widget_class, AkcLinkCardView, link_text);

  gtk_widget_class_set_css_name (widget_class, "linkcard");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LINK);
}

static void
akc_link_card_view_init (AkcLinkCardView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_link_card_view_new (AkcJsonValue *props)
{
  AkcLinkCardView *self = g_object_new (AKC_TYPE_LINK_CARD_VIEW, NULL);
  const char *title = akc_props_get_string (props, "title");
  const char *description = akc_props_get_string (props, "description");
  const char *label = akc_props_get_string (props, "label");
  const char *href = akc_props_get_string (props, "href");

  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->description, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description), description != NULL);
  gtk_label_set_text (self->link_text, label != NULL ? label : _("Open"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), href);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  -1);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);

  akc_component_connect_request (GTK_WIDGET (self), "open", akc_json_value_get_member (props, "href"));

  return GTK_WIDGET (self);
}

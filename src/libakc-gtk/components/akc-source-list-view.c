/* akc-source-list-view.c: the `source-list` component (application §1.8, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A heading with the label, then one list item per source: a link with
 * the title when the source has a url (plain text otherwise), and the
 * snippet. Activating a link requests `open` with the source id; whether
 * the URL is also opened is AkcComponentView's business (§12.7).
 *
 * Keys (§12.4): the actions are "Open «title»" for each source with a url;
 * ↑/↓ move between them (clamped) and Enter opens.
 *
 * CSS: `sourcelist.component`, items `.source`, links `button.link`.
 * Accessibility: role list named by the label; items are list items; a
 * linked title is a link named by the title, described by its URL. */

#define AKC_TYPE_SOURCE_LIST_VIEW (akc_source_list_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcSourceListView, akc_source_list_view, AKC, SOURCE_LIST_VIEW, GtkWidget)

struct _AkcSourceListView
{
  GtkWidget  parent_instance;

  GtkLabel  *heading;
  GtkBox    *items;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSourceListView, akc_source_list_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_source_list_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_SOURCE_LIST_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_source_list_view_parent_class)->dispose (object);
}

static void
akc_source_list_view_class_init (AkcSourceListViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_source_list_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-source-list-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcSourceListView, heading);
  gtk_widget_class_bind_template_child (widget_class, AkcSourceListView, items);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sourcelist");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LIST);
}

static void
akc_source_list_view_init (AkcSourceListView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

static GtkWidget *
source_item_new (AkcJsonValue *source,
                 GtkWidget   **link)
{
  const char *title = akc_props_get_string (source, "title");
  const char *url = akc_props_get_string (source, "url");
  const char *snippet = akc_props_get_string (source, "snippet");
  GtkWidget *item = g_object_new (GTK_TYPE_BOX,
                                  "orientation", GTK_ORIENTATION_VERTICAL,
                                  "spacing", 2,
                                  "accessible-role", GTK_ACCESSIBLE_ROLE_LIST_ITEM,
                                  NULL);

  gtk_widget_add_css_class (item, "source");
  gtk_accessible_update_property (GTK_ACCESSIBLE (item),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  -1);

  *link = NULL;
  if (url != NULL)
    {
      GtkWidget *button = g_object_new (GTK_TYPE_BUTTON,
                                        "accessible-role", GTK_ACCESSIBLE_ROLE_LINK,
                                        "halign", GTK_ALIGN_START,
                                        NULL);
      GtkWidget *label = akc_component_label_new (title, NULL);

      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_widget_add_css_class (button, "link");
      gtk_widget_set_tooltip_text (button, url);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, url,
                                      -1);
      akc_component_connect_request (button, "open", akc_json_value_get_member (source, "id"));
      gtk_box_append (GTK_BOX (item), button);
      *link = button;
    }
  else
    {
      gtk_box_append (GTK_BOX (item), akc_component_label_new (title, "title"));
    }

  if (snippet != NULL)
    {
      GtkWidget *label = akc_component_label_new (snippet, "snippet");

      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (item), label);
    }

  return item;
}

GtkWidget *
akc_source_list_view_new (AkcJsonValue *props)
{
  AkcSourceListView *self = g_object_new (AKC_TYPE_SOURCE_LIST_VIEW, NULL);
  AkcJsonValue *sources = akc_props_get_array (props, "sources");
  const char *label = akc_props_get_string (props, "label");
  g_autoptr(GPtrArray) actions = g_ptr_array_new ();
  gsize n = akc_props_get_length (sources);

  gtk_label_set_text (self->heading, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);

  for (gsize i = 0; i < n; i++)
    {
      GtkWidget *link = NULL;

      gtk_box_append (self->items, source_item_new (akc_props_get_object_at (sources, i), &link));
      if (link != NULL)
        g_ptr_array_add (actions, link);
    }

  akc_component_set_actions (GTK_WIDGET (self), actions);

  return GTK_WIDGET (self);
}

/* akc-file-attachment-view.c: the `file-attachment` component (application §1.14, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* The file name (bold), its MIME type, "«sizeBytes» bytes" when a size is
 * given, and an "Open" link when there is a url. Activating the link
 * requests `open` with the url; an attachment never navigates by itself
 * (§12.7).
 *
 * CSS: `fileattachment.component`. Accessibility: a group named by the
 * file name and described by its type and size; "Open" is a link (the
 * link role of §1.1 is on the element that opens). */

#define AKC_TYPE_FILE_ATTACHMENT_VIEW (akc_file_attachment_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcFileAttachmentView, akc_file_attachment_view, AKC, FILE_ATTACHMENT_VIEW, GtkWidget)

struct _AkcFileAttachmentView
{
  GtkWidget  parent_instance;

  GtkLabel  *name;
  GtkLabel  *details;
  GtkButton *open_button;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcFileAttachmentView, akc_file_attachment_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static void
akc_file_attachment_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_FILE_ATTACHMENT_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_file_attachment_view_parent_class)->dispose (object);
}

static void
akc_file_attachment_view_class_init (AkcFileAttachmentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_file_attachment_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-file-attachment-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcFileAttachmentView, name);
  gtk_widget_class_bind_template_child (widget_class, AkcFileAttachmentView, details);
  gtk_widget_class_bind_template_child (widget_class, AkcFileAttachmentView, open_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "fileattachment");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_file_attachment_view_init (AkcFileAttachmentView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_file_attachment_view_new (AkcJsonValue *props)
{
  AkcFileAttachmentView *self = g_object_new (AKC_TYPE_FILE_ATTACHMENT_VIEW, NULL);
  const char *name = akc_props_get_string (props, "name");
  const char *mime_type = akc_props_get_string (props, "mimeType");
  const char *url = akc_props_get_string (props, "url");
  g_autoptr(GPtrArray) actions = g_ptr_array_new ();
  g_autofree char *details = NULL;
  double size;

  if (akc_props_get_number (props, "sizeBytes", &size))
    {
      g_autofree char *number = akc_component_format_number (size);
      /* Translators: the size of a file, as in "1024 bytes"; always plural (§12.6) */
      g_autofree char *bytes = g_strdup_printf (_("%s bytes"), number);

      /* Translators: MIME type and size of a file, as in "application/pdf · 1024 bytes" */
      details = g_strdup_printf (_("%s · %s"), mime_type, bytes);
    }
  else
    {
      details = g_strdup (mime_type);
    }

  gtk_label_set_text (self->name, name);
  gtk_label_set_text (self->details, details);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, details,
                                  -1);

  /* Opening is declared only when there is a url (§1.14). */
  gtk_widget_set_visible (GTK_WIDGET (self->open_button), url != NULL);
  if (url != NULL)
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->open_button), url);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->open_button),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, url,
                                      -1);
      akc_component_connect_request (GTK_WIDGET (self->open_button), "open", akc_json_value_get_member (props, "url"));
      g_ptr_array_add (actions, self->open_button);
    }
  akc_component_set_actions (GTK_WIDGET (self), actions);

  return GTK_WIDGET (self);
}

/* akc-thinking-row.c: "Thinking..." below a reply that streams
 *
 * SPDX-License-Identifier: MIT
 *
 * A spinner and a dimmed label, with the status role and the name
 * "Thinking...". CSS: `box.thinking`.
 */

#include "config.h"

#include "akc-thinking-row-private.h"

struct _AkcThinkingRow
{
  GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE (AkcThinkingRow, akc_thinking_row, GTK_TYPE_WIDGET)

static void
akc_thinking_row_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_THINKING_ROW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_thinking_row_parent_class)->dispose (object);
}

static void
akc_thinking_row_class_init (AkcThinkingRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_thinking_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-thinking-row.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "box");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
akc_thinking_row_init (AkcThinkingRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 8);
}

GtkWidget *
akc_thinking_row_new (void)
{
  return g_object_new (AKC_TYPE_THINKING_ROW, NULL);
}

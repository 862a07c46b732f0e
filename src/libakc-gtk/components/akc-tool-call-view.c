/* akc-tool-call-view.c: the `tool-call` component (application §1.11, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A status region: the tool name, its status, and the arguments and the
 * result pretty-printed as JSON with 2-space indentation. Display only.
 *
 * CSS: `toolcall.component` with `.pending`, `.running`, `.complete` or
 * `.error`. Accessibility: role status, named by the tool name and
 * described by the status; busy while pending or running. */

#define AKC_TYPE_TOOL_CALL_VIEW (akc_tool_call_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcToolCallView, akc_tool_call_view, AKC, TOOL_CALL_VIEW, GtkWidget)

struct _AkcToolCallView
{
  GtkWidget  parent_instance;

  GtkLabel  *name;
  GtkLabel  *status;
  GtkWidget *arguments_box;
  GtkLabel  *arguments;
  GtkWidget *result_box;
  GtkLabel  *result;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcToolCallView, akc_tool_call_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

static const char *
status_text (const char *status)
{
  if (g_strcmp0 (status, "pending") == 0)
    return C_("tool call status", "Pending");
  if (g_strcmp0 (status, "running") == 0)
    return C_("tool call status", "Running");
  if (g_strcmp0 (status, "error") == 0)
    return C_("tool call status", "Error");
  return C_("tool call status", "Complete");
}

static void
akc_tool_call_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_TOOL_CALL_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_tool_call_view_parent_class)->dispose (object);
}

static void
akc_tool_call_view_class_init (AkcToolCallViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_tool_call_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-tool-call-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcToolCallView, name);
  gtk_widget_class_bind_template_child (widget_class, AkcToolCallView, status);
  gtk_widget_class_bind_template_child (widget_class, AkcToolCallView, arguments_box);
  gtk_widget_class_bind_template_child (widget_class, AkcToolCallView, arguments);
  gtk_widget_class_bind_template_child (widget_class, AkcToolCallView, result_box);
  gtk_widget_class_bind_template_child (widget_class, AkcToolCallView, result);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "toolcall");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
akc_tool_call_view_init (AkcToolCallView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
show_json (GtkWidget    *box,
           GtkLabel     *label,
           AkcJsonValue *value)
{
  g_autofree char *text = NULL;

  gtk_widget_set_visible (box, value != NULL);
  if (value == NULL)
    return;

  text = akc_component_format_json_pretty (value);
  gtk_label_set_text (label, text);
}

GtkWidget *
akc_tool_call_view_new (AkcJsonValue *props)
{
  AkcToolCallView *self = g_object_new (AKC_TYPE_TOOL_CALL_VIEW, NULL);
  const char *name = akc_props_get_string (props, "name");
  const char *status = akc_props_get_string (props, "status");
  const char *shown_status = status_text (status);
  gboolean busy = g_strcmp0 (status, "pending") == 0 || g_strcmp0 (status, "running") == 0;

  gtk_label_set_text (self->name, name);
  gtk_label_set_text (self->status, shown_status);
  if (status != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), status);

  show_json (self->arguments_box, self->arguments, akc_json_value_get_member (props, "arguments"));
  /* A `null` result is a result, and is shown. */
  show_json (self->result_box, self->result, akc_json_value_get_member (props, "result"));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, shown_status,
                                  -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self),
                               GTK_ACCESSIBLE_STATE_BUSY, busy,
                               -1);

  return GTK_WIDGET (self);
}

/* akc-response-actions.c: the response actions of a transcript, and the
 * inline editor of the last user message (application §12.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * The row below the last reply of an AkcChatView: Retry, Regenerate and
 * Edit Last Message as flat icon buttons with tooltips and accessible
 * names, or the inline editor with Cancel and Save. The buttons activate
 * the view's chat.* actions; the view reads the editor's text.
 *
 * CSS: `box.response-actions`, the editor in `frame.editor-frame`.
 * Accessibility: a group named "Response actions" or "Edit message".
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-response-actions-private.h"

struct _AkcResponseActions
{
  GtkWidget    parent_instance;

  GtkWidget   *buttons;
  GtkWidget   *retry_button;
  GtkWidget   *regenerate_button;
  GtkWidget   *edit_form;
  GtkTextView *editor;
  GtkWidget   *cancel_button;
  GtkWidget   *save_button;
};

G_DEFINE_FINAL_TYPE (AkcResponseActions, akc_response_actions, GTK_TYPE_WIDGET)

static void
akc_response_actions_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_RESPONSE_ACTIONS);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_response_actions_parent_class)->dispose (object);
}

static void
akc_response_actions_class_init (AkcResponseActionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_response_actions_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-response-actions.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, buttons);
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, retry_button);
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, regenerate_button);
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, edit_form);
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, editor);
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, AkcResponseActions, save_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "box");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_response_actions_init (AkcResponseActions *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* A mnemonic label also labels its button for assistive technologies,
   * which would read "Cancel edit Cancel": the buttons' names are their
   * accessible labels alone. */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->cancel_button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->save_button), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->editor),
                                  GTK_ACCESSIBLE_PROPERTY_MULTI_LINE, TRUE,
                                  -1);
}

/* The buttons: Retry only when the failure's alert does not offer it
 * already, Regenerate only when there is an answer to regenerate. */
GtkWidget *
akc_response_actions_new (gboolean retry,
                          gboolean regenerate)
{
  AkcResponseActions *self = g_object_new (AKC_TYPE_RESPONSE_ACTIONS, NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Response actions"),
                                  -1);
  gtk_widget_set_visible (self->retry_button, retry);
  gtk_widget_set_visible (self->regenerate_button, regenerate);
  gtk_widget_set_visible (self->edit_form, FALSE);

  return GTK_WIDGET (self);
}

/* The inline editor, holding @draft. */
GtkWidget *
akc_response_actions_new_editor (const char *draft)
{
  AkcResponseActions *self = g_object_new (AKC_TYPE_RESPONSE_ACTIONS, NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Edit message"),
                                  -1);
  gtk_widget_set_visible (self->buttons, FALSE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->editor), draft != NULL ? draft : "", -1);

  return GTK_WIDGET (self);
}

GtkTextView *
akc_response_actions_get_editor (AkcResponseActions *self)
{
  g_return_val_if_fail (AKC_IS_RESPONSE_ACTIONS (self), NULL);

  return gtk_widget_get_visible (self->edit_form) ? self->editor : NULL;
}

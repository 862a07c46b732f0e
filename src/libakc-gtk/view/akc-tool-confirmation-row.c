/* akc-tool-confirmation-row.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-gtk-main.h"
#include "akc-tool-confirmation-row-private.h"

/* A tool call that waits for the person (application §12.8), said for
 * people first (issue 13 item 8): the tool's title as heading (its name,
 * humanised, when it has none), a sentence (its description, or what
 * approving means), the arguments as labelled fields, and the tool's
 * name and its arguments as 2-space pretty JSON behind "Details".
 *
 * Deny is a plain button; Approve is the suggested action, or the
 * destructive one for a tool marked dangerous. Both activate the view's
 * `chat.deny` and `chat.approve` with the call's id.
 *
 * CSS: `box.tool-confirmation` as before, with `label.sentence`,
 * `grid.fields` and `expander` inside. Accessibility: a group named by the
 * question, described by the sentence. */

/* Arguments beyond this many are in the details only. */
#define MAX_FIELDS 8
/* A field's value is cut after this many characters (the details keep it
 * whole). */
#define MAX_VALUE_CHARS 240

struct _AkcToolConfirmationRow
{
  GtkWidget  parent_instance;

  GtkLabel  *heading;
  GtkLabel  *sentence;
  GtkGrid   *fields;
  GtkWidget *details;
  GtkLabel  *tool_name;
  GtkLabel  *json;
  GtkWidget *deny;
  GtkWidget *approve;

  char      *call_id;
};

G_DEFINE_FINAL_TYPE (AkcToolConfirmationRow, akc_tool_confirmation_row, GTK_TYPE_WIDGET)

static void
akc_tool_confirmation_row_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_TOOL_CONFIRMATION_ROW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (akc_tool_confirmation_row_parent_class)->dispose (object);
}

static void
akc_tool_confirmation_row_finalize (GObject *object)
{
  g_free (AKC_TOOL_CONFIRMATION_ROW (object)->call_id);

  G_OBJECT_CLASS (akc_tool_confirmation_row_parent_class)->finalize (object);
}

static void
akc_tool_confirmation_row_class_init (AkcToolConfirmationRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_tool_confirmation_row_dispose;
  object_class->finalize = akc_tool_confirmation_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-tool-confirmation-row.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, heading);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, sentence);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, fields);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, details);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, tool_name);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, json);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, deny);
  gtk_widget_class_bind_template_child (widget_class, AkcToolConfirmationRow, approve);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "box");
}

static void
akc_tool_confirmation_row_init (AkcToolConfirmationRow *self)
{
  GtkEventController *keys;

  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  /* Space and Enter open and close the Details. A GtkExpander leaves them
   * to the window, which activates the focus with them; in the
   * transcript the row of the list takes them first (to select it). */
  keys = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("space|Return|KP_Enter"),
                                                          gtk_signal_action_new ("activate")));
  gtk_widget_add_controller (self->details, keys);
}

char *
akc_tool_confirmation_humanize (const char *name)
{
  GString *text = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      char c = *p;

      if (c == '-' || c == '_' || c == '.')
        {
          if (text->len > 0 && text->str[text->len - 1] != ' ')
            g_string_append_c (text, ' ');
          continue;
        }

      /* camelCase: a word starts at each capital after a small letter. */
      if (g_ascii_isupper (c) && p > name && g_ascii_islower (p[-1]))
        {
          g_string_append_c (text, ' ');
          c = g_ascii_tolower (c);
        }

      g_string_append_c (text, text->len == 0 ? g_ascii_toupper (c) : c);
    }

  while (text->len > 0 && text->str[text->len - 1] == ' ')
    g_string_truncate (text, text->len - 1);

  return g_string_free (text, FALSE);
}

/* A field's value: a string as it is, anything else as compact JSON. */
static char *
field_text (AkcJsonValue *value)
{
  g_autofree char *text = NULL;

  if (akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING)
    text = g_strdup (akc_json_value_get_string (value, NULL));
  else
    text = akc_json_value_to_canonical (value, NULL);

  if (g_utf8_strlen (text, -1) > MAX_VALUE_CHARS)
    {
      char *end = g_utf8_offset_to_pointer (text, MAX_VALUE_CHARS);

      *end = '\0';
      return g_strconcat (text, "…", NULL);
    }

  return g_steal_pointer (&text);
}

static GtkWidget *
field_label (const char *text,
             const char *css_class,
             gboolean    value)
{
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL,
                                   "label", text,
                                   "xalign", 0.0f,
                                   "yalign", 0.0f,
                                   "wrap", value,
                                   "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                   "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                                   "selectable", value,
                                   "hexpand", value,
                                   NULL);

  gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
fill_fields (AkcToolConfirmationRow *self,
             AkcJsonValue           *arguments)
{
  gsize n = arguments != NULL && akc_json_value_get_kind (arguments) == AKC_JSON_KIND_OBJECT
            ? akc_json_value_get_member_count (arguments) : 0;
  guint row = 0;

  for (gsize i = 0; i < n && row < MAX_FIELDS; i++)
    {
      g_autofree char *name = akc_tool_confirmation_humanize (akc_json_value_get_member_name (arguments, i, NULL));
      g_autofree char *text = field_text (akc_json_value_get_member_value (arguments, i));
      GtkWidget *key = field_label (name, "dim-label", FALSE);
      GtkWidget *value = field_label (text, "field-value", TRUE);
      /* Translators: what a screen reader says of an argument of a tool
       * call waiting for approval, when Tab reaches it: the argument's
       * name and its value, such as "Priority: normal". */
      g_autofree char *spoken = g_strdup_printf (_("%s: %s"), name, text);

      /* Tab reaches the value (it is selectable, for copying), and says
       * which field it is. */
      gtk_accessible_update_property (GTK_ACCESSIBLE (value),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, spoken,
                                      -1);

      gtk_grid_attach (self->fields, key, 0, (int) row, 1, 1);
      gtk_grid_attach (self->fields, value, 1, (int) row, 1, 1);
      row++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->fields), row > 0);
}

/* The button Enter presses is marked for as long as it has the keyboard,
 * not only while GTK draws focus rings: GTK 4.8 hides them a few seconds
 * after the last key, and the confirmation of a chosen action takes the
 * keyboard by itself, on Deny. */
static void
on_button_focus_changed (GtkWidget *button)
{
  if (gtk_widget_has_focus (button))
    gtk_widget_add_css_class (button, "current");
  else
    gtk_widget_remove_css_class (button, "current");
}

GtkWidget *
akc_tool_confirmation_row_new (AkcToolCall *call,
                               AkcTool     *tool)
{
  AkcToolConfirmationRow *self;
  AkcJsonValue *arguments;
  g_autofree char *name = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *json = NULL;
  g_autofree char *tool_text = NULL;
  const char *title = NULL;
  const char *sentence = NULL;
  GVariant *target;

  g_return_val_if_fail (AKC_IS_TOOL_CALL (call), NULL);
  g_return_val_if_fail (tool == NULL || AKC_IS_TOOL (tool), NULL);

  self = g_object_new (AKC_TYPE_TOOL_CONFIRMATION_ROW, NULL);
  self->call_id = g_strdup (akc_tool_call_get_id (call));
  arguments = akc_tool_call_get_arguments (call);

  if (tool != NULL)
    {
      title = akc_tool_get_title (tool);
      sentence = akc_tool_get_description (tool);
    }

  if (title != NULL)
    heading = g_strdup (title);
  else
    {
      name = akc_tool_confirmation_humanize (akc_tool_call_get_name (call));
      /* Translators: the heading of a tool call that waits for the
       * person's approval, for a tool without a title; %s is the tool's
       * name made readable, such as "Create support ticket". */
      heading = g_strdup_printf (_("Allow the assistant to use “%s”?"), name);
    }
  if (sentence == NULL)
    sentence = _("Nothing happens until you approve it.");

  gtk_label_set_text (self->heading, heading);
  gtk_label_set_text (self->sentence, sentence);
  fill_fields (self, arguments);

  /* §12.8: the arguments as 2-space pretty JSON, verbatim, behind
   * Details. */
  json = arguments != NULL ? akc_component_dup_pretty_json (arguments) : g_strdup ("{}");
  gtk_label_set_text (self->json, json);
  /* Translators: in the details of a tool call; %s is the tool's name as
   * the model calls it. */
  tool_text = g_strdup_printf (_("Tool: %s"), akc_tool_call_get_name (call));
  gtk_label_set_text (self->tool_name, tool_text);

  target = g_variant_ref_sink (g_variant_new_string (self->call_id));
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->deny), target);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->approve), target);
  g_variant_unref (target);

  /* Named once: GTK 4.8 would append the text of the face and of the
   * mnemonic label ("Deny Deny"). */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->deny), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->approve), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->deny),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Deny"),
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->approve),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Approve"),
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->details),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Details"),
                                  -1);

  g_signal_connect (self->deny, "notify::has-focus", G_CALLBACK (on_button_focus_changed), NULL);
  g_signal_connect (self->approve, "notify::has-focus", G_CALLBACK (on_button_focus_changed), NULL);

  /* Only an action that cannot be undone looks destructive. */
  gtk_widget_add_css_class (self->approve,
                            tool != NULL && akc_tool_get_dangerous (tool) ? "destructive-action" : "suggested-action");

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, heading,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence,
                                  -1);

  return GTK_WIDGET (self);
}

const char *
akc_tool_confirmation_row_get_call_id (AkcToolConfirmationRow *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CONFIRMATION_ROW (self), NULL);

  return self->call_id;
}

GtkWidget *
akc_tool_confirmation_row_get_deny (AkcToolConfirmationRow *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CONFIRMATION_ROW (self), NULL);

  return self->deny;
}

GtkWidget *
akc_tool_confirmation_row_get_approve (AkcToolConfirmationRow *self)
{
  g_return_val_if_fail (AKC_IS_TOOL_CONFIRMATION_ROW (self), NULL);

  return self->approve;
}

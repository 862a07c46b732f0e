/* akc-message-row-outcomes.c: what a message row shows, as renderer
 * outcomes (application.md §10.3)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-component-view.h"
#include "akc-markdown-view-private.h"
#include "akc-message-row.h"

/* Read off the row's widgets, not its message: the outcomes are what the
 * GTK renderer decided to show (which runs became bubbles, which frames
 * became component views and which fell back, which content was refused
 * with a diagnostic), so that a parity test compares its decisions with
 * another renderer's. */

/* The text of the first label in @widget's tree: a fallback view's. */
static const char *
first_label_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_text (GTK_LABEL (widget));

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *text = first_label_text (child);

      if (text != NULL)
        return text;
    }

  return NULL;
}

typedef struct
{
  GString   *text;
  GPtrArray *components;  /* AkcJsonValue {key, instanceId, resolved} */
  GPtrArray *fallbacks;   /* AkcJsonValue strings */
  GPtrArray *errors;      /* AkcJsonValue strings */
} Outcomes;

static AkcJsonValue *
string_value (const char *text)
{
  return akc_json_value_new_string (text != NULL ? text : "", -1);
}

static void
collect (GtkWidget *widget,
         Outcomes  *out)
{
  if (!gtk_widget_get_visible (widget))
    return;

  if (AKC_IS_COMPONENT_VIEW (widget))
    {
      AkcComponentView *view = AKC_COMPONENT_VIEW (widget);

      if (akc_component_view_get_is_fallback (view))
        {
          GtkWidget *content = akc_component_view_get_content (view);

          g_ptr_array_add (out->fallbacks, string_value (content != NULL ? first_label_text (content) : NULL));
        }
      else
        {
          const char *names[] = { "key", "instanceId", "resolved" };
          AkcJsonValue *values[] = {
            string_value (akc_component_view_get_component_key (view)),
            string_value (akc_component_view_get_instance_id (view)),
            akc_json_value_new_boolean (akc_component_view_get_resolved (view)),
          };

          g_ptr_array_add (out->components, akc_json_value_new_object (names, values, 3));
          for (guint i = 0; i < G_N_ELEMENTS (values); i++)
            akc_json_value_unref (values[i]);
        }
      return;
    }

  if (gtk_widget_has_css_class (widget, "bubble") || gtk_widget_has_css_class (widget, "fallback") ||
      gtk_widget_has_css_class (widget, "diagnostic"))
    {
      const char *text = NULL;

      if (AKC_IS_MARKDOWN_VIEW (widget))
        text = akc_markdown_view_get_text (AKC_MARKDOWN_VIEW (widget), NULL);
      else if (GTK_IS_LABEL (widget))
        text = gtk_label_get_text (GTK_LABEL (widget));

      if (text != NULL)
        {
          if (gtk_widget_has_css_class (widget, "diagnostic"))
            g_ptr_array_add (out->errors, string_value (text));
          else if (gtk_widget_has_css_class (widget, "fallback"))
            g_ptr_array_add (out->fallbacks, string_value (text));
          else
            {
              if (out->text->len > 0)
                g_string_append_c (out->text, '\n');
              g_string_append (out->text, text);
            }
          return;
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, out);
}

static void
add_outcome (GPtrArray    *outcomes,
             const char   *turn_id,
             const char   *kind,
             AkcJsonValue *value)
{
  const char *names[] = { "turnId", "kind", "value" };
  AkcJsonValue *values[] = { string_value (turn_id), string_value (kind), value };

  g_ptr_array_add (outcomes, akc_json_value_new_object (names, values, 3));
  akc_json_value_unref (values[0]);
  akc_json_value_unref (values[1]);
}

static AkcJsonValue *
take_array (GPtrArray *values)
{
  return akc_json_value_new_array ((AkcJsonValue * const *) values->pdata, values->len);
}

/**
 * akc_message_row_dup_outcomes:
 * @self: a message row
 * @turn_id: the turn the row answers, an identifier
 *
 * Describes what @self shows as renderer outcomes of one turn
 * (application.md §10.3), read off its widgets: `text` (the text runs, one
 * a line), `component` (each component view's `{key, instanceId,
 * resolved}`), `fallback` (each semantic fallback's text) and `error`
 * (each diagnostic's message), each present only when the row shows one.
 * akc_renderer_outcomes_compare() compares them with another
 * renderer's.
 *
 * Returns: (transfer full): a JSON array of `{turnId, kind, value}`
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_message_row_dup_outcomes (AkcMessageRow *self,
                              const char    *turn_id)
{
  g_autoptr(GPtrArray) outcomes = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) components = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) fallbacks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  Outcomes out = { text, components, fallbacks, errors };

  g_return_val_if_fail (AKC_IS_MESSAGE_ROW (self), NULL);
  g_return_val_if_fail (turn_id != NULL, NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, &out);

  if (text->len > 0)
    add_outcome (outcomes, turn_id, "text", string_value (text->str));
  if (components->len > 0)
    add_outcome (outcomes, turn_id, "component", take_array (components));
  if (fallbacks->len > 0)
    add_outcome (outcomes, turn_id, "fallback", take_array (fallbacks));
  if (errors->len > 0)
    add_outcome (outcomes, turn_id, "error", take_array (errors));

  return take_array (outcomes);
}

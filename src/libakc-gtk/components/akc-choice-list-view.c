/* akc-choice-list-view.c: the `choice-list` component (application §1.4, §12.4, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A group named by the prompt, with the prompt as legend and one numbered
 * button per choice showing its label and, when present, its description.
 * Activating a choice requests `select` with the choice id.
 *
 * Keys (§12.4): ↑/↓ move the highlight (the focused choice), clamped; the
 * digits fill a two-digit buffer that keeps the last two digits, and move
 * the highlight to the choice they name; Enter selects the choice the
 * buffer names when it is valid, the highlighted one otherwise, and clears
 * the buffer; arrows clear it too.
 *
 * Once resolved the keyboard hint is hidden; once answered, the chosen
 * choice is `button.choice.chosen` with a check mark and "You chose: …"
 * says which (§12.7, also after a restart).
 *
 * CSS: `choicelist.component`, choices are `button.choice`.
 * Accessibility: role group named by the prompt; each choice is a button
 * named by its label and described by its description. */

#define AKC_TYPE_CHOICE_LIST_VIEW (akc_choice_list_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcChoiceListView, akc_choice_list_view, AKC, CHOICE_LIST_VIEW, GtkWidget)

struct _AkcChoiceListView
{
  GtkWidget  parent_instance;

  GtkLabel  *legend;
  GtkBox    *choices;
  GtkLabel  *answer;
  GtkLabel  *hint;

  GPtrArray *buttons;
  GPtrArray *ids;        /* the choice id of each button */
  GPtrArray *checks;     /* the check mark of each button */
  int        buffer;     /* the digits typed, -1 when empty */
};

static void akc_choice_list_view_widget_init (AkcComponentWidgetInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcChoiceListView, akc_choice_list_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, akc_choice_list_view_widget_init))

static int
digit_of (guint keyval)
{
  if (keyval >= GDK_KEY_0 && keyval <= GDK_KEY_9)
    return (int) (keyval - GDK_KEY_0);
  if (keyval >= GDK_KEY_KP_0 && keyval <= GDK_KEY_KP_9)
    return (int) (keyval - GDK_KEY_KP_0);
  return -1;
}

/* The 0-based choice the buffer names, or -1. */
static int
buffer_target (AkcChoiceListView *self)
{
  if (self->buffer < 1 || self->buffer > (int) self->buttons->len)
    return -1;
  return self->buffer - 1;
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AkcChoiceListView     *self)
{
  int digit, target;

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;

  digit = digit_of (keyval);
  if (digit >= 0)
    {
      /* Only the last two digits are kept: "1", "2", "3" is 23. */
      self->buffer = (self->buffer < 0 ? 0 : self->buffer % 10) * 10 + digit;
      target = buffer_target (self);
      if (target >= 0)
        gtk_widget_grab_focus (g_ptr_array_index (self->buttons, target));
      return GDK_EVENT_STOP;
    }

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      /* The actions controller moves the highlight. */
      self->buffer = -1;
      return GDK_EVENT_PROPAGATE;

    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      target = buffer_target (self);
      if (target < 0)
        target = akc_component_get_focused_action (GTK_WIDGET (self));
      self->buffer = -1;
      /* Selects at once (GtkButton's own activation would wait for its
       * pressed animation). */
      if (target >= 0)
        g_signal_emit_by_name (g_ptr_array_index (self->buttons, target), "clicked");
      return GDK_EVENT_STOP;

    default:
      return GDK_EVENT_PROPAGATE;
    }
}

static void
akc_choice_list_view_dispose (GObject *object)
{
  AkcChoiceListView *self = AKC_CHOICE_LIST_VIEW (object);

  g_clear_pointer (&self->buttons, g_ptr_array_unref);
  g_clear_pointer (&self->ids, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_CHOICE_LIST_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_choice_list_view_parent_class)->dispose (object);
}

static void
akc_choice_list_view_class_init (AkcChoiceListViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_choice_list_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-choice-list-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcChoiceListView, legend);
  gtk_widget_class_bind_template_child (widget_class, AkcChoiceListView, choices);
  gtk_widget_class_bind_template_child (widget_class, AkcChoiceListView, answer);
  gtk_widget_class_bind_template_child (widget_class, AkcChoiceListView, hint);
  gtk_widget_class_bind_template_callback (widget_class, on_key_pressed);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "choicelist");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_choice_list_view_init (AkcChoiceListView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = -1;
  self->buttons = g_ptr_array_new ();
  self->ids = g_ptr_array_new_with_free_func (g_free);
  self->checks = g_ptr_array_new ();
}

static void
akc_choice_list_view_show_answer (AkcComponentWidget     *widget,
                                  gboolean                resolved,
                                  AkcComponentResolution *resolution)
{
  AkcChoiceListView *self = AKC_CHOICE_LIST_VIEW (widget);
  const char *chosen = resolution != NULL ? akc_component_resolution_get_choice_id (resolution) : NULL;
  const char *label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->hint), !resolved);

  for (guint i = 0; i < self->buttons->len; i++)
    {
      GtkWidget *button = g_ptr_array_index (self->buttons, i);
      gboolean is_chosen = resolved && g_strcmp0 (g_ptr_array_index (self->ids, i), chosen) == 0;

      if (is_chosen)
        {
          gtk_widget_add_css_class (button, "chosen");
          label = g_object_get_data (G_OBJECT (button), "akc-choice-label");
        }
      else
        {
          gtk_widget_remove_css_class (button, "chosen");
        }
      gtk_widget_set_visible (g_ptr_array_index (self->checks, i), is_chosen);
      gtk_accessible_update_state (GTK_ACCESSIBLE (button),
                                   GTK_ACCESSIBLE_STATE_SELECTED, is_chosen,
                                   -1);
    }

  if (label != NULL)
    {
      /* Translators: said under a choice list the person answered; %s is
       * the label of the chosen option. */
      g_autofree char *text = g_strdup_printf (_("You chose: %s"), label);

      gtk_label_set_text (self->answer, text);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                      -1);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->answer), label != NULL);
}

static void
akc_choice_list_view_widget_init (AkcComponentWidgetInterface *iface)
{
  iface->show_answer = akc_choice_list_view_show_answer;
}

/* The option Enter chooses is marked for as long as it has the keyboard,
 * not only while GTK draws focus rings: GTK 4.8 hides them a few seconds
 * after the last key, and a list that took the keyboard by itself (a
 * question that arrived) never had one. */
static void
on_choice_focus_changed (GtkWidget *button)
{
  if (gtk_widget_has_focus (button))
    gtk_widget_add_css_class (button, "current");
  else
    gtk_widget_remove_css_class (button, "current");
}

static GtkWidget *
choice_button_new (guint         number,
                   AkcJsonValue *choice,
                   GtkWidget   **check)
{
  const char *label = akc_props_get_string (choice, "label");
  const char *description = akc_props_get_string (choice, "description");
  g_autofree char *number_text = g_strdup_printf ("%u", number);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *badge = akc_component_label_new (number_text, "number");

  gtk_widget_add_css_class (button, "choice");
  g_signal_connect (button, "notify::has-focus", G_CALLBACK (on_choice_focus_changed), NULL);
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (badge),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, number_text,
                                  -1);
  gtk_box_append (GTK_BOX (row), badge);

  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), akc_component_label_new (label, "title"));
  if (description != NULL)
    gtk_box_append (GTK_BOX (texts), akc_component_label_new (description, "description"));
  gtk_box_append (GTK_BOX (row), texts);

  /* Shown on the chosen option of an answered list. */
  *check = g_object_new (GTK_TYPE_IMAGE,
                         "icon-name", "object-select-symbolic",
                         "valign", GTK_ALIGN_CENTER,
                         "visible", FALSE,
                         "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                         NULL);
  gtk_widget_add_css_class (*check, "check");
  gtk_box_append (GTK_BOX (row), *check);
  g_object_set_data_full (G_OBJECT (button), "akc-choice-label", g_strdup (label), g_free);

  gtk_button_set_child (GTK_BUTTON (button), row);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  if (description != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                    -1);

  return button;
}

GtkWidget *
akc_choice_list_view_new (AkcJsonValue *props)
{
  AkcChoiceListView *self = g_object_new (AKC_TYPE_CHOICE_LIST_VIEW, NULL);
  AkcJsonValue *choices = akc_props_get_array (props, "choices");
  const char *prompt = akc_props_get_string (props, "prompt");
  gsize n = akc_props_get_length (choices);

  gtk_label_set_text (self->legend, prompt);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, prompt,
                                  -1);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *choice = akc_props_get_object_at (choices, i);
      GtkWidget *check = NULL;
      GtkWidget *button = choice_button_new ((guint) i + 1, choice, &check);

      akc_component_connect_request (button, "select", akc_json_value_get_member (choice, "id"));
      gtk_box_append (self->choices, button);
      g_ptr_array_add (self->buttons, button);
      g_ptr_array_add (self->ids, g_strdup (akc_props_get_string (choice, "id")));
      g_ptr_array_add (self->checks, check);
    }

  akc_component_set_actions (GTK_WIDGET (self), self->buttons);

  return GTK_WIDGET (self);
}

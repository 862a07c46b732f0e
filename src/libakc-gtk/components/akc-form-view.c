/* akc-form-view.c: the `form` component (application §1.5, §12.4, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A form named by its title (or "Form"), with a heading when there is a
 * title and one labelled control per field: an entry for text, email and
 * number (with the placeholder and the matching input purpose), a check
 * button for checkbox, and a drop-down whose first entry "Select" stands
 * for no choice. Required fields are marked.
 *
 * Submitting requests `submit` with only the fields the person touched
 * (§12.6, §14 B5: the DOM behaviour): strings for text, email, number and
 * select, booleans for checkboxes. A required checkbox always has a value
 * on screen, so it is always sent (false satisfies "required").
 *
 * Keys (§12.4, mapped onto GTK's own focus): fields are edited one at a
 * time; entries take typed text natively; Space toggles a checkbox; ↑/↓
 * cycle the options of a select; Enter confirms the field and moves to the
 * next one, a required field left empty blocks (it is marked invalid and
 * says why), and Enter on the last field submits. Tab still moves freely.
 *
 * CSS: `componentform.component`. Accessibility: role form, named by the
 * title or "Form"; each control is labelled, with the required property,
 * and the invalid state while it blocks. */

#define AKC_TYPE_FORM_VIEW (akc_form_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcFormView, akc_form_view, AKC, FORM_VIEW, GtkWidget)

typedef enum {
  FIELD_TEXT,
  FIELD_EMAIL,
  FIELD_NUMBER,
  FIELD_CHECKBOX,
  FIELD_SELECT,
} FieldType;

typedef struct {
  AkcJsonValue *spec;      /* the field's props */
  FieldType     type;
  gboolean      required;
  gboolean      touched;
  GtkWidget    *control;   /* GtkEntry, GtkCheckButton or GtkDropDown */
  GtkWidget    *error;     /* "This field is required." */
} Field;

struct _AkcFormView
{
  GtkWidget  parent_instance;

  GtkLabel  *heading;
  GtkBox    *fields_box;
  GtkButton *submit_button;

  GArray    *fields;       /* Field */
};

static void akc_form_view_widget_init (AkcComponentWidgetInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcFormView, akc_form_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, akc_form_view_widget_init))

static Field *
field_at (AkcFormView *self,
          guint        i)
{
  return &g_array_index (self->fields, Field, i);
}

static FieldType
field_type_from_string (const char *type)
{
  if (g_strcmp0 (type, "email") == 0)
    return FIELD_EMAIL;
  if (g_strcmp0 (type, "number") == 0)
    return FIELD_NUMBER;
  if (g_strcmp0 (type, "checkbox") == 0)
    return FIELD_CHECKBOX;
  if (g_strcmp0 (type, "select") == 0)
    return FIELD_SELECT;
  return FIELD_TEXT;
}

/* The option of a select, or NULL for "Select". */
static AkcJsonValue *
field_selected_option (Field *field)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->control));

  if (selected == GTK_INVALID_LIST_POSITION || selected == 0)
    return NULL;

  return akc_props_get_object_at (akc_props_get_array (field->spec, "options"), selected - 1);
}

/* The value the field would submit (transfer full). A select on "Select"
 * and an emptied entry give "", which counts as absent (§1.5). */
static AkcJsonValue *
field_dup_value (Field *field)
{
  AkcJsonValue *option;

  switch (field->type)
    {
    case FIELD_CHECKBOX:
      return akc_json_value_new_boolean (gtk_check_button_get_active (GTK_CHECK_BUTTON (field->control)));

    case FIELD_SELECT:
      option = field_selected_option (field);
      if (option == NULL)
        return akc_json_value_new_string ("", 0);
      return akc_json_value_ref (akc_json_value_get_member (option, "id"));

    case FIELD_TEXT:
    case FIELD_EMAIL:
    case FIELD_NUMBER:
    default:
      return akc_json_value_new_string (gtk_editable_get_text (GTK_EDITABLE (field->control)), -1);
    }
}

static gboolean
field_is_empty (Field *field)
{
  switch (field->type)
    {
    case FIELD_CHECKBOX:
      return FALSE;
    case FIELD_SELECT:
      return field_selected_option (field) == NULL;
    case FIELD_TEXT:
    case FIELD_EMAIL:
    case FIELD_NUMBER:
    default:
      return *gtk_editable_get_text (GTK_EDITABLE (field->control)) == '\0';
    }
}

static void
field_set_invalid (Field    *field,
                   gboolean  invalid)
{
  gtk_widget_set_visible (field->error, invalid);
  if (invalid)
    gtk_widget_add_css_class (field->control, "error");
  else
    gtk_widget_remove_css_class (field->control, "error");
  gtk_accessible_update_state (GTK_ACCESSIBLE (field->control),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               invalid ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE,
                               -1);
}

/* The rule of §12.4: a required field that is empty blocks. */
static gboolean
field_confirm (Field *field)
{
  gboolean blocked = field->required && field_is_empty (field);

  field_set_invalid (field, blocked);
  return !blocked;
}

static void
akc_form_view_submit (AkcFormView *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) value = NULL;
  Field *first_blocked = NULL;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = field_at (self, i);

      if (!field_confirm (field) && first_blocked == NULL)
        first_blocked = field;
    }

  if (first_blocked != NULL)
    {
      gtk_widget_grab_focus (first_blocked->control);
      return;
    }

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = field_at (self, i);

      if (!field->touched && !(field->type == FIELD_CHECKBOX && field->required))
        continue;

      g_ptr_array_add (names, (gpointer) akc_props_get_string (field->spec, "id"));
      g_ptr_array_add (values, field_dup_value (field));
    }

  value = akc_json_value_new_object ((const char * const *) names->pdata,
                                     (AkcJsonValue * const *) values->pdata,
                                     names->len);
  akc_component_widget_request (AKC_COMPONENT_WIDGET (self), "submit", value);
}

static int
find_focused_field (AkcFormView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (focus == NULL)
    return -1;

  /* Keys inside a drop-down's popup belong to the popup. */
  if (gtk_widget_get_native (focus) != gtk_widget_get_native (GTK_WIDGET (self)))
    return -1;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = field_at (self, i);

      if (focus == field->control || gtk_widget_is_ancestor (focus, field->control))
        return (int) i;
    }

  return -1;
}

static void
select_cycle (Field *field,
              int    step)
{
  GtkDropDown *drop_down = GTK_DROP_DOWN (field->control);
  guint n = (guint) akc_props_get_length (akc_props_get_array (field->spec, "options"));
  guint selected = gtk_drop_down_get_selected (drop_down);
  guint next;

  if (n == 0)
    return;

  /* Position 0 is "Select"; the options are 1..n and the cycle wraps. */
  if (selected == GTK_INVALID_LIST_POSITION || selected == 0)
    next = step > 0 ? 1 : n;
  else if (step > 0)
    next = selected == n ? 1 : selected + 1;
  else
    next = selected == 1 ? n : selected - 1;

  gtk_drop_down_set_selected (drop_down, next);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                AkcFormView           *self)
{
  int index;
  Field *field;

  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;

  index = find_focused_field (self);
  if (index < 0)
    return GDK_EVENT_PROPAGATE;
  field = field_at (self, index);

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      if (field->type != FIELD_SELECT)
        return GDK_EVENT_PROPAGATE;
      select_cycle (field, keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up ? -1 : 1);
      return GDK_EVENT_STOP;

    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (!field_confirm (field))
        return GDK_EVENT_STOP;
      if ((guint) index + 1 == self->fields->len)
        akc_form_view_submit (self);
      else
        gtk_widget_grab_focus (field_at (self, index + 1)->control);
      return GDK_EVENT_STOP;

    default:
      return GDK_EVENT_PROPAGATE;
    }
}

static void
on_submit_clicked (AkcFormView *self)
{
  akc_form_view_submit (self);
}

static void
on_field_changed (GtkWidget *control)
{
  AkcFormView *self = AKC_FORM_VIEW (gtk_widget_get_ancestor (control, AKC_TYPE_FORM_VIEW));

  for (guint i = 0; self != NULL && i < self->fields->len; i++)
    {
      Field *field = field_at (self, i);

      if (field->control != control)
        continue;

      field->touched = TRUE;
      if (!field_is_empty (field))
        field_set_invalid (field, FALSE);
    }
}

/* Puts a submitted value back into its field. */
static void
field_show_value (Field        *field,
                  AkcJsonValue *value)
{
  AkcJsonValue *options;
  const char *wanted;

  switch (field->type)
    {
    case FIELD_CHECKBOX:
      if (akc_json_value_get_kind (value) == AKC_JSON_KIND_BOOLEAN)
        gtk_check_button_set_active (GTK_CHECK_BUTTON (field->control), akc_json_value_get_boolean (value));
      break;

    case FIELD_SELECT:
      if (akc_json_value_get_kind (value) != AKC_JSON_KIND_STRING)
        break;
      wanted = akc_json_value_get_string (value, NULL);
      options = akc_props_get_array (field->spec, "options");
      for (gsize i = 0; i < akc_props_get_length (options); i++)
        if (g_strcmp0 (akc_props_get_string (akc_props_get_object_at (options, i), "id"), wanted) == 0)
          gtk_drop_down_set_selected (GTK_DROP_DOWN (field->control), (guint) i + 1);
      break;

    case FIELD_TEXT:
    case FIELD_EMAIL:
    case FIELD_NUMBER:
    default:
      if (akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING)
        gtk_editable_set_text (GTK_EDITABLE (field->control), akc_json_value_get_string (value, NULL));
      break;
    }
}

/* An answered form shows what was submitted, also when it was answered
 * before a restart (issue 13 item 2); an unanswered one keeps what the
 * person typed. */
static void
akc_form_view_show_answer (AkcComponentWidget     *widget,
                           gboolean                resolved,
                           AkcComponentResolution *resolution)
{
  AkcFormView *self = AKC_FORM_VIEW (widget);
  AkcJsonValue *value = resolution != NULL ? akc_component_resolution_get_value (resolution) : NULL;

  if (!resolved || value == NULL || akc_json_value_get_kind (value) != AKC_JSON_KIND_OBJECT ||
      g_strcmp0 (akc_component_resolution_get_event (resolution), "submit") != 0)
    return;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = field_at (self, i);
      AkcJsonValue *submitted = akc_json_value_get_member (value, akc_props_get_string (field->spec, "id"));

      if (submitted != NULL)
        field_show_value (field, submitted);
    }
}

static void
akc_form_view_widget_init (AkcComponentWidgetInterface *iface)
{
  iface->show_answer = akc_form_view_show_answer;
}

static void
akc_form_view_dispose (GObject *object)
{
  AkcFormView *self = AKC_FORM_VIEW (object);

  g_clear_pointer (&self->fields, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_FORM_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_form_view_parent_class)->dispose (object);
}

static void
akc_form_view_class_init (AkcFormViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_form_view_dispose;
  widget_class->grab_focus = akc_component_grab_focus;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-form-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcFormView, heading);
  gtk_widget_class_bind_template_child (widget_class, AkcFormView, fields_box);
  gtk_widget_class_bind_template_child (widget_class, AkcFormView, submit_button);
  gtk_widget_class_bind_template_callback (widget_class, on_key_pressed);
  gtk_widget_class_bind_template_callback (widget_class, on_submit_clicked);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "componentform");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_FORM);
}

static void
akc_form_view_init (AkcFormView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  self->fields = g_array_new (FALSE, TRUE, sizeof (Field));
}

static GtkWidget *
field_control_new (Field      *field,
                   const char *label)
{
  const char *placeholder = akc_props_get_string (field->spec, "placeholder");
  AkcJsonValue *options;
  GtkStringList *strings;
  GtkWidget *control;
  gsize n;

  switch (field->type)
    {
    case FIELD_CHECKBOX:
      control = gtk_check_button_new ();
      gtk_check_button_set_child (GTK_CHECK_BUTTON (control), akc_component_label_new (label, NULL));
      g_signal_connect (control, "toggled", G_CALLBACK (on_field_changed), NULL);
      break;

    case FIELD_SELECT:
      options = akc_props_get_array (field->spec, "options");
      n = akc_props_get_length (options);
      strings = gtk_string_list_new (NULL);
      gtk_string_list_append (strings, _("Select"));
      for (gsize i = 0; i < n; i++)
        gtk_string_list_append (strings, akc_props_get_string (akc_props_get_object_at (options, i), "label"));
      control = gtk_drop_down_new (G_LIST_MODEL (strings), NULL);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (control), 0);
      gtk_widget_set_halign (control, GTK_ALIGN_START);
      g_signal_connect (control, "notify::selected", G_CALLBACK (on_field_changed), NULL);
      break;

    case FIELD_TEXT:
    case FIELD_EMAIL:
    case FIELD_NUMBER:
    default:
      control = gtk_entry_new ();
      if (placeholder != NULL)
        gtk_entry_set_placeholder_text (GTK_ENTRY (control), placeholder);
      if (field->type == FIELD_EMAIL)
        gtk_entry_set_input_purpose (GTK_ENTRY (control), GTK_INPUT_PURPOSE_EMAIL);
      else if (field->type == FIELD_NUMBER)
        gtk_entry_set_input_purpose (GTK_ENTRY (control), GTK_INPUT_PURPOSE_NUMBER);
      g_signal_connect (control, "changed", G_CALLBACK (on_field_changed), NULL);
      break;
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (control),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  GTK_ACCESSIBLE_PROPERTY_REQUIRED, field->required,
                                  -1);
  if (placeholder != NULL && field->type != FIELD_CHECKBOX && field->type != FIELD_SELECT)
    gtk_accessible_update_property (GTK_ACCESSIBLE (control),
                                    GTK_ACCESSIBLE_PROPERTY_PLACEHOLDER, placeholder,
                                    -1);

  return control;
}

static GtkWidget *
field_row_new (Field *field)
{
  const char *label = akc_props_get_string (field->spec, "label");
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_add_css_class (row, "field");

  field->control = field_control_new (field, label);

  if (field->type != FIELD_CHECKBOX)
    gtk_box_append (GTK_BOX (header), akc_component_label_new (label, "field-label"));
  else
    gtk_box_append (GTK_BOX (header), field->control);

  if (field->required)
    {
      GtkWidget *mark = akc_component_label_new (_("Required"), "caption");

      gtk_widget_add_css_class (mark, "dim-label");
      gtk_widget_add_css_class (mark, "required");
      gtk_widget_set_valign (mark, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (header), mark);
    }
  gtk_box_append (GTK_BOX (row), header);

  if (field->type != FIELD_CHECKBOX)
    gtk_box_append (GTK_BOX (row), field->control);

  field->error = akc_component_label_new (_("This field is required."), "caption");
  gtk_widget_add_css_class (field->error, "field-error");
  gtk_widget_set_visible (field->error, FALSE);
  gtk_box_append (GTK_BOX (row), field->error);

  return row;
}

GtkWidget *
akc_form_view_new (AkcJsonValue *props)
{
  AkcFormView *self = g_object_new (AKC_TYPE_FORM_VIEW, NULL);
  AkcJsonValue *fields = akc_props_get_array (props, "fields");
  const char *title = akc_props_get_string (props, "title");
  const char *submit_label = akc_props_get_string (props, "submitLabel");
  gsize n = akc_props_get_length (fields);

  gtk_label_set_text (self->heading, title != NULL ? title : "");
  gtk_widget_set_visible (GTK_WIDGET (self->heading), title != NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title != NULL ? title : _("Form"),
                                  -1);

  g_array_set_size (self->fields, n);
  for (gsize i = 0; i < n; i++)
    {
      Field *field = field_at (self, i);

      field->spec = akc_props_get_object_at (fields, i);
      field->type = field_type_from_string (akc_props_get_string (field->spec, "type"));
      field->required = akc_props_get_boolean (field->spec, "required");
      gtk_box_append (self->fields_box, field_row_new (field));
    }

  gtk_button_set_label (self->submit_button, submit_label);
  gtk_button_set_use_underline (self->submit_button, FALSE);

  return GTK_WIDGET (self);
}

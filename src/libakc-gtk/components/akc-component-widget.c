/* akc-component-widget.c: the interface and helpers the component widgets share
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"

G_DEFINE_INTERFACE (AkcComponentWidget, akc_component_widget, GTK_TYPE_WIDGET)

enum {
  REQUEST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
akc_component_widget_default_init (AkcComponentWidgetInterface *iface)
{
  /*
   * AkcComponentWidget::request:
   * @self: the widget
   * @event: the event name (§1.1), "select" for a choice-list selection
   * @value: (nullable): the event value, or the choice id
   *
   * The person asked for @event. Nothing has been validated or resolved.
   */
  signals[REQUEST] =
    g_signal_new ("request",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

void
akc_component_widget_request (AkcComponentWidget *self,
                              const char         *event,
                              AkcJsonValue       *value)
{
  g_assert (AKC_IS_COMPONENT_WIDGET (self));
  g_assert (event != NULL);

  g_signal_emit (self, signals[REQUEST], 0, event, value);
}

void
akc_component_widget_show_answer (AkcComponentWidget     *self,
                                  gboolean                resolved,
                                  AkcComponentResolution *resolution)
{
  AkcComponentWidgetInterface *iface;

  g_assert (AKC_IS_COMPONENT_WIDGET (self));
  g_assert (resolution == NULL || AKC_IS_COMPONENT_RESOLUTION (resolution));

  iface = AKC_COMPONENT_WIDGET_GET_IFACE (self);
  if (iface->show_answer != NULL)
    iface->show_answer (self, resolved, resolution);
}

typedef GtkWidget *(*ComponentConstructor) (AkcJsonValue *props);

static const struct {
  const char           *key;
  ComponentConstructor  construct;
} constructors[] = {
  { "button-group", akc_button_group_view_new },
  { "choice-list", akc_choice_list_view_new },
  { "form", akc_form_view_new },
  { "confirmation", akc_confirmation_view_new },
  { "progress", akc_progress_view_new },
  { "source-list", akc_source_list_view_new },
  { "link-card", akc_link_card_view_new },
  { "error-notice", akc_error_notice_view_new },
  { "tool-call", akc_tool_call_view_new },
  { "approval-request", akc_approval_request_view_new },
  { "table", akc_table_view_new },
  { "file-attachment", akc_file_attachment_view_new },
};

GtkWidget *
akc_component_widget_new (const char   *key,
                          AkcJsonValue *props)
{
  g_assert (key != NULL);
  g_assert (props != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (constructors); i++)
    if (strcmp (constructors[i].key, key) == 0)
      return constructors[i].construct (props);

  return NULL;
}

/* ------------------------------------------------------------------ */
/* Props accessors                                                     */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
get_member_of_kind (AkcJsonValue *object,
                    const char   *name,
                    AkcJsonKind   kind)
{
  AkcJsonValue *member;

  if (object == NULL || akc_json_value_get_kind (object) != AKC_JSON_KIND_OBJECT)
    return NULL;

  member = akc_json_value_get_member (object, name);
  if (member == NULL || akc_json_value_get_kind (member) != kind)
    return NULL;

  return member;
}

const char *
akc_props_get_string (AkcJsonValue *object,
                      const char   *name)
{
  AkcJsonValue *member = get_member_of_kind (object, name, AKC_JSON_KIND_STRING);

  return member != NULL ? akc_json_value_get_string (member, NULL) : NULL;
}

AkcJsonValue *
akc_props_get_array (AkcJsonValue *object,
                     const char   *name)
{
  return get_member_of_kind (object, name, AKC_JSON_KIND_ARRAY);
}

gboolean
akc_props_get_boolean (AkcJsonValue *object,
                       const char   *name)
{
  AkcJsonValue *member = get_member_of_kind (object, name, AKC_JSON_KIND_BOOLEAN);

  return member != NULL && akc_json_value_get_boolean (member);
}

gboolean
akc_props_get_number (AkcJsonValue *object,
                      const char   *name,
                      double       *number)
{
  AkcJsonValue *member = get_member_of_kind (object, name, AKC_JSON_KIND_NUMBER);

  if (member == NULL)
    return FALSE;

  *number = akc_json_value_get_number (member);
  return TRUE;
}

gsize
akc_props_get_length (AkcJsonValue *array)
{
  if (array == NULL || akc_json_value_get_kind (array) != AKC_JSON_KIND_ARRAY)
    return 0;

  return akc_json_value_get_length (array);
}

AkcJsonValue *
akc_props_get_object_at (AkcJsonValue *array,
                         gsize         index_)
{
  AkcJsonValue *element;

  if (index_ >= akc_props_get_length (array))
    return NULL;

  element = akc_json_value_get_element (array, index_);
  return akc_json_value_get_kind (element) == AKC_JSON_KIND_OBJECT ? element : NULL;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

char *
akc_component_format_number (double number)
{
  g_autoptr(AkcJsonValue) value = akc_json_value_new_number (number);

  /* The canonical writer prints numbers by ECMAScript Number::toString. */
  return akc_json_value_to_canonical (value, NULL);
}

static void
append_indent (GString *out,
               guint    depth)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
append_canonical (GString            *out,
                  const AkcJsonValue *value)
{
  gsize length = 0;
  g_autofree char *text = akc_json_value_to_canonical (value, &length);

  g_string_append_len (out, text, length);
}

static void
append_pretty (GString            *out,
               const AkcJsonValue *value,
               guint               depth)
{
  gsize n;

  switch (akc_json_value_get_kind (value))
    {
    case AKC_JSON_KIND_ARRAY:
      n = akc_json_value_get_length (value);
      if (n == 0)
        {
          g_string_append (out, "[]");
          break;
        }
      g_string_append_c (out, '[');
      for (gsize i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          append_indent (out, depth + 1);
          append_pretty (out, akc_json_value_get_element (value, i), depth + 1);
        }
      append_indent (out, depth);
      g_string_append_c (out, ']');
      break;

    case AKC_JSON_KIND_OBJECT:
      n = akc_json_value_get_member_count (value);
      if (n == 0)
        {
          g_string_append (out, "{}");
          break;
        }
      g_string_append_c (out, '{');
      for (gsize i = 0; i < n; i++)
        {
          gsize name_length = 0;
          const char *name = akc_json_value_get_member_name (value, i, &name_length);
          g_autoptr(AkcJsonValue) key = akc_json_value_new_string (name, name_length);

          if (i > 0)
            g_string_append_c (out, ',');
          append_indent (out, depth + 1);
          append_canonical (out, key);
          g_string_append (out, ": ");
          append_pretty (out, akc_json_value_get_member_value (value, i), depth + 1);
        }
      append_indent (out, depth);
      g_string_append_c (out, '}');
      break;

    case AKC_JSON_KIND_NULL:
    case AKC_JSON_KIND_BOOLEAN:
    case AKC_JSON_KIND_NUMBER:
    case AKC_JSON_KIND_STRING:
    default:
      append_canonical (out, value);
      break;
    }
}

char *
akc_component_format_json_pretty (AkcJsonValue *value)
{
  GString *out = g_string_new (NULL);

  g_assert (value != NULL);

  /* Props are bounded JSON (§0.6): at most 20 levels, so recursion is bounded. */
  append_pretty (out, value, 0);

  return g_string_free (out, FALSE);
}

GtkWidget *
akc_component_label_new (const char *text,
                         const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  /* Model text is shown as it is: never parsed as markup or mnemonics. */
  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_use_underline (GTK_LABEL (label), FALSE);
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);

  return label;
}

/* ------------------------------------------------------------------ */
/* Keyboard: the numbered actions of §12.4                              */
/* ------------------------------------------------------------------ */

#define ACTIONS_KEY "akc-component-actions"

static GPtrArray *
get_actions (GtkWidget *owner)
{
  return g_object_get_data (G_OBJECT (owner), ACTIONS_KEY);
}

int
akc_component_get_focused_action (GtkWidget *owner)
{
  GPtrArray *actions = get_actions (owner);
  GtkRoot *root = gtk_widget_get_root (owner);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (actions == NULL || focus == NULL)
    return -1;

  for (guint i = 0; i < actions->len; i++)
    {
      GtkWidget *action = g_ptr_array_index (actions, i);

      if (focus == action || gtk_widget_is_ancestor (focus, action))
        return (int) i;
    }

  return -1;
}

static gboolean
focus_action_from (GtkWidget *owner,
                   int        start,
                   int        step)
{
  GPtrArray *actions = get_actions (owner);

  for (int i = start; actions != NULL && i >= 0 && i < (int) actions->len; i += step)
    {
      GtkWidget *action = g_ptr_array_index (actions, i);

      if (gtk_widget_is_sensitive (action) && gtk_widget_get_visible (action))
        return gtk_widget_grab_focus (action);
    }

  return FALSE;
}

gboolean
akc_component_focus_first_action (GtkWidget *owner)
{
  return focus_action_from (owner, 0, 1);
}

static gboolean
on_actions_key_pressed (GtkEventControllerKey *controller,
                        guint                  keyval,
                        guint                  keycode,
                        GdkModifierType        state,
                        GtkWidget             *owner)
{
  int current, step;

  if ((state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;

  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      step = -1;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      step = 1;
      break;
    default:
      return GDK_EVENT_PROPAGATE;
    }

  current = akc_component_get_focused_action (owner);
  if (current < 0)
    return GDK_EVENT_PROPAGATE;

  /* Clamped: at either end the focus stays where it is. */
  focus_action_from (owner, current + step, step);

  return GDK_EVENT_STOP;
}

void
akc_component_set_actions (GtkWidget *owner,
                           GPtrArray *actions)
{
  GtkEventController *controller;

  g_assert (GTK_IS_WIDGET (owner));
  g_assert (get_actions (owner) == NULL);

  /* The actions are children of @owner: no references are held. */
  g_object_set_data_full (G_OBJECT (owner), ACTIONS_KEY,
                          g_ptr_array_ref (actions),
                          (GDestroyNotify) g_ptr_array_unref);

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_name (controller, "akc-component-actions");
  g_signal_connect_object (controller, "key-pressed",
                           G_CALLBACK (on_actions_key_pressed),
                           owner, 0);
  gtk_widget_add_controller (owner, controller);
}

typedef struct {
  const char   *event;
  AkcJsonValue *value;
} Request;

static void
request_free (gpointer  data,
              GClosure *closure)
{
  Request *request = data;

  g_clear_pointer (&request->value, akc_json_value_unref);
  g_free (request);
}

static void
on_request_clicked (GtkButton *button,
                    Request   *request)
{
  GtkWidget *owner = gtk_widget_get_ancestor (GTK_WIDGET (button), AKC_TYPE_COMPONENT_WIDGET);

  if (owner != NULL)
    akc_component_widget_request (AKC_COMPONENT_WIDGET (owner), request->event, request->value);
}

void
akc_component_connect_request (GtkWidget    *button,
                               const char   *event,
                               AkcJsonValue *value)
{
  Request *request = g_new0 (Request, 1);

  g_assert (GTK_IS_BUTTON (button));

  request->event = event;
  request->value = value != NULL ? akc_json_value_ref (value) : NULL;
  g_signal_connect_data (button, "clicked",
                         G_CALLBACK (on_request_clicked),
                         request, request_free, 0);
}

static gboolean
grab_first_focusable (GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget) || !gtk_widget_is_sensitive (widget))
    return FALSE;

  if (gtk_widget_get_focusable (widget) && gtk_widget_get_can_focus (widget))
    return gtk_widget_grab_focus (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (grab_first_focusable (child))
      return TRUE;

  return FALSE;
}

gboolean
akc_component_grab_focus (GtkWidget *widget)
{
  if (get_actions (widget) != NULL)
    return akc_component_focus_first_action (widget);

  /* The first visible, sensitive, focusable descendant. (Not through
   * gtk_widget_child_focus() on @widget: GTK's default focus handler
   * calls grab_focus on it again; and not relative to the current focus.) */
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (grab_first_focusable (child))
      return TRUE;

  return FALSE;
}

void
akc_component_unparent_children (GtkWidget *widget)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    gtk_widget_unparent (child);
}

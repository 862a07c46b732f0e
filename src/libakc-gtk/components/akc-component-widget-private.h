/* akc-component-widget-private.h: what the standard component widgets share
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 *
 * Every standard component widget (application §12.6) is built from the
 * *validated, normalised* props the libakc catalog returns for a resolved
 * frame; it never validates props itself. It reports what the person did as
 * an intent, the "request" signal of the AkcComponentWidget interface, with
 * the event name and its value (the choice id for a choice-list "select").
 * AkcComponentView turns an intent into an event only through the catalog,
 * applies single-shot resolution (§12.7) and emits the public signals.
 */

#pragma once

#include <gtk/gtk.h>
#include <akc.h>

G_BEGIN_DECLS

#define AKC_TYPE_COMPONENT_WIDGET (akc_component_widget_get_type ())

G_DECLARE_INTERFACE (AkcComponentWidget, akc_component_widget, AKC, COMPONENT_WIDGET, GtkWidget)

struct _AkcComponentWidgetInterface
{
  GTypeInterface parent_iface;

  /* Optional: shows whether the instance is resolved and, when it was
   * answered, how (the chosen option of a choice list). */
  void (*show_answer) (AkcComponentWidget     *self,
                       gboolean                resolved,
                       AkcComponentResolution *resolution);
};

/* Emits "request" (event, value). @value (nullable) is not consumed. */
void          akc_component_widget_request      (AkcComponentWidget *self,
                                                 const char         *event,
                                                 AkcJsonValue       *value);

/* Calls show_answer when the widget has one. @resolution is nullable. */
void          akc_component_widget_show_answer  (AkcComponentWidget     *self,
                                                 gboolean                resolved,
                                                 AkcComponentResolution *resolution);

/* Builds the widget of a standard key from validated props, or NULL when
 * @key is not a standard key. */
GtkWidget    *akc_component_widget_new          (const char         *key,
                                                 AkcJsonValue       *props);

/* The twelve constructors (one file each). */
GtkWidget    *akc_button_group_view_new         (AkcJsonValue *props);
GtkWidget    *akc_choice_list_view_new          (AkcJsonValue *props);
GtkWidget    *akc_form_view_new                 (AkcJsonValue *props);
GtkWidget    *akc_confirmation_view_new         (AkcJsonValue *props);
GtkWidget    *akc_progress_view_new             (AkcJsonValue *props);
GtkWidget    *akc_source_list_view_new          (AkcJsonValue *props);
GtkWidget    *akc_link_card_view_new            (AkcJsonValue *props);
GtkWidget    *akc_error_notice_view_new         (AkcJsonValue *props);
GtkWidget    *akc_tool_call_view_new            (AkcJsonValue *props);
GtkWidget    *akc_approval_request_view_new     (AkcJsonValue *props);
GtkWidget    *akc_table_view_new                (AkcJsonValue *props);
GtkWidget    *akc_file_attachment_view_new      (AkcJsonValue *props);

/* The semantic fallback (§12.5): "[unsupported visual: kind] summary". */
GtkWidget    *akc_fallback_view_new             (const char   *text);

/* Read-only accessors over validated props: they never validate, they only
 * keep a wrong kind from becoming a crash. */
const char   *akc_props_get_string              (AkcJsonValue *object,
                                                 const char   *name);
AkcJsonValue *akc_props_get_array               (AkcJsonValue *object,
                                                 const char   *name);
gboolean      akc_props_get_boolean             (AkcJsonValue *object,
                                                 const char   *name);
gboolean      akc_props_get_number              (AkcJsonValue *object,
                                                 const char   *name,
                                                 double       *number);
gsize         akc_props_get_length              (AkcJsonValue *array);
AkcJsonValue *akc_props_get_object_at           (AkcJsonValue *array,
                                                 gsize         index_);

/* Number to text by the ECMAScript rule (application §0.7). */
char         *akc_component_format_number       (double        number);
/* JSON.stringify (value, null, 2). */
char         *akc_component_format_json_pretty  (AkcJsonValue *value);

/* Keyboard rule of §12.4 for interactive components: ↑/↓ (and ←/→) move
 * the focus among @actions (a widget's sensitive action buttons, in
 * order), clamped at both ends; Enter activates the focused one (native).
 * Installs a key controller on @owner. */
void          akc_component_set_actions         (GtkWidget    *owner,
                                                 GPtrArray    *actions);
/* Index of the action holding the focus, or -1. */
int           akc_component_get_focused_action  (GtkWidget    *owner);
/* Moves the focus to the first sensitive action. */
gboolean      akc_component_focus_first_action  (GtkWidget    *owner);

/* Clicking @button requests @event (a static string) with @value
 * (nullable; a reference is kept) from the component widget it is in. */
void          akc_component_connect_request     (GtkWidget    *button,
                                                 const char   *event,
                                                 AkcJsonValue *value);

/* grab_focus for component widgets: the first action, else the first
 * focusable descendant. */
gboolean      akc_component_grab_focus          (GtkWidget    *widget);

/* Unparents every child of @widget (for dispose). */
void          akc_component_unparent_children   (GtkWidget    *widget);

/* A label that shows @text verbatim (never markup). */
GtkWidget    *akc_component_label_new           (const char   *text,
                                                 const char   *css_class);

G_END_DECLS

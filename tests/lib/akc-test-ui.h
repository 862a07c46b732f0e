/* akc-test-ui.h: what the in-process UI tests share besides akc-test.h:
 * waiting for frames and replies, and finding widgets in a tree
 *
 * The names are short on purpose: they are test code, linked only into the
 * test programs of tests/ui, and read as the sentences of a test.
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>
#include <akc.h>

#include "akc-test.h"

G_BEGIN_DECLS

typedef gboolean (*WidgetMatch) (GtkWidget *widget, gconstpointer data);

/* Waiting */
void       wait_frames         (GtkWidget     *widget,
                                guint          n);

/* Keys */
/* Delivers @keyval with @state to @window as GTK would from its focus:
 * the key controllers from the focus up, the local shortcuts on the way
 * (a button's Enter, the window's Tab), the application's accels, then
 * the window's global shortcuts. Returns whether one of them took it. */
gboolean   press_key           (GtkWindow       *window,
                                guint            keyval,
                                GdkModifierType  state);

/* Widgets */
void       collect             (GtkWidget     *root,
                                WidgetMatch    match,
                                gconstpointer  data,
                                GPtrArray     *found);
GPtrArray *find_all            (GtkWidget     *root,
                                WidgetMatch    match,
                                gconstpointer  data);
GtkWidget *find_widget         (GtkWidget     *root,
                                WidgetMatch    match,
                                gconstpointer  data);
/* The @nth widget (from 0) in tree order that @match takes, or NULL. */
GtkWidget *find_nth_widget     (GtkWidget     *root,
                                WidgetMatch    match,
                                gconstpointer  data,
                                guint          nth);
GtkWidget *wait_for_widget     (GtkWidget     *root,
                                WidgetMatch    match,
                                gconstpointer  data);
gboolean   is_type             (GtkWidget     *widget,
                                gconstpointer  data);
gboolean   is_label_with_text  (GtkWidget     *widget,
                                gconstpointer  data);
gboolean   is_visible_label    (GtkWidget     *widget,
                                gconstpointer  data);
gboolean   is_label_with_prefix (GtkWidget    *widget,
                                 gconstpointer data);
gboolean   is_button_with_label (GtkWidget    *widget,
                                 gconstpointer data);
gboolean   is_button_with_tooltip (GtkWidget    *widget,
                                   gconstpointer data);
gboolean   is_named            (GtkWidget     *widget,
                                gconstpointer  data);
gboolean   has_css_class       (GtkWidget     *widget,
                                gconstpointer  data);
gboolean   is_mapped_type      (GtkWidget     *widget,
                                gconstpointer  data);
GtkWidget *find_by_type        (GtkWidget     *root,
                                GType          type);

G_END_DECLS

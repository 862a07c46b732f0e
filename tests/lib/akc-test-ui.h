/* akc-test-ui.h: what the in-process UI tests share: waiting on the main
 * loop with one deadline, and finding widgets in a tree
 *
 * The names are short on purpose: they are test code, linked only into the
 * test programs of tests/ui, and read as the sentences of a test.
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>
#include <akc.h>

G_BEGIN_DECLS

/* One deadline for every wait: generous, as the valgrind setup runs
 * everything 20 times slower; a wait that reaches it fails the test. */
#define AKC_TEST_WAIT_TIMEOUT_USEC (120 * G_USEC_PER_SEC)

typedef gboolean (*Condition) (gpointer data);
typedef gboolean (*WidgetMatch) (GtkWidget *widget, gconstpointer data);

/* Waiting */
void       wait_for            (Condition      condition,
                                gpointer       data);
#define WAIT_FOR(condition, data) wait_for ((Condition) (condition), (data))
void       spin                (void);
void       wait_frames         (GtkWidget     *widget,
                                guint          n);
void       wait_until_idle     (AkcChatSource *source);

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

/* Files */
void       akc_test_remove_tree (const char   *path);

G_END_DECLS

/* akc-markdown-view-private.h: assistant Markdown, drawn natively
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

#include "akc-markdown-private.h"

G_BEGIN_DECLS

#define AKC_TYPE_MARKDOWN_VIEW (akc_markdown_view_get_type ())

G_DECLARE_FINAL_TYPE (AkcMarkdownView, akc_markdown_view, AKC, MARKDOWN_VIEW, GtkWidget)

GtkWidget              *akc_markdown_view_new              (void);
void                    akc_markdown_view_set_text         (AkcMarkdownView *self,
                                                            const char      *text,
                                                            gsize            length,
                                                            gboolean         streaming);
const char             *akc_markdown_view_get_text         (AkcMarkdownView *self,
                                                            gsize           *length);
gboolean                akc_markdown_view_get_streaming    (AkcMarkdownView *self);
guint                   akc_markdown_view_get_n_blocks     (AkcMarkdownView *self);
const AkcMarkdownBlock *akc_markdown_view_get_block        (AkcMarkdownView *self,
                                                            guint            position);
GtkWidget              *akc_markdown_view_get_block_widget (AkcMarkdownView *self,
                                                            guint            position);
guint                   akc_markdown_view_get_n_stable     (AkcMarkdownView *self);
gboolean                akc_markdown_view_get_block_drawn  (AkcMarkdownView *self,
                                                            guint            position);

/* The text being written, drawn without a label (see akc-markdown-view.c):
 * the code of a code block while it is written. */
GtkWidget              *akc_markdown_live_new_plain        (void);
void                    akc_markdown_live_set_plain        (GtkWidget       *live,
                                                            const char      *text,
                                                            gsize            length,
                                                            PangoAttrList   *attrs);
const char             *akc_markdown_live_get_text         (GtkWidget       *live);
PangoAttrList          *akc_markdown_live_get_attributes   (GtkWidget       *live);
gboolean                akc_markdown_is_live               (GtkWidget       *widget);

G_END_DECLS

/* akc-markdown-table-private.h: a GFM table of assistant Markdown
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

#include "akc-markdown-private.h"

G_BEGIN_DECLS

#define AKC_TYPE_MARKDOWN_TABLE (akc_markdown_table_get_type ())

G_DECLARE_FINAL_TYPE (AkcMarkdownTable, akc_markdown_table, AKC, MARKDOWN_TABLE, GtkWidget)

GtkWidget *akc_markdown_table_new        (const AkcMarkdownBlock *block);
void       akc_markdown_table_set_block  (AkcMarkdownTable       *self,
                                          const AkcMarkdownBlock *block);
guint      akc_markdown_table_get_n_rows (AkcMarkdownTable       *self);
GtkWidget *akc_markdown_table_get_cell   (AkcMarkdownTable       *self,
                                          guint                   row,
                                          guint                   column);

G_END_DECLS

/* akc-markdown-item-private.h: a list item or quoted block of Markdown
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AKC_TYPE_MARKDOWN_ITEM (akc_markdown_item_get_type ())

G_DECLARE_FINAL_TYPE (AkcMarkdownItem, akc_markdown_item, AKC, MARKDOWN_ITEM, GtkWidget)

GtkWidget *akc_markdown_item_new (const char *marker,
                                  int         marker_width,
                                  GtkWidget  *content);

G_END_DECLS

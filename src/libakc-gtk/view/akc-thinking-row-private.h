/* akc-thinking-row-private.h: "Thinking..." below a reply that streams
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AKC_TYPE_THINKING_ROW (akc_thinking_row_get_type ())

G_DECLARE_FINAL_TYPE (AkcThinkingRow, akc_thinking_row, AKC, THINKING_ROW, GtkWidget)

GtkWidget *akc_thinking_row_new (void);

G_END_DECLS

/* akc-tool-confirmation-row-private.h: a tool call that waits for the
 * person's approval (application §12.8)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>
#include <akc.h>

G_BEGIN_DECLS

#define AKC_TYPE_TOOL_CONFIRMATION_ROW (akc_tool_confirmation_row_get_type ())

G_DECLARE_FINAL_TYPE (AkcToolConfirmationRow, akc_tool_confirmation_row, AKC, TOOL_CONFIRMATION_ROW, GtkWidget)

/* @tool (nullable) describes the call for people: its title, description
 * and whether it is dangerous. */
GtkWidget  *akc_tool_confirmation_row_new          (AkcToolCall            *call,
                                                    AkcTool                *tool);
const char *akc_tool_confirmation_row_get_call_id  (AkcToolConfirmationRow *self);
GtkWidget  *akc_tool_confirmation_row_get_deny     (AkcToolConfirmationRow *self);
GtkWidget  *akc_tool_confirmation_row_get_approve  (AkcToolConfirmationRow *self);

/* "create-support-ticket" → "Create support ticket". */
char       *akc_tool_confirmation_humanize         (const char             *name);

G_END_DECLS

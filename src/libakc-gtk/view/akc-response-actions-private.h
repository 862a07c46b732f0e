/* akc-response-actions-private.h: the response actions of a transcript,
 * and the inline editor of the last user message (application §12.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AKC_TYPE_RESPONSE_ACTIONS (akc_response_actions_get_type ())

G_DECLARE_FINAL_TYPE (AkcResponseActions, akc_response_actions, AKC, RESPONSE_ACTIONS, GtkWidget)

GtkWidget     *akc_response_actions_new        (gboolean             retry,
                                                gboolean             regenerate);
GtkWidget     *akc_response_actions_new_editor (const char          *draft);
GtkTextView   *akc_response_actions_get_editor (AkcResponseActions  *self);

G_END_DECLS

/* akc-message-window-private.h: the newest messages of a conversation
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AKC_TYPE_MESSAGE_WINDOW (akc_message_window_get_type ())

G_DECLARE_FINAL_TYPE (AkcMessageWindow, akc_message_window, AKC, MESSAGE_WINDOW, GObject)

AkcMessageWindow *akc_message_window_new          (GListModel       *messages,
                                                   guint             page_size);
guint             akc_message_window_get_start    (AkcMessageWindow *self);
gboolean          akc_message_window_extend       (AkcMessageWindow *self,
                                                   guint             n);
void              akc_message_window_include      (AkcMessageWindow *self,
                                                   guint             position);

G_END_DECLS

/* akc-window.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>
#include <akc.h>

G_BEGIN_DECLS

#define AKC_TYPE_WINDOW (akc_window_get_type ())

G_DECLARE_FINAL_TYPE (AkcWindow, akc_window, AKC, WINDOW, AdwApplicationWindow)

AkcWindow     *akc_window_new        (AdwApplication *application);
AkcChatSource *akc_window_get_source (AkcWindow      *self);

G_END_DECLS

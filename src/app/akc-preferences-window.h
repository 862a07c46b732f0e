/* akc-preferences-window.h: the backends of the conversations
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>

#include "akc-backend.h"

G_BEGIN_DECLS

#define AKC_TYPE_PREFERENCES_WINDOW (akc_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (AkcPreferencesWindow, akc_preferences_window, AKC, PREFERENCES_WINDOW, AdwPreferencesWindow)

AkcPreferencesWindow *akc_preferences_window_new (GSettings  *settings,
                                                  AkcBackend *ask,
                                                  AkcBackend *turn,
                                                  AkcBackend *provider);

G_END_DECLS

/* akc-theme-css-private.h: a semantic theme as a GTK style sheet
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>
#include <akc.h>

G_BEGIN_DECLS

char *akc_theme_css_generate (const AkcTheme *theme,
                              const char     *scope_class);

G_END_DECLS

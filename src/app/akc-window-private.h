/* akc-window-private.h: the window's helpers the tests reach
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *akc_window_export_file_name (const char *title,
                                   const char *fallback,
                                   gboolean    markdown);

G_END_DECLS

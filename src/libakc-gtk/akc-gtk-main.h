/* akc-gtk-main.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "akc-gtk-version-macros.h"

G_BEGIN_DECLS

AKC_GTK_AVAILABLE_IN_ALL
void akc_gtk_init (void);

G_END_DECLS

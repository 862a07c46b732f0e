/* akc-find-bar.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "akc-chat-view.h"
#include "akc-gtk-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_FIND_BAR (akc_find_bar_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcFindBar, akc_find_bar, AKC, FIND_BAR, GtkWidget)

AKC_GTK_AVAILABLE_IN_ALL
GtkWidget   *akc_find_bar_new             (void);
AKC_GTK_AVAILABLE_IN_ALL
AkcChatView *akc_find_bar_get_view        (AkcFindBar  *self);
AKC_GTK_AVAILABLE_IN_ALL
void         akc_find_bar_set_view        (AkcFindBar  *self,
                                           AkcChatView *view);
AKC_GTK_AVAILABLE_IN_ALL
gboolean     akc_find_bar_get_search_mode (AkcFindBar  *self);
AKC_GTK_AVAILABLE_IN_ALL
void         akc_find_bar_set_search_mode (AkcFindBar  *self,
                                           gboolean     search_mode);
AKC_GTK_AVAILABLE_IN_ALL
GtkEditable *akc_find_bar_get_entry       (AkcFindBar  *self);

G_END_DECLS

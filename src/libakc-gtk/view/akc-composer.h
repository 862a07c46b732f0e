/* akc-composer.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_GTK_INSIDE__) && !defined(AKC_GTK_COMPILATION)
#error "Only <akc-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>
#include <akc.h>

#include "akc-gtk-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_COMPOSER (akc_composer_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcComposer, akc_composer, AKC, COMPOSER, GtkWidget)

AKC_GTK_AVAILABLE_IN_ALL
GtkWidget     *akc_composer_new        (void);
AKC_GTK_AVAILABLE_IN_ALL
AkcChatSource *akc_composer_get_source (AkcComposer   *self);
AKC_GTK_AVAILABLE_IN_ALL
void           akc_composer_set_source (AkcComposer   *self,
                                        AkcChatSource *source);
AKC_GTK_AVAILABLE_IN_ALL
char          *akc_composer_dup_text   (AkcComposer   *self);
AKC_GTK_AVAILABLE_IN_ALL
void           akc_composer_set_text   (AkcComposer   *self,
                                        const char    *text);
AKC_GTK_AVAILABLE_IN_ALL
gboolean       akc_composer_send       (AkcComposer   *self);
AKC_GTK_AVAILABLE_IN_ALL
void           akc_composer_attach_file (AkcComposer  *self,
                                         GFile        *file);
AKC_GTK_AVAILABLE_IN_ALL
GListModel    *akc_composer_get_attachments (AkcComposer *self);
AKC_GTK_AVAILABLE_IN_ALL
guint          akc_composer_get_n_loading (AkcComposer  *self);

G_END_DECLS

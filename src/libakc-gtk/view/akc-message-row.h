/* akc-message-row.h
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

#define AKC_TYPE_MESSAGE_ROW (akc_message_row_get_type ())

AKC_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcMessageRow, akc_message_row, AKC, MESSAGE_ROW, GtkWidget)

AKC_GTK_AVAILABLE_IN_ALL
GtkWidget          *akc_message_row_new          (void);
AKC_GTK_AVAILABLE_IN_ALL
AkcMessage         *akc_message_row_get_message  (AkcMessageRow *self);
AKC_GTK_AVAILABLE_IN_ALL
void                akc_message_row_set_message  (AkcMessageRow *self,
                                                  AkcMessage    *message);
AKC_GTK_AVAILABLE_IN_ALL
AkcComponentManifest *akc_message_row_get_manifest (AkcMessageRow        *self);
AKC_GTK_AVAILABLE_IN_ALL
void                akc_message_row_set_manifest (AkcMessageRow        *self,
                                                  AkcComponentManifest *manifest);
AKC_GTK_AVAILABLE_IN_ALL
const char         *akc_message_row_get_text     (AkcMessageRow *self);
AKC_GTK_AVAILABLE_IN_ALL
GtkListItemFactory *akc_message_row_factory_new  (void);
AKC_GTK_AVAILABLE_IN_ALL
AkcJsonValue       *akc_message_row_dup_outcomes (AkcMessageRow *self,
                                                  const char    *turn_id);

G_END_DECLS

/* akc-message-row-private.h: what AkcChatView and the tests reach in a row
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include "akc-component-view.h"
#include "akc-message-row.h"

G_BEGIN_DECLS

/* The kinds of the parts of a row, one per presentation (§12.2). */
typedef enum {
  AKC_MESSAGE_PART_PLAIN,       /* a bubble of plain text: system, tool */
  AKC_MESSAGE_PART_MARKDOWN,    /* a bubble of Markdown: assistant, user */
  AKC_MESSAGE_PART_DIAGNOSTIC,  /* an alert with a diagnostic message */
  AKC_MESSAGE_PART_COMPONENT,   /* an AkcComponentView, or the semantic fallback */
} AkcMessagePartKind;

void                akc_message_row_set_ownership       (AkcMessageRow     *self,
                                                         AkcInputOwnership *ownership);
void                akc_message_row_set_active_position (AkcMessageRow     *self,
                                                         int                presentation);
AkcComponentView   *akc_message_row_get_active_view     (AkcMessageRow     *self);
void                akc_message_row_flush               (AkcMessageRow     *self);
void                akc_message_row_set_error           (AkcMessageRow     *self,
                                                         const char        *error);
void                akc_message_row_set_extra           (AkcMessageRow     *self,
                                                         GtkWidget         *extra);

guint               akc_message_row_get_n_parts         (AkcMessageRow     *self);
AkcMessagePartKind  akc_message_row_get_part_kind       (AkcMessageRow     *self,
                                                         guint              position);
GtkWidget          *akc_message_row_get_part            (AkcMessageRow     *self,
                                                         guint              position);
guint               akc_message_row_get_n_updates       (AkcMessageRow     *self);

const char         *akc_message_role_name               (AkcMessageRole     role);

/* The context menu of the message: at x, y, or (both negative) at its
 * text. */
gboolean            akc_message_row_popup_menu          (AkcMessageRow     *self,
                                                         double             x,
                                                         double             y);
GtkWidget          *akc_message_row_get_menu            (AkcMessageRow     *self);

/* The find of the transcript: akc-message-row.c keeps it, akc-chat-view-find.c
 * draws it. */
void                akc_message_row_set_search          (AkcMessageRow     *self,
                                                         AkcTextSearch     *search,
                                                         int                current);
GtkWidget          *akc_message_row_get_search_widget   (AkcMessageRow     *self);
GtkWidget          *akc_message_row_apply_search        (AkcMessageRow     *self,
                                                         AkcTextSearch     *search,
                                                         int                current);

G_END_DECLS

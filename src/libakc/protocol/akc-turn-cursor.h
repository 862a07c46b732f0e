/* akc-turn-cursor.h: the monotonic snapshot cursor (protocol §2.8)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_TURN_CURSOR (akc_turn_cursor_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcTurnCursor, akc_turn_cursor, AKC, TURN_CURSOR, GObject)

AKC_AVAILABLE_IN_ALL
AkcTurnCursor *akc_turn_cursor_new            (const char      *session_id,
                                               GError         **error);

AKC_AVAILABLE_IN_ALL
const char    *akc_turn_cursor_get_session_id (AkcTurnCursor   *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue  *akc_turn_cursor_dup_snapshot   (AkcTurnCursor   *self);
AKC_AVAILABLE_IN_ALL
gint64         akc_turn_cursor_get_sequence   (AkcTurnCursor   *self);

AKC_AVAILABLE_IN_ALL
gboolean       akc_turn_cursor_apply          (AkcTurnCursor   *self,
                                               AkcJsonValue    *event);
AKC_AVAILABLE_IN_ALL
gboolean       akc_turn_cursor_apply_text     (AkcTurnCursor   *self,
                                               const char      *text,
                                               gssize           length,
                                               AkcJsonValue   **event,
                                               AkcDiagnostic  **diagnostic);
AKC_AVAILABLE_IN_ALL
gboolean akc_turn_cursor_apply_text_utf8 (AkcTurnCursor  *self,
                                          const char     *text,
                                          AkcJsonValue  **event,
                                          AkcDiagnostic **diagnostic);

G_END_DECLS

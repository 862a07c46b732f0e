/* akc-controlled-source.h: a conversation whose state a host owns
 * (application §7, §12.9)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif


#include "akc-chat-source.h"
#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-message.h"
#include "akc-message-record.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CONTROLLED_SOURCE (akc_controlled_source_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcControlledSource, akc_controlled_source, AKC, CONTROLLED_SOURCE, GObject)

AKC_AVAILABLE_IN_ALL
AkcControlledSource *akc_controlled_source_new                (void);
AKC_AVAILABLE_IN_ALL
const char          *akc_controlled_source_get_session_id     (AkcControlledSource  *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_controlled_source_get_snapshot       (AkcControlledSource  *self);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_snapshot       (AkcControlledSource  *self,
                                                               AkcJsonValue         *snapshot,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_snapshot_text  (AkcControlledSource  *self,
                                                               const char           *text,
                                                               gssize                length,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean akc_controlled_source_set_snapshot_text_utf8 (AkcControlledSource  *self,
                                                       const char           *text,
                                                       GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_snapshot_json  (AkcControlledSource  *self,
                                                               const char           *json,
                                                               GError              **error);

AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_session_id     (AkcControlledSource  *self,
                                                               const char           *session_id,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_append_message     (AkcControlledSource  *self,
                                                               AkcMessageRecord     *record,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_update_message     (AkcControlledSource  *self,
                                                               AkcMessageRecord     *record,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_message_text   (AkcControlledSource  *self,
                                                               const char           *message_id,
                                                               const char           *text,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_message_status (AkcControlledSource  *self,
                                                               const char           *message_id,
                                                               AkcMessageStatus      status,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_append_text        (AkcControlledSource  *self,
                                                               const char           *message_id,
                                                               const char           *text,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
void                 akc_controlled_source_set_status         (AkcControlledSource  *self,
                                                               AkcChatStatus         status);
AKC_AVAILABLE_IN_ALL
void                 akc_controlled_source_mark_stopped       (AkcControlledSource  *self);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_usage          (AkcControlledSource  *self,
                                                               guint64               prompt_tokens,
                                                               guint64               completion_tokens,
                                                               guint64               total_tokens,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_set_error          (AkcControlledSource  *self,
                                                               const char           *message,
                                                               const char           *code,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_select_choice      (AkcControlledSource  *self,
                                                               AkcJsonValue         *frame,
                                                               const char           *choice_id,
                                                               GError              **error);
AKC_AVAILABLE_IN_ALL
gboolean             akc_controlled_source_interact           (AkcControlledSource  *self,
                                                               AkcJsonValue         *frame,
                                                               const char           *event,
                                                               AkcJsonValue         *value,
                                                               GError              **error);

AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_controlled_snapshot_decode           (const char           *text,
                                                               gssize                length,
                                                               AkcDiagnostic       **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_controlled_snapshot_decode_utf8      (const char           *text,
                                                               AkcDiagnostic       **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue        *akc_controlled_snapshot_decode_value     (AkcJsonValue         *snapshot,
                                                               AkcDiagnostic       **diagnostic);
AKC_AVAILABLE_IN_ALL
const char * const  *akc_controlled_snapshot_get_callback_names (void);

G_END_DECLS

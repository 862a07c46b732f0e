/* akc-message-record.h: the in-memory form of a turn-protocol message record
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

typedef struct _AkcMessageRecord AkcMessageRecord;

#define AKC_TYPE_MESSAGE_RECORD (akc_message_record_get_type ())

AKC_AVAILABLE_IN_ALL
GType             akc_message_record_get_type          (void) G_GNUC_CONST;

AKC_AVAILABLE_IN_ALL
AkcMessageRecord *akc_message_record_new               (const char             *id,
                                                        const char             *role,
                                                        const char             *content,
                                                        gssize                  content_length,
                                                        const char             *status,
                                                        GDateTime              *created_at,
                                                        GError                **error);
AKC_AVAILABLE_IN_ALL
AkcMessageRecord *akc_message_record_new_utf8 (const char  *id,
                                               const char  *role,
                                               const char  *content,
                                               const char  *status,
                                               GDateTime   *created_at,
                                               GError     **error);
AKC_AVAILABLE_IN_ALL
AkcMessageRecord *akc_message_record_new_from_value    (AkcJsonValue           *record,
                                                        GError                **error);

AKC_AVAILABLE_IN_ALL
AkcMessageRecord *akc_message_record_ref               (AkcMessageRecord       *self);
AKC_AVAILABLE_IN_ALL
void              akc_message_record_unref             (AkcMessageRecord       *self);

AKC_AVAILABLE_IN_ALL
const char       *akc_message_record_get_id            (const AkcMessageRecord *self,
                                                        gsize                  *length);
AKC_AVAILABLE_IN_ALL
const char *akc_message_record_get_id_utf8 (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_record_get_role          (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_record_get_content       (const AkcMessageRecord *self,
                                                        gsize                  *length);
AKC_AVAILABLE_IN_ALL
const char *akc_message_record_get_content_utf8 (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_record_get_status        (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
GDateTime        *akc_message_record_get_created_at    (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_message_record_get_parts         (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_message_record_get_tool_calls    (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
const char       *akc_message_record_get_tool_call_id  (const AkcMessageRecord *self,
                                                        gsize                  *length);
AKC_AVAILABLE_IN_ALL
const char *akc_message_record_get_tool_call_id_utf8 (const AkcMessageRecord *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_message_record_get_metadata      (const AkcMessageRecord *self);

AKC_AVAILABLE_IN_ALL
AkcJsonValue     *akc_message_record_to_value          (const AkcMessageRecord *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcMessageRecord, akc_message_record_unref)

G_END_DECLS

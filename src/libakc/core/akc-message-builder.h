/* akc-message-builder.h: message records built from typed parts
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-message.h"
#include "akc-message-record.h"
#include "akc-tool-call.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_MESSAGE_BUILDER (akc_message_builder_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcMessageBuilder, akc_message_builder, AKC, MESSAGE_BUILDER, GObject)

AKC_AVAILABLE_IN_ALL
AkcMessageBuilder *akc_message_builder_new             (const char         *id,
                                                        AkcMessageRole      role);
AKC_AVAILABLE_IN_ALL
void               akc_message_builder_set_status      (AkcMessageBuilder  *self,
                                                        AkcMessageStatus    status);
AKC_AVAILABLE_IN_ALL
void               akc_message_builder_set_created_at  (AkcMessageBuilder  *self,
                                                        GDateTime          *created_at);
AKC_AVAILABLE_IN_ALL
gboolean           akc_message_builder_add_text        (AkcMessageBuilder  *self,
                                                        const char         *text,
                                                        GError            **error);
AKC_AVAILABLE_IN_ALL
gboolean           akc_message_builder_add_frame       (AkcMessageBuilder  *self,
                                                        AkcJsonValue       *frame,
                                                        GError            **error);
AKC_AVAILABLE_IN_ALL
gboolean           akc_message_builder_add_tool_call   (AkcMessageBuilder  *self,
                                                        const char         *id,
                                                        const char         *name,
                                                        AkcJsonValue       *arguments,
                                                        AkcToolCallStatus   status,
                                                        GError            **error);
AKC_AVAILABLE_IN_ALL
void               akc_message_builder_set_tool_call_id (AkcMessageBuilder *self,
                                                         const char        *tool_call_id);
AKC_AVAILABLE_IN_ALL
gboolean           akc_message_builder_set_metadata    (AkcMessageBuilder  *self,
                                                        AkcJsonValue       *metadata,
                                                        GError            **error);
AKC_AVAILABLE_IN_ALL
AkcMessageRecord  *akc_message_record_new_text         (const char         *id,
                                                        AkcMessageRole      role,
                                                        const char         *text,
                                                        AkcMessageStatus    status,
                                                        GDateTime          *created_at,
                                                        GError            **error);

AKC_AVAILABLE_IN_ALL
AkcMessageRecord  *akc_message_builder_build           (AkcMessageBuilder  *self,
                                                        GError            **error);

G_END_DECLS

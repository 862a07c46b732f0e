/* akc-adapter-request.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-json.h"
#include "akc-message.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_ADAPTER_REQUEST (akc_adapter_request_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAdapterRequest, akc_adapter_request, AKC, ADAPTER_REQUEST, GObject)

AKC_AVAILABLE_IN_ALL
AkcAdapterRequest *akc_adapter_request_new                (GListModel        *messages,
                                                           const char        *session_id,
                                                           const char        *system_prompt,
                                                           AkcJsonValue      *metadata);
AKC_AVAILABLE_IN_ALL
GListModel        *akc_adapter_request_get_messages       (AkcAdapterRequest *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_adapter_request_get_session_id     (AkcAdapterRequest *self);
AKC_AVAILABLE_IN_ALL
const char        *akc_adapter_request_get_system_prompt  (AkcAdapterRequest *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue      *akc_adapter_request_get_metadata       (AkcAdapterRequest *self);
AKC_AVAILABLE_IN_ALL
AkcMessage        *akc_adapter_request_get_latest_user_message (AkcAdapterRequest *self);
AKC_AVAILABLE_IN_ALL
AkcAdapterRequest *akc_adapter_request_with_session_id    (AkcAdapterRequest *self,
                                                           const char        *session_id);
AKC_AVAILABLE_IN_ALL
AkcAdapterRequest *akc_adapter_request_with_metadata_member (AkcAdapterRequest *self,
                                                           const char        *name,
                                                           AkcJsonValue      *value);

G_END_DECLS

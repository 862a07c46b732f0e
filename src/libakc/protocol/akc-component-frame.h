/* akc-component-frame.h: the component protocol (protocol §3)
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

/**
 * AKC_COMPONENT_PROTOCOL:
 *
 * The protocol identifier of component frames and events,
 * `agentskit.chat.component` ([protocol §1.12](wire-formats.html#protocol-1)).
 *
 * Since: 0.1
 */
#define AKC_COMPONENT_PROTOCOL "agentskit.chat.component"

/**
 * AKC_COMPONENT_PROTOCOL_VERSION:
 *
 * The component protocol version this library speaks.
 *
 * Since: 0.1
 */
#define AKC_COMPONENT_PROTOCOL_VERSION 1

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_component_frame_decode             (const char     *text,
                                                      gssize          length,
                                                      AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_component_frame_decode_utf8 (const char     *text,
                                               AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_component_frame_decode_value       (AkcJsonValue   *value,
                                                      AkcDiagnostic **diagnostic);

AKC_AVAILABLE_IN_ALL
gboolean      akc_component_frame_is_candidate       (const char     *text,
                                                      gssize          length);
AKC_AVAILABLE_IN_ALL
gboolean akc_component_frame_is_candidate_utf8 (const char *text);
AKC_AVAILABLE_IN_ALL
gboolean      akc_component_frame_is_candidate_value (AkcJsonValue   *value);

AKC_AVAILABLE_IN_ALL
char         *akc_component_frame_dup_fallback_text  (AkcJsonValue   *frame);

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_component_selection_event_new      (AkcJsonValue   *frame,
                                                      const char     *choice_id,
                                                      GError        **error);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_component_interaction_event_new    (AkcJsonValue   *frame,
                                                      const char     *event,
                                                      AkcJsonValue   *value,
                                                      GError        **error);

G_END_DECLS

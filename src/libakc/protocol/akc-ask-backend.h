/* akc-ask-backend.h: Ask backend contracts (protocol §7)
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
 * AKC_ASK_BACKEND_PROTOCOL:
 *
 * The protocol identifier of Ask backend requests, `agentskit.chat.ask`.
 *
 * Since: 0.1
 */
#define AKC_ASK_BACKEND_PROTOCOL "agentskit.chat.ask"

/**
 * AKC_ASK_BACKEND_MAX_MESSAGES:
 *
 * The most messages an Ask request or session record holds.
 *
 * Since: 0.1
 */
#define AKC_ASK_BACKEND_MAX_MESSAGES 64

/**
 * AKC_ASK_BACKEND_MAX_MESSAGE_LENGTH:
 *
 * The longest message content, in UTF-16 code units.
 *
 * Since: 0.1
 */
#define AKC_ASK_BACKEND_MAX_MESSAGE_LENGTH 16384

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_ask_backend_request_new             (const char   *session_id,
                                                       AkcJsonValue *messages,
                                                       AkcJsonValue *deterministic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_ask_backend_request_decode          (const char     *text,
                                                       gssize          length,
                                                       AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_ask_backend_request_decode_utf8     (const char     *text,
                                                       AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_ask_backend_request_decode_value     (AkcJsonValue   *value,
                                                       AkcDiagnostic **diagnostic);

G_END_DECLS

/* akc-diagnostic.h: protocol diagnostics and the protocol error domain
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

/**
 * AKC_PROTOCOL_ERROR:
 *
 * Error domain of the wire protocol. Errors in this domain carry a code
 * from [error@ProtocolError]; those converted from an [struct@Diagnostic]
 * carry its fixed, input-free message.
 */
#define AKC_PROTOCOL_ERROR (akc_protocol_error_quark ())

/**
 * AkcProtocolError:
 * @AKC_PROTOCOL_ERROR_FAILED: a diagnostic code not listed below
 * @AKC_PROTOCOL_ERROR_INVALID_JSON: a text is not valid JSON ([protocol §1.2](wire-formats.html#protocol-1))
 * @AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD: `PROTOCOL_INVALID_PAYLOAD` (turn, §2.6)
 * @AKC_PROTOCOL_ERROR_PROTOCOL_UNSUPPORTED_VERSION: `PROTOCOL_UNSUPPORTED_VERSION` (turn)
 * @AKC_PROTOCOL_ERROR_PROTOCOL_UNKNOWN_EVENT: `PROTOCOL_UNKNOWN_EVENT` (turn)
 * @AKC_PROTOCOL_ERROR_COMPONENT_INVALID_FRAME: `COMPONENT_INVALID_FRAME` (§3.5)
 * @AKC_PROTOCOL_ERROR_COMPONENT_UNSUPPORTED_VERSION: `COMPONENT_UNSUPPORTED_VERSION`
 * @AKC_PROTOCOL_ERROR_COMPONENT_UNKNOWN_TYPE: `COMPONENT_UNKNOWN_TYPE`
 * @AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD: `ASSISTANT_CONTENT_INVALID_RECORD` (§4.4)
 * @AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_UNSUPPORTED_VERSION: `ASSISTANT_CONTENT_UNSUPPORTED_VERSION`
 * @AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED: `ASSISTANT_CONTENT_LIMIT_EXCEEDED`
 * @AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT: `SESSION_INVALID_SNAPSHOT` (§5.5)
 * @AKC_PROTOCOL_ERROR_SESSION_UNSUPPORTED_VERSION: `SESSION_UNSUPPORTED_VERSION`
 * @AKC_PROTOCOL_ERROR_DETERMINISTIC_INVALID_PAYLOAD: `DETERMINISTIC_INVALID_PAYLOAD` (§8.5)
 * @AKC_PROTOCOL_ERROR_DETERMINISTIC_UNSUPPORTED_VERSION: `DETERMINISTIC_UNSUPPORTED_VERSION`
 * @AKC_PROTOCOL_ERROR_DETERMINISTIC_LIMIT_EXCEEDED: `DETERMINISTIC_LIMIT_EXCEEDED`
 * @AKC_PROTOCOL_ERROR_DETERMINISTIC_HASH_MISMATCH: `DETERMINISTIC_HASH_MISMATCH`
 * @AKC_PROTOCOL_ERROR_ASK_INVALID_REQUEST: `ASK_INVALID_REQUEST` (§7.7)
 * @AKC_PROTOCOL_ERROR_ASK_UNAUTHORIZED: `ASK_UNAUTHORIZED`
 * @AKC_PROTOCOL_ERROR_ASK_FORBIDDEN: `ASK_FORBIDDEN`
 * @AKC_PROTOCOL_ERROR_ASK_RATE_LIMITED: `ASK_RATE_LIMITED`
 * @AKC_PROTOCOL_ERROR_ASK_TIMEOUT: `ASK_TIMEOUT`
 * @AKC_PROTOCOL_ERROR_ASK_CANCELLED: `ASK_CANCELLED`
 * @AKC_PROTOCOL_ERROR_ASK_RETRIEVAL_FAILED: `ASK_RETRIEVAL_FAILED`
 * @AKC_PROTOCOL_ERROR_ASK_NO_GROUNDED_SOURCES: `ASK_NO_GROUNDED_SOURCES`
 * @AKC_PROTOCOL_ERROR_ASK_GENERATION_FAILED: `ASK_GENERATION_FAILED`
 * @AKC_PROTOCOL_ERROR_ASK_PERSISTENCE_CONFLICT: `ASK_PERSISTENCE_CONFLICT`
 * @AKC_PROTOCOL_ERROR_ASK_INTERNAL: `ASK_INTERNAL`
 *
 * Error codes of the %AKC_PROTOCOL_ERROR domain: one per diagnostic code
 * of [protocol appendix A](wire-formats.html#protocol-appendix-a), plus %AKC_PROTOCOL_ERROR_INVALID_JSON for
 * [ctor@JsonValue.parse].
 *
 * Since: 0.1
 */
typedef enum {
  AKC_PROTOCOL_ERROR_FAILED,
  AKC_PROTOCOL_ERROR_INVALID_JSON,
  AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD,
  AKC_PROTOCOL_ERROR_PROTOCOL_UNSUPPORTED_VERSION,
  AKC_PROTOCOL_ERROR_PROTOCOL_UNKNOWN_EVENT,
  AKC_PROTOCOL_ERROR_COMPONENT_INVALID_FRAME,
  AKC_PROTOCOL_ERROR_COMPONENT_UNSUPPORTED_VERSION,
  AKC_PROTOCOL_ERROR_COMPONENT_UNKNOWN_TYPE,
  AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD,
  AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_UNSUPPORTED_VERSION,
  AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED,
  AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT,
  AKC_PROTOCOL_ERROR_SESSION_UNSUPPORTED_VERSION,
  AKC_PROTOCOL_ERROR_DETERMINISTIC_INVALID_PAYLOAD,
  AKC_PROTOCOL_ERROR_DETERMINISTIC_UNSUPPORTED_VERSION,
  AKC_PROTOCOL_ERROR_DETERMINISTIC_LIMIT_EXCEEDED,
  AKC_PROTOCOL_ERROR_DETERMINISTIC_HASH_MISMATCH,
  AKC_PROTOCOL_ERROR_ASK_INVALID_REQUEST,
  AKC_PROTOCOL_ERROR_ASK_UNAUTHORIZED,
  AKC_PROTOCOL_ERROR_ASK_FORBIDDEN,
  AKC_PROTOCOL_ERROR_ASK_RATE_LIMITED,
  AKC_PROTOCOL_ERROR_ASK_TIMEOUT,
  AKC_PROTOCOL_ERROR_ASK_CANCELLED,
  AKC_PROTOCOL_ERROR_ASK_RETRIEVAL_FAILED,
  AKC_PROTOCOL_ERROR_ASK_NO_GROUNDED_SOURCES,
  AKC_PROTOCOL_ERROR_ASK_GENERATION_FAILED,
  AKC_PROTOCOL_ERROR_ASK_PERSISTENCE_CONFLICT,
  AKC_PROTOCOL_ERROR_ASK_INTERNAL,
} AkcProtocolError;

#define AKC_TYPE_PROTOCOL_ERROR (akc_protocol_error_get_type ())

AKC_AVAILABLE_IN_ALL
GQuark           akc_protocol_error_quark          (void);
AKC_AVAILABLE_IN_ALL
const char      *akc_protocol_error_get_field_path (const GError *error);
AKC_AVAILABLE_IN_ALL
GType            akc_protocol_error_get_type       (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcProtocolError akc_protocol_error_from_code      (const char *code);
AKC_AVAILABLE_IN_ALL
const char      *akc_protocol_error_to_code        (AkcProtocolError error);

typedef struct _AkcDiagnostic AkcDiagnostic;

#define AKC_TYPE_DIAGNOSTIC (akc_diagnostic_get_type ())

AKC_AVAILABLE_IN_ALL
GType          akc_diagnostic_get_type      (void) G_GNUC_CONST;

AKC_AVAILABLE_IN_ALL
AkcDiagnostic *akc_diagnostic_new           (const char          *code,
                                             const char          *message,
                                             gboolean             retryable,
                                             const char          *event_id);
AKC_AVAILABLE_IN_ALL
AkcDiagnostic *akc_diagnostic_ref           (AkcDiagnostic       *self);
AKC_AVAILABLE_IN_ALL
void           akc_diagnostic_unref         (AkcDiagnostic       *self);

AKC_AVAILABLE_IN_ALL
const char    *akc_diagnostic_get_code      (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
const char    *akc_diagnostic_get_message   (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
gboolean       akc_diagnostic_get_retryable (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
const char    *akc_diagnostic_get_event_id  (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
const char    *akc_diagnostic_get_field_path (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
AkcProtocolError akc_diagnostic_get_error_code (const AkcDiagnostic *self);

AKC_AVAILABLE_IN_ALL
gboolean       akc_diagnostic_equal         (const AkcDiagnostic *a,
                                             const AkcDiagnostic *b);
AKC_AVAILABLE_IN_ALL
AkcJsonValue  *akc_diagnostic_to_json       (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
char          *akc_diagnostic_to_canonical  (const AkcDiagnostic *self,
                                             gsize               *length);
AKC_AVAILABLE_IN_ALL
char *akc_diagnostic_to_canonical_utf8 (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
GError        *akc_diagnostic_to_error      (const AkcDiagnostic *self);
AKC_AVAILABLE_IN_ALL
void           akc_diagnostic_propagate     (const AkcDiagnostic *self,
                                             GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcDiagnostic, akc_diagnostic_unref)

G_END_DECLS

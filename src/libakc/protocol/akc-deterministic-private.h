/* akc-deterministic-private.h: the bounded decoding procedure shared by the
 * deterministic answer plane (protocol §8.5, §8.6)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc. The site configuration (§8.2), the local knowledge
 * artifact (§8.3) and the answer envelope (§8.4) are decoded by one
 * procedure, parameterised by protocol id, byte limit and schema type:
 *
 *   1. text only: bytes(text) > limit            -> DETERMINISTIC_LIMIT_EXCEEDED
 *   2. text only: not valid JSON                  -> DETERMINISTIC_INVALID_PAYLOAD
 *   3. right protocol, numeric version != 1       -> DETERMINISTIC_UNSUPPORTED_VERSION
 *   4. schema or cross-field failure              -> DETERMINISTIC_INVALID_PAYLOAD
 *   5. value only: bytes(canonical(normalised)) > limit -> DETERMINISTIC_LIMIT_EXCEEDED
 *
 * Text byte counts are taken after the WHATWG UTF-8 decode (§1.2): an
 * invalid byte counts as the three bytes of U+FFFD.
 */

#pragma once

#include <glib.h>

#include "akc-diagnostic.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"

G_BEGIN_DECLS

#define AKC_DETERMINISTIC_CODE_INVALID_PAYLOAD       "DETERMINISTIC_INVALID_PAYLOAD"
#define AKC_DETERMINISTIC_CODE_UNSUPPORTED_VERSION   "DETERMINISTIC_UNSUPPORTED_VERSION"
#define AKC_DETERMINISTIC_CODE_LIMIT_EXCEEDED        "DETERMINISTIC_LIMIT_EXCEEDED"
#define AKC_DETERMINISTIC_CODE_HASH_MISMATCH         "DETERMINISTIC_HASH_MISMATCH"

/* The fixed sentences of §8.5, §8.6 and §8.8 (asserted by the fixtures). */
#define AKC_DETERMINISTIC_MESSAGE_LIMIT_EXCEEDED     "Deterministic payload exceeds its safety limit."
#define AKC_DETERMINISTIC_MESSAGE_INVALID_JSON       "Deterministic payload is not valid JSON."
#define AKC_DETERMINISTIC_MESSAGE_UNSUPPORTED        "Deterministic payload uses an unsupported version."
#define AKC_DETERMINISTIC_MESSAGE_INVALID            "Deterministic payload is invalid."
#define AKC_DETERMINISTIC_MESSAGE_CONFIGURED_HASH    "Deterministic artifact does not match the configured content hash."
#define AKC_DETERMINISTIC_MESSAGE_OTHER_SITE         "Deterministic artifact belongs to a different site."
#define AKC_DETERMINISTIC_MESSAGE_TRUSTED_CONFIG     "Trusted deterministic artifact configuration is invalid."
#define AKC_DETERMINISTIC_MESSAGE_UNVERIFIABLE       "Deterministic artifact integrity could not be verified."
#define AKC_DETERMINISTIC_MESSAGE_CONTENT_HASH       "Deterministic artifact content does not match its SHA-256 hash."

typedef struct {
  const char          *protocol;   /* e.g. "agentskit.chat.site" */
  gsize                max_bytes;  /* §8.5 limit */
  const AkcSchemaType *type;       /* the envelope (OBJECT or UNION) */
} AkcDeterministicEnvelope;

/* Stores a new diagnostic (retryable FALSE) in @diagnostic when non-NULL. */
void          akc_deterministic_set_diagnostic (AkcDiagnostic                 **diagnostic,
                                                const char                     *code,
                                                const char                     *message);

/* §8.5 on @len bytes of text (may contain NUL bytes; need not be valid
 * UTF-8). Returns the normalised value (transfer full) or NULL with
 * *@diagnostic (nullable) set. */
AkcJsonValue *akc_deterministic_decode_text    (const AkcDeterministicEnvelope *envelope,
                                                const char                     *text,
                                                gsize                           len,
                                                AkcDiagnostic                 **diagnostic);

/* §8.5 on an already-parsed value (steps 3–5). */
AkcJsonValue *akc_deterministic_decode_value   (const AkcDeterministicEnvelope *envelope,
                                                AkcJsonValue                   *value,
                                                AkcDiagnostic                 **diagnostic);

/* Shared by the artifact (§8.3) and the answer envelope (§8.4). */
#define AKC_DETERMINISTIC_MARKDOWN_MAX_CHARS 16384

/* One Citation object (§8.3); `citations` arrays hold at most
 * AKC_ANSWER_MAX_CITATIONS of them. */
extern const AkcSchemaType akc_deterministic_citation_type;

G_END_DECLS

/* akc-knowledge-artifact.h: local knowledge artifact (agentskit.chat.knowledge v1):
 * decoding, content hash and verification
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_KNOWLEDGE_ARTIFACT_PROTOCOL:
 *
 * The `protocol` member of a local knowledge artifact ([protocol §8.3](wire-formats.html#protocol-8)).
 *
 * Since: 0.1
 */
#define AKC_KNOWLEDGE_ARTIFACT_PROTOCOL "agentskit.chat.knowledge"

/**
 * AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES:
 *
 * The safety limit of a local knowledge artifact in bytes ([protocol §8.5](wire-formats.html#protocol-8)).
 *
 * Since: 0.1
 */
#define AKC_KNOWLEDGE_ARTIFACT_MAX_BYTES 524288

/**
 * AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES:
 *
 * The largest number of entries of a local knowledge artifact.
 *
 * Since: 0.1
 */
#define AKC_KNOWLEDGE_ARTIFACT_MAX_ENTRIES 1024

/**
 * AKC_KNOWLEDGE_MATCH_MAX_VALUES:
 *
 * The largest number of exact match values (aliases) of one entry.
 *
 * Since: 0.1
 */
#define AKC_KNOWLEDGE_MATCH_MAX_VALUES 16

/**
 * AKC_KNOWLEDGE_QUERY_MAX_CHARS:
 *
 * The longest match value, normalised match value, query and normalised
 * query, in UTF-16 code units ([protocol §8.3](wire-formats.html#protocol-8), §8.4).
 *
 * Since: 0.1
 */
#define AKC_KNOWLEDGE_QUERY_MAX_CHARS 512

/**
 * AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER:
 *
 * The `contentHash` an artifact producer puts into an artifact before its
 * first hash is known ([protocol §8.7](wire-formats.html#protocol-8)): `sha256:` and 64 zeros.
 *
 * Since: 0.1
 */
#define AKC_KNOWLEDGE_CONTENT_HASH_PLACEHOLDER \
  "sha256:0000000000000000000000000000000000000000000000000000000000000000"

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_knowledge_artifact_decode               (const char     *text,
                                                           gssize          length,
                                                           const char     *expected_content_hash,
                                                           const char     *expected_site_id,
                                                           AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_knowledge_artifact_decode_utf8 (const char     *text,
                                                  const char     *expected_content_hash,
                                                  const char     *expected_site_id,
                                                  AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_knowledge_artifact_decode_value         (AkcJsonValue   *value,
                                                           const char     *expected_content_hash,
                                                           const char     *expected_site_id,
                                                           AkcDiagnostic **diagnostic);

AKC_AVAILABLE_IN_ALL
char         *akc_knowledge_artifact_compute_content_hash (AkcJsonValue   *value,
                                                           AkcDiagnostic **diagnostic);

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_knowledge_artifact_verify               (const char     *text,
                                                           gssize          length,
                                                           const char     *expected_content_hash,
                                                           const char     *expected_site_id,
                                                           AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_knowledge_artifact_verify_utf8 (const char     *text,
                                                  const char     *expected_content_hash,
                                                  const char     *expected_site_id,
                                                  AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_knowledge_artifact_verify_value         (AkcJsonValue   *value,
                                                           const char     *expected_content_hash,
                                                           const char     *expected_site_id,
                                                           AkcDiagnostic **diagnostic);

G_END_DECLS

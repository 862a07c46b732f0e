/* akc-answer.h: the answer envelope (agentskit.chat.answer v1)
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
 * AKC_ANSWER_PROTOCOL:
 *
 * The `protocol` member of an answer envelope ([protocol §8.4](wire-formats.html#protocol-8)).
 *
 * Since: 0.1
 */
#define AKC_ANSWER_PROTOCOL "agentskit.chat.answer"

/**
 * AKC_ANSWER_MAX_BYTES:
 *
 * The safety limit of an answer envelope in bytes ([protocol §8.5](wire-formats.html#protocol-8)).
 *
 * Since: 0.1
 */
#define AKC_ANSWER_MAX_BYTES 262144

/**
 * AKC_ANSWER_MAX_CITATIONS:
 *
 * The largest number of citations of an answer (and of an artifact entry).
 *
 * Since: 0.1
 */
#define AKC_ANSWER_MAX_CITATIONS 8

/**
 * AKC_ANSWER_MAX_SUGGESTIONS:
 *
 * The largest number of suggestions of a `choices` answer, and of entry ids
 * in a provenance or an escalation.
 *
 * Since: 0.1
 */
#define AKC_ANSWER_MAX_SUGGESTIONS 8

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_answer_decode       (const char     *text,
                                       gssize          length,
                                       AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_answer_decode_utf8 (const char     *text,
                                      AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_answer_decode_value (AkcJsonValue   *value,
                                       AkcDiagnostic **diagnostic);

G_END_DECLS

/* akc-answer-builder-private.h: building `agentskit.chat.answer` v1
 * envelopes (application §9.6, protocol §8.4)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc. Every envelope is written with the canonical JSON
 * writer (members in the order of protocol §8.4) and handed back as an
 * immutable value. The fixed escalation and choice sentences of
 * application appendix A live here.
 */

#pragma once

#include <glib.h>

#include "akc-json.h"

G_BEGIN_DECLS

#define AKC_ANSWER_QUERY_MAX_UNITS 512

#define AKC_ANSWER_MESSAGE_MISS        "No exact local answer was found. A backend answer is required."
#define AKC_ANSWER_MESSAGE_STALE       "Local knowledge is stale. A backend answer is required."
#define AKC_ANSWER_MESSAGE_CORRUPT     "Local knowledge is corrupt. A backend answer is required."
#define AKC_ANSWER_MESSAGE_OFFLINE     "This question needs the backend, which is not available."
#define AKC_ANSWER_MESSAGE_UNAVAILABLE "The selected local answer is unavailable. A backend answer is required."
#define AKC_ANSWER_MESSAGE_CHOICES     "More than one exact local answer matches. Choose one to continue."

/* The echoed query of every response (§9.3): the first 512 UTF-16 units of
 * the query, and normalize() of that, cut to 512 units. Cuts fall on a code
 * point boundary (§14 A1). */
typedef struct {
  char  *query;
  char  *normalized;
  gsize  query_units;       /* len16 of the whole, uncut query */
  gsize  normalized_units;  /* len16 of normalize(cut query), uncut */
} AkcAnswerQuery;

void          akc_answer_query_init          (AkcAnswerQuery     *q,
                                              const char         *query);
void          akc_answer_query_clear         (AkcAnswerQuery     *q);

/* A newly allocated copy of the longest prefix of @s (valid UTF-8, @len
 * bytes) that is at most @max_units UTF-16 units long. */
char         *akc_answer_slice16             (const char         *s,
                                              gsize               len,
                                              gsize               max_units);

/* @reason: "miss", "stale", "corrupt" or "offline". */
AkcJsonValue *akc_answer_build_escalation    (const AkcAnswerQuery *q,
                                              const char         *reason,
                                              const char         *message);

/* @entry: a decoded artifact entry. */
AkcJsonValue *akc_answer_build_local         (const AkcAnswerQuery *q,
                                              const AkcJsonValue *entry,
                                              const char         *artifact_id,
                                              const char         *content_hash);

/* @entries / @values: @n (2..8) decoded entries and their suggestion values. */
AkcJsonValue *akc_answer_build_choices       (const AkcAnswerQuery *q,
                                              const AkcJsonValue * const *entries,
                                              const char * const *values,
                                              gsize               n,
                                              const char         *artifact_id,
                                              const char         *content_hash);

/* @citations: an array of {id, title, href}; @provider, @model nullable. */
AkcJsonValue *akc_answer_build_backend       (const AkcAnswerQuery *q,
                                              const char         *markdown,
                                              gsize               markdown_len,
                                              const AkcJsonValue *citations,
                                              const char         *provider,
                                              const char         *model);

G_END_DECLS

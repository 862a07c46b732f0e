/* akc-knowledge-artifact-private.h: the hashed canonical text of a local
 * knowledge artifact (protocol §8.7)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib.h>

#include "akc-diagnostic.h"
#include "akc-json.h"

G_BEGIN_DECLS

/* The exact text whose SHA-256 is the artifact's content hash: @value with
 * its `contentHash` set to the placeholder, decoded as a value (§8.5,
 * including the byte limit), then written canonically without
 * `contentHash`. Returns a newly allocated string (its length in @length,
 * nullable) or NULL with *@diagnostic (nullable) set to the decoding
 * diagnostic. */
char *akc_knowledge_artifact_hash_text (AkcJsonValue   *value,
                                        gsize          *length,
                                        AkcDiagnostic **diagnostic);

G_END_DECLS

/* akc-answers-test.h: shared helpers for the deterministic answer tests
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc.h"
#include "akc-fixture.h"

G_BEGIN_DECLS

#define AKC_TEST_SITE_ID "agentskit-docs"
#define AKC_TEST_FIXTURE_HASH "sha256:d1b98e69dcb00985dc5fdad4a8475f926168e6485e85716758ad5e0f35cd4906"
#define AKC_TEST_STALE_HASH   "sha256:c48a310e9497d1588e408bf7eb72ca64c04f25431ef8d17cd351b1d3bab3a3e9"

/* The named artifacts of application/deterministic.json ("fixture",
 * "stale", "corrupt"), read from the fixture files: the reference fixture
 * artifact, the stale fixture artifact, and the fixture with a tampered
 * answer under its unchanged declared hash. Returns (transfer full) the
 * artifact value and stores the trusted hash in @expected_hash. */
AkcJsonValue *akc_answers_test_artifact (const char  *name,
                                         const char **expected_hash);

/* A resolver for the named artifact, trusted as the site configuration
 * would pin it. */
AkcKnowledgeResolver *akc_answers_test_resolver (const char *name);

/* ISO 8601 text -> milliseconds since the Unix epoch. */
gint64        akc_answers_test_ms       (const char  *iso);

/* An artifact with @n_entries entries of @n_aliases aliases each, every
 * alias unique except that the last alias of the first @n_shared entries
 * (@n_aliases >= 2) is "shared";
 * its content hash is computed and stored in @hash. */
char         *akc_answers_test_generate (guint        n_entries,
                                         guint        n_aliases,
                                         guint        n_shared,
                                         char       **hash);

G_END_DECLS

/* akc-component-test.h: shared pieces of the component tests
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc.h"
#include "akc-fixture.h"

G_BEGIN_DECLS

/* The fixtures' `map-view` (application README, catalog-interactions):
 * props are any JSON object; events pick:id, go:url, send:form, close:none. */
AkcComponentDefinition *akc_test_map_view_new        (void);

/* The manifests the fixtures name: "standard", "choice-list-only", and
 * "custom" (every standard component plus map-view). */
AkcComponentManifest   *akc_test_manifest            (const char            *name);

/* Member @name of the case input (NULL when absent). */
AkcJsonValue           *akc_test_input               (const AkcFixtureCase  *fc,
                                                      const char            *name);
const char             *akc_test_input_string        (const AkcFixtureCase  *fc,
                                                      const char            *name);

/* @error against an expectation {code, message}: the code exactly
 * ("AK_CONFIG_INVALID" is AKC_ERROR_CONFIG_INVALID) and the message exactly
 * (every such message is normative, application.md Appendix A). */
void                    akc_test_assert_error        (const GError          *error,
                                                      AkcJsonValue          *expected);

/* @diagnostic against an expectation {code, message, retryable}. */
void                    akc_test_assert_diagnostic   (AkcDiagnostic         *diagnostic,
                                                      AkcJsonValue          *expected);

G_END_DECLS

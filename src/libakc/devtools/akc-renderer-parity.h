/* akc-renderer-parity.h: do two renderers show a person the same thing?
 * (application.md §10.3)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_RENDERER_OUTCOMES_MAX:
 *
 * The most outcomes one renderer's list holds.
 *
 * Since: 0.1
 */
#define AKC_RENDERER_OUTCOMES_MAX 10000

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_renderer_outcomes_compare (AkcJsonValue  *renderers,
                                             GError       **error);

G_END_DECLS

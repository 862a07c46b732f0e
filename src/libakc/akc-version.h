/* akc-version.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include "akc-version-macros.h"

G_BEGIN_DECLS

AKC_AVAILABLE_IN_ALL
const char *akc_get_version (void);

G_END_DECLS

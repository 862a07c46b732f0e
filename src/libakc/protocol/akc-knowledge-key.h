/* akc-knowledge-key.h: knowledge-key normalisation and safe links
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
char     *akc_normalize_knowledge_key (const char *text) G_GNUC_MALLOC;

AKC_AVAILABLE_IN_ALL
gboolean  akc_is_safe_href            (const char *href);

AKC_AVAILABLE_IN_ALL
char     *akc_safe_href_dup_host      (const char *href) G_GNUC_MALLOC;

G_END_DECLS

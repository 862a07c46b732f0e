/* akc-component-text.h: texts a renderer shows for components
 * (application §0.7, §12.5, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

AKC_AVAILABLE_IN_ALL
char *akc_component_format_semantic_fallback (AkcJsonValue *fallback);
AKC_AVAILABLE_IN_ALL
char *akc_component_dup_cell_text            (AkcJsonValue *cell,
                                              gsize        *length);
AKC_AVAILABLE_IN_ALL
char *akc_component_dup_cell_text_utf8 (AkcJsonValue *cell);
AKC_AVAILABLE_IN_ALL
char *akc_component_dup_pretty_json          (AkcJsonValue *value);
AKC_AVAILABLE_IN_ALL
char **akc_component_dup_visible_texts       (AkcJsonValue *props);

G_END_DECLS

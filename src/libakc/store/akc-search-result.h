/* akc-search-result.h: one match of a history search
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_SEARCH_RESULT (akc_search_result_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcSearchResult, akc_search_result, AKC, SEARCH_RESULT, GObject)

AKC_AVAILABLE_IN_ALL
const char *akc_search_result_get_conversation_id (AkcSearchResult *self);
AKC_AVAILABLE_IN_ALL
const char *akc_search_result_get_message_id      (AkcSearchResult *self);
AKC_AVAILABLE_IN_ALL
const char *akc_search_result_get_snippet         (AkcSearchResult *self);
AKC_AVAILABLE_IN_ALL
double      akc_search_result_get_rank            (AkcSearchResult *self);
AKC_AVAILABLE_IN_ALL
guint       akc_search_result_get_n_matches       (AkcSearchResult *self);
AKC_AVAILABLE_IN_ALL
gboolean    akc_search_result_get_match           (AkcSearchResult *self,
                                                   guint            index,
                                                   guint           *start,
                                                   guint           *end);

G_END_DECLS

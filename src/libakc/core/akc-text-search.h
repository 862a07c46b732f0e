/* akc-text-search.h: finding what a person typed in the text of messages
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

#define AKC_TYPE_TEXT_SEARCH (akc_text_search_get_type ())

typedef struct _AkcTextSearch AkcTextSearch;

AKC_AVAILABLE_IN_ALL
GType          akc_text_search_get_type  (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcTextSearch *akc_text_search_new       (const char    *query);
AKC_AVAILABLE_IN_ALL
AkcTextSearch *akc_text_search_ref       (AkcTextSearch *self);
AKC_AVAILABLE_IN_ALL
void           akc_text_search_unref     (AkcTextSearch *self);
AKC_AVAILABLE_IN_ALL
const char    *akc_text_search_get_query (AkcTextSearch *self);
AKC_AVAILABLE_IN_ALL
gboolean       akc_text_search_is_empty  (AkcTextSearch *self);
AKC_AVAILABLE_IN_ALL
guint          akc_text_search_count     (AkcTextSearch *self,
                                          const char    *text,
                                          gssize         length);
AKC_AVAILABLE_IN_ALL
gsize         *akc_text_search_find_all  (AkcTextSearch *self,
                                          const char    *text,
                                          gssize         length,
                                          gsize         *n_offsets);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcTextSearch, akc_text_search_unref)

G_END_DECLS

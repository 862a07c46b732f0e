/* akc-search-result-private.h
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include "akc-search-result.h"

G_BEGIN_DECLS

/* The text between AKC_SEARCH_MATCH_OPEN and AKC_SEARCH_MATCH_CLOSE in
 * @marked (what FTS5's snippet() and highlight() return with them as
 * markers) are the matches; the markers are removed from the snippet. */
#define AKC_SEARCH_MATCH_OPEN  '\x01'
#define AKC_SEARCH_MATCH_CLOSE '\x02'

AkcSearchResult *akc_search_result_new_from_marked (const char *conversation_id,
                                                    const char *message_id,
                                                    const char *marked,
                                                    double      rank);

G_END_DECLS

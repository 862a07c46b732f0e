/* akc-message-search-text-private.h: the text of a message that search
 * matches and shows
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether a message's content is structured, so that what a person sees
 * of it is not its stored text: an assistant message whose content is
 * ordered content (protocol §4, it starts with U+001E) or may be a
 * whole-message component frame (its first non-blank byte is `{`). The
 * same rule, in SQL, is AKC_SEARCH_TEXT_OF() of akc-sqlite-schema.c. */
gboolean akc_message_content_is_structured (const char *role,
                                            const char *content,
                                            gsize       length);

/* What a person sees of a message, for search: NULL when that is its
 * content (not structured); otherwise the text parts of ordered content
 * and the visible text of each component (the strings of its props that
 * are shown: labels, titles, prompts, descriptions, snippets, table
 * captions, column labels and cells; the summary of its fallback when it
 * cannot be shown), one per line. Never JSON keys or frame syntax: a
 * structured content that does not decode gives "". Safe on any thread. */
char    *akc_message_dup_search_text       (const char *role,
                                            const char *content,
                                            gsize       length);

G_END_DECLS

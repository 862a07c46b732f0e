/* akc-conversation-title.h: the title of a conversation from its first
 * message
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_CONVERSATION_TITLE_MAX_CHARS:
 *
 * The most characters [func@derive_conversation_title] keeps of a
 * message, before the ellipsis it adds to a shortened title.
 *
 * Since: 0.1
 */
#define AKC_CONVERSATION_TITLE_MAX_CHARS 50

AKC_AVAILABLE_IN_ALL
char *akc_derive_conversation_title (const char *text,
                                     gssize      length);
AKC_AVAILABLE_IN_ALL
char *akc_derive_conversation_title_utf8 (const char *text);

G_END_DECLS

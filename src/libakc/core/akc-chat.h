/* akc-chat.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include "akc-adapter.h"
#include "akc-chat-source.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_CHAT (akc_chat_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcChat, akc_chat, AKC, CHAT, GObject)

AKC_AVAILABLE_IN_ALL
AkcChat    *akc_chat_new         (AkcAdapter *adapter);
AKC_AVAILABLE_IN_ALL
AkcAdapter *akc_chat_get_adapter (AkcChat    *self);

G_END_DECLS

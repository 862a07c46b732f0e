/* akc-ask-adapter.h: the Ask client adapter (application §8)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-adapter.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_ASK_ADAPTER_DEFAULT_ENDPOINT:
 *
 * The endpoint an [class@AskAdapter] posts to when none is given.
 *
 * Since: 0.1
 */
#define AKC_ASK_ADAPTER_DEFAULT_ENDPOINT "https://ask.agentskit.io/v1/ask"

/**
 * AKC_ASK_ADAPTER_DEFAULT_CONNECT_TIMEOUT:
 *
 * Milliseconds an [class@AskAdapter] waits for the response headers.
 *
 * Since: 0.1
 */
#define AKC_ASK_ADAPTER_DEFAULT_CONNECT_TIMEOUT 30000

#define AKC_TYPE_ASK_ADAPTER (akc_ask_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAskAdapter, akc_ask_adapter, AKC, ASK_ADAPTER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAskAdapter *akc_ask_adapter_new                 (const char    *endpoint);
AKC_AVAILABLE_IN_ALL
const char    *akc_ask_adapter_get_endpoint        (AkcAskAdapter *self);
AKC_AVAILABLE_IN_ALL
const char    *akc_ask_adapter_get_corpus          (AkcAskAdapter *self);
AKC_AVAILABLE_IN_ALL
void           akc_ask_adapter_set_corpus          (AkcAskAdapter *self,
                                                    const char    *corpus);
AKC_AVAILABLE_IN_ALL
const char    *akc_ask_adapter_get_persona         (AkcAskAdapter *self);
AKC_AVAILABLE_IN_ALL
void           akc_ask_adapter_set_persona         (AkcAskAdapter *self,
                                                    const char    *persona);
AKC_AVAILABLE_IN_ALL
const char    *akc_ask_adapter_get_base_uri        (AkcAskAdapter *self);
AKC_AVAILABLE_IN_ALL
void           akc_ask_adapter_set_base_uri        (AkcAskAdapter *self,
                                                    const char    *base_uri);
AKC_AVAILABLE_IN_ALL
guint          akc_ask_adapter_get_connect_timeout (AkcAskAdapter *self);
AKC_AVAILABLE_IN_ALL
void           akc_ask_adapter_set_connect_timeout (AkcAskAdapter *self,
                                                    guint          timeout_ms);
AKC_AVAILABLE_IN_ALL
void           akc_ask_adapter_set_bearer_token    (AkcAskAdapter *self,
                                                    const char    *token);
AKC_AVAILABLE_IN_ALL
gboolean       akc_ask_adapter_has_bearer_token    (AkcAskAdapter *self);
AKC_AVAILABLE_IN_ALL
char          *akc_ask_adapter_dup_request_url     (AkcAskAdapter *self);

G_END_DECLS

/* akc-echo-adapter.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include "akc-adapter.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_ECHO_ADAPTER (akc_echo_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcEchoAdapter, akc_echo_adapter, AKC, ECHO_ADAPTER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAdapter *akc_echo_adapter_new               (void);
AKC_AVAILABLE_IN_ALL
guint       akc_echo_adapter_get_chunk_interval (AkcEchoAdapter *self);
AKC_AVAILABLE_IN_ALL
void        akc_echo_adapter_set_chunk_interval (AkcEchoAdapter *self,
                                                 guint           interval_ms);

G_END_DECLS

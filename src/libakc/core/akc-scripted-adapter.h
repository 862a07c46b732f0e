/* akc-scripted-adapter.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include "akc-adapter.h"
#include "akc-chunk.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_SCRIPTED_ADAPTER (akc_scripted_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcScriptedAdapter, akc_scripted_adapter, AKC, SCRIPTED_ADAPTER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAdapter *akc_scripted_adapter_new                  (void);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_begin_turn           (AkcScriptedAdapter *self);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_add_chunk            (AkcScriptedAdapter *self,
                                                       AkcChunk           *chunk,
                                                       guint               delay_ms);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_add_text             (AkcScriptedAdapter *self,
                                                       const char         *text,
                                                       guint               delay_ms);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_add_tool_call        (AkcScriptedAdapter *self,
                                                       const char         *id,
                                                       const char         *name,
                                                       const char         *arguments,
                                                       guint               delay_ms);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_add_usage            (AkcScriptedAdapter *self,
                                                       guint64             prompt_tokens,
                                                       guint64             completion_tokens,
                                                       guint64             total_tokens,
                                                       guint               delay_ms);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_add_done             (AkcScriptedAdapter *self,
                                                       guint               delay_ms);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_add_error            (AkcScriptedAdapter *self,
                                                       const char         *code,
                                                       const char         *message,
                                                       guint               delay_ms);
AKC_AVAILABLE_IN_ALL
guint       akc_scripted_adapter_get_n_pending_turns  (AkcScriptedAdapter *self);
AKC_AVAILABLE_IN_ALL
guint       akc_scripted_adapter_get_n_calls          (AkcScriptedAdapter *self);
AKC_AVAILABLE_IN_ALL
GListModel *akc_scripted_adapter_get_call_messages    (AkcScriptedAdapter *self,
                                                       guint               call);
AKC_AVAILABLE_IN_ALL
AkcAdapterRequest *akc_scripted_adapter_get_call_request (AkcScriptedAdapter *self,
                                                          guint               call);
AKC_AVAILABLE_IN_ALL
const char *akc_scripted_adapter_get_call_input       (AkcScriptedAdapter *self,
                                                       guint               call);
AKC_AVAILABLE_IN_ALL
gboolean    akc_scripted_adapter_get_ignore_cancellation (AkcScriptedAdapter *self);
AKC_AVAILABLE_IN_ALL
void        akc_scripted_adapter_set_ignore_cancellation (AkcScriptedAdapter *self,
                                                          gboolean            ignore_cancellation);
AKC_AVAILABLE_IN_ALL
guint       akc_scripted_adapter_get_n_dropped        (AkcScriptedAdapter *self);

G_END_DECLS

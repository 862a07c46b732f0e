/* akc-adapter.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-adapter-request.h"
#include "akc-stream.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_ADAPTER (akc_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (AkcAdapter, akc_adapter, AKC, ADAPTER, GObject)

/**
 * AkcAdapterInterface:
 * @stream: starts one model turn answering @request, pushing chunks into @stream
 * @get_capabilities: what the adapter declares it can do, as a JSON object
 *   (for example `{"streaming":true}`), or %NULL when it declares nothing;
 *   optional, the default declares nothing. An adapter that sends the
 *   [class@Attachment]s of messages declares
 *   `"attachments":{"images":BOOL,"text":BOOL}`; hosts offer attachments
 *   only then
 *
 * The virtual methods of [iface@Adapter].
 */
struct _AkcAdapterInterface
{
  GTypeInterface parent_iface;

  void (*stream) (AkcAdapter        *self,
                  AkcAdapterRequest *request,
                  AkcStream         *stream);

  AkcJsonValue *(*get_capabilities) (AkcAdapter *self);
};

AKC_AVAILABLE_IN_ALL
void akc_adapter_stream (AkcAdapter        *self,
                         AkcAdapterRequest *request,
                         AkcStream         *stream);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_adapter_get_capabilities (AkcAdapter *self);

G_END_DECLS

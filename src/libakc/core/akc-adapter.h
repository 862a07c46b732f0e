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
 *
 * The virtual methods of [iface@Adapter].
 */
struct _AkcAdapterInterface
{
  GTypeInterface parent_iface;

  void (*stream) (AkcAdapter        *self,
                  AkcAdapterRequest *request,
                  AkcStream         *stream);
};

AKC_AVAILABLE_IN_ALL
void akc_adapter_stream (AkcAdapter        *self,
                         AkcAdapterRequest *request,
                         AkcStream         *stream);

G_END_DECLS

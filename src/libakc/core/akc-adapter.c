/* akc-adapter.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-adapter.h"
#include "akc-message.h"

/**
 * AkcAdapter:
 *
 * One streamed model turn.
 *
 * An adapter turns a conversation into a reply. The controller calls
 * [method@Adapter.stream] with an [class@AdapterRequest] (the messages so
 * far, the session and any request metadata) and an open [class@Stream];
 * the adapter starts its work (a network request, a
 * script, a lookup) and returns at once, then pushes text, tool-call,
 * metadata and finally done or error chunks into the stream from the main
 * context. It must stop its work when the stream's cancellable is
 * cancelled; chunks pushed after that are dropped anyway.
 *
 * The request's messages are the conversation so far followed by the reply
 * being written, as the reference controller passes them: an assistant
 * message with the reply's id and, as it was when the call began, no
 * content. The request is immutable and the adapter's to keep.
 *
 * Adapters compose: a layer in front of another adapter (a conversation's
 * deterministic routes, the deterministic answer plane) answers some
 * requests itself and hands the others, possibly with added metadata, to
 * the adapter behind it.
 *
 * Since: 0.1
 */

G_DEFINE_INTERFACE (AkcAdapter, akc_adapter, G_TYPE_OBJECT)

static AkcJsonValue *
akc_adapter_real_get_capabilities (AkcAdapter *self)
{
  return NULL;
}

static void
akc_adapter_default_init (AkcAdapterInterface *iface)
{
  iface->get_capabilities = akc_adapter_real_get_capabilities;
}

/**
 * akc_adapter_stream:
 * @self: a #AkcAdapter
 * @request: (transfer none): what to answer
 * @stream: (transfer none): the open stream to push chunks into
 *
 * Starts one model turn. See [iface@Adapter].
 *
 * Since: 0.1
 */
void
akc_adapter_stream (AkcAdapter        *self,
                    AkcAdapterRequest *request,
                    AkcStream         *stream)
{
  g_return_if_fail (AKC_IS_ADAPTER (self));
  g_return_if_fail (AKC_IS_ADAPTER_REQUEST (request));
  g_return_if_fail (AKC_IS_STREAM (stream));

  if (akc_stream_is_closed (stream))
    return;

  AKC_ADAPTER_GET_IFACE (self)->stream (self, request, stream);
}

/**
 * akc_adapter_get_capabilities:
 * @self: a #AkcAdapter
 *
 * Gets what the adapter declares it can do, as a JSON object of named
 * capabilities (`streaming`, `structuredOutput`, …). An adapter that does
 * not implement [vfunc@Adapter.get_capabilities] declares nothing; a layer
 * in front of it then uses its own defaults ([application §9.4](wire-formats.html#application-9)).
 *
 * Returns: (transfer full) (nullable): the capabilities, or %NULL when the
 *   adapter declares none
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_adapter_get_capabilities (AkcAdapter *self)
{
  AkcAdapterInterface *iface;

  g_return_val_if_fail (AKC_IS_ADAPTER (self), NULL);

  iface = AKC_ADAPTER_GET_IFACE (self);
  if (iface->get_capabilities == NULL)
    return NULL;

  return iface->get_capabilities (self);
}

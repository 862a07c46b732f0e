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
 * [method@Adapter.stream] with the messages so far and an open
 * [class@Stream]; the adapter starts its work (a network request, a
 * script, a lookup) and returns at once, then pushes text, tool-call,
 * metadata and finally done or error chunks into the stream from the main
 * context. It must stop its work when the stream's cancellable is
 * cancelled; chunks pushed after that are dropped anyway.
 *
 * @messages is the conversation up to the message being answered; it does
 * not contain the reply being written. It is the adapter's to keep: the
 * controller does not change it afterwards.
 */

G_DEFINE_INTERFACE (AkcAdapter, akc_adapter, G_TYPE_OBJECT)

static void
akc_adapter_default_init (AkcAdapterInterface *iface)
{
}

/**
 * akc_adapter_stream:
 * @self: a #AkcAdapter
 * @messages: (transfer none): a #GListModel of [class@Message], the conversation up to the message to answer
 * @stream: (transfer none): the open stream to push chunks into
 *
 * Starts one model turn. See [iface@Adapter].
 */
void
akc_adapter_stream (AkcAdapter *self,
                    GListModel *messages,
                    AkcStream  *stream)
{
  g_return_if_fail (AKC_IS_ADAPTER (self));
  g_return_if_fail (G_IS_LIST_MODEL (messages));
  g_return_if_fail (g_list_model_get_item_type (messages) == AKC_TYPE_MESSAGE);
  g_return_if_fail (AKC_IS_STREAM (stream));

  if (akc_stream_is_closed (stream))
    return;

  AKC_ADAPTER_GET_IFACE (self)->stream (self, messages, stream);
}

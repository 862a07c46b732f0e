/* akc-trace-adapter.c: an adapter that shows its turns to a trace capture
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-replay-fixture.h"
#include "akc-trace-capture.h"

/* The adapter [method@TraceCapture.wrap_adapter] returns: it hands each
 * turn to the adapter it wraps, on the same stream, and tells the capture
 * what went over the wire (the stream's wire-event tap) or, for an
 * adapter that taps nothing, the request's shape and each chunk that came
 * back, and, when the turn ends, a turn record of kind `agentic` from
 * `streaming` to `done`, `error` or `stopped`. */

#define AKC_TYPE_TRACE_ADAPTER (akc_trace_adapter_get_type ())

G_DECLARE_FINAL_TYPE (AkcTraceAdapter, akc_trace_adapter, AKC, TRACE_ADAPTER, GObject)

struct _AkcTraceAdapter
{
  GObject          parent_instance;

  AkcAdapter      *inner;
  AkcTraceCapture *capture;   /* weak: the capture does not keep its conversations */
  char            *source;
};

static void akc_trace_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTraceAdapter, akc_trace_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_trace_adapter_iface_init))

typedef struct
{
  AkcTraceCapture *capture;   /* weak */
  char            *source;
  AkcJsonValue    *request;   /* the request's shape, until the wire or a chunk tells more */
  gboolean         tapped;    /* the adapter reports its wire: chunks are not wire events */
  gboolean         ended;
} Turn;

static void
turn_clear (gpointer data)
{
  Turn *turn = data;

  g_clear_weak_pointer (&turn->capture);
  g_free (turn->source);
  g_clear_pointer (&turn->request, akc_json_value_unref);
}

static void
add_event (Turn         *turn,
           const char   *direction,
           AkcJsonValue *event)
{
  akc_json_value_unref (akc_trace_capture_add_wire_event (turn->capture, turn->source, direction, event));
}

/* An adapter that taps nothing: its request's shape goes first. */
static void
flush_request (Turn *turn)
{
  g_autoptr(AkcJsonValue) request = g_steal_pointer (&turn->request);

  if (request != NULL && !turn->tapped && turn->capture != NULL)
    add_event (turn, "sent", request);
}

static void
turn_release (gpointer data)
{
  g_rc_box_release_full (data, turn_clear);
}

static void
turn_release_closure (gpointer  data,
                      GClosure *closure)
{
  turn_release (data);
}

static void
end_turn (Turn       *turn,
          const char *to_state)
{
  g_autoptr(AkcTraceRecord) record = NULL;
  g_autoptr(GError) error = NULL;

  if (turn->ended || turn->capture == NULL)
    return;
  turn->ended = TRUE;
  flush_request (turn);

  record = akc_trace_capture_capture_turn (turn->capture, AKC_TRACE_KIND_AGENTIC, NULL,
                                           "streaming", to_state, NULL, &error);
  if (record == NULL)
    g_debug ("Turn trace not captured: %s", error->message);
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          Turn      *turn)
{
  AkcChunkKind kind = akc_chunk_get_kind (chunk);

  if (turn->capture == NULL)
    return;

  if (!turn->tapped)
    {
      g_autoptr(AkcJsonValue) wire = akc_chunk_to_replay_json (chunk);

      flush_request (turn);
      add_event (turn, "received", wire);
    }
  if (kind == AKC_CHUNK_DONE)
    end_turn (turn, "done");
  else if (kind == AKC_CHUNK_ERROR)
    end_turn (turn, "error");
}

/* What the adapter sent or received, as it went over the wire. */
static void
on_wire_event (AkcStream    *stream,
               const char   *direction,
               AkcJsonValue *event,
               Turn         *turn)
{
  if (turn->capture == NULL)
    return;

  turn->tapped = TRUE;
  g_clear_pointer (&turn->request, akc_json_value_unref);
  add_event (turn, direction, event);
}

static gboolean
end_stopped (gpointer data)
{
  end_turn (data, "stopped");
  return G_SOURCE_REMOVE;
}

/* Cancelled before done or error: the person stopped the turn. A chat
 * may also cancel a stream while the done or error chunk is being
 * delivered, before this adapter's handler saw it: decide once that
 * delivery is over. */
static void
on_cancelled (GCancellable *cancellable,
              Turn         *turn)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, end_stopped, g_rc_box_acquire (turn), turn_release);
}

static AkcJsonValue *
request_event (AkcAdapterRequest *request)
{
  GListModel *messages = akc_adapter_request_get_messages (request);
  AkcJsonValue *metadata = akc_adapter_request_get_metadata (request);
  const char *names[] = { "type", "messageCount", "hasSystemPrompt", "metadata" };
  AkcJsonValue *values[4];
  AkcJsonValue *event;

  values[0] = akc_json_value_new_string ("request", -1);
  values[1] = akc_json_value_new_number (messages != NULL ? g_list_model_get_n_items (messages) : 0);
  values[2] = akc_json_value_new_boolean (akc_adapter_request_get_system_prompt (request) != NULL);
  values[3] = metadata != NULL ? akc_json_value_ref (metadata) : akc_json_value_new_null ();
  event = akc_json_value_new_object (names, values, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);
  return event;
}

static void
akc_trace_adapter_stream (AkcAdapter        *adapter,
                          AkcAdapterRequest *request,
                          AkcStream         *stream)
{
  AkcTraceAdapter *self = AKC_TRACE_ADAPTER (adapter);

  if (self->capture != NULL)
    {
      Turn *turn = g_rc_box_new0 (Turn);

      /* One turn state, seen by the wire and chunk handlers and the
       * cancellable, each holding a reference. The request's shape waits
       * for the first wire event (then it is not needed: the request
       * itself is one) or the first chunk. */
      g_set_weak_pointer (&turn->capture, self->capture);
      turn->source = g_strdup (self->source);
      turn->request = request_event (request);
      g_signal_connect_data (stream, "wire-event", G_CALLBACK (on_wire_event), g_rc_box_acquire (turn),
                             turn_release_closure, 0);
      g_signal_connect_data (stream, "chunk", G_CALLBACK (on_chunk), g_rc_box_acquire (turn),
                             turn_release_closure, 0);
      g_cancellable_connect (akc_stream_get_cancellable (stream), G_CALLBACK (on_cancelled),
                             turn, turn_release);
    }

  akc_adapter_stream (self->inner, request, stream);
}

static AkcJsonValue *
akc_trace_adapter_get_capabilities (AkcAdapter *adapter)
{
  AkcTraceAdapter *self = AKC_TRACE_ADAPTER (adapter);

  return akc_adapter_get_capabilities (self->inner);
}

static void
akc_trace_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_trace_adapter_stream;
  iface->get_capabilities = akc_trace_adapter_get_capabilities;
}

static void
akc_trace_adapter_dispose (GObject *object)
{
  AkcTraceAdapter *self = AKC_TRACE_ADAPTER (object);

  g_clear_object (&self->inner);
  g_clear_weak_pointer (&self->capture);

  G_OBJECT_CLASS (akc_trace_adapter_parent_class)->dispose (object);
}

static void
akc_trace_adapter_finalize (GObject *object)
{
  AkcTraceAdapter *self = AKC_TRACE_ADAPTER (object);

  g_free (self->source);

  G_OBJECT_CLASS (akc_trace_adapter_parent_class)->finalize (object);
}

static void
akc_trace_adapter_class_init (AkcTraceAdapterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_trace_adapter_dispose;
  object_class->finalize = akc_trace_adapter_finalize;
}

static void
akc_trace_adapter_init (AkcTraceAdapter *self)
{
}

/**
 * akc_trace_capture_wrap_adapter:
 * @self: a capture
 * @adapter: the adapter that answers
 * @source: the name its wire events go by, such as `ask` or `provider`
 *
 * Wraps @adapter so that @self follows its turns. What an adapter that
 * talks to a backend reports on the turn's stream
 * ([signal@Stream::wire-event]: the Ask adapter, the provider adapter,
 * behind any layer) becomes the turn's wire events: the request body as
 * sent, each event of the answer as received (an Ask NDJSON object, the
 * JSON of a provider's SSE `data:` or NDJSON line), a failed response's
 * status and body. For an adapter that reports nothing, the request
 * becomes a wire event `{type: "request", messageCount, hasSystemPrompt,
 * metadata}` (never the messages' text) and each chunk of the reply a
 * wire event in the replay fixture's chunk form (`{type: "text",
 * content}` …). The end of each turn is a turn record of kind `agentic`
 * whose state goes from `streaming` to `done`, `error` or `stopped`.
 * Every event is redacted as [method@TraceCapture.add_wire_event] says:
 * a request's message texts never show. The returned adapter answers
 * exactly as @adapter does, on the same stream; it does not keep @self
 * alive.
 *
 * Returns: (transfer full): the adapter to give the chat
 *
 * Since: 0.1
 */
AkcAdapter *
akc_trace_capture_wrap_adapter (AkcTraceCapture *self,
                                AkcAdapter      *adapter,
                                const char      *source)
{
  AkcTraceAdapter *wrapper;

  g_return_val_if_fail (AKC_IS_TRACE_CAPTURE (self), NULL);
  g_return_val_if_fail (AKC_IS_ADAPTER (adapter), NULL);
  g_return_val_if_fail (source != NULL, NULL);

  wrapper = g_object_new (AKC_TYPE_TRACE_ADAPTER, NULL);
  wrapper->inner = g_object_ref (adapter);
  g_set_weak_pointer (&wrapper->capture, self);
  wrapper->source = g_strdup (source);

  return AKC_ADAPTER (wrapper);
}

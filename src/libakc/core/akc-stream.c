/* akc-stream.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-json-private.h"
#include "akc-stream.h"

/**
 * AkcStream:
 *
 * The channel of one streamed model turn, from an [iface@Adapter] to the
 * controller that asked for it.
 *
 * The controller creates the stream and hands it to
 * [method@Adapter.stream]; the adapter pushes [struct@Chunk]s into it from
 * the main context, and the controller receives each one through
 * [signal@Stream::chunk].
 *
 * A stream is closed by a done or error chunk, or by
 * [method@Stream.cancel]. Once closed it drops every later chunk: a reply
 * that was stopped can never change the conversation again. Cancelling
 * also cancels [method@Stream.get_cancellable], so an adapter's network or
 * timer work ends too.
 *
 * A stream is also the tap of its turn's wire: an adapter that talks to a
 * backend reports what it sent and what it received, as JSON, through
 * [signal@Stream::wire-event] ([method@Stream.tap_wire_event],
 * [method@Stream.tap_wire_text]), for a view of the wire such as the
 * adapter [method@TraceCapture.wrap_adapter] returns. The events are
 * those of this turn only, whatever adapter or layer did the I/O: a layer
 * that answers through an inner stream relays them. Nothing is built
 * while nobody listens ([method@Stream.wants_wire_events]). The events are
 * not redacted: they hold what the person typed and, in a session id,
 * what ties the turn to them; whoever shows or keeps them redacts them
 * first. Credentials are never tapped.
 *
 * Since: 0.1
 */

struct _AkcStream
{
  GObject       parent_instance;

  GCancellable *cancellable;
  guint         closed : 1;
};

G_DEFINE_FINAL_TYPE (AkcStream, akc_stream, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CLOSED,
  N_PROPS
};

enum {
  CHUNK,
  WIRE_EVENT,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

static void
akc_stream_finalize (GObject *object)
{
  AkcStream *self = (AkcStream *)object;

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (akc_stream_parent_class)->finalize (object);
}

static void
akc_stream_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  AkcStream *self = AKC_STREAM (object);

  switch (prop_id)
    {
    case PROP_CLOSED:
      g_value_set_boolean (value, self->closed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_stream_class_init (AkcStreamClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_stream_finalize;
  object_class->get_property = akc_stream_get_property;

  /**
   * AkcStream:closed:
   *
   * Whether the stream takes no more chunks.
   *
   * Since: 0.1
   */
  props[PROP_CLOSED] =
    g_param_spec_boolean ("closed", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcStream::chunk:
   * @self: a #AkcStream
   * @chunk: the chunk
   *
   * Emitted for each chunk pushed while the stream is open, the closing
   * done or error chunk included.
   *
   * Since: 0.1
   */
  signals[CHUNK] =
    g_signal_new ("chunk",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, AKC_TYPE_CHUNK | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcStream::wire-event:
   * @self: a #AkcStream
   * @direction: `sent` or `received`
   * @event: what went over the wire, as JSON: a request body, one line
   *   or event of the answer
   *
   * Emitted, while the stream is open, for each thing the adapter of the
   * turn sent to or received from its backend (see [class@Stream]). The
   * event is not redacted.
   *
   * Since: 0.1
   */
  signals[WIRE_EVENT] =
    g_signal_new ("wire-event",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_stream_init (AkcStream *self)
{
  self->cancellable = g_cancellable_new ();
}

/**
 * akc_stream_new:
 *
 * Creates an open stream.
 *
 * Returns: (transfer full): a new #AkcStream
 *
 * Since: 0.1
 */
AkcStream *
akc_stream_new (void)
{
  return g_object_new (AKC_TYPE_STREAM, NULL);
}

/**
 * akc_stream_get_cancellable:
 * @self: a #AkcStream
 *
 * Gets the cancellable that is cancelled when the stream is cancelled.
 * Adapters pass it to their asynchronous work.
 *
 * Returns: (transfer none): the cancellable
 *
 * Since: 0.1
 */
GCancellable *
akc_stream_get_cancellable (AkcStream *self)
{
  g_return_val_if_fail (AKC_IS_STREAM (self), NULL);

  return self->cancellable;
}

static void
akc_stream_close (AkcStream *self)
{
  if (self->closed)
    return;

  self->closed = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CLOSED]);
}

/**
 * akc_stream_push:
 * @self: a #AkcStream
 * @chunk: the chunk to deliver
 *
 * Delivers @chunk to the consumer, unless the stream is closed. A done or
 * error chunk closes the stream after it is delivered.
 *
 * Returns: %TRUE if @chunk was delivered, %FALSE if the stream was closed
 *
 * Since: 0.1
 */
gboolean
akc_stream_push (AkcStream *self,
                 AkcChunk  *chunk)
{
  AkcChunkKind kind;

  g_return_val_if_fail (AKC_IS_STREAM (self), FALSE);
  g_return_val_if_fail (chunk != NULL, FALSE);

  if (self->closed)
    return FALSE;

  kind = akc_chunk_get_kind (chunk);

  g_object_ref (self);
  if (kind == AKC_CHUNK_DONE || kind == AKC_CHUNK_ERROR)
    {
      /* Closed before delivery, so a handler cannot re-enter the stream. */
      akc_stream_close (self);
    }
  g_signal_emit (self, signals[CHUNK], 0, chunk);
  g_object_unref (self);

  return TRUE;
}

/**
 * akc_stream_push_text:
 * @self: a #AkcStream
 * @text: a piece of reply text
 *
 * Delivers a text chunk. See [method@Stream.push].
 *
 * Returns: %TRUE if the text was delivered
 *
 * Since: 0.1
 */
gboolean
akc_stream_push_text (AkcStream  *self,
                      const char *text)
{
  g_autoptr(AkcChunk) chunk = NULL;

  g_return_val_if_fail (AKC_IS_STREAM (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->closed)
    return FALSE;

  chunk = akc_chunk_new_text (text, -1);

  return akc_stream_push (self, chunk);
}

/**
 * akc_stream_finish:
 * @self: a #AkcStream
 *
 * Delivers the done chunk and closes the stream.
 *
 * Returns: %TRUE if the done chunk was delivered
 *
 * Since: 0.1
 */
gboolean
akc_stream_finish (AkcStream *self)
{
  g_autoptr(AkcChunk) chunk = NULL;

  g_return_val_if_fail (AKC_IS_STREAM (self), FALSE);

  if (self->closed)
    return FALSE;

  chunk = akc_chunk_new_done ();

  return akc_stream_push (self, chunk);
}

/**
 * akc_stream_fail:
 * @self: a #AkcStream
 * @code: (nullable): a stable error code
 * @message: a message that is safe to show to the person
 *
 * Delivers an error chunk and closes the stream.
 *
 * Returns: %TRUE if the error chunk was delivered
 *
 * Since: 0.1
 */
gboolean
akc_stream_fail (AkcStream  *self,
                 const char *code,
                 const char *message)
{
  g_autoptr(AkcChunk) chunk = NULL;

  g_return_val_if_fail (AKC_IS_STREAM (self), FALSE);
  g_return_val_if_fail (message != NULL, FALSE);

  if (self->closed)
    return FALSE;

  chunk = akc_chunk_new_error (code, message);

  return akc_stream_push (self, chunk);
}

/**
 * akc_stream_cancel:
 * @self: a #AkcStream
 *
 * Closes the stream without a final chunk and cancels its cancellable.
 * Chunks pushed afterwards are dropped.
 *
 * Since: 0.1
 */
void
akc_stream_cancel (AkcStream *self)
{
  g_return_if_fail (AKC_IS_STREAM (self));

  g_object_ref (self);
  akc_stream_close (self);
  g_cancellable_cancel (self->cancellable);
  g_object_unref (self);
}

/**
 * akc_stream_is_closed:
 * @self: a #AkcStream
 *
 * Gets whether the stream still takes chunks.
 *
 * Returns: %TRUE once the stream is closed
 *
 * Since: 0.1
 */
gboolean
akc_stream_is_closed (AkcStream *self)
{
  g_return_val_if_fail (AKC_IS_STREAM (self), TRUE);

  return self->closed;
}

/**
 * akc_stream_wants_wire_events:
 * @self: a #AkcStream
 *
 * Gets whether anything listens to the wire of the turn
 * ([signal@Stream::wire-event]) while the stream is open, so an adapter
 * builds its wire events only then.
 *
 * Returns: %TRUE if wire events are wanted
 *
 * Since: 0.1
 */
gboolean
akc_stream_wants_wire_events (AkcStream *self)
{
  g_return_val_if_fail (AKC_IS_STREAM (self), FALSE);

  return !self->closed && g_signal_has_handler_pending (self, signals[WIRE_EVENT], 0, TRUE);
}

/**
 * akc_stream_tap_wire_event:
 * @self: a #AkcStream
 * @direction: `sent` or `received`
 * @event: what went over the wire
 *
 * Reports one thing the turn sent or received (see
 * [signal@Stream::wire-event]), unless the stream is closed.
 *
 * Since: 0.1
 */
void
akc_stream_tap_wire_event (AkcStream    *self,
                           const char   *direction,
                           AkcJsonValue *event)
{
  g_return_if_fail (AKC_IS_STREAM (self));
  g_return_if_fail (direction != NULL);
  g_return_if_fail (event != NULL);

  if (self->closed)
    return;

  g_signal_emit (self, signals[WIRE_EVENT], 0, direction, event);
}

static AkcJsonValue *
omitted (gsize length)
{
  const char *name = "omittedBytes";
  g_autoptr(AkcJsonValue) size = akc_json_value_new_number ((double) length);

  return akc_json_value_new_object (&name, &size, 1);
}

/**
 * akc_stream_tap_wire_text:
 * @self: a #AkcStream
 * @direction: `sent` or `received`
 * @text: the text as it went over the wire: a JSON request body, one
 *   line of an NDJSON answer, the data of one Server-Sent Event
 * @length: its length in bytes, or -1 when it ends with a NUL
 *
 * Reports @text as [method@Stream.tap_wire_event] does: as the JSON value
 * it holds, or, when it is not JSON (such as `[DONE]`), as a JSON string
 * of it (invalid UTF-8 replaced). A text over %AKC_STREAM_MAX_WIRE_TEXT
 * bytes is not parsed: it is reported as `{"omittedBytes": N}`. Nothing
 * is done while nobody listens ([method@Stream.wants_wire_events]).
 *
 * Since: 0.1
 */
void
akc_stream_tap_wire_text (AkcStream  *self,
                          const char *direction,
                          const char *text,
                          gssize      length)
{
  g_autoptr(AkcJsonValue) event = NULL;

  g_return_if_fail (AKC_IS_STREAM (self));
  g_return_if_fail (direction != NULL);
  g_return_if_fail (text != NULL || length <= 0);

  if (!akc_stream_wants_wire_events (self))
    return;
  if (length < 0)
    length = text != NULL ? (gssize) strlen (text) : 0;

  if ((gsize) length > AKC_STREAM_MAX_WIRE_TEXT)
    event = omitted (length);
  else
    {
      event = akc_json_parse (text, length, NULL, NULL, NULL);
      if (event == NULL)
        {
          g_autoptr(GString) string = g_string_sized_new (length);

          akc_utf8_sanitize_append (string, text, length);
          event = akc_json_value_new_string (string->str, string->len);
        }
    }

  akc_stream_tap_wire_event (self, direction, event);
}

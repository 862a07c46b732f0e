/* akc-echo-adapter.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-echo-adapter.h"
#include "akc-message.h"

/**
 * AkcEchoAdapter:
 *
 * The deterministic adapter of the offline demos ([application §13](wire-formats.html#application-13)).
 *
 * It stands in for a model without a network:
 *
 * - the latest user input `/fail` ends the turn with the error
 *   "The deterministic adapter failed as requested.";
 * - `/slow` never answers, until the turn is stopped;
 * - anything else is answered with `AgentsKit received: ` followed by the
 *   input, streamed in several chunks, then done.
 *
 * Chunks are a word or so each, one every
 * [property@EchoAdapter:chunk-interval] milliseconds.
 *
 * Since: 0.1
 */

#define FAIL_MESSAGE "The deterministic adapter failed as requested."
#define REPLY_PREFIX "AgentsKit received: "

struct _AkcEchoAdapter
{
  GObject parent_instance;

  guint   chunk_interval;
};

static void akc_echo_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcEchoAdapter, akc_echo_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_echo_adapter_iface_init))

enum {
  PROP_0,
  PROP_CHUNK_INTERVAL,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* One turn in flight: the reply and how much of it was pushed. */
typedef struct
{
  AkcStream *stream;
  char      *reply;
  gsize      offset;
  gboolean   fail;
  guint      interval;  /* ms */
  gint64     start;     /* monotonic µs when the turn began */
  guint64    n_ticks;
} Turn;

static void
turn_free (gpointer data)
{
  Turn *turn = data;

  g_clear_object (&turn->stream);
  g_free (turn->reply);
  g_free (turn);
}

/* The next chunk ends after the next space, so words arrive one by one. */
static gsize
next_chunk_end (const char *reply,
                gsize       offset)
{
  const char *space = strchr (reply + offset, ' ');

  if (space == NULL)
    return strlen (reply);

  return (space - reply) + 1;
}

static void schedule_tick (Turn *turn);

static gboolean
turn_tick (gpointer data)
{
  Turn *turn = data;
  gsize end;
  g_autoptr(AkcChunk) chunk = NULL;

  if (akc_stream_is_closed (turn->stream))
    {
      turn_free (turn);
      return G_SOURCE_REMOVE;
    }

  if (turn->fail)
    {
      akc_stream_fail (turn->stream, "AK_ADAPTER_FAILED", FAIL_MESSAGE);
      turn_free (turn);
      return G_SOURCE_REMOVE;
    }

  if (turn->reply[turn->offset] == '\0')
    {
      akc_stream_finish (turn->stream);
      turn_free (turn);
      return G_SOURCE_REMOVE;
    }

  end = next_chunk_end (turn->reply, turn->offset);
  chunk = akc_chunk_new_text (turn->reply + turn->offset, end - turn->offset);
  turn->offset = end;
  akc_stream_push (turn->stream, chunk);

  schedule_tick (turn);
  return G_SOURCE_REMOVE;
}

/* Chunk n is due at start + n × interval: a busy main loop delays a chunk
 * but not the ones after it, so the pace is the interval's. */
static void
schedule_tick (Turn *turn)
{
  gint64 due = turn->start + (gint64) (++turn->n_ticks) * turn->interval * 1000;
  gint64 delay_ms = (due - g_get_monotonic_time () + 999) / 1000;

  g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) CLAMP (delay_ms, 0, G_MAXUINT), turn_tick, turn, NULL);
}

static void
akc_echo_adapter_stream (AkcAdapter        *adapter,
                         AkcAdapterRequest *request,
                         AkcStream         *stream)
{
  AkcEchoAdapter *self = AKC_ECHO_ADAPTER (adapter);
  AkcMessage *latest = akc_adapter_request_get_latest_user_message (request);
  const char *input = latest != NULL ? akc_message_get_content (latest) : "";
  Turn *turn;

  /* Waits for the stream to be stopped; nothing to schedule. */
  if (strcmp (input, "/slow") == 0)
    return;

  turn = g_new0 (Turn, 1);
  turn->stream = g_object_ref (stream);
  turn->fail = strcmp (input, "/fail") == 0;
  turn->reply = turn->fail ? NULL : g_strconcat (REPLY_PREFIX, input, NULL);
  turn->interval = self->chunk_interval;
  turn->start = g_get_monotonic_time ();

  schedule_tick (turn);
}

static void
akc_echo_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_echo_adapter_stream;
}

static void
akc_echo_adapter_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  AkcEchoAdapter *self = AKC_ECHO_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_CHUNK_INTERVAL:
      g_value_set_uint (value, self->chunk_interval);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_echo_adapter_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  AkcEchoAdapter *self = AKC_ECHO_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_CHUNK_INTERVAL:
      akc_echo_adapter_set_chunk_interval (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_echo_adapter_class_init (AkcEchoAdapterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = akc_echo_adapter_get_property;
  object_class->set_property = akc_echo_adapter_set_property;

  /**
   * AkcEchoAdapter:chunk-interval:
   *
   * Milliseconds between two chunks of a reply.
   *
   * Since: 0.1
   */
  props[PROP_CHUNK_INTERVAL] =
    g_param_spec_uint ("chunk-interval", NULL, NULL,
                       0, 10000, 60,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_echo_adapter_init (AkcEchoAdapter *self)
{
  self->chunk_interval = 60;
}

/**
 * akc_echo_adapter_new:
 *
 * Creates the deterministic demo adapter.
 *
 * Returns: (transfer full): a new #AkcEchoAdapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_echo_adapter_new (void)
{
  return g_object_new (AKC_TYPE_ECHO_ADAPTER, NULL);
}

/**
 * akc_echo_adapter_get_chunk_interval:
 * @self: a #AkcEchoAdapter
 *
 * Gets the pause between two chunks.
 *
 * Returns: the interval in milliseconds
 *
 * Since: 0.1
 */
guint
akc_echo_adapter_get_chunk_interval (AkcEchoAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ECHO_ADAPTER (self), 0);

  return self->chunk_interval;
}

/**
 * akc_echo_adapter_set_chunk_interval:
 * @self: a #AkcEchoAdapter
 * @interval_ms: the interval in milliseconds
 *
 * Sets the pause between two chunks. Turns already streaming keep theirs.
 *
 * Since: 0.1
 */
void
akc_echo_adapter_set_chunk_interval (AkcEchoAdapter *self,
                                     guint           interval_ms)
{
  g_return_if_fail (AKC_IS_ECHO_ADAPTER (self));

  if (self->chunk_interval == interval_ms)
    return;

  self->chunk_interval = interval_ms;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CHUNK_INTERVAL]);
}

/* akc-replay-adapter.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-replay-fixture.h"

/**
 * AkcReplayAdapter:
 *
 * An adapter that plays a [struct@ReplayFixture] back: each call of
 * [method@Adapter.stream] takes the cassette entry at the adapter's
 * position, pushes its chunks in order, one per main-loop iteration (never
 * inside the call), and moves to the next entry; an entry whose chunks
 * end without `done` or `error` finishes the stream after its last chunk.
 * When no entry is left,
 * the stream fails with the code `REPLAY_EXHAUSTED`; a chunk the library
 * cannot play fails it with `REPLAY_INVALID`. Stopping the stream stops
 * the replay.
 *
 * A host that replays a whole conversation through a definition sets the
 * position to the entry of the turn it dispatches
 * ([method@ReplayAdapter.set_position]), so turns a route answers without
 * the adapter do not shift the entries of the others.
 *
 * Since: 0.1
 */

struct _AkcReplayAdapter
{
  GObject           parent_instance;

  AkcReplayFixture *fixture;
  guint             position;
};

typedef struct
{
  AkcStream    *stream;
  AkcJsonValue *chunks;
  guint         next;
} Playback;

static void akc_replay_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcReplayAdapter, akc_replay_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_replay_adapter_iface_init))

static void
playback_free (gpointer data)
{
  Playback *playback = data;

  g_object_unref (playback->stream);
  akc_json_value_unref (playback->chunks);
  g_free (playback);
}

static gboolean
play_next (gpointer user_data)
{
  Playback *playback = user_data;
  g_autoptr(AkcChunk) chunk = NULL;
  g_autoptr(GError) error = NULL;
  AkcChunkKind kind;

  if (akc_stream_is_closed (playback->stream))
    return G_SOURCE_REMOVE;

  if (playback->next >= akc_json_value_get_length (playback->chunks))
    {
      /* The recording ends without done or error (a reply that never came,
       * or a stream that just ended): the stream ends there too, as an
       * adapter's stream that runs out does. */
      akc_stream_finish (playback->stream);
      return G_SOURCE_REMOVE;
    }

  chunk = akc_chunk_new_from_replay_json (akc_json_value_get_element (playback->chunks, playback->next++),
                                          &error);
  if (chunk == NULL)
    {
      akc_stream_fail (playback->stream, "REPLAY_INVALID", error->message);
      return G_SOURCE_REMOVE;
    }

  kind = akc_chunk_get_kind (chunk);
  akc_stream_push (playback->stream, chunk);

  return kind == AKC_CHUNK_DONE || kind == AKC_CHUNK_ERROR ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static gboolean
fail_exhausted (gpointer user_data)
{
  AkcStream *stream = user_data;

  akc_stream_fail (stream, "REPLAY_EXHAUSTED", "The replay fixture has no turn left.");
  return G_SOURCE_REMOVE;
}

static void
akc_replay_adapter_stream (AkcAdapter        *adapter,
                           AkcAdapterRequest *request,
                           AkcStream         *stream)
{
  AkcReplayAdapter *self = AKC_REPLAY_ADAPTER (adapter);
  AkcJsonValue *chunks = akc_replay_fixture_get_entry_chunks (self->fixture, self->position);
  Playback *playback;

  if (chunks == NULL)
    {
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, fail_exhausted,
                       g_object_ref (stream), g_object_unref);
      return;
    }

  self->position++;
  playback = g_new0 (Playback, 1);
  playback->stream = g_object_ref (stream);
  playback->chunks = akc_json_value_ref (chunks);
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, play_next, playback, playback_free);
}

static AkcJsonValue *
akc_replay_adapter_get_capabilities (AkcAdapter *adapter)
{
  return NULL;
}

static void
akc_replay_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_replay_adapter_stream;
  iface->get_capabilities = akc_replay_adapter_get_capabilities;
}

static void
akc_replay_adapter_finalize (GObject *object)
{
  AkcReplayAdapter *self = AKC_REPLAY_ADAPTER (object);

  akc_replay_fixture_unref (self->fixture);

  G_OBJECT_CLASS (akc_replay_adapter_parent_class)->finalize (object);
}

static void
akc_replay_adapter_class_init (AkcReplayAdapterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_replay_adapter_finalize;
}

static void
akc_replay_adapter_init (AkcReplayAdapter *self)
{
}

/**
 * akc_replay_adapter_new:
 * @fixture: the fixture to play
 *
 * Creates an adapter that plays @fixture's cassette from its first entry.
 *
 * Returns: (transfer full): a new adapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_replay_adapter_new (AkcReplayFixture *fixture)
{
  AkcReplayAdapter *self;

  g_return_val_if_fail (fixture != NULL, NULL);

  self = g_object_new (AKC_TYPE_REPLAY_ADAPTER, NULL);
  self->fixture = akc_replay_fixture_ref (fixture);

  return AKC_ADAPTER (self);
}

/**
 * akc_replay_adapter_get_fixture:
 * @self: a replay adapter
 *
 * Gets the fixture @self plays.
 *
 * Returns: (transfer none): the fixture
 *
 * Since: 0.1
 */
AkcReplayFixture *
akc_replay_adapter_get_fixture (AkcReplayAdapter *self)
{
  g_return_val_if_fail (AKC_IS_REPLAY_ADAPTER (self), NULL);

  return self->fixture;
}

/**
 * akc_replay_adapter_get_position:
 * @self: a replay adapter
 *
 * Gets the cassette entry the next stream plays.
 *
 * Returns: the entry's position
 *
 * Since: 0.1
 */
guint
akc_replay_adapter_get_position (AkcReplayAdapter *self)
{
  g_return_val_if_fail (AKC_IS_REPLAY_ADAPTER (self), 0);

  return self->position;
}

/**
 * akc_replay_adapter_set_position:
 * @self: a replay adapter
 * @position: a cassette entry's position; past the last one, the next
 *   stream fails with `REPLAY_EXHAUSTED`
 *
 * Sets the cassette entry the next stream plays.
 *
 * Since: 0.1
 */
void
akc_replay_adapter_set_position (AkcReplayAdapter *self,
                                 guint             position)
{
  g_return_if_fail (AKC_IS_REPLAY_ADAPTER (self));

  self->position = position;
}

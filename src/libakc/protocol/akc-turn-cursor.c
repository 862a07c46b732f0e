/* akc-turn-cursor.c: the monotonic snapshot cursor (protocol §2.8)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-error.h"
#include "akc-text-private.h"
#include "akc-turn.h"
#include "akc-turn-cursor.h"
#include "akc-turn-decoder.h"
#include "akc-turn-private.h"

/**
 * AkcTurnCursor:
 *
 * A per-session filter that makes reconnects, duplicate delivery and stale
 * delivery of turn snapshots inert (`createTurnSnapshotCursor`,
 * [protocol §2.8](wire-formats.html#protocol-2)).
 *
 * The cursor holds the last snapshot it accepted. [method@TurnCursor.apply]
 * accepts an event, and replaces the held snapshot with it, iff the event
 * decodes, is a `server.turn.snapshot` of the cursor's session, and either
 * no snapshot is held yet (a reconnect may start at any sequence) or its
 * `sequence` is strictly greater than the held one's. Anything else —
 * other events, other sessions, duplicates, stale or invalid snapshots —
 * changes nothing. The cursor never merges messages.
 *
 * [method@TurnCursor.apply_text] takes the wire text and decodes it with an
 * internal [class@TurnDecoder], so a long conversation streamed as
 * snapshots that differ only in their last message costs little more than
 * that message per snapshot.
 *
 * The held snapshot is an immutable [struct@JsonValue]: what callers get
 * cannot change the cursor's state. A cursor must be used from one thread
 * at a time (a worker thread may apply large snapshots); the snapshots it
 * hands out may go to any thread. [property@TurnCursor:snapshot] is
 * notified in the thread that applied the snapshot.
 *
 * Since: 0.1
 */
struct _AkcTurnCursor
{
  GObject         parent_instance;

  char           *session_id;
  gboolean        valid;      /* session_id is a SafeId */
  AkcTurnDecoder *decoder;
  AkcJsonValue   *snapshot;   /* nullable */
  double          sequence;   /* of snapshot */
};

static void akc_turn_cursor_initable_iface_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTurnCursor, akc_turn_cursor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                      akc_turn_cursor_initable_iface_init))

enum {
  PROP_0,
  PROP_SESSION_ID,
  PROP_SNAPSHOT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static gboolean
akc_turn_cursor_initable_init (GInitable     *initable,
                               GCancellable  *cancellable,
                               GError       **error)
{
  AkcTurnCursor *self = AKC_TURN_CURSOR (initable);

  if (!self->valid)
    {
      /* A programming or trust-boundary mistake (the reference throws). */
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           "Chat session identity is invalid.");
      return FALSE;
    }

  return TRUE;
}

static void
akc_turn_cursor_initable_iface_init (GInitableIface *iface)
{
  iface->init = akc_turn_cursor_initable_init;
}

static void
akc_turn_cursor_finalize (GObject *object)
{
  AkcTurnCursor *self = AKC_TURN_CURSOR (object);

  g_clear_pointer (&self->session_id, g_free);
  g_clear_object (&self->decoder);
  g_clear_pointer (&self->snapshot, akc_json_value_unref);

  G_OBJECT_CLASS (akc_turn_cursor_parent_class)->finalize (object);
}

static void
akc_turn_cursor_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AkcTurnCursor *self = AKC_TURN_CURSOR (object);

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;

    case PROP_SNAPSHOT:
      g_value_set_boxed (value, self->snapshot);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_turn_cursor_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AkcTurnCursor *self = AKC_TURN_CURSOR (object);

  switch (prop_id)
    {
    case PROP_SESSION_ID:
      {
        const char *id = g_value_get_string (value);

        g_free (self->session_id);
        self->session_id = g_strdup (id);
        self->valid = id != NULL && akc_text_is_safe_id (id, strlen (id));
        break;
      }

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_turn_cursor_class_init (AkcTurnCursorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_turn_cursor_finalize;
  object_class->get_property = akc_turn_cursor_get_property;
  object_class->set_property = akc_turn_cursor_set_property;

  /**
   * AkcTurnCursor:session-id:
   *
   * The session whose snapshots the cursor accepts, a `SafeId`.
   *
   * Since: 0.1
   */
  props[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnCursor:snapshot:
   *
   * The last accepted snapshot event (normalised, immutable), or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SNAPSHOT] =
    g_param_spec_boxed ("snapshot", NULL, NULL,
                        AKC_TYPE_JSON_VALUE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_turn_cursor_init (AkcTurnCursor *self)
{
  self->decoder = akc_turn_decoder_new ();
  self->sequence = -1;
}

/**
 * akc_turn_cursor_new:
 * @session_id: the session to follow, a `SafeId`
 * @error: return location for a #GError, or %NULL
 *
 * Creates a cursor for the snapshots of @session_id. Creation fails with
 * %AKC_ERROR_CONFIG_INVALID when @session_id is not a `SafeId`.
 *
 * Returns: (transfer full) (nullable): a new cursor, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTurnCursor *
akc_turn_cursor_new (const char  *session_id,
                     GError     **error)
{
  g_return_val_if_fail (session_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_initable_new (AKC_TYPE_TURN_CURSOR, NULL, error,
                         "session-id", session_id,
                         NULL);
}

/**
 * akc_turn_cursor_get_session_id:
 * @self: a cursor
 *
 * Gets the session whose snapshots @self accepts.
 *
 * Returns: (transfer none): the session id
 *
 * Since: 0.1
 */
const char *
akc_turn_cursor_get_session_id (AkcTurnCursor *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CURSOR (self), NULL);

  return self->session_id;
}

/**
 * akc_turn_cursor_dup_snapshot:
 * @self: a cursor
 *
 * Gets the held snapshot, the last one accepted.
 *
 * Returns: (transfer full) (nullable): the snapshot event, or %NULL when
 *   none has been accepted yet
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_cursor_dup_snapshot (AkcTurnCursor *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CURSOR (self), NULL);

  return self->snapshot != NULL ? akc_json_value_ref (self->snapshot) : NULL;
}

/**
 * akc_turn_cursor_get_sequence:
 * @self: a cursor
 *
 * Gets the `sequence` of the held snapshot.
 *
 * Returns: the sequence, or -1 when no snapshot is held
 *
 * Since: 0.1
 */
gint64
akc_turn_cursor_get_sequence (AkcTurnCursor *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CURSOR (self), -1);

  return (gint64) self->sequence;
}

static inline AkcJsonValue *
lookup (const AkcJsonValue *object,
        const char         *name)
{
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

/* §2.8 on a decoded event. */
static gboolean
consider (AkcTurnCursor *self,
          AkcJsonValue  *event)
{
  AkcTurnEventKind kind;
  AkcJsonValue *session, *sequence;

  if (!self->valid ||
      !akc_turn_event_get_kind (event, &kind) || kind != AKC_TURN_EVENT_KIND_SNAPSHOT)
    return FALSE;

  session = lookup (event, "sessionId");
  if (!akc_json_string_equals (session, self->session_id))
    return FALSE;

  /* A decoded sequence is an integer in 0..2^53-1, exact as a double. */
  sequence = lookup (event, "sequence");
  if (self->snapshot != NULL && !(AKC_JSON_NUMBER (sequence) > self->sequence))
    return FALSE;

  g_clear_pointer (&self->snapshot, akc_json_value_unref);
  self->snapshot = akc_json_value_ref (event);
  self->sequence = AKC_JSON_NUMBER (sequence);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SNAPSHOT]);

  return TRUE;
}

/**
 * akc_turn_cursor_apply:
 * @self: a cursor
 * @event: a turn event as a value, not yet decoded
 *
 * Decodes @event ([func@turn_event_decode_value]) and applies it: it
 * becomes the held snapshot iff it is a valid `server.turn.snapshot` of
 * the cursor's session whose `sequence` is greater than the held one's (or
 * the first one).
 *
 * Returns: %TRUE if @event was applied; %FALSE if it was inert
 *
 * Since: 0.1
 */
gboolean
akc_turn_cursor_apply (AkcTurnCursor *self,
                       AkcJsonValue  *event)
{
  g_autoptr(AkcJsonValue) decoded = NULL;

  g_return_val_if_fail (AKC_IS_TURN_CURSOR (self), FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  decoded = akc_turn_event_decode_value (event, NULL);
  if (decoded == NULL)
    return FALSE;

  return consider (self, decoded);
}

/**
 * akc_turn_cursor_apply_text:
 * @self: a cursor
 * @text: the wire text of
 *   one turn event
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @event: (out) (optional) (nullable) (transfer full): return location for
 *   the decoded event, whatever its kind and whether or not it was applied
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is not a valid turn event
 *
 * Decodes @text incrementally (see [class@TurnDecoder]) and applies it as
 * [method@TurnCursor.apply] does. The decoded event is handed back so that
 * a client can act on `server.turn.diagnostic` events too without decoding
 * twice.
 *
 * Returns: %TRUE if the event was applied; %FALSE if it was inert or invalid
 *
 * Since: 0.1
 */
gboolean
akc_turn_cursor_apply_text (AkcTurnCursor  *self,
                            const char     *text,
                            gssize          length,
                            AkcJsonValue  **event,
                            AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcJsonValue) decoded = NULL;
  gboolean applied;

  g_return_val_if_fail (AKC_IS_TURN_CURSOR (self), FALSE);
  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  g_return_val_if_fail (event == NULL || *event == NULL, FALSE);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, FALSE);

  decoded = akc_turn_decoder_decode (self->decoder, text, length, diagnostic);
  if (decoded == NULL)
    return FALSE;

  applied = consider (self, decoded);
  if (event != NULL)
    *event = g_steal_pointer (&decoded);

  return applied;
}

/**
 * akc_turn_cursor_apply_text_utf8: (rename-to akc_turn_cursor_apply_text)
 * @self: a cursor
 * @text: the wire text of
 *   one turn event
 * @event: (out) (optional) (nullable) (transfer full): return location for
 *   the decoded event, whatever its kind and whether or not it was applied
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic when @text is not a valid turn event
 *
 * Does what akc_turn_cursor_apply_text() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: %TRUE if the event was applied; %FALSE if it was inert or invalid
 *
 * Since: 0.1
 */
gboolean
akc_turn_cursor_apply_text_utf8 (AkcTurnCursor  *self,
                                 const char     *text,
                                 AkcJsonValue  **event,
                                 AkcDiagnostic **diagnostic)
{
  return akc_turn_cursor_apply_text (self, text, -1, event, diagnostic);
}

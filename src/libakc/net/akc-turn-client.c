/* akc-turn-client.c: a conversation held by a turn server
 * (protocol §2, application §11.1)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "akc-chat-source-state-private.h"
#include "akc-error.h"
#include "akc-http-stream-private.h"
#include "akc-json-private.h"
#include "akc-message-record-private.h"
#include "akc-message-sync-private.h"
#include "akc-text-private.h"
#include "akc-tool-call.h"
#include "akc-turn.h"
#include "akc-turn-client.h"
#include "akc-turn-client-private.h"
#include "akc-turn-cursor.h"
#include "akc-usage.h"
#include "akc-version.h"
#include "akc-message.h"

/**
 * AkcTurnClient:
 *
 * A conversation held by a server that speaks the turn protocol
 * (`agentskit.chat.turn` v1, [protocol §2](wire-formats.html#protocol-2); the server side is the chat
 * turn handler of [application §11.1](wire-formats.html#application-11)).
 *
 * Every message a person sends is posted to the endpoint as a
 * `client.turn.submit` event, and the server answers with NDJSON: complete
 * snapshots of the conversation (`server.turn.snapshot`) and diagnostics
 * (`server.turn.diagnostic`). The client reads them as the bytes arrive and
 * applies snapshots through an [class@TurnCursor], so stale, duplicate and
 * foreign-session snapshots change nothing. The conversation is only ever
 * what the server's last accepted snapshot says: sending does not add the
 * person's message until a snapshot holds it, and a failure never takes
 * back what was accepted (the history is kept).
 *
 * Snapshots of 128 KiB or more are decoded in a worker thread, and message
 * records that did not change since the previous snapshot are reused, not
 * decoded again; their [class@Message] objects are kept, and a streamed
 * reply grows in place.
 *
 * The host gives the bearer token with [method@TurnClient.set_token],
 * typically from [class@CredentialStore]; the client keeps it in memory,
 * sends it only as the `Authorization` header, and never logs it.
 *
 * Only a connection deadline applies ([property@TurnClient:connect-timeout]):
 * it stops when the response headers arrive, so a reply may stream for as
 * long as the server keeps sending.
 *
 * Failures become [property@ChatSource:error] with
 * [property@ChatSource:status] %AKC_CHAT_STATUS_ERROR:
 *
 * - the error bodies of the chat turn handler (`{"error": {"version": 1,
 *   "code", "message", "retryable"}}`, [application §11.1](wire-formats.html#application-11)) give their code
 *   and message (`SESSION_BUSY`, `REQUEST_TOO_LARGE`, …);
 * - other HTTP errors give `HTTP_UNAUTHORIZED`, `HTTP_FORBIDDEN` or
 *   `HTTP_ERROR`;
 * - a `server.turn.diagnostic`, or a snapshot with an `error`, gives that
 *   diagnostic;
 * - a line that is not a valid turn event gives its decoding diagnostic
 *   (`PROTOCOL_INVALID_PAYLOAD`) and ends the turn; unknown events and
 *   versions are skipped ([protocol §2.10](wire-formats.html#protocol-2));
 * - `TURN_TIMEOUT` (no headers in time), `TURN_CONNECTION_FAILED`,
 *   `TURN_LINE_TOO_LONG` (a line over [property@TurnClient:max-line-length]),
 *   `TURN_INCOMPLETE` (the stream ended while the reply was streaming, or in
 *   the middle of a line) and `TURN_NO_REPLY` (the stream ended without a
 *   snapshot).
 *
 * The turn protocol has one client event, the submission. So
 * [method@ChatSource.send] submits, [method@ChatSource.stop] closes the
 * connection (the server then stops the turn, §11.1), and the lifecycle
 * actions the protocol cannot express (retry, regenerate, edit, tool
 * approval and proposals) fail with %AKC_CHAT_ERROR_NOT_SUPPORTED and change
 * nothing. [method@ChatSource.clear] only stops the active turn: the
 * conversation belongs to the server.
 *
 * Since: 0.1
 */

#define THREAD_THRESHOLD (128 * 1024)
#define SERVER_MESSAGE_LIMIT 1024

typedef struct _Turn Turn;

/* The cursor and the records of its last snapshot, shared by the client
 * and the worker threads that decode large snapshots: one thread at a
 * time, under the lock. */
typedef struct {
  gint           ref_count;
  GMutex         lock;
  AkcTurnCursor *cursor;
  GPtrArray     *records;   /* AkcMessageRecord of the last accepted snapshot */
} Shared;

static Shared *
shared_ref (Shared *shared)
{
  g_atomic_int_inc (&shared->ref_count);
  return shared;
}

static void
shared_unref (Shared *shared)
{
  if (!g_atomic_int_dec_and_test (&shared->ref_count))
    return;

  g_mutex_clear (&shared->lock);
  g_clear_object (&shared->cursor);
  g_clear_pointer (&shared->records, g_ptr_array_unref);
  g_free (shared);
}

struct _AkcTurnClient
{
  GObject          parent_instance;

  char            *endpoint;
  GUri            *uri;
  char            *session_id;
  char            *token;          /* nullable; never logged */
  guint            connect_timeout;
  guint            max_line_length;

  SoupSession     *session;
  Shared          *shared;         /* nullable until the session id is set */
  AkcChatSourceState state;
  AkcMessageSync  *messages;       /* of state.messages */
  AkcJsonValue    *snapshot;       /* nullable, the last accepted snapshot */
  Turn            *turn;           /* nullable, the active turn */
};

static void akc_turn_client_chat_source_init (AkcChatSourceInterface *iface);
static void akc_turn_client_initable_init    (GInitableIface         *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTurnClient, akc_turn_client, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, akc_turn_client_initable_init)
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_SOURCE, akc_turn_client_chat_source_init))

enum {
  PROP_0,
  PROP_ENDPOINT,
  PROP_SESSION_ID,
  PROP_CONNECT_TIMEOUT,
  PROP_MAX_LINE_LENGTH,
  PROP_SNAPSHOT,
  PROP_BUSY,
  PROP_HAS_TOKEN,
  N_PROPS,

  /* AkcChatSource's, in AkcChatSourceProp order (akc-chat-source-state-private.h) */
  PROP_MESSAGES = N_PROPS,
  PROP_INPUT = PROP_MESSAGES + AKC_CHAT_SOURCE_PROP_INPUT,
};

static GParamSpec *props[N_PROPS];
static GParamSpec *source_props[AKC_CHAT_SOURCE_N_PROPS];

enum {
  SIGNAL_SNAPSHOT_ACCEPTED,
  SIGNAL_TURN_FINISHED,
  SIGNAL_EVENT_SENT,
  SIGNAL_EVENT_RECEIVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

static void
set_status (AkcTurnClient *self,
            AkcChatStatus  status)
{
  akc_chat_source_state_set_status (&self->state, status);
}

/* Takes @error (nullable). */
static void
set_error (AkcTurnClient *self,
           AkcDiagnostic *error)
{
  akc_chat_source_state_take_error (&self->state, error);
}

static void
fail (AkcTurnClient *self,
      AkcDiagnostic *error)
{
  g_object_freeze_notify (G_OBJECT (self));
  set_error (self, error);
  set_status (self, AKC_CHAT_STATUS_ERROR);
  g_object_thaw_notify (G_OBJECT (self));
}

/* A failed turn never finishes the reply it left streaming: it is shown
 * as failed (what arrived kept), not as still arriving, until a snapshot
 * says otherwise. */
static void
settle_unfinished (AkcTurnClient *self)
{
  GListModel *messages = akc_message_sync_get_model (self->messages);
  guint n = g_list_model_get_n_items (messages);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      AkcMessageStatus status = akc_message_get_status (message);

      if (status == AKC_MESSAGE_STATUS_STREAMING || status == AKC_MESSAGE_STATUS_PENDING)
        akc_message_set_status (message, AKC_MESSAGE_STATUS_ERROR);
    }
}

static AkcDiagnostic *
client_diagnostic (const char *code,
                   const char *message,
                   gboolean    retryable)
{
  return akc_diagnostic_new (code, message, retryable, NULL);
}

static inline AkcJsonValue *
member (const AkcJsonValue *object,
        const char         *name)
{
  if (!AKC_JSON_IS_OBJECT (object))
    return NULL;
  return akc_json_object_lookup (object, name, strlen (name), NULL);
}

/* A TurnDiagnostic (protocol §2.4) as sent by the server; its message is
 * bounded and made valid UTF-8 before it is shown. */
static AkcDiagnostic *
diagnostic_from_payload (AkcJsonValue *payload)
{
  AkcJsonValue *code = member (payload, "code");
  AkcJsonValue *message = member (payload, "message");
  AkcJsonValue *retryable = member (payload, "retryable");
  g_autoptr(GString) text = g_string_new (NULL);

  if (!AKC_JSON_IS_STRING (code) || !akc_text_is_turn_code (AKC_JSON_STR (code), AKC_JSON_STR_LEN (code)) ||
      !AKC_JSON_IS_STRING (message) || AKC_JSON_STR_LEN (message) == 0)
    return NULL;

  /* Bounded, valid UTF-8 (a cut sequence becomes U+FFFD), one line, and
   * cut at U+0000. */
  akc_utf8_sanitize_append (text, AKC_JSON_STR (message), MIN (AKC_JSON_STR_LEN (message), SERVER_MESSAGE_LIMIT));
  for (gsize i = 0; i < text->len; i++)
    if (text->str[i] == '\n' || text->str[i] == '\r')
      text->str[i] = ' ';

  return akc_diagnostic_new (AKC_JSON_STR (code), text->str,
                             retryable != NULL && retryable->kind == AKC_JSON_KIND_BOOLEAN &&
                             retryable->u.boolean,
                             NULL);
}

/* ------------------------------------------------------------------ */
/* Turns                                                               */
/* ------------------------------------------------------------------ */

struct _Turn
{
  gint            ref_count;
  AkcTurnClient  *client;        /* NULL once the turn is over */
  Shared         *shared;
  AkcHttpStream  *http;          /* the request, its reads and its line framing */
  const char     *line;          /* the line a worker decodes (the paused framer's) */
  gsize           line_length;
  gboolean        stopped;
  gboolean        worker;        /* a line is being decoded in a thread */
  gboolean        accepted;      /* a snapshot was accepted during the turn */
  gboolean        failed;        /* the server reported a failure */
  char           *last_status;   /* of the last accepted snapshot */
};

static Turn *
turn_ref (Turn *turn)
{
  g_atomic_int_inc (&turn->ref_count);
  return turn;
}

static void
turn_unref (Turn *turn)
{
  if (!g_atomic_int_dec_and_test (&turn->ref_count))
    return;

  g_assert (turn->client == NULL);
  g_clear_pointer (&turn->shared, shared_unref);
  g_clear_object (&turn->http);
  g_clear_pointer (&turn->last_status, g_free);
  g_free (turn);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Turn, turn_unref)

/* Ends @turn: the client forgets it and the connection is dropped. With
 * @error (taken, nullable) the turn failed. */
static void
turn_finish (Turn          *turn,
             AkcDiagnostic *error)
{
  AkcTurnClient *self = turn->client;

  /* The connection is closed; the stream reports its end to turn_done,
   * which finds the turn over. */
  akc_http_stream_cancel (turn->http);

  if (self == NULL)
    {
      g_clear_pointer (&error, akc_diagnostic_unref);
      return;
    }

  turn->client = NULL;
  self->turn = NULL;

  if (error == NULL && !turn->failed && !turn->stopped)
    {
      if (g_strcmp0 (turn->last_status, "streaming") == 0)
        error = client_diagnostic ("TURN_INCOMPLETE",
                                   _("The connection closed before the reply was complete."), TRUE);
      else if (!turn->accepted)
        error = client_diagnostic ("TURN_NO_REPLY", _("The turn endpoint closed the turn without a reply."), TRUE);
    }

  g_object_freeze_notify (G_OBJECT (self));
  if (error != NULL)
    {
      settle_unfinished (self);
      fail (self, error);
    }
  else if (!turn->failed)
    set_status (self, g_strcmp0 (turn->last_status, "error") == 0 ? AKC_CHAT_STATUS_ERROR : AKC_CHAT_STATUS_IDLE);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[SIGNAL_TURN_FINISHED], 0);
}

/* What decoding one line gave. */
typedef struct {
  gboolean       applied;
  AkcJsonValue  *event;       /* nullable */
  AkcDiagnostic *diagnostic;  /* nullable */
  GPtrArray     *records;     /* of an applied snapshot */
} Decoded;

static void
decoded_free (Decoded *decoded)
{
  g_clear_pointer (&decoded->event, akc_json_value_unref);
  g_clear_pointer (&decoded->diagnostic, akc_diagnostic_unref);
  g_clear_pointer (&decoded->records, g_ptr_array_unref);
  g_free (decoded);
}

/* The records of an accepted snapshot. The decoder hands back the very
 * same record values for messages that did not change, so their
 * AkcMessageRecords are reused as they are. */
static GPtrArray *
snapshot_records (GPtrArray    *previous,
                  AkcJsonValue *event)
{
  AkcJsonValue *messages = member (member (event, "payload"), "messages");
  gsize n = AKC_JSON_LEN (messages);
  GPtrArray *records = g_ptr_array_new_full (n, (GDestroyNotify) akc_message_record_unref);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *value = AKC_JSON_ELEMENT (messages, i);
      AkcMessageRecord *record = NULL;

      if (previous != NULL && i < previous->len)
        {
          AkcMessageRecord *old = g_ptr_array_index (previous, i);
          g_autoptr(AkcJsonValue) old_value = akc_message_record_to_value (old);

          if (old_value == value)
            record = akc_message_record_ref (old);
        }
      if (record == NULL)
        record = akc_message_record_new_validated (value, NULL);
      if (record == NULL)
        {
          /* A createdAt a GDateTime cannot hold (year 0000). */
          g_ptr_array_unref (records);
          return NULL;
        }
      g_ptr_array_add (records, record);
    }

  return records;
}

/* Any thread: the cursor is used by one thread at a time. */
static Decoded *
decode_line (Shared     *shared,
             const char *line,
             gsize       length)
{
  Decoded *decoded = g_new0 (Decoded, 1);

  g_mutex_lock (&shared->lock);
  decoded->applied = akc_turn_cursor_apply_text (shared->cursor, line, length,
                                                 &decoded->event, &decoded->diagnostic);
  if (decoded->applied)
    {
      decoded->records = snapshot_records (shared->records, decoded->event);
      if (decoded->records != NULL)
        {
          g_clear_pointer (&shared->records, g_ptr_array_unref);
          shared->records = g_ptr_array_ref (decoded->records);
        }
    }
  g_mutex_unlock (&shared->lock);

  return decoded;
}

static AkcChatStatus
chat_status (const char *status)
{
  if (g_strcmp0 (status, "streaming") == 0)
    return AKC_CHAT_STATUS_STREAMING;
  if (g_strcmp0 (status, "error") == 0)
    return AKC_CHAT_STATUS_ERROR;
  return AKC_CHAT_STATUS_IDLE;
}

static void
apply_snapshot (AkcTurnClient *self,
                Turn          *turn,
                AkcJsonValue  *event,
                GPtrArray     *records)
{
  AkcJsonValue *payload = member (event, "payload");
  AkcJsonValue *usage = member (payload, "usage");
  AkcJsonValue *status = member (payload, "status");
  AkcJsonValue *error = member (payload, "error");
  AkcUsage new_usage = {
    (guint64) AKC_JSON_NUMBER (member (usage, "promptTokens")),
    (guint64) AKC_JSON_NUMBER (member (usage, "completionTokens")),
    (guint64) AKC_JSON_NUMBER (member (usage, "totalTokens")),
  };
  AkcDiagnostic *diagnostic = NULL;

  g_free (turn->last_status);
  turn->last_status = g_strndup (AKC_JSON_STR (status), AKC_JSON_STR_LEN (status));
  turn->accepted = TRUE;

  g_object_freeze_notify (G_OBJECT (self));

  g_clear_pointer (&self->snapshot, akc_json_value_unref);
  self->snapshot = akc_json_value_ref (event);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SNAPSHOT]);

  if (records != NULL)
    akc_message_sync_apply (self->messages, records);

  akc_chat_source_state_set_usage (&self->state, &new_usage);

  if (error != NULL)
    diagnostic = diagnostic_from_payload (error);
  if (diagnostic == NULL && chat_status (turn->last_status) == AKC_CHAT_STATUS_ERROR)
    diagnostic = client_diagnostic ("CHAT_TURN_FAILED", "The chat turn failed.", TRUE);
  set_error (self, diagnostic);
  /* The turn is busy until its stream ends, whatever the snapshot says. */
  set_status (self, chat_status (turn->last_status) == AKC_CHAT_STATUS_ERROR
                    ? AKC_CHAT_STATUS_ERROR : AKC_CHAT_STATUS_STREAMING);

  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[SIGNAL_SNAPSHOT_ACCEPTED], 0, event);
}

/* Main thread. Returns FALSE when the turn ended. */
static gboolean
handle_decoded (Turn    *turn,
                Decoded *decoded)
{
  AkcTurnClient *self = turn->client;
  AkcTurnEventKind kind;

  if (self == NULL)
    return FALSE;

  /* Every turn event that came, for a view of the wire: snapshots
   * applied or not, and diagnostics. */
  if (decoded->event != NULL)
    {
      g_signal_emit (self, signals[SIGNAL_EVENT_RECEIVED], 0, decoded->event);
      if (turn->client == NULL)
        return FALSE;
    }

  if (decoded->applied)
    {
      apply_snapshot (self, turn, decoded->event, decoded->records);
      return turn->client != NULL;
    }

  if (decoded->event == NULL)
    {
      const char *code = decoded->diagnostic != NULL ? akc_diagnostic_get_code (decoded->diagnostic) : NULL;

      /* Unknown events and versions are inert (protocol §2.10). */
      if (g_strcmp0 (code, "PROTOCOL_UNKNOWN_EVENT") == 0 ||
          g_strcmp0 (code, "PROTOCOL_UNSUPPORTED_VERSION") == 0)
        return TRUE;

      turn_finish (turn, decoded->diagnostic != NULL
                         ? akc_diagnostic_ref (decoded->diagnostic)
                         : client_diagnostic ("PROTOCOL_INVALID_PAYLOAD", "Turn event payload is invalid.", FALSE));
      return FALSE;
    }

  /* A diagnostic of this session reports the failure of the turn; stale,
   * duplicate and foreign snapshots and other events are inert. */
  if (akc_turn_event_get_kind (decoded->event, &kind) && kind == AKC_TURN_EVENT_KIND_DIAGNOSTIC &&
      akc_json_string_equals (member (decoded->event, "sessionId"), self->session_id))
    {
      AkcDiagnostic *diagnostic = diagnostic_from_payload (member (decoded->event, "payload"));

      if (diagnostic != NULL)
        {
          turn->failed = TRUE;
          fail (self, diagnostic);
        }
    }

  return TRUE;
}

static void
decode_in_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  Turn *turn = task_data;

  g_task_return_pointer (task, decode_line (turn->shared, turn->line, turn->line_length),
                         (GDestroyNotify) decoded_free);
}

static void
on_decoded_in_thread (GObject      *source_object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(Turn) turn = user_data;
  Decoded *decoded = g_task_propagate_pointer (G_TASK (result), NULL);

  turn->worker = FALSE;
  turn->line = NULL;
  turn->line_length = 0;

  handle_decoded (turn, decoded);
  decoded_free (decoded);

  /* The framer kept the line for the worker; it reads on, or ends when
   * the turn is over. */
  akc_http_stream_resume (turn->http);
}

/* One line of the answer (NDJSON, CRLF or LF; empty lines are inert). */
static AkcFrameResult
turn_frame (const AkcFrame  *frame,
            gpointer         user_data,
            GError         **error)
{
  Turn *turn = user_data;
  g_autoptr(AkcTurnClient) self = NULL;
  Decoded *decoded;
  gboolean go_on;

  if (turn->client == NULL)
    return AKC_FRAME_END;
  self = g_object_ref (turn->client);

  if (frame->unterminated)
    {
      /* The end of the stream. A last line without its newline counts
       * only when it is a whole event. */
      gboolean whole;

      if (akc_is_blank_input (frame->data))
        return AKC_FRAME_CONTINUE;
      decoded = decode_line (turn->shared, frame->data, frame->length);
      whole = decoded->event != NULL;
      go_on = whole && handle_decoded (turn, decoded);
      decoded_free (decoded);
      if (!whole)
        turn_finish (turn, client_diagnostic ("TURN_INCOMPLETE",
                                              _("The connection closed in the middle of an event."), TRUE));
      return go_on ? AKC_FRAME_CONTINUE : AKC_FRAME_END;
    }

  if (frame->length >= THREAD_THRESHOLD)
    {
      g_autoptr(GTask) task = g_task_new (NULL, NULL, on_decoded_in_thread, turn_ref (turn));

      /* The framer keeps the line, and reads nothing, until resumed. */
      turn->line = frame->data;
      turn->line_length = frame->length;
      g_task_set_task_data (task, turn_ref (turn), (GDestroyNotify) turn_unref);
      g_task_set_name (task, "[akc] turn snapshot");
      turn->worker = TRUE;
      g_task_run_in_thread (task, decode_in_thread);
      return AKC_FRAME_PAUSE;
    }

  decoded = decode_line (turn->shared, frame->data, frame->length);
  go_on = handle_decoded (turn, decoded);
  decoded_free (decoded);

  return go_on ? AKC_FRAME_CONTINUE : AKC_FRAME_END;
}

/* An HTTP error: the §11.1 error body when there is one. */
static AkcDiagnostic *
http_error (Turn *turn)
{
  guint status = akc_http_stream_get_status (turn->http);
  g_autoptr(GBytes) bytes = akc_http_stream_get_error_body (turn->http, NULL);
  g_autoptr(AkcJsonValue) body = NULL;
  g_autofree char *message = NULL;
  AkcDiagnostic *diagnostic;

  if (bytes != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (bytes, &length);

      body = akc_json_parse (data, length, NULL, NULL, NULL);
    }
  diagnostic = diagnostic_from_payload (member (body, "error"));
  if (diagnostic != NULL)
    return diagnostic;

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      /* Translators: %u is an HTTP status such as 302, %s where the
       * server pointed, such as https://example.org */
      message = g_strdup_printf (_("The turn endpoint redirected the request (HTTP %u) to %s; redirects are not followed."),
                                 status, akc_http_stream_get_redirect_target (turn->http));
      return client_diagnostic ("HTTP_REDIRECT", message, FALSE);
    }
  if (status == SOUP_STATUS_UNAUTHORIZED)
    return client_diagnostic ("HTTP_UNAUTHORIZED",
                              _("The turn endpoint refused the access token (HTTP 401). Check the token for this endpoint."),
                              FALSE);
  if (status == SOUP_STATUS_FORBIDDEN)
    return client_diagnostic ("HTTP_FORBIDDEN",
                              _("The turn endpoint denied access (HTTP 403)."), FALSE);

  message = g_strdup_printf (_("The turn endpoint answered with HTTP status %u."), status);
  return client_diagnostic ("HTTP_ERROR", message,
                            status >= 500 || status == SOUP_STATUS_REQUEST_TIMEOUT ||
                            status == 429);
}

/* The stream ended: at its end, after an error, or after the turn was
 * finished (stopped, failed, or its client disposed). */
static void
turn_done (AkcHttpStream *http,
           const GError  *error,
           gpointer       user_data)
{
  g_autoptr(Turn) turn = user_data;
  g_autofree char *message = NULL;
  const GError *cause;

  if (turn->client == NULL)
    return;

  if (error == NULL)
    {
      turn_finish (turn, NULL);
      return;
    }

  cause = akc_http_stream_get_cause (http);
  if (error->domain == AKC_HTTP_STREAM_ERROR)
    switch ((AkcHttpStreamError) error->code)
      {
      case AKC_HTTP_STREAM_ERROR_REDIRECT:
      case AKC_HTTP_STREAM_ERROR_STATUS:
        turn_finish (turn, http_error (turn));
        return;

      case AKC_HTTP_STREAM_ERROR_TIMEOUT:
        message = g_strdup_printf (_("The turn endpoint did not answer in time (the limit is %u s)."),
                                   turn->client->connect_timeout);
        turn_finish (turn, client_diagnostic ("TURN_TIMEOUT", message, TRUE));
        return;

      case AKC_HTTP_STREAM_ERROR_CONNECT:
        message = g_strdup_printf (_("The turn endpoint could not be reached: %s"),
                                   cause != NULL ? cause->message : error->message);
        turn_finish (turn, client_diagnostic ("TURN_CONNECTION_FAILED", message, TRUE));
        return;

      case AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG:
        turn_finish (turn, client_diagnostic ("TURN_LINE_TOO_LONG",
                                              _("The turn endpoint sent an event larger than the client accepts."),
                                              FALSE));
        return;

      case AKC_HTTP_STREAM_ERROR_CUT_OFF:
      case AKC_HTTP_STREAM_ERROR_EVENT_TOO_LARGE:
      case AKC_HTTP_STREAM_ERROR_TOO_MANY_FRAMES:
      default:
        break;
      }

  message = g_strdup_printf (_("The connection to the turn endpoint failed: %s"),
                             cause != NULL ? cause->message : error->message);
  turn_finish (turn, client_diagnostic ("TURN_CONNECTION_FAILED", message, TRUE));
}

static char *
now_timestamp (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *base = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");

  return g_strdup_printf ("%s.%03dZ", base, g_date_time_get_microsecond (now) / 1000);
}

static GBytes *
submission (AkcTurnClient  *self,
            const char     *text,
            const char     *turn_id,
            GError        **error)
{
  g_autofree char *event_id = g_uuid_string_random ();
  g_autofree char *emitted_at = now_timestamp ();
  g_autoptr(AkcJsonValue) event = NULL;
  const char *names[] = { "protocol", "version", "eventId", "sessionId", "turnId", "sequence",
                          "emittedAt", "event", "payload" };
  const char *payload_names[] = { "input" };
  AkcJsonValue *payload_values[1];
  AkcJsonValue *values[G_N_ELEMENTS (names)];
  char *encoded;
  gsize length = 0;

  payload_values[0] = akc_json_value_new_string (text, -1);
  values[0] = akc_json_value_new_string (AKC_TURN_PROTOCOL, -1);
  values[1] = akc_json_value_new_number (AKC_TURN_PROTOCOL_VERSION);
  values[2] = akc_json_value_new_string (event_id, -1);
  values[3] = akc_json_value_new_string (self->session_id, -1);
  values[4] = akc_json_value_new_string (turn_id, -1);
  g_mutex_lock (&self->shared->lock);
  values[5] = akc_json_value_new_number (MAX (akc_turn_cursor_get_sequence (self->shared->cursor), 0));
  g_mutex_unlock (&self->shared->lock);
  values[6] = akc_json_value_new_string (emitted_at, -1);
  values[7] = akc_json_value_new_string ("client.turn.submit", -1);
  values[8] = akc_json_value_new_object (payload_names, payload_values, 1);
  event = akc_json_value_new_object (names, values, G_N_ELEMENTS (names));
  akc_json_value_unref (payload_values[0]);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);

  encoded = akc_turn_event_encode (event, &length, error);
  if (encoded == NULL)
    return NULL;

  g_signal_emit (self, signals[SIGNAL_EVENT_SENT], 0, event);
  return g_bytes_new_take (encoded, length);
}

/* With @response, the response is @response_status and @response read
 * from that stream, and nothing is sent. */
static gboolean
start_turn (AkcTurnClient  *self,
            const char     *text,
            guint           response_status,
            GInputStream   *response,
            GError        **error)
{
  g_autofree char *turn_id = g_uuid_string_random ();
  g_autoptr(GBytes) body = NULL;
  g_autoptr(SoupMessage) message = NULL;
  SoupMessageHeaders *headers;
  Turn *turn;

  body = submission (self, text, turn_id, error);
  if (body == NULL)
    return FALSE;

  message = soup_message_new_from_uri (SOUP_METHOD_POST, self->uri);
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "application/x-ndjson");
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  akc_http_set_bearer (message, self->token);

  turn = g_new0 (Turn, 1);
  turn->ref_count = 1;
  turn->client = self;
  turn->shared = shared_ref (self->shared);
  /* A redirect is an error that names where it points: following it
   * would turn the POST into a GET to another origin. The end of the
   * body is the end of the turn; what it means is turn_finish's. */
  turn->http = akc_http_stream_new (self->session, message, AKC_FRAMING_NDJSON);
  akc_http_stream_set_connect_timeout (turn->http, MIN (self->connect_timeout, G_MAXUINT / 1000) * 1000);
  akc_http_stream_set_max_error_body (turn->http, AKC_HTTP_STREAM_DEFAULT_MAX_ERROR_BODY);
  akc_http_stream_set_body_end_ends (turn->http, TRUE);
  akc_line_framer_set_limits (akc_http_stream_get_framer (turn->http), self->max_line_length,
                              self->max_line_length, 0);
  /* A line of white space is not an event: it fails the turn. */
  akc_line_framer_set_keep_blank (akc_http_stream_get_framer (turn->http), TRUE);
  self->turn = turn;

  g_object_freeze_notify (G_OBJECT (self));
  set_error (self, NULL);
  set_status (self, AKC_CHAT_STATUS_STREAMING);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BUSY]);
  g_object_thaw_notify (G_OBJECT (self));

  /* The stream holds a reference until turn_done. */
  if (response != NULL)
    akc_http_stream_start_with_body (turn->http, response_status, response, NULL,
                                     NULL, turn_frame, turn_done, turn);
  else
    akc_http_stream_start (turn->http, NULL, NULL, turn_frame, turn_done, turn);

  return TRUE;
}

/* ------------------------------------------------------------------ */
/* AkcChatSource                                                       */
/* ------------------------------------------------------------------ */

AKC_CHAT_SOURCE_STATE_DEFINE_GETTERS (akc_turn_client, AKC_TURN_CLIENT, state)

static gboolean
check_can_send (AkcTurnClient  *self,
                const char     *text,
                GError        **error)
{
  if (akc_is_blank_input (text))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT, _("There is nothing to send."));
      return FALSE;
    }
  if (self->turn != NULL)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY,
                           _("A reply is still arriving. Stop it first."));
      return FALSE;
    }

  return TRUE;
}

static gboolean
akc_turn_client_send (AkcChatSource  *source,
                      const char     *text,
                      GError        **error)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (source);

  return check_can_send (self, text, error) && start_turn (self, text, 0, NULL, error);
}

gboolean
akc_turn_client_submit_with_response (AkcTurnClient  *self,
                                      const char     *text,
                                      guint           status,
                                      GInputStream   *response,
                                      GError        **error)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), FALSE);
  g_return_val_if_fail (G_IS_INPUT_STREAM (response), FALSE);

  return check_can_send (self, text, error) && start_turn (self, text, status, response, error);
}

static void
akc_turn_client_stop (AkcChatSource *source)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (source);
  Turn *turn = self->turn;

  if (turn == NULL)
    return;

  /* Closing the connection stops the turn on the server (§11.1). What
   * arrived so far stays; the server's next snapshot settles it. */
  turn->stopped = TRUE;
  turn_finish (turn, NULL);
}

static void
akc_turn_client_clear (AkcChatSource *source)
{
  akc_turn_client_stop (source);
}

static void
akc_turn_client_chat_source_init (AkcChatSourceInterface *iface)
{
  /* Retry, regenerate, edit, proposals and approvals are the interface's
   * defaults: not supported. */
  akc_turn_client_state_iface_init (iface);
  iface->send = akc_turn_client_send;
  iface->stop = akc_turn_client_stop;
  iface->clear = akc_turn_client_clear;
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

static gboolean
akc_turn_client_init_initable (GInitable     *initable,
                               GCancellable  *cancellable,
                               GError       **error)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (initable);

  if (self->uri == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           _("The turn endpoint must be an absolute http or https URL."));
      return FALSE;
    }
  if (self->shared == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, "Chat session identity is invalid.");
      return FALSE;
    }

  return TRUE;
}

static void
akc_turn_client_initable_init (GInitableIface *iface)
{
  iface->init = akc_turn_client_init_initable;
}

static void
set_endpoint (AkcTurnClient *self,
              const char    *endpoint)
{
  g_autoptr(GUri) uri = NULL;

  g_free (self->endpoint);
  self->endpoint = g_strdup (endpoint);
  g_clear_pointer (&self->uri, g_uri_unref);

  if (endpoint == NULL)
    return;
  uri = g_uri_parse (endpoint, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
      (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") != 0 &&
       g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0))
    return;
  self->uri = g_steal_pointer (&uri);
}

static void
set_session_id (AkcTurnClient *self,
                const char    *session_id)
{
  AkcTurnCursor *cursor = session_id != NULL ? akc_turn_cursor_new (session_id, NULL) : NULL;

  g_free (self->session_id);
  self->session_id = g_strdup (session_id);
  g_clear_pointer (&self->shared, shared_unref);
  if (cursor != NULL)
    {
      self->shared = g_new0 (Shared, 1);
      self->shared->ref_count = 1;
      g_mutex_init (&self->shared->lock);
      self->shared->cursor = cursor;
    }
}

/**
 * akc_turn_client_new:
 * @endpoint: the URL of the chat turn handler, an absolute `http` or
 *   `https` URL
 * @session_id: the conversation on the server, an Identifier
 * @error: return location for a #GError
 *
 * Creates a client for one conversation of a turn server. It shows no
 * message until the server's first snapshot. Fails with
 * %AKC_ERROR_CONFIG_INVALID for an endpoint that is not an absolute `http`
 * or `https` URL or a session id that is not an Identifier.
 *
 * Give it the bearer token with [method@TurnClient.set_token] before the
 * first message when the endpoint requires one.
 *
 * Returns: (transfer full): a new client, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcTurnClient *
akc_turn_client_new (const char  *endpoint,
                     const char  *session_id,
                     GError     **error)
{
  g_return_val_if_fail (endpoint != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_initable_new (AKC_TYPE_TURN_CLIENT, NULL, error,
                         "endpoint", endpoint,
                         "session-id", session_id,
                         NULL);
}

/**
 * akc_turn_client_get_endpoint:
 * @self: a turn client
 *
 * Gets the URL turns are posted to.
 *
 * Returns: (transfer none): the endpoint
 *
 * Since: 0.1
 */
const char *
akc_turn_client_get_endpoint (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), NULL);

  return self->endpoint;
}

/**
 * akc_turn_client_get_session_id:
 * @self: a turn client
 *
 * Gets the conversation on the server.
 *
 * Returns: (transfer none): the session id
 *
 * Since: 0.1
 */
const char *
akc_turn_client_get_session_id (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), NULL);

  return self->session_id;
}

/**
 * akc_turn_client_set_token:
 * @self: a turn client
 * @token: (nullable): the bearer token, or %NULL for none
 *
 * Sets the bearer token sent as `Authorization: Bearer` with every turn
 * from now on. The client keeps it in memory only, never logs it, and
 * clears it when it is replaced or the client is finalized. Get it from
 * [class@CredentialStore] (%AKC_CREDENTIAL_KIND_BEARER_TOKEN for the
 * endpoint).
 *
 * Since: 0.1
 */
void
akc_turn_client_set_token (AkcTurnClient *self,
                           const char    *token)
{
  gboolean had_token;

  g_return_if_fail (AKC_IS_TURN_CLIENT (self));

  had_token = akc_http_secret_replace (&self->token, token);
  if (had_token != (self->token != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_HAS_TOKEN]);
}

/**
 * akc_turn_client_get_has_token:
 * @self: a turn client
 *
 * Tells whether a bearer token is set (the token itself cannot be read
 * back).
 *
 * Returns: %TRUE if turns carry a token
 *
 * Since: 0.1
 */
gboolean
akc_turn_client_get_has_token (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), FALSE);

  return self->token != NULL;
}

/**
 * akc_turn_client_get_connect_timeout:
 * @self: a turn client
 *
 * Gets how long a turn waits for the response headers.
 *
 * Returns: the timeout in seconds; 0 means no timeout
 *
 * Since: 0.1
 */
guint
akc_turn_client_get_connect_timeout (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), 0);

  return self->connect_timeout;
}

/**
 * akc_turn_client_set_connect_timeout:
 * @self: a turn client
 * @seconds: the timeout in seconds; 0 for none
 *
 * Sets how long the next turns wait for the response headers before they
 * fail with `TURN_TIMEOUT`. Once the headers have arrived no timer
 * applies.
 *
 * Since: 0.1
 */
void
akc_turn_client_set_connect_timeout (AkcTurnClient *self,
                                     guint          seconds)
{
  g_return_if_fail (AKC_IS_TURN_CLIENT (self));

  if (self->connect_timeout == seconds)
    return;
  self->connect_timeout = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONNECT_TIMEOUT]);
}

/**
 * akc_turn_client_get_max_line_length:
 * @self: a turn client
 *
 * Gets the longest event line the client accepts.
 *
 * Returns: the limit in bytes
 *
 * Since: 0.1
 */
guint
akc_turn_client_get_max_line_length (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), 0);

  return self->max_line_length;
}

/**
 * akc_turn_client_set_max_line_length:
 * @self: a turn client
 * @bytes: the limit in bytes, at least 1
 *
 * Sets the longest event line the client accepts. A longer line, or a
 * line that never ends, fails the turn with `TURN_LINE_TOO_LONG` as soon as
 * it passes the limit, so a turn never holds more than about this many
 * bytes.
 *
 * Since: 0.1
 */
void
akc_turn_client_set_max_line_length (AkcTurnClient *self,
                                     guint          bytes)
{
  g_return_if_fail (AKC_IS_TURN_CLIENT (self));
  g_return_if_fail (bytes > 0);

  if (self->max_line_length == bytes)
    return;
  self->max_line_length = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MAX_LINE_LENGTH]);
}

/**
 * akc_turn_client_get_snapshot:
 * @self: a turn client
 *
 * Gets the last snapshot the client accepted: a normalised
 * `server.turn.snapshot` event.
 *
 * Returns: (transfer none) (nullable): the snapshot, or %NULL before the
 *   first one
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_turn_client_get_snapshot (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), NULL);

  return self->snapshot;
}

/**
 * akc_turn_client_get_busy:
 * @self: a turn client
 *
 * Tells whether a turn is in progress: from the submission until its
 * stream ends, fails or is stopped.
 *
 * Returns: %TRUE while a turn is in progress
 *
 * Since: 0.1
 */
gboolean
akc_turn_client_get_busy (AkcTurnClient *self)
{
  g_return_val_if_fail (AKC_IS_TURN_CLIENT (self), FALSE);

  return self->turn != NULL;
}

static void
akc_turn_client_dispose (GObject *object)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (object);

  if (self->turn != NULL)
    {
      Turn *turn = self->turn;

      /* No notification from a client that is going away. */
      akc_http_stream_cancel (turn->http);
      turn->client = NULL;
      self->turn = NULL;
    }

  if (self->session != NULL)
    soup_session_abort (self->session);

  G_OBJECT_CLASS (akc_turn_client_parent_class)->dispose (object);
}

static void
akc_turn_client_finalize (GObject *object)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (object);

  akc_turn_client_set_token (self, NULL);
  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_object (&self->session);
  g_clear_pointer (&self->shared, shared_unref);
  g_clear_pointer (&self->messages, akc_message_sync_free);
  g_clear_pointer (&self->snapshot, akc_json_value_unref);
  akc_chat_source_state_clear (&self->state);

  G_OBJECT_CLASS (akc_turn_client_parent_class)->finalize (object);
}

static void
akc_turn_client_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (object);

  if (akc_chat_source_state_get_property (&self->state, prop_id, PROP_MESSAGES, value))
    return;

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_value_set_string (value, self->endpoint);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout);
      break;
    case PROP_MAX_LINE_LENGTH:
      g_value_set_uint (value, self->max_line_length);
      break;
    case PROP_SNAPSHOT:
      g_value_set_boxed (value, self->snapshot);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->turn != NULL);
      break;
    case PROP_HAS_TOKEN:
      g_value_set_boolean (value, self->token != NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_turn_client_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AkcTurnClient *self = AKC_TURN_CLIENT (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      set_endpoint (self, g_value_get_string (value));
      break;
    case PROP_SESSION_ID:
      set_session_id (self, g_value_get_string (value));
      break;
    case PROP_CONNECT_TIMEOUT:
      akc_turn_client_set_connect_timeout (self, g_value_get_uint (value));
      break;
    case PROP_MAX_LINE_LENGTH:
      akc_turn_client_set_max_line_length (self, g_value_get_uint (value));
      break;
    case PROP_INPUT:
      akc_chat_source_state_set_input (&self->state, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_turn_client_class_init (AkcTurnClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_turn_client_dispose;
  object_class->finalize = akc_turn_client_finalize;
  object_class->get_property = akc_turn_client_get_property;
  object_class->set_property = akc_turn_client_set_property;

  /**
   * AkcTurnClient:endpoint:
   *
   * The URL of the chat turn handler turns are posted to.
   *
   * Since: 0.1
   */
  props[PROP_ENDPOINT] =
    g_param_spec_string ("endpoint", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnClient:session-id:
   *
   * The conversation on the server; only its snapshots are applied.
   *
   * Since: 0.1
   */
  props[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnClient:connect-timeout:
   *
   * How long, in seconds, a turn waits for the response headers; 0 for no
   * limit.
   *
   * Since: 0.1
   */
  props[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL,
                       0, G_MAXUINT, AKC_TURN_CLIENT_DEFAULT_CONNECT_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnClient:max-line-length:
   *
   * The longest event line, in bytes, the client accepts.
   *
   * Since: 0.1
   */
  props[PROP_MAX_LINE_LENGTH] =
    g_param_spec_uint ("max-line-length", NULL, NULL,
                       1, G_MAXUINT, AKC_TURN_CLIENT_DEFAULT_MAX_LINE_LENGTH,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnClient:snapshot:
   *
   * The last accepted snapshot event, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SNAPSHOT] =
    g_param_spec_boxed ("snapshot", NULL, NULL,
                        AKC_TYPE_JSON_VALUE,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnClient:busy:
   *
   * Whether a turn is in progress.
   *
   * Since: 0.1
   */
  props[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcTurnClient:has-token:
   *
   * Whether a bearer token is set.
   *
   * Since: 0.1
   */
  props[PROP_HAS_TOKEN] =
    g_param_spec_boolean ("has-token", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  akc_chat_source_state_override_properties (object_class, PROP_MESSAGES, source_props);

  /**
   * AkcTurnClient::snapshot-accepted:
   * @self: the client
   * @snapshot: the snapshot event, normalised
   *
   * A snapshot was accepted and is now the conversation.
   *
   * Since: 0.1
   */
  signals[SIGNAL_SNAPSHOT_ACCEPTED] =
    g_signal_new ("snapshot-accepted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcTurnClient::turn-finished:
   * @self: the client
   *
   * The turn ended: its stream closed, it failed or it was stopped.
   * [property@ChatSource:status] and [property@ChatSource:error] tell how.
   *
   * Since: 0.1
   */
  signals[SIGNAL_TURN_FINISHED] =
    g_signal_new ("turn-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * AkcTurnClient::event-sent:
   * @self: the client
   * @event: the `client.turn.submit` event, as it is posted
   *
   * An event is about to be posted to the turn endpoint, for a view of
   * the wire such as [method@TraceCapture.watch_turn_client]. The event
   * holds what the person typed: a handler that shows or keeps it
   * redacts it first.
   *
   * Since: 0.1
   */
  signals[SIGNAL_EVENT_SENT] =
    g_signal_new ("event-sent", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcTurnClient::event-received:
   * @self: the client
   * @event: the turn event, decoded and normalised ([protocol §2.6](wire-formats.html#protocol-2))
   *
   * A line of the answer was a turn event: a snapshot, whether the
   * client accepts it or not (stale, duplicate and foreign-session ones
   * too), or a `server.turn.diagnostic`, for a view of the wire such as
   * [method@TraceCapture.watch_turn_client]. Emitted before the event is
   * applied. A snapshot holds the person's messages and every event the
   * session id: a handler that shows or keeps them redacts them first.
   *
   * Since: 0.1
   */
  signals[SIGNAL_EVENT_RECEIVED] =
    g_signal_new ("event-received", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_turn_client_init (AkcTurnClient *self)
{
  g_autofree char *user_agent = g_strdup_printf ("AgentsKitChat/%s ", akc_get_version ());

  self->connect_timeout = AKC_TURN_CLIENT_DEFAULT_CONNECT_TIMEOUT;
  self->max_line_length = AKC_TURN_CLIENT_DEFAULT_MAX_LINE_LENGTH;
  akc_chat_source_state_init (&self->state, G_OBJECT (self), source_props);
  self->messages = akc_message_sync_new (self->state.messages);
  /* No I/O timeout: a reply may pause for as long as the server thinks. */
  self->session = soup_session_new_with_options ("user-agent", user_agent,
                                                 "timeout", 0,
                                                 NULL);
}

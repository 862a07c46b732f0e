/* akc-chat-handler.c: the chat turn handler (application.md §11.1)
 *
 * SPDX-License-Identifier: MIT
 *
 * One POST carries one `client.turn.submit` event (protocol.md §2); the
 * answer is NDJSON: a `server.turn.snapshot` line for each state of the
 * conversation, persisted before it is written, and at most one
 * `server.turn.diagnostic` line.
 *
 * The request is checked in the order of §11.1 as its parts arrive: the
 * method, the content type, the host's authentication and the declared
 * length as soon as the headers are read (an early handler: a refused
 * client never gets its body read into memory), the streamed length as
 * the body arrives (nothing is kept past the limit), then the JSON and the
 * event. The turn then runs through the library: the definition's session
 * is resumed from the storage (AkcSession), the turn id claimed with a
 * lease of timeoutMs + 3 × cleanupTimeoutMs, the conversation created by
 * the session (AkcChat, with the definition's message memory) and the
 * input sent. Changes of the conversation are coalesced: while a snapshot
 * is being persisted the next one waits, and only the latest state is
 * taken when it may go. Everything is asynchronous on the main context.
 *
 * The deadline (timeoutMs) and a client that goes away end the turn:
 * before the response a JSON error (408 / 499), after it a diagnostic
 * line. Cleanup runs exactly once: stop the conversation, wait up to
 * cleanupTimeoutMs for it to settle, flush its message memory, then
 * release the turn (indeterminate when the memory could not be saved).
 */

#include "config.h"

#include <string.h>

#include "akc-chat-handler.h"
#include "akc-json-private.h"
#include "akc-turn-private.h"
#include "akc-server-util.h"
#include "akc-stored-message-private.h"


G_DEFINE_QUARK (akc-server-error-quark, akc_server_error)

/* The wire code and status of an AKC_SERVER_ERROR; NULL for other errors. */
const char *
akc_server_error_get_code (const GError *error,
                           guint        *status)
{
  if (error == NULL || error->domain != AKC_SERVER_ERROR)
    return NULL;

  if (status != NULL)
    *status = 500;
  switch ((AkcServerError) error->code)
    {
    case AKC_SERVER_ERROR_INVALID_CONFIG:
      return "SERVER_INVALID_CONFIG";
    case AKC_SERVER_ERROR_ASK_INVALID_CONFIG:
      return "ASK_INTERNAL";
    case AKC_SERVER_ERROR_INTERNAL:
    default:
      return "SERVER_INTERNAL";
    }
}

void
akc_chat_handler_options_init (AkcChatHandlerOptions *options)
{
  options->timeout_ms = 30000;
  options->cleanup_timeout_ms = 5000;
  options->max_body_bytes = 65536;
}

struct _AkcChatHandler
{
  GObject                     parent_instance;

  gint64                      timeout_ms;
  gint64                      cleanup_timeout_ms;
  gint64                      max_body_bytes;
  gint64                      lease_ms;

  AkcSessionStorage          *storage;
  AkcChatHandlerResolveFunc   resolve;
  gpointer                    resolve_data;
  AkcChatHandlerAuthFunc      auth;
  gpointer                    auth_data;
  AkcChatHandlerChatFunc      chat_setup;
  gpointer                    chat_setup_data;
  AkcChatHandlerNowFunc       now;
  AkcChatHandlerCreateIdFunc  create_id;
  gpointer                    clock_data;

  gboolean                    draining;
  gboolean                    manual_deadlines;
  guint                       n_lines;
  guint                       n_active;
  guint                       n_cleanups;
  GHashTable                 *turns;   /* Turn, active ones */
};

G_DEFINE_FINAL_TYPE (AkcChatHandler, akc_chat_handler, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ */
/* Responses                                                           */
/* ------------------------------------------------------------------ */

typedef enum
{
  ERR_METHOD,
  ERR_MEDIA_TYPE,
  ERR_TOO_LARGE,
  ERR_INVALID_JSON,
  ERR_INVALID_EVENT,
  ERR_INTERNAL,
  ERR_CONFLICT,
  ERR_BUSY,
  ERR_TIMEOUT,
  ERR_CANCELLED,
  ERR_UNAVAILABLE,
} ErrorKind;

static const struct
{
  guint       status;
  const char *code;
  const char *message;
  gboolean    retryable;
} errors[] = {
  [ERR_METHOD] = { 405, "REQUEST_METHOD_NOT_ALLOWED", "Only POST is supported.", FALSE },
  [ERR_MEDIA_TYPE] = { 415, "REQUEST_UNSUPPORTED_MEDIA_TYPE", "Content-Type must be application/json.", FALSE },
  [ERR_TOO_LARGE] = { 413, "REQUEST_TOO_LARGE", "Request body is too large.", FALSE },
  [ERR_INVALID_JSON] = { 400, "REQUEST_INVALID_JSON", "Request body is not valid JSON.", FALSE },
  [ERR_INVALID_EVENT] = { 400, "REQUEST_INVALID_EVENT", "Request body must be a valid turn submission.", FALSE },
  [ERR_INTERNAL] = { 500, "SERVER_INTERNAL", "The chat request failed.", TRUE },
  [ERR_CONFLICT] = { 409, "SESSION_CONFLICT", "Another turn is active for this session.", TRUE },
  [ERR_BUSY] = { 409, "SESSION_BUSY", "Another turn is active for this session.", TRUE },
  [ERR_TIMEOUT] = { 408, "SERVER_TIMEOUT", "The chat request timed out.", TRUE },
  [ERR_CANCELLED] = { 499, "REQUEST_CANCELLED", "The chat request was cancelled.", TRUE },
  /* Our own: a server that is shutting down takes no new turn. */
  [ERR_UNAVAILABLE] = { 503, "SERVER_UNAVAILABLE", "The server is shutting down.", TRUE },
};

static void
append_error_payload (GString   *out,
                      ErrorKind  kind)
{
  AkcJsonWriter w;

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, 1);
  akc_json_writer_member (&w, "code");
  akc_json_writer_string (&w, errors[kind].code, -1);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, errors[kind].message, -1);
  akc_json_writer_member (&w, "retryable");
  akc_json_writer_boolean (&w, errors[kind].retryable);
  akc_json_writer_end_object (&w);
}

static void
respond_error (SoupServerMessage *message,
               ErrorKind          kind)
{
  g_autoptr(GString) body = g_string_new ("{\"error\":");
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);

  append_error_payload (body, kind);
  g_string_append_c (body, '}');

  soup_server_message_set_status (message, errors[kind].status,
                                  kind == ERR_CANCELLED ? "Client Closed Request" : NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_server_message_set_response (message, "application/json; charset=utf-8",
                                    SOUP_MEMORY_COPY, body->str, body->len);
}


/* ------------------------------------------------------------------ */
/* One turn                                                            */
/* ------------------------------------------------------------------ */

typedef enum
{
  PHASE_BODY,      /* reading the request */
  PHASE_PREPARE,   /* resuming, claiming: no response yet */
  PHASE_STREAM,    /* 200 sent, lines follow */
  PHASE_DONE,
} Phase;

typedef struct
{
  AkcChatHandler    *handler;
  SoupServerMessage *message;
  AkcJsonValue      *context;
  GByteArray        *body;
  gboolean           too_large;

  Phase              phase;
  gboolean           gone;           /* the client went away */
  ErrorKind          abort_kind;     /* ERR_TIMEOUT / ERR_CANCELLED */
  gboolean           aborted;
  GCancellable      *cancellable;    /* the request's */
  guint              deadline_id;

  char              *session_id;
  char              *turn_id;
  char              *input;
  AkcSession        *session;
  gboolean           claimed;
  AkcChat           *chat;

  /* snapshots */
  GHashTable        *watched;        /* AkcMessage → handler id */
  gulong             items_id;
  gulong             status_id;
  gulong             usage_id;
  gulong             error_id;
  guint              idle_id;
  gboolean           emitting;
  gboolean           pending;
  gboolean           send_finished;
  gboolean           diagnostic_written;

  AkcServerHangup   *hangup;         /* the client's socket, while streaming */

  /* cleanup */
  gboolean           cleanup_started;
  gboolean           stop_requested;
  AkcTurnOutcome     outcome;
  GError            *cleanup_error;
  GCancellable      *cleanup_cancellable;
  guint              cleanup_timer;
  gulong             settle_id;
} Turn;

static void turn_schedule (Turn *turn);
static void turn_cleanup (Turn *turn, gboolean stop);
static void turn_abort (Turn *turn, ErrorKind kind);
static void turn_gone (Turn *turn);

static Turn *
turn_ref (Turn *turn)
{
  return g_rc_box_acquire (turn);
}

static void
turn_clear (Turn *turn)
{
  g_assert (turn->idle_id == 0 && turn->deadline_id == 0 && turn->cleanup_timer == 0 && turn->hangup == NULL);
  g_clear_object (&turn->handler);
  g_clear_object (&turn->message);
  g_clear_pointer (&turn->context, akc_json_value_unref);
  g_clear_pointer (&turn->body, g_byte_array_unref);
  g_clear_object (&turn->cancellable);
  if (turn->session != NULL && akc_session_get_history (turn->session) != NULL)
    g_signal_handlers_disconnect_by_data (akc_session_get_history (turn->session), turn);
  g_clear_pointer (&turn->session_id, g_free);
  g_clear_pointer (&turn->turn_id, g_free);
  g_clear_pointer (&turn->input, g_free);
  g_clear_object (&turn->session);
  g_clear_object (&turn->chat);
  g_clear_pointer (&turn->watched, g_hash_table_unref);
  g_clear_error (&turn->cleanup_error);
  g_clear_object (&turn->cleanup_cancellable);
}

static void
turn_unref (Turn *turn)
{
  g_rc_box_release_full (turn, (GDestroyNotify) turn_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Turn, turn_unref)

static gint64
handler_now (AkcChatHandler *self)
{
  if (self->now != NULL)
    return self->now (self->clock_data);
  return g_get_real_time () / 1000;
}

static char *
handler_create_id (AkcChatHandler *self)
{
  if (self->create_id != NULL)
    return self->create_id (self->clock_data);
  return g_uuid_string_random ();
}

static gint64
session_clock (gpointer user_data)
{
  return handler_now (user_data);
}

/* Writes one line (an encoded event) to the stream. */
static void
turn_write_line (Turn       *turn,
                 const char *line,
                 gsize       length)
{
  SoupMessageBody *body;
  char *copy;

  if (turn->gone || turn->phase != PHASE_STREAM)
    return;

  body = soup_server_message_get_response_body (turn->message);
  copy = g_malloc (length + 1);
  memcpy (copy, line, length);
  copy[length] = '\n';
  soup_message_body_append (body, SOUP_MEMORY_TAKE, copy, length + 1);
  soup_server_message_unpause (turn->message);
  turn->handler->n_lines++;
}

static void
turn_write_event (Turn     *turn,
                  GString  *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) value = akc_json_value_parse (text->str, text->len, &error);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) event = NULL;
  g_autofree char *line = NULL;
  gsize length = 0;

  g_assert (value != NULL);
  event = akc_turn_event_decode_value (value, &diagnostic);
  if (event == NULL)
    {
      g_warning ("An event of the turn handler is invalid (%s)", akc_diagnostic_get_code (diagnostic));
      return;
    }
  line = akc_turn_event_encode (event, &length, &error);
  if (line == NULL)
    {
      g_warning ("An event of the turn handler cannot be encoded: %s", error->message);
      return;
    }
  turn_write_line (turn, line, length);
}

static void
turn_write_diagnostic (Turn      *turn,
                       ErrorKind  kind)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *event_id = NULL;
  g_autofree char *emitted_at = NULL;
  AkcJsonWriter w;

  if (turn->diagnostic_written || turn->phase != PHASE_STREAM)
    return;
  turn->diagnostic_written = TRUE;

  event_id = handler_create_id (turn->handler);
  emitted_at = akc_server_format_time (handler_now (turn->handler));

  akc_json_writer_init (&w, text);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "protocol");
  akc_json_writer_string (&w, AKC_TURN_PROTOCOL, -1);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, AKC_TURN_PROTOCOL_VERSION);
  akc_json_writer_member (&w, "eventId");
  akc_json_writer_string (&w, event_id, -1);
  akc_json_writer_member (&w, "sessionId");
  akc_json_writer_string (&w, turn->session_id, -1);
  akc_json_writer_member (&w, "turnId");
  akc_json_writer_string (&w, turn->turn_id, -1);
  akc_json_writer_member (&w, "sequence");
  akc_json_writer_int (&w, (turn->session != NULL ? akc_session_get_cursor (turn->session) : 0) + 1);
  akc_json_writer_member (&w, "emittedAt");
  akc_json_writer_string (&w, emitted_at, -1);
  akc_json_writer_member (&w, "event");
  akc_json_writer_string (&w, "server.turn.diagnostic", -1);
  akc_json_writer_member (&w, "payload");
  append_error_payload (text, kind);
  akc_json_writer_end_object (&w);

  turn_write_event (turn, text);
}

/* The end of the response, once everything else is done. */
static void
turn_finish (Turn *turn)
{
  AkcChatHandler *self = turn->handler;

  if (turn->phase == PHASE_DONE)
    return;

  g_clear_pointer (&turn->hangup, akc_server_hangup_free);
  if (turn->phase == PHASE_STREAM && !turn->gone)
    {
      soup_message_body_complete (soup_server_message_get_response_body (turn->message));
      soup_server_message_unpause (turn->message);
    }
  turn->phase = PHASE_DONE;
  g_clear_handle_id (&turn->deadline_id, g_source_remove);

  if (g_hash_table_remove (self->turns, turn))
    self->n_active--;
}

/* Before the response: the error, then (when a turn was claimed) cleanup. */
static void
turn_fail_early (Turn      *turn,
                 ErrorKind  kind)
{
  g_assert (turn->phase == PHASE_PREPARE);

  if (!turn->gone)
    {
      respond_error (turn->message, kind);
      soup_server_message_unpause (turn->message);
    }
  if (turn->claimed)
    turn_cleanup (turn, TRUE);
  else
    turn_finish (turn);
}

static ErrorKind
error_kind (const GError *error)
{
  if (g_error_matches (error, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT))
    return ERR_CONFLICT;
  return ERR_INTERNAL;
}

/* After the response started: a diagnostic line, then cleanup. */
static void
turn_fail_stream (Turn         *turn,
                  const GError *error)
{
  if (turn->cleanup_started)
    return;
  g_debug ("A turn failed: %s", error->message);
  turn_write_diagnostic (turn, error_kind (error));
  turn_cleanup (turn, TRUE);
}

/* ------------------------------------------------------------------ */
/* Snapshots                                                           */
/* ------------------------------------------------------------------ */

static AkcMessageRecord *
message_record (AkcMessage  *message,
                GError     **error)
{
  g_autoptr(AkcStoredMessage) row = akc_stored_message_new_from_message (message);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(AkcJsonValue) value = NULL;
  g_autofree char *created_at = akc_server_format_time (row->created_at / 1000);
  AkcJsonWriter w;

  akc_json_writer_init (&w, text);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "id");
  akc_json_writer_string (&w, row->id, -1);
  akc_json_writer_member (&w, "role");
  akc_json_writer_string (&w, row->role, -1);
  akc_json_writer_member (&w, "content");
  akc_json_writer_string (&w, row->content, row->content_length);
  akc_json_writer_member (&w, "status");
  /* A reply waiting for its first chunk is "pending" in AkcChat; the
   * reference's controller, and so the wire, has it "streaming". */
  akc_json_writer_string (&w, strcmp (row->status, "pending") == 0 && strcmp (row->role, "assistant") == 0
                              ? "streaming" : row->status, -1);
  akc_json_writer_member (&w, "createdAt");
  akc_json_writer_string (&w, created_at, -1);
  if (row->tool_call_id != NULL)
    {
      akc_json_writer_member (&w, "toolCallId");
      akc_json_writer_string (&w, row->tool_call_id, -1);
    }
  akc_json_writer_end_object (&w);

  if (row->tool_calls != NULL)
    {
      /* the stored form of tool calls is the wire form (§7.2 toolCalls) */
      g_string_truncate (text, text->len - 1);
      g_string_append (text, ",\"toolCalls\":");
      g_string_append (text, row->tool_calls);
      g_string_append_c (text, '}');
    }

  value = akc_json_value_parse (text->str, text->len, error);
  if (value == NULL)
    return NULL;
  return akc_message_record_new_from_value (value, error);
}

static AkcJsonValue *
usage_value (const AkcUsage *usage)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_printf (text, "{\"promptTokens\":%" G_GUINT64_FORMAT ",\"completionTokens\":%" G_GUINT64_FORMAT
                   ",\"totalTokens\":%" G_GUINT64_FORMAT "}",
                   usage != NULL ? usage->prompt_tokens : 0,
                   usage != NULL ? usage->completion_tokens : 0,
                   usage != NULL ? usage->total_tokens : 0);
  return akc_json_value_parse (text->str, text->len, NULL);
}

/* The state of the conversation, taken when it may be emitted. */
typedef struct
{
  Turn         *turn;
  GPtrArray    *records;
  char         *status;
  AkcJsonValue *usage;
  gboolean      has_error;
} Capture;

static void
capture_free (Capture *capture)
{
  turn_unref (capture->turn);
  g_ptr_array_unref (capture->records);
  g_free (capture->status);
  akc_json_value_unref (capture->usage);
  g_free (capture);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, capture_free)

static Capture *
turn_capture (Turn    *turn,
              GError **error)
{
  AkcChatSource *source = AKC_CHAT_SOURCE (turn->chat);
  GListModel *messages = akc_chat_source_get_messages (source);
  guint n = g_list_model_get_n_items (messages);
  g_autoptr(Capture) capture = g_new0 (Capture, 1);

  capture->turn = turn_ref (turn);
  capture->records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_message_record_unref);
  capture->usage = usage_value (akc_chat_source_get_usage (source));
  capture->has_error = akc_chat_source_get_error (source) != NULL ||
                       akc_chat_source_get_status (source) == AKC_CHAT_STATUS_ERROR;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      AkcMessageRecord *record = message_record (message, error);

      if (record == NULL)
        return NULL;
      g_ptr_array_add (capture->records, record);
    }

  if (capture->has_error)
    capture->status = g_strdup ("error");
  else if (akc_chat_source_get_status (source) == AKC_CHAT_STATUS_STREAMING)
    capture->status = g_strdup ("streaming");
  else if (n == 0)
    capture->status = g_strdup ("idle");
  else
    capture->status = g_strdup ("complete");

  return g_steal_pointer (&capture);
}

static void
on_persisted (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Capture) capture = user_data;
  Turn *turn = capture->turn;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) event = NULL;
  g_autoptr(AkcJsonValue) lineage = NULL;
  g_autoptr(AkcJsonValue) error_payload = NULL;
  g_autofree char *event_id = NULL;
  g_autofree char *emitted_at = NULL;
  g_autofree char *line = NULL;
  gsize length = 0;

  turn->emitting = FALSE;

  if (!akc_session_persist_finish (AKC_SESSION (source), result, &error))
    {
      if (!turn->aborted && !turn->cleanup_started)
        turn_fail_stream (turn, error);
      return;
    }
  if (turn->aborted || turn->cleanup_started)
    return;

  event_id = handler_create_id (turn->handler);
  emitted_at = akc_server_format_time (handler_now (turn->handler));
  lineage = akc_json_value_parse ("{\"operation\":\"submit\"}", -1, NULL);
  if (capture->has_error)
    error_payload = akc_json_value_parse ("{\"version\":1,\"code\":\"CHAT_TURN_FAILED\","
                                          "\"message\":\"The chat turn failed.\",\"retryable\":true}", -1, NULL);

  event = akc_turn_create_snapshot_event (event_id, turn->session_id, turn->turn_id,
                                          akc_session_get_cursor (turn->session), emitted_at,
                                          (AkcMessageRecord * const *) capture->records->pdata,
                                          capture->records->len, capture->status, capture->usage,
                                          lineage, error_payload, &error);
  if (event != NULL)
    line = akc_turn_event_encode (event, &length, &error);
  if (line == NULL)
    {
      turn_fail_stream (turn, error);
      return;
    }
  turn_write_line (turn, line, length);

  if (turn->pending)
    turn_schedule (turn);
  else if (turn->send_finished)
    turn_cleanup (turn, FALSE);
}

static gboolean
turn_emit (gpointer user_data)
{
  Turn *turn = user_data;
  g_autoptr(GError) error = NULL;
  Capture *capture;

  turn->idle_id = 0;
  if (turn->aborted || turn->cleanup_started || turn->emitting)
    return G_SOURCE_REMOVE;

  capture = turn_capture (turn, &error);
  if (capture == NULL)
    {
      turn_fail_stream (turn, error);
      return G_SOURCE_REMOVE;
    }

  turn->pending = FALSE;
  turn->emitting = TRUE;
  akc_session_persist_async (turn->session, turn->cancellable, on_persisted, capture);
  return G_SOURCE_REMOVE;
}

/* A change of the conversation: taken at once when nothing is being
 * emitted (after the rest of this main-loop iteration's changes), or
 * when the emission in flight is done. */
static void
turn_schedule (Turn *turn)
{
  if (turn->aborted || turn->cleanup_started)
    return;
  if (turn->emitting)
    {
      turn->pending = TRUE;
      return;
    }
  if (turn->idle_id == 0)
    turn->idle_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, turn_emit, turn_ref (turn), (GDestroyNotify) turn_unref);
}

static void
on_message_notify (GObject    *object,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  turn_schedule (user_data);
}

static void
turn_unwatch_messages (Turn *turn)
{
  GHashTableIter iter;
  gpointer message, id;

  g_hash_table_iter_init (&iter, turn->watched);
  while (g_hash_table_iter_next (&iter, &message, &id))
    g_signal_handler_disconnect (message, GPOINTER_TO_SIZE (id));
  g_hash_table_remove_all (turn->watched);
}

static void
turn_watch_messages (Turn *turn)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (turn->chat));

  turn_unwatch_messages (turn);
  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      gulong id = g_signal_connect (message, "notify", G_CALLBACK (on_message_notify), turn);

      g_hash_table_insert (turn->watched, message, GSIZE_TO_POINTER (id));
    }
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  Turn *turn = user_data;

  turn_watch_messages (turn);
  turn_schedule (turn);
}

static void
on_chat_notify (GObject    *object,
                GParamSpec *pspec,
                gpointer    user_data)
{
  Turn *turn = user_data;

  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->chat)) != AKC_CHAT_STATUS_STREAMING)
    turn->send_finished = TRUE;
  turn_schedule (turn);
}

static void
turn_unsubscribe (Turn *turn)
{
  if (turn->chat == NULL)
    return;
  g_clear_signal_handler (&turn->items_id, akc_chat_source_get_messages (AKC_CHAT_SOURCE (turn->chat)));
  g_clear_signal_handler (&turn->status_id, turn->chat);
  g_clear_signal_handler (&turn->usage_id, turn->chat);
  g_clear_signal_handler (&turn->error_id, turn->chat);
  turn_unwatch_messages (turn);
  g_clear_handle_id (&turn->idle_id, g_source_remove);
}

/* ------------------------------------------------------------------ */
/* Cleanup                                                             */
/* ------------------------------------------------------------------ */

static void
on_released (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(Turn) turn = user_data;
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&turn->cleanup_timer, g_source_remove);
  if (!akc_session_release_turn_finish (AKC_SESSION (source), result, &error) && turn->cleanup_error == NULL)
    turn->cleanup_error = g_steal_pointer (&error);

  if (turn->cleanup_error != NULL)
    {
      g_debug ("The cleanup of a turn failed: %s", turn->cleanup_error->message);
      turn_write_diagnostic (turn, error_kind (turn->cleanup_error));
    }
  turn_finish (turn);
}

static gboolean
on_cleanup_timeout (gpointer user_data)
{
  Turn *turn = user_data;

  turn->cleanup_timer = 0;
  g_cancellable_cancel (turn->cleanup_cancellable);
  return G_SOURCE_REMOVE;
}

/* Each step of cleanup has cleanupTimeoutMs. */
static void
turn_cleanup_step (Turn *turn)
{
  g_clear_handle_id (&turn->cleanup_timer, g_source_remove);
  g_clear_object (&turn->cleanup_cancellable);
  turn->cleanup_cancellable = g_cancellable_new ();
  turn->cleanup_timer = g_timeout_add (turn->handler->cleanup_timeout_ms, on_cleanup_timeout, turn);
}

static void
turn_release (Turn *turn)
{
  if (!turn->claimed)
    {
      g_clear_handle_id (&turn->cleanup_timer, g_source_remove);
      turn_finish (turn);
      turn_unref (turn);
      return;
    }
  turn_cleanup_step (turn);
  akc_session_release_turn_async (turn->session, turn->turn_id, turn->outcome,
                                  turn->cleanup_cancellable, on_released, turn);
}

static void
on_flushed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Turn *turn = user_data;
  g_autoptr(GError) error = NULL;

  if (!akc_chat_history_flush_finish (AKC_CHAT_HISTORY (source), result, &error))
    {
      turn->outcome = AKC_TURN_OUTCOME_INDETERMINATE;
      turn->cleanup_error = g_steal_pointer (&error);
    }
  turn_release (turn);
}

static void
turn_save_memory (Turn *turn)
{
  AkcChatHistory *history = turn->session != NULL ? akc_session_get_history (turn->session) : NULL;

  g_clear_signal_handler (&turn->settle_id, turn->chat);
  if (history == NULL || turn->chat == NULL)
    {
      turn_release (turn);
      return;
    }
  turn_cleanup_step (turn);
  akc_chat_history_flush_async (history, turn->cleanup_cancellable, on_flushed, turn);
}

static void
on_settled (GObject    *object,
            GParamSpec *pspec,
            gpointer    user_data)
{
  Turn *turn = user_data;

  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->chat)) != AKC_CHAT_STATUS_STREAMING)
    {
      g_clear_handle_id (&turn->cleanup_timer, g_source_remove);
      turn_save_memory (turn);
    }
}

static gboolean
on_settle_timeout (gpointer user_data)
{
  Turn *turn = user_data;

  turn->cleanup_timer = 0;
  turn_save_memory (turn);
  return G_SOURCE_REMOVE;
}

/* Runs once; holds a reference on the turn until it is done. */
static void
turn_cleanup (Turn     *turn,
              gboolean  stop)
{
  if (turn->cleanup_started)
    return;
  turn->cleanup_started = TRUE;
  turn->stop_requested = stop;
  turn->handler->n_cleanups++;
  turn_ref (turn);

  /* 1. unsubscribe */
  turn_unsubscribe (turn);

  if (turn->chat == NULL)
    {
      turn_release (turn);
      return;
    }

  /* 2. stop */
  if ((stop || turn->aborted) &&
      akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->chat)) == AKC_CHAT_STATUS_STREAMING)
    akc_chat_source_stop (AKC_CHAT_SOURCE (turn->chat));

  /* 3. wait for the send to settle */
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->chat)) == AKC_CHAT_STATUS_STREAMING)
    {
      turn->settle_id = g_signal_connect (turn->chat, "notify::status", G_CALLBACK (on_settled), turn);
      turn->cleanup_timer = g_timeout_add (turn->handler->cleanup_timeout_ms, on_settle_timeout, turn);
      return;
    }

  /* 4., 5. */
  turn_save_memory (turn);
}

/* The deadline or a client that went away. */
static void
turn_abort (Turn      *turn,
            ErrorKind  kind)
{
  if (turn->aborted || turn->cleanup_started || turn->phase == PHASE_DONE)
    return;
  turn->aborted = TRUE;
  turn->abort_kind = kind;
  g_cancellable_cancel (turn->cancellable);

  switch (turn->phase)
    {
    case PHASE_BODY:
      /* a client that does not finish its request in time (slowloris):
       * the connection is closed */
      turn_finish (turn);
      if (!turn->gone)
        {
          g_autoptr(GIOStream) stream = NULL;

          turn->gone = TRUE;
          stream = soup_server_message_steal_connection (turn->message);
          if (stream != NULL)
            g_io_stream_close (stream, NULL, NULL);
        }
      break;
    case PHASE_PREPARE:
      turn_fail_early (turn, kind);
      break;
    case PHASE_STREAM:
      turn_write_diagnostic (turn, kind);
      turn_cleanup (turn, TRUE);
      break;
    case PHASE_DONE:
    default:
      break;
    }
}

static gboolean
on_deadline (gpointer user_data)
{
  Turn *turn = user_data;

  turn->deadline_id = 0;
  turn_abort (turn, ERR_TIMEOUT);
  return G_SOURCE_REMOVE;
}

/* The client went away, or the response ended before the turn did. */
static void
turn_gone (Turn *turn)
{
  if (turn->phase == PHASE_DONE)
    return;
  turn->gone = TRUE;
  if (turn->phase == PHASE_BODY)
    turn_finish (turn);
  else
    turn_abort (turn, ERR_CANCELLED);
}

static void
on_disconnected (SoupServerMessage *message,
                 gpointer           user_data)
{
  turn_gone (user_data);
}

static void
on_finished (SoupServerMessage *message,
             gpointer           user_data)
{
  turn_gone (user_data);
}

/* ------------------------------------------------------------------ */
/* The turn                                                            */
/* ------------------------------------------------------------------ */

static void
on_hangup (gpointer user_data)
{
  Turn *turn = user_data;

  g_clear_pointer (&turn->hangup, akc_server_hangup_free);
  turn_gone (turn);
}

static void
turn_start_stream (Turn *turn)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (turn->message);
  GListModel *messages;
  g_autoptr(GError) error = NULL;

  turn->phase = PHASE_STREAM;
  soup_server_message_set_status (turn->message, 200, NULL);
  soup_message_headers_replace (headers, "Content-Type", "application/x-ndjson; charset=utf-8");
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_message_headers_replace (headers, "X-Content-Type-Options", "nosniff");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (turn->message), FALSE);
  soup_server_message_unpause (turn->message);
  /* nothing is written while the adapter thinks: a client that goes away
   * is noticed on its socket */
  turn->hangup = akc_server_hangup_watch (turn->message, on_hangup, turn);

  messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (turn->chat));
  turn->items_id = g_signal_connect (messages, "items-changed", G_CALLBACK (on_items_changed), turn);
  turn->status_id = g_signal_connect (turn->chat, "notify::status", G_CALLBACK (on_chat_notify), turn);
  turn->usage_id = g_signal_connect (turn->chat, "notify::usage", G_CALLBACK (on_chat_notify), turn);
  turn->error_id = g_signal_connect (turn->chat, "notify::error", G_CALLBACK (on_chat_notify), turn);
  turn_watch_messages (turn);

  if (!akc_chat_source_send (AKC_CHAT_SOURCE (turn->chat), turn->input, &error))
    {
      turn_fail_stream (turn, error);
      return;
    }
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->chat)) != AKC_CHAT_STATUS_STREAMING)
    turn->send_finished = TRUE;
  turn_schedule (turn);
}

static gboolean
history_settled (AkcChatHistory *history)
{
  return akc_chat_history_get_loaded (history) || akc_chat_history_get_error (history) != NULL;
}

static void
on_history_notify (GObject    *object,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  Turn *turn = user_data;
  AkcChatHistory *history = AKC_CHAT_HISTORY (object);

  if (!history_settled (history))
    return;
  g_signal_handlers_disconnect_by_func (history, on_history_notify, turn);

  if (turn->aborted)
    return;
  if (akc_chat_history_get_error (history) != NULL)
    {
      g_debug ("The message memory of a turn cannot be read: %s", akc_chat_history_get_error (history)->message);
      turn_fail_early (turn, ERR_INTERNAL);
      return;
    }
  turn_start_stream (turn);
}

static void
turn_open_chat (Turn *turn)
{
  AkcChatHistory *history;

  turn->chat = akc_session_create_chat (turn->session);
  if (turn->handler->chat_setup != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!turn->handler->chat_setup (turn->chat, akc_session_get_definition (turn->session), turn->context,
                                      turn->session_id, turn->handler->chat_setup_data, &error))
        {
          g_debug ("The chat of a turn cannot be prepared: %s", error != NULL ? error->message : "(no reason)");
          turn_fail_early (turn, ERR_INTERNAL);
          return;
        }
    }
  history = akc_session_get_history (turn->session);
  if (history != NULL && !history_settled (history))
    {
      g_signal_connect (history, "notify::loaded", G_CALLBACK (on_history_notify), turn);
      g_signal_connect (history, "notify::error", G_CALLBACK (on_history_notify), turn);
      return;
    }
  if (history != NULL)
    on_history_notify (G_OBJECT (history), NULL, turn);
  else
    turn_start_stream (turn);
}

static void
on_claimed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Turn) turn = user_data;
  g_autoptr(GError) error = NULL;
  gboolean claimed = FALSE;

  if (!akc_session_claim_turn_finish (AKC_SESSION (source), result, &claimed, &error))
    {
      if (!turn->aborted)
        turn_fail_early (turn, error_kind (error) == ERR_CONFLICT ? ERR_CONFLICT : ERR_INTERNAL);
      return;
    }
  turn->claimed = claimed;
  if (turn->aborted)
    {
      /* the response went already; a lease taken meanwhile is released */
      if (claimed)
        turn_cleanup (turn, TRUE);
      return;
    }
  if (!claimed)
    {
      turn_fail_early (turn, ERR_BUSY);
      return;
    }
  turn_open_chat (turn);
}

static void
on_resumed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Turn) turn = user_data;
  g_autoptr(GError) error = NULL;

  turn->session = akc_session_resume_finish (result, &error);
  if (turn->aborted)
    return;
  if (turn->session == NULL)
    {
      g_debug ("A session cannot be resumed: %s", error->message);
      turn_fail_early (turn, error_kind (error));
      return;
    }
  akc_session_set_clock (turn->session, session_clock, g_object_ref (turn->handler), g_object_unref);
  akc_session_claim_turn_async (turn->session, turn->turn_id, turn->handler->lease_ms,
                                turn->cancellable, on_claimed, turn_ref (turn));
}

static void
handle_body (Turn *turn)
{
  AkcChatHandler *self = turn->handler;
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(AkcJsonValue) event = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcDefinition) definition = NULL;
  g_autoptr(GError) error = NULL;
  AkcTurnEventKind kind;
  AkcJsonValue *payload;

  turn->phase = PHASE_PREPARE;

  if (turn->aborted)
    {
      turn_fail_early (turn, turn->abort_kind);
      return;
    }
  if (turn->body->len == 0)
    {
      turn_fail_early (turn, ERR_INVALID_JSON);
      return;
    }
  if ((value = akc_server_parse_body (turn->body)) == NULL)
    {
      turn_fail_early (turn, ERR_INVALID_JSON);
      return;
    }

  event = akc_turn_event_decode_value (value, &diagnostic);
  if (event == NULL || !akc_turn_event_get_kind (event, &kind) || kind != AKC_TURN_EVENT_KIND_SUBMIT)
    {
      turn_fail_early (turn, ERR_INVALID_EVENT);
      return;
    }
  payload = akc_json_value_get_member (event, "payload");
  turn->session_id = g_strdup (akc_json_value_get_string (akc_json_value_get_member (event, "sessionId"), NULL));
  turn->turn_id = g_strdup (akc_json_value_get_string (akc_json_value_get_member (event, "turnId"), NULL));
  turn->input = g_strdup (akc_json_value_get_string (akc_json_value_get_member (payload, "input"), NULL));

  if (self->draining)
    {
      turn_fail_early (turn, ERR_UNAVAILABLE);
      return;
    }

  definition = self->resolve (turn->context, turn->session_id, self->resolve_data, &error);
  if (definition == NULL)
    {
      g_debug ("No definition for a session: %s", error != NULL ? error->message : "(no reason)");
      turn_fail_early (turn, ERR_INTERNAL);
      return;
    }

  akc_session_resume_async (definition, turn->session_id, self->storage, turn->cancellable,
                            on_resumed, turn_ref (turn));
}

static void
on_got_chunk (SoupServerMessage *message,
              GBytes            *chunk,
              gpointer           user_data)
{
  Turn *turn = user_data;

  if (turn->too_large || akc_server_body_append (turn->body, chunk, turn->handler->max_body_bytes))
    return;
  /* 4c: nothing more is kept; the response is the 413 */
  turn->too_large = TRUE;
  respond_error (message, ERR_TOO_LARGE);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Connection", "close");
}


static void
early_handler (SoupServer        *server,
               SoupServerMessage *message,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  AkcChatHandler *self = user_data;
  g_autoptr(AkcJsonValue) context = NULL;
  Turn *turn;

  /* 1.–3. */
  switch (akc_server_admit (message, self->auth, self->auth_data, &context))
    {
    case AKC_SERVER_ADMIT_OK:
      break;
    case AKC_SERVER_ADMIT_METHOD:
      respond_error (message, ERR_METHOD);
      return;
    case AKC_SERVER_ADMIT_MEDIA_TYPE:
      respond_error (message, ERR_MEDIA_TYPE);
      return;
    case AKC_SERVER_ADMIT_REFUSED:
    default:
      return;
    }
  /* 4a. */
  if (akc_server_declared_over (message, self->max_body_bytes))
    {
      respond_error (message, ERR_TOO_LARGE);
      soup_message_headers_replace (soup_server_message_get_response_headers (message), "Connection", "close");
      return;
    }

  turn = g_rc_box_new0 (Turn);
  turn->handler = g_object_ref (self);
  turn->message = g_object_ref (message);
  turn->context = g_steal_pointer (&context);
  turn->body = g_byte_array_new ();
  turn->cancellable = g_cancellable_new ();
  turn->outcome = AKC_TURN_OUTCOME_COMPLETED;
  turn->watched = g_hash_table_new (NULL, NULL);
  turn->phase = PHASE_BODY;
  g_hash_table_add (self->turns, turn);
  self->n_active++;

  g_signal_connect (message, "got-chunk", G_CALLBACK (on_got_chunk), turn);
  g_signal_connect (message, "disconnected", G_CALLBACK (on_disconnected), turn);
  g_signal_connect (message, "finished", G_CALLBACK (on_finished), turn);
  if (!self->manual_deadlines)
    turn->deadline_id = g_timeout_add (self->timeout_ms, on_deadline, turn);

  /* the message holds the turn until it is gone */
  g_object_set_data_full (G_OBJECT (message), "akc-turn", turn, (GDestroyNotify) turn_unref);
}

static void
handler (SoupServer        *server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Turn *turn = g_object_get_data (G_OBJECT (message), "akc-turn");

  if (turn == NULL)
    {
      respond_error (message, ERR_INTERNAL);
      return;
    }

  soup_server_message_pause (message);
  handle_body (turn);
}

/* ------------------------------------------------------------------ */
/* The handler object                                                  */
/* ------------------------------------------------------------------ */

static void
akc_chat_handler_finalize (GObject *object)
{
  AkcChatHandler *self = AKC_CHAT_HANDLER (object);

  g_clear_object (&self->storage);
  g_clear_pointer (&self->turns, g_hash_table_unref);
  G_OBJECT_CLASS (akc_chat_handler_parent_class)->finalize (object);
}

static void
akc_chat_handler_class_init (AkcChatHandlerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_chat_handler_finalize;
}

static void
akc_chat_handler_init (AkcChatHandler *self)
{
  self->turns = g_hash_table_new (NULL, NULL);
}


/* Returns a handler, or NULL with AKC_SERVER_ERROR_INVALID_CONFIG ("Chat
 * handler configuration is invalid.") when a number of @options, or the
 * lease they make, is not a positive safe integer. */
AkcChatHandler *
akc_chat_handler_new (const AkcChatHandlerOptions *options,
                      AkcSessionStorage           *storage,
                      AkcChatHandlerResolveFunc    resolve,
                      gpointer                     resolve_data,
                      GError                     **error)
{
  AkcChatHandler *self;
  double lease;

  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (AKC_IS_SESSION_STORAGE (storage), NULL);
  g_return_val_if_fail (resolve != NULL, NULL);

  lease = options->timeout_ms + 3 * options->cleanup_timeout_ms;
  if (!akc_server_is_positive_safe_integer (options->timeout_ms) ||
      !akc_server_is_positive_safe_integer (options->cleanup_timeout_ms) ||
      !akc_server_is_positive_safe_integer (options->max_body_bytes) ||
      !akc_server_is_positive_safe_integer (lease) ||
      options->timeout_ms > G_MAXUINT || options->cleanup_timeout_ms > G_MAXUINT)
    {
      g_set_error_literal (error, AKC_SERVER_ERROR, AKC_SERVER_ERROR_INVALID_CONFIG,
                           "Chat handler configuration is invalid.");
      return NULL;
    }

  self = g_object_new (AKC_TYPE_CHAT_HANDLER, NULL);
  self->timeout_ms = (gint64) options->timeout_ms;
  self->cleanup_timeout_ms = (gint64) options->cleanup_timeout_ms;
  self->max_body_bytes = (gint64) options->max_body_bytes;
  self->lease_ms = (gint64) lease;
  self->storage = g_object_ref (storage);
  self->resolve = resolve;
  self->resolve_data = resolve_data;

  return self;
}

/* Sets the host's authentication; without one every request goes on
 * with an empty context. */
void
akc_chat_handler_set_auth (AkcChatHandler         *self,
                           AkcChatHandlerAuthFunc  func,
                           gpointer                user_data)
{
  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));

  self->auth = func;
  self->auth_data = user_data;
}

/* Prepares each turn's chat before it runs (the host's capability policy). */
void
akc_chat_handler_set_chat_setup (AkcChatHandler         *self,
                                 AkcChatHandlerChatFunc  func,
                                 gpointer                user_data)
{
  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));

  self->chat_setup = func;
  self->chat_setup_data = user_data;
}

/* Replaces the clock (`now`) and the event ids (`createId`); NULL keeps
 * the real time and random UUIDs. */
void
akc_chat_handler_set_clock (AkcChatHandler             *self,
                            AkcChatHandlerNowFunc       now,
                            AkcChatHandlerCreateIdFunc  create_id,
                            gpointer                    user_data)
{
  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));

  self->now = now;
  self->create_id = create_id;
  self->clock_data = user_data;
}

/* Answers the requests for @path on @server. */
void
akc_chat_handler_attach (AkcChatHandler *self,
                         SoupServer     *server,
                         const char     *path)
{
  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));
  g_return_if_fail (SOUP_IS_SERVER (server));

  soup_server_add_early_handler (server, path, early_handler, g_object_ref (self), g_object_unref);
  soup_server_add_handler (server, path, handler, g_object_ref (self), g_object_unref);
}

/* Takes no new turn (503 SERVER_UNAVAILABLE) and stops the running ones:
 * each ends with its REQUEST_CANCELLED diagnostic and its cleanup. */
void
akc_chat_handler_drain (AkcChatHandler *self)
{
  g_autoptr(GList) turns = NULL;

  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));

  self->draining = TRUE;
  turns = g_hash_table_get_keys (self->turns);
  for (GList *l = turns; l != NULL; l = l->next)
    {
      Turn *turn = l->data;

      if (turn->phase != PHASE_BODY)
        turn_abort (turn, ERR_CANCELLED);
    }
}

/* With @manual, turns get no deadline timer: their deadline is
 * akc_chat_handler_expire (). For tests that must not depend on timing. */
void
akc_chat_handler_set_manual_deadlines (AkcChatHandler *self,
                                       gboolean        manual)
{
  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));

  self->manual_deadlines = manual;
}

/* The deadline of every running turn is now (SERVER_TIMEOUT). */
void
akc_chat_handler_expire (AkcChatHandler *self)
{
  g_autoptr(GList) turns = NULL;

  g_return_if_fail (AKC_IS_CHAT_HANDLER (self));

  turns = g_hash_table_get_keys (self->turns);
  for (GList *l = turns; l != NULL; l = l->next)
    turn_abort (l->data, ERR_TIMEOUT);
}

/* How many NDJSON lines the handler wrote, ever. */
guint
akc_chat_handler_get_n_lines (AkcChatHandler *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HANDLER (self), 0);

  return self->n_lines;
}

/* The requests being answered, cleanup included. */
guint
akc_chat_handler_get_n_active (AkcChatHandler *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HANDLER (self), 0);

  return self->n_active;
}

/* How many cleanups started, ever (each turn has at most one). */
guint
akc_chat_handler_get_n_cleanups (AkcChatHandler *self)
{
  g_return_val_if_fail (AKC_IS_CHAT_HANDLER (self), 0);

  return self->n_cleanups;
}

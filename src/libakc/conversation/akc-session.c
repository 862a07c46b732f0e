/* akc-session.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-enum-types.h"
#include "akc-conversation-private.h"
#include "akc-diagnostic.h"
#include "akc-error.h"
#include "akc-json-private.h"
#include "akc-session-confirmation-store-private.h"
#include "akc-session-private.h"
#include "akc-session-snapshot.h"
#include "akc-text-private.h"

#define MAX_TERMINAL_TURNS      64

#define REVISION_INVALID        "Chat definition revision is invalid."
#define IDENTITY_INVALID        "Chat session identity is invalid."
#define METADATA_INCOMPATIBLE   "Session conversation metadata is incompatible with this chat definition."
#define SNAPSHOT_INCOMPATIBLE   "Session snapshot is incompatible with this chat definition."
#define PREPARED_INCOMPATIBLE   "Prepared session is incompatible with this chat definition."
#define TURN_CLAIM_INVALID      "Turn claim is invalid."
#define CONFLICT                "Session snapshot changed in another client."
#define ROUTE_FAILED            "Deterministic route failed."

/**
 * AkcSession:
 *
 * One running session of an [class@Definition] ([application §3](wire-formats.html#application-3) and §4).
 *
 * A session is the [iface@Adapter] of its chats
 * ([method@Session.create_chat]): it answers each model request with the
 * definition's conversation, and hands the requests no route answers to
 * the upstream adapter, with its own session id.
 *
 * ## Dispatch (§3.4)
 *
 * For each request, the session forgets the cached decisions of user
 * messages that left the history, rebuilds the state from the initial
 * state by replaying the cached decisions of every earlier user message
 * whose text did not change, then:
 *
 * - replays the cached decision of the latest user message when its text
 *   and the state it was taken from still hold (a retry, a regenerate, a
 *   tool continuation): the same reply, without calling the route again;
 * - otherwise takes the first route, in declaration order, that is allowed
 *   in the current state, whose event the state accepts, and whose matcher
 *   accepts the input; its reply is streamed as one text chunk and done,
 *   the event fires and the decision is cached under the message id;
 * - with no route, traces an agentic turn and delegates the unchanged
 *   request to the upstream adapter.
 *
 * A matcher or responder that fails, or a replay that no longer holds,
 * gives the error stream “Deterministic route failed.”, without a
 * transition and without a trace. Each successful dispatch emits exactly
 * one [signal@Session::trace].
 *
 * ## Persistence (§4.4)
 *
 * Every dispatch schedules a save of the session snapshot (`agentskit.chat.session`
 * v1: state, cached decisions, turn lease, terminal turns, confirmations;
 * never messages) whose errors are dropped; [method@Session.persist_async],
 * turn claims and releases wait for theirs. Saves run one at a time, each
 * built when it runs, as a compare-and-set on the cursor the session last
 * stored, so a session resumed by two clients never has both win a save:
 * the loser gets %AKC_SESSION_ERROR_CONFLICT. Without storage a save only
 * advances the cursor.
 *
 * Since: 0.1
 */

typedef struct
{
  char         *message_id;
  char         *input;
  char         *route_id;
  AkcTraceKind  kind;
  char         *content;
  char         *from_state;
  char         *to_state;
} Decision;

typedef struct
{
  char           *turn_id;
  AkcTurnOutcome  outcome;
} TerminalTurn;

struct _AkcSession
{
  GObject              parent_instance;

  AkcDefinition       *definition;
  AkcConversation     *conversation;
  char                *id;
  char                *definition_id;
  gint64               revision;
  AkcAdapter          *upstream;
  AkcSessionStorage   *storage;
  AkcCapabilityPolicy *policy;         /* the definition's, for this session */
  AkcChatHistory      *history;        /* of the last chat, with a memory */

  char                *state;
  GPtrArray           *decisions;     /* Decision*, in insertion order */
  GHashTable          *decision_index; /* message id → Decision* */

  char                *active_turn;
  gint64               active_turn_expires_at;
  GPtrArray           *terminal_turns; /* TerminalTurn*, oldest first */
  AkcJsonValue        *confirmations;  /* array, stored without session ids */

  gint64               cursor;
  gboolean             exists;
  gboolean             attaching;      /* attach_storage_async runs */
  GQueue               persist_queue;  /* GTask* */
  gboolean             persist_running;

  AkcSessionClockFunc  clock;
  gpointer             clock_data;
  GDestroyNotify       clock_destroy;
};

static void akc_session_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcSession, akc_session, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_session_adapter_iface_init))

/**
 * akc_session_error_quark:
 *
 * Gets the error domain of [error@SessionError], the quark %AKC_SESSION_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-session-error-quark, akc_session_error)

enum {
  PROP_0,
  PROP_ID,
  PROP_STATE,
  PROP_CURSOR,
  PROP_PERSISTING,
  PROP_UPSTREAM,
  N_PROPS
};

enum {
  TRACE,
  CONFIRMATIONS_CHANGED,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Decisions                                                           */
/* ------------------------------------------------------------------ */

static void
decision_free (gpointer data)
{
  Decision *d = data;

  g_free (d->message_id);
  g_free (d->input);
  g_free (d->route_id);
  g_free (d->content);
  g_free (d->from_state);
  g_free (d->to_state);
  g_free (d);
}

static void
terminal_turn_free (gpointer data)
{
  TerminalTurn *t = data;

  g_free (t->turn_id);
  g_free (t);
}

static Decision *
lookup_decision (AkcSession *self,
                 const char *message_id)
{
  return g_hash_table_lookup (self->decision_index, message_id);
}

static void
delete_decision (AkcSession *self,
                 const char *message_id)
{
  Decision *d = g_hash_table_lookup (self->decision_index, message_id);

  if (d == NULL)
    return;

  g_hash_table_remove (self->decision_index, message_id);
  g_ptr_array_remove (self->decisions, d);
}

static void
add_decision (AkcSession *self,
              Decision   *d)
{
  delete_decision (self, d->message_id);
  g_ptr_array_add (self->decisions, d);
  g_hash_table_insert (self->decision_index, d->message_id, d);
}

/* §3.4 step 3: whether @d still leads from @state to its target. */
static gboolean
can_replay (AkcSession     *self,
            const char     *state,
            const Decision *d)
{
  AkcRoute *route;
  const char *target;

  if (strcmp (d->from_state, state) != 0)
    return FALSE;

  route = akc_conversation_lookup_route (self->conversation, d->route_id);
  if (route == NULL || !akc_route_allows_state (route, state))
    return FALSE;

  target = akc_conversation_get_target (self->conversation, state, akc_route_get_event (route));
  return target != NULL && strcmp (target, d->to_state) == 0;
}

/* ------------------------------------------------------------------ */
/* Object                                                              */
/* ------------------------------------------------------------------ */

static gint64
akc_session_now (AkcSession *self)
{
  if (self->clock != NULL)
    return self->clock (self->clock_data);

  return g_get_real_time () / 1000;
}

static void
akc_session_set_state (AkcSession *self,
                       const char *state)
{
  if (g_strcmp0 (self->state, state) == 0)
    return;

  g_free (self->state);
  self->state = g_strdup (state);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATE]);
}

static void
akc_session_dispose (GObject *object)
{
  AkcSession *self = AKC_SESSION (object);

  g_clear_object (&self->upstream);
  g_clear_object (&self->storage);
  g_clear_object (&self->policy);
  g_clear_object (&self->history);

  G_OBJECT_CLASS (akc_session_parent_class)->dispose (object);
}

static void
akc_session_finalize (GObject *object)
{
  AkcSession *self = AKC_SESSION (object);

  g_assert (g_queue_is_empty (&self->persist_queue));

  if (self->clock_destroy != NULL)
    self->clock_destroy (self->clock_data);
  g_clear_object (&self->definition);
  g_clear_object (&self->conversation);
  g_free (self->id);
  g_free (self->definition_id);
  g_free (self->state);
  g_hash_table_unref (self->decision_index);
  g_ptr_array_unref (self->decisions);
  g_free (self->active_turn);
  g_ptr_array_unref (self->terminal_turns);
  g_clear_pointer (&self->confirmations, akc_json_value_unref);

  G_OBJECT_CLASS (akc_session_parent_class)->finalize (object);
}

static void
akc_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AkcSession *self = AKC_SESSION (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_STATE:
      g_value_set_string (value, self->state);
      break;
    case PROP_CURSOR:
      g_value_set_int64 (value, self->cursor);
      break;
    case PROP_PERSISTING:
      g_value_set_boolean (value, akc_session_get_persisting (self));
      break;
    case PROP_UPSTREAM:
      g_value_set_object (value, self->upstream);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  AkcSession *self = AKC_SESSION (object);

  switch (prop_id)
    {
    case PROP_UPSTREAM:
      akc_session_set_upstream (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_session_class_init (AkcSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_session_dispose;
  object_class->finalize = akc_session_finalize;
  object_class->get_property = akc_session_get_property;
  object_class->set_property = akc_session_set_property;

  /**
   * AkcSession:id:
   *
   * The session id, an identifier ([application §0.3](wire-formats.html#application-0)).
   *
   * Since: 0.1
   */
  props[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcSession:state:
   *
   * The conversation's current state, %NULL when the definition has no
   * conversation.
   *
   * Since: 0.1
   */
  props[PROP_STATE] =
    g_param_spec_string ("state", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcSession:cursor:
   *
   * The cursor of the last snapshot stored: a counter of writes.
   *
   * Since: 0.1
   */
  props[PROP_CURSOR] =
    g_param_spec_int64 ("cursor", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcSession:persisting:
   *
   * Whether saves are queued or running.
   *
   * Since: 0.1
   */
  props[PROP_PERSISTING] =
    g_param_spec_boolean ("persisting", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcSession:upstream:
   *
   * The adapter that answers the turns no route answers.
   *
   * Since: 0.1
   */
  props[PROP_UPSTREAM] =
    g_param_spec_object ("upstream", NULL, NULL, AKC_TYPE_ADAPTER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcSession::trace:
   * @self: a #AkcSession
   * @kind: how the turn was answered
   * @route_id: (nullable): the route that answered, %NULL for an agentic
   *   turn
   * @from_state: the state before the turn
   * @to_state: the state after the turn
   *
   * Emitted once for each successful dispatch: a route hit, a replay or a
   * delegation to the model ([application §3.7](wire-formats.html#application-3)); never for an error
   * stream. Traces carry no prompt and no content. Handlers cannot change
   * the dispatch.
   *
   * Since: 0.1
   */
  signals[TRACE] =
    g_signal_new ("trace",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 4,
                  AKC_TYPE_TRACE_KIND,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * AkcSession::confirmations-changed:
   * @self: a #AkcSession
   *
   * Emitted when a confirmation coordinator of the session
   * ([method@Session.create_confirmation]) stored a change of its records
   * ([method@Session.get_confirmations]), after the change was saved.
   * Handlers cannot change the coordinator's course.
   *
   * Since: 0.1
   */
  signals[CONFIRMATIONS_CHANGED] =
    g_signal_new ("confirmations-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);
}

static void
akc_session_init (AkcSession *self)
{
  self->decisions = g_ptr_array_new_with_free_func (decision_free);
  self->decision_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->terminal_turns = g_ptr_array_new_with_free_func (terminal_turn_free);
  self->confirmations = akc_json_value_new_array (NULL, 0);
  g_queue_init (&self->persist_queue);
}

static void
emit_trace (AkcSession   *self,
            AkcTraceKind  kind,
            const char   *route_id,
            const char   *from_state,
            const char   *to_state)
{
  g_signal_emit (self, signals[TRACE], 0, kind, route_id, from_state, to_state);
}

/* ------------------------------------------------------------------ */
/* Persistence (§4.4)                                                  */
/* ------------------------------------------------------------------ */

static void
write_snapshot (AkcSession    *self,
                AkcJsonWriter *w,
                gint64         cursor,
                gint64         now)
{
  g_autofree char *updated_at = akc_text_format_unix_ms (now);

  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "protocol");
  akc_json_writer_string (w, AKC_SESSION_PROTOCOL, -1);
  akc_json_writer_member (w, "version");
  akc_json_writer_int (w, AKC_SESSION_PROTOCOL_VERSION);
  akc_json_writer_member (w, "sessionId");
  akc_json_writer_string (w, self->id, -1);
  akc_json_writer_member (w, "definitionId");
  akc_json_writer_string (w, self->definition_id, -1);
  akc_json_writer_member (w, "definitionRevision");
  akc_json_writer_int (w, self->revision);
  akc_json_writer_member (w, "updatedAt");
  akc_json_writer_string (w, updated_at, -1);
  akc_json_writer_member (w, "cursor");
  akc_json_writer_int (w, cursor);

  if (self->active_turn != NULL)
    {
      akc_json_writer_member (w, "activeTurn");
      akc_json_writer_begin_object (w);
      akc_json_writer_member (w, "turnId");
      akc_json_writer_string (w, self->active_turn, -1);
      akc_json_writer_member (w, "expiresAt");
      akc_json_writer_int (w, self->active_turn_expires_at);
      akc_json_writer_end_object (w);
    }

  if (self->terminal_turns->len > 0)
    {
      akc_json_writer_member (w, "terminalTurns");
      akc_json_writer_begin_array (w);
      for (guint i = 0; i < self->terminal_turns->len; i++)
        {
          TerminalTurn *t = g_ptr_array_index (self->terminal_turns, i);

          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "turnId");
          akc_json_writer_string (w, t->turn_id, -1);
          akc_json_writer_member (w, "outcome");
          akc_json_writer_string (w, t->outcome == AKC_TURN_OUTCOME_COMPLETED ? "completed" : "indeterminate", -1);
          akc_json_writer_end_object (w);
        }
      akc_json_writer_end_array (w);
    }

  if (self->conversation != NULL)
    {
      akc_json_writer_member (w, "conversation");
      akc_json_writer_begin_object (w);
      akc_json_writer_member (w, "state");
      akc_json_writer_string (w, self->state, -1);
      akc_json_writer_member (w, "decisions");
      akc_json_writer_begin_array (w);
      for (guint i = 0; i < self->decisions->len; i++)
        {
          Decision *d = g_ptr_array_index (self->decisions, i);

          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "messageId");
          akc_json_writer_string (w, d->message_id, -1);
          akc_json_writer_member (w, "input");
          akc_json_writer_string (w, d->input, -1);
          akc_json_writer_member (w, "routeId");
          akc_json_writer_string (w, d->route_id, -1);
          akc_json_writer_member (w, "kind");
          akc_json_writer_string (w, akc_trace_kind_to_string (d->kind), -1);
          akc_json_writer_member (w, "content");
          akc_json_writer_string (w, d->content, -1);
          akc_json_writer_member (w, "fromState");
          akc_json_writer_string (w, d->from_state, -1);
          akc_json_writer_member (w, "toState");
          akc_json_writer_string (w, d->to_state, -1);
          akc_json_writer_end_object (w);
        }
      akc_json_writer_end_array (w);
      akc_json_writer_end_object (w);
    }

  akc_json_writer_member (w, "confirmations");
  akc_json_writer_value (w, self->confirmations);
  akc_json_writer_end_object (w);
}

static AkcJsonValue *
build_snapshot (AkcSession  *self,
                gint64       cursor,
                gint64       now,
                GError     **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  AkcJsonWriter w;
  AkcJsonValue *snapshot;

  akc_json_writer_init (&w, text);
  write_snapshot (self, &w, cursor, now);

  /* §4.2: a snapshot is validated as it is built (an invalid route id or
   * message id makes every save fail, §14 A6). */
  snapshot = akc_session_snapshot_decode (text->str, text->len, &diagnostic);
  if (snapshot == NULL)
    g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT,
                         akc_diagnostic_get_message (diagnostic));

  return snapshot;
}

static void run_next_persist (AkcSession *self);

static void
persist_done (AkcSession *self,
              GTask      *task)
{
  self->persist_running = FALSE;
  run_next_persist (self);
  if (!akc_session_get_persisting (self))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PERSISTING]);
  g_object_unref (task);
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcSession *self = g_task_get_source_object (task);
  AkcJsonValue *snapshot = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean saved = FALSE;

  if (!akc_session_storage_save_finish (AKC_SESSION_STORAGE (source), result, &saved, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else if (!saved)
    g_task_return_new_error (task, AKC_SESSION_ERROR, AKC_SESSION_ERROR_CONFLICT, CONFLICT);
  else
    {
      self->cursor = (gint64) AKC_JSON_NUMBER (akc_json_value_get_member (snapshot, "cursor"));
      self->exists = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CURSOR]);
      g_task_return_boolean (task, TRUE);
    }

  persist_done (self, g_steal_pointer (&task));
}

static void
run_next_persist (AkcSession *self)
{
  GTask *task;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *snapshot;

  if (self->persist_running || g_queue_is_empty (&self->persist_queue))
    return;

  task = g_queue_pop_head (&self->persist_queue);
  self->persist_running = TRUE;

  if (self->storage == NULL)
    {
      self->cursor++;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CURSOR]);
      g_task_return_boolean (task, TRUE);
      persist_done (self, task);
      return;
    }

  snapshot = build_snapshot (self, self->cursor + 1, akc_session_now (self), &error);
  if (snapshot == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      persist_done (self, task);
      return;
    }

  g_task_set_task_data (task, snapshot, (GDestroyNotify) akc_json_value_unref);
  akc_session_storage_save_async (self->storage, snapshot,
                                  self->exists ? self->cursor : AKC_SESSION_STORAGE_CREATE_ONLY,
                                  g_task_get_cancellable (task), on_saved, task);
}

static void
queue_persist (AkcSession          *self,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data,
               gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  gboolean was_persisting = akc_session_get_persisting (self);

  g_task_set_source_tag (task, source_tag);
  g_queue_push_tail (&self->persist_queue, task);
  if (!was_persisting)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PERSISTING]);
  run_next_persist (self);
}

/* §4.4 persistence point 1: fire and forget, errors dropped. */
static void
schedule_persist (AkcSession *self)
{
  queue_persist (self, NULL, NULL, NULL, schedule_persist);
}

/* ------------------------------------------------------------------ */
/* Dispatch (§3.4)                                                     */
/* ------------------------------------------------------------------ */

typedef struct
{
  AkcStream *stream;
  char      *content;  /* NULL: the error stream */
  gboolean   text_sent;
} Reply;

static void
reply_free (gpointer data)
{
  Reply *reply = data;

  g_object_unref (reply->stream);
  g_free (reply->content);
  g_free (reply);
}

/* One chunk per main-loop iteration: a stream stopped before it is read
 * yields nothing, and one stopped after the text yields no done. */
static gboolean
reply_step (gpointer data)
{
  Reply *reply = data;

  if (akc_stream_is_closed (reply->stream))
    return G_SOURCE_REMOVE;

  if (reply->content == NULL)
    {
      akc_stream_fail (reply->stream, NULL, ROUTE_FAILED);
      return G_SOURCE_REMOVE;
    }

  if (!reply->text_sent)
    {
      reply->text_sent = TRUE;
      akc_stream_push_text (reply->stream, reply->content);
      return G_SOURCE_CONTINUE;
    }

  akc_stream_finish (reply->stream);
  return G_SOURCE_REMOVE;
}

static void
stream_reply (AkcStream  *stream,
              const char *content)
{
  Reply *reply = g_new0 (Reply, 1);

  reply->stream = g_object_ref (stream);
  reply->content = g_strdup (content);
  g_idle_add_full (G_PRIORITY_DEFAULT, reply_step, reply, reply_free);
}

static void
delegate (AkcSession        *self,
          AkcAdapterRequest *request,
          AkcStream         *stream)
{
  g_autoptr(AkcAdapterRequest) scoped = NULL;

  if (self->upstream == NULL)
    {
      akc_stream_fail (stream, NULL, ROUTE_FAILED);
      return;
    }

  /* §4.6: the upstream sees this session's id. */
  scoped = akc_adapter_request_with_session_id (request, self->id);
  akc_adapter_stream (self->upstream, scoped, stream);
}

static void
akc_session_stream (AkcAdapter        *adapter,
                    AkcAdapterRequest *request,
                    AkcStream         *stream)
{
  AkcSession *self = AKC_SESSION (adapter);
  GListModel *messages = akc_adapter_request_get_messages (request);
  g_autoptr(GPtrArray) users = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) user_ids = NULL;
  g_autofree char *state = NULL;
  g_autofree char *content = NULL;
  g_autoptr(GError) error = NULL;
  AkcMessage *last = NULL;
  const char *input = "";
  const char *last_id = NULL;
  AkcRoute *found = NULL;
  const char *target;
  guint n;
  Decision *d;

  if (self->conversation == NULL)
    {
      delegate (self, request, stream);
      return;
    }

  /* step 1 */
  n = g_list_model_get_n_items (messages);
  user_ids = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < n; i++)
    {
      AkcMessage *m = g_list_model_get_item (messages, i);

      if (akc_message_get_role (m) != AKC_MESSAGE_ROLE_USER)
        {
          g_object_unref (m);
          continue;
        }
      g_ptr_array_add (users, m);
      g_hash_table_add (user_ids, (gpointer) akc_message_get_id (m));
    }

  for (guint i = self->decisions->len; i > 0; i--)
    {
      d = g_ptr_array_index (self->decisions, i - 1);
      if (!g_hash_table_contains (user_ids, d->message_id))
        delete_decision (self, d->message_id);
    }

  /* step 2 */
  if (users->len > 0)
    {
      last = g_ptr_array_index (users, users->len - 1);
      input = akc_message_get_content (last);
      last_id = akc_message_get_id (last);
    }

  /* step 3 */
  state = g_strdup (akc_conversation_get_initial (self->conversation));
  for (guint i = 0; i + 1 < users->len; i++)
    {
      AkcMessage *m = g_ptr_array_index (users, i);

      d = lookup_decision (self, akc_message_get_id (m));
      if (d != NULL && strcmp (d->input, akc_message_get_content (m)) == 0 &&
          can_replay (self, state, d))
        {
          g_free (state);
          state = g_strdup (d->to_state);
        }
    }
  akc_session_set_state (self, state);

  /* step 4 */
  d = last_id != NULL ? lookup_decision (self, last_id) : NULL;
  if (d != NULL && strcmp (d->input, input) == 0 && strcmp (d->from_state, state) == 0)
    {
      if (!can_replay (self, state, d))
        {
          delete_decision (self, last_id);
          schedule_persist (self);
          stream_reply (stream, NULL);
          return;
        }

      akc_session_set_state (self, d->to_state);
      emit_trace (self, d->kind, d->route_id, d->from_state, d->to_state);
      schedule_persist (self);
      stream_reply (stream, d->content);
      return;
    }

  /* step 5 */
  if (last_id != NULL)
    delete_decision (self, last_id);

  /* step 6 */
  n = g_list_model_get_n_items (akc_conversation_get_routes (self->conversation));
  for (guint i = 0; i < n && found == NULL; i++)
    {
      g_autoptr(AkcRoute) route = g_list_model_get_item (akc_conversation_get_routes (self->conversation), i);
      gboolean matched;

      if (!akc_route_allows_state (route, state) ||
          akc_conversation_get_target (self->conversation, state, akc_route_get_event (route)) == NULL)
        continue;

      matched = akc_route_match (route, input, &error);
      if (error != NULL)
        {
          g_debug ("Route “%s” failed to match: %s", akc_route_get_id (route), error->message);
          schedule_persist (self);
          stream_reply (stream, NULL);
          return;
        }
      if (matched)
        found = route;
    }

  /* step 7 */
  if (found == NULL)
    {
      emit_trace (self, AKC_TRACE_KIND_AGENTIC, NULL, state, state);
      schedule_persist (self);
      delegate (self, request, stream);
      return;
    }

  /* step 8 */
  content = akc_route_respond (found, input, self->id, last_id, &error);
  if (content == NULL)
    {
      g_debug ("Route “%s” failed to respond: %s", akc_route_get_id (found),
               error != NULL ? error->message : "no reply");
      schedule_persist (self);
      stream_reply (stream, NULL);
      return;
    }

  target = akc_conversation_get_target (self->conversation, state, akc_route_get_event (found));
  if (target == NULL)
    {
      stream_reply (stream, NULL);
      return;
    }

  akc_session_set_state (self, target);
  if (last_id != NULL)
    {
      d = g_new0 (Decision, 1);
      d->message_id = g_strdup (last_id);
      d->input = g_strdup (input);
      d->route_id = g_strdup (akc_route_get_id (found));
      d->kind = akc_route_get_trace_kind (found);
      d->content = g_strdup (content);
      d->from_state = g_strdup (state);
      d->to_state = g_strdup (target);
      add_decision (self, d);
    }

  emit_trace (self, akc_route_get_trace_kind (found), akc_route_get_id (found), state, target);
  schedule_persist (self);
  stream_reply (stream, content);
}

/* A layer in front of the upstream declares what the upstream declares. */
static AkcJsonValue *
akc_session_get_capabilities (AkcAdapter *adapter)
{
  AkcSession *self = AKC_SESSION (adapter);

  return self->upstream != NULL ? akc_adapter_get_capabilities (self->upstream) : NULL;
}

static void
akc_session_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_session_stream;
  iface->get_capabilities = akc_session_get_capabilities;
}

/* ------------------------------------------------------------------ */
/* Creation (§3.3) and resuming (§4.3)                                 */
/* ------------------------------------------------------------------ */

static gboolean
config_error (GError     **error,
              const char  *message)
{
  g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, message);
  return FALSE;
}

static char *
default_session_id (AkcDefinition *definition)
{
  static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  guint64 now = (guint64) (g_get_real_time () / 1000);
  char buf[16];
  int i = sizeof buf - 1;

  buf[i] = '\0';
  do
    {
      buf[--i] = digits[now % 36];
      now /= 36;
    }
  while (now > 0 && i > 0);

  return g_strconcat (akc_definition_get_id (definition), ":", buf + i, NULL);
}

/* §3.3 steps 1–5 (@snapshot: the decoded snapshot being restored, or NULL). */
static AkcSession *
session_compile (AkcDefinition  *definition,
                 const char     *session_id,
                 AkcJsonValue   *snapshot,
                 GError        **error)
{
  g_autoptr(AkcSession) self = NULL;
  g_autofree char *id = NULL;
  AkcConversation *conversation = akc_definition_get_conversation (definition);
  gint64 revision = akc_definition_get_revision (definition);

  if (revision < 1 || revision > AKC_JSON_MAX_SAFE_INTEGER)
    return config_error (error, REVISION_INVALID), NULL;

  id = session_id != NULL ? g_strdup (session_id) : default_session_id (definition);
  if (!akc_text_is_safe_id (id, strlen (id)))
    return config_error (error, IDENTITY_INVALID), NULL;

  if (conversation != NULL)
    {
      if (!akc_conversation_validate (conversation, error))
        return NULL;
      akc_conversation_seal (conversation);
    }

  if (snapshot != NULL && conversation == NULL &&
      akc_json_value_get_member (snapshot, "conversation") != NULL)
    return config_error (error, METADATA_INCOMPATIBLE), NULL;

  self = g_object_new (AKC_TYPE_SESSION, NULL);
  self->definition = g_object_ref (definition);
  self->conversation = conversation != NULL ? g_object_ref (conversation) : NULL;
  self->id = g_steal_pointer (&id);
  self->definition_id = g_strdup (akc_definition_get_id (definition));
  self->revision = revision;
  self->upstream = akc_definition_get_adapter (definition) != NULL
                   ? g_object_ref (akc_definition_get_adapter (definition)) : NULL;
  if (conversation != NULL)
    self->state = g_strdup (akc_conversation_get_initial (conversation));

  return g_steal_pointer (&self);
}

/**
 * akc_session_new:
 * @definition: the definition
 * @session_id: (nullable): the session id, or %NULL for
 *   `«definition id»:«now in base 36»`
 * @error: return location for a #GError
 *
 * Creates a fresh session without storage, at the conversation's initial
 * state. The definition is compiled first ([application §3.3](wire-formats.html#application-3)), each
 * failure an %AKC_ERROR_CONFIG_INVALID: a revision that is not a positive
 * safe integer (“Chat definition revision is invalid.”), a session id
 * that is not an identifier (“Chat session identity is invalid.”), then
 * the conversation's own checks ([method@Conversation.validate]).
 *
 * Returns: (transfer full) (nullable): a new session, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
AkcSession *
akc_session_new (AkcDefinition  *definition,
                 const char     *session_id,
                 GError        **error)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (definition), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return session_compile (definition, session_id, NULL, error);
}

/**
 * akc_session_resolve:
 * @definition: the definition
 * @session: (nullable): a session prepared for @definition, or %NULL
 * @error: return location for a #GError
 *
 * Gets the session to run @definition with (the reference's
 * `resolveChatSession`, [application §4.1](wire-formats.html#application-4)): @session when its definition
 * id and revision are @definition's, a new session (see
 * [ctor@Session.new]) when @session is %NULL. A prepared session of
 * another definition fails with %AKC_ERROR_CONFIG_INVALID, “Prepared
 * session is incompatible with this chat definition.”
 *
 * Returns: (transfer full) (nullable): the session, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
AkcSession *
akc_session_resolve (AkcDefinition  *definition,
                     AkcSession     *session,
                     GError        **error)
{
  g_return_val_if_fail (AKC_IS_DEFINITION (definition), NULL);
  g_return_val_if_fail (session == NULL || AKC_IS_SESSION (session), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (session == NULL)
    return akc_session_new (definition, NULL, error);

  if (strcmp (session->definition_id, akc_definition_get_id (definition)) != 0 ||
      session->revision != akc_definition_get_revision (definition))
    return config_error (error, PREPARED_INCOMPATIBLE), NULL;

  return g_object_ref (session);
}

static gint64
member_int (AkcJsonValue *object,
            const char   *name)
{
  return (gint64) AKC_JSON_NUMBER (akc_json_value_get_member (object, name));
}

static const char *
member_str (AkcJsonValue *object,
            const char   *name)
{
  return AKC_JSON_STR (akc_json_value_get_member (object, name));
}

/* §4.3 step 5 */
static gboolean
session_restore (AkcSession    *self,
                 AkcJsonValue  *snapshot,
                 GError       **error)
{
  AkcJsonValue *conversation = akc_json_value_get_member (snapshot, "conversation");
  AkcJsonValue *active = akc_json_value_get_member (snapshot, "activeTurn");
  AkcJsonValue *terminal = akc_json_value_get_member (snapshot, "terminalTurns");

  if (conversation != NULL)
    {
      AkcJsonValue *decisions = akc_json_value_get_member (conversation, "decisions");
      g_autofree char *state = g_strdup (akc_conversation_get_initial (self->conversation));

      for (gsize i = 0; i < akc_json_value_get_length (decisions); i++)
        {
          AkcJsonValue *v = akc_json_value_get_element (decisions, i);
          Decision *d = g_new0 (Decision, 1);

          d->message_id = g_strdup (member_str (v, "messageId"));
          d->input = g_strdup (member_str (v, "input"));
          d->route_id = g_strdup (member_str (v, "routeId"));
          akc_trace_kind_from_string (member_str (v, "kind"), &d->kind);
          d->content = g_strdup (member_str (v, "content"));
          d->from_state = g_strdup (member_str (v, "fromState"));
          d->to_state = g_strdup (member_str (v, "toState"));

          if (!can_replay (self, state, d))
            {
              decision_free (d);
              return config_error (error, METADATA_INCOMPATIBLE);
            }

          g_free (state);
          state = g_strdup (d->to_state);
          add_decision (self, d);
        }

      if (strcmp (state, member_str (conversation, "state")) != 0)
        return config_error (error, METADATA_INCOMPATIBLE);

      akc_session_set_state (self, state);
    }

  if (active != NULL)
    {
      self->active_turn = g_strdup (member_str (active, "turnId"));
      self->active_turn_expires_at = member_int (active, "expiresAt");
    }

  for (gsize i = 0; terminal != NULL && i < akc_json_value_get_length (terminal); i++)
    {
      AkcJsonValue *v = akc_json_value_get_element (terminal, i);
      TerminalTurn *t = g_new0 (TerminalTurn, 1);

      t->turn_id = g_strdup (member_str (v, "turnId"));
      t->outcome = strcmp (member_str (v, "outcome"), "completed") == 0
                   ? AKC_TURN_OUTCOME_COMPLETED : AKC_TURN_OUTCOME_INDETERMINATE;
      g_ptr_array_add (self->terminal_turns, t);
    }

  g_clear_pointer (&self->confirmations, akc_json_value_unref);
  self->confirmations = akc_json_value_ref (akc_json_value_get_member (snapshot, "confirmations"));
  self->cursor = member_int (snapshot, "cursor");
  self->exists = TRUE;

  return TRUE;
}

typedef struct
{
  AkcDefinition     *definition;
  char              *session_id;
  AkcSessionStorage *storage;
} ResumeData;

static void
resume_data_free (gpointer data)
{
  ResumeData *rd = data;

  g_object_unref (rd->definition);
  g_free (rd->session_id);
  g_object_unref (rd->storage);
  g_free (rd);
}

/* §4.3 steps 3 and 4: the stored snapshot, decoded and checked against
 * the session it is resumed into. */
static AkcJsonValue *
decode_stored (AkcJsonValue   *stored,
               AkcDefinition  *definition,
               const char     *session_id,
               GError        **error)
{
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;

  /* step 3 */
  if (AKC_JSON_IS_STRING (stored))
    snapshot = akc_session_snapshot_decode (AKC_JSON_STR (stored), AKC_JSON_STR_LEN (stored), &diagnostic);
  else
    snapshot = akc_session_snapshot_decode_value (stored, &diagnostic);
  if (snapshot == NULL)
    return config_error (error, akc_diagnostic_get_message (diagnostic)), NULL;

  /* step 4 */
  if (strcmp (member_str (snapshot, "sessionId"), session_id) != 0 ||
      strcmp (member_str (snapshot, "definitionId"), akc_definition_get_id (definition)) != 0 ||
      member_int (snapshot, "definitionRevision") != akc_definition_get_revision (definition))
    return config_error (error, SNAPSHOT_INCOMPATIBLE), NULL;

  return g_steal_pointer (&snapshot);
}

static AkcSession *
resume_from (ResumeData    *rd,
             AkcJsonValue  *stored,
             GError       **error)
{
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(AkcSession) self = NULL;

  /* step 2 */
  if (stored == NULL)
    {
      self = session_compile (rd->definition, rd->session_id, NULL, error);
      if (self != NULL)
        self->storage = g_object_ref (rd->storage);
      return g_steal_pointer (&self);
    }

  snapshot = decode_stored (stored, rd->definition, rd->session_id, error);
  if (snapshot == NULL)
    return NULL;

  /* step 5 */
  self = session_compile (rd->definition, rd->session_id, snapshot, error);
  if (self == NULL || !session_restore (self, snapshot, error))
    return NULL;

  self->storage = g_object_ref (rd->storage);
  return g_steal_pointer (&self);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) stored = NULL;
  AkcSession *self;

  stored = akc_session_storage_load_finish (AKC_SESSION_STORAGE (source), result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self = resume_from (g_task_get_task_data (task), stored, &error);
  if (self == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, self, g_object_unref);
}

/**
 * akc_session_resume_async:
 * @definition: the definition
 * @session_id: the session id
 * @storage: where the session's snapshot is kept
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the session is ready
 * @user_data: data for @callback
 *
 * Resumes the session @session_id of @definition from @storage
 * ([application §4.3](wire-formats.html#application-4)), or starts it when nothing is stored (its first
 * save then only creates).
 *
 * A stored snapshot is decoded (a failure is %AKC_ERROR_CONFIG_INVALID
 * with the decoder's message), must have this session id, definition id
 * and revision (“Session snapshot is incompatible with this chat
 * definition.”), and its cached decisions must replay from the initial
 * state to its stored state (“Session conversation metadata is
 * incompatible with this chat definition.”). The cursor, confirmations,
 * turn lease and terminal turns are restored.
 *
 * Since: 0.1
 */
void
akc_session_resume_async (AkcDefinition       *definition,
                          const char          *session_id,
                          AkcSessionStorage   *storage,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ResumeData *rd;

  g_return_if_fail (AKC_IS_DEFINITION (definition));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (AKC_IS_SESSION_STORAGE (storage));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_session_resume_async);
  rd = g_new0 (ResumeData, 1);
  rd->definition = g_object_ref (definition);
  rd->session_id = g_strdup (session_id);
  rd->storage = g_object_ref (storage);
  g_task_set_task_data (task, rd, resume_data_free);

  akc_session_storage_load_async (storage, session_id, cancellable, on_loaded, g_steal_pointer (&task));
}

/**
 * akc_session_resume_finish:
 * @result: the result
 * @error: return location for a #GError
 *
 * Finishes [func@Session.resume_async].
 *
 * Returns: (transfer full) (nullable): the session, or %NULL with @error
 *   set
 *
 * Since: 0.1
 */
AkcSession *
akc_session_resume_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Attaching storage to a running session ----------------------------- */

typedef struct
{
  AkcSessionStorage *storage;
  gint64             cursor;  /* the session's, when the attach began */
} AttachData;

static void
attach_data_free (gpointer data)
{
  AttachData *ad = data;

  g_object_unref (ad->storage);
  g_free (ad);
}

/* Whether nothing happened in the session yet: no decision, no turn, no
 * confirmation, no save. */
static gboolean
is_pristine (AkcSession *self,
             gint64      cursor)
{
  return self->cursor == cursor && cursor == 0 && self->decisions->len == 0 &&
         self->active_turn == NULL && self->terminal_turns->len == 0 &&
         akc_json_value_get_length (self->confirmations) == 0;
}

#define SWAP(a, b) G_STMT_START { gpointer swap_tmp = (a); (a) = (b); (b) = swap_tmp; } G_STMT_END

/* Takes what @restored restored from its snapshot (§4.3 step 5). */
static void
take_restored (AkcSession *self,
               AkcSession *restored)
{
  SWAP (self->decisions, restored->decisions);
  SWAP (self->decision_index, restored->decision_index);
  SWAP (self->terminal_turns, restored->terminal_turns);
  SWAP (self->confirmations, restored->confirmations);
  SWAP (self->active_turn, restored->active_turn);
  self->active_turn_expires_at = restored->active_turn_expires_at;
  self->cursor = restored->cursor;
  self->exists = TRUE;
  akc_session_set_state (self, restored->state);
}

static void
on_attach_loaded (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcSession *self = g_task_get_source_object (task);
  AttachData *ad = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) stored = NULL;
  g_autoptr(AkcJsonValue) snapshot = NULL;
  g_autoptr(AkcSession) restored = NULL;

  self->attaching = FALSE;

  stored = akc_session_storage_load_finish (AKC_SESSION_STORAGE (source), result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Everything is checked before anything changes: a snapshot that is
   * not valid, or not this session's, leaves the session as it was,
   * without storage. */
  if (stored != NULL)
    {
      snapshot = decode_stored (stored, self->definition, self->id, &error);
      if (snapshot != NULL)
        restored = session_compile (self->definition, self->id, snapshot, &error);
      if (restored == NULL || !session_restore (restored, snapshot, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  self->storage = g_object_ref (ad->storage);

  if (restored != NULL && is_pristine (self, ad->cursor))
    {
      /* The session goes on from where it was stored. */
      take_restored (self, restored);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CURSOR]);
      g_signal_emit (self, signals[CONFIRMATIONS_CHANGED], 0);
    }
  else if (restored != NULL)
    {
      /* It went on before the stored snapshot was read: what it did
       * since is newer, and replaces the stored one. */
      self->cursor = restored->cursor;
      self->exists = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CURSOR]);
      schedule_persist (self);
    }
  else if (!is_pristine (self, 0))
    {
      /* Nothing stored yet: what happened so far is. */
      self->exists = FALSE;
      schedule_persist (self);
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * akc_session_attach_storage_async:
 * @self: a #AkcSession without storage
 * @storage: where the session's snapshot is kept
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the session is attached
 * @user_data: data for @callback
 *
 * Gives a running session its storage: the snapshot @storage holds for
 * the session's id is read and, when the session has done nothing yet,
 * restored into it as [func@Session.resume_async] would (state, cached
 * decisions, cursor, confirmations, turn lease and terminal turns), so a
 * session made again after a restart goes on from where it was. Every
 * later save goes to @storage.
 *
 * When nothing is stored, the session's own state is stored. When the
 * session went on before the snapshot was read, its own state is newer
 * and replaces the stored one.
 *
 * A stored snapshot that is not valid or not this session's (the errors
 * of [func@Session.resume_async]), or a load that fails, leaves the
 * session as it was, without storage.
 *
 * Since: 0.1
 */
void
akc_session_attach_storage_async (AkcSession          *self,
                                  AkcSessionStorage   *storage,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  AttachData *ad;

  g_return_if_fail (AKC_IS_SESSION (self));
  g_return_if_fail (AKC_IS_SESSION_STORAGE (storage));
  g_return_if_fail (self->storage == NULL && !self->attaching);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_session_attach_storage_async);
  ad = g_new0 (AttachData, 1);
  ad->storage = g_object_ref (storage);
  ad->cursor = self->cursor;
  g_task_set_task_data (task, ad, attach_data_free);
  self->attaching = TRUE;

  akc_session_storage_load_async (storage, self->id, cancellable, on_attach_loaded, g_steal_pointer (&task));
}

/**
 * akc_session_attach_storage_finish:
 * @self: a #AkcSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Finishes [method@Session.attach_storage_async].
 *
 * Returns: %TRUE when the session has its storage, or %FALSE with @error
 *   set
 *
 * Since: 0.1
 */
gboolean
akc_session_attach_storage_finish (AkcSession    *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

/**
 * akc_session_get_id:
 * @self: a #AkcSession
 *
 * Gets the session id.
 *
 * Returns: the id
 *
 * Since: 0.1
 */
const char *
akc_session_get_id (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->id;
}

/**
 * akc_session_get_definition:
 * @self: a #AkcSession
 *
 * Gets the definition the session runs.
 *
 * Returns: (transfer none): the definition
 *
 * Since: 0.1
 */
AkcDefinition *
akc_session_get_definition (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->definition;
}

/**
 * akc_session_get_definition_id:
 * @self: a #AkcSession
 *
 * Gets the id of the definition, as it was when the session was created.
 *
 * Returns: the definition id
 *
 * Since: 0.1
 */
const char *
akc_session_get_definition_id (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->definition_id;
}

/**
 * akc_session_get_definition_revision:
 * @self: a #AkcSession
 *
 * Gets the revision of the definition, as it was when the session was
 * created.
 *
 * Returns: the revision
 *
 * Since: 0.1
 */
gint64
akc_session_get_definition_revision (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), 0);

  return self->revision;
}

/**
 * akc_session_get_storage:
 * @self: a #AkcSession
 *
 * Gets the storage of the session.
 *
 * Returns: (transfer none) (nullable): the storage, or %NULL
 *
 * Since: 0.1
 */
AkcSessionStorage *
akc_session_get_storage (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->storage;
}

/**
 * akc_session_get_upstream:
 * @self: a #AkcSession
 *
 * Gets the adapter that answers the turns no route answers.
 *
 * Returns: (transfer none) (nullable): the adapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_session_get_upstream (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->upstream;
}

/**
 * akc_session_set_upstream:
 * @self: a #AkcSession
 * @upstream: (nullable): the adapter
 *
 * Replaces the upstream adapter (the reference's `updateChat`). Setting
 * the session itself is ignored: a session never wraps itself twice.
 *
 * Since: 0.1
 */
void
akc_session_set_upstream (AkcSession *self,
                          AkcAdapter *upstream)
{
  g_return_if_fail (AKC_IS_SESSION (self));
  g_return_if_fail (upstream == NULL || AKC_IS_ADAPTER (upstream));

  if (upstream == AKC_ADAPTER (self))
    return;

  if (g_set_object (&self->upstream, upstream))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_UPSTREAM]);
}

/**
 * akc_session_create_chat:
 * @self: a #AkcSession
 *
 * Creates a conversation controller answered by the session: its adapter
 * is @self, its [property@Chat:session-id] the session id, its system
 * prompt and tools those of the definition, and its tool calls behind the
 * definition's capability policy, if it has one
 * ([method@Session.get_policy]). With the definition's message memory, its
 * stored messages are loaded into it ([method@Session.get_history]).
 *
 * Returns: (transfer full): a new #AkcChat
 *
 * Since: 0.1
 */
AkcChat *
akc_session_create_chat (AkcSession *self)
{
  AkcChat *chat;
  GListModel *tools;

  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  chat = g_object_new (AKC_TYPE_CHAT,
                       "adapter", self,
                       "session-id", self->id,
                       "system-prompt", akc_definition_get_system_prompt (self->definition),
                       NULL);

  tools = akc_definition_get_tools (self->definition);
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(AkcTool) tool = g_list_model_get_item (tools, i);

      akc_chat_add_tool (chat, tool);
    }

  /* The definition's capability policy, built once for this session. */
  if (self->policy == NULL)
    self->policy = akc_definition_new_policy (self->definition, self->id);
  if (self->policy != NULL)
    akc_capability_policy_install (self->policy, chat);

  /* The definition's message memory: the stored conversation named after
   * the session is read into the chat, and every change written back. */
  if (akc_definition_get_memory (self->definition) != NULL)
    {
      g_clear_object (&self->history);
      self->history = akc_chat_history_new (chat, akc_definition_get_memory (self->definition), self->id);
      akc_chat_history_load_async (self->history, NULL, NULL, NULL);
    }

  return chat;
}

/**
 * akc_session_get_history:
 * @self: a #AkcSession
 *
 * Gets what keeps the last conversation [method@Session.create_chat] made
 * in the definition's message memory ([method@Definition.set_memory]).
 * Its load starts with the conversation; [property@ChatHistory:loaded] and
 * [property@ChatHistory:error] tell how it went.
 *
 * Returns: (transfer none) (nullable): the history, or %NULL without a
 *   memory
 *
 * Since: 0.1
 */
AkcChatHistory *
akc_session_get_history (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->history;
}

/**
 * akc_session_get_policy:
 * @self: a #AkcSession
 *
 * Gets the capability policy of the session: the definition's
 * ([method@Definition.set_policy]) built for this session's id, installed
 * on every conversation [method@Session.create_chat] makes. Its traces
 * record every decision.
 *
 * Returns: (transfer none) (nullable): the policy, or %NULL when the
 *   definition has none or no conversation was created yet
 *
 * Since: 0.1
 */
AkcCapabilityPolicy *
akc_session_get_policy (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->policy;
}

/**
 * akc_session_get_state:
 * @self: a #AkcSession
 *
 * Gets the conversation's current state.
 *
 * Returns: (nullable): the state, or %NULL when the definition has no
 *   conversation
 *
 * Since: 0.1
 */
const char *
akc_session_get_state (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->state;
}

/**
 * akc_session_get_conversation_snapshot:
 * @self: a #AkcSession
 *
 * Gets the conversation snapshot ([application §3.9](wire-formats.html#application-3)): `state`, `events`
 * (the events the state accepts, in declaration order) and `actions` (the
 * state's informational actions).
 *
 * Returns: (transfer full) (nullable): a JSON object, or %NULL when the
 *   definition has no conversation
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_get_conversation_snapshot (AkcSession *self)
{
  g_auto(GStrv) events = NULL;
  g_auto(GStrv) actions = NULL;
  AkcJsonMemberInit members[3];
  g_autofree AkcJsonValue **event_values = NULL;
  g_autofree AkcJsonValue **action_values = NULL;
  guint n_events, n_actions;

  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  if (self->conversation == NULL)
    return NULL;

  events = akc_conversation_dup_events (self->conversation, self->state);
  actions = akc_conversation_dup_actions (self->conversation, self->state);
  n_events = g_strv_length (events);
  n_actions = g_strv_length (actions);
  event_values = g_new (AkcJsonValue *, n_events + 1);
  action_values = g_new (AkcJsonValue *, n_actions + 1);
  for (guint i = 0; i < n_events; i++)
    event_values[i] = akc_json_value_new_string (events[i], -1);
  for (guint i = 0; i < n_actions; i++)
    action_values[i] = akc_json_value_new_string (actions[i], -1);

  members[0] = (AkcJsonMemberInit) { "state", 5, akc_json_value_new_string (self->state, -1) };
  members[1] = (AkcJsonMemberInit) { "events", 6, akc_json_array_new_steal (event_values, n_events) };
  members[2] = (AkcJsonMemberInit) { "actions", 7, akc_json_array_new_steal (action_values, n_actions) };

  return akc_json_object_new_steal (members, 3, TRUE, AKC_JSON_FLAG_STATIC_NAMES);
}

/**
 * akc_session_get_cursor:
 * @self: a #AkcSession
 *
 * Gets the cursor of the last snapshot the session stored (the number of
 * saves, or the stored cursor it resumed from plus its own saves).
 *
 * Returns: the cursor
 *
 * Since: 0.1
 */
gint64
akc_session_get_cursor (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), 0);

  return self->cursor;
}

/**
 * akc_session_get_persisting:
 * @self: a #AkcSession
 *
 * Gets whether saves are queued or running.
 *
 * Returns: %TRUE while the session is saving
 *
 * Since: 0.1
 */
gboolean
akc_session_get_persisting (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), FALSE);

  return self->persist_running || !g_queue_is_empty (&self->persist_queue);
}

/**
 * akc_session_get_confirmations:
 * @self: a #AkcSession
 *
 * Gets the action confirmations kept in the session snapshot (§4.2),
 * without session ids.
 *
 * Returns: (transfer none): a JSON array
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_get_confirmations (AkcSession *self)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);

  return self->confirmations;
}

/**
 * akc_session_set_clock:
 * @self: a #AkcSession
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   the clock, or %NULL for the system clock
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the clock of snapshot times and turn leases.
 *
 * Since: 0.1
 */
void
akc_session_set_clock (AkcSession          *self,
                       AkcSessionClockFunc  func,
                       gpointer             user_data,
                       GDestroyNotify       destroy)
{
  g_return_if_fail (AKC_IS_SESSION (self));

  if (self->clock_destroy != NULL)
    self->clock_destroy (self->clock_data);
  self->clock = func;
  self->clock_data = user_data;
  self->clock_destroy = destroy;
}

/**
 * akc_session_build_snapshot:
 * @self: a #AkcSession
 * @error: return location for a #GError
 *
 * Builds the snapshot the next save would store, without storing it: the
 * next cursor, the time now.
 *
 * Returns: (transfer full) (nullable): the snapshot, or %NULL with @error
 *   set when it is not valid (§14 A6)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_session_build_snapshot (AkcSession  *self,
                            GError     **error)
{
  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return build_snapshot (self, self->cursor + 1, akc_session_now (self), error);
}

/**
 * akc_session_persist_async:
 * @self: a #AkcSession
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the snapshot is stored
 * @user_data: data for @callback
 *
 * Stores the session snapshot after the saves already queued (§4.4). The
 * save fails with %AKC_SESSION_ERROR_CONFLICT when the stored snapshot
 * changed in another client.
 *
 * Since: 0.1
 */
void
akc_session_persist_async (AkcSession          *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (AKC_IS_SESSION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  queue_persist (self, cancellable, callback, user_data, akc_session_persist_async);
}

/**
 * akc_session_persist_finish:
 * @self: a #AkcSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Finishes [method@Session.persist_async].
 *
 * Returns: %TRUE if the snapshot was stored
 *
 * Since: 0.1
 */
gboolean
akc_session_persist_finish (AkcSession    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Turn leases (§4.4)                                                  */
/* ------------------------------------------------------------------ */

static void
on_turn_persisted (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!akc_session_persist_finish (AKC_SESSION (source), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, 1);
}

/**
 * akc_session_claim_turn_async:
 * @self: a #AkcSession
 * @turn_id: the turn id
 * @lease_ms: how long the claim holds, in milliseconds
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called with the outcome
 * @user_data: data for @callback
 *
 * Claims the turn @turn_id for @lease_ms (server idempotency, §4.4). The
 * claim is refused when @turn_id already ended, or while a lease that
 * ends after now is held (even by @turn_id). Otherwise the lease is
 * stored, and the claim succeeds once it is saved.
 *
 * A @turn_id that is not an identifier or a @lease_ms that is not a
 * positive safe integer fails with %AKC_ERROR_CONFIG_INVALID, “Turn claim
 * is invalid.”
 *
 * Since: 0.1
 */
void
akc_session_claim_turn_async (AkcSession          *self,
                              const char          *turn_id,
                              gint64               lease_ms,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gint64 now;

  g_return_if_fail (AKC_IS_SESSION (self));
  g_return_if_fail (turn_id != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_session_claim_turn_async);

  if (!akc_text_is_safe_id (turn_id, strlen (turn_id)) || lease_ms < 1 || lease_ms > AKC_JSON_MAX_SAFE_INTEGER)
    {
      g_task_return_new_error (task, AKC_ERROR, AKC_ERROR_CONFIG_INVALID, TURN_CLAIM_INVALID);
      return;
    }

  now = akc_session_now (self);
  for (guint i = 0; i < self->terminal_turns->len; i++)
    if (strcmp (((TerminalTurn *) g_ptr_array_index (self->terminal_turns, i))->turn_id, turn_id) == 0)
      {
        g_task_return_int (task, 0);
        return;
      }

  if (self->active_turn != NULL && self->active_turn_expires_at > now)
    {
      g_task_return_int (task, 0);
      return;
    }

  g_free (self->active_turn);
  self->active_turn = g_strdup (turn_id);
  self->active_turn_expires_at = now + lease_ms;
  akc_session_persist_async (self, cancellable, on_turn_persisted, g_steal_pointer (&task));
}

/**
 * akc_session_claim_turn_finish:
 * @self: a #AkcSession
 * @result: the result
 * @claimed: (out) (optional): return location for whether the turn was
 *   claimed
 * @error: return location for a #GError
 *
 * Finishes [method@Session.claim_turn_async].
 *
 * Returns: %TRUE when the claim was decided (see @claimed), %FALSE with
 *   @error set when it was invalid or could not be saved
 *
 * Since: 0.1
 */
gboolean
akc_session_claim_turn_finish (AkcSession    *self,
                               GAsyncResult  *result,
                               gboolean      *claimed,
                               GError       **error)
{
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  value = g_task_propagate_int (G_TASK (result), error);
  if (value < 0)
    return FALSE;

  if (claimed != NULL)
    *claimed = value != 0;
  return TRUE;
}

/**
 * akc_session_release_turn_async:
 * @self: a #AkcSession
 * @turn_id: the turn id
 * @outcome: how the turn ended
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the release is stored
 * @user_data: data for @callback
 *
 * Ends the lease of @turn_id and records it as a terminal turn (only the
 * newest 64 are kept), then saves. Releasing a turn that is not the
 * active one does nothing.
 *
 * Since: 0.1
 */
void
akc_session_release_turn_async (AkcSession          *self,
                                const char          *turn_id,
                                AkcTurnOutcome       outcome,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TerminalTurn *t;

  g_return_if_fail (AKC_IS_SESSION (self));
  g_return_if_fail (turn_id != NULL);
  g_return_if_fail (outcome <= AKC_TURN_OUTCOME_INDETERMINATE);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_session_release_turn_async);

  if (g_strcmp0 (self->active_turn, turn_id) != 0)
    {
      g_task_return_int (task, 1);
      return;
    }

  g_clear_pointer (&self->active_turn, g_free);
  self->active_turn_expires_at = 0;

  for (guint i = self->terminal_turns->len; i > 0; i--)
    if (strcmp (((TerminalTurn *) g_ptr_array_index (self->terminal_turns, i - 1))->turn_id, turn_id) == 0)
      g_ptr_array_remove_index (self->terminal_turns, i - 1);

  t = g_new0 (TerminalTurn, 1);
  t->turn_id = g_strdup (turn_id);
  t->outcome = outcome;
  g_ptr_array_add (self->terminal_turns, t);
  if (self->terminal_turns->len > MAX_TERMINAL_TURNS)
    g_ptr_array_remove_range (self->terminal_turns, 0, self->terminal_turns->len - MAX_TERMINAL_TURNS);

  akc_session_persist_async (self, cancellable, on_turn_persisted, g_steal_pointer (&task));
}

/**
 * akc_session_release_turn_finish:
 * @self: a #AkcSession
 * @result: the result
 * @error: return location for a #GError
 *
 * Finishes [method@Session.release_turn_async].
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
akc_session_release_turn_finish (AkcSession    *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_int (G_TASK (result), error) >= 0;
}

/* ------------------------------------------------------------------ */
/* Session-bound confirmations (§5.3)                                  */
/* ------------------------------------------------------------------ */

static void
on_confirmations_persisted (GObject      *source,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcSession *self = AKC_SESSION (source);
  GError *error = NULL;

  if (!akc_session_persist_finish (self, result, &error))
    {
      /* the previous list comes back; the coordinator re-raises */
      g_clear_pointer (&self->confirmations, akc_json_value_unref);
      self->confirmations = akc_json_value_ref (g_task_get_task_data (task));
      g_task_return_error (task, error);
      return;
    }

  g_signal_emit (self, signals[CONFIRMATIONS_CHANGED], 0);
  g_task_return_boolean (task, TRUE);
}

void
akc_session_replace_confirmations_async (AkcSession          *self,
                                         AkcJsonValue        *confirmations,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, akc_session_replace_confirmations_async);
  g_task_set_task_data (task, g_steal_pointer (&self->confirmations), (GDestroyNotify) akc_json_value_unref);
  self->confirmations = akc_json_value_ref (confirmations);
  akc_session_persist_async (self, cancellable, on_confirmations_persisted, task);
}

gboolean
akc_session_replace_confirmations_finish (AkcSession    *self,
                                          GAsyncResult  *result,
                                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * akc_session_create_confirmation:
 * @self: a #AkcSession
 * @chat: the conversation whose tool calls are confirmed
 * @ttl_ms: how long a proposal waits for approval, in milliseconds
 *   (%AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS is the reference's default)
 * @error: return location for a #GError
 *
 * Creates the confirmation coordinator of typed actions bound to this
 * session ([application §5.3](wire-formats.html#application-5)). It starts from the confirmations stored
 * in the session, bound to this session id (a token of another session is
 * inert), and keeps every change in the session snapshot, saved before
 * the change is reported; [signal@Session::confirmations-changed] follows.
 *
 * When the session has storage, each new status is also claimed with an
 * awaited compare-and-set save: of two clients that resumed the session
 * and approve one token at once, exactly one wins and the other fails with
 * %AKC_SESSION_ERROR_CONFLICT, so the upstream approval runs once; and a
 * processing status (`approving`, …) left by a failed upstream call stays,
 * so approving again is a no-op rather than a second execution.
 *
 * Returns: (transfer full) (nullable): the coordinator, or %NULL with
 *   @error set (options that are not valid, or a stored confirmation that
 *   is not)
 *
 * Since: 0.1
 */
AkcActionConfirmation *
akc_session_create_confirmation (AkcSession     *self,
                                 AkcChatSource  *chat,
                                 gint64          ttl_ms,
                                 GError        **error)
{
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(AkcConfirmationStore) store = NULL;

  g_return_val_if_fail (AKC_IS_SESSION (self), NULL);
  g_return_val_if_fail (AKC_IS_CHAT_SOURCE (chat), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  records = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_confirmation_record_unref);
  for (gsize i = 0; i < akc_json_value_get_length (self->confirmations); i++)
    {
      AkcConfirmationRecord *record;

      record = akc_confirmation_record_new_from_json (akc_json_value_get_element (self->confirmations, i),
                                                      self->id, error);
      if (record == NULL)
        return NULL;
      g_ptr_array_add (records, record);
    }

  store = akc_session_confirmation_store_new (self, self->storage != NULL);
  return akc_action_confirmation_new (self->id, chat, ttl_ms, records, store, error);
}

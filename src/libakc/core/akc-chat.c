/* akc-chat.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "akc-chat-private.h"
#include "akc-chat-source-state-private.h"
#include "akc-chunk.h"
#include "akc-error.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"

/**
 * AkcChat:
 *
 * A conversation owned by the application: the local controller.
 *
 * `AkcChat` implements [iface@ChatSource] over an [iface@Adapter], with the
 * lifecycle semantics of [application §3.6](wire-formats.html#application-3).
 *
 * - **send** appends the user message and a pending assistant reply in one
 *   [signal@Gio.ListModel::items-changed], then streams the adapter's
 *   chunks into the reply, in place.
 * - **stop** cancels the stream; the reply becomes complete with
 *   [property@Message:stopped] set, and chunks that arrive later never
 *   change the conversation.
 * - **retry** requires the last two messages to be user then assistant,
 *   and replaces the assistant message; **regenerate** drops its target and
 *   everything after it, then answers the nearest user message before it;
 *   **edit** gives a user message new text (same id, same object), drops
 *   every later message and answers it again, or only replaces the text of
 *   an assistant message.
 * - Each reply carries a [struct@Lineage]: submit (source: the user
 *   message), retry or regenerate (source: the replaced assistant message),
 *   edit (source: the edited user message); a tool continuation is a submit
 *   whose source is the tool message.
 * - A failed turn leaves the reply in %AKC_MESSAGE_STATUS_ERROR with its
 *   [property@Message:error], sets
 *   [property@ChatSource:status] to %AKC_CHAT_STATUS_ERROR and
 *   [property@ChatSource:error] to a retryable [struct@Diagnostic] with the
 *   adapter's code (or `ADAPTER_FAILED` when it has none that matches the
 *   turn diagnostic code grammar) and its message, made valid UTF-8 without
 *   control characters and cut to 512 bytes at a character boundary.
 * - A done chunk whose metadata says `{"synthetic":true}` ends a reply the
 *   adapter saw cut off (an Ask answer whose body ended without its
 *   `done`, [protocol §8.3](wire-formats.html#protocol-8)): the turn fails the same way, with the code
 *   `REPLY_CUT_OFF`, and the reply keeps what arrived. It is never shown
 *   or kept as a finished answer.
 * - Metadata chunks with usage add up in [property@ChatSource:usage].
 *
 * ## Tools
 *
 * Tools are registered with [method@Chat.add_tool]. When the model calls
 * one, the call is added to the reply: a tool that requires confirmation
 * waits in %AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION for
 * [method@ChatSource.approve] or [method@ChatSource.deny]; any other tool
 * runs at once and records its result on the call; an unknown tool or
 * invalid arguments make the call an error. When the adapter's done says
 * the model waits for the results (metadata `{"finishReason":"tool_calls"}`,
 * as [class@ProviderAdapter]'s does) and no call of the reply waits for a
 * person, the conversation continues at once: a tool message per call
 * (its result or error) and a new reply, at most 8 replies in a row after
 * the latest user message (a model that keeps calling tools is not asked
 * again). Approving runs the tool, denying records
 * `Permission denied: «reason»`; either way the conversation continues
 * with a tool message and a new reply, streamed for the same latest user
 * message. [method@ChatSource.propose_tool_call] lets the host propose a
 * call in a new assistant message. An authorizer
 * ([method@Chat.set_tool_authorizer]) is asked at proposal and before a
 * call runs ([application §5.4](wire-formats.html#application-5)); a call
 * the model made that requires confirmation is proposed when it arrives,
 * so one the authorizer refuses becomes an error with its reason instead
 * of waiting for a confirmation that could never run it.
 *
 * Since: 0.1
 */

/* The longest adapter error message shown, in bytes. */
#define AKC_CHAT_MAX_ERROR_MESSAGE_BYTES 512
/* How many replies may follow the latest user message before a
 * continuation with tool results is no longer started by itself. */
#define AKC_CHAT_MAX_TOOL_ROUNDS 8
#define DENIED_PREFIX "Permission denied: "
#define DENIED_DEFAULT_REASON "user denied access"

struct _AkcChat
{
  GObject               parent_instance;

  AkcAdapter           *adapter;
  char                 *session_id;
  char                 *system_prompt;
  AkcChatSourceState    state;
  GHashTable           *tools;

  AkcToolAuthorizeFunc  authorize;
  gpointer              authorize_data;
  GDestroyNotify        authorize_destroy;

  /* The turn in flight, if any. */
  AkcStream            *stream;
  AkcMessage           *reply;
  gulong                chunk_handler;

  /* Messages a person deleted whose undo is still offered: in the
   * conversation (and its history) until akc_chat_delete_message(), shown
   * nowhere. Few; in the order they were hidden. */
  GPtrArray            *hidden;
};

static void akc_chat_source_iface_init (AkcChatSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcChat, akc_chat, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_CHAT_SOURCE, akc_chat_source_iface_init))

enum {
  PROP_0,
  PROP_ADAPTER,
  PROP_SESSION_ID,
  PROP_SYSTEM_PROMPT,
  N_PROPS,

  /* AkcChatSource's, in AkcChatSourceProp order (akc-chat-source-state-private.h) */
  PROP_MESSAGES = N_PROPS,
  PROP_INPUT = PROP_MESSAGES + AKC_CHAT_SOURCE_PROP_INPUT,
};

static GParamSpec *props[N_PROPS];
static GParamSpec *source_props[AKC_CHAT_SOURCE_N_PROPS];

enum {
  HIDDEN_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static guint
akc_chat_n_messages (AkcChat *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->state.messages));
}

/* Returns: (transfer none): the store keeps the message alive. */
static AkcMessage *
akc_chat_message_at (AkcChat *self,
                     guint    position)
{
  AkcMessage *message = g_list_model_get_item (G_LIST_MODEL (self->state.messages), position);

  g_assert (message != NULL);
  g_object_unref (message);

  return message;
}

static gboolean
akc_chat_find_message (AkcChat    *self,
                       const char *id,
                       guint      *position)
{
  guint n = akc_chat_n_messages (self);

  for (guint i = n; i > 0; i--)
    {
      if (g_strcmp0 (akc_message_get_id (akc_chat_message_at (self, i - 1)), id) == 0)
        {
          *position = i - 1;
          return TRUE;
        }
    }

  return FALSE;
}

static AkcToolCall *
akc_chat_find_tool_call (AkcChat    *self,
                         const char *id)
{
  guint n = akc_chat_n_messages (self);

  for (guint i = 0; i < n; i++)
    {
      AkcToolCall *call = akc_message_find_tool_call (akc_chat_message_at (self, i), id);

      if (call != NULL)
        return call;
    }

  return NULL;
}

/* One items-changed for the whole change. A hidden message that leaves
 * the conversation is hidden no more. */
static void
akc_chat_splice (AkcChat     *self,
                 guint        position,
                 guint        n_removals,
                 AkcMessage **additions,
                 guint        n_additions)
{
  g_autoptr(GPtrArray) unhidden = NULL;

  for (guint i = 0; self->hidden->len > 0 && i < n_removals; i++)
    {
      AkcMessage *message = akc_chat_message_at (self, position + i);

      if (g_ptr_array_find (self->hidden, message, NULL))
        {
          if (unhidden == NULL)
            unhidden = g_ptr_array_new_with_free_func (g_object_unref);
          g_ptr_array_add (unhidden, g_object_ref (message));
          g_ptr_array_remove (self->hidden, message);
        }
    }

  akc_chat_source_state_splice (&self->state, position, n_removals, (gpointer *) additions, n_additions);

  for (guint i = 0; unhidden != NULL && i < unhidden->len; i++)
    g_signal_emit (self, signals[HIDDEN_CHANGED], 0, g_ptr_array_index (unhidden, i));
}

/* The conversation goes on (a turn starts): what the person deleted is
 * deleted for good first, so the model never reads it and the turn's
 * targets are the messages the person sees. */
static void
akc_chat_settle_hidden (AkcChat *self)
{
  while (self->hidden->len > 0)
    {
      AkcMessage *message = g_ptr_array_index (self->hidden, 0);
      guint at;

      if (g_list_store_find (self->state.messages, message, &at))
        akc_chat_splice (self, at, 1, NULL, 0);
      else
        g_ptr_array_remove_index (self->hidden, 0);
    }
}

static void
akc_chat_set_status (AkcChat       *self,
                     AkcChatStatus  status)
{
  akc_chat_source_state_set_status (&self->state, status);
}

static void
akc_chat_take_error (AkcChat       *self,
                     AkcDiagnostic *error)
{
  akc_chat_source_state_take_error (&self->state, error);
}

/* Ends the turn in flight: the stream stops delivering. Returns the reply,
 * whose status the caller settles. */
static AkcMessage *
akc_chat_end_turn (AkcChat *self)
{
  g_autoptr(AkcStream) stream = g_steal_pointer (&self->stream);

  if (stream == NULL)
    return NULL;

  g_clear_signal_handler (&self->chunk_handler, stream);
  akc_stream_cancel (stream);

  return g_steal_pointer (&self->reply);
}

/* Ends the turn in flight, if any, leaving its reply as it is (it is
 * being removed). */
static void
akc_chat_drop_turn (AkcChat *self)
{
  AkcMessage *reply = akc_chat_end_turn (self);

  g_clear_object (&reply);
}

/* A bounded, safe message: valid UTF-8, no control characters, at most
 * AKC_CHAT_MAX_ERROR_MESSAGE_BYTES bytes cut at a character boundary. */
static char *
bounded_message (const char *text,
                 gsize       length)
{
  g_autofree char *sanitized = NULL;
  g_autoptr(GString) out = NULL;
  const char *p, *end;
  gsize valid_length;

  sanitized = akc_utf8_sanitize (text, length, &valid_length);
  p = sanitized != NULL ? sanitized : text;
  end = p + valid_length;

  out = g_string_sized_new (MIN (valid_length, AKC_CHAT_MAX_ERROR_MESSAGE_BYTES) + 4);
  while (p < end)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);

      if (out->len + (next - p) > AKC_CHAT_MAX_ERROR_MESSAGE_BYTES)
        {
          g_string_append (out, "…");
          break;
        }

      if (g_unichar_iscntrl (c))
        g_string_append_c (out, ' ');
      else
        g_string_append_len (out, p, next - p);
      p = next;
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static AkcDiagnostic *
diagnostic_from_chunk (AkcChunk *chunk)
{
  const char *code = akc_chunk_get_error_code (chunk);
  const char *text;
  gsize length = 0;
  g_autofree char *message = NULL;

  if (code == NULL || strlen (code) > 128 || !akc_text_is_turn_code (code, strlen (code)))
    code = "ADAPTER_FAILED";

  text = akc_chunk_get_text (chunk, &length);
  if (text != NULL)
    message = bounded_message (text, length);
  if (message == NULL || akc_is_blank_input (message))
    {
      g_free (message);
      message = g_strdup (_("The reply failed."));
    }

  return akc_diagnostic_new (code, message, TRUE, NULL);
}

/* The done an adapter made up for a reply that ended without its own end
 * (AkcAskResponse, §8.3): the answer was cut off. */
static gboolean
is_cut_off (AkcChunk *chunk)
{
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  AkcJsonValue *synthetic = metadata != NULL && akc_json_value_get_kind (metadata) == AKC_JSON_KIND_OBJECT
                            ? akc_json_value_get_member (metadata, "synthetic") : NULL;

  return synthetic != NULL && akc_json_value_get_kind (synthetic) == AKC_JSON_KIND_BOOLEAN &&
         akc_json_value_get_boolean (synthetic);
}

/* Arguments are a plain JSON object within the bounds of application
 * §5.4. */
static gboolean
arguments_are_valid (AkcJsonValue *arguments)
{
  return arguments != NULL &&
         akc_json_value_get_kind (arguments) == AKC_JSON_KIND_OBJECT &&
         akc_bjv_check (arguments, &akc_bjv_tool_argument_limits);
}

static gboolean
is_identifier (const char *text)
{
  return text != NULL && akc_text_is_safe_id (text, strlen (text));
}

/* Returns: (transfer full) (nullable): the denial reason, or %NULL. */
static char *
akc_chat_authorize (AkcChat      *self,
                    AkcToolCall  *call,
                    AkcToolPhase  phase)
{
  char *reason;

  if (self->authorize == NULL)
    return NULL;

  reason = self->authorize (self, call, phase, self->authorize_data);
  if (reason != NULL && *reason == '\0')
    {
      /* A denial always says why. */
      g_free (reason);
      reason = g_strdup ("denied");
    }

  return reason;
}

/* Runs an allowed call: running, then complete with the result or error. */
static void
akc_chat_run_tool (AkcChat     *self,
                   AkcTool     *tool,
                   AkcToolCall *call)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *result = NULL;

  reason = akc_chat_authorize (self, call, AKC_TOOL_PHASE_EXECUTE);
  if (reason != NULL)
    {
      akc_tool_call_set_error (call, reason);
      akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_ERROR);
      return;
    }

  akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_RUNNING);
  result = akc_tool_execute (tool, akc_tool_call_get_arguments (call), &error);
  if (result == NULL)
    {
      g_autofree char *message = bounded_message (error->message, strlen (error->message));

      akc_tool_call_set_error (call, message);
      akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_ERROR);
      return;
    }

  akc_tool_call_set_result (call, result);
  akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_COMPLETE);
}

/* @id with a number after it that no call of the chat bears; within the
 * 128 bytes of an id. */
static char *
akc_chat_new_tool_call_id (AkcChat    *self,
                           const char *id)
{
  for (guint n = 2;; n++)
    {
      g_autofree char *number = g_strdup_printf ("-%u", n);
      g_autofree char *candidate = g_strdup_printf ("%.*s%s", (int) MIN (strlen (id), 128 - strlen (number)),
                                                    id, number);

      if (akc_chat_find_tool_call (self, candidate) == NULL)
        return g_steal_pointer (&candidate);
    }
}

/* A tool call the model made. */
static void
akc_chat_add_model_tool_call (AkcChat  *self,
                              AkcChunk *chunk)
{
  const char *id = akc_chunk_get_tool_call_id (chunk);
  const char *name = akc_chunk_get_tool_name (chunk);
  const char *text = akc_chunk_get_arguments (chunk);
  g_autofree char *unique_id = NULL;
  g_autoptr(AkcJsonValue) arguments = NULL;
  g_autoptr(AkcToolCall) call = NULL;
  g_autofree char *denial = NULL;
  const char *problem = NULL;
  AkcTool *tool = NULL;

  /* The id names the call in approve() and deny(): one call per id. The
   * same id again in this reply is the same call. */
  if (id == NULL || akc_message_find_tool_call (self->reply, id) != NULL)
    return;
  /* A model's id that a call of an earlier message bears is a new call:
   * some OpenAI-compatible servers number their calls in each reply
   * ("call_0"). It gets an id of its own, which is what the next request
   * sends back for it, in the call and with its result. */
  if (akc_chat_find_tool_call (self, id) != NULL)
    id = unique_id = akc_chat_new_tool_call_id (self, id);

  if (text != NULL)
    arguments = akc_json_value_parse (text, -1, NULL);

  if (!is_identifier (id) || !is_identifier (name))
    problem = "Tool call identity is invalid.";
  else if (!arguments_are_valid (arguments))
    problem = "Tool call arguments are invalid.";
  else if ((tool = g_hash_table_lookup (self->tools, name)) == NULL)
    problem = "Tool is not registered.";
  else if (!akc_tool_validate_arguments (tool, arguments, NULL))
    /* A model's call is checked against the tool's schema like a host's. */
    problem = "Tool call arguments do not match the tool's schema.";

  call = akc_tool_call_new (id,
                            name != NULL ? name : "",
                            problem == NULL ? arguments : NULL,
                            AKC_TOOL_CALL_STATUS_PENDING);
  if (problem != NULL)
    {
      akc_tool_call_set_error (call, problem);
      akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_ERROR);
    }
  else if (akc_tool_get_requires_confirmation (tool))
    {
      /* Authorized at proposal like a host's proposal (application §5.4):
       * nobody is asked to approve a call the policy refuses. The call
       * is an error with the reason, as at execution, and never runs. */
      akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
      denial = akc_chat_authorize (self, call, AKC_TOOL_PHASE_PROPOSE);
      if (denial != NULL)
        {
          akc_tool_call_set_error (call, denial);
          akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_ERROR);
        }
    }

  akc_message_set_status (self->reply, AKC_MESSAGE_STATUS_STREAMING);
  akc_message_add_tool_call (self->reply, call);

  if (problem == NULL && !akc_tool_get_requires_confirmation (tool))
    akc_chat_run_tool (self, tool, call);
}

static void akc_chat_continue_reply (AkcChat    *self,
                                     AkcMessage *reply);

/* The turn of @reply failed with @error (taken): the reply keeps it, so it
 * says what went wrong once the chat went on, and after a restart. */
static void
akc_chat_fail (AkcChat       *self,
               AkcMessage    *reply,
               AkcDiagnostic *error)
{
  akc_message_set_error (reply, error);
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_ERROR);
  akc_chat_take_error (self, error);
  akc_chat_set_status (self, AKC_CHAT_STATUS_ERROR);
}

/* The done of a reply whose model waits for the results of its tool
 * calls. */
static gboolean
wants_tool_results (AkcChunk *chunk)
{
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  AkcJsonValue *reason = metadata != NULL && akc_json_value_get_kind (metadata) == AKC_JSON_KIND_OBJECT
                         ? akc_json_value_get_member (metadata, "finishReason") : NULL;

  return g_strcmp0 (reason != NULL ? akc_json_value_get_string (reason, NULL) : NULL, "tool_calls") == 0;
}

/* Whether @reply has tool calls and each settled without a person: it ran
 * at once, or failed its checks. */
static gboolean
calls_settled_alone (AkcMessage *reply)
{
  GListModel *calls = akc_message_get_tool_calls (reply);
  guint n = g_list_model_get_n_items (calls);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, i);
      AkcToolCallStatus status = akc_tool_call_get_status (call);

      if (status != AKC_TOOL_CALL_STATUS_COMPLETE && status != AKC_TOOL_CALL_STATUS_ERROR)
        return FALSE;
    }

  return n > 0;
}

/* The replies after the latest user message. */
static guint
akc_chat_rounds (AkcChat *self)
{
  guint rounds = 0;

  for (guint i = akc_chat_n_messages (self); i > 0; i--)
    {
      AkcMessage *message = akc_chat_message_at (self, i - 1);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
        break;
      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_ASSISTANT)
        rounds++;
    }

  return rounds;
}

static void
on_stream_chunk (AkcChat   *self,
                 AkcChunk  *chunk,
                 AkcStream *stream)
{
  g_autoptr(AkcMessage) reply = NULL;
  const char *text;
  gsize length;
  AkcUsage usage;

  g_assert (AKC_IS_CHAT (self));
  g_assert (stream == self->stream);

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &length);
      akc_message_set_status (self->reply, AKC_MESSAGE_STATUS_STREAMING);
      akc_message_append_content (self->reply, text, length);
      break;

    case AKC_CHUNK_TOOL_CALL:
      akc_chat_add_model_tool_call (self, chunk);
      break;

    case AKC_CHUNK_METADATA:
      if (akc_chunk_get_usage (chunk, &usage))
        {
          AkcUsage total = self->state.usage;

          akc_usage_add (&total, &usage);
          akc_chat_source_state_set_usage (&self->state, &total);

          /* And the reply's own. */
          if (self->reply != NULL)
          {
            const AkcUsage *own = akc_message_get_usage (self->reply);
            AkcUsage reply_total = own != NULL ? *own : (AkcUsage) { 0, 0, 0 };

            akc_usage_add (&reply_total, &usage);
            akc_message_set_usage (self->reply, &reply_total);
          }
        }
      break;

    case AKC_CHUNK_DONE:
      reply = akc_chat_end_turn (self);
      if (is_cut_off (chunk))
        {
          akc_chat_fail (self, reply, akc_diagnostic_new ("REPLY_CUT_OFF",
                                                          _("The answer was cut off: the server ended it before it was complete."),
                                                          TRUE, NULL));
          break;
        }
      akc_message_set_status (reply, AKC_MESSAGE_STATUS_COMPLETE);
      /* The model waits for what its calls gave, and nobody has to
       * decide anything first: it hears at once, and the chat streams
       * on without going idle in between. */
      if (wants_tool_results (chunk) && calls_settled_alone (reply) &&
          akc_chat_rounds (self) < AKC_CHAT_MAX_TOOL_ROUNDS && self->stream == NULL)
        {
          akc_chat_continue_reply (self, reply);
          break;
        }
      akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
      break;

    case AKC_CHUNK_ERROR:
      reply = akc_chat_end_turn (self);
      akc_chat_fail (self, reply, diagnostic_from_chunk (chunk));
      break;

    default:
      break;
    }
}

static GListStore *
akc_chat_copy_messages (AkcChat *self,
                        guint    n)
{
  GListStore *copy = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (self->state.messages), i));
  g_list_store_splice (copy, 0, 0, items->pdata, items->len);

  return copy;
}

/* Streams into @reply, the last message, a reply to what comes before it. */
static void
akc_chat_stream_reply (AkcChat    *self,
                       AkcMessage *reply)
{
  g_autoptr(AkcStream) stream = NULL;
  g_autoptr(GListStore) history = NULL;
  g_autoptr(AkcAdapterRequest) request = NULL;
  guint n = akc_chat_n_messages (self);

  g_assert (self->stream == NULL);
  g_assert (n > 0 && akc_chat_message_at (self, n - 1) == reply);

  /* The adapter sees the conversation and, last, the reply it writes, as
   * the reference controller passes it (the RAG demo names its frame after
   * the reply's id, application §13.5). The reply is given as it is
   * now, empty, so the request stays immutable while the reply streams. */
  history = akc_chat_copy_messages (self, n - 1);
  {
    g_autoptr(AkcMessage) placeholder = akc_message_new (akc_message_get_id (reply),
                                                         AKC_MESSAGE_ROLE_ASSISTANT, "",
                                                         AKC_MESSAGE_STATUS_STREAMING);
    g_list_store_append (history, placeholder);
  }
  request = akc_adapter_request_new (G_LIST_MODEL (history), self->session_id,
                                     self->system_prompt, NULL);

  stream = akc_stream_new ();
  self->stream = g_object_ref (stream);
  self->reply = g_object_ref (reply);
  self->chunk_handler = g_signal_connect_object (stream, "chunk",
                                                 G_CALLBACK (on_stream_chunk),
                                                 self, G_CONNECT_SWAPPED);
  akc_chat_set_status (self, AKC_CHAT_STATUS_STREAMING);

  akc_adapter_stream (self->adapter, request, stream);
}

static AkcMessage *
new_reply (AkcLineageOperation  operation,
           const char          *source_message_id)
{
  g_autoptr(AkcLineage) lineage = akc_lineage_new (operation, source_message_id, NULL);

  return g_object_new (AKC_TYPE_MESSAGE,
                       "role", AKC_MESSAGE_ROLE_ASSISTANT,
                       "status", AKC_MESSAGE_STATUS_PENDING,
                       "lineage", lineage,
                       NULL);
}

static gboolean
akc_chat_check_idle (AkcChat  *self,
                     GError  **error)
{
  if (self->state.status == AKC_CHAT_STATUS_STREAMING)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_BUSY,
                           _("A reply is still arriving. Stop it first."));
      return FALSE;
    }

  return TRUE;
}

static gboolean
akc_chat_check_text (const char  *text,
                     GError     **error)
{
  if (akc_is_blank_input (text))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_EMPTY_INPUT,
                           _("There is nothing to send."));
      return FALSE;
    }

  return TRUE;
}

AKC_CHAT_SOURCE_STATE_DEFINE_GETTERS (akc_chat, AKC_CHAT, state)

static gboolean
akc_chat_send (AkcChatSource  *source,
               const char     *text,
               GError        **error)
{
  return akc_chat_send_with_attachments (AKC_CHAT (source), text, NULL, 0, error);
}

/**
 * akc_chat_send_with_attachments:
 * @self: a chat
 * @text: what the person wrote; may be blank when there are attachments
 * @attachments: (array length=n_attachments) (nullable): images and text
 *   files sent with it
 * @n_attachments: how many
 * @error: return location for a #GError
 *
 * Sends as [method@ChatSource.send] does, with @attachments on the
 * person's message (see [method@Message.get_attachments]): the adapter
 * sends them to the model, or refuses the turn with an error that says
 * what the model cannot take. More than %AKC_ATTACHMENT_MAX_PER_MESSAGE
 * attachments are refused with %AKC_ATTACHMENT_ERROR_TOO_LARGE.
 *
 * Returns: %TRUE when the turn started
 *
 * Since: 0.1
 */
gboolean
akc_chat_send_with_attachments (AkcChat        *self,
                                const char     *text,
                                AkcAttachment **attachments,
                                guint           n_attachments,
                                GError        **error)
{
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(AkcMessage) reply = NULL;

  g_return_val_if_fail (AKC_IS_CHAT (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (attachments != NULL || n_attachments == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!akc_chat_check_idle (self, error) || (n_attachments == 0 && !akc_chat_check_text (text, error)))
    return FALSE;
  if (n_attachments > AKC_ATTACHMENT_MAX_PER_MESSAGE)
    {
      g_set_error (error, AKC_ATTACHMENT_ERROR, AKC_ATTACHMENT_ERROR_TOO_LARGE,
                   _("A message takes at most %u attachments."), (guint) AKC_ATTACHMENT_MAX_PER_MESSAGE);
      return FALSE;
    }
  akc_chat_settle_hidden (self);

  akc_chat_take_error (self, NULL);
  message = akc_message_new (NULL, AKC_MESSAGE_ROLE_USER, text, AKC_MESSAGE_STATUS_COMPLETE);
  for (guint i = 0; i < n_attachments; i++)
    akc_message_add_attachment (message, attachments[i]);
  reply = new_reply (AKC_LINEAGE_OPERATION_SUBMIT, akc_message_get_id (message));
  akc_chat_splice (self, akc_chat_n_messages (self), 0, (AkcMessage *[]) { message, reply }, 2);
  akc_chat_stream_reply (self, reply);

  return TRUE;
}

static void
akc_chat_stop (AkcChatSource *source)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcMessage) reply = akc_chat_end_turn (self);

  if (reply == NULL)
    return;

  /* There is no "cancelled" message status: a stopped reply is complete
   * with what it has (application §3.6), and says it was stopped. */
  akc_message_set_stopped (reply, TRUE);
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_COMPLETE);
  akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
}

static gboolean
akc_chat_retry (AkcChatSource  *source,
                GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcMessage) reply = NULL;
  guint n;
  AkcMessage *last;

  if (!akc_chat_check_idle (self, error))
    return FALSE;
  akc_chat_settle_hidden (self);
  n = akc_chat_n_messages (self);

  if (n < 2 ||
      akc_message_get_role (akc_chat_message_at (self, n - 2)) != AKC_MESSAGE_ROLE_USER ||
      akc_message_get_role (akc_chat_message_at (self, n - 1)) != AKC_MESSAGE_ROLE_ASSISTANT)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("There is no message to answer again."));
      return FALSE;
    }

  last = akc_chat_message_at (self, n - 1);
  akc_chat_take_error (self, NULL);
  reply = new_reply (AKC_LINEAGE_OPERATION_RETRY, akc_message_get_id (last));
  akc_chat_splice (self, n - 1, 1, &reply, 1);
  akc_chat_stream_reply (self, reply);

  return TRUE;
}

static gboolean
akc_chat_regenerate (AkcChatSource  *source,
                     const char     *message_id,
                     GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcMessage) reply = NULL;
  g_autofree char *target_id = NULL;
  guint n;
  guint target = 0;
  gboolean found = FALSE;

  if (!akc_chat_check_idle (self, error))
    return FALSE;
  akc_chat_settle_hidden (self);
  n = akc_chat_n_messages (self);

  if (message_id != NULL)
    found = akc_chat_find_message (self, message_id, &target);
  else if (n > 0)
    found = TRUE, target = n - 1;

  found = found && akc_message_get_role (akc_chat_message_at (self, target)) == AKC_MESSAGE_ROLE_ASSISTANT;

  /* The nearest user message before the target. */
  if (found)
    {
      found = FALSE;
      for (guint i = target; i > 0 && !found; i--)
        found = akc_message_get_role (akc_chat_message_at (self, i - 1)) == AKC_MESSAGE_ROLE_USER;
    }

  if (!found)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("There is no answer to regenerate."));
      return FALSE;
    }

  target_id = g_strdup (akc_message_get_id (akc_chat_message_at (self, target)));
  akc_chat_take_error (self, NULL);
  reply = new_reply (AKC_LINEAGE_OPERATION_REGENERATE, target_id);
  akc_chat_splice (self, target, n - target, &reply, 1);
  akc_chat_stream_reply (self, reply);

  return TRUE;
}

static gboolean
akc_chat_edit (AkcChatSource  *source,
               const char     *message_id,
               const char     *text,
               GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcMessage) reply = NULL;
  AkcMessage *message = NULL;
  AkcMessageRole role = AKC_MESSAGE_ROLE_SYSTEM;
  guint n;
  guint position;

  if (!akc_chat_check_idle (self, error) || !akc_chat_check_text (text, error))
    return FALSE;
  akc_chat_settle_hidden (self);
  n = akc_chat_n_messages (self);

  if (akc_chat_find_message (self, message_id, &position))
    {
      message = akc_chat_message_at (self, position);
      role = akc_message_get_role (message);
    }

  if (role != AKC_MESSAGE_ROLE_USER && role != AKC_MESSAGE_ROLE_ASSISTANT)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("That message can no longer be edited."));
      return FALSE;
    }

  /* The message keeps its id and its row: only its text changes. */
  akc_message_set_content (message, text);

  if (role == AKC_MESSAGE_ROLE_ASSISTANT)
    return TRUE;

  akc_chat_take_error (self, NULL);
  reply = new_reply (AKC_LINEAGE_OPERATION_EDIT, message_id);
  akc_chat_splice (self, position + 1, n - position - 1, &reply, 1);
  akc_chat_stream_reply (self, reply);

  return TRUE;
}

static void
akc_chat_clear (AkcChatSource *source)
{
  AkcChat *self = AKC_CHAT (source);
  guint n;

  akc_chat_drop_turn (self);
  n = akc_chat_n_messages (self);
  if (n > 0)
    akc_chat_splice (self, 0, n, NULL, 0);
  akc_chat_take_error (self, NULL);
  akc_chat_source_state_set_usage (&self->state, &(AkcUsage) { 0, 0, 0 });
  akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
}

static AkcToolCall *
akc_chat_propose_tool_call (AkcChatSource  *source,
                            const char     *id,
                            const char     *name,
                            AkcJsonValue   *arguments,
                            GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcJsonValue) empty = NULL;
  g_autoptr(AkcToolCall) call = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autofree char *reason = NULL;
  AkcToolCall *existing;
  AkcTool *tool;

  if (!akc_chat_check_idle (self, error))
    return NULL;

  if (arguments == NULL)
    arguments = empty = akc_json_value_new_object (NULL, NULL, 0);

  /* The order of application §5.4: identity, arguments, registration,
   * confirmation, the tool's argument schema, authorization. */
  if (!is_identifier (id) || !is_identifier (name))
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT,
                           "Tool call identity is invalid.");
      return NULL;
    }

  if (!arguments_are_valid (arguments))
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_TOOL_INVALID_INPUT,
                           "Tool call arguments are invalid.");
      return NULL;
    }

  existing = akc_chat_find_tool_call (self, id);
  if (existing != NULL)
    return g_object_ref (existing);

  tool = g_hash_table_lookup (self->tools, name);
  if (tool == NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_TOOL_NOT_FOUND,
                           "Tool is not registered.");
      return NULL;
    }

  if (!akc_tool_get_requires_confirmation (tool))
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_CONFIG_INVALID,
                           "Tool does not require confirmation.");
      return NULL;
    }

  if (!akc_tool_validate_arguments (tool, arguments, error))
    return NULL;

  call = akc_tool_call_new (id, name, arguments, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);
  reason = akc_chat_authorize (self, call, AKC_TOOL_PHASE_PROPOSE);
  if (reason != NULL)
    {
      g_set_error_literal (error, AKC_ERROR, AKC_ERROR_TOOL_FORBIDDEN, reason);
      return NULL;
    }

  message = akc_message_new (NULL, AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_COMPLETE);
  akc_message_add_tool_call (message, call);
  akc_chat_splice (self, akc_chat_n_messages (self), 0, &message, 1);

  return g_steal_pointer (&call);
}

static AkcToolCall *
akc_chat_find_waiting_call (AkcChat     *self,
                            const char  *tool_call_id,
                            GError     **error)
{
  AkcToolCall *call;

  if (!akc_chat_check_idle (self, error))
    return NULL;

  call = akc_chat_find_tool_call (self, tool_call_id);
  if (call == NULL || akc_tool_call_get_status (call) != AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION)
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("That tool call does not wait for confirmation."));
      return NULL;
    }

  return call;
}

/* Tool continuation (application §3.6): a tool message with @content,
 * a new reply, and the adapter again, with the same latest user message. */
static void
akc_chat_continue (AkcChat     *self,
                   AkcToolCall *call,
                   const char  *content)
{
  g_autoptr(AkcMessage) tool_message = NULL;
  g_autoptr(AkcMessage) reply = NULL;

  tool_message = g_object_new (AKC_TYPE_MESSAGE,
                               "role", AKC_MESSAGE_ROLE_TOOL,
                               "content", content,
                               "status", AKC_MESSAGE_STATUS_COMPLETE,
                               "tool-call-id", akc_tool_call_get_id (call),
                               NULL);
  reply = new_reply (AKC_LINEAGE_OPERATION_SUBMIT, akc_message_get_id (tool_message));

  akc_chat_settle_hidden (self);
  akc_chat_take_error (self, NULL);
  akc_chat_splice (self, akc_chat_n_messages (self), 0, (AkcMessage *[]) { tool_message, reply }, 2);
  akc_chat_stream_reply (self, reply);
}

/* The same with the outcome of every call of @reply, which all settled:
 * a tool message each, then the new reply. */
static void
akc_chat_continue_reply (AkcChat    *self,
                         AkcMessage *reply)
{
  GListModel *calls = akc_message_get_tool_calls (reply);
  guint n = g_list_model_get_n_items (calls);
  g_autoptr(GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);
  AkcMessage *next;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, i);
      const char *outcome = akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_COMPLETE
                            ? akc_tool_call_get_result (call)
                            : akc_tool_call_get_error (call);

      g_ptr_array_add (added, g_object_new (AKC_TYPE_MESSAGE,
                                            "role", AKC_MESSAGE_ROLE_TOOL,
                                            "content", outcome != NULL ? outcome : "",
                                            "status", AKC_MESSAGE_STATUS_COMPLETE,
                                            "tool-call-id", akc_tool_call_get_id (call),
                                            NULL));
    }
  next = new_reply (AKC_LINEAGE_OPERATION_SUBMIT,
                    akc_message_get_id (g_ptr_array_index (added, added->len - 1)));
  g_ptr_array_add (added, next);

  akc_chat_settle_hidden (self);
  akc_chat_take_error (self, NULL);
  akc_chat_splice (self, akc_chat_n_messages (self), 0, (AkcMessage **) added->pdata, added->len);
  akc_chat_stream_reply (self, next);
}

static gboolean
akc_chat_approve (AkcChatSource  *source,
                  const char     *tool_call_id,
                  GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcToolCall) call = NULL;
  AkcTool *tool;
  AkcToolCall *found;

  found = akc_chat_find_waiting_call (self, tool_call_id, error);
  if (found == NULL)
    return FALSE;
  call = g_object_ref (found);

  tool = g_hash_table_lookup (self->tools, akc_tool_call_get_name (call));
  if (tool != NULL)
    {
      akc_chat_run_tool (self, tool, call);
    }
  else
    {
      /* The tool was registered when the call was made; it is gone now. */
      akc_tool_call_set_error (call, "Tool is not registered.");
      akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_ERROR);
    }

  akc_chat_continue (self, call,
                     akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_COMPLETE
                       ? akc_tool_call_get_result (call)
                       : akc_tool_call_get_error (call));

  return TRUE;
}

static gboolean
akc_chat_deny (AkcChatSource  *source,
               const char     *tool_call_id,
               const char     *reason,
               GError        **error)
{
  AkcChat *self = AKC_CHAT (source);
  g_autoptr(AkcToolCall) call = NULL;
  g_autofree char *denial = NULL;
  AkcToolCall *found;

  found = akc_chat_find_waiting_call (self, tool_call_id, error);
  if (found == NULL)
    return FALSE;
  call = g_object_ref (found);

  denial = g_strconcat (DENIED_PREFIX,
                        reason != NULL && *reason != '\0' ? reason : DENIED_DEFAULT_REASON,
                        NULL);
  akc_tool_call_set_error (call, denial);
  akc_tool_call_set_status (call, AKC_TOOL_CALL_STATUS_ERROR);
  akc_chat_continue (self, call, denial);

  return TRUE;
}

static void
akc_chat_source_iface_init (AkcChatSourceInterface *iface)
{
  akc_chat_state_iface_init (iface);
  iface->send = akc_chat_send;
  iface->stop = akc_chat_stop;
  iface->retry = akc_chat_retry;
  iface->regenerate = akc_chat_regenerate;
  iface->edit = akc_chat_edit;
  iface->clear = akc_chat_clear;
  iface->propose_tool_call = akc_chat_propose_tool_call;
  iface->approve = akc_chat_approve;
  iface->deny = akc_chat_deny;
}

static void
akc_chat_dispose (GObject *object)
{
  AkcChat *self = (AkcChat *)object;

  akc_chat_drop_turn (self);
  g_clear_object (&self->adapter);
  g_clear_pointer (&self->tools, g_hash_table_unref);
  if (self->authorize_destroy != NULL)
    g_clear_pointer (&self->authorize_data, self->authorize_destroy);
  self->authorize = NULL;
  self->authorize_destroy = NULL;

  G_OBJECT_CLASS (akc_chat_parent_class)->dispose (object);
}

static void
akc_chat_finalize (GObject *object)
{
  AkcChat *self = (AkcChat *)object;

  g_clear_pointer (&self->hidden, g_ptr_array_unref);
  akc_chat_source_state_clear (&self->state);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->system_prompt, g_free);

  G_OBJECT_CLASS (akc_chat_parent_class)->finalize (object);
}

static void
akc_chat_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  AkcChat *self = AKC_CHAT (object);

  if (akc_chat_source_state_get_property (&self->state, prop_id, PROP_MESSAGES, value))
    return;

  switch (prop_id)
    {
    case PROP_ADAPTER:
      g_value_set_object (value, self->adapter);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    case PROP_SYSTEM_PROMPT:
      g_value_set_string (value, self->system_prompt);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  AkcChat *self = AKC_CHAT (object);

  switch (prop_id)
    {
    case PROP_ADAPTER:
      self->adapter = g_value_dup_object (value);
      break;
    case PROP_SESSION_ID:
      self->session_id = g_value_dup_string (value);
      break;
    case PROP_SYSTEM_PROMPT:
      self->system_prompt = g_value_dup_string (value);
      break;
    case PROP_INPUT:
      akc_chat_source_state_set_input (&self->state, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_chat_class_init (AkcChatClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_chat_dispose;
  object_class->finalize = akc_chat_finalize;
  object_class->get_property = akc_chat_get_property;
  object_class->set_property = akc_chat_set_property;

  /**
   * AkcChat:adapter:
   *
   * The adapter that produces replies.
   *
   * Since: 0.1
   */
  props[PROP_ADAPTER] =
    g_param_spec_object ("adapter", NULL, NULL,
                         AKC_TYPE_ADAPTER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChat:session-id:
   *
   * The id of the session the conversation belongs to, given to the
   * adapter with every request ([property@AdapterRequest:session-id]), or
   * %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SESSION_ID] =
    g_param_spec_string ("session-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcChat:system-prompt:
   *
   * The system prompt given to the adapter with every request, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_SYSTEM_PROMPT] =
    g_param_spec_string ("system-prompt", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  akc_chat_source_state_override_properties (object_class, PROP_MESSAGES, source_props);

  /**
   * AkcChat::hidden-changed:
   * @self: the chat
   * @message: the message
   *
   * @message was hidden ([method@Chat.hide_message]) or is hidden no more:
   * shown again ([method@Chat.unhide_message]) or gone from the
   * conversation. [method@Chat.get_message_hidden] tells which.
   *
   * Since: 0.1
   */
  signals[HIDDEN_CHANGED] =
    g_signal_new ("hidden-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  AKC_TYPE_MESSAGE);
}

static void
akc_chat_init (AkcChat *self)
{
  akc_chat_source_state_init (&self->state, G_OBJECT (self), source_props);
  self->hidden = g_ptr_array_new_with_free_func (g_object_unref);
  self->tools = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
}

/**
 * akc_chat_new:
 * @adapter: the adapter that produces replies
 *
 * Creates an empty conversation answered by @adapter.
 *
 * Returns: (transfer full): a new #AkcChat
 *
 * Since: 0.1
 */
AkcChat *
akc_chat_new (AkcAdapter *adapter)
{
  g_return_val_if_fail (AKC_IS_ADAPTER (adapter), NULL);

  return g_object_new (AKC_TYPE_CHAT, "adapter", adapter, NULL);
}

/**
 * akc_chat_get_session_id:
 * @self: a #AkcChat
 *
 * Gets the id of the session the conversation belongs to.
 *
 * Returns: (nullable): the session id, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_chat_get_session_id (AkcChat *self)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), NULL);

  return self->session_id;
}

/**
 * akc_chat_get_system_prompt:
 * @self: a #AkcChat
 *
 * Gets the system prompt given to the adapter.
 *
 * Returns: (nullable): the system prompt, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_chat_get_system_prompt (AkcChat *self)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), NULL);

  return self->system_prompt;
}

/**
 * akc_chat_get_adapter:
 * @self: a #AkcChat
 *
 * Gets the adapter that produces replies.
 *
 * Returns: (transfer none): the adapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_chat_get_adapter (AkcChat *self)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), NULL);

  return self->adapter;
}

/**
 * akc_chat_add_tool:
 * @self: a #AkcChat
 * @tool: the tool
 *
 * Registers a tool, replacing any tool of the same name.
 *
 * Since: 0.1
 */
void
akc_chat_add_tool (AkcChat *self,
                   AkcTool *tool)
{
  g_return_if_fail (AKC_IS_CHAT (self));
  g_return_if_fail (AKC_IS_TOOL (tool));

  /* The key is the tool's own name, alive as long as the tool. */
  g_hash_table_replace (self->tools, (gpointer) akc_tool_get_name (tool), g_object_ref (tool));
}

/**
 * akc_chat_get_tool:
 * @self: a #AkcChat
 * @name: a tool name
 *
 * Looks a registered tool up by name.
 *
 * Returns: (transfer none) (nullable): the tool, or %NULL
 *
 * Since: 0.1
 */
AkcTool *
akc_chat_get_tool (AkcChat    *self,
                   const char *name)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_hash_table_lookup (self->tools, name);
}

/**
 * akc_chat_set_tool_authorizer:
 * @self: a #AkcChat
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): the authorizer, or %NULL to allow every call
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the function that authorizes tool calls ([application §5.4](wire-formats.html#application-5)). It
 * is asked when a call is proposed (a denial fails the proposal with
 * %AKC_ERROR_TOOL_FORBIDDEN and records nothing; a call the model made
 * that requires confirmation is proposed as it arrives, and a denial makes
 * it an error with the reason that is never offered for approval) and
 * before a call runs (a denial makes the call an error with the reason,
 * and the approval itself succeeds).
 *
 * Since: 0.1
 */
void
akc_chat_set_tool_authorizer (AkcChat              *self,
                              AkcToolAuthorizeFunc  func,
                              gpointer              user_data,
                              GDestroyNotify        destroy)
{
  g_return_if_fail (AKC_IS_CHAT (self));

  if (self->authorize_destroy != NULL)
    g_clear_pointer (&self->authorize_data, self->authorize_destroy);

  self->authorize = func;
  self->authorize_data = user_data;
  self->authorize_destroy = destroy;
}

void
akc_chat_steal_tool_authorizer (AkcChat              *self,
                                AkcToolAuthorizeFunc *func,
                                gpointer             *user_data,
                                GDestroyNotify       *destroy)
{
  g_return_if_fail (AKC_IS_CHAT (self));
  g_return_if_fail (func != NULL && user_data != NULL && destroy != NULL);

  *func = g_steal_pointer (&self->authorize);
  *user_data = g_steal_pointer (&self->authorize_data);
  *destroy = g_steal_pointer (&self->authorize_destroy);
}

/**
 * akc_chat_restore:
 * @self: a #AkcChat
 * @messages: (array length=n_messages) (transfer none): the messages, in order
 * @n_messages: the number of messages
 *
 * Replaces the conversation with @messages, such as a history read from
 * storage, in one [signal@Gio.ListModel::items-changed]. A reply in flight
 * is stopped first; the error is cleared and the usage, which is not part
 * of a history, starts again from zero.
 *
 * Since: 0.1
 */
void
akc_chat_restore (AkcChat            *self,
                  AkcMessage * const *messages,
                  guint               n_messages)
{
  g_return_if_fail (AKC_IS_CHAT (self));
  g_return_if_fail (messages != NULL || n_messages == 0);

  for (guint i = 0; i < n_messages; i++)
    g_return_if_fail (AKC_IS_MESSAGE (messages[i]));

  akc_chat_drop_turn (self);
  if (akc_chat_n_messages (self) > 0 || n_messages > 0)
    akc_chat_splice (self, 0, akc_chat_n_messages (self), (AkcMessage **) messages, n_messages);
  akc_chat_take_error (self, NULL);
  akc_chat_source_state_set_usage (&self->state, &(AkcUsage) { 0, 0, 0 });
  akc_chat_set_status (self, AKC_CHAT_STATUS_IDLE);
}

void
akc_chat_prepend_restored (AkcChat            *self,
                           AkcMessage * const *messages,
                           guint               n_messages)
{
  g_return_if_fail (AKC_IS_CHAT (self));
  g_return_if_fail (messages != NULL || n_messages == 0);

  for (guint i = 0; i < n_messages; i++)
    g_return_if_fail (AKC_IS_MESSAGE (messages[i]));

  if (n_messages > 0)
    akc_chat_splice (self, 0, 0, (AkcMessage **) messages, n_messages);
}

/**
 * akc_chat_delete_message:
 * @self: a #AkcChat
 * @message_id: the id of the message to delete
 * @position: (out) (optional): where the message was, for
 *   [method@Chat.insert_message] to put it back
 * @error: return location for a #GError
 *
 * Deletes one message of the conversation, whatever its author, and
 * leaves the others as they are: a person's "delete this message". An
 * [class@ChatHistory] of the chat deletes it from the history too. A
 * hidden message ([method@Chat.hide_message]) is deleted the same way:
 * that is how its deletion becomes final.
 *
 * To undo it, keep a reference to the message before and give it back
 * to [method@Chat.insert_message] with @position.
 *
 * Fails with %AKC_CHAT_ERROR_BUSY while a reply streams and with
 * %AKC_CHAT_ERROR_NO_TARGET when there is no message @message_id; then
 * nothing changes.
 *
 * Returns: %TRUE if the message was deleted
 *
 * Since: 0.1
 */
gboolean
akc_chat_delete_message (AkcChat     *self,
                         const char  *message_id,
                         guint       *position,
                         GError     **error)
{
  guint at;

  g_return_val_if_fail (AKC_IS_CHAT (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (!akc_chat_find_message (self, message_id, &at))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("That message is no longer in the conversation."));
      return FALSE;
    }

  akc_chat_splice (self, at, 1, NULL, 0);
  if (position != NULL)
    *position = at;

  return TRUE;
}

/**
 * akc_chat_insert_message:
 * @self: a #AkcChat
 * @position: where the message goes, from 0 to the number of messages
 * @message: the message
 * @error: return location for a #GError
 *
 * Puts @message into the conversation at @position: a message deleted
 * with [method@Chat.delete_message] comes back where it was. An
 * [class@ChatHistory] of the chat stores it again.
 *
 * Fails with %AKC_CHAT_ERROR_BUSY while a reply streams and with
 * %AKC_CHAT_ERROR_NO_TARGET when @position is past the end or a message
 * with the same id is in the conversation already; then nothing changes.
 *
 * Returns: %TRUE if the message was inserted
 *
 * Since: 0.1
 */
gboolean
akc_chat_insert_message (AkcChat     *self,
                         guint        position,
                         AkcMessage  *message,
                         GError     **error)
{
  guint existing;

  g_return_val_if_fail (AKC_IS_CHAT (self), FALSE);
  g_return_val_if_fail (AKC_IS_MESSAGE (message), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (position > akc_chat_n_messages (self) ||
      akc_chat_find_message (self, akc_message_get_id (message), &existing))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("The message cannot be put back there."));
      return FALSE;
    }

  akc_chat_splice (self, position, 0, &message, 1);

  return TRUE;
}

/**
 * akc_chat_hide_message:
 * @self: a #AkcChat
 * @message_id: the id of the message to hide
 * @error: return location for a #GError
 *
 * Deletes a message the way a person does when an undo is offered: the
 * message leaves what the conversation shows at once (a view leaves it
 * out while [method@Chat.get_message_hidden] says so) but stays in the
 * conversation, and in its [class@ChatHistory], until
 * [method@Chat.delete_message] deletes it for good or
 * [method@Chat.unhide_message] brings it back. A process that ends in
 * between (a crash) keeps the message.
 *
 * The conversation going on deletes the hidden messages for good first:
 * a send, a retry, an edit, a regeneration or a tool continuation never
 * shows them to the model, and their targets are the messages shown.
 * [method@ChatSource.clear] and [method@Chat.restore] drop them with the
 * others.
 *
 * Fails with %AKC_CHAT_ERROR_BUSY while a reply streams and with
 * %AKC_CHAT_ERROR_NO_TARGET when there is no message @message_id or it is
 * hidden already; then nothing changes.
 *
 * Returns: %TRUE if the message was hidden
 *
 * Since: 0.1
 */
gboolean
akc_chat_hide_message (AkcChat     *self,
                       const char  *message_id,
                       GError     **error)
{
  AkcMessage *message;
  guint at;

  g_return_val_if_fail (AKC_IS_CHAT (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!akc_chat_check_idle (self, error))
    return FALSE;

  if (!akc_chat_find_message (self, message_id, &at) ||
      g_ptr_array_find (self->hidden, akc_chat_message_at (self, at), NULL))
    {
      g_set_error_literal (error, AKC_CHAT_ERROR, AKC_CHAT_ERROR_NO_TARGET,
                           _("That message is no longer in the conversation."));
      return FALSE;
    }

  message = akc_chat_message_at (self, at);
  g_ptr_array_add (self->hidden, g_object_ref (message));
  g_signal_emit (self, signals[HIDDEN_CHANGED], 0, message);

  return TRUE;
}

/**
 * akc_chat_unhide_message:
 * @self: a #AkcChat
 * @message_id: the id of a hidden message
 *
 * Shows a message hidden with [method@Chat.hide_message] again, where it
 * was: the undo of a deletion.
 *
 * Returns: %TRUE if the message was hidden, %FALSE when it is not (or no
 *   longer) in the conversation, or was not hidden
 *
 * Since: 0.1
 */
gboolean
akc_chat_unhide_message (AkcChat    *self,
                         const char *message_id)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), FALSE);
  g_return_val_if_fail (message_id != NULL, FALSE);

  for (guint i = 0; i < self->hidden->len; i++)
    {
      g_autoptr(AkcMessage) message = g_object_ref (g_ptr_array_index (self->hidden, i));

      if (g_strcmp0 (akc_message_get_id (message), message_id) != 0)
        continue;

      g_ptr_array_remove_index (self->hidden, i);
      g_signal_emit (self, signals[HIDDEN_CHANGED], 0, message);
      return TRUE;
    }

  return FALSE;
}

/**
 * akc_chat_get_message_hidden:
 * @self: a #AkcChat
 * @message: a message
 *
 * Gets whether @message is a message of the conversation that
 * [method@Chat.hide_message] hid.
 *
 * Returns: %TRUE if @message is hidden
 *
 * Since: 0.1
 */
gboolean
akc_chat_get_message_hidden (AkcChat    *self,
                             AkcMessage *message)
{
  g_return_val_if_fail (AKC_IS_CHAT (self), FALSE);
  g_return_val_if_fail (AKC_IS_MESSAGE (message), FALSE);

  return g_ptr_array_find (self->hidden, message, NULL);
}

/**
 * akc_chat_delete_hidden_messages:
 * @self: a #AkcChat
 *
 * Deletes every hidden message for good ([method@Chat.delete_message]
 * each): the application quits cleanly, and the undo it offered goes with
 * it.
 *
 * Returns: how many messages were deleted
 *
 * Since: 0.1
 */
guint
akc_chat_delete_hidden_messages (AkcChat *self)
{
  guint n;

  g_return_val_if_fail (AKC_IS_CHAT (self), 0);

  n = self->hidden->len;
  akc_chat_settle_hidden (self);

  return n;
}

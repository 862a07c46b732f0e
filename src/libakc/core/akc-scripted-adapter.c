/* akc-scripted-adapter.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-message.h"
#include "akc-scripted-adapter.h"

/**
 * AkcScriptedAdapter:
 *
 * An adapter that plays a script: for demos, and for tests that drive
 * every path of a controller deterministically.
 *
 * The script is a queue of turns. Each call of [method@Adapter.stream]
 * takes the next turn and pushes its chunks in order, each after its own
 * delay in milliseconds (0: on the next main loop iteration; never inside
 * the call). A turn that ends without a done or error chunk keeps its
 * stream open until it is stopped, like a model that never answers. When
 * no turn is left, the stream fails with the code `SCRIPT_EXHAUSTED`.
 *
 * ```c
 * AkcAdapter *adapter = akc_scripted_adapter_new ();
 * AkcScriptedAdapter *script = AKC_SCRIPTED_ADAPTER (adapter);
 *
 * akc_scripted_adapter_begin_turn (script);
 * akc_scripted_adapter_add_text (script, "Hello", 0);
 * akc_scripted_adapter_add_tool_call (script, "call-1", "lookup", "{\"q\":\"x\"}", 0);
 * akc_scripted_adapter_add_usage (script, 3, 5, 8, 0);
 * akc_scripted_adapter_add_done (script, 0);
 * ```
 *
 * The adapter records every call: the messages it was given and the
 * content of the latest user message at that moment. With
 * [property@ScriptedAdapter:ignore-cancellation] it keeps pushing after its
 * stream was stopped, as a careless adapter would, and counts the chunks
 * the stream dropped.
 *
 * Since: 0.1
 */

#define EXHAUSTED_CODE "SCRIPT_EXHAUSTED"
#define EXHAUSTED_MESSAGE "The scripted adapter has no turn left."

typedef struct
{
  AkcChunk *chunk;
  guint     delay_ms;
} Step;

typedef struct
{
  AkcAdapterRequest *request;
  char              *input;
} Call;

typedef struct _Run Run;

struct _AkcScriptedAdapter
{
  GObject    parent_instance;

  /* GPtrArray of Step, one per scripted turn not yet played. */
  GQueue     turns;
  GPtrArray *calls;
  GPtrArray *runs;
  guint      n_dropped;
  gboolean   ignore_cancellation;
};

struct _Run
{
  AkcScriptedAdapter *adapter;
  AkcStream          *stream;
  GPtrArray          *steps;
  guint               index;
  guint               source_id;
  gulong              closed_handler;
  gboolean            pushing;
};

static void akc_scripted_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcScriptedAdapter, akc_scripted_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_scripted_adapter_iface_init))

enum {
  PROP_0,
  PROP_IGNORE_CANCELLATION,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
step_free (gpointer data)
{
  Step *step = data;

  akc_chunk_unref (step->chunk);
  g_free (step);
}

static void
call_free (gpointer data)
{
  Call *call = data;

  g_object_unref (call->request);
  g_free (call->input);
  g_free (call);
}

static void
run_free (gpointer data)
{
  Run *run = data;

  g_clear_handle_id (&run->source_id, g_source_remove);
  g_clear_signal_handler (&run->closed_handler, run->stream);
  g_clear_object (&run->stream);
  g_clear_pointer (&run->steps, g_ptr_array_unref);
  g_free (run);
}

static void
run_finish (Run *run)
{
  /* Frees @run. */
  g_ptr_array_remove_fast (run->adapter->runs, run);
}

static gboolean run_step (gpointer data);

static void
run_schedule (Run *run)
{
  Step *step;

  g_assert (run->source_id == 0);

  if (run->index >= run->steps->len)
    {
      /* The script is over; an unfinished turn waits to be stopped. */
      if (akc_stream_is_closed (run->stream) || run->adapter->ignore_cancellation)
        run_finish (run);
      return;
    }

  step = g_ptr_array_index (run->steps, run->index);
  run->source_id = g_timeout_add (step->delay_ms, run_step, run);
}

static gboolean
run_step (gpointer data)
{
  Run *run = data;
  Step *step = g_ptr_array_index (run->steps, run->index);
  g_autoptr(AkcStream) stream = g_object_ref (run->stream);

  run->source_id = 0;
  run->index++;

  /* A handler of the chunk may stop the stream; @run stays alive until
   * the push returns. */
  run->pushing = TRUE;
  if (!akc_stream_push (stream, step->chunk))
    run->adapter->n_dropped++;
  run->pushing = FALSE;

  if (akc_stream_is_closed (stream) && !run->adapter->ignore_cancellation)
    run_finish (run);
  else
    run_schedule (run);

  return G_SOURCE_REMOVE;
}

static void
on_stream_closed (Run        *run,
                  GParamSpec *pspec,
                  AkcStream  *stream)
{
  /* Stopped: an obedient adapter ends its work. A stream closed while a
   * chunk is pushed is finished by run_step(). */
  if (run->adapter->ignore_cancellation || run->pushing)
    return;

  run_finish (run);
}

static char *
latest_user_input (GListModel *messages)
{
  guint n = g_list_model_get_n_items (messages);

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_USER)
        return g_strdup (akc_message_get_content (message));
    }

  return NULL;
}

static void
akc_scripted_adapter_stream (AkcAdapter        *adapter,
                             AkcAdapterRequest *request,
                             AkcStream         *stream)
{
  AkcScriptedAdapter *self = AKC_SCRIPTED_ADAPTER (adapter);
  GPtrArray *steps;
  Call *call;
  Run *run;

  call = g_new0 (Call, 1);
  call->request = g_object_ref (request);
  call->input = latest_user_input (akc_adapter_request_get_messages (request));
  g_ptr_array_add (self->calls, call);

  steps = g_queue_pop_head (&self->turns);
  if (steps == NULL)
    {
      steps = g_ptr_array_new_with_free_func (step_free);
      g_ptr_array_add (steps, g_memdup2 (&(Step) { akc_chunk_new_error (EXHAUSTED_CODE, EXHAUSTED_MESSAGE), 0 },
                                         sizeof (Step)));
    }

  run = g_new0 (Run, 1);
  run->adapter = self;
  run->stream = g_object_ref (stream);
  run->steps = steps;
  run->closed_handler = g_signal_connect_swapped (stream, "notify::closed",
                                                  G_CALLBACK (on_stream_closed), run);
  g_ptr_array_add (self->runs, run);

  run_schedule (run);
}

static void
akc_scripted_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_scripted_adapter_stream;
}

static void
akc_scripted_adapter_dispose (GObject *object)
{
  AkcScriptedAdapter *self = (AkcScriptedAdapter *)object;

  g_ptr_array_set_size (self->runs, 0);

  G_OBJECT_CLASS (akc_scripted_adapter_parent_class)->dispose (object);
}

static void
akc_scripted_adapter_finalize (GObject *object)
{
  AkcScriptedAdapter *self = (AkcScriptedAdapter *)object;

  g_queue_clear_full (&self->turns, (GDestroyNotify) g_ptr_array_unref);
  g_clear_pointer (&self->calls, g_ptr_array_unref);
  g_clear_pointer (&self->runs, g_ptr_array_unref);

  G_OBJECT_CLASS (akc_scripted_adapter_parent_class)->finalize (object);
}

static void
akc_scripted_adapter_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AkcScriptedAdapter *self = AKC_SCRIPTED_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_IGNORE_CANCELLATION:
      g_value_set_boolean (value, self->ignore_cancellation);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_scripted_adapter_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AkcScriptedAdapter *self = AKC_SCRIPTED_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_IGNORE_CANCELLATION:
      akc_scripted_adapter_set_ignore_cancellation (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_scripted_adapter_class_init (AkcScriptedAdapterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_scripted_adapter_dispose;
  object_class->finalize = akc_scripted_adapter_finalize;
  object_class->get_property = akc_scripted_adapter_get_property;
  object_class->set_property = akc_scripted_adapter_set_property;

  /**
   * AkcScriptedAdapter:ignore-cancellation:
   *
   * Whether a turn keeps pushing its chunks after its stream was stopped.
   * The stream drops them; [method@ScriptedAdapter.get_n_dropped] counts
   * them.
   *
   * Since: 0.1
   */
  props[PROP_IGNORE_CANCELLATION] =
    g_param_spec_boolean ("ignore-cancellation", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_scripted_adapter_init (AkcScriptedAdapter *self)
{
  g_queue_init (&self->turns);
  self->calls = g_ptr_array_new_with_free_func (call_free);
  self->runs = g_ptr_array_new_with_free_func (run_free);
}

/**
 * akc_scripted_adapter_new:
 *
 * Creates a scripted adapter with an empty script.
 *
 * Returns: (transfer full): a new #AkcScriptedAdapter
 *
 * Since: 0.1
 */
AkcAdapter *
akc_scripted_adapter_new (void)
{
  return g_object_new (AKC_TYPE_SCRIPTED_ADAPTER, NULL);
}

/**
 * akc_scripted_adapter_begin_turn:
 * @self: a #AkcScriptedAdapter
 *
 * Starts a new turn at the end of the script. The `add` functions append
 * to it.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_begin_turn (AkcScriptedAdapter *self)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));

  g_queue_push_tail (&self->turns, g_ptr_array_new_with_free_func (step_free));
}

/**
 * akc_scripted_adapter_add_chunk:
 * @self: a #AkcScriptedAdapter
 * @chunk: the chunk
 * @delay_ms: how long to wait before pushing it, in milliseconds
 *
 * Appends a chunk to the last turn of the script, starting one if there
 * is none.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_add_chunk (AkcScriptedAdapter *self,
                                AkcChunk           *chunk,
                                guint               delay_ms)
{
  Step *step;

  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));
  g_return_if_fail (chunk != NULL);

  if (g_queue_is_empty (&self->turns))
    akc_scripted_adapter_begin_turn (self);

  step = g_new0 (Step, 1);
  step->chunk = akc_chunk_ref (chunk);
  step->delay_ms = delay_ms;
  g_ptr_array_add (g_queue_peek_tail (&self->turns), step);
}

static void
add_owned (AkcScriptedAdapter *self,
           AkcChunk           *chunk,
           guint               delay_ms)
{
  g_autoptr(AkcChunk) owned = chunk;

  akc_scripted_adapter_add_chunk (self, owned, delay_ms);
}

/**
 * akc_scripted_adapter_add_text:
 * @self: a #AkcScriptedAdapter
 * @text: a piece of reply text
 * @delay_ms: how long to wait before pushing it, in milliseconds
 *
 * Appends a text chunk to the last turn.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_add_text (AkcScriptedAdapter *self,
                               const char         *text,
                               guint               delay_ms)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));
  g_return_if_fail (text != NULL);

  add_owned (self, akc_chunk_new_text (text, -1), delay_ms);
}

/**
 * akc_scripted_adapter_add_tool_call:
 * @self: a #AkcScriptedAdapter
 * @id: the tool call id
 * @name: the tool name
 * @arguments: (nullable): the arguments as JSON text, or %NULL for `{}`
 * @delay_ms: how long to wait before pushing it, in milliseconds
 *
 * Appends a tool-call chunk to the last turn.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_add_tool_call (AkcScriptedAdapter *self,
                                    const char         *id,
                                    const char         *name,
                                    const char         *arguments,
                                    guint               delay_ms)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (name != NULL);

  add_owned (self, akc_chunk_new_tool_call (id, name, arguments), delay_ms);
}

/**
 * akc_scripted_adapter_add_usage:
 * @self: a #AkcScriptedAdapter
 * @prompt_tokens: tokens the model read
 * @completion_tokens: tokens the model wrote
 * @total_tokens: tokens billed in all
 * @delay_ms: how long to wait before pushing it, in milliseconds
 *
 * Appends a usage metadata chunk to the last turn.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_add_usage (AkcScriptedAdapter *self,
                                guint64             prompt_tokens,
                                guint64             completion_tokens,
                                guint64             total_tokens,
                                guint               delay_ms)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));

  add_owned (self, akc_chunk_new_usage (prompt_tokens, completion_tokens, total_tokens), delay_ms);
}

/**
 * akc_scripted_adapter_add_done:
 * @self: a #AkcScriptedAdapter
 * @delay_ms: how long to wait before pushing it, in milliseconds
 *
 * Ends the last turn successfully.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_add_done (AkcScriptedAdapter *self,
                               guint               delay_ms)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));

  add_owned (self, akc_chunk_new_done (), delay_ms);
}

/**
 * akc_scripted_adapter_add_error:
 * @self: a #AkcScriptedAdapter
 * @code: (nullable): a stable error code
 * @message: the error message
 * @delay_ms: how long to wait before pushing it, in milliseconds
 *
 * Ends the last turn with an error.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_add_error (AkcScriptedAdapter *self,
                                const char         *code,
                                const char         *message,
                                guint               delay_ms)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));
  g_return_if_fail (message != NULL);

  add_owned (self, akc_chunk_new_error (code, message), delay_ms);
}

/**
 * akc_scripted_adapter_get_n_pending_turns:
 * @self: a #AkcScriptedAdapter
 *
 * Gets how many scripted turns were not played yet.
 *
 * Returns: the number of turns left
 *
 * Since: 0.1
 */
guint
akc_scripted_adapter_get_n_pending_turns (AkcScriptedAdapter *self)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), 0);

  return g_queue_get_length (&self->turns);
}

/**
 * akc_scripted_adapter_get_n_calls:
 * @self: a #AkcScriptedAdapter
 *
 * Gets how many times the adapter was asked for a turn.
 *
 * Returns: the number of calls
 *
 * Since: 0.1
 */
guint
akc_scripted_adapter_get_n_calls (AkcScriptedAdapter *self)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), 0);

  return self->calls->len;
}

/**
 * akc_scripted_adapter_get_call_messages:
 * @self: a #AkcScriptedAdapter
 * @call: the index of a call, from 0
 *
 * Gets the messages the adapter was given on a call. The messages are the
 * live objects: their content is what it is now.
 *
 * Returns: (transfer none): a #GListModel of [class@Message]
 *
 * Since: 0.1
 */
GListModel *
akc_scripted_adapter_get_call_messages (AkcScriptedAdapter *self,
                                        guint               call)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), NULL);
  g_return_val_if_fail (call < self->calls->len, NULL);

  return akc_adapter_request_get_messages (((Call *) g_ptr_array_index (self->calls, call))->request);
}

/**
 * akc_scripted_adapter_get_call_request:
 * @self: a #AkcScriptedAdapter
 * @call: the index of a call, from 0
 *
 * Gets the request the adapter was given on a call.
 *
 * Returns: (transfer none): the request
 *
 * Since: 0.1
 */
AkcAdapterRequest *
akc_scripted_adapter_get_call_request (AkcScriptedAdapter *self,
                                       guint               call)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), NULL);
  g_return_val_if_fail (call < self->calls->len, NULL);

  return ((Call *) g_ptr_array_index (self->calls, call))->request;
}

/**
 * akc_scripted_adapter_get_call_input:
 * @self: a #AkcScriptedAdapter
 * @call: the index of a call, from 0
 *
 * Gets the content the latest user message had when the call was made.
 *
 * Returns: (transfer none) (nullable): the content, or %NULL when there was
 *   no user message
 *
 * Since: 0.1
 */
const char *
akc_scripted_adapter_get_call_input (AkcScriptedAdapter *self,
                                     guint               call)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), NULL);
  g_return_val_if_fail (call < self->calls->len, NULL);

  return ((Call *) g_ptr_array_index (self->calls, call))->input;
}

/**
 * akc_scripted_adapter_get_ignore_cancellation:
 * @self: a #AkcScriptedAdapter
 *
 * Gets whether turns keep pushing after their stream was stopped.
 *
 * Returns: %TRUE if cancellation is ignored
 *
 * Since: 0.1
 */
gboolean
akc_scripted_adapter_get_ignore_cancellation (AkcScriptedAdapter *self)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), FALSE);

  return self->ignore_cancellation;
}

/**
 * akc_scripted_adapter_set_ignore_cancellation:
 * @self: a #AkcScriptedAdapter
 * @ignore_cancellation: whether to keep pushing after a stop
 *
 * Sets whether turns keep pushing after their stream was stopped.
 *
 * Since: 0.1
 */
void
akc_scripted_adapter_set_ignore_cancellation (AkcScriptedAdapter *self,
                                              gboolean            ignore_cancellation)
{
  g_return_if_fail (AKC_IS_SCRIPTED_ADAPTER (self));

  ignore_cancellation = !!ignore_cancellation;
  if (self->ignore_cancellation == ignore_cancellation)
    return;

  self->ignore_cancellation = ignore_cancellation;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_IGNORE_CANCELLATION]);
}

/**
 * akc_scripted_adapter_get_n_dropped:
 * @self: a #AkcScriptedAdapter
 *
 * Gets how many chunks the streams refused because they were closed.
 *
 * Returns: the number of dropped chunks
 *
 * Since: 0.1
 */
guint
akc_scripted_adapter_get_n_dropped (AkcScriptedAdapter *self)
{
  g_return_val_if_fail (AKC_IS_SCRIPTED_ADAPTER (self), 0);

  return self->n_dropped;
}

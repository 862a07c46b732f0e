/* akc-server-script.c: an adapter that answers from a script file
 *
 * SPDX-License-Identifier: MIT
 *
 * The `"adapter": {"kind": "script", "file": …}` of a definition in
 * akc-server's configuration (README "akc-server"): a deterministic model
 * for tests and demonstrations. The file is
 *
 *   {"protocol": "agentskit.chat.server-script", "version": 1,
 *    "replies": [{"input"?: S, "chunks": [CHUNK, …]}, …]}
 *
 * A turn gets the first reply whose `input` equals the latest user
 * message (or whose `contains` is in it), or the reply without either
 * (there must be exactly one, the last). A CHUNK is one of
 *
 *   {"text": S, "repeat"?: N}            a text chunk (S N times)
 *   {"metadata": OBJECT}                 a metadata chunk (an Ask
 *                                        generator's usage:
 *                                        {"usage": {...}})
 *   {"part": PART}                       one record of ordered content
 *                                        (application.md §2.10), encoded
 *                                        when the file is read
 *   {"usage": {"promptTokens", "completionTokens", "totalTokens"}}
 *   {"error": {"code": S, "message": S}} ends the turn with an error
 *   {"waitForStop": true}                nothing more until the turn is
 *                                        stopped
 *
 * each with an optional `"delayMs"` (0–60000) before it. After the last
 * chunk the turn is done, unless it ended with an error or waits.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "akc-server-script.h"
#include "akc-server-util.h"

typedef enum
{
  STEP_TEXT,
  STEP_METADATA,
  STEP_USAGE,
  STEP_ERROR,
  STEP_WAIT,
} StepKind;

typedef struct
{
  StepKind kind;
  guint    delay_ms;
  char    *text;      /* STEP_TEXT: the chunk; STEP_ERROR: the message */
  gsize    length;
  char    *code;      /* STEP_ERROR */
  guint64  usage[3];
} Step;

typedef struct
{
  char   *input;      /* NULL: the default reply */
  char   *contains;
  GArray *steps;      /* Step */
} Reply;

struct _AkcServerScript
{
  GObject    parent_instance;

  GPtrArray *replies;
};

static void akc_server_script_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcServerScript, akc_server_script, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_server_script_iface_init))

static void
step_clear (gpointer data)
{
  Step *step = data;

  g_free (step->text);
  g_free (step->code);
}

static void
reply_free (gpointer data)
{
  Reply *reply = data;

  g_free (reply->input);
  g_free (reply->contains);
  g_array_unref (reply->steps);
  g_free (reply);
}

/* A turn in flight. */
typedef struct
{
  AkcStream *stream;
  Reply     *reply;   /* owned by the script, which the turn keeps */
  GObject   *script;
  guint      next;
} Turn;

static void
turn_free (gpointer data)
{
  Turn *turn = data;

  g_object_unref (turn->stream);
  g_object_unref (turn->script);
  g_free (turn);
}

static void turn_next (Turn *turn);

static gboolean
turn_tick (gpointer data)
{
  Turn *turn = data;
  Step *step = &g_array_index (turn->reply->steps, Step, turn->next);

  if (akc_stream_is_closed (turn->stream))
    {
      turn_free (turn);
      return G_SOURCE_REMOVE;
    }

  turn->next++;
  switch (step->kind)
    {
    case STEP_TEXT:
      {
        g_autoptr(AkcChunk) chunk = akc_chunk_new_text (step->text, step->length);

        akc_stream_push (turn->stream, chunk);
      }
      break;
    case STEP_METADATA:
      {
        g_autoptr(AkcChunk) chunk = akc_chunk_new_metadata (step->text);

        akc_stream_push (turn->stream, chunk);
      }
      break;
    case STEP_USAGE:
      {
        g_autoptr(AkcChunk) chunk = akc_chunk_new_usage (step->usage[0], step->usage[1], step->usage[2]);

        akc_stream_push (turn->stream, chunk);
      }
      break;
    case STEP_ERROR:
      akc_stream_fail (turn->stream, step->code, step->text);
      turn_free (turn);
      return G_SOURCE_REMOVE;
    case STEP_WAIT:
    default:
      /* the stream stays open until the chat stops it */
      turn_free (turn);
      return G_SOURCE_REMOVE;
    }

  turn_next (turn);
  return G_SOURCE_REMOVE;
}

static void
turn_next (Turn *turn)
{
  Step *step;

  if (turn->next >= turn->reply->steps->len)
    {
      if (!akc_stream_is_closed (turn->stream))
        akc_stream_finish (turn->stream);
      turn_free (turn);
      return;
    }

  step = &g_array_index (turn->reply->steps, Step, turn->next);
  if (step->delay_ms == 0)
    g_idle_add (turn_tick, turn);
  else
    g_timeout_add (step->delay_ms, turn_tick, turn);
}

static void
akc_server_script_stream (AkcAdapter        *adapter,
                          AkcAdapterRequest *request,
                          AkcStream         *stream)
{
  AkcServerScript *self = AKC_SERVER_SCRIPT (adapter);
  AkcMessage *latest = akc_adapter_request_get_latest_user_message (request);
  const char *input = latest != NULL ? akc_message_get_content (latest) : "";
  Reply *reply = NULL;
  Turn *turn;

  for (guint i = 0; i < self->replies->len && reply == NULL; i++)
    {
      Reply *candidate = g_ptr_array_index (self->replies, i);

      if ((candidate->input == NULL && candidate->contains == NULL) || g_strcmp0 (candidate->input, input) == 0 ||
          (candidate->contains != NULL && strstr (input, candidate->contains) != NULL))
        reply = candidate;
    }
  g_assert (reply != NULL);

  turn = g_new0 (Turn, 1);
  turn->stream = g_object_ref (stream);
  turn->script = g_object_ref (G_OBJECT (self));
  turn->reply = reply;
  turn_next (turn);
}

static void
akc_server_script_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_server_script_stream;
}

static void
akc_server_script_finalize (GObject *object)
{
  AkcServerScript *self = AKC_SERVER_SCRIPT (object);

  g_clear_pointer (&self->replies, g_ptr_array_unref);
  G_OBJECT_CLASS (akc_server_script_parent_class)->finalize (object);
}

static void
akc_server_script_class_init (AkcServerScriptClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_server_script_finalize;
}

static void
akc_server_script_init (AkcServerScript *self)
{
  self->replies = g_ptr_array_new_with_free_func (reply_free);
}

static gboolean
parse_step (AkcJsonValue                *value,
            const char                  *where,
            AkcAssistantContentEncoder  *encoder,
            Step                        *step,
            GError                     **error)
{
  static const char * const allowed[] = { "text", "part", "usage", "error", "waitForStop", "metadata", "delayMs",
                                          "repeat", NULL };
  AkcJsonValue *member;
  gint64 delay = 0;
  guint kinds = 0;

  if (!akc_server_check_object (value, where, allowed, NULL, error) ||
      !akc_server_get_integer (value, "delayMs", where, 0, 60000, &delay, error))
    return FALSE;
  step->delay_ms = (guint) delay;

  for (guint i = 0; i < 6; i++)
    kinds += akc_json_value_get_member (value, allowed[i]) != NULL;
  if (kinds != 1)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("%s must have exactly one of “text”, “part”, “usage”, “error”, “waitForStop” and “metadata”."),
                   where);
      return FALSE;
    }
  if (akc_json_value_get_member (value, "repeat") != NULL && akc_json_value_get_member (value, "text") == NULL)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("%s has “repeat” without “text”."), where);
      return FALSE;
    }

  if ((member = akc_json_value_get_member (value, "text")) != NULL)
    {
      const char *text;

      if (akc_json_value_get_kind (member) != AKC_JSON_KIND_STRING)
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("“text” of %s must be a string."), where);
          return FALSE;
        }
      gint64 repeat = 1;

      if (!akc_server_get_integer (value, "repeat", where, 1, 1000000, &repeat, error))
        return FALSE;
      text = akc_json_value_get_string (member, &step->length);
      step->kind = STEP_TEXT;
      if (repeat == 1)
        step->text = g_memdup2 (text, step->length + 1);
      else
        {
          GString *repeated = g_string_sized_new (step->length * repeat);

          for (gint64 i = 0; i < repeat; i++)
            g_string_append_len (repeated, text, step->length);
          step->length = repeated->len;
          step->text = g_string_free (repeated, FALSE);
        }
    }
  else if ((member = akc_json_value_get_member (value, "metadata")) != NULL)
    {
      if (akc_json_value_get_kind (member) != AKC_JSON_KIND_OBJECT)
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("“metadata” of %s must be an object."), where);
          return FALSE;
        }
      step->kind = STEP_METADATA;
      step->text = akc_json_value_to_canonical (member, &step->length);
    }
  else if ((member = akc_json_value_get_member (value, "part")) != NULL)
    {
      g_autoptr(GError) local = NULL;

      step->kind = STEP_TEXT;
      step->text = akc_assistant_content_encoder_encode (encoder, member, &step->length, &local);
      if (step->text == NULL)
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("“part” of %s is not valid ordered content: %s"), where, local->message);
          return FALSE;
        }
    }
  else if ((member = akc_json_value_get_member (value, "usage")) != NULL)
    {
      static const char * const names[] = { "promptTokens", "completionTokens", "totalTokens", NULL };
      g_autofree char *in = g_strdup_printf (_("“usage” of %s"), where);

      step->kind = STEP_USAGE;
      if (!akc_server_check_object (member, in, names, names, error))
        return FALSE;
      for (guint i = 0; i < 3; i++)
        {
          gint64 n = 0;

          if (!akc_server_get_integer (member, names[i], in, 0, G_MAXINT32, &n, error))
            return FALSE;
          step->usage[i] = (guint64) n;
        }
    }
  else if ((member = akc_json_value_get_member (value, "error")) != NULL)
    {
      static const char * const names[] = { "code", "message", NULL };
      g_autofree char *in = g_strdup_printf (_("“error” of %s"), where);
      const char *code, *message;

      step->kind = STEP_ERROR;
      if (!akc_server_check_object (member, in, names, names, error) ||
          (code = akc_server_get_string (member, "code", in, FALSE, error)) == NULL ||
          (message = akc_server_get_string (member, "message", in, FALSE, error)) == NULL)
        return FALSE;
      step->code = g_strdup (code);
      step->text = g_strdup (message);
    }
  else
    {
      member = akc_json_value_get_member (value, "waitForStop");
      if (akc_json_value_get_kind (member) != AKC_JSON_KIND_BOOLEAN || !akc_json_value_get_boolean (member))
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("“waitForStop” of %s must be true."), where);
          return FALSE;
        }
      step->kind = STEP_WAIT;
    }
  return TRUE;
}

AkcAdapter *
akc_server_script_new_from_value (AkcJsonValue  *script,
                                  const char    *where,
                                  GError       **error)
{
  static const char * const allowed[] = { "protocol", "version", "replies", NULL };
  static const char * const reply_allowed[] = { "input", "contains", "chunks", NULL };
  static const char * const reply_required[] = { "chunks", NULL };
  g_autoptr(AkcServerScript) self = g_object_new (AKC_TYPE_SERVER_SCRIPT, NULL);
  AkcJsonValue *replies;
  const char *protocol;
  gint64 version = 0;

  if (!akc_server_check_object (script, where, allowed, allowed, error) ||
      (protocol = akc_server_get_string (script, "protocol", where, FALSE, error)) == NULL ||
      !akc_server_get_integer (script, "version", where, 1, 1, &version, error) ||
      !akc_server_get_array (script, "replies", where, &replies, error))
    return NULL;
  if (strcmp (protocol, "agentskit.chat.server-script") != 0)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("%s is not an akc-server script (protocol “agentskit.chat.server-script”)."), where);
      return NULL;
    }

  for (gsize i = 0; i < akc_json_value_get_length (replies); i++)
    {
      AkcJsonValue *value = akc_json_value_get_element (replies, i);
      g_autofree char *in = g_strdup_printf (_("reply %u of %s"), (guint) i + 1, where);
      g_autoptr(AkcAssistantContentEncoder) encoder = akc_assistant_content_encoder_new (TRUE);
      AkcJsonValue *chunks;
      const char *input, *contains;
      Reply *reply;

      if (!akc_server_check_object (value, in, reply_allowed, reply_required, error) ||
          !akc_server_get_array (value, "chunks", in, &chunks, error))
        return NULL;
      input = akc_server_get_string (value, "input", in, TRUE, error);
      if (input == NULL && akc_json_value_get_member (value, "input") != NULL)
        return NULL;
      contains = akc_server_get_string (value, "contains", in, TRUE, error);
      if (contains == NULL && akc_json_value_get_member (value, "contains") != NULL)
        return NULL;
      if ((input != NULL && contains != NULL) ||
          ((input == NULL && contains == NULL) != (i + 1 == akc_json_value_get_length (replies))))
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("%s: each reply but the last has one of “input” and “contains”, the last has neither."),
                       where);
          return NULL;
        }

      reply = g_new0 (Reply, 1);
      reply->input = g_strdup (input);
      reply->contains = g_strdup (contains);
      reply->steps = g_array_new (FALSE, TRUE, sizeof (Step));
      g_array_set_clear_func (reply->steps, step_clear);
      g_ptr_array_add (self->replies, reply);

      for (gsize j = 0; j < akc_json_value_get_length (chunks); j++)
        {
          g_autofree char *chunk_where = g_strdup_printf (_("chunk %u of %s"), (guint) j + 1, in);
          Step step = { 0, };

          if (!parse_step (akc_json_value_get_element (chunks, j), chunk_where, encoder, &step, error))
            {
              step_clear (&step);
              return NULL;
            }
          g_array_append_val (reply->steps, step);
        }
    }

  if (self->replies->len == 0)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("%s has no reply."), where);
      return NULL;
    }

  return AKC_ADAPTER (g_steal_pointer (&self));
}

AkcAdapter *
akc_server_script_new_from_file (const char  *path,
                                 GError     **error)
{
  g_autoptr(AkcJsonValue) script = akc_server_read_json (path, error);
  g_autofree char *name = NULL;

  if (script == NULL)
    return NULL;
  name = g_filename_display_name (path);
  return akc_server_script_new_from_value (script, name, error);
}

/* akc-replay-fixture.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>

#include "akc-component-text.h"
#include "akc-message.h"
#include "akc-json-private.h"
#include "akc-replay-fixture.h"
#include "akc-text-private.h"
#include "akc-trace-capture-private.h"

/**
 * AkcReplayFixture:
 *
 * A recorded conversation (application.md §10.2): the `agentskit.chat.replay`
 * v1 envelope around an upstream cassette and the trace records of the
 * conversation.
 *
 * ```json
 * {
 *   "protocol": "agentskit.chat.replay",
 *   "version": 1,
 *   "cassette": {
 *     "version": 1,
 *     "entries": [
 *       { "request": { "messages": [ { "role": "user", "content": "open support",
 *                                      "createdAt": "1970-01-01T00:00:00.000Z" } ] },
 *         "chunks": [ { "type": "text", "content": "…" }, { "type": "done" } ] }
 *     ]
 *   },
 *   "traces": [ … ]
 * }
 * ```
 *
 * Each cassette entry is one turn: the messages the adapter was given and
 * the chunks it answered with. [class@ReplayAdapter] plays the entries
 * back. Reading is strict: a text over 16 MiB is refused before it is
 * parsed; the envelope has exactly its four members; traces number at most
 * 10,000, each a strict record whose sequence is its index, with unique
 * ids and parents that come earlier; the cassette has version 1, an
 * optional `seed` (a string or a finite number) and `metadata` (an
 * object), and entries whose messages have a string `content` and a
 * date-time `createdAt` and whose chunks have a string `type`. Unknown
 * members inside the cassette are kept as they are.
 *
 * A fixture is immutable. [method@ReplayFixture.serialize] writes it with
 * two-space indentation, as the reference does.
 *
 * Chunks are written as `{type: "text", content}`, `{type: "tool_call",
 * toolCall: {id, name, args}}`, `{type: "metadata", metadata}`, `{type:
 * "done"}` and `{type: "error", content, code?}`; a chunk's attached
 * metadata goes in a `metadata` member (see [method@Chunk.to_replay_json]).
 *
 * Since: 0.1
 */

struct _AkcReplayFixture
{
  gatomicrefcount  ref_count;
  AkcJsonValue    *cassette;
  GPtrArray       *traces;   /* AkcTraceRecord */
};

G_DEFINE_BOXED_TYPE (AkcReplayFixture, akc_replay_fixture, akc_replay_fixture_ref, akc_replay_fixture_unref)

#define ENVELOPE_INVALID "Replay fixture envelope is invalid."
#define CASSETTE_INVALID "Replay cassette is invalid."

static gboolean
member_is (const AkcJsonMember *m,
           const char          *name)
{
  return m->name_len == strlen (name) && memcmp (m->name, name, m->name_len) == 0;
}

static gboolean
is_plain_string (const AkcJsonValue *value)
{
  return AKC_JSON_IS_STRING (value) && strlen (AKC_JSON_STR (value)) == AKC_JSON_STR_LEN (value);
}

/* ------------------------------------------------------------------ */
/* Validation                                                          */
/* ------------------------------------------------------------------ */

static gboolean
message_is_valid (const AkcJsonValue *message)
{
  AkcJsonValue *content, *created_at;

  if (!AKC_JSON_IS_OBJECT (message))
    return FALSE;

  content = akc_json_value_get_member (message, "content");
  created_at = akc_json_value_get_member (message, "createdAt");

  return AKC_JSON_IS_STRING (content) &&
         AKC_JSON_IS_STRING (created_at) &&
         akc_text_is_date_time (AKC_JSON_STR (created_at), AKC_JSON_STR_LEN (created_at));
}

static gboolean
entry_is_valid (const AkcJsonValue *entry)
{
  AkcJsonValue *request, *messages, *chunks;

  if (!AKC_JSON_IS_OBJECT (entry))
    return FALSE;

  request = akc_json_value_get_member (entry, "request");
  chunks = akc_json_value_get_member (entry, "chunks");
  if (!AKC_JSON_IS_OBJECT (request) || !AKC_JSON_IS_ARRAY (chunks))
    return FALSE;

  messages = akc_json_value_get_member (request, "messages");
  if (!AKC_JSON_IS_ARRAY (messages))
    return FALSE;

  for (gsize i = 0; i < AKC_JSON_LEN (messages); i++)
    if (!message_is_valid (AKC_JSON_ELEMENT (messages, i)))
      return FALSE;

  for (gsize i = 0; i < AKC_JSON_LEN (chunks); i++)
    {
      AkcJsonValue *chunk = AKC_JSON_ELEMENT (chunks, i);

      if (!AKC_JSON_IS_OBJECT (chunk) || !AKC_JSON_IS_STRING (akc_json_value_get_member (chunk, "type")))
        return FALSE;
    }

  return TRUE;
}

static gboolean
validate_cassette (const AkcJsonValue  *cassette,
                   GError             **error)
{
  AkcJsonValue *version, *seed, *metadata, *entries;

  if (!AKC_JSON_IS_OBJECT (cassette))
    goto invalid;

  version = akc_json_value_get_member (cassette, "version");
  if (!AKC_JSON_IS_NUMBER (version))
    goto invalid;
  if (AKC_JSON_NUMBER (version) != 1)
    {
      char number[AKC_JSON_NUMBER_BUF_SIZE];

      akc_json_format_number (AKC_JSON_NUMBER (version), number);
      g_set_error (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_CASSETTE_VERSION,
                   "Unsupported cassette version: %s", number);
      return FALSE;
    }

  seed = akc_json_value_get_member (cassette, "seed");
  if (seed != NULL && !AKC_JSON_IS_STRING (seed) &&
      !(AKC_JSON_IS_NUMBER (seed) && isfinite (AKC_JSON_NUMBER (seed))))
    goto invalid;

  metadata = akc_json_value_get_member (cassette, "metadata");
  if (metadata != NULL && !AKC_JSON_IS_OBJECT (metadata))
    goto invalid;

  entries = akc_json_value_get_member (cassette, "entries");
  if (!AKC_JSON_IS_ARRAY (entries))
    goto invalid;
  for (gsize i = 0; i < AKC_JSON_LEN (entries); i++)
    if (!entry_is_valid (AKC_JSON_ELEMENT (entries, i)))
      goto invalid;

  return TRUE;

invalid:
  g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_CASSETTE_INVALID, CASSETTE_INVALID);
  return FALSE;
}

/* Sequences equal to their index, unique ids, parents that come earlier. */
static gboolean
traces_are_ordered (GPtrArray *traces)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < traces->len; i++)
    {
      AkcTraceRecord *record = g_ptr_array_index (traces, i);
      const char *id = akc_trace_record_get_id (record);
      const char *parent = akc_trace_record_get_parent_id (record);

      if (akc_trace_record_get_sequence (record) != i ||
          g_hash_table_contains (seen, id) ||
          (parent != NULL && !g_hash_table_contains (seen, parent)))
        return FALSE;

      g_hash_table_add (seen, (gpointer) id);
    }

  return TRUE;
}

static AkcReplayFixture *
fixture_new (AkcJsonValue *cassette,
             GPtrArray    *traces)
{
  AkcReplayFixture *self = g_new0 (AkcReplayFixture, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->cassette = akc_json_value_ref (cassette);
  self->traces = g_ptr_array_ref (traces);

  return self;
}

/**
 * akc_replay_fixture_parse: (constructor)
 * @text: the fixture text
 * @length: the length of @text in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #GError
 *
 * Reads a replay fixture (application.md §10.2): the size is checked
 * first (%AKC_TRACE_ERROR_TOO_LARGE, "Replay fixture exceeds 16 MiB."),
 * then the JSON, the envelope and its traces
 * (%AKC_TRACE_ERROR_ENVELOPE_INVALID), then the cassette
 * (%AKC_TRACE_ERROR_CASSETTE_VERSION, %AKC_TRACE_ERROR_CASSETTE_INVALID).
 *
 * Returns: (transfer full) (nullable): the fixture, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcReplayFixture *
akc_replay_fixture_parse (const char  *text,
                          gssize       length,
                          GError     **error)
{
  g_autoptr(AkcJsonValue) root = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  AkcJsonValue *protocol, *version, *cassette, *trace_list;
  gsize len;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  if (len > AKC_REPLAY_FIXTURE_MAX_BYTES)
    {
      g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_TOO_LARGE,
                           "Replay fixture exceeds 16 MiB.");
      return NULL;
    }

  root = akc_json_value_parse (text != NULL ? text : "", len, NULL);
  if (!AKC_JSON_IS_OBJECT (root))
    goto envelope_invalid;

  for (gsize i = 0; i < AKC_JSON_LEN (root); i++)
    {
      const AkcJsonMember *m = AKC_JSON_MEMBER (root, i);

      if (!member_is (m, "protocol") && !member_is (m, "version") &&
          !member_is (m, "cassette") && !member_is (m, "traces"))
        goto envelope_invalid;
    }

  protocol = akc_json_value_get_member (root, "protocol");
  version = akc_json_value_get_member (root, "version");
  cassette = akc_json_value_get_member (root, "cassette");
  trace_list = akc_json_value_get_member (root, "traces");
  if (!is_plain_string (protocol) || !g_str_equal (AKC_JSON_STR (protocol), "agentskit.chat.replay") ||
      !AKC_JSON_IS_NUMBER (version) || AKC_JSON_NUMBER (version) != 1 ||
      cassette == NULL ||
      !AKC_JSON_IS_ARRAY (trace_list) || AKC_JSON_LEN (trace_list) > AKC_REPLAY_FIXTURE_MAX_TRACES)
    goto envelope_invalid;

  traces = g_ptr_array_new_full (AKC_JSON_LEN (trace_list), (GDestroyNotify) akc_trace_record_unref);
  for (gsize i = 0; i < AKC_JSON_LEN (trace_list); i++)
    {
      AkcTraceRecord *record = akc_trace_record_new_from_json (AKC_JSON_ELEMENT (trace_list, i), NULL);

      if (record == NULL)
        goto envelope_invalid;
      g_ptr_array_add (traces, record);
    }
  if (!traces_are_ordered (traces))
    goto envelope_invalid;

  if (!validate_cassette (cassette, error))
    return NULL;

  return fixture_new (cassette, traces);

envelope_invalid:
  g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_ENVELOPE_INVALID, ENVELOPE_INVALID);
  return NULL;
}

/**
 * akc_replay_fixture_parse_utf8: (rename-to akc_replay_fixture_parse) (constructor)
 * @text: the fixture text
 * @error: return location for a #GError
 *
 * Does what akc_replay_fixture_parse() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the fixture, or %NULL with @error set
 *
 * Since: 0.1
 */
AkcReplayFixture *
akc_replay_fixture_parse_utf8 (const char  *text,
                               GError     **error)
{
  return akc_replay_fixture_parse (text, -1, error);
}

/**
 * akc_replay_fixture_new:
 * @cassette: the cassette, validated as [ctor@ReplayFixture.parse] does
 * @traces: (element-type AkcTraceRecord): the trace records, in order
 *   (a [method@TraceCapture.snapshot])
 * @error: return location for a #GError
 *
 * Makes a fixture to record a conversation.
 *
 * Returns: (transfer full) (nullable): the fixture, or %NULL with @error
 *   set when the cassette or the traces are not valid
 *
 * Since: 0.1
 */
AkcReplayFixture *
akc_replay_fixture_new (AkcJsonValue  *cassette,
                        GPtrArray     *traces,
                        GError       **error)
{
  g_autoptr(GPtrArray) copy = NULL;

  g_return_val_if_fail (cassette != NULL, NULL);
  g_return_val_if_fail (traces != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (traces->len > AKC_REPLAY_FIXTURE_MAX_TRACES || !traces_are_ordered (traces))
    {
      g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_ENVELOPE_INVALID, ENVELOPE_INVALID);
      return NULL;
    }
  if (!validate_cassette (cassette, error))
    return NULL;

  copy = g_ptr_array_new_full (traces->len, (GDestroyNotify) akc_trace_record_unref);
  for (guint i = 0; i < traces->len; i++)
    g_ptr_array_add (copy, akc_trace_record_ref (g_ptr_array_index (traces, i)));

  return fixture_new (cassette, copy);
}

static const char *
role_name (AkcMessageRole role)
{
  switch (role)
    {
    case AKC_MESSAGE_ROLE_SYSTEM:
      return "system";
    case AKC_MESSAGE_ROLE_ASSISTANT:
      return "assistant";
    case AKC_MESSAGE_ROLE_TOOL:
      return "tool";
    case AKC_MESSAGE_ROLE_USER:
    default:
      return "user";
    }
}

static void
write_message (AkcJsonWriter *w,
               AkcMessage    *message)
{
  GDateTime *created = akc_message_get_created_at (message);
  g_autofree char *at = akc_text_format_unix_ms (created != NULL ? g_date_time_to_unix (created) * 1000 +
                                                 g_date_time_get_microsecond (created) / 1000 : 0);

  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "id");
  akc_json_writer_string (w, akc_message_get_id (message), -1);
  akc_json_writer_member (w, "role");
  akc_json_writer_string (w, role_name (akc_message_get_role (message)), -1);
  akc_json_writer_member (w, "content");
  akc_json_writer_string (w, akc_message_get_content (message), akc_message_get_content_length (message));
  akc_json_writer_member (w, "createdAt");
  akc_json_writer_string (w, at, -1);
  akc_json_writer_end_object (w);
}

/**
 * akc_replay_fixture_new_from_messages:
 * @messages: a conversation's messages, a list of #AkcMessage
 * @capture: (nullable): the conversation's traces, and the fields to redact
 * @error: return location for a #GError
 *
 * Records a conversation as it was shown: one cassette entry per user
 * message, whose request is the conversation up to that message and whose
 * chunks are the assistant's reply after it (its whole text, then `done`,
 * or `error` for a failed reply; none for a reply that never came), and
 * the capture's records as traces. The cassette is redacted with the
 * capture's redact fields, as its records were.
 *
 * Returns: (transfer full) (nullable): the fixture, or %NULL with @error
 *   set when the conversation is too large for one
 *
 * Since: 0.1
 */
AkcReplayFixture *
akc_replay_fixture_new_from_messages (GListModel       *messages,
                                      AkcTraceCapture  *capture,
                                      GError          **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(AkcJsonValue) cassette = NULL;
  g_autoptr(AkcJsonValue) redacted = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  guint n;
  AkcJsonWriter w;

  g_return_val_if_fail (G_IS_LIST_MODEL (messages), NULL);
  g_return_val_if_fail (capture == NULL || AKC_IS_TRACE_CAPTURE (capture), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = g_list_model_get_n_items (messages);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, 1);
  akc_json_writer_member (&w, "entries");
  akc_json_writer_begin_array (&w);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      g_autoptr(AkcMessage) reply = NULL;

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_USER)
        continue;

      for (guint k = i + 1; k < n && reply == NULL; k++)
        {
          g_autoptr(AkcMessage) next = g_list_model_get_item (messages, k);

          if (akc_message_get_role (next) == AKC_MESSAGE_ROLE_USER)
            break;
          if (akc_message_get_role (next) == AKC_MESSAGE_ROLE_ASSISTANT)
            reply = g_steal_pointer (&next);
        }

      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "request");
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "messages");
      akc_json_writer_begin_array (&w);
      for (guint k = 0; k <= i; k++)
        {
          g_autoptr(AkcMessage) earlier = g_list_model_get_item (messages, k);

          write_message (&w, earlier);
        }
      akc_json_writer_end_array (&w);
      akc_json_writer_end_object (&w);
      akc_json_writer_member (&w, "chunks");
      akc_json_writer_begin_array (&w);
      if (reply != NULL && akc_message_get_content_length (reply) > 0)
        {
          akc_json_writer_begin_object (&w);
          akc_json_writer_member (&w, "type");
          akc_json_writer_string (&w, "text", -1);
          akc_json_writer_member (&w, "content");
          akc_json_writer_string (&w, akc_message_get_content (reply), akc_message_get_content_length (reply));
          akc_json_writer_end_object (&w);
        }
      if (reply != NULL)
        {
          gboolean failed = akc_message_get_status (reply) == AKC_MESSAGE_STATUS_ERROR;

          akc_json_writer_begin_object (&w);
          akc_json_writer_member (&w, "type");
          akc_json_writer_string (&w, failed ? "error" : "done", -1);
          if (failed)
            {
              akc_json_writer_member (&w, "content");
              akc_json_writer_string (&w, "", 0);
            }
          akc_json_writer_end_object (&w);
        }
      akc_json_writer_end_array (&w);
      akc_json_writer_end_object (&w);
    }
  akc_json_writer_end_array (&w);
  akc_json_writer_end_object (&w);

  if (out->len > AKC_REPLAY_FIXTURE_MAX_BYTES)
    {
      g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_TOO_LARGE,
                           "Replay fixture exceeds 16 MiB.");
      return NULL;
    }

  cassette = akc_json_value_parse (out->str, out->len, error);
  if (cassette == NULL)
    return NULL;

  if (capture != NULL)
    {
      redacted = akc_trace_capture_redact (capture, cassette);
      traces = akc_trace_capture_snapshot (capture);
      if (traces->len > AKC_REPLAY_FIXTURE_MAX_TRACES)
        g_ptr_array_remove_range (traces, AKC_REPLAY_FIXTURE_MAX_TRACES,
                                  traces->len - AKC_REPLAY_FIXTURE_MAX_TRACES);
    }
  else
    {
      redacted = akc_json_value_ref (cassette);
      traces = g_ptr_array_new ();
    }

  return akc_replay_fixture_new (redacted, traces, error);
}

/**
 * akc_replay_fixture_ref:
 * @self: a fixture
 *
 * Takes a reference to @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcReplayFixture *
akc_replay_fixture_ref (AkcReplayFixture *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * akc_replay_fixture_unref:
 * @self: (transfer full): a fixture
 *
 * Drops a reference to @self.
 *
 * Since: 0.1
 */
void
akc_replay_fixture_unref (AkcReplayFixture *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  akc_json_value_unref (self->cassette);
  g_ptr_array_unref (self->traces);
  g_free (self);
}

/**
 * akc_replay_fixture_serialize:
 * @self: a fixture
 *
 * Writes @self as JSON with two-space indentation, members in the order
 * `protocol`, `version`, `cassette`, `traces`, without a final newline.
 *
 * Returns: (transfer full): the fixture text
 *
 * Since: 0.1
 */
char *
akc_replay_fixture_serialize (AkcReplayFixture *self)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(AkcJsonValue) value = NULL;
  AkcJsonWriter w;

  g_return_val_if_fail (self != NULL, NULL);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "protocol");
  akc_json_writer_string (&w, "agentskit.chat.replay", -1);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, 1);
  akc_json_writer_member (&w, "cassette");
  akc_json_writer_value (&w, self->cassette);
  akc_json_writer_member (&w, "traces");
  akc_json_writer_begin_array (&w);
  for (guint i = 0; i < self->traces->len; i++)
    akc_trace_record_write (g_ptr_array_index (self->traces, i), &w);
  akc_json_writer_end_array (&w);
  akc_json_writer_end_object (&w);

  value = akc_json_value_parse (out->str, out->len, NULL);
  g_assert (value != NULL);

  return akc_component_dup_pretty_json (value);
}

/**
 * akc_replay_fixture_get_cassette:
 * @self: a fixture
 *
 * Gets the cassette of @self, as it was read.
 *
 * Returns: (transfer none): the cassette
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_replay_fixture_get_cassette (AkcReplayFixture *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->cassette;
}

/**
 * akc_replay_fixture_get_traces:
 * @self: a fixture
 *
 * Gets the trace records of @self, in order.
 *
 * Returns: (transfer none) (element-type AkcTraceRecord): the records
 *
 * Since: 0.1
 */
GPtrArray *
akc_replay_fixture_get_traces (AkcReplayFixture *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->traces;
}

static AkcJsonValue *
entry_at (AkcReplayFixture *self,
          guint             index_)
{
  AkcJsonValue *entries = akc_json_value_get_member (self->cassette, "entries");

  return index_ < AKC_JSON_LEN (entries) ? AKC_JSON_ELEMENT (entries, index_) : NULL;
}

/**
 * akc_replay_fixture_get_n_entries:
 * @self: a fixture
 *
 * Gets how many turns the cassette of @self holds.
 *
 * Returns: the number of entries
 *
 * Since: 0.1
 */
guint
akc_replay_fixture_get_n_entries (AkcReplayFixture *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return AKC_JSON_LEN (akc_json_value_get_member (self->cassette, "entries"));
}

/**
 * akc_replay_fixture_get_entry_messages:
 * @self: a fixture
 * @index_: an entry's position
 *
 * Gets the messages the adapter was given for entry @index_.
 *
 * Returns: (transfer none) (nullable): the JSON array of messages, or
 *   %NULL when @index_ is past the last entry
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_replay_fixture_get_entry_messages (AkcReplayFixture *self,
                                       guint             index_)
{
  AkcJsonValue *entry;

  g_return_val_if_fail (self != NULL, NULL);

  entry = entry_at (self, index_);
  return entry != NULL ? akc_json_value_get_member (akc_json_value_get_member (entry, "request"), "messages") : NULL;
}

/**
 * akc_replay_fixture_get_entry_chunks:
 * @self: a fixture
 * @index_: an entry's position
 *
 * Gets the chunks recorded for entry @index_.
 *
 * Returns: (transfer none) (nullable): the JSON array of chunks, or %NULL
 *   when @index_ is past the last entry
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_replay_fixture_get_entry_chunks (AkcReplayFixture *self,
                                     guint             index_)
{
  AkcJsonValue *entry;

  g_return_val_if_fail (self != NULL, NULL);

  entry = entry_at (self, index_);
  return entry != NULL ? akc_json_value_get_member (entry, "chunks") : NULL;
}

/* ------------------------------------------------------------------ */
/* Chunks                                                              */
/* ------------------------------------------------------------------ */

/**
 * akc_chunk_to_replay_json:
 * @chunk: a chunk
 *
 * Writes @chunk as a cassette chunk: `{type: "text", content}`, `{type:
 * "tool_call", toolCall: {id, name, args}}`, `{type: "metadata",
 * metadata}`, `{type: "done"}` or `{type: "error", content, code?}`, with
 * the chunk's attached metadata in a `metadata` member.
 *
 * Returns: (transfer full): the chunk as JSON
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_chunk_to_replay_json (AkcChunk *chunk)
{
  g_autoptr(GString) out = g_string_new (NULL);
  AkcJsonValue *metadata;
  AkcJsonWriter w;
  gsize len = 0;
  const char *text;

  g_return_val_if_fail (chunk != NULL, NULL);

  metadata = akc_chunk_get_metadata (chunk);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "type");
  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &len);
      akc_json_writer_string (&w, "text", -1);
      akc_json_writer_member (&w, "content");
      akc_json_writer_string (&w, text, len);
      break;

    case AKC_CHUNK_TOOL_CALL:
      akc_json_writer_string (&w, "tool_call", -1);
      akc_json_writer_member (&w, "toolCall");
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      akc_json_writer_string (&w, akc_chunk_get_tool_call_id (chunk), -1);
      akc_json_writer_member (&w, "name");
      akc_json_writer_string (&w, akc_chunk_get_tool_name (chunk), -1);
      akc_json_writer_member (&w, "args");
      akc_json_writer_string (&w, akc_chunk_get_arguments (chunk) != NULL ? akc_chunk_get_arguments (chunk) : "{}", -1);
      akc_json_writer_end_object (&w);
      break;

    case AKC_CHUNK_METADATA:
      {
        g_autoptr(AkcJsonValue) value = NULL;

        text = akc_chunk_get_text (chunk, &len);
        value = akc_json_value_parse (text, len, NULL);
        akc_json_writer_string (&w, "metadata", -1);
        if (value != NULL && metadata == NULL)
          {
            akc_json_writer_member (&w, "metadata");
            akc_json_writer_value (&w, value);
          }
      }
      break;

    case AKC_CHUNK_DONE:
      akc_json_writer_string (&w, "done", -1);
      break;

    case AKC_CHUNK_ERROR:
    default:
      text = akc_chunk_get_text (chunk, &len);
      akc_json_writer_string (&w, "error", -1);
      akc_json_writer_member (&w, "content");
      akc_json_writer_string (&w, text != NULL ? text : "", text != NULL ? (gssize) len : 0);
      if (akc_chunk_get_error_code (chunk) != NULL)
        {
          akc_json_writer_member (&w, "code");
          akc_json_writer_string (&w, akc_chunk_get_error_code (chunk), -1);
        }
      break;
    }
  if (metadata != NULL)
    {
      akc_json_writer_member (&w, "metadata");
      akc_json_writer_value (&w, metadata);
    }
  akc_json_writer_end_object (&w);

  return akc_json_value_parse (out->str, out->len, NULL);
}

static const char *
optional_string (AkcJsonValue *object,
                 const char   *name,
                 gboolean     *ok)
{
  AkcJsonValue *value = akc_json_value_get_member (object, name);

  if (value == NULL)
    return NULL;
  if (!is_plain_string (value))
    {
      *ok = FALSE;
      return NULL;
    }

  return AKC_JSON_STR (value);
}

/**
 * akc_chunk_new_from_replay_json:
 * @value: a cassette chunk, as [method@Chunk.to_replay_json] writes them
 * @error: return location for a #GError
 *
 * Reads a cassette chunk back into a [struct@Chunk].
 *
 * Returns: (transfer full) (nullable): the chunk, or %NULL with @error set
 *   (%AKC_TRACE_ERROR_CASSETTE_INVALID) for a chunk type this library
 *   cannot play or a malformed chunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_from_replay_json (AkcJsonValue  *value,
                                GError       **error)
{
  g_autoptr(AkcChunk) chunk = NULL;
  AkcJsonValue *type, *content, *metadata;
  gboolean ok = TRUE;

  g_return_val_if_fail (value != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  type = akc_json_value_get_member (value, "type");
  if (!is_plain_string (type))
    goto invalid;

  content = akc_json_value_get_member (value, "content");
  metadata = akc_json_value_get_member (value, "metadata");
  if (metadata != NULL && !AKC_JSON_IS_OBJECT (metadata))
    goto invalid;

  if (g_str_equal (AKC_JSON_STR (type), "text"))
    {
      if (!AKC_JSON_IS_STRING (content))
        goto invalid;
      chunk = akc_chunk_new_text (AKC_JSON_STR (content), AKC_JSON_STR_LEN (content));
    }
  else if (g_str_equal (AKC_JSON_STR (type), "tool_call"))
    {
      AkcJsonValue *call = akc_json_value_get_member (value, "toolCall");
      const char *id, *name, *args;

      if (!AKC_JSON_IS_OBJECT (call))
        goto invalid;
      id = optional_string (call, "id", &ok);
      name = optional_string (call, "name", &ok);
      args = optional_string (call, "args", &ok);
      if (!ok || id == NULL || name == NULL)
        goto invalid;
      chunk = akc_chunk_new_tool_call (id, name, args != NULL ? args : "{}");
    }
  else if (g_str_equal (AKC_JSON_STR (type), "metadata"))
    {
      g_autofree char *text = NULL;
      gsize len = 0;

      if (metadata == NULL)
        goto invalid;
      text = akc_json_value_to_canonical (metadata, &len);
      return akc_chunk_new_metadata (text);
    }
  else if (g_str_equal (AKC_JSON_STR (type), "done"))
    {
      chunk = akc_chunk_new_done ();
    }
  else if (g_str_equal (AKC_JSON_STR (type), "error"))
    {
      const char *code = optional_string (value, "code", &ok);

      if (!ok || (content != NULL && !is_plain_string (content)))
        goto invalid;
      chunk = akc_chunk_new_error (code != NULL ? code : "REPLAY_ERROR",
                                   content != NULL ? AKC_JSON_STR (content) : "");
    }
  else
    {
      g_set_error (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_CASSETTE_INVALID,
                   "Replay chunks of type “%s” cannot be played.", AKC_JSON_STR (type));
      return NULL;
    }

  if (metadata != NULL)
    return akc_chunk_with_metadata (chunk, metadata);

  return g_steal_pointer (&chunk);

invalid:
  g_set_error_literal (error, AKC_TRACE_ERROR, AKC_TRACE_ERROR_CASSETTE_INVALID,
                       "Replay chunk is invalid.");
  return NULL;
}

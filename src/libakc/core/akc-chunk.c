/* akc-chunk.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-chunk.h"
#include "akc-json.h"
#include "akc-json-private.h"

/* Metadata longer than this is not read for usage. */
#define MAX_USAGE_METADATA_BYTES 65536

/**
 * AkcChunk:
 *
 * One piece of a streamed model turn, as an [iface@Adapter] yields it.
 *
 * A chunk is immutable. A text chunk holds a piece of the reply; a tool-call
 * chunk names a tool with its JSON arguments; a metadata chunk carries a
 * JSON object about the turn, such as its token usage; a done or error
 * chunk ends the turn. The text of an error chunk is its human-readable
 * message.
 *
 * Any chunk may also carry attached metadata, a JSON object about that
 * chunk ([method@Chunk.get_metadata]): the deterministic answer plane puts
 * the answer envelope of a reply on its text or done chunk this way.
 *
 * Token usage travels as metadata of the form
 * `{"usage":{"promptTokens":P,"completionTokens":C,"totalTokens":T}}`
 * ([ctor@Chunk.new_usage], [method@Chunk.get_usage]); the controller adds
 * up the usage of every metadata chunk of a conversation.
 *
 * Since: 0.1
 */

struct _AkcChunk
{
  gatomicrefcount  ref_count;
  AkcChunkKind     kind;
  char            *text;
  gsize            length;
  char            *tool_call_id;
  char            *tool_name;
  char            *arguments;
  char            *error_code;
  AkcJsonValue    *metadata;
};

G_DEFINE_BOXED_TYPE (AkcChunk, akc_chunk, akc_chunk_ref, akc_chunk_unref)

static AkcChunk *
akc_chunk_alloc (AkcChunkKind kind)
{
  AkcChunk *self = g_new0 (AkcChunk, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->kind = kind;

  return self;
}

/**
 * akc_chunk_new_text:
 * @text: a piece of reply text
 * @length: the length of @text in bytes, or -1 if it is nul-terminated
 *
 * Creates a text chunk. @text may hold U+0000 when @length is given.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_text (const char *text,
                    gssize      length)
{
  AkcChunk *self;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (text);

  self = akc_chunk_alloc (AKC_CHUNK_TEXT);
  self->text = g_malloc (length + 1);
  if (length > 0)
    memcpy (self->text, text, length);
  self->text[length] = '\0';
  self->length = length;

  return self;
}

/**
 * akc_chunk_new_text_utf8: (rename-to akc_chunk_new_text)
 * @text: a piece of reply text
 *
 * Does what akc_chunk_new_text() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_text_utf8 (const char *text)
{
  return akc_chunk_new_text (text, -1);
}

/**
 * akc_chunk_new_tool_call:
 * @id: the tool call id
 * @name: the tool name
 * @arguments: (nullable): the arguments as a JSON object text, or %NULL for `{}`
 *
 * Creates a tool-call chunk.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_tool_call (const char *id,
                         const char *name,
                         const char *arguments)
{
  AkcChunk *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = akc_chunk_alloc (AKC_CHUNK_TOOL_CALL);
  self->tool_call_id = g_strdup (id);
  self->tool_name = g_strdup (name);
  self->arguments = g_strdup (arguments != NULL ? arguments : "{}");

  return self;
}

/**
 * akc_chunk_new_metadata:
 * @metadata: the metadata as a JSON object text
 *
 * Creates a metadata chunk.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_metadata (const char *metadata)
{
  AkcChunk *self;

  g_return_val_if_fail (metadata != NULL, NULL);

  self = akc_chunk_alloc (AKC_CHUNK_METADATA);
  self->text = g_strdup (metadata);
  self->length = strlen (metadata);

  return self;
}

/**
 * akc_chunk_new_usage:
 * @prompt_tokens: tokens the model read
 * @completion_tokens: tokens the model wrote
 * @total_tokens: tokens billed in all
 *
 * Creates a metadata chunk that reports the token usage of a turn.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_usage (guint64 prompt_tokens,
                     guint64 completion_tokens,
                     guint64 total_tokens)
{
  g_autofree char *metadata = NULL;

  metadata = g_strdup_printf ("{\"usage\":{\"promptTokens\":%" G_GUINT64_FORMAT
                              ",\"completionTokens\":%" G_GUINT64_FORMAT
                              ",\"totalTokens\":%" G_GUINT64_FORMAT "}}",
                              prompt_tokens, completion_tokens, total_tokens);

  return akc_chunk_new_metadata (metadata);
}

/**
 * akc_chunk_new_done:
 *
 * Creates the chunk that ends a successful turn.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_done (void)
{
  return akc_chunk_alloc (AKC_CHUNK_DONE);
}

/**
 * akc_chunk_new_error:
 * @code: (nullable): a stable, machine-readable error code
 * @message: a message that is safe to show to the person
 *
 * Creates the chunk that ends a failed turn.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_new_error (const char *code,
                     const char *message)
{
  AkcChunk *self;

  g_return_val_if_fail (message != NULL, NULL);

  self = akc_chunk_alloc (AKC_CHUNK_ERROR);
  self->error_code = g_strdup (code);
  self->text = g_strdup (message);
  self->length = strlen (message);

  return self;
}

/**
 * akc_chunk_with_metadata:
 * @self: a #AkcChunk
 * @metadata: (nullable): a JSON object to attach, or %NULL to attach none
 *
 * Makes a copy of @self that carries @metadata in place of whatever
 * metadata @self carries. @self is not changed.
 *
 * Returns: (transfer full): a new #AkcChunk
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_with_metadata (AkcChunk     *self,
                         AkcJsonValue *metadata)
{
  AkcChunk *copy;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (metadata == NULL ||
                        akc_json_value_get_kind (metadata) == AKC_JSON_KIND_OBJECT, NULL);

  copy = akc_chunk_alloc (self->kind);
  if (self->text != NULL)
    {
      copy->text = g_malloc (self->length + 1);
      memcpy (copy->text, self->text, self->length + 1);
    }
  copy->length = self->length;
  copy->tool_call_id = g_strdup (self->tool_call_id);
  copy->tool_name = g_strdup (self->tool_name);
  copy->arguments = g_strdup (self->arguments);
  copy->error_code = g_strdup (self->error_code);
  copy->metadata = metadata != NULL ? akc_json_value_ref (metadata) : NULL;

  return copy;
}

/**
 * akc_chunk_get_metadata:
 * @self: a #AkcChunk
 *
 * Gets the metadata attached to @self with [method@Chunk.with_metadata].
 * This is not the JSON of a metadata chunk, which is its text.
 *
 * Returns: (transfer none) (nullable): the attached JSON object, or %NULL
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_chunk_get_metadata (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->metadata;
}

/**
 * akc_chunk_ref:
 * @self: a #AkcChunk
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcChunk *
akc_chunk_ref (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * akc_chunk_unref:
 * @self: (transfer full): a #AkcChunk
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_chunk_unref (AkcChunk *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->text);
  g_free (self->tool_call_id);
  g_free (self->tool_name);
  g_free (self->arguments);
  g_free (self->error_code);
  g_clear_pointer (&self->metadata, akc_json_value_unref);
  g_free (self);
}

/**
 * akc_chunk_get_kind:
 * @self: a #AkcChunk
 *
 * Gets what the chunk carries.
 *
 * Returns: the kind
 *
 * Since: 0.1
 */
AkcChunkKind
akc_chunk_get_kind (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, AKC_CHUNK_ERROR);

  return self->kind;
}

/**
 * akc_chunk_get_text:
 * @self: a #AkcChunk
 * @length: (out) (optional): the length in bytes
 *
 * Gets the text of a text chunk, the JSON of a metadata chunk, or the
 * message of an error chunk.
 *
 * Returns: (transfer none) (nullable): the text, or %NULL for other kinds
 *
 * Since: 0.1
 */
const char *
akc_chunk_get_text (AkcChunk *self,
                    gsize    *length)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (length != NULL)
    *length = self->length;

  return self->text;
}

/**
 * akc_chunk_get_text_utf8: (rename-to akc_chunk_get_text)
 * @self: a #AkcChunk
 *
 * Does what akc_chunk_get_text() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer none) (nullable): the text, or %NULL for other kinds
 *
 * Since: 0.1
 */
const char *
akc_chunk_get_text_utf8 (AkcChunk *self)
{
  return akc_chunk_get_text (self, NULL);
}

/**
 * akc_chunk_get_tool_call_id:
 * @self: a #AkcChunk
 *
 * Gets the id of a tool-call chunk.
 *
 * Returns: (transfer none) (nullable): the tool call id
 *
 * Since: 0.1
 */
const char *
akc_chunk_get_tool_call_id (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tool_call_id;
}

/**
 * akc_chunk_get_tool_name:
 * @self: a #AkcChunk
 *
 * Gets the tool name of a tool-call chunk.
 *
 * Returns: (transfer none) (nullable): the tool name
 *
 * Since: 0.1
 */
const char *
akc_chunk_get_tool_name (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tool_name;
}

/**
 * akc_chunk_get_arguments:
 * @self: a #AkcChunk
 *
 * Gets the JSON arguments of a tool-call chunk.
 *
 * Returns: (transfer none) (nullable): the arguments as JSON object text
 *
 * Since: 0.1
 */
const char *
akc_chunk_get_arguments (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->arguments;
}

/**
 * akc_chunk_get_error_code:
 * @self: a #AkcChunk
 *
 * Gets the machine-readable code of an error chunk.
 *
 * Returns: (transfer none) (nullable): the code
 *
 * Since: 0.1
 */
const char *
akc_chunk_get_error_code (AkcChunk *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->error_code;
}

/* A count is absent (0) or a non-negative safe integer. */
static gboolean
read_count (AkcJsonValue *usage,
            const char   *name,
            gboolean     *present,
            guint64      *count)
{
  AkcJsonValue *value = akc_json_value_get_member (usage, name);
  double number;

  *present = value != NULL;
  *count = 0;
  if (value == NULL)
    return TRUE;

  if (akc_json_value_get_kind (value) != AKC_JSON_KIND_NUMBER)
    return FALSE;

  number = akc_json_value_get_number (value);
  if (!(number >= 0 && number <= AKC_JSON_MAX_SAFE_INTEGER) || number != (double) (guint64) number)
    return FALSE;

  *count = (guint64) number;
  return TRUE;
}

/**
 * akc_chunk_get_usage:
 * @self: a #AkcChunk
 * @usage: (out caller-allocates): the usage
 *
 * Reads the token usage of a metadata chunk: the `usage` member of its
 * JSON object, whose `promptTokens`, `completionTokens` and `totalTokens`
 * are non-negative integers. An absent count is 0, and an absent
 * `totalTokens` is the sum of the other two.
 *
 * Returns: %TRUE if @self is a metadata chunk with a valid `usage`
 *
 * Since: 0.1
 */
gboolean
akc_chunk_get_usage (AkcChunk *self,
                     AkcUsage *usage)
{
  g_autoptr(AkcJsonValue) metadata = NULL;
  AkcJsonValue *object;
  gboolean has_prompt, has_completion, has_total;
  AkcUsage result;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (usage != NULL, FALSE);

  if (self->kind != AKC_CHUNK_METADATA || self->length > MAX_USAGE_METADATA_BYTES)
    return FALSE;

  metadata = akc_json_value_parse (self->text, self->length, NULL);
  if (metadata == NULL || akc_json_value_get_kind (metadata) != AKC_JSON_KIND_OBJECT)
    return FALSE;

  object = akc_json_value_get_member (metadata, "usage");
  if (object == NULL || akc_json_value_get_kind (object) != AKC_JSON_KIND_OBJECT)
    return FALSE;

  if (!read_count (object, "promptTokens", &has_prompt, &result.prompt_tokens) ||
      !read_count (object, "completionTokens", &has_completion, &result.completion_tokens) ||
      !read_count (object, "totalTokens", &has_total, &result.total_tokens))
    return FALSE;

  if (!has_total)
    result.total_tokens = result.prompt_tokens + result.completion_tokens;

  *usage = result;
  return TRUE;
}

/* akc-assistant-content.c: ordered assistant content (protocol §4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-assistant-content.h"
#include "akc-component-frame-private.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"
#include "akc-text-private.h"

/* The first 24 bytes of the prefix (§4.1 ROOT). */
#define ROOT_LENGTH 24

#define CODE_INVALID           "ASSISTANT_CONTENT_INVALID_RECORD"
#define CODE_UNSUPPORTED       "ASSISTANT_CONTENT_UNSUPPORTED_VERSION"
#define CODE_LIMIT             "ASSISTANT_CONTENT_LIMIT_EXCEEDED"
#define MESSAGE_ENVELOPE       "Assistant content envelope is invalid."
#define MESSAGE_UNSUPPORTED    "Assistant content envelope uses an unsupported version."
#define MESSAGE_SAFETY         "Assistant content envelope exceeds its safety limit."
#define MESSAGE_RECORDS        "Assistant content envelope exceeds its record limit."
#define MESSAGE_RECORD         "Assistant content record is invalid."

/* §4.2 part records (both open) */
static const AkcSchemaField text_part_fields[] = {
  { "kind", AKC_SCHEMA_LITERAL ("text") },
  { "text", AKC_SCHEMA_STRING (1, AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH) },
};
static const AkcSchemaTable text_part_table = AKC_SCHEMA_TABLE (text_part_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaField component_part_fields[] = {
  { "kind",  AKC_SCHEMA_LITERAL ("component") },
  { "frame", AKC_SCHEMA_OBJECT (&akc_component_frame_table) },
};
static const AkcSchemaTable component_part_table = AKC_SCHEMA_TABLE (component_part_fields, AKC_SCHEMA_OPEN);

static const AkcSchemaTable * const part_tables[] = { &text_part_table, &component_part_table, NULL };
static const AkcSchemaType part_type = AKC_SCHEMA_UNION ("kind", part_tables);

/* One complete record: JSON (whitespace around it allowed, §4.4 step 9)
 * that validates as a part. */
static AkcJsonValue *
decode_record (const char *data,
               gsize       len)
{
  g_autoptr(AkcJsonValue) value = akc_json_parse (data, len, NULL, NULL, NULL);
  AkcJsonValue *part = NULL;

  if (value == NULL || !akc_schema_validate (&part_type, value, NULL, &part))
    return NULL;

  return part;
}

/**
 * akc_assistant_content_is_candidate:
 * @text: a message content
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 *
 * Tells whether @text starts with U+001E, the mark of ordered assistant
 * content (`isAssistantContentCandidate`, [protocol §4.4](wire-formats.html#protocol-4)). Content that
 * is not a candidate is plain text, or a whole-message component frame.
 *
 * Returns: whether @text is ordered-content candidate
 *
 * Since: 0.1
 */
gboolean
akc_assistant_content_is_candidate (const char *text,
                                    gssize      length)
{
  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  if (length < 0)
    length = strlen (text);

  return length > 0 && text[0] == '\x1e';
}

/**
 * akc_assistant_content_is_candidate_utf8: (rename-to akc_assistant_content_is_candidate)
 * @text: a message content
 *
 * Does what akc_assistant_content_is_candidate() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: whether @text is ordered-content candidate
 *
 * Since: 0.1
 */
gboolean
akc_assistant_content_is_candidate_utf8 (const char *text)
{
  return akc_assistant_content_is_candidate (text, -1);
}

/**
 * akc_assistant_content_decode:
 * @text: a message content
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @complete: (out) (optional): return location for whether the content
 *   ends with a complete record
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Decodes a whole message content at once (`decodeAssistantContent`,
 * [protocol §4.4](wire-formats.html#protocol-4)); see [class@AssistantContentDecoder] for the rules and
 * for decoding content that grows while it streams.
 *
 * Returns: (transfer full) (nullable): a JSON array of the normalised
 *   parts in order, or %NULL with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_assistant_content_decode (const char     *text,
                              gssize          length,
                              gboolean       *complete,
                              AkcDiagnostic **diagnostic)
{
  g_autoptr(AkcAssistantContentDecoder) decoder = NULL;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (diagnostic == NULL || *diagnostic == NULL, NULL);

  decoder = akc_assistant_content_decoder_new ();
  if (!akc_assistant_content_decoder_append (decoder, text, length))
    {
      if (diagnostic != NULL)
        *diagnostic = akc_diagnostic_ref (akc_assistant_content_decoder_get_diagnostic (decoder));
      if (complete != NULL)
        *complete = FALSE;
      return NULL;
    }

  if (complete != NULL)
    *complete = akc_assistant_content_decoder_get_complete (decoder);

  return akc_assistant_content_decoder_dup_parts (decoder);
}

/**
 * akc_assistant_content_decode_utf8: (rename-to akc_assistant_content_decode)
 * @text: a message content
 * @complete: (out) (optional): return location for whether the content
 *   ends with a complete record
 * @diagnostic: (out) (optional) (nullable) (transfer full): return location
 *   for the diagnostic on failure
 *
 * Does what akc_assistant_content_decode() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): a JSON array of the normalised
 *   parts in order, or %NULL with @diagnostic set
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_assistant_content_decode_utf8 (const char     *text,
                                   gboolean       *complete,
                                   AkcDiagnostic **diagnostic)
{
  return akc_assistant_content_decode (text, -1, complete, diagnostic);
}

/* ------------------------------------------------------------------ */
/* Incremental decoder                                                 */
/* ------------------------------------------------------------------ */

/**
 * AkcAssistantContentDecoder:
 *
 * Decodes ordered assistant content (`decodeAssistantContent`,
 * [protocol §4.4](wire-formats.html#protocol-4)) while it grows: the message content is given piece
 * by piece with [method@AssistantContentDecoder.append], and after each
 * piece the decoder's state is exactly what decoding the whole content
 * received so far at once would give. Every byte is looked at once: a
 * complete record is parsed when its line feed arrives and never again.
 *
 * The rules, first match wins:
 *
 * 1. content that does not start with U+001E (the empty content included)
 *    is rejected with `ASSISTANT_CONTENT_INVALID_RECORD`, “Assistant
 *    content envelope is invalid.”;
 * 2. a proper prefix of U+001E `agentskit.chat.content/` is accepted, with
 *    no parts and not complete;
 * 3. content that does not start with that root is rejected as in 1;
 * 4. a prefix of the whole prefix U+001E `agentskit.chat.content/1` and a
 *    line feed, that prefix itself included,
 *    is accepted with no parts and not complete;
 * 5. content with another version is rejected with
 *    `ASSISTANT_CONTENT_UNSUPPORTED_VERSION`;
 * 6. more than %AKC_ASSISTANT_CONTENT_MAX_BYTES UTF-8 bytes in all is
 *    rejected with `ASSISTANT_CONTENT_LIMIT_EXCEEDED`, “… exceeds its
 *    safety limit.”;
 * 7. the records are the lines after the prefix; the content is complete
 *    when it ends with a line feed, and an unterminated last line is never
 *    parsed;
 * 8. more than %AKC_ASSISTANT_CONTENT_MAX_RECORDS complete records are
 *    rejected with `ASSISTANT_CONTENT_LIMIT_EXCEEDED`, “… exceeds its
 *    record limit.”;
 * 9. any complete record that is empty, not JSON, or not a valid text or
 *    component part rejects the whole content with
 *    `ASSISTANT_CONTENT_INVALID_RECORD`, “Assistant content record is
 *    invalid.”
 *
 * A rejection may change its code as more content arrives (a content with
 * a bad record that then grows past the byte limit reports the limit), but
 * rejected content never becomes valid again, except the empty content,
 * which the first U+001E makes valid.
 *
 * Since: 0.1
 */
struct _AkcAssistantContentDecoder
{
  GObject        parent_instance;

  gsize          length;          /* UTF-8 bytes received */
  guint          prefix_matched;  /* bytes of the prefix received */
  const char    *envelope_code;   /* steps 1, 3, 5 (final once set) */
  const char    *envelope_message;
  gsize          n_records;       /* complete records, saturating */
  gboolean       invalid_record;
  gboolean       complete;
  GPtrArray     *parts;
  GString       *partial;         /* the unterminated last record */
  AkcDiagnostic *diagnostic;      /* current result, nullable */
};

G_DEFINE_FINAL_TYPE (AkcAssistantContentDecoder, akc_assistant_content_decoder, G_TYPE_OBJECT)

static void
akc_assistant_content_decoder_finalize (GObject *object)
{
  AkcAssistantContentDecoder *self = AKC_ASSISTANT_CONTENT_DECODER (object);

  g_clear_pointer (&self->parts, g_ptr_array_unref);
  g_string_free (self->partial, TRUE);
  g_clear_pointer (&self->diagnostic, akc_diagnostic_unref);

  G_OBJECT_CLASS (akc_assistant_content_decoder_parent_class)->finalize (object);
}

static void
akc_assistant_content_decoder_class_init (AkcAssistantContentDecoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_assistant_content_decoder_finalize;
}

static void
update_diagnostic (AkcAssistantContentDecoder *self)
{
  const char *code = NULL;
  const char *message = NULL;

  if (self->length == 0)
    code = CODE_INVALID, message = MESSAGE_ENVELOPE;
  else if (self->envelope_code != NULL)
    code = self->envelope_code, message = self->envelope_message;
  else if (self->length > AKC_ASSISTANT_CONTENT_MAX_BYTES)
    code = CODE_LIMIT, message = MESSAGE_SAFETY;
  else if (self->n_records > AKC_ASSISTANT_CONTENT_MAX_RECORDS)
    code = CODE_LIMIT, message = MESSAGE_RECORDS;
  else if (self->invalid_record)
    code = CODE_INVALID, message = MESSAGE_RECORD;

  if (self->diagnostic != NULL && code != NULL &&
      strcmp (akc_diagnostic_get_message (self->diagnostic), message) == 0)
    return;

  g_clear_pointer (&self->diagnostic, akc_diagnostic_unref);
  if (code != NULL)
    self->diagnostic = akc_diagnostic_new (code, message, FALSE, NULL);

  /* Rejected non-empty content never becomes valid again: drop what it held. */
  if (code != NULL && self->parts->len > 0)
    g_ptr_array_set_size (self->parts, 0);
}

static void
akc_assistant_content_decoder_init (AkcAssistantContentDecoder *self)
{
  self->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  self->partial = g_string_new (NULL);
  update_diagnostic (self);
}

/**
 * akc_assistant_content_decoder_new:
 *
 * Creates a decoder for one message content. Before anything is appended
 * its state is that of the empty content, which is not ordered content.
 *
 * Returns: (transfer full): a new decoder
 *
 * Since: 0.1
 */
AkcAssistantContentDecoder *
akc_assistant_content_decoder_new (void)
{
  return g_object_new (AKC_TYPE_ASSISTANT_CONTENT_DECODER, NULL);
}

/**
 * akc_assistant_content_decoder_reset:
 * @self: a decoder
 *
 * Forgets everything appended, as for a new message.
 *
 * Since: 0.1
 */
void
akc_assistant_content_decoder_reset (AkcAssistantContentDecoder *self)
{
  g_return_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self));

  self->length = 0;
  self->prefix_matched = 0;
  self->envelope_code = NULL;
  self->envelope_message = NULL;
  self->n_records = 0;
  self->invalid_record = FALSE;
  self->complete = FALSE;
  g_ptr_array_set_size (self->parts, 0);
  g_string_truncate (self->partial, 0);
  update_diagnostic (self);
}

/* The decoder can still succeed if more arrives, so records matter. */
static inline gboolean
records_matter (AkcAssistantContentDecoder *self)
{
  return self->envelope_code == NULL && !self->invalid_record &&
         self->length <= AKC_ASSISTANT_CONTENT_MAX_BYTES &&
         self->n_records < AKC_ASSISTANT_CONTENT_MAX_RECORDS;
}

static void
append_body (AkcAssistantContentDecoder *self,
             const char                 *data,
             gsize                       len)
{
  const char *end = data + len;
  const char *lf;

  if (len == 0)
    return;

  self->complete = end[-1] == '\n';

  while ((lf = memchr (data, '\n', end - data)) != NULL)
    {
      if (records_matter (self))
        {
          AkcJsonValue *part;

          self->n_records++;
          if (self->partial->len > 0)
            {
              g_string_append_len (self->partial, data, lf - data);
              part = decode_record (self->partial->str, self->partial->len);
            }
          else
            part = decode_record (data, lf - data);

          if (part != NULL)
            g_ptr_array_add (self->parts, part);
          else
            self->invalid_record = TRUE;
        }
      else if (self->n_records <= AKC_ASSISTANT_CONTENT_MAX_RECORDS)
        self->n_records++;   /* only whether the limit is passed matters now */

      g_string_truncate (self->partial, 0);
      data = lf + 1;
    }

  if (records_matter (self))
    g_string_append_len (self->partial, data, end - data);
}

/**
 * akc_assistant_content_decoder_append:
 * @self: a decoder
 * @text: the next piece of
 *   the message content, UTF-8
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 *
 * Appends a piece of the message content and decodes what it completes.
 *
 * Each piece is taken as text on its own: invalid UTF-8 in it, including a
 * multi-byte character cut at its end, is replaced by U+FFFD ([protocol
 * §1.2](wire-formats.html#protocol-1)), and the byte limit counts the result. Append whole characters.
 *
 * Returns: %TRUE when the content so far is accepted (see
 *   [method@AssistantContentDecoder.get_diagnostic] otherwise)
 *
 * Since: 0.1
 */
gboolean
akc_assistant_content_decoder_append (AkcAssistantContentDecoder *self,
                                      const char                 *text,
                                      gssize                      length)
{
  g_autofree char *sanitized = NULL;
  const char *data;
  gsize len, i = 0;

  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), FALSE);
  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  if (length < 0)
    length = strlen (text);
  if (length == 0)
    return self->diagnostic == NULL;

  sanitized = akc_utf8_sanitize (text, (gsize) length, &len);
  data = sanitized != NULL ? sanitized : text;

  self->length = self->length + len < self->length ? G_MAXSIZE : self->length + len;

  if (self->envelope_code == NULL)
    {
      /* Steps 1–5: match the prefix byte by byte. */
      while (self->prefix_matched < AKC_ASSISTANT_CONTENT_PREFIX_LENGTH && i < len)
        {
          if (data[i] != AKC_ASSISTANT_CONTENT_PREFIX[self->prefix_matched])
            {
              if (self->prefix_matched < ROOT_LENGTH)
                {
                  self->envelope_code = CODE_INVALID;
                  self->envelope_message = MESSAGE_ENVELOPE;
                }
              else
                {
                  self->envelope_code = CODE_UNSUPPORTED;
                  self->envelope_message = MESSAGE_UNSUPPORTED;
                }
              break;
            }
          self->prefix_matched++;
          i++;
        }

      if (self->envelope_code == NULL &&
          self->length <= AKC_ASSISTANT_CONTENT_MAX_BYTES)
        append_body (self, data + i, len - i);
    }

  /* Nothing is needed any more once the content is over the byte limit. */
  if (self->length > AKC_ASSISTANT_CONTENT_MAX_BYTES)
    g_string_truncate (self->partial, 0);

  update_diagnostic (self);

  return self->diagnostic == NULL;
}

/**
 * akc_assistant_content_decoder_append_utf8: (rename-to akc_assistant_content_decoder_append)
 * @self: a decoder
 * @text: the next piece of
 *   the message content, UTF-8
 *
 * Does what akc_assistant_content_decoder_append() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: %TRUE when the content so far is accepted (see
 *   [method@AssistantContentDecoder.get_diagnostic] otherwise)
 *
 * Since: 0.1
 */
gboolean
akc_assistant_content_decoder_append_utf8 (AkcAssistantContentDecoder *self,
                                           const char                 *text)
{
  return akc_assistant_content_decoder_append (self, text, -1);
}

/**
 * akc_assistant_content_decoder_get_diagnostic:
 * @self: a decoder
 *
 * Gets why the content so far is rejected.
 *
 * Returns: (transfer none) (nullable): the diagnostic, or %NULL when the
 *   content so far is accepted
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_assistant_content_decoder_get_diagnostic (AkcAssistantContentDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), NULL);

  return self->diagnostic;
}

/**
 * akc_assistant_content_decoder_get_complete:
 * @self: a decoder
 *
 * Gets whether the accepted content ends with a complete record. While it
 * does not, a renderer may show the parts with a progress affordance.
 *
 * Returns: %TRUE when the content is accepted and ends with a line feed
 *   after the prefix
 *
 * Since: 0.1
 */
gboolean
akc_assistant_content_decoder_get_complete (AkcAssistantContentDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), FALSE);

  return self->diagnostic == NULL && self->complete;
}

/**
 * akc_assistant_content_decoder_get_n_parts:
 * @self: a decoder
 *
 * Gets how many parts the accepted content has. Parts are only ever added
 * at the end while the content stays accepted.
 *
 * Returns: the number of parts; 0 when the content is rejected
 *
 * Since: 0.1
 */
guint
akc_assistant_content_decoder_get_n_parts (AkcAssistantContentDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), 0);

  return self->diagnostic == NULL ? self->parts->len : 0;
}

/**
 * akc_assistant_content_decoder_get_part:
 * @self: a decoder
 * @index_: a part position, below [method@AssistantContentDecoder.get_n_parts]
 *
 * Gets a part: an object `{"kind":"text","text":…}` or
 * `{"kind":"component","frame":…}` in canonical member order.
 *
 * Returns: (transfer none): the part
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_assistant_content_decoder_get_part (AkcAssistantContentDecoder *self,
                                        guint                       index_)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), NULL);
  g_return_val_if_fail (index_ < akc_assistant_content_decoder_get_n_parts (self), NULL);

  return g_ptr_array_index (self->parts, index_);
}

/**
 * akc_assistant_content_decoder_dup_parts:
 * @self: a decoder
 *
 * Gets the parts as one JSON array.
 *
 * Returns: (transfer full) (nullable): the parts, or %NULL when the content
 *   is rejected
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_assistant_content_decoder_dup_parts (AkcAssistantContentDecoder *self)
{
  g_autofree AkcJsonValue **elements = NULL;
  guint i;

  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), NULL);

  if (self->diagnostic != NULL)
    return NULL;

  elements = g_new (AkcJsonValue *, self->parts->len + 1);
  for (i = 0; i < self->parts->len; i++)
    elements[i] = akc_json_value_ref (g_ptr_array_index (self->parts, i));

  return akc_json_array_new_steal (elements, self->parts->len);
}

/**
 * akc_assistant_content_decoder_get_length:
 * @self: a decoder
 *
 * Gets how much content was appended, in UTF-8 bytes after replacement of
 * invalid sequences: the measure of the byte limit.
 *
 * Returns: the content length in bytes
 *
 * Since: 0.1
 */
gsize
akc_assistant_content_decoder_get_length (AkcAssistantContentDecoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_DECODER (self), 0);

  return self->length;
}

/* ------------------------------------------------------------------ */
/* Encoder                                                             */
/* ------------------------------------------------------------------ */

/**
 * AkcAssistantContentEncoder:
 *
 * Builds the ordered content of one assistant message ([protocol §4.3](wire-formats.html#protocol-4)).
 * Each successful encode returns the text to append to the message
 * content: the first one starts with the prefix (U+001E,
 * `agentskit.chat.content/1`, line feed), and
 * every one is one compact record per part followed by a line feed.
 *
 * A part that is not a valid text or component part is refused with
 * %AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD; a refused encode
 * emits nothing and leaves the encoder as it was.
 *
 * A bounded encoder (see [property@AssistantContentEncoder:bounded]) also
 * refuses, with %AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED, a
 * record that would make the content longer than
 * %AKC_ASSISTANT_CONTENT_MAX_RECORDS records or
 * %AKC_ASSISTANT_CONTENT_MAX_BYTES bytes, so that everything it emits
 * decodes. That is what producers such as the Ask adapter need (§6.3).
 *
 * Since: 0.1
 */
struct _AkcAssistantContentEncoder
{
  GObject  parent_instance;

  gboolean bounded;
  guint    n_records;
  gsize    n_bytes;
};

G_DEFINE_FINAL_TYPE (AkcAssistantContentEncoder, akc_assistant_content_encoder, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BOUNDED,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_assistant_content_encoder_get_property (GObject    *object,
                                            guint       prop_id,
                                            GValue     *value,
                                            GParamSpec *pspec)
{
  AkcAssistantContentEncoder *self = AKC_ASSISTANT_CONTENT_ENCODER (object);

  switch (prop_id)
    {
    case PROP_BOUNDED:
      g_value_set_boolean (value, self->bounded);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_assistant_content_encoder_set_property (GObject      *object,
                                            guint         prop_id,
                                            const GValue *value,
                                            GParamSpec   *pspec)
{
  AkcAssistantContentEncoder *self = AKC_ASSISTANT_CONTENT_ENCODER (object);

  switch (prop_id)
    {
    case PROP_BOUNDED:
      self->bounded = g_value_get_boolean (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_assistant_content_encoder_class_init (AkcAssistantContentEncoderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = akc_assistant_content_encoder_get_property;
  object_class->set_property = akc_assistant_content_encoder_set_property;

  /**
   * AkcAssistantContentEncoder:bounded:
   *
   * Whether the encoder refuses records beyond the decoder's limits.
   *
   * Since: 0.1
   */
  props[PROP_BOUNDED] =
    g_param_spec_boolean ("bounded", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_assistant_content_encoder_init (AkcAssistantContentEncoder *self)
{
}

/**
 * akc_assistant_content_encoder_new:
 * @bounded: whether to refuse records beyond the decoder's limits
 *
 * Creates an encoder for one assistant message. An unbounded encoder
 * behaves exactly as the reference encoder, which has no limits.
 *
 * Returns: (transfer full): a new encoder
 *
 * Since: 0.1
 */
AkcAssistantContentEncoder *
akc_assistant_content_encoder_new (gboolean bounded)
{
  return g_object_new (AKC_TYPE_ASSISTANT_CONTENT_ENCODER, "bounded", bounded, NULL);
}

/**
 * akc_assistant_content_encoder_get_bounded:
 * @self: an encoder
 *
 * Gets [property@AssistantContentEncoder:bounded].
 *
 * Returns: whether the encoder is bounded
 *
 * Since: 0.1
 */
gboolean
akc_assistant_content_encoder_get_bounded (AkcAssistantContentEncoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_ENCODER (self), FALSE);

  return self->bounded;
}

/* Appends one record for the normalised @part to @out (prefix first when
 * the encoder has emitted nothing and @out is empty). */
static void
write_record (AkcAssistantContentEncoder *self,
              GString                    *out,
              guint                       n_new,
              const AkcJsonValue         *part)
{
  if (self->n_records == 0 && n_new == 0)
    g_string_append_len (out, AKC_ASSISTANT_CONTENT_PREFIX, AKC_ASSISTANT_CONTENT_PREFIX_LENGTH);
  akc_json_append_value (out, part);
  g_string_append_c (out, '\n');
}

/* Commits @n_new records held in @out, or refuses them. */
static char *
commit (AkcAssistantContentEncoder *self,
        GString                    *out,
        guint                       n_new,
        gsize                      *length,
        GError                    **error)
{
  if (self->bounded)
    {
      const char *message = NULL;

      if ((gsize) self->n_records + n_new > AKC_ASSISTANT_CONTENT_MAX_RECORDS)
        message = MESSAGE_RECORDS;
      else if (self->n_bytes + out->len > AKC_ASSISTANT_CONTENT_MAX_BYTES)
        message = MESSAGE_SAFETY;

      if (message != NULL)
        {
          g_set_error_literal (error, AKC_PROTOCOL_ERROR,
                               AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED, message);
          g_string_free (out, TRUE);
          return NULL;
        }
    }

  self->n_records = self->n_records + n_new > G_MAXUINT ? G_MAXUINT : self->n_records + n_new;
  self->n_bytes += out->len;
  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}

static void
set_invalid_part (GError **error)
{
  g_set_error_literal (error, AKC_PROTOCOL_ERROR, AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD,
                       "Assistant content part is invalid.");
}

/**
 * akc_assistant_content_encoder_encode:
 * @self: an encoder
 * @part: a text part `{"kind":"text","text":…}` (text of 1 to 16 384
 *   UTF-16 code units) or a component part `{"kind":"component","frame":…}`
 *   with a valid render frame; unknown members are dropped
 * @length: (out) (optional): return location for the length of the result
 * @error: return location for a #GError
 *
 * Encodes one part (`encode`, [protocol §4.3](wire-formats.html#protocol-4)).
 *
 * Returns: (transfer full) (nullable): the text to append to the content,
 *   or %NULL with @error set when the part is refused
 *
 * Since: 0.1
 */
char *
akc_assistant_content_encoder_encode (AkcAssistantContentEncoder *self,
                                      AkcJsonValue               *part,
                                      gsize                      *length,
                                      GError                    **error)
{
  g_autoptr(AkcJsonValue) normalised = NULL;
  GString *out;

  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_ENCODER (self), NULL);
  g_return_val_if_fail (part != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!akc_schema_validate (&part_type, part, NULL, &normalised))
    {
      set_invalid_part (error);
      return NULL;
    }

  out = g_string_new (NULL);
  write_record (self, out, 0, normalised);

  return commit (self, out, 1, length, error);
}

/**
 * akc_assistant_content_encoder_encode_utf8: (rename-to akc_assistant_content_encoder_encode)
 * @self: an encoder
 * @part: a text part `{"kind":"text","text":…}` (text of 1 to 16 384
 *   UTF-16 code units) or a component part `{"kind":"component","frame":…}`
 *   with a valid render frame; unknown members are dropped
 * @error: return location for a #GError
 *
 * Does what akc_assistant_content_encoder_encode() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full) (nullable): the text to append to the content,
 *   or %NULL with @error set when the part is refused
 *
 * Since: 0.1
 */
char *
akc_assistant_content_encoder_encode_utf8 (AkcAssistantContentEncoder  *self,
                                           AkcJsonValue                *part,
                                           GError                     **error)
{
  return akc_assistant_content_encoder_encode (self, part, NULL, error);
}

/**
 * akc_assistant_content_encoder_encode_text:
 * @self: an encoder
 * @text: UTF-8 text,
 *   which may hold U+0000 when @text_length is given
 * @text_length: length of @text in bytes, or -1 if it is NUL-terminated
 * @length: (out) (optional): return location for the length of the result
 * @error: return location for a #GError
 *
 * Encodes @text as text parts, cut into pieces of at most 16 384 UTF-16
 * code units ([protocol §6.3](wire-formats.html#protocol-6) step 7), one record each. A cut never
 * splits a character: a piece ends one unit short rather than between the
 * two halves of a surrogate pair. Either every record is emitted or, when
 * one is refused, none. Empty text is refused, like an empty text part,
 * and so is text that is not UTF-8, both with
 * %AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD. U+0000 is text
 * like any other character ([protocol §1.2](wire-formats.html#protocol-1)): the record escapes it as
 * `\u0000`.
 *
 * Returns: (transfer full) (nullable): the text to append to the content,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_assistant_content_encoder_encode_text (AkcAssistantContentEncoder *self,
                                           const char                 *text,
                                           gssize                      text_length,
                                           gsize                      *length,
                                           GError                    **error)
{
  GString *out;
  gsize start = 0, pos = 0, units = 0;
  guint n_new = 0;

  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_ENCODER (self), NULL);
  g_return_val_if_fail (text != NULL || text_length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (text_length < 0)
    text_length = strlen (text);

  if (text_length == 0 || akc_utf8_valid_prefix (text, text_length) != (gsize) text_length)
    {
      set_invalid_part (error);
      return NULL;
    }

  out = g_string_new (NULL);

  while (pos <= (gsize) text_length)
    {
      guchar c = pos < (gsize) text_length ? (guchar) text[pos] : 0;
      gsize width = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      gsize cp_units = width == 4 ? 2 : 1;

      if (pos == (gsize) text_length || units + cp_units > AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH)
        {
          AkcJsonWriter w;

          if (self->n_records == 0 && n_new == 0)
            g_string_append_len (out, AKC_ASSISTANT_CONTENT_PREFIX, AKC_ASSISTANT_CONTENT_PREFIX_LENGTH);
          akc_json_writer_init (&w, out);
          akc_json_writer_begin_object (&w);
          akc_json_writer_member (&w, "kind");
          akc_json_writer_string (&w, "text", 4);
          akc_json_writer_member (&w, "text");
          akc_json_writer_string (&w, text + start, pos - start);
          akc_json_writer_end_object (&w);
          g_string_append_c (out, '\n');
          n_new = n_new < G_MAXUINT ? n_new + 1 : n_new;
          start = pos;
          units = 0;
          if (pos == (gsize) text_length)
            break;
        }

      units += cp_units;
      pos += width;
    }

  return commit (self, out, n_new, length, error);
}

/**
 * akc_assistant_content_encoder_encode_text_utf8: (rename-to akc_assistant_content_encoder_encode_text)
 * @self: an encoder
 * @text: UTF-8 text,
 *   which may hold U+0000 when @text_length is given
 * @error: return location for a #GError
 *
 * Does what akc_assistant_content_encoder_encode_text() does, for NUL-terminated @text and without the length out-parameter:
 * the form bindings see.
 *
 * Returns: (transfer full) (nullable): the text to append to the content,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_assistant_content_encoder_encode_text_utf8 (AkcAssistantContentEncoder  *self,
                                                const char                  *text,
                                                GError                     **error)
{
  return akc_assistant_content_encoder_encode_text (self, text, -1, NULL, error);
}

/**
 * akc_assistant_content_encoder_encode_frame:
 * @self: an encoder
 * @frame: a render frame ([protocol §3.1](wire-formats.html#protocol-3))
 * @length: (out) (optional): return location for the length of the result
 * @error: return location for a #GError
 *
 * Encodes a component part for @frame.
 *
 * Returns: (transfer full) (nullable): the text to append to the content,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_assistant_content_encoder_encode_frame (AkcAssistantContentEncoder *self,
                                            AkcJsonValue               *frame,
                                            gsize                      *length,
                                            GError                    **error)
{
  g_autoptr(AkcJsonValue) normalised = NULL;
  AkcJsonWriter w;
  GString *out;

  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_ENCODER (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!akc_schema_validate_table (&akc_component_frame_table, frame, &normalised))
    {
      set_invalid_part (error);
      return NULL;
    }

  out = g_string_new (NULL);
  if (self->n_records == 0)
    g_string_append_len (out, AKC_ASSISTANT_CONTENT_PREFIX, AKC_ASSISTANT_CONTENT_PREFIX_LENGTH);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "kind");
  akc_json_writer_string (&w, "component", 9);
  akc_json_writer_member (&w, "frame");
  akc_json_writer_value (&w, normalised);
  akc_json_writer_end_object (&w);
  g_string_append_c (out, '\n');

  return commit (self, out, 1, length, error);
}

/**
 * akc_assistant_content_encoder_encode_frame_utf8: (rename-to akc_assistant_content_encoder_encode_frame)
 * @self: an encoder
 * @frame: a render frame ([protocol §3.1](wire-formats.html#protocol-3))
 * @error: return location for a #GError
 *
 * Does what akc_assistant_content_encoder_encode_frame() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full) (nullable): the text to append to the content,
 *   or %NULL with @error set
 *
 * Since: 0.1
 */
char *
akc_assistant_content_encoder_encode_frame_utf8 (AkcAssistantContentEncoder  *self,
                                                 AkcJsonValue                *frame,
                                                 GError                     **error)
{
  return akc_assistant_content_encoder_encode_frame (self, frame, NULL, error);
}

/**
 * akc_assistant_content_encoder_get_n_records:
 * @self: an encoder
 *
 * Gets how many records the encoder emitted.
 *
 * Returns: the number of records
 *
 * Since: 0.1
 */
guint
akc_assistant_content_encoder_get_n_records (AkcAssistantContentEncoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_ENCODER (self), 0);

  return self->n_records;
}

/**
 * akc_assistant_content_encoder_get_n_bytes:
 * @self: an encoder
 *
 * Gets the length of everything the encoder emitted, prefix included.
 *
 * Returns: the length in bytes
 *
 * Since: 0.1
 */
gsize
akc_assistant_content_encoder_get_n_bytes (AkcAssistantContentEncoder *self)
{
  g_return_val_if_fail (AKC_IS_ASSISTANT_CONTENT_ENCODER (self), 0);

  return self->n_bytes;
}

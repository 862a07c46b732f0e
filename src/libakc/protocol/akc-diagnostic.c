/* akc-diagnostic.c: protocol diagnostics (protocol §1.11)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-diagnostic.h"
#include "akc-json-private.h"
#include "akc-schema-private.h"

/**
 * AkcDiagnostic:
 *
 * The failure result of a protocol decoder ([protocol §1.11](wire-formats.html#protocol-1)): a stable
 * code, a fixed message that never contains any part of the rejected
 * input, the `retryable` flag (always %FALSE for decoder diagnostics) and,
 * for the turn decoder only, the echoed `eventId`.
 *
 * Diagnostics are immutable and reference counted.
 *
 * Since: 0.1
 */
struct _AkcDiagnostic {
  gint        ref_count;
  gboolean    retryable;
  const char *code;
  const char *message;
  const char *event_id;  /* nullable */
  const char *field_path;  /* nullable; never on the wire */
  /* strings follow */
};

G_DEFINE_BOXED_TYPE (AkcDiagnostic, akc_diagnostic, akc_diagnostic_ref, akc_diagnostic_unref)

/* The errors of the domain carry, besides the wire's fixed message, the
 * path of the field that failed when the code that raised them knows it
 * (akc_protocol_error_get_field_path()). */
typedef struct
{
  char *field_path;
} AkcProtocolErrorPrivate;

/* G_DEFINE_EXTENDED_ERROR, under the quark name the domain always had:
 * the private data sits before the GError. */
static inline AkcProtocolErrorPrivate *
akc_protocol_error_get_private (const GError *error)
{
  const gsize sa = 2 * sizeof (gsize);
  const gsize as = (sizeof (AkcProtocolErrorPrivate) + (sa - 1)) & -sa;

  return (AkcProtocolErrorPrivate *) (((guint8 *) error) - as);
}

static void
akc_protocol_error_private_init (GError *error)
{
  akc_protocol_error_get_private (error)->field_path = NULL;
}

static void
akc_protocol_error_private_copy (const GError *src,
                                 GError       *dest)
{
  akc_protocol_error_get_private (dest)->field_path =
    g_strdup (akc_protocol_error_get_private (src)->field_path);
}

static void
akc_protocol_error_private_clear (GError *error)
{
  g_clear_pointer (&akc_protocol_error_get_private (error)->field_path, g_free);
}

/**
 * akc_protocol_error_quark:
 *
 * Gets the error domain of [error@ProtocolError], the quark %AKC_PROTOCOL_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
GQuark
akc_protocol_error_quark (void)
{
  static GQuark quark;
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      quark = g_error_domain_register_static ("akc-protocol-error-quark",
                                              sizeof (AkcProtocolErrorPrivate),
                                              akc_protocol_error_private_init,
                                              akc_protocol_error_private_copy,
                                              akc_protocol_error_private_clear);
      g_once_init_leave (&initialized, 1);
    }

  return quark;
}

/**
 * akc_protocol_error_get_field_path:
 * @error: a #GError
 *
 * Gets which field of the input failed and why, when @error is an
 * %AKC_PROTOCOL_ERROR whose raiser knows it: for example
 * `messages[3].createdAt: not a UTC timestamp with milliseconds`. The
 * error's message stays the wire's fixed diagnostic message; this is what
 * a host shows or logs to find what to fix.
 *
 * Returns: (nullable): the field path and what is wrong with it, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_protocol_error_get_field_path (const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain != AKC_PROTOCOL_ERROR)
    return NULL;

  return akc_protocol_error_get_private (error)->field_path;
}

void
akc_protocol_error_set_field_path (GError     *error,
                                   const char *field_path)
{
  AkcProtocolErrorPrivate *priv;

  g_return_if_fail (error != NULL);
  g_return_if_fail (error->domain == AKC_PROTOCOL_ERROR);

  priv = akc_protocol_error_get_private (error);
  g_free (priv->field_path);
  priv->field_path = g_strdup (field_path);
}

G_DEFINE_ENUM_TYPE (AkcProtocolError, akc_protocol_error,
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_INVALID_JSON, "invalid-json"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD, "protocol-invalid-payload"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_PROTOCOL_UNSUPPORTED_VERSION, "protocol-unsupported-version"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_PROTOCOL_UNKNOWN_EVENT, "protocol-unknown-event"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_COMPONENT_INVALID_FRAME, "component-invalid-frame"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_COMPONENT_UNSUPPORTED_VERSION, "component-unsupported-version"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_COMPONENT_UNKNOWN_TYPE, "component-unknown-type"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD, "assistant-content-invalid-record"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_UNSUPPORTED_VERSION, "assistant-content-unsupported-version"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED, "assistant-content-limit-exceeded"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT, "session-invalid-snapshot"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_SESSION_UNSUPPORTED_VERSION, "session-unsupported-version"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_DETERMINISTIC_INVALID_PAYLOAD, "deterministic-invalid-payload"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_DETERMINISTIC_UNSUPPORTED_VERSION, "deterministic-unsupported-version"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_DETERMINISTIC_LIMIT_EXCEEDED, "deterministic-limit-exceeded"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_DETERMINISTIC_HASH_MISMATCH, "deterministic-hash-mismatch"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_INVALID_REQUEST, "ask-invalid-request"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_UNAUTHORIZED, "ask-unauthorized"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_FORBIDDEN, "ask-forbidden"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_RATE_LIMITED, "ask-rate-limited"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_TIMEOUT, "ask-timeout"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_CANCELLED, "ask-cancelled"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_RETRIEVAL_FAILED, "ask-retrieval-failed"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_NO_GROUNDED_SOURCES, "ask-no-grounded-sources"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_GENERATION_FAILED, "ask-generation-failed"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_PERSISTENCE_CONFLICT, "ask-persistence-conflict"),
  G_DEFINE_ENUM_VALUE (AKC_PROTOCOL_ERROR_ASK_INTERNAL, "ask-internal"))

/* Indexed by AkcProtocolError. */
static const char * const error_codes[] = {
  [AKC_PROTOCOL_ERROR_FAILED] = NULL,
  [AKC_PROTOCOL_ERROR_INVALID_JSON] = NULL,
  [AKC_PROTOCOL_ERROR_PROTOCOL_INVALID_PAYLOAD] = "PROTOCOL_INVALID_PAYLOAD",
  [AKC_PROTOCOL_ERROR_PROTOCOL_UNSUPPORTED_VERSION] = "PROTOCOL_UNSUPPORTED_VERSION",
  [AKC_PROTOCOL_ERROR_PROTOCOL_UNKNOWN_EVENT] = "PROTOCOL_UNKNOWN_EVENT",
  [AKC_PROTOCOL_ERROR_COMPONENT_INVALID_FRAME] = "COMPONENT_INVALID_FRAME",
  [AKC_PROTOCOL_ERROR_COMPONENT_UNSUPPORTED_VERSION] = "COMPONENT_UNSUPPORTED_VERSION",
  [AKC_PROTOCOL_ERROR_COMPONENT_UNKNOWN_TYPE] = "COMPONENT_UNKNOWN_TYPE",
  [AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_INVALID_RECORD] = "ASSISTANT_CONTENT_INVALID_RECORD",
  [AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_UNSUPPORTED_VERSION] = "ASSISTANT_CONTENT_UNSUPPORTED_VERSION",
  [AKC_PROTOCOL_ERROR_ASSISTANT_CONTENT_LIMIT_EXCEEDED] = "ASSISTANT_CONTENT_LIMIT_EXCEEDED",
  [AKC_PROTOCOL_ERROR_SESSION_INVALID_SNAPSHOT] = "SESSION_INVALID_SNAPSHOT",
  [AKC_PROTOCOL_ERROR_SESSION_UNSUPPORTED_VERSION] = "SESSION_UNSUPPORTED_VERSION",
  [AKC_PROTOCOL_ERROR_DETERMINISTIC_INVALID_PAYLOAD] = "DETERMINISTIC_INVALID_PAYLOAD",
  [AKC_PROTOCOL_ERROR_DETERMINISTIC_UNSUPPORTED_VERSION] = "DETERMINISTIC_UNSUPPORTED_VERSION",
  [AKC_PROTOCOL_ERROR_DETERMINISTIC_LIMIT_EXCEEDED] = "DETERMINISTIC_LIMIT_EXCEEDED",
  [AKC_PROTOCOL_ERROR_DETERMINISTIC_HASH_MISMATCH] = "DETERMINISTIC_HASH_MISMATCH",
  [AKC_PROTOCOL_ERROR_ASK_INVALID_REQUEST] = "ASK_INVALID_REQUEST",
  [AKC_PROTOCOL_ERROR_ASK_UNAUTHORIZED] = "ASK_UNAUTHORIZED",
  [AKC_PROTOCOL_ERROR_ASK_FORBIDDEN] = "ASK_FORBIDDEN",
  [AKC_PROTOCOL_ERROR_ASK_RATE_LIMITED] = "ASK_RATE_LIMITED",
  [AKC_PROTOCOL_ERROR_ASK_TIMEOUT] = "ASK_TIMEOUT",
  [AKC_PROTOCOL_ERROR_ASK_CANCELLED] = "ASK_CANCELLED",
  [AKC_PROTOCOL_ERROR_ASK_RETRIEVAL_FAILED] = "ASK_RETRIEVAL_FAILED",
  [AKC_PROTOCOL_ERROR_ASK_NO_GROUNDED_SOURCES] = "ASK_NO_GROUNDED_SOURCES",
  [AKC_PROTOCOL_ERROR_ASK_GENERATION_FAILED] = "ASK_GENERATION_FAILED",
  [AKC_PROTOCOL_ERROR_ASK_PERSISTENCE_CONFLICT] = "ASK_PERSISTENCE_CONFLICT",
  [AKC_PROTOCOL_ERROR_ASK_INTERNAL] = "ASK_INTERNAL",
};

/**
 * akc_protocol_error_from_code:
 * @code: a diagnostic code such as `"COMPONENT_INVALID_FRAME"`
 *
 * Maps a diagnostic code to its error code.
 *
 * Returns: the error code, or %AKC_PROTOCOL_ERROR_FAILED for an unknown code
 *
 * Since: 0.1
 */
AkcProtocolError
akc_protocol_error_from_code (const char *code)
{
  guint i;

  g_return_val_if_fail (code != NULL, AKC_PROTOCOL_ERROR_FAILED);

  for (i = 0; i < G_N_ELEMENTS (error_codes); i++)
    if (error_codes[i] != NULL && strcmp (error_codes[i], code) == 0)
      return (AkcProtocolError) i;

  return AKC_PROTOCOL_ERROR_FAILED;
}

/**
 * akc_protocol_error_to_code:
 * @error: an error code
 *
 * Maps an error code to its diagnostic code.
 *
 * Returns: (nullable): the diagnostic code, or %NULL for
 *   %AKC_PROTOCOL_ERROR_FAILED and %AKC_PROTOCOL_ERROR_INVALID_JSON
 *
 * Since: 0.1
 */
const char *
akc_protocol_error_to_code (AkcProtocolError error)
{
  if ((guint) error >= G_N_ELEMENTS (error_codes))
    return NULL;

  return error_codes[error];
}

/**
 * akc_diagnostic_new:
 * @code: the diagnostic code
 * @message: the fixed message; it must not contain any part of the input
 * @retryable: whether retrying may succeed (%FALSE for decoder diagnostics)
 * @event_id: (nullable): the echoed `eventId` (turn decoder only)
 *
 * Creates a diagnostic.
 *
 * Returns: (transfer full): a new diagnostic
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_diagnostic_new (const char *code,
                    const char *message,
                    gboolean    retryable,
                    const char *event_id)
{
  return akc_diagnostic_new_with_field_path (code, message, retryable, event_id, NULL);
}

AkcDiagnostic *
akc_diagnostic_new_with_field_path (const char *code,
                                    const char *message,
                                    gboolean    retryable,
                                    const char *event_id,
                                    const char *field_path)
{
  gsize code_len, message_len, event_id_len, field_path_len;
  AkcDiagnostic *self;
  char *p;

  g_return_val_if_fail (code != NULL, NULL);
  g_return_val_if_fail (message != NULL, NULL);
  g_return_val_if_fail (g_utf8_validate (code, -1, NULL), NULL);
  g_return_val_if_fail (g_utf8_validate (message, -1, NULL), NULL);
  g_return_val_if_fail (event_id == NULL || g_utf8_validate (event_id, -1, NULL), NULL);

  code_len = strlen (code) + 1;
  message_len = strlen (message) + 1;
  event_id_len = event_id != NULL ? strlen (event_id) + 1 : 0;
  field_path_len = field_path != NULL ? strlen (field_path) + 1 : 0;

  self = g_malloc (sizeof (AkcDiagnostic) + code_len + message_len + event_id_len + field_path_len);
  self->ref_count = 1;
  self->retryable = !!retryable;
  p = (char *) (self + 1);
  self->code = memcpy (p, code, code_len);
  p += code_len;
  self->message = memcpy (p, message, message_len);
  p += message_len;
  self->event_id = event_id != NULL ? memcpy (p, event_id, event_id_len) : NULL;
  p += event_id_len;
  self->field_path = field_path != NULL ? memcpy (p, field_path, field_path_len) : NULL;

  return self;
}

/**
 * akc_diagnostic_ref:
 * @self: a diagnostic
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_diagnostic_ref (AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_int_inc (&self->ref_count);

  return self;
}

/**
 * akc_diagnostic_unref:
 * @self: (transfer full): a diagnostic
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_diagnostic_unref (AkcDiagnostic *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_int_dec_and_test (&self->ref_count))
    g_free (self);
}

/**
 * akc_diagnostic_get_code:
 * @self: a diagnostic
 *
 * Gets the stable diagnostic code, e.g. `"COMPONENT_INVALID_FRAME"`.
 *
 * Returns: (transfer none): the code
 *
 * Since: 0.1
 */
const char *
akc_diagnostic_get_code (const AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->code;
}

/**
 * akc_diagnostic_get_message:
 * @self: a diagnostic
 *
 * Gets the fixed message (never contains input).
 *
 * Returns: (transfer none): the message
 *
 * Since: 0.1
 */
const char *
akc_diagnostic_get_message (const AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->message;
}

/**
 * akc_diagnostic_get_retryable:
 * @self: a diagnostic
 *
 * Gets whether retrying may succeed.
 *
 * Returns: the `retryable` flag
 *
 * Since: 0.1
 */
gboolean
akc_diagnostic_get_retryable (const AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->retryable;
}

/**
 * akc_diagnostic_get_event_id:
 * @self: a diagnostic
 *
 * Gets the echoed `eventId` (turn decoder only, [protocol §2.6](wire-formats.html#protocol-2)).
 *
 * Returns: (transfer none) (nullable): the event id, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_diagnostic_get_event_id (const AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->event_id;
}

/**
 * akc_diagnostic_get_field_path:
 * @self: a diagnostic
 *
 * Gets which field of the input failed and why, when the decoder that
 * made @self knows it: for example
 * `messages[3].createdAt: not a UTC timestamp with milliseconds`. It is
 * never part of the wire diagnostic ([method@Diagnostic.to_canonical]
 * leaves it out, [method@Diagnostic.equal] ignores it); the message stays
 * the wire's fixed one. This is what a host shows or logs to find what to
 * fix, from any language: unlike the extended data of a #GError
 * ([func@ProtocolError.get_field_path]), a binding can read it.
 *
 * Returns: (transfer none) (nullable): the field path and what is wrong
 *   with it, or %NULL
 *
 * Since: 0.1
 */
const char *
akc_diagnostic_get_field_path (const AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->field_path;
}

/**
 * akc_diagnostic_get_error_code:
 * @self: a diagnostic
 *
 * Gets the [error@ProtocolError] matching the diagnostic code.
 *
 * Returns: the error code (%AKC_PROTOCOL_ERROR_FAILED if the code is
 *   not a protocol diagnostic code)
 *
 * Since: 0.1
 */
AkcProtocolError
akc_diagnostic_get_error_code (const AkcDiagnostic *self)
{
  g_return_val_if_fail (self != NULL, AKC_PROTOCOL_ERROR_FAILED);

  return akc_protocol_error_from_code (self->code);
}

/**
 * akc_diagnostic_equal:
 * @a: a diagnostic
 * @b: another diagnostic
 *
 * Compares all four members of two diagnostics.
 *
 * Returns: %TRUE if they are equal
 *
 * Since: 0.1
 */
gboolean
akc_diagnostic_equal (const AkcDiagnostic *a,
                      const AkcDiagnostic *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return a->retryable == b->retryable &&
         strcmp (a->code, b->code) == 0 &&
         strcmp (a->message, b->message) == 0 &&
         g_strcmp0 (a->event_id, b->event_id) == 0;
}

/**
 * akc_diagnostic_to_json:
 * @self: a diagnostic
 *
 * Converts @self to its JSON object, members in the canonical order of
 * [protocol §1.11](wire-formats.html#protocol-1): `code`, `message`, `retryable`, then `eventId` when
 * present.
 *
 * Returns: (transfer full): the JSON object
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_diagnostic_to_json (const AkcDiagnostic *self)
{
  AkcJsonMemberInit members[4];

  g_return_val_if_fail (self != NULL, NULL);

  members[0] = (AkcJsonMemberInit) { "code", 4, akc_json_string_new_len (self->code, strlen (self->code)) };
  members[1] = (AkcJsonMemberInit) { "message", 7, akc_json_string_new_len (self->message, strlen (self->message)) };
  members[2] = (AkcJsonMemberInit) { "retryable", 9, akc_json_value_new_boolean (self->retryable) };

  if (self->event_id != NULL)
    members[3] = (AkcJsonMemberInit) { "eventId", 7, akc_json_string_new_len (self->event_id, strlen (self->event_id)) };

  return akc_json_object_new_steal (members, self->event_id ? 4 : 3, TRUE,
                                    AKC_JSON_FLAG_STATIC_NAMES);
}

/**
 * akc_diagnostic_to_canonical:
 * @self: a diagnostic
 * @length: (out) (optional): return location for the length in bytes
 *
 * Serialises @self as canonical JSON ([protocol §1.10](wire-formats.html#protocol-1), §1.11).
 *
 * Returns: (transfer full): the JSON text
 *
 * Since: 0.1
 */
char *
akc_diagnostic_to_canonical (const AkcDiagnostic *self,
                             gsize               *length)
{
  GString *out;
  AkcJsonWriter w;

  g_return_val_if_fail (self != NULL, NULL);

  out = g_string_sized_new (96);
  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "code");
  akc_json_writer_string (&w, self->code, -1);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, self->message, -1);
  akc_json_writer_member (&w, "retryable");
  akc_json_writer_boolean (&w, self->retryable);
  if (self->event_id != NULL)
    {
      akc_json_writer_member (&w, "eventId");
      akc_json_writer_string (&w, self->event_id, -1);
    }
  akc_json_writer_end_object (&w);

  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}

/**
 * akc_diagnostic_to_canonical_utf8: (rename-to akc_diagnostic_to_canonical)
 * @self: a diagnostic
 *
 * Does what akc_diagnostic_to_canonical() does, without the
 * length out-parameter: the form bindings see. The text ends at its
 * first U+0000.
 *
 * Returns: (transfer full): the JSON text
 *
 * Since: 0.1
 */
char *
akc_diagnostic_to_canonical_utf8 (const AkcDiagnostic *self)
{
  return akc_diagnostic_to_canonical (self, NULL);
}

/**
 * akc_diagnostic_to_error:
 * @self: a diagnostic
 *
 * Converts @self to a #GError in the %AKC_PROTOCOL_ERROR domain whose code
 * is [method@Diagnostic.get_error_code] and whose message is the
 * diagnostic's fixed message. The error carries the diagnostic's field
 * path ([func@ProtocolError.get_field_path]).
 *
 * Returns: (transfer full): a new #GError
 *
 * Since: 0.1
 */
GError *
akc_diagnostic_to_error (const AkcDiagnostic *self)
{
  GError *error;

  g_return_val_if_fail (self != NULL, NULL);

  error = g_error_new_literal (AKC_PROTOCOL_ERROR,
                               akc_protocol_error_from_code (self->code),
                               self->message);
  if (self->field_path != NULL)
    akc_protocol_error_set_field_path (error, self->field_path);

  return error;
}

/**
 * akc_diagnostic_propagate:
 * @self: a diagnostic
 * @error: return location for a #GError, or %NULL
 *
 * Sets @error from @self (see [method@Diagnostic.to_error]).
 *
 * Since: 0.1
 */
void
akc_diagnostic_propagate (const AkcDiagnostic *self,
                          GError             **error)
{
  g_return_if_fail (self != NULL);

  if (error != NULL)
    g_propagate_error (error, akc_diagnostic_to_error (self));
}

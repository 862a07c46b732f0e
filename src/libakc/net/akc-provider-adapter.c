/* akc-provider-adapter.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "akc-net-enum-types.h"
#include "akc-provider-adapter.h"
#include "akc-provider-codec-private.h"

/**
 * AkcProviderAdapter:
 *
 * An [iface@Adapter] that talks to a model provider directly: an
 * OpenAI-compatible Chat Completions server (OpenAI, llama.cpp server,
 * vLLM, LM Studio, LocalAI, OpenRouter, Ollama's `/v1`), Ollama's native
 * API, or the Anthropic Messages API ([enum@ProviderKind]).
 *
 * Each turn posts the conversation of the [class@AdapterRequest] — its
 * system prompt, the person's and the assistant's messages, the tool calls
 * of earlier replies and their results, in the provider's own format — and
 * streams the reply: text chunks as they arrive; at the end of the stream
 * the tool calls the model made (assembled from their fragments), a usage
 * chunk (prompt, completion and total tokens) and done, whose metadata
 * holds `finishReason` (`stop`, `length`, `tool_calls`, `content_filter`,
 * …). Tools are offered to the model with [method@ProviderAdapter.add_tool];
 * an [class@Chat] with the same tools checks the calls against their
 * schemas and asks for confirmation as usual.
 *
 * A failed turn ends with an error chunk whose code is one of
 * [error@ProviderError]'s (`PROVIDER_UNAUTHORIZED`, …) and whose message
 * says what to do, with what the server said; its metadata holds
 * `status` for HTTP errors and `retryAfter` (seconds) for 429.
 *
 * The API key is kept in memory only: hosts look it up in an
 * [class@CredentialStore] (kind %AKC_CREDENTIAL_KIND_API_KEY, the base URL
 * as endpoint) and give it with [method@ProviderAdapter.set_api_key]. It
 * is sent as `Authorization: Bearer` (OpenAI, Ollama) or `x-api-key`
 * (Anthropic) and never logged. A provider on a loopback or LAN address
 * usually needs none.
 *
 * Only the wait for the response headers is bounded
 * ([property@ProviderAdapter:connect-timeout]): a reply that has started
 * streams for as long as it takes. Stopping the turn (cancelling the
 * [class@Stream]) closes the connection at once, which is how the
 * provider learns to stop generating. Redirects are not followed. Every
 * decoder is bounded: 1 MiB a line or event, a million events, 8 MiB of
 * reply text, 64 tool calls of at most 256 KiB of arguments.
 *
 * Since: 0.1
 */

struct _AkcProviderAdapter
{
  GObject          parent_instance;

  AkcProviderKind  kind;
  char            *base_url;
  char            *model;
  char            *api_key;
  guint            connect_timeout;
  guint            max_tokens;
  gboolean         accepts_images;
  GPtrArray       *tools;       /* AkcProviderTool */

  SoupSession     *session;
  guint            n_turns;
};

static void akc_provider_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcProviderAdapter, akc_provider_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_provider_adapter_iface_init))

/**
 * akc_provider_error_quark:
 *
 * Gets the error domain of [error@ProviderError], the quark %AKC_PROVIDER_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-provider-error-quark, akc_provider_error)

enum {
  PROP_0,
  PROP_KIND,
  PROP_BASE_URL,
  PROP_MODEL,
  PROP_CONNECT_TIMEOUT,
  PROP_MAX_TOKENS,
  PROP_ACCEPTS_IMAGES,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

static char *
origin_of (SoupMessage *message)
{
  char *origin = akc_http_origin_of_uri (soup_message_get_uri (message));

  return origin != NULL ? origin : g_strdup ("?");
}

static SoupMessage *
new_message (AkcProviderAdapter  *self,
             const char          *method,
             const char          *path,
             GError             **error)
{
  g_autoptr(GUri) uri = akc_provider_endpoint_uri (self->base_url, path, error);
  SoupMessage *message;
  SoupMessageHeaders *headers;

  if (uri == NULL)
    return NULL;

  message = soup_message_new_from_uri (method, uri);
  headers = soup_message_get_request_headers (message);
  if (self->kind == AKC_PROVIDER_KIND_ANTHROPIC)
    {
      soup_message_headers_replace (headers, "anthropic-version", "2023-06-01");
      if (self->api_key != NULL)
        soup_message_headers_replace (headers, "x-api-key", self->api_key);
    }
  else
    akc_http_set_bearer (message, self->api_key);

  return message;
}

/* What a failed transfer means for the person. */
static GError *
transfer_error (AkcProviderAdapter *self,
                AkcHttpStream      *http,
                const GError       *error,
                gint64             *retry_seconds)
{
  SoupMessage *message = akc_http_stream_get_message (http);
  g_autofree char *origin = origin_of (message);

  *retry_seconds = -1;

  if (error->domain == AKC_PROVIDER_ERROR)
    return g_error_copy (error);

  if (error->domain == AKC_HTTP_STREAM_ERROR)
    switch (error->code)
      {
      case AKC_HTTP_STREAM_ERROR_STATUS:
        {
          g_autoptr(GBytes) body = akc_http_stream_get_error_body (http, NULL);
          SoupMessageHeaders *headers = soup_message_get_response_headers (message);
          gsize length = 0;
          const guint8 *data = body != NULL ? g_bytes_get_data (body, &length) : NULL;

          return akc_provider_http_error (self->kind, akc_http_stream_get_status (http),
                                          self->model, origin,
                                          soup_message_headers_get_one (headers, "Retry-After"),
                                          data, length, retry_seconds);
        }
      case AKC_HTTP_STREAM_ERROR_TIMEOUT:
        /* Translators: %s is an address, %u seconds */
        return g_error_new (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_TIMEOUT,
                            _("The provider at %s did not answer within %u seconds. A local model may still be loading: try again, or raise the timeout."),
                            origin, (self->connect_timeout + 999) / 1000);
      case AKC_HTTP_STREAM_ERROR_CONNECT:
        return g_error_new (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_CONNECTION,
                            _("Could not connect to the provider at %s: %s. Is the server running, and is the address right?"),
                            origin, error->message);
      case AKC_HTTP_STREAM_ERROR_REDIRECT:
        return g_error_new_literal (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_REDIRECT, error->message);
      case AKC_HTTP_STREAM_ERROR_CUT_OFF:
        return g_error_new (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_CUT_OFF,
                            _("The reply was cut off before its end: %s"), error->message);
      case AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG:
        /* What happened, and what a person can do: a line of a chat
         * stream is one chunk of a reply, never this long. */
        /* Translators: %s is an address, %u a number of mebibytes */
        return g_error_new (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_TOO_LARGE,
                            _("The provider at %s sent a line longer than %u MiB; it may not be a chat server, or it may be misbehaving. Check the provider’s base URL."),
                            origin, (guint) (AKC_PROVIDER_MAX_LINE / (1024 * 1024)));
      case AKC_HTTP_STREAM_ERROR_EVENT_TOO_LARGE:
        /* Translators: %s is an address, %u a number of mebibytes */
        return g_error_new (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_TOO_LARGE,
                            _("The provider at %s sent an event larger than %u MiB; it may not be a chat server, or it may be misbehaving. Check the provider’s base URL."),
                            origin, (guint) (AKC_PROVIDER_MAX_EVENT / (1024 * 1024)));
      case AKC_HTTP_STREAM_ERROR_TOO_MANY_FRAMES:
      default:
        return g_error_new_literal (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_TOO_LARGE, error->message);
      }

  return g_error_new_literal (AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_CONNECTION, error->message);
}

/* ------------------------------------------------------------------ */
/* One turn                                                            */
/* ------------------------------------------------------------------ */

static gboolean
status_error (const GError *error)
{
  return g_error_matches (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_STATUS);
}

typedef struct
{
  AkcProviderAdapter *self;
  AkcStream          *stream;
  AkcHttpStream      *http;
  AkcProviderDecoder *decoder;
} Turn;

static void
turn_free (Turn *turn)
{
  turn->self->n_turns--;
  g_clear_pointer (&turn->decoder, akc_provider_decoder_free);
  g_clear_object (&turn->http);
  g_clear_object (&turn->stream);
  g_object_unref (turn->self);
  g_free (turn);
}

static void
turn_emit (AkcChunk *chunk,
           gpointer  user_data)
{
  Turn *turn = user_data;

  akc_stream_push (turn->stream, chunk);
}

static AkcFrameResult
turn_frame (const AkcFrame  *frame,
            gpointer         user_data,
            GError         **error)
{
  Turn *turn = user_data;

  /* What came, before it is decoded: the JSON of an SSE event's data or
   * of an NDJSON line (`[DONE]` as a string). */
  AkcFrameResult result;

  akc_stream_tap_wire_text (turn->stream, "received", frame->data, frame->length);
  result = akc_provider_decoder_frame (turn->decoder, frame, error);
  /* The decoder says what was wrong; the person also hears what to do: a
   * stream that is not in the API's format mostly comes from the wrong
   * base URL or kind of provider. */
  if (error != NULL && *error != NULL &&
      g_error_matches (*error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_RESPONSE))
    {
      g_autofree char *origin = origin_of (akc_http_stream_get_message (turn->http));
      g_autofree char *what = g_strdup ((*error)->message);

      g_clear_error (error);
      /* Translators: the first %s says what was wrong, as a sentence; the
       * second is an address, the third a kind of API (openai, ollama or
       * anthropic) */
      g_set_error (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("%s The stream of the provider at %s is not in the format of the %s API: check the provider’s base URL and kind."),
                   what, origin, akc_provider_adapter_kind_to_string (turn->self->kind));
    }

  return result;
}

static gboolean
turn_response (AkcHttpStream  *http,
               SoupMessage    *message,
               gpointer        user_data,
               GError        **error)
{
  Turn *turn = user_data;
  const char *type = soup_message_headers_get_content_type (soup_message_get_response_headers (message), NULL);

  /* An HTML page (a login portal, a web UI at the wrong path) is not a
   * stream; anything else is read as the protocol says. */
  if (type != NULL && g_ascii_strcasecmp (type, "text/html") == 0)
    {
      g_autofree char *origin = origin_of (message);

      g_set_error (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_RESPONSE,
                   _("The provider at %s answered with a web page, not a %s stream. Check the base address and the kind of provider."),
                   origin, akc_provider_adapter_kind_to_string (turn->self->kind));
      return FALSE;
    }

  return TRUE;
}

static void
turn_done (AkcHttpStream *http,
           const GError  *error,
           gpointer       user_data)
{
  Turn *turn = user_data;
  g_autoptr(GError) reported = NULL;
  g_autoptr(AkcChunk) chunk = NULL;
  g_autoptr(AkcJsonValue) metadata = NULL;
  const char *names[2];
  AkcJsonValue *values[2];
  guint n = 0;
  gint64 retry_seconds;
  guint status;

  if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      akc_stream_is_closed (turn->stream))
    {
      /* Done was pushed by the decoder; a stop ends silently. */
      turn_free (turn);
      return;
    }

  if (status_error (error))
    akc_http_stream_tap_error (http, turn->stream);
  reported = transfer_error (turn->self, http, error, &retry_seconds);
  chunk = akc_chunk_new_error (akc_provider_error_code_name (reported->code), reported->message);

  status = akc_http_stream_get_status (http);
  if (status >= 300)
    {
      names[n] = "status";
      values[n++] = akc_json_value_new_number (status);
    }
  if (retry_seconds >= 0)
    {
      names[n] = "retryAfter";
      values[n++] = akc_json_value_new_number ((double) retry_seconds);
    }
  if (n > 0)
    {
      AkcChunk *with;

      metadata = akc_json_value_new_object (names, values, n);
      for (guint i = 0; i < n; i++)
        akc_json_value_unref (values[i]);
      with = akc_chunk_with_metadata (chunk, metadata);
      akc_chunk_unref (chunk);
      chunk = with;
    }

  akc_stream_push (turn->stream, chunk);
  turn_free (turn);
}

/* Whether a message of the conversation holds an image. */
/* Whether the person's newest message has an image: earlier ones (read
 * by an earlier model of the conversation) are left out for a model that
 * takes none, this one is refused. */
static gboolean
request_has_image (AkcAdapterRequest *request)
{
  GListModel *messages = akc_adapter_request_get_messages (request);
  guint n = g_list_model_get_n_items (messages);

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      GListModel *attachments;
      guint n_attachments;

      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_USER)
        continue;
      attachments = akc_message_get_attachments (message);
      n_attachments = g_list_model_get_n_items (attachments);
      for (guint a = 0; a < n_attachments; a++)
        {
          g_autoptr(AkcAttachment) attachment = g_list_model_get_item (attachments, a);

          if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE)
            return TRUE;
        }
      return FALSE;
    }

  return FALSE;
}

static void
akc_provider_adapter_stream (AkcAdapter        *adapter,
                             AkcAdapterRequest *request,
                             AkcStream         *stream)
{
  AkcProviderAdapter *self = AKC_PROVIDER_ADAPTER (adapter);
  AkcProviderRequestOptions options = { self->kind, self->model, self->max_tokens, self->tools, !self->accepts_images };
  g_autoptr(GError) error = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  char *text;
  gsize length;
  Turn *turn;

  if (akc_stream_is_closed (stream))
    return;

  if (self->model == NULL || self->model[0] == '\0')
    {
      akc_stream_fail (stream, akc_provider_error_code_name (AKC_PROVIDER_ERROR_MODEL_NOT_FOUND),
                       _("No model is chosen for this provider."));
      return;
    }

  if (!self->accepts_images && request_has_image (request))
    {
      g_autofree char *refusal = NULL;

      /* Translators: %s is a model name such as llama3.2 */
      refusal = g_strdup_printf (_("The model %s does not take images. Remove the image, or choose a model that reads images."),
                                 self->model);
      akc_stream_fail (stream, akc_provider_error_code_name (AKC_PROVIDER_ERROR_ATTACHMENT_REFUSED), refusal);
      return;
    }

  message = new_message (self, SOUP_METHOD_POST, akc_provider_chat_path (self->kind, self->base_url), &error);
  if (message == NULL)
    {
      akc_stream_fail (stream, akc_provider_error_code_name (error->code), error->message);
      return;
    }

  text = akc_provider_build_body (&options, request, &length);
  akc_stream_tap_wire_text (stream, "sent", text, length);
  body = g_bytes_new_take (text, length);
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                self->kind == AKC_PROVIDER_KIND_OLLAMA ? "application/x-ndjson"
                                                                       : "text/event-stream");

  turn = g_new0 (Turn, 1);
  turn->self = g_object_ref (self);
  turn->stream = g_object_ref (stream);
  turn->decoder = akc_provider_decoder_new (self->kind, turn_emit, turn);
  turn->http = akc_http_stream_new (self->session, message, akc_provider_decoder_framing (self->kind));
  self->n_turns++;

  akc_line_framer_set_limits (akc_http_stream_get_framer (turn->http),
                              AKC_PROVIDER_MAX_LINE, AKC_PROVIDER_MAX_EVENT, AKC_PROVIDER_MAX_EVENTS);
  akc_http_stream_set_connect_timeout (turn->http, self->connect_timeout);
  akc_http_stream_start (turn->http, akc_stream_get_cancellable (stream),
                         turn_response, turn_frame, turn_done, turn);
}

/* {"streaming":true,"tools":true,"attachments":{"images":…,"text":true}}:
 * a host offers attachments only to adapters that send them. */
static AkcJsonValue *
akc_provider_adapter_get_capabilities (AkcAdapter *adapter)
{
  AkcProviderAdapter *self = AKC_PROVIDER_ADAPTER (adapter);
  const char *attachment_names[] = { "images", "text" };
  AkcJsonValue *attachment_values[] = { akc_json_value_new_boolean (self->accepts_images),
                                        akc_json_value_new_boolean (TRUE) };
  const char *names[] = { "streaming", "tools", "attachments" };
  AkcJsonValue *values[3];
  AkcJsonValue *capabilities;

  values[0] = akc_json_value_new_boolean (TRUE);
  values[1] = akc_json_value_new_boolean (TRUE);
  values[2] = akc_json_value_new_object (attachment_names, attachment_values, 2);
  capabilities = akc_json_value_new_object (names, values, 3);
  for (guint i = 0; i < G_N_ELEMENTS (attachment_values); i++)
    akc_json_value_unref (attachment_values[i]);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);

  return capabilities;
}

static void
akc_provider_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->get_capabilities = akc_provider_adapter_get_capabilities;
  iface->stream = akc_provider_adapter_stream;
}

/* ------------------------------------------------------------------ */
/* Model lists                                                         */
/* ------------------------------------------------------------------ */

typedef struct
{
  GByteArray *body;
} ModelsRead;

static void
models_read_free (ModelsRead *read)
{
  g_byte_array_unref (read->body);
  g_free (read);
}

static AkcFrameResult
models_frame (const AkcFrame  *frame,
              gpointer         user_data,
              GError         **error)
{
  GTask *task = user_data;
  ModelsRead *read = g_task_get_task_data (task);

  if (read->body->len + frame->length > AKC_PROVIDER_MAX_MODELS_BODY)
    {
      g_set_error (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_TOO_LARGE,
                   _("The provider’s model list is larger than %d MiB."),
                   AKC_PROVIDER_MAX_MODELS_BODY / (1024 * 1024));
      return AKC_FRAME_FAILED;
    }
  g_byte_array_append (read->body, (const guint8 *) frame->data, frame->length);

  return AKC_FRAME_CONTINUE;
}

static void
models_done (AkcHttpStream *http,
             const GError  *error,
             gpointer       user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcProviderAdapter *self = g_task_get_source_object (task);
  ModelsRead *read = g_task_get_task_data (task);
  GError *parse_error = NULL;
  char **names;

  if (error != NULL)
    {
      gint64 retry_seconds;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_error (task, transfer_error (self, http, error, &retry_seconds));
      g_object_unref (http);
      return;
    }

  names = akc_provider_parse_models (self->kind, read->body->data, read->body->len, &parse_error);
  if (names == NULL)
    g_task_return_error (task, parse_error);
  else
    g_task_return_pointer (task, names, (GDestroyNotify) g_strfreev);
  g_object_unref (http);
}

/**
 * akc_provider_adapter_list_models_async:
 * @self: an adapter
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the list is read
 * @user_data: data for @callback
 *
 * Asks the provider which models it offers: `GET {base}/models` (OpenAI),
 * `GET {base}/api/tags` (Ollama) or `GET {base}/v1/models` (Anthropic),
 * with the API key when one is set. This is also the way to test a
 * connection: the error says exactly what failed.
 *
 * Since: 0.1
 */
void
akc_provider_adapter_list_models_async (AkcProviderAdapter  *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  AkcHttpStream *http;
  ModelsRead *read;

  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_provider_adapter_list_models_async);

  message = new_message (self, SOUP_METHOD_GET, akc_provider_models_path (self->kind, self->base_url), &error);
  if (message == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");

  read = g_new0 (ModelsRead, 1);
  read->body = g_byte_array_new ();
  g_task_set_task_data (task, read, (GDestroyNotify) models_read_free);

  http = akc_http_stream_new (self->session, message, AKC_FRAMING_RAW);
  akc_http_stream_set_connect_timeout (http, self->connect_timeout);
  akc_http_stream_start (http, cancellable, NULL, models_frame, models_done, g_steal_pointer (&task));
}

/**
 * akc_provider_adapter_list_models_finish:
 * @self: an adapter
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@ProviderAdapter.list_models_async].
 *
 * Returns: (transfer full) (array zero-terminated=1): the model names,
 *   sorted, or %NULL with @error set (an %AKC_PROVIDER_ERROR, or
 *   %G_IO_ERROR_CANCELLED)
 *
 * Since: 0.1
 */
char **
akc_provider_adapter_list_models_finish (AkcProviderAdapter  *self,
                                         GAsyncResult        *result,
                                         GError             **error)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* What the provider says about the model                              */
/* ------------------------------------------------------------------ */

/* Ollama's /api/show: {"capabilities":["completion","vision",…],…}.
 * Returns whether the answer says; *vision tells whether it reads images. */
static gboolean
parse_ollama_capabilities (const guint8  *data,
                           gsize          length,
                           gboolean      *vision,
                           GError       **error)
{
  g_autoptr(AkcJsonValue) root = akc_json_value_parse ((const char *) data, (gssize) length, NULL);
  AkcJsonValue *capabilities;

  if (root == NULL || akc_json_value_get_kind (root) != AKC_JSON_KIND_OBJECT)
    {
      g_set_error_literal (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The provider’s description of the model is not a JSON object."));
      return FALSE;
    }

  /* Older Ollama releases do not list capabilities: nothing is known. */
  capabilities = akc_json_value_get_member (root, "capabilities");
  if (capabilities == NULL || akc_json_value_get_kind (capabilities) != AKC_JSON_KIND_ARRAY)
    return FALSE;

  *vision = FALSE;
  for (gsize i = 0; i < akc_json_value_get_length (capabilities); i++)
    {
      AkcJsonValue *capability = akc_json_value_get_element (capabilities, i);

      if (akc_json_value_get_kind (capability) == AKC_JSON_KIND_STRING &&
          g_strcmp0 (akc_json_value_get_string (capability, NULL), "vision") == 0)
        *vision = TRUE;
    }
  return TRUE;
}

static void
describe_done (AkcHttpStream *http,
               const GError  *error,
               gpointer       user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcProviderAdapter *self = g_task_get_source_object (task);
  ModelsRead *read = g_task_get_task_data (task);
  GError *parse_error = NULL;
  gboolean vision = TRUE;

  if (error != NULL)
    {
      gint64 retry_seconds;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_error (task, transfer_error (self, http, error, &retry_seconds));
      g_object_unref (http);
      return;
    }

  if (parse_ollama_capabilities (read->body->data, read->body->len, &vision, &parse_error))
    {
      akc_provider_adapter_set_accepts_images (self, vision);
      g_task_return_boolean (task, TRUE);
    }
  else if (parse_error != NULL)
    g_task_return_error (task, parse_error);
  else
    g_task_return_boolean (task, FALSE);
  g_object_unref (http);
}

/**
 * akc_provider_adapter_describe_model_async:
 * @self: an adapter
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the provider answered
 * @user_data: data for @callback
 *
 * Asks the provider what its metadata says about the adapter's model and
 * sets [property@ProviderAdapter:accepts-images] from it, so that a host
 * refuses an image for a model that cannot read one before anything is
 * sent. Ollama says which models take images (`POST {base}/api/show`,
 * `capabilities` holding `vision`); the OpenAI-compatible and Anthropic
 * model lists do not, so nothing is asked of them and nothing changes
 * (set the property from what the person knows instead).
 *
 * Since: 0.1
 */
void
akc_provider_adapter_describe_model_async (AkcProviderAdapter  *self,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) model = NULL;
  g_autoptr(AkcJsonValue) body = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *names[] = { "model" };
  AkcHttpStream *http;
  ModelsRead *read;
  char *text;

  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_provider_adapter_describe_model_async);

  if (self->kind != AKC_PROVIDER_KIND_OLLAMA || self->model == NULL || self->model[0] == '\0')
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  message = new_message (self, SOUP_METHOD_POST, "/api/show", &error);
  if (message == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  model = akc_json_value_new_string (self->model, -1);
  body = akc_json_value_new_object (names, &model, 1);
  text = akc_json_value_to_canonical (body, NULL);
  bytes = g_bytes_new_take (text, strlen (text));
  soup_message_set_request_body_from_bytes (message, "application/json", bytes);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");

  read = g_new0 (ModelsRead, 1);
  read->body = g_byte_array_new ();
  g_task_set_task_data (task, read, (GDestroyNotify) models_read_free);

  http = akc_http_stream_new (self->session, message, AKC_FRAMING_RAW);
  akc_http_stream_set_connect_timeout (http, self->connect_timeout);
  akc_http_stream_start (http, cancellable, NULL, models_frame, describe_done, g_steal_pointer (&task));
}

/**
 * akc_provider_adapter_describe_model_finish:
 * @self: an adapter
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes [method@ProviderAdapter.describe_model_async].
 *
 * Returns: %TRUE when the provider said whether the model takes images
 *   (and [property@ProviderAdapter:accepts-images] now says it); %FALSE
 *   when it says nothing about it, or with @error set when it could not
 *   be asked
 *
 * Since: 0.1
 */
gboolean
akc_provider_adapter_describe_model_finish (AkcProviderAdapter  *self,
                                            GAsyncResult        *result,
                                            GError             **error)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
akc_provider_adapter_dispose (GObject *object)
{
  AkcProviderAdapter *self = AKC_PROVIDER_ADAPTER (object);

  if (self->session != NULL)
    soup_session_abort (self->session);

  G_OBJECT_CLASS (akc_provider_adapter_parent_class)->dispose (object);
}

static void
akc_provider_adapter_finalize (GObject *object)
{
  AkcProviderAdapter *self = AKC_PROVIDER_ADAPTER (object);

  g_assert (self->n_turns == 0);

  akc_provider_adapter_set_api_key (self, NULL);
  g_clear_pointer (&self->base_url, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (akc_provider_adapter_parent_class)->finalize (object);
}

static void
akc_provider_adapter_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  AkcProviderAdapter *self = AKC_PROVIDER_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_BASE_URL:
      g_value_set_string (value, self->base_url);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout);
      break;
    case PROP_ACCEPTS_IMAGES:
      g_value_set_boolean (value, self->accepts_images);
      break;
    case PROP_MAX_TOKENS:
      g_value_set_uint (value, self->max_tokens);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_provider_adapter_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  AkcProviderAdapter *self = AKC_PROVIDER_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      break;
    case PROP_BASE_URL:
      self->base_url = g_value_dup_string (value);
      break;
    case PROP_MODEL:
      akc_provider_adapter_set_model (self, g_value_get_string (value));
      break;
    case PROP_CONNECT_TIMEOUT:
      akc_provider_adapter_set_connect_timeout (self, g_value_get_uint (value));
      break;
    case PROP_ACCEPTS_IMAGES:
      akc_provider_adapter_set_accepts_images (self, g_value_get_boolean (value));
      break;
    case PROP_MAX_TOKENS:
      akc_provider_adapter_set_max_tokens (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_provider_adapter_class_init (AkcProviderAdapterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_provider_adapter_dispose;
  object_class->finalize = akc_provider_adapter_finalize;
  object_class->get_property = akc_provider_adapter_get_property;
  object_class->set_property = akc_provider_adapter_set_property;

  /**
   * AkcProviderAdapter:kind:
   *
   * The protocol the adapter speaks.
   *
   * Since: 0.1
   */
  props[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       AKC_TYPE_PROVIDER_KIND, AKC_PROVIDER_KIND_OPENAI,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcProviderAdapter:base-url:
   *
   * The provider's base address, such as `http://127.0.0.1:11434` (Ollama),
   * `http://127.0.0.1:8080/v1` (llama.cpp) or `https://api.anthropic.com`.
   *
   * Since: 0.1
   */
  props[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcProviderAdapter:model:
   *
   * The model the turns that start next ask for.
   *
   * Since: 0.1
   */
  props[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcProviderAdapter:connect-timeout:
   *
   * Milliseconds to wait for the response headers of a request; 0 waits
   * for ever. Once the headers have arrived the reply streams for as long
   * as it takes.
   *
   * Since: 0.1
   */
  props[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL,
                       0, G_MAXINT, AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcProviderAdapter:max-tokens:
   *
   * The most tokens a reply may have; 0 leaves it to the provider (for
   * Anthropic, which requires one, %AKC_PROVIDER_ADAPTER_DEFAULT_MAX_TOKENS).
   *
   * Since: 0.1
   */
  props[PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, NULL,
                       0, G_MAXINT, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcProviderAdapter:accepts-images:
   *
   * Whether the model takes images. When it does not, a turn whose
   * newest message from the person holds an image [class@Attachment]
   * ends at once with `PROVIDER_ATTACHMENT_REFUSED`, and nothing is sent;
   * the images of earlier messages (read by another model of the
   * conversation) are left out, the model told in their place that one
   * was there. Text files are sent as text to every model.
   *
   * Since: 0.1
   */
  props[PROP_ACCEPTS_IMAGES] =
    g_param_spec_boolean ("accepts-images", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_provider_adapter_init (AkcProviderAdapter *self)
{
  self->connect_timeout = AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  self->accepts_images = TRUE;
  self->tools = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_provider_tool_free);
  self->session = soup_session_new_with_options ("user-agent", "agentskit-chat/" PACKAGE_VERSION " ",
                                                 NULL);
  /* Keys go in headers of their own; libsoup's HTTP authentication would
   * read a 401's body to its end before answering, and a body that never
   * ends would then hold the turn. */
  soup_session_remove_feature_by_type (self->session, SOUP_TYPE_AUTH_MANAGER);
}

/* localhost, a name under .localhost (RFC 6761), or a loopback address. */
static gboolean
is_loopback_host (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (g_ascii_strcasecmp (host, "localhost") == 0 ||
      (strlen (host) > strlen (".localhost") &&
       g_ascii_strcasecmp (host + strlen (host) - strlen (".localhost"), ".localhost") == 0))
    return TRUE;
  address = g_inet_address_new_from_string (host);

  return address != NULL && g_inet_address_get_is_loopback (address);
}

/**
 * akc_provider_adapter_new:
 * @kind: the protocol
 * @base_url: the provider's base address (absolute `http` or `https`)
 * @model: (nullable): the model, or %NULL to choose one later
 * @error: return location for an error
 *
 * Creates an adapter for the provider at @base_url. A provider on this
 * computer (`localhost`, a name under `.localhost` or a loopback address)
 * is reached directly, never through the system's proxy.
 *
 * Returns: (transfer full) (nullable): a new adapter, or %NULL with
 *   %AKC_PROVIDER_ERROR_INVALID_ENDPOINT when @base_url is not an absolute
 *   http(s) address with a host and without user information
 *
 * Since: 0.1
 */
AkcProviderAdapter *
akc_provider_adapter_new (AkcProviderKind   kind,
                          const char       *base_url,
                          const char       *model,
                          GError          **error)
{
  g_autoptr(GUri) uri = NULL;
  AkcProviderAdapter *self;

  g_return_val_if_fail (kind <= AKC_PROVIDER_KIND_ANTHROPIC, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = akc_provider_endpoint_uri (base_url, "", error);
  if (uri == NULL)
    return NULL;

  self = g_object_new (AKC_TYPE_PROVIDER_ADAPTER,
                       "kind", kind,
                       "base-url", base_url,
                       "model", model,
                       NULL);
  /* A provider on this computer is reached directly: a system proxy
   * (which may not exclude this computer) is never asked, nor loaded. */
  if (is_loopback_host (g_uri_get_host (uri)))
    soup_session_set_proxy_resolver (self->session, NULL);

  return self;
}

/**
 * akc_provider_adapter_kind_from_string:
 * @name: `openai`, `ollama` or `anthropic`
 * @kind: (out): the kind
 *
 * Reads a provider kind from its name.
 *
 * Returns: %TRUE when @name names a kind
 *
 * Since: 0.1
 */
gboolean
akc_provider_adapter_kind_from_string (const char      *name,
                                       AkcProviderKind *kind)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (AKC_TYPE_PROVIDER_KIND);
  GEnumValue *value;

  g_return_val_if_fail (kind != NULL, FALSE);

  value = name != NULL ? g_enum_get_value_by_nick (klass, name) : NULL;
  if (value == NULL)
    return FALSE;
  *kind = value->value;
  return TRUE;
}

/**
 * akc_provider_adapter_kind_to_string:
 * @kind: a kind
 *
 * Gets the name of @kind.
 *
 * Returns: (transfer none): `openai`, `ollama` or `anthropic`
 *
 * Since: 0.1
 */
const char *
akc_provider_adapter_kind_to_string (AkcProviderKind kind)
{
  switch (kind)
    {
    case AKC_PROVIDER_KIND_OPENAI:
      return "openai";
    case AKC_PROVIDER_KIND_OLLAMA:
      return "ollama";
    case AKC_PROVIDER_KIND_ANTHROPIC:
      return "anthropic";
    default:
      g_return_val_if_reached ("openai");
    }
}

/**
 * akc_provider_adapter_get_kind:
 * @self: an adapter
 *
 * Gets [property@ProviderAdapter:kind].
 *
 * Returns: the kind
 *
 * Since: 0.1
 */
AkcProviderKind
akc_provider_adapter_get_kind (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), AKC_PROVIDER_KIND_OPENAI);

  return self->kind;
}

/**
 * akc_provider_adapter_get_base_url:
 * @self: an adapter
 *
 * Gets [property@ProviderAdapter:base-url].
 *
 * Returns: (transfer none): the base address
 *
 * Since: 0.1
 */
const char *
akc_provider_adapter_get_base_url (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), NULL);

  return self->base_url;
}

/**
 * akc_provider_adapter_get_model:
 * @self: an adapter
 *
 * Gets [property@ProviderAdapter:model].
 *
 * Returns: (transfer none) (nullable): the model
 *
 * Since: 0.1
 */
const char *
akc_provider_adapter_get_model (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), NULL);

  return self->model;
}

/**
 * akc_provider_adapter_set_model:
 * @self: an adapter
 * @model: (nullable): the model
 *
 * Sets [property@ProviderAdapter:model], for the turns that start after.
 *
 * Since: 0.1
 */
void
akc_provider_adapter_set_model (AkcProviderAdapter *self,
                                const char         *model)
{
  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));

  if (g_strcmp0 (self->model, model) == 0)
    return;
  g_free (self->model);
  self->model = g_strdup (model);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODEL]);
}

/**
 * akc_provider_adapter_get_connect_timeout:
 * @self: an adapter
 *
 * Gets [property@ProviderAdapter:connect-timeout].
 *
 * Returns: milliseconds, 0 for none
 *
 * Since: 0.1
 */
guint
akc_provider_adapter_get_connect_timeout (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), 0);

  return self->connect_timeout;
}

/**
 * akc_provider_adapter_set_connect_timeout:
 * @self: an adapter
 * @timeout_ms: milliseconds to wait for response headers, 0 for ever
 *
 * Sets [property@ProviderAdapter:connect-timeout], for the requests that
 * start after.
 *
 * Since: 0.1
 */
void
akc_provider_adapter_set_connect_timeout (AkcProviderAdapter *self,
                                          guint               timeout_ms)
{
  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));
  g_return_if_fail (timeout_ms <= G_MAXINT);

  if (self->connect_timeout == timeout_ms)
    return;
  self->connect_timeout = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONNECT_TIMEOUT]);
}

/**
 * akc_provider_adapter_get_accepts_images:
 * @self: an adapter
 *
 * Gets [property@ProviderAdapter:accepts-images].
 *
 * Returns: whether images are sent to the model
 *
 * Since: 0.1
 */
gboolean
akc_provider_adapter_get_accepts_images (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), FALSE);

  return self->accepts_images;
}

/**
 * akc_provider_adapter_set_accepts_images:
 * @self: an adapter
 * @accepts: whether the model takes images
 *
 * Sets [property@ProviderAdapter:accepts-images].
 *
 * Since: 0.1
 */
void
akc_provider_adapter_set_accepts_images (AkcProviderAdapter *self,
                                         gboolean            accepts)
{
  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));

  accepts = !!accepts;
  if (self->accepts_images == accepts)
    return;
  self->accepts_images = accepts;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ACCEPTS_IMAGES]);
}

/**
 * akc_provider_adapter_get_max_tokens:
 * @self: an adapter
 *
 * Gets [property@ProviderAdapter:max-tokens].
 *
 * Returns: the most tokens of a reply, 0 for the provider's default
 *
 * Since: 0.1
 */
guint
akc_provider_adapter_get_max_tokens (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), 0);

  return self->max_tokens;
}

/**
 * akc_provider_adapter_set_max_tokens:
 * @self: an adapter
 * @max_tokens: the most tokens of a reply, 0 for the provider's default
 *
 * Sets [property@ProviderAdapter:max-tokens].
 *
 * Since: 0.1
 */
void
akc_provider_adapter_set_max_tokens (AkcProviderAdapter *self,
                                     guint               max_tokens)
{
  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));
  g_return_if_fail (max_tokens <= G_MAXINT);

  if (self->max_tokens == max_tokens)
    return;
  self->max_tokens = max_tokens;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MAX_TOKENS]);
}

/**
 * akc_provider_adapter_set_api_key:
 * @self: an adapter
 * @api_key: (nullable): the API key, or %NULL (or empty) to send none
 *
 * Sets the key sent with every request that starts after. The adapter
 * keeps it in memory only, wipes it when it is replaced, and never shows
 * it in a property, a log line or an error.
 *
 * Since: 0.1
 */
void
akc_provider_adapter_set_api_key (AkcProviderAdapter *self,
                                  const char         *api_key)
{
  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));

  akc_http_secret_replace (&self->api_key, api_key);
}

/**
 * akc_provider_adapter_has_api_key:
 * @self: an adapter
 *
 * Tells whether an API key is set.
 *
 * Returns: %TRUE when requests carry a key
 *
 * Since: 0.1
 */
gboolean
akc_provider_adapter_has_api_key (AkcProviderAdapter *self)
{
  g_return_val_if_fail (AKC_IS_PROVIDER_ADAPTER (self), FALSE);

  return self->api_key != NULL;
}

/**
 * akc_provider_adapter_add_tool:
 * @self: an adapter
 * @tool: a tool
 * @description: (nullable): what the tool does, for the model
 *
 * Offers @tool to the model in every turn that starts after, with its
 * argument schema ([method@Tool.get_argument_schema]; an object with no
 * properties when it has none). A tool of the same name is replaced.
 * Register the same tool on the [class@Chat] so its calls can run.
 *
 * Since: 0.1
 */
void
akc_provider_adapter_add_tool (AkcProviderAdapter *self,
                               AkcTool            *tool,
                               const char         *description)
{
  AkcJsonSchema *schema;
  AkcProviderTool *entry;

  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (self));
  g_return_if_fail (AKC_IS_TOOL (tool));
  g_return_if_fail (description == NULL || g_utf8_validate (description, -1, NULL));

  for (guint i = 0; i < self->tools->len; i++)
    {
      AkcProviderTool *existing = g_ptr_array_index (self->tools, i);

      if (g_strcmp0 (existing->name, akc_tool_get_name (tool)) == 0)
        {
          g_ptr_array_remove_index (self->tools, i);
          break;
        }
    }

  entry = g_new0 (AkcProviderTool, 1);
  entry->name = g_strdup (akc_tool_get_name (tool));
  entry->description = g_strdup (description);
  schema = akc_tool_get_argument_schema (tool);
  if (schema != NULL)
    entry->parameters = akc_json_value_ref (akc_json_schema_get_value (schema));
  else
    entry->parameters = akc_json_value_parse ("{\"type\":\"object\",\"properties\":{}}", -1, NULL);
  g_ptr_array_add (self->tools, entry);
}


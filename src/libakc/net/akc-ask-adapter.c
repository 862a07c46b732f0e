/* akc-ask-adapter.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "akc-adapter-request.h"
#include "akc-ask-adapter.h"
#include "akc-ask-adapter-private.h"
#include "akc-ask-projection-private.h"
#include "akc-ask-response-private.h"
#include "akc-http-stream-private.h"

/**
 * AkcAskAdapter:
 *
 * The adapter of an Ask backend ([application §8](wire-formats.html#application-8)): each turn posts the
 * conversation to the Ask endpoint and streams the answer back.
 *
 * The request is `POST` to the endpoint, with the `corpus` and `persona`
 * query parameters when they are set, a JSON body of the form
 * `{"protocol":"agentskit.chat.ask","version":1,"sessionId"?,"messages":[…],
 * "deterministic"?}` holding the user and assistant messages of the
 * request (assistant content flattened to text), and the bearer token, when
 * one is set, in the `Authorization` header. The token is kept in memory
 * only and never logged: hosts look it up in an [class@CredentialStore]
 * and give it with [method@AskAdapter.set_bearer_token].
 *
 * The answer is read as it arrives. An NDJSON body (by its content type,
 * or sniffed from its first line when the server labels it otherwise) is
 * decoded event by event: text and `answer` tools become text, a `cite`
 * tool becomes a `source-list` component, any other tool is offered to
 * [signal@AskAdapter::project-tool], and `done` and `error` events end
 * the turn. Any other body is shown as plain text. Every text chunk is
 * one record of ordered assistant content ([protocol §4](wire-formats.html#protocol-4)), bounded to
 * 512 records and 256 KiB.
 *
 * [property@AskAdapter:connect-timeout] bounds the wait for the response
 * headers only: a slow answer that has started is never cut short.
 * Stopping the turn (cancelling the [class@Stream]) closes the connection
 * at once and ends the turn silently. Redirects are not followed: a 3xx
 * ends the turn with an error that names the status and the origin of
 * its `Location`. A body that ends without `done` (NDJSON) is cut off: its
 * turn ends with an error, what arrived kept. A failed request ends the
 * turn with an error chunk: `Ask request failed (STATUS).` for an HTTP
 * error, whose
 * code and attached metadata (`{"status":…,"error":{"code","message",
 * "retryable"}}`) carry the server's Ask error when its body holds one.
 *
 * All turns of an adapter share one `SoupSession`.
 *
 * Since: 0.1
 */

struct _AkcAskAdapter
{
  GObject             parent_instance;

  char               *endpoint;
  char               *corpus;
  char               *persona;
  char               *base_uri;
  char               *token;
  guint               connect_timeout;

  SoupSession        *session;
  GList              *turns;

  AkcAskReadObserver  read_observer;
  gpointer            read_observer_data;
};

static void akc_ask_adapter_iface_init (AkcAdapterInterface *iface);

static gboolean
set_string (char       **field,
            const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcAskAdapter, akc_ask_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_ask_adapter_iface_init))

enum {
  PROP_0,
  PROP_ENDPOINT,
  PROP_CORPUS,
  PROP_PERSONA,
  PROP_BASE_URI,
  PROP_CONNECT_TIMEOUT,
  N_PROPS
};

enum {
  PROJECT_TOOL,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* One turn                                                            */
/* ------------------------------------------------------------------ */

typedef struct
{
  AkcAskAdapter  *self;          /* a reference, so the adapter outlives its turns */
  AkcStream      *stream;
  AkcHttpStream  *http;
  AkcAskResponse *response;
  gboolean        answered;      /* the answer said done or error: the rest is not wanted */
  gboolean        abandoned;     /* the stream closed: nothing more is pushed */
  gboolean        no_content;    /* a 204 or 205 */
} Turn;

static void
turn_free (Turn *turn)
{
  turn->self->turns = g_list_remove (turn->self->turns, turn);

  g_clear_pointer (&turn->response, akc_ask_response_free);
  g_clear_object (&turn->http);
  g_clear_object (&turn->stream);
  g_object_unref (turn->self);
  g_free (turn);
}

static void
turn_push (Turn     *turn,
           AkcChunk *chunk)
{
  akc_stream_push (turn->stream, chunk);
}

static void
turn_emit (AkcChunk *chunk,
           gpointer  user_data)
{
  turn_push (user_data, chunk);
}

static void
turn_fail (Turn       *turn,
           const char *code,
           const char *message)
{
  akc_stream_fail (turn->stream, code, message);
}

static void
observe_read (Turn         *turn,
              const guint8 *data,
              gsize         length)
{
  g_autoptr(GBytes) bytes = NULL;

  if (turn->self->read_observer == NULL)
    return;
  if (data != NULL)
    bytes = g_bytes_new (data, length);
  turn->self->read_observer (bytes, turn->self->read_observer_data);
}

static AkcJsonValue *project_tool (AkcJsonValue *event,
                                   gpointer      user_data);

/* Each event of the answer, as it is read, for a view of the wire. */
static void
tap_event (AkcJsonValue *event,
           gpointer      user_data)
{
  Turn *turn = user_data;

  akc_stream_tap_wire_event (turn->stream, "received", event);
}

static void
push_http_error (Turn *turn)
{
  guint status = akc_http_stream_get_status (turn->http);
  g_autoptr(AkcChunk) chunk = NULL;
  g_autoptr(GBytes) body = NULL;
  gsize length = 0;
  const guint8 *data = NULL;

  body = akc_http_stream_get_error_body (turn->http, NULL);
  if (body != NULL)
    data = g_bytes_get_data (body, &length);
  akc_http_stream_tap_error (turn->http, turn->stream);
  chunk = akc_ask_response_http_error (status, data, length);
  turn_push (turn, chunk);
}

/* A 2xx answer: its body is read unless the stream closed meanwhile or
 * there is none. */
static gboolean
turn_response (AkcHttpStream  *http,
               SoupMessage    *message,
               gpointer        user_data,
               GError        **error)
{
  Turn *turn = user_data;
  guint status = akc_http_stream_get_status (http);
  const char *content_type;

  if (akc_stream_is_closed (turn->stream))
    {
      turn->abandoned = TRUE;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Stopped."));
      return FALSE;
    }

  if (status == SOUP_STATUS_NO_CONTENT || status == SOUP_STATUS_RESET_CONTENT)
    {
      turn->no_content = TRUE;
      g_set_error (error, AKC_HTTP_STREAM_ERROR, AKC_HTTP_STREAM_ERROR_STATUS, "HTTP %u", status);
      return FALSE;
    }

  content_type = soup_message_headers_get_one (soup_message_get_response_headers (message), "Content-Type");
  turn->response = akc_ask_response_new (content_type, project_tool, turn->self, turn_emit, turn);
  if (akc_stream_wants_wire_events (turn->stream))
    akc_ask_response_set_event_observer (turn->response, tap_event, turn);

  return TRUE;
}

/* Every read of the body as it comes (raw framing): the answer decodes
 * its own lines, as text or NDJSON. */
static AkcFrameResult
turn_frame (const AkcFrame  *frame,
            gpointer         user_data,
            GError         **error)
{
  Turn *turn = user_data;

  if (akc_stream_is_closed (turn->stream))
    {
      turn->abandoned = TRUE;
      return AKC_FRAME_END;
    }

  observe_read (turn, (const guint8 *) frame->data, frame->length);
  if (!akc_ask_response_feed (turn->response, (const guint8 *) frame->data, frame->length))
    {
      /* done or error: the rest of the body is not wanted. */
      turn->answered = TRUE;
      return AKC_FRAME_END;
    }

  return AKC_FRAME_CONTINUE;
}

static void
turn_done (AkcHttpStream *http,
           const GError  *error,
           gpointer       user_data)
{
  Turn *turn = user_data;

  if (turn->abandoned || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    ;
  else if (error == NULL)
    {
      if (!turn->answered)
        {
          observe_read (turn, NULL, 0);
          akc_ask_response_finish (turn->response);
        }
    }
  else if (turn->no_content)
    push_http_error (turn);
  else if (error->domain != AKC_HTTP_STREAM_ERROR)
    turn_fail (turn, AKC_ASK_ERROR_NETWORK, error->message);
  else
    switch ((AkcHttpStreamError) error->code)
      {
      case AKC_HTTP_STREAM_ERROR_TIMEOUT:
        turn_fail (turn, AKC_ASK_ERROR_TIMEOUT,
                   _("The Ask server did not answer in time. Check the endpoint address and the connection."));
        break;

      case AKC_HTTP_STREAM_ERROR_REDIRECT:
        {
          g_autoptr(AkcChunk) chunk = akc_ask_response_redirect_error (akc_http_stream_get_status (http),
                                                                       akc_http_stream_get_redirect_target (http));

          turn_push (turn, chunk);
        }
        break;

      case AKC_HTTP_STREAM_ERROR_STATUS:
        push_http_error (turn);
        break;

      case AKC_HTTP_STREAM_ERROR_CUT_OFF:
        {
          const GError *cause = akc_http_stream_get_cause (http);
          g_autofree char *message = NULL;

          message = g_strdup_printf (_("The Ask answer was cut off: %s"),
                                     cause != NULL ? cause->message : error->message);
          turn_fail (turn, AKC_ASK_ERROR_NETWORK, message);
        }
        break;

      case AKC_HTTP_STREAM_ERROR_CONNECT:
      case AKC_HTTP_STREAM_ERROR_LINE_TOO_LONG:
      case AKC_HTTP_STREAM_ERROR_EVENT_TOO_LARGE:
      case AKC_HTTP_STREAM_ERROR_TOO_MANY_FRAMES:
      default:
        turn_fail (turn, AKC_ASK_ERROR_NETWORK, error->message);
        break;
      }

  turn_free (turn);
}

/* ------------------------------------------------------------------ */
/* The tool projector                                                  */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
project_tool (AkcJsonValue *event,
              gpointer      user_data)
{
  AkcAskAdapter *self = user_data;
  AkcJsonValue *frame = NULL;

  g_signal_emit (self, signals[PROJECT_TOOL], 0, event, &frame);

  return frame;
}

/* ------------------------------------------------------------------ */
/* AkcAdapter                                                          */
/* ------------------------------------------------------------------ */

static GUri *
resolve_url (AkcAskAdapter *self,
             const char    *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (url[0] == '/' && url[1] != '/')
    {
      if (self->base_uri == NULL)
        return NULL;
      uri = g_uri_parse_relative (NULL, self->base_uri, G_URI_FLAGS_ENCODED, NULL);
      if (uri != NULL)
        {
          GUri *resolved = g_uri_parse_relative (uri, url, G_URI_FLAGS_ENCODED, NULL);

          g_uri_unref (uri);
          uri = resolved;
        }
    }
  else
    uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);

  if (uri == NULL)
    return NULL;

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return NULL;
  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    return NULL;

  return g_steal_pointer (&uri);
}

static void
akc_ask_adapter_stream (AkcAdapter        *adapter,
                        AkcAdapterRequest *request,
                        AkcStream         *stream)
{
  AkcAskAdapter *self = AKC_ASK_ADAPTER (adapter);
  g_autofree char *url = NULL;
  g_autofree char *body = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GBytes) body_bytes = NULL;
  g_autoptr(AkcJsonValue) messages = NULL;
  g_autoptr(SoupMessage) message = NULL;
  SoupMessageHeaders *headers;
  const char *session_id;
  gsize body_len;
  Turn *turn;

  if (akc_stream_is_closed (stream))
    return;

  url = akc_ask_adapter_dup_request_url (self);
  uri = resolve_url (self, url);
  if (uri == NULL)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("The Ask endpoint “%s” is not an absolute http or https address."), url);
      akc_stream_fail (stream, AKC_ASK_ERROR_ENDPOINT, text);
      return;
    }

  session_id = akc_adapter_request_get_session_id (request);
  messages = akc_ask_project_messages (akc_adapter_request_get_messages (request));
  body = akc_ask_request_body (session_id != NULL ? session_id : AKC_ASK_UNSCOPED_SESSION,
                               messages, akc_adapter_request_get_metadata (request), &body_len);
  akc_stream_tap_wire_text (stream, "sent", body, body_len);
  body_bytes = g_bytes_new_take (g_steal_pointer (&body), body_len);

  message = soup_message_new_from_uri (SOUP_METHOD_POST, uri);
  soup_message_set_request_body_from_bytes (message, "application/json", body_bytes);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "application/x-ndjson, text/plain;q=0.5, */*;q=0.1");
  akc_http_set_bearer (message, self->token);

  turn = g_new0 (Turn, 1);
  turn->self = g_object_ref (self);
  turn->stream = g_object_ref (stream);
  /* A redirect is an error that names where it points: following it
   * would turn the POST into a GET to another origin. */
  turn->http = akc_http_stream_new (self->session, message, AKC_FRAMING_RAW);
  akc_http_stream_set_connect_timeout (turn->http, self->connect_timeout);
  akc_http_stream_set_max_error_body (turn->http, AKC_HTTP_STREAM_DEFAULT_MAX_ERROR_BODY);
  /* Each read is one frame; the answer bounds what it keeps. */
  akc_line_framer_set_limits (akc_http_stream_get_framer (turn->http), 0, 0, 0);
  self->turns = g_list_prepend (self->turns, turn);

  /* Stopping the turn (cancelling the stream) closes the connection. */
  akc_http_stream_start (turn->http, akc_stream_get_cancellable (stream),
                         turn_response, turn_frame, turn_done, turn);
}

static void
akc_ask_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_ask_adapter_stream;
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
akc_ask_adapter_dispose (GObject *object)
{
  AkcAskAdapter *self = AKC_ASK_ADAPTER (object);

  if (self->session != NULL)
    soup_session_abort (self->session);

  G_OBJECT_CLASS (akc_ask_adapter_parent_class)->dispose (object);
}

static void
akc_ask_adapter_finalize (GObject *object)
{
  AkcAskAdapter *self = AKC_ASK_ADAPTER (object);

  g_assert (self->turns == NULL);

  akc_http_secret_replace (&self->token, NULL);
  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->corpus, g_free);
  g_clear_pointer (&self->persona, g_free);
  g_clear_pointer (&self->base_uri, g_free);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (akc_ask_adapter_parent_class)->finalize (object);
}

static void
akc_ask_adapter_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  AkcAskAdapter *self = AKC_ASK_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_value_set_string (value, self->endpoint);
      break;
    case PROP_CORPUS:
      g_value_set_string (value, self->corpus);
      break;
    case PROP_PERSONA:
      g_value_set_string (value, self->persona);
      break;
    case PROP_BASE_URI:
      g_value_set_string (value, self->base_uri);
      break;
    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_ask_adapter_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  AkcAskAdapter *self = AKC_ASK_ADAPTER (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_free (self->endpoint);
      self->endpoint = g_strdup (g_value_get_string (value) != NULL ? g_value_get_string (value)
                                                                    : AKC_ASK_ADAPTER_DEFAULT_ENDPOINT);
      break;
    case PROP_CORPUS:
      akc_ask_adapter_set_corpus (self, g_value_get_string (value));
      break;
    case PROP_PERSONA:
      akc_ask_adapter_set_persona (self, g_value_get_string (value));
      break;
    case PROP_BASE_URI:
      akc_ask_adapter_set_base_uri (self, g_value_get_string (value));
      break;
    case PROP_CONNECT_TIMEOUT:
      akc_ask_adapter_set_connect_timeout (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_ask_adapter_class_init (AkcAskAdapterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_ask_adapter_dispose;
  object_class->finalize = akc_ask_adapter_finalize;
  object_class->get_property = akc_ask_adapter_get_property;
  object_class->set_property = akc_ask_adapter_set_property;

  /**
   * AkcAskAdapter:endpoint:
   *
   * The Ask endpoint: an absolute http(s) URL, or a path resolved against
   * [property@AskAdapter:base-uri]. %NULL at construction means
   * %AKC_ASK_ADAPTER_DEFAULT_ENDPOINT.
   *
   * Since: 0.1
   */
  props[PROP_ENDPOINT] =
    g_param_spec_string ("endpoint", NULL, NULL,
                         AKC_ASK_ADAPTER_DEFAULT_ENDPOINT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskAdapter:corpus:
   *
   * The corpus to ask, sent as the `corpus` query parameter when it is
   * not blank.
   *
   * Since: 0.1
   */
  props[PROP_CORPUS] =
    g_param_spec_string ("corpus", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskAdapter:persona:
   *
   * The assistant persona, sent as the `persona` query parameter when it
   * is not blank.
   *
   * Since: 0.1
   */
  props[PROP_PERSONA] =
    g_param_spec_string ("persona", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskAdapter:base-uri:
   *
   * The absolute URI a root-relative endpoint (such as `/api/ask`) is
   * resolved against, or %NULL.
   *
   * Since: 0.1
   */
  props[PROP_BASE_URI] =
    g_param_spec_string ("base-uri", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskAdapter:connect-timeout:
   *
   * Milliseconds to wait for the response headers of a turn; 0 waits
   * for ever. Once the headers have arrived the answer streams for as
   * long as it takes.
   *
   * Since: 0.1
   */
  props[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL,
                       0, G_MAXINT, AKC_ASK_ADAPTER_DEFAULT_CONNECT_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);

  /**
   * AkcAskAdapter::project-tool:
   * @self: the adapter
   * @event: the Ask `tool` event, `{"type":"tool","id","name","args"}`
   *
   * Offers a tool event other than `answer` and `cite` to the host, which
   * may turn it into a component. A handler returns a render frame
   * ([protocol §3.1](wire-formats.html#protocol-3)); the first handler that returns one wins. A
   * frame that does not decode is ignored, and so is the event when no
   * handler returns a frame.
   *
   * Returns: (transfer full) (nullable): a render frame, or %NULL
   *
   * Since: 0.1
   */
  signals[PROJECT_TOOL] =
    g_signal_new ("project-tool",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  g_signal_accumulator_first_wins, NULL,
                  NULL,
                  AKC_TYPE_JSON_VALUE, 1,
                  AKC_TYPE_JSON_VALUE | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
akc_ask_adapter_init (AkcAskAdapter *self)
{
  self->connect_timeout = AKC_ASK_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  self->session = soup_session_new_with_options ("user-agent", "agentskit-chat/" PACKAGE_VERSION " ",
                                                 NULL);
}

/**
 * akc_ask_adapter_new:
 * @endpoint: (nullable): the Ask endpoint, or %NULL for
 *   %AKC_ASK_ADAPTER_DEFAULT_ENDPOINT
 *
 * Creates an adapter that asks @endpoint.
 *
 * Returns: (transfer full): a new #AkcAskAdapter
 *
 * Since: 0.1
 */
AkcAskAdapter *
akc_ask_adapter_new (const char *endpoint)
{
  return g_object_new (AKC_TYPE_ASK_ADAPTER, "endpoint", endpoint, NULL);
}

/**
 * akc_ask_adapter_get_endpoint:
 * @self: an adapter
 *
 * Gets the endpoint as given.
 *
 * Returns: (transfer none): the endpoint
 *
 * Since: 0.1
 */
const char *
akc_ask_adapter_get_endpoint (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), NULL);

  return self->endpoint;
}

/**
 * akc_ask_adapter_get_corpus:
 * @self: an adapter
 *
 * Gets [property@AskAdapter:corpus].
 *
 * Returns: (transfer none) (nullable): the corpus
 *
 * Since: 0.1
 */
const char *
akc_ask_adapter_get_corpus (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), NULL);

  return self->corpus;
}

/**
 * akc_ask_adapter_set_corpus:
 * @self: an adapter
 * @corpus: (nullable): the corpus, or %NULL
 *
 * Sets [property@AskAdapter:corpus], for the turns that start after.
 *
 * Since: 0.1
 */
void
akc_ask_adapter_set_corpus (AkcAskAdapter *self,
                            const char    *corpus)
{
  g_return_if_fail (AKC_IS_ASK_ADAPTER (self));

  if (set_string (&self->corpus, corpus))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CORPUS]);
}

/**
 * akc_ask_adapter_get_persona:
 * @self: an adapter
 *
 * Gets [property@AskAdapter:persona].
 *
 * Returns: (transfer none) (nullable): the persona
 *
 * Since: 0.1
 */
const char *
akc_ask_adapter_get_persona (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), NULL);

  return self->persona;
}

/**
 * akc_ask_adapter_set_persona:
 * @self: an adapter
 * @persona: (nullable): the persona, or %NULL
 *
 * Sets [property@AskAdapter:persona], for the turns that start after.
 *
 * Since: 0.1
 */
void
akc_ask_adapter_set_persona (AkcAskAdapter *self,
                             const char    *persona)
{
  g_return_if_fail (AKC_IS_ASK_ADAPTER (self));

  if (set_string (&self->persona, persona))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_PERSONA]);
}

/**
 * akc_ask_adapter_get_base_uri:
 * @self: an adapter
 *
 * Gets [property@AskAdapter:base-uri].
 *
 * Returns: (transfer none) (nullable): the base URI
 *
 * Since: 0.1
 */
const char *
akc_ask_adapter_get_base_uri (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), NULL);

  return self->base_uri;
}

/**
 * akc_ask_adapter_set_base_uri:
 * @self: an adapter
 * @base_uri: (nullable): an absolute http(s) URI, or %NULL
 *
 * Sets [property@AskAdapter:base-uri].
 *
 * Since: 0.1
 */
void
akc_ask_adapter_set_base_uri (AkcAskAdapter *self,
                              const char    *base_uri)
{
  g_return_if_fail (AKC_IS_ASK_ADAPTER (self));

  if (set_string (&self->base_uri, base_uri))
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_BASE_URI]);
}

/**
 * akc_ask_adapter_get_connect_timeout:
 * @self: an adapter
 *
 * Gets [property@AskAdapter:connect-timeout].
 *
 * Returns: milliseconds, 0 for none
 *
 * Since: 0.1
 */
guint
akc_ask_adapter_get_connect_timeout (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), 0);

  return self->connect_timeout;
}

/**
 * akc_ask_adapter_set_connect_timeout:
 * @self: an adapter
 * @timeout_ms: milliseconds to wait for response headers, 0 for ever
 *
 * Sets [property@AskAdapter:connect-timeout], for the turns that start
 * after.
 *
 * Since: 0.1
 */
void
akc_ask_adapter_set_connect_timeout (AkcAskAdapter *self,
                                     guint          timeout_ms)
{
  g_return_if_fail (AKC_IS_ASK_ADAPTER (self));
  g_return_if_fail (timeout_ms <= G_MAXINT);

  if (self->connect_timeout == timeout_ms)
    return;

  self->connect_timeout = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONNECT_TIMEOUT]);
}

/**
 * akc_ask_adapter_set_bearer_token:
 * @self: an adapter
 * @token: (nullable): the bearer token, or %NULL to send none
 *
 * Sets the token sent as `Authorization: Bearer TOKEN` with every
 * request that starts after. The adapter keeps it in memory only, wipes
 * it when it is replaced, and never shows it in a property, a log line or
 * an error. Look it up with [method@CredentialStore.lookup_async].
 *
 * Since: 0.1
 */
void
akc_ask_adapter_set_bearer_token (AkcAskAdapter *self,
                                  const char    *token)
{
  g_return_if_fail (AKC_IS_ASK_ADAPTER (self));

  akc_http_secret_replace (&self->token, token);
}

/**
 * akc_ask_adapter_has_bearer_token:
 * @self: an adapter
 *
 * Tells whether a bearer token is set.
 *
 * Returns: %TRUE when requests carry a bearer token
 *
 * Since: 0.1
 */
gboolean
akc_ask_adapter_has_bearer_token (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), FALSE);

  return self->token != NULL;
}

/**
 * akc_ask_adapter_dup_request_url:
 * @self: an adapter
 *
 * Computes the URL a turn posts to: the endpoint with the `corpus` and
 * `persona` query parameters set ([application §8.1](wire-formats.html#application-8)). A root-relative
 * endpoint stays root-relative.
 *
 * Returns: (transfer full): the URL
 *
 * Since: 0.1
 */
char *
akc_ask_adapter_dup_request_url (AkcAskAdapter *self)
{
  g_return_val_if_fail (AKC_IS_ASK_ADAPTER (self), NULL);

  return akc_ask_request_url (self->endpoint, self->corpus, self->persona);
}

void
akc_ask_adapter_set_read_observer (AkcAskAdapter      *self,
                                   AkcAskReadObserver  observer,
                                   gpointer            user_data)
{
  self->read_observer = observer;
  self->read_observer_data = user_data;
}

gsize
akc_ask_adapter_get_retained_size (AkcAskAdapter *self)
{
  gsize total = 0;

  for (GList *l = self->turns; l != NULL; l = l->next)
    {
      Turn *turn = l->data;

      if (turn->response != NULL)
        total += akc_ask_response_get_retained_size (turn->response);
    }

  return total;
}

guint
akc_ask_adapter_get_n_turns (AkcAskAdapter *self)
{
  return g_list_length (self->turns);
}

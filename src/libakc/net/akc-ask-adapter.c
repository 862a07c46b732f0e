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
#include "akc-http-redirect-private.h"

/* How much of a body one read asks for. */
#define READ_SIZE            65536
/* How much of a failed response's body is read for its error. */
#define MAX_ERROR_BODY_BYTES 65536

/**
 * AkcAskAdapter:
 *
 * The adapter of an Ask backend (application.md §8): each turn posts the
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
 * one record of ordered assistant content (protocol.md §4), bounded to
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
  GCancellable   *cancellable;
  gulong          stream_handler;
  SoupMessage    *message;
  GInputStream   *body;
  AkcAskResponse *response;
  GByteArray     *error_body;
  guint           status;
  guint           deadline_id;
  gboolean        timed_out;
} Turn;

static void
turn_free (Turn *turn)
{
  turn->self->turns = g_list_remove (turn->self->turns, turn);

  g_clear_handle_id (&turn->deadline_id, g_source_remove);
  if (turn->stream_handler != 0)
    g_cancellable_disconnect (akc_stream_get_cancellable (turn->stream), turn->stream_handler);
  g_clear_pointer (&turn->response, akc_ask_response_free);
  g_clear_pointer (&turn->error_body, g_byte_array_unref);
  g_clear_object (&turn->body);
  g_clear_object (&turn->message);
  g_clear_object (&turn->cancellable);
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

/* A failed transport step: silent after a stop, the deadline's error
 * after a timeout, the transport's message otherwise. */
static void
turn_fail_transport (Turn   *turn,
                     GError *error)
{
  if (turn->timed_out)
    {
      const char *message = _("The Ask server did not answer in time. Check the endpoint address and the connection.");

      turn_fail (turn, AKC_ASK_ERROR_TIMEOUT, message);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    turn_fail (turn, AKC_ASK_ERROR_NETWORK, error->message);
}

static gboolean
turn_deadline (gpointer data)
{
  Turn *turn = data;

  turn->deadline_id = 0;
  turn->timed_out = TRUE;
  g_cancellable_cancel (turn->cancellable);

  return G_SOURCE_REMOVE;
}

static void
turn_stream_cancelled (GCancellable *cancellable,
                       gpointer      data)
{
  Turn *turn = data;

  g_cancellable_cancel (turn->cancellable);
}

static void
observe_read (Turn   *turn,
              GBytes *bytes)
{
  if (turn->self->read_observer != NULL)
    turn->self->read_observer (bytes, turn->self->read_observer_data);
}

static AkcJsonValue *project_tool (AkcJsonValue *event,
                                   gpointer      user_data);

static void read_body_cb  (GObject      *source,
                           GAsyncResult *result,
                           gpointer      data);
static void read_error_cb (GObject      *source,
                           GAsyncResult *result,
                           gpointer      data);

static void
read_next (Turn *turn)
{
  g_input_stream_read_bytes_async (turn->body, READ_SIZE, G_PRIORITY_DEFAULT,
                                   turn->cancellable, read_body_cb, turn);
}

static void
read_body_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  Turn *turn = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  const guint8 *bytes_data;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL)
    {
      if (akc_stream_is_closed (turn->stream) && !turn->timed_out)
        ;
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        turn_fail_transport (turn, error);
      else
        {
          g_autofree char *message = NULL;

          message = g_strdup_printf (_("The Ask answer was cut off: %s"), error->message);
          turn_fail (turn, AKC_ASK_ERROR_NETWORK, message);
        }
      turn_free (turn);
      return;
    }

  if (akc_stream_is_closed (turn->stream))
    {
      turn_free (turn);
      return;
    }

  bytes_data = g_bytes_get_data (bytes, &length);
  if (length == 0)
    {
      observe_read (turn, NULL);
      akc_ask_response_finish (turn->response);
      turn_free (turn);
      return;
    }

  observe_read (turn, bytes);
  if (!akc_ask_response_feed (turn->response, bytes_data, length))
    {
      /* done or error: the rest of the body is not wanted. */
      g_cancellable_cancel (turn->cancellable);
      turn_free (turn);
      return;
    }

  read_next (turn);
}

static void
finish_http_error (Turn *turn)
{
  g_autoptr(AkcChunk) chunk = NULL;

  if (AKC_HTTP_STATUS_IS_REDIRECT (turn->status))
    {
      g_autofree char *target = akc_http_dup_redirect_target (turn->message);

      chunk = akc_ask_response_redirect_error (turn->status, target);
    }
  else
    chunk = akc_ask_response_http_error (turn->status,
                                         turn->error_body != NULL ? turn->error_body->data : NULL,
                                         turn->error_body != NULL ? turn->error_body->len : 0);
  turn_push (turn, chunk);
  g_cancellable_cancel (turn->cancellable);
  turn_free (turn);
}

static void
read_error_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  Turn *turn = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);
  if (bytes == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !turn->timed_out)
    {
      turn_free (turn);
      return;
    }

  if (bytes != NULL && g_bytes_get_size (bytes) > 0)
    {
      gsize room = MAX_ERROR_BODY_BYTES - turn->error_body->len;

      /* The body is capped by keeping its first bytes: what is past the
       * cap is never asked for. */
      g_byte_array_append (turn->error_body, g_bytes_get_data (bytes, NULL),
                           MIN (g_bytes_get_size (bytes), room));
      if (turn->error_body->len < MAX_ERROR_BODY_BYTES)
        {
          g_input_stream_read_bytes_async (turn->body, MAX_ERROR_BODY_BYTES - turn->error_body->len,
                                           G_PRIORITY_DEFAULT, turn->cancellable, read_error_cb, turn);
          return;
        }
    }

  /* The end, a read error or the cap: the status decides, with the
   * server's error when the body holds one. */
  g_clear_handle_id (&turn->deadline_id, g_source_remove);
  finish_http_error (turn);
}

static void
send_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Turn *turn = data;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  const char *content_type;

  turn->body = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  g_clear_handle_id (&turn->deadline_id, g_source_remove);

  if (turn->body == NULL)
    {
      turn->status = soup_message_get_status (turn->message);
      if (akc_stream_is_closed (turn->stream) && !turn->timed_out)
        ;
      else if (turn->status >= 300)
        {
          /* An error status whose body never came (libsoup reads the
           * body of a 401 before it returns) or was cut: the status
           * tells what went wrong. */
          finish_http_error (turn);
          return;
        }
      else
        turn_fail_transport (turn, error);
      turn_free (turn);
      return;
    }

  if (akc_stream_is_closed (turn->stream))
    {
      g_cancellable_cancel (turn->cancellable);
      turn_free (turn);
      return;
    }

  turn->status = soup_message_get_status (turn->message);
  if (turn->status < 200 || turn->status > 299)
    {
      /* The error body is read with the connection deadline again, so a
       * failed response that never ends cannot hold the turn. */
      turn->error_body = g_byte_array_new ();
      turn->deadline_id = g_timeout_add (turn->self->connect_timeout, turn_deadline, turn);
      g_input_stream_read_bytes_async (turn->body, MAX_ERROR_BODY_BYTES, G_PRIORITY_DEFAULT,
                                       turn->cancellable, read_error_cb, turn);
      return;
    }

  if (turn->status == SOUP_STATUS_NO_CONTENT || turn->status == SOUP_STATUS_RESET_CONTENT)
    {
      finish_http_error (turn);
      return;
    }

  headers = soup_message_get_response_headers (turn->message);
  content_type = soup_message_headers_get_one (headers, "Content-Type");
  turn->response = akc_ask_response_new (content_type, project_tool, turn->self, turn_emit, turn);

  read_next (turn);
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
      g_autofree char *message = NULL;

      message = g_strdup_printf (_("The Ask endpoint “%s” is not an absolute http or https address."), url);
      akc_stream_fail (stream, AKC_ASK_ERROR_ENDPOINT, message);
      return;
    }

  session_id = akc_adapter_request_get_session_id (request);
  messages = akc_ask_project_messages (akc_adapter_request_get_messages (request));
  body = akc_ask_request_body (session_id != NULL ? session_id : AKC_ASK_UNSCOPED_SESSION,
                               messages, akc_adapter_request_get_metadata (request), &body_len);
  body_bytes = g_bytes_new_take (g_steal_pointer (&body), body_len);

  turn = g_new0 (Turn, 1);
  turn->self = g_object_ref (self);
  turn->stream = g_object_ref (stream);
  turn->cancellable = g_cancellable_new ();
  turn->message = soup_message_new_from_uri (SOUP_METHOD_POST, uri);
  /* A redirect is an error that names where it points: following it
   * would turn the POST into a GET to another origin. */
  soup_message_add_flags (turn->message, SOUP_MESSAGE_NO_REDIRECT);
  self->turns = g_list_prepend (self->turns, turn);

  soup_message_set_request_body_from_bytes (turn->message, "application/json", body_bytes);
  headers = soup_message_get_request_headers (turn->message);
  soup_message_headers_replace (headers, "Accept", "application/x-ndjson, text/plain;q=0.5, */*;q=0.1");
  if (self->token != NULL)
    {
      g_autofree char *authorization = g_strconcat ("Bearer ", self->token, NULL);

      soup_message_headers_replace (headers, "Authorization", authorization);
      explicit_bzero (authorization, strlen (authorization));
    }

  turn->stream_handler = g_cancellable_connect (akc_stream_get_cancellable (stream),
                                                G_CALLBACK (turn_stream_cancelled), turn, NULL);
  if (self->connect_timeout > 0)
    turn->deadline_id = g_timeout_add (self->connect_timeout, turn_deadline, turn);

  soup_session_send_async (self->session, turn->message, G_PRIORITY_DEFAULT,
                           turn->cancellable, send_cb, turn);
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

  if (self->token != NULL)
    explicit_bzero (self->token, strlen (self->token));
  g_clear_pointer (&self->token, g_free);
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
   */
  props[PROP_CORPUS] =
    g_param_spec_string ("corpus", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskAdapter:persona:
   *
   * The assistant persona, sent as the `persona` query parameter when it
   * is not blank.
   */
  props[PROP_PERSONA] =
    g_param_spec_string ("persona", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcAskAdapter:base-uri:
   *
   * The absolute URI a root-relative endpoint (such as `/api/ask`) is
   * resolved against, or %NULL.
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
   * (protocol.md §3.1); the first handler that returns one wins. A
   * frame that does not decode is ignored, and so is the event when no
   * handler returns a frame.
   *
   * Returns: (transfer full) (nullable): a render frame, or %NULL
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
 */
void
akc_ask_adapter_set_bearer_token (AkcAskAdapter *self,
                                  const char    *token)
{
  g_return_if_fail (AKC_IS_ASK_ADAPTER (self));

  if (self->token != NULL)
    explicit_bzero (self->token, strlen (self->token));
  g_clear_pointer (&self->token, g_free);
  if (token != NULL && token[0] != '\0')
    self->token = g_strdup (token);
}

/**
 * akc_ask_adapter_has_bearer_token:
 * @self: an adapter
 *
 * Tells whether a bearer token is set.
 *
 * Returns: %TRUE when requests carry a bearer token
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
 * `persona` query parameters set (application.md §8.1). A root-relative
 * endpoint stays root-relative.
 *
 * Returns: (transfer full): the URL
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

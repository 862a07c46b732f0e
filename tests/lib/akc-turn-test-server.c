/* akc-turn-test-server.c: a loopback HTTP server for the turn client
 * tests, which plays scripted (and hostile) responses
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

#include <libsoup/soup.h>

#include "akc-turn-test-server.h"

#define ENDLESS_CHUNK (64 * 1024)

typedef struct {
  GBytes *data;
  guint   delay_ms;
} Chunk;

typedef struct {
  guint           status;
  char           *content_type;
  GArray         *chunks;   /* Chunk */
  AkcTurnTestEnd  end;
} Script;

typedef struct {
  AkcTurnTestServer *server;
  SoupServerMessage *message;
  Script            *script;
  guint              next;
  guint              timer;
  gboolean           finished;
} Response;

struct _AkcTurnTestServer
{
  SoupServer         *server;
  char               *url;
  Script             *script;      /* the next response */
  Response           *response;    /* the response being played, nullable */
  guint               n_requests;
  char               *method;
  SoupMessageHeaders *headers;
  char               *body;
  guint64             bytes_sent;
  gboolean            finished;
};

static void
chunk_clear (gpointer data)
{
  g_bytes_unref (((Chunk *) data)->data);
}

static Script *
script_new (void)
{
  Script *script = g_new0 (Script, 1);

  script->status = SOUP_STATUS_OK;
  script->content_type = g_strdup ("application/x-ndjson; charset=utf-8");
  script->chunks = g_array_new (FALSE, TRUE, sizeof (Chunk));
  g_array_set_clear_func (script->chunks, chunk_clear);

  return script;
}

static void
script_free (Script *script)
{
  g_free (script->content_type);
  g_array_unref (script->chunks);
  g_free (script);
}

static void
response_stop (Response *response)
{
  g_clear_handle_id (&response->timer, g_source_remove);
}

static void
response_free (Response *response)
{
  response_stop (response);
  g_signal_handlers_disconnect_by_data (response->message, response);
  g_clear_object (&response->message);
  script_free (response->script);
  g_free (response);
}

static void
on_finished (SoupServerMessage *message,
             Response          *response)
{
  response->finished = TRUE;
  response->server->finished = TRUE;
  response_stop (response);
}

static void
on_wrote_body_data (SoupServerMessage *message,
                    guint              length,
                    Response          *response)
{
  response->server->bytes_sent += length;
}

static gboolean play (gpointer data);

static void
schedule (Response *response,
          guint     delay_ms)
{
  response->timer = g_timeout_add (delay_ms, play, response);
}

static gboolean
disconnect_later (gpointer data)
{
  Response *response = data;
  GIOStream *stream;

  response->timer = 0;
  /* Everything written so far has left; the rest never comes. */
  stream = soup_server_message_steal_connection (response->message);
  g_io_stream_close (stream, NULL, NULL);
  g_object_unref (stream);
  response->finished = TRUE;
  response->server->finished = TRUE;

  return G_SOURCE_REMOVE;
}

static gboolean
play (gpointer data)
{
  Response *response = data;
  SoupMessageBody *body = soup_server_message_get_response_body (response->message);
  Script *script = response->script;

  response->timer = 0;
  if (response->finished)
    return G_SOURCE_REMOVE;

  if (response->next < script->chunks->len)
    {
      Chunk *chunk = &g_array_index (script->chunks, Chunk, response->next++);

      soup_message_body_append_bytes (body, chunk->data);
      soup_server_message_unpause (response->message);
      if (response->next < script->chunks->len)
        schedule (response, g_array_index (script->chunks, Chunk, response->next).delay_ms);
      else
        schedule (response, 0);
      return G_SOURCE_REMOVE;
    }

  switch (script->end)
    {
    case AKC_TURN_TEST_END_COMPLETE:
      soup_message_body_complete (body);
      soup_server_message_unpause (response->message);
      break;

    case AKC_TURN_TEST_END_DISCONNECT:
      /* Let the last chunk go out first. */
      response->timer = g_timeout_add (50, disconnect_later, response);
      break;

    case AKC_TURN_TEST_END_ENDLESS:
      {
        g_autofree char *filler = g_malloc (ENDLESS_CHUNK);

        memset (filler, 'x', ENDLESS_CHUNK);
        soup_message_body_append (body, SOUP_MEMORY_TAKE, g_steal_pointer (&filler), ENDLESS_CHUNK);
        soup_server_message_unpause (response->message);
        schedule (response, 1);
        break;
      }

    case AKC_TURN_TEST_END_HANG:
    default:
      break;
    }

  return G_SOURCE_REMOVE;
}

static void
handle (SoupServer        *soup_server,
        SoupServerMessage *message,
        const char        *path,
        GHashTable        *query,
        gpointer           user_data)
{
  AkcTurnTestServer *self = user_data;
  SoupMessageBody *request = soup_server_message_get_request_body (message);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);
  Response *response;

  self->n_requests++;
  g_free (self->method);
  self->method = g_strdup (soup_server_message_get_method (message));
  g_clear_pointer (&self->headers, soup_message_headers_unref);
  self->headers = soup_message_headers_ref (soup_server_message_get_request_headers (message));
  g_free (self->body);
  self->body = g_strndup (request->data, request->length);
  self->bytes_sent = 0;
  self->finished = FALSE;

  g_clear_pointer (&self->response, response_free);
  response = g_new0 (Response, 1);
  response->server = self;
  response->message = g_object_ref (message);
  response->script = g_steal_pointer (&self->script);
  self->script = script_new ();
  self->response = response;

  g_signal_connect (message, "finished", G_CALLBACK (on_finished), response);
  g_signal_connect (message, "disconnected", G_CALLBACK (on_finished), response);
  g_signal_connect (message, "wrote-body-data", G_CALLBACK (on_wrote_body_data), response);

  soup_server_message_pause (message);
  if (response->script->end == AKC_TURN_TEST_END_HANG && response->script->chunks->len == 0)
    return;

  soup_server_message_set_status (message, response->script->status, NULL);
  if (response->script->content_type != NULL)
    soup_message_headers_set_content_type (headers, response->script->content_type, NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (message), FALSE);
  schedule (response, response->script->chunks->len > 0
                      ? g_array_index (response->script->chunks, Chunk, 0).delay_ms : 0);
}

AkcTurnTestServer *
akc_turn_test_server_new (void)
{
  AkcTurnTestServer *self = g_new0 (AkcTurnTestServer, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;
  g_autofree char *base = NULL;

  self->server = soup_server_new (NULL, NULL);
  self->script = script_new ();
  soup_server_add_handler (self->server, NULL, handle, self, NULL);
  soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (self->server);
  g_assert_nonnull (uris);
  base = g_uri_to_string (uris->data);
  self->url = g_strconcat (base, g_str_has_suffix (base, "/") ? "" : "/", "turn", NULL);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return self;
}

void
akc_turn_test_server_free (AkcTurnTestServer *self)
{
  soup_server_disconnect (self->server);
  g_clear_pointer (&self->response, response_free);
  g_clear_object (&self->server);
  script_free (self->script);
  g_free (self->url);
  g_free (self->method);
  g_clear_pointer (&self->headers, soup_message_headers_unref);
  g_free (self->body);
  g_free (self);
}

const char *
akc_turn_test_server_get_url (AkcTurnTestServer *self)
{
  return self->url;
}

void
akc_turn_test_server_respond (AkcTurnTestServer *self,
                              guint              status,
                              const char        *content_type)
{
  script_free (self->script);
  self->script = script_new ();
  self->script->status = status;
  g_free (self->script->content_type);
  self->script->content_type = g_strdup (content_type);
}

void
akc_turn_test_server_add_chunk (AkcTurnTestServer *self,
                                const char        *data,
                                gssize             length,
                                guint              delay_ms)
{
  Chunk chunk;

  chunk.data = g_bytes_new (data, length < 0 ? strlen (data) : (gsize) length);
  chunk.delay_ms = delay_ms;
  g_array_append_val (self->script->chunks, chunk);
}

void
akc_turn_test_server_set_end (AkcTurnTestServer *self,
                              AkcTurnTestEnd     end)
{
  self->script->end = end;
}

guint
akc_turn_test_server_get_n_requests (AkcTurnTestServer *self)
{
  return self->n_requests;
}

const char *
akc_turn_test_server_get_method (AkcTurnTestServer *self)
{
  return self->method;
}

const char *
akc_turn_test_server_get_header (AkcTurnTestServer *self,
                                 const char        *name)
{
  return self->headers != NULL ? soup_message_headers_get_one (self->headers, name) : NULL;
}

const char *
akc_turn_test_server_get_body (AkcTurnTestServer *self)
{
  return self->body;
}

guint64
akc_turn_test_server_get_bytes_sent (AkcTurnTestServer *self)
{
  return self->bytes_sent;
}

gboolean
akc_turn_test_server_get_finished (AkcTurnTestServer *self)
{
  return self->finished;
}

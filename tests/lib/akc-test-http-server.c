/* akc-test-http-server.c: a loopback SoupServer that serves scripted
 * responses, for tests of HTTP clients
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-test-http-server.h"

struct _AkcTestHttpServer
{
  SoupServer        *server;
  char              *base_uri;
  AkcTestResponse   *response;

  /* The request being answered. */
  SoupServerMessage *message;
  guint              next_chunk;
  gsize              written;
  gsize              consumed;
  gboolean           waiting_for_write;
  gboolean           body_done;
  gboolean           releasing;   /* the chunk of a release, then the end */
  gboolean           released;
  guint              timeout_id;
  guint              idle_id;

  /* What the last request was. */
  guint              n_requests;
  char              *method;
  char              *path_query;
  GBytes            *body;
  SoupMessageHeaders *headers;
  gboolean           finished;
  gboolean           completed;
  guint              n_written;

  /* Every request: its path and its body. */
  GPtrArray         *paths;    /* char * */
  GPtrArray         *bodies;   /* GBytes */
};

AkcTestResponse *
akc_test_response_new (guint       status,
                       const char *content_type)
{
  AkcTestResponse *response = g_new0 (AkcTestResponse, 1);

  response->status = status;
  response->content_type = g_strdup (content_type);
  response->chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  return response;
}

void
akc_test_response_add_chunk (AkcTestResponse *response,
                             const char      *data,
                             gssize           length)
{
  if (length < 0)
    length = strlen (data);
  g_ptr_array_add (response->chunks, g_bytes_new (data, length));
}

void
akc_test_response_free (AkcTestResponse *response)
{
  if (response == NULL)
    return;
  g_free (response->content_type);
  g_ptr_array_unref (response->chunks);
  g_free (response);
}

static GBytes *
chunk_at (AkcTestHttpServer *self,
          guint              index)
{
  AkcTestResponse *response = self->response;

  if (index < response->chunks->len)
    return g_bytes_ref (g_ptr_array_index (response->chunks, index));
  if (response->generate != NULL)
    return response->generate (index, response->generate_data);
  return NULL;
}

static void release_message (AkcTestHttpServer *self);

static void
write_next (AkcTestHttpServer *self);

static gboolean
write_next_cb (gpointer data)
{
  AkcTestHttpServer *self = data;

  self->timeout_id = 0;
  self->idle_id = 0;
  write_next (self);

  return G_SOURCE_REMOVE;
}

static gboolean
disconnect_cb (gpointer data)
{
  AkcTestHttpServer *self = data;
  self->idle_id = 0;
  if (self->message == NULL)
    return G_SOURCE_REMOVE;

  {
    GSocket *socket = soup_server_message_get_socket (self->message);

    /* The peer sees the connection end with no terminating chunk. */
    if (socket != NULL)
      g_socket_shutdown (socket, TRUE, TRUE, NULL);
  }
  soup_server_message_unpause (self->message);

  return G_SOURCE_REMOVE;
}

/* Queues the next chunk, or ends the body. */
static void
write_next (AkcTestHttpServer *self)
{
  AkcTestResponse *response = self->response;
  SoupMessageBody *body;
  g_autoptr(GBytes) chunk = NULL;

  if (self->message == NULL)
    return;
  if (self->body_done)
    {
      /* The chunk of akc_test_http_server_release() is written: the end. */
      if (self->releasing)
        {
          self->releasing = FALSE;
          soup_message_body_complete (soup_server_message_get_response_body (self->message));
          soup_server_message_unpause (self->message);
        }
      return;
    }

  if (response->paced && self->consumed < self->written)
    return;

  body = soup_server_message_get_response_body (self->message);
  chunk = chunk_at (self, self->next_chunk);

  if (chunk == NULL)
    {
      self->body_done = TRUE;
      switch (response->end)
        {
        case AKC_TEST_END_COMPLETE:
          soup_message_body_complete (body);
          soup_server_message_unpause (self->message);
          break;
        case AKC_TEST_END_DISCONNECT:
          self->idle_id = g_idle_add (disconnect_cb, self);
          break;
        case AKC_TEST_END_OPEN:
        case AKC_TEST_END_HANG_BEFORE_HEADERS:
        default:
          break;
        }
      return;
    }

  self->next_chunk++;
  self->written += g_bytes_get_size (chunk);
  self->waiting_for_write = TRUE;
  soup_message_body_append_bytes (body, chunk);
  soup_server_message_unpause (self->message);
}

static void
schedule_next (AkcTestHttpServer *self)
{
  if (self->timeout_id != 0 || self->idle_id != 0)
    return;
  if (self->response->drip_ms > 0)
    self->timeout_id = g_timeout_add (self->response->drip_ms, write_next_cb, self);
  else
    self->idle_id = g_idle_add (write_next_cb, self);
}

static void
wrote_chunk_cb (SoupServerMessage *message,
                gpointer           data)
{
  AkcTestHttpServer *self = data;

  if (message != self->message)
    return;

  self->waiting_for_write = FALSE;
  self->n_written++;
  soup_server_message_pause (message);
  schedule_next (self);
}

static void
wrote_body_cb (SoupServerMessage *message,
               gpointer           data)
{
  AkcTestHttpServer *self = data;

  if (message == self->message)
    self->completed = TRUE;
}

static void
finished_cb (SoupServerMessage *message,
             gpointer           data)
{
  AkcTestHttpServer *self = data;

  if (message != self->message)
    return;

  self->finished = TRUE;
  release_message (self);
}

static void
release_message (AkcTestHttpServer *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->message != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->message, self);
      g_clear_object (&self->message);
    }
}

static void
handler (SoupServer        *server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           data)
{
  AkcTestHttpServer *self = data;
  AkcTestResponse *response = self->response;
  SoupMessageHeaders *headers;
  SoupMessageBody *request_body;
  GUri *uri = soup_server_message_get_uri (message);

  /* A new request replaces the one being answered. */
  release_message (self);

  self->n_requests++;
  g_free (self->method);
  self->method = g_strdup (soup_server_message_get_method (message));
  g_free (self->path_query);
  self->path_query = g_uri_get_query (uri) != NULL
    ? g_strconcat (g_uri_get_path (uri), "?", g_uri_get_query (uri), NULL)
    : g_strdup (g_uri_get_path (uri));
  request_body = soup_server_message_get_request_body (message);
  g_clear_pointer (&self->body, g_bytes_unref);
  self->body = soup_message_body_flatten (request_body);
  g_ptr_array_add (self->paths, g_strdup (g_uri_get_path (uri)));
  g_ptr_array_add (self->bodies, g_bytes_ref (self->body));
  g_clear_pointer (&self->headers, soup_message_headers_unref);
  self->headers = soup_message_headers_ref (soup_server_message_get_request_headers (message));
  self->finished = FALSE;
  self->completed = FALSE;
  self->n_written = 0;
  self->next_chunk = 0;
  self->written = 0;
  self->consumed = 0;
  self->body_done = FALSE;
  self->releasing = FALSE;
  self->released = FALSE;

  self->message = g_object_ref (message);
  g_signal_connect (message, "wrote-chunk", G_CALLBACK (wrote_chunk_cb), self);
  g_signal_connect (message, "wrote-body", G_CALLBACK (wrote_body_cb), self);
  g_signal_connect (message, "finished", G_CALLBACK (finished_cb), self);

  if (response == NULL || response->end == AKC_TEST_END_HANG_BEFORE_HEADERS)
    {
      soup_server_message_pause (message);
      return;
    }

  soup_server_message_set_status (message, response->status != 0 ? response->status : 200, NULL);
  headers = soup_server_message_get_response_headers (message);
  if (response->content_type != NULL)
    soup_message_headers_replace (headers, "Content-Type", response->content_type);
  if (response->close)
    soup_message_headers_replace (headers, "Connection", "close");

  if (response->content_length)
    {
      SoupMessageBody *body = soup_server_message_get_response_body (message);

      for (guint i = 0; i < response->chunks->len; i++)
        soup_message_body_append_bytes (body, g_ptr_array_index (response->chunks, i));
      self->body_done = TRUE;
      return;
    }

  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_server_message_pause (message);
  schedule_next (self);
}

/* When the server drops a connection on purpose (AKC_TEST_END_DISCONNECT),
 * libsoup's server side warns that the peer is gone; that is the point,
 * not a failure of the client under test. */
static gboolean
ignore_server_disconnect (const char     *log_domain,
                          GLogLevelFlags  log_level,
                          const char     *message,
                          gpointer        user_data)
{
  return !(g_strcmp0 (log_domain, "libsoup") == 0 &&
           strstr (message, "could not get remote address") != NULL);
}

AkcTestHttpServer *
akc_test_http_server_new (void)
{
  AkcTestHttpServer *self = g_new0 (AkcTestHttpServer, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_test_log_set_fatal_handler (ignore_server_disconnect, NULL);
  self->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (self->server, NULL, handler, self, NULL);
  soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (self->server);
  g_assert_nonnull (uris);
  self->base_uri = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return self;
}

void
akc_test_http_server_free (AkcTestHttpServer *self)
{
  SoupServer *server = self->server;

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->message != NULL)
    {
      SoupServerMessage *message = g_steal_pointer (&self->message);

      /* A message left paused (never answered, or left open) ends now. */
      g_signal_handlers_disconnect_by_data (message, self);
      if (!self->body_done)
        {
          self->body_done = TRUE;
          soup_message_body_complete (soup_server_message_get_response_body (message));
        }
      soup_server_message_unpause (message);
      g_object_unref (message);
    }

  /* The connections end once their sockets are read: let them. */
  soup_server_disconnect (server);
  g_object_add_weak_pointer (G_OBJECT (server), (gpointer *) &server);
  g_object_unref (self->server);
  self->server = NULL;
  while (server != NULL && g_main_context_iteration (NULL, FALSE))
    ;
  if (server != NULL)
    g_object_remove_weak_pointer (G_OBJECT (server), (gpointer *) &server);

  akc_test_response_free (self->response);
  g_clear_pointer (&self->body, g_bytes_unref);
  g_clear_pointer (&self->headers, soup_message_headers_unref);
  g_ptr_array_unref (self->paths);
  g_ptr_array_unref (self->bodies);
  g_free (self->method);
  g_free (self->path_query);
  g_free (self->base_uri);
  g_free (self);
}

const char *
akc_test_http_server_get_base_uri (AkcTestHttpServer *self)
{
  return self->base_uri;
}

void
akc_test_http_server_set_response (AkcTestHttpServer *self,
                                   AkcTestResponse   *response)
{
  akc_test_response_free (self->response);
  self->response = response;
}

void
akc_test_http_server_respond (AkcTestHttpServer *self,
                              guint              status,
                              const char        *content_type,
                              const char        *body)
{
  AkcTestResponse *response = akc_test_response_new (status, content_type);

  akc_test_response_add_chunk (response, body, -1);
  akc_test_http_server_set_response (self, response);
}

void
akc_test_http_server_consumed (AkcTestHttpServer *self,
                               gsize              n_bytes)
{
  self->consumed += n_bytes;
  if (self->message != NULL && self->response != NULL && self->response->paced &&
      !self->waiting_for_write && self->consumed >= self->written)
    schedule_next (self);
}

gboolean
akc_test_http_server_get_held (AkcTestHttpServer *self)
{
  return self->message != NULL && self->body_done && self->response != NULL &&
         self->response->end == AKC_TEST_END_OPEN && !self->waiting_for_write && !self->releasing &&
         !self->released;
}

gboolean
akc_test_http_server_release (AkcTestHttpServer *self,
                              const char        *data)
{
  SoupMessageBody *body;

  if (!akc_test_http_server_get_held (self))
    return FALSE;

  body = soup_server_message_get_response_body (self->message);
  self->released = TRUE;
  if (data != NULL && *data != '\0')
    {
      /* The end once the chunk is written (write_next()). */
      self->releasing = TRUE;
      self->waiting_for_write = TRUE;
      self->written += strlen (data);
      soup_message_body_append (body, SOUP_MEMORY_COPY, data, strlen (data));
    }
  else
    {
      soup_message_body_complete (body);
    }
  soup_server_message_unpause (self->message);

  return TRUE;
}

const char *
akc_test_http_server_get_nth_path (AkcTestHttpServer *self,
                                   guint              index)
{
  return index < self->paths->len ? g_ptr_array_index (self->paths, index) : NULL;
}

GBytes *
akc_test_http_server_get_nth_body (AkcTestHttpServer *self,
                                   guint              index)
{
  return index < self->bodies->len ? g_ptr_array_index (self->bodies, index) : NULL;
}

int
akc_test_http_server_find_request (AkcTestHttpServer *self,
                                   guint              from,
                                   const char        *path,
                                   const char        *needle)
{
  for (guint i = from; i < self->paths->len; i++)
    {
      gsize length = 0;
      const char *data = g_bytes_get_data (g_ptr_array_index (self->bodies, i), &length);

      if (g_strcmp0 (g_ptr_array_index (self->paths, i), path) == 0 &&
          (needle == NULL || (data != NULL && g_strstr_len (data, (gssize) length, needle) != NULL)))
        return (int) i;
    }

  return -1;
}

guint
akc_test_http_server_get_n_requests (AkcTestHttpServer *self)
{
  return self->n_requests;
}

const char *
akc_test_http_server_get_method (AkcTestHttpServer *self)
{
  return self->method;
}

const char *
akc_test_http_server_get_path_query (AkcTestHttpServer *self)
{
  return self->path_query;
}

GBytes *
akc_test_http_server_get_body (AkcTestHttpServer *self)
{
  return self->body;
}

const char *
akc_test_http_server_get_header (AkcTestHttpServer *self,
                                 const char        *name)
{
  return self->headers != NULL ? soup_message_headers_get_one (self->headers, name) : NULL;
}

gboolean
akc_test_http_server_get_cut_off (AkcTestHttpServer *self)
{
  return self->finished && !self->completed;
}

gboolean
akc_test_http_server_get_finished (AkcTestHttpServer *self)
{
  return self->finished;
}

guint
akc_test_http_server_get_n_written (AkcTestHttpServer *self)
{
  return self->n_written;
}

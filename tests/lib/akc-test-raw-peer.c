/* akc-test-raw-peer.c: a loopback HTTP peer that writes raw bytes
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include "akc-test-raw-peer.h"

struct _AkcTestRawPeer
{
  GSocketService     *service;
  char               *base_uri;
  GCancellable       *cancellable;

  GMutex              lock;
  GCond               idle;
  guint               active;
  guint               n_requests;
  char               *last_request;

  GBytes             *head;
  AkcTestRawGenerate  generate;
  gpointer            generate_data;
  guint               drip_ms;
  AkcTestRawEnd       end;
};

/* Reads the request head and its Content-Length body; FALSE when the
 * client went away first. */
static gboolean
read_request (AkcTestRawPeer *self,
              GInputStream   *in)
{
  g_autoptr(GString) request = g_string_new (NULL);
  char buffer[4096];
  gssize n;
  const char *end = NULL;
  gsize content_length = 0, head_length;

  while (end == NULL && (n = g_input_stream_read (in, buffer, sizeof buffer, self->cancellable, NULL)) > 0)
    {
      g_string_append_len (request, buffer, n);
      end = strstr (request->str, "\r\n\r\n");
    }
  if (end == NULL)
    return FALSE;

  head_length = end + 4 - request->str;
  {
    g_autofree char *lower = g_ascii_strdown (request->str, head_length);
    const char *cl = strstr (lower, "\r\ncontent-length:");

    if (cl != NULL)
      content_length = g_ascii_strtoull (cl + 17, NULL, 10);
  }
  while (request->len < head_length + content_length &&
         (n = g_input_stream_read (in, buffer, sizeof buffer, self->cancellable, NULL)) > 0)
    g_string_append_len (request, buffer, n);

  g_mutex_lock (&self->lock);
  self->n_requests++;
  g_free (self->last_request);
  self->last_request = g_strndup (request->str, head_length);
  g_mutex_unlock (&self->lock);

  return TRUE;
}

/* Waits @ms, or less when the peer stops. */
static void
drip (AkcTestRawPeer *self,
      guint           ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;

  while (ms > 0 && !g_cancellable_is_cancelled (self->cancellable) && g_get_monotonic_time () < until)
    g_usleep (MIN ((gint64) 10000, until - g_get_monotonic_time ()));
}

static gboolean
on_run (GThreadedSocketService *service,
        GSocketConnection      *connection,
        GObject                *source_object,
        gpointer                data)
{
  AkcTestRawPeer *self = data;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr(GBytes) head = NULL;
  AkcTestRawGenerate generate;
  gpointer generate_data;
  guint drip_ms;
  AkcTestRawEnd end;
  gboolean going = TRUE;

  g_mutex_lock (&self->lock);
  self->active++;
  head = self->head != NULL ? g_bytes_ref (self->head) : NULL;
  generate = self->generate;
  generate_data = self->generate_data;
  drip_ms = self->drip_ms;
  end = self->end;
  g_mutex_unlock (&self->lock);

  if (read_request (self, in))
    {
      if (head != NULL && g_bytes_get_size (head) > 0)
        going = g_output_stream_write_all (out, g_bytes_get_data (head, NULL), g_bytes_get_size (head),
                                           NULL, self->cancellable, NULL);
      for (guint i = 0; going && generate != NULL; i++)
        {
          g_autoptr(GBytes) piece = NULL;

          drip (self, drip_ms);
          if (g_cancellable_is_cancelled (self->cancellable))
            break;
          piece = generate (i, generate_data);
          if (piece == NULL)
            break;
          going = g_output_stream_write_all (out, g_bytes_get_data (piece, NULL), g_bytes_get_size (piece),
                                             NULL, self->cancellable, NULL);
        }

      if (going && end == AKC_TEST_RAW_HOLD)
        {
          char buffer[4096];

          /* Until the client closes the connection (or the peer stops). */
          while (g_input_stream_read (in, buffer, sizeof buffer, self->cancellable, NULL) > 0)
            ;
        }
      else if (end == AKC_TEST_RAW_RESET)
        {
          GSocket *socket = g_socket_connection_get_socket (connection);
          struct linger linger = { 1, 0 };

          setsockopt (g_socket_get_fd (socket), SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
        }
    }

  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  g_mutex_lock (&self->lock);
  self->active--;
  g_cond_broadcast (&self->idle);
  g_mutex_unlock (&self->lock);

  return TRUE;
}

AkcTestRawPeer *
akc_test_raw_peer_new (void)
{
  AkcTestRawPeer *self = g_new0 (AkcTestRawPeer, 1);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&self->lock);
  g_cond_init (&self->idle);
  self->cancellable = g_cancellable_new ();
  self->service = g_threaded_socket_service_new (8);
  g_socket_listener_add_address (G_SOCKET_LISTENER (self->service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  self->base_uri = g_strdup_printf ("http://127.0.0.1:%u",
                                    g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_signal_connect (self->service, "run", G_CALLBACK (on_run), self);
  g_socket_service_start (self->service);

  return self;
}

void
akc_test_raw_peer_free (AkcTestRawPeer *self)
{
  if (self == NULL)
    return;

  g_socket_service_stop (self->service);
  g_socket_listener_close (G_SOCKET_LISTENER (self->service));
  g_cancellable_cancel (self->cancellable);

  g_mutex_lock (&self->lock);
  while (self->active > 0)
    g_cond_wait (&self->idle, &self->lock);
  g_mutex_unlock (&self->lock);

  g_clear_object (&self->service);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->head, g_bytes_unref);
  g_free (self->last_request);
  g_free (self->base_uri);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->idle);
  g_free (self);
}

const char *
akc_test_raw_peer_get_base_uri (AkcTestRawPeer *self)
{
  return self->base_uri;
}

void
akc_test_raw_peer_set_reply (AkcTestRawPeer     *self,
                             const char         *head,
                             gssize              head_length,
                             AkcTestRawGenerate  generate,
                             gpointer            generate_data,
                             guint               drip_ms,
                             AkcTestRawEnd       end)
{
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->head, g_bytes_unref);
  if (head != NULL)
    self->head = g_bytes_new (head, head_length < 0 ? strlen (head) : (gsize) head_length);
  self->generate = generate;
  self->generate_data = generate_data;
  self->drip_ms = drip_ms;
  self->end = end;
  g_mutex_unlock (&self->lock);
}

guint
akc_test_raw_peer_get_n_requests (AkcTestRawPeer *self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->n_requests;
  g_mutex_unlock (&self->lock);

  return n;
}

char *
akc_test_raw_peer_dup_last_request (AkcTestRawPeer *self)
{
  char *request;

  g_mutex_lock (&self->lock);
  request = g_strdup (self->last_request);
  g_mutex_unlock (&self->lock);

  return request;
}

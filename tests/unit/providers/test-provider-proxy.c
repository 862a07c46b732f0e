/* test-provider-proxy.c: a provider on this computer is reached directly,
 * whatever proxy the system names; any other goes through it
 *
 * The system's proxy is this test's own GProxyResolver (chosen with
 * GIO_USE_PROXY_RESOLVER), which counts its questions and names a proxy
 * that refuses every connection; the provider is a loopback server that
 * answers Ollama's model list.
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc.h"

/* ------------------------------------------------------------------ */
/* The system's proxy                                                  */
/* ------------------------------------------------------------------ */

#define TEST_TYPE_PROXY_RESOLVER (test_proxy_resolver_get_type ())
G_DECLARE_FINAL_TYPE (TestProxyResolver, test_proxy_resolver, TEST, PROXY_RESOLVER, GObject)

struct _TestProxyResolver
{
  GObject parent_instance;
};

static gint lookups;
static char *proxy_uri;

static void test_proxy_resolver_iface_init (GProxyResolverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestProxyResolver, test_proxy_resolver, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_PROXY_RESOLVER, test_proxy_resolver_iface_init)
                               g_io_extension_point_implement (G_PROXY_RESOLVER_EXTENSION_POINT_NAME,
                                                               g_define_type_id, "akc-test", 0))

static gboolean
test_proxy_resolver_is_supported (GProxyResolver *resolver)
{
  return TRUE;
}

static char **
test_proxy_resolver_lookup (GProxyResolver  *resolver,
                            const char      *uri,
                            GCancellable    *cancellable,
                            GError         **error)
{
  char **proxies = g_new0 (char *, 2);

  g_atomic_int_inc (&lookups);
  proxies[0] = g_strdup (proxy_uri);

  return proxies;
}

static void
test_proxy_resolver_lookup_async (GProxyResolver      *resolver,
                                  const char          *uri,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);

  g_task_return_pointer (task, test_proxy_resolver_lookup (resolver, uri, cancellable, NULL),
                         (GDestroyNotify) g_strfreev);
}

static char **
test_proxy_resolver_lookup_finish (GProxyResolver  *resolver,
                                   GAsyncResult    *result,
                                   GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_proxy_resolver_iface_init (GProxyResolverInterface *iface)
{
  iface->is_supported = test_proxy_resolver_is_supported;
  iface->lookup = test_proxy_resolver_lookup;
  iface->lookup_async = test_proxy_resolver_lookup_async;
  iface->lookup_finish = test_proxy_resolver_lookup_finish;
}

static void
test_proxy_resolver_class_init (TestProxyResolverClass *klass)
{
}

static void
test_proxy_resolver_init (TestProxyResolver *self)
{
}

/* ------------------------------------------------------------------ */
/* A provider on this computer                                         */
/* ------------------------------------------------------------------ */

static gint requests;

/* Reads the request's head, answers one model. */
static gboolean
on_run (GThreadedSocketService *service,
        GSocketConnection      *connection,
        GObject                *source,
        gpointer                user_data)
{
  static const char body[] = "{\"models\":[{\"name\":\"llama3.2\"}]}";
  g_autofree char *response = g_strdup_printf ("HTTP/1.1 200 OK\r\n"
                                               "Content-Type: application/json\r\n"
                                               "Content-Length: %zu\r\n"
                                               "Connection: close\r\n"
                                               "\r\n%s", strlen (body), body);
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr(GString) head = g_string_new (NULL);
  char buffer[1024];

  while (strstr (head->str, "\r\n\r\n") == NULL)
    {
      gssize n = g_input_stream_read (in, buffer, sizeof buffer, NULL, NULL);

      if (n <= 0)
        return TRUE;
      g_string_append_len (head, buffer, n);
    }
  g_atomic_int_inc (&requests);
  g_output_stream_write_all (out, response, strlen (response), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  return TRUE;
}

static guint16
start_provider (GSocketService **service)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  *service = g_threaded_socket_service_new (2);
  g_socket_listener_add_address (G_SOCKET_LISTENER (*service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (*service, "run", G_CALLBACK (on_run), NULL);
  g_socket_service_start (*service);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* A loopback port bound but not listening: a connection to it is refused. */
static GSocket *
closed_port (guint16 *port)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) local = NULL;
  g_autoptr(GError) error = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);

  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, address, FALSE, &error));
  g_assert_no_error (error);
  local = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  *port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));

  return socket;
}

static void
store_result (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static char **
list_models (const char  *base_url,
             GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(AkcProviderAdapter) adapter = akc_provider_adapter_new (AKC_PROVIDER_KIND_OLLAMA, base_url, NULL,
                                                                    &local_error);
  g_autoptr(GAsyncResult) result = NULL;

  g_assert_no_error (local_error);
  akc_provider_adapter_set_connect_timeout (adapter, 5000);
  akc_provider_adapter_list_models_async (adapter, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return akc_provider_adapter_list_models_finish (adapter, result, error);
}

static void
test_loopback_direct (void)
{
  const char *hosts[] = { "127.0.0.1", "localhost" };
  g_autoptr(GSocketService) service = NULL;
  guint16 port = start_provider (&service);

  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++)
    {
      g_autofree char *url = g_strdup_printf ("http://%s:%u", hosts[i], port);
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) models = NULL;

      g_test_message ("%s", url);
      g_atomic_int_set (&lookups, 0);
      g_atomic_int_set (&requests, 0);
      models = list_models (url, &error);
      g_assert_no_error (error);
      g_assert_nonnull (models);
      g_assert_cmpstr (models[0], ==, "llama3.2");
      g_assert_cmpint (g_atomic_int_get (&requests), ==, 1);
      /* The system's proxy was not asked. */
      g_assert_cmpint (g_atomic_int_get (&lookups), ==, 0);
    }

  g_socket_service_stop (service);
}

static void
test_remote_through_proxy (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;

  /* TEST-NET-1 (RFC 5737): only the proxy, which refuses, is tried. */
  g_atomic_int_set (&lookups, 0);
  models = list_models ("http://192.0.2.1:11434", &error);
  g_assert_null (models);
  g_assert_nonnull (error);
  g_assert_cmpint (g_atomic_int_get (&lookups), >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GSocket) refusing = NULL;
  guint16 refusing_port;

  g_setenv ("GIO_USE_PROXY_RESOLVER", "akc-test", TRUE);
  g_test_init (&argc, &argv, NULL);

  /* Registers GIO's extension points (without choosing a resolver), then
   * ours among them. */
  g_proxy_get_default_for_protocol ("akc-test");
  g_type_ensure (TEST_TYPE_PROXY_RESOLVER);
  refusing = closed_port (&refusing_port);
  proxy_uri = g_strdup_printf ("http://127.0.0.1:%u", refusing_port);

  g_test_add_func ("/provider/proxy/loopback-direct", test_loopback_direct);
  g_test_add_func ("/provider/proxy/remote-through-proxy", test_remote_through_proxy);

  return g_test_run ();
}

/* akc-http-redirect.c: redirects are errors, never followed
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-http-redirect-private.h"

char *
akc_http_dup_redirect_target (SoupMessage *message)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *location = soup_message_headers_get_one (headers, "Location");
  g_autoptr(GUri) target = NULL;
  const char *host;

  if (location != NULL)
    target = g_uri_parse_relative (soup_message_get_uri (message), location, G_URI_FLAGS_NONE, NULL);
  if (target == NULL)
    return g_strdup (_("no valid address"));

  host = g_uri_get_host (target);
  if (host == NULL || host[0] == '\0')
    return g_strdup_printf ("%s:", g_uri_get_scheme (target));
  if (g_uri_get_port (target) > 0)
    return g_strdup_printf ("%s://%s:%d", g_uri_get_scheme (target), host, g_uri_get_port (target));
  return g_strdup_printf ("%s://%s", g_uri_get_scheme (target), host);
}

/* akc-http-redirect-private.h: redirects are errors, never followed
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc. Ask and turn requests are sent with
 * SOUP_MESSAGE_NO_REDIRECT: a 3xx would turn the POST into a GET to
 * wherever the server points (another origin, `file:`), so it ends the
 * turn with an error that names the status and where it pointed.
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* Whether @status is a redirect (300–399). */
#define AKC_HTTP_STATUS_IS_REDIRECT(status) ((status) >= 300 && (status) < 400)

/* The origin the `Location` header of @message points to, resolved
 * against the request URI (`scheme://host[:port]`, or `scheme:` for an
 * address without a host), or a translated "no valid address" when it is
 * missing or does not parse. Never NULL. */
char *akc_http_dup_redirect_target (SoupMessage *message);

G_END_DECLS

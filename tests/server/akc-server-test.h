/* akc-server-test.h: what the server's tests share
 *
 * SPDX-License-Identifier: MIT
 *
 * Waiting on the main context, an AkcServer in the test's process from a
 * configuration file, a POST through SoupSession, raw loopback sockets,
 * and the checks of a server-diagnostics.json vector's response (status,
 * headers, and the body as text, JSON or NDJSON events).
 */

#pragma once

#include <libsoup/soup.h>

#include "akc-fixture.h"
#include "akc-server.h"
#include "akc-test.h"

G_BEGIN_DECLS

/* JSON, waiting on the main context and asynchronous results: akc-test.h. */

/* Builds the server from @config_path and listens on its addresses; NULL
 * with @error set when the configuration is refused. */
AkcServer         *akc_server_test_start        (const char         *config_path,
                                                 GError            **error);
/* POSTs @body (JSON) to @path of the server's first address, with a
 * bearer @token when it is not NULL; returns the whole response body. */
char              *akc_server_test_post         (AkcServer          *server,
                                                 const char         *path,
                                                 const char         *token,
                                                 const char         *body,
                                                 guint              *status);

GSocketConnection *akc_server_test_connect      (guint16             port);
/* Reads what the server sends until @needle is in it, or (@needle NULL,
 * or never sent) until the end. */
GString           *akc_server_test_read_until   (GSocketConnection  *connection,
                                                 const char         *needle);

/* The request body of a vector (`bodyText` or `bodyJson`), or NULL. */
GBytes            *akc_server_test_vector_body  (AkcJsonValue       *request);
/* Checks the status and the expected headers of a vector's response. */
void               akc_server_test_check_head   (const AkcFixtureCase *fc,
                                                 SoupMessage        *message);
/* Checks the body against the vector's `text`, `json` or `events`; each
 * NDJSON line goes through @project (which checks it and returns what is
 * compared, or a new reference to it). */
typedef AkcJsonValue *(*AkcServerTestProjectFunc) (AkcJsonValue *event,
                                                   const char   *line);
void               akc_server_test_check_body   (const AkcFixtureCase *fc,
                                                 GBytes             *response,
                                                 AkcServerTestProjectFunc project);

G_END_DECLS

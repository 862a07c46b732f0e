/* akc-test-app.h: what the UI tests of the application share: a session
 * of conversations on a history, opened and closed as the application
 * does
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>

#include "akc-app-session.h"
#include "akc-backend.h"
#include "akc-test-ui.h"

G_BEGIN_DECLS

/* A session with the application's settings, listing @memory (nullable:
 * none) once it is ready. */
AkcAppSession *akc_test_app_session_new   (AkcChatMemory *memory);

/* Closes @session and drops @memory as the application does at quit:
 * returns once every write is done and the history closed. */
void           akc_test_app_session_close (AkcAppSession *session,
                                           AkcChatMemory *memory);

/* Preferences */
/* An AdwPreferencesRow titled @data. */
gboolean       is_row_titled              (GtkWidget     *widget,
                                           gconstpointer  data);
/* The @nth row (from 0) titled @title in @window; there must be one. */
GtkWidget     *find_row                   (GtkWindow     *window,
                                           const char    *title,
                                           guint          nth);
/* Types @text into an entry row and applies it, as Enter does. */
void           apply_row                  (GtkWidget     *row,
                                           const char    *text);

/* Backends */
void           wait_backend_state         (AkcBackend      *backend,
                                           AkcBackendState  state);
void           wait_backend_state_not     (AkcBackend      *backend,
                                           AkcBackendState  state);

G_END_DECLS

/* akc-server.h: akc-server, built from its configuration file
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <libsoup/soup.h>

#include "akc-chat-handler.h"

G_BEGIN_DECLS

#define AKC_TYPE_SERVER (akc_server_get_type ())

G_DECLARE_FINAL_TYPE (AkcServer, akc_server, AKC, SERVER, GObject)

void        akc_server_new_async    (const char           *config_path,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
AkcServer  *akc_server_new_finish   (GAsyncResult         *result,
                                     GError              **error);
gboolean    akc_server_listen       (AkcServer            *self,
                                     const char           *address,
                                     GError              **error);
SoupServer *akc_server_get_soup     (AkcServer            *self);
GPtrArray  *akc_server_get_uris     (AkcServer            *self);
guint       akc_server_get_n_connections (AkcServer       *self,
                                          guint64         *n_refused);
void        akc_server_drain        (AkcServer            *self);
guint       akc_server_get_n_active (AkcServer            *self);
void        akc_server_flush_metrics (AkcServer           *self);

G_END_DECLS

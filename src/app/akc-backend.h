/* akc-backend.h: a conversation's network backend, configured in the
 * preferences
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/**
 * AkcBackendKind:
 * @AKC_BACKEND_KIND_ASK: an Ask service (application.md §8)
 * @AKC_BACKEND_KIND_TURN: a turn server (protocol.md §2)
 * @AKC_BACKEND_KIND_PROVIDER: a model provider (OpenAI-compatible, Ollama,
 *   Anthropic), through an AkcProviderAdapter
 *
 * Which protocol a backend speaks.
 */
typedef enum {
  AKC_BACKEND_KIND_ASK,
  AKC_BACKEND_KIND_TURN,
  AKC_BACKEND_KIND_PROVIDER,
} AkcBackendKind;

/**
 * AkcBackendState:
 * @AKC_BACKEND_STATE_NOT_CONFIGURED: no endpoint URL is set
 * @AKC_BACKEND_STATE_LOOKING_UP: the token is being looked up in the keyring
 * @AKC_BACKEND_STATE_READY: configured; no request has been answered yet
 * @AKC_BACKEND_STATE_CONNECTED: the last request reached the backend
 * @AKC_BACKEND_STATE_UNAUTHORIZED: the backend refused the token (401)
 * @AKC_BACKEND_STATE_FORBIDDEN: the backend denied access (403)
 * @AKC_BACKEND_STATE_FAILED: the backend could not be reached or failed
 * @AKC_BACKEND_STATE_NO_KEYRING: the token cannot be kept: no usable
 *   Secret Service
 *
 * The connection state the preferences show.
 */
typedef enum {
  AKC_BACKEND_STATE_NOT_CONFIGURED,
  AKC_BACKEND_STATE_LOOKING_UP,
  AKC_BACKEND_STATE_READY,
  AKC_BACKEND_STATE_CONNECTED,
  AKC_BACKEND_STATE_UNAUTHORIZED,
  AKC_BACKEND_STATE_FORBIDDEN,
  AKC_BACKEND_STATE_FAILED,
  AKC_BACKEND_STATE_NO_KEYRING,
} AkcBackendState;

#define AKC_TYPE_BACKEND_STATE (akc_backend_state_get_type ())
GType akc_backend_state_get_type (void) G_GNUC_CONST;

#define AKC_TYPE_BACKEND (akc_backend_get_type ())

G_DECLARE_FINAL_TYPE (AkcBackend, akc_backend, AKC, BACKEND, GObject)

AkcBackend      *akc_backend_new                 (AkcBackendKind        kind,
                                                  GSettings            *settings,
                                                  AkcCredentialStore   *credentials);
AkcBackendKind   akc_backend_get_kind            (AkcBackend           *self);
const char      *akc_backend_get_endpoint        (AkcBackend           *self);
gboolean         akc_backend_get_configured      (AkcBackend           *self);
AkcBackendState  akc_backend_get_state           (AkcBackend           *self);
const char      *akc_backend_get_status          (AkcBackend           *self);
gboolean         akc_backend_get_has_token       (AkcBackend           *self);
char            *akc_backend_dup_token           (AkcBackend           *self);
AkcChatSource   *akc_backend_get_turn_client     (AkcBackend           *self);
void             akc_backend_new_turn_session    (AkcBackend           *self);
AkcProviderAdapter *akc_backend_get_provider_adapter (AkcBackend        *self);
const char      *akc_backend_get_model           (AkcBackend           *self);
const char      *akc_backend_get_provider_kind   (AkcBackend           *self);
const char      *akc_backend_get_provider_title  (AkcBackend           *self);
void             akc_backend_refresh_models      (AkcBackend           *self);
const char * const *akc_backend_get_models       (AkcBackend           *self);
GPtrArray       *akc_backend_get_tools           (AkcBackend           *self);
/* Opens @uri; FALSE with @error set when it could not. */
typedef gboolean (*AkcBackendLinkOpener) (const char  *uri,
                                          GError     **error);
void             akc_backend_set_link_opener     (AkcBackendLinkOpener  opener);
gboolean         akc_backend_get_images_settable (AkcBackend           *self);
gboolean         akc_backend_get_model_takes_images (AkcBackend        *self,
                                                  const char           *model);
void             akc_backend_set_model_takes_images (AkcBackend        *self,
                                                  const char           *model,
                                                  gboolean              takes);
AkcProviderAdapter *akc_backend_get_provider_for_model (AkcBackend      *self,
                                                        const char      *model);
void             akc_backend_stream_model        (AkcBackend           *self,
                                                  const char           *model,
                                                  AkcAdapterRequest    *request,
                                                  AkcStream            *stream);

char            *akc_backend_check_endpoint      (const char           *text,
                                                  GError              **error);

void             akc_backend_save_token_async    (AkcBackend           *self,
                                                  const char           *token,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean         akc_backend_save_token_finish   (AkcBackend           *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);

#define AKC_TYPE_PROVIDER_ROUTE (akc_provider_route_get_type ())

G_DECLARE_FINAL_TYPE (AkcProviderRoute, akc_provider_route, AKC, PROVIDER_ROUTE, GObject)

AkcProviderRoute *akc_provider_route_new       (AkcBackend       *backend);
void              akc_provider_route_set_model (AkcProviderRoute *self,
                                                const char       *kind,
                                                const char       *url,
                                                const char       *model);

G_END_DECLS

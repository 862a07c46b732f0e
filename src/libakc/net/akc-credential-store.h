/* akc-credential-store.h: bearer tokens and API keys in the Secret Service
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_CREDENTIAL_ERROR:
 *
 * The error domain of [class@CredentialStore].
 */
#define AKC_CREDENTIAL_ERROR (akc_credential_error_quark ())

/**
 * AkcCredentialError:
 * @AKC_CREDENTIAL_ERROR_NO_SERVICE: no Secret Service is reachable (no
 *   keyring is installed or running, or a sandbox denies access to it)
 * @AKC_CREDENTIAL_ERROR_LOCKED: the keyring is locked, or has no default
 *   collection to store into
 * @AKC_CREDENTIAL_ERROR_INVALID_ENDPOINT: the endpoint is not an absolute
 *   `http` or `https` URL with a host
 * @AKC_CREDENTIAL_ERROR_FAILED: the keyring refused the request for another
 *   reason
 *
 * Error codes of %AKC_CREDENTIAL_ERROR. Messages say what to do; they never
 * contain a secret.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CREDENTIAL_ERROR_NO_SERVICE,
  AKC_CREDENTIAL_ERROR_LOCKED,
  AKC_CREDENTIAL_ERROR_INVALID_ENDPOINT,
  AKC_CREDENTIAL_ERROR_FAILED,
} AkcCredentialError;

AKC_AVAILABLE_IN_ALL
GQuark akc_credential_error_quark (void);

/**
 * AkcCredentialKind:
 * @AKC_CREDENTIAL_KIND_BEARER_TOKEN: a token sent as `Authorization: Bearer`
 * @AKC_CREDENTIAL_KIND_API_KEY: an API key
 *
 * What a stored credential is. An endpoint may have one of each.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CREDENTIAL_KIND_BEARER_TOKEN,
  AKC_CREDENTIAL_KIND_API_KEY,
} AkcCredentialKind;

#define AKC_TYPE_CREDENTIAL_STORE (akc_credential_store_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcCredentialStore, akc_credential_store, AKC, CREDENTIAL_STORE, GObject)

AKC_AVAILABLE_IN_ALL
AkcCredentialStore *akc_credential_store_new                (void);

AKC_AVAILABLE_IN_ALL
char               *akc_credential_store_normalize_endpoint (const char           *endpoint,
                                                             GError              **error);

AKC_AVAILABLE_IN_ALL
void                akc_credential_store_store_async        (AkcCredentialStore   *self,
                                                             const char           *endpoint,
                                                             AkcCredentialKind     kind,
                                                             const char           *secret,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean            akc_credential_store_store_finish       (AkcCredentialStore   *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);

AKC_AVAILABLE_IN_ALL
void                akc_credential_store_lookup_async       (AkcCredentialStore   *self,
                                                             const char           *endpoint,
                                                             AkcCredentialKind     kind,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AKC_AVAILABLE_IN_ALL
char               *akc_credential_store_lookup_finish      (AkcCredentialStore   *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);

AKC_AVAILABLE_IN_ALL
void                akc_credential_store_clear_async        (AkcCredentialStore   *self,
                                                             const char           *endpoint,
                                                             AkcCredentialKind     kind,
                                                             GCancellable         *cancellable,
                                                             GAsyncReadyCallback   callback,
                                                             gpointer              user_data);
AKC_AVAILABLE_IN_ALL
gboolean            akc_credential_store_clear_finish       (AkcCredentialStore   *self,
                                                             GAsyncResult         *result,
                                                             GError              **error);

G_END_DECLS

/* akc-credential-store.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsecret/secret.h>

#include "akc-credential-store.h"

/**
 * AkcCredentialStore:
 *
 * Bearer tokens and API keys kept in the Secret Service (GNOME Keyring,
 * KWallet, or libsecret's file backend inside Flatpak), never anywhere else.
 *
 * Items use the schema `io.agentskit.Chat.Credential` with the string
 * attributes `endpoint` (the endpoint normalised by
 * [func@CredentialStore.normalize_endpoint]) and `kind` (`bearer-token` or
 * `api-key`), so the same endpoint always finds its secret however it was
 * spelled. Every operation is asynchronous and cancellable. A missing
 * secret is not an error: lookup yields %NULL. When no Secret Service is
 * reachable the error is %AKC_CREDENTIAL_ERROR_NO_SERVICE with a message that
 * says what to do. Secrets are never logged and never part of an error.
 *
 * Since: 0.1
 */
struct _AkcCredentialStore
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (AkcCredentialStore, akc_credential_store, G_TYPE_OBJECT)

/**
 * akc_credential_error_quark:
 *
 * Gets the error domain of [error@CredentialError], the quark %AKC_CREDENTIAL_ERROR
 * stands for.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (akc-credential-error-quark, akc_credential_error)

static const SecretSchema credential_schema = {
  "io.agentskit.Chat.Credential",
  SECRET_SCHEMA_NONE,
  {
    { "endpoint", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  },
  0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};

static void
akc_credential_store_class_init (AkcCredentialStoreClass *klass)
{
}

static void
akc_credential_store_init (AkcCredentialStore *self)
{
}

/**
 * akc_credential_store_new:
 *
 * Creates a credential store. It holds no state of its own: every store
 * talks to the same Secret Service.
 *
 * Returns: (transfer full): a new credential store
 *
 * Since: 0.1
 */
AkcCredentialStore *
akc_credential_store_new (void)
{
  return g_object_new (AKC_TYPE_CREDENTIAL_STORE, NULL);
}

static const char *
kind_attribute (AkcCredentialKind kind)
{
  switch (kind)
    {
    case AKC_CREDENTIAL_KIND_BEARER_TOKEN:
      return "bearer-token";
    case AKC_CREDENTIAL_KIND_API_KEY:
      return "api-key";
    default:
      return NULL;
    }
}

/**
 * akc_credential_store_normalize_endpoint:
 * @endpoint: an endpoint URL
 * @error: return location for an error
 *
 * Normalises @endpoint to the form credentials are stored under: the
 * lower-case scheme and host, the port unless it is the scheme's default,
 * and the path (`/` when empty). User information, query and fragment are
 * dropped, so a token pasted into a URL never reaches the keyring's
 * attributes.
 *
 * Returns: (transfer full): the normalised endpoint, or %NULL with
 *   %AKC_CREDENTIAL_ERROR_INVALID_ENDPOINT when @endpoint is not an absolute
 *   `http` or `https` URL with a host
 *
 * Since: 0.1
 */
char *
akc_credential_store_normalize_endpoint (const char  *endpoint,
                                         GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  const char *path;
  int port;

  g_return_val_if_fail (endpoint != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = g_uri_parse (endpoint, G_URI_FLAGS_SCHEME_NORMALIZE, NULL);
  if (uri != NULL)
    {
      scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);
      if (g_uri_get_host (uri) != NULL)
        host = g_ascii_strdown (g_uri_get_host (uri), -1);
    }

  if (uri == NULL || host == NULL || *host == '\0'
      || (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0))
    {
      /* The endpoint is not quoted: it may carry a token in its userinfo. */
      g_set_error_literal (error, AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_INVALID_ENDPOINT,
                           _("The endpoint is not a valid address. Enter a full URL that starts with http:// or https://."));
      return NULL;
    }

  path = g_uri_get_path (uri);
  if (path == NULL || *path == '\0')
    path = "/";

  port = g_uri_get_port (uri);
  if ((port == 80 && g_str_equal (scheme, "http")) || (port == 443 && g_str_equal (scheme, "https")))
    port = -1;

  return g_uri_join (G_URI_FLAGS_NONE, scheme, NULL, host, port, path, NULL, NULL);
}

/* Turns a libsecret or D-Bus error into an AKC_CREDENTIAL_ERROR that says
 * what to do. Cancellation passes through unchanged. */
static GError *
translate_error (GError *error)
{
  GError *translated;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error;

  g_debug ("Secret Service request failed: %s", error->message);

  if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED)
      || g_error_matches (error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT))
    translated = g_error_new_literal (AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_LOCKED,
                                      _("The keyring is locked. Unlock it (for example in Passwords and Keys) and try again."));
  else if (error->domain == SECRET_ERROR)
    translated = g_error_new_literal (AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_FAILED,
                                      _("The keyring refused the request. Check it in Passwords and Keys and try again."));
  else
    translated = g_error_new_literal (AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_NO_SERVICE,
                                      _("No Secret Service is available. Install and unlock a keyring such as GNOME Keyring or KWallet; inside Flatpak the desktop must also provide the Secret portal."));
  g_error_free (error);
  return translated;
}

/* Validates the request; on failure returns the error through @task. */
static char *
prepare (GTask             *task,
         const char        *endpoint,
         AkcCredentialKind  kind)
{
  GError *error = NULL;
  char *normalized;

  if (kind_attribute (kind) == NULL)
    {
      g_task_return_new_error (task, AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_FAILED,
                               "Unknown credential kind %d", (int) kind);
      return NULL;
    }
  normalized = akc_credential_store_normalize_endpoint (endpoint, &error);
  if (normalized == NULL)
    g_task_return_error (task, error);
  return normalized;
}

static void
stored_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (secret_password_store_finish (result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, translate_error (error));
}

/**
 * akc_credential_store_store_async:
 * @self: a credential store
 * @endpoint: the endpoint URL the secret belongs to
 * @kind: what the secret is
 * @secret: the secret; it is handed to the Secret Service only
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async): called when the secret is stored
 * @user_data: data for @callback
 *
 * Stores @secret for @endpoint and @kind in the default keyring, replacing
 * the one stored before.
 *
 * Since: 0.1
 */
void
akc_credential_store_store_async (AkcCredentialStore  *self,
                                  const char          *endpoint,
                                  AkcCredentialKind    kind,
                                  const char          *secret,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (AKC_IS_CREDENTIAL_STORE (self));
  g_return_if_fail (endpoint != NULL);
  g_return_if_fail (secret != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_credential_store_store_async);

  normalized = prepare (task, endpoint, kind);
  if (normalized == NULL)
    return;

  label = kind == AKC_CREDENTIAL_KIND_API_KEY
          ? g_strdup_printf (_("AgentsKit Chat API key for %s"), normalized)
          : g_strdup_printf (_("AgentsKit Chat token for %s"), normalized);
  secret_password_store (&credential_schema, SECRET_COLLECTION_DEFAULT, label, secret,
                         cancellable, stored_cb, g_steal_pointer (&task),
                         "endpoint", normalized, "kind", kind_attribute (kind), NULL);
}

/**
 * akc_credential_store_store_finish:
 * @self: a credential store
 * @result: the result passed to the callback
 * @error: return location for an error
 *
 * Finishes [method@CredentialStore.store_async].
 *
 * Returns: whether the secret was stored
 *
 * Since: 0.1
 */
gboolean
akc_credential_store_store_finish (AkcCredentialStore  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (AKC_IS_CREDENTIAL_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
looked_up_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *secret;

  secret = secret_password_lookup_finish (result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, translate_error (error));
      return;
    }
  /* Copied out of libsecret's non-pageable memory so the caller can
   * g_free() it; the original is wiped. */
  g_task_return_pointer (task, g_strdup (secret), g_free);
  secret_password_free (secret);
}

/**
 * akc_credential_store_lookup_async:
 * @self: a credential store
 * @endpoint: the endpoint URL
 * @kind: what kind of secret to find
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async): called with the result
 * @user_data: data for @callback
 *
 * Looks up the secret stored for @endpoint and @kind.
 *
 * Since: 0.1
 */
void
akc_credential_store_lookup_async (AkcCredentialStore  *self,
                                   const char          *endpoint,
                                   AkcCredentialKind    kind,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *normalized = NULL;

  g_return_if_fail (AKC_IS_CREDENTIAL_STORE (self));
  g_return_if_fail (endpoint != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_credential_store_lookup_async);

  normalized = prepare (task, endpoint, kind);
  if (normalized == NULL)
    return;

  secret_password_lookup (&credential_schema, cancellable, looked_up_cb, g_steal_pointer (&task),
                          "endpoint", normalized, "kind", kind_attribute (kind), NULL);
}

/**
 * akc_credential_store_lookup_finish:
 * @self: a credential store
 * @result: the result passed to the callback
 * @error: return location for an error
 *
 * Finishes [method@CredentialStore.lookup_async]. Nothing stored is not an
 * error: the result is %NULL and @error is not set.
 *
 * Returns: (transfer full) (nullable): the secret, or %NULL when none is
 *   stored or on error; free it with g_free() after wiping it
 *
 * Since: 0.1
 */
char *
akc_credential_store_lookup_finish (AkcCredentialStore  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (AKC_IS_CREDENTIAL_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
cleared_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  /* FALSE without an error means nothing was stored: that is success. */
  secret_password_clear_finish (result, &error);
  if (error != NULL)
    g_task_return_error (task, translate_error (error));
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * akc_credential_store_clear_async:
 * @self: a credential store
 * @endpoint: the endpoint URL
 * @kind: what kind of secret to remove
 * @cancellable: (nullable): a cancellable
 * @callback: (scope async): called when the secret is removed
 * @user_data: data for @callback
 *
 * Removes the secret stored for @endpoint and @kind, if any.
 *
 * Since: 0.1
 */
void
akc_credential_store_clear_async (AkcCredentialStore  *self,
                                  const char          *endpoint,
                                  AkcCredentialKind    kind,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *normalized = NULL;

  g_return_if_fail (AKC_IS_CREDENTIAL_STORE (self));
  g_return_if_fail (endpoint != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_credential_store_clear_async);

  normalized = prepare (task, endpoint, kind);
  if (normalized == NULL)
    return;

  secret_password_clear (&credential_schema, cancellable, cleared_cb, g_steal_pointer (&task),
                         "endpoint", normalized, "kind", kind_attribute (kind), NULL);
}

/**
 * akc_credential_store_clear_finish:
 * @self: a credential store
 * @result: the result passed to the callback
 * @error: return location for an error
 *
 * Finishes [method@CredentialStore.clear_async].
 *
 * Returns: %TRUE when no secret is stored any more, including when none was
 *
 * Since: 0.1
 */
gboolean
akc_credential_store_clear_finish (AkcCredentialStore  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (AKC_IS_CREDENTIAL_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

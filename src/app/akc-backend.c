/* akc-backend.c: a conversation's network backend, configured in the
 * preferences
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "akc-backend.h"
#include "akc-model-tools.h"

/*
 * AkcBackend:
 *
 * The Ask service or the turn server a conversation of the window talks
 * to, as the preferences configure it: the endpoint URL (and, for Ask, the
 * corpus and persona) in GSettings, the bearer token in the Secret Service
 * through AkcCredentialStore and nowhere else.
 *
 * A provider backend works like an Ask backend, with an
 * AkcProviderAdapter of the kind, base URL and model the preferences set
 * and the API key (kind `api-key`) of the base URL. Each conversation
 * talks to it through an AkcProviderRoute, which asks for the model that
 * conversation is held with: the backend keeps one adapter per model of
 * the configured provider, each with the key, and asks the provider
 * whether the model takes images (akc_provider_adapter_describe_model_async()).
 * OpenAI-compatible and Anthropic providers do not say it: the person does,
 * per model (akc_backend_set_model_takes_images(), kept in GSettings with
 * the provider's base URL), and a model the person said nothing of is
 * taken to take them (the provider refuses an image itself if it cannot).
 *
 * The model is offered the app's tools (akc_backend_get_tools(), the
 * same on every model's adapter; a provider conversation's chat registers
 * them too): `get_current_time` reads the clock and runs at once;
 * `open_link` opens an http or https address in the browser, and waits
 * for the person's approval first.
 *
 * An Ask backend is itself the adapter of its conversation: it hands each
 * turn to an AkcAskAdapter for the current endpoint, built again when the
 * preferences change, so the conversation and its history outlive a new
 * URL. A turn backend holds the AkcTurnClient of the current endpoint and
 * session (the server keeps the conversation); a new endpoint or session
 * gives a new client ([property@Backend:turn-client] is notified).
 *
 * The token is looked up when the endpoint is set, kept in memory only and
 * given to the adapter or client, which send it as the `Authorization`
 * header. Turns that start while it is being looked up wait for it.
 *
 * [property@Backend:state] and [property@Backend:status] say how the
 * backend is doing, from the answers of its last requests, in words that
 * say what to do.
 */

#define KEY_ASK_ENDPOINT  "ask-endpoint"
#define KEY_ASK_CORPUS    "ask-corpus"
#define KEY_ASK_PERSONA   "ask-persona"
#define KEY_TURN_ENDPOINT "turn-endpoint"
#define KEY_TURN_SESSION  "turn-session"
#define KEY_PROVIDER_KIND  "provider-kind"
#define KEY_PROVIDER_URL   "provider-url"
#define KEY_PROVIDER_MODEL "provider-model"
#define KEY_PROVIDER_IMAGES "provider-model-images"

typedef struct {
  AkcAdapterRequest *request;
  AkcStream         *stream;
  char              *model;          /* NULL: the default model */
} Pending;

struct _AkcBackend
{
  GObject             parent_instance;

  AkcBackendKind      kind;
  GSettings          *settings;
  AkcCredentialStore *credentials;

  char               *endpoint;      /* NULL when not configured */
  char               *token;         /* never logged; NULL when none */
  AkcBackendState     state;
  char               *detail;        /* what the last failure said */
  char               *status;

  GCancellable       *lookup;        /* the token lookup in flight */
  GArray             *pending;       /* Pending: Ask turns waiting for it */

  AkcAskAdapter      *ask;
  AkcTurnClient      *turn;
  AkcProviderAdapter *provider;
  GHashTable         *models;        /* model → AkcProviderAdapter, the others */
  GCancellable       *describing;    /* what the provider says of its models */
  char              **listed;        /* the provider's models; NULL: not known */
  GCancellable       *listing;       /* asking for them */
  GPtrArray          *tools;         /* AkcTool, offered to the provider's models */
};

static void akc_backend_adapter_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcBackend, akc_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_backend_adapter_init))

G_DEFINE_ENUM_TYPE (AkcBackendState, akc_backend_state,
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_NOT_CONFIGURED, "not-configured"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_LOOKING_UP, "looking-up"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_READY, "ready"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_CONNECTED, "connected"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_UNAUTHORIZED, "unauthorized"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_FORBIDDEN, "forbidden"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (AKC_BACKEND_STATE_NO_KEYRING, "no-keyring"))

enum {
  PROP_0,
  PROP_ENDPOINT,
  PROP_STATE,
  PROP_STATUS,
  PROP_TURN_CLIENT,
  PROP_MODEL,
  PROP_MODELS,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
clear_secret (char **secret)
{
  if (*secret != NULL)
    {
      explicit_bzero (*secret, strlen (*secret));
      g_clear_pointer (secret, g_free);
    }
}

static char *
status_text (AkcBackend *self)
{
  switch (self->state)
    {
    case AKC_BACKEND_STATE_NOT_CONFIGURED:
      if (self->kind == AKC_BACKEND_KIND_PROVIDER)
        return g_strdup (_("Not configured: choose the kind of provider and enter its base URL."));
      return g_strdup (self->kind == AKC_BACKEND_KIND_ASK
                       ? _("Not configured: enter the URL of the Ask service.")
                       : _("Not configured: enter the URL of the turn server."));
    case AKC_BACKEND_STATE_LOOKING_UP:
      return g_strdup (_("Looking up the token in the keyring…"));
    case AKC_BACKEND_STATE_READY:
      if (self->kind == AKC_BACKEND_KIND_PROVIDER)
        return g_strdup (self->token != NULL
                         ? _("Not connected yet: the next message connects, with the stored API key.")
                         : _("Not connected yet: the next message connects, without an API key (a model on this computer needs none)."));
      return g_strdup (self->token != NULL
                       ? _("Not connected yet: the next message connects, with the stored token.")
                       : _("Not connected yet: the next message connects, without a token."));
    case AKC_BACKEND_STATE_CONNECTED:
      return g_strdup (_("Connected"));
    case AKC_BACKEND_STATE_UNAUTHORIZED:
      if (self->kind == AKC_BACKEND_KIND_PROVIDER)
        return g_strdup (self->token != NULL
                         ? _("The API key was refused (401): enter a new key.")
                         : _("The provider needs an API key (401): enter one."));
      return g_strdup (self->token != NULL
                       ? _("The token was refused (401): enter a new token.")
                       : _("The server needs a token (401): enter one."));
    case AKC_BACKEND_STATE_FORBIDDEN:
      return g_strdup (_("Access was denied (403): use a token that is allowed to use this endpoint."));
    case AKC_BACKEND_STATE_FAILED:
      /* Translators: %s says what went wrong, as a sentence. */
      return g_strdup_printf (_("Cannot connect: %s Check the URL and that the server is running."),
                              self->detail != NULL ? self->detail : "");
    case AKC_BACKEND_STATE_NO_KEYRING:
      /* Translators: %s says what to do, as a sentence. */
      return g_strdup_printf (_("The token cannot be kept: %s"), self->detail != NULL ? self->detail : "");
    default:
      g_assert_not_reached ();
    }
}

/* Takes @detail. */
static void
set_state (AkcBackend      *self,
           AkcBackendState  state,
           char            *detail)
{
  g_autofree char *status = NULL;

  g_free (self->detail);
  self->detail = detail;

  if (state == self->state && self->status != NULL)
    {
      status = status_text (self);
      if (g_strcmp0 (status, self->status) == 0)
        return;
    }

  self->state = state;
  g_free (self->status);
  self->status = status != NULL ? g_steal_pointer (&status) : status_text (self);

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_STATUS]);
}

/* ------------------------------------------------------------------ */
/* Endpoints                                                           */
/* ------------------------------------------------------------------ */

/**
 * akc_backend_check_endpoint:
 * @text: what the person typed
 * @error: return location for why it cannot be used
 *
 * Checks an endpoint URL: an absolute `http` or `https` URL with a host
 * and without user information (a token belongs in the keyring, not in a
 * URL that is saved in the settings). Leading and trailing spaces are
 * ignored; an empty text means no endpoint.
 *
 * Returns: (transfer full) (nullable): the URL to save (`""` for none), or
 *   %NULL with a %G_IO_ERROR_INVALID_ARGUMENT error that says what to fix
 */
char *
akc_backend_check_endpoint (const char  *text,
                            GError     **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (trimmed[0] == '\0')
    return g_steal_pointer (&trimmed);

  uri = g_uri_parse (trimmed, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("This is not a complete URL. Enter the whole address, starting with https:// or http://, for example https://example.com/v1/ask."));
      return NULL;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "http") != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Only web addresses work here. Start the URL with https:// or http://."));
      return NULL;
    }

  if (g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The URL has no server name. Enter it after https://, for example https://example.com/v1/ask."));
      return NULL;
    }

  if (g_uri_get_userinfo (uri) != NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The URL contains a user name or password. Remove it, and enter the token in the Token field instead."));
      return NULL;
    }

  return g_uri_to_string (uri);
}

static const char *
endpoint_key (AkcBackend *self)
{
  if (self->kind == AKC_BACKEND_KIND_PROVIDER)
    return KEY_PROVIDER_URL;
  return self->kind == AKC_BACKEND_KIND_ASK ? KEY_ASK_ENDPOINT : KEY_TURN_ENDPOINT;
}

static char *setting_or_null (AkcBackend *self,
                              const char *key);

static AkcCredentialKind
credential_kind (AkcBackend *self)
{
  return self->kind == AKC_BACKEND_KIND_PROVIDER ? AKC_CREDENTIAL_KIND_API_KEY : AKC_CREDENTIAL_KIND_BEARER_TOKEN;
}

/* ------------------------------------------------------------------ */
/* The tools a provider's model is offered                             */

static AkcBackendLinkOpener link_opener;

/* Sets what opens a link the model asked to open: a test sees it there;
 * %NULL opens it in the browser. */
void
akc_backend_set_link_opener (AkcBackendLinkOpener opener)
{
  link_opener = opener;
}

/* open_link, once the person approved it: in the browser. */
static char *
open_in_browser (const char  *address,
                 gpointer     user_data,
                 GError     **error)
{
  g_autoptr(GError) failure = NULL;

  if (link_opener != NULL ? !link_opener (address, &failure)
                          : !g_app_info_launch_default_for_uri (address, NULL, &failure))
    {
      /* What GIO says ("Operation not supported") is no sentence for the
       * person, nor for the model, on its own. */
      g_set_error (error, failure->domain, failure->code,
                   "No web browser could open %s (%s).", address, failure->message);
      return NULL;
    }

  return g_strdup_printf ("Opened %s in the browser.", address);
}

static GPtrArray *
new_tools (void)
{
  return akc_model_tools_new (AKC_MODEL_TOOLS_DESKTOP, open_in_browser, NULL);
}

/* A provider backend's tools, made the first time a model is offered
 * them or they are asked for: making them compiles their argument
 * schemas (with PCRE2, for their patterns), which a start without a
 * provider set up does not need. */
static GPtrArray *
ensure_tools (AkcBackend *self)
{
  if (self->tools == NULL && self->kind == AKC_BACKEND_KIND_PROVIDER)
    self->tools = new_tools ();

  return self->tools;
}

static void
offer_tools (AkcBackend         *self,
             AkcProviderAdapter *adapter)
{
  akc_model_tools_offer (ensure_tools (self), adapter);
}

static void
on_model_described (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(AkcBackend) self = user_data;
  g_autoptr(GError) error = NULL;

  /* Unknown (or not reachable): the model is taken to read images, and
   * the provider refuses an image itself if it cannot. */
  if (akc_provider_adapter_describe_model_finish (AKC_PROVIDER_ADAPTER (source), result, &error) ||
      error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_debug ("What the provider says about the model %s: %s",
           akc_provider_adapter_get_model (AKC_PROVIDER_ADAPTER (source)), error->message);
}

/* Asks the provider whether @adapter's model takes images. */
static void
describe_model (AkcBackend         *self,
                AkcProviderAdapter *adapter)
{
  if (self->describing == NULL)
    self->describing = g_cancellable_new ();
  if (akc_provider_adapter_get_model (adapter) == NULL)
    return;
  akc_provider_adapter_describe_model_async (adapter, self->describing, on_model_described, g_object_ref (self));
}

/* Whether the person said @model of the configured provider takes images
 * (OpenAI-compatible and Anthropic); %TRUE when they said nothing. */
static gboolean
images_setting (AkcBackend *self,
                const char *model)
{
  g_autoptr(GVariant) list = NULL;
  GVariantIter iter;
  const char *url, *name;
  gboolean takes;

  if (model == NULL || self->endpoint == NULL)
    return TRUE;
  list = g_settings_get_value (self->settings, KEY_PROVIDER_IMAGES);
  g_variant_iter_init (&iter, list);
  while (g_variant_iter_next (&iter, "(&s&sb)", &url, &name, &takes))
    if (g_str_equal (url, self->endpoint) && g_str_equal (name, model))
      return takes;
  return TRUE;
}

static gboolean
images_settable (AkcBackend *self)
{
  return self->provider != NULL && akc_provider_adapter_get_kind (self->provider) != AKC_PROVIDER_KIND_OLLAMA;
}

/* What the person said of each model's images, on its adapter. */
static void
apply_images (AkcBackend *self)
{
  GHashTableIter iter;
  gpointer value;

  if (!images_settable (self))
    return;
  akc_provider_adapter_set_accepts_images (self->provider,
                                           images_setting (self, akc_provider_adapter_get_model (self->provider)));
  g_hash_table_iter_init (&iter, self->models);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    akc_provider_adapter_set_accepts_images (value, images_setting (self, akc_provider_adapter_get_model (value)));
}

static void
apply_model (AkcBackend *self)
{
  g_autofree char *model = NULL;

  if (self->provider == NULL)
    return;
  model = setting_or_null (self, KEY_PROVIDER_MODEL);
  if (g_strcmp0 (model, akc_provider_adapter_get_model (self->provider)) == 0)
    return;
  /* The other model's adapter, if a conversation used it, goes: the
   * default one is that model now. */
  if (model != NULL)
    g_hash_table_remove (self->models, model);
  akc_provider_adapter_set_model (self->provider, model);
  akc_provider_adapter_set_accepts_images (self->provider, images_setting (self, model));
  describe_model (self, self->provider);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODEL]);
}

static void
set_listed (AkcBackend *self,
            char      **models)
{
  if (self->listed == NULL && models == NULL)
    return;
  if (self->listed != NULL && models != NULL &&
      g_strv_equal ((const char * const *) self->listed, (const char * const *) models))
    {
      g_strfreev (models);
      return;
    }
  g_strfreev (self->listed);
  self->listed = models;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODELS]);
}

static void
on_models_listed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AkcBackend) self = user_data;
  g_autoptr(GError) error = NULL;
  char **models = akc_provider_adapter_list_models_finish (AKC_PROVIDER_ADAPTER (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->listing);
  /* Not reachable now: what was listed before stays (the model switch
   * says why when the person asks for the list). */
  if (models == NULL)
    {
      g_debug ("The provider’s models could not be listed: %s", error->message);
      return;
    }
  set_listed (self, models);
}

/* The settings may hold anything (another program may write them): only
 * a valid endpoint is used. */
static char *
configured_endpoint (AkcBackend *self)
{
  g_autofree char *text = g_settings_get_string (self->settings, endpoint_key (self));
  g_autofree char *endpoint = akc_backend_check_endpoint (text, NULL);

  return endpoint != NULL && endpoint[0] != '\0' ? g_steal_pointer (&endpoint) : NULL;
}

static char *
setting_or_null (AkcBackend *self,
                 const char *key)
{
  g_autofree char *value = g_settings_get_string (self->settings, key);

  return value[0] != '\0' ? g_steal_pointer (&value) : NULL;
}

static void
apply_ask_options (AkcBackend *self)
{
  g_autofree char *corpus = NULL;
  g_autofree char *persona = NULL;

  if (self->ask == NULL)
    return;

  corpus = setting_or_null (self, KEY_ASK_CORPUS);
  persona = setting_or_null (self, KEY_ASK_PERSONA);
  akc_ask_adapter_set_corpus (self->ask, corpus);
  akc_ask_adapter_set_persona (self->ask, persona);
}

/* ------------------------------------------------------------------ */
/* What the answers say about the connection                           */
/* ------------------------------------------------------------------ */

static void
on_ask_chunk (AkcBackend *self,
              AkcChunk   *chunk,
              AkcStream  *stream)
{
  AkcJsonValue *metadata;
  AkcJsonValue *status_value;
  const char *code;
  guint status = 0;

  if (akc_chunk_get_kind (chunk) != AKC_CHUNK_ERROR)
    {
      set_state (self, AKC_BACKEND_STATE_CONNECTED, NULL);
      return;
    }

  metadata = akc_chunk_get_metadata (chunk);
  status_value = metadata != NULL ? akc_json_value_get_member (metadata, "status") : NULL;
  if (status_value != NULL && akc_json_value_get_kind (status_value) == AKC_JSON_KIND_NUMBER)
    status = (guint) akc_json_value_get_number (status_value);
  code = akc_chunk_get_error_code (chunk);

  if (status == 401)
    set_state (self, AKC_BACKEND_STATE_UNAUTHORIZED, NULL);
  else if (status == 403)
    set_state (self, AKC_BACKEND_STATE_FORBIDDEN, NULL);
  else if (status != 0)
    /* Translators: %u is an HTTP status code such as 500. */
    set_state (self, AKC_BACKEND_STATE_FAILED,
               g_strdup_printf (_("The server answered with HTTP status %u."), status));
  else if (g_strcmp0 (code, "ASK_NETWORK_FAILED") == 0 ||
           g_strcmp0 (code, "ASK_TIMEOUT") == 0 ||
           g_strcmp0 (code, "ASK_INVALID_ENDPOINT") == 0 ||
           g_strcmp0 (code, "PROVIDER_CONNECTION_FAILED") == 0 ||
           g_strcmp0 (code, "PROVIDER_TIMEOUT") == 0 ||
           g_strcmp0 (code, "PROVIDER_REDIRECT") == 0 ||
           g_strcmp0 (code, "PROVIDER_INVALID_ENDPOINT") == 0)
    set_state (self, AKC_BACKEND_STATE_FAILED,
               g_strdup (akc_chunk_get_text (chunk, NULL)));
  else
    /* The service answered, with an error of its own. */
    set_state (self, AKC_BACKEND_STATE_CONNECTED, NULL);
}

static void
on_turn_status (AkcBackend *self)
{
  AkcChatSource *source = AKC_CHAT_SOURCE (self->turn);
  AkcDiagnostic *error;
  const char *code;

  switch (akc_chat_source_get_status (source))
    {
    case AKC_CHAT_STATUS_ERROR:
      error = akc_chat_source_get_error (source);
      code = error != NULL ? akc_diagnostic_get_code (error) : NULL;
      if (g_strcmp0 (code, "HTTP_UNAUTHORIZED") == 0)
        set_state (self, AKC_BACKEND_STATE_UNAUTHORIZED, NULL);
      else if (g_strcmp0 (code, "HTTP_FORBIDDEN") == 0)
        set_state (self, AKC_BACKEND_STATE_FORBIDDEN, NULL);
      else if (g_strcmp0 (code, "HTTP_ERROR") == 0 ||
               g_strcmp0 (code, "TURN_CONNECTION_FAILED") == 0 ||
               g_strcmp0 (code, "TURN_TIMEOUT") == 0)
        set_state (self, AKC_BACKEND_STATE_FAILED, g_strdup (akc_diagnostic_get_message (error)));
      else
        set_state (self, AKC_BACKEND_STATE_CONNECTED, NULL);
      break;
    case AKC_CHAT_STATUS_IDLE:
    case AKC_CHAT_STATUS_STREAMING:
    default:
      /* A snapshot the server sent says it is connected (the messages). */
      break;
    }
}

static void
on_turn_messages (AkcBackend *self)
{
  set_state (self, AKC_BACKEND_STATE_CONNECTED, NULL);
}

/* ------------------------------------------------------------------ */
/* The adapter (Ask)                                                   */
/* ------------------------------------------------------------------ */

static void
start_turn (AkcBackend        *self,
            const char        *model,
            AkcAdapterRequest *request,
            AkcStream         *stream)
{
  if (akc_stream_is_closed (stream))
    return;

  if (self->kind == AKC_BACKEND_KIND_PROVIDER)
    {
      AkcProviderAdapter *adapter = akc_backend_get_provider_for_model (self, model);

      if (adapter == NULL)
        {
          akc_stream_fail (stream, "PROVIDER_NOT_CONFIGURED",
                           _("No model provider is configured. Set one up in Preferences (Ctrl+,), on the Providers page."));
          return;
        }
      g_signal_connect_object (stream, "chunk", G_CALLBACK (on_ask_chunk), self, G_CONNECT_SWAPPED);
      akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
      return;
    }

  if (self->ask == NULL)
    {
      akc_stream_fail (stream, "ASK_NOT_CONFIGURED",
                       _("The Ask service is not configured. Enter its URL in Preferences (Ctrl+,)."));
      return;
    }

  g_signal_connect_object (stream, "chunk", G_CALLBACK (on_ask_chunk), self, G_CONNECT_SWAPPED);
  akc_adapter_stream (AKC_ADAPTER (self->ask), request, stream);
}

static void
flush_pending (AkcBackend *self)
{
  g_autoptr(GArray) pending = g_steal_pointer (&self->pending);

  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  for (guint i = 0; pending != NULL && i < pending->len; i++)
    {
      Pending *p = &g_array_index (pending, Pending, i);

      start_turn (self, p->model, p->request, p->stream);
      g_clear_object (&p->request);
      g_clear_object (&p->stream);
      g_clear_pointer (&p->model, g_free);
    }
}

/**
 * akc_backend_stream_model:
 * @self: a #AkcBackend
 * @model: (nullable): the model a provider's turn asks for, or %NULL for
 *   the default model
 * @request: the turn
 * @stream: where its reply goes
 *
 * Streams a turn, once the token is known.
 */
void
akc_backend_stream_model (AkcBackend        *self,
                          const char        *model,
                          AkcAdapterRequest *request,
                          AkcStream         *stream)
{
  g_return_if_fail (AKC_IS_BACKEND (self));

  if (self->lookup != NULL)
    {
      Pending p = { g_object_ref (request), g_object_ref (stream), g_strdup (model) };

      g_array_append_val (self->pending, p);
      return;
    }

  start_turn (self, model, request, stream);
}

static void
akc_backend_stream (AkcAdapter        *adapter,
                    AkcAdapterRequest *request,
                    AkcStream         *stream)
{
  akc_backend_stream_model (AKC_BACKEND (adapter), NULL, request, stream);
}

static AkcJsonValue *
akc_backend_get_capabilities (AkcAdapter *adapter)
{
  AkcBackend *self = AKC_BACKEND (adapter);

  if (self->provider != NULL)
    return akc_adapter_get_capabilities (AKC_ADAPTER (self->provider));
  return self->ask != NULL ? akc_adapter_get_capabilities (AKC_ADAPTER (self->ask)) : NULL;
}

static void
akc_backend_adapter_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_backend_stream;
  iface->get_capabilities = akc_backend_get_capabilities;
}

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

static void
apply_token (AkcBackend *self)
{
  if (self->ask != NULL)
    akc_ask_adapter_set_bearer_token (self->ask, self->token);
  if (self->turn != NULL)
    akc_turn_client_set_token (self->turn, self->token);
  if (self->provider != NULL)
    akc_provider_adapter_set_api_key (self->provider, self->token);
  if (self->models != NULL)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->models);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        akc_provider_adapter_set_api_key (value, self->token);
    }
  /* What the provider says about its models needs the key too. */
  if (self->provider != NULL && self->token != NULL)
    describe_model (self, self->provider);
}

static char *
turn_session (AkcBackend *self)
{
  g_autofree char *session = g_settings_get_string (self->settings, KEY_TURN_SESSION);

  if (session[0] == '\0')
    {
      g_free (session);
      session = g_uuid_string_random ();
      g_settings_set_string (self->settings, KEY_TURN_SESSION, session);
    }

  return g_steal_pointer (&session);
}

static void
build_turn_client (AkcBackend *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *session = NULL;

  if (self->turn != NULL)
    {
      akc_chat_source_stop (AKC_CHAT_SOURCE (self->turn));
      g_signal_handlers_disconnect_by_data (self->turn, self);
      g_signal_handlers_disconnect_by_data (akc_chat_source_get_messages (AKC_CHAT_SOURCE (self->turn)), self);
      g_clear_object (&self->turn);
    }

  if (self->endpoint != NULL)
    {
      session = turn_session (self);
      self->turn = akc_turn_client_new (self->endpoint, session, &error);
      if (self->turn == NULL)
        {
          set_state (self, AKC_BACKEND_STATE_FAILED, g_strdup (error->message));
        }
      else
        {
          akc_turn_client_set_token (self->turn, self->token);
          g_signal_connect_swapped (self->turn, "notify::status", G_CALLBACK (on_turn_status), self);
          g_signal_connect_swapped (akc_chat_source_get_messages (AKC_CHAT_SOURCE (self->turn)),
                                    "items-changed", G_CALLBACK (on_turn_messages), self);
        }
    }

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TURN_CLIENT]);
}

static void
on_token_found (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AkcBackend) self = user_data;
  g_autoptr(GError) error = NULL;
  char *token;

  token = akc_credential_store_lookup_finish (AKC_CREDENTIAL_STORE (source), result, &error);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->lookup);
  clear_secret (&self->token);
  self->token = token;
  apply_token (self);

  if (error != NULL)
    set_state (self, AKC_BACKEND_STATE_NO_KEYRING, g_strdup (error->message));
  else
    set_state (self, AKC_BACKEND_STATE_READY, NULL);

  flush_pending (self);
}

static void
reconfigure (AkcBackend *self,
             gboolean    force)
{
  g_autofree char *endpoint = configured_endpoint (self);

  if (!force && g_strcmp0 (endpoint, self->endpoint) == 0)
    return;

  g_free (self->endpoint);
  self->endpoint = g_steal_pointer (&endpoint);
  clear_secret (&self->token);
  g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);

  if (self->kind == AKC_BACKEND_KIND_PROVIDER)
    {
      g_autofree char *kind_name = g_settings_get_string (self->settings, KEY_PROVIDER_KIND);
      AkcProviderKind kind = AKC_PROVIDER_KIND_OLLAMA;

      g_clear_object (&self->provider);
      g_hash_table_remove_all (self->models);
      g_cancellable_cancel (self->describing);
      g_clear_object (&self->describing);
      g_cancellable_cancel (self->listing);
      g_clear_object (&self->listing);
      set_listed (self, NULL);
      akc_provider_adapter_kind_from_string (kind_name, &kind);
      if (self->endpoint != NULL)
        {
          g_autoptr(GError) error = NULL;

          self->provider = akc_provider_adapter_new (kind, self->endpoint, NULL, &error);
          if (self->provider != NULL)
            offer_tools (self, self->provider);
          apply_model (self);
        }
    }
  else if (self->kind == AKC_BACKEND_KIND_ASK)
    {
      g_clear_object (&self->ask);
      if (self->endpoint != NULL)
        {
          self->ask = akc_ask_adapter_new (self->endpoint);
          apply_ask_options (self);
        }
    }
  else
    {
      build_turn_client (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ENDPOINT]);

  if (self->endpoint == NULL)
    {
      set_state (self, AKC_BACKEND_STATE_NOT_CONFIGURED, NULL);
      flush_pending (self);
      return;
    }

  set_state (self, AKC_BACKEND_STATE_LOOKING_UP, NULL);
  self->lookup = g_cancellable_new ();
  akc_credential_store_lookup_async (self->credentials, self->endpoint,
                                     credential_kind (self), self->lookup,
                                     on_token_found, g_object_ref (self));
}

static void
on_setting_changed (AkcBackend *self,
                    const char *key)
{
  if (g_str_equal (key, endpoint_key (self)))
    reconfigure (self, FALSE);
  else if (self->kind == AKC_BACKEND_KIND_PROVIDER && g_str_equal (key, KEY_PROVIDER_KIND))
    reconfigure (self, TRUE);
  else if (self->kind == AKC_BACKEND_KIND_PROVIDER && g_str_equal (key, KEY_PROVIDER_MODEL))
    apply_model (self);
  else if (self->kind == AKC_BACKEND_KIND_PROVIDER && g_str_equal (key, KEY_PROVIDER_IMAGES))
    apply_images (self);
  else if (self->kind == AKC_BACKEND_KIND_ASK &&
           (g_str_equal (key, KEY_ASK_CORPUS) || g_str_equal (key, KEY_ASK_PERSONA)))
    apply_ask_options (self);
}

/* ------------------------------------------------------------------ */
/* The token                                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  char *token;
} SaveData;

static void
save_data_free (SaveData *data)
{
  clear_secret (&data->token);
  g_free (data);
}

static void
on_token_saved (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcBackend *self = g_task_get_source_object (task);
  SaveData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (data->token != NULL)
    ok = akc_credential_store_store_finish (AKC_CREDENTIAL_STORE (source), result, &error);
  else
    ok = akc_credential_store_clear_finish (AKC_CREDENTIAL_STORE (source), result, &error);

  if (!ok)
    {
      if (g_error_matches (error, AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_NO_SERVICE) ||
          g_error_matches (error, AKC_CREDENTIAL_ERROR, AKC_CREDENTIAL_ERROR_LOCKED))
        set_state (self, AKC_BACKEND_STATE_NO_KEYRING, g_strdup (error->message));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The lookup in flight would bring the old token. */
  g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  clear_secret (&self->token);
  self->token = g_steal_pointer (&data->token);
  apply_token (self);
  set_state (self, AKC_BACKEND_STATE_READY, NULL);
  flush_pending (self);

  g_task_return_boolean (task, TRUE);
}

/**
 * akc_backend_save_token_async:
 * @self: a #AkcBackend
 * @token: (nullable): the bearer token, or %NULL or empty to remove it
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the keyring is done
 * @user_data: data for @callback
 *
 * Stores the bearer token of the configured endpoint in the keyring, or
 * removes it, and uses it from the next request on.
 */
void
akc_backend_save_token_async (AkcBackend          *self,
                              const char          *token,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SaveData *data;

  g_return_if_fail (AKC_IS_BACKEND (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, akc_backend_save_token_async);

  if (self->endpoint == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("Enter and apply the URL first: the token is kept for that URL."));
      return;
    }

  data = g_new0 (SaveData, 1);
  data->token = token != NULL && token[0] != '\0' ? g_strdup (token) : NULL;
  g_task_set_task_data (task, data, (GDestroyNotify) save_data_free);

  if (data->token != NULL)
    akc_credential_store_store_async (self->credentials, self->endpoint,
                                      credential_kind (self), data->token,
                                      cancellable, on_token_saved, g_steal_pointer (&task));
  else
    akc_credential_store_clear_async (self->credentials, self->endpoint,
                                      credential_kind (self),
                                      cancellable, on_token_saved, g_steal_pointer (&task));
}

/**
 * akc_backend_save_token_finish:
 * @self: a #AkcBackend
 * @result: the result
 * @error: return location for why the keyring did not keep it
 *
 * Returns: %TRUE when the token was stored or removed
 */
gboolean
akc_backend_save_token_finish (AkcBackend    *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */
/* ------------------------------------------------------------------ */

static void
akc_backend_dispose (GObject *object)
{
  AkcBackend *self = AKC_BACKEND (object);

  g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  if (self->pending != NULL)
    {
      for (guint i = 0; i < self->pending->len; i++)
        {
          Pending *p = &g_array_index (self->pending, Pending, i);

          akc_stream_cancel (p->stream);
          g_clear_object (&p->request);
          g_clear_object (&p->stream);
          g_clear_pointer (&p->model, g_free);
        }
      g_clear_pointer (&self->pending, g_array_unref);
    }
  if (self->turn != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->turn, self);
      g_signal_handlers_disconnect_by_data (akc_chat_source_get_messages (AKC_CHAT_SOURCE (self->turn)), self);
      g_clear_object (&self->turn);
    }
  g_clear_object (&self->ask);
  g_clear_object (&self->provider);
  g_cancellable_cancel (self->describing);
  g_clear_object (&self->describing);
  g_clear_pointer (&self->models, g_hash_table_unref);
  g_cancellable_cancel (self->listing);
  g_clear_object (&self->listing);
  g_clear_pointer (&self->listed, g_strfreev);
  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->credentials);

  G_OBJECT_CLASS (akc_backend_parent_class)->dispose (object);
}

static void
akc_backend_finalize (GObject *object)
{
  AkcBackend *self = AKC_BACKEND (object);

  clear_secret (&self->token);
  g_free (self->endpoint);
  g_free (self->detail);
  g_free (self->status);

  G_OBJECT_CLASS (akc_backend_parent_class)->finalize (object);
}

static void
akc_backend_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  AkcBackend *self = AKC_BACKEND (object);

  switch (prop_id)
    {
    case PROP_ENDPOINT:
      g_value_set_string (value, self->endpoint);
      break;
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;
    case PROP_TURN_CLIENT:
      g_value_set_object (value, self->turn);
      break;
    case PROP_MODEL:
      g_value_set_string (value, akc_backend_get_model (self));
      break;
    case PROP_MODELS:
      g_value_set_boxed (value, self->listed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_backend_class_init (AkcBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = akc_backend_dispose;
  object_class->finalize = akc_backend_finalize;
  object_class->get_property = akc_backend_get_property;

  props[PROP_ENDPOINT] =
    g_param_spec_string ("endpoint", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  props[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       AKC_TYPE_BACKEND_STATE, AKC_BACKEND_STATE_NOT_CONFIGURED,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  props[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  props[PROP_TURN_CLIENT] =
    g_param_spec_object ("turn-client", NULL, NULL, AKC_TYPE_CHAT_SOURCE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  props[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * AkcBackend:models:
   *
   * The models the configured provider listed last
   * ([method@Backend.refresh_models]), or %NULL when they are not known.
   */
  props[PROP_MODELS] =
    g_param_spec_boxed ("models", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_backend_init (AkcBackend *self)
{
  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  self->models = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * akc_backend_new:
 * @kind: the protocol
 * @settings: the application's settings
 * @credentials: where the token is kept
 *
 * Creates the backend the settings configure, and looks its token up.
 *
 * Returns: (transfer full): a new #AkcBackend
 */
AkcBackend *
akc_backend_new (AkcBackendKind      kind,
                 GSettings          *settings,
                 AkcCredentialStore *credentials)
{
  AkcBackend *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (AKC_IS_CREDENTIAL_STORE (credentials), NULL);

  self = g_object_new (AKC_TYPE_BACKEND, NULL);
  self->kind = kind;
  self->settings = g_object_ref (settings);
  self->credentials = g_object_ref (credentials);
  self->status = status_text (self);

  g_signal_connect_object (settings, "changed", G_CALLBACK (on_setting_changed), self, G_CONNECT_SWAPPED);
  reconfigure (self, FALSE);

  return self;
}

AkcBackendKind
akc_backend_get_kind (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), AKC_BACKEND_KIND_ASK);

  return self->kind;
}

/**
 * akc_backend_get_endpoint:
 * @self: a #AkcBackend
 *
 * Returns: (nullable): the endpoint in use, or %NULL when not configured
 */
const char *
akc_backend_get_endpoint (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return self->endpoint;
}

gboolean
akc_backend_get_configured (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), FALSE);

  return self->endpoint != NULL;
}

AkcBackendState
akc_backend_get_state (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), AKC_BACKEND_STATE_NOT_CONFIGURED);

  return self->state;
}

/**
 * akc_backend_get_status:
 * @self: a #AkcBackend
 *
 * Returns: the connection state in words, saying what to do when
 *   something is wrong
 */
const char *
akc_backend_get_status (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return self->status;
}

gboolean
akc_backend_get_has_token (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), FALSE);

  return self->token != NULL;
}

/**
 * akc_backend_dup_token:
 * @self: a #AkcBackend
 *
 * Gets the token, for the preferences to show masked.
 *
 * Returns: (transfer full) (nullable): the token
 */
char *
akc_backend_dup_token (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return g_strdup (self->token);
}

/**
 * akc_backend_get_turn_client:
 * @self: a turn #AkcBackend
 *
 * Returns: (transfer none) (nullable): the conversation on the turn
 *   server, or %NULL when not configured
 */
AkcChatSource *
akc_backend_get_turn_client (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return self->turn != NULL ? AKC_CHAT_SOURCE (self->turn) : NULL;
}

/**
 * akc_backend_new_turn_session:
 * @self: a turn #AkcBackend
 *
 * Starts a new conversation on the turn server: a new session id,
 * remembered, and a new client.
 */
void
akc_backend_new_turn_session (AkcBackend *self)
{
  g_autofree char *session = g_uuid_string_random ();

  g_return_if_fail (AKC_IS_BACKEND (self));
  g_return_if_fail (self->kind == AKC_BACKEND_KIND_TURN);

  g_settings_set_string (self->settings, KEY_TURN_SESSION, session);
  build_turn_client (self);
  if (self->turn != NULL && self->state != AKC_BACKEND_STATE_NO_KEYRING &&
      self->state != AKC_BACKEND_STATE_LOOKING_UP)
    set_state (self, AKC_BACKEND_STATE_READY, NULL);
}

/**
 * akc_backend_get_provider_adapter:
 * @self: a provider #AkcBackend
 *
 * Returns: (transfer none) (nullable): the adapter of the configured
 *   provider, with its API key, or %NULL when not configured
 */
AkcProviderAdapter *
akc_backend_get_provider_adapter (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return self->provider;
}

/**
 * akc_backend_get_model:
 * @self: a provider #AkcBackend
 *
 * Returns: (nullable): the model the provider conversation asks for
 */
const char *
akc_backend_get_model (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return self->provider != NULL ? akc_provider_adapter_get_model (self->provider) : NULL;
}

/**
 * akc_backend_get_provider_kind:
 * @self: a provider #AkcBackend
 *
 * Returns: (nullable): the kind of the configured provider (`openai`,
 *   `ollama`, `anthropic`), or %NULL when none is configured
 */
const char *
akc_backend_get_provider_kind (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return self->provider != NULL ? akc_provider_adapter_kind_to_string (akc_provider_adapter_get_kind (self->provider))
                                : NULL;
}

/**
 * akc_backend_get_provider_for_model:
 * @self: a provider #AkcBackend
 * @model: (nullable): a model of the configured provider, or %NULL for
 *   the default model
 *
 * Gets the adapter that asks the configured provider for @model, with the
 * key; the first time, the provider is asked whether the model takes
 * images.
 *
 * Returns: (transfer none) (nullable): the adapter, or %NULL when no
 *   provider is configured
 */
AkcProviderAdapter *
akc_backend_get_provider_for_model (AkcBackend *self,
                                    const char *model)
{
  AkcProviderAdapter *adapter;

  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  if (self->provider == NULL)
    return NULL;
  if (model == NULL || model[0] == '\0' || g_strcmp0 (model, akc_provider_adapter_get_model (self->provider)) == 0)
    return self->provider;

  adapter = g_hash_table_lookup (self->models, model);
  if (adapter != NULL)
    return adapter;

  adapter = akc_provider_adapter_new (akc_provider_adapter_get_kind (self->provider), self->endpoint, model, NULL);
  if (adapter == NULL)
    return self->provider;
  akc_provider_adapter_set_connect_timeout (adapter, akc_provider_adapter_get_connect_timeout (self->provider));
  akc_provider_adapter_set_api_key (adapter, self->token);
  akc_provider_adapter_set_accepts_images (adapter, images_setting (self, model));
  offer_tools (self, adapter);
  g_hash_table_insert (self->models, g_strdup (model), adapter);
  describe_model (self, adapter);

  return adapter;
}

/**
 * akc_backend_refresh_models:
 * @self: a provider #AkcBackend
 *
 * Asks the configured provider for its models, without waiting (once
 * the key is known), and sets [property@Backend:models] from the answer;
 * one question at a time: the New Chat menu asks when it opens. While
 * the key is being looked up, nothing is asked.
 */
void
akc_backend_refresh_models (AkcBackend *self)
{
  g_return_if_fail (AKC_IS_BACKEND (self));

  if (self->kind != AKC_BACKEND_KIND_PROVIDER || self->provider == NULL || self->listing != NULL ||
      self->lookup != NULL)
    return;
  self->listing = g_cancellable_new ();
  akc_provider_adapter_list_models_async (self->provider, self->listing, on_models_listed, g_object_ref (self));
}

/**
 * akc_backend_get_models:
 * @self: a provider #AkcBackend
 *
 * Returns: (nullable) (array zero-terminated=1): [property@Backend:models]
 */
const char * const *
akc_backend_get_models (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return (const char * const *) self->listed;
}

/**
 * akc_backend_get_provider_title:
 * @self: a provider #AkcBackend
 *
 * Returns: the kind of the configured provider for people: “Ollama”,
 *   “OpenAI-compatible”, “Anthropic”, or “Model Provider” when none is
 *   configured
 */
const char *
akc_backend_get_provider_title (AkcBackend *self)
{
  const char *kind;

  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  kind = akc_backend_get_provider_kind (self);
  if (g_strcmp0 (kind, "openai") == 0)
    return _("OpenAI-compatible");
  if (g_strcmp0 (kind, "anthropic") == 0)
    return _("Anthropic");
  if (g_strcmp0 (kind, "ollama") == 0)
    return _("Ollama");
  return _("Model Provider");
}

/**
 * akc_backend_get_tools:
 * @self: a provider #AkcBackend
 *
 * Gets the tools every model of the provider is offered; a provider
 * conversation's chat registers them (akc_chat_add_tool()), so their
 * calls run, `open_link` after the person approved it.
 *
 * Returns: (transfer none) (element-type AkcTool) (nullable): the tools,
 *   or %NULL for another kind of backend
 */
GPtrArray *
akc_backend_get_tools (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), NULL);

  return ensure_tools (self);
}

/**
 * akc_backend_get_images_settable:
 * @self: a provider #AkcBackend
 *
 * Returns: whether the person says which models of the configured
 *   provider take images (OpenAI-compatible and Anthropic providers do
 *   not say it; Ollama does)
 */
gboolean
akc_backend_get_images_settable (AkcBackend *self)
{
  g_return_val_if_fail (AKC_IS_BACKEND (self), FALSE);

  return images_settable (self);
}

/**
 * akc_backend_get_model_takes_images:
 * @self: a provider #AkcBackend
 * @model: (nullable): a model of the configured provider, or %NULL for
 *   the default one
 *
 * Returns: whether images are sent to @model: what the person said of it,
 *   or what Ollama says (%TRUE while nothing is known)
 */
gboolean
akc_backend_get_model_takes_images (AkcBackend *self,
                                    const char *model)
{
  AkcProviderAdapter *adapter;

  g_return_val_if_fail (AKC_IS_BACKEND (self), FALSE);

  adapter = akc_backend_get_provider_for_model (self, model);
  return adapter != NULL && akc_provider_adapter_get_accepts_images (adapter);
}

/**
 * akc_backend_set_model_takes_images:
 * @self: a provider #AkcBackend
 * @model: a model of the configured provider
 * @takes: whether it reads images
 *
 * Says whether @model of the configured OpenAI-compatible or Anthropic
 * provider takes images, for every conversation held with it: a model
 * that does not is sent none (the composer refuses them, saying why).
 * It is kept with the provider's base URL. Ollama says it itself, so
 * nothing is kept for an Ollama model.
 */
void
akc_backend_set_model_takes_images (AkcBackend *self,
                                    const char *model,
                                    gboolean    takes)
{
  g_autoptr(GVariant) list = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *url, *name;
  gboolean value;

  g_return_if_fail (AKC_IS_BACKEND (self));
  g_return_if_fail (model != NULL);

  if (!images_settable (self) || model[0] == '\0' || images_setting (self, model) == !!takes)
    return;

  list = g_settings_get_value (self->settings, KEY_PROVIDER_IMAGES);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ssb)"));
  g_variant_iter_init (&iter, list);
  while (g_variant_iter_next (&iter, "(&s&sb)", &url, &name, &value))
    if (!g_str_equal (url, self->endpoint) || !g_str_equal (name, model))
      g_variant_builder_add (&builder, "(ssb)", url, name, value);
  g_variant_builder_add (&builder, "(ssb)", self->endpoint, model, !!takes);
  g_settings_set_value (self->settings, KEY_PROVIDER_IMAGES, g_variant_builder_end (&builder));
  /* At once, whenever the settings tell of the change. */
  apply_images (self);
}

/* ------------------------------------------------------------------ */
/* A conversation's route to its model                                 */
/* ------------------------------------------------------------------ */

/*
 * AkcProviderRoute:
 *
 * The adapter of one model provider's conversation: each turn goes to the
 * provider backend, asking for the model the conversation is held with
 * (akc_provider_route_set_model()). A conversation held with a provider
 * that is no longer the one set up is not sent elsewhere silently: its
 * turn fails with `PROVIDER_CHANGED`, saying what to do.
 */
struct _AkcProviderRoute
{
  GObject     parent_instance;

  AkcBackend *backend;
  char       *kind;
  char       *url;
  char       *model;
};

static void akc_provider_route_adapter_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcProviderRoute, akc_provider_route, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_provider_route_adapter_init))

static gboolean
route_is_current (AkcProviderRoute *self)
{
  return self->url == NULL ||
         (g_strcmp0 (self->url, akc_backend_get_endpoint (self->backend)) == 0 &&
          (self->kind == NULL || g_strcmp0 (self->kind, akc_backend_get_provider_kind (self->backend)) == 0));
}

static void
akc_provider_route_stream (AkcAdapter        *adapter,
                           AkcAdapterRequest *request,
                           AkcStream         *stream)
{
  AkcProviderRoute *self = AKC_PROVIDER_ROUTE (adapter);

  if (akc_backend_get_configured (self->backend) && !route_is_current (self))
    {
      /* Translators: the first %s is a model name, the second a URL */
      g_autofree char *message = g_strdup_printf (_("This conversation was held with %s at %s, which is no longer set up. Choose a model in the header to continue it with the provider set up now."),
                                                  self->model != NULL ? self->model : "?", self->url);

      akc_stream_fail (stream, "PROVIDER_CHANGED", message);
      return;
    }

  akc_backend_stream_model (self->backend, self->model, request, stream);
}

static AkcJsonValue *
akc_provider_route_get_capabilities (AkcAdapter *adapter)
{
  AkcProviderRoute *self = AKC_PROVIDER_ROUTE (adapter);
  AkcProviderAdapter *provider = route_is_current (self)
                                 ? akc_backend_get_provider_for_model (self->backend, self->model) : NULL;

  return provider != NULL ? akc_adapter_get_capabilities (AKC_ADAPTER (provider)) : NULL;
}

static void
akc_provider_route_adapter_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_provider_route_stream;
  iface->get_capabilities = akc_provider_route_get_capabilities;
}

static void
akc_provider_route_finalize (GObject *object)
{
  AkcProviderRoute *self = AKC_PROVIDER_ROUTE (object);

  g_clear_object (&self->backend);
  g_free (self->kind);
  g_free (self->url);
  g_free (self->model);

  G_OBJECT_CLASS (akc_provider_route_parent_class)->finalize (object);
}

static void
akc_provider_route_class_init (AkcProviderRouteClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_provider_route_finalize;
}

static void
akc_provider_route_init (AkcProviderRoute *self)
{
}

/**
 * akc_provider_route_new:
 * @backend: the provider backend
 *
 * Returns: (transfer full): a route to @backend's default model
 */
AkcProviderRoute *
akc_provider_route_new (AkcBackend *backend)
{
  AkcProviderRoute *self;

  g_return_val_if_fail (AKC_IS_BACKEND (backend), NULL);

  self = g_object_new (AKC_TYPE_PROVIDER_ROUTE, NULL);
  self->backend = g_object_ref (backend);
  return self;
}

/**
 * akc_provider_route_set_model:
 * @self: a #AkcProviderRoute
 * @kind: (nullable): the kind of provider the conversation is held with
 * @url: (nullable): its base URL, or %NULL for whichever is set up
 * @model: (nullable): the model, or %NULL for the default one
 *
 * Sets what the next turn asks for.
 */
void
akc_provider_route_set_model (AkcProviderRoute *self,
                              const char       *kind,
                              const char       *url,
                              const char       *model)
{
  g_return_if_fail (AKC_IS_PROVIDER_ROUTE (self));

  g_free (self->kind);
  self->kind = g_strdup (kind);
  g_free (self->url);
  self->url = g_strdup (url);
  g_free (self->model);
  self->model = g_strdup (model);
}

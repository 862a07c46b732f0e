/* akc-server.c: akc-server, built from its configuration file
 *
 * SPDX-License-Identifier: MIT
 *
 * The configuration (README "akc-server") is read strictly: unknown
 * members, missing ones, wrong types, unknown definitions and files that
 * cannot be read are errors naming their place, and nothing starts.
 * Relative file names are resolved from the configuration's folder.
 */

#include "config.h"

#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "akc-ask-handler.h"
#include "akc-demo.h"
#include "akc-json-private.h"
#include "akc-server.h"
#include "akc-server-memory.h"
#include "akc-server-script.h"
#include "akc-ask-retriever.h"
#include "akc-fts-corpus.h"
#include "akc-pg-storage.h"
#include "akc-server-util.h"
#include "akc-sqlite-ask-store.h"

#define CONFIG_PROTOCOL "agentskit.chat.server-config"
#define LISTEN_BACKLOG 1024

typedef struct
{
  char *sha256;   /* lowercase hex */
  char *subject;
  char *site;     /* Ask mounts: the name of the token's site */
} Token;

typedef struct
{
  char         *name;
  AkcJsonValue *site;         /* as configured; validated per request (§11.2 step 4) */
  gboolean      refuse;       /* rate limit: refuse every request */
  gint64        retry_after;  /* seconds, or -1 */
  gint64        window_requests;
  gint64        window_seconds;
  GHashTable   *windows;      /* subject → Window */
} Site;

typedef struct
{
  gint64 start;   /* monotonic µs */
  gint64 count;
} Window;

typedef struct
{
  char          *prefix;
  AkcDefinition *definition;
} Rule;

typedef struct
{
  AkcServer      *server;   /* unowned */
  char           *path;
  gboolean        authenticate;
  GPtrArray      *tokens;   /* Token */
  GPtrArray      *rules;    /* Rule */
  AkcChatHandler *chat;
  gboolean        is_ask;
  GPtrArray      *sites;    /* Site */
  AkcAskHandler  *ask;
} Mount;

struct _AkcServer
{
  GObject            parent_instance;

  char              *folder;
  SoupServer        *soup;
  GStrv              listen;
  GHashTable        *definitions;  /* name → AkcDefinition */
  GPtrArray         *demos;        /* AkcDemo kept for their definitions */
  AkcSessionStorage *storage;
  GPtrArray         *mounts;       /* Mount */
  char              *sqlite_path;
  char              *conninfo;
  AkcJsonValue      *seed;
  GSocketService    *service;
  GPtrArray         *uris;          /* char *, what it listens on */
  GHashTable        *connections;   /* GSocket → Connection */
  guint              sweep_id;
  gint64             max_connections;
  gint64             idle_timeout_ms;
  guint64            n_refused;
  char              *prometheus;    /* the /metrics path, or NULL */
  GTlsCertificate   *tls;           /* HTTPS on every address, or NULL */
  gboolean           draining;
  gboolean           log_requests;
  GHashTable        *aggregates;    /* "name\nsite\noutcome" → Aggregate */
  GOutputStream     *metrics;       /* NDJSON metric records, or NULL */
  GQueue             metric_lines;  /* GBytes waiting to be written */
  gboolean           writing;
};

G_DEFINE_FINAL_TYPE (AkcServer, akc_server, G_TYPE_OBJECT)

static void connection_free (gpointer data);

static void
token_free (gpointer data)
{
  Token *token = data;

  g_free (token->sha256);
  g_free (token->subject);
  g_free (token->site);
  g_free (token);
}

static void
rule_free (gpointer data)
{
  Rule *rule = data;

  g_free (rule->prefix);
  g_object_unref (rule->definition);
  g_free (rule);
}

static void
site_free (gpointer data)
{
  Site *site = data;

  g_free (site->name);
  akc_json_value_unref (site->site);
  g_hash_table_unref (site->windows);
  g_free (site);
}

static void
mount_free (gpointer data)
{
  Mount *mount = data;

  g_free (mount->path);
  g_ptr_array_unref (mount->tokens);
  g_ptr_array_unref (mount->rules);
  g_ptr_array_unref (mount->sites);
  g_clear_object (&mount->chat);
  g_clear_object (&mount->ask);
  g_free (mount);
}

static gboolean
config_error (GError     **error,
              const char  *format,
              ...) G_GNUC_PRINTF (2, 3);

static gboolean
config_error (GError     **error,
              const char  *format,
              ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID, message);
  return FALSE;
}

static char *
resolve_path (AkcServer  *self,
              const char *path)
{
  if (g_path_is_absolute (path))
    return g_strdup (path);
  return g_build_filename (self->folder, path, NULL);
}

/* HOST:PORT with a literal IPv4 address, or [IPv6]:PORT. */
static GSocketAddress *
parse_address (const char  *text,
               GError     **error)
{
  g_autofree char *host = NULL;
  g_autoptr(GInetAddress) address = NULL;
  const char *colon;
  guint64 port = 0;

  if (text[0] == '[')
    {
      const char *end = strchr (text, ']');

      if (end == NULL || end[1] != ':')
        goto invalid;
      host = g_strndup (text + 1, end - text - 1);
      colon = end + 1;
    }
  else
    {
      colon = strrchr (text, ':');
      if (colon == NULL)
        goto invalid;
      host = g_strndup (text, colon - text);
    }
  if (!g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &port, NULL))
    goto invalid;
  address = g_inet_address_new_from_string (host);
  if (address == NULL)
    goto invalid;
  return g_inet_socket_address_new (address, (guint16) port);

invalid:
  config_error (error, _("The listen address “%s” is not HOST:PORT with a numeric IP address."), text);
  return NULL;
}

static gboolean
parse_listen (AkcServer     *self,
              AkcJsonValue  *root,
              GError       **error)
{
  AkcJsonValue *listen;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (!akc_server_get_array (root, "listen", "the configuration", &listen, error))
    return FALSE;
  if (listen == NULL)
    g_strv_builder_add (builder, "127.0.0.1:8080");
  for (gsize i = 0; listen != NULL && i < akc_json_value_get_length (listen); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (listen, i);
      g_autoptr(GSocketAddress) address = NULL;
      const char *text = akc_json_value_get_kind (item) == AKC_JSON_KIND_STRING
                         ? akc_json_value_get_string (item, NULL) : NULL;

      if (text == NULL)
        return config_error (error, _("Each listen address must be a string."));
      if ((address = parse_address (text, error)) == NULL)
        return FALSE;
      g_strv_builder_add (builder, text);
    }
  self->listen = g_strv_builder_end (builder);
  if (self->listen[0] == NULL)
    return config_error (error, _("“listen” of the configuration is empty."));
  return TRUE;
}

static const struct
{
  const char *name;
  const char *id;
} references[] = {
  { "hello-world", "hello-world" },
  { "support", "support-reference" },
  { "onboarding", "onboarding-reference" },
  { "operations", "operations-reference" },
  { "rag", "rag-reference" },
};

static gboolean
parse_capabilities (AkcJsonValue   *object,
                    const char     *where,
                    GStrv          *out,
                    GError        **error)
{
  AkcJsonValue *array;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  *out = NULL;
  if (!akc_server_get_array (object, "capabilities", where, &array, error))
    return FALSE;
  if (array == NULL)
    return TRUE;
  for (gsize i = 0; i < akc_json_value_get_length (array); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (array, i);

      if (akc_json_value_get_kind (item) != AKC_JSON_KIND_STRING)
        return config_error (error, _("“capabilities” of %s must be strings."), where);
      g_strv_builder_add (builder, akc_json_value_get_string (item, NULL));
    }
  *out = g_strv_builder_end (builder);
  return TRUE;
}

/* {"kind": "provider", "api": "openai"|"ollama"|"anthropic", "baseUrl": U,
 *  "model": M, "apiKeyFile": F | "apiKeyEnv": NAME, "maxTokens": N,
 *  "connectTimeoutMs": N}: a model provider (AkcProviderAdapter) as the
 * adapter of a definition or as the Ask generator. The key is never in
 * the configuration: it is read from a file (a systemd credential) or
 * from the environment, and an empty or missing one is an error. */
static AkcAdapter *
parse_provider (AkcServer     *self,
                AkcJsonValue  *value,
                const char    *where,
                GError       **error)
{
  static const char * const allowed[] = { "kind", "api", "baseUrl", "model", "apiKeyFile", "apiKeyEnv", "maxTokens",
                                          "connectTimeoutMs", NULL };
  static const char * const required[] = { "kind", "api", "baseUrl", "model", NULL };
  g_autoptr(AkcProviderAdapter) provider = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *key = NULL;
  const char *api, *base_url, *model, *key_file, *key_env;
  gint64 max_tokens = AKC_PROVIDER_ADAPTER_DEFAULT_MAX_TOKENS;
  gint64 connect_timeout = AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  AkcProviderKind kind;

  if (!akc_server_check_object (value, where, allowed, required, error) ||
      (api = akc_server_get_string (value, "api", where, FALSE, error)) == NULL ||
      (base_url = akc_server_get_string (value, "baseUrl", where, FALSE, error)) == NULL ||
      (model = akc_server_get_string (value, "model", where, FALSE, error)) == NULL ||
      !akc_server_get_integer (value, "maxTokens", where, 1, 1000000, &max_tokens, error) ||
      !akc_server_get_integer (value, "connectTimeoutMs", where, 100, 3600000, &connect_timeout, error))
    return NULL;
  key_file = akc_server_get_string (value, "apiKeyFile", where, TRUE, error);
  if (key_file == NULL && akc_json_value_get_member (value, "apiKeyFile") != NULL)
    return NULL;
  key_env = akc_server_get_string (value, "apiKeyEnv", where, TRUE, error);
  if (key_env == NULL && akc_json_value_get_member (value, "apiKeyEnv") != NULL)
    return NULL;
  if (!akc_provider_adapter_kind_from_string (api, &kind))
    {
      config_error (error, _("“api” of %s must be “openai”, “ollama” or “anthropic”."), where);
      return NULL;
    }
  if (model[0] == '\0')
    {
      config_error (error, _("“model” of %s is empty."), where);
      return NULL;
    }
  if (key_file != NULL && key_env != NULL)
    {
      config_error (error, _("%s has both “apiKeyFile” and “apiKeyEnv”: name one place for the key."), where);
      return NULL;
    }
  if (key_file != NULL)
    {
      g_autofree char *path = resolve_path (self, key_file);
      g_autofree char *contents = NULL;

      if (!g_file_get_contents (path, &contents, NULL, &local))
        {
          config_error (error, _("The key of %s cannot be read: %s"), where, local->message);
          return NULL;
        }
      key = g_strdup (g_strstrip (contents));
      explicit_bzero (contents, strlen (contents));
    }
  else if (key_env != NULL)
    key = g_strdup (g_getenv (key_env));
  if ((key_file != NULL || key_env != NULL) &&
      (key == NULL || key[0] == '\0' || !g_utf8_validate (key, -1, NULL) || strpbrk (key, "\r\n") != NULL))
    {
      if (key_file != NULL)
        config_error (error, _("The key file of %s is empty or not one line of text."), where);
      else
        config_error (error, _("The environment variable “%s” of %s is unset, empty or not one line of text."),
                      key_env, where);
      return NULL;
    }

  provider = akc_provider_adapter_new (kind, base_url, model, &local);
  if (provider == NULL)
    {
      config_error (error, _("“baseUrl” of %s is invalid: %s"), where, local->message);
      return NULL;
    }
  akc_provider_adapter_set_max_tokens (provider, (guint) max_tokens);
  akc_provider_adapter_set_connect_timeout (provider, (guint) connect_timeout);
  if (key != NULL)
    {
      akc_provider_adapter_set_api_key (provider, key);
      explicit_bzero (key, strlen (key));
    }
  return AKC_ADAPTER (g_steal_pointer (&provider));
}

/* The adapter of a definition: {"kind": "script", "file": F} or a
 * provider. */
static AkcAdapter *
parse_adapter (AkcServer     *self,
               AkcJsonValue  *adapter,
               const char    *where,
               GError       **error)
{
  static const char * const allowed[] = { "kind", "file", NULL };
  g_autofree char *file = NULL;
  const char *kind, *name;

  if (akc_json_value_get_kind (adapter) == AKC_JSON_KIND_OBJECT &&
      g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (adapter, "kind"), NULL), "provider") == 0)
    return parse_provider (self, adapter, where, error);
  if (!akc_server_check_object (adapter, where, allowed, allowed, error) ||
      (kind = akc_server_get_string (adapter, "kind", where, FALSE, error)) == NULL ||
      (name = akc_server_get_string (adapter, "file", where, FALSE, error)) == NULL)
    return NULL;
  if (strcmp (kind, "script") != 0)
    {
      config_error (error, _("“kind” of %s must be “script” or “provider”."), where);
      return NULL;
    }
  file = resolve_path (self, name);
  return akc_server_script_new_from_file (file, error);
}

static gboolean
parse_definition (AkcServer     *self,
                  AkcJsonValue  *value,
                  gsize          index,
                  GError       **error)
{
  static const char * const allowed[] = { "id", "revision", "adapter", "reference", "capabilities", "memory", NULL };
  static const char * const required[] = { "id", NULL };
  g_autofree char *where = g_strdup_printf (_("definition %u"), (guint) index + 1);
  g_autoptr(AkcDefinition) definition = NULL;
  const char *id, *reference, *memory;
  gint64 revision = 1;

  if (!akc_server_check_object (value, where, allowed, required, error) ||
      (id = akc_server_get_string (value, "id", where, FALSE, error)) == NULL ||
      !akc_server_get_integer (value, "revision", where, 1, G_MAXINT32, &revision, error))
    return FALSE;
  reference = akc_server_get_string (value, "reference", where, TRUE, error);
  if (reference == NULL && akc_json_value_get_member (value, "reference") != NULL)
    return FALSE;
  memory = akc_server_get_string (value, "memory", where, TRUE, error);
  if (memory == NULL && akc_json_value_get_member (value, "memory") != NULL)
    return FALSE;
  if (memory != NULL && strcmp (memory, "memory") != 0 && strcmp (memory, "none") != 0)
    return config_error (error, _("“memory” of %s must be “memory” or “none”."), where);
  if (g_hash_table_contains (self->definitions, id))
    return config_error (error, _("The definition “%s” is declared twice."), id);

  if (reference != NULL)
    {
      g_auto(GStrv) capabilities = NULL;
      g_autoptr(AkcAdapter) model = NULL;
      g_autoptr(AkcDemo) demo = NULL;
      g_autoptr(GError) local = NULL;
      const char *expected = NULL;

      if (akc_json_value_get_member (value, "revision") != NULL)
        return config_error (error, _("%s is a reference application: it has no “revision”."), where);
      if (akc_json_value_get_member (value, "adapter") != NULL && g_strcmp0 (reference, "rag") == 0)
        return config_error (error, _("%s is the rag reference application: it answers with its own adapter."),
                             where);
      if (akc_json_value_get_member (value, "adapter") != NULL)
        {
          g_autofree char *model_where = g_strdup_printf (_("the adapter of %s"), where);

          /* what answers the messages no route of the application answers */
          if ((model = parse_adapter (self, akc_json_value_get_member (value, "adapter"), model_where, error)) == NULL)
            return FALSE;
        }
      for (guint i = 0; i < G_N_ELEMENTS (references); i++)
        if (strcmp (references[i].name, reference) == 0)
          expected = references[i].id;
      if (expected == NULL)
        return config_error (error, _("“reference” of %s must be hello-world, support, onboarding, operations or rag."),
                             where);
      if (strcmp (expected, id) != 0)
        return config_error (error, _("The id of %s must be “%s”, the reference application's."), where, expected);
      if (!parse_capabilities (value, where, &capabilities, error))
        return FALSE;
      demo = akc_demo_new_full (reference, NULL, (const char * const *) capabilities, model, &local);
      if (demo == NULL)
        return config_error (error, _("The reference application of %s cannot be built: %s"), where, local->message);
      definition = g_object_ref (akc_session_get_definition (akc_demo_get_session (demo)));
      g_ptr_array_add (self->demos, g_steal_pointer (&demo));
    }
  else
    {
      AkcJsonValue *adapter = akc_json_value_get_member (value, "adapter");
      g_autofree char *adapter_where = g_strdup_printf (_("the adapter of %s"), where);
      g_autoptr(AkcAdapter) script = NULL;

      if (akc_json_value_get_member (value, "capabilities") != NULL)
        return config_error (error, _("%s has “capabilities”, which only reference applications have."), where);
      if (adapter == NULL)
        return config_error (error, _("%s needs an “adapter” or a “reference”."), where);
      if ((script = parse_adapter (self, adapter, adapter_where, error)) == NULL)
        return FALSE;
      definition = akc_definition_new (id, script);
      akc_definition_set_revision (definition, revision);
    }

  if (memory == NULL || strcmp (memory, "memory") == 0)
    {
      g_autoptr(AkcChatMemory) messages = akc_server_memory_new ();

      akc_definition_set_memory (definition, messages);
    }

  g_hash_table_insert (self->definitions, g_strdup (id), g_steal_pointer (&definition));
  return TRUE;
}

static gboolean
parse_store (AkcServer     *self,
             AkcJsonValue  *root,
             GError       **error)
{
  static const char * const allowed[] = { "kind", "path", "seed", "conninfo", NULL };
  static const char * const required[] = { "kind", NULL };
  static const char * const seed_allowed[] = { "sessionId", "definition", NULL };
  AkcJsonValue *store = akc_json_value_get_member (root, "sessionStore");
  const char *where = _("the session store");
  AkcJsonValue *seed;
  const char *kind;

  if (store == NULL)
    {
      self->storage = akc_memory_session_storage_new ();
      return TRUE;
    }
  if (!akc_server_check_object (store, where, allowed, required, error) ||
      (kind = akc_server_get_string (store, "kind", where, FALSE, error)) == NULL ||
      !akc_server_get_array (store, "seed", where, &seed, error))
    return FALSE;

  if (strcmp (kind, "postgresql") == 0)
    {
      const char *conninfo = akc_server_get_string (store, "conninfo", where, FALSE, error);

      if (conninfo == NULL)
        return FALSE;
      if (seed != NULL || akc_json_value_get_member (store, "path") != NULL)
        return config_error (error, _("A session store in PostgreSQL has a “conninfo” only."));
      self->conninfo = g_strdup (conninfo);
      return TRUE;
    }
  if (akc_json_value_get_member (store, "conninfo") != NULL)
    return config_error (error, _("Only a session store in PostgreSQL has a “conninfo”."));
  if (strcmp (kind, "sqlite") == 0)
    {
      const char *path = akc_server_get_string (store, "path", where, FALSE, error);

      if (path == NULL)
        return FALSE;
      if (seed != NULL)
        return config_error (error, _("Only a session store in memory has a “seed”."));
      self->sqlite_path = resolve_path (self, path);
      return TRUE;
    }
  if (strcmp (kind, "memory") != 0)
    return config_error (error, _("“kind” of the session store must be “memory”, “sqlite” or “postgresql”."));
  if (akc_json_value_get_member (store, "path") != NULL)
    return config_error (error, _("A session store in memory has no “path”."));

  self->storage = akc_memory_session_storage_new ();
  for (gsize i = 0; seed != NULL && i < akc_json_value_get_length (seed); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (seed, i);
      g_autofree char *in = g_strdup_printf (_("seed %u of the session store"), (guint) i + 1);
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(AkcJsonValue) snapshot = NULL;
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autoptr(AkcJsonValue) decoded = NULL;
      g_autofree char *now = NULL;
      g_autoptr(GDateTime) utc = g_date_time_new_now_utc ();
      AkcDefinition *definition;
      const char *session_id, *name;
      AkcJsonWriter w;

      if (!akc_server_check_object (item, in, seed_allowed, seed_allowed, error) ||
          (session_id = akc_server_get_string (item, "sessionId", in, FALSE, error)) == NULL ||
          (name = akc_server_get_string (item, "definition", in, FALSE, error)) == NULL)
        return FALSE;
      definition = g_hash_table_lookup (self->definitions, name);
      if (definition == NULL)
        return config_error (error, _("%s names the unknown definition “%s”."), in, name);

      now = g_date_time_format (utc, "%Y-%m-%dT%H:%M:%S.000Z");
      akc_json_writer_init (&w, text);
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "protocol");
      akc_json_writer_string (&w, "agentskit.chat.session", -1);
      akc_json_writer_member (&w, "version");
      akc_json_writer_int (&w, 1);
      akc_json_writer_member (&w, "sessionId");
      akc_json_writer_string (&w, session_id, -1);
      akc_json_writer_member (&w, "definitionId");
      akc_json_writer_string (&w, akc_definition_get_id (definition), -1);
      akc_json_writer_member (&w, "definitionRevision");
      akc_json_writer_int (&w, akc_definition_get_revision (definition));
      akc_json_writer_member (&w, "updatedAt");
      akc_json_writer_string (&w, now, -1);
      akc_json_writer_member (&w, "cursor");
      akc_json_writer_int (&w, 0);
      akc_json_writer_member (&w, "confirmations");
      akc_json_writer_begin_array (&w);
      akc_json_writer_end_array (&w);
      akc_json_writer_end_object (&w);

      snapshot = akc_json_value_parse (text->str, text->len, NULL);
      decoded = akc_session_snapshot_decode_value (snapshot, &diagnostic);
      if (decoded == NULL)
        return config_error (error, _("%s is not a valid session: %s"), in, akc_diagnostic_get_message (diagnostic));
      akc_memory_session_storage_put (AKC_MEMORY_SESSION_STORAGE (self->storage), session_id, decoded);
    }
  return TRUE;
}

/* Authentication ---------------------------------------------------- */

static gboolean
equal_constant_time (const char *a,
                     const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  guint8 diff = la != lb;

  for (gsize i = 0; i < la && i < lb; i++)
    diff |= (guint8) (a[i] ^ b[i]);
  return diff == 0;
}

static AkcJsonValue *
bearer_auth (SoupServerMessage *message,
             gpointer           user_data)
{
  Mount *mount = user_data;
  const char *header = soup_message_headers_get_one (soup_server_message_get_request_headers (message),
                                                     "Authorization");
  SoupMessageHeaders *response = soup_server_message_get_response_headers (message);

  if (header != NULL && g_str_has_prefix (header, "Bearer ") && header[7] != '\0')
    {
      g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, header + 7, -1);

      for (guint i = 0; i < mount->tokens->len; i++)
        {
          Token *token = g_ptr_array_index (mount->tokens, i);

          if (equal_constant_time (hash, token->sha256))
            {
              g_autoptr(GString) text = g_string_new (NULL);
              AkcJsonWriter w;

              akc_json_writer_init (&w, text);
              akc_json_writer_begin_object (&w);
              akc_json_writer_member (&w, "subject");
              akc_json_writer_string (&w, token->subject, -1);
              if (token->site != NULL)
                {
                  akc_json_writer_member (&w, "site");
                  akc_json_writer_string (&w, token->site, -1);
                }
              akc_json_writer_end_object (&w);
              return akc_json_value_parse (text->str, text->len, NULL);
            }
        }
    }

  soup_server_message_set_status (message, 401, NULL);
  soup_message_headers_replace (response, "WWW-Authenticate", "Bearer");
  if (mount->ask != NULL)
    {
      static const char body[] = "{\"error\":{\"code\":\"ASK_UNAUTHORIZED\",\"message\":\"Authentication is required.\","
                                 "\"retryable\":false}}";

      soup_message_headers_replace (response, "Cache-Control", "no-store");
      soup_server_message_set_response (message, "application/json; charset=utf-8", SOUP_MEMORY_STATIC,
                                        body, strlen (body));
    }
  else
    soup_server_message_set_response (message, "text/plain;charset=UTF-8", SOUP_MEMORY_STATIC, "Unauthorized", 12);
  return NULL;
}

static Site *
mount_site (Mount        *mount,
            AkcJsonValue *context)
{
  const char *name = akc_json_value_get_string (akc_json_value_get_member (context, "site"), NULL);

  for (guint i = 0; name != NULL && i < mount->sites->len; i++)
    {
      Site *site = g_ptr_array_index (mount->sites, i);

      if (strcmp (site->name, name) == 0)
        return site;
    }
  return NULL;
}

static AkcJsonValue *
ask_site (AkcJsonValue  *context,
          gpointer       user_data,
          GError       **error)
{
  Site *site = mount_site (user_data, context);

  if (site == NULL)
    {
      g_set_error_literal (error, AKC_SERVER_ERROR, AKC_SERVER_ERROR_INTERNAL, "The token has no site.");
      return NULL;
    }
  return akc_json_value_ref (site->site);
}

static char *
ask_subject (AkcJsonValue *context,
             gpointer      user_data)
{
  return g_strdup (akc_json_value_get_string (akc_json_value_get_member (context, "subject"), NULL));
}

/* A fixed window per subject, or a refusal for every request. */
static gboolean
ask_rate_limit (AkcJsonValue *context,
                AkcJsonValue *site_value,
                gint64       *retry_after,
                gpointer      user_data)
{
  Site *site = mount_site (user_data, context);
  const char *subject = akc_json_value_get_string (akc_json_value_get_member (context, "subject"), NULL);
  gint64 now = g_get_monotonic_time ();
  Window *window;

  if (site == NULL)
    return TRUE;
  *retry_after = site->retry_after;
  if (site->refuse)
    return FALSE;
  if (site->window_requests <= 0)
    return TRUE;
  window = g_hash_table_lookup (site->windows, subject);
  if (window == NULL)
    {
      window = g_new0 (Window, 1);
      g_hash_table_insert (site->windows, g_strdup (subject), window);
    }
  if (window->count == 0 || now - window->start >= site->window_seconds * G_USEC_PER_SEC)
    {
      window->start = now;
      window->count = 0;
    }
  if (window->count >= site->window_requests)
    {
      *retry_after = (window->start + site->window_seconds * G_USEC_PER_SEC - now + G_USEC_PER_SEC - 1) /
                     G_USEC_PER_SEC;
      return FALSE;
    }
  window->count++;
  return TRUE;
}

static void write_next_metric (AkcServer *self);

static void
on_metric_written (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(AkcServer) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (source), result, NULL, &error))
    g_warning ("A metric record cannot be written: %s", error->message);
  self->writing = FALSE;
  write_next_metric (self);
}

static void
write_next_metric (AkcServer *self)
{
  g_autoptr(GBytes) line = NULL;

  if (self->writing || self->metrics == NULL || (line = g_queue_pop_head (&self->metric_lines)) == NULL)
    return;
  self->writing = TRUE;
  g_output_stream_write_all_async (self->metrics, g_bytes_get_data (line, NULL), g_bytes_get_size (line),
                                   G_PRIORITY_DEFAULT, NULL, on_metric_written, g_object_ref (self));
  /* the data must live until the write is done */
  g_object_set_data_full (G_OBJECT (self->metrics), "akc-line", g_steal_pointer (&line), (GDestroyNotify) g_bytes_unref);
}

typedef struct
{
  guint64 count;
  double  sum;
} Aggregate;

static void
ask_metric (AkcJsonValue *metric,
            gpointer      user_data)
{
  Mount *mount = user_data;
  AkcServer *self = mount->server;
  const char *name = akc_json_value_get_string (akc_json_value_get_member (metric, "name"), NULL);
  const char *site = akc_json_value_get_string (akc_json_value_get_member (metric, "siteId"), NULL);
  const char *outcome = akc_json_value_get_string (akc_json_value_get_member (metric, "outcome"), NULL);
  g_autofree char *key = g_strdup_printf ("%s\n%s\n%s", name, site, outcome);
  Aggregate *aggregate = g_hash_table_lookup (self->aggregates, key);
  gsize length = 0;
  char *text;

  if (aggregate == NULL)
    {
      aggregate = g_new0 (Aggregate, 1);
      g_hash_table_insert (self->aggregates, g_steal_pointer (&key), aggregate);
    }
  aggregate->count++;
  aggregate->sum += akc_json_value_get_number (akc_json_value_get_member (metric, "value"));

  if (self->metrics == NULL)
    return;
  text = akc_json_value_to_canonical (metric, &length);
  text = g_realloc (text, length + 2);
  text[length] = '\n';
  text[length + 1] = '\0';
  g_queue_push_tail (&self->metric_lines, g_bytes_new_take (text, length + 1));
  write_next_metric (self);
}

static AkcDefinition *
resolve_definition (AkcJsonValue  *context,
                    const char    *session_id,
                    gpointer       user_data,
                    GError       **error)
{
  Mount *mount = user_data;

  for (guint i = 0; i < mount->rules->len; i++)
    {
      Rule *rule = g_ptr_array_index (mount->rules, i);

      if (g_str_has_prefix (session_id, rule->prefix))
        return g_object_ref (rule->definition);
    }
  g_set_error_literal (error, AKC_SERVER_ERROR, AKC_SERVER_ERROR_INTERNAL, "No definition answers the session.");
  return NULL;
}

/* A turn of a reference application's session runs under the
 * application's capability policy, with the trusted context its own code
 * builds (src/demos) for that session and the authenticated subject as
 * the customer. */
static gboolean
setup_chat (AkcChat        *chat,
            AkcDefinition  *definition,
            AkcJsonValue   *context,
            const char     *session_id,
            gpointer        user_data,
            GError        **error)
{
  Mount *mount = user_data;
  AkcServer *self = mount->server;
  AkcJsonValue *member = akc_json_value_get_member (context, "subject");
  /* no subject on a mount without authentication */
  const char *subject = member != NULL ? akc_json_value_get_string (member, NULL) : NULL;

  for (guint i = 0; i < self->demos->len; i++)
    {
      AkcDemo *demo = g_ptr_array_index (self->demos, i);
      g_autoptr(AkcCapabilityPolicy) policy = NULL;
      g_autoptr(GError) local = NULL;

      if (akc_session_get_definition (akc_demo_get_session (demo)) != definition)
        continue;
      policy = akc_demo_new_policy (demo, session_id, subject, &local);
      if (policy == NULL && local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (policy != NULL)
        akc_capability_policy_install (policy, chat);   /* the chat keeps it */
      return TRUE;
    }
  return TRUE;
}

static gboolean
is_sha256 (const char *text)
{
  if (strlen (text) != 64)
    return FALSE;
  for (const char *p = text; *p; p++)
    if (!g_ascii_isxdigit (*p) || g_ascii_isupper (*p))
      return FALSE;
  return TRUE;
}

static gboolean
parse_auth (Mount         *mount,
            AkcJsonValue  *auth,
            const char    *where,
            GError       **error)
{
  static const char * const allowed[] = { "kind", "tokens", NULL };
  static const char * const required[] = { "kind", NULL };
  static const char * const token_allowed[] = { "sha256", "subject", "site", NULL };
  static const char * const token_required[] = { "sha256", "subject", NULL };
  g_autofree char *in = g_strdup_printf (_("the authentication of %s"), where);
  AkcJsonValue *tokens;
  const char *kind;

  if (!akc_server_check_object (auth, in, allowed, required, error) ||
      (kind = akc_server_get_string (auth, "kind", in, FALSE, error)) == NULL ||
      !akc_server_get_array (auth, "tokens", in, &tokens, error))
    return FALSE;
  if (strcmp (kind, "none") == 0)
    {
      if (tokens != NULL)
        return config_error (error, _("%s is “none”: it has no “tokens”."), in);
      return TRUE;
    }
  if (strcmp (kind, "bearer") != 0)
    return config_error (error, _("“kind” of %s must be “bearer” or “none”."), in);
  if (tokens == NULL || akc_json_value_get_length (tokens) == 0)
    return config_error (error, _("%s needs at least one token."), in);

  mount->authenticate = TRUE;
  for (gsize i = 0; i < akc_json_value_get_length (tokens); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (tokens, i);
      g_autofree char *token_where = g_strdup_printf (_("token %u of %s"), (guint) i + 1, in);
      const char *sha256, *subject;
      Token *token;

      if (!akc_server_check_object (item, token_where, token_allowed, token_required, error) ||
          (sha256 = akc_server_get_string (item, "sha256", token_where, FALSE, error)) == NULL ||
          (subject = akc_server_get_string (item, "subject", token_where, FALSE, error)) == NULL)
        return FALSE;
      if (!is_sha256 (sha256))
        return config_error (error, _("“sha256” of %s must be 64 lowercase hexadecimal digits (the token's "
                                      "SHA-256; the token itself is never written in the configuration)."),
                             token_where);
      token = g_new0 (Token, 1);
      token->sha256 = g_strdup (sha256);
      token->subject = g_strdup (subject);
      token->site = g_strdup (akc_server_get_string (item, "site", token_where, TRUE, NULL));
      g_ptr_array_add (mount->tokens, token);
      if ((token->site != NULL) != mount->is_ask)
        return config_error (error, mount->is_ask ? _("%s of an Ask mount needs its “site”.")
                                                  : _("%s of a chat mount has no “site”."), token_where);
    }
  return TRUE;
}

static gboolean
parse_numbers (AkcJsonValue        *value,
               const char          *where,
               const char * const  *numbers,
               double             **fields,
               GError             **error)
{
  for (guint i = 0; numbers[i] != NULL; i++)
    {
      AkcJsonValue *number = akc_json_value_get_member (value, numbers[i]);

      if (number == NULL)
        continue;
      if (akc_json_value_get_kind (number) != AKC_JSON_KIND_NUMBER)
        return config_error (error, _("“%s” of %s must be a number."), numbers[i], where);
      *fields[i] = akc_json_value_get_number (number);
    }
  return TRUE;
}

static gboolean
parse_chat_mount (AkcServer     *self,
                  Mount         *mount,
                  AkcJsonValue  *value,
                  const char    *where,
                  GError       **error)
{
  static const char * const allowed[] = { "path", "handler", "auth", "sessions", "timeoutMs", "cleanupTimeoutMs",
                                          "maxBodyBytes", NULL };
  static const char * const required[] = { "path", "handler", "auth", "sessions", NULL };
  static const char * const rule_allowed[] = { "prefix", "definition", NULL };
  static const char * const numbers[] = { "timeoutMs", "cleanupTimeoutMs", "maxBodyBytes", NULL };
  AkcChatHandlerOptions options;
  double *fields[] = { &options.timeout_ms, &options.cleanup_timeout_ms, &options.max_body_bytes };
  AkcJsonValue *sessions;
  g_autoptr(GError) local = NULL;

  if (!akc_server_check_object (value, where, allowed, required, error) ||
      !akc_server_get_array (value, "sessions", where, &sessions, error) ||
      !parse_auth (mount, akc_json_value_get_member (value, "auth"), where, error))
    return FALSE;

  for (gsize i = 0; i < akc_json_value_get_length (sessions); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (sessions, i);
      g_autofree char *in = g_strdup_printf (_("session rule %u of %s"), (guint) i + 1, where);
      AkcDefinition *definition;
      const char *prefix, *name;
      Rule *rule;

      if (!akc_server_check_object (item, in, rule_allowed, rule_allowed, error) ||
          (prefix = akc_server_get_string (item, "prefix", in, FALSE, error)) == NULL ||
          (name = akc_server_get_string (item, "definition", in, FALSE, error)) == NULL)
        return FALSE;
      definition = g_hash_table_lookup (self->definitions, name);
      if (definition == NULL)
        return config_error (error, _("%s names the unknown definition “%s”."), in, name);
      rule = g_new0 (Rule, 1);
      rule->prefix = g_strdup (prefix);
      rule->definition = g_object_ref (definition);
      g_ptr_array_add (mount->rules, rule);
    }
  if (mount->rules->len == 0)
    return config_error (error, _("%s has no session rule."), where);

  akc_chat_handler_options_init (&options);
  if (!parse_numbers (value, where, numbers, fields, error))
    return FALSE;
  mount->chat = akc_chat_handler_new (&options, self->storage, resolve_definition, mount, &local);
  if (mount->chat == NULL)
    return config_error (error, _("The options of %s are invalid: %s"), where, local->message);
  if (mount->authenticate)
    akc_chat_handler_set_auth (mount->chat, bearer_auth, mount);
  akc_chat_handler_set_chat_setup (mount->chat, setup_chat, mount);
  return TRUE;
}

/* {"kind": "script", "file": F}: a retriever or a generator; {"kind": "fts", …}
 * a retriever; {"kind": "provider", …} a generator. */
static gboolean
parse_component (AkcServer     *self,
                 AkcJsonValue  *value,
                 const char    *where,
                 gboolean       retriever,
                 GObject      **out,
                 GError       **error)
{
  static const char * const allowed[] = { "kind", "file", NULL };
  static const char * const fts_allowed[] = { "kind", "database", "corpus", NULL };
  g_autofree char *file = NULL;
  const char *kind, *name;

  *out = NULL;
  if (value == NULL)
    return TRUE;
  if (retriever && g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (value, "kind"), NULL), "fts") == 0)
    {
      const char *database, *corpus;

      if (!akc_server_check_object (value, where, fts_allowed, fts_allowed, error) ||
          (database = akc_server_get_string (value, "database", where, FALSE, error)) == NULL ||
          (corpus = akc_server_get_string (value, "corpus", where, FALSE, error)) == NULL)
        return FALSE;
      file = resolve_path (self, database);
      *out = G_OBJECT (akc_fts_retriever_new (file, corpus, error));
      return *out != NULL;
    }
  if (!retriever && g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (value, "kind"), NULL),
                               "provider") == 0)
    {
      *out = G_OBJECT (parse_provider (self, value, where, error));
      return *out != NULL;
    }
  if (!akc_server_check_object (value, where, allowed, allowed, error) ||
      (kind = akc_server_get_string (value, "kind", where, FALSE, error)) == NULL ||
      (name = akc_server_get_string (value, "file", where, FALSE, error)) == NULL)
    return FALSE;
  if (strcmp (kind, "script") != 0)
    return config_error (error, retriever ? _("“kind” of %s must be “script” or “fts”.")
                                          : _("“kind” of %s must be “script” or “provider”."), where);
  file = resolve_path (self, name);
  if (retriever)
    *out = G_OBJECT (akc_ask_script_retriever_new_from_file (file, error));
  else
    *out = G_OBJECT (akc_server_script_new_from_file (file, error));
  return *out != NULL;
}

static gboolean
parse_sites (Mount         *mount,
             AkcJsonValue  *value,
             const char    *where,
             GError       **error)
{
  static const char * const allowed[] = { "name", "site", "rateLimit", NULL };
  static const char * const required[] = { "name", "site", NULL };
  static const char * const limit_allowed[] = { "kind", "retryAfterSeconds", "requests", "perSeconds", NULL };
  static const char * const limit_required[] = { "kind", NULL };
  AkcJsonValue *sites;

  if (!akc_server_get_array (value, "sites", where, &sites, error))
    return FALSE;
  for (gsize i = 0; sites != NULL && i < akc_json_value_get_length (sites); i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (sites, i);
      g_autofree char *in = g_strdup_printf (_("site %u of %s"), (guint) i + 1, where);
      AkcJsonValue *limit;
      const char *name;
      Site *site;

      if (!akc_server_check_object (item, in, allowed, required, error) ||
          (name = akc_server_get_string (item, "name", in, FALSE, error)) == NULL)
        return FALSE;
      if (akc_json_value_get_kind (akc_json_value_get_member (item, "site")) != AKC_JSON_KIND_OBJECT)
        return config_error (error, _("“site” of %s must be an object."), in);
      site = g_new0 (Site, 1);
      site->name = g_strdup (name);
      site->site = akc_json_value_ref (akc_json_value_get_member (item, "site"));
      site->retry_after = -1;
      site->windows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_ptr_array_add (mount->sites, site);

      limit = akc_json_value_get_member (item, "rateLimit");
      if (limit != NULL)
        {
          g_autofree char *limit_where = g_strdup_printf (_("the rate limit of %s"), in);
          const char *kind;

          if (!akc_server_check_object (limit, limit_where, limit_allowed, limit_required, error) ||
              (kind = akc_server_get_string (limit, "kind", limit_where, FALSE, error)) == NULL ||
              !akc_server_get_integer (limit, "retryAfterSeconds", limit_where, 0, 86400, &site->retry_after, error) ||
              !akc_server_get_integer (limit, "requests", limit_where, 1, G_MAXINT32, &site->window_requests, error) ||
              !akc_server_get_integer (limit, "perSeconds", limit_where, 1, 86400, &site->window_seconds, error))
            return FALSE;
          if (strcmp (kind, "refuse") == 0)
            site->refuse = TRUE;
          else if (strcmp (kind, "window") != 0 || site->window_requests <= 0 || site->window_seconds <= 0)
            return config_error (error, _("%s must be {“kind”: “refuse”} or {“kind”: “window”, “requests”, "
                                          "“perSeconds”}."), limit_where);
        }
    }
  for (guint i = 0; i < mount->tokens->len; i++)
    {
      Token *token = g_ptr_array_index (mount->tokens, i);
      g_autoptr(AkcJsonValue) context = NULL;
      g_autofree char *text = g_strdup_printf ("{\"site\":\"%s\"}", token->site);

      context = akc_json_value_parse (text, -1, NULL);
      if (context == NULL || mount_site (mount, context) == NULL)
        return config_error (error, _("A token of %s names the unknown site “%s”."), where, token->site);
    }
  return TRUE;
}

static gboolean
parse_ask_mount (AkcServer     *self,
                 Mount         *mount,
                 AkcJsonValue  *value,
                 const char    *where,
                 GError       **error)
{
  static const char * const allowed[] = { "path", "handler", "auth", "sites", "retrievers", "generator", "store",
                                          "maxBodyBytes", "bootstrapTimeoutMs", NULL };
  static const char * const required[] = { "path", "handler", "auth", "sites", "generator", NULL };
  static const char * const retrievers_allowed[] = { "local", "federated", NULL };
  static const char * const store_allowed[] = { "kind", "refuse", "path", NULL };
  static const char * const numbers[] = { "maxBodyBytes", "bootstrapTimeoutMs", NULL };
  AkcAskHandlerOptions options;
  double *fields[] = { &options.max_body_bytes, &options.bootstrap_timeout_ms };
  AkcJsonValue *retrievers = akc_json_value_get_member (value, "retrievers");
  AkcJsonValue *store = akc_json_value_get_member (value, "store");
  g_autoptr(GObject) local_retriever = NULL;
  g_autoptr(GObject) federated = NULL;
  g_autoptr(GObject) generator = NULL;
  g_autofree char *retrievers_where = g_strdup_printf (_("the retrievers of %s"), where);
  g_autofree char *generator_where = g_strdup_printf (_("the generator of %s"), where);
  g_autoptr(GError) local = NULL;

  mount->is_ask = TRUE;
  if (!akc_server_check_object (value, where, allowed, required, error) ||
      !parse_auth (mount, akc_json_value_get_member (value, "auth"), where, error))
    return FALSE;
  if (!mount->authenticate)
    return config_error (error, _("An Ask mount needs bearer authentication (%s)."), where);
  if (!parse_sites (mount, value, where, error))
    return FALSE;
  if (retrievers != NULL)
    {
      g_autofree char *local_where = g_strdup_printf (_("the local retriever of %s"), where);
      g_autofree char *federated_where = g_strdup_printf (_("the federated retriever of %s"), where);

      if (!akc_server_check_object (retrievers, retrievers_where, retrievers_allowed, NULL, error) ||
          !parse_component (self, akc_json_value_get_member (retrievers, "local"), local_where, TRUE,
                            &local_retriever, error) ||
          !parse_component (self, akc_json_value_get_member (retrievers, "federated"), federated_where, TRUE,
                            &federated, error))
        return FALSE;
    }
  if (!parse_component (self, akc_json_value_get_member (value, "generator"), generator_where, FALSE, &generator,
                        error))
    return FALSE;

  akc_ask_handler_options_init (&options);
  if (!parse_numbers (value, where, numbers, fields, error))
    return FALSE;
  mount->ask = akc_ask_handler_new (&options, ask_site, ask_subject, mount, &local);
  if (mount->ask == NULL)
    return config_error (error, _("The options of %s are invalid: %s"), where, local->message);
  akc_ask_handler_set_auth (mount->ask, bearer_auth, mount);
  akc_ask_handler_set_retrievers (mount->ask, AKC_ASK_RETRIEVER (local_retriever), AKC_ASK_RETRIEVER (federated));
  akc_ask_handler_set_generator (mount->ask, AKC_ADAPTER (generator));
  akc_ask_handler_set_rate_limit (mount->ask, ask_rate_limit, mount);
  akc_ask_handler_set_metrics (mount->ask, ask_metric, mount);

  if (store != NULL)
    {
      g_autofree char *store_where = g_strdup_printf (_("the store of %s"), where);
      g_autoptr(AkcAskStore) ask_store = NULL;
      AkcJsonValue *refuse;
      const char *kind;

      if (!akc_server_check_object (store, store_where, store_allowed, (const char * const []) { "kind", NULL }, error) ||
          (kind = akc_server_get_string (store, "kind", store_where, FALSE, error)) == NULL ||
          !akc_server_get_array (store, "refuse", store_where, &refuse, error))
        return FALSE;
      if (strcmp (kind, "postgresql") == 0)
        {
          if (self->conninfo == NULL || refuse != NULL || akc_json_value_get_member (store, "path") != NULL)
            return config_error (error, _("%s is in PostgreSQL only with a session store in PostgreSQL, and "
                                          "has no “path” and refuses nothing."), store_where);
          akc_ask_handler_set_store (mount->ask, AKC_ASK_STORE (self->storage));
          return TRUE;
        }
      if (strcmp (kind, "sqlite") == 0)
        {
          const char *path = akc_server_get_string (store, "path", store_where, TRUE, error);
          g_autofree char *file = NULL;

          if (path == NULL && akc_json_value_get_member (store, "path") != NULL)
            return FALSE;
          if (refuse != NULL)
            return config_error (error, _("%s is in SQLite: it refuses nothing."), store_where);
          if (path == NULL && self->sqlite_path == NULL)
            return config_error (error, _("%s needs its “path”, or a session store in SQLite to share."),
                                 store_where);
          file = path != NULL ? resolve_path (self, path) : g_strdup (self->sqlite_path);
          ask_store = akc_sqlite_ask_store_new (file, &local);
          if (ask_store == NULL)
            return config_error (error, _("%s cannot be opened: %s"), store_where, local->message);
          akc_ask_handler_set_store (mount->ask, ask_store);
          return TRUE;
        }
      if (strcmp (kind, "memory") != 0)
        return config_error (error, _("“kind” of %s must be “memory”, “sqlite” or “postgresql”."), store_where);
      if (akc_json_value_get_member (store, "path") != NULL)
        return config_error (error, _("%s is in memory: it has no “path”."), store_where);
      ask_store = akc_ask_memory_store_new ();
      for (gsize i = 0; refuse != NULL && i < akc_json_value_get_length (refuse); i++)
        {
          AkcJsonValue *item = akc_json_value_get_element (refuse, i);

          if (akc_json_value_get_kind (item) != AKC_JSON_KIND_STRING)
            return config_error (error, _("“refuse” of %s must list session ids."), store_where);
          akc_ask_memory_store_refuse (AKC_ASK_MEMORY_STORE (ask_store), akc_json_value_get_string (item, NULL));
        }
      akc_ask_handler_set_store (mount->ask, ask_store);
    }
  return TRUE;
}

static gboolean
parse_mount (AkcServer     *self,
             AkcJsonValue  *value,
             gsize          index,
             GError       **error)
{
  static const char * const any[] = { "path", "handler", "auth", "sessions", "timeoutMs", "cleanupTimeoutMs",
                                      "maxBodyBytes", "sites", "retrievers", "generator", "store",
                                      "bootstrapTimeoutMs", NULL };
  static const char * const required[] = { "path", "handler", NULL };
  g_autofree char *where = g_strdup_printf (_("mount %u"), (guint) index + 1);
  const char *path, *kind;
  Mount *mount;

  if (!akc_server_check_object (value, where, any, required, error) ||
      (path = akc_server_get_string (value, "path", where, FALSE, error)) == NULL ||
      (kind = akc_server_get_string (value, "handler", where, FALSE, error)) == NULL)
    return FALSE;
  if (path[0] != '/' || strcmp (path, "/healthz") == 0 || g_strcmp0 (path, self->prometheus) == 0)
    return config_error (error, _("“path” of %s must start with “/” and not be /healthz or the Prometheus path."),
                         where);
  for (guint i = 0; i < self->mounts->len; i++)
    if (strcmp (((Mount *) g_ptr_array_index (self->mounts, i))->path, path) == 0)
      return config_error (error, _("Two mounts have the path “%s”."), path);
  if (strcmp (kind, "chat") != 0 && strcmp (kind, "ask") != 0)
    return config_error (error, _("“handler” of %s must be “chat” or “ask”."), where);

  mount = g_new0 (Mount, 1);
  mount->server = self;
  mount->path = g_strdup (path);
  mount->tokens = g_ptr_array_new_with_free_func (token_free);
  mount->rules = g_ptr_array_new_with_free_func (rule_free);
  mount->sites = g_ptr_array_new_with_free_func (site_free);
  mount->is_ask = strcmp (kind, "ask") == 0;
  g_ptr_array_add (self->mounts, mount);

  if (mount->is_ask)
    return parse_ask_mount (self, mount, value, where, error);
  return parse_chat_mount (self, mount, value, where, error);
}

/* "metrics": {"kind": "stdout"} or {"kind": "file", "path": P}: every
 * Ask metric record (§11.3) as one NDJSON line. */
static gboolean
parse_metrics (AkcServer     *self,
               AkcJsonValue  *root,
               GError       **error)
{
  static const char * const allowed[] = { "kind", "path", NULL };
  static const char * const required[] = { "kind", NULL };
  AkcJsonValue *metrics = akc_json_value_get_member (root, "metrics");
  const char *where = _("the metrics");
  const char *kind;

  if (metrics == NULL)
    return TRUE;
  if (!akc_server_check_object (metrics, where, allowed, required, error) ||
      (kind = akc_server_get_string (metrics, "kind", where, FALSE, error)) == NULL)
    return FALSE;
  if (strcmp (kind, "stdout") == 0)
    {
      if (akc_json_value_get_member (metrics, "path") != NULL)
        return config_error (error, _("Metrics on standard output have no “path”."));
      self->metrics = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      return TRUE;
    }
  if (strcmp (kind, "file") == 0)
    {
      const char *path = akc_server_get_string (metrics, "path", where, FALSE, error);
      g_autofree char *file_path = NULL;
      g_autoptr(GFile) file = NULL;
      g_autoptr(GError) local = NULL;

      if (path == NULL)
        return FALSE;
      file_path = resolve_path (self, path);
      file = g_file_new_for_path (file_path);
      self->metrics = G_OUTPUT_STREAM (g_file_append_to (file, G_FILE_CREATE_PRIVATE, NULL, &local));
      if (self->metrics == NULL)
        return config_error (error, _("The metrics file cannot be opened: %s"), local->message);
      return TRUE;
    }
  return config_error (error, _("“kind” of the metrics must be “stdout” or “file”."));
}

static gboolean
parse_config (AkcServer     *self,
              AkcJsonValue  *root,
              GError       **error)
{
  static const char * const allowed[] = { "protocol", "version", "listen", "sessionStore", "definitions", "mounts",
                                          "metrics", "maxConnections", "idleTimeoutMs", "prometheus", "logRequests",
                                          "tls", NULL };
  static const char * const required[] = { "protocol", "version", "definitions", "mounts", NULL };
  AkcJsonValue *definitions, *mounts;
  const char *protocol;
  gint64 version = 0;
  const char *where = _("the configuration");

  if (!akc_server_check_object (root, where, allowed, required, error) ||
      (protocol = akc_server_get_string (root, "protocol", where, FALSE, error)) == NULL)
    return FALSE;
  if (strcmp (protocol, CONFIG_PROTOCOL) != 0)
    return config_error (error, _("This is not an akc-server configuration (“protocol” must be “%s”)."),
                         CONFIG_PROTOCOL);
  if (!akc_server_get_integer (root, "version", where, 0, G_MAXINT32, &version, error))
    return FALSE;
  if (version != 1)
    return config_error (error, _("The configuration has version %lld; this akc-server reads version 1."),
                         (long long) version);
  if (!akc_server_get_integer (root, "maxConnections", where, 1, 1000000, &self->max_connections, error) ||
      !akc_server_get_integer (root, "idleTimeoutMs", where, 100, 3600000, &self->idle_timeout_ms, error))
    return FALSE;
  if (!parse_listen (self, root, error) ||
      !akc_server_get_array (root, "definitions", where, &definitions, error) ||
      !akc_server_get_array (root, "mounts", where, &mounts, error))
    return FALSE;

  for (gsize i = 0; i < akc_json_value_get_length (definitions); i++)
    if (!parse_definition (self, akc_json_value_get_element (definitions, i), i, error))
      return FALSE;
  if (!parse_store (self, root, error) || !parse_metrics (self, root, error))
    return FALSE;
  if (akc_json_value_get_member (root, "tls") != NULL)
    {
      static const char * const tls_allowed[] = { "certificate", "key", NULL };
      AkcJsonValue *value = akc_json_value_get_member (root, "tls");
      const char *in = _("the TLS settings");
      const char *certificate, *key;
      g_autofree char *certificate_path = NULL;
      g_autofree char *key_path = NULL;
      g_autoptr(GError) local = NULL;

      if (!akc_server_check_object (value, in, tls_allowed, tls_allowed, error) ||
          (certificate = akc_server_get_string (value, "certificate", in, FALSE, error)) == NULL ||
          (key = akc_server_get_string (value, "key", in, FALSE, error)) == NULL)
        return FALSE;
      certificate_path = resolve_path (self, certificate);
      key_path = resolve_path (self, key);
      self->tls = g_tls_certificate_new_from_files (certificate_path, key_path, &local);
      if (self->tls == NULL)
        return config_error (error, _("The TLS certificate or key cannot be used: %s"), local->message);
    }
  if (akc_json_value_get_member (root, "logRequests") != NULL)
    {
      AkcJsonValue *value = akc_json_value_get_member (root, "logRequests");

      if (akc_json_value_get_kind (value) != AKC_JSON_KIND_BOOLEAN)
        return config_error (error, _("“logRequests” of the configuration must be true or false."));
      self->log_requests = akc_json_value_get_boolean (value);
    }
  if (akc_json_value_get_member (root, "prometheus") != NULL)
    {
      static const char * const prometheus_allowed[] = { "path", NULL };
      AkcJsonValue *value = akc_json_value_get_member (root, "prometheus");
      const char *in = _("the Prometheus endpoint");
      const char *path;

      if (!akc_server_check_object (value, in, prometheus_allowed, prometheus_allowed, error) ||
          (path = akc_server_get_string (value, "path", in, FALSE, error)) == NULL)
        return FALSE;
      if (path[0] != '/' || strcmp (path, "/healthz") == 0)
        return config_error (error, _("“path” of the Prometheus endpoint must start with “/” and not be /healthz."));
      self->prometheus = g_strdup (path);
    }
  if (akc_json_value_get_length (mounts) == 0)
    return config_error (error, _("The configuration has no mount."));
  return TRUE;
}

static gboolean
parse_mounts (AkcServer     *self,
              AkcJsonValue  *root,
              GError       **error)
{
  AkcJsonValue *mounts = akc_json_value_get_member (root, "mounts");

  for (gsize i = 0; i < akc_json_value_get_length (mounts); i++)
    if (!parse_mount (self, akc_json_value_get_element (mounts, i), i, error))
      return FALSE;
  return TRUE;
}

/* /healthz ----------------------------------------------------------- */

static void
healthz (SoupServer        *server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  AkcServer *self = user_data;
  const char *body = self->draining ? "{\"status\":\"draining\"}" : "{\"status\":\"ok\"}";
  const char *method = soup_server_message_get_method (message);

  if (strcmp (method, "GET") != 0 && strcmp (method, "HEAD") != 0)
    {
      soup_server_message_set_status (message, 405, NULL);
      return;
    }
  /* 503 while draining: a load balancer sends new turns elsewhere */
  soup_server_message_set_status (message, self->draining ? 503 : 200, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Cache-Control", "no-store");
  soup_server_message_set_response (message, "application/json; charset=utf-8", SOUP_MEMORY_STATIC,
                                    body, strlen (body));
}

/* Prometheus text format: the Ask metric records as sums and counts per
 * name, site and outcome, the chat turns of each mount, and connections.
 * Label values are site ids and outcomes: never prompts, answers,
 * tokens or subjects. */
static void
append_label (GString    *out,
              const char *value)
{
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '\\' || *p == '"')
        g_string_append_c (out, '\\');
      if (*p == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *p);
    }
}

static void
prometheus (SoupServer        *soup,
            SoupServerMessage *message,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  AkcServer *self = user_data;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GList) keys = NULL;
  guint64 refused = 0;
  guint open;

  if (strcmp (soup_server_message_get_method (message), "GET") != 0)
    {
      soup_server_message_set_status (message, 405, NULL);
      return;
    }

  keys = g_list_sort (g_hash_table_get_keys (self->aggregates), (GCompareFunc) strcmp);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_auto(GStrv) parts = g_strsplit (l->data, "\n", 3);
      Aggregate *aggregate = g_hash_table_lookup (self->aggregates, l->data);
      g_autofree char *metric = g_strdelimit (g_strconcat ("akc_ask_", parts[0], NULL), ".", '_');
      g_autoptr(GString) labels = g_string_new ("{site=\"");

      append_label (labels, parts[1]);
      g_string_append (labels, "\",outcome=\"");
      append_label (labels, parts[2]);
      g_string_append (labels, "\"}");
      g_string_append_printf (out, "%s_sum%s %.17g\n%s_count%s %" G_GUINT64_FORMAT "\n", metric, labels->str,
                              aggregate->sum, metric, labels->str, aggregate->count);
    }
  for (guint i = 0; i < self->mounts->len; i++)
    {
      Mount *mount = g_ptr_array_index (self->mounts, i);
      g_autoptr(GString) label = g_string_new ("{mount=\"");

      append_label (label, mount->path);
      g_string_append (label, "\"}");
      if (mount->chat != NULL)
        g_string_append_printf (out, "akc_chat_turns_active%s %u\nakc_chat_turns_total%s %u\n"
                                "akc_chat_lines_total%s %u\n", label->str,
                                akc_chat_handler_get_n_active (mount->chat), label->str,
                                akc_chat_handler_get_n_cleanups (mount->chat), label->str,
                                akc_chat_handler_get_n_lines (mount->chat));
      else
        g_string_append_printf (out, "akc_ask_requests_active%s %u\n", label->str,
                                akc_ask_handler_get_n_active (mount->ask));
    }
  open = akc_server_get_n_connections (self, &refused);
  g_string_append_printf (out, "akc_connections_open %u\nakc_connections_refused_total %" G_GUINT64_FORMAT "\n",
                          open, refused);

  soup_server_message_set_status (message, 200, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Cache-Control", "no-store");
  soup_server_message_set_response (message, "text/plain; version=0.0.4; charset=utf-8", SOUP_MEMORY_COPY,
                                    out->str, out->len);
}

static void
not_found (SoupServer        *server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  soup_server_message_set_status (message, 404, NULL);
}

/* The object --------------------------------------------------------- */

static void
akc_server_finalize (GObject *object)
{
  AkcServer *self = AKC_SERVER (object);

  if (self->service != NULL)
    {
      g_socket_service_stop (self->service);
      g_socket_listener_close (G_SOCKET_LISTENER (self->service));
    }
  g_clear_object (&self->service);
  g_clear_handle_id (&self->sweep_id, g_source_remove);
  g_clear_pointer (&self->uris, g_ptr_array_unref);
  g_clear_pointer (&self->connections, g_hash_table_unref);
  if (self->soup != NULL)
    soup_server_disconnect (self->soup);
  g_clear_object (&self->soup);
  g_clear_pointer (&self->mounts, g_ptr_array_unref);
  g_clear_pointer (&self->definitions, g_hash_table_unref);
  g_clear_pointer (&self->demos, g_ptr_array_unref);
  g_clear_object (&self->storage);
  g_clear_pointer (&self->listen, g_strfreev);
  g_clear_pointer (&self->folder, g_free);
  g_clear_pointer (&self->sqlite_path, g_free);
  g_clear_pointer (&self->conninfo, g_free);
  g_clear_pointer (&self->prometheus, g_free);
  g_clear_object (&self->tls);
  g_clear_pointer (&self->aggregates, g_hash_table_unref);
  g_clear_pointer (&self->seed, akc_json_value_unref);
  g_queue_clear_full (&self->metric_lines, (GDestroyNotify) g_bytes_unref);
  g_clear_object (&self->metrics);
  G_OBJECT_CLASS (akc_server_parent_class)->finalize (object);
}

static void
akc_server_class_init (AkcServerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_server_finalize;
}

static void
akc_server_init (AkcServer *self)
{
  self->definitions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->demos = g_ptr_array_new_with_free_func (g_object_unref);
  self->mounts = g_ptr_array_new_with_free_func (mount_free);
  self->uris = g_ptr_array_new_with_free_func (g_free);
  self->connections = g_hash_table_new_full (NULL, NULL, NULL, connection_free);
  self->aggregates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->max_connections = 4096;
  self->idle_timeout_ms = 15000;
}

static gboolean
finish_setup (AkcServer     *self,
              AkcJsonValue  *root,
              GError       **error)
{
  if (!parse_mounts (self, root, error))
    return FALSE;

  self->soup = soup_server_new ("server-header", "akc-server", NULL);
  soup_server_add_handler (self->soup, NULL, not_found, NULL, NULL);
  soup_server_add_handler (self->soup, "/healthz", healthz, self, NULL);
  if (self->prometheus != NULL)
    soup_server_add_handler (self->soup, self->prometheus, prometheus, self, NULL);
  for (guint i = 0; i < self->mounts->len; i++)
    {
      Mount *mount = g_ptr_array_index (self->mounts, i);

      if (mount->ask != NULL)
        akc_ask_handler_attach (mount->ask, self->soup, mount->path);
      else
        akc_chat_handler_attach (mount->chat, self->soup, mount->path);
    }
  return TRUE;
}

static void
on_storage_opened (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcServer *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  self->storage = AKC_SESSION_STORAGE (akc_sqlite_session_storage_new_finish (result, &error));
  if (self->storage == NULL || !finish_setup (self, self->seed, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
on_pg_opened (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  AkcServer *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  self->storage = AKC_SESSION_STORAGE (akc_pg_storage_new_finish (result, &error));
  if (self->storage == NULL || !finish_setup (self, self->seed, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* Reads the configuration in @config_path and builds the server, without
 * listening yet. */
void
akc_server_new_async (const char          *config_path,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(AkcServer) self = g_object_new (AKC_TYPE_SERVER, NULL);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(AkcJsonValue) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *absolute = g_canonicalize_filename (config_path, NULL);

  g_task_set_source_tag (task, akc_server_new_async);
  self->folder = g_path_get_dirname (absolute);

  root = akc_server_read_json (config_path, &error);
  if (root == NULL || !parse_config (self, root, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (self->sqlite_path != NULL)
    {
      self->seed = g_steal_pointer (&root);
      akc_sqlite_session_storage_new_async (self->sqlite_path, cancellable, on_storage_opened,
                                            g_steal_pointer (&task));
      return;
    }
  if (self->conninfo != NULL)
    {
      self->seed = g_steal_pointer (&root);
      akc_pg_storage_new_async (self->conninfo, cancellable, on_pg_opened, g_steal_pointer (&task));
      return;
    }
  if (!finish_setup (self, root, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

AkcServer *
akc_server_new_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_autoptr(AkcServer) self = g_object_ref (g_task_get_source_object (G_TASK (result)));

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  return g_steal_pointer (&self);
}

/* Connections ---------------------------------------------------------- */

/* One accepted connection: it is closed when it has been idle (no request
 * whose headers and body arrived) for idleTimeoutMs, so a client that
 * never finishes its headers (slowloris) holds nothing for long. */
typedef struct
{
  AkcServer         *server;
  GSocketConnection *connection;
  guint              idle_id;
} Connection;

static void
connection_free (gpointer data)
{
  Connection *connection = data;

  g_clear_handle_id (&connection->idle_id, g_source_remove);
  g_object_unref (connection->connection);
  g_free (connection);
}

/* libsoup closes a connection without a signal: closed ones are swept
 * every half second, so the limit counts open connections. */
static gboolean
sweep_connections (gpointer user_data)
{
  AkcServer *self = user_data;
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->connections);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Connection *connection = value;

      if (g_socket_is_closed (key) || g_io_stream_is_closed (G_IO_STREAM (connection->connection)))
        g_hash_table_iter_remove (&iter);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_idle_timeout (gpointer user_data)
{
  Connection *connection = user_data;

  connection->idle_id = 0;
  g_debug ("akc-server: an idle connection is closed");
  /* the socket, not the stream: libsoup notices and ends its side */
  g_socket_shutdown (g_socket_connection_get_socket (connection->connection), TRUE, TRUE, NULL);
  return G_SOURCE_REMOVE;
}

static void
connection_arm (Connection *connection)
{
  g_clear_handle_id (&connection->idle_id, g_source_remove);
  connection->idle_id = g_timeout_add (connection->server->idle_timeout_ms, on_idle_timeout, connection);
}

static Connection *
connection_of (AkcServer         *self,
               SoupServerMessage *message)
{
  GSocket *socket = soup_server_message_get_socket (message);

  return socket != NULL ? g_hash_table_lookup (self->connections, socket) : NULL;
}

static void
on_request_read (SoupServer        *soup,
                 SoupServerMessage *message,
                 gpointer           user_data)
{
  Connection *connection = connection_of (user_data, message);

  if (connection != NULL)
    g_clear_handle_id (&connection->idle_id, g_source_remove);
}

/* One structured record per request: method, path (without its query),
 * status and request id; never a header, a body, a token or a subject. */
static void
log_request (SoupServerMessage *message)
{
  GUri *uri = soup_server_message_get_uri (message);
  const char *request_id = soup_message_headers_get_one (soup_server_message_get_response_headers (message),
                                                         "X-Request-Id");
  g_autofree char *status = g_strdup_printf ("%u", soup_server_message_get_status (message));
  const GLogField fields[] = {
    { "MESSAGE", "akc-server: request", -1 },
    { "PRIORITY", "6", -1 },
    { "GLIB_DOMAIN", G_LOG_DOMAIN, -1 },
    { "AKC_METHOD", soup_server_message_get_method (message), -1 },
    { "AKC_PATH", uri != NULL ? g_uri_get_path (uri) : "", -1 },
    { "AKC_STATUS", status, -1 },
    { "AKC_REQUEST_ID", request_id != NULL ? request_id : "", -1 },
  };

  g_log_structured_array (G_LOG_LEVEL_INFO, fields, G_N_ELEMENTS (fields));
}

/* libsoup keeps nothing of a request body (the handlers keep what they
 * read themselves): a body refused or sent to no handler is read to its
 * end and dropped, within the idle timeout. */
static void
on_request_started (SoupServer        *soup,
                    SoupServerMessage *message,
                    gpointer           user_data)
{
  soup_message_body_set_accumulate (soup_server_message_get_request_body (message), FALSE);
}

static void
on_request_finished (SoupServer        *soup,
                     SoupServerMessage *message,
                     gpointer           user_data)
{
  Connection *connection = connection_of (user_data, message);

  if (AKC_SERVER (user_data)->log_requests)
    log_request (message);

  if (connection != NULL)
    connection_arm (connection);
}

typedef struct
{
  AkcServer      *server;
  GSocket        *socket;
  GSocketAddress *local;
  GSocketAddress *remote;
} Handshake;

static void
on_handshake (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Handshake *handshake = user_data;
  g_autoptr(GError) error = NULL;

  Connection *connection = g_hash_table_lookup (handshake->server->connections, handshake->socket);

  /* libsoup does not tell which TLS connection a request is on: the idle
   * timeout bounds the handshake only */
  if (connection != NULL)
    g_clear_handle_id (&connection->idle_id, g_source_remove);
  if (!g_tls_connection_handshake_finish (G_TLS_CONNECTION (source), result, &error) ||
      !soup_server_accept_iostream (handshake->server->soup, G_IO_STREAM (source), handshake->local,
                                    handshake->remote, &error))
    {
      g_debug ("akc-server: a TLS connection failed: %s", error->message);
      g_io_stream_close (G_IO_STREAM (source), NULL, NULL);
    }
  g_object_unref (handshake->server);
  g_object_unref (handshake->socket);
  g_clear_object (&handshake->local);
  g_clear_object (&handshake->remote);
  g_free (handshake);
}

static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *socket_connection,
             GObject           *source,
             gpointer           user_data)
{
  AkcServer *self = user_data;
  g_autoptr(GSocketAddress) local = g_socket_connection_get_local_address (socket_connection, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_connection_get_remote_address (socket_connection, NULL);
  g_autoptr(GError) error = NULL;
  Connection *connection;

  if ((gint64) g_hash_table_size (self->connections) >= self->max_connections)
    {
      /* over the connection limit: refused at once */
      self->n_refused++;
      g_io_stream_close (G_IO_STREAM (socket_connection), NULL, NULL);
      return TRUE;
    }

  connection = g_new0 (Connection, 1);
  connection->server = self;
  connection->connection = g_object_ref (socket_connection);
  g_hash_table_insert (self->connections, g_socket_connection_get_socket (socket_connection), connection);
  connection_arm (connection);

  if (self->tls != NULL)
    {
      /* HTTPS: the handshake first (the idle timeout bounds it too) */
      g_autoptr(GIOStream) tls = g_tls_server_connection_new (G_IO_STREAM (socket_connection), self->tls, &error);
      Handshake *handshake;

      if (tls == NULL)
        {
          g_warning ("akc-server: TLS is not available: %s", error->message);
          g_io_stream_close (G_IO_STREAM (socket_connection), NULL, NULL);
          return TRUE;
        }
      handshake = g_new0 (Handshake, 1);
      handshake->server = g_object_ref (self);
      handshake->socket = g_object_ref (g_socket_connection_get_socket (socket_connection));
      handshake->local = g_steal_pointer (&local);
      handshake->remote = g_steal_pointer (&remote);
      g_tls_connection_handshake_async (G_TLS_CONNECTION (tls), G_PRIORITY_DEFAULT, NULL, on_handshake, handshake);
      return TRUE;
    }

  if (!soup_server_accept_iostream (self->soup, G_IO_STREAM (socket_connection), local, remote, &error))
    {
      g_warning ("akc-server: a connection cannot be served: %s", error->message);
      g_io_stream_close (G_IO_STREAM (socket_connection), NULL, NULL);
    }
  return TRUE;
}

/* Listens on @address (HOST:PORT), or on the configuration's addresses
 * when it is NULL. */
gboolean
akc_server_listen (AkcServer   *self,
                   const char  *address,
                   GError     **error)
{
  g_return_val_if_fail (AKC_IS_SERVER (self), FALSE);

  if (self->service == NULL)
    {
      self->service = g_socket_service_new ();
      g_signal_connect (self->service, "incoming", G_CALLBACK (on_incoming), self);
      g_signal_connect (self->soup, "request-started", G_CALLBACK (on_request_started), self);
      g_signal_connect (self->soup, "request-read", G_CALLBACK (on_request_read), self);
      g_signal_connect (self->soup, "request-finished", G_CALLBACK (on_request_finished), self);
      g_signal_connect (self->soup, "request-aborted", G_CALLBACK (on_request_finished), self);
      self->sweep_id = g_timeout_add (500, sweep_connections, self);
    }

  for (guint i = 0; address != NULL ? i == 0 : self->listen[i] != NULL; i++)
    {
      g_autoptr(GSocketAddress) socket_address = parse_address (address != NULL ? address : self->listen[i], error);
      g_autoptr(GSocket) socket = NULL;
      g_autoptr(GSocketAddress) bound = NULL;
      g_autofree char *host = NULL;
      GInetAddress *inet;

      if (socket_address == NULL)
        return FALSE;
      /* our own socket, for a backlog that takes a burst of clients (the
       * default of 10 drops their connections for a second) */
      socket = g_socket_new (g_socket_address_get_family (socket_address), G_SOCKET_TYPE_STREAM,
                             G_SOCKET_PROTOCOL_TCP, error);
      if (socket == NULL)
        return FALSE;
      g_socket_set_listen_backlog (socket, LISTEN_BACKLOG);
      if (!g_socket_bind (socket, socket_address, TRUE, error) || !g_socket_listen (socket, error) ||
          !g_socket_listener_add_socket (G_SOCKET_LISTENER (self->service), socket, NULL, error))
        return FALSE;
      bound = g_socket_get_local_address (socket, error);
      if (bound == NULL)
        return FALSE;
      inet = g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (bound));
      host = g_inet_address_to_string (inet);
      g_ptr_array_add (self->uris, g_strdup_printf (g_inet_address_get_family (inet) == G_SOCKET_FAMILY_IPV6
                                                    ? "%s://[%s]:%u/" : "%s://%s:%u/",
                                                    self->tls != NULL ? "https" : "http", host,
                                                    g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound))));
    }
  g_socket_service_start (self->service);
  return TRUE;
}

/* The URIs it listens on, `http://HOST:PORT/`. */
GPtrArray *
akc_server_get_uris (AkcServer *self)
{
  g_return_val_if_fail (AKC_IS_SERVER (self), NULL);

  return self->uris;
}

/* Open connections, and connections refused over the limit. */
guint
akc_server_get_n_connections (AkcServer *self,
                              guint64   *n_refused)
{
  g_return_val_if_fail (AKC_IS_SERVER (self), 0);

  if (n_refused != NULL)
    *n_refused = self->n_refused;
  return g_hash_table_size (self->connections);
}

SoupServer *
akc_server_get_soup (AkcServer *self)
{
  g_return_val_if_fail (AKC_IS_SERVER (self), NULL);

  return self->soup;
}

/* Takes no new turn and ends the running ones (SIGTERM). */
void
akc_server_drain (AkcServer *self)
{
  g_return_if_fail (AKC_IS_SERVER (self));

  self->draining = TRUE;
  for (guint i = 0; i < self->mounts->len; i++)
    {
      Mount *mount = g_ptr_array_index (self->mounts, i);

      if (mount->ask != NULL)
        akc_ask_handler_drain (mount->ask);
      else
        akc_chat_handler_drain (mount->chat);
    }
}

/* Writes the metric records still queued, before the process exits. */
void
akc_server_flush_metrics (AkcServer *self)
{
  GBytes *line;

  g_return_if_fail (AKC_IS_SERVER (self));

  while (self->writing)
    g_main_context_iteration (NULL, TRUE);
  while ((line = g_queue_pop_head (&self->metric_lines)) != NULL)
    {
      g_output_stream_write_all (self->metrics, g_bytes_get_data (line, NULL), g_bytes_get_size (line), NULL, NULL,
                                 NULL);
      g_bytes_unref (line);
    }
  if (self->metrics != NULL)
    g_output_stream_flush (self->metrics, NULL, NULL);
}

/* The requests being answered by every handler. */
guint
akc_server_get_n_active (AkcServer *self)
{
  guint n = 0;

  g_return_val_if_fail (AKC_IS_SERVER (self), 0);

  for (guint i = 0; i < self->mounts->len; i++)
    {
      Mount *mount = g_ptr_array_index (self->mounts, i);

      n += mount->ask != NULL ? akc_ask_handler_get_n_active (mount->ask) : akc_chat_handler_get_n_active (mount->chat);
    }
  return n;
}

/* akc-cmd-chat.c: `akc chat` and `akc models`, a model provider from the
 * terminal
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "akc.h"
#include "akc-cli.h"
#include "akc-cli-output.h"

#define EXIT_INTERRUPTED 130

typedef struct
{
  GMainLoop *loop;
  AkcStream *stream;
  gboolean   json;
  gboolean   at_line_start;
  gboolean   answered;
  gboolean   failed;
  gboolean   interrupted;
} Chat;

static void
print_chat_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc chat --endpoint URL --api openai|ollama|anthropic --model M [--system TEXT] [--attach FILE]… [--json] PROMPT…"));
  fprintf (out, "\n%s\n", _("Sends PROMPT to the model M of the provider at URL (its base address, such as http://127.0.0.1:11434 for Ollama or http://127.0.0.1:8080/v1 for llama.cpp) and streams the reply. With --json, prints each chunk as one JSON line."));
  fprintf (out, "\n%s\n", _("--attach sends a PNG, JPEG or WebP image, or a UTF-8 text file of up to 1 MiB, with the prompt; repeat it for more."));
  fprintf (out, "\n%s\n", _("The API key comes from the keyring (store it with “akc credentials set --endpoint URL --kind api-key”); it is never read from the command line or the environment. A model on this machine or the local network usually needs none."));
  fprintf (out, "\n%s\n", _("Exit status: 0 answered, 1 failed, 2 usage error, 130 stopped."));
}

static void
print_models_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc models --endpoint URL --api openai|ollama|anthropic"));
  fprintf (out, "\n%s\n", _("Lists the models the provider at URL offers, one a line, with the API key stored for URL."));
}

/* Text from the server: through the terminal sanitiser. */
static void
print_untrusted (FILE       *out,
                 const char *text,
                 gsize       length)
{
  akc_cli_write_untrusted (out, text, length);
}

/* ------------------------------------------------------------------ */
/* The adapter                                                         */
/* ------------------------------------------------------------------ */

static gboolean
is_local_host (const char *base_url)
{
  g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GInetAddress) address = NULL;
  const char *host = uri != NULL ? g_uri_get_host (uri) : NULL;

  if (host == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && (g_inet_address_get_is_loopback (address) ||
                             g_inet_address_get_is_site_local (address) ||
                             g_inet_address_get_is_link_local (address));
}

/* Parses the options shared by chat and models and makes the adapter,
 * with the key from the keyring. Returns NULL after printing why. */
static AkcProviderAdapter *
make_adapter (const char *command,
              const char *endpoint,
              const char *api,
              const char *model,
              int         timeout_ms)
{
  g_autoptr(AkcProviderAdapter) adapter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  AkcProviderKind kind;

  if (!akc_provider_adapter_kind_from_string (api, &kind))
    {
      /* Translators: the first %s is the command, the second what was given */
      fprintf (stderr, _("akc %s: --api must be openai, ollama or anthropic, not “%s”\n"), command, api);
      return NULL;
    }

  adapter = akc_provider_adapter_new (kind, endpoint, model, &error);
  if (adapter == NULL)
    {
      fprintf (stderr, "akc %s: %s\n", command, error->message);
      return NULL;
    }
  akc_provider_adapter_set_connect_timeout (adapter, (guint) timeout_ms);

  key = akc_cli_lookup_secret (endpoint, AKC_CREDENTIAL_KIND_API_KEY, &error);
  if (key != NULL)
    {
      akc_provider_adapter_set_api_key (adapter, key);
      explicit_bzero (key, strlen (key));
    }
  else if (error != NULL && !is_local_host (endpoint))
    /* Translators: the first %s is the command, the second why the keyring could not be read */
    fprintf (stderr, _("akc %s: no API key from the keyring (%s); trying without one.\n"), command, error->message);
  else if (error == NULL && !is_local_host (endpoint))
    fprintf (stderr, _("akc %s: no API key is stored for this address; trying without one. Store one with “akc credentials set --endpoint URL --kind api-key”.\n"),
             command);

  return g_steal_pointer (&adapter);
}

static gboolean
parse (const char      *command,
       GOptionEntry    *entries,
       int             *argc,
       char          ***argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "akc %s: %s\n", command, error->message);
      return FALSE;
    }
  return TRUE;
}

/* Lets the adapter's transfers wind down before the process leaves. */
static void
drop_adapter (AkcProviderAdapter **adapter)
{
  GWeakRef weak;

  g_weak_ref_init (&weak, *adapter);
  g_clear_object (adapter);
  while (TRUE)
    {
      GObject *alive = g_weak_ref_get (&weak);

      if (alive == NULL)
        break;
      g_object_unref (alive);
      g_main_context_iteration (NULL, TRUE);
    }
  g_weak_ref_clear (&weak);
}

/* ------------------------------------------------------------------ */
/* akc chat                                                            */
/* ------------------------------------------------------------------ */

static void
print_json_chunk (AkcChunk *chunk)
{
  const char *names[6];
  AkcJsonValue *values[6];
  gsize n = 0, length;
  g_autofree char *line = NULL;
  g_autoptr(AkcJsonValue) object = NULL;
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  const char *text = akc_chunk_get_text (chunk, &length);
  AkcUsage usage;

#define ADD(name, value) G_STMT_START { names[n] = (name); values[n++] = (value); } G_STMT_END

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      ADD ("type", akc_json_value_new_string ("text", -1));
      ADD ("content", akc_json_value_new_string (text, length));
      break;
    case AKC_CHUNK_TOOL_CALL:
      ADD ("type", akc_json_value_new_string ("tool-call", -1));
      ADD ("id", akc_json_value_new_string (akc_chunk_get_tool_call_id (chunk), -1));
      ADD ("name", akc_json_value_new_string (akc_chunk_get_tool_name (chunk), -1));
      ADD ("arguments", akc_json_value_new_string (akc_chunk_get_arguments (chunk), -1));
      break;
    case AKC_CHUNK_METADATA:
      if (!akc_chunk_get_usage (chunk, &usage))
        return;
      ADD ("type", akc_json_value_new_string ("usage", -1));
      ADD ("promptTokens", akc_json_value_new_number ((double) usage.prompt_tokens));
      ADD ("completionTokens", akc_json_value_new_number ((double) usage.completion_tokens));
      ADD ("totalTokens", akc_json_value_new_number ((double) usage.total_tokens));
      break;
    case AKC_CHUNK_DONE:
      ADD ("type", akc_json_value_new_string ("done", -1));
      if (metadata != NULL)
        ADD ("metadata", akc_json_value_ref (metadata));
      break;
    case AKC_CHUNK_ERROR:
    default:
      ADD ("type", akc_json_value_new_string ("error", -1));
      ADD ("content", akc_json_value_new_string (text, length));
      if (akc_chunk_get_error_code (chunk) != NULL)
        ADD ("code", akc_json_value_new_string (akc_chunk_get_error_code (chunk), -1));
      if (metadata != NULL)
        ADD ("metadata", akc_json_value_ref (metadata));
      break;
    }

#undef ADD

  object = akc_json_value_new_object (names, values, n);
  for (gsize i = 0; i < n; i++)
    akc_json_value_unref (values[i]);
  line = akc_json_value_to_canonical (object, NULL);
  printf ("%s\n", line);
  fflush (stdout);
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          gpointer   user_data)
{
  Chat *chat = user_data;
  AkcJsonValue *metadata;
  const char *text;
  gsize length;

  if (akc_chunk_get_kind (chunk) == AKC_CHUNK_ERROR)
    chat->failed = TRUE;
  else if (akc_chunk_get_kind (chunk) == AKC_CHUNK_DONE)
    chat->answered = TRUE;

  if (chat->json)
    {
      print_json_chunk (chunk);
      return;
    }

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &length);
      if (length > 0)
        {
          print_untrusted (stdout, text, length);
          chat->at_line_start = text[length - 1] == '\n';
          fflush (stdout);
        }
      break;

    case AKC_CHUNK_DONE:
      if (!chat->at_line_start)
        fputc ('\n', stdout);
      fflush (stdout);
      metadata = akc_chunk_get_metadata (chunk);
      if (metadata != NULL &&
          g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (metadata, "finishReason"), NULL), "length") == 0)
        fprintf (stderr, "%s\n", _("akc chat: the reply stopped at the model’s length limit."));
      else if (metadata != NULL &&
               g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (metadata, "finishReason"), NULL), "content_filter") == 0)
        fprintf (stderr, "%s\n", _("akc chat: the provider’s content filter stopped the reply."));
      break;

    case AKC_CHUNK_ERROR:
      if (!chat->at_line_start)
        fputc ('\n', stdout);
      fflush (stdout);
      text = akc_chunk_get_text (chunk, &length);
      fputs ("akc chat: ", stderr);
      print_untrusted (stderr, text, length);
      fputc ('\n', stderr);
      break;

    case AKC_CHUNK_TOOL_CALL:
      /* Translators: %s is a tool name the model asked for */
      fprintf (stderr, _("akc chat: the model asked for the tool “%s”, which akc chat does not offer.\n"),
               akc_chunk_get_tool_name (chunk));
      break;

    case AKC_CHUNK_METADATA:
    default:
      break;
    }
}

static void
on_closed (GObject    *object,
           GParamSpec *pspec,
           gpointer    user_data)
{
  Chat *chat = user_data;

  if (akc_stream_is_closed (chat->stream))
    g_main_loop_quit (chat->loop);
}

static gboolean
on_interrupt (gpointer user_data)
{
  Chat *chat = user_data;

  chat->interrupted = TRUE;
  akc_stream_cancel (chat->stream);

  return G_SOURCE_CONTINUE;
}

int
akc_cmd_chat (int    argc,
              char **argv)
{
  g_autofree char *endpoint = NULL;
  g_autofree char *api = NULL;
  g_autofree char *model = NULL;
  g_autofree char *system = NULL;
  g_autofree char *prompt = NULL;
  g_auto(GStrv) rest = NULL;
  g_auto(GStrv) files = NULL;
  gboolean json = FALSE;
  int timeout_ms = AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  GOptionEntry entries[] = {
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint, N_("The provider’s base address (http or https)"), N_("URL") },
    { "api", 0, 0, G_OPTION_ARG_STRING, &api, N_("The provider’s API: openai, ollama or anthropic"), N_("API") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("The model to ask"), N_("M") },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system, N_("A system prompt"), N_("TEXT") },
    { "attach", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, N_("An image or text file sent with the prompt"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print each chunk of the reply as one JSON line"), NULL },
    { "connect-timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms, N_("Milliseconds to wait for the provider to answer (0: no limit)"), N_("MS") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("PROMPT") },
    { NULL },
  };
  g_autoptr(AkcProviderAdapter) adapter = NULL;
  g_autoptr(GListStore) messages = NULL;
  g_autoptr(AkcMessage) question = NULL;
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(AkcStream) stream = NULL;
  Chat chat = { 0 };
  guint sigint_id, sigterm_id;

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_chat_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  if (!parse ("chat", entries, &argc, &argv))
    {
      print_chat_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }
  if (endpoint == NULL || api == NULL || model == NULL || rest == NULL || rest[0] == NULL || timeout_ms < 0)
    {
      print_chat_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  prompt = g_strjoinv (" ", rest);
  if (!g_utf8_validate (prompt, -1, NULL) || (system != NULL && !g_utf8_validate (system, -1, NULL)))
    {
      fprintf (stderr, "%s\n", _("akc chat: the prompt is not UTF-8 text"));
      return AKC_CLI_EXIT_USAGE;
    }
  if (akc_is_blank_input (prompt))
    {
      fprintf (stderr, "%s\n", _("akc chat: the prompt is empty"));
      return AKC_CLI_EXIT_USAGE;
    }

  adapter = make_adapter ("chat", endpoint, api, model, timeout_ms);
  if (adapter == NULL)
    return AKC_CLI_EXIT_USAGE;

  messages = g_list_store_new (AKC_TYPE_MESSAGE);
  question = akc_message_new ("user-1", AKC_MESSAGE_ROLE_USER, prompt, AKC_MESSAGE_STATUS_COMPLETE);
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (files[i]);
      g_autofree char *name = g_file_get_basename (file);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(AkcAttachment) attachment = NULL;

      if (i >= AKC_ATTACHMENT_MAX_PER_MESSAGE)
        {
          /* Translators: %u is a number of files */
          fprintf (stderr, _("akc chat: a message takes at most %u attachments"), (guint) AKC_ATTACHMENT_MAX_PER_MESSAGE);
          fputc ('\n', stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      bytes = g_file_load_bytes (file, NULL, NULL, &error);
      if (bytes != NULL)
        attachment = akc_attachment_new_for_bytes (name, bytes, &error);
      if (attachment == NULL)
        {
          /* Translators: %s says why, as a sentence */
          akc_cli_print_untrusted (stderr, _("akc chat: the file cannot be attached: %s"), error->message);
          fputc ('\n', stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      akc_message_add_attachment (question, attachment);
    }
  g_list_store_append (messages, question);
  request = akc_adapter_request_new (G_LIST_MODEL (messages), NULL, system, NULL);

  loop = g_main_loop_new (NULL, FALSE);
  stream = akc_stream_new ();
  chat.loop = loop;
  chat.stream = stream;
  chat.json = json;
  chat.at_line_start = TRUE;

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), &chat);
  g_signal_connect (stream, "notify::closed", G_CALLBACK (on_closed), &chat);
  sigint_id = g_unix_signal_add (SIGINT, on_interrupt, &chat);
  sigterm_id = g_unix_signal_add (SIGTERM, on_interrupt, &chat);

  akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
  if (!akc_stream_is_closed (stream))
    g_main_loop_run (loop);

  drop_adapter (&adapter);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);

  if (chat.interrupted && !chat.answered)
    {
      if (!json && !chat.at_line_start)
        fputc ('\n', stdout);
      return EXIT_INTERRUPTED;
    }
  return chat.answered && !chat.failed ? AKC_CLI_EXIT_OK : AKC_CLI_EXIT_REJECTED;
}

/* ------------------------------------------------------------------ */
/* akc models                                                          */
/* ------------------------------------------------------------------ */

static void
got_models (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

int
akc_cmd_models (int    argc,
                char **argv)
{
  g_autofree char *endpoint = NULL;
  g_autofree char *api = NULL;
  int timeout_ms = AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  GOptionEntry entries[] = {
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint, N_("The provider’s base address (http or https)"), N_("URL") },
    { "api", 0, 0, G_OPTION_ARG_STRING, &api, N_("The provider’s API: openai, ollama or anthropic"), N_("API") },
    { "connect-timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms, N_("Milliseconds to wait for the provider to answer (0: no limit)"), N_("MS") },
    { NULL },
  };
  g_autoptr(AkcProviderAdapter) adapter = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) models = NULL;

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_models_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  if (!parse ("models", entries, &argc, &argv) || endpoint == NULL || api == NULL || argc != 1 || timeout_ms < 0)
    {
      print_models_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  adapter = make_adapter ("models", endpoint, api, NULL, timeout_ms);
  if (adapter == NULL)
    return AKC_CLI_EXIT_USAGE;

  akc_provider_adapter_list_models_async (adapter, NULL, got_models, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  models = akc_provider_adapter_list_models_finish (adapter, result, &error);
  /* The result holds the adapter. */
  g_clear_object (&result);
  drop_adapter (&adapter);

  if (models == NULL)
    {
      fputs ("akc models: ", stderr);
      print_untrusted (stderr, error->message, strlen (error->message));
      fputc ('\n', stderr);
      return AKC_CLI_EXIT_REJECTED;
    }

  for (guint i = 0; models[i] != NULL; i++)
    {
      print_untrusted (stdout, models[i], strlen (models[i]));
      fputc ('\n', stdout);
    }

  return AKC_CLI_EXIT_OK;
}

/* akc-cmd-chat.c: `akc chat` and `akc models`, a model provider from the
 * terminal
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "akc.h"
#include "akc-attachment-loader-private.h"
#include "akc-cli.h"
#include "akc-cli-output.h"
#include "akc-model-tools.h"

#define EXIT_INTERRUPTED 130

typedef struct
{
  GMainLoop  *loop;
  AkcChat    *chat;
  gboolean    json;
  gboolean    yes;
  gboolean    at_line_start;
  gboolean    answered;
  gboolean    failed;
  gboolean    interrupted;
  /* The tool call asked about on the terminal, and the watch of standard
   * input that reads the answer. */
  char       *asking;
  guint       answer_id;
  guint       ask_id;
  GHashTable *settled;  /* ids of the tool calls whose outcome was printed */
} Chat;

static void
print_chat_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc chat --endpoint URL --api openai|ollama|anthropic --model M [--system TEXT] [--attach FILE]… [--yes] [--json] PROMPT…"));
  fprintf (out, "\n%s\n", _("Sends PROMPT to the model M of the provider at URL (its base address, such as http://127.0.0.1:11434 for Ollama or http://127.0.0.1:8080/v1 for llama.cpp) and streams the reply. With --json, prints each chunk as one JSON line."));
  fprintf (out, "\n%s\n", _("--attach sends a PNG, JPEG or WebP image, or a UTF-8 text file of up to 1 MiB, with the prompt; repeat it for more."));
  fprintf (out, "\n%s\n", _("The model may call two tools, as in the app: get_current_time (the date and time of this computer; it runs at once) and open_link (an http or https address, printed here for you to open, never opened by akc). open_link asks first: “Allow the assistant to show you the link …? [y/N]”, answered on the terminal. --yes approves every call without asking; when standard input is not a terminal and --yes is not given, the call is denied. Either way the model is told and its reply follows. With --json, each call is a tool-call line and its outcome a tool-result line."));
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

/* Ends the line of reply text before something else is printed. */
static void
end_text_line (Chat *chat)
{
  if (!chat->json && !chat->at_line_start)
    {
      fputc ('\n', stdout);
      chat->at_line_start = TRUE;
    }
  fflush (stdout);
}

static AkcToolCall *
find_call (Chat       *chat,
           const char *id)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat->chat));

  for (guint i = g_list_model_get_n_items (messages); id != NULL && i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      AkcToolCall *call = akc_message_find_tool_call (message, id);

      if (call != NULL)
        return call;
    }
  return NULL;
}

/* How a tool call ended, once: a tool-result line with --json, else a
 * line on standard error. */
static void
print_outcome (Chat        *chat,
               AkcToolCall *call)
{
  AkcToolCallStatus status = akc_tool_call_get_status (call);
  gboolean done = status == AKC_TOOL_CALL_STATUS_COMPLETE;
  const char *outcome = done ? akc_tool_call_get_result (call) : akc_tool_call_get_error (call);

  if ((status != AKC_TOOL_CALL_STATUS_COMPLETE && status != AKC_TOOL_CALL_STATUS_ERROR) ||
      !g_hash_table_add (chat->settled, g_strdup (akc_tool_call_get_id (call))))
    return;

  if (outcome == NULL)
    outcome = "";
  end_text_line (chat);
  if (chat->json)
    {
      const char *names[] = { "type", "id", "name", "status", "content" };
      AkcJsonValue *values[5];
      g_autoptr(AkcJsonValue) object = NULL;
      g_autofree char *line = NULL;

      values[0] = akc_json_value_new_string ("tool-result", -1);
      values[1] = akc_json_value_new_string (akc_tool_call_get_id (call), -1);
      values[2] = akc_json_value_new_string (akc_tool_call_get_name (call), -1);
      values[3] = akc_json_value_new_string (akc_tool_call_status_to_string (status), -1);
      values[4] = akc_json_value_new_string (outcome, -1);
      object = akc_json_value_new_object (names, values, G_N_ELEMENTS (values));
      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        akc_json_value_unref (values[i]);
      line = akc_json_value_to_canonical (object, NULL);
      printf ("%s\n", line);
      fflush (stdout);
    }
  else if (done)
    /* Translators: %s is a tool name */
    akc_cli_print_untrusted (stderr, _("akc chat: the assistant used the tool “%s”.\n"), akc_tool_call_get_name (call));
  else
    {
      /* Translators: the first %s is a tool name, the second why it did not run */
      g_autofree char *text = g_strdup_printf (_("akc chat: the tool “%s” did not run: %s"),
                                               akc_tool_call_get_name (call), outcome);

      akc_cli_write_untrusted (stderr, text, strlen (text));
      fputc ('\n', stderr);
    }
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          gpointer   user_data)
{
  Chat *chat = user_data;
  AkcJsonValue *metadata;
  AkcToolCall *call;
  const char *text;
  gsize length;

  if (chat->json)
    print_json_chunk (chunk);

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      text = akc_chunk_get_text (chunk, &length);
      if (!chat->json && length > 0)
        {
          print_untrusted (stdout, text, length);
          chat->at_line_start = text[length - 1] == '\n';
          fflush (stdout);
        }
      break;

    case AKC_CHUNK_DONE:
      end_text_line (chat);
      metadata = akc_chunk_get_metadata (chunk);
      if (chat->json)
        break;
      if (metadata != NULL &&
          g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (metadata, "finishReason"), NULL), "length") == 0)
        fprintf (stderr, "%s\n", _("akc chat: the reply stopped at the model’s length limit."));
      else if (metadata != NULL &&
               g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (metadata, "finishReason"), NULL), "content_filter") == 0)
        fprintf (stderr, "%s\n", _("akc chat: the provider’s content filter stopped the reply."));
      break;

    case AKC_CHUNK_ERROR:
      end_text_line (chat);
      if (chat->json)
        break;
      text = akc_chunk_get_text (chunk, &length);
      fputs ("akc chat: ", stderr);
      print_untrusted (stderr, text, length);
      fputc ('\n', stderr);
      break;

    case AKC_CHUNK_TOOL_CALL:
      /* The chat took the call before this handler (it was connected to
       * the stream first): a call that ran at once, or failed its
       * checks, has its outcome already. */
      call = find_call (chat, akc_chunk_get_tool_call_id (chunk));
      if (call != NULL)
        print_outcome (chat, call);
      break;

    case AKC_CHUNK_METADATA:
    default:
      break;
    }
}

/* ------------------------------------------------------------------ */
/* The adapter the chat talks to: the provider's, each chunk printed   */
/* ------------------------------------------------------------------ */

#define CLI_TYPE_TAP (cli_tap_get_type ())
G_DECLARE_FINAL_TYPE (CliTap, cli_tap, CLI, TAP, GObject)

struct _CliTap
{
  GObject     parent_instance;
  AkcAdapter *inner;
  Chat       *chat;
};

static void cli_tap_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CliTap, cli_tap, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, cli_tap_iface_init))

static void
cli_tap_stream (AkcAdapter        *adapter,
                AkcAdapterRequest *request,
                AkcStream         *stream)
{
  CliTap *self = CLI_TAP (adapter);

  /* After the chat's own handler: the chat has taken each chunk. */
  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), self->chat);
  akc_adapter_stream (self->inner, request, stream);
}

static void
cli_tap_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = cli_tap_stream;
}

static void
cli_tap_finalize (GObject *object)
{
  g_clear_object (&CLI_TAP (object)->inner);

  G_OBJECT_CLASS (cli_tap_parent_class)->finalize (object);
}

static void
cli_tap_class_init (CliTapClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cli_tap_finalize;
}

static void
cli_tap_init (CliTap *self)
{
}

/* ------------------------------------------------------------------ */
/* Tools                                                               */
/* ------------------------------------------------------------------ */

/* open_link in a terminal: the address is printed for the person to open
 * (there may be no browser, or it may be on another machine). */
static char *
print_link (const char  *address,
            gpointer     user_data,
            GError     **error)
{
  Chat *chat = user_data;

  end_text_line (chat);
  /* Translators: %s is a web address the assistant asked to open */
  akc_cli_print_untrusted (stderr, _("akc chat: the link: %s\n"), address);

  return g_strdup_printf ("Showed %s to the person in the terminal, for them to open.", address);
}

static void
decide (Chat     *chat,
        gboolean  approve)
{
  g_autofree char *id = g_steal_pointer (&chat->asking);
  g_autoptr(GError) error = NULL;
  AkcToolCall *call;
  gboolean decided;

  if (approve)
    decided = akc_chat_source_approve (AKC_CHAT_SOURCE (chat->chat), id, &error);
  else
    decided = akc_chat_source_deny (AKC_CHAT_SOURCE (chat->chat), id, NULL, &error);
  if (!decided)
    {
      fprintf (stderr, "akc chat: %s\n", error->message);
      chat->failed = TRUE;
      g_main_loop_quit (chat->loop);
      return;
    }

  call = find_call (chat, id);
  if (call != NULL)
    print_outcome (chat, call);
}

/* The line typed at the prompt: y or yes approves, anything else
 * (Enter, the end of the input) denies. */
static gboolean
on_answer (int          fd,
           GIOCondition condition,
           gpointer     user_data)
{
  Chat *chat = user_data;
  char buffer[256];
  gssize n;
  g_autofree char *answer = NULL;

  n = read (fd, buffer, sizeof buffer - 1);
  if (n < 0 && errno == EINTR)
    return G_SOURCE_CONTINUE;
  chat->answer_id = 0;
  answer = g_strstrip (g_strndup (buffer, n > 0 ? (gsize) n : 0));
  if (n == 0)
    fputc ('\n', stderr);
  decide (chat, g_ascii_strcasecmp (answer, "y") == 0 || g_ascii_strcasecmp (answer, "yes") == 0);

  return G_SOURCE_REMOVE;
}

/* Asks about @call on the terminal, or decides without asking: --yes
 * approves; without a terminal to ask on, it is denied. */
static void
ask (Chat        *chat,
     AkcToolCall *call)
{
  g_autofree char *arguments = akc_tool_call_get_arguments (call) != NULL
                               ? akc_json_value_to_canonical (akc_tool_call_get_arguments (call), NULL)
                               : g_strdup ("{}");
  AkcJsonValue *url = akc_tool_call_get_arguments (call) != NULL
                      ? akc_json_value_get_member (akc_tool_call_get_arguments (call), "url") : NULL;
  g_autofree char *question = NULL;

  chat->asking = g_strdup (akc_tool_call_get_id (call));
  end_text_line (chat);

  if (g_str_equal (akc_tool_call_get_name (call), "open_link") && url != NULL)
    /* Translators: %s is a web address; keep [y/N]: the answer is read as y or yes */
    question = g_strdup_printf (_("Allow the assistant to show you the link %s? [y/N] "),
                                akc_json_value_get_string (url, NULL));
  else
    /* Translators: the first %s is a tool name, the second its arguments as JSON; keep [y/N] */
    question = g_strdup_printf (_("Allow the assistant to run the tool “%s” with %s? [y/N] "),
                                akc_tool_call_get_name (call), arguments);

  if (chat->yes)
    {
      akc_cli_write_untrusted (stderr, question, strlen (question));
      fprintf (stderr, "%s\n", _("yes (--yes)"));
      decide (chat, TRUE);
      return;
    }
  if (!isatty (STDIN_FILENO))
    {
      akc_cli_write_untrusted (stderr, question, strlen (question));
      fprintf (stderr, "%s\n", _("no: standard input is not a terminal (--yes approves)"));
      decide (chat, FALSE);
      return;
    }

  akc_cli_write_untrusted (stderr, question, strlen (question));
  fflush (stderr);
  chat->answer_id = g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_answer, chat);
}

/* The reply ended: a call that waits for the person is asked about; with
 * none, the chat is over. */
static void
ask_next (Chat *chat)
{
  GListModel *messages = akc_chat_source_get_messages (AKC_CHAT_SOURCE (chat->chat));
  guint n = g_list_model_get_n_items (messages);
  g_autoptr(AkcMessage) last = n > 0 ? g_list_model_get_item (messages, n - 1) : NULL;
  GListModel *calls = last != NULL ? akc_message_get_tool_calls (last) : NULL;

  for (guint i = 0; calls != NULL && i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, i);

      if (akc_tool_call_get_status (call) == AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION)
        {
          ask (chat, call);
          return;
        }
    }

  chat->answered = TRUE;
  g_main_loop_quit (chat->loop);
}

static gboolean
ask_next_idle (gpointer user_data)
{
  Chat *chat = user_data;

  chat->ask_id = 0;
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat->chat)) == AKC_CHAT_STATUS_IDLE && chat->asking == NULL)
    ask_next (chat);

  return G_SOURCE_REMOVE;
}

static void
on_status (GObject    *object,
           GParamSpec *pspec,
           gpointer    user_data)
{
  Chat *chat = user_data;

  switch (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat->chat)))
    {
    case AKC_CHAT_STATUS_ERROR:
      chat->failed = TRUE;
      g_main_loop_quit (chat->loop);
      break;
    case AKC_CHAT_STATUS_IDLE:
      if (chat->interrupted)
        g_main_loop_quit (chat->loop);
      else if (chat->asking == NULL && chat->ask_id == 0)
        /* Once the reply's last chunk is printed. */
        chat->ask_id = g_idle_add (ask_next_idle, chat);
      break;
    case AKC_CHAT_STATUS_STREAMING:
    default:
      break;
    }
}

static gboolean
on_interrupt (gpointer user_data)
{
  Chat *chat = user_data;

  chat->interrupted = TRUE;
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat->chat)) == AKC_CHAT_STATUS_STREAMING)
    akc_chat_source_stop (AKC_CHAT_SOURCE (chat->chat));
  else
    g_main_loop_quit (chat->loop);

  return G_SOURCE_CONTINUE;
}

/* The result of an asynchronous call waited for in place. */
static void
on_file_loaded (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GAsyncResult **loaded = user_data;

  *loaded = g_object_ref (result);
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
  gboolean yes = FALSE;
  int timeout_ms = AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  GOptionEntry entries[] = {
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint, N_("The provider’s base address (http or https)"), N_("URL") },
    { "api", 0, 0, G_OPTION_ARG_STRING, &api, N_("The provider’s API: openai, ollama or anthropic"), N_("API") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &model, N_("The model to ask"), N_("M") },
    { "system", 0, 0, G_OPTION_ARG_STRING, &system, N_("A system prompt"), N_("TEXT") },
    { "attach", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, N_("An image or text file sent with the prompt"), N_("FILE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print each chunk of the reply as one JSON line"), NULL },
    { "yes", 0, 0, G_OPTION_ARG_NONE, &yes, N_("Approve every tool call the model asks for without asking"), NULL },
    { "connect-timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms, N_("Milliseconds to wait for the provider to answer (0: no limit)"), N_("MS") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("PROMPT") },
    { NULL },
  };
  g_autoptr(AkcProviderAdapter) adapter = NULL;
  g_autoptr(GPtrArray) attachments = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  CliTap *tap;
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

  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (files[i]);
      g_autoptr(GAsyncResult) loaded = NULL;
      AkcAttachment *attachment = NULL;

      if (i >= AKC_ATTACHMENT_MAX_PER_MESSAGE)
        {
          /* Translators: %u is a number of files */
          fprintf (stderr, _("akc chat: a message takes at most %u attachments"), (guint) AKC_ATTACHMENT_MAX_PER_MESSAGE);
          fputc ('\n', stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      /* Read as the app's composer reads it: an image larger than 2048
       * pixels on a side is made smaller. */
      akc_attachment_load_file_async (file, NULL, on_file_loaded, &loaded);
      while (loaded == NULL)
        g_main_context_iteration (NULL, TRUE);
      attachment = akc_attachment_load_finish (loaded, &error);
      if (attachment == NULL)
        {
          /* Translators: %s says why, as a sentence */
          akc_cli_print_untrusted (stderr, _("akc chat: the file cannot be attached: %s"), error->message);
          fputc ('\n', stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      g_ptr_array_add (attachments, attachment);
    }

  adapter = make_adapter ("chat", endpoint, api, model, timeout_ms);
  if (adapter == NULL)
    return AKC_CLI_EXIT_USAGE;

  /* With an image, ask what the model can do, as the app does: Ollama says
   * whether it reads images, and the adapter refuses them, saying so, for
   * one that does not. A provider that cannot be asked is sent them. */
  for (guint i = 0; i < attachments->len; i++)
    if (akc_attachment_get_kind (g_ptr_array_index (attachments, i)) == AKC_ATTACHMENT_KIND_IMAGE)
      {
        g_autoptr(GAsyncResult) described = NULL;

        akc_provider_adapter_describe_model_async (adapter, NULL, on_file_loaded, &described);
        while (described == NULL)
          g_main_context_iteration (NULL, TRUE);
        akc_provider_adapter_describe_model_finish (adapter, described, NULL);
        break;
      }

  loop = g_main_loop_new (NULL, FALSE);
  chat.loop = loop;
  chat.json = json;
  chat.yes = yes;
  chat.at_line_start = TRUE;
  chat.settled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* The tools of the app, behind the same confirmation: asked on the
   * terminal. */
  tools = akc_model_tools_new (AKC_MODEL_TOOLS_TERMINAL, print_link, &chat);
  akc_model_tools_offer (tools, adapter);

  tap = g_object_new (CLI_TYPE_TAP, NULL);
  tap->inner = AKC_ADAPTER (g_object_ref (adapter));
  tap->chat = &chat;
  chat.chat = g_object_new (AKC_TYPE_CHAT, "adapter", tap, "system-prompt", system, NULL);
  g_object_unref (tap);
  for (guint i = 0; i < tools->len; i++)
    akc_chat_add_tool (chat.chat, g_ptr_array_index (tools, i));

  g_signal_connect (chat.chat, "notify::status", G_CALLBACK (on_status), &chat);
  sigint_id = g_unix_signal_add (SIGINT, on_interrupt, &chat);
  sigterm_id = g_unix_signal_add (SIGTERM, on_interrupt, &chat);

  if (!akc_chat_send_with_attachments (chat.chat, prompt, (AkcAttachment **) attachments->pdata, attachments->len,
                                       &error))
    {
      fprintf (stderr, "akc chat: %s\n", error->message);
      chat.failed = TRUE;
    }
  else if (!chat.failed)
    /* (A turn the adapter refused at once, such as an image for a model
     * that reads none, failed already: nothing is left to wait for.) */
    g_main_loop_run (loop);

  g_clear_handle_id (&chat.answer_id, g_source_remove);
  g_clear_handle_id (&chat.ask_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (chat.chat, &chat);
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat.chat)) == AKC_CHAT_STATUS_STREAMING)
    akc_chat_source_stop (AKC_CHAT_SOURCE (chat.chat));
  g_clear_object (&chat.chat);
  g_clear_pointer (&tools, g_ptr_array_unref);
  drop_adapter (&adapter);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_pointer (&chat.asking, g_free);
  g_clear_pointer (&chat.settled, g_hash_table_unref);

  if (chat.interrupted && !chat.answered)
    {
      end_text_line (&chat);
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

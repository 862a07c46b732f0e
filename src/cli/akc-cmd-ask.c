/* akc-cmd-ask.c: `akc ask --endpoint URL [OPTIONS] QUESTION`
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <fcntl.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "akc.h"
#include "akc-cli.h"
#include "akc-cli-output.h"

#define EXIT_INTERRUPTED 130

typedef struct
{
  GMainLoop                  *loop;
  AkcStream                  *stream;
  gboolean                    json;
  AkcAssistantContentDecoder *decoder;
  guint                       n_printed;
  gboolean                    at_line_start;
  gboolean                    failed;
  gboolean                    interrupted;
} Ask;

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc ask --endpoint URL [--corpus C] [--persona P] [--session ID] [--json] QUESTION"));
  fprintf (out, "\n%s\n", _("Asks an Ask backend QUESTION and streams the answer: text as it arrives, components as their fallback text. With --json, prints each chunk of the answer as one JSON line, an error with its code. An answer that ends without the server's “done” was cut off: akc ask then exits with status 1."));
  fprintf (out, "\n%s\n", _("The bearer token comes from the keyring (the credential stored for the endpoint), or is asked for on the terminal. It is never read from the command line or the environment."));
}

/* ------------------------------------------------------------------ */
/* The token                                                           */
/* ------------------------------------------------------------------ */

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
  g_main_context_wakeup (NULL);
}

static char *
lookup_token (const char  *endpoint,
              GError     **error)
{
  g_autoptr(AkcCredentialStore) store = akc_credential_store_new ();
  g_autoptr(GAsyncResult) result = NULL;

  akc_credential_store_lookup_async (store, endpoint, AKC_CREDENTIAL_KIND_BEARER_TOKEN, NULL,
                                     got_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return akc_credential_store_lookup_finish (store, result, error);
}

/* Reads a line from the terminal with echo off; NULL when there is no
 * terminal. */
static char *
prompt_token (const char *endpoint)
{
  struct termios saved, quiet;
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *prompt = NULL;
  int fd;
  char c;

  fd = open ("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  if (tcgetattr (fd, &saved) != 0)
    {
      close (fd);
      return NULL;
    }

  /* Translators: %s is the Ask endpoint address */
  prompt = g_strdup_printf (_("Token for %s (empty for none): "), endpoint);
  if (write (fd, prompt, strlen (prompt)) < 0)
    {
      close (fd);
      return NULL;
    }

  quiet = saved;
  quiet.c_lflag &= ~(ECHO | ECHONL);
  quiet.c_lflag |= ICANON;
  tcsetattr (fd, TCSAFLUSH, &quiet);
  while (read (fd, &c, 1) == 1 && c != '\n' && c != '\r')
    g_string_append_c (line, c);
  tcsetattr (fd, TCSAFLUSH, &saved);
  if (write (fd, "\n", 1) < 0)
    {
      /* Nothing to do: the line was read. */
    }
  close (fd);

  {
    char *token = g_strndup (line->str, line->len);

    explicit_bzero (line->str, line->len);
    return token;
  }
}

/* ------------------------------------------------------------------ */
/* Printing                                                            */
/* ------------------------------------------------------------------ */

static void
print_json_chunk (AkcChunk *chunk)
{
  const char *names[4];
  AkcJsonValue *values[4];
  g_autoptr(AkcJsonValue) type = NULL;
  g_autoptr(AkcJsonValue) content = NULL;
  g_autoptr(AkcJsonValue) code = NULL;
  g_autoptr(AkcJsonValue) object = NULL;
  g_autofree char *line = NULL;
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  gsize n = 0, length;
  const char *text = akc_chunk_get_text (chunk, &length);

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      type = akc_json_value_new_string ("text", -1);
      break;
    case AKC_CHUNK_ERROR:
      type = akc_json_value_new_string ("error", -1);
      break;
    case AKC_CHUNK_DONE:
      type = akc_json_value_new_string ("done", -1);
      break;
    case AKC_CHUNK_METADATA:
    case AKC_CHUNK_TOOL_CALL:
    default:
      return;
    }

  names[n] = "type";
  values[n++] = type;
  if (text != NULL && akc_chunk_get_kind (chunk) != AKC_CHUNK_DONE)
    {
      content = akc_json_value_new_string (text, length);
      names[n] = "content";
      values[n++] = content;
    }
  if (akc_chunk_get_kind (chunk) == AKC_CHUNK_ERROR && akc_chunk_get_error_code (chunk) != NULL)
    {
      code = akc_json_value_new_string (akc_chunk_get_error_code (chunk), -1);
      names[n] = "code";
      values[n++] = code;
    }
  if (metadata != NULL)
    {
      names[n] = "metadata";
      values[n++] = metadata;
    }

  object = akc_json_value_new_object (names, values, n);
  line = akc_json_value_to_canonical (object, NULL);
  akc_cli_print_untrusted (stdout, "%s\n", line);
  fflush (stdout);
}

static void
print_text (Ask        *ask,
            const char *text,
            gsize       length)
{
  if (length == 0)
    return;
  akc_cli_write_untrusted (stdout, text, length);
  ask->at_line_start = text[length - 1] == '\n';
}

static void
print_new_parts (Ask *ask)
{
  guint n = akc_assistant_content_decoder_get_n_parts (ask->decoder);

  for (; ask->n_printed < n; ask->n_printed++)
    {
      AkcJsonValue *part = akc_assistant_content_decoder_get_part (ask->decoder, ask->n_printed);
      AkcJsonValue *frame = akc_json_value_get_member (part, "frame");

      if (frame == NULL)
        {
          gsize length;
          const char *text = akc_json_value_get_string (akc_json_value_get_member (part, "text"), &length);

          print_text (ask, text, length);
        }
      else
        {
          g_autofree char *fallback = akc_component_format_semantic_fallback (akc_json_value_get_member (frame, "fallback"));

          if (fallback == NULL)
            continue;
          if (!ask->at_line_start)
            print_text (ask, "\n", 1);
          print_text (ask, fallback, strlen (fallback));
          print_text (ask, "\n", 1);
        }
    }
  fflush (stdout);
}

static void
print_error (Ask      *ask,
             AkcChunk *chunk)
{
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  AkcJsonValue *error = metadata != NULL ? akc_json_value_get_member (metadata, "error") : NULL;
  AkcJsonValue *message = error != NULL ? akc_json_value_get_member (error, "message") : NULL;

  if (!ask->at_line_start)
    print_text (ask, "\n", 1);
  fflush (stdout);

  if (message != NULL)
    /* Translators: the first %s is the error, the second what the server
     * said, the third the error code (such as ASK_TIMEOUT) */
    akc_cli_print_untrusted (stderr, _("akc ask: %s The server said: %s [%s]\n"), akc_chunk_get_text (chunk, NULL),
                             akc_json_value_get_string (message, NULL), akc_chunk_get_error_code (chunk));
  else
    akc_cli_print_untrusted (stderr, "akc ask: %s [%s]\n", akc_chunk_get_text (chunk, NULL),
                             akc_chunk_get_error_code (chunk));
}

/* The done of an NDJSON answer whose server never sent `done`. */
static gboolean
is_cut_off (AkcChunk *chunk)
{
  AkcJsonValue *metadata = akc_chunk_get_metadata (chunk);
  AkcJsonValue *synthetic = metadata != NULL ? akc_json_value_get_member (metadata, "synthetic") : NULL;

  return akc_chunk_get_kind (chunk) == AKC_CHUNK_DONE && synthetic != NULL &&
         akc_json_value_get_kind (synthetic) == AKC_JSON_KIND_BOOLEAN && akc_json_value_get_boolean (synthetic);
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          gpointer   user_data)
{
  Ask *ask = user_data;

  if (akc_chunk_get_kind (chunk) == AKC_CHUNK_ERROR)
    ask->failed = TRUE;
  if (is_cut_off (chunk))
    {
      ask->failed = TRUE;
      if (!ask->at_line_start && !ask->json)
        print_text (ask, "\n", 1);
      fflush (stdout);
      fprintf (stderr, "%s\n", _("akc ask: the answer was cut off: the server ended it without “done”."));
    }

  if (ask->json)
    {
      print_json_chunk (chunk);
      return;
    }

  switch (akc_chunk_get_kind (chunk))
    {
    case AKC_CHUNK_TEXT:
      {
        gsize length;
        const char *text = akc_chunk_get_text (chunk, &length);

        if (akc_assistant_content_decoder_append (ask->decoder, text, length))
          print_new_parts (ask);
        else
          print_text (ask, text, length);
      }
      break;
    case AKC_CHUNK_DONE:
      if (!ask->at_line_start)
        print_text (ask, "\n", 1);
      fflush (stdout);
      break;
    case AKC_CHUNK_ERROR:
      print_error (ask, chunk);
      break;
    case AKC_CHUNK_METADATA:
    case AKC_CHUNK_TOOL_CALL:
    default:
      break;
    }
}

static void
on_closed (GObject    *object,
           GParamSpec *pspec,
           gpointer    user_data)
{
  Ask *ask = user_data;

  if (akc_stream_is_closed (ask->stream))
    g_main_loop_quit (ask->loop);
}

static gboolean
on_interrupt (gpointer user_data)
{
  Ask *ask = user_data;

  ask->interrupted = TRUE;
  akc_stream_cancel (ask->stream);

  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

int
akc_cmd_ask (int    argc,
             char **argv)
{
  g_autofree char *endpoint = NULL;
  g_autofree char *corpus = NULL;
  g_autofree char *persona = NULL;
  g_autofree char *session = NULL;
  g_auto(GStrv) rest = NULL;
  gboolean json = FALSE;
  int timeout_ms = AKC_ASK_ADAPTER_DEFAULT_CONNECT_TIMEOUT;
  GOptionEntry entries[] = {
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint, N_("The Ask endpoint (http or https)"), N_("URL") },
    { "corpus", 0, 0, G_OPTION_ARG_STRING, &corpus, N_("The corpus to ask"), N_("C") },
    { "persona", 0, 0, G_OPTION_ARG_STRING, &persona, N_("The assistant persona"), N_("P") },
    { "session", 0, 0, G_OPTION_ARG_STRING, &session, N_("The session id sent with the question"), N_("ID") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print each chunk of the answer as one JSON line"), NULL },
    { "connect-timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms, N_("Milliseconds to wait for the server to answer (0: no limit)"), N_("MS") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("QUESTION") },
    { NULL },
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *token = NULL;
  g_autoptr(AkcAskAdapter) adapter = NULL;
  g_autoptr(GListStore) messages = NULL;
  g_autoptr(AkcMessage) question = NULL;
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(AkcAssistantContentDecoder) decoder = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(AkcStream) stream = NULL;
  Ask ask = { 0 };
  guint sigint_id, sigterm_id;

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  context = g_option_context_new (NULL);
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "akc ask: %s\n", error->message);
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (endpoint == NULL || rest == NULL || g_strv_length (rest) != 1 || timeout_ms < 0)
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (!g_utf8_validate (rest[0], -1, NULL))
    {
      fprintf (stderr, "%s\n", _("akc ask: the question is not UTF-8 text"));
      return AKC_CLI_EXIT_USAGE;
    }

  normalized = akc_credential_store_normalize_endpoint (endpoint, &error);
  if (normalized == NULL)
    {
      fprintf (stderr, "akc ask: %s\n", error->message);
      return AKC_CLI_EXIT_USAGE;
    }

  token = lookup_token (endpoint, &error);
  if (token == NULL)
    {
      if (isatty (STDIN_FILENO))
        token = prompt_token (normalized);
      else if (error != NULL)
        /* Translators: %s says why the keyring could not be read */
        fprintf (stderr, _("akc ask: no token from the keyring (%s); asking without one.\n"), error->message);
      g_clear_error (&error);
    }

  adapter = akc_ask_adapter_new (endpoint);
  akc_ask_adapter_set_corpus (adapter, corpus);
  akc_ask_adapter_set_persona (adapter, persona);
  akc_ask_adapter_set_connect_timeout (adapter, timeout_ms);
  akc_ask_adapter_set_bearer_token (adapter, token);
  if (token != NULL)
    explicit_bzero (token, strlen (token));

  messages = g_list_store_new (AKC_TYPE_MESSAGE);
  question = akc_message_new ("user-1", AKC_MESSAGE_ROLE_USER, rest[0], AKC_MESSAGE_STATUS_COMPLETE);
  g_list_store_append (messages, question);
  request = akc_adapter_request_new (G_LIST_MODEL (messages), session, NULL, NULL);

  loop = g_main_loop_new (NULL, FALSE);
  stream = akc_stream_new ();
  decoder = akc_assistant_content_decoder_new ();
  ask.loop = loop;
  ask.stream = stream;
  ask.json = json;
  ask.decoder = decoder;
  ask.at_line_start = TRUE;

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), &ask);
  g_signal_connect (stream, "notify::closed", G_CALLBACK (on_closed), &ask);
  sigint_id = g_unix_signal_add (SIGINT, on_interrupt, &ask);
  sigterm_id = g_unix_signal_add (SIGTERM, on_interrupt, &ask);

  akc_adapter_stream (AKC_ADAPTER (adapter), request, stream);
  if (!akc_stream_is_closed (stream))
    g_main_loop_run (loop);

  /* Let the transport wind down before leaving. */
  {
    GWeakRef weak;

    g_weak_ref_init (&weak, adapter);
    g_clear_object (&adapter);
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

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);

  if (ask.interrupted)
    return EXIT_INTERRUPTED;
  return ask.failed ? AKC_CLI_EXIT_REJECTED : AKC_CLI_EXIT_OK;
}

/* akc-cmd-turn.c: `akc turn --endpoint URL --session ID [--json] INPUT`
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "akc.h"
#include "akc-cli.h"
#include "akc-cli-output.h"

#define EXIT_INTERRUPTED 130

typedef struct {
  GMainLoop     *loop;
  const char    *endpoint;
  const char    *session_id;
  const char    *input;
  gboolean       json;
  AkcTurnClient *client;
  GCancellable  *lookup;
  gboolean       submitted;
  gboolean       interrupted;
  int            status;
} Turn;

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc turn --endpoint URL --session ID [--json] [--] INPUT"));
  fprintf (out, "\n%s\n", _("Submits INPUT as one turn to the chat turn handler at URL (agentskit.chat.turn) and prints every snapshot it accepts as one JSON line, then the final status: as text, or as a JSON line with --json."));
  fprintf (out, "\n%s\n", _("The access token comes from the keyring (the bearer token stored for URL) or, when there is none and standard input is a terminal, from a prompt. It is never read from the command line or the environment."));
}

/* Reads one line from the terminal without echoing it. */
static char *
prompt_token (const char *endpoint)
{
  struct termios saved, quiet;
  char buffer[4096];
  gboolean restore;
  char *line;

  /* Echo goes off before the prompt shows, so nothing typed after it is
   * flushed or shown. */
  restore = tcgetattr (STDIN_FILENO, &saved) == 0;
  if (restore)
    {
      quiet = saved;
      quiet.c_lflag &= ~(tcflag_t) ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }
  fprintf (stderr, _("Access token for %s (leave empty for none): "), endpoint);
  fflush (stderr);

  line = fgets (buffer, sizeof buffer, stdin);
  if (restore)
    tcsetattr (STDIN_FILENO, TCSANOW, &saved);
  fputc ('\n', stderr);

  if (line == NULL)
    return NULL;
  g_strchomp (buffer);
  line = buffer[0] != '\0' ? g_strdup (buffer) : NULL;
  memset (buffer, 0, sizeof buffer);

  return line;
}

static void
on_accepted (AkcTurnClient *client,
             AkcJsonValue  *snapshot,
             Turn          *turn)
{
  g_autofree char *line = akc_json_value_to_canonical (snapshot, NULL);

  akc_cli_print_untrusted (stdout, "%s\n", line);
  fflush (stdout);
}

static const char *
final_status (Turn *turn)
{
  AkcJsonValue *snapshot = akc_turn_client_get_snapshot (turn->client);
  AkcJsonValue *payload = snapshot != NULL ? akc_json_value_get_member (snapshot, "payload") : NULL;

  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->client)) == AKC_CHAT_STATUS_ERROR)
    return "error";
  if (payload == NULL)
    return "idle";
  return akc_json_value_get_string (akc_json_value_get_member (payload, "status"), NULL);
}

static void
on_finished (AkcTurnClient *client,
             Turn          *turn)
{
  AkcDiagnostic *error = akc_chat_source_get_error (AKC_CHAT_SOURCE (client));
  const char *status = final_status (turn);

  if (turn->json)
    {
      g_autoptr(AkcJsonValue) line = NULL;
      g_autofree char *text = NULL;
      const char *names[] = { "status", "error" };
      AkcJsonValue *values[2];

      values[0] = akc_json_value_new_string (status, -1);
      values[1] = error != NULL ? akc_diagnostic_to_json (error) : akc_json_value_new_null ();
      line = akc_json_value_new_object (names, values, 2);
      akc_json_value_unref (values[0]);
      akc_json_value_unref (values[1]);
      text = akc_json_value_to_canonical (line, NULL);
      akc_cli_print_untrusted (stdout, "%s\n", text);
    }
  else if (error != NULL)
    akc_cli_print_untrusted (stdout, _("Status: %s (%s: %s)\n"), status, akc_diagnostic_get_code (error),
                             akc_diagnostic_get_message (error));
  else
    akc_cli_print_untrusted (stdout, _("Status: %s\n"), status);
  fflush (stdout);

  if (turn->interrupted)
    turn->status = EXIT_INTERRUPTED;
  else
    turn->status = error != NULL ? AKC_CLI_EXIT_REJECTED : AKC_CLI_EXIT_OK;
  g_main_loop_quit (turn->loop);
}

/* SIGINT and SIGTERM stop the turn, which closes the connection (the
 * server stops it too, §11.1); before the turn is sent, they end the
 * keyring lookup. Installed whatever the inherited disposition. */
static gboolean
on_interrupt (gpointer user_data)
{
  Turn *turn = user_data;

  turn->interrupted = TRUE;
  if (!turn->submitted)
    {
      g_cancellable_cancel (turn->lookup);
      return G_SOURCE_CONTINUE;
    }
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (turn->client)) == AKC_CHAT_STATUS_STREAMING)
    akc_chat_source_stop (AKC_CHAT_SOURCE (turn->client));

  return G_SOURCE_CONTINUE;
}

static void
submit (Turn       *turn,
        const char *token)
{
  g_autoptr(GError) error = NULL;

  turn->submitted = TRUE;
  akc_turn_client_set_token (turn->client, token);
  g_signal_connect (turn->client, "snapshot-accepted", G_CALLBACK (on_accepted), turn);
  g_signal_connect (turn->client, "turn-finished", G_CALLBACK (on_finished), turn);
  if (!akc_chat_source_send (AKC_CHAT_SOURCE (turn->client), turn->input, &error))
    {
      akc_cli_print_untrusted (stderr, "akc turn: %s\n", error->message);
      turn->status = AKC_CLI_EXIT_USAGE;
      g_main_loop_quit (turn->loop);
    }
}

static void
on_token (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Turn *turn = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;

  token = akc_credential_store_lookup_finish (AKC_CREDENTIAL_STORE (source), result, &error);
  if (turn->interrupted)
    {
      turn->status = EXIT_INTERRUPTED;
      g_main_loop_quit (turn->loop);
      return;
    }
  if (error != NULL)
    fprintf (stderr, _("akc turn: the keyring is not available (%s)\n"), error->message);

  if (token == NULL && isatty (STDIN_FILENO))
    token = prompt_token (turn->endpoint);

  submit (turn, token);
  if (token != NULL)
    memset (token, 0, strlen (token));
}

int
akc_cmd_turn (int    argc,
              char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcCredentialStore) store = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) lookup = g_cancellable_new ();
  Turn turn = { 0 };
  guint sigint_id, sigterm_id;
  int i;

  turn.status = AKC_CLI_EXIT_OK;
  turn.lookup = lookup;

  for (i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_usage (stdout);
          return AKC_CLI_EXIT_OK;
        }
      else if (strcmp (argv[i], "--json") == 0)
        turn.json = TRUE;
      else if (strcmp (argv[i], "--endpoint") == 0 && i + 1 < argc)
        turn.endpoint = argv[++i];
      else if (strcmp (argv[i], "--session") == 0 && i + 1 < argc)
        turn.session_id = argv[++i];
      else if (strcmp (argv[i], "--") == 0)
        {
          i++;
          break;
        }
      else if (argv[i][0] == '-')
        {
          print_usage (stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      else
        break;
    }

  if (turn.endpoint == NULL || turn.session_id == NULL || argc - i != 1)
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }
  turn.input = argv[i];

  turn.client = akc_turn_client_new (turn.endpoint, turn.session_id, &error);
  if (turn.client == NULL)
    {
      fprintf (stderr, "akc turn: %s\n", error->message);
      return AKC_CLI_EXIT_USAGE;
    }

  loop = g_main_loop_new (NULL, FALSE);
  turn.loop = loop;
  store = akc_credential_store_new ();
  sigint_id = g_unix_signal_add (SIGINT, on_interrupt, &turn);
  sigterm_id = g_unix_signal_add (SIGTERM, on_interrupt, &turn);
  akc_credential_store_lookup_async (store, turn.endpoint, AKC_CREDENTIAL_KIND_BEARER_TOKEN, lookup, on_token, &turn);
  g_main_loop_run (loop);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);

  g_clear_object (&turn.client);

  return turn.status;
}

/* akc.c: the command-line entry point
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "akc.h"
#include "akc-cli.h"

/* One row per subcommand; each lives in its own akc-cmd-*.c file. */
static const AkcCliCommand commands[] = {
  { "ask", N_("Ask an Ask backend a question and stream the answer"), akc_cmd_ask },
  { "chat", N_("Chat with a model provider (OpenAI-compatible, Ollama, Anthropic)"), akc_cmd_chat },
  { "completion", N_("Print a shell completion script (bash, zsh or fish)"), akc_cmd_completion },
  { "credentials", N_("Store or clear the API key or token of an endpoint in the keyring"), akc_cmd_credentials },
  { "decode", N_("Decode a wire value and print the result as JSON"), akc_cmd_decode },
  { "knowledge", N_("Hash, verify or query a local knowledge artifact"), akc_cmd_knowledge },
  { "models", N_("List the models a provider offers"), akc_cmd_models },
  { "normalize", N_("Print the knowledge key of a text"), akc_cmd_normalize },
  { "replay", N_("Play a replay fixture back, check a definition against it, or record one"), akc_cmd_replay },
  { "theme", N_("Resolve a semantic theme and print it as JSON"), akc_cmd_theme },
  { "turn", N_("Submit one turn to a chat turn handler and print its snapshots"), akc_cmd_turn },
  { "conversations", N_("List the conversations of the history"), akc_cmd_conversations },
  { "export", N_("Write a conversation of the history as Markdown or JSON"), akc_cmd_export },
  { "import", N_("Read a conversation exported as JSON into the history"), akc_cmd_import },
  { NULL, NULL, NULL },
};

const AkcCliCommand *
akc_cli_get_commands (void)
{
  return commands;
}

static void
print_help (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc COMMAND [ARGS…]"));
  fprintf (out, "\n%s\n", _("AgentsKit Chat command-line tool."));
  fprintf (out, "\n%s\n", _("Commands:"));
  for (guint i = 0; commands[i].name != NULL; i++)
    fprintf (out, "  %-12s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Options:"));
  fprintf (out, "  %-12s %s\n", "--help", _("Show this help and exit"));
  fprintf (out, "  %-12s %s\n", "--version", _("Show the version and exit"));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    {
      print_help (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return AKC_CLI_EXIT_OK;
    }

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("akc %s\n", PACKAGE_VERSION);
      return AKC_CLI_EXIT_OK;
    }

  for (guint i = 0; commands[i].name != NULL; i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  fprintf (stderr, _("akc: unknown command “%s”; see “akc --help”\n"), argv[1]);
  return AKC_CLI_EXIT_USAGE;
}

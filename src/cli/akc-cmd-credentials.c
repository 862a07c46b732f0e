/* akc-cmd-credentials.c: `akc credentials set|clear --endpoint URL
 * --kind api-key|bearer-token`
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "akc.h"
#include "akc-cli.h"

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc credentials set|clear --endpoint URL --kind api-key|bearer-token"));
  fprintf (out, "\n%s\n", _("Stores the secret of URL in the keyring, or removes it. The secret is read from the terminal with echo off, or from standard input when it is not a terminal (for example “pass show key | akc credentials set …”); never from the command line or the environment."));
  fprintf (out, "\n%s\n", _("api-key is what a model provider gets (AkcProviderAdapter, the app's Providers page); bearer-token what “akc ask” and “akc turn” send."));
}

int
akc_cmd_credentials (int    argc,
                     char **argv)
{
  g_autofree char *endpoint = NULL;
  g_autofree char *kind_name = NULL;
  GOptionEntry entries[] = {
    { "endpoint", 0, 0, G_OPTION_ARG_STRING, &endpoint, N_("The endpoint the secret belongs to"), N_("URL") },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind_name, N_("api-key or bearer-token"), N_("KIND") },
    { NULL },
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *prompt = NULL;
  char *secret = NULL;
  AkcCredentialKind kind;
  gboolean set, ok;

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
      fprintf (stderr, "akc credentials: %s\n", error->message);
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (argc != 2 || (strcmp (argv[1], "set") != 0 && strcmp (argv[1], "clear") != 0) ||
      endpoint == NULL || kind_name == NULL)
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }
  set = strcmp (argv[1], "set") == 0;

  if (strcmp (kind_name, "api-key") == 0)
    kind = AKC_CREDENTIAL_KIND_API_KEY;
  else if (strcmp (kind_name, "bearer-token") == 0)
    kind = AKC_CREDENTIAL_KIND_BEARER_TOKEN;
  else
    {
      /* Translators: %s is what was given */
      fprintf (stderr, _("akc credentials: --kind must be api-key or bearer-token, not “%s”\n"), kind_name);
      return AKC_CLI_EXIT_USAGE;
    }

  normalized = akc_credential_store_normalize_endpoint (endpoint, &error);
  if (normalized == NULL)
    {
      fprintf (stderr, "akc credentials: %s\n", error->message);
      return AKC_CLI_EXIT_USAGE;
    }

  if (set)
    {
      /* Translators: the first %s is “API key” or “token”, the second an address */
      prompt = g_strdup_printf (_("%s for %s: "),
                                kind == AKC_CREDENTIAL_KIND_API_KEY ? _("API key") : _("Token"), normalized);
      secret = akc_cli_read_secret (prompt, &error);
      if (secret == NULL)
        {
          fprintf (stderr, "akc credentials: %s\n", error->message);
          return AKC_CLI_EXIT_USAGE;
        }
    }

  ok = akc_cli_store_secret (endpoint, kind, secret, &error);
  if (secret != NULL)
    {
      explicit_bzero (secret, strlen (secret));
      g_free (secret);
    }
  if (!ok)
    {
      fprintf (stderr, "akc credentials: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  if (set)
    /* Translators: the first %s is the kind (api-key), the second an address */
    fprintf (stderr, _("Stored the %s for %s in the keyring.\n"), kind_name, normalized);
  else
    fprintf (stderr, _("Removed the %s for %s from the keyring.\n"), kind_name, normalized);

  return AKC_CLI_EXIT_OK;
}

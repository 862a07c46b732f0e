/* akc-cmd-knowledge.c: `akc knowledge hash FILE` and
 * `akc knowledge verify FILE --site ID --hash sha256:HEX`
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "akc.h"
#include "akc-cli.h"

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc knowledge hash FILE"));
  fprintf (out, "%s\n", _("       akc knowledge verify FILE --site ID --hash sha256:HEX"));
  fprintf (out, "%s\n", _("       akc knowledge resolve FILE QUERY --site ID --hash sha256:HEX [--now DATETIME]"));
  fprintf (out, "\n%s\n", _("Works with a local knowledge artifact (agentskit.chat.knowledge) in FILE, or standard input for “-”."));
  fprintf (out, "\n%s\n", _("Subcommands:"));
  fprintf (out, "  %-8s %s\n", "hash", _("Print the content hash of the artifact"));
  fprintf (out, "  %-8s %s\n", "verify", _("Verify the artifact against the site id and content hash of its site configuration, and print the result as JSON"));
  fprintf (out, "  %-8s %s\n", "resolve", _("Verify the artifact, answer QUERY from it at the current time (or DATETIME), and print the answer envelope as JSON"));
}

static int
usage_error (void)
{
  print_usage (stderr);
  return AKC_CLI_EXIT_USAGE;
}

/* Reads FILE; prints the reason and returns FALSE when it cannot be read. */
static gboolean
read_file (const char  *command,
           const char  *path,
           GBytes     **bytes)
{
  g_autoptr(GError) error = NULL;

  if (!akc_cli_read_input (path, bytes, &error))
    {
      fprintf (stderr, "akc knowledge %s: %s\n", command, error->message);
      return FALSE;
    }
  return TRUE;
}

/* akc knowledge hash FILE: the artifact may still lack its contentHash. */
static int
run_hash (int    argc,
          char **argv)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) value = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autofree char *hash = NULL;
  const char *data;
  gsize length;

  if (argc != 2 || (argv[1][0] == '-' && argv[1][1] != '\0'))
    return usage_error ();

  if (!read_file ("hash", argv[1], &bytes))
    return AKC_CLI_EXIT_USAGE;

  data = g_bytes_get_data (bytes, &length);
  value = akc_json_value_parse (data != NULL ? data : "", length, &error);
  if (value == NULL)
    {
      /* TRANSLATORS: the second %s is an English protocol diagnostic */
      fprintf (stderr, _("akc knowledge hash: %s is not a valid knowledge artifact: %s\n"),
               argv[1], error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  hash = akc_knowledge_artifact_compute_content_hash (value, &diagnostic);
  if (hash == NULL)
    {
      fprintf (stderr, _("akc knowledge hash: %s is not a valid knowledge artifact: %s\n"),
               argv[1], akc_diagnostic_get_message (diagnostic));
      return AKC_CLI_EXIT_REJECTED;
    }

  printf ("%s\n", hash);
  return AKC_CLI_EXIT_OK;
}

/* Takes the value of --NAME VALUE or --NAME=VALUE at argv[*i]. Returns
 * FALSE when argv[*i] is not that option; sets *@bad on a missing or
 * repeated value. */
static gboolean
take_option (int          argc,
             char       **argv,
             int         *i,
             const char  *name,
             const char **value,
             gboolean    *bad)
{
  const char *arg = argv[*i];
  gsize name_len = strlen (name);

  if (strncmp (arg, name, name_len) != 0)
    return FALSE;

  if (arg[name_len] == '=')
    {
      if (*value != NULL)
        *bad = TRUE;
      *value = arg + name_len + 1;
      return TRUE;
    }
  if (arg[name_len] != '\0')
    return FALSE;

  if (*i + 1 >= argc || *value != NULL)
    *bad = TRUE;
  else
    *value = argv[++*i];
  return TRUE;
}

/* akc knowledge verify FILE --site ID --hash sha256:HEX */
static int
run_verify (int    argc,
            char **argv)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(AkcJsonValue) artifact = NULL;
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  const char *path = NULL;
  const char *site = NULL;
  const char *hash = NULL;
  gboolean bad = FALSE;
  const char *data;
  gsize length;

  for (int i = 1; i < argc && !bad; i++)
    {
      if (take_option (argc, argv, &i, "--site", &site, &bad) ||
          take_option (argc, argv, &i, "--hash", &hash, &bad))
        continue;
      if ((argv[i][0] == '-' && argv[i][1] != '\0') || path != NULL)
        bad = TRUE;
      else
        path = argv[i];
    }

  /* Both anchors are required on the command line; a malformed one is
   * the artifact's rejection (protocol.md §8.8 step 1). */
  if (bad || path == NULL || site == NULL || hash == NULL)
    return usage_error ();

  if (!read_file ("verify", path, &bytes))
    return AKC_CLI_EXIT_USAGE;

  data = g_bytes_get_data (bytes, &length);
  artifact = akc_knowledge_artifact_verify (data != NULL ? data : "", length, hash, site, &diagnostic);

  if (artifact != NULL)
    {
      g_autofree char *canonical = akc_json_value_to_canonical (artifact, NULL);

      printf ("{\"ok\":true,\"value\":%s}\n", canonical);
      return AKC_CLI_EXIT_OK;
    }
  else
    {
      g_autofree char *canonical = akc_diagnostic_to_canonical (diagnostic, NULL);

      printf ("{\"ok\":false,\"diagnostic\":%s}\n", canonical);
      return AKC_CLI_EXIT_REJECTED;
    }
}

/* akc knowledge resolve FILE QUERY --site ID --hash sha256:HEX [--now DATETIME]
 *
 * Prints the answer envelope (application.md §9.6) of any outcome and exits
 * 0; an artifact that fails verification is a `corrupt` escalation, exactly
 * as a conversation would see it. */
static int
run_resolve (int    argc,
             char **argv)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(AkcKnowledgeResolver) resolver = NULL;
  g_autoptr(AkcJsonValue) decision = NULL;
  g_autofree char *canonical = NULL;
  const char *path = NULL;
  const char *query = NULL;
  const char *site = NULL;
  const char *hash = NULL;
  const char *now_text = NULL;
  gboolean bad = FALSE;
  gint64 now_ms = g_get_real_time () / 1000;
  const char *data;
  gsize length;

  for (int i = 1; i < argc && !bad; i++)
    {
      if (take_option (argc, argv, &i, "--site", &site, &bad) ||
          take_option (argc, argv, &i, "--hash", &hash, &bad) ||
          take_option (argc, argv, &i, "--now", &now_text, &bad))
        continue;
      if (strcmp (argv[i], "--") == 0 && query == NULL && path != NULL && i + 1 < argc)
        query = argv[++i];
      else if (argv[i][0] == '-' && argv[i][1] != '\0' && path != NULL)
        bad = TRUE;
      else if (path == NULL)
        path = argv[i];
      else if (query == NULL)
        query = argv[i];
      else
        bad = TRUE;
    }

  if (bad || path == NULL || query == NULL || site == NULL || hash == NULL)
    return usage_error ();

  if (now_text != NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_from_iso8601 (now_text, NULL);

      if (now == NULL)
        {
          fprintf (stderr, _("akc knowledge resolve: “%s” is not a date and time with an offset\n"), now_text);
          return AKC_CLI_EXIT_USAGE;
        }
      now_ms = g_date_time_to_unix (now) * 1000 + g_date_time_get_microsecond (now) / 1000;
    }

  if (!read_file ("resolve", path, &bytes))
    return AKC_CLI_EXIT_USAGE;

  data = g_bytes_get_data (bytes, &length);
  resolver = akc_knowledge_resolver_new_from_text (data != NULL ? data : "", length, hash, site);
  if (!akc_knowledge_resolver_is_verified (resolver) && akc_knowledge_resolver_get_diagnostic (resolver) != NULL)
    /* TRANSLATORS: %s is an English protocol diagnostic */
    fprintf (stderr, _("akc knowledge resolve: the artifact is not used: %s\n"),
             akc_diagnostic_get_message (akc_knowledge_resolver_get_diagnostic (resolver)));

  decision = akc_knowledge_resolver_resolve (resolver, query, now_ms);
  canonical = akc_json_value_to_canonical (decision, NULL);
  printf ("%s\n", canonical);
  return AKC_CLI_EXIT_OK;
}

int
akc_cmd_knowledge (int    argc,
                   char **argv)
{
  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  if (argc >= 2 && strcmp (argv[1], "hash") == 0)
    return run_hash (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "verify") == 0)
    return run_verify (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "resolve") == 0)
    return run_resolve (argc - 1, argv + 1);

  if (argc >= 2)
    fprintf (stderr, _("akc knowledge: unknown subcommand “%s”\n"), argv[1]);
  return usage_error ();
}

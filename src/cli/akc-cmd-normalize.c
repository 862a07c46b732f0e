/* akc-cmd-normalize.c: `akc normalize [TEXT]`
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
  fprintf (out, "%s\n", _("Usage: akc normalize [--] [TEXT]"));
  fprintf (out, "\n%s\n", _("Prints the knowledge key of TEXT (or of standard input) as a JSON string: the exact-match form used by local knowledge artifacts."));
}

int
akc_cmd_normalize (int    argc,
                   char **argv)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(AkcJsonValue) key = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *canonical = NULL;
  const char *text = NULL;
  gsize length = 0;
  int first = 1;

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  /* TEXT is taken literally, even when it starts with a dash; `--` only
   * protects a TEXT that reads "--help". */
  if (argc >= 2 && strcmp (argv[1], "--") == 0)
    first = 2;

  if (argc - first > 1)
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (argc - first == 1)
    {
      text = argv[first];
      length = strlen (text);
    }
  else
    {
      g_autoptr(GError) error = NULL;

      if (!akc_cli_read_input (NULL, &bytes, &error))
        {
          fprintf (stderr, "akc normalize: %s\n", error->message);
          return AKC_CLI_EXIT_USAGE;
        }
      text = g_bytes_get_data (bytes, &length);
      if (text == NULL)
        text = "";
    }

  /* Arguments and standard input are bytes; a key is Unicode text. */
  if (!g_utf8_validate_len (text, length, NULL))
    {
      fprintf (stderr, "%s\n", _("akc normalize: the input is not UTF-8 text, or contains a NUL character"));
      return AKC_CLI_EXIT_REJECTED;
    }

  if (bytes != NULL)
    {
      /* GBytes data is not NUL-terminated */
      g_autofree char *copy = g_strndup (text, length);

      normalized = akc_normalize_knowledge_key (copy);
    }
  else
    normalized = akc_normalize_knowledge_key (text);

  key = akc_json_value_new_string (normalized, -1);
  canonical = akc_json_value_to_canonical (key, NULL);
  printf ("%s\n", canonical);

  return AKC_CLI_EXIT_OK;
}

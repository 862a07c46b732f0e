/* akc-cmd-theme.c: `akc theme resolve FILE` and `akc theme variables FILE`
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
  fprintf (out, "%s\n", _("Usage: akc theme resolve FILE"));
  fprintf (out, "%s\n", _("       akc theme variables FILE"));
  fprintf (out, "\n%s\n", _("Works with a semantic theme (JSON) in FILE, or standard input for “-”."));
  fprintf (out, "\n%s\n", _("Subcommands:"));
  fprintf (out, "  %-10s %s\n", "resolve", _("Validate the theme, merge it over the defaults, and print the resolved theme as JSON"));
  fprintf (out, "  %-10s %s\n", "variables", _("Print the CSS variables a web view is given for the theme, as JSON"));
}

int
akc_cmd_theme (int    argc,
               char **argv)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTheme) theme = NULL;
  g_autofree char *output = NULL;
  const char *data;
  gsize length;

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  if (argc != 3 ||
      (strcmp (argv[1], "resolve") != 0 && strcmp (argv[1], "variables") != 0) ||
      (argv[2][0] == '-' && argv[2][1] != '\0'))
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (!akc_cli_read_input (argv[2], &bytes, &error))
    {
      fprintf (stderr, "akc theme %s: %s\n", argv[1], error->message);
      return AKC_CLI_EXIT_USAGE;
    }

  data = g_bytes_get_data (bytes, &length);
  theme = akc_theme_resolve_text (data != NULL ? data : "", length, &error);
  if (theme == NULL)
    {
      /* TRANSLATORS: the first %s is the subcommand, the second a file name,
       * the third an English configuration error */
      fprintf (stderr, _("akc theme %s: %s is not a valid theme: %s\n"),
               argv[1], argv[2], error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  if (strcmp (argv[1], "resolve") == 0)
    output = akc_theme_to_canonical (theme, NULL);
  else
    {
      g_autoptr(AkcJsonValue) variables = akc_theme_dup_dom_css_variables (theme);

      output = akc_json_value_to_canonical (variables, NULL);
    }

  printf ("%s\n", output);
  return AKC_CLI_EXIT_OK;
}

/* akc-cmd-decode.c: `akc decode KIND [FILE]`
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gunixinputstream.h>

#include "akc.h"
#include "akc-cli.h"

/* Each kind decodes the whole input as one text value and returns the JSON
 * object that mirrors the reference function's result, for example
 * {"ok":true,"event":{…}} or {"ok":false,"diagnostic":{…}}; @accepted
 * tells whether the input was accepted. */
typedef char *(*DecodeFunc) (const char *text,
                             gsize       length,
                             gboolean   *accepted);

typedef struct
{
  const char *kind;
  DecodeFunc  decode;
} DecodeKind;

/* Formats {"ok":true,"<member>":<value>}. */
G_GNUC_UNUSED static char *
result_value (const char   *member,
              AkcJsonValue *value)
{
  g_autofree char *canonical = akc_json_value_to_canonical (value, NULL);

  return g_strdup_printf ("{\"ok\":true,\"%s\":%s}", member, canonical);
}

/* Formats {"ok":false,"diagnostic":<diagnostic>}. */
G_GNUC_UNUSED static char *
result_diagnostic (AkcDiagnostic *diagnostic)
{
  g_autofree char *canonical = akc_diagnostic_to_canonical (diagnostic, NULL);

  return g_strdup_printf ("{\"ok\":false,\"diagnostic\":%s}", canonical);
}

/* Rows are added as the decoders land, one per protocol envelope. */
static const DecodeKind kinds[] = {
  { NULL, NULL },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc decode KIND [FILE]"));
  fprintf (out, "\n%s\n", _("Decodes FILE (or standard input) as one wire value and prints the result as JSON."));
  fprintf (out, "\n%s\n", _("Kinds:"));
  for (guint i = 0; kinds[i].kind != NULL; i++)
    fprintf (out, "  %s\n", kinds[i].kind);
}

/* Reads FILE, or standard input for "-" or no argument, as bytes. */
gboolean
akc_cli_read_input (const char  *path,
                    GBytes     **bytes,
                    GError     **error)
{
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;

  if (path == NULL || strcmp (path, "-") == 0)
    input = g_unix_input_stream_new (0, FALSE);
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);

      input = G_INPUT_STREAM (g_file_read (file, NULL, error));
      if (input == NULL)
        return FALSE;
    }

  output = g_memory_output_stream_new_resizable ();
  if (g_output_stream_splice (output, input,
                              G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                              NULL, error) < 0)
    return FALSE;

  *bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (output));
  return TRUE;
}

int
akc_cmd_decode (int    argc,
                char **argv)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *result = NULL;
  const DecodeKind *kind = NULL;
  gboolean accepted = FALSE;
  const char *data;
  gsize length;

  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      print_usage (stdout);
      return AKC_CLI_EXIT_OK;
    }

  if (argc < 2 || argc > 3)
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  for (guint i = 0; kinds[i].kind != NULL; i++)
    if (strcmp (argv[1], kinds[i].kind) == 0)
      kind = &kinds[i];

  if (kind == NULL)
    {
      fprintf (stderr, _("akc decode: unknown kind “%s”\n"), argv[1]);
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  if (!akc_cli_read_input (argc == 3 ? argv[2] : NULL, &bytes, &error))
    {
      fprintf (stderr, "akc decode: %s\n", error->message);
      return AKC_CLI_EXIT_USAGE;
    }

  data = g_bytes_get_data (bytes, &length);
  result = kind->decode (data != NULL ? data : "", length, &accepted);
  printf ("%s\n", result);

  return accepted ? AKC_CLI_EXIT_OK : AKC_CLI_EXIT_REJECTED;
}

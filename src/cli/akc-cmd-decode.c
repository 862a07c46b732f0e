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

/* Each kind decodes the whole input as one text value and prints the JSON
 * object that mirrors the reference function's result, for example
 * {"ok":true,"event":{…}} or {"ok":false,"diagnostic":{…}}.
 *
 * Most kinds are a decoder of the usual shape (a value, or NULL and a
 * diagnostic) whose result is printed under @member. The others have a
 * function of their own that returns the result text and sets @accepted. */
typedef AkcJsonValue *(*ValueDecodeFunc) (const char     *text,
                                          gssize          length,
                                          AkcDiagnostic **diagnostic);

typedef char *(*DecodeFunc) (const char *text,
                             gsize       length,
                             gboolean   *accepted);

typedef struct
{
  const char      *kind;
  const char      *member;
  ValueDecodeFunc  decode_value;
  DecodeFunc       decode;
} DecodeKind;

/* Formats {"ok":true,"<member>":<value>}. */
static char *
result_value (const char   *member,
              AkcJsonValue *value)
{
  g_autofree char *canonical = akc_json_value_to_canonical (value, NULL);

  return g_strdup_printf ("{\"ok\":true,\"%s\":%s}", member, canonical);
}

/* Formats {"ok":false,"diagnostic":<diagnostic>}. */
static char *
result_diagnostic (AkcDiagnostic *diagnostic)
{
  g_autofree char *canonical = akc_diagnostic_to_canonical (diagnostic, NULL);

  return g_strdup_printf ("{\"ok\":false,\"diagnostic\":%s}", canonical);
}

/* The artifact without trusted anchors (protocol.md §8.5). */
static AkcJsonValue *
decode_knowledge (const char     *text,
                  gssize          length,
                  AkcDiagnostic **diagnostic)
{
  return akc_knowledge_artifact_decode (text, length, NULL, NULL, diagnostic);
}

/* `decodeAskEvents` over the whole input in one call (protocol.md §6.2):
 * {"events":[…],"rest":"…","discardedPartial":false}. Always accepted:
 * invalid records are inert. */
static char *
decode_ask_events (const char *text,
                   gsize       length,
                   gboolean   *accepted)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(AkcJsonValue) rest_value = NULL;
  g_autofree char *rest = NULL;
  g_autofree char *rest_json = NULL;
  gboolean discarded = FALSE;
  gsize rest_length = 0;
  GString *out;

  events = akc_ask_events_decode (text, length, &rest, &rest_length, &discarded);
  rest_value = akc_json_value_new_string (rest, rest_length);
  rest_json = akc_json_value_to_canonical (rest_value, NULL);

  out = g_string_new ("{\"events\":[");
  for (guint i = 0; i < events->len; i++)
    {
      g_autofree char *event = akc_json_value_to_canonical (g_ptr_array_index (events, i), NULL);

      if (i > 0)
        g_string_append_c (out, ',');
      g_string_append (out, event);
    }
  g_string_append_printf (out, "],\"rest\":%s,\"discardedPartial\":%s}",
                          rest_json, discarded ? "true" : "false");

  *accepted = TRUE;
  return g_string_free (out, FALSE);
}

/* The Ask backend request (§7.1): {"ok":true,"request":{…}} or {"ok":false}
 * (the schema has no diagnostic codes). */
static char *
decode_ask_request (const char *text,
                    gsize       length,
                    gboolean   *accepted)
{
  g_autoptr(AkcJsonValue) request = akc_ask_backend_request_decode (text, length, NULL);

  *accepted = request != NULL;
  if (request == NULL)
    return g_strdup ("{\"ok\":false}");

  return result_value ("request", request);
}

/* `resolveComponentFrame` against the standard catalog (application.md
 * §2.4): {"ok":true,"frame":{…},"props":{…}} or the diagnostic of the
 * decoder (§3.5) or of the manifest (COMPONENT_UNKNOWN,
 * COMPONENT_INVALID_PROPS). */
static char *
decode_component (const char *text,
                  gsize       length,
                  gboolean   *accepted)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcResolvedComponent) resolved = NULL;
  g_autofree char *frame = NULL;
  g_autofree char *props = NULL;

  resolved = akc_component_manifest_resolve_text (manifest, text, length, &diagnostic);
  *accepted = resolved != NULL;
  if (resolved == NULL)
    return result_diagnostic (diagnostic);

  frame = akc_json_value_to_canonical (akc_resolved_component_get_frame (resolved), NULL);
  props = akc_json_value_to_canonical (akc_resolved_component_get_props (resolved), NULL);

  return g_strdup_printf ("{\"ok\":true,\"frame\":%s,\"props\":%s}", frame, props);
}

/* `decodeAssistantContent` (§4.4): {"ok":true,"parts":[…],"complete":…}
 * or the diagnostic. */
static char *
decode_content (const char *text,
                gsize       length,
                gboolean   *accepted)
{
  g_autoptr(AkcDiagnostic) diagnostic = NULL;
  g_autoptr(AkcJsonValue) parts = NULL;
  g_autofree char *parts_json = NULL;
  gboolean complete = FALSE;

  parts = akc_assistant_content_decode (text, length, &complete, &diagnostic);
  *accepted = parts != NULL;
  if (parts == NULL)
    return result_diagnostic (diagnostic);

  parts_json = akc_json_value_to_canonical (parts, NULL);
  return g_strdup_printf ("{\"ok\":true,\"parts\":%s,\"complete\":%s}",
                          parts_json, complete ? "true" : "false");
}

static const DecodeKind kinds[] = {
  { "answer", "value", akc_answer_decode, NULL },
  { "ask-events", NULL, NULL, decode_ask_events },
  { "ask-request", NULL, NULL, decode_ask_request },
  { "component", NULL, NULL, decode_component },
  { "content", NULL, NULL, decode_content },
  { "knowledge", "value", decode_knowledge, NULL },
  { "session", "snapshot", akc_session_snapshot_decode, NULL },
  { "site", "value", akc_site_config_decode, NULL },
  { "turn", "event", akc_turn_event_decode, NULL },
  { NULL, NULL, NULL, NULL },
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
  if (data == NULL)
    data = "";

  if (kind->decode_value != NULL)
    {
      g_autoptr(AkcDiagnostic) diagnostic = NULL;
      g_autoptr(AkcJsonValue) value = kind->decode_value (data, length, &diagnostic);

      accepted = value != NULL;
      result = value != NULL ? result_value (kind->member, value) : result_diagnostic (diagnostic);
    }
  else
    result = kind->decode (data, length, &accepted);
  printf ("%s\n", result);

  return accepted ? AKC_CLI_EXIT_OK : AKC_CLI_EXIT_REJECTED;
}

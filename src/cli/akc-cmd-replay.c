/* akc-cmd-replay.c: `akc replay`, recorded conversations played back,
 * checked against a definition, and recorded (application.md §10.2)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "akc.h"
#include "akc-cli.h"
#include "akc-cli-output.h"
#include "akc-demo.h"

/* A fixture names no secrets once recorded: these members are redacted
 * from its traces and its cassette unless --redact says otherwise. */
static const char * const default_redact[] = {
  "token", "password", "authorization", "apiKey", "secret", "cookie", NULL
};

static void
print_usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: akc replay FIXTURE [--definition ID] [--json | --outcomes]"));
  fprintf (out, "%s\n", _("       akc replay --record FILE --definition ID [--redact NAME]… INPUT…"));
  fprintf (out, "\n%s\n", _("Plays a replay fixture (agentskit.chat.replay v1) back and prints each turn and the fixture's traces. With --definition, runs the definition ID on every recorded turn instead, the recorded chunks standing in for the model, and checks that it answers and traces exactly as recorded: exit 0 when it does, 1 with each difference when it does not."));
  fprintf (out, "\n%s\n", _("With --outcomes, prints instead what this terminal renderer shows of each turn as renderer outcomes (application.md §10.3: text, standard components, semantic fallbacks, errors), one JSON object {renderer, outcomes}, for a parity check with another renderer."));
  fprintf (out, "\n%s\n", _("With --record, sends each INPUT to the definition ID in turn and writes what it answered and traced as a fixture to FILE. Members named token, password, authorization, apiKey, secret or cookie are redacted at any depth; each --redact NAME replaces that list."));
  fprintf (out, "\n%s", _("Definitions:"));
  for (const char * const *id = akc_demo_get_ids (); *id != NULL; id++)
    fprintf (out, " %s", *id);
  fprintf (out, "\n\n%s\n", _("Exit status: 0 played (or reproduced), 1 failed or differs, 2 usage error."));
}

/* ------------------------------------------------------------------ */
/* Turns                                                               */
/* ------------------------------------------------------------------ */

static const char * const role_names[] = {
  [AKC_MESSAGE_ROLE_SYSTEM] = "system",
  [AKC_MESSAGE_ROLE_USER] = "user",
  [AKC_MESSAGE_ROLE_ASSISTANT] = "assistant",
  [AKC_MESSAGE_ROLE_TOOL] = "tool",
};

static const char *
string_member (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *value = akc_json_value_get_member (object, name);

  return value != NULL && akc_json_value_get_kind (value) == AKC_JSON_KIND_STRING
    ? akc_json_value_get_string (value, NULL) : NULL;
}

/* The cassette's messages as the adapter is given them. */
static GListStore *
messages_from_json (AkcJsonValue *messages)
{
  GListStore *store = g_list_store_new (AKC_TYPE_MESSAGE);

  for (gsize i = 0; i < akc_json_value_get_length (messages); i++)
    {
      AkcJsonValue *m = akc_json_value_get_element (messages, i);
      const char *role = string_member (m, "role");
      const char *id = string_member (m, "id");
      g_autofree char *fallback_id = g_strdup_printf ("message-%" G_GSIZE_FORMAT, i);
      AkcMessageRole r = AKC_MESSAGE_ROLE_USER;
      g_autoptr(AkcMessage) message = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (role_names); k++)
        if (role != NULL && g_str_equal (role, role_names[k]))
          r = k;

      message = akc_message_new (id != NULL ? id : fallback_id, r, string_member (m, "content"),
                                 AKC_MESSAGE_STATUS_COMPLETE);
      g_list_store_append (store, message);
    }

  return store;
}

static const char *
last_user_input (AkcJsonValue *messages)
{
  for (gsize i = akc_json_value_get_length (messages); i > 0; i--)
    {
      AkcJsonValue *m = akc_json_value_get_element (messages, i - 1);
      const char *role = string_member (m, "role");

      if (role == NULL || g_str_equal (role, "user"))
        return string_member (m, "content");
    }

  return "";
}

static void
on_chunk (AkcStream *stream,
          AkcChunk  *chunk,
          GPtrArray *chunks)
{
  g_ptr_array_add (chunks, akc_chunk_to_replay_json (chunk));
}

/* Streams one turn of @adapter over @messages to its end; the chunks as
 * cassette JSON. */
static AkcJsonValue *
run_turn (AkcAdapter *adapter,
          GListModel *messages,
          const char *session_id)
{
  g_autoptr(AkcStream) stream = akc_stream_new ();
  g_autoptr(AkcAdapterRequest) request = akc_adapter_request_new (messages, session_id, NULL, NULL);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  g_signal_connect (stream, "chunk", G_CALLBACK (on_chunk), chunks);
  akc_adapter_stream (adapter, request, stream);
  while (!akc_stream_is_closed (stream))
    g_main_context_iteration (NULL, TRUE);

  return akc_json_value_new_array ((AkcJsonValue * const *) chunks->pdata, chunks->len);
}

/* The reply text of a turn's chunks. */
static char *
reply_text (AkcJsonValue *chunks)
{
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < akc_json_value_get_length (chunks); i++)
    {
      AkcJsonValue *chunk = akc_json_value_get_element (chunks, i);
      const char *type = string_member (chunk, "type");

      if (g_str_equal (type, "text"))
        {
          gsize len = 0;
          const char *s = akc_json_value_get_string (akc_json_value_get_member (chunk, "content"), &len);

          g_string_append_len (text, s, len);
        }
    }

  return g_string_free (text, FALSE);
}

static void
print_json_line (AkcJsonValue *value)
{
  g_autofree char *line = akc_json_value_to_canonical (value, NULL);

  akc_cli_print_untrusted (stdout, "%s\n", line);
}

static void
print_turn (guint         index_,
            const char   *input,
            AkcJsonValue *chunks,
            gboolean      json)
{
  if (json)
    {
      const char *names[] = { "type", "entry", "input", "chunks" };
      AkcJsonValue *values[] = {
        akc_json_value_new_string ("turn", -1),
        akc_json_value_new_number (index_),
        akc_json_value_new_string (input, -1),
        akc_json_value_ref (chunks),
      };
      g_autoptr(AkcJsonValue) line = akc_json_value_new_object (names, values, G_N_ELEMENTS (values));

      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        akc_json_value_unref (values[i]);
      print_json_line (line);
      return;
    }

  akc_cli_print_untrusted (stdout, "› %s\n", input);
  {
    g_autofree char *text = reply_text (chunks);

    if (*text != '\0')
      akc_cli_print_untrusted (stdout, "%s\n", text);
  }
  for (gsize i = 0; i < akc_json_value_get_length (chunks); i++)
    {
      AkcJsonValue *chunk = akc_json_value_get_element (chunks, i);
      const char *type = string_member (chunk, "type");

      if (g_str_equal (type, "tool_call"))
        {
          AkcJsonValue *call = akc_json_value_get_member (chunk, "toolCall");

          akc_cli_print_untrusted (stdout, _("[tool call %s %s]\n"),
                                   string_member (call, "name"), string_member (call, "args"));
        }
      else if (g_str_equal (type, "error"))
        akc_cli_print_untrusted (stdout, _("Error: %s\n"), string_member (chunk, "content"));
    }
  putchar ('\n');
}

static void
print_traces (GPtrArray *traces,
              gboolean   json)
{
  if (!json && traces->len > 0)
    printf ("%s\n", _("Traces:"));

  for (guint i = 0; i < traces->len; i++)
    {
      AkcTraceRecord *record = g_ptr_array_index (traces, i);
      g_autoptr(AkcJsonValue) value = akc_trace_record_to_json (record);

      if (json)
        {
          const char *names[] = { "type", "trace" };
          AkcJsonValue *values[] = { akc_json_value_new_string ("trace", -1), value };
          g_autoptr(AkcJsonValue) line = akc_json_value_new_object (names, values, 2);

          akc_json_value_unref (values[0]);
          print_json_line (line);
        }
      else
        {
          g_autofree char *detail = akc_json_value_to_canonical (akc_trace_record_get_detail (record), NULL);
          const char *parent = akc_trace_record_get_parent_id (record);

          akc_cli_print_untrusted (stdout, "  %s %s%s%s %s\n",
                                   akc_trace_record_get_id (record),
                                   akc_trace_category_to_string (akc_trace_record_get_category (record)),
                                   parent != NULL ? " ← " : "", parent != NULL ? parent : "",
                                   detail);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Renderer outcomes (§10.3)                                           */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
take_values (GPtrArray *values)
{
  return akc_json_value_new_array ((AkcJsonValue * const *) values->pdata, values->len);
}

/* Takes @value. */
static AkcJsonValue *
outcome (const char   *turn_id,
         const char   *kind,
         AkcJsonValue *value)
{
  const char *names[] = { "turnId", "kind", "value" };
  g_autoptr(AkcJsonValue) turn = akc_json_value_new_string (turn_id, -1);
  g_autoptr(AkcJsonValue) kind_value = akc_json_value_new_string (kind, -1);
  g_autoptr(AkcJsonValue) owned = value;
  AkcJsonValue *values[] = { turn, kind_value, owned };

  return akc_json_value_new_object (names, values, 3);
}

/* What this terminal renderer shows of one turn's reply, as the GTK
 * renderer describes its rows (akc_message_row_dup_outcomes): the text
 * runs one a line, the standard components, the semantic fallbacks of the
 * frames it cannot draw (all of them, on a terminal, but the standard
 * ones), and the diagnostics and error chunks. */
static void
add_outcomes (GPtrArray    *outcomes,
              const char   *turn_id,
              AkcJsonValue *chunks)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autofree char *content = reply_text (chunks);
  g_autoptr(GListModel) parts = akc_present_content (AKC_MESSAGE_ROLE_ASSISTANT, content, -1, manifest);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) components = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) fallbacks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);

  for (guint i = 0; i < g_list_model_get_n_items (parts); i++)
    {
      g_autoptr(AkcPresentation) part = g_list_model_get_item (parts, i);
      AkcJsonValue *frame;

      switch (akc_presentation_get_kind (part))
        {
        case AKC_PRESENTATION_MESSAGE:
          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append (text, akc_presentation_get_text (part, NULL));
          break;
        case AKC_PRESENTATION_DIAGNOSTIC:
          g_ptr_array_add (errors, akc_json_value_new_string (akc_diagnostic_get_message (akc_presentation_get_diagnostic (part)), -1));
          break;
        case AKC_PRESENTATION_COMPONENT:
        default:
          frame = akc_presentation_get_frame (part);
          if (akc_presentation_get_rendering (part) == AKC_COMPONENT_RENDERING_STANDARD)
            {
              const char *names[] = { "key", "instanceId", "resolved" };
              AkcJsonValue *values[] = {
                akc_json_value_new_string (string_member (frame, "componentKey"), -1),
                akc_json_value_new_string (string_member (frame, "instanceId"), -1),
                akc_json_value_new_boolean (FALSE),
              };

              g_ptr_array_add (components, akc_json_value_new_object (names, values, 3));
              for (guint k = 0; k < G_N_ELEMENTS (values); k++)
                akc_json_value_unref (values[k]);
            }
          else
            {
              g_autofree char *fallback = akc_component_format_semantic_fallback (akc_json_value_get_member (frame, "fallback"));

              g_ptr_array_add (fallbacks, akc_json_value_new_string (fallback != NULL ? fallback : "", -1));
            }
          break;
        }
    }

  for (gsize i = 0; i < akc_json_value_get_length (chunks); i++)
    {
      AkcJsonValue *chunk = akc_json_value_get_element (chunks, i);

      if (g_str_equal (string_member (chunk, "type"), "error"))
        g_ptr_array_add (errors, akc_json_value_new_string (string_member (chunk, "content"), -1));
    }

  if (text->len > 0)
    g_ptr_array_add (outcomes, outcome (turn_id, "text", akc_json_value_new_string (text->str, -1)));
  if (components->len > 0)
    g_ptr_array_add (outcomes, outcome (turn_id, "component", take_values (components)));
  if (fallbacks->len > 0)
    g_ptr_array_add (outcomes, outcome (turn_id, "fallback", take_values (fallbacks)));
  if (errors->len > 0)
    g_ptr_array_add (outcomes, outcome (turn_id, "error", take_values (errors)));
}

/* ------------------------------------------------------------------ */
/* Playing and checking                                                */
/* ------------------------------------------------------------------ */

static gboolean
traces_match (AkcTraceRecord *expected,
              AkcTraceRecord *actual)
{
  return akc_trace_record_get_category (expected) == akc_trace_record_get_category (actual) &&
         g_strcmp0 (akc_trace_record_get_parent_id (expected), akc_trace_record_get_parent_id (actual)) == 0 &&
         akc_json_value_equal (akc_trace_record_get_detail (expected), akc_trace_record_get_detail (actual));
}

static void
report_difference (const char   *what,
                   AkcJsonValue *expected,
                   AkcJsonValue *actual)
{
  g_autofree char *e = expected != NULL ? akc_json_value_to_canonical (expected, NULL) : g_strdup (_("(nothing)"));
  g_autofree char *a = actual != NULL ? akc_json_value_to_canonical (actual, NULL) : g_strdup (_("(nothing)"));

  akc_cli_print_untrusted (stderr, _("akc replay: %s differs\n  recorded: %s\n  now:      %s\n"), what, e, a);
}

static AkcDemo *
start_definition (const char  *id,
                  AkcAdapter  *model,
                  GError     **error)
{
  if (akc_demo_get_title_for (id) == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("There is no definition “%s”."), id);
      return NULL;
    }

  return akc_demo_new_full (id, "replay", NULL, model, error);
}

static AkcTraceCapture *
capture_for (AkcDemo            *demo,
             const char * const *redact)
{
  AkcTraceCapture *capture = akc_trace_capture_new (redact);

  akc_trace_capture_watch_session (capture, akc_demo_get_session (demo));
  if (akc_demo_get_confirmation (demo) != NULL)
    akc_trace_capture_watch_confirmation (capture, akc_demo_get_confirmation (demo));

  return capture;
}

static int
play (const char *path,
      const char *definition,
      gboolean    json,
      gboolean    outcomes_only)
{
  g_autoptr(GPtrArray) outcomes = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autoptr(AkcAdapter) replay = NULL;
  g_autoptr(AkcDemo) demo = NULL;
  g_autoptr(AkcTraceCapture) capture = NULL;
  gsize len = 0;
  const char *text;
  int differences = 0;

  if (!akc_cli_read_input (path, &bytes, &error))
    {
      akc_cli_print_untrusted (stderr, "akc replay: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }
  text = g_bytes_get_data (bytes, &len);
  fixture = akc_replay_fixture_parse (text, len, &error);
  if (fixture == NULL)
    {
      akc_cli_print_untrusted (stderr, "akc replay: %s: %s\n", path, error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  replay = akc_replay_adapter_new (fixture);
  if (definition != NULL)
    {
      demo = start_definition (definition, replay, &error);
      if (demo == NULL)
        {
          akc_cli_print_untrusted (stderr, "akc replay: %s\n", error->message);
          return AKC_CLI_EXIT_USAGE;
        }
      capture = capture_for (demo, NULL);
    }

  for (guint i = 0; i < akc_replay_fixture_get_n_entries (fixture); i++)
    {
      AkcJsonValue *messages = akc_replay_fixture_get_entry_messages (fixture, i);
      AkcJsonValue *recorded = akc_replay_fixture_get_entry_chunks (fixture, i);
      g_autoptr(GListStore) store = messages_from_json (messages);
      g_autoptr(AkcJsonValue) chunks = NULL;

      /* The recorded chunks stand in for the model on this turn. */
      akc_replay_adapter_set_position (AKC_REPLAY_ADAPTER (replay), i);
      chunks = run_turn (demo != NULL ? AKC_ADAPTER (akc_demo_get_session (demo)) : replay,
                         G_LIST_MODEL (store), "replay");
      if (outcomes_only)
        {
          g_autofree char *turn_id = g_strdup_printf ("turn-%u", i + 1);

          add_outcomes (outcomes, turn_id, chunks);
        }
      else
        print_turn (i, last_user_input (messages), chunks, json);

      if (demo != NULL && !akc_json_value_equal (recorded, chunks))
        {
          g_autofree char *what = g_strdup_printf (_("turn %u"), i);

          report_difference (what, recorded, chunks);
          differences++;
        }
    }

  if (outcomes_only)
    {
      const char *names[] = { "renderer", "outcomes" };
      g_autoptr(AkcJsonValue) renderer = akc_json_value_new_string ("terminal", -1);
      g_autoptr(AkcJsonValue) list = take_values (outcomes);
      AkcJsonValue *values[] = { renderer, list };
      g_autoptr(AkcJsonValue) line = akc_json_value_new_object (names, values, 2);

      print_json_line (line);
    }
  else if (capture == NULL)
    {
      print_traces (akc_replay_fixture_get_traces (fixture), json);
    }
  else
    {
      g_autoptr(GPtrArray) traces = akc_trace_capture_snapshot (capture);
      GPtrArray *recorded = akc_replay_fixture_get_traces (fixture);

      if (!outcomes_only)
        print_traces (traces, json);
      for (guint i = 0; i < MAX (traces->len, recorded->len); i++)
        {
          AkcTraceRecord *e = i < recorded->len ? g_ptr_array_index (recorded, i) : NULL;
          AkcTraceRecord *a = i < traces->len ? g_ptr_array_index (traces, i) : NULL;

          if (e == NULL || a == NULL || !traces_match (e, a))
            {
              g_autoptr(AkcJsonValue) ej = e != NULL ? akc_trace_record_to_json (e) : NULL;
              g_autoptr(AkcJsonValue) aj = a != NULL ? akc_trace_record_to_json (a) : NULL;
              g_autofree char *what = g_strdup_printf (_("trace %u"), i);

              report_difference (what, ej, aj);
              differences++;
            }
        }
    }

  if (differences > 0)
    {
      akc_cli_print_untrusted (stderr, g_dngettext (GETTEXT_PACKAGE,
                                                    "akc replay: %d difference from the recording\n",
                                                    "akc replay: %d differences from the recording\n",
                                                    differences), differences);
      return AKC_CLI_EXIT_REJECTED;
    }

  return AKC_CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ */
/* Recording                                                           */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
message_json (const char *id,
              const char *role,
              const char *content)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *seconds = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");
  g_autofree char *created_at = g_strdup_printf ("%s.%03dZ", seconds, g_date_time_get_microsecond (now) / 1000);
  const char *names[] = { "id", "role", "content", "status", "createdAt" };
  AkcJsonValue *values[] = {
    akc_json_value_new_string (id, -1),
    akc_json_value_new_string (role, -1),
    akc_json_value_new_string (content, -1),
    akc_json_value_new_string ("complete", -1),
    akc_json_value_new_string (created_at, -1),
  };
  AkcJsonValue *message = akc_json_value_new_object (names, values, G_N_ELEMENTS (values));

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    akc_json_value_unref (values[i]);

  return message;
}

static int
record (const char         *path,
        const char         *definition,
        const char * const *redact,
        char              **inputs,
        gboolean            json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcDemo) demo = start_definition (definition, NULL, &error);
  g_autoptr(AkcTraceCapture) capture = NULL;
  g_autoptr(GPtrArray) history = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(AkcJsonValue) cassette = NULL;
  g_autoptr(AkcJsonValue) redacted = NULL;
  g_autoptr(GPtrArray) traces = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autofree char *text = NULL;
  g_autofree char *file_text = NULL;

  if (demo == NULL)
    {
      akc_cli_print_untrusted (stderr, "akc replay: %s\n", error->message);
      return AKC_CLI_EXIT_USAGE;
    }
  capture = capture_for (demo, redact);

  for (guint i = 0; inputs[i] != NULL; i++)
    {
      g_autofree char *user_id = g_strdup_printf ("user-%u", i + 1);
      g_autofree char *assistant_id = g_strdup_printf ("assistant-%u", i + 1);
      g_autoptr(AkcJsonValue) messages = NULL;
      g_autoptr(GListStore) store = NULL;
      g_autoptr(AkcJsonValue) chunks = NULL;
      g_autofree char *reply = NULL;
      const char *entry_names[] = { "request", "chunks" };
      const char *request_names[] = { "messages" };
      AkcJsonValue *request_values[1];
      AkcJsonValue *entry_values[2];

      if (!g_utf8_validate (inputs[i], -1, NULL))
        {
          fprintf (stderr, "akc replay: %s\n", _("An input is not valid UTF-8."));
          return AKC_CLI_EXIT_USAGE;
        }

      g_ptr_array_add (history, message_json (user_id, "user", inputs[i]));
      messages = take_values (history);
      store = messages_from_json (messages);
      chunks = run_turn (AKC_ADAPTER (akc_demo_get_session (demo)), G_LIST_MODEL (store), "replay");
      print_turn (i, inputs[i], chunks, json);

      request_values[0] = messages;
      entry_values[0] = akc_json_value_new_object (request_names, request_values, 1);
      entry_values[1] = chunks;
      g_ptr_array_add (entries, akc_json_value_new_object (entry_names, entry_values, 2));
      akc_json_value_unref (entry_values[0]);

      reply = reply_text (chunks);
      g_ptr_array_add (history, message_json (assistant_id, "assistant", reply));
    }

  {
    const char *names[] = { "version", "entries" };
    AkcJsonValue *values[] = { akc_json_value_new_number (1), take_values (entries) };

    cassette = akc_json_value_new_object (names, values, 2);
    akc_json_value_unref (values[0]);
    akc_json_value_unref (values[1]);
  }

  /* Traces were redacted as they were captured; the cassette now. */
  redacted = akc_trace_capture_redact (capture, cassette);
  traces = akc_trace_capture_snapshot (capture);
  print_traces (traces, json);
  fixture = akc_replay_fixture_new (redacted, traces, &error);
  if (fixture == NULL)
    {
      akc_cli_print_untrusted (stderr, "akc replay: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  text = akc_replay_fixture_serialize (fixture);
  file_text = g_strconcat (text, "\n", NULL);
  if (!g_file_set_contents (path, file_text, -1, &error))
    {
      akc_cli_print_untrusted (stderr, "akc replay: %s\n", error->message);
      return AKC_CLI_EXIT_REJECTED;
    }

  return AKC_CLI_EXIT_OK;
}

int
akc_cmd_replay (int    argc,
                char **argv)
{
  g_autoptr(GStrvBuilder) redact = g_strv_builder_new ();
  g_auto(GStrv) redact_fields = NULL;
  g_autoptr(GPtrArray) positional = g_ptr_array_new ();
  const char *definition = NULL;
  const char *record_path = NULL;
  gboolean json = FALSE;
  gboolean outcomes = FALSE;
  gboolean redact_given = FALSE;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
        {
          print_usage (stdout);
          return AKC_CLI_EXIT_OK;
        }
      else if (strcmp (argv[i], "--json") == 0)
        json = TRUE;
      else if (strcmp (argv[i], "--outcomes") == 0)
        outcomes = TRUE;
      else if (strcmp (argv[i], "--definition") == 0 && i + 1 < argc)
        definition = argv[++i];
      else if (strcmp (argv[i], "--record") == 0 && i + 1 < argc)
        record_path = argv[++i];
      else if (strcmp (argv[i], "--redact") == 0 && i + 1 < argc)
        {
          g_strv_builder_add (redact, argv[++i]);
          redact_given = TRUE;
        }
      else if (strcmp (argv[i], "--") == 0)
        {
          for (i++; i < argc; i++)
            g_ptr_array_add (positional, argv[i]);
        }
      else if (argv[i][0] == '-' && argv[i][1] != '\0')
        {
          print_usage (stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      else
        g_ptr_array_add (positional, argv[i]);
    }

  if (record_path != NULL)
    {
      if (definition == NULL || positional->len == 0)
        {
          print_usage (stderr);
          return AKC_CLI_EXIT_USAGE;
        }
      if (!redact_given)
        g_strv_builder_addv (redact, (const char **) default_redact);
      redact_fields = g_strv_builder_end (redact);
      g_ptr_array_add (positional, NULL);
      return record (record_path, definition, (const char * const *) redact_fields,
                     (char **) positional->pdata, json);
    }

  if (positional->len != 1 || redact_given || (outcomes && json))
    {
      print_usage (stderr);
      return AKC_CLI_EXIT_USAGE;
    }

  return play (g_ptr_array_index (positional, 0), definition, json, outcomes);
}

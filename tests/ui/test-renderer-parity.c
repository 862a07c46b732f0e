/* test-renderer-parity.c: the GTK renderer and the terminal renderer show
 * a person the same thing (application.md §10.3). Each recorded fixture of
 * the reference applications (tests/fixtures/replay), and one made here
 * with a frame no renderer knows and content that fails to decode, is
 * rendered by AkcMessageRow (its outcomes read off its widgets) and by
 * `akc replay --outcomes`; akc_renderer_outcomes_compare must find no
 * mismatch.
 *
 *   test-renderer-parity PATH-TO-AKC FIXTURES-DIR
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc-gtk.h>
#include <glib/gstdio.h>

static const char *akc_path;
static const char *fixtures_dir;

static char *
reply_of (AkcJsonValue *chunks)
{
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < akc_json_value_get_length (chunks); i++)
    {
      AkcJsonValue *chunk = akc_json_value_get_element (chunks, i);
      AkcJsonValue *content = akc_json_value_get_member (chunk, "content");

      if (g_str_equal (akc_json_value_get_string (akc_json_value_get_member (chunk, "type"), NULL), "text"))
        {
          gsize len = 0;
          const char *s = akc_json_value_get_string (content, &len);

          g_string_append_len (text, s, len);
        }
    }

  return g_string_free (text, FALSE);
}

/* The GTK renderer's outcomes: one AkcMessageRow per recorded reply. */
static AkcJsonValue *
gtk_outcomes (AkcReplayFixture *fixture)
{
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  const char *names[] = { "renderer", "outcomes" };
  g_autoptr(AkcJsonValue) renderer = akc_json_value_new_string ("gtk", -1);
  g_autoptr(AkcJsonValue) list = NULL;
  AkcJsonValue *values[2];
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 720, 900);
  gtk_window_set_child (GTK_WINDOW (window), box);
  for (guint i = 0; i < akc_replay_fixture_get_n_entries (fixture); i++)
    {
      g_autofree char *content = reply_of (akc_replay_fixture_get_entry_chunks (fixture, i));
      g_autofree char *id = g_strdup_printf ("assistant-%u", i + 1);
      g_autoptr(AkcMessage) message = akc_message_new (id, AKC_MESSAGE_ROLE_ASSISTANT, content,
                                                       AKC_MESSAGE_STATUS_COMPLETE);
      GtkWidget *row = akc_message_row_new ();

      akc_message_row_set_manifest (AKC_MESSAGE_ROW (row), manifest);
      akc_message_row_set_message (AKC_MESSAGE_ROW (row), message);
      gtk_box_append (GTK_BOX (box), row);
      g_ptr_array_add (rows, row);
    }
  gtk_window_present (GTK_WINDOW (window));
  for (guint spin = 0; spin < 50; spin++)
    g_main_context_iteration (NULL, FALSE);

  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *turn = g_strdup_printf ("turn-%u", i + 1);
      g_autoptr(AkcJsonValue) outcomes = akc_message_row_dup_outcomes (g_ptr_array_index (rows, i), turn);

      for (gsize k = 0; k < akc_json_value_get_length (outcomes); k++)
        g_ptr_array_add (all, akc_json_value_ref (akc_json_value_get_element (outcomes, k)));
    }
  gtk_window_destroy (GTK_WINDOW (window));

  list = akc_json_value_new_array ((AkcJsonValue * const *) all->pdata, all->len);
  values[0] = renderer;
  values[1] = list;
  return akc_json_value_new_object (names, values, 2);
}

static AkcJsonValue *
terminal_outcomes (const char *path)
{
  const char *argv[] = { akc_path, "replay", path, "--outcomes", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("akc replay --outcomes failed: %s\n%s", error->message, err);
  value = akc_json_value_parse (out, -1, &error);
  g_assert_no_error (error);

  return value;
}

/* Returns the GTK renderer's outcomes. */
static AkcJsonValue *
check_parity (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcReplayFixture) fixture = NULL;
  g_autoptr(AkcJsonValue) gtk = NULL;
  g_autoptr(AkcJsonValue) terminal = NULL;
  g_autoptr(AkcJsonValue) renderers = NULL;
  g_autoptr(AkcJsonValue) report = NULL;
  g_autofree char *report_text = NULL;
  AkcJsonValue *pair[2];

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  fixture = akc_replay_fixture_parse (text, -1, &error);
  g_assert_no_error (error);

  gtk = gtk_outcomes (fixture);
  terminal = terminal_outcomes (path);
  g_assert_cmpuint (akc_json_value_get_length (akc_json_value_get_member (gtk, "outcomes")), >, 0);
  pair[0] = gtk;
  pair[1] = terminal;
  renderers = akc_json_value_new_array (pair, 2);
  report = akc_renderer_outcomes_compare (renderers, &error);
  g_assert_no_error (error);
  report_text = akc_json_value_to_canonical (report, NULL);
  g_test_message ("%s", report_text);
  g_assert_true (akc_json_value_get_boolean (akc_json_value_get_member (report, "ok")));

  return g_steal_pointer (&gtk);
}

static void
test_reference_application (gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixtures_dir, data, NULL);
  g_autoptr(AkcJsonValue) gtk = check_parity (path);
}

/* What neither renderer can draw, and what fails to decode. */
static void
test_fallback_and_diagnostic (void)
{
  static const char fixture[] =
    "{\"protocol\":\"agentskit.chat.replay\",\"version\":1,\"cassette\":{\"version\":1,\"entries\":["
    "{\"request\":{\"messages\":[{\"role\":\"user\",\"content\":\"map\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}]},"
    " \"chunks\":[{\"type\":\"text\",\"content\":\"{\\\"protocol\\\":\\\"agentskit.chat.component\\\",\\\"version\\\":1,"
    "\\\"type\\\":\\\"render\\\",\\\"componentKey\\\":\\\"map-view\\\",\\\"instanceId\\\":\\\"map-1\\\",\\\"props\\\":{},"
    "\\\"fallback\\\":{\\\"kind\\\":\\\"map\\\",\\\"summary\\\":\\\"A map of the office.\\\"}}\"},{\"type\":\"done\"}]},"
    "{\"request\":{\"messages\":[{\"role\":\"user\",\"content\":\"broken\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}]},"
    " \"chunks\":[{\"type\":\"text\",\"content\":\"{\\\"protocol\\\":\\\"agentskit.chat.component\\\",\\\"version\\\":7}\"},{\"type\":\"done\"}]},"
    "{\"request\":{\"messages\":[{\"role\":\"user\",\"content\":\"plain\",\"createdAt\":\"2026-01-01T00:00:00.000Z\"}]},"
    " \"chunks\":[{\"type\":\"text\",\"content\":\"Just *words*.\"},{\"type\":\"done\"}]}"
    "]},\"traces\":[]}";
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(AkcJsonValue) gtk = NULL;
  g_autofree char *kinds = NULL;
  GString *seen = g_string_new (NULL);
  AkcJsonValue *outcomes;
  int fd = g_file_open_tmp ("akc-parity-XXXXXX.json", &path, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, fixture, -1, &error));
  close (fd);
  gtk = check_parity (path);
  g_unlink (path);

  /* The check covered every kind of outcome. */
  outcomes = akc_json_value_get_member (gtk, "outcomes");
  for (gsize i = 0; i < akc_json_value_get_length (outcomes); i++)
    g_string_append_printf (seen, "%s:%s ",
                            akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (outcomes, i), "turnId"), NULL),
                            akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (outcomes, i), "kind"), NULL));
  kinds = g_string_free (seen, FALSE);
  g_assert_cmpstr (kinds, ==, "turn-1:fallback turn-2:error turn-3:text ");
}

int
main (int    argc,
      char **argv)
{
  static const char * const applications[] = {
    "hello-world.json", "support.json", "onboarding.json", "operations.json", "rag.json",
  };

  gtk_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, ==, 3);
  akc_path = argv[1];
  fixtures_dir = argv[2];

  for (guint i = 0; i < G_N_ELEMENTS (applications); i++)
    {
      g_autofree char *name = g_strdup_printf ("/renderer-parity/%s", applications[i]);

      g_test_add_data_func (name, applications[i], test_reference_application);
    }
  g_test_add_func ("/renderer-parity/fallback-and-diagnostic", test_fallback_and_diagnostic);

  return g_test_run ();
}

/* test-knowledge.c: local knowledge in the main window (application.md §9),
 * in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 *
 * The site configuration and the knowledge artifact are written to a
 * temporary directory from application/deterministic.json: the reference
 * fixture artifact, and the same artifact with a tampered answer under its
 * unchanged declared hash. The fixture artifact expires on 2026-07-14; the
 * window's knowledge is read against a fixed clock before that, except
 * where expiry is what is tested.
 */

#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>
#include <akc-gtk.h>

#include "akc-window.h"
#include "akc-test-ui.h"

#define SITE_ID      "agentskit-docs"
#define FIXTURE_HASH "sha256:d1b98e69dcb00985dc5fdad4a8475f926168e6485e85716758ad5e0f35cd4906"

static char *tmpdir;

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
fixture_artifact (const char *case_name)
{
  g_autofree char *path = g_build_filename (g_getenv ("AKC_FIXTURES_DIR"), "application",
                                            "deterministic.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcJsonValue) cases = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &text, &len, &error));
  g_assert_no_error (error);
  cases = akc_json_value_parse (text, len, &error);
  g_assert_no_error (error);

  for (gsize i = 0; i < akc_json_value_get_length (cases); i++)
    {
      AkcJsonValue *c = akc_json_value_get_element (cases, i);

      if (g_strcmp0 (akc_json_value_get_string (akc_json_value_get_member (c, "name"), NULL), case_name) == 0)
        return akc_json_value_ref (akc_json_value_get_member (akc_json_value_get_member (c, "input"), "artifact"));
    }
  g_error ("fixture case “%s” not found", case_name);
  return NULL;
}

static GFile *
write_file (const char *name,
            const char *text,
            gsize       len)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, len, &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static GFile *
write_artifact (const char *name,
                const char *case_name)
{
  g_autoptr(AkcJsonValue) artifact = fixture_artifact (case_name);
  gsize len = 0;
  g_autofree char *text = akc_json_value_to_canonical (artifact, &len);

  return write_file (name, text, len);
}

static GFile *
write_site_config (const char *mode)
{
  g_autofree char *text =
    g_strdup_printf ("{\"protocol\":\"agentskit.chat.site\",\"version\":1,\"siteId\":\"" SITE_ID "\","
                     "\"artifact\":{\"href\":\"/agentskit-chat.knowledge.json\",\"contentHash\":\"" FIXTURE_HASH "\"},"
                     "\"fallback\":{\"mode\":\"%s\"}}", mode);
  g_autofree char *name = g_strdup_printf ("site-%s.json", mode);

  return write_file (name, text, strlen (text));
}

static GFile *
good_artifact (void)
{
  return write_artifact ("knowledge.json", "§9.2 artifact canonical JSON and SHA-256 of the reference fixture");
}

static GFile *
tampered_artifact (void)
{
  return write_artifact ("tampered.json", "§9.2 verify: tampered answer with unchanged declared hash");
}

/* ------------------------------------------------------------------ */
/* Widgets                                                             */
/* ------------------------------------------------------------------ */

static gboolean
is_label_containing (GtkWidget     *widget,
                     gconstpointer  data)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         strstr (gtk_label_get_text (GTK_LABEL (widget)), data) != NULL;
}

static gboolean
is_component (GtkWidget     *widget,
              gconstpointer  data)
{
  return AKC_IS_COMPONENT_VIEW (widget) && gtk_widget_get_mapped (widget) &&
         g_strcmp0 (akc_component_view_get_component_key (AKC_COMPONENT_VIEW (widget)), data) == 0;
}

static gboolean
is_choice_labelled (GtkWidget     *widget,
                    gconstpointer  data)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_has_css_class (widget, "choice") &&
         find_widget (widget, is_label_containing, data) != NULL;
}

static gboolean
is_alert (GtkWidget     *widget,
          gconstpointer  data)
{
  return gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget)) == GTK_ACCESSIBLE_ROLE_ALERT &&
         find_widget (widget, is_label_containing, data) != NULL;
}

static gboolean
is_idle (AkcChatSource *source)
{
  return akc_chat_source_get_status (source) != AKC_CHAT_STATUS_STREAMING;
}

static gint64
before_expiry (gpointer data)
{
  /* 2026-07-13T12:00:00Z */
  return G_GINT64_CONSTANT (1783944000000);
}

static AkcWindow *
new_window (void)
{
  AkcWindow *window = g_object_new (AKC_TYPE_WINDOW, NULL);

  akc_knowledge_layer_set_clock (akc_window_get_knowledge (window), before_expiry, NULL);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
send_and_wait (AkcWindow  *window,
               const char *text)
{
  AkcChatSource *source = akc_window_get_source (window);
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (source, text, &error));
  g_assert_no_error (error);
  wait_for ((Condition) is_idle, source);
}

static const char *
message_content (AkcWindow *window,
                 guint      position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (akc_window_get_source (window)),
                                                         position);

  g_assert_nonnull (message);
  return akc_message_get_content (message);
}

static guint
n_messages (AkcWindow *window)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (akc_window_get_source (window)));
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

/* An exact question is answered offline, with its citations, without the
 * backend. */
static void
test_exact_question_offline (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  g_autoptr(GFile) site = write_site_config ("disabled");
  g_autoptr(GFile) artifact = good_artifact ();
  AkcKnowledgeLayer *knowledge = akc_window_get_knowledge (window);
  g_autoptr(GSettings) settings = g_settings_new ("io.agentskit.Chat");
  g_autofree char *remembered = NULL;
  GtkWidget *sources;

  akc_window_use_knowledge (window, site, artifact);
  g_assert_cmpint (akc_knowledge_layer_get_state (knowledge), ==, AKC_KNOWLEDGE_STATE_READY);
  g_assert_null (akc_knowledge_layer_get_warning (knowledge));
  g_assert_null (find_widget (root, is_alert, "knowledge"));

  /* Remembered as paths. */
  remembered = g_settings_get_string (settings, "knowledge-artifact");
  g_assert_cmpstr (remembered, ==, g_file_peek_path (artifact));

  send_and_wait (window, "Install CLI");
  g_assert_cmpuint (n_messages (window), ==, 2);
  g_assert_true (g_str_has_prefix (message_content (window, 1), "\x1e" "agentskit.chat.content/1\n"));
  g_assert_nonnull (wait_for_widget (root, is_label_containing, "npm install agentskit"));
  sources = wait_for_widget (root, is_component, "source-list");
  g_assert_nonnull (find_widget (sources, is_label_containing, "Quickstart"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* An ambiguous question offers its choices; a selected choice is sent
 * exactly once, through the reservation hook. */
static void
test_choices_submit_once (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  g_autoptr(GFile) site = write_site_config ("disabled");
  g_autoptr(GFile) artifact = good_artifact ();
  AkcChoiceReservations *reservations = akc_knowledge_layer_get_reservations (akc_window_get_knowledge (window));
  GtkWidget *choices, *choice;
  g_autoptr(AkcJsonValue) event = NULL;

  /* Reservations are kept per session: the shown demo's. */
  const char *session_id = akc_chat_get_session_id (AKC_CHAT (akc_window_get_source (window)));

  g_assert_nonnull (session_id);
  akc_window_use_knowledge (window, site, artifact);
  send_and_wait (window, "docs");
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (reservations, session_id), ==, 1);

  choices = wait_for_widget (root, is_component, "choice-list");
  choice = find_widget (choices, is_choice_labelled, "Registry documentation");
  g_assert_nonnull (choice);
  g_signal_emit_by_name (choice, "clicked");

  /* The choice's value was sent as the next message and answered. */
  g_assert_cmpuint (n_messages (window), ==, 4);
  g_assert_cmpstr (message_content (window, 2), ==, "registry docs");
  wait_for ((Condition) is_idle, akc_window_get_source (window));
  g_assert_nonnull (wait_for_widget (root, is_label_containing, "Registry"));
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (reservations, session_id), ==, 0);
  g_assert_true (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (choices)));

  /* The same selection again (a second click that reached the host) is
   * refused by the interaction controller before it reaches the
   * reservations: nothing is sent, and the card stays answered. */
  event = akc_json_value_parse ("{\"type\":\"select\",\"componentKey\":\"choice-list\",\"choiceId\":\"docs-agentskit\"}",
                                -1, NULL);
  g_signal_emit_by_name (choices, "selection", event);
  wait_for ((Condition) is_idle, akc_window_get_source (window));
  g_assert_cmpuint (n_messages (window), ==, 4);
  g_assert_null (akc_component_view_get_error_message (AKC_COMPONENT_VIEW (choices)));
  g_assert_true (akc_component_view_get_resolved (AKC_COMPONENT_VIEW (choices)));
  g_assert_nonnull (akc_component_view_get_resolution (AKC_COMPONENT_VIEW (choices)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A tampered artifact never answers: the window shows an accessible
 * warning, and the backend still answers. */
static void
test_tampered_warns (void)
{
  AkcWindow *window = new_window ();
  GtkWidget *root = GTK_WIDGET (window);
  g_autoptr(GFile) site = write_site_config ("backend");
  g_autoptr(GFile) artifact = tampered_artifact ();
  AkcKnowledgeLayer *knowledge = akc_window_get_knowledge (window);
  GtkWidget *alert;

  akc_window_use_knowledge (window, site, artifact);
  g_assert_cmpint (akc_knowledge_layer_get_state (knowledge), ==, AKC_KNOWLEDGE_STATE_CORRUPT);

  alert = wait_for_widget (root, is_alert, "failed verification");
  g_assert_true (gtk_widget_get_mapped (alert));
  gtk_test_accessible_assert_role (alert, GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_test_accessible_assert_property (alert, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       akc_knowledge_layer_get_warning (knowledge));
  g_assert_nonnull (strstr (akc_knowledge_layer_get_warning (knowledge), "tampered.json"));
  g_assert_nonnull (strstr (akc_knowledge_layer_get_warning (knowledge), "Questions go to the backend."));

  /* The exact question is not answered locally: the backend answers. */
  send_and_wait (window, "install cli");
  g_assert_cmpstr (message_content (window, 1), ==, "AgentsKit received: install cli");

  /* Stopping the use of the knowledge clears the warning. */
  akc_window_use_knowledge (window, NULL, NULL);
  g_assert_cmpint (akc_knowledge_layer_get_state (knowledge), ==, AKC_KNOWLEDGE_STATE_NONE);
  g_assert_false (gtk_widget_get_visible (alert));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The remembered files are read again, and verified, by the next window;
 * against the real clock the fixture artifact has expired: it warns and
 * the backend answers. */
static void
test_remembered_and_expired (void)
{
  g_autoptr(GFile) site = write_site_config ("backend");
  g_autoptr(GFile) artifact = good_artifact ();
  AkcWindow *first = new_window ();
  AkcWindow *window;
  AkcKnowledgeLayer *knowledge;

  akc_window_use_knowledge (first, site, artifact);
  g_assert_cmpint (akc_knowledge_layer_get_state (akc_window_get_knowledge (first)), ==, AKC_KNOWLEDGE_STATE_READY);
  gtk_window_destroy (GTK_WINDOW (first));

  window = g_object_new (AKC_TYPE_WINDOW, NULL);
  gtk_window_present (GTK_WINDOW (window));
  knowledge = akc_window_get_knowledge (window);
  g_assert_cmpint (akc_knowledge_layer_get_state (knowledge), ==, AKC_KNOWLEDGE_STATE_STALE);
  g_assert_nonnull (wait_for_widget (GTK_WIDGET (window), is_alert, "expired"));

  send_and_wait (window, "install cli");
  g_assert_cmpstr (message_content (window, 1), ==, "AgentsKit received: install cli");

  akc_window_use_knowledge (window, NULL, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  tmpdir = g_dir_make_tmp ("akc-knowledge-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/knowledge/exact-question-offline", test_exact_question_offline);
  g_test_add_func ("/knowledge/choices-submit-once", test_choices_submit_once);
  g_test_add_func ("/knowledge/tampered-warns", test_tampered_warns);
  g_test_add_func ("/knowledge/remembered-and-expired", test_remembered_and_expired);

  status = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmpdir, name, NULL);

        g_unlink (path);
      }
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);

  return status;
}

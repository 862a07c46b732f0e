/* test-message-extras.c: the history keeps a message's attachments, a
 * reply's token usage (issue 15 items 3 and 4) and why a failed reply
 * failed, bounded, and lets them go with their message and their
 * conversation; and the unsent draft of a conversation
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-store-test.h"

/* A real 2 × 1 PNG. */
static const guint8 png[] = {
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
  0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x57, 0xdd, 0x52,
  0xf8, 0x00, 0x00, 0x00, 0x0b, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x68, 0x68, 0x00, 0x00,
  0x01, 0x02, 0x00, 0x81, 0x1f, 0x7d, 0xf1, 0x1e, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
  0xae, 0x42, 0x60, 0x82,
};

static AkcMessage *
message (const char     *id,
         AkcMessageRole  role,
         const char     *content)
{
  return akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE);
}

static void
test_attachments_and_usage (void)
{
  g_autofree char *path = akc_test_path ("extras.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GBytes) png_bytes = g_bytes_new_static (png, sizeof png);
  g_autoptr(GBytes) text_bytes = g_bytes_new_static ("Grüße\0", strlen ("Grüße"));
  g_autoptr(AkcAttachment) image = akc_attachment_new_image ("dot.png", png_bytes, NULL);
  g_autoptr(AkcAttachment) text = akc_attachment_new_text ("notes.txt", text_bytes, NULL);
  g_autoptr(AkcMessage) user = message ("u1", AKC_MESSAGE_ROLE_USER, "What is it?");
  g_autoptr(AkcMessage) reply = message ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "A dot.");
  g_autoptr(AkcUsage) usage = akc_usage_new (812, 14, G_MAXUINT64);
  g_autoptr(AkcUsage) grown = akc_usage_new (812, 20, 832);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(AkcMessage) got_user = NULL;
  g_autoptr(AkcMessage) got_reply = NULL;
  g_autoptr(AkcAttachment) got_image = NULL;
  g_autoptr(AkcAttachment) got_text = NULL;
  g_autoptr(GError) error = NULL;
  AkcMessage *messages[2] = { user, reply };

  g_assert_nonnull (image);
  g_assert_nonnull (text);
  akc_message_add_attachment (user, image);
  akc_message_add_attachment (user, text);
  akc_message_set_usage (reply, usage);

  info = akc_test_create (memory, "c", "Pictures", &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (memory, "c", 0, 0, messages, 2, &error));
  g_assert_no_error (error);
  /* A reply's usage grows while it streams: the last save wins. */
  akc_message_set_usage (reply, grown);
  g_assert_true (akc_test_save (memory, "c", reply, &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));

  /* Another process, later. */
  memory = akc_test_open (path);
  loaded = akc_test_load (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, 2);
  got_user = g_list_model_get_item (loaded, 0);
  got_reply = g_list_model_get_item (loaded, 1);
  g_assert_cmpuint (g_list_model_get_n_items (akc_message_get_attachments (got_user)), ==, 2);
  got_image = g_list_model_get_item (akc_message_get_attachments (got_user), 0);
  got_text = g_list_model_get_item (akc_message_get_attachments (got_user), 1);
  g_assert_cmpint (akc_attachment_get_kind (got_image), ==, AKC_ATTACHMENT_KIND_IMAGE);
  g_assert_cmpstr (akc_attachment_get_name (got_image), ==, "dot.png");
  g_assert_cmpstr (akc_attachment_get_mime_type (got_image), ==, "image/png");
  g_assert_cmpuint (akc_attachment_get_width (got_image), ==, 2);
  g_assert_true (g_bytes_equal (akc_attachment_get_data (got_image), png_bytes));
  g_assert_cmpint (akc_attachment_get_kind (got_text), ==, AKC_ATTACHMENT_KIND_TEXT);
  g_assert_cmpstr (akc_attachment_get_name (got_text), ==, "notes.txt");
  g_assert_true (g_bytes_equal (akc_attachment_get_data (got_text), text_bytes));
  g_assert_null (akc_message_get_usage (got_user));
  g_assert_nonnull (akc_message_get_usage (got_reply));
  g_assert_true (akc_usage_equal (akc_message_get_usage (got_reply), grown));
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_attachments"), ==, 2);

  /* A retried turn takes its messages away: their extras go with them. */
  g_assert_true (akc_test_splice (memory, "c", 0, 2, NULL, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_attachments"), ==, 0);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_usage"), ==, 0);

  /* And a deleted conversation takes everything. */
  g_assert_true (akc_test_splice (memory, "c", 0, 0, messages, 2, &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_attachments"), ==, 2);
  g_assert_true (akc_test_delete (memory, "c", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_attachments"), ==, 0);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_usage"), ==, 0);

  akc_test_close (g_steal_pointer (&memory));
}

/* An attachment changed on disk into something that is not one is a
 * damaged history, said so, not a crash or a half-loaded message. */
static void
test_damaged_attachment (void)
{
  g_autofree char *path = akc_test_path ("damaged.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GBytes) png_bytes = g_bytes_new_static (png, sizeof png);
  g_autoptr(AkcAttachment) image = akc_attachment_new_image ("dot.png", png_bytes, NULL);
  g_autoptr(AkcMessage) user = message ("u1", AKC_MESSAGE_ROLE_USER, "What is it?");
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(GError) error = NULL;

  akc_message_add_attachment (user, image);
  info = akc_test_create (memory, "c", "Pictures", &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_append (memory, "c", user, &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));

  akc_test_sql_exec (path, "UPDATE message_attachments SET data = x'00010203'");
  memory = akc_test_open (path);
  loaded = akc_test_load (memory, "c", &error);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_CORRUPT);
  g_assert_null (loaded);
  akc_test_close (g_steal_pointer (&memory));
}

/* A failed reply keeps why its turn failed (issue 15: its note says the
 * same after a restart); the error goes with its message; a history of
 * an older release, which has the other side tables but not this one,
 * gets it when it opens. */
static void
test_error (void)
{
  g_autofree char *path = akc_test_path ("errors.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcMessage) user = message ("u1", AKC_MESSAGE_ROLE_USER, "Hello?");
  g_autoptr(AkcMessage) reply = akc_message_new ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcDiagnostic) refused = akc_diagnostic_new ("PROVIDER_UNAUTHORIZED",
                                                         "The provider at http://127.0.0.1:1 refused the API key (401). "
                                                         "Check the key stored for it, or store one. Größe",
                                                         TRUE, NULL);
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(GListModel) loaded = NULL;
  g_autoptr(AkcMessage) got_user = NULL;
  g_autoptr(AkcMessage) got_reply = NULL;
  g_autoptr(GError) error = NULL;
  AkcMessage *messages[2] = { user, reply };

  info = akc_test_create (memory, "c", "Errors", &error);
  g_assert_no_error (error);
  g_assert_true (akc_test_splice (memory, "c", 0, 0, messages, 2, &error));
  g_assert_no_error (error);
  /* The turn fails after the reply was written: a save carries it. */
  akc_message_set_error (reply, refused);
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_ERROR);
  g_assert_true (akc_test_save (memory, "c", reply, &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));

  memory = akc_test_open (path);
  loaded = akc_test_load (memory, "c", &error);
  g_assert_no_error (error);
  got_user = g_list_model_get_item (loaded, 0);
  got_reply = g_list_model_get_item (loaded, 1);
  g_assert_null (akc_message_get_error (got_user));
  g_assert_nonnull (akc_message_get_error (got_reply));
  g_assert_cmpint (akc_message_get_status (got_reply), ==, AKC_MESSAGE_STATUS_ERROR);
  g_assert_cmpstr (akc_diagnostic_get_code (akc_message_get_error (got_reply)), ==, "PROVIDER_UNAUTHORIZED");
  g_assert_cmpstr (akc_diagnostic_get_message (akc_message_get_error (got_reply)), ==,
                   akc_diagnostic_get_message (refused));

  /* Retried: the failed reply goes, and its error with it. */
  g_assert_true (akc_test_splice (memory, "c", 1, 1, NULL, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_errors"), ==, 0);
  akc_test_close (g_steal_pointer (&memory));

  /* A file from before message_errors: it is added when the file opens. */
  akc_test_sql_exec (path, "DROP TRIGGER message_errors_go_with_message; DROP TABLE message_errors");
  memory = akc_test_open (path);
  g_assert_true (akc_test_splice (memory, "c", 1, 0, (AkcMessage *[]) { reply }, 1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_errors"), ==, 1);
  g_assert_true (akc_test_delete (memory, "c", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM message_errors"), ==, 0);
  akc_test_close (g_steal_pointer (&memory));
}

static char *
load_draft (AkcChatMemory  *memory,
            const char     *conversation_id,
            GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_load_draft_async (AKC_SQLITE_CHAT_MEMORY (memory), conversation_id, NULL,
                                           akc_test_store_result, &result);
  return akc_sqlite_chat_memory_load_draft_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), error);
}

static gboolean
save_draft (AkcChatMemory  *memory,
            const char     *conversation_id,
            const char     *text,
            GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_save_draft_async (AKC_SQLITE_CHAT_MEMORY (memory), conversation_id, text, NULL,
                                           akc_test_store_result, &result);
  return akc_sqlite_chat_memory_save_draft_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), error);
}

/* What was typed and not sent stays with its conversation (the composer
 * shows it again after a restart): read back after reopening, replaced,
 * cleared by an empty draft (no row), each conversation its own, gone
 * with its conversation; a file from before the table gets it. */
static void
test_draft (void)
{
  g_autofree char *path = akc_test_path ("drafts.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) first = NULL;
  g_autoptr(AkcConversationInfo) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *draft = NULL;

  first = akc_test_create (memory, "c", "Drafts", &error);
  g_assert_no_error (error);
  second = akc_test_create (memory, "d", "Other", &error);
  g_assert_no_error (error);

  draft = load_draft (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (draft, ==, "");
  g_clear_pointer (&draft, g_free);

  g_assert_true (save_draft (memory, "c", "Half a thought,\nGrüße", &error));
  g_assert_no_error (error);
  g_assert_true (save_draft (memory, "d", "Another one", &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));

  memory = akc_test_open (path);
  draft = load_draft (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (draft, ==, "Half a thought,\nGrüße");
  g_clear_pointer (&draft, g_free);

  g_assert_true (save_draft (memory, "c", "Half a thought, finished", &error));
  g_assert_no_error (error);
  draft = load_draft (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (draft, ==, "Half a thought, finished");
  g_clear_pointer (&draft, g_free);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversation_drafts"), ==, 2);

  /* Sent: an empty draft leaves no row. */
  g_assert_true (save_draft (memory, "c", "", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversation_drafts WHERE conversation_id = 'c'"), ==, 0);
  draft = load_draft (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (draft, ==, "");
  g_clear_pointer (&draft, g_free);
  draft = load_draft (memory, "d", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (draft, ==, "Another one");
  g_clear_pointer (&draft, g_free);

  /* Deleted: its draft goes with it; one written late is not kept. */
  g_assert_true (akc_test_delete (memory, "d", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversation_drafts"), ==, 0);
  g_assert_true (save_draft (memory, "d", "Too late", &error));
  g_assert_no_error (error);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversation_drafts"), ==, 0);

  /* A bad id is refused. */
  g_assert_false (save_draft (memory, "no such id!", "x", &error));
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_INVALID);
  g_clear_error (&error);
  akc_test_close (g_steal_pointer (&memory));

  /* A file from before conversation_drafts: it is added when the file opens. */
  akc_test_sql_exec (path, "DROP TABLE conversation_drafts");
  memory = akc_test_open (path);
  g_assert_true (save_draft (memory, "c", "Kept", &error));
  g_assert_no_error (error);
  akc_test_close (g_steal_pointer (&memory));
  memory = akc_test_open (path);
  draft = load_draft (memory, "c", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (draft, ==, "Kept");
  akc_test_close (g_steal_pointer (&memory));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/history/extras/attachments-and-usage", test_attachments_and_usage);
  g_test_add_func ("/history/extras/damaged-attachment", test_damaged_attachment);
  g_test_add_func ("/history/extras/error", test_error);
  g_test_add_func ("/history/extras/draft", test_draft);

  return g_test_run ();
}

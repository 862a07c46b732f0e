/* test-conversations.c: many conversations (issue 14): the application's
 * session of conversations and assistants, the sidebar's model, and
 * windows bound to one session
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <akc-gtk.h>
#include <json-glib/json-glib.h>

#include "akc-app-session.h"
#include "akc-conversation-model.h"
#include "akc-demo.h"
#include "akc-sidebar-model.h"
#include "akc-window.h"
#include "akc-window-private.h"
#include "akc-test-app.h"

/* A history of the test's own, in a temporary folder, the memory on it
 * and a session listing it: what the tests here start from. */
typedef struct
{
  char          *folder;
  char          *path;
  AkcChatMemory *memory;
  AkcAppSession *session;
} History;

/* Opens the history (its folder made the first time), to fill it before
 * it is listed. */
static AkcChatMemory *
history_open (History *history)
{
  if (history->folder == NULL)
    {
      g_autoptr(GError) error = NULL;

      history->folder = g_dir_make_tmp ("akc-conversations-XXXXXX", &error);
      g_assert_no_error (error);
      history->path = g_build_filename (history->folder, "history.sqlite3", NULL);
    }
  if (history->memory == NULL)
    history->memory = akc_test_open (history->path);

  return history->memory;
}

/* A session on the history (opened if it is not), once it is listed. */
static AkcAppSession *
history_list (History *history)
{
  history_open (history);
  if (history->session == NULL)
    history->session = akc_test_app_session_new (history->memory);

  return history->session;
}

static void
history_close (History *history)
{
  if (history->session != NULL)
    akc_test_app_session_close (history->session, g_steal_pointer (&history->memory));
  g_clear_object (&history->session);
  g_clear_object (&history->memory);
}

/* As the application quits (every write done) and starts again on the
 * same file: the new session. */
static AkcAppSession *
history_restart (History *history)
{
  history_close (history);

  return history_list (history);
}

/* Closes the history and removes its folder. */
static void
history_clear (History *history)
{
  history_close (history);
  akc_test_remove_tree (history->folder);
  g_clear_pointer (&history->folder, g_free);
  g_clear_pointer (&history->path, g_free);
}

static void
wait_loaded (AkcConversationItem *item)
{
  WAIT_UNTIL (!(akc_conversation_item_get_history (item) != NULL && !akc_chat_history_get_loaded (akc_conversation_item_get_history (item))));
}

static void
send (AkcConversationItem *item,
      const char          *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (akc_chat_source_send (akc_conversation_item_get_source (item), text, &error));
  g_assert_no_error (error);
  wait_until_idle (akc_conversation_item_get_source (item));
}

static AkcConversationItem *
conversation_at (AkcAppSession *session,
                 guint          position)
{
  g_autoptr(AkcConversationItem) item = g_list_model_get_item (akc_app_session_get_conversations (session), position);

  return item;
}

static guint
n_conversations (AkcAppSession *session)
{
  return g_list_model_get_n_items (akc_app_session_get_conversations (session));
}

/* New Chat never erases: the first conversation stays, titled from its
 * first message, and both come back after a restart, newest first; a
 * rename is kept; the previous release's conversation is the assistant's
 * first. */
static void
test_new_chat_keeps (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  g_autoptr(GError) error = NULL;
  AkcConversationItem *first, *second, *again;
  g_autofree char *second_id = NULL;

  first = akc_app_session_get_default_conversation (session, "hello-world", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_conversation_item_get_id (first), ==, "demo");
  g_assert_true (akc_app_session_open (session, first, &error));
  g_assert_no_error (error);
  wait_loaded (first);
  send (first, "What is a leaflet?\nAnd a sidebar?");
  g_assert_cmpstr (akc_conversation_item_get_title (first), ==, "What is a leaflet? And a sidebar?");

  second = akc_app_session_new_conversation (session, "hello-world", &error);
  g_assert_no_error (error);
  g_assert_true (second != first);
  /* An empty one is reused, not doubled. */
  g_assert_true (akc_app_session_new_conversation (session, "hello-world", NULL) == second);
  g_assert_true (akc_app_session_open (session, second, &error));
  wait_loaded (second);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_conversation_item_get_source (first))), ==, 2);
  send (second, "Second question");
  second_id = g_strdup (akc_conversation_item_get_id (second));
  g_assert_cmpuint (n_conversations (session), ==, 2);
  g_assert_true (conversation_at (session, 0) == second);
  akc_app_session_rename (session, first, "  Leaflets \n");
  g_assert_cmpstr (akc_conversation_item_get_title (first), ==, "Leaflets");
  /* Pinned: on top, in the history too. */
  akc_app_session_set_pinned (session, first, TRUE);
  g_assert_true (conversation_at (session, 0) == first);

  /* Unknown assistants are refused with an error. */
  g_assert_null (akc_app_session_new_conversation (session, "no-such-assistant", &error));
  g_assert_error (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_UNKNOWN_ASSISTANT);
  g_clear_error (&error);
  g_assert_null (akc_app_session_new_conversation (session, "ask", &error));
  g_assert_error (error, AKC_APP_SESSION_ERROR, AKC_APP_SESSION_ERROR_NOT_SET_UP);
  g_clear_error (&error);


  /* Restart. */
  session = history_restart (&history);
  g_assert_cmpuint (n_conversations (session), ==, 2);
  g_assert_cmpstr (akc_conversation_item_get_id (conversation_at (session, 0)), ==, "demo");
  g_assert_true (akc_conversation_item_get_pinned (conversation_at (session, 0)));
  g_assert_cmpstr (akc_conversation_item_get_title (conversation_at (session, 0)), ==, "Leaflets");
  g_assert_cmpstr (akc_conversation_item_get_id (conversation_at (session, 1)), ==, second_id);
  g_assert_cmpstr (akc_conversation_item_get_title (conversation_at (session, 1)), ==, "Second question");
  g_assert_false (akc_conversation_item_get_pinned (conversation_at (session, 1)));
  again = akc_app_session_get_default_conversation (session, "hello-world", NULL);
  g_assert_cmpstr (akc_conversation_item_get_id (again), ==, second_id);
  again = akc_app_session_lookup_conversation (session, "demo");
  g_assert_true (akc_app_session_open (session, again, NULL));
  wait_loaded (again);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_conversation_item_get_source (again))), ==, 2);

  history_clear (&history);
}

/* Removing hides at once; restore brings it back; only purge (or a clean
 * close) deletes from the history. */
static void
test_remove_restore_purge (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  AkcConversationItem *items[3];
  guint removal;

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autofree char *text = g_strdup_printf ("message %u", i);

      items[i] = i == 0 ? akc_app_session_get_default_conversation (session, "support", NULL)
                        : akc_app_session_new_conversation (session, "support", NULL);
      g_assert_true (akc_app_session_open (session, items[i], NULL));
      wait_loaded (items[i]);
      send (items[i], text);
    }
  g_assert_cmpuint (n_conversations (session), ==, 3);

  removal = akc_app_session_remove (session, &items[1], 1);
  g_assert_cmpuint (removal, !=, 0);
  g_assert_cmpuint (n_conversations (session), ==, 2);
  g_assert_null (akc_app_session_lookup_conversation (session, akc_conversation_item_get_id (items[1])));
  akc_app_session_restore (session, removal);
  g_assert_cmpuint (n_conversations (session), ==, 3);
  g_assert_true (conversation_at (session, 1) == items[1]);

  /* Deleted for good: gone after a restart. */
  removal = akc_app_session_remove (session, &items[1], 1);
  akc_app_session_purge (session, removal);
  /* Still offered for undo at quit: deleted by the clean close. */
  akc_app_session_remove (session, &items[2], 1);
  g_assert_cmpuint (n_conversations (session), ==, 1);

  session = history_restart (&history);
  g_assert_cmpuint (n_conversations (session), ==, 1);
  g_assert_cmpstr (akc_conversation_item_get_id (conversation_at (session, 0)), ==, "demo-support");
  history_clear (&history);
}

static GHashTable *
search (AkcAppSession *session,
        const char    *text)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *found;

  akc_app_session_search_async (session, text, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  found = akc_app_session_search_finish (session, result, &error);
  g_assert_no_error (error);

  return found;
}

/* The sidebar's search finds conversations by the text of their messages
 * too (the history's full-text index); an export as JSON imports back into
 * a new conversation with every message; a file that is not an export is
 * refused and nothing is imported. */
static void
test_search_export_import (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  g_autoptr(GHashTable) found = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) json = NULL;
  g_autoptr(GBytes) markdown = NULL;
  g_autoptr(GBytes) junk = NULL;
  g_autoptr(AkcConversationItem) imported = NULL;
  g_autoptr(GError) error = NULL;
  const char *not_an_export = "{\"not\": \"an export\"}";
  AkcConversationItem *item;
  guint n;

  item = akc_app_session_get_default_conversation (session, "support", NULL);
  g_assert_true (akc_app_session_open (session, item, NULL));
  wait_loaded (item);
  send (item, "Where is my parcel?");
  akc_app_session_rename (session, item, "Delivery");

  /* By a word of a message, not of the title. */
  found = search (session, "parcel");
  g_assert_true (g_hash_table_contains (found, akc_conversation_item_get_id (item)));
  g_clear_pointer (&found, g_hash_table_unref);
  found = search (session, "zebra");
  g_assert_cmpuint (g_hash_table_size (found), ==, 0);

  akc_app_session_export_async (session, item, FALSE, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  json = akc_app_session_export_finish (session, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  akc_app_session_export_async (session, item, TRUE, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  markdown = akc_app_session_export_finish (session, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (markdown, NULL), g_bytes_get_size (markdown), "Where is my parcel?"));

  n = n_conversations (session);
  akc_app_session_import_async (session, json, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  imported = akc_app_session_import_finish (session, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpuint (n_conversations (session), ==, n + 1);
  g_assert_cmpstr (akc_conversation_item_get_id (imported), !=, akc_conversation_item_get_id (item));
  g_assert_cmpstr (akc_assistant_get_id (akc_conversation_item_get_assistant (imported)), ==, "support");
  g_assert_cmpstr (akc_conversation_item_get_title (imported), ==, "Delivery");
  g_assert_true (akc_app_session_open (session, imported, NULL));
  wait_loaded (imported);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_conversation_item_get_source (imported))), ==, 2);

  junk = g_bytes_new_static (not_an_export, strlen (not_an_export));
  akc_app_session_import_async (session, junk, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_null (akc_app_session_import_finish (session, result, &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (n_conversations (session), ==, n + 1);

  g_clear_object (&imported);
  history_clear (&history);
}

/* Pinned on top, then Today, Yesterday, Previous 7 Days and months. */
static void
test_sidebar_groups (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(AkcAppSession) session = akc_app_session_new (settings);
  g_autoptr(GListStore) store = g_list_store_new (AKC_TYPE_CONVERSATION_ITEM);
  g_autoptr(AkcSidebarModel) model = akc_sidebar_model_new (G_LIST_MODEL (store));
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  AkcAssistant *hello = akc_app_session_lookup_assistant (session, "hello-world");
  const int days_ago[] = { 0, 0, 1, 3, 40, 41, 400 };
  g_autoptr(GPtrArray) headings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(AkcConversationItem) pinned = NULL;
  g_autofree char *relative = NULL;
  guint n_items = 0;

  for (guint i = 0; i < G_N_ELEMENTS (days_ago); i++)
    {
      g_autoptr(GDateTime) when = g_date_time_add_days (now, -days_ago[i]);
      g_autoptr(GDateTime) earlier = g_date_time_add_seconds (when, -(double) i);
      g_autofree char *id = g_strdup_printf ("hello-world:%u", i);
      g_autoptr(AkcConversationItem) item = akc_conversation_item_new (id, hello, id, earlier, earlier);

      g_list_store_insert_sorted (store, item, akc_conversation_item_compare, NULL);
    }
  pinned = akc_conversation_item_new ("hello-world:pinned", hello, "Pinned one", NULL, NULL);
  akc_conversation_item_set_pinned (pinned, TRUE);
  {
    g_autoptr(GDateTime) old = g_date_time_add_days (now, -900);

    akc_conversation_item_set_updated_at (pinned, old);
  }
  g_list_store_insert_sorted (store, pinned, akc_conversation_item_compare, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (G_LIST_MODEL (model), i);

      if (GTK_IS_STRING_OBJECT (object))
        g_ptr_array_add (headings, g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (object))));
      else
        n_items++;
    }
  g_assert_cmpuint (n_items, ==, G_N_ELEMENTS (days_ago) + 1);
  /* Pinned, Today, Yesterday, Previous 7 Days, then months (two or
   * three: 40 and 41 days ago may share one). */
  g_assert_cmpuint (headings->len, >=, 6);
  g_assert_cmpstr (g_ptr_array_index (headings, 0), ==, "Pinned");
  g_assert_cmpstr (g_ptr_array_index (headings, 1), ==, "Today");
  g_assert_cmpstr (g_ptr_array_index (headings, 2), ==, "Yesterday");
  g_assert_cmpstr (g_ptr_array_index (headings, 3), ==, "Previous 7 Days");
  {
    g_autoptr(GObject) top = g_list_model_get_item (G_LIST_MODEL (model), 1);

    g_assert_true (top == (GObject *) pinned);
  }

  /* Unpinned, it goes down to its month; the list changes only there. */
  akc_conversation_item_set_pinned (pinned, FALSE);
  {
    guint position;

    g_assert_true (g_list_store_find (store, pinned, &position));
    g_list_store_remove (store, position);
    g_list_store_insert_sorted (store, pinned, akc_conversation_item_compare, NULL);
  }
  {
    g_autoptr(GObject) top = g_list_model_get_item (G_LIST_MODEL (model), 0);

    g_assert_cmpstr (gtk_string_object_get_string (GTK_STRING_OBJECT (top)), ==, "Today");
  }

  relative = akc_sidebar_model_relative_time (now, now);
  g_assert_cmpstr (relative, ==, "Just now");
  g_clear_pointer (&relative, g_free);
  {
    g_autoptr(GDateTime) before = g_date_time_add_minutes (now, -5);

    relative = akc_sidebar_model_relative_time (before, now);
    g_assert_cmpstr (relative, ==, "5 minutes ago");
  }
}

/* Two windows on one session: the same conversation shows the same
 * messages in both; a second window on another conversation; New Chat in
 * one window shows in the other's sidebar; a conversation deleted in one
 * is not shown by the other. */
static void
test_two_windows (void)
{
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestConversations", G_APPLICATION_NON_UNIQUE);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(AkcAppSession) session = akc_app_session_new (settings);
  g_autoptr(GError) error = NULL;
  AkcWindow *one, *two;
  AkcConversationItem *shown, *fresh;
  guint removal, n;

  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  one = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  two = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (one));
  gtk_window_present (GTK_WINDOW (two));
  g_assert_true (akc_window_get_session (one) == session);

  akc_window_set_conversation (one, "support");
  akc_window_set_conversation (two, "support");
  shown = akc_window_get_item (one);
  g_assert_true (akc_window_get_item (two) == shown);
  g_assert_true (akc_window_get_source (one) == akc_window_get_source (two));
  send (shown, "from the first window");
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_window_get_source (two))), ==, 2);
  g_assert_cmpstr (akc_conversation_item_get_title (akc_window_get_item (two)), ==, "from the first window");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (two)), ==, "from the first window");

  n = n_conversations (session);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (two), "win.new-chat", NULL));
  fresh = akc_window_get_item (two);
  g_assert_true (fresh != shown);
  g_assert_true (akc_window_get_item (one) == shown);
  g_assert_cmpuint (n_conversations (session), ==, n + 1);

  /* The assistant is chosen when starting: New Chat With… */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (one), "win.new-chat-with", "s", "onboarding"));
  g_assert_cmpstr (akc_window_get_conversation (one), ==, "onboarding");
  g_assert_cmpuint (n_conversations (session), ==, n + 2);

  /* Removed in one window: the other shows another. */
  akc_window_show_item (one, shown);
  removal = akc_app_session_remove (session, &shown, 1);
  g_assert_true (akc_window_get_item (one) != shown);
  g_assert_cmpuint (removal, !=, 0);
  akc_app_session_restore (session, removal);

  gtk_window_destroy (GTK_WINDOW (one));
  gtk_window_destroy (GTK_WINDOW (two));
}

static GtkWidget *
find_sidebar (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    {
      GtkSelectionModel *model = gtk_list_view_get_model (GTK_LIST_VIEW (widget));

      if (GTK_IS_SINGLE_SELECTION (model) &&
          AKC_IS_SIDEBAR_MODEL (gtk_single_selection_get_model (GTK_SINGLE_SELECTION (model))))
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_sidebar (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* While the history is being opened (the application opens it after the
 * window's first frame), the sidebar shows its list, empty, not "No
 * Conversations": the history may have some. Once it is read, the list
 * shows what it has. */
static void
test_sidebar_before_history (void)
{
  History history = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcChatMemory *memory = history_open (&history);
  AkcAppSession *session = akc_app_session_new (settings);
  GtkWidget *sidebar, *said;
  GtkStack *stack;
  AkcWindow *window;

  akc_app_session_expect_memory (session);
  window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (GTK_WIDGET (window), 2);
  sidebar = find_sidebar (GTK_WIDGET (window));
  g_assert_nonnull (sidebar);
  stack = GTK_STACK (gtk_widget_get_ancestor (sidebar, GTK_TYPE_STACK));
  g_assert_nonnull (stack);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "list");
  said = find_widget (GTK_WIDGET (window), is_label_with_text, "No Conversations");
  g_assert_true (said == NULL || !gtk_widget_get_mapped (said));

  /* Read: the window's new chat is listed. */
  akc_app_session_set_memory (session, memory);
  WAIT_UNTIL (akc_app_session_get_ready (session));
  WAIT_UNTIL (find_widget (sidebar, is_visible_label, "New Chat") != NULL);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "list");

  gtk_window_destroy (GTK_WINDOW (window));
  history.session = session;
  history_clear (&history);
}

/* Enter (or a click) on the sidebar's row of @item. */
static void
activate_row (GtkWidget           *sidebar,
              AkcConversationItem *item)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (sidebar)));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (rows, i);

      if (object == (GObject *) item)
        {
          g_signal_emit_by_name (sidebar, "activate", i);
          return;
        }
    }
  g_assert_not_reached ();
}

/* Many at once: the selection mode checks rows (Enter or a click), Delete
 * removes the checked ones with one toast, and its undo brings them all
 * back; a conversation deleted while shown gives way to a new one of the
 * same assistant, never to a second copy of the deleted one. */
static void
test_selection_mode (void)
{
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestSelection", G_APPLICATION_NON_UNIQUE);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(AkcAppSession) session = akc_app_session_new (settings);
  g_autoptr(GError) error = NULL;
  const char *assistants[] = { "hello-world", "support", "onboarding" };
  AkcConversationItem *items[3];
  GtkWidget *sidebar;
  AkcWindow *window;
  guint n;

  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  window = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  akc_window_set_conversation (window, "hello-world");
  for (guint i = 0; i < G_N_ELEMENTS (assistants); i++)
    {
      if (i > 0)
        g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.new-chat-with", "s", assistants[i]));
      items[i] = akc_window_get_item (window);
      send (items[i], assistants[i]);
    }
  n = n_conversations (session);
  sidebar = find_sidebar (GTK_WIDGET (window));
  g_assert_nonnull (sidebar);

  g_assert_cmpstr (akc_conversation_item_get_id (items[0]), ==, "demo");
  akc_window_show_item (window, items[0]);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.selection-mode", NULL));
  activate_row (sidebar, items[0]);
  activate_row (sidebar, items[2]);
  activate_row (sidebar, items[1]);
  activate_row (sidebar, items[1]);  /* checked, then unchecked */
  g_assert_true (akc_window_get_item (window) == items[0]);  /* checking shows nothing */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-selected", NULL));
  /* Two gone, and a new one for the window, whose conversation went. */
  g_assert_cmpuint (n_conversations (session), ==, n - 1);
  g_assert_nonnull (akc_app_session_lookup_conversation (session, akc_conversation_item_get_id (items[1])));
  g_assert_null (akc_app_session_lookup_conversation (session, akc_conversation_item_get_id (items[0])));
  /* The shown one went: the window shows a new one of its assistant,
   * not the deleted one's id again (before, both came back on undo). */
  g_assert_true (akc_window_get_item (window) != items[0]);
  g_assert_cmpstr (akc_window_get_conversation (window), ==, "hello-world");
  g_assert_cmpstr (akc_conversation_item_get_id (akc_window_get_item (window)), !=, "demo");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.undo-delete", NULL));
  g_assert_nonnull (akc_app_session_lookup_conversation (session, akc_conversation_item_get_id (items[0])));
  g_assert_nonnull (akc_app_session_lookup_conversation (session, akc_conversation_item_get_id (items[2])));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The row of @item in the sidebar, or -1, without reading more. */
static int
row_of_item (GtkWidget           *sidebar,
             AkcConversationItem *item)
{
  GtkSelectionModel *selection = gtk_list_view_get_model (GTK_LIST_VIEW (sidebar));
  AkcSidebarModel *rows = AKC_SIDEBAR_MODEL (gtk_single_selection_get_model (GTK_SINGLE_SELECTION (selection)));
  guint position;

  return akc_sidebar_model_find (rows, item, &position) ? (int) position : -1;
}

static AkcConversationItem *
selected_in (GtkWidget *sidebar)
{
  GtkSelectionModel *selection = gtk_list_view_get_model (GTK_LIST_VIEW (sidebar));
  gpointer item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  return AKC_IS_CONVERSATION_ITEM (item) ? item : NULL;
}

#define N_STORED 300

/* The sidebar reads the history in pages: the first page only at the
 * start, the next one when a view asks for a row near the end; a search
 * finds a conversation of a page not read yet and lists it; rename,
 * delete and undo work on it; the selection stays on its conversation
 * while others move. */
static void
test_sidebar_pages (void)
{
  History history = { 0 };
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestPages", G_APPLICATION_NON_UNIQUE);
  AkcChatMemory *memory = history_open (&history);
  AkcAppSession *session = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *target_id = NULL;
  g_autofree char *word = NULL;
  AkcConversationItem *target = NULL, *shown, *other;
  GtkWidget *sidebar, *entry, *focus;
  AkcWindow *window;
  guint n_first, removal;

  for (guint i = 0; i < N_STORED; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(AkcConversationInfo) info = NULL;
      g_autofree char *id = g_strdup_printf ("support:page-%03u", i);
      g_autofree char *title = g_strdup_printf ("Question q%03u", i);

      akc_chat_memory_create_conversation_full_async (memory, id, "support", title, NULL, akc_test_store_result, &result);
      WAIT_UNTIL (result != NULL);
      info = akc_chat_memory_create_conversation_full_finish (memory, result, &error);
      g_assert_no_error (error);
    }

  session = history_list (&history);
  n_first = n_conversations (session);
  /* One page, not the whole history. */
  g_assert_cmpuint (n_first, >=, 32);
  g_assert_cmpuint (n_first, <, N_STORED);
  /* A conversation of a page not read yet. */
  for (guint i = 0; i < N_STORED && target_id == NULL; i++)
    {
      g_autofree char *id = g_strdup_printf ("support:page-%03u", i);

      if (akc_app_session_lookup_conversation (session, id) == NULL)
        {
          target_id = g_steal_pointer (&id);
          word = g_strdup_printf ("q%03u", i);
        }
    }
  g_assert_nonnull (target_id);

  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  window = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  sidebar = find_sidebar (GTK_WIDGET (window));
  g_assert_nonnull (sidebar);
  /* Drawing the window read nothing more. */
  for (guint i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (n_conversations (session), <=, n_first + 1);

  /* Scrolled near the end: the next page. */
  {
    GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (sidebar));

    WAIT_UNTIL (!(gtk_adjustment_get_upper (adjustment) <= gtk_adjustment_get_page_size (adjustment) || gtk_adjustment_get_page_size (adjustment) <= 0));
    /* Laid out and drawn: still one page (and the window's new chat). */
    g_assert_cmpuint (n_conversations (session), <=, n_first + 1);
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
    WAIT_UNTIL (n_conversations (session) > n_first + 1);
    g_assert_cmpuint (n_conversations (session), <, N_STORED);
  }

  /* The selection stays on its conversation while another moves to the
   * top (a message in it). */
  shown = conversation_at (session, 3);
  other = conversation_at (session, 6);
  akc_window_show_item (window, shown);
  g_assert_true (selected_in (sidebar) == shown);
  g_assert_true (akc_app_session_open (session, other, &error));
  wait_loaded (other);
  send (other, "moves it up");
  g_assert_true (conversation_at (session, 0) == other);
  g_assert_true (selected_in (sidebar) == shown);

  /* Ctrl+F: a search finds one of a page not read yet, and lists it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search-conversations", NULL));
  /* The sidebar's entry, which has the keyboard now (the find bar of the
   * conversation has a search entry too). */
  entry = gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), word);
  g_signal_emit_by_name (entry, "search-changed");
  WAIT_UNTIL (!((target = akc_app_session_lookup_conversation (session, target_id)) == NULL || row_of_item (sidebar, target) < 0));
  g_assert_true (g_str_has_suffix (akc_conversation_item_get_title (target), word));
  g_assert_cmpstr (akc_assistant_get_id (akc_conversation_item_get_assistant (target)), ==, "support");
  /* The others are not among the results. */
  g_assert_cmpint (row_of_item (sidebar, shown), <, 0);
  /* Enter in the search: the keyboard on the row of the first one found,
   * where Enter opens it (it was on the list, on no row: Enter did
   * nothing, and no focus ring showed where the keyboard was). */
  wait_frames (GTK_WIDGET (window), 5);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));
  g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (entry)), "activate");
  wait_frames (GTK_WIDGET (window), 2);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_get_parent (focus) == sidebar);
  g_assert_true (g_object_get_data (G_OBJECT (gtk_widget_get_first_child (focus)), "akc-item") == (gpointer) target);
  activate_row (sidebar, target);
  g_assert_true (akc_window_get_item (window) == target);

  /* Rename, delete and undo on it. */
  akc_app_session_rename (session, target, "Renamed from the results");
  g_assert_cmpstr (akc_conversation_item_get_title (target), ==, "Renamed from the results");
  removal = akc_app_session_remove (session, &target, 1);
  g_assert_cmpuint (removal, !=, 0);
  g_assert_cmpint (row_of_item (sidebar, target), <, 0);
  akc_app_session_restore (session, removal);
  g_assert_cmpint (row_of_item (sidebar, target), >=, 0);

  /* The search ends: every conversation read so far again. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_cmpint (row_of_item (sidebar, shown), >=, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  history_clear (&history);
}

#define N_NEWER 150

/* The conversation shown at the start is the newest of the assistant shown
 * last, looked up in the history: with more conversations than the first
 * page of the sidebar, it is found also when it is on a later page (it
 * was opened in place of a new empty one). */
static void
test_default_beyond_first_page (void)
{
  History history = { 0 };
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestDefault", G_APPLICATION_NON_UNIQUE);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcChatMemory *memory = history_open (&history);
  AkcAppSession *session = NULL;
  g_autoptr(GError) error = NULL;
  AkcConversationItem *shown;
  AkcWindow *window;

  /* The oldest conversation is Support's; Hello World's are all newer. */
  for (guint i = 0; i <= N_NEWER; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(AkcConversationInfo) info = NULL;
      g_autofree char *id = i == 0 ? g_strdup ("support:kept") : g_strdup_printf ("hello-world:newer-%03u", i);

      akc_chat_memory_create_conversation_full_async (memory, id, i == 0 ? "support" : "hello-world",
                                                      i == 0 ? "Kept support question" : "Newer", NULL,
                                                      akc_test_store_result, &result);
      WAIT_UNTIL (result != NULL);
      info = akc_chat_memory_create_conversation_full_finish (memory, result, &error);
      g_assert_no_error (error);
    }

  session = history_list (&history);
  /* On a page the sidebar did not read. */
  g_assert_cmpuint (n_conversations (session), <, N_NEWER);
  g_assert_null (akc_app_session_lookup_conversation (session, "support:kept"));

  g_settings_set_string (settings, "conversation", "support");
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  window = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  WAIT_UNTIL ((shown = akc_window_get_item (window)) != NULL);
  g_assert_cmpstr (akc_conversation_item_get_id (shown), ==, "support:kept");
  g_assert_cmpstr (akc_conversation_item_get_title (shown), ==, "Kept support question");
  /* Nothing new was made for Support. */
  g_assert_null (akc_app_session_lookup_conversation (session, "demo-support"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "conversation");
  history_clear (&history);
}

/* The turn server's conversation is listed with the others, with its
 * assistant, while a turn server is set up; deleting it starts a new one
 * on the server, listed in its place. */
static void
test_turn_listed (void)
{
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestTurn", G_APPLICATION_NON_UNIQUE);
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcWindow *window;
  g_autoptr(AkcAppSession) session = NULL;
  g_autoptr(GError) error = NULL;
  AkcConversationItem *turn;
  AkcChatSource *client;
  guint position, removal;

  g_settings_set_string (settings, "turn-endpoint", "http://127.0.0.1:9/turn");
  session = akc_app_session_new (settings);
  turn = akc_app_session_get_default_conversation (session, "turn", &error);
  g_assert_no_error (error);
  g_assert_nonnull (turn);
  g_assert_true (akc_assistant_get_kind (akc_conversation_item_get_assistant (turn)) == AKC_ASSISTANT_KIND_TURN);
  g_assert_true (akc_conversation_model_find (AKC_CONVERSATION_MODEL (akc_app_session_get_conversations (session)),
                                              turn, &position));
  g_assert_true (conversation_at (session, position) == turn);
  g_assert_true (akc_app_session_open (session, turn, &error));
  g_assert_no_error (error);
  client = akc_conversation_item_get_source (turn);
  g_assert_nonnull (client);

  /* In the sidebar's rows too. */
  {
    g_autoptr(AkcSidebarModel) model = akc_sidebar_model_new (akc_app_session_get_conversations (session));

    g_assert_true (akc_sidebar_model_find (model, turn, NULL));
  }

  /* A window showing it while it is deleted shows another. */
  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  window = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  akc_window_show_item (window, turn);
  g_assert_true (akc_window_get_item (window) == turn);

  removal = akc_app_session_remove (session, &turn, 1);
  g_assert_cmpuint (removal, !=, 0);
  g_assert_false (akc_conversation_model_find (AKC_CONVERSATION_MODEL (akc_app_session_get_conversations (session)),
                                               turn, NULL));
  g_assert_nonnull (akc_window_get_item (window));
  g_assert_true (akc_window_get_item (window) != turn);
  gtk_window_destroy (GTK_WINDOW (window));
  akc_app_session_purge (session, removal);
  g_assert_true (akc_conversation_model_find (AKC_CONVERSATION_MODEL (akc_app_session_get_conversations (session)),
                                              turn, NULL));
  g_assert_true (akc_conversation_item_get_source (turn) != client);

  /* No turn server: not listed. */
  g_settings_reset (settings, "turn-endpoint");
  g_assert_false (akc_conversation_model_find (AKC_CONVERSATION_MODEL (akc_app_session_get_conversations (session)),
                                               turn, NULL));
  g_settings_reset (settings, "turn-session");
}

static GtkWidget *
shown_chooser (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (window) && gtk_widget_get_mapped (window))
        return window;
    }

  return NULL;
}

static gboolean
is_shown_entry (GtkWidget     *widget,
                gconstpointer  data)
{
  return GTK_IS_ENTRY (widget) && gtk_widget_is_drawable (widget);
}

/* The file chooser a menu item opened, used as a person does: to save,
 * the path typed in its name entry and Enter; to open, the file chosen
 * and its accept button. */
static void
choose_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  GtkWidget *chooser = NULL;
  GtkWidget *entry;

  WAIT_UNTIL ((chooser = shown_chooser ()) != NULL);
  if (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)) == GTK_FILE_CHOOSER_ACTION_SAVE)
    {
      entry = wait_for_widget (chooser, is_shown_entry, NULL);
      gtk_editable_set_text (GTK_EDITABLE (entry), path);
      /* Enter in its text: the chooser's default, its accept button. */
      g_signal_emit_by_name (gtk_editable_get_delegate (GTK_EDITABLE (entry)), "activate");
    }
  else
    {
      g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, &error));
      g_assert_no_error (error);
      for (gint64 deadline = akc_test_deadline ();; akc_test_iterate (deadline))
        {
          g_autoptr(GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

          if (chosen != NULL && g_file_equal (chosen, file))
            break;
        }
      g_assert_true (gtk_widget_activate (gtk_dialog_get_widget_for_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT)));
    }
  WAIT_UNTIL (shown_chooser () == NULL);
}

/* The message dialog shown over @parent, or NULL. */
static AdwMessageDialog *
shown_message_dialog (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_mapped (window) &&
          gtk_window_get_transient_for (GTK_WINDOW (window)) == parent)
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

static void
store_response (AdwMessageDialog  *dialog,
                const char        *response,
                char             **out)
{
  g_free (*out);
  *out = g_strdup (response);
}

/* Import of @path refused: a dialog over @window, headed with the file's
 * name, says in plain words why (@body) with the error's message under
 * it (@detail), modal, closed by Enter (@enter) or Escape with its one
 * response; nothing is imported and the window keeps its conversation. */
static void
assert_import_refused (AkcWindow  *window,
                       const char *path,
                       const char *body,
                       const char *detail,
                       gboolean    enter)
{
  g_autofree char *response = NULL;
  AkcAppSession *session = akc_window_get_session (window);
  AkcConversationItem *shown = akc_window_get_item (window);
  guint n = n_conversations (session);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *basename = g_path_get_basename (path);
  g_autofree char *heading = g_strdup_printf ("Could Not Import “%s”", basename);
  AdwMessageDialog *dialog = NULL;
  GtkWidget *extra;

  g_test_message ("import of %s", basename);
  g_assert_null (shown_message_dialog (GTK_WINDOW (window)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.import-conversation-from", "s", uri));
  WAIT_UNTIL ((dialog = shown_message_dialog (GTK_WINDOW (window))) != NULL);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), body));
  extra = adw_message_dialog_get_extra_child (dialog);
  if (detail != NULL)
    {
      g_assert_true (GTK_IS_LABEL (extra));
      g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (extra)), detail));
      g_assert_true (gtk_label_get_selectable (GTK_LABEL (extra)));
      g_assert_true (gtk_label_get_wrap (GTK_LABEL (extra)));
    }
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "close");
  g_assert_cmpstr (adw_message_dialog_get_close_response (dialog), ==, "close");
  g_assert_true (adw_message_dialog_has_response (dialog, "close"));

  /* The import is over (it showed the dialog), and added nothing. */
  g_assert_cmpuint (n_conversations (session), ==, n);
  g_assert_true (akc_window_get_item (window) == shown);

  /* Enter (the dialog's default) or Escape (its closing): its one
   * response, and it is gone. */
  g_signal_connect (dialog, "response", G_CALLBACK (store_response), &response);
  if (enter)
    gtk_widget_activate_default (GTK_WIDGET (dialog));
  else
    gtk_window_close (GTK_WINDOW (dialog));
  WAIT_UNTIL (shown_message_dialog (GTK_WINDOW (window)) == NULL);
  g_assert_cmpstr (response, ==, "close");
}

/* The name Export suggests: the title, safe for a file name and bounded,
 * or the assistant's name, or "Conversation". */
static void
test_export_file_name (void)
{
  struct {
    const char *title;
    const char *fallback;
    const char *name;
  } cases[] = {
    { "Delivery", "Support", "Delivery.json" },
    { "  Where is\tmy\n\nparcel?  ", NULL, "Where is my parcel?.json" },
    { "a/b\\c:d", NULL, "a-b-c-d.json" },
    { "../../etc/passwd", NULL, "-..-etc-passwd.json" },
    { ".hidden", NULL, "hidden.json" },
    { "bell\aand\x1b" "escape", NULL, "bell and escape.json" },
    { "report\u202Etxt.exe", NULL, "reporttxt.exe.json" },
    { "Café", NULL, "Café.json" },
    { "", "Support", "Support.json" },
    { " \t\n", "Support", "Support.json" },
    { "...", NULL, "Conversation.json" },
    { NULL, " ", "Conversation.json" },
  };
  g_autoptr(GString) long_title = g_string_new (NULL);
  g_autofree char *name = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = akc_window_export_file_name (cases[i].title, cases[i].fallback, FALSE);

      g_assert_cmpstr (got, ==, cases[i].name);
    }
  name = akc_window_export_file_name ("Delivery", NULL, TRUE);
  g_assert_cmpstr (name, ==, "Delivery.md");
  g_clear_pointer (&name, g_free);

  /* Bounded: 80 characters, and no more than 200 bytes, cut between
   * characters, with no space left at the end. */
  for (guint i = 0; i < 50; i++)
    g_string_append (long_title, "word ");
  name = akc_window_export_file_name (long_title->str, NULL, TRUE);
  g_assert_true (g_str_has_suffix (name, "word.md"));
  g_assert_cmpint (g_utf8_strlen (name, -1), <=, 80 + 3);
  g_clear_pointer (&name, g_free);
  g_string_truncate (long_title, 0);
  for (guint i = 0; i < 100; i++)
    g_string_append (long_title, "\xF0\x9F\x93\xA6");   /* U+1F4E6, 4 bytes */
  name = akc_window_export_file_name (long_title->str, NULL, FALSE);
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_cmpuint (strlen (name), <=, 200 + 5);
  g_assert_cmpuint (strlen (name), ==, 50 * 4 + 5);
}

/* Export as JSON / Markdown and Import in the main menu, from what their
 * file chooser gives: the exported files have the conversation, the
 * imported one is shown, listed and selected in the sidebar, and a file
 * that is not an export imports nothing. */
static void
test_menu_export_import (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  g_autofree char *json_path = g_build_filename (history.folder, "exported.json", NULL);
  g_autofree char *md_path = g_build_filename (history.folder, "exported.md", NULL);
  g_autofree char *junk_path = g_build_filename (history.folder, "junk.json", NULL);
  g_autofree char *newer_path = g_build_filename (history.folder, "newer.json", NULL);
  g_autofree char *missing_path = g_build_filename (history.folder, "missing.json", NULL);
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestMenuExport", G_APPLICATION_NON_UNIQUE);
  g_autoptr(GFile) json_file = g_file_new_for_path (json_path);
  g_autoptr(GFile) md_file = g_file_new_for_path (md_path);
  g_autofree char *json_uri = g_file_get_uri (json_file);
  g_autofree char *md_uri = g_file_get_uri (md_file);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  AkcConversationItem *item, *imported;
  GtkWidget *sidebar;
  AkcWindow *window;
  JsonObject *root;
  guint n;

  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  window = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  akc_window_set_conversation (window, "support");
  item = akc_window_get_item (window);
  wait_loaded (item);
  send (item, "Where is my parcel?");
  akc_app_session_rename (session, item, "Delivery");
  sidebar = find_sidebar (GTK_WIDGET (window));

  /* Export as JSON: what its file chooser gives. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-conversation-to", "(ss)", "json", json_uri));
  /* Written whole (the file exists from its first byte). */
  WAIT_UNTIL (!(!json_parser_load_from_file (parser, json_path, NULL) || json_parser_get_root (parser) == NULL));
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (root, "messages") || json_object_has_member (root, "conversation"));
  g_assert_true (g_file_get_contents (json_path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "Where is my parcel?"));
  g_assert_nonnull (strstr (text, "Delivery"));
  g_clear_pointer (&text, g_free);

  /* Export as Markdown. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-conversation-to", "(ss)", "md", md_uri));
  for (gint64 deadline = akc_test_deadline ();
       !g_file_get_contents (md_path, &text, NULL, NULL) || strstr (text, "Where is my parcel?") == NULL;
       akc_test_iterate (deadline))
    g_clear_pointer (&text, g_free);
  g_assert_nonnull (strstr (text, "Where is my parcel?"));
  g_assert_null (strstr (text, "\"messages\""));
  g_clear_pointer (&text, g_free);

  /* Two exports at once, each to its own file: the JSON one (asked
   * first) went to the second one's file, and the second was never
   * written. */
  {
    g_autofree char *both_json = g_build_filename (history.folder, "both.json", NULL);
    g_autofree char *both_md = g_build_filename (history.folder, "both.md", NULL);
    g_autofree char *both_json_uri = g_filename_to_uri (both_json, NULL, NULL);
    g_autofree char *both_md_uri = g_filename_to_uri (both_md, NULL, NULL);
    g_autofree char *json_text = NULL;
    g_autofree char *md_text = NULL;

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-conversation-to", "(ss)", "json",
                                               both_json_uri));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-conversation-to", "(ss)", "md",
                                               both_md_uri));
    for (gint64 deadline = akc_test_deadline ();
         !g_file_get_contents (both_json, &json_text, NULL, NULL) || strstr (json_text, "Where is my parcel?") == NULL ||
         !g_file_get_contents (both_md, &md_text, NULL, NULL) || strstr (md_text, "Where is my parcel?") == NULL;
         akc_test_iterate (deadline))
      {
        g_clear_pointer (&json_text, g_free);
        g_clear_pointer (&md_text, g_free);
      }
    g_assert_true (g_str_has_prefix (json_text, "{"));
    g_assert_nonnull (strstr (json_text, "Where is my parcel?"));
    g_assert_false (g_str_has_prefix (md_text, "{"));
    g_assert_nonnull (strstr (md_text, "Where is my parcel?"));
  }

  /* Import the JSON: a new conversation, shown, selected in the sidebar. */
  n = n_conversations (session);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.import-conversation-from", "s", json_uri));
  WAIT_UNTIL (akc_window_get_item (window) != item);
  imported = akc_window_get_item (window);
  g_assert_cmpuint (n_conversations (session), ==, n + 1);
  g_assert_cmpstr (akc_conversation_item_get_id (imported), !=, akc_conversation_item_get_id (item));
  g_assert_cmpstr (akc_conversation_item_get_title (imported), ==, "Delivery");
  g_assert_cmpint (row_of_item (sidebar, imported), >=, 0);
  g_assert_true (selected_in (sidebar) == imported);
  wait_loaded (imported);
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_conversation_item_get_source (imported))), ==, 2);

  /* Files that cannot be imported: refused with a dialog that says why,
   * nothing imported, the window keeps its conversation. */
  g_assert_true (g_file_set_contents (junk_path, "{\"not\": \"an export\"}", -1, NULL));
  assert_import_refused (window, junk_path, "is not a conversation exported by AgentsKit Chat",
                         "$.format is missing", TRUE);
  g_assert_true (g_file_set_contents (newer_path, "{\"format\":\"agentskit.chat.conversation\",\"version\":99,"
                                      "\"conversation\":{}}", -1, NULL));
  assert_import_refused (window, newer_path, "exported by a newer version of AgentsKit Chat", "$.version is 99", FALSE);
  assert_import_refused (window, missing_path, "The file does not exist.", "missing.json", TRUE);
  g_assert_cmpuint (n_conversations (session), ==, n + 1);

  /* The menu items themselves: their file choosers, used with the
   * keyboard. */
  g_unlink (json_path);
  akc_window_show_item (window, item);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-conversation", "s", "json"));
  {
    GtkWidget *chooser = NULL;
    g_autofree char *suggested = NULL;

    /* The name it suggests is the conversation's title. */
    WAIT_UNTIL ((chooser = shown_chooser ()) != NULL);
    suggested = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser));
    g_assert_cmpstr (suggested, ==, "Delivery.json");
  }
  choose_file (json_path);
  g_clear_object (&parser);
  parser = json_parser_new ();
  WAIT_UNTIL (!(!json_parser_load_from_file (parser, json_path, NULL) || json_parser_get_root (parser) == NULL));
  g_clear_pointer (&text, g_free);
  g_assert_true (g_file_get_contents (json_path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "Where is my parcel?"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.import-conversation", NULL));
  choose_file (json_path);
  WAIT_UNTIL (akc_window_get_item (window) != item);
  g_assert_cmpuint (n_conversations (session), ==, n + 2);
  g_assert_cmpint (row_of_item (sidebar, akc_window_get_item (window)), >=, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  history_clear (&history);
}

static gboolean
is_folded_window (GtkWidget *window)
{
  AdwLeaflet *leaflet = ADW_LEAFLET (find_by_type (window, ADW_TYPE_LEAFLET));

  return adw_leaflet_get_folded (leaflet);
}

static gboolean
shows_pane_of (GtkWidget *widget)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (widget));
  AdwLeaflet *leaflet = ADW_LEAFLET (find_by_type (window, ADW_TYPE_LEAFLET));
  GtkWidget *shown = adw_leaflet_get_visible_child (leaflet);

  return shown != NULL && gtk_widget_is_ancestor (widget, shown);
}

/* A window of @session at 900 x 600 showing the support demo's
 * conversation, loaded. */
static AkcWindow *
present_support (GtkApplication *application,
                 AkcAppSession  *session)
{
  g_autoptr(GError) error = NULL;
  AkcWindow *window;

  g_assert_true (g_application_register (G_APPLICATION (application), NULL, &error));
  window = g_object_new (AKC_TYPE_WINDOW, "application", application, "session", session, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_present (GTK_WINDOW (window));
  akc_window_set_conversation (window, "support");
  wait_loaded (akc_window_get_item (window));

  return window;
}

/* Narrowing the window to one pane keeps the pane the person is in: a
 * conversation being written in stays (it gave way to the list); the list
 * stays when it has the keyboard. */
static void
test_fold_keeps_pane (void)
{
  History history = { 0 };
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestFold", G_APPLICATION_NON_UNIQUE);
  AkcAppSession *session = history_list (&history);
  AkcWindow *window = present_support (application, session);
  GtkWidget *composer, *sidebar;

  send (akc_window_get_item (window), "Where is my parcel?");
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_false (is_folded_window (GTK_WIDGET (window)));

  /* The list was shown last (a search), then the person wrote. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search-conversations", NULL));
  composer = find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER);
  sidebar = find_sidebar (GTK_WIDGET (window));
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_grab_focus (composer));
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), composer));
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 600);
  wait_for ((Condition) is_folded_window, window);
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (shows_pane_of (composer));

  /* Wide again, the list takes the keyboard, narrow: the list stays. */
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  WAIT_UNTIL (!is_folded_window (GTK_WIDGET (window)));
  g_assert_true (gtk_widget_grab_focus (sidebar));
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 600);
  wait_for ((Condition) is_folded_window, window);
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (shows_pane_of (sidebar));

  gtk_window_destroy (GTK_WINDOW (window));
  history_clear (&history);
}

/* The search of the conversations takes the keyboard again once its bar
 * is shown, from an idle that runs after everything else (late, on a
 * busy machine): a person who went on to the composer before it ran
 * keeps the keyboard there (narrow, the sidebar's pane would then have
 * replaced the conversation being written in). */
static void
test_search_keeps_later_focus (void)
{
  History history = { 0 };
  g_autoptr(GtkApplication) application = gtk_application_new ("io.agentskit.Chat.TestSearchFocus", G_APPLICATION_NON_UNIQUE);
  AkcAppSession *session = history_list (&history);
  AkcWindow *window = present_support (application, session);
  GtkWidget *composer, *entry;

  composer = find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER);
  wait_frames (GTK_WIDGET (window), 2);

  /* Ctrl+Shift+F, and at once (before any idle ran) the composer. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search-conversations", NULL));
  entry = gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_grab_focus (composer));
  akc_test_drain ();
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), composer));

  /* The search itself still takes the keyboard. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search-conversations", NULL));
  akc_test_drain ();
  wait_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));

  gtk_window_destroy (GTK_WINDOW (window));
  history_clear (&history);
}

/* ------------------------------------------------------------------ */
/* A demo's session across restarts (issue 13)                         */
/* ------------------------------------------------------------------ */

static gboolean
session_attached (AkcConversationItem *item)
{
  AkcDemo *demo = akc_conversation_item_get_demo (item);

  return demo != NULL && akc_session_get_storage (akc_demo_get_session (demo)) != NULL;
}

/* The Support demo's conversation, open, read from the history, its
 * session kept there. */
static AkcConversationItem *
open_support (AkcAppSession *session)
{
  g_autoptr(GError) error = NULL;
  AkcConversationItem *item = akc_app_session_get_default_conversation (session, "support", &error);

  g_assert_no_error (error);
  g_assert_true (akc_app_session_open (session, item, &error));
  g_assert_no_error (error);
  wait_loaded (item);
  WAIT_FOR (session_attached, item);

  return item;
}

static char *
last_content (AkcConversationItem *item)
{
  GListModel *messages = akc_chat_source_get_messages (akc_conversation_item_get_source (item));
  g_autoptr(AkcMessage) last = g_list_model_get_item (messages, g_list_model_get_n_items (messages) - 1);

  return g_strdup (akc_message_get_content (last));
}

/* The newest choice list of the conversation, and its message. */
static AkcJsonValue *
latest_choice (AkcConversationItem  *item,
               AkcMessage          **message_out)
{
  AkcInteractionController *interaction = akc_conversation_item_get_interaction (item);
  GListModel *messages = akc_chat_source_get_messages (akc_conversation_item_get_source (item));

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      g_autoptr(GListModel) presentations = akc_present_message (message,
                                                                 akc_interaction_controller_get_manifest (interaction));

      for (guint j = 0; j < g_list_model_get_n_items (presentations); j++)
        {
          g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, j);
          AkcResolvedComponent *resolved = akc_presentation_get_resolved (presentation);

          if (resolved != NULL && g_strcmp0 (akc_resolved_component_get_component_key (resolved), "choice-list") == 0)
            {
              *message_out = g_object_ref (message);
              return akc_json_value_ref (akc_resolved_component_get_frame (resolved));
            }
        }
    }

  g_assert_not_reached ();
}

static gboolean
approve_call (AkcConversationItem  *item,
              const char           *tool_call_id,
              GError              **error)
{
  AkcInteractionController *interaction = akc_conversation_item_get_interaction (item);
  g_autoptr(GAsyncResult) result = NULL;
  gboolean ok;

  akc_interaction_controller_approve_async (interaction, tool_call_id, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  ok = akc_interaction_controller_approve_finish (interaction, result, error);
  wait_until_idle (akc_conversation_item_get_source (item));
  return ok;
}

static guint
count_tickets (AkcConversationItem *item)
{
  GListModel *messages = akc_chat_source_get_messages (akc_conversation_item_get_source (item));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);

      if (akc_message_get_role (message) == AKC_MESSAGE_ROLE_TOOL &&
          g_str_has_prefix (akc_message_get_content (message), "Ticket SUP-"))
        n++;
    }

  return n;
}

static AkcConfirmationStatus
status_of (AkcConversationItem *item,
           const char          *tool_call_id)
{
  AkcActionConfirmation *confirmation = akc_demo_get_confirmation (akc_conversation_item_get_demo (item));
  g_autoptr(AkcConfirmationRecord) record = akc_action_confirmation_get_by_tool_call (confirmation, tool_call_id);

  /* Before the confirmations were kept, the coordinator made again after
   * a restart knew none: this failed. */
  g_assert_nonnull (record);
  return akc_confirmation_record_get_status (record);
}

/* A conversation kept in the history goes on after a restart from where
 * it was: its state (/start, restart, /name Ada is answered by its route,
 * not by the model), and a confirmation pending at the restart comes back
 * pending, is approved through the confirmation coordinator, and runs
 * once, however often it is approved again, restarts included. Each
 * restart is a quick quit: nothing waits for the saves but the quit. */
static void
test_session_after_restart (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  g_autoptr(AkcMessage) message = NULL;
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autoptr(AkcConfirmationRecord) record = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *reply = NULL;
  g_autofree char *call_id = NULL;
  AkcConversationItem *item;
  AkcInteractionController *interaction;

  item = open_support (session);
  id = g_strdup (akc_conversation_item_get_id (item));
  send (item, "/start");
  reply = last_content (item);
  g_assert_cmpstr (reply, ==, "What is your name?");
  g_assert_cmpstr (akc_demo_get_state (akc_conversation_item_get_demo (item)), ==, "collecting");

  /* Restart: the conversation goes on. */
  session = history_restart (&history);
  item = open_support (session);
  g_assert_cmpstr (akc_conversation_item_get_id (item), ==, id);
  g_assert_cmpstr (akc_demo_get_state (akc_conversation_item_get_demo (item)), ==, "collecting");
  send (item, "/name Ada");
  g_free (reply);
  reply = last_content (item);
  /* Before sessions were kept, the demo started over and the model
   * echoed "/name Ada": this failed. */
  g_assert_cmpstr (reply, ==, "Welcome, Ada.");

  /* A choice proposes the ticket; the restart comes before the approval. */
  send (item, "/support");
  frame = latest_choice (item, &message);
  interaction = akc_conversation_item_get_interaction (item);
  akc_interaction_controller_select_async (interaction, message, frame, "create", NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (akc_interaction_controller_select_finish (interaction, result, &record, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  wait_until_idle (akc_conversation_item_get_source (item));
  g_assert_nonnull (record);
  call_id = g_strdup (akc_confirmation_record_get_tool_call_id (record));
  g_assert_cmpint (status_of (item, call_id), ==, AKC_CONFIRMATION_STATUS_PENDING);
  g_assert_cmpuint (count_tickets (item), ==, 0);

  /* Restart: it is still pending, and approved through the coordinator. */
  session = history_restart (&history);
  item = open_support (session);
  g_assert_cmpint (status_of (item, call_id), ==, AKC_CONFIRMATION_STATUS_PENDING);
  g_assert_true (approve_call (item, call_id, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status_of (item, call_id), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (count_tickets (item), ==, 1);
  /* Approving again runs nothing. */
  approve_call (item, call_id, NULL);
  g_assert_cmpuint (count_tickets (item), ==, 1);

  /* Restart: approved it stays, and nothing runs twice. */
  session = history_restart (&history);
  item = open_support (session);
  g_assert_cmpint (status_of (item, call_id), ==, AKC_CONFIRMATION_STATUS_APPROVED);
  g_assert_cmpuint (count_tickets (item), ==, 1);
  approve_call (item, call_id, NULL);
  g_assert_cmpuint (count_tickets (item), ==, 1);

  history_clear (&history);
}

/* Deleting a conversation deletes its session: the next conversation of
 * the assistant, which takes the deleted one's id, starts over. */
static void
test_delete_forgets_session (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  g_autofree char *id = NULL;
  g_autofree char *reply = NULL;
  AkcConversationItem *item;
  guint removal;

  item = open_support (session);
  id = g_strdup (akc_conversation_item_get_id (item));
  send (item, "/start");
  WAIT_UNTIL (!akc_session_get_persisting (akc_demo_get_session (akc_conversation_item_get_demo (item))));
  removal = akc_app_session_remove (session, &item, 1);
  g_assert_cmpuint (removal, >, 0);
  akc_app_session_purge (session, removal);

  item = open_support (session);
  g_assert_cmpstr (akc_conversation_item_get_id (item), ==, id);
  /* Before the session went with its conversation, the new one took the
   * deleted one's state and answered "Welcome, Ada.": this failed. */
  g_assert_cmpstr (akc_demo_get_state (akc_conversation_item_get_demo (item)), ==, "ready");
  send (item, "/name Ada");
  reply = last_content (item);
  g_assert_cmpstr (reply, !=, "Welcome, Ada.");

  /* After a restart too. */
  session = history_restart (&history);
  item = open_support (session);
  g_assert_cmpstr (akc_conversation_item_get_id (item), ==, id);
  g_assert_cmpstr (akc_demo_get_state (akc_conversation_item_get_demo (item)), ==, "ready");

  history_clear (&history);
}

/* ------------------------------------------------------------------ */
/* Drafts                                                              */

static GtkTextBuffer *
composer_buffer (AkcWindow *window)
{
  GtkWidget *composer = find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER);
  GtkWidget *text;

  g_assert_nonnull (composer);
  text = find_by_type (composer, GTK_TYPE_TEXT_VIEW);
  g_assert_nonnull (text);
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (text));
}

static char *
composer_text (AkcWindow *window)
{
  GtkTextBuffer *buffer = composer_buffer (window);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
composer_says (gconstpointer data)
{
  const struct { AkcWindow *window; const char *text; } *wanted = data;
  g_autofree char *text = composer_text (wanted->window);

  return g_strcmp0 (text, wanted->text) == 0;
}

/* Waits until the composer shows @text (read back from the history), with
 * the cursor after it. */
static void
wait_composer (AkcWindow  *window,
               const char *text)
{
  struct { AkcWindow *window; const char *text; } wanted = { window, text };
  GtkTextBuffer *buffer;
  GtkTextIter cursor;

  WAIT_FOR (composer_says, &wanted);
  buffer = composer_buffer (window);
  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  g_assert_true (gtk_text_iter_is_end (&cursor));
}

static void
type_text (AkcWindow  *window,
           const char *text)
{
  gtk_text_buffer_insert_at_cursor (composer_buffer (window), text, -1);
}

static char *
stored_draft (AkcChatMemory *memory,
              const char    *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *draft;

  akc_sqlite_chat_memory_load_draft_async (AKC_SQLITE_CHAT_MEMORY (memory), id, NULL, akc_test_store_result, &result);
  WAIT_UNTIL (result != NULL);
  draft = akc_sqlite_chat_memory_load_draft_finish (AKC_SQLITE_CHAT_MEMORY (memory), result, &error);
  g_assert_no_error (error);
  return draft;
}

/* What was typed and not sent is kept: each conversation keeps its own
 * draft when another is shown, and finds it in the composer again after
 * the window closed and the application quit (before, the composer was
 * empty); once sent, no draft is left. */
static void
test_draft_after_restart (void)
{
  History history = { 0 };
  AkcAppSession *session = history_list (&history);
  g_autoptr(GError) error = NULL;
  g_autofree char *first_id = NULL;
  g_autofree char *second_id = NULL;
  g_autofree char *draft = NULL;
  AkcConversationItem *first, *second;
  AkcWindow *window;

  first = akc_app_session_get_default_conversation (session, "hello-world", &error);
  g_assert_no_error (error);
  second = akc_app_session_get_default_conversation (session, "onboarding", &error);
  g_assert_no_error (error);
  g_assert_true (second != first);
  first_id = g_strdup (akc_conversation_item_get_id (first));
  second_id = g_strdup (akc_conversation_item_get_id (second));

  window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  akc_window_show_item (window, first);
  wait_loaded (first);
  type_text (window, "Half a thought, ");
  type_text (window, "grüße");
  akc_window_show_item (window, second);
  wait_loaded (second);
  type_text (window, "Another one");
  akc_window_show_item (window, first);
  wait_composer (window, "Half a thought, grüße");

  /* Ctrl+Q at once: the window closes, the application quits. */
  gtk_window_destroy (GTK_WINDOW (window));
  session = history_restart (&history);

  first = akc_app_session_lookup_conversation (session, first_id);
  second = akc_app_session_lookup_conversation (session, second_id);
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  window = g_object_new (AKC_TYPE_WINDOW, "session", session, NULL);
  gtk_window_present (GTK_WINDOW (window));
  akc_window_show_item (window, first);
  wait_loaded (first);
  wait_composer (window, "Half a thought, grüße");
  /* Not sent by coming back. */
  g_assert_cmpuint (g_list_model_get_n_items (akc_chat_source_get_messages (akc_conversation_item_get_source (first))), ==, 0);

  akc_window_show_item (window, second);
  wait_loaded (second);
  wait_composer (window, "Another one");
  g_assert_true (gtk_widget_activate_action (find_by_type (GTK_WIDGET (window), AKC_TYPE_COMPOSER), "composer.send", NULL));
  wait_until_idle (akc_conversation_item_get_source (second));
  wait_composer (window, "");

  gtk_window_destroy (GTK_WINDOW (window));
  session = history_restart (&history);

  /* Sent: no draft; the other one is still there. */
  draft = stored_draft (history.memory, second_id);
  g_assert_cmpstr (draft, ==, "");
  g_clear_pointer (&draft, g_free);
  draft = stored_draft (history.memory, first_id);
  g_assert_cmpstr (draft, ==, "Half a thought, grüße");

  history_clear (&history);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/conversations/new-chat-keeps", test_new_chat_keeps);
  g_test_add_func ("/conversations/remove-restore-purge", test_remove_restore_purge);
  g_test_add_func ("/conversations/sidebar-groups", test_sidebar_groups);
  g_test_add_func ("/conversations/search-export-import", test_search_export_import);
  g_test_add_func ("/conversations/two-windows", test_two_windows);
  g_test_add_func ("/conversations/selection-mode", test_selection_mode);
  g_test_add_func ("/conversations/sidebar-pages", test_sidebar_pages);
  g_test_add_func ("/conversations/sidebar-before-history", test_sidebar_before_history);
  g_test_add_func ("/conversations/default-beyond-first-page", test_default_beyond_first_page);
  g_test_add_func ("/conversations/turn-listed", test_turn_listed);
  g_test_add_func ("/conversations/menu-export-import", test_menu_export_import);
  g_test_add_func ("/conversations/export-file-name", test_export_file_name);
  g_test_add_func ("/conversations/fold-keeps-pane", test_fold_keeps_pane);
  g_test_add_func ("/conversations/search-keeps-later-focus", test_search_keeps_later_focus);
  g_test_add_func ("/conversations/session-after-restart", test_session_after_restart);
  g_test_add_func ("/conversations/delete-forgets-session", test_delete_forgets_session);
  g_test_add_func ("/conversations/draft-after-restart", test_draft_after_restart);

  return g_test_run ();
}

/* test-message-menu.c: the actions of one message (issue 14 item 7):
 * the context menu of a row, copy, delete with undo, edit an earlier
 * message; in process
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <akc-gtk.h>

#include "akc-chat-view-private.h"
#include "akc-message-row-private.h"
#include "akc-test-ui.h"

typedef struct {
  GtkWidget          *window;
  AkcChatView        *view;
  AkcChat            *chat;
  AkcScriptedAdapter *script;
  AkcMessage         *deleted;
  guint               deleted_at;
  guint               n_deleted;
} Fixture;

static AkcMessage *
message_at (Fixture *fixture,
            guint    position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat)),
                                                         position);

  return message;   /* the model keeps it alive */
}

static guint
n_messages (Fixture *fixture)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat)));
}

static void
on_deleted (AkcChatView *view,
            AkcMessage  *message,
            guint        position,
            Fixture     *fixture)
{
  g_set_object (&fixture->deleted, message);
  fixture->deleted_at = position;
  fixture->n_deleted++;
}

/* Three turns; the second reply has Markdown. */
static void
fixture_init (Fixture *fixture)
{
  static const char * const texts[] = {
    "first question", "first answer",
    "second question", "An answer with **bold** text\n\n- and a list",
    "third question", "third answer",
  };
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  AkcAdapter *adapter = akc_scripted_adapter_new ();

  fixture->script = AKC_SCRIPTED_ADAPTER (adapter);
  fixture->chat = akc_chat_new (adapter);
  g_object_unref (adapter);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);

      g_ptr_array_add (messages, akc_message_new (id, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                  texts[i], AKC_MESSAGE_STATUS_COMPLETE));
    }
  akc_chat_restore (fixture->chat, (AkcMessage * const *) messages->pdata, messages->len);

  fixture->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_source (fixture->view, AKC_CHAT_SOURCE (fixture->chat));
  g_signal_connect (fixture->view, "message-deleted", G_CALLBACK (on_deleted), fixture);

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 700);
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->view));
  gtk_window_present (GTK_WINDOW (fixture->window));
  spin ();
}

static void
fixture_clear (Fixture *fixture)
{
  g_clear_object (&fixture->deleted);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  spin ();
  g_assert_finalize_object (fixture->chat);
}

typedef struct {
  Fixture *fixture;
  guint    position;
} RowWait;

static gboolean
row_bound (RowWait *wait)
{
  return akc_chat_view_get_row (wait->fixture->view, message_at (wait->fixture, wait->position)) != NULL;
}

static AkcMessageRow *
row_at (Fixture *fixture,
        guint    position)
{
  RowWait wait = { fixture, position };

  WAIT_FOR (row_bound, &wait);
  return akc_chat_view_get_row (fixture->view, message_at (fixture, position));
}

/* The labels and actions of a menu model, "label=action" by line. */
static char *
describe_menu (GMenuModel *model)
{
  GString *out = g_string_new (NULL);

  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);

      for (int j = 0; section != NULL && j < g_menu_model_get_n_items (section); j++)
        {
          g_autofree char *label = NULL;
          g_autofree char *action = NULL;
          g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (section, j, G_MENU_ATTRIBUTE_TARGET,
                                                                              G_VARIANT_TYPE_STRING);

          g_menu_model_get_item_attribute (section, j, G_MENU_ATTRIBUTE_LABEL, "s", &label);
          g_menu_model_get_item_attribute (section, j, G_MENU_ATTRIBUTE_ACTION, "s", &action);
          g_string_append_printf (out, "%s=%s(%s);", label, action,
                                  target != NULL ? g_variant_get_string (target, NULL) : "");
        }
    }

  return g_string_free (out, FALSE);
}

static gboolean
is_visible (GtkWidget *widget)
{
  return gtk_widget_get_visible (widget);
}

/* The context menu: every action of a message, with its id; the
 * person's messages can be edited. */
static void
test_menu (void)
{
  Fixture fixture = { 0 };
  AkcMessageRow *row;
  GtkWidget *menu;
  g_autofree char *user = NULL;
  g_autofree char *assistant = NULL;

  fixture_init (&fixture);
  row = row_at (&fixture, 2);
  gtk_test_accessible_assert_property (row, GTK_ACCESSIBLE_PROPERTY_HAS_POPUP, TRUE);

  /* As the keyboard opens it (Menu, Shift+F10: the row's message.menu). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "message.menu", NULL));
  menu = akc_message_row_get_menu (row);
  g_assert_true (GTK_IS_POPOVER_MENU (menu));
  WAIT_FOR (is_visible, menu);
  user = describe_menu (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu)));
  g_assert_cmpstr (user, ==,
                   "_Copy Message=chat.copy-message(m2);"
                   "Copy as Plain _Text=chat.copy-message-text(m2);"
                   "_Edit and Send Again=chat.edit-message(m2);"
                   "_Delete Message=chat.delete-message(m2);");
  gtk_popover_popdown (GTK_POPOVER (menu));
  spin ();
  g_assert_null (akc_message_row_get_menu (row));

  /* A reply is not edited from here (§3.6 edit replaces only its text). */
  row = row_at (&fixture, 3);
  g_assert_true (akc_message_row_popup_menu (row, 10, 10));
  assistant = describe_menu (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (akc_message_row_get_menu (row))));
  g_assert_cmpstr (assistant, ==,
                   "_Copy Message=chat.copy-message(m3);"
                   "Copy as Plain _Text=chat.copy-message-text(m3);"
                   "_Delete Message=chat.delete-message(m3);");
  gtk_popover_popdown (GTK_POPOVER (akc_message_row_get_menu (row)));

  fixture_clear (&fixture);
}

/* The Message Actions button of each row (issue 14 item 5): named, a
 * button with a pop-up, keyboard-focusable, and it opens the same menu as
 * the right click and the Menu key, under itself. */
static void
test_menu_button (void)
{
  Fixture fixture = { 0 };
  AkcMessageRow *row;
  GtkWidget *button, *menu;
  g_autofree char *described = NULL;
  GdkRectangle at;
  graphene_rect_t bounds;

  fixture_init (&fixture);
  row = row_at (&fixture, 2);
  button = find_widget (GTK_WIDGET (row), is_button_with_tooltip, "Message Actions");
  g_assert_nonnull (button);
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_ROLE_BUTTON);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, "Message Actions");
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_HAS_POPUP, TRUE);
  g_assert_true (gtk_widget_get_focusable (button) || gtk_widget_get_focus_on_click (button));
  g_assert_true (gtk_widget_get_visible (button));

  g_signal_emit_by_name (button, "clicked");
  menu = akc_message_row_get_menu (row);
  g_assert_true (GTK_IS_POPOVER_MENU (menu));
  WAIT_FOR (is_visible, menu);
  described = describe_menu (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (menu)));
  g_assert_cmpstr (described, ==,
                   "_Copy Message=chat.copy-message(m2);"
                   "Copy as Plain _Text=chat.copy-message-text(m2);"
                   "_Edit and Send Again=chat.edit-message(m2);"
                   "_Delete Message=chat.delete-message(m2);");
  /* Under the button. */
  g_assert_true (gtk_popover_get_pointing_to (GTK_POPOVER (menu), &at));
  g_assert_true (gtk_widget_compute_bounds (button, GTK_WIDGET (row), &bounds));
  g_assert_cmpint (at.x, >=, (int) bounds.origin.x);
  g_assert_cmpint (at.x, <=, (int) (bounds.origin.x + bounds.size.width));
  g_assert_cmpint (at.y, >=, (int) bounds.origin.y);
  gtk_popover_popdown (GTK_POPOVER (menu));
  spin ();

  fixture_clear (&fixture);
}

static gboolean
row_of_first_bound (AkcChatView *view)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (akc_chat_view_get_source (view)), 0);

  return akc_chat_view_get_row (view, message) != NULL;
}

/* A host's messages (a controlled source, as the turn server's) are not
 * the view's to delete: the menu does not offer Delete at all, rather
 * than an item that is disabled for good and never says why. */
static void
test_menu_controlled (void)
{
  g_autoptr(AkcControlledSource) source = akc_controlled_source_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcMessage) message = NULL;
  g_autofree char *described = NULL;
  AkcChatView *view;
  GtkWidget *window;
  AkcMessageRow *row;

  g_assert_true (akc_controlled_source_set_snapshot_text (source,
    "{\"sessionId\":\"host\",\"messages\":["
    "{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hi\",\"status\":\"complete\","
    "\"createdAt\":\"2026-07-14T00:00:00.000Z\"}],"
    "\"status\":\"idle\",\"input\":\"\",\"error\":null,"
    "\"usage\":{\"promptTokens\":0,\"completionTokens\":0,\"totalTokens\":0}}", -1, &error));
  g_assert_no_error (error);

  view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_source (view, AKC_CHAT_SOURCE (source));
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 700);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  WAIT_FOR (row_of_first_bound, view);

  message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (source)), 0);
  row = akc_chat_view_get_row (view, message);
  /* On a monitor before a popover can point at it. */
  WAIT_FOR (gtk_widget_get_mapped, row);
  wait_frames (GTK_WIDGET (row), 2);
  g_assert_true (akc_message_row_popup_menu (row, 10, 10));
  described = describe_menu (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (akc_message_row_get_menu (row))));
  g_assert_null (strstr (described, "chat.delete-message"));
  g_assert_nonnull (strstr (described, "chat.copy-message(u1)"));
  gtk_popover_popdown (GTK_POPOVER (akc_message_row_get_menu (row)));

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

static char *
clipboard_text (GtkWidget *widget)
{
  GdkContentProvider *content = gdk_clipboard_get_content (gtk_widget_get_clipboard (widget));
  GValue value = G_VALUE_INIT;
  char *text;

  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  text = g_value_dup_string (&value);
  g_value_unset (&value);

  return text;
}

/* Copy: the Markdown as written, or the text as read. */
static void
test_copy (void)
{
  Fixture fixture = { 0 };
  g_autofree char *markdown = NULL;
  g_autofree char *plain = NULL;

  fixture_init (&fixture);
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.copy-message", "s", "m3");
  markdown = clipboard_text (GTK_WIDGET (fixture.view));
  g_assert_cmpstr (markdown, ==, "An answer with **bold** text\n\n- and a list");

  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.copy-message-text", "s", "m3");
  plain = clipboard_text (GTK_WIDGET (fixture.view));
  g_assert_null (strstr (plain, "**"));
  g_assert_nonnull (strstr (plain, "An answer with bold text"));
  g_assert_nonnull (strstr (plain, "and a list"));

  fixture_clear (&fixture);
}

static gboolean
row_gone (Fixture *fixture)
{
  return akc_chat_view_get_row (fixture->view, message_at (fixture, 3)) == NULL;
}

/* Delete: the message is hidden at once (the conversation, and so its
 * history, keeps it until the application makes it final), the view says
 * which and where, and it can be shown again; an unknown id changes
 * nothing. */
static void
test_delete_and_undo (void)
{
  Fixture fixture = { 0 };

  fixture_init (&fixture);
  row_at (&fixture, 3);
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.delete-message", "s", "m3");
  g_assert_cmpuint (fixture.n_deleted, ==, 1);
  g_assert_cmpuint (fixture.deleted_at, ==, 3);
  g_assert_cmpstr (akc_message_get_id (fixture.deleted), ==, "m3");
  g_assert_cmpuint (n_messages (&fixture), ==, 6);
  g_assert_true (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 3)));
  WAIT_FOR (row_gone, &fixture);

  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.delete-message", "s", "no-such-id");
  g_assert_cmpuint (fixture.n_deleted, ==, 1);
  g_assert_cmpuint (n_messages (&fixture), ==, 6);

  /* Undo, as the application's toast does. */
  g_assert_true (akc_chat_unhide_message (fixture.chat, "m3"));
  g_assert_true (message_at (&fixture, 3) == fixture.deleted);
  g_assert_nonnull (row_at (&fixture, 3));

  fixture_clear (&fixture);
}

/* Deleting a person's message deletes the reply that answered it (what a
 * reply answers must not vanish from under it): both are hidden, the
 * person's next message stays, and one undo (the message's id and the
 * hidden ones after it) brings both back. A reply deleted alone leaves
 * the question. */
static void
test_delete_with_reply (void)
{
  Fixture fixture = { 0 };

  fixture_init (&fixture);
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.delete-message", "s", "m2");
  g_assert_cmpuint (fixture.n_deleted, ==, 1);
  g_assert_cmpstr (akc_message_get_id (fixture.deleted), ==, "m2");
  g_assert_cmpuint (n_messages (&fixture), ==, 6);
  g_assert_true (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 2)));
  g_assert_true (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 3)));
  g_assert_false (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 4)));
  g_assert_false (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 1)));

  g_assert_true (akc_chat_unhide_message (fixture.chat, "m2"));
  g_assert_true (akc_chat_unhide_message (fixture.chat, "m3"));
  g_assert_nonnull (row_at (&fixture, 3));

  /* The last reply alone: its question stays. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.delete-message", "s", "m5");
  g_assert_true (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 5)));
  g_assert_false (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 4)));
  /* The person's last message then: nothing more after it to hide. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.delete-message", "s", "m4");
  g_assert_true (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 4)));
  g_assert_false (akc_chat_get_message_hidden (fixture.chat, message_at (&fixture, 3)));

  fixture_clear (&fixture);
}

static GtkWidget *
find_text_view (GtkWidget *widget)
{
  if (GTK_IS_TEXT_VIEW (widget) && gtk_widget_get_mapped (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_text_view (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
editor_shown (Fixture *fixture)
{
  return find_text_view (GTK_WIDGET (fixture->view)) != NULL;
}

static gboolean
reply_done (Fixture *fixture)
{
  return n_messages (fixture) == 4 &&
         akc_message_get_status (message_at (fixture, 3)) == AKC_MESSAGE_STATUS_COMPLETE &&
         akc_chat_source_get_status (AKC_CHAT_SOURCE (fixture->chat)) == AKC_CHAT_STATUS_IDLE;
}

/* Edit an earlier message of the person: the inline editor opens with its
 * text; saving sends it again from there (§3.6): it keeps its id, the
 * messages after it go, and a new reply streams. */
static void
test_edit_earlier (void)
{
  Fixture fixture = { 0 };
  GtkTextBuffer *buffer;
  g_autofree char *draft = NULL;
  GtkTextIter start, end;

  fixture_init (&fixture);
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.edit-message", "s", "m2");
  g_assert_true (akc_chat_view_get_editing (fixture.view));
  WAIT_FOR (editor_shown, &fixture);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (find_text_view (GTK_WIDGET (fixture.view))));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  draft = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (draft, ==, "second question");

  /* While the editor is open, nothing else is deleted or edited. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.delete-message", "s", "m0");
  g_assert_cmpuint (n_messages (&fixture), ==, 6);

  gtk_text_buffer_set_text (buffer, "second question, edited", -1);
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "a new second answer", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.save-edit", NULL);
  WAIT_FOR (reply_done, &fixture);
  g_assert_false (akc_chat_view_get_editing (fixture.view));
  g_assert_cmpstr (akc_message_get_id (message_at (&fixture, 2)), ==, "m2");
  g_assert_cmpstr (akc_message_get_content (message_at (&fixture, 2)), ==, "second question, edited");
  g_assert_cmpstr (akc_message_get_content (message_at (&fixture, 3)), ==, "a new second answer");

  /* A reply is not opened in the editor by this action. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.edit-message", "s", akc_message_get_id (message_at (&fixture, 3)));
  g_assert_false (akc_chat_view_get_editing (fixture.view));

  fixture_clear (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/message-actions/menu", test_menu);
  g_test_add_func ("/message-actions/menu-controlled", test_menu_controlled);
  g_test_add_func ("/message-actions/menu-button", test_menu_button);
  g_test_add_func ("/message-actions/copy", test_copy);
  g_test_add_func ("/message-actions/delete-and-undo", test_delete_and_undo);
  g_test_add_func ("/message-actions/delete-with-reply", test_delete_with_reply);
  g_test_add_func ("/message-actions/edit-earlier", test_edit_earlier);

  return g_test_run ();
}

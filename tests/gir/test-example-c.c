/* test-example-c.c: the C example host (examples/c/controlled-host.c),
 * driven as a person would: typed into, sent to, and stopped (TAP).
 *
 * SPDX-License-Identifier: MIT
 */

#include <string.h>

/* The example itself, with its main() renamed. */
int controlled_host_main (int argc, char **argv);
#define main controlled_host_main
#include "controlled-host.c"
#undef main

#include "akc-test.h"

static GListModel *messages;
static AkcChatSource *chat;
static GString *changes;

static gboolean
reply_streaming (gpointer data)
{
  return akc_chat_source_get_status (chat) == AKC_CHAT_STATUS_STREAMING &&
         g_list_model_get_n_items (messages) == GPOINTER_TO_UINT (data);
}

static gboolean
idle (gpointer data)
{
  return akc_chat_source_get_status (chat) == AKC_CHAT_STATUS_IDLE;
}

static GtkWidget *composer_widget;

static gboolean
composer_has_focus (gpointer data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (data));

  return focus != NULL && (focus == composer_widget || gtk_widget_is_ancestor (focus, composer_widget));
}

static gboolean
second_reply_started (gpointer data)
{
  g_autoptr(AkcMessage) reply = NULL;

  if (g_list_model_get_n_items (messages) != 4)
    return FALSE;
  reply = g_list_model_get_item (messages, 3);
  return strlen (akc_message_get_content (reply)) > strlen ("You said: w0 w1 w2");
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added)
{
  g_string_append_printf (changes, "%s%u,%u,%u", changes->len > 0 ? " " : "", position, removed, added);
}

static void
test_example (void)
{
  g_autoptr(AkcControlledSource) source = NULL;
  GtkWidget *window = controlled_host_window_new (&source);
  GtkWidget *widget = gtk_window_get_child (GTK_WINDOW (window));
  AkcComposer *composer;
  g_autoptr(AkcMessage) reply = NULL;
  g_autoptr(AkcMessage) second = NULL;
  g_autoptr(GString) words = g_string_new (NULL);
  g_autofree char *full = NULL;

  g_assert_true (AKC_IS_CHAT_WIDGET (widget));
  g_assert_true (akc_chat_widget_get_source (AKC_CHAT_WIDGET (widget)) == AKC_CHAT_SOURCE (source));
  chat = AKC_CHAT_SOURCE (source);
  messages = akc_chat_source_get_messages (chat);
  changes = g_string_new (NULL);
  g_signal_connect (messages, "items-changed", G_CALLBACK (on_items_changed), NULL);
  composer = akc_chat_widget_get_composer (AKC_CHAT_WIDGET (widget));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, "Chat");
  gtk_window_present (GTK_WINDOW (window));

  /* The person can type at once: the composer has the keyboard. */
  composer_widget = GTK_WIDGET (composer);
  WAIT_FOR (composer_has_focus, window);

  akc_composer_set_text (composer, "one two three");
  g_assert_true (akc_composer_send (composer));
  WAIT_FOR (reply_streaming, GUINT_TO_POINTER (2));
  reply = g_list_model_get_item (messages, 1);
  WAIT_FOR (idle, NULL);
  g_assert_cmpstr (akc_message_get_content (reply), ==, "You said: one two three");
  g_assert_cmpint (akc_message_get_status (reply), ==, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpstr (changes->str, ==, "0,0,1 1,0,1");

  for (guint i = 0; i < 200; i++)
    g_string_append_printf (words, "%sw%u", i > 0 ? " " : "", i);
  akc_composer_set_text (composer, words->str);
  g_assert_true (akc_composer_send (composer));
  WAIT_FOR (second_reply_started, NULL);
  second = g_list_model_get_item (messages, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (composer), "composer.stop", NULL));
  g_assert_cmpint (akc_chat_source_get_status (chat), ==, AKC_CHAT_STATUS_IDLE);
  g_assert_true (akc_message_get_stopped (second));
  g_assert_cmpint (akc_message_get_status (second), ==, AKC_MESSAGE_STATUS_COMPLETE);
  full = g_strconcat ("You said: ", words->str, NULL);
  g_assert_cmpuint (strlen (akc_message_get_content (second)), <, strlen (full));

  g_signal_handlers_disconnect_by_func (messages, on_items_changed, NULL);
  g_string_free (changes, TRUE);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
           char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/example/controlled-host", test_example);
  return g_test_run ();
}

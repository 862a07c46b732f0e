/* test-message.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc.h"

static void
test_message_basics (void)
{
  AkcMessage *message = akc_message_new (NULL, AKC_MESSAGE_ROLE_ASSISTANT, NULL, AKC_MESSAGE_STATUS_PENDING);

  g_assert_nonnull (akc_message_get_id (message));
  g_assert_true (g_uuid_string_is_valid (akc_message_get_id (message)));
  g_assert_cmpstr (akc_message_get_content (message), ==, "");
  g_assert_nonnull (akc_message_get_created_at (message));
  g_assert_cmpint (akc_message_get_status (message), ==, AKC_MESSAGE_STATUS_PENDING);

  akc_message_append_content (message, "a\0b", 3);
  g_assert_cmpuint (akc_message_get_content_length (message), ==, 3);
  g_assert_cmpmem (akc_message_get_content (message), 3, "a\0b", 3);

  akc_message_set_content (message, "final");
  g_assert_cmpstr (akc_message_get_content (message), ==, "final");

  g_assert_finalize_object (message);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_message_notify (void)
{
  AkcMessage *message = akc_message_new ("m1", AKC_MESSAGE_ROLE_USER, "hi", AKC_MESSAGE_STATUS_COMPLETE);
  guint content = 0, status = 0;

  g_signal_connect (message, "notify::content", G_CALLBACK (count_notify), &content);
  g_signal_connect (message, "notify::status", G_CALLBACK (count_notify), &status);

  akc_message_set_content (message, "hi");
  akc_message_append_content (message, "", 0);
  akc_message_set_status (message, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpuint (content, ==, 0);
  g_assert_cmpuint (status, ==, 0);

  akc_message_append_content (message, "!", -1);
  akc_message_set_status (message, AKC_MESSAGE_STATUS_ERROR);
  g_assert_cmpuint (content, ==, 1);
  g_assert_cmpuint (status, ==, 1);
  g_assert_cmpstr (akc_message_get_id (message), ==, "m1");
  g_assert_cmpstr (akc_message_get_content (message), ==, "hi!");

  g_assert_finalize_object (message);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/message/basics", test_message_basics);
  g_test_add_func ("/message/notify", test_message_notify);

  return g_test_run ();
}

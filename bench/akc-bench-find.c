/* akc-bench-find.c: the find of a conversation (issue 14 item 5) at size
 *
 * Needs an X display: `xvfb-run -a _build/bench/akc-bench-find [N]`.
 *
 * A chat view shows a conversation of N messages (10,000 by default) in
 * Markdown; the bench times what a person waits for: the first count of
 * a word over the whole conversation (every message parsed), the count
 * of the next letter typed (texts kept), and Enter to the oldest match
 * until it is on screen (older history paged in). It prints the figures
 * and fails when its setup does.
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdlib.h>
#include <akc-gtk.h>

#include "akc-chat-view-private.h"
#include "akc-message-row-private.h"

static gboolean
current_in_sight (AkcChatView *view,
                  AkcMessage  *message)
{
  AkcMessageRow *row = akc_chat_view_get_row (view, message);
  GtkWidget *label = row != NULL ? akc_message_row_get_search_widget (row) : NULL;
  GtkWidget *list = GTK_WIDGET (akc_chat_view_get_list_view (view));
  graphene_rect_t bounds;

  return label != NULL && gtk_widget_get_mapped (label) &&
         gtk_widget_compute_bounds (label, list, &bounds) && bounds.size.height > 0 &&
         bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (list) + 0.5;
}

int
main (int   argc,
      char *argv[])
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 10000;
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcAdapter) adapter = NULL;
  g_autoptr(AkcChat) chat = NULL;
  g_autoptr(AkcMessage) oldest = NULL;
  GtkWidget *window, *scroller;
  AkcChatView *view;
  gint64 start, first, next, reveal;
  guint n_first, n_next;

  gtk_init ();
  if (n < 2)
    {
      g_printerr ("akc-bench-find: at least 2 messages\n");
      return 1;
    }

  adapter = akc_scripted_adapter_new ();
  chat = akc_chat_new (adapter);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *text = i % 2 == 0
        ? g_strdup_printf ("Question %u about the weather, and a needle %s?", i, i % 100 == 0 ? "here" : "")
        : g_strdup_printf ("An **answer** %u:\n\n- one point\n- another, with `code`\n\n"
                           "| a | b |\n|---|---|\n| %u | needle |\n", i, i);

      g_ptr_array_add (messages, akc_message_new (id, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                  text, AKC_MESSAGE_STATUS_COMPLETE));
    }
  oldest = g_object_ref (g_ptr_array_index (messages, 0));
  akc_chat_restore (chat, (AkcMessage * const *) messages->pdata, messages->len);

  view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_source (view, AKC_CHAT_SOURCE (chat));
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 700, 800);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 200; i++)
    g_main_context_iteration (NULL, FALSE);

  start = g_get_monotonic_time ();
  akc_chat_view_set_search_text (view, "needl");
  first = g_get_monotonic_time () - start;
  n_first = akc_chat_view_get_n_matches (view);

  start = g_get_monotonic_time ();
  akc_chat_view_set_search_text (view, "needle");
  next = g_get_monotonic_time () - start;
  n_next = akc_chat_view_get_n_matches (view);

  /* The newest match is current; the next one is the oldest. */
  if (n_next == 0 || !akc_chat_view_find_next (view) || akc_chat_view_get_match_position (view) != 1)
    {
      g_printerr ("akc-bench-find: no match to go to\n");
      return 1;
    }
  start = g_get_monotonic_time ();
  while (!current_in_sight (view, oldest))
    {
      if (g_get_monotonic_time () - start > 60 * G_USEC_PER_SEC)
        {
          g_printerr ("akc-bench-find: the oldest match never came into sight\n");
          return 1;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  reveal = g_get_monotonic_time () - start;

  g_print ("find over %u messages (Markdown, tables):\n", n);
  g_print ("  first count (\"needl\", every message parsed): %8.1f ms, %u matches\n", first / 1000.0, n_first);
  g_print ("  next letter (\"needle\", texts kept):          %8.1f ms, %u matches\n", next / 1000.0, n_next);
  g_print ("  Enter to the oldest match, until in sight:   %8.1f ms\n", reveal / 1000.0);

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}

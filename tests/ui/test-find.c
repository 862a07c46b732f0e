/* test-find.c: the find in a conversation (issue 14 item 5): AkcChatView's
 * search over the whole conversation and AkcFindBar, in process
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
  GtkWidget   *window;
  GtkWidget   *box;
  GtkWidget   *button;
  GtkWidget   *scroller;
  AkcFindBar  *bar;
  AkcChatView *view;
  AkcChat     *chat;
} Fixture;

static AkcMessage *
message_at (Fixture *fixture,
            guint    position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat)),
                                                         position);

  return message;   /* the model keeps it alive */
}

/* 200 messages; "needle" is in a few of them, in the ways a transcript
 * shows text. */
static const char *
text_of (guint i)
{
  switch (i)
    {
    case 3:
      return "The oldest **Needle** of all, and needle again";   /* 2 */
    case 40:
      return "A table:\n\n| a | b |\n|---|---|\n| hay | a needle |\n";   /* 1, in a cell */
    case 101:
      return "Some code:\n\n```\nlet needle = 1;\n```\n";   /* 1, in code */
    case 150:
      return "Stra\xc3\x9f" "e and NEEDLES";   /* 1 */
    case 198:
      return "the newest needle";   /* 1 */
    default:
      return NULL;
    }
}

#define N_NEEDLES 6

static void
fixture_init (Fixture *fixture,
              guint    n)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();

  fixture->chat = akc_chat_new (adapter);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *text = text_of (i) != NULL ? g_strdup (text_of (i))
                              : g_strdup_printf ("Message %u, with a few words\n\nand a second paragraph.", i);

      g_ptr_array_add (messages, akc_message_new (id, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                  text, AKC_MESSAGE_STATUS_COMPLETE));
    }
  akc_chat_restore (fixture->chat, (AkcMessage * const *) messages->pdata, messages->len);

  fixture->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_source (fixture->view, AKC_CHAT_SOURCE (fixture->chat));
  fixture->bar = AKC_FIND_BAR (akc_find_bar_new ());
  akc_find_bar_set_view (fixture->bar, fixture->view);

  fixture->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (fixture->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), GTK_WIDGET (fixture->view));
  gtk_widget_set_vexpand (fixture->scroller, TRUE);

  fixture->button = gtk_button_new_with_label ("Elsewhere");
  fixture->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (fixture->box), GTK_WIDGET (fixture->bar));
  gtk_box_append (GTK_BOX (fixture->box), fixture->scroller);
  gtk_box_append (GTK_BOX (fixture->box), fixture->button);

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 500);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->box);
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_frames (fixture->window, 3);
}

static void
fixture_clear (Fixture *fixture)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  spin ();
  g_assert_finalize_object (fixture->chat);
}

typedef struct {
  Fixture *fixture;
  guint    message;
} RowWait;

/* The current match's label is built, on screen and in sight. */
static gboolean
match_in_sight (RowWait *wait)
{
  AkcChatView *view = wait->fixture->view;
  AkcMessageRow *row = akc_chat_view_get_row (view, message_at (wait->fixture, wait->message));
  GtkWidget *label = row != NULL ? akc_message_row_get_search_widget (row) : NULL;
  GtkWidget *list = GTK_WIDGET (akc_chat_view_get_list_view (view));
  graphene_rect_t bounds;

  if (label == NULL || !gtk_widget_get_mapped (label) ||
      !gtk_widget_compute_bounds (label, list, &bounds))
    return FALSE;

  return bounds.size.height > 0 && bounds.origin.y >= 0 &&
         bounds.origin.y + bounds.size.height <= gtk_widget_get_height (list) + 0.5;
}

static void
assert_match_in_sight (Fixture *fixture,
                       guint    message)
{
  RowWait wait = { fixture, message };

  WAIT_FOR (match_in_sight, &wait);
}

/* Counts the highlights in @label's attributes: all, and current ones. */
static void
count_highlights (GtkLabel *label,
                  guint    *n_all,
                  guint    *n_current)
{
  PangoAttrList *attrs = gtk_label_get_attributes (label);
  g_autoptr(GSList) list = NULL;

  *n_all = *n_current = 0;
  if (attrs == NULL)
    return;

  list = pango_attr_list_get_attributes (attrs);
  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attr = l->data;

      if (attr->klass->type == PANGO_ATTR_BACKGROUND)
        (*n_all)++;
      if (attr->klass->type == PANGO_ATTR_UNDERLINE)
        (*n_current)++;
    }
  g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);
}

/* The backgrounds the label's text is drawn with: its layout's, which
 * GTK 4.8 does not always bring in line with the label's attributes. */
static guint
drawn_highlights (GtkLabel *label)
{
  PangoAttrList *attrs = pango_layout_get_attributes (gtk_label_get_layout (label));
  g_autoptr(GSList) list = NULL;
  guint n = 0;

  if (attrs == NULL)
    return 0;

  list = pango_attr_list_get_attributes (attrs);
  for (GSList *l = list; l != NULL; l = l->next)
    if (((PangoAttribute *) l->data)->klass->type == PANGO_ATTR_BACKGROUND)
      n++;
  g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);

  return n;
}

static guint
counted_notifies;

static void
count_notify (void)
{
  counted_notifies++;
}

/* Matches are counted in every message of the conversation, not only
 * in the rows the list view built; the current one is the newest. */
static void
test_find_counts_whole_conversation (void)
{
  Fixture fixture = { 0 };

  fixture_init (&fixture, 200);
  /* The oldest rows are not built: their messages count all the same. */
  g_assert_null (akc_chat_view_get_row (fixture.view, message_at (&fixture, 3)));

  g_signal_connect_swapped (fixture.view, "notify::n-matches", G_CALLBACK (count_notify), NULL);
  counted_notifies = 0;
  akc_chat_view_set_search_text (fixture.view, "needle");
  g_assert_cmpstr (akc_chat_view_get_search_text (fixture.view), ==, "needle");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, N_NEEDLES);
  g_assert_cmpuint (counted_notifies, ==, 1);
  g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, N_NEEDLES);
  assert_match_in_sight (&fixture, 198);

  /* Rendered text, not its Markdown: the markers are not found. */
  akc_chat_view_set_search_text (fixture.view, "**needle");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 0);
  g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, 0);
  /* Case and Unicode forms: "STRASSE" is "Straße". */
  akc_chat_view_set_search_text (fixture.view, "STRASSE");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 1);
  g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, 1);

  /* Nothing looked for: nothing found. */
  akc_chat_view_set_search_text (fixture.view, "");
  g_assert_null (akc_chat_view_get_search_text (fixture.view));
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 0);
  g_assert_false (akc_chat_view_find_next (fixture.view));

  fixture_clear (&fixture);
}

/* Next and previous go round the matches, bring each into sight (paging
 * in the oldest history for it) and highlight it. */
static void
test_find_moves_and_highlights (void)
{
  Fixture fixture = { 0 };
  AkcMessageRow *row;
  GtkWidget *label;
  guint n_all, n_current;
  static const guint order[N_NEEDLES] = { 3, 3, 40, 101, 150, 198 };

  fixture_init (&fixture, 200);
  akc_chat_view_set_search_text (fixture.view, "needle");
  assert_match_in_sight (&fixture, 198);

  /* After the last comes the first: in the oldest message. */
  g_assert_true (akc_chat_view_find_next (fixture.view));
  g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, 1);
  assert_match_in_sight (&fixture, 3);

  /* Both matches of that paragraph are highlighted, the first one as the
   * current one. */
  row = akc_chat_view_get_row (fixture.view, message_at (&fixture, 3));
  label = akc_message_row_get_search_widget (row);
  g_assert_true (GTK_IS_LABEL (label));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "The oldest Needle of all, and needle again");
  count_highlights (GTK_LABEL (label), &n_all, &n_current);
  g_assert_cmpuint (n_all, ==, 2);
  g_assert_cmpuint (n_current, ==, 1);
  g_assert_cmpuint (drawn_highlights (GTK_LABEL (label)), ==, 2);

  /* Through every match in order: a table cell and code too. */
  for (guint i = 1; i < N_NEEDLES; i++)
    {
      g_assert_true (akc_chat_view_find_next (fixture.view));
      g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, i + 1);
      assert_match_in_sight (&fixture, order[i]);
    }

  /* And back: before the first comes the last. */
  for (guint i = 0; i < N_NEEDLES; i++)
    g_assert_true (akc_chat_view_find_previous (fixture.view));
  g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, N_NEEDLES);
  assert_match_in_sight (&fixture, 198);

  /* The end of the find takes the highlights away. */
  g_assert_true (akc_chat_view_find_next (fixture.view));
  assert_match_in_sight (&fixture, 3);
  row = akc_chat_view_get_row (fixture.view, message_at (&fixture, 3));
  label = akc_message_row_get_search_widget (row);
  akc_chat_view_set_search_text (fixture.view, NULL);
  count_highlights (GTK_LABEL (label), &n_all, &n_current);
  g_assert_cmpuint (n_all, ==, 0);
  /* And what is drawn too (a label with markup kept them, on GTK 4.8). */
  g_assert_cmpuint (drawn_highlights (GTK_LABEL (label)), ==, 0);
  g_assert_null (akc_message_row_get_search_widget (row));

  fixture_clear (&fixture);
}

#define PREFIX "\x1e" "agentskit.chat.content/1\n"
#define FRAME(key, props) \
  "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\"," \
  "\"componentKey\":\"" key "\",\"instanceId\":\"" key "-1\",\"props\":" props "," \
  "\"fallback\":{\"kind\":\"" key "\",\"summary\":\"Not shown\"}}"

/* Native components are found by the texts they show (issue 14 item 6):
 * a choice list's prompt, labels and descriptions, a table's caption,
 * column labels and cells, a source list's titles and snippets, a form's
 * title and field labels; never their ids, keys or links. Every match
 * counted is highlighted in a label of the component when it is current. */
static void
test_find_in_components (void)
{
  static const char *content =
    PREFIX
    "{\"kind\":\"text\",\"text\":\"About the harbour:\"}\n"
    "{\"kind\":\"component\",\"frame\":" FRAME ("choice-list",
      "{\"prompt\":\"Pick a harbour\",\"choices\":[{\"id\":\"harbour-porto\",\"label\":\"Porto harbour\"},"
      "{\"id\":\"faro\",\"label\":\"Faro\",\"description\":\"An old harbour town\"}]}") "}\n"
    "{\"kind\":\"component\",\"frame\":" FRAME ("table",
      "{\"caption\":\"Harbour fees\",\"columns\":[{\"key\":\"harbour\",\"label\":\"Place\"},"
      "{\"key\":\"fee\",\"label\":\"Fee\"}],\"rows\":[{\"harbour\":\"Lisbon harbour\",\"fee\":12}]}") "}\n"
    "{\"kind\":\"component\",\"frame\":" FRAME ("source-list",
      "{\"label\":\"Sources\",\"sources\":[{\"id\":\"s1\",\"title\":\"Harbour guide\","
      "\"url\":\"https://example.org/harbour\",\"snippet\":\"Where boats harbour\"}]}") "}\n"
    "{\"kind\":\"component\",\"frame\":" FRAME ("form",
      "{\"title\":\"Book a harbour berth\",\"fields\":[{\"id\":\"harbour\",\"label\":\"Boat name\",\"type\":\"text\"}],"
      "\"submitLabel\":\"Book\"}") "}\n";
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  g_autoptr(AkcMessage) question = akc_message_new ("q", AKC_MESSAGE_ROLE_USER, "Which port?", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) reply = akc_message_new ("r", AKC_MESSAGE_ROLE_ASSISTANT, content, AKC_MESSAGE_STATUS_COMPLETE);
  AkcMessage *messages[] = { question, reply };
  Fixture fixture = { 0 };
  AkcMessageRow *row;
  guint n;

  fixture.chat = akc_chat_new (adapter);
  akc_chat_restore (fixture.chat, messages, G_N_ELEMENTS (messages));
  fixture.view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_manifest (fixture.view, manifest);
  akc_chat_view_set_source (fixture.view, AKC_CHAT_SOURCE (fixture.chat));
  fixture.scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture.scroller), GTK_WIDGET (fixture.view));
  fixture.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture.window), 600, 900);
  gtk_window_set_child (GTK_WINDOW (fixture.window), fixture.scroller);
  gtk_window_present (GTK_WINDOW (fixture.window));
  wait_frames (fixture.window, 3);

  /* The text part, then: prompt, a label, a description; the caption and
   * a cell; a title and a snippet; the form's title. Not the ids "harbour-porto",
   * the column key "harbour", the field id, the URL. */
  akc_chat_view_set_search_text (fixture.view, "harbour");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 9);
  akc_chat_view_set_search_text (fixture.view, "fees");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 1);
  akc_chat_view_set_search_text (fixture.view, "example");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 0);
  akc_chat_view_set_search_text (fixture.view, "fee");
  /* The caption and the column label "Fee". */
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 2);

  /* Each match, in turn, is the highlighted label of its component. */
  akc_chat_view_set_search_text (fixture.view, "harbour");
  n = akc_chat_view_get_n_matches (fixture.view);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *label;
      g_autofree char *folded = NULL;
      guint n_all, n_current;

      g_assert_true (akc_chat_view_find_next (fixture.view));
      wait_frames (fixture.window, 2);
      row = akc_chat_view_get_row (fixture.view, reply);
      g_assert_nonnull (row);
      label = akc_message_row_get_search_widget (row);
      if (label == NULL)
        {
          g_autoptr(GPtrArray) labels = find_all (GTK_WIDGET (row), is_type, GSIZE_TO_POINTER (GTK_TYPE_LABEL));

          for (guint j = 0; j < labels->len; j++)
            g_printerr ("label: «%s»\n", gtk_label_get_text (g_ptr_array_index (labels, j)));
          g_error ("match %u of %u is not highlighted", akc_chat_view_get_match_position (fixture.view), n);
        }
      if (GTK_IS_INSCRIPTION (label))
        {
          /* A table cell. */
          folded = g_utf8_casefold (gtk_inscription_get_text (GTK_INSCRIPTION (label)), -1);
          g_assert_nonnull (gtk_inscription_get_attributes (GTK_INSCRIPTION (label)));
        }
      else
        {
          folded = g_utf8_casefold (gtk_label_get_text (GTK_LABEL (label)), -1);
          count_highlights (GTK_LABEL (label), &n_all, &n_current);
          g_assert_cmpuint (n_current, ==, 1);
        }
      g_assert_nonnull (strstr (folded, "harbour"));
    }

  fixture_clear (&fixture);
}

static gboolean
has_n_matches (gpointer data)
{
  Fixture *fixture = data;

  return akc_chat_view_get_n_matches (fixture->view) == N_NEEDLES + 1;
}

/* The count follows the conversation as it changes. */
static void
test_find_follows_changes (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GError) error = NULL;

  fixture_init (&fixture, 200);
  akc_chat_view_set_search_text (fixture.view, "needle");
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, N_NEEDLES);

  /* Another message with one more: counted once the change is over. The
   * current match stays where it was. */
  akc_chat_source_set_input (AKC_CHAT_SOURCE (fixture.chat), "one more needle");
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "one more needle", &error));
  g_assert_no_error (error);
  WAIT_FOR (has_n_matches, &fixture);
  g_assert_cmpuint (akc_chat_view_get_match_position (fixture.view), ==, N_NEEDLES);
  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture.chat));

  fixture_clear (&fixture);
}

typedef struct {
  Fixture    *fixture;
  const char *text;
} LabelWait;

static GtkWidget *
count_label (AkcFindBar *bar)
{
  for (GtkWidget *w = gtk_widget_get_next_sibling (GTK_WIDGET (akc_find_bar_get_entry (bar)));
       w != NULL; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_LABEL (w))
      return w;

  return NULL;
}

static gboolean
count_says (LabelWait *wait)
{
  GtkWidget *label = count_label (wait->fixture->bar);

  return label != NULL && g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), wait->text) == 0;
}

/* The window's focus is @widget or inside it (a search entry's text). */
static gboolean
has_focus (GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (widget));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* The bar: opened with the keyboard in its entry, it finds what is typed,
 * says "N of M", moves with Enter and its keys, and closing it ends the
 * find and gives the keyboard back. */
static void
test_find_bar (void)
{
  Fixture fixture = { 0 };
  GtkWidget *entry;
  LabelWait wait;

  fixture_init (&fixture, 200);
  entry = GTK_WIDGET (akc_find_bar_get_entry (fixture.bar));

  gtk_test_accessible_assert_role (fixture.bar, GTK_ACCESSIBLE_ROLE_SEARCH);
  gtk_test_accessible_assert_property (fixture.bar, GTK_ACCESSIBLE_PROPERTY_LABEL, "Find in Conversation");
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_LABEL, "Find in Conversation");
  g_assert_false (akc_find_bar_get_search_mode (fixture.bar));

  gtk_widget_grab_focus (fixture.button);
  akc_find_bar_set_search_mode (fixture.bar, TRUE);
  g_assert_true (akc_find_bar_get_search_mode (fixture.bar));
  WAIT_FOR (has_focus, entry);

  gtk_editable_set_text (GTK_EDITABLE (entry), "NEEDLE");
  wait = (LabelWait) { &fixture, "6 of 6" };
  WAIT_FOR (count_says, &wait);
  g_assert_cmpstr (akc_chat_view_get_search_text (fixture.view), ==, "NEEDLE");
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "6 of 6");

  /* Enter: the next match, round to the first. */
  g_signal_emit_by_name (entry, "activate");
  wait.text = "1 of 6";
  WAIT_FOR (count_says, &wait);
  assert_match_in_sight (&fixture, 3);
  /* Ctrl+Shift+G (the entry's previous-match): back to the last. */
  g_signal_emit_by_name (entry, "previous-match");
  wait.text = "6 of 6";
  WAIT_FOR (count_says, &wait);
  g_signal_emit_by_name (entry, "next-match");
  wait.text = "1 of 6";
  WAIT_FOR (count_says, &wait);

  /* Escape with matches shown: every highlight goes with the bar. */
  {
    AkcMessageRow *row = akc_chat_view_get_row (fixture.view, message_at (&fixture, 3));
    GtkWidget *label = akc_message_row_get_search_widget (row);
    guint n_all, n_current;

    g_assert_nonnull (label);
    g_signal_emit_by_name (entry, "stop-search");
    spin ();
    count_highlights (GTK_LABEL (label), &n_all, &n_current);
    g_assert_cmpuint (n_all, ==, 0);
    g_assert_cmpuint (drawn_highlights (GTK_LABEL (label)), ==, 0);
    akc_find_bar_set_search_mode (fixture.bar, TRUE);
    wait.text = "6 of 6";
    WAIT_FOR (count_says, &wait);
  }

  gtk_editable_set_text (GTK_EDITABLE (entry), "haystack");
  wait.text = "No matches";
  WAIT_FOR (count_says, &wait);
  g_assert_false (gtk_widget_get_sensitive (gtk_widget_get_next_sibling (count_label (fixture.bar))));

  /* Escape (the entry's stop-search): closed, nothing highlighted, the
   * keyboard back on the button. */
  g_signal_emit_by_name (entry, "stop-search");
  g_assert_false (akc_find_bar_get_search_mode (fixture.bar));
  g_assert_null (akc_chat_view_get_search_text (fixture.view));
  g_assert_cmpuint (akc_chat_view_get_n_matches (fixture.view), ==, 0);
  WAIT_FOR (has_focus, fixture.button);

  /* Opened again: the last search comes back, selected. */
  akc_find_bar_set_search_mode (fixture.bar, TRUE);
  g_assert_cmpstr (akc_chat_view_get_search_text (fixture.view), ==, "haystack");

  fixture_clear (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/find/counts-whole-conversation", test_find_counts_whole_conversation);
  g_test_add_func ("/find/moves-and-highlights", test_find_moves_and_highlights);
  g_test_add_func ("/find/follows-changes", test_find_follows_changes);
  g_test_add_func ("/find/bar", test_find_bar);
  g_test_add_func ("/find/in-components", test_find_in_components);

  return g_test_run ();
}

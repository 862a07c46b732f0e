/* test-transcript.c: AkcChatView, AkcMessageRow and the Markdown renderer,
 * in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <locale.h>
#include <akc-gtk.h>

#include "akc-chat-view-private.h"
#include "akc-code-block-private.h"
#include "akc-markdown-private.h"
#include "akc-markdown-view-private.h"
#include "akc-message-row-private.h"
#include "akc-test-ui.h"

static gboolean
has_action (GtkWidget     *widget,
            gconstpointer  data)
{
  return GTK_IS_ACTIONABLE (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), data) == 0 &&
         gtk_widget_get_mapped (widget);
}

static AkcMessage *
message_at (AkcChatSource *source,
            guint          position)
{
  g_autoptr(AkcMessage) message = g_list_model_get_item (akc_chat_source_get_messages (source), position);

  return message;   /* the model keeps it alive */
}

/* ------------------------------------------------------------------ */
/* A window with a chat view                                           */
/* ------------------------------------------------------------------ */

typedef struct {
  GtkWidget          *window;
  GtkWidget          *scroller;
  AkcChatView        *view;
  AkcChat            *chat;
  AkcScriptedAdapter *script;
} Fixture;

static AkcMessage *
new_message (guint           i,
             AkcMessageRole  role,
             const char     *content)
{
  g_autofree char *id = g_strdup_printf ("m%u", i);

  return akc_message_new (id, role, content, AKC_MESSAGE_STATUS_COMPLETE);
}

/* @n messages, user and assistant in turn, with a few lines each. */
static void
fixture_init (Fixture *fixture,
              guint    n,
              int      height)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  AkcAdapter *adapter = akc_scripted_adapter_new ();

  fixture->script = AKC_SCRIPTED_ADAPTER (adapter);
  fixture->chat = akc_chat_new (adapter);
  g_object_unref (adapter);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = NULL;

      if (i % 2 == 0)
        text = g_strdup_printf ("Question %u?", i);
      else
        text = g_strdup_printf ("Answer **%u**, with a list:\n\n- one\n- two\n", i);
      g_ptr_array_add (messages, new_message (i, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT, text));
    }
  akc_chat_restore (fixture->chat, (AkcMessage * const *) messages->pdata, messages->len);

  fixture->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_source (fixture->view, AKC_CHAT_SOURCE (fixture->chat));

  fixture->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (fixture->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), GTK_WIDGET (fixture->view));

  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, height);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->scroller);
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

static GtkAdjustment *
vadjustment (Fixture *fixture)
{
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (fixture->scroller));
}

static gboolean
is_at_end (Fixture *fixture)
{
  GtkAdjustment *adjustment = vadjustment (fixture);

  return gtk_adjustment_get_value (adjustment) >=
         gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 2.0;
}

/* ------------------------------------------------------------------ */
/* Markdown                                                            */
/* ------------------------------------------------------------------ */

static AkcMarkdownBlock *
block_at (GPtrArray *blocks,
          guint      i)
{
  g_assert_cmpuint (i, <, blocks->len);
  return g_ptr_array_index (blocks, i);
}

static void
test_markdown_structure (void)
{
  const char *text =
    "# Title\n"
    "\n"
    "Some *emphasis*, **strong**, ~~gone~~ and `code`.\n"
    "\n"
    "- first\n"
    "- second\n"
    "  1. nested\n"
    "\n"
    "3. three\n"
    "4. four\n"
    "\n"
    "> quoted\n"
    "\n"
    "- [x] done\n"
    "\n"
    "```python\n"
    "print('<b>')\n"
    "```\n"
    "\n"
    "---\n"
    "\n"
    "Line one\n"
    "line two\n";
  g_autoptr(GPtrArray) blocks = akc_markdown_parse (text, strlen (text));
  AkcMarkdownBlock *block;

  g_assert_cmpuint (blocks->len, ==, 12);

  block = block_at (blocks, 0);
  g_assert_cmpint (block->kind, ==, AKC_MARKDOWN_HEADING);
  g_assert_cmpuint (block->level, ==, 1);
  g_assert_cmpstr (block->markup, ==, "Title");

  block = block_at (blocks, 1);
  g_assert_cmpint (block->kind, ==, AKC_MARKDOWN_PARAGRAPH);
  g_assert_cmpstr (block->markup, ==, "Some <i>emphasis</i>, <b>strong</b>, <s>gone</s> and "
                   AKC_MARKDOWN_CODE_SPAN_OPEN "code" AKC_MARKDOWN_CODE_SPAN_CLOSE ".");
  g_assert_cmpstr (block->text, ==, "Some emphasis, strong, gone and code.");

  block = block_at (blocks, 2);
  g_assert_cmpstr (block->marker, ==, "•");
  g_assert_cmpuint (block->list_depth, ==, 1);
  g_assert_cmpstr (block->text, ==, "first");
  block = block_at (blocks, 3);
  g_assert_cmpstr (block->marker, ==, "•");
  g_assert_cmpstr (block->text, ==, "second");
  block = block_at (blocks, 4);
  g_assert_cmpstr (block->marker, ==, "1.");
  g_assert_cmpuint (block->list_depth, ==, 2);
  g_assert_cmpstr (block->text, ==, "nested");

  /* An ordered list keeps its start. */
  g_assert_cmpstr (block_at (blocks, 5)->marker, ==, "3.");
  g_assert_cmpstr (block_at (blocks, 6)->marker, ==, "4.");

  block = block_at (blocks, 7);
  g_assert_cmpuint (block->quote_depth, ==, 1);
  g_assert_cmpuint (block->list_depth, ==, 0);
  g_assert_cmpstr (block->text, ==, "quoted");

  g_assert_cmpstr (block_at (blocks, 8)->marker, ==, "☑");

  block = block_at (blocks, 9);
  g_assert_cmpint (block->kind, ==, AKC_MARKDOWN_CODE);
  g_assert_cmpstr (block->language, ==, "python");
  g_assert_cmpstr (block->text, ==, "print('<b>')");
  g_assert_null (block->markup);

  g_assert_cmpint (block_at (blocks, 10)->kind, ==, AKC_MARKDOWN_RULE);

  /* Chat text keeps its line breaks. */
  g_assert_cmpstr (block_at (blocks, 11)->text, ==, "Line one\nline two");
}

static void
test_markdown_escaping (void)
{
  const char *text = "Use <b>bold</b> & <i>keep</i> it &amp; <span foreground=\"red\">x</span> &#60;3 &bogus;";
  g_autoptr(GPtrArray) blocks = akc_markdown_parse (text, strlen (text));
  AkcMarkdownBlock *block;
  g_autoptr(PangoAttrList) attrs = NULL;
  g_autofree char *plain = NULL;
  GtkWidget *label;

  g_assert_cmpuint (blocks->len, ==, 1);
  block = block_at (blocks, 0);

  /* Raw HTML is not Markdown here, and model text is never markup. */
  g_assert_cmpstr (block->text, ==,
                   "Use <b>bold</b> & <i>keep</i> it & <span foreground=\"red\">x</span> <3 &bogus;");
  g_assert_true (pango_parse_markup (block->markup, -1, 0, &attrs, &plain, NULL, NULL));
  g_assert_cmpstr (plain, ==, block->text);
  /* No attribute at all: nothing in the text became formatting. */
  g_assert_null (pango_attr_list_get_attributes (attrs) != NULL
                 ? ((PangoAttribute *) pango_attr_list_get_attributes (attrs)->data) : NULL);

  /* A label shows the characters. */
  label = gtk_label_new (NULL);
  g_object_ref_sink (label);
  gtk_label_set_markup (GTK_LABEL (label), block->markup);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, block->text);
  g_object_unref (label);

  /* Inline code and code blocks stay verbatim too. */
  {
    const char *code = "`<b>&amp;</b>`\n\n```\n<i>&</i>\n```\n";
    g_autoptr(GPtrArray) code_blocks = akc_markdown_parse (code, strlen (code));

    g_assert_cmpstr (block_at (code_blocks, 0)->markup, ==, AKC_MARKDOWN_CODE_SPAN_OPEN "&lt;b&gt;&amp;amp;&lt;/b&gt;" AKC_MARKDOWN_CODE_SPAN_CLOSE);
    g_assert_cmpstr (block_at (code_blocks, 0)->text, ==, "<b>&amp;</b>");
    g_assert_cmpstr (block_at (code_blocks, 1)->text, ==, "<i>&</i>");
  }

  /* U+0000 and invalid UTF-8 never break a label. */
  {
    const char bad[] = "a\0b \xff c";
    g_autoptr(GPtrArray) bad_blocks = akc_markdown_parse (bad, sizeof bad - 1);
    g_autofree char *shown = akc_display_text (bad, sizeof bad - 1);

    g_assert_true (g_utf8_validate (block_at (bad_blocks, 0)->markup, -1, NULL));
    g_assert_cmpstr (block_at (bad_blocks, 0)->text, ==, "a\xEF\xBF\xBD" "b \xEF\xBF\xBD c");
    g_assert_cmpstr (shown, ==, "a\xEF\xBF\xBD" "b \xEF\xBF\xBD c");
  }
}

static void
test_markdown_links (void)
{
  const char *text = "[site](https://example.com/a?b=1&c=\"2\") [js](javascript:alert(1)) "
                     "[file](file:///etc/passwd) [rel](/docs) <http://example.org> https://auto.example/x";
  g_autoptr(GPtrArray) blocks = akc_markdown_parse (text, strlen (text));
  AkcMarkdownBlock *block = block_at (blocks, 0);

  g_assert_cmpuint (block->n_links, ==, 3);
  g_assert_nonnull (strstr (block->markup,
                            "<a href=\"https://example.com/a?b=1&amp;c=&quot;2&quot;\" "
                            "title=\"https://example.com/a?b=1&amp;c=&quot;2&quot;\">site</a>"));
  g_assert_nonnull (strstr (block->markup, "<a href=\"http://example.org\""));
  g_assert_nonnull (strstr (block->markup, "<a href=\"https://auto.example/x\""));
  /* The others are text. */
  g_assert_null (strstr (block->markup, "javascript:"));
  g_assert_null (strstr (block->markup, "file:"));
  g_assert_null (strstr (block->markup, "href=\"/docs\""));
  g_assert_nonnull (strstr (block->text, "js file rel"));

  g_assert_true (akc_markdown_uri_is_safe ("https://example.com"));
  g_assert_true (akc_markdown_uri_is_safe ("HTTP://example.com/x"));
  g_assert_false (akc_markdown_uri_is_safe ("https://"));
  g_assert_false (akc_markdown_uri_is_safe ("mailto:a@example.com"));
  g_assert_false (akc_markdown_uri_is_safe ("//example.com/x"));
  g_assert_false (akc_markdown_uri_is_safe (NULL));
}

static void
record_uri (AkcMarkdownView *view,
            const char      *uri,
            GPtrArray       *uris)
{
  g_ptr_array_add (uris, g_strdup (uri));
  g_signal_stop_emission_by_name (view, "open-uri");
}

static gboolean
activate_link (GtkLabel   *label,
               const char *uri)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (label, "activate-link", uri, &handled);
  return handled;
}

static void
test_markdown_view (void)
{
  const char *text = "# Heading\n\nSee [docs](https://example.com/docs) and <b>this</b> & that.\n\n"
                     "- item\n\n```c\nint x;\n```\n";
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = akc_markdown_view_new ();
  g_autoptr(GPtrArray) uris = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *heading, *paragraph, *item, *code;

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (view, "open-uri", G_CALLBACK (record_uri), uris);

  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text, strlen (text), FALSE);
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (AKC_MARKDOWN_VIEW (view)), ==, 4);

  heading = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 0);
  g_assert_true (GTK_IS_LABEL (heading));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (heading)), ==, "Heading");
  g_assert_true (gtk_widget_has_css_class (heading, "md-h1"));
  gtk_test_accessible_assert_role (heading, GTK_ACCESSIBLE_ROLE_HEADING);
  gtk_test_accessible_assert_property (heading, GTK_ACCESSIBLE_PROPERTY_LEVEL, 1);

  paragraph = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 1);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (paragraph)), ==, "See docs and <b>this</b> & that.");

  /* Only absolute http(s) links are opened. */
  g_assert_true (activate_link (GTK_LABEL (paragraph), "https://example.com/docs"));
  g_assert_true (activate_link (GTK_LABEL (paragraph), "javascript:alert(1)"));
  g_assert_true (activate_link (GTK_LABEL (paragraph), "file:///etc/passwd"));
  g_assert_cmpuint (uris->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (uris, 0), ==, "https://example.com/docs");

  item = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 2);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (item)), ==, "item");
  g_assert_nonnull (find_widget (gtk_widget_get_parent (item), is_label_with_text, "•"));

  code = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 3);
  g_assert_true (AKC_IS_CODE_BLOCK (code));
  g_assert_cmpstr (akc_code_block_get_code (AKC_CODE_BLOCK (code)), ==, "int x;");
  gtk_test_accessible_assert_property (code, GTK_ACCESSIBLE_PROPERTY_LABEL, "Code, c");
  g_assert_nonnull (find_widget (code, is_label_with_text, "int x;"));
  g_assert_true (gtk_widget_has_css_class (find_widget (code, is_label_with_text, "int x;"), "monospace"));

  /* The copy button puts the code on the clipboard. */
  {
    GtkWidget *copy = find_widget (code, has_action, "code.copy");

    g_assert_nonnull (copy);
    gtk_test_accessible_assert_property (copy, GTK_ACCESSIBLE_PROPERTY_LABEL, "Copy code");
    g_assert_true (gtk_widget_activate_action (code, "code.copy", NULL));
    g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (copy)), ==, "object-select-symbolic");
  }

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

static void
count_label_changes (GtkLabel   *label,
                     GParamSpec *pspec,
                     guint      *count)
{
  (*count)++;
}

static void
test_markdown_streaming (void)
{
  GtkWidget *window = gtk_window_new ();
  AkcMarkdownView *view = AKC_MARKDOWN_VIEW (akc_markdown_view_new ());
  g_autoptr(GString) text = g_string_new ("First paragraph, which is done.\n\nSecond");
  GtkWidget *first, *second;
  guint first_changes = 0, second_changes = 0;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));

  akc_markdown_view_set_text (view, text->str, text->len, TRUE);
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (view), ==, 2);
  g_assert_cmpuint (akc_markdown_view_get_n_stable (view), ==, 1);
  first = akc_markdown_view_get_block_widget (view, 0);
  second = akc_markdown_view_get_block_widget (view, 1);
  /* The paragraph being written is drawn from one layout, not by a label
   * (which lays its text out four times a change); the done one is a
   * label. */
  g_assert_true (GTK_IS_LABEL (first));
  g_assert_false (GTK_IS_LABEL (second));
  g_assert_true (gtk_widget_has_css_class (second, "md-paragraph"));
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (second)), ==, GTK_ACCESSIBLE_ROLE_LABEL);
  g_signal_connect (first, "notify::label", G_CALLBACK (count_label_changes), &first_changes);

  /* Appending to the open paragraph touches its widget only. */
  for (guint i = 0; i < 20; i++)
    {
      g_string_append (text, " word");
      akc_markdown_view_set_text (view, text->str, text->len, TRUE);
    }
  g_assert_cmpuint (first_changes, ==, 0);
  g_assert_true (akc_markdown_view_get_block_widget (view, 0) == first);
  g_assert_true (akc_markdown_view_get_block_widget (view, 1) == second);
  g_assert_true (g_str_has_prefix (akc_markdown_view_get_block (view, 1)->text, "Second word word"));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (second), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       akc_markdown_view_get_block (view, 1)->text);

  /* A blank line closes it: a label now (selectable, its links open),
   * which stays; a third paragraph is the one being written. */
  g_string_append (text, ".\n\nThird");
  akc_markdown_view_set_text (view, text->str, text->len, TRUE);
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (view), ==, 3);
  g_assert_cmpuint (akc_markdown_view_get_n_stable (view), ==, 2);
  second = akc_markdown_view_get_block_widget (view, 1);
  g_assert_true (GTK_IS_LABEL (second));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (second)), "Second word word"));
  g_assert_false (GTK_IS_LABEL (akc_markdown_view_get_block_widget (view, 2)));
  g_signal_connect (second, "notify::label", G_CALLBACK (count_label_changes), &second_changes);
  g_string_append (text, " more");
  akc_markdown_view_set_text (view, text->str, text->len, TRUE);
  g_assert_true (akc_markdown_view_get_block_widget (view, 1) == second);
  g_assert_cmpuint (first_changes, ==, 0);
  g_assert_cmpuint (second_changes, ==, 0);

  /* A code fence streams into one code block; a blank line inside it is
   * not a split. */
  g_string_append (text, "\n\n```\nline 1\n\n");
  akc_markdown_view_set_text (view, text->str, text->len, TRUE);
  for (guint i = 2; i <= 100; i++)
    {
      g_string_append_printf (text, "line %u\n", i);
      akc_markdown_view_set_text (view, text->str, text->len, TRUE);
    }
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (view), ==, 4);
  {
    GtkWidget *code = akc_markdown_view_get_block_widget (view, 3);

    g_assert_true (AKC_IS_CODE_BLOCK (code));
    /* Long code is a column of labels of 20 lines; the last, being
     * written, is drawn without a label. */
    g_assert_cmpuint (akc_code_block_get_n_chunks (AKC_CODE_BLOCK (code)), ==, 6);
    g_assert_true (g_str_has_prefix (akc_code_block_get_code (AKC_CODE_BLOCK (code)), "line 1\n\nline 2\n"));
    g_assert_true (GTK_IS_LABEL (akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 4)));
    g_assert_false (GTK_IS_LABEL (akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 5)));
    gtk_test_accessible_assert_property (GTK_ACCESSIBLE (akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 5)),
                                         GTK_ACCESSIBLE_PROPERTY_LABEL, "line 100");
  }

  /* Freezing parses the whole text once and keeps what did not change. */
  g_string_append (text, "```\n");
  akc_markdown_view_set_text (view, text->str, text->len, FALSE);
  g_assert_false (akc_markdown_view_get_streaming (view));
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (view), ==, 4);
  g_assert_true (akc_markdown_view_get_block_widget (view, 0) == first);
  g_assert_true (akc_markdown_view_get_block_widget (view, 1) == second);
  g_assert_cmpuint (first_changes, ==, 0);
  /* Done: every chunk of the code is a label. */
  {
    AkcCodeBlock *code = AKC_CODE_BLOCK (akc_markdown_view_get_block_widget (view, 3));
    GtkWidget *last = akc_code_block_get_chunk (code, akc_code_block_get_n_chunks (code) - 1);

    g_assert_true (GTK_IS_LABEL (last));
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (last)), ==, "line 100");
  }

  /* Text that does not continue the old one is drawn anew. */
  akc_markdown_view_set_text (view, "Other", 5, TRUE);
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (view), ==, 1);
  g_assert_cmpstr (akc_markdown_view_get_block (view, 0)->text, ==, "Other");
  akc_markdown_view_set_text (view, "Other", 5, FALSE);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (akc_markdown_view_get_block_widget (view, 0))), ==, "Other");

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

static void
test_markdown_stable_end (void)
{
  const char *text = "a\n\nb\n```\nx\n\ny\n```\nc\n\nd";
  gsize length = strlen (text);

  /* After "a\n\n"; not inside the fence; after the closing fence's
   * paragraph break. */
  g_assert_cmpuint (akc_markdown_find_stable_end (text, 0, 3, 1000), ==, 3);
  g_assert_cmpuint (akc_markdown_find_stable_end (text, 0, 14, 1000), ==, 3);
  g_assert_cmpuint (akc_markdown_find_stable_end (text, 0, length, 1000), ==, length - 1);
  /* A long open part is cut after its last complete line. */
  g_assert_cmpuint (akc_markdown_find_stable_end ("aaaa\nbbbb\ncc", 0, 12, 4), ==, 10);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

/* The label of @widget's subtree whose text is @text, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A reply's token usage is in the tooltip of its author's name and the
 * row's description, and follows the message. */
static void
test_row_usage (void)
{
  GtkWidget *window = gtk_window_new ();
  AkcMessageRow *row = AKC_MESSAGE_ROW (akc_message_row_new ());
  g_autoptr(AkcMessage) reply = akc_message_new ("a", AKC_MESSAGE_ROLE_ASSISTANT, "Hi.", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) question = akc_message_new ("u", AKC_MESSAGE_ROLE_USER, "Hello?", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcUsage) usage = akc_usage_new (12, 3456, 3468);
  const char *expected = "Tokens: 12 prompt, 3456 reply, 3468 in all";
  GtkWidget *author;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (row));
  gtk_window_present (GTK_WINDOW (window));

  akc_message_row_set_message (row, reply);
  author = find_label (GTK_WIDGET (row), "Assistant");
  g_assert_nonnull (author);
  g_assert_null (gtk_widget_get_tooltip_text (author));

  akc_message_set_usage (reply, usage);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (author), ==, expected);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);

  /* Another message without usage: nothing of the reply's stays. */
  akc_message_row_set_message (row, question);
  author = find_label (GTK_WIDGET (row), "You");
  g_assert_nonnull (author);
  g_assert_null (gtk_widget_get_tooltip_text (author));

  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  AkcMessageRow *row;
  guint          updates;
} RowUpdated;

static gboolean
row_updated (RowUpdated *wait)
{
  return akc_message_row_get_n_updates (wait->row) > wait->updates;
}

/* Streams @content into @message (streaming) @step bytes a frame, each
 * shown by @row before the next comes. */
static void
stream_into_row (AkcMessageRow *row,
                 AkcMessage    *message,
                 const char    *content,
                 gsize          step)
{
  gsize length = strlen (content);

  for (gsize at = 0; at < length; at += step)
    {
      RowUpdated wait = { row, akc_message_row_get_n_updates (row) };

      akc_message_append_content (message, content + at, (gssize) MIN (step, length - at));
      WAIT_FOR (row_updated, &wait);
    }
}

/* A reply streamed into a row ends as the same reply set whole does: its
 * Markdown in the same blocks and the same height, and content that turns
 * out to be a component frame (after white space) or ordered content
 * becomes what it is once it is, chunk by chunk (§12.2). */
static void
test_row_streamed_as_whole (void)
{
  const char *frame = "\n  {\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                      "\"componentKey\":\"progress\",\"instanceId\":\"p\",\"props\":{\"label\":\"Upload\",\"value\":5},"
                      "\"fallback\":{\"kind\":\"progress\",\"summary\":\"Upload at 5%.\"}}";
  const char *markdown = "A first paragraph with **bold**, `code` and [a link](https://example.com/) that goes on "
                         "long enough to wrap over a few lines of the row.\n\n- one\n- two, *three*\n\n"
                         "```python\nfor i in range(3):\n    print(i)  # out\n```\n\n> quoted\n\nThe end.";
  const char *ordered = "\x1e" "agentskit.chat.content/1\n"
                        "{\"kind\":\"text\",\"text\":\"Before \"}\n"
                        "{\"kind\":\"text\",\"text\":\"After\"}\n";
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  AkcMessageRow *row = AKC_MESSAGE_ROW (akc_message_row_new ());
  AkcMessageRow *whole = AKC_MESSAGE_ROW (akc_message_row_new ());
  g_autoptr(AkcMessage) streamed = akc_message_new ("s", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcMessage) set = akc_message_new ("w", AKC_MESSAGE_ROLE_ASSISTANT, markdown, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) framed = akc_message_new ("f", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcMessage) parts = akc_message_new ("o", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  AkcMarkdownView *a, *b;
  int height_a = 0, height_b = 0;

  akc_message_row_set_manifest (row, manifest);
  akc_message_row_set_manifest (whole, manifest);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (row));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (whole));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 800);
  gtk_window_present (GTK_WINDOW (window));
  akc_message_row_set_message (whole, set);

  /* Markdown, 3 bytes a frame. */
  akc_message_row_set_message (row, streamed);
  stream_into_row (row, streamed, markdown, 3);
  g_assert_cmpstr (akc_message_row_get_text (row), ==, markdown);
  akc_message_set_status (streamed, AKC_MESSAGE_STATUS_COMPLETE);
  wait_frames (window, 2);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_MARKDOWN);
  a = AKC_MARKDOWN_VIEW (akc_message_row_get_part (row, 0));
  b = AKC_MARKDOWN_VIEW (akc_message_row_get_part (whole, 0));
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (a), ==, akc_markdown_view_get_n_blocks (b));
  for (guint i = 0; i < akc_markdown_view_get_n_blocks (a); i++)
    g_assert_true (akc_markdown_block_equal (akc_markdown_view_get_block (a, i), akc_markdown_view_get_block (b, i)));
  gtk_widget_measure (GTK_WIDGET (row), GTK_ORIENTATION_VERTICAL, 360, &height_a, NULL, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (whole), GTK_ORIENTATION_VERTICAL, 360, &height_b, NULL, NULL, NULL);
  g_assert_cmpint (height_a, ==, height_b);

  /* A frame after white space, 7 bytes a frame: text while it is not
   * whole, then the component. */
  akc_message_row_set_message (row, framed);
  stream_into_row (row, framed, frame, 7);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_COMPONENT);

  /* Ordered content: its text runs, merged. */
  akc_message_row_set_message (row, parts);
  stream_into_row (row, parts, ordered, 5);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_MARKDOWN);
  g_assert_cmpstr (akc_markdown_view_get_text (AKC_MARKDOWN_VIEW (akc_message_row_get_part (row, 0)), NULL), ==,
                   "Before After");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_row_roles_are_plain (void)
{
  const char *frame = "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                      "\"componentKey\":\"progress\",\"instanceId\":\"p\",\"props\":{\"label\":\"Upload\",\"value\":5},"
                      "\"fallback\":{\"kind\":\"progress\",\"summary\":\"Upload at 5%.\"}}";
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GtkWidget *window = gtk_window_new ();
  AkcMessageRow *row = AKC_MESSAGE_ROW (akc_message_row_new ());
  g_autoptr(AkcMessage) user = akc_message_new ("u", AKC_MESSAGE_ROLE_USER, "**bold** <b>x</b>", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) tool = akc_message_new ("t", AKC_MESSAGE_ROLE_TOOL, frame, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) assistant = akc_message_new ("a", AKC_MESSAGE_ROLE_ASSISTANT, frame, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) broken = akc_message_new ("b", AKC_MESSAGE_ROLE_ASSISTANT,
                                                  "\x1e" "agentskit.chat.content/1\n{\"kind\":\"text\"}\n",
                                                  AKC_MESSAGE_STATUS_COMPLETE);
  g_autofree char *ordered = g_strconcat ("\x1e" "agentskit.chat.content/1\n"
                                          "{\"kind\":\"text\",\"text\":\"Before \"}\n"
                                          "{\"kind\":\"text\",\"text\":\"**merged**\"}\n"
                                          "{\"kind\":\"component\",\"frame\":", frame, "}\n"
                                          "{\"kind\":\"text\",\"text\":\"After\"}\n", NULL);
  g_autoptr(AkcMessage) parts = akc_message_new ("o", AKC_MESSAGE_ROLE_ASSISTANT, ordered, AKC_MESSAGE_STATUS_COMPLETE);

  akc_message_row_set_manifest (row, manifest);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (row));
  gtk_window_present (GTK_WINDOW (window));

  /* §12.2 rule 1: user and tool content is text, whatever it is; the
   * person's own text is Markdown (issue #13 item 9), never markup. */
  akc_message_row_set_message (row, user);
  gtk_test_accessible_assert_role (GTK_WIDGET (row), GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (GTK_WIDGET (row), GTK_ACCESSIBLE_PROPERTY_LABEL, "You");
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_MARKDOWN);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (akc_message_row_get_part (row, 0)), 0))),
                   ==, "bold <b>x</b>");

  akc_message_row_set_message (row, tool);
  gtk_test_accessible_assert_property (GTK_WIDGET (row), GTK_ACCESSIBLE_PROPERTY_LABEL, "Tool");
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_PLAIN);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (akc_message_row_get_part (row, 0))), ==, frame);

  /* An assistant frame is a component. */
  akc_message_row_set_message (row, assistant);
  gtk_test_accessible_assert_property (GTK_WIDGET (row), GTK_ACCESSIBLE_PROPERTY_LABEL, "Assistant");
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_COMPONENT);
  g_assert_true (AKC_IS_COMPONENT_VIEW (akc_message_row_get_part (row, 0)));
  g_assert_cmpstr (akc_component_view_get_component_key (AKC_COMPONENT_VIEW (akc_message_row_get_part (row, 0))), ==, "progress");

  /* Without a manifest, the semantic fallback. */
  akc_message_row_set_manifest (row, NULL);
  g_assert_true (GTK_IS_LABEL (akc_message_row_get_part (row, 0)));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (akc_message_row_get_part (row, 0))), ==,
                   "[unsupported visual: progress] Upload at 5%.");
  akc_message_row_set_manifest (row, manifest);

  /* Ordered content: text runs merged into one bubble, the component in
   * place. */
  akc_message_row_set_message (row, parts);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 3);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_MARKDOWN);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 1), ==, AKC_MESSAGE_PART_COMPONENT);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 2), ==, AKC_MESSAGE_PART_MARKDOWN);
  {
    AkcMarkdownView *first = AKC_MARKDOWN_VIEW (akc_message_row_get_part (row, 0));
    GtkWidget *label = akc_markdown_view_get_block_widget (first, 0);

    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Before merged");
  }

  /* An envelope that does not decode: one alert with the message only. */
  akc_message_row_set_message (row, broken);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_DIAGNOSTIC);
  gtk_test_accessible_assert_role (akc_message_row_get_part (row, 0), GTK_ACCESSIBLE_ROLE_ALERT);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (akc_message_row_get_part (row, 0))), ==,
                   "Assistant content record is invalid.");

  gtk_window_destroy (GTK_WINDOW (window));
  spin ();
}

/* ------------------------------------------------------------------ */
/* The chat view                                                       */
/* ------------------------------------------------------------------ */

static void
test_view_accessibility (void)
{
  Fixture fixture = { 0 };
  GtkListView *list;

  fixture_init (&fixture, 4, 500);

  gtk_test_accessible_assert_role (GTK_WIDGET (fixture.view), GTK_ACCESSIBLE_ROLE_LOG);
  gtk_test_accessible_assert_property (GTK_WIDGET (fixture.view), GTK_ACCESSIBLE_PROPERTY_LABEL, "Messages");

  /* The list view scrolls itself: it holds the scrolled window's
   * adjustment, so it only makes rows for what is in sight. */
  list = akc_chat_view_get_list_view (fixture.view);
  g_assert_true (GTK_IS_SCROLLABLE (fixture.view));
  g_assert_true (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list)) == vadjustment (&fixture));
  g_assert_true (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture.view)) == vadjustment (&fixture));

  g_assert_nonnull (akc_chat_view_get_row (fixture.view, message_at (AKC_CHAT_SOURCE (fixture.chat), 0)));
  gtk_test_accessible_assert_property (GTK_WIDGET (akc_chat_view_get_row (fixture.view, message_at (AKC_CHAT_SOURCE (fixture.chat), 1))),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Assistant");

  /* The lifecycle controls are there, named as §12.3 says. */
  gtk_test_accessible_assert_property (find_widget (GTK_WIDGET (fixture.view), has_action, "chat.retry"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Retry response");
  gtk_test_accessible_assert_property (find_widget (GTK_WIDGET (fixture.view), has_action, "chat.regenerate"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Regenerate response");
  gtk_test_accessible_assert_property (find_widget (GTK_WIDGET (fixture.view), has_action, "chat.edit"),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Edit last message");

  fixture_clear (&fixture);
}

typedef struct {
  AkcChatView *view;
  AkcMessage  *message;
  const char  *text;
} RowText;

static gboolean
row_shows (RowText *wait)
{
  AkcMessageRow *row = akc_chat_view_get_row (wait->view, wait->message);

  return row != NULL && g_strcmp0 (akc_message_row_get_text (row), wait->text) == 0;
}

/* A changed message updates its own row, and nothing is bound again. */
static void
test_view_row_updates (void)
{
  Fixture fixture = { 0 };
  AkcChatSource *source;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GArray) updates = g_array_new (FALSE, FALSE, sizeof (guint));
  AkcMessage *changed;
  AkcMessageRow *changed_row;
  guint binds, n;
  RowText wait;

  fixture_init (&fixture, 6, 900);
  source = AKC_CHAT_SOURCE (fixture.chat);
  n = g_list_model_get_n_items (akc_chat_source_get_messages (source));

  for (guint i = 0; i < n; i++)
    {
      AkcMessageRow *row = akc_chat_view_get_row (fixture.view, message_at (source, i));
      guint count;

      g_assert_nonnull (row);
      count = akc_message_row_get_n_updates (row);
      g_ptr_array_add (rows, row);
      g_array_append_val (updates, count);
    }

  binds = akc_chat_view_get_n_binds (fixture.view);
  changed = message_at (source, 3);
  changed_row = akc_chat_view_get_row (fixture.view, changed);

  akc_message_set_content (changed, "A new answer with `code`.");
  wait = (RowText) { fixture.view, changed, "A new answer with `code`." };
  WAIT_FOR (row_shows, &wait);
  wait_frames (fixture.window, 2);

  g_assert_cmpuint (akc_chat_view_get_n_binds (fixture.view), ==, binds);
  for (guint i = 0; i < n; i++)
    {
      AkcMessageRow *row = g_ptr_array_index (rows, i);

      /* Every row still shows its own message. */
      g_assert_true (akc_chat_view_get_row (fixture.view, message_at (source, i)) == row);
      if (row == changed_row)
        g_assert_cmpuint (akc_message_row_get_n_updates (row), ==, g_array_index (updates, guint, i) + 1);
      else
        g_assert_cmpuint (akc_message_row_get_n_updates (row), ==, g_array_index (updates, guint, i));
    }

  g_assert_nonnull (find_widget (GTK_WIDGET (changed_row), is_label_with_text, "A new answer with code."));

  fixture_clear (&fixture);
}

static gboolean
is_streaming (AkcChat *chat)
{
  return akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) == AKC_CHAT_STATUS_STREAMING;
}

static gboolean
reply_is_pending (Fixture *fixture)
{
  return g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat))) > 0 &&
         akc_chat_view_get_row (fixture->view, message_at (AKC_CHAT_SOURCE (fixture->chat),
                                g_list_model_get_n_items (akc_chat_source_get_messages (AKC_CHAT_SOURCE (fixture->chat))) - 1)) != NULL;
}

/* Starts a reply whose chunks the test appends itself. */
static AkcMessage *
start_open_reply (Fixture    *fixture,
                  const char *question)
{
  AkcChatSource *source = AKC_CHAT_SOURCE (fixture->chat);
  GListModel *messages = akc_chat_source_get_messages (source);

  /* A turn with no chunk stays open until it is stopped. */
  akc_scripted_adapter_begin_turn (fixture->script);
  g_assert_true (akc_chat_source_send (source, question, NULL));
  g_assert_true (is_streaming (fixture->chat));
  WAIT_FOR (reply_is_pending, fixture);

  return message_at (source, g_list_model_get_n_items (messages) - 1);
}

/* Chunks are drawn once per frame however many arrive, and at once when
 * the reply ends. */
static void
test_view_streaming_coalesces (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GString) expected = g_string_new (NULL);
  AkcMessage *reply;
  AkcMessageRow *row;
  AkcMarkdownView *markdown;
  guint before;
  RowText wait;

  fixture_init (&fixture, 2, 700);
  reply = start_open_reply (&fixture, "Tell me");
  row = akc_chat_view_get_row (fixture.view, reply);
  g_assert_nonnull (row);

  akc_message_set_status (reply, AKC_MESSAGE_STATUS_STREAMING);
  before = akc_message_row_get_n_updates (row);

  /* A burst of 200 chunks between two frames. */
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *chunk = g_strdup_printf ("w%u ", i);

      akc_message_append_content (reply, chunk, -1);
      g_string_append (expected, chunk);
    }
  g_assert_cmpuint (akc_message_row_get_n_updates (row), ==, before);

  wait = (RowText) { fixture.view, reply, expected->str };
  WAIT_FOR (row_shows, &wait);
  g_assert_cmpuint (akc_message_row_get_n_updates (row), ==, before + 1);

  /* One chunk per frame for a while: never more updates than frames. */
  {
    GdkFrameClock *clock = gtk_widget_get_frame_clock (fixture.window);
    gint64 first_frame = gdk_frame_clock_get_frame_counter (clock);
    guint first_updates = akc_message_row_get_n_updates (row);

    for (guint i = 0; i < 30; i++)
      {
        akc_message_append_content (reply, "x ", -1);
        akc_message_append_content (reply, "y ", -1);
        g_string_append (expected, "x y ");
        wait_frames (fixture.window, 1);
      }
    WAIT_FOR (row_shows, &wait);
    g_assert_cmpuint (akc_message_row_get_n_updates (row) - first_updates, <=,
                      (guint) (gdk_frame_clock_get_frame_counter (clock) - first_frame) + 1);
  }

  /* Done: the last chunk is shown at once, without waiting for a frame,
   * and the reply is frozen. */
  akc_message_append_content (reply, "\n\nThe **end**.", -1);
  g_string_append (expected, "\n\nThe **end**.");
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_COMPLETE);
  g_assert_cmpstr (akc_message_row_get_text (row), ==, expected->str);
  markdown = AKC_MARKDOWN_VIEW (akc_message_row_get_part (row, 0));
  g_assert_false (akc_markdown_view_get_streaming (markdown));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (akc_markdown_view_get_block_widget (markdown, 1))), ==, "The end.");

  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture.chat));
  fixture_clear (&fixture);
}

typedef struct {
  AkcMessage    *reply;
  AkcMessageRow *row;
  guint          frames;
  guint          first_updates;
  guint          updates;
} FrameChunks;

#define FRAME_CHUNKS 20

/* One chunk a frame from the frame's update phase, as a source driven by
 * the frame clock writes them. */
static gboolean
append_chunk_in_frame (GtkWidget     *widget,
                       GdkFrameClock *clock,
                       gpointer       user_data)
{
  FrameChunks *chunks = user_data;

  if (chunks->frames == 0)
    chunks->first_updates = akc_message_row_get_n_updates (chunks->row);
  if (chunks->frames == FRAME_CHUNKS)
    {
      chunks->updates = akc_message_row_get_n_updates (chunks->row) - chunks->first_updates;
      return G_SOURCE_REMOVE;
    }

  akc_message_append_content (chunks->reply, "z ", -1);
  chunks->frames++;
  return G_SOURCE_CONTINUE;
}

static gboolean
frame_chunks_done (FrameChunks *chunks)
{
  return chunks->frames == FRAME_CHUNKS && chunks->updates > 0;
}

/* A chunk a frame updates the row every frame, also when the chunks come
 * from the frame clock's update phase (the row's update then first runs
 * a frame later: one added anew each time ran every other frame). */
static void
test_view_streaming_every_frame (void)
{
  Fixture fixture = { 0 };
  FrameChunks chunks = { 0 };

  fixture_init (&fixture, 2, 700);
  chunks.reply = start_open_reply (&fixture, "Tell me");
  chunks.row = akc_chat_view_get_row (fixture.view, chunks.reply);
  g_assert_nonnull (chunks.row);
  akc_message_set_status (chunks.reply, AKC_MESSAGE_STATUS_STREAMING);
  wait_frames (fixture.window, 2);

  gtk_widget_add_tick_callback (fixture.window, append_chunk_in_frame, &chunks, NULL);
  WAIT_FOR (frame_chunks_done, &chunks);
  /* The first chunk's update comes a frame late; every later frame has
   * one. */
  g_assert_cmpuint (chunks.updates, >=, FRAME_CHUNKS - 2);
  g_assert_cmpuint (chunks.updates, <=, FRAME_CHUNKS);

  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture.chat));
  fixture_clear (&fixture);
}

/* Stop and error flush too. */
static void
test_view_streaming_flushes_on_stop (void)
{
  Fixture fixture = { 0 };
  AkcMessage *reply;
  AkcMessageRow *row;

  fixture_init (&fixture, 2, 700);
  reply = start_open_reply (&fixture, "Tell me");
  row = akc_chat_view_get_row (fixture.view, reply);
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_STREAMING);
  akc_message_append_content (reply, "Partial answer", -1);
  g_assert_cmpstr (akc_message_row_get_text (row), ==, "");

  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture.chat));
  g_assert_cmpstr (akc_message_row_get_text (row), ==, "Partial answer");
  g_assert_true (akc_message_get_stopped (reply));
  g_assert_nonnull (find_widget (GTK_WIDGET (row), is_label_with_text, "Stopped"));

  fixture_clear (&fixture);
}

static gboolean
jump_button_visible (Fixture *fixture)
{
  return gtk_widget_get_visible (akc_chat_view_get_jump_button (fixture->view));
}

static gboolean
settled_at_end (Fixture *fixture)
{
  return is_at_end (fixture) && akc_chat_view_get_at_bottom (fixture->view);
}

static void
test_view_sticky_scroll (void)
{
  Fixture fixture = { 0 };
  AkcMessage *reply;
  GtkWidget *jump;
  GtkAdjustment *adjustment;

  fixture_init (&fixture, 40, 400);
  adjustment = vadjustment (&fixture);
  jump = akc_chat_view_get_jump_button (fixture.view);

  /* Opened at the end, with nothing to jump to. */
  WAIT_FOR (settled_at_end, &fixture);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  g_assert_false (gtk_widget_get_visible (jump));

  /* Streaming while at the end follows the reply. */
  reply = start_open_reply (&fixture, "More?");
  akc_message_set_status (reply, AKC_MESSAGE_STATUS_STREAMING);
  for (guint i = 0; i < 30; i++)
    {
      akc_message_append_content (reply, "A line of the reply that goes on.\n\n", -1);
      wait_frames (fixture.window, 1);
    }
  wait_frames (fixture.window, 3);
  WAIT_FOR (settled_at_end, &fixture);
  g_assert_false (gtk_widget_get_visible (jump));

  /* The reader scrolls up a little, the growing reply still in sight: new
   * content does not move the view. */
  {
    double upper = gtk_adjustment_get_upper (adjustment);
    double value = upper - gtk_adjustment_get_page_size (adjustment) - 150;

    gtk_adjustment_set_value (adjustment, value);
    g_assert_false (akc_chat_view_get_at_bottom (fixture.view));
    WAIT_FOR (jump_button_visible, &fixture);
    for (guint i = 0; i < 10; i++)
      {
        akc_message_append_content (reply, "Still more.\n\n", -1);
        wait_frames (fixture.window, 1);
      }
    wait_frames (fixture.window, 3);
    g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, upper + 100);
    g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, value);
    g_assert_false (akc_chat_view_get_at_bottom (fixture.view));
  }

  /* Far up, too (where older history is paged in above what is shown,
   * which moves the value but not the view). */
  gtk_adjustment_set_value (adjustment, 0);
  for (guint i = 0; i < 5; i++)
    {
      akc_message_append_content (reply, "Still more.\n\n", -1);
      wait_frames (fixture.window, 1);
    }
  g_assert_false (akc_chat_view_get_at_bottom (fixture.view));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), <,
                     gtk_adjustment_get_upper (adjustment) - 2 * gtk_adjustment_get_page_size (adjustment));
  g_assert_true (gtk_widget_get_visible (jump));
  gtk_test_accessible_assert_role (jump, GTK_ACCESSIBLE_ROLE_BUTTON);
  gtk_test_accessible_assert_property (jump, GTK_ACCESSIBLE_PROPERTY_LABEL, "Jump to newest");
  g_assert_true (gtk_widget_get_focusable (jump));

  /* "Jump to newest" goes back, and following resumes. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.jump-to-newest", NULL));
  wait_frames (fixture.window, 3);
  WAIT_FOR (settled_at_end, &fixture);
  g_assert_false (gtk_widget_get_visible (jump));
  for (guint i = 0; i < 10; i++)
    {
      akc_message_append_content (reply, "And the end.\n\n", -1);
      wait_frames (fixture.window, 1);
    }
  wait_frames (fixture.window, 3);
  WAIT_FOR (settled_at_end, &fixture);

  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture.chat));
  fixture_clear (&fixture);
}

static gboolean
first_row_bound (Fixture *fixture)
{
  /* Keep scrolling up, as a reader would, until the oldest message is in. */
  gtk_adjustment_set_value (vadjustment (fixture), 0);
  return akc_chat_view_get_row (fixture->view, message_at (AKC_CHAT_SOURCE (fixture->chat), 0)) != NULL;
}

/* A long conversation is given to the list view a page at a time: the
 * newest messages first, older ones as the reader nears the top. */
static void
test_view_history_paging (void)
{
  Fixture fixture = { 0 };
  guint binds;

  fixture_init (&fixture, 200, 600);
  WAIT_FOR (settled_at_end, &fixture);

  /* Far fewer rows than GTK's 200, and none of the oldest. */
  binds = akc_chat_view_get_n_binds (fixture.view);
  g_assert_cmpuint (binds, <, 60);
  g_assert_null (akc_chat_view_get_row (fixture.view, message_at (AKC_CHAT_SOURCE (fixture.chat), 0)));
  g_assert_nonnull (akc_chat_view_get_row (fixture.view, message_at (AKC_CHAT_SOURCE (fixture.chat), 199)));

  /* Scrolling up pages the rest in, down to the first message. */
  WAIT_FOR (first_row_bound, &fixture);
  g_assert_false (akc_chat_view_get_at_bottom (fixture.view));

  /* New messages still arrive at the end, and the end follows them again
   * once the reader jumps there. */
  akc_chat_view_scroll_to_bottom (fixture.view);
  wait_frames (fixture.window, 3);
  WAIT_FOR (settled_at_end, &fixture);

  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* Input ownership (§12.4, §12.7)                                      */
/* ------------------------------------------------------------------ */

static char *
frame_json (const char *key,
            const char *instance_id,
            const char *props)
{
  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                          "\"componentKey\":\"%s\",\"instanceId\":\"%s\",\"props\":%s,"
                          "\"fallback\":{\"kind\":\"%s\",\"summary\":\"A %s.\"}}",
                          key, instance_id, props, key, key);
}

#define CHOICES "{\"prompt\":\"Where to?\",\"choices\":[{\"id\":\"docs\",\"label\":\"Docs\"},{\"id\":\"demo\",\"label\":\"Demo\"}]}"
#define BUTTONS "{\"label\":\"Actions\",\"buttons\":[{\"id\":\"save\",\"label\":\"Save\"}]}"

/* A window on a conversation restored from @contents: user and assistant
 * messages in turn, NULL-terminated. */
static void
fixture_init_with (Fixture     *fixture,
                   const char **contents)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  AkcAdapter *adapter = akc_scripted_adapter_new ();

  fixture->script = AKC_SCRIPTED_ADAPTER (adapter);
  fixture->chat = akc_chat_new (adapter);
  g_object_unref (adapter);

  for (guint i = 0; contents[i] != NULL; i++)
    g_ptr_array_add (messages, new_message (i, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                            contents[i]));
  akc_chat_restore (fixture->chat, (AkcMessage * const *) messages->pdata, messages->len);

  fixture->view = AKC_CHAT_VIEW (akc_chat_view_new ());
  akc_chat_view_set_manifest (fixture->view, manifest);
  akc_chat_view_set_source (fixture->view, AKC_CHAT_SOURCE (fixture->chat));

  fixture->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), GTK_WIDGET (fixture->view));
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 900);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->scroller);
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_frames (fixture->window, 3);
}

static AkcComponentView *
view_of (Fixture *fixture,
         guint    position)
{
  AkcMessageRow *row = akc_chat_view_get_row (fixture->view, message_at (AKC_CHAT_SOURCE (fixture->chat), position));

  g_assert_nonnull (row);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_COMPONENT);
  return AKC_COMPONENT_VIEW (akc_message_row_get_part (row, 0));
}

static GtkWidget *
first_button (AkcComponentView *view)
{
  GtkWidget *button = find_widget (akc_component_view_get_content (view), is_type, GSIZE_TO_POINTER (GTK_TYPE_BUTTON));

  g_assert_nonnull (button);
  return button;
}

typedef struct {
  GtkWidget *window;
  GtkWidget *widget;
} FocusWait;

static gboolean
focus_is_inside (FocusWait *wait)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (wait->window));

  return focus != NULL && (focus == wait->widget || gtk_widget_is_ancestor (focus, wait->widget));
}

static void
record_event (AkcChatView      *view,
              AkcComponentView *component,
              AkcJsonValue     *event,
              GPtrArray        *events)
{
  g_ptr_array_add (events, akc_json_value_to_canonical (event, NULL));
}

static void
fail_interaction (AkcChatView      *view,
                  AkcComponentView *component,
                  AkcJsonValue     *event,
                  gpointer          user_data)
{
  akc_component_view_fail (component, AKC_COMPONENT_FAILURE_INTERACTION, NULL);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_view_input_ownership (void)
{
  g_autofree char *choices = frame_json ("choice-list", "where", CHOICES);
  g_autofree char *buttons = frame_json ("button-group", "actions", BUTTONS);
  g_autofree char *progress = frame_json ("progress", "upload", "{\"label\":\"Upload\",\"value\":3}");
  const char *contents[] = { "hi", choices, "and?", buttons, "and then?", progress, NULL };
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  Fixture fixture = { 0 };
  AkcComponentView *older, *newer, *display;
  guint owned_notifies = 0;
  FocusWait wait;

  fixture_init_with (&fixture, contents);
  g_signal_connect (fixture.view, "component-interaction", G_CALLBACK (record_event), events);
  g_signal_connect (fixture.view, "component-selection", G_CALLBACK (record_event), events);
  g_signal_connect (fixture.view, "notify::input-owned", G_CALLBACK (count_notify), &owned_notifies);

  older = view_of (&fixture, 1);
  newer = view_of (&fixture, 3);
  display = view_of (&fixture, 5);

  /* The latest unresolved interactive component owns input: the button
   * group (the progress bar after it is display only). It has the focus;
   * the others are inert to keys but stay readable. */
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  g_assert_true (akc_component_view_get_active (newer));
  g_assert_false (akc_component_view_get_active (older));
  g_assert_false (akc_component_view_get_active (display));
  wait = (FocusWait) { fixture.window, GTK_WIDGET (newer) };
  WAIT_FOR (focus_is_inside, &wait);
  g_assert_true (gtk_widget_is_sensitive (first_button (older)));
  g_assert_false (gtk_widget_grab_focus (first_button (older)));

  /* Resolving it hands input to the older choice list. */
  g_signal_emit_by_name (first_button (newer), "clicked");
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (events, 0), "\"instanceId\":\"actions\""));
  g_assert_true (akc_component_view_get_resolved (newer));
  g_assert_true (akc_input_ownership_is_resolved (akc_chat_view_get_ownership (fixture.view), "actions"));
  g_assert_false (akc_component_view_get_active (newer));
  g_assert_true (akc_component_view_get_active (older));
  wait = (FocusWait) { fixture.window, GTK_WIDGET (older) };
  WAIT_FOR (focus_is_inside, &wait);

  /* A second click on a resolved instance is ignored (§12.7). */
  g_signal_emit_by_name (first_button (newer), "clicked");
  g_assert_cmpuint (events->len, ==, 1);

  /* Selecting a choice resolves the last one: input returns to the host. */
  g_signal_emit_by_name (first_button (older), "clicked");
  g_assert_cmpuint (events->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (events, 1), "\"choiceId\":\"docs\""));
  g_assert_false (akc_chat_view_get_input_owned (fixture.view));
  g_assert_cmpuint (owned_notifies, ==, 1);

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

static gboolean
hint_shown_at_end (Fixture *fixture)
{
  GtkWidget *hint = find_widget (GTK_WIDGET (fixture->view), has_css_class, "focus-hint");

  return hint != NULL && gtk_widget_get_mapped (hint) && is_at_end (fixture);
}

/* The list ends where the hint begins, once both are laid out (a loaded
 * machine may draw a frame or two before the hint gets its place). */
static gboolean
hint_below_list (Fixture *fixture)
{
  GtkWidget *hint = find_widget (GTK_WIDGET (fixture->view), has_css_class, "focus-hint");
  GtkWidget *list = find_widget (GTK_WIDGET (fixture->view), is_type, GSIZE_TO_POINTER (GTK_TYPE_LIST_VIEW));
  graphene_rect_t hint_bounds, list_bounds;

  return hint != NULL && list != NULL &&
         gtk_widget_compute_bounds (hint, GTK_WIDGET (fixture->view), &hint_bounds) &&
         gtk_widget_compute_bounds (list, GTK_WIDGET (fixture->view), &list_bounds) &&
         hint_bounds.origin.y >= 0 &&
         list_bounds.origin.y + list_bounds.size.height <= hint_bounds.origin.y;
}

/* The hint of a component that has the keyboard sits under the messages:
 * the newest row and the response actions below it are not drawn under
 * it (seen in the Onboarding demo after a restart). */
static void
test_view_focus_hint_covers_nothing (void)
{
  g_autofree char *choices = frame_json ("choice-list", "where", CHOICES);
  const char *contents[] = { "one", "Answer one.", "two", "Answer two.", "three", "Answer three.",
                             "four", "Answer four.", "five", "Answer five.", "six", "Answer six.",
                             "seven", "Answer seven.", "eight", "Answer eight.", "nine", "Answer nine.",
                             "ten", "Answer ten.", "and?", choices, NULL };
  Fixture fixture = { 0 };
  GtkWidget *hint, *list;
  graphene_rect_t hint_bounds, list_bounds;

  fixture_init_with (&fixture, contents);
  gtk_window_set_default_size (GTK_WINDOW (fixture.window), 600, 500);
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  WAIT_FOR (hint_shown_at_end, &fixture);
  wait_frames (fixture.window, 3);
  g_assert_true (is_at_end (&fixture));

  hint = find_widget (GTK_WIDGET (fixture.view), has_css_class, "focus-hint");
  list = find_widget (GTK_WIDGET (fixture.view), is_type, GSIZE_TO_POINTER (GTK_TYPE_LIST_VIEW));
  g_assert_true (gtk_widget_compute_bounds (hint, GTK_WIDGET (fixture.view), &hint_bounds));
  g_assert_true (gtk_widget_compute_bounds (list, GTK_WIDGET (fixture.view), &list_bounds));
  g_test_message ("list %g..%g, hint %g..%g", list_bounds.origin.y, list_bounds.origin.y + list_bounds.size.height,
                  hint_bounds.origin.y, hint_bounds.origin.y + hint_bounds.size.height);
  WAIT_FOR (hint_below_list, &fixture);

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

static gboolean
component_unmapped (AkcComponentView *component)
{
  return !gtk_widget_get_mapped (GTK_WIDGET (component));
}

/* GTK takes the keyboard from a row that leaves the visible part of the
 * list (the window shrinks under it, the list scrolls) and gives it to
 * the row or the list. The component that owns input gets it back once
 * it is in sight again: nobody moved the keyboard (the hint read from a
 * resize used to go missing because of this). */
static void
test_view_focus_kept_out_of_sight (void)
{
  g_autofree char *choices = frame_json ("choice-list", "where", CHOICES);
  const char *contents[] = { "one", "Answer one.", "two", "Answer two.", "three", "Answer three.",
                             "four", "Answer four.", "five", "Answer five.", "six", "Answer six.",
                             "seven", "Answer seven.", "eight", "Answer eight.", "nine", "Answer nine.",
                             "ten", "Answer ten.", "and?", choices, NULL };
  Fixture fixture = { 0 };
  AkcComponentView *component;
  GtkAdjustment *adjustment;
  FocusWait focus;
  GtkWidget *parked;
  AkcMessageRow *first;

  fixture_init_with (&fixture, contents);
  gtk_window_set_default_size (GTK_WINDOW (fixture.window), 600, 300);
  WAIT_FOR (hint_shown_at_end, &fixture);
  component = view_of (&fixture, 21);
  focus.window = fixture.window;
  focus.widget = GTK_WIDGET (component);
  WAIT_FOR (focus_is_inside, &focus);

  /* Out of sight: GTK parks the keyboard outside the component. */
  adjustment = vadjustment (&fixture);
  gtk_adjustment_set_value (adjustment, 0);
  WAIT_FOR (component_unmapped, component);
  wait_frames (fixture.window, 3);
  parked = gtk_root_get_focus (GTK_ROOT (fixture.window));
  g_test_message ("parked on %s", parked != NULL ? G_OBJECT_TYPE_NAME (parked) : "nothing");
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));

  /* Back in sight: the keyboard is the component's again, hint and all. */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  WAIT_FOR (focus_is_inside, &focus);
  WAIT_FOR (hint_shown_at_end, &fixture);

  /* Moved on by the person while it was out of sight (to the first
   * message, say): it stays moved. */
  gtk_adjustment_set_value (adjustment, 0);
  WAIT_FOR (component_unmapped, component);
  wait_frames (fixture.window, 3);
  first = akc_chat_view_get_row (fixture.view, message_at (AKC_CHAT_SOURCE (fixture.chat), 0));
  g_assert_nonnull (first);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (first)));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  WAIT_FOR (is_at_end, &fixture);
  wait_frames (fixture.window, 3);
  g_assert_false (focus_is_inside (&focus));

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

/* Older history paged in above the component that owns input (as the
 * view does after a frame while there is too little to scroll through)
 * makes every row anew, the component's too: GTK lets the keyboard go
 * with the old component, to its row, then nowhere. Nobody moved it: it
 * is the new component's once its row is bound again, hint and all (on a
 * loaded machine the view paged in after the component had taken the
 * keyboard, and the hint never showed). */
static void
test_view_focus_kept_through_rebind (void)
{
  g_autofree char *choices = frame_json ("choice-list", "where", CHOICES);
  const char *contents[61];
  Fixture fixture = { 0 };
  AkcMessage *last;
  FocusWait focus;
  guint start;

  for (guint i = 0; i < 58; i++)
    contents[i] = i % 2 == 0 ? "Question?" : "Answer.";
  contents[58] = "and?";
  contents[59] = choices;
  contents[60] = NULL;
  fixture_init_with (&fixture, contents);
  gtk_window_set_default_size (GTK_WINDOW (fixture.window), 600, 300);
  last = message_at (AKC_CHAT_SOURCE (fixture.chat), 59);
  WAIT_FOR (hint_shown_at_end, &fixture);
  focus.window = fixture.window;
  focus.widget = GTK_WIDGET (view_of (&fixture, 59));
  WAIT_FOR (focus_is_inside, &focus);
  start = akc_message_window_get_start (fixture.view->window);
  g_assert_cmpuint (start, >, 0);

  g_assert_true (akc_message_window_extend (fixture.view->window, HISTORY_PAGE));
  g_assert_cmpuint (akc_message_window_get_start (fixture.view->window), <, start);
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  wait_frames (fixture.window, 3);

  g_assert_nonnull (akc_chat_view_get_row (fixture.view, last));
  focus.widget = GTK_WIDGET (akc_message_row_get_active_view (akc_chat_view_get_row (fixture.view, last)));
  g_assert_nonnull (focus.widget);
  WAIT_FOR (focus_is_inside, &focus);
  WAIT_FOR (hint_shown_at_end, &fixture);

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

/* Copies of one instance (§14, A14) resolve and un-resolve together. */
static void
test_view_duplicate_instances (void)
{
  g_autofree char *buttons = frame_json ("button-group", "same", BUTTONS);
  const char *contents[] = { "hi", buttons, "again", buttons, NULL };
  Fixture fixture = { 0 };
  AkcComponentView *first, *second;
  gulong handler;

  fixture_init_with (&fixture, contents);
  first = view_of (&fixture, 1);
  second = view_of (&fixture, 3);
  g_assert_true (akc_component_view_get_active (second));
  g_assert_false (akc_component_view_get_active (first));

  /* The host fails the interaction: both copies are usable again. */
  handler = g_signal_connect (fixture.view, "component-interaction", G_CALLBACK (fail_interaction), NULL);
  g_signal_emit_by_name (first_button (second), "clicked");
  g_assert_false (akc_component_view_get_resolved (first));
  g_assert_false (akc_component_view_get_resolved (second));
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  g_assert_cmpstr (akc_component_view_get_error_message (second), ==, "Component interaction callback failed.");
  g_signal_handler_disconnect (fixture.view, handler);

  /* A pointer click on the inert older copy still works (§14, B1), and
   * resolves both. */
  g_signal_emit_by_name (first_button (first), "clicked");
  g_assert_true (akc_component_view_get_resolved (first));
  g_assert_true (akc_component_view_get_resolved (second));
  g_assert_false (akc_component_view_get_active (second));
  g_assert_false (akc_chat_view_get_input_owned (fixture.view));
  g_assert_cmpuint (akc_input_ownership_get_n_resolved (akc_chat_view_get_ownership (fixture.view)), ==, 1);

  /* A new source is a new session: nothing is resolved any more. */
  akc_chat_view_set_source (fixture.view, AKC_CHAT_SOURCE (fixture.chat));
  akc_chat_view_set_source (fixture.view, NULL);
  g_assert_cmpuint (akc_input_ownership_get_n_resolved (akc_chat_view_get_ownership (fixture.view)), ==, 0);

  fixture_clear (&fixture);
}

/* A source without messages set on a view scrolled away from the end
 * (another conversation opened, a new chat): the view has no end to go
 * to, and moving the adjustment of an empty list made GTK 4.8 warn
 * ("failed to scroll to given position"), fatal here. */
static void
test_view_empty_source_after_scroll (void)
{
  Fixture fixture = { 0 };
  g_autoptr(AkcChat) empty = NULL;
  AkcAdapter *adapter = akc_scripted_adapter_new ();

  empty = akc_chat_new (adapter);
  g_object_unref (adapter);
  fixture_init (&fixture, 200, 400);
  gtk_adjustment_set_value (vadjustment (&fixture), 0);
  wait_frames (fixture.window, 2);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment (&fixture)), >, 400);

  akc_chat_view_set_source (fixture.view, AKC_CHAT_SOURCE (empty));
  wait_frames (fixture.window, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (akc_chat_view_get_list_view (fixture.view)))), ==, 0);

  /* Back to the conversation: at its end. */
  akc_chat_view_set_source (fixture.view, AKC_CHAT_SOURCE (fixture.chat));
  wait_frames (fixture.window, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (akc_chat_view_get_list_view (fixture.view)))), >, 0);

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* Tool confirmations (§12.8)                                          */
/* ------------------------------------------------------------------ */

static char *
run_tool (AkcTool       *tool,
          AkcJsonValue  *arguments,
          gpointer       user_data,
          GError       **error)
{
  (*(guint *) user_data)++;
  return g_strdup ("deleted");
}

static gboolean
has_no_confirmation (Fixture *fixture)
{
  return find_widget (GTK_WIDGET (fixture->view), has_action, "chat.approve") == NULL;
}

static gboolean
has_confirmation (Fixture *fixture)
{
  return !has_no_confirmation (fixture);
}

static gboolean
source_is_idle (Fixture *fixture)
{
  return !is_streaming (fixture->chat);
}

static gboolean
has_action_error (Fixture *fixture)
{
  return akc_chat_view_get_action_error (fixture->view) != NULL;
}

static gboolean
is_expander (GtkWidget     *widget,
             gconstpointer  unused)
{
  return GTK_IS_EXPANDER (widget);
}

/* Approving a confirmation that has the keyboard gives it to the composer
 * at once, not when the confirmation's row goes: GTK moves the focus of
 * a row that goes a frame later, to whatever it finds (seen as a composer
 * that did not get the keyboard back after an approval, on loaded runs). */
static void
test_view_decided_confirmation_leaves (void)
{
  const char *contents[] = { NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcTool) tool = NULL;
  GtkWidget *approve, *entry = gtk_entry_new (), *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  FocusWait focus;
  guint runs = 0;

  fixture_init_with (&fixture, contents);
  /* A composer of sorts below the transcript. */
  g_object_ref (fixture.scroller);
  gtk_window_set_child (GTK_WINDOW (fixture.window), box);
  gtk_widget_set_vexpand (fixture.scroller, TRUE);
  gtk_box_append (GTK_BOX (box), fixture.scroller);
  gtk_box_append (GTK_BOX (box), entry);
  g_object_unref (fixture.scroller);
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_tool_call (fixture.script, "call-1", "delete_file", "{\"path\":\"/tmp/x\"}", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Deleted.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);

  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "Delete /tmp/x", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  WAIT_FOR (has_confirmation, &fixture);
  approve = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.approve");
  g_assert_nonnull (approve);
  wait_frames (fixture.window, 2);
  g_assert_true (gtk_widget_grab_focus (approve));

  g_signal_emit_by_name (approve, "clicked");
  /* At once, while the confirmation is still there. */
  focus.window = fixture.window;
  focus.widget = entry;
  g_assert_true (focus_is_inside (&focus));

  WAIT_FOR (source_is_idle, &fixture);
  g_assert_cmpuint (runs, ==, 1);
  wait_frames (fixture.window, 3);
  g_assert_null (find_widget (GTK_WIDGET (fixture.view), has_action, "chat.approve"));
  g_assert_true (focus_is_inside (&focus));

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

static void
test_view_tool_confirmation (void)
{
  const char *contents[] = { NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcTool) tool = NULL;
  AkcChatSource *source;
  GtkWidget *approve, *deny, *group;
  guint runs = 0;
  AkcToolCall *call;
  g_autoptr(AkcMessage) reply = NULL;

  fixture_init_with (&fixture, contents);
  source = AKC_CHAT_SOURCE (fixture.chat);
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);

  /* The model calls the tool; the call waits for the person. */
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "I will delete it.", 0);
  akc_scripted_adapter_add_tool_call (fixture.script, "call-1", "delete_file", "{\"path\":\"/tmp/x\",\"force\":true}", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  /* The continuation after the decision. */
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Deleted.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);

  g_assert_true (akc_chat_source_send (source, "Delete /tmp/x", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  WAIT_FOR (has_confirmation, &fixture);

  reply = g_list_model_get_item (akc_chat_source_get_messages (source), 1);
  call = akc_message_find_tool_call (reply, "call-1");
  g_assert_nonnull (call);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_REQUIRES_CONFIRMATION);

  /* A sentence first (issue 13 item 8): the tool has no title, so its
   * name made readable; its arguments as labelled fields; the name and
   * the pretty JSON behind Details; Approve and Deny, neither of them
   * destructive for a tool not marked dangerous. */
  approve = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.approve");
  deny = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.deny");
  g_assert_nonnull (deny);
  gtk_test_accessible_assert_property (approve, GTK_ACCESSIBLE_PROPERTY_LABEL, "Approve");
  gtk_test_accessible_assert_property (deny, GTK_ACCESSIBLE_PROPERTY_LABEL, "Deny");
  g_assert_cmpstr (g_variant_get_string (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (approve)), NULL), ==, "call-1");
  group = gtk_widget_get_ancestor (approve, AKC_TYPE_TOOL_CONFIRMATION_ROW);
  g_assert_nonnull (group);
  gtk_test_accessible_assert_role (group, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (group, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                       "Allow the assistant to use “Delete file”?");
  gtk_test_accessible_assert_property (group, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Nothing happens until you approve it.");
  g_assert_nonnull (find_widget (group, is_label_with_text, "Allow the assistant to use “Delete file”?"));
  g_assert_nonnull (find_widget (group, is_label_with_text, "Requires confirmation"));
  g_assert_nonnull (find_widget (group, is_label_with_text, "Path"));
  g_assert_nonnull (find_widget (group, is_label_with_text, "/tmp/x"));
  g_assert_nonnull (find_widget (group, is_label_with_text, "Force"));
  g_assert_nonnull (find_widget (group, is_label_with_text, "true"));
  g_assert_null (find_widget (group, is_label_with_text, "delete_file"));
  {
    const char *pretty = "{\n  \"path\": \"/tmp/x\",\n  \"force\": true\n}";
    GtkWidget *details = find_widget (group, is_expander, NULL);
    GtkWidget *json;

    /* Collapsed, the JSON is not shown at all. */
    g_assert_nonnull (details);
    g_assert_false (gtk_expander_get_expanded (GTK_EXPANDER (details)));
    g_assert_null (find_widget (group, is_label_with_text, pretty));
    gtk_expander_set_expanded (GTK_EXPANDER (details), TRUE);
    json = find_widget (group, is_label_with_text, pretty);
    g_assert_nonnull (json);
    g_assert_true (gtk_widget_is_ancestor (json, details));
    g_assert_nonnull (find_widget (details, is_label_with_text, "Tool: delete_file"));
    gtk_expander_set_expanded (GTK_EXPANDER (details), FALSE);
  }
  g_assert_false (gtk_widget_has_css_class (deny, "destructive-action"));
  g_assert_false (gtk_widget_has_css_class (approve, "destructive-action"));
  g_assert_true (gtk_widget_has_css_class (approve, "suggested-action"));

  /* The keyboard reaches Approve with Tab from the transcript. */
  {
    gboolean reached = FALSE;

    g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (fixture.view)));
    for (guint i = 0; i < 40 && !reached; i++)
      {
        gtk_widget_child_focus (fixture.window, GTK_DIR_TAB_FORWARD);
        reached = gtk_widget_has_focus (approve);
      }
    g_assert_true (reached);
  }

  /* Approve runs the tool and the conversation goes on; the row goes. */
  g_assert_true (gtk_widget_activate_action (approve, "chat.approve", "s", "call-1"));
  g_assert_cmpuint (runs, ==, 1);
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_COMPLETE);
  WAIT_FOR (has_no_confirmation, &fixture);
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_null (akc_chat_view_get_action_error (fixture.view));

  /* Approving it again fails with "Action approval failed." or the
   * controller's message, shown as the error. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.approve", "s", "call-1"));
  WAIT_FOR (has_action_error, &fixture);
  g_assert_cmpuint (runs, ==, 1);

  fixture_clear (&fixture);
}

static void
store_result (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gint64 coordinator_now = 0;

static gint64
coordinator_clock (gpointer user_data)
{
  return coordinator_now;
}

static AkcConfirmationRecord *
propose_through (AkcActionConfirmation *confirmation,
                 const char            *action)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AkcJsonValue) input = akc_json_value_parse ("{\"path\":\"/tmp/x\"}", -1, NULL);
  g_autoptr(GError) error = NULL;
  AkcConfirmationRecord *record;

  akc_action_confirmation_propose_async (confirmation, action, input, NULL, store_result, &result);
  WAIT_UNTIL (result != NULL);
  record = akc_action_confirmation_propose_finish (confirmation, result, &error);
  g_assert_no_error (error);

  return record;
}

static AkcConfirmationStatus
status_of (AkcActionConfirmation *confirmation,
           AkcConfirmationRecord *record)
{
  g_autoptr(AkcConfirmationRecord) now = akc_action_confirmation_get_by_token (confirmation, akc_confirmation_record_get_token (record));

  return akc_confirmation_record_get_status (now);
}

typedef struct
{
  AkcActionConfirmation *confirmation;
  AkcConfirmationRecord *record;
  AkcConfirmationStatus  status;
} Settled;

static gboolean
record_settled (Settled *settled)
{
  return status_of (settled->confirmation, settled->record) == settled->status;
}

/* The Approve and Deny buttons of a call the coordinator proposed go
 * through the coordinator (§5.2): approval runs the tool once, an expired
 * confirmation never runs it, denial rejects the record. */
static void
test_view_confirmation_coordinator (void)
{
  const char *contents[] = { NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcActionConfirmation) confirmation = NULL;
  g_autoptr(AkcConfirmationRecord) first = NULL;
  g_autoptr(AkcConfirmationRecord) second = NULL;
  g_autoptr(AkcConfirmationRecord) third = NULL;
  g_autoptr(GError) error = NULL;
  Settled settled;
  guint runs = 0;

  fixture_init_with (&fixture, contents);
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);
  confirmation = akc_action_confirmation_new ("session-1", AKC_CHAT_SOURCE (fixture.chat),
                                              AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, NULL, NULL, &error);
  g_assert_no_error (error);
  akc_action_confirmation_set_clock (confirmation, coordinator_clock, NULL, NULL);
  akc_chat_view_set_confirmation (fixture.view, confirmation);
  g_assert_true (akc_chat_view_get_confirmation (fixture.view) == confirmation);

  /* Continuations after each decision. */
  for (guint i = 0; i < 3; i++)
    {
      akc_scripted_adapter_begin_turn (fixture.script);
      akc_scripted_adapter_add_text (fixture.script, "Noted.", 0);
      akc_scripted_adapter_add_done (fixture.script, 0);
    }

  coordinator_now = 1000;
  first = propose_through (confirmation, "delete_file");
  WAIT_FOR (has_confirmation, &fixture);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.approve", "s",
                                             akc_confirmation_record_get_tool_call_id (first)));
  settled = (Settled) { confirmation, first, AKC_CONFIRMATION_STATUS_APPROVED };
  WAIT_FOR (record_settled, &settled);
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_cmpuint (runs, ==, 1);

  /* Past its expiry the approval denies the call; the tool never runs. */
  second = propose_through (confirmation, "delete_file");
  coordinator_now += AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.approve", "s",
                                             akc_confirmation_record_get_tool_call_id (second)));
  settled = (Settled) { confirmation, second, AKC_CONFIRMATION_STATUS_EXPIRED };
  WAIT_FOR (record_settled, &settled);
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_cmpuint (runs, ==, 1);

  third = propose_through (confirmation, "delete_file");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.deny", "s",
                                             akc_confirmation_record_get_tool_call_id (third)));
  settled = (Settled) { confirmation, third, AKC_CONFIRMATION_STATUS_REJECTED };
  WAIT_FOR (record_settled, &settled);
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_cmpuint (runs, ==, 1);
  g_assert_null (akc_chat_view_get_action_error (fixture.view));

  akc_chat_view_set_confirmation (fixture.view, NULL);
  /* The coordinator holds the chat. */
  g_assert_finalize_object (g_steal_pointer (&confirmation));
  fixture_clear (&fixture);
}

static gboolean
component_has_error (AkcComponentView *component)
{
  return akc_component_view_get_error_message (component) != NULL;
}

static char *
deny_without_capability (AkcChat      *chat,
                         AkcToolCall  *call,
                         AkcToolPhase  phase,
                         gpointer      user_data)
{
  gboolean *allowed = user_data;

  return *allowed ? NULL : g_strdup ("missing-capability");
}

/* A choice with a typed action proposes it through the coordinator
 * (§12.7 step 4): a denied proposal un-resolves the choice and says why; an
 * allowed one waits for approval in the transcript. */
static void
test_view_choice_action (void)
{
  g_autofree char *choices = frame_json ("choice-list", "cleanup",
                                         "{\"prompt\":\"Clean up?\",\"choices\":[{\"id\":\"delete\",\"label\":\"Delete it\","
                                         "\"action\":{\"name\":\"delete_file\",\"input\":{\"path\":\"/tmp/x\"}}}]}");
  const char *contents[] = { "tidy up", choices, NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcActionConfirmation) confirmation = NULL;
  g_autoptr(GError) error = NULL;
  AkcComponentView *component;
  gboolean allowed = FALSE;
  guint runs = 0;

  fixture_init_with (&fixture, contents);
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);
  akc_chat_set_tool_authorizer (fixture.chat, deny_without_capability, &allowed, NULL);
  confirmation = akc_action_confirmation_new ("session-1", AKC_CHAT_SOURCE (fixture.chat),
                                              AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, NULL, NULL, &error);
  g_assert_no_error (error);
  akc_chat_view_set_confirmation (fixture.view, confirmation);
  component = view_of (&fixture, 1);

  g_signal_emit_by_name (first_button (component), "clicked");
  WAIT_FOR (component_has_error, component);
  /* Issue 13 item 8: the policy's code is said as a sentence. */
  g_assert_cmpstr (akc_component_view_get_error_message (component), ==, "Your account is not allowed to do this.");
  g_assert_false (akc_component_view_get_resolved (component));
  g_assert_true (has_no_confirmation (&fixture));

  allowed = TRUE;
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Deleted.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  g_signal_emit_by_name (first_button (component), "clicked");
  WAIT_FOR (has_confirmation, &fixture);
  g_assert_true (akc_component_view_get_resolved (component));
  g_assert_cmpuint (runs, ==, 0);
  {
    g_autoptr(GPtrArray) records = akc_action_confirmation_get_snapshot (confirmation);

    g_assert_cmpuint (records->len, ==, 1);
  }

  /* The proposal settles once its record is kept. */
  spin ();
  akc_chat_view_set_confirmation (fixture.view, NULL);
  g_assert_finalize_object (g_steal_pointer (&confirmation));
  akc_chat_set_tool_authorizer (fixture.chat, NULL, NULL, NULL);
  fixture_clear (&fixture);
}

/* The keyboard the view moves by itself, to a question that arrived or
 * to the confirmation of a chosen action, is shown where it went: GTK
 * hides focus rings while a person types (the message that asked, the
 * Enter that chose), and a ring nobody sees leaves a keyboard user lost. */
static void
test_view_taken_focus_shown (void)
{
  g_autofree char *choices = frame_json ("choice-list", "where", CHOICES);
  g_autofree char *action = frame_json ("choice-list", "cleanup",
                                        "{\"prompt\":\"Clean up?\",\"choices\":[{\"id\":\"delete\",\"label\":\"Delete it\","
                                        "\"action\":{\"name\":\"delete_file\",\"input\":{\"path\":\"/tmp/x\"}}}]}");
  const char *contents[] = { "hi", "Hello.", NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcTool) tool = NULL;
  g_autoptr(AkcActionConfirmation) confirmation = NULL;
  g_autoptr(GError) error = NULL;
  AkcComponentView *component;
  GtkWidget *deny, *approve;
  FocusWait focus;
  gboolean allowed = TRUE;
  guint runs = 0;

  fixture_init_with (&fixture, contents);
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);
  akc_chat_set_tool_authorizer (fixture.chat, deny_without_capability, &allowed, NULL);
  confirmation = akc_action_confirmation_new ("session-1", AKC_CHAT_SOURCE (fixture.chat),
                                              AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, NULL, NULL, &error);
  g_assert_no_error (error);
  akc_chat_view_set_confirmation (fixture.view, confirmation);

  /* A reply asks a question: it takes the keyboard, and shows it. */
  gtk_window_set_focus_visible (GTK_WINDOW (fixture.window), FALSE);
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, choices, 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "where?", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  focus = (FocusWait) { fixture.window, GTK_WIDGET (view_of (&fixture, 3)) };
  WAIT_FOR (focus_is_inside, &focus);
  g_assert_true (gtk_window_get_focus_visible (GTK_WINDOW (fixture.window)));
  /* Set aside: it does not take the keyboard back below. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.set-aside", NULL));
  g_assert_false (akc_chat_view_get_input_owned (fixture.view));

  /* A choice with an action: its confirmation takes the keyboard on Deny. */
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, action, 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "tidy up", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  component = view_of (&fixture, 5);
  focus.widget = GTK_WIDGET (component);
  WAIT_FOR (focus_is_inside, &focus);
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Deleted.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  gtk_window_set_focus_visible (GTK_WINDOW (fixture.window), FALSE);
  g_signal_emit_by_name (first_button (component), "clicked");
  WAIT_FOR (has_confirmation, &fixture);
  deny = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.deny");
  g_assert_nonnull (deny);
  focus.widget = deny;
  WAIT_FOR (focus_is_inside, &focus);
  g_assert_true (gtk_window_get_focus_visible (GTK_WINDOW (fixture.window)));
  g_assert_cmpuint (runs, ==, 0);
  /* Marked as the button Enter presses for as long as it has the
   * keyboard, not only while GTK draws focus rings (it hides them a few
   * seconds after the last key). */
  gtk_window_set_focus_visible (GTK_WINDOW (fixture.window), FALSE);
  g_assert_true (gtk_widget_has_css_class (deny, "current"));
  approve = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.approve");
  g_assert_false (gtk_widget_has_css_class (approve, "current"));
  g_assert_true (gtk_widget_grab_focus (approve));
  g_assert_true (gtk_widget_has_css_class (approve, "current"));
  g_assert_false (gtk_widget_has_css_class (deny, "current"));

  spin ();
  akc_chat_view_set_confirmation (fixture.view, NULL);
  g_assert_finalize_object (g_steal_pointer (&confirmation));
  akc_chat_set_tool_authorizer (fixture.chat, NULL, NULL, NULL);
  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

/* @widget's ancestor drawn as the confirmation card. */
static GtkWidget *
confirmation_card (GtkWidget *widget)
{
  while (widget != NULL && !gtk_widget_has_css_class (widget, "tool-confirmation"))
    widget = gtk_widget_get_parent (widget);
  g_assert_nonnull (widget);
  return widget;
}

/* The pixels of @card as the window's renderer draws it, 4 bytes each. */
static guchar *
render_card (GtkWidget *card,
             int       *width,
             int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (card);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  graphene_rect_t own;
  guchar *pixels;

  /* Its border box: GTK's widths leave out its padding and border. */
  g_assert_true (gtk_widget_compute_bounds (card, card, &own));
  *width = (int) own.size.width;
  *height = (int) own.size.height;
  g_assert_cmpint (*width, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, *width, *height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (card)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  pixels = g_malloc ((gsize) *width * (gsize) *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

/* How many pixels of the 3 px band around @button, inside @card, differ
 * between @before and @after. */
static guint
band_changes (GtkWidget    *card,
              GtkWidget    *button,
              const guchar *before,
              const guchar *after,
              int           width,
              int           height,
              guint        *band)
{
  graphene_rect_t bounds, own;
  guint changed = 0;

  /* In the card's coordinates, whose origin is at its content; its
   * pixels start at its border. */
  g_assert_true (gtk_widget_compute_bounds (button, card, &bounds));
  g_assert_true (gtk_widget_compute_bounds (card, card, &own));
  graphene_rect_offset (&bounds, -own.origin.x, -own.origin.y);
  *band = 0;
  for (int y = (int) bounds.origin.y - 3; y < (int) (bounds.origin.y + bounds.size.height) + 3; y++)
    for (int x = (int) bounds.origin.x - 3; x < (int) (bounds.origin.x + bounds.size.width) + 3; x++)
      {
        gsize at = ((gsize) y * (gsize) width + (gsize) x) * 4;

        if (x < 0 || y < 0 || x >= width || y >= height ||
            graphene_rect_contains_point (&bounds, &GRAPHENE_POINT_INIT (x + 0.5f, y + 0.5f)))
          continue;
        (*band)++;
        if (memcmp (before + at, after + at, 4) != 0)
          changed++;
      }
  return changed;
}

/* Tab onto Approve shows where the keyboard is: the button is filled with
 * the accent (or the destructive red), so its ring is drawn around it,
 * not inside it where the half-transparent accent cannot be told from the
 * fill. Before, the ring of a confirmation's current button was drawn
 * inside every button, and on Approve nothing could be seen. */
static void
test_view_confirmation_ring_shown (void)
{
  /* Adwaita's accent colours, light and dark, which the view's style
   * sheet draws its rings with (GTK's own theme has none). */
  const char *palettes[] = {
    "@define-color accent_color #1c71d8; @define-color accent_bg_color #3584e4;",
    "@define-color accent_color #78aeed; @define-color accent_bg_color #3584e4;",
  };

  for (guint run = 0; run < 2 * G_N_ELEMENTS (palettes); run++)
    {
      gboolean dangerous = run % 2 == 1;
      g_autoptr(GtkCssProvider) palette = gtk_css_provider_new ();
      g_autofree char *action = frame_json ("choice-list", "ticket",
                                            "{\"prompt\":\"Open a ticket?\",\"choices\":[{\"id\":\"create\","
                                            "\"label\":\"Open it\",\"action\":{\"name\":\"create_ticket\","
                                            "\"input\":{\"subject\":\"Help\"}}}]}");
      const char *contents[] = { "hi", "Hello.", NULL };
      Fixture fixture = { 0 };
      g_autoptr(AkcTool) tool = NULL;
      g_autoptr(AkcActionConfirmation) confirmation = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree guchar *before = NULL;
      g_autofree guchar *after = NULL;
      GtkWidget *deny, *approve, *card;
      gboolean allowed = TRUE;
      guint runs = 0, band = 0, changed;
      int width, height;

      /* The ring as it is once drawn, not part way through its
       * transition. */
      g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
      gtk_css_provider_load_from_data (palette, palettes[run / 2], -1);
      gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (palette),
                                                  GTK_STYLE_PROVIDER_PRIORITY_THEME);
      fixture_init_with (&fixture, contents);
      tool = akc_tool_new ("create_ticket", TRUE, run_tool, &runs, NULL);
      akc_tool_set_dangerous (tool, dangerous);
      akc_chat_add_tool (fixture.chat, tool);
      akc_chat_set_tool_authorizer (fixture.chat, deny_without_capability, &allowed, NULL);
      confirmation = akc_action_confirmation_new ("session-1", AKC_CHAT_SOURCE (fixture.chat),
                                                  AKC_ACTION_CONFIRMATION_DEFAULT_TTL_MS, NULL, NULL, &error);
      g_assert_no_error (error);
      akc_chat_view_set_confirmation (fixture.view, confirmation);

      akc_scripted_adapter_begin_turn (fixture.script);
      akc_scripted_adapter_add_text (fixture.script, action, 0);
      akc_scripted_adapter_add_done (fixture.script, 0);
      g_assert_true (akc_chat_source_send (AKC_CHAT_SOURCE (fixture.chat), "help", NULL));
      WAIT_FOR (source_is_idle, &fixture);
      g_signal_emit_by_name (first_button (view_of (&fixture, 3)), "clicked");
      WAIT_FOR (has_confirmation, &fixture);
      deny = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.deny");
      approve = find_widget (GTK_WIDGET (fixture.view), has_action, "chat.approve");
      g_assert_nonnull (deny);
      g_assert_nonnull (approve);
      g_assert_true (gtk_widget_has_css_class (approve, dangerous ? "destructive-action" : "suggested-action"));
      card = confirmation_card (approve);

      /* Approve as it is drawn without the keyboard, then as it is drawn
       * with it (marked "current" while it has the focus: test
       * /chat-view/taken-focus-shown). Set here, not through the focus: the
       * window may not stay the active one (another test's window on the
       * display), and GTK takes the focus from a button of an inactive
       * window. */
      gtk_widget_remove_css_class (approve, "current");
      wait_frames (fixture.window, 2);
      before = render_card (card, &width, &height);
      gtk_widget_add_css_class (approve, "current");
      wait_frames (fixture.window, 2);
      after = render_card (card, &width, &height);

      /* The ring is around Approve: most of the band just outside it
       * changed, on the card's own background. */
      changed = band_changes (card, approve, before, after, width, height, &band);
      g_test_message ("%s, %s: %u of %u pixels around Approve changed", run / 2 == 0 ? "light" : "dark",
                      dangerous ? "destructive" : "suggested", changed, band);
      g_assert_cmpuint (band, >, 0);
      g_assert_cmpuint (changed, >, band / 2);
      g_assert_cmpuint (runs, ==, 0);

      spin ();
      akc_chat_view_set_confirmation (fixture.view, NULL);
      g_assert_finalize_object (g_steal_pointer (&confirmation));
      akc_chat_set_tool_authorizer (fixture.chat, NULL, NULL, NULL);
      akc_chat_view_set_source (fixture.view, NULL);
      fixture_clear (&fixture);
      gtk_style_context_remove_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (palette));
      gtk_settings_reset_property (gtk_settings_get_default (), "gtk-enable-animations");
    }
}

/* Escape sets aside the component that owns input: no event, the instance
 * becomes inert and input returns to the host. */
static void
test_view_set_aside (void)
{
  g_autofree char *choices = frame_json ("choice-list", "where", CHOICES);
  const char *contents[] = { "hi", choices, NULL };
  g_autoptr(GPtrArray) events = g_ptr_array_new_with_free_func (g_free);
  Fixture fixture = { 0 };
  AkcComponentView *component;

  fixture_init_with (&fixture, contents);
  g_signal_connect (fixture.view, "component-selection", G_CALLBACK (record_event), events);
  component = view_of (&fixture, 1);
  g_assert_true (akc_chat_view_get_input_owned (fixture.view));
  g_assert_true (akc_component_view_get_active (component));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.set-aside", NULL));
  g_assert_false (akc_chat_view_get_input_owned (fixture.view));
  g_assert_false (akc_component_view_get_active (component));
  g_assert_true (akc_component_view_get_resolved (component));
  g_assert_cmpuint (events->len, ==, 0);

  /* Nothing owns input any more: the action cannot act. */
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.set-aside", NULL) &&
                  akc_chat_view_get_input_owned (fixture.view));
  g_signal_emit_by_name (first_button (component), "clicked");
  g_assert_cmpuint (events->len, ==, 0);

  akc_chat_view_set_source (fixture.view, NULL);
  fixture_clear (&fixture);
}

static void
test_view_tool_denial (void)
{
  const char *contents[] = { NULL };
  Fixture fixture = { 0 };
  g_autoptr(AkcTool) tool = NULL;
  AkcChatSource *source;
  guint runs = 0;
  g_autoptr(AkcMessage) reply = NULL;
  AkcToolCall *call;

  fixture_init_with (&fixture, contents);
  source = AKC_CHAT_SOURCE (fixture.chat);
  tool = akc_tool_new ("delete_file", TRUE, run_tool, &runs, NULL);
  akc_chat_add_tool (fixture.chat, tool);

  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_tool_call (fixture.script, "call-2", "delete_file", "{\"path\":\"/\"}", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Not deleted.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);

  g_assert_true (akc_chat_source_send (source, "Delete /", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  WAIT_FOR (has_confirmation, &fixture);

  g_assert_true (gtk_widget_activate_action (find_widget (GTK_WIDGET (fixture.view), has_action, "chat.deny"),
                                             "chat.deny", "s", "call-2"));
  reply = g_list_model_get_item (akc_chat_source_get_messages (source), 1);
  call = akc_message_find_tool_call (reply, "call-2");
  g_assert_cmpint (akc_tool_call_get_status (call), ==, AKC_TOOL_CALL_STATUS_ERROR);
  g_assert_cmpstr (akc_tool_call_get_error (call), ==, "Permission denied: user denied access");
  g_assert_cmpuint (runs, ==, 0);
  WAIT_FOR (has_no_confirmation, &fixture);
  WAIT_FOR (source_is_idle, &fixture);

  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------ */
/* Lifecycle errors, Thinking..., announcements                        */
/* ------------------------------------------------------------------ */

static gboolean
thinking_shown (Fixture *fixture)
{
  return find_widget (GTK_WIDGET (fixture->view), is_label_with_text, "Thinking...") != NULL;
}

static gboolean
thinking_gone (Fixture *fixture)
{
  return !thinking_shown (fixture);
}

static gboolean
has_alert_with (Fixture    *fixture,
                const char *text)
{
  GtkWidget *label = find_widget (GTK_WIDGET (fixture->view), is_label_with_text, text);

  return label != NULL && gtk_widget_get_mapped (label) &&
         gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (gtk_widget_get_parent (label))) == GTK_ACCESSIBLE_ROLE_ALERT;
}

typedef struct {
  Fixture    *fixture;
  const char *text;
} AlertWait;

static gboolean
alert_shown (AlertWait *wait)
{
  return has_alert_with (wait->fixture, wait->text);
}

static void
test_view_thinking_and_errors (void)
{
  Fixture fixture = { 0 };
  AkcChatSource *source;
  AlertWait wait;

  fixture_init (&fixture, 2, 600);
  source = AKC_CHAT_SOURCE (fixture.chat);

  /* Thinking... while the reply streams; a status for assistive
   * technologies. */
  start_open_reply (&fixture, "Slow one");
  WAIT_FOR (thinking_shown, &fixture);
  gtk_test_accessible_assert_role (gtk_widget_get_parent (find_widget (GTK_WIDGET (fixture.view), is_label_with_text, "Thinking...")),
                                   GTK_ACCESSIBLE_ROLE_STATUS);
  /* No response actions while streaming; Stop is enabled. */
  g_assert_null (find_widget (GTK_WIDGET (fixture.view), has_action, "chat.retry"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.stop", NULL));
  WAIT_FOR (thinking_gone, &fixture);

  /* A failed turn: its error as an alert with Retry. */
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_error (fixture.script, "AK_MODEL_DOWN", "The model is down.", 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.retry", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_cmpint (akc_chat_source_get_status (source), ==, AKC_CHAT_STATUS_ERROR);
  wait = (AlertWait) { &fixture, "The model is down." };
  WAIT_FOR (alert_shown, &wait);
  g_assert_nonnull (find_widget (gtk_widget_get_parent (find_widget (GTK_WIDGET (fixture.view), is_label_with_text,
                                                                     "The model is down.")),
                                 has_action, "chat.retry"));

  fixture_clear (&fixture);
}

/* §14 A12: after a tool continuation the targets exist but retry is
 * inert; the failure is shown, and the next action clears it (§12.3). */
static void
test_view_action_error (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  AkcChatSource *source;
  const char *error;
  AlertWait wait;

  fixture_init (&fixture, 0, 600);
  source = AKC_CHAT_SOURCE (fixture.chat);
  g_ptr_array_add (messages, new_message (0, AKC_MESSAGE_ROLE_USER, "Look it up"));
  g_ptr_array_add (messages, new_message (1, AKC_MESSAGE_ROLE_ASSISTANT, "Looking."));
  g_ptr_array_add (messages, new_message (2, AKC_MESSAGE_ROLE_TOOL, "{\"found\":true}"));
  g_ptr_array_add (messages, new_message (3, AKC_MESSAGE_ROLE_ASSISTANT, "Found it."));
  akc_chat_restore (fixture.chat, (AkcMessage * const *) messages->pdata, messages->len);
  wait_frames (fixture.window, 2);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.retry", NULL));
  g_assert_false (is_streaming (fixture.chat));
  error = akc_chat_view_get_action_error (fixture.view);
  g_assert_nonnull (error);
  g_assert_null (akc_chat_source_get_error (source));
  wait = (AlertWait) { &fixture, error };
  WAIT_FOR (alert_shown, &wait);

  /* Regenerate works, and clears the error first. */
  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "Found it again.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.regenerate", NULL));
  g_assert_null (akc_chat_view_get_action_error (fixture.view));
  WAIT_FOR (source_is_idle, &fixture);
  g_assert_cmpstr (akc_message_get_content (message_at (source, 3)), ==, "Found it again.");

  fixture_clear (&fixture);
}

static void
test_view_announces (void)
{
  Fixture fixture = { 0 };
  GtkWidget *entry = gtk_text_view_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  AkcMessage *reply;

  fixture_init (&fixture, 2, 600);
  /* A composer of sorts below the transcript, with the focus. */
  g_object_ref (fixture.scroller);
  gtk_window_set_child (GTK_WINDOW (fixture.window), box);
  gtk_widget_set_vexpand (fixture.scroller, TRUE);
  gtk_box_append (GTK_BOX (box), fixture.scroller);
  gtk_box_append (GTK_BOX (box), entry);
  g_object_unref (fixture.scroller);
  g_assert_true (gtk_widget_grab_focus (entry));

  reply = start_open_reply (&fixture, "Hi");
  akc_message_append_content (reply, "Some **bold** text and `code`.", -1);
  akc_chat_source_stop (AKC_CHAT_SOURCE (fixture.chat));
  spin ();
#if GTK_CHECK_VERSION (4, 14, 0)
  g_test_skip ("gtk_accessible_announce() is used");
#else
  /* Stopped: said so. */
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "Reply stopped");

  akc_scripted_adapter_begin_turn (fixture.script);
  akc_scripted_adapter_add_text (fixture.script, "# Done\n\nSome **bold** text and `code`.", 0);
  akc_scripted_adapter_add_done (fixture.script, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture.view), "chat.retry", NULL));
  WAIT_FOR (source_is_idle, &fixture);
  spin ();
  /* The text, without its Markdown, on the focused entry. */
  gtk_test_accessible_assert_property (entry, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       "Assistant: Done\nSome bold text and code.");
#endif

  fixture_clear (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown/structure", test_markdown_structure);
  g_test_add_func ("/markdown/escaping", test_markdown_escaping);
  g_test_add_func ("/markdown/links", test_markdown_links);
  g_test_add_func ("/markdown/view", test_markdown_view);
  g_test_add_func ("/markdown/streaming", test_markdown_streaming);
  g_test_add_func ("/markdown/stable-end", test_markdown_stable_end);
  g_test_add_func ("/row/presentations", test_row_roles_are_plain);
  g_test_add_func ("/row/streamed-as-whole", test_row_streamed_as_whole);
  g_test_add_func ("/chat-view/accessibility", test_view_accessibility);
  g_test_add_func ("/chat-view/row-updates", test_view_row_updates);
  g_test_add_func ("/chat-view/streaming-coalesces", test_view_streaming_coalesces);
  g_test_add_func ("/chat-view/streaming-every-frame", test_view_streaming_every_frame);
  g_test_add_func ("/chat-view/streaming-flushes-on-stop", test_view_streaming_flushes_on_stop);
  g_test_add_func ("/chat-view/sticky-scroll", test_view_sticky_scroll);
  g_test_add_func ("/chat-view/empty-source-after-scroll", test_view_empty_source_after_scroll);
  g_test_add_func ("/chat-view/history-paging", test_view_history_paging);
  g_test_add_func ("/chat-view/input-ownership", test_view_input_ownership);
  g_test_add_func ("/chat-view/focus-hint-covers-nothing", test_view_focus_hint_covers_nothing);
  g_test_add_func ("/chat-view/focus-kept-out-of-sight", test_view_focus_kept_out_of_sight);
  g_test_add_func ("/chat-view/focus-kept-through-rebind", test_view_focus_kept_through_rebind);
  g_test_add_func ("/chat-view/taken-focus-shown", test_view_taken_focus_shown);
  g_test_add_func ("/chat-view/confirmation-ring-shown", test_view_confirmation_ring_shown);
  g_test_add_func ("/chat-view/duplicate-instances", test_view_duplicate_instances);
  g_test_add_func ("/chat-view/tool-confirmation", test_view_tool_confirmation);
  g_test_add_func ("/chat-view/tool-denial", test_view_tool_denial);
  g_test_add_func ("/chat-view/decided-confirmation-leaves", test_view_decided_confirmation_leaves);
  g_test_add_func ("/chat-view/confirmation-coordinator", test_view_confirmation_coordinator);
  g_test_add_func ("/chat-view/choice-action", test_view_choice_action);
  g_test_add_func ("/chat-view/set-aside", test_view_set_aside);
  g_test_add_func ("/chat-view/thinking-and-errors", test_view_thinking_and_errors);
  g_test_add_func ("/chat-view/action-error", test_view_action_error);
  g_test_add_func ("/chat-view/announces", test_view_announces);
  g_test_add_func ("/message-row/usage", test_row_usage);

  return g_test_run ();
}

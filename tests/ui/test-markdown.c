/* test-markdown.c: the Markdown renderer of the transcript (links, layout,
 * tables, code), in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <locale.h>
#include <akc-gtk.h>

#include "akc-markdown-private.h"
#include "akc-markdown-view-private.h"
#include "akc-message-row-private.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* Generous: the valgrind setup runs everything 20 times slower. */
#define WAIT_TIMEOUT_USEC (120 * G_USEC_PER_SEC)

typedef gboolean (*Condition) (gpointer data);

static void
wait_until (Condition condition,
            gpointer  data)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_TIMEOUT_USEC;

  while (!condition (data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

typedef struct {
  GtkWidget *widget;
  gint64     frame;
} Frames;

static gboolean
frame_reached (Frames *frames)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (frames->widget);

  gtk_widget_queue_draw (frames->widget);
  return clock != NULL && gdk_frame_clock_get_frame_counter (clock) >= frames->frame;
}

/* Waits until @widget's window has drawn @n more frames. */
static void
wait_frames (GtkWidget *widget,
             guint      n)
{
  GdkFrameClock *clock;
  Frames frames = { widget, 0 };

  wait_until ((Condition) gtk_widget_get_mapped, widget);
  clock = gtk_widget_get_frame_clock (widget);
  frames.frame = gdk_frame_clock_get_frame_counter (clock) + n;
  wait_until ((Condition) frame_reached, &frames);
}

static void
collect_type (GtkWidget *root,
              GType      type,
              GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    g_ptr_array_add (found, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_type (child, type, found);
}

static AkcMarkdownBlock *
first_block (GPtrArray *blocks)
{
  g_assert_cmpuint (blocks->len, >=, 1);
  return g_ptr_array_index (blocks, 0);
}

/* Parses @text and checks that its one block's markup is markup GTK takes. */
static GPtrArray *
parse_checked (const char *text)
{
  GPtrArray *blocks = akc_markdown_parse (text, strlen (text));
  g_autoptr(GtkWidget) label = g_object_ref_sink (gtk_label_new (NULL));

  for (guint i = 0; i < blocks->len; i++)
    {
      AkcMarkdownBlock *block = g_ptr_array_index (blocks, i);

      /* A warning (fatal in tests) if it does not parse. */
      if (block->markup != NULL)
        gtk_label_set_markup (GTK_LABEL (label), block->markup);
    }

  return blocks;
}

/* ------------------------------------------------------------------ */
/* Links: SafeHref (application.md §0.5), and the host beside the text */
/* ------------------------------------------------------------------ */

static void
test_links_safe_href (void)
{
  static const char * const dead[] = {
    "[pay](https://user:pw@bank.example/)",
    "[pay](https://user@bank.example/)",
    "<https://user:pw@bank.example/>",
    "see https://user:pw@bank.example/ now",
    "[x](http://a\\@b)",           /* the escape makes it http://a@b */
    "<http://a\\@b>",               /* a backslash, literally */
    "http://a\\@b",
    "[x](http://evil.example\\@bank.example/)",
    "[x](https://1.2.3.256/)",
    "[x](https://exa%20mple.com/)",
    "[x](https://example.com:99999/)",
    "[rel](/docs)",                 /* no base on the desktop */
    "[x](//evil.example/)",
    "[x](javascript:alert(1))",
    "[x](file:///etc/passwd)",
    "[x](ftp://example.com/)",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (dead); i++)
    {
      g_autoptr(GPtrArray) blocks = parse_checked (dead[i]);
      AkcMarkdownBlock *block = first_block (blocks);

      g_test_message ("%s → %s", dead[i], block->markup);
      g_assert_cmpuint (block->n_links, ==, 0);
      g_assert_null (strstr (block->markup, "<a "));
    }

  {
    g_autoptr(GPtrArray) blocks = parse_checked ("[ok](https://example.com/a) and <http:example.com>");
    AkcMarkdownBlock *block = first_block (blocks);

    g_assert_cmpuint (block->n_links, ==, 2);
  }

  g_assert_false (akc_markdown_uri_is_safe ("https://user:pw@host/"));
  g_assert_false (akc_markdown_uri_is_safe ("http://a\\@b"));
  g_assert_false (akc_markdown_uri_is_safe ("http://a@b"));
  g_assert_false (akc_markdown_uri_is_safe ("/docs"));
  g_assert_true (akc_markdown_uri_is_safe ("https://example.com/"));
}

static void
test_links_show_host (void)
{
  static const struct { const char *markdown; const char *text; } cases[] = {
    /* The text is an address of somewhere else: the real host follows. */
    { "[https://bank.example/login](https://evil.example/login)",
      "https://bank.example/login (evil.example)" },
    { "[bank.example](https://evil.example/)", "bank.example (evil.example)" },
    { "[www.bank.example/login](https://evil.example/)", "www.bank.example/login (evil.example)" },
    { "[http://bank.example](http://bank.example.evil.example/)",
      "http://bank.example (bank.example.evil.example)" },
    { "[apple.com](https://\xD0\xB0pple.com/)", "apple.com (xn--pple-43d.com)" },
    { "[https://user@bank.example/](https://bank.example/)",
      "https://user@bank.example/ (bank.example)" },
    { "[**https://bank.example**](https://evil.example/)", "https://bank.example (evil.example)" },
    /* The text says where it goes, or is no address at all. */
    { "[https://example.com/a](https://EXAMPLE.com/b)", "https://example.com/a" },
    { "[example.com](https://example.com/)", "example.com" },
    { "[the docs](https://evil.example/)", "the docs" },
    { "[v1.2](https://example.com/)", "v1.2" },
    { "<https://example.com/x>", "https://example.com/x" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) blocks = parse_checked (cases[i].markdown);
      AkcMarkdownBlock *block = first_block (blocks);

      g_test_message ("%s → %s", cases[i].markdown, block->markup);
      g_assert_cmpuint (block->n_links, ==, 1);
      g_assert_cmpstr (block->text, ==, cases[i].text);
    }

  /* The host is outside the link, and what a label shows. */
  {
    const char *markdown = "Log in at [https://bank.example](https://evil.example/).";
    g_autoptr(GPtrArray) blocks = parse_checked (markdown);
    AkcMarkdownBlock *block = first_block (blocks);
    GtkWidget *label = g_object_ref_sink (gtk_label_new (NULL));

    g_assert_nonnull (strstr (block->markup, "https://bank.example</a><span"));
    gtk_label_set_markup (GTK_LABEL (label), block->markup);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==,
                     "Log in at https://bank.example (evil.example).");
    g_object_unref (label);
  }
}

static void
record_uri (AkcMarkdownView *view,
            const char      *uri,
            GPtrArray       *uris)
{
  g_ptr_array_add (uris, g_strdup (uri));
  g_signal_stop_emission_by_name (view, "open-uri");
}

/* A link a label reports is opened only when it is safe, whoever wrote it. */
static void
test_links_activation (void)
{
  const char *text = "[ok](https://example.com/) [bad](https://user:pw@example.com/)";
  g_autoptr(GtkWidget) view = g_object_ref_sink (akc_markdown_view_new ());
  g_autoptr(GPtrArray) uris = g_ptr_array_new_with_free_func (g_free);
  static const char * const attempts[] = {
    "https://example.com/", "https://user:pw@example.com/", "http://a\\@b", "http://a@b", "/docs",
  };
  GtkWidget *label;

  g_signal_connect (view, "open-uri", G_CALLBACK (record_uri), uris);
  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text, strlen (text), FALSE);
  label = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 0);

  for (gsize i = 0; i < G_N_ELEMENTS (attempts); i++)
    {
      gboolean handled = FALSE;

      g_signal_emit_by_name (label, "activate-link", attempts[i], &handled);
      g_assert_true (handled);  /* GTK never opens anything itself */
    }
  g_assert_cmpuint (uris->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (uris, 0), ==, "https://example.com/");
}

/* ------------------------------------------------------------------ */
/* Row heights follow their content at every width                     */
/* ------------------------------------------------------------------ */

typedef struct {
  GtkWidget *window;
  GtkWidget *view;
  AkcChat   *chat;
} Transcript;

/* A chat view in a window @width wide, showing @texts (user and assistant
 * in turn). */
static void
transcript_init (Transcript         *transcript,
                 const char * const *texts,
                 guint               n,
                 int                 width)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcAdapter) adapter = akc_scripted_adapter_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  transcript->chat = akc_chat_new (adapter);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);

      g_ptr_array_add (messages, akc_message_new (id, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                  texts[i], AKC_MESSAGE_STATUS_COMPLETE));
    }
  akc_chat_restore (transcript->chat, (AkcMessage * const *) messages->pdata, messages->len);

  transcript->view = akc_chat_view_new ();
  akc_chat_view_set_source (AKC_CHAT_VIEW (transcript->view), AKC_CHAT_SOURCE (transcript->chat));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), transcript->view);

  transcript->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (transcript->window), width, 1000);
  gtk_window_set_child (GTK_WINDOW (transcript->window), scroller);
  gtk_window_present (GTK_WINDOW (transcript->window));
  wait_frames (transcript->window, 3);
}

static void
transcript_clear (Transcript *transcript)
{
  gtk_window_destroy (GTK_WINDOW (transcript->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (transcript->chat);
}

typedef struct {
  GtkWidget *widget;
  int        width;
} Width;

static gboolean
has_width (Width *width)
{
  return gtk_widget_get_width (width->widget) == width->width;
}

static void
transcript_resize (Transcript *transcript,
                   int         width)
{
  Width wait = { transcript->view, width };

  gtk_window_set_default_size (GTK_WINDOW (transcript->window), width, 1000);
  wait_until ((Condition) has_width, &wait);
  wait_frames (transcript->window, 3);
}

/* Every shown widget under @widget lies inside @row. */
static void
assert_inside (GtkWidget *widget,
               GtkWidget *row)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (!gtk_widget_get_mapped (child) || !gtk_widget_compute_bounds (child, row, &bounds))
        continue;
      if (bounds.origin.y < -0.5 || bounds.origin.y + bounds.size.height > gtk_widget_get_height (row) + 0.5 ||
          bounds.origin.x < -0.5 || bounds.origin.x + bounds.size.width > gtk_widget_get_width (row) + 0.5)
        g_error ("%s at %.0f,%.0f %.0f×%.0f is outside its row (%d×%d)",
                 G_OBJECT_TYPE_NAME (child), bounds.origin.x, bounds.origin.y,
                 bounds.size.width, bounds.size.height,
                 gtk_widget_get_width (row), gtk_widget_get_height (row));
      assert_inside (child, row);
    }
}

/* No two rows of the transcript overlap, every row is at least as tall
 * as its content wants at its width, and nothing is drawn outside it. */
static void
assert_rows_fit (Transcript *transcript,
                 guint       n_messages)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  double previous_end = -1;

  collect_type (transcript->view, AKC_TYPE_MESSAGE_ROW, rows);
  g_assert_cmpuint (rows->len, ==, n_messages);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);
      GtkWidget *item = gtk_widget_get_parent (row);   /* the list's row */
      graphene_rect_t bounds;
      int natural = 0;

      g_assert_true (gtk_widget_compute_bounds (item, transcript->view, &bounds));
      g_test_message ("row %u: y %.0f, height %.0f, width %.0f", i, bounds.origin.y,
                      bounds.size.height, bounds.size.width);
      g_assert_cmpfloat (bounds.origin.y, >=, previous_end - 0.5);
      previous_end = bounds.origin.y + bounds.size.height;

      /* The row's own content at the width it has. */
      for (GtkWidget *child = gtk_widget_get_first_child (row); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        {
          gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (row), NULL, &natural, NULL, NULL);
          g_assert_cmpint (natural, <=, gtk_widget_get_height (row));
        }
      assert_inside (row, row);
    }
}

static char *
long_word (guint length)
{
  GString *word = g_string_new ("Look: ");

  for (guint i = 0; i < length; i++)
    g_string_append_c (word, (char) ('a' + i % 26));
  return g_string_free (word, FALSE);
}

static void
test_layout_rows_fit (void)
{
  g_autofree char *word = long_word (150);
  const char *code = "Here:\n\n```c\nint main (void) { printf (\"a line of code far too long for a narrow window\\n\"); "
                     "return 0; }\nstatic const char *s = \"another line that goes on and on and on and on\";\n```\n\nDone.";
  const char * const texts[] = {
    word, word, "A short question?", code, word, "- a list item with the word " "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\n\n> and a quote",
  };
  static const int widths[] = { 720, 360, 1100, 340, 720 };
  Transcript transcript = { 0 };

  transcript_init (&transcript, texts, G_N_ELEMENTS (texts), widths[0]);
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      g_test_message ("width %d", widths[i]);
      if (i > 0)
        transcript_resize (&transcript, widths[i]);
      assert_rows_fit (&transcript, G_N_ELEMENTS (texts));
    }
  transcript_clear (&transcript);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown/links/safe-href", test_links_safe_href);
  g_test_add_func ("/markdown/links/show-host", test_links_show_host);
  g_test_add_func ("/markdown/links/activation", test_links_activation);
  g_test_add_func ("/markdown/layout/rows-fit", test_layout_rows_fit);

  return g_test_run ();
}

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

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown/links/safe-href", test_links_safe_href);
  g_test_add_func ("/markdown/links/show-host", test_links_show_host);
  g_test_add_func ("/markdown/links/activation", test_links_activation);

  return g_test_run ();
}

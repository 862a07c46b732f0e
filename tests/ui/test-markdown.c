/* test-markdown.c: the Markdown renderer of the transcript (links, layout,
 * tables, code), in process, with GTK's test accessibility backend
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <locale.h>
#include <akc-gtk.h>

#include "akc-code-block-private.h"
#include "akc-markdown-private.h"
#include "akc-markdown-table-private.h"
#include "akc-markdown-view-private.h"
#include "akc-message-row-private.h"
#include "akc-test-ui.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

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
/* Tables, inline code, the person's Markdown, highlighted code        */
/* ------------------------------------------------------------------ */

static const char table_markdown[] =
  "Before.\n\n"
  "| Name | Value | Notes |\n"
  "|:-----|------:|:-----:|\n"
  "| alpha | 1 | first `code` |\n"
  "| beta **b** | 22 | [site](https://example.com/) |\n"
  "\nAfter.";

static void
test_table_parse (void)
{
  g_autoptr(GPtrArray) blocks = parse_checked (table_markdown);
  AkcMarkdownBlock *table;
  AkcMarkdownCell *cell;

  g_assert_cmpuint (blocks->len, ==, 3);
  table = g_ptr_array_index (blocks, 1);
  g_assert_cmpint (table->kind, ==, AKC_MARKDOWN_GFM_TABLE);
  g_assert_cmpuint (table->n_columns, ==, 3);
  g_assert_cmpuint (table->n_rows, ==, 3);
  g_assert_cmpuint (table->cells->len, ==, 9);
  g_assert_cmpuint (table->n_links, ==, 1);
  g_assert_cmpstr (table->text, ==, "Name\tValue\tNotes\nalpha\t1\tfirst code\nbeta b\t22\tsite");

  cell = g_ptr_array_index (table->cells, 0);
  g_assert_true (cell->header);
  g_assert_cmpuint (cell->row, ==, 0);
  g_assert_cmpint (cell->align, ==, AKC_MARKDOWN_ALIGN_LEFT);
  cell = g_ptr_array_index (table->cells, 4);
  g_assert_false (cell->header);
  g_assert_cmpuint (cell->row, ==, 1);
  g_assert_cmpuint (cell->column, ==, 1);
  g_assert_cmpint (cell->align, ==, AKC_MARKDOWN_ALIGN_RIGHT);
  cell = g_ptr_array_index (table->cells, 5);
  g_assert_cmpint (cell->align, ==, AKC_MARKDOWN_ALIGN_CENTER);
  g_assert_cmpstr (cell->markup, ==, "first " AKC_MARKDOWN_CODE_SPAN_OPEN "code" AKC_MARKDOWN_CODE_SPAN_CLOSE);
  cell = g_ptr_array_index (table->cells, 6);
  g_assert_cmpstr (cell->markup, ==, "beta <b>b</b>");

  /* Model text in a cell is text, and a cell's links are safe ones. */
  {
    g_autoptr(GPtrArray) hostile = parse_checked ("| <b>x</b> | [a](https://u:p@h/) |\n|---|---|\n| &lt; | `</span>` |\n");
    AkcMarkdownBlock *block = first_block (hostile);

    g_assert_cmpint (block->kind, ==, AKC_MARKDOWN_GFM_TABLE);
    g_assert_cmpuint (block->n_links, ==, 0);
    g_assert_cmpstr (((AkcMarkdownCell *) g_ptr_array_index (block->cells, 0))->markup, ==, "&lt;b&gt;x&lt;/b&gt;");
  }

  /* Not a table without its delimiter row. */
  {
    g_autoptr(GPtrArray) text = parse_checked ("| a | b |\n| c | d |\n");

    g_assert_cmpint (first_block (text)->kind, ==, AKC_MARKDOWN_PARAGRAPH);
  }
}

static gboolean
is_label_text (GtkWidget  *widget,
               const char *text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0;
}

static void
test_table_widget (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = akc_markdown_view_new ();
  g_autoptr(GPtrArray) uris = g_ptr_array_new_with_free_func (g_free);
  AkcMarkdownTable *table;
  GtkWidget *header, *cell, *row;
  gboolean handled = FALSE;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (view, "open-uri", G_CALLBACK (record_uri), uris);

  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), table_markdown, strlen (table_markdown), FALSE);
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (AKC_MARKDOWN_VIEW (view)), ==, 3);
  table = AKC_MARKDOWN_TABLE (akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 1));
  g_assert_true (AKC_IS_MARKDOWN_TABLE (table));
  g_assert_cmpuint (akc_markdown_table_get_n_rows (table), ==, 3);

  /* A table of rows of cells, the first row its column headers. */
  gtk_test_accessible_assert_role (GTK_WIDGET (table), GTK_ACCESSIBLE_ROLE_TABLE);
  header = akc_markdown_table_get_cell (table, 0, 1);
  g_assert_true (is_label_text (header, "Value"));
  gtk_test_accessible_assert_role (header, GTK_ACCESSIBLE_ROLE_COLUMN_HEADER);
  row = gtk_widget_get_parent (header);
  gtk_test_accessible_assert_role (row, GTK_ACCESSIBLE_ROLE_ROW);
  g_assert_true (gtk_widget_has_css_class (row, "header"));
  cell = akc_markdown_table_get_cell (table, 2, 0);
  g_assert_true (is_label_text (cell, "beta b"));
  gtk_test_accessible_assert_role (cell, GTK_ACCESSIBLE_ROLE_CELL);
  g_assert_cmpfloat (gtk_label_get_xalign (GTK_LABEL (akc_markdown_table_get_cell (table, 1, 1))), ==, 1.0);
  g_assert_null (akc_markdown_table_get_cell (table, 3, 0));

  /* Columns line up: every cell of a column starts where its header does. */
  wait_frames (window, 2);
  for (guint c = 0; c < 3; c++)
    {
      graphene_rect_t first, other;

      g_assert_true (gtk_widget_compute_bounds (akc_markdown_table_get_cell (table, 0, c), GTK_WIDGET (table), &first));
      for (guint r = 1; r < 3; r++)
        {
          g_assert_true (gtk_widget_compute_bounds (akc_markdown_table_get_cell (table, r, c), GTK_WIDGET (table), &other));
          g_assert_cmpfloat (first.origin.x, ==, other.origin.x);
          g_assert_cmpfloat (first.size.width, ==, other.size.width);
        }
    }

  /* A link in a cell goes where links go. */
  g_signal_emit_by_name (akc_markdown_table_get_cell (table, 2, 2), "activate-link", "https://example.com/", &handled);
  g_assert_true (handled);
  g_signal_emit_by_name (akc_markdown_table_get_cell (table, 2, 2), "activate-link", "https://u:p@example.com/", &handled);
  g_assert_cmpuint (uris->len, ==, 1);

  /* Streaming a row in: the cells there are kept. */
  {
    g_autofree char *longer = g_strconcat ("| a | b |\n|---|---|\n| 1 | 2 |\n", NULL);
    g_autofree char *longest = g_strconcat (longer, "| 3 | 4 |\n", NULL);
    AkcMarkdownTable *streamed;
    GtkWidget *kept;

    akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), longer, strlen (longer), TRUE);
    streamed = AKC_MARKDOWN_TABLE (akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 0));
    kept = akc_markdown_table_get_cell (streamed, 1, 0);
    akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), longest, strlen (longest), TRUE);
    g_assert_true (AKC_MARKDOWN_TABLE (akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 0)) == streamed);
    g_assert_true (akc_markdown_table_get_cell (streamed, 1, 0) == kept);
    g_assert_cmpuint (akc_markdown_table_get_n_rows (streamed), ==, 3);
    g_assert_true (is_label_text (akc_markdown_table_get_cell (streamed, 2, 1), "4"));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_inline_code (void)
{
  g_autoptr(GPtrArray) blocks = parse_checked ("Run `make <all>` now.");
  g_autoptr(GtkWidget) label = g_object_ref_sink (gtk_label_new (NULL));
  PangoAttrList *attrs;
  g_autoptr(GSList) list = NULL;
  gboolean background = FALSE, family = FALSE;

  g_assert_cmpstr (first_block (blocks)->markup, ==,
                   "Run " AKC_MARKDOWN_CODE_SPAN_OPEN "make &lt;all&gt;" AKC_MARKDOWN_CODE_SPAN_CLOSE " now.");

  /* What a label makes of it: monospace on a background of its own, over
   * the code only. */
  gtk_label_set_markup (GTK_LABEL (label), first_block (blocks)->markup);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Run make <all> now.");
  attrs = pango_layout_get_attributes (gtk_label_get_layout (GTK_LABEL (label)));
  g_assert_nonnull (attrs);
  list = pango_attr_list_get_attributes (attrs);
  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attr = l->data;

      if (attr->klass->type == PANGO_ATTR_BACKGROUND || attr->klass->type == PANGO_ATTR_FAMILY)
        {
          g_assert_cmpuint (attr->start_index, ==, 4);
          g_assert_cmpuint (attr->end_index, ==, 4 + strlen ("make <all>"));
        }
      background |= attr->klass->type == PANGO_ATTR_BACKGROUND;
      family |= attr->klass->type == PANGO_ATTR_FAMILY;
    }
  g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);
  g_assert_true (background);
  g_assert_true (family);
}

/* The person's own messages are Markdown, with the same safe links, and
 * still never a frame. */
static void
test_user_markdown (void)
{
  const char *frame = "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\","
                      "\"componentKey\":\"progress\",\"instanceId\":\"p\",\"props\":{\"label\":\"U\",\"value\":5},"
                      "\"fallback\":{\"kind\":\"progress\",\"summary\":\"U.\"}}";
  g_autoptr(AkcComponentManifest) manifest = akc_component_manifest_new_standard ();
  GtkWidget *window = gtk_window_new ();
  AkcMessageRow *row = AKC_MESSAGE_ROW (akc_message_row_new ());
  g_autoptr(AkcMessage) user = akc_message_new ("u", AKC_MESSAGE_ROLE_USER,
                                                "Is **this** `code`?\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                                                "[pay](https://user:pw@bank.example/)",
                                                AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) user_frame = akc_message_new ("f", AKC_MESSAGE_ROLE_USER, frame, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) system = akc_message_new ("s", AKC_MESSAGE_ROLE_SYSTEM, "**as is**", AKC_MESSAGE_STATUS_COMPLETE);
  AkcMarkdownView *markdown;

  akc_message_row_set_manifest (row, manifest);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (row));
  gtk_window_present (GTK_WINDOW (window));

  akc_message_row_set_message (row, user);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_MARKDOWN);
  markdown = AKC_MARKDOWN_VIEW (akc_message_row_get_part (row, 0));
  g_assert_cmpuint (akc_markdown_view_get_n_blocks (markdown), ==, 3);
  g_assert_true (is_label_text (akc_markdown_view_get_block_widget (markdown, 0), "Is this code?"));
  g_assert_true (AKC_IS_MARKDOWN_TABLE (akc_markdown_view_get_block_widget (markdown, 1)));
  g_assert_cmpuint (akc_markdown_view_get_block (markdown, 2)->n_links, ==, 0);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (markdown), "bubble"));
  g_assert_cmpint (gtk_widget_get_halign (GTK_WIDGET (markdown)), ==, GTK_ALIGN_END);

  /* A frame the person typed is text. */
  akc_message_row_set_message (row, user_frame);
  g_assert_cmpuint (akc_message_row_get_n_parts (row), ==, 1);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_MARKDOWN);
  g_assert_false (AKC_IS_COMPONENT_VIEW (akc_message_row_get_part (row, 0)));

  /* System text stays plain. */
  akc_message_row_set_message (row, system);
  g_assert_cmpint (akc_message_row_get_part_kind (row, 0), ==, AKC_MESSAGE_PART_PLAIN);
  g_assert_true (is_label_text (akc_message_row_get_part (row, 0), "**as is**"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The colour of the first coloured character of @label at or after byte
 * @from, as 0xRRGGBB, or -1. */
static gint64
colour_from (GtkWidget *label,
             guint      from)
{
  PangoAttrList *attrs = gtk_label_get_attributes (GTK_LABEL (label));
  g_autoptr(GSList) list = NULL;
  gint64 colour = -1;

  if (attrs == NULL)
    return -1;

  list = pango_attr_list_get_attributes (attrs);
  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attr = l->data;

      if (attr->klass->type == PANGO_ATTR_FOREGROUND && attr->start_index >= from && colour < 0)
        {
          PangoColor *c = &((PangoAttrColor *) attr)->color;

          colour = ((c->red >> 8) << 16) | ((c->green >> 8) << 8) | (c->blue >> 8);
        }
    }
  g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);

  return colour;
}

static gint64
first_colour (GtkWidget *label)
{
  gint64 colour = colour_from (label, 0);
  PangoAttrList *attrs = gtk_label_get_attributes (GTK_LABEL (label));

  /* Only when the first character is coloured. */
  if (attrs != NULL)
    {
      g_autoptr(GSList) list = pango_attr_list_get_attributes (attrs);
      gboolean at_start = FALSE;

      for (GSList *l = list; l != NULL; l = l->next)
        at_start |= ((PangoAttribute *) l->data)->klass->type == PANGO_ATTR_FOREGROUND &&
                    ((PangoAttribute *) l->data)->start_index == 0;
      g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);
      if (!at_start)
        return -1;
    }

  return colour;
}

typedef struct {
  GtkWidget *label;
  gint64     not_colour;
} ColourChange;

static gboolean
colour_changed (ColourChange *change)
{
  gint64 colour = first_colour (change->label);

  return colour >= 0 && colour != change->not_colour;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

/* A reply's blocks are one under the other: the view's height is not any
 * block's. GTK asks a widget aligned other than fill (a reply's view is, in
 * its bubble) for its width at its allocated height on every allocation;
 * the view passed that height on to each block, and a code block gave the
 * rest of it after its header to its lines: "make check" asked for its
 * width at a height of about one line, for which GtkLabel (with a minimum
 * of width-chars) reports a minimum wider than its natural width and a
 * Gtk-WARNING (natural size must be >= min size), fatal here. The view asks
 * its blocks for their widths at no height. */
static void
test_code_min_width (void)
{
  static const char *const replies[] = {
    "```sh\nmake check\n```",
    "Run:\n\n```sh\nmake check\n```\n\nthen `ls`.",
    "```\nx = 1\ny = 2\n```",
    "```sh\nmeson test -C _build --no-rebuild --print-errorlogs test-markdown test-transcript\n```",
  };
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_window_set_child (GTK_WINDOW (window), box);
  for (gsize i = 0; i < G_N_ELEMENTS (replies); i++)
    {
      GtkWidget *view = akc_markdown_view_new ();

      akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), replies[i], strlen (replies[i]), FALSE);
      gtk_widget_set_halign (view, GTK_ALIGN_START);
      gtk_box_append (GTK_BOX (box), view);
    }
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 2);

  for (GtkWidget *view = gtk_widget_get_first_child (box); view != NULL; view = gtk_widget_get_next_sibling (view))
    {
      int height = 0, min = 0, nat = 0, free_min = 0, free_nat = 0;

      gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, -1, &free_min, &free_nat, NULL, NULL);
      gtk_widget_measure (view, GTK_ORIENTATION_VERTICAL, free_nat, &height, NULL, NULL, NULL);
      g_test_message ("%d x %d", free_nat, height);
      for (int for_size = height / 4; for_size <= 2 * height; for_size += MAX (height / 8, 1))
        {
          gtk_widget_measure (view, GTK_ORIENTATION_HORIZONTAL, for_size, &min, &nat, NULL, NULL);
          g_assert_cmpint (min, <=, nat);
          g_assert_cmpint (nat, ==, free_nat);
        }
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_code_highlight (void)
{
  static const struct { const char *label; const char *id; } languages[] = {
    { "python", "python3" }, { "py", "python3" }, { "Python3", "python3" }, { "c", "c" },
    { "js", "js" }, { "bash", "sh" }, { "rust", "rust" }, { "rs", "rust" }, { "json", "json" },
    { "yml", "yaml" }, { "toml", "toml" }, { "no-such-language", NULL }, { "../c", NULL },
  };
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkSettings *settings = gtk_settings_get_default ();
  gboolean was_dark = FALSE;
  GtkWidget *code, *plain, *label;
  gint64 light;
  guint first_changes = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (languages); i++)
    {
      g_autoptr(GtkWidget) block = g_object_ref_sink (akc_code_block_new (languages[i].label));

      g_test_message ("%s", languages[i].label);
      g_assert_cmpstr (akc_code_block_get_language_id (AKC_CODE_BLOCK (block)), ==, languages[i].id);
    }

  g_object_get (settings, "gtk-application-prefer-dark-theme", &was_dark, NULL);
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);

  gtk_window_set_child (GTK_WINDOW (window), box);
  code = akc_code_block_new ("python");
  akc_code_block_set_code (AKC_CODE_BLOCK (code), "def greet(name):\n    return \"hi\"  # comment");
  plain = akc_code_block_new (NULL);
  akc_code_block_set_code (AKC_CODE_BLOCK (plain), "def greet(name):");
  gtk_box_append (GTK_BOX (box), code);
  gtk_box_append (GTK_BOX (box), plain);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 2);

  /* A keyword has a colour of its own; code of no known language none. */
  label = akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "def greet(name):\n    return \"hi\"  # comment");
  light = first_colour (label);
  g_assert_cmpint (light, >=, 0);
  g_assert_cmpint (first_colour (akc_code_block_get_chunk (AKC_CODE_BLOCK (plain), 0)), ==, -1);

  /* Dark mode: the colours of the dark scheme. */
  {
    ColourChange change = { label, light };

    g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
    wait_for ((Condition) colour_changed, &change);
  }

  /* And back. */
  {
    ColourChange change = { label, first_colour (label) };

    g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
    wait_for ((Condition) colour_changed, &change);
    g_assert_cmpint (first_colour (label), ==, light);
  }

  /* Streaming into the last label leaves the full ones alone. */
  {
    g_autoptr(GString) text = g_string_new (NULL);
    GtkWidget *first;

    for (guint i = 0; i < 60; i++)
      g_string_append_printf (text, "x%u = %u  # line\n", i, i);
    akc_code_block_set_code (AKC_CODE_BLOCK (code), text->str);
    g_assert_cmpuint (akc_code_block_get_n_chunks (AKC_CODE_BLOCK (code)), ==, 3);
    first = akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 0);
    g_signal_connect (first, "notify::attributes", G_CALLBACK (count_notify), &first_changes);
    for (guint i = 0; i < 5; i++)
      {
        g_string_append_printf (text, "y%u = \"more\"\n", i);
        akc_code_block_set_code (AKC_CODE_BLOCK (code), text->str);
      }
    g_assert_cmpuint (first_changes, ==, 0);
    /* The last label is highlighted too. */
    g_assert_cmpint (colour_from (akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 2), 0), >=, 0);
  }

  g_object_set (settings, "gtk-application-prefer-dark-theme", was_dark, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Whether every character of @text but line breaks (which draw nothing)
 * has the same colour, weight and style in @a and @b. */
static gboolean
same_look (const char    *text,
           PangoAttrList *a,
           PangoAttrList *b)
{
  gsize length = strlen (text);

  for (gsize i = 0; i < length; i++)
    {
      PangoAttrList *lists[2] = { a, b };
      char look[2][64];

      if (text[i] == '\n')
        continue;
      for (guint l = 0; l < 2; l++)
        {
          g_autoptr(GSList) list = lists[l] != NULL ? pango_attr_list_get_attributes (lists[l]) : NULL;
          guint fg = 0xffffffff, weight = PANGO_WEIGHT_NORMAL, style = PANGO_STYLE_NORMAL;

          /* The last one over a character wins, as when Pango draws it. */
          for (GSList *e = list; e != NULL; e = e->next)
            {
              PangoAttribute *attr = e->data;

              if (attr->start_index > i || i >= attr->end_index)
                continue;
              if (attr->klass->type == PANGO_ATTR_FOREGROUND)
                {
                  PangoColor *c = &((PangoAttrColor *) attr)->color;

                  fg = ((c->red >> 8) << 16) | ((c->green >> 8) << 8) | (c->blue >> 8);
                }
              else if (attr->klass->type == PANGO_ATTR_WEIGHT)
                weight = (guint) ((PangoAttrInt *) attr)->value;
              else if (attr->klass->type == PANGO_ATTR_STYLE)
                style = (guint) ((PangoAttrInt *) attr)->value;
            }
          g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);
          g_snprintf (look[l], sizeof look[l], "%x %u %u", fg, weight, style);
        }
      if (strcmp (look[0], look[1]) != 0)
        {
          g_test_message ("at byte %" G_GSIZE_FORMAT " ('%c'): %s against %s", i, text[i], look[0], look[1]);
          return FALSE;
        }
    }

  return TRUE;
}

/* Code written a few characters at a time has, at every step, the colours
 * of the same code given at once: the lines kept from one update to the
 * next are the lines highlighting has finished with. Chunks of 1 to 7
 * characters cut keywords, strings, comments and a docstring over two
 * chunks everywhere. (A line break's own colour may differ: GtkSourceView
 * leaves the one before a line that goes on in a string as it was, and it
 * draws nothing.) */
static void
test_code_highlight_streaming (void)
{
  static const char *const codes[] = {
    "def greet(name):\n    \"\"\"Say hi,\n    twice.\"\"\"\n"
    "    for i in range(2):  # loop\n        print(f\"hi {name}\")\n"
    "    return None\nclass Greeter:\n    pass\n",
    "import os\nwhile True:\n    x = 'a # not a comment'  # but this is\n"
    "    if x is not None and x in (1, 2):\n        break\n    else:\n        continue\n"
    "s = \"\"\"\nmany\nlines\n\"\"\"\nlambda y: y\n",
  };
  static const gsize steps[] = { 1, 2, 3, 4, 5, 7 };
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  guint compared = 0;

  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));

  for (gsize c = 0; c < G_N_ELEMENTS (codes); c++)
    for (gsize s = 0; s < G_N_ELEMENTS (steps); s++)
      {
        const char *code = codes[c];
        GtkWidget *streamed = akc_code_block_new ("python");
        gsize length = strlen (code);

        gtk_box_append (GTK_BOX (box), streamed);
        akc_code_block_set_streaming (AKC_CODE_BLOCK (streamed), TRUE);

        for (gsize end = 1; end < length + steps[s]; end += steps[s])
          {
            g_autofree char *part = g_strndup (code, MIN (end, length));
            GtkWidget *fresh = akc_code_block_new ("python");
            GtkWidget *a, *b;
            PangoAttrList *attrs_a, *attrs_b;

            akc_code_block_set_code (AKC_CODE_BLOCK (streamed), part);
            gtk_box_append (GTK_BOX (box), fresh);
            akc_code_block_set_streaming (AKC_CODE_BLOCK (fresh), TRUE);
            akc_code_block_set_code (AKC_CODE_BLOCK (fresh), part);

            a = akc_code_block_get_chunk (AKC_CODE_BLOCK (streamed), 0);
            b = akc_code_block_get_chunk (AKC_CODE_BLOCK (fresh), 0);
            g_assert_true (akc_markdown_is_live (a));
            g_assert_true (akc_markdown_is_live (b));
            g_assert_cmpstr (akc_markdown_live_get_text (a), ==, part);
            attrs_a = akc_markdown_live_get_attributes (a);
            attrs_b = akc_markdown_live_get_attributes (b);
            g_assert_nonnull (attrs_b);
            if (!same_look (part, attrs_a, attrs_b))
              {
                g_autofree char *text_a = pango_attr_list_to_string (attrs_a);
                g_autofree char *text_b = pango_attr_list_to_string (attrs_b);

                g_test_message ("code %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT " a chunk, after %" G_GSIZE_FORMAT
                                " characters:\nstreamed %s\nat once %s", c, steps[s], end, text_a, text_b);
                g_assert_not_reached ();
              }
            compared++;
            gtk_box_remove (GTK_BOX (box), fresh);
          }
        gtk_box_remove (GTK_BOX (box), streamed);
      }
  g_assert_cmpuint (compared, >, 700);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The foreground colour of the attributes of @attrs over byte @index, as
 * 0xRRGGBB, or -1. */
static gint64
colour_at (PangoAttrList *attrs,
           guint          index)
{
  g_autoptr(GSList) list = attrs != NULL ? pango_attr_list_get_attributes (attrs) : NULL;
  gint64 colour = -1;

  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attr = l->data;

      if (attr->klass->type == PANGO_ATTR_FOREGROUND && attr->start_index <= index && index < attr->end_index)
        {
          PangoColor *c = &((PangoAttrColor *) attr)->color;

          colour = ((c->red >> 8) << 16) | ((c->green >> 8) << 8) | (c->blue >> 8);
        }
    }
  g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);

  return colour;
}

/* A keyword that arrives over two chunks is highlighted once it is whole,
 * on the line being written and once that line is done; a name that only
 * begins like one is not. */
static void
test_code_highlight_split_keyword (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *code = akc_code_block_new ("python");
  GtkWidget *chunk;
  gint64 keyword;

  gtk_window_set_child (GTK_WINDOW (window), code);
  gtk_window_present (GTK_WINDOW (window));
  akc_code_block_set_streaming (AKC_CODE_BLOCK (code), TRUE);

  akc_code_block_set_code (AKC_CODE_BLOCK (code), "x = 1\nwhi");
  chunk = akc_code_block_get_chunk (AKC_CODE_BLOCK (code), 0);
  g_assert_cmpint (colour_at (akc_markdown_live_get_attributes (chunk), 6), ==, -1);

  akc_code_block_set_code (AKC_CODE_BLOCK (code), "x = 1\nwhile x:");
  keyword = colour_at (akc_markdown_live_get_attributes (chunk), 6);
  g_assert_cmpint (keyword, >=, 0);
  g_assert_cmpint (colour_at (akc_markdown_live_get_attributes (chunk), 10), ==, keyword);
  /* Not the name after it. */
  g_assert_cmpint (colour_at (akc_markdown_live_get_attributes (chunk), 12), !=, keyword);

  /* The line done and the next begun: the keyword keeps its colour, and
   * a name that starts as one gets none. */
  akc_code_block_set_code (AKC_CODE_BLOCK (code), "x = 1\nwhile x:\n    whi");
  g_assert_cmpint (colour_at (akc_markdown_live_get_attributes (chunk), 6), ==, keyword);
  akc_code_block_set_code (AKC_CODE_BLOCK (code), "x = 1\nwhile x:\n    whiles = 2\n");
  g_assert_cmpint (colour_at (akc_markdown_live_get_attributes (chunk), 6), ==, keyword);
  g_assert_cmpint (colour_at (akc_markdown_live_get_attributes (chunk), 20), !=, keyword);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A long reply draws only the blocks in sight, and what comes into sight
 * is drawn: by scrolling, and when the rows above it grow. */
static void
test_draws_in_sight (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *above = gtk_label_new ("above");
  GtkWidget *view = akc_markdown_view_new ();
  GtkAdjustment *adjustment;
  guint n, last;

  for (guint i = 0; i < 60; i++)
    g_string_append_printf (text, "Paragraph %u of a long answer.\n\n", i);

  gtk_window_set_default_size (GTK_WINDOW (window), 400, 300);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_box_append (GTK_BOX (box), above);
  gtk_box_append (GTK_BOX (box), view);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text->str, text->len, TRUE);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 3);

  n = akc_markdown_view_get_n_blocks (AKC_MARKDOWN_VIEW (view));
  last = n - 1;
  g_assert_cmpuint (n, ==, 60);
  g_assert_true (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), 0));
  g_assert_false (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), last));

  /* Scrolled to the end: the end is drawn, the start is not. */
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  wait_frames (window, 3);
  g_assert_true (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), last));
  g_assert_false (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), 0));

  /* Back at the top; then what is above grows and pushes the view out of
   * sight, and shrinks again, the scroll position staying where it is:
   * the view is drawn as it is in sight each time. */
  gtk_adjustment_set_value (adjustment, 0);
  wait_frames (window, 3);
  g_assert_true (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), 0));
  {
    g_autoptr(GString) tall = g_string_new ("above");

    for (guint i = 0; i < 60; i++)
      g_string_append (tall, "\nline");
    gtk_label_set_text (GTK_LABEL (above), tall->str);
  }
  wait_frames (window, 3);
  g_assert_cmpint (gtk_widget_get_height (above), >, gtk_widget_get_height (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);
  g_assert_false (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), 0));
  gtk_label_set_text (GTK_LABEL (above), "above");
  wait_frames (window, 3);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);
  g_assert_true (akc_markdown_view_get_block_drawn (AKC_MARKDOWN_VIEW (view), 0));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Walks @node: every text, opacity, colour matrix and texture node of it
 * must be inside a clip node that clips nothing away (its rectangle holds
 * its child's bounds). Counts them in @n_parts. */
static void
assert_parts_clipped (GskRenderNode *node,
                      gboolean       clipped,
                      guint         *n_parts)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        assert_parts_clipped (gsk_container_node_get_child (node, i), clipped, n_parts);
      break;
    case GSK_TRANSFORM_NODE:
      assert_parts_clipped (gsk_transform_node_get_child (node), clipped, n_parts);
      break;
    case GSK_CLIP_NODE:
      {
        GskRenderNode *child = gsk_clip_node_get_child (node);
        graphene_rect_t bounds;

        gsk_render_node_get_bounds (child, &bounds);
        /* Nothing of the drawing is cut. */
        g_assert_true (graphene_rect_contains_rect (gsk_clip_node_get_clip (node), &bounds));
        assert_parts_clipped (child, TRUE, n_parts);
      }
      break;
    case GSK_ROUNDED_CLIP_NODE:
      assert_parts_clipped (gsk_rounded_clip_node_get_child (node), clipped, n_parts);
      break;
    case GSK_TEXT_NODE:
    case GSK_OPACITY_NODE:
    case GSK_COLOR_MATRIX_NODE:
    case GSK_TEXTURE_NODE:
      g_assert_true (clipped);
      (*n_parts)++;
      break;
    default:
      break;
    }
}

/* The drawing @widget's last frame made of it. */
static GskRenderNode *
last_drawing (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  return gtk_snapshot_free_to_node (snapshot);
}

/* GTK 4.8's cairo renderer walks every node of a frame, redrawn or not:
 * a message row draws each of its labels, dimmed labels, icons and
 * Markdown blocks (the lines finished of the one being written too) in a
 * clip of its own bounds, which clips nothing but lets cairo skip the
 * part whole when the frame redraws nothing of it. */
static void
test_row_parts_clipped (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *row = akc_message_row_new ();
  g_autoptr(AkcMessage) message = akc_message_new ("a", AKC_MESSAGE_ROLE_ASSISTANT,
                                                   "A **first** paragraph with `code` and [a link](https://example.com/).\n\n"
                                                   "- one\n- two\n\n"
                                                   "```c\nint x = 1;\nint y = 2;\n```\n\n"
                                                   "The last paragraph, still being written, is long enough to take "
                                                   "several lines at this width, so that some of its lines are finished",
                                                   AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(GskRenderNode) node = NULL;
  guint n_parts = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 300, 600);
  akc_message_row_set_message (AKC_MESSAGE_ROW (row), message);
  gtk_window_set_child (GTK_WINDOW (window), row);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 3);

  node = last_drawing (row);
  g_assert_nonnull (node);
  assert_parts_clipped (node, FALSE, &n_parts);
  /* The author, the menu's icon, and the text of the blocks. */
  g_assert_cmpuint (n_parts, >, 10);

  /* Written on: still so. */
  akc_message_append_content (message, " and more of it", -1);
  wait_frames (window, 3);
  g_clear_pointer (&node, gsk_render_node_unref);
  node = last_drawing (row);
  n_parts = 0;
  assert_parts_clipped (node, FALSE, &n_parts);
  g_assert_cmpuint (n_parts, >, 10);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* While a reply streams in, its view keeps room for a few more lines
 * below its text: a line written into the room changes neither the
 * view's height nor anything around it (the transcript is not drawn
 * again for a line). When the room is used up the view grows, with new
 * room; once the text is finished the room goes. */
static void
test_streaming_room (void)
{
  g_autoptr(GString) text = g_string_new ("A first paragraph.\n\nThe answer");
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *view = akc_markdown_view_new ();
  GtkWidget *label;
  int view_height, label_height, grown = 0, steps = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 300, 600);
  gtk_widget_set_valign (view, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), view);
  gtk_window_set_child (GTK_WINDOW (window), box);
  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text->str, text->len, TRUE);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 3);

  g_assert_cmpuint (akc_markdown_view_get_n_blocks (AKC_MARKDOWN_VIEW (view)), ==, 2);
  label = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 1);
  view_height = gtk_widget_get_height (view);
  label_height = gtk_widget_get_height (label);
  g_assert_cmpint (label_height, >, 0);

  /* Room below the text, and the text's lines written into it. */
  g_assert_cmpint (view_height, >, label_height * 3);
  while (grown < 2)
    {
      int before = gtk_widget_get_height (label);
      graphene_rect_t bounds;

      g_string_append (text, " goes on");
      akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text->str, text->len, TRUE);
      wait_frames (window, 2);
      g_assert_true (gtk_widget_compute_bounds (label, view, &bounds));
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (view) + 0.5);
      if (gtk_widget_get_height (label) > before)
        {
          if (gtk_widget_get_height (view) == view_height)
            grown++;
          else
            {
              /* The room was used up: new room. */
              g_assert_cmpint (gtk_widget_get_height (view), >, view_height);
              view_height = gtk_widget_get_height (view);
            }
        }
      g_assert_cmpint (++steps, <, 2000);
    }

  /* Finished: as tall as its blocks. */
  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text->str, text->len, FALSE);
  wait_frames (window, 3);
  label = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 1);
  {
    graphene_rect_t bounds;

    g_assert_true (gtk_widget_compute_bounds (label, view, &bounds));
    g_assert_cmpfloat (bounds.origin.y + bounds.size.height, ==, gtk_widget_get_height (view));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The block being written is as tall as its text after every chunk, at
 * every width: a chunk that leaves its size as it was only draws it
 * again, one that changes it lays it out again (compared with the same
 * text shown at once, in a view of the same width). In a scrolled
 * window, as in a transcript: the window does not ask the text's height
 * at other widths there. */
static void
test_streaming_live_height (void)
{
  static const int widths[] = { 420, 260, 420, 600 };
  g_autoptr(GString) text = g_string_new ("Intro.\n\nThe");
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *view = akc_markdown_view_new ();
  GtkWidget *fresh = NULL;
  guint steps = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), widths[0], 700);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_valign (view, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), view);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text->str, text->len, TRUE);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 3);

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), widths[w], 700);
      for (guint i = 0; i < 40; i++, steps++)
        {
          GtkWidget *live, *reference;

          /* Words, and now and then a long one. */
          g_string_append (text, i % 9 == 8 ? " abcdefghijklmnopqrstuvwxyz" : " word");
          akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (view), text->str, text->len, TRUE);
          if (fresh != NULL)
            gtk_box_remove (GTK_BOX (box), fresh);
          fresh = akc_markdown_view_new ();
          gtk_widget_set_valign (fresh, GTK_ALIGN_START);
          akc_markdown_view_set_text (AKC_MARKDOWN_VIEW (fresh), text->str, text->len, TRUE);
          gtk_box_append (GTK_BOX (box), fresh);
          wait_frames (window, 2);

          live = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (view), 1);
          reference = akc_markdown_view_get_block_widget (AKC_MARKDOWN_VIEW (fresh), 1);
          g_assert_true (akc_markdown_is_live (live));
          g_assert_cmpint (gtk_widget_get_width (live), ==, gtk_widget_get_width (reference));
          g_assert_cmpint (gtk_widget_get_height (live), ==, gtk_widget_get_height (reference));
        }
    }
  g_assert_cmpuint (steps, ==, 160);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Code written a line at a time, and then a big part at once, is as tall
 * while it is written as the same code shown at once: no empty line
 * between its lines (each line written used to be laid out with its line
 * break, which Pango draws as one more, empty, line). */
static void
test_streaming_code_height (void)
{
  g_autoptr(GString) code = g_string_new (NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *streamed = akc_code_block_new ("python");
  GtkWidget *fresh = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 500, 800);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_box_append (GTK_BOX (box), streamed);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  akc_code_block_set_streaming (AKC_CODE_BLOCK (streamed), TRUE);
  gtk_window_present (GTK_WINDOW (window));

  for (guint i = 0; i < 12; i++)
    {
      GtkWidget *live, *label;

      /* A line a step, then eight at once; the last one unfinished (19
       * lines in all, one chunk of the block). */
      if (i == 6)
        for (guint j = 0; j < 8; j++)
          g_string_append_printf (code, "jump_%u = compute(%u)  # all at once\n", j, j);
      else
        g_string_append_printf (code, "value_%u = compute(%u)  # step\n", i, i);
      g_string_append (code, "tail = ");
      akc_code_block_set_code (AKC_CODE_BLOCK (streamed), code->str);
      g_string_truncate (code, code->len - strlen ("tail = "));

      if (fresh != NULL)
        gtk_box_remove (GTK_BOX (box), fresh);
      fresh = akc_code_block_new ("python");
      {
        g_autofree char *shown = g_strconcat (code->str, "tail = ", NULL);

        akc_code_block_set_code (AKC_CODE_BLOCK (fresh), shown);
      }
      gtk_box_append (GTK_BOX (box), fresh);
      wait_frames (window, 2);

      g_assert_cmpuint (akc_code_block_get_n_chunks (AKC_CODE_BLOCK (streamed)), ==, 1);
      live = akc_code_block_get_chunk (AKC_CODE_BLOCK (streamed), 0);
      label = akc_code_block_get_chunk (AKC_CODE_BLOCK (fresh), 0);
      g_assert_true (akc_markdown_is_live (live));
      g_assert_true (GTK_IS_LABEL (label));
      g_assert_cmpint (gtk_widget_get_width (live), ==, gtk_widget_get_width (label));
      g_assert_cmpint (gtk_widget_get_height (live), ==, gtk_widget_get_height (label));
    }

  gtk_window_destroy (GTK_WINDOW (window));
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
  wait_for ((Condition) has_width, &wait);
  wait_frames (transcript->window, 3);
}

/* Every shown widget under @widget lies inside @row, and inside its own
 * parent; and is as tall as its content at its width. */
static void
assert_inside (GtkWidget *widget,
               GtkWidget *row)
{
  graphene_rect_t parent_bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, widget, &parent_bounds));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds, in_parent;
      int natural = 0;

      if (!gtk_widget_get_mapped (child) || !gtk_widget_compute_bounds (child, row, &bounds) ||
          !gtk_widget_compute_bounds (child, widget, &in_parent))
        continue;
      if (bounds.origin.y < -0.5 || bounds.origin.y + bounds.size.height > gtk_widget_get_height (row) + 0.5 ||
          bounds.origin.x < -0.5 || bounds.origin.x + bounds.size.width > gtk_widget_get_width (row) + 0.5)
        g_error ("%s at %.0f,%.0f %.0f×%.0f is outside its row (%d×%d)",
                 G_OBJECT_TYPE_NAME (child), bounds.origin.x, bounds.origin.y,
                 bounds.size.width, bounds.size.height,
                 gtk_widget_get_width (row), gtk_widget_get_height (row));
      if (in_parent.origin.y < parent_bounds.origin.y - 0.5 ||
          in_parent.origin.y + in_parent.size.height > parent_bounds.origin.y + parent_bounds.size.height + 0.5)
        g_error ("%s at y %.0f, %.0f tall, is outside its %s (y %.0f, %.0f tall)",
                 G_OBJECT_TYPE_NAME (child), in_parent.origin.y, in_parent.size.height,
                 G_OBJECT_TYPE_NAME (widget), parent_bounds.origin.y, parent_bounds.size.height);
      if (GTK_IS_LABEL (child))
        {
          gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, (int) in_parent.size.width, NULL, &natural, NULL, NULL);
          if (natural > in_parent.size.height + 0.5)
            g_error ("a label needs %d px at %.0f px but has %.0f: \"%s\"", natural, in_parent.size.width,
                     in_parent.size.height, gtk_label_get_text (GTK_LABEL (child)));
        }
      assert_inside (child, row);
    }
}

static int
compare_row_y (gconstpointer a,
               gconstpointer b,
               gpointer      view)
{
  graphene_rect_t ra, rb;

  g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (*(GtkWidget **) a), view, &ra));
  g_assert_true (gtk_widget_compute_bounds (gtk_widget_get_parent (*(GtkWidget **) b), view, &rb));
  return ra.origin.y < rb.origin.y ? -1 : ra.origin.y > rb.origin.y ? 1 : 0;
}

/* No two rows in sight overlap, the rows below the messages (the
 * response actions) included, every row is at least as tall as its
 * content wants at its width, and nothing is drawn outside it. The ids of
 * the messages of the rows checked are added to @seen. */
static void
assert_rows_in_sight_fit (Transcript *transcript,
                          GHashTable *seen)
{
  GtkWidget *list = find_by_type (transcript->view, GTK_TYPE_LIST_VIEW);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  double previous_end = -G_MAXDOUBLE;
  guint n_messages = 0;

  g_assert_nonnull (list);
  for (GtkWidget *item = gtk_widget_get_first_child (list); item != NULL; item = gtk_widget_get_next_sibling (item))
    if (gtk_widget_get_mapped (item) && gtk_widget_get_first_child (item) != NULL)
      g_ptr_array_add (rows, gtk_widget_get_first_child (item));
  g_assert_cmpuint (rows->len, >, 0);
  /* From the top down, as the list placed them. */
  g_ptr_array_sort_with_data (rows, compare_row_y, transcript->view);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);
      GtkWidget *item = gtk_widget_get_parent (row);   /* the list's row */
      AkcMessage *message = AKC_IS_MESSAGE_ROW (row) ? akc_message_row_get_message (AKC_MESSAGE_ROW (row)) : NULL;
      const char *id = message != NULL ? akc_message_get_id (message) : G_OBJECT_TYPE_NAME (row);
      graphene_rect_t bounds;
      int natural = 0;

      g_assert_true (gtk_widget_compute_bounds (item, transcript->view, &bounds));
      g_test_message ("%s: y %.0f, height %.0f, width %.0f", id,
                      bounds.origin.y, bounds.size.height, bounds.size.width);
      if (bounds.origin.y < previous_end - 0.5)
        g_error ("%s at y %.0f overlaps the row above it, which ends at %.0f", id, bounds.origin.y, previous_end);
      previous_end = bounds.origin.y + bounds.size.height;

      /* The row as a whole, and its own content, at the width it has. */
      gtk_widget_measure (item, GTK_ORIENTATION_VERTICAL, (int) bounds.size.width, NULL, &natural, NULL, NULL);
      if (natural > bounds.size.height + 0.5)
        g_error ("%s needs %d px at %.0f px but has %.0f", id, natural, bounds.size.width, bounds.size.height);
      for (GtkWidget *child = gtk_widget_get_first_child (row); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        {
          gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (row), NULL, &natural, NULL, NULL);
          g_assert_cmpint (natural, <=, gtk_widget_get_height (row));
        }
      assert_inside (row, row);
      g_hash_table_add (seen, g_strdup (id));
      if (message != NULL)
        n_messages++;
    }
  g_assert_cmpuint (n_messages, >, 0);
}

/* Checks every row, scrolling through the transcript from the top. */
static void
assert_rows_fit (Transcript *transcript,
                 guint       n_messages)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (transcript->view));
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  double value = 0;

  for (;;)
    {
      gtk_adjustment_set_value (adjustment, value);
      wait_frames (transcript->window, 2);
      assert_rows_in_sight_fit (transcript, seen);
      if (value >= gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment))
        break;
      value = MIN (value + gtk_adjustment_get_page_size (adjustment) / 2,
                   gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
    }

  /* Every message, and the response actions under the last one. */
  g_assert_true (g_hash_table_contains (seen, "AkcResponseActions"));
  g_assert_cmpuint (g_hash_table_size (seen), ==, n_messages + 1);
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
    "A table?", table_markdown, "A wide one?",
    "| Column one | Column two | Column three | Column four |\n|---|---|---|---|\n"
    "| a long cell that has to wrap somewhere | b | abcdefghijklmnopqrstuvwxyzabcdefghij | d |\n",
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
  g_test_add_func ("/markdown/table/parse", test_table_parse);
  g_test_add_func ("/markdown/table/widget", test_table_widget);
  g_test_add_func ("/markdown/inline-code", test_inline_code);
  g_test_add_func ("/markdown/user-markdown", test_user_markdown);
  g_test_add_func ("/markdown/code-highlight", test_code_highlight);
  g_test_add_func ("/markdown/code-min-width", test_code_min_width);
  g_test_add_func ("/markdown/code-highlight/streaming", test_code_highlight_streaming);
  g_test_add_func ("/markdown/code-highlight/split-keyword", test_code_highlight_split_keyword);
  g_test_add_func ("/markdown/layout/rows-fit", test_layout_rows_fit);
  g_test_add_func ("/markdown/draws-in-sight", test_draws_in_sight);
  g_test_add_func ("/markdown/row-parts-clipped", test_row_parts_clipped);
  g_test_add_func ("/markdown/streaming-room", test_streaming_room);
  g_test_add_func ("/markdown/streaming-live-height", test_streaming_live_height);
  g_test_add_func ("/markdown/streaming-code-height", test_streaming_code_height);

  return g_test_run ();
}

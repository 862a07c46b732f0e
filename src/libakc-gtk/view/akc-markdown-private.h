/* akc-markdown-private.h: Markdown of assistant text, as blocks to draw
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The markup around inline code: monospace on a grey tint behind it, which
 * reads on light and dark backgrounds alike. */
#define AKC_MARKDOWN_CODE_SPAN_OPEN "<span font_family=\"monospace\" bgcolor=\"#808080\" bgalpha=\"22%\">"
#define AKC_MARKDOWN_CODE_SPAN_CLOSE "</span>"

/**
 * AkcMarkdownBlockKind:
 * @AKC_MARKDOWN_PARAGRAPH: a paragraph, or the text of a tight list item
 * @AKC_MARKDOWN_HEADING: a heading of `level` 1–6
 * @AKC_MARKDOWN_CODE: a code block: `text` is the code, verbatim
 * @AKC_MARKDOWN_RULE: a thematic break
 * @AKC_MARKDOWN_GFM_TABLE: a GFM table: `cells`, `n_columns` wide, the first
 *   row its header
 *
 * What one block of rendered Markdown is.
 */
typedef enum {
  AKC_MARKDOWN_PARAGRAPH,
  AKC_MARKDOWN_HEADING,
  AKC_MARKDOWN_CODE,
  AKC_MARKDOWN_RULE,
  AKC_MARKDOWN_GFM_TABLE,
} AkcMarkdownBlockKind;

typedef enum {
  AKC_MARKDOWN_ALIGN_DEFAULT,
  AKC_MARKDOWN_ALIGN_LEFT,
  AKC_MARKDOWN_ALIGN_CENTER,
  AKC_MARKDOWN_ALIGN_RIGHT,
} AkcMarkdownAlign;

/* One cell of a table. */
typedef struct {
  guint             row;        /* 0 is the header row */
  guint             column;
  gboolean          header;
  AkcMarkdownAlign  align;
  char             *markup;     /* Pango markup, every text span escaped */
  char             *text;       /* the text without markup */
} AkcMarkdownCell;

/* One block: a label, a code block, a table or a rule. Lists and block quotes are
 * not blocks of their own; they are the depths and markers of the blocks
 * inside them, so every block is one flat widget. */
typedef struct {
  AkcMarkdownBlockKind  kind;
  guint                 level;        /* heading level */
  guint                 list_depth;   /* lists around the block */
  guint                 quote_depth;  /* block quotes around the block */
  char                 *marker;       /* "•", "3." or "☐": first block of a list item */
  char                 *language;     /* code: first word of the info string */
  char                 *markup;       /* paragraph, heading: Pango markup, every text span escaped */
  char                 *text;         /* the text without markup; the code of a code block */
  guint                 n_links;      /* links in the markup: http(s) URLs only */
  guint                 n_columns;    /* table */
  guint                 n_rows;       /* table, the header row included */
  GPtrArray            *cells;        /* table: AkcMarkdownCell, row by row */
} AkcMarkdownBlock;

void       akc_markdown_block_free       (AkcMarkdownBlock       *block);
gboolean   akc_markdown_block_same_shape (const AkcMarkdownBlock *a,
                                          const AkcMarkdownBlock *b);
gboolean   akc_markdown_block_equal      (const AkcMarkdownBlock *a,
                                          const AkcMarkdownBlock *b);

GPtrArray *akc_markdown_parse            (const char             *text,
                                          gsize                   length);
char      *akc_markdown_to_plain_text    (const char             *text,
                                          gsize                   length);
gsize      akc_markdown_find_stable_end  (const char             *text,
                                          gsize                   start,
                                          gsize                   length,
                                          gsize                   max_tail);

gboolean   akc_markdown_uri_is_safe      (const char             *uri);
void       akc_markdown_label_limit_min_width (GtkLabel          *label,
                                               const char        *text,
                                               gboolean           monospace);
char      *akc_display_text              (const char             *text,
                                          gssize                  length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcMarkdownBlock, akc_markdown_block_free)

G_END_DECLS

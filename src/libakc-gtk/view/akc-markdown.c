/* akc-markdown.c: Markdown of assistant text, parsed with md4c into blocks
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <md4c.h>

#include <akc.h>

#include "akc-markdown-private.h"

/* Model text is never Pango markup. Every span of it goes through
 * g_markup_escape_text(); the only tags in a block's markup are the ones
 * written here, for the Markdown structure. A link is live only when its
 * target is a SafeHref (application §0.5) that is an absolute http(s)
 * URL: no credentials (`https://user:pw@host/`, `[x](http://a\@b)`), no
 * backslash or control character, nothing relative (there is no base on
 * the desktop, §14 B2); anything else is shown as plain text. A link whose
 * text is itself a URL or a host name for somewhere else is followed by the
 * host it really leads to. Raw HTML is not Markdown here (MD_FLAG_NOHTML):
 * `<b>` is four characters. */
#define PARSER_FLAGS (MD_FLAG_NOHTML | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | \
                      MD_FLAG_PERMISSIVEURLAUTOLINKS | MD_FLAG_TABLES)


/* Bullets by list depth. */
static const char * const bullets[] = { "•", "◦", "▪" };

typedef struct {
  gboolean ordered;
  guint    next;
  char     delimiter;
} ListState;

/* An MD_SPAN_A being written. */
typedef struct {
  gboolean  opened;      /* whether it opened an <a> */
  gsize     text_start;  /* where its text starts in the block's text */
  char     *host;        /* the host it leads to, when opened */
} LinkState;

typedef struct {
  GPtrArray        *blocks;
  GArray           *lists;         /* ListState */
  guint             quote_depth;

  /* The block being written, if any. */
  AkcMarkdownBlock *block;
  GString          *markup;
  GString          *text;
  char             *pending_marker;
  gboolean          in_code_block;
  gboolean          in_table;
  guint             table_row;     /* the row being written, 0 the header */
  guint             table_column;
  GString          *table_text;    /* the table's text: tab-separated cells, a row a line */
  GString          *table_markup;  /* every cell's markup, to compare tables */
  guint             link_depth;    /* open <a> we wrote */
  GArray           *link_stack;    /* LinkState */
} Parser;

static void
cell_free (AkcMarkdownCell *cell)
{
  g_free (cell->markup);
  g_free (cell->text);
  g_free (cell);
}

void
akc_markdown_block_free (AkcMarkdownBlock *block)
{
  if (block == NULL)
    return;

  g_clear_pointer (&block->cells, g_ptr_array_unref);
  g_free (block->marker);
  g_free (block->language);
  g_free (block->markup);
  g_free (block->text);
  g_free (block);
}

/* Whether @b can be shown by the widget made for @a, after a text update. */
gboolean
akc_markdown_block_same_shape (const AkcMarkdownBlock *a,
                               const AkcMarkdownBlock *b)
{
  return a->kind == b->kind &&
         a->level == b->level &&
         a->n_columns == b->n_columns &&
         a->list_depth == b->list_depth &&
         a->quote_depth == b->quote_depth &&
         g_strcmp0 (a->marker, b->marker) == 0 &&
         g_strcmp0 (a->language, b->language) == 0;
}

gboolean
akc_markdown_block_equal (const AkcMarkdownBlock *a,
                          const AkcMarkdownBlock *b)
{
  return akc_markdown_block_same_shape (a, b) &&
         g_strcmp0 (a->markup, b->markup) == 0 &&
         g_strcmp0 (a->text, b->text) == 0;
}

/* Text from the model: valid UTF-8, escaped for markup. */
static void
append_escaped (GString    *string,
                const char *text,
                gsize       length)
{
  g_autofree char *valid = NULL;
  g_autofree char *escaped = NULL;

  if (length == 0)
    return;

  if (!g_utf8_validate_len (text, length, NULL))
    {
      valid = g_utf8_make_valid (text, (gssize) length);
      text = valid;
      length = strlen (valid);
    }

  escaped = g_markup_escape_text (text, (gssize) length);
  g_string_append (string, escaped);
}

static void
append_valid (GString    *string,
              const char *text,
              gsize       length)
{
  if (g_utf8_validate_len (text, length, NULL))
    {
      g_string_append_len (string, text, (gssize) length);
    }
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, (gssize) length);

      g_string_append (string, valid);
    }
}

static void
append_text (Parser     *parser,
             const char *text,
             gsize       length)
{
  append_escaped (parser->markup, text, length);
  append_valid (parser->text, text, length);
}

/* The character of an entity (`&amp;`, `&#38;`, `&#x26;`), or 0 when it is
 * not one we know: it is shown as written then. */
static gunichar
decode_entity (const char *text,
               gsize       length)
{
  static const struct { const char *name; gunichar c; } named[] = {
    { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
    { "&apos;", '\'' }, { "&nbsp;", 0xA0 }, { "&copy;", 0xA9 }, { "&reg;", 0xAE },
    { "&hellip;", 0x2026 }, { "&mdash;", 0x2014 }, { "&ndash;", 0x2013 },
    { "&laquo;", 0xAB }, { "&raquo;", 0xBB }, { "&euro;", 0x20AC },
  };
  g_autofree char *entity = g_strndup (text, length);
  guint64 value;
  char *end = NULL;

  if (length >= 4 && entity[1] == '#')
    {
      if (entity[2] == 'x' || entity[2] == 'X')
        value = g_ascii_strtoull (entity + 3, &end, 16);
      else
        value = g_ascii_strtoull (entity + 2, &end, 10);

      if (end == NULL || *end != ';')
        return 0;
      /* CommonMark: invalid code points become U+FFFD. */
      if (value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return 0xFFFD;
      return (gunichar) value;
    }

  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    if (strcmp (entity, named[i].name) == 0)
      return named[i].c;

  return 0;
}

static void
append_entity (Parser     *parser,
               const char *text,
               gsize       length)
{
  gunichar c = decode_entity (text, length);
  char utf8[8];
  gsize n;

  if (c == 0)
    {
      append_text (parser, text, length);
      return;
    }

  n = (gsize) g_unichar_to_utf8 (c, utf8);
  append_text (parser, utf8, n);
}

/* An MD_ATTRIBUTE as a string, with its entities decoded. */
static char *
attribute_to_string (const MD_ATTRIBUTE *attribute)
{
  GString *string = g_string_new (NULL);

  if (attribute->text == NULL)
    return g_string_free (string, FALSE);

  for (guint i = 0; attribute->substr_offsets[i] < attribute->size; i++)
    {
      const char *part = attribute->text + attribute->substr_offsets[i];
      gsize length = attribute->substr_offsets[i + 1] - attribute->substr_offsets[i];

      switch (attribute->substr_types[i])
        {
        case MD_TEXT_ENTITY:
          {
            gunichar c = decode_entity (part, length);

            if (c != 0)
              g_string_append_unichar (string, c);
            else
              g_string_append_len (string, part, (gssize) length);
          }
          break;
        case MD_TEXT_NULLCHAR:
          g_string_append_unichar (string, 0xFFFD);
          break;
        case MD_TEXT_NORMAL:
        case MD_TEXT_BR:
        case MD_TEXT_SOFTBR:
        case MD_TEXT_CODE:
        case MD_TEXT_HTML:
        case MD_TEXT_LATEXMATH:
        default:
          g_string_append_len (string, part, (gssize) length);
          break;
        }
    }

  return g_string_free (string, FALSE);
}

/**
 * akc_markdown_uri_is_safe:
 * @uri: a link target from model text
 *
 * Only a SafeHref ([application §0.5](../Akc-1/wire-formats.html#application-0)) that is an absolute http or https
 * URL is a link: no credentials, no backslash or control character, a
 * host the WHATWG URL parser accepts. Everything else (`javascript:`,
 * `file:`, relative paths, which have no base here, custom schemes) is
 * text.
 *
 * Returns: whether @uri may be opened
 */
gboolean
akc_markdown_uri_is_safe (const char *uri)
{
  g_autofree char *host = NULL;

  if (uri == NULL)
    return FALSE;

  host = akc_safe_href_dup_host (uri);
  return host != NULL;
}

static gboolean
is_scheme_prefixed (const char *text)
{
  gsize i = 0;

  if (!g_ascii_isalpha (text[0]))
    return FALSE;
  for (i = 1; g_ascii_isalnum (text[i]) || text[i] == '+' || text[i] == '.' || text[i] == '-'; i++)
    ;
  return text[i] == ':';
}

/* When the text of a link reads as an address (`https://bank.example/`,
 * `bank.example`, `www.bank.example/login`), whether it names another
 * place than @host, the host the link leads to. Text that is not an
 * address (`the docs`) says nothing about where it goes. */
static gboolean
text_names_other_host (const char *text,
                       gsize       length,
                       const char *host)
{
  g_autofree char *trimmed = g_strstrip (g_strndup (text, length));
  g_autofree char *text_host = NULL;
  const char *p;
  gboolean has_dot = FALSE;

  if (*trimmed == '\0')
    return FALSE;

  for (p = trimmed; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isspace (g_utf8_get_char (p)))
      return FALSE;  /* words, not an address */

  if (is_scheme_prefixed (trimmed))
    {
      /* Any scheme: the text claims to be a link of its own. */
      text_host = akc_safe_href_dup_host (trimmed);
      return text_host == NULL || g_strcmp0 (text_host, host) != 0;
    }

  /* A host name, perhaps with a path: a label, a dot, a label, before
   * any '/', '?' or '#'. */
  for (p = trimmed; *p != '\0' && *p != '/' && *p != '?' && *p != '#'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* '@' and ':' as in user@host and host:port still make an address. */
      if (c == '.')
        has_dot = TRUE;
      else if (!g_unichar_isalnum (c) && c != '-' && c != '_' && c != '@' && c != ':')
        return FALSE;
    }
  if (!has_dot || p == trimmed || trimmed[0] == '.' || *(g_utf8_prev_char (p)) == '.')
    return FALSE;

  {
    g_autofree char *as_url = g_strconcat ("http://", trimmed, NULL);

    text_host = akc_safe_href_dup_host (as_url);
  }
  /* Text that is no host at all (`v1.2`) names no place. */
  return text_host != NULL && g_strcmp0 (text_host, host) != 0;
}

static void
open_block (Parser               *parser,
            AkcMarkdownBlockKind  kind)
{
  g_assert (parser->block == NULL);

  parser->block = g_new0 (AkcMarkdownBlock, 1);
  parser->block->kind = kind;
  parser->block->list_depth = parser->lists->len;
  parser->block->quote_depth = parser->quote_depth;
  parser->block->marker = g_steal_pointer (&parser->pending_marker);
  g_string_truncate (parser->markup, 0);
  g_string_truncate (parser->text, 0);
}

static void
close_block (Parser *parser)
{
  AkcMarkdownBlock *block = g_steal_pointer (&parser->block);

  if (block == NULL)
    return;

  /* Unbalanced links cannot happen with md4c, but a block must never end
   * with an open tag. */
  while (parser->link_depth > 0)
    {
      g_string_append (parser->markup, "</a>");
      parser->link_depth--;
    }

  if (block->kind == AKC_MARKDOWN_CODE)
    {
      /* Code ends with the newline of its last line. */
      if (parser->text->len > 0 && parser->text->str[parser->text->len - 1] == '\n')
        g_string_truncate (parser->text, parser->text->len - 1);
    }
  else if (block->kind == AKC_MARKDOWN_GFM_TABLE)
    {
      block->markup = g_strdup (parser->table_markup->str);
      block->text = g_strdup (parser->table_text->str);
      g_ptr_array_add (parser->blocks, block);
      return;
    }
  else if (block->kind != AKC_MARKDOWN_RULE)
    {
      block->markup = g_strdup (parser->markup->str);
    }

  block->text = g_strdup (parser->text->str);
  g_ptr_array_add (parser->blocks, block);
}

static void
open_text_block_if_needed (Parser *parser)
{
  /* Tight list items have their text straight in the item. */
  if (parser->block == NULL)
    open_block (parser, AKC_MARKDOWN_PARAGRAPH);
}

static int
enter_block (MD_BLOCKTYPE  type,
             void         *detail,
             void         *user_data)
{
  Parser *parser = user_data;
  ListState list = { 0, };

  switch (type)
    {
    case MD_BLOCK_DOC:
      break;

    case MD_BLOCK_QUOTE:
      close_block (parser);
      parser->quote_depth++;
      break;

    case MD_BLOCK_UL:
      close_block (parser);
      list.ordered = FALSE;
      g_array_append_val (parser->lists, list);
      break;

    case MD_BLOCK_OL:
      close_block (parser);
      list.ordered = TRUE;
      list.next = ((MD_BLOCK_OL_DETAIL *) detail)->start;
      list.delimiter = ((MD_BLOCK_OL_DETAIL *) detail)->mark_delimiter;
      g_array_append_val (parser->lists, list);
      break;

    case MD_BLOCK_LI:
      {
        MD_BLOCK_LI_DETAIL *li = detail;
        ListState *state;

        close_block (parser);
        g_clear_pointer (&parser->pending_marker, g_free);
        if (parser->lists->len == 0)
          break;

        state = &g_array_index (parser->lists, ListState, parser->lists->len - 1);
        if (li->is_task)
          parser->pending_marker = g_strdup (li->task_mark == ' ' ? "☐" : "☑");
        else if (state->ordered)
          parser->pending_marker = g_strdup_printf ("%u%c", state->next++, state->delimiter);
        else
          parser->pending_marker = g_strdup (bullets[(parser->lists->len - 1) % G_N_ELEMENTS (bullets)]);
      }
      break;

    case MD_BLOCK_HR:
      close_block (parser);
      open_block (parser, AKC_MARKDOWN_RULE);
      close_block (parser);
      break;

    case MD_BLOCK_H:
      close_block (parser);
      open_block (parser, AKC_MARKDOWN_HEADING);
      parser->block->level = CLAMP (((MD_BLOCK_H_DETAIL *) detail)->level, 1, 6);
      break;

    case MD_BLOCK_CODE:
      {
        MD_BLOCK_CODE_DETAIL *code = detail;
        g_autofree char *language = attribute_to_string (&code->lang);

        close_block (parser);
        open_block (parser, AKC_MARKDOWN_CODE);
        if (language != NULL && *language != '\0' && g_utf8_validate (language, -1, NULL))
          parser->block->language = g_steal_pointer (&language);
        parser->in_code_block = TRUE;
      }
      break;

    case MD_BLOCK_P:
    case MD_BLOCK_HTML:
      close_block (parser);
      open_block (parser, AKC_MARKDOWN_PARAGRAPH);
      break;

    case MD_BLOCK_TABLE:
      close_block (parser);
      open_block (parser, AKC_MARKDOWN_GFM_TABLE);
      parser->block->n_columns = MAX (((MD_BLOCK_TABLE_DETAIL *) detail)->col_count, 1);
      parser->block->cells = g_ptr_array_new_with_free_func ((GDestroyNotify) cell_free);
      parser->in_table = TRUE;
      parser->table_row = 0;
      g_string_truncate (parser->table_text, 0);
      g_string_truncate (parser->table_markup, 0);
      break;

    case MD_BLOCK_TR:
      parser->table_column = 0;
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      /* A cell is written like a block of its own. */
      g_string_truncate (parser->markup, 0);
      g_string_truncate (parser->text, 0);
      break;

    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
    default:
      break;
    }

  return 0;
}

static int
leave_block (MD_BLOCKTYPE  type,
             void         *detail,
             void         *user_data)
{
  Parser *parser = user_data;

  switch (type)
    {
    case MD_BLOCK_QUOTE:
      close_block (parser);
      parser->quote_depth--;
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      close_block (parser);
      if (parser->lists->len > 0)
        g_array_set_size (parser->lists, parser->lists->len - 1);
      break;

    case MD_BLOCK_LI:
      close_block (parser);
      /* An empty item still shows its marker. */
      if (parser->pending_marker != NULL)
        {
          open_block (parser, AKC_MARKDOWN_PARAGRAPH);
          close_block (parser);
        }
      break;

    case MD_BLOCK_CODE:
      close_block (parser);
      parser->in_code_block = FALSE;
      break;

    case MD_BLOCK_H:
    case MD_BLOCK_P:
    case MD_BLOCK_HTML:
      close_block (parser);
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (parser->in_table && parser->block != NULL && parser->block->kind == AKC_MARKDOWN_GFM_TABLE)
        {
          AkcMarkdownCell *cell = g_new0 (AkcMarkdownCell, 1);

          while (parser->link_depth > 0)
            {
              g_string_append (parser->markup, "</a>");
              parser->link_depth--;
            }
          cell->row = parser->table_row;
          cell->column = parser->table_column++;
          cell->header = type == MD_BLOCK_TH;
          cell->align = (AkcMarkdownAlign) ((MD_BLOCK_TD_DETAIL *) detail)->align;
          cell->markup = g_strdup (parser->markup->str);
          cell->text = g_strdup (parser->text->str);
          g_ptr_array_add (parser->block->cells, cell);

          if (cell->column > 0)
            g_string_append_c (parser->table_text, '\t');
          g_string_append (parser->table_text, cell->text);
          g_string_append (parser->table_markup, cell->markup);
          g_string_append_c (parser->table_markup, '\t');
        }
      break;

    case MD_BLOCK_TR:
      if (parser->in_table && parser->block != NULL && parser->block->kind == AKC_MARKDOWN_GFM_TABLE)
        {
          parser->block->n_rows = ++parser->table_row;
          g_string_append_c (parser->table_text, '\n');
          g_string_append_c (parser->table_markup, '\n');
        }
      break;

    case MD_BLOCK_TABLE:
      if (parser->table_text->len > 0 && parser->table_text->str[parser->table_text->len - 1] == '\n')
        g_string_truncate (parser->table_text, parser->table_text->len - 1);
      close_block (parser);
      parser->in_table = FALSE;
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_HR:
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
    default:
      break;
    }

  return 0;
}

static int
enter_span (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  Parser *parser = user_data;

  open_text_block_if_needed (parser);

  switch (type)
    {
    case MD_SPAN_EM:
      g_string_append (parser->markup, "<i>");
      break;
    case MD_SPAN_STRONG:
      g_string_append (parser->markup, "<b>");
      break;
    case MD_SPAN_DEL:
      g_string_append (parser->markup, "<s>");
      break;
    case MD_SPAN_U:
      g_string_append (parser->markup, "<u>");
      break;
    case MD_SPAN_CODE:
      g_string_append (parser->markup, AKC_MARKDOWN_CODE_SPAN_OPEN);
      break;
    case MD_SPAN_IMG:
      /* No image is fetched: its description is shown. */
      g_string_append (parser->markup, "<i>");
      break;
    case MD_SPAN_A:
      {
        g_autofree char *href = attribute_to_string (&((MD_SPAN_A_DETAIL *) detail)->href);
        LinkState link = { FALSE, parser->text->len, NULL };

        /* No link inside a link: Pango cannot nest them. */
        if (parser->link_depth == 0)
          link.host = akc_safe_href_dup_host (href);

        if (link.host != NULL)
          {
            g_autofree char *escaped = g_markup_escape_text (href, -1);

            /* The title is the target, so where a link goes is visible
             * before it is followed. */
            g_string_append_printf (parser->markup, "<a href=\"%s\" title=\"%s\">", escaped, escaped);
            parser->link_depth++;
            parser->block->n_links++;
            link.opened = TRUE;
          }
        g_array_append_val (parser->link_stack, link);
      }
      break;
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      break;
    }

  return 0;
}

static int
leave_span (MD_SPANTYPE  type,
            void        *detail,
            void        *user_data)
{
  Parser *parser = user_data;

  switch (type)
    {
    case MD_SPAN_EM:
    case MD_SPAN_IMG:
      g_string_append (parser->markup, "</i>");
      break;
    case MD_SPAN_STRONG:
      g_string_append (parser->markup, "</b>");
      break;
    case MD_SPAN_DEL:
      g_string_append (parser->markup, "</s>");
      break;
    case MD_SPAN_U:
      g_string_append (parser->markup, "</u>");
      break;
    case MD_SPAN_CODE:
      g_string_append (parser->markup, AKC_MARKDOWN_CODE_SPAN_CLOSE);
      break;
    case MD_SPAN_A:
      if (parser->link_stack->len > 0)
        {
          LinkState link = g_array_index (parser->link_stack, LinkState, parser->link_stack->len - 1);

          g_array_set_size (parser->link_stack, parser->link_stack->len - 1);
          if (link.opened && parser->link_depth > 0)
            {
              g_string_append (parser->markup, "</a>");
              parser->link_depth--;

              /* [https://bank.example](https://elsewhere.example): say
               * where it goes, in the text and for screen readers. */
              if (text_names_other_host (parser->text->str + link.text_start,
                                         parser->text->len - link.text_start,
                                         link.host))
                {
                  g_autofree char *escaped = g_markup_escape_text (link.host, -1);

                  g_string_append_printf (parser->markup,
                                          "<span size=\"small\" fgalpha=\"70%%\"> (%s)</span>",
                                          escaped);
                  g_string_append_printf (parser->text, " (%s)", link.host);
                }
            }
          g_free (link.host);
        }
      break;
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
    default:
      break;
    }

  return 0;
}

static int
text_callback (MD_TEXTTYPE  type,
               const char  *text,
               MD_SIZE      size,
               void        *user_data)
{
  Parser *parser = user_data;

  open_text_block_if_needed (parser);

  if (parser->in_code_block)
    {
      /* Verbatim; NUL becomes U+FFFD like everywhere else. */
      if (type == MD_TEXT_NULLCHAR)
        g_string_append (parser->text, "\xEF\xBF\xBD");
      else
        append_valid (parser->text, text, size);
      return 0;
    }

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      append_text (parser, "\xEF\xBF\xBD", 3);
      break;
    case MD_TEXT_BR:
    case MD_TEXT_SOFTBR:
      /* Chat text means its line breaks: keep them. */
      append_text (parser, "\n", 1);
      break;
    case MD_TEXT_ENTITY:
      append_entity (parser, text, size);
      break;
    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      append_text (parser, text, size);
      break;
    }

  return 0;
}

/**
 * akc_markdown_parse:
 * @text: (array length=length): Markdown, as an assistant wrote it; may
 *   hold U+0000 and invalid UTF-8
 * @length: its length in bytes
 *
 * Parses Markdown (CommonMark with strikethrough, task lists and URL
 * autolinks; no raw HTML) into flat blocks.
 *
 * Returns: (transfer full) (element-type AkcMarkdownBlock): the blocks
 */
GPtrArray *
akc_markdown_parse (const char *text,
                    gsize       length)
{
  MD_PARSER md = {
    .abi_version = 0,
    .flags = PARSER_FLAGS,
    .enter_block = enter_block,
    .leave_block = leave_block,
    .enter_span = enter_span,
    .leave_span = leave_span,
    .text = text_callback,
  };
  Parser parser = { 0, };

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  parser.blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_markdown_block_free);
  parser.lists = g_array_new (FALSE, FALSE, sizeof (ListState));
  parser.link_stack = g_array_new (FALSE, FALSE, sizeof (LinkState));
  parser.markup = g_string_new (NULL);
  parser.text = g_string_new (NULL);
  parser.table_text = g_string_new (NULL);
  parser.table_markup = g_string_new (NULL);

  if (length > 0 && md_parse (text, (MD_SIZE) MIN (length, G_MAXUINT32), &md, &parser) != 0)
    {
      /* Out of memory inside md4c: show what was parsed, and the rest as
       * text rather than nothing. */
      close_block (&parser);
      open_block (&parser, AKC_MARKDOWN_PARAGRAPH);
      append_text (&parser, text, length);
    }
  close_block (&parser);

  g_clear_pointer (&parser.pending_marker, g_free);
  g_array_unref (parser.lists);
  for (guint i = 0; i < parser.link_stack->len; i++)
    g_free (g_array_index (parser.link_stack, LinkState, i).host);
  g_array_unref (parser.link_stack);
  g_string_free (parser.markup, TRUE);
  g_string_free (parser.text, TRUE);
  g_string_free (parser.table_text, TRUE);
  g_string_free (parser.table_markup, TRUE);

  return parser.blocks;
}

/**
 * akc_markdown_to_plain_text:
 * @text: (array length=length): Markdown
 * @length: its length in bytes
 *
 * The text of Markdown without its markup, one block a line: what a screen
 * reader announces.
 *
 * Returns: (transfer full): the plain text
 */
char *
akc_markdown_to_plain_text (const char *text,
                            gsize       length)
{
  g_autoptr(GPtrArray) blocks = akc_markdown_parse (text, length);
  GString *plain = g_string_new (NULL);

  for (guint i = 0; i < blocks->len; i++)
    {
      AkcMarkdownBlock *block = g_ptr_array_index (blocks, i);

      if (block->kind == AKC_MARKDOWN_RULE)
        continue;
      if (plain->len > 0)
        g_string_append_c (plain, '\n');
      if (block->marker != NULL)
        g_string_append_printf (plain, "%s ", block->marker);
      g_string_append (plain, block->text);
    }

  return g_string_free (plain, FALSE);
}

/* A code fence line (``` or ~~~, three or more), after any indentation
 * and block quote markers. */
static gboolean
is_fence (const char *line,
          gsize       length,
          char       *fence_char,
          gsize      *fence_length,
          gboolean    closing)
{
  gsize i = 0, n = 0;
  char c;

  while (i < length && (line[i] == ' ' || line[i] == '\t' || line[i] == '>'))
    i++;
  if (i >= length)
    return FALSE;

  c = line[i];
  if (c != '`' && c != '~')
    return FALSE;
  if (closing && c != *fence_char)
    return FALSE;

  while (i + n < length && line[i + n] == c)
    n++;
  if (n < 3)
    return FALSE;

  if (closing)
    {
      if (n < *fence_length)
        return FALSE;
      /* Only white space may follow a closing fence. */
      for (gsize j = i + n; j < length; j++)
        if (line[j] != ' ' && line[j] != '\t' && line[j] != '\r')
          return FALSE;
      return TRUE;
    }

  /* A backtick fence's info string has no backtick. */
  if (c == '`' && memchr (line + i + n, '`', length - i - n) != NULL)
    return FALSE;

  *fence_char = c;
  *fence_length = n;
  return TRUE;
}

static gboolean
is_blank (const char *line,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      return FALSE;
  return TRUE;
}

/**
 * akc_markdown_find_stable_end:
 * @text: (array length=length): Markdown that is still being written
 * @start: where the part still open begins
 * @length: the length of @text
 * @max_tail: how long the open part may grow before it is cut at a line
 *   break rather than at a blank line
 *
 * Finds where the text up to which nothing written later can change how
 * it is drawn ends, or near enough for streaming: after the last blank
 * line (or closing code fence) outside a code fence in @text from @start.
 * An open part longer than @max_tail is also cut after its last complete
 * line outside a fence. A finished message is parsed whole once, which
 * mends whatever the cut changed (a list spread over blank lines, a late
 * link reference definition).
 *
 * Returns: the end of the stable part, between @start and @length
 */
gsize
akc_markdown_find_stable_end (const char *text,
                              gsize       start,
                              gsize       length,
                              gsize       max_tail)
{
  gsize stable = start, last_line_end = start, position = start;
  gboolean in_fence = FALSE;
  char fence_char = 0;
  gsize fence_length = 0;

  while (position < length)
    {
      const char *newline = memchr (text + position, '\n', length - position);
      gsize line_length, line_end;

      if (newline == NULL)
        break;

      line_length = (gsize) (newline - (text + position));
      line_end = position + line_length + 1;

      if (in_fence)
        {
          if (is_fence (text + position, line_length, &fence_char, &fence_length, TRUE))
            {
              in_fence = FALSE;
              stable = line_end;
            }
        }
      else if (is_fence (text + position, line_length, &fence_char, &fence_length, FALSE))
        {
          in_fence = TRUE;
        }
      else if (is_blank (text + position, line_length))
        {
          stable = line_end;
        }
      else
        {
          last_line_end = line_end;
        }

      position = line_end;
    }

  if (length - stable > max_tail && last_line_end > stable)
    stable = last_line_end;

  return stable;
}

/**
 * akc_display_text:
 * @text: (array length=length): text from a message; may hold U+0000 and
 *   invalid UTF-8
 * @length: its length in bytes, or -1 if it is NUL-terminated
 *
 * Text that a #GtkLabel can show whole: valid UTF-8 with U+0000 shown as
 * U+FFFD (a C string would end there).
 *
 * Returns: (transfer full): the text
 */
char *
akc_display_text (const char *text,
                  gssize      length)
{
  GString *shown;
  gsize n;

  if (length < 0)
    length = (gssize) strlen (text);
  n = (gsize) length;

  if (memchr (text, '\0', n) == NULL && g_utf8_validate_len (text, n, NULL))
    return g_strndup (text, n);

  shown = g_string_sized_new (n + 8);
  while (n > 0)
    {
      const char *nul = memchr (text, '\0', n);
      gsize part = nul != NULL ? (gsize) (nul - text) : n;

      append_valid (shown, text, part);
      if (nul == NULL)
        break;
      g_string_append (shown, "\xEF\xBF\xBD");
      text += part + 1;
      n -= part + 1;
    }

  return g_string_free (shown, FALSE);
}

/* GtkLabel 4.8 measures its minimum width, every time its height for a
 * width is asked (each time its text changed), by laying its whole text
 * out as narrow as it can be: a line per character, which Pango makes
 * expensive. A minimum width of a few characters makes that a few lines.
 * Only for text whose longest line is surely wider than that minimum (a
 * label's minimum must not exceed its natural width): lines of at least
 * LONG_LINE_CHARS characters, or any line in a monospace font. */
#define MIN_WIDTH_CHARS 12
#define LONG_LINE_CHARS 64

void
akc_markdown_label_limit_min_width (GtkLabel   *label,
                                    const char *text,
                                    gboolean    monospace)
{
  glong longest = 0, line = 0;
  int width_chars;

  for (const char *p = text != NULL ? text : ""; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (*p == '\n')
        line = 0;
      else
        longest = MAX (longest, ++line);
    }

  if (monospace)
    width_chars = longest > 0 ? (int) MIN (longest, MIN_WIDTH_CHARS) : -1;
  else
    width_chars = longest >= LONG_LINE_CHARS ? MIN_WIDTH_CHARS : -1;

  if (gtk_label_get_width_chars (label) != width_chars)
    gtk_label_set_width_chars (label, width_chars);
}

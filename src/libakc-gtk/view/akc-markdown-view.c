/* akc-markdown-view.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "akc-code-block-private.h"
#include "akc-gtk-main.h"
#include "akc-markdown-item-private.h"
#include "akc-markdown-table-private.h"
#include "akc-markdown-view-private.h"
#include "akc-snapshot-clip-private.h"

/* AkcMarkdownView: the Markdown of one assistant text run, as a column of
 * native widgets: a label per paragraph, heading or list item (Pango
 * markup built by akc_markdown_parse(), every span of model text
 * escaped), an AkcCodeBlock per code block, an AkcMarkdownTable per
 * table, a separator per rule.
 *
 * Streaming. A growing label is the expensive thing to lay out again, and
 * its cost grows with its text; so the text is never drawn again from
 * scratch. It is split where nothing later can change what came before (a
 * blank line outside a code fence, see akc_markdown_find_stable_end()):
 * the part before the split is parsed once and its widgets are left alone;
 * each update parses only the open part after it and changes only the
 * widgets whose block changed, in practice the last label. When the
 * message is finished the whole text is parsed once, and widgets whose
 * block is the same are kept, so freezing costs nothing where the
 * streamed rendering was already right. The last block of the open part,
 * when it is a paragraph or heading, is the one being written: it is an
 * AkcMarkdownLive (below), laid out once per change where a label lays
 * out four times, and becomes a label when it is done. While streaming, the view keeps
 * room for a few lines below its text, so that a new line neither moves
 * the rows around it nor changes its background (see
 * akc_markdown_view_measure()).
 *
 * Links are http(s) only (the parser drops the rest); activating one emits
 * "open-uri", whose default handler opens it with the desktop's browser.
 *
 * CSS: `markdownview` of `label.md-paragraph`, `label.md-heading.md-h1`…,
 * `codeblock`, `markdowntable`, `separator`; list items and quotes are a
 * `markdownitem.md-item` or `markdownitem.md-quote` around them with a
 * `label.md-marker`. */

/* An open part longer than this is cut at a line break, so a reply
 * without blank lines does not become one ever-growing label. */
#define MAX_OPEN_TAIL 2048
#define INDENT_PX 20
#define QUOTE_INDENT_PX 12
#define SPACING_PX 8
/* The room a streaming view keeps below its text, in lines. */
#define RESERVED_LINES 4

typedef struct {
  AkcMarkdownBlock *block;
  GtkWidget        *row;      /* the child of the view */
  GtkWidget        *content;  /* the label, code block or separator */
  gboolean          live;     /* content is an AkcMarkdownLive */
  gboolean          drawn;    /* in the last snapshot */
  int               y;        /* where the view last allocated row, */
  int               height;   /* and how tall (0: not allocated) */
} Entry;

struct _AkcMarkdownView
{
  GtkWidget  parent_instance;

  GString   *text;
  GPtrArray *entries;     /* Entry */
  gsize      stable_end;  /* text[0, stable_end) is drawn by entries[0, n_stable) */
  guint      n_stable;
  gboolean   streaming;

  /* The scrolled window the view is seen through, when there is one, and
   * its vertical adjustment: blocks outside it are not drawn. */
  GtkWidget     *viewport;
  GtkAdjustment *vadjustment;
  gulong         value_handler;
  gulong         changed_handler;

  /* While streaming: the height the view keeps at reserved_width, its
   * text and room for RESERVED_LINES more lines (0: none). */
  int            reserved_width;
  int            reserved_height;
  int            room;            /* RESERVED_LINES lines of text, in pixels */
};

G_DEFINE_FINAL_TYPE (AkcMarkdownView, akc_markdown_view, GTK_TYPE_WIDGET)

enum {
  OPEN_URI,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
entry_free (Entry *entry)
{
  akc_markdown_block_free (entry->block);
  g_free (entry);
}

/* GtkLabel::activate-link, or AkcMarkdownTable's for its cells. */
static gboolean
on_activate_link (GtkWidget       *label,
                  const char      *uri,
                  AkcMarkdownView *self)
{
  /* The parser only writes http(s) links; check again anyway, and never
   * let GTK open anything by itself. */
  if (akc_markdown_uri_is_safe (uri))
    g_signal_emit (self, signals[OPEN_URI], 0, uri);

  return TRUE;
}

static void
akc_markdown_view_real_open_uri (AkcMarkdownView *self,
                                 const char      *uri)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;

#if GTK_CHECK_VERSION (4, 10, 0)
  g_autoptr(GtkUriLauncher) launcher = gtk_uri_launcher_new (uri);

  gtk_uri_launcher_launch (launcher, parent, NULL, NULL, NULL);
#else
  gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
#endif
}

/* ------------------------------------------------------------------ */
/* The text block being written                                        */
/* ------------------------------------------------------------------ */

/* AkcMarkdownLive: the last paragraph or heading of a streaming view, the
 * one that grows with each chunk. Only its last line is laid out again.
 *
 * A GtkLabel lays its whole text out four to five times for each change:
 * GTK measures a wrapping widget's width before its height for a width,
 * and the label measures that width on a copy of its layout wrapped to
 * its minimum width and on one not wrapped at all, then its height on a
 * third at the width it is given, and draws from its own layout once that
 * is allocated. With Pango each of them shapes the whole text again, so a
 * growing paragraph cost a few times its length in shaping per chunk.
 *
 * This one is a few characters wide at least and about as wide as its
 * longest line would like, counted in characters, so its width needs no
 * layout (the view and the row around it fill the transcript's width
 * anyway). Its text is laid out at that width, and lines
 * are wrapped greedily: a line depends only on where it starts, so once
 * a line is followed by another, text appended later cannot change it.
 * Such lines are frozen into segments, layouts of whole lines each laid
 * out once and drawn one under the other; only the tail, the last line,
 * is laid out again when text is appended. A change before the tail (an
 * emphasis closed that opened lines ago, a new width, a new font) lays
 * everything out again.
 *
 * It is not selectable and its links do not open while it is written;
 * once the block is done (a blank line after it, or the end of the
 * reply) it is replaced by a label, which is. Its accessible role is a
 * label's, named by its text. CSS: `label.md-live`, with the classes of
 * the label it stands for. */

#define AKC_TYPE_MARKDOWN_LIVE (akc_markdown_live_get_type ())

G_DECLARE_FINAL_TYPE (AkcMarkdownLive, akc_markdown_live, AKC, MARKDOWN_LIVE, GtkWidget)

struct _AkcMarkdownLive
{
  GtkWidget      parent_instance;

  char          *markup;         /* as set, for comparison */
  char          *text;           /* the text of the markup */
  gsize          length;
  PangoAttrList *attrs;          /* and its attributes */
  glong          longest_line;   /* in characters */

  /* Laid out at width: text[0, frozen) in segments, the rest in tail. */
  int            width;          /* pixels; 0: not laid out */
  GPtrArray     *segments;       /* PangoLayout, whole lines */
  int            segments_height;  /* their heights, in Pango units */
  GPtrArray     *segment_nodes;  /* GskRenderNode of each, once drawn, or NULL */
  GdkRGBA        segment_color;  /* they were drawn in */
  gsize          frozen;
  PangoLayout   *tail;
  gboolean       tail_valid;
  guint          context_serial;

  /* What GTK was told since the widget last queued a resize, and so what
   * its size cache holds: the height at one width (measured_for; 0: no
   * height asked yet, -1: asked at other widths too), the height at no
   * width in particular and the natural width, in characters (-1: not
   * asked). A change that leaves them as they are only needs drawing
   * again (see live_queue_update()). */
  int            measured_for;
  int            measured_height;
  int            measured_unsized;
  glong          measured_natural;
};

G_DEFINE_FINAL_TYPE (AkcMarkdownLive, akc_markdown_live, GTK_TYPE_WIDGET)

/* The width a label would keep at least: MIN_WIDTH_CHARS characters. */
#define LIVE_MIN_WIDTH_CHARS 12
/* And at most this many characters of natural width. */
#define LIVE_MAX_NATURAL_CHARS 1000

static void
segment_node_free (gpointer node)
{
  if (node != NULL)
    gsk_render_node_unref (node);
}

static void
live_forget_layout (AkcMarkdownLive *self)
{
  g_ptr_array_set_size (self->segments, 0);
  g_ptr_array_set_size (self->segment_nodes, 0);
  self->segments_height = 0;
  self->frozen = 0;
  self->tail_valid = FALSE;
}

/* Lays text[start, end) out in @layout, with its attributes. */
static void
live_fill (AkcMarkdownLive *self,
           PangoLayout     *layout,
           gsize            start,
           gsize            end)
{
  g_autoptr(PangoAttrList) attrs = NULL;

  pango_layout_set_width (layout, self->width * PANGO_SCALE);
  pango_layout_set_text (layout, self->text + start, (int) (end - start));
  if (self->attrs != NULL)
    {
      attrs = pango_attr_list_copy (self->attrs);
      /* From @start on: what ends before it goes, the rest moves. */
      if (start > 0)
        pango_attr_list_update (attrs, 0, (int) start, 0);
    }
  pango_layout_set_attributes (layout, attrs);
}

static PangoLayout *
live_new_layout (AkcMarkdownLive *self)
{
  /* The widget's own context, which GTK keeps in line with its CSS. */
  PangoLayout *layout = pango_layout_new (gtk_widget_get_pango_context (GTK_WIDGET (self)));

  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  return layout;
}

/* Lays the text out at @width (pixels, > 0): the tail again when it
 * changed, then every line of it but the last frozen into a segment. */
static void
live_ensure_layout (AkcMarkdownLive *self,
                    int              width)
{
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self));
  int n_lines, height;

  if (pango_context_get_serial (context) != self->context_serial)
    {
      self->context_serial = pango_context_get_serial (context);
      pango_layout_context_changed (self->tail);
      live_forget_layout (self);
    }
  if (width != self->width)
    {
      self->width = width;
      live_forget_layout (self);
    }
  if (self->tail_valid)
    return;

  live_fill (self, self->tail, self->frozen, self->length);
  self->tail_valid = TRUE;

  n_lines = pango_layout_get_line_count (self->tail);
  if (n_lines > 1)
    {
      PangoLayoutLine *last = pango_layout_get_line_readonly (self->tail, n_lines - 1);
      gsize cut = self->frozen + (gsize) last->start_index;
      gsize end = cut;
      PangoLayout *segment = live_new_layout (self);

      /* Without the line break it ends with, if any: Pango lays out a text
       * that ends with one with an empty line after it, and the segments
       * are drawn one under the other (code would show an empty line
       * between each two of its lines). */
      if (end > self->frozen && self->text[end - 1] == '\n')
        end--;
      if (end > self->frozen && self->text[end - 1] == '\r')
        end--;
      live_fill (self, segment, self->frozen, end);
      pango_layout_get_size (segment, NULL, &height);
      self->segments_height += height;
      g_ptr_array_add (self->segments, segment);
      g_ptr_array_add (self->segment_nodes, NULL);
      self->frozen = cut;
      live_fill (self, self->tail, self->frozen, self->length);
    }
}

/* The natural width, in characters: about its longest line unwrapped,
 * a label's natural width, without a layout. Code is as wide as its
 * lines. A paragraph fills what it is given anyway, and the line it is
 * written on grows with each chunk: its natural width grows in steps
 * (powers of two), so that a chunk seldom changes it. */
static glong
live_natural_chars (AkcMarkdownLive *self)
{
  glong chars = MIN (self->longest_line, LIVE_MAX_NATURAL_CHARS);
  glong step = LIVE_MIN_WIDTH_CHARS;

  if (self->markup == NULL)
    return chars;
  while (step < chars)
    step *= 2;
  return MIN (step, LIVE_MAX_NATURAL_CHARS);
}

static int
live_height (AkcMarkdownLive *self)
{
  int height;

  pango_layout_get_size (self->tail, NULL, &height);

  return PANGO_PIXELS_CEIL (self->segments_height + height);
}

static void
akc_markdown_live_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  AkcMarkdownLive *self = AKC_MARKDOWN_LIVE (widget);
  PangoFontMetrics *metrics = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int char_width = MAX (pango_font_metrics_get_approximate_char_width (metrics),
                            pango_font_metrics_get_approximate_digit_width (metrics));

      self->measured_natural = live_natural_chars (self);
      *minimum = PANGO_PIXELS_CEIL (char_width * LIVE_MIN_WIDTH_CHARS);
      *natural = MAX (*minimum, PANGO_PIXELS_CEIL (char_width * self->measured_natural));
    }
  else if (for_size > 0)
    {
      /* The height at @for_size, the width it is then given. */
      live_ensure_layout (self, for_size);
      *minimum = *natural = live_height (self);
      self->measured_for = self->measured_for == 0 || self->measured_for == for_size ? for_size : -1;
      self->measured_height = *natural;
    }
  else
    {
      /* At no width in particular: what it has, or a line. */
      *minimum = *natural = self->width > 0 && self->tail_valid
                            ? live_height (self)
                            : PANGO_PIXELS_CEIL (pango_font_metrics_get_height (metrics));
      self->measured_unsized = *natural;
    }

  pango_font_metrics_unref (metrics);
}

static GtkSizeRequestMode
akc_markdown_live_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* After a change of text: a resize when what GTK has cached of the
 * widget's size is no longer true, else only a new drawing. Each resize
 * goes up to the window and lays out again every widget on the way
 * (the transcript, its scrolled window, the window's panes, and their
 * styles): for a chunk written on the same line, at the same width, that
 * is most of the cost of the chunk. */
static void
live_queue_update (AkcMarkdownLive *self)
{
  /* A size never asked for is not in the cache either. */
  if (self->measured_for > 0 && self->measured_for == self->width &&
      (self->measured_natural < 0 || self->measured_natural == live_natural_chars (self)))
    {
      int height;

      live_ensure_layout (self, self->width);
      height = live_height (self);
      if (height == self->measured_height && (self->measured_unsized < 0 || height == self->measured_unsized))
        {
          gtk_widget_queue_draw (GTK_WIDGET (self));
          return;
        }
    }

  self->measured_for = 0;
  self->measured_unsized = -1;
  self->measured_natural = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
akc_markdown_live_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  if (width > 0)
    live_ensure_layout (AKC_MARKDOWN_LIVE (widget), width);
}

static void
akc_markdown_live_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  AkcMarkdownLive *self = AKC_MARKDOWN_LIVE (widget);
  int width = gtk_widget_get_width (widget);
  GdkRGBA color;
  int y = 0, height;

  if (self->length == 0 || width <= 0)
    return;

  live_ensure_layout (self, width);
#if GTK_CHECK_VERSION (4, 10, 0)
  gtk_widget_get_color (widget, &color);
#else
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
#endif

  /* The lines finished are drawn once and their drawing kept: only the
   * line being written is drawn again. */
  if (!gdk_rgba_equal (&color, &self->segment_color))
    {
      for (guint i = 0; i < self->segment_nodes->len; i++)
        g_clear_pointer (&self->segment_nodes->pdata[i], gsk_render_node_unref);
      self->segment_color = color;
    }

  for (guint i = 0; i <= self->segments->len; i++)
    {
      PangoLayout *layout = i < self->segments->len ? g_ptr_array_index (self->segments, i) : self->tail;

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, (float) y / PANGO_SCALE));
      if (i < self->segments->len)
        {
          if (self->segment_nodes->pdata[i] == NULL)
            {
              GtkSnapshot *segment = gtk_snapshot_new ();

              GskRenderNode *node;

              gtk_snapshot_append_layout (segment, layout, &color);
              node = gtk_snapshot_free_to_node (segment);
              self->segment_nodes->pdata[i] = node != NULL ? akc_render_node_clip_to_bounds (node) : NULL;
              g_clear_pointer (&node, gsk_render_node_unref);
            }
          if (self->segment_nodes->pdata[i] != NULL)
            gtk_snapshot_append_node (snapshot, self->segment_nodes->pdata[i]);
        }
      else
        gtk_snapshot_append_layout (snapshot, layout, &color);
      gtk_snapshot_restore (snapshot);
      pango_layout_get_size (layout, NULL, &height);
      y += height;
    }
}

static void
akc_markdown_live_finalize (GObject *object)
{
  AkcMarkdownLive *self = AKC_MARKDOWN_LIVE (object);

  g_ptr_array_unref (self->segment_nodes);
  g_ptr_array_unref (self->segments);
  g_clear_object (&self->tail);
  g_clear_pointer (&self->attrs, pango_attr_list_unref);
  g_free (self->text);
  g_free (self->markup);

  G_OBJECT_CLASS (akc_markdown_live_parent_class)->finalize (object);
}

static void
akc_markdown_live_class_init (AkcMarkdownLiveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = akc_markdown_live_finalize;

  widget_class->measure = akc_markdown_live_measure;
  widget_class->get_request_mode = akc_markdown_live_get_request_mode;
  widget_class->size_allocate = akc_markdown_live_size_allocate;
  widget_class->snapshot = akc_markdown_live_snapshot;

  /* Styled as the label it stands for. */
  gtk_widget_class_set_css_name (widget_class, "label");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
akc_markdown_live_init (AkcMarkdownLive *self)
{
  self->segments = g_ptr_array_new_with_free_func (g_object_unref);
  self->segment_nodes = g_ptr_array_new_with_free_func (segment_node_free);
  self->tail = live_new_layout (self);
  self->text = g_strdup ("");
  self->context_serial = pango_context_get_serial (gtk_widget_get_pango_context (GTK_WIDGET (self)));
  self->measured_unsized = -1;
  self->measured_natural = -1;
  gtk_widget_add_css_class (GTK_WIDGET (self), "md-live");
}

/* Pango markup for @markup, which is a label's: links are underlined
 * spans in @link_color (they open once the block is a label). The markup
 * is ours, every attribute value escaped, so a tag ends at the first
 * '>'. */
static char *
live_markup (const char *markup,
             const char *link_color)
{
  GString *out = g_string_sized_new (strlen (markup) + 16);
  const char *p = markup;

  while (*p != '\0')
    {
      const char *tag = strchr (p, '<');

      if (tag == NULL)
        {
          g_string_append (out, p);
          break;
        }
      g_string_append_len (out, p, tag - p);

      if (g_str_has_prefix (tag, "<a ") || g_str_has_prefix (tag, "<a>"))
        {
          const char *end = strchr (tag, '>');

          g_string_append (out, "<span underline=\"single\"");
          if (link_color != NULL)
            g_string_append_printf (out, " foreground=\"%s\"", link_color);
          g_string_append_c (out, '>');
          p = end != NULL ? end + 1 : tag + strlen (tag);
        }
      else if (g_str_has_prefix (tag, "</a>"))
        {
          g_string_append (out, "</span>");
          p = tag + 4;
        }
      else
        {
          g_string_append_c (out, '<');
          p = tag + 1;
        }
    }

  return g_string_free (out, FALSE);
}

static gboolean
collect_attribute (PangoAttribute *attribute,
                   gpointer        user_data)
{
  g_ptr_array_add (user_data, attribute);
  return FALSE;
}

/* The attributes of @list (nullable), in order, as they are in it: not
 * copied, as pango_attr_list_get_attributes() copies each of them (a
 * code chunk being written has a few for each token). */
static GPtrArray *
attributes_of (PangoAttrList *list)
{
  GPtrArray *attributes = g_ptr_array_new ();

  /* Filtering nothing out visits each in turn and leaves the list alone
   * (it returns the attributes taken out: none). */
  if (list != NULL)
    {
      PangoAttrList *none = pango_attr_list_filter (list, collect_attribute, attributes);

      g_clear_pointer (&none, pango_attr_list_unref);
    }
  return attributes;
}

/* Whether the attributes of @a and @b over [0, @end) are the same. */
static gboolean
attrs_equal_before (PangoAttrList *a,
                    PangoAttrList *b,
                    gsize          end)
{
  g_autoptr(GPtrArray) list_a = attributes_of (a);
  g_autoptr(GPtrArray) list_b = attributes_of (b);
  guint ia = 0, ib = 0;

  for (;;)
    {
      PangoAttribute *x, *y;

      while (ia < list_a->len && ((PangoAttribute *) g_ptr_array_index (list_a, ia))->start_index >= end)
        ia++;
      while (ib < list_b->len && ((PangoAttribute *) g_ptr_array_index (list_b, ib))->start_index >= end)
        ib++;
      if (ia == list_a->len || ib == list_b->len)
        return ia == list_a->len && ib == list_b->len;

      x = g_ptr_array_index (list_a, ia);
      y = g_ptr_array_index (list_b, ib);
      if (x->start_index != y->start_index ||
          MIN (x->end_index, end) != MIN (y->end_index, end) ||
          !pango_attribute_equal (x, y))
        return FALSE;
      ia++;
      ib++;
    }
}

/* Shows @text (taken) with @attrs (taken, nullable), named @name. */
static void
live_set_content (AkcMarkdownLive *self,
                  char            *text,
                  PangoAttrList   *attrs,
                  const char      *name)
{
  gsize length = strlen (text);
  glong line = 0;

  self->longest_line = 0;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (*p == '\n')
        line = 0;
      else
        self->longest_line = MAX (self->longest_line, ++line);
    }

  /* Lines frozen stay when the text and its attributes up to the tail
   * are the same. */
  if (self->frozen > 0 &&
      !(self->frozen <= length && memcmp (text, self->text, self->frozen) == 0 &&
        attrs_equal_before (self->attrs, attrs, self->frozen)))
    live_forget_layout (self);
  self->tail_valid = FALSE;

  g_free (self->text);
  self->text = text;
  self->length = length;
  g_clear_pointer (&self->attrs, pango_attr_list_unref);
  self->attrs = attrs;

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  live_queue_update (self);
}

static void
akc_markdown_live_set_block (AkcMarkdownLive        *self,
                             const AkcMarkdownBlock *block)
{
  const char *markup = block->markup != NULL ? block->markup : "";
  g_autofree char *pango_markup = NULL;
  g_autofree char *link_color = NULL;
  g_autofree char *text = NULL;
  PangoAttrList *attrs = NULL;
  GdkRGBA accent;

  if (g_strcmp0 (self->markup, markup) == 0)
    return;

  g_free (self->markup);
  self->markup = g_strdup (markup);
  /* A label's links are drawn in the accent colour (libadwaita's). */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (block->n_links > 0 &&
      gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (self)), "accent_color", &accent))
    link_color = g_strdup_printf ("#%02x%02x%02x", (int) (accent.red * 255 + 0.5),
                                  (int) (accent.green * 255 + 0.5), (int) (accent.blue * 255 + 0.5));
  G_GNUC_END_IGNORE_DEPRECATIONS
  pango_markup = live_markup (markup, link_color);
  /* The markup is ours (akc_markdown_parse() escapes every span of model
   * text), so it parses; the plain text otherwise. */
  if (!pango_parse_markup (pango_markup, -1, 0, &attrs, &text, NULL, NULL))
    text = g_strdup (block->text != NULL ? block->text : "");
  live_set_content (self, g_steal_pointer (&text), attrs, block->text != NULL ? block->text : "");
}

static GtkWidget *
akc_markdown_live_new (const AkcMarkdownBlock *block)
{
  AkcMarkdownLive *self = g_object_new (AKC_TYPE_MARKDOWN_LIVE, "hexpand", TRUE, NULL);

  akc_markdown_live_set_block (self, block);
  return GTK_WIDGET (self);
}

/* Plain text with attributes, for the code a code block is given while it
 * is written (see akc-markdown-view-private.h). */
GtkWidget *
akc_markdown_live_new_plain (void)
{
  return g_object_new (AKC_TYPE_MARKDOWN_LIVE, "hexpand", TRUE, NULL);
}

void
akc_markdown_live_set_plain (GtkWidget     *live,
                             const char    *text,
                             gsize          length,
                             PangoAttrList *attrs)
{
  AkcMarkdownLive *self;
  char *copy;

  g_return_if_fail (AKC_IS_MARKDOWN_LIVE (live));

  self = AKC_MARKDOWN_LIVE (live);
  if (self->markup != NULL)
    g_clear_pointer (&self->markup, g_free);
  if (length == self->length && memcmp (text, self->text, length) == 0 &&
      ((attrs == NULL && self->attrs == NULL) ||
       (attrs != NULL && self->attrs != NULL && pango_attr_list_equal (attrs, self->attrs))))
    return;

  copy = g_strndup (text, length);
  live_set_content (self, copy, attrs != NULL ? pango_attr_list_ref (attrs) : NULL, copy);
}

const char *
akc_markdown_live_get_text (GtkWidget *live)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_LIVE (live), NULL);

  return AKC_MARKDOWN_LIVE (live)->text;
}

/* The attributes of its text, or %NULL (transfer none). */
PangoAttrList *
akc_markdown_live_get_attributes (GtkWidget *live)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_LIVE (live), NULL);

  return AKC_MARKDOWN_LIVE (live)->attrs;
}

gboolean
akc_markdown_is_live (GtkWidget *widget)
{
  return AKC_IS_MARKDOWN_LIVE (widget);
}

/* Whether @block can be written into an AkcMarkdownLive. */
static gboolean
is_live_kind (const AkcMarkdownBlock *block)
{
  return block->kind == AKC_MARKDOWN_PARAGRAPH || block->kind == AKC_MARKDOWN_HEADING;
}

/* ------------------------------------------------------------------ */

static void
set_label_markup (GtkLabel               *label,
                  const AkcMarkdownBlock *block)
{
  /* The markup is ours (akc_markdown_parse() escapes every span of model
   * text), so it always parses. */
  akc_markdown_label_limit_min_width (label, block->text, FALSE);
  gtk_label_set_markup (label, block->markup != NULL ? block->markup : "");
}

static void
add_text_classes (GtkWidget              *content,
                  const AkcMarkdownBlock *block)
{
  if (block->kind == AKC_MARKDOWN_HEADING)
    {
      g_autofree char *level_class = g_strdup_printf ("md-h%u", block->level);

      gtk_widget_add_css_class (content, "md-heading");
      gtk_widget_add_css_class (content, level_class);
      gtk_accessible_update_property (GTK_ACCESSIBLE (content),
                                      GTK_ACCESSIBLE_PROPERTY_LEVEL, (int) block->level,
                                      -1);
    }
  else
    {
      gtk_widget_add_css_class (content, "md-paragraph");
    }
}

static GtkWidget *
create_content (AkcMarkdownView        *self,
                const AkcMarkdownBlock *block,
                gboolean                live)
{
  GtkWidget *content;

  if (live)
    {
      g_assert (is_live_kind (block));
      content = akc_markdown_live_new (block);
      add_text_classes (content, block);
      return content;
    }

  switch (block->kind)
    {
    case AKC_MARKDOWN_CODE:
      content = akc_code_block_new (block->language);
      akc_code_block_set_code (AKC_CODE_BLOCK (content), block->text);
      return content;

    case AKC_MARKDOWN_RULE:
      return gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);

    case AKC_MARKDOWN_GFM_TABLE:
      /* As wide as its columns want, not the whole bubble. */
      content = akc_markdown_table_new (block);
      gtk_widget_set_halign (content, GTK_ALIGN_START);
      g_signal_connect_object (content, "activate-link", G_CALLBACK (on_activate_link), self, 0);
      return content;

    case AKC_MARKDOWN_HEADING:
    case AKC_MARKDOWN_PARAGRAPH:
    default:
      content = g_object_new (GTK_TYPE_LABEL,
                              "xalign", 0.0f,
                              "wrap", TRUE,
                              "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                              "wrap-mode", PANGO_WRAP_WORD_CHAR,
                              "selectable", TRUE,
                              "hexpand", TRUE,
                              "accessible-role", block->kind == AKC_MARKDOWN_HEADING
                                                 ? GTK_ACCESSIBLE_ROLE_HEADING
                                                 : GTK_ACCESSIBLE_ROLE_LABEL,
                              NULL);
      set_label_markup (GTK_LABEL (content), block);
      g_signal_connect_object (content, "activate-link", G_CALLBACK (on_activate_link), self, 0);
      add_text_classes (content, block);
      return content;
    }
}

/* A list item or quote gets an AkcMarkdownItem with the marker and the
 * indentation; anything else is its content alone. */
static GtkWidget *
create_row (const AkcMarkdownBlock *block,
            GtkWidget              *content)
{
  GtkWidget *row;
  guint indent;

  if (block->marker == NULL && block->list_depth == 0 && block->quote_depth == 0)
    return content;

  indent = block->quote_depth * QUOTE_INDENT_PX;
  if (block->list_depth > 0)
    indent += (block->list_depth - 1) * INDENT_PX;

  /* Inside a list, text lines up after the markers of its item. */
  row = akc_markdown_item_new (block->marker, block->list_depth > 0 ? INDENT_PX : 0, content);
  if (block->list_depth > 0)
    gtk_widget_add_css_class (row, "md-item");
  if (block->quote_depth > 0)
    gtk_widget_add_css_class (row, "md-quote");
  gtk_widget_set_margin_start (row, (int) indent);

  return row;
}

static Entry *
entry_new (AkcMarkdownView  *self,
           AkcMarkdownBlock *block,
           gboolean          live)
{
  Entry *entry = g_new0 (Entry, 1);

  entry->block = block;
  entry->live = live;
  entry->content = create_content (self, block, live);
  entry->row = create_row (block, entry->content);

  return entry;
}

static void
update_content (Entry            *entry,
                AkcMarkdownBlock *block)
{
  if (entry->live)
    akc_markdown_live_set_block (AKC_MARKDOWN_LIVE (entry->content), block);
  else if (block->kind == AKC_MARKDOWN_CODE)
    akc_code_block_set_code (AKC_CODE_BLOCK (entry->content), block->text);
  else if (block->kind == AKC_MARKDOWN_GFM_TABLE)
    akc_markdown_table_set_block (AKC_MARKDOWN_TABLE (entry->content), block);
  else if (block->kind != AKC_MARKDOWN_RULE && g_strcmp0 (entry->block->markup, block->markup) != 0)
    set_label_markup (GTK_LABEL (entry->content), block);

  akc_markdown_block_free (entry->block);
  entry->block = block;
}

/* A code block being written draws its last lines without a label. */
static void
set_code_written (Entry    *entry,
                  gboolean  written)
{
  if (entry->block->kind == AKC_MARKDOWN_CODE)
    akc_code_block_set_streaming (AKC_CODE_BLOCK (entry->content), written);
}

/* Shows @blocks (taken) from entry @from on: entries whose block is the
 * same are left alone, entries of the same shape get the new text, the
 * others are replaced, and entries beyond the new blocks are removed.
 * With @live_last, the last block, when it is text, is the one being
 * written: an AkcMarkdownLive; every other text block is a label. */
static void
reconcile (AkcMarkdownView *self,
           guint            from,
           GPtrArray       *blocks,
           gboolean         live_last)
{
  guint n = blocks->len;

  g_assert (from <= self->entries->len);

  for (guint i = 0; i < n; i++)
    {
      AkcMarkdownBlock *block = g_ptr_array_steal_index (blocks, 0);
      guint position = from + i;
      Entry *entry = position < self->entries->len ? g_ptr_array_index (self->entries, position) : NULL;
      GtkWidget *previous = position > 0 ? ((Entry *) g_ptr_array_index (self->entries, position - 1))->row : NULL;
      gboolean written = live_last && i + 1 == n;
      gboolean live = written && is_live_kind (block);

      if (entry != NULL && entry->live == live && akc_markdown_block_equal (entry->block, block))
        {
          akc_markdown_block_free (block);
          set_code_written (entry, written);
          continue;
        }

      if (entry != NULL && entry->live == live && akc_markdown_block_same_shape (entry->block, block))
        {
          update_content (entry, block);
          set_code_written (entry, written);
          continue;
        }

      if (entry != NULL)
        {
          gtk_widget_unparent (entry->row);
          entry_free (entry);
          entry = entry_new (self, block, live);
          self->entries->pdata[position] = entry;
        }
      else
        {
          entry = entry_new (self, block, live);
          g_ptr_array_add (self->entries, entry);
        }

      gtk_widget_insert_after (entry->row, GTK_WIDGET (self), previous);
      set_code_written (entry, written);
    }

  while (self->entries->len > from + n)
    {
      Entry *entry = g_ptr_array_steal_index (self->entries, self->entries->len - 1);

      gtk_widget_unparent (entry->row);
      entry_free (entry);
    }
}

/* Only the blocks in sight are drawn: a long reply streaming in costs one
 * window of text a frame, not all of it. Whatever moves the view in its
 * scrolled window (scrolling, or rows above it growing) changes the
 * adjustment, and the view is drawn again then. Where the view is in the
 * scrolled window is found once a frame; where each block is in the view,
 * from its allocation, so the cost of a frame does not grow with the
 * blocks out of sight. */
static void
akc_markdown_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  AkcMarkdownView *self = AKC_MARKDOWN_VIEW (widget);
  graphene_point_t origin;
  gboolean culling = FALSE;
  double top = 0, bottom = 0;

  if (self->viewport != NULL &&
      gtk_widget_compute_point (widget, self->viewport, &GRAPHENE_POINT_INIT (0, 0), &origin))
    {
      culling = TRUE;
      top = -origin.y;
      bottom = top + gtk_widget_get_height (self->viewport);
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      entry->drawn = !culling || entry->height == 0 ||
                     (entry->y < bottom && entry->y + entry->height > top);
      if (entry->drawn)
        akc_snapshot_child_clipped (widget, entry->row, snapshot);
    }
}

/* The blocks one under the other, SPACING_PX apart (a vertical box).
 *
 * While the text streams in, the view is taller than its blocks by room
 * for a few lines, and grows in steps of them. A reply grows a line at a
 * time, and the transcript follows its end: each time the view grew, its
 * background (the bubble, as tall as the whole reply) and every row in
 * sight would move or change, and the whole window would be drawn again
 * for a line of text. With the room, the line is written into it: only
 * the block being written is drawn again, and the rows move once every
 * few lines. The room goes when the text is finished. */
static void
akc_markdown_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  AkcMarkdownView *self = AKC_MARKDOWN_VIEW (widget);
  int n_visible = 0;

  *minimum = *natural = 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_min = 0, child_nat = 0;

      if (!gtk_widget_should_layout (child))
        continue;
      /* A width for a height (GTK asks it of a view aligned other than
       * fill on each allocation) is the width at any height: the height is
       * the whole view's, not a block's, and a block given it passes it on
       * (a code block gave its lines what its header left of it, about a
       * line, and GtkLabel then reports a minimum above its natural width,
       * with a Gtk-WARNING). */
      gtk_widget_measure (child, orientation, orientation == GTK_ORIENTATION_HORIZONTAL ? -1 : for_size,
                          &child_min, &child_nat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          *minimum = MAX (*minimum, child_min);
          *natural = MAX (*natural, child_nat);
        }
      else
        {
          *minimum += child_min;
          *natural += child_nat;
        }
      n_visible++;
    }

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    return;

  if (n_visible > 1)
    {
      *minimum += (n_visible - 1) * SPACING_PX;
      *natural += (n_visible - 1) * SPACING_PX;
    }

  if (self->streaming && n_visible > 0)
    {
      int height;

      if (self->room == 0)
        {
          PangoFontMetrics *metrics = pango_context_get_metrics (gtk_widget_get_pango_context (widget), NULL, NULL);

          self->room = RESERVED_LINES * MAX (PANGO_PIXELS_CEIL (pango_font_metrics_get_height (metrics)), 1);
          pango_font_metrics_unref (metrics);
        }

      /* The room is kept for the width the view has (or is first given);
       * at any other width it is the text and new room. */
      if (for_size == self->reserved_width && self->reserved_height > 0)
        {
          if (*natural > self->reserved_height)
            self->reserved_height = *natural + self->room;
          height = self->reserved_height;
        }
      else if (self->reserved_height == 0 || for_size == gtk_widget_get_width (widget))
        {
          self->reserved_width = for_size;
          self->reserved_height = *natural + self->room;
          height = self->reserved_height;
        }
      else
        height = *natural + self->room;

      *minimum = MAX (*minimum, height);
      *natural = MAX (*natural, height);
    }
}

static GtkSizeRequestMode
akc_markdown_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
akc_markdown_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  AkcMarkdownView *self = AKC_MARKDOWN_VIEW (widget);
  int y = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      int child_min = 0, child_nat = 0;

      entry->height = 0;
      if (!gtk_widget_should_layout (entry->row))
        continue;
      gtk_widget_measure (entry->row, GTK_ORIENTATION_VERTICAL, width, &child_min, &child_nat, NULL, NULL);
      gtk_widget_size_allocate (entry->row, &(GtkAllocation) { 0, y, width, child_nat }, -1);
      entry->y = y;
      entry->height = MAX (child_nat, 1);
      y += child_nat + SPACING_PX;
    }
}

static void
forget_viewport (AkcMarkdownView *self)
{
  if (self->vadjustment != NULL)
    {
      g_clear_signal_handler (&self->value_handler, self->vadjustment);
      g_clear_signal_handler (&self->changed_handler, self->vadjustment);
      g_clear_object (&self->vadjustment);
    }
  self->viewport = NULL;
}

static void
akc_markdown_view_map (GtkWidget *widget)
{
  AkcMarkdownView *self = AKC_MARKDOWN_VIEW (widget);
  GtkWidget *viewport;

  GTK_WIDGET_CLASS (akc_markdown_view_parent_class)->map (widget);

  forget_viewport (self);
  viewport = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  if (viewport == NULL)
    return;

  self->viewport = viewport;
  self->vadjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (viewport)));
  self->value_handler = g_signal_connect_object (self->vadjustment, "value-changed",
                                                 G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  self->changed_handler = g_signal_connect_object (self->vadjustment, "changed",
                                                   G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}

static void
akc_markdown_view_unmap (GtkWidget *widget)
{
  forget_viewport (AKC_MARKDOWN_VIEW (widget));

  GTK_WIDGET_CLASS (akc_markdown_view_parent_class)->unmap (widget);
}

static void
akc_markdown_view_dispose (GObject *object)
{
  AkcMarkdownView *self = AKC_MARKDOWN_VIEW (object);

  forget_viewport (self);
  for (guint i = 0; i < self->entries->len; i++)
    gtk_widget_unparent (((Entry *) g_ptr_array_index (self->entries, i))->row);
  g_ptr_array_set_size (self->entries, 0);

  G_OBJECT_CLASS (akc_markdown_view_parent_class)->dispose (object);
}

static void
akc_markdown_view_finalize (GObject *object)
{
  AkcMarkdownView *self = AKC_MARKDOWN_VIEW (object);

  g_ptr_array_unref (self->entries);
  g_string_free (self->text, TRUE);

  G_OBJECT_CLASS (akc_markdown_view_parent_class)->finalize (object);
}

static void
akc_markdown_view_class_init (AkcMarkdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_markdown_view_dispose;
  object_class->finalize = akc_markdown_view_finalize;

  widget_class->snapshot = akc_markdown_view_snapshot;
  widget_class->measure = akc_markdown_view_measure;
  widget_class->get_request_mode = akc_markdown_view_get_request_mode;
  widget_class->size_allocate = akc_markdown_view_size_allocate;
  widget_class->map = akc_markdown_view_map;
  widget_class->unmap = akc_markdown_view_unmap;

  /* open-uri (uri): an http(s) link was activated. The default handler
   * opens it; stop the emission to prevent that. */
  signals[OPEN_URI] =
    g_signal_new_class_handler ("open-uri",
                                G_TYPE_FROM_CLASS (klass),
                                G_SIGNAL_RUN_LAST,
                                G_CALLBACK (akc_markdown_view_real_open_uri),
                                NULL, NULL,
                                NULL,
                                G_TYPE_NONE, 1,
                                G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "markdownview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_markdown_view_init (AkcMarkdownView *self)
{
  akc_gtk_init ();


  self->text = g_string_new (NULL);
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
}

GtkWidget *
akc_markdown_view_new (void)
{
  return g_object_new (AKC_TYPE_MARKDOWN_VIEW, NULL);
}

/* Shows @text. While @streaming, text that continues the text shown only
 * updates the open part after the last stable split. Once not @streaming,
 * the whole text is parsed once (the frozen rendering). */
void
akc_markdown_view_set_text (AkcMarkdownView *self,
                            const char      *text,
                            gsize            length,
                            gboolean         streaming)
{
  g_autoptr(GPtrArray) blocks = NULL;
  gboolean same, continues;
  gsize stable_end;

  g_return_if_fail (AKC_IS_MARKDOWN_VIEW (self));
  g_return_if_fail (text != NULL || length == 0);

  same = length == self->text->len && memcmp (text, self->text->str, length) == 0;
  if (same && self->streaming == streaming && (self->entries->len > 0 || length == 0))
    return;

  continues = self->streaming && length >= self->text->len &&
              memcmp (text, self->text->str, self->text->len) == 0;

  /* Only what came is copied. */
  if (!continues)
    g_string_truncate (self->text, 0);
  g_string_append_len (self->text, text + self->text->len, (gssize) (length - self->text->len));

  if (!streaming)
    {
      if (self->reserved_height > 0)
        {
          self->reserved_width = self->reserved_height = self->room = 0;
          gtk_widget_queue_resize (GTK_WIDGET (self));
        }
      blocks = akc_markdown_parse (text, length);
      reconcile (self, 0, blocks, FALSE);
      self->stable_end = length;
      self->n_stable = self->entries->len;
      self->streaming = FALSE;
      return;
    }

  if (!continues)
    {
      self->stable_end = 0;
      self->n_stable = 0;
      self->reserved_width = self->reserved_height = self->room = 0;
    }
  self->streaming = TRUE;

  /* What became stable since the last update, then the open part, in one
   * pass so that the widgets of the open part are reused. */
  stable_end = akc_markdown_find_stable_end (text, self->stable_end, length, MAX_OPEN_TAIL);
  blocks = akc_markdown_parse (text + self->stable_end, stable_end - self->stable_end);
  {
    guint n_newly_stable = blocks->len;
    g_autoptr(GPtrArray) open = akc_markdown_parse (text + stable_end, length - stable_end);
    /* The block being written is the open part's last. */
    gboolean writing = open->len > 0;

    g_ptr_array_extend_and_steal (blocks, g_steal_pointer (&open));
    reconcile (self, self->n_stable, blocks, writing);
    self->n_stable += n_newly_stable;
    self->stable_end = stable_end;
  }
}

const char *
akc_markdown_view_get_text (AkcMarkdownView *self,
                            gsize           *length)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), NULL);

  if (length != NULL)
    *length = self->text->len;
  return self->text->str;
}

gboolean
akc_markdown_view_get_streaming (AkcMarkdownView *self)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), FALSE);

  return self->streaming;
}

guint
akc_markdown_view_get_n_blocks (AkcMarkdownView *self)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), 0);

  return self->entries->len;
}

const AkcMarkdownBlock *
akc_markdown_view_get_block (AkcMarkdownView *self,
                             guint            position)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), NULL);
  g_return_val_if_fail (position < self->entries->len, NULL);

  return ((Entry *) g_ptr_array_index (self->entries, position))->block;
}

/* The label, code block or separator of block @position. */
GtkWidget *
akc_markdown_view_get_block_widget (AkcMarkdownView *self,
                                    guint            position)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), NULL);
  g_return_val_if_fail (position < self->entries->len, NULL);

  return ((Entry *) g_ptr_array_index (self->entries, position))->content;
}

guint
akc_markdown_view_get_n_stable (AkcMarkdownView *self)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), 0);

  return self->n_stable;
}

/* Whether block @position was drawn by the last snapshot (not when it was
 * out of sight). */
gboolean
akc_markdown_view_get_block_drawn (AkcMarkdownView *self,
                                   guint            position)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_VIEW (self), FALSE);
  g_return_val_if_fail (position < self->entries->len, FALSE);

  return ((Entry *) g_ptr_array_index (self->entries, position))->drawn;
}

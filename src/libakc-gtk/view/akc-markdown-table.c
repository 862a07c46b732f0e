/* akc-markdown-table.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-markdown-table-private.h"

/* AkcMarkdownTable: a GFM table of assistant Markdown, as a grid: a row
 * widget per table row, a label per cell, the first row the header.
 *
 * Columns are as wide as their widest cell wants; when the table does not
 * fit the width it is given, every column keeps at least its minimum (cells
 * wrap, between characters if they must) and the rest of the width goes
 * to the columns that want more, as GtkBox shares out space. The height of
 * a row is that of its tallest cell at its column's width, so the table is
 * always exactly as tall as its content at the width it has.
 *
 * Accessibility: role TABLE; each row is a ROW, header cells are
 * COLUMN_HEADERs and the others CELLs, named by their text.
 *
 * CSS: `markdowntable` of `markdowntablerow`s (`.header` for the first) of
 * `label.md-cell` (`.md-header` in the header row). */

struct _AkcMarkdownTable
{
  GtkWidget  parent_instance;

  guint      n_columns;
  GPtrArray *rows;    /* AkcMarkdownTableRow, owned by the widget tree */
};

G_DEFINE_FINAL_TYPE (AkcMarkdownTable, akc_markdown_table, GTK_TYPE_WIDGET)

enum {
  ACTIVATE_LINK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* The rows                                                            */
/* ------------------------------------------------------------------ */

#define AKC_TYPE_MARKDOWN_TABLE_ROW (akc_markdown_table_row_get_type ())
G_DECLARE_FINAL_TYPE (AkcMarkdownTableRow, akc_markdown_table_row, AKC, MARKDOWN_TABLE_ROW, GtkWidget)

struct _AkcMarkdownTableRow
{
  GtkWidget  parent_instance;

  GPtrArray *cells;   /* GtkLabel, one per column */
};

G_DEFINE_FINAL_TYPE (AkcMarkdownTableRow, akc_markdown_table_row, GTK_TYPE_WIDGET)

static void compute_widths (AkcMarkdownTable *self,
                            int               width,
                            int              *widths);

static AkcMarkdownTable *
row_table (AkcMarkdownTableRow *row)
{
  return AKC_MARKDOWN_TABLE (gtk_widget_get_parent (GTK_WIDGET (row)));
}

static void
akc_markdown_table_row_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  AkcMarkdownTableRow *self = AKC_MARKDOWN_TABLE_ROW (widget);
  AkcMarkdownTable *table = row_table (self);
  int *widths = g_newa (int, MAX (table->n_columns, 1));

  *minimum = *natural = 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* The table sizes its columns: a row can be as narrow as their
       * minimums (GTK measures the height of a row for no less than its
       * minimum width), and would like their natural widths. */
      compute_widths (table, 0, widths);
      for (guint c = 0; c < table->n_columns; c++)
        *minimum += widths[c];
      compute_widths (table, -1, widths);
      for (guint c = 0; c < table->n_columns; c++)
        *natural += widths[c];
      return;
    }

  compute_widths (table, for_size, widths);
  for (guint c = 0; c < self->cells->len; c++)
    {
      int cell_min = 0, cell_nat = 0;

      gtk_widget_measure (g_ptr_array_index (self->cells, c), GTK_ORIENTATION_VERTICAL,
                          widths[c], &cell_min, &cell_nat, NULL, NULL);
      *minimum = MAX (*minimum, cell_min);
      *natural = MAX (*natural, cell_nat);
    }
}

static void
akc_markdown_table_row_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  AkcMarkdownTableRow *self = AKC_MARKDOWN_TABLE_ROW (widget);
  AkcMarkdownTable *table = row_table (self);
  int *widths = g_newa (int, MAX (table->n_columns, 1));
  int x = 0;

  compute_widths (table, width, widths);
  for (guint c = 0; c < self->cells->len; c++)
    {
      gtk_widget_allocate (g_ptr_array_index (self->cells, c), widths[c], height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (x, 0)));
      x += widths[c];
    }
}

static GtkSizeRequestMode
height_for_width (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
akc_markdown_table_row_dispose (GObject *object)
{
  AkcMarkdownTableRow *self = AKC_MARKDOWN_TABLE_ROW (object);

  for (guint c = 0; c < self->cells->len; c++)
    gtk_widget_unparent (g_ptr_array_index (self->cells, c));
  g_ptr_array_set_size (self->cells, 0);

  G_OBJECT_CLASS (akc_markdown_table_row_parent_class)->dispose (object);
}

static void
akc_markdown_table_row_finalize (GObject *object)
{
  g_ptr_array_unref (AKC_MARKDOWN_TABLE_ROW (object)->cells);

  G_OBJECT_CLASS (akc_markdown_table_row_parent_class)->finalize (object);
}

static void
akc_markdown_table_row_class_init (AkcMarkdownTableRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_markdown_table_row_dispose;
  object_class->finalize = akc_markdown_table_row_finalize;

  widget_class->measure = akc_markdown_table_row_measure;
  widget_class->size_allocate = akc_markdown_table_row_size_allocate;
  widget_class->get_request_mode = height_for_width;

  gtk_widget_class_set_css_name (widget_class, "markdowntablerow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_ROW);
}

static void
akc_markdown_table_row_init (AkcMarkdownTableRow *self)
{
  /* The labels belong to the row as its children; the array points. */
  self->cells = g_ptr_array_new ();
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

/* The width of each column when the table is @width wide (-1: as wide as
 * it would like). */
static void
compute_widths (AkcMarkdownTable *self,
                int               width,
                int              *widths)
{
  GtkRequestedSize *sizes = g_newa (GtkRequestedSize, MAX (self->n_columns, 1));
  int sum_min = 0, sum_nat = 0;

  for (guint c = 0; c < self->n_columns; c++)
    sizes[c] = (GtkRequestedSize) { NULL, 0, 0 };

  for (guint r = 0; r < self->rows->len; r++)
    {
      AkcMarkdownTableRow *row = g_ptr_array_index (self->rows, r);

      for (guint c = 0; c < row->cells->len && c < self->n_columns; c++)
        {
          int min = 0, nat = 0;

          gtk_widget_measure (g_ptr_array_index (row->cells, c), GTK_ORIENTATION_HORIZONTAL, -1,
                              &min, &nat, NULL, NULL);
          sizes[c].minimum_size = MAX (sizes[c].minimum_size, min);
          sizes[c].natural_size = MAX (sizes[c].natural_size, nat);
        }
    }

  for (guint c = 0; c < self->n_columns; c++)
    {
      sum_min += sizes[c].minimum_size;
      sum_nat += sizes[c].natural_size;
    }

  if (width < 0 || width >= sum_nat)
    {
      for (guint c = 0; c < self->n_columns; c++)
        widths[c] = sizes[c].natural_size;
      return;
    }

  /* Each column its minimum, and what is left to those that want more. */
  if (width > sum_min)
    gtk_distribute_natural_allocation (width - sum_min, self->n_columns, sizes);
  for (guint c = 0; c < self->n_columns; c++)
    widths[c] = sizes[c].minimum_size;
}

static void
akc_markdown_table_measure (GtkWidget      *widget,
                            GtkOrientation  orientation,
                            int             for_size,
                            int            *minimum,
                            int            *natural,
                            int            *minimum_baseline,
                            int            *natural_baseline)
{
  AkcMarkdownTable *self = AKC_MARKDOWN_TABLE (widget);

  *minimum = *natural = 0;

  for (guint r = 0; r < self->rows->len; r++)
    {
      int row_min = 0, row_nat = 0;

      gtk_widget_measure (g_ptr_array_index (self->rows, r), orientation, for_size,
                          &row_min, &row_nat, NULL, NULL);
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          *minimum = MAX (*minimum, row_min);
          *natural = MAX (*natural, row_nat);
        }
      else
        {
          *minimum += row_min;
          *natural += row_nat;
        }
    }

  /* Horizontally: every column can wrap down to its minimum. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int *widths = g_newa (int, MAX (self->n_columns, 1));

      compute_widths (self, 0, widths);
      *minimum = 0;
      for (guint c = 0; c < self->n_columns; c++)
        *minimum += widths[c];
      *natural = MAX (*natural, *minimum);
    }
}

static void
akc_markdown_table_size_allocate (GtkWidget *widget,
                                  int        width,
                                  int        height,
                                  int        baseline)
{
  AkcMarkdownTable *self = AKC_MARKDOWN_TABLE (widget);
  int y = 0;

  for (guint r = 0; r < self->rows->len; r++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, r);
      int row_height = 0;

      gtk_widget_measure (row, GTK_ORIENTATION_VERTICAL, width, NULL, &row_height, NULL, NULL);
      gtk_widget_allocate (row, width, row_height, -1,
                           gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, y)));
      y += row_height;
    }
}

static gboolean
on_cell_activate_link (GtkLabel         *label,
                       const char       *uri,
                       AkcMarkdownTable *self)
{
  gboolean handled = FALSE;

  g_signal_emit (self, signals[ACTIVATE_LINK], 0, uri, &handled);
  return handled;
}

static GtkWidget *
new_cell (AkcMarkdownTable      *self,
          const AkcMarkdownCell *cell)
{
  float xalign = cell->align == AKC_MARKDOWN_ALIGN_CENTER ? 0.5f
               : cell->align == AKC_MARKDOWN_ALIGN_RIGHT ? 1.0f
               : 0.0f;
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL,
                                   "xalign", xalign,
                                   "yalign", 0.0f,
                                   "justify", cell->align == AKC_MARKDOWN_ALIGN_CENTER ? GTK_JUSTIFY_CENTER
                                              : cell->align == AKC_MARKDOWN_ALIGN_RIGHT ? GTK_JUSTIFY_RIGHT
                                              : GTK_JUSTIFY_LEFT,
                                   "wrap", TRUE,
                                   "natural-wrap-mode", GTK_NATURAL_WRAP_NONE,
                                   "wrap-mode", PANGO_WRAP_WORD_CHAR,
                                   "accessible-role", cell->header ? GTK_ACCESSIBLE_ROLE_COLUMN_HEADER
                                                                  : GTK_ACCESSIBLE_ROLE_CELL,
                                   NULL);

  gtk_widget_add_css_class (label, "md-cell");
  if (cell->header)
    gtk_widget_add_css_class (label, "md-header");
  g_signal_connect_object (label, "activate-link", G_CALLBACK (on_cell_activate_link), self, 0);

  return label;
}

static void
set_cell (GtkLabel              *label,
          const AkcMarkdownCell *cell)
{
  /* The markup is the parser's, with every span of model text escaped. */
  if (g_strcmp0 (gtk_label_get_label (label), cell->markup) != 0)
    gtk_label_set_markup (label, cell->markup != NULL ? cell->markup : "");
}

static void
akc_markdown_table_dispose (GObject *object)
{
  AkcMarkdownTable *self = AKC_MARKDOWN_TABLE (object);

  for (guint r = 0; r < self->rows->len; r++)
    gtk_widget_unparent (g_ptr_array_index (self->rows, r));
  g_ptr_array_set_size (self->rows, 0);

  G_OBJECT_CLASS (akc_markdown_table_parent_class)->dispose (object);
}

static void
akc_markdown_table_finalize (GObject *object)
{
  g_ptr_array_unref (AKC_MARKDOWN_TABLE (object)->rows);

  G_OBJECT_CLASS (akc_markdown_table_parent_class)->finalize (object);
}

static void
akc_markdown_table_class_init (AkcMarkdownTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_markdown_table_dispose;
  object_class->finalize = akc_markdown_table_finalize;

  widget_class->measure = akc_markdown_table_measure;
  widget_class->size_allocate = akc_markdown_table_size_allocate;
  widget_class->get_request_mode = height_for_width;

  /* activate-link (uri) → handled: a link in a cell was activated, as
   * GtkLabel::activate-link. */
  signals[ACTIVATE_LINK] =
    g_signal_new ("activate-link",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  g_signal_accumulator_true_handled, NULL,
                  NULL,
                  G_TYPE_BOOLEAN, 1,
                  G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "markdowntable");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TABLE);
}

static void
akc_markdown_table_init (AkcMarkdownTable *self)
{
  self->rows = g_ptr_array_new ();
}

GtkWidget *
akc_markdown_table_new (const AkcMarkdownBlock *block)
{
  AkcMarkdownTable *self = g_object_new (AKC_TYPE_MARKDOWN_TABLE, NULL);

  akc_markdown_table_set_block (self, block);
  return GTK_WIDGET (self);
}

/* Shows the cells of @block (a table): cells that are there already get
 * their new text, rows are added or removed at the end, so a table that
 * streams in only ever changes its last row. */
void
akc_markdown_table_set_block (AkcMarkdownTable       *self,
                              const AkcMarkdownBlock *block)
{
  g_return_if_fail (AKC_IS_MARKDOWN_TABLE (self));
  g_return_if_fail (block != NULL && block->kind == AKC_MARKDOWN_GFM_TABLE);

  if (self->n_columns != block->n_columns)
    {
      for (guint r = 0; r < self->rows->len; r++)
        gtk_widget_unparent (g_ptr_array_index (self->rows, r));
      g_ptr_array_set_size (self->rows, 0);
      self->n_columns = block->n_columns;
    }

  for (guint i = 0; block->cells != NULL && i < block->cells->len; i++)
    {
      const AkcMarkdownCell *cell = g_ptr_array_index (block->cells, i);
      AkcMarkdownTableRow *row;
      GtkWidget *label;

      if (cell->column >= self->n_columns)
        continue;

      while (self->rows->len <= cell->row)
        {
          row = g_object_new (AKC_TYPE_MARKDOWN_TABLE_ROW, NULL);
          if (self->rows->len == 0)
            gtk_widget_add_css_class (GTK_WIDGET (row), "header");
          gtk_widget_insert_before (GTK_WIDGET (row), GTK_WIDGET (self), NULL);
          g_ptr_array_add (self->rows, row);
        }

      row = g_ptr_array_index (self->rows, cell->row);
      if (cell->column < row->cells->len)
        {
          label = g_ptr_array_index (row->cells, cell->column);
        }
      else
        {
          /* md4c writes every row's cells in order, all of them. */
          label = new_cell (self, cell);
          gtk_widget_insert_before (label, GTK_WIDGET (row), NULL);
          g_ptr_array_add (row->cells, label);
        }
      set_cell (GTK_LABEL (label), cell);
    }

  while (self->rows->len > block->n_rows)
    {
      GtkWidget *row = g_ptr_array_steal_index (self->rows, self->rows->len - 1);

      gtk_widget_unparent (row);
    }

  gtk_widget_queue_resize (GTK_WIDGET (self));
}

guint
akc_markdown_table_get_n_rows (AkcMarkdownTable *self)
{
  g_return_val_if_fail (AKC_IS_MARKDOWN_TABLE (self), 0);

  return self->rows->len;
}

/* The label of a cell, or %NULL when there is none. */
GtkWidget *
akc_markdown_table_get_cell (AkcMarkdownTable *self,
                             guint             row,
                             guint             column)
{
  AkcMarkdownTableRow *table_row;

  g_return_val_if_fail (AKC_IS_MARKDOWN_TABLE (self), NULL);

  if (row >= self->rows->len)
    return NULL;
  table_row = g_ptr_array_index (self->rows, row);
  return column < table_row->cells->len ? g_ptr_array_index (table_row->cells, column) : NULL;
}

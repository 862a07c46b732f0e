/* akc-table-view.c: the `table` component (application §1.13, §12.6)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "akc-component-widget-private.h"
#include "akc-gtk-main.h"

/* A caption, a header row with the column labels, then the body rows. A
 * cell shows row[column.key]: "" when missing or null, `true`/`false` for
 * booleans, numbers by §0.7, strings verbatim. Display only.
 *
 * The rows (up to 1000 × 30 columns) are a GtkColumnView over a lazy
 * GListModel inside a scrolled window of bounded height: only the visible
 * rows have widgets, and each cell is a GtkInscription.
 *
 * CSS: `componenttable.component`. Accessibility: role table, named by the
 * caption; the column view inside is its row group. */

/* ------------------------------------------------------------------ */
/* AkcTableRow: one row object of the model                             */
/* ------------------------------------------------------------------ */

#define AKC_TYPE_TABLE_ROW (akc_table_row_get_type ())
G_DECLARE_FINAL_TYPE (AkcTableRow, akc_table_row, AKC, TABLE_ROW, GObject)

struct _AkcTableRow
{
  GObject       parent_instance;
  AkcJsonValue *cells;   /* the row object */
};

G_DEFINE_FINAL_TYPE (AkcTableRow, akc_table_row, G_TYPE_OBJECT)

static void
akc_table_row_finalize (GObject *object)
{
  g_clear_pointer (&AKC_TABLE_ROW (object)->cells, akc_json_value_unref);

  G_OBJECT_CLASS (akc_table_row_parent_class)->finalize (object);
}

static void
akc_table_row_class_init (AkcTableRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_table_row_finalize;
}

static void
akc_table_row_init (AkcTableRow *self)
{
}

/* ------------------------------------------------------------------ */
/* AkcTableRowModel: rows made on demand from the props array           */
/* ------------------------------------------------------------------ */

#define AKC_TYPE_TABLE_ROW_MODEL (akc_table_row_model_get_type ())
G_DECLARE_FINAL_TYPE (AkcTableRowModel, akc_table_row_model, AKC, TABLE_ROW_MODEL, GObject)

struct _AkcTableRowModel
{
  GObject       parent_instance;
  AkcJsonValue *rows;    /* the props array */
  GPtrArray    *items;   /* AkcTableRow or NULL until asked for */
};

static GType
akc_table_row_model_get_item_type (GListModel *model)
{
  return AKC_TYPE_TABLE_ROW;
}

static guint
akc_table_row_model_get_n_items (GListModel *model)
{
  return AKC_TABLE_ROW_MODEL (model)->items->len;
}

static gpointer
akc_table_row_model_get_item (GListModel *model,
                              guint       position)
{
  AkcTableRowModel *self = AKC_TABLE_ROW_MODEL (model);
  AkcTableRow *row;

  if (position >= self->items->len)
    return NULL;

  row = g_ptr_array_index (self->items, position);
  if (row == NULL)
    {
      row = g_object_new (AKC_TYPE_TABLE_ROW, NULL);
      row->cells = akc_json_value_ref (akc_json_value_get_element (self->rows, position));
      g_ptr_array_index (self->items, position) = row;
    }

  return g_object_ref (row);
}

static void
akc_table_row_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = akc_table_row_model_get_item_type;
  iface->get_n_items = akc_table_row_model_get_n_items;
  iface->get_item = akc_table_row_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTableRowModel, akc_table_row_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, akc_table_row_model_list_model_init))

static void
akc_table_row_model_finalize (GObject *object)
{
  AkcTableRowModel *self = AKC_TABLE_ROW_MODEL (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->rows, akc_json_value_unref);

  G_OBJECT_CLASS (akc_table_row_model_parent_class)->finalize (object);
}

static void
akc_table_row_model_class_init (AkcTableRowModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_table_row_model_finalize;
}

static void
akc_table_row_model_init (AkcTableRowModel *self)
{
}

static void
unref_row (gpointer row)
{
  if (row != NULL)
    g_object_unref (row);
}

static GListModel *
akc_table_row_model_new (AkcJsonValue *rows)
{
  AkcTableRowModel *self = g_object_new (AKC_TYPE_TABLE_ROW_MODEL, NULL);
  gsize n = akc_props_get_length (rows);

  self->rows = rows != NULL ? akc_json_value_ref (rows) : NULL;
  self->items = g_ptr_array_new_full ((guint) n, unref_row);
  g_ptr_array_set_size (self->items, (guint) n);

  return G_LIST_MODEL (self);
}

/* ------------------------------------------------------------------ */
/* AkcTableView                                                        */
/* ------------------------------------------------------------------ */

#define AKC_TYPE_TABLE_VIEW (akc_table_view_get_type ())
G_DECLARE_FINAL_TYPE (AkcTableView, akc_table_view, AKC, TABLE_VIEW, GtkWidget)

struct _AkcTableView
{
  GtkWidget          parent_instance;

  GtkLabel          *caption;
  GtkColumnView     *column_view;
  GtkLabel          *empty;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcTableView, akc_table_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_COMPONENT_WIDGET, NULL))

/* The text of one cell (§12.6). */
static char *
cell_text (AkcJsonValue *row,
           const char   *key)
{
  AkcJsonValue *value = NULL;

  if (row != NULL && akc_json_value_get_kind (row) == AKC_JSON_KIND_OBJECT)
    value = akc_json_value_get_member (row, key);
  if (value == NULL)
    return g_strdup ("");

  switch (akc_json_value_get_kind (value))
    {
    case AKC_JSON_KIND_STRING:
      return g_strdup (akc_json_value_get_string (value, NULL));
    case AKC_JSON_KIND_NUMBER:
      return akc_component_format_number (akc_json_value_get_number (value));
    case AKC_JSON_KIND_BOOLEAN:
      return g_strdup (akc_json_value_get_boolean (value) ? "true" : "false");
    case AKC_JSON_KIND_NULL:
    case AKC_JSON_KIND_ARRAY:
    case AKC_JSON_KIND_OBJECT:
    default:
      return g_strdup ("");
    }
}

/* One column: its key and how wide its cells start. */
typedef struct {
  char *key;
  int   chars;
} Column;

static void
column_free (gpointer  data,
             GClosure *closure)
{
  Column *column = data;

  g_free (column->key);
  g_free (column);
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            Column                   *column)
{
  GtkWidget *inscription = gtk_inscription_new (NULL);

  gtk_inscription_set_xalign (GTK_INSCRIPTION (inscription), 0);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (inscription), column->chars);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (inscription), column->chars);
  gtk_list_item_set_child (item, inscription);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           Column                   *column)
{
  AkcTableRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = cell_text (row->cells, column->key);

  /* Plain text: GtkInscription never parses it. */
  gtk_inscription_set_text (GTK_INSCRIPTION (gtk_list_item_get_child (item)), text);
}

/* Columns are as wide as their label and the first rows need, within
 * bounds, so a table stays readable and scrolls sideways when narrow;
 * longer cells are cut (the full text is in the accessible tree). */
#define SAMPLED_ROWS   50
#define MIN_CELL_CHARS 3
#define MAX_CELL_CHARS 28

static int
column_chars (const char   *key,
              const char   *label,
              AkcJsonValue *rows)
{
  glong chars = g_utf8_strlen (label != NULL ? label : "", -1);
  gsize n = MIN (akc_props_get_length (rows), SAMPLED_ROWS);

  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *text = cell_text (akc_json_value_get_element (rows, i), key);

      chars = MAX (chars, g_utf8_strlen (text, -1));
    }

  return (int) CLAMP (chars + 1, MIN_CELL_CHARS, MAX_CELL_CHARS);
}

static void
akc_table_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), AKC_TYPE_TABLE_VIEW);
  akc_component_unparent_children (GTK_WIDGET (object));

  G_OBJECT_CLASS (akc_table_view_parent_class)->dispose (object);
}

static void
akc_table_view_class_init (AkcTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_table_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/agentskit/AkcGtk/akc-table-view.ui");
  gtk_widget_class_bind_template_child (widget_class, AkcTableView, caption);
  gtk_widget_class_bind_template_child (widget_class, AkcTableView, column_view);
  gtk_widget_class_bind_template_child (widget_class, AkcTableView, empty);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "componenttable");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TABLE);
}

static void
akc_table_view_init (AkcTableView *self)
{
  akc_gtk_init ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
akc_table_view_new (AkcJsonValue *props)
{
  AkcTableView *self = g_object_new (AKC_TYPE_TABLE_VIEW, NULL);
  const char *caption = akc_props_get_string (props, "caption");
  AkcJsonValue *columns = akc_props_get_array (props, "columns");
  AkcJsonValue *rows = akc_props_get_array (props, "rows");
  gsize n_columns = akc_props_get_length (columns);
  g_autoptr(GtkNoSelection) selection = NULL;

  gtk_label_set_text (self->caption, caption);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, caption,
                                  -1);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_RELATION_ROW_COUNT, (int) akc_props_get_length (rows),
                                  GTK_ACCESSIBLE_RELATION_COL_COUNT, (int) n_columns,
                                  -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, caption,
                                  -1);

  for (gsize i = 0; i < n_columns; i++)
    {
      AkcJsonValue *column = akc_props_get_object_at (columns, i);
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) view_column = NULL;
      const char *label = akc_props_get_string (column, "label");
      Column *data = g_new0 (Column, 1);

      data->key = g_strdup (akc_props_get_string (column, "key"));
      data->chars = column_chars (data->key, label, rows);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), data);
      g_signal_connect_data (factory, "bind", G_CALLBACK (cell_bind), data, column_free, 0);
      view_column = gtk_column_view_column_new (label, factory);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      gtk_column_view_column_set_expand (view_column, TRUE);
      gtk_column_view_append_column (self->column_view, view_column);
    }

  selection = gtk_no_selection_new (akc_table_row_model_new (rows));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  gtk_widget_set_visible (GTK_WIDGET (self->empty), akc_props_get_length (rows) == 0);

  return GTK_WIDGET (self);
}

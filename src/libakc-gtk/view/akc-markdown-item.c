/* akc-markdown-item.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-markdown-item-private.h"

/* AkcMarkdownItem: a block of rendered Markdown inside a list item or a
 * block quote: an optional marker ("•", "3.") in a column of its own, and
 * the block beside it, so wrapped lines hang under the text.
 *
 * A GtkBox would do the same, but it asks its children how wide they would
 * like to be, which for a wrapping label means laying its whole text out
 * on one line; the content here simply gets the width that is left, and is
 * only ever measured for its height at that width.
 *
 * CSS: `markdownitem` with a `label.md-marker`. */

struct _AkcMarkdownItem
{
  GtkWidget  parent_instance;

  GtkWidget *marker;
  GtkWidget *content;
  int        marker_width;
};

G_DEFINE_FINAL_TYPE (AkcMarkdownItem, akc_markdown_item, GTK_TYPE_WIDGET)

static int
marker_column (AkcMarkdownItem *self)
{
  int natural = 0;

  if (self->marker == NULL)
    return self->marker_width;

  gtk_widget_measure (self->marker, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  return MAX (self->marker_width, natural + 4);
}

static void
akc_markdown_item_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  AkcMarkdownItem *self = AKC_MARKDOWN_ITEM (widget);
  int column = marker_column (self);
  int marker_min = 0, marker_nat = 0;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      /* The content wraps to whatever width it gets. */
      *minimum = *natural = column;
      return;
    }

  gtk_widget_measure (self->content, GTK_ORIENTATION_VERTICAL, for_size < 0 ? -1 : MAX (for_size - column, 0),
                      minimum, natural, NULL, NULL);
  if (self->marker != NULL)
    {
      gtk_widget_measure (self->marker, GTK_ORIENTATION_VERTICAL, column, &marker_min, &marker_nat, NULL, NULL);
      *minimum = MAX (*minimum, marker_min);
      *natural = MAX (*natural, marker_nat);
    }
}

static void
akc_markdown_item_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  AkcMarkdownItem *self = AKC_MARKDOWN_ITEM (widget);
  int column = MIN (marker_column (self), width);

  if (self->marker != NULL)
    {
      int marker_height = 0;

      gtk_widget_measure (self->marker, GTK_ORIENTATION_VERTICAL, column, NULL, &marker_height, NULL, NULL);
      gtk_widget_allocate (self->marker, column, MIN (marker_height, height), -1, NULL);
    }

  gtk_widget_allocate (self->content, width - column, height, -1,
                       gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (column, 0)));
}

static GtkSizeRequestMode
akc_markdown_item_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
akc_markdown_item_dispose (GObject *object)
{
  AkcMarkdownItem *self = AKC_MARKDOWN_ITEM (object);

  g_clear_pointer (&self->marker, gtk_widget_unparent);
  g_clear_pointer (&self->content, gtk_widget_unparent);

  G_OBJECT_CLASS (akc_markdown_item_parent_class)->dispose (object);
}

static void
akc_markdown_item_class_init (AkcMarkdownItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = akc_markdown_item_dispose;

  widget_class->measure = akc_markdown_item_measure;
  widget_class->size_allocate = akc_markdown_item_size_allocate;
  widget_class->get_request_mode = akc_markdown_item_get_request_mode;

  gtk_widget_class_set_css_name (widget_class, "markdownitem");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
akc_markdown_item_init (AkcMarkdownItem *self)
{
}

/* @marker (nullable) in a column at least @marker_width wide, @content
 * (taken) beside it. */
GtkWidget *
akc_markdown_item_new (const char *marker,
                       int         marker_width,
                       GtkWidget  *content)
{
  AkcMarkdownItem *self = g_object_new (AKC_TYPE_MARKDOWN_ITEM, NULL);

  self->marker_width = marker_width;
  if (marker != NULL)
    {
      /* The list's structure is in the text for assistive technologies
       * already (a list item is a group); the bullet is decoration. */
      self->marker = g_object_new (GTK_TYPE_LABEL,
                                   "label", marker,
                                   "xalign", 0.0f,
                                   "yalign", 0.0f,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                   NULL);
      gtk_widget_add_css_class (self->marker, "md-marker");
      gtk_widget_set_parent (self->marker, GTK_WIDGET (self));
    }

  self->content = content;
  gtk_widget_set_parent (content, GTK_WIDGET (self));

  return GTK_WIDGET (self);
}

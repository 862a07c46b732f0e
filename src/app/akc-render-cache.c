/* akc-render-cache.c: what the cairo renderer draws again unchanged, drawn once
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <math.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include "akc-render-cache.h"

/* GTK 4.8's cairo renderer draws a frame by walking every render node of
 * the window, whatever the frame changed: cairo's clip keeps what is
 * outside the region redrawn from the screen, but each node still costs
 * its drawing but the pixels (a cairo save and restore, a text node's
 * glyphs turned into cairo's by Pango, an icon's texture copied into a new
 * cairo surface). GTK keeps a widget's render node while nothing in it
 * changes, so most of a frame's nodes are the last frame's, the same
 * pointers: the header bar, the sidebar, the composer, the finished
 * blocks of the message being written.
 *
 * A window's drawing goes through this cache before the renderer sees it.
 * A part found again as it was in the last frame is drawn once into an
 * image surface at the device's scale and replaced by one cairo node
 * painting that image (the cairo renderer paints a cairo node's
 * recording; a texture node would be copied into a new surface every
 * frame). As long as the part stays the same node, the frame draws that
 * node, the same pointer, and GTK's diff of the frame finds nothing to
 * compare in it.
 *
 * The image has the pixels the renderer would have drawn: its origin is on
 * a device pixel, where the part is on the screen, and it is drawn on what
 * the frame paints under the part when that is known to be colours over
 * all of it (the window's background, a header bar's, a translucent tint
 * on them), so its parts are composed in the same order on the same
 * pixels. Composed on nothing first and then on the screen, two parts
 * that overlap with some transparency (text on a translucent row) would
 * round otherwise by one in 8 bits; so where what is under a part is not
 * known, an image is made of it only when it first paints all of itself
 * with one opaque colour or no two of its parts touch the same pixel, and
 * otherwise of its parts. Parts wholly outside a clip (messages scrolled
 * away) are left out of the frame: they draw nothing.
 *
 * Only the parts the frame could compose by translations are cached; a
 * node under any other transform is left as it is. Parts larger than
 * MAX_IMAGE_PIXELS are not drawn into one image, their parts are. */

#define MAX_IMAGE_PIXELS (1024 * 1024)
#define MAX_IMAGE_SIDE 4096

#define MAX_BACKDROP 4

/* A frame that draws this many pixels into new images has its memory
 * given back after it (see give_back_memory()). */
#define TRIM_AFTER_PIXELS (64 * 1024)
#define TRIM_DELAY_MS 500

/* What is under a node: colours each over all of it, the first opaque
 * (none: nothing known). */
typedef struct {
  guint   n;
  GdkRGBA colors[MAX_BACKDROP];
} Backdrop;

static gboolean
backdrop_equal (const Backdrop *a,
                const Backdrop *b)
{
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    if (!gdk_rgba_equal (&a->colors[i], &b->colors[i]))
      return FALSE;
  return TRUE;
}

typedef struct {
  GskRenderNode *node;     /* owned: the pointer is what is compared */
  double         fx, fy;   /* where in a device pixel it starts */
  Backdrop       backdrop; /* what is under it, in the image */
  gint8          alone;    /* its image alone has its pixels: -1 not known yet */
  GskRenderNode *image;    /* owned, or NULL: seen once, not drawn yet */
} Entry;

/* What the frame paints before a node, as far as the walk knows it: the
 * box it may paint (the window's coordinates), and its colour when it
 * paints all of the box with one colour. */
typedef struct {
  graphene_rect_t box;
  gboolean        uniform;
  GdkRGBA         color;
} Painted;

struct _AkcRenderCache
{
  int         scale;
  GHashTable *last;        /* GskRenderNode * -> Entry *: what the last frame drew */
  GHashTable *now;         /* what this frame draws */
  guint       n_images;
  gsize       new_pixels;  /* drawn into new images this frame */
  guint       trim_source;
  guint       n_trims;
};

static void
entry_free (Entry *entry)
{
  gsk_render_node_unref (entry->node);
  g_clear_pointer (&entry->image, gsk_render_node_unref);
  g_free (entry);
}

static GHashTable *
entry_table_new (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) entry_free);
}

AkcRenderCache *
akc_render_cache_new (void)
{
  AkcRenderCache *cache = g_new0 (AkcRenderCache, 1);

  cache->last = entry_table_new ();
  cache->now = entry_table_new ();
  return cache;
}

void
akc_render_cache_free (AkcRenderCache *cache)
{
  if (cache == NULL)
    return;
  g_clear_handle_id (&cache->trim_source, g_source_remove);
  g_hash_table_unref (cache->last);
  g_hash_table_unref (cache->now);
  g_free (cache);
}

/* Forgets every image (the next frame draws everything as it is). */
void
akc_render_cache_clear (AkcRenderCache *cache)
{
  g_return_if_fail (cache != NULL);

  g_hash_table_remove_all (cache->last);
  g_hash_table_remove_all (cache->now);
  cache->n_images = 0;
}

/* How many times the memory was given back after frames that made large
 * images (for tests). */
guint
akc_render_cache_get_n_trims (AkcRenderCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);

  return cache->n_trims;
}

/* The images the last frame drew from. */
guint
akc_render_cache_get_n_images (AkcRenderCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);

  return cache->n_images;
}

static double
fraction (double x)
{
  return x - floor (x);
}

/* Nodes drawn once into an image: those whose drawing costs more than
 * painting an image does. A colour, a border or a shadow is one cairo
 * fill either way. */
static gboolean
worth_an_image (GskRenderNodeType type)
{
  switch (type)
    {
    case GSK_CONTAINER_NODE:
    case GSK_TRANSFORM_NODE:
    case GSK_CLIP_NODE:
    case GSK_ROUNDED_CLIP_NODE:
    case GSK_OPACITY_NODE:
    case GSK_COLOR_MATRIX_NODE:
    case GSK_TEXT_NODE:
    case GSK_TEXTURE_NODE:
    case GSK_DEBUG_NODE:
      return TRUE;

    default:
      return FALSE;
    }
}

/* The device pixels @bounds covers at @ox, @oy (the translation of the
 * node's coordinates in the window's). */
static gboolean
device_box (const graphene_rect_t *bounds,
            double                 ox,
            double                 oy,
            int                    scale,
            double                *x0,
            double                *y0,
            int                   *width,
            int                   *height)
{
  double x1, y1;

  *x0 = floor ((bounds->origin.x + ox) * scale);
  *y0 = floor ((bounds->origin.y + oy) * scale);
  x1 = ceil ((bounds->origin.x + bounds->size.width + ox) * scale);
  y1 = ceil ((bounds->origin.y + bounds->size.height + oy) * scale);
  if (x1 - *x0 < 1 || y1 - *y0 < 1 || x1 - *x0 > MAX_IMAGE_SIDE || y1 - *y0 > MAX_IMAGE_SIDE ||
      (x1 - *x0) * (y1 - *y0) > MAX_IMAGE_PIXELS)
    return FALSE;
  *width = (int) (x1 - *x0);
  *height = (int) (y1 - *y0);
  return TRUE;
}

/* @node drawn into an image whose pixels are the device's, and a cairo
 * node painting it in @node's place. */
static GskRenderNode *
draw_image (GskRenderNode *node,
            const Backdrop *backdrop,
            double         ox,
            double         oy,
            int            scale,
            double         x0,
            double         y0,
            int            width,
            int            height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  /* The image's top left corner in @node's coordinates. */
  double lx = x0 / scale - ox, ly = y0 / scale - oy;
  GskRenderNode *image;
  cairo_t *cr;

  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  /* What is under the node, painted as the frame paints it. */
  for (guint i = backdrop->n; i-- > 0;)
    {
      gdk_cairo_set_source_rgba (cr, &backdrop->colors[i]);
      cairo_paint (cr);
    }
  cairo_translate (cr, -lx, -ly);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);

  {
    double bx = floor (lx), by = floor (ly);
    image = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (bx, by, ceil (lx + (double) width / scale) - bx, ceil (ly + (double) height / scale) - by));
  }
  cr = gsk_cairo_node_get_draw_context (image);
  cairo_set_source_surface (cr, surface, lx, ly);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  return image;
}

typedef struct {
  AkcRenderCache *cache;
  int             scale;
  GArray         *painted;  /* Painted, in the order the frame paints */
  guint           in_group; /* below an opacity: nothing is known to be under */
} Walk;

static void
add_painted (Walk                  *w,
             const graphene_rect_t *box,
             const graphene_rect_t *clip,
             gboolean               uniform,
             const GdkRGBA         *color)
{
  Painted painted = { *box, uniform && w->in_group == 0, { 0, 0, 0, 0 } };

  if (clip != NULL && !graphene_rect_intersection (&painted.box, clip, &painted.box))
    return;
  if (painted.uniform)
    painted.color = *color;
  g_array_append_val (w->painted, painted);
}

/* What @node, drawn at @ox, @oy in @clip, paints: where, and what colour
 * if it is one. An inset shadow (a window's border) paints a frame along
 * its outline, not what the frame surrounds. */
static void
add_painted_node (Walk                  *w,
                  GskRenderNode         *node,
                  double                 ox,
                  double                 oy,
                  const graphene_rect_t *clip)
{
  graphene_rect_t box;

  gsk_render_node_get_bounds (node, &box);
  box.origin.x += ox;
  box.origin.y += oy;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_COLOR_NODE:
      {
        const GdkRGBA *color = gsk_color_node_get_color (node);

        add_painted (w, &box, clip, TRUE, color);
      }
      return;

    case GSK_INSET_SHADOW_NODE:
      if (gsk_inset_shadow_node_get_blur_radius (node) == 0)
        {
          float edge = gsk_inset_shadow_node_get_spread (node) +
                       MAX (fabsf (gsk_inset_shadow_node_get_dx (node)), fabsf (gsk_inset_shadow_node_get_dy (node))) + 1;
          float x = box.origin.x, y = box.origin.y, width = box.size.width, height = box.size.height;

          if (2 * edge < width && 2 * edge < height)
            {
              add_painted (w, &GRAPHENE_RECT_INIT (x, y, width, edge), clip, FALSE, NULL);
              add_painted (w, &GRAPHENE_RECT_INIT (x, y + height - edge, width, edge), clip, FALSE, NULL);
              add_painted (w, &GRAPHENE_RECT_INIT (x, y, edge, height), clip, FALSE, NULL);
              add_painted (w, &GRAPHENE_RECT_INIT (x + width - edge, y, edge, height), clip, FALSE, NULL);
              return;
            }
        }
      break;

    case GSK_CONTAINER_NODE:
      /* A widget's background (its colours) given before the walk. */
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        add_painted_node (w, gsk_container_node_get_child (node, i), ox, oy, clip);
      return;

    default:
      break;
    }

  add_painted (w, &box, clip, FALSE, NULL);
}

/* What is under @box when the frame gets to it: one colour (transparent
 * when nothing is), as the last thing painted there paints all of @box
 * with it; or FALSE, when what is under it is not one colour. An image
 * of a node drawn on its backdrop has the pixels the renderer would
 * leave there: the node's drawing composed on what is under it, in the
 * same order. */
static gboolean
find_backdrop (Walk                  *w,
               const graphene_rect_t *drawn,
               const graphene_rect_t *clip,
               Backdrop              *backdrop)
{
  graphene_rect_t shown = *drawn;
  const graphene_rect_t *box = &shown;

  backdrop->n = 0;
  if (w->in_group > 0)
    return FALSE;
  /* Only what the clip shows of it is on the screen. */
  if (clip != NULL && !graphene_rect_intersection (&shown, clip, &shown))
    return FALSE;

  for (guint i = w->painted->len; i-- > 0;)
    {
      const Painted *painted = &g_array_index (w->painted, Painted, i);

      if (!graphene_rect_intersection (&painted->box, box, NULL))
        continue;
      if (!painted->uniform || !graphene_rect_contains_rect (&painted->box, box) || backdrop->n == MAX_BACKDROP)
        break;
      backdrop->colors[backdrop->n++] = painted->color;
      if (painted->color.alpha >= 1)
        return TRUE;
    }

  /* Under the first thing drawn is what the widget's own background is
   * (GTK draws it before the widget's snapshot), when it is not given. */
  backdrop->n = 0;
  return FALSE;
}

#define MAX_LAYERS 48

/* The device pixels each part of @node paints, as far as it is taken
 * apart (a group, an opacity, is one part), into @boxes. */
static gboolean
collect_layers (GskRenderNode *node,
                double         ox,
                double         oy,
                int            scale,
                GArray        *boxes)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        if (!collect_layers (gsk_container_node_get_child (node, i), ox, oy, scale, boxes))
          return FALSE;
      return TRUE;

    case GSK_TRANSFORM_NODE:
      {
        GskTransform *transform = gsk_transform_node_get_transform (node);
        float dx, dy;

        if (gsk_transform_get_category (transform) < GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          break;
        gsk_transform_to_translate (transform, &dx, &dy);
        return collect_layers (gsk_transform_node_get_child (node), ox + dx, oy + dy, scale, boxes);
      }

    case GSK_CLIP_NODE:
      return collect_layers (gsk_clip_node_get_child (node), ox, oy, scale, boxes);

    case GSK_ROUNDED_CLIP_NODE:
      return collect_layers (gsk_rounded_clip_node_get_child (node), ox, oy, scale, boxes);

    case GSK_DEBUG_NODE:
      return collect_layers (gsk_debug_node_get_child (node), ox, oy, scale, boxes);

    default:
      break;
    }

  {
    graphene_rect_t bounds;
    double x0, y0;
    int width, height;

    if (boxes->len >= MAX_LAYERS)
      return FALSE;
    gsk_render_node_get_bounds (node, &bounds);
    if (bounds.size.width <= 0 || bounds.size.height <= 0)
      return TRUE;
    if (!device_box (&bounds, ox, oy, scale, &x0, &y0, &width, &height))
      return FALSE;
    bounds = GRAPHENE_RECT_INIT (x0, y0, width, height);
    g_array_append_val (boxes, bounds);
    return TRUE;
  }
}

/* The first thing @node paints, if it is one opaque colour. */
static GskRenderNode *
first_color (GskRenderNode *node,
             double        *ox,
             double        *oy)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      if (gsk_container_node_get_n_children (node) == 0)
        return NULL;
      return first_color (gsk_container_node_get_child (node, 0), ox, oy);

    case GSK_TRANSFORM_NODE:
      {
        GskTransform *transform = gsk_transform_node_get_transform (node);
        float dx, dy;

        if (gsk_transform_get_category (transform) < GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          return NULL;
        gsk_transform_to_translate (transform, &dx, &dy);
        *ox += dx;
        *oy += dy;
        return first_color (gsk_transform_node_get_child (node), ox, oy);
      }

    case GSK_COLOR_NODE:
      return gsk_color_node_get_color (node)->alpha >= 1 ? node : NULL;

    default:
      return NULL;
    }
}

/* Whether an image of @node drawn on nothing has the pixels the renderer
 * leaves, whatever is under it: when the node first paints all of its
 * image with one opaque colour, or when no two of its parts paint the
 * same pixel (one layer composed on what is under it once, in the image
 * or on the screen, is the same sum). Where two parts with some
 * transparency overlap (text on a translucent background), composing
 * them first rounds otherwise. */
static gboolean
alone_is_exact (GskRenderNode *node,
                double         ox,
                double         oy,
                int            scale,
                double         x0,
                double         y0,
                int            width,
                int            height)
{
  double cx = ox, cy = oy;
  GskRenderNode *color = first_color (node, &cx, &cy);
  g_autoptr(GArray) boxes = NULL;

  if (color != NULL)
    {
      graphene_rect_t bounds;
      double bx, by;
      int bw, bh;

      gsk_render_node_get_bounds (color, &bounds);
      if (device_box (&bounds, cx, cy, scale, &bx, &by, &bw, &bh) &&
          (bounds.origin.x + cx) * scale <= x0 && (bounds.origin.y + cy) * scale <= y0 &&
          (bounds.origin.x + bounds.size.width + cx) * scale >= x0 + width &&
          (bounds.origin.y + bounds.size.height + cy) * scale >= y0 + height)
        return TRUE;
    }

  boxes = g_array_new (FALSE, FALSE, sizeof (graphene_rect_t));
  if (!collect_layers (node, ox, oy, scale, boxes))
    return FALSE;
  for (guint i = 0; i < boxes->len; i++)
    for (guint j = i + 1; j < boxes->len; j++)
      if (graphene_rect_intersection (&g_array_index (boxes, graphene_rect_t, i),
                                      &g_array_index (boxes, graphene_rect_t, j), NULL))
        return FALSE;
  return TRUE;
}

static GskRenderNode *walk (Walk                  *w,
                            GskRenderNode         *node,
                            double                 ox,
                            double                 oy,
                            const graphene_rect_t *clip);

/* @child's replacement, in a node like @node (a clip, an opacity...) made
 * again only if it changed. */
#define REBUILD(node, child, replaced, make) \
  ((replaced) == NULL ? NULL : (replaced) == (child) ? (gsk_render_node_unref (replaced), gsk_render_node_ref (node)) \
                                                     : (make))

static GskRenderNode *
walk_container (Walk                  *w,
                GskRenderNode         *node,
                double                 ox,
                double                 oy,
                const graphene_rect_t *clip)
{
  guint n = gsk_container_node_get_n_children (node);
  g_autofree GskRenderNode **children = g_new (GskRenderNode *, MAX (n, 1));
  guint kept = 0;
  gboolean changed = FALSE;
  GskRenderNode *result;

  for (guint i = 0; i < n; i++)
    {
      GskRenderNode *child = gsk_container_node_get_child (node, i);
      GskRenderNode *replaced = walk (w, child, ox, oy, clip);

      changed |= replaced != child;
      if (replaced != NULL)
        children[kept++] = replaced;
    }

  if (!changed)
    result = gsk_render_node_ref (node);
  else if (kept == 0)
    result = NULL;
  else if (kept == 1)
    return children[0];
  else
    result = gsk_container_node_new (children, kept);

  for (guint i = 0; i < kept; i++)
    gsk_render_node_unref (children[i]);
  return result;
}

static GskRenderNode *
walk_children (Walk                  *w,
               GskRenderNode         *node,
               double                 ox,
               double                 oy,
               const graphene_rect_t *clip)
{
  GskRenderNode *child, *replaced;
  graphene_rect_t inner;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      return walk_container (w, node, ox, oy, clip);

    case GSK_TRANSFORM_NODE:
      {
        GskTransform *transform = gsk_transform_node_get_transform (node);
        float dx, dy;

        /* Only a translation keeps the device's pixels where they were. */
        if (gsk_transform_get_category (transform) < GSK_TRANSFORM_CATEGORY_2D_TRANSLATE)
          {
            add_painted_node (w, node, ox, oy, clip);
            return gsk_render_node_ref (node);
          }
        gsk_transform_to_translate (transform, &dx, &dy);
        child = gsk_transform_node_get_child (node);
        replaced = walk (w, child, ox + dx, oy + dy, clip);
        return REBUILD (node, child, replaced, gsk_transform_node_new (replaced, transform));
      }

    case GSK_CLIP_NODE:
      inner = *gsk_clip_node_get_clip (node);
      inner.origin.x += ox;
      inner.origin.y += oy;
      if (clip != NULL && !graphene_rect_intersection (&inner, clip, &inner))
        return NULL;
      child = gsk_clip_node_get_child (node);
      replaced = walk (w, child, ox, oy, &inner);
      return REBUILD (node, child, replaced, gsk_clip_node_new (replaced, gsk_clip_node_get_clip (node)));

    case GSK_ROUNDED_CLIP_NODE:
      inner = gsk_rounded_clip_node_get_clip (node)->bounds;
      inner.origin.x += ox;
      inner.origin.y += oy;
      if (clip != NULL && !graphene_rect_intersection (&inner, clip, &inner))
        return NULL;
      child = gsk_rounded_clip_node_get_child (node);
      replaced = walk (w, child, ox, oy, &inner);
      return REBUILD (node, child, replaced,
                      gsk_rounded_clip_node_new (replaced, gsk_rounded_clip_node_get_clip (node)));

    case GSK_OPACITY_NODE:
      child = gsk_opacity_node_get_child (node);
      w->in_group++;
      replaced = walk (w, child, ox, oy, clip);
      w->in_group--;
      if (w->in_group == 0)
        add_painted_node (w, node, ox, oy, clip);
      return REBUILD (node, child, replaced, gsk_opacity_node_new (replaced, gsk_opacity_node_get_opacity (node)));

    default:
      add_painted_node (w, node, ox, oy, clip);
      return gsk_render_node_ref (node);
    }
}

/* What the frame draws for @node, whose coordinates are the window's
 * translated by @ox, @oy, inside @clip (the window's coordinates, or NULL
 * for none): @node itself, an image of it, the same with images of its
 * parts, or NULL when it is wholly outside @clip. */
static GskRenderNode *
walk (Walk                  *w,
      GskRenderNode         *node,
      double                 ox,
      double                 oy,
      const graphene_rect_t *clip)
{
  GskRenderNodeType type = gsk_render_node_get_node_type (node);
  graphene_rect_t bounds;
  double x0, y0;
  int width, height;

  gsk_render_node_get_bounds (node, &bounds);
  if (clip != NULL)
    {
      graphene_rect_t shown = GRAPHENE_RECT_INIT (bounds.origin.x + ox, bounds.origin.y + oy,
                                                  bounds.size.width, bounds.size.height);

      if (!graphene_rect_intersection (&shown, clip, NULL))
        return NULL;
    }

  if (worth_an_image (type) && device_box (&bounds, ox, oy, w->scale, &x0, &y0, &width, &height))
    {
      double fx = fraction (ox * w->scale), fy = fraction (oy * w->scale);
      graphene_rect_t box = GRAPHENE_RECT_INIT (x0 / w->scale, y0 / w->scale,
                                                (float) width / w->scale, (float) height / w->scale);
      Backdrop backdrop;
      Entry *entry = NULL;

      /* When what is under it is not known, drawn on nothing. */
      find_backdrop (w, &box, clip, &backdrop);

      if (g_hash_table_steal_extended (w->cache->last, node, NULL, (gpointer *) &entry))
        {
          /* The same node as in the last frame: it does not change, draw
           * it once, where it is within a pixel (where it was, unless it
           * moved, as a message does when the transcript scrolls). */
          if (entry->fx != fx || entry->fy != fy || !backdrop_equal (&entry->backdrop, &backdrop))
            {
              g_clear_pointer (&entry->image, gsk_render_node_unref);
              entry->alone = -1;
            }
          entry->fx = fx;
          entry->fy = fy;
          entry->backdrop = backdrop;
          if (entry->image == NULL && backdrop.n == 0 && entry->alone < 0)
            entry->alone = alone_is_exact (node, ox, oy, w->scale, x0, y0, width, height);
          if (entry->image == NULL && (backdrop.n > 0 || entry->alone == 1))
            {
              entry->image = draw_image (node, &backdrop, ox, oy, w->scale, x0, y0, width, height);
              w->cache->new_pixels += (gsize) width * height;
            }
          g_hash_table_insert (w->cache->now, node, entry);
        }
      else if ((entry = g_hash_table_lookup (w->cache->now, node)) == NULL)
        {
          /* New in this frame: drawn as it is, once. */
          entry = g_new0 (Entry, 1);
          entry->node = gsk_render_node_ref (node);
          entry->fx = fx;
          entry->fy = fy;
          entry->backdrop = backdrop;
          entry->alone = -1;
          g_hash_table_insert (w->cache->now, node, entry);
        }
      else if (entry->fx != fx || entry->fy != fy || !backdrop_equal (&entry->backdrop, &backdrop))
        entry = NULL;   /* drawn twice in one frame, elsewhere */

      if (entry != NULL && entry->image != NULL)
        {
          w->cache->n_images++;
          add_painted (w, &box, clip, FALSE, NULL);
          return gsk_render_node_ref (entry->image);
        }
    }

  return walk_children (w, node, ox, oy, clip);
}

#ifdef __GLIBC__
static gboolean
trim_memory (gpointer user_data)
{
  AkcRenderCache *cache = user_data;

  cache->trim_source = 0;
  cache->n_trims++;
  malloc_trim (0);
  return G_SOURCE_REMOVE;
}
#endif

/* A part drawn from an image for the first time is a new node to GTK,
 * whose diff of the frame cannot know its pixels are the ones it had: the
 * frame repaints all of it (most of the window, when the images are first
 * made), and GDK's surface for that frame, as large as what it repaints,
 * is freed into malloc's free lists after it, which keep its pages (2 MiB
 * after the start, 4% of the process at idle). Half a second after a frame
 * that made large images (those of the frames in between too), they are
 * given back to the system. */
static void
give_back_memory (AkcRenderCache *cache)
{
#ifdef __GLIBC__
  if (cache->new_pixels < TRIM_AFTER_PIXELS || cache->trim_source != 0)
    return;
  cache->trim_source = g_timeout_add_full (G_PRIORITY_LOW, TRIM_DELAY_MS, trim_memory, cache, NULL);
  g_source_set_name_by_id (cache->trim_source, "[akc] render cache trim");
#endif
}

/**
 * akc_render_cache_process:
 * @cache: the cache of one widget's drawing
 * @node: what the widget drew this frame
 * @origin: where @node's origin is in the window's surface, in its
 *   coordinates (the device's pixels are these times @scale)
 * @scale: the surface's scale
 * @background: (nullable): what GTK draws under @node, in its
 *   coordinates, if it is known: a clip node of colours
 *
 * What to draw instead of @node: the parts of it that the last call was
 * given too drawn from images, those outside the clips left out.
 *
 * Returns: (transfer full) (nullable): the node to draw
 */
GskRenderNode *
akc_render_cache_process (AkcRenderCache         *cache,
                          GskRenderNode          *node,
                          const graphene_point_t *origin,
                          int                     scale,
                          GskRenderNode          *background)
{
  Walk w = { cache, MAX (scale, 1), NULL, 0 };
  GskRenderNode *result;
  GHashTable *last;

  g_return_val_if_fail (cache != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  if (cache->scale != w.scale)
    akc_render_cache_clear (cache);
  cache->scale = w.scale;
  cache->n_images = 0;
  cache->new_pixels = 0;

  w.painted = g_array_new (FALSE, FALSE, sizeof (Painted));
  if (background != NULL && gsk_render_node_get_node_type (background) == GSK_CLIP_NODE)
    {
      graphene_rect_t inside = *gsk_clip_node_get_clip (background);

      inside.origin.x += origin->x;
      inside.origin.y += origin->y;
      add_painted_node (&w, gsk_clip_node_get_child (background), origin->x, origin->y, &inside);
    }
  result = walk (&w, node, origin->x, origin->y, NULL);
  g_array_unref (w.painted);

  /* What this frame did not draw, the next cannot reuse. */
  last = cache->last;
  cache->last = cache->now;
  cache->now = last;
  g_hash_table_remove_all (cache->now);
  give_back_memory (cache);

  return result;
}

/* Whether @widget's window draws with the cairo renderer: only it walks
 * every node of every frame (GL's renderer keeps its own caches). */
gboolean
akc_render_cache_wanted (GtkWidget *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  if (renderer == NULL || !GSK_IS_CAIRO_RENDERER (renderer))
    return FALSE;
  return g_strcmp0 (g_getenv ("AKC_RENDER_CACHE"), "0") != 0;
}

/* What GTK draws under @widget's snapshot: its CSS background (drawn by
 * GTK itself, the same way), when that is one colour, and only over the
 * widget's own size (a window's border is drawn in its margin, around
 * it). */
static GskRenderNode *
widget_background (GtkWidget *widget)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr(GskRenderNode) node = NULL;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_snapshot_render_background (snapshot, gtk_widget_get_style_context (widget), 0, 0, width, height);
  G_GNUC_END_IGNORE_DEPRECATIONS
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;
  return gsk_clip_node_new (node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* Snapshots @widget with @snapshot_func (its class's parent's), through
 * @cache when the window draws with the cairo renderer. */
void
akc_render_cache_snapshot (AkcRenderCache *cache,
                           GtkWidget      *widget,
                           GtkSnapshot    *snapshot,
                           void          (*snapshot_func) (GtkWidget   *widget,
                                                           GtkSnapshot *snapshot))
{
  GtkNative *native = gtk_widget_get_native (widget);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderNode) result = NULL;
  g_autoptr(GskRenderNode) background = NULL;
  GtkSnapshot *inner;
  graphene_point_t origin;
  double sx, sy;

  if (!akc_render_cache_wanted (widget) ||
      !gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (0, 0), &origin))
    {
      akc_render_cache_clear (cache);
      snapshot_func (widget, snapshot);
      return;
    }

  inner = gtk_snapshot_new ();
  snapshot_func (widget, inner);
  node = gtk_snapshot_free_to_node (inner);
  if (node == NULL)
    return;

  gtk_native_get_surface_transform (native, &sx, &sy);
  origin.x += sx;
  origin.y += sy;
  background = widget_background (widget);
  result = akc_render_cache_process (cache, node, &origin, gtk_widget_get_scale_factor (widget), background);
  if (result != NULL)
    gtk_snapshot_append_node (snapshot, result);
}

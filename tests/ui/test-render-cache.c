/* test-render-cache.c: the cairo renderer's frames drawn from images of what did not change
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <akc-gtk.h>

#include "akc-render-cache.h"
#include "akc-window.h"
#include "akc-test-ui.h"

#define WIDTH 120
#define HEIGHT 80

/* ------------------------------------------------------------------ */
/* Nodes                                                               */
/* ------------------------------------------------------------------ */

static guint
count_type (GskRenderNode     *node,
            GskRenderNodeType  type)
{
  guint n;

  if (node == NULL)
    return 0;
  n = gsk_render_node_get_node_type (node) == type ? 1 : 0;
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_type (gsk_container_node_get_child (node, i), type);
      break;
    case GSK_TRANSFORM_NODE:
      n += count_type (gsk_transform_node_get_child (node), type);
      break;
    case GSK_CLIP_NODE:
      n += count_type (gsk_clip_node_get_child (node), type);
      break;
    case GSK_ROUNDED_CLIP_NODE:
      n += count_type (gsk_rounded_clip_node_get_child (node), type);
      break;
    case GSK_OPACITY_NODE:
      n += count_type (gsk_opacity_node_get_child (node), type);
      break;
    default:
      break;
    }
  return n;
}

/* The first node of @type in @node, depth first. */
static GskRenderNode *
find_type (GskRenderNode     *node,
           GskRenderNodeType  type)
{
  GskRenderNode *found = NULL;

  if (node == NULL || gsk_render_node_get_node_type (node) == type)
    return node;
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; found == NULL && i < gsk_container_node_get_n_children (node); i++)
        found = find_type (gsk_container_node_get_child (node, i), type);
      return found;
    case GSK_TRANSFORM_NODE:
      return find_type (gsk_transform_node_get_child (node), type);
    case GSK_CLIP_NODE:
      return find_type (gsk_clip_node_get_child (node), type);
    case GSK_OPACITY_NODE:
      return find_type (gsk_opacity_node_get_child (node), type);
    default:
      return NULL;
    }
}

/* @node drawn as the cairo renderer draws it, at @origin in an image of
 * @width x @height logical pixels at @scale. */
static cairo_surface_t *
draw_on (GskRenderNode *node,
         double         x,
         double         y,
         int            width,
         int            height,
         int            scale,
         gboolean       stripes)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cairo_t *cr;

  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  /* Something already on the screen, of more than one colour. */
  for (int i = 0; stripes && i < width; i += 7)
    {
      cairo_set_source_rgba (cr, i % 2 ? 0.9 : 0.3, 0.5, i % 3 ? 0.2 : 0.8, 0.6);
      cairo_rectangle (cr, i, 0, 7, height);
      cairo_fill (cr);
    }
  cairo_translate (cr, x, y);
  if (node != NULL)
    gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static gboolean
same_pixels (cairo_surface_t *a,
             cairo_surface_t *b)
{
  int width = cairo_image_surface_get_width (a);
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);
  const guchar *pa = cairo_image_surface_get_data (a), *pb = cairo_image_surface_get_data (b);
  guint differ = 0, most = 0;
  int bx0 = G_MAXINT, by0 = G_MAXINT, bx1 = -1, by1 = -1;

  g_assert_cmpint (width, ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width * 4; x++)
      if (pa[y * stride + x] != pb[y * stride + x])
        {
          if (differ < 6)
            g_test_message ("at %d,%d byte %d: %u against %u", x / 4, y, x % 4, pa[y * stride + x], pb[y * stride + x]);
          differ++;
          bx0 = MIN (bx0, x / 4);
          by0 = MIN (by0, y);
          bx1 = MAX (bx1, x / 4);
          by1 = MAX (by1, y);
          most = MAX (most, (guint) ABS (pa[y * stride + x] - pb[y * stride + x]));
        }
  if (differ > 0)
    {
      g_test_message ("%u of %d bytes differ, by at most %u, in %d,%d-%d,%d", differ, width * height * 4, most, bx0, by0, bx1, by1);
      if (g_getenv ("TEST_RENDER_CACHE_PNG") != NULL)
        {
          g_autofree char *pa_path = g_strdup_printf ("%s-a.png", g_getenv ("TEST_RENDER_CACHE_PNG"));
          g_autofree char *pb_path = g_strdup_printf ("%s-b.png", g_getenv ("TEST_RENDER_CACHE_PNG"));

          cairo_surface_write_to_png (a, pa_path);
          cairo_surface_write_to_png (b, pb_path);
        }
    }
  return differ == 0;
}

static cairo_surface_t *
draw_at (GskRenderNode *node,
         double         x,
         double         y,
         int            width,
         int            height,
         int            scale)
{
  return draw_on (node, x, y, width, height, scale, FALSE);
}

/* Whether @node, processed by @cache as a frame at @x, @y, draws what
 * @node draws. */
static gboolean
draws_the_same (GskRenderNode *node,
                GskRenderNode *processed,
                double         x,
                double         y,
                int            scale)
{
  cairo_surface_t *expected = draw_at (node, x, y, WIDTH, HEIGHT, scale);
  cairo_surface_t *drawn = draw_at (processed, x, y, WIDTH, HEIGHT, scale);
  gboolean same = same_pixels (expected, drawn);

  cairo_surface_destroy (expected);
  cairo_surface_destroy (drawn);
  return same;
}

static GskRenderNode *
color (double r,
       double g,
       double b,
       double a,
       float  x,
       float  y,
       float  width,
       float  height)
{
  GdkRGBA rgba = { r, g, b, a };

  return gsk_color_node_new (&rgba, &GRAPHENE_RECT_INIT (x, y, width, height));
}

/* A paragraph's drawing: text on a tinted rounded background, at a
 * fraction of a pixel as text in a transcript is. */
static GskRenderNode *
paragraph (const char *text)
{
  g_autoptr(GObject) context = (GObject *) pango_font_map_create_context (pango_cairo_font_map_get_default ());
  g_autoptr(PangoLayout) layout = pango_layout_new (PANGO_CONTEXT (context));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRoundedRect rounded;

  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (3, 2.25f));
  gsk_rounded_rect_init_from_rect (&rounded, &GRAPHENE_RECT_INIT (0, 0, 90, 40), 6);
  gtk_snapshot_push_rounded_clip (snapshot, &rounded);
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.2, 0.4, 0.9, 0.25 }, &GRAPHENE_RECT_INIT (0, 0, 90, 40));
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (4, 3.5f));
  gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 0.1, 0.1, 0.1, 1 });
  gtk_snapshot_push_opacity (snapshot, 0.55);
  gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 0.8, 0.1, 0.1, 1 });
  gtk_snapshot_pop (snapshot);
  return gtk_snapshot_free_to_node (snapshot);
}

/* A frame: a window's background, @part and @other (which it owns). */
static GskRenderNode *
frame_of (GskRenderNode *part,
          GskRenderNode *other)
{
  g_autoptr(GskRenderNode) background = color (0.98, 0.98, 0.98, 1, 0, 0, WIDTH, HEIGHT);
  GskRenderNode *children[] = { background, part, other };
  GskRenderNode *frame = gsk_container_node_new (children, G_N_ELEMENTS (children));

  gsk_render_node_unref (other);
  return frame;
}

/* A part that is in the next frame as it was is drawn from an image, the
 * same image while it stays, drawing the same pixels; what is new in a
 * frame is drawn as it is. */
static void
test_unchanged_part (void)
{
  g_autoptr(AkcRenderCache) cache = akc_render_cache_new ();
  g_autoptr(GskRenderNode) part = paragraph ("Finished");
  g_autoptr(GskRenderNode) first = frame_of (part, color (1, 0, 0, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) second = frame_of (part, color (0, 1, 0, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) third = frame_of (part, paragraph ("New"));
  g_autoptr(GskRenderNode) drawn = NULL;
  GskRenderNode *image;
  graphene_point_t origin = GRAPHENE_POINT_INIT (0.5f, 0.25f);

  /* The first frame: nothing is known, everything is drawn. */
  drawn = akc_render_cache_process (cache, first, &origin, 1, NULL);
  g_assert_true (drawn == first);
  g_assert_cmpuint (akc_render_cache_get_n_images (cache), ==, 0);
  g_clear_pointer (&drawn, gsk_render_node_unref);

  /* The part again: one image of it. */
  drawn = akc_render_cache_process (cache, second, &origin, 1, NULL);
  g_assert_cmpuint (akc_render_cache_get_n_images (cache), ==, 1);
  g_assert_cmpuint (count_type (drawn, GSK_CAIRO_NODE), ==, 1);
  g_assert_cmpuint (count_type (drawn, GSK_TEXT_NODE), ==, 0);
  image = find_type (drawn, GSK_CAIRO_NODE);
  g_assert_true (draws_the_same (second, drawn, origin.x, origin.y, 1));
  gsk_render_node_ref (image);
  g_clear_pointer (&drawn, gsk_render_node_unref);

  /* And again: the same image; the new paragraph is drawn as it is. */
  drawn = akc_render_cache_process (cache, third, &origin, 1, NULL);
  g_assert_true (find_type (drawn, GSK_CAIRO_NODE) == image);
  g_assert_cmpuint (count_type (drawn, GSK_CAIRO_NODE), ==, 1);
  g_assert_cmpuint (count_type (drawn, GSK_TEXT_NODE), ==, 2);
  g_assert_true (draws_the_same (third, drawn, origin.x, origin.y, 1));
  gsk_render_node_unref (image);
}

#ifdef __GLIBC__
/* Runs the main loop for @ms milliseconds. */
static void
run_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5 * G_TIME_SPAN_MILLISECOND);
    }
}
#endif

/* Half a second after a frame that made large images, the memory GTK's
 * repaint of them freed is given back to the system (once for the frames
 * in between); small images leave it. */
static void
test_memory_given_back (void)
{
#ifdef __GLIBC__
  g_autoptr(AkcRenderCache) cache = akc_render_cache_new ();
  g_autoptr(GskRenderNode) small = paragraph ("Small");
  g_autoptr(GskRenderNode) large = NULL;
  graphene_point_t origin = GRAPHENE_POINT_INIT (0, 0);

  {
    g_autoptr(GskRenderNode) fill = color (0.9, 0.9, 0.9, 1, 0, 0, 400, 300);
    GskRenderNode *children[] = { fill, small };

    large = gsk_container_node_new (children, G_N_ELEMENTS (children));
  }

  /* A small part drawn from an image: nothing is given back. */
  for (guint i = 0; i < 2; i++)
    gsk_render_node_unref (akc_render_cache_process (cache, small, &origin, 1, NULL));
  g_assert_cmpuint (akc_render_cache_get_n_images (cache), >, 0);
  run_for (700);
  g_assert_cmpuint (akc_render_cache_get_n_trims (cache), ==, 0);

  /* A large one (400 x 300), drawn from its image in two frames: given
   * back once, after the frame that made the image. */
  for (guint i = 0; i < 3; i++)
    gsk_render_node_unref (akc_render_cache_process (cache, large, &origin, 1, NULL));
  g_assert_cmpuint (akc_render_cache_get_n_images (cache), ==, 1);
  g_assert_cmpuint (akc_render_cache_get_n_trims (cache), ==, 0);
  run_for (1500);
  g_assert_cmpuint (akc_render_cache_get_n_trims (cache), ==, 1);
#else
  g_test_skip ("malloc's memory is given back with glibc's malloc_trim()");
#endif
}

/* On what the cache does not know (the widget's own background, drawn
 * before its snapshot), a part is drawn from one image only when that
 * image has its pixels whatever is under it: not a paragraph of text on a
 * translucent background (composing them first rounds otherwise), but
 * its parts each alone. */
static void
test_unknown_backdrop (void)
{
  g_autoptr(AkcRenderCache) cache = akc_render_cache_new ();
  g_autoptr(GskRenderNode) part = paragraph ("Finished");
  GskRenderNode *first[] = { part, color (1, 0, 0, 1, 100, 10, 10, 10) };
  GskRenderNode *second[] = { part, color (0, 1, 0, 1, 100, 10, 10, 10) };
  g_autoptr(GskRenderNode) first_frame = gsk_container_node_new (first, G_N_ELEMENTS (first));
  g_autoptr(GskRenderNode) second_frame = gsk_container_node_new (second, G_N_ELEMENTS (second));
  g_autoptr(GskRenderNode) drawn = NULL;
  cairo_surface_t *expected, *got;

  gsk_render_node_unref (first[1]);
  gsk_render_node_unref (second[1]);

  drawn = akc_render_cache_process (cache, first_frame, &GRAPHENE_POINT_INIT (0.5f, 0.25f), 1, NULL);
  g_clear_pointer (&drawn, gsk_render_node_unref);
  drawn = akc_render_cache_process (cache, second_frame, &GRAPHENE_POINT_INIT (0.5f, 0.25f), 1, NULL);
  /* Its background, its text and its dimmed text: three images. */
  g_assert_cmpuint (count_type (drawn, GSK_CAIRO_NODE), ==, 3);
  g_assert_cmpuint (count_type (drawn, GSK_ROUNDED_CLIP_NODE), ==, 0);
  expected = draw_on (second_frame, 0.5, 0.25, WIDTH, HEIGHT, 1, TRUE);
  got = draw_on (drawn, 0.5, 0.25, WIDTH, HEIGHT, 1, TRUE);
  g_assert_true (same_pixels (expected, got));
  cairo_surface_destroy (expected);
  cairo_surface_destroy (got);
}

/* A part that moves within a pixel (the window's origin at another
 * fraction) is drawn again where it is now, still the same pixels. */
static void
test_moved_part (void)
{
  g_autoptr(AkcRenderCache) cache = akc_render_cache_new ();
  g_autoptr(GskRenderNode) part = paragraph ("Moving");
  g_autoptr(GskRenderNode) first = frame_of (part, color (1, 0, 0, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) second = frame_of (part, color (0, 1, 0, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) third = frame_of (part, color (0, 0, 1, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) drawn = NULL;
  GskRenderNode *image;

  drawn = akc_render_cache_process (cache, first, &GRAPHENE_POINT_INIT (0, 0), 1, NULL);
  g_clear_pointer (&drawn, gsk_render_node_unref);
  drawn = akc_render_cache_process (cache, second, &GRAPHENE_POINT_INIT (0, 0), 1, NULL);
  image = gsk_render_node_ref (find_type (drawn, GSK_CAIRO_NODE));
  g_assert_nonnull (image);
  g_clear_pointer (&drawn, gsk_render_node_unref);

  drawn = akc_render_cache_process (cache, third, &GRAPHENE_POINT_INIT (0, 0.5f), 1, NULL);
  g_assert_nonnull (find_type (drawn, GSK_CAIRO_NODE));
  g_assert_true (find_type (drawn, GSK_CAIRO_NODE) != image);
  g_assert_true (draws_the_same (third, drawn, 0, 0.5, 1));
  g_clear_pointer (&drawn, gsk_render_node_unref);

  /* A whole pixel further: the image of the last frame serves. */
  gsk_render_node_unref (image);
  drawn = akc_render_cache_process (cache, second, &GRAPHENE_POINT_INIT (0, 1.5f), 1, NULL);
  image = gsk_render_node_ref (find_type (drawn, GSK_CAIRO_NODE));
  g_clear_pointer (&drawn, gsk_render_node_unref);
  drawn = akc_render_cache_process (cache, third, &GRAPHENE_POINT_INIT (0, 7.5f), 1, NULL);
  g_assert_true (find_type (drawn, GSK_CAIRO_NODE) == image);
  g_assert_true (draws_the_same (third, drawn, 0, 7.5, 1));
  gsk_render_node_unref (image);
}

/* At scale 2 the image has the device's pixels. */
static void
test_scale (void)
{
  g_autoptr(AkcRenderCache) cache = akc_render_cache_new ();
  g_autoptr(GskRenderNode) part = paragraph ("Sharp");
  g_autoptr(GskRenderNode) first = frame_of (part, color (1, 0, 0, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) second = frame_of (part, color (0, 1, 0, 1, 100, 10, 10, 10));
  g_autoptr(GskRenderNode) drawn = NULL;

  drawn = akc_render_cache_process (cache, first, &GRAPHENE_POINT_INIT (0, 0.25f), 2, NULL);
  g_clear_pointer (&drawn, gsk_render_node_unref);
  drawn = akc_render_cache_process (cache, second, &GRAPHENE_POINT_INIT (0, 0.25f), 2, NULL);
  g_assert_cmpuint (count_type (drawn, GSK_CAIRO_NODE), ==, 1);
  g_assert_true (draws_the_same (second, drawn, 0, 0.25, 2));
  g_clear_pointer (&drawn, gsk_render_node_unref);

  /* Another scale: nothing of the last one is reused. */
  drawn = akc_render_cache_process (cache, first, &GRAPHENE_POINT_INIT (0, 0.25f), 1, NULL);
  g_assert_cmpuint (count_type (drawn, GSK_CAIRO_NODE), ==, 0);
}

/* What a clip leaves nothing of is left out of the frame. */
static void
test_clipped_out (void)
{
  g_autoptr(AkcRenderCache) cache = akc_render_cache_new ();
  GskRenderNode *children[] = { color (1, 0, 0, 1, 0, 0, 10, 10), paragraph ("Scrolled away") };
  g_autoptr(GskRenderNode) content = gsk_container_node_new (children, G_N_ELEMENTS (children));
  g_autoptr(GskRenderNode) moved = gsk_transform_node_new (content, gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (0, 50)));
  g_autoptr(GskRenderNode) clip = gsk_clip_node_new (moved, &GRAPHENE_RECT_INIT (0, 0, WIDTH, 70));
  g_autoptr(GskRenderNode) drawn = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (children); i++)
    gsk_render_node_unref (children[i]);

  drawn = akc_render_cache_process (cache, clip, &GRAPHENE_POINT_INIT (0, 0), 1, NULL);
  g_assert_cmpuint (count_type (drawn, GSK_COLOR_NODE), ==, 2);
  g_assert_cmpuint (count_type (drawn, GSK_TEXT_NODE), ==, 2);
  g_assert_true (draws_the_same (clip, drawn, 0, 0, 1));
  g_clear_pointer (&drawn, gsk_render_node_unref);

  /* The clip shorter: the paragraph's text is out of it. */
  {
    g_autoptr(GskRenderNode) shorter = gsk_clip_node_new (moved, &GRAPHENE_RECT_INIT (0, 0, WIDTH, 54));
    g_autoptr(AkcRenderCache) other = akc_render_cache_new ();

    drawn = akc_render_cache_process (other, shorter, &GRAPHENE_POINT_INIT (0, 0), 1, NULL);
    g_assert_cmpuint (count_type (drawn, GSK_TEXT_NODE), ==, 0);
    g_assert_cmpuint (count_type (drawn, GSK_COLOR_NODE), ==, 2);
    g_assert_true (draws_the_same (shorter, drawn, 0, 0, 1));
    g_clear_pointer (&drawn, gsk_render_node_unref);
  }

  /* Nothing at all in the clip: nothing to draw. */
  {
    g_autoptr(GskRenderNode) away = gsk_clip_node_new (moved, &GRAPHENE_RECT_INIT (0, 0, WIDTH, 20));
    g_autoptr(AkcRenderCache) other = akc_render_cache_new ();

    drawn = akc_render_cache_process (other, away, &GRAPHENE_POINT_INIT (0, 0), 1, NULL);
    g_assert_null (drawn);
  }
}

/* ------------------------------------------------------------------ */
/* The window                                                          */
/* ------------------------------------------------------------------ */

/* What the window's last frame drew (its render node, as the renderer
 * got it), drawn as the renderer draws it on its surface. */
static cairo_surface_t *
draw_window (GtkWidget *window,
             guint     *n_images)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderNode *root;
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  double sx, sy;

  gdk_paintable_snapshot (paintable, snapshot, gdk_paintable_get_intrinsic_width (paintable),
                          gdk_paintable_get_intrinsic_height (paintable));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  /* The paintable fits the window's drawing (its shadow too) in its size. */
  root = gsk_render_node_get_node_type (node) == GSK_TRANSFORM_NODE ? gsk_transform_node_get_child (node) : node;
  *n_images = count_type (root, GSK_CAIRO_NODE);
  if (g_getenv ("TEST_RENDER_CACHE_NODES") != NULL)
    {
      static guint n;
      g_autofree char *path = g_strdup_printf ("%s-%u.node", g_getenv ("TEST_RENDER_CACHE_NODES"), n++);
      gsk_render_node_write_to_file (root, path, NULL);
    }
  gtk_native_get_surface_transform (GTK_NATIVE (window), &sx, &sy);
  return draw_at (root, sx, sy, gdk_surface_get_width (surface), gdk_surface_get_height (surface), 1);
}

/* The window's next frames, with the cache or without it. */
static cairo_surface_t *
window_frames (GtkWidget *window,
               gboolean   cached,
               guint     *n_images)
{
  if (cached)
    g_unsetenv ("AKC_RENDER_CACHE");
  else
    g_setenv ("AKC_RENDER_CACHE", "0", TRUE);
  /* Each frame draws the window again, its parts as they were. */
  wait_frames (window, 4);
  g_unsetenv ("AKC_RENDER_CACHE");
  return draw_window (window, n_images);
}

static gboolean
is_window_title (GtkWidget     *widget,
                 gconstpointer  data)
{
  return ADW_IS_WINDOW_TITLE (widget) && gtk_widget_is_drawable (widget);
}

/* With the cairo renderer, the window's frames draw its unchanged parts
 * from images, the same pixels as without them (light and dark), and a
 * change in a part (the composer's text, the title) reaches the screen. */
static void
test_window (void)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkWidget *window;
  cairo_surface_t *before = NULL;

  /* The composer's cursor stays as it is from frame to frame. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);
  window = g_object_new (AKC_TYPE_WINDOW, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  akc_window_set_conversation (AKC_WINDOW (window), "hello-world");
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 2);
  g_assert_true (GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (window))));

  for (guint dark = 0; dark < 2; dark++)
    {
      cairo_surface_t *cached, *plain, *changed, *changed_plain;
      AkcComposer *composer = AKC_COMPOSER (find_by_type (window, AKC_TYPE_COMPOSER));
      AdwWindowTitle *title = ADW_WINDOW_TITLE (find_widget (window, is_window_title, NULL));
      guint n_images;

      adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
      wait_frames (window, 2);

      cached = window_frames (window, TRUE, &n_images);
      g_assert_cmpuint (n_images, >, 0);
      plain = window_frames (window, FALSE, &n_images);
      g_assert_cmpuint (n_images, ==, 0);
      g_assert_true (same_pixels (cached, plain));

      /* A change in parts drawn from images. */
      window_frames (window, TRUE, &n_images);
      akc_composer_set_text (composer, dark ? "Dark question" : "A question");
      adw_window_title_set_title (title, dark ? "Dark title" : "Changed title");
      changed = window_frames (window, TRUE, &n_images);
      g_assert_cmpuint (n_images, >, 0);
      g_assert_false (same_pixels (changed, cached));
      changed_plain = window_frames (window, FALSE, &n_images);
      g_assert_true (same_pixels (changed, changed_plain));

      if (dark)
        g_assert_false (same_pixels (cached, before));
      else
        before = cairo_surface_reference (cached);
      cairo_surface_destroy (cached);
      cairo_surface_destroy (plain);
      cairo_surface_destroy (changed);
      cairo_surface_destroy (changed_plain);
    }

  cairo_surface_destroy (before);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* With another renderer the window draws its nodes as they are. */
static void
test_other_renderer (void)
{
  GtkWidget *window;
  cairo_surface_t *drawn;
  guint n_images;

  g_setenv ("GSK_RENDERER", "gl", TRUE);
  window = g_object_new (AKC_TYPE_WINDOW, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  gtk_window_present (GTK_WINDOW (window));
  wait_frames (window, 2);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  if (GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (window))))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      g_test_skip ("no GL renderer on this display");
      return;
    }

  g_assert_false (akc_render_cache_wanted (window));
  drawn = window_frames (window, TRUE, &n_images);
  g_assert_cmpuint (n_images, ==, 0);
  cairo_surface_destroy (drawn);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/render-cache/unchanged-part", test_unchanged_part);
  g_test_add_func ("/render-cache/unknown-backdrop", test_unknown_backdrop);
  g_test_add_func ("/render-cache/moved-part", test_moved_part);
  g_test_add_func ("/render-cache/scale", test_scale);
  g_test_add_func ("/render-cache/clipped-out", test_clipped_out);
  g_test_add_func ("/render-cache/memory-given-back", test_memory_given_back);
  g_test_add_func ("/render-cache/window", test_window);
  g_test_add_func ("/render-cache/other-renderer", test_other_renderer);

  return g_test_run ();
}

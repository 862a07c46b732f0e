/* akc-bench-transcript.c: cost of the transcript (AkcChatView) in a window
 *
 * SPDX-License-Identifier: MIT
 *
 * Run it under an X display in a session bus
 * (`dbus-run-session -- xvfb-run -a bench/akc-bench-transcript`).
 * Prints, measured on this machine, the application's main window (header
 * bar, transcript as GtkScrolledWindow > AdwClampScrollable > AkcChatView,
 * composer) on a conversation of user questions and Markdown answers:
 *  - the time from building the window to its first painted frame, and the
 *    resident memory after it settles, with 0, 1,000 and 10,000 messages
 *    loaded (each case in a fresh process, median of 3);
 *  - while a reply streams at 50 chunks/s into a 1,000-message transcript
 *    (the demo adapter echoing 10 s of Markdown, a word a chunk:
 *    paragraphs, a list, a code block), the p50 and p99 of the interval
 *    between frames, the frame clock kept running;
 *  - the CPU time of the process per streamed chunk, with and without the
 *    cost of the frames it draws when nothing is streamed;
 *  - the CPU time per chunk of a Markdown reply written 5 characters a
 *    frame into the same transcript, around 2,000 and around 20,000
 *    characters, and their ratio (the cost of a chunk must not grow with
 *    the reply);
 *  - how many render nodes the last frame of that reply drew, of which
 *    kinds (AKC_BENCH_NODES_FILE=PATH writes them to PATH);
 *  - while "Thinking..." pulses under a reply that has no chunk yet, how
 *    many frames draw something and the CPU time per frame;
 * and whether the targets are met: the first frame at 10,000 messages
 * within 1.5x the empty window, less than 60 MiB more memory at 10,000
 * messages, a p99 frame interval of at most 20 ms while streaming, and a
 * chunk at 20,000 characters within 1.2x of one at 2,000 and at most
 * 1.5 ms with the cairo renderer.
 *
 * Each case runs in a process of its own, with criticals fatal; a case
 * that fails, warns, or streams slower than the 50 chunks/s it says fails
 * the bench. Run it in a session bus (`dbus-run-session -- xvfb-run -a
 * …`), or GTK warns that it has none.
 *
 * With the cairo renderer it also runs the growth case again under
 * callgrind and prints its instructions per chunk, which do not move with
 * the load of a shared machine as CPU time does (`--no-callgrind` skips
 * that run, which takes a few minutes).
 *
 * It runs everything with GTK's renderer (GL; in Xvfb that is Mesa's
 * llvmpipe, drawing on the CPU) and again with the cairo renderer, unless
 * GSK_RENDERER chooses one. `--case first-frame N` and `--case stream` run
 * one case and print its figures as key=value lines (used by the parent
 * run), and so do `--case growth` and `--case thinking`.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <adwaita.h>
#include <akc-gtk.h>

#include "akc-application.h"
#include "akc-bench-callgrind.h"
#include "akc-knowledge-layer.h"
#include "akc-window.h"
#include "akc-bench-util.h"

#define WINDOW_WIDTH 800
#define WINDOW_HEIGHT 900
#define SETTLE_FRAMES 10
#define REPEATS 5
#define STREAM_MESSAGES 1000
#define CHUNKS_PER_SECOND 50
#define IDLE_SECONDS 2

typedef struct {
  GtkWidget     *window;
  AkcChat       *chat;
  GMainLoop     *loop;
  gint64         start;
  gint64         first_frame;
  guint          frames_after_first;
  /* streaming */
  GArray        *frame_starts;   /* gint64 */
  GArray        *frame_work;     /* gint64: main-thread CPU µs of a frame */
  gint64         frame_cpu_start;
  gboolean       recording;
} Bench;

static gint64
thread_cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The CPU time of the main thread from the end of one frame to the end of
 * the next: the frame and the chunks handled before it. However busy the
 * machine, a frame interval can keep to 20 ms only when this does. */
static void
on_frame_end (GdkFrameClock *clock,
              Bench         *bench)
{
  gint64 now = thread_cpu_usec ();

  if (bench->recording && bench->frame_cpu_start != 0)
    g_array_append_val (bench->frame_work, (gint64) { now - bench->frame_cpu_start });
  bench->frame_cpu_start = now;
}

/* A user question or a Markdown answer, different for every message. */
static char *
message_text (guint i)
{
  if (i % 2 == 0)
    return g_strdup_printf ("Question %u: how do I stream replies into a GTK transcript without "
                            "laying the whole text out again for every token?", i);

  if (i % 10 == 1)
    return g_strdup_printf ("Answer %u. Split the text **into blocks** and update only the last one:\n\n"
                            "```c\nstatic void\non_chunk (Row *row, const char *text)\n{\n"
                            "  g_string_append (row->text, text);\n  queue_update (row);\n}\n```\n\n"
                            "Then coalesce updates to *one per frame*.", i);

  return g_strdup_printf ("Answer %u. A `GtkListView` only creates rows for the messages in sight, "
                          "so a long conversation costs little:\n\n"
                          "- rows are **recycled** while scrolling;\n"
                          "- a message that changes updates *its own* row;\n"
                          "- finished replies are frozen into their final widgets.\n\n"
                          "See [the docs](https://docs.gtk.org/gtk4/class.ListView.html) for more.", i);
}

static GPtrArray *
make_messages (guint n)
{
  GPtrArray *messages = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *id = g_strdup_printf ("m%u", i);
      g_autofree char *text = message_text (i);

      g_ptr_array_add (messages, akc_message_new (id, i % 2 == 0 ? AKC_MESSAGE_ROLE_USER : AKC_MESSAGE_ROLE_ASSISTANT,
                                                  text, AKC_MESSAGE_STATUS_COMPLETE));
    }

  return messages;
}

/* The main window of the app, on @messages. */
static GtkWidget *
build_window (GPtrArray  *messages,
              AkcChat   **chat)
{
  GtkWidget *window = g_object_new (AKC_TYPE_WINDOW, NULL);
  AkcChatSource *source;

  gtk_window_set_default_size (GTK_WINDOW (window), WINDOW_WIDTH, WINDOW_HEIGHT);
  /* A first run opens on the welcome page: the echo demo's conversation,
   * as a person who picks Hello World gets it. */
  akc_window_set_conversation (AKC_WINDOW (window), "hello-world");
  source = akc_window_get_source (AKC_WINDOW (window));
  if (!AKC_IS_CHAT (source))
    {
      fprintf (stderr, "akc-bench-transcript: the window shows no conversation with the echo demo\n");
      exit (1);
    }
  *chat = AKC_CHAT (source);
  akc_chat_restore (*chat, (AkcMessage * const *) messages->pdata, messages->len);

  return window;
}

/* The demo's echo adapter, behind the session and the local-knowledge
 * layer the window puts in front of it. */
static gboolean
set_chunk_interval (AkcChat *chat,
                    guint    interval_ms)
{
  AkcAdapter *adapter = akc_chat_get_adapter (chat);

  if (AKC_IS_SESSION (adapter))
    adapter = akc_session_get_upstream (AKC_SESSION (adapter));
  if (AKC_IS_KNOWLEDGE_LAYER (adapter))
    adapter = akc_knowledge_layer_get_backend (AKC_KNOWLEDGE_LAYER (adapter));
  if (!AKC_IS_ECHO_ADAPTER (adapter))
    {
      fprintf (stderr, "akc-bench-transcript: the window's conversation is not the echo demo (%s)\n",
               adapter != NULL ? G_OBJECT_TYPE_NAME (adapter) : "no adapter");
      return FALSE;
    }

  akc_echo_adapter_set_chunk_interval (AKC_ECHO_ADAPTER (adapter), interval_ms);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* First frame                                                         */
/* ------------------------------------------------------------------ */

static void
on_after_paint (GdkFrameClock *clock,
                Bench         *bench)
{
  if (bench->first_frame == 0)
    {
      bench->first_frame = g_get_monotonic_time ();
      return;
    }

  /* Let it settle (rows measured, scrolled to the end) before the memory
   * is read. */
  if (++bench->frames_after_first >= SETTLE_FRAMES)
    g_main_loop_quit (bench->loop);
}

static gboolean
keep_drawing (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  Bench *bench = user_data;

  if (bench->recording)
    g_array_append_val (bench->frame_starts, (gint64) { g_get_monotonic_time () });

  return G_SOURCE_CONTINUE;
}

/* Shows the bench's window and runs until it has settled SETTLE_FRAMES
 * frames after its first, frames coming all the while; @frame_end, when
 * given, runs after every paint from the first frame on and stays
 * connected. */
static void
show_and_settle (Bench    *bench,
                 GCallback frame_end)
{
  GdkFrameClock *clock;

  gtk_widget_realize (bench->window);
  clock = gtk_widget_get_frame_clock (bench->window);
  if (frame_end != NULL)
    g_signal_connect_after (clock, "after-paint", frame_end, bench);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), bench);
  gtk_widget_add_tick_callback (bench->window, keep_drawing, bench, NULL);
  gtk_window_present (GTK_WINDOW (bench->window));
  g_main_loop_run (bench->loop);
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, bench);
}

static int
run_first_frame (guint n)
{
  Bench bench = { 0 };
  g_autoptr(GPtrArray) messages = make_messages (n);

  bench.loop = g_main_loop_new (NULL, FALSE);

  /* The messages exist already (reading them is the history's cost); the
   * clock starts when the window is built on them. */
  bench.start = g_get_monotonic_time ();
  bench.window = build_window (messages, &bench.chat);
  show_and_settle (&bench, NULL);

  printf ("first_frame_ms=%.3f\n", (bench.first_frame - bench.start) / 1e3);
  printf ("rss_mib=%.3f\n", akc_bench_rss_mib ());
  printf ("renderer=%s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (bench.window))));

  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_main_loop_unref (bench.loop);
  return 0;
}

/* ------------------------------------------------------------------ */
/* Streaming                                                           */
/* ------------------------------------------------------------------ */

/* About 10,000 characters of Markdown: paragraphs, a list, and a 30-line
 * code block in the middle. The demo adapter echoes it a word at a time;
 * words are joined in threes by no-break spaces, so a chunk is about 20
 * characters, as a fast model sends them, in paragraphs of about 800, and
 * the reply grows to the size where laying a label out again per chunk
 * would cost whole frames. */
static char *
reply_text (void)
{
  static const char * const words[] = { "the", "transcript", "streams", "each", "chunk", "into",
                                        "**one**", "block", "and", "only", "its", "label", "changes",
                                        "while", "`code`", "stays", "cheap", "to", "draw", "again" };
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < 1440; i++)
    {
      if (i > 0 && i % 40 == 0)
        g_string_append (text, "\n\n");
      if (i == 360)
        g_string_append (text, "\n\n- first point\n- second point\n- third point\n\n");
      if (i == 720)
        {
          g_string_append (text, "\n\n```python\n");
          for (guint line = 0; line < 30; line++)
            g_string_append_printf (text, "value_%u = compute(%u)\n", line, line * 7);
          g_string_append (text, "```\n\n");
        }
      g_string_append (text, words[i % G_N_ELEMENTS (words)]);
      g_string_append (text, i % 3 == 2 ? " " : "\u00a0");
    }

  return g_string_free (text, FALSE);
}

static void
count_chunk (AkcMessage *message,
             GParamSpec *pspec,
             guint      *n_chunks)
{
  (*n_chunks)++;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
percentile (GArray *sorted_ms,
            double  p)
{
  guint index_ = (guint) (p * (sorted_ms->len - 1) + 0.5);

  return g_array_index (sorted_ms, gint64, MIN (index_, sorted_ms->len - 1)) / 1e3;
}

/* The sorted intervals between successive frame starts. */
static void
frame_intervals (GArray *starts,
                 GArray *intervals)
{
  for (guint i = 1; i < starts->len; i++)
    {
      gint64 interval = g_array_index (starts, gint64, i) - g_array_index (starts, gint64, i - 1);

      g_array_append_val (intervals, interval);
    }
  g_array_sort (intervals, compare_gint64);
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
on_status (AkcChat    *chat,
           GParamSpec *pspec,
           Bench      *bench)
{
  if (akc_chat_source_get_status (AKC_CHAT_SOURCE (chat)) != AKC_CHAT_STATUS_STREAMING)
    g_main_loop_quit (bench->loop);
}

static int
run_stream (void)
{
  Bench bench = { 0 };
  g_autoptr(GPtrArray) messages = make_messages (STREAM_MESSAGES);
  g_autoptr(GArray) intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *text = reply_text ();
  g_autoptr(AkcMessage) reply = NULL;
  GListModel *model;
  double cpu_idle, cpu_stream, wall_idle, wall_stream, t;
  guint n_chunks = 0;

  bench.frame_starts = g_array_new (FALSE, FALSE, sizeof (gint64));
  bench.frame_work = g_array_new (FALSE, FALSE, sizeof (gint64));
  bench.loop = g_main_loop_new (NULL, FALSE);
  bench.window = build_window (messages, &bench.chat);
  if (!set_chunk_interval (bench.chat, 1000 / CHUNKS_PER_SECOND))
    return 1;
  show_and_settle (&bench, G_CALLBACK (on_frame_end));

  /* The cost of frames alone, nothing streaming. */
  bench.recording = TRUE;
  t = g_get_monotonic_time () / 1e6;
  cpu_idle = akc_bench_cpu_seconds ();
  g_timeout_add_seconds (IDLE_SECONDS, quit_loop, bench.loop);
  g_main_loop_run (bench.loop);
  cpu_idle = akc_bench_cpu_seconds () - cpu_idle;
  wall_idle = g_get_monotonic_time () / 1e6 - t;
  bench.recording = FALSE;
  frame_intervals (bench.frame_starts, intervals);
  printf ("idle_p50_ms=%.3f\n", percentile (intervals, 0.50));
  printf ("idle_p99_ms=%.3f\n", percentile (intervals, 0.99));
  g_array_set_size (bench.frame_starts, 0);
  g_array_set_size (intervals, 0);

  /* A reply at 50 chunks/s. */
  g_signal_connect (bench.chat, "notify::status", G_CALLBACK (on_status), &bench);
  bench.recording = TRUE;
  t = g_get_monotonic_time () / 1e6;
  cpu_stream = akc_bench_cpu_seconds ();
  akc_chat_source_send (AKC_CHAT_SOURCE (bench.chat), text, NULL);
  model = akc_chat_source_get_messages (AKC_CHAT_SOURCE (bench.chat));
  reply = g_list_model_get_item (model, g_list_model_get_n_items (model) - 1);
  g_signal_connect (reply, "notify::content", G_CALLBACK (count_chunk), &n_chunks);
  g_main_loop_run (bench.loop);
  cpu_stream = akc_bench_cpu_seconds () - cpu_stream;
  wall_stream = g_get_monotonic_time () / 1e6 - t;
  bench.recording = FALSE;

  frame_intervals (bench.frame_starts, intervals);
  g_array_sort (bench.frame_work, compare_gint64);

  printf ("chunks=%u\n", n_chunks);
  printf ("work_p50_ms=%.3f\n", percentile (bench.frame_work, 0.50));
  printf ("work_p99_ms=%.3f\n", percentile (bench.frame_work, 0.99));
  printf ("characters=%zu\n", akc_message_get_content_length (reply));
  printf ("frames=%u\n", intervals->len);
  printf ("p50_ms=%.3f\n", percentile (intervals, 0.50));
  printf ("p99_ms=%.3f\n", percentile (intervals, 0.99));
  printf ("max_ms=%.3f\n", g_array_index (intervals, gint64, intervals->len - 1) / 1e3);
  printf ("cpu_per_chunk_ms=%.4f\n", cpu_stream / MAX (n_chunks, 1) * 1e3);
  printf ("idle_cpu_per_chunk_ms=%.4f\n", cpu_idle / wall_idle * wall_stream / MAX (n_chunks, 1) * 1e3);
  printf ("stream_seconds=%.3f\n", wall_stream);
  printf ("chunks_per_second=%.3f\n", n_chunks / wall_stream);
  printf ("renderer=%s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (bench.window))));

  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_array_unref (bench.frame_starts);
  g_array_unref (bench.frame_work);
  g_main_loop_unref (bench.loop);

  /* A bench that streams slower than it says measures something else. */
  if (n_chunks / wall_stream < 0.9 * CHUNKS_PER_SECOND)
    {
      fprintf (stderr, "akc-bench-transcript: streamed %.1f chunks/s, not %d\n",
               n_chunks / wall_stream, CHUNKS_PER_SECOND);
      return 1;
    }
  return 0;
}

/* ------------------------------------------------------------------ */
/* What a frame draws                                                  */
/* ------------------------------------------------------------------ */

/* The render nodes of the window's last frame: the cairo renderer walks
 * every one of them each frame it draws, in sight or not, and converts
 * every glyph of every text node. */
typedef struct {
  guint nodes;
  guint text_nodes;
  guint glyphs;
  guint by_type[GSK_GL_SHADER_NODE + 1];
} NodeCensus;

static void
census_add (NodeCensus    *census,
            GskRenderNode *node)
{
  GskRenderNodeType type;

  if (node == NULL)
    return;
  type = gsk_render_node_get_node_type (node);
  census->nodes++;
  if (type <= GSK_GL_SHADER_NODE)
    census->by_type[type]++;

  switch (type)
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        census_add (census, gsk_container_node_get_child (node, i));
      break;
    case GSK_TEXT_NODE:
      census->text_nodes++;
      census->glyphs += gsk_text_node_get_num_glyphs (node);
      break;
    case GSK_TRANSFORM_NODE:
      census_add (census, gsk_transform_node_get_child (node));
      break;
    case GSK_OPACITY_NODE:
      census_add (census, gsk_opacity_node_get_child (node));
      break;
    case GSK_COLOR_MATRIX_NODE:
      census_add (census, gsk_color_matrix_node_get_child (node));
      break;
    case GSK_REPEAT_NODE:
      census_add (census, gsk_repeat_node_get_child (node));
      break;
    case GSK_CLIP_NODE:
      census_add (census, gsk_clip_node_get_child (node));
      break;
    case GSK_ROUNDED_CLIP_NODE:
      census_add (census, gsk_rounded_clip_node_get_child (node));
      break;
    case GSK_SHADOW_NODE:
      census_add (census, gsk_shadow_node_get_child (node));
      break;
    case GSK_BLEND_NODE:
      census_add (census, gsk_blend_node_get_bottom_child (node));
      census_add (census, gsk_blend_node_get_top_child (node));
      break;
    case GSK_CROSS_FADE_NODE:
      census_add (census, gsk_cross_fade_node_get_start_child (node));
      census_add (census, gsk_cross_fade_node_get_end_child (node));
      break;
    case GSK_BLUR_NODE:
      census_add (census, gsk_blur_node_get_child (node));
      break;
    case GSK_DEBUG_NODE:
      census_add (census, gsk_debug_node_get_child (node));
      break;
    case GSK_GL_SHADER_NODE:
      for (guint i = 0; i < gsk_gl_shader_node_get_n_children (node); i++)
        census_add (census, gsk_gl_shader_node_get_child (node, i));
      break;
    default:
      break;
    }
}

/* The window's render node as its last frame drew it (a paintable of a
 * widget is its last drawing, not a new one). */
static NodeCensus
census_of_window (GtkWidget *window)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  NodeCensus census = { 0 };

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (window), gtk_widget_get_height (window));
  node = gtk_snapshot_free_to_node (snapshot);
  census_add (&census, node);
  if (g_getenv ("AKC_BENCH_NODES_FILE") != NULL && node != NULL)
    gsk_render_node_write_to_file (node, g_getenv ("AKC_BENCH_NODES_FILE"), NULL);
  g_clear_pointer (&node, gsk_render_node_unref);

  return census;
}

/* ------------------------------------------------------------------ */
/* Cost per chunk as the reply grows                                   */
/* ------------------------------------------------------------------ */

#define GROWTH_CHUNK 5          /* characters a chunk */
#define GROWTH_NEAR 2000        /* the reply's length where it is measured first */
#define GROWTH_FAR 20000        /* and then */
#define GROWTH_SPAN 1000        /* characters streamed while measuring */
#define GROWTH_LEAP 400         /* characters a frame in between */

/* Markdown of paragraphs, lists and a code block every few paragraphs,
 * as a long answer has them, from paragraph @first on, cut after the
 * block that ends at or before @length and then padded with a paragraph
 * to exactly @length characters. */
static void
append_growth_unit (GString *text,
                    guint    first,
                    gsize    length)
{
  static const char * const words[] = { "stream", "each", "chunk", "into", "**one**", "block", "and",
                                        "only", "its", "label", "changes", "while", "`code`", "stays",
                                        "cheap", "to", "draw", "again", "with", "[links](https://example.com/)" };
  gsize start = text->len, cut = text->len;

  for (guint paragraph = first; text->len - start <= length; paragraph++)
    {
      cut = text->len;
      for (guint w = 0; w < 90; w++)
        {
          g_string_append (text, words[(paragraph * 7 + w) % G_N_ELEMENTS (words)]);
          g_string_append_c (text, ' ');
        }
      g_string_append (text, "\n\n");

      if (paragraph % 4 == 1)
        {
          g_string_append (text, "```python\n");
          for (guint line = 0; line < 14; line++)
            g_string_append_printf (text, "value_%u = compute(%u, \"text\")  # step %u\n", line, line * 7, paragraph);
          g_string_append (text, "```\n\n");
        }
      else if (paragraph % 4 == 3)
        {
          g_string_append (text, "- first point of the list\n- second point, **bold**\n- third point\n\n");
        }
    }

  g_string_truncate (text, cut);
  while (text->len - start < length - 2)
    g_string_append (text, text->len - start + 6 < length - 2 ? "again " : "x");
  g_string_append (text, "\n\n");
}

/* About @length characters of Markdown that repeat every GROWTH_FAR -
 * GROWTH_NEAR characters, so that what is written from GROWTH_FAR on is
 * what was written from GROWTH_NEAR on: the two measured spans write the
 * same Markdown (the second half of a Python code block, then the first
 * of a paragraph), and differ only in how long the reply is before them.
 * The code block starts before the first span, so neither pays what the
 * first Python block of a process loads once (its language, ~0.5 M
 * instructions a chunk over a span). */
static char *
growth_text (gsize length)
{
  const gsize period = GROWTH_FAR - GROWTH_NEAR;
  g_autoptr(GString) unit = g_string_new (NULL);
  GString *text = g_string_new (NULL);

  /* From paragraph 3: a code block starts at 1,922 and ends at 2,499. */
  append_growth_unit (unit, 3, period);
  g_assert (unit->len == period);
  while (text->len < length)
    g_string_append_len (text, unit->str, (gssize) unit->len);

  return g_string_free (text, FALSE);
}

typedef struct {
  Bench      *bench;
  AkcMessage *reply;
  const char *text;
  gsize       length;
  gsize       position;
  /* The span being measured, if any. */
  gsize       span_end;
  double      cpu_start;
  guint       chunks;
  double      near_ms;
  double      far_ms;
} Growth;

static gboolean
grow_reply (GtkWidget     *widget,
            GdkFrameClock *clock,
            gpointer       user_data)
{
  Growth *growth = user_data;
  gsize step;

  /* A measured span starts at its size and ends GROWTH_SPAN later: one
   * small chunk a frame in it, big leaps in between. */
  if (growth->span_end == 0 && (growth->position >= GROWTH_NEAR || growth->near_ms > 0) &&
      (growth->near_ms == 0 || growth->position >= GROWTH_FAR))
    {
      growth->span_end = growth->position + GROWTH_SPAN;
      growth->cpu_start = akc_bench_cpu_seconds ();
      growth->chunks = 0;
      akc_bench_callgrind_mark ("growth-setup");
    }

  if (growth->span_end != 0 && growth->position >= growth->span_end)
    {
      double ms = (akc_bench_cpu_seconds () - growth->cpu_start) / MAX (growth->chunks, 1) * 1e3;

      /* Under callgrind: the instructions of the span's frames. */
      akc_bench_callgrind_mark (growth->near_ms == 0 ? "growth-near" : "growth-far");
      if (growth->near_ms == 0)
        growth->near_ms = ms;
      else
        {
          growth->far_ms = ms;
          g_main_loop_quit (growth->bench->loop);
          return G_SOURCE_REMOVE;
        }
      growth->span_end = 0;
    }

  if (growth->span_end != 0)
    {
      step = GROWTH_CHUNK;
      growth->chunks++;
    }
  else
    {
      gsize target = growth->near_ms == 0 ? GROWTH_NEAR : GROWTH_FAR;

      step = MIN (GROWTH_LEAP, target - growth->position);
    }

  step = MIN (step, growth->length - growth->position);
  akc_message_append_content (growth->reply, growth->text + growth->position, step);
  growth->position += step;

  return G_SOURCE_CONTINUE;
}

typedef struct {
  Bench  *bench;
  guint   frames;
  double  cpu_start;
  double  cpu_ms;
} IdleFrames;

#define IDLE_FRAMES 120

static gboolean
count_idle_frame (GtkWidget     *widget,
                  GdkFrameClock *clock,
                  gpointer       user_data)
{
  IdleFrames *idle = user_data;

  if (idle->frames == 0)
    idle->cpu_start = akc_bench_cpu_seconds ();
  /* Something to draw, as a frame that shows a chunk has, but nothing to
   * lay out. */
  gtk_widget_queue_draw (widget);
  if (++idle->frames <= IDLE_FRAMES)
    return G_SOURCE_CONTINUE;

  idle->cpu_ms = (akc_bench_cpu_seconds () - idle->cpu_start) / IDLE_FRAMES * 1e3;
  g_main_loop_quit (idle->bench->loop);
  return G_SOURCE_REMOVE;
}

static int
run_growth (void)
{
  Bench bench = { 0 };
  g_autoptr(GPtrArray) messages = make_messages (STREAM_MESSAGES);
  g_autofree char *text = growth_text (GROWTH_FAR + GROWTH_SPAN + 64);
  Growth growth = { 0 };
  GListModel *model;

  bench.loop = g_main_loop_new (NULL, FALSE);
  bench.window = build_window (messages, &bench.chat);
  /* The echo adapter's own chunk never comes: the bench writes the reply. */
  if (!set_chunk_interval (bench.chat, 3600 * 1000))
    return 1;
  show_and_settle (&bench, NULL);

  /* What a frame costs with nothing changing, for comparison. */
  {
    IdleFrames idle = { &bench, 0, 0 };

    gtk_widget_add_tick_callback (bench.window, count_idle_frame, &idle, NULL);
    g_main_loop_run (bench.loop);
    /* Under callgrind the output is the parent's own. */
    if (!akc_bench_callgrind_active ())
      printf ("idle_cpu_per_frame_ms=%.4f\n", idle.cpu_ms);
  }

  if (!akc_chat_source_send (AKC_CHAT_SOURCE (bench.chat), "A long answer, please.", NULL))
    {
      fprintf (stderr, "akc-bench-transcript: the question was not sent\n");
      return 1;
    }
  model = akc_chat_source_get_messages (AKC_CHAT_SOURCE (bench.chat));
  growth.reply = g_list_model_get_item (model, g_list_model_get_n_items (model) - 1);
  if (akc_message_get_role (growth.reply) != AKC_MESSAGE_ROLE_ASSISTANT)
    {
      fprintf (stderr, "akc-bench-transcript: no reply to write into\n");
      return 1;
    }
  /* As the first chunk of a real reply does (the echo adapter's never
   * comes): a pending reply is drawn dimmed, a streaming one is not. */
  akc_message_set_status (growth.reply, AKC_MESSAGE_STATUS_STREAMING);
  growth.bench = &bench;
  growth.text = text;
  growth.length = strlen (text);
  gtk_widget_add_tick_callback (bench.window, grow_reply, &growth, NULL);
  g_main_loop_run (bench.loop);

  /* Under callgrind the phases are the figures; the parent knows the rest. */
  if (akc_bench_callgrind_active ())
    {
      akc_chat_source_stop (AKC_CHAT_SOURCE (bench.chat));
      g_object_unref (growth.reply);
      gtk_window_destroy (GTK_WINDOW (bench.window));
      g_main_loop_unref (bench.loop);
      return 0;
    }

  {
    NodeCensus census = census_of_window (bench.window);
    static const char * const names[] = { "none", "container", "cairo", "color", "linear-gradient",
                                          "repeating-linear-gradient", "radial-gradient",
                                          "repeating-radial-gradient", "conic-gradient", "border", "texture",
                                          "inset-shadow", "outset-shadow", "transform", "opacity",
                                          "color-matrix", "repeat", "clip", "rounded-clip", "shadow", "blend",
                                          "cross-fade", "text", "blur", "debug", "gl-shader" };
    g_autoptr(GString) types = g_string_new (NULL);

    G_STATIC_ASSERT (G_N_ELEMENTS (names) == GSK_GL_SHADER_NODE + 1);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      if (census.by_type[i] > 0)
        g_string_append_printf (types, "%s%s %u", types->len > 0 ? ", " : "", names[i], census.by_type[i]);
    printf ("frame_nodes=%u\n", census.nodes);
    printf ("frame_text_nodes=%u\n", census.text_nodes);
    printf ("frame_glyphs=%u\n", census.glyphs);
    printf ("frame_node_types=%s\n", types->str);
  }
  printf ("near_characters=%d\n", GROWTH_NEAR);
  printf ("far_characters=%d\n", GROWTH_FAR);
  printf ("near_cpu_per_chunk_ms=%.4f\n", growth.near_ms);
  printf ("far_cpu_per_chunk_ms=%.4f\n", growth.far_ms);
  printf ("renderer=%s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (bench.window))));

  akc_chat_source_stop (AKC_CHAT_SOURCE (bench.chat));
  g_object_unref (growth.reply);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_main_loop_unref (bench.loop);
  return 0;
}

/* ------------------------------------------------------------------ */
/* The thinking indicator                                              */
/* ------------------------------------------------------------------ */

/* While a reply streams, "Thinking..." pulses under it at every frame,
 * chunk or not: what one such frame costs, nothing else changing. */

#define THINKING_TIMEOUT_US (30 * G_USEC_PER_SEC)
#define THINKING_FRAMES 120

typedef struct {
  Bench  *bench;
  gint64  sent;
  guint   frames;
  guint   renders;
  double  cpu_start;
  double  cpu_ms;
} Thinking;

/* GdkSurface::render, which a frame emits when it draws something (a
 * hook: the window's own handler stops the emission). */
static gboolean
on_thinking_render (GSignalInvocationHint *hint,
                    guint                  n_values,
                    const GValue          *values,
                    gpointer               user_data)
{
  Thinking *thinking = user_data;

  if (thinking->frames > SETTLE_FRAMES && thinking->frames <= SETTLE_FRAMES + THINKING_FRAMES)
    thinking->renders++;
  return TRUE;
}

static gboolean
has_css_class (GtkWidget  *widget,
               const char *name)
{
  if (gtk_widget_has_css_class (widget, name) && gtk_widget_get_mapped (widget))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_css_class (child, name))
      return TRUE;
  return FALSE;
}

static gboolean
count_thinking_frame (GtkWidget     *widget,
                      GdkFrameClock *clock,
                      gpointer       user_data)
{
  Thinking *thinking = user_data;

  /* The indicator is shown some time after the question is sent, and
   * then its row once the transcript has made room for it. */
  if (thinking->frames == 0 && !has_css_class (widget, "thinking"))
    {
      if (gdk_frame_clock_get_frame_time (clock) - thinking->sent > THINKING_TIMEOUT_US)
        {
          fprintf (stderr, "akc-bench-transcript: no thinking indicator while the reply streams\n");
          exit (1);
        }
      return G_SOURCE_CONTINUE;
    }

  /* Counted once it has settled (its row built, scrolled to). */
  if (thinking->frames == SETTLE_FRAMES)
    {
      thinking->cpu_start = akc_bench_cpu_seconds ();
      akc_bench_callgrind_mark ("thinking-setup");
    }
  if (++thinking->frames <= SETTLE_FRAMES + THINKING_FRAMES)
    return G_SOURCE_CONTINUE;

  akc_bench_callgrind_mark ("thinking");
  thinking->cpu_ms = (akc_bench_cpu_seconds () - thinking->cpu_start) / THINKING_FRAMES * 1e3;
  g_main_loop_quit (thinking->bench->loop);
  return G_SOURCE_REMOVE;
}

static int
run_thinking (void)
{
  Bench bench = { 0 };
  g_autoptr(GPtrArray) messages = make_messages (STREAM_MESSAGES);
  Thinking thinking = { &bench, 0, 0, 0, 0, 0 };
  gulong render_hook;

  /* The composer's cursor would blink for its first 10 s, drawing frames
   * of its own. */
  g_object_set (gtk_settings_get_default (), "gtk-cursor-blink", FALSE, NULL);

  bench.loop = g_main_loop_new (NULL, FALSE);
  bench.window = build_window (messages, &bench.chat);
  /* No chunk comes: only the indicator changes. */
  if (!set_chunk_interval (bench.chat, 3600 * 1000))
    return 1;
  show_and_settle (&bench, NULL);

  if (!akc_chat_source_send (AKC_CHAT_SOURCE (bench.chat), "A long answer, please.", NULL))
    {
      fprintf (stderr, "akc-bench-transcript: the question was not sent\n");
      return 1;
    }
  thinking.sent = gdk_frame_clock_get_frame_time (gtk_widget_get_frame_clock (bench.window));
  gtk_widget_add_tick_callback (bench.window, count_thinking_frame, &thinking, NULL);
  render_hook = g_signal_add_emission_hook (g_signal_lookup ("render", GDK_TYPE_SURFACE), 0,
                                            on_thinking_render, &thinking, NULL);
  g_main_loop_run (bench.loop);
  g_signal_remove_emission_hook (g_signal_lookup ("render", GDK_TYPE_SURFACE), render_hook);

  if (!akc_bench_callgrind_active ())
    {
      printf ("thinking_frames=%d\n", THINKING_FRAMES);
      printf ("thinking_frames_drawn=%u\n", thinking.renders);
      printf ("thinking_cpu_per_frame_ms=%.4f\n", thinking.cpu_ms);
    }

  akc_chat_source_stop (AKC_CHAT_SOURCE (bench.chat));
  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_main_loop_unref (bench.loop);
  return 0;
}

/* ------------------------------------------------------------------ */
/* The parent run                                                      */
/* ------------------------------------------------------------------ */

static GHashTable *
run_case (const char  *self_path,
          const char  *name,
          const char  *argument)
{
  const char *argv[] = { self_path, "--case", name, argument, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) env = g_get_environ ();
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  int status = 0;

  /* A case whose setup goes wrong fails the bench: criticals abort it, and
   * a warning it prints is an error here. */
  env = g_environ_setenv (env, "G_DEBUG", "fatal-criticals", TRUE);
  if (!g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      fprintf (stderr, "akc-bench-transcript: case %s %s failed: %s\n%s", name, argument ? argument : "",
               error->message, err != NULL ? err : "");
      exit (1);
    }
  if (err != NULL && (strstr (err, "-WARNING") != NULL || strstr (err, "-CRITICAL") != NULL))
    {
      fprintf (stderr, "akc-bench-transcript: case %s %s warned (run it in a session bus: "
               "dbus-run-session -- xvfb-run -a akc-bench-transcript):\n%s",
               name, argument ? argument : "", err);
      exit (1);
    }

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *equals = strchr (lines[i], '=');

      if (equals != NULL)
        g_hash_table_insert (values, g_strndup (lines[i], equals - lines[i]), g_strdup (equals + 1));
    }

  return values;
}

static double
value_of (GHashTable *values,
          const char *key)
{
  const char *text = g_hash_table_lookup (values, key);

  return text != NULL ? g_ascii_strtod (text, NULL) : 0;
}

typedef struct {
  double first_frame_ms;
  double rss_mib;
} FrameCase;

static FrameCase
first_frame_case (const char *self_path,
                  guint       n,
                  char      **renderer)
{
  g_autofree char *argument = g_strdup_printf ("%u", n);
  double times[REPEATS], rss[REPEATS];
  FrameCase result;

  for (guint i = 0; i < REPEATS; i++)
    {
      g_autoptr(GHashTable) values = run_case (self_path, "first-frame", argument);

      times[i] = value_of (values, "first_frame_ms");
      rss[i] = value_of (values, "rss_mib");
      if (*renderer == NULL)
        *renderer = g_strdup (g_hash_table_lookup (values, "renderer"));
    }
  result.first_frame_ms = akc_bench_median (times, REPEATS);
  result.rss_mib = akc_bench_median (rss, REPEATS);

  return result;
}

static gboolean use_callgrind = TRUE;

/* Instructions per chunk of the growth case, counted under callgrind with
 * the cairo renderer (GL would count Mesa's software rasteriser too). */
static void
print_growth_instructions (const char *self_path)
{
  const char *argv[] = { self_path, "--case", "growth", NULL };
  g_autoptr(GHashTable) phases = NULL;
  g_autoptr(GError) error = NULL;
  const double chunks = GROWTH_SPAN / GROWTH_CHUNK;
  double near, far;

  if (!use_callgrind)
    return;
  phases = akc_bench_callgrind_run (argv, &error);
  if (phases == NULL)
    {
      fprintf (stderr, "akc-bench-transcript: the growth case under callgrind failed: %s "
               "(--no-callgrind skips it)\n", error->message);
      exit (1);
    }
  near = akc_bench_callgrind_lookup (phases, "growth-near") / chunks;
  far = akc_bench_callgrind_lookup (phases, "growth-far") / chunks;
  printf ("    instructions per chunk (callgrind, every thread): at %d characters %.2f M, at %d characters %.2f M: %.2fx\n",
          GROWTH_NEAR, near / 1e6, GROWTH_FAR, far / 1e6, far / MAX (near, 1));
}

/* All the figures with one renderer (GSK_RENDERER as it is set now). */
static void
run_all (const char *self_path)
{
  static const guint sizes[] = { 0, 1000, 10000 };
  FrameCase cases[G_N_ELEMENTS (sizes)];
  g_autofree char *renderer = NULL;
  g_autoptr(GHashTable) stream = NULL;
  double p99, growth, limit;

  g_autoptr(GHashTable) growing = NULL;
  g_autoptr(GHashTable) thinking = NULL;
  double near_ms, far_ms, ratio;

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    cases[i] = first_frame_case (self_path, sizes[i], &renderer);
  stream = run_case (self_path, "stream", NULL);
  growing = run_case (self_path, "growth", NULL);
  thinking = run_case (self_path, "thinking", NULL);

  printf ("Transcript in the main window (GTK %u.%u.%u, %s, %dx%d)\n",
          gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version (),
          renderer != NULL ? renderer : "?", WINDOW_WIDTH, WINDOW_HEIGHT);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    printf ("  first frame with %5u messages: %8.1f ms   RSS %6.1f MiB (%+.1f MiB)   [median of %d runs]\n",
            sizes[i], cases[i].first_frame_ms, cases[i].rss_mib, cases[i].rss_mib - cases[0].rss_mib, REPEATS);

  printf ("  streaming %u chunks/s into %u messages: %.0f chunks, %.0f characters, %.0f frames in %.1f s\n",
          CHUNKS_PER_SECOND, STREAM_MESSAGES, value_of (stream, "chunks"), value_of (stream, "characters"),
          value_of (stream, "frames"), value_of (stream, "stream_seconds"));
  printf ("    frame interval p50 %.2f ms, p99 %.2f ms, max %.2f ms (idle, nothing streaming: p50 %.2f ms, p99 %.2f ms)\n",
          value_of (stream, "p50_ms"), value_of (stream, "p99_ms"), value_of (stream, "max_ms"),
          value_of (stream, "idle_p50_ms"), value_of (stream, "idle_p99_ms"));
  printf ("    main-thread CPU from one frame's end to the next's: p50 %.2f ms, p99 %.2f ms\n",
          value_of (stream, "work_p50_ms"), value_of (stream, "work_p99_ms"));
  printf ("    CPU per chunk %.3f ms (%.3f ms beyond the frames drawn when idle)\n",
          value_of (stream, "cpu_per_chunk_ms"),
          value_of (stream, "cpu_per_chunk_ms") - value_of (stream, "idle_cpu_per_chunk_ms"));

  near_ms = value_of (growing, "near_cpu_per_chunk_ms");
  far_ms = value_of (growing, "far_cpu_per_chunk_ms");
  ratio = far_ms / MAX (near_ms, 1e-9);
  printf ("  a Markdown reply (paragraphs, lists, code) written %d characters a frame into %u messages:\n",
          GROWTH_CHUNK, STREAM_MESSAGES);
  printf ("    CPU per chunk at %d characters %.3f ms, at %d characters %.3f ms: %.2fx "
          "(a frame with nothing new to lay out: %.3f ms)\n",
          GROWTH_NEAR, near_ms, GROWTH_FAR, far_ms, ratio, value_of (growing, "idle_cpu_per_frame_ms"));
  printf ("    the frame at %d characters draws %.0f render nodes, %.0f of them text (%.0f glyphs): %s\n",
          GROWTH_FAR, value_of (growing, "frame_nodes"), value_of (growing, "frame_text_nodes"),
          value_of (growing, "frame_glyphs"), (const char *) g_hash_table_lookup (growing, "frame_node_types"));
  if (g_strcmp0 (renderer, "GskCairoRenderer") == 0)
    print_growth_instructions (self_path);
  printf ("  the thinking indicator alone (a reply streaming, no chunk yet): %.0f of %.0f frames drawn, "
          "CPU per frame %.3f ms\n",
          value_of (thinking, "thinking_frames_drawn"), value_of (thinking, "thinking_frames"),
          value_of (thinking, "thinking_cpu_per_frame_ms"));

  limit = 1.5 * cases[0].first_frame_ms;
  growth = cases[2].rss_mib - cases[0].rss_mib;
  p99 = value_of (stream, "p99_ms");
  printf ("  targets:\n");
  printf ("    first frame at 10,000 messages within 1.5x the empty window: %.1f ms <= %.1f ms: %s\n",
          cases[2].first_frame_ms, limit, cases[2].first_frame_ms <= limit ? "met" : "NOT MET");
  printf ("    RSS growth at 10,000 messages under 60 MiB: %.1f MiB: %s\n",
          growth, growth < 60.0 ? "met" : "NOT MET");
  printf ("    p99 frame interval while streaming <= 20 ms: %.2f ms: %s%s\n",
          p99, p99 <= 20.0 ? "met" : "NOT MET",
          p99 > 20.0 && value_of (stream, "idle_p99_ms") > 20.0
          ? " (with nothing streaming it is over 20 ms too: the machine is too busy to judge it)" : "");
  printf ("    CPU per chunk at %d characters within 1.2x of %d characters: %.2fx: %s\n",
          GROWTH_FAR, GROWTH_NEAR, ratio, ratio <= 1.2 ? "met" : "NOT MET");
  printf ("    CPU per chunk at %d characters <= 1.5 ms: %.3f ms: %s%s\n",
          GROWTH_FAR, far_ms, far_ms <= 1.5 ? "met" : "NOT MET",
          g_strcmp0 (renderer, "GskCairoRenderer") == 0 ? "" : " (the target is for the cairo renderer)");
}

int
main (int   argc,
      char *argv[])
{
  /* The window's settings: the build's schema, nothing written. */
  g_setenv ("GSETTINGS_SCHEMA_DIR", BUILD_SCHEMA_DIR, FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);

  if (argc >= 3 && strcmp (argv[1], "--case") == 0)
    {
      /* As the application starts GTK (no OpenGL set up for cairo). */
      akc_application_choose_gl ();
      gtk_init ();
      adw_init ();

      if (strcmp (argv[2], "first-frame") == 0 && argc >= 4)
        return run_first_frame ((guint) g_ascii_strtoull (argv[3], NULL, 10));
      if (strcmp (argv[2], "stream") == 0)
        return run_stream ();
      if (strcmp (argv[2], "growth") == 0)
        return run_growth ();
      if (strcmp (argv[2], "thinking") == 0)
        return run_thinking ();
      fprintf (stderr, "akc-bench-transcript: unknown case %s\n", argv[2]);
      return 2;
    }

  if (argc == 2 && strcmp (argv[1], "--no-callgrind") == 0)
    use_callgrind = FALSE;
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--no-callgrind]\n", argv[0]);
      return 2;
    }

  /* GTK's own choice of renderer (GL: in Xvfb, Mesa's llvmpipe draws on the
   * CPU), and, unless GSK_RENDERER chose one, the cairo renderer too: the
   * work of the transcript itself shows best there, as the frames drawn
   * when nothing changes cost next to nothing. */
  if (g_getenv ("GSK_RENDERER") != NULL)
    {
      run_all (argv[0]);
      return 0;
    }

  run_all (argv[0]);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  run_all (argv[0]);
  g_unsetenv ("GSK_RENDERER");

  return 0;
}

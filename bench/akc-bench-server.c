/* akc-bench-server.c: akc-server under load, on loopback only
 *
 * SPDX-License-Identifier: MIT
 *
 *   akc-bench-server [PATH-TO-akc-server]
 *
 * Starts akc-server with its own configuration (a chat mount without
 * authentication, a scripted adapter answering at once, sessions in
 * memory) on 127.0.0.1 and prints:
 *
 *   - turns/s from wrk (Debian's `wrk`, at most 2 threads, 1, 10 and 100
 *     connections, 5 s each), each request a new session and turn;
 *   - p50 and p99 time to the first snapshot line at 1, 10 and 100
 *     concurrent clients (200 turns each level, our own client);
 *   - the server's RSS with 1,000 concurrent open streams (turns waiting
 *     for their adapter), and per stream.
 *
 * It fails (exit 1) when its own setup fails: the server does not start,
 * wrk is missing or fails, a turn does not answer 200.
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <libsoup/soup.h>

#define LEVEL_TURNS 200
#define OPEN_STREAMS 1000

static char *base;
static char *tmp;
static GSubprocess *server_process;   /* ended when the bench fails */
static guint next_session;

static G_NORETURN void fail (const char *format, ...) G_GNUC_PRINTF (1, 2);

static void
fail (const char *format,
      ...)
{
  va_list args;

  va_start (args, format);
  fprintf (stderr, "akc-bench-server: ");
  vfprintf (stderr, format, args);
  fprintf (stderr, "\n");
  va_end (args);
  if (server_process != NULL)
    g_subprocess_force_exit (server_process);
  exit (1);
}

static char *
write_file (const char *name,
            const char *contents)
{
  char *path = g_build_filename (tmp, name, NULL);

  if (!g_file_set_contents (path, contents, -1, NULL))
    fail ("cannot write %s", path);
  return path;
}

static GSubprocess *
start_server (const char *program)
{
  static const char script[] =
    "{\"protocol\":\"agentskit.chat.server-script\",\"version\":1,\"replies\":["
    "{\"input\":\"/slow\",\"chunks\":[{\"text\":\"waiting \"},{\"waitForStop\":true}]},"
    "{\"chunks\":[{\"text\":\"Hello\"},{\"text\":\", world\"}]}]}";
  g_autofree char *script_path = write_file ("bench.script.json", script);
  g_autofree char *config = g_strdup_printf ("{\"protocol\":\"agentskit.chat.server-config\",\"version\":1,"
                                             "\"definitions\":[{\"id\":\"bench\",\"adapter\":{\"kind\":\"script\","
                                             "\"file\":\"%s\"},\"memory\":\"none\"}],"
                                             "\"mounts\":[{\"path\":\"/chat\",\"handler\":\"chat\","
                                             "\"auth\":{\"kind\":\"none\"},"
                                             "\"sessions\":[{\"prefix\":\"\",\"definition\":\"bench\"}]}]}",
                                             script_path);
  g_autofree char *config_path = write_file ("bench.json", config);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  GSubprocess *process;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, program, "--config", config_path,
                              "--listen", "127.0.0.1:0", NULL);
  if (process == NULL)
    fail ("cannot start %s: %s", program, error->message);
  server_process = process;
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  if (line == NULL || !g_str_has_prefix (line, "listening on http://127.0.0.1:"))
    fail ("akc-server did not start");
  base = g_strndup (line + strlen ("listening on "), strlen (line) - strlen ("listening on ") - 1);
  return process;
}

static char *
submit_body (const char *input)
{
  guint n = ++next_session;

  return g_strdup_printf ("{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e-%u\","
                          "\"sessionId\":\"bench-%u\",\"turnId\":\"turn-%u\",\"sequence\":0,"
                          "\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"client.turn.submit\","
                          "\"payload\":{\"input\":\"%s\"}}", n, n, n, input);
}

/* wrk ------------------------------------------------------------------ */

static void
run_wrk (guint connections)
{
  static const char lua[] =
    "local threads = 0\n"
    "function setup (thread)\n"
    "  threads = threads + 1\n"
    "  thread:set ('tid', threads)\n"
    "end\n"
    "local n = 0\n"
    "request = function ()\n"
    "  n = n + 1\n"
    "  local id = string.format ('wrk-' .. run .. '-%d-%d', tid, n)\n"
    "  local body = '{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"eventId\":\"e-' .. id ..\n"
    "    '\",\"sessionId\":\"' .. id .. '\",\"turnId\":\"t-' .. id .. '\",\"sequence\":0,' ..\n"
    "    '\"emittedAt\":\"2026-07-11T00:00:00.000Z\",\"event\":\"client.turn.submit\",' ..\n"
    "    '\"payload\":{\"input\":\"hello\"}}'\n"
    "  return wrk.format ('POST', '/chat', {['Content-Type'] = 'application/json'}, body)\n"
    "end\n"
    "response = function (status, headers, body)\n"
    "  if status ~= 200 then print (status, body) wrk.thread:stop () end\n"
    "end\n";
  /* each run has sessions of its own */
  g_autofree char *script = g_strdup_printf ("local run = '%u'\n%s", connections, lua);
  g_autofree char *lua_path = write_file ("bench.lua", script);
  g_autofree char *url = g_strconcat (base, "/chat", NULL);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) wrk = NULL;
  g_autofree char *threads = g_strdup_printf ("-t%u", MIN (connections, 2));
  g_autofree char *count = g_strdup_printf ("-c%u", connections);
  const char *rps;
  int status;

  wrk = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "wrk", threads, count, "-d5s", "-s", lua_path, url,
                          NULL);
  if (wrk == NULL)
    fail ("wrk cannot run: %s (apt-get install wrk)", error->message);
  if (!g_subprocess_communicate_utf8 (wrk, NULL, NULL, &out, NULL, &error))
    fail ("wrk failed: %s", error->message);
  status = g_subprocess_get_exit_status (wrk);
  rps = strstr (out, "Requests/sec:");
  if (status != 0 || rps == NULL || strstr (out, "Non-2xx") != NULL)
    fail ("wrk failed:\n%s", out);
  printf ("turns/s (wrk, %3u connections, 5 s): %.0f\n", connections,
          g_ascii_strtod (rps + strlen ("Requests/sec:"), NULL));
}

/* Our own client: time to the first snapshot ---------------------------- */

typedef struct
{
  SoupSession     *session;
  const char      *input;
  guint            remaining;   /* turns still to start */
  guint            running;
  GArray          *latencies;   /* double, ms */
  gboolean         keep_open;   /* leave the stream open after its first line */
  GPtrArray       *open;        /* GInputStream of open streams */
} Load;

typedef struct
{
  Load             *load;
  SoupMessage      *message;
  GDataInputStream *lines;
  gint64            started;
} Turn;

static void start_turn (Load *load);

static void
turn_done (Turn *turn)
{
  Load *load = turn->load;

  load->running--;
  g_clear_object (&turn->lines);
  g_clear_object (&turn->message);
  g_free (turn);
  if (load->remaining > 0)
    start_turn (load);
}

static void
on_rest (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Turn *turn = user_data;
  g_autoptr(GBytes) rest = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, NULL);

  if (rest != NULL && g_bytes_get_size (rest) > 0)
    {
      g_input_stream_read_bytes_async (G_INPUT_STREAM (source), 65536, G_PRIORITY_DEFAULT, NULL, on_rest, turn);
      return;
    }
  turn_done (turn);
}

static void
on_line (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Turn *turn = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL,
                                                                    &error);
  double ms = (g_get_monotonic_time () - turn->started) / 1000.0;

  if (line == NULL || !g_str_has_prefix (line, "{\"protocol\":\"agentskit.chat.turn\""))
    fail ("a turn sent no snapshot");
  g_array_append_val (turn->load->latencies, ms);
  if (turn->load->keep_open)
    {
      g_ptr_array_add (turn->load->open, g_object_ref (turn->lines));
      turn_done (turn);
      return;
    }
  /* read the rest so the connection can be reused */
  g_input_stream_read_bytes_async (G_INPUT_STREAM (turn->lines), 65536, G_PRIORITY_DEFAULT, NULL, on_rest, turn);
}

static void
on_sent (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Turn *turn = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) body = soup_session_send_finish (SOUP_SESSION (source), result, &error);

  if (body == NULL || soup_message_get_status (turn->message) != 200)
    fail ("a turn failed: %s (%u)", error != NULL ? error->message : "", soup_message_get_status (turn->message));
  turn->lines = g_data_input_stream_new (body);
  g_data_input_stream_read_line_async (turn->lines, G_PRIORITY_DEFAULT, NULL, on_line, turn);
}

static void
start_turn (Load *load)
{
  Turn *turn = g_new0 (Turn, 1);
  g_autofree char *url = g_strconcat (base, "/chat", NULL);
  g_autofree char *body = submit_body (load->input);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

  load->remaining--;
  load->running++;
  turn->load = load;
  turn->message = soup_message_new ("POST", url);
  soup_message_set_request_body_from_bytes (turn->message, "application/json", bytes);
  turn->started = g_get_monotonic_time ();
  soup_session_send_async (load->session, turn->message, G_PRIORITY_DEFAULT, NULL, on_sent, turn);
}

static int
compare (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
run_level (guint concurrency)
{
  g_autoptr(SoupSession) session = soup_session_new_with_options ("max-conns", concurrency + 4,
                                                                  "max-conns-per-host", concurrency + 4, NULL);
  Load load = { session, "hello", LEVEL_TURNS, 0, g_array_new (FALSE, FALSE, sizeof (double)), FALSE, NULL };
  double p50, p99;

  for (guint i = 0; i < concurrency; i++)
    start_turn (&load);
  while (load.running > 0 || load.remaining > 0)
    g_main_context_iteration (NULL, TRUE);
  g_array_sort (load.latencies, compare);
  p50 = g_array_index (load.latencies, double, load.latencies->len / 2);
  p99 = g_array_index (load.latencies, double, (load.latencies->len * 99) / 100);
  printf ("time to first snapshot, %3u concurrent: p50 %.2f ms, p99 %.2f ms\n", concurrency, p50, p99);
  g_array_unref (load.latencies);
}

static long
rss_kib (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents (path, &status, NULL, NULL) || (line = strstr (status, "VmRSS:")) == NULL)
    fail ("cannot read the server's RSS");
  return strtol (line + strlen ("VmRSS:"), NULL, 10);
}

static void
run_open_streams (GSubprocess *server)
{
  g_autoptr(SoupSession) session = soup_session_new_with_options ("max-conns", OPEN_STREAMS + 8,
                                                                  "max-conns-per-host", OPEN_STREAMS + 8, NULL);
  GPid pid = (GPid) g_ascii_strtoll (g_subprocess_get_identifier (server), NULL, 10);
  Load load = { session, "/slow", OPEN_STREAMS, 0, g_array_new (FALSE, FALSE, sizeof (double)), TRUE,
                g_ptr_array_new_with_free_func (g_object_unref) };
  long before = rss_kib (pid), after;

  for (guint i = 0; i < OPEN_STREAMS; i++)
    start_turn (&load);
  while (load.running > 0)
    g_main_context_iteration (NULL, TRUE);
  after = rss_kib (pid);
  printf ("server RSS: %ld KiB idle, %ld KiB with %u open streams (%.1f KiB per stream)\n", before, after,
          load.open->len, (double) (after - before) / load.open->len);
  g_ptr_array_unref (load.open);
  g_array_unref (load.latencies);
}

int
main (int   argc,
      char *argv[])
{
  const char *program = argc > 1 ? argv[1] : BUILD_AKC_SERVER;
  g_autoptr(GSubprocess) server = NULL;
  struct rlimit files;

  /* 1,000 streams are 1,000 sockets on each side */
  if (getrlimit (RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 4096 && files.rlim_max >= 4096)
    {
      files.rlim_cur = 4096;
      setrlimit (RLIMIT_NOFILE, &files);
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  tmp = g_dir_make_tmp ("akc-bench-server-XXXXXX", NULL);
  server = start_server (program);
  printf ("akc-server on %s (loopback)\n", base);

  run_wrk (1);
  run_wrk (10);
  run_wrk (100);
  run_level (1);
  run_level (10);
  run_level (100);
  run_open_streams (server);

  g_subprocess_send_signal (server, SIGTERM);
  g_subprocess_wait (server, NULL, NULL);
  return 0;
}

/* test-cli-output.c: the terminal sanitiser of akc (issue #12 item 4)
 *
 * SPDX-License-Identifier: MIT
 *
 * Text from a peer reaches a terminal with every control and invisible
 * format character shown, never obeyed; tab and line feed stay; a pipe
 * gets the bytes unchanged.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <pty.h>

#include "akc-cli-output.h"

typedef struct
{
  const char *input;
  gssize      length;
  const char *rendered;
} Case;

static const Case cases[] = {
  { "plain text, \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80", -1, "plain text, \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80" },
  { "tab\tand\nnewline\n", -1, "tab\tand\nnewline\n" },
  /* ESC/CSI: clear the screen, the device-status query, SGR */
  { "\x1b[2J\x1b[6n\x1b[31mred", -1, "\\x1b[2J\\x1b[6n\\x1b[31mred" },
  /* OSC 0 (title) and OSC 8 (a hidden hyperlink), ended by BEL and ST */
  { "\x1b]0;owned\x07", -1, "\\x1b]0;owned\\x07" },
  { "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", -1,
    "\\x1b]8;;https://evil.example/\\x1b\\click\\x1b]8;;\\x1b\\" },
  { "carriage\rreturn, back\bspace, del\x7f", -1, "carriage\\x0dreturn, back\\x08space, del\\x7f" },
  /* U+0000 inside the text */
  { "a\0b", 3, "a\\x00b" },
  /* C1 controls: U+009B is CSI, U+0085 NEL */
  { "\xc2\x9b" "2J \xc2\x85", -1, "<U+009B>2J <U+0085>" },
  /* bidi overrides, embeddings, isolates and marks */
  { "abc\xe2\x80\xae" "fdp.exe", -1, "abc<U+202E>fdp.exe" },
  { "\xe2\x81\xa6x\xe2\x81\xa9 \xe2\x80\xaa\xe2\x80\xac \xe2\x80\x8e\xe2\x80\x8f \xd8\x9c", -1,
    "<U+2066>x<U+2069> <U+202A><U+202C> <U+200E><U+200F> <U+061C>" },
  /* zero-width and other format characters; joiners stay */
  { "zero\xe2\x80\x8bwidth\xe2\x81\xa0joiner\xef\xbb\xbf", -1, "zero<U+200B>width<U+2060>joiner<U+FEFF>" },
  { "\xf3\xa0\x80\x81tag", -1, "<U+E0001>tag" },
  { "\xe2\x80\xa8line\xe2\x80\xa9", -1, "<U+2028>line<U+2029>" },
  { "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", -1, "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9" },
  /* not UTF-8: each byte is shown */
  { "bad \xff\xc3 bytes \xed\xa0\x80", -1, "bad \\xff\\xc3 bytes \\xed\\xa0\\x80" },
};

static void
test_render (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize length;
      g_autofree char *rendered = akc_cli_render_untrusted (cases[i].input, cases[i].length, &length);

      g_assert_cmpstr (rendered, ==, cases[i].rendered);
      g_assert_cmpuint (length, ==, strlen (cases[i].rendered));
      g_assert_true (g_utf8_validate (rendered, length, NULL));
    }
}

/* Every code point: the result holds no control but tab and line feed,
 * and no format character but the joiners. */
static void
test_render_every_code_point (void)
{
  g_autoptr(GString) all = g_string_new (NULL);
  g_autofree char *rendered = NULL;
  gsize length;

  for (gunichar c = 0; c <= 0x10FFFF; c++)
    if (c < 0xD800 || c > 0xDFFF)
      {
        char buf[6];

        g_string_append_len (all, buf, g_unichar_to_utf8 (c, buf));
      }

  rendered = akc_cli_render_untrusted (all->str, all->len, &length);
  g_assert_true (g_utf8_validate (rendered, length, NULL));
  for (const char *p = rendered; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\t' || c == '\n' || c == 0x200C || c == 0x200D)
        continue;
      g_assert_false (g_unichar_iscntrl (c));
      g_assert_cmpint (g_unichar_type (c), !=, G_UNICODE_FORMAT);
      g_assert_cmpuint (c, !=, 0x2028);
      g_assert_cmpuint (c, !=, 0x2029);
    }
}

static char *
read_all (int fd)
{
  GString *out = g_string_new (NULL);
  char buffer[256];
  ssize_t n;

  while ((n = read (fd, buffer, sizeof buffer)) > 0)
    g_string_append_len (out, buffer, n);

  return g_string_free (out, FALSE);
}

/* A pipe gets the bytes as they are; a terminal gets them rendered. */
static void
test_write_pipe_and_terminal (void)
{
  const char text[] = "x\x1b[2Jy\xe2\x80\xae\n";
  int fds[2];
  int master, slave;
  FILE *stream;
  g_autofree char *piped = NULL;
  g_autofree char *shown = NULL;
  struct termios raw;

  g_assert_cmpint (pipe (fds), ==, 0);
  stream = fdopen (fds[1], "w");
  g_assert_false (akc_cli_is_terminal (stream));
  akc_cli_write_untrusted (stream, text, -1);
  akc_cli_print_untrusted (stream, "Status: %s\n", "\x1b]0;t\x07");
  fclose (stream);
  piped = read_all (fds[0]);
  close (fds[0]);
  g_assert_cmpstr (piped, ==, "x\x1b[2Jy\xe2\x80\xae\nStatus: \x1b]0;t\x07\n");

  if (openpty (&master, &slave, NULL, NULL, NULL) != 0)
    {
      g_test_skip ("no pseudo-terminal");
      return;
    }
  /* No output processing, so the line feed arrives as it was written. */
  g_assert_cmpint (tcgetattr (slave, &raw), ==, 0);
  cfmakeraw (&raw);
  g_assert_cmpint (tcsetattr (slave, TCSANOW, &raw), ==, 0);
  stream = fdopen (slave, "w");
  g_assert_true (akc_cli_is_terminal (stream));
  akc_cli_write_untrusted (stream, text, -1);
  akc_cli_print_untrusted (stream, "Status: %s\n", "\x1b]0;t\x07");
  fclose (stream);
  shown = read_all (master);
  close (master);
  g_assert_cmpstr (shown, ==, "x\\x1b[2Jy<U+202E>\nStatus: \\x1b]0;t\\x07\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-output/render", test_render);
  g_test_add_func ("/cli-output/render-every-code-point", test_render_every_code_point);
  g_test_add_func ("/cli-output/write-pipe-and-terminal", test_write_pipe_and_terminal);

  return g_test_run ();
}

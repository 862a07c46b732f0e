/* akc-cli-output.c: writing text a peer controls to a terminal
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include <glib/gprintf.h>

#include "akc-cli-output.h"

/* Whether @c is shown as `<U+XXXX>` rather than written. */
static gboolean
is_hidden (gunichar c)
{
  if (c >= 0x80 && c <= 0x9F)
    return TRUE;                        /* C1 controls (U+009B is CSI) */
  if (c == 0x200C || c == 0x200D)
    return FALSE;                       /* joiners: scripts and emoji */
  if (c == 0x2028 || c == 0x2029)
    return TRUE;                        /* line and paragraph separators */

  /* Category Cf holds the bidi marks, embeddings, overrides and isolates
   * (U+061C, U+200E/F, U+202A–E, U+2066–9), the zero-width space, word
   * joiner and invisible operators, the BOM, the interlinear annotation
   * marks and the tag characters. */
  return g_unichar_type (c) == G_UNICODE_FORMAT;
}

/**
 * akc_cli_render_untrusted:
 * @text: (array length=length): text from a peer, not necessarily UTF-8
 * @length: its length in bytes, or -1 if it is NUL-terminated
 * @out_length: (out) (optional): the length of the result
 *
 * Renders @text for a terminal: every control and invisible format
 * character becomes visible text (see the header for the rules); tab and
 * line feed stay.
 *
 * Returns: (transfer full): the rendered text, valid UTF-8 holding no
 *   control character other than tab and line feed
 */
char *
akc_cli_render_untrusted (const char *text,
                          gssize      length,
                          gsize      *out_length)
{
  GString *out;
  gsize pos = 0, len;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  out = g_string_sized_new (len + 1);

  while (pos < len)
    {
      guchar b = (guchar) text[pos];
      gsize start = pos;

      /* Copy the run of characters that need nothing. */
      while (pos < len && (b = (guchar) text[pos]) < 0x80 &&
             (b >= 0x20 || b == '\t' || b == '\n') && b != 0x7F)
        pos++;
      g_string_append_len (out, text + start, pos - start);
      if (pos == len)
        break;

      if (b < 0x80)
        {
          g_string_append_printf (out, "\\x%02x", b);
          pos++;
          continue;
        }

      {
        gunichar c = g_utf8_get_char_validated (text + pos, len - pos);

        if (c == (gunichar) -1 || c == (gunichar) -2)
          {
            g_string_append_printf (out, "\\x%02x", b);
            pos++;
          }
        else
          {
            const char *next = g_utf8_next_char (text + pos);

            if (is_hidden (c))
              g_string_append_printf (out, "<U+%04X>", c);
            else
              g_string_append_len (out, text + pos, next - (text + pos));
            pos = next - text;
          }
      }
    }

  if (out_length != NULL)
    *out_length = out->len;

  return g_string_free (out, FALSE);
}

/**
 * akc_cli_is_terminal:
 * @stream: a stream
 *
 * Tells whether @stream writes to a terminal, where text from a peer
 * is rendered.
 *
 * Returns: %TRUE for a terminal
 */
gboolean
akc_cli_is_terminal (FILE *stream)
{
  int fd = fileno (stream);

  return fd >= 0 && isatty (fd);
}

/**
 * akc_cli_write_untrusted:
 * @stream: where to write
 * @text: (array length=length): text from a peer
 * @length: its length in bytes, or -1 if it is NUL-terminated
 *
 * Writes @text to @stream: rendered with akc_cli_render_untrusted() when
 * @stream is a terminal, unchanged otherwise.
 */
void
akc_cli_write_untrusted (FILE       *stream,
                         const char *text,
                         gssize      length)
{
  gsize len;

  g_return_if_fail (text != NULL || length == 0);

  len = length < 0 ? strlen (text) : (gsize) length;
  if (len == 0)
    return;

  if (akc_cli_is_terminal (stream))
    {
      gsize rendered_len;
      g_autofree char *rendered = akc_cli_render_untrusted (text, len, &rendered_len);

      fwrite (rendered, 1, rendered_len, stream);
    }
  else
    fwrite (text, 1, len, stream);
}

/**
 * akc_cli_print_untrusted:
 * @stream: where to write
 * @format: a printf() format
 * @...: its arguments, which may hold text from a peer
 *
 * Formats a line that holds text from a peer and writes it as
 * akc_cli_write_untrusted() does. The format itself should hold no
 * control character other than tab and line feed.
 */
void
akc_cli_print_untrusted (FILE       *stream,
                         const char *format,
                         ...)
{
  g_autofree char *text = NULL;
  va_list args;
  int length;

  va_start (args, format);
  length = g_vasprintf (&text, format, args);
  va_end (args);

  if (length > 0)
    akc_cli_write_untrusted (stream, text, length);
}

/* akc-cli-output.h: writing text a peer controls to a terminal
 *
 * SPDX-License-Identifier: MIT
 *
 * Text that comes from a server (answers, titles, error and diagnostic
 * messages, statuses) may hold bytes a terminal obeys rather than shows:
 * ESC and CSI sequences (clear the screen, move the cursor, the `6n`
 * device-status query that types its reply into the terminal), OSC
 * (window titles, hidden OSC 8 hyperlinks), bidi overrides that reorder
 * what is shown, and invisible characters. Every place `akc` prints such
 * text goes through akc_cli_write_untrusted() or akc_cli_print_untrusted().
 *
 * When the stream is a terminal these render every control visibly:
 * - C0 controls other than tab and line feed, and DEL: `\x1b`, `\x0d`, `\x7f`;
 * - C1 controls (U+0080–U+009F), bidi marks, embeddings, overrides and
 *   isolates, the line and paragraph separators U+2028/U+2029, and every
 *   other format character (Unicode category Cf: zero-width space, word
 *   joiner, BOM, tags, …): `<U+202E>`. Zero-width (non-)joiners U+200C
 *   and U+200D stay, since scripts and emoji need them;
 * - bytes that are not UTF-8: `\xff`.
 * Tab and line feed are kept. When the stream is not a terminal (a pipe,
 * a file) the text is written unchanged, so scripts get the exact bytes.
 */

#pragma once

#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

char     *akc_cli_render_untrusted  (const char *text,
                                     gssize      length,
                                     gsize      *out_length);

gboolean  akc_cli_is_terminal       (FILE       *stream);

void      akc_cli_write_untrusted   (FILE       *stream,
                                     const char *text,
                                     gssize      length);

void      akc_cli_print_untrusted   (FILE       *stream,
                                     const char *format,
                                     ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS

/* akc-json-scan-private.h: the JSON string scanner, a vector at a time
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc (not installed, not scanned).
 *
 * Inside a JSON string most bytes are "plain": printable ASCII other than
 * the quote and the backslash (0x20–0x7F except 0x22 and 0x5C). Plain
 * bytes stand for themselves, so the parser copies them as they are and
 * stops only at a quote, a backslash, a control byte (< 0x20, rejected)
 * or a non-ASCII byte (UTF-8, validated with the replacement rules of
 * protocol §1.2). akc_json_scan_plain() finds the end of a plain run
 * and copies it in the same pass.
 *
 * The implementation is chosen when libakc is built: SSE2 on x86-64 (its
 * baseline; where the compiler can also emit AVX2, a 32-byte variant is
 * taken at run time on processors that have it), NEON on aarch64, and a
 * portable one (eight bytes at a time in a 64-bit word) elsewhere. Every
 * implementation compiled in can be selected by name, so the tests run
 * each of them, the portable one included, on every machine.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Copies to @dst the longest prefix of @src[0 … @n) that holds only plain
 * bytes, and returns its length (@n when every byte is plain). @dst has
 * room for @n bytes; bytes of @dst past the returned length may have been
 * written too (with copies of @src). @src and @dst do not overlap. */
gsize         akc_json_scan_plain             (const guint8 *src,
                                               gsize         n,
                                               guint8       *dst);

typedef gsize (*AkcJsonScanFunc) (const guint8 *src,
                                  gsize         n,
                                  guint8       *dst);

/* The implementations compiled into this build, by name ("portable",
 * "sse2", "avx2", "neon"): NULL when @name is not compiled in or the
 * processor lacks it. */
AkcJsonScanFunc akc_json_scan_lookup          (const char   *name);

/* The names of the implementations compiled in (NULL-terminated, static). */
const char * const *akc_json_scan_list        (void);

/* The name of the implementation akc_json_scan_plain() uses. */
const char   *akc_json_scan_get_implementation (void);

/* For tests: makes akc_json_scan_plain() use @name from now on, in the
 * whole process. FALSE (nothing changed) when @name is not usable here. */
gboolean      akc_json_scan_set_implementation (const char   *name);

G_END_DECLS

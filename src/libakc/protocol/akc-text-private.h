/* akc-text-private.h: text rules of the wire protocol (protocol §1.3–§1.6, §8.1)
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc. Every function takes a pointer and a byte length, so
 * strings decoded from JSON that contain U+0000 are handled; the text must be
 * valid UTF-8 (the JSON layer guarantees it). Predicates never allocate.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* §1.3: UTF-16 code units of valid UTF-8 text (which may contain U+0000). */
gsize        akc_text_len16                (const char *s,
                                            gsize       len);

/* §1.4: the ECMAScript white-space + line-terminator set, exactly. */
gboolean     akc_text_is_ws                (gunichar    c);

/* §1.4: trim(); returns a pointer into @s and the trimmed byte length. */
const char  *akc_text_trim                 (const char *s,
                                            gsize       len,
                                            gsize      *out_len);

/* §1.6 patterns, whole-string matches with JavaScript semantics (§1.5). */
gboolean     akc_text_is_safe_id           (const char *s,
                                            gsize       len);
/* ComponentKey, also EventName. */
gboolean     akc_text_is_component_key     (const char *s,
                                            gsize       len);
gboolean     akc_text_is_turn_code         (const char *s,
                                            gsize       len);
gboolean     akc_text_is_ask_code          (const char *s,
                                            gsize       len);
gboolean     akc_text_is_content_hash      (const char *s,
                                            gsize       len);

/* §1.6 DateTime, exact. */
gboolean     akc_text_is_date_time         (const char *s,
                                            gsize       len);

/* §8.3 rule 5: the instant of a valid DateTime in milliseconds since the
 * Unix epoch (offset applied, fraction truncated to milliseconds, missing
 * seconds = :00). Returns %FALSE and leaves @out_ms alone when @s is not a
 * valid DateTime. */
gboolean     akc_text_date_time_to_unix_ms (const char *s,
                                            gsize       len,
                                            gint64     *out_ms);

/* The ISO form `YYYY-MM-DDTHH:mm:ss.sssZ` of @ms milliseconds since the
 * Unix epoch (JavaScript's Date.prototype.toISOString). Times GDateTime
 * cannot hold are written as the epoch. */
char        *akc_text_format_unix_ms       (gint64      ms);

/* §1.6 SafeHref, including the WHATWG host/port/credential rules for http(s). */
gboolean     akc_text_is_safe_href         (const char *s,
                                            gsize       len);

/* §8.1 normalizeKnowledgeKey. Returns a newly allocated, NUL-terminated
 * string; its byte length (which may include embedded U+0000) is stored in
 * @out_len when non-NULL. Never returns NULL for valid UTF-8 input. */
char        *akc_text_normalize_key        (const char *s,
                                            gsize       len,
                                            gsize      *out_len);

/* Helpers shared with the decoders. */

/* Number of UTF-8 bytes of the WS code point starting at @s (0 if none). */
gsize        akc_text_ws_prefix_len        (const char *s,
                                            gsize       len);

/* §1.6 SafeHref rule 5 alone: @s is an absolute URL (it starts with a scheme
 * prefix) that the WHATWG URL parser accepts as http/https without
 * credentials. Assumes rules 1–3 already hold. Implemented in akc-url.c. */
gboolean     akc_url_is_safe_absolute_http (const char *s,
                                            gsize       len);

/* The host (not the port) that a URL accepted by
 * akc_url_is_safe_absolute_http() leads to, as the WHATWG parser reads it:
 * percent-decoded, lower-cased, IPv4 in dotted decimal. %NULL when it is
 * not accepted. Implemented in akc-url.c. */
char        *akc_url_safe_absolute_http_host (const char *s,
                                              gsize       len);

/* A URL accepted by akc_url_is_safe_absolute_http(), split as the WHATWG
 * parser splits it. */
typedef struct {
  gboolean  https;
  char     *host;        /* as akc_url_safe_absolute_http_host() gives it */
  gint      port;        /* -1 when there is none or it is empty */
  gsize     path_start;  /* the end of the authority: the path, query or fragment */
} AkcUrlParts;

gboolean     akc_url_split_safe_absolute_http (const char  *s,
                                               gsize        len,
                                               AkcUrlParts *parts);
void         akc_url_parts_clear              (AkcUrlParts *parts);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AkcUrlParts, akc_url_parts_clear)

G_END_DECLS

/* akc-stream.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-chunk.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_STREAM (akc_stream_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcStream, akc_stream, AKC, STREAM, GObject)

AKC_AVAILABLE_IN_ALL
AkcStream    *akc_stream_new             (void);
AKC_AVAILABLE_IN_ALL
GCancellable *akc_stream_get_cancellable (AkcStream  *self);
AKC_AVAILABLE_IN_ALL
gboolean      akc_stream_push            (AkcStream  *self,
                                          AkcChunk   *chunk);
AKC_AVAILABLE_IN_ALL
gboolean      akc_stream_push_text       (AkcStream  *self,
                                          const char *text);
AKC_AVAILABLE_IN_ALL
gboolean      akc_stream_finish          (AkcStream  *self);
AKC_AVAILABLE_IN_ALL
gboolean      akc_stream_fail            (AkcStream  *self,
                                          const char *code,
                                          const char *message);
AKC_AVAILABLE_IN_ALL
void          akc_stream_cancel          (AkcStream  *self);
AKC_AVAILABLE_IN_ALL
gboolean      akc_stream_is_closed       (AkcStream  *self);

/**
 * AKC_STREAM_MAX_WIRE_TEXT:
 *
 * The longest wire text, in bytes, [method@Stream.tap_wire_text] parses:
 * a longer one is reported by its size only.
 *
 * Since: 0.1
 */
#define AKC_STREAM_MAX_WIRE_TEXT (4 * 1024 * 1024)

AKC_AVAILABLE_IN_ALL
gboolean      akc_stream_wants_wire_events (AkcStream    *self);
AKC_AVAILABLE_IN_ALL
void          akc_stream_tap_wire_event  (AkcStream    *self,
                                          const char   *direction,
                                          AkcJsonValue *event);
AKC_AVAILABLE_IN_ALL
void          akc_stream_tap_wire_text   (AkcStream    *self,
                                          const char   *direction,
                                          const char   *text,
                                          gssize        length);

G_END_DECLS

/* akc-ask-events.h: Ask service events v1 and their NDJSON stream
 * (protocol §6)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_ASK_EVENT_MAX_RECORD_BYTES:
 *
 * The longest record line the Ask decoder reads, in UTF-8 bytes after
 * trimming; also the longest unterminated line it keeps.
 *
 * Since: 0.1
 */
#define AKC_ASK_EVENT_MAX_RECORD_BYTES 1048576

/**
 * AKC_ASK_EVENT_MAX_RECORDS:
 *
 * The most lines one decode call examines.
 *
 * Since: 0.1
 */
#define AKC_ASK_EVENT_MAX_RECORDS 4096

/**
 * AkcAskEventKind:
 * @AKC_ASK_EVENT_KIND_INVALID: not an Ask event
 * @AKC_ASK_EVENT_KIND_TEXT: `{"type":"text","delta":…}`, answer text to append
 * @AKC_ASK_EVENT_KIND_TOOL: `{"type":"tool","id":…,"name":…,"args":{…}}`
 * @AKC_ASK_EVENT_KIND_DONE: `{"type":"done","model"?:…}`, the end of the answer
 * @AKC_ASK_EVENT_KIND_ERROR: `{"type":"error","message":…,"code"?:…,"retryable"?:…}`
 *
 * The variants of an Ask service event ([protocol §6.1](wire-formats.html#protocol-6)).
 *
 * Since: 0.1
 */
typedef enum {
  AKC_ASK_EVENT_KIND_INVALID,
  AKC_ASK_EVENT_KIND_TEXT,
  AKC_ASK_EVENT_KIND_TOOL,
  AKC_ASK_EVENT_KIND_DONE,
  AKC_ASK_EVENT_KIND_ERROR,
} AkcAskEventKind;

#define AKC_TYPE_ASK_EVENT_KIND (akc_ask_event_kind_get_type ())

AKC_AVAILABLE_IN_ALL
GType           akc_ask_event_kind_get_type (void) G_GNUC_CONST;

AKC_AVAILABLE_IN_ALL
AkcAskEventKind akc_ask_event_get_kind      (AkcJsonValue  *event);
AKC_AVAILABLE_IN_ALL
AkcJsonValue   *akc_ask_event_decode        (const char    *line,
                                             gssize         length);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_ask_event_decode_utf8 (const char *line);
AKC_AVAILABLE_IN_ALL
char           *akc_ask_event_encode        (AkcJsonValue  *event,
                                             gsize         *length);
AKC_AVAILABLE_IN_ALL
char *akc_ask_event_encode_utf8 (AkcJsonValue *event);

AKC_AVAILABLE_IN_ALL
GPtrArray      *akc_ask_events_decode       (const char    *buffer,
                                             gssize         length,
                                             char         **rest,
                                             gsize         *rest_length,
                                             gboolean      *discarded_partial);
AKC_AVAILABLE_IN_ALL
GPtrArray *akc_ask_events_decode_utf8 (const char  *buffer,
                                       char       **rest,
                                       gboolean    *discarded_partial);

#define AKC_TYPE_ASK_EVENT_DECODER (akc_ask_event_decoder_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAskEventDecoder, akc_ask_event_decoder, AKC, ASK_EVENT_DECODER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAskEventDecoder *akc_ask_event_decoder_new              (void);
AKC_AVAILABLE_IN_ALL
GPtrArray          *akc_ask_event_decoder_feed             (AkcAskEventDecoder *self,
                                                            const guint8       *data,
                                                            gsize               length);
AKC_AVAILABLE_IN_ALL
guint               akc_ask_event_decoder_feed_into        (AkcAskEventDecoder *self,
                                                            const guint8       *data,
                                                            gsize               length,
                                                            GPtrArray          *events);
AKC_AVAILABLE_IN_ALL
GPtrArray          *akc_ask_event_decoder_finish           (AkcAskEventDecoder *self);
AKC_AVAILABLE_IN_ALL
gsize               akc_ask_event_decoder_get_pending_size (AkcAskEventDecoder *self);
AKC_AVAILABLE_IN_ALL
gboolean            akc_ask_event_decoder_get_discarding   (AkcAskEventDecoder *self);

G_END_DECLS

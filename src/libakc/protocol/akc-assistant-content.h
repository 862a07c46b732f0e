/* akc-assistant-content.h: ordered assistant content,
 * `agentskit.chat.content/1` (protocol §4)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

#ifndef __GI_SCANNER__
/* AKC_ASSISTANT_CONTENT_PREFIX: the 26-byte prefix of ordered assistant
 * content: U+001E, `agentskit.chat.content/1` and a line feed (protocol
 * §4.1). Hidden from introspection: a control character cannot be written
 * into a GIR file. */
#define AKC_ASSISTANT_CONTENT_PREFIX "\x1e" "agentskit.chat.content/1\n"
#endif

/**
 * AKC_ASSISTANT_CONTENT_PREFIX_LENGTH:
 *
 * The length of the ordered-content prefix (U+001E,
 * `agentskit.chat.content/1`, line feed) in bytes.
 *
 * Since: 0.1
 */
#define AKC_ASSISTANT_CONTENT_PREFIX_LENGTH 26

/**
 * AKC_ASSISTANT_CONTENT_MAX_BYTES:
 *
 * The largest content the decoder accepts, in UTF-8 bytes, prefix and any
 * unterminated record included.
 *
 * Since: 0.1
 */
#define AKC_ASSISTANT_CONTENT_MAX_BYTES 262144

/**
 * AKC_ASSISTANT_CONTENT_MAX_RECORDS:
 *
 * The most complete records the decoder accepts.
 *
 * Since: 0.1
 */
#define AKC_ASSISTANT_CONTENT_MAX_RECORDS 512

/**
 * AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH:
 *
 * The longest text of one text part, in UTF-16 code units.
 *
 * Since: 0.1
 */
#define AKC_ASSISTANT_CONTENT_MAX_TEXT_LENGTH 16384

AKC_AVAILABLE_IN_ALL
gboolean      akc_assistant_content_is_candidate (const char     *text,
                                                  gssize          length);
AKC_AVAILABLE_IN_ALL
gboolean akc_assistant_content_is_candidate_utf8 (const char *text);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_assistant_content_decode       (const char     *text,
                                                  gssize          length,
                                                  gboolean       *complete,
                                                  AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_assistant_content_decode_utf8 (const char     *text,
                                                 gboolean       *complete,
                                                 AkcDiagnostic **diagnostic);

#define AKC_TYPE_ASSISTANT_CONTENT_DECODER (akc_assistant_content_decoder_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAssistantContentDecoder, akc_assistant_content_decoder, AKC, ASSISTANT_CONTENT_DECODER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAssistantContentDecoder *akc_assistant_content_decoder_new            (void);
AKC_AVAILABLE_IN_ALL
gboolean                    akc_assistant_content_decoder_append         (AkcAssistantContentDecoder *self,
                                                                          const char                 *text,
                                                                          gssize                      length);
AKC_AVAILABLE_IN_ALL
gboolean akc_assistant_content_decoder_append_utf8 (AkcAssistantContentDecoder *self,
                                                    const char                 *text);
AKC_AVAILABLE_IN_ALL
void                        akc_assistant_content_decoder_reset          (AkcAssistantContentDecoder *self);
AKC_AVAILABLE_IN_ALL
guint                       akc_assistant_content_decoder_get_n_parts    (AkcAssistantContentDecoder *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue               *akc_assistant_content_decoder_get_part       (AkcAssistantContentDecoder *self,
                                                                          guint                       index_);
AKC_AVAILABLE_IN_ALL
AkcJsonValue               *akc_assistant_content_decoder_dup_parts      (AkcAssistantContentDecoder *self);
AKC_AVAILABLE_IN_ALL
gboolean                    akc_assistant_content_decoder_get_complete   (AkcAssistantContentDecoder *self);
AKC_AVAILABLE_IN_ALL
AkcDiagnostic              *akc_assistant_content_decoder_get_diagnostic (AkcAssistantContentDecoder *self);
AKC_AVAILABLE_IN_ALL
gsize                       akc_assistant_content_decoder_get_length     (AkcAssistantContentDecoder *self);

#define AKC_TYPE_ASSISTANT_CONTENT_ENCODER (akc_assistant_content_encoder_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcAssistantContentEncoder, akc_assistant_content_encoder, AKC, ASSISTANT_CONTENT_ENCODER, GObject)

AKC_AVAILABLE_IN_ALL
AkcAssistantContentEncoder *akc_assistant_content_encoder_new            (gboolean                    bounded);
AKC_AVAILABLE_IN_ALL
gboolean                    akc_assistant_content_encoder_get_bounded    (AkcAssistantContentEncoder *self);
AKC_AVAILABLE_IN_ALL
char                       *akc_assistant_content_encoder_encode         (AkcAssistantContentEncoder *self,
                                                                          AkcJsonValue               *part,
                                                                          gsize                      *length,
                                                                          GError                    **error);
AKC_AVAILABLE_IN_ALL
char *akc_assistant_content_encoder_encode_utf8 (AkcAssistantContentEncoder  *self,
                                                 AkcJsonValue                *part,
                                                 GError                     **error);
AKC_AVAILABLE_IN_ALL
char                       *akc_assistant_content_encoder_encode_text    (AkcAssistantContentEncoder *self,
                                                                          const char                 *text,
                                                                          gssize                      text_length,
                                                                          gsize                      *length,
                                                                          GError                    **error);
AKC_AVAILABLE_IN_ALL
char *akc_assistant_content_encoder_encode_text_utf8 (AkcAssistantContentEncoder  *self,
                                                      const char                  *text,
                                                      GError                     **error);
AKC_AVAILABLE_IN_ALL
char                       *akc_assistant_content_encoder_encode_frame   (AkcAssistantContentEncoder *self,
                                                                          AkcJsonValue               *frame,
                                                                          gsize                      *length,
                                                                          GError                    **error);
AKC_AVAILABLE_IN_ALL
char *akc_assistant_content_encoder_encode_frame_utf8 (AkcAssistantContentEncoder  *self,
                                                       AkcJsonValue                *frame,
                                                       GError                     **error);
AKC_AVAILABLE_IN_ALL
guint                       akc_assistant_content_encoder_get_n_records  (AkcAssistantContentEncoder *self);
AKC_AVAILABLE_IN_ALL
gsize                       akc_assistant_content_encoder_get_n_bytes    (AkcAssistantContentEncoder *self);

G_END_DECLS

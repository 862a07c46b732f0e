/* akc-chunk.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-usage.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcChunkKind:
 * @AKC_CHUNK_TEXT: a piece of the reply text
 * @AKC_CHUNK_TOOL_CALL: the model proposes a tool call
 * @AKC_CHUNK_METADATA: metadata about the turn, as a JSON object text
 * @AKC_CHUNK_DONE: the turn finished
 * @AKC_CHUNK_ERROR: the turn failed
 *
 * What a [struct@Chunk] carries.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_CHUNK_TEXT,
  AKC_CHUNK_TOOL_CALL,
  AKC_CHUNK_METADATA,
  AKC_CHUNK_DONE,
  AKC_CHUNK_ERROR,
} AkcChunkKind;

#define AKC_TYPE_CHUNK (akc_chunk_get_type ())

typedef struct _AkcChunk AkcChunk;

AKC_AVAILABLE_IN_ALL
GType         akc_chunk_get_type           (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_new_text           (const char  *text,
                                            gssize       length);
AKC_AVAILABLE_IN_ALL
AkcChunk *akc_chunk_new_text_utf8 (const char *text);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_new_tool_call      (const char  *id,
                                            const char  *name,
                                            const char  *arguments);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_new_metadata       (const char  *metadata);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_new_usage          (guint64      prompt_tokens,
                                            guint64      completion_tokens,
                                            guint64      total_tokens);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_new_done           (void);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_new_error          (const char  *code,
                                            const char  *message);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_with_metadata      (AkcChunk     *self,
                                            AkcJsonValue *metadata);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_chunk_get_metadata       (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
AkcChunk     *akc_chunk_ref                (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
void          akc_chunk_unref              (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
AkcChunkKind  akc_chunk_get_kind           (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_chunk_get_text           (AkcChunk    *self,
                                            gsize       *length);
AKC_AVAILABLE_IN_ALL
const char *akc_chunk_get_text_utf8 (AkcChunk *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_chunk_get_tool_call_id   (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_chunk_get_tool_name      (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_chunk_get_arguments      (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_chunk_get_error_code     (AkcChunk    *self);
AKC_AVAILABLE_IN_ALL
gboolean      akc_chunk_get_usage          (AkcChunk    *self,
                                            AkcUsage    *usage);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcChunk, akc_chunk_unref)

G_END_DECLS

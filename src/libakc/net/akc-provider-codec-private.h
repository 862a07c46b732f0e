/* akc-provider-codec-private.h: what the provider adapters send and how
 * their streams decode into chunks, without any I/O (so it is fuzzed)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gio/gio.h>

#include "akc-adapter-request.h"
#include "akc-chunk.h"
#include "akc-http-stream-private.h"
#include "akc-json-private.h"
#include "akc-provider-adapter.h"
#include "akc-usage.h"

G_BEGIN_DECLS

/* Bounds of one reply (issue 15: every decoder is bounded). */
#define AKC_PROVIDER_MAX_LINE           (1024 * 1024)
#define AKC_PROVIDER_MAX_EVENT          (1024 * 1024)
#define AKC_PROVIDER_MAX_EVENTS         1000000
#define AKC_PROVIDER_MAX_REPLY_BYTES    (8 * 1024 * 1024)
#define AKC_PROVIDER_MAX_TOOL_CALLS     64
#define AKC_PROVIDER_MAX_TOOL_NAME      256
#define AKC_PROVIDER_MAX_ARGUMENT_BYTES (256 * 1024)
#define AKC_PROVIDER_MAX_MODELS_BODY    (4 * 1024 * 1024)
#define AKC_PROVIDER_MAX_SERVER_MESSAGE 300

/* The chunk error code of @code ("PROVIDER_…"). */
const char *akc_provider_error_code_name (AkcProviderError code);

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

typedef struct
{
  char         *name;
  char         *description;  /* nullable */
  AkcJsonValue *parameters;   /* a JSON Schema object */
} AkcProviderTool;

void          akc_provider_tool_free        (AkcProviderTool *tool);

typedef struct
{
  AkcProviderKind  kind;
  const char      *model;
  guint            max_tokens;  /* 0: the provider's default (Anthropic: the adapter's default) */
  GPtrArray       *tools;       /* AkcProviderTool, nullable */
  gboolean         without_images; /* images become a note that one was there */
} AkcProviderRequestOptions;

/* The request body for @request: always valid JSON. */
char         *akc_provider_build_body       (const AkcProviderRequestOptions *options,
                                             AkcAdapterRequest               *request,
                                             gsize                           *length);

/* The URL of @path under @base_url ("/chat/completions", "/api/chat", …),
 * one slash between them; NULL when @base_url is not acceptable. */
GUri         *akc_provider_endpoint_uri     (const char  *base_url,
                                             const char  *path,
                                             GError     **error);

const char   *akc_provider_chat_path        (AkcProviderKind kind,
                                             const char     *base_url);
const char   *akc_provider_models_path      (AkcProviderKind kind,
                                             const char     *base_url);

/* ------------------------------------------------------------------ */
/* Streams                                                             */
/* ------------------------------------------------------------------ */

typedef void (*AkcProviderEmit) (AkcChunk *chunk,
                                 gpointer  user_data);

typedef struct _AkcProviderDecoder AkcProviderDecoder;

AkcProviderDecoder *akc_provider_decoder_new      (AkcProviderKind      kind,
                                                   AkcProviderEmit      emit,
                                                   gpointer             user_data);
void                akc_provider_decoder_free     (AkcProviderDecoder  *self);
AkcFraming          akc_provider_decoder_framing  (AkcProviderKind      kind);
/* One frame of the body. Text is emitted as it arrives; at the provider's
 * end of stream the tool calls, the usage and done are emitted and END is
 * returned. FAILED sets an AKC_PROVIDER_ERROR. */
AkcFrameResult      akc_provider_decoder_frame    (AkcProviderDecoder  *self,
                                                   const AkcFrame      *frame,
                                                   GError             **error);
/* Whether the provider's end of stream was decoded. */
gboolean            akc_provider_decoder_ended    (AkcProviderDecoder  *self);
/* Held bytes: text carried over, tool calls being assembled. */
gsize               akc_provider_decoder_retained (AkcProviderDecoder  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcProviderDecoder, akc_provider_decoder_free)

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* The error of a failed HTTP answer: what it means and what to do, with
 * what the server said (bounded, valid UTF-8, no control characters).
 * @retry_after (nullable header value). Sets *@retry_seconds (-1 when
 * unknown). */
GError       *akc_provider_http_error       (AkcProviderKind  kind,
                                             guint            status,
                                             const char      *model,
                                             const char      *url_origin,
                                             const char      *retry_after,
                                             const guint8    *body,
                                             gsize            length,
                                             gint64          *retry_seconds);

/* What the server said in an error body, or NULL. */
char         *akc_provider_server_message   (const guint8    *body,
                                             gsize            length,
                                             char           **type_or_code);

/* Text from a server made safe to show: valid UTF-8, controls as spaces,
 * at most AKC_PROVIDER_MAX_SERVER_MESSAGE bytes (cut at a character). */
char         *akc_provider_clean_text       (const char      *text,
                                             gsize            length);

/* The model names in a model-list body, sorted, without duplicates. */
char        **akc_provider_parse_models     (AkcProviderKind  kind,
                                             const guint8    *body,
                                             gsize            length,
                                             GError         **error);

G_END_DECLS

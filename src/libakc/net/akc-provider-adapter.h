/* akc-provider-adapter.h: model providers spoken to directly
 * (OpenAI-compatible Chat Completions, Ollama, Anthropic Messages)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-adapter.h"
#include "akc-tool.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcProviderKind:
 * @AKC_PROVIDER_KIND_OPENAI: `openai`: an OpenAI-compatible Chat Completions
 *   API (`POST {base}/chat/completions`); OpenAI, llama.cpp server, vLLM,
 *   LM Studio, LocalAI, OpenRouter, Ollama's `/v1`
 * @AKC_PROVIDER_KIND_OLLAMA: `ollama`: Ollama's native API (`POST {base}/api/chat`)
 * @AKC_PROVIDER_KIND_ANTHROPIC: `anthropic`: the Anthropic Messages API
 *   (`POST {base}/v1/messages`)
 *
 * The protocol an [class@ProviderAdapter] speaks. The enum nicks are the
 * names [func@ProviderAdapter.kind_from_string] takes.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_PROVIDER_KIND_OPENAI,
  AKC_PROVIDER_KIND_OLLAMA,
  AKC_PROVIDER_KIND_ANTHROPIC,
} AkcProviderKind;

/**
 * AKC_PROVIDER_ERROR:
 *
 * The error domain of [class@ProviderAdapter].
 *
 * Since: 0.1
 */
#define AKC_PROVIDER_ERROR (akc_provider_error_quark ())

/**
 * AkcProviderError:
 * @AKC_PROVIDER_ERROR_INVALID_ENDPOINT: `PROVIDER_INVALID_ENDPOINT`: the base
 *   URL is not an absolute `http` or `https` URL with a host and without user
 *   information
 * @AKC_PROVIDER_ERROR_UNAUTHORIZED: `PROVIDER_UNAUTHORIZED`: 401, the key was
 *   refused or is missing
 * @AKC_PROVIDER_ERROR_FORBIDDEN: `PROVIDER_FORBIDDEN`: 403, the key may not do this
 * @AKC_PROVIDER_ERROR_MODEL_NOT_FOUND: `PROVIDER_MODEL_NOT_FOUND`: 404 for the model
 * @AKC_PROVIDER_ERROR_NOT_FOUND: `PROVIDER_NOT_FOUND`: 404 for the address itself
 * @AKC_PROVIDER_ERROR_RATE_LIMITED: `PROVIDER_RATE_LIMITED`: 429
 * @AKC_PROVIDER_ERROR_CONTEXT_LENGTH: `PROVIDER_CONTEXT_LENGTH`: the
 *   conversation does not fit the model's context
 * @AKC_PROVIDER_ERROR_SERVER: `PROVIDER_SERVER_ERROR`: a 5xx answer
 * @AKC_PROVIDER_ERROR_REFUSED: `PROVIDER_REQUEST_REFUSED`: another 4xx answer
 * @AKC_PROVIDER_ERROR_CONNECTION: `PROVIDER_CONNECTION_FAILED`: the server
 *   could not be reached (refused, unknown host, TLS)
 * @AKC_PROVIDER_ERROR_TIMEOUT: `PROVIDER_TIMEOUT`: no answer within the
 *   connection deadline
 * @AKC_PROVIDER_ERROR_REDIRECT: `PROVIDER_REDIRECT`: a 3xx answer (redirects
 *   are never followed)
 * @AKC_PROVIDER_ERROR_CUT_OFF: `PROVIDER_CUT_OFF`: the stream ended before
 *   the provider's end of stream
 * @AKC_PROVIDER_ERROR_INVALID_RESPONSE: `PROVIDER_INVALID_RESPONSE`: the
 *   stream is not what the protocol says
 * @AKC_PROVIDER_ERROR_TOO_LARGE: `PROVIDER_TOO_LARGE`: the answer is over a
 *   bound (line length, event count, reply size, tool calls, tool arguments)
 * @AKC_PROVIDER_ERROR_STREAM: `PROVIDER_STREAM_ERROR`: the provider reported
 *   an error in the middle of the stream
 * @AKC_PROVIDER_ERROR_ATTACHMENT_REFUSED: `PROVIDER_ATTACHMENT_REFUSED`: the
 *   newest message holds an image and the model does not take images
 *   ([property@ProviderAdapter:accepts-images]); nothing was sent
 *
 * Error codes of %AKC_PROVIDER_ERROR. The text in backquotes is the code of
 * the error chunk a turn ends with.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_PROVIDER_ERROR_INVALID_ENDPOINT,
  AKC_PROVIDER_ERROR_UNAUTHORIZED,
  AKC_PROVIDER_ERROR_FORBIDDEN,
  AKC_PROVIDER_ERROR_MODEL_NOT_FOUND,
  AKC_PROVIDER_ERROR_NOT_FOUND,
  AKC_PROVIDER_ERROR_RATE_LIMITED,
  AKC_PROVIDER_ERROR_CONTEXT_LENGTH,
  AKC_PROVIDER_ERROR_SERVER,
  AKC_PROVIDER_ERROR_REFUSED,
  AKC_PROVIDER_ERROR_CONNECTION,
  AKC_PROVIDER_ERROR_TIMEOUT,
  AKC_PROVIDER_ERROR_REDIRECT,
  AKC_PROVIDER_ERROR_CUT_OFF,
  AKC_PROVIDER_ERROR_INVALID_RESPONSE,
  AKC_PROVIDER_ERROR_TOO_LARGE,
  AKC_PROVIDER_ERROR_STREAM,
  AKC_PROVIDER_ERROR_ATTACHMENT_REFUSED,
} AkcProviderError;

AKC_AVAILABLE_IN_ALL
GQuark akc_provider_error_quark (void);

/**
 * AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT:
 *
 * Milliseconds an [class@ProviderAdapter] waits for the response headers.
 * A local model may take a while to load before it answers.
 *
 * Since: 0.1
 */
#define AKC_PROVIDER_ADAPTER_DEFAULT_CONNECT_TIMEOUT 120000

/**
 * AKC_PROVIDER_ADAPTER_DEFAULT_MAX_TOKENS:
 *
 * The `max_tokens` an [class@ProviderAdapter] of kind
 * %AKC_PROVIDER_KIND_ANTHROPIC sends when none is set (the Messages API
 * requires one).
 *
 * Since: 0.1
 */
#define AKC_PROVIDER_ADAPTER_DEFAULT_MAX_TOKENS 4096

#define AKC_TYPE_PROVIDER_ADAPTER (akc_provider_adapter_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcProviderAdapter, akc_provider_adapter, AKC, PROVIDER_ADAPTER, GObject)

AKC_AVAILABLE_IN_ALL
AkcProviderAdapter *akc_provider_adapter_new                 (AkcProviderKind      kind,
                                                              const char          *base_url,
                                                              const char          *model,
                                                              GError             **error);
AKC_AVAILABLE_IN_ALL
gboolean            akc_provider_adapter_kind_from_string    (const char          *name,
                                                              AkcProviderKind     *kind);
AKC_AVAILABLE_IN_ALL
const char         *akc_provider_adapter_kind_to_string      (AkcProviderKind      kind);
AKC_AVAILABLE_IN_ALL
AkcProviderKind     akc_provider_adapter_get_kind            (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_provider_adapter_get_base_url        (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
const char         *akc_provider_adapter_get_model           (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_set_model           (AkcProviderAdapter  *self,
                                                              const char          *model);
AKC_AVAILABLE_IN_ALL
guint               akc_provider_adapter_get_connect_timeout (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_set_connect_timeout (AkcProviderAdapter  *self,
                                                              guint                timeout_ms);
AKC_AVAILABLE_IN_ALL
guint               akc_provider_adapter_get_max_tokens      (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_set_max_tokens      (AkcProviderAdapter  *self,
                                                              guint                max_tokens);
AKC_AVAILABLE_IN_ALL
gboolean            akc_provider_adapter_get_accepts_images  (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_set_accepts_images  (AkcProviderAdapter  *self,
                                                              gboolean             accepts);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_set_api_key         (AkcProviderAdapter  *self,
                                                              const char          *api_key);
AKC_AVAILABLE_IN_ALL
gboolean            akc_provider_adapter_has_api_key         (AkcProviderAdapter  *self);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_add_tool            (AkcProviderAdapter  *self,
                                                              AkcTool             *tool,
                                                              const char          *description);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_list_models_async   (AkcProviderAdapter  *self,
                                                              GCancellable        *cancellable,
                                                              GAsyncReadyCallback  callback,
                                                              gpointer             user_data);
AKC_AVAILABLE_IN_ALL
char              **akc_provider_adapter_list_models_finish  (AkcProviderAdapter  *self,
                                                              GAsyncResult        *result,
                                                              GError             **error);
AKC_AVAILABLE_IN_ALL
void                akc_provider_adapter_describe_model_async (AkcProviderAdapter *self,
                                                              GCancellable        *cancellable,
                                                              GAsyncReadyCallback  callback,
                                                              gpointer             user_data);
AKC_AVAILABLE_IN_ALL
gboolean            akc_provider_adapter_describe_model_finish (AkcProviderAdapter *self,
                                                              GAsyncResult        *result,
                                                              GError             **error);

G_END_DECLS

/* akc-usage.h: token usage of a conversation
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

#define AKC_TYPE_USAGE (akc_usage_get_type ())

typedef struct _AkcUsage AkcUsage;

/**
 * AkcUsage:
 * @prompt_tokens: tokens the model read (`promptTokens`)
 * @completion_tokens: tokens the model wrote (`completionTokens`)
 * @total_tokens: tokens billed in all (`totalTokens`); not required to
 *   equal the sum of the other two
 *
 * Token usage, the `TokenUsage` of [protocol §2.3](wire-formats.html#protocol-2).
 *
 * A plain value: copy it with [method@Usage.copy] and compare it with
 * [method@Usage.equal].
 *
 * Since: 0.1
 */
struct _AkcUsage
{
  guint64 prompt_tokens;
  guint64 completion_tokens;
  guint64 total_tokens;
};

AKC_AVAILABLE_IN_ALL
GType     akc_usage_get_type (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcUsage *akc_usage_new      (guint64         prompt_tokens,
                              guint64         completion_tokens,
                              guint64         total_tokens);
AKC_AVAILABLE_IN_ALL
AkcUsage *akc_usage_copy     (const AkcUsage *self);
AKC_AVAILABLE_IN_ALL
void      akc_usage_free     (AkcUsage       *self);
AKC_AVAILABLE_IN_ALL
gboolean  akc_usage_equal    (const AkcUsage *a,
                              const AkcUsage *b);
AKC_AVAILABLE_IN_ALL
void      akc_usage_add      (AkcUsage       *self,
                              const AkcUsage *other);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcUsage, akc_usage_free)

G_END_DECLS

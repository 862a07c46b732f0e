/* akc-knowledge-resolver.h: exact local answers from a verified knowledge
 * artifact (application §9.3)
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

#define AKC_TYPE_KNOWLEDGE_RESOLVER (akc_knowledge_resolver_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcKnowledgeResolver, akc_knowledge_resolver, AKC, KNOWLEDGE_RESOLVER, GObject)

AKC_AVAILABLE_IN_ALL
AkcKnowledgeResolver *akc_knowledge_resolver_new            (AkcJsonValue         *artifact,
                                                             const char           *expected_content_hash,
                                                             const char           *expected_site_id);
AKC_AVAILABLE_IN_ALL
AkcKnowledgeResolver *akc_knowledge_resolver_new_from_text  (const char           *text,
                                                             gssize                length,
                                                             const char           *expected_content_hash,
                                                             const char           *expected_site_id);
AKC_AVAILABLE_IN_ALL
AkcKnowledgeResolver *akc_knowledge_resolver_new_from_text_utf8 (const char *text,
                                                                 const char *expected_content_hash,
                                                                 const char *expected_site_id);
AKC_AVAILABLE_IN_ALL
gboolean              akc_knowledge_resolver_is_verified    (AkcKnowledgeResolver *self);
AKC_AVAILABLE_IN_ALL
AkcDiagnostic        *akc_knowledge_resolver_get_diagnostic (AkcKnowledgeResolver *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue         *akc_knowledge_resolver_get_artifact   (AkcKnowledgeResolver *self);
AKC_AVAILABLE_IN_ALL
gboolean              akc_knowledge_resolver_is_stale       (AkcKnowledgeResolver *self,
                                                             gint64                now_ms);
AKC_AVAILABLE_IN_ALL
AkcJsonValue         *akc_knowledge_resolver_resolve        (AkcKnowledgeResolver *self,
                                                             const char           *query,
                                                             gint64                now_ms);
AKC_AVAILABLE_IN_ALL
AkcJsonValue         *akc_knowledge_resolver_resolve_choice (AkcKnowledgeResolver *self,
                                                             const char           *choice_id,
                                                             const char           *query,
                                                             gint64                now_ms);

G_END_DECLS

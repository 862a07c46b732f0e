/* akc-rag-demo.h: the grounded-answer demo of application.md §13.5
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/**
 * AkcRagDocument:
 * @id: the document id
 * @content: its text
 * @source: (nullable): where it comes from, an address or a name
 * @title: (nullable): `metadata.title`
 * @url: (nullable): `metadata.url`
 *
 * A retrieved document.
 */
typedef struct
{
  char *id;
  char *content;
  char *source;
  char *title;
  char *url;
} AkcRagDocument;

AkcRagDocument *akc_rag_document_new  (const char     *id,
                                       const char     *content,
                                       const char     *source,
                                       const char     *title,
                                       const char     *url);
void            akc_rag_document_free (AkcRagDocument *document);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcRagDocument, akc_rag_document_free)

/**
 * AkcRagRetrieveFunc:
 * @query: the trimmed question
 * @user_data: the data given with the function
 * @error: return location for a #GError
 *
 * Retrieves the documents that ground an answer to @query.
 *
 * Returns: (transfer full) (element-type AkcRagDocument): the documents, or
 *   %NULL with @error set when retrieval failed
 */
typedef GPtrArray *(*AkcRagRetrieveFunc) (const char  *query,
                                          gpointer     user_data,
                                          GError     **error);

#define AKC_TYPE_RAG_DEMO_ADAPTER (akc_rag_demo_adapter_get_type ())

G_DECLARE_FINAL_TYPE (AkcRagDemoAdapter, akc_rag_demo_adapter, AKC, RAG_DEMO_ADAPTER, GObject)

AkcAdapter *akc_rag_demo_adapter_new          (void);
AkcAdapter *akc_rag_demo_adapter_new_full     (AkcRagRetrieveFunc  retrieve,
                                               gpointer            user_data,
                                               GDestroyNotify      destroy);
GPtrArray  *akc_rag_demo_retrieve_offline     (const char         *query,
                                               gpointer            user_data,
                                               GError            **error);
char       *akc_rag_demo_build_content        (const char         *query,
                                               GPtrArray          *documents,
                                               const char         *instance_id);

G_END_DECLS

/* akc-fts-corpus.h: a local Ask corpus in SQLite FTS5, ranked with bm25
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-ask-retriever.h"

G_BEGIN_DECLS

gboolean         akc_fts_corpus_index       (const char          *database,
                                             const char          *corpus_id,
                                             const char          *base_href,
                                             const char * const  *folders,
                                             guint               *n_documents,
                                             GError             **error);

#define AKC_TYPE_FTS_RETRIEVER (akc_fts_retriever_get_type ())

G_DECLARE_FINAL_TYPE (AkcFtsRetriever, akc_fts_retriever, AKC, FTS_RETRIEVER, GObject)

AkcAskRetriever *akc_fts_retriever_new (const char  *database,
                                        const char  *corpus_id,
                                        GError     **error);

G_END_DECLS

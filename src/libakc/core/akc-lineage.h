/* akc-lineage.h: which operation produced a reply
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

/**
 * AkcLineageOperation:
 * @AKC_LINEAGE_OPERATION_SUBMIT: `submit`: the person sent a message (a tool
 *   continuation is part of the submitted turn, and is a submit too)
 * @AKC_LINEAGE_OPERATION_RETRY: `retry`: the last answer was replaced
 * @AKC_LINEAGE_OPERATION_EDIT: `edit`: a user message was edited and answered again
 * @AKC_LINEAGE_OPERATION_REGENERATE: `regenerate`: an answer, and what came
 *   after it, was replaced
 *
 * The `operation` of a lineage ([protocol §2.5](wire-formats.html#protocol-2)). The enum nicks are the
 * wire strings.
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_LINEAGE_OPERATION_SUBMIT,
  AKC_LINEAGE_OPERATION_RETRY,
  AKC_LINEAGE_OPERATION_EDIT,
  AKC_LINEAGE_OPERATION_REGENERATE,
} AkcLineageOperation;

#define AKC_TYPE_LINEAGE (akc_lineage_get_type ())

typedef struct _AkcLineage AkcLineage;

AKC_AVAILABLE_IN_ALL
GType                akc_lineage_get_type              (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcLineage          *akc_lineage_new                   (AkcLineageOperation  operation,
                                                        const char          *source_message_id,
                                                        const char          *parent_turn_id);
AKC_AVAILABLE_IN_ALL
AkcLineage          *akc_lineage_ref                   (AkcLineage          *self);
AKC_AVAILABLE_IN_ALL
void                 akc_lineage_unref                 (AkcLineage          *self);
AKC_AVAILABLE_IN_ALL
AkcLineageOperation  akc_lineage_get_operation         (const AkcLineage    *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_lineage_get_source_message_id (const AkcLineage    *self);
AKC_AVAILABLE_IN_ALL
const char          *akc_lineage_get_parent_turn_id    (const AkcLineage    *self);
AKC_AVAILABLE_IN_ALL
gboolean             akc_lineage_equal                 (const AkcLineage    *a,
                                                        const AkcLineage    *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcLineage, akc_lineage_unref)

G_END_DECLS

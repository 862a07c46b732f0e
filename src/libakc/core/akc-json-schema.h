/* akc-json-schema.h
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

#define AKC_TYPE_JSON_SCHEMA (akc_json_schema_get_type ())

typedef struct _AkcJsonSchema AkcJsonSchema;

AKC_AVAILABLE_IN_ALL
GType          akc_json_schema_get_type        (void) G_GNUC_CONST;
AKC_AVAILABLE_IN_ALL
AkcJsonSchema *akc_json_schema_new             (AkcJsonValue   *schema,
                                                GError        **error);
AKC_AVAILABLE_IN_ALL
AkcJsonSchema *akc_json_schema_new_from_string (const char     *text,
                                                GError        **error);
AKC_AVAILABLE_IN_ALL
AkcJsonSchema *akc_json_schema_ref             (AkcJsonSchema  *self);
AKC_AVAILABLE_IN_ALL
void           akc_json_schema_unref           (AkcJsonSchema  *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue  *akc_json_schema_get_value       (AkcJsonSchema  *self);
AKC_AVAILABLE_IN_ALL
gboolean       akc_json_schema_validate        (AkcJsonSchema  *self,
                                                AkcJsonValue   *instance,
                                                GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcJsonSchema, akc_json_schema_unref)

G_END_DECLS

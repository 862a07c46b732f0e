/* akc-json.h: immutable, length-aware JSON values
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <gio/gio.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcJsonKind:
 * @AKC_JSON_KIND_NULL: the JSON literal `null`
 * @AKC_JSON_KIND_BOOLEAN: `true` or `false`
 * @AKC_JSON_KIND_NUMBER: a number, held as an IEEE-754 double
 * @AKC_JSON_KIND_STRING: a string (UTF-8, explicit length, may contain U+0000)
 * @AKC_JSON_KIND_ARRAY: an ordered list of values
 * @AKC_JSON_KIND_OBJECT: an ordered list of uniquely named members
 *
 * The kind of an [struct@JsonValue].
 *
 * Since: 0.1
 */
typedef enum {
  AKC_JSON_KIND_NULL,
  AKC_JSON_KIND_BOOLEAN,
  AKC_JSON_KIND_NUMBER,
  AKC_JSON_KIND_STRING,
  AKC_JSON_KIND_ARRAY,
  AKC_JSON_KIND_OBJECT,
} AkcJsonKind;

#define AKC_TYPE_JSON_KIND (akc_json_kind_get_type ())

AKC_AVAILABLE_IN_ALL
GType akc_json_kind_get_type (void) G_GNUC_CONST;

typedef struct _AkcJsonValue AkcJsonValue;

#define AKC_TYPE_JSON_VALUE (akc_json_value_get_type ())

AKC_AVAILABLE_IN_ALL
GType         akc_json_value_get_type         (void) G_GNUC_CONST;

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_ref              (AkcJsonValue        *self);
AKC_AVAILABLE_IN_ALL
void          akc_json_value_unref            (AkcJsonValue        *self);

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_null         (void);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_boolean      (gboolean             value);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_number       (double               value);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_string       (const char          *value,
                                               gssize               length);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_string_utf8 (const char *value);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_array        (AkcJsonValue * const *elements,
                                               gsize                n_elements);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_object       (const char * const  *names,
                                               AkcJsonValue * const *values,
                                               gsize                n_members);

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_parse            (const char          *text,
                                               gssize               length,
                                               GError             **error);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_parse_utf8 (const char  *text,
                                         GError     **error);

AKC_AVAILABLE_IN_ALL
AkcJsonKind   akc_json_value_get_kind         (const AkcJsonValue  *self);
AKC_AVAILABLE_IN_ALL
gboolean      akc_json_value_get_boolean      (const AkcJsonValue  *self);
AKC_AVAILABLE_IN_ALL
double        akc_json_value_get_number       (const AkcJsonValue  *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_json_value_get_string       (const AkcJsonValue  *self,
                                               gsize               *length);
AKC_AVAILABLE_IN_ALL
const char *akc_json_value_get_string_utf8 (const AkcJsonValue *self);
AKC_AVAILABLE_IN_ALL
gsize         akc_json_value_get_length       (const AkcJsonValue  *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_get_element      (const AkcJsonValue  *self,
                                               gsize                index_);
AKC_AVAILABLE_IN_ALL
gsize         akc_json_value_get_member_count (const AkcJsonValue  *self);
AKC_AVAILABLE_IN_ALL
const char   *akc_json_value_get_member_name  (const AkcJsonValue  *self,
                                               gsize                index_,
                                               gsize               *length);
AKC_AVAILABLE_IN_ALL
const char *akc_json_value_get_member_name_utf8 (const AkcJsonValue *self,
                                                 gsize               index_);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_get_member_value (const AkcJsonValue  *self,
                                               gsize                index_);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_get_member       (const AkcJsonValue  *self,
                                               const char          *name);

AKC_AVAILABLE_IN_ALL
gboolean      akc_json_value_equal            (const AkcJsonValue  *a,
                                               const AkcJsonValue  *b);

AKC_AVAILABLE_IN_ALL
char         *akc_json_value_to_canonical     (const AkcJsonValue  *self,
                                               gsize               *length);
AKC_AVAILABLE_IN_ALL
char *akc_json_value_to_canonical_utf8 (const AkcJsonValue *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AkcJsonValue, akc_json_value_unref)

G_END_DECLS

/* akc-json-glib.h: the json-glib bridges of libakc
 *
 * SPDX-License-Identifier: MIT
 *
 * Optional: <akc.h> does not include it, so a host that does not use
 * json-glib never sees its types. A host that does includes this header
 * after (or instead of) <akc.h>.
 */

#pragma once

#include <json-glib/json-glib.h>

#ifndef AKC_COMPILATION
# include <akc.h>
#else
# include "akc-controlled-source.h"
# include "akc-json.h"
#endif

G_BEGIN_DECLS

AKC_AVAILABLE_IN_ALL
JsonNode     *akc_json_value_to_json_node             (const AkcJsonValue   *self);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_json_value_new_from_json_node       (JsonNode             *node);
AKC_AVAILABLE_IN_ALL
gboolean      akc_controlled_source_set_snapshot_node (AkcControlledSource  *self,
                                                       JsonNode             *snapshot,
                                                       GError              **error);

G_END_DECLS

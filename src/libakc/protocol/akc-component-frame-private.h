/* akc-component-frame-private.h: the render-frame schema, for the modules
 * that embed frames (ordered assistant content, §4.2)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-schema-private.h"

G_BEGIN_DECLS

/* §3.1 render frame with its §3.2 fallback (both open). Validating a value
 * against it is §3.5 step 3. */
extern const AkcSchemaTable akc_component_frame_table;

/* The label of the choice @choice_id of a choice list's frame (its
 * `props.choices[].label`), or %NULL when the frame holds no such choice. */
const char *akc_component_frame_get_choice_label (AkcJsonValue *frame,
                                                  const char   *choice_id);

G_END_DECLS

/* akc-tool.h: a tool the local controller can run
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib-object.h>

#include "akc-json.h"
#include "akc-json-schema.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AkcToolPhase:
 * @AKC_TOOL_PHASE_PROPOSE: `propose`: a tool call is being proposed
 * @AKC_TOOL_PHASE_EXECUTE: `execute`: an approved tool call is about to run
 *
 * When a tool call is authorized ([application §5.4](wire-formats.html#application-5): the controller
 * authorizes twice).
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_TOOL_PHASE_PROPOSE,
  AKC_TOOL_PHASE_EXECUTE,
} AkcToolPhase;

#define AKC_TYPE_TOOL (akc_tool_get_type ())

AKC_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (AkcTool, akc_tool, AKC, TOOL, GObject)

/**
 * AkcToolFunc:
 * @tool: the tool
 * @arguments: the call's arguments, a JSON object
 * @user_data: the data given to [ctor@Tool.new]
 * @error: return location for a #GError
 *
 * Runs a tool. It runs on the main context and must not block for long.
 *
 * Returns: (transfer full) (nullable): the result text, or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
typedef char *(*AkcToolFunc) (AkcTool       *tool,
                              AkcJsonValue  *arguments,
                              gpointer       user_data,
                              GError       **error);

AKC_AVAILABLE_IN_ALL
AkcTool    *akc_tool_new                       (const char     *name,
                                                gboolean        requires_confirmation,
                                                AkcToolFunc     func,
                                                gpointer        user_data,
                                                GDestroyNotify  destroy);
AKC_AVAILABLE_IN_ALL
const char *akc_tool_get_name                  (AkcTool        *self);
AKC_AVAILABLE_IN_ALL
gboolean    akc_tool_get_requires_confirmation (AkcTool        *self);
AKC_AVAILABLE_IN_ALL
const char *akc_tool_get_title                 (AkcTool        *self);
AKC_AVAILABLE_IN_ALL
void        akc_tool_set_title                 (AkcTool        *self,
                                                const char     *title);
AKC_AVAILABLE_IN_ALL
const char *akc_tool_get_description           (AkcTool        *self);
AKC_AVAILABLE_IN_ALL
void        akc_tool_set_description           (AkcTool        *self,
                                                const char     *description);
AKC_AVAILABLE_IN_ALL
gboolean    akc_tool_get_dangerous             (AkcTool        *self);
AKC_AVAILABLE_IN_ALL
void        akc_tool_set_dangerous             (AkcTool        *self,
                                                gboolean        dangerous);
AKC_AVAILABLE_IN_ALL
AkcJsonSchema *akc_tool_get_argument_schema    (AkcTool        *self);
AKC_AVAILABLE_IN_ALL
void        akc_tool_set_argument_schema       (AkcTool        *self,
                                                AkcJsonSchema  *schema);
AKC_AVAILABLE_IN_ALL
gboolean    akc_tool_validate_arguments        (AkcTool        *self,
                                                AkcJsonValue   *arguments,
                                                GError        **error);
AKC_AVAILABLE_IN_ALL
char       *akc_tool_execute                   (AkcTool        *self,
                                                AkcJsonValue   *arguments,
                                                GError        **error);

G_END_DECLS

/* akc-error.h: configuration errors of the application layer
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_ERROR:
 *
 * The error domain of configuration errors, programming or trust-boundary
 * mistakes that the reference reports as `AK_CONFIG_INVALID`, and of the
 * upstream tool errors that pass through the application layer unchanged
 * ([application §0.1](wire-formats.html#application-0)). The message of a configuration error is the fixed
 * sentence of [application appendix A](wire-formats.html#application-appendix-a); it never echoes input.
 *
 * Decoders do not use this domain: they return an [struct@Diagnostic].
 */
#define AKC_ERROR (akc_error_quark ())

/**
 * AkcError:
 * @AKC_ERROR_CONFIG_INVALID: `AK_CONFIG_INVALID`: a definition, manifest,
 *   interaction or other configuration is invalid
 * @AKC_ERROR_TOOL_NOT_FOUND: `AK_TOOL_NOT_FOUND`: the tool is not registered
 * @AKC_ERROR_TOOL_INVALID_INPUT: `AK_TOOL_INVALID_INPUT`: a tool call has a
 *   bad identity or bad arguments
 * @AKC_ERROR_TOOL_FORBIDDEN: `AK_TOOL_FORBIDDEN`: the authorizer denied a
 *   tool call; the message is the denial reason
 * @AKC_ERROR_TOOL_FAILED: a tool's [callback@ToolFunc] failed without
 *   setting an error (a function that says why fails with its own error;
 *   the reference has no code for this, it passes a thrown error through)
 *
 * Error codes of %AKC_ERROR: the configuration and upstream tool errors of
 * [application §0.1](wire-formats.html#application-0).
 *
 * Since: 0.1
 */
typedef enum
{
  AKC_ERROR_CONFIG_INVALID,
  AKC_ERROR_TOOL_NOT_FOUND,
  AKC_ERROR_TOOL_INVALID_INPUT,
  AKC_ERROR_TOOL_FORBIDDEN,
  AKC_ERROR_TOOL_FAILED,
} AkcError;

AKC_AVAILABLE_IN_ALL
GQuark akc_error_quark (void);

G_END_DECLS

/* akc-site-config.h: deterministic site configuration (agentskit.chat.site v1)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#if !defined(__AKC_INSIDE__) && !defined(AKC_COMPILATION)
#error "Only <akc.h> can be included directly."
#endif

#include <glib.h>

#include "akc-diagnostic.h"
#include "akc-json.h"
#include "akc-version-macros.h"

G_BEGIN_DECLS

/**
 * AKC_SITE_CONFIG_PROTOCOL:
 *
 * The `protocol` member of a deterministic site configuration
 * ([protocol §8.2](wire-formats.html#protocol-8)).
 *
 * Since: 0.1
 */
#define AKC_SITE_CONFIG_PROTOCOL "agentskit.chat.site"

/**
 * AKC_SITE_CONFIG_MAX_BYTES:
 *
 * The safety limit of a site configuration in bytes ([protocol §8.5](wire-formats.html#protocol-8)).
 *
 * Since: 0.1
 */
#define AKC_SITE_CONFIG_MAX_BYTES 16384

AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_site_config_decode       (const char     *text,
                                            gssize          length,
                                            AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_site_config_decode_utf8 (const char     *text,
                                           AkcDiagnostic **diagnostic);
AKC_AVAILABLE_IN_ALL
AkcJsonValue *akc_site_config_decode_value (AkcJsonValue   *value,
                                            AkcDiagnostic **diagnostic);

G_END_DECLS

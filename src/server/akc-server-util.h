/* akc-server-util.h: strict reading of akc-server's JSON files
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/* Errors in a configuration or script file, all AKC_SERVER_CONFIG_ERROR_INVALID
 * with a message naming the member at fault. */
#define AKC_SERVER_CONFIG_ERROR (akc_server_config_error_quark ())

typedef enum
{
  AKC_SERVER_CONFIG_ERROR_INVALID,
  AKC_SERVER_CONFIG_ERROR_READ,
} AkcServerConfigError;

GQuark        akc_server_config_error_quark (void);

AkcJsonValue *akc_server_read_json      (const char          *path,
                                         GError             **error);
gboolean      akc_server_check_object   (AkcJsonValue        *value,
                                         const char          *where,
                                         const char * const  *allowed,
                                         const char * const  *required,
                                         GError             **error);
const char   *akc_server_get_string     (AkcJsonValue        *object,
                                         const char          *member,
                                         const char          *where,
                                         gboolean             optional,
                                         GError             **error);
gboolean      akc_server_get_integer    (AkcJsonValue        *object,
                                         const char          *member,
                                         const char          *where,
                                         gint64               min,
                                         gint64               max,
                                         gint64              *value,
                                         GError             **error);
gboolean      akc_server_get_array      (AkcJsonValue        *object,
                                         const char          *member,
                                         const char          *where,
                                         AkcJsonValue       **array,
                                         GError             **error);

/* Shared by the handlers: `YYYY-MM-DDTHH:mm:ss.sssZ` of epoch milliseconds,
 * the `application/json` prefix test of §11.1/§11.2 (case-insensitive), and
 * the positive safe integers their options must be. */
char         *akc_server_format_time              (gint64               ms);
gboolean      akc_server_is_json_type             (const char          *content_type);
gboolean      akc_server_is_positive_safe_integer (double               value);

G_END_DECLS

/* akc-server-script.h: an adapter that answers from a script file
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

#define AKC_TYPE_SERVER_SCRIPT (akc_server_script_get_type ())

G_DECLARE_FINAL_TYPE (AkcServerScript, akc_server_script, AKC, SERVER_SCRIPT, GObject)

AkcAdapter *akc_server_script_new_from_file  (const char   *path,
                                              GError      **error);
AkcAdapter *akc_server_script_new_from_value (AkcJsonValue *script,
                                              const char   *where,
                                              GError      **error);

G_END_DECLS

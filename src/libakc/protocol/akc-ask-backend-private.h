/* akc-ask-backend-private.h: the Ask backend's own records (protocol §7),
 * which only akc-server validates
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-json.h"

G_BEGIN_DECLS

/* Each returns the normalised value (transfer full), or NULL when @value
 * is not a valid record of its kind. */
AkcJsonValue *akc_ask_backend_message_validate        (AkcJsonValue *value);
AkcJsonValue *akc_ask_backend_site_config_validate    (AkcJsonValue *value);
AkcJsonValue *akc_ask_backend_source_validate         (AkcJsonValue *value);
AkcJsonValue *akc_ask_backend_usage_validate          (AkcJsonValue *value);
AkcJsonValue *akc_ask_backend_session_record_validate (AkcJsonValue *value);
AkcJsonValue *akc_ask_backend_diagnostic_validate     (AkcJsonValue *value);
AkcJsonValue *akc_ask_backend_metric_validate         (AkcJsonValue *value);

G_END_DECLS

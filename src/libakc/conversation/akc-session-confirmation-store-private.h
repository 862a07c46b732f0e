/* akc-session-confirmation-store-private.h: the confirmation stores of a
 * session (application §5.3)
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include "akc-confirmation-store.h"
#include "akc-session.h"

G_BEGIN_DECLS

/* The store of @session's confirmation coordinators: it keeps every record
 * in the session snapshot (onChange) and, when @claims, claims each new
 * status with an awaited compare-and-set save (claimStatus). */
AkcConfirmationStore *akc_session_confirmation_store_new (AkcSession *session,
                                                          gboolean    claims);

G_END_DECLS

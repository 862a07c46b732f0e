/* akc-provider-page.h: the Providers page of the preferences
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>

#include "akc-backend.h"

G_BEGIN_DECLS

#define AKC_TYPE_PROVIDER_PAGE (akc_provider_page_get_type ())

G_DECLARE_FINAL_TYPE (AkcProviderPage, akc_provider_page, AKC, PROVIDER_PAGE, AdwPreferencesPage)

AkcProviderPage *akc_provider_page_new (GSettings  *settings,
                                        AkcBackend *provider);
/* Where the page looks for a local Ollama (tests point it at a loopback
 * server); NULL for http://127.0.0.1:11434. */
void             akc_provider_page_set_local_ollama_url (const char *url);
const char      *akc_provider_page_get_local_ollama_url (void);

G_END_DECLS

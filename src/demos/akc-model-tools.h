/* akc-model-tools.h: the tools the app and `akc chat` offer a model
 * provider's model
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <akc.h>

G_BEGIN_DECLS

/* Opens @uri for the person (or shows it to them) once they approved it.
 * Returns what the model is told, or NULL with @error set. */
typedef char *(*AkcModelLinkOpener) (const char  *uri,
                                     gpointer     user_data,
                                     GError     **error);

/* Where the tools run: what open_link does, and says it does. */
typedef enum {
  AKC_MODEL_TOOLS_DESKTOP,   /* open_link opens the address in the browser */
  AKC_MODEL_TOOLS_TERMINAL,  /* open_link prints the address for the person */
} AkcModelToolsHost;

GPtrArray *akc_model_tools_new   (AkcModelToolsHost   host,
                                  AkcModelLinkOpener  opener,
                                  gpointer            user_data);
void       akc_model_tools_offer (GPtrArray          *tools,
                                  AkcProviderAdapter *adapter);

G_END_DECLS

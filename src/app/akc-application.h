/* akc-application.h
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <adwaita.h>

#include "akc-app-session.h"

G_BEGIN_DECLS

#define AKC_TYPE_APPLICATION (akc_application_get_type ())

G_DECLARE_FINAL_TYPE (AkcApplication, akc_application, AKC, APPLICATION, AdwApplication)

AkcApplication *akc_application_new (void);
void            akc_application_choose_gl (void);
void            akc_application_add_accels (GtkApplication *application);
void            akc_application_add_accels_to_popover (GtkPopover *popover);
AkcAppSession  *akc_application_get_session (AkcApplication *self);

G_END_DECLS

/* main.c: the AgentsKit Chat desktop application
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "akc-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AkcApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("AgentsKit Chat"));

  app = akc_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}

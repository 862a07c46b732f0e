/* akc-test-app.c: what the UI tests of the application share
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-test-app.h"

AkcAppSession *
akc_test_app_session_new (AkcChatMemory *memory)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  AkcAppSession *session = akc_app_session_new (settings);

  if (memory != NULL)
    {
      akc_app_session_expect_memory (session);
      g_assert_false (akc_app_session_get_ready (session));
      akc_app_session_set_memory (session, memory);
      WAIT_UNTIL (akc_app_session_get_ready (session));
    }

  return session;
}

void
akc_test_app_session_close (AkcAppSession *session,
                            AkcChatMemory *memory)
{
  akc_app_session_close (session);
  akc_test_wait_finalized (memory);
}

gboolean
is_row_titled (GtkWidget     *widget,
               gconstpointer  data)
{
  return ADW_IS_PREFERENCES_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), data) == 0;
}

GtkWidget *
find_row (GtkWindow  *window,
          const char *title,
          guint       nth)
{
  GtkWidget *row = find_nth_widget (GTK_WIDGET (window), is_row_titled, title, nth);

  g_assert_nonnull (row);
  return row;
}

void
apply_row (GtkWidget  *row,
           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_emit_by_name (row, "apply");
  spin ();
}

void
wait_backend_state (AkcBackend      *backend,
                    AkcBackendState  state)
{
  WAIT_UNTIL (akc_backend_get_state (backend) == state);
}

void
wait_backend_state_not (AkcBackend      *backend,
                        AkcBackendState  state)
{
  WAIT_UNTIL (akc_backend_get_state (backend) != state);
}

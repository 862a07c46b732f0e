/* akc-cli-secret.c: secrets for the command line: read from the terminal
 * with echo off or from standard input, and looked up in the keyring
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "akc.h"
#include "akc-cli.h"

/* The longest secret read (API keys are far shorter). */
#define MAX_SECRET 16384

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
  g_main_context_wakeup (NULL);
}

char *
akc_cli_lookup_secret (const char         *endpoint,
                       AkcCredentialKind   kind,
                       GError            **error)
{
  g_autoptr(AkcCredentialStore) store = akc_credential_store_new ();
  g_autoptr(GAsyncResult) result = NULL;

  akc_credential_store_lookup_async (store, endpoint, kind, NULL, got_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return akc_credential_store_lookup_finish (store, result, error);
}

gboolean
akc_cli_store_secret (const char         *endpoint,
                      AkcCredentialKind   kind,
                      const char         *secret,
                      GError            **error)
{
  g_autoptr(AkcCredentialStore) store = akc_credential_store_new ();
  g_autoptr(GAsyncResult) result = NULL;

  if (secret != NULL)
    akc_credential_store_store_async (store, endpoint, kind, secret, NULL, got_result, &result);
  else
    akc_credential_store_clear_async (store, endpoint, kind, NULL, got_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return secret != NULL ? akc_credential_store_store_finish (store, result, error)
                        : akc_credential_store_clear_finish (store, result, error);
}

/* Reads one secret: from the terminal with echo off (after @prompt on
 * standard error) when standard input is one, else the whole of standard
 * input up to its end, without the line end. Returns NULL with @error
 * when nothing was given. */
char *
akc_cli_read_secret (const char  *prompt,
                     GError     **error)
{
  g_autoptr(GString) secret = g_string_new (NULL);
  gboolean terminal = isatty (STDIN_FILENO);
  struct termios saved, quiet;
  gboolean restore = FALSE;
  int c;

  if (terminal)
    {
      restore = tcgetattr (STDIN_FILENO, &saved) == 0;
      if (restore)
        {
          /* Echo goes off before the prompt shows. */
          quiet = saved;
          quiet.c_lflag &= ~(tcflag_t) ECHO;
          tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
        }
      fputs (prompt, stderr);
      fflush (stderr);
    }

  while ((c = getchar ()) != EOF)
    {
      if (terminal && (c == '\n' || c == '\r'))
        break;
      if (secret->len >= MAX_SECRET)
        {
          explicit_bzero (secret->str, secret->len);
          if (restore)
            tcsetattr (STDIN_FILENO, TCSANOW, &saved);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       _("The secret is longer than %d bytes."), MAX_SECRET);
          return NULL;
        }
      g_string_append_c (secret, (char) c);
    }

  if (restore)
    tcsetattr (STDIN_FILENO, TCSANOW, &saved);
  if (terminal)
    fputc ('\n', stderr);

  while (secret->len > 0 && (secret->str[secret->len - 1] == '\n' || secret->str[secret->len - 1] == '\r'))
    g_string_truncate (secret, secret->len - 1);

  if (secret->len == 0 || !g_utf8_validate (secret->str, secret->len, NULL) ||
      memchr (secret->str, '\n', secret->len) != NULL)
    {
      explicit_bzero (secret->str, secret->len);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           secret->len == 0 ? _("No secret was given.")
                                            : _("The secret must be one line of UTF-8 text."));
      return NULL;
    }

  {
    char *copy = g_strndup (secret->str, secret->len);

    explicit_bzero (secret->str, secret->len);
    return copy;
  }
}

/* akc-server-util.c: strict reading of akc-server's JSON files
 *
 * SPDX-License-Identifier: MIT
 *
 * Files are parsed with libakc's strict parser (duplicate members, bad
 * UTF-8 and trailing text are errors); every object is checked for
 * unknown and missing members, so a typo is an error with its place
 * rather than a silent default.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "akc-server-util.h"

G_DEFINE_QUARK (akc-server-config-error-quark, akc_server_config_error)

AkcJsonValue *
akc_server_read_json (const char  *path,
                      GError     **error)
{
  g_autofree char *text = NULL;
  g_autofree char *name = g_filename_display_name (path);
  g_autoptr(GError) local = NULL;
  gsize length = 0;
  AkcJsonValue *value;

  if (!g_file_get_contents (path, &text, &length, &local))
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_READ,
                   _("“%s” cannot be read: %s"), name, local->message);
      return NULL;
    }
  value = akc_json_value_parse (text, length, &local);
  if (value == NULL)
    g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                 _("“%s” is not valid JSON: %s"), name, local->message);
  return value;
}

gboolean
akc_server_check_object (AkcJsonValue        *value,
                         const char          *where,
                         const char * const  *allowed,
                         const char * const  *required,
                         GError             **error)
{
  if (value == NULL || akc_json_value_get_kind (value) != AKC_JSON_KIND_OBJECT)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("%s must be an object."), where);
      return FALSE;
    }
  for (gsize i = 0; i < akc_json_value_get_member_count (value); i++)
    {
      const char *name = akc_json_value_get_member_name (value, i, NULL);

      if (!g_strv_contains (allowed, name))
        {
          g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                       _("%s has an unknown member “%s”."), where, name);
          return FALSE;
        }
    }
  for (guint i = 0; required != NULL && required[i] != NULL; i++)
    if (akc_json_value_get_member (value, required[i]) == NULL)
      {
        g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                     _("%s lacks the member “%s”."), where, required[i]);
        return FALSE;
      }
  return TRUE;
}

const char *
akc_server_get_string (AkcJsonValue  *object,
                       const char    *member,
                       const char    *where,
                       gboolean       optional,
                       GError       **error)
{
  AkcJsonValue *value = akc_json_value_get_member (object, member);
  const char *text;
  gsize length = 0;

  if (value == NULL && optional)
    return NULL;
  if (value == NULL || akc_json_value_get_kind (value) != AKC_JSON_KIND_STRING ||
      (text = akc_json_value_get_string (value, &length)) == NULL || strlen (text) != length)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("“%s” of %s must be a string."), member, where);
      return NULL;
    }
  return text;
}

gboolean
akc_server_get_integer (AkcJsonValue  *object,
                        const char    *member,
                        const char    *where,
                        gint64         min,
                        gint64         max,
                        gint64        *out,
                        GError       **error)
{
  AkcJsonValue *value = akc_json_value_get_member (object, member);
  double number;

  if (value == NULL)
    return TRUE;
  number = akc_json_value_get_kind (value) == AKC_JSON_KIND_NUMBER ? akc_json_value_get_number (value) : NAN;
  if (!(number >= (double) min && number <= (double) max) || number != (double) (gint64) number)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("“%s” of %s must be a whole number from %lld to %lld."),
                   member, where, (long long) min, (long long) max);
      return FALSE;
    }
  *out = (gint64) number;
  return TRUE;
}

gboolean
akc_server_get_array (AkcJsonValue  *object,
                      const char    *member,
                      const char    *where,
                      AkcJsonValue **array,
                      GError       **error)
{
  AkcJsonValue *value = akc_json_value_get_member (object, member);

  *array = NULL;
  if (value == NULL)
    return TRUE;
  if (akc_json_value_get_kind (value) != AKC_JSON_KIND_ARRAY)
    {
      g_set_error (error, AKC_SERVER_CONFIG_ERROR, AKC_SERVER_CONFIG_ERROR_INVALID,
                   _("“%s” of %s must be an array."), member, where);
      return FALSE;
    }
  *array = value;
  return TRUE;
}

char *
akc_server_format_time (gint64 ms)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (ms / 1000);

  if (utc == NULL)
    utc = g_date_time_new_from_unix_utc (0);
  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                          g_date_time_get_year (utc), g_date_time_get_month (utc),
                          g_date_time_get_day_of_month (utc), g_date_time_get_hour (utc),
                          g_date_time_get_minute (utc), g_date_time_get_second (utc),
                          (int) (((ms % 1000) + 1000) % 1000));
}

gboolean
akc_server_is_json_type (const char *content_type)
{
  g_autofree char *lower = content_type != NULL ? g_ascii_strdown (content_type, -1) : NULL;

  return lower != NULL && g_str_has_prefix (lower, "application/json");
}

gboolean
akc_server_is_positive_safe_integer (double value)
{
  return value >= 1 && value <= 9007199254740991.0 && value == (double) (gint64) value;
}

AkcServerAdmit
akc_server_admit (SoupServerMessage  *message,
                  AkcServerAuthFunc   auth,
                  gpointer            auth_data,
                  AkcJsonValue      **context)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);

  *context = NULL;
  soup_message_body_set_accumulate (soup_server_message_get_request_body (message), FALSE);
  /* 1. */
  if (strcmp (soup_server_message_get_method (message), "POST") != 0)
    return AKC_SERVER_ADMIT_METHOD;
  /* 2.: the raw header, only its prefix */
  if (!akc_server_is_json_type (soup_message_headers_get_one (headers, "Content-Type")))
    return AKC_SERVER_ADMIT_MEDIA_TYPE;
  /* 3.: the host's response, verbatim */
  if (auth == NULL)
    {
      *context = akc_json_value_parse ("{}", -1, NULL);
      return AKC_SERVER_ADMIT_OK;
    }
  *context = auth (message, auth_data);
  if (*context != NULL)
    return AKC_SERVER_ADMIT_OK;
  if (soup_server_message_get_status (message) == 0)
    soup_server_message_set_status (message, 401, NULL);
  return AKC_SERVER_ADMIT_REFUSED;
}

gboolean
akc_server_declared_over (SoupServerMessage *message,
                          gint64             max_bytes)
{
  const char *declared = soup_message_headers_get_one (soup_server_message_get_request_headers (message),
                                                       "Content-Length");
  guint64 length = 0;

  if (declared == NULL || !g_ascii_string_to_unsigned (declared, 10, 0, G_MAXUINT64, &length, NULL))
    return FALSE;
  return length > (guint64) max_bytes;
}

gboolean
akc_server_body_append (GByteArray *body,
                        GBytes     *chunk,
                        gint64      max_bytes)
{
  gsize size = g_bytes_get_size (chunk);

  if ((gint64) (body->len + size) > max_bytes)
    {
      g_byte_array_set_size (body, 0);
      return FALSE;
    }
  g_byte_array_append (body, g_bytes_get_data (chunk, NULL), size);
  return TRUE;
}

AkcJsonValue *
akc_server_parse_body (GByteArray *body)
{
  if (!g_utf8_validate_len ((const char *) body->data, body->len, NULL))
    return NULL;
  return akc_json_value_parse ((const char *) body->data, body->len, NULL);
}

void
akc_server_run_in_thread (gpointer             source,
                          gpointer             data,
                          GDestroyNotify       data_free,
                          GTaskThreadFunc      func,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source, cancellable, callback, user_data);

  g_task_set_task_data (task, data, data_free);
  g_task_run_in_thread (task, func);
}

gboolean
akc_server_propagate_saved (GAsyncResult  *result,
                            gboolean      *saved,
                            GError       **error)
{
  gssize value = g_task_propagate_int (G_TASK (result), error);

  if (value < 0)
    return FALSE;
  *saved = value == TRUE;
  return TRUE;
}

struct _AkcServerHangup
{
  GSource           *source;
  AkcServerGoneFunc  gone;
  gpointer           user_data;
};

static gboolean
on_socket_ready (GSocket      *socket,
                 GIOCondition  condition,
                 gpointer      user_data)
{
  AkcServerHangup *watch = user_data;
  char byte;

  g_clear_pointer (&watch->source, g_source_unref);
  /* data (a pipelined request) or nothing yet: stop watching */
  if ((condition & (G_IO_HUP | G_IO_ERR)) == 0 &&
      g_socket_receive_with_blocking (socket, &byte, 1, FALSE, NULL, NULL) != 0)
    return G_SOURCE_REMOVE;
  /* the callback may free the watch */
  watch->gone (watch->user_data);
  return G_SOURCE_REMOVE;
}

AkcServerHangup *
akc_server_hangup_watch (SoupServerMessage *message,
                         AkcServerGoneFunc  gone,
                         gpointer           user_data)
{
  GSocket *socket = soup_server_message_get_socket (message);
  AkcServerHangup *watch;

  if (socket == NULL)
    return NULL;
  watch = g_new0 (AkcServerHangup, 1);
  watch->gone = gone;
  watch->user_data = user_data;
  watch->source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
  g_source_set_callback (watch->source, (GSourceFunc) (void (*) (void)) on_socket_ready, watch, NULL);
  g_source_attach (watch->source, NULL);
  return watch;
}

void
akc_server_hangup_free (AkcServerHangup *watch)
{
  if (watch == NULL)
    return;
  if (watch->source != NULL)
    {
      g_source_destroy (watch->source);
      g_source_unref (watch->source);
    }
  g_free (watch);
}

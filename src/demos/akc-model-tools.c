/* akc-model-tools.c: the tools the app and `akc chat` offer a model
 * provider's model
 *
 * SPDX-License-Identifier: MIT
 *
 * get_current_time runs at once (it changes nothing); open_link takes an
 * absolute http or https address, checked against its schema, and runs only
 * once the person approved it: the desktop app opens it in the browser,
 * `akc chat` prints it (a terminal may have no browser, or be on another
 * machine than the person). One copy of the schemas and of what the model
 * is told, for both.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "akc-model-tools.h"

#define MAX_LINK_LENGTH 2048
#define MODEL_DESCRIPTION "akc-model-description"

typedef struct {
  AkcModelLinkOpener opener;
  gpointer           user_data;
} Opener;

static char *
run_current_time (AkcTool       *tool,
                  AkcJsonValue  *arguments,
                  gpointer       user_data,
                  GError       **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format_iso8601 (now);
  GTimeZone *zone = g_date_time_get_timezone (now);
  const char *names[] = { "now", "timeZone" };
  g_autoptr(AkcJsonValue) result = NULL;
  AkcJsonValue *values[2];

  values[0] = akc_json_value_new_string (when, -1);
  values[1] = akc_json_value_new_string (g_time_zone_get_identifier (zone), -1);
  result = akc_json_value_new_object (names, values, 2);
  akc_json_value_unref (values[0]);
  akc_json_value_unref (values[1]);

  return akc_json_value_to_canonical (result, NULL);
}

static char *
run_open_link (AkcTool       *tool,
               AkcJsonValue  *arguments,
               gpointer       user_data,
               GError       **error)
{
  Opener *opener = user_data;
  AkcJsonValue *member = akc_json_value_get_member (arguments, "url");
  const char *text = member != NULL ? akc_json_value_get_string (member, NULL) : NULL;
  g_autoptr(GUri) uri = text != NULL ? g_uri_parse (text, G_URI_FLAGS_NONE, NULL) : NULL;
  g_autofree char *address = NULL;

  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0' ||
      (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") != 0 &&
       g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "Only an absolute http or https address can be opened.");
      return NULL;
    }
  address = g_uri_to_string (uri);

  return opener->opener (address, opener->user_data, error);
}

/* Returns: (transfer full) (element-type AkcTool): the tools, each with
 * what the model is told of it (akc_model_tools_offer()). */
GPtrArray *
akc_model_tools_new (AkcModelToolsHost   host,
                     AkcModelLinkOpener  opener,
                     gpointer            user_data)
{
  GPtrArray *tools = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(AkcJsonSchema) nothing = akc_json_schema_new_from_string ("{\"type\":\"object\",\"properties\":{},"
                                                                     "\"additionalProperties\":false}", NULL);
  g_autoptr(AkcJsonSchema) link = akc_json_schema_new_from_string ("{\"type\":\"object\",\"properties\":{"
                                                                  "\"url\":{\"type\":\"string\",\"minLength\":8,"
                                                                  "\"maxLength\":" G_STRINGIFY (MAX_LINK_LENGTH) ","
                                                                  "\"pattern\":\"^[Hh][Tt][Tt][Pp][Ss]?://\"}},"
                                                                  "\"required\":[\"url\"],\"additionalProperties\":false}",
                                                                  NULL);
  Opener *data = g_new0 (Opener, 1);
  AkcTool *clock, *open;

  g_return_val_if_fail (opener != NULL, NULL);
  g_assert (nothing != NULL && link != NULL);

  data->opener = opener;
  data->user_data = user_data;
  clock = akc_tool_new ("get_current_time", FALSE, run_current_time, NULL, NULL);
  open = akc_tool_new ("open_link", TRUE, run_open_link, data, g_free);

  akc_tool_set_argument_schema (clock, nothing);
  akc_tool_set_title (clock, _("Read the clock"));
  akc_tool_set_description (clock, _("Reads the date and time of this computer. Nothing is changed."));
  /* What the model is told of each tool is in English, as it is
   * instructed. */
  g_object_set_data (G_OBJECT (clock), MODEL_DESCRIPTION,
                     (gpointer) "Returns the current date and time of the person's computer (ISO 8601) and its time zone.");

  akc_tool_set_argument_schema (open, link);
  akc_tool_set_title (open, _("Open a link"));
  if (host == AKC_MODEL_TOOLS_TERMINAL)
    {
      akc_tool_set_description (open, _("Shows the address in the terminal, for you to open."));
      g_object_set_data (G_OBJECT (open), MODEL_DESCRIPTION,
                         (gpointer) "Shows an http or https address to the person in their terminal, for them to open, "
                                    "after the person approves it.");
    }
  else
    {
      akc_tool_set_description (open, _("Opens the address in your web browser."));
      g_object_set_data (G_OBJECT (open), MODEL_DESCRIPTION,
                         (gpointer) "Opens an http or https address in the person's web browser, after the person approves it.");
    }

  g_ptr_array_add (tools, clock);
  g_ptr_array_add (tools, open);

  return tools;
}

/* Offers @tools to the model of @adapter, each with what the model is
 * told of it. */
void
akc_model_tools_offer (GPtrArray          *tools,
                       AkcProviderAdapter *adapter)
{
  g_return_if_fail (AKC_IS_PROVIDER_ADAPTER (adapter));

  for (guint i = 0; tools != NULL && i < tools->len; i++)
    {
      AkcTool *tool = g_ptr_array_index (tools, i);

      akc_provider_adapter_add_tool (adapter, tool, g_object_get_data (G_OBJECT (tool), MODEL_DESCRIPTION));
    }
}

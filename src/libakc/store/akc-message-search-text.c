/* akc-message-search-text.c: the text of a message that search matches
 * and shows
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-component-manifest.h"
#include "akc-component-text.h"
#include "akc-json-private.h"
#include "akc-message-search-text-private.h"
#include "akc-resolved-component.h"

gboolean
akc_message_content_is_structured (const char *role,
                                   const char *content,
                                   gsize       length)
{
  gsize i = 0;

  if (g_strcmp0 (role, "assistant") != 0 || content == NULL || length == 0)
    return FALSE;
  if (content[0] == '\x1e')
    return TRUE;
  while (i < length && (content[i] == ' ' || content[i] == '\t' || content[i] == '\n' || content[i] == '\r'))
    i++;

  return i < length && content[i] == '{';
}

static void
append_line (GString    *out,
             const char *text,
             gsize       length)
{
  if (length == 0)
    return;
  if (out->len > 0)
    g_string_append_c (out, '\n');
  /* U+0000 cannot be shown. */
  for (gsize i = 0; i < length; i++)
    g_string_append_c (out, text[i] != '\0' ? text[i] : ' ');
}

static void
append_component (GString              *out,
                  AkcComponentManifest *manifest,
                  AkcJsonValue         *frame)
{
  g_autoptr(AkcResolvedComponent) resolved = NULL;
  AkcJsonValue *fallback, *summary;

  if (frame == NULL)
    return;

  resolved = akc_component_manifest_resolve (manifest, frame, NULL);
  if (resolved != NULL)
    {
      g_auto(GStrv) texts = akc_component_dup_visible_texts (akc_resolved_component_get_props (resolved));

      for (guint i = 0; texts[i] != NULL; i++)
        append_line (out, texts[i], strlen (texts[i]));
      return;
    }

  /* Not shown natively: its fallback summary is what is shown. */
  fallback = AKC_JSON_IS_OBJECT (frame) ? akc_json_object_lookup (frame, "fallback", 8, NULL) : NULL;
  summary = AKC_JSON_IS_OBJECT (fallback) ? akc_json_object_lookup (fallback, "summary", 7, NULL) : NULL;
  if (AKC_JSON_IS_STRING (summary))
    append_line (out, AKC_JSON_STR (summary), AKC_JSON_STR_LEN (summary));
}

char *
akc_message_dup_search_text (const char *role,
                             const char *content,
                             gsize       length)
{
  g_autoptr(AkcComponentManifest) manifest = NULL;
  g_autoptr(GString) out = NULL;

  if (!akc_message_content_is_structured (role, content, length))
    return NULL;

  manifest = akc_component_manifest_new_standard ();
  out = g_string_new (NULL);

  if (akc_assistant_content_is_candidate (content, length))
    {
      g_autoptr(AkcJsonValue) parts = akc_assistant_content_decode (content, length, NULL, NULL);

      for (gsize i = 0; parts != NULL && i < AKC_JSON_LEN (parts); i++)
        {
          AkcJsonValue *part = AKC_JSON_ELEMENT (parts, i);
          AkcJsonValue *kind;

          if (!AKC_JSON_IS_OBJECT (part))
            continue;
          kind = akc_json_object_lookup (part, "kind", 4, NULL);

          if (akc_json_string_equals (kind, "text"))
            {
              AkcJsonValue *text = akc_json_object_lookup (part, "text", 4, NULL);

              if (AKC_JSON_IS_STRING (text))
                append_line (out, AKC_JSON_STR (text), AKC_JSON_STR_LEN (text));
            }
          else if (akc_json_string_equals (kind, "component"))
            append_component (out, manifest, akc_json_object_lookup (part, "frame", 5, NULL));
        }
    }
  else
    {
      g_autoptr(AkcJsonValue) value = akc_json_parse (content, length, NULL, NULL, NULL);

      if (value != NULL && akc_component_frame_is_candidate_value (value))
        append_component (out, manifest, value);
      else
        /* JSON that is no frame is shown as the text it is. */
        append_line (out, content, length);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* akc-ask-projection.c: the pure parts of the Ask client: request URL and
 * body (application §8.1), history projection (§8.2) and event
 * projection with safeHref (§8.4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-answer.h"
#include "akc-ask-events.h"
#include "akc-ask-projection-private.h"
#include "akc-assistant-content.h"
#include "akc-component-frame.h"
#include "akc-json-private.h"
#include "akc-message.h"
#include "akc-text-private.h"

#define MAX_SOURCES         50
#define MAX_TITLE_UNITS     256
#define MAX_SUMMARY_UNITS   4096
#define MAX_HREF_LENGTH     2048
#define MAX_ID_UNITS        128

/* ------------------------------------------------------------------ */
/* Small text helpers                                                  */
/* ------------------------------------------------------------------ */

/* The byte length of the longest prefix of @s that is at most @units
 * UTF-16 code units and does not split a surrogate pair. */
static gsize
prefix_by_units (const char *s,
                 gsize       len,
                 gsize       units)
{
  gsize pos = 0, n = 0;

  while (pos < len)
    {
      guchar c = (guchar) s[pos];
      gsize width = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      gsize cp_units = width == 4 ? 2 : 1;

      if (n + cp_units > units)
        break;
      n += cp_units;
      pos += width;
    }

  return MIN (pos, len);
}

/* ------------------------------------------------------------------ */
/* §0.3 sanitising                                                     */
/* ------------------------------------------------------------------ */

static gboolean
is_id_char (gunichar c)
{
  return g_ascii_isalnum (c) || c == '.' || c == '_' || c == ':' || c == '-';
}

char *
akc_ask_sanitize_id (const char *value,
                     gsize       len,
                     const char *fallback)
{
  GString *out = g_string_new (NULL);
  const char *p = value, *end = value + len;

  while (p < end && out->len < MAX_ID_UNITS)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not reached for decoded JSON; one unit each. */
          g_string_append_c (out, '-');
          p++;
          continue;
        }
      if (c < 0x80 && is_id_char (c))
        g_string_append_c (out, (char) c);
      else if (c > 0xFFFF)
        g_string_append (out, "--");
      else
        g_string_append_c (out, '-');
      p = g_utf8_next_char (p);
    }

  if (out->len > MAX_ID_UNITS)
    g_string_truncate (out, MAX_ID_UNITS);

  if (out->len == 0 || !g_ascii_isalnum (out->str[0]))
    {
      g_string_free (out, TRUE);
      return g_strdup (fallback);
    }

  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* §8.4 safeHref                                                       */
/*                                                                     */
/* The WHATWG URL parser for the two shapes safeHref accepts: a path   */
/* resolved against a placeholder https origin, and an absolute        */
/* http(s) URL. Both serialise with the standard's percent-encode sets */
/* and dot-segment rules. Inputs holding controls or a backslash       */
/* outside the path-start check are refused outright (stricter than    */
/* the reference, which would rewrite them).                           */
/* ------------------------------------------------------------------ */

typedef enum
{
  SET_PATH,
  SET_QUERY,
  SET_FRAGMENT,
} EncodeSet;

static gboolean
needs_encoding (guchar    c,
                EncodeSet set)
{
  if (c < 0x20 || c > 0x7E || c == ' ' || c == '"' || c == '<' || c == '>')
    return TRUE;

  switch (set)
    {
    case SET_PATH:
      return c == '#' || c == '?' || c == '`' || c == '{' || c == '}';
    case SET_QUERY:
      return c == '#' || c == '\'';
    case SET_FRAGMENT:
      return c == '`';
    default:
      g_assert_not_reached ();
    }
}

static void
append_encoded (GString    *out,
                const char *s,
                gsize       len,
                EncodeSet   set)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];

      if (needs_encoding (c, set))
        g_string_append_printf (out, "%%%02X", c);
      else
        g_string_append_c (out, (char) c);
    }
}

static gboolean
segment_is (const char *seg,
            gsize       len,
            gboolean    two)
{
  g_autofree char *lower = g_ascii_strdown (seg, len);

  if (!two)
    return strcmp (lower, ".") == 0 || strcmp (lower, "%2e") == 0;

  return strcmp (lower, "..") == 0 || strcmp (lower, ".%2e") == 0 ||
         strcmp (lower, "%2e.") == 0 || strcmp (lower, "%2e%2e") == 0;
}

/* Serialises a path that starts with '/' (backslashes already '/'):
 * dot segments resolved, unsafe bytes percent-encoded. */
static void
append_path (GString    *out,
             const char *path,
             gsize       len)
{
  g_autoptr(GPtrArray) segments = g_ptr_array_new_with_free_func (g_free);
  gsize start = 1;

  g_assert (len >= 1 && path[0] == '/');

  for (gsize i = 1; i <= len; i++)
    {
      if (i < len && path[i] != '/')
        continue;

      {
        const char *seg = path + start;
        gsize seg_len = i - start;
        gboolean last = i == len;

        if (segment_is (seg, seg_len, TRUE))
          {
            if (segments->len > 0)
              g_ptr_array_remove_index (segments, segments->len - 1);
            if (last)
              g_ptr_array_add (segments, g_strdup (""));
          }
        else if (segment_is (seg, seg_len, FALSE))
          {
            if (last)
              g_ptr_array_add (segments, g_strdup (""));
          }
        else
          {
            GString *enc = g_string_new (NULL);

            append_encoded (enc, seg, seg_len, SET_PATH);
            g_ptr_array_add (segments, g_string_free (enc, FALSE));
          }
      }
      start = i + 1;
    }

  for (guint i = 0; i < segments->len; i++)
    {
      g_string_append_c (out, '/');
      g_string_append (out, g_ptr_array_index (segments, i));
    }
  if (segments->len == 0)
    g_string_append_c (out, '/');
}

static gboolean
has_scheme (const char *s,
            gsize       len)
{
  gsize i = 0;

  if (len == 0 || !g_ascii_isalpha (s[0]))
    return FALSE;
  for (i = 1; i < len; i++)
    {
      if (s[i] == ':')
        return TRUE;
      if (!g_ascii_isalnum (s[i]) && s[i] != '+' && s[i] != '.' && s[i] != '-')
        return FALSE;
    }
  return FALSE;
}

/* Removes the leading and trailing C0 controls and spaces and every tab
 * and newline, as the URL parser does first. */
static char *
preprocess (const char *s,
            gsize       len,
            gsize      *out_len)
{
  GString *out = g_string_sized_new (len);
  gsize start = 0, end = len;

  while (start < end && (guchar) s[start] <= 0x20)
    start++;
  while (end > start && (guchar) s[end - 1] <= 0x20)
    end--;
  for (gsize i = start; i < end; i++)
    if (s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
      g_string_append_c (out, s[i]);

  *out_len = out->len;
  return g_string_free (out, FALSE);
}

static gboolean
has_control_or_backslash (const char *s,
                          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] < 0x20 || (guchar) s[i] == 0x7F || s[i] == '\\')
      return TRUE;
  return FALSE;
}

/* Appends path, query and fragment of @rest (which starts with '/' or is
 * empty) and the fragment rule for @anchor. */
static void
append_path_query_fragment (GString    *out,
                            const char *rest,
                            gsize       len,
                            const char *anchor,
                            gsize       anchor_len,
                            gboolean    keep_empty)
{
  gsize path_end = 0, query_end;
  g_autofree char *path = NULL;

  while (path_end < len && rest[path_end] != '?' && rest[path_end] != '#')
    path_end++;
  query_end = path_end;
  while (query_end < len && rest[query_end] != '#')
    query_end++;

  path = g_strndup (rest, path_end);
  for (char *p = path; *p != '\0'; p++)
    if (*p == '\\')
      *p = '/';
  if (path_end == 0 || path[0] != '/')
    {
      g_autofree char *rooted = g_strconcat ("/", path, NULL);

      append_path (out, rooted, path_end + 1);
    }
  else
    append_path (out, path, path_end);

  if (query_end > path_end && (keep_empty || query_end > path_end + 1))
    {
      g_string_append_c (out, '?');
      append_encoded (out, rest + path_end + 1, query_end - path_end - 1, SET_QUERY);
    }

  if (anchor != NULL)
    {
      if (anchor_len > 0 && anchor[0] == '#')
        anchor++, anchor_len--;
      if (anchor_len > 0)
        {
          gsize clean_len;
          g_autofree char *clean = NULL;
          gsize j = 0;

          /* Setting the hash drops tabs and newlines. */
          clean = g_malloc (anchor_len + 1);
          for (gsize i = 0; i < anchor_len; i++)
            if (anchor[i] != '\t' && anchor[i] != '\n' && anchor[i] != '\r')
              clean[j++] = anchor[i];
          clean_len = j;
          g_string_append_c (out, '#');
          append_encoded (out, clean, clean_len, SET_FRAGMENT);
        }
    }
  else if (query_end < len && (keep_empty || query_end + 1 < len))
    {
      g_string_append_c (out, '#');
      append_encoded (out, rest + query_end + 1, len - query_end - 1, SET_FRAGMENT);
    }
}

static char *
safe_href_relative (const char *path,
                    gsize       path_len,
                    const char *anchor,
                    gsize       anchor_len)
{
  g_autofree char *rooted = NULL;
  g_autofree char *clean = NULL;
  gsize clean_len;
  GString *out;

  rooted = path_len > 0 && path[0] == '/' ? g_strndup (path, path_len)
                                          : g_strconcat ("/", path, NULL);
  clean = preprocess (rooted, strlen (rooted), &clean_len);

  /* After the leading clean-up the input may no longer be rooted. */
  if (clean_len == 0 || (clean[0] != '/' && clean[0] != '\\'))
    {
      g_autofree char *again = g_strconcat ("/", clean, NULL);

      g_free (clean);
      clean = g_steal_pointer (&again);
      clean_len++;
    }

  /* Two leading slashes (a backslash counts as one) start an authority:
   * the origin would change. */
  if (clean_len >= 2 && (clean[1] == '/' || clean[1] == '\\'))
    return NULL;

  out = g_string_new (NULL);
  append_path_query_fragment (out, clean, clean_len, anchor, anchor_len, FALSE);

  return g_string_free (out, FALSE);
}

static char *
safe_href_absolute (const char *s,
                    gsize       len,
                    const char *anchor,
                    gsize       anchor_len)
{
  g_autofree char *clean = NULL;
  g_auto(AkcUrlParts) parts = { 0 };
  gsize clean_len, auth_end;
  GString *out;

  clean = preprocess (s, len, &clean_len);
  if (has_control_or_backslash (clean, clean_len) ||
      !akc_url_split_safe_absolute_http (clean, clean_len, &parts))
    return NULL;

  out = g_string_new (parts.https ? "https://" : "http://");
  g_string_append (out, parts.host);
  if (parts.port >= 0 && parts.port != (parts.https ? 443 : 80))
    g_string_append_printf (out, ":%d", parts.port);

  auth_end = parts.path_start;
  if (auth_end == clean_len || clean[auth_end] != '/')
    {
      g_autofree char *rest = g_strconcat ("/", clean + auth_end, NULL);

      append_path_query_fragment (out, rest, strlen (rest), anchor, anchor_len, TRUE);
    }
  else
    append_path_query_fragment (out, clean + auth_end, clean_len - auth_end, anchor, anchor_len, TRUE);

  return g_string_free (out, FALSE);
}

char *
akc_ask_safe_href (const char *path,
                   gsize       path_len,
                   const char *anchor,
                   gsize       anchor_len)
{
  g_autofree char *href = NULL;

  if (!has_scheme (path, path_len) && !(path_len >= 2 && path[0] == '/' && path[1] == '/'))
    href = safe_href_relative (path, path_len, anchor, anchor_len);
  else if (path_len >= 2 && path[0] == '/' && path[1] == '/')
    return NULL;
  else
    href = safe_href_absolute (path, path_len, anchor, anchor_len);

  if (href == NULL || strlen (href) > MAX_HREF_LENGTH)
    return NULL;

  return g_steal_pointer (&href);
}

/* ------------------------------------------------------------------ */
/* §8.4 event projection                                               */
/* ------------------------------------------------------------------ */

void
akc_ask_projection_clear (AkcAskProjection *projection)
{
  g_clear_pointer (&projection->frame, akc_json_value_unref);
  memset (projection, 0, sizeof *projection);
}

static AkcJsonValue *
build_cite_frame (AkcJsonValue *event)
{
  AkcJsonValue *args = akc_json_value_get_member (event, "args");
  AkcJsonValue *sources = args != NULL ? akc_json_value_get_member (args, "sources") : NULL;
  AkcJsonValue *id = akc_json_value_get_member (event, "id");
  g_autofree char *instance_id = NULL;
  g_autoptr(GString) summary = NULL;
  g_autoptr(GString) list = NULL;
  AkcJsonWriter w;
  GString *frame;
  guint kept = 0;

  if (sources == NULL || akc_json_value_get_kind (sources) != AKC_JSON_KIND_ARRAY)
    return NULL;

  list = g_string_new (NULL);
  summary = g_string_new ("Sources: ");
  akc_json_writer_init (&w, list);
  akc_json_writer_begin_array (&w);

  for (gsize i = 0; i < akc_json_value_get_length (sources) && kept < MAX_SOURCES; i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (sources, i);
      AkcJsonValue *title, *path, *anchor;
      const char *title_s, *path_s, *anchor_s = NULL;
      gsize title_len, path_len, anchor_len = 0, trimmed_len, cut;
      g_autofree char *url = NULL;
      g_autofree char *source_id = NULL;

      if (akc_json_value_get_kind (item) != AKC_JSON_KIND_OBJECT)
        continue;
      title = akc_json_value_get_member (item, "title");
      path = akc_json_value_get_member (item, "path");
      anchor = akc_json_value_get_member (item, "anchor");
      if (title == NULL || akc_json_value_get_kind (title) != AKC_JSON_KIND_STRING ||
          path == NULL || akc_json_value_get_kind (path) != AKC_JSON_KIND_STRING)
        continue;

      title_s = akc_json_value_get_string (title, &title_len);
      akc_text_trim (title_s, title_len, &trimmed_len);
      if (trimmed_len == 0)
        continue;

      path_s = akc_json_value_get_string (path, &path_len);
      if (anchor != NULL && akc_json_value_get_kind (anchor) == AKC_JSON_KIND_STRING)
        anchor_s = akc_json_value_get_string (anchor, &anchor_len);
      url = akc_ask_safe_href (path_s, path_len, anchor_s, anchor_len);
      if (url == NULL)
        continue;

      cut = prefix_by_units (title_s, title_len, MAX_TITLE_UNITS);
      source_id = g_strdup_printf ("source-%" G_GSIZE_FORMAT, i + 1);

      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      akc_json_writer_string (&w, source_id, -1);
      akc_json_writer_member (&w, "title");
      akc_json_writer_string (&w, title_s, cut);
      akc_json_writer_member (&w, "url");
      akc_json_writer_string (&w, url, -1);
      akc_json_writer_end_object (&w);

      if (kept > 0)
        g_string_append (summary, ", ");
      g_string_append_len (summary, title_s, cut);
      kept++;
    }
  akc_json_writer_end_array (&w);

  if (kept == 0)
    return NULL;

  g_string_append_c (summary, '.');
  g_string_truncate (summary, prefix_by_units (summary->str, summary->len, MAX_SUMMARY_UNITS));

  if (id != NULL && akc_json_value_get_kind (id) == AKC_JSON_KIND_STRING)
    {
      gsize id_len;
      const char *id_s = akc_json_value_get_string (id, &id_len);

      instance_id = akc_ask_sanitize_id (id_s, id_len, "sources");
    }
  else
    instance_id = g_strdup ("sources");

  frame = g_string_new (NULL);
  akc_json_writer_init (&w, frame);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "protocol");
  akc_json_writer_string (&w, "agentskit.chat.component", -1);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, 1);
  akc_json_writer_member (&w, "type");
  akc_json_writer_string (&w, "render", -1);
  akc_json_writer_member (&w, "componentKey");
  akc_json_writer_string (&w, "source-list", -1);
  akc_json_writer_member (&w, "instanceId");
  akc_json_writer_string (&w, instance_id, -1);
  akc_json_writer_member (&w, "props");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "label");
  akc_json_writer_string (&w, "Sources", -1);
  akc_json_writer_end_object (&w);
  /* The sources array goes inside props: splice it before the brace. */
  g_string_truncate (frame, frame->len - 1);
  g_string_append (frame, ",\"sources\":");
  g_string_append_len (frame, list->str, list->len);
  g_string_append_c (frame, '}');
  g_string_append (frame, ",\"fallback\":{\"kind\":\"source-list\",\"summary\":");
  akc_json_append_string (frame, summary->str, summary->len);
  g_string_append (frame, "}}");

  {
    AkcJsonValue *value = akc_json_value_parse (frame->str, frame->len, NULL);

    g_string_free (frame, TRUE);
    return value;
  }
}

void
akc_ask_project_event (AkcJsonValue        *event,
                       AkcAskToolProjector  projector,
                       gpointer             projector_data,
                       AkcAskProjection    *projection)
{
  AkcJsonValue *member;

  memset (projection, 0, sizeof *projection);

  switch (akc_ask_event_get_kind (event))
    {
    case AKC_ASK_EVENT_KIND_TEXT:
      member = akc_json_value_get_member (event, "delta");
      projection->text = akc_json_value_get_string (member, &projection->length);
      if (projection->length > 0)
        projection->kind = AKC_ASK_PROJECTION_TEXT;
      return;

    case AKC_ASK_EVENT_KIND_ERROR:
      projection->kind = AKC_ASK_PROJECTION_ERROR;
      member = akc_json_value_get_member (event, "message");
      projection->text = akc_json_value_get_string (member, &projection->length);
      member = akc_json_value_get_member (event, "code");
      projection->code = member != NULL ? akc_json_value_get_string (member, NULL) : NULL;
      return;

    case AKC_ASK_EVENT_KIND_DONE:
      projection->kind = AKC_ASK_PROJECTION_DONE;
      return;

    case AKC_ASK_EVENT_KIND_TOOL:
      {
        AkcJsonValue *name = akc_json_value_get_member (event, "name");
        AkcJsonValue *args = akc_json_value_get_member (event, "args");

        if (akc_json_string_equals (name, "answer"))
          {
            AkcJsonValue *markdown = akc_json_value_get_member (args, "markdown");

            if (markdown != NULL && akc_json_value_get_kind (markdown) == AKC_JSON_KIND_STRING)
              {
                projection->text = akc_json_value_get_string (markdown, &projection->length);
                if (projection->length > 0)
                  projection->kind = AKC_ASK_PROJECTION_TEXT;
                return;
              }
          }
        else if (akc_json_string_equals (name, "cite"))
          {
            projection->frame = build_cite_frame (event);
            if (projection->frame != NULL)
              projection->kind = AKC_ASK_PROJECTION_COMPONENT;
            return;
          }

        if (projector != NULL)
          {
            g_autoptr(AkcJsonValue) candidate = projector (event, projector_data);

            if (candidate != NULL)
              projection->frame = akc_component_frame_decode_value (candidate, NULL);
            if (projection->frame != NULL)
              projection->kind = AKC_ASK_PROJECTION_COMPONENT;
          }
      }
      return;

    case AKC_ASK_EVENT_KIND_INVALID:
    default:
      return;
    }
}

/* ------------------------------------------------------------------ */
/* §8.2 history projection                                             */
/* ------------------------------------------------------------------ */

char *
akc_ask_flatten_assistant (const char *content,
                           gsize       length,
                           gsize      *out_length)
{
  g_autoptr(AkcJsonValue) parts = NULL;
  GString *out;
  const char *trimmed;
  gsize trimmed_len;

  parts = akc_assistant_content_decode (content, length, NULL, NULL);
  if (parts == NULL)
    {
      *out_length = length;
      return g_strndup (content, length);
    }

  out = g_string_new (NULL);
  for (gsize i = 0; i < akc_json_value_get_length (parts); i++)
    {
      AkcJsonValue *part = akc_json_value_get_element (parts, i);
      AkcJsonValue *kind = akc_json_value_get_member (part, "kind");

      if (i > 0)
        g_string_append_c (out, '\n');
      if (akc_json_string_equals (kind, "text"))
        {
          gsize n;
          const char *text = akc_json_value_get_string (akc_json_value_get_member (part, "text"), &n);

          g_string_append_len (out, text, n);
        }
      else
        {
          AkcJsonValue *frame = akc_json_value_get_member (part, "frame");
          AkcJsonValue *key = frame != NULL ? akc_json_value_get_member (frame, "componentKey") : NULL;

          g_string_append_c (out, '[');
          if (key != NULL && akc_json_value_get_kind (key) == AKC_JSON_KIND_STRING)
            g_string_append (out, akc_json_value_get_string (key, NULL));
          g_string_append_c (out, ']');
        }
    }

  trimmed = akc_text_trim (out->str, out->len, &trimmed_len);
  *out_length = trimmed_len;
  {
    char *result = g_strndup (trimmed, trimmed_len);

    g_string_free (out, TRUE);
    return result;
  }
}

AkcJsonValue *
akc_ask_project_messages (GListModel *messages)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  guint n = messages != NULL ? g_list_model_get_n_items (messages) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      AkcMessageRole role = akc_message_get_role (message);
      const char *names[] = { "role", "content" };
      g_autoptr(AkcJsonValue) role_value = NULL;
      g_autoptr(AkcJsonValue) content_value = NULL;
      AkcJsonValue *values[2];

      if (role == AKC_MESSAGE_ROLE_USER)
        {
          role_value = akc_json_value_new_string ("user", -1);
          content_value = akc_json_value_new_string (akc_message_get_content (message),
                                                     akc_message_get_content_length (message));
        }
      else if (role == AKC_MESSAGE_ROLE_ASSISTANT)
        {
          gsize len;
          g_autofree char *flat = akc_ask_flatten_assistant (akc_message_get_content (message),
                                                             akc_message_get_content_length (message),
                                                             &len);

          role_value = akc_json_value_new_string ("assistant", -1);
          content_value = akc_json_value_new_string (flat, len);
        }
      else
        continue;

      values[0] = role_value;
      values[1] = content_value;
      g_ptr_array_add (items, akc_json_value_new_object (names, values, 2));
    }

  return akc_json_value_new_array ((AkcJsonValue * const *) items->pdata, items->len);
}

/* ------------------------------------------------------------------ */
/* §8.1 request                                                        */
/* ------------------------------------------------------------------ */

static void
form_encode (GString    *out,
             const char *s,
             gsize       len)
{
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];

      if (g_ascii_isalnum (c) || c == '*' || c == '-' || c == '.' || c == '_')
        g_string_append_c (out, (char) c);
      else if (c == ' ')
        g_string_append_c (out, '+');
      else
        g_string_append_printf (out, "%%%02X", c);
    }
}

static char *
form_decode (const char *s,
             gsize       len)
{
  GString *out = g_string_sized_new (len);

  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '+')
        g_string_append_c (out, ' ');
      else if (s[i] == '%' && i + 2 < len + 0 && g_ascii_isxdigit (s[i + 1]) && g_ascii_isxdigit (s[i + 2]))
        {
          g_string_append_c (out, (char) (g_ascii_xdigit_value (s[i + 1]) * 16 +
                                          g_ascii_xdigit_value (s[i + 2])));
          i += 2;
        }
      else
        g_string_append_c (out, s[i]);
    }

  return g_string_free (out, FALSE);
}

typedef struct
{
  char *name;
  char *value;
} Param;

static void
param_clear (gpointer data)
{
  Param *p = data;

  g_free (p->name);
  g_free (p->value);
}

/* URLSearchParams.set: replaces the first pair named @name and removes
 * the others, or appends one. */
static void
params_set (GArray     *params,
            const char *name,
            const char *value)
{
  gboolean found = FALSE;

  for (guint i = 0; i < params->len;)
    {
      Param *p = &g_array_index (params, Param, i);

      if (strcmp (p->name, name) != 0)
        {
          i++;
          continue;
        }
      if (!found)
        {
          g_free (p->value);
          p->value = g_strdup (value);
          found = TRUE;
          i++;
        }
      else
        g_array_remove_index (params, i);
    }

  if (!found)
    {
      Param p = { g_strdup (name), g_strdup (value) };

      g_array_append_val (params, p);
    }
}

static gboolean
is_blank (const char *s)
{
  gsize len;

  if (s == NULL)
    return TRUE;
  akc_text_trim (s, strlen (s), &len);
  return len == 0;
}

char *
akc_ask_request_url (const char *endpoint,
                     const char *corpus,
                     const char *persona)
{
  g_autoptr(GArray) params = NULL;
  gsize len, query_start, query_end;
  GString *out;

  if (endpoint == NULL)
    endpoint = AKC_ASK_DEFAULT_ENDPOINT;

  if (is_blank (corpus) && is_blank (persona))
    return g_strdup (endpoint);

  len = strlen (endpoint);
  query_start = strcspn (endpoint, "?#");
  query_end = query_start;
  if (query_end < len && endpoint[query_end] == '?')
    query_end += strcspn (endpoint + query_end, "#");

  params = g_array_new (FALSE, TRUE, sizeof (Param));
  g_array_set_clear_func (params, param_clear);

  if (query_end > query_start + 1)
    {
      g_auto(GStrv) pairs = NULL;
      g_autofree char *query = g_strndup (endpoint + query_start + 1, query_end - query_start - 1);

      pairs = g_strsplit (query, "&", -1);
      for (guint i = 0; pairs[i] != NULL; i++)
        {
          const char *eq = strchr (pairs[i], '=');
          Param p;

          if (pairs[i][0] == '\0')
            continue;
          if (eq != NULL)
            {
              p.name = form_decode (pairs[i], eq - pairs[i]);
              p.value = form_decode (eq + 1, strlen (eq + 1));
            }
          else
            {
              p.name = form_decode (pairs[i], strlen (pairs[i]));
              p.value = g_strdup ("");
            }
          g_array_append_val (params, p);
        }
    }

  if (!is_blank (corpus))
    params_set (params, "corpus", corpus);
  if (!is_blank (persona))
    params_set (params, "persona", persona);

  out = g_string_new_len (endpoint, query_start);
  for (guint i = 0; i < params->len; i++)
    {
      Param *p = &g_array_index (params, Param, i);

      g_string_append_c (out, i == 0 ? '?' : '&');
      form_encode (out, p->name, strlen (p->name));
      g_string_append_c (out, '=');
      form_encode (out, p->value, strlen (p->value));
    }
  g_string_append (out, endpoint + query_end);

  return g_string_free (out, FALSE);
}

char *
akc_ask_request_body (const char   *session_id,
                      AkcJsonValue *messages,
                      AkcJsonValue *metadata,
                      gsize        *length)
{
  g_autoptr(AkcJsonValue) deterministic = NULL;
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  if (metadata != NULL && akc_json_value_get_kind (metadata) == AKC_JSON_KIND_OBJECT)
    {
      AkcJsonValue *escalation = akc_json_value_get_member (metadata, "agentskit.chat.escalation");

      if (escalation != NULL)
        {
          g_autoptr(AkcJsonValue) answer = akc_answer_decode_value (escalation, NULL);

          if (answer != NULL &&
              akc_json_string_equals (akc_json_value_get_member (answer, "outcome"), "escalation"))
            deterministic = g_steal_pointer (&answer);
        }
    }

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "protocol");
  akc_json_writer_string (&w, "agentskit.chat.ask", -1);
  akc_json_writer_member (&w, "version");
  akc_json_writer_int (&w, 1);
  if (session_id != NULL && strcmp (session_id, AKC_ASK_UNSCOPED_SESSION) != 0)
    {
      akc_json_writer_member (&w, "sessionId");
      akc_json_writer_string (&w, session_id, -1);
    }
  akc_json_writer_member (&w, "messages");
  akc_json_writer_value (&w, messages);
  if (deterministic != NULL)
    {
      akc_json_writer_member (&w, "deterministic");
      akc_json_writer_value (&w, deterministic);
    }
  akc_json_writer_end_object (&w);

  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}

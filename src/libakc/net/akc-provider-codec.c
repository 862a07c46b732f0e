/* akc-provider-codec.c: the requests of the provider adapters, their
 * error answers and model lists
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "akc-ask-projection-private.h"
#include "akc-chat-source.h"
#include "akc-message.h"
#include "akc-provider-codec-private.h"
#include "akc-tool-call.h"

static const char * const error_code_names[] = {
  [AKC_PROVIDER_ERROR_INVALID_ENDPOINT] = "PROVIDER_INVALID_ENDPOINT",
  [AKC_PROVIDER_ERROR_UNAUTHORIZED] = "PROVIDER_UNAUTHORIZED",
  [AKC_PROVIDER_ERROR_FORBIDDEN] = "PROVIDER_FORBIDDEN",
  [AKC_PROVIDER_ERROR_MODEL_NOT_FOUND] = "PROVIDER_MODEL_NOT_FOUND",
  [AKC_PROVIDER_ERROR_NOT_FOUND] = "PROVIDER_NOT_FOUND",
  [AKC_PROVIDER_ERROR_RATE_LIMITED] = "PROVIDER_RATE_LIMITED",
  [AKC_PROVIDER_ERROR_CONTEXT_LENGTH] = "PROVIDER_CONTEXT_LENGTH",
  [AKC_PROVIDER_ERROR_SERVER] = "PROVIDER_SERVER_ERROR",
  [AKC_PROVIDER_ERROR_REFUSED] = "PROVIDER_REQUEST_REFUSED",
  [AKC_PROVIDER_ERROR_CONNECTION] = "PROVIDER_CONNECTION_FAILED",
  [AKC_PROVIDER_ERROR_TIMEOUT] = "PROVIDER_TIMEOUT",
  [AKC_PROVIDER_ERROR_REDIRECT] = "PROVIDER_REDIRECT",
  [AKC_PROVIDER_ERROR_CUT_OFF] = "PROVIDER_CUT_OFF",
  [AKC_PROVIDER_ERROR_INVALID_RESPONSE] = "PROVIDER_INVALID_RESPONSE",
  [AKC_PROVIDER_ERROR_TOO_LARGE] = "PROVIDER_TOO_LARGE",
  [AKC_PROVIDER_ERROR_STREAM] = "PROVIDER_STREAM_ERROR",
  [AKC_PROVIDER_ERROR_ATTACHMENT_REFUSED] = "PROVIDER_ATTACHMENT_REFUSED",
};

const char *
akc_provider_error_code_name (AkcProviderError code)
{
  if ((guint) code >= G_N_ELEMENTS (error_code_names))
    return "PROVIDER_STREAM_ERROR";
  return error_code_names[code];
}

void
akc_provider_tool_free (AkcProviderTool *tool)
{
  g_free (tool->name);
  g_free (tool->description);
  g_clear_pointer (&tool->parameters, akc_json_value_unref);
  g_free (tool);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */
/* ------------------------------------------------------------------ */

char *
akc_provider_clean_text (const char *text,
                         gsize       length)
{
  g_autofree char *valid = NULL;
  GString *out;
  const char *p, *end;
  gsize valid_length;

  valid = akc_utf8_sanitize (text, length, &valid_length);
  if (valid != NULL)
    text = valid;
  else
    valid_length = length;

  out = g_string_sized_new (MIN (valid_length, AKC_PROVIDER_MAX_SERVER_MESSAGE) + 4);
  p = text;
  end = text + valid_length;
  while (p < end)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);
      gboolean control = c < 0x20 || (c >= 0x7f && c < 0xa0) ||
                         (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) ||
                         (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;

      if (out->len + (control ? 1 : (gsize) (next - p)) > AKC_PROVIDER_MAX_SERVER_MESSAGE)
        {
          g_string_append (out, "…");
          break;
        }
      /* Controls become spaces, and runs of spaces one. */
      if (control || c == ' ')
        {
          if (out->len > 0 && out->str[out->len - 1] != ' ')
            g_string_append_c (out, ' ');
        }
      else
        g_string_append_len (out, p, next - p);
      p = next;
    }

  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);

  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Addresses                                                           */
/* ------------------------------------------------------------------ */

GUri *
akc_provider_endpoint_uri (const char  *base_url,
                           const char  *path,
                           GError     **error)
{
  g_autoptr(GUri) base = NULL;
  g_autofree char *joined = NULL;
  const char *scheme;
  const char *base_path;
  gsize base_length;

  if (base_url != NULL)
    base = g_uri_parse (base_url, G_URI_FLAGS_ENCODED, NULL);
  scheme = base != NULL ? g_uri_get_scheme (base) : NULL;
  if (base == NULL || scheme == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      g_uri_get_host (base) == NULL || g_uri_get_host (base)[0] == '\0')
    {
      g_set_error (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_ENDPOINT,
                   _("The provider address “%s” is not an absolute http or https address."),
                   base_url != NULL ? base_url : "");
      return NULL;
    }
  if (g_uri_get_userinfo (base) != NULL)
    {
      g_set_error_literal (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_ENDPOINT,
                           _("The provider address must not contain a user name or password; store the key in the keyring instead."));
      return NULL;
    }

  base_path = g_uri_get_path (base);
  base_length = strlen (base_path);
  while (base_length > 0 && base_path[base_length - 1] == '/')
    base_length--;
  joined = g_strdup_printf ("%.*s%s", (int) base_length, base_path, path);

  return g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (base), NULL, g_uri_get_host (base),
                      g_uri_get_port (base), joined, NULL, NULL);
}

static gboolean
base_ends_in_v1 (const char *base_url)
{
  g_autoptr(GUri) base = base_url != NULL ? g_uri_parse (base_url, G_URI_FLAGS_ENCODED, NULL) : NULL;
  const char *path = base != NULL ? g_uri_get_path (base) : "";
  gsize length = strlen (path);

  while (length > 0 && path[length - 1] == '/')
    length--;
  return length >= 3 && memcmp (path + length - 3, "/v1", 3) == 0;
}

const char *
akc_provider_chat_path (AkcProviderKind  kind,
                        const char      *base_url)
{
  switch (kind)
    {
    case AKC_PROVIDER_KIND_OPENAI:
      return "/chat/completions";
    case AKC_PROVIDER_KIND_OLLAMA:
      return "/api/chat";
    case AKC_PROVIDER_KIND_ANTHROPIC:
    default:
      return base_ends_in_v1 (base_url) ? "/messages" : "/v1/messages";
    }
}

const char *
akc_provider_models_path (AkcProviderKind  kind,
                          const char      *base_url)
{
  switch (kind)
    {
    case AKC_PROVIDER_KIND_OPENAI:
      return "/models";
    case AKC_PROVIDER_KIND_OLLAMA:
      return "/api/tags";
    case AKC_PROVIDER_KIND_ANTHROPIC:
    default:
      return base_ends_in_v1 (base_url) ? "/models?limit=1000" : "/v1/models?limit=1000";
    }
}

/* ------------------------------------------------------------------ */
/* The conversation, as providers see it                               */
/* ------------------------------------------------------------------ */

typedef struct
{
  char         *id;
  char         *name;
  char         *arguments;   /* a JSON object text */
} PCall;

typedef struct
{
  AkcMessageRole  role;
  char           *text;
  GPtrArray      *calls;        /* PCall, assistant only */
  char           *tool_call_id; /* tool only */
  char           *tool_name;
  gboolean        is_error;
  GPtrArray      *attachments;  /* AkcAttachment, user only */
} PMessage;

static void
pcall_free (PCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_free (call->arguments);
  g_free (call);
}

static void
pmessage_free (PMessage *message)
{
  g_free (message->text);
  g_clear_pointer (&message->calls, g_ptr_array_unref);
  g_free (message->tool_call_id);
  g_free (message->tool_name);
  g_clear_pointer (&message->attachments, g_ptr_array_unref);
  g_free (message);
}

static char *
valid_text (const char *text,
            gsize       length)
{
  gsize out_length;
  char *clean = akc_utf8_sanitize (text, length, &out_length);

  return clean != NULL ? clean : g_strndup (text, length);
}

static PMessage *
pmessage_new (AkcMessageRole  role,
              const char     *text,
              gsize           length)
{
  PMessage *message = g_new0 (PMessage, 1);

  message->role = role;
  message->text = valid_text (text != NULL ? text : "", text != NULL ? length : 0);

  return message;
}

static PMessage *
tool_result (AkcToolCall *call,
             const char  *content)
{
  AkcToolCallStatus status = akc_tool_call_get_status (call);
  PMessage *message;

  if (content == NULL)
    {
      if (status == AKC_TOOL_CALL_STATUS_COMPLETE)
        content = akc_tool_call_get_result (call);
      else if (status == AKC_TOOL_CALL_STATUS_ERROR)
        content = akc_tool_call_get_error (call);
    }
  if (content == NULL)
    content = "The tool call was not run.";

  message = pmessage_new (AKC_MESSAGE_ROLE_TOOL, content, strlen (content));
  message->tool_call_id = g_strdup (akc_tool_call_get_id (call));
  message->tool_name = g_strdup (akc_tool_call_get_name (call));
  message->is_error = status != AKC_TOOL_CALL_STATUS_COMPLETE;

  return message;
}

/* Every call of an assistant message gets a result before the next
 * message: the one the conversation holds, or one made from the call. */
static void
flush_pending (GPtrArray *out,
               GPtrArray *pending)
{
  for (guint i = 0; i < pending->len; i++)
    g_ptr_array_add (out, tool_result (g_ptr_array_index (pending, i), NULL));
  g_ptr_array_set_size (pending, 0);
}

static GPtrArray *
project (AkcAdapterRequest *request,
         GString           *system,
         gboolean           without_images)
{
  GListModel *messages = akc_adapter_request_get_messages (request);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) pmessage_free);
  g_autoptr(GPtrArray) pending = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (messages);
  const char *prompt = akc_adapter_request_get_system_prompt (request);

  if (prompt != NULL && !akc_is_blank_input (prompt))
    {
      g_autofree char *clean = valid_text (prompt, strlen (prompt));

      g_string_append (system, clean);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i);
      AkcMessageRole role = akc_message_get_role (message);
      const char *content = akc_message_get_content (message);
      gsize length = akc_message_get_content_length (message);

      if (role != AKC_MESSAGE_ROLE_TOOL)
        flush_pending (out, pending);

      switch (role)
        {
        case AKC_MESSAGE_ROLE_SYSTEM:
          if (length > 0)
            {
              g_autofree char *clean = valid_text (content, length);

              if (system->len > 0)
                g_string_append (system, "\n\n");
              g_string_append (system, clean);
            }
          break;

        case AKC_MESSAGE_ROLE_USER:
          {
            GListModel *attachments = akc_message_get_attachments (message);
            guint n_attachments = g_list_model_get_n_items (attachments);
            PMessage *projected = pmessage_new (role, content, length);

            if (n_attachments > 0)
              projected->attachments = g_ptr_array_new_with_free_func (g_object_unref);
            for (guint a = 0; a < n_attachments; a++)
              {
                AkcAttachment *attachment = g_list_model_get_item (attachments, a);
                g_autofree char *name = NULL;
                char *text;

                if (!without_images || akc_attachment_get_kind (attachment) != AKC_ATTACHMENT_KIND_IMAGE)
                  {
                    g_ptr_array_add (projected->attachments, attachment);
                    continue;
                  }
                /* A model that takes no images is told one was there
                 * (an earlier model of the conversation read it). */
                name = valid_text (akc_attachment_get_name (attachment), strlen (akc_attachment_get_name (attachment)));
                text = g_strdup_printf ("%s%s[The image \u201c%s\u201d was attached here; it is not sent to this model.]",
                                        projected->text, projected->text[0] != '\0' ? "\n\n" : "", name);
                g_free (projected->text);
                projected->text = text;
                g_object_unref (attachment);
              }
            if (projected->attachments != NULL && projected->attachments->len == 0)
              g_clear_pointer (&projected->attachments, g_ptr_array_unref);
            g_ptr_array_add (out, projected);
          }
          break;

        case AKC_MESSAGE_ROLE_ASSISTANT:
          {
            GListModel *calls = akc_message_get_tool_calls (message);
            guint n_calls = calls != NULL ? g_list_model_get_n_items (calls) : 0;
            g_autofree char *flat = NULL;
            gsize flat_length = 0;
            PMessage *projected;

            if (length > 0)
              flat = akc_ask_flatten_assistant (content, length, &flat_length);
            /* The reply being written, and replies that failed empty. */
            if (n_calls == 0 && (flat == NULL || akc_is_blank_input (flat)))
              break;

            projected = pmessage_new (role, flat, flat_length);
            if (n_calls > 0)
              projected->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) pcall_free);
            for (guint c = 0; c < n_calls; c++)
              {
                g_autoptr(AkcToolCall) call = g_list_model_get_item (calls, c);
                AkcJsonValue *arguments = akc_tool_call_get_arguments (call);
                PCall *pcall = g_new0 (PCall, 1);

                pcall->id = g_strdup (akc_tool_call_get_id (call));
                pcall->name = g_strdup (akc_tool_call_get_name (call));
                pcall->arguments = AKC_JSON_IS_OBJECT (arguments)
                                     ? akc_json_value_to_canonical (arguments, NULL)
                                     : g_strdup ("{}");
                g_ptr_array_add (projected->calls, pcall);
                g_ptr_array_add (pending, g_object_ref (call));
              }
            g_ptr_array_add (out, projected);
          }
          break;

        case AKC_MESSAGE_ROLE_TOOL:
        default:
          {
            const char *id = akc_message_get_tool_call_id (message);

            for (guint p = 0; id != NULL && p < pending->len; p++)
              {
                AkcToolCall *call = g_ptr_array_index (pending, p);

                if (g_strcmp0 (akc_tool_call_get_id (call), id) == 0)
                  {
                    g_autofree char *text = valid_text (content, length);

                    g_ptr_array_add (out, tool_result (call, text));
                    g_ptr_array_remove_index (pending, p);
                    break;
                  }
              }
            /* A result of no call of the message before: providers refuse
             * those, so it is left out. */
          }
          break;
        }
    }
  flush_pending (out, pending);

  return out;
}

/* ------------------------------------------------------------------ */
/* Bodies                                                              */
/* ------------------------------------------------------------------ */

static void
write_raw_json (AkcJsonWriter *w,
                const char    *text)
{
  g_autoptr(AkcJsonValue) value = akc_json_value_parse (text, -1, NULL);

  if (value != NULL)
    akc_json_writer_value (w, value);
  else
    {
      akc_json_writer_begin_object (w);
      akc_json_writer_end_object (w);
    }
}

static void
write_tools (AkcJsonWriter                   *w,
             const AkcProviderRequestOptions *options)
{
  if (options->tools == NULL || options->tools->len == 0)
    return;

  akc_json_writer_member (w, "tools");
  akc_json_writer_begin_array (w);
  for (guint i = 0; i < options->tools->len; i++)
    {
      AkcProviderTool *tool = g_ptr_array_index (options->tools, i);

      akc_json_writer_begin_object (w);
      if (options->kind == AKC_PROVIDER_KIND_ANTHROPIC)
        {
          akc_json_writer_member (w, "name");
          akc_json_writer_string (w, tool->name, -1);
          if (tool->description != NULL)
            {
              akc_json_writer_member (w, "description");
              akc_json_writer_string (w, tool->description, -1);
            }
          akc_json_writer_member (w, "input_schema");
          akc_json_writer_value (w, tool->parameters);
        }
      else
        {
          akc_json_writer_member (w, "type");
          akc_json_writer_string (w, "function", -1);
          akc_json_writer_member (w, "function");
          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "name");
          akc_json_writer_string (w, tool->name, -1);
          if (tool->description != NULL)
            {
              akc_json_writer_member (w, "description");
              akc_json_writer_string (w, tool->description, -1);
            }
          akc_json_writer_member (w, "parameters");
          akc_json_writer_value (w, tool->parameters);
          akc_json_writer_end_object (w);
        }
      akc_json_writer_end_object (w);
    }
  akc_json_writer_end_array (w);
}

static const char *
role_name (AkcMessageRole role)
{
  switch (role)
    {
    case AKC_MESSAGE_ROLE_SYSTEM:
      return "system";
    case AKC_MESSAGE_ROLE_USER:
      return "user";
    case AKC_MESSAGE_ROLE_ASSISTANT:
      return "assistant";
    case AKC_MESSAGE_ROLE_TOOL:
    default:
      return "tool";
    }
}

/* A text file as the model reads it: its name, then its text. */
static char *
file_text (AkcAttachment *attachment)
{
  gsize length;
  const char *data = g_bytes_get_data (akc_attachment_get_data (attachment), &length);
  const char *name = akc_attachment_get_name (attachment);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "File: %s\n\n", name);
  g_string_append_len (out, data, length);
  if (length > 0 && data[length - 1] != '\n')
    g_string_append_c (out, '\n');
  g_string_append_printf (out, "(end of %s)", name);

  return g_string_free (out, FALSE);
}

static guint
count_attachments (PMessage          *message,
                   AkcAttachmentKind  kind)
{
  guint n = 0;

  for (guint a = 0; message->attachments != NULL && a < message->attachments->len; a++)
    if (akc_attachment_get_kind (g_ptr_array_index (message->attachments, a)) == kind)
      n++;
  return n;
}

static void
write_text_part (AkcJsonWriter *w,
                 const char    *text)
{
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "type");
  akc_json_writer_string (w, "text", -1);
  akc_json_writer_member (w, "text");
  akc_json_writer_string (w, text, -1);
  akc_json_writer_end_object (w);
}

/* OpenAI: the content of a person's message with attachments is a list of
 * parts: the text, each text file, each image as a data URL. */
static void
write_openai_parts (AkcJsonWriter *w,
                    PMessage      *message)
{
  akc_json_writer_begin_array (w);
  if (!akc_is_blank_input (message->text))
    write_text_part (w, message->text);
  for (guint a = 0; a < message->attachments->len; a++)
    {
      AkcAttachment *attachment = g_ptr_array_index (message->attachments, a);

      if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_TEXT)
        {
          g_autofree char *text = file_text (attachment);

          write_text_part (w, text);
        }
      else
        {
          g_autofree char *url = akc_attachment_dup_data_url (attachment);

          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "type");
          akc_json_writer_string (w, "image_url", -1);
          akc_json_writer_member (w, "image_url");
          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "url");
          akc_json_writer_string (w, url, -1);
          akc_json_writer_end_object (w);
          akc_json_writer_end_object (w);
        }
    }
  akc_json_writer_end_array (w);
}

/* Ollama: text files follow the text; images are a list of Base64. */
static void
write_ollama_content (AkcJsonWriter *w,
                      PMessage      *message)
{
  g_autoptr(GString) content = g_string_new (message->text);

  for (guint a = 0; a < message->attachments->len; a++)
    {
      AkcAttachment *attachment = g_ptr_array_index (message->attachments, a);

      if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_TEXT)
        {
          g_autofree char *text = file_text (attachment);

          if (content->len > 0)
            g_string_append (content, "\n\n");
          g_string_append (content, text);
        }
    }
  akc_json_writer_string (w, content->str, content->len);

  if (count_attachments (message, AKC_ATTACHMENT_KIND_IMAGE) == 0)
    return;
  akc_json_writer_member (w, "images");
  akc_json_writer_begin_array (w);
  for (guint a = 0; a < message->attachments->len; a++)
    {
      AkcAttachment *attachment = g_ptr_array_index (message->attachments, a);

      if (akc_attachment_get_kind (attachment) == AKC_ATTACHMENT_KIND_IMAGE)
        {
          g_autofree char *base64 = akc_attachment_dup_base64 (attachment);

          akc_json_writer_string (w, base64, -1);
        }
    }
  akc_json_writer_end_array (w);
}

/* OpenAI Chat Completions and Ollama /api/chat: one object per message. */
static void
write_chat_messages (AkcJsonWriter   *w,
                     AkcProviderKind  kind,
                     const char      *system,
                     GPtrArray       *messages)
{
  akc_json_writer_member (w, "messages");
  akc_json_writer_begin_array (w);

  if (system[0] != '\0')
    {
      akc_json_writer_begin_object (w);
      akc_json_writer_member (w, "role");
      akc_json_writer_string (w, "system", -1);
      akc_json_writer_member (w, "content");
      akc_json_writer_string (w, system, -1);
      akc_json_writer_end_object (w);
    }

  for (guint i = 0; i < messages->len; i++)
    {
      PMessage *message = g_ptr_array_index (messages, i);

      akc_json_writer_begin_object (w);
      akc_json_writer_member (w, "role");
      akc_json_writer_string (w, role_name (message->role), -1);

      akc_json_writer_member (w, "content");
      if (message->attachments != NULL && kind == AKC_PROVIDER_KIND_OPENAI)
        write_openai_parts (w, message);
      else if (message->attachments != NULL)
        write_ollama_content (w, message);
      else if (kind == AKC_PROVIDER_KIND_OPENAI && message->role == AKC_MESSAGE_ROLE_ASSISTANT &&
               message->text[0] == '\0')
        akc_json_writer_null (w);
      else
        akc_json_writer_string (w, message->text, -1);

      if (message->calls != NULL)
        {
          akc_json_writer_member (w, "tool_calls");
          akc_json_writer_begin_array (w);
          for (guint c = 0; c < message->calls->len; c++)
            {
              PCall *call = g_ptr_array_index (message->calls, c);

              akc_json_writer_begin_object (w);
              if (kind == AKC_PROVIDER_KIND_OPENAI)
                {
                  akc_json_writer_member (w, "id");
                  akc_json_writer_string (w, call->id, -1);
                  akc_json_writer_member (w, "type");
                  akc_json_writer_string (w, "function", -1);
                }
              akc_json_writer_member (w, "function");
              akc_json_writer_begin_object (w);
              akc_json_writer_member (w, "name");
              akc_json_writer_string (w, call->name, -1);
              akc_json_writer_member (w, "arguments");
              /* OpenAI takes the arguments as a JSON text, Ollama as an object. */
              if (kind == AKC_PROVIDER_KIND_OPENAI)
                akc_json_writer_string (w, call->arguments, -1);
              else
                write_raw_json (w, call->arguments);
              akc_json_writer_end_object (w);
              akc_json_writer_end_object (w);
            }
          akc_json_writer_end_array (w);
        }

      if (message->role == AKC_MESSAGE_ROLE_TOOL)
        {
          if (kind == AKC_PROVIDER_KIND_OPENAI)
            {
              akc_json_writer_member (w, "tool_call_id");
              akc_json_writer_string (w, message->tool_call_id, -1);
            }
          else
            {
              akc_json_writer_member (w, "tool_name");
              akc_json_writer_string (w, message->tool_name, -1);
            }
        }
      akc_json_writer_end_object (w);
    }

  akc_json_writer_end_array (w);
}

/* Anthropic: user and assistant turns that alternate, each a list of
 * content blocks; tool results are user blocks. */
static void
write_anthropic_messages (AkcJsonWriter *w,
                          GPtrArray     *messages)
{
  gboolean open = FALSE;
  gboolean open_is_user = FALSE;
  gboolean seen_user = FALSE;

  akc_json_writer_member (w, "messages");
  akc_json_writer_begin_array (w);

  for (guint i = 0; i < messages->len; i++)
    {
      PMessage *message = g_ptr_array_index (messages, i);
      gboolean is_user = message->role != AKC_MESSAGE_ROLE_ASSISTANT;
      gboolean has_text = !akc_is_blank_input (message->text);
      gboolean has_calls = message->calls != NULL && message->calls->len > 0;
      gboolean has_attachments = message->attachments != NULL && message->attachments->len > 0;

      /* The first message must be the person's. */
      if (!is_user && !seen_user)
        continue;
      if (message->role != AKC_MESSAGE_ROLE_TOOL && !has_text && !has_calls && !has_attachments)
        continue;
      seen_user |= is_user;

      if (open && open_is_user != is_user)
        {
          akc_json_writer_end_array (w);
          akc_json_writer_end_object (w);
          open = FALSE;
        }
      if (!open)
        {
          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "role");
          akc_json_writer_string (w, is_user ? "user" : "assistant", -1);
          akc_json_writer_member (w, "content");
          akc_json_writer_begin_array (w);
          open = TRUE;
          open_is_user = is_user;
        }

      if (message->role == AKC_MESSAGE_ROLE_TOOL)
        {
          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "type");
          akc_json_writer_string (w, "tool_result", -1);
          akc_json_writer_member (w, "tool_use_id");
          akc_json_writer_string (w, message->tool_call_id, -1);
          akc_json_writer_member (w, "content");
          akc_json_writer_string (w, message->text, -1);
          if (message->is_error)
            {
              akc_json_writer_member (w, "is_error");
              akc_json_writer_boolean (w, TRUE);
            }
          akc_json_writer_end_object (w);
          continue;
        }

      /* Images first, as Anthropic advises, then the files, then the text. */
      for (guint a = 0; has_attachments && a < message->attachments->len; a++)
        {
          AkcAttachment *attachment = g_ptr_array_index (message->attachments, a);
          g_autofree char *base64 = NULL;

          if (akc_attachment_get_kind (attachment) != AKC_ATTACHMENT_KIND_IMAGE)
            continue;
          base64 = akc_attachment_dup_base64 (attachment);
          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "type");
          akc_json_writer_string (w, "image", -1);
          akc_json_writer_member (w, "source");
          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "type");
          akc_json_writer_string (w, "base64", -1);
          akc_json_writer_member (w, "media_type");
          akc_json_writer_string (w, akc_attachment_get_mime_type (attachment), -1);
          akc_json_writer_member (w, "data");
          akc_json_writer_string (w, base64, -1);
          akc_json_writer_end_object (w);
          akc_json_writer_end_object (w);
        }
      for (guint a = 0; has_attachments && a < message->attachments->len; a++)
        {
          AkcAttachment *attachment = g_ptr_array_index (message->attachments, a);
          g_autofree char *text = NULL;

          if (akc_attachment_get_kind (attachment) != AKC_ATTACHMENT_KIND_TEXT)
            continue;
          text = file_text (attachment);
          write_text_part (w, text);
        }
      if (has_text)
        write_text_part (w, message->text);
      for (guint c = 0; has_calls && c < message->calls->len; c++)
        {
          PCall *call = g_ptr_array_index (message->calls, c);

          akc_json_writer_begin_object (w);
          akc_json_writer_member (w, "type");
          akc_json_writer_string (w, "tool_use", -1);
          akc_json_writer_member (w, "id");
          akc_json_writer_string (w, call->id, -1);
          akc_json_writer_member (w, "name");
          akc_json_writer_string (w, call->name, -1);
          akc_json_writer_member (w, "input");
          write_raw_json (w, call->arguments);
          akc_json_writer_end_object (w);
        }
    }

  if (open)
    {
      akc_json_writer_end_array (w);
      akc_json_writer_end_object (w);
    }
  akc_json_writer_end_array (w);
}

char *
akc_provider_build_body (const AkcProviderRequestOptions *options,
                         AkcAdapterRequest               *request,
                         gsize                           *length)
{
  g_autoptr(GString) system = g_string_new (NULL);
  g_autoptr(GPtrArray) messages = NULL;
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  messages = project (request, system, options->without_images);

  akc_json_writer_init (&w, out);
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "model");
  akc_json_writer_string (&w, options->model != NULL ? options->model : "", -1);

  switch (options->kind)
    {
    case AKC_PROVIDER_KIND_OPENAI:
      write_chat_messages (&w, options->kind, system->str, messages);
      akc_json_writer_member (&w, "stream");
      akc_json_writer_boolean (&w, TRUE);
      akc_json_writer_member (&w, "stream_options");
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "include_usage");
      akc_json_writer_boolean (&w, TRUE);
      akc_json_writer_end_object (&w);
      if (options->max_tokens > 0)
        {
          akc_json_writer_member (&w, "max_tokens");
          akc_json_writer_int (&w, options->max_tokens);
        }
      write_tools (&w, options);
      break;

    case AKC_PROVIDER_KIND_OLLAMA:
      write_chat_messages (&w, options->kind, system->str, messages);
      akc_json_writer_member (&w, "stream");
      akc_json_writer_boolean (&w, TRUE);
      if (options->max_tokens > 0)
        {
          akc_json_writer_member (&w, "options");
          akc_json_writer_begin_object (&w);
          akc_json_writer_member (&w, "num_predict");
          akc_json_writer_int (&w, options->max_tokens);
          akc_json_writer_end_object (&w);
        }
      write_tools (&w, options);
      break;

    case AKC_PROVIDER_KIND_ANTHROPIC:
    default:
      akc_json_writer_member (&w, "max_tokens");
      akc_json_writer_int (&w, options->max_tokens > 0 ? options->max_tokens
                                                        : AKC_PROVIDER_ADAPTER_DEFAULT_MAX_TOKENS);
      akc_json_writer_member (&w, "stream");
      akc_json_writer_boolean (&w, TRUE);
      if (system->len > 0)
        {
          akc_json_writer_member (&w, "system");
          akc_json_writer_string (&w, system->str, system->len);
        }
      write_anthropic_messages (&w, messages);
      write_tools (&w, options);
      break;
    }

  akc_json_writer_end_object (&w);

  *length = out->len;
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------ */
/* Error answers                                                       */
/* ------------------------------------------------------------------ */

static AkcJsonValue *
parse_body (const guint8 *body,
            gsize         length)
{
  AkcJsonLimits limits = { AKC_PROVIDER_MAX_MODELS_BODY, 64 };
  AkcJsonValue *value;

  if (body == NULL || length == 0)
    return NULL;
  value = akc_json_parse ((const char *) body, length, &limits, NULL, NULL);
  if (value != NULL && !AKC_JSON_IS_OBJECT (value))
    g_clear_pointer (&value, akc_json_value_unref);
  return value;
}

static const char *
json_string (AkcJsonValue *object,
             const char   *name,
             gsize        *length)
{
  AkcJsonValue *value = AKC_JSON_IS_OBJECT (object) ? akc_json_value_get_member (object, name) : NULL;

  if (!AKC_JSON_IS_STRING (value))
    return NULL;
  return akc_json_value_get_string (value, length);
}

char *
akc_provider_server_message (const guint8  *body,
                             gsize          length,
                             char         **type_or_code)
{
  g_autoptr(AkcJsonValue) root = parse_body (body, length);
  AkcJsonValue *error_value;
  const char *text = NULL, *kind = NULL;
  gsize text_length = 0, kind_length = 0;

  if (type_or_code != NULL)
    *type_or_code = NULL;

  if (root == NULL)
    {
      /* A plain-text body, such as "404 page not found". */
      if (body == NULL || length == 0 || memchr (body, '<', MIN (length, 512)) != NULL)
        return NULL;
      return akc_provider_clean_text ((const char *) body, MIN (length, 4096));
    }

  error_value = akc_json_value_get_member (root, "error");
  if (AKC_JSON_IS_OBJECT (error_value))
    {
      text = json_string (error_value, "message", &text_length);
      kind = json_string (error_value, "code", &kind_length);
      if (kind == NULL)
        kind = json_string (error_value, "type", &kind_length);
    }
  else if (AKC_JSON_IS_STRING (error_value))
    text = akc_json_value_get_string (error_value, &text_length);

  if (text == NULL)
    text = json_string (root, "message", &text_length);
  if (text == NULL)
    text = json_string (root, "detail", &text_length);

  if (kind != NULL && type_or_code != NULL)
    *type_or_code = akc_provider_clean_text (kind, kind_length);

  return text != NULL ? akc_provider_clean_text (text, text_length) : NULL;
}

static gboolean
mentions (const char *haystack,
          const char *needle)
{
  g_autofree char *lower = haystack != NULL ? g_ascii_strdown (haystack, -1) : NULL;

  return lower != NULL && strstr (lower, needle) != NULL;
}

static gboolean
is_context_length (const char *message,
                   const char *kind)
{
  static const char * const hints[] = {
    "context_length", "context length", "context window", "maximum context",
    "prompt is too long", "exceed_context_size", "exceeds the available context",
    "too many tokens", "input is too long", "context size",
  };

  for (guint i = 0; i < G_N_ELEMENTS (hints); i++)
    if (mentions (message, hints[i]) || mentions (kind, hints[i]))
      return TRUE;
  return FALSE;
}

static gint64
parse_retry_after (const char *value)
{
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GDateTime) now = NULL;
  guint64 seconds;
  const char *end;

  if (value == NULL)
    return -1;
  while (*value == ' ')
    value++;

  if (g_ascii_isdigit (*value) &&
      g_ascii_string_to_unsigned (value, 10, 0, 7 * 24 * 3600, &seconds, NULL))
    return (gint64) seconds;
  /* Fractional seconds (some servers): rounded up. */
  if (g_ascii_isdigit (*value))
    {
      double d = g_ascii_strtod (value, (char **) &end);

      if (end != value && *end == '\0' && d >= 0 && d <= 7 * 24 * 3600)
        return (gint64) (d + 0.999);
    }

  when = soup_date_time_new_from_http_string (value);
  if (when == NULL)
    return -1;
  now = g_date_time_new_now_utc ();
  return MAX (0, g_date_time_difference (when, now) / G_TIME_SPAN_SECOND);
}

GError *
akc_provider_http_error (AkcProviderKind  kind,
                         guint            status,
                         const char      *model,
                         const char      *url_origin,
                         const char      *retry_after,
                         const guint8    *body,
                         gsize            length,
                         gint64          *retry_seconds)
{
  g_autofree char *said = NULL;
  g_autofree char *type_or_code = NULL;
  g_autofree char *what = NULL;
  g_autofree char *said_part = NULL;
  AkcProviderError code;

  *retry_seconds = -1;
  said = akc_provider_server_message (body, length, &type_or_code);

  if (status == 401)
    {
      code = AKC_PROVIDER_ERROR_UNAUTHORIZED;
      /* Translators: %s is the provider's address */
      what = g_strdup_printf (_("The provider at %s refused the API key (401). Check the key stored for it, or store one."),
                              url_origin);
    }
  else if (status == 403)
    {
      code = AKC_PROVIDER_ERROR_FORBIDDEN;
      what = g_strdup_printf (_("The provider at %s denied access (403). The key may not use this model or feature."),
                              url_origin);
    }
  else if (status == 404 && (mentions (said, "model") || mentions (type_or_code, "model")))
    {
      code = AKC_PROVIDER_ERROR_MODEL_NOT_FOUND;
      if (kind == AKC_PROVIDER_KIND_OLLAMA)
        /* Translators: the first %s is a model name, the second too */
        what = g_strdup_printf (_("The provider does not know the model “%s” (404). Pull it first (“ollama pull %s”) or choose another model."),
                                model, model);
      else
        /* Translators: %s is a model name */
        what = g_strdup_printf (_("The provider does not know the model “%s” (404). Choose one the provider lists."),
                                model);
    }
  else if (status == 404)
    {
      code = AKC_PROVIDER_ERROR_NOT_FOUND;
      if (kind == AKC_PROVIDER_KIND_OPENAI)
        what = g_strdup_printf (_("Nothing answers this request at %s (404). Check the base address: OpenAI-compatible servers usually end in /v1."),
                                url_origin);
      else
        what = g_strdup_printf (_("Nothing answers this request at %s (404). Check the base address and the kind of provider."),
                                url_origin);
    }
  else if (status == 429)
    {
      code = AKC_PROVIDER_ERROR_RATE_LIMITED;
      *retry_seconds = parse_retry_after (retry_after);
      if (*retry_seconds >= 0)
        what = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "The provider is limiting requests (429). Try again in %d second.",
                                             "The provider is limiting requests (429). Try again in %d seconds.",
                                             (gulong) *retry_seconds),
                                (int) *retry_seconds);
      else
        what = g_strdup (_("The provider is limiting requests (429). Try again later."));
    }
  else if ((status == 400 || status == 413 || status == 422 || status == 500) &&
           is_context_length (said, type_or_code))
    {
      code = AKC_PROVIDER_ERROR_CONTEXT_LENGTH;
      what = g_strdup (_("The conversation is too long for the model’s context. Start a new conversation or remove earlier messages."));
    }
  else if (status >= 500)
    {
      code = AKC_PROVIDER_ERROR_SERVER;
      what = g_strdup_printf (_("The provider failed (%u). Try again later."), status);
    }
  else
    {
      code = AKC_PROVIDER_ERROR_REFUSED;
      what = g_strdup_printf (_("The provider refused the request (%u)."), status);
    }

  if (said != NULL && said[0] != '\0')
    /* Translators: %s is what the server said */
    said_part = g_strdup_printf (_(" The server said: %s"), said);

  return g_error_new (AKC_PROVIDER_ERROR, code, "%s%s", what, said_part != NULL ? said_part : "");
}

/* ------------------------------------------------------------------ */
/* Model lists                                                         */
/* ------------------------------------------------------------------ */

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

char **
akc_provider_parse_models (AkcProviderKind  kind,
                           const guint8    *body,
                           gsize            length,
                           GError         **error)
{
  g_autoptr(AkcJsonValue) root = parse_body (body, length);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  AkcJsonValue *list;
  const char *key;

  list = root != NULL ? akc_json_value_get_member (root, kind == AKC_PROVIDER_KIND_OLLAMA ? "models" : "data") : NULL;
  if (!AKC_JSON_IS_ARRAY (list))
    {
      g_set_error_literal (error, AKC_PROVIDER_ERROR, AKC_PROVIDER_ERROR_INVALID_RESPONSE,
                           _("The provider’s model list is not in the format its API documents."));
      return NULL;
    }

  key = kind == AKC_PROVIDER_KIND_OLLAMA ? "name" : "id";
  for (gsize i = 0; i < akc_json_value_get_length (list) && names->len < 10000; i++)
    {
      AkcJsonValue *item = akc_json_value_get_element (list, i);
      const char *name;
      gsize name_length;

      name = json_string (item, key, &name_length);
      if (name == NULL && kind == AKC_PROVIDER_KIND_OLLAMA)
        name = json_string (item, "model", &name_length);
      if (name == NULL || name_length == 0 || name_length > 512)
        continue;
      g_ptr_array_add (names, akc_provider_clean_text (name, name_length));
    }

  g_ptr_array_sort (names, compare_names);
  for (guint i = 1; i < names->len;)
    {
      if (g_strcmp0 (g_ptr_array_index (names, i), g_ptr_array_index (names, i - 1)) == 0)
        g_ptr_array_remove_index (names, i);
      else
        i++;
    }
  g_ptr_array_add (names, NULL);

  return (char **) g_ptr_array_steal (names, NULL);
}

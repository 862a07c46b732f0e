/* test-export.c: a conversation exported as Markdown and as JSON
 * (docs/conversation-format.md), and imported back as untrusted input
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include <akc.h>

#include "akc-store-test.h"

#define SOURCE_FRAME \
  "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\"," \
  "\"componentKey\":\"source-list\",\"instanceId\":\"sources-1\"," \
  "\"props\":{\"label\":\"Sources\",\"sources\":[{\"id\":\"s1\",\"title\":\"GNOME [site]\"," \
  "\"url\":\"https://www.gnome.org/a b\",\"snippet\":\"The desktop\"},{\"id\":\"s2\",\"title\":\"No link\"}]}," \
  "\"fallback\":{\"kind\":\"source-list\",\"summary\":\"Sources: GNOME, No link\"}}"
#define CUSTOM_FRAME \
  "{\"protocol\":\"agentskit.chat.component\",\"version\":1,\"type\":\"render\"," \
  "\"componentKey\":\"x-sales-chart\",\"instanceId\":\"chart-1\",\"props\":{\"points\":[1,2]}," \
  "\"fallback\":{\"kind\":\"chart\",\"summary\":\"Sales went up\"}}"

static GBytes *
export (AkcChatMemory         *memory,
        const char            *id,
        AkcConversationFormat  format,
        GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  akc_sqlite_chat_memory_export_async (AKC_SQLITE_CHAT_MEMORY (memory), id, format, NULL,
                                       akc_test_store_result, &result);
  return akc_sqlite_chat_memory_export_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), error);
}

static AkcConversationInfo *
import (AkcChatMemory  *memory,
        const char     *text,
        gssize          length,
        GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) bytes = g_bytes_new (text, length < 0 ? strlen (text) : (gsize) length);

  akc_sqlite_chat_memory_import_async (AKC_SQLITE_CHAT_MEMORY (memory), bytes, NULL,
                                       akc_test_store_result, &result);
  return akc_sqlite_chat_memory_import_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&result), error);
}

static gboolean
pin (AkcChatMemory *memory,
     const char    *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  akc_chat_memory_set_conversation_pinned_async (memory, id, TRUE, NULL, akc_test_store_result, &result);
  ok = akc_chat_memory_set_conversation_pinned_finish (memory, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  return ok;
}

/* A conversation with every kind of field. */
static void
fill (AkcChatMemory *memory,
      const char    *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;
  g_autoptr(AkcMessage) user = akc_message_new ("u1", AKC_MESSAGE_ROLE_USER, NULL, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) reply = NULL;
  g_autoptr(AkcMessage) tool = g_object_new (AKC_TYPE_MESSAGE, "id", "t1", "role", AKC_MESSAGE_ROLE_TOOL,
                                             "content", "{\"temp\":21}", "status", AKC_MESSAGE_STATUS_COMPLETE,
                                             "tool-call-id", "call-1", NULL);
  g_autoptr(AkcMessage) retried = akc_message_new ("a2", AKC_MESSAGE_ROLE_ASSISTANT, "Stopped half",
                                                   AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcJsonValue) arguments = akc_json_value_parse ("{\"city\":\"Lisboa\",\"n\":[1,2.5,null]}", -1, NULL);
  g_autoptr(AkcToolCall) call = akc_tool_call_new ("call-1", "weather", arguments, AKC_TOOL_CALL_STATUS_COMPLETE);
  g_autoptr(AkcLineage) lineage = akc_lineage_new (AKC_LINEAGE_OPERATION_RETRY, "a1", "turn-1");
  g_autoptr(AkcJsonValue) value = akc_json_value_new_string ("s1", -1);
  g_autoptr(AkcComponentResolution) answer =
    akc_component_resolution_new ("sources-1", "a1", "open", value, 1700000000123456);
  g_autofree char *content = g_strconcat (AKC_ASSISTANT_CONTENT_PREFIX,
                                          "{\"kind\":\"text\",\"text\":\"It is **21 °C** in Lisbon.\"}\n",
                                          "{\"kind\":\"component\",\"frame\":" SOURCE_FRAME "}\n",
                                          "{\"kind\":\"component\",\"frame\":" CUSTOM_FRAME "}\n",
                                          NULL);

  akc_chat_memory_create_conversation_full_async (memory, "c1", "support", "Weather «today»\nin Lisbon", NULL,
                                                  akc_test_store_result, &result);
  info = akc_chat_memory_create_conversation_full_finish (memory, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  akc_message_append_content (user, "What is the weather?\0 (NUL kept)", 33);
  {
    /* A 1×1 PNG and a text file. */
    static const guint8 png[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
      0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
      0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
      0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
      0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    };
    g_autoptr(GBytes) image_bytes = g_bytes_new_static (png, sizeof png);
    g_autoptr(GBytes) text_bytes = g_bytes_new_static ("line one\nline two\n", 18);
    g_autoptr(AkcAttachment) image = akc_attachment_new_image ("dot [1].png", image_bytes, &error);
    g_autoptr(AkcAttachment) text = NULL;

    g_assert_no_error (error);
    text = akc_attachment_new_text ("notes.txt", text_bytes, &error);
    g_assert_no_error (error);
    akc_message_add_attachment (user, image);
    akc_message_add_attachment (user, text);
  }
  reply = akc_message_new ("a1", AKC_MESSAGE_ROLE_ASSISTANT, content, AKC_MESSAGE_STATUS_COMPLETE);
  akc_message_add_tool_call (reply, call);
  akc_message_set_usage (reply, &(AkcUsage) { 3, 4, 7 });
  akc_tool_call_set_result (call, "{\"temp\":21}");
  akc_message_set_lineage (retried, lineage);
  akc_message_set_stopped (retried, TRUE);

  {
    AkcMessage *all[] = { user, reply, tool, retried };

    g_assert_true (akc_test_splice (memory, "c1", 0, 0, all, G_N_ELEMENTS (all), &error));
    g_assert_no_error (error);
  }
  g_assert_true (akc_test_update (memory, "c1", NULL, &(AkcUsage) { 12, G_MAXUINT64 - 1, 9007199254740993 },
                                  &error));
  g_assert_true (pin (memory, "c1"));

  akc_sqlite_chat_memory_save_resolution_async (AKC_SQLITE_CHAT_MEMORY (memory), "c1", answer, NULL,
                                                akc_test_store_result, &result);
  g_assert_true (akc_sqlite_chat_memory_save_resolution_finish (AKC_SQLITE_CHAT_MEMORY (memory),
                                                                akc_test_wait (&result), &error));
  g_assert_no_error (error);
}

static char *
resolutions_of (const char *path,
                const char *id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT group_concat (instance_id || '|' || message_id || '|' || event"
                                          " || '|' || coalesce (value, 'null') || '|' || resolved_at, ';')"
                                          " FROM component_resolutions WHERE conversation_id = '%s'", id);

  return akc_test_sql_text (path, sql);
}

/* Exported, imported and exported again: the same file but for the
 * conversation's (new) id, and the same rows. */
static void
test_json_round_trip (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GBytes) first = NULL;
  g_autoptr(GBytes) second = NULL;
  g_autoptr(AkcConversationInfo) imported = NULL;
  g_autoptr(AkcConversationInfo) original = NULL;
  g_autoptr(GListModel) before = NULL;
  g_autoptr(GListModel) after = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_text = NULL;
  g_autofree char *second_text = NULL;
  g_autofree char *old_id = NULL;
  g_autofree char *new_id = NULL;
  g_autofree char *resolutions_before = NULL;
  g_autofree char *resolutions_after = NULL;
  const char *id;

  fill (memory, path);

  first = export (memory, "c1", AKC_CONVERSATION_FORMAT_JSON, &error);
  g_assert_no_error (error);
  first_text = g_strndup (g_bytes_get_data (first, NULL), g_bytes_get_size (first));
  g_assert_true (g_str_has_prefix (first_text, "{\"format\":\"agentskit.chat.conversation\",\"version\":1,"));
  /* Exact counts: above 2^53 − 1 as text. */
  g_assert_nonnull (strstr (first_text, "\"completionTokens\":\"18446744073709551614\""));
  g_assert_nonnull (strstr (first_text, "\"totalTokens\":\"9007199254740993\""));
  g_assert_nonnull (strstr (first_text, "\"promptTokens\":12"));
  g_assert_nonnull (strstr (first_text, "\\u0000 (NUL kept)"));
  g_assert_nonnull (strstr (first_text, "\"usage\":{\"promptTokens\":3,\"completionTokens\":4,\"totalTokens\":7}"));
  g_assert_nonnull (strstr (first_text, "\"kind\":\"text\",\"name\":\"notes.txt\""));
  g_assert_nonnull (strstr (first_text, "\"data\":\"bGluZSBvbmUKbGluZSB0d28K\""));

  imported = import (memory, first_text, -1, &error);
  g_assert_no_error (error);
  id = akc_conversation_info_get_id (imported);
  g_assert_cmpstr (id, !=, "c1");
  g_assert_cmpstr (akc_conversation_info_get_assistant_id (imported), ==, "support");
  g_assert_cmpstr (akc_conversation_info_get_title (imported), ==, "Weather «today»\nin Lisbon");
  g_assert_true (akc_conversation_info_get_pinned (imported));
  g_assert_cmpuint (akc_conversation_info_get_n_messages (imported), ==, 4);
  g_assert_true (akc_usage_equal (akc_conversation_info_get_usage (imported),
                                  &(AkcUsage) { 12, G_MAXUINT64 - 1, 9007199254740993 }));

  akc_chat_memory_get_conversation_async (memory, "c1", NULL, akc_test_store_result, &result);
  original = akc_chat_memory_get_conversation_finish (memory, akc_test_wait (&result), &error);
  g_assert_true (g_date_time_equal (akc_conversation_info_get_created_at (original),
                                    akc_conversation_info_get_created_at (imported)));
  g_assert_true (g_date_time_equal (akc_conversation_info_get_updated_at (original),
                                    akc_conversation_info_get_updated_at (imported)));

  /* Every message, field by field, U+0000 and tool calls included. */
  before = akc_test_load (memory, "c1", &error);
  after = akc_test_load (memory, id, &error);
  g_assert_no_error (error);
  akc_test_assert_messages_equal (before, after);
  {
    g_autoptr(AkcMessage) user = g_list_model_get_item (after, 0);
    g_autoptr(AkcMessage) reply = g_list_model_get_item (after, 1);
    GListModel *attachments = akc_message_get_attachments (user);
    g_autoptr(AkcAttachment) image = g_list_model_get_item (attachments, 0);
    g_autoptr(AkcAttachment) text = g_list_model_get_item (attachments, 1);

    g_assert_cmpuint (g_list_model_get_n_items (attachments), ==, 2);
    g_assert_cmpint (akc_attachment_get_kind (image), ==, AKC_ATTACHMENT_KIND_IMAGE);
    g_assert_cmpuint (akc_attachment_get_width (image), ==, 1);
    g_assert_cmpuint (g_bytes_get_size (akc_attachment_get_data (image)), ==, 70);
    g_assert_cmpstr (akc_attachment_get_name (text), ==, "notes.txt");
    g_assert_true (akc_usage_equal (akc_message_get_usage (reply), &(AkcUsage) { 3, 4, 7 }));
  }

  resolutions_before = resolutions_of (path, "c1");
  resolutions_after = resolutions_of (path, id);
  g_assert_cmpstr (resolutions_before, ==, "sources-1|a1|open|\"s1\"|1700000000123456");
  g_assert_cmpstr (resolutions_after, ==, resolutions_before);

  second = export (memory, id, AKC_CONVERSATION_FORMAT_JSON, &error);
  g_assert_no_error (error);
  second_text = g_strndup (g_bytes_get_data (second, NULL), g_bytes_get_size (second));
  old_id = g_strdup ("\"conversation\":{\"id\":\"c1\"");
  new_id = g_strdup_printf ("\"conversation\":{\"id\":\"%s\"", id);
  g_assert_nonnull (strstr (second_text, new_id));
  {
    g_autoptr(GString) normalized = g_string_new (second_text);

    g_string_replace (normalized, new_id, old_id, 1);
    g_assert_cmpstr (normalized->str, ==, first_text);
  }

  /* Found by search at once. */
  {
    g_autoptr(GAsyncResult) searched = NULL;
    g_autoptr(GListModel) results = NULL;

    akc_sqlite_chat_memory_search_async (AKC_SQLITE_CHAT_MEMORY (memory), "lisbon", 10, NULL,
                                         akc_test_store_result, &searched);
    results = akc_sqlite_chat_memory_search_finish (AKC_SQLITE_CHAT_MEMORY (memory), akc_test_wait (&searched),
                                                    &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (results), ==, 4);   /* two titles, two replies */
  }

  g_clear_object (&result);
  akc_test_close (g_steal_pointer (&memory));
}

static void
test_markdown (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  fill (memory, path);
  bytes = export (memory, "c1", AKC_CONVERSATION_FORMAT_MARKDOWN, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_test_message ("%s", text);

  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_assert_true (g_str_has_prefix (text, "# Weather «today» in Lisbon\n\n*With support · Started "));
  g_assert_nonnull (strstr (text, "\n## You · "));
  g_assert_nonnull (strstr (text, "What is the weather?  (NUL kept)"));
  g_assert_nonnull (strstr (text, "\n## Assistant · "));
  /* The reply's parts: its text, its sources as links, the rest as its
   * fallback text; nothing of the envelope. */
  g_assert_nonnull (strstr (text, "It is **21 °C** in Lisbon.\n"));
  g_assert_nonnull (strstr (text, "**Sources**\n\n- [GNOME \\[site\\]](<https://www.gnome.org/a%20b>) — The desktop\n"
                                  "- No link\n"));
  g_assert_nonnull (strstr (text, "> \\[unsupported visual: chart\\] Sales went up\n"));
  g_assert_nonnull (strstr (text, "> Tool call: `weather` (complete)\n"));
  g_assert_nonnull (strstr (text, "\n## Tool · "));
  g_assert_nonnull (strstr (text, "- Attached: dot \\[1\\].png (image/png)\n"));
  g_assert_nonnull (strstr (text, "\n```\n{\"temp\":21}\n```\n"));
  g_assert_nonnull (strstr (text, "Stopped half\n\n*(stopped before it was complete)*\n"));
  g_assert_null (strstr (text, "\x1e"));
  g_assert_null (strstr (text, "agentskit.chat.component"));

  akc_test_close (g_steal_pointer (&memory));
}

static GError *
import_error (AkcChatMemory *memory,
              const char    *text)
{
  g_autoptr(AkcConversationInfo) info = NULL;
  GError *error = NULL;

  info = import (memory, text, -1, &error);
  g_assert_null (info);
  g_assert_nonnull (error);

  return error;
}

#define VALID_HEAD "{\"format\":\"agentskit.chat.conversation\",\"version\":1,\"conversation\":{" \
                   "\"createdAt\":\"2026-01-01T00:00:00Z\",\"updatedAt\":\"2026-01-01T00:00:00Z\","
#define MESSAGE(id, role) "{\"id\":\"" id "\",\"role\":\"" role "\",\"status\":\"complete\"," \
                          "\"content\":\"x\",\"createdAt\":\"2026-01-01T00:00:00Z\"}"

/* A file is untrusted: each problem is refused with the path of the
 * field, and nothing of the file is added. */
static void
test_import_refuses (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GString) deep = g_string_new (VALID_HEAD "\"messages\":[],\"x\":");
  g_autoptr(GString) long_title = g_string_new (VALID_HEAD "\"messages\":[],\"title\":\"");
  struct {
    const char *text;
    const char *where;
  } cases[] = {
    { "", "the file is not JSON" },
    { "{\"format\":", "the file is not JSON" },
    { "[1]", "the file is not an object" },
    { "{\"format\":\"other\",\"version\":1}", "$.format must be" },
    { "{\"format\":\"agentskit.chat.conversation\",\"version\":2,\"conversation\":{}}", "$.version is 2" },
    { "{\"format\":\"agentskit.chat.conversation\",\"version\":1.5}", "$.version must be" },
    { "{\"format\":\"agentskit.chat.conversation\",\"version\":1}", "$.conversation is missing" },
    { VALID_HEAD "\"title\":7,\"messages\":[]}}", "$.conversation.title must be text" },
    { VALID_HEAD "\"assistantId\":\"no spaces\",\"messages\":[]}}", "$.conversation.assistantId must be" },
    { "{\"format\":\"agentskit.chat.conversation\",\"version\":1,\"conversation\":{\"createdAt\":\"yesterday\"}}",
      "$.conversation.createdAt must be a time" },
    { VALID_HEAD "\"usage\":{\"promptTokens\":-1},\"messages\":[]}}", "$.conversation.usage.promptTokens must be" },
    { VALID_HEAD "\"usage\":{\"totalTokens\":\"18446744073709551616\"},\"messages\":[]}}",
      "$.conversation.usage.totalTokens must be" },
    { VALID_HEAD "\"pinned\":\"yes\",\"messages\":[]}}", "$.conversation.pinned must be true or false" },
    { VALID_HEAD "\"messages\":{}}}", "$.conversation.messages must be a list" },
    { VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") ",7]}}", "$.conversation.messages[1] must be an object" },
    { VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") "," MESSAGE ("m2", "robot") "]}}",
      "$.conversation.messages[1].role must be" },
    { VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") "," MESSAGE ("m1", "assistant") "]}}",
      "$.conversation.messages[1].id is the id of an earlier message" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"status\":\"done\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\"}]}}", "$.conversation.messages[0].status is not" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"status\":\"complete\",\"content\":null,"
      "\"createdAt\":\"2026-01-01T00:00:00Z\"}]}}", "$.conversation.messages[0].content must be text" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"assistant\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\",\"toolCalls\":[{\"id\":\"c\"}]}]}}",
      "$.conversation.messages[0].toolCalls does not describe" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"assistant\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\",\"lineage\":{\"operation\":\"teleport\"}}]}}",
      "$.conversation.messages[0].lineage does not describe" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m\\u0000\",\"role\":\"user\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\"}]}}", "$.conversation.messages[0].id must not contain a NUL" },
    { VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") "],\"resolutions\":[{\"instanceId\":\"i1\","
      "\"messageId\":\"m9\",\"event\":\"select\",\"value\":null,\"resolvedAt\":\"2026-01-01T00:00:00Z\"}]}}",
      "$.conversation.resolutions[0].messageId names no message" },
    { VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") "],\"resolutions\":["
      "{\"instanceId\":\"i1\",\"messageId\":\"m1\",\"event\":\"select\",\"resolvedAt\":\"2026-01-01T00:00:00Z\"},"
      "{\"instanceId\":\"i1\",\"messageId\":\"m1\",\"event\":\"select\",\"resolvedAt\":\"2026-01-01T00:00:00Z\"}]}}",
      "$.conversation.resolutions[1].instanceId is answered twice" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\",\"attachments\":[{\"kind\":\"image\",\"data\":\"aGVsbG8=\"}]}]}}",
      "$.conversation.messages[0].attachments[0].data is not an attachment" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\",\"attachments\":[{\"kind\":\"text\",\"data\":\"not base64!\"}]}]}}",
      "$.conversation.messages[0].attachments[0].data must be the file's bytes in Base64" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\",\"attachments\":[{\"kind\":\"pdf\",\"data\":\"\"}]}]}}",
      "$.conversation.messages[0].attachments[0].kind must be" },
    { VALID_HEAD "\"messages\":[{\"id\":\"m1\",\"role\":\"assistant\",\"status\":\"complete\",\"content\":\"x\","
      "\"createdAt\":\"2026-01-01T00:00:00Z\",\"usage\":{\"totalTokens\":1.5}}]}}",
      "$.conversation.messages[0].usage.totalTokens must be" },
    { NULL, "the file nests more than 64 levels" },
    { NULL, "$.conversation.title is longer than 4096 bytes" },
  };

  for (guint i = 0; i < 70; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 70; i++)
    g_string_append_c (deep, ']');
  g_string_append (deep, "}}");
  cases[G_N_ELEMENTS (cases) - 2].text = deep->str;
  for (guint i = 0; i < 4097; i++)
    g_string_append_c (long_title, 'x');
  g_string_append (long_title, "\"}}");
  cases[G_N_ELEMENTS (cases) - 1].text = long_title->str;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = import_error (memory, cases[i].text);
      /* A newer format has a code of its own: updating is the remedy. */
      int code = g_str_has_prefix (cases[i].where, "$.version is") ? AKC_CHAT_MEMORY_ERROR_NEWER_VERSION
                                                                    : AKC_CHAT_MEMORY_ERROR_INVALID;

      g_test_message ("%u: %s", i, error->message);
      g_assert_error (error, AKC_CHAT_MEMORY_ERROR, code);
      g_assert_true (g_str_has_prefix (error->message, "The conversation cannot be imported: "));
      g_assert_nonnull (strstr (error->message, cases[i].where));
    }

  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversations"), ==, 0);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages"), ==, 0);

  /* The smallest valid file. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AkcConversationInfo) info = import (memory, VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") "]}}",
                                                  -1, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (akc_conversation_info_get_title (info), ==, "");
    g_assert_cmpstr (akc_conversation_info_get_assistant_id (info), ==, "");
    g_assert_cmpuint (akc_conversation_info_get_n_messages (info), ==, 1);
  }

  akc_test_close (g_steal_pointer (&memory));
}

/* A write that fails half-way leaves nothing: one transaction. */
static void
test_import_all_or_nothing (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcConversationInfo) info = NULL;

  akc_test_sql_exec (path, "CREATE TRIGGER refuse BEFORE INSERT ON messages WHEN new.id = 'm3'"
                           " BEGIN SELECT RAISE (ABORT, 'refused'); END");

  info = import (memory, VALID_HEAD "\"messages\":[" MESSAGE ("m1", "user") "," MESSAGE ("m2", "assistant") ","
                 MESSAGE ("m3", "user") "]}}", -1, &error);
  g_assert_null (info);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_FAILED);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM conversations"), ==, 0);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM messages"), ==, 0);
  g_assert_cmpint (akc_test_sql_int (path, "SELECT count(*) FROM title_search"), ==, 0);

  akc_test_close (g_steal_pointer (&memory));
}

/* The model provider and model of a conversation go with it, and come
 * back with an import; what is not plain text there is refused. */
static void
test_provider (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(AkcConversationInfo) created = NULL;
  g_autoptr(AkcConversationInfo) imported = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) exported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  akc_chat_memory_create_conversation_full_async (memory, "p1", "provider", "Local model", NULL,
                                                  akc_test_store_result, &result);
  created = akc_chat_memory_create_conversation_full_finish (memory, akc_test_wait (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  /* None recorded: no member. */
  exported = export (memory, "p1", AKC_CONVERSATION_FORMAT_JSON, &error);
  g_assert_no_error (error);
  text = g_strndup (g_bytes_get_data (exported, NULL), g_bytes_get_size (exported));
  g_assert_null (strstr (text, "\"provider\":{"));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&exported, g_bytes_unref);

  akc_chat_memory_set_conversation_model_async (memory, "p1", "ollama", "http://127.0.0.1:11434/", "qwen3:8b", NULL,
                                                akc_test_store_result, &result);
  g_assert_true (akc_chat_memory_set_conversation_model_finish (memory, akc_test_wait (&result), &error));
  g_clear_object (&result);
  exported = export (memory, "p1", AKC_CONVERSATION_FORMAT_JSON, &error);
  text = g_strndup (g_bytes_get_data (exported, NULL), g_bytes_get_size (exported));
  g_assert_nonnull (strstr (text, "\"provider\":{\"kind\":\"ollama\",\"baseUrl\":\"http://127.0.0.1:11434/\","
                                  "\"model\":\"qwen3:8b\"}"));

  imported = import (memory, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (akc_conversation_info_get_provider_kind (imported), ==, "ollama");
  g_assert_cmpstr (akc_conversation_info_get_provider_url (imported), ==, "http://127.0.0.1:11434/");
  g_assert_cmpstr (akc_conversation_info_get_model (imported), ==, "qwen3:8b");

  {
    struct {
      const char *text;
      const char *where;
    } cases[] = {
      { VALID_HEAD "\"provider\":\"ollama\",\"messages\":[]}}", "$.conversation.provider must be an object" },
      { VALID_HEAD "\"provider\":{\"kind\":\"other\"},\"messages\":[]}}", "$.conversation.provider.kind must be" },
      { VALID_HEAD "\"provider\":{\"model\":\"a\\u001bb\"},\"messages\":[]}}",
        "$.conversation.provider.model must not contain control characters" },
      { VALID_HEAD "\"provider\":{\"baseUrl\":3},\"messages\":[]}}", "$.conversation.provider.baseUrl must be text" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autoptr(GError) refused = import_error (memory, cases[i].text);

        if (strstr (refused->message, cases[i].where) == NULL)
          g_error ("case %u: “%s” does not say “%s”", i, refused->message, cases[i].where);
      }
  }

  akc_test_close (g_steal_pointer (&memory));
}

static void
test_export_missing (void)
{
  g_autofree char *path = akc_test_path ("history.sqlite3");
  g_autoptr(AkcChatMemory) memory = akc_test_open (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = export (memory, "nope", AKC_CONVERSATION_FORMAT_JSON, &error);

  g_assert_null (bytes);
  g_assert_error (error, AKC_CHAT_MEMORY_ERROR, AKC_CHAT_MEMORY_ERROR_NOT_FOUND);

  akc_test_close (g_steal_pointer (&memory));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/export/json-round-trip", test_json_round_trip);
  g_test_add_func ("/store/export/markdown", test_markdown);
  g_test_add_func ("/store/export/import-refuses", test_import_refuses);
  g_test_add_func ("/store/export/import-all-or-nothing", test_import_all_or_nothing);
  g_test_add_func ("/store/export/missing", test_export_missing);
  g_test_add_func ("/store/export/provider", test_provider);

  return g_test_run ();
}

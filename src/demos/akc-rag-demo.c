/* akc-rag-demo.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-rag-demo.h"

/**
 * AkcRagDemoAdapter:
 *
 * The adapter of the `rag` demo (application.md §13.5): it answers every
 * question with the documents a retriever finds, as a `source-list` frame,
 * and never calls a model.
 *
 * The question is the latest user message, trimmed. Up to 50 documents
 * become sources (title, address, id and snippet cut to the catalog's
 * bounds; a document whose address is neither `http(s)://` nor
 * root-relative is dropped, so are repeated ids and sources the catalog
 * refuses). The frame is named after the reply being written, the last
 * message of the request, and streamed in pieces of 64 characters.
 *
 * The offline retriever ([func@rag_demo_retrieve_offline]) knows one
 * document and finds nothing for a question that mentions "unknown".
 */

#define MAX_DOCUMENTS 50
#define MAX_TITLE_UNITS 256
#define MAX_ID_UNITS 128
#define MAX_SNIPPET_UNITS 4096
#define MAX_LABEL_UNITS 256
#define MAX_SUMMARY_UNITS 4096
#define PIECE_UNITS 64

/* Not translated: these are the reply's words, which the reference
 * scripts fix (the transcript is content, not interface). */
#define NO_SOURCES "No grounded sources were found for this question."
#define NO_SAFE_SOURCES "No safe grounded sources were found for this question."
#define RETRIEVAL_FAILED "Grounded retrieval is temporarily unavailable."

struct _AkcRagDemoAdapter
{
  GObject             parent_instance;

  AkcRagRetrieveFunc  retrieve;
  gpointer            user_data;
  GDestroyNotify      destroy;
};

static void akc_rag_demo_adapter_iface_init (AkcAdapterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AkcRagDemoAdapter, akc_rag_demo_adapter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (AKC_TYPE_ADAPTER, akc_rag_demo_adapter_iface_init))

AkcRagDocument *
akc_rag_document_new (const char *id,
                      const char *content,
                      const char *source,
                      const char *title,
                      const char *url)
{
  AkcRagDocument *document = g_new0 (AkcRagDocument, 1);

  g_return_val_if_fail (id != NULL && content != NULL, NULL);

  document->id = g_strdup (id);
  document->content = g_strdup (content);
  document->source = g_strdup (source);
  document->title = g_strdup (title);
  document->url = g_strdup (url);

  return document;
}

void
akc_rag_document_free (AkcRagDocument *document)
{
  if (document == NULL)
    return;

  g_free (document->id);
  g_free (document->content);
  g_free (document->source);
  g_free (document->title);
  g_free (document->url);
  g_free (document);
}

/* The first @max_units UTF-16 code units of @text, as JavaScript's
 * slice(0, max) counts them; a character that would be cut in half is
 * left out whole. */
static char *
prefix16 (const char *text,
          gsize       max_units)
{
  const char *p = text;
  gsize units = 0;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char (p);
      gsize width = c > 0xFFFF ? 2 : 1;

      if (units + width > max_units)
        break;
      units += width;
      p = g_utf8_next_char (p);
    }

  return g_strndup (text, p - text);
}

/* JavaScript's String.prototype.trim(). */
static char *
js_trim (const char *text)
{
  const char *start = text;
  const char *end = text + strlen (text);

  while (start < end)
    {
      gunichar c = g_utf8_get_char (start);

      if (!g_unichar_isspace (c) && c != 0xFEFF)
        break;
      start = g_utf8_next_char (start);
    }
  while (end > start)
    {
      const char *prev = g_utf8_prev_char (end);
      gunichar c = g_utf8_get_char (prev);

      if (!g_unichar_isspace (c) && c != 0xFEFF)
        break;
      end = prev;
    }

  return g_strndup (start, end - start);
}

static gboolean
is_portable_address (const char *url)
{
  if (g_str_has_prefix (url, "https://") || g_str_has_prefix (url, "http://"))
    return TRUE;

  /* Root-relative, not protocol-relative. */
  return url[0] == '/' && url[1] != '/';
}

static AkcJsonValue *
string_value (const char *text)
{
  return akc_json_value_new_string (text, -1);
}

/* One source as the catalog wants it, or NULL when it refuses it. */
static AkcJsonValue *
build_source (AkcComponentDefinition *source_list,
              AkcRagDocument         *document,
              const char             *url)
{
  const char *title_text = document->title != NULL ? document->title :
                           document->source != NULL ? document->source : document->id;
  g_autofree char *title = prefix16 (title_text, MAX_TITLE_UNITS);
  g_autofree char *id = prefix16 (document->id, MAX_ID_UNITS);
  g_autofree char *snippet = prefix16 (document->content, MAX_SNIPPET_UNITS);
  const char *names[] = { "id", "title", "url", "snippet" };
  g_autoptr(AkcJsonValue) id_value = string_value (id);
  g_autoptr(AkcJsonValue) title_value = string_value (title);
  g_autoptr(AkcJsonValue) url_value = string_value (url);
  g_autoptr(AkcJsonValue) snippet_value = string_value (snippet);
  AkcJsonValue *values[] = { id_value, title_value, url_value, snippet_value };
  g_autoptr(AkcJsonValue) source = akc_json_value_new_object (names, values, G_N_ELEMENTS (names));
  g_autoptr(AkcJsonValue) label = string_value ("Sources");
  g_autoptr(AkcJsonValue) sources = akc_json_value_new_array (&source, 1);
  const char *props_names[] = { "label", "sources" };
  AkcJsonValue *props_values[] = { label, sources };
  g_autoptr(AkcJsonValue) props = akc_json_value_new_object (props_names, props_values, 2);
  g_autoptr(AkcJsonValue) valid = akc_component_definition_validate_props (source_list, props);

  if (valid == NULL)
    return NULL;

  return g_steal_pointer (&source);
}

/**
 * akc_rag_demo_build_content:
 * @query: the trimmed question
 * @documents: (element-type AkcRagDocument): the retrieved documents
 * @instance_id: the frame's instance id
 *
 * Builds the reply to @query: a sentence when nothing safe was found,
 * otherwise the `source-list` frame as JSON text.
 *
 * Returns: (transfer full): the reply
 */
char *
akc_rag_demo_build_content (const char *query,
                            GPtrArray  *documents,
                            const char *instance_id)
{
  AkcComponentDefinition *source_list = akc_component_definition_get_standard ("source-list");
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) titles = g_string_new (NULL);
  g_autofree char *answer = NULL;
  g_autofree char *label = NULL;
  g_autofree char *summary_text = NULL;
  g_autofree char *summary = NULL;

  if (documents == NULL || documents->len == 0)
    return g_strdup (NO_SOURCES);

  for (guint i = 0; i < documents->len && i < MAX_DOCUMENTS; i++)
    {
      AkcRagDocument *document = g_ptr_array_index (documents, i);
      const char *url = document->url != NULL ? document->url : document->source;
      g_autofree char *id = prefix16 (document->id, MAX_ID_UNITS);
      AkcJsonValue *source;

      if (url == NULL || !is_portable_address (url) || g_hash_table_contains (ids, id))
        continue;

      source = build_source (source_list, document, url);
      if (source == NULL)
        continue;

      if (titles->len > 0)
        g_string_append (titles, ", ");
      g_string_append (titles, akc_json_value_get_string (akc_json_value_get_member (source, "title"), NULL));
      g_hash_table_add (ids, g_steal_pointer (&id));
      g_ptr_array_add (sources, source);
    }

  if (sources->len == 0)
    return g_strdup (NO_SAFE_SOURCES);

  answer = g_strdup_printf ("Grounded answer for \u201c%s\u201d: %s", query,
                            ((AkcRagDocument *) g_ptr_array_index (documents, 0))->content);
  label = prefix16 (answer, MAX_LABEL_UNITS);
  summary_text = g_strdup_printf ("%s Sources: %s.", label, titles->str);
  summary = prefix16 (summary_text, MAX_SUMMARY_UNITS);

  {
    g_autoptr(AkcJsonValue) label_value = string_value (label);
    g_autoptr(AkcJsonValue) sources_value = akc_json_value_new_array ((AkcJsonValue * const *) sources->pdata, sources->len);
    const char *props_names[] = { "label", "sources" };
    AkcJsonValue *props_values[] = { label_value, sources_value };
    g_autoptr(AkcJsonValue) props = akc_json_value_new_object (props_names, props_values, 2);
    g_autoptr(AkcJsonValue) kind = string_value ("source-list");
    g_autoptr(AkcJsonValue) summary_value = string_value (summary);
    const char *fallback_names[] = { "kind", "summary" };
    AkcJsonValue *fallback_values[] = { kind, summary_value };
    g_autoptr(AkcJsonValue) fallback = akc_json_value_new_object (fallback_names, fallback_values, 2);
    g_autoptr(AkcJsonValue) protocol = string_value ("agentskit.chat.component");
    g_autoptr(AkcJsonValue) version = akc_json_value_new_number (1);
    g_autoptr(AkcJsonValue) type = string_value ("render");
    g_autoptr(AkcJsonValue) key = string_value ("source-list");
    g_autoptr(AkcJsonValue) instance = string_value (instance_id);
    const char *frame_names[] = { "protocol", "version", "type", "componentKey", "instanceId", "props", "fallback" };
    AkcJsonValue *frame_values[] = { protocol, version, type, key, instance, props, fallback };
    g_autoptr(AkcJsonValue) frame = akc_json_value_new_object (frame_names, frame_values, G_N_ELEMENTS (frame_names));

    return akc_json_value_to_canonical (frame, NULL);
  }
}

/**
 * akc_rag_demo_retrieve_offline:
 * @query: the trimmed question
 * @user_data: unused
 * @error: unused: the offline corpus never fails
 *
 * The demo's offline corpus: one document about AgentsKit Chat, found for
 * every question except those that mention "unknown".
 *
 * Returns: (transfer full) (element-type AkcRagDocument): the documents
 */
GPtrArray *
akc_rag_demo_retrieve_offline (const char  *query,
                               gpointer     user_data,
                               GError     **error)
{
  GPtrArray *documents = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_rag_document_free);
  g_autofree char *lower = g_utf8_strdown (query, -1);

  if (strstr (lower, "unknown") == NULL)
    g_ptr_array_add (documents,
                     akc_rag_document_new ("agentskit-chat",
                                           "AgentsKit Chat shares one definition across native framework renderers.",
                                           NULL,
                                           "AgentsKit Chat overview",
                                           "https://www.agentskit.io/docs/chat"));

  return documents;
}

typedef struct
{
  AkcStream *stream;
  char      *content;
  gsize      offset;
  gboolean   frame;
} Reply;

static void
reply_free (gpointer data)
{
  Reply *reply = data;

  g_object_unref (reply->stream);
  g_free (reply->content);
  g_free (reply);
}

static gboolean
reply_tick (gpointer data)
{
  Reply *reply = data;
  const char *start = reply->content + reply->offset;
  const char *end = start;
  gsize units = 0;
  g_autoptr(AkcChunk) chunk = NULL;

  if (akc_stream_is_closed (reply->stream))
    return G_SOURCE_REMOVE;

  if (*start == '\0')
    {
      akc_stream_finish (reply->stream);
      return G_SOURCE_REMOVE;
    }

  /* A sentence goes whole; a frame in pieces of 64 characters. */
  if (!reply->frame)
    end = start + strlen (start);
  else
    while (*end != '\0' && units < PIECE_UNITS)
      {
        units += g_utf8_get_char (end) > 0xFFFF ? 2 : 1;
        end = g_utf8_next_char (end);
      }

  chunk = akc_chunk_new_text (start, end - start);
  reply->offset = end - reply->content;
  akc_stream_push (reply->stream, chunk);

  return G_SOURCE_CONTINUE;
}

static void
akc_rag_demo_adapter_stream (AkcAdapter        *adapter,
                             AkcAdapterRequest *request,
                             AkcStream         *stream)
{
  AkcRagDemoAdapter *self = AKC_RAG_DEMO_ADAPTER (adapter);
  AkcMessage *latest = akc_adapter_request_get_latest_user_message (request);
  GListModel *messages = akc_adapter_request_get_messages (request);
  guint n = g_list_model_get_n_items (messages);
  g_autofree char *query = js_trim (latest != NULL ? akc_message_get_content (latest) : "");
  g_autofree char *instance_id = NULL;
  g_autoptr(GPtrArray) documents = NULL;
  g_autoptr(GError) error = NULL;
  Reply *reply;

  documents = self->retrieve (query, self->user_data, &error);
  if (documents == NULL)
    {
      g_autoptr(AkcChunk) chunk = akc_chunk_new_error (NULL, RETRIEVAL_FAILED);

      akc_stream_push (stream, chunk);
      return;
    }

  if (n > 0)
    {
      g_autoptr(AkcMessage) last = g_list_model_get_item (messages, n - 1);

      instance_id = g_strconcat ("rag-", akc_message_get_id (last), NULL);
    }
  else
    instance_id = g_strdup ("rag-unscoped");

  reply = g_new0 (Reply, 1);
  reply->stream = g_object_ref (stream);
  reply->content = akc_rag_demo_build_content (query, documents, instance_id);
  reply->frame = reply->content[0] == '{';

  g_idle_add_full (G_PRIORITY_DEFAULT, reply_tick, reply, reply_free);
}

static void
akc_rag_demo_adapter_iface_init (AkcAdapterInterface *iface)
{
  iface->stream = akc_rag_demo_adapter_stream;
}

static void
akc_rag_demo_adapter_finalize (GObject *object)
{
  AkcRagDemoAdapter *self = AKC_RAG_DEMO_ADAPTER (object);

  if (self->destroy != NULL)
    g_clear_pointer (&self->user_data, self->destroy);

  G_OBJECT_CLASS (akc_rag_demo_adapter_parent_class)->finalize (object);
}

static void
akc_rag_demo_adapter_class_init (AkcRagDemoAdapterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_rag_demo_adapter_finalize;
}

static void
akc_rag_demo_adapter_init (AkcRagDemoAdapter *self)
{
  self->retrieve = akc_rag_demo_retrieve_offline;
}

/**
 * akc_rag_demo_adapter_new:
 *
 * Creates the `rag` demo's adapter over the offline corpus.
 *
 * Returns: (transfer full): a new #AkcAdapter
 */
AkcAdapter *
akc_rag_demo_adapter_new (void)
{
  return g_object_new (AKC_TYPE_RAG_DEMO_ADAPTER, NULL);
}

/**
 * akc_rag_demo_adapter_new_full:
 * @retrieve: finds the documents for a question
 * @user_data: data for @retrieve
 * @destroy: (nullable): frees @user_data
 *
 * Creates the `rag` demo's adapter over another retriever.
 *
 * Returns: (transfer full): a new #AkcAdapter
 */
AkcAdapter *
akc_rag_demo_adapter_new_full (AkcRagRetrieveFunc retrieve,
                               gpointer           user_data,
                               GDestroyNotify     destroy)
{
  AkcRagDemoAdapter *self;

  g_return_val_if_fail (retrieve != NULL, NULL);

  self = g_object_new (AKC_TYPE_RAG_DEMO_ADAPTER, NULL);
  self->retrieve = retrieve;
  self->user_data = user_data;
  self->destroy = destroy;

  return AKC_ADAPTER (self);
}

/* test-rag-demo.c: the rag demo's adapter beyond the reference script
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <akc.h>

#include "akc-rag-demo.h"
#include "akc-test.h"

static GPtrArray *
documents_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) akc_rag_document_free);
}

static void
test_unsafe_and_repeated_sources (void)
{
  g_autoptr(GPtrArray) documents = documents_new ();
  g_autoptr(AkcJsonValue) frame = NULL;
  g_autofree char *content = NULL;
  g_autofree char *long_title = g_strnfill (300, 't');
  AkcJsonValue *sources;

  g_ptr_array_add (documents, akc_rag_document_new ("a", "first", NULL, "A", "javascript:alert(1)"));
  g_ptr_array_add (documents, akc_rag_document_new ("b", "second", "/docs/b", NULL, NULL));
  g_ptr_array_add (documents, akc_rag_document_new ("b", "again", "/docs/b2", "B2", NULL));
  g_ptr_array_add (documents, akc_rag_document_new ("c", "third", "//evil.example/c", NULL, NULL));
  g_ptr_array_add (documents, akc_rag_document_new ("d", "fourth", NULL, long_title, "https://example.com/d"));

  content = akc_rag_demo_build_content ("q", documents, "rag-m1");
  frame = akc_component_frame_decode (content, -1, NULL);
  g_assert_nonnull (frame);
  sources = akc_json_value_get_member (akc_json_value_get_member (frame, "props"), "sources");
  g_assert_cmpuint (akc_json_value_get_length (sources), ==, 2);
  /* No url: the document's source stands in, and titles fall back to it. */
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (sources, 0), "title"), NULL), ==, "/docs/b");
  g_assert_cmpuint (strlen (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_element (sources, 1), "title"), NULL)), ==, 256);
  /* The label quotes the first document, even a dropped one. */
  g_assert_true (g_str_has_suffix (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_member (frame, "props"), "label"), NULL), ": first"));
}

static void
test_no_sources (void)
{
  g_autoptr(GPtrArray) none = documents_new ();
  g_autoptr(GPtrArray) unsafe = documents_new ();
  g_autofree char *empty = NULL;
  g_autofree char *dropped = NULL;

  g_ptr_array_add (unsafe, akc_rag_document_new ("a", "first", "file:///etc/passwd", NULL, NULL));
  empty = akc_rag_demo_build_content ("q", none, "rag-m1");
  dropped = akc_rag_demo_build_content ("q", unsafe, "rag-m1");
  g_assert_cmpstr (empty, ==, "No grounded sources were found for this question.");
  g_assert_cmpstr (dropped, ==, "No safe grounded sources were found for this question.");
}

static GPtrArray *
failing_retriever (const char  *query,
                   gpointer     user_data,
                   GError     **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "index offline");
  return NULL;
}

static void
record_chunk (AkcStream *stream,
              AkcChunk  *chunk,
              GPtrArray *chunks)
{
  g_ptr_array_add (chunks, akc_chunk_ref (chunk));
}

static void
run_turn (AkcAdapter *adapter,
          const char *question,
          GPtrArray  *chunks)
{
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcMessage) user = akc_message_new ("u1", AKC_MESSAGE_ROLE_USER, question, AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcMessage) reply = akc_message_new ("a1", AKC_MESSAGE_ROLE_ASSISTANT, "", AKC_MESSAGE_STATUS_STREAMING);
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(AkcStream) stream = akc_stream_new ();

  g_list_store_append (messages, user);
  g_list_store_append (messages, reply);
  request = akc_adapter_request_new (G_LIST_MODEL (messages), "rag-demo", NULL, NULL);
  g_signal_connect (stream, "chunk", G_CALLBACK (record_chunk), chunks);
  akc_adapter_stream (adapter, request, stream);
  WAIT_UNTIL (akc_stream_is_closed (stream));
}

static void
test_retrieval_failure (void)
{
  g_autoptr(AkcAdapter) adapter = akc_rag_demo_adapter_new_full (failing_retriever, NULL, NULL);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);

  run_turn (adapter, "anything", chunks);
  g_assert_cmpuint (chunks->len, ==, 1);
  g_assert_cmpint (akc_chunk_get_kind (g_ptr_array_index (chunks, 0)), ==, AKC_CHUNK_ERROR);
  g_assert_cmpstr (akc_chunk_get_text (g_ptr_array_index (chunks, 0), NULL), ==,
                   "Grounded retrieval is temporarily unavailable.");
}

static void
test_frame_streams_in_pieces (void)
{
  g_autoptr(AkcAdapter) adapter = akc_rag_demo_adapter_new ();
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(AkcJsonValue) frame = NULL;

  run_turn (adapter, "  What is it?\n", chunks);
  g_assert_cmpuint (chunks->len, >, 2);
  for (guint i = 0; i + 1 < chunks->len; i++)
    {
      gsize length;
      const char *text = akc_chunk_get_text (g_ptr_array_index (chunks, i), &length);

      g_assert_cmpint (akc_chunk_get_kind (g_ptr_array_index (chunks, i)), ==, AKC_CHUNK_TEXT);
      g_assert_cmpuint (g_utf8_strlen (text, length), <=, 64);
      g_string_append_len (joined, text, length);
    }
  g_assert_cmpint (akc_chunk_get_kind (g_ptr_array_index (chunks, chunks->len - 1)), ==, AKC_CHUNK_DONE);
  frame = akc_component_frame_decode (joined->str, joined->len, NULL);
  g_assert_nonnull (frame);
  /* Named after the reply being written; the question is trimmed. */
  g_assert_cmpstr (akc_json_value_get_string (akc_json_value_get_member (frame, "instanceId"), NULL), ==, "rag-a1");
  g_assert_true (g_str_has_prefix (akc_json_value_get_string (akc_json_value_get_member (akc_json_value_get_member (frame, "props"), "label"), NULL),
                                   "Grounded answer for \u201cWhat is it?\u201d"));
}

static void
test_stop_mid_frame (void)
{
  g_autoptr(AkcAdapter) adapter = akc_rag_demo_adapter_new ();
  g_autoptr(GListStore) messages = g_list_store_new (AKC_TYPE_MESSAGE);
  g_autoptr(AkcMessage) user = akc_message_new ("u1", AKC_MESSAGE_ROLE_USER, "q", AKC_MESSAGE_STATUS_COMPLETE);
  g_autoptr(AkcAdapterRequest) request = NULL;
  g_autoptr(AkcStream) stream = akc_stream_new ();
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);

  g_list_store_append (messages, user);
  request = akc_adapter_request_new (G_LIST_MODEL (messages), NULL, NULL, NULL);
  g_signal_connect (stream, "chunk", G_CALLBACK (record_chunk), chunks);
  akc_adapter_stream (adapter, request, stream);
  g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (chunks->len, ==, 1);
  akc_stream_cancel (stream);
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (chunks->len, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rag-demo/unsafe-and-repeated-sources", test_unsafe_and_repeated_sources);
  g_test_add_func ("/rag-demo/no-sources", test_no_sources);
  g_test_add_func ("/rag-demo/retrieval-failure", test_retrieval_failure);
  g_test_add_func ("/rag-demo/frame-streams-in-pieces", test_frame_streams_in_pieces);
  g_test_add_func ("/rag-demo/stop-mid-frame", test_stop_mid_frame);

  return g_test_run ();
}

/* test-stream.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "akc.h"

static void
collect_chunk (AkcStream  *stream,
               AkcChunk   *chunk,
               GPtrArray  *chunks)
{
  g_ptr_array_add (chunks, akc_chunk_ref (chunk));
}

static void
test_stream_closes_on_done (void)
{
  AkcStream *stream = akc_stream_new ();
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);

  g_signal_connect (stream, "chunk", G_CALLBACK (collect_chunk), chunks);

  g_assert_true (akc_stream_push_text (stream, "a"));
  g_assert_true (akc_stream_finish (stream));
  g_assert_true (akc_stream_is_closed (stream));
  g_assert_false (akc_stream_push_text (stream, "late"));
  g_assert_false (akc_stream_fail (stream, NULL, "late"));

  g_assert_cmpuint (chunks->len, ==, 2);
  g_assert_cmpint (akc_chunk_get_kind (chunks->pdata[0]), ==, AKC_CHUNK_TEXT);
  g_assert_cmpstr (akc_chunk_get_text (chunks->pdata[0], NULL), ==, "a");
  g_assert_cmpint (akc_chunk_get_kind (chunks->pdata[1]), ==, AKC_CHUNK_DONE);
  g_assert_false (g_cancellable_is_cancelled (akc_stream_get_cancellable (stream)));

  g_assert_finalize_object (stream);
}

static void
test_stream_cancel (void)
{
  AkcStream *stream = akc_stream_new ();
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_chunk_unref);

  g_signal_connect (stream, "chunk", G_CALLBACK (collect_chunk), chunks);
  akc_stream_cancel (stream);

  g_assert_true (akc_stream_is_closed (stream));
  g_assert_true (g_cancellable_is_cancelled (akc_stream_get_cancellable (stream)));
  g_assert_false (akc_stream_push_text (stream, "late"));
  g_assert_cmpuint (chunks->len, ==, 0);

  g_assert_finalize_object (stream);
}

static void
test_chunk_kinds (void)
{
  g_autoptr(AkcChunk) text = akc_chunk_new_text ("x\0y", 3);
  g_autoptr(AkcChunk) call = akc_chunk_new_tool_call ("c1", "lookup", NULL);
  g_autoptr(AkcChunk) error = akc_chunk_new_error ("AK_X", "Failed.");
  gsize length = 0;

  g_assert_cmpmem (akc_chunk_get_text (text, &length), length, "x\0y", 3);
  g_assert_cmpstr (akc_chunk_get_tool_name (call), ==, "lookup");
  g_assert_cmpstr (akc_chunk_get_arguments (call), ==, "{}");
  g_assert_cmpstr (akc_chunk_get_error_code (error), ==, "AK_X");
  g_assert_cmpstr (akc_chunk_get_text (error, NULL), ==, "Failed.");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stream/closes-on-done", test_stream_closes_on_done);
  g_test_add_func ("/stream/cancel", test_stream_cancel);
  g_test_add_func ("/stream/chunk-kinds", test_chunk_kinds);

  return g_test_run ();
}

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

static void
test_chunk_usage (void)
{
  g_autoptr(AkcChunk) usage_chunk = akc_chunk_new_usage (3, 5, 9);
  g_autoptr(AkcChunk) text = akc_chunk_new_text ("{\"usage\":{}}", -1);
  AkcUsage usage = { 7, 7, 7 };
  struct {
    const char *metadata;
    gboolean    ok;
    guint64     prompt, completion, total;
  } cases[] = {
    { "{\"usage\":{\"promptTokens\":1,\"completionTokens\":2,\"totalTokens\":4}}", TRUE, 1, 2, 4 },
    { "{\"usage\":{\"promptTokens\":1,\"completionTokens\":2}}", TRUE, 1, 2, 3 },
    { "{\"usage\":{}}", TRUE, 0, 0, 0 },
    { "{\"usage\":{\"promptTokens\":9007199254740991}}", TRUE, 9007199254740991, 0, 9007199254740991 },
    { "{\"usage\":{\"promptTokens\":9007199254740992}}", FALSE },
    { "{\"usage\":{\"promptTokens\":-1}}", FALSE },
    { "{\"usage\":{\"promptTokens\":0.5}}", FALSE },
    { "{\"usage\":{\"promptTokens\":\"1\"}}", FALSE },
    { "{\"usage\":[]}", FALSE },
    { "{\"model\":\"m\"}", FALSE },
    { "[]", FALSE },
    { "{", FALSE },
  };

  g_assert_cmpint (akc_chunk_get_kind (usage_chunk), ==, AKC_CHUNK_METADATA);
  g_assert_cmpstr (akc_chunk_get_text (usage_chunk, NULL), ==,
                   "{\"usage\":{\"promptTokens\":3,\"completionTokens\":5,\"totalTokens\":9}}");
  g_assert_true (akc_chunk_get_usage (usage_chunk, &usage));
  g_assert_cmpuint (usage.prompt_tokens, ==, 3);
  g_assert_cmpuint (usage.completion_tokens, ==, 5);
  g_assert_cmpuint (usage.total_tokens, ==, 9);
  g_assert_false (akc_chunk_get_usage (text, &usage));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(AkcChunk) chunk = akc_chunk_new_metadata (cases[i].metadata);
      AkcUsage got = { 7, 7, 7 };

      g_assert_cmpint (akc_chunk_get_usage (chunk, &got), ==, cases[i].ok);
      if (cases[i].ok)
        {
          g_assert_cmpuint (got.prompt_tokens, ==, cases[i].prompt);
          g_assert_cmpuint (got.completion_tokens, ==, cases[i].completion);
          g_assert_cmpuint (got.total_tokens, ==, cases[i].total);
        }
      else
        {
          /* Left alone on failure. */
          g_assert_cmpuint (got.prompt_tokens, ==, 7);
        }
    }
}

static void
test_usage (void)
{
  g_autoptr(AkcUsage) a = akc_usage_new (1, 2, 3);
  g_autoptr(AkcUsage) b = akc_usage_copy (a);
  AkcUsage big = { G_MAXUINT64 - 1, 0, 0 };

  g_assert_true (akc_usage_equal (a, b));
  akc_usage_add (b, a);
  g_assert_false (akc_usage_equal (a, b));
  g_assert_cmpuint (b->prompt_tokens, ==, 2);
  g_assert_cmpuint (b->completion_tokens, ==, 4);
  g_assert_cmpuint (b->total_tokens, ==, 6);

  /* Saturates instead of wrapping. */
  akc_usage_add (&big, a);
  g_assert_cmpuint (big.prompt_tokens, ==, G_MAXUINT64);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stream/closes-on-done", test_stream_closes_on_done);
  g_test_add_func ("/stream/cancel", test_stream_cancel);
  g_test_add_func ("/stream/chunk-kinds", test_chunk_kinds);
  g_test_add_func ("/stream/chunk-usage", test_chunk_usage);
  g_test_add_func ("/stream/usage", test_usage);

  return g_test_run ();
}

/* akc-bench-turn-input.h: the turn snapshots the protocol benches decode
 *
 * SPDX-License-Identifier: MIT
 *
 * Shared by akc-bench-protocol and akc-bench-growing-reply, so that the
 * growing reply the two measure is the same input, byte for byte. Only
 * GLib here: akc-bench-growing-reply is also built against older trees.
 */

#pragma once

#include <glib.h>

/* ~230 characters of message text, different for every message. */
static inline void
akc_bench_append_message (GString *out,
                          guint    index,
                          guint    extra)
{
  g_string_append_printf (out,
                          "%s{\"id\":\"message-%u\",\"role\":\"%s\",\"content\":\"Message %u: the quick brown fox "
                          "jumps over the lazy dog while the agent explains, step by step, how a streamed reply "
                          "reaches the desktop through a versioned NDJSON protocol and stays within its "
                          "bounds.",
                          index > 0 ? "," : "",
                          index, index % 2 == 0 ? "user" : "assistant", index);
  for (guint i = 0; i < extra; i++)
    g_string_append (out, " more");
  g_string_append_printf (out, "\",\"status\":\"complete\",\"createdAt\":\"2026-07-11T03:%02u:%02u.000Z\"}",
                          (index / 60) % 60, index % 60);
}

static inline void
akc_bench_append_envelope (GString    *out,
                           guint       sequence,
                           const char *status)
{
  g_string_append_printf (out,
                          "{\"protocol\":\"agentskit.chat.turn\",\"version\":1,\"sessionId\":\"session-bench\","
                          "\"turnId\":\"turn-bench\",\"emittedAt\":\"2026-07-11T03:00:00.000Z\","
                          "\"eventId\":\"event-%u\",\"sequence\":%u,\"event\":\"server.turn.snapshot\","
                          "\"payload\":{\"status\":\"%s\",\"usage\":{\"promptTokens\":12,\"completionTokens\":34,\"totalTokens\":46},\"messages\":[",
                          sequence, sequence, status);
}

/* A Markdown reply: paragraphs, lists, fenced code with quotes and
 * backslashes, some non-ASCII, as JSON string content, cut at character
 * boundaries: @offsets[k] is where the (k+1)-th character's escaped form
 * ends. */
static inline GString *
akc_bench_growing_reply (guint   n_chars,
                         GArray *offsets)
{
  static const char * const blocks[] = {
    "## Streaming, step by step\n\nThe agent answers in small pieces; each snapshot repeats the whole "
    "conversation, and only the last message grows. Caf\xC3\xA9 au lait \xE2\x80\x94 na\xC3\xAFve r\xC3\xA9sum\xC3\xA9.\n\n",
    "- first, the request reaches the turn server\n- then the model streams tokens\n- finally the "
    "reply is complete\n\n",
    "```c\nstatic const char *greeting = \"hello, world\\n\";\nif (a < b && b > c)\n  puts (greeting);\n```\n\n",
    "A table: | name | value |\n|---|---|\n| \"quoted\" | C:\\path\\to\\file |\n\n",
  };
  GString *raw = g_string_new (NULL);
  GString *out = g_string_new (NULL);
  const char *p;
  guint n = 0;

  for (glong have = 0; have < n_chars;)
    for (guint i = 0; i < G_N_ELEMENTS (blocks); i++)
      {
        g_string_append (raw, blocks[i]);
        have += g_utf8_strlen (blocks[i], -1);
      }

  g_array_set_size (offsets, 0);
  for (p = raw->str; *p != '\0' && n < n_chars; p = g_utf8_next_char (p), n++)
    {
      guint len;

      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        default:
          len = (guint) (g_utf8_next_char (p) - p);
          g_string_append_len (out, p, len);
          break;
        }
      g_array_append_val (offsets, out->len);
    }

  g_string_free (raw, TRUE);
  return out;
}

/* The snapshot of a user message and the reply's first @n_chars
 * characters, still streaming. */
static inline char *
akc_bench_growing_snapshot (const GString *reply,
                            const GArray  *offsets,
                            guint          n_chars,
                            guint          sequence)
{
  GString *out = g_string_new (NULL);

  akc_bench_append_envelope (out, sequence, "streaming");
  akc_bench_append_message (out, 0, 0);
  g_string_append (out, ",{\"id\":\"reply\",\"role\":\"assistant\",\"content\":\"");
  g_string_append_len (out, reply->str, g_array_index (offsets, gsize, n_chars - 1));
  g_string_append (out, "\",\"status\":\"streaming\",\"createdAt\":\"2026-07-11T03:59:59.000Z\"}]}}");

  return g_string_free (out, FALSE);
}

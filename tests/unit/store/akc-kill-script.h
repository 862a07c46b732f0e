/* akc-kill-script.h: what the history writer of the kill test says, so the
 * test can tell a whole message from a damaged one
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KILL_CONVERSATION     "kill"
#define KILL_N_CHUNKS         300
#define KILL_CHECKPOINT_EVERY 20

/* The question of turn @turn of run @round. */
static inline char *
kill_user_text (guint round,
                guint turn)
{
  return g_strdup_printf ("Question %u.%u \xf0\x9f\x98\x80?", round, turn);
}

/* Chunk @i of the reply: words, some with U+0000, some astral, some with
 * line breaks, so a torn write could not go unnoticed. */
static inline GBytes *
kill_chunk (guint round,
            guint turn,
            guint i)
{
  GString *chunk = g_string_new (NULL);

  g_string_append_printf (chunk, "r%u.t%u.c%u", round, turn, i);
  if (i % 7 == 3)
    g_string_append_len (chunk, "\0", 1);
  if (i % 5 == 1)
    g_string_append (chunk, "\xf0\x9f\x98\x80");
  g_string_append (chunk, i % 11 == 0 ? "\n" : " ");

  return g_string_free_to_bytes (chunk);
}

/* The whole reply of a turn. */
static inline GBytes *
kill_reply (guint round,
            guint turn)
{
  GByteArray *reply = g_byte_array_new ();

  for (guint i = 0; i < KILL_N_CHUNKS; i++)
    {
      g_autoptr(GBytes) chunk = kill_chunk (round, turn, i);
      gsize length;
      const guint8 *data = g_bytes_get_data (chunk, &length);

      g_byte_array_append (reply, data, length);
    }

  return g_byte_array_free_to_bytes (reply);
}

G_END_DECLS

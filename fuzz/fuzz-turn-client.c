/* fuzz-turn-client.c: libFuzzer target for the line handling of the turn
 * client (application.md §11.1, protocol.md §2): a response body in reads
 * of any size through AkcTurnClient's NDJSON line framing, decoding,
 * cursor and endings, as a turn server's bytes would arrive
 *
 * SPDX-License-Identifier: MIT
 *
 * Input: a flags byte, a count byte N (taken mod 9), N read sizes, then
 * the body. Flags bits 0–1 pick the HTTP status (200, 200, 500, 401: the
 * last two read the body as an error body), bits 2–3 the longest line the
 * client accepts (the default 16 MiB, 64, 300 or 1024 bytes). The body is
 * read in reads of the N sizes in turn (size byte b gives 1 + b bytes,
 * and 255 all that is left); with N = 0, in one read.
 *
 * Checked for every input:
 * - the turn ends (turn-finished, once) when the body ends, and the
 *   client is no longer busy;
 * - it ends idle, or with an error whose code is set and whose message is
 *   one line of valid UTF-8;
 * - the messages are exactly those of the last accepted snapshot;
 * - nothing depends on how the body was cut into reads: the same
 *   snapshots accepted, the same end, the same error, as one read gives.
 */

#include <stdint.h>
#include <string.h>

#include <libsoup/soup.h>

#include "akc.h"
#include "akc-json-private.h"
#include "akc-turn-client-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* ------------------------------------------------------------------ */
/* A body that arrives in reads of given sizes                         */
/* ------------------------------------------------------------------ */

#define FUZZ_TYPE_READS_STREAM (fuzz_reads_stream_get_type ())
G_DECLARE_FINAL_TYPE (FuzzReadsStream, fuzz_reads_stream, FUZZ, READS_STREAM, GInputStream)

struct _FuzzReadsStream
{
  GInputStream  parent_instance;
  const guint8 *data;
  gsize         length;
  gsize         pos;
  const guint8 *sizes;
  gsize         n_sizes;
  gsize         k;
};

G_DEFINE_FINAL_TYPE (FuzzReadsStream, fuzz_reads_stream, G_TYPE_INPUT_STREAM)

static gssize
fuzz_reads_stream_read (GInputStream  *stream,
                   void          *buffer,
                   gsize          count,
                   GCancellable  *cancellable,
                   GError       **error)
{
  FuzzReadsStream *self = FUZZ_READS_STREAM (stream);
  gsize step = self->length - self->pos;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return -1;

  if (self->n_sizes > 0)
    {
      guint8 b = self->sizes[self->k++ % self->n_sizes];

      if (b != 255)
        step = MIN (step, (gsize) b + 1);
    }
  step = MIN (step, count);
  memcpy (buffer, self->data + self->pos, step);
  self->pos += step;

  return (gssize) step;
}

/* Every read completes at once (no thread), in the next iteration. */
static void
fuzz_reads_stream_read_async (GInputStream        *stream,
                         void                *buffer,
                         gsize                count,
                         int                  io_priority,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (stream, cancellable, callback, user_data);
  GError *error = NULL;
  gssize n = fuzz_reads_stream_read (stream, buffer, count, cancellable, &error);

  if (n < 0)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, n);
}

static gssize
fuzz_reads_stream_read_finish (GInputStream  *stream,
                          GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_int (G_TASK (result), error);
}

static void
fuzz_reads_stream_class_init (FuzzReadsStreamClass *klass)
{
  GInputStreamClass *stream_class = G_INPUT_STREAM_CLASS (klass);

  stream_class->read_fn = fuzz_reads_stream_read;
  stream_class->read_async = fuzz_reads_stream_read_async;
  stream_class->read_finish = fuzz_reads_stream_read_finish;
}

static void
fuzz_reads_stream_init (FuzzReadsStream *self)
{
}

/* ------------------------------------------------------------------ */
/* One turn                                                            */
/* ------------------------------------------------------------------ */

typedef struct
{
  guint    finished;
  guint    accepted;
  GString *snapshots;   /* canonical text of every accepted snapshot */
  char    *end;         /* the status and error after the turn */
} Outcome;

static void
on_snapshot_accepted (AkcTurnClient *client,
                      AkcJsonValue  *event,
                      Outcome       *outcome)
{
  g_autofree char *canonical = akc_json_value_to_canonical (event, NULL);

  g_assert (outcome->finished == 0);
  outcome->accepted++;
  g_string_append (outcome->snapshots, canonical);
  g_string_append_c (outcome->snapshots, '\n');
}

static void
on_turn_finished (AkcTurnClient *client,
                  Outcome       *outcome)
{
  outcome->finished++;
}

static void
run (guint          status,
     guint          max_line_length,
     const guint8  *sizes,
     gsize          n_sizes,
     const guint8  *body,
     gsize          length,
     Outcome       *outcome)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AkcTurnClient) client = akc_turn_client_new ("http://127.0.0.1:9/turn", "session-conformance", &error);
  g_autoptr(FuzzReadsStream) stream = g_object_new (FUZZ_TYPE_READS_STREAM, NULL);
  AkcChatSource *source = AKC_CHAT_SOURCE (client);
  AkcDiagnostic *diagnostic;
  AkcChatStatus end_status;
  GListModel *messages;
  guint n_messages;

  g_assert_no_error (error);
  if (max_line_length > 0)
    akc_turn_client_set_max_line_length (client, max_line_length);
  stream->data = body;
  stream->length = length;
  stream->sizes = sizes;
  stream->n_sizes = n_sizes;

  outcome->snapshots = g_string_new (NULL);
  g_signal_connect (client, "snapshot-accepted", G_CALLBACK (on_snapshot_accepted), outcome);
  g_signal_connect (client, "turn-finished", G_CALLBACK (on_turn_finished), outcome);

  g_assert (akc_turn_client_submit_with_response (client, "hello", status, G_INPUT_STREAM (stream), &error));
  g_assert (akc_turn_client_get_busy (client));

  /* Every turn ends: a hang here is a finding (libFuzzer's timeout). */
  while (outcome->finished == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert (outcome->finished == 1);
  g_assert (!akc_turn_client_get_busy (client));

  end_status = akc_chat_source_get_status (source);
  diagnostic = akc_chat_source_get_error (source);
  g_assert (end_status == AKC_CHAT_STATUS_IDLE || end_status == AKC_CHAT_STATUS_ERROR);
  if (end_status == AKC_CHAT_STATUS_ERROR)
    g_assert (diagnostic != NULL);
  if (diagnostic != NULL)
    {
      const char *code = akc_diagnostic_get_code (diagnostic);
      const char *message = akc_diagnostic_get_message (diagnostic);

      g_assert (code != NULL && code[0] != '\0');
      g_assert (message != NULL && message[0] != '\0' && g_utf8_validate (message, -1, NULL));
      g_assert (strchr (message, '\n') == NULL);
    }

  /* The messages are the last accepted snapshot's. */
  messages = akc_chat_source_get_messages (source);
  n_messages = g_list_model_get_n_items (messages);
  if (outcome->accepted == 0)
    g_assert (n_messages == 0);
  else
    {
      g_autoptr(GError) decode_error = NULL;
      g_autoptr(AkcJsonValue) last = NULL;
      AkcJsonValue *snapshot_messages;
      const char *text = outcome->snapshots->str;
      const char *end = text + outcome->snapshots->len - 1;
      const char *start = end;

      while (start > text && start[-1] != '\n')
        start--;
      last = akc_json_value_parse (start, end - start, &decode_error);
      g_assert_no_error (decode_error);
      snapshot_messages = akc_json_value_get_member (akc_json_value_get_member (last, "payload"), "messages");
      g_assert (n_messages == akc_json_value_get_length (snapshot_messages));
    }

  outcome->end = g_strdup_printf ("%d %s %s", end_status,
                                  diagnostic != NULL ? akc_diagnostic_get_code (diagnostic) : "-",
                                  diagnostic != NULL ? akc_diagnostic_get_message (diagnostic) : "-");

  /* Nothing of the turn is left to run. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
outcome_clear (Outcome *outcome)
{
  g_string_free (outcome->snapshots, TRUE);
  g_free (outcome->end);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const guint statuses[] = { SOUP_STATUS_OK, SOUP_STATUS_OK, SOUP_STATUS_INTERNAL_SERVER_ERROR,
                                    SOUP_STATUS_UNAUTHORIZED };
  static const guint line_lengths[] = { 0, 64, 300, 1024 };
  Outcome pieces = { 0 }, whole = { 0 };
  guint status, max_line_length;
  gsize n_sizes;

  if (size < 2)
    return 0;

  status = statuses[data[0] & 3];
  max_line_length = line_lengths[(data[0] >> 2) & 3];
  n_sizes = MIN ((gsize) data[1] % 9, size - 2);

  run (status, max_line_length, data + 2, n_sizes, data + 2 + n_sizes, size - 2 - n_sizes, &pieces);

  /* sizes that all say "the rest" are one read already */
  for (gsize i = 0; i < n_sizes; i++)
    if (data[2 + i] != 255)
      {
        run (status, max_line_length, NULL, 0, data + 2 + n_sizes, size - 2 - n_sizes, &whole);
        g_assert_cmpstr (pieces.snapshots->str, ==, whole.snapshots->str);
        g_assert_cmpstr (pieces.end, ==, whole.end);
        outcome_clear (&whole);
        break;
      }

  outcome_clear (&pieces);

  return 0;
}

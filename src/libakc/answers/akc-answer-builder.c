/* akc-answer-builder.c: building `agentskit.chat.answer` v1 envelopes
 * (application §9.6, protocol §8.4)
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-answer.h"
#include "akc-answer-builder-private.h"
#include "akc-json-private.h"
#include "akc-text-private.h"

char *
akc_answer_slice16 (const char *s,
                    gsize       len,
                    gsize       max_units)
{
  const char *p = s;
  const char *end = s + len;
  gsize units = 0;

  while (p < end)
    {
      gunichar c = g_utf8_get_char (p);
      gsize w = c > 0xFFFF ? 2 : 1;

      if (units + w > max_units)
        break;
      units += w;
      p = g_utf8_next_char (p);
    }
  return g_strndup (s, p - s);
}

void
akc_answer_query_init (AkcAnswerQuery *q,
                       const char     *query)
{
  gsize len = strlen (query);
  gsize norm_len = 0;
  g_autofree char *norm = NULL;

  q->query_units = akc_text_len16 (query, len);
  q->query = akc_answer_slice16 (query, len, AKC_ANSWER_QUERY_MAX_UNITS);
  norm = akc_text_normalize_key (q->query, strlen (q->query), &norm_len);
  q->normalized_units = akc_text_len16 (norm, norm_len);
  q->normalized = akc_answer_slice16 (norm, norm_len, AKC_ANSWER_QUERY_MAX_UNITS);
}

void
akc_answer_query_clear (AkcAnswerQuery *q)
{
  g_clear_pointer (&q->query, g_free);
  g_clear_pointer (&q->normalized, g_free);
}

static void
begin_envelope (AkcJsonWriter        *w,
                GString              *out,
                const char           *outcome,
                const AkcAnswerQuery *q)
{
  akc_json_writer_init (w, out);
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "protocol");
  akc_json_writer_string (w, AKC_ANSWER_PROTOCOL, -1);
  akc_json_writer_member (w, "version");
  akc_json_writer_int (w, 1);
  akc_json_writer_member (w, "outcome");
  akc_json_writer_string (w, outcome, -1);
  akc_json_writer_member (w, "query");
  akc_json_writer_string (w, q->query, -1);
  akc_json_writer_member (w, "normalizedQuery");
  akc_json_writer_string (w, q->normalized, -1);
}

static void
write_confidence (AkcJsonWriter *w,
                  const char    *level,
                  const char    *basis)
{
  akc_json_writer_member (w, "confidence");
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "level");
  akc_json_writer_string (w, level, -1);
  akc_json_writer_member (w, "basis");
  akc_json_writer_string (w, basis, -1);
  akc_json_writer_end_object (w);
}

static AkcJsonValue *
finish_envelope (AkcJsonWriter *w,
                 GString       *out)
{
  g_autoptr(GError) error = NULL;
  AkcJsonValue *value;

  akc_json_writer_end_object (w);
  value = akc_json_value_parse (out->str, out->len, &error);
  g_assert_no_error (error);
  g_string_free (out, TRUE);
  return value;
}

static const char *
member_string (const AkcJsonValue *object,
               const char         *name)
{
  AkcJsonValue *v = akc_json_value_get_member (object, name);

  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING
         ? akc_json_value_get_string (v, NULL) : NULL;
}

static void
write_local_provenance (AkcJsonWriter               *w,
                        const char                  *artifact_id,
                        const char                  *content_hash,
                        const AkcJsonValue * const  *entries,
                        gsize                        n)
{
  akc_json_writer_member (w, "provenance");
  akc_json_writer_begin_object (w);
  akc_json_writer_member (w, "source");
  akc_json_writer_string (w, "local", -1);
  akc_json_writer_member (w, "artifactId");
  akc_json_writer_string (w, artifact_id, -1);
  akc_json_writer_member (w, "contentHash");
  akc_json_writer_string (w, content_hash, -1);
  akc_json_writer_member (w, "entryIds");
  akc_json_writer_begin_array (w);
  for (gsize i = 0; i < n; i++)
    akc_json_writer_value (w, akc_json_value_get_member (entries[i], "id"));
  akc_json_writer_end_array (w);
  akc_json_writer_end_object (w);
}

AkcJsonValue *
akc_answer_build_escalation (const AkcAnswerQuery *q,
                             const char           *reason,
                             const char           *message)
{
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  begin_envelope (&w, out, "escalation", q);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, message, -1);
  akc_json_writer_member (&w, "reason");
  akc_json_writer_string (&w, reason, -1);
  write_confidence (&w, "low", reason);
  return finish_envelope (&w, out);
}

AkcJsonValue *
akc_answer_build_local (const AkcAnswerQuery *q,
                        const AkcJsonValue   *entry,
                        const char           *artifact_id,
                        const char           *content_hash)
{
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  begin_envelope (&w, out, "answer", q);
  akc_json_writer_member (&w, "answer");
  akc_json_writer_value (&w, akc_json_value_get_member (entry, "answer"));
  write_local_provenance (&w, artifact_id, content_hash, &entry, 1);
  write_confidence (&w, "high", "exact");
  return finish_envelope (&w, out);
}

AkcJsonValue *
akc_answer_build_choices (const AkcAnswerQuery        *q,
                          const AkcJsonValue * const  *entries,
                          const char * const          *values,
                          gsize                        n,
                          const char                  *artifact_id,
                          const char                  *content_hash)
{
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  g_return_val_if_fail (n >= 2 && n <= AKC_ANSWER_MAX_SUGGESTIONS, NULL);

  begin_envelope (&w, out, "choices", q);
  akc_json_writer_member (&w, "message");
  akc_json_writer_string (&w, AKC_ANSWER_MESSAGE_CHOICES, -1);
  akc_json_writer_member (&w, "suggestions");
  akc_json_writer_begin_array (&w);
  for (gsize i = 0; i < n; i++)
    {
      akc_json_writer_begin_object (&w);
      akc_json_writer_member (&w, "id");
      akc_json_writer_value (&w, akc_json_value_get_member (entries[i], "id"));
      akc_json_writer_member (&w, "label");
      akc_json_writer_string (&w, member_string (entries[i], "label"), -1);
      akc_json_writer_member (&w, "value");
      akc_json_writer_string (&w, values[i], -1);
      akc_json_writer_end_object (&w);
    }
  akc_json_writer_end_array (&w);
  write_local_provenance (&w, artifact_id, content_hash, entries, n);
  write_confidence (&w, "medium", "ambiguous");
  return finish_envelope (&w, out);
}

AkcJsonValue *
akc_answer_build_backend (const AkcAnswerQuery *q,
                          const char           *markdown,
                          gsize                 markdown_len,
                          const AkcJsonValue   *citations,
                          const char           *provider,
                          const char           *model)
{
  GString *out = g_string_new (NULL);
  AkcJsonWriter w;

  begin_envelope (&w, out, "answer", q);
  akc_json_writer_member (&w, "answer");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "markdown");
  akc_json_writer_string (&w, markdown, markdown_len);
  akc_json_writer_member (&w, "citations");
  if (citations != NULL)
    akc_json_writer_value (&w, citations);
  else
    {
      akc_json_writer_begin_array (&w);
      akc_json_writer_end_array (&w);
    }
  akc_json_writer_end_object (&w);
  akc_json_writer_member (&w, "provenance");
  akc_json_writer_begin_object (&w);
  akc_json_writer_member (&w, "source");
  akc_json_writer_string (&w, "backend", -1);
  if (provider != NULL)
    {
      akc_json_writer_member (&w, "provider");
      akc_json_writer_string (&w, provider, -1);
    }
  if (model != NULL)
    {
      akc_json_writer_member (&w, "model");
      akc_json_writer_string (&w, model, -1);
    }
  akc_json_writer_end_object (&w);
  write_confidence (&w, "high", "backend");
  return finish_envelope (&w, out);
}

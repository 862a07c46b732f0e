/* akc-knowledge-resolver.c: exact local answers from a verified knowledge
 * artifact (application §9.3)
 *
 * SPDX-License-Identifier: MIT
 *
 * The artifact is verified (protocol §8.8) when the resolver is made, even
 * when the caller verified it already; a failure leaves a resolver whose every
 * call is a `corrupt` escalation. Otherwise one index maps each normalised
 * alias to its entries in artifact order. It is built once and bounded by the
 * artifact limits: at most 1,024 entries × 16 aliases.
 */

#include "config.h"

#include <string.h>

#include "akc-answer.h"
#include "akc-answer-builder-private.h"
#include "akc-knowledge-artifact.h"
#include "akc-knowledge-resolver.h"
#include "akc-text-private.h"

/**
 * AkcKnowledgeResolver:
 *
 * Answers exact questions from a local knowledge artifact
 * (`agentskit.chat.knowledge` v1).
 *
 * A query is normalised ([application §9.1](wire-formats.html#application-9)) and compared, as a whole,
 * with the normalised aliases of every entry. One match gives a
 * high-confidence answer, several give medium-confidence choices that show
 * each entry's exact alias, none gives a low-confidence escalation. Every
 * result is an answer envelope (`agentskit.chat.answer` v1).
 *
 * The artifact is verified against the trusted content hash and site id of
 * the site configuration before it is used. An artifact that fails
 * verification never answers: every call escalates as `corrupt`. An
 * artifact whose `expiresAt` is not after the given time escalates as
 * `stale`.
 *
 * Since: 0.1
 */

struct _AkcKnowledgeResolver
{
  GObject        parent_instance;

  AkcJsonValue  *artifact;      /* verified; NULL when corrupt */
  AkcDiagnostic *diagnostic;    /* why verification failed; nullable */
  const char    *artifact_id;   /* views into @artifact */
  const char    *content_hash;
  gboolean       has_expiry;
  gint64         expires_ms;
  GPtrArray     *entries;       /* AkcJsonValue* (transfer none) */
  GPtrArray     *values;        /* const char*: each entry's suggestion value */
  GHashTable    *index;         /* normalised alias -> GArray of guint */
};

G_DEFINE_FINAL_TYPE (AkcKnowledgeResolver, akc_knowledge_resolver, G_TYPE_OBJECT)

static void
akc_knowledge_resolver_finalize (GObject *object)
{
  AkcKnowledgeResolver *self = AKC_KNOWLEDGE_RESOLVER (object);

  g_clear_pointer (&self->index, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->values, g_ptr_array_unref);
  g_clear_pointer (&self->artifact, akc_json_value_unref);
  g_clear_pointer (&self->diagnostic, akc_diagnostic_unref);

  G_OBJECT_CLASS (akc_knowledge_resolver_parent_class)->finalize (object);
}

static void
akc_knowledge_resolver_class_init (AkcKnowledgeResolverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = akc_knowledge_resolver_finalize;
}

static void
akc_knowledge_resolver_init (AkcKnowledgeResolver *self)
{
}

static const char *
member_string (const AkcJsonValue *object,
               const char         *name,
               gsize              *len)
{
  AkcJsonValue *v = akc_json_value_get_member (object, name);

  return v != NULL && akc_json_value_get_kind (v) == AKC_JSON_KIND_STRING
         ? akc_json_value_get_string (v, len) : NULL;
}

static void
build_index (AkcKnowledgeResolver *self)
{
  AkcJsonValue *entries = akc_json_value_get_member (self->artifact, "entries");
  gsize n = akc_json_value_get_length (entries);
  const char *expires;
  gsize len;

  self->artifact_id = member_string (self->artifact, "artifactId", NULL);
  self->content_hash = member_string (self->artifact, "contentHash", NULL);
  expires = member_string (self->artifact, "expiresAt", &len);
  self->has_expiry = expires != NULL && akc_text_date_time_to_unix_ms (expires, len, &self->expires_ms);

  self->entries = g_ptr_array_sized_new (n);
  self->values = g_ptr_array_sized_new (n);
  self->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_array_unref);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *entry = akc_json_value_get_element (entries, i);
      AkcJsonValue *values = akc_json_value_get_member (akc_json_value_get_member (entry, "match"), "values");
      gsize n_values = akc_json_value_get_length (values);

      g_ptr_array_add (self->entries, entry);
      for (gsize j = 0; j < n_values; j++)
        {
          const char *alias = akc_json_value_get_string (akc_json_value_get_element (values, j), &len);
          char *key = akc_text_normalize_key (alias, len, NULL);
          GArray *slot = g_hash_table_lookup (self->index, key);
          guint index_ = (guint) i;

          if (slot == NULL)
            {
              slot = g_array_sized_new (FALSE, FALSE, sizeof (guint), 1);
              g_hash_table_insert (self->index, key, slot);
            }
          else
            g_free (key);
          /* Aliases of one entry are unique after normalisation (§8.3
           * rule 2), so an entry is never listed twice. */
          g_array_append_val (slot, index_);
        }
    }

  /* The suggestion value (§9.3): the first alias that maps to exactly one
   * entry, else the first alias, else the id. */
  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *entry = g_ptr_array_index (self->entries, i);
      AkcJsonValue *values = akc_json_value_get_member (akc_json_value_get_member (entry, "match"), "values");
      gsize n_values = akc_json_value_get_length (values);
      const char *chosen = NULL;

      for (gsize j = 0; j < n_values && chosen == NULL; j++)
        {
          const char *alias = akc_json_value_get_string (akc_json_value_get_element (values, j), &len);
          g_autofree char *key = akc_text_normalize_key (alias, len, NULL);
          GArray *slot = g_hash_table_lookup (self->index, key);

          if (slot != NULL && slot->len == 1)
            chosen = alias;
        }
      if (chosen == NULL && n_values > 0)
        chosen = akc_json_value_get_string (akc_json_value_get_element (values, 0), NULL);
      if (chosen == NULL)
        chosen = member_string (entry, "id", NULL);
      g_ptr_array_add (self->values, (gpointer) chosen);
    }
}

static AkcKnowledgeResolver *
resolver_new (AkcJsonValue  *verified,
              AkcDiagnostic *diagnostic)
{
  AkcKnowledgeResolver *self = g_object_new (AKC_TYPE_KNOWLEDGE_RESOLVER, NULL);

  self->artifact = verified;
  self->diagnostic = diagnostic;
  if (self->artifact != NULL)
    build_index (self);
  return self;
}

/**
 * akc_knowledge_resolver_new:
 * @artifact: (nullable): a knowledge artifact as a JSON value, or %NULL
 *   when none could be loaded
 * @expected_content_hash: (nullable): the content hash the site
 *   configuration pins
 * @expected_site_id: (nullable): the site id of the site configuration
 *
 * Verifies @artifact against both trusted anchors ([protocol §8.8](wire-formats.html#protocol-8)) and
 * indexes its aliases. When @artifact is %NULL, an anchor is missing or
 * verification fails, the resolver answers every query with a `corrupt`
 * escalation; akc_knowledge_resolver_get_diagnostic() then says why.
 *
 * Returns: (transfer full): a new resolver
 *
 * Since: 0.1
 */
AkcKnowledgeResolver *
akc_knowledge_resolver_new (AkcJsonValue *artifact,
                            const char   *expected_content_hash,
                            const char   *expected_site_id)
{
  AkcDiagnostic *diagnostic = NULL;
  AkcJsonValue *verified = NULL;

  if (artifact != NULL)
    verified = akc_knowledge_artifact_verify_value (artifact, expected_content_hash,
                                                    expected_site_id, &diagnostic);
  return resolver_new (verified, diagnostic);
}

/**
 * akc_knowledge_resolver_new_from_text:
 * @text: the artifact's JSON text
 * @length: the byte length of @text, or -1 when it is NUL-terminated
 * @expected_content_hash: (nullable): the content hash the site
 *   configuration pins
 * @expected_site_id: (nullable): the site id of the site configuration
 *
 * Like akc_knowledge_resolver_new(), for an artifact read as text (a file
 * or a download): the text form of the bounded decoder applies, with its
 * 524,288-byte limit checked before parsing.
 *
 * Returns: (transfer full): a new resolver
 *
 * Since: 0.1
 */
AkcKnowledgeResolver *
akc_knowledge_resolver_new_from_text (const char *text,
                                      gssize      length,
                                      const char *expected_content_hash,
                                      const char *expected_site_id)
{
  AkcDiagnostic *diagnostic = NULL;
  AkcJsonValue *verified;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  verified = akc_knowledge_artifact_verify (text != NULL ? text : "", length,
                                            expected_content_hash, expected_site_id,
                                            &diagnostic);
  return resolver_new (verified, diagnostic);
}

/**
 * akc_knowledge_resolver_new_from_text_utf8: (rename-to akc_knowledge_resolver_new_from_text)
 * @text: the artifact's JSON text
 * @expected_content_hash: (nullable): the content hash the site
 *   configuration pins
 * @expected_site_id: (nullable): the site id of the site configuration
 *
 * Does what akc_knowledge_resolver_new_from_text() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full): a new resolver
 *
 * Since: 0.1
 */
AkcKnowledgeResolver *
akc_knowledge_resolver_new_from_text_utf8 (const char *text,
                                           const char *expected_content_hash,
                                           const char *expected_site_id)
{
  return akc_knowledge_resolver_new_from_text (text, -1, expected_content_hash, expected_site_id);
}

/**
 * akc_knowledge_resolver_is_verified:
 * @self: a resolver
 *
 * Whether the artifact passed verification and can answer.
 *
 * Returns: %TRUE when local answers are possible
 *
 * Since: 0.1
 */
gboolean
akc_knowledge_resolver_is_verified (AkcKnowledgeResolver *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (self), FALSE);

  return self->artifact != NULL;
}

/**
 * akc_knowledge_resolver_get_diagnostic:
 * @self: a resolver
 *
 * Why the artifact failed verification.
 *
 * Returns: (transfer none) (nullable): the verification diagnostic, or
 *   %NULL when the artifact was verified or none was given
 *
 * Since: 0.1
 */
AkcDiagnostic *
akc_knowledge_resolver_get_diagnostic (AkcKnowledgeResolver *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (self), NULL);

  return self->diagnostic;
}

/**
 * akc_knowledge_resolver_get_artifact:
 * @self: a resolver
 *
 * The verified, normalised artifact.
 *
 * Returns: (transfer none) (nullable): the artifact, or %NULL when it
 *   failed verification
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_resolver_get_artifact (AkcKnowledgeResolver *self)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (self), NULL);

  return self->artifact;
}

/**
 * akc_knowledge_resolver_is_stale:
 * @self: a resolver
 * @now_ms: the current time in milliseconds since the Unix epoch
 *
 * Whether a verified artifact has expired at @now_ms. The expiry instant
 * itself counts as stale.
 *
 * Returns: %TRUE when `expiresAt` is set and not after @now_ms
 *
 * Since: 0.1
 */
gboolean
akc_knowledge_resolver_is_stale (AkcKnowledgeResolver *self,
                                 gint64                now_ms)
{
  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (self), FALSE);

  return self->artifact != NULL && self->has_expiry && self->expires_ms <= now_ms;
}

/* The escalation for a corrupt or stale artifact, or NULL. */
static AkcJsonValue *
check_usable (AkcKnowledgeResolver *self,
              const AkcAnswerQuery *q,
              gint64                now_ms)
{
  if (self->artifact == NULL)
    return akc_answer_build_escalation (q, "corrupt", AKC_ANSWER_MESSAGE_CORRUPT);
  if (akc_knowledge_resolver_is_stale (self, now_ms))
    return akc_answer_build_escalation (q, "stale", AKC_ANSWER_MESSAGE_STALE);
  return NULL;
}

static GArray *
lookup (AkcKnowledgeResolver *self,
        const AkcAnswerQuery *q)
{
  if (q->query_units > AKC_ANSWER_QUERY_MAX_UNITS ||
      q->normalized_units > AKC_ANSWER_QUERY_MAX_UNITS)
    return NULL;
  return g_hash_table_lookup (self->index, q->normalized);
}

static AkcJsonValue *
answer_entry (AkcKnowledgeResolver *self,
              const AkcAnswerQuery *q,
              guint                 index_)
{
  return akc_answer_build_local (q, g_ptr_array_index (self->entries, index_),
                                 self->artifact_id, self->content_hash);
}

/**
 * akc_knowledge_resolver_resolve:
 * @self: a resolver
 * @query: the question, as the user typed it
 * @now_ms: the current time in milliseconds since the Unix epoch
 *
 * Resolves @query ([application §9.3](wire-formats.html#application-9)): a `corrupt` escalation when the
 * artifact failed verification, a `stale` one when it has expired, a `miss`
 * when the query or its normalised form is longer than 512 UTF-16 units or
 * matches no alias, choices when it matches several entries (the first
 * eight), and the entry's answer when it matches exactly one.
 *
 * Returns: (transfer full): the answer envelope (`agentskit.chat.answer` v1)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_resolver_resolve (AkcKnowledgeResolver *self,
                                const char           *query,
                                gint64                now_ms)
{
  AkcAnswerQuery q;
  AkcJsonValue *result;
  GArray *slot;

  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  akc_answer_query_init (&q, query);
  result = check_usable (self, &q, now_ms);
  if (result == NULL)
    {
      slot = lookup (self, &q);
      if (slot == NULL || slot->len == 0)
        result = akc_answer_build_escalation (&q, "miss", AKC_ANSWER_MESSAGE_MISS);
      else if (slot->len == 1)
        result = answer_entry (self, &q, g_array_index (slot, guint, 0));
      else
        {
          const AkcJsonValue *entries[AKC_ANSWER_MAX_SUGGESTIONS];
          const char *values[AKC_ANSWER_MAX_SUGGESTIONS];
          gsize n = MIN (slot->len, AKC_ANSWER_MAX_SUGGESTIONS);

          for (gsize i = 0; i < n; i++)
            {
              guint e = g_array_index (slot, guint, i);

              entries[i] = g_ptr_array_index (self->entries, e);
              values[i] = g_ptr_array_index (self->values, e);
            }
          result = akc_answer_build_choices (&q, entries, values, n,
                                             self->artifact_id, self->content_hash);
        }
    }
  akc_answer_query_clear (&q);
  return result;
}

/**
 * akc_knowledge_resolver_resolve_choice:
 * @self: a resolver
 * @choice_id: the entry id the user chose
 * @query: the question the choices were offered for
 * @now_ms: the current time in milliseconds since the Unix epoch
 *
 * Answers with the chosen entry when it is among the first eight entries
 * that match @query; otherwise a `miss` escalation saying the selected
 * local answer is unavailable. Corrupt and stale artifacts escalate as in
 * akc_knowledge_resolver_resolve().
 *
 * Returns: (transfer full): the answer envelope (`agentskit.chat.answer` v1)
 *
 * Since: 0.1
 */
AkcJsonValue *
akc_knowledge_resolver_resolve_choice (AkcKnowledgeResolver *self,
                                       const char           *choice_id,
                                       const char           *query,
                                       gint64                now_ms)
{
  AkcAnswerQuery q;
  AkcJsonValue *result;
  GArray *slot;

  g_return_val_if_fail (AKC_IS_KNOWLEDGE_RESOLVER (self), NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);
  g_return_val_if_fail (query != NULL, NULL);

  akc_answer_query_init (&q, query);
  result = check_usable (self, &q, now_ms);
  if (result == NULL)
    {
      slot = lookup (self, &q);
      for (guint i = 0; slot != NULL && i < MIN (slot->len, AKC_ANSWER_MAX_SUGGESTIONS) && result == NULL; i++)
        {
          guint e = g_array_index (slot, guint, i);

          if (g_strcmp0 (member_string (g_ptr_array_index (self->entries, e), "id", NULL), choice_id) == 0)
            result = answer_entry (self, &q, e);
        }
      if (result == NULL)
        result = akc_answer_build_escalation (&q, "miss", AKC_ANSWER_MESSAGE_UNAVAILABLE);
    }
  akc_answer_query_clear (&q);
  return result;
}

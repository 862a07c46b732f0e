/* akc-search-result.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-search-result.h"
#include "akc-search-result-private.h"

/**
 * AkcSearchResult:
 *
 * One match of [method@SqliteChatMemory.search_async]: the conversation, the
 * message whose text matched (none when the title did), a snippet of the
 * matching text around the match, on one line, and where in the snippet
 * the matched words are.
 *
 * Since: 0.1
 */

struct _AkcSearchResult
{
  GObject  parent_instance;

  char    *conversation_id;
  char    *message_id;
  char    *snippet;
  double   rank;
  GArray  *matches;   /* guint pairs: start, end (bytes) */
};

G_DEFINE_FINAL_TYPE (AkcSearchResult, akc_search_result, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONVERSATION_ID,
  PROP_MESSAGE_ID,
  PROP_SNIPPET,
  PROP_RANK,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

static void
akc_search_result_finalize (GObject *object)
{
  AkcSearchResult *self = (AkcSearchResult *)object;

  g_clear_pointer (&self->conversation_id, g_free);
  g_clear_pointer (&self->message_id, g_free);
  g_clear_pointer (&self->snippet, g_free);
  g_clear_pointer (&self->matches, g_array_unref);

  G_OBJECT_CLASS (akc_search_result_parent_class)->finalize (object);
}

static void
akc_search_result_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  AkcSearchResult *self = AKC_SEARCH_RESULT (object);

  switch (prop_id)
    {
    case PROP_CONVERSATION_ID:
      g_value_set_string (value, self->conversation_id);
      break;
    case PROP_MESSAGE_ID:
      g_value_set_string (value, self->message_id);
      break;
    case PROP_SNIPPET:
      g_value_set_string (value, self->snippet);
      break;
    case PROP_RANK:
      g_value_set_double (value, self->rank);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_search_result_class_init (AkcSearchResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_search_result_finalize;
  object_class->get_property = akc_search_result_get_property;

  /**
   * AkcSearchResult:conversation-id:
   *
   * The conversation that matched.
   *
   * Since: 0.1
   */
  props[PROP_CONVERSATION_ID] =
    g_param_spec_string ("conversation-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcSearchResult:message-id:
   *
   * The message whose text matched, or %NULL when the title of the
   * conversation did.
   *
   * Since: 0.1
   */
  props[PROP_MESSAGE_ID] =
    g_param_spec_string ("message-id", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcSearchResult:snippet:
   *
   * The matching text around the match, on one line; "…" marks where it
   * was shortened. [method@SearchResult.get_match] tells where the
   * matched words are in it.
   *
   * Since: 0.1
   */
  props[PROP_SNIPPET] =
    g_param_spec_string ("snippet", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * AkcSearchResult:rank:
   *
   * How well it matched (the BM25 score of SQLite's FTS5): lower is
   * better. Results come best first.
   *
   * Since: 0.1
   */
  props[PROP_RANK] =
    g_param_spec_double ("rank", NULL, NULL,
                         -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
akc_search_result_init (AkcSearchResult *self)
{
  self->matches = g_array_new (FALSE, FALSE, sizeof (guint));
}

AkcSearchResult *
akc_search_result_new_from_marked (const char *conversation_id,
                                   const char *message_id,
                                   const char *marked,
                                   double      rank)
{
  AkcSearchResult *self = g_object_new (AKC_TYPE_SEARCH_RESULT, NULL);
  g_autoptr(GString) snippet = g_string_new (NULL);
  gboolean open = FALSE;
  gboolean space = FALSE;

  self->conversation_id = g_strdup (conversation_id);
  self->message_id = g_strdup (message_id);
  self->rank = rank;

  /* One line: line breaks and tabs become spaces, runs of them one. */
  for (const char *p = marked != NULL ? marked : ""; *p != '\0'; p++)
    {
      guint offset;

      if (*p == AKC_SEARCH_MATCH_OPEN || *p == AKC_SEARCH_MATCH_CLOSE)
        {
          gboolean opens = *p == AKC_SEARCH_MATCH_OPEN;

          if (opens == open)
            continue;
          if (space && opens)
            {
              g_string_append_c (snippet, ' ');
              space = FALSE;
            }
          offset = snippet->len;
          g_array_append_val (self->matches, offset);
          open = opens;
          continue;
        }

      if (*p == '\n' || *p == '\r' || *p == '\t' || *p == ' ' || ((guchar) *p < 0x20))
        {
          space = snippet->len > 0;
          continue;
        }

      if (space)
        g_string_append_c (snippet, ' ');
      space = FALSE;
      g_string_append_c (snippet, *p);
    }

  if (open)
    {
      guint offset = snippet->len;

      g_array_append_val (self->matches, offset);
    }

  self->snippet = g_utf8_make_valid (snippet->str, snippet->len);

  return self;
}

/**
 * akc_search_result_get_conversation_id:
 * @self: a #AkcSearchResult
 *
 * Gets the conversation that matched.
 *
 * Returns: (transfer none): its id
 *
 * Since: 0.1
 */
const char *
akc_search_result_get_conversation_id (AkcSearchResult *self)
{
  g_return_val_if_fail (AKC_IS_SEARCH_RESULT (self), NULL);

  return self->conversation_id;
}

/**
 * akc_search_result_get_message_id:
 * @self: a #AkcSearchResult
 *
 * Gets the message whose text matched.
 *
 * Returns: (transfer none) (nullable): its id, or %NULL when the title of
 *   the conversation matched
 *
 * Since: 0.1
 */
const char *
akc_search_result_get_message_id (AkcSearchResult *self)
{
  g_return_val_if_fail (AKC_IS_SEARCH_RESULT (self), NULL);

  return self->message_id;
}

/**
 * akc_search_result_get_snippet:
 * @self: a #AkcSearchResult
 *
 * Gets the matching text around the match, on one line.
 *
 * Returns: (transfer none): the snippet
 *
 * Since: 0.1
 */
const char *
akc_search_result_get_snippet (AkcSearchResult *self)
{
  g_return_val_if_fail (AKC_IS_SEARCH_RESULT (self), NULL);

  return self->snippet;
}

/**
 * akc_search_result_get_rank:
 * @self: a #AkcSearchResult
 *
 * Gets how well it matched: lower is better.
 *
 * Returns: the rank
 *
 * Since: 0.1
 */
double
akc_search_result_get_rank (AkcSearchResult *self)
{
  g_return_val_if_fail (AKC_IS_SEARCH_RESULT (self), 0);

  return self->rank;
}

/**
 * akc_search_result_get_n_matches:
 * @self: a #AkcSearchResult
 *
 * Gets how many matched words (or runs of them) the snippet shows.
 *
 * Returns: the number of matches in the snippet
 *
 * Since: 0.1
 */
guint
akc_search_result_get_n_matches (AkcSearchResult *self)
{
  g_return_val_if_fail (AKC_IS_SEARCH_RESULT (self), 0);

  return self->matches->len / 2;
}

/**
 * akc_search_result_get_match:
 * @self: a #AkcSearchResult
 * @index: which match, from 0
 * @start: (out) (optional): where to store the byte offset in the snippet
 *   where it starts
 * @end: (out) (optional): where to store the byte offset just after it
 *
 * Gets where a match is in [property@SearchResult:snippet], in bytes of
 * its UTF-8 text (the indices Pango attributes take), so it can
 * be highlighted.
 *
 * Returns: %TRUE if there is such a match
 *
 * Since: 0.1
 */
gboolean
akc_search_result_get_match (AkcSearchResult *self,
                             guint            index,
                             guint           *start,
                             guint           *end)
{
  g_return_val_if_fail (AKC_IS_SEARCH_RESULT (self), FALSE);

  if (index >= self->matches->len / 2)
    return FALSE;

  if (start != NULL)
    *start = g_array_index (self->matches, guint, 2 * index);
  if (end != NULL)
    *end = g_array_index (self->matches, guint, 2 * index + 1);

  return TRUE;
}

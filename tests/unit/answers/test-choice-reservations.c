/* test-choice-reservations.c: AkcChoiceReservations (application.md §9.5)
 *
 * SPDX-License-Identifier: MIT
 *
 * Every `choiceReservations` vector of application/deterministic.json (the
 * choice lists come from the resolver's choices decisions, framed the way
 * the adapter frames them, §9.4), plus the bounds at n and n + 1, the
 * least-recently-used order, claimed reservations under eviction pressure,
 * isolation between sessions and settling exactly once.
 */

#include "config.h"

#include <string.h>

#include "akc-answers-test.h"

#define MESSAGE_ID "user-1"

static AkcJsonValue *
object2 (const char   *n1,
         AkcJsonValue *v1,
         const char   *n2,
         AkcJsonValue *v2)
{
  const char *names[] = { n1, n2 };
  AkcJsonValue *values[] = { v1, v2 };
  AkcJsonValue *object = akc_json_value_new_object (names, values, n2 != NULL ? 2 : 1);

  akc_json_value_unref (v1);
  if (v2 != NULL)
    akc_json_value_unref (v2);
  return object;
}

static AkcJsonValue *
str (const char *s)
{
  return akc_json_value_new_string (s, -1);
}

/* A choice-list frame as the adapter emits it (§9.4): @ids, @labels and
 * @values have @n items. */
static AkcJsonValue *
make_frame (const char         *instance_id,
            const char         *prompt,
            const char * const *ids,
            const char * const *labels,
            const char * const *values,
            gsize               n)
{
  g_autoptr(GPtrArray) choices = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  const char *choice_names[] = { "id", "label", "description" };
  const char *frame_names[] = { "componentKey", "instanceId", "props", "fallback" };
  AkcJsonValue *frame_values[4];
  AkcJsonValue *frame;
  g_autoptr(GString) summary = g_string_new (prompt);

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *v[] = { str (ids[i]), str (labels[i]), str (values[i]) };

      g_ptr_array_add (choices, akc_json_value_new_object (choice_names, v, 3));
      for (guint j = 0; j < 3; j++)
        akc_json_value_unref (v[j]);
      g_string_append_printf (summary, "%s%s", i == 0 ? " " : ", ", labels[i]);
    }
  g_string_append_c (summary, '.');

  frame_values[0] = str ("choice-list");
  frame_values[1] = str (instance_id);
  frame_values[2] = object2 ("prompt", str (prompt),
                             "choices", akc_json_value_new_array ((AkcJsonValue * const *) choices->pdata, choices->len));
  frame_values[3] = object2 ("kind", str ("choice-list"), "summary", str (summary->str));
  frame = akc_json_value_new_object (frame_names, frame_values, 4);
  for (guint j = 0; j < 4; j++)
    akc_json_value_unref (frame_values[j]);
  return frame;
}

/* @frame with its instance id and/or prompt replaced. */
static AkcJsonValue *
frame_variant (AkcJsonValue *frame,
               const char   *instance_id,
               gboolean      mutate_props)
{
  AkcJsonValue *props = akc_json_value_get_member (frame, "props");
  AkcJsonValue *choices = akc_json_value_get_member (props, "choices");
  gsize n = akc_json_value_get_length (choices);
  g_autofree const char **ids = g_new0 (const char *, n + 1);
  g_autofree const char **labels = g_new0 (const char *, n + 1);
  g_autofree const char **values = g_new0 (const char *, n + 1);
  g_autofree char *prompt = NULL;

  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *c = akc_json_value_get_element (choices, i);

      ids[i] = akc_json_value_get_string (akc_json_value_get_member (c, "id"), NULL);
      labels[i] = akc_json_value_get_string (akc_json_value_get_member (c, "label"), NULL);
      values[i] = akc_json_value_get_string (akc_json_value_get_member (c, "description"), NULL);
    }
  prompt = g_strconcat (akc_json_value_get_string (akc_json_value_get_member (props, "prompt"), NULL),
                        mutate_props ? " (tampered)" : "", NULL);
  if (instance_id == NULL)
    instance_id = akc_json_value_get_string (akc_json_value_get_member (frame, "instanceId"), NULL);
  return make_frame (instance_id, prompt, ids, labels, values, n);
}

/* The adapter's frame for the choices decision of @query (§9.4). */
static AkcJsonValue *
ask_frame (AkcKnowledgeResolver *resolver,
           const char           *query)
{
  g_autoptr(AkcJsonValue) decision =
    akc_knowledge_resolver_resolve (resolver, query, akc_answers_test_ms ("2026-07-13T12:00:00.000Z"));
  AkcJsonValue *suggestions = akc_json_value_get_member (decision, "suggestions");
  gsize n;
  g_autofree const char **ids = NULL, **labels = NULL, **values = NULL;

  g_assert_nonnull (suggestions);
  n = akc_json_value_get_length (suggestions);
  ids = g_new0 (const char *, n + 1);
  labels = g_new0 (const char *, n + 1);
  values = g_new0 (const char *, n + 1);
  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *s = akc_json_value_get_element (suggestions, i);

      ids[i] = akc_json_value_get_string (akc_json_value_get_member (s, "id"), NULL);
      labels[i] = akc_json_value_get_string (akc_json_value_get_member (s, "label"), NULL);
      values[i] = akc_json_value_get_string (akc_json_value_get_member (s, "value"), NULL);
    }
  return make_frame ("deterministic-choices-" MESSAGE_ID,
                     akc_json_value_get_string (akc_json_value_get_member (decision, "message"), NULL),
                     ids, labels, values, n);
}

static const char *
opt_string (AkcJsonValue *object,
            const char   *name)
{
  AkcJsonValue *v = akc_json_value_get_member (object, name);

  return v != NULL ? akc_json_value_get_string (v, NULL) : NULL;
}

static AkcJsonValue *
flag (const char *name)
{
  return object2 (name, akc_json_value_new_boolean (TRUE), NULL, NULL);
}

static void
test_fixture (const AkcFixtureCase *fc,
              gconstpointer         user_data)
{
  g_autoptr(AkcKnowledgeResolver) resolver =
    akc_answers_test_resolver (opt_string (fc->input, "artifact"));
  g_autoptr(AkcChoiceReservations) reservations = akc_choice_reservations_new ();
  g_autoptr(GHashTable) frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) akc_json_value_unref);
  g_autoptr(GHashTable) held = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) akc_json_value_unref);
  AkcJsonValue *steps = akc_json_value_get_member (fc->input, "steps");
  g_autoptr(AkcJsonValue) actual = NULL;

  g_assert_cmpuint (akc_choice_reservations_get_max_sessions (reservations), ==, 256);
  g_assert_cmpuint (akc_choice_reservations_get_max_instances (reservations), ==, 256);

  for (gsize i = 0; i < akc_json_value_get_length (steps); i++)
    {
      AkcJsonValue *step = akc_json_value_get_element (steps, i);
      AkcJsonValue *ask = akc_json_value_get_member (step, "ask");
      AkcJsonValue *submit = akc_json_value_get_member (step, "submit");
      const char *name;

      if (ask != NULL)
        {
          AkcJsonValue *repeat = akc_json_value_get_member (ask, "repeatSessions");
          guint n = repeat != NULL ? (guint) akc_json_value_get_number (repeat) : 0;
          const char *session = opt_string (ask, "sessionId");
          AkcJsonValue *frame = ask_frame (resolver, opt_string (ask, "query"));

          if (repeat == NULL)
            akc_choice_reservations_remember (reservations, session, frame);
          for (guint k = 0; k < n; k++)
            {
              g_autofree char *id = g_strdup_printf ("%s%u", session, k);

              akc_choice_reservations_remember (reservations, id, frame);
            }
          g_hash_table_replace (frames, g_strdup (opt_string (ask, "as")), frame);
          g_ptr_array_add (results, flag ("asked"));
        }
      else if (submit != NULL)
        {
          AkcJsonValue *frame = g_hash_table_lookup (frames, opt_string (submit, "frame"));
          AkcJsonValue *mutate = akc_json_value_get_member (submit, "mutateProps");
          g_autoptr(AkcJsonValue) variant = NULL;
          g_autoptr(AkcChoiceSubmission) submission = NULL;
          g_autoptr(GError) error = NULL;

          g_assert_nonnull (frame);
          variant = frame_variant (frame, opt_string (submit, "instanceId"),
                                   mutate != NULL && akc_json_value_get_boolean (mutate));
          /* Through the hook, as a view calls it. */
          submission = akc_choice_reservations_submission_func (variant, opt_string (submit, "choiceId"),
                                                                opt_string (submit, "sessionId"),
                                                                reservations, &error);
          g_assert_no_error (error);
          if (submission == NULL)
            g_ptr_array_add (results, object2 ("kind", str ("not-deterministic"), NULL, NULL));
          else if (akc_choice_submission_get_kind (submission) == AKC_CHOICE_SUBMISSION_UNAVAILABLE)
            g_ptr_array_add (results, object2 ("kind", str ("unavailable"), NULL, NULL));
          else
            {
              g_ptr_array_add (results, object2 ("kind", str ("reservation"),
                                                 "value", str (akc_choice_submission_get_value (submission))));
              if (opt_string (submit, "hold") != NULL)
                g_hash_table_replace (held, g_strdup (opt_string (submit, "hold")),
                                      g_object_ref (submission));
            }
        }
      else if ((name = opt_string (step, "release")) != NULL)
        {
          g_autoptr(GError) error = NULL;

          g_assert_true (akc_choice_submission_release (g_hash_table_lookup (held, name), &error));
          g_assert_no_error (error);
          g_ptr_array_add (results, flag ("released"));
        }
      else if ((name = opt_string (step, "commit")) != NULL)
        {
          g_autoptr(GError) error = NULL;

          g_assert_true (akc_choice_submission_commit (g_hash_table_lookup (held, name), &error));
          g_assert_no_error (error);
          g_ptr_array_add (results, flag ("committed"));
        }
      else if ((name = opt_string (step, "releaseSession")) != NULL)
        {
          akc_choice_reservations_release_session (reservations, name);
          g_ptr_array_add (results, flag ("releasedSession"));
        }
      else
        g_assert_not_reached ();
    }

  actual = object2 ("results", akc_json_value_new_array ((AkcJsonValue * const *) results->pdata,
                                                         results->len), NULL, NULL);
  akc_assert_json_equal (actual, fc->expect);
}

/* Own vectors ------------------------------------------------------------ */

static const char * const IDS[] = { "a", "b" };
static const char * const LABELS[] = { "Alpha", "Beta" };
static const char * const VALUES[] = { "alpha value", "beta value" };

static AkcJsonValue *
numbered_frame (guint n)
{
  g_autofree char *id = g_strdup_printf ("deterministic-choices-m%u", n);

  return make_frame (id, "Choose.", IDS, LABELS, VALUES, 2);
}

static AkcChoiceReservations *
bounded (guint max_sessions,
         guint max_instances)
{
  return g_object_new (AKC_TYPE_CHOICE_RESERVATIONS,
                       "max-sessions", max_sessions,
                       "max-instances", max_instances,
                       NULL);
}

/* AKC_CHOICE_SUBMISSION_RESERVATION, UNAVAILABLE, or -1 for %NULL */
static int
try_claim (AkcChoiceReservations *r,
           AkcJsonValue          *frame,
           const char            *choice,
           const char            *session,
           AkcChoiceSubmission  **out)
{
  g_autoptr(AkcChoiceSubmission) s = akc_choice_reservations_claim (r, frame, choice, session);
  int kind = s != NULL ? (int) akc_choice_submission_get_kind (s) : -1;

  if (out != NULL)
    *out = g_steal_pointer (&s);
  return kind;
}

static gboolean
claimable (AkcChoiceReservations *r,
           AkcJsonValue          *frame,
           const char            *session)
{
  g_autoptr(AkcChoiceSubmission) s = NULL;
  g_autoptr(GError) error = NULL;

  if (try_claim (r, frame, "a", session, &s) != AKC_CHOICE_SUBMISSION_RESERVATION)
    return FALSE;
  /* Leave it as it was. */
  g_assert_true (akc_choice_submission_release (s, &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
test_session_bound (void)
{
  g_autoptr(AkcChoiceReservations) r = bounded (3, 8);
  g_autoptr(AkcJsonValue) frame = numbered_frame (0);

  g_assert_cmpuint (akc_choice_reservations_get_max_sessions (r), ==, 3);
  /* n sessions fit. */
  g_assert_true (akc_choice_reservations_remember (r, "s0", frame));
  g_assert_true (akc_choice_reservations_remember (r, "s1", frame));
  g_assert_true (akc_choice_reservations_remember (r, "s2", frame));
  g_assert_cmpuint (akc_choice_reservations_get_n_sessions (r), ==, 3);
  g_assert_true (claimable (r, frame, "s0"));
  /* claimable() touched s0: s1 is now the least recently used. */
  g_assert_true (akc_choice_reservations_remember (r, "s3", frame));
  g_assert_cmpuint (akc_choice_reservations_get_n_sessions (r), ==, 3);
  g_assert_false (claimable (r, frame, "s1"));
  g_assert_true (claimable (r, frame, "s0"));
  g_assert_true (claimable (r, frame, "s2"));
  g_assert_true (claimable (r, frame, "s3"));
}

static void
test_lru_order (void)
{
  g_autoptr(AkcChoiceReservations) r = bounded (3, 8);
  g_autoptr(AkcJsonValue) frame = numbered_frame (0);
  g_autoptr(AkcJsonValue) other = numbered_frame (1);

  akc_choice_reservations_remember (r, "s0", frame);
  akc_choice_reservations_remember (r, "s1", frame);
  akc_choice_reservations_remember (r, "s2", frame);
  /* Remembering for an existing session marks it most recently used. */
  g_assert_true (akc_choice_reservations_remember (r, "s0", other));
  g_assert_true (akc_choice_reservations_remember (r, "s3", frame));   /* evicts s1 */
  g_assert_true (akc_choice_reservations_remember (r, "s4", frame));   /* evicts s2 */
  g_assert_false (claimable (r, frame, "s1"));
  g_assert_false (claimable (r, frame, "s2"));
  g_assert_true (claimable (r, other, "s0"));
  g_assert_true (akc_choice_reservations_remember (r, "s5", frame));   /* evicts s3 */
  g_assert_false (claimable (r, frame, "s3"));
  g_assert_true (claimable (r, frame, "s0"));
  g_assert_true (claimable (r, frame, "s4"));
  g_assert_true (claimable (r, frame, "s5"));
}

static void
test_claimed_survives (void)
{
  g_autoptr(AkcChoiceReservations) r = bounded (2, 8);
  g_autoptr(AkcJsonValue) frame = numbered_frame (0);
  g_autoptr(AkcChoiceSubmission) held0 = NULL;
  g_autoptr(AkcChoiceSubmission) held1 = NULL;
  g_autoptr(GError) error = NULL;

  akc_choice_reservations_remember (r, "s0", frame);
  akc_choice_reservations_remember (r, "s1", frame);
  g_assert_cmpint (try_claim (r, frame, "a", "s0", &held0), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  akc_choice_reservations_remember (r, "s1", frame);   /* s0 is now the oldest */
  /* Pressure: s0 is least recently used but claimed; s1 goes. */
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *id = g_strdup_printf ("x%u", i);

      g_assert_true (akc_choice_reservations_remember (r, id, frame));
      g_assert_cmpuint (akc_choice_reservations_get_n_sessions (r), ==, 2);
    }
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "s0"), ==, 1);
  g_assert_false (claimable (r, frame, "s1"));

  /* Every session claimed: nothing is remembered, nothing evicted. */
  g_assert_cmpint (try_claim (r, frame, "a", "x49", &held1), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_false (akc_choice_reservations_remember (r, "late", frame));
  g_assert_cmpuint (akc_choice_reservations_get_n_sessions (r), ==, 2);
  g_assert_cmpint (try_claim (r, frame, "a", "late", NULL), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);

  /* The held reservation still commits. */
  g_assert_true (akc_choice_submission_commit (held0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (akc_choice_reservations_get_n_sessions (r), ==, 1);
  g_assert_true (akc_choice_reservations_remember (r, "late", frame));
}

static void
test_instance_bound (void)
{
  g_autoptr(AkcChoiceReservations) r = bounded (8, 2);
  g_autoptr(AkcJsonValue) f0 = numbered_frame (0);
  g_autoptr(AkcJsonValue) f1 = numbered_frame (1);
  g_autoptr(AkcJsonValue) f2 = numbered_frame (2);
  g_autoptr(AkcJsonValue) f3 = numbered_frame (3);
  g_autoptr(AkcJsonValue) f4 = numbered_frame (4);
  g_autoptr(AkcChoiceSubmission) h1 = NULL;
  g_autoptr(AkcChoiceSubmission) h3 = NULL;

  g_assert_cmpuint (akc_choice_reservations_get_max_instances (r), ==, 2);
  g_assert_true (akc_choice_reservations_remember (r, "s", f0));
  g_assert_true (akc_choice_reservations_remember (r, "s", f1));
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "s"), ==, 2);
  g_assert_true (claimable (r, f0, "s"));
  /* n + 1: the oldest goes (claiming does not make an instance younger). */
  g_assert_true (akc_choice_reservations_remember (r, "s", f2));
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "s"), ==, 2);
  g_assert_false (claimable (r, f0, "s"));
  g_assert_true (claimable (r, f1, "s"));
  /* The oldest unclaimed one goes, never the claimed one. */
  g_assert_cmpint (try_claim (r, f1, "b", "s", &h1), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_true (akc_choice_reservations_remember (r, "s", f3));
  g_assert_false (claimable (r, f2, "s"));
  g_assert_cmpint (try_claim (r, f3, "a", "s", &h3), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_false (akc_choice_reservations_remember (r, "s", f4));
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "s"), ==, 2);
  g_assert_cmpstr (akc_choice_submission_get_value (h1), ==, "beta value");
  g_assert_cmpstr (akc_choice_submission_get_value (h3), ==, "alpha value");
}

static void
test_replace_in_place (void)
{
  g_autoptr(AkcChoiceReservations) r = bounded (8, 2);
  g_autoptr(AkcJsonValue) f0 = numbered_frame (0);
  g_autoptr(AkcJsonValue) f1 = numbered_frame (1);
  g_autoptr(AkcJsonValue) f2 = numbered_frame (2);
  g_autoptr(AkcJsonValue) f0b = frame_variant (f0, NULL, TRUE);
  g_autoptr(AkcJsonValue) f1b = frame_variant (f1, NULL, TRUE);
  g_autoptr(AkcChoiceSubmission) held = NULL;
  g_autoptr(GError) error = NULL;

  akc_choice_reservations_remember (r, "s", f0);
  akc_choice_reservations_remember (r, "s", f1);
  /* Unclaimed: replaced, keeping its age. */
  g_assert_true (akc_choice_reservations_remember (r, "s", f0b));
  g_assert_false (claimable (r, f0, "s"));
  g_assert_true (claimable (r, f0b, "s"));
  akc_choice_reservations_remember (r, "s", f2);       /* evicts m0, still the oldest */
  g_assert_false (claimable (r, f0b, "s"));
  g_assert_true (claimable (r, f1, "s"));

  /* Claimed: left as it is. */
  g_assert_cmpint (try_claim (r, f1, "a", "s", &held), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_false (akc_choice_reservations_remember (r, "s", f1b));
  g_assert_true (akc_choice_submission_release (held, &error));
  g_assert_no_error (error);
  g_assert_true (claimable (r, f1, "s"));
}

static void
test_cross_session (void)
{
  g_autoptr(AkcChoiceReservations) r = akc_choice_reservations_new ();
  g_autoptr(AkcJsonValue) fa = numbered_frame (0);
  const char *other_values[] = { "b's alpha", "b's beta" };
  g_autoptr(AkcJsonValue) fb = make_frame ("deterministic-choices-m0", "Choose.", IDS, LABELS, other_values, 2);
  g_autoptr(AkcChoiceSubmission) sa = NULL;
  g_autoptr(AkcChoiceSubmission) sb = NULL;
  g_autoptr(GError) error = NULL;

  akc_choice_reservations_remember (r, "a", fa);
  /* An unknown session cannot consume a's choice. */
  g_assert_cmpint (try_claim (r, fa, "a", "b", NULL), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);
  akc_choice_reservations_remember (r, "b", fb);
  /* b's same instance id holds b's props: a's frame is refused there. */
  g_assert_cmpint (try_claim (r, fa, "a", "b", NULL), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);
  g_assert_cmpint (try_claim (r, fb, "a", "b", &sb), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_cmpstr (akc_choice_submission_get_value (sb), ==, "b's alpha");
  /* b's claim leaves a's untouched, and committing it leaves a's choices. */
  g_assert_cmpint (try_claim (r, fa, "a", "a", &sa), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_cmpstr (akc_choice_submission_get_value (sa), ==, "alpha value");
  g_assert_true (akc_choice_submission_commit (sb, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (akc_choice_reservations_get_n_sessions (r), ==, 1);
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "a"), ==, 1);
  /* A host frame is not the adapter's. */
  {
    g_autoptr(AkcJsonValue) host = frame_variant (fa, "host-choices", FALSE);

    g_assert_cmpint (try_claim (r, host, "a", "a", NULL), ==, -1);
  }
}

static void
test_settle_once (void)
{
  g_autoptr(AkcChoiceReservations) r = akc_choice_reservations_new ();
  g_autoptr(AkcJsonValue) frame = numbered_frame (0);
  g_autoptr(AkcJsonValue) frame2 = numbered_frame (1);
  g_autoptr(AkcChoiceSubmission) s1 = NULL;
  g_autoptr(AkcChoiceSubmission) s2 = NULL;
  g_autoptr(AkcChoiceSubmission) s3 = NULL;
  g_autoptr(GError) error = NULL;

  akc_choice_reservations_remember (r, "s", frame);
  akc_choice_reservations_remember (r, "s", frame2);

  /* Release, then a late commit does nothing: the choice is offered again. */
  g_assert_cmpint (try_claim (r, frame, "a", "s", &s1), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_false (akc_choice_submission_is_settled (s1));
  g_assert_cmpint (try_claim (r, frame, "b", "s", NULL), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);
  g_assert_true (akc_choice_submission_release (s1, &error));
  g_assert_true (akc_choice_submission_is_settled (s1));
  g_assert_true (akc_choice_submission_commit (s1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "s"), ==, 2);

  /* Claimed again; a second release of the old reservation does not
   * un-claim the new one. */
  g_assert_cmpint (try_claim (r, frame, "b", "s", &s2), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_assert_true (akc_choice_submission_release (s1, &error));
  g_assert_cmpint (try_claim (r, frame, "a", "s", NULL), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);

  /* Commit, then a late release does nothing: the choice is gone. */
  g_assert_true (akc_choice_submission_commit (s2, &error));
  g_assert_true (akc_choice_submission_release (s2, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (akc_choice_reservations_get_n_instances (r, "s"), ==, 1);
  g_assert_cmpint (try_claim (r, frame, "a", "s", NULL), ==, AKC_CHOICE_SUBMISSION_UNAVAILABLE);

  /* The last commit forgets the session; a reservation outliving the
   * reservations object still settles. */
  g_assert_cmpint (try_claim (r, frame2, "a", "s", &s3), ==, AKC_CHOICE_SUBMISSION_RESERVATION);
  g_clear_object (&r);
  g_assert_true (akc_choice_submission_commit (s3, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  akc_fixture_add_tests ("application/deterministic.json", "/reservations/fixtures",
                         "choiceReservations", test_fixture, NULL);
  g_test_add_func ("/reservations/session-bound", test_session_bound);
  g_test_add_func ("/reservations/lru-order", test_lru_order);
  g_test_add_func ("/reservations/claimed-survives", test_claimed_survives);
  g_test_add_func ("/reservations/instance-bound", test_instance_bound);
  g_test_add_func ("/reservations/replace-in-place", test_replace_in_place);
  g_test_add_func ("/reservations/cross-session", test_cross_session);
  g_test_add_func ("/reservations/settle-once", test_settle_once);

  return g_test_run ();
}

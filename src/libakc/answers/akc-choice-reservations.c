/* akc-choice-reservations.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-choice-reservations.h"

/**
 * AkcChoiceReservations:
 *
 * The choices the deterministic answer adapter offered, remembered per
 * session so that a later selection can be sent exactly once
 * ([application §9.5](wire-formats.html#application-9)).
 *
 * It keeps `session → (instance id → {props, choice id → value,
 * claimed})` under two bounds: [property@ChoiceReservations:max-sessions]
 * sessions and [property@ChoiceReservations:max-instances] choice lists per
 * session. A new session beyond the bound evicts the least recently used
 * session none of whose choices is claimed; a new choice list beyond the
 * bound evicts the session's oldest unclaimed one. When nothing can be
 * evicted the choices are not remembered. A claimed reservation is never
 * evicted.
 *
 * [method@ChoiceReservations.claim] answers the choice-submission hook
 * ([application §2.8](wire-formats.html#application-2)); [func@ChoiceReservations.submission_func] is
 * that hook with the reservations as its data. A reservation settles
 * once: [method@ChoiceSubmission.commit] forgets the choice list (and the
 * session when it was its last one), [method@ChoiceSubmission.release]
 * offers the choice again. A session never sees another session's
 * choices.
 *
 * Since: 0.1
 */

typedef struct {
  grefcount     ref;
  guint64       seq;        /* insertion order within its session */
  AkcJsonValue *props;
  GHashTable   *values;     /* choice id -> suggestion value */
  gboolean      claimed;
} Instance;

typedef struct {
  grefcount   ref;
  char       *id;
  guint64     used;         /* recency stamp */
  guint64     next_seq;
  GHashTable *instances;    /* instance id -> Instance */
} Session;

struct _AkcChoiceReservations
{
  GObject     parent_instance;

  guint       max_sessions;
  guint       max_instances;
  guint64     clock;
  GHashTable *sessions;     /* session id -> Session */
};

G_DEFINE_FINAL_TYPE (AkcChoiceReservations, akc_choice_reservations, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MAX_SESSIONS,
  PROP_MAX_INSTANCES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static Instance *
instance_ref (Instance *instance)
{
  g_ref_count_inc (&instance->ref);
  return instance;
}

static void
instance_unref (gpointer data)
{
  Instance *instance = data;

  if (!g_ref_count_dec (&instance->ref))
    return;
  g_clear_pointer (&instance->props, akc_json_value_unref);
  g_clear_pointer (&instance->values, g_hash_table_unref);
  g_free (instance);
}

static Session *
session_new (const char *id)
{
  Session *session = g_new0 (Session, 1);

  g_ref_count_init (&session->ref);
  session->id = g_strdup (id);
  session->instances = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, instance_unref);
  return session;
}

static Session *
session_ref (Session *session)
{
  g_ref_count_inc (&session->ref);
  return session;
}

static void
session_unref (gpointer data)
{
  Session *session = data;

  if (!g_ref_count_dec (&session->ref))
    return;
  g_clear_pointer (&session->instances, g_hash_table_unref);
  g_free (session->id);
  g_free (session);
}

static gboolean
session_has_claim (Session *session)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, session->instances);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Instance *) value)->claimed)
      return TRUE;
  return FALSE;
}

static void
akc_choice_reservations_finalize (GObject *object)
{
  AkcChoiceReservations *self = AKC_CHOICE_RESERVATIONS (object);

  g_clear_pointer (&self->sessions, g_hash_table_unref);

  G_OBJECT_CLASS (akc_choice_reservations_parent_class)->finalize (object);
}

static void
akc_choice_reservations_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  AkcChoiceReservations *self = AKC_CHOICE_RESERVATIONS (object);

  switch (prop_id)
    {
    case PROP_MAX_SESSIONS:
      g_value_set_uint (value, self->max_sessions);
      break;
    case PROP_MAX_INSTANCES:
      g_value_set_uint (value, self->max_instances);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_choice_reservations_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  AkcChoiceReservations *self = AKC_CHOICE_RESERVATIONS (object);

  switch (prop_id)
    {
    case PROP_MAX_SESSIONS:
      self->max_sessions = g_value_get_uint (value);
      break;
    case PROP_MAX_INSTANCES:
      self->max_instances = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
akc_choice_reservations_class_init (AkcChoiceReservationsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_choice_reservations_finalize;
  object_class->get_property = akc_choice_reservations_get_property;
  object_class->set_property = akc_choice_reservations_set_property;

  /**
   * AkcChoiceReservations:max-sessions:
   *
   * How many sessions are remembered at most.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_SESSIONS] =
    g_param_spec_uint ("max-sessions", NULL, NULL,
                       1, G_MAXUINT, AKC_CHOICE_RESERVATIONS_MAX_SESSIONS,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * AkcChoiceReservations:max-instances:
   *
   * How many choice lists one session remembers at most.
   *
   * Since: 0.1
   */
  properties[PROP_MAX_INSTANCES] =
    g_param_spec_uint ("max-instances", NULL, NULL,
                       1, G_MAXUINT, AKC_CHOICE_RESERVATIONS_MAX_INSTANCES,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
akc_choice_reservations_init (AkcChoiceReservations *self)
{
  self->max_sessions = AKC_CHOICE_RESERVATIONS_MAX_SESSIONS;
  self->max_instances = AKC_CHOICE_RESERVATIONS_MAX_INSTANCES;
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, session_unref);
}

/**
 * akc_choice_reservations_new:
 *
 * Creates empty reservations with the default bounds (256 sessions of 256
 * choice lists).
 *
 * Returns: (transfer full): the reservations
 *
 * Since: 0.1
 */
AkcChoiceReservations *
akc_choice_reservations_new (void)
{
  return g_object_new (AKC_TYPE_CHOICE_RESERVATIONS, NULL);
}

/**
 * akc_choice_reservations_get_max_sessions:
 * @self: choice reservations
 *
 * Gets the bound on the sessions remembered.
 *
 * Returns: the bound on remembered sessions
 *
 * Since: 0.1
 */
guint
akc_choice_reservations_get_max_sessions (AkcChoiceReservations *self)
{
  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (self), 0);

  return self->max_sessions;
}

/**
 * akc_choice_reservations_get_max_instances:
 * @self: choice reservations
 *
 * Gets the bound on the choice lists remembered per session.
 *
 * Returns: the bound on remembered choice lists per session
 *
 * Since: 0.1
 */
guint
akc_choice_reservations_get_max_instances (AkcChoiceReservations *self)
{
  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (self), 0);

  return self->max_instances;
}

static const char *
member_string (AkcJsonValue *object,
               const char   *name)
{
  AkcJsonValue *v;

  if (object == NULL || akc_json_value_get_kind (object) != AKC_JSON_KIND_OBJECT)
    return NULL;
  v = akc_json_value_get_member (object, name);
  if (v == NULL || akc_json_value_get_kind (v) != AKC_JSON_KIND_STRING)
    return NULL;
  return akc_json_value_get_string (v, NULL);
}

/* The least recently used session with no claimed choice, or NULL. */
static Session *
evictable_session (AkcChoiceReservations *self)
{
  GHashTableIter iter;
  gpointer value;
  Session *oldest = NULL;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Session *session = value;

      if ((oldest == NULL || session->used < oldest->used) && !session_has_claim (session))
        oldest = session;
    }
  return oldest;
}

/* The id of @session's oldest unclaimed choice list, or NULL. */
static const char *
evictable_instance (Session *session)
{
  GHashTableIter iter;
  gpointer key, value;
  const char *oldest_id = NULL;
  guint64 oldest_seq = G_MAXUINT64;

  g_hash_table_iter_init (&iter, session->instances);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Instance *instance = value;

      if (!instance->claimed && instance->seq < oldest_seq)
        {
          oldest_seq = instance->seq;
          oldest_id = key;
        }
    }
  return oldest_id;
}

/**
 * akc_choice_reservations_remember:
 * @self: choice reservations
 * @session_id: the session the choices were offered in
 * @frame: the choice-list render frame the adapter emitted: its
 *   `instanceId`, its `props` and the `id` and `description` (the
 *   suggestion value) of each of `props.choices`
 *
 * Remembers the choices of @frame for @session_id and marks the session
 * most recently used ([application §9.5](wire-formats.html#application-9)). A choice list with the same
 * instance id that is claimed is left as it is; one that is not claimed is
 * replaced in place. The bounds evict as described for
 * [class@ChoiceReservations]; when nothing can be evicted, or @frame has no
 * instance id, nothing is remembered.
 *
 * Returns: %TRUE if the choices are remembered
 *
 * Since: 0.1
 */
gboolean
akc_choice_reservations_remember (AkcChoiceReservations *self,
                                  const char            *session_id,
                                  AkcJsonValue          *frame)
{
  const char *instance_id;
  AkcJsonValue *props, *choices;
  Session *session;
  Instance *instance;
  gsize n;

  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (self), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);

  instance_id = member_string (frame, "instanceId");
  if (instance_id == NULL || akc_json_value_get_kind (frame) != AKC_JSON_KIND_OBJECT)
    return FALSE;
  props = akc_json_value_get_member (frame, "props");
  if (props == NULL || akc_json_value_get_kind (props) != AKC_JSON_KIND_OBJECT)
    return FALSE;

  session = g_hash_table_lookup (self->sessions, session_id);
  if (session == NULL)
    {
      if (g_hash_table_size (self->sessions) >= self->max_sessions)
        {
          Session *victim = evictable_session (self);

          if (victim == NULL)
            return FALSE;
          g_hash_table_remove (self->sessions, victim->id);
        }
      session = session_new (session_id);
      g_hash_table_insert (self->sessions, session->id, session);
    }
  session->used = ++self->clock;

  instance = g_hash_table_lookup (session->instances, instance_id);
  if (instance != NULL && instance->claimed)
    return FALSE;
  if (instance == NULL)
    {
      if (g_hash_table_size (session->instances) >= self->max_instances)
        {
          const char *victim = evictable_instance (session);

          if (victim == NULL)
            return FALSE;
          g_hash_table_remove (session->instances, victim);
        }
      instance = g_new0 (Instance, 1);
      g_ref_count_init (&instance->ref);
      instance->seq = session->next_seq++;
      g_hash_table_insert (session->instances, g_strdup (instance_id), instance);
    }

  /* Replace (or fill) in place: the list keeps its age. */
  g_clear_pointer (&instance->props, akc_json_value_unref);
  g_clear_pointer (&instance->values, g_hash_table_unref);
  instance->props = akc_json_value_ref (props);
  instance->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  choices = akc_json_value_get_member (props, "choices");
  n = choices != NULL && akc_json_value_get_kind (choices) == AKC_JSON_KIND_ARRAY
      ? akc_json_value_get_length (choices) : 0;
  for (gsize i = 0; i < n; i++)
    {
      AkcJsonValue *choice = akc_json_value_get_element (choices, i);
      const char *id = member_string (choice, "id");
      const char *value = member_string (choice, "description");

      if (value == NULL)
        value = member_string (choice, "label");
      if (id != NULL && value != NULL && !g_hash_table_contains (instance->values, id))
        g_hash_table_insert (instance->values, g_strdup (id), g_strdup (value));
    }

  return TRUE;
}

typedef struct {
  GWeakRef  owner;          /* AkcChoiceReservations */
  Session  *session;
  Instance *instance;
  char     *instance_id;
} Claim;

static void
claim_free (gpointer data)
{
  Claim *claim = data;

  g_weak_ref_clear (&claim->owner);
  session_unref (claim->session);
  instance_unref (claim->instance);
  g_free (claim->instance_id);
  g_free (claim);
}

/* Settles a claim. It only touches the session map it was made in, so a
 * late commit cannot delete a session that was forgotten and recreated
 * since; a reservation outliving the reservations object settles too. */
static gboolean
settle_claim (AkcChoiceSubmission  *submission,
              AkcChoiceSettlement   settlement,
              gpointer              user_data,
              GError              **error)
{
  Claim *claim = user_data;
  g_autoptr(AkcChoiceReservations) self = g_weak_ref_get (&claim->owner);

  if (settlement == AKC_CHOICE_SETTLEMENT_RELEASE)
    {
      claim->instance->claimed = FALSE;
      return TRUE;
    }

  claim->instance->claimed = FALSE;
  if (g_hash_table_lookup (claim->session->instances, claim->instance_id) == claim->instance)
    g_hash_table_remove (claim->session->instances, claim->instance_id);
  if (self != NULL &&
      g_hash_table_size (claim->session->instances) == 0 &&
      g_hash_table_lookup (self->sessions, claim->session->id) == claim->session)
    g_hash_table_remove (self->sessions, claim->session->id);

  return TRUE;
}

/**
 * akc_choice_reservations_claim:
 * @self: choice reservations
 * @frame: the decoded choice-list render frame the choice was selected in
 * @choice_id: the selected choice
 * @session_id: the session the view shows
 *
 * Answers the choice-submission hook (`resolveChoiceSubmission`,
 * [application §9.5](wire-formats.html#application-9)). The answer is “unavailable” when the session is
 * unknown, the frame's instance is unknown or already claimed, its
 * `props` differ from the remembered ones (compared structurally, §14 A9),
 * or the choice was not offered; but %NULL instead of “unavailable” when
 * the frame's `instanceId` does not start with
 * %AKC_CHOICE_RESERVATIONS_INSTANCE_PREFIX (the frame belongs to the
 * host). Otherwise the session becomes the most recently used, the
 * choice list is claimed, and the answer is a reservation of the
 * remembered value: committing it forgets the choice list (and the
 * session, when that was its last one and it was not forgotten and
 * recreated meanwhile); releasing it un-claims the list.
 *
 * Returns: (transfer full) (nullable): the answer, or %NULL for a host
 *   frame
 *
 * Since: 0.1
 */
AkcChoiceSubmission *
akc_choice_reservations_claim (AkcChoiceReservations *self,
                               AkcJsonValue          *frame,
                               const char            *choice_id,
                               const char            *session_id)
{
  const char *instance_id;
  const char *value;
  Session *session;
  Instance *instance;
  AkcJsonValue *props;
  Claim *claim;

  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (self), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  g_return_val_if_fail (choice_id != NULL, NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  instance_id = member_string (frame, "instanceId");
  if (instance_id == NULL || !g_str_has_prefix (instance_id, AKC_CHOICE_RESERVATIONS_INSTANCE_PREFIX))
    return NULL;

  session = g_hash_table_lookup (self->sessions, session_id);
  if (session == NULL)
    return akc_choice_submission_new_unavailable ();

  instance = g_hash_table_lookup (session->instances, instance_id);
  props = akc_json_value_get_member (frame, "props");
  if (instance == NULL || instance->claimed || props == NULL ||
      !akc_json_value_equal (props, instance->props))
    return akc_choice_submission_new_unavailable ();

  value = g_hash_table_lookup (instance->values, choice_id);
  if (value == NULL)
    return akc_choice_submission_new_unavailable ();

  session->used = ++self->clock;
  instance->claimed = TRUE;

  claim = g_new0 (Claim, 1);
  g_weak_ref_init (&claim->owner, self);
  claim->session = session_ref (session);
  claim->instance = instance_ref (instance);
  claim->instance_id = g_strdup (instance_id);

  return akc_choice_submission_new_reservation (value, settle_claim, claim, claim_free);
}

/**
 * akc_choice_reservations_release_session:
 * @self: choice reservations
 * @session_id: a session
 *
 * Forgets everything remembered for @session_id
 * (`releaseChoiceSession`). Reservations already handed out still settle,
 * but no longer affect a session of the same id made later.
 *
 * Since: 0.1
 */
void
akc_choice_reservations_release_session (AkcChoiceReservations *self,
                                         const char            *session_id)
{
  g_return_if_fail (AKC_IS_CHOICE_RESERVATIONS (self));
  g_return_if_fail (session_id != NULL);

  g_hash_table_remove (self->sessions, session_id);
}

/**
 * akc_choice_reservations_get_n_sessions:
 * @self: choice reservations
 *
 * Gets how many sessions are remembered.
 *
 * Returns: how many sessions are remembered
 *
 * Since: 0.1
 */
guint
akc_choice_reservations_get_n_sessions (AkcChoiceReservations *self)
{
  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (self), 0);

  return g_hash_table_size (self->sessions);
}

/**
 * akc_choice_reservations_get_n_instances:
 * @self: choice reservations
 * @session_id: a session
 *
 * Gets how many choice lists are remembered for @session_id.
 *
 * Returns: how many choice lists are remembered for @session_id
 *
 * Since: 0.1
 */
guint
akc_choice_reservations_get_n_instances (AkcChoiceReservations *self,
                                         const char            *session_id)
{
  Session *session;

  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (self), 0);
  g_return_val_if_fail (session_id != NULL, 0);

  session = g_hash_table_lookup (self->sessions, session_id);
  return session != NULL ? g_hash_table_size (session->instances) : 0;
}

/**
 * akc_choice_reservations_submission_func: (skip)
 * @frame: the decoded choice-list render frame
 * @choice_id: the selected choice
 * @session_id: the session the view shows
 * @user_data: an #AkcChoiceReservations
 * @error: return location for a #GError (never set)
 *
 * [callback@ChoiceSubmissionFunc] over the reservations in @user_data:
 * what [method@ChoiceReservations.claim] answers.
 *
 * Returns: (transfer full) (nullable): the answer, or %NULL for a host
 *   frame
 *
 * Since: 0.1
 */
AkcChoiceSubmission *
akc_choice_reservations_submission_func (AkcJsonValue  *frame,
                                         const char    *choice_id,
                                         const char    *session_id,
                                         gpointer       user_data,
                                         GError       **error)
{
  g_return_val_if_fail (AKC_IS_CHOICE_RESERVATIONS (user_data), NULL);

  return akc_choice_reservations_claim (user_data, frame, choice_id, session_id);
}

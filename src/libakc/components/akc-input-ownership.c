/* akc-input-ownership.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-component-resolution.h"
#include "akc-input-ownership.h"
#include "akc-message.h"

/**
 * AkcInputOwnership:
 *
 * The set of resolved component instances of one view, and the rule that
 * picks the component owning input ([application §12.4](wire-formats.html#application-12)): **the latest
 * unresolved interactive component owns input**.
 *
 * A view keeps one `AkcInputOwnership` for as long as it lives and resets
 * it ([method@InputOwnership.reset]) when the session changes (§12.7). It
 * marks an instance resolved before telling the host about an event, and
 * un-marks it where §12.7 says the person may try again. After any change
 * to the messages or to the set, [method@InputOwnership.find_active] says
 * which component presentation is active: while there is one, the keyboard
 * focus belongs to it and every other component is inert; when there is
 * none, input returns to the composer.
 *
 * Instances are keyed by their instance id alone, so two copies of one
 * frame ([application §14](wire-formats.html#application-14), A14) resolve together.
 *
 * Since: 0.1
 */
struct _AkcInputOwnership
{
  GObject     parent_instance;

  GHashTable *resolved;   /* instance id → AkcComponentResolution or NULL */
  gboolean    navigation_owns_input;
};

G_DEFINE_FINAL_TYPE (AkcInputOwnership, akc_input_ownership, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
akc_input_ownership_finalize (GObject *object)
{
  AkcInputOwnership *self = AKC_INPUT_OWNERSHIP (object);

  g_clear_pointer (&self->resolved, g_hash_table_unref);

  G_OBJECT_CLASS (akc_input_ownership_parent_class)->finalize (object);
}

static void
akc_input_ownership_class_init (AkcInputOwnershipClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = akc_input_ownership_finalize;

  /**
   * AkcInputOwnership::changed:
   * @self: the set
   * @instance_id: (nullable): the instance that was marked or un-marked,
   *   or %NULL when the whole set was reset
   *
   * The set of resolved instances changed: the active component may have
   * changed too, so look it up again with
   * [method@InputOwnership.find_active]. Emitted only on a real change.
   *
   * Since: 0.1
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
unref_resolution (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static void
akc_input_ownership_init (AkcInputOwnership *self)
{
  self->resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref_resolution);
  self->navigation_owns_input = TRUE;
}

/**
 * akc_input_ownership_new:
 *
 * Creates an empty set: no instance is resolved.
 *
 * Returns: (transfer full): a new #AkcInputOwnership
 *
 * Since: 0.1
 */
AkcInputOwnership *
akc_input_ownership_new (void)
{
  return g_object_new (AKC_TYPE_INPUT_OWNERSHIP, NULL);
}

/**
 * akc_input_ownership_mark_resolved:
 * @self: a set of resolved instances
 * @instance_id: the instance id of a component frame
 *
 * Marks an instance resolved ([application §12.7](wire-formats.html#application-12), step 2 of a selection
 * or an interaction). A view calls it before it hands the event to the
 * host; when it returns %FALSE the instance was already resolved and the
 * event must be ignored (step 1).
 *
 * Returns: %TRUE if the instance was not resolved before
 *
 * Since: 0.1
 */
gboolean
akc_input_ownership_mark_resolved (AkcInputOwnership *self,
                                   const char        *instance_id)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), FALSE);
  g_return_val_if_fail (instance_id != NULL, FALSE);

  if (g_hash_table_contains (self->resolved, instance_id))
    return FALSE;

  g_hash_table_insert (self->resolved, g_strdup (instance_id), NULL);
  g_signal_emit (self, signals[CHANGED], 0, instance_id);

  return TRUE;
}

/**
 * akc_input_ownership_resolve:
 * @self: a #AkcInputOwnership
 * @resolution: how an instance was answered
 *
 * Marks the instance of @resolution resolved and keeps how it was
 * answered, so that a presentation can show the answer (the chosen
 * option). An instance already marked keeps its first resolution.
 *
 * Returns: %TRUE if the set changed
 *
 * Since: 0.1
 */
gboolean
akc_input_ownership_resolve (AkcInputOwnership      *self,
                             AkcComponentResolution *resolution)
{
  const char *instance_id;
  gpointer current = NULL;

  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), FALSE);
  g_return_val_if_fail (AKC_IS_COMPONENT_RESOLUTION (resolution), FALSE);

  instance_id = akc_component_resolution_get_instance_id (resolution);
  if (g_hash_table_lookup_extended (self->resolved, instance_id, NULL, &current) && current != NULL)
    return FALSE;

  g_hash_table_insert (self->resolved, g_strdup (instance_id), g_object_ref (resolution));
  g_signal_emit (self, signals[CHANGED], 0, instance_id);

  return TRUE;
}

/**
 * akc_input_ownership_get_resolution:
 * @self: a #AkcInputOwnership
 * @instance_id: an instance id
 *
 * Gets how a resolved instance was answered.
 *
 * Returns: (transfer none) (nullable): the resolution, or %NULL when the
 *   instance is not resolved or was resolved without one (set aside)
 *
 * Since: 0.1
 */
AkcComponentResolution *
akc_input_ownership_get_resolution (AkcInputOwnership *self,
                                    const char        *instance_id)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), NULL);
  g_return_val_if_fail (instance_id != NULL, NULL);

  return g_hash_table_lookup (self->resolved, instance_id);
}

/**
 * akc_input_ownership_unmark_resolved:
 * @self: a set of resolved instances
 * @instance_id: the instance id of a component frame
 *
 * Makes a resolved instance usable again, where [application §12.7](wire-formats.html#application-12)
 * un-resolves it after a failure (the interaction callback, an action
 * proposal, the choice submission hook, or sending the reserved choice
 * failed). If it is the latest interactive component, it owns input
 * again.
 *
 * Returns: %TRUE if the instance was resolved
 *
 * Since: 0.1
 */
gboolean
akc_input_ownership_unmark_resolved (AkcInputOwnership *self,
                                     const char        *instance_id)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), FALSE);
  g_return_val_if_fail (instance_id != NULL, FALSE);

  if (!g_hash_table_remove (self->resolved, instance_id))
    return FALSE;

  g_signal_emit (self, signals[CHANGED], 0, instance_id);

  return TRUE;
}

/**
 * akc_input_ownership_is_resolved:
 * @self: a set of resolved instances
 * @instance_id: the instance id of a component frame
 *
 * Tells whether an instance is resolved: its widget is disabled and
 * ignores further events ([application §12.2](wire-formats.html#application-12), §12.7).
 *
 * Returns: %TRUE if the instance is resolved
 *
 * Since: 0.1
 */
gboolean
akc_input_ownership_is_resolved (AkcInputOwnership *self,
                                 const char        *instance_id)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), FALSE);
  g_return_val_if_fail (instance_id != NULL, FALSE);

  return g_hash_table_contains (self->resolved, instance_id);
}

/**
 * akc_input_ownership_get_n_resolved:
 * @self: a set of resolved instances
 *
 * Gets how many instances are resolved.
 *
 * Returns: how many instances are resolved
 *
 * Since: 0.1
 */
guint
akc_input_ownership_get_n_resolved (AkcInputOwnership *self)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), 0);

  return g_hash_table_size (self->resolved);
}

/**
 * akc_input_ownership_reset:
 * @self: a set of resolved instances
 *
 * Forgets every resolved instance, as a view does when its session (or its
 * controlled `sessionId`) changes ([application §12.7](wire-formats.html#application-12)).
 *
 * Since: 0.1
 */
void
akc_input_ownership_reset (AkcInputOwnership *self)
{
  g_return_if_fail (AKC_IS_INPUT_OWNERSHIP (self));

  if (g_hash_table_size (self->resolved) == 0)
    return;

  g_hash_table_remove_all (self->resolved);
  g_signal_emit (self, signals[CHANGED], 0, NULL);
}

/**
 * akc_input_ownership_set_navigation_owns_input:
 * @self: a set of resolved instances
 * @owns_input: whether a standard source list or link card may own input
 *
 * Sets whether the standard navigation components, `source-list` and
 * `link-card`, may become the active component. They may by default, as
 * [application §12.4](wire-formats.html#application-12) says (they declare the `open` event). A host that
 * treats them as navigation rather than questions, as the GTK port does
 * (docs/port-decisions.md), passes %FALSE: they never own input then, and
 * an older question is found behind them.
 *
 * Since: 0.1
 */
void
akc_input_ownership_set_navigation_owns_input (AkcInputOwnership *self,
                                               gboolean           owns_input)
{
  g_return_if_fail (AKC_IS_INPUT_OWNERSHIP (self));

  owns_input = !!owns_input;
  if (self->navigation_owns_input == owns_input)
    return;

  self->navigation_owns_input = owns_input;
  g_signal_emit (self, signals[CHANGED], 0, NULL);
}

/**
 * akc_input_ownership_get_navigation_owns_input:
 * @self: a set of resolved instances
 *
 * Gets whether a standard source list or link card may own input.
 *
 * Returns: %TRUE if they may (the default)
 *
 * Since: 0.1
 */
gboolean
akc_input_ownership_get_navigation_owns_input (AkcInputOwnership *self)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), TRUE);

  return self->navigation_owns_input;
}

static gboolean
is_navigation (AkcResolvedComponent *resolved)
{
  const char *key = akc_resolved_component_get_component_key (resolved);

  return akc_resolved_component_is_standard (resolved) &&
         (g_strcmp0 (key, "source-list") == 0 || g_strcmp0 (key, "link-card") == 0);
}

/* A component presentation that may own input: it resolved against the
 * manifest, its definition declares an event, its instance is open (and
 * it is not navigation, when navigation does not own input). */
static gboolean
owns_input (AkcInputOwnership *self,
            AkcPresentation   *presentation)
{
  AkcResolvedComponent *resolved;

  if (akc_presentation_get_kind (presentation) != AKC_PRESENTATION_COMPONENT)
    return FALSE;

  resolved = akc_presentation_get_resolved (presentation);

  return resolved != NULL &&
         akc_resolved_component_is_interactive (resolved) &&
         (self->navigation_owns_input || !is_navigation (resolved)) &&
         !g_hash_table_contains (self->resolved, akc_resolved_component_get_instance_id (resolved));
}

/**
 * akc_input_ownership_find_active:
 * @self: a set of resolved instances
 * @messages: the conversation, a list of [class@Message]
 * @manifest: (nullable): the manifest components resolve against, or
 *   %NULL when none is configured
 * @message_position: (out) (optional): return location for the position of
 *   the active component's message in @messages
 * @presentation_position: (out) (optional): return location for the
 *   position of the active component among that message's presentations
 *   ([func@present_message])
 *
 * Finds the component that owns input ([application §12.4](wire-formats.html#application-12)). The
 * messages are scanned from newest to oldest and, within each message, its
 * presentations ([func@present_message] with @manifest) from last to
 * first; the active component is the first component presentation that
 *
 * - resolves against @manifest,
 * - has a definition that declares at least one event, and
 * - has an instance that is not resolved in @self.
 *
 * Only assistant messages have components (§12.2, rule 1): user, system
 * and tool messages are never decoded, even when they look like frames.
 * Display-only components (progress, tool-call, table), frames that do not
 * resolve (unknown key, invalid props) and diagnostics never become
 * active; without a manifest nothing does. A custom definition with events
 * counts like a standard one (§12.4 does not look at how it is drawn): a
 * host that shows it as the semantic fallback has nothing to give the
 * keyboard to, and leaves the focus with the composer.
 *
 * The positions identify the presentation the host shows, so that two
 * copies of one instance stay apart; they are left unchanged when there
 * is no active component.
 *
 * Returns: (transfer full) (nullable): the active component presentation,
 *   or %NULL when input belongs to the composer
 *
 * Since: 0.1
 */
AkcPresentation *
akc_input_ownership_find_active (AkcInputOwnership    *self,
                                 GListModel           *messages,
                                 AkcComponentManifest *manifest,
                                 guint                *message_position,
                                 guint                *presentation_position)
{
  g_return_val_if_fail (AKC_IS_INPUT_OWNERSHIP (self), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (messages), NULL);
  g_return_val_if_fail (g_type_is_a (g_list_model_get_item_type (messages), AKC_TYPE_MESSAGE), NULL);
  g_return_val_if_fail (manifest == NULL || AKC_IS_COMPONENT_MANIFEST (manifest), NULL);

  /* Without a manifest no frame resolves. */
  if (manifest == NULL)
    return NULL;

  for (guint i = g_list_model_get_n_items (messages); i > 0; i--)
    {
      g_autoptr(AkcMessage) message = g_list_model_get_item (messages, i - 1);
      g_autoptr(GListModel) presentations = NULL;

      /* Rule 1 of §12.2: nothing but a plain bubble; skip the decoding. */
      if (akc_message_get_role (message) != AKC_MESSAGE_ROLE_ASSISTANT)
        continue;

      presentations = akc_present_message (message, manifest);
      for (guint j = g_list_model_get_n_items (presentations); j > 0; j--)
        {
          g_autoptr(AkcPresentation) presentation = g_list_model_get_item (presentations, j - 1);

          if (!owns_input (self, presentation))
            continue;

          if (message_position != NULL)
            *message_position = i - 1;
          if (presentation_position != NULL)
            *presentation_position = j - 1;
          return g_steal_pointer (&presentation);
        }
    }

  return NULL;
}

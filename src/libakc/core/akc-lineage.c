/* akc-lineage.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-lineage.h"

/**
 * AkcLineage:
 *
 * Which operation produced a reply, and from which message ([protocol
 * §2.5](wire-formats.html#protocol-2)). Immutable.
 *
 * The source message is the message the operation started from:
 *
 * - submit: the user message that was sent, or for a tool continuation
 *   the tool message that carries the result (the wire form of a submit
 *   lineage has no source; a writer drops it);
 * - retry: the assistant message that was replaced;
 * - regenerate: the assistant message that was replaced, with everything
 *   after it;
 * - edit: the user message that was edited (it keeps its id).
 *
 * The parent turn is the turn whose reply is being replaced. The local
 * controller, [class@Chat], has no turn ids and leaves it %NULL; a source
 * fed from the turn protocol sets it.
 *
 * Since: 0.1
 */

struct _AkcLineage
{
  gatomicrefcount      ref_count;
  AkcLineageOperation  operation;
  char                *source_message_id;
  char                *parent_turn_id;
};

G_DEFINE_BOXED_TYPE (AkcLineage, akc_lineage, akc_lineage_ref, akc_lineage_unref)

/**
 * akc_lineage_new:
 * @operation: the operation
 * @source_message_id: (nullable): the message the operation started from
 * @parent_turn_id: (nullable): the turn whose reply is replaced
 *
 * Creates a lineage.
 *
 * Returns: (transfer full): a new #AkcLineage
 *
 * Since: 0.1
 */
AkcLineage *
akc_lineage_new (AkcLineageOperation  operation,
                 const char          *source_message_id,
                 const char          *parent_turn_id)
{
  AkcLineage *self;

  g_return_val_if_fail (operation <= AKC_LINEAGE_OPERATION_REGENERATE, NULL);

  self = g_new0 (AkcLineage, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->operation = operation;
  self->source_message_id = g_strdup (source_message_id);
  self->parent_turn_id = g_strdup (parent_turn_id);

  return self;
}

/**
 * akc_lineage_ref:
 * @self: a #AkcLineage
 *
 * Acquires a reference on @self.
 *
 * Returns: (transfer full): @self
 *
 * Since: 0.1
 */
AkcLineage *
akc_lineage_ref (AkcLineage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * akc_lineage_unref:
 * @self: (transfer full): a #AkcLineage
 *
 * Releases a reference on @self.
 *
 * Since: 0.1
 */
void
akc_lineage_unref (AkcLineage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->source_message_id);
  g_free (self->parent_turn_id);
  g_free (self);
}

/**
 * akc_lineage_get_operation:
 * @self: a #AkcLineage
 *
 * Gets the operation that produced the reply.
 *
 * Returns: the operation
 *
 * Since: 0.1
 */
AkcLineageOperation
akc_lineage_get_operation (const AkcLineage *self)
{
  g_return_val_if_fail (self != NULL, AKC_LINEAGE_OPERATION_SUBMIT);

  return self->operation;
}

/**
 * akc_lineage_get_source_message_id:
 * @self: a #AkcLineage
 *
 * Gets the id of the message the operation started from.
 *
 * Returns: (transfer none) (nullable): the message id
 *
 * Since: 0.1
 */
const char *
akc_lineage_get_source_message_id (const AkcLineage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->source_message_id;
}

/**
 * akc_lineage_get_parent_turn_id:
 * @self: a #AkcLineage
 *
 * Gets the id of the turn whose reply is replaced.
 *
 * Returns: (transfer none) (nullable): the turn id
 *
 * Since: 0.1
 */
const char *
akc_lineage_get_parent_turn_id (const AkcLineage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->parent_turn_id;
}

/**
 * akc_lineage_equal:
 * @a: a #AkcLineage
 * @b: another #AkcLineage
 *
 * Compares two lineages.
 *
 * Returns: %TRUE if the operation and both ids are equal
 *
 * Since: 0.1
 */
gboolean
akc_lineage_equal (const AkcLineage *a,
                   const AkcLineage *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return a->operation == b->operation &&
         g_strcmp0 (a->source_message_id, b->source_message_id) == 0 &&
         g_strcmp0 (a->parent_turn_id, b->parent_turn_id) == 0;
}

/* akc-usage.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include "akc-usage.h"

G_DEFINE_BOXED_TYPE (AkcUsage, akc_usage, akc_usage_copy, akc_usage_free)

/**
 * akc_usage_new:
 * @prompt_tokens: tokens the model read
 * @completion_tokens: tokens the model wrote
 * @total_tokens: tokens billed in all
 *
 * Creates a usage value.
 *
 * Returns: (transfer full): a new #AkcUsage
 *
 * Since: 0.1
 */
AkcUsage *
akc_usage_new (guint64 prompt_tokens,
               guint64 completion_tokens,
               guint64 total_tokens)
{
  AkcUsage *self = g_new0 (AkcUsage, 1);

  self->prompt_tokens = prompt_tokens;
  self->completion_tokens = completion_tokens;
  self->total_tokens = total_tokens;

  return self;
}

/**
 * akc_usage_copy:
 * @self: a #AkcUsage
 *
 * Copies @self.
 *
 * Returns: (transfer full): a copy of @self
 *
 * Since: 0.1
 */
AkcUsage *
akc_usage_copy (const AkcUsage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return akc_usage_new (self->prompt_tokens, self->completion_tokens, self->total_tokens);
}

/**
 * akc_usage_free:
 * @self: (transfer full): a #AkcUsage
 *
 * Frees @self.
 *
 * Since: 0.1
 */
void
akc_usage_free (AkcUsage *self)
{
  g_free (self);
}

/**
 * akc_usage_equal:
 * @a: a #AkcUsage
 * @b: another #AkcUsage
 *
 * Compares two usage values.
 *
 * Returns: %TRUE if the three counts are equal
 *
 * Since: 0.1
 */
gboolean
akc_usage_equal (const AkcUsage *a,
                 const AkcUsage *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return a->prompt_tokens == b->prompt_tokens &&
         a->completion_tokens == b->completion_tokens &&
         a->total_tokens == b->total_tokens;
}

static guint64
saturating_add (guint64 a,
                guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/**
 * akc_usage_add:
 * @self: a #AkcUsage
 * @other: the usage to add
 *
 * Adds each count of @other to that of @self. Counts saturate instead of
 * wrapping around.
 *
 * Since: 0.1
 */
void
akc_usage_add (AkcUsage       *self,
               const AkcUsage *other)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (other != NULL);

  self->prompt_tokens = saturating_add (self->prompt_tokens, other->prompt_tokens);
  self->completion_tokens = saturating_add (self->completion_tokens, other->completion_tokens);
  self->total_tokens = saturating_add (self->total_tokens, other->total_tokens);
}

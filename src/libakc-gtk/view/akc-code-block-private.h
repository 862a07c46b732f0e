/* akc-code-block-private.h: a code block of rendered Markdown
 *
 * SPDX-License-Identifier: MIT
 *
 * Internal to libakc-gtk (not installed, not scanned).
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AKC_TYPE_CODE_BLOCK (akc_code_block_get_type ())

G_DECLARE_FINAL_TYPE (AkcCodeBlock, akc_code_block, AKC, CODE_BLOCK, GtkWidget)

GtkWidget  *akc_code_block_new          (const char   *language);
const char *akc_code_block_get_code     (AkcCodeBlock *self);
void        akc_code_block_set_code     (AkcCodeBlock *self,
                                         const char   *code);
guint       akc_code_block_get_n_chunks (AkcCodeBlock *self);
GtkWidget  *akc_code_block_get_chunk    (AkcCodeBlock *self,
                                         guint         index);
const char *akc_code_block_get_language_id (AkcCodeBlock *self);
void        akc_code_block_copy         (AkcCodeBlock *self);
void        akc_code_block_set_streaming (AkcCodeBlock *self,
                                          gboolean      streaming);

G_END_DECLS

/* akc-conversation-title.c
 *
 * SPDX-License-Identifier: MIT
 */

#include "config.h"

#include <string.h>

#include "akc-conversation-title.h"

/* Whether @c continues the grapheme cluster before it: a combining mark,
 * a joiner, a variation selector, an emoji modifier or tag. Cutting
 * before one of these would split a letter from its accent or an emoji
 * sequence in two. */
static gboolean
continues_cluster (gunichar c)
{
  return g_unichar_ismark (c) ||
         c == 0x200D ||                       /* ZERO WIDTH JOINER */
         (c >= 0xFE00 && c <= 0xFE0F) ||      /* variation selectors */
         (c >= 0xE0100 && c <= 0xE01EF) ||
         (c >= 0x1F3FB && c <= 0x1F3FF) ||    /* emoji skin tones */
         (c >= 0xE0020 && c <= 0xE007F);      /* emoji tags */
}

static gboolean
is_regional_indicator (gunichar c)
{
  return c >= 0x1F1E6 && c <= 0x1F1FF;
}

/* Whether a cut between chars[i - 1] and chars[i] keeps clusters whole. */
static gboolean
is_cluster_boundary (const gunichar *chars,
                     gsize           n_chars,
                     gsize           i)
{
  gsize n_ri = 0;

  if (i == 0 || i >= n_chars)
    return TRUE;
  if (continues_cluster (chars[i]) || chars[i - 1] == 0x200D)
    return FALSE;
  if (chars[i - 1] == '\r' && chars[i] == '\n')
    return FALSE;

  /* Flags are pairs of regional indicators. */
  if (is_regional_indicator (chars[i]))
    {
      for (gsize j = i; j > 0 && is_regional_indicator (chars[j - 1]); j--)
        n_ri++;
      return n_ri % 2 == 0;
    }

  return TRUE;
}

static gboolean
is_blank (gunichar c)
{
  return g_unichar_isspace (c) || g_unichar_iscntrl (c) ||
         g_unichar_type (c) == G_UNICODE_LINE_SEPARATOR ||
         g_unichar_type (c) == G_UNICODE_PARAGRAPH_SEPARATOR;
}

/**
 * akc_derive_conversation_title:
 * @text: (nullable): the
 *   first message a person wrote in the conversation
 * @length: the length of @text in bytes, or -1 when it ends with U+0000
 *
 * Makes the title of a conversation from its first user message: the
 * text on one line (every run of white space, line breaks and control
 * characters becomes one space), trimmed, and when it is longer than
 * %AKC_CONVERSATION_TITLE_MAX_CHARS characters, shortened at the last
 * word boundary that fits (or, for a long word, at the last whole
 * grapheme cluster: an accent stays with its letter, an emoji sequence or
 * a flag stays whole) and followed by an ellipsis. Invalid UTF-8 is
 * replaced, never passed on.
 *
 * Returns: (transfer full): the title, empty when @text has no visible
 *   characters
 *
 * Since: 0.1
 */
char *
akc_derive_conversation_title (const char *text,
                               gssize      length)
{
  g_autofree char *valid = NULL;
  g_autofree gunichar *chars = NULL;
  g_autoptr(GString) title = NULL;
  gsize n_chars = 0;
  gsize cut;
  gboolean pending_space = FALSE;

  if (text == NULL)
    return g_strdup ("");

  valid = g_utf8_make_valid (text, length);
  chars = g_new (gunichar, g_utf8_strlen (valid, -1) + 1);

  /* One line: blanks collapse, and none lead or trail. */
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (is_blank (c))
        {
          pending_space = n_chars > 0;
          continue;
        }
      if (pending_space)
        chars[n_chars++] = ' ';
      pending_space = FALSE;
      chars[n_chars++] = c;
    }

  title = g_string_new (NULL);

  if (n_chars <= AKC_CONVERSATION_TITLE_MAX_CHARS)
    {
      for (gsize i = 0; i < n_chars; i++)
        g_string_append_unichar (title, chars[i]);
      return g_string_free (g_steal_pointer (&title), FALSE);
    }

  /* The longest whole-cluster prefix that fits … */
  cut = AKC_CONVERSATION_TITLE_MAX_CHARS;
  while (cut > 0 && !is_cluster_boundary (chars, n_chars, cut))
    cut--;

  /* … shortened to the last word that ends in it (unless it ends between
   * two words already), unless that would leave less than half of it. */
  for (gsize i = cut;
       g_unichar_isalnum (chars[cut]) && cut > 0 && g_unichar_isalnum (chars[cut - 1]) &&
       i > AKC_CONVERSATION_TITLE_MAX_CHARS / 2;
       i--)
    if (chars[i] == ' ')
      {
        cut = i;
        break;
      }

  while (cut > 0 && (chars[cut - 1] == ' ' || g_unichar_ispunct (chars[cut - 1])) &&
         is_cluster_boundary (chars, n_chars, cut - 1))
    cut--;
  if (cut == 0)
    cut = AKC_CONVERSATION_TITLE_MAX_CHARS;

  for (gsize i = 0; i < cut; i++)
    g_string_append_unichar (title, chars[i]);
  g_string_append (title, "…");

  return g_string_free (g_steal_pointer (&title), FALSE);
}

/**
 * akc_derive_conversation_title_utf8: (rename-to akc_derive_conversation_title)
 * @text: (nullable): the
 *   first message a person wrote in the conversation
 *
 * Does what akc_derive_conversation_title() does, for NUL-terminated @text:
 * the form bindings see.
 *
 * Returns: (transfer full): the title, empty when @text has no visible
 *   characters
 *
 * Since: 0.1
 */
char *
akc_derive_conversation_title_utf8 (const char *text)
{
  return akc_derive_conversation_title (text, -1);
}

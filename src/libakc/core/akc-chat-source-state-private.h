/* akc-chat-source-state-private.h: the state every chat source shares
 *
 * SPDX-License-Identifier: MIT
 *
 * AkcChat, AkcControlledSource and AkcTurnClient all hold the same state
 * behind AkcChatSource: the messages, the status, the error of the last
 * turn, the accumulated usage and the draft. AkcChatSourceState holds it
 * once, notifies the owner's properties when (and only when) a value
 * changes, and changes the messages with the smallest items-changed.
 * Not public API.
 */

#pragma once

#include <gio/gio.h>

#include "akc-chat-source.h"
#include "akc-diagnostic.h"
#include "akc-usage.h"

G_BEGIN_DECLS

/* The interface's properties, in the order an owner overrides them. */
typedef enum
{
  AKC_CHAT_SOURCE_PROP_MESSAGES,
  AKC_CHAT_SOURCE_PROP_STATUS,
  AKC_CHAT_SOURCE_PROP_ERROR,
  AKC_CHAT_SOURCE_PROP_INPUT,
  AKC_CHAT_SOURCE_PROP_USAGE,
  AKC_CHAT_SOURCE_N_PROPS,
} AkcChatSourceProp;

typedef struct
{
  GObject        *owner;      /* unowned: the state is a member of it */
  GParamSpec    **pspecs;     /* the owner class's, AKC_CHAT_SOURCE_N_PROPS */
  GListStore     *messages;   /* AkcMessage */
  AkcChatStatus   status;
  AkcDiagnostic  *error;      /* nullable */
  AkcUsage        usage;
  char           *input;      /* never NULL */
} AkcChatSourceState;

/* Overrides the five properties of AkcChatSource on @klass with the ids
 * @first_prop_id … @first_prop_id + 4 (in AkcChatSourceProp order) and
 * fills @pspecs, which the class keeps for its states. */
void      akc_chat_source_state_override_properties (GObjectClass        *klass,
                                                     guint                first_prop_id,
                                                     GParamSpec          *pspecs[AKC_CHAT_SOURCE_N_PROPS]);

/* An idle state with no messages, no error, no usage and an empty draft. */
void      akc_chat_source_state_init         (AkcChatSourceState  *self,
                                              GObject             *owner,
                                              GParamSpec         **pspecs);
void      akc_chat_source_state_clear        (AkcChatSourceState  *self);

/* Each setter notifies the property only when the value changes and
 * returns whether it did. The owner freezes notifications around a
 * change of several values. */
gboolean  akc_chat_source_state_set_status   (AkcChatSourceState  *self,
                                              AkcChatStatus        status);
/* Takes @error (nullable); an equal diagnostic is no change. */
gboolean  akc_chat_source_state_take_error   (AkcChatSourceState  *self,
                                              AkcDiagnostic       *error);
gboolean  akc_chat_source_state_set_usage    (AkcChatSourceState  *self,
                                              const AkcUsage      *usage);
/* NULL is the empty draft. */
gboolean  akc_chat_source_state_set_input    (AkcChatSourceState  *self,
                                              const char          *input);

/* Replaces @n_removals messages at @position with @additions, emitting
 * one items-changed over the smallest range that differs (none when the
 * objects are the same). */
void      akc_chat_source_state_splice       (AkcChatSourceState  *self,
                                              guint                position,
                                              guint                n_removals,
                                              gpointer            *additions,
                                              guint                n_additions);

/* The same for any GListStore. */
void      akc_list_store_splice_minimal      (GListStore          *store,
                                              guint                position,
                                              guint                n_removals,
                                              gpointer            *additions,
                                              guint                n_additions);

/* Answers get_property for the owner's @prop_id when it is one of the
 * five of AkcChatSource (overridden from @first_prop_id on); returns
 * FALSE, doing nothing, for any other property. */
gboolean  akc_chat_source_state_get_property (AkcChatSourceState  *self,
                                              guint                prop_id,
                                              guint                first_prop_id,
                                              GValue              *value);

/* Defines the four getters of AkcChatSourceInterface for a type whose
 * instance struct has an AkcChatSourceState named @member, and
 * PREFIX_state_iface_init() that installs them. */
#define AKC_CHAT_SOURCE_STATE_DEFINE_GETTERS(prefix, CAST, member)                \
  static GListModel *                                                            \
  prefix##_state_get_messages (AkcChatSource *source)                            \
  {                                                                              \
    return G_LIST_MODEL (CAST (source)->member.messages);                        \
  }                                                                              \
  static AkcChatStatus                                                           \
  prefix##_state_get_status (AkcChatSource *source)                              \
  {                                                                              \
    return CAST (source)->member.status;                                         \
  }                                                                              \
  static AkcDiagnostic *                                                         \
  prefix##_state_get_error (AkcChatSource *source)                               \
  {                                                                              \
    return CAST (source)->member.error;                                          \
  }                                                                              \
  static const AkcUsage *                                                        \
  prefix##_state_get_usage (AkcChatSource *source)                               \
  {                                                                              \
    return &CAST (source)->member.usage;                                         \
  }                                                                              \
  static void                                                                    \
  prefix##_state_iface_init (AkcChatSourceInterface *iface)                      \
  {                                                                              \
    iface->get_messages = prefix##_state_get_messages;                           \
    iface->get_status = prefix##_state_get_status;                               \
    iface->get_error = prefix##_state_get_error;                                 \
    iface->get_usage = prefix##_state_get_usage;                                 \
  }

G_END_DECLS

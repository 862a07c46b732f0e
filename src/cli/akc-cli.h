/* akc-cli.h: shared declarations of the akc command-line tool
 *
 * SPDX-License-Identifier: MIT
 */

#pragma once

#include <gio/gio.h>

#include "akc.h"

G_BEGIN_DECLS

/* Exit statuses shared by every subcommand. */
#define AKC_CLI_EXIT_OK       0
#define AKC_CLI_EXIT_REJECTED 1
#define AKC_CLI_EXIT_USAGE    2

/**
 * AkcCliCommand:
 * @name: the subcommand word
 * @summary: one line for `akc --help` (translatable, marked with N_())
 * @run: runs the subcommand with argv[0] being the subcommand word; returns an exit status
 */
typedef struct
{
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
} AkcCliCommand;

/* The command table, ended by a row whose name is NULL. */
const AkcCliCommand *akc_cli_get_commands (void);

gboolean akc_cli_read_input (const char  *path,
                             GBytes     **bytes,
                             GError     **error);

/* Secrets (akc-cli-secret.c). */
char    *akc_cli_lookup_secret (const char         *endpoint,
                                AkcCredentialKind   kind,
                                GError            **error);
/* Stores @secret, or clears the credential when it is NULL. */
gboolean akc_cli_store_secret  (const char         *endpoint,
                                AkcCredentialKind   kind,
                                const char         *secret,
                                GError            **error);
char    *akc_cli_read_secret   (const char         *prompt,
                                GError            **error);

int akc_cmd_ask (int argc, char **argv);
int akc_cmd_chat (int argc, char **argv);
int akc_cmd_completion (int argc, char **argv);
int akc_cmd_credentials (int argc, char **argv);
int akc_cmd_decode (int argc, char **argv);
int akc_cmd_knowledge (int argc, char **argv);
int akc_cmd_models (int argc, char **argv);
int akc_cmd_normalize (int argc, char **argv);
int akc_cmd_replay (int argc, char **argv);
int akc_cmd_theme (int argc, char **argv);
int akc_cmd_turn (int argc, char **argv);
int akc_cmd_conversations (int argc, char **argv);
int akc_cmd_export (int argc, char **argv);
int akc_cmd_import (int argc, char **argv);

G_END_DECLS

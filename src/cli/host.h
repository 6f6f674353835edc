/*
 * Remote hosts over OpenSSH (issue 27): the host registry, `rcuprof host`,
 * and the ssh executor (executor.h).
 *
 * The registry ($RCUPROF_HOSTS, else $XDG_CONFIG_HOME/rcuprof/hosts.json,
 * else ~/.config/rcuprof/hosts.json) holds names and ssh URLs only: keys,
 * agents and passwords stay with the user's own OpenSSH client and its
 * config.  Every connection is `ssh` with BatchMode=yes and a
 * ConnectTimeout, $RCUPROF_SSH_OPTS (words) before them so they win, and
 * one master connection per executor (ControlMaster in a private folder)
 * so a measurement costs a channel, not a handshake.
 */
#ifndef RCUPROF_HOST_H
# define RCUPROF_HOST_H

# include <stddef.h>
# include <jansson.h>

# include "executor.h"

/* The registry's path (never NULL). */
const char *rcuprof_hosts_path(void);
/*
 * Host NAME of the registry: 1 (its URL in url, may be NULL), 0 when not
 * there, -1 after one line in err (the file unreadable or not a registry).
 */
int rcuprof_host_lookup(const char *name, char *url, size_t urln, char *err,
                        size_t errlen);
/*
 * ssh://[user@]host[:port] into its parts (user "" when none, port 0 when
 * none): 0, or -1 after one line in err saying what is allowed.  A
 * password (user:secret@) is refused: the registry stores no secret.
 */
int rcuprof_ssh_url_parse(const char *url, char *user, size_t usern,
                          char *host, size_t hostn, unsigned *port,
                          char *err, size_t errlen);
/*
 * The executor of registry host NAME: connects (one master connection),
 * probes the host (the record host_record returns) and refuses a host of
 * another architecture than the drivers'.  NULL after one line in err:
 * unknown, unreachable, refused.
 */
struct rcuprof_executor *rcuprof_executor_ssh(const char *name, char *err,
                                              size_t errlen);
/* rcuprof host add|list|check|remove */
int rcuprof_cmd_host(int argc, char **argv);

#endif

# A private sshd for the ssh tests (sourced after lib.sh).  Debian's
# openssh-server on 127.0.0.1 at two free unprivileged ports, with a host
# key, a client key pair, sshd_config, ssh_config and known_hosts made here
# in $TMP: the machine's own sshd and ~/.ssh are never read or written.
# The second port's sessions get a PATH whose `uname -m` says aarch64 (a
# host of another architecture).  After ssh_start: $PORT, $PORT_ARM,
# $SSHD_PID, RCUPROF_HOSTS, RCUPROF_SSH_OPTS, RCUPROF_CACHE exported, and
# $REMOTE (the hosts' --remote-dir).
SSHD=${RCUPROF_SSHD:-/usr/sbin/sshd}
SSHD_PID=

skip() { echo "SKIPPED: $*"; exit 77; }

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

ssh_stop() {
    if [ -n "$SSHD_PID" ]; then
        kill "$SSHD_PID" 2>/dev/null
        SSHD_PID=
    fi
}
trap 'ssh_stop; rm -rf "$TMP"' EXIT

# The sshd's session processes (every sshd below the listener): killing
# them drops every connection, as a network failure would.
ssh_sessions() {
    local p kids=() all=() c
    kids=($(ps -o pid= --ppid "$SSHD_PID" 2>/dev/null))
    while [ ${#kids[@]} -gt 0 ]; do
        all+=("${kids[@]}")
        c=()
        for p in "${kids[@]}"; do c+=($(ps -o pid= --ppid "$p" 2>/dev/null)); done
        kids=("${c[@]}")
    done
    for p in "${all[@]}"; do
        [ "$(ps -o comm= -p "$p" 2>/dev/null)" = sshd ] && echo "$p"
    done
}

ssh_start() {
    local d=$TMP/sshd i
    [ -x "$SSHD" ] || skip "no $SSHD: install Debian's openssh-server (make deps)"
    command -v ssh >/dev/null && command -v ssh-keygen >/dev/null \
        || skip "no ssh or ssh-keygen: install Debian's openssh-client (make deps)"
    if [ "$(id -u)" -eq 0 ] && [ ! -d /run/sshd ]; then
        # sshd run by root needs its (empty) privilege separation folder
        mkdir -m 0755 /run/sshd || skip "cannot make /run/sshd for a root sshd"
    fi
    mkdir -p "$d/shim" "$TMP/remote" "$TMP/cache"
    ssh-keygen -q -t ed25519 -N '' -C rcuprof-test-host -f "$d/host_key"
    ssh-keygen -q -t ed25519 -N '' -C rcuprof-test-client -f "$d/client_key"
    cp "$d/client_key.pub" "$d/authorized_keys"
    printf '#!/bin/sh\nif [ "$1" = -m ]; then echo aarch64; else exec /bin/uname "$@"; fi\n' \
        > "$d/shim/uname"
    chmod +x "$d/shim/uname"
    PORT=$(free_port)
    PORT_ARM=$(free_port)
    [ "$PORT" != "$PORT_ARM" ] || PORT_ARM=$(free_port)
    cat > "$d/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $PORT
Port $PORT_ARM
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
Match LocalPort $PORT_ARM
    SetEnv PATH=$d/shim:/usr/bin:/bin
EOF
    {
        echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$d/host_key.pub")"
        echo "[127.0.0.1]:$PORT_ARM $(cut -d' ' -f1,2 "$d/host_key.pub")"
    } > "$d/known_hosts"
    cat > "$d/ssh_config" <<EOF
Host *
    IdentityFile $d/client_key
    IdentitiesOnly yes
    IdentityAgent none
    UserKnownHostsFile $d/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
    PasswordAuthentication no
EOF
    "$SSHD" -t -f "$d/sshd_config" || skip "sshd refuses the test's sshd_config (see above)"
    "$SSHD" -f "$d/sshd_config" -E "$d/sshd.log" || skip "sshd did not start ($d/sshd.log)"
    for i in $(seq 50); do
        [ -s "$d/sshd.pid" ] && break
        sleep 0.1
    done
    SSHD_PID=$(cat "$d/sshd.pid" 2>/dev/null)
    [ -n "$SSHD_PID" ] || skip "sshd wrote no pid file: $(tail -n 3 "$d/sshd.log")"
    # Killed past ctest's timeout, the test runs no trap: this guard stops
    # the sshd once the test's shell is gone.
    ( trap '' TERM; while kill -0 $$ 2>/dev/null; do sleep 2; done
      kill "$SSHD_PID" 2>/dev/null ) > /dev/null 2>&1 < /dev/null &
    export RCUPROF_HOSTS=$TMP/hosts.json
    export RCUPROF_SSH_OPTS="-F $d/ssh_config"
    export RCUPROF_CACHE=$TMP/cache
    REMOTE=$TMP/remote
    # The client alone first: a failure here is the set-up's, not rcuprof's
    ssh $RCUPROF_SSH_OPTS -o BatchMode=yes -p "$PORT" "$(id -un)@127.0.0.1" true \
        2>"$TMP/ssh.err" || { cat "$TMP/ssh.err" "$d/sshd.log"; fail "ssh to the test sshd failed"; finish; }
}

# A driver to run over the host: $RCUPROF_TEST_DRIVERS (a build's bin) or
# $RCUPROF_BINDIR; empty when neither has one.
ssh_driver() {
    local dir=${RCUPROF_TEST_DRIVERS:-$RCUPROF_BINDIR} v
    for v in stock ${RCUPROF_VARIANTS_BUILT//,/ }; do
        [ -x "$dir/rcuprof-stress-$v" ] && { echo "$dir/rcuprof-stress-$v"; return; }
    done
}

#!/bin/bash
# A one-node Grid Engine (Debian's Son of Grid Engine 8.1.9) on this machine, for strand's SGE tests and local
# trials. Needs root and Debian/Ubuntu packages (installed on first start); no systemd required.
#
#   usage: scripts/gridengine-local.sh start|stop|status
#   env:   GRIDENGINE_LOCAL_DIR (default /tmp/strand-gridengine)  the start lock and the files given to qconf
#          GRIDENGINE_SLOTS (default 16)  slots of the queue all.q on this host (jobs here are mostly sleeps)
#
# `start` is idempotent: it installs what is missing (answering the packages' debconf questions: configure
# automatically, cell `default`, this host as the master), starts only the daemons that are not running,
# configures the cluster where it differs from what is below, and waits until the queue takes jobs. A second
# `start` finds everything running and returns at once. The cluster, as strand's tests expect it:
#   - this host is master, admin, submit and execution host; root is a manager and may run jobs (Debian's
#     default refuses jobs of uids under 1000);
#   - the queue all.q (hostgroup @allhosts) with GRIDENGINE_SLOTS slots, no load thresholds (a busy test
#     machine would otherwise put it in alarm state and hold every job), and the parallel environment `smp`
#     (`$pe_slots`) that strand's `#$ -pe smp N` asks for; the queue keeps Grid Engine's default
#     shell_start_mode posix_compliant with /bin/sh, as most sites do, so a job script runs under bash only
#     when it says so (`#$ -S /bin/bash`), as it must there;
#   - the scheduler runs every second, and accounting (what `qacct` reads, in
#     /var/lib/gridengine/default/common/accounting) is flushed every 3 s instead of 15 s: still later than the
#     job leaves qstat, as on a real site, but quicker for tests.
# State lives where the packages put it (/var/lib/gridengine, /var/spool/gridengine); pid files in
# /run/gridengine. The clients (qsub, qstat, qacct, qdel, qconf) need no environment: Debian's wrappers read
# /etc/default/gridengine.
# `status` exits 0 only when qstat answers and the queue on this host takes jobs.
set -euo pipefail
DIR=${GRIDENGINE_LOCAL_DIR:-/tmp/strand-gridengine}
SLOTS=${GRIDENGINE_SLOTS:-16}
export SGE_ROOT=/var/lib/gridengine SGE_CELL=default
COMMON=$SGE_ROOT/$SGE_CELL/common
SPOOL=/var/spool/gridengine
RUN=/run/gridengine
QMASTER_PID=$SPOOL/qmaster/qmaster.pid     # where sge_qmaster writes it (its spool folder)
EXECD_PID=$RUN/execd.pid                   # where Debian's init script has sge_execd write it
export SGE_EXECD_PIDFILE=$EXECD_PID
QUEUE=all.q

need_root() {
  if [ "$(id -u)" != 0 ]; then echo "gridengine-local.sh: $1 needs root" >&2; exit 1; fi
}

# The name this host has for Grid Engine: the canonical name `hostname` resolves to.
host_name() { getent hosts "$(hostname)" | awk '{print $2; exit}'; }

# Grid Engine refuses to work on a host whose name does not resolve: a missing entry goes to /etc/hosts.
resolve_host() {
  local short; short=$(hostname)
  getent hosts "$short" >/dev/null && return 0
  echo "gridengine-local.sh: '$short' does not resolve; adding '127.0.0.1 $short' to /etc/hosts" >&2
  echo "127.0.0.1 $short" >> /etc/hosts
}

install_pkgs() {
  local missing=""
  for p in gridengine-master gridengine-exec gridengine-client; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    echo "installing:$missing" >&2
    # The packages ask whether to configure the cluster, its cell and the master's name: answer beforehand.
    # With "configure automatically", gridengine-master's postinst creates the spool database (init_cluster).
    debconf-set-selections <<ANSWERS
gridengine-common shared/gridengineconfig boolean true
gridengine-common shared/gridenginecell string $SGE_CELL
gridengine-common shared/gridenginemaster string $HOST
ANSWERS
    # The packages' init scripts would start the daemons (and fail without an init system); we start them
    # ourselves. Debian's container images deny that with a policy-rc.d; where there is none, deny it here.
    local policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      policy=/usr/sbin/policy-rc.d; printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod 755 "$policy"
    fi
    local installed=0
    # shellcheck disable=SC2086 # $missing is a list of package names
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null || installed=$?
    [ -z "$policy" ] || rm -f "$policy"
    [ "$installed" = 0 ] || { echo "gridengine-local.sh: installing$missing failed" >&2; exit 1; }
  fi
  # Installed before without "configure automatically": the cluster was never created.
  if [ ! -e "$SPOOL/spooldb/sge" ]; then
    mkdir -p "$SPOOL/qmaster/job_scripts" "$SPOOL/spooldb" "$SPOOL/execd" "$COMMON"
    chown sgeadmin:sgeadmin "$SPOOL/qmaster" "$SPOOL/qmaster/job_scripts" "$SPOOL/spooldb" "$SPOOL/execd" "$SGE_ROOT/$SGE_CELL" "$COMMON"
    [ -e "$COMMON/bootstrap" ] || install -m0644 -o sgeadmin -g sgeadmin /usr/share/gridengine/default-bootstrap "$COMMON/bootstrap"
    su -s /bin/sh -c "/usr/share/gridengine/scripts/init_cluster $SGE_ROOT $SGE_CELL $SPOOL/spooldb sgeadmin" sgeadmin >/dev/null
  fi
}

# Writes a file only when its content changes; returns 0 when it did.
write_if_changed() {
  local file=$1 text=$2
  if [ -e "$file" ] && [ "$(cat "$file")" = "$text" ]; then return 1; fi
  printf '%s\n' "$text" > "$file"
  chown sgeadmin:sgeadmin "$file"
}

# The daemons must agree on this host's name with the clients: a client names itself `$HOST`, while the
# daemon resolves the client's address back to a name, and for a loopback address that is `localhost` (the
# first name of 127.0.0.1 in /etc/hosts). Grid Engine refuses such a client ("access denied: client IP
# resolved to host name localhost. This is not identical to clients host name vm") unless host_aliases says
# the names are one host. The master's name goes to act_qmaster, where every client and the execd look.
write_host_files() {
  local aliases="" address name
  for address in $(getent ahostsv4 "$HOST" | awk '{print $1}' | sort -u); do
    name=$(getent hosts "$address" | awk '{print $2; exit}')
    if [ -n "$name" ] && [ "$name" != "$HOST" ]; then aliases="$aliases $name"; fi
  done
  local changed=1
  write_if_changed "$COMMON/host_aliases" "$HOST$aliases" && changed=0
  write_if_changed "$COMMON/act_qmaster" "$HOST" && changed=0
  return $changed
}

# a pid is alive if it exists and is not a zombie (where PID 1 does not reap, an exited daemon stays
# <defunct> and `kill -0` would still succeed)
running() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat")" != Z ]; }
# the daemon of a pid file (sge_qmaster, sge_execd) runs: a stale file's pid may belong to another program now
alive() { [ -f "$1" ] && running "$(cat "$1")" && [ "$(cat "/proc/$(cat "$1")/comm" 2>/dev/null)" = "$2" ]; }

# sge_execd writes its pid where SGE_EXECD_PIDFILE says (so does Debian's init script), else in its spool
# folder; an execd started either way counts
execd_pid_files() { printf '%s\n' "$EXECD_PID" "$SPOOL"/execd/*/execd.pid; }
execd_alive() {
  local f
  for f in $(execd_pid_files); do alive "$f" sge_execd && return 0; done
  return 1
}

stop_daemon() {
  if alive "$1" "$2"; then
    local p; p=$(cat "$1"); kill "$p"
    for _ in $(seq 1 80); do running "$p" || break; sleep 0.25; done
  fi
}

stop_daemons() {
  local f
  for f in $(execd_pid_files); do stop_daemon "$f" sge_execd; done
  stop_daemon "$QMASTER_PID" sge_qmaster
}

answers() { qstat >/dev/null 2>&1; }

start_qmaster() {
  alive "$QMASTER_PID" sge_qmaster && return 0
  mkdir -p "$RUN"; chown sgeadmin:sgeadmin "$RUN"
  # setsid: the daemon must not share the caller's session or process group (a test runner that cleans up
  # its process group would take it down with it). sge_qmaster daemonizes and drops to user sgeadmin.
  setsid /usr/sbin/sge_qmaster </dev/null >/dev/null 2>&1
  for _ in $(seq 1 80); do answers && return 0; sleep 0.25; done
  echo "gridengine-local.sh: sge_qmaster does not answer; see $SPOOL/qmaster/messages" >&2
  tail -n 20 "$SPOOL/qmaster/messages" >&2 || true
  exit 1
}

start_execd() {
  execd_alive && return 0
  mkdir -p "$RUN"; chown sgeadmin:sgeadmin "$RUN"
  setsid /usr/sbin/sge_execd </dev/null >/dev/null 2>&1
}

# Runs a qconf command that changes something, showing what it says only when it fails (it reports success
# on stderr too: "root@vm modified "global" in configuration list").
quiet() {
  local out
  out=$("$@" 2>&1) || { printf '%s\n' "$out" >&2; echo "gridengine-local.sh: $* failed" >&2; exit 1; }
}

# Shows a configuration through `show`, edits it with the sed script, and loads it with `load` when that
# changed anything (compared with runs of blanks as one, since qconf aligns its columns).
edit_conf() {
  local name=$1 show=$2 load=$3 script=$4
  local now wanted
  now=$($show | grep -v '^#')
  wanted=$(printf '%s\n' "$now" | sed -e "$script")
  [ "$(printf '%s' "$now" | tr -s ' \t' '  ')" = "$(printf '%s' "$wanted" | tr -s ' \t' '  ')" ] && return 0
  printf '%s\n' "$wanted" > "$DIR/$name"
  # shellcheck disable=SC2086 # $load is a command with its options
  quiet $load "$DIR/$name"
}

# whether a line of the input is exactly $1 (reads all of it: a reader that stops early could make the
# writer fail with SIGPIPE, which pipefail would report as "not listed")
in_list() { grep -x -- "$1" >/dev/null; }

configure() {
  local me; me=$(id -un)
  qconf -sm | in_list "$me" || quiet qconf -am "$me"
  qconf -sh | in_list "$HOST" || quiet qconf -ah "$HOST"
  qconf -ss 2>/dev/null | in_list "$HOST" || quiet qconf -as "$HOST"
  # Global configuration (the file's name is the configuration's): root may run jobs; accounting is on (the
  # packages' default) and flushed every 3 s.
  edit_conf global "qconf -sconf global" "qconf -Mconf" \
    's/^min_uid .*/min_uid 0/; s/^min_gid .*/min_gid 0/; s/flush_time=[0-9:]*/flush_time=00:00:03/; s/accounting=[a-z]*/accounting=true/'
  # The scheduler runs every second, and right after a job is submitted or finishes (default: every 15 s).
  edit_conf scheduler "qconf -ssconf" "qconf -Msconf" \
    's/^schedule_interval .*/schedule_interval 0:0:1/; s/^flush_submit_sec .*/flush_submit_sec 1/; s/^flush_finish_sec .*/flush_finish_sec 1/'
  if ! qconf -se "$HOST" >/dev/null 2>&1; then
    printf '%s\n' "hostname $HOST" "load_scaling NONE" "complex_values NONE" "user_lists NONE" "xuser_lists NONE" \
      "projects NONE" "xprojects NONE" "usage_scaling NONE" "report_variables NONE" > "$DIR/exechost"
    quiet qconf -Ae "$DIR/exechost"
  fi
  if ! qconf -sp smp >/dev/null 2>&1; then
    # shellcheck disable=SC2016 # $pe_slots is Grid Engine's word, not a variable
    printf '%s\n' "pe_name smp" "slots 9999" "user_lists NONE" "xuser_lists NONE" "start_proc_args NONE" "stop_proc_args NONE" \
      'allocation_rule $pe_slots' "control_slaves FALSE" "job_is_first_task TRUE" "urgency_slots min" "accounting_summary FALSE" "qsort_args NONE" > "$DIR/pe-smp"
    quiet qconf -Ap "$DIR/pe-smp"
  fi
  if ! qconf -shgrp @allhosts >/dev/null 2>&1; then
    printf '%s\n' "group_name @allhosts" "hostlist $HOST" > "$DIR/allhosts"
    quiet qconf -Ahgrp "$DIR/allhosts"
  elif ! qconf -shgrp_resolved @allhosts | tr ' ' '\n' | in_list "$HOST"; then
    quiet qconf -aattr hostgroup hostlist "$HOST" @allhosts
  fi
  if ! qconf -sq "$QUEUE" >/dev/null 2>&1; then
    # `qconf -sq` with no name prints the template queue
    qconf -sq | sed -e "s/^qname .*/qname $QUEUE/; s/^hostlist .*/hostlist @allhosts/; s/^pe_list .*/pe_list smp/" \
      -e "s/^slots .*/slots $SLOTS/; s/^load_thresholds .*/load_thresholds NONE/" > "$DIR/queue"
    quiet qconf -Aq "$DIR/queue"
  else
    edit_conf queue "qconf -sq $QUEUE" "qconf -Mq" "s/^slots .*/slots $SLOTS/; s/^load_thresholds .*/load_thresholds NONE/"
  fi
}

# The states of the queue instance on this host ("" when it takes jobs; u = its execd is not heard from,
# E = error, d = disabled, a = alarm); "?" when qstat does not list it.
queue_states() {
  qstat -f -q "$QUEUE@$HOST" 2>/dev/null | awk -v q="$QUEUE@$HOST" '$1 == q { print ($6 == "" ? "-" : $6); found = 1 } END { if (!found) print "?" }'
}

usable() { [ "$(queue_states)" = - ]; }

start() {
  resolve_host
  HOST=$(host_name)
  install_pkgs
  if alive "$QMASTER_PID" sge_qmaster && execd_alive && usable; then
    qstat -f; return 0
  fi
  mkdir -p "$DIR"
  # the daemons read host_aliases and act_qmaster when they start
  if write_host_files; then stop_daemons; fi
  start_qmaster
  configure
  start_execd
  for i in $(seq 1 80); do
    usable && break
    # a queue left in error state (a job the execd could not start) or disabled takes no jobs until cleared
    if [ "$i" = 8 ]; then case "$(queue_states)" in *E*|*d*) qmod -c "$QUEUE@$HOST" >/dev/null 2>&1 || true; qmod -e "$QUEUE@$HOST" >/dev/null 2>&1 || true ;; esac; fi
    sleep 0.25
  done
  qstat -f
  usable || { echo "gridengine-local.sh: queue $QUEUE@$HOST takes no jobs (states: $(queue_states)); see $SPOOL/qmaster/messages and $SPOOL/execd/*/messages" >&2; exit 1; }
}

stop() {
  need_root stop
  stop_daemons
}

status() {
  command -v qstat >/dev/null || { echo "Grid Engine is not installed" >&2; exit 1; }
  HOST=$(host_name)
  qstat -f || exit 1
  usable
}

case "${1:-}" in
  start)
    need_root start
    mkdir -p "$DIR"
    # Concurrent test workers may all call `start`: one does the work while the others wait, then find
    # everything running. -o keeps the lock's descriptor out of the daemons, which would otherwise hold
    # the lock for as long as they live.
    exec flock -o "$DIR/.start.lock" "$0" start-locked ;;
  start-locked) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac

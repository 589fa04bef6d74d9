#!/bin/bash
# A one-node SLURM cluster on this machine (127.0.0.1), for strand's cluster tests and local trials.
# Needs root and Debian/Ubuntu packages (installed on first start); no systemd required.
#
#   usage: scripts/slurm-local.sh start|stop|status
#   env:   SLURM_LOCAL_DIR (default /tmp/strand-slurm)  state, logs, pid files, database
#          ACCOUNTING=1 (default) also starts MariaDB + slurmdbd so `sacct` works; ACCOUNTING=0 skips them
#          (finished jobs are then visible through `scontrol show job` for MinJobAge=300 s)
#          SLURM_DB_PORT (default 3307)  MariaDB port on 127.0.0.1
#
# `start` is idempotent: it installs what is missing, starts only daemons that are not running and waits
# until the node is idle. The config goes to /etc/slurm/slurm.conf, the clients' default path, so sbatch,
# squeue, sacct, scontrol and scancel work with no extra environment afterwards.
# `status` exits 0 only when the node answers and is usable (idle, mixed or allocated).
set -euo pipefail
DIR=${SLURM_LOCAL_DIR:-/tmp/strand-slurm}
ACCOUNTING=${ACCOUNTING:-1}
NODE=localhost                         # NodeName; slurmd is started with -N localhost
DBPORT=${SLURM_DB_PORT:-3307}          # not 3306, to stay out of the way of a real MariaDB
MY=$DIR/mysql

need_root() {
  if [ "$(id -u)" != 0 ]; then echo "slurm-local.sh: $1 needs root" >&2; exit 1; fi
}

install_pkgs() {
  local pkgs="slurm-wlm slurm-client munge"; [ "$ACCOUNTING" = 1 ] && pkgs="$pkgs slurmdbd mariadb-server"
  local missing=""
  for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    echo "installing:$missing" >&2
    apt-get update -qq
    # the packages' own start-up scripts would fail without systemd; we start the daemons ourselves
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
}

write_conf() {
  mkdir -p "$DIR/state" "$DIR/spool" /etc/slurm
  local cpus mem acct
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/{print $2}' /proc/meminfo) / 1024 - 1024 ))   # MB, 1 GiB headroom
  acct="AccountingStorageType=accounting_storage/none"
  [ "$ACCOUNTING" = 1 ] && acct="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=6819"
  cat > /etc/slurm/slurm.conf <<CONF
ClusterName=local
# slurmctld insists that this host's short name is listed; the address is loopback
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# no cgroups (and no cgroup.conf): plain process tracking works in containers
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=30
$acct
JobCompType=jobcomp/filetxt
JobCompLoc=$DIR/jobcomp.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# without a default, a job takes the whole node's memory and jobs run one at a time
DefMemPerCPU=512
ReturnToService=2
MinJobAge=300
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
}

# a pid is alive if it exists and is not a zombie (where PID 1 does not reap, an exited daemon stays
# <defunct> and `kill -0` would still succeed)
running() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat")" != Z ]; }
alive() { [ -f "$1" ] && running "$(cat "$1")"; }

start_munge() {
  alive /run/munge/munged.pid && return 0
  mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  chmod 0755 /run/munge
  if [ ! -s /etc/munge/munge.key ]; then     # the Debian package normally creates it
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key
  fi
  runuser -u munge -- /usr/sbin/munged --force  # --force: a stale socket from a killed munged is fine
  munge -n | unmunge >/dev/null              # self-test
}

start_db() {
  alive "$MY/mysqld.pid" && return 0
  if [ ! -d "$MY/mysql" ]; then
    mkdir -p "$MY"; chown mysql:mysql "$MY"
    mariadb-install-db --user=mysql --datadir="$MY" --skip-test-db >"$DIR/mariadb-install.log" 2>&1
  fi
  # every file mariadbd writes must be in a mysql-owned folder (it runs as user mysql)
  # setsid: the database must not share the caller's session or process group (a test runner that
  # cleans up its process group would take it down with it)
  setsid mariadbd --user=mysql --datadir="$MY" --socket="$MY/mysqld.sock" --port="$DBPORT" \
    --bind-address=127.0.0.1 --pid-file="$MY/mysqld.pid" --log-error="$MY/mysqld.err" \
    --skip-name-resolve >/dev/null 2>&1 &
  for _ in $(seq 1 80); do mariadb -S "$MY/mysqld.sock" -u root -e 'select 1' >/dev/null 2>&1 && break; sleep 0.25; done
  mariadb -S "$MY/mysqld.sock" -u root -e "create user if not exists 'slurm'@'127.0.0.1' identified by 'slurm';
    grant all on slurm_acct_db.* to 'slurm'@'127.0.0.1'; flush privileges;"
}

start_dbd() {
  alive "$DIR/slurmdbd.pid" && return 0
  cat > /etc/slurm/slurmdbd.conf <<CONF
AuthType=auth/munge
DbdHost=$(hostname -s)
DbdAddr=127.0.0.1
DbdPort=6819
SlurmUser=root
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DBPORT
StorageUser=slurm
StoragePass=slurm
StorageLoc=slurm_acct_db
PidFile=$DIR/slurmdbd.pid
LogFile=$DIR/slurmdbd.log
CONF
  chmod 600 /etc/slurm/slurmdbd.conf         # slurmdbd refuses a world-readable config
  /usr/sbin/slurmdbd                         # daemonizes
  for _ in $(seq 1 40); do (exec 3<>/dev/tcp/127.0.0.1/6819) 2>/dev/null && break; sleep 0.25; done
}

node_state() { sinfo -h -n "$NODE" -o '%T' 2>/dev/null || true; }

usable() { case "$(node_state)" in idle|mixed|allocated|completing) return 0 ;; *) return 1 ;; esac; }

start() {
  install_pkgs
  if usable && alive "$DIR/slurmctld.pid" && alive "$DIR/slurmd.pid" &&
    { [ "$ACCOUNTING" != 1 ] || { alive "$MY/mysqld.pid" && alive "$DIR/slurmdbd.pid"; }; }; then
    sinfo; return 0
  fi
  write_conf
  start_munge
  if [ "$ACCOUNTING" = 1 ]; then start_db; start_dbd; fi
  alive "$DIR/slurmctld.pid" || /usr/sbin/slurmctld -i   # daemonizes; -i ignores stale state
  alive "$DIR/slurmd.pid"    || /usr/sbin/slurmd -N "$NODE"
  for i in $(seq 1 60); do
    usable && break
    # a node that was down when slurmctld last saw it stays down until told otherwise
    [ "$i" = 20 ] && { scontrol update NodeName="$NODE" State=RESUME 2>/dev/null || true; }
    sleep 0.5
  done
  sinfo
  usable || { echo "slurm-local.sh: node $NODE is not usable (state: $(node_state)); see $DIR/*.log" >&2; exit 1; }
}

stop() {
  need_root stop
  for f in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$DIR/slurmdbd.pid" "$MY/mysqld.pid" /run/munge/munged.pid; do
    if alive "$f"; then
      p=$(cat "$f"); kill "$p"
      for _ in $(seq 1 40); do running "$p" || break; sleep 0.25; done
    fi
  done
}

status() {
  command -v sinfo >/dev/null || { echo "SLURM is not installed" >&2; exit 1; }
  sinfo || exit 1
  squeue
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

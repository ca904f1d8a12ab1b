#!/bin/bash
# Proves the Slurm recipe on a real Slurm: a single-node cluster on this machine.
#
#   deploy/slurm/test-local.sh            (as root, on Debian or Ubuntu)
#
# Installs slurm-wlm and munge if they are missing, starts munged, slurmctld and slurmd on
# localhost with a throwaway configuration, submits a batch as a 4-task job array and its
# merge with submit.sh, waits for both, and checks that the merged bank is byte-identical
# to the same batch generated on one machine. Stops the daemons it started on exit.
# Environment: SEED (default 2026), COUNT rows per shard (default 400), TOTAL (default 1000),
# SHARDS (default 4), SUDOKU_BANK (default: a release build of this repository).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
shards=${SHARDS:-4}
export SEED=${SEED:-2026} COUNT=${COUNT:-400} TOTAL=${TOTAL:-1000}

say() { echo "test-local: $*"; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq slurm-wlm munge >/dev/null
fi

if [[ -z "${SUDOKU_BANK:-}" ]]; then
    (cd "$repo" && cargo build --release --quiet)
    SUDOKU_BANK="$repo/target/release/sudoku-bank"
fi
export SUDOKU_BANK

work=$(mktemp -d /tmp/sudoku-bank-slurm.XXXXXX)
export BANK_DIR="$work/bank"
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    if [[ -n "${started_munged:-}" && -s /run/munge/munged.pid ]]; then
        kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
    fi
    if [[ $status -ne 0 ]]; then
        say "FAILED; logs in $work"
        tail -n 20 "$work"/*.log 2>/dev/null || true
    fi
    exit "$status"
}
trap cleanup EXIT

# munge: a key if there is none, and a daemon of our own if none answers.
if [[ ! -s /etc/munge/munge.key ]]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
chown munge:munge /etc/munge/munge.key 2>/dev/null || true
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "starting munged"
    started_munged=1
    if id munge >/dev/null 2>&1; then
        runuser -u munge -- munged --force
    else
        munged --force
    fi
    sleep 1
    munge -n | unmunge >/dev/null
fi

# A one-node cluster, configured under $work.
cpus=$(nproc)
memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2))
mkdir -p "$work/spool" "$work/state"
cat >"$work/slurm.conf" <<CONF
ClusterName=sudoku-bank-test
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

say "starting slurmctld and slurmd (config $SLURM_CONF)"
slurmctld -D -i >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost >"$work/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
        break
    fi
    sleep 1
done
sinfo

say "submitting $shards shards of $COUNT rows (seed $SEED) and a merge to $TOTAL rows"
cd "$work"
read -r array merge < <("$here/submit.sh" "$shards" --chdir="$work")
say "array job $array, merge job $merge"
for _ in $(seq 600); do
    if [[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ]]; then
        break
    fi
    sleep 1
done
sacct_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z]*' | sort -u; }
say "merge job: $(sacct_state "$merge")"
ls -l "$BANK_DIR"

say "generating the same batch on one machine"
"$SUDOKU_BANK" generate --seed "$SEED" --count "$TOTAL" -q -o "$work/one-machine.csv"
if cmp "$BANK_DIR/bank.csv" "$work/one-machine.csv"; then
    say "OK: the merged bank of $shards Slurm shards is byte-identical to one machine's ($(($(wc -l <"$work/one-machine.csv") - 1)) rows, sha256 $(sha256sum <"$work/one-machine.csv" | cut -c1-16))"
else
    say "the merged bank differs from one machine's"
    exit 1
fi

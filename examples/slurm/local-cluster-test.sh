#!/bin/bash
# A real Slurm cluster on this machine, then a sharded hunt, analysis and
# generation through it:
#
#   examples/slurm/local-cluster-test.sh               # the test (about 4 minutes)
#   examples/slurm/local-cluster-test.sh --scaling     # also: 1, 2, 4, 8 tasks timed
#   examples/slurm/local-cluster-test.sh --if-changed  # only when the sharding
#                                                      # code changed (CI)
#
# A pass records a digest of the sharding code (the shard module, the
# hunt's run, checkpoint and out-file modules, the analyzer's numbering, the
# search, analyze, generate and merge commands, these scripts) in
# examples/slurm/tested.sha256; with --if-changed the test runs
# only when that digest differs, so CI runs it once per change to the
# sharding code (commit the updated stamp after a pass).
#
# Installs Debian's slurm-wlm and munge when missing (root, or sudo), starts
# munged and a one-node cluster on 127.0.0.1 (slurmctld and slurmd, own
# ports, own state directory, nothing in /etc/slurm), builds sudokit, and:
#   1. hunts a {-2+2} neighbourhood of 3 generated seeds unsharded;
#   2. submits the same hunt as an array job of 4 tasks (search.sbatch),
#      requeues task 2 once it has checkpointed (Slurm kills it and runs it
#      again; the task resumes from its checkpoint), and merges the shards
#      (merge.sbatch, after the array);
#   3. checks that the merge holds exactly the unsharded hunt's puzzles (by
#      canonical form) and that task 2 did resume;
#   4. runs `sudokit analyze` on 2,000 generated puzzles as an array of 3
#      tasks submitted by split.sh (records.sbatch, then merge.sbatch) and
#      checks that the merge is byte for byte the unsharded output;
#   5. runs `sudokit generate` of 3,000 minimal 12x12 puzzles as an array of
#      3 tasks, requeues task 2 once it has checkpointed, and checks that
#      it resumed and that the merge is byte for byte the unsharded output.
# Exits 0 when all holds; stops the cluster it started either way.
set -euo pipefail

scaling=false
if_changed=false
case "${1:-}" in
    --scaling) scaling=true ;;
    --if-changed) if_changed=true ;;
    "") ;;
    *) echo "usage: $0 [--scaling | --if-changed]" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

# The digest of the code a sharded hunt runs through.
sharding_digest() {
    (cd "$repo" && cat crates/sudokit/src/shard/*.rs crates/sudokit/src/search/run.rs \
        crates/sudokit/src/search/checkpoint.rs crates/sudokit/src/search/out_file.rs \
        crates/sudokit/src/analyze.rs crates/sudokit-cli/src/commands/search.rs \
        crates/sudokit-cli/src/commands/analyze.rs crates/sudokit-cli/src/commands/generate.rs \
        crates/sudokit-cli/src/commands/record_out.rs crates/sudokit-cli/src/commands/merge.rs \
        examples/slurm/*.sbatch examples/slurm/*.sh | sha256sum | cut -d' ' -f1)
}
stamp="$here/tested.sha256"
if $if_changed && [ -s "$stamp" ] && [ "$(cat "$stamp")" = "$(sharding_digest)" ]; then
    echo "slurm test: the sharding code is unchanged since the test last passed ($stamp); skipped"
    exit 0
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi

say() { echo "slurm test: $*"; }
fail() { echo "slurm test: FAILED: $*" >&2; exit 1; }

if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    say "installing slurm-wlm and munge"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q > /dev/null
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge > /dev/null
fi

work=$(mktemp -d /tmp/sudokit-slurm.XXXXXX)
mkdir -p "$work"/{state,spool,log,hunt}
node=$(hostname -s)
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" << CONF
ClusterName=sudokit-test
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
JobRequeue=1
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

started_munge=false
passed=false
stop_cluster() {
    for daemon in slurmd slurmctld; do
        if [ -s "$work/$daemon.pid" ]; then
            "${sudo[@]}" kill "$(cat "$work/$daemon.pid")" 2> /dev/null || true
        fi
    done
    if $started_munge; then
        "${sudo[@]}" pkill -x munged || true
    fi
    if $passed; then
        sleep 1
        rm -rf "$work"
    else
        echo "slurm test: logs and files kept in $work" >&2
    fi
}
trap stop_cluster EXIT

if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
    if [ ! -s /etc/munge/munge.key ]; then
        "${sudo[@]}" mungekey --create > /dev/null 2>&1 || "${sudo[@]}" create-munge-key -f > /dev/null
    fi
    "${sudo[@]}" mkdir -p /run/munge
    "${sudo[@]}" chown munge:munge /run/munge /etc/munge/munge.key 2> /dev/null || true
    if [ "$(id -u)" -eq 0 ]; then
        munged --force
    else
        sudo -u munge munged
    fi
    started_munge=true
    munge -n | unmunge > /dev/null || fail "munge does not work"
fi
"${sudo[@]}" env SLURM_CONF="$SLURM_CONF" slurmctld -c
"${sudo[@]}" env SLURM_CONF="$SLURM_CONF" slurmd
for _ in $(seq 60); do
    if sinfo -h -o %t 2> /dev/null | grep -qx idle; then
        break
    fi
    sleep 1
done
sinfo -h -o %t | grep -qx idle || fail "the node did not come up (logs in $work/log)"
say "cluster up: $(sinfo -h -o '%P %D node(s) %c CPUs %t')"

(cd "$repo" && cargo build --release -q -p sudokit-cli)
export SUDOKIT="$repo/target/release/sudokit"
"$SUDOKIT" generate -q -n 3 --minimal --seed 3 > "$work/seeds.txt"
hunt=(--remove 2 --add 2 --batch 1s)

# Milliseconds since $1 (a `date +%s%N`), as seconds with 3 decimals.
seconds_since() {
    local ms=$((($(date +%s%N) - $1) / 1000000))
    printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

started=$(date +%s%N)
"$SUDOKIT" search -q "${hunt[@]}" --out "$work/whole.txt" "$work/seeds.txt"
say "unsharded: $(wc -l < "$work/whole.txt") puzzles in $(seconds_since "$started")s"

# Waits until no job of the user is left, at most $1 seconds.
wait_jobs() {
    for _ in $(seq "$1"); do
        if [ -z "$(squeue -h -o %i)" ]; then
            return 0
        fi
        sleep 1
    done
    fail "jobs still queued after $1 s: $(squeue -h)"
}

# Submits the hunt as $1 tasks into directory $2 (and the merge after
# them); prints the array job's id.
submit() {
    submit_script "$1" "$2" search.sbatch "$work/seeds.txt" "$2" "${hunt[@]}"
}

# Submits script $3 with arguments $4… as $1 tasks run in directory $2, and
# the merge of directory $2 after them; prints the array job's id.
submit_script() {
    local tasks=$1 dir=$2 script=$3
    shift 3
    mkdir -p "$dir"
    local array merge
    array=$(cd "$dir" && sbatch --parsable --array="1-$tasks" --cpus-per-task=1 \
        --export=ALL "$here/$script" "$@")
    array=${array%%;*}
    merge=$(cd "$dir" && sbatch --parsable --dependency="afterok:$array" --export=ALL \
        "$here/merge.sbatch" "$dir")
    echo "$array"
}

# The puzzles of file $1 in canonical form, sorted.
canonical() {
    "$SUDOKIT" canon "$1" | sort
}

# Requeues task $2 of array job $1 once its checkpoint $3 matches the
# pattern $4 (work done, not finished), and lets it start again at once.
requeue_mid_run() {
    local array=$1 task=$2 checkpoint=$3 pattern=$4
    for _ in $(seq 120); do
        if [ -s "$checkpoint" ] && grep -q "$pattern" "$checkpoint" \
            && squeue -h -j "${array}_$task" -o %t | grep -qx R; then
            break
        fi
        sleep 0.5
    done
    squeue -h -j "${array}_$task" -o %t | grep -qx R || fail "task $task never ran with a checkpoint"
    scontrol requeue "${array}_$task"
    for _ in $(seq 60); do
        if squeue -h -j "${array}_$task" -o %t | grep -qx PD; then
            scontrol update JobId="${array}_$task" StartTime=now
            break
        fi
        sleep 0.5
    done
    say "requeued task $task mid-run"
}

dir="$work/hunt/4"
array=$(submit 4 "$dir")
say "array job $array: 4 tasks"
# Requeue task 2 once it has written a checkpoint with work done.
requeue_mid_run "$array" 2 "$dir/finds-2.txt.checkpoint" '"done":[1-9]'
wait_jobs 600
[ -s "$dir/merged.txt" ] || fail "no merged result (logs in $dir)"
grep -q "resuming from" "$dir"/sudokit-search-"${array}"_2.log \
    || fail "task 2 did not resume from its checkpoint: $(cat "$dir"/sudokit-search-"${array}"_2.log)"
if ! diff <(canonical "$work/whole.txt") <(canonical "$dir/merged.txt") > "$work/diff.txt"; then
    fail "the merge differs from the unsharded hunt ($(wc -l < "$work/diff.txt") lines of diff in $work/diff.txt)"
fi
say "merged: $(wc -l < "$dir/merged.txt") puzzles, the same as unsharded; task 2 resumed after its requeue"
cat "$dir"/sudokit-merge-*.log

# The analyzer and the generator as array jobs: merged byte for byte.
"$SUDOKIT" generate -q -n 2000 --seed 4 > "$work/puzzles.txt"
analysis=(--format jsonl --minimal "$work/puzzles.txt")
"$SUDOKIT" analyze -q "${analysis[@]}" > "$work/analyze-whole.txt"
dir="$work/analyze"
mkdir -p "$dir"
say "$(cd "$dir" && "$here/split.sh" 3 "$dir" analyze "${analysis[@]}")"
wait_jobs 600
cmp -s "$work/analyze-whole.txt" "$dir/merged.txt" \
    || fail "the merged analysis differs from the unsharded one (logs in $dir)"
say "analyze: merged $(wc -l < "$dir/merged.txt") lines, byte for byte the unsharded output"
generation=(--seed 5 -n 3000 --minimal --box 3x4)
"$SUDOKIT" generate -q "${generation[@]}" > "$work/generate-whole.txt"
dir="$work/generate"
array=$(submit_script 3 "$dir" records.sbatch "$dir" generate "${generation[@]}")
say "generate array job $array: 3 tasks"
requeue_mid_run "$array" 2 "$dir/part-2.txt.checkpoint" '"items":[1-9][0-9]*,"total":null'
wait_jobs 600
grep -q "resuming from" "$dir"/sudokit-records-"${array}"_2.log \
    || fail "generate task 2 did not resume from its checkpoint: $(cat "$dir"/sudokit-records-"${array}"_2.log)"
cmp -s "$work/generate-whole.txt" "$dir/merged.txt" \
    || fail "the merged generation differs from the unsharded one (logs in $dir)"
say "generate: merged $(wc -l < "$dir/merged.txt") lines, byte for byte the unsharded output; task 2 resumed after its requeue"
cat "$dir"/sudokit-merge-*.log

if $scaling; then
    for tasks in 1 2 4 8; do
        dir="$work/hunt/scaling-$tasks"
        start=$(date +%s%N)
        array=$(submit "$tasks" "$dir")
        wait_jobs 1200
        took=$(seconds_since "$start")
        diff -q <(canonical "$work/whole.txt") <(canonical "$dir/merged.txt") > /dev/null \
            || fail "$tasks tasks: the merge differs"
        say "$tasks tasks (1 CPU each, $(nproc) CPUs): ${took}s from submission to merged; $(grep -ho '[0-9.]* s$' "$dir"/sudokit-merge-*.log) merging"
    done
fi
passed=true
sharding_digest > "$stamp"
say "PASSED (stamp $stamp updated)"

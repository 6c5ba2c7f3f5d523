#!/bin/bash
# Submits `sudokit analyze` or `sudokit generate` split into N array tasks
# (records.sbatch) and the merge that waits for them (merge.sbatch).
#
#   examples/slurm/split.sh N OUTDIR analyze [analyze options…] FILE…
#   examples/slurm/split.sh N OUTDIR generate --seed S -n COUNT [options…]
#   e.g. examples/slurm/split.sh 16 out analyze --minimal --format jsonl puzzles.txt
#
# Prints the two job ids. Watch with `squeue -u "$USER"`; the tasks' logs
# are sudokit-records-JOB_TASK.log, the merge's sudokit-merge-JOB.log, and
# the result OUTDIR/merged.txt. Input files must be readable from every
# node (a shared file system); extra sbatch options go in SBATCH_*
# variables, e.g. SBATCH_PARTITION=long.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 N OUTDIR analyze|generate [options…]" >&2
    exit 2
fi
tasks=$1
outdir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable --array="1-$tasks" "$here/records.sbatch" "$outdir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" "$here/merge.sbatch" "$outdir")
echo "$1 array job $array ($tasks tasks), merge job ${merge%%;*}"

#!/bin/bash
# Submits a hunt split into N array tasks and the merge that waits for them.
#
#   examples/slurm/hunt.sh N SEEDS OUTDIR [search options…]
#   e.g. examples/slurm/hunt.sh 8 seeds.txt hunt --remove 3 --add 3
#
# Prints the two job ids. Watch with `squeue -u "$USER"`; the tasks' logs
# are sudokit-search-JOB_TASK.log, the merge's sudokit-merge-JOB.log, and
# the result OUTDIR/merged.txt. Extra sbatch options (partition, time
# limit …) go in SBATCH_* variables, e.g. SBATCH_PARTITION=long.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 N SEEDS OUTDIR [search options…]" >&2
    exit 2
fi
tasks=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable --array="1-$tasks" "$here/search.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" "$here/merge.sbatch" "$2")
echo "search array job $array ($tasks tasks), merge job ${merge%%;*}"

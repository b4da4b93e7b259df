#!/bin/bash
# Grades a class on a Slurm cluster: a job array of N shards (grade-class.sbatch), then the merge
# (merge-class.sbatch) once every shard has ended, however it ended. Prints the merge job's id (both jobs'
# on standard error); the class's gradebooks and overview are in OUT/class when it is done, each task's log
# in OUT/logs.
#
#   scripts/slurm/submit.sh N CLASS OUT [grader batch options...]
#
# Options of the merge (the LMS imports' --canvas-assignment-id, --max-grade, ...) go in MERGE_OPTIONS.
# Options of sbatch itself (partition, account, time limit) go in SBATCH_* variables, e.g.
# SBATCH_PARTITION=short SBATCH_TIMELIMIT=1:00:00 scripts/slurm/submit.sh 16 class.zip /scratch/grades
set -euo pipefail

if [ $# -lt 3 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 N CLASS OUT [grader batch options...]  (N shards, N >= 1)" >&2
    exit 2
fi
shards=$1
class=$(realpath "$2")
out=$(realpath -m "$3")
shift 3
here=$(dirname "$(realpath "$0")")
mkdir -p "$out/logs"
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$out/logs/shard-%a.log" \
    "$here/grade-class.sbatch" "$class" "$out" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$out/logs/merge.log" \
    "$here/merge-class.sbatch" "$out" "$shards" ${MERGE_OPTIONS:-})
merge=${merge%%;*}
echo "grader: shards in job array $array (logs in $out/logs), the merge in job $merge, into $out/class" >&2
echo "$merge"

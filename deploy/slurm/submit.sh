#!/bin/bash
# Submits a batch as SHARDS array tasks and its merge, which runs when every shard succeeded.
#
#   SEED=7 COUNT=300000 TOTAL=1000000 deploy/slurm/submit.sh 4
#
# The environment (SEED, COUNT, TOTAL, GENERATE, MERGE, BANK_DIR, SUDOKU_BANK) is passed to
# both jobs; see shard.sbatch and merge.sbatch. Extra arguments after the shard count go to
# both sbatch calls (e.g. --partition=long). Prints the two job ids.
set -euo pipefail

shards=${1:?usage: submit.sh SHARDS [sbatch flags…]}
shift
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable --array="0-$((shards - 1))" "$@" "$here/shard.sbatch")
merge=$(sbatch --parsable --dependency="afterok:$array" "$@" "$here/merge.sbatch")
echo "$array $merge"

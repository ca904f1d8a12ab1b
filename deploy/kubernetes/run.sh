#!/bin/bash
# Runs a batch on Kubernetes: the shared volume, the Indexed Job of shards, then the merge.
# Needs kubectl pointed at the cluster and the sudoku-bank image (see Dockerfile) where the
# cluster can pull it. Edit shards.yaml and merge.yaml for the seed, counts and flags.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kubectl apply -f "$here/volume.yaml"
kubectl apply -f "$here/shards.yaml"
kubectl wait --for=condition=complete --timeout=24h job/sudoku-bank-shards
kubectl apply -f "$here/merge.yaml"
kubectl wait --for=condition=complete --timeout=1h job/sudoku-bank-merge
echo "merged: /bank/bank.csv on volume sudoku-bank"

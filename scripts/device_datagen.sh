#!/usr/bin/env bash
# One datagen run on a lent machine (the `device` tool's 16 cores): every core, one seed,
# stopped after SECONDS; `brudno data add` later cuts the run at its last whole game.
#
# The machine has no network, so the binary travels: build here, copy it into an ignored
# folder that the call carries, and move data/'s files aside while the call runs (data/ is
# larger than the 64 MiB working tree that travels; they are committed, so `git checkout
# data` also brings them back):
#
#   echo /.dev/ >> .git/info/exclude; mkdir -p .dev; cp target/release/brudno .dev/
#   mkdir -p ../data-aside && mv data/*.vf.zst ../data-aside/
#   # device run, carry [".dev"], timeout_s 560:
#   #   scripts/device_datagen.sh .dev/brudno 139 470
#   mv ../data-aside/*.vf.zst data/
#   brudno data add <files_at>/seed139.vf
#
# The run writes seedN.vf and seedN.vf.progress under $OUT (the files that come back: at
# most 16 MiB each, so --moves stops it at 3.5 million moves, about 15 MB). On 2026-12-04,
# 16 threads wrote about 12 million moves an hour (seeds 139 and 140).
set -u
binary=${1:?usage: device_datagen.sh BINARY SEED [SECONDS]}
seed=${2:?usage: device_datagen.sh BINARY SEED [SECONDS]}
seconds=${3:-470}
binary=$(realpath "$binary")
threads=$(nproc)
cd "${OUT:?set OUT: the folder whose files come back}"
echo "datagen: seed $seed, $threads threads, $seconds s, from $(date -u +%T)"
timeout -s TERM "$seconds" "$binary" datagen --output "seed$seed.vf" --threads "$threads" \
    --seed "$seed" --moves 3500000 --quiet > "seed$seed.log" 2>&1
echo "datagen: exit $? at $(date -u +%T) (124: stopped by the timeout, as planned)"
cat "seed$seed.vf.progress"
ls -l

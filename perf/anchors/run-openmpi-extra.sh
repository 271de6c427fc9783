#!/usr/bin/env bash
# Open MPI (C, shared-memory vader transport) anchors for the collectives, modelled on
# ../shared/anchors/run-openmpi.sh (same mpirun flags); prints CSV rows:
# system,test,variant,size,rep,value,unit.
# usage: run-openmpi-extra.sh allreduce [sizes...]   MPI_Allreduce of DOUBLE (SUM), us per call,
#                                                     NP ranks (env NP, default 8; sizes default 8 65536)
#        run-openmpi-extra.sh barrier [np...]         MPI_Barrier, us per call, one mpirun per rank
#                                                     count (default: NP, else 8); size column = np
#        run-openmpi-extra.sh jface|kface [N...]     a halo face of N^3 doubles (vector(N,N,N^2) /
#                                                     vector(N^2,1,N)) ping-pong into a contiguous
#                                                     ghost, half round trip us, 2 ranks (faces.c)
# Like the shared anchors: 2 ranks are bound to cores (--bind-to core, as pingpong/bw), more ranks
# run --oversubscribe without binding (as halo3d: 8 ranks on 2 cores, Open MPI yields when idle).
# Installs openmpi-bin/libopenmpi-dev with apt-get when mpicc is missing. Builds into $BUILD.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-/tmp/hympj-anchors-extra}
what=${1:?usage: run-openmpi-extra.sh allreduce|barrier|jface|kface [sizes or np...]}; shift || true
if ! command -v mpicc >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev) >/dev/null
fi
mkdir -p "$BUILD"
for p in allreduce barrier faces; do
  [ "$BUILD/$p" -nt "$here/$p.c" ] || mpicc -O2 -o "$BUILD/$p" "$here/$p.c"
done
MPI="mpirun --allow-run-as-root --oversubscribe --mca pml ob1 --mca btl self,vader"
rep=${REP:-1}
bind() { if [ "$1" -le 2 ]; then echo "--bind-to core"; fi; }
case $what in
  allreduce)
    np=${NP:-8}
    $MPI -np "$np" $(bind "$np") "$BUILD/allreduce" "$rep" ${@:-8 65536} ;;
  barrier)
    for np in ${@:-${NP:-8}}; do
      $MPI -np "$np" $(bind "$np") "$BUILD/barrier" "$rep"
    done ;;
  jface|kface)
    $MPI -np 2 --bind-to core "$BUILD/faces" "${what%face}" "$rep" ${@:-16 32 64 128} ;;
  *) echo "unknown benchmark: $what (allreduce | barrier | jface | kface)" >&2; exit 2 ;;
esac

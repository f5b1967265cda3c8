#!/usr/bin/env bash
# Grades a class on a real Slurm, as the instructors' guide's array job does, and checks
# that the shards merged give exactly one run's outputs (the reports' run
# dates aside).
#
# Starts a single-node Slurm from Debian's packages (slurm-wlm, munge) on
# this machine, every daemon on loopback, as root; submits the array job
# (`--shard auto`) over the class; merges; compares file by file with one
# run of the same class; stops what it started.
#
#   scripts/slurm-array.sh [--tasks N] [--crates] [--keep DIR]
#
#   --tasks N   array tasks (default 2)
#   --crates    grade a class of Rust crates (slow: each crate compiles)
#               instead of the class of Python programs
#   --keep DIR  keep the class and every output in DIR
#
# Needs root (Slurm's daemons), bubblewrap and python3; installs slurm-wlm
# and munge when missing. BOARDKIT names the binary (default: the release
# build, else the debug build, of this checkout).
set -euo pipefail

tasks=2
crates=false
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tasks) tasks="$2"; shift 2 ;;
    --crates) crates=true; shift ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "usage: $0 [--tasks N] [--crates] [--keep DIR]" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
boardkit="${BOARDKIT:-}"
if [ -z "$boardkit" ]; then
  for candidate in "$root/target/release/boardkit" "$root/target/debug/boardkit"; do
    if [ -x "$candidate" ]; then boardkit="$candidate"; break; fi
  done
fi
[ -n "$boardkit" ] || { echo "no boardkit binary: cargo build -p boardkit-cli first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "Slurm's daemons need root" >&2; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null; }
fi

work="${keep:-$(mktemp -d /tmp/boardkit-slurm.XXXXXX)}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
conf="$work/slurm"
mkdir -p "$conf/spool/ctld" "$conf/spool/d" "$conf/log" "$conf/munge"
# munged runs as its own user: it must reach its folder (mktemp's is 700).
chmod 755 "$work" "$conf"

started=()
stop() {
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${started[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ -z "$keep" ]; then rm -rf "$work"; fi
}
trap stop EXIT

# munge: a key of this run's own, its socket in the work folder.
munge_socket="$conf/munge/munge.socket"
dd if=/dev/urandom of="$conf/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$conf/munge"
chmod 711 "$conf/munge"
chmod 400 "$conf/munge/munge.key"
runuser -u munge -- munged --key-file="$conf/munge/munge.key" \
  --socket="$munge_socket" --pid-file="$conf/munge/munged.pid" \
  --log-file="$conf/munge/munged.log" --seed-file="$conf/munge/seed"
started+=("$(cat "$conf/munge/munged.pid")")

# One node, its controller and its daemon on loopback.
cpus="$(nproc)"
cat >"$conf/slurm.conf" <<EOF
ClusterName=boardkit
SlurmctldHost=$(hostname)(127.0.0.1)
MailProg=/bin/true
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
StateSaveLocation=$conf/spool/ctld
SlurmdSpoolDir=$conf/spool/d
SlurmctldPidFile=$conf/slurmctld.pid
SlurmdPidFile=$conf/slurmd.pid
SlurmctldLogFile=$conf/log/slurmctld.log
SlurmdLogFile=$conf/log/slurmd.log
NodeName=boardkit NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus State=UNKNOWN
PartitionName=grading Nodes=boardkit Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$conf/slurm.conf"
slurmctld -i
slurmd -N boardkit
for _ in $(seq 100); do
  [ -s "$conf/slurmctld.pid" ] && [ -s "$conf/slurmd.pid" ] && break
  sleep 0.1
done
started+=("$(cat "$conf/slurmd.pid")" "$(cat "$conf/slurmctld.pid")")
for _ in $(seq 150); do
  state="$(sinfo -h -N -o '%t' 2>/dev/null || true)"
  case "$state" in idle*) break ;; esac
  sleep 0.2
done
case "$state" in
  idle*) ;;
  *) echo "the node did not come up (state '$state'):" >&2
     tail -20 "$conf/log/slurmctld.log" "$conf/log/slurmd.log" >&2
     exit 1 ;;
esac

# The class.
class="$work/class"
rm -rf "$class"
mkdir -p "$class"
if $crates; then
  grade_args=(velha)
  for name in ana bia caio; do
    "$boardkit" starter velha "$class/$name" >/dev/null
    rm -rf "$class/$name/src/velha"
    cp -r "$root/src/velha" "$class/$name/src/velha"
  done
  # One bug: a diagonal never counted.
  sed -i 's#lines.push((0..n).map(|i| cell(i, n - 1 - i)).sum());##' "$class/caio/src/velha/board.rs"
  "$boardkit" starter velha "$class/untouched" >/dev/null
else
  grade_args=(velha --program "python3 programa.py" --timeout 2)
  for name in ana bia caio davi eva; do
    mkdir -p "$class/$name"
    cp "$root/cli/tests/grading/python/python_ok/programa.py" "$class/$name/"
  done
  cp "$root/cli/tests/grading/python/python_no_diagonal/programa.py" "$class/caio/"
  printf 'import sys\nsys.exit(3)\n' >"$class/davi/programa.py"
fi

# The array job, as docs/instructors.md gives it.
cat >"$work/grade.sbatch" <<EOF
#!/bin/bash
#SBATCH --array=1-$tasks --cpus-per-task=1 --output=$work/task-%a.log
cd "$work"
"$boardkit" grade ${grade_args[*]@Q} "$class"/* --jobs 1 --shard auto --out "$work/shard-\${SLURM_ARRAY_TASK_ID}"
EOF
start=$(date +%s%N)
job="$(sbatch --parsable "$work/grade.sbatch")"
echo "submitted array job $job ($tasks tasks)"
# A job that never ends fails the script (in 30 minutes), not the CI run's limit.
deadline=$((SECONDS + 1800))
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
  if [ "$SECONDS" -gt "$deadline" ]; then
    echo "the array job did not finish in 30 minutes:" >&2
    squeue -j "$job" >&2 || true
    scancel "$job" || true
    exit 1
  fi
  sleep 0.5
done
array_ms=$((($(date +%s%N) - start) / 1000000))
for k in $(seq "$tasks"); do
  if [ ! -f "$work/shard-$k/grades.csv" ]; then
    echo "task $k wrote no grades:" >&2
    cat "$work/task-$k.log" >&2 || true
    exit 1
  fi
  grep -m1 "grading shard" "$work/task-$k.log" || true
done
shards=()
for k in $(seq "$tasks"); do shards+=("$work/shard-$k"); done
"$boardkit" grade merge "${shards[@]}" --out "$work/merged" >/dev/null

start=$(date +%s%N)
"$boardkit" grade "${grade_args[@]}" "$class"/* --jobs 1 --out "$work/whole" >/dev/null
whole_ms=$((($(date +%s%N) - start) / 1000000))

# File by file, but for the date each run wrote.
undated() {
  grep -v -e '<p class="meta">' -e '"graded_at"' "$1"
}
compared=0
differ=0
while IFS= read -r file; do
  rel="${file#"$work/whole/"}"
  if ! diff <(undated "$file") <(undated "$work/merged/$rel") >/dev/null 2>&1; then
    echo "differs: $rel" >&2
    differ=$((differ + 1))
  fi
  compared=$((compared + 1))
done < <(find "$work/whole" -path "$work/whole/.work" -prune -o -type f -print | sort)
extra=$(comm -13 \
  <(cd "$work/whole" && find . -path ./.work -prune -o -type f -print | sort) \
  <(cd "$work/merged" && find . -path ./.work -prune -o -type f -print | sort) | wc -l)
echo "array job: ${array_ms} ms for $tasks tasks (submitted to finished); one run with --jobs 1: ${whole_ms} ms"
if [ "$differ" -ne 0 ] || [ "$extra" -ne 0 ] || [ "$compared" -eq 0 ]; then
  echo "FAILED: $differ of $compared files differ, $extra only in the merge" >&2
  exit 1
fi
echo "ok: the $tasks shards merged equal one run, $compared files"

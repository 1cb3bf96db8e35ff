#!/usr/bin/env bash
# The process view on a real NVIDIA GPU, without Qt or pytest: a PyTorch load (tests/gpu_load.py),
# then `monitor --once` (table and JSON) and the process service, beside nvidia-smi's own view.
#   bash tests/real_gpu_process_check.sh            (about 30 s)
# Look for: the load's PID in monitor's process table and JSON with used_mib close to nvidia-smi's
# used_memory and an SM % (pmon's "sm" column is the same NVML sample), and its command line in the
# service's row.
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
log=$(mktemp)
$PY tests/gpu_load.py --seconds 40 --gib 4 >"$log" 2>&1 &
load=$!
for _ in $(seq 1 60); do grep -q loaded "$log" && break; sleep 0.5; done
cat "$log"; sleep 3
echo "=== monitor --once"; timeout 60 $PY main.py monitor --once; echo "[exit $?]"
echo "=== monitor --once --json (processes)"
timeout 60 $PY main.py monitor --once --json | $PY -c '
import json, sys
doc = json.load(sys.stdin)
for g in doc["gpus"]:
    for p in g["processes"] or []:
        print(g["index"], p)'
echo "=== nvidia-smi --query-compute-apps=pid,used_memory --format=csv"
nvidia-smi --query-compute-apps=pid,used_memory --format=csv
echo "=== nvidia-smi pmon -c 1 -s u"; timeout 20 nvidia-smi pmon -c 1 -s u; echo "[exit $?]"
echo "=== the process service (three readings)"
timeout 60 $PY - "$load" <<'PY'
import sys
from services.telemetry.model import Tier
from services.telemetry.nvml_source import NvmlSource
from services.telemetry.processes import ProcessService
pid = int(sys.argv[1])
source = NvmlSource(); source.open()
service = ProcessService()
for step in range(3):
    table = service.update(source.read(Tier.FAST | Tier.SLOW | Tier.STATIC, float(step)))
for row in table.rows:
    if row.pid == pid:
        print(row)
source.close()
PY
echo "[exit $?]"
kill "$load" 2>/dev/null; wait "$load" 2>/dev/null; rm -f "$log"

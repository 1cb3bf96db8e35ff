"""Bad input never gives a traceback: every headless command, run in-process through ``main(argv)``.

One table holds issue 16's hostile inputs (FIFOs, devices, empty names, files in the way) and the
wrong values, missing and corrupt files for every option of every command. Each case checks the
documented exit code (2 bad usage or input, 3 no GPU/driver), one clear ``error:`` line as the whole
of stderr, no traceback, nothing but JSON on stdout with ``--json``, no hang (a FIFO left unopened is
the point: a watchdog unblocks it and fails the case if the command opened it), and that no file of
the user's was changed, replaced or created. A second table checks that every ``--json`` output is
valid JSON and nothing else. Cases whose answer depends on the machine (a GPU present or not) are
skipped where it differs. The same paths run as real processes in tests/test_cli_robustness.py.
"""
from __future__ import annotations

import errno
import functools
import json
import os
import sys
import re
import sqlite3
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from main import main
from tests.services.test_cli_sessions import START, make_session

HAS_FIFO = hasattr(os, "mkfifo")
HAS_DEV_FULL = os.path.exists("/dev/full") and stat.S_ISCHR(os.stat("/dev/full").st_mode)
LONG = "x" * 5000  # longer than any file name the OS allows (ENAMETOOLONG from stat)
USAGE, NO_GPU = 2, 3
# Our own errors are "error: ..."; argparse's (the OneLineParser in main.py) are
# "main.py: error: ... (see: ...)" or "main.py psu: error: ...".
ERROR_LINE = re.compile(r"^(main\.py( [a-z]+)?: )?error: \S")


def _nvml_gpu_count() -> int:
    from services.telemetry.nvml import Nvml

    nvml = Nvml()
    try:
        nvml.init()
        return int(nvml.call("nvmlDeviceGetCount"))
    except Exception:  # any failure means "no usable GPU here"
        return 0
    finally:
        nvml.shutdown()


def _nvidia_pci_present() -> bool:
    devices = Path("/sys/bus/pci/devices")
    if not devices.is_dir():
        return False
    for dev in devices.iterdir():
        try:
            if (dev / "vendor").read_text().strip().lower() == "0x10de":
                return True
        except OSError:
            continue
    return False


@functools.cache
def _any_gpu_for_hybrid() -> bool:
    from services.hybrid.service import default_service

    service = default_service()
    try:
        return bool(service.inventory().has_gpu)
    finally:
        service.close()


NO_NVML = _nvml_gpu_count() == 0
NO_NVIDIA_AT_ALL = NO_NVML and not _nvidia_pci_present()
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]
    code: int = USAGE
    says: str = ""  # words the error line must contain (case-insensitive)
    # skip where not true: "fifo", "dev_full", "no_nvml", "no_nvidia", "no_gpu_hybrid", "not_root"
    needs: str = ""
    shows: bool = False  # stdout may carry what it would have done (the exact commands it refuses to run)

    @property
    def id(self) -> str:
        text = " ".join(a if len(a) < 40 else a[:12] + "..." for a in self.argv)
        return text.replace("{d}/", "").replace("{d}", "D")


def C(*argv: str, code: int = USAGE, says: str = "", needs: str = "", shows: bool = False) -> Case:
    return Case(tuple(argv), code, says, needs, shows)


SESSION = "{session}"

CASES: list[Case] = [
    # ==== issue 16's hostile inputs
    # sessions --export: never replace what is not a regular file; an empty id is bad input
    C("sessions", "--dir", "{d}/rec", "--export", SESSION, "--csv", "{d}/fifo", says="FIFO", needs="fifo"),
    C("sessions", "--dir", "{d}/rec", "--export", SESSION, "--csv", "/dev/full", says="device", needs="dev_full"),
    C("sessions", "--dir", "{d}/rec", "--export", "", "--csv", "{d}/out.csv", says="--export"),
    C("sessions", "--dir", "{d}/rec", "--export", "  ", "--csv", "{d}/out.csv", says="session id"),
    C("sessions", "--dir", "{d}/rec", "--compare", "", SESSION, says="session id"),
    C("sessions", "--dir", "{d}/rec", "--export", SESSION, "--csv", "", says="--csv"),
    C("sessions", "--dir", "{d}/rec", "--export", "{d}/fifo.sqlite", "--csv", "{d}/out.csv", says="FIFO",
      needs="fifo"),
    C("sessions", "--dir", "{d}/rec", "--compare", "{d}/fifo", SESSION, says="FIFO", needs="fifo"),
    # FIFOs and '' as every path option
    C("fit", "--model", "{d}/fifo", says="FIFO", needs="fifo"),
    C("fit", "--model", "", says="--model"),
    C("fit", "--model-config", "{d}/fifo", says="FIFO", needs="fifo"),
    C("fit", "--model-config", "", says="--model-config"),
    C("setup", "--plan", "--gpu", "10de:2684", "--os-release", "{d}/fifo", says="FIFO", needs="fifo"),
    C("setup", "--plan", "--gpu", "10de:2684", "--os-release", "", says="--os-release"),
    C("monitor", "--source", "demo", "--csv", "{d}/fifo", "--duration", "1", says="FIFO", needs="fifo"),
    C("monitor", "--source", "demo", "--csv", "", "--duration", "1", says="--csv"),
    C("monitor", "--source", "demo", "--csv", "/dev/full", "--duration", "1", says="device", needs="dev_full"),
    C("monitor", "--source", "demo", "--csv", "{d}/notes.txt/log.csv", "--duration", "1"),
    C("--replay", "{d}/fifo", says="FIFO", needs="fifo"),
    C("--replay", "", says="--replay"),
    C("--replay", "/dev/full", says="device", needs="dev_full"),
    # --screenshot: checked before any window is built
    C("--screenshot", "", says="--screenshot"),
    C("--screenshot", "{d}/missing/shot.png", says="folder does not exist"),
    C("--screenshot", "{d}/notes.txt/shot.png", says="is a file"),
    C("--screenshot", "{d}/fifo.png", says="FIFO", needs="fifo"),
    # ==== wrong values, missing and corrupt files, command by command
    # ---- top level
    C("no-such-command"),
    C("--screenshot", "{d}/page.png", "--page", "nowhere", says="unknown page"),
    C("--lang", "fr"),
    C("--screenshot", "{d}/notes.txt", says=".png"),
    # ---- fit
    C("fit", says="model"),
    C("fit", "--model", "no-such-org/no-such-model", says="unknown model"),
    C("fit", "--model", "{d}/missing.json", says="not found"),
    C("fit", "--model", "{d}/nodir/sub/config.json", says="not found"),
    C("fit", "--model", "{d}/folder.json"),
    C("fit", "--model", "{d}/empty.json", says="json"),
    C("fit", "--model", "{d}/corrupt.json", says="json"),
    C("fit", "--model", "{d}/nonutf8.json", says="utf-8"),
    C("fit", "--model", "{d}/list.json"),
    C("fit", "--model", "{d}/badcfg.json"),
    C("fit", "--model", "{d}/random.bin", says="unsupported"),
    C("fit", "--model", "{d}/random.gguf", says="gguf"),
    C("fit", "--model", "{d}/truncated.gguf", says="gguf"),
    C("fit", "--model", "{d}/random.safetensors", says="safetensors"),
    C("fit", "--model", "{d}/truncated.safetensors", says="safetensors"),
    C("fit", "--model", "{d}/ünï中文"),
    C("fit", "--model", "{d}/unreadable.json", needs="not_root"),
    C("fit", "--model", LONG),
    C("fit", "--model-config", "{d}/folder.json", says="folder"),
    C("fit", "--model-config", "{d}/random.bin", says="utf-8"),
    C("fit", "--model-config", LONG),
    *(C("fit", "--params-b", v) for v in ("-7", "0", "nan", "inf", "1e300", "abc", "")),
    *(C("fit", "--params-b", "7", flag, v) for flag, v in (
        ("--seq", "-1"), ("--seq", "0"), ("--seq", "99999999999999"), ("--seq", "1e9"), ("--batch", "0"),
        ("--gpus", "0"), ("--gpus", "100000"), ("--lora-rank", "-1"), ("--task", "fly"), ("--weights", "int3"),
        ("--engine", "magic"), ("--kv-dtype", "fp2"), ("--strategy", "x"), ("--attention", "x"),
        ("--gpu", "RTX 9999"), ("--gpu", LONG), ("--gpu", "中文显卡"))),
    C("fit", "--params-b", "7", "--gpu", "detected", code=NO_GPU, needs="no_nvml"),
    C("fit", "--model", "no-such-org/no-such-model", "--json"),
    C("fit", "--model", "meta-llama/Llama-3.1-8B", "--params-b", "70", says="one model"),
    C("fit", "--model", "meta-llama/Llama-3.1-8B", "--model-config", "{d}/config.json", says="one model"),
    # ---- psu
    C("psu"),
    C("psu", "--detect", code=NO_GPU, needs="no_nvml", says="no nvidia gpu"),
    C("psu", "--gpu", "RTX 9999", says="unknown gpu"),
    C("psu", "--gpu", "RTX 9999", "--json"),
    C("psu", "--detect", "--json", code=NO_GPU, needs="no_nvml"),
    C("psu", "--gpu", ""),
    C("psu", "--gpu", LONG),
    C("psu", "--gpu", "4090", "--cpu", "Pentium 9000"),
    *(C("psu", "--gpu", "4090", flag, v) for flag, v in (
        ("--cpu-w", "-5"), ("--cpu-w", "nan"), ("--cpu-w", "inf"), ("--ram-sticks", "-1"),
        ("--ram-sticks", "100000"), ("--nvme", "abc"), ("--psu-w", "0"), ("--psu-w", "nan"),
        ("--psu-w", "1e12"), ("--psu-8pin", "99999"), ("--price-kwh", "-1"), ("--price-kwh", "inf"),
        ("--hours-per-day", "25"), ("--card-price", "nan"), ("--cloud-rate", "-1"),
        ("--price", "4090"), ("--price", "4090=abc"), ("--price", "4090=-5"), ("--price", "nosuchcard=100"))),
    C("psu", "--compare"),
    C("psu", "--compare", "--gpu", "4090", "--gpu", "3090", "--gpu", "5090", "--gpu", "4080", says="three"),
    *(C("psu", "--recommend", "--params-b", v) for v in ("-5", "nan", "1e9")),
    C("psu", "--recommend", "--params-b", "7", "--budget", "nan"),
    C("psu", *(["--gpu", "4090"] * 9)),
    # ---- monitor
    C("monitor", "--source", "nowhere"),
    *(C("monitor", "--source", "demo", "--interval", v, "--duration", "1") for v in ("0", "-1", "nan", "inf", "abc")),
    *(C("monitor", "--source", "demo", "--duration", v) for v in ("-1", "nan", "0")),
    C("monitor", "--source", "demo", "--once", "--duration", "5"),
    C("monitor", "--source", "demo", "--csv", "{d}/folder.json", "--duration", "1", says="folder"),
    C("monitor", "--source", "demo", "--csv", "{d}/nodir/log.csv", "--duration", "1", says="folder"),
    C("monitor", "--source", "demo", "--csv", "{d}/random.bin", "--duration", "1"),
    C("monitor", "--source", "demo", "--csv", "{d}/" + "y" * 300 + ".csv", "--duration", "1"),
    C("monitor", "--once", code=NO_GPU, needs="no_nvml"),
    C("monitor", "--once", "--json", code=NO_GPU, needs="no_nvml"),
    # ---- sessions
    C("sessions"),
    C("sessions", "--list", "--compare", "a", "b"),
    C("sessions", "--list", "--dir", "{d}/missing"),
    C("sessions", "--list", "--dir", "{d}/random.bin"),
    C("sessions", "--list", "--dir", LONG),
    C("sessions", "--export", "nope", says="--csv"),
    C("sessions", "--export", "nope", "--csv", "{d}/out.csv", says="no session"),
    C("sessions", "--export", "{d}/random.bin", "--csv", "{d}/out.csv"),
    C("sessions", "--export", LONG, "--csv", "{d}/out.csv"),
    C("sessions", "--export", "nope", "--csv", "{d}/" + LONG),
    C("sessions", "--export", "nope", "--csv", "{d}/folder.json"),
    C("sessions", "--compare", "a", "b"),
    C("sessions", "--compare", "a", "b", "--json"),
    C("sessions", "--compare", LONG, "b"),
    # ---- doctor
    C("doctor", "--python", "{d}/missing/python3"),
    C("doctor", "--python", "{d}/folder.json"),
    C("doctor", "--python", "{d}/random.bin", says="not executable"),
    C("doctor", "--python", "{d}/ünï中文"),
    C("doctor", "--python", LONG),
    C("doctor", "--explain", ""),
    C("doctor", "--explain", "   "),
    # ---- setup
    C("setup"),
    C("setup", "--plan", "--os-release", "{d}/missing"),
    C("setup", "--plan", "--os-release", "{d}/folder.json"),
    C("setup", "--plan", "--os-release", "{d}/random.bin", says="os-release"),
    C("setup", "--plan", "--os-release", "{d}/nonutf8.json"),
    C("setup", "--plan", "--os-release", "{d}/empty.json"),
    C("setup", "--plan", "--os-release", LONG),
    *(C("setup", "--plan", "--gpu", v, says="pci id") for v in ("foo", "10de:zzzz", "1234:5678", "")),
    C("setup", "--plan", "--gpu", "10de:2684", "--python", "{d}/missing/python"),
    C("setup", "--plan", "--gpu", "10de:2684", "--python", LONG),
    C("setup", "--run", "no-such-step", "--gpu", "10de:2684", "--dry-run", says="no step"),
    C("setup", "--undo", "no-such-step", "--gpu", "10de:2684", "--dry-run", says="no step"),
    C("setup", "--run", "", "--gpu", "10de:2684", "--dry-run", says="no step ''"),
    # Linux asks for --yes; Windows first for the driver's installer file (the step runs it).
    C("setup", "--run", "install-driver", "--gpu", "10de:2684", says="--driver-package" if sys.platform == "win32" else "--yes",
      shows=True),
    C("setup", "--run", "install-driver", "--os-release", "{d}/os-release"),
    C("setup", "--plan", code=NO_GPU, needs="no_nvidia"),
    C("setup", "--plan", "--json", code=NO_GPU, needs="no_nvidia"),
    C("doctor", "--json", "--python", "{d}/missing/python"),
    # ---- hybrid
    C("hybrid"),
    C("hybrid", "--pid", "abc"),
    C("hybrid", "--pid", "-1"),
    C("hybrid", "--pid", "0"),
    *(C("hybrid", "--list", "--interval", v) for v in ("-1", "0", "nan", "inf", "1e9")),
    *(C("hybrid", "--launch", "--timeout", v, "--", "true") for v in ("-1", "nan")),
    C("hybrid", "--launch", says="program"),
    C("hybrid", "--list", "stray"),
    C("hybrid", "--prefer-nvidia", "", "--dry-run"),
    C("hybrid", "--undo", ""),
    C("hybrid", "--undo", "{d}/missing", says="undo"),
    C("hybrid", "--undo", LONG),
    C("hybrid", "--dry-run", "--list"),
    C("hybrid", "--list", code=NO_GPU, needs="no_gpu_hybrid"),
    C("hybrid", "--list", "--json", code=NO_GPU, needs="no_gpu_hybrid"),
    C("hybrid", "--pid", "-1", "--json"),
    # ---- exporter
    *(C("exporter", "--demo", "--port", v, "--duration", "1") for v in ("-1", "70000", "abc")),
    *(C("exporter", "--demo", "--gpus", v, "--duration", "1") for v in ("0", "99")),
    *(C("exporter", "--demo", "--interval", v, "--duration", "1") for v in ("0", "-1", "nan", "inf")),
    *(C("exporter", "--demo", "--duration", v) for v in ("-1", "nan", "inf")),
    C("exporter", "--demo", "--host", "no-such-host.invalid", "--duration", "1"),
    # ==== issue 23: an empty string is bad input, never "the option was left out"
    C("exporter", "--demo", "--host", "", "--duration", "1", says="--host"),
    C("exporter", "--demo", "--host", "  ", "--duration", "1", says="--host"),
    C("fit", "--gpu", "", "--params", "7", says="--gpu"),
    C("psu", "--gpu", "RTX 4090", "--cpu", "", says="--cpu"),
    C("--screenshot", "{d}/page.png", "--page", "", says="unknown page"),
    C("doctor", "--python", "", says="--python"),
    C("setup", "--plan", "--python", "", says="--python"),
    C("sessions", "--dir", "", "--list", says="--dir"),
    C("exporter", "--duration", "1", code=NO_GPU, needs="no_nvml"),
    # ---- the app's --demo before a command that has no simulated source, or with one that contradicts it
    C("--demo", "psu", "--gpu", "4090", says="not for 'psu'"),
    C("--demo", "monitor", "--source", "nvml", "--once", says="contradict"),
    # ---- a program that is not there is named before any GPU is looked for
    C("hybrid", "--prefer-nvidia", "{d}/missing/program", says="no such program"),
    C("hybrid", "--launch", "--", "no-such-program-anywhere", says="no such program"),
]

# Commands that succeed: with --json, stdout is one JSON document and nothing else.
JSON_OK: list[tuple[tuple[str, ...], tuple[int, ...]]] = [
    (("monitor", "--once", "--json", "--source", "demo"), (0,)),
    (("--demo", "monitor", "--once", "--json"), (0,)),
    (("sessions", "--list", "--json"), (0,)),
    (("fit", "--model", "meta-llama/Llama-3.1-8B", "--json"), (0,)),
    (("fit", "--model", "Qwen/Qwen2.5-14B-Instruct", "--task", "train", "--method", "qlora", "--gpu", "4090",
      "--json"), (0,)),
    (("fit", "--model", "{d}/config.json", "--seq", "8192", "--json"), (0,)),
    (("psu", "--gpu", "4090", "--cpu", "13900K", "--json"), (0,)),
    (("psu", "--compare", "--gpu", "4090", "--gpu", "3090", "--json"), (0,)),
    (("psu", "--recommend", "--params-b", "7", "--json"), (0,)),
    (("doctor", "--list-envs", "--json"), (0,)),
    (("doctor", "--json"), (0, 1, 3)),
    (("doctor", "--explain", "RuntimeError: CUDA error: no kernel image is available for execution on the device",
      "--json"), (0,)),
    (("setup", "--plan", "--gpu", "10de:2684", "--os-release", "{d}/os-release", "--json"), (0,)),
    (("setup", "--plan", "--gpu", "10de:2684", "--windows", "--json"), (0,)),
    (("hybrid", "--list", "--json"), (0, 3)),
]


def _skip_reason(needs: str) -> str | None:
    if needs == "fifo" and not HAS_FIFO:
        return "no FIFOs here"
    if needs == "dev_full" and not HAS_DEV_FULL:
        return "no /dev/full here"
    if needs == "no_nvml" and not NO_NVML:
        return "NVML finds a GPU here"
    if needs == "no_nvidia" and not NO_NVIDIA_AT_ALL:
        return "an NVIDIA GPU is present here"
    if needs == "no_gpu_hybrid" and _any_gpu_for_hybrid():
        return "this machine has a GPU the hybrid checker sees"
    if needs == "not_root" and IS_ROOT:
        return "root reads every file"
    return None


def make_inputs(d: Path) -> str:
    """The user's files the commands are pointed at (good, missing, corrupt, in the way); returns the
    id of one good recording in ``d/rec``."""
    (d / "notes.txt").write_text("my notes\n", encoding="utf-8")
    (d / "empty.json").write_bytes(b"")
    (d / "corrupt.json").write_text('{"hidden_size": ', encoding="utf-8")
    (d / "nonutf8.json").write_bytes(b'\xff\xfe\xfa{"a": 1')
    (d / "list.json").write_text("[1, 2, 3]", encoding="utf-8")
    (d / "badcfg.json").write_text('{"num_hidden_layers": "many"}', encoding="utf-8")
    noise = bytes((i * 7919 + 13) % 256 for i in range(3000))  # deterministic "binary junk"
    for name in ("random.bin", "random.gguf", "random.safetensors"):
        (d / name).write_bytes(noise)
    (d / "truncated.gguf").write_bytes(b"GGUF\x03\x00\x00\x00")
    (d / "truncated.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":")
    (d / "folder.json").mkdir()
    (d / "ünï中文").mkdir()
    (d / "os-release").write_text('NAME="Ubuntu"\nID=ubuntu\nVERSION_ID="24.04"\n', encoding="utf-8")
    unreadable = d / "unreadable.json"
    unreadable.write_text("{}", encoding="utf-8")
    unreadable.chmod(0)
    (d / "config.json").write_text(json.dumps({
        "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
        "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
        "tie_word_embeddings": False, "torch_dtype": "bfloat16"}), encoding="utf-8")
    if HAS_FIFO:
        for name in ("fifo", "fifo.sqlite", "fifo.png"):
            os.mkfifo(d / name)
    return make_session(d / "rec", START, 5)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> tuple[Path, str]:
    """Read-only inputs shared by the table (each case checks it left them as they were)."""
    d = tmp_path_factory.mktemp("users-files")
    return d, make_inputs(d)


@pytest.fixture
def world(tmp_path, monkeypatch) -> tuple[Path, str]:
    """The same files, fresh for a test that writes next to them."""
    monkeypatch.setenv("GPU_ASSISTANT_HOME", str(tmp_path / "home"))
    return tmp_path, make_inputs(tmp_path)


def _state(d: Path) -> dict[str, tuple]:
    out = {}
    for p in sorted(d.rglob("*")):
        if "home" in p.relative_to(d).parts:
            continue  # the app's own settings/recordings folder
        st = p.lstat()
        kind = stat.S_IFMT(st.st_mode)
        out[str(p.relative_to(d))] = (kind, st.st_mode, p.read_bytes() if stat.S_ISREG(st.st_mode) and st.st_mode & 0o400 else None)
    return out


class _FifoWatchdog:
    """If a command opens a FIFO (and blocks), open the other end after a while so it returns."""

    def __init__(self, paths: list[Path], after_s: float = 10.0) -> None:
        self.paths = paths
        self.fired = False
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(after_s,), daemon=True)

    def __enter__(self) -> "_FifoWatchdog":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()

    def _run(self, after_s: float) -> None:
        if self._done.wait(after_s):
            return
        self.fired = True
        while not self._done.is_set():
            for path in self.paths:
                for flags in (os.O_WRONLY | os.O_NONBLOCK, os.O_RDONLY | os.O_NONBLOCK):
                    try:
                        os.close(os.open(path, flags))
                    except OSError:
                        pass
            time.sleep(0.05)


def run_main(argv: list[str], capsys, watch: list[Path] = ()) -> tuple[int, str, str]:
    """``main(argv)`` in this process: (exit code, stdout, stderr); argparse's SystemExit is an exit code."""
    with _FifoWatchdog(list(watch)) as watchdog:
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    captured = capsys.readouterr()
    assert not watchdog.fired, f"{argv}: the command opened a FIFO and hung\n{captured.err[-2000:]}"
    return code, captured.out, captured.err


def _argv(args: tuple[str, ...], d: Path, session: str) -> list[str]:
    return [a.replace("{d}", str(d)).replace(SESSION, session) for a in args]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_line_and_the_documented_code(case: Case, inputs, capsys):
    reason = _skip_reason(case.needs)
    if reason:
        pytest.skip(reason)
    d, session = inputs
    argv = _argv(case.argv, d, session)
    before = _state(d)
    full_before = os.stat("/dev/full") if HAS_DEV_FULL else None
    code, out, err = run_main(argv, capsys, [d / "fifo", d / "fifo.sqlite", d / "fifo.png"] if HAS_FIFO else [])
    shown = f"argv={[a[:60] for a in argv]} rc={code}\nstdout:\n{out[-1000:]}\nstderr:\n{err[-2000:]}"
    assert "Traceback" not in err and "Traceback" not in out, shown
    assert code == case.code, shown
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and ERROR_LINE.match(lines[0]), shown
    if case.says:
        assert case.says.lower() in lines[0].lower(), shown
    if "--json" in case.argv and out.strip():  # with --json, stdout is JSON or nothing
        json.loads(out)
    elif not case.shows:
        assert not out.strip(), shown
    assert _state(d) == before, "a file of the user's changed\n" + shown
    if full_before is not None:
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize("index", range(len(JSON_OK)), ids=[" ".join(a) for a, _ in JSON_OK])
def test_json_output_is_json_and_nothing_else(index: int, inputs, capsys):
    args, codes = JSON_OK[index]
    d, session = inputs
    code, out, err = run_main(_argv(args, d, session), capsys)
    shown = f"argv={args} rc={code}\nstdout:\n{out[:500]}\nstderr:\n{err[-1000:]}"
    assert code in codes, shown
    assert "Traceback" not in err, shown
    assert out.strip(), shown
    json.loads(out)  # exactly one JSON document


# ---- exports and settings files: nothing of the user's is lost


def test_a_failed_exporter_start_leaves_no_empty_recording(_isolated_home, capsys):
    """Each failed start used to add an empty session to ``sessions --list``."""
    runs = [["exporter", "--demo", "--host", "no-such-host.invalid", "--duration", "1"]]
    if NO_NVML:
        runs.append(["exporter", "--duration", "1"])
    for argv in runs:
        code, _, err = run_main(argv, capsys)
        assert code in (USAGE, NO_GPU) and "Traceback" not in err, err
    recordings = _isolated_home / "data" / "recordings"
    left = sorted(p.name for p in recordings.iterdir()) if recordings.is_dir() else []
    assert left == []


def test_a_binary_settings_file_is_kept_aside_and_commands_still_run(capsys):
    """A settings.json that is not UTF-8 (a crash mid-write, a copied binary) used to raise
    UnicodeDecodeError from every command and from the app's start."""
    from services.paths import AppPaths

    settings_file = AppPaths.default().settings_file
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_bytes(b"\xff\xfe\x00 not text")
    code, out, err = run_main(["psu", "--gpu", "4090", "--json"], capsys)
    assert code == 0 and "Traceback" not in err, err
    json.loads(out)
    kept = list(settings_file.parent.glob(settings_file.name + ".broken-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b"\xff\xfe\x00 not text"


def test_session_export_never_replaces_a_file_it_did_not_write(world, capsys):
    """--export replaces its target whole; pointed at a user's file it used to destroy it."""
    d, session = world
    victim = d / "thesis.txt"
    victim.write_bytes(b"\xff\xfe my only copy")
    code, _, err = run_main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(victim)], capsys)
    assert code == USAGE and "already exists" in err
    assert victim.read_bytes() == b"\xff\xfe my only copy"
    target = d / "log.csv"
    for _ in range(2):  # an earlier export of ours may be written again
        assert main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("timestamp,index,")


def test_export_never_touches_the_users_part_file(world, capsys):
    d, session = world
    part = d / "out.csv.part"
    part.write_bytes(b"the user's own half-finished file")
    assert main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(d / "out.csv")]) == 0
    assert part.read_bytes() == b"the user's own half-finished file"
    assert (d / "out.csv").read_text(encoding="utf-8").startswith("timestamp,index,")
    assert not [p for p in d.iterdir() if p.name.startswith(".out.csv.")]  # no temporary left behind


def test_a_failed_export_leaves_no_temporary_file(world, capsys, monkeypatch):
    d, session = world
    from services.telemetry import session_store

    def broken(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(session_store, "_csv_value", broken)
    before = _state(d)
    code = main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(d / "out.csv")])
    err = capsys.readouterr().err
    assert code == 1 and "cannot write" in err and "Traceback" not in err
    assert _state(d) == before  # no out.csv, no temporary beside it


def test_a_damaged_recording_exports_what_can_be_read(world, capsys):
    d, session = world
    path = d / "rec" / f"session-{session}.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("UPDATE samples SET power_w = 'lots' WHERE rowid = 1")
    conn.commit()
    conn.close()
    assert main(["sessions", "--dir", str(d / "rec"), "--export", session, "--csv", str(d / "out.csv")]) == 0
    err = capsys.readouterr().err
    assert "unreadable values skipped" in err and "Traceback" not in err
    assert main(["sessions", "--dir", str(d / "rec"), "--compare", session, session]) == 0


# ---- monitor --csv on a full disk


def _run_monitor(d: Path, log: Path, capsys, seconds: float = 5) -> tuple[int, str]:
    # The shortest interval: main() paces with the real clock (monitor.run binds time.sleep as a default).
    code = main(["monitor", "--source", "demo", "--csv", str(log), "--interval", "0.1", "--duration", str(seconds)])
    return code, capsys.readouterr().err


def test_monitor_csv_stops_cleanly_when_the_disk_fills(world, capsys, monkeypatch):
    d, _ = world
    log = d / "log.csv"
    from cli import monitor

    real_write = os.write
    budget = {"bytes": 2500}

    def filling_write(fd, data):
        if budget["bytes"] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        n = min(len(data), budget["bytes"])
        budget["bytes"] -= n
        return real_write(fd, bytes(data[:n]))

    monkeypatch.setattr(monitor.os, "write", filling_write)
    code, err = _run_monitor(d, log, capsys)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1 and "Traceback" not in err
    assert lines[-1].startswith("error:") and str(log) in lines[-1] and "rows" in lines[-1]
    text = log.read_text(encoding="utf-8")
    assert text.endswith("\n")  # the half-written row was taken back off
    width = text.splitlines()[0].count(",")
    assert all(line.count(",") == width for line in text.splitlines())


def test_appending_after_a_cut_line_starts_a_new_line(world, capsys):
    d, _ = world
    log = d / "log.csv"
    from services.telemetry.report import csv_header

    log.write_text(csv_header() + "\n2026/11/21 09:15:02.417, 0, NVIDIA GeForce RTX 40", encoding="utf-8")
    code, err = _run_monitor(d, log, capsys, seconds=0.2)
    assert code == 0, err
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "2026/11/21 09:15:02.417, 0, NVIDIA GeForce RTX 40"  # the cut line is kept as it was
    assert lines[2].count(",") == lines[0].count(",")  # the new rows start on a line of their own


def test_a_fifo_settings_file_does_not_stop_commands(world, capsys):
    if not HAS_FIFO:
        pytest.skip("no FIFOs here")
    d, _ = world
    settings = d / "home" / "config" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(settings)
    with _FifoWatchdog([settings]) as watchdog:
        code = main(["psu", "--gpu", "4090", "--json"])
    assert not watchdog.fired and code == 0
    assert stat.S_ISFIFO(os.stat(settings).st_mode)


@pytest.mark.parametrize("argv", [
    ["fit", "--params", "7"],
    ["--demo", "monitor", "--once"],
    ["sessions", "--list"],
    ["exporter", "--demo", "--no-record", "--port", "0", "--duration", "0.2"],
])
def test_an_unreadable_settings_file_is_said_once(capsys, argv):
    """fit, monitor, sessions and exporter read the settings only in passing; a broken file was
    moved aside without a word. (A --json run that prints no sentence does not read it at all.)"""
    from services.paths import AppPaths

    settings_file = AppPaths.default().settings_file
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text("{not json", encoding="utf-8")
    code, out, err = run_main(argv, capsys)
    assert "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if "settings.json" in ln]
    assert len(lines) == 1 and lines[0].startswith("note:") and "broken-" in lines[0], err
    assert list(settings_file.parent.glob("settings.json.broken-*"))

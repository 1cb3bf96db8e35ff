"""Bad input never gives a traceback: every headless command, run as a user runs it.

Each case runs ``python main.py ...`` in a subprocess (the cases run concurrently, a dozen at a
time, so the table stays cheap) and checks the documented exit code (2 bad usage or input, 3 no
GPU/driver), that stderr ends in one clear ``error:`` line, and that no Python traceback leaks.
The second table checks that every ``--json`` output is valid JSON and nothing else on stdout.

Cases whose answer depends on the machine (a GPU present or not) are skipped where it differs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LONG = "x" * 5000  # longer than any file name the OS allows (ENAMETOOLONG from stat)
USAGE, NO_GPU = 2, 3


def _nvml_gpu_count() -> int:
    from services.telemetry.nvml import Nvml

    nvml = Nvml()
    try:
        nvml.init()
        return int(nvml.call("nvmlDeviceGetCount"))
    except Exception:  # noqa: BLE001 - any failure means "no usable GPU here"
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
    args: tuple[str, ...]
    code: int = USAGE
    needs: str = ""  # "no_nvml", "no_nvidia", "no_gpu_hybrid", "not_root": skip where not true
    says: str = ""  # a word the error line must contain (case-insensitive)

    @property
    def id(self) -> str:
        text = " ".join(a if len(a) < 40 else a[:12] + "..." for a in self.args)
        return text.replace("{d}", "D")


def C(*args: str, code: int = USAGE, needs: str = "", says: str = "") -> Case:
    return Case(tuple(args), code, needs, says)


BAD_INPUT: list[Case] = [
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
    C("setup", "--run", "install-driver", "--gpu", "10de:2684", says="--yes"),
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
    C("exporter", "--duration", "1", code=NO_GPU, needs="no_nvml"),
]

JSON_OK: list[tuple[tuple[str, ...], tuple[int, ...]]] = [
    (("monitor", "--once", "--json", "--source", "demo"), (0,)),
    (("monitor", "--json", "--source", "demo", "--interval", "0.5", "--duration", "1"), (0,)),
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
    if needs == "no_nvml" and not NO_NVML:
        return "NVML finds a GPU here"
    if needs == "no_nvidia" and not NO_NVIDIA_AT_ALL:
        return "an NVIDIA GPU is present here"
    if needs == "no_gpu_hybrid" and _any_gpu_for_hybrid():
        return "this machine has a GPU the hybrid checker sees"
    if needs == "not_root" and IS_ROOT:
        return "root reads every file"
    return None


def _make_inputs(d: Path) -> None:
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


def _run_all(argvs: list[list[str]], home: Path, batch: int = 12) -> list[subprocess.CompletedProcess]:
    """Run the commands a batch at a time (separate processes, no threads) and collect them."""
    env = dict(os.environ, GPU_ASSISTANT_HOME=str(home), PYTHONIOENCODING="utf-8")
    results: list[subprocess.CompletedProcess] = []
    for start in range(0, len(argvs), batch):
        procs = [(argv, subprocess.Popen([sys.executable, str(ROOT / "main.py"), *argv], cwd=ROOT, env=env,
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
                 for argv in argvs[start:start + batch]]
        for argv, proc in procs:
            try:
                out, err = proc.communicate(timeout=90)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
            results.append(subprocess.CompletedProcess(argv, proc.returncode, out.decode("utf-8", "replace"),
                                                       err.decode("utf-8", "replace")))
    return results


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bad-inputs")
    _make_inputs(d)
    return d


@pytest.fixture(scope="module")
def bad_input_results(inputs, tmp_path_factory) -> dict[Case, subprocess.CompletedProcess]:
    home = tmp_path_factory.mktemp("cli-home")
    argvs = [[a.replace("{d}", str(inputs)) for a in case.args] for case in BAD_INPUT]
    return dict(zip(BAD_INPUT, _run_all(argvs, home)))


@pytest.fixture(scope="module")
def json_results(inputs, tmp_path_factory) -> list[subprocess.CompletedProcess]:
    home = tmp_path_factory.mktemp("cli-json-home")
    argvs = [[a.replace("{d}", str(inputs)) for a in args] for args, _ in JSON_OK]
    return _run_all(argvs, home)


@pytest.mark.parametrize("case", BAD_INPUT, ids=[c.id for c in BAD_INPUT])
def test_bad_input_gives_one_line_and_the_documented_code(case: Case, bad_input_results):
    reason = _skip_reason(case.needs)
    if reason:
        pytest.skip(reason)
    result = bad_input_results[case]
    shown = f"argv={result.args[:6]} rc={result.returncode}\nstderr:\n{result.stderr[-2000:]}"
    assert "Traceback" not in result.stderr, shown
    assert "Traceback" not in result.stdout, shown
    assert result.returncode == case.code, shown
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, "no message on stderr\n" + shown
    # Our own errors are one "error: ..." line; argparse's add the usage lines above its one error line.
    error_lines = [line for line in lines if "error:" in line]
    assert len(error_lines) == 1 and error_lines[0] == lines[-1], shown
    if case.says:
        assert case.says.lower() in lines[-1].lower(), shown
    if "--json" in case.args and result.stdout.strip():  # with --json, stdout is JSON or nothing
        json.loads(result.stdout)


@pytest.mark.parametrize("index", range(len(JSON_OK)), ids=[" ".join(a) for a, _ in JSON_OK])
def test_json_output_is_json_and_nothing_else(index: int, json_results):
    args, codes = JSON_OK[index]
    result = json_results[index]
    shown = f"argv={result.args} rc={result.returncode}\nstdout:\n{result.stdout[:500]}\nstderr:\n{result.stderr[-1000:]}"
    assert result.returncode in codes, shown
    assert "Traceback" not in result.stderr, shown
    text = result.stdout.strip()
    assert text, shown
    if "--once" in args or "monitor" not in args:
        json.loads(text)  # exactly one JSON document
    else:  # monitor streaming: one object per line
        for line in text.splitlines():
            assert isinstance(json.loads(line), dict), shown


def test_a_failed_exporter_start_leaves_no_empty_recording(tmp_path):
    """Each failed start used to add an empty session to ``sessions --list``."""
    runs = [["exporter", "--demo", "--host", "no-such-host.invalid", "--duration", "1"]]
    if NO_NVML:
        runs.append(["exporter", "--duration", "1"])
    results = _run_all(runs, tmp_path)
    assert all(r.returncode in (USAGE, NO_GPU) for r in results), [r.stderr for r in results]
    recordings = tmp_path / "data" / "recordings"
    left = sorted(p.name for p in recordings.iterdir()) if recordings.is_dir() else []
    assert left == []


def test_a_binary_settings_file_is_kept_aside_and_commands_still_run(tmp_path, monkeypatch):
    """A settings.json that is not UTF-8 (a crash mid-write, a copied binary) used to raise
    UnicodeDecodeError from every command and from the app's start."""
    from services.paths import AppPaths

    monkeypatch.setenv("GPU_ASSISTANT_HOME", str(tmp_path))
    settings_file = AppPaths.default().settings_file
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_bytes(b"\xff\xfe\x00 not text")
    result, = _run_all([["psu", "--gpu", "4090", "--json"]], tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    json.loads(result.stdout)
    kept = list(settings_file.parent.glob(settings_file.name + ".broken-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b"\xff\xfe\x00 not text"


def test_session_export_never_replaces_a_file_it_did_not_write(tmp_path, capsys):
    """--export replaces its target whole; pointed at a user's file it used to destroy it."""
    from main import main
    from tests.services.test_cli_sessions import START, make_session

    recordings = tmp_path / "recordings"
    session = make_session(recordings, START, 5)
    victim = tmp_path / "thesis.txt"
    victim.write_bytes(b"\xff\xfe my only copy")
    assert main(["sessions", "--dir", str(recordings), "--export", session, "--csv", str(victim)]) == USAGE
    assert "already exists" in capsys.readouterr().err
    assert victim.read_bytes() == b"\xff\xfe my only copy"
    target = tmp_path / "log.csv"
    for _ in range(2):  # an earlier export of ours may be written again
        assert main(["sessions", "--dir", str(recordings), "--export", session, "--csv", str(target)]) == 0
    assert target.read_text(encoding="utf-8").startswith("timestamp,index,")


def test_a_reader_that_goes_away_is_not_a_traceback(tmp_path):
    """``python main.py monitor ... | head -1`` closes the pipe early; that used to end in
    BrokenPipeError tracebacks."""
    env = dict(os.environ, GPU_ASSISTANT_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "monitor", "--source", "demo", "--json",
                             "--interval", "0.1", "--duration", "20"], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader is gone
    try:
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    assert json.loads(first) and "Traceback" not in err, err
    assert proc.returncode == 0  # what was wanted was delivered


@pytest.mark.parametrize("args", [
    ["hybrid", "--prefer-nvidia", "/nonexistent/program"],
    ["hybrid", "--launch", "--", "no-such-program-anywhere"],
])
def test_hybrid_names_a_missing_program_before_looking_for_gpus(args):
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert "no such program" in result.stderr and "Traceback" not in result.stderr

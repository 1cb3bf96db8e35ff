"""Fuzz of the command line over hostile files and arguments: every case is ``python main.py ...``
in its own process (its own app folder, planted with hostile settings and setup progress), with a
time limit. A case fails on a traceback (in either stream) or a hang (the time limit); exit codes
are not judged here (the bad-input table does that case by case).

    python tests/fuzz_cli.py [--cases 300] [--seed 23] [--timeout 30] [--jobs 2]

tests/test_cli_fuzz.py runs a bounded sample of it in the suite. Nothing leaves the machine: the
exporter cases listen on 127.0.0.1 with port 0 (or a hostile port, refused) for a fraction of a second.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAIN = str(ROOT / "main.py")
HAS_FIFO = hasattr(os, "mkfifo")

NUMBERS = ["", " ", "-1", "0", "nan", "inf", "-inf", "1e400", "1e10", "9" * 400, "0x10", "١٢", "1_000", "abc"]
TEXTS = ["", " ", "\n", "a" * 5000, "../../etc/passwd", "中文显卡", "-", "--", "%s%n", "' OR 1=1 --", "$(id)"]
# --duration values that are still short runs or refused: 1e10 is a legal, very long run.
DURATIONS = ["", "-1", "0", "nan", "inf", "1e400", "abc", "0.2"]


def make_hostile_files(d: Path) -> dict[str, list[str]]:
    """The user's files commands get pointed at. Returns path lists by what they stand for."""
    from tests.test_bad_input_table import make_inputs

    make_inputs(d)
    (d / "deep.json").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    (d / "huge-line").write_text("ID=ubuntu\nPRETTY_NAME=\"" + "x y " * 1_300_000 + "\"\n", encoding="utf-8")
    # os-release files the user may name: a line longer than any value, but under the size limit; a
    # file of short lines far larger than any os-release (both refused with a message, at once)
    (d / "long-line-os-release").write_text("ID=ubuntu\nVERSION_ID=24.04\nX=" + "a b " * 3000 + "\n", encoding="utf-8")
    (d / "big-os-release").write_text("ID=ubuntu\n" + "# comment\n" * 10_000, encoding="utf-8")
    (d / "bignum.json").write_text('{"hidden_size": ' + "9" * 400 + "}", encoding="utf-8")
    model = d / "model-with-fifos"
    model.mkdir()
    (model / "config.json").write_text((d / "config.json").read_text(encoding="utf-8"), encoding="utf-8")
    if HAS_FIFO:
        os.mkfifo(model / "model-00001-of-00002.safetensors")
        gg = d / "gguf-fifo"
        gg.mkdir()
        os.mkfifo(gg / "model.gguf")
    loop = d / "loop"
    try:
        loop.symlink_to(loop)
    except OSError:
        pass
    files = [str(p) for p in sorted(d.iterdir()) if p.name != "rec"]
    files += ["/dev/zero", "/dev/full", "/dev/null", str(d / "missing" / "x.json"), str(d / ("n" * 300)), ""]
    return {"path": files, "folder": [str(d / "rec"), str(model), str(d), str(d / "notes.txt"), str(d / "missing"), ""]}


def plant_home(home: Path, kind: str) -> None:
    """The app's own folder, as another program running as the user could have left it."""
    saved = os.environ.get("GPU_ASSISTANT_HOME")
    os.environ["GPU_ASSISTANT_HOME"] = str(home)
    try:
        from services.paths import AppPaths

        paths = AppPaths.default()
        settings, data = paths.settings_file, paths.data_dir
    finally:
        if saved is None:
            os.environ.pop("GPU_ASSISTANT_HOME", None)
        else:
            os.environ["GPU_ASSISTANT_HOME"] = saved
    settings.parent.mkdir(parents=True, exist_ok=True)
    setup = data / "setup"
    setup.mkdir(parents=True, exist_ok=True)
    if kind == "settings-broken":
        settings.write_bytes(b"\xff\xfe{not json")
    elif kind == "settings-newer":
        settings.write_text(json.dumps({"general": {"language": "zh_CN", "theme": "x"}, "psu": {"psu_w": 99999},
                                        "future": {"a": [1, 2]}}), encoding="utf-8")
    elif kind == "settings-deep":
        settings.write_text('{"general": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    elif kind == "settings-fifo" and HAS_FIFO:
        os.mkfifo(settings)
    elif kind == "progress-bignum":
        (setup / "progress.json").write_text(
            '{"steps": {"blacklist-nouveau": {"state": "done", "at": %s}}}' % ("1" * 400), encoding="utf-8")
    elif kind == "progress-tampered":
        (setup / "progress.json").write_text(json.dumps({"steps": {"blacklist-nouveau": {
            "state": "done", "backups": [{"path": "/etc/modprobe.d/blacklist-nouveau.conf", "kind": "file",
                                          "backup": "/tmp/evil", "mode": "6777", "uid": 4242, "gid": 4242}]}}}),
            encoding="utf-8")
    elif kind == "progress-deep":
        (setup / "progress.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif kind == "progress-fifo" and HAS_FIFO:
        os.mkfifo(setup / "progress.json")


HOMES = ["plain", "settings-broken", "settings-newer", "settings-deep", "settings-fifo",
         "progress-bignum", "progress-tampered", "progress-deep", "progress-fifo"]


def templates(files: dict[str, list[str]], d: Path) -> list[tuple[list[str], list[str]]]:
    """(argv with one or two '{X}' slots, the values a slot takes)."""
    rec, osr = str(d / "rec"), str(d / "os-release")
    p, f = files["path"], files["folder"]
    exporter = ["exporter", "--demo", "--no-record", "--duration", "0.2"]
    return [
        (["fit", "--model", "{X}"], p + f),
        (["fit", "--params", "7", "--gpu", "{X}"], TEXTS),
        (["fit", "--params", "{X}"], NUMBERS),
        (["fit", "--model", "{X}", "--json"], p),
        (["psu", "--gpu", "{X}"], TEXTS),
        (["psu", "--gpu", "4090", "--cpu", "{X}"], TEXTS),
        (["psu", "--gpu", "4090", "--psu-w", "{X}"], NUMBERS),
        (["psu", "--gpu", "4090", "--model", "{X}", "--json"], p),
        (["sessions", "--dir", "{X}", "--list"], f + p),
        (["sessions", "--dir", rec, "--export", "{X}", "--csv", str(d / "out.csv")], TEXTS),
        (["sessions", "--dir", rec, "--list", "--json"], [""]),
        ([*exporter, "--port", "0", "--host", "{X}"], TEXTS + ["0.0.0.0.0", "::1", "localhost"]),
        ([*exporter, "--port", "{X}"], NUMBERS),
        (["exporter", "--demo", "--no-record", "--port", "0", "--duration", "{X}"], DURATIONS),
        (["monitor", "--once", "--json", "--source", "demo", "--interval", "{X}"], NUMBERS),
        (["monitor", "--source", "demo", "--duration", "{X}", "--csv", str(d / "m.csv")], DURATIONS),
        (["monitor", "--source", "demo", "--duration", "0.3", "--csv", "{X}"], p),
        (["setup", "--plan", "--os-release", "{X}", "--gpu", "10de:2684"], p),
        (["setup", "--plan", "--os-release", osr, "--gpu", "{X}"], TEXTS),
        (["setup", "--plan", "--os-release", osr, "--gpu", "10de:2684", "--python", "{X}"], p + TEXTS),
        (["setup", "--undo", "blacklist-nouveau", "--dry-run", "--os-release", osr, "--gpu", "10de:2684"], [""]),
        (["setup", "--undo", "{X}", "--dry-run", "--os-release", osr, "--gpu", "10de:2684"], TEXTS),
        (["doctor", "--json", "--python", "{X}"], p + TEXTS),
        (["hybrid", "--undo", "{X}"], p + TEXTS),
        (["hybrid", "--pid", "{X}"], NUMBERS),
        (["--screenshot", str(d / "shot.png"), "--page", "{X}"], TEXTS),
    ]


@dataclass(frozen=True)
class Case:
    argv: tuple[str, ...]
    home: str


def cases(files: dict[str, list[str]], d: Path, count: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    table = templates(files, d)
    seen: set[Case] = set()
    tries = 0
    while len(seen) < count and tries < count * 20:
        tries += 1
        argv, values = rng.choice(table)
        value = rng.choice(values)
        case = Case(tuple(value if a == "{X}" else a for a in argv), rng.choice(HOMES))
        if case not in seen and "\x00" not in value:
            seen.add(case)
            yield case


@dataclass
class Outcome:
    case: Case
    code: int | None
    seconds: float
    traceback: bool
    hung: bool
    tail: str


def run_case(case: Case, work: Path, n: int, timeout: float) -> Outcome:
    home = work / f"home-{n}"
    home.mkdir()
    plant_home(home, case.home)
    env = dict(os.environ, GPU_ASSISTANT_HOME=str(home), PYTHONIOENCODING="utf-8", QT_QPA_PLATFORM="offscreen")
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, MAIN, *case.argv], cwd=work, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                            errors="replace")
    try:
        out, err = proc.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        hung = True
    both = (out or "") + (err or "")
    return Outcome(case, proc.returncode, time.monotonic() - started, "Traceback (most recent call last)" in both,
                   hung, both[-1500:])


def fuzz(count: int, seed: int, timeout: float, jobs: int, work: Path | None = None) -> list[Outcome]:
    own = work is None
    tmp = tempfile.TemporaryDirectory(prefix="fuzz-cli-") if own else None
    base = Path(tmp.name) if tmp else work
    try:
        d = base / "files"
        d.mkdir()
        files = make_hostile_files(d)
        todo = list(cases(files, d, count, seed))
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda nc: run_case(nc[1], base, nc[0], timeout), enumerate(todo)))
    finally:
        if tmp is not None:
            _make_removable(base)
            tmp.cleanup()


def _make_removable(base: Path) -> None:
    for p in base.rglob("*"):
        try:
            if not p.is_symlink():
                p.chmod(0o700 if p.is_dir() else 0o600)
        except OSError:
            pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.monotonic()
    results = fuzz(args.cases, args.seed, args.timeout, args.jobs)
    bad = [r for r in results if r.traceback or r.hung]
    for r in bad:
        what = "HANG" if r.hung else "TRACEBACK"
        print(f"{what} [{r.case.home}] main.py {' '.join(repr(a) if not a or ' ' in a else a for a in r.case.argv)[:300]}")
        print("    " + r.tail.strip().replace("\n", "\n    ")[-800:])
    slowest = max(results, key=lambda r: r.seconds) if results else None
    print(f"{len(results)} cases in {time.monotonic() - started:.0f} s (seed {args.seed}): "
          f"{sum(r.traceback for r in results)} tracebacks, {sum(r.hung for r in results)} hangs"
          + (f"; slowest {slowest.seconds:.1f} s: {' '.join(slowest.case.argv)[:120]}" if slowest else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

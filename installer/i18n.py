"""Translation upkeep: extract strings, compile .qm files, check completeness.

    python installer/i18n.py update    # run pyside6-lupdate for every area
    python installer/i18n.py compile   # .ts -> .qm with pyside6-lrelease
    python installer/i18n.py check     # list untranslated strings; exit 1 if any
    python installer/i18n.py apply AREA MAP.json
        # fill translations from {"source text": "译文"} or {"Context|source": "译文"}

Areas: the shell (main.py, gui/*.py, services/*.py, cli/*.py) and one
per tool package that exists under gui/ or services/ (``monitor`` covers
gui/monitor and services/telemetry). Each area has its own
``resources/translations/<area>_zh_CN.ts`` so tools can be translated apart.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS_DIR = ROOT / "resources" / "translations"
LANGUAGES = ("zh_CN",)
# area -> extra package folders that belong to it (besides gui/<area>, services/<area>)
ALIASES = {"monitor": ["services/telemetry"]}
SKIP = {"__pycache__", "cli"}


def areas() -> dict[str, list[Path]]:
    result: dict[str, list[Path]] = {"shell": [ROOT / "main.py"]}
    result["shell"] += sorted((ROOT / "gui").glob("*.py")) + sorted((ROOT / "services").glob("*.py"))
    result["shell"] += sorted((ROOT / "cli").glob("*.py"))
    names = set(ALIASES)
    for base in ("gui", "services"):
        for d in (ROOT / base).iterdir():
            if d.is_dir() and d.name not in SKIP:
                names.add(d.name)
    claimed = {p for paths in ALIASES.values() for p in paths}
    for name in sorted(names):
        if any(f"services/{name}" == c for c in claimed):
            continue
        files: list[Path] = []
        for folder in [f"gui/{name}", f"services/{name}", *ALIASES.get(name, [])]:
            files += sorted((ROOT / folder).rglob("*.py"))
        if files:
            result[name] = files
    return result


def tool(name: str) -> str | None:
    """PySide6's ``name`` (pyside6-lupdate, pyside6-lrelease): on PATH, or beside this Python (a venv not
    activated), where Windows has it as ``name.exe``; None when this PySide6 came without its tools."""
    found = shutil.which(name)
    if found:
        return found
    here = Path(sys.executable).parent
    return next((str(p) for p in (here / name, here / f"{name}.exe") if p.is_file()), None)


def _tool(name: str) -> str:
    found = tool(name)
    if found is None:
        sys.exit(f"{name} not found: install PySide6 with its tools (pip install PySide6)")
    return found


def update(only: str | None = None) -> None:
    TS_DIR.mkdir(parents=True, exist_ok=True)
    for area, files in areas().items():
        if only is not None and area != only:
            continue
        for lang in LANGUAGES:
            ts = TS_DIR / f"{area}_{lang}.ts"
            rel = [str(f.relative_to(ROOT)) for f in files]
            subprocess.run([_tool("pyside6-lupdate"), *rel, "-no-obsolete", "-locations", "none", "-silent",
                            "-ts", str(ts.relative_to(ROOT))], cwd=ROOT, check=True)
            if next(ET.parse(ts).getroot().iter("context"), None) is None:
                ts.unlink()  # a package with no user-visible text (gui/widgets) needs no translation file


def compile_all() -> None:
    for ts in sorted(TS_DIR.glob("*.ts")):
        subprocess.run([_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))],
                       check=True)


def unfinished() -> list[str]:
    missing = []
    for ts in sorted(TS_DIR.glob("*.ts")):
        root = ET.parse(ts).getroot()
        for ctx in root.iter("context"):
            for message in ctx.iter("message"):
                node = message.find("translation")
                if node is None or node.get("type") == "unfinished" or not (node.text or "").strip():
                    if node is not None and node.get("type") in ("obsolete", "vanished"):
                        continue
                    missing.append(f"{ts.name}: [{ctx.findtext('name')}] {message.findtext('source')}")
    return missing


def apply(area: str, mapping: dict[str, str], lang: str = "zh_CN") -> int:
    """Fill translations of ``area`` from ``mapping``; returns how many were set."""
    ts = TS_DIR / f"{area}_{lang}.ts"
    tree = ET.parse(ts)
    count = 0
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name")
        for message in ctx.iter("message"):
            source = message.findtext("source")
            text = mapping.get(f"{name}|{source}", mapping.get(source))
            if text is None:
                continue
            node = message.find("translation")
            if node is None:
                node = ET.SubElement(message, "translation")
            node.text = text
            node.attrib.pop("type", None)
            count += 1
    _write_ts(tree, ts)
    return count


def _write_ts(tree: ET.ElementTree, path: Path) -> None:
    ET.indent(tree, space="    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "apply":
        import json

        mapping = json.loads(Path(argv[3]).read_text(encoding="utf-8"))
        print(f"{apply(argv[2], mapping)} translations set")
        update(only=argv[2])  # lupdate rewrites the file in its own layout: no churn in later diffs
        compile_all()
    elif command == "check":
        missing = unfinished()
        for line in missing:
            print(line)
        print(f"{len(missing)} untranslated")
        return 1 if missing else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

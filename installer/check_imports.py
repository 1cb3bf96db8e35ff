"""Check the project's layering over every import statement (AST, nothing is imported).

    python installer/check_imports.py [--root DIR]

Reads main.py, gui/ and services/ and reports, one line each:

- import cycles between files (function-level imports count: they still tie
  the two files together; imports under ``if TYPE_CHECKING:`` do not);
- any file other than the one NVML wrapper that imports ``pynvml``;
- gui/ importing the command-line front end (cli);
- services/ importing Qt (PySide6, shiboken6, pyqtgraph).

Exit status 0 when clean, 1 with the list of problems.
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

NVML_WRAPPER = "services.telemetry.nvml"
QT_PACKAGES = ("PySide6", "shiboken6", "pyqtgraph")
CLI_PACKAGE = "cli"


@dataclass(frozen=True, slots=True)
class Import:
    source: str  # importing module, dotted
    target: str  # imported name as written, made absolute
    line: int


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for main.py and the gui and services packages."""
    found: dict[str, Path] = {}
    if (root / "main.py").is_file():
        found["main"] = root / "main.py"
    for package in ("gui", "services", "cli"):
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST):
    """Every node, skipping the bodies of ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def imports_of(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out: list[Import] = []
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            out += [Import(module, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)] if node.level > 1 else anchor
                base = ".".join([*anchor, base] if base else anchor)
            # "from pkg import name": name may be a submodule; resolve() decides.
            out += [Import(module, f"{base}.{alias.name}" if alias.name != "*" else base, node.lineno)
                    for alias in node.names]
            if not node.names:
                out.append(Import(module, base, node.lineno))
    return out


def resolve(target: str, modules: dict[str, Path]) -> str | None:
    """The project module an import lands on (the longest known prefix), or None if outside."""
    parts = target.split(".")
    while parts:
        name = ".".join(parts)
        if name in modules:
            return name
        parts.pop()
    return None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one file (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    result.append(sorted(component))
    return sorted(result)


def _one_per_statement(problems: list[str]) -> list[str]:
    """``from cli import a, b``: one line for the statement, not one per name."""
    seen: set[str] = set()
    out = []
    for line in problems:
        key = line.split(" (")[0]
        if key not in seen:
            seen.add(key)
            out.append(line)
    return out


def check(root: Path) -> tuple[list[str], int, int]:
    """(problems, files read, import statements read)."""
    modules = module_files(root)
    problems: list[str] = []
    graph: dict[str, set[str]] = {name: set() for name in modules}
    where: dict[tuple[str, str], int] = {}
    count = 0
    nvml_importers: dict[str, int] = {}
    for module, path in modules.items():
        rel = path.relative_to(root).as_posix()
        for imp in imports_of(module, path):
            count += 1
            top = imp.target.split(".")[0]
            if top == "pynvml":
                nvml_importers.setdefault(module, imp.line)
            if module.startswith("services") and top in QT_PACKAGES:
                problems.append(f"{rel}:{imp.line}: services import Qt ({imp.target})")
            if (module == "gui" or module.startswith("gui.")) and (
                    imp.target == CLI_PACKAGE or imp.target.startswith(CLI_PACKAGE + ".")):
                problems.append(f"{rel}:{imp.line}: gui imports the command-line front end ({imp.target})")
            target = resolve(imp.target, modules)
            if target is not None and target != module:
                graph[module].add(target)
                where.setdefault((module, target), imp.line)
    problems = list(dict.fromkeys(_one_per_statement(problems)))
    for module, line in sorted(nvml_importers.items()):
        if module != NVML_WRAPPER:
            rel = modules[module].relative_to(root).as_posix()
            problems.append(f"{rel}:{line}: imports pynvml; only {NVML_WRAPPER} may (use services.nvml_devices)")
    for component in _cycles(graph):
        members = set(component)
        links = [f"{a}:{where[(a, b)]} -> {b}" for a in component for b in sorted(graph[a] & members)]
        problems.append(f"import cycle between {', '.join(component)}: " + "; ".join(links))
    return problems, len(modules), count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="project folder (default: this checkout)")
    args = parser.parse_args(argv)
    if not (args.root / "services").is_dir():
        print(f"error: {args.root} has no services/ folder; give the project folder with --root", file=sys.stderr)
        return 2
    try:
        problems, files, count = check(args.root)
    except SyntaxError as exc:
        print(f"error: cannot parse {exc.filename}:{exc.lineno}: {exc.msg}", file=sys.stderr)
        return 2
    for line in problems:
        print(line)
    print(f"{files} files, {count} imports: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

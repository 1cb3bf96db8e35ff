"""The facts the doctor and the wizard decide with, read from
``resources/data/setup_rules.json`` (versioned; every value has its source).

Nothing here is hard-coded on purpose: when NVIDIA or PyTorch ship a new
version, the JSON file changes and the code does not.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from services.i18n import TranslatableError, translate
from services.paths import resource_path

RULES_FILE = resource_path("data", "setup_rules.json")


class RulesError(TranslatableError, ValueError):
    """The rules file is missing or malformed."""



def parse_version(text: str | None) -> tuple[int, ...] | None:
    """'570.124.06' -> (570, 124, 6); None for anything that is not a version."""
    if not text:
        return None
    match = re.match(r"^\s*(\d+(?:\.\d+)*)", str(text))
    if not match:
        return None
    return tuple(int(p) for p in match.group(1).split("."))


def version_at_least(have: str | None, need: str | None) -> bool | None:
    """have >= need, comparing numerically; None when either is unknown."""
    h, n = parse_version(have), parse_version(need)
    if h is None or n is None:
        return None
    width = max(len(h), len(n))
    return h + (0,) * (width - len(h)) >= n + (0,) * (width - len(n))


def sm_number(sm: str | None) -> int | None:
    """'sm_120' -> 120; 'compute_90' -> 90."""
    if not sm:
        return None
    match = re.search(r"(\d+)$", sm)
    return int(match.group(1)) if match else None


def sm_from_capability(major: int, minor: int) -> str:
    return f"sm_{major}{minor}"


def _split_sm(n: int) -> tuple[int, int]:
    return n // 10, n % 10


def arch_supported(sm: str, arch_list: tuple[str, ...] | list[str]) -> bool:
    """Can a build with ``arch_list`` run on a card with ``sm``?

    A cubin for X.y runs on X.z when z >= y, and PTX (compute_XY) is JIT-compiled
    for any newer card (CUDA C++ Programming Guide, "Binary Compatibility"; the
    rule PyTorch's own capability check applies). So sm_86 code serves sm_89.
    """
    card = sm_number(sm)
    if card is None:
        return True
    major, minor = _split_sm(card)
    for arch in arch_list:
        n = sm_number(arch)
        if n is None:
            continue
        if arch.startswith("sm_"):
            a_major, a_minor = _split_sm(n)
            if a_major == major and a_minor <= minor:
                return True
        elif arch.startswith("compute_") and n <= card:
            return True
    return False


@dataclass(frozen=True, slots=True)
class ToolkitMinimum:
    cuda: str
    linux_min_driver: str
    windows_min_driver: str | None
    source: str


@dataclass(frozen=True, slots=True)
class WheelVariant:
    variant: str  # 'cu128'
    cuda: str  # '12.8'
    arch_min: str | None
    arch_max: str | None
    status: str  # current | legacy | experimental
    source: str

    def supports(self, sm: str) -> bool | None:
        lo, hi, n = sm_number(self.arch_min), sm_number(self.arch_max), sm_number(sm)
        if lo is None or hi is None or n is None:
            return None
        return lo <= n <= hi


@dataclass(frozen=True, slots=True)
class Generation:
    name: str
    sm: tuple[str, ...]
    kernel_modules: tuple[str, ...]  # 'open', 'proprietary'
    last_branch: str | None
    min_driver_branch: str | None  # the oldest driver that runs this generation (a version)
    source: str
    modules_source: str
    min_driver_source: str = ""

    def driver_supports(self, driver: str | None) -> bool | None:
        """Does driver ``driver`` (a version or a branch) run this generation? None when unknown."""
        if not driver:
            return None
        new_enough = version_at_least(driver, self.min_driver_branch) if self.min_driver_branch else True
        # Legacy generations: the branch after last_branch no longer has them.
        old_enough = True
        if self.last_branch:
            d = parse_version(driver)
            old_enough = d is not None and bool(d) and d[0] <= int(self.last_branch)
        return bool(new_enough) and old_enough

    @property
    def open_only(self) -> bool:
        return self.kernel_modules == ("open",)

    @property
    def proprietary_only(self) -> bool:
        return self.kernel_modules == ("proprietary",)

    @property
    def preferred_module(self) -> str:
        # Since R560 the open modules are the default wherever they are supported.
        return "open" if "open" in self.kernel_modules else "proprietary"


@dataclass(frozen=True, slots=True)
class GpuId:
    device_id: str  # 4 lower-case hex digits
    name: str
    generation: str
    source: str


@dataclass(frozen=True, slots=True)
class Rules:
    version: str
    toolkit_minimums: tuple[ToolkitMinimum, ...]
    minor_compat: dict[int, tuple[str, str]]  # cuda major -> (linux, windows)
    index_url_pattern: str
    variants: tuple[WheelVariant, ...]
    releases: tuple[tuple[str, tuple[str, ...]], ...]
    generations: tuple[Generation, ...]
    gpu_ids: tuple[GpuId, ...]
    name_patterns: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]
    nvidia_smi_exit_codes: dict[int, str]
    distro_driver_notes: tuple[dict, ...]
    windows: dict
    downloads: tuple[dict, ...]
    # Ubuntu release codename -> driver branches in its archive; first version of a branch.
    ubuntu_branches: dict = field(default_factory=dict)
    branch_min_version: dict = field(default_factory=dict)
    # Where a plan gets its driver (NVIDIA's repository, RPM Fusion, Arch ...): id -> row.
    driver_sources: dict = field(default_factory=dict)

    # ---- lookups -------------------------------------------------------
    def generation(self, name: str | None) -> Generation | None:
        return next((g for g in self.generations if g.name == name), None)

    def generation_for_sm(self, sm: str | None) -> Generation | None:
        return next((g for g in self.generations if sm in g.sm), None)

    def identify_gpu(self, device_id: str | None, name: str = "") -> tuple[str | None, str | None]:
        """(generation name, how we know) from a PCI device id and/or a name."""
        if device_id:
            did = device_id.lower().removeprefix("0x")[-4:]
            hit = next((g for g in self.gpu_ids if g.device_id == did), None)
            if hit:
                return hit.generation, "pci_id"
        for generation, patterns in self.name_patterns:
            if any(p.search(name or "") for p in patterns):
                return generation, "name"
        return None, None

    def pytorch_for_driver(self, sm: str | None, driver: str | None, os_name: str) -> WheelChoice | None:
        """The newest current PyTorch build that has this card's architecture and that
        driver ``driver`` runs: meeting its toolkit's Table-3 minimum first, else through
        CUDA minor-version compatibility (same CUDA major, driver >= the major's floor).
        None when no current build runs on that driver."""
        if sm is None:
            pool = [v for v in self.variants if v.status == "current" and sm_number(v.arch_min) is not None]
            pool.sort(key=lambda v: (sm_number(v.arch_min), -(sm_number(v.arch_max) or 0)))
            pool = pool[:1]  # unknown card: the build covering the most generations
        else:
            pool = [v for v in self.variants if v.status == "current" and v.supports(sm)]
            # Newest PyTorch release that still ships the build first (cu128 stopped at 2.11),
            # then the newest CUDA.
            pool.sort(key=lambda v: (self.newest_release(v.variant) or (0,), parse_version(v.cuda)), reverse=True)
        if not driver:
            return None
        for want in ("ok", "minor_compat"):
            for v in pool:
                if self.driver_ok_for_cuda(driver, v.cuda, os_name) == want:
                    return WheelChoice(v, self.index_url(v.variant), driver_ok=True,
                                       needs_driver=self.toolkit_min_driver(v.cuda, os_name) or self.minor_compat_min_driver(v.cuda, os_name),
                                       most_compatible=sm is None, compat=want,
                                       floor_driver=self.minor_compat_min_driver(v.cuda, os_name) if want == "minor_compat" else None)
        return None

    def newest_release(self, variant: str) -> tuple[int, ...] | None:
        """The newest PyTorch release (as a version tuple) in the table that ships ``variant``."""
        have = [parse_version(t) for t, vs in self.releases if variant in vs]
        return max((h for h in have if h), default=None)

    def variant(self, name: str) -> WheelVariant | None:
        return next((v for v in self.variants if v.variant == name), None)

    def index_url(self, variant: str) -> str:
        return self.index_url_pattern.format(variant=variant)

    def toolkit_min_driver(self, cuda: str, os_name: str) -> str | None:
        """Driver bundled with the GA release of that CUDA minor (Table 3)."""
        want = parse_version(cuda)
        if not want:
            return None
        for row in reversed(self.toolkit_minimums):  # oldest first
            if (parse_version(row.cuda) or ())[:2] == want[:2]:
                return row.windows_min_driver if os_name == "windows" else row.linux_min_driver
        return None

    def minor_compat_min_driver(self, cuda: str, os_name: str) -> str | None:
        want = parse_version(cuda)
        if not want or want[0] not in self.minor_compat:
            return None
        linux, windows = self.minor_compat[want[0]]
        return windows if os_name == "windows" else linux

    def driver_ok_for_cuda(self, driver: str, cuda: str, os_name: str) -> str:
        """'ok' (meets Table 3), 'minor_compat' (runs, maybe with limits), 'too_old' or 'unknown'."""
        table = self.toolkit_min_driver(cuda, os_name)
        if table and version_at_least(driver, table):
            return "ok"
        compat = self.minor_compat_min_driver(cuda, os_name)
        if compat is None:
            return "unknown" if table is None else "too_old"
        if version_at_least(driver, compat):
            # Windows has no Table-3 value for 13.x: the branch rule is all there is.
            return "ok" if table is None else "minor_compat"
        return "too_old"

    def recommend_variant(self, sm: str | None, driver: str | None, os_name: str) -> WheelChoice | None:
        """The newest current wheel variant that has this card's architecture and
        whose toolkit driver this machine meets (or would meet after a driver update)."""
        if sm is None:
            # Unknown card: the newest wheel would silently drop older architectures
            # (cu128 from 2.11 and cu130 start at Turing), so take the current wheel
            # that covers the most architectures and let the plan say why.
            widest = [v for v in self.variants if v.status == "current" and sm_number(v.arch_min) is not None]
            if not widest:
                return None
            best = min(widest, key=lambda v: (sm_number(v.arch_min), -(sm_number(v.arch_max) or 0)))
            return WheelChoice(best, self.index_url(best.variant), driver_ok=bool(driver) and self.driver_ok_for_cuda(driver or "", best.cuda, os_name) == "ok",
                               needs_driver=self.toolkit_min_driver(best.cuda, os_name) or self.minor_compat_min_driver(best.cuda, os_name),
                               most_compatible=True)
        candidates = [v for v in self.variants if v.status == "current" and v.supports(sm)]
        candidates.sort(key=lambda v: parse_version(v.cuda) or (), reverse=True)
        if not candidates:
            return None
        if driver:
            for v in candidates:
                if self.driver_ok_for_cuda(driver, v.cuda, os_name) == "ok":
                    return WheelChoice(v, self.index_url(v.variant), driver_ok=True,
                                       needs_driver=self.toolkit_min_driver(v.cuda, os_name) or self.minor_compat_min_driver(v.cuda, os_name))
            best = candidates[-1]
            return WheelChoice(best, self.index_url(best.variant), driver_ok=False,
                               needs_driver=self.toolkit_min_driver(best.cuda, os_name) or self.minor_compat_min_driver(best.cuda, os_name))
        best = candidates[0]
        return WheelChoice(best, self.index_url(best.variant), driver_ok=False,
                           needs_driver=self.toolkit_min_driver(best.cuda, os_name) or self.minor_compat_min_driver(best.cuda, os_name))


@dataclass(frozen=True, slots=True)
class WheelChoice:
    variant: WheelVariant
    index_url: str
    driver_ok: bool  # the installed driver meets the variant's toolkit minimum
    needs_driver: str | None
    most_compatible: bool = False  # the card is unknown: widest architecture range, not newest
    compat: str = "ok"  # 'ok' (Table 3) or 'minor_compat' (runs through minor-version compatibility)
    floor_driver: str | None = None  # with minor_compat: the lowest driver of that CUDA major


def _req(data: dict, key: str):
    if key not in data:
        raise RulesError(translate("Setup", "rules file lacks '{key}'").format(key=key))
    return data[key]


def _gpu_ids(data: dict) -> tuple[GpuId, ...]:
    """The hand-checked rows first, then NVIDIA's generated device-id list
    (installer/gen_nvidia_device_ids.py), so every card since Maxwell is known by id."""
    rows = [GpuId(r["device_id"].lower(), r["name"], r["generation"], r["source"]) for r in _req(data, "gpu_ids")]
    seen = {r.device_id for r in rows}
    block = data.get("nvidia_device_ids") or {}
    source = f"{block.get('source', '')} ({block.get('date', '')})"
    for did, name, arch in block.get("devices", ()):
        if did.lower() not in seen:
            seen.add(did.lower())
            rows.append(GpuId(did.lower(), name, arch, source))
    return tuple(rows)


def load_rules(path: Path | None = None) -> Rules:
    path = path or RULES_FILE
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesError(translate("Setup", "cannot read the rules file {path}: {reason}").format(
            path=str(path), reason=exc.strerror or str(exc))) from exc
    except json.JSONDecodeError as exc:
        raise RulesError(translate("Setup", "the rules file {path} is not valid JSON (line {line})").format(
            path=str(path), line=exc.lineno)) from exc
    if not isinstance(data, dict) or data.get("schema") != 1:
        raise RulesError(translate("Setup", "the rules file {path} has an unknown schema").format(path=str(path)))
    try:
        return Rules(
            version=str(_req(data, "version")),
            toolkit_minimums=tuple(
                ToolkitMinimum(r["cuda"], r["linux_min_driver"], r.get("windows_min_driver"), r["source"])
                for r in _req(data, "toolkit_driver_minimums")
            ),
            minor_compat={
                int(r["cuda_major"]): (r["linux_min_driver"], r["windows_min_driver"])
                for r in _req(data, "minor_version_compatibility")
            },
            index_url_pattern=_req(data, "pytorch_index_url")["pattern"],
            variants=tuple(
                WheelVariant(r["variant"], r["cuda"], r.get("arch_min"), r.get("arch_max"), r["status"], r["source"])
                for r in _req(data, "pytorch_wheel_variants")
            ),
            releases=tuple((r["torch"], tuple(r["variants"])) for r in _req(data, "pytorch_releases")),
            generations=tuple(
                Generation(g["name"], tuple(g["sm"]), tuple(g["kernel_modules"]), g.get("last_branch"),
                           g.get("min_driver_branch"), g["source"], g["modules_source"], g.get("min_driver_source", ""))
                for g in _req(data, "generations")
            ),
            gpu_ids=_gpu_ids(data),
            name_patterns=tuple(
                (p["generation"], tuple(re.compile(x, re.IGNORECASE) for x in p["patterns"]))
                for p in _req(data, "name_patterns")
            ),
            nvidia_smi_exit_codes={int(r["code"]): r["meaning"] for r in _req(data, "nvidia_smi_exit_codes")},
            distro_driver_notes=tuple(data.get("distro_driver_notes", ())),
            windows=dict(_req(data, "windows")),
            downloads=tuple(data.get("downloads", ())),
            ubuntu_branches={r["codename"]: tuple(r["branches"]) for r in data.get("ubuntu_driver_branches", ())},
            branch_min_version={k: v for k, v in data.get("ubuntu_branch_min_version", {}).items() if k != "source"},
            driver_sources={r["id"]: r for r in data.get("driver_sources", ())},
        )
    except (KeyError, TypeError, ValueError, re.error) as exc:
        raise RulesError(translate("Setup", "the rules file {path} is malformed: {reason}").format(
            path=str(path), reason=exc.message if isinstance(exc, RulesError) else str(exc))) from exc

"""Build & PSU calculator (Qt-free).

How the recommended size is found (numbers and sources in resources/data/psu.json):

1. Sustained DC load ``S``: CPU at its long-duration limit (Intel PL2 / AMD PPT),
   each GPU at its TGP, plus board, RAM, drives, fans, pumps, USB.
2. Requirements, the largest wins:
   - vendor: NVIDIA's "required system power" (for several cards: the largest
     requirement plus the other cards' TGP, since the figure assumes one card);
     the recommendation is never below it;
   - sustained share: ``S / 0.80 x ageing`` (the load at most 80 % of the rating;
     ageing 1.2 for 24/7 training, after OuterVision's 20-30 % for 24/7 use);
   - excursion: ATX 3.x lets a PSU carry 160 % for 10 ms and 200 % for 100 us
     (135 % / 150 % without a native 12V-2x6 lead or on ATX 2.x), checked against
     GPU spikes per connector type (PCIe CEM 5.0 cards: up to 3x for 100 us).
3. Rounded up to a size that is sold (450 ... 2000 W, 1 % tolerance). When the
   requirement lands within a few percent over a size, the result says so
   (``boundary``) instead of jumping a size silently.

Every user-visible sentence is a ``Msg``; JSON consumers read the stable codes.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from services.hardware.build import EFFICIENCY_LEVELS, Build, PsuStandard, Usage, validate
from services.hardware.catalog import Catalog, Cpu, Gpu
from services.hardware.psu_result import (
    Boundary, BuildWarning, Candidate, ConnectorPlan, CostEstimate, GpuConnectors, LanePlan, PowerLine, Result, Severity,
    Verdict,
)
from services.i18n import Msg, translate

MIN_MARGIN = 1.05  # an existing PSU must carry the sustained load with 5 % to spare


def component_lines(build: Build, catalog: Catalog) -> list[PowerLine]:
    c = catalog.components
    lines: list[PowerLine] = []
    if build.cpu is not None or build.cpu_w_override:
        cpu_w = build.cpu_w_override or (build.cpu.max_power_w if build.cpu else 0.0)
        name = build.cpu.name if build.cpu else "CPU"
        lines.append(PowerLine("cpu", translate("Psu", "CPU {name}").format(name=name), cpu_w))
    for gpu in build.gpus:
        lines.append(PowerLine("gpu", translate("Psu", "GPU {name}").format(name=gpu.name), float(gpu.tgp_w or 0.0)))
    lines.append(PowerLine("board", translate("Psu", "Motherboard"), c["motherboard"].watts))
    lines.append(PowerLine("ram", translate("Psu", "Memory ({n} sticks)").format(n=build.ram_sticks),
                           build.ram_sticks * c["ram_stick"].watts))
    storage = build.nvme * c["nvme"].watts + build.sata_ssd * c["sata_ssd"].watts + build.hdd * c["hdd"].watts
    lines.append(PowerLine("storage", translate("Psu", "Drives"), storage))
    cooling = build.fans * c["fan"].watts + build.aio_pumps * c["aio_pump"].watts + build.argb_channels * c["argb_channel"].watts
    lines.append(PowerLine("cooling", translate("Psu", "Fans, pumps, lighting"), cooling))
    lines.append(PowerLine("usb", translate("Psu", "USB devices"), build.usb_devices * c["usb_device"].watts))
    return lines


def round_to_size(watts: float, sizes: Sequence[int]) -> int:
    """Smallest size sold that covers ``watts`` (1 % tolerance); beyond the list, next 100 W."""
    for size in sizes:
        if watts <= size * 1.01:
            return size
    return int(math.ceil(watts / 100.0) * 100)


def efficiency_at(level: str, load_fraction: float, catalog: Catalog) -> float:
    """80 PLUS efficiency (%) at a load fraction, interpolated between certified points (115 V)."""
    table = catalog.psu_rules["efficiency_115v"]
    xs = [p / 100 for p in table["points_pct_load"]]
    ys = table["levels"][level]
    points = [(x, y) for x, y in zip(xs, ys, strict=True) if y is not None]  # a level lists one value per load point
    load = min(max(load_fraction, 0.0), 1.2)
    if load <= points[0][0]:
        # below the lowest certified point efficiency falls off; hold the first point's value minus a margin
        return float(points[0][1]) - (5.0 if load < points[0][0] * 0.5 else 0.0)
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if load <= x1:
            return y0 + (y1 - y0) * (load - x0) / (x1 - x0)
    return float(points[-1][1])


def sense_level(tgp_w: float, levels: Sequence[int]) -> int:
    for level in levels:
        if tgp_w <= level:
            return level
    return levels[-1]


def plan_connectors(gpus: Sequence[Gpu], catalog: Catalog) -> ConnectorPlan:
    conn_rules = catalog.psu_rules["connectors"]
    per_8pin = conn_rules["pcie_8pin_w"]
    slot_w = conn_rules["slot_w"]
    items: list[GpuConnectors] = []
    for gpu in gpus:
        tgp = float(gpu.tgp_w or 0.0)
        kind = gpu.power_connector.type
        native = pcie8 = eps = 0
        level: int | None = None
        if kind == "12v-2x6":
            level = sense_level(tgp, conn_rules["12v2x6_levels_w"])
            native = 1
            pcie8 = level // per_8pin  # NVIDIA's adapters: one 8-pin per 150 W of signalled level
            msg = translate("Psu", "{gpu}: one 12V-2x6 (12VHPWR) lead rated {level} W or more, or the adapter with {n} separate 8-pin leads").format(
                gpu=gpu.name, level=level, n=pcie8)
        elif kind == "12pin-fe":
            pcie8 = max(1, math.ceil((tgp - slot_w) / per_8pin))
            msg = translate("Psu", "{gpu}: Founders Edition 12-pin adapter with {n} separate 8-pin leads (partner cards: see the card's manual)").format(
                gpu=gpu.name, n=pcie8)
        elif kind in ("8pin", "6pin"):
            pcie8 = gpu.power_connector.count + gpu.power_connector.six_pin
            msg = translate("Psu", "{gpu}: {n} PCIe 8-pin (6+2) leads on the reference card; partner cards may need more").format(gpu=gpu.name, n=pcie8)
        elif kind == "eps-8pin":
            eps = gpu.power_connector.count or 1
            msg = translate("Psu", "{gpu}: {n} 8-pin EPS (CPU-type) lead, not a PCIe 8-pin").format(gpu=gpu.name, n=eps)
        elif kind == "none":
            msg = translate("Psu", "{gpu}: powered by the slot alone").format(gpu=gpu.name)
        elif kind == "module":
            msg = translate("Psu", "{gpu}: an SXM module powered by its server baseboard, not by a desktop PSU").format(gpu=gpu.name)
        else:
            msg = translate("Psu", "{gpu}: power connector not in the catalogue; check the card's manual").format(gpu=gpu.name)
        items.append(GpuConnectors(gpu.name, kind, native, pcie8 if kind != "12v-2x6" else 0, eps, level, msg))
    native_total = sum(i.native_12v2x6 for i in items)
    plain_8pin = sum(i.pcie_8pin for i in items)
    adapter_8pin = sum((i.sense_level_w or 0) // per_8pin for i in items if i.kind == "12v-2x6")
    return ConnectorPlan(tuple(items), native_total, plain_8pin, plain_8pin + adapter_8pin, sum(i.eps_8pin for i in items))


def plan_lanes(gpus: Sequence[Gpu], cpu: Cpu | None) -> tuple[LanePlan, list[BuildWarning]]:
    warnings: list[BuildWarning] = []
    cards = [g for g in gpus if g.is_add_in_card]
    if not cards:
        return LanePlan(cpu.gpu_lanes if cpu else None, (), translate("Psu", "No add-in GPU in this build.")), warnings
    if cpu is None:
        return LanePlan(None, tuple("?" for _ in cards), translate("Psu", "Choose a CPU to see how the PCIe lanes are shared.")), warnings
    lanes = cpu.gpu_lanes
    # how many cards the platform can hang off CPU lanes ("x16+x16+x16" -> 3), and at what width
    cpu_cards = min(len(cards), max(split.count("+") + 1 for split in cpu.gpu_splits))
    width = 16
    while width > 8 and width * cpu_cards > lanes:
        width //= 2
    assignments = [f"x{min(width, c.pcie_lanes or 16)} (CPU)" for c in cards[:cpu_cards]]
    assignments += ["x4 (chipset)"] * (len(cards) - cpu_cards)
    if len(cards) == 1:
        msg = translate("Psu", "{gpu} gets x{w} PCIe {gen}.0 from the CPU.").format(
            gpu=cards[0].name, w=min(width, cards[0].pcie_lanes or 16), gen=min(cpu.pcie_gen, cards[0].pcie_gen or cpu.pcie_gen))
    elif width == 16 and cpu_cards == len(cards):
        msg = translate("Psu", "{cpu} has {lanes} lanes for graphics: every card gets x16 from the CPU.").format(cpu=cpu.name, lanes=lanes)
    elif lanes == 16:
        # mainstream desktop: the 16 graphics lanes split x8+x8 only on boards wired for it
        msg = translate("Psu", "{cpu} has 16 lanes for graphics: two cards run x8+x8 only on boards that split the CPU lanes (check the manual); otherwise the second card sits in a chipset x4 slot.").format(cpu=cpu.name)
        warnings.append(BuildWarning("lanes_split", Severity.INFO, msg))
    else:
        msg = translate("Psu", "{cpu} gives {k} cards x{w} from the CPU; the others sit in chipset x4 slots.").format(
            cpu=cpu.name, k=cpu_cards, w=width)
    if len(cards) > cpu_cards:
        warnings.append(BuildWarning("lanes_chipset", Severity.WARNING, translate(
            "Psu", "{n} of the cards share the chipset's uplink at x4 or less: slow for loading models and for multi-GPU training. A platform with more CPU lanes (Threadripper PRO, Xeon W) gives every card x16.").format(
                n=len(cards) - cpu_cards)))
    nvlinked = any(c.nvlink for c in cards)
    if len(cards) > 1 and not nvlinked and any(c.architecture == "Ada Lovelace" and c.segment == "desktop" for c in cards):
        warnings.append(BuildWarning("no_p2p", Severity.INFO, translate("Psu", "GeForce RTX 40 cards have no NVLink and the driver disables peer-to-peer over PCIe: multi-GPU training exchanges gradients through host memory.")))
    # slot width: cards thicker than two slots cover the neighbouring slot
    widths = [c.width_slots or 2.0 for c in cards]
    if len(cards) > 1:
        needed = sum(math.ceil(w - 0.05) for w in widths) + (len(cards) - 1)  # one free slot between cards for air
        if any(w > 2.05 for w in widths) or needed > 7:
            warnings.append(BuildWarning("slot_width", Severity.WARNING, translate("Psu", "{n} cards of up to {slots:.1f} slots each need about {needed} expansion slots with a gap for air; a standard ATX case has 7 and many boards space their x16 slots too closely. Check slot spacing, or use blower-style or water-cooled cards or riser cables.").format(
                    n=len(cards), slots=max(widths), needed=needed)))
    return LanePlan(lanes, tuple(assignments), msg), warnings


def gpu_spike_factors(gpu: Gpu, catalog: Catalog) -> tuple[float, float]:
    """(10 ms, 100 us) spike multiples of TGP for the card's power connector (psu.json)."""
    table = catalog.psu_rules["gpu_transient_factor"]["by_connector"]
    k = table.get(gpu.power_connector.type, table["unknown"])
    return float(k["10ms"]), float(k["100us"])


def size_boundary(required: float, sizes: Sequence[int], margin_pct: float) -> tuple[int, float] | None:
    """(smaller size, % over it) when ``required`` lands just over a size: within ``margin_pct``
    but past the 1 % rounding tolerance."""
    below = [s for s in sizes if s * 1.01 < required]
    if not below:
        return None
    smaller = below[-1]
    over = (required / smaller - 1.0) * 100.0
    return (smaller, over) if over <= margin_pct else None


def _vendor_method_text(gpu: Gpu) -> Msg:
    if gpu.rsp_method == "sibling" and gpu.required_system_power_w:
        return translate("Psu", "{gpu}: {w} W, the figure of the same-GPU {sibling}").format(
            gpu=gpu.name, w=round(gpu.required_system_power_w), sibling=gpu.rsp_from or "")
    return translate("Psu", "{gpu}: no vendor figure in our sources; sized from the parts").format(gpu=gpu.name)


def calculate(build: Build, catalog: Catalog) -> Result:
    """Size the PSU for ``build``. Raises ``BuildError`` for impossible input."""
    validate(build)
    rules = catalog.psu_rules
    r = rules["rules"]
    usage = build.usage.value
    lines = component_lines(build, catalog)
    sustained = sum(line.watts for line in lines)
    gpu_w = sum(line.watts for line in lines if line.key == "gpu")
    rest_w = sustained - gpu_w
    typical = sustained * r["typical_fraction"][usage]
    peak_10ms = rest_w
    peak_100us = rest_w
    for gpu in build.gpus:
        k10, k100 = gpu_spike_factors(gpu, catalog)
        peak_10ms += float(gpu.tgp_w or 0.0) * k10
        peak_100us += float(gpu.tgp_w or 0.0) * k100
    hdd_spinup = build.hdd * (catalog.components["hdd"].spinup_watts or 0.0)

    atx3 = build.psu_standard is PsuStandard.ATX3
    exc = rules["excursion_atx3"]["with_12v2x6_over_450w" if atx3 else "without"]
    excursion_min = max(peak_10ms / exc["10ms"], peak_100us / exc["100us"])
    share, ageing = r["sustained_share"], r["ageing"][usage]
    share_w = sustained / share * ageing
    cards = [g for g in build.gpus if g.is_add_in_card]
    rated = [i for i, g in enumerate(cards) if g.required_system_power_w]
    vendor = 0.0
    if rated:
        # NVIDIA's figure assumes one card: add the other cards' TGP to the largest requirement
        top = max(rated, key=lambda i: cards[i].required_system_power_w or 0.0)
        vendor = float(cards[top].required_system_power_w or 0.0) + sum(float(g.tgp_w or 0) for i, g in enumerate(cards) if i != top)
        vendor_reason = translate("Psu", "NVIDIA's required system power for {gpu}: {w} W").format(
            gpu=cards[top].name, w=round(cards[top].required_system_power_w or 0.0))
        if len(cards) > 1:
            vendor_reason = translate("Psu", "{base}, plus the other cards' board power").format(base=vendor_reason)
    else:
        vendor_reason = None
    if ageing > 1.0:
        share_reason = translate("Psu", "{s} W sustained / {share} x {a} (ageing under 24/7 load) = {req} W").format(
            s=round(sustained), share=f"{share:g}", a=f"{ageing:g}", req=round(share_w))
    else:
        share_reason = translate("Psu", "{s} W sustained / {share} = {req} W").format(s=round(sustained), share=f"{share:g}", req=round(share_w))
    std = translate("Psu", "ATX 3.x") if atx3 else translate("Psu", "ATX 2.x")
    excursion_reason = translate("Psu", "GPU spikes of {p100} W for 100 us within {pct100}% and {p10} W for 10 ms within {pct10}% of the rating ({std})").format(
        p100=round(peak_100us), pct100=round(exc["100us"] * 100), p10=round(peak_10ms), pct10=round(exc["10ms"] * 100), std=std)
    candidates = (
        Candidate("vendor", translate("Psu", "GPU vendor's required system power"), vendor, vendor_reason),
        Candidate("sustained_share", translate("Psu", "Sustained load at most {pct}% of the rating").format(pct=round(share * 100))
                  if ageing <= 1.0 else translate("Psu", "Sustained load at most {pct}% of the rating, x {a} ageing (24/7)").format(
                      pct=round(share * 100), a=ageing), share_w, share_reason),
        Candidate("excursion", translate("Psu", "Power excursions (ATX 3.x limits)") if atx3 else translate("Psu", "Power excursions (ATX 2.x limits)"),
                  excursion_min, excursion_reason),
    )
    deciding = max(candidates, key=lambda c: c.watts)
    required = deciding.watts
    recommended = max(round_to_size(required, rules["sizes_w"]), int(math.ceil(vendor)))
    boundary = None
    near = size_boundary(required, rules["sizes_w"], r["boundary_pct"])
    if near is not None and near[0] >= vendor:
        smaller, over = near
        boundary = Boundary(smaller, over, deciding.key, translate(
            "Psu", "Close to a size: the requirement ({req} W, from {rule}) is only {pct}% over {smaller} W. A good {smaller} W unit would run this build at {load}% of its rating under full load; {rec} W keeps the margin the rules ask for.").format(
                req=round(required), rule=deciding.label, pct=f"{over:.1f}", smaller=smaller,
                load=round(sustained / smaller * 100), rec=round_to_size(required, rules["sizes_w"])))
    # the hard floor for judging an existing PSU: the vendor figure, 5 % over the
    # sustained load, and the excursion limits
    minimum = max(vendor, sustained * MIN_MARGIN, excursion_min)

    warnings: list[BuildWarning] = []
    lane_plan, lane_warnings = plan_lanes(build.gpus, build.cpu)
    connectors = plan_connectors(build.gpus, catalog)
    _connector_warnings(build, connectors, warnings)
    warnings.extend(lane_warnings)
    _gpu_warnings(build, warnings)

    verdict = None
    psu_for_cost = float(recommended)
    if build.psu_w:
        psu_for_cost = float(build.psu_w)
        verdict = Verdict.OK if build.psu_w >= recommended * 0.99 else Verdict.TIGHT if build.psu_w >= minimum else Verdict.INSUFFICIENT
        if verdict is Verdict.INSUFFICIENT:
            warnings.insert(0, BuildWarning("psu_insufficient", Severity.PROBLEM, translate("Psu", "Your {psu} W PSU is below the minimum of {min} W for this build.").format(psu=round(build.psu_w), min=round(minimum))))
        elif verdict is Verdict.TIGHT:
            warnings.insert(0, BuildWarning("psu_tight", Severity.WARNING, translate("Psu", "Your {psu} W PSU meets the minimum ({min} W) but not the recommended {rec} W: expect fan noise and little margin as it ages.").format(
                    psu=round(build.psu_w), min=round(minimum), rec=recommended)))
        over = peak_100us > build.psu_w * exc["100us"] or peak_10ms > build.psu_w * exc["10ms"]
        if over and not atx3:
            warnings.append(BuildWarning("excursion_atx2", Severity.WARNING, translate("Psu", "GPU spikes (about {peak} W for 100 us) exceed what an ATX 2.x PSU of this size must tolerate: it may shut down under load.").format(peak=round(peak_100us))))
        elif over:
            warnings.append(BuildWarning("excursion", Severity.WARNING, translate("Psu", "GPU spikes (about {p10} W for 10 ms, {p100} W for 100 us) exceed the ATX 3.x excursion limits of a {psu} W unit: it may shut down under load.").format(
                p10=round(peak_10ms), p100=round(peak_100us), psu=round(build.psu_w))))
    if required > rules["sizes_w"][-1]:
        warnings.append(BuildWarning("beyond_atx", Severity.PROBLEM, translate("Psu", "More than a single {max} W PSU: use two PSUs with an add2psu adapter, a server PSU, or power-limit the GPUs (nvidia-smi -pl).").format(max=rules["sizes_w"][-1])))
    load = sustained / psu_for_cost if psu_for_cost else 0.0
    eff = efficiency_at(build.efficiency, load, catalog)
    wall = sustained / (eff / 100.0) if eff > 0 else sustained
    if wall > r["circuit_continuous_w_120v"]:
        warnings.append(BuildWarning("circuit_120v", Severity.WARNING, translate("Psu", "About {wall} W from the wall: more than a 15 A / 120 V household circuit should carry continuously (1440 W). Fine on 230 V.").format(wall=round(wall))))
    if hdd_spinup > 0 and build.hdd >= 4:
        warnings.append(BuildWarning("hdd_spinup", Severity.INFO, translate("Psu", "{n} hard disks draw about {w} W together while spinning up; enable staggered spin-up if the controller supports it.").format(n=build.hdd, w=round(hdd_spinup))))
    hours = 24.0 if build.usage is Usage.TRAINING_24X7 else build.gaming_hours_per_day
    per_hour = wall / 1000.0 * build.price_per_kwh
    cost = CostEstimate(eff, load * 100.0, wall, per_hour, per_hour * hours, hours)
    by_level = tuple((level, e, sustained / (e / 100.0)) for level, e in
                     ((lv, efficiency_at(lv, load, catalog)) for lv in EFFICIENCY_LEVELS))
    missing = tuple(g.name for g in cards if not g.required_system_power_w or g.rsp_method == "sibling")
    methods = tuple(_vendor_method_text(g) for g in dict.fromkeys(
        g for g in cards if not g.required_system_power_w or g.rsp_method == "sibling"))
    if boundary is not None:
        warnings.append(BuildWarning("size_boundary", Severity.INFO, boundary.message))
    return Result(build, tuple(lines), sustained, typical, peak_10ms, peak_100us, hdd_spinup, candidates,
                  minimum, recommended, connectors, lane_plan, tuple(warnings), verdict, cost, by_level, missing,
                  boundary, methods, required, deciding.key, float(exc["10ms"]))


def _connector_warnings(build: Build, plan: ConnectorPlan, warnings: list[BuildWarning]) -> None:
    if build.psu_native_12v2x6 is not None and build.psu_pcie_8pin is not None:
        native_have = build.psu_native_12v2x6
        missing_native = max(0, plan.native_12v2x6 - native_have)
        # 16-pin cards without a native lead use their adapters: give the native
        # leads to the hungriest cards, the adapters to the rest
        needed_8pin = plan.pcie_8pin_with_native
        adapters = sorted((c for c in plan.gpus if c.kind == "12v-2x6"), key=lambda c: c.sense_level_w or 0)
        for c in adapters[:missing_native]:
            needed_8pin += (c.sense_level_w or 0) // 150
        if needed_8pin > build.psu_pcie_8pin:
            warnings.append(BuildWarning("connectors_short", Severity.PROBLEM, translate("Psu", "The PSU has {have8} PCIe 8-pin and {have16} 12V-2x6 leads; this build needs {need8} 8-pin leads with {use16} native 12V-2x6.").format(
                    have8=build.psu_pcie_8pin, have16=native_have, need8=needed_8pin, use16=min(native_have, plan.native_12v2x6))))
    if any(c.kind == "12v-2x6" for c in plan.gpus):
        warnings.append(BuildWarning("12v2x6_seating", Severity.INFO, translate("Psu", "Push the 12V-2x6 plug fully home and do not bend the cable sharply at the plug; melted connectors were still reported on the revised socket.")))
    if any(c.pcie_8pin >= 2 for c in plan.gpus) or any((c.sense_level_w or 0) >= 300 for c in plan.gpus):
        warnings.append(BuildWarning("separate_leads", Severity.INFO, translate("Psu", "Use a separate PSU lead for each 8-pin input rather than the second plug of a daisy-chained lead.")))


def _gpu_warnings(build: Build, warnings: list[BuildWarning]) -> None:
    for gpu in build.gpus:
        if gpu.is_laptop:
            warnings.append(BuildWarning("laptop_gpu", Severity.WARNING, translate("Psu", "{gpu} is a laptop GPU: the laptop's own adapter powers it, so desktop PSU sizing does not apply.").format(gpu=gpu.name)))
        elif gpu.power_connector.type == "module":
            warnings.append(BuildWarning("sxm_module", Severity.WARNING, translate("Psu", "{gpu} is an SXM module for servers, not a desktop card.").format(gpu=gpu.name)))
        if gpu.rsp_confidence == "unverified":
            warnings.append(BuildWarning("rsp_unverified", Severity.INFO, translate("Psu", "{gpu}: NVIDIA's required system power ({w} W) is not verified in our sources; we use it anyway, which only errs high.").format(
                    gpu=gpu.name, w=round(gpu.required_system_power_w or 0))))
    if any(g.segment == "desktop" and g.architecture in ("Ada Lovelace", "Blackwell") and (g.tgp_w or 0) >= 450 for g in build.gpus):
        warnings.append(BuildWarning("aib_power", Severity.INFO, translate("Psu", "Factory-overclocked partner cards often raise the power limit (some 4090s ask for a 1000 W PSU): use the card maker's figure if it is higher.")))

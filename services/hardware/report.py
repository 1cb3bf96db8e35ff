"""Plain-text report of a PSU calculation, for the command line (translated through ``Msg``)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from services.hardware.catalog import CloudPrice, GpuMatch
from services.hardware.compare import RankedCard, SpecRow, Workload, listed_cards
from services.hardware.money import Currency
from services.hardware.psu_result import BuildWarning, Result, Severity, Verdict
from services.hardware.rent import CardRent
from services.i18n import Msg, translate
from services.textwidth import display_width, pad

Render = Callable[["Msg | str"], str]

_SEVERITY_MARK = {Severity.INFO: "i", Severity.WARNING: "!", Severity.PROBLEM: "X"}


def verdict_text(verdict: Verdict) -> Msg:
    return {
        Verdict.OK: translate("PsuReport", "enough"),
        Verdict.TIGHT: translate("PsuReport", "enough, but below our recommendation"),
        Verdict.INSUFFICIENT: translate("PsuReport", "not enough"),
    }[verdict]


def usage_text(usage: str) -> Msg:
    return translate("PsuReport", "24/7 training") if usage == "training-24x7" else translate("PsuReport", "gaming")


def connector_lines(result: Result, render: Render) -> list[tuple[str, int]]:
    """Each card's power-lead line once, with how many cards it stands for (two identical cards: one line)."""
    counted: dict[str, int] = {}
    for item in result.connectors.gpus:
        text = render(item.message)
        counted[text] = counted.get(text, 0) + 1
    return list(counted.items())


def listed_warnings(result: Result) -> list[BuildWarning]:
    """The warnings to list, problems first; the lane split and the size boundary are told with the figures."""
    order = {Severity.PROBLEM: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return sorted((w for w in result.warnings if w.code not in ("lanes_split", "size_boundary")),
                  key=lambda w: order[w.severity])


def render_result(result: Result, render: Render, currency: str = "$") -> str:
    b = result.build
    out: list[str] = []
    parts = [g.name for g in b.gpus] + ([b.cpu.name] if b.cpu else [])
    out.append(render(translate("PsuReport", "Build: {parts} ({usage})").format(parts=" + ".join(parts) or "-", usage=usage_text(b.usage.value))))
    width = max((display_width(render(line.label)) for line in result.lines), default=10)
    for line in result.lines:
        out.append(f"  {pad(render(line.label), width)}  {line.watts:7.0f} W")
    out.append("")
    out.append(render(translate("PsuReport", "Sustained load: {s} W   peaks: {p10} W for 10 ms, {p100} W for 100 us").format(
        s=round(result.sustained_w), p10=round(result.peak_10ms_w), p100=round(result.peak_100us_w))))
    out.append(render(translate("PsuReport", "Recommended PSU: {w} W  (never below {m} W)").format(w=result.recommended_psu_w, m=round(result.minimum_psu_w))))
    out.append("  " + render(translate("PsuReport", "Why: {reason}").format(reason=result.reason_text())))
    for c in result.candidates:
        if c.watts > 0:
            mark = "*" if c.key == result.deciding else "-"
            out.append(f"  {mark} {render(c.label)}: {c.watts:.0f} W")
    missing = result.vendor_missing_text()
    if missing is not None:
        out.append(f"  - {render(missing)}")
    if result.boundary is not None:
        out.append("  " + render(result.boundary.message))
    if result.verdict is not None:
        out.append(render(translate("PsuReport", "Your {w} W PSU: {verdict}").format(w=round(b.psu_w or 0), verdict=verdict_text(result.verdict))))
    out.append("")
    out.append(render(translate("PsuReport", "Power connectors:")))
    for text, n in connector_lines(result, render):
        out.append(f"  - {n} x {text}" if n > 1 else f"  - {text}")
    out.append(render(translate("PsuReport", "PCIe lanes: {plan}").format(plan=result.lanes.message)))
    cost = result.cost
    out.append(render(translate("PsuReport", "From the wall: {wall} W at {eff}% efficiency ({level}, {load}% load): {cur} {hour:.2f} per hour, {cur} {day:.2f} per day of {hours} h").format(
        wall=round(cost.wall_w), eff=round(cost.efficiency_pct, 1), level=b.efficiency, load=round(cost.load_pct),
        cur=currency, hour=cost.cost_per_hour, day=cost.cost_per_day, hours=f"{cost.hours_per_day:g}")))
    shown = listed_warnings(result)
    if shown:
        out.append("")
        for w in shown:
            out.append(f"  [{_SEVERITY_MARK[w.severity]}] {render(w.message)}")
    return "\n".join(out)


def gpu_pick_text(query: str, match: GpuMatch) -> Msg:
    """Which card an ambiguous name was taken as, and the one it was not."""
    return translate("PsuReport", "'{query}' also names {other}, a server SXM module; using {gpu}, the PCIe card for a desktop build (type the full name for the other)").format(
        query=query, other=match.passed_over.name if match.passed_over else "", gpu=match.gpu.name)


def cloud_provider_text(cloud: CloudPrice) -> Msg:
    """Where a default cloud price comes from, in words a user can read in their language
    (the company name stays as it is)."""
    if cloud.offer == "catalogue_snapshot":
        return translate("PsuReport", "{provider} (catalogue snapshot)").format(provider=cloud.provider)
    if cloud.offer == "market_range":
        return translate("PsuReport", "{provider} (marketplace range {detail})").format(provider=cloud.provider, detail=cloud.offer_detail)
    if cloud.offer == "serverless":
        return translate("PsuReport", "{provider} serverless ({detail})").format(provider=cloud.provider, detail=cloud.offer_detail)
    return translate("PsuReport", "{provider}").format(provider=cloud.provider)


def cloud_source_text(cloud: CloudPrice) -> Msg:
    return translate("PsuReport", "{provider}, read {date} ({source})").format(
        provider=cloud_provider_text(cloud), date=cloud.read, source=cloud.source)


def render_buy_vs_rent(rows: Sequence[CardRent], cur: Currency, price_per_kwh: float, notes: Sequence["Msg | str"],
                       render: Render) -> str:
    """Each card against renting that card."""
    lines = [render(translate("PsuReport", "Buy vs rent, card by card (each card's share of the power at {price}/kWh):").format(
        price=f"{cur.symbol}{price_per_kwh:.3f}"))]
    for row in rows:
        if row.outcome is None:
            lines.append("  " + render(row.message))
            continue
        o = row.outcome
        lines.append("  " + render(translate("PsuReport", "{gpu}: card {price}, resale {resale}, cloud {rate}/h; {w} W of the PC's power costs {energy}/h").format(
            gpu=row.gpu.name, price=cur.fmt(o.purchase_usd), resale=cur.fmt(o.resale_usd), rate=f"{cur.symbol}{o.cloud_usd_per_hour:.2f}",
            w=round(row.power_share_w), energy=f"{cur.symbol}{o.energy_usd_per_hour:.3f}")))
        lines.append("    " + render(o.message))
    for note in notes:
        lines.append("  " + render(note))
    return "\n".join(lines)


def render_specs(names: Sequence[str], rows: Sequence[SpecRow], render: Render) -> str:
    label_w = max(display_width(render(r.label)) for r in rows)
    col_w = max([display_width(n) for n in names] + [display_width(render(v)) for r in rows for v in r.values]) + 4
    out = [" " * (label_w + 2) + "".join(pad(n, col_w) for n in names)]
    for r in rows:
        cells = "".join(pad(render(v) + (" *" if r.best == i else ""), col_w) for i, v in enumerate(r.values))
        out.append(f"{pad(render(r.label), label_w)}  {cells}")
    out.append(render(translate("PsuReport", "* best of the compared cards")))
    return "\n".join(out)


def render_ranking(ranked: Sequence[RankedCard], workload: Workload | None, budget: float | None, render: Render,
                   limit: int = 12, cheapest: RankedCard | None = None, cur: Currency | None = None) -> str:
    """Cards that hold the work first; cards without a price say "enter a price". Amounts in ``cur``."""
    def money(usd: float) -> str:
        return cur.fmt(cur.from_usd(usd)) if cur else f"${usd:,.0f}"

    out: list[str] = []
    if workload is not None:
        out.append(render(translate("PsuReport", "Work: {label}, needs about {gib:.1f} GiB on one GPU ({method})").format(
            label=workload.label, gib=workload.vram_needed_gib, method=workload.method)))
    if budget is not None:
        out.append(render(translate("PsuReport", "Budget: {budget}").format(budget=money(budget))))
    if not ranked:
        out.append(render(translate("PsuReport", "No card in the catalogue matches (within budget).")))
        return "\n".join(out)
    out.append(render(translate("PsuReport", "Cards that hold the work first, then by dense BF16 tensor TFLOPS and bandwidth per 1000 of price (never sparse or FP4 figures):")))
    fitting = [r for r in ranked if r.fits]
    shown = listed_cards(ranked, limit)
    unit = cur.symbol if cur else "$"
    for i, r in enumerate(shown, 1):
        fit = render(translate("PsuReport", "fits")) if r.fits else render(translate("PsuReport", "too small"))
        if r.price_usd is None:
            price = render(translate("PsuReport", "enter a price"))
            value = ""
        else:
            note = render(translate("PsuReport", "launch price")) if r.price_is_default else render(translate("PsuReport", "your price"))
            price = f"{money(r.price_usd)} ({note})"
            per_k = 1000.0 / cur.per_usd if cur else 1000.0  # 1000 in the display currency, in USD
            value = f"{(r.tflops_per_kusd or 0) * per_k / 1000.0:6.1f} TFLOPS/k{unit}  {(r.gbs_per_kusd or 0) * per_k / 1000.0:6.0f} GB/s/k{unit}"
        out.append(f"  {i:2}. {pad(r.gpu.name, 28)} {pad(price, 26)} {r.gpu.vram_gb:>4.0f} GB {pad(fit, 10)} {value}".rstrip())
    if any(r.price_usd is None for r in shown):
        out.append(render(translate("PsuReport", "Cards without a launch price on file: give yours with --price CARD=AMOUNT.")))
    if workload is not None and not fitting:
        out.append(render(translate("PsuReport", "No single card in the catalogue holds the work: split it across several GPUs or quantize it.")))
    elif workload is not None and not any(r.fits for r in ranked[:limit]) and cheapest is not None:
        out.append(render(translate("PsuReport", "The cheapest card that holds the work is {gpu} ({price}).").format(
            gpu=cheapest.gpu.name, price=money(cheapest.price_usd or 0.0))))
    return "\n".join(out)

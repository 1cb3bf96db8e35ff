"""``python main.py psu``: size a PSU for a build, check cables and lanes, compare cards."""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cli import EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, UsageError, cli_catalog, fail, refuse_empty
from services.i18n import Msg, translate

DAYS_PER_MONTH = 365.25 / 12  # tariffs' tiers are per month

HELP = "size a PSU for a build (GPUs, CPU, drives), check cables and PCIe lanes, compare cards"


def _type_error(message: Msg) -> argparse.ArgumentTypeError:
    """argparse prints ``str()`` of the error: said now, in this run's language (``main`` has set it)."""
    return argparse.ArgumentTypeError(cli_catalog().render(message))


def _count(limit: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise _type_error(translate("Cli", "'{value}' is not a whole number").format(value=text)) from None
        if not 0 <= value <= limit:
            raise _type_error(translate("Cli", "must be from 0 to {limit}").format(limit=limit))
        return value
    return parse


def _number(low: float, high: float):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise _type_error(translate("Cli", "'{value}' is not a number").format(value=text)) from None
        if not math.isfinite(value) or not low <= value <= high:
            raise _type_error(translate("Cli", "must be between {low} and {high}").format(
                low=f"{low:g}", high=f"{high:g}"))
        return value
    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    build = parser.add_argument_group("build")
    build.add_argument("--gpu", action="append", default=[], metavar="NAME",
                       help="a GPU, as you would type it ('4090', 'RTX 5090', 'A6000'); repeat for several cards")
    build.add_argument("--cpu", metavar="NAME", help="the CPU ('13900K', 'Ryzen 9 9950X')")
    build.add_argument("--cpu-w", type=_number(1, 2000), metavar="W", help="CPU power instead of its PL2/PPT (overclocked, unlocked limits)")
    build.add_argument("--detect", action="store_true", help="fill in this machine's GPUs and CPU where --gpu/--cpu are not given")
    build.add_argument("--ram-sticks", type=_count(16), default=2, metavar="N")
    build.add_argument("--nvme", type=_count(16), default=1, metavar="N")
    build.add_argument("--sata", type=_count(24), default=0, metavar="N", help="2.5-inch SATA SSDs")
    build.add_argument("--hdd", type=_count(60), default=0, metavar="N", help="3.5-inch hard disks")
    build.add_argument("--fans", type=_count(30), default=3, metavar="N")
    build.add_argument("--pumps", type=_count(4), default=0, metavar="N", help="AIO / water-cooling pumps")
    build.add_argument("--argb", type=_count(16), default=0, metavar="N", help="ARGB lighting channels")
    build.add_argument("--usb", type=_count(20), default=2, metavar="N", help="powered USB devices")
    build.add_argument("--usage", choices=["gaming", "training-24x7"], default="gaming")
    psu = parser.add_argument_group("power supply")
    psu.add_argument("--psu-w", type=_number(1, 10000), metavar="W", help="check the PSU you have")
    psu.add_argument("--psu-standard", choices=["atx3", "atx2"], default="atx3",
                     help="atx3: ATX 3.x with a native 12V-2x6 lead; atx2: older units (lower spike limits)")
    psu.add_argument("--psu-12v2x6", type=_count(8), metavar="N", help="native 12V-2x6/12VHPWR leads on your PSU")
    psu.add_argument("--psu-8pin", type=_count(16), metavar="N", help="PCIe 8-pin (6+2) leads on your PSU")
    psu.add_argument("--efficiency", choices=["none", "white", "bronze", "silver", "gold", "platinum", "titanium"],
                     default="gold", help="80 PLUS level, for power drawn from the wall")
    psu.add_argument("--price-kwh", type=_number(0, 100), metavar="X",
                     help="electricity price per kWh in the chosen currency (default: settings, else the dated sourced figure)")
    psu.add_argument("--currency", choices=["auto", "USD", "CNY"], help="currency for every amount, in and out (default: settings; auto = CNY for Chinese, USD otherwise)")
    psu.add_argument("--hours-per-day", type=_number(0, 24), default=4.0, metavar="H", help="hours of gaming per day (24/7 training uses 24)")
    money = parser.add_argument_group("buy vs rent, comparison")
    money.add_argument("--card-price", type=_number(0, 1e7), metavar="AMOUNT", help="what the first card costs you (default: dated price on file; --price CARD=AMOUNT for any card)")
    money.add_argument("--resale", type=_number(0, 1e7), default=0.0, metavar="AMOUNT", help="what you expect to sell each card for later")
    money.add_argument("--cloud-rate", action="append", default=[], metavar="[CARD=]AMOUNT",
                       help="cloud price per GPU-hour: for every card, or CARD=AMOUNT for one (default: dated price on file)")
    money.add_argument("--compare", action="store_true", help="show the --gpu cards (up to three) side by side")
    money.add_argument("--recommend", action="store_true", help="rank catalogue cards for --params-b and --budget")
    money.add_argument("--model", metavar="NAME", help="a model the model-fit tool knows (catalogue name or config/GGUF file)")
    money.add_argument("--params-b", type=_number(0.001, 10000), metavar="B", help="model size in billions of parameters")
    money.add_argument("--seq", type=_number(1, 16 * 1024 * 1024), default=4096, metavar="TOKENS", help="context length for the model-fit estimate")
    money.add_argument("--dtype", choices=["fp32", "bf16", "fp16", "fp8", "int8", "int4"], default="bf16")
    money.add_argument("--task", choices=["inference", "lora", "train"], default="inference")
    money.add_argument("--budget", type=_number(1, 1e8), metavar="AMOUNT", help="in the chosen currency")
    money.add_argument("--price", action="append", default=[], metavar="CARD=AMOUNT", help="your price for a card in the chosen currency (repeatable)")
    parser.add_argument("--json", action="store_true", help="machine-readable output (stable codes, English)")


def _unknown(what: Msg, name: str, close: list[str]) -> Msg:
    message = what.format(name=name)
    if not close:
        return message
    return translate("Cli", "{message}; closest: {choices}").format(message=message, choices=", ".join(close))


def _resolve_gpu(catalog, name: str, picks: list | None = None):
    """The card a desktop build means; an ambiguous name that also fits an SXM module is
    recorded in ``picks`` (query, match) so the output can say which card was taken."""
    from services.hardware.catalog import find_gpu_for_build, suggest_gpus

    match = find_gpu_for_build(name, catalog.gpus)
    if match is None:
        close = suggest_gpus(name, catalog.gpus)
        raise UsageError(_unknown(translate("Cli", "unknown GPU '{name}'"), name, close))
    if match.passed_over is not None and picks is not None:
        picks.append((name, match))
    return match.gpu


def _resolve_cpu(catalog, name: str):
    from services.hardware.catalog import suggest_cpus

    cpu = catalog.find_cpu(name)
    if cpu is None:
        close = suggest_cpus(name, catalog.cpus)
        raise UsageError(_unknown(translate("Cli", "unknown CPU '{name}'"), name, close))
    return cpu


def _amount(flag: str, value: str) -> float:
    try:
        amount = float(value)
    except ValueError:
        raise UsageError(translate("Cli", "{option}: '{value}' is not a number").format(option=flag, value=value)) from None
    if not math.isfinite(amount) or amount <= 0 or amount > 1e8:
        raise UsageError(translate("Cli", "{option} must be a positive number").format(option=flag))
    return amount


WANTS_CARD = translate("Cli", "{option} wants CARD=AMOUNT, got '{value}'")


def _prices(catalog, items: list[str], flag: str = "--price", allow_plain: bool = False) -> tuple[dict[str, float], float | None]:
    """CARD=AMOUNT items -> {card key: amount}; with ``allow_plain`` a bare AMOUNT is for every card."""
    prices: dict[str, float] = {}
    plain: float | None = None
    for item in items:
        name, sep, value = item.rpartition("=")
        if not sep:
            if allow_plain:
                plain = _amount(flag, item)
                continue
            raise UsageError(WANTS_CARD.format(option=flag, value=item))
        if not name.strip():
            raise UsageError(WANTS_CARD.format(option=flag, value=item))
        prices[_resolve_gpu(catalog, name.strip()).key] = _amount(flag, value)
    return prices, plain


def _cloud_read(money, catalog, gpu, cur) -> str | None:
    dated = money.default_cloud_rate(catalog, gpu, cur)
    return dated.read if dated else None


@dataclass
class _Inputs:
    """What the command line asks, resolved against the catalogue (the parse step)."""

    catalog: Any
    settings: Any
    cur: Any
    render: Callable[[Any], str]
    gpus: list
    cpu: Any
    picks: list
    prices: dict[str, float]
    cloud_rates: dict[str, float]
    cloud_all: float | None


@dataclass
class _Answer:
    """The command's answer: the JSON document and the text blocks, filled part by part."""

    out: dict
    text: list[str] = field(default_factory=list)


def run(args: argparse.Namespace) -> int:
    from services.hardware.catalog import CatalogError

    try:
        inputs = _parse(args)
    except CatalogError as exc:
        return fail(exc.message, EXIT_FAILED)
    if inputs is None:
        return fail(translate("Cli", "no NVIDIA GPU detected (no driver, or a card the catalogue does not "
                                     "know); name the cards with --gpu"), EXIT_NO_GPU)
    cur = inputs.cur
    answer = _Answer({"currency": {"code": cur.code, "per_usd": cur.per_usd, "rate_date": cur.date or None,
                                   "rate_source": cur.source or None}})
    if inputs.picks:
        from services.hardware.report import gpu_pick_text

        answer.out["gpu_name_matches"] = [{"query": q, "gpu": m.gpu.name, "also_matches": m.passed_over.name,
                                           "reason": "add_in_card_preferred"} for q, m in inputs.picks]
        answer.text.append("\n".join(inputs.render(gpu_pick_text(q, m)) for q, m in inputs.picks))
    if args.compare:
        _compare(args, inputs, answer)
    if args.recommend or args.budget is not None or args.params_b is not None or args.model:
        _recommend(args, inputs, answer)
    # --compare / --recommend alone answer only that; a CPU or a PSU to check asks for the build too
    if not (args.compare or "recommend" in answer.out) or inputs.cpu is not None or args.psu_w is not None:
        _build(args, inputs, answer)
    return _print(answer, args.json)


def _parse(args: argparse.Namespace) -> _Inputs | None:
    """The catalogue, the settings' currency and the cards, CPU and prices named (None: --detect found no GPU).
    Raises UsageError for what the person typed wrong, CatalogError for a damaged catalogue."""
    from services.hardware import detect, money
    from services.hardware.catalog import load_catalog
    from services.i18n import Catalog as Translations, resolve_language
    from services.paths import AppPaths
    from services.settings import SettingsStore

    catalog = load_catalog()
    settings = SettingsStore(AppPaths.default().settings_file).load()
    language = resolve_language(settings.general.language)
    try:
        cur = money.currency(catalog, money.resolve_currency_code(
            args.currency or money.currency_setting(settings.power_cost.currency, settings.power_cost.price_currency), language))
    except money.CurrencyError as exc:
        raise UsageError(str(exc)) from None
    picks: list = []
    gpus = [_resolve_gpu(catalog, name, picks) for name in args.gpu]
    refuse_empty(args.cpu, "--cpu")
    cpu = _resolve_cpu(catalog, args.cpu) if args.cpu else None
    if args.detect:
        if not gpus:
            gpus = detect.detected_gpus_nvml(catalog.gpus)
            if not gpus:
                return None
        if cpu is None:
            cpu = detect.detected_cpu(catalog.cpus)
    prices, _ = _prices(catalog, args.price)  # in the chosen currency
    cloud_rates, cloud_all = _prices(catalog, args.cloud_rate, "--cloud-rate", allow_plain=True)
    return _Inputs(catalog, settings, cur, Translations.load(language).render, gpus, cpu, picks, prices,
                   cloud_rates, cloud_all)


def _compare(args: argparse.Namespace, inputs: _Inputs, answer: _Answer) -> None:
    from services.hardware.compare import compare_specs
    from services.hardware.report import render_specs

    gpus = inputs.gpus
    if not 1 <= len(gpus) <= 3:  # more would be dropped silently from the table
        raise UsageError(translate("Cli", "--compare needs one to three --gpu, got {count}").format(count=len(gpus)))
    rows = compare_specs(gpus)
    shown = [g.name for g in gpus[:3]]
    answer.out["compare"] = {"gpus": shown, "rows": [{"key": r.key, "values": [str(v) for v in r.values], "best": r.best}
                                                     for r in rows]}
    answer.text.append(render_specs(shown, rows, inputs.render))


def _recommend(args: argparse.Namespace, inputs: _Inputs, answer: _Answer) -> None:
    from services.hardware.compare import Task, cheapest_fitting, rank_cards
    from services.hardware.report import render_ranking
    from services.modelfit.workload import estimate_with_modelfit

    catalog, cur = inputs.catalog, inputs.cur
    workload, how = None, None
    if args.model or args.params_b:
        try:
            workload = estimate_with_modelfit(args.model, args.params_b, args.dtype, Task(args.task), int(args.seq))
        except ValueError as exc:  # a model-fit input error carries its translatable Msg
            message = getattr(exc, "message", None)
            raise UsageError(message if isinstance(message, Msg) else str(exc)) from None
        how = "modelfit"
    prices_usd = {key: cur.to_usd(amount) for key, amount in inputs.prices.items()}
    budget_usd = cur.to_usd(args.budget) if args.budget is not None else None
    ranked = rank_cards(catalog.gpus, workload, budget_usd, prices_usd)
    fitting = [r for r in ranked if r.fits]
    listed = ranked[:20] + [r for r in fitting if r not in ranked[:20]]

    def amount(usd: float | None) -> float | None:
        return None if usd is None else round(cur.from_usd(usd), 2)

    answer.out["recommend"] = {
        "vram_needed_gib": round(workload.vram_needed_gib, 2) if workload else None,
        "estimate": how,
        "budget": args.budget,
        "cards_that_fit": [r.gpu.name for r in fitting],
        "cards": [{"gpu": r.gpu.name, "key": r.gpu.key, "price": amount(r.price_usd),
                   "price_usd": None if r.price_usd is None else round(r.price_usd, 2),
                   "price_is_launch_msrp": r.price_is_default and r.price_usd is not None, "needs_price": r.needs_price,
                   "fits": r.fits, "vram_gb": r.gpu.vram_gb, "bf16_dense_tflops": r.gpu.tensor_bf16_dense_tflops,
                   "bandwidth_gbs": r.gpu.bandwidth_gbs,
                   "tflops_per_kusd": None if r.tflops_per_kusd is None else round(r.tflops_per_kusd, 2),
                   "gbs_per_kusd": None if r.gbs_per_kusd is None else round(r.gbs_per_kusd, 1),
                   "score": None if r.score is None else round(r.score, 2)} for r in listed],
    }
    cheapest = cheapest_fitting(catalog.gpus, workload, prices_usd) if workload else None
    answer.out["recommend"]["cheapest_fitting"] = cheapest.gpu.name if cheapest else None
    answer.text.append(render_ranking(ranked, workload, budget_usd, inputs.render, cheapest=cheapest, cur=cur))


def _build(args: argparse.Namespace, inputs: _Inputs, answer: _Answer) -> None:
    """The PSU for the build, then (with cards) buying against renting each card."""
    from services.hardware import money
    from services.hardware.build import Build, BuildError, PsuStandard, Usage
    from services.hardware.psu import calculate
    from services.hardware.report import render_result

    catalog, cur, settings, gpus, cpu = inputs.catalog, inputs.cur, inputs.settings, inputs.gpus, inputs.cpu
    if not gpus and cpu is None:
        raise UsageError(translate("Cli", "give at least one --gpu or --cpu (or --detect)"))
    default_kwh = money.default_electricity(catalog, cur)
    saved_kwh = money.saved_electricity(catalog, cur, settings.power_cost.price_per_kwh, settings.power_cost.price_currency)
    if args.price_kwh is not None:
        price_kwh, kwh_origin = args.price_kwh, "argument"
    elif saved_kwh is not None:
        price_kwh, kwh_origin = saved_kwh, "settings"
    else:
        price_kwh, kwh_origin = default_kwh.amount, "default"
    build = Build(gpus=tuple(gpus), cpu=cpu, cpu_w_override=args.cpu_w, ram_sticks=args.ram_sticks, nvme=args.nvme,
                  sata_ssd=args.sata, hdd=args.hdd, fans=args.fans, aio_pumps=args.pumps, argb_channels=args.argb,
                  usb_devices=args.usb, usage=Usage(args.usage), psu_standard=PsuStandard(args.psu_standard),
                  efficiency=args.efficiency, psu_w=args.psu_w, psu_native_12v2x6=args.psu_12v2x6,
                  psu_pcie_8pin=args.psu_8pin, price_per_kwh=price_kwh, gaming_hours_per_day=args.hours_per_day)
    try:
        result = calculate(build, catalog)
    except BuildError as exc:
        raise UsageError(str(exc)) from None
    tiered = None
    if kwh_origin == "default":
        # A tiered household tariff prices this PC's kWh by how many there are: from the result's wall
        # power and hours a day, then the cost again at that average price.
        tiered = money.tiered_price(catalog, cur, result.cost.wall_w / 1000.0 * result.cost.hours_per_day * DAYS_PER_MONTH)
        if tiered is not None:
            price_kwh, kwh_origin = tiered.per_kwh, "default_tiered"
            result = calculate(dataclasses.replace(build, price_per_kwh=price_kwh), catalog)
    out = answer.out
    out.update(result.to_json())
    out["wall"]["currency"] = cur.code
    out["wall"]["price_per_kwh_origin"] = kwh_origin
    if kwh_origin == "default":
        out["wall"]["price_per_kwh_read"] = default_kwh.read
        out["wall"]["price_per_kwh_converted_from_usd"] = default_kwh.converted
    if tiered is not None:
        out["wall"]["tiered"] = {"kwh_per_month": round(tiered.kwh_per_month, 1), "base_kwh": tiered.base_kwh,
                                 "tiers_used": [{"kwh": round(k, 1), "price_per_kwh": p} for k, p in tiered.tiers_used],
                                 "what": tiered.what, "date": tiered.date, "source": tiered.source}
    answer.text.append(render_result(result, inputs.render, cur.symbol))
    if tiered is not None:
        answer.text.append(inputs.render(tiered.note(cur)))
    if gpus:
        _buy_vs_rent(args, inputs, answer, result, price_kwh, default_kwh if kwh_origin == "default" else None)


def _buy_vs_rent(args: argparse.Namespace, inputs: _Inputs, answer: _Answer, result: Any, price_kwh: float,
                 default_kwh: Any) -> None:
    """``default_kwh``: the dated default electricity price when the build used it (its note is shown)."""
    from services.hardware import money
    from services.hardware.rent import buy_vs_rent_per_card
    from services.hardware.report import cloud_source_text, render_buy_vs_rent

    catalog, cur, prices, cloud_rates, cloud_all = (inputs.catalog, inputs.cur, inputs.prices, inputs.cloud_rates,
                                                    inputs.cloud_all)
    purchases: list[float | None] = []
    rates: list[float | None] = []
    notes: list = []
    for i, gpu in enumerate(inputs.gpus):
        if gpu.key in prices:
            purchases.append(prices[gpu.key])
        elif i == 0 and args.card_price is not None:
            purchases.append(args.card_price)
        else:
            dated = money.default_card_price(catalog, gpu, cur)
            purchases.append(dated.amount if dated else None)
            if dated:
                notes.append(money.translate("PsuReport", "{gpu} price: {note}").format(gpu=gpu.name, note=dated.note(cur)))
        if gpu.key in cloud_rates:
            rates.append(cloud_rates[gpu.key])
        elif cloud_all is not None:
            rates.append(cloud_all)
        else:
            dated_rate = money.default_cloud_rate(catalog, gpu, cur)
            rates.append(dated_rate.amount if dated_rate else None)
            cloud = catalog.cloud_prices.get(gpu.key)
            if dated_rate is not None and not dated_rate.converted and cur.code != "USD":
                notes.append(money.translate("PsuReport", "{gpu} cloud price: {source}").format(
                    gpu=gpu.name, source=money.cloud_rate_note(dated_rate)))
            elif cloud is not None and cur.code == "USD":
                notes.append(money.translate("PsuReport", "{gpu} cloud price: {source}").format(gpu=gpu.name, source=cloud_source_text(cloud)))
            elif cloud is not None:
                notes.append(money.translate("PsuReport", "{gpu} cloud price: {source}; converted from USD").format(gpu=gpu.name, source=cloud_source_text(cloud)))
    notes = list({str(n): n for n in notes}.values())
    if default_kwh is not None:
        notes.append(money.electricity_note(catalog, cur, default_kwh))
    if cur.rate_text() is not None and any(n for n in notes):
        notes.append(cur.rate_text())
    if cur.code == "CNY" and catalog.money.get("cloud_cn_note"):
        notes.append(money.translate("Money", "No dated AutoDL price was found in our sources: cloud prices in CNY are the lowest listed on a public price index, or converted from USD; enter the price you see (--cloud-rate CARD=AMOUNT)."))
    rows = buy_vs_rent_per_card(result, purchases, rates, args.resale, cur.symbol)
    answer.out["buy_vs_rent"] = [{"gpu": row.gpu.name, "purchase": row.purchase, "resale": min(args.resale, row.purchase or 0.0),
                                  "cloud_per_hour": row.cloud_per_hour, "power_share_w": round(row.power_share_w, 1),
                                  "cloud_price_read": (_cloud_read(money, catalog, row.gpu, cur)
                                                       if row.gpu.key not in cloud_rates and cloud_all is None else None),
                                  "energy_per_hour": None if row.outcome is None else round(row.outcome.energy_usd_per_hour, 4),
                                  "break_even_hours": None if row.outcome is None or row.outcome.break_even_hours is None
                                  else round(row.outcome.break_even_hours, 1),
                                  "message": str(row.message)} for row in rows]
    answer.text.append(render_buy_vs_rent(rows, cur, price_kwh, notes, inputs.render))


def _print(answer: _Answer, as_json: bool) -> int:
    """The render step: the JSON document or the text blocks."""
    try:
        if as_json:
            json.dump(answer.out, sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            print("\n\n".join(answer.text))
        sys.stdout.flush()
    except BrokenPipeError:  # "| head" closed the pipe: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK

"""``python main.py psu``: size a PSU for a build, check cables and lanes, compare cards."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

from services.cli import EXIT_FAILED, EXIT_NO_GPU, EXIT_OK, UsageError, fail

HELP = "size a PSU for a build (GPUs, CPU, drives), check cables and PCIe lanes, compare cards"


def _count(limit: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not 0 <= value <= limit:
            raise argparse.ArgumentTypeError(f"must be from 0 to {limit}")
        return value
    return parse


def _number(low: float, high: float):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low:g} and {high:g}")
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
    psu.add_argument("--price-kwh", type=_number(0, 10), metavar="X", help="electricity price per kWh (default: from settings)")
    psu.add_argument("--hours-per-day", type=_number(0, 24), default=4.0, metavar="H", help="hours of gaming per day (24/7 training uses 24)")
    money = parser.add_argument_group("buy vs rent, comparison")
    money.add_argument("--card-price", type=_number(0, 1e6), metavar="USD", help="what the (first) card costs you (default: launch price)")
    money.add_argument("--resale", type=_number(0, 1e6), default=0.0, metavar="USD", help="what you expect to sell it for later")
    money.add_argument("--cloud-rate", type=_number(0, 1000), metavar="USD", help="cloud price per GPU-hour (default: dated catalogue price)")
    money.add_argument("--compare", action="store_true", help="show the --gpu cards (up to three) side by side")
    money.add_argument("--recommend", action="store_true", help="rank catalogue cards for --params-b and --budget")
    money.add_argument("--model", metavar="NAME", help="a model the model-fit tool knows (catalogue name or config/GGUF file)")
    money.add_argument("--params-b", type=_number(0.001, 10000), metavar="B", help="model size in billions of parameters")
    money.add_argument("--seq", type=_number(1, 16 * 1024 * 1024), default=4096, metavar="TOKENS", help="context length for the model-fit estimate")
    money.add_argument("--dtype", choices=["fp32", "bf16", "fp16", "fp8", "int8", "int4"], default="bf16")
    money.add_argument("--task", choices=["inference", "lora", "train"], default="inference")
    money.add_argument("--budget", type=_number(1, 1e7), metavar="USD")
    money.add_argument("--price", action="append", default=[], metavar="CARD=USD", help="your price for a card (repeatable)")
    parser.add_argument("--json", action="store_true", help="machine-readable output (stable codes, English)")


def _resolve_gpu(catalog, name: str, picks: list | None = None):
    """The card a desktop build means; an ambiguous name that also fits an SXM module is
    recorded in ``picks`` (query, match) so the output can say which card was taken."""
    from services.hardware.catalog import find_gpu_for_build, suggest_gpus

    match = find_gpu_for_build(name, catalog.gpus)
    if match is None:
        close = suggest_gpus(name, catalog.gpus)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise UsageError(f"unknown GPU '{name}'{hint}")
    if match.passed_over is not None and picks is not None:
        picks.append((name, match))
    return match.gpu


def _resolve_cpu(catalog, name: str):
    from services.hardware.catalog import suggest_cpus

    cpu = catalog.find_cpu(name)
    if cpu is None:
        close = suggest_cpus(name, catalog.cpus)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise UsageError(f"unknown CPU '{name}'{hint}")
    return cpu


def _prices(catalog, items: list[str]) -> dict[str, float]:
    prices: dict[str, float] = {}
    for item in items:
        name, sep, value = item.rpartition("=")
        if not sep or not name.strip():
            raise UsageError(f"--price wants CARD=USD, got '{item}'")
        try:
            usd = float(value)
        except ValueError:
            raise UsageError(f"--price: '{value}' is not a number") from None
        if not math.isfinite(usd) or usd <= 0:
            raise UsageError("--price must be a positive number")
        prices[_resolve_gpu(catalog, name.strip()).key] = usd
    return prices


def run(args: argparse.Namespace) -> int:
    from services.hardware import detect
    from services.hardware.catalog import CatalogError, load_catalog
    from services.hardware.compare import (
        Task, cheapest_fitting, compare_specs, estimate_from_params, estimate_with_modelfit, rank_cards,
    )
    from services.hardware.psu import Build, BuildError, PsuStandard, Usage, buy_vs_rent, calculate
    from services.hardware.report import (
        cloud_source_text, gpu_pick_text, render_buy_vs_rent, render_ranking, render_result, render_specs,
    )
    from services.i18n import Catalog as Translations, resolve_language
    from services.paths import AppPaths
    from services.settings import SettingsStore

    try:
        catalog = load_catalog()
    except CatalogError as exc:
        return fail(str(exc), EXIT_FAILED)
    store = SettingsStore(AppPaths.default().settings_file)
    settings = store.load()
    render = Translations.load(resolve_language(settings.general.language)).render
    currency = settings.power_cost.currency

    picks: list = []
    gpus = [_resolve_gpu(catalog, name, picks) for name in args.gpu]
    cpu = _resolve_cpu(catalog, args.cpu) if args.cpu else None
    if args.detect:
        if not gpus:
            gpus = detect.detected_gpus_nvml(catalog.gpus)
            if not gpus:
                return fail("no NVIDIA GPU detected (no driver, or a card the catalogue does not know); "
                            "name the cards with --gpu", EXIT_NO_GPU)
        if cpu is None:
            cpu = detect.detected_cpu(catalog.cpus)
    prices = _prices(catalog, args.price)
    out: dict = {}
    text: list[str] = []
    if picks:
        out["gpu_name_matches"] = [{"query": q, "gpu": m.gpu.name, "also_matches": m.passed_over.name,
                                    "reason": "add_in_card_preferred"} for q, m in picks]
        text.append("\n".join(render(gpu_pick_text(q, m)) for q, m in picks))

    if args.compare:
        if not 1 <= len(gpus) <= 3:  # more would be dropped silently from the table
            raise UsageError(f"--compare needs one to three --gpu, got {len(gpus)}")
        rows = compare_specs(gpus)
        shown = [g.name for g in gpus[:3]]
        out["compare"] = {"gpus": shown, "rows": [{"key": r.key, "values": [str(v) for v in r.values], "best": r.best} for r in rows]}
        text.append(render_specs(shown, rows, render))
    if args.recommend or args.budget is not None or args.params_b is not None or args.model:
        workload, how = None, None
        if args.model or args.params_b:
            try:
                workload = estimate_with_modelfit(args.model, args.params_b, args.dtype, Task(args.task), int(args.seq))
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            how = "modelfit" if workload else None
            if workload is None:
                if args.model:
                    raise UsageError("--model needs the model-fit tool, which is not part of this build; give --params-b instead")
                workload, how = estimate_from_params(args.params_b, args.dtype, Task(args.task)), "params"
        ranked = rank_cards(catalog.gpus, workload, args.budget, prices)
        out["recommend"] = {
            "vram_needed_gib": round(workload.vram_needed_gib, 2) if workload else None,
            "estimate": how,
            "budget_usd": args.budget,
            "cards": [{"gpu": r.gpu.name, "key": r.gpu.key, "price_usd": r.price_usd, "price_is_launch_msrp": r.price_is_default,
                       "fits": r.fits, "vram_gb": r.gpu.vram_gb, "bf16_dense_tflops": r.gpu.tensor_bf16_dense_tflops,
                       "bandwidth_gbs": r.gpu.bandwidth_gbs, "tflops_per_kusd": round(r.tflops_per_kusd, 2),
                       "gbs_per_kusd": round(r.gbs_per_kusd, 1), "score": round(r.score, 2)} for r in ranked[:20]],
        }
        cheapest = cheapest_fitting(catalog.gpus, workload, prices) if workload else None
        out["recommend"]["cheapest_fitting"] = cheapest.gpu.name if cheapest else None
        text.append(render_ranking(ranked, workload, args.budget, render, cheapest=cheapest))

    # --compare / --recommend alone answer only that; a CPU or a PSU to check asks for the build too
    wants_build = not (args.compare or "recommend" in out) or cpu is not None or args.psu_w is not None
    if wants_build:
        if not gpus and cpu is None:
            raise UsageError("give at least one --gpu or --cpu (or --detect)")
        price_kwh = args.price_kwh if args.price_kwh is not None else settings.power_cost.price_per_kwh
        build = Build(gpus=tuple(gpus), cpu=cpu, cpu_w_override=args.cpu_w, ram_sticks=args.ram_sticks, nvme=args.nvme,
                      sata_ssd=args.sata, hdd=args.hdd, fans=args.fans, aio_pumps=args.pumps, argb_channels=args.argb,
                      usb_devices=args.usb, usage=Usage(args.usage), psu_standard=PsuStandard(args.psu_standard),
                      efficiency=args.efficiency, psu_w=args.psu_w, psu_native_12v2x6=args.psu_12v2x6,
                      psu_pcie_8pin=args.psu_8pin, price_per_kwh=price_kwh, gaming_hours_per_day=args.hours_per_day)
        try:
            result = calculate(build, catalog)
        except BuildError as exc:
            raise UsageError(str(exc)) from None
        out.update(result.to_json())
        text.append(render_result(result, render, currency))
        if gpus:
            first = gpus[0]
            card_price = args.card_price if args.card_price is not None else prices.get(first.key, first.launch_price_usd)
            cloud = catalog.cloud_prices.get(first.key)
            rate = args.cloud_rate if args.cloud_rate is not None else (cloud.usd_per_hour if cloud else None)
            if card_price and rate is not None:
                try:
                    bvr = buy_vs_rent(card_price * len(gpus), args.resale, rate * len(gpus), result.cost.wall_w, price_kwh)
                except BuildError as exc:
                    raise UsageError(str(exc)) from None
                src = None if args.cloud_rate is not None else cloud_source_text(cloud)
                out["buy_vs_rent"] = {"purchase_usd": bvr.purchase_usd, "resale_usd": bvr.resale_usd,
                                      "cloud_usd_per_hour": bvr.cloud_usd_per_hour, "cloud_price_read": None if args.cloud_rate is not None else cloud.read,
                                      "energy_usd_per_hour": round(bvr.energy_usd_per_hour, 4),
                                      "break_even_hours": None if bvr.break_even_hours is None else round(bvr.break_even_hours, 1)}
                text.append(render_buy_vs_rent(bvr, src, render))
    try:
        if args.json:
            json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            print("\n\n".join(text))
        sys.stdout.flush()
    except BrokenPipeError:  # "| head" closed the pipe: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK

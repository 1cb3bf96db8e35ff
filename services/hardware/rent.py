"""Buy vs rent (Qt-free): the hours of use after which owning a card is cheaper than renting it, for each card
of a build."""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from services.hardware.build import BuildError
from services.hardware.catalog import Gpu
from services.hardware.psu_result import Result
from services.i18n import Msg, translate


@dataclass(frozen=True, slots=True)
class BuyVsRent:
    purchase_usd: float  # amounts are in the caller's currency (the name is kept for the JSON)
    resale_usd: float
    cloud_usd_per_hour: float
    energy_usd_per_hour: float
    break_even_hours: float | None  # None: renting is always cheaper (cloud rate <= own energy cost)
    message: Msg


def buy_vs_rent(purchase_usd: float, resale_usd: float, cloud_usd_per_hour: float, wall_w: float,
                price_per_kwh: float, symbol: str = "$") -> BuyVsRent:
    """Hours of use after which owning is cheaper than renting (research sec.5).

    ``break_even = (purchase - resale) / (cloud rate - own energy cost per hour)``; every
    amount in one currency, ``symbol`` for the message.
    """
    if purchase_usd < 0 or resale_usd < 0 or cloud_usd_per_hour < 0 or wall_w < 0 or price_per_kwh < 0:
        raise BuildError("prices and power must not be negative")
    energy = wall_w / 1000.0 * price_per_kwh
    margin = cloud_usd_per_hour - energy
    net = max(0.0, purchase_usd - resale_usd)
    if margin <= 0:
        return BuyVsRent(purchase_usd, resale_usd, cloud_usd_per_hour, energy, None, translate("Psu", "Renting at {rate}/h costs less than the electricity this card's share of the PC uses ({energy}/h): buying never pays off.").format(
                rate=f"{symbol}{cloud_usd_per_hour:.2f}", energy=f"{symbol}{energy:.3f}"))
    hours = net / margin
    return BuyVsRent(purchase_usd, resale_usd, cloud_usd_per_hour, energy, hours, translate("Psu", "Owning pays off after {hours} hours of use ({days} days at 24/7), against renting at {rate}/h.").format(
            hours=f"{hours:,.0f}", days=f"{hours / 24.0:,.0f}", rate=f"{symbol}{cloud_usd_per_hour:.2f}"))


@dataclass(frozen=True, slots=True)
class CardRent:
    """One card of the build against renting that card."""

    gpu: Gpu
    power_share_w: float  # wall power charged to this card: its TGP plus an equal share of the rest
    purchase: float | None
    cloud_per_hour: float | None
    outcome: BuyVsRent | None  # None: a price is missing (message says which)
    message: Msg


def card_power_share(result: Result, index: int) -> float:
    """Wall watts of card ``index``: its board power plus an equal share of the rest of
    the PC (which only runs because of the cards), scaled by the PSU efficiency."""
    gpus = result.build.gpus
    if not gpus or result.sustained_w <= 0:
        return 0.0
    rest = result.sustained_w - result.gpu_w
    dc = float(gpus[index].tgp_w or 0.0) + rest / len(gpus)
    return result.cost.wall_w * dc / result.sustained_w


def buy_vs_rent_per_card(result: Result, purchases: Sequence[float | None], cloud_rates: Sequence[float | None],
                         resale: float = 0.0, symbol: str = "$") -> list[CardRent]:
    """Each card against renting that same card: its price, its share of the power."""
    rows: list[CardRent] = []
    for i, gpu in enumerate(result.build.gpus):
        share = card_power_share(result, i)
        price = purchases[i] if i < len(purchases) else None
        rate = cloud_rates[i] if i < len(cloud_rates) else None
        if not price:
            rows.append(CardRent(gpu, share, price, rate, None, translate("Psu", "{gpu}: no price on file: enter one.").format(gpu=gpu.name)))
            continue
        if rate is None or rate <= 0:
            rows.append(CardRent(gpu, share, price, rate, None, translate("Psu", "{gpu}: no cloud price on file for this card: enter one.").format(gpu=gpu.name)))
            continue
        outcome = buy_vs_rent(price, min(resale, price), rate, share, result.build.price_per_kwh, symbol)
        rows.append(CardRent(gpu, share, price, rate, outcome, translate("Psu", "{gpu}: {verdict}").format(gpu=gpu.name, verdict=outcome.message)))
    return rows

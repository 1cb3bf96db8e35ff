"""Money in the user's terms (Qt-free): currency, dated exchange rate, default prices.

Every default amount comes from ``resources/data/cloud_prices.json`` with where and
when it was read; a default the data does not have for a currency is converted from
USD at the dated rate and marked as converted, never made up. Callers let the user
override every amount (CLI flags, page fields).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from services.hardware.catalog import Catalog, Gpu
from services.i18n import Msg, translate

CURRENCIES = ("USD", "CNY")
AUTO = "auto"
LEGACY_DEFAULT_USD_PER_KWH = 0.30  # what older versions stored without the user choosing it


class CurrencyError(ValueError):
    """A currency the data has no exchange rate for."""


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    symbol: str
    per_usd: float  # units of this currency for one US dollar
    date: str  # when the rate was set ('' for USD)
    source: str

    def from_usd(self, usd: float) -> float:
        return usd * self.per_usd

    def to_usd(self, amount: float) -> float:
        return amount / self.per_usd

    def fmt(self, amount: float, digits: int = 0) -> str:
        return f"{self.symbol}{amount:,.{digits}f}"

    def rate_text(self) -> Msg | None:
        """'1 USD = 7.1057 CNY (2025-09-23, source)': None for USD."""
        if self.code == "USD":
            return None
        return translate("Money", "1 USD = {rate} {code} (rate of {date}; {source})").format(
            rate=f"{self.per_usd:g}", code=self.code, date=self.date, source=self.source)


def resolve_currency_code(setting: str, language: str) -> str:
    """The currency to show: the setting, or for 'auto' CNY for Chinese and USD otherwise."""
    code = (setting or AUTO).strip().upper()
    if code == AUTO.upper():
        return "CNY" if language.lower().startswith("zh") else "USD"
    if code not in CURRENCIES:
        raise CurrencyError(f"currency must be one of {', '.join(CURRENCIES)} or auto, got '{setting}'")
    return code


def currency_setting(saved: str, price_currency: str) -> str:
    """The saved currency choice. Older versions stored "USD" without any way to choose it
    (and never set ``price_currency``): that is read as "auto", so a Chinese user gets CNY."""
    if saved == "USD" and not price_currency:
        return AUTO
    return saved or AUTO


def currency(catalog: Catalog, code: str) -> Currency:
    table: dict[str, Any] = catalog.money.get("currencies", {})
    entry = table.get(code)
    if not entry:
        raise CurrencyError(f"no exchange rate for {code} in the data")
    return Currency(code, str(entry.get("symbol", code + " ")), float(entry["per_usd"]), str(entry.get("date", "")),
                    str(entry.get("source", "")))


def what_text(what: str) -> "Msg | str":
    """The data file's description of a figure, translated where it is one we know."""
    known = {
        "US launch price": translate("Money", "US launch price"),
        "China suggested retail price at launch": translate("Money", "China suggested retail price at launch"),
        "US residential average, July 2026": translate("Money", "US residential average, July 2026"),
        "China household average, March 2024": translate("Money", "China household average, March 2024"),
        "China suggested retail price at launch (VAT included)": translate("Money", "China suggested retail price at launch (VAT included)"),
        "Beijing household tiered tariff (no time-of-use), per month": translate("Money", "Beijing household tiered tariff (no time-of-use), per month"),
    }
    return known.get(what, what)


@dataclass(frozen=True, slots=True)
class DatedAmount:
    """A default price with its origin, in the display currency."""

    amount: float
    read: str  # the date the figure was read or set
    source: str
    converted: bool  # True: a USD figure converted at the dated exchange rate
    what: str = ""
    snapshot: str = ""  # when the figure itself was taken, where that differs from the read date

    def note(self, cur: Currency) -> Msg:
        if self.converted:
            return translate("Money", "{what} ({read}); converted from USD at {rate} ({date})").format(
                what=what_text(self.what), read=self.read, rate=f"{cur.per_usd:g}", date=cur.date)
        return translate("Money", "{what} ({read})").format(what=what_text(self.what), read=self.read)


def default_electricity(catalog: Catalog, cur: Currency) -> DatedAmount:
    """Price per kWh: the sourced figure for the currency, else the US average converted."""
    us = catalog.electricity_default
    local = catalog.money.get("electricity_by_currency", {}).get(cur.code, {})
    if local.get("per_kwh"):
        return DatedAmount(float(local["per_kwh"]), str(local.get("read", "")), str(local.get("source", "")), False,
                           str(local.get("what", "")))
    usd = float(us.get("usd_per_kwh", 0.0))
    return DatedAmount(cur.from_usd(usd), str(us.get("read", "")), str(us.get("source", "")), cur.code != "USD",
                       str(us.get("what", "")))


@dataclass(frozen=True, slots=True)
class TieredPrice:
    """What a PC's own electricity costs under a tiered household tariff: its kWh come on top of the
    household's, so they are priced from ``base_kwh`` up through the tiers."""

    per_kwh: float  # the average over the PC's kWh
    kwh_per_month: float
    tiers_used: tuple[tuple[float, float], ...]  # (kWh, price) in each tier the PC reaches
    base_kwh: float
    what: str
    date: str
    source: str

    def note(self, cur: Currency) -> Msg:
        parts = ", ".join(f"{kwh:.0f} kWh × {cur.symbol}{price:.4g}" for kwh, price in self.tiers_used)
        return translate("Money", "Tiered tariff ({what}, from {date}): this PC's {kwh} kWh a month come on top of a household's first {base} kWh, so they cost {parts}: {avg}/kWh on average. Enter your own tariff if it differs.").format(
            what=what_text(self.what), date=self.date, kwh=f"{self.kwh_per_month:.0f}", base=f"{self.base_kwh:.0f}",
            parts=parts, avg=f"{cur.symbol}{self.per_kwh:.4f}")


def tiered_price(catalog: Catalog, cur: Currency, kwh_per_month: float) -> TieredPrice | None:
    """The average price of a PC's ``kwh_per_month`` under the currency's sourced tiered household tariff
    (None where the data has none, or for no use)."""
    tiers = catalog.money.get("electricity_by_currency", {}).get(cur.code, {}).get("tiers")
    if not tiers or not (kwh_per_month > 0 and math.isfinite(kwh_per_month)):
        return None
    limits = [float(x) for x in tiers["monthly_kwh_limits"]]
    prices = [float(x) for x in tiers["per_kwh"]]
    base = float(tiers.get("household_base_kwh", 0.0))
    bounds = [0.0, *limits, math.inf]
    start, end = base, base + kwh_per_month
    used = []
    for (low, high), price in zip(zip(bounds[:-1], bounds[1:], strict=True), prices, strict=True):
        kwh = max(0.0, min(end, high) - max(start, low))
        if kwh > 0:
            used.append((kwh, price))
    total = sum(k * p for k, p in used)
    return TieredPrice(total / kwh_per_month, kwh_per_month, tuple(used), base, str(tiers.get("what", "")),
                       str(tiers.get("date", "")), str(tiers.get("source", "")))


def cloud_rate_note(amount: DatedAmount) -> Msg:
    """Where a local cloud price comes from (the provider keeps its own name)."""
    return translate("Money", "{provider}, lowest price listed on a public price index (snapshot about {snapshot}), read {read}").format(
        provider=amount.what, read=amount.read, snapshot=amount.snapshot or "?")


def electricity_note(catalog: Catalog, cur: Currency, amount: DatedAmount, with_source: bool = True) -> Msg:
    """Where the default tariff comes from; ``with_source=False`` leaves the source out (a tooltip holds it)."""
    if cur.code != "USD" and amount.converted:
        return translate("Money", "No sourced household electricity price for {code} on file: this is the US average converted at the dated rate; enter your own tariff.").format(code=cur.code)
    if not with_source:
        return translate("Money", "Default: {what}, read {read}; enter your own tariff.").format(
            what=what_text(amount.what), read=amount.read)
    return translate("Money", "Default: {what}, read {read} ({source}); enter your own tariff.").format(
        what=what_text(amount.what), read=amount.read, source=amount.source)


def default_card_price(catalog: Catalog, gpu: Gpu, cur: Currency) -> DatedAmount | None:
    """A dated local price where one is on file, else the US launch price converted; None without either."""
    for row in catalog.money.get("card_prices_local", []):
        if row.get("gpu") == gpu.key and row.get("currency") == cur.code:
            return DatedAmount(float(row["amount"]), str(row.get("date", "")), str(row.get("source", "")), False,
                               str(row.get("what", "")))
    if not gpu.launch_price_usd:
        return None
    return DatedAmount(cur.from_usd(float(gpu.launch_price_usd)), str(gpu.launch_year or ""),
                       gpu.sources.get("launch_price_usd", ""), cur.code != "USD", "US launch price")


def default_cloud_rate(catalog: Catalog, gpu: Gpu, cur: Currency) -> DatedAmount | None:
    """A dated price in the currency where one is on file (Chinese platforms for CNY), else the
    USD snapshot converted; ``what`` holds the provider."""
    for row in catalog.money.get("prices_local", []):
        if row.get("gpu") == gpu.key and row.get("currency") == cur.code:
            return DatedAmount(float(row["per_hour"]), str(row.get("read", "")), str(row.get("source", "")), False,
                               str(row.get("provider", "")), str(row.get("snapshot", "")))
    cloud = catalog.cloud_prices.get(gpu.key)
    if cloud is None:
        return None
    return DatedAmount(cur.from_usd(cloud.usd_per_hour), cloud.read, cloud.source, cur.code != "USD", cloud.provider)


def saved_electricity(catalog: Catalog, cur: Currency, saved_price: float, saved_currency: str) -> float | None:
    """The user's saved tariff in ``cur`` (converted when it was entered in another currency); None if unset."""
    if not saved_price or saved_price <= 0:
        return None
    if not saved_currency:
        # saved before prices carried their currency: those were USD, and 0.30 was the
        # old built-in (unsourced) default, not the user's own figure
        if abs(saved_price - LEGACY_DEFAULT_USD_PER_KWH) < 1e-9:
            return None
        saved_currency = "USD"
    code = saved_currency
    if code == cur.code:
        return saved_price
    try:
        return cur.from_usd(currency(catalog, code).to_usd(saved_price))
    except CurrencyError:
        return None

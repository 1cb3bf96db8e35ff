"""Money in the user's terms: currency choice, dated defaults, conversions, old settings files."""
from __future__ import annotations

import pytest

from services.hardware import money
from services.hardware.catalog import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_currency_follows_the_language_unless_chosen():
    assert money.resolve_currency_code("auto", "zh_CN") == "CNY"
    assert money.resolve_currency_code("auto", "en") == "USD"
    assert money.resolve_currency_code("usd", "zh_CN") == "USD"
    with pytest.raises(money.CurrencyError):
        money.resolve_currency_code("EUR", "en")
    # older settings stored "USD" with no way to choose it: read as auto
    assert money.currency_setting("USD", "") == "auto"
    assert money.currency_setting("USD", "USD") == "USD"


def test_rate_has_a_date_and_a_source(catalog):
    cny = money.currency(catalog, "CNY")
    assert cny.per_usd == 7.1057 and cny.date == "2025-09-23" and "China Foreign Exchange Trade System" in cny.source
    assert cny.from_usd(100) == pytest.approx(710.57) and cny.to_usd(710.57) == pytest.approx(100)
    assert "7.1057" in str(cny.rate_text()) and money.currency(catalog, "USD").rate_text() is None


def test_defaults_are_sourced_and_say_when_converted(catalog):
    usd, cny = money.currency(catalog, "USD"), money.currency(catalog, "CNY")
    assert money.default_electricity(catalog, usd).amount == 0.1831
    local = money.default_electricity(catalog, cny)
    assert local.amount == pytest.approx(0.078 * 7.1057, abs=1e-4) and not local.converted and local.read
    card = money.default_card_price(catalog, catalog.gpu("rtx-4090"), cny)
    assert card.amount == 12999 and not card.converted and card.read == "2022-10-12"
    converted = money.default_card_price(catalog, catalog.gpu("rtx-5080"), cny)
    assert converted.converted and converted.amount == pytest.approx(catalog.gpu("rtx-5080").launch_price_usd * 7.1057)
    assert money.default_card_price(catalog, catalog.gpu("rtx-a6000"), usd) is None  # no price: never made up
    rate = money.default_cloud_rate(catalog, catalog.gpu("rtx-4090"), cny)
    assert rate.amount == 1.24 and rate.what == "算家云" and rate.snapshot
    assert money.default_cloud_rate(catalog, catalog.gpu("rtx-4090"), usd).amount == 0.34


def test_the_5090_in_yuan_is_its_chinese_list_price_not_the_dollar_price_converted(catalog):
    cny = money.currency(catalog, "CNY")
    price = money.default_card_price(catalog, catalog.gpu("rtx-5090"), cny)
    assert price.amount == 16499 and not price.converted and price.read == "2025-01-30"


def test_saved_tariff_keeps_its_currency(catalog):
    usd, cny = money.currency(catalog, "USD"), money.currency(catalog, "CNY")
    assert money.saved_electricity(catalog, cny, 0.56, "CNY") == 0.56
    assert money.saved_electricity(catalog, usd, 0.56, "CNY") == pytest.approx(0.56 / 7.1057)
    assert money.saved_electricity(catalog, usd, 0.0, "") is None
    assert money.saved_electricity(catalog, usd, 0.30, "") is None  # the old built-in default, not the user's
    assert money.saved_electricity(catalog, cny, 0.25, "") == pytest.approx(0.25 * 7.1057)  # old files were USD


def test_a_tiered_tariff_prices_a_pcs_kwh_from_the_second_tier_up(catalog):
    cny, usd = money.currency(catalog, "CNY"), money.currency(catalog, "USD")
    # Beijing: the household's own first 240 kWh, then 160 kWh at 0.5383, the rest at 0.7883.
    small = money.tiered_price(catalog, cny, 100)
    assert small.tiers_used == ((100.0, 0.5383),) and small.per_kwh == pytest.approx(0.5383)
    rig = money.tiered_price(catalog, cny, 432)  # ~600 W from the wall, 24 hours a day
    assert rig.tiers_used == ((160.0, 0.5383), (272.0, 0.7883))
    assert rig.per_kwh == pytest.approx((160 * 0.5383 + 272 * 0.7883) / 432)
    assert rig.per_kwh > money.default_electricity(catalog, cny).amount  # a 24/7 rig lands in the top tier
    assert "2012-07-01" in str(rig.note(cny)) and "0.6957" in str(rig.note(cny))
    assert money.tiered_price(catalog, usd, 432) is None  # no tiers on file for the US average
    assert money.tiered_price(catalog, cny, 0) is None


def test_the_psu_command_uses_the_tiered_price_unless_the_user_gives_one(capsys):
    import json

    import main

    argv = ["psu", "--gpu", "4090", "--cpu", "13900K", "--usage", "training-24x7", "--currency", "CNY", "--json"]
    assert main.main(argv) == 0
    wall = json.loads(capsys.readouterr().out)["wall"]
    assert wall["price_per_kwh_origin"] == "default_tiered" and wall["tiered"]["base_kwh"] == 240
    assert wall["price_per_kwh"] > 0.7  # mostly third-tier kWh
    assert main.main([*argv, "--price-kwh", "0.5"]) == 0
    wall = json.loads(capsys.readouterr().out)["wall"]
    assert wall["price_per_kwh_origin"] == "argument" and "tiered" not in wall and wall["price_per_kwh"] == 0.5

"""Card ranking: fit first, dense tensor throughput and bandwidth per dollar, never sparse figures."""
from __future__ import annotations

import pytest

from services.hardware.catalog import load_catalog
from services.hardware.compare import Task, cheapest_fitting, compare_specs, estimate_from_params, rank_cards


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_param_rules():
    # 7B bf16 inference: 7e9 x 2 B x 1.2 = 16.8e9 B = 15.65 GiB
    assert estimate_from_params(7, "bf16").vram_needed_gib == pytest.approx(16.8e9 / 2**30)
    # LoRA 8B bf16, 2 % trainable: (16e9 + 8e9 x 0.02 x 2 x 4) x 1.2 = 20.736e9 B
    assert estimate_from_params(8, "bf16", Task.LORA).vram_needed_gib == pytest.approx(20.736e9 / 2**30)
    # full AdamW mixed precision: 1B x 16 B x 1.2 = 19.2e9 B
    assert estimate_from_params(1, "bf16", Task.FULL_TRAINING).vram_needed_gib == pytest.approx(19.2e9 / 2**30)
    for bad in ((0, "bf16"), (-3, "bf16"), (7, "fp2"), (float("nan"), "bf16")):
        with pytest.raises(ValueError):
            estimate_from_params(*bad)


def test_ranking_puts_fitting_cards_first_and_respects_budget(catalog):
    work = estimate_from_params(13, "bf16")  # ~29 GiB
    ranked = rank_cards(catalog.gpus, work)
    fits = [r.fits for r in ranked]
    assert fits == sorted(fits, reverse=True)  # every fitting card before every other
    assert ranked[0].gpu.vram_gb >= work.vram_needed_gib
    within = rank_cards(catalog.gpus, work, budget_usd=1000)
    assert within and all(r.price_usd <= 1000 for r in within if r.price_usd is not None)
    # within budget only cards without a price (which cannot be judged against it) hold the work
    assert all(r.needs_price for r in within if r.fits)
    assert cheapest_fitting(catalog.gpus, work).gpu.key == "rtx-5090"
    assert all(r.gpu.is_add_in_card for r in ranked)  # no laptop chips or SXM modules


def test_a_job_over_32_gib_lists_the_cards_that_hold_it_first(catalog):
    work = estimate_from_params(14, "bf16", Task.LORA)  # ~39 GiB, the 14B LoRA
    assert work.vram_needed_gib > 32
    ranked = rank_cards(catalog.gpus, work)
    holding = [r for r in ranked if r.fits]
    assert ranked[:len(holding)] == holding  # all of them first
    names = {r.gpu.key for r in holding}
    assert {"rtx-a6000", "rtx-6000-ada", "h100-pcie"} <= names
    assert all(r.needs_price for r in holding if r.gpu.launch_price_usd is None)  # listed, "enter a price"
    # a price the user enters ranks that card among the priced ones
    priced = rank_cards(catalog.gpus, work, prices={"rtx-a6000": 4000})
    assert priced[0].gpu.key == "rtx-a6000" and priced[0].score is not None


def test_value_uses_dense_fp32_accumulate_figures(catalog):
    ranked = {r.gpu.key: r for r in rank_cards(catalog.gpus, None)}
    r = ranked["rtx-4090"]
    assert r.tflops_per_kusd == pytest.approx(165.2 / 1.599)  # not 330 (FP16 accumulate) nor FP8/FP4
    assert r.gbs_per_kusd == pytest.approx(1008 / 1.599)


def test_users_price_replaces_the_launch_price(catalog):
    work = estimate_from_params(8, "bf16")
    ranked = {r.gpu.key: r for r in rank_cards(catalog.gpus, work, prices={"rtx-3090": 700})}
    assert ranked["rtx-3090"].price_usd == 700 and not ranked["rtx-3090"].price_is_default
    assert ranked["rtx-4090"].price_is_default
    # cheaper card, same silicon: a better score than at launch price
    launch = {r.gpu.key: r for r in rank_cards(catalog.gpus, work)}
    assert ranked["rtx-3090"].score > launch["rtx-3090"].score


def test_side_by_side_rows(catalog):
    rows = {r.key: r for r in compare_specs([catalog.gpu("rtx-4090"), catalog.gpu("rtx-5090"), catalog.gpu("rtx-a6000")])}
    assert [str(v) for v in rows["vram_gb"].values] == ["24 GB", "32 GB", "48 GB"]
    assert rows["vram_gb"].best == 2
    assert [str(v) for v in rows["nvlink"].values] == ["no", "no", "yes"]
    assert str(rows["connector"].values[2]) == "8-pin EPS (CPU type)"
    assert rows["tgp_w"].best is None  # lower is not "better" for power here
    assert len(compare_specs([catalog.gpu("rtx-4090")] * 5)[0].values) == 3  # at most three cards



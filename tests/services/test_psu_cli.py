"""``python main.py psu``: JSON fields, unknown names, comparison, and bad input that never raises."""
from __future__ import annotations

import json
import random


import main
from services.hardware import detect
from services.nvml_devices import NvmlDevice


def run(capsys, *argv):
    try:
        code = main.main(["psu", *argv])
    except SystemExit as exc:  # argparse rejects bad flags with exit 2 and a usage line
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_the_documented_fields(capsys):
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K", "--psu-w", "850", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("sustained_w", "recommended_psu_w", "peak_transient_w", "connectors", "warnings", "verdict"):
        assert key in data
    assert data["sustained_w"] == 788
    assert data["verdict"] == "tight"
    assert data["connectors"]["native_12v2x6"] == 1
    assert data["buy_vs_rent"][0]["cloud_price_read"] == "2026-09-07"
    assert all(set(w) == {"code", "severity", "message"} for w in data["warnings"])


def test_names_are_matched_the_way_people_type_them(capsys):
    for name in ("4090", "RTX 4090", "GeForce RTX 4090"):
        code, out, _ = run(capsys, "--gpu", name, "--cpu", "Ryzen 9 9950X", "--json")
        assert code == 0 and json.loads(out)["gpus"] == ["GeForce RTX 4090"]


def test_unknown_component_exits_2_with_closest_matches(capsys):
    code, _, err = run(capsys, "--gpu", "4095")
    assert code == 2 and "GeForce RTX 4090" in err and "Traceback" not in err
    code, _, err = run(capsys, "--gpu", "4090", "--cpu", "9951X")
    assert code == 2 and "9950X" in err


def test_text_output_in_chinese(capsys, app_paths):
    from services.settings import SettingsStore

    store = SettingsStore(app_paths.settings_file)
    store.load()
    store.settings.general.language = "zh_CN"
    store.save()
    code, out, _ = run(capsys, "--gpu", "4070", "--cpu", "7800X3D")
    assert code == 0
    assert "推荐电源" in out


def test_compare_and_recommend(capsys):
    code, out, _ = run(capsys, "--compare", "--gpu", "4090", "--gpu", "5090", "--gpu", "3090", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["compare"]["gpus"] == ["GeForce RTX 4090", "GeForce RTX 5090", "GeForce RTX 3090"]
    assert "recommended_psu_w" not in data  # a comparison alone is not a build
    code, out, _ = run(capsys, "--recommend", "--params-b", "13", "--budget", "2500", "--json")
    data = json.loads(out)["recommend"]
    assert data["cards"][0]["fits"] and data["cards"][0]["vram_gb"] >= data["vram_needed_gib"]
    assert all(c["price_usd"] <= 2500 for c in data["cards"] if c["price_usd"] is not None)
    code, out, _ = run(capsys, "--recommend", "--params-b", "8", "--price", "3090=700", "--json")
    cards = {c["key"]: c for c in json.loads(out)["recommend"]["cards"]}
    assert cards["rtx-3090"]["price_usd"] == 700 and not cards["rtx-3090"]["price_is_launch_msrp"]


def test_detect_without_a_driver_says_what_is_missing(capsys, monkeypatch):
    monkeypatch.setattr(detect, "nvml_devices", lambda nvml=None: [])
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: None)
    code, _, err = run(capsys, "--detect")
    assert code == 3 and "--gpu" in err  # exit 3: no GPU / no driver
    monkeypatch.setattr(detect, "nvml_devices", lambda nvml=None: [
        NvmlDevice(0, "NVIDIA GeForce RTX 4080 SUPER", pci_device_id=0x270210DE, memory_total_mib=16376)])
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: "AMD Ryzen 7 9800X3D 8-Core Processor")
    code, out, _ = run(capsys, "--detect", "--json")
    data = json.loads(out)
    assert code == 0 and data["gpus"] == ["GeForce RTX 4080 SUPER"] and data["cpu"] == "Ryzen 7 9800X3D"


FLAGS = ["--gpu", "--cpu", "--cpu-w", "--ram-sticks", "--nvme", "--hdd", "--fans", "--usage", "--psu-w", "--price-kwh",
         "--efficiency", "--psu-standard", "--psu-8pin", "--psu-12v2x6", "--budget", "--params-b", "--price", "--task",
         "--card-price", "--resale", "--cloud-rate", "--compare", "--recommend", "--json", "--hours-per-day", "--dtype"]
VALUES = ["4090", "-1", "0", "1e9", "nan", "inf", "abc", "", "13900K", "5090", "9950X", "x=y", "4090=-5", "4090=0",
          "gaming", "training-24x7", "titanium", "99999999", "3.5", "A6000", "H100", "4060 laptop", "2", "🙂", "--", "0x2684"]


def test_bad_input_never_raises_past_the_cli(capsys):
    rng = random.Random(4)
    for _ in range(400):
        argv: list[str] = []
        for _ in range(rng.randint(0, 6)):
            argv.append(rng.choice(FLAGS))
            if rng.random() < 0.85:
                argv.append(rng.choice(VALUES))
        code, _, err = run(capsys, *argv)
        assert code in (0, 2), (argv, err)
        assert "Traceback" not in err, argv


def test_unknown_names_always_list_three_choices(capsys):
    code, out, err = run(capsys, "--gpu", "RTX9999")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.count(",") >= 2 and "GeForce RTX 4090" in err
    code, _, err = run(capsys, "--recommend", "--model", "nosuch")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "meta-llama/Llama-3.1-8B" in err and err.count(",") >= 2


def test_ambiguous_name_takes_the_pcie_card_and_says_so(capsys):
    code, out, _ = run(capsys, "--gpu", "H100", "--cpu", "7950X")
    assert code == 0
    assert "Build: H100 PCIe 80GB" in out
    first = out.splitlines()[0]
    assert "H100 SXM5 80GB" in first and "H100 PCIe 80GB" in first
    code, out, _ = run(capsys, "--gpu", "H100", "--json")
    data = json.loads(out)
    assert data["gpus"] == ["H100 PCIe 80GB"]
    assert data["gpu_name_matches"] == [{"query": "H100", "gpu": "H100 PCIe 80GB", "also_matches": "H100 SXM5 80GB",
                                         "reason": "add_in_card_preferred"}]
    code, out, _ = run(capsys, "--gpu", "4090", "--json")
    assert "gpu_name_matches" not in json.loads(out)


def test_card_without_a_vendor_figure_is_named_in_text_and_json(capsys):
    code, out, _ = run(capsys, "--gpu", "3090 Ti", "--cpu", "7800X3D")
    assert code == 0 and "GeForce RTX 3090 Ti: no vendor figure in our sources; sized from the parts" in out
    code, out, _ = run(capsys, "--gpu", "3090 Ti", "--json")
    assert json.loads(out)["vendor_figure_missing"] == ["GeForce RTX 3090 Ti"]


def test_sizes_and_reason_for_the_typical_builds(capsys):
    for gpu, cpu, low, high in (("4090", "13900K", 850, 1000), ("4070", "7800X3D", 650, 750), ("5090", "9950X", 1000, 1200)):
        code, out, _ = run(capsys, "--gpu", gpu, "--cpu", cpu, "--json")
        data = json.loads(out)
        assert code == 0 and low <= data["recommended_psu_w"] <= high
        assert data["reason"].startswith(f"{data['recommended_psu_w']} W") and data["deciding"] in data["candidates"]
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K")
    assert "Why: 1000 W, set by Sustained load at most 80% of the rating" in out


def test_english_is_usd_with_the_sourced_electricity_price(capsys):
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K", "--json")
    data = json.loads(out)
    assert data["currency"]["code"] == "USD"
    assert data["wall"]["price_per_kwh"] == 0.1831 and data["wall"]["price_per_kwh_origin"] == "default"
    # 4090 against renting a 4090 at $0.34/h with the US average: about 9,000 h (was 21,446 h at the old $0.30)
    assert 8500 < data["buy_vs_rent"][0]["break_even_hours"] < 9500


def test_chinese_shows_cny_with_rate_and_dates_and_takes_edits(capsys, app_paths):
    from services.settings import SettingsStore

    store = SettingsStore(app_paths.settings_file)
    store.load()
    store.settings.general.language = "zh_CN"
    store.save()
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K", "--json")
    data = json.loads(out)
    assert data["currency"]["code"] == "CNY" and data["currency"]["per_usd"] == 7.1057 and data["currency"]["rate_date"]
    assert data["buy_vs_rent"][0]["purchase"] == 12999  # the dated China launch price, not a conversion
    # Beijing's tiered tariff: 4 h a day of this PC is about 100 kWh a month, all in the second tier
    assert data["wall"]["price_per_kwh"] == 0.5383 and data["wall"]["price_per_kwh_origin"] == "default_tiered"
    assert data["buy_vs_rent"][0]["cloud_per_hour"] == 1.24  # a Chinese platform's listed price, not a conversion
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K")
    assert "¥12,999" in out and "7.1057" in out and "2025-09-23" in out
    # every amount is editable
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K", "--price", "4090=15000", "--cloud-rate", "4090=1.98",
                       "--price-kwh", "0.56", "--json")
    row = json.loads(out)["buy_vs_rent"][0]
    assert row["purchase"] == 15000 and row["cloud_per_hour"] == 1.98 and json.loads(out)["wall"]["price_per_kwh"] == 0.56
    code, out, _ = run(capsys, "--gpu", "4090", "--cpu", "13900K", "--currency", "USD", "--json")
    assert json.loads(out)["currency"]["code"] == "USD"


def test_recommend_over_32_gib_lists_the_cards_that_hold_it_first(capsys):
    code, out, _ = run(capsys, "--recommend", "--params-b", "14", "--task", "lora", "--json")
    data = json.loads(out)["recommend"]
    assert data["vram_needed_gib"] > 32
    fits = [c["fits"] for c in data["cards"]]
    assert fits == sorted(fits, reverse=True)
    names = set(data["cards_that_fit"])
    assert {"RTX A6000", "RTX 6000 Ada Generation", "H100 PCIe 80GB"} <= names
    assert any(c["needs_price"] for c in data["cards"] if c["fits"])
    code, out, _ = run(capsys, "--recommend", "--params-b", "14", "--task", "lora")
    assert "enter a price" in out and "No single card" not in out


def test_chinese_tables_line_up_in_terminal_columns(capsys):
    from services.textwidth import display_width

    code = main.main(["--lang", "zh_CN", "psu", "--gpu", "4090", "--cpu", "7950X"])
    out = capsys.readouterr().out
    assert code == 0
    # The wattage lines: every "W" ends in the same terminal column although labels mix CJK and ASCII.
    watt_lines = [line for line in out.splitlines()[1:] if line.startswith("  ") and line.endswith(" W")][:7]
    assert len(watt_lines) == 7 and any(display_width(line) != len(line) for line in watt_lines)
    assert len({display_width(line) for line in watt_lines}) == 1
    code = main.main(["--lang", "zh_CN", "psu", "--gpu", "4090", "--gpu", "3090", "--compare"])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if "GeForce RTX 3090" in line)
    start = display_width(header[:header.index("GeForce RTX 3090")])
    # The second card's cell starts in the header's column on rows whose labels are Chinese.
    for label, value in (("架构", "Ampere"), ("带宽", "936 GB/s"), ("整卡功耗", "350 W")):
        row = next(line for line in lines if line.startswith(label))
        assert display_width(row[:row.rindex(value)]) == start, row


def test_display_width_counts_wide_characters_twice():
    from services.textwidth import display_width, pad

    assert display_width("显卡 RTX") == 8 and display_width("（16-pin）") == 10
    assert display_width("e\u0301") == 1  # a combining accent takes no column
    assert pad("内存", 6) == "内存  " and pad("too long", 3) == "too long"

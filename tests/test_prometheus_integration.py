"""The real engine: Prometheus (the distribution's package) scrapes our
exporter running on the simulated source; we read the values back through
Prometheus' HTTP API and in the multi-host view.

Skipped, with the reason printed, where the prometheus binary is missing
(``.ci/run`` installs it)."""
from __future__ import annotations

import shutil
import time

import pytest

from services.exporter.metrics import TelemetryCollector
from services.exporter.remote import HostKind, HostState, query_range, read_prometheus
from services.exporter.server import ExporterServer
from tests.exporter_helpers import PrometheusServer, SimulatedFeed, wait_for

pytestmark = pytest.mark.skipif(shutil.which("prometheus") is None,
                                reason="prometheus is not installed (apt-get install prometheus)")


@pytest.fixture
def stack(tmp_path):
    feed = SimulatedFeed(gpus=2)
    exporter = ExporterServer(TelemetryCollector(lambda: feed.latest, hostname="sim-box"), "127.0.0.1", 0)
    exporter.start()
    prometheus = PrometheusServer(tmp_path, f"127.0.0.1:{exporter.bound_port}")
    try:
        prometheus.start()
        yield feed, exporter, prometheus
    finally:
        prometheus.stop()
        exporter.stop()


def test_prometheus_scrapes_our_exporter(stack):
    feed, exporter, prometheus = stack
    reading = wait_for(lambda: (r := read_prometheus(prometheus.url)).state == HostState.OK and r)
    assert reading.kind == HostKind.PROMETHEUS
    by_uuid = {g.info.uuid: g for g in reading.gpus}
    assert len(by_uuid) == 2
    for sample in feed.latest.samples:
        got = by_uuid[sample.uuid].sample
        assert got.temperature_c == pytest.approx(sample.temperature_c)
        assert got.power_w == pytest.approx(sample.power_w)
        assert got.memory_used_mib == pytest.approx(sample.memory_used_mib)
        assert by_uuid[sample.uuid].host == "sim-box"
    # range queries give history once a few scrapes are in
    uuid = feed.latest.samples[0].uuid
    series = wait_for(lambda: (s := query_range(prometheus.url, "DCGM_FI_DEV_GPU_TEMP", uuid,
                                                 reading.t - 60, reading.t + 60, 1)).get(uuid) and s[uuid].t and s)
    assert list(series) == [uuid] and all(v > 0 for v in series[uuid].y)
    # a Prometheus host's history is rebuilt from range queries on its first poll
    from services.exporter.remote import RemoteHost, Series

    host = RemoteHost(prometheus.url, HostKind.PROMETHEUS, keep_s=120, poll_s=1)
    # (a range query evaluated into the future repeats the last sample, so ask up to now only)
    wait_for(lambda: len(query_range(prometheus.url, "DCGM_FI_DEV_GPU_UTIL", None, time.time() - 120,
                                     time.time(), 1).get(uuid, Series((), ())).t) >= 3)
    assert host.poll().state == HostState.OK
    assert len(host.series(uuid, "temperature_c").t) >= 3
    assert set(host.slots) == {s.uuid for s in feed.latest.samples}


def test_multi_host_view_shows_prometheus_values(stack, qtbot):
    from gui.hosts.page import HostsPage
    from services.paths import AppPaths
    from services.settings import SettingsStore

    feed, exporter, prometheus = stack
    wait_for(lambda: read_prometheus(prometheus.url).state == HostState.OK)
    paths = AppPaths.default()
    store = SettingsStore(paths.settings_file)
    store.load()
    page = HostsPage(store)
    qtbot.addWidget(page)
    page.show()
    page.url_edit.setText(prometheus.url.replace("http://", ""))
    page.kind_combo.setCurrentIndex(page.kind_combo.findData("prometheus"))
    page.add_button.click()
    qtbot.waitUntil(lambda: len(page._cards) == 2, timeout=15000)
    texts = " ".join(card.title.text() for card in page._cards.values())
    for info in feed.latest.gpus:
        assert info.name in texts
    first = feed.latest.samples[0]
    card = page._cards[(prometheus.url, first.uuid)]
    assert f"{first.temperature_c:.0f} °C" in card.values.text()
    page.shutdown()

"""``nocontact health`` and the metrics: what an operator sees, and nothing of a person.

The metrics text is scanned for everything a person could be found by: what they typed,
their Telegram id and chat id, and the bot's internal id for them.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.cli.main import main
from bot.config import Settings
from bot.health import STALE_SECONDS, heartbeat_file, write_heartbeat
from bot.schedule.scheduler import SweepReport
from bot.store.lease import Lease
from tests.conftest import PgCluster
from tests.test_app import USER, Env, close_env, make_env

CANARY = "Canary-Blue-Giraffe-7731"


def _value(name: str, **labels: str) -> float:
    """The current value of one sample (0 when it has not been seen yet)."""
    for family in text_string_to_metric_families(metrics.text()):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    e = await make_env(Settings(telegram_bot_token="123:TEST", data_dir=tmp_path / "data"))
    yield e
    await close_env(e)


async def test_metrics_count_and_time_updates_and_hold_nothing_of_the_person(env: Env) -> None:
    handled = _value("nocontact_updates_handled_total", kind="message", outcome="ok")
    pressed = _value("nocontact_updates_handled_total", kind="button", outcome="ok")
    timed = _value("nocontact_step_seconds_count", kind="message")

    await env.send("/urge")
    await env.press("explain")
    await env.press("Write it here")
    await env.send(f"I never got to say this {CANARY} and now I will")
    await env.press("Done")

    assert _value("nocontact_updates_handled_total", kind="message", outcome="ok") == handled + 2
    assert _value("nocontact_updates_handled_total", kind="button", outcome="ok") == pressed + 3
    assert _value("nocontact_step_seconds_count", kind="message") == timed + 2

    user_id = await env.store.find_user(USER)
    assert user_id is not None
    text = metrics.text()
    # every line but its number (a timing may hold the id's digits by chance: 0.34242...)
    words = "\n".join(
        line if line.startswith("#") else line.rsplit(" ", 1)[0] for line in text.splitlines()
    )
    for secret in (CANARY, "never got to say", str(USER), user_id):
        assert secret not in words, f"{secret!r} is in the metrics"
    values = [s.value for f in text_string_to_metric_families(text) for s in f.samples]
    assert USER not in values
    # labels are fixed words only
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            for key, value in sample.labels.items():
                if key == "le":
                    continue
                assert value in {"message", "button", "ok", "error", "sent", "failed", "skipped"}


async def test_check_ins_are_counted_by_outcome(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    scheduler = env.app.bot_data["scheduler"]
    sent = _value("nocontact_checkins_total", outcome="sent")
    skipped = _value("nocontact_checkins_total", outcome="skipped")

    async def sweep() -> SweepReport:
        return SweepReport(sent=3, skipped_late=1, blocked=1, failed=0)

    monkeypatch.setattr(scheduler, "sweep", sweep)
    await scheduler._sweep_logged()
    assert _value("nocontact_checkins_total", outcome="sent") == sent + 3
    assert _value("nocontact_checkins_total", outcome="skipped") == skipped + 2


def test_the_metrics_endpoint_serves_the_text_and_the_lease_holder() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    metrics.watch(lambda: 4, lambda: True)
    server, thread = metrics.serve("127.0.0.1", port)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            body = response.read().decode()
    finally:
        server.shutdown()
        thread.join(5)
    assert "nocontact_updates_handled_total" in body
    assert "nocontact_update_queue_depth 4.0" in body
    assert "nocontact_lease_held 1.0" in body


async def test_health_says_unhealthy_when_no_process_is_active(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(tmp_path / "data"))
    assert await _health() == 1
    assert "no nocontact process is active" in capsys.readouterr().out


async def test_health_follows_the_heartbeat_of_the_lease_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(tmp_path / "data"))
    settings = Settings(data_dir=tmp_path / "data")
    lease = Lease(settings.database_url)
    assert await lease.try_acquire()
    try:
        assert await _health() == 1  # active, but no heartbeat yet
        assert "no heartbeat" in capsys.readouterr().out
        write_heartbeat(heartbeat_file(settings))
        assert await _health() == 0
        assert capsys.readouterr().out.startswith("healthy")
        write_heartbeat(heartbeat_file(settings), now=time.time() - STALE_SECONDS - 5)
        assert await _health() == 1  # stuck or gone
        assert "old" in capsys.readouterr().out
        beat = json.loads(heartbeat_file(settings).read_text())
        assert set(beat) == {"at", "pid"}  # nothing about anyone
    finally:
        await lease.release()


async def test_a_standby_in_a_container_of_its_own_is_healthy_while_it_waits(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    pg: PgCluster,
) -> None:
    from bot.app import _wait_for_lease
    from bot.health import standby_file

    # PostgreSQL's lease, a data volume of its own: the active process's heartbeat is
    # not in this container's data directory
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NOCONTACT_DATA_DIR", str(tmp_path / "standby"))
    pg_url = pg.url(pg.create("standby"))
    monkeypatch.setenv("DATABASE_URL", pg_url)
    settings = Settings(data_dir=tmp_path / "standby", database_url=pg_url)
    active = Lease(pg_url)
    assert await active.try_acquire()
    standby = Lease(pg_url)
    waiting = asyncio.create_task(_wait_for_lease(standby, standby_file(settings)))
    try:
        for _ in range(100):
            if standby_file(settings).exists():
                break
            await asyncio.sleep(0.05)
        assert await _health() == 0
        assert "standing by" in capsys.readouterr().out
        await active.release()  # the active process is gone: the standby takes over
        assert await asyncio.wait_for(waiting, 30)
        assert not standby_file(settings).exists()
        assert await _health() == 1  # now active, and no active heartbeat written yet
        assert "no heartbeat" in capsys.readouterr().out
    finally:
        waiting.cancel()
        await standby.release()
        await active.release()


async def _health() -> int:
    """``nocontact health`` in a thread (it runs its own event loop)."""
    return await asyncio.to_thread(main, ["health"])

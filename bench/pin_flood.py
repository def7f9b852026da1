"""Benchmark: another user's reply latency while one user floods PINs (and while a big
evidence PDF is built).

Run from the repository root::

    python bench/pin_flood.py                 # ~30 s
    python bench/pin_flood.py --replies 200   # steadier figures

One process, the real store (SQLite in a temporary directory), the real Conversation
(PIN lock, router, Argon2id with the pepper); no Telegram.  A neighbour user sends
``--replies`` texts one after the other and the time of each step is recorded:

1. **baseline**: nobody else is busy;
2. **PIN flood**: meanwhile ``--flooders`` tasks send 4-digit texts as one user, as fast
   as they are answered, into that user's open chat (every one of them is a PIN to check);
3. **PDF**: meanwhile the evidence report of ``--items`` items is built again and again.

Phases 2 and 3 run twice: as the bot does it (hashing and the PDF off the event loop, the
PIN rate limit before hashing) and, for comparison, "on the loop" (both inline, no rate
limit, as before).  Printed: p50/p95/max in ms and the p95 ratio against the baseline
measured in the same run (target for the bot: close to 1).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot.engine.conversation as conversation_module  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engine.conversation import Conversation  # noqa: E402
from bot.engine.offload import run_cpu  # noqa: E402
from bot.reports.export import evidence_pdf  # noqa: E402
from bot.resources import load_resources  # noqa: E402
from bot.store.export import EvidenceRecord  # noqa: E402
from bot.store.facade import Store  # noqa: E402
from flows.conversations import pinlock  # noqa: E402
from flows.types import EvidenceView, Input  # noqa: E402

PIN = "7391"


def now() -> datetime:
    return datetime.now(UTC)


def summary(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return statistics.median(ordered) * 1000, p95 * 1000, ordered[-1] * 1000


async def neighbour(conv: Conversation, user_id: str, replies: int) -> list[float]:
    times: list[float] = []
    for n in range(replies):
        started = time.perf_counter()
        await conv.step(user_id, Input(kind="text", now=now(), text=f"just checking in {n}"))
        times.append(time.perf_counter() - started)
        await asyncio.sleep(0.01)
    return times


@contextlib.asynccontextmanager
async def busy(work: Callable[[], Any], tasks: int) -> AsyncIterator[None]:
    stop = asyncio.Event()

    async def loop() -> None:
        while not stop.is_set():
            await work()
            await asyncio.sleep(0)

    running = [asyncio.create_task(loop()) for _ in range(tasks)]
    try:
        yield
    finally:
        stop.set()
        await asyncio.gather(*running)


async def _inline(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


class _NoLimit:
    def allow(self, user_id: str, at: datetime) -> bool:
        return True


@contextlib.contextmanager
def on_the_loop(conv: Conversation) -> Iterator[None]:
    """As before: hashing inline on the event loop, and no rate limit."""
    limiter = conv.pin_limit
    conv.pin_limit = _NoLimit()  # type: ignore[assignment]
    conversation_module.run_cpu = _inline  # type: ignore[assignment]
    try:
        yield
    finally:
        conv.pin_limit = limiter
        conversation_module.run_cpu = run_cpu


#: a check code as the export prints it on every page (any 64 hex digits)
CHECK_CODE = "0" * 64


def evidence(items: int) -> list[EvidenceRecord]:
    at = now()
    text = "You will regret this. I know where you are staying. Call me back tonight. " * 4
    return [
        EvidenceRecord(
            EvidenceView(
                f"e{n}",
                at - timedelta(hours=n),
                "hoover",
                "them",
                text,
                None,
                ("threat", "pressure"),
                ("stalking",),
            ),
            note="",
        )
        for n in range(items)
    ]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=80)
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--items", type=int, default=300)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(telegram_bot_token="123:BENCH", data_dir=Path(tmp) / "data")
        store = await Store.open(settings)
        resources = load_resources(settings.safety_resources_file, settings.default_region)
        conv = Conversation(store, resources)
        flooder, _ = await store.ensure_user(1001, 1001)
        other, _ = await store.ensure_user(1002, 1002)
        await store.update_settings(
            flooder, {"onboarded": True, pinlock.PIN_KEY: store.pins.hash(PIN)}
        )
        await store.update_settings(other, {"onboarded": True})
        # the flooder's chat is open: every 4-digit text is a PIN to check
        await conv.step(flooder, Input(kind="text", now=now(), text=PIN))
        counter = iter(range(10**9))

        async def flood() -> None:
            guess = f"{1000 + next(counter) % 9000}"
            await conv.step(flooder, Input(kind="text", now=now(), text=guess))

        items = evidence(args.items)

        async def pdf_off() -> None:
            await run_cpu(evidence_pdf, items, now(), CHECK_CODE)

        async def pdf_inline() -> None:
            evidence_pdf(items, now(), CHECK_CODE)

        await neighbour(conv, other, 5)  # warm up
        base = await neighbour(conv, other, args.replies)
        _, base_p95, _ = summary(base)
        print(f"neighbour's reply latency, {args.replies} replies per row")
        print(f"{'':32} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'p95 / baseline':>15}")

        def row(name: str, samples: list[float]) -> None:
            p50, p95, worst = summary(samples)
            ratio = p95 / base_p95
            print(f"{name:32} {p50:8.1f} {p95:8.1f} {worst:8.1f} {ratio:15.2f}", flush=True)

        row("baseline", base)
        async with busy(flood, args.flooders):
            row("PIN flood (the bot)", await neighbour(conv, other, args.replies))
        with on_the_loop(conv):
            async with busy(flood, args.flooders):
                row("PIN flood (on the loop, before)", await neighbour(conv, other, args.replies))
        pdf_replies = max(5, args.replies // 4)  # a PDF takes seconds: fewer samples
        async with busy(pdf_off, 1):
            row(f"PDF of {args.items} (the bot)", await neighbour(conv, other, pdf_replies))
        async with busy(pdf_inline, 1):  # each reply waits for a whole PDF: a few suffice
            row(f"PDF of {args.items} (on the loop)", await neighbour(conv, other, 3))
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())

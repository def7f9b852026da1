"""Prometheus metrics: counts and timings of the whole bot, never of a person.

No metric and no label holds user data, a Telegram id, an internal id or any text: the
labels are fixed words (``kind``, ``outcome``).  The endpoint is off unless METRICS_PORT
is set, and is served only by the active process (see ``bot.store.lease``).

* ``nocontact_updates_handled_total{kind,outcome}`` - messages and button presses handled
* ``nocontact_step_seconds{kind}`` - how long one update took, from handler to last reply
* ``nocontact_checkins_total{outcome}`` - check-ins and check-backs sent, failed, skipped
* ``nocontact_update_queue_depth`` - updates fetched and not yet taken up
* ``nocontact_lease_held`` - 1 while this process holds the lease (is the active one)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from threading import Thread
from typing import Any, TypeVar, cast
from wsgiref.simple_server import WSGIServer

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    start_http_server,
)

REGISTRY = CollectorRegistry(auto_describe=True)

UPDATES = Counter(
    "nocontact_updates_handled",
    "Updates handled (messages and button presses).",
    ["kind", "outcome"],
    registry=REGISTRY,
)
STEP_SECONDS = Histogram(
    "nocontact_step_seconds",
    "Seconds to handle one update, from the handler to its last reply.",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
CHECKINS = Counter(
    "nocontact_checkins",
    "Scheduled check-ins and check-backs by outcome.",
    ["outcome"],
    registry=REGISTRY,
)
QUEUE_DEPTH = Gauge(
    "nocontact_update_queue_depth",
    "Updates fetched from Telegram and not yet taken up.",
    registry=REGISTRY,
)
LEASE_HELD = Gauge(
    "nocontact_lease_held",
    "1 while this process holds the lease (it is the active one), else 0.",
    registry=REGISTRY,
)

_Handler = TypeVar("_Handler", bound=Callable[..., Awaitable[Any]])


def timed(kind: str) -> Callable[[_Handler], _Handler]:
    """Count and time a handler; ``kind`` is a fixed word ("message", "button")."""

    def wrap(handler: _Handler) -> _Handler:
        @functools.wraps(handler)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            outcome = "error"
            try:
                result = await handler(*args, **kwargs)
                outcome = "ok"
                return result
            finally:
                STEP_SECONDS.labels(kind).observe(time.perf_counter() - started)
                UPDATES.labels(kind, outcome).inc()

        return cast(_Handler, wrapper)

    return wrap


def record_checkins(*, sent: int, failed: int, skipped: int) -> None:
    for outcome, count in (("sent", sent), ("failed", failed), ("skipped", skipped)):
        if count:
            CHECKINS.labels(outcome).inc(count)


def watch(queue_depth: Callable[[], int], lease_held: Callable[[], bool]) -> None:
    """Read the queue depth and the lease when the metrics are scraped."""
    QUEUE_DEPTH.set_function(queue_depth)
    LEASE_HELD.set_function(lambda: 1.0 if lease_held() else 0.0)


def text() -> str:
    """The metrics, in Prometheus' text format."""
    return generate_latest(REGISTRY).decode()


def serve(address: str, port: int) -> tuple[WSGIServer, Thread]:
    """Serve ``/metrics`` on ``address:port`` in a thread; ``server.shutdown()`` stops it."""
    return start_http_server(port, addr=address, registry=REGISTRY)

"""CPU-heavy work off the event loop: PIN hashing, the evidence PDF, the progress chart.

One small pool of threads (as many as there are cores, at most 4) runs it, so one user's
slow request never holds up another user's reply, and a flood of them cannot take more
than the pool.  Argon2 runs without the GIL; the PDF and chart hold it only in short
slices, so the loop keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_POOL = ThreadPoolExecutor(
    max_workers=max(1, min(4, os.cpu_count() or 1)), thread_name_prefix="nocontact-cpu"
)


async def run_cpu(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)`` in the CPU pool, awaited."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_POOL, functools.partial(fn, *args, **kwargs))

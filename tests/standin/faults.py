"""Seeded faults the Bot API stand-in can inject into the calls that reach a chat.

``BotApiStandIn.faults = Faults(bad_gateway=0.1, too_many=0.1, ...)``: each rate-limited
call (sendMessage, ...) meets at most one fault, drawn with these chances:

- ``bad_gateway``: a 502 from "the gateway in front of the Bot API" (an HTML body, as
  nginx sends); nothing is delivered;
- ``too_many``: a 429 with ``retry_after`` 1; nothing is delivered;
- ``hang_before``: the request hangs ``hang`` seconds (longer than the bot's read
  timeout) and is not delivered;
- ``lost_answer``: the message is delivered, then the answer hangs ``hang`` seconds: the
  bot times out and cannot know it arrived.

``counts`` says how many of each were injected.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

KINDS = ("bad_gateway", "too_many", "hang_before", "lost_answer")


@dataclass
class Faults:
    bad_gateway: float = 0.0
    too_many: float = 0.0
    hang_before: float = 0.0
    lost_answer: float = 0.0
    hang: float = 6.0
    seed: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def draw(self) -> str | None:
        """The fault for the next call, or None."""
        roll = self._rng.random()
        for kind in KINDS:
            chance: float = getattr(self, kind)
            if roll < chance:
                self.counts[kind] += 1
                return kind
            roll -= chance
        return None

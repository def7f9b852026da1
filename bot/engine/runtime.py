"""What the handlers share at run time: settings, the store, the conversation engine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.config import Settings
from bot.engine.conversation import Conversation, utcnow
from bot.store.facade import Store
from flows.types import ResourceBook


@dataclass
class Runtime:
    settings: Settings
    store: Store
    resources: ResourceBook
    conversation: Conversation
    clock: Callable[[], datetime] = field(default=utcnow)

    def now(self) -> datetime:
        return self.clock()

"""What the bot keeps per user between two updates: the :class:`Session`.

It is stored as one JSON document (encrypted) of the shape it always had::

    {"seq": 7, "lock": {...},
     "flow": {"flow": "urge", "step": "write", ...the flow's fields...,
              "warned": ["violence"], "resume": {"flow": "evidence", "step": ...}}}

and parsed once, here: a missing key takes its default, a part that does not read is
dropped (so a session stored by an older version loads).  Whether the flow named still
accepts its fields is the router's check (``flows.router``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Self

from flows.conversations.lockstate import Lock
from flows.pieces import KEY as PIECES
from flows.pieces import Held, load_held
from flows.types import Effect, FlowJson, Reply

#: The "flow" of the question "do you want to go back to ...?" (it has no fields).
OFFER = "resume"
_OFFER_STEP = "offer"


def _frozen(fields: Mapping[str, object]) -> Mapping[str, object]:
    return MappingProxyType(copy.deepcopy(dict(fields)))


@dataclass(frozen=True)
class Here:
    """Where the user is: a flow and its own fields, what it interrupted, and which
    safety messages this conversation already showed."""

    flow: str
    #: "step" and the flow's fields, as the flow wrote them (its typed state is what
    #: ``Flow.load`` makes of them); no router key
    fields: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    #: the flow it interrupted, offered again when this one ends (never nested further)
    resume: Here | None = None
    #: danger kinds the safety message was shown for (the flows read them as ``warned``)
    warned: tuple[str, ...] = ()
    #: the pieces of a long paste held until they are all here (``flows.pieces``)
    pieces: Held | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # frozen all the way down: a copy would be the same value

    @property
    def offering(self) -> bool:
        """Whether this is the question "go back to ...?" (``resume`` is what)."""
        return self.flow == OFFER

    @property
    def step(self) -> object:
        return self.fields.get("step")

    @staticmethod
    def offer(resume: Here) -> Here:
        return Here(OFFER, MappingProxyType({"step": _OFFER_STEP}), resume)

    @classmethod
    def of(cls, state: FlowJson) -> Here:
        """A flow's new state (``Flow.dump``) as a place; its ``warned`` is the router's."""
        warned = state.get("warned")
        fields = {k: v for k, v in state.items() if k not in ("flow", "warned", "resume", PIECES)}
        return cls(
            flow=str(state.get("flow", "")),
            fields=_frozen(fields),
            warned=tuple(w for w in warned if isinstance(w, str))
            if isinstance(warned, list | tuple)
            else (),
        )

    def flow_json(self) -> FlowJson:
        """What the flow reads: its name, its fields and ``warned``."""
        out: FlowJson = {"flow": self.flow, **copy.deepcopy(dict(self.fields))}
        if self.warned:
            out["warned"] = list(self.warned)
        return out

    @classmethod
    def from_json(cls, raw: object) -> Here | None:
        """A stored place, or ``None`` when it does not read as one."""
        if not isinstance(raw, Mapping) or not isinstance(raw.get("flow"), str):
            return None
        here = cls.of({str(k): v for k, v in raw.items()})
        resume = cls.from_json(raw.get("resume"))
        return Here(here.flow, here.fields, resume, here.warned, load_held(raw))

    def to_json(self) -> FlowJson:
        out = self.flow_json()
        if self.resume is not None:
            out["resume"] = self.resume.to_json()
        if self.pieces is not None:
            out[PIECES] = self.pieces.to_json()
        return out


@dataclass(frozen=True)
class Session:
    """Everything the bot keeps per user between updates (``bot.engine.conversation``)."""

    #: the generation of the menu on screen: a button from an older one is stale
    seq: int = 0
    here: Here | None = None
    #: the PIN lock (flows.conversations.pinlock)
    lock: Lock = field(default_factory=Lock)

    @classmethod
    def from_json(cls, raw: Mapping[str, object] | None) -> Session:
        if not raw:
            return cls()
        seq = raw.get("seq", 0)
        return cls(
            seq=seq if isinstance(seq, int) and not isinstance(seq, bool) else 0,
            here=Here.from_json(raw.get("flow")),
            lock=Lock.from_json(raw.get("lock")),
        )

    def to_json(self) -> dict[str, object]:
        here = self.here.to_json() if self.here is not None else None
        return {"seq": self.seq, "flow": here, "lock": self.lock.to_json()}


@dataclass(frozen=True)
class Turn:
    """What the router answers one input with: the replies, where the user is now, and
    the effects for the adapter."""

    replies: tuple[Reply, ...] = ()
    state: Here | None = None
    effects: tuple[Effect, ...] = ()
    #: True when the input was not understood and nothing changed (a forged button).
    ignored: bool = False

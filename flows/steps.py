"""A flow as a table of steps.

Each flow module reads top to bottom like the advice it follows: its typed state, its
typed button values (:mod:`flows.choices`), what each step shows, and a table::

    FLOW = Flow(
        name="hoover",
        title="the message you were looking at",
        state=HooverState,
        choices=Hv,
        steps={
            "save": Step(_ask_save, on={Hv.SAVE: to("sender"), Hv.NOSAVE: to("plan")}),
            "sender": Step(_ask_sender, on={Hv.THEM: _saved}, text=_saved_as),
            ...
        },
    )

A row says what the step shows (``ask``), where each typed choice goes (``on``: a
:class:`To` for a plain move, or a function of the press) and what typed text does
(``text``).  Anything else at that step (a forged button, free text where only buttons
make sense) is ``None``: the router answers it.

The state crosses the router as JSON (the store encrypts it); :meth:`Flow.load` and
:meth:`Flow.dump` are the only places it is converted.  What the router keeps besides
(what was interrupted) is its own (``flows.session.Here``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Self, TypeVar, Union, cast

from flows.analysis.context import Sender
from flows.choices import Choice, Press, unpack
from flows.types import Effect, FlowJson, Input, Outcome, Reply, UserData


@dataclass(frozen=True)
class FlowState:
    """Base of every flow's typed state: the step, plus the flow's own fields.

    Fields are JSON-able scalars, ``X | None``, and tuples of scalars.  ``from_json``
    accepts a state stored by an older version (missing keys take their defaults) and
    refuses a malformed one (``None``), so a bad stored state never reaches a step.
    """

    step: str = ""
    #: Danger kinds the user was already shown the safety message for, in this
    #: conversation (shared with the router, which checks every text first).
    warned: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        if not self.warned:
            del out["warned"]  # the router drops it with the conversation; so do we
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, object]) -> Self | None:
        hints = _hints(cls)
        values: dict[str, object] = {}
        for f in dataclasses.fields(cls):
            if f.name not in raw:
                continue
            try:
                values[f.name] = _coerce(raw[f.name], hints[f.name])
            except (TypeError, ValueError):
                return None
        make: Callable[..., Self] = cls
        try:
            return make(**values)
        except (TypeError, ValueError):
            return None


#: each step class's resolved annotations (resolving them costs more than a load)
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _coerce(value: object, hint: object) -> object:
    """``value`` as the annotated type ``hint``, or TypeError."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _coerce(value, option)
            except (TypeError, ValueError):
                continue
        raise TypeError("no option fits")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise TypeError("not a list")
        item = args[0] if args else object
        return tuple(_coerce(v, item) for v in value)
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError("not a bool")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("not an int")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError("not a number")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise TypeError("not a string")
        return value
    if hint is object:
        return value
    raise TypeError(f"unsupported field type {hint!r}")


S = TypeVar("S", bound=FlowState)


@dataclass(frozen=True)
class To:
    """Move to ``step`` (with ``state`` if the step changed it), after ``before``."""

    step: str
    state: FlowState | None = None
    before: tuple[Reply, ...] = ()
    effects: tuple[Effect, ...] = ()


def to(step: str, *before: Reply, effects: Iterable[Effect] = ()) -> To:
    return To(step, None, tuple(before), tuple(effects))


Result = Outcome | To | None
Ask = Callable[[S, UserData], tuple[Reply, ...]]
OnPress = Callable[[S, Press, UserData], Result]
OnText = Callable[[S, str, Input, UserData], Result]
#: a file or anything else that is not text (``Input`` "media": ``inp.media`` is the
#: file, or None for a sticker, a location...)
OnMedia = Callable[[S, Input, UserData], Result]


@dataclass(frozen=True)
class Step(Generic[S]):
    """One row: what the step shows, where each choice goes, what typed text does, and
    what a file sent there does (``media``; without it the router answers a file)."""

    ask: Ask[S]
    on: Mapping[Choice, OnPress[S] | To] = field(default_factory=dict)
    text: OnText[S] | To | None = None
    media: OnMedia[S] | None = None


def _no_effects(state: Any) -> tuple[Effect, ...]:
    return ()


@dataclass(frozen=True)
class Flow(Generic[S]):
    """One conversation: its typed state, its choices and its table of steps."""

    name: str
    title: str  # "go back to <title>?" - discreet words
    state: type[S]
    #: the flow's own choices, and any shared ones its steps use (the fear question)
    choices: type[Choice] | tuple[type[Choice], ...]
    steps: Mapping[str, Step[S]]
    resumable: bool = False
    needs: frozenset[str] = frozenset()
    #: Steps where the user pastes or forwards someone else's message.
    incoming_steps: frozenset[str] = frozenset()
    #: Steps that take a forwarded message (default: the incoming steps).  Elsewhere a
    #: forward is offered the hoover / flying-monkey flows instead.
    forward_steps: frozenset[str] | None = None
    #: Effects that keep what the user typed when the flow is abandoned.
    keep_typed: Callable[[S], tuple[Effect, ...]] = _no_effects
    #: Who wrote what is pasted at the incoming steps (for the danger check's context).
    sender: Sender = "them"

    # ------------------------------------------------------------------ the JSON edge
    def load(self, raw: Mapping[str, object]) -> S | None:
        if raw.get("flow") != self.name:
            return None
        state = self.state.from_json(raw)
        return state if state is not None and state.step in self.steps else None

    def dump(self, state: S) -> FlowJson:
        return {"flow": self.name, **state.to_json()}

    def _unpack(self, token: str) -> Press | None:
        groups = self.choices if isinstance(self.choices, tuple) else (self.choices,)
        for choices in groups:
            press = unpack(token, choices)
            if press is not None:
                return press
        return None

    # ------------------------------------------------------------------ what the router uses
    def valid(self, raw: Mapping[str, object]) -> bool:
        return self.load(raw) is not None

    def render(self, raw: Mapping[str, object], data: UserData) -> tuple[Reply, ...]:
        state = self.load(raw)
        if state is None:
            raise ValueError(f"not a valid {self.name} state")
        return self.steps[state.step].ask(state, data)

    def takes_forward(self, raw: Mapping[str, object]) -> bool:
        steps = self.incoming_steps if self.forward_steps is None else self.forward_steps
        return raw.get("step") in steps

    def takes_media(self, raw: Mapping[str, object]) -> bool:
        """Whether the current step takes what the user sends that is not text."""
        state = self.load(raw)
        return state is not None and self.steps[state.step].media is not None

    def keep(self, raw: Mapping[str, object]) -> tuple[Effect, ...]:
        state = self.load(raw)
        return self.keep_typed(state) if state is not None else ()

    def step(self, raw: Mapping[str, object], inp: Input, data: UserData) -> Outcome | None:
        """Handle one input at the current step; ``None`` when it does not fit there."""
        state = self.load(raw)
        if state is None:
            return None
        row = self.steps[state.step]
        result: Result
        if inp.kind == "choice":
            press = self._unpack(inp.text)
            move = row.on.get(press.choice) if press is not None else None
            if move is None or press is None:
                return None
            result = move if isinstance(move, To) else move(state, press, data)
        elif inp.kind in ("text", "forward") and row.text is not None:
            text = inp.text.strip()
            if not text:
                return None
            result = row.text if isinstance(row.text, To) else row.text(state, text, inp, data)
        elif inp.kind == "media" and row.media is not None:
            result = row.media(state, inp, data)
        else:
            return None
        if isinstance(result, To):
            moved = cast(S, result.state) if result.state is not None else state
            result = go(self, moved, result.step, data, result.before, result.effects)
        return result

    def go(
        self,
        state: S,
        step: str,
        data: UserData,
        before: Iterable[Reply] = (),
        effects: Iterable[Effect] = (),
    ) -> Outcome:
        return go(self, state, step, data, before, effects)


def go(
    flow: Flow[S],
    state: S,
    step: str,
    data: UserData,
    before: Iterable[Reply] = (),
    effects: Iterable[Effect] = (),
) -> Outcome:
    """Move to ``step`` and show it, after the ``before`` replies."""
    new = dataclasses.replace(state, step=step)
    replies = (*before, *flow.steps[step].ask(new, data))
    return Outcome(replies=replies, state=flow.dump(new), effects=tuple(effects))


def stay(flow: Flow[S], state: S, data: UserData, effects: Iterable[Effect] = ()) -> Outcome:
    """Show the current step again with ``state`` (a ticked box, a changed setting)."""
    return go(flow, state, state.step, data, (), effects)


def end(*replies: Reply, effects: Iterable[Effect] = ()) -> Outcome:
    """Leave the flow."""
    return Outcome(replies=tuple(replies), state=None, effects=tuple(effects))

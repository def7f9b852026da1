"""Walk every button of every flow (breadth-first, bounded) and check what any user would
notice: no crash, short replies, valid buttons, a JSON-able state, a safety message only
ever first - and that render() shows a step that accepts its own buttons."""

from __future__ import annotations

import copy
import uuid
from datetime import timedelta

import pytest

from flows.choices import pack
from flows.commands import COMMANDS
from flows.conversations.evidence import Ev
from flows.conversations.monkey import Mk
from flows.types import (
    EvidenceView,
    Input,
    Outcome,
    ReasonView,
    SenderView,
    SupportPerson,
    UnsentView,
)

from .conftest import NOW, Convo, FakeStore, check_outcome, values

STARTS = [c.name for c in COMMANDS] + ["trigger:checkin", "trigger:checkback:urge"]


def rich_store() -> FakeStore:
    store = FakeStore(is_new=False)
    store.settings.update(
        {
            "onboarded": True,
            "checkin": {"time": "20:00", "tz": "Europe/Berlin", "days": [0, 1], "paused": False},
        }
    )
    store.reasons = [ReasonView(uuid.uuid4().hex, f"Reason number {i}") for i in range(3)]
    store.support = SupportPerson("Sam", "call")
    store.senders = [SenderView(uuid.uuid4().hex, "Aunt C.", NOW - timedelta(days=3), 1, 4)]
    store.unsent = [UnsentView(uuid.uuid4().hex, "I wanted to say...", NOW)]
    store.evidence = [
        EvidenceView(uuid.uuid4().hex, NOW, "hoover", "them", "sorry, I will change", None,
                     ("apology",), ())
    ]  # fmt: skip
    return store


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("rich", [False, True])
def test_every_button_path_behaves(start: str, rich: bool) -> None:
    texts = ["8pm", "Berlin", "Sorry, I will change. Are you picking her up at 5?", "DELETE"]
    first = Convo(rich_store() if rich else FakeStore())
    if start.startswith("trigger:"):
        first.trigger(start.removeprefix("trigger:"))
    else:
        first.command(start)
    queue = [first]
    seen: dict[tuple[str, str], int] = {}
    steps = 0
    while queue and steps < 400:
        convo = queue.pop(0)
        state = convo.state
        key = (str(state and state.get("flow")), str(state and state.get("step")))
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 4:
            continue
        # render() shows the current step again, with buttons that still work.
        shown = convo.render()
        check_outcome(Outcome(replies=shown))
        options = [("choice", v) for v in dict.fromkeys(values(convo.last))]
        options += [("text", t) for t in texts]
        options += [("forward", "Your mother wants me to tell you she is sorry.")]
        for kind, value in options:
            steps += 1
            branch = copy.deepcopy(convo)
            out = branch.send(Input(kind, branch.now, text=value))  # type: ignore[arg-type]
            if not out.ignored and out.state is not None:
                queue.append(branch)


def test_forged_values_for_every_step_are_ignored() -> None:
    convo = Convo(rich_store())
    for cmd in COMMANDS:
        convo.command(cmd.name)
        if convo.state is None:
            continue
        before = convo.state
        indexes = (pack(Mk.WHO(42)), pack(Ev.READ(77)))  # past the end of what is shown
        for forged in ("zz:1", "rdel:99", "u:v:99", *indexes, "reg:9", "tick:nope"):
            out = convo.send(Input("choice", convo.now, text=forged))
            assert out.ignored and convo.state == before and not out.replies

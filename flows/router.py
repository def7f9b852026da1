"""The single entry point of the conversations: ``handle(state, input, data) -> Outcome``.

The router owns what is common to every flow:

- commands, as :mod:`flows.commands` describes them (each one leaves the current flow;
  what the user typed is kept, and a flow that was interrupted is offered again
  afterwards, ``state["resume"]``), and its own buttons (``flows.commands.Menu``),
- the safety net: every text and forward is checked for danger before anything else and
  the safety message goes first (``state["warned"]`` avoids repeating it),
- forwarded messages and long pastes outside a flow, media where text is expected,
  forged or stale buttons (``Outcome(ignored=True)``), over-long text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Literal

from flows import analysis, commands
from flows.analysis.context import Sender
from flows.choices import Press, unpack
from flows.commands import Menu
from flows.conversations import (
    checkin,
    evidence,
    hoover,
    incoming,
    monkey,
    onboarding,
    privacy,
    reasons,
    riskcheck,
    safety,
    urge,
)
from flows.replies import LONG_PASTE, MAX_PASTE, button, clip, keyboard, main_menu
from flows.steps import Flow
from flows.types import (
    Command,
    Effect,
    Input,
    Outcome,
    Reply,
    SaveUnsent,
    State,
    UnsentView,
    UserData,
)

FLOWS: dict[str, Flow[Any]] = {
    spec.name: spec
    for spec in (
        onboarding.FLOW,
        reasons.FLOW,
        urge.FLOW,
        urge.BACK_FLOW,
        hoover.FLOW,
        monkey.FLOW,
        incoming.FLOW,
        safety.FLOW,
        checkin.FLOW,
        checkin.DAILY_FLOW,
        privacy.FLOW,
        privacy.HIDE_FLOW,
        privacy.WIPE_FLOW,
        evidence.FLOW,
        riskcheck.FLOW,
    )
}

MEDIA_IN_FLOW = (
    "I can only read text, not stickers, photos or voice messages. Could you type it, or "
    "copy the words in?"
)
MEDIA_NO_FLOW = "I can only read text, not stickers, photos or voice messages."
NUDGE = "I hear you. When you're ready, tap one of the options below (or /cancel to stop)."
CANCELLED = "Okay, stopped. Nothing you wrote was lost."
KEPT_DRAFT = "What you were writing is saved in your unsent messages (see /urge)."


def _help(inp: Input, data: UserData) -> Outcome:
    return Outcome(replies=(Reply(commands.HELP),))


Starter = Callable[[Input, UserData], Outcome]
#: How each flow a command starts begins (``Cmd.starts``), and the help page.
BEGIN: dict[str, Starter] = {
    "help": _help,
    "start": onboarding.start,
    "urge": urge.start,
    "hoover": hoover.start,
    "monkey": monkey.start,
    "reasons": reasons.start,
    "checkin": checkin.start,
    "evidence": evidence.start,
    "safety": safety.start,
    "riskcheck": riskcheck.start,
    "privacy": privacy.start,
    "hide": privacy.hide_start,
    "wipe": privacy.wipe_start,
}


# --------------------------------------------------------------------------- state
def _clean(state: State | None) -> State | None:
    """The state if it still makes sense (a stored state may be from an older version)."""
    if not isinstance(state, dict):
        return None
    if state.get("flow") == "resume":
        inner = _clean(state.get("resume"))
        return {"flow": "resume", "step": "offer", "resume": inner} if inner else None
    spec = FLOWS.get(state.get("flow", ""))
    if spec is None or not spec.valid(state):
        return None
    if "resume" in state and _clean(state["resume"]) is None:
        state = {k: v for k, v in state.items() if k != "resume"}
    return state


def _strip(state: State) -> State:
    return {k: v for k, v in state.items() if k not in ("resume", "warned")}


def _keep_all(state: State | None) -> list[Effect]:
    """Effects that keep what the user typed in ``state`` (and what it interrupted)."""
    if state is None:
        return []
    if state["flow"] == "resume":
        return _keep_all(state["resume"])
    effects = list(FLOWS[state["flow"]].keep(state))
    return effects + _keep_all(state.get("resume"))


def _leave(state: State | None, target: str | None) -> tuple[State | None, list[Effect]]:
    """Leave ``state`` for a new flow ``target``: the state to offer again afterwards (if
    worth it) and the effects that keep what the user typed in whatever is dropped."""
    if state is None:
        return None, []
    base = state["resume"] if state["flow"] == "resume" else state
    nested = base.get("resume")
    base = _strip(base)
    spec = FLOWS[base["flow"]]
    if spec.resumable and base["flow"] != target:
        return base, _keep_all(nested)
    effects = list(spec.keep(base))
    if nested is not None and nested["flow"] != target:
        # What was interrupted before is still worth going back to.
        return _strip(nested), effects + _keep_all(nested.get("resume"))
    return None, effects + _keep_all(nested)


def _resume_offer(resume: State) -> Reply:
    title = FLOWS[resume["flow"]].title
    buttons = keyboard([button("Yes, go back", Menu.RESUME), button("No, thanks", Menu.NO_RESUME)])
    return Reply(f"Do you want to go back to {title}?", buttons)


def _advance(
    out: Outcome,
    resume: State | None,
    before: Iterable[Reply] = (),
    effects: Iterable[Effect] = (),
    warned: Sequence[str] = (),
) -> Outcome:
    """Attach the router's keys (``resume``, ``warned``) to a flow's outcome; when the
    flow ended and another was interrupted, offer to go back to it."""
    replies = [*before, *out.replies]
    all_effects = [*effects, *out.effects]
    state = out.state
    if state is not None:
        state = dict(state)
        if resume is not None:
            state["resume"] = resume
        merged = list(dict.fromkeys([*warned, *state.get("warned", [])]))
        if merged:
            state["warned"] = merged
    elif resume is not None:
        replies.append(_resume_offer(resume))
        state = {"flow": "resume", "step": "offer", "resume": resume}
    return Outcome(replies=tuple(replies), state=state, effects=tuple(all_effects))


# --------------------------------------------------------------------------- entry points
def handle(state: State | None, inp: Input, data: UserData) -> Outcome:
    state = _clean(state)
    if inp.kind == "command":
        return _command(state, inp.text.strip().lstrip("/").lower(), inp, data)
    if inp.kind == "trigger":
        return _trigger(state, inp, data)
    if inp.kind == "choice":
        return _choice(state, inp, data)
    if inp.kind == "media":
        return _media(state, data)
    return _text(state, inp, data)


def render(state: State | None, data: UserData) -> tuple[Reply, ...]:
    state = _clean(state)
    if state is None:
        return (main_menu(),)
    if state["flow"] == "resume":
        return (_resume_offer(state["resume"]),)
    return FLOWS[state["flow"]].render(state, data)


def needs(state: State | None, inp: Input | None = None) -> frozenset[str]:
    """What to load into UserData for ``handle(state, inp)`` - or, with ``inp`` None, for
    ``render(state)``."""
    state = _clean(state)
    if inp is not None and inp.kind == "command":
        return _start_needs(inp.text.strip().lstrip("/").lower())
    press = unpack(inp.text, Menu) if inp is not None and inp.kind == "choice" else None
    if press is not None and press.choice is Menu.COMMAND:
        return _start_needs(press.arg)
    if inp is not None and inp.kind == "trigger":
        return checkin.DAILY_FLOW.needs if inp.text == "checkin" else frozenset()
    if state is None:
        return frozenset()
    current = state["resume"] if state["flow"] == "resume" else state
    return FLOWS[current["flow"]].needs


def _start_needs(name: str) -> frozenset[str]:
    cmd = commands.BY_NAME.get(name)
    flow = FLOWS.get(cmd.starts) if cmd is not None and cmd.starts else None
    return flow.needs if flow is not None else frozenset()


# --------------------------------------------------------------------------- commands
def _command(state: State | None, name: str, inp: Input, data: UserData) -> Outcome:
    cmd = commands.BY_NAME.get(name)
    if cmd is None:
        text = "I don't know that command. /help lists what I can do."
        return Outcome(replies=(Reply(text),), state=state)
    if cmd.action is not None:
        return Outcome(state=state, effects=(Command(cmd.action),))
    if cmd.starts is None:
        return _cancel(state)
    resume, effects = _leave(state, cmd.starts)
    if not cmd.resumes:
        # A deliberate clean-up: no "go back to ..." afterwards.
        if resume is not None:
            effects += FLOWS[resume["flow"]].keep(resume)
        resume = None
    if not cmd.keeps_typed:
        effects = []  # everything is about to go; saving drafts first is pointless
    drafts = [e for e in effects if isinstance(e, SaveUnsent)]
    before = [Reply(KEPT_DRAFT)] if drafts else []
    if drafts:
        # the new flow already counts the draft that is being kept
        kept = tuple(
            UnsentView(id=f"kept{i}", text=d.text, created_at=inp.now) for i, d in enumerate(drafts)
        )
        data = replace(data, unsent=(*data.unsent, *kept))
    return _advance(BEGIN[cmd.starts](inp, data), resume, before, effects)


def _cancel(state: State | None) -> Outcome:
    """Leave every flow; what the user typed is kept."""
    effects = _keep_all(state)
    lines = [CANCELLED]
    if any(isinstance(e, SaveUnsent) for e in effects):
        lines.append(KEPT_DRAFT)
    return Outcome(replies=(Reply(" ".join(lines)),), state=None, effects=tuple(effects))


def _trigger(state: State | None, inp: Input, data: UserData) -> Outcome:
    if inp.text == "checkin":
        resume, effects = _leave(state, checkin.DAILY_FLOW.name)
        return _advance(checkin.daily_start(data), resume, (), effects)
    if inp.text == "checkback:urge":
        resume, effects = _leave(state, urge.BACK_FLOW.name)
        return _advance(urge.checkback_start(data), resume, (), effects)
    return Outcome(state=state, ignored=True)


# --------------------------------------------------------------------------- buttons
def _ignored(state: State | None) -> Outcome:
    return Outcome(state=state, ignored=True)


def _choice(state: State | None, inp: Input, data: UserData) -> Outcome:
    press = unpack(inp.text, Menu)
    if press is not None and press.choice is Menu.COMMAND and press.arg in commands.BY_NAME:
        return _command(state, press.arg, inp, data)
    if press == Press(Menu.SAFE):
        words = Reply("Okay. /safety is here whenever you need it.")
        in_flow = state is not None and state["flow"] != "resume"
        shown = FLOWS[state["flow"]].render(state, data) if state and in_flow else ()
        return Outcome(replies=(words, *shown), state=state)
    if state is None:
        return _ignored(state)
    if state["flow"] == "resume":
        resume = state["resume"]
        if press == Press(Menu.RESUME):
            return Outcome(replies=FLOWS[resume["flow"]].render(resume, data), state=resume)
        if press == Press(Menu.NO_RESUME):
            return Outcome(replies=(Reply("Okay."),), state=None, effects=tuple(_keep_all(resume)))
        return _ignored(state)
    out = FLOWS[state["flow"]].step(state, inp, data)
    if out is None:
        return _ignored(state)
    return _advance(out, state.get("resume"))


# --------------------------------------------------------------------------- text
def _media(state: State | None, data: UserData) -> Outcome:
    if state is not None and state["flow"] != "resume":
        shown = FLOWS[state["flow"]].render(state, data)
        return Outcome(replies=(Reply(MEDIA_IN_FLOW), *shown), state=state)
    return Outcome(replies=(main_menu(f"{MEDIA_NO_FLOW} What would help right now?"),), state=state)


def _source(state: State | None, inp: Input) -> Literal["user", "incoming"]:
    if inp.kind == "forward":
        return "incoming"
    if state is None or state["flow"] == "resume":
        return "incoming" if len(inp.text) > LONG_PASTE else "user"
    return "incoming" if state.get("step") in FLOWS[state["flow"]].incoming_steps else "user"


def _sender(state: State | None, source: str) -> Sender:
    """Who wrote the text: the user, or whoever the flow's paste step is about (the person
    they left, unless the flow says a relay)."""
    if source == "user":
        return "me"
    if state is None or state["flow"] == "resume":
        return "them"
    return FLOWS[state["flow"]].sender


def _text(state: State | None, inp: Input, data: UserData) -> Outcome:
    text, cut = clip(inp.text, MAX_PASTE)
    inp = replace(inp, text=text)
    source = _source(state, inp)
    check = analysis.check_danger(text, source=source, sender=_sender(state, source))
    kinds = [f.id for f in check.found]
    before: list[Reply] = []
    effects: list[Effect] = []
    warned: list[str] = list(state.get("warned", [])) if state else []
    flow_state = state
    if kinds:
        marked, warning, logged = safety.danger_first(warned, kinds, data)
        warned = list(marked)
        before += warning
        effects += logged
    elif check.possible and safety.GENTLE not in warned:
        before.append(safety.gentle_check(source))
        warned.append(safety.GENTLE)
    if state is not None and warned != list(state.get("warned", [])):
        flow_state = {**state, "warned": warned}
    if cut:
        before.append(Reply(f"That was very long, so I kept the first {MAX_PASTE} characters."))
    if flow_state is None or flow_state["flow"] == "resume":
        resume = flow_state["resume"] if flow_state else None
        return _advance(_outside(inp, data), resume, before, effects, warned)
    spec = FLOWS[flow_state["flow"]]
    takes = inp.kind != "forward" or spec.takes_forward(flow_state)
    out = spec.step(flow_state, inp, data) if takes else None
    if out is None:
        long = inp.kind == "forward" or len(text) > LONG_PASTE
        if long:
            resume, kept = _leave(flow_state, incoming.FLOW.name)
            return _advance(incoming.start(inp, data), resume, before, [*effects, *kept], warned)
        shown = FLOWS[flow_state["flow"]].render(flow_state, data)
        out = Outcome(replies=(Reply(NUDGE), *shown), state=flow_state)
    return _advance(out, flow_state.get("resume"), before, effects, warned)


def _outside(inp: Input, data: UserData) -> Outcome:
    """Free text, a forward or a long paste outside any flow."""
    if inp.kind == "forward" or len(inp.text) > LONG_PASTE:
        return incoming.start(inp, data)
    return Outcome(replies=(main_menu("I'm here. What would help right now?"),))

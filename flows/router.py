"""The single entry point of the conversations: ``handle(state, input, data) -> Outcome``.

The router owns what is common to every flow:

- commands, as :mod:`flows.commands` describes them (each one leaves the current flow;
  what the user typed is kept, and a flow that was interrupted is offered again
  afterwards, ``Here.resume``), and its own buttons (``flows.commands.Menu``),
- the safety net: every text and forward is checked for danger before anything else and
  the safety message goes first (``Here.warned`` avoids repeating it),
- forwarded messages and long pastes outside a flow, media where text is expected,
  forged or stale buttons (``Outcome(ignored=True)``), over-long text, and a long paste
  that Telegram cut into pieces (:mod:`flows.pieces`, ``Here.pieces``), and wrong input
  answered with what was wrong (:mod:`flows.typed_words`: a button's own words press it).

(Over 400 lines: every kind of input passes through the same moves between flows -
leave, keep what was typed, offer to go back - and each part here uses them; the wording
and the pure decisions live in flows.pieces and flows.typed_words.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Literal

from flows import analysis, commands, pieces
from flows.analysis.context import Sender
from flows.choices import Press, unpack
from flows.commands import Menu
from flows.conversations import (
    checkin,
    evidence,
    hoover,
    incident,
    incoming,
    media,
    monkey,
    onboarding,
    privacy,
    reasons,
    riskcheck,
    safety,
    support,
    urge,
    wipe,
)
from flows.replies import LONG_PASTE, MAX_PASTE, button, clip, keyboard, main_menu
from flows.schedule import CHECKIN_AFTER_UNSURE
from flows.session import Here, Turn
from flows.steps import Flow
from flows.typed_words import button_named, wrong_reply
from flows.types import (
    Command,
    Effect,
    Input,
    Outcome,
    Reply,
    SaveUnsent,
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
        media.FLOW,
        safety.FLOW,
        checkin.FLOW,
        checkin.DAILY_FLOW,
        privacy.FLOW,
        privacy.HIDE_FLOW,
        wipe.WIPE_FLOW,
        evidence.FLOW,
        incident.FLOW,
        riskcheck.FLOW,
        support.FLOW,
    )
}

MEDIA_IN_FLOW = (
    "I can only read text here, not stickers, pictures or voice messages. Could you type "
    "it, or copy the words in? (To keep a screenshot or a voice note as evidence, send it "
    "in /evidence.)"
)
MEDIA_NO_FLOW = "I can only read text and keep files, not stickers or locations."
#: Flows in which a file the user sends is offered to keep (as what kind of evidence).
_TAKES_MEDIA: dict[str, str] = {
    "hoover": "hoover",
    "monkey": "relay",
    "evidence": "",
    "incoming": "",
    "media": "",
}
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
    "support": support.start,
    "checkin": checkin.start,
    "evidence": evidence.start,
    "incident": incident.start,
    "safety": safety.start,
    "riskcheck": riskcheck.start,
    "privacy": privacy.start,
    "hide": privacy.hide_start,
    "wipe": wipe.wipe_start,
}


# --------------------------------------------------------------------------- state
def _clean(here: Here | None) -> Here | None:
    """``here`` if it still makes sense (a stored session may be from an older version)."""
    if here is None:
        return None
    if here.offering:
        inner = _clean(here.resume)
        return Here.offer(inner) if inner else None
    spec = FLOWS.get(here.flow)
    if spec is None or not spec.valid(here.flow_json()):
        return None
    if here.resume is not None and _clean(here.resume) is None:
        here = replace(here, resume=None)
    return here


def _strip(here: Here) -> Here:
    return replace(here, resume=None, warned=())


def _inner(here: Here) -> Here:
    """The flow ``here`` is about: itself, or the one an offer to go back names."""
    if here.offering:
        assert here.resume is not None  # _clean drops an offer of nothing
        return here.resume
    return here


def _keep_all(here: Here | None) -> list[Effect]:
    """Effects that keep what the user typed in ``here`` (and what it interrupted)."""
    if here is None:
        return []
    if here.offering:
        return _keep_all(here.resume)
    effects = list(FLOWS[here.flow].keep(here.flow_json()))
    return effects + _keep_all(here.resume)


def _leave(here: Here | None, target: str | None) -> tuple[Here | None, list[Effect]]:
    """Leave ``here`` for a new flow ``target``: the place to offer again afterwards (if
    worth it) and the effects that keep what the user typed in whatever is dropped."""
    if here is None:
        return None, []
    base = _inner(here)
    nested = base.resume
    base = _strip(base)
    spec = FLOWS[base.flow]
    if spec.resumable and base.flow != target:
        return base, _keep_all(nested)
    effects = list(spec.keep(base.flow_json()))
    if nested is not None and nested.flow != target:
        # What was interrupted before is still worth going back to.
        return _strip(nested), effects + _keep_all(nested.resume)
    return None, effects + _keep_all(nested)


def _resume_offer(resume: Here, locked: bool = False) -> Reply:
    """The "go back to ...?" offer; in a locked chat without saying to what."""
    title = "where you were" if locked else FLOWS[resume.flow].title
    buttons = keyboard([button("Yes, go back", Menu.RESUME), button("No, thanks", Menu.NO_RESUME)])
    return Reply(f"Do you want to go back to {title}?", buttons)


def _render(here: Here, data: UserData) -> tuple[Reply, ...]:
    return FLOWS[here.flow].render(here.flow_json(), data)


def _advance(
    out: Outcome,
    resume: Here | None,
    before: Iterable[Reply] = (),
    effects: Iterable[Effect] = (),
    warned: Sequence[str] = (),
    *,
    locked: bool = False,
) -> Turn:
    """A flow's outcome as the router's turn: the flow's new state with the router's
    parts (``resume``, ``warned``); when the flow ended and another was interrupted, the
    offer to go back to it."""
    replies = [*before, *out.replies]
    all_effects = [*effects, *out.effects]
    here: Here | None = None
    if out.state is not None:
        new = Here.of(out.state)
        if resume is not None and _given(resume, new.flow):
            resume = None
        merged = tuple(dict.fromkeys([*warned, *new.warned]))
        here = replace(new, resume=resume, warned=merged)
    elif resume is not None:
        replies.append(_resume_offer(resume, locked))
        here = Here.offer(resume)
    return Turn(replies=tuple(replies), state=here, effects=tuple(all_effects))


def _given(resume: Here, flow: str) -> bool:
    """Whether ``resume`` was waiting for the message that ``flow`` now has (a screenshot
    sent at /hoover's "paste what they sent", whose words were used): nothing to go back
    to."""
    return resume.flow == flow and FLOWS[flow].takes_forward(resume.flow_json())


# --------------------------------------------------------------------------- entry points
def handle(here: Here | None, inp: Input, data: UserData) -> Turn:
    here = _clean(here)
    if inp.kind == "command":
        return _command(here, inp.text.strip().lstrip("/").lower(), inp, data)
    if inp.kind == "trigger":
        return _trigger(here, inp, data)
    if inp.kind == "choice":
        return _choice(here, inp, data)
    if inp.kind == "media":
        return _media(here, inp, data)
    if inp.kind == "read":
        return _read(here, inp, data)
    return _text(here, inp, data)


def render(here: Here | None, data: UserData) -> tuple[Reply, ...]:
    here = _clean(here)
    if here is None:
        return (main_menu(data),)
    if here.offering:
        return (_resume_offer(_inner(here), data.locked),)
    if here.pieces is not None:
        return (pieces.waiting(here.pieces),)
    return _render(here, data)


def needs(here: Here | None, inp: Input | None = None) -> frozenset[str]:
    """What to load into UserData for ``handle(here, inp)`` - or, with ``inp`` None, for
    ``render(here)``."""
    here = _clean(here)
    if inp is not None and inp.kind == "command":
        return _start_needs(inp.text.strip().lstrip("/").lower())
    press = unpack(inp.text, Menu) if inp is not None and inp.kind == "choice" else None
    if press is not None and press.choice is Menu.COMMAND:
        return _start_needs(press.arg)
    if inp is not None and inp.kind == "trigger":
        return checkin.DAILY_FLOW.needs if inp.text in _CHECKIN_TRIGGERS else frozenset()
    if inp is not None and inp.kind == "media" and inp.media is not None:
        return frozenset({"media"})  # the room left for files, checked before fetching
    if here is None:
        return frozenset()
    return FLOWS[_inner(here).flow].needs


def _start_needs(name: str) -> frozenset[str]:
    cmd = commands.BY_NAME.get(name)
    flow = FLOWS.get(cmd.starts) if cmd is not None and cmd.starts else None
    return flow.needs if flow is not None else frozenset()


# --------------------------------------------------------------------------- commands
def _command(here: Here | None, name: str, inp: Input, data: UserData) -> Turn:
    cmd = commands.BY_NAME.get(name)
    if cmd is None:
        text = "I don't know that command. /help lists what I can do."
        return Turn(replies=(Reply(text),), state=here)
    if cmd.action is not None:
        return Turn(state=here, effects=(Command(cmd.action),))
    if cmd.starts is None:
        return _cancel(here)
    resume, effects = _leave(here, cmd.starts)
    if not cmd.resumes:
        # A deliberate clean-up: no "go back to ..." afterwards.
        if resume is not None:
            effects += FLOWS[resume.flow].keep(resume.flow_json())
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
    return _advance(BEGIN[cmd.starts](inp, data), resume, before, effects, locked=data.locked)


def _cancel(here: Here | None) -> Turn:
    """Leave every flow; what the user typed is kept."""
    effects = _keep_all(here)
    lines = [CANCELLED]
    if any(isinstance(e, SaveUnsent) for e in effects):
        lines.append(KEPT_DRAFT)
    return Turn(replies=(Reply(" ".join(lines)),), state=None, effects=tuple(effects))


_CHECKIN_TRIGGERS = ("checkin", CHECKIN_AFTER_UNSURE)


def _trigger(here: Here | None, inp: Input, data: UserData) -> Turn:
    if inp.text in _CHECKIN_TRIGGERS:
        resume, effects = _leave(here, checkin.DAILY_FLOW.name)
        started = checkin.daily_start(data, unsure=inp.text == CHECKIN_AFTER_UNSURE)
        return _advance(started, resume, (), effects, locked=data.locked)
    if inp.text == f"checkback:{wipe.WIPE_TOPIC}":
        out = wipe.wipe_when_due(data)
        return Turn(state=here, ignored=True) if out.ignored else _advance(out, None)
    if inp.text == "checkback:urge":
        resume, effects = _leave(here, urge.BACK_FLOW.name)
        return _advance(urge.checkback_start(data), resume, (), effects, locked=data.locked)
    return Turn(state=here, ignored=True)


# --------------------------------------------------------------------------- buttons
def _ignored(here: Here | None) -> Turn:
    return Turn(state=here, ignored=True)


def _choice(here: Here | None, inp: Input, data: UserData) -> Turn:
    press = unpack(inp.text, Menu)
    if press is not None and press.choice is Menu.COMMAND and press.arg in commands.BY_NAME:
        return _command(here, press.arg, inp, data)
    if press == Press(Menu.SAFE):
        words = Reply("Okay. /safety is here whenever you need it.")
        # a locked chat shows nothing of where the user was
        in_flow = here is not None and not here.offering and not data.locked
        shown = _render(here, data) if here is not None and in_flow else ()
        return Turn(replies=(words, *shown), state=here)
    if here is None:
        return _ignored(here)
    if press == Press(Menu.PIECES_DONE):
        if here.pieces is None:
            return _ignored(here)
        return _pieces_done(here, here.pieces, inp, data, [], [], [])
    if here.offering:
        resume = _inner(here)
        if press == Press(Menu.RESUME):
            return Turn(replies=_render(resume, data), state=resume)
        if press == Press(Menu.NO_RESUME):
            return Turn(replies=(Reply("Okay."),), state=None, effects=tuple(_keep_all(resume)))
        return _ignored(here)
    out = FLOWS[here.flow].step(here.flow_json(), inp, data)
    if out is None:
        return _ignored(here)
    return _advance(out, here.resume, locked=data.locked)


# --------------------------------------------------------------------------- text
def _media(here: Here | None, inp: Input, data: UserData) -> Turn:
    if here is not None and not here.offering:
        spec = FLOWS[here.flow]
        if spec.takes_media(here.flow_json()):
            return _step_media(here, spec, inp, data)
    if inp.media is not None:
        target = None if here is None or here.offering else _TAKES_MEDIA.get(here.flow)
        if here is None or here.offering or target is not None:
            return _keep_media(here, inp, data, target or "")
    if here is not None and not here.offering:
        return Turn(replies=(Reply(MEDIA_IN_FLOW), *_render(here, data)), state=here)
    return Turn(
        replies=(main_menu(data, f"{MEDIA_NO_FLOW} What would help right now?"),), state=here
    )


def _read(here: Here | None, inp: Input, data: UserData) -> Turn:
    """The words the adapter read in a picture just kept, for the media flow waiting for
    them (``media.read``)."""
    if here is None or here.offering or here.flow != media.FLOW.name:
        return _ignored(here)
    out = media.read(here.flow_json(), inp, data)
    if out is None:
        return _ignored(here)
    return _advance(out, here.resume, locked=data.locked)


def _keep_media(here: Here | None, inp: Input, data: UserData, evidence_kind: str) -> Turn:
    """A file that can be kept, outside a flow or where a message is given: offer to keep
    it (the flow it interrupted is offered again afterwards).  A caption is checked for
    danger first, like any message."""
    warned, before, effects = _caption_check(here, inp, data, "incoming", "them")
    if here is None or here.offering:
        resume = here.resume if here else None
    else:
        resume, kept = _leave(here, media.FLOW.name)
        effects += kept
    out = media.start(inp, data, evidence_kind)
    return _advance(out, resume, before, effects, warned, locked=data.locked)


def _step_media(here: Here, spec: Flow[Any], inp: Input, data: UserData) -> Turn:
    """A file (or a sticker) at a step that takes them (an incident's photos); a caption
    is the user's own words, unless it came in a forward."""
    source: Literal["user", "incoming"] = "incoming" if inp.forwarded_at else "user"
    sender: Sender = "them" if source == "incoming" else "me"
    warned, before, effects = _caption_check(here, inp, data, source, sender)
    raw = here.flow_json()
    out = spec.step(raw, inp, data)
    if out is None:
        out = Outcome(replies=(Reply(MEDIA_IN_FLOW), *_render(here, data)), state=raw)
    return _advance(out, here.resume, before, effects, warned, locked=data.locked)


def _caption_check(
    here: Here | None,
    inp: Input,
    data: UserData,
    source: Literal["user", "incoming"],
    sender: Sender,
) -> tuple[list[str], list[Reply], list[Effect]]:
    """A file's caption checked for danger first, like any message: the danger kinds
    warned about, and the safety message to show first (with its effects)."""
    warned: list[str] = list(here.warned) if here else []
    if not inp.text.strip():
        return warned, [], []
    check = analysis.check_danger(inp.text, source=source, sender=sender)
    kinds = [f.id for f in check.found]
    if not kinds:
        return warned, [], []
    marked, warning, logged = safety.danger_first(warned, kinds, data)
    return list(marked), list(warning), list(logged)


def _source(here: Here | None, inp: Input) -> Literal["user", "incoming"]:
    if inp.kind == "forward" or (here is not None and here.pieces is not None):
        return "incoming"
    if here is None or here.offering:
        return "incoming" if len(inp.text) > LONG_PASTE else "user"
    return "incoming" if here.step in FLOWS[here.flow].incoming_steps else "user"


def _sender(here: Here | None, source: str) -> Sender:
    """Who wrote the text: the user, or whoever the flow's paste step is about (the person
    they left, unless the flow says a relay)."""
    if source == "user":
        return "me"
    if here is None or here.offering:
        return "them"
    return FLOWS[here.flow].sender


def _text(here: Here | None, inp: Input, data: UserData) -> Turn:
    length = len(inp.text)
    text, cut = clip(inp.text, MAX_PASTE)
    inp = replace(inp, text=text)
    source = _source(here, inp)
    check = analysis.check_danger(text, source=source, sender=_sender(here, source))
    kinds = [f.id for f in check.found]
    before: list[Reply] = []
    effects: list[Effect] = []
    warned: list[str] = list(here.warned) if here else []
    if kinds:
        marked, warning, logged = safety.danger_first(warned, kinds, data)
        warned = list(marked)
        before += warning
        effects += logged
    elif check.possible and safety.GENTLE not in warned:
        before.append(safety.gentle_check(source, data))
        warned.append(safety.GENTLE)
    if cut:
        before.append(pieces.cut_note(length))
    if here is not None and here.pieces is not None and inp.kind == "text":
        held = here.pieces.add(text)
        if pieces.may_continue(text):
            waiting = replace(here, pieces=held, warned=tuple(warned))
            return Turn(
                replies=(*before, pieces.waiting(held)), state=waiting, effects=tuple(effects)
            )
        return _pieces_done(here, held, inp, data, before, effects, warned)
    if inp.kind == "text" and not kinds:
        pressed = _typed_button(here, inp, data)
        if pressed is not None:
            return replace(
                pressed, replies=(*before, *pressed.replies), effects=(*effects, *pressed.effects)
            )
    if here is None or here.offering:
        resume = here.resume if here else None
        if inp.kind == "forward" or len(text) > LONG_PASTE:
            return _start_incoming(inp, data, resume, before, effects, warned)
        return _advance(_outside(inp, data), resume, before, effects, warned)
    here = replace(here, warned=tuple(warned))
    spec = FLOWS[here.flow]
    if inp.kind == "text" and pieces.may_continue(text) and here.step in spec.incoming_steps:
        held = pieces.Held().add(text)
        waiting = replace(here, pieces=held)
        return Turn(replies=(*before, pieces.waiting(held)), state=waiting, effects=tuple(effects))
    raw = here.flow_json()
    takes = inp.kind != "forward" or spec.takes_forward(raw)
    out = spec.step(raw, inp, data) if takes else None
    if out is None:
        long = inp.kind == "forward" or len(text) > LONG_PASTE
        if long:
            resume, kept = _leave(here, incoming.FLOW.name)
            return _start_incoming(inp, data, resume, before, [*effects, *kept], warned)
        shown = _render(here, data)
        out = Outcome(replies=(Reply(wrong_reply(text, shown)), *shown), state=raw)
    return _advance(out, here.resume, before, effects, warned)


def _start_incoming(
    inp: Input,
    data: UserData,
    resume: Here | None,
    before: Sequence[Reply],
    effects: Sequence[Effect],
    warned: Sequence[str],
) -> Turn:
    """A forward or a long paste outside a flow: "who is it from?" - or, for what may be
    the first piece of a longer paste, the question whether more is coming."""
    out = incoming.start(inp, data)
    if inp.kind != "text" or not pieces.may_continue(inp.text):
        return _advance(out, resume, before, effects, warned)
    held = pieces.Held().add(inp.text)
    turn = _advance(replace(out, replies=(pieces.waiting(held),)), resume, before, effects, warned)
    assert turn.state is not None  # the incoming flow starts with a question
    return replace(turn, state=replace(turn.state, pieces=held))


def _pieces_done(
    here: Here,
    held: pieces.Held,
    inp: Input,
    data: UserData,
    before: Sequence[Reply],
    effects: Sequence[Effect],
    warned: Sequence[str],
) -> Turn:
    """The pieces of a long paste are all here: hand the whole to the step that asked for
    it (or to the incoming flow), saying what was kept."""
    target = replace(here, pieces=None)
    whole = replace(inp, kind="text", text=held.whole)
    note = [*before, pieces.kept_note(held)]
    if target.flow == incoming.FLOW.name:
        out = incoming.start(whole, data)
    else:
        raw = target.flow_json()
        stepped = FLOWS[target.flow].step(raw, whole, data)
        shown = _render(target, data)
        out = stepped or Outcome(replies=(Reply(wrong_reply(whole.text, shown)), *shown), state=raw)
    return _advance(out, target.resume, note, effects, [*target.warned, *warned])


def _typed_button(here: Here | None, inp: Input, data: UserData) -> Turn | None:
    """Typing a button's own words presses it (not where someone's message is pasted)."""
    if here is not None and not here.offering and here.step in FLOWS[here.flow].incoming_steps:
        return None
    value = button_named(inp.text, render(here, data))
    if value is None:
        return None
    out = _choice(here, replace(inp, kind="choice", text=value), data)
    return None if out.ignored else out


def _outside(inp: Input, data: UserData) -> Outcome:
    """Free text outside any flow (a forward or a long paste: ``_start_incoming``)."""
    return Outcome(replies=(main_menu(data, "I'm here. What would help right now?"),))

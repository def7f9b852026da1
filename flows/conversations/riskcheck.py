"""The risk check (from /safety and the safety path): a short yes/no questionnaire on the
warning signs that domestic-violence advocates' risk assessments weigh most.

It never says "you are safe".  It says plainly which answers are linked with serious
danger, puts the user's region's help lines first, and says that an advocate can help make
a plan.  Answers are kept (encrypted, in the user's settings document: ``risk_check``) so
the check can be retaken and a change since last time is shown.

Sources the items stand on (each item names its own below):
- DA: Jacquelyn C. Campbell, the Danger Assessment (dangerassessment.org), the
  instrument most used by advocates and researchers to assess the risk of intimate
  partner homicide.  Items weighted most: threats with or use of a weapon, access to a
  gun, threats to kill, strangulation, the belief that they are capable of killing you,
  separation, jealousy and control, stalking, suicide threats by the abuser, forced sex,
  violence increasing in frequency or severity.
- LAP: the Lethality Assessment Program's screen (Maryland Network Against Domestic
  Violence, lethalityassessment.org), eleven questions; a "yes" to either of the first
  three (weapon, threats to kill, "could they kill you") is on its own a sign of high danger.
- DASH: the SafeLives DASH risk checklist (safelives.org.uk), used by UK services:
  adds threats to the children, constant contact and stalking, and abuse getting worse.
- Seeds: shared/seeds, "leaving is the most dangerous time" (003), "consider whether the
  person has been physically violent, destroyed your property, monitored your
  communication, or made specific threats... work with a domestic violence advocate to
  create a safety plan" (001), threats of self-harm are common but not a reason to return
  (002).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime

from flows.choices import Choice, Press
from flows.commands import Menu
from flows.conversations.safety import resources_text
from flows.replies import button, keyboard
from flows.steps import Flow, FlowState, Result, Step, end, go, to
from flows.types import Input, Outcome, Reply, UpdateSettings, UserData


@dataclass(frozen=True)
class Item:
    id: str
    question: str
    #: what this sign means, in a line, when the answer is yes
    meaning: str
    #: on its own a sign of serious danger (LAP's first questions; DA's heaviest items)
    grave: bool = False


# Each item's comment names the assessments that weigh it (see the module docstring).
ITEMS: tuple[Item, ...] = (
    # DA (threats to kill), LAP question 2
    Item(
        "kill_threat",
        "Have they ever threatened to kill you, or the children?",
        "threats to kill",
        grave=True,
    ),
    # DA (weapon), LAP question 1
    Item(
        "weapon",
        "Have they ever used a weapon against you, or threatened you with one?",
        "a weapon used or threatened",
        grave=True,
    ),
    # DA (access to a gun), LAP question 4
    Item("gun", "Do they have a gun, or could they easily get one?", "access to a gun"),
    # DA (strangulation), LAP question 5, DASH
    Item(
        "strangle",
        "Have they ever choked or strangled you, or pressed on your neck?",
        "choking or strangling, which is one of the strongest warning signs of all",
        grave=True,
    ),
    # LAP question 3, DA (believes they are capable of killing)
    Item(
        "could_kill",
        "Do you think they could seriously hurt or kill you?",
        "your own sense that they could kill you, which advocates take very seriously",
        grave=True,
    ),
    # DA item 1 (increase in frequency or severity), DASH (abuse getting worse)
    Item(
        "worse",
        "Has the violence or the threatening got worse, or happened more often, lately?",
        "things getting worse or more frequent",
    ),
    # DA (separation), LAP question 7, seed 003 (leaving is the most dangerous time)
    Item(
        "separated",
        "Have you left them or separated in the past year?",
        "a recent separation: the time around leaving is often the most dangerous",
    ),
    # DA (stalking), LAP question 11, DASH (constant contact, stalking)
    Item(
        "stalking",
        "Do they follow or watch you, turn up where you are, or track your phone or car?",
        "following, watching or tracking you",
    ),
    # DASH (threats to the children), DA (threats to harm the children)
    Item(
        "children",
        "Have they threatened to hurt the children, or to take them?",
        "threats involving the children",
    ),
    # DA (abuser's suicide threats), LAP question 9, DASH; seed 002
    Item(
        "their_suicide",
        "Have they threatened or tried to kill themselves?",
        "threats of suicide by them, which go with a higher risk to you too",
    ),
    # DA (jealousy, control of daily activities), LAP question 6
    Item(
        "control",
        "Are they violently or constantly jealous, or do they control most of what you do?",
        "extreme jealousy or control",
    ),
    # DA (forced sex), DASH (sexual abuse)
    Item(
        "forced_sex",
        "Have they ever forced you into sex or sexual acts?",
        "sexual violence",
    ),
)
_BY_ID = {item.id: item for item in ITEMS}
#: LAP: four or more of the other signs together also call for help straight away.
MANY = 4
ANSWERS = {"y": "Yes", "n": "No", "u": "Not sure"}


class Rc(Choice):
    BEGIN = "rc.begin"
    LATER = "rc.later"
    ANSWER = "rc.ans"  # carries "y", "n" or "u"
    BACK = "rc.back"
    STOP = "rc.stop"


@dataclass(frozen=True)
class RiskState(FlowState):
    index: int = 0
    answers: tuple[str, ...] = ()  # "y" | "n" | "u", one per item answered so far


def start(inp: Input, data: UserData) -> Outcome:
    return go(FLOW, RiskState(), "intro", data)


# --------------------------------------------------------------------------- asks
def _ask_intro(state: RiskState, data: UserData) -> tuple[Reply, ...]:
    text = (
        f"A short check: {len(ITEMS)} yes-or-no questions about warning signs that "
        "domestic-violence advocates take most seriously. It can't tell you that you're "
        "safe; it can show which signs are there, so you can get the right help. You can "
        "answer “Not sure”, or stop at any time. Your answers stay encrypted here."
    )
    previous = data.settings.risk_check
    if previous is not None and previous.at:
        text += f"\n\nYou last did it on {_day(previous.at)}; I'll show what changed."
    buttons = keyboard([button("Start", Rc.BEGIN), button("Not now", Rc.LATER)])
    return (Reply(text, buttons),)


def _ask_question(state: RiskState, data: UserData) -> tuple[Reply, ...]:
    item = ITEMS[state.index]
    rows = [[button(label, Rc.ANSWER(code)) for code, label in ANSWERS.items()]]
    nav = [button("Stop here", Rc.STOP)]
    if state.index:
        nav.insert(0, button("Back", Rc.BACK))
    rows.append(nav)
    return (Reply(f"{state.index + 1} of {len(ITEMS)}. {item.question}", keyboard(*rows)),)


# --------------------------------------------------------------------------- moves
def _answer(state: RiskState, press: Press, data: UserData) -> Result:
    if press.arg not in ANSWERS:
        return None
    answers = (*state.answers[: state.index], press.arg)
    if len(answers) < len(ITEMS):
        return go(FLOW, replace(state, index=len(answers), answers=answers), "question", data)
    return _result(answers, data)


def _back(state: RiskState, press: Press, data: UserData) -> Result:
    return go(FLOW, replace(state, index=max(0, state.index - 1)), "question", data)


def _stop(state: RiskState, press: Press, data: UserData) -> Result:
    if not state.answers:
        return end(Reply("Okay. The check is here in /safety whenever you want it."))
    return _result(state.answers, data)


def _later(state: RiskState, press: Press, data: UserData) -> Result:
    return end(Reply("Okay. The check is here in /safety whenever you want it."))


def _day(iso: str) -> str:
    try:
        at = datetime.fromisoformat(iso)
    except ValueError:
        return "an earlier day"
    return f"{at.day} {at:%B %Y}"


def assess(answers: Mapping[str, str]) -> tuple[list[Item], list[Item], bool]:
    """The grave signs answered yes, the other signs answered yes, and whether the
    answers call for help straight away (any grave sign, or ``MANY`` others: LAP)."""
    grave = [i for i in ITEMS if i.grave and answers.get(i.id) == "y"]
    other = [i for i in ITEMS if not i.grave and answers.get(i.id) == "y"]
    return grave, other, bool(grave) or len(other) >= MANY


def _changes(now: Mapping[str, str], before: Mapping[str, str]) -> list[str]:
    lines = []
    for item in ITEMS:
        old, new = before.get(item.id), now.get(item.id)
        if old is None or new is None or old == new:
            continue
        if new == "y":
            lines.append(f"• New since last time: {item.meaning}.")
        elif old == "y":
            lines.append(f"• Not a yes this time: {item.meaning}.")
    return lines


def _result(answers: tuple[str, ...], data: UserData) -> Outcome:
    given = {item.id: a for item, a in zip(ITEMS, answers, strict=False)}
    grave, other, urgent = assess(given)
    unsure = [i for i in ITEMS if given.get(i.id) == "u"]
    region = data.resources.region(data.settings.region)
    # resources first
    first = [f"If you are in danger right now, call {region.emergency}."]
    if region.lines:
        first.append(f"{region.name}:\n{resources_text(region)}")
    lines = ["\n\n".join(first)]
    if urgent:
        lines.append(
            "Some of your answers are among the signs most strongly linked with serious, "
            "even life-threatening, harm:"
        )
    elif grave or other:
        lines.append("Some of your answers are warning signs advocates take seriously:")
    if grave or other:
        lines.append("\n".join(f"• {i.meaning}" for i in (*grave, *other)))
    if urgent:
        lines.append(
            "Please talk to a domestic-violence advocate soon, on one of the lines above. "
            "They can help you make a safety plan for your situation, and it is free and "
            "confidential. Keep saving what happens in /evidence."
        )
    elif grave or other:
        lines.append(
            "An advocate on one of the lines above can help you think through what these "
            "mean for you and make a plan."
        )
    else:
        lines.append(
            "You didn't answer yes to any of these signs. A check like this can't measure "
            "how safe you are, and danger can change quickly: trust your own sense of it, "
            "and an advocate is there for you too."
        )
    if unsure:
        lines.append(
            f"You weren't sure about {len(unsure)}. That's all right: an advocate can "
            "help you think those through."
        )
    previous = data.settings.risk_check
    if previous is not None and previous.answers is not None:
        changes = _changes(given, previous.answers)
        when = _day(previous.at)
        lines.append(
            f"Compared with {when}:\n" + "\n".join(changes)
            if changes
            else f"Your answers are the same as on {when}."
        )
    effects = (UpdateSettings({"risk_check": {"at": data.now.isoformat(), "answers": given}}),)
    reply = Reply(
        "\n\n".join(lines),
        keyboard([button("Safety plan and checklists", Menu.COMMAND("safety"))]),
        protect=True,
    )
    return end(reply, effects=effects)


# --------------------------------------------------------------------------- the flow
FLOW: Flow[RiskState] = Flow(
    name="riskcheck",
    title="the risk check",
    state=RiskState,
    choices=Rc,
    steps={
        "intro": Step(_ask_intro, on={Rc.BEGIN: to("question"), Rc.LATER: _later}),
        "question": Step(_ask_question, on={Rc.ANSWER: _answer, Rc.BACK: _back, Rc.STOP: _stop}),
    },
    resumable=True,
)

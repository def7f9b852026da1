"""Ask the person, and the safety path.

No detector understands every veiled threat; the person does ("nice curtains" means he has
been at the new flat).  So wherever someone's message comes in (/hoover, /monkey, a forward,
the check-in's "they reached out") the flow asks once whether it frightens them.  "Yes" or
"Not sure" takes the safety path whatever the detector said, and the answer is kept with the
saved message, where the escalation watch counts it.

The safety path is more than a list of numbers: the region's help lines first (a crisis line
first when the danger is self-harm), then the support person, saving the message as
evidence, the safety-plan checklists and the risk check.  The flows own the steps; this
module holds the words and buttons they share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from flows.choices import Choice
from flows.commands import Menu
from flows.conversations.safety import resources_text
from flows.replies import button, keyboard, short
from flows.types import Reply, UserData


class Fear(Choice):
    YES = "fr.yes"
    UNSURE = "fr.unsure"
    NO = "fr.no"


#: What is stored with the saved message.
FELT: dict[Fear, str] = {Fear.YES: "yes", Fear.UNSURE: "unsure", Fear.NO: "no"}


class Path(Choice):
    SUPPORT = "sp.support"
    SAVE = "sp.save"
    ON = "sp.on"


class Watched(Protocol):
    """A flow state that asks the fear question (hoover, monkey)."""

    @property
    def danger(self) -> tuple[str, ...]: ...
    @property
    def warned(self) -> tuple[str, ...]: ...
    @property
    def felt(self) -> str | None: ...
    @property
    def saved(self) -> bool: ...


def in_danger(state: Watched) -> bool:
    """The detector found danger, or the person said the message frightens them."""
    return bool(state.danger) or afraid(state.felt)


def ask_fear(state: Watched, data: UserData) -> tuple[Reply, ...]:
    """The "fear" step of a flow."""
    return (fear_question(),)


def ask_path(state: Watched, data: UserData) -> tuple[Reply, ...]:
    """The "path" step of a flow: the safety path (the help lines only if the safety
    message with them was not just shown)."""
    warned = bool(set(state.danger) & set(state.warned))
    return path_replies(state.danger, state.felt, data, saved=state.saved, warned=warned)


def fear_question() -> Reply:
    text = (
        "Does this message frighten you, or make you worry about your safety or the "
        "children's? You know them; your answer counts as much as anything I can spot."
    )
    buttons = keyboard(
        [button("Yes", Fear.YES), button("No", Fear.NO), button("Not sure", Fear.UNSURE)]
    )
    return Reply(text, buttons)


def afraid(felt: str | None) -> bool:
    return felt in ("yes", "unsure")


def path_replies(
    kinds: Sequence[str], felt: str | None, data: UserData, *, saved: bool, warned: bool
) -> tuple[Reply, ...]:
    """The safety path: help lines first (unless the safety message with them was just
    shown), then what else can help, as buttons."""
    region = data.resources.region(data.settings.region)
    lines: list[str] = []
    if afraid(felt) and not kinds:
        lines.append(
            "Thank you for telling me. Trust that feeling: you know what their words can "
            "mean better than anyone."
        )
    elif afraid(felt):
        lines.append("Thank you for telling me. What you feel and what I noticed agree.")
    if warned:
        lines.append("The numbers above are there for you, day and night.")
    else:
        lines.append(f"If you are in danger right now, call {region.emergency}.")
        if region.lines:
            # a crisis line first when the danger is self-harm
            lines.append(f"{region.name}:\n{resources_text(region, kinds)}")
    lines.append(
        "An advocate can help you plan for your situation. Here is what else can help now:"
    )
    rows = []
    if data.support is not None:
        rows.append([button(f"Reach {short(data.support.name, 30)}", Path.SUPPORT)])
    if not saved:
        rows.append([button("Save it as evidence", Path.SAVE)])
    rows.append([button("Safety plan checklists", Menu.COMMAND("safety"))])
    rows.append([button("Risk check", Menu.COMMAND("riskcheck"))])
    rows.append([button("Continue", Path.ON)])
    return (Reply("\n\n".join(lines), keyboard(*rows)),)


def safety_line(data: UserData) -> str:
    """One line for a flow that goes on after danger: it must not carry on as if nothing
    happened."""
    region = data.resources.region(data.settings.region)
    return (
        f"If they turn up, or you feel in danger, call {region.emergency}. Keep saving "
        "what they send; /safety has the rest."
    )


def support_reply(data: UserData) -> Reply:
    if data.support is None:
        return Reply("You haven't added a support person yet.")
    how = f" ({short(data.support.how, 80)})" if data.support.how else ""
    return Reply(
        f"You could reach {short(data.support.name, 30)} now{how}. You don't have to "
        "explain everything: “Can you call me?” is enough."
    )

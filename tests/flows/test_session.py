"""The per-user session and settings as stored by an earlier version still load."""

from __future__ import annotations

from flows import router
from flows.choices import pack
from flows.conversations.pinlock import Lock
from flows.conversations.urge import Ur
from flows.session import Here, Session
from flows.settings import CheckinSchedule, SupportPerson, UserSettings
from tests.flows.conftest import NOW, FakeStore, values

#: A session as the previous version stored it: the router's keys inside the flow's
#: dict, no "lock" yet.
OLD_SESSION: dict[str, object] = {
    "seq": 12,
    "flow": {
        "flow": "urge",
        "step": "pull",
        "warned": ["violence"],
        "resume": {"flow": "evidence", "step": "list", "ids": []},
    },
}


def test_an_old_session_loads_with_its_flow_what_it_interrupted_and_the_warnings() -> None:
    session = Session.from_json(OLD_SESSION)
    assert session.seq == 12 and session.lock == Lock()
    here = session.here
    assert here is not None and here.flow == "urge" and here.step == "pull"
    assert here.warned == ("violence",)
    assert here.resume is not None and here.resume.flow == "evidence"
    # and it is written back in the same shape
    assert session.to_json() == {**OLD_SESSION, "lock": Lock().to_json()}
    # the user sees the step they were at
    shown = router.render(here, FakeStore().data(NOW))
    assert pack(Ur.PULL("anger")) in values(shown)


def test_a_session_that_does_not_read_starts_afresh() -> None:
    assert Session.from_json(None) == Session()
    broken = Session.from_json({"seq": "x", "flow": "urge", "lock": 5})
    assert broken.seq == 0 and broken.here is None and broken.lock == Lock()
    assert Here.from_json({"step": "pull"}) is None
    # a flow this version does not have any more: the main menu
    gone = Here.from_json({"flow": "gone", "step": "a"})
    assert gone is not None and router.render(gone, FakeStore().data(NOW)) == router.render(
        None, FakeStore().data(NOW)
    )


def test_old_settings_load_with_defaults_for_what_is_missing() -> None:
    assert UserSettings.from_json({}).discreet is True  # discreet unless turned off
    old = UserSettings.from_json(
        {
            "discreet": False,
            "checkin": {"time": "08:30", "tz": "Europe/London"},  # no days: every day
            "support": {"name": "Priya"},  # no "how" yet
            "urge_pending": {"pull": "anger"},
            "safety_done": ["doc_meds", 3],
            "autodelete_minutes": "60",  # not a number: off
            "favourite_colour": "green",  # unknown to this version
        }
    )
    assert old.discreet is False
    assert old.checkin == CheckinSchedule("08:30", "Europe/London", (0, 1, 2, 3, 4, 5, 6))
    assert old.support == SupportPerson("Priya", "")
    assert old.urge_pending == "anger" and old.safety_done == ("doc_meds",)
    assert old.autodelete_minutes == 0 and old.pin is None and old.region is None
    # unknown keys are kept, and a patch changes only what it names
    patched = old.patched({"discreet": True})
    assert patched.discreet is True and patched.to_json()["favourite_colour"] == "green"
    assert patched.support == old.support

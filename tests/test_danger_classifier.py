"""The trained danger classifier (flows/analysis/classifier.py) behind the rules.  These
tests are about it alone, so the learned model (learned.py, OR'ed in by default) is off."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from flows.analysis import check_danger, detect_danger
from flows.analysis.classifier import Model, classify, load_model
from flows.analysis.normalize import normalize
from flows.types import DANGER_KINDS

SHIPPED = Path(__file__).resolve().parent.parent / "flows/analysis/data/danger_model.json"

#: Danger no rule names, that the classifier finds (the user's own words).  ("I have
#: nothing left, I've sorted the pills", "I've got enough tablets saved now" and "I've
#: still got bruises on my arms from Saturday" were ones until the rules learnt them.)
MISSED_BY_RULES = (
    (
        "I keep thinking I should just disappear. Not run away. I mean properly disappear",
        "self_harm_user",
    ),
    ("he knows where the kids go to school now", "child_safety"),
)


def test_model_loads_from_the_package_data() -> None:
    resource = resources.files("flows.analysis").joinpath("data/danger_model.json")
    assert resource.is_file()
    assert len(resource.read_bytes()) < 1_000_000
    model = load_model()
    assert model.kinds == DANGER_KINDS
    assert len(model.weights) > 500
    assert load_model() is model  # read once


@pytest.mark.parametrize(("text", "kind"), MISSED_BY_RULES)
def test_classifier_finds_what_the_rules_miss(text: str, kind: str) -> None:
    assert detect_danger(text, "user", model=None, learned=None) == ()
    found = detect_danger(text, "user", learned=None)
    assert [f.id for f in found] == [kind]


@pytest.mark.parametrize(("text", "kind"), MISSED_BY_RULES)
def test_a_classifier_finding_is_explained_with_the_users_own_words(text: str, kind: str) -> None:
    (finding,) = detect_danger(text, "user", learned=None)
    assert finding.phrases and len(finding.phrases) <= 3
    assert all(phrase and phrase in text for phrase in finding.phrases)
    assert finding.why.startswith(f"Words like “{finding.phrases[0]}”")


def test_phrases_are_cut_from_the_original_text_after_normalisation() -> None:
    text = "He put his HANDS on me agaaain last nite, ur next he said"
    found = detect_danger(text, "user", learned=None)
    assert found
    for finding in found:
        assert all(phrase in text for phrase in finding.phrases)


def test_an_incoming_message_is_never_the_users_own_self_harm() -> None:
    model = load_model()
    text = "I've got enough tablets saved now"
    ids = [f.id for f in classify(model, normalize(text), "incoming")]
    assert "self_harm_user" not in ids
    assert [f.id for f in detect_danger(text, "incoming", learned=None)] == ["self_harm_them"]


@pytest.mark.parametrize(
    "text",
    [
        "this commute is killing me",
        "he said he'd never hurt me",
        "I'm so tired I could sleep forever",
        "Stick to your guns",
    ],
)
def test_what_the_rules_clear_stays_clear(text: str) -> None:
    assert detect_danger(text, "user", learned=None) == ()
    assert detect_danger(text, "incoming", learned=None) == ()


def test_a_confident_model_can_overrule_a_cleared_idiom() -> None:
    text = "this commute is killing me"
    model = load_model()
    sure = Model(
        model.kinds,
        model.bias,
        model.weights,
        thresholds=(-100.0,) * len(model.kinds),
        confident=(-50.0,) * len(model.kinds),
        gentle=(-100.0,) * len(model.kinds),
    )
    assert detect_danger(text, "user", model=sure, learned=None) != ()
    assert detect_danger(text, "user", learned=None) == ()


# --------------------------------------------------------------------------- gentle tier
#: Below the classifier's threshold but over its gentle one: worth "are you safe?".
LEANING = (
    ("the bottle of vodka and the tablets are on the side", "user"),
    ("you'll regret leaving me", "incoming"),
)


@pytest.mark.parametrize(("text", "source"), LEANING)
def test_a_text_that_leans_towards_danger_is_worth_a_gentle_question(
    text: str, source: str
) -> None:
    check = check_danger(text, source, learned=None)  # type: ignore[arg-type]
    assert check.found == ()
    assert check.possible
    assert detect_danger(text, source, learned=None) == ()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "Can you bring the school forms on Tuesday?",
        "this commute is killing me",
        "he said he'd never hurt me",
        "had a lovely walk with the dog today",
    ],
)
def test_ordinary_texts_get_no_gentle_question(text: str) -> None:
    assert check_danger(text, "user", learned=None).possible == ()
    assert check_danger(text, "incoming", learned=None).possible == ()


def test_found_danger_is_never_also_a_gentle_question() -> None:
    check = check_danger("he said he will kill me tonight", "user", learned=None)
    assert [f.id for f in check.found] == ["violence"]
    assert check.possible == ()


def test_the_gentle_threshold_is_never_above_the_finding_threshold() -> None:
    model = load_model()
    assert all(g <= t for g, t in zip(model.gentle, model.thresholds, strict=True))
    assert any(g < t for g, t in zip(model.gentle, model.thresholds, strict=True))


def test_a_long_ordinary_text_does_not_add_up_to_danger() -> None:
    line = "Can you bring the school forms on Tuesday? The car is at the garage until then. "
    text = line * (100_000 // len(line))
    assert detect_danger(text, "incoming", learned=None) == ()


@pytest.mark.slow
@pytest.mark.timeout(900)  # retrains the classifier: about a minute of CPU, more on a busy machine
def test_training_is_deterministic_and_the_shipped_model_is_up_to_date() -> None:
    from bench import train_danger

    trained = json.loads(train_danger.dump(train_danger.train()))
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    # the same model, to the rounding of its last printed digit: float sums over the
    # features may be added in another order from one process to the next
    assert _differences(trained, shipped) == []


def _differences(a: object, b: object, at: str = "") -> list[str]:
    """Where two JSON documents differ: structure and words exactly, numbers by more
    than 0.001 (the model prints 4 decimals)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{at}: keys {sorted(a.keys() ^ b.keys())[:5]}"]
        return [d for k in a for d in _differences(a[k], b[k], f"{at}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{at}: {len(a)} items, shipped {len(b)}"]
        return [d for n, (x, y) in enumerate(zip(a, b, strict=True))
                for d in _differences(x, y, f"{at}[{n}]")]  # fmt: skip
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return [] if abs(a - b) <= 1e-3 else [f"{at}: {a} != {b}"]
    return [] if a == b else [f"{at}: {a!r} != {b!r}"]

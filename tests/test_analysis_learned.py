"""The learned model's fast scoring (word by word, with remembered words) gives the same
logits as the plain definition of its features (``feature_list`` and ``weigh``, which
training uses), and explains a finding with words of the text."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from flows.analysis.danger import check_danger
from flows.analysis.learned import (
    WINDOW,
    Model,
    Sender,
    _windows,
    closed,
    feature_list,
    load_model,
    pack,
    score,
    tokens,
    unpack,
    weigh,
)

TEXTS = (
    "I know where you live now. Don't think you can hide from me.",
    "im soooo sorry babe 😭 pleeease come home, the kids miss you",
    "shame about your tyres, these things happen",
    "K.",
    "",
    "a-b c’d 12:30!! 😭😭",
    # long enough for several windows
    " ".join(f"word{i % 37} and the car outside at {i}" for i in range(60)),
    # several windows of whole sentences, some ended by a line break
    " ".join(f"The car was outside at {i}. I know you saw it?!\nword{i}" for i in range(30)),
)


def _reference(model: Model, text: str, sender: Sender | None) -> list[float]:
    toks = tokens(text)
    if sum(1 for t in toks if t.is_word) < 2:
        return list(model.intercept)
    best = [-math.inf] * len(model.labels)
    for lo, hi in _windows(toks, text):
        values = weigh(Counter(feature_list(toks[lo:hi], sender)), model.idf)
        logits = list(model.intercept)
        for feature, v in values.items():
            # the model keeps each weight times its idf (Model.weights): the weight is that
            # over the idf
            for index, weighed in enumerate(model.weights(feature) or ()):
                logits[index] += v * weighed / model.idf[feature]
        best = [max(a, b) for a, b in zip(best, logits, strict=True)]
    return best


@pytest.mark.parametrize("sender", ["them", "relay", "other", "me", None])
def test_fast_scoring_equals_the_definition(sender: Sender | None) -> None:
    model = load_model()
    assert model is not None
    for text in TEXTS:
        fast = [s.logit for s in score(model, text, sender)]
        assert fast == pytest.approx(_reference(model, text, sender), abs=1e-9), text


def test_remembered_words_do_not_change_a_score() -> None:
    model = load_model()
    assert model is not None
    text = TEXTS[0]
    first = [s.logit for s in score(model, text, "them")]
    model.words.clear()
    assert [s.logit for s in score(model, text, "them")] == first


def test_a_finding_quotes_words_of_the_text() -> None:
    model = load_model()
    assert model is not None
    text = "I've still got the key to your new place, I let myself in while you were at work"
    found = [s for s in score(model, text, "them") if s.found]
    assert found
    for s in found:
        assert s.spans
        for a, b in s.spans:
            assert text[a:b].strip() and a < b


def _doc(coef: dict[str, str]) -> dict[str, object]:
    return {
        "labels": ["violence", "danger"],
        "idf": {"w:key": 2.0},
        "coef": coef,
        "intercept": [0.0, 0.0],
        "threshold": [1.0, 1.0],
    }


def test_the_model_file_is_read_into_weights_times_idf() -> None:
    model = Model.from_json(_doc({"w:key": "0:0.5,1:-0.25"}))
    assert model.weights("w:key") == [1.0, -0.5]


def test_a_model_file_naming_a_label_it_does_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match="label"):
        Model.from_json(_doc({"w:key": "0:0.5,2:1.0"}))


def test_the_shipped_model_knows_a_run_of_words_only_with_its_shorter_runs() -> None:
    # the scorer looks a run up only where both shorter runs in it are known
    model = load_model()
    assert model is not None and closed(model.idf)
    assert not closed({"w:key": 2.0, "w:key under": 1.5})
    assert not closed({"w:key": 2.0, "s:them|w:key under": 1.5, "s:them|w:key": 1.0})


def test_packed_weights_add_up_label_by_label() -> None:
    vectors = [[0.5, -1.25, 3.0], [-0.75, 2.0, -3.5], [0.0, -0.001, 100.0]] * 50
    total = sum(pack(enumerate(v)) for v in vectors)
    assert unpack(total, 3) == pytest.approx(
        [sum(c) for c in zip(*vectors, strict=True)], abs=1e-10
    )


def test_a_model_file_with_a_weight_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="range"):
        Model.from_json(_doc({"w:key": "0:200.0"}))  # times its idf (2.0): 400


_LETTER = (
    "Hi, I hope you are keeping well. Mum says her garden is looking lovely this year and "
    "the tomatoes finally came through after all that rain. Work has been busy, we had the "
    "inspection on Tuesday and it went fine in the end, nobody got shouted at for once. The "
    "dog is still limping a bit but the vet says it is only a sprain and he should be "
    "running about again in a week or two. {threat} Anyway, I have started going to the gym "
    "again and my knee is holding up so far. Your cousin rang about the christening, it is "
    "the second Sunday of next month at eleven and there will be food at the hall "
    "afterwards. I finished that book you left behind, the ending was a bit daft but I "
    "enjoyed it. The weather here has turned cold so I have finally put the heating on."
)


@pytest.mark.parametrize(
    "threat",
    [
        pytest.param(
            "Shame about your tyres, these things happen.",
            marks=pytest.mark.xfail(
                strict=True,
                reason="stalking is lost: its group of sentences starts with the limping dog "
                "(violence is still found: the next test)",
            ),
        ),
        "I've still got the key to your new place.",
        "It would be a pity if something happened to that new car of yours.",
    ],
)
def test_a_veiled_threat_in_a_long_ordinary_letter_is_read_as_if_alone(threat: str) -> None:
    # a long message is read in groups of sentences about as long as the messages the model
    # learned from, so the rest of the letter does not drown the threat
    letter = _LETTER.format(threat=threat)
    assert len(letter) > 750 and sum(t.is_word for t in tokens(letter)) > 140
    alone = {f.id for f in check_danger(threat, "incoming", sender="them").found}
    assert alone
    found = {f.id for f in check_danger(letter, "incoming", sender="them").found}
    assert alone <= found
    assert not check_danger(_LETTER.format(threat=""), "incoming", sender="them").found


@pytest.mark.parametrize(
    "threat",
    [
        "Shame about your tyres, these things happen.",
        "I've still got the key to your new place.",
        "It would be a pity if something happened to that new car of yours.",
    ],
)
def test_a_veiled_threat_in_a_long_ordinary_letter_is_still_danger(threat: str) -> None:
    letter = _LETTER.format(threat=threat)
    alone = {f.id for f in check_danger(threat, "incoming", sender="them").found}
    found = {f.id for f in check_danger(letter, "incoming", sender="them").found}
    assert alone & found


def test_a_long_text_is_read_in_whole_sentences() -> None:
    sentence = "We had a lovely walk by the river and the dog chased the ducks again. "
    text = sentence * 12
    toks = tokens(text)
    windows = _windows(toks, text)
    assert len(windows) > 1
    for lo, hi in windows:
        assert sum(t.is_word for t in toks[lo:hi]) <= WINDOW
        assert toks[hi - 1].text == "."  # a group ends where a sentence does
    # together they cover every word once
    assert [i for lo, hi in windows for i in range(lo, hi)] == list(range(len(toks)))
    # a long sentence with no full stop is read in overlapping windows of its own
    rambling = " ".join(f"word{i}" for i in range(3 * WINDOW))
    spans = _windows(tokens(rambling), rambling)
    assert len(spans) > 3 and spans[1][0] < spans[0][1]

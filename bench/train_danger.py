"""Train the danger classifier (flows/analysis/classifier.py) and write its model.

Run from the repository root:  python bench/train_danger.py [--out PATH]

Trains one-vs-rest logistic regression (plain Python, deterministic) on
tests/data/labelled_messages.jsonl + blind_a, b, c and d, picks a threshold per kind
by 5-fold cross-validation on those same sets (never on blind_e), and writes
flows/analysis/data/danger_model.json: the weights, the thresholds and the
cross-validated figures.  blind_e is only scored on request (--blind-e), totals only:
its texts and errors are never printed.

Thresholds: starting from "nothing flagged", the per-kind thresholds are lowered one
step at a time, always taking the step that finds the most dangerous messages per
ordinary message newly flagged, for as long as the out-of-fold false-positive rate (any
kind flagged on a message without danger) stays within a budget.  The largest budget
whose out-of-fold figures (classifier alone, and rules + classifier) stay within
FP_TARGET is kept.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flows.analysis.classifier import Model, message_features, score  # noqa: E402
from flows.analysis.danger import Source, check_danger, detect_danger  # noqa: E402
from flows.analysis.metrics import Counts, Report, evaluate, load_rows, rules_only  # noqa: E402
from flows.analysis.normalize import normalize  # noqa: E402
from flows.types import DANGER_KINDS  # noqa: E402

DATA = ROOT / "tests" / "data"
TRAIN_FILES = (
    "labelled_messages.jsonl",
    "blind_a.jsonl",
    "blind_b.jsonl",
    "blind_c.jsonl",
    "blind_d.jsonl",
)
BLIND = DATA / "blind_e.jsonl"
OUT = ROOT / "flows" / "analysis" / "data" / "danger_model.json"

FOLDS = 5
EPOCHS = 40
RATE = 0.5  # AdaGrad step size
L2 = 1e-3  # per example and step
MIN_COUNT = 2  # a word or bigram must occur in this many training messages
#: Out-of-fold false-positive rate (any kind flagged on a message without danger) the
#: thresholds may reach, for the classifier alone AND for rules + classifier: the rules'
#: idiom lists were tuned on these very sets, so the combined figure alone flatters.
#: The product allows 0.05.  On blind_b (before it was trained on) the false-positive
#: rate came out about twice the out-of-fold figure (0.064 against 0.029), and the rules
#: add their own there, so the classifier gets 0.02.
FP_TARGET = 0.02
#: Budgets tried for the greedy threshold search (on the classifier's raw out-of-fold
#: scores), smallest first; the largest whose combined figure stays within FP_TARGET wins.
BUDGETS = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05)
#: The gentle tier: out-of-fold share of ordinary messages (no danger) that may get the
#: gentle "are you safe?" line.  It costs an ordinary message one extra sentence; a
#: missed danger costs far more.
GENTLE_FP = 0.10
#: When the rules cleared something (idiom, negation) or already found danger, the score
#: must be this much above the threshold (and above every out-of-fold false alarm).
CONFIDENT_MARGIN = 6.0
NEVER = 1e9  # the threshold of a kind the classifier never flags
DIGITS = 4  # weights are rounded: a smaller file, and the same bytes on every machine


@dataclass(frozen=True)
class Example:
    text: str  # original
    source: Source
    features: frozenset[str]
    labels: frozenset[str]


def examples(rows: Sequence[dict[str, Any]]) -> list[Example]:
    return [
        Example(
            r["text"],
            r["source"],
            frozenset(message_features(normalize(r["text"]).text, r["source"])),
            frozenset(r["danger"]),
        )
        for r in rows
    ]


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def fit(train: Sequence[Example], kinds: Sequence[str] = DANGER_KINDS) -> Model:
    """One-vs-rest logistic regression by AdaGrad, L2-regularised; same data, same model."""
    counts: dict[str, int] = {}
    for ex in train:
        for name in ex.features:
            counts[name] = counts.get(name, 0) + 1
    vocab = sorted(n for n, c in counts.items() if c >= MIN_COUNT or n.startswith(("x:", "s:")))
    index = {n: i for i, n in enumerate(vocab)}
    rows = [(sorted(index[n] for n in ex.features if n in index), ex.labels) for ex in train]
    n = len(kinds)
    weights = [[0.0] * n for _ in vocab]
    squares = [[1e-8] * n for _ in vocab]
    bias = [0.0] * n
    bias_squares = [1e-8] * n
    order = list(range(len(rows)))
    rng = random.Random(20240601)
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for i in order:
            feats, labels = rows[i]
            for k, kind in enumerate(kinds):
                z = bias[k] + sum(weights[f][k] for f in feats)
                g = _sigmoid(z) - (1.0 if kind in labels else 0.0)
                bias_squares[k] += g * g
                bias[k] -= RATE * g / math.sqrt(bias_squares[k])
                for f in feats:
                    grad = g + L2 * weights[f][k]
                    squares[f][k] += grad * grad
                    weights[f][k] -= RATE * grad / math.sqrt(squares[f][k])
    kept = {
        vocab[f]: tuple(round(w, DIGITS) for w in weights[f])
        for f in range(len(vocab))
        if any(abs(w) >= 10**-DIGITS for w in weights[f])
    }
    return Model(
        kinds=tuple(kinds),
        bias=tuple(round(b, DIGITS) for b in bias),
        weights=kept,
        thresholds=(NEVER,) * n,
        confident=(NEVER,) * n,
        gentle=(NEVER,) * n,
    )


def folds(data: Sequence[Example]) -> list[int]:
    """A deterministic stratified fold per example (by its first danger kind, or none)."""
    out = [0] * len(data)
    seen: dict[str, int] = {}
    for i, ex in enumerate(data):
        key = min(ex.labels) if ex.labels else ""
        out[i] = seen.get(key, 0) % FOLDS
        seen[key] = seen.get(key, 0) + 1
    return out


def with_thresholds(
    model: Model,
    thresholds: Sequence[float],
    confident: Sequence[float],
    gentle: Sequence[float] | None = None,
) -> Model:
    return Model(
        kinds=model.kinds,
        bias=model.bias,
        weights=model.weights,
        thresholds=tuple(thresholds),
        confident=tuple(confident),
        gentle=tuple(thresholds if gentle is None else gentle),
    )


def choose_gentle(
    data: Sequence[Example], scores: Sequence[Sequence[float]], thresholds: Sequence[float]
) -> list[float]:
    """The gentle thresholds: the greedy search at GENTLE_FP, never above the thresholds."""
    gentle = choose_thresholds(data, scores, DANGER_KINDS, GENTLE_FP)
    return [min(g, t) for g, t in zip(gentle, thresholds, strict=True)]


def gentle_figures(reports: Sequence[tuple[Report, int, int]]) -> dict[str, float]:
    """Out-of-fold: the share of danger messages that get the safety message or the
    gentle line, and the share of ordinary messages that get the gentle line."""
    danger = sum(r.danger_messages for r, _, _ in reports)
    covered = sum(r.danger_flagged for r, _, _ in reports) + sum(c for _, c, _ in reports)
    safe = sum(r.safe_messages for r, _, _ in reports)
    asked = sum(a for _, _, a in reports)
    return {
        "covered": round(covered / danger, 3) if danger else 1.0,
        "asked": round(asked / safe, 3) if safe else 0.0,
    }


def choose_confident(
    data: Sequence[Example], scores: Sequence[Sequence[float]], thresholds: Sequence[float]
) -> list[float]:
    """Per kind: above every out-of-fold score of a message without that kind, and at
    least CONFIDENT_MARGIN above the threshold."""
    out: list[float] = []
    for k, kind in enumerate(DANGER_KINDS):
        others = [scores[i][k] for i, ex in enumerate(data) if kind not in ex.labels]
        top = max((s for s in others if s > -NEVER), default=-NEVER)
        out.append(round(max(thresholds[k] + CONFIDENT_MARGIN, top + 0.1), DIGITS))
    return out


def choose_thresholds(
    data: Sequence[Example],
    scores: Sequence[Sequence[float]],
    kinds: Sequence[str],
    rate: float,
) -> list[float]:
    """Greedy per-kind thresholds on out-of-fold scores (see the module docstring)."""
    safe = [i for i, ex in enumerate(data) if not ex.labels]
    budget = int(rate * len(safe))
    # per kind: every example's score, highest first
    ranked = [sorted(range(len(data)), key=lambda i: (-scores[i][k], i)) for k in range(len(kinds))]
    depth = [0] * len(kinds)  # how many of the ranked examples are flagged
    flagged_safe: set[int] = set()
    while True:
        best: tuple[float, int, int] | None = None  # (-gain per cost, kind, new depth)
        for k, kind in enumerate(kinds):
            new_safe: set[int] = set()
            gain = 0
            for d in range(depth[k], len(data)):
                i = ranked[k][d]
                if kind in data[i].labels:
                    gain += 1
                    if len(flagged_safe) + len(new_safe) <= budget:
                        value = gain / (len(new_safe) + 0.5)
                        if best is None or (-value, k, d + 1) < best:
                            best = (-value, k, d + 1)
                elif not data[i].labels and i not in flagged_safe:
                    new_safe.add(i)
                    if len(flagged_safe) + len(new_safe) > budget:
                        break
        if best is None:
            break
        _, k, new_depth = best
        for d in range(depth[k], new_depth):
            i = ranked[k][d]
            if not data[i].labels:
                flagged_safe.add(i)
        depth[k] = new_depth
    out: list[float] = []
    for k in range(len(kinds)):
        if depth[k] == 0:
            out.append(NEVER)
            continue
        last = scores[ranked[k][depth[k] - 1]][k]
        below = scores[ranked[k][depth[k]]][k] if depth[k] < len(data) else last - 1.0
        out.append(round((last + below) / 2, DIGITS))
    return out


def _merge(reports: Sequence[Report]) -> Report:
    def counts(name: str) -> dict[str, Counts]:
        out: dict[str, Counts] = {}
        for r in reports:
            for kind, c in getattr(r, name).items():
                o = out.get(kind, Counts())
                out[kind] = Counts(o.tp + c.tp, o.fp + c.fp, o.fn + c.fn)
        return out

    return Report(
        messages=sum(r.messages for r in reports),
        tactics=counts("tactics"),
        danger=counts("danger"),
        safe_messages=sum(r.safe_messages for r in reports),
        safe_flagged=sum(r.safe_flagged for r in reports),
        danger_messages=sum(r.danger_messages for r in reports),
        danger_flagged=sum(r.danger_flagged for r in reports),
    )


def figures(report: Report) -> dict[str, float]:
    return {
        "recall": round(report.danger_recall, 3),
        "fp": round(report.danger_false_positive_rate, 3),
        "precision": round(report.danger_micro.precision, 3),
    }


def _rows_of(data: Sequence[Example]) -> list[dict[str, Any]]:
    return [
        {"text": ex.text, "source": ex.source, "danger": sorted(ex.labels), "tactics": []}
        for ex in data
    ]


def cross_validate(
    data: Sequence[Example],
) -> tuple[list[float], list[float], list[float], dict[str, Any]]:
    """Out-of-fold thresholds and figures (rules only, classifier only, combined)."""
    kinds = DANGER_KINDS
    fold_of = folds(data)
    models: list[Model] = []
    scores: list[list[float]] = [[0.0] * len(kinds) for _ in data]
    for fold in range(FOLDS):
        model = fit([ex for ex, f in zip(data, fold_of, strict=True) if f != fold])
        models.append(model)
        for i, ex in enumerate(data):
            if fold_of[i] == fold:
                text = normalize(ex.text).text
                for s in score(model, text, ex.source):
                    theirs = s.kind == "self_harm_user" and ex.source == "incoming"
                    effective = -NEVER if theirs else max(s.effective, -NEVER)
                    scores[i][kinds.index(s.kind)] = effective
    chosen: tuple[list[float], list[float], list[float], dict[str, Any]] | None = None
    for budget in BUDGETS:
        thresholds = choose_thresholds(data, scores, kinds, budget)
        confident = choose_confident(data, scores, thresholds)
        gentle = choose_gentle(data, scores, thresholds)
        per_mode: dict[str, list[Report]] = {"rules": [], "classifier": [], "combined": []}
        gentle_reports: list[tuple[Report, int, int]] = []
        for fold in range(FOLDS):
            model = with_thresholds(models[fold], thresholds, confident, gentle)
            rows = _rows_of([ex for ex, f in zip(data, fold_of, strict=True) if f == fold])
            per_mode["rules"].append(evaluate(rows, rules_only, tactics_too=False))
            per_mode["classifier"].append(evaluate(rows, _classifier_only(model), False))
            combined = evaluate(rows, _combined(model), tactics_too=False)
            per_mode["combined"].append(combined)
            gentle_reports.append((combined, *gentle_counts(rows, model)))
        cv: dict[str, Any] = {mode: figures(_merge(r)) for mode, r in per_mode.items()}
        cv["gentle"] = gentle_figures(gentle_reports)
        if chosen is not None and max(cv["classifier"]["fp"], cv["combined"]["fp"]) > FP_TARGET:
            break
        chosen = (thresholds, confident, gentle, cv)
    assert chosen is not None
    return chosen


def gentle_counts(rows: Sequence[dict[str, Any]], model: Model) -> tuple[int, int]:
    """(danger messages with no finding that get the gentle line, ordinary messages that
    get it)."""
    covered = asked = 0
    for row in rows:
        if check_danger(row["text"], row["source"], model=model, learned=None).possible:
            if row["danger"]:
                covered += 1
            else:
                asked += 1
    return covered, asked


def _combined(model: Model) -> Any:
    def detect(text: str, source: Source) -> tuple[Any, ...]:
        return detect_danger(text, source, model=model, learned=None)

    return detect


def _classifier_only(model: Model) -> Any:
    from flows.analysis.classifier import classify

    def detect(text: str, source: Source) -> tuple[Any, ...]:
        return tuple(classify(model, normalize(text), source))

    return detect


def train() -> dict[str, Any]:
    """The whole model file's content (deterministic)."""
    rows = [row for name in TRAIN_FILES for row in load_rows(DATA / name)]
    data = examples(rows)
    thresholds, confident, gentle, cv = cross_validate(data)
    model = with_thresholds(fit(data), thresholds, confident, gentle)
    digest = hashlib.sha256()
    for name in TRAIN_FILES:
        digest.update((DATA / name).read_bytes())
    return {
        "about": (
            "Danger classifier for flows/analysis/classifier.py, written by "
            "bench/train_danger.py: logistic regression per kind; thresholds and figures "
            f"from {FOLDS}-fold cross-validation on the training sets."
        ),
        "trained_on": list(TRAIN_FILES),
        "data_sha256": digest.hexdigest(),
        "cross_validated": cv,
        "model": model.to_json(),
    }


def blind_figures(model: Model) -> dict[str, dict[str, float]]:
    """blind_e totals only (never trained or tuned on; texts and errors never shown)."""
    rows = load_rows(BLIND)
    combined = evaluate(rows, _combined(model), tactics_too=False)
    return {
        "rules": figures(evaluate(rows, rules_only, tactics_too=False)),
        "classifier": figures(evaluate(rows, _classifier_only(model), tactics_too=False)),
        "combined": figures(combined),
        "gentle": gentle_figures([(combined, *gentle_counts(rows, model))]),
    }


def show(mode: str, fig: dict[str, float]) -> str:
    if mode == "gentle":
        return (
            f"  {mode:<11} danger messages covered (safety message or gentle line) "
            f"{fig['covered']:.3f}, ordinary messages given the gentle line {fig['asked']:.3f}"
        )
    return f"  {mode:<11} {fig['recall']:.3f} / {fig['fp']:.3f} / {fig['precision']:.3f}"


def dump(content: dict[str, Any]) -> str:
    return json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--blind-e", action="store_true", help="also print the blind_e totals (measure once)"
    )
    args = parser.parse_args(argv)
    content = train()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dump(content), encoding="utf-8")
    model = Model.from_json(content["model"])
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB, {len(model.weights)} features)")
    for kind, t, g in zip(model.kinds, model.thresholds, model.gentle, strict=True):
        print(f"  threshold {kind:<15} {t:8.3f}   gentle {g:8.3f}")
    print(
        f"{FOLDS}-fold cross-validation on labelled + blind_a, b, c and d "
        "(danger recall / FP / precision):"
    )
    for mode, fig in content["cross_validated"].items():
        print(show(mode, fig))
    if args.blind_e:
        print("blind_e (never trained or tuned on):")
        for mode, fig in blind_figures(model).items():
            print(show(mode, fig))
    return 0


if __name__ == "__main__":
    sys.exit(main())

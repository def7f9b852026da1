"""Quality of the message analysis, measured the honest way.

Run from the repository root:

    python bench/analysis.py               # everything (trains the model once per writer
                                           # and fold: needs pip install -e '.[train]')
    python bench/analysis.py --blind-only  # the newest blind set only, once, totals only
    python bench/analysis.py --latency     # the latency figure only
    python bench/analysis.py --no-lowo     # the blind set (if not yet scored) and latency
    python bench/analysis.py --fit         # the figures, then the shipped model trained
                                           # on every writer (bench/train_learned.py)
    ... --keep /tmp/heldout.npz            # also keep the held-out scores (no text) for
                                           # bench/combine_eval.py

Prints, for each writer's set held out in turn (leave one writer out) and for the newest
blind set (totals only): any-danger recall, recall per danger kind, the false-positive rate
on messages with no danger, and tactic micro-F1, for

- rules: the danger rules and the small lexicon classifier (flows/analysis/danger.py,
  classifier.py), as shipped: what the bot does when the learned model is missing;
- learned: the TF-IDF model (flows/analysis/learned.py), trained without the held-out
  writer, thresholds chosen on the other writers only;
- combined: what the bot does (rules OR learned, with the sender's context; the lexicon
  classifier beside them or not as ``danger.LEXICON_WITH_LEARNED`` says);
- negation check on / off: combined with the other setting of ``context.NEGATION_CHECK``
  (whether a learned finding whose strongest words are negated is dropped), the same fold
  models and thresholds.

The figures are printed per held-out writer, for all folds together, and for the writers
the rules were never tuned on.

Read before trusting a figure: the rules were written and tuned on w0 to w4 (the first five
sets), and the lexicon classifier was trained on w0 to w3, so "rules" and "combined" on those
folds are not blind.  On w_g to w_l (written for the learned model, never seen by the rules)
every column is a blind measure of the rules; the learned column is leave-one-writer-out
everywhere.  The blind set (bench/corpus.py BLIND) is scored with the shipped model (trained
on every training set); nobody has read it or tuned on it.  bench/learned.md records the
figures and the choices.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import BLIND, BLIND_SCORED, DATA, TRAINING, load

from flows.analysis import analyze, check_danger, context
from flows.analysis.learned import Model, load_model, score
from flows.types import DANGER_KINDS, TACTICS

TARGETS = {"any": 0.80, "fp": 0.05, "kind": 0.70, "tactic_f1": 0.70}
#: The combined figures also with the other setting of ``context.NEGATION_CHECK``, with
#: the same fold models, thresholds and gates.
ALTERNATIVE = "negation off" if context.NEGATION_CHECK else "negation on"


@dataclass
class Tally:
    messages: int = 0
    dangerous: int = 0
    caught: int = 0
    safe: int = 0
    flagged: int = 0
    kind_tp: dict[str, int] | None = None
    kind_n: dict[str, int] | None = None
    ttp: int = 0
    tfp: int = 0
    tfn: int = 0

    def __post_init__(self) -> None:
        self.kind_tp = {k: 0 for k in DANGER_KINDS}
        self.kind_n = {k: 0 for k in DANGER_KINDS}

    def add(self, row: Mapping[str, Any], danger: set[str], tactics: set[str]) -> None:
        assert self.kind_tp is not None and self.kind_n is not None
        self.messages += 1
        expected = set(row["danger"])
        if expected:
            self.dangerous += 1
            self.caught += bool(danger)
        else:
            self.safe += 1
            self.flagged += bool(danger)
        for k in expected:
            self.kind_n[k] += 1
            self.kind_tp[k] += k in danger
        if row["sender"] != "me":
            want = set(row["tactics"])
            self.ttp += len(want & tactics)
            self.tfp += len(tactics - want)
            self.tfn += len(want - tactics)

    def merge(self, other: Tally) -> None:
        assert self.kind_tp is not None and self.kind_n is not None
        assert other.kind_tp is not None and other.kind_n is not None
        for name in ("messages", "dangerous", "caught", "safe", "flagged", "ttp", "tfp", "tfn"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for k in DANGER_KINDS:
            self.kind_tp[k] += other.kind_tp[k]
            self.kind_n[k] += other.kind_n[k]

    @property
    def any(self) -> float:
        return self.caught / self.dangerous if self.dangerous else 1.0

    @property
    def fp(self) -> float:
        return self.flagged / self.safe if self.safe else 0.0

    @property
    def kind(self) -> float:
        assert self.kind_tp is not None and self.kind_n is not None
        n = sum(self.kind_n.values())
        return sum(self.kind_tp.values()) / n if n else 1.0

    @property
    def tactic_f1(self) -> float:
        d = 2 * self.ttp + self.tfp + self.tfn
        return 2 * self.ttp / d if d else 1.0

    def per_kind(self) -> str:
        assert self.kind_tp is not None and self.kind_n is not None
        return "  ".join(
            f"{k} {self.kind_tp[k]}/{self.kind_n[k]}" for k in DANGER_KINDS if self.kind_n[k]
        )

    def line(self) -> str:
        return (
            f"any {self.any:.3f} ({self.caught}/{self.dangerous})  kind {self.kind:.3f}  "
            f"FP {self.fp:.3f} ({self.flagged}/{self.safe})  tactic F1 {self.tactic_f1:.3f}"
        )


def source_of(row: Mapping[str, Any]) -> str:
    return "user" if row["sender"] == "me" else "incoming"


def verdict(
    row: Mapping[str, Any], learned: Any, negation: bool | None = None
) -> tuple[set[str], set[str]]:
    """What the product says of a row (danger kinds, tactics) with the given learned model
    (``None``: the rules and the lexicon classifier alone); ``negation``: whether learned
    findings on negated words are dropped (``None``: as shipped,
    ``context.NEGATION_CHECK``)."""
    sender = row["sender"]
    shipped = context.NEGATION_CHECK
    context.NEGATION_CHECK = shipped if negation is None else negation
    try:
        found = check_danger(row["text"], source_of(row), sender=sender, learned=learned).found
        tactics = set(analyze(row["text"], sender=sender, learned=learned).tactic_ids)
    finally:
        context.NEGATION_CHECK = shipped
    return {f.id for f in found}, tactics


def show(title: str, tallies: Mapping[str, Tally], per_kind: bool = True) -> None:
    print(f"\n== {title}")
    for name, t in tallies.items():
        print(f"  {name:<9} {t.line()}")
        if per_kind and name in ("combined", ALTERNATIVE):
            print(f"  {'':<9} {t.per_kind()}")


_RESULT: dict[str, Any] = {}


def _fold_tallies(writer: str) -> tuple[str, dict[str, Tally]]:
    """One held-out writer's tallies with that fold's model (run in a forked worker)."""
    rows, fold = _RESULT["rows"], _RESULT["folds"][writer]
    model = Model.from_json(fold["model"])
    tallies = {name: Tally() for name in NAMES}
    for r in fold["index"]:
        row = rows[r]
        scored = {s.label: s for s in score(model, row["text"], row["sender"])}
        alone = (
            {k for k in DANGER_KINDS if scored[k].found}
            | ({"any"} if scored["danger"].found else set()),
            {t for t in TACTICS if scored[t].found},
        )
        for name, (d, t) in (
            ("rules", verdict(row, None)),
            ("learned", alone),
            ("combined", verdict(row, model)),
            (ALTERNATIVE, verdict(row, model, negation=not context.NEGATION_CHECK)),
        ):
            tallies[name].add(row, d, t)
    return writer, tallies


NAMES = ("rules", "learned", "combined", ALTERNATIVE)


def leave_one_writer_out() -> dict[str, Tally]:
    import multiprocessing

    import train_learned as T  # scikit-learn: training only

    groups = None  # --groups K: writers held out K groups at a time (a quicker check)
    if "--groups" in sys.argv:
        groups = int(sys.argv[sys.argv.index("--groups") + 1])
    result = T.lowo(groups)
    if "--keep" in sys.argv:  # the held-out scores, for bench/combine_eval.py (no text)
        T.keep(result, Path(sys.argv[sys.argv.index("--keep") + 1]))
    if "--fit" in sys.argv:  # the shipped model from the same held-out scores
        T.fit_all(result)
    overall = {name: Tally() for name in NAMES}
    unseen = {name: Tally() for name in NAMES}
    _RESULT.update(rows=result["rows"], folds=result["folds"])
    with multiprocessing.get_context("fork").Pool(T.JOBS) as pool:
        done = dict(pool.imap_unordered(_fold_tallies, list(result["folds"])))
    _RESULT.clear()
    for writer, fold in result["folds"].items():
        tallies = done[writer]
        for name, t in tallies.items():
            overall[name].merge(t)
        show(f"held out: {writer} ({len(fold['index'])} messages)", tallies)
        if writer not in T.RULES_TUNED_ON:
            for name, t in tallies.items():
                unseen[name].merge(t)
    show("all folds together", overall)
    tuned = ", ".join(sorted(T.RULES_TUNED_ON))
    show(f"the writers the rules were never tuned on (all but {tuned})", unseen)
    return overall


def blind_totals() -> Tally | None:
    """The newest blind set, scored once with the shipped model: totals only (no text,
    no per-message result is printed)."""
    if BLIND_SCORED and "--score-blind-again" not in sys.argv:
        print(f"\n== blind set {BLIND.file}: already scored once (bench/learned.md); not again")
        return None
    path = DATA / BLIND.file
    if not path.exists():
        print(
            f"\n== blind set {BLIND.file} ({BLIND.writer}: {BLIND.persona}): not in tests/data "
            "yet, nothing scored (the lead adds it, then: python bench/analysis.py --blind-only)"
        )
        return None
    model = load_model()
    if model is None:
        print("\n== blind set: the shipped learned model is missing")
        return None
    t = Tally()
    for row in load([BLIND]):
        danger, tactics = verdict(row, model)
        t.add(row, danger, tactics)
    print(f"\n== blind set {BLIND.writer} ({t.messages} messages, totals only)")
    print(f"  combined  {t.line()}")
    print(f"  {'':<9} {t.per_kind()}")
    ok = t.any >= TARGETS["any"] and t.fp <= TARGETS["fp"] and t.tactic_f1 >= TARGETS["tactic_f1"]
    assert t.kind_tp is not None and t.kind_n is not None
    kinds_ok = all(t.kind_tp[k] >= TARGETS["kind"] * t.kind_n[k] for k in DANGER_KINDS)
    print(
        f"  targets (any >= {TARGETS['any']}, FP <= {TARGETS['fp']}, each kind >= "
        f"{TARGETS['kind']}, tactic F1 >= {TARGETS['tactic_f1']}): "
        f"{'met' if ok and kinds_ok else 'NOT met'}"
    )
    print(
        "  Scored once: set BLIND_SCORED = True in bench/corpus.py, record these totals in "
        "bench/learned.md, and add the set to TRAINING at the next retrain."
    )
    return t


def _baseline() -> None:
    """A fixed piece of plain Python work (about 1 ms on a quiet core): timed next to each
    analysis, so a figure taken while others use the CPU can be read as a ratio."""
    counts: dict[str, int] = {}
    for i in range(6000):
        key = str(i % 97)
        counts[key] = counts.get(key, 0) + i


def latency_texts() -> list[str]:
    """Fresh 1,000-character messages: consecutive labelled messages of one writer run
    together (real words, no repeated paragraph a cache could learn)."""
    rows = load(TRAINING)
    texts, current = [], ""
    for row in rows:
        current = f"{current} {row['text']}".strip()
        if len(current) >= 1000:
            texts.append(current[:1000])
            current = ""
    return texts[:: max(1, len(texts) // 200)][:200]


def latency() -> None:
    texts = latency_texts()
    analyze(texts[0], sender="them")  # load the models first (once, at start-up in the bot)
    times, base = [], []
    for text in texts[1:]:
        t0 = time.perf_counter()
        _baseline()
        t1 = time.perf_counter()
        analyze(text, sender="them")
        t2 = time.perf_counter()
        base.append(t1 - t0)
        times.append(t2 - t1)
    median, ref = statistics.median(times), statistics.median(base)
    print(
        f"\nlatency: the whole analysis of a fresh 1,000-character message, median "
        f"{median * 1000:.1f} ms (target < 10 ms), 90th percentile "
        f"{statistics.quantiles(times, n=10)[-1] * 1000:.1f} ms, over {len(times)} messages; "
        f"the baseline work in the same run: median {ref * 1000:.2f} ms, ratio "
        f"{median / ref:.1f} (compare ratios across runs and versions: on a busy machine "
        "the milliseconds mean little)"
    )


def main() -> int:
    if "--blind-only" in sys.argv:
        blind_totals()
        return 0
    print(f"training sets: {len(TRAINING)} files from {len({s.writer for s in TRAINING})} writers")
    if "--latency" in sys.argv:
        latency()
        return 0
    if "--no-lowo" not in sys.argv:
        leave_one_writer_out()
    if "--fit" in sys.argv:
        print("\nnew model written: update MODEL_SHA256, then run --blind-only and --latency")
        return 0
    blind_totals()
    latency()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Quality of the message analysis on the labelled sets in tests/data/.

Run from the repository root:  python bench/analysis.py [--errors]
Prints per-tactic precision/recall, danger recall per kind, the danger false-positive
rate on messages labelled with no danger, and tactic micro-F1, for: the labelled set
(all / tune / holdout), blind_a to blind_d (all tuned on for danger), the tuned sets
together (where the targets are checked: danger on all five, tactics on labelled + blind_a
+ blind_b, the sets the tactic rules were tuned on), and blind_e (never tuned on: totals
only).  --errors lists the misses of the tuned sets only: blind_e's texts and errors stay
unread.

About the sets (read before trusting any figure):
- labelled_messages.jsonl "tune" (355 messages) is what the rules were first written and
  tuned against.  It holds the first 271 messages, plus a fresh batch of 84 written after
  the rules existed; measured blind before tuning on it, that batch scored danger recall
  0.60, danger FP rate 0.054, tactic micro-F1 0.58.
- labelled "holdout" (95 messages), measured blind: danger recall 0.27, FP 0.031, tactic
  micro-F1 0.54.  The danger rules were then widened on its misses, so its danger figures
  are no longer blind.  Its tactic figures were never tuned on directly, but its errors
  were visible (in --errors) while the tactic rules were widened for blind_a.
- blind_a.jsonl (160 messages) was written by someone who never saw the rules.  Measured
  blind: danger recall 0.458, FP 0.036, tactic micro-F1 0.547.  The rules were then widened
  on its errors (general patterns, not its exact phrases), so its figures are now tuned.
- blind_b.jsonl (160 messages, same writer, same make-up) has never been read or tuned on;
  only its totals are looked at.  Before the blind_a round: danger recall 0.274, FP 0.018,
  tactic micro-F1 0.487.  After it: danger recall 0.306, FP 0.018, micro-F1 0.561.  That
  gap (blind_a 1.00 after tuning, blind_b 0.31) is the honest measure of how far these
  rules generalise to phrasings nobody has written a rule for.
- The danger figures include the trained classifier (flows/analysis/classifier.py,
  bench/train_danger.py) unless marked "rules": trained on labelled + blind_a, thresholds
  by 5-fold CV there.  blind_b with it: danger recall 0.435, FP 0.064 (CV said 0.029),
  tactic micro-F1 0.568.
- blind_b round: blind_b was then opened and became tuning data.  Its figures before
  (rules + classifier): per-kind danger recall 0.435 (27 of 62), any-danger recall 0.54
  (27 of 50; the user's own crisis words 11 of 25), FP 0.064 (7 of 110).  The rules were
  widened with general patterns on its misses and on messages written for the purpose
  (labelled "tune" gained 396, many of them negatives: 846 in all), and the classifier
  retrained on labelled + blind_a + blind_b with a stricter false-positive budget
  (bench/train_danger.py).  After: blind_b per-kind recall 0.984 (rules alone 0.968),
  any-danger recall 1.00, FP 0.000 - tuned figures, no longer a measure of anything.
- blind_c.jsonl (200 messages, another writer who never saw the rules) is the blind set
  now, never tuned on; totals only.  Measured once after the blind_b round: danger recall
  per kind 0.637 (58 of 91), any-danger recall 0.705 (55 of 78), FP 0.016 (2 of 122),
  tactic micro-F1 0.641; the rules alone 0.560 / 0.008.  As with blind_b before it: the
  tuned sets sit near 0.98, a new writer near 0.64.
- blind_c round: blind_c was then opened and became tuning data (rules widened with
  general patterns on its misses; classifier retrained on labelled + blind_a, b and c).
- blind_d.jsonl (200 messages, another writer who never saw the rules, asked for more
  indirect wordings: veiled threats, euphemisms, quoted texts) is the blind set now,
  never tuned on; totals only.  Before the blind_c round: per-kind danger recall 0.462,
  any-danger 0.560, FP 0.048.  After it: 0.490 (51 of 104), any-danger 0.587 (44 of 75),
  FP 0.040 (5 of 125), tactic micro-F1 0.539; rules alone 0.442 / 0.040.  Per kind:
  violence 13/27, stalking 13/24, self_harm_them 5/9, self_harm_user 11/19, weapon 5/9,
  child_safety 4/16.  A round of rules carries over only a little to the next writer.
- The gentle tier (a softer "are you safe?" for texts the classifier leans on without
  reaching its threshold; thresholds by cross-validation on the training sets, at most
  10% of ordinary messages out of fold) brings 49 of blind_d's 75 danger messages (0.653)
  to at least that question, asking it of 5 of 125 ordinary ones (0.040).
- blind_d round: blind_d was then opened for danger (rules widened on its misses; the
  normaliser no longer hides a message on the same line as "Forwarded from X:"; the
  classifier retrained on labelled + blind_a to d).  Its tactic labels were not tuned on.
- blind_e.jsonl (200 messages, a third writer who never saw the rules, asked for other
  registers and regions) is the blind set now, never tuned on; totals only.  Before the
  blind_d round: per-kind danger recall 0.613, any-danger 0.707, FP 0.040.  After it:
  0.642 (68 of 106), any-danger 0.760 (57 of 75), FP 0.048 (6 of 125), tactic micro-F1
  0.589; rules alone 0.575 / 0.040.  Per kind: violence 16/26, stalking 14/25,
  self_harm_them 5/9, self_harm_user 16/19, weapon 8/9, child_safety 9/18.  With the
  gentle question: 62 of 75 danger messages (0.827) reached, 3 of 125 ordinary ones
  (0.024) asked.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flows.analysis import analyze  # noqa: E402
from flows.analysis.metrics import Report, evaluate, load_rows, rules_only  # noqa: E402

DATA = ROOT / "tests" / "data"
LABELLED = DATA / "labelled_messages.jsonl"
BLIND_A = DATA / "blind_a.jsonl"
BLIND_B = DATA / "blind_b.jsonl"
BLIND_C = DATA / "blind_c.jsonl"
BLIND_D = DATA / "blind_d.jsonl"
BLIND_E = DATA / "blind_e.jsonl"
MODEL = ROOT / "flows" / "analysis" / "data" / "danger_model.json"
TARGETS = {"danger_recall": 0.95, "danger_fp": 0.05, "tactic_micro_f1": 0.80}


def show(name: str, report: Report, errors: bool) -> None:
    print(f"\n== {name}: {report.messages} messages")
    print(f"{'tactic':<14}{'prec':>7}{'recall':>8}{'f1':>7}{'tp':>5}{'fp':>5}{'fn':>5}")
    for tactic, c in report.tactics.items():
        if c.tp + c.fp + c.fn:
            print(
                f"{tactic:<14}{c.precision:>7.2f}{c.recall:>8.2f}{c.f1:>7.2f}"
                f"{c.tp:>5}{c.fp:>5}{c.fn:>5}"
            )
    micro = report.tactic_micro
    print(f"{'MICRO':<14}{micro.precision:>7.2f}{micro.recall:>8.2f}{micro.f1:>7.2f}")
    print(f"{'danger':<14}{'prec':>7}{'recall':>8}{'':>7}{'tp':>5}{'fp':>5}{'fn':>5}")
    for kind, c in report.danger.items():
        if c.tp + c.fp + c.fn:
            print(
                f"{kind:<14}{c.precision:>7.2f}{c.recall:>8.2f}{'':>7}{c.tp:>5}{c.fp:>5}{c.fn:>5}"
            )
    ok = (
        report.danger_recall >= TARGETS["danger_recall"]
        and report.danger_false_positive_rate <= TARGETS["danger_fp"]
        and micro.f1 >= TARGETS["tactic_micro_f1"]
    )
    print(
        f"danger recall {report.danger_recall:.3f} (target >= {TARGETS['danger_recall']})  "
        f"danger FP rate {report.danger_false_positive_rate:.3f} on {report.safe_messages} "
        f"messages without danger (target <= {TARGETS['danger_fp']})  "
        f"tactic micro-F1 {micro.f1:.3f} (target >= {TARGETS['tactic_micro_f1']})  "
        f"{'OK' if ok else 'BELOW TARGET'}"
    )
    if errors:
        for line in report.errors:
            print("  ", line)


def show_totals(name: str, report: Report) -> None:
    """Totals only (a blind set: no texts, no errors, no per-tactic table)."""
    print(f"\n== {name}: {report.messages} messages (totals only)")
    for kind, c in report.danger.items():
        if c.tp + c.fn:
            print(f"  {kind:<15} recall {c.recall:.3f} ({c.tp} of {c.tp + c.fn})")
    print(
        f"  danger recall per kind {report.danger_recall:.3f}  any-danger recall "
        f"{report.any_danger_recall:.3f} ({report.danger_flagged} of {report.danger_messages})"
        f"  FP rate {report.danger_false_positive_rate:.3f} ({report.safe_flagged} of "
        f"{report.safe_messages})  tactic micro-F1 {report.tactic_micro.f1:.3f}"
    )


def speed() -> None:
    text = (
        "I'm so sorry, I miss you. Are you picking her up at 5? You'll regret this. "
        "he said he'd kill me if I left. this deadline is killing me lol 😂\n"
    )
    big = (text * (100_000 // len(text) + 1))[:100_000]
    start = time.perf_counter()
    analyze(big)
    print(f"\nspeed: analyze() on 100 KB took {time.perf_counter() - start:.3f} s")


BLIND_RUNS = (
    "blind first runs, before any tuning on them: labelled batch 2 (now in tune) danger "
    "recall 0.60 / FP 0.054 / tactic micro-F1 0.58; labelled holdout 0.27 / 0.031 / 0.54; "
    "blind_a 0.458 / 0.036 / 0.547 (since tuned on); blind_b 0.274 / 0.018 / 0.487 before "
    "the blind_a round and 0.306 / 0.018 / 0.561 after it (never tuned on); with the "
    "trained classifier (thresholds by CV on labelled + blind_a): blind_b 0.435 / 0.064 / "
    "0.568 (since tuned on); after the blind_b round (rules widened on blind_b, classifier "
    "retrained on labelled + blind_a + blind_b): blind_c 0.637 / 0.016 / 0.641, any-danger "
    "recall 0.705, rules alone 0.560 / 0.008 (since tuned on); after the blind_c round "
    "(rules widened on blind_c, classifier retrained on labelled + blind_a, b and c): "
    "blind_d 0.490 / 0.040 / 0.539, any-danger recall 0.587, rules alone 0.442 / 0.040, "
    "with the gentle question any-danger reach 0.653 (since tuned on); after the blind_d "
    "round: blind_e 0.642 / 0.048 / 0.589, any-danger recall 0.760, rules alone 0.575 / "
    "0.040, with the gentle question any-danger reach 0.827 (never tuned on)"
)


def danger_table(sets: list[tuple[str, list[dict[str, object]]]]) -> None:
    """Danger recall / FP rate: rules only against rules + the trained classifier (the
    default of detect_danger), and the classifier's cross-validated figures."""
    print("\n== danger: rules only vs rules + classifier (recall / FP rate)")
    for name, rows in sets:
        rules = evaluate(rows, rules_only, tactics_too=False)
        both = evaluate(rows, tactics_too=False)
        print(
            f"{name:<44} rules {rules.danger_recall:.3f} / "
            f"{rules.danger_false_positive_rate:.3f}   combined {both.danger_recall:.3f} / "
            f"{both.danger_false_positive_rate:.3f}"
        )
    model = json.loads(MODEL.read_text(encoding="utf-8"))
    print("5-fold cross-validation on labelled + blind_a to d (bench/train_danger.py):")
    for mode, fig in model["cross_validated"].items():
        if mode == "gentle":
            print(
                f"  {mode:<11} danger reached (safety message or gentle question) "
                f"{fig['covered']:.3f}  ordinary messages asked {fig['asked']:.3f}"
            )
        else:
            print(f"  {mode:<11} recall {fig['recall']:.3f}  FP {fig['fp']:.3f}")
    print(
        "  (the rules were tuned on these sets, so their CV figures are not blind; the "
        "classifier's are)"
    )


def main() -> int:
    rows = load_rows(LABELLED)
    errors = "--errors" in sys.argv
    show("labelled: all", evaluate(rows), errors)
    show("labelled: tune", evaluate(r for r in rows if r.get("split") != "holdout"), False)
    show("labelled: holdout", evaluate(r for r in rows if r.get("split") == "holdout"), False)
    show("blind_a (tuned on)", evaluate(load_rows(BLIND_A)), errors)
    show("blind_b (tuned on)", evaluate(load_rows(BLIND_B)), errors)
    show("blind_c (tuned on for danger)", evaluate(load_rows(BLIND_C)), errors)
    show("blind_d (tuned on for danger)", evaluate(load_rows(BLIND_D)), errors)
    tactic_sets = rows + load_rows(BLIND_A) + load_rows(BLIND_B)
    show("labelled + blind_a, b (the tactic target)", evaluate(tactic_sets), False)
    tuned = tactic_sets + load_rows(BLIND_C) + load_rows(BLIND_D)
    show("labelled + blind_a to d (the danger targets)", evaluate(tuned), False)
    sets = [("labelled + blind_a to d (trained/tuned on)", tuned)]
    if BLIND_E.exists():
        blind_e = load_rows(BLIND_E)
        show_totals("blind_e (never tuned on)", evaluate(blind_e))
        sets.append(("blind_e (never trained or tuned on)", blind_e))
    danger_table(sets)
    print("\n" + BLIND_RUNS)
    speed()
    return 0


if __name__ == "__main__":
    sys.exit(main())

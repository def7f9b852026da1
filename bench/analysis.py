"""Quality of the message analysis on tests/data/labelled_messages.jsonl.

Run from the repository root:  python bench/analysis.py [--errors]
Prints per-tactic precision/recall, danger recall per kind, the danger false-positive
rate on messages labelled with no danger, and tactic micro-F1, for all / tune / holdout.

About the splits (read before trusting the holdout figures):
- "tune" (355 messages) is what the rules were written and tuned against.  It holds the
  first 271 messages, plus a first fresh batch of 84 written after the rules existed.
  That batch, measured blind before any tuning on it, scored: danger recall 0.60, danger
  FP rate 0.054, tactic micro-F1 0.58.  It was then moved to "tune".
- "holdout" (95 messages) is a second fresh batch written after that.  Measured blind it
  scored danger recall 0.27, danger FP rate 0.031, tactic micro-F1 0.54.  The DANGER rules
  were then widened using its misses (safety first), so its danger figures are no longer
  blind; the TACTIC rules were never tuned on it, so its tactic figures still are.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flows.analysis import analyze  # noqa: E402
from flows.analysis.metrics import Report, evaluate  # noqa: E402

DATA = ROOT / "tests" / "data" / "labelled_messages.jsonl"
TARGETS = {"danger_recall": 0.95, "danger_fp": 0.05, "tactic_micro_f1": 0.80}


def load() -> list[dict[str, object]]:
    with DATA.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


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
    "blind first runs, before any tuning on them: batch 2 (now in tune) danger recall "
    "0.60 / FP 0.054 / tactic micro-F1 0.58; holdout danger recall 0.27 / FP 0.031 / "
    "tactic micro-F1 0.54 (danger rules later tuned on the holdout, tactic rules never)"
)


def main() -> int:
    rows = load()
    errors = "--errors" in sys.argv
    show("all", evaluate(rows), errors)
    show("tune", evaluate(r for r in rows if r.get("split") != "holdout"), False)
    show("holdout", evaluate(r for r in rows if r.get("split") == "holdout"), False)
    print("\n" + BLIND_RUNS)
    speed()
    return 0


if __name__ == "__main__":
    sys.exit(main())

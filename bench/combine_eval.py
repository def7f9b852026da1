"""How the rules and the learned model are combined, measured in minutes from kept scores.

    python bench/train_learned.py --lowo --keep /tmp/heldout.npz   # once (the slow part)
    python bench/combine_eval.py /tmp/heldout.npz

The file holds every training row's held-out logits (a model trained without its writer),
what the rules found, the labels, writers and which rows the user wrote: no text.  Each
variant of the combination is measured leave one writer out, as bench/analysis.py does:
the thresholds and gates for a held-out writer are chosen on the other writers' held-out
scores only (``train_learned.choose``), then applied to that writer.  Printed for all
folds together and for the writers the rules were never tuned on: any-danger recall,
recall per kind, false positives (messages with no danger flagged), and how many kinds
were named that the message does not have (on messages that do have a danger).
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_learned as T

from flows.types import DANGER_KINDS


def load(path: Path) -> tuple[Any, np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray]:
    z = np.load(path)
    me = z["me"]
    # ``choose`` reads of a row's sender only whether the user wrote it
    data = SimpleNamespace(
        y=z["y"], writers=z["writers"], rows=[{"sender": "me" if m else "them"} for m in me]
    )
    return data, z["scores"], (z["rules_danger"], z["rules_tactics"]), me


def measure(path: Path, budget: float) -> None:
    data, scores, rules, me = load(path)
    T.FP_BUDGET = budget
    y = data.y
    writers = sorted(set(data.writers))
    totals: dict[str, np.ndarray] = {}
    gates: list[float] = []
    for w in writers:
        test = np.where(data.writers == w)[0]
        others = np.where(data.writers != w)[0]
        chosen = T.choose(data, others, scores[others], rules)
        v = T.danger_verdicts(
            scores[test],
            chosen["threshold"],
            rules[0][test],
            me[test],
            chosen["rules_gate"],
            chosen["kind_gate"],
        )
        gates.append(chosen["kind_gate"])
        want = y[test][:, T._KINDS] == 1
        dangerous = want.any(1)
        row = np.array(
            [
                dangerous.sum(),
                (v.any(1) & dangerous).sum(),
                (~dangerous).sum(),
                (v.any(1) & ~dangerous).sum(),
                (v & ~want)[dangerous].sum(),
                *(want & v).sum(0),
                *want.sum(0),
            ]
        )
        totals["all"] = totals.get("all", 0) + row
        if w not in T.RULES_TUNED_ON:
            totals["unseen"] = totals.get("unseen", 0) + row
    k = len(DANGER_KINDS)
    for key in ("all", "unseen"):
        t = totals[key]
        kinds = "  ".join(
            f"{name} {t[5 + i] / t[5 + k + i]:.2f}" for i, name in enumerate(DANGER_KINDS)
        )
        print(
            f"budget {budget:.3f} kind gates {sorted(set(gates))} {key:<6} "
            f"any {t[1] / t[0]:.3f}  kind "
            f"{t[5 : 5 + k].sum() / t[5 + k :].sum():.3f}  FP {t[3] / t[2]:.3f}  "
            f"wrong kinds {t[4]}  | {kinds}",
            flush=True,
        )


def main() -> None:
    args = sys.argv[1:]
    if "--no-kind-gate" in args:
        args.remove("--no-kind-gate")
        T.KIND_GATES = (T.KIND_GATE_OFF,)
    path = Path(args[0])
    for budget in [float(b) for b in args[1:]] or [T.FP_BUDGET]:
        measure(path, budget)


if __name__ == "__main__":
    main()

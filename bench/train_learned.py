"""Train the learned model (flows/analysis/learned.py) and measure it honestly.

    python bench/train_learned.py --fit      # leave one writer out, then train on every
                                             # training set with thresholds chosen on the
                                             # held-out scores; writes the model
    python bench/train_learned.py --lowo     # the leave-one-writer-out figures only

Needs scikit-learn (training only: `pip install -e '.[train]'`); the bot scores the model
in plain Python.  Features come from flows.analysis.learned itself (``feature_list``,
``weigh``), so training and scoring cannot drift apart (tests/test_analysis_learned.py
checks the bot's fast scoring against that definition).

Fast enough for a shared machine: the texts are turned into one sparse count matrix once;
each fold only reweighs it (scipy) and fits one logistic regression per label (liblinear's
dual solver, one thread), JOBS folds at a time.

Thresholds (``choose``): every threshold is chosen on held-out scores, i.e. on each
writer's messages scored by a model trained without that writer.  For the shipped model,
those of every training writer; for the figure of a held-out writer, those of the other
writers only (the held-out writer's labels never choose its own thresholds; the models
that scored the other writers did see it in training, which a fully nested loop would
avoid at four times the cost).  The combination with the rules (how far below its
threshold the model may be for a rule's finding or tactic to stand) is chosen the same
way, on the writers the rules were never tuned on (``UNSEEN``): on the first five sets the
rules were written with, they look far better than they are.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import TRAINING, load

from flows.analysis import context, learned
from flows.types import DANGER_KINDS, TACTICS

OUT = Path(learned.__file__).with_name("data") / learned.MODEL_FILE
ANY = "danger"
LABELS: tuple[str, ...] = (*DANGER_KINDS, ANY, *TACTICS)
DANGER_HEADS = (*DANGER_KINDS, ANY)
#: The writers the rules were written and tuned on (w0 to w4): left out when the
#: combination with the rules is chosen.
RULES_TUNED_ON = frozenset({"w0", "w1", "w2", "w3", "w4"})
#: A feature is kept when it occurs in at least MIN_DF training messages of at least
#: MIN_WRITERS writers: a name, a place or a habit of one writer is not learnt.
MIN_DF = 2
MIN_WRITERS = 3
C = 8.0
#: Each danger head's features are scaled by how unevenly they occur in that head's
#: positive and negative training messages: |log-count ratio| ** NB_POWER (Wang and
#: Manning 2012, "Baselines and bigrams", NB-SVM; the ratio of presence with add-one
#: smoothing).  The scale is folded into the shipped weights, so the bot scores as before.
#: Chosen leave one writer out, model alone, on the writers the rules never saw (a quick
#: harness, bench/learned.md): any danger at 5% false positives 0.784 without, 0.811 at a
#: power of 0.5, the kinds the same or better.
NB_POWER = 0.5
NB_LABELS = frozenset(DANGER_HEADS)
#: Weights smaller than this are dropped from the shipped model.
PRUNE = 0.02
#: The false-positive budget of the danger heads together (any danger flagged on a
#: message with none, rules included), on the writers the rules never saw.
FP_BUDGET = 0.04
#: The gentle "are you safe?" line: at most this share of the ordinary messages (no
#: danger, nothing flagged) may get it, on held-out scores of the writers the rules never
#: saw; ``Model.gentle`` is the widest of GENTLE_STEPS within it.
GENTLE_BUDGET = 0.05
GENTLE_STEPS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
#: Tried for ``Model.rules_gate`` and ``Model.tactic_gate``.
GATES = (-1e9, -4.0, -3.0, -2.0, -1.5, -1.0)
#: ... and for the tactic gate also 1e9: a rule's tactic never counts on its own, only
#: the model's (the rules' tactics were tuned on five writers and may cost more than they
#: bring elsewhere; the held-out scores decide).
TACTIC_GATES = (*GATES, 1e9)
#: ``Model.kind_gate``: once a message is found dangerous, a kind whose logit is at most
#: this far below its threshold is named too (naming one more kind flags no ordinary
#: message); chosen for the best micro-F1 of the kinds on the held-out scores.
KIND_GATE_OFF = 1e9
KIND_GATES = (KIND_GATE_OFF, 0.0, -0.5, -1.0, -1.5, -2.0, -3.0)


# --------------------------------------------------------------------------- data
def featurize(rows: Sequence[dict[str, Any]]) -> list[Counter[str]]:
    # the features the bot scores with: learned.feature_list, nothing of our own
    return [Counter(learned.feature_list(learned.tokens(r["text"]), r["sender"])) for r in rows]


def targets(rows: Sequence[dict[str, Any]]) -> np.ndarray:
    y = np.zeros((len(rows), len(LABELS)), dtype=np.int8)
    for r, row in enumerate(rows):
        for j, label in enumerate(LABELS):
            if label == ANY:
                y[r, j] = bool(row["danger"])
            elif label in DANGER_KINDS:
                y[r, j] = label in row["danger"]
            else:
                y[r, j] = label in row["tactics"]
    return y


class Data:
    """Every training message as term counts (one sparse matrix), with labels and writers."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows
        self.y = targets(rows)
        self.writers = np.array([r["writer"] for r in rows])
        index: dict[str, int] = {}
        cols: list[int] = []
        vals: list[int] = []
        ptr = [0]
        for counts in featurize(rows):
            for f, n in counts.items():
                cols.append(index.setdefault(f, len(index)))
                vals.append(n)
            ptr.append(len(cols))
        self.names = sorted(index, key=index.__getitem__)
        self.column = index  # name -> column
        self.counts = sparse.csr_matrix(
            (np.array(vals, dtype=float), np.array(cols), np.array(ptr)),
            shape=(len(rows), len(index)),
        )
        self.block = np.array(["cws".index(learned.block(f)) for f in self.names])


# --------------------------------------------------------------------------- one model
def fit_idf(data: Data, train: np.ndarray) -> np.ndarray:
    """The idf of every column (0: not kept) from the training rows only."""
    sub = data.counts[train]
    present = sub.copy()
    present.data[:] = 1.0
    df = np.asarray(present.sum(0)).ravel()
    spread = np.zeros(len(df))
    writers = data.writers[train]
    for w in np.unique(writers):
        spread += np.asarray(present[writers == w].sum(0)).ravel() > 0
    keep = (df >= MIN_DF) & (spread >= MIN_WRITERS)
    idf = np.log((1 + len(train)) / (1 + df)) + 1.0
    return np.where(keep, idf, 0.0)


def weighed(data: Data, rows: np.ndarray, idf: np.ndarray) -> sparse.csr_matrix:
    """learned.weigh for many messages: count times idf, each block at unit length."""
    x = sparse.csr_matrix(data.counts[rows] @ sparse.diags(idf))
    x.eliminate_zeros()
    blocks = sparse.csr_matrix(
        (np.ones(len(data.block)), (np.arange(len(data.block)), data.block)),
        shape=(len(data.block), 3),
    )
    norms = np.sqrt(np.asarray((x.multiply(x) @ blocks).todense()))
    norms[norms == 0] = 1.0
    row_of = np.repeat(np.arange(x.shape[0]), np.diff(x.indptr))
    x.data = x.data / norms[row_of, data.block[x.indices]]
    return x


def nb_scale(present: sparse.csr_matrix, y: np.ndarray) -> np.ndarray:
    """|log-count ratio| ** NB_POWER of every column for labels ``y`` (see NB_POWER)."""
    p = 1.0 + np.asarray(present[y == 1].sum(0)).ravel()
    q = 1.0 + np.asarray(present[y == 0].sum(0)).ravel()
    return np.abs(np.log((p / p.sum()) / (q / q.sum()))) ** NB_POWER


def fit(data: Data, train: np.ndarray) -> dict[str, Any]:
    idf = fit_idf(data, train)
    x = weighed(data, train, idf)
    present = x.copy()
    present.data[:] = 1.0
    y = data.y[train]
    coef = np.zeros((len(LABELS), x.shape[1]))
    intercept = np.full(len(LABELS), -10.0)
    for j, label in enumerate(LABELS):
        if y[:, j].sum() == 0:
            continue
        scale = nb_scale(present, y[:, j]) if label in NB_LABELS else np.ones(x.shape[1])
        clf = LogisticRegression(
            C=C, class_weight="balanced", solver="liblinear", dual=True, max_iter=5000
        )
        clf.fit(x @ sparse.diags(scale), y[:, j])
        coef[j] = clf.coef_[0] * scale
        intercept[j] = clf.intercept_[0]
    coef[np.abs(coef) < PRUNE] = 0.0
    return {"idf": idf, "coef": coef, "intercept": intercept}


def logits(data: Data, model: dict[str, Any], rows: np.ndarray) -> np.ndarray:
    x = weighed(data, rows, model["idf"])
    return np.asarray(x @ model["coef"].T) + model["intercept"]


# --------------------------------------------------------------------------- the rules
def rule_findings(rows: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """What the rules (and the lexicon classifier, if the bot uses it beside the learned
    model: ``LEXICON_WITH_LEARNED``) say of every row, alone: danger kinds (rows x kinds)
    and tactics (rows x tactics).  Remembered in /tmp by a digest of the
    analysis code and the texts (a minute or two to compute)."""
    from flows.analysis import analyze, check_danger
    from flows.analysis.danger import LEXICON_WITH_LEARNED, Classifier

    code = Path(learned.__file__).parent
    digest = hashlib.sha256()
    for f in sorted(code.rglob("*.py")) + sorted(code.rglob("*.json")):
        digest.update(f.read_bytes())
    for r in rows:
        digest.update(f"{r['sender']}|{r['text']}".encode())
    cache = Path("/tmp") / f"nocontact-rules-{digest.hexdigest()[:16]}.npz"
    if cache.exists():
        with np.load(cache) as z:
            return z["danger"], z["tactics"]
    danger = np.zeros((len(rows), len(DANGER_KINDS)), dtype=bool)
    tactics = np.zeros((len(rows), len(TACTICS)), dtype=bool)
    # the rules as the model meets them in the bot: with the lexicon classifier or not
    lexicon: Classifier = "shipped" if LEXICON_WITH_LEARNED else None
    for i, r in enumerate(rows):
        source = "user" if r["sender"] == "me" else "incoming"
        found = check_danger(r["text"], source, lexicon, sender=r["sender"], learned=None).found
        for f in found:
            danger[i, DANGER_KINDS.index(f.id)] = True
        checked = analyze(r["text"], sender=r["sender"], learned=None, classifier=lexicon)
        for t in checked.tactic_ids:
            tactics[i, TACTICS.index(t)] = True
    np.savez(cache, danger=danger, tactics=tactics)
    return danger, tactics


# --------------------------------------------------------------------------- thresholds
_KINDS = np.array([LABELS.index(k) for k in DANGER_KINDS])
_ANY = LABELS.index(ANY)
_TACTICS = np.array([LABELS.index(t) for t in TACTICS])
_SELF_THEM, _SELF_USER = DANGER_KINDS.index("self_harm_them"), DANGER_KINDS.index("self_harm_user")
_UNGATED = np.array([k in context.UNGATED for k in DANGER_KINDS])


def danger_verdicts(
    s: np.ndarray,
    th: np.ndarray,
    rules: np.ndarray,
    me: np.ndarray,
    gate: float,
    kind_gate: float = KIND_GATE_OFF,
) -> np.ndarray:
    """The danger kinds the bot reports (flows/analysis/context.py ``combine_danger``)
    for held-out scores ``s``: rows x kinds."""
    margin = s[:, _KINDS] - th[_KINDS]
    whose = np.ones(margin.shape, dtype=bool)
    whose[me, _SELF_THEM] = False  # the user's own words are about the user
    whose[~me, _SELF_USER] = False
    model = (margin >= 0) & whose
    ruled = rules & ((margin >= gate) | _UNGATED)
    # "some danger", nothing of any kind found: the likeliest kind of this sender's
    none = ~model.any(1) & ~ruled.any(1) & (s[:, _ANY] >= th[_ANY])
    model[none, np.where(whose, margin, -np.inf)[none].argmax(1)] = True
    found = model | ruled
    # once a message is found dangerous, every kind the model leans to within kind_gate
    also = found.any(1)[:, None] & (margin >= kind_gate) & whose
    return found | also


def tactic_verdicts(s: np.ndarray, th: np.ndarray, rules: np.ndarray, gate: float) -> np.ndarray:
    margin = s[:, _TACTICS] - th[_TACTICS]
    return (margin >= 0) | (rules & (margin >= gate))


def _greedy(
    s: np.ndarray, y: np.ndarray, rules: np.ndarray, me: np.ndarray, gate: float
) -> tuple[np.ndarray, int]:
    """Danger thresholds: from "nothing found", lower one head's threshold a step at a
    time, always the step that finds the most dangers (any, and of their kind) per
    ordinary message newly flagged, while at most FP_BUDGET of them are."""
    safe = y[:, _ANY] == 0
    want = y[:, _KINDS] == 1
    heads = [*_KINDS, _ANY]
    th = np.full(len(LABELS), 1e9)
    steps = {j: np.unique(np.quantile(s[:, j], np.linspace(0.5, 0.9995, 70)))[::-1] for j in heads}
    at = dict.fromkeys(heads, 0)
    budget = FP_BUDGET * int(safe.sum())

    def measure(t: np.ndarray) -> tuple[int, int]:
        v = danger_verdicts(s, t, rules, me, gate)
        flagged = int(v[safe].any(1).sum())
        return int((v & want).sum() + v[~safe].any(1).sum()), flagged

    hits, flagged = measure(th)
    while True:
        best: tuple[float, int, int, int] | None = None
        for j in heads:
            if at[j] >= len(steps[j]):
                continue
            t = th.copy()
            t[j] = steps[j][at[j]]
            h, f = measure(t)
            if f > budget:
                at[j] = len(steps[j])  # lower still would only flag more
                continue
            gain = (h - hits) / max(f - flagged, 0.5)
            if best is None or gain > best[0]:
                best = (gain, j, h, f)
        if best is None:
            break
        _, j, hits, flagged = best
        th[j] = steps[j][at[j]]
        at[j] += 1
    return th, hits


def choose(
    data: Data, rows: np.ndarray, scores: np.ndarray, rules: tuple[np.ndarray, np.ndarray]
) -> dict[str, Any]:
    """Thresholds and gates from the held-out ``scores`` of ``rows`` (see the module's
    doc), on the rows of writers the rules were not tuned on."""
    keep = ~np.isin(data.writers[rows], list(RULES_TUNED_ON))
    rows, s = rows[keep], scores[keep]
    y = data.y[rows]
    me = np.array([data.rows[r]["sender"] == "me" for r in rows])
    r_danger, r_tactics = rules[0][rows], rules[1][rows]
    best = max(
        ((*_greedy(s, y, r_danger, me, g), g) for g in GATES), key=lambda item: (item[1], item[2])
    )
    th = best[0]
    kind_gate = max(
        KIND_GATES,
        key=lambda g: _kind_f1(danger_verdicts(s, th, r_danger, me, best[2], g), y[:, _KINDS]),
    )
    # tactics, on the messages someone sent the user: per tactic the threshold of best F1,
    # with one gate for all (the best micro-F1)
    inc = ~me
    best_t: tuple[float, float, np.ndarray] | None = None
    for gate in TACTIC_GATES:
        chosen = th.copy()
        tp = fp = fn = 0
        for k, j in enumerate(_TACTICS):
            sj = s[inc, j]
            want = y[inc, j] == 1
            ruled = r_tactics[inc, k]
            top = (-1.0, 1e9, 0, 0, int(want.sum()))
            for t in np.unique(np.quantile(sj, np.linspace(0.3, 0.999, 80))):
                pred = (sj >= t) | (ruled & (sj - t >= gate))
                a = int((pred & want).sum())
                b = int((pred & ~want).sum())
                c = int((~pred & want).sum())
                f1 = 2 * a / (2 * a + b + c) if a else 0.0
                if f1 > top[0]:
                    top = (f1, float(t), a, b, c)
            chosen[j] = top[1]
            tp, fp, fn = tp + top[2], fp + top[3], fn + top[4]
        micro = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        if best_t is None or micro > best_t[0]:
            best_t = (micro, gate, chosen)
    assert best_t is not None
    return {
        "threshold": best_t[2],
        "rules_gate": best[2],
        "kind_gate": kind_gate,
        "tactic_gate": best_t[1],
        "gentle": gentle_margin(s, y, th, r_danger, me, best[2]),
    }


def _kind_f1(found: np.ndarray, want: np.ndarray) -> float:
    """Micro-F1 of the danger kinds named (rows x kinds) against the labels."""
    tp = int((found & (want == 1)).sum())
    wrong = int((found & (want == 0)).sum()) + int((~found & (want == 1)).sum())
    return 2 * tp / (2 * tp + wrong) if tp else 0.0


def gentle_margin(
    s: np.ndarray, y: np.ndarray, th: np.ndarray, rules: np.ndarray, me: np.ndarray, gate: float
) -> float:
    """The widest margin below the danger cuts (context.possible) at which at most
    GENTLE_BUDGET of the ordinary messages get the gentle line: those with no danger
    finding whose any-danger or kind logit is within the margin."""
    safe = y[:, _ANY] == 0
    quiet = safe & ~danger_verdicts(s, th, rules, me, gate).any(1)
    heads = [*_KINDS, _ANY]
    below = (s[:, heads] - th[heads]).max(1)
    chosen = 0.0
    for margin in GENTLE_STEPS:
        if ((below >= -margin) & quiet).sum() <= GENTLE_BUDGET * safe.sum():
            chosen = margin
    return chosen


# --------------------------------------------------------------------------- the model file
def to_json(
    data: Data, model: dict[str, Any], chosen: dict[str, Any], trained_on: list[str]
) -> dict[str, Any]:
    # "label:weight" pairs in one string a feature (learned.Model.from_json): read with
    # far fewer objects at once than lists of pairs
    coef: dict[str, str] = {}
    nz = np.nonzero(model["coef"].any(0) & (model["idf"] > 0))[0]
    for i in nz:
        coef[data.names[i]] = ",".join(
            f"{int(j)}:{round(float(model['coef'][j, i]), 4)}"
            for j in np.nonzero(model["coef"][:, i])[0]
        )
    kept = _closure(data, model["idf"], [int(i) for i in nz])
    idf = {data.names[i]: round(float(model["idf"][i]), 4) for i in kept}
    if not learned.closed(idf):  # the scorer looks a run up only where its parts are known
        raise ValueError("a run of words is kept without the shorter runs in it")
    return {
        "version": time.strftime("%Y-%m-%d"),
        "trained_on": trained_on,
        "labels": list(LABELS),
        "idf": idf,
        "coef": coef,
        "intercept": [round(float(v), 4) for v in model["intercept"]],
        "threshold": [round(float(v), 4) for v in chosen["threshold"]],
        "margin": 0.0,
        "rules_gate": chosen["rules_gate"],
        "kind_gate": chosen["kind_gate"],
        "tactic_gate": chosen["tactic_gate"],
        "gentle": chosen["gentle"],
    }


def _closure(data: Data, idf: np.ndarray, columns: list[int]) -> list[int]:
    """``columns`` and the shorter runs of words in each of their runs (the scorer looks a
    run up only where its parts are known: ``learned.closed``).  A part whose weights were
    all pruned is kept for its idf alone; every part of a kept run is itself kept by
    ``fit_idf`` (its messages hold the run's)."""
    where = data.column
    out = set(columns)
    todo = list(columns)
    while todo:
        name = data.names[todo.pop()]
        head, sep, run = name.rpartition("w:")
        words = run.split(" ")
        if not sep or len(words) < 2 or head not in ("", *(f"s:{s}|" for s in learned.SENDERS)):
            continue
        for part in (" ".join(words[:-1]), " ".join(words[1:])):
            i = where.get(f"{head}w:{part}")
            if i is None or idf[i] <= 0:
                raise ValueError("a run of words is kept without the shorter runs in it")
            if i not in out:
                out.add(i)
                todo.append(i)
    return sorted(out)


#: Folds fitted at once (processes forked with the data; each fold fits on one thread).
JOBS = 2
_FOLD_DATA: list[Data] = []


def _fold(held: tuple[str, ...]) -> tuple[tuple[str, ...], np.ndarray, dict[str, Any]]:
    data = _FOLD_DATA[0]
    out = np.isin(data.writers, held)
    model = fit(data, np.where(~out)[0])
    return held, logits(data, model, np.where(out)[0]), model


def folds_of(writers: Sequence[str], groups: int | None) -> list[tuple[str, ...]]:
    """The writers held out together in each fold: one each (leave one writer out), or,
    with ``groups``, dealt in turn into that many groups (a quicker check: each writer is
    still held out whole)."""
    ordered = sorted(set(writers))
    if not groups:
        return [(w,) for w in ordered]
    return [tuple(ordered[g::groups]) for g in range(groups)]


def held_out(
    data: Data, groups: int | None = None
) -> tuple[np.ndarray, dict[tuple[str, ...], dict[str, Any]]]:
    """Leave one writer (or one group of writers) out: every row's logits from a model
    trained without its writer, and each fold's model."""
    scores = np.zeros(data.y.shape)
    models: dict[tuple[str, ...], dict[str, Any]] = {}
    t0 = time.time()
    _FOLD_DATA[:] = [data]
    with multiprocessing.get_context("fork").Pool(JOBS) as pool:
        for held, s, model in pool.imap_unordered(_fold, folds_of(data.writers, groups)):
            test = np.where(np.isin(data.writers, held))[0]
            scores[test] = s
            models[held] = model
            name = held[0] if len(held) == 1 else f"{len(held)} writers"
            print(
                f"  fold {name}: {len(test)} held out ({time.time() - t0:.0f} s)", file=sys.stderr
            )
    _FOLD_DATA.clear()
    return scores, dict(sorted(models.items()))


def lowo(groups: int | None = None) -> dict[str, Any]:
    """Leave one writer out, for bench/analysis.py: {"rows": every row, "folds": {writer:
    {"index": its rows, "model": the fold's model as JSON, thresholds chosen on the other
    writers' held-out scores}}, "scores": every row's held-out logits}.  With ``groups``,
    writers are held out that many groups at a time (``folds_of``)."""
    data = Data(load(TRAINING))
    rules = rule_findings(data.rows)
    scores, models = held_out(data, groups)
    folds: dict[str, Any] = {}
    for held, model in models.items():
        out = np.isin(data.writers, held)
        others = np.where(~out)[0]
        chosen = choose(data, others, scores[others], rules)
        doc = to_json(data, model, chosen, [f"all but {', '.join(held)}"])
        for w in held:
            folds[w] = {"index": list(np.where(data.writers == w)[0]), "model": doc}
    folds = dict(sorted(folds.items()))
    return {"rows": data.rows, "folds": folds, "scores": scores, "data": data, "rules": rules}


def fit_all(result: dict[str, Any] | None = None) -> None:
    t0 = time.time()
    if result is None:
        result = lowo()
    data: Data = result["data"]
    everyone = np.arange(len(data.rows))
    chosen = choose(data, everyone, result["scores"], result["rules"])
    model = fit(data, everyone)
    doc = to_json(data, model, chosen, sorted({s.file for s in TRAINING}))
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    OUT.write_bytes(gzip.compress(raw, 9, mtime=0))
    print(
        f"trained on {len(data.rows)} messages from {len(set(data.writers))} writers in "
        f"{time.time() - t0:.0f} s; {len(doc['coef'])} features kept; "
        f"{OUT.stat().st_size / 1e6:.2f} MB written to {OUT}; rules gate "
        f"{chosen['rules_gate']}, kind gate {chosen['kind_gate']}, tactic gate "
        f"{chosen['tactic_gate']}, gentle "
        f"{chosen['gentle']}\n"
        f'MODEL_SHA256 = "{hashlib.sha256(OUT.read_bytes()).hexdigest()}"'
    )


def keep(result: dict[str, Any], path: Path) -> None:
    """Save the held-out logits, the rules' findings, the labels, writers and whether the
    user wrote each row (no text) to ``path``, so a change to the combination can be
    measured in minutes (bench/combine_eval.py) instead of refitting every fold."""
    data: Data = result["data"]
    np.savez_compressed(
        path,
        scores=result["scores"],
        y=data.y,
        writers=data.writers,
        me=np.array([r["sender"] == "me" for r in data.rows]),
        rules_danger=result["rules"][0],
        rules_tactics=result["rules"][1],
    )
    print(f"held-out scores kept in {path}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--lowo", action="store_true")
    parser.add_argument("--keep", type=Path, help="save the held-out scores here (no text)")
    args = parser.parse_args()
    result = lowo() if args.fit or args.lowo else None
    if result is not None and args.keep:
        keep(result, args.keep)
    if args.fit:
        fit_all(result)


if __name__ == "__main__":
    main()

"""Does the sentence encoder (flows/analysis/encoder.py) help the learned model? Measured.

    python bench/encoder_eval.py              # embed (cached), then the LOWO comparison
    python bench/encoder_eval.py --factors 0.5 --emb-c 0.1 1 8   # other variants
    python bench/encoder_eval.py --latency    # ms per 1,000-character message, memory

Training sets only (bench/corpus.py TRAINING), leave one writer out, danger heads only
(the six kinds and "any danger"), the same folds for every variant:

- ``tfidf``: the learned model's TF-IDF features, one logistic regression per head (as
  bench/train_learned.py, C=8);
- ``tfidf+emb xF``: the same with the 384-d embedding appended as a fourth block, times F;
- ``emb``: a logistic regression on the embedding alone (``emb std``: its columns
  standardised on the training writers); lbfgs, liblinear's dual solver crawls on 384
  dense columns;
- ``avg``: the mean of ``tfidf`` and ``emb`` logits, each standardised per head (mean and
  spread of its held-out scores over all folds; no label is used).

Figures as /tmp/exp/exp.py: "any danger" recall at 3% and 5% false positives (the ANY
head), each kind's recall at 2% false positives and their mean, on the writers the rules
were not tuned on; ``Δ`` gives a bootstrap over writers of the difference to ``tfidf``.
One BLAS thread (a shared machine).  The results are in bench/encoder.md.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import hashlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_learned as T
from corpus import TRAINING, load

from flows.analysis import encoder

HEADS = [T.LABELS.index(k) for k in (*T.DANGER_KINDS, T.ANY)]
CACHE = Path("/tmp/exp/emb.npy")
C = 8.0
FACTORS = (1.0, 2.0)
EMB_C = (1.0, 8.0)
BOOT = 300


# --------------------------------------------------------------------------- embedding
def embed(texts: list[str], cache: Path) -> np.ndarray:
    """Every text's embedding, once: cached beside a digest of the texts and the weights."""
    digest = hashlib.sha256("\0".join([encoder.MODEL_SHA256, *texts]).encode()).hexdigest()
    stamp = cache.with_suffix(".sha256")
    if cache.exists() and stamp.exists() and stamp.read_text() == digest:
        return np.load(cache)
    enc = encoder.load_encoder()
    if enc is None:
        sys.exit(encoder.encoder_status())
    t0 = time.time()
    out = enc.embed(texts)
    print(f"embedded {len(texts)} messages in {time.time() - t0:.0f} s (1 thread)", flush=True)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, out)
    stamp.write_text(digest)
    return out


# --------------------------------------------------------------------------- models
def fit_heads(x: sparse.csr_matrix | np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
    """One balanced logistic regression per danger head: rows (coef..., intercept)."""
    out = np.zeros((len(HEADS), x.shape[1] + 1))
    for k, j in enumerate(HEADS):
        if sparse.issparse(x):  # as bench/train_learned.py
            clf = LogisticRegression(
                C=c, class_weight="balanced", solver="liblinear", dual=True, max_iter=5000
            )
        else:  # 384 dense columns, 11,000 rows: the primal solver (liblinear's dual crawls)
            clf = LogisticRegression(C=c, class_weight="balanced", solver="lbfgs", max_iter=2000)
        clf.fit(x, y[:, j])
        out[k, :-1] = clf.coef_[0]
        out[k, -1] = clf.intercept_[0]
    return out


def logits(x: sparse.csr_matrix | np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.asarray(x @ w[:, :-1].T) + w[:, -1]


def lowo(
    data: T.Data, emb: np.ndarray, factors: tuple[float, ...], emb_c: tuple[float, ...]
) -> dict[str, np.ndarray]:
    """Held-out logits of every variant, writer by writer."""
    n = len(data.rows)
    names = [
        "tfidf",
        *(f"tfidf+emb x{f:g}" for f in factors),
        *(f"emb C={c:g}" for c in emb_c),
        *(f"emb std C={c:g}" for c in emb_c),
    ]
    s = {name: np.zeros((n, len(HEADS))) for name in names}
    t0 = time.time()
    for w in sorted(set(data.writers)):
        te = np.where(data.writers == w)[0]
        tr = np.where(data.writers != w)[0]
        idf = T.fit_idf(data, tr)
        x_tr, x_te = T.weighed(data, tr, idf), T.weighed(data, te, idf)
        y = data.y[tr]
        s["tfidf"][te] = logits(x_te, fit_heads(x_tr, y, C))
        for f in factors:
            a = sparse.hstack([x_tr, sparse.csr_matrix(f * emb[tr])], format="csr")
            b = sparse.hstack([x_te, sparse.csr_matrix(f * emb[te])], format="csr")
            s[f"tfidf+emb x{f:g}"][te] = logits(b, fit_heads(a, y, C))
        # the embedding's columns standardised on the training writers (three of the
        # model's 384 are constant: its last layer norm has weight and bias ~0 there)
        mu, sd = emb[tr].mean(0), emb[tr].std(0)
        sd[sd < 1e-6] = np.inf
        for c in emb_c:
            s[f"emb C={c:g}"][te] = logits(emb[te], fit_heads(emb[tr], y, c))
            z_tr, z_te = (emb[tr] - mu) / sd, (emb[te] - mu) / sd
            s[f"emb std C={c:g}"][te] = logits(z_te, fit_heads(z_tr, y, c))
        print(f"  {w}: {time.time() - t0:.0f} s", flush=True)
    for c in emb_c:
        for e in (f"emb C={c:g}", f"emb std C={c:g}"):
            s[f"avg (tfidf, {e})"] = (_z(s["tfidf"]) + _z(s[e])) / 2
    return s


def _z(s: np.ndarray) -> np.ndarray:
    return (s - s.mean(0)) / s.std(0)


# --------------------------------------------------------------------------- figures
def figures(s: np.ndarray, y: np.ndarray, keep: np.ndarray) -> dict[str, float]:
    """Recall of ANY at 3% and 5% FP, each kind's recall at 2% FP and their mean."""
    safe = (y[:, -1] == 0) & keep
    dang = (y[:, -1] == 1) & keep
    out: dict[str, float] = {}
    for fp in (0.03, 0.05):
        cut = np.quantile(s[safe, -1], 1 - fp)
        out[f"any@{fp:g}"] = float((s[dang, -1] >= cut).mean())
    per = []
    for k in range(len(HEADS) - 1):
        pos = (y[:, k] == 1) & keep
        cut = np.quantile(s[(y[:, k] == 0) & keep, k], 0.98)
        per.append(float((s[pos, k] >= cut).mean()))
        out[T.DANGER_KINDS[k]] = per[-1]
    out["kinds mean"] = statistics.fmean(per)
    return out


def bootstrap(
    base: np.ndarray, other: np.ndarray, y: np.ndarray, writers: np.ndarray, keep: np.ndarray
) -> dict[str, tuple[float, float]]:
    """2.5% and 97.5% of (other - base) when the writers are drawn again with replacement."""
    rng = np.random.default_rng(0)
    names = np.unique(writers[keep])
    rows = {w: np.where(writers == w)[0] for w in names}
    diffs: dict[str, list[float]] = {}
    for _ in range(BOOT):
        pick = np.concatenate([rows[w] for w in rng.choice(names, len(names))])
        fb = figures(base[pick], y[pick], keep[pick])
        fo = figures(other[pick], y[pick], keep[pick])
        for key in ("any@0.03", "any@0.05", "kinds mean"):
            diffs.setdefault(key, []).append(fo[key] - fb[key])
    return {
        k: (float(np.quantile(v, 0.025)), float(np.quantile(v, 0.975))) for k, v in diffs.items()
    }


def compare(
    data: T.Data, emb: np.ndarray, factors: tuple[float, ...], emb_c: tuple[float, ...]
) -> None:
    y = data.y[:, HEADS]
    keep = ~np.isin(data.writers, list(T.RULES_TUNED_ON))
    scores = lowo(data, emb, factors, emb_c)
    kinds = " ".join(k[:6] for k in T.DANGER_KINDS)
    head = f"any@3%  any@5%  kinds@2% ({kinds})  mean   Δ any@5% [95%]  Δ mean [95%]"
    print(f"\n{'variant':36} {head}")
    base = scores["tfidf"]
    fb = figures(base, y, keep)
    for name, s in scores.items():
        f = figures(s, y, keep)
        per = " ".join(f"{f[k]:.2f}" for k in T.DANGER_KINDS)
        line = f"{name:36} {f['any@0.03']:.3f}   {f['any@0.05']:.3f}   {per}  {f['kinds mean']:.3f}"
        if name != "tfidf":
            ci = bootstrap(base, s, y, data.writers, keep)
            line += (
                f"  {f['any@0.05'] - fb['any@0.05']:+.3f} [{ci['any@0.05'][0]:+.3f},"
                f" {ci['any@0.05'][1]:+.3f}]  {f['kinds mean'] - fb['kinds mean']:+.3f}"
                f" [{ci['kinds mean'][0]:+.3f}, {ci['kinds mean'][1]:+.3f}]"
            )
        print(line, flush=True)


# --------------------------------------------------------------------------- cost
def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def latency() -> None:
    before = _rss_mb()
    t0 = time.time()
    enc = encoder.load_encoder()
    if enc is None:
        sys.exit(encoder.encoder_status())
    print(f"load (read, SHA-256, views): {time.time() - t0:.2f} s")
    loaded = _rss_mb()
    print(
        f"resident memory: +{loaded - before:.0f} MB for the loaded encoder"
        f" ({before:.0f} MB before, numpy and the training libraries)"
    )
    # an invented message, no one's words: ordinary English, 1,000 characters
    sentence = "I will pick the children up from school on Friday and bring their coats back. "
    text = (sentence * 20)[:1000]
    print(f"1,000 characters = {len(enc.tokenizer.ids(text))} tokens (cut at {encoder.MAX_TOKENS})")
    for label, texts in (("1,000 characters", [text]), ("a 60-character message", [text[:60]])):
        times = _times(lambda t=texts: enc.embed(t))
        print(
            f"{label}: median {statistics.median(times):.1f} ms, fastest {min(times):.1f} ms"
            f" over {len(times)} runs (1 thread)"
        )
    print(f"resident memory after embedding: +{_rss_mb() - before:.0f} MB")


def _times(run: Callable[[], object], n: int = 30) -> list[float]:
    run()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        run()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", action="store_true")
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--factors", type=float, nargs="*", default=FACTORS)
    parser.add_argument("--emb-c", type=float, nargs="*", default=EMB_C)
    args = parser.parse_args()
    if args.latency:
        latency()
        return
    rows = load(TRAINING)
    emb = embed([r["text"] for r in rows], args.cache)
    compare(T.Data(rows), emb, tuple(args.factors), tuple(args.emb_c))


if __name__ == "__main__":
    main()

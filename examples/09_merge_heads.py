"""Can heads 1 and 3 of layer 0 be merged exactly?  (Needs the models extra.)

A tiny GPT-2 with random weights (2 layers, d_model 64, 4 heads, d_head 16) is
built from a config and saved to a temporary folder; nothing is downloaded.
We capture layer 0 at the last of 12 tokens, import heads 1 and 3 as an exact
problem (THEORY §10), prove how many atoms one exact softmax head needs to
equal their sum, and have the independent checker re-verify the certificate.
Then the whole layer: every pair and all four heads together, each merged head
compared with its heads kept separately, and the report's verdict sentence.

Run:  python examples/09_merge_heads.py
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from fractions import Fraction

_missing = [m for m in ("torch", "transformers", "transformer_lens")
            if importlib.util.find_spec(m) is None]
if _missing:
    print(f"this example needs the models extra ({', '.join(_missing)} not installed): "
          "pip install -e '.[models]' in the checkout", file=sys.stderr)
    sys.exit(0)

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
os.environ["TRANSFORMERS_VERBOSITY"] = "error"

from attnproof.certificate import build_certificate  # noqa: E402
from attnproof.checker import check_text  # noqa: E402
from attnproof.heads import MultiHead  # noqa: E402
from attnproof.merging import merge_report  # noqa: E402
from attnproof.transformer import capture, capture_to_problem  # noqa: E402
from attnproof.transformer.problem import domain_query  # noqa: E402
from attnproof.transformer.tiny import build_tiny_gpt2, load_tiny_bridge, tiny_text  # noqa: E402
from attnproof.numeric import evaluate_mpmath  # noqa: E402

tmp = tempfile.TemporaryDirectory()
work = tmp.name
bridge = load_tiny_bridge(build_tiny_gpt2(os.path.join(work, "tiny-gpt2"), seed=0))

# 1. capture layer 0 at the last token (the bridge prepends a BOS token: 12 in all)
cap = capture(bridge, tiny_text(11), layer=0, model_name="tiny-gpt2")
print(f"captured layer {cap.meta['layer']} at position {cap.meta['position']}: "
      f"{cap.n_ctx} context rows, {cap.n_heads} heads, d_model {cap.d_model}, d_head {cap.d_head}")

# 2. heads 1 and 3 as an exact problem on the LayerNorm image
M = capture_to_problem(cap, heads=[1, 3], domain="layernorm")
u = [Fraction(float(v)) for v in domain_query(cap, "layernorm")]
for h, H in zip((1, 3), M.heads):
    (value,) = evaluate_mpmath(MultiHead((H,), dim=M.dim), [u], digits=30)
    ref = cap.head_out[cap.head_position(h)]
    err = max(abs(float(a) - b) for a, b in zip(value, ref)) / max(abs(ref))
    assert err < 1e-10, err
print("the problem reproduces the model's head outputs at the query (relative error < 1e-10)")

# 3. prove and check
cert = build_certificate(M, explicit_fusion_limit=0)
verdict = check_text(cert.text)
assert verdict.code == 0, verdict.message
n1, n3 = (len(H) for H in M.heads)
print(f"heads 1 and 3: lower bound {verdict.lower_bound}, best fusion {verdict.upper_bound}, "
      f"minimum {verdict.minimum} = {n1} x {n3}, trust {cert.doc['trust']}")
assert verdict.minimum == n1 * n3

# an independent look (floating point, evidence only): the key differences of each head
# span 11 dimensions and those of both heads 22, so the difference spaces are independent
# (THEORY Lemma 9.5) and every key is a vertex of its head (12 affinely independent keys)
import numpy as np  # noqa: E402

diffs = [np.array([[float(c) for c in a.key] for a in H.atoms]) for H in M.heads]
diffs = [D[1:] - D[0] for D in diffs]
ranks = [np.linalg.matrix_rank(D) for D in diffs] + [np.linalg.matrix_rank(np.vstack(diffs))]
print(f"numerical ranks of the key differences: {ranks[0]} + {ranks[1]} = {ranks[2]}")
assert ranks == [11, 11, 22]

# 4. every pair and the whole layer
rep = merge_report(cap, os.path.join(work, "report"), explicit_fusion_limit=0)
mins = sorted({q["minimum"] for q in rep.pairs})
print(f"every pair of layer 0: minimum {', '.join(map(str, mins))}; "
      f"all four heads: minimum {rep.layer['minimum']} = 12^4")
assert mins == [144] and rep.layer["minimum"] == 12 ** 4
# the report's words: one merged head against the heads kept separately (12 + 12 atoms)
verdicts = sorted({(q["separate"], q["merge"], q["merge_text"]) for q in rep.pairs})
for separate, _, text in verdicts:
    print(f"every pair: 144 atoms merged against {separate} kept separately: merging {text}")
assert verdicts == [(24, "costs", "costs 6× more")]
# the verdict sentence that report.md opens with, and the merge plan's total
print(rep.answer())
assert rep.answer().startswith("No pair of heads is worth merging")
assert rep.plan is not None and rep.plan["total"] == rep.plan["separate"] == 48
tmp.cleanup()

"""Every example script runs, prints its result and passes its own assertions; the tour notebook executes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SCRIPTS = sorted(p for p in EXAMPLES.glob("[0-9]*.py"))

# a line each script must print, computed by the script (checked against the run)
EXPECTED = {
    "01_sigmoid_separation.py": ["6               12                             64                         64",
                                 "checker says valid, minimum 64, trust exact"],
    "02_cancelling_heads.py": ["fused into 1 atom", "fused into 2 atoms"],
    "03_biased_sigmoids.py": ["Newton bound 2, best fusion 3 atoms", "Newton bound 4 = best fusion 4"],
    "04_graph_sums.py": ["K4                 6                            24               38",
                         "cycle C4           4                            14               15",
                         "K5                10                           120              291"],
    "05_generic_keys.py": ["lower bound 8 (vertices), best fusion 9 atoms"],
    "06_negative_coefficients.py": ["so the minimum is between 3 and 4"],
    "07_vector_values.py": ["Newton bound 5, fused head with 6 atoms"],
    "08_window_search.py": ["k = 4, box radius 0 (1 exponents for G): unsat",
                            "6 atoms proven necessary, 7 found"],
    "09_merge_heads.py": ["the problem reproduces the model's head outputs at the query",
                          "heads 1 and 3: lower bound 144, best fusion 144, minimum 144 = 12 x 12",
                          "numerical ranks of the key differences: 11 + 11 = 22",
                          "every pair of layer 0: minimum 144; all four heads: minimum 20736",
                          "every pair: 144 atoms merged against 24 kept separately: merging "
                          "costs 6× more",
                          "No pair of heads is worth merging: every merged head needs at least as "
                          "many atoms as the two heads kept separately. Best merge plan: keep "
                          "every head (48 atoms; optimal over all partitions of the heads)."],
    "10_lines_k3.py": ["k = 6: unsat (z3 and cvc5): every fusion has at least 7 atoms",
                       "k = 7: sat, a support of 7 points:",
                       "valid after replay: minimum 7, trust line-refuted"],
    "11_graph_minors.py": ["C6                    62       63               63",
                           "K4                    24       28               38",
                           "C4 by odd contraction alone: 15",
                           "C6 certificate: valid: lower bound 63, upper bound 63, trust exact"],
}

# modules an example needs beyond the base install (the models extra; float keys need geometry)
NEEDS = {"09_merge_heads.py": ("torch", "transformer_lens", "attnproof.geometry")}


def _missing(name: str) -> list:
    import importlib.util

    return [m for m in NEEDS.get(name, ()) if importlib.util.find_spec(m) is None]


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    env["MPLBACKEND"] = "Agg"
    return env


def test_at_least_eight_examples_each_with_expectations():
    names = [p.name for p in SCRIPTS]
    assert len(names) >= 8
    assert sorted(EXPECTED) == names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_example_runs(script, tmp_path):
    if _missing(script.name):
        pytest.skip(f"{script.name} needs {', '.join(_missing(script.name))}")
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr == ""
    for line in EXPECTED[script.name]:
        assert line in proc.stdout, f"{script.name}: missing {line!r} in\n{proc.stdout}"
    assert list(tmp_path.iterdir()) == []          # examples leave no files behind


def test_independent_helpers_doctests():
    import doctest
    import importlib.util

    spec = importlib.util.spec_from_file_location("_independent", EXAMPLES / "_independent.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    result = doctest.testmod(mod)
    assert result.attempted >= 2 and result.failed == 0


def test_tour_notebook_executes(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(EXAMPLES / "tour.ipynb", as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), \
        "commit the notebook without outputs"
    assert not any("subprocess" in c.source for c in nb.cells), "the tour uses the API, not the CLI"
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    texts = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            assert out.get("output_type") != "error", out
            texts.append(out.get("text", "") or str(out.get("data", {}).get("text/plain", "")))
    joined = "\n".join(texts)
    assert "minimum 64" in joined and "hexagon: 6 vertices" in joined
    assert any("image/png" in out.get("data", {}) for c in nb.cells if c.cell_type == "code"
               for out in c.get("outputs", []))
    assert list(tmp_path.iterdir()) == [], "the tour writes its files into a temporary folder"


def test_merge_heads_example_without_torch_says_what_to_install():
    """Without the models extra, example 09 says what to install and exits cleanly."""
    import subprocess
    import sys

    code = ("import runpy, sys; sys.modules['torch'] = None; "
            f"runpy.run_path({str(EXAMPLES / '09_merge_heads.py')!r}, run_name='__main__')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "pip install -e '.[models]'" in proc.stderr and "torch" in proc.stderr

"""Write the JSON Schemas of attnproof's files and ``--json`` outputs (run from the repository root).

    python schemas/generate.py          # rewrite schemas/*.schema.json
    python schemas/generate.py --check  # exit 1 when a file is out of date

One number rule everywhere: counts are JSON integers below 2^53 and decimal
strings from 2^53 on; problem numbers are integers or exact strings ("p/q",
decimals).  Every ``--json`` document has ``verdict`` and ``elapsed_s``; an
error under ``--json`` is the ``error`` document of every command schema.
Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://attnproof.invalid/schemas/"

COUNT = {"description": "a count: an integer below 2^53, a decimal string from 2^53 on",
         "oneOf": [{"type": "integer", "minimum": 0, "maximum": 2 ** 53 - 1},
                   {"type": "string", "pattern": "^[1-9][0-9]{15,}$"}]}
COUNT_OR_NULL = {"oneOf": [COUNT, {"type": "null"}]}
ELAPSED = {"type": "number", "minimum": 0, "description": "wall-clock seconds of the command"}
TRUST = {"enum": ["exact", "exact-modulo-flint", "window-refuted", "line-refuted", "numeric",
                  "unknown"]}
STR_OR_NULL = {"type": ["string", "null"]}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}
# names that the vocabulary replaced: no --json output may use them at the top level
LEGACY = ["status", "result", "tight", "tight_lower_bound", "fused_atoms", "best_atoms",
          "start_atoms", "proven_minimum"]

NUMBER = {"description": "an exact number: a JSON integer, or a string \"p/q\" or a decimal",
          "oneOf": [{"type": "integer"},
                    {"type": "string",
                     "pattern": r"^[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)$"}]}

PROBLEM = {
    "type": "object",
    "required": ["format", "version", "dim", "heads"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": "attnproof-problem"},
        "version": {"const": 1},
        "dim": {"type": "integer", "minimum": 0, "maximum": 100000},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "heads": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["atoms"], "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "atoms": {"type": "array", "minItems": 1, "items": {
                    "type": "object", "required": ["key", "value"], "additionalProperties": False,
                    "properties": {
                        "key": {"oneOf": [
                            {"type": "array", "items": NUMBER},
                            {"type": "object", "additionalProperties": False,
                             "patternProperties": {"^(0|[1-9][0-9]{0,8})$": NUMBER}}]},
                        "value": {"oneOf": [NUMBER, {"type": "array", "minItems": 1, "items": NUMBER}]},
                        "bias": NUMBER,
                        "weight": NUMBER}}}}}},
    },
}

POLY = {"type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2}}
STEP_RULES = {
    "irreducible_factor": ["poly", "witness", "heads", "residue_component"],
    "reduced_by_flint": ["numerator", "denominator"],
    "newton_blocks": ["blocks"],
    "product_fusion": [],
    "explicit_fusion": ["head"],
    "window_refutation": ["atoms", "window", "solvers", "smtlib_sha256", "smtlib"],
    "line_refutation": ["atoms", "directions", "problem_sha256", "solvers", "smtlib_sha256",
                        "smtlib"],
    "non_constant": ["witnesses"],
    "sub_sum": ["factors"],
}
CERTIFICATE = {
    "type": "object",
    "required": ["format", "version", "problem", "problem_sha256", "claims", "steps", "trust"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": "attnproof-certificate"},
        "version": {"const": 1},
        "problem": {"$ref": "#/$defs/problem"},
        "problem_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "claims": {"type": "object", "additionalProperties": False,
                   "required": ["lower_bound", "upper_bound", "minimum", "window_refutations"],
                   "properties": {"lower_bound": COUNT, "upper_bound": COUNT,
                                  "minimum": COUNT_OR_NULL,
                                  "window_refutations": {"type": "array"}}},
        "steps": {"type": "array", "items": {
            "type": "object", "required": ["rule"],
            "properties": {"rule": {"type": "string"}},
            # known rules have their fields; rules added later are checked by the checker
            "allOf": [{"if": {"properties": {"rule": {"const": r}}},
                       "then": {"required": ["rule", *fs], "additionalProperties": False,
                                "properties": {k: True for k in ["rule", *fs]}}}
                      for r, fs in STEP_RULES.items()]}},
        "trust": TRUST,
    },
    "$defs": {"problem": PROBLEM},
}


def _output(verdicts: list[str], props: dict, required: list[str], more: dict | None = None) -> dict:
    result = {"type": "object",
              "required": sorted({"verdict", "elapsed_s", *required}),
              "properties": {"verdict": {"enum": verdicts}, "elapsed_s": ELAPSED, **props},
              "not": {"anyOf": [{"required": [k]} for k in LEGACY]}}
    if more:
        result.update(more)
    return result


ERROR = {"type": "object", "additionalProperties": False,
         "required": ["verdict", "error", "message", "exit_code", "elapsed_s"],
         "properties": {"verdict": {"const": "error"}, "error": {"type": "string"},
                        "message": {"type": "string"},
                        "exit_code": {"type": "integer", "minimum": 1}, "elapsed_s": ELAPSED}}

BLOCK = {"type": "object", "required": ["factors", "variables", "method", "count"],
         "properties": {"factors": INT, "variables": INT, "method": {"type": "string"},
                        "count": COUNT}}
GRAPH = {"description": "a graph sum (THEORY §13): nodes, edges with multiplicity, the "
                        "acyclic orientations T(2,0) (the Newton bound), the forests T(2,1) "
                        "(the atoms of the fusion Q) and the bound the graph minors prove; a "
                        "count is null when it was out of reach",
         "type": "object", "additionalProperties": False,
         "required": ["nodes", "edges", "acyclic_orientations", "forests", "minor_bound"],
         "properties": {"nodes": INT, "edges": INT, "acyclic_orientations": COUNT_OR_NULL,
                        "forests": COUNT_OR_NULL, "minor_bound": COUNT_OR_NULL}}
QUESTION = {"type": "object", "required": ["heads", "lower_bound", "upper_bound", "minimum", "trust"],
            "properties": {"heads": {"type": "array", "items": INT}, "lower_bound": COUNT_OR_NULL,
                           "upper_bound": COUNT_OR_NULL, "minimum": COUNT_OR_NULL,
                           "trust": TRUST, "product": COUNT, "elapsed_s": ELAPSED,
                           "certificate": {"type": "string"}, "error": {"type": "string"},
                           "complete": {"type": "boolean",
                                        "description": "the minimum is proven (the bounds meet)"},
                           "lower_bound_complete": BOOL,
                           "separate": {**COUNT, "description": "atoms of the heads kept "
                                                                "separately, the sum of n_h"},
                           "merge": {"enum": ["saves", "costs", "equal", "undecided"]},
                           "merge_text": {"type": "string"},
                           "saves_atoms": {"type": ["integer", "null"]},
                           "structures": {"type": "array", "items": {"type": "string"}},
                           "steps": {"type": "array", "items": {
                               "enum": ["bounds", "explicit fusion", "line refutations"]}},
                           "open_reason": {"type": "string"}, "closes_with": {"type": "string"},
                           "replay": {"type": "string"}, "hint": {"type": "string"},
                           "certificate_bytes": INT, "certificate_sha256": {"type": "string"}}}
PLAN_GROUP = {"type": "object", "required": ["heads", "separate", "lower_bound", "upper_bound"],
              "properties": {"heads": {"type": "array", "items": INT}, "separate": COUNT,
                             "lower_bound": COUNT_OR_NULL, "upper_bound": COUNT_OR_NULL,
                             "minimum": COUNT_OR_NULL, "certificate": STR_OR_NULL}}
PLAN = {"type": "object",
        "required": ["groups", "total", "lower", "separate", "optimal", "exhaustive", "note"],
        "properties": {"groups": {"type": "array", "items": PLAN_GROUP}, "total": INT,
                       "lower": INT, "separate": INT, "saves_atoms": INT, "optimal": BOOL,
                       "exhaustive": BOOL, "note": {"type": "string"},
                       "refined": {"type": "array", "items": {"type": "array", "items": INT}}}}
OUTPUTS = {
    "fuse": _output(["fused"], {
        "atoms": COUNT, "entries": COUNT, "heads": INT, "head_atom_terms": INT,
        "method": {"enum": ["reduced", "lcm", "product", "merged-product"]}, "verified_points": INT,
        "output": STR_OR_NULL}, ["atoms", "entries", "heads", "method"]),
    "bound": _output(["proven"], {
        "lower_bound": COUNT, "trust": TRUST, "path": {"enum": ["c1", "c3", "geometry", "none"]},
        "complete": BOOL,
        "factors": {"type": ["integer", "null"]}, "blocks": {"type": "array", "items": BLOCK},
        "graph": GRAPH, "notes": {"type": "array", "items": {"type": "string"}}},
        ["lower_bound", "trust", "complete", "blocks"]),
    "prove": _output(["proven"], {
        "lower_bound": COUNT, "upper_bound": COUNT, "minimum": COUNT_OR_NULL, "trust": TRUST,
        "complete": BOOL, "path": {"enum": ["c1", "c3", "geometry", "none"]},
        "certificate": STR_OR_NULL, "lines": {"type": "object"}, "graph": GRAPH,
        "notes": {"type": "array", "items": {"type": "string"}}},
        ["lower_bound", "upper_bound", "minimum", "trust", "complete", "certificate"]),
    "check": _output(["valid", "invalid", "inconclusive"], {
        "exit_code": INT, "message": {"type": "string"}, "step": {"type": ["integer", "null"]},
        "rule": STR_OR_NULL, "lower_bound": COUNT_OR_NULL, "upper_bound": COUNT_OR_NULL,
        "minimum": COUNT_OR_NULL, "trust": {"oneOf": [TRUST, {"type": "null"}]},
        "window_refutations": {"type": "array"},
        "line_steps": {"type": "array", "items": INT},
        "exact_lower_bound": COUNT_OR_NULL,
        "problem_sha256": {"type": ["string", "null"], "pattern": "^[0-9a-f]{64}$"},
        "replay": {"type": "array"}, "complete": {"type": ["boolean", "null"]}},
        ["exit_code", "message", "lower_bound", "upper_bound", "minimum", "trust"]),
    "search": _output(["sat", "unsat", "unknown"], {
        "atoms": COUNT_OR_NULL, "target": INT, "minimum": COUNT_OR_NULL, "lower_bound": COUNT,
        "start": COUNT, "method": {"type": "string"},
        "stopped": {"enum": ["refuted", "bound", "unknown", "minimum", "gap"]},
        "steps": {"type": "array", "items": {"type": "object", "required": ["verdict"],
                                             "properties": {"verdict": {"enum": ["sat", "unsat", "unknown"]}}}},
        "solvers": {"type": "object"}, "window": {"type": ["object", "null"]},
        "smtlib_sha256": {"type": "string"}, "output": STR_OR_NULL,
        "certificate": STR_OR_NULL, "seconds": {"type": "number"}},
        ["atoms"]),
    "numcheck": _output(["consistent", "refuted", "undecided"], {
        "atoms": INT, "max_difference": {"type": ["number", "null"]},
        "max_difference_text": {"type": "string"}, "rigorous": BOOL,
        "checks": {"type": "array"}, "failed_checks": INT,
        "ball_check": {"type": "object", "properties": {
            "max_difference": {"type": ["number", "null"]}}}},
        ["rigorous"]),
    "demo": _output(["computed"], {
        "max_atoms": INT,
        "rows": {"type": "array", "items": {
            "type": "object", "required": ["d", "heads", "head_atom_terms", "atoms", "minimum"],
            "properties": {"d": INT, "heads": INT, "head_atom_terms": INT, "atoms": COUNT_OR_NULL,
                           "method": STR_OR_NULL, "minimum": COUNT_OR_NULL}}}},
        ["rows"]),
    "family": _output(["written"], {
        "family": {"type": "string"}, "heads": INT, "dim": INT, "head_atom_terms": INT,
        "output": STR_OR_NULL, "problem": {"oneOf": [{"$ref": "#/$defs/problem"}, {"type": "null"}]}},
        ["heads", "dim", "output", "problem"]),
    "show": _output(["shown"], {
        "variables": {"type": "string"}, "style": {"enum": ["plain", "unicode", "latex"]},
        "heads": INT, "graph": GRAPH,
        "formulas": {"type": "array", "items": {"type": "object",
                                                 "required": ["head", "atoms", "formula"]}},
        "reduced": {"type": "array", "items": {"type": "string"}},
        "q_support_points": COUNT_OR_NULL, "q_positive": BOOL, "plot": STR_OR_NULL,
        "plot_vertices": INT,
        "summary": {"description": "float keys without --formulas: what show prints instead "
                                   "of the formulas",
                    "type": "object", "required": ["heads", "exponent_bits", "structures"],
                    "properties": {
                        "heads": {"type": "array", "items": {
                            "type": "object", "required": ["head", "atoms", "distinct_keys"],
                            "properties": {"head": INT, "name": STR_OR_NULL, "atoms": INT,
                                           "distinct_keys": INT}}},
                        "exponent_bits": INT,
                        "structures": {"type": "array", "items": {"type": "string"}}}},
        "q_classes": {"description": "long keys (THEORY §9): classes of associate heads whose "
                                     "denominators multiply to Q; null when not certified",
                      "type": ["array", "null"], "items": {"type": "array", "items": INT}}},
        ["heads", "formulas", "reduced", "q_support_points"]),
    "eval": _output(["evaluated"], {
        "count": INT, "dim": INT, "heads": INT, "value_dim": INT, "method": {"type": "string"},
        "rigorous": BOOL, "values": {"type": "array"}, "output": {"type": "string"}},
        ["count", "method", "rigorous", "values"]),
    "import": _output(["written"], {
        "problem": {"type": "string"}, "heads": {"type": "array", "items": INT},
        "head_atoms": {"type": "array", "items": INT}, "dim": INT, "value_dim": INT,
        "domain": {"enum": ["layernorm", "raw"]}, "arithmetic": {"enum": ["float64", "exact"]},
        "model": STR_OR_NULL, "layer": {"type": ["integer", "null"]},
        "position": {"type": ["integer", "null"]},
        "model_deviation": {"type": ["number", "null"]}},
        ["problem", "heads", "head_atoms", "dim", "domain", "arithmetic"]),
    "capture": _output(["written"], {
        "capture": {"type": "string"}, "model": {"type": "string"}, "layer": INT, "position": INT,
        "heads": {"type": "array", "items": INT}, "n_ctx": INT, "d_model": INT, "d_head": INT,
        "layernorm": BOOL},
        ["capture", "model", "layer", "position", "heads", "n_ctx"]),
    "merge-report": _output(["answered", "inconclusive"], {
        "format": {"const": "attnproof-merge-report"}, "version": {"const": 1},
        "model": STR_OR_NULL, "layer": {"type": ["integer", "null"]},
        "position": {"type": ["integer", "null"]}, "tokens": {"type": ["array", "null"]},
        "domain": {"enum": ["layernorm", "raw"]}, "arithmetic": {"enum": ["float64", "exact"]},
        "heads": {"type": "array", "items": INT},
        "head_atoms": {"type": "object", "additionalProperties": INT},
        "complete": BOOL, "files": {"type": "object"},
        "answer": {"type": "string"},
        "head_structures": {"type": "object",
                            "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        "pairs": {"type": "array", "items": QUESTION},
        "layer_question": {"oneOf": [QUESTION, {"type": "null"}]},
        "groups": {"type": "array", "items": QUESTION},
        "plan": {"oneOf": [PLAN, {"type": "null"}]}},
        ["heads", "pairs", "layer_question", "complete", "domain", "answer", "plan"],
        ),
    "export-checker": _output(["written"], {
        "directory": {"type": "string"}, "files": {"type": "array", "items": {"type": "string"}}},
        ["directory", "files"]),
}


def documents() -> dict[str, dict]:
    """``{file name: schema}`` for every schema of this folder."""
    out = {
        "problem.schema.json": {"$schema": DRAFT, "$id": BASE + "problem.schema.json",
                                "title": "attnproof problem file", **PROBLEM},
        "certificate.schema.json": {"$schema": DRAFT, "$id": BASE + "certificate.schema.json",
                                    "title": "attnproof certificate", **CERTIFICATE},
        "error.schema.json": {"$schema": DRAFT, "$id": BASE + "error.schema.json",
                              "title": "an error under --json (any command)", **ERROR},
    }
    for name, result in OUTPUTS.items():
        defs = {"result": result, "error": ERROR}
        if "$ref" in json.dumps(result):
            defs["problem"] = PROBLEM
        out[f"cli-{name}.schema.json"] = {
            "$schema": DRAFT, "$id": BASE + f"cli-{name}.schema.json",
            "title": f"attnproof {name} --json",
            "oneOf": [{"$ref": "#/$defs/result"}, {"$ref": "#/$defs/error"}],
            "$defs": defs}
    return out


def main(argv: list[str]) -> int:
    stale = []
    for name, doc in documents().items():
        text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
        path = HERE / name
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python schemas/generate.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`show` refuses problems with too many lattice variables instead of building a huge context."""

import json

from attnproof import Atom, Head, MultiHead, dump_problem


def test_show_refuses_many_variables_with_exit_3(tmp_path, run_cli):
    dim = 5000
    atoms = [Atom.sparse(dim, {j: 1}, (1,)) for j in range(0, dim, 3)] + [Atom.sparse(dim, {}, (0,))]
    path = tmp_path / "wide.json"
    dump_problem(MultiHead((Head(tuple(atoms)),)), path)
    rc, out, err = run_cli("show", str(path))
    assert rc == 3 and "lattice variables" in err and out == ""
    rc, out, _ = run_cli("show", str(path), "--json")
    doc = json.loads(out)
    assert rc == 3 and doc["verdict"] == "error" and doc["exit_code"] == 3

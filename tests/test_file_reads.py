"""Reading an input file reserves memory for what is read, not for the file limit.

Both readers (the producer's ``io.files.read_text_file`` and the standalone
checker's ``read_text``) once asked for ``MAX_FILE_BYTES + 1`` bytes up front, so a
tiny file failed under an address-space limit of a few hundred megabytes.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

resource = pytest.importorskip("resource")

CHILD = textwrap.dedent("""
    import resource, sys
    from {module} import {function} as read
    size = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                size = int(line.split()[1]) * 1024
    limit = size + 256 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    print(read(sys.argv[1]))
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("module,function", [("attnproof.io.files", "read_text_file"),
                                             ("attnproof.checker.__main__", "read_text")])
def test_a_small_file_reads_under_a_tight_address_space(tmp_path, module, function):
    p = tmp_path / "small.json"
    p.write_text('{"format": "attnproof-problem"}')
    r = subprocess.run([sys.executable, "-c", CHILD.format(module=module, function=function), str(p)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == '{"format": "attnproof-problem"}'

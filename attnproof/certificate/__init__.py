"""Certificates: the untrusted producer (build, canonical serialization).

The trusted side is :mod:`attnproof.checker`; the format is specified in
``docs/certificates.md``.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.checker import check_text
>>> check_text(build_certificate(sigmoid_sum(3)).text).status
'valid'
"""

from .build import (EXPLICIT_FUSION_LIMIT, FORMAT, VERSION, Certificate, build_certificate,
                    encode_count, gap_note)
from .self_check import check_own, max_work_hint, needed_work, waits_for_replay

__all__ = ["build_certificate", "Certificate", "encode_count", "gap_note", "FORMAT", "VERSION",
           "EXPLICIT_FUSION_LIMIT", "check_own", "max_work_hint", "needed_work", "waits_for_replay"]

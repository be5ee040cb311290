"""Certificates: the untrusted producer (build, canonical serialization).

:mod:`.document` is the one writer of the document (steps, claims, trust) from
typed objects; :mod:`.build` proves the bounds it takes; :mod:`.steps` writes
each rule's steps; :mod:`.self_check` checks what was written.

The trusted side is :mod:`attnproof.checker`; the format is specified in
``docs/certificates.md``.

>>> from attnproof.families import sigmoid_sum
>>> from attnproof.checker import check_text
>>> check_text(build_certificate(sigmoid_sum(3)).text).status
'valid'
"""

from .build import EXPLICIT_FUSION_LIMIT, build_certificate
from .document import (FORMAT, TRUST_ORDER, VERSION, Certificate, assemble, certificate_document,
                       encode_count, gap_note, weakest, with_refutations)
from .self_check import check_own, check_written, max_work_hint, needed_work, waits_for_replay
from .steps.windows import LineRefutation, WindowRefutation

__all__ = ["build_certificate", "Certificate", "encode_count", "gap_note", "FORMAT", "VERSION",
           "EXPLICIT_FUSION_LIMIT", "check_own", "check_written", "max_work_hint", "needed_work", "waits_for_replay",
           "assemble", "certificate_document", "with_refutations", "weakest", "TRUST_ORDER",
           "LineRefutation", "WindowRefutation"]

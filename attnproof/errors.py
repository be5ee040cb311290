"""The exception hierarchy of attnproof: one root, specific subclasses.

Every error the toolkit raises on purpose derives from :class:`AttnproofError`;
the command line turns these into a one-line message and a non-zero exit code,
anything else is an internal error.

>>> issubclass(NumberError, InputError) and issubclass(InputError, AttnproofError)
True
"""

from __future__ import annotations


class AttnproofError(Exception):
    """Root of every deliberate attnproof error."""


class InputError(AttnproofError):
    """A problem file, number or option given by the user is not acceptable."""


class NumberError(InputError):
    """A number is not an exact rational the toolkit accepts (NaN, huge exponent...)."""


class ValidationError(InputError):
    """A structurally parsed head or multi-head breaks a rule (dimension, weight...)."""


class LimitError(AttnproofError):
    """A computation would exceed a user limit such as ``--max-atoms``."""


class AlgebraError(AttnproofError):
    """An exact algebraic computation failed an internal consistency check."""


class CertificateError(AttnproofError):
    """A certificate could not be built or read."""


class SolverError(AttnproofError):
    """An SMT solver is missing, failed, or gave an answer that does not verify."""


class NumericError(AttnproofError):
    """A numerical evaluation could not be carried out as asked."""


class ExecutorError(InputError):
    """The executor cannot run as asked: a bad ``--workers``/``--scheduler``, Dask missing or unreachable."""

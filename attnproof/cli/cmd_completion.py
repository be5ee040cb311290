"""``attnproof completion [SHELL]``: a shell completion script (with argcomplete)."""

from __future__ import annotations

import argparse

from ..errors import InputError
from .common import EXIT_OK

NAME = "completion"
HELP = "print a shell completion script for attnproof (needs argcomplete)"
DESCRIPTION = """\
Print the script that makes SHELL complete attnproof's commands, options and
file names.  It needs the optional package argcomplete (in the checkout that
installed attnproof: pip install -e '.[completion]'; or pip install argcomplete).

examples:
  eval "$(attnproof completion bash)"          # this shell; add it to ~/.bashrc to keep it
  attnproof completion zsh > ~/.zfunc/_attnproof
  attnproof completion fish > ~/.config/fish/completions/attnproof.fish
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("shell", nargs="?", default="bash", choices=("bash", "zsh", "fish"),
                   help="the shell (default bash)")


def run(args: argparse.Namespace) -> int:
    try:
        import argcomplete
    except ImportError:
        # the README installs attnproof from its checkout: the extra is named as it installs there
        raise InputError("shell completion needs argcomplete: pip install -e '.[completion]' in "
                         "the attnproof checkout (or pip install argcomplete)") from None
    print(argcomplete.shellcode(["attnproof"], shell=args.shell), end="")
    return EXIT_OK

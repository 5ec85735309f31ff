"""A placeholder for a subcommand that is not built yet (removed once every command exists)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_stub(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help_text, description=help_text)

    def not_yet(args: argparse.Namespace) -> int:
        print(f"duelclock {name}: not available yet", file=sys.stderr)
        return 2

    parser.set_defaults(func=not_yet)
    return parser

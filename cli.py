"""Shim: ``python cli.py …`` runs the autogen-pse command line (see ``pse --help``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))

from autogen_pse.cli import entry  # noqa: E402

if __name__ == "__main__":
    entry()

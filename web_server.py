"""Shim: ``python web_server.py`` serves the dashboard (same as ``make serve``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))

from autogen_pse.web import main  # noqa: E402

if __name__ == "__main__":
    main()

"""Cold start of ``pse trace -n 5`` (a fresh interpreter each time) against two floors measured in
the same loop: a bare interpreter, and one importing only the libraries every command needs
(typer, rich, pydantic-settings). The listing reads a 100-run index in a temp home.

Usage: .venv/bin/python bench/bench_cold_start.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bench_runs_list import fill_index  # noqa: E402

COMMANDS = {
    "pse trace -n 5": [sys.executable, "-m", "autogen_pse", "trace", "-n", "5"],
    "python -c pass": [sys.executable, "-c", "pass"],
    "import typer, rich, pydantic_settings": [
        sys.executable, "-c", "import typer, rich.console, rich.table, pydantic_settings"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        fill_index(Path(home) / "traces", 100)
        env = {**os.environ, "PSE_HOME": home, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "80"}
        env.pop("PSE_TRACES_DIR", None)
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for cmd in COMMANDS.values():  # warm the OS file cache and .pyc files
            subprocess.run(cmd, env=env, check=True, capture_output=True)
        for _ in range(args.runs):  # interleaved: a change in machine load hits every command alike
            for name, cmd in COMMANDS.items():
                t = time.perf_counter()
                subprocess.run(cmd, env=env, check=True, capture_output=True)
                times[name].append(time.perf_counter() - t)
    med = {name: statistics.median(values) for name, values in times.items()}
    print(f"cold start, median of {args.runs} runs each, interleaved")
    for name, value in med.items():
        print(f"  {name:40s}: {value:6.3f} s")
    ours, floor = med["pse trace -n 5"], med["import typer, rich, pydantic_settings"]
    print(f"  pse trace over the library floor      : {ours / floor:6.2f}x  (+{(ours - floor) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()

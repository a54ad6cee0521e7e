"""OpenTelemetry export on vs off: per-turn wall time of a full run with the zero-latency scripted model.

"on" exports every run (run, cycle, AutoGen and chat spans) over OTLP/HTTP to a real receiver on
loopback (tests/otlp_receiver.py, in a process of its own like a real collector); "off" has no
endpoint set (nothing of OpenTelemetry is installed). Each mode runs in its own process (the
global tracer provider can be set only once per process), alternately, ROUNDS times; the figure
is the median over all runs of a mode.
Target: ratio <= 1.05.

    PYTHONPATH=src .venv/bin/python bench/bench_otel.py
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 20
ROUNDS = 3
TURNS = 3  # planner, specialist, evaluator
HERE = Path(__file__).resolve().parent


def measure(mode: str) -> list[float]:
    sys.path.insert(0, str(HERE))
    from _bench_task import bench_settings, script, tmpdir

    from autogen_pse.runner import RunRequest, run_task
    from autogen_pse.telemetry import Telemetry, close_active

    receiver = None
    if mode == "on":
        receiver = subprocess.Popen([sys.executable, __file__, "receiver"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True)
        assert receiver.stdout is not None and receiver.stdin is not None
        os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.stdout.readline().strip()
    tmp = tmpdir()
    settings = bench_settings(tmp)
    path = tmp / "s.json"
    path.write_text(json.dumps(script([("PASS", "OK")])))

    async def runs() -> list[float]:
        times = []
        for _ in range(RUNS + 1):
            t = time.perf_counter()
            result = await run_task(RunRequest(task="bench", model=f"scripted:{path}"), settings)
            times.append((time.perf_counter() - t) / TURNS)
            assert result.verdict == "PASS"
        return times[1:]  # the first run is warm-up

    times = asyncio.run(runs())
    if receiver is not None:
        exporter = Telemetry._active.exporter if Telemetry._active else None
        close_active(10)
        spans, _ = receiver.communicate("stop\n", timeout=30)
        assert int(spans) > 0 and exporter is not None and exporter.failed_spans == 0, "spans must reach it"
        print(f"# on: {int(spans)} spans received", file=sys.stderr)
    return times


def serve() -> None:
    """The receiver process: prints its OTLP/HTTP endpoint, then the spans received once stdin says stop."""
    sys.path.insert(0, str(HERE.parent))
    from tests.otlp_receiver import OtlpReceiver

    receiver = OtlpReceiver()
    print(receiver.http_endpoint, flush=True)
    sys.stdin.readline()
    time.sleep(0.5)
    print(len(receiver.spans), flush=True)
    receiver.stop()


def main() -> None:
    results: dict[str, list[float]] = {"off": [], "on": []}
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    for _ in range(ROUNDS):
        for mode in ("off", "on"):
            out = subprocess.run([sys.executable, __file__, mode], capture_output=True, text=True, env=env,
                                 check=True)
            results[mode] += json.loads(out.stdout)
    off, on = statistics.median(results["off"]), statistics.median(results["on"])
    n = len(results["off"])
    print(f"per-turn wall time, median of {n} runs per mode ({ROUNDS} alternating processes)")
    print(f"  export off: {off * 1000:8.2f} ms/turn")
    print(f"  export on : {on * 1000:8.2f} ms/turn  (OTLP/HTTP to a loopback receiver)")
    print(f"  ratio     : {on / off:8.3f}x  (target <= 1.05)")


if __name__ == "__main__":
    if sys.argv[1:] == ["receiver"]:
        serve()
    elif len(sys.argv) == 2 and sys.argv[1] in ("on", "off"):
        print(json.dumps(measure(sys.argv[1])))
    else:
        main()

"""A tiny tool-free task for orchestration benchmarks (no pytest subprocesses in the way)."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from autogen_pse.config import Settings  # noqa: E402

PROMPT = "You are the {role}. Keep replies short.\n\n{extra}\n"


def bench_settings(tmp: Path, **overrides: object) -> Settings:
    """Settings with a tasks dir holding one task ``bench`` (message artifact, no tools)."""
    tasks = tmp / "tasks"
    (tasks / "bench" / "prompts").mkdir(parents=True, exist_ok=True)
    (tasks / "_registry.json").write_text(json.dumps({"tasks": [
        {"name": "bench", "title": "Benchmark task", "description": "no tools", "artifact": "message"}]}))
    (tasks / "bench" / "task.md").write_text("Summarise why sorting matters in three sentences.\n")
    for role, extra in (("planner", "{BLOCKED_FORMAT}"), ("specialist", "{BLOCKED_FORMAT}"),
                        ("evaluator", "{VERDICT_FORMAT}")):
        (tasks / "bench" / "prompts" / f"{role}.md").write_text(PROMPT.format(role=role.upper(), extra=extra))
    values = {"tasks_dir": tasks, "traces_dir": tmp / "traces", "state_dir": tmp / "state",
              "retry_base_delay": 0.001, **overrides}
    return Settings(_env_file=None, **values)


def verdict(outcome: str, reason: str = "OK", issues: list[str] | None = None) -> str:
    body = json.dumps({"outcome": outcome, "reason": reason, "issues": issues or [], "summary": outcome})
    return f"Reviewed.\n```verdict\n{body}\n```"


ARTIFACT = ("Sorting makes search fast. It groups equal items. It is the first step of many "
            "algorithms, from deduplication to merging. ") * 4


def script(outcomes: list[tuple[str, str]]) -> dict[str, list[str]]:
    doc: dict[str, list[str]] = {"planner": [], "specialist": [], "evaluator": []}
    for n, (outcome, reason) in enumerate(outcomes, 1):
        doc["planner"].append(f"Plan {n}: write three sentences.")
        doc["specialist"].append(f"{ARTIFACT} (version {n})")
        doc["evaluator"].append(verdict(outcome, reason, [] if outcome == "PASS" else [f"issue of cycle {n}"]))
    return doc


def tmpdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="pse-bench-"))

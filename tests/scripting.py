"""Builders for scripted-model files used by tests, benchmarks and the shipped demo fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

QUICKSORT_OK = '''"""Quicksort."""


def quicksort(items: list[int]) -> list[int]:
    """Return a new list with ``items`` in ascending order; ``items`` is unchanged."""
    if len(items) <= 1:
        return list(items)
    pivot = items[len(items) // 2]
    less = [x for x in items if x < pivot]
    equal = [x for x in items if x == pivot]
    greater = [x for x in items if x > pivot]
    return quicksort(less) + equal + quicksort(greater)
'''

QUICKSORT_BUGGY = QUICKSORT_OK.replace("+ equal +", "+ [pivot] +")

TESTS = '''from quicksort import quicksort


def test_empty():
    assert quicksort([]) == []


def test_one():
    assert quicksort([7]) == [7]


def test_duplicates():
    assert quicksort([3, 1, 3, 2, 1]) == [1, 1, 2, 3, 3]


def test_negative():
    assert quicksort([0, -5, 4, -1]) == [-5, -1, 0, 4]


def test_sorted_and_unchanged():
    items = [1, 2, 3, 4]
    assert quicksort(items) == [1, 2, 3, 4]
    assert items == [1, 2, 3, 4]
'''


def verdict(outcome: str, reason: str = "OK", issues: list[str] | None = None, summary: str = "") -> str:
    body = json.dumps({"outcome": outcome, "reason": reason, "issues": issues or [], "summary": summary})
    return f"```verdict\n{body}\n```"


def review(outcome: str, reason: str = "OK", issues: list[str] | None = None, summary: str = "") -> str:
    return f"I ran the tests and read the files.\n\n{verdict(outcome, reason, issues, summary or outcome)}"


def write_files(code: str = QUICKSORT_OK, tests: str = TESTS) -> dict[str, Any]:
    return {"tool_calls": [
        {"name": "write_file", "arguments": {"path": "quicksort.py", "content": code}},
        {"name": "write_file", "arguments": {"path": "test_quicksort.py", "content": tests}},
    ]}


RUN_TOOLS = {"tool_calls": [{"name": "run_pytest", "arguments": {}}, {"name": "run_ruff", "arguments": {}}]}
PLAN = "1. Write quicksort.py.\n2. Write test_quicksort.py covering the listed cases.\n3. Evaluator runs pytest and ruff."


def cycle(outcome: str, reason: str = "OK", issues: list[str] | None = None, *, code: str = QUICKSORT_OK,
          tools: bool = True) -> dict[str, list[Any]]:
    """Replies for one cycle: plan, write files (+ confirmation), run tools (+ verdict)."""
    return {
        "planner": [PLAN],
        "specialist": [write_files(code), "Both files are written."] if tools else [
            f"```python quicksort.py\n{code}```\n\n```python test_quicksort.py\n{TESTS}```"],
        "evaluator": ([RUN_TOOLS] if tools else []) + [review(outcome, reason, issues)],
    }


def script(*cycles: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Concatenate per-cycle replies into one scripted-model document."""
    out: dict[str, list[Any]] = {"planner": [], "specialist": [], "evaluator": []}
    for c in cycles:
        for role, replies in c.items():
            out[role].extend(replies)
    return out


def save(doc: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return path


def main() -> None:
    """Regenerate the shipped demo fixtures in tests/fixtures/scripted/."""
    here = Path(__file__).parent / "fixtures" / "scripted"
    save(script(cycle("PASS")), here / "demo_pass.json")
    save(script(cycle("PARTIAL", "TEST_FAILURE", ["test_duplicates fails: duplicates are lost"],
                      code=QUICKSORT_BUGGY), cycle("PASS")), here / "demo_fix_then_pass.json")


if __name__ == "__main__":
    main()

"""portfolio-review as a task: registry entry, prompts, knowledge, scripted fixtures."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

from autogen_pse.checking import Checker
from autogen_pse.facts import render
from autogen_pse.hooks import CheckContext
from autogen_pse.prompt_parts import BLOCKED_FORMAT, FACT_REFERENCES, VERDICT_FORMAT
from autogen_pse.registry import ROLES, load_task
from autogen_pse.verdict import Outcome, Reason, declared_blocked, format_trailer, merge_checks, parse_trailer

ROOT = Path(__file__).resolve().parents[2]
TASK_DIR = ROOT / "tasks" / "portfolio-review"
SCRIPTED = ROOT / "tests" / "fixtures" / "scripted"
ENTRY = next(t for t in json.loads((ROOT / "tasks" / "_registry.json").read_text(encoding="utf-8"))["tasks"]
             if t["name"] == "portfolio-review")


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


prepare = _load(TASK_DIR / "prepare.py", "test_portfolio_task_prepare")
checks_mod = _load(TASK_DIR / "checks.py", "test_portfolio_task_checks")
sanitize_mod = _load(TASK_DIR / "sanitize.py", "test_portfolio_task_sanitize")
PREPARED = prepare.build(TASK_DIR, {})


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    """The task loaded through the registry, from a tasks dir holding only this entry."""
    tasks = tmp_path_factory.mktemp("tasks")
    (tasks / "portfolio-review").symlink_to(TASK_DIR, target_is_directory=True)
    (tasks / "_registry.json").write_text(json.dumps({"tasks": [ENTRY]}), encoding="utf-8")
    return load_task(tasks, "portfolio-review")


def test_prompts_fill_every_placeholder(task):
    investment = (TASK_DIR / "data" / "investment_rules.md").read_text(encoding="utf-8").strip()
    stop_loss = (TASK_DIR / "data" / "stop_loss_rules.md").read_text(encoding="utf-8").strip()
    for role in ROLES:
        prompt = task.prompts[role]
        assert not re.search(r"\{[A-Z][A-Z0-9_]*\}", prompt), role
        assert investment in prompt and stop_loss in prompt
        rules = (TASK_DIR / "prompts" / f"{role}_rules.md").read_text(encoding="utf-8").strip()
        assert rules in prompt
    assert FACT_REFERENCES in task.prompts["specialist"]
    assert VERDICT_FORMAT in task.prompts["evaluator"]
    assert BLOCKED_FORMAT in task.prompts["planner"] and BLOCKED_FORMAT in task.prompts["specialist"]
    # the essential structure comes first (a small local model reads the top most reliably)
    head = task.prompts["specialist"][:600]
    for part in ("## Summary", "## Findings", "## Actions", "## Next steps",
                 "| Priority | Action | Symbol | Amount | Reason |"):
        assert part in head


def test_raw_prompts_use_only_known_placeholders():
    allowed = {"RULES", "INVESTMENT_RULES", "STOP_LOSS_RULES", "FACT_REFERENCES", "VERDICT_FORMAT",
               "BLOCKED_FORMAT"}
    for path in (TASK_DIR / "prompts").glob("*.md"):
        used = set(re.findall(r"\{([A-Z][A-Z0-9_]*)\}", path.read_text(encoding="utf-8")))
        assert used <= allowed, path.name


def test_task_template_renders_with_registry_defaults(task):
    text = task.render_task({})
    assert text.startswith("# Portfolio review for Alex Example as of latest")
    assert task.hook("prepare", "prepare") is not None
    assert task.hook("checks", "checks") is not None and task.hook("sanitize", "sanitize") is not None


def test_project_registry_entry_loads():
    assert load_task(ROOT / "tasks", "portfolio-review").prompts["specialist"]


def test_knowledge_partitions():
    for partition in ("market", "source"):
        docs = sorted((TASK_DIR / "knowledge" / partition).glob("*.md"))
        assert len(docs) >= 3
        for doc in docs:
            text = doc.read_text(encoding="utf-8")
            assert text.startswith("# ") and 300 < len(text) < 3000
    assert ENTRY["knowledge"] == {"planner": ["market"], "specialist": ["source"], "evaluator": ["source"]}


# --------------------------------------------------------------------------- scripted fixtures


def _fixture(stem: str) -> dict[str, list[str]]:
    return json.loads((SCRIPTED / f"{stem}.json").read_text(encoding="utf-8"))


def _checker() -> Checker:
    return Checker(load_task(ROOT / "tasks", "portfolio-review"), facts=PREPARED.facts, data=PREPARED.data,
                   workspace=TASK_DIR, vars={})


def _checks(raw: str) -> dict:
    """What a run checks on ``raw``: checks.py, then the claim ledger (``claims``, ``unverifiable``)."""
    text, unknown = render(raw, PREPARED.facts)
    assert unknown == []
    _rendered, results = _checker().run(raw)
    assert _rendered == text
    return {r.name: r for r in results}


def test_fixtures_are_current():
    maker = _load(SCRIPTED / "make_portfolio.py", "test_portfolio_make_fixtures")
    for stem, fixture in maker.build_fixtures().items():
        assert (SCRIPTED / f"{stem}.json").read_text(encoding="utf-8") == maker.dump(fixture), (
            f"{stem}.json is stale: run tests/fixtures/scripted/make_portfolio.py")


@pytest.mark.parametrize("stem", ["portfolio_fix_then_pass", "portfolio_sanitize"])
def test_fixture_format(stem):
    fixture = _fixture(stem)
    assert sorted(fixture) == ["evaluator", "planner", "specialist"]
    assert len({len(v) for v in fixture.values()}) == 1
    for role, replies in fixture.items():
        assert all(isinstance(r, str) and r.strip() for r in replies)
        if role != "evaluator":
            assert all(declared_blocked(r) is None for r in replies)
    for reply in fixture["evaluator"]:
        assert reply.endswith(format_trailer(parse_trailer(reply)))


def test_fix_then_pass_fixture():
    fixture = _fixture("portfolio_fix_then_pass")
    assert [parse_trailer(r).outcome for r in fixture["evaluator"]] == [Outcome.PARTIAL, Outcome.PASS]
    first = _checks(fixture["specialist"][0])
    assert sorted(n for n, r in first.items() if not r.ok) == ["claims", "coverage"]
    assert "AMZN" in first["coverage"].detail
    wrong = first["claims"].unsupported
    assert len(wrong) == 2  # the AAPL weight in Findings and in the TRIM reason
    assert all("AAPL" in w and "47.85%" in w for w in wrong)
    assert first["claims"].detail.count("AAPL.weight_pct = 43.85%") == 2
    second = fixture["specialist"][1]
    assert "{{fact:AAPL.weight_pct}}" in second and not re.search(r"\d+\.\d\d%", second)
    assert all(r.ok for r in _checks(second).values())


def test_sanitize_fixture():
    fixture = _fixture("portfolio_sanitize")
    assert len(fixture["specialist"]) >= 2
    assert all(parse_trailer(r).outcome is Outcome.PASS for r in fixture["evaluator"])
    for raw in fixture["specialist"]:
        results = _checks(raw)
        assert [n for n, r in results.items() if not r.ok] == ["claims"]
        assert "SELL is not allowed for IBM" in results["claims"].detail
        merged = merge_checks(parse_trailer(fixture["evaluator"][0]), [results["claims"]])
        # the forbidden action is a contradicted claim now: DATA_MISMATCH (RULE_VIOLATION was the
        # reason of the old rules check)
        assert (merged.outcome, merged.reason) == (Outcome.PARTIAL, Reason.DATA_MISMATCH)
    text, _ = render(fixture["specialist"][-1], PREPARED.facts)
    ctx = CheckContext(artifact=text, facts=PREPARED.facts, data=PREPARED.data, workspace=TASK_DIR,
                       task_dir=TASK_DIR)
    result = sanitize_mod.sanitize(ctx)
    assert [c.rule for c in result.changes] == ["action_not_allowed"]
    assert "| HOLD | IBM | — |" in result.artifact
    final = _checker().check(result.artifact)
    assert [r.name for r in final] == ["structure", "coverage", "rules", "claims", "unverifiable"]
    assert all(r.ok for r in final)

"""``pse kb`` commands through Typer's runner, on a real task folder and a real store."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autogen_pse.config import Settings
from autogen_pse.errors import UserError
from autogen_pse.knowledge.cli import kb_app

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "kb_corpus"
runner = CliRunner()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("project")
    tasks = root / "tasks"
    task = tasks / "kbtask"
    (task / "prompts").mkdir(parents=True)
    for role in ("planner", "specialist", "evaluator"):
        (task / "prompts" / f"{role}.md").write_text(f"You are the {role}.\n", encoding="utf-8")
    (task / "task.md").write_text("Answer questions.\n", encoding="utf-8")
    shutil.copytree(FIXTURE / "knowledge", task / "knowledge")
    registry = {"tasks": [{"name": "kbtask", "title": "KB task", "knowledge": {"specialist": ["support"]}}]}
    (tasks / "_registry.json").write_text(json.dumps(registry), encoding="utf-8")
    settings = Settings(
        _env_file=None, state_dir=root / ".pse", tasks_dir=tasks, chroma_url=None, embedding="onnx-minilm"
    )  # type: ignore[call-arg]
    result = runner.invoke(kb_app, ["ingest", "kbtask"], obj=settings)
    assert result.exit_code == 0, result.output
    assert "11 added, 0 updated, 0 unchanged, 0 removed files" in result.output
    return settings


def test_ingest_again_reports_unchanged_as_json(project: Settings) -> None:
    result = runner.invoke(kb_app, ["ingest", "kbtask", "--json"], obj=project)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert len(report["skipped_files"]) == 11 and report["chunks_added"] == 0
    assert report["collection"] == "pse_kbtask"


def test_search_table_and_json(project: Settings) -> None:
    result = runner.invoke(kb_app, ["search", "kbtask", "how do I reset my password", "-k", "2"], obj=project)
    assert result.exit_code == 0, result.output
    assert "support/troubleshooting.txt" in result.output and "score" in result.output
    result = runner.invoke(
        kb_app,
        ["search", "kbtask", "price per seat", "--k", "3", "--partition", "market", "--json"],
        obj=project,
    )
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)
    assert len(hits) == 3 and {h["partition"] for h in hits} == {"market"}
    assert set(hits[0]) >= {"id", "source", "heading", "partition", "score", "text"}
    assert hits[0]["source"] == "market/pricing.md"
    markup = runner.invoke(kb_app, ["search", "kbtask", "[/bold] price [red]per seat"], obj=project)
    assert markup.exit_code == 0, markup.output
    assert "[/bold] price [red]per seat" in markup.output, "user text is never parsed as rich markup"
    lexical = runner.invoke(kb_app, ["search", "kbtask", "Initech git", "--lexical", "--json"], obj=project)
    assert json.loads(lexical.output)[0]["rerank_score"] is not None


def test_stats_table_and_json(project: Settings) -> None:
    result = runner.invoke(kb_app, ["stats", "kbtask", "--json"], obj=project)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["files"] == 11 and data["partitions"]["market"]["files"] == 3
    table = runner.invoke(kb_app, ["stats"], obj=project)
    assert table.exit_code == 0, table.output
    assert "kbtask" in table.output and "engineering" in table.output and "onnx-minilm" in table.output


def test_user_errors_propagate_as_user_error(project: Settings) -> None:
    result = runner.invoke(kb_app, ["search", "ghost", "anything"], obj=project)
    assert isinstance(result.exception, UserError)
    assert "unknown task 'ghost'; known tasks: kbtask" in str(result.exception)
    result = runner.invoke(kb_app, ["ingest", "kbtask", "no/such/dir"], obj=project)
    assert isinstance(result.exception, UserError) and "no such file or folder" in str(result.exception)
    bad = runner.invoke(kb_app, ["search", "kbtask", "x", "-k", "0"], obj=project)
    assert bad.exit_code == 2  # Typer's own range check


def test_settings_come_from_the_environment_without_a_parent(
    project: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PSE_STATE_DIR", str(project.state_dir))
    monkeypatch.setenv("PSE_TASKS_DIR", str(project.tasks_dir))
    monkeypatch.delenv("PSE_CHROMA_URL", raising=False)
    monkeypatch.setenv("PSE_EMBEDDING", "onnx-minilm")
    result = runner.invoke(kb_app, ["stats", "kbtask", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["chunks"] > 0


def test_unreachable_chroma_server_is_one_clear_runtime_error(project: Settings) -> None:
    from autogen_pse.errors import ServiceError

    settings = project.model_copy(update={"chroma_url": "http://127.0.0.1:9"})
    result = runner.invoke(kb_app, ["stats", "kbtask"], obj=settings)
    assert isinstance(result.exception, ServiceError) and result.exception.exit_code == 3  # not the user's input
    assert str(result.exception) == (
        "Chroma server at http://127.0.0.1:9 is unreachable; start `chroma run` or unset PSE_CHROMA_URL"
    )

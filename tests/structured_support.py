"""Helpers for structured-artifact tests: the prepared portfolio-review run and valid/invalid objects."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autogen_pse.artifacts import ArtifactSchema, load_schema
from autogen_pse.config import Settings
from autogen_pse.hooks import task_module
from autogen_pse.preparation import PrepareOutcome, ensure_prepared
from autogen_pse.registry import TaskSpec, load_task

ROOT = Path(__file__).resolve().parents[1]
PORTFOLIO = ROOT / "tasks" / "portfolio-review"


def portfolio(settings: Settings, vars: dict[str, str] | None = None) -> tuple[TaskSpec, PrepareOutcome, ArtifactSchema]:
    task = load_task(settings.tasks_dir, "portfolio-review")
    prep = ensure_prepared(task, settings.state_dir, vars or {})
    schema = load_schema(task, facts=prep.prepared.facts, data=prep.prepared.data, vars=vars or {})
    assert schema is not None
    return task, prep, schema


def valid_object(prep: PrepareOutcome) -> dict[str, Any]:
    """A review object that follows the example policy (stop-loss → SELL, overweight → TRIM, …)."""
    artifact = task_module(str(PORTFOLIO / "artifact.py"), "artifact")
    example = task_module(str(PORTFOLIO / "example_review.py"), "example_review")
    data, facts = prep.prepared.data, prep.prepared.facts
    rows = example.action_rows(data)
    actions = {}
    for priority, (action, symbol, _amount, _why) in enumerate(rows, 1):
        actions[symbol] = {"priority": priority, "action": action,
                           "amount": artifact.amount_facts(symbol, action, facts)[0],
                           "reason": "Follows the rule for this holding."}
    return {
        "summary": "The portfolio is concentrated in a few large holdings.",
        "findings": {s: "Reviewed against the position cap and the loss rules." for s in data["symbols"]},
        "actions": actions,
        "next_steps": ["Place the orders and keep the proceeds as cash.", "Review again after the next close."],
    }


def as_json(obj: dict[str, Any]) -> str:
    return json.dumps(obj)


RESUME = ROOT / "tasks" / "resume-tailor"


def resume(settings: Settings, vars: dict[str, str] | None = None) -> tuple[TaskSpec, PrepareOutcome, ArtifactSchema]:
    task = load_task(settings.tasks_dir, "resume-tailor")
    prep = ensure_prepared(task, settings.state_dir, vars or {})
    schema = load_schema(task, facts=prep.prepared.facts, data=prep.prepared.data, vars=vars or {})
    assert schema is not None
    return task, prep, schema


def resume_object(prep: PrepareOutcome) -> dict[str, Any]:
    """A tailored-CV object: every role with its bullets last-first, the skills reversed, every
    degree and every item of the CV's other sections."""
    cv = prep.prepared.data["cv"]
    return {
        "summary": "Backend engineer who builds payment services in Python and Go and mentors engineers.",
        "experience": {r["id"]: {"bullets": [f"{r['id']}.b{k}" for k in range(len(r["bullets"]), 0, -1)]}
                       for r in cv["experience"]},
        "skills": list(dict.fromkeys(cv["skills"]))[::-1][:12],
        "education": [e["id"] for e in cv["education"]],
        **{cls: list(dict.fromkeys(items)) for cls, items in cv["items"].items()},
    }


def object_for_schema(schema: dict[str, Any], summary: str = "Backend engineer who builds payment services "
                      "in Python and Go.") -> dict[str, Any]:
    """A small valid object for a JSON schema as it travels in ``response_format`` (what a remote
    model with structured output returns): every required property, the first allowed value of
    each enum, ``minItems`` (at least one) items of each list, ``summary`` for free text."""
    defs = schema.get("$defs", {})

    def build(node: dict[str, Any]) -> Any:
        if "$ref" in node:
            return build(defs[node["$ref"].split("/")[-1]])
        if "anyOf" in node:
            return build(node["anyOf"][0])
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return node["enum"][0]
        kind = node.get("type")
        if kind == "object":
            props = node.get("properties", {})
            return {k: build(props[k]) for k in node.get("required", list(props))}
        if kind == "array":
            count = min(max(node.get("minItems", 1), 1), node.get("maxItems", 1))
            return [build(node["items"]) for _ in range(count)]
        if kind == "integer":
            return node.get("minimum", 1)
        return summary

    return dict(build(schema))


def object_reply(body: dict[str, Any]) -> str | None:
    """The object a structured-output endpoint returns for a request that asks for one, else ``None``."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") != "json_schema":
        return None
    return json.dumps(object_for_schema(fmt["json_schema"]["schema"]))

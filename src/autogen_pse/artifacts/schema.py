"""The artifact-schema contract: a task's ``artifact.py`` declares its artifact as a pydantic model.

A task folder may hold ``artifact.py`` with ``artifact_schema(ctx: SchemaContext) -> ArtifactSchema``.
The schema is built **per run** from the prepared data (facts and ``Prepared.data``), so allowed
values — symbols, actions, amount facts, CV entries — are enums of this run's inputs: what the
checks verify afterwards holds by construction. ``render`` turns a validated object into the
Markdown artifact the task's checks read. See ``docs/artifact-schema.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..errors import PseError, RunError
from ..hooks import Fact


@dataclass(frozen=True)
class SchemaContext:
    """What ``artifact_schema`` sees: the run's prepared facts and data, the task folder, ``--var``s."""

    facts: dict[str, Fact]
    data: dict[str, Any]
    task_dir: Path
    vars: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ArtifactSchema:
    """A task's artifact as a schema plus its renderer.

    Attributes:
        model: the pydantic model of one artifact object (``extra="forbid"`` throughout).
        render: validated object → Markdown artifact (may hold ``{{fact:<id>}}`` references).
        brief: compact task text for small models: only what the specialist needs to fill the
            object (the schema itself carries the allowed values).
        max_tokens: completion cap that fits the longest object the schema allows, in tokens.
        instructions: one paragraph telling a model what to put in each field.
    """

    model: type[BaseModel]
    render: Callable[[Any], str]
    brief: str = ""
    max_tokens: int = 1024
    instructions: str = ""

    def json_schema(self) -> dict[str, Any]:
        """The JSON schema of :attr:`model` (the same one every provider constrains to)."""
        return self.model.model_json_schema()

    @property
    def name(self) -> str:
        return self.model.__name__


def load_schema(task: Any, *, facts: dict[str, Fact], data: dict[str, Any], vars: dict[str, str]
                ) -> ArtifactSchema | None:
    """The task's artifact schema for this run, or ``None`` when the task has no ``artifact.py``.

    Raises:
        RunError: the hook raised or returned something other than :class:`ArtifactSchema`.
    """
    hook = task.hook("artifact", "artifact_schema")
    if hook is None:
        return None
    ctx = SchemaContext(facts=facts, data=data, task_dir=task.dir, vars=dict(vars))
    try:
        schema = hook(ctx)
    except PseError:
        raise
    except Exception as exc:
        raise RunError(f"{task.dir / 'artifact.py'}: artifact_schema() raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(schema, ArtifactSchema):
        raise RunError(f"{task.dir / 'artifact.py'}: artifact_schema() must return an ArtifactSchema")
    return schema

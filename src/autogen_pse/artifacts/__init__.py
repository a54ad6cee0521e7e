"""Structured artifacts: schemas declared by tasks, parsing, rendering, constrained output per provider.

* :mod:`.schema` — the contract a task's ``artifact.py`` implements (:class:`ArtifactSchema`).
* :mod:`.parse` — reply text → validated object, or a short :class:`ArtifactParseError`.
* :mod:`.constrained` — a client wrapper that asks a provider for an object of the schema
  (grammar, ``response_format`` JSON schema, JSON mode) and re-asks once with the errors.
"""

from .parse import ArtifactParseError, parse_object, try_render
from .schema import ArtifactSchema, SchemaContext, load_schema

__all__ = ["ArtifactParseError", "ArtifactSchema", "SchemaContext", "load_schema", "parse_object", "try_render"]

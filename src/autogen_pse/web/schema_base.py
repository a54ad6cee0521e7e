"""The base classes of the web API's response models, shared by :mod:`.schemas` and
:mod:`.trace_schemas`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

RunStatusOut = Literal["queued", "running", "finished", "error", "cancelled", "interrupted"]


class _Out(BaseModel):
    """Response models: fields with defaults are always present, so the schema marks them required."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=True)


class _Open(_Out):
    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=True)

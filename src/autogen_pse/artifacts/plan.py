"""The planner's small schema for compact runs: a list of one to four short steps.

A small model asked for "a short plan" loops on one sentence up to its completion cap; a plan
object caps it by construction and costs a few seconds.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from .schema import ArtifactSchema

# Words only (a small model fills a free string with "1.1.1.…"), starting with a letter.
STEP = Annotated[str, Field(min_length=5, max_length=100, pattern=r'^[A-Za-z][^0-9\n\r"\\`]{4,99}$')]


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    steps: list[STEP] = Field(min_length=1, max_length=4)


def render_plan(plan: Plan) -> str:
    return "\n".join(f"{n}. {step}" for n, step in enumerate(plan.steps, 1))


PLAN_SCHEMA = ArtifactSchema(
    model=Plan,
    render=render_plan,
    max_tokens=160,
    instructions="steps: one to four short plan steps for the specialist.",
)

"""The claim ledger's records: every claim of an artifact, its status and its evidence."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field


class Status(StrEnum):
    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    UNVERIFIABLE = "unverifiable"
    NONE = "none"  # no factual content (advice, transitions, headings)


class Finding(BaseModel):
    """One checked element of a claim: a figure, a rank, an action, an entity, a date …"""

    kind: str  # figure | rank | action | entity | direction | date | duration | count | flag | statement | judge
    text: str  # the words of the claim it is about
    status: Status
    note: str = ""  # what the evidence says (instead)
    evidence: list[str] = Field(default_factory=list)  # fact ids, "source:<id>", "rules:<entity>"


class Claim(BaseModel):
    """A sentence, bullet, table row or heading of the artifact; ``start``/``end`` are offsets."""

    id: int
    text: str
    line: int
    start: int
    end: int
    kind: str
    section: str = ""
    entities: list[str] = Field(default_factory=list)
    status: Status = Status.NONE
    findings: list[Finding] = Field(default_factory=list)
    judge: dict[str, str] | None = None

    @property
    def factual(self) -> bool:
        return self.status is not Status.NONE

    def why(self) -> str:
        """The notes of the findings that decided the status."""
        notes = [f.note or f.text for f in self.findings if f.status is self.status]
        return "; ".join(dict.fromkeys(n for n in notes if n))


class Ledger(BaseModel):
    """Every claim of one artifact, with the grounding score (supported / factual claims)."""

    claims: list[Claim] = Field(default_factory=list)
    policy: str = "warning"  # what an unverifiable claim is: warning | error

    def with_status(self, status: Status) -> list[Claim]:
        return [c for c in self.claims if c.status is status]

    @property
    def contradicted(self) -> list[Claim]:
        return self.with_status(Status.CONTRADICTED)

    @property
    def unverifiable(self) -> list[Claim]:
        return self.with_status(Status.UNVERIFIABLE)

    @property
    def supported(self) -> list[Claim]:
        return self.with_status(Status.SUPPORTED)

    @property
    def factual(self) -> int:
        return sum(1 for c in self.claims if c.factual)

    @property
    def grounding(self) -> float | None:
        return round(len(self.supported) / self.factual, 4) if self.factual else None

    def summary(self) -> dict[str, object]:
        return {
            "claims": len(self.claims),
            "factual": self.factual,
            "supported": len(self.supported),
            "contradicted": len(self.contradicted),
            "unverifiable": len(self.unverifiable),
            "grounding": self.grounding,
            "policy": self.policy,
        }

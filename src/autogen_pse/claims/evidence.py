"""What a task hands the claim ledger: its entities, facts, rules and source documents.

A task's ``evidence.py`` hook builds one :class:`Evidence` from its prepared data. Everything here is
data (JSON-serialisable), so the ledger stays generic: the portfolio task describes holdings,
weights and allowed actions; the CV task describes employers, roles, degrees and the CV's figures.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Order = Literal["max", "min"]


class Entity(BaseModel):
    """Something a claim can be about. ``symbols`` match case-sensitively (tickers), ``names`` not."""

    id: str
    kind: str  # holding | employer | role | school | degree | technology | person | rules …
    names: list[str] = Field(default_factory=list)
    symbols: list[str] = Field(default_factory=list)
    subject: bool = True  # part of what the artifact is about (a holding, an employer, a degree)
    in_sources: bool = True  # False: a known name (a technology of a vocabulary) that no source supports


class Metric(BaseModel):
    """A measurable property. ``words`` name it in prose; ``units`` are the quantity units it takes."""

    name: str
    words: list[str] = Field(default_factory=list)
    after_words: list[str] = Field(default_factory=list)  # name it only right after a figure ("… the book")
    units: list[str] = Field(default_factory=list)
    scope: Literal["entity", "global"] = "entity"  # global: a portfolio-/person-level figure
    signed: bool = False  # its sign is a direction (a gain or a loss)
    direction_default: bool = False  # the metric a bare "X is up" speaks of
    rank: dict[str, Order] = Field(default_factory=dict)  # superlative phrase → ranking order
    entity_kind: str = ""  # which entities are ranked (default: every entity with this metric)
    same_as: str = ""  # these words name another metric's facts, loosely ("makes up" → weight)
    then: str = ""  # the metric "from this to …" moves on to ("from $38.45 to $223.02": cost → close)
    alternates: list[str] = Field(default_factory=list)  # metrics the same words may also mean
    # ("bought for $693": the cost per share or the cost of the position; "is now $22.4k": price or value)
    sentence: bool = False  # True: its words make its facts candidates for every figure of the sentence
    # ("That leaves 171 shares, worth about $38.1k …": both are after the trim)
    share_of: list[str] = Field(default_factory=list)  # metrics whose "N % of the total" is this one
    # ("its $46.1k gain is roughly 90 % of the total": the gain's share of the total gain)
    strict: bool = True  # False: a figure near its words may still be another fact of the entity
    # (a P/L written next to the stop-loss level it is compared with)


class FactValue(BaseModel):
    """A numeric fact about an entity (``None``: the whole portfolio / person)."""

    id: str
    entity: str | None = None
    metric: str = ""
    value: float
    unit: str  # pct | money | count | multiple | days | months | years | hours | minutes | units
    display: str = ""
    direction: int = 0  # +1 / -1: the source states the change as up / down ("raised", "cut")
    pair: str = ""  # "from" / "to" when the source writes "from A to B"
    source: str = ""  # the sentence it came from, for CV-like sources
    rate: str = ""  # the period it is per ("a year": year); a figure per another period is converted
    noun: str = ""  # the stem of what a count counts ("14 Python services": "servic")
    named_only: bool = False  # a derived fact a figure matches only when its metric is named ("proceeds")

    def shown(self) -> str:
        return self.display or f"{self.value:g}"


class DateFact(BaseModel):
    """A date of an entity: ``value`` is ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``."""

    id: str
    entity: str | None = None
    metric: str = ""  # opened | start | end | year | as_of …
    value: str
    display: str = ""


class Duration(BaseModel):
    """How long something lasted, in years (holding period, time in a role, total experience)."""

    id: str
    entity: str | None = None
    years: float
    display: str = ""
    words: list[str] = Field(default_factory=list)  # "held", "experience" …: what the duration is of
    open_ended: bool = False  # still running ("Mar 2020 – Present"): ``years`` is a lower bound
    default: bool = False  # also what a bare "nine years" may mean when the entity's own does not match


class Flag(BaseModel):
    """A yes/no fact about an entity named by ``words`` ("overweight", "stop-loss")."""

    id: str
    entity: str
    words: list[str]
    value: bool


class Count(BaseModel):
    """How many entities of ``kind`` satisfy a predicate named by ``words`` (empty: all of them)."""

    id: str
    kind: str
    words: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    nouns: list[str] = Field(default_factory=list)  # "holdings", "positions", "stocks" …


class Transition(BaseModel):
    """A change of state a source states without numbers ("from a monolith to Kubernetes")."""

    id: str
    entity: str | None = None
    source: str  # the "from" side as written
    target: str  # the "to" side as written


class Source(BaseModel):
    """A source document (or one of its passages) that free-text claims may be grounded in."""

    id: str
    text: str
    entity: str | None = None  # the entity the passage states something of (a CV bullet's role)


class Evidence(BaseModel):
    """Everything claims are verified against; see the module docstring."""

    entities: list[Entity] = Field(default_factory=list)
    metrics: list[Metric] = Field(default_factory=list)
    facts: list[FactValue] = Field(default_factory=list)
    dates: list[DateFact] = Field(default_factory=list)
    durations: list[Duration] = Field(default_factory=list)
    flags: list[Flag] = Field(default_factory=list)
    counts: list[Count] = Field(default_factory=list)
    transitions: list[Transition] = Field(default_factory=list)
    actions: dict[str, list[str]] = Field(default_factory=dict)  # ACTION → verb phrases in prose
    allowed: dict[str, list[str]] = Field(default_factory=dict)  # entity id → allowed ACTIONs
    action_objects: dict[str, list[str]] = Field(default_factory=dict)  # "sell the excess" is a TRIM
    entityless_actions: list[str] = Field(default_factory=list)  # actions a table row may give without an entity
    proposal_columns: list[str] = Field(default_factory=list)  # table columns holding proposed amounts
    proposal_bounds: dict[str, str] = Field(default_factory=dict)  # unit → metric a proposal may not exceed
    proposal_amounts: dict[str, str] = Field(default_factory=dict)  # ACTION → metric fixing its units ("TRIM")
    sources: list[Source] = Field(default_factory=list)
    vocabulary: list[str] = Field(default_factory=list)  # domain words a faithful artifact may use freely
    claim_words: list[str] = Field(default_factory=list)  # words that make a sentence a factual claim
    unverifiable: Literal["warning", "error"] = "warning"  # policy for claims no evidence covers
    imperatives: bool = True  # False: a sentence starting with a verb is a fact, not advice (CV bullets:
    # "Cut monthly cloud spend by 35 %")
    relative_metric: str = ""  # the metric "X is twice the size of Y" compares
    price_metric: str = ""  # the price per unit: "79 shares, worth about $17,600" is 79 × the price
    # a superlative no ranking decides and no source states: "" (not a claim), "unverifiable", or
    # "contradicted" where the sources are the whole record (a CV: nothing it omits may be added)
    unranked_superlatives: Literal["", "unverifiable", "contradicted"] = ""
    subject_words: list[str] = Field(default_factory=list)  # "position", "stake": an org named with them
    # is presented as part of the subject

    def entity(self, entity_id: str | None) -> Entity | None:
        return next((e for e in self.entities if e.id == entity_id), None)

    def metric(self, name: str) -> Metric | None:
        return next((m for m in self.metrics if m.name == name), None)

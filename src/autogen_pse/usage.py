"""Token usage and cost: a price table (data, not code) and the run/cycle accumulator.

Prices live in ``src/autogen_pse/data/pricing.json``::

    {"currency": "USD", "models": {"gpt-4o-mini": {"input_per_million": 0.15,
                                                   "output_per_million": 0.6}, ...}}

``Settings.pricing_file`` (``PSE_PRICING_FILE``) names a file of the same shape whose entries
merge over the shipped ones (its ``currency`` applies to its own entries). Model names are the
provider names (``openai:gpt-4o-mini``): the ``openai:`` prefix is dropped and a dated snapshot
(``gpt-4o-mini-2024-07-18``) falls back to its base name. ``local:*`` and ``scripted:*`` cost 0.0;
an unknown model costs ``None`` (unknown, not free) and is warned about once.

:class:`UsageTotals` produces the ``USAGE`` dict of ``docs/CONTRACTS.md``::

    {model_calls, prompt_tokens, completion_tokens, cost (float | None), currency,
     per_agent: {role: {model_calls, prompt_tokens, completion_tokens, cost}}}
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import InputFileError, UserError
from .jsonfile import read_json

if TYPE_CHECKING:
    from .config import Settings

logger = logging.getLogger(__name__)

SHIPPED_PRICING = Path(__file__).resolve().parent / "data" / "pricing.json"
FREE_PREFIXES = ("local:", "scripted:")
_SNAPSHOT_SUFFIX = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{4})$")
_COST_DIGITS = 10


@dataclass(frozen=True)
class ModelPrice:
    """Price of one model: currency units per million input (prompt) / output tokens."""

    input_per_million: float
    output_per_million: float
    currency: str = "USD"


def _read_table(path: Path) -> tuple[str, dict[str, ModelPrice]]:
    """Parse one pricing file. Raises :class:`InputFileError` naming the file and field."""
    if not path.is_file():
        raise UserError(f"pricing file not found: {path} (PSE_PRICING_FILE)")
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise InputFileError(path, 'must be {"currency": "USD", "models": {name: {...}}}', field="models")
    currency = data.get("currency", "USD")
    if not isinstance(currency, str) or not currency.strip():
        raise InputFileError(path, "must be a currency code such as USD", field="currency")
    models: dict[str, ModelPrice] = {}
    for name, entry in data["models"].items():
        where = f"models.{name}"
        if not isinstance(entry, dict):
            raise InputFileError(path, "must be an object with input_per_million/output_per_million", field=where)
        try:
            inp, out = entry["input_per_million"], entry["output_per_million"]
        except KeyError as exc:
            raise InputFileError(path, f"missing {exc.args[0]}", field=where) from None
        for key, value in (("input_per_million", inp), ("output_per_million", out)):
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise InputFileError(path, "must be a number >= 0", field=f"{where}.{key}")
        models[name] = ModelPrice(float(inp), float(out), currency.strip())
    return currency.strip(), models


class PriceTable:
    """Prices by model name, with unknown-model warnings issued once per table."""

    def __init__(self, models: dict[str, ModelPrice], currency: str = "USD") -> None:
        self.models = dict(models)
        self.currency = currency
        self._warned: set[str] = set()
        self._free: set[str] = set()

    @classmethod
    def load(cls, override: Path | None = None, *, shipped: Path = SHIPPED_PRICING) -> PriceTable:
        """The shipped table with ``override``'s entries merged over it.

        Raises:
            UserError / InputFileError: a missing or malformed file (named in the message).
        """
        currency, models = _read_table(shipped)
        if override is not None:
            _, extra = _read_table(Path(override).expanduser())
            models.update(extra)
        return cls(models, currency)

    @classmethod
    def from_settings(cls, settings: Settings) -> PriceTable:
        """:meth:`load` with ``settings.pricing_file`` as the override."""
        return cls.load(settings.pricing_file)

    def lookup(self, model_name: str) -> ModelPrice | None:
        """The price entry for ``model_name`` (``openai:`` prefix and snapshot date tolerated)."""
        name = model_name.split(":", 1)[1] if model_name.startswith("openai:") else model_name
        if name in self.models:
            return self.models[name]
        base = _SNAPSHOT_SUFFIX.sub("", name)
        return self.models.get(base)

    def mark_free(self, model_name: str) -> None:
        """Price ``model_name`` at 0.0 (its provider says it is not ``priced``)."""
        self._free.add(model_name)

    def is_free(self, model_name: str) -> bool:
        return model_name in self._free or model_name.startswith(FREE_PREFIXES)

    def warning_for(self, model_name: str) -> str | None:
        """The warning text for a model without a price, or ``None`` when it is priced or free."""
        if self.is_free(model_name) or self.lookup(model_name) is not None:
            return None
        return (
            f"no price known for model {model_name!r}: cost will be reported as unknown (null); "
            "add it to a pricing file named by PSE_PRICING_FILE"
        )

    def warn_once(self, model_name: str) -> str | None:
        """:meth:`warning_for`, logged and returned only the first time for this table."""
        text = self.warning_for(model_name)
        if text is None or model_name in self._warned:
            return None
        self._warned.add(model_name)
        logger.warning("%s", text)
        return text

    def price(self, model_name: str, prompt_tokens: int, completion_tokens: int) -> tuple[float | None, str]:
        """Cost of one call or a total: ``(cost, currency)``; cost is 0.0 for local/scripted
        models and ``None`` for unknown ones (warned once)."""
        if self.is_free(model_name):
            return 0.0, self.currency
        entry = self.lookup(model_name)
        if entry is None:
            self.warn_once(model_name)
            return None, self.currency
        cost = (prompt_tokens * entry.input_per_million + completion_tokens * entry.output_per_million) / 1e6
        return round(cost, _COST_DIGITS), entry.currency


_default_table: PriceTable | None = None


def price(model_name: str, prompt_tokens: int, completion_tokens: int) -> tuple[float | None, str]:
    """:meth:`PriceTable.price` on the shipped table (no user override)."""
    global _default_table
    if _default_table is None:
        _default_table = PriceTable.load()
    return _default_table.price(model_name, prompt_tokens, completion_tokens)


def _add_cost(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(a + b, _COST_DIGITS)


@dataclass
class AgentUsage:
    """Usage of one role: calls, tokens, cost (``None`` once any call's cost was unknown)."""

    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = 0.0

    def add(self, model_calls: int, prompt_tokens: int, completion_tokens: int, cost: float | None) -> None:
        self.model_calls += model_calls
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        self.cost = _add_cost(self.cost, cost)

    def to_dict(self) -> dict[str, Any]:
        return {"model_calls": self.model_calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cost": self.cost}


@dataclass
class UsageTotals:
    """Accumulates model calls for a cycle or a run.

    Args:
        model_name: provider name used for pricing (``openai:gpt-4o-mini``).
        prices: the price table (default: the shipped table). Give a run's cycle and run totals
            the same table so an unknown model is warned about once per run.
    """

    model_name: str
    prices: PriceTable = field(default_factory=PriceTable.load)
    per_agent: dict[str, AgentUsage] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def add(self, role: str, prompt_tokens: int, completion_tokens: int) -> dict[str, Any]:
        """Record one model call by ``role``; returns the call's ``{prompt_tokens,
        completion_tokens, cost}`` (the ``usage`` of a ``message``/``tool_call`` event).
        A first-time unknown-model warning is appended to :attr:`warnings`."""
        if prompt_tokens < 0 or completion_tokens < 0:
            raise ValueError("token counts must be >= 0")
        warning = self.prices.warn_once(self.model_name)
        if warning:
            self.warnings.append(warning)
        cost, _ = self.prices.price(self.model_name, prompt_tokens, completion_tokens)
        self.per_agent.setdefault(role, AgentUsage()).add(1, prompt_tokens, completion_tokens, cost)
        return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "cost": cost}

    def merge(self, other: UsageTotals) -> None:
        """Add ``other``'s per-role figures into this one (cycle totals into run totals)."""
        for role, theirs in other.per_agent.items():
            self.per_agent.setdefault(role, AgentUsage()).add(
                theirs.model_calls, theirs.prompt_tokens, theirs.completion_tokens, theirs.cost)

    def pop_warnings(self) -> list[str]:
        """Warnings not yet taken (each unknown model once), then cleared."""
        taken, self.warnings = self.warnings, []
        return taken

    @property
    def model_calls(self) -> int:
        return sum(a.model_calls for a in self.per_agent.values())

    @property
    def prompt_tokens(self) -> int:
        return sum(a.prompt_tokens for a in self.per_agent.values())

    @property
    def completion_tokens(self) -> int:
        return sum(a.completion_tokens for a in self.per_agent.values())

    @property
    def total_tokens(self) -> int:
        """prompt + completion tokens (what ``token_budget`` limits)."""
        return self.prompt_tokens + self.completion_tokens

    @property
    def cost(self) -> float | None:
        """Total cost; ``None`` when any part is unknown; 0.0 with no calls."""
        total: float | None = 0.0
        for agent in self.per_agent.values():
            total = _add_cost(total, agent.cost)
        return total

    @property
    def currency(self) -> str:
        entry = self.prices.lookup(self.model_name)
        return entry.currency if entry is not None else self.prices.currency

    def to_dict(self) -> dict[str, Any]:
        """The contract's ``USAGE`` dict."""
        total = AgentUsage(self.model_calls, self.prompt_tokens, self.completion_tokens, self.cost)
        return {**total.to_dict(), "currency": self.currency,
                "per_agent": {role: agent.to_dict() for role, agent in self.per_agent.items()}}

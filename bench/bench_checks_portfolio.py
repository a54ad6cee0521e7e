"""Benchmark the portfolio-review checks on a generated corpus of reviews.

Builds ``--n`` reviews from the real prepared facts (tasks/portfolio-review, default inputs): one
sixth faithful, the rest with exactly one planted error of a kind, then prints, per kind, how often
the check responsible for that kind failed (detection rate), how often any check failed, and the
false-positive rate on the faithful reviews.

Faithful reviews vary: findings order, actions chosen among the allowed ones, figures either as
fact references or typed with a rounding that stays within the documented tolerance (0.5% / 0.01),
plus prose with dates, years, "top 3", numbered lists and common abbreviations. Planted errors:

* wrong_number     one figure shifted by 2–30% (percentages: by at least 1 point) and typed
* unknown_symbol   a non-held ticker in prose or in the Symbol column
* rule_breaking    one action row changed to an action the rules forbid for that symbol
* missing_holding  one holding's finding and action row removed
* missing_section  one of the four sections removed

Run: ``.venv/bin/python bench/bench_checks_portfolio.py [--n 500] [--seed 7]``
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from autogen_pse.facts import FACT_REF, render
from autogen_pse.hooks import CheckContext, Fact

TASK_DIR = Path(__file__).resolve().parents[1] / "tasks" / "portfolio-review"
KINDS = ("faithful", "wrong_number", "unknown_symbol", "rule_breaking", "missing_holding", "missing_section")
RESPONSIBLE = {"wrong_number": "numbers", "unknown_symbol": "symbols", "rule_breaking": "rules",
               "missing_holding": "coverage", "missing_section": "structure"}
OTHER_TICKERS = ("NVDA", "TSLA", "ORCL", "META", "NFLX", "INTC", "CSCO", "ADBE", "CRM", "AMD", "QCOM",
                 "TXN", "HPQ", "XOM", "JPM", "WMT")
PROSE = (
    "Prices are month-end closes from 2000 to 2010; the valuation date is 2010-03-01 (Mar 1, 2010).",
    "The top 3 holdings dominate the HHI; no ETF or cash position is held, and all amounts are in USD.",
    "Review again in June 2010, after the Q2 close.",
)


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_portfolio_{name}", TASK_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Corpus:
    """Generates reviews from the prepared facts and data."""

    def __init__(self, rng: random.Random) -> None:
        self.prepare = load("prepare")
        self.review = self.prepare.sibling("review")
        self.example = self.prepare.sibling("example_review")
        prepared = self.prepare.build(TASK_DIR, {})
        self.facts: dict[str, Fact] = prepared.facts
        self.data: dict[str, Any] = prepared.data
        self.rng = rng

    # --- faithful ---------------------------------------------------------------------------
    def typed(self, fact: Fact) -> str:
        """A typed rendering of a numeric fact that stays within the tolerance."""
        v = float(fact.value)
        options = [fact.render()]
        if fact.unit == "%":
            options += [f"{v:.1f}%", f"{v:.0f}%"]
        elif fact.unit in ("USD", "EUR", "GBP") or fact.unit == self.data["currency"]:
            sign = "-" if v < 0 else ""
            options += [f"{sign}${abs(v):,.0f}", f"{v / 1000:.1f}k {fact.unit}", f"{v:,.2f}"]
        choice = self.rng.choice(options)
        parsed = self.review.numbers(choice)
        if len(parsed) == 1:
            n = parsed[0]
            if self.review.within(n.value if n.signed else abs(n.value), v if n.signed else abs(v)):
                return choice
        return fact.render()

    def faithful_refs(self) -> str:
        """A faithful review with references (some actions varied among the allowed ones)."""
        symbols = list(self.data["symbols"])
        self.rng.shuffle(symbols)
        data = {**self.data, "symbols": symbols}
        text = self.example.example_review(self.facts, data)
        lines = text.splitlines()
        for i, line in enumerate(lines):  # vary HOLD rows among the other always-allowed actions
            m = re.match(r"^\| (\d+) \| HOLD \| ([A-Z]+) \|", line)
            if m and self.rng.random() < 0.3:
                allowed = self.data["allowed_actions"][m.group(2)]
                action = self.rng.choice([a for a in allowed if a in ("HOLD", "REVIEW", "BUY")])
                amount = "—" if action != "BUY" else "{{fact:" + m.group(2) + ".quantity}} units"
                lines[i] = f"| {m.group(1)} | {action} | {m.group(2)} | {amount} | within the limits |"
        extra = [p for p in PROSE if self.rng.random() < 0.6]
        text = "\n".join(lines)
        if extra:
            text = text.replace("## Findings", " ".join(extra) + "\n\n## Findings", 1)
        if self.rng.random() < 0.5:
            text = text.replace("- Place the", "1. Place the").replace("- Re-run", "2. Re-run")
        return text

    def type_some(self, refs: str, share: float) -> str:
        """Replace a share of the references by typed values; render the rest."""
        def sub(m: re.Match[str]) -> str:
            fact = self.facts.get(m.group(1))
            if fact is None or isinstance(fact.value, str) or self.rng.random() > share:
                return m.group(0)
            return self.typed(fact)

        text, unknown = render(FACT_REF.sub(sub, refs), self.facts)
        assert not unknown, unknown
        return text

    # --- planted errors ---------------------------------------------------------------------
    def wrong_number(self, refs: str) -> str:
        numeric = [m for m in FACT_REF.finditer(refs)
                   if not isinstance(self.facts[m.group(1)].value, str)]
        m = self.rng.choice(numeric)
        fact = self.facts[m.group(1)]
        v = float(fact.value)
        shift = self.rng.choice((-1, 1)) * self.rng.uniform(0.02, 0.30) * abs(v)
        if fact.unit == "%":
            wrong = f"{v + (shift if abs(shift) >= 1 else (1 if shift > 0 else -1)):.2f}%"
        else:
            shifted = v + shift
            wrong = f"{shifted:,.2f}" if isinstance(fact.value, float) else f"{max(round(shifted), 1):,}"
        self.planted = (fact, wrong)
        return self.type_some(refs[:m.start()] + wrong + refs[m.end():], 0.5)

    def collides(self, fact: Fact, wrong: str) -> str | None:
        """The id of another fact the planted value matches within tolerance, if any."""
        (n,) = self.review.numbers(wrong)
        for other in self.facts.values():
            if other.id == fact.id or isinstance(other.value, str) or (n.pct and other.unit != "%"):
                continue
            target = float(other.value) if n.signed else abs(float(other.value))
            if self.review.within(n.value if n.signed else abs(n.value), target):
                return other.id
        return None

    def unknown_symbol(self, text: str) -> str:
        ticker = self.rng.choice(OTHER_TICKERS)
        where = self.rng.randrange(3)
        if where == 0:
            sentence = f"- Consider adding {ticker} for growth.\n"
            return text.replace("## Next steps\n", f"## Next steps\n\n{sentence}", 1)
        if where == 1:
            symbol = self.rng.choice(self.data["symbols"])
            return re.sub(rf"^(- \*\*{symbol}\*\*[^\n]*)$", rf"\1 It trails {ticker} this year.", text,
                          count=1, flags=re.MULTILINE)
        rows = re.findall(r"^\| \d+ \| [A-Z]+ \| ([A-Z]+) \|", text, flags=re.MULTILINE)
        symbol = self.rng.choice(rows)
        return re.sub(rf"^(\| \d+ \| [A-Z]+ \| ){symbol} \|", rf"\1{ticker} |", text, count=1,
                      flags=re.MULTILINE)

    def rule_breaking(self, text: str) -> str:
        rows = re.findall(r"^\| (\d+) \| ([A-Z]+) \| ([A-Z]+) \|", text, flags=re.MULTILINE)
        _priority, action, symbol = self.rng.choice(rows)
        allowed = self.data["allowed_actions"][symbol]
        bad = self.rng.choice([a for a in ("BUY", "SELL", "TRIM") if a not in allowed])
        return re.sub(rf"^(\| \d+ \| ){action}( \| {symbol} \|)", rf"\g<1>{bad}\2", text, count=1,
                      flags=re.MULTILINE)

    def missing_holding(self, text: str) -> str:
        symbol = self.rng.choice(self.data["symbols"])
        row = re.compile(rf"^\| \d+ \| [A-Z]+ \| {symbol} \|")
        keep = [line for line in text.splitlines()
                if not line.startswith(f"- **{symbol}**") and not row.match(line)]
        return "\n".join(keep) + "\n"

    def missing_section(self, text: str) -> str:
        title = self.rng.choice(self.review.REQUIRED_SECTIONS)
        out, skipping = [], False
        for line in text.splitlines():
            if line.startswith("## "):
                skipping = line == f"## {title}"
            if not skipping:
                out.append(line)
        return "\n".join(out) + "\n"

    def make(self, kind: str) -> str:
        refs = self.faithful_refs()
        if kind == "wrong_number":
            return self.wrong_number(refs)
        text = self.type_some(refs, self.rng.choice((0.0, 0.5, 1.0)))
        if kind == "faithful":
            return text
        return getattr(self, kind)(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    corpus = Corpus(random.Random(args.seed))
    checks = load("checks")
    total, responsible, any_failed, per_check_fp = Counter(), Counter(), Counter(), Counter()
    collisions: list[str] = []
    started = time.perf_counter()
    for i in range(args.n):
        kind = KINDS[i % len(KINDS)]
        text = corpus.make(kind)
        ctx = CheckContext(artifact=text, facts=corpus.facts, data=corpus.data, workspace=TASK_DIR,
                           task_dir=TASK_DIR)
        failed = {r.name for r in checks.checks(ctx) if not r.ok}
        total[kind] += 1
        any_failed[kind] += bool(failed)
        if kind == "faithful":
            per_check_fp.update(failed)
        elif RESPONSIBLE[kind] in failed:
            responsible[kind] += 1
        elif kind == "wrong_number":
            fact, wrong = corpus.planted
            other = corpus.collides(fact, wrong)
            why = f" ≈ {other}" if other else " (no collision!)"
            collisions.append(f"{fact.id} {fact.render()} → {wrong}{why}")
    elapsed = time.perf_counter() - started

    print(f"portfolio-review checks: {args.n} reviews, seed {args.seed}, "
          f"{elapsed / args.n * 1000:.1f} ms per review (generation + checks)")
    print(f"{'kind':<17}{'n':>5}  {'check':<10}{'detected':>10}{'any check':>11}")
    for kind in KINDS[1:]:
        n = total[kind]
        rates = f"{responsible[kind] / n:>10.1%}{any_failed[kind] / n:>11.1%}"
        print(f"{kind:<17}{n:>5}  {RESPONSIBLE[kind]:<10}{rates}")
    n = total["faithful"]
    fp = ", ".join(f"{k} {v}" for k, v in sorted(per_check_fp.items())) or "none"
    print(f"{'faithful':<17}{n:>5}  false positives {any_failed['faithful'] / n:.1%} (by check: {fp})")
    if collisions:
        print("missed wrong numbers (the planted value matches another fact within the tolerance):")
        for line in collisions:
            print(f"  {line}")


if __name__ == "__main__":
    main()

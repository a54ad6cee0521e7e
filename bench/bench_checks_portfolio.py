"""Benchmark the portfolio-review checks on a generated corpus of reviews.

Builds ``--n`` reviews from the real prepared facts (tasks/portfolio-review, default inputs): one
sixth faithful, the rest with exactly one planted error of a kind, then prints, per kind, how often
the check responsible for that kind failed (detection rate), how often any check failed, and the
false-positive rate on the faithful reviews. Each review is checked the way a run checks it
(:class:`autogen_pse.checking.Checker`): the task's checks.py (structure, coverage, rules) and the
claim ledger from its evidence.py (``claims``: contradicted figures, symbols, actions, dates;
``unverifiable``: a warning for this task, counted as a failure here).

Faithful reviews vary: findings order, actions chosen among the allowed ones, figures either as
fact references or typed with a rounding the ledger accepts (a figure is true at the precision it is
written at: :func:`autogen_pse.claims.quantities.matches`), plus prose with dates, years, "top 3",
numbered lists and common abbreviations. Planted errors:

* wrong_number     one figure shifted by 2–30% (percentages: by at least 1 point) and typed as the fact
                   renders (with its currency); "over N days" only upwards (a smaller N stays true),
                   and never an Amount of the Actions table (a proposal, bounded by the units held)
* unknown_symbol   a non-held ticker in prose, in a ticker context ("a position in NVDA", "NVDA
                   stock"), or in the Symbol column
* rule_breaking    one action row changed to an action the rules forbid for that symbol
* missing_holding  one holding's finding and action row removed
* missing_section  one of the four sections removed

A planted figure, symbol or action counts as detected when the responsible check (``claims``) lists
the claim that holds it — not merely when the check fails (it may fail on another sentence). What
the checks flag on faithful reviews is listed with the ledger's reason.

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

from autogen_pse.checking import Checker
from autogen_pse.claims.quantities import find_quantities, matches
from autogen_pse.facts import FACT_REF, render
from autogen_pse.hooks import Fact, task_module
from autogen_pse.registry import load_task

ROOT = Path(__file__).resolve().parents[1]
TASK_DIR = ROOT / "tasks" / "portfolio-review"
KINDS = ("faithful", "wrong_number", "unknown_symbol", "rule_breaking", "missing_holding", "missing_section")
RESPONSIBLE = {"wrong_number": "claims", "unknown_symbol": "claims", "rule_breaking": "claims",
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
        self.review = task_module(str(self.prepare.__file__), "review")
        self.example = task_module(str(self.prepare.__file__), "example_review")
        prepared = self.prepare.build(TASK_DIR, {})
        self.facts: dict[str, Fact] = prepared.facts
        self.data: dict[str, Any] = prepared.data
        self.rng = rng
        self.marker = ""  # the planted text the responsible claim must hold (wrong figure, ticker, row)
        self.where = ""  # where the unknown symbol was planted

    # --- faithful ---------------------------------------------------------------------------
    def typed(self, fact: Fact) -> str:
        """A typed rendering of a numeric fact that is true of it at the precision written."""
        v = float(fact.value)
        options = [fact.render()]
        if fact.unit == "%":
            options += [f"{v:.1f}%", f"{v:.0f}%"]
        elif fact.unit in ("USD", "EUR", "GBP") or fact.unit == self.data["currency"]:
            sign = "-" if v < 0 else ""
            options += [f"{sign}${abs(v):,.0f}", f"{v / 1000:.1f}k {fact.unit}", f"{v:,.2f}"]
        choice = self.rng.choice(options)
        parsed = find_quantities(choice)
        if len(parsed) == 1 and matches(parsed[0], v):
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
                   if not isinstance(self.facts[m.group(1)].value, str) and not _in_amount_cell(refs, m.start())]
        m = self.rng.choice(numeric)
        fact = self.facts[m.group(1)]
        v = float(fact.value)
        upward_only = refs[:m.start()].endswith("over ")  # "over 604 days" is true of 851 days
        shift = (1 if upward_only else self.rng.choice((-1, 1))) * self.rng.uniform(0.02, 0.30) * abs(v)
        if fact.unit == "%":
            wrong = f"{v + (shift if abs(shift) >= 1 else (1 if shift > 0 else -1)):.2f}%"
        else:
            shifted = v + shift
            wrong = f"{shifted:,.2f}" if isinstance(fact.value, float) else f"{max(round(shifted), 1):,}"
            if fact.unit == self.data["currency"]:
                wrong += f" {fact.unit}"  # one error: the figure (the fact renders with its currency)
        self.planted = (fact, wrong)
        self.marker = wrong
        return self.type_some(refs[:m.start()] + wrong + refs[m.end():], 0.5)

    def collides(self, fact: Fact, wrong: str) -> str | None:
        """The id of another fact the planted value is true of (as written), if any."""
        (q,) = find_quantities(wrong)
        for other in self.facts.values():
            if other.id == fact.id or isinstance(other.value, str) or ((q.unit == "pct") != (other.unit == "%")):
                continue
            if matches(q, float(other.value)):
                return other.id
        return None

    def unknown_symbol(self, text: str) -> str:
        ticker = self.rng.choice(OTHER_TICKERS)
        self.marker = ticker
        where = self.rng.randrange(3)
        self.where = ("next steps", "findings", "Symbol column")[where]
        if where == 0:
            sentence = f"- Consider adding a position in {ticker} for growth.\n"
            return text.replace("## Next steps\n", f"## Next steps\n\n{sentence}", 1)
        if where == 1:
            symbol = self.rng.choice(self.data["symbols"])
            return re.sub(rf"^(- \*\*{symbol}\*\*[^\n]*)$", rf"\1 It trails {ticker} stock this year.", text,
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
        self.marker = f"{bad} | {symbol} |"
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
        self.marker = ""
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
    checker = Checker(load_task(ROOT / "tasks", "portfolio-review"), facts=corpus.facts, data=corpus.data,
                      workspace=TASK_DIR, vars={})
    total, responsible, any_failed, per_check_fp = Counter(), Counter(), Counter(), Counter()
    flagged: Counter[str] = Counter()
    placed, placed_hit = Counter(), Counter()  # unknown_symbol by placement
    collisions: list[str] = []
    started = time.perf_counter()
    for i in range(args.n):
        kind = KINDS[i % len(KINDS)]
        text = corpus.make(kind)
        results = {r.name: r for r in checker.check(text)}
        failed = {name for name, r in results.items() if not r.ok}
        total[kind] += 1
        any_failed[kind] += bool(failed)
        if kind == "faithful":
            per_check_fp.update(failed)
            flagged.update(_flags(results, checker))
            continue
        hit = detected(results, RESPONSIBLE[kind], corpus.marker)
        responsible[kind] += hit
        if kind == "unknown_symbol":
            placed[corpus.where] += 1
            placed_hit[corpus.where] += hit
        if not hit and kind == "wrong_number":
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
    if placed:
        print("  unknown_symbol detected by placement: "
              + ", ".join(f"{w} {placed_hit[w]}/{placed[w]}" for w in sorted(placed)))
    n = total["faithful"]
    fp = ", ".join(f"{k} {v}" for k, v in sorted(per_check_fp.items())) or "none"
    print(f"{'faithful':<17}{n:>5}  false positives {any_failed['faithful'] / n:.1%} (by check: {fp})")
    if collisions:
        print("missed wrong numbers (≈ another fact the planted value is true of; "
              "\"no collision\": the ledger missed it):")
        for line in collisions:
            print(f"  {line}")
    if flagged:
        print("flagged on faithful reviews (times, check, sentence — what the ledger said):")
        for line, times in sorted(flagged.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {times:>3}× {line}")


def _in_amount_cell(text: str, pos: int) -> bool:
    """Is ``pos`` in the Amount column (the 4th cell) of a table row?"""
    start = text.rfind("\n", 0, pos) + 1
    before = text[start:pos]
    return before.lstrip().startswith("|") and before.count("|") == 4


def detected(results: dict[str, Any], check: str, marker: str) -> bool:
    """The responsible check failed — for the claim ledger, on a claim holding the planted text."""
    result = results[check]
    if result.ok:
        return False
    return not marker or check not in ("claims", "unverifiable") or any(marker in u for u in result.unsupported)


def _flags(results: dict[str, Any], checker: Checker) -> list[str]:
    """What failed on a faithful review: each flagged claim with the ledger's reason, else the detail."""
    out = []
    for name, r in results.items():
        if r.ok:
            continue
        if name in ("claims", "unverifiable") and checker.ledger is not None:
            claims = checker.ledger.contradicted if name == "claims" else checker.ledger.unverifiable
            out += [f"[{name}] {c.text!r} — {c.why()}" for c in claims]
        else:
            out.append(f"[{name}] {r.detail}")
    return out


if __name__ == "__main__":
    main()

"""The claim ledger on the hand-written corpus: detection per kind, false errors and warnings.

The corpus (``tests/fixtures/claims/<task>/<batch>/``) is realistic text written by hand in
120 styles per task (two new ones per blind batch): about a third faithful (honest
rounding included), the rest with exactly one planted fabrication of a labelled kind
(``labels.jsonl``: file, style, faithful, kind, planted, truth). Batches ``e`` to ``zzh`` were each
written blind and measured once, unseen, before they were used to improve the verifier (those
first figures are in docs/claims.md).

A fabrication counts as **contradicted** when a claim overlapping the planted text is contradicted,
as **flagged** when it is contradicted or unverifiable. A faithful artifact is **failed** when any
claim is contradicted (or, where the task's policy makes unverifiable claims errors, unverifiable),
and **warned** when any claim is unverifiable while the policy is a warning. The old checks
(``numbers``/``symbols``; the CV task's claim checks) are measured on the same files, side by
side, and the verifier's time per artifact is printed.

Run: ``.venv/bin/python bench/bench_claims.py [--task portfolio-review|resume-tailor] [--batches a,b,c,d]
[--show-misses]``
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from autogen_pse.checking import Checker  # noqa: E402
from autogen_pse.claims import Status, Verifier, build_ledger  # noqa: E402
from autogen_pse.hooks import task_module  # noqa: E402
from autogen_pse.registry import load_task  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "claims"
NO_NUMBER_KINDS = {"unsupported_fact"}


def evidence_for(task: str) -> tuple[Verifier, Checker]:
    """The task's verifier and a :class:`Checker` with its programmatic checks, on the default inputs."""
    spec = load_task(ROOT / "tasks", task)
    prepare = task_module(str(spec.dir / "prepare.py"), "prepare")
    prepared = (
        prepare.build(spec.dir, {}) if task == "portfolio-review" else prepare.load_lib("inputs").load(spec.dir, {})
    )
    checker = Checker(spec, facts=prepared.facts, data=prepared.data, workspace=spec.dir, vars={})
    verifier = checker.verifier()
    assert verifier is not None
    return verifier, checker


def load_corpus(task: str, batches: list[str]) -> list[dict[str, Any]]:
    items = []
    for batch in batches:
        folder = CORPUS / task / batch
        for line in (folder / "labels.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                item["batch"] = batch
                item["text"] = (folder / item["file"]).read_text(encoding="utf-8")
                items.append(item)
    return items


_LINE = re.compile(r"\bline (\d+)\b")
LEDGER_CHECKS = ("claims", "unverifiable")
# completeness, not fabrication (sections present, holdings covered, a row per triggered holding): not counted
COMPLETENESS = ("sections", "keywords", "coverage", "structure", "rules")


def _task_lines(results: list[Any]) -> dict[str, set[int]]:
    """Lines each failing error-severity task check (not the ledger's) names in ``unsupported``."""
    out: dict[str, set[int]] = {}
    for r in results:
        if not r.ok and r.severity == "error" and r.name not in LEDGER_CHECKS + COMPLETENESS:
            out[r.name] = {int(n) for u in r.unsupported for n in _LINE.findall(u)}
    return out


def evaluate(item: dict[str, Any], verifier: Verifier, checker: Checker) -> dict[str, Any]:
    t0 = time.perf_counter()
    ledger = build_ledger(item["text"], verifier)
    elapsed = time.perf_counter() - t0
    task_fails = _task_lines(checker.check(item["text"]))
    errors_unverifiable = ledger.policy == "error"
    out: dict[str, Any] = {"ms": elapsed * 1000, "ledger": ledger}
    if item["faithful"]:
        out["failed"] = bool(ledger.contradicted) or (errors_unverifiable and bool(ledger.unverifiable))
        out["task_failed"] = sorted(task_fails)
        out["warned"] = not errors_unverifiable and bool(ledger.unverifiable)
        return out
    start = item["text"].find(item["planted"])
    end = start + len(item["planted"])
    lines = set(range(item["text"].count("\n", 0, start) + 1, item["text"].count("\n", 0, end) + 2))
    hit = [c for c in ledger.claims if c.start < end and start < c.end]
    contradicted = [c for c in hit if c.status is Status.CONTRADICTED]
    flagged = contradicted + [c for c in hit if c.status is Status.UNVERIFIABLE]
    by_task = sorted(name for name, ls in task_fails.items() if ls & lines)
    out["contradicted"] = bool(contradicted)
    out["flagged"] = bool(flagged)
    out["task_caught"] = by_task
    out["fails"] = bool(contradicted) or (errors_unverifiable and bool(flagged)) or bool(by_task)
    out["by"] = sorted(
        {f.kind for c in flagged for f in c.findings if f.status in (Status.CONTRADICTED, Status.UNVERIFIABLE)}
        | {f"check {n}" for n in by_task}
    )
    out["claims"] = hit
    return out


def report(task: str, items: list[dict[str, Any]], results: list[dict[str, Any]], title: str, show: bool) -> None:
    print(f"\n== {task} — {title}: {len(items)} artifacts ==")
    kinds: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        if not item["faithful"]:
            kinds[item["kind"]].append(i)
    print(f"{'kind':<24}{'n':>4}{'contradicted':>14}{'flagged':>10}{'fails':>8}  caught by")
    tot_c = tot_n = nn_f = nn_n = tot_fail = 0
    for kind in sorted(kinds):
        idx = kinds[kind]
        c = sum(results[i]["contradicted"] or bool(results[i]["task_caught"]) for i in idx)
        f = sum(results[i]["flagged"] or bool(results[i]["task_caught"]) for i in idx)
        tot_fail += sum(results[i]["fails"] for i in idx)
        by: dict[str, int] = defaultdict(int)
        for i in idx:
            for b in results[i]["by"]:
                by[b] += 1
        if kind in NO_NUMBER_KINDS:
            nn_f, nn_n = nn_f + f, nn_n + len(idx)
        else:
            tot_c, tot_n = tot_c + c, tot_n + len(idx)
        fails = sum(results[i]["fails"] for i in idx)
        print(
            f"{kind:<24}{len(idx):>4}{c / len(idx):>13.0%}{f / len(idx):>10.0%}{fails / len(idx):>8.0%}  "
            + ", ".join(f"{k} {v}" for k, v in sorted(by.items(), key=lambda kv: -kv[1]))
        )
        if show:
            for i in idx:
                if not results[i]["contradicted"] and not results[i]["task_caught"]:
                    print(f"    miss {items[i]['batch']}/{items[i]['file']}: {items[i]['planted']!r}")
                    for c_ in results[i]["claims"]:
                        print(
                            f"        {c_.status.value}: "
                            f"{[(x.kind, x.text, x.status.value, x.note[:80]) for x in c_.findings]}"
                        )
    faithful = [i for i, item in enumerate(items) if item["faithful"]]
    failed = [i for i in faithful if results[i]["failed"] or results[i]["task_failed"]]
    warned = [i for i in faithful if results[i]["warned"]]
    fabricated = sum(len(v) for v in kinds.values())
    print(f"checkable kinds contradicted: {tot_c}/{tot_n} = {tot_c / max(tot_n, 1):.1%}")
    print(f"fabrications failing the checks (any kind): {tot_fail}/{fabricated} = {tot_fail / max(fabricated, 1):.1%}")
    if nn_n:
        print(f"facts without numbers flagged: {nn_f}/{nn_n} = {nn_f / nn_n:.1%}")
    print(
        f"faithful failed: {len(failed)}/{len(faithful)} = {len(failed) / max(len(faithful), 1):.1%}; "
        f"faithful warned: {len(warned)}/{len(faithful)} = {len(warned) / max(len(faithful), 1):.1%}"
    )
    if show:
        for i in failed + warned:
            if results[i]["task_failed"]:
                print(f"    false {items[i]['batch']}/{items[i]['file']}: task check(s) {results[i]['task_failed']}")
            led = results[i]["ledger"]
            for c_ in led.contradicted + led.unverifiable:
                print(
                    f"    false {items[i]['batch']}/{items[i]['file']} line {c_.line}: {c_.status.value} "
                    f"{c_.text[:90]!r} — {c_.why()[:140]}"
                )
    ms = [r["ms"] for r in results]
    print(f"verifier time per artifact: median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", action="append", choices=["portfolio-review", "resume-tailor"])
    parser.add_argument("--batches", help="comma-separated batch folders (default: every batch of the task)")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--templates", type=int, default=120, metavar="N",
                        help="also run the template benchmarks on N generated artifacts (0: skip)")
    args = parser.parse_args()
    for task in args.task or ["portfolio-review", "resume-tailor"]:
        verifier, checker = evidence_for(task)
        batches = args.batches.split(",") if args.batches else sorted(p.name for p in (CORPUS / task).iterdir()
                                                                       if p.is_dir())
        items = load_corpus(task, batches)
        build_ledger(items[0]["text"], verifier)  # warm caches before timing
        results = [evaluate(item, verifier, checker) for item in items]
        report(task, items, results, f"batches {', '.join(batches)}", args.show_misses)
    if args.templates:
        templates(args.templates)


def templates(n: int) -> None:
    """The template benchmarks (text generated from the facts) side by side with the corpus figures."""
    import subprocess

    for script in ("bench_checks_portfolio.py", "bench_checks_resume.py"):
        print(f"\n== template benchmark {script} --n {n} (generated text) ==")
        done = subprocess.run([sys.executable, str(ROOT / "bench" / script), "--n", str(n)], capture_output=True,
                              text=True, check=False, cwd=ROOT)
        for line in done.stdout.splitlines():
            if line and not line.startswith(("    ", "  ")) and "flagged on faithful" not in line:
                print(line)


if __name__ == "__main__":
    main()

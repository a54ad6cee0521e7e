"""The cycle loop: run fresh teams until a verdict ends the run or a limit does.

Rules (see docs/cycle-loop.md):

* PASS ends the run. BLOCKED (evaluator or declared by planner/specialist) ends the run.
* PARTIAL starts a *fix* cycle (original task + current artifact + numbered issues).
* FAIL starts a *re-plan* cycle (original task + failure reasons).
* Limits — counters are **cumulative** over the run: a run tolerates ``max_partial`` PARTIAL and
  ``max_fail`` FAIL verdicts; one more ends it. ``max_cycles`` cycles at most; ``token_budget``
  (prompt + completion tokens) and ``run_timeout`` (seconds, wall clock) are checked too. A limit
  ends the run BLOCKED with reason ``LIMIT_REACHED`` and ``limit`` naming it.

The loop's inputs and result are in :mod:`autogen_pse.cycle_types` (re-exported here), the artifact,
its checks and the evaluator's evidence in :mod:`autogen_pse.cycle_artifact`.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

from autogen_agentchat.base import Response, TaskResult
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage, TextMessage
from autogen_core import CancellationToken

from .agents import Team, build_team
from .artifacts.constrained import StructuredClient
from .checking import all_pass, failed, ledger_payload, sanitize_repairs
from .claims import Ledger
from .cycle_artifact import ArtifactChecks
from .cycle_text import REASK_TEXT, fix_task_text, replan_task_text
from .cycle_types import CycleInputs, Limits, RunOutcome
from .errors import StoreError
from .events import EventKind
from .hooks import CheckResult
from .judgement import EvidenceContext
from .messages import message_event
from .models.observed import CallReport, ObservedClient
from .provenance import text_sha
from .registry import ROLES
from .resume import ResumePoint
from .usage import UsageTotals
from .verdict import Outcome, Reason, Verdict, VerdictParseError, merge_checks, parse_trailer

__all__ = ["STOP_GRACE", "CycleInputs", "CycleLoop", "Limits", "RunOutcome", "run_cycles"]

STOP_GRACE = 1.0  # seconds a stop waits for the cancelled turn to wind down before abandoning it


class _Stopped(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


async def run_cycles(inp: CycleInputs) -> RunOutcome:
    """Run cycles until PASS, BLOCKED, a limit, an external stop or an error."""
    loop = CycleLoop(inp)
    return await loop.run()


class CycleLoop(ArtifactChecks):
    def __init__(self, inp: CycleInputs) -> None:
        self.inp = inp
        self.partial = 0
        self.fail = 0
        self.artifact = ""
        self.evaluator_pass = False
        self.last_checks: list[CheckResult] | None = None
        self.deadline = time.monotonic() + inp.limits.run_timeout
        # artifact text → (rendered, results, ledger): the evaluator's evidence and the checks after
        # it read the same artifact, so the checks run once per artifact.
        self._checked: dict[str, tuple[str, list[CheckResult], Ledger | None]] = {}
        self._last_call: dict[str, CallReport] = {}  # role → its last finished model call (latency of its message)
        self._store_error: StoreError | None = None  # a trace write that failed inside a model call

    async def run(self) -> RunOutcome:
        inp, limits = self.inp, self.inp.limits
        kind, text, index = "initial", inp.task_text, 0
        verdict: Verdict | None = None
        if inp.resume is not None:  # fresh agents; the saved artifact, issues and counters
            r = inp.resume
            kind, text, index = r.next_kind, r.next_text, r.cycle
            self.artifact, self.partial, self.fail = r.artifact, r.partial, r.fail
            verdict = Verdict.model_validate(r.verdict)
        while True:
            index += 1
            try:
                verdict = await self._cycle(index, kind, text)
            except _Stopped as stop:
                if stop.why == "cancelled":
                    return self._outcome("cancelled", verdict, index, error="cancelled by request")
                limit_verdict = self._limit("run_timeout", f"{limits.run_timeout:g} s", verdict)
                return self._outcome("finished", limit_verdict, index, limit="run_timeout")
            except StoreError:  # the trace cannot be written: stop at once, naming the failing file
                raise
            except Exception as exc:  # the run ends with status error; completed cycles stay in the trace
                return self._outcome("error", verdict, index, error=_error_line(exc))
            if inp.stop.is_set():  # cancelled while the checks ran (their subprocesses were killed)
                return self._outcome("cancelled", verdict, index, error="cancelled by request")
            outcome = verdict.outcome
            if outcome in (Outcome.PASS, Outcome.BLOCKED):
                return self._outcome("finished", verdict, index)
            if outcome is Outcome.PARTIAL:
                self.partial += 1
                if self.partial > limits.max_partial:
                    return self._limited("max_partial", f"{limits.max_partial} PARTIAL", verdict, index)
                kind, text = "fix", fix_task_text(inp.task_text, self.artifact, verdict,
                                                  show_artifact=not inp.compact)
            else:
                self.fail += 1
                if self.fail > limits.max_fail:
                    return self._limited("max_fail", f"{limits.max_fail} FAIL", verdict, index)
                kind, text = "replan", replan_task_text(inp.task_text, verdict)
            if index >= limits.max_cycles:
                return self._limited("max_cycles", f"{limits.max_cycles} cycles", verdict, index)
            if limits.token_budget is not None and inp.usage.total_tokens >= limits.token_budget:
                return self._limited("token_budget", f"{limits.token_budget} tokens", verdict, index)
            if inp.on_checkpoint is not None:
                inp.on_checkpoint(ResumePoint(cycle=index, artifact=self.artifact, verdict=_verdict_dict(verdict),
                                              partial=self.partial, fail=self.fail, next_kind=kind, next_text=text))

    # --- one cycle ---------------------------------------------------------------------------

    async def _cycle(self, index: int, kind: str, text: str) -> Verdict:
        inp = self.inp
        emit = inp.emitter.emit
        inp.emitter.current_cycle = index
        emit(EventKind.CYCLE_STARTED, {"index": index, "kind": kind, "task_text": text}, cycle=index)
        cycle_usage = UsageTotals(model_name=inp.usage.model_name, prices=inp.usage.prices)
        team = build_team(
            inp.task,
            {role: self._client(role, index) for role in ROLES},
            tools=inp.tools,
            context=inp.context,
            max_turns=inp.limits.max_turns,
            compact=inp.compact,
            system_prefix=inp.system_prefix,
            evaluator_context=EvidenceContext(self._evidence, compact=inp.compact),
            artifact_error=self._artifact_error if inp.schema is not None else None,
        )
        for role, system in team.prompts.items():  # what each role received, rules and passages included
            emit(EventKind.PROMPT, {"role": role, "sha256": text_sha(system), "chars": len(system),
                                    "text": system}, cycle=index)
        token = CancellationToken()  # cancelled on a stop: model calls, retry waits and tools end at once
        try:
            await self._guarded(self._chat(team, text, index, cycle_usage, token), team, token)
            if self._store_error is not None:
                raise self._store_error
            verdict, origin = await self._read_verdict(team, index, cycle_usage, token)
        finally:  # calls of an interrupted cycle still count in the run's usage
            inp.usage.merge(cycle_usage)
        self._update_artifact(team)

        # The checks run after the evaluator and override it (on the same artifact its evidence showed).
        rendered, results = await self._run_checks(self.artifact)
        self.last_checks = results
        for r in results:
            emit(EventKind.CHECK, {**r.model_dump(), "phase": "cycle"}, cycle=index)
        if inp.checker.ledger is not None:
            emit(EventKind.LEDGER, ledger_payload(inp.checker.ledger, "cycle"), cycle=index)
        agent_outcome = verdict.outcome
        bad = failed(results)
        merged = merge_checks(verdict, bad)
        if merged.outcome is not agent_outcome:
            origin = "checks"
        self.evaluator_pass = agent_outcome is Outcome.PASS and origin != "declared"
        if self.evaluator_pass and not all_pass(results) and inp.checker.has_sanitize:
            # Deterministic rules may repair what the checks found; accept only if every check passes.
            sanitized = await inp.checker.off_loop(inp.checker.sanitize, rendered)
            after = await inp.checker.off_loop(inp.checker.check, sanitized.artifact,
                                                 raw=sanitized.artifact)
            if sanitize_repairs(self.evaluator_pass, sanitized, after):
                merged = verdict.model_copy(update={"issues": [
                    *verdict.issues, f"{len(sanitized.changes)} sanitize change(s) repair the failing checks"]})
                origin = "sanitized"
        emit(EventKind.VERDICT, {**_verdict_dict(merged), "origin": origin,
                                 "agent_outcome": agent_outcome.value}, cycle=index)
        usage = cycle_usage.to_dict()
        emit(EventKind.USAGE, {"scope": "cycle", "usage": usage}, cycle=index)
        emit(EventKind.CYCLE_FINISHED, {"index": index, "verdict": _verdict_dict(merged), "usage": usage,
                                        "artifact_chars": len(self.artifact)}, cycle=index)
        return merged

    async def _chat(self, team: Team, text: str, index: int, usage: UsageTotals, token: CancellationToken) -> None:
        async for item in team.team.run_stream(task=text, cancellation_token=token):
            if isinstance(item, TaskResult):
                break
            if isinstance(item, BaseChatMessage) and item.source == "user":
                continue  # the task text is already in cycle_started
            self._emit_item(item, index, usage)

    # --- clients, artifacts, evidence ---------------------------------------------------------

    def _client(self, role: str, index: int) -> Any:
        """The role's client for this cycle: observed (progress events), and constrained to the
        artifact schema (specialist) or the plan schema (planner, compact runs)."""
        inp = self.inp

        def on_call(report: CallReport) -> None:
            self._last_call[role] = report
            self._side_emit(EventKind.MODEL_CALL, report.payload(), index)

        def on_retry(attempt: int, kind: str, wait: float) -> None:
            self._side_emit(EventKind.RETRY, {"role": role, "attempt": attempt, "error_kind": kind,
                                              "wait": round(wait, 3)}, index)

        def on_wait(role: str, elapsed: float) -> None:
            self._side_emit(EventKind.MODEL_WAIT, {"role": role, "elapsed": round(elapsed, 1)}, index)

        inner = inp.provider.client_for(role)
        if hasattr(inner, "on_retry"):  # a RetryingClient (one per role for the run): this cycle reports its retries
            inner.on_retry = on_retry
        client: Any = ObservedClient(inner, role, on_call=on_call, on_wait=on_wait)
        schema = inp.schema if role == "specialist" else inp.plan_schema if role == "planner" else None
        if schema is not None:
            checked = role == "specialist"  # its object renders to the artifact: checked before the turn ends
            client = StructuredClient(
                client, schema, inp.provider.output_strategy,
                on_fallback=lambda note: self._side_emit(EventKind.WARNING, {"message": note}, index),
                review=self._review_object if checked else None,
                on_recheck=lambda problems: self._side_emit(EventKind.WARNING, {
                    "message": f"the artifact fails its checks; the specialist is asked once more ({problems[:300]})"},
                    index))
        return client

    async def _read_verdict(self, team: Team, index: int, usage: UsageTotals,
                            token: CancellationToken) -> tuple[Verdict, str]:
        state = team.state
        if state.artifact_error is not None:
            return Verdict(outcome=Outcome.PARTIAL, reason=Reason.FORMAT_ISSUE,
                           issues=[f"the specialist gave no valid artifact object after one re-ask: "
                                   f"{state.artifact_error}"],
                           summary="Artifact object missing or invalid; treated as PARTIAL."), "format"
        if state.verdict is not None:
            return state.verdict, "declared" if state.declared_by else "evaluator"
        if state.malformed_text is not None:
            error = _parse_error(state.malformed_text)
            if state.turns < self.inp.limits.max_turns:
                reply = await self._guarded(self._reask(team, error, index, usage, token), team, token)
                try:
                    return parse_trailer(reply), "evaluator"
                except VerdictParseError as exc:
                    error = str(exc)
            return Verdict(outcome=Outcome.PARTIAL, reason=Reason.FORMAT_ISSUE,
                           issues=[f"the evaluator gave no valid verdict after one re-ask: {error}"],
                           summary="Verdict missing or malformed; treated as PARTIAL."), "format"
        return Verdict(outcome=Outcome.PARTIAL, reason=Reason.INCOMPLETE,
                       issues=[f"the turn cap ({self.inp.limits.max_turns} turns) was reached before a verdict"],
                       summary="No verdict within the turn cap."), "turn_cap"

    async def _reask(self, team: Team, error: str, index: int, usage: UsageTotals, token: CancellationToken) -> str:
        evaluator = team.agents["evaluator"]
        ask = TextMessage(content=REASK_TEXT.format(error=error), source="user")
        reply = ""
        async for item in evaluator.on_messages_stream([ask], token):
            if isinstance(item, Response):
                self._emit_item(item.chat_message, index, usage)
                if isinstance(item.chat_message, TextMessage):
                    reply = item.chat_message.content
            else:
                self._emit_item(item, index, usage)
        team.state.turns += 1
        return reply

    async def _guarded(self, coro: Any, team: Team, token: CancellationToken) -> Any:
        """Run ``coro`` until done, an external stop or the run deadline. Then ``token`` is cancelled
        (a tool's sandbox is killed, a model call or a Retry-After wait ends) and the turn gets
        :data:`STOP_GRACE` seconds to wind down before it is abandoned."""
        task = asyncio.ensure_future(coro)
        stop_wait = asyncio.ensure_future(self.inp.stop.wait())
        try:
            remaining = max(0.0, self.deadline - time.monotonic())
            done, _ = await asyncio.wait({task, stop_wait}, timeout=remaining,
                                         return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                return task.result()
            why = "cancelled" if stop_wait in done else "timeout"
            team.external.set()
            self.inp.provider.abort()
            token.cancel()
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=STOP_GRACE)
            except BaseException:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            raise _Stopped(why)
        finally:
            stop_wait.cancel()

    def _side_emit(self, kind: EventKind, payload: dict[str, Any], index: int) -> None:
        """Emit from inside a model call (progress, retries). A trace write that fails there must
        not become a model error (AutoGen would wrap it): it is kept and raised at the loop's next
        event, so the run still stops naming the file it could not write."""
        if self._store_error is not None:
            return
        try:
            self.inp.emitter.emit(kind, payload, cycle=index)
        except StoreError as exc:
            self._store_error = exc

    def _emit_item(self, item: BaseAgentEvent | BaseChatMessage, index: int, usage: UsageTotals) -> None:
        if self._store_error is not None:
            raise self._store_error
        converted = message_event(item, self.inp.output_cap)
        if converted is None:
            return
        kind, payload = converted
        u = payload.get("usage")
        if u is not None:
            payload["usage"] = usage.add(payload["source"], u["prompt_tokens"], u["completion_tokens"])
            call = self._last_call.pop(payload["source"], None)
            if call is not None:  # the model call this message or tool call came from
                payload["latency"] = {"seconds": round(call.seconds, 3),
                                      "ttft": None if call.ttft is None else round(call.ttft, 3)}
            for warning in [*usage.pop_warnings(), *self.inp.provider.take_notices()]:
                self.inp.emitter.emit(EventKind.WARNING, {"message": warning}, cycle=index)
        self.inp.emitter.emit(kind, payload, cycle=index)

    # --- endings -----------------------------------------------------------------------------

    def _limit(self, name: str, value: str, last: Verdict | None) -> Verdict:
        return Verdict(outcome=Outcome.BLOCKED, reason=Reason.LIMIT_REACHED,
                       issues=list(last.issues) if last else [],
                       summary=f"Limit {name} reached ({value}) without PASS.")

    def _limited(self, name: str, value: str, last: Verdict, index: int) -> RunOutcome:
        return self._outcome("finished", self._limit(name, value, last), index, limit=name)

    def _outcome(self, status: str, verdict: Verdict | None, cycles: int, *, limit: str | None = None,
                 error: str | None = None) -> RunOutcome:
        return RunOutcome(status=status, verdict=verdict, cycles=cycles, raw_artifact=self.artifact,
                          evaluator_pass=self.evaluator_pass and status == "finished", limit=limit,
                          error=error, artifact_issues=list(verdict.issues) if verdict else [],
                          last_checks=self.last_checks)


def _verdict_dict(v: Verdict) -> dict[str, Any]:
    return {"outcome": v.outcome.value, "reason": v.reason.value, "issues": v.issues, "summary": v.summary}


def _parse_error(text: str) -> str:
    try:
        parse_trailer(text)
    except VerdictParseError as exc:
        return str(exc)
    return "unknown"


def _error_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if type(exc) is RuntimeError and _WRAPPED.match(text):
        return text[:500]  # autogen re-raises an agent's error as RuntimeError("ModelError: ...")
    return f"{type(exc).__name__}: {text}"[:500]


_WRAPPED = re.compile(r"^[A-Z]\w*(?:Error|Exception): ")

"""Build one cycle's team: three fresh AssistantAgents in a RoundRobinGroupChat.

Fresh agents every cycle are what keeps a cycle's prompt from growing with the number of earlier
cycles: nothing of an earlier cycle reaches a later one except through the cycle's task text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from autogen_agentchat.agents import AssistantAgent
from autogen_agentchat.base import TerminatedException, TerminationCondition
from autogen_agentchat.conditions import ExternalTermination
from autogen_agentchat.messages import BaseAgentEvent, BaseChatMessage, StopMessage, TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core.model_context import ChatCompletionContext
from autogen_core.models import ChatCompletionClient
from autogen_core.tools import BaseTool

from .registry import ROLES, TaskSpec
from .verdict import Verdict, declared_blocked, try_parse

MAX_TOOL_ITERATIONS = 6


@dataclass
class VerdictState:
    """What ended a cycle's chat, read by the cycle loop after the team stops."""

    verdict: Verdict | None = None
    declared_by: str | None = None
    malformed_text: str | None = None
    artifact_error: str | None = None  # the specialist's reply is not a valid artifact object
    evaluator_text: str | None = None
    turns: int = 0
    last_text: dict[str, str] = field(default_factory=dict)


class VerdictTermination(TerminationCondition):
    """Stops the chat on a structured verdict — and on nothing else.

    * the evaluator's final *text* message (a ``TextMessage``) with a valid trailer → verdict;
    * the evaluator's text message without one → stop, marked malformed (the loop re-asks once);
    * a planner/specialist text message ending with a BLOCKED trailer → declared BLOCKED;
    * in a structured run, a specialist message that is not a valid artifact object (after the
      client's one re-ask) → stop, marked ``artifact_error`` (the loop counts PARTIAL / FORMAT_ISSUE).

    The task message (source ``user``), tool calls, tool results and tool summaries are never read,
    so verdict words in the task text, a prompt or a tool output cannot end a cycle.
    """

    def __init__(self, state: VerdictState, evaluator: str = "evaluator",
                 artifact_error: Callable[[str], str | None] | None = None) -> None:
        self._state = state
        self._evaluator = evaluator
        self._artifact_error = artifact_error
        self._terminated = False

    @property
    def terminated(self) -> bool:
        return self._terminated

    async def __call__(self, messages: Sequence[BaseAgentEvent | BaseChatMessage]) -> StopMessage | None:
        if self._terminated:
            raise TerminatedException("Termination condition has already been reached")
        for message in messages:
            if not isinstance(message, BaseChatMessage) or message.source not in ROLES:
                continue
            self._state.turns += 1
            if not isinstance(message, TextMessage):
                continue
            self._state.last_text[message.source] = message.content
            if message.source == self._evaluator:
                self._state.evaluator_text = message.content
                verdict = try_parse(message.content)
                if verdict is None:
                    self._state.malformed_text = message.content
                    return self._stop("evaluator message without a valid verdict")
                self._state.verdict = verdict
                return self._stop(f"verdict {verdict.outcome.value}")
            blocked = declared_blocked(message.content)
            if blocked is not None:
                self._state.verdict, self._state.declared_by = blocked, message.source
                return self._stop(f"BLOCKED declared by {message.source}")
            if message.source == "specialist" and self._artifact_error is not None:
                error = self._artifact_error(message.content)
                if error is not None:
                    self._state.artifact_error = error
                    return self._stop("specialist reply is not a valid artifact object")
        return None

    def _stop(self, why: str) -> StopMessage:
        self._terminated = True
        return StopMessage(content=why, source="VerdictTermination")

    async def reset(self) -> None:
        self._terminated = False


@dataclass
class Team:
    team: RoundRobinGroupChat
    agents: dict[str, AssistantAgent]
    state: VerdictState
    external: ExternalTermination
    prompts: dict[str, str] = field(default_factory=dict)  # role → the system prompt it received


def build_team(
    task: TaskSpec,
    clients: Mapping[str, ChatCompletionClient],
    *,
    tools: dict[str, list[BaseTool]],
    context: dict[str, str],
    max_turns: int,
    compact: bool = False,
    system_prefix: str = "",
    evaluator_context: ChatCompletionContext | None = None,
    artifact_error: Callable[[str], str | None] | None = None,
) -> Team:
    """Fresh agents and team for one cycle.

    Args:
        task: the task (system prompts per role, placeholders already filled).
        clients: role → ChatCompletionClient.
        tools: role → tools (empty when the model cannot call tools).
        context: role → retrieved grounding text appended to that role's system prompt.
        max_turns: agent turns allowed in this chat.
        compact: use the task's compact prompts (small local models), when it has them.
        system_prefix: text put first in the planner's and specialist's system prompts (a prefix they
            share, so llama.cpp reuses its evaluation from one call to the next). Not the evaluator's:
            with an evidence context its view is self-contained, and the prefix would only count
            against its prompt budget (cached tokens are still prompt tokens).
        evaluator_context: the evaluator's model context (evidence before judgement).
        artifact_error: specialist text → why it is not a valid artifact object (structured runs).
    """
    agents: dict[str, AssistantAgent] = {}
    systems: dict[str, str] = {}
    prompts = task.prompts_for(compact)
    for role in ROLES:
        shared = system_prefix.strip() if role != "evaluator" or evaluator_context is None else ""
        system = f"{shared}\n\n{prompts[role]}" if shared else prompts[role]
        if context.get(role):
            system = f"{system}\n\n## Retrieved context (cite sources by name)\n{context[role]}"
        systems[role] = system
        role_tools: list[BaseTool[Any, Any] | Callable[..., Any] | Callable[..., Awaitable[Any]]] = [
            *(tools.get(role) or [])]
        agents[role] = AssistantAgent(
            role,
            model_client=clients[role],
            system_message=system,
            description=f"The {role} of the planner–specialist–evaluator team.",
            tools=role_tools or None,
            reflect_on_tool_use=bool(role_tools),
            max_tool_iterations=MAX_TOOL_ITERATIONS,
            model_context=evaluator_context if role == "evaluator" else None,
        )
    state = VerdictState()
    external = ExternalTermination()
    team = RoundRobinGroupChat(
        [agents[r] for r in ROLES],
        termination_condition=VerdictTermination(state, artifact_error=artifact_error) | external,
        max_turns=max_turns,
    )
    return Team(team=team, agents=agents, state=state, external=external, prompts=systems)

"""Throughput of the local model: our ``LocalChatClient`` vs raw ``Llama.create_chat_completion``.

The same prompt, the same ``max_tokens``, temperature and seed go through both paths, side by
side in one process on the one shared ``Llama`` instance, alternating which goes first; the KV
cache is reset before every call so each one evaluates its prompt in full. Prints completion
tokens per second (median of the repetitions) for each path and the ratio client/raw; a ratio
near 1.0 means the client (message conversion, context fitting, worker thread, lock) adds
nothing measurable. ``--evaluator`` also measures the grammar-constrained evaluator client.

    .venv/bin/python bench/bench_local_model.py [--reps 3] [--max-tokens 128] [--evaluator]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any

from autogen_core.models import SystemMessage, UserMessage

from autogen_pse.config import Settings
from autogen_pse.models import open_provider
from autogen_pse.models.messages import to_chat_dicts

MESSAGES = [
    SystemMessage(content="You are a helpful writer. Answer in full sentences."),
    UserMessage(
        content="Write a detailed, multi-paragraph explanation of how a quicksort works, "
        "with an example on the list 5, 3, 8, 1, 9, 2.",
        source="user",
    ),
]


def _rate(tokens: int, seconds: float) -> float:
    return tokens / seconds if seconds > 0 else 0.0


def raw_call(llama: Any, max_tokens: int, seed: int) -> tuple[int, int, float]:
    llama.reset()
    start = time.perf_counter()
    response = llama.create_chat_completion(
        messages=to_chat_dicts(MESSAGES), max_tokens=max_tokens, temperature=0.2, seed=seed
    )
    elapsed = time.perf_counter() - start
    usage = response["usage"]
    return usage["prompt_tokens"], usage["completion_tokens"], elapsed


async def client_call(client: Any, llama: Any, max_tokens: int, seed: int) -> tuple[int, int, float]:
    llama.reset()
    start = time.perf_counter()
    result = await client.create(
        MESSAGES, extra_create_args={"max_tokens": max_tokens, "temperature": 0.2, "seed": seed}
    )
    elapsed = time.perf_counter() - start
    return result.usage.prompt_tokens, result.usage.completion_tokens, elapsed


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--evaluator", action="store_true", help="also time the grammar-constrained evaluator")
    args = parser.parse_args()

    settings = Settings(local_max_tokens=max(args.max_tokens, 1))
    provider = open_provider("local", settings)
    llama = provider._llama  # the shared instance both paths use
    client = provider.client_for("specialist")
    print(
        f"model {provider.name}, n_ctx {llama.n_ctx()}, threads {settings.local_threads}, "
        f"max_tokens {args.max_tokens}, reps {args.reps}, load avg {os.getloadavg()[0]:.2f}"
    )

    # Warm-up, not reported: the first long generation in a process is much slower (seen: 16 s
    # vs 3 s) whichever path makes it, so both paths run once at full length first.
    await client_call(client, llama, args.max_tokens, args.seed)
    raw_call(llama, args.max_tokens, args.seed)
    rates: dict[str, list[float]] = {"client": [], "raw": []}
    for rep in range(args.reps):
        order = ("client", "raw") if rep % 2 == 0 else ("raw", "client")
        for name in order:
            if name == "raw":
                prompt, completion, elapsed = raw_call(llama, args.max_tokens, args.seed)
            else:
                prompt, completion, elapsed = await client_call(client, llama, args.max_tokens, args.seed)
            rates[name].append(_rate(completion, elapsed))
            print(
                f"  rep {rep + 1} {name:6s} prompt {prompt:4d} tok, completion {completion:4d} tok, "
                f"{elapsed:6.2f} s, {rates[name][-1]:7.1f} tok/s"
            )

    client_rate, raw_rate = statistics.median(rates["client"]), statistics.median(rates["raw"])
    print(
        f"client {client_rate:.1f} tok/s | raw {raw_rate:.1f} tok/s | ratio client/raw "
        f"{client_rate / raw_rate if raw_rate else float('nan'):.3f}"
    )

    if args.evaluator:
        evaluator = provider.client_for("evaluator")
        llama.reset()
        start = time.perf_counter()
        result = await evaluator.create(MESSAGES)
        elapsed = time.perf_counter() - start
        print(
            f"evaluator (grammar) completion {result.usage.completion_tokens} tok, {elapsed:.2f} s, "
            f"{_rate(result.usage.completion_tokens, elapsed):.1f} tok/s"
        )
    await provider.close()


if __name__ == "__main__":
    asyncio.run(main())

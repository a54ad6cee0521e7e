"""Write the dashboard's OpenAPI schema to frontend/openapi.json (input of `npm run gen:api`).

Usage: .venv/bin/python frontend/scripts/export_openapi.py [output.json]
The schema is built from the app factory with throwaway settings; no server is started.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from autogen_pse.config import Settings  # noqa: E402
from autogen_pse.web import create_app  # noqa: E402
from autogen_pse.web.hub import EventHub  # noqa: E402


class _NoExecutor:
    """The schema needs no executor; this keeps the factory from starting a run thread."""

    concurrency = 1

    async def submit(self, request: object) -> str:
        raise NotImplementedError

    async def cancel(self, run_id: str) -> bool:
        return False

    def active(self) -> set[str]:
        return set()

    async def wait(self, run_id: str) -> None:
        return None

    def start_error(self, run_id: str) -> str | None:
        return None

    async def shutdown(self) -> None:
        return None


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "frontend" / "openapi.json"
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, traces_dir=Path(tmp) / "traces", state_dir=Path(tmp) / "state")
        app = create_app(settings, _NoExecutor(), hub=EventHub())  # type: ignore[arg-type]
        schema = app.openapi()
    out.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    sys.stderr.write(f"wrote {out}\n")


if __name__ == "__main__":
    main()

"""``python web_server.py`` / ``make serve``: run the dashboard with uvicorn."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence

from autogen_pse.config import load_settings
from autogen_pse.errors import EXIT_USER_ERROR, UserError
from autogen_pse.web.security import check_bind

__all__ = ["main", "parse_args", "serve"]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="web_server.py", description="Serve the autogen-pse dashboard.")
    parser.add_argument("--host", help="bind address (default PSE_WEB_HOST or 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default PSE_WEB_PORT or 8080)")
    levels = ["critical", "error", "warning", "info", "debug"]
    parser.add_argument("--log-level", default="info", choices=levels)
    parser.add_argument("--log-autogen", action="store_true",
                        help="also show AutoGen's own logs (they repeat every message's contents)")
    return parser.parse_args(argv)


#: Loggers of AutoGen: at INFO they log every message (a CV's text in the server log), several times.
AUTOGEN_LOGGERS = ("autogen_core", "autogen_agentchat", "autogen_ext")


def main(argv: Sequence[str] | None = None) -> None:
    """Serve until interrupted. Exits with code 2 (and a message) for a refused bind address."""
    args = parse_args(argv)
    try:
        serve(host=args.host, port=args.port, log_level=args.log_level, log_autogen=args.log_autogen)
    except UserError as exc:
        logging.basicConfig(level=logging.ERROR, format="%(message)s")
        logging.getLogger("autogen_pse.web").error("error: %s", exc)
        raise SystemExit(EXIT_USER_ERROR) from None


def serve(*, host: str | None = None, port: int | None = None, log_level: str = "info",
          log_autogen: bool = False) -> None:
    """Serve until interrupted (``pse serve``, ``web_server.py``).

    Raises:
        UserError: a refused bind address (non-loopback without ``PSE_WEB_TOKEN``) or a bad setting.
    """
    import uvicorn

    from autogen_pse.web.app import create_app

    updates = {k: v for k, v in (("web_host", host), ("web_port", port)) if v is not None}
    settings = load_settings().model_copy(update=updates)
    token = settings.web_token.get_secret_value() if settings.web_token is not None else None
    check_bind(settings.web_host, token)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s", force=True)
    if not log_autogen:  # the server logs its own lines, never message contents unless asked
        for name in AUTOGEN_LOGGERS:
            logging.getLogger(name).setLevel(logging.WARNING)
    uvicorn.run(create_app(settings), host=settings.web_host, port=settings.web_port,
                log_level=log_level, timeout_graceful_shutdown=10, proxy_headers=False,
                server_header=False, h11_max_incomplete_event_size=16 * 1024)

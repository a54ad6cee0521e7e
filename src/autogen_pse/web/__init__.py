"""The web dashboard: FastAPI + SSE API and the built React frontend, served from one process.

``create_app(settings, executor=None)`` builds the app; ``main()`` serves it with uvicorn on
``settings.web_host:settings.web_port`` (127.0.0.1:8080 by default) and refuses a non-loopback
address unless ``PSE_WEB_TOKEN`` is set.
"""

from __future__ import annotations

from autogen_pse.web.app import create_app
from autogen_pse.web.server import main

__all__ = ["create_app", "main"]

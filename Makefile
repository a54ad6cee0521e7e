# autogen-pse — every entry point a user or CI needs.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
UV      := $(BIN)/uv
UV_VERSION := 0.13.8
STAMP   := $(VENV)/.installed
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_COMPILE_BYTECODE := 1

.PHONY: install demo review test test-fast lint serve frontend openapi contracts bench clean

$(STAMP): pyproject.toml uv.lock
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q "uv==$(UV_VERSION)"
	$(UV) sync --frozen --all-extras --python $(BIN)/python
	@command -v bwrap >/dev/null || echo "WARNING: bubblewrap is missing: the pytest/ruff tools will refuse to run (apt-get install bubblewrap)"
	@command -v redis-server >/dev/null || echo "WARNING: redis-server is missing: the worker tests (PSE_EXECUTOR=celery) need it (apt-get install redis-server)"
	@touch $(STAMP)

install: $(STAMP) ## create .venv with every dependency (incl. the local model)

# A run that ends without PASS exits 1: expected of a 135M local model, so not a make failure.
# User errors (2) and runtime errors (3) still fail.
demo: install ## run the demo task on the embedded local model
	$(BIN)/python cli.py run demo --max-cycles 2 || [ $$? -eq 1 ]

review: install ## run portfolio-review on the embedded local model with the example data
	$(BIN)/python cli.py run portfolio-review --max-cycles 2 || [ $$? -eq 1 ]

FRONTEND_DEPS := frontend/node_modules/.package-lock.json
FRONTEND_SRC  := $(shell find frontend/src -type f) frontend/index.html frontend/vite.config.ts frontend/tsconfig.json frontend/package.json
STATIC_INDEX  := src/autogen_pse/web/static/index.html

$(FRONTEND_DEPS): frontend/package.json frontend/package-lock.json
	cd frontend && npm install --no-audit --no-fund
	@touch $(FRONTEND_DEPS)

$(STATIC_INDEX): $(FRONTEND_DEPS) $(FRONTEND_SRC)
	cd frontend && npm run build

frontend: $(STATIC_INDEX) ## build the dashboard when its sources are newer than the build

serve: install frontend ## dashboard on http://127.0.0.1:8080 (PSE_WEB_HOST / PSE_WEB_PORT / PSE_WEB_TOKEN)
	$(BIN)/python web_server.py

openapi: install $(FRONTEND_DEPS) ## after API changes: frontend/openapi.json + src/api/schema.d.ts
	$(BIN)/python frontend/scripts/export_openapi.py
	cd frontend && npm run gen:api

contracts: install ## after changing an event model: regenerate the event block of docs/CONTRACTS.md
	PYTHONPATH=src $(BIN)/python -m autogen_pse._contract_doc

test: install frontend ## the whole test suite (unit, integration, local model, Chroma server, browser, wheel install)
	$(BIN)/ruff check src tests tasks bench
	$(BIN)/python -m mypy
	cd frontend && npm test
	$(BIN)/python -m pytest -q

test-fast: install frontend ## without the local-model and browser tests
	$(BIN)/python -m pytest -q -m "not local_model and not browser"

lint: install ## ruff on everything, mypy on src/autogen_pse (see [tool.mypy] in pyproject.toml)
	$(BIN)/ruff check src tests tasks bench
	$(BIN)/python -m mypy

bench: install ## benchmarks: each prints ratios measured side by side
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pse .pytest_cache

# autogen-pse — every entry point a user or CI needs.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
UV      := $(BIN)/uv
UV_VERSION := 0.13.8
STAMP   := $(VENV)/.installed
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)

.PHONY: install demo review test test-fast lint serve frontend bench clean

$(STAMP): pyproject.toml uv.lock
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q "uv==$(UV_VERSION)"
	$(UV) sync --frozen --all-extras --python $(BIN)/python
	@touch $(STAMP)

install: $(STAMP) ## create .venv with every dependency (incl. the local model)

demo: install ## run the demo task on the embedded local model
	$(BIN)/python cli.py run demo

review: install ## run portfolio-review on the embedded local model with the example data
	$(BIN)/python cli.py run portfolio-review

test: install ## the whole test suite (unit, integration, local model, browser)
	$(BIN)/ruff check src tests tasks bench
	$(BIN)/python -m pytest -q

test-fast: install ## without the local-model and browser tests
	$(BIN)/python -m pytest -q -m "not local_model and not browser"

lint: install
	$(BIN)/ruff check src tests tasks bench

bench: install ## benchmarks: each prints ratios measured side by side
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pse .pytest_cache

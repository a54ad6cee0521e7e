"""Datasets and evaluation runs (``pse eval``): many cases of one task on one or more models,
every case a normal run, compared in a table, a JSON and an HTML report."""

from .dataset import Case, Dataset, load_dataset
from .execute import EvalPlan, plan_eval, run_eval
from .report import CaseRun, EvalReport, ModelSummary, summarise
from .store import EvalRow, EvalStore

__all__ = ["Case", "CaseRun", "Dataset", "EvalPlan", "EvalReport", "EvalRow", "EvalStore", "ModelSummary",
           "load_dataset", "plan_eval", "run_eval", "summarise"]

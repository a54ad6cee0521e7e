"""The claim ledger: every sentence of an artifact checked against the task's evidence, or flagged.

Extract (:mod:`.split`, :mod:`.quantities`, :mod:`.dates`, :mod:`.catalogue`) → link and verify
(:mod:`.verify` with its parts :mod:`.binding`, :mod:`.naming`, :mod:`.figures`, :mod:`.ranks`,
:mod:`.directions`, :mod:`.relations`, :mod:`.statements`, :mod:`.transitions`) → ledger and checks
(:mod:`.ledger`). Generic: a task configures it with an
:class:`Evidence` built by its ``evidence.py`` hook (entities, metrics, facts, rules, sources).
"""

from .conversation import message_header_lines
from .envelope import wrapper_lines
from .evidence import Count, DateFact, Duration, Entity, Evidence, FactValue, Flag, Metric, Source, Transition
from .ledger import build_ledger, ledger_checks
from .markup import annotation_lines
from .model import Claim, Finding, Ledger, Status
from .number_formats import mend
from .runreport import run_report_lines
from .split import caps_lead
from .transitions import stated_changes
from .verify import Verifier

__all__ = [
    "Claim",
    "Count",
    "DateFact",
    "Duration",
    "Entity",
    "Evidence",
    "FactValue",
    "Finding",
    "Flag",
    "Ledger",
    "Metric",
    "Source",
    "Status",
    "Transition",
    "Verifier",
    "annotation_lines",
    "build_ledger",
    "caps_lead",
    "ledger_checks",
    "mend",
    "message_header_lines",
    "run_report_lines",
    "stated_changes",
    "wrapper_lines",
]

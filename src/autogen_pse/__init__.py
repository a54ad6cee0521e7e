"""autogen-pse: a Planner–Specialist–Evaluator orchestrator on AutoGen whose artifacts are checked
against real data before anyone sees them.

Heavy modules (autogen, chromadb, llama_cpp) are imported lazily by the parts that need them.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]

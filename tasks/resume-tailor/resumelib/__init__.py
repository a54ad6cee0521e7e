"""Shared code of the ``resume-tailor`` task hooks (``prepare.py``, ``checks.py``, ``sanitize.py``).

The hooks load this folder as a package under a private name
(``task_module(__file__, "resumelib.<module>")`` in each hook), so it needs no install and never
clashes with another task's modules. Modules:

* :mod:`.text`    — normalisation, dates, Markdown sections and entries;
* :mod:`.cv`      — the CV parser (entries, degrees, skills);
* :mod:`.lexicon` — numbers and technology names in free text;
* :mod:`.model`   — the normalised claim vocabulary and lookups;
* :mod:`.claims`  — claim extraction from a tailored CV and grounding against the CV;
* :mod:`.inputs`  — input files, validation, facts and the task text.
"""

"""Built-in prompt fragments, filled into ``{VERDICT_FORMAT}``, ``{BLOCKED_FORMAT}`` and
``{FACT_REFERENCES}`` placeholders of task prompts."""

from __future__ import annotations

VERDICT_FORMAT = """\
End your message with exactly one verdict block and nothing after it:

```verdict
{"outcome": "PASS|PARTIAL|FAIL|BLOCKED", "reason": "OK|DATA_MISMATCH|FORMAT_ISSUE|INCOMPLETE|RULE_VIOLATION|TEST_FAILURE|NEEDS_INPUT", "issues": ["one short, fixable problem per item"], "summary": "one or two sentences"}
```

PASS: the artifact is complete and correct — reason OK and "issues": [] (a PASS with issues or with
another reason is malformed; reason OK goes with PASS only). PARTIAL: fixable problems, list
each in issues as a sentence. FAIL: the approach is wrong and must be re-planned. BLOCKED: the task cannot be done
without outside input (reason NEEDS_INPUT)."""

BLOCKED_FORMAT = """\
If the task cannot be done without outside input, say why and end your message with:

```verdict
{"outcome": "BLOCKED", "reason": "NEEDS_INPUT", "issues": ["what is missing"], "summary": "why"}
```"""

FACT_REFERENCES = """\
Never retype a figure from the facts: write {{fact:<id>}} (for example {{fact:total_value}}) and it
is replaced by the exact value when the artifact is rendered. An unknown id is an error."""

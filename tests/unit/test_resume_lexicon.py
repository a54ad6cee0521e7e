"""Building blocks of the resume-tailor checks: numbers, dates, technologies, degrees, structure."""

from __future__ import annotations

import pytest

from autogen_pse.hooks import task_module
from tests.unit.test_resume_support import TASK_DIR, hook

checks = hook("checks")
lexicon = task_module(str(checks.__file__), "resumelib.lexicon")
text = task_module(str(checks.__file__), "resumelib.text")
structure = task_module(str(checks.__file__), "resumelib.structure")
entrytext = task_module(str(checks.__file__), "resumelib.entrytext")
cv = task_module(str(checks.__file__), "resumelib.cv")


def _numbers(s: str) -> list[tuple[str, float, str]]:
    return [(n.kind, n.value, n.currency) for n in lexicon.find_numbers(s)]


@pytest.mark.parametrize(
    "s,expected",
    [
        ("1,200 requests", [("count", 1200.0, "")]),
        ("1200 requests", [("count", 1200.0, "")]),
        ("$2M saved", [("money", 2e6, "USD")]),
        ("$2,000,000 saved", [("money", 2e6, "USD")]),
        ("€1.5 million", [("money", 1.5e6, "EUR")]),
        ("420,000 GBP", [("money", 420000.0, "GBP")]),
        ("£420k", [("money", 420000.0, "GBP")]),
        ("by 35%", [("percent", 35.0, "")]),
        ("by 35 percent", [("percent", 35.0, "")]),
        ("3x faster", [("multiplier", 3.0, "")]),
        ("2M events and 10k users", [("count", 2e6, ""), ("count", 1e4, "")]),
        ("9+ years", [("count", 9.0, "")]),
        ("45 minutes, 6 months", [("count", 45.0, ""), ("count", 6.0, "")]),
    ],
)
def test_numbers_are_normalised(s: str, expected: list) -> None:
    assert _numbers(s) == expected


@pytest.mark.parametrize(
    "s",
    [
        "Mar 2020 – Present",
        "2017 - 2020",
        "since 2019",
        "(2021)",
        "p95 latency",
        "EC2 and S3",
        "K8s",
        "Python 3.11.2",
        "+44 7700 900123",
        "[[PHONE_1]] [[EMAIL_2]]",
        "elena.marsh@example.com",
        "github.com/elena-2020",
        "1. First item",
        "{{fact:exp1.n1}}",
    ],
)
def test_non_figures_are_ignored(s: str) -> None:
    assert lexicon.find_numbers(s) == []


def test_number_support_rules() -> None:
    cv_numbers = [
        {"kind": "money", "value": 420000.0, "currency": "USD"},
        {"kind": "count", "value": 6.0, "currency": ""},
    ]
    claim = lexicon.find_numbers
    assert lexicon.number_supported(claim("$420k")[0], cv_numbers)
    assert lexicon.number_supported(claim("420,000 in savings")[0], cv_numbers)  # bare count: any kind
    assert not lexicon.number_supported(claim("€420,000")[0], cv_numbers)  # other currency
    assert not lexicon.number_supported(claim("6%")[0], cv_numbers)  # a count is not a percentage
    assert lexicon.number_supported(claim("6x")[0], cv_numbers)


@pytest.mark.parametrize(
    "s,expected",
    [
        ("Mar 2020 – Present", [("2020-03", "present")]),
        ("March 2020 to now", [("2020-03", "present")]),
        ("03/2017 - 02/2020", [("2017-03", "2020-02")]),
        ("2017-03 – 2020-02", [("2017-03", "2020-02")]),
        ("2015–2017", [("2015", "2017")]),
        ("Sept. 2015 – May 2017", [("2015-09", "2017-05")]),
        ("graduated 2014, certified (2021)", [("2014", None), ("2021", None)]),
        ("$2019 and 12015 and 2019.5 and 2019%", []),
    ],
)
def test_dates(s: str, expected: list) -> None:
    assert [(d.start, d.end) for d in text.find_dates(s)] == expected


def test_date_comparison_uses_the_coarser_granularity() -> None:
    assert text.not_before("2020", "2020-03")  # a year-only start is not "earlier"
    assert not text.not_before("2020-02", "2020-03")
    assert text.not_before("present", "2020-02") and not text.not_before("2020-02", "present")


def test_technology_matcher_boundaries() -> None:
    vocab = lexicon.parse_vocab((TASK_DIR / "data" / "technologies.txt").read_text(encoding="utf-8"))
    m = lexicon.TechMatcher(tuple(vocab))
    found = [
        c
        for c, _, _ in m.find(
            "Python/Django, Kafka-based streams, Node.js, C++ and C#, go-to-market, let's go, Go services, "
            "AWS Glue jobs, Postgres, K8s, react to alerts, React apps, see github.com/react, NoSQL"
        )
    ]
    assert found == [
        "Python",
        "Django",
        "Kafka",
        "Node.js",
        "C++",
        "C#",
        "Go",
        "AWS Glue",
        "PostgreSQL",
        "Kubernetes",
        "React",
    ]


def test_degrees_and_false_degrees() -> None:
    assert [d[0] for d in cv.find_degrees("MSc, M.Sc., PhD, MBA, Bachelor of Arts, Master's")] == [
        "msc",
        "msc",
        "phd",
        "mba",
        "ba",
        "master",
    ]
    assert cv.find_degrees("Scrum Master, MS SQL Server, BA flights, master the craft") == []
    assert [d[0] for d in cv.find_degrees("MS Computer Science", strict=True)] == ["msc"]
    assert cv.degree_compatible("master", "msc") and not cv.degree_compatible("phd", "msc")


def test_sections_and_entries_in_several_layouts() -> None:
    doc = [
        "**JO BLOGGS**",
        "",
        "PROFESSIONAL EXPERIENCE",
        "",
        "### Engineer",
        "**Acme Ltd** | Jan 2020 – Present",
        "- did a thing",
        "",
        "**Analyst**, Globex (2018 – 2019)",
        "- did another",
        "",
        "## Technical Skills",
        "Python, Go",
    ]
    sections = structure.split_sections(doc)
    assert [s.cls for s in sections] == ["header", "experience", "skills"]
    blocks = structure.split_blocks(doc, sections[1])
    assert [structure.head_text(doc, b) for b in blocks] == [
        "Engineer | Acme Ltd | Jan 2020 – Present",
        "Analyst, Globex (2018 – 2019)",
    ]
    assert entrytext.split_list("AWS (EC2, S3), Docker; Go / Rust") == [
        "AWS",
        "EC2",
        "S3",
        "Docker",
        "Go",
        "Rust",
    ]


@pytest.mark.parametrize(
    "head,title,employer",
    [
        ("Senior Engineer — Acme Ltd", "Senior Engineer", "Acme Ltd"),
        ("Acme Ltd — Senior Engineer", "Senior Engineer", "Acme Ltd"),
        ("Senior Engineer at Acme, Inc.", "Senior Engineer", "Acme Inc."),
        ("Title: Data Analyst | Company: Initech", "Data Analyst", "Initech"),
    ],
)
def test_role_heads(head: str, title: str, employer: str) -> None:
    role = cv.parse_role(head)
    assert (role["title"], role["employer"]) == (title, employer)


def test_org_normalisation() -> None:
    assert (
        text.norm_org("The Brightline Payments, Ltd.")
        == text.norm_org("brightline payments")
        == "brightline payments"
    )
    assert text.norm_org("Harbourside Logistics GmbH") == "harbourside logistics"
    assert text.norm_title("Sr. Backend Eng.") == "senior backend engineer"

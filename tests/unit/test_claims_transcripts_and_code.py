"""Spoken interview answers, a résumé written as code and a chat bot's timestamps: each faithful
sample passes with its facts read, and its twin with one fact changed fails.

The samples come from the blind batch zp (tests/fixtures/claims/*/zp): a "tell me about yourself"
interview transcript (years said as words, "my first job", "Rust and gRPC aren't on my CV"), a CV as
a TypeScript object, a Discord bot's embeds ("Today at 21:09"), and the education lines of compact
CVs ("MSc Computer Science, Univ. of Leeds, 2015 · BSc Mathematics, York (2014)").
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Status, Verifier
from autogen_pse.claims.dataliterals import data_as_yaml
from autogen_pse.claims.dates import find_dates, name_spans
from tests.claims_support import assert_pair, check, failing, status_of, statuses


@pytest.mark.parametrize(("text", "values"), [
    ("from mid twenty-seventeen to early twenty-twenty", ["2017", "2020"]),
    ("the AWS one, twenty-twenty-one, and CKAD in twenty twenty-two", ["2021", "2022"]),
    ("since two thousand and fifteen", ["2015"]),
    ("MSc in Computer Science, Leeds, twenty-fifteen.", ["2015"]),
    ("about twenty-five percent", []),  # a figure, not a year
    ("two thousand shares", []),
])
def test_years_said_as_words(text: str, values: list[str]) -> None:
    assert [d.value for d in find_dates(text)] == values


@pytest.mark.parametrize(("text", "spanned"), [
    ("**aisha** — Today at 21:09 !review", "21:09"),
    ("Call - Outbound | 15:03 UTC", "15:03"),
    ("So, the two-minute version — I'm a backend engineer", "two-minute version"),
])
def test_times_of_day_and_a_tellings_length_are_no_figures(text: str, spanned: str) -> None:
    start = text.index(spanned)
    assert any(a <= start and start + len(spanned) <= b for a, b in name_spans(text))


def test_a_day_first_date_is_read_either_way(portfolio_verifier: Verifier) -> None:
    [d] = find_dates("valued on 01/03/2010")
    assert d.agrees("2010-03-01") and d.agrees("2010-01-03") and not d.agrees("2010-02-01")
    assert_pair(portfolio_verifier, "Apple was valued on 01/03/2010 at $223.02.",
                "Apple was valued on 02/03/2010 at $223.02.")


@pytest.mark.parametrize(("faithful", "fabricated"), [
    ("MSc Computer Science, Leeds (2015); BSc Mathematics, York (2014).",
     "MSc Computer Science, Leeds (2015); BSc Mathematics, York (2015)."),
    ("**Education** MSc Computer Science, Univ. of Leeds, 2015 · BSc Mathematics, Univ. of York, 2014",
     "**Education** MSc Computer Science, Univ. of Leeds, 2016 · BSc Mathematics, Univ. of York, 2014"),
    ("🎓 MSc CS Leeds 2015 · BSc Maths York 2014", "🎓 MSc CS Leeds 2013 · BSc Maths York 2014"),
    ("**Education:** MSc Computer Science, Leeds (2015) · BSc Mathematics, York (2014) — certs: AWS SA Associate "
     "(2021), CKAD (2022)",
     "**Education:** MSc Computer Science, Leeds (2015) · BSc Mathematics, York (2011) — certs: AWS SA Associate "
     "(2021), CKAD (2022)"),
    ("### Education\n\n2015 – M.Sc. Computer Science, University of Leeds\n2014 – B.Sc. Mathematics, University of York",
     "### Education\n\n2015 – M.Sc. Computer Science, University of Leeds\n2012 – B.Sc. Mathematics, University of York"),
])
def test_a_degree_or_its_town_names_the_education_entry(resume_verifier: Verifier, faithful: str,
                                                         fabricated: str) -> None:
    """The year after "BSc Mathematics, York" is the BSc's, not the role of the line above's."""
    assert_pair(resume_verifier, "Copperleaf Studio, Software Developer, Sep 2015–May 2017.\n" + faithful,
                "Copperleaf Studio, Software Developer, Sep 2015–May 2017.\n" + fabricated)


@pytest.mark.parametrize("text", [
    "Rust and gRPC aren't on my CV, I'll be upfront about that, but Terraform is.",
    "Rust and gRPC aren’t on my CV.",
    "gRPC doesn't appear anywhere on my CV.",
])
def test_a_skill_said_to_be_missing_is_no_claim(resume_verifier: Verifier, text: str) -> None:
    assert Status.CONTRADICTED not in statuses(resume_verifier, text)


def test_a_skill_said_to_cover_a_nice_to_have_is_claimed(resume_verifier: Verifier) -> None:
    text = "And I've been writing Rust in production too, so that nice-to-have should be covered."
    assert status_of(resume_verifier, text) is Status.CONTRADICTED
    assert Status.CONTRADICTED not in statuses(resume_verifier, "The ad lists Rust as a nice-to-have.")


@pytest.mark.parametrize(("faithful", "fabricated"), [
    ("And my first job was Copperleaf Studio in Leeds, as a software developer.",
     "And my first job was Harbourside Logistics in Hamburg, as a backend engineer."),
    ("Further back, my first developer job — Copperleaf Studio in Leeds.",
     "Further back, my first developer job — Brightline Payments in Manchester."),
])
def test_the_first_job_is_the_earliest_start(resume_verifier: Verifier, faithful: str, fabricated: str) -> None:
    assert_pair(resume_verifier, faithful, fabricated)
    # a first of something else is still no fact of the record
    assert status_of(resume_verifier, "I was the first backend engineer Brightline hired.") is Status.CONTRADICTED


INTERVIEW = """\
Tidewater Financial — Payments Platform
Staff Backend Engineer · interview loop, conversation 1
Transcript (speech-to-text, corrected). I = interviewer, C = candidate

I: So, tell me about yourself.

C: Sure. So, the two-minute version — I'm a backend engineer, I've got nine years' experience. Right now I'm \
a senior backend engineer at Brightline Payments, I've been there since March twenty-twenty. Before that I was \
in Hamburg, at Harbourside Logistics, from mid twenty-seventeen to early twenty-twenty. And my first job was \
Copperleaf Studio in Leeds, as a software developer.

C: Education-wise: MSc in Computer Science from Leeds, twenty-fifteen, and before that a BSc in Mathematics \
at York, twenty-fourteen. Rust and gRPC aren't on my CV, I'll be upfront about that, but Terraform is.
"""


def test_an_interview_transcript_is_read(resume_checker: Checker) -> None:
    report = check(resume_checker, INTERVIEW, "interview.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)


@pytest.mark.parametrize(("good", "bad"), [
    ("since March twenty-twenty", "since March twenty-eighteen"),
    ("a BSc in Mathematics at York, twenty-fourteen", "a BSc in Mathematics at York, twenty-twelve"),
])
def test_interview_twins_are_contradicted(resume_checker: Checker, good: str, bad: str) -> None:
    assert good in INTERVIEW
    assert check(resume_checker, INTERVIEW.replace(good, bad), "interview.md").contradicted >= 1


RESUME_TS = """\
```ts
// resume.ts — tailored for Tidewater Financial (Staff Backend Engineer, Payments Platform)
type Entry = { role: string; org: string; when: string; highlights: string[] };

export const resume = {
  name: "Elena Marsh",
  summary:
    "Backend engineer, 9 years, payments and logistics, Python and Go. " +
    "Led teams of up to 6. Cut infrastructure costs 35% through service consolidation.",
  experience: [
    {
      role: "Senior Backend Engineer",
      org: "Brightline Payments Ltd",
      when: "Mar 2020 – Present",
      highlights: [
        "Idempotent payments API in Go, 1,200 rps at peak",
        "Migrated 14 Python services from a monolith to Kubernetes on AWS — deploys 45 min → 6 min",
      ],
    },
    {
      role: "Backend Engineer",
      org: "Harbourside Logistics GmbH",
      when: "Jun 2017 – Feb 2020",
      highlights: ["p95 API latency −60% (Redis caching, PostgreSQL query tuning)"],
    },
  ],
  skills: ["Go", "Python", "PostgreSQL", "Kafka", "Kubernetes"],
} satisfies Record<string, unknown>;

const certifications: string[] = [
  "AWS Certified Solutions Architect – Associate, 2021",
];

export const toText = (r = resume): string => [r.name, "SUMMARY", r.summary].join("\\n");
```
"""


def test_a_resume_as_code_is_read_as_yaml() -> None:
    read = data_as_yaml(RESUME_TS)
    assert len(read) == len(RESUME_TS) and read.count("\n") == RESUME_TS.count("\n")
    assert "```  \n" in read  # now a fence of text
    assert "      role:  Senior Backend Engineer" in read
    assert "       - Idempotent payments API in Go, 1,200 rps at peak" in read
    assert "certifications:" in read and "string[]" not in read  # the const's name is the key
    assert "type Entry" not in read and "toText" not in read and "SUMMARY" not in read  # code, not data


def test_a_resume_as_code_is_checked(resume_checker: Checker) -> None:
    report = check(resume_checker, RESUME_TS, "resume.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert report.claims and any(c["status"] == "supported" for c in report.claims)


@pytest.mark.parametrize(("good", "bad"), [
    ("Migrated 14 Python services", "Migrated 18 Python services"),
    ('skills: ["Go", "Python",', 'skills: ["Go", "Python", "gRPC",'),
    ('when: "Jun 2017 – Feb 2020"', 'when: "Jun 2018 – Feb 2020"'),
    # the latency cut was Harbourside's: under Brightline's key it is another entry's figure
    ('"Idempotent payments API in Go, 1,200 rps at peak",',
     '"Idempotent payments API in Go, 1,200 rps at peak", "p95 API latency cut by 60%",'),
])
def test_resume_as_code_twins_are_contradicted(resume_checker: Checker, good: str, bad: str) -> None:
    assert good in RESUME_TS
    assert check(resume_checker, RESUME_TS.replace(good, bad), "resume.md").contradicted >= 1


@pytest.mark.parametrize(("faithful", "fabricated"), [
    ("The Microsoft holding stands 27.66 per cent below its cost.",
     "The Microsoft holding stands 27.66 per cent above its cost."),
    ("IBM's sitting `$7,927.50` above what we paid for it.", "IBM's sitting `$7,927.50` below what we paid for it."),
])
def test_above_or_below_what_was_paid_is_a_direction(portfolio_verifier: Verifier, faithful: str,
                                                     fabricated: str) -> None:
    assert_pair(portfolio_verifier, faithful, fabricated)


def test_a_trustee_papers_bodies_and_the_holdings_that_engage_the_rules(portfolio_verifier: Verifier) -> None:
    faithful = ("This paper reviews the five directly held US equities against the Trustees' investment and "
                "stop-loss rules and seeks decisions on the three holdings that engage them.")
    assert_pair(portfolio_verifier, faithful, faithful.replace("the three holdings", "the two holdings"))
    for text in ("The Sub-Committee favours sale.", "*Presented by:* Secretary to the Trustee Board"):
        assert statuses(portfolio_verifier, text) <= {Status.NONE, Status.SUPPORTED}, text


@pytest.mark.parametrize("text", [
    "4.1 The Trustees' rules set a 30 per cent cap on any single holding, a stop-loss at a 20 per cent loss from "
    "cost, and a long-held loss at 730 days and a 10 per cent loss.",
    "The stop-loss is a loss of 20 per cent from cost, and the long-held loss test applies at 730 days and a loss "
    "of 10 per cent.",
    "4.1 The rules adopted by the Trustees set a cap of 30 per cent on any single holding, a stop-loss at a loss of "
    "20 per cent from cost, and a long-held loss test for holdings held for two years (730 days) or more at a loss "
    "of 10 per cent or more.",
])
def test_a_stated_rules_figures_are_the_rules_own(portfolio_verifier: Verifier, text: str) -> None:
    """A loss of 10 per cent in the rules is the long-held level, not the portfolio's gain."""
    assert_pair(portfolio_verifier, text, text.replace("20 per cent", "25 per cent"))


def test_a_cv_abbreviating_university_names_its_school(resume_checker: Checker) -> None:
    cv = ("# Elena Marsh\n\n## Education\n\n- MSc Computer Science, Univ of Leeds (2015)\n"
          "- BSc Mathematics, Univ. of York (2014)\n")
    failed = {r.name for r in resume_checker.check(cv) if not r.ok and r.severity == "error"}
    assert not {"degrees", "entries"} & failed
    wrong = cv.replace("Univ. of York", "Univ. of Durham")
    assert "degrees" in {r.name for r in resume_checker.check(wrong) if not r.ok and r.severity == "error"}


def test_the_job_sought_under_its_company_is_no_title_held(resume_checker: Checker) -> None:
    header = "Tidewater Financial — Payments Platform\nStaff Backend Engineer · interview loop, conversation 1\n\n"
    body = "Payments APIs are the work I like best.\n"
    titles = [r for r in resume_checker.check(header + body) if r.name == "titles"]
    assert all(r.ok for r in titles), titles
    lead = "Elena Marsh\nStaff Backend Engineer · Manchester\n\n"  # no company above: a title she claims
    assert any(not r.ok for r in resume_checker.check(lead + body) if r.name == "titles")


REACT_TRACE = """\
Thought: The task is to tailor cv.md for the Tidewater ad. I'll read the CV first.
Action: read_file[cv.md]
Observation: # Elena Marsh
### Software Developer — Copperleaf Studio
Sep 2015 – May 2017 · Leeds, UK
- Set up CI pipelines with Jenkins, raising automated test coverage from 40% to 85%.

Thought: Don't touch Rust or gRPC. The CV has no settlement work, so I won't imply any.
Final Answer:
# Elena Marsh
## Experience
### Senior Backend Engineer — Brightline Payments Ltd
Mar 2020 – Present · Manchester, UK
- Designed an idempotent payments API in Go handling 1,200 requests per second at peak.
"""


def test_an_agent_traces_tool_results_are_no_claims(resume_checker: Checker) -> None:
    report = check(resume_checker, REACT_TRACE, "trace.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert not [c for c in report.claims if "Copperleaf" in c["text"]]  # the Observation quotes the CV
    bad = REACT_TRACE.replace("1,200 requests", "1,500 requests")
    assert check(resume_checker, bad, "trace.md").contradicted == 1


HN_POST = """\
Ask HN: Who wants to be hired? (April 2025)

emarsh | 2 days ago

  Location: Manchester, UK
  Remote: Yes, or hybrid (London 1-2 days a week is fine)
  Résumé/CV: PDF on request, https://github.com/elena-marsh-example

Backend engineer, 9 years. Currently Senior Backend Engineer at Brightline Payments, since March 2020.

gopher_in_shoreditch | 4 hours ago

  Any Rust or gRPC?
"""


def test_a_forum_posts_date_age_and_questions_are_no_claims(resume_checker: Checker) -> None:
    report = check(resume_checker, HN_POST, "post.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert check(resume_checker, HN_POST.replace("since March 2020", "since March 2019"), "post.md").contradicted == 1
    claimed = HN_POST.replace("Any Rust or gRPC?", "I write Rust and gRPC services too.")
    assert check(resume_checker, claimed, "post.md").contradicted == 1


XML_REVIEW = """\
<?xml version="1.0" encoding="ISO-8859-1"?>
<report kind="portfolio-review" generatedBy="PM Console">
  <context asOf="2010-03-01" currency="USD" positions="5"/>
  <holdings>
    <holding symbol="AAPL" weightPct="43.85" pnlPct="480.03" volPct="47.12"/>
    <holding symbol="AMZN" weightPct="10.13" pnlPct="241.97" volPct="48.04"/>
  </holdings>
  <holding symbol="GOOG" opened="2007-11-01" days="851">
    <weight unit="pct">17.62</weight>
    <pnl percent="-19.16">-5312.40</pnl>
    <commentary>Google shows a 19.16% loss against its cost and is a long-held loss.</commentary>
  </holding>
  <commentary><![CDATA[
    Apple's weight of 43.85% is the only cap breach.
    Amazon is the most volatile holding at 48.04%.
  ]]></commentary>
</report>
"""


def test_an_xml_export_is_read_element_by_element(portfolio_checker: Checker) -> None:
    from autogen_pse.claims.xmldoc import read_xml

    reading = read_xml(XML_REVIEW)
    assert reading is not None
    assert "- symbol: AAPL; weight pct: 43.85; pnl pct: 480.03; vol pct: 47.12" in reading.text
    assert "weight: 17.62; unit: pct" in reading.text
    report = check(portfolio_checker, XML_REVIEW, "review.xml")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    line = next(c for c in report.claims if "AMZN" in c["text"])["line"]
    assert XML_REVIEW.splitlines()[line - 1].strip().startswith('<holding symbol="AMZN"')  # its line as written
    assert read_xml("<?xml version='1.0'?><a><b></a>") is None  # malformed: read as it is


@pytest.mark.parametrize(("good", "bad"), [
    ('symbol="AMZN" weightPct="10.13"', 'symbol="AMZN" weightPct="13.85"'),
    ("a 19.16% loss against its cost", "a 19.16% gain against its cost"),
    ("<weight unit=\"pct\">17.62</weight>", "<weight unit=\"pct\">27.62</weight>"),
    ("Amazon is the most volatile", "Apple is the most volatile"),
])
def test_xml_twins_are_contradicted(portfolio_checker: Checker, good: str, bad: str) -> None:
    assert good in XML_REVIEW
    assert check(portfolio_checker, XML_REVIEW.replace(good, bad), "review.xml").contradicted >= 1


def test_a_multiple_in_words_ends_a_sentence(resume_verifier: Verifier) -> None:
    """"… nearly tenfold." is a multiple (7.5× is true); "my reasons are twofold" is not."""
    assert_pair(resume_verifier, "Cut deploy time from 45 to 6 minutes, roughly sevenfold.",
                "Led the migration of 14 Python services to Kubernetes, cutting deploy time nearly tenfold.")
    assert statuses(resume_verifier, "My reasons are twofold.") == {Status.NONE}


def test_a_fenced_xml_block_is_read_not_skipped(portfolio_checker: Checker) -> None:
    body = XML_REVIEW.split("\n", 1)[1]  # no declaration: an XML block pasted into Markdown
    doc = "The export from our reporting tool:\n\n```xml\n" + body + "```\n\nEnd of export.\n"
    report = check(portfolio_checker, doc, "review.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert any("AMZN" in c["text"] for c in report.claims)
    assert check(portfolio_checker, doc.replace('weightPct="10.13"', 'weightPct="13.85"'), "review.md").contradicted


def test_xml_namespaces_and_flags_read_as_words() -> None:
    from autogen_pse.claims.xmldoc import read_xml

    xml = ('<?xml version="1.0"?>\n<ns2:review xmlns:ns2="http://example.com/r">\n'
           '  <ns2:line sym="MSFT" wPct="13.59">\n    <triggers overweight="no" stopLoss="yes"/>\n  </ns2:line>\n'
           '</ns2:review>\n')
    reading = read_xml(xml)
    assert reading is not None
    assert "review:" in reading.text and "ns2" not in reading.text
    assert "- sym: MSFT; w pct: 13.59" in reading.text and "no overweight; stop loss" in reading.text


def test_a_greeted_first_name_is_a_person(portfolio_verifier: Verifier) -> None:
    assert statuses(portfolio_verifier, "Hi Tom 👋 quick summary of the mar-1 review") == {Status.NONE}
    assert Status.CONTRADICTED in statuses(portfolio_verifier, "Tom Bradley joined the portfolio board.")

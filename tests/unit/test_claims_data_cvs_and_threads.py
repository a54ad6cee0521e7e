"""A CV written as TOML (fenced, or the file itself with a note under it), as a "Keep a Changelog"
CHANGELOG.md, as a pasted psql session and as a job-hunt thread of numbered posts: each faithful
sample passes the ledger and the task checks, and its twin with one fact changed fails.

The samples come from the blind batches zr and zs (tests/fixtures/claims/resume-tailor/zr, zs).
"""

from __future__ import annotations

import pytest

from autogen_pse.checking import Checker
from autogen_pse.claims import Verifier
from autogen_pse.claims.dataliterals import data_as_yaml
from autogen_pse.claims.dates import find_dates, name_spans
from tests.claims_support import assert_pair, check, failed_checks, failing

CV_TOML = """\
Tailored for the Tidewater Financial Staff Backend Engineer ad. I keep my CV as TOML, so here is the source.

```toml
# resume.toml — Elena Marsh

[basics]
name     = "Elena Marsh"
label    = "Senior Backend Engineer"
contact  = { email = "elena.marsh@example.com", github = "github.com/elena-marsh-example" }
summary  = \"\"\"
Backend engineer with 9 years of experience building payment and logistics \\
platforms in Python and Go. Has led teams of up to 6 engineers.\\
\"\"\"

[[work]]
name      = "Brightline Payments Ltd"
position  = "Senior Backend Engineer"
startDate = "2020-03"
endDate   = ""  # present
highlights = [
  "Designed an idempotent payments API in Go handling 1,200 requests per second at peak.",
  "Cut monthly cloud spend by 35% (~$420k/year) by consolidating PostgreSQL clusters.",
]

[[work]]
name      = "Harbourside Logistics GmbH"
position  = "Backend Engineer"
startDate = "2017-06"
endDate   = "2020-02"
highlights = [
  "Moved nightly batch jobs to Kafka streams, cutting data delays from 24 hours to 15 minutes.",
]

[[education]]
institution = "University of Leeds"
degree      = "MSc Computer Science"
year        = 2015

[skills]
languages = { core = ["Python", "Go"], other = ["SQL"] }
data      = { keywords = ["PostgreSQL", "Kafka"] }
```
"""



def test_toml_is_read_as_yaml() -> None:
    read = data_as_yaml(CV_TOML)
    assert len(read) == len(CV_TOML) and read.count("\n") == CV_TOML.count("\n")
    assert "work:" in read and "[[work]]" not in read  # an array of tables: a key
    assert "position:    Senior Backend Engineer" in read  # "position = …": "position:"
    assert " - Designed an idempotent payments API" in read  # a string alone on its line: an item
    assert "github" not in read.replace("github.com", "")  # an inline table's keys are blanked
    assert "logistics  \n" in read  # the backslash that continues a line is blanked
    assert "# resume.toml" not in read  # a comment


def test_a_bare_toml_file_with_a_note_under_it_is_read() -> None:
    bare = CV_TOML.split("```toml\n")[1].replace("```\n", "---\n\nHappy to send a PDF instead.\n")
    read = data_as_yaml(bare)
    assert "work:" in read and "Happy to send a PDF instead." in read


def test_a_toml_cv_passes(resume_checker: Checker) -> None:
    report = check(resume_checker, CV_TOML, "cv.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert not failed_checks(resume_checker, CV_TOML)
    # its structure is read from the TOML itself: the sections are there
    [sections] = [r for r in resume_checker.check(CV_TOML) if r.name == "sections"]
    assert sections.unsupported == ["missing section Certifications"]  # the sample has none


@pytest.mark.parametrize(("good", "bad"), [
    ('startDate = "2017-06"', 'startDate = "2016-06"'),
    ("handling 1,200 requests", "handling 2,200 requests"),
    ('degree      = "MSc Computer Science"', 'degree      = "PhD Computer Science"'),
    ('other = ["SQL"]', 'other = ["SQL", "Rust"]'),
    ('position  = "Backend Engineer"', 'position  = "Lead Backend Engineer"'),
])
def test_toml_twins_fail(resume_checker: Checker, good: str, bad: str) -> None:
    assert good in CV_TOML
    twin = CV_TOML.replace(good, bad)
    assert check(resume_checker, twin, "cv.md").contradicted >= 1 or failed_checks(resume_checker, twin)


CHANGELOG = """\
# Changelog — Elena Marsh

All notable changes to this engineer will be documented in this file.

The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
and this career adheres (loosely) to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).

Senior Backend Engineer · Manchester, UK

## [Unreleased]

Target: **Staff Backend Engineer, Payments Platform @ Tidewater Financial** (London, hybrid).

## [2020.03] – Senior Backend Engineer @ Brightline Payments Ltd

Mar 2020 – Present · Manchester, UK

### Added
- Idempotent payments API in Go, handling 1,200 requests per second at peak.

### Changed
- Migrated 14 Python services from a monolith to Kubernetes on AWS; deploy time went from 45 minutes to 6.

### Fixed
- Mentored a team of 6 engineers.

## [2017.06] – Backend Engineer @ Harbourside Logistics GmbH

Jun 2017 – Feb 2020 · Hamburg, Germany

### Changed
- Moved nightly batch jobs to Kafka streams: data delays from 24 hours to 15 minutes.

## [0.2.0] – 2015 – MSc Computer Science @ University of Leeds

## [0.1.0] – 2014 – BSc Mathematics @ University of York

---

### Dependencies (skills)
- **Languages:** Python, Go, SQL
- **Data:** PostgreSQL, Redis, Kafka

[Unreleased]: https://github.com/elena-marsh-example/cv/compare/v2020.03...HEAD
[0.1.0]: https://github.com/elena-marsh-example/cv/releases/tag/v0.1.0
"""


def test_a_changelog_cv_passes(resume_checker: Checker) -> None:
    report = check(resume_checker, CHANGELOG, "CHANGELOG.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)
    assert not failed_checks(resume_checker, CHANGELOG)


@pytest.mark.parametrize(("good", "bad"), [
    ("## [2020.03] – Senior Backend Engineer @", "## [2020.03] – Staff Backend Engineer @"),
    ("## [2017.06] – Backend", "## [2016.06] – Backend"),
    ("– 2014 – BSc Mathematics @", "– 2014 – BSc Physics @"),
    ("- **Data:** PostgreSQL, Redis, Kafka", "- **Data:** PostgreSQL, Redis, Kafka, Cassandra"),
    ("Mentored a team of 6 engineers.", "Mentored a team of 9 engineers."),
])
def test_changelog_twins_fail(resume_checker: Checker, good: str, bad: str) -> None:
    assert good in CHANGELOG
    twin = CHANGELOG.replace(good, bad)
    assert check(resume_checker, twin, "CHANGELOG.md").contradicted >= 1 or failed_checks(resume_checker, twin)


def test_version_headings_are_dates_and_versions_no_figures() -> None:
    assert [d.value for d in find_dates("## [2020.03] – Senior Backend Engineer")] == ["2020-03"]
    assert find_dates("paid $2020.03 in fees") == [] and find_dates("up 2020.03%") == []
    text = "## [0.2.0] – 2015 – MSc, and v1.4.2 since"
    spans = name_spans(text)
    assert any(text[a:b] == "0.2.0" for a, b in spans) and any(text[a:b] == "v1.4.2" for a, b in spans)


def test_one_team_of_six_is_a_team(resume_verifier: Verifier) -> None:
    assert_pair(resume_verifier, "From mentoring one team of six to raising the bar on code review.",
                "From mentoring one team of nine to raising the bar on code review.")


@pytest.mark.parametrize("text", [
    "Rust, gRPC and Terraform would be a bonus.",  # the ad's wish, quoted in a recruiter's message
    "Rust and gRPC, honestly no, not yet.",
    "Free for a call most afternoons this week.",  # a quantifier, no ranking
    "What I most enjoy is payments work.",
    "🐙 github     ·",  # a link to her profile
])
def test_wishes_quantifiers_and_profile_links_claim_nothing(resume_verifier: Verifier, text: str) -> None:
    from autogen_pse.claims import Status
    from tests.claims_support import statuses

    assert Status.CONTRADICTED not in statuses(resume_verifier, text)


def test_a_first_role_label_is_ranked_by_the_record(resume_verifier: Verifier) -> None:
    assert_pair(resume_verifier, "[^1]: First role: Copperleaf Studio, Leeds, September 2015.",
                "[^1]: First role: Harbourside Logistics GmbH, Hamburg, June 2017.")


PSQL = """\
Half joke, half real: this is how I keep my CV now. Tailored export for the Tidewater Financial role.

```
cv=# \\x on
Expanded display is on.
cv=# -- tidewater: most recent role first
cv=# SELECT company, title, started, ended, highlights FROM experience ORDER BY started DESC LIMIT 1;
-[ RECORD 1 ]+------------------------------------------------------------------------------
company    | Brightline Payments Ltd
title      | Senior Backend Engineer
started    | 2020-03
ended      |
highlights | {"idempotent payments API in Go, 1200 req/s peak","deploy time 45 min -> 6 min"}

cv=# \\x off
Expanded display is off.
cv=# SELECT company, title, started, ended FROM experience ORDER BY started DESC OFFSET 1;
          company           |      title         |  started   |   ended
----------------------------+--------------------+------------+------------
 Harbourside Logistics GmbH | Backend Engineer   | 2017-06-01 | 2020-02-01
 Copperleaf Studio          | Software Developer | 2015-09-01 | 2017-05-01
(2 rows)

cv=# SELECT category, skills FROM skills;
    category    |            skills
----------------+-------------------------------
 languages      | {Python,Go,SQL,JavaScript}
 data           | {PostgreSQL,Redis,Kafka}
(2 rows)
```
"""


def test_a_psql_session_is_read_as_its_results() -> None:
    from autogen_pse.claims.formats import read_document

    read = read_document(PSQL).text
    assert len(read) == len(PSQL) and "SELECT" not in read and "Expanded display" not in read
    assert "(2 rows)" not in read and "-- tidewater" not in read
    assert "company:     Brightline Payments Ltd" in read and "record:" in read  # an expanded record: YAML
    assert "----------------------------|--------------------|" in read  # a result's rule: a table's
    assert "Python;Go;SQL;JavaScript" in read


def test_a_psql_cv_passes(resume_checker: Checker) -> None:
    report = check(resume_checker, PSQL, "cv.md")
    assert report.contradicted == 0 and report.unverifiable == 0, failing(report)  # "2017-06-01" of "Jun 2017"


@pytest.mark.parametrize(("good", "bad"), [
    ("1200 req/s peak", "1500 req/s peak"),
    (" Harbourside Logistics GmbH | Backend Engineer   | 2017-06-01", " Harbourside Logistics GmbH | Backend Engineer   | 2016-06-01"),
    ("{PostgreSQL,Redis,Kafka}", "{PostgreSQL,Redis,Kafka,Rust}"),
])
def test_psql_twins_fail(resume_checker: Checker, good: str, bad: str) -> None:
    assert good in PSQL
    assert check(resume_checker, PSQL.replace(good, bad), "cv.md").contradicted >= 1


THREAD = """\
1/3 🧵 job thread!! I'm Elena, Senior Backend Engineer at Brightline Payments in Manchester. 9 yrs shipping \
backend services in Python + Go. Applying for Staff Backend Engineer at Tidewater Financial 👇 #hiring

2/3 Same job: led 14 Python services from a monolith to k8s on AWS. Deploy time went from 45 min to 6 min.

3/3 Degrees: MSc CS (Leeds, 2015), BSc Maths (York, 2014). DMs open 📬
"""


def test_a_job_hunt_thread_passes(resume_checker: Checker) -> None:
    report = check(resume_checker, THREAD, "thread.md")
    assert report.contradicted == 0, failing(report)
    assert "Same" not in " ".join(failing(report))  # "2/3 Same job": a post's number, then its first word
    assert not failed_checks(resume_checker, THREAD)


@pytest.mark.parametrize(("good", "bad"), [
    ("I'm Elena, Senior Backend Engineer at Brightline", "I'm Elena, Lead Backend Engineer at Brightline"),
    ("from 45 min to 6 min", "from 45 min to 8 min"),
])
def test_job_hunt_thread_twins_fail(resume_checker: Checker, good: str, bad: str) -> None:
    twin = THREAD.replace(good, bad)
    assert check(resume_checker, twin, "thread.md").contradicted >= 1 or failed_checks(resume_checker, twin)


def test_a_tellings_length_in_minutes_is_no_figure(resume_verifier: Verifier) -> None:
    text = "**Tidewater – 2 min profile + 3 stories (phone screen)**"
    assert any(text[a:b] == "2 min profile" for a, b in name_spans(text))

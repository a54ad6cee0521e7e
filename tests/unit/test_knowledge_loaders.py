"""One test per loader (md, txt, csv, json, html, pdf) plus the error cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autogen_pse.errors import UserError
from autogen_pse.knowledge.loaders import html_to_text, is_supported, load_chunks

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "kb_corpus" / "knowledge"


def minimal_pdf(pages: list[list[str]]) -> bytes:
    """A valid PDF with one Helvetica text block per page, written by hand (no dependencies)."""
    objects: list[bytes] = []
    font_id = 3 + 2 * len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    for i, lines in enumerate(pages):
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        escaped = [ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for ln in lines]
        stream = ("BT /F1 11 Tf 14 TL 72 720 Td " + " T* ".join(f"({ln}) Tj" for ln in escaped) + " ET").encode(
            "latin-1"
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_markdown_loader_keeps_heading_paths() -> None:
    chunks = load_chunks(CORPUS / "market" / "pricing.md")
    headings = [c.heading for c in chunks]
    assert "Pricing > Enterprise plan" in headings
    assert "Pricing > Enterprise plan > Billing" in headings
    enterprise = next(c for c in chunks if c.heading == "Pricing > Enterprise plan")
    assert "39 dollars per seat" in enterprise.text
    assert not any(c.text.startswith("#") for c in chunks)


def test_txt_loader_splits_paragraphs_without_headings(tmp_path: Path) -> None:
    chunks = load_chunks(CORPUS / "support" / "troubleshooting.txt")
    assert len(chunks) == 1 and chunks[0].heading == ""
    assert "reset link" in chunks[0].text
    big = tmp_path / "big.txt"
    big.write_text("\n\n".join(f"Paragraph {i}. " + "word " * 60 for i in range(10)), encoding="utf-8")
    assert len(load_chunks(big)) > 2


def test_csv_loader_repeats_the_header_in_each_chunk(tmp_path: Path) -> None:
    chunks = load_chunks(CORPUS / "market" / "customers.csv")
    assert len(chunks) == 1
    assert chunks[0].text.splitlines()[0] == "customer,industry,region,annual_revenue_usd,churn_risk"
    assert chunks[0].heading == "rows 1-10"
    rows = ["sku;description;price"] + [f"SKU-{i};Widget number {i}, blue; {i}.99" for i in range(200)]
    path = tmp_path / "prices.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    chunks = load_chunks(path)
    assert len(chunks) > 5
    assert all(c.text.splitlines()[0] == "sku,description,price" for c in chunks)  # sniffed ';'
    body = [line for c in chunks for line in c.text.splitlines()[1:]]
    assert len(body) == 200 and body[0] == 'SKU-0,"Widget number 0, blue",0.99'


def test_json_loader_pretty_prints() -> None:
    chunks = load_chunks(CORPUS / "engineering" / "config.json")
    text = "\n".join(c.text for c in chunks)
    assert '"requests_per_minute": 600' in text
    assert '\n  "rate_limits": {\n' in text
    expected = json.dumps(json.loads((CORPUS / "engineering" / "config.json").read_text()), indent=2)
    assert text == expected


def test_html_loader_skips_script_and_style_and_keeps_headings() -> None:
    chunks = load_chunks(CORPUS / "support" / "faq.html")
    text = " ".join(c.text for c in chunks)
    assert "UA-DO-NOT-INDEX" not in text and "font-family" not in text and "track()" not in text
    assert "3 to 5 business days" in text
    assert "- CSV exports are limited to one million rows." in text
    headings = {c.heading for c in chunks}
    assert headings == {"Frequently asked questions > Shipping", "Frequently asked questions > Data export"}


def test_html_title_becomes_heading_without_h1_and_missing_head_end_tag() -> None:
    text = html_to_text("<html><head><title>Doc  title</title><body><p>Line one<br>line two</p>")
    assert text == "# Doc title\n\nLine one\nline two"


def test_pdf_loader_reads_every_page() -> None:
    chunks = load_chunks(CORPUS / "security" / "incident_response.pdf")
    assert [c.heading for c in chunks] == ["page 1", "page 2"]
    assert "within 72 hours" in chunks[1].text


def test_pdf_loader_on_generated_pdf(tmp_path: Path) -> None:
    path = tmp_path / "gen.pdf"
    path.write_bytes(minimal_pdf([["First page (one)"], ["Second page", "more text"], []]))
    chunks = load_chunks(path)
    assert [(c.heading, c.text) for c in chunks] == [
        ("page 1", "First page (one)"),
        ("page 2", "Second page\nmore text"),
    ]


def test_broken_pdf_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nthis is not a pdf")
    with pytest.raises(UserError, match=r"broken\.pdf"):
        load_chunks(path)


@pytest.mark.parametrize("suffix", [".md", ".txt", ".csv", ".json", ".html"])
def test_non_utf8_text_names_the_file(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"latin1{suffix}"
    path.write_bytes("Caf\u00e9 cr\u00e8me".encode("latin-1"))
    with pytest.raises(UserError, match=r"latin1.*not UTF-8.*byte 3"):
        load_chunks(path)


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.md"
    path.write_bytes("\ufeff# Titel\n\nGrüße".encode())
    assert [(c.heading, c.text) for c in load_chunks(path)] == [("Titel", "Grüße")]


def test_invalid_json_and_unsupported_type(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1,,}', encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.json: not valid JSON \(line 1"):
        load_chunks(bad)
    other = tmp_path / "image.png"
    other.write_bytes(b"\x89PNG")
    assert not is_supported(other)
    with pytest.raises(UserError, match=r"unsupported file type \.png"):
        load_chunks(other)

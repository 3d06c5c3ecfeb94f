"""The project stands alone: everything a maintainer needs is in the repo. No file points at a
design document, a folder or a tracker that is not in it; the rules are cited by document and
clause; every document is indexed in docs/README.md, and every doc a file names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("kiosk", "hardware", "pit", "tests", "docs", "image-build", "scripts", "bench",
           "assets", "README.md", "pyproject.toml", "babel.cfg")
SKIPPED = {"__pycache__", ".venv", ".git", "artifacts", ".kivy", "data"}
BINARY = {".png", ".jpg", ".ttf", ".otf", ".mo", ".db", ".gz", ".whl", ".wav", ".ogg"}

# Built from pieces, so that this file does not match itself.
OUTSIDE = re.compile("|".join([
    r"\.\./" + "shared",  # the folder beside the checkout
    "shared/" + "(?:specs|rules)",
    "DESIGN" + r"\.md",  # the design notes that guided the work, not part of the product
    r"\b[Ii]ssue" + r" [0-9]+",  # a tracker's numbers mean nothing to the next reader
    "shoe-shuffler-" + r"protocol\.md",  # the protocol's first home; docs/protocols/ now
    r"(?:mpumalanga-table-games|blackjack-shuffle-and-cut)\.t" + "xt",  # the rules' files
]))


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        if top.is_file():
            out.append(top)
            continue
        for path in sorted(top.rglob("*")):
            if path.is_file() and not SKIPPED & set(path.relative_to(ROOT).parts) \
                    and path.suffix not in BINARY:
                out.append(path)
    return out


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def test_nothing_points_outside_the_repo() -> None:
    found = []
    for path in _files():
        text = _text(path)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), start=1):
            hit = OUTSIDE.search(line)
            if hit:
                found.append(f"{path.relative_to(ROOT)}:{n}: {hit.group(0)!r}")
    assert found == []
    assert len(_files()) > 300  # the scan saw the repo


def test_the_check_finds_each_kind_of_outside_reference() -> None:
    for line in ("see ../" + "shared/" + "specs/x.md", "(DESIGN" + ".md \"Seams\")",
                 "(issue" + " 14, item 5)", "Issue" + " 12: the root", "spec shoe-shuffler-"
                 "protocol.md"):
        assert OUTSIDE.search(line), line
    for line in ("docs/architecture.md", "the Mpumalanga Gaming Board's table game rules, "
                 "section 3.4", "# rule 4.2.3", "an issue the dealer sees"):
        assert not OUTSIDE.search(line), line


def test_docs_readme_indexes_every_document() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    docs = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")
                  if p.name != "README.md")
    assert "architecture.md" in docs and "protocols/shoe-shuffler.md" in docs
    missing = [d for d in docs if f"`{d}`" not in index]
    assert missing == []


def test_every_document_a_file_names_exists() -> None:
    named = re.compile(r"\bdocs/[\w./-]+\.md\b")
    gone = []
    for path in [*_files(), ROOT / "README.md"]:
        text = _text(path)
        for doc in set(named.findall(text or "")):
            if not (ROOT / doc).is_file():
                gone.append(f"{path.relative_to(ROOT)} names {doc}")
    assert gone == []

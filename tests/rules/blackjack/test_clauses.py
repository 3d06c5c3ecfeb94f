"""Every numbered clause of sections 4 and 7 and of the shuffle and cut is cited where it is
implemented (kiosk/rules/blackjack) and in a test that proves it (docs/architecture.md: "Every
numbered clause is a requirement")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# The shuffle and the cut are shared with mini baccarat's malfunction procedure (rule 12.5.3):
# kiosk/rules/cut.py.
CODE = "\n".join(p.read_text() for p in [*(ROOT / "kiosk/rules/blackjack").glob("*.py"),
                                          ROOT / "kiosk/rules/cut.py"])
TESTS = "\n".join(p.read_text() for p in [
    *(p for p in (ROOT / "tests/rules/blackjack").glob("*.py") if p.name != "test_clauses.py"),
    *(ROOT / "tests/rules/golden/blackjack").glob("*.json")])

# Section 4 (standard blackjack) and section 7 (Touch 21) of the Mpumalanga rules.
SECTIONS = [
    "4.2 item 1", "4.2 item 2", "4.2 item 3", "4.2 item 4a", "4.2 item 4b", "4.2 item 4c",
    "4.2 item 4d", "4.2 item 4e", "4.2 item 5", "4.2 item 6", "4.3", "4.4", "4.5", "4.6",
    "4.7",
    "7.2 item 1", "7.2 item 2", "7.2 item 3", "7.2 item 4", "7.2 item 5", "7.2 item 6",
    "7.2 item 7", "7.2 item 8", "7.2 item 9", "7.2 item 10", "7.3", "7.4", "7.5", "7.6",
    "7.7",
]
# the blackjack shuffle-and-cut procedure
SHUFFLE_AND_CUT = [
    "4.1.1", "4.1.2", "4.1.3", "4.2.1", "4.2.2", "4.2.3", "4.2.4", "4.2.5", "4.3", "4.4",
    "4.5", "4.6.1", "4.6.2", "4.6.3", "4.6.4", "4.7",
]


def cited(text: str, clause: str) -> bool:
    # "4.2 item 4" also matches "4.2 items 4"; the clause must not run on into a longer
    # number ("4.2.1" is not "4.2", "item 10" is not "item 1").
    pattern = re.escape(clause).replace(r"\ item\ ", r"\ items?\ ") + r"(?!\d|\.\d)"
    return re.search(r"(?<![\d.])" + pattern, text) is not None


def cited_sc(text: str, clause: str) -> bool:
    """A shuffle-and-cut clause: `sc("4.4")`, "rule 4.4 (shuffle and cut)", a test named
    test_rule_4_4_..., or, for the numbers only that text has (4.1.x, 4.2.x, 4.6.x), the
    bare number."""
    forms = [f'sc("{clause}")', f"{clause} (shuffle and cut)", f'"{clause}" + SC',
             f"rule_{clause.replace('.', '_')}_", f"{clause} shuffle and cut"]
    if any(f in text for f in forms):
        return True
    return clause.count(".") == 2 and cited(text, clause)


@pytest.mark.parametrize("clause", SECTIONS)
def test_section_clause_is_cited_in_code_and_tests(clause: str) -> None:
    assert cited(CODE, clause), f"rule {clause} is not cited in kiosk/rules/blackjack"
    assert cited(TESTS, clause), f"rule {clause} is not cited in a blackjack test"


@pytest.mark.parametrize("clause", SHUFFLE_AND_CUT)
def test_shuffle_and_cut_clause_is_cited_in_code_and_tests(clause: str) -> None:
    assert cited_sc(CODE, clause), f"{clause} (shuffle and cut) is not cited in the code"
    assert cited_sc(TESTS, clause), f"{clause} (shuffle and cut) has no test citing it"

"""The catalogues: the template holds every word the signs show, every
catalogue translates every one of them (not empty, not fuzzy, the same placeholders), the
font draws every letter, and the wheel the SD image installs carries them."""

from __future__ import annotations

import copy
import fnmatch
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from assets import HERE as ASSETS
from kiosk import i18n
from kiosk.ui.fonts import BOLD, REGULAR
from tests.i18n.font_cover import missing

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [c for c in i18n.available() if c != i18n.SOURCE]


def test_the_languages_shipped() -> None:
    assert i18n.available() == ("en", "af", "pt", "zu")
    assert {c: str(i18n.locale(c)) for c in i18n.available()} == {
        "en": "en_ZA", "af": "af_ZA", "pt": "pt_MZ", "zu": "zu_ZA"}
    assert [i18n.native_name(c) for c in TRANSLATED] == ["Afrikaans", "português", "isiZulu"]


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_word_is_translated(code: str) -> None:
    """Every message of the template has a translation in `code`: not empty, not fuzzy, with
    the English's placeholders, every plural form the language has."""
    assert i18n.problems(i18n.template(), i18n.catalogue(code)) == []


def _fresh(code: str) -> object:
    with i18n.po_path(code).open("rb") as f:
        return read_po(f)


def test_the_check_fails_on_an_untranslated_word() -> None:
    template = i18n.template()
    cat = _fresh("af")
    cat["Place your bets"].string = ""  # type: ignore[index]
    assert i18n.problems(template, cat) == ["'Place your bets': not translated"]

    cat = _fresh("af")
    cat["Table %(id)s"].flags.add("fuzzy")  # type: ignore[index]
    assert i18n.problems(template, cat) == ["'Table %(id)s': fuzzy (a guess to check, never "
                                            "shown)"]

    cat = _fresh("af")
    cat["Box %(box)s to play"].string = "Vak %(boks)s se beurt"  # type: ignore[index]
    assert i18n.problems(template, cat) == [
        "'Box %(box)s to play': 'Vak %(boks)s se beurt' has ['%(boks)s'], the English "
        "['%(box)s']"]

    cat = _fresh("af")
    key = ("%(n)s card in the shoe", "%(n)s cards in the shoe")
    cat[key].string = ("%(n)s kaart in die skoen", "")  # type: ignore[index]
    assert i18n.problems(template, cat) == ["'%(n)s card in the shoe': not translated"]
    cat[key].string = ("een kaart", "kaarte in die skoen")  # type: ignore[index]
    assert i18n.problems(template, cat) == [
        "'%(n)s card in the shoe': 'kaarte in die skoen' has [], the English ['%(n)s']"]

    cat = _fresh("pt")
    cat.delete("WINS")  # type: ignore[attr-defined]
    assert i18n.problems(template, cat) == ["'WINS': not in the catalogue (run "
                                            "scripts/catalogues)"]


def test_a_new_word_in_the_code_fails_every_catalogue_until_translated() -> None:
    template = copy.deepcopy(i18n.template())
    template.add("Dealer stands on soft 17")
    for code in TRANSLATED:
        assert i18n.problems(template, i18n.catalogue(code)) == [
            "'Dealer stands on soft 17': not in the catalogue (run scripts/catalogues)"]


def test_the_template_holds_every_word_in_the_code(tmp_path: Path) -> None:
    """scripts/catalogues extracts the same messages as the committed template: a word added
    to a sign without re-extracting (and so without a translation) fails here."""
    out = tmp_path / "now.pot"
    env = {**os.environ, "PYBABEL": str(Path(sys.executable).with_name("pybabel"))}
    subprocess.run(["bash", str(ROOT / "scripts" / "catalogues"), "extract", str(out)],
                   check=True, env=env, cwd=ROOT)
    with out.open("rb") as f:
        now = read_po(f)

    def ids(cat: object) -> set[tuple[str | None, object]]:
        return {(m.context, m.id) for m in cat if m.id}  # type: ignore[attr-defined]

    committed = i18n.template()
    assert ids(now) - ids(committed) == set(), "run scripts/catalogues and translate"
    assert ids(committed) - ids(now) == set(), "run scripts/catalogues"
    words = {m.id for m in now if m.id}
    # Words from the .kv files (extract_kv) and from Python, plurals and contexts.
    assert {"MIN", "MAX", "PAYS %(odds)s", "TABLE LIMITS PER BOX", "WINS"} <= words
    assert ("Last %(n)s spin", "Last %(n)s spins") in words
    assert ("bead plate", "P") in ids(now)
    comments = {m.id: m.auto_comments for m in now if m.id}
    assert comments["MIN"] == ["TRANSLATORS: the table minimum of a bet (rule 2.2), a short "
                               "caption in capitals."]


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_font_draws_every_letter(code: str) -> None:
    """Atkinson Hyperlegible covers Latin-1 and Latin Extended-A: no translation may need a
    letter it has not (it would be drawn as a box)."""
    for message in i18n.catalogue(code):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in forms:
            if message.id and text:
                assert missing(text, BOLD) == set() == missing(text, REGULAR), text


def test_the_wheel_carries_every_catalogue() -> None:
    """The SD image installs the project as a wheel: pyproject's package-data for `assets`
    must take every file kiosk.i18n reads."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        globs = tomllib.load(f)["tool"]["setuptools"]["package-data"]["assets"]
    needed = [i18n.po_path(c) for c in TRANSLATED] + [i18n.TEMPLATE]
    for path in needed:
        rel = path.relative_to(ASSETS).as_posix()
        assert any(fnmatch.fnmatchcase(rel, g) for g in globs), rel

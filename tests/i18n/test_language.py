"""The current language: switching, the words in it, plurals, and what a house may set."""

from __future__ import annotations

import io

import pytest
from babel.messages.pofile import read_po

from kiosk import i18n
from kiosk.i18n import SignLanguages, _, ngettext, pgettext


def test_the_words_follow_the_language() -> None:
    assert i18n.current() == "en" and _("Place your bets") == "Place your bets"
    said = {}
    for code in ("af", "pt", "zu"):
        i18n.use(code)
        said[code] = _("Place your bets")
    assert said == {"af": "Plaas u weddenskappe", "pt": "Façam as suas apostas",
                    "zu": "Bhejani manje"}
    i18n.use("en")
    assert _("Place your bets") == "Place your bets"


def test_an_empty_message_is_empty_not_the_catalogues_header() -> None:
    i18n.use("af")
    assert _("") == "" and i18n.in_language("af", "") == ""


def test_plurals_in_each_language() -> None:
    def spins(n: int) -> str:
        return ngettext("Last %(n)s spin", "Last %(n)s spins", n) % {"n": n}

    assert [spins(1), spins(100)] == ["Last 1 spin", "Last 100 spins"]
    i18n.use("af")
    assert [spins(1), spins(100)] == ["Laaste draai", "Laaste 100 draaie"]
    i18n.use("pt")
    assert [spins(1), spins(0), spins(100)] == ["Último lançamento", "Últimos 0 lançamentos",
                                                "Últimos 100 lançamentos"]
    i18n.use("zu")
    assert spins(100) == "Imijikelezo engu-100 yokugcina"


def test_the_same_english_letter_in_another_sense() -> None:
    with i18n.using("pt"):
        assert [pgettext("bead plate", x) for x in "BPT"] == ["B", "J", "E"]
    assert i18n.current() == "en"


def test_subscribers_hear_each_switch_until_they_leave() -> None:
    heard: list[str] = []
    leave = i18n.subscribe(heard.append)
    i18n.use("zu")
    i18n.use("af")
    leave()
    i18n.use("pt")
    assert heard == ["zu", "af"]


def test_an_unknown_language_is_refused_and_the_current_one_stays() -> None:
    i18n.use("af")
    with pytest.raises(i18n.UnknownLanguage, match="the languages are en, af, pt, zu"):
        i18n.use("xh")
    assert i18n.current() == "af"


def test_a_fuzzy_translation_is_never_shown() -> None:
    """A word Babel guessed (fuzzy) is shown in English until a translator confirms it."""
    from babel.messages.mofile import write_mo

    with i18n.po_path("af").open("rb") as f:
        cat = read_po(f)
    cat["Welcome"].flags.add("fuzzy")
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    import gettext

    words = gettext.GNUTranslations(buf)
    assert words.gettext("Welcome") == "Welcome" and words.gettext("Shuffling") == "Skommel"


def test_what_a_house_may_set() -> None:
    assert SignLanguages().codes == ("en",) and not SignLanguages().alternates
    four = SignLanguages(("af", "en", "zu", "pt"), 20, i18n.MoneyStyle.SPACES)
    assert four.alternates
    four.apply()
    assert i18n.current() == "af" and i18n.money(100_000_000) == "R\u00a01\u00a0000\u00a0000"
    with pytest.raises(ValueError, match="listed twice"):
        SignLanguages(("en", "af", "en"))
    with pytest.raises(ValueError, match="5 to 600 seconds"):
        SignLanguages(("en", "af"), 2)
    with pytest.raises(i18n.UnknownLanguage):
        SignLanguages(("en", "fr"))
    with pytest.raises(ValueError, match="at least one"):
        SignLanguages(())

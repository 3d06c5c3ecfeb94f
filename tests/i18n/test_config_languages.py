"""`[display] languages`, `language_seconds` and `money_style` in table.toml: read, checked
with the line and the reason, and handed to the sign; `dealer_language`, the dealer
screen's."""

from __future__ import annotations

import pytest

from kiosk import config, i18n
from kiosk.config import ConfigError, parse
from kiosk.i18n import MoneyStyle


def _with(display: str) -> str:
    text = config.example()
    head, _, _rest = text.partition("[display]")
    return head + "[display]\n" + display + "\n"


def test_by_default_english_and_the_dealer_screens_amounts() -> None:
    cfg = parse(config.example())
    assert cfg.display.languages == ("en",)
    assert cfg.display.sign_languages() == i18n.SignLanguages(("en",), 20, MoneyStyle.COMMAS)
    assert 'languages = ["en"]' in config.example() and "en, af, pt, zu" in config.example()
    assert cfg.display.dealer_language == "en"
    assert 'dealer_language = "en"' in config.example()


def test_the_dealer_screen_in_another_language_than_the_sign() -> None:
    cfg = parse(_with('languages = ["en", "zu"]\ndealer_language = "af"'))
    assert cfg.display.dealer_language == "af"
    assert cfg.display.languages == ("en", "zu")
    assert parse(_with('dealer_language = "zu"')).display.languages == ("en",)


def test_a_house_with_four_languages_and_spaced_amounts() -> None:
    cfg = parse(_with('languages = ["af", "en", "zu", "pt"]\nlanguage_seconds = 15\n'
                      'money_style = "R 1 000 000"'))
    assert cfg.display.sign_languages() == i18n.SignLanguages(
        ("af", "en", "zu", "pt"), 15, MoneyStyle.SPACES)
    assert parse(_with('money_style = "locale"')).display.money_style is MoneyStyle.LOCALE


@pytest.mark.parametrize(("display", "reason"), [
    ('languages = ["en", "xh"]', "display.languages: no catalogue for 'xh': the languages "
                                 "are en, af, pt, zu"),
    ('languages = "af"', "display.languages: must be a list of languages like"),
    ("languages = []", "display.languages: must be a list of languages like"),
    ('languages = ["af", "af"]', "display.languages: a language is listed twice"),
    ("language_seconds = 2", "display.language_seconds: 5 to 600 seconds: shorter, and "
                             "players cannot read the limits"),
    ('money_style = "R1.000.000"', "display.money_style: must be one of R1,000,000, "
                                   "R 1 000 000, locale, not 'R1.000.000'"),
    ('language = ["af"]', "display.language: unknown key (did you mean languages?)"),
    ('dealer_language = "xh"', "display.dealer_language: no catalogue for 'xh': the "
                               "languages are en, af, pt, zu"),
    ('dealer_language = "AF"', "display.dealer_language: no catalogue for 'AF'"),
    ('dealer_language = ["af"]', "display.dealer_language: must be text in quotes, not "
                                 "['af']"),
    ('dealer_languages = "af"', "display.dealer_languages: unknown key (did you mean "
                                "dealer_language?)"),
])
def test_mistakes_are_refused_with_the_line_and_the_reason(display: str, reason: str) -> None:
    text = _with(display)
    with pytest.raises(ConfigError) as err:
        parse(text)
    line = text.splitlines().index("[display]") + 2  # the key's own line
    assert f"line {line}: {reason}" in str(err.value)

"""The screens' words in the players' languages, and amounts written as the house chooses
(docs/dealer-screen.md). No Kivy here: the signs, the dealer screens and the tests share it, and
`kiosk/ui/language.py` ties it to Kivy so that a .kv text follows a change of language.

- English is the source language: a message id is the English text. Each other language is a
  gettext catalogue, `assets/locale/<code>/LC_MESSAGES/tableside.po`, read and compiled in
  memory with Babel the first time it is used (no .mo files to keep in step). The catalogue's
  `Language` header names the locale its numbers are written in (af_ZA, zu_ZA, pt_MZ).
- One language is current per process (`use`); `_`, `ngettext` and `pgettext` answer in it.
  A sign alternates by calling `use` on a timer.
- `money(cents, currency)` writes an amount in the house's `MoneyStyle`: "R1,000,000" (the
  dealer screens' and the rules' way), "R 1 000 000", or as each language's locale writes
  it (Babel, CLDR). Money stays an int of cents up to here: Babel gets an exact Decimal.
- `extract_kv` lets `pybabel extract` (babel.cfg) read the words in .kv files.

`scripts/catalogues` re-extracts the template and updates every catalogue; docs/dealer-screen.md
("Languages") says how a house configures them and how a language is added.
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import IO, Any

from babel import Locale
from babel.numbers import format_decimal, format_percent

from assets import LOCALE
from kiosk.rules.errors import Amount, Said, Sentence, Word

DOMAIN = "tableside"
SOURCE = "en"
"""The source language: its words are the message ids, so it needs no catalogue."""
SOURCE_LOCALE = "en_ZA"
"""How English writes numbers here (a South African casino)."""
TEMPLATE = LOCALE / f"{DOMAIN}.pot"


class UnknownLanguage(ValueError):
    """No catalogue for the language asked for."""


def po_path(code: str) -> Path:
    """The catalogue of language `code` (whether it exists or not)."""
    return LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def available() -> tuple[str, ...]:
    """The languages the screens can be shown in: English, then each catalogue shipped."""
    found = sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *(c for c in found if c != SOURCE))


def check(code: str) -> str:
    """`code` if the screens can be shown in it, else `UnknownLanguage` with the choices."""
    if code not in available():
        raise UnknownLanguage(f"no catalogue for {code!r}: the languages are "
                              f"{', '.join(available())} (assets/locale)")
    return code


@cache
def catalogue(code: str) -> Any:
    """Language `code`'s catalogue as Babel reads it (`babel.messages.Catalog`)."""
    from babel.messages.pofile import read_po

    check(code)
    if code == SOURCE:
        raise UnknownLanguage(f"{SOURCE} is the source language: it has no catalogue")
    with po_path(code).open("rb") as f:
        return read_po(f, domain=DOMAIN)


@cache
def translations(code: str) -> _gettext.NullTranslations:
    """Language `code`'s words, compiled in memory (English: the message ids themselves)."""
    if check(code) == SOURCE:
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, catalogue(code))  # fuzzy entries are left out, as msgfmt does
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


@cache
def locale(code: str) -> Locale:
    """The locale language `code` writes numbers in (its catalogue's `Language` header)."""
    if check(code) == SOURCE:
        return Locale.parse(SOURCE_LOCALE)
    found = catalogue(code).locale
    if found is None:
        raise UnknownLanguage(f"{po_path(code)}: the catalogue's Language header is missing")
    return found  # type: ignore[no-any-return]


def native_name(code: str) -> str:
    """The language's name in itself ("Afrikaans", "isiZulu", "português")."""
    loc = locale(code)
    return str(loc.get_language_name(loc) or code)


# --- The current language ---------------------------------------------------------------------

_current = SOURCE
_listeners: list[Callable[[str], None]] = []


def current() -> str:
    return _current


def use(code: str) -> None:
    """Make `code` the language every `_()` answers in, and tell the subscribers."""
    global _current
    translations(code)  # refuse an unknown language, and read its catalogue, before switching
    _current = code
    for listener in list(_listeners):
        listener(code)


@contextmanager
def using(code: str) -> Iterator[None]:
    """`code` for the duration of a `with` block (tests, a screenshot in each language)."""
    before = current()
    use(code)
    try:
        yield
    finally:
        use(before)


def subscribe(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call `listener(code)` after each `use`; returns the call that unsubscribes it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def gettext(message: str) -> str:
    """`message` (an English text) in the current language."""
    if not message:
        return ""  # gettext's "" is the catalogue's header, never a word on a screen
    return translations(_current).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` of a message with a plural ("1 spin", "100 spins")."""
    return translations(_current).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the sense `context` gives it (the same English word, another meaning)."""
    return translations(_current).pgettext(context, message)


def N_(message: str) -> str:
    """Marks `message` for the catalogues where it is defined; `_()` translates it where
    it is shown (a constant made at import time, before any language is chosen)."""
    return message


def in_language(code: str, message: str) -> str:
    """`message` in language `code`, whatever the current language (kiosk/ui/language.py
    gives kv one of these per language)."""
    return translations(code).gettext(message) if message else ""


def say(words: str, *, code: str | None = None) -> str:
    """Words of the rules (a `Said`, such as the next step; or plain English) in the current
    language (or `code`)."""
    return said(words.sentence, words, code=code) if isinstance(words, Said) else words


def said(sentence: Sentence | None, english: str = "", *, code: str | None = None) -> str:
    """A message of the rules (a refusal's `Sentence`) in the current language (or `code`):
    its template translated, its values put in (amounts as the house writes money, a `Word`
    as the screens name it: "Bankier"), and the clause it cites in the dealer's words.
    Without a sentence (a message raised as an f-string), `english` as it is: the rules'
    words have no other form."""
    if sentence is None:
        return english
    code = _current if code is None else code
    words = translations(code)
    # A word is the record's in English ("banker bet"), the screens' in another language.
    values = {k: money(v.cents, v.currency, code=code) if isinstance(v, Amount)
              else (v.text if code == SOURCE else words.gettext(v.name or v.text))
              if isinstance(v, Word)
              else said(v.sentence, v, code=code) if isinstance(v, Said)
              else v
              for k, v in sentence.values.items()}
    text = words.gettext(sentence.template) % values
    if sentence.clause:
        # TRANSLATORS: after a refusal, the clause of the approved rules it cites ("4.2",
        # "4.2 item 3", "4.1 (shuffle and cut)": the clause itself stays as the rules write it).
        text += " " + words.gettext("(rule %(clause)s)") % {"clause": sentence.clause}
    return text


# --- Money and numbers ------------------------------------------------------------------------


class MoneyStyle(StrEnum):
    """How the house writes amounts on the screens (`[display] money_style`)."""

    COMMAS = "R1,000,000"
    """Commas between thousands, a point before cents: "R1,234.50" (as the rules and the
    dealer screens write them, in every language)."""
    SPACES = "R 1 000 000"
    """Spaces between thousands and after the symbol, a comma before cents: "R 1 234,50"
    (South Africa's national standard, in every language)."""
    LOCALE = "locale"
    """Each language as its locale writes money: "R1 234,50" in English (South Africa) and
    Afrikaans, "R1,234.50" in isiZulu, "1 234,50 R" in Portuguese (Mozambique)."""


NBSP = "\u00a0"
"""The space inside an amount: no-break, so an amount never splits across two lines."""
_FONT_SAFE = str.maketrans({"\u202f": NBSP, "\u2009": NBSP, "\u2212": "-", "\u200e": None,
                            "\u200f": None})
"""What CLDR writes that the shipped font (Latin-1 and Latin Extended-A) has no glyph for."""

_style = MoneyStyle.COMMAS


def money_style() -> MoneyStyle:
    return _style


def set_money_style(style: MoneyStyle | str) -> None:
    global _style
    _style = MoneyStyle(style)


def _grouped(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


def money(cents: int, currency: str = "R", *, style: MoneyStyle | None = None,
          code: str | None = None) -> str:
    """`cents` as an amount in `currency` (the table's symbol): whole amounts without cents
    ("R1,000,000"), others to the cent ("R1,234.50"), in the house's style (or `style`) and
    the current language (or `code`) when the style is the locale's."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"money is an int number of cents, not {type(cents).__name__}")
    style = _style if style is None else style
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    if style is MoneyStyle.COMMAS:
        return f"{sign}{currency}{_grouped(units, ',')}" + (f".{rest:02d}" if rest else "")
    if style is MoneyStyle.SPACES:
        return (f"{sign}{currency}{NBSP}{_grouped(units, NBSP)}"
                + (f",{rest:02d}" if rest else ""))
    loc = locale(_current if code is None else code)
    pattern = loc.currency_formats["standard"].pattern.split(";")[0]
    symbol = "'" + currency.replace("'", "''") + "'"
    pattern = pattern.replace("¤", symbol)
    if not rest:
        pattern = pattern.replace("0.00", "0")
    amount = Decimal(cents).scaleb(-2)  # exact: a Decimal of the cents, never a float
    text = format_decimal(amount, format=pattern, locale=loc)
    return text.translate(_FONT_SAFE)


class OddsStyle(StrEnum):
    """How the house words payouts on the signs (`[display] odds_style`: "banker's
    payout shown as the house words it")."""

    RATIO = "19:20"
    """As the rules write them: 19:20, 1:1, 8:1, 3:2."""
    TO_ONE = "0.95 to 1"
    """Against one unit: 0.95 to 1, 1 to 1, 8 to 1, 1.5 to 1 (in each language's words)."""


_odds = OddsStyle.RATIO


def set_odds_style(style: OddsStyle | str) -> None:
    global _odds
    _odds = OddsStyle(style)


def odds(ratio: Fraction | int, *, code: str | None = None) -> str:
    """A payout ratio in the house's style: "19:20" or "0.95 to 1" (rule 2.6)."""
    ratio = Fraction(ratio)
    if _odds is OddsStyle.RATIO:
        return f"{ratio.numerator}:{ratio.denominator}"
    exact = (Decimal(ratio.numerator) / Decimal(ratio.denominator)).quantize(Decimal("0.01"))
    if _style is MoneyStyle.LOCALE:  # the decimal mark as the house writes money
        loc = locale(_current if code is None else code)
        text = format_decimal(exact.normalize(), format="#,##0.##",
                              locale=loc).translate(_FONT_SAFE)
    else:
        text = f"{exact:f}".rstrip("0").rstrip(".")
        if _style is MoneyStyle.SPACES:
            text = text.replace(".", ",")
    return _("%(n)s to 1") % {"n": text}  # the msgid the roulette sign has already


def number(n: int, *, code: str | None = None) -> str:
    """A count as the current language writes it ("1 000" in Afrikaans, "1,000" in isiZulu)."""
    loc = locale(_current if code is None else code)
    return format_decimal(n, locale=loc).translate(_FONT_SAFE)


def percent(share: Fraction | int, *, code: str | None = None) -> str:
    """A share (1/20, or a whole Fraction(48, 100)) as a percentage, to at most two decimals:
    "5%", "4,5%" in Afrikaans."""
    loc = locale(_current if code is None else code)
    share = Fraction(share)
    exact = Decimal(share.numerator) / Decimal(share.denominator)
    pattern = loc.percent_formats[None].pattern.replace("#,##0", "#,##0.##")
    return format_percent(exact, format=pattern, locale=loc).translate(_FONT_SAFE)


# --- What a house configures ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignLanguages:
    """The languages a sign shows, in turn, each for `seconds`; and how it writes money
    (table.toml `[display]`: `languages`, `language_seconds`, `money_style`)."""

    codes: tuple[str, ...] = (SOURCE,)
    seconds: int = 20
    money_style: MoneyStyle = MoneyStyle.COMMAS
    odds_style: OddsStyle = OddsStyle.RATIO

    def __post_init__(self) -> None:
        if not self.codes:
            raise ValueError("name at least one language")
        for code in self.codes:
            check(code)
        if len(set(self.codes)) != len(self.codes):
            raise ValueError("a language is listed twice")
        if not MIN_SECONDS <= self.seconds <= MAX_SECONDS:
            raise ValueError(f"each language stays {MIN_SECONDS} to {MAX_SECONDS} seconds")

    @property
    def alternates(self) -> bool:
        return len(self.codes) > 1

    def apply(self) -> None:
        """The house's money and odds styles, and the first language."""
        set_money_style(self.money_style)
        set_odds_style(self.odds_style)
        use(self.codes[0])


MIN_SECONDS = 5
"""Shorter, and a player cannot finish reading the limits before they change language."""
MAX_SECONDS = 600


# --- Whether a catalogue is complete -----------------------------------------------------------

_PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdrif]|%[sdrif]|\{[A-Za-z_0-9]*\}")


def placeholders(text: str) -> list[str]:
    """The format placeholders in `text` ("%(box)s", "%d", "{n}"), sorted."""
    return sorted(_PLACEHOLDER.findall(text.replace("%%", "")))


def _key(message: Any) -> tuple[str | None, str]:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return message.context, msgid


def problems(template: Any, translated: Any) -> list[str]:
    """What keeps `translated` (a Babel catalogue) from showing every word of `template` (the
    .pot): a message missing, empty, fuzzy, with other placeholders than its English, or
    left over from words no longer in the code. [] when the catalogue is complete."""
    out = []
    wanted = {_key(m): m for m in template if m.id}
    have = {_key(m): m for m in translated if m.id}
    for key, source in wanted.items():
        what = f"{key[1]!r}" + (f" ({key[0]})" if key[0] else "")
        message = have.get(key)
        if message is None:
            out.append(f"{what}: not in the catalogue (run scripts/catalogues)")
            continue
        forms = list(message.string) if isinstance(message.string, tuple | list) \
            else [message.string]
        if message.fuzzy:
            out.append(f"{what}: fuzzy (a guess to check, never shown)")
        if not forms or any(not f for f in forms):
            out.append(f"{what}: not translated")
            continue
        if isinstance(source.id, tuple):
            singular, plural = source.id
            if len(forms) != translated.num_plurals:
                out.append(f"{what}: {len(forms)} plural forms, the language has "
                           f"{translated.num_plurals}")
            if placeholders(forms[-1]) != placeholders(plural):
                out.append(f"{what}: {forms[-1]!r} has {placeholders(forms[-1])}, the English "
                           f"{placeholders(plural)}")
            for form in forms[:-1]:  # the one form may leave the count out ("Last spin")
                if not set(placeholders(form)) <= set(placeholders(plural)):
                    out.append(f"{what}: {form!r} has {placeholders(form)}, the English "
                               f"{placeholders(plural)}")
        elif placeholders(forms[0]) != placeholders(source.id):
            out.append(f"{what}: {forms[0]!r} has {placeholders(forms[0])}, the English "
                       f"{placeholders(source.id)}")
    for key in have.keys() - wanted.keys():
        out.append(f"{key[1]!r}: no longer in the template (run scripts/catalogues)")
    return out


def template() -> Any:
    """The template (assets/locale/tableside.pot) as Babel reads it."""
    from babel.messages.pofile import read_po

    with TEMPLATE.open("rb") as f:
        return read_po(f, domain=DOMAIN)


# --- Extraction from .kv files (babel.cfg) -----------------------------------------------------


def extract_kv(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
               options: Any) -> Iterator[tuple[int, str | tuple[str, ...], Any, list[str]]]:
    """A Babel extractor for Kivy's .kv files: the Python expression after each property's
    colon (`text: tr._("MIN")`), with the `# TRANSLATORS:` comments on the lines above it."""
    from babel.messages.extract import extract_python

    encoding = str(options.get("encoding", "utf-8"))
    comments: list[str] = []
    for lineno, raw in enumerate(fileobj.read().decode(encoding).splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            text = line[1:].strip()
            if not line.startswith("#:") and any(text.startswith(t) for t in comment_tags):
                comments.append(text)
            elif comments and not line.startswith("#:"):
                comments[-1] += " " + text  # a comment that goes on to the next line
            continue
        _head, colon, expr = line.partition(":")
        if colon and expr.strip():
            found = extract_python(io.BytesIO(expr.encode("utf-8")), keywords, [], options)
            for _lineno, funcname, messages, _comments in found:
                yield lineno, funcname, messages, comments
        comments = []

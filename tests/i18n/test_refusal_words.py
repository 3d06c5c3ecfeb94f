"""The rules' refusals in the dealer's language (docs/dealer-screen.md, "Languages"): a
refusal worded with a template (`NotAllowed.of`) keeps, as `str(exc)`, exactly the English
the f-string wrote before; the template and its values say it in Afrikaans, Portuguese or
isiZulu, amounts as the house writes money and the clause as "(reël 2.2)"; the session's
alert and log keep the English. No Kivy here (tests/ui draws it on the dealer screens)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from hypothesis import given, strategies as st

from kiosk import i18n
from kiosk.rules.baccarat import engine as pb
from kiosk.rules.blackjack import engine as bj
from kiosk.rules.blackjack.house import BlackjackRules
from kiosk.rules.errors import Amount, NotAllowed, Sentence, UnreadableInput, Word
from kiosk.rules.money import ChipRule, format_money
from kiosk.rules.roulette import engine as rl
from kiosk.store.journal import Journal
from kiosk.table.session import Severity, TableSession

ROOT = Path(__file__).resolve().parents[2]
m = format_money

# Every converted template that has values, and the f-string it replaced (as it was written
# in kiosk/rules before, with the same values): their English must be the same text.
OLD: dict[str, Callable[..., str]] = {
    "Area %(area)s: %(kind)s bet of %(amount)s is over the table maximum of %(maximum)s; "
    "at most %(more)s more": lambda area, kind, amount, maximum, more:
        f"Area {area}: {kind} bet of {m(amount)} is over the table maximum of {m(maximum)}; "
        f"at most {m(more)} more",
    "Area %(area)s owes no commission": lambda area: f"Area {area} owes no commission",
    "The cards are not ready: %(step)s": lambda step: "The cards are not ready: " + str(step),
    "First resolve the %(card)s card": lambda card: f"First resolve the {card} card",
    "First resolve the %(card)s card for the %(hand)s": lambda card, hand:
        f"First resolve the {card} card for the {hand}",
    "Pay the blackjack on %(hand)s first": lambda hand: f"Pay the blackjack on {hand} first",
    "No %(colour)s chips are in play: make a chip change first": lambda colour:
        f"No {colour} chips are in play: make a chip change first",
    "%(colour)s has %(chips)s chip(s) in front of them, not %(bet)s": lambda colour, chips,
        bet: f"{colour} has {chips} chip(s) in front of them, not {bet}",
    "%(colour)s on %(place)s: %(amount)s is over the %(limit)s of %(maximum)s": lambda colour,
        place, amount, limit, maximum:
        f"{colour} on {place}: {m(amount)} is over the {limit} of {m(maximum)}",
    "%(number)s is already called: pay it, or void the spin": lambda number:
        f"{number} is already called: pay it, or void the spin",
    "Box %(box)s has no %(amount)s bet of player %(player)s to take back": lambda box, amount,
        player: f"Box {box} has no {m(amount)} bet of player {player} to take back",
    "The cut is offered to %(who)s first; a supervisor cuts only when no player accepts":
        lambda who: f"The cut is offered to {who} first; a supervisor cuts only when no "
                    f"player accepts",
    "Box %(box)s has no player to cut (players at boxes %(boxes)s)": lambda box, boxes:
        f"Box {box} has no player to cut (players at boxes {boxes})",
    "The cut must be at least %(margin)s in from either end: between %(least)s and %(most)s "
    "cards, not %(cut)s": lambda margin, least, most, cut:
        f"The cut must be at least {margin} in from either end: between {least} and {most} "
        f"cards, not {cut}",
    "The cutting card goes at most half way in from the back: 1 to %(most)s cards from the "
    "back, not %(given)s": lambda most, given:
        f"The cutting card goes at most half way in from the back: 1 to {most} cards from "
        f"the back, not {given}",
    "No %(colour)s chips are in play": lambda colour: f"No {colour} chips are in play",
    "There is no box %(box)s: the layout has boxes 1 to %(boxes)s": lambda box, boxes:
        f"There is no box {box}: the layout has boxes 1 to {boxes}",
    "Box %(box)s: %(amount)s is over the table maximum of %(maximum)s":
        lambda box, amount, maximum:
        f"Box {box}: {m(amount)} is over the table maximum of {m(maximum)}",
    "Player %(player)s has no bet on box %(box)s": lambda player, box:
        f"Player {player} has no bet on box {box}",
    "Box %(box)s, player %(player)s: %(amount)s is under the table minimum of %(minimum)s":
        lambda box, player, amount, minimum:
        f"Box {box}, player {player}: {m(amount)} is under the table minimum of {m(minimum)}",
    "Insurance on box %(box)s is up to half the bet: at most %(amount)s": lambda box, amount:
        f"Insurance on box {box} is up to half the bet: at most {m(amount)}",
    "%(amount)s cannot be made of chips: bets are in steps of %(chip)s": lambda amount, chip:
        f"{m(amount)} cannot be made of chips: bets are in steps of {m(chip)}",
    "A wheel chip is worth at least %(amount)s at this table": lambda amount:
        f"A wheel chip is worth at least {m(amount)} at this table",
    "The cut is offered to box %(offered)s, not box %(box)s": lambda offered, box:
        f"The cut is offered to box {offered}, not box {box}",
    "Box %(box)s has already refused the cut": lambda box:
        f"Box {box} has already refused the cut",
    "Box %(box)s has no player to offer the cut to": lambda box:
        f"Box {box} has no player to offer the cut to",
    "Box %(box)s refused the cut": lambda box: f"Box {box} refused the cut",
    "Box %(offered)s cuts, not box %(cutter)s": lambda offered, cutter:
        f"Box {offered} cuts, not box {cutter}",
    "Area %(area)s has only %(amount)s on %(kind)s": lambda area, amount, kind:
        f"Area {area} has only {m(amount)} on {kind}",
    "Box %(box)s, player %(player)s is already insured": lambda box, player:
        f"Box {box}, player {player} is already insured",
    "Box %(box)s has blackjack: offer even money instead": lambda box:
        f"Box {box} has blackjack: offer even money instead",
    "Box %(box)s has no blackjack": lambda box: f"Box {box} has no blackjack",
    "Player %(player)s has no bet in play on box %(box)s": lambda player, box:
        f"Player {player} has no bet in play on box {box}",
    "Box %(box)s already has %(hands)s hands, the house's most": lambda box, hands:
        f"Box {box} already has {hands} hands, the house's most",
    "There is no hand %(number)s on box %(box)s in this round": lambda number, box:
        f"There is no hand {number} on box {box} in this round",
    "%(colour)s: %(amount)s on this spin is over the table maximum of %(maximum)s":
        lambda colour, amount, maximum:
        f"{colour}: {m(amount)} on this spin is over the table maximum of {m(maximum)}",
    "%(colour)s still has bets on the layout": lambda colour:
        f"{colour} still has bets on the layout",
    "%(colour)s has no bets on the layout": lambda colour:
        f"{colour} has no bets on the layout",
    "Cannot close bets: area %(area)s %(kind)s %(amount)s is under the %(minimum)s minimum":
        lambda area, kind, amount, minimum:
        "Cannot close bets: " + f"area {area} {kind} {m(amount)} is under the {m(minimum)} "
        "minimum",
    "Cannot close bets: area %(area)s has a tie bet without a bet on Banker or Player":
        lambda area: "Cannot close bets: "
        + f"area {area} has a tie bet without a bet on Banker or Player",
}
MONEY = ("amount", "maximum", "more", "minimum", "chip")


def rules_templates() -> dict[str, set[str]]:
    """Every template kiosk/rules words a refusal with (`of("...")`), by file."""
    found: dict[str, set[str]] = {}
    for filename, _lineno, message, _comments, _context in extract_from_dir(
            str(ROOT / "kiosk" / "rules"), method_map=[("**.py", "python")],
            keywords={"of": None}):
        assert isinstance(message, str)
        found.setdefault(filename, set()).add(message)
    return found


BORN_TEMPLATES = ("arizona/", "paigow/", "mini_baccarat/")
"""Game packages written after the refusals were converted: their templates never were
f-strings, so they have no old words to match (their English is `template % values`)."""


def test_every_template_with_values_is_checked_against_its_old_words() -> None:
    """A converted template with placeholders is in OLD (its English proven below); one
    without any is its own English, so it must hold no '%' that formatting would change."""
    found = rules_templates()
    templates = set().union(*(words for file, words in found.items()
                              if not file.startswith(BORN_TEMPLATES)))
    with_values = {t for t in templates if i18n.placeholders(t)}
    assert with_values == set(OLD)
    for t in templates - with_values:
        assert "%" not in t and NotAllowed.of(t).args == (t,), t
        assert str(NotAllowed.of(t, "4.2")) == f"{t} (rule 4.2)"
    # The most-seen refusals of each game are among them.
    assert {"No more bets has been called: bets are closed for this coup",
            "No more bets: the round is being dealt", "No box is playing now",
            "The round is not complete yet", "The coup is not complete yet",
            "No more bets: chips placed now are a no bet"} <= templates
    assert len(templates) == 124


names = st.text("ABCDEFGH123456789", min_size=1, max_size=3)
cents = st.integers(min_value=0, max_value=10**10)
clauses = st.none() | st.sampled_from(["2.2", "4.2 item 3", "4.1 (shuffle and cut)"])


@st.composite
def values_for(draw: st.DrawFn, template: str) -> dict[str, object]:
    keys = [p[2:-2] for p in i18n.placeholders(template)]
    return {k: draw(cents) if k in MONEY else draw(names | st.integers(1, 99)) for k in keys}


@pytest.mark.parametrize("template", sorted(OLD))
@given(data=st.data(), clause=clauses)
def test_the_english_of_each_template_is_its_old_f_string(template: str, data: st.DataObject,
                                                          clause: str | None) -> None:
    values = data.draw(values_for(template))
    old = OLD[template](**values)
    as_values = {k: Amount(v) if k in MONEY else v for k, v in values.items()}
    exc = NotAllowed.of(template, clause, **as_values)
    assert str(exc) == (f"{old} (rule {clause})" if clause else old)
    assert exc.clause == clause
    assert exc.sentence == Sentence(template, as_values, clause)
    assert exc.sentence.english() == str(exc)


@given(box=st.integers(1, 7), maximum=st.integers(1, 10_000).map(lambda u: u * 500),
       chips=st.integers(1, 20_000))
def test_blackjack_over_the_maximum_says_what_it_said(box: int, maximum: int,
                                                      chips: int) -> None:
    rules = BlackjackRules(chips=ChipRule(500), minimum=500, maximum=maximum)
    state = bj.initial_state(rules, "BJ")
    amount = chips * 500
    if amount <= maximum:
        assert bj.can_place_bet(state, box, amount)
        return
    with pytest.raises(NotAllowed) as err:
        bj.verify_place_bet(state, box, amount)
    assert str(err.value) == (f"Box {box}: {m(amount)} is over the table maximum of "
                              f"{m(maximum)} (rule 2.2)")
    i18n.use("af")
    assert i18n.said(err.value.sentence) == (
        f"Vak {box}: {m(amount)} is bo die tafelmaksimum van {m(maximum)} (reël 2.2)")


@given(more=st.integers(1, 100), step=st.sampled_from([100, 500, 2_500]))
def test_the_chip_step_says_what_it_said(more: int, step: int) -> None:
    amount = step * more + step // 5
    with pytest.raises(NotAllowed) as err:
        ChipRule(step).verify_stake(amount)
    assert str(err.value) == (f"{m(amount)} cannot be made of chips: bets are in steps of "
                              f"{m(step)}")


def test_punto_banco_over_the_maximum_in_each_language() -> None:
    state = pb.initial_state(pb.PuntoBancoRules(chips=ChipRule(500)), "PB")
    state = pb.apply(state, pb.place_bet(state, "3", pb.BetKind.BANKER, 4_990_000))
    maximum = state.rules.limit(pb.BetKind.BANKER).maximum
    with pytest.raises(NotAllowed) as err:
        pb.verify_place_bet(state, "3", pb.BetKind.BANKER, 20_000)
    over, more = m(4_990_000 + 20_000), m(maximum - 4_990_000)
    english = (f"Area 3: banker bet of {over} is over the table maximum of {m(maximum)}; at "
               f"most {more} more (rule 2.2)")
    assert str(err.value) == english
    said = {code: i18n.said(err.value.sentence, code=code) for code in ("en", "af", "pt", "zu")}
    # The bet's kind is the screens' word for it (Bankier, Banca, Ibhange); English says it
    # as the record does.
    assert said == {
        "en": english,
        "af": f"Area 3: Bankier-weddenskap van {over} is bo die tafelmaksimum van "
              f"{m(maximum)}; hoogstens {more} meer (reël 2.2)",
        "pt": f"Área 3: aposta Banca de {over} acima do máximo da mesa de {m(maximum)}; no "
              f"máximo mais {more} (regra 2.2)",
        "zu": f"Indawo 3: ukubheja (Ibhange) okungu-{over} kudlula okukhulu kwetafula "
              f"okungu-{m(maximum)}; engeza okungafika ku-{more} (umthetho 2.2)"}


def test_amounts_are_said_as_the_house_writes_money() -> None:
    exc = NotAllowed.of("Box %(box)s: %(amount)s is over the table maximum of %(maximum)s",
                        "2.2", box=4, amount=Amount(1_250_050), maximum=Amount(1_000_000))
    assert str(exc) == "Box 4: R12,500.50 is over the table maximum of R10,000 (rule 2.2)"
    i18n.set_money_style(i18n.MoneyStyle.SPACES)
    nb = i18n.NBSP
    assert i18n.said(exc.sentence, code="af") == (
        f"Vak 4: R{nb}12{nb}500,50 is bo die tafelmaksimum van R{nb}10{nb}000 (reël 2.2)")
    assert str(exc) == "Box 4: R12,500.50 is over the table maximum of R10,000 (rule 2.2)"


def test_a_refusal_without_a_template_stays_as_it_is() -> None:
    exc = NotAllowed("Cannot close bets: area 1 banker R25 is under the R50 minimum", "2.2")
    assert exc.sentence is None
    i18n.use("af")
    assert i18n.said(exc.sentence, str(exc)) == str(exc)
    plain = UnreadableInput.of("Card %(code)s is not a card", code="ZZ")
    assert str(plain) == "Card ZZ is not a card" and plain.sentence is not None
    assert i18n.said(plain.sentence) == "Card ZZ is not a card"  # not in the catalogues


def test_a_refused_action_is_alerted_and_logged_in_english(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal.open(tmp_path / "t.db", "BJ-01")
    rules = BlackjackRules(chips=ChipRule(500))
    session = TableSession(bj.Blackjack(), journal, rules, "BJ-01")
    rows = journal.count()
    i18n.use("af")  # the dealer's language changes nothing on record
    with caplog.at_level(logging.WARNING):
        assert session.attempt(lambda s: bj.place_bet(s, 2, 2_000_000)) is None
    english = "Box 2: R20,000 is over the table maximum of R10,000 (rule 2.2)"
    alert = session.alerts[-1]
    assert (alert.severity, alert.message) == (Severity.WARNING, english)
    assert caplog.messages[-1] == f"warning: {english}"
    assert alert.sentence is not None and alert.sentence.english() == english
    assert i18n.said(alert.sentence) == (
        "Vak 2: R20,000 is bo die tafelmaksimum van R10,000 (reël 2.2)")
    assert journal.count() == rows
    journal.close()


def test_roulette_refusals_in_portuguese() -> None:
    state = rl.initial_state(rl.RouletteRules(), "RL")
    with pytest.raises(NotAllowed) as err:
        rl.verify_no_spin(state)
    assert str(err.value) == "The ball is not spinning (rule 3.2)"
    assert i18n.said(err.value.sentence, code="pt") == "A bola não está a girar (regra 3.2)"
    with pytest.raises(NotAllowed) as err:
        rl.verify_take_back(state, "pink")
    assert str(err.value) == "Pink has no bets on the layout"
    assert i18n.said(err.value.sentence, code="pt") == "Rosa não tem apostas na mesa"


def test_a_word_is_english_on_record_and_the_screens_word_on_screen() -> None:
    exc = NotAllowed.of("Area %(area)s has only %(amount)s on %(kind)s", area="2",
                        amount=Amount(500), kind=Word("tie", "Tie"))
    assert str(exc) == "Area 2 has only R5 on tie"
    assert i18n.said(exc.sentence, code="af") == "Area 2 het net R5 op Gelykop"
    unknown = NotAllowed.of("%(colour)s has no bets on the layout", colour=Word("Mauve"))
    assert i18n.said(unknown.sentence, code="af") == (
        "Mauve het geen weddenskappe op die tafel nie")  # no such word: as it is


def test_the_rules_refusals_are_in_every_catalogue() -> None:
    """scripts/catalogues extracts the rules' templates (babel.cfg, `-k of`): each is in the
    template, and each catalogue translates it (test_catalogues checks them all)."""
    words = {msg.id for msg in i18n.template() if msg.id}
    templates = set().union(*rules_templates().values())
    assert templates | {"(rule %(clause)s)"} <= words
    for code in ("af", "pt", "zu"):
        cat = i18n.catalogue(code)
        for t in templates:
            assert cat[t].string and not cat[t].fuzzy, (code, t)
    assert "[python: kiosk/rules/**.py]" in (ROOT / "babel.cfg").read_text()


def test_punto_banco_under_the_minimum_alone_is_a_sentence_several_stay_english() -> None:
    state = pb.initial_state(pb.PuntoBancoRules(chips=ChipRule(500)), "PB")
    state = pb.apply(state, pb.shuffle(state))
    state = pb.apply(state, pb.place_bet(state, "1", pb.BetKind.BANKER, 2_500))
    with pytest.raises(NotAllowed) as err:
        pb.verify_close_betting(state)
    assert str(err.value) == ("Cannot close bets: area 1 banker R25 is under the R50 minimum "
                              "(rule 2.2)")
    assert i18n.said(err.value.sentence, code="af") == (
        "Kan nie weddenskappe sluit nie: area 1 Bankier R25 is onder die minimum van R50 "
        "(reël 2.2)")
    state = pb.apply(state, pb.place_bet(state, "2", pb.BetKind.TIE, 1_000))
    with pytest.raises(NotAllowed) as err:
        pb.verify_close_betting(state)
    assert str(err.value) == (
        "Cannot close bets: area 1 banker R25 is under the R50 minimum (rule 2.2); area 2 "
        "has a tie bet without a bet on Banker or Player (rule 5.2)")
    assert err.value.sentence is None and err.value.clause == "2.2"

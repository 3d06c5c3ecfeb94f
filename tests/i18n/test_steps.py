"""The dealer's next step in the dealer's language: each game's `next_step`
is a `Said`, its English unchanged (every record, report and golden file reads it so) and
its sentence said in Afrikaans, Portuguese and isiZulu on the dealer screen, the values in
it (a hand, a total, the options) in the same language."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk import i18n
from kiosk.replay import load_entries
from kiosk.rules.errors import Said
from kiosk.table.fold import Folded, fold

GOLDEN = Path(__file__).resolve().parents[1] / "golden_journals"
JOURNALS = ["pb", "bj", "t21", "bj_rules", "roulette", "mixed", "pg", "mb_transfer",
            "mb_replace", "mb_terminate", "mb_shoe"]
TRANSLATED = ("af", "pt", "zu")


def _steps() -> list[Said]:
    """The next step at every state the golden journals pass through."""
    steps: list[Said] = []
    for name in JOURNALS:
        def before(folded: Folded, _op: object, _row: object) -> None:
            if folded.game is not None:
                step = folded.game.engine.next_step(folded.state)
                assert isinstance(step, Said), repr(step)
                steps.append(step)
        fold(load_entries(GOLDEN / f"{name}.jsonl"), before=before)
    return steps


STEPS = _steps()


def test_the_english_is_the_rules_and_the_screen_shows_it_unchanged() -> None:
    assert len(STEPS) > 1000 and len({str(s) for s in STEPS}) > 200
    for step in STEPS:
        assert step.sentence is not None
        assert str(step) == step.sentence.english()
        assert i18n.say(step, code="en") == str(step)


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_step_is_said_in_the_dealers_language(code: str) -> None:
    """No step of the golden journals stays English, nor leaves a placeholder."""
    for step in {str(s): s for s in STEPS}.values():
        words = i18n.say(step, code=code)
        assert words != str(step) and "%(" not in words, (code, str(step), words)


def test_steps_word_for_word() -> None:
    by_english = {str(s): s for s in STEPS}
    want = {
        "Coup complete: Player wins 5 to 4. Pay and confirm": (
            "Spel klaar: Speler wen 5 teen 4. Betaal en bevestig",
            "Jogada completa: Jogador ganha 5 a 4. Pague e confirme",
            "Umdlalo uphelile: Umdlali uwina ngo-5 kuya ku-4. Khokha bese uqinisekisa"),
        "Offer the cut to the first player at the table (rule 4.2.1)": (
            "Bied die afneem aan die eerste speler by die tafel aan (reël 4.2.1)",
            "Ofereça o corte ao primeiro jogador à mesa (regra 4.2.1)",
            "Nikeza ukusika kumdlali wokuqala etafuleni (umthetho 4.2.1)"),
        "Round complete: Dealer bust (24). Pay and confirm": (
            "Rondte klaar: Kroepier oor (24). Betaal en bevestig",
            "Ronda completa: Croupier rebentou (24). Pague e confirme",
            "Umzuliswano uphelile: Umabi weqile (24). Khokha bese uqinisekisa"),
    }
    for english, (af, pt, zu) in want.items():
        step = by_english[english]
        assert [i18n.say(step, code=c) for c in TRANSLATED] == [af, pt, zu]
    # A hand, its total, the dealer's card and the options, each in the language.
    step = by_english["Box 1: soft 12 / 2 against 6: draw, stand, double, split?"]
    assert [i18n.say(step, code=c) for c in TRANSLATED] == [
        "Vak 1: sagte 12 / 2 teen 6: trek, staan, verdubbel, verdeel?",
        "Posição 1: suave 12 / 2 contra 6: pedir, ficar, dobrar, separar?",
        "Ibhokisi 1: soft 12 / 2 ngokumelene no-6: thatha, yima, phinda kabili, hlukanisa?"]

"""What the mini baccarat sign says beyond punto banco's: the shuffler malfunction procedure
(rules 12.1-12.5), in the players' words and in every language of the house."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.i18n import _
from kiosk.rules.mini_baccarat import engine as mb

GAME_NAME = "Mini Baccarat"  # the game's name on the sign (not translated)


@dataclass(frozen=True, slots=True)
class ProcedureCall:
    """The sign's banner while the procedure has the coup: the title and its line below."""

    title: str
    detail: str


def procedure_call(state: mb.MiniBaccaratState | None) -> ProcedureCall | None:
    """The words for the players while a shuffler malfunction is in hand (None otherwise)."""
    if state is None or state.malfunction is None:
        return None
    m = state.malfunction
    now = mb.where(state)
    if m.continued is mb.Device.SHOE:
        return ProcedureCall(_("Coup continues from a dealing shoe"),
                             _("For the players who kept their wagers in the coup"))
    if m.continued is not None:
        return ProcedureCall(_("Coup continues"), _("From the other shuffling device"))
    if now is not None and now.step is mb.Step.OFFER:
        return ProcedureCall(_("Shuffler fault: the inspector is attending"),
                             _("Each player may take their wagers back"))
    if now is not None and now.step is mb.Step.TERMINATE:
        return ProcedureCall(_("Shuffler fault: the coup is terminated"),
                             _("Every wager is returned"))
    return ProcedureCall(_("Shuffler fault: the inspector is attending"),
                         _("Every wager stays as it is until the inspector decides"))

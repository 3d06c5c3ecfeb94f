"""One shape for every game: a game's code lives in its own files. Its rules are the package
`kiosk/rules/<game>/`; its screens are `kiosk/ui/games/<game>.py` and the dealer screen's and
the sign's modules named after it (`kiosk/ui/dealer/punto_banco*.py`, `.../signage/...`).
Nothing else in the kiosk imports a game: the registry finds them by name."""

from __future__ import annotations

import re
from pathlib import Path

from tests.rules.test_purity import imported_modules

ROOT = Path(__file__).resolve().parents[1]
KIOSK = ROOT / "kiosk"
# Each game package under kiosk/rules (a folder with an engine), and the prefix of its screens'
# modules: punto banco's package is `baccarat`, its screens `punto_banco*`.
SCREEN_PREFIX = {"baccarat": "punto_banco"}
# A variant builds on its parent game's code (imports it, never copies it): mini baccarat's
# coup is punto banco's (docs/adding-a-game.md, "A variant of a game").
VARIANT_OF = {"mini_baccarat": "baccarat"}
GAMES = {p.parent.name: SCREEN_PREFIX.get(p.parent.name, p.parent.name)
         for p in sorted((KIOSK / "rules").glob("*/engine.py"))}
A_GAME = re.compile(r"^kiosk\.rules\.(" + "|".join(GAMES) + r")(\.|$)")


def _games_own(path: Path) -> str | None:
    """The game whose file `path` is, or None for the kiosk's shared code."""
    rel = path.relative_to(KIOSK).parts
    if rel[:1] == ("rules",) and len(rel) > 2 and rel[1] in GAMES:
        return rel[1]
    if rel[:2] == ("ui", "games") and path.stem in GAMES:
        return path.stem
    if rel[:2] in (("ui", "dealer"), ("ui", "signage")):
        for package, prefix in GAMES.items():
            if path.stem == prefix or path.stem.startswith(prefix + "_"):
                return package
    return None


def outside_imports() -> list[str]:
    found = []
    for path in sorted(KIOSK.rglob("*.py")):
        own = _games_own(path)
        for module in sorted(imported_modules(path.read_text(encoding="utf-8"))):
            m = A_GAME.match(module)
            if m and m.group(1) != own and VARIANT_OF.get(own or "") != m.group(1):
                found.append(f"{path.relative_to(ROOT)} imports {module}")
    return found


def test_no_shared_code_imports_a_game() -> None:
    assert {"baccarat", "blackjack", "roulette"} <= set(GAMES)
    assert outside_imports() == []


def test_the_check_sees_a_file_in_the_wrong_place() -> None:
    """The check can fail: a shared module importing a game, or one game importing another."""
    shared = KIOSK / "ui" / "signage" / "roads_view.py"
    other = KIOSK / "rules" / "roulette" / "bets.py"
    assert _games_own(shared) is None
    assert _games_own(KIOSK / "ui" / "signage" / "punto_banco_roads.py") == "baccarat"
    assert _games_own(KIOSK / "ui" / "dealer" / "card_keypad.py") is None
    assert _games_own(other) == "roulette"
    assert A_GAME.match("kiosk.rules.baccarat.engine")
    assert not A_GAME.match("kiosk.rules.cards")


def test_the_moved_code_is_in_its_game() -> None:
    """Blackjack's simulator, punto banco's card values and roads, and the card keypad's
    punto banco default each live with their game now."""
    assert not (KIOSK / "house_edge.py").exists()
    assert (KIOSK / "rules" / "blackjack" / "simulation.py").exists()
    assert "BACCARAT" not in (KIOSK / "rules" / "cards.py").read_text(encoding="utf-8")
    assert not (KIOSK / "ui" / "signage" / "roads_view.py").exists()
    keypad = (KIOSK / "ui" / "dealer" / "card_keypad.py").read_text(encoding="utf-8")
    assert "punto" not in keypad.lower() and "baccarat" not in keypad

"""The table configuration: valid files load; invalid ones are refused with line and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import EXAMPLE, ConfigError, load, parse
from kiosk.rules.money import RoundingFavour
from kiosk.rules.punto_banco import BetKind, CommissionMode


def test_example_loads_with_money_in_cents(tmp_path: Path) -> None:
    f = tmp_path / "table.toml"
    f.write_text(EXAMPLE)
    cfg = load(f)
    assert cfg.table_id == "PB-01" and cfg.rules.decks == 8 and cfg.rules.areas == 7
    assert cfg.rules.limit(BetKind.BANKER).minimum == 5_000  # rule 2.2, R50
    assert cfg.rules.limit(BetKind.TIE).maximum == 500_000
    assert cfg.rules.chips.smallest_chip == 500
    assert cfg.rules.chips.favour is RoundingFavour.HOUSE
    assert cfg.rules.commission_mode is CommissionMode.NET
    assert cfg.journal == tmp_path / "data" / "PB-01.db"


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (("areas = 7 ", "areas = 20 "), 11, "7 to 14 numbered betting areas"),  # rule 5.2
        (("smallest = 5 ", "smallest = 2.5 "), 21, "not a decimal number"),
        (('commission_mode = "net"', 'commission_mode = "half"'), 13, "one of net, commission"),
        (("minimum = 50, maximum = 50000 }\nplayer", "minimum = 500, maximum = 50 }\nplayer"),
         16, "at most the maximum"),
        (('dialect = "line"', 'dialect = "morse"'), 27, "line, plain"),
    ],
)
def test_invalid_values_name_line_and_reason(edit: tuple[str, str], line: int,
                                             words: str) -> None:
    assert edit[0] in EXAMPLE
    with pytest.raises(ConfigError) as err:
        parse(EXAMPLE.replace(edit[0], edit[1], 1), Path("table.toml"))
    assert f"table.toml, line {line}:" in str(err.value)
    assert words in str(err.value)


def test_broken_toml_and_missing_file() -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML.*line 2"):
        parse('[table]\nid = "x\n', Path("t.toml"))
    with pytest.raises(ConfigError, match="cannot read"):
        load("/nonexistent/table.toml")
    with pytest.raises(ConfigError, match=r"\[table\] section is missing"):
        parse("[chips]\nsmallest = 5\n")


def blackjack_config(game: str = "blackjack", extra: str = "") -> str:
    from kiosk.rules.blackjack.config import EXAMPLE as BLACKJACK_EXAMPLE

    head = EXAMPLE.split("[punto_banco]")[0].replace('game = "punto-banco"', f'game = "{game}"')
    rest = "[chips]" + EXAMPLE.split("[chips]")[1]
    return head + BLACKJACK_EXAMPLE + extra + "\n" + rest


def test_blackjack_section_loads_the_house_rules() -> None:
    from kiosk.rules.blackjack.house import BlackjackRules, DealerBlackjackTakes, Variant

    cfg = parse(blackjack_config())
    assert isinstance(cfg.rules, BlackjackRules)
    assert cfg.game == "blackjack" and cfg.rules.variant is Variant.STANDARD
    assert cfg.rules.decks == 6 and cfg.rules.minimum == 5_000 and cfg.rules.maximum == 1_000_000
    assert not cfg.rules.dealer_hits_soft_17  # rule 4.2: stands on all 17s
    assert cfg.rules.dealer_blackjack_takes is DealerBlackjackTakes.ALL
    assert cfg.rules.chips.smallest_chip == 500


def test_touch_21_defaults_and_refusals_with_line_numbers() -> None:
    from kiosk.rules.blackjack.house import Variant

    text = blackjack_config("touch-21").replace("decks = 6 ", "decks = 2 ").replace(
        "dealer_hits_soft_17 = false", "dealer_hits_soft_17 = true")
    cfg = parse(text)
    assert cfg.rules.variant is Variant.TOUCH_21 and cfg.rules.decks == 2
    bad = blackjack_config("touch-21")  # six decks: rule 7.5 allows one or two
    with pytest.raises(ConfigError) as err:
        parse(bad)
    line = next(n for n, t in enumerate(bad.splitlines(), 1) if t.startswith("decks = 6"))
    assert f"line {line}" in str(err.value) and "rule 7.5" in str(err.value)
    with pytest.raises(ConfigError) as err:
        parse(text.replace("surrender = false", "surrender = true"))
    assert "rule 7.2 item 8" in str(err.value)
    with pytest.raises(ConfigError) as err:
        parse(blackjack_config("poker"))
    assert "unknown game 'poker'" in str(err.value)

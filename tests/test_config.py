"""The table configuration: valid files load; invalid ones are refused with line and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import EXAMPLE, ConfigError, load, parse
from kiosk.rules.baccarat.engine import BetKind, CommissionMode
from kiosk.rules.money import RoundingFavour


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
        (("banker = { minimum = 50, maximum = 50000 }",
          "banker = { minimum = 500, maximum = 50 }"), 16, "at most the maximum"),
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


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (("commission_mode =", "comission_mode ="),
         "punto_banco.comission_mode: unknown key (did you mean commission_mode?)"),
        (("[display]", "[dispaly]"), "dispaly: unknown section [dispaly] (did you mean display?)"),
        (("baudrate = 9600", "baudrate = 9600\nbaud = 19200"),
         "devices.shoe.baud: unknown key (did you mean baudrate?)"),
        (("tie = {", "tie = { maxim = 10, "), "unknown key (did you mean maximum?)"),
        (("[chips]", "[chips]\nsmalest = 5"),
         "chips.smalest: unknown key (did you mean smallest?)"),
    ],
)
def test_a_misspelt_key_or_section_is_refused_with_its_line_and_the_nearest_name(
        edit: tuple[str, str], words: str) -> None:
    """A misspelt `comission_mode` used to pass and silently pay banker wins net."""
    assert edit[0] in EXAMPLE
    text = EXAMPLE.replace(edit[0], edit[1], 1)
    with pytest.raises(ConfigError) as err:
        parse(text, Path("table.toml"))
    new_line = edit[1].split("\n")[-1]
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(new_line))
    assert words in str(err.value) and f"table.toml, line {line}:" in str(err.value)


def test_a_misspelt_blackjack_key_is_refused() -> None:
    text = blackjack_config().replace("surrender = false", "surender = true")
    with pytest.raises(ConfigError, match=r"blackjack.surender: unknown key \(did you mean "
                                          r"surrender\?\)"):
        parse(text)


def test_another_games_section_may_stay_in_the_file() -> None:
    """A house that switches a table between games keeps both sections; only the table's
    game's section is read (and checked)."""
    from kiosk.rules.blackjack.config import EXAMPLE as BLACKJACK_EXAMPLE

    cfg = parse(EXAMPLE + "\n" + BLACKJACK_EXAMPLE)
    assert cfg.game == "punto-banco" and cfg.rules.decks == 8


def test_standard_blackjack_refuses_a_dealer_who_draws_soft_17() -> None:
    """Rule 4.2: "draw on 16 and stand on 17"; only Touch 21 draws soft 17 (rule 7.2)."""
    with pytest.raises(ConfigError) as err:
        parse(blackjack_config(extra="dealer_hits_soft_17 = true"))
    assert "blackjack.dealer_hits_soft_17" in str(err.value) and "rule 4.2" in str(err.value)
    assert not parse(blackjack_config(extra="dealer_hits_soft_17 = false")).rules \
        .dealer_hits_soft_17
    with pytest.raises(ConfigError, match=r"rule 7\.2"):
        parse(blackjack_config("touch-21", "dealer_hits_soft_17 = false").replace(
            "decks = 6 ", "decks = 2 "))


def test_games_lists_every_registered_game_with_its_rule_sections() -> None:
    from click.testing import CliRunner

    from kiosk.cli import main

    out = CliRunner().invoke(main, ["games"])
    assert out.exit_code == 0
    lines = out.output.splitlines()
    # The titles in one column after the longest name (mini-baccarat), two spaces apart.
    assert lines[0].startswith("punto-banco    Punto banco (also baccarat, punto_banco): "
                               "rules 2, 5.1-5.7; [punto_banco], devices: shoe")
    assert lines[1].startswith("blackjack      Blackjack: rules 2, 4.1-4.7")
    assert lines[2].startswith("touch-21       Touch 21 (also touch21): rules 2, 7.1-7.7")
    assert any(line.startswith("mini-baccarat  Mini baccarat (also mini_baccarat, "
                               "minibaccarat): rules 2, 5.1-5.7, 12.1-12.5") for line in lines)
    width = max(len(line.split(" ")[0]) for line in lines)
    assert {line[width:width + 2] for line in lines} == {"  "}
    assert all(line[width + 2] != " " for line in lines)


def test_each_device_has_its_own_section_with_its_protocol() -> None:
    """`[devices.<role>]`: the shoe (simulated unless configured) and a shuffler when the
    table has one; a role or a dialect the protocols do not know is refused."""
    cfg = parse(EXAMPLE)
    assert [(d.role, d.port, d.protocol) for d in cfg.devices] == [
        ("shoe", "simulated", "shoe-line")]
    assert cfg.device("shuffler") is None
    text = EXAMPLE + '\n[devices.shuffler]\nport = "/dev/tableside-shuffler"\nbaudrate = 19200\n'
    cfg = parse(text)
    shuffler = cfg.device("shuffler")
    assert shuffler is not None and (shuffler.port, shuffler.baudrate, shuffler.protocol) == (
        "/dev/tableside-shuffler", 19200, "shuffler-line")
    with pytest.raises(ConfigError, match=r"devices.shuffler.dialect: must be one of line"):
        parse(text + 'dialect = "plain"\n')
    with pytest.raises(ConfigError, match=r"unknown key \(did you mean shuffler\?\)"):
        parse(EXAMPLE + '\n[devices.shufler]\nport = "x"\n')


def test_the_roulette_example_names_its_wheel_and_is_valid() -> None:
    from kiosk.config import example, parse

    text = example("roulette")
    assert "[devices.wheel]" in text and "[devices.shoe]" not in text
    cfg = parse(text)
    assert cfg.device("wheel") is not None and cfg.device("wheel").protocol == "wheel-ss2"
    assert cfg.rules.limits.straight_up_maximum == 50_000


def test_nesting_past_64_is_refused_before_tomls_reader_recurses() -> None:
    """Refused by counting, not by a RecursionError inside tomllib (which can leave Python
    3.11 unable to parse anything else in the process); brackets in strings and comments
    nest nothing."""
    from kiosk.config import MAX_NESTING, ConfigError, _toml

    deep = "x = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n"
    with pytest.raises(ConfigError, match="nested too deep to read"):
        _toml(deep, "t.toml")
    fine = ("x = " + "[" * MAX_NESTING + "]" * MAX_NESTING + "\n"
            'y = "[[[[[[[[[[" # ' + "[" * 200 + "\nz = '''\n" + "{" * 200 + "\n'''\n")
    assert _toml(fine, "t.toml")["y"] == "[[[[[[[[[["

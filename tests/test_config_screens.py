"""The configuration refuses screens and names the layouts cannot serve, with the reason
("Sizes the layout can't serve are refused by the config with the reason")."""

from __future__ import annotations

import re

import pytest

from kiosk.config import MAX_NAME, ConfigError, example, parse

BASE = example("punto-banco")


def _with_display(**values: int) -> str:
    lines = "\n".join(f"{k} = {v}" for k, v in values.items())
    sizes = re.sub(r"(?m)^(width|height|signage_width|signage_height) = .*\n", "", BASE)
    return sizes.replace("[display]\n", f"[display]\n{lines}\n")


@pytest.mark.parametrize(("display", "words"), [
    ({"width": 480, "height": 800}, "is portrait: the dealer screen is laid out for a "
                                    "landscape touchscreen"),
    ({"width": 640, "height": 480}, "smaller than 800x480"),
    ({"width": 1920, "height": 800}, r"2.40:1; the layouts serve 16:10 to 16:9"),
    ({"width": 800, "height": 600}, r"1.33:1; the layouts serve 16:10 to 16:9"),
    ({"width": 1024, "height": 768}, r"1.33:1"),
    ({"width": 2560, "height": 1440}, "larger than 1920x1080"),
    ({"signage_width": 400, "signage_height": 300}, "smaller than 800x480"),
    ({"signage_width": 480, "signage_height": 1920}, "4.00:1"),
    ({"signage_width": 480, "signage_height": 800}, "a portrait sign is laid out for a full "
                                                    "HD screen on its side"),
    ({"signage_width": 3840, "signage_height": 2160}, "set the screen to 1920x1080"),
])
def test_screens_the_layouts_cannot_serve_are_refused(display: dict[str, int],
                                                      words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        parse(_with_display(**display))


@pytest.mark.parametrize("display", [
    {"width": 800, "height": 480}, {"width": 1024, "height": 600},
    {"width": 1280, "height": 800}, {"width": 1920, "height": 1080},
    {"signage_width": 1080, "signage_height": 1920},  # a portrait sign
    {"signage_width": 1280, "signage_height": 720},  # 16:9 between the proved sizes
])
def test_the_sizes_the_layout_tests_prove_are_accepted(display: dict[str, int]) -> None:
    cfg = parse(_with_display(**display))
    assert cfg.display.width >= cfg.display.height


def test_a_table_name_longer_than_the_signs_show_is_refused() -> None:
    assert MAX_NAME == 32
    ok = parse(BASE.replace('name = "Punto Banco 1"', f'name = "{"N" * MAX_NAME}"'))
    assert ok.name == "N" * 32
    with pytest.raises(ConfigError, match=r"line 4: table.name: at most 32 characters \(33"):
        parse(BASE.replace('name = "Punto Banco 1"', f'name = "{"N" * 33}"'))

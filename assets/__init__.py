"""The art that ships with Tableside: fonts and the gettext catalogues (docs/architecture.md:
assets/). A package, so a wheel (the SD image's) carries them like the code."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
FONTS = HERE / "fonts"
LOCALE = HERE / "locale"

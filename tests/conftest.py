"""What every test shares: the screens' language and styles are put back after each test
(kiosk/i18n.py keeps them process-wide, as a running kiosk does), so no test sees the one
before it in Afrikaans or with spaced money."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kiosk import i18n


@pytest.fixture(autouse=True)
def _the_house_language_put_back() -> Iterator[None]:
    yield
    i18n.use(i18n.SOURCE)
    i18n.set_money_style(i18n.MoneyStyle.COMMAS)
    i18n.set_odds_style(i18n.OddsStyle.RATIO)

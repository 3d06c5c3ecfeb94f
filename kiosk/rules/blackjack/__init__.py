"""Standard blackjack (section 4), Touch 21 (section 7) and the shuffle and cut."""

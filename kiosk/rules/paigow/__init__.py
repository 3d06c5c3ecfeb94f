"""Pai gow tiles (the Mpumalanga table game rules, section 13): the 32 tiles, hands, the
house way, the three banking procedures (13.1-13.3) and the engine."""

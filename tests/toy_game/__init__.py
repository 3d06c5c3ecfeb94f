"""High card: a toy game that proves the game seam (docs/adding-a-game.md). Everything it
needs is in this package; `spec.py` registers it with one line."""

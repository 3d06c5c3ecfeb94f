"""The players' signage for punto banco, blackjack and Touch 21: its own process on the second
display, following the table's journal (docs/architecture.md: "The signage is its own process").

- `feed.JournalFeed`: follows the journal another process writes, folds it into the state of
  the game its table was opened for.
- `signage.PuntoBancoSignage`: punto banco's limits and odds (rules 2.2, 2.6), the call, the hands,
  the roads.
- `blackjack_view.BlackjackSignage`: blackjack's and Touch 21's limits, odds, the dealer's
  drawing rule, the call, the dealer's cards and the shoe (never the burned card).
- `link.Link`: how the signage is linked to the journal, shown on both screens.
- `app`: `SignageApp`, the click command `signage` and `python -m kiosk.ui.signage`.

Importing this package does not import Kivy.
"""

"""The players' signage for punto banco: its own process on the second display, following
the table's journal (DESIGN.md: "The signage is its own process").

- `feed.JournalFeed`: follows the journal another process writes, folds it into state.
- `signage.SignageScreen`: limits and odds (rules 2.2, 2.6), the call, the hands, the roads.
- `app`: `SignageApp`, the click command `signage` and `python -m kiosk.ui.signage`.

Importing this package does not import Kivy.
"""

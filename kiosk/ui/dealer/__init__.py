"""The dealer's touchscreen: one screen per game, each a class with its .kv file beside it."""

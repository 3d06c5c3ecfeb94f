"""Tableside."""

from kiosk import native

native.install()  # the compiled blackjack engine, when a build matches the source

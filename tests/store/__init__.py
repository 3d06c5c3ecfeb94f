"""Tests of the journal (kiosk/store)."""

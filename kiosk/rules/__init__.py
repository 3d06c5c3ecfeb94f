"""Tableside."""

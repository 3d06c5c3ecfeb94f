"""The roulette wheel controller: the Cammegh SS2 protocol (shared/specs/wheel-ss2.md)."""

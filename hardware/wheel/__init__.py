"""The roulette wheel controller: the Cammegh SS2 protocol (docs/protocols/wheel-ss2.md)."""

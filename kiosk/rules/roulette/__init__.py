"""American roulette (rules section 3) on a single-zero wheel; double zero as a house option."""

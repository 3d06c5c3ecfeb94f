"""Device simulators that speak the devices' own bytes (docs/architecture.md)."""

from hardware.simulators.shoe import (
    Dealt,
    Fate,
    FaultPlan,
    PtyLink,
    ShoeSimulator,
    TcpLink,
    run_paced,
)

__all__ = ["Dealt", "Fate", "FaultPlan", "PtyLink", "ShoeSimulator", "TcpLink", "run_paced"]

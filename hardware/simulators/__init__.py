"""Device simulators that speak the devices' own bytes (DESIGN.md "Devices")."""

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

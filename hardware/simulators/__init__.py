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
from hardware.simulators.shuffler import (
    PtyDevice,
    ShufflerFaults,
    ShufflerSimulator,
    run_shuffler,
)

__all__ = ["Dealt", "Fate", "FaultPlan", "PtyDevice", "PtyLink", "ShoeSimulator",
           "ShufflerFaults", "ShufflerSimulator", "TcpLink", "run_paced", "run_shuffler"]

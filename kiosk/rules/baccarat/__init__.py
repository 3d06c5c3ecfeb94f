"""Punto banco (section 5 of the Mpumalanga rules), the game's package: the engine
(`engine.py`), the coup's result (`outcomes.py`), the roads (`roads.py`), its configuration,
replay audit, simulated dealer and registration (`spec.py`)."""

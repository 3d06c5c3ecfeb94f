"""Punto banco (section 5 of the Mpumalanga rules): its configuration, replay audit and
registration. The engine is `kiosk.rules.punto_banco`, the roads `kiosk.rules.roads`."""

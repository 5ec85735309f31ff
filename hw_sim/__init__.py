"""The far side of every wire: simulated serial clocks, scripted GPIO presses, player models, faults."""

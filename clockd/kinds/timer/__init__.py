"""The hall timer: one clock for the whole hall, its signals, buzzers and finish stations."""

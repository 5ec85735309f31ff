"""The clock wire protocol: frames <-> typed messages. Pure: no I/O, no threads, no clock (see SPEC.md)."""

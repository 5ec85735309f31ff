"""Speed measurements. ``python -m benchmarks`` (``make bench``) runs them all; each prints
its figures and one JSON line, so runs can be compared. Machines are shared and noisy:
compare ratios within one run, not absolute numbers across runs.
"""

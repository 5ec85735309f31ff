"""Drivers that turn hardware into domain events: serial (pyserial), GPIO (gpiozero), simulated.

See :mod:`clockd.devices.base` for the interface they all implement.
"""

"""unox: the host brain for the UNO Extreme card launcher."""

__version__ = "0.1.0"

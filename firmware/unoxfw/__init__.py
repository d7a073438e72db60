# unoxfw: the unox launcher firmware (MicroPython); see docs/protocol.md for its parts and the link.
__version__ = "0.1.0"

"""unoxsim: the virtual launcher (fake `machine`, launcher physics, the real firmware on virtual time).

Importing this package registers the `sim://` URL scheme with pyserial (`register()`, idempotent), so
`serial.serial_for_url("sim://?seed=1")` works after `import unoxsim`. `unox.launcher` may also call
`unoxsim.register()` explicitly; both are fine. Nothing heavier is imported here.
"""

import serial

__all__ = ["register"]


def register() -> None:
    """Add this package to pyserial's URL handler packages, so `sim://` finds `unoxsim.protocol_sim`."""
    if __name__ not in serial.protocol_handler_packages:
        serial.protocol_handler_packages.append(__name__)


register()

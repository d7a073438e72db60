"""1. Boot on the emulated Pico: the watchdog first, HELLO to the host, the heap left after boot."""

from __future__ import annotations

from unoxsim.pico import heap_after_boot

WDT_MS = 5000  # firmware/main.py's first line (unoxfw.runner.WDT_MS)


def test_main_drives_the_motor_pins_low_then_arms_the_watchdog_before_it_builds_the_board(pico):
    device = pico()
    info = device.boot_info
    motor_pads = [info["first_out"][str(device.pins[name])] for name in ("motor_in1", "motor_in2")]
    assert info["armed"] is not None and info["wdt_ms"] == WDT_MS
    # issue 23: GP14/GP15 are driven (low) by main.py's first statements, then the watchdog is armed (a Pico
    # 2's pads can keep their level over a watchdog reset until someone drives them)
    assert max(motor_pads) < info["armed"]
    for name in ("motor_in1", "motor_in2"):
        assert all(duty == 0 for _, duty in device.wire(name).history), name  # never high during the boot


def test_hello_reaches_the_host_driver_with_the_firmware_version(pico, host):
    device = pico()
    status = host(device).status()
    assert status.firmware == "0.1.0"
    assert device.boots == 1


def test_heap_free_after_boot_is_read_on_the_chip_with_gc_mem_free(pico):
    # main.py's own boot, run in the REPL after Ctrl-C: the firmware's objects stay alive while measured
    device = pico()
    heap = heap_after_boot(device)
    assert 100_000 < heap < 240_000  # the RP2040's 264 KB SRAM less MicroPython's own: a real figure



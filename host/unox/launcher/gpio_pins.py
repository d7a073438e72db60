"""Default BCM pins of the direct-GPIO build. Generated from hardware/pins.toml by hardware/gen_pins.py."""

PINS: dict[str, int] = {
    "motor_in1": 12,
    "motor_in2": 13,
    "beam": 17,
    "button": 27,
    "lid": 22,
    "buzzer": 18,
    "heartbeat": 24,
}

# Generated from hardware/pins.toml by hardware/gen_pins.py: do not edit by hand.
# Pico GPIO numbers and the battery divider.
PINS = {
    "motor_in1": 14,
    "motor_in2": 15,
    "beam": 16,
    "button": 17,
    "lid": 18,
    "buzzer": 13,
    "battery_adc": 26,
    "led": 25,
}
BATTERY = {
    "r_top_ohm": 47000,
    "r_bottom_ohm": 47000,
    "adc_ref_mv": 3300,
    "nominal_mv": 4500,
    "low_mv": 3900,
    "crit_mv": 3300,
}

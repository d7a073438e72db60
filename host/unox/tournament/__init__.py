"""Tables that play together: a round-robin tournament coordinated over an MQTT broker (docs/tournament.md).

paho-mqtt is imported only by the modules that talk to the broker, and only by the commands that use them.
"""

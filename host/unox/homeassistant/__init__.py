"""The launcher and its table in Home Assistant, by MQTT discovery (`--mqtt`, docs/install.md)."""

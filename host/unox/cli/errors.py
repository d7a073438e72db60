"""Errors a command raises for the user to fix: one line, exit status 1."""


class CommandError(Exception):
    """A failure the user can fix; printed as one line, exit status 1."""

"""Errors a command raises for the user to fix: one line, exit status 1 (2 for a usage error)."""


class CommandError(Exception):
    """A failure the user can fix; printed as one line, exit status 1."""


class UsageError(CommandError):
    """An option's value refused after parsing: argparse's usage error (the command's usage, then one line
    `unox CMD: error: ...`, exit status 2), as every option checked while parsing gives."""

"""The one error the tools report to the user."""


class UserError(Exception):
    """A mistake in the command line, the model or the input files: the
    tools report it as one line, without a traceback."""


class UsageError(UserError):
    """A mistake in the command line itself (options that do not go
    together): the tools exit with status 2 for it."""


def first_line(e):
    """The first line of an exception's message."""
    return str(e).strip().split('\n')[0]

"""The REPL when stdin is not a terminal (`earl repl TRACE < commands.txt`): inputs are
read line by line, without prompt_toolkit, prompts or colour, so sessions can be scripted
and their output diffed. Code spanning lines runs once it is complete (a Python block
ends with an empty line, as in Python's own REPL); a line starting with `:` is always a
command, and code still waiting for more lines runs before it. Errors name the line of
stdin."""


def run(shell, lines, name="<stdin>"):
    """Feeds `lines` (an iterable of text lines) to `shell`; returns the status code that
    exited (exit(3): 3), else 1 if any input failed, else 0."""
    pending, first = [], 1
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if pending and line.startswith(":"):
            if not shell.handle("\n".join(pending), (name, first)):
                return _status(shell)
            pending = []
        if not pending:
            first = number
        pending.append(line)
        text = "\n".join(pending)
        if shell.is_complete(text):
            pending = []
            if not shell.handle(text, (name, first)):
                break
    else:
        if pending:  # unfinished code at the end: run it, so its error is reported
            shell.handle("\n".join(pending), (name, first))
    return _status(shell)


def _status(shell):
    if shell.exit_status is not None:
        return shell.exit_status
    return 1 if shell.errors else 0

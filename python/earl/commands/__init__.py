"""The command faces of `earl`, one module per command (DESIGN.md section 5).

Each has HELP (one line), optionally DESCRIPTION, configure(parser) and run(args) -> exit
code; earl.cli.COMMANDS lists them. The work itself is done by the library modules they
import (earl.generate, earl.info, earl.convert, ...), which the REPL and tests use too.
"""

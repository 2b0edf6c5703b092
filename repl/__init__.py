"""`earl repl [TRACE]`: walk a trace interactively in Python, Lua or Tcl.

The command's face is earl/commands/repl.py (the command line imports it when it builds
its parser); these modules are imported only when the command runs:

    session.py     the trace, its iterator and the moves (back, marks, time)
    languages.py   the languages' table; lang_python/lang_lua/lang_tcl their evaluators
    commands.py    the `:` commands, one table (help, completion and dispatch read it)
    shell.py       one input -> a command or code, output and one-line errors
    render.py      event, stacks, queue, where;  timeline.py  the text timeline
    scripted.py    stdin not a terminal: line by line, no colour
    interactive.py prompt_toolkit: history, suggestions, completion (completion.py),
                   toolbar, highlighting;  view.py  the full-screen live view
    demo_trace.py  the built-in demo trace, generated on the fly
"""

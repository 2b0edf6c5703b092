// Ctrl-C for Lua run inside another program (Python through lupa). Lua holds the thread
// while it runs, so the host's SIGINT handler cannot act until Lua calls the host: a count
// hook calls the host's poll function now and then (Python runs its pending signal
// handlers there), and an error the poll raises (KeyboardInterrupt) unwinds the script.
// The standalone lua5.4 needs none of this: it stops scripts on SIGINT by itself.
#pragma once
#include <lua.hpp>

namespace earl::lua {

// earl._interruptible(poll): from now on the calling thread, and every coroutine created
// from it, calls poll() every kPollCount instructions.
int interruptible(lua_State* L);

// For C++ work that runs long without returning to Lua (a pass over every event): calls the
// host's poll function as the hook does; false where it raised, its error then kept to
// unwind the script as the hook's would (the work stops with earl::Interrupted, and
// protect() raises the kept error: push_interrupt).
bool poll_host(lua_State* L);
// Pushes the error of the interrupt unwinding the script and returns true; false, pushing
// nothing, where none is.
bool push_interrupt(lua_State* L);

}  // namespace earl::lua

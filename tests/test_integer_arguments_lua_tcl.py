"""Integer arguments of the Lua and Tcl mappings at and beyond 64 bits (issue 22, class 6):
a value no 64-bit argument holds is an error naming the argument, never wrapped (Tcl 8.6
read `t queue 18446744073709551615 0` as src -1, "any source"); 2^63-1 and -2^63 go
through to the core's own checks. One reader per binding (tcl_support.cpp's
integer_argument, lua_support.cpp's) serves every method; the cases sample them."""
import pytest

import earl
import earl.lua
from test_tcl_common import error_of, interp, needs_extension

RANGE = "must be an integer from -2^63 to 2^63-1"


@pytest.fixture(scope="module")
def tcl(hand):
    t = interp()
    t.tk.call("set", "path", hand)
    t.eval("EventTrace e -file $path; set old [earl open $path]")
    return t


@needs_extension
@pytest.mark.parametrize("call, message", [
    ("e queue 18446744073709551615 0", f'e queue: src {RANGE} (got "18446744073709551615")'),
    ("e queue 0 0xFFFFFFFFFFFFFFFF", f'e queue: dest {RANGE} (got "0xFFFFFFFFFFFFFFFF")'),
    ("e queue -1 -1 9223372036854775808", f'e queue: pos {RANGE} (got "9223372036854775808")'),
    ("e stack 0 18446744073709551615", f'e stack: pos {RANGE} (got "18446744073709551615")'),
    ("e event ev 18446744073709551615", f'e event: pos {RANGE} (got "18446744073709551615")'),
    ("e jump 18446744073709551615", f'e jump: pos {RANGE} (got "18446744073709551615")'),
    ("e members 18446744073709551615", f'e members: group {RANGE} (got "18446744073709551615")'),
    ("e ranks 9223372036854775808", f'e ranks: com {RANGE} (got "9223372036854775808")'),
    ("e locsym 18446744073709551615", f'e locsym: loc {RANGE} (got "18446744073709551615")'),
    ("e event ev 1.5", 'e event: pos must be an integer (got "1.5")'),
    # in 64 bits but no location (locations are 32-bit), and the extremes of 64 bits
    ("e queue 2147483648 0", "e queue: src 2147483648 is not a location"),
    ("e queue -1 -1 9223372036854775807",
     "no event at position 9223372036854775807 (the trace has 17 events, numbered from 1)"),
    ("e stack 0 -9223372036854775808", "no event at position -9223372036854775808 (positions are numbered from 1)"),
    ("EventTrace x -file $path -bdist 18446744073709551615",
     'EventTrace: -bdist must be a nonnegative integer (got "18446744073709551615")'),
    ("$old get 18446744073709551615", 'earltrace0 get: n ' + RANGE + ' (got "18446744073709551615")'),
    ("$old queue 18446744073709551615", 'earltrace0 queue: dest ' + RANGE + ' (got "18446744073709551615")'),
])
def test_tcl_integers_beyond_64_bits_are_errors(tcl, call, message):
    assert error_of(tcl, call) == message


@needs_extension
def test_tcl_extremes_that_fit_are_answers(tcl):
    # -1 written plainly is still "any"; 2^63-1 jumps nowhere (0), the iterator stays
    assert tcl.eval("e queue -1 -1 5") == "5"
    assert tcl.eval("e jump 3; e jump 9223372036854775807") == "0"
    assert tcl.eval("e iterator") == "3"


@pytest.fixture(scope="module")
def lua(hand):
    runtime = earl.lua.runtime()
    runtime.globals().path = hand
    runtime.execute("e = EventTrace(path)")
    return runtime


def lua_error(lua, code):
    with pytest.raises(earl.lua._lua54().LuaError) as caught:
        lua.execute(code)
    return earl.lua._first_line(caught.value).split(": ", 1)[1]


@pytest.mark.parametrize("code, message", [
    ("e:queue(18446744073709551615, 0)", f"EventTrace:queue: src {RANGE} (got 1.8446744073709552e+19)"),
    ("e:queue(-1, -1, 2^63)", f"EventTrace:queue: pos {RANGE} (got 9.2233720368547758e+18)"),
    ("e:stack(0, -2^64)", f"EventTrace:stack: pos {RANGE} (got -1.8446744073709552e+19)"),
    ("e:jump(1e300)", f"EventTrace:jump: pos {RANGE} (got 1.0000000000000001e+300)"),
    ("e:members(2^64)", f"EventTrace:members: group {RANGE} (got 1.8446744073709552e+19)"),
    ("e:event(1.5)", "EventTrace:event: pos must be an integer (got 1.5)"),
    ("e:jump(0/0)", "EventTrace:jump: pos must be an integer (got -nan)"),
    ("e:queue(math.maxinteger, 0)", "EventTrace:queue: src 9223372036854775807 is not a location"),
    ("e:queue(-1, -1, math.mininteger)", "no event at position -9223372036854775808 (positions are numbered from 1)"),
    ("EventTrace{file = path, bdist = 2^63}", f"EventTrace: bdist {RANGE} (got 9.2233720368547758e+18)"),
])
def test_lua_integers_beyond_64_bits_are_errors(lua, code, message):
    assert lua_error(lua, code) == message


def test_lua_whole_floats_that_fit_are_integers(lua):
    # Lua's own rule: 2.0 is the integer 2; 0xFFFFFFFFFFFFFFFF is -1 in Lua itself
    assert lua.execute("return e:event(2.0).pos") == 2
    assert lua.execute("return e:jump(9223372036854775807)") is None

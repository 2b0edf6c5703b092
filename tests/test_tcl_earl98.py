"""The 1998 Tcl dialect (thesis chapter 6; conformance sections C and D): `earl open`, the
trace object's get/set/getnext/setnext/getprev/setprev/reset/stack/queue/info/close,
`earl stat` objects, `earl help`, earl_precision, the 1998 attribute names and -1 for
"none", each set against the EARL 2.0 mapping where the two differ."""
import pytest

import earl
from test_tcl_common import as_list, error_of, interp, needs_extension, needs_tclsh, tclsh_eval
from script_checks import have_otf2

pytestmark = needs_extension


@pytest.fixture
def tcl(hand):
    t = interp()
    t.tk.call("set", "path", hand)
    t.eval("set t [earl open $path]")
    return t


def pairs(tcl, text):
    words = as_list(tcl, text)
    return dict(zip(words[::2], words[1::2]))


def array(tcl, name):
    return pairs(tcl, tcl.eval(f"array get {name}"))


ALL14 = ["num", "node", "time", "type", "enterptr", "region", "group", "src", "dest", "tag", "com",
         "len", "sendptr", "data"]


# ------------------------------------------------------------------ C1-C6 the model
def test_c1_numbering_and_time_order(tcl):
    nums, last_time, per_node = [], -1.0, {}
    while True:
        got = tcl.eval("$t getnext")
        if got == "-1":
            break
        ev = pairs(tcl, got)
        nums.append(int(ev["num"]))
        time = float(ev["time"])
        assert time >= last_time
        assert time > per_node.get(ev["node"], -1.0)
        last_time, per_node[ev["node"]] = time, time
    assert nums == list(range(1, 18))


def test_c2_attributes_per_type_in_table_order(tcl):
    assert tcl.eval("$t get 1") == "num 1 node 0 time 0.000000000 type enter enterptr -1 region main group All"
    assert tcl.eval("$t get 5") == "num 5 node 0 time 0.000011000 type send enterptr 4 dest 1 tag 1 com -1 len 100"
    assert tcl.eval("$t get 10") == ("num 10 node 1 time 0.000016000 type recv enterptr 3 src 0 tag 2 com -1 "
                                     "len 50 sendptr 8")
    assert tcl.eval("$t get 12") == "num 12 node 0 time 0.000018000 type marker enterptr 1 data 42"
    assert tcl.eval("$t get 17") == "num 17 node 1 time 0.000050000 type exit enterptr 2 region main group All"


@pytest.mark.skipif(not have_otf2(), reason="no OTF2")
def test_c3_every_event_agrees_with_python_on_a_generated_otf2(tmp_path):
    from earl.generate import generate

    path = tmp_path / "g.otf2"
    generate(path, locations=3, events=1500, seed=5)
    tcl = interp()
    tcl.tk.call("set", "path", str(path))
    tcl.eval("set t [earl open $path]; set earl_precision 12")
    py = earl.EventTrace(str(path))
    n = 0
    while py.next():
        n += 1
        want = py.event()
        tcl.eval("$t setnext ev")
        got = array(tcl, "ev")
        assert int(got["num"]) == want["pos"] and int(got["node"]) == want["loc"]
        assert float(got["time"]) == pytest.approx(want["time"], abs=1e-12)
        assert int(got["enterptr"]) == (want["enterptr"] or -1)
        for name in ("src", "dest", "tag", "com", "len"):
            if want["type"] in ("send", "recv") and name in want:
                assert int(got[name]) == want[name], name
        if "sendptr" in want:
            assert int(got["sendptr"]) == (want["sendptr"] or -1)
        if "region" in want:
            assert got["region"] == want["region"] and got["group"] == py.group(want["region"])
    assert n == len(py) and tcl.eval("$t setnext ev") == "-1"


def test_c5_c6_state_after_exits_and_receives(tcl):
    tcl.eval("$t get 9")
    assert as_list(tcl, tcl.eval("$t stack 0")) == ["1"]      # the exit popped MPI_Send
    assert as_list(tcl, tcl.eval("$t queue")) == ["8", "5"]
    tcl.eval("$t get 10")
    assert as_list(tcl, tcl.eval("$t queue")) == ["5"]        # recv took tag 2's send (8)
    assert pairs(tcl, tcl.eval("$t get 4"))["enterptr"] == "1"
    assert pairs(tcl, tcl.eval("$t get 2"))["enterptr"] == "-1"


# ------------------------------------------------------------------ C7-C10 opening
def test_c7_no_trace_objects_before_earl_open(hand):
    t = interp()
    assert t.eval("info commands earl") == "earl"
    assert t.eval("info commands earltrace*") == ""


def test_c8_open_returns_the_command_name(hand):
    t = interp()
    t.tk.call("set", "path", hand)
    assert t.eval("earl open $path") == "earltrace0"
    assert t.eval("earl open $path") == "earltrace1"
    assert t.eval("earl open $path mytrace") == "mytrace"
    assert t.eval("earl open $path other -format alog -hist 5 -mark 3") == "other"
    assert error_of(t, "earl open $path mytrace") == 'earl open: a command named "mytrace" already exists'
    assert error_of(t, "earl open $path puts") == 'earl open: a command named "puts" already exists'


@pytest.mark.parametrize("options, message", [
    ("-hist 0", 'earl open: -hist must be a positive integer (got "0")'),
    ("-hist many", 'earl open: -hist must be a positive integer (got "many")'),
    ("-mark -1", 'earl open: -mark must be a nonnegative integer (got "-1")'),
    ("-mark 2.5", 'earl open: -mark must be a nonnegative integer (got "2.5")'),
    ("-mark", "earl open: option -mark needs a value"),
    ("-speed 3", 'bad option "-speed": must be -format, -mark, or -hist'),
])
def test_c9_option_values_are_checked(tcl, options, message):
    assert error_of(tcl, f"earl open $path x {options}") == message
    assert tcl.eval("info commands x") == ""


@pytest.mark.parametrize("mark", [0, 1, 4])
def test_c10_c33_any_bookmark_distance_reads_every_event_both_ways(tcl, mark):
    tcl.eval(f"set u [earl open $path -mark {mark} -hist 2]")
    forward = []
    while (got := tcl.eval("$u getnext")) != "-1":
        forward.append(got)
    backward = [forward[-1]]
    while (got := tcl.eval("$u getprev")) != "-1":
        backward.append(got)
    assert backward[::-1] == forward and len(forward) == 17
    assert tcl.eval("$u get 3 -fetchonly") == forward[2] and tcl.eval("$u get 16") == forward[15]


# ------------------------------------------------------------------ C11-C16 reading
def test_c11_c12_the_pointer_follows_reads_unless_fetchonly(tcl):
    assert pairs(tcl, tcl.eval("$t getnext"))["num"] == "1"
    tcl.eval("$t get 5")
    assert pairs(tcl, tcl.eval("$t getnext"))["num"] == "6"
    tcl.eval("$t get 15 -fetchonly")
    assert pairs(tcl, tcl.eval("$t getnext"))["num"] == "7"
    assert tcl.eval("$t get 0") == "-1" and tcl.eval("$t get 18") == "-1" and tcl.eval("$t get -4") == "-1"
    assert pairs(tcl, tcl.eval("$t getnext"))["num"] == "8"   # failures leave the pointer alone


def test_c13_getnext_getprev_at_the_ends(tcl):
    assert tcl.eval("$t getprev") == "-1"
    tcl.eval("$t get 17")
    assert tcl.eval("$t getnext") == "-1"
    assert pairs(tcl, tcl.eval("$t getprev"))["num"] == "16"
    tcl.eval("$t get 1")
    assert tcl.eval("$t getprev") == "-1"
    assert pairs(tcl, tcl.eval("$t getnext"))["num"] == "2"


def test_c14_set_writes_all_14_elements(tcl):
    assert tcl.eval("$t set a 5") == "5"
    got = array(tcl, "a")
    assert sorted(got) == sorted(ALL14)
    assert got == {"num": "5", "node": "0", "time": "0.000011000", "type": "send", "enterptr": "4",
                   "region": "", "group": "", "src": "", "dest": "1", "tag": "1", "com": "-1",
                   "len": "100", "sendptr": "", "data": ""}
    tcl.eval("$t set a 1")
    assert array(tcl, "a")["dest"] == "" and array(tcl, "a")["region"] == "main"
    # a failed set returns -1 and leaves the array as it was
    assert tcl.eval("$t set a 99") == "-1" and array(tcl, "a")["num"] == "1"
    assert tcl.eval("$t set b 0") == "-1" and tcl.eval("info exists b") == "0"


def test_c15_setnext_setprev(tcl):
    assert tcl.eval("$t setnext a") == "1" and tcl.eval("$t setnext a") == "2"
    assert tcl.eval("$t setprev a") == "1" and tcl.eval("set a(num)") == "1"
    assert tcl.eval("$t setprev a") == "-1" and tcl.eval("set a(num)") == "1"
    tcl.eval("$t get 17")
    assert tcl.eval("$t setnext a") == "-1"


def test_c16_reset(tcl):
    tcl.eval("$t get 12; $t reset")
    assert pairs(tcl, tcl.eval("$t getnext"))["num"] == "1"


@pytest.mark.parametrize("command, message", [
    ("$t get", 'wrong # args: should be "earltrace0 get n ?-fetchonly?"'),
    ("$t get five", 'earltrace0 get: n must be an integer (got "five")'),
    ("$t get 5 -quietly", 'earltrace0 get: bad option "-quietly": must be -fetchonly'),
    ("$t set a", 'wrong # args: should be "earltrace0 set arr n ?-fetchonly?"'),
    ("$t setnext", 'wrong # args: should be "earltrace0 setnext arr"'),
    ("$t getnext 3", 'wrong # args: should be "earltrace0 getnext"'),
    ("$t rewind", 'bad method "rewind": must be get, set, getnext'),
])
def test_reading_errors(tcl, command, message):
    assert error_of(tcl, command).startswith(message)


# ------------------------------------------------------------------ C17-C20 state
def test_c17_state_at_the_pointer_only_and_empty_at_0(tcl):
    assert tcl.eval("$t stack 1") == "" and tcl.eval("$t queue") == ""
    tcl.eval("$t get 14 -fetchonly")                       # fetch only: still at 0
    assert tcl.eval("$t stack 1") == ""
    tcl.eval("$t get 13")
    assert as_list(tcl, tcl.eval("$t stack 1")) == ["13", "2"]


def test_c18_stack_youngest_first_and_by_name(tcl):
    tcl.eval("$t get 8")
    assert as_list(tcl, tcl.eval("$t stack 0")) == ["7", "1"]
    assert as_list(tcl, tcl.eval("$t stack 0 -sym")) == ["MPI_Send", "main"]
    assert as_list(tcl, tcl.eval("$t stack 1 -sym")) == ["MPI_Recv", "main"]
    assert error_of(tcl, "$t stack 0 -names") == 'earltrace0 stack: bad option "-names": must be -sym'


def test_c19_queue_dest_then_src(tcl):
    tcl.eval("$t get 9")
    assert as_list(tcl, tcl.eval("$t queue")) == ["8", "5"]      # youngest first
    assert as_list(tcl, tcl.eval("$t queue 1")) == ["8", "5"]    # sent to node 1
    assert tcl.eval("$t queue 0") == ""                          # nothing sent to node 0
    assert as_list(tcl, tcl.eval("$t queue 1 0")) == ["8", "5"]  # to 1 from 0
    assert tcl.eval("$t queue 1 1") == ""


@pytest.mark.parametrize("command, message", [
    ("$t stack 2", "earltrace0 stack: undefined nodenumber 2 (the trace has nodes 0..1)"),
    ("$t stack -1", "earltrace0 stack: undefined nodenumber -1 (the trace has nodes 0..1)"),
    ("$t queue 7", "earltrace0 queue: undefined nodenumber 7 (the trace has nodes 0..1)"),
    ("$t queue 1 9", "earltrace0 queue: undefined nodenumber 9 (the trace has nodes 0..1)"),
    ("$t stack one", 'earltrace0 stack: node must be an integer (got "one")'),
])
def test_c20_undefined_nodes_are_errors(tcl, command, message):
    assert error_of(tcl, command) == message


# ------------------------------------------------------------------ C21-C25 info
def test_c21_to_c25_info(tcl, hand):
    assert tcl.eval("$t info filename") == hand
    assert tcl.eval("$t info format") == "alog"
    assert tcl.eval("$t info nodecount") == "2"
    assert as_list(tcl, tcl.eval("$t info eventtypes")) == ["enter", "exit", "send", "recv", "marker"]
    assert tcl.eval("$t info attributes exit") == "node time type enterptr region group"
    assert tcl.eval("$t info attributes enter") == "node time type enterptr region group"
    assert tcl.eval("$t info attributes send") == "node time type enterptr dest tag com len"
    assert tcl.eval("$t info attributes recv") == "node time type enterptr src tag com len sendptr"
    assert tcl.eval("$t info attributes marker") == "node time type enterptr data"
    assert as_list(tcl, tcl.eval("$t info attributes")) == ALL14
    assert tcl.eval("$t info nodesym 1") == "worker"
    assert tcl.eval("$t info nodesym 0") == "node_0"
    assert as_list(tcl, tcl.eval("$t info regions")) == ["main", "MPI_Send", "MPI_Recv"]
    assert as_list(tcl, tcl.eval("$t info groups")) == ["All"]
    assert as_list(tcl, tcl.eval("$t info group All")) == ["main", "MPI_Send", "MPI_Recv"]


@pytest.mark.parametrize("command, message", [
    ("$t info attributes bcast", "info attributes: unknown event type 'bcast' (the types are enter exit send recv marker)"),
    ("$t info nodesym 2", "earltrace0 info nodesym: undefined nodenumber 2 (the trace has nodes 0..1)"),
    ("$t info group MPI", "unknown group 'MPI'"),
    ("$t info nodesym", 'wrong # args: should be "earltrace0 info nodesym node"'),
    ("$t info", 'wrong # args: should be "earltrace0 info subcommand ?arg?"'),
    ("$t info size", 'bad info subcommand "size": must be filename, format'),
])
def test_info_errors(tcl, command, message):
    assert error_of(tcl, command).startswith(message)


@pytest.mark.skipif(not have_otf2(), reason="no OTF2")
def test_c25_groups_of_a_format_that_has_them(tmp_path):
    from earl.generate import generate

    path = tmp_path / "g.otf2"
    generate(path, locations=2, events=400, seed=2)
    py = earl.EventTrace(str(path))
    tcl = interp()
    tcl.tk.call("set", "path", str(path))
    tcl.eval("set t [earl open $path]")
    assert as_list(tcl, tcl.eval("$t info groups")) == py.groups()
    for group in py.groups():
        assert as_list(tcl, tcl.eval(f"$t info group {{{group}}}")) == py.regions(group)
    assert as_list(tcl, tcl.eval("$t info group All")) == py.regions()


# ------------------------------------------------------------------ C26 close
def test_c26_close_removes_the_command(tcl):
    assert tcl.eval("$t close") == ""
    assert tcl.eval("info commands earltrace0") == ""
    assert error_of(tcl, "$t getnext") == 'invalid command name "earltrace0"'


# ------------------------------------------------------------------ C27-C31 statistics
def test_c27_c28_stat_objects(tcl):
    assert tcl.eval("earl stat") == "earlstat0"
    assert tcl.eval("earl stat so") == "so"
    for x in (4, 1, 3, 2, 5, 8):
        tcl.eval(f"so addval {x}")
    assert tcl.eval("so count") == "6"
    assert tcl.eval("so sum") == "23.000000000"
    assert tcl.eval("so min") == "1.000000000" and tcl.eval("so max") == "8.000000000"
    assert float(tcl.eval("so mean")) == pytest.approx(23 / 6, abs=1e-9)
    assert float(tcl.eval("so var")) == pytest.approx(6.166666667, abs=1e-9)
    for q in ("q25", "med", "q75"):
        assert 1 <= float(tcl.eval(f"so {q}")) <= 8
    # the 13 printed values rebuild it: earl stat with and without a name
    state = tcl.eval("so print")
    assert tcl.eval(f"earl stat copy {state}") == "copy"
    assert tcl.eval(f"earl stat {state}") == "earlstat1"
    for so in ("so", "copy", "earlstat1"):
        tcl.eval(f"{so} addval 7")
    assert tcl.eval("copy print") == tcl.eval("so print") == tcl.eval("earlstat1 print")


def test_c29_too_few_values(tcl):
    tcl.eval("earl stat so")
    for method in ("sum", "min", "mean", "max", "var", "q25", "med", "q75"):
        assert error_of(tcl, f"so {method}")
    tcl.eval("so addval 2.5")
    assert tcl.eval("so sum") == "2.500000000"
    assert "2" in error_of(tcl, "so var")         # var needs two values in 1998
    tcl.eval("so addval 3.5")
    assert tcl.eval("so var") == "0.500000000"
    for x in (1, 2, 3):
        assert error_of(tcl, "so med")
        tcl.eval(f"so addval {x}")
    assert tcl.eval("so med") == "2.500000000"
    assert error_of(tcl, "so reset").startswith('bad method "reset"')    # reset only in 2.0 (D12)
    assert error_of(tcl, "so addval many") == 'so addval: value must be a number (got "many")'


def test_c30_print_full_precision_general_format(tcl):
    tcl.eval("earl stat so; foreach x {0.1 0.2 0.3} {so addval $x}")
    printed = as_list(tcl, tcl.eval("so print"))
    assert len(printed) == 13
    py = earl.P2Statistic()
    for x in (0.1, 0.2, 0.3):
        py.add(x)
    assert [float(v) for v in printed] == py.state()
    assert printed[11] == "0.60000000000000009"    # %.17g, not the 9 decimals of the rest


@pytest.mark.parametrize("count", [2, 12, 15])
def test_c27_wrong_number_of_state_values(tcl, count):
    values = " ".join(["1"] * count)
    assert error_of(tcl, f"earl stat {values}") == \
        f'wrong # args: should be "earl stat ?obj? ?v1 ... v13?" (got {count} arguments)'


def test_c27_the_arguments_are_told_apart_by_their_number(tcl):
    # 13 words are a state: a name followed by 12 values is a state whose count is the name
    assert error_of(tcl, "earl stat x " + " ".join(["1"] * 12)) == \
        'earl stat: state item 1 (count) is not a number (got "x")'


def test_c27_bad_state_values_are_named(tcl):
    assert error_of(tcl, "earl stat x 1 2 3 4 5 6 7 8 9 10 11 12 z") == \
        'earl stat: state item 13 (m2) is not a number (got "z")'
    assert error_of(tcl, "earl stat so; earl stat so") == 'earl stat: a command named "so" already exists'


def test_c31_earl_precision_then_tcl_precision_then_9(tcl):
    assert dict_time(tcl) == "0.000011000"
    tcl.eval("set tcl_precision 4")
    assert dict_time(tcl) == "0.0000"
    tcl.eval("set earl_precision 7")
    assert dict_time(tcl) == "0.0000110"
    tcl.eval("set earl_precision 0")
    assert dict_time(tcl) == "0"
    tcl.eval("earl stat so; so addval 2; so addval 3")
    assert tcl.eval("so mean") == "2"     # 2.5 with no decimals, rounded to even as printf does
    for bad in ("18", "-1", "six", "2.5"):
        tcl.eval(f"set earl_precision {bad}")
        assert error_of(tcl, "$t get 5") == f'earl_precision must be an integer from 0 to 17 (got "{bad}")'
        assert error_of(tcl, "so mean").startswith("earl_precision must be")
    tcl.eval("unset earl_precision; set tcl_precision 0")          # 0: Tcl's "shortest", so 9
    assert dict_time(tcl) == "0.000011000"


def dict_time(tcl):
    return pairs(tcl, tcl.eval("$t get 5 -fetchonly"))["time"]


# ------------------------------------------------------------------ C32 help
def test_c32_help(tcl):
    formats = as_list(tcl, tcl.eval("earl help formats"))
    assert formats == earl._core.known_formats() and all(f == f.lower() for f in formats)
    assert tcl.eval("earl help version") == earl.__version__
    assert tcl.eval("package present earl") == earl.__version__
    assert error_of(tcl, "earl help colours").startswith('bad help topic "colours"')
    assert error_of(tcl, "earl frobnicate").startswith('bad subcommand "frobnicate": must be open, stat, or help')


# ------------------------------------------------------------------ D: 1998 against 2.0
def test_d_the_two_dialects_side_by_side(tcl):
    tcl.eval("EventTrace e -file $path")
    # D1, D2: enterptr -1 vs 0; num/node vs pos/loc; group attribute vs group(region)
    tcl.eval("$t set old 1 -fetchonly; e event new 1")
    assert (tcl.eval("set old(enterptr)"), tcl.eval("set new(enterptr)")) == ("-1", "0")
    assert (tcl.eval("set old(num)"), tcl.eval("set old(node)")) == (tcl.eval("set new(pos)"), tcl.eval("set new(loc)"))
    assert tcl.eval("set old(group)") == tcl.eval("e group $new(region)")
    # D3: stack youngest first vs ascending
    tcl.eval("$t get 8")
    assert as_list(tcl, tcl.eval("$t stack 0")) == as_list(tcl, tcl.eval("e stack 0 8"))[::-1]
    # D4: queue ?dest? ?src? vs queue src dest
    assert as_list(tcl, tcl.eval("$t queue 1 0")) == as_list(tcl, tcl.eval("e queue 0 1 8"))[::-1]
    # D5: 2.0 gives the state at any position, 1998 only at the pointer
    assert as_list(tcl, tcl.eval("e stack 1 3")) == ["2", "3"]
    # D6: an explicit read moves the 1998 pointer, never the 2.0 iterator
    tcl.eval("e event x 9")
    assert tcl.eval("e iterator") == "0"
    # D7: failures: -1 in 1998; an error, or 0 for moves, in 2.0
    assert tcl.eval("$t get 99") == "-1" and error_of(tcl, "e event x 99")
    assert tcl.eval("e jump 99") == "0"
    # D8: get's flat list is 2.0's attributes + values, renamed
    flat = as_list(tcl, tcl.eval("$t get 14 -fetchonly"))
    attributes = as_list(tcl, tcl.eval("e attributes 14"))
    values = as_list(tcl, tcl.eval("e values 14"))
    renamed = {"pos": "num", "loc": "node"}
    assert flat[0::2] == [renamed.get(a, a) for a in attributes]
    assert [v for a, v in zip(flat[0::2], flat[1::2]) if a != "time"] == \
        [v for a, v in zip(attributes, values) if a != "time"]
    # D10: nodesym falls back to node_i, locsym to the number
    assert (tcl.eval("$t info nodesym 0"), tcl.eval("e locsym 0")) == ("node_0", "0")
    # D12/D13: 2.0 statistics return doubles whatever earl_precision says
    tcl.eval("set earl_precision 2; P2Statistic p; p add 1; p add 2")
    assert tcl.eval("p mean") == "1.5" and tcl.eval("p var") == "0.5"
    assert tcl.eval("e event x 5; set x(time)") == "1.1e-5"


@needs_tclsh
def test_the_1998_commands_in_tclsh(tmp_path, hand):
    out = tclsh_eval(tmp_path, """
set t [earl open [lindex $argv 0]]
puts $t
puts [$t getnext]
$t setnext curr
puts "$curr(num) $curr(enterptr) $curr(group)"
$t get 8
puts [$t stack 0 -sym]
puts [$t queue]
puts [$t info nodesym 1]
set so [earl stat]
foreach x {1 2 3 4 5} {$so addval $x}
puts "[$so count] [$so med] [$so var]"
$t close
puts [info commands $t]
""", hand).splitlines()
    assert out == ["earltrace0", "num 1 node 0 time 0.000000000 type enter enterptr -1 region main group All",
                   "2 -1 All", "MPI_Send main", "8 5", "worker", "5 3.000000000 2.500000000", ""]

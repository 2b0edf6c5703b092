"""What the one-sided reference scripts read, the same in Python, Lua and Tcl: the group of
an rma_group_sync event, the members of a process group in rank order
(`members(group)`), the lock type and request flag of wlock events, and a clear error
naming a group id the trace does not define. Expected values: the groups the hand-written
archives define (tests/otf2_archives.py, tests/analysis_cases/)."""
import pytest

import earl
from alog_traces import write_alog
from script_checks import have_otf2
from test_tcl_common import LIBRARY, error_of, interp

pytestmark = pytest.mark.skipif(not have_otf2(), reason="no OTF2 support")


@pytest.fixture(scope="module")
def archives(tmp_path_factory):
    import otf2_archives
    from case_trace import build_case
    folder = tmp_path_factory.mktemp("rma attributes")
    (folder / "rma").mkdir()
    rma, facts = otf2_archives.write_rma(folder / "rma")
    return dict(rma=(str(rma), facts["ranks"]), epochs=build_case("rma_active_target", folder),
                locks=build_case("rma_lock_competition", folder))


def syncs_and_locks(trace):
    return ([ev for ev in trace if ev["type"] == "rma_group_sync"],
            [ev for ev in trace if ev["type"] in ("wlock", "wunlock")])


def test_python_sees_groups_their_members_and_lock_types(archives, tmp_path):
    path, ranks = archives["rma"]
    with earl.EventTrace(path) as t:
        syncs, _ = syncs_and_locks(t)
        assert len(syncs) == 3 and all(t.members(ev["group"]) == ranks for ev in syncs)
    with earl.EventTrace(archives["epochs"]) as t:
        syncs, _ = syncs_and_locks(t)
        # the origin (location 0) synchronises with its target, the target with its origin
        assert {(ev["loc"], tuple(t.members(ev["group"]))) for ev in syncs} == {(0, (1,)), (1, (0,))}
        bad = max(ev["group"] for ev in syncs) + 100
        with pytest.raises(earl.EarlError, match=f"no process group {bad} in this trace"):
            t.members(bad)
        with pytest.raises(earl.EarlError, match=f"no process group {2 ** 70}"):
            t.members(2 ** 70)
        with pytest.raises(TypeError, match="group must be an integer"):
            t.members("1")
    with earl.EventTrace(archives["locks"]) as t:
        _, locks = syncs_and_locks(t)
        # the first records of analysis_cases/rma_lock_competition.trace: location 0
        # requests and acquires an exclusive lock, location 1 requests one, location 0 releases
        assert [(ev["type"], ev["loc"], ev["exclusive"], ev["request"]) for ev in locks[:4]] == \
            [("wlock", 0, 1, 1), ("wlock", 0, 1, 0), ("wlock", 1, 1, 1), ("wunlock", 0, None, None)]
        assert any(ev["exclusive"] == 0 for ev in locks)  # the shared ones
    alog = write_alog(tmp_path, ["-3 0 0 1 0 0", "-13 0 1 2 0 0 main", "1 0 0 0 0 1", "2 0 0 0 0 2"])
    with earl.EventTrace(str(alog)) as t, pytest.raises(earl.EarlError, match="group 0 in this trace .it defines none"):
        t.members(0)


def test_lua_sees_the_same(archives):
    lua = pytest.importorskip("earl.lua").runtime()
    path, ranks = archives["rma"]
    lua.globals().path = path
    got = lua.execute("""
        local e, out = EventTrace(path), {}
        while e:next() do
          local ev = e:event()
          if ev.type == "rma_group_sync" then
            local m = e:members(ev.group)
            out[#out + 1] = table.concat(m, " ")
          end
        end
        return table.concat(out, ",")""")
    assert got == ",".join([" ".join(map(str, ranks))] * 3)
    lua.globals().path = archives["locks"]
    got = lua.execute("""
        local e, out = EventTrace(path), {}
        while e:next() do
          local ev = e:event()
          if ev.type == "wlock" or ev.type == "wunlock" then
            out[#out + 1] = ev.type .. ev.loc .. tostring(ev.exclusive) .. tostring(ev.request)
          end
        end
        return table.concat(out, ",")""")
    with earl.EventTrace(archives["locks"]) as t:
        _, locks = syncs_and_locks(t)
    lua_text = {None: "nil"}
    assert got == ",".join(f"{ev['type']}{ev['loc']}{lua_text.get(ev['exclusive'], ev['exclusive'])}"
                           f"{lua_text.get(ev['request'], ev['request'])}" for ev in locks)
    lua.globals().path = archives["epochs"]
    with pytest.raises(Exception, match="no process group 999 in this trace"):
        lua.execute("EventTrace(path):members(999)")
    with pytest.raises(Exception, match="group"):
        lua.execute("EventTrace(path):members('x')")


def test_tcl_sees_the_same(archives):
    if LIBRARY is None:
        pytest.skip("no Tcl extension")
    tcl = interp()
    path, ranks = archives["rma"]
    tcl.tk.call("set", "path", path)
    tcl.eval("EventTrace e -file $path")
    got = tcl.eval("""
        set out {}
        while {[e next]} {
          e event a
          if {$a(type) eq "rma_group_sync"} { lappend out [e members $a(group)] }
        }
        set out""")
    assert tcl.tk.splitlist(got) == tuple([" ".join(map(str, ranks))] * 3)
    assert "no process group 999 in this trace" in error_of(tcl, "e members 999")
    assert "group" in error_of(tcl, "e members x")
    tcl.eval("rename e {}")
    tcl.tk.call("set", "path", archives["locks"])
    tcl.eval("EventTrace e -file $path")
    got = tcl.eval("""
        set out {}
        while {[e next]} {
          e event a
          if {$a(type) eq "wlock"} { lappend out "$a(loc) $a(exclusive) $a(request)" }
        }
        set out""")
    tcl.eval("rename e {}")
    with earl.EventTrace(archives["locks"]) as t:
        _, locks = syncs_and_locks(t)
    assert tcl.tk.splitlist(got) == tuple(f"{ev['loc']} {ev['exclusive']} {ev['request']}"
                                          for ev in locks if ev["type"] == "wlock")


@pytest.mark.parametrize("threads", [1, 2])
def test_ranks_of_a_communicator_in_python_lua_and_tcl(tmp_path, threads):
    """ranks(com): the generator's MPI_COMM_WORLD with permuted ranks (its truth says which
    process each rank is; a process' MPI location is its master thread)."""
    from earl.generate import generate
    path = tmp_path / "permuted.otf2"
    truth = generate(str(path), format="otf2", events=600, locations=5, threads=threads,
                     permute_ranks=True, seed=9)
    expected = [process * threads for process in truth["rank_process"]]
    assert expected != sorted(expected)
    with earl.EventTrace(str(path)) as t:
        world = next(ev["com"] for ev in t if ev["type"] == "send")
        assert t.ranks(world) == expected
        with pytest.raises(earl.EarlError, match=f"no communicator {world + 50} with named ranks"):
            t.ranks(world + 50)
        with pytest.raises(TypeError, match="com must be an integer"):
            t.ranks("0")
    lua = pytest.importorskip("earl.lua").runtime()
    lua.globals().path = str(path)
    assert list(lua.execute(f"return EventTrace(path):ranks({world})").values()) == expected
    with pytest.raises(Exception, match=f"no communicator {world + 50} with named ranks"):
        lua.execute(f"EventTrace(path):ranks({world + 50})")
    if LIBRARY is not None:
        tcl = interp()
        tcl.tk.call("set", "path", str(path))
        tcl.eval("EventTrace e -file $path")
        assert [int(x) for x in tcl.tk.splitlist(tcl.eval(f"e ranks {world}"))] == expected
        assert "with named ranks" in error_of(tcl, f"e ranks {world + 50}")
        tcl.eval("rename e {}")
    alog = write_alog(tmp_path, ["-3 0 0 1 0 0", "-13 0 1 2 0 0 main", "1 0 0 0 0 1", "2 0 0 0 0 2"])
    with earl.EventTrace(str(alog)) as t, pytest.raises(earl.EarlError, match="it names none"):
        t.ranks(0)

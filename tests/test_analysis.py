"""The wait-state analysis (cpp/analysis, earl.analyze, `earl analyze`) against values
worked out independently: the generator's ground truth, random imperfect archives, the
Score-P ping-pong traces read with the official OTF2 reader (tests/otf2_reference.py) and
the formulas applied here, and the report's outputs (JSON, text, HTML; Cube in
tests/test_cube_output.py). The small traces whose severities are worked out by hand are
data: tests/analysis_cases/, run by tests/test_analysis_cases.py."""
import json
import os
import subprocess
import sys

import pytest

import earl
from alog_traces import write_alog
from gen_truth_checks import FRAME_REGIONS, callpath, check_profile
from script_checks import have_otf2

US = 1e-6
needs_otf2 = pytest.mark.skipif(not have_otf2(), reason="no OTF2 support")


def approx(x):
    return pytest.approx(x, abs=1e-9)


# ----------------------------------------------------------------- generated ground truth
GEN_CASES = [
    pytest.param(("alog", dict()), id="alog-ring"),
    pytest.param(("alog", dict(pattern="neighbors", locations=5, seed=4)), id="alog-neighbors"),
    pytest.param(("otf2", dict(permute_ranks=True)), id="otf2-permuted", marks=needs_otf2),
    pytest.param(("otf2", dict(threads=2, seed=7)), id="otf2-threads", marks=needs_otf2),
]


@pytest.fixture(scope="module", params=GEN_CASES)
def generated(request, tmp_path_factory):
    from earl.generate import generate
    fmt, extra = request.param
    options = dict(locations=4, events=8000, seed=3, late_sender_rate=0.3, imbalance_rate=0.3,
                   out_of_order_rate=0.2, barrier_every=3)
    options.update(extra)
    path = tmp_path_factory.mktemp("gen") / f"run.{fmt}"
    truth = generate(path, format=fmt, **options)
    return earl.analyze(path, progress=lambda f: None), truth


def test_late_senders_are_the_injected_ones(generated):
    report, truth = generated
    assert truth["late_sender_count"] > 0 and not truth["truncated"]["late_senders"]
    assert report.total("mpi_latesender") == approx(truth["late_sender_wait_total"])
    assert report.instances("mpi_latesender") == truth["late_sender_count"]
    expected = {}
    for late in truth["late_senders"]:
        expected[late["dest"]] = expected.get(late["dest"], 0.0) + late["wait"]
    got = {loc: v for loc, v in report.by_location("mpi_latesender").items()}
    assert got.keys() == expected.keys()
    for loc, wait in expected.items():
        assert got[loc] == approx(wait)
    assert set(report.by_callpath("mpi_latesender")) == {callpath(truth, "main/step/exchange/MPI_Recv")}


def test_collective_waits_are_the_injected_imbalance(generated):
    report, truth = generated
    assert not truth["truncated"]["imbalance"]
    per_kind = {"MPI_Barrier": {}, "MPI_Allreduce": {}}
    counts = {"MPI_Barrier": 0, "MPI_Allreduce": 0}
    for instance in truth["imbalance"]:
        for process, wait in enumerate(instance["waits"]):
            # collectives run on each process' master thread, location process * threads
            loc = process * (len(report.locations) // len(instance["waits"]))
            kind = per_kind[instance["region"]]
            kind[loc] = kind.get(loc, 0.0) + wait
            counts[instance["region"]] += wait > 0
    for metric, region in (("mpi_barrier_wait", "MPI_Barrier"), ("mpi_wait_nxn", "MPI_Allreduce")):
        got = report.by_location(metric)
        for loc, wait in per_kind[region].items():
            assert got.get(loc, 0.0) == approx(wait)
        assert report.instances(metric) == counts[region]
    assert report.total("mpi_barrier_wait") + report.total("mpi_wait_nxn") == \
        approx(truth["imbalance_wait_total"])
    # Everyone leaves together after the last one entered: nothing is left for completion.
    assert report.total("mpi_barrier_completion") == approx(0)
    assert report.total("mpi_nxn_completion") == approx(0)


MPI_REGIONS = {"MPI_Send": "mpi_point2point", "MPI_Recv": "mpi_point2point",
               "MPI_Allreduce": "mpi_collective", "MPI_Barrier": "mpi_sync_collective", **FRAME_REGIONS}


def test_profile_is_the_region_time_of_the_truth(generated):
    report, truth = generated
    check_profile(report, truth, MPI_REGIONS)
    # Point-to-point bytes (the collectives' bytes are bytes_cout/bytes_cin).
    for metric, region, expected in (("bytes_rcvd", "MPI_Recv", truth["bytes_received_per_location"]),
                                     ("bytes_sent", "MPI_Send", truth["bytes_sent_per_location"])):
        by_loc = [0] * len(report.locations)
        for cp, loc, v in report.cells(metric):
            if report.callpaths[cp].endswith("/" + region):
                by_loc[loc] += v
        assert by_loc == expected
    assert not any(report.problems.values()), report.problems


# ----------------------------------------------------------------- imperfect OTF2
@needs_otf2
@pytest.mark.parametrize("seed", range(4))
def test_random_imperfect_archives_give_a_report(tmp_path, seed):
    """Archives with every record kind, requests completed out of order or never, receives
    before their sends, unclosed regions: the analysis finishes with a report whose traffic
    is the trace's sends (counted here through EventTrace)."""
    from otf2_archives import random_archive
    anchor = random_archive(tmp_path, seed)
    r = earl.analyze(anchor, progress=lambda f: None)
    expected = {}
    with earl.EventTrace(anchor) as e:
        for ev in e:
            if ev["type"] == "send" and ev["dest"] >= 0:
                b, n = expected.get((ev["loc"], ev["dest"]), (0, 0))
                expected[(ev["loc"], ev["dest"])] = (b + ev["len"], n + 1)
    assert {(s, d): (b, n) for s, d, b, n in r.traffic()} == expected
    for metric in r.patterns():
        assert all(v > 0 for _, _, v in r.cells(metric)), metric

# ----------------------------------------------------------------- the Score-P traces
def scorep_expectation(anchor):
    """Late sender and late receiver of a Score-P trace, from the official OTF2 reader's
    events (tests/otf2_reference.py) with the formulas applied here."""
    from otf2_reference import Otf2Reference
    ref = Otf2Reference.load(anchor)
    stacks, calls, sends, recvs = {}, [], {}, {}
    for pos in range(1, ref.m + 1):
        ev = ref.event(pos)
        stack = stacks.setdefault(ev["loc"], [])
        if ev["type"] == "enter":
            stack.append({"region": ev["region"], "enter": ev["time"], "msgs": []})
        elif ev["type"] == "exit":
            call = stack.pop()
            call["leave"] = ev["time"]
            for kind, key, index in call["msgs"]:
                (sends if kind == "send" else recvs)[key][index] = call
        elif ev["type"] in ("send", "recv"):
            src, dest = (ev["loc"], ev["dest"]) if ev["type"] == "send" else (ev["src"], ev["loc"])
            table = sends if ev["type"] == "send" else recvs
            key = (src, dest, ev["tag"], ev["com"])
            table.setdefault(key, []).append(None)
            stack[-1]["msgs"].append((ev["type"], key, len(table[key]) - 1))
    late_sender, late_receiver = [], []
    for key, calls_ in recvs.items():
        for k, rc in enumerate(calls_):
            sc = sends[key][k]
            if rc["region"] == "MPI_Recv":
                idle = min(sc["enter"], rc["leave"]) - rc["enter"]
                if idle > 0:
                    late_sender.append((key[1], idle))
            if sc["region"] == "MPI_Send" and sc["leave"] > rc["enter"]:
                idle = rc["enter"] - sc["enter"]
                if idle > 0:
                    late_receiver.append((key[0], idle))
    return late_sender, late_receiver


@needs_otf2
@pytest.mark.parametrize("name", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_scorep_ping_pong(name):
    from script_checks import SCOREP
    anchor = SCOREP / name / "traces.otf2"
    if not anchor.exists():
        pytest.skip("no Score-P trace")
    r = earl.analyze(anchor, progress=lambda f: None)
    late_sender, late_receiver = scorep_expectation(anchor)
    # The ping-pong has both: receivers waiting for the partner, and rendezvous sends
    # waiting for the receive to be posted.
    assert late_sender and late_receiver
    assert r.instances("mpi_latesender") == len(late_sender)
    assert r.total("mpi_latesender") == approx(sum(i for _, i in late_sender))
    assert r.instances("mpi_latereceiver") == len(late_receiver)
    for loc in (0, 1):
        assert r.by_location("mpi_latereceiver").get(loc, 0.0) == \
            approx(sum(i for l, i in late_receiver if l == loc))
    # 42 Enter records (traces/README.md) and the program root each location's
    # ProgramBegin enters (named as the executable, Scalasca's root), 2 more
    assert r.total("visits") == 42 + 2
    assert r.by_callpath("visits")["ping-pong.otf2"] == 2
    assert all(p.startswith("ping-pong.otf2/") for p in r.callpaths if p != "ping-pong.otf2")
    assert not any(r.problems.values())


@needs_otf2
@pytest.mark.parametrize("with_region", [True, False])
def test_program_root_only_where_the_trace_defines_the_program_region(tmp_path, with_region):
    """ProgramBegin "/opt/app/prog" roots the call tree at the region "prog" where the
    trace defines it (Score-P does; Scalasca looks it up); without it the roots stay."""
    from otf2_archives import ArchiveWriter, T
    aw = ArchiveWriter(tmp_path, resolution=1_000_000)
    (loc,) = aw.process("MPI Rank 0")
    if with_region:
        import otf2
        aw.region("prog", otf2.enums.Paradigm.MEASUREMENT_SYSTEM, canonical_name="/opt/app/prog",
                  region_role=otf2.enums.RegionRole.ARTIFICIAL)
    main = aw.region("main")
    ev = aw.ev(loc)
    ev.program_begin(T(0), "/opt/app/prog", [])
    ev.enter(T(3), main)
    ev.leave(T(10), main)
    ev.program_end(T(12), 0)
    r = earl.analyze(aw.close(), progress=lambda f: None)
    if with_region:
        # the root holds 3 us before main and 2 after it, with one visit
        assert r.by_callpath("visits") == {"prog": 1, "prog/main": 1}
        assert r.by_callpath("comp") == {"prog": approx(5e-6), "prog/main": approx(7e-6)}
    else:
        assert r.by_callpath("visits") == {"main": 1}
        assert r.total("time") == approx(7e-6)
    assert not any(r.problems.values())


@needs_otf2
@pytest.mark.parametrize("name", ["ping-pong-otf2", "ping-pong-otf2-papi"])
def test_scorep_message_counts_and_bytes_per_location(name):
    """syncs/comms and bytes against the official OTF2 reader's MpiSend/MpiRecv records
    (the ping-pong has no collective records: every collective count and byte is 0)."""
    import otf2
    from script_checks import SCOREP
    anchor = SCOREP / name / "traces.otf2"
    if not anchor.exists():
        pytest.skip("no Score-P trace")
    want = {}
    with otf2.reader.open(str(anchor)) as trace:
        ranks = [loc.group.name for loc in trace.definitions.locations]
        for loc, ev in trace.events:
            kind = {otf2.events.MpiSend: "send", otf2.events.MpiRecv: "recv"}.get(type(ev))
            if kind:
                n = ranks.index(loc.group.name)
                for metric, amount in ((("comms_" if ev.msg_length else "syncs_") + kind, 1),
                                       ("bytes_sent" if kind == "send" else "bytes_rcvd", ev.msg_length)):
                    want.setdefault(metric, {}).setdefault(n, 0)
                    want[metric][n] += amount
    r = earl.analyze(anchor, progress=lambda f: None)
    assert want["comms_send"] and want["bytes_sent"]
    for metric in ("syncs_send", "syncs_recv", "comms_send", "comms_recv", "bytes_sent", "bytes_rcvd"):
        assert r.by_location(metric) == {loc: approx(v) for loc, v in want.get(metric, {}).items() if v}, metric
    for metric in ("syncs_coll", "comms_coll", "bytes_cout", "bytes_cin", "bytes_put", "bytes_get"):
        assert r.total(metric) == 0, metric
    assert r.total("bytes") == approx(r.total("bytes_sent") + r.total("bytes_rcvd"))
    # every late sender and receiver is a message with data here
    assert r.total("mpi_cls_count") == r.instances("mpi_latesender")
    assert r.total("mpi_clr_count") == r.instances("mpi_latereceiver")
    from earl.analysis.html import summary_table
    counts = summary_table(r).split("earl-counts", 1)[1]
    assert f"comms_send</td><td>{sum(want['comms_send'].values())}</td>" in counts


# ----------------------------------------------------------------- outputs
@pytest.fixture(scope="module")
def small(tmp_path_factory):
    from earl.generate import generate
    path = tmp_path_factory.mktemp("small") / "s.alog"
    truth = generate(path, locations=3, events=3000, seed=5, late_sender_rate=0.4,
                     out_of_order_rate=0.3)
    return path, truth


def test_json_output_of_the_command(small):
    path, truth = small
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    ls = out["patterns"]["mpi_latesender"]
    assert ls["total"] == approx(truth["late_sender_wait_total"])
    assert ls["instances"] == truth["late_sender_count"]
    assert set(ls["by_location"]) <= {"0", "1", "2"}
    assert sum(ls["by_location"].values()) == approx(ls["total"])
    assert ls["by_callpath"] == {"main/step/exchange/MPI_Recv": approx(ls["total"])}
    assert out["profile"]["time"]["total"] > out["profile"]["mpi"]["total"] > 0
    assert out["problems"]["unmatched_recv"] == 0


def test_terminal_report_names_the_wait_states(small):
    path, truth = small
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout                # plain text when piped
    row = next(l for l in done.stdout.splitlines() if l.split()[-5:-4] == ["mpi_latesender"])
    # metric, value, unit, % of time, instances
    assert row.split()[-4:-2] == [f"{truth['late_sender_wait_total']:.6f}", "s"]
    assert row.split()[-1] == str(truth["late_sender_count"])
    assert f"mpi_latesender: {truth['late_sender_wait_total']:.6f} s, " \
           f"{truth['late_sender_count']} instances" in done.stdout
    assert "main/step/exchange/MPI_Recv" in done.stdout


def test_bad_input_is_an_earl_error(tmp_path):
    with pytest.raises(earl.EarlError, match="nothing.alog"):
        earl.analyze(tmp_path / "nothing.alog")
    bad = write_alog(tmp_path, ["-3 0 0 2 0 0", "1 0 0 0 0 zz"], "bad.alog")
    with pytest.raises(earl.EarlError, match="line 2"):
        earl.analyze(bad, progress=lambda f: None)
    done = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(tmp_path / "no.alog")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.startswith("earl: ") and "no.alog" in done.stderr
    ok = write_alog(tmp_path, ["-13 0 1 2 0 0 c:p main", "1 0 0 0 0 1", "2 0 0 0 0 2"], "ok.alog")
    with pytest.raises(earl.EarlError, match="unknown metric 'nope'"):
        earl.analyze(ok, progress=lambda f: None).total("nope")
    with pytest.raises(earl.EarlError, match="unknown engine"):
        earl.analyze(ok, engine="fast")


def test_progress_errors_and_interrupts_stop_the_analysis(small):
    class Stop(Exception):
        pass

    seen = []

    def progress(fraction):
        seen.append(fraction)
        raise Stop()

    with pytest.raises(Stop):
        earl.analyze(small[0], progress=progress)
    assert seen
    # the engine is usable afterwards
    assert earl.analyze(small[0], progress=lambda f: None).total("time") > 0


def trace_is_open(pid, path):
    """True once process `pid` holds `path` open (the analysis has begun reading it)."""
    import os
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                return True
        except OSError:
            pass
    return False


def test_ctrl_c_stops_earl_analyze_cleanly_mid_run(tmp_path):
    """A real SIGINT to `earl analyze` while the native engine reads a large trace (with the
    GIL released): it stops, says so, exits 130, prints no report and no traceback."""
    import signal
    import time
    from earl.generate import generate
    path = (tmp_path / "big.alog").resolve()
    generate(path, events=6_000_000, seed=5, locations=8)
    proc = subprocess.Popen([sys.executable, "-m", "earl.cli", "analyze", str(path), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not trace_is_open(proc.pid, path):
        assert proc.poll() is None, "finished before it opened the trace"
        assert time.monotonic() < deadline
        time.sleep(0.002)
    # Into the engine's pass (the whole run takes ~1 s here), then Ctrl-C.
    time.sleep(0.15)
    assert proc.poll() is None, "finished before the interrupt"
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=30)
    stopped_after = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert err.strip() == "earl: interrupted"
    assert "Traceback" not in err
    assert out == ""                  # stopped before the report
    assert stopped_after < 5, stopped_after


def test_to_pandas_and_html_repr(small):
    pd = pytest.importorskip("pandas")
    report = earl.analyze(small[0], progress=lambda f: None)
    df = report.to_pandas()
    assert list(df.columns) == ["metric", "callpath", "location", "location_name", "value", "unit"]
    ls = df[df.metric == "mpi_latesender"]
    assert ls.value.sum() == approx(report.total("mpi_latesender"))
    assert set(ls.callpath) == {"main/step/exchange/MPI_Recv"}
    html = report._repr_html_()
    assert "<table" in html and "mpi_latesender" in html


def test_html_report_renders_offline_in_headless_chromium(small, tmp_path):
    import shutil
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        pytest.skip("no chromium (make setup installs Debian's chromium)")
    report = earl.analyze(small[0], progress=lambda f: None)
    page = tmp_path / "report.html"
    report.write_html(page)
    text = page.read_text()
    assert "http://" not in text and "https://" not in text     # nothing fetched: offline
    # the DOM after the page's script ran: every plot is there, the chooser shows one
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert 'class="bars"' in done.stdout and '<svg class="timeline"' in done.stdout
    assert "mpi_latesender" in done.stdout
    # The communication matrix: one cell per (source, destination) pair with traffic,
    # holding what the trace's send events add up to (read here through EventTrace).
    import re
    expected = {}
    with earl.EventTrace(small[0]) as e:
        for ev in e:
            if ev["type"] == "send":
                b, n = expected.get((ev["loc"], ev["dest"]), (0, 0))
                expected[(ev["loc"], ev["dest"])] = (b + ev["len"], n + 1)
    cells = {(int(a), int(b)): (int(c), int(d)) for a, b, c, d in re.findall(
        r"data-src=\"(\d+)\" data-dest=\"(\d+)\" data-bytes=\"(\d+)\" data-messages=\"(\d+)\"",
        done.stdout)}
    assert expected and cells == expected
    # The timeline: a bar per kept instance (the 50 longest), coloured by pattern.
    bars = re.findall(r'<rect class="wait" data-metric="(\w+)"', done.stdout)
    assert len(bars) == len(report.worst_instances()) == 50
    assert [w["metric"] for w in report.worst_instances()] == bars
    shown = [chunk for chunk in done.stdout.split('class="perloc"')[1:]
             if not chunk.split(">", 1)[0].rstrip().endswith('style="display: none;"')]
    assert len(shown) == 1
    shot = tmp_path / "shot.png"
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                           f"--screenshot={shot}", "--window-size=1200,5000", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and shot.exists(), done.stderr
    from PIL import Image
    image = Image.open(shot).convert("RGB")
    colors = image.getcolors(maxcolors=1 << 20)
    # the bars are drawn: the late-sender red (#c33) and the call-path blue (#36c) appear,
    # and the timeline's colour of each pattern among the worst instances
    from earl.analysis.html_plots import PALETTE
    present = {rgb for _, rgb in colors}
    assert (0xcc, 0x33, 0x33) in present and (0x33, 0x66, 0xcc) in present
    for metric in set(bars):
        hexa = PALETTE[metric].lstrip("#")
        assert tuple(int(c * 2, 16) for c in hexa) in present, metric


# ----------------------------------------------------------------- outputs never overwrite the trace
def test_report_files_never_overwrite_the_trace(tmp_path):
    """--html/--cube (and Report.write_html/write_cube) refuse an output that is the trace
    under another name (hard link, symbolic link) or a file of its OTF2 archive, with one
    line naming both; the trace keeps every byte."""
    from earl.generate import generate
    from earl.cli import main
    trace = tmp_path / "t.alog"
    generate(trace, events=500)
    before = trace.read_bytes()
    os.link(trace, tmp_path / "hard.html")
    os.symlink(trace, tmp_path / "soft.cubex")
    report = earl.analyze(trace, progress=lambda f: None)
    for write, out in ((report.write_html, tmp_path / "hard.html"), (report.write_cube, tmp_path / "soft.cubex"),
                       (report.write_cube, trace)):
        with pytest.raises(earl.EarlError, match="itself"):
            write(out)
        assert trace.read_bytes() == before, out
    result = subprocess.run([sys.executable, "-m", "earl.cli", "analyze", str(trace), "--html",
                             str(tmp_path / "hard.html")], capture_output=True, text=True)
    assert result.returncode == 1 and "itself" in result.stderr and "Traceback" not in result.stderr
    assert trace.read_bytes() == before
    report.write_html(tmp_path / "fine.html")       # a file of its own is written
    assert (tmp_path / "fine.html").stat().st_size > 0
    if have_otf2():
        anchor = tmp_path / "run.otf2"
        generate(anchor, format="otf2", events=500)
        definitions = (tmp_path / "run.def").read_bytes()
        otf2_report = earl.analyze(anchor, progress=lambda f: None)
        for out in (tmp_path / "run.def", tmp_path / "run" / "0.cubex"):
            with pytest.raises(earl.EarlError, match="itself"):
                otf2_report.write_cube(out)
        assert (tmp_path / "run.def").read_bytes() == definitions
        assert not (tmp_path / "run" / "0.cubex").exists()

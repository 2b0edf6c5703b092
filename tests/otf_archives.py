"""OTF (version 1) traces for the tests, written with libotf's own writer: a small C
program (tests/otf/otf_script_writer.c) compiled once per session against
-lopen-trace-format turns a line script into OTF_Writer calls. `expected_events` turns the
same script into the EARL events docs/api-contract.md "OTF" promises, by the mapping's
rules written out here independently of EARL's C++ code."""
import random
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
WRITER_SOURCE = HERE / "otf" / "otf_script_writer.c"
_writer = {}


def build_writer(directory):
    """Compiles the writer into `directory`; returns its path, or the reason it cannot."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc or not Path("/usr/include/open-trace-format/otf.h").exists():
        return None, "no C compiler or no libotf headers (libopen-trace-format-dev)"
    out = Path(directory) / "otf_script_writer"
    done = subprocess.run([cc, "-O1", "-o", str(out), str(WRITER_SOURCE), "-lopen-trace-format"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None, f"cannot build the libotf writer: {done.stderr[-400:]}"
    return out, ""


def script_writer(tmp_path_factory):
    """The compiled writer, or a skip where no C compiler or libotf is there."""
    if "path" not in _writer:
        path, why = build_writer(tmp_path_factory.mktemp("otf-writer"))
        if path is None:
            pytest.skip(why)
        _writer["path"] = path
    return _writer["path"]


def write_otf(writer, directory, script, name="trace", streams=1, compress=False):
    """Writes the archive `directory/name.otf` from `script` (lines); returns its anchor."""
    directory.mkdir(parents=True, exist_ok=True)
    stub = directory / name
    # libotf's writer wants each stream's records in time order, and a stream may hold
    # several processes: definitions first, then the records ordered by time (stably, so
    # each process keeps the order of the script, whose times never decrease per process).
    definitions = [line for line in script if line.split()[0] in DEFINITION_KINDS]
    records = [line for line in script if line.split()[0] not in DEFINITION_KINDS]
    script = definitions + sorted(records, key=lambda line: int(line.split()[1]))
    args = [str(writer), str(stub), str(streams)] + (["9"] if compress else [])
    done = subprocess.run(args, input="\n".join(script) + "\n", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return directory / f"{name}.otf"


DEFINITION_KINDS = {"timer", "proc", "fgroup", "func", "pgroup", "counter", "collop", "file",
                    "defmarker"}
FILE_OPERATIONS = ["open", "close", "read", "write", "seek", "unlink", "rename", "dup",
                   "sync", "lock", "unlock"]


def expected_events(script):
    """The EARL events of `script` in the model's order: by time, ties by location, one
    location's events in the order written, markers after the events of their time."""
    timer = 1
    procs, funcs, fgroups, pgroups, counters, files, markers = {}, {}, {}, {}, {}, {}, {}
    records = []
    for seq, line in enumerate(script):
        f = line.split()
        kind = f[0]
        if kind == "timer":
            timer = int(f[1])
        elif kind == "proc":
            procs[int(f[1])] = f[2]
        elif kind == "fgroup":
            fgroups[int(f[1])] = f[2]
        elif kind == "func":
            funcs[int(f[1])] = (f[2], int(f[3]))
        elif kind == "pgroup":
            pgroups[int(f[1])] = [int(x) for x in f[4:4 + int(f[3])]]
        elif kind == "counter":
            counters[int(f[1])] = (f[2], int(f[3]), f[4])
        elif kind == "file":
            files[int(f[1])] = f[2]
        elif kind == "defmarker":
            markers[int(f[1])] = f[2]
        elif kind == "collop":
            pass
        else:
            records.append((seq, f))
    loc_of = {p: i for i, p in enumerate(sorted(procs))}

    def peer(p):
        return loc_of.get(p, -1) if p != 0 else -1

    pending = {}   # proc -> collective dict for the next leave
    opened = {}    # (proc, match) -> collective dict
    events = []
    for seq, f in records:
        kind, t = f[0], int(f[1])
        ev = None
        marker = False
        if kind in ("enter", "leave"):
            proc = int(f[3])
            ev = {"type": "enter" if kind == "enter" else "exit", "region": funcs[int(f[2])][0]}
            if kind == "leave" and proc in pending:
                c = pending.pop(proc)
                ev.update(com=c["com"], root=c["root"], sent=c["sent"], recvd=c["recvd"],
                          collbegin=c["begin"] / timer, collend=c["end"] / timer)
        elif kind == "send":
            proc = int(f[2])
            ev = {"type": "send", "dest": peer(int(f[3])), "com": int(f[4]), "tag": int(f[5]),
                  "len": int(f[6])}
        elif kind == "recv":
            proc = int(f[2])
            ev = {"type": "recv", "src": peer(int(f[3])), "com": int(f[4]), "tag": int(f[5]),
                  "len": int(f[6])}
        elif kind == "count":
            proc = int(f[2])
            name, props, _ = counters[int(f[3])]
            value = int(f[4])
            if props & 32 and props < 256:  # signed integer vartypes
                value = value - (1 << 64) if value >= 1 << 63 else value
            ev = {"type": "metric", "metric": name, "value": value}
        elif kind == "coll":
            proc = int(f[2])
            pending[proc] = dict(com=int(f[4]), root=peer(int(f[5])), sent=int(f[6]),
                                 recvd=int(f[7]), begin=t, end=t + int(f[8]))
        elif kind == "bcoll":
            proc = int(f[2])
            opened[(proc, int(f[4]))] = dict(com=int(f[5]), root=peer(int(f[6])), sent=int(f[7]),
                                             recvd=int(f[8]), begin=t)
        elif kind == "ecoll":
            proc = int(f[2])
            c = opened.pop((proc, int(f[3])))
            c["end"] = t
            pending[proc] = c
        elif kind == "fileop":
            proc = int(f[3])
            op = int(f[5])
            ev = {"type": "file_" + (FILE_OPERATIONS[op] if op < len(FILE_OPERATIONS) else "other"),
                  "data1": files[int(f[2])], "data2": int(f[6])}
        elif kind == "marker":
            proc = int(f[2])
            marker = True
            ev = {"type": "marker", "data1": markers[int(f[3])], "data2": f[4]}
        elif kind == "comment":
            proc = int(f[2])
            ev = {"type": "comment", "data1": f[3], "data2": None}
        else:
            raise ValueError(kind)
        if ev is not None:
            ev.update(loc=loc_of[proc], time=t / timer)
            events.append(((t, loc_of[proc], marker, seq), ev))
    events.sort(key=lambda item: item[0])
    return [ev for _, ev in events], {"procs": procs, "funcs": funcs, "fgroups": fgroups,
                                      "pgroups": pgroups, "counters": counters,
                                      "loc_of": loc_of, "timer": timer}


def random_script(seed, processes=4, steps=400):
    """Random but well-formed: nested calls, messages sent before they are received,
    collectives, counters, markers; ties between processes are frequent."""
    rng = random.Random(seed)
    procs = list(range(1, processes + 1))
    script = ["timer 1000000"] + [f"proc {p} p{p}" for p in procs]
    script += ["fgroup 1 G", "func 1 main 1", "func 2 work 1", "func 3 comm 1",
               f"pgroup 9 ALL {processes} " + " ".join(map(str, procs)),
               "counter 1 c 0 #", "defmarker 1 m 0"]
    now = {p: 0 for p in procs}
    depth = {p: 0 for p in procs}
    body = []
    for p in procs:
        body.append(f"enter 0 1 {p}")
    for _ in range(steps):
        p = rng.choice(procs)
        now[p] += rng.choice([0, 1, 1, 2, 5])
        t = now[p]
        r = rng.random()
        if r < 0.3 and depth[p] < 4:
            body.append(f"enter {t} 2 {p}")
            depth[p] += 1
        elif r < 0.55 and depth[p] > 0:
            body.append(f"leave {t} 2 {p}")
            depth[p] -= 1
        elif r < 0.7:
            q = rng.choice([x for x in procs if x != p])
            tag, size = rng.randrange(3), rng.randrange(1, 5000)
            body.append(f"send {t} {p} {q} 9 {tag} {size}")
            now[q] = max(now[q], t) + 1
            body.append(f"recv {now[q]} {q} {p} 9 {tag} {size}")
        elif r < 0.8:
            body.append(f"enter {t} 3 {p}")
            body.append(f"coll {t} {p} 1 9 {rng.choice(procs)} {rng.randrange(100)} "
                        f"{rng.randrange(100)} 3")
            body.append(f"leave {t + 3} 3 {p}")
            now[p] = t + 3
        elif r < 0.9:
            body.append(f"count {t} {p} 1 {rng.randrange(1 << 40)}")
        else:
            body.append(f"marker {t} {p} 1 x{rng.randrange(99)}")
    for p in procs:
        while depth[p]:
            body.append(f"leave {now[p]} 2 {p}")
            depth[p] -= 1
        body.append(f"leave {now[p] + 1} 1 {p}")
    # libotf wants each process's records in time order; the script is per process already
    return script + body

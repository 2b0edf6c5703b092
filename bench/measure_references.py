"""Outside references, each in a fresh process; prints JSON.

usage: measure_references.py alog TRACE            plain Python reading and splitting lines
       measure_references.py otf2 TRACE            the official otf2 Python reader
"""
import json
import sys
import time

from peak_memory import peak_rss_mb


def plain_python_split(path):
    records = 0
    with open(path) as f:
        for line in f:
            if line.split():
                records += 1
    return records


def official_otf2_reader(path):
    """Iterates every event the way pipit and other Python tools do."""
    import otf2

    records = 0
    with otf2.reader.open(path) as trace:
        for _location, _event in trace.events:
            records += 1
    return records


def main(kind, path):
    start = time.perf_counter()
    records = plain_python_split(path) if kind == "alog" else official_otf2_reader(path)
    seconds = time.perf_counter() - start
    print(json.dumps({"records": records, "seconds": seconds,
                      "peak_rss_mb": peak_rss_mb()}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

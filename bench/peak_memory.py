"""Peak memory of the running process, for the benchmark scripts."""
import resource


def peak_rss_mb():
    """This process's peak resident memory. VmHWM, not ru_maxrss: Linux carries ru_maxrss
    across exec, so a child would report the peak of the benchmark process that forked it."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

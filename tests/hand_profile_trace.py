"""A small ALOG trace of two processes whose profile is worked out by hand (times in
microseconds; the ALOG reader gives seconds):

    loc 0: main 0..100 { work 10..40; MPI_Send 50..60 { send to 1 at 55, 100 bytes } }
    loc 1: main 0..100 { MPI_Recv 20..80 { recv at 70 }; work 90..99 { work 95..97 } }

The tests that use it hold the expected values next to their assertions."""
from alog_traces import write_alog

LINES = [
    "-3 0 0 2 0 0",
    "-13 0 1 2 0 0 main",
    "-13 0 3 4 0 0 work",
    "-13 0 5 6 0 0 MPI_Send",
    "-13 0 7 8 0 0 MPI_Recv",
    "1 0 0 0 0 0",     # loc 0 enter main
    "1 1 0 0 0 0",     # loc 1 enter main
    "3 0 0 0 0 10",    # loc 0 enter work
    "7 1 0 0 0 20",    # loc 1 enter MPI_Recv
    "4 0 0 0 0 40",    # loc 0 exit work
    "5 0 0 0 0 50",    # loc 0 enter MPI_Send
    "-101 0 0 1 0 55 1 100",
    "6 0 0 0 0 60",    # loc 0 exit MPI_Send
    "-102 1 0 0 0 70 1 100",
    "8 1 0 0 0 80",    # loc 1 exit MPI_Recv
    "3 1 0 0 0 90",    # loc 1 enter work
    "3 1 0 0 0 95",    # loc 1 enter work (recursion)
    "4 1 0 0 0 97",
    "4 1 0 0 0 99",
    "2 0 0 0 0 100",   # loc 0 exit main
    "2 1 0 0 0 100",   # loc 1 exit main
]

US = 1e-6


def write(directory):
    return write_alog(directory, LINES, name="profile.alog")

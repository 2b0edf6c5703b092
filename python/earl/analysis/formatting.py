"""How the report's views write numbers, so the terminal and the HTML page agree: seconds
to the microsecond, counts with their noun in the right number, byte sizes in binary units,
and which values print as zero (and so may be hidden)."""

SECONDS_DIGITS = 6     # the traces' clocks tick in microseconds at best
_BYTE_UNITS = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")


def seconds(value):
    """'0.034742' (no unit)."""
    return f"{value:.{SECONDS_DIGITS}f}"


def metric_value(value, unit):
    """A metric's value as printed: seconds to the microsecond, anything else whole."""
    return seconds(value) if unit == "sec" else f"{value:.0f}"


def prints_as_zero(value, unit):
    return float(metric_value(value, unit)) == 0.0


def counted(n, noun, plural=None):
    """'1 instance', '2 instances', '0 instances'."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def byte_size(n):
    """'512 B', '1.5 KiB', '20.0 MiB': binary units, one decimal above bytes."""
    size, unit = float(n), 0
    while round(size, 1) >= 1024 and unit < len(_BYTE_UNITS) - 1:
        size, unit = size / 1024, unit + 1
    return f"{int(n)} B" if unit == 0 else f"{size:.1f} {_BYTE_UNITS[unit]}"


def patterns_found(report):
    """The patterns whose total prints (as seconds) as more than zero, largest first: the
    ones every view details."""
    return sorted((m for m in report.patterns() if not prints_as_zero(report.total(m), "sec")),
                  key=lambda m: -report.total(m))

"""What the terminal and HTML views show of each hardware counter (Report.counters): its
call paths with inclusive and exclusive values, largest inclusive first, numbers written
alike in both views."""


def counter_number(value, counter):
    """An integer counter's value whole, a float counter's to 6 significant digits."""
    return f"{value:.6g}" if counter["value_type"] == "double" else f"{value:.0f}"


def counter_heading(report, name):
    """'PAPI_TOT_CYC: 156147353 # in total (Total cycles. [...])'."""
    counter = report.counters[name]
    total = sum((v for _, _, v in counter["exclusive"]), 0.0)
    unit = f" {counter['unit']}" if counter["unit"] else ""
    about = f" ({counter['description']})" if counter["description"] else ""
    return f"{name}: {counter_number(total, counter)}{unit} in total{about}"


def counter_rows(report, name, top):
    """([(call path, inclusive, exclusive, % of the total)] of the `top` call paths with
    the largest inclusive values, how many more there are)."""
    counter = report.counters[name]
    inclusive = report.counter_by_callpath(name, inclusive=True)
    exclusive = report.counter_by_callpath(name)
    total = sum(exclusive.values(), 0.0)
    rows = [(path, counter_number(value, counter), counter_number(exclusive.get(path, 0.0), counter),
             f"{100.0 * value / total:.1f}" if total else "")
            for path, value in list(inclusive.items())[:top]]
    return rows, max(0, len(inclusive) - top)

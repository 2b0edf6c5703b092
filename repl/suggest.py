"""'did you mean': the closest of the names a mistyped word could have meant."""
import difflib


def did_you_mean(word, names, prefix=""):
    """' (did you mean PREFIX+NAME?)' for the name closest to `word`, or '' when none is
    close."""
    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    return f" (did you mean {prefix}{close[0]}?)" if close else ""

"""Random expressions of the shared grammar: the core's native test and Python's own
evaluation of the same expression (made to leave the grammar by `or False`, so that it
takes the fallback path) select the same events; and no text at all makes the parser fail
with anything but EarlError."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import earl
from query_traces import generated

NUMERIC = ["pos", "loc", "time", "dest", "src", "tag", "com", "len", "sendptr", "enterptr", "duration"]
NAMED = ["type", "region"]
NUMBERS = st.one_of(st.integers(-3, 40), st.sampled_from([0.0, 0.001, 0.05, 1e-4, -0.5, 2.5e-3]))
NAMES = st.sampled_from(["send", "recv", "enter", "exit", "MPI_Send", "MPI_Recv", "MPI_Barrier", "nope"])


@st.composite
def comparison(draw):
    if draw(st.booleans()):
        attribute, op = draw(st.sampled_from(NUMERIC)), draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        constant = repr(draw(NUMBERS))
    else:
        attribute, op = draw(st.sampled_from(NAMED)), draw(st.sampled_from(["==", "!="]))
        constant = repr(draw(NAMES))
    if draw(st.booleans()):
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        return f"{constant} {op} ev.{attribute}"
    return f"ev.{attribute} {op} {constant}"


def expressions():
    return st.recursive(
        comparison(),
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
            inner.map(lambda e: f"not ({e})"),
            inner.map(lambda e: f"({e})")),
        max_leaves=6)


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    yield from generated(tmp_path_factory, "property", events=800, locations=3, seed=11)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(expression=expressions())
def test_native_equals_python(trace, expression):
    native = trace.select(expression, positions=True)
    fallback = trace.select(f"({expression}) or False", positions=True)
    assert native.native and not fallback.native
    assert list(native) == list(fallback)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.sampled_from(list("ev.typ=!~<>()[]{},'\\\"0123456789 -andortin\n_x")),
                    max_size=40),
       language=st.sampled_from(["python", "lua"]))
def test_any_text_gives_events_or_earl_error(trace, text, language):
    try:
        list(trace.select(text, language, last=20, positions=True))
    except earl.EarlError:
        pass

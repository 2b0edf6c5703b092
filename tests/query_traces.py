"""The generated traces the query and check tests select from."""
import earl
from earl.generate import generate


def generated(tmp_path_factory, name, **options):
    """Yields a generated ALOG trace `name` (options of earl.generate), open."""
    path = tmp_path_factory.mktemp(name) / f"{name}.alog"
    generate(str(path), **options)
    with earl.EventTrace(str(path)) as opened:
        yield opened

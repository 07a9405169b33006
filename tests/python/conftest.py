"""Shared fixtures of the webnn Python tests.

The tests import `webnn` from wherever Python finds it: the build tree (PYTHONPATH=build/python,
as scripts/test.sh runs them) or an installed package. ../shared (WPT data, models, spec) is
found beside the checkout, or at $WEBNN_SHARED_DIR.
"""
import os
from pathlib import Path

import pytest

import webnn

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("WEBNN_SHARED_DIR", REPO.parent / "shared"))


@pytest.fixture
def context():
    ctx = webnn.ML().create_context(backend="reference")
    yield ctx
    ctx.destroy()


@pytest.fixture
def builder(context):
    return context.create_graph_builder()


def child_env(**extra):
    """The environment of a child Python process that imports the same webnn as these tests (build
    tree or installed package), with `extra` variables set."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(webnn.__file__).parent.parent), env.get("PYTHONPATH", "")])
    return env


def shared_path(*parts):
    """A path under ../shared, or a skip when the shared data is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def op_exists(context, build):
    """Whether `build(builder)` can be built: False while the operator raises NotSupportedError
    (an operator whose validation or kernel has not landed yet)."""
    try:
        b = context.create_graph_builder()
        b.build(build(b))
        return True
    except webnn.NotSupportedError:
        return False

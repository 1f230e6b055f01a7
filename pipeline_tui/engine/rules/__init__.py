"""The rules of Pipeline, as a package (its modules, by feature, follow)."""

from .contracts import *  # noqa: F403
from .contracts import _refresh  # noqa: F401

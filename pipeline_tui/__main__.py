"""``python -m pipeline_tui``: the same as the ``pipeline-tui`` command."""

from .cli import main

raise SystemExit(main())

"""The front ends over the ui: ``pipeline-tui serve`` (shared tables over SSH, one session
process per player) and ``pipeline-tui web`` (the app in a browser through textual-serve)."""

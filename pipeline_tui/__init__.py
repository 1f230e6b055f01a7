"""pipeline-tui: the board game Pipeline (Ryan Courtney, Capstone Games) in the terminal."""

__version__ = "0.1.0"

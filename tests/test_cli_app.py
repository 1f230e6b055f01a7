"""How the command line opens the Textual app: the right screen and options in a terminal, a
one-line error without one, and text output whenever it is asked for or piped."""

from __future__ import annotations

import pytest

from pipeline_tui import cli
from pipeline_tui.engine import Game, GameSetup
from pipeline_tui.storage import save_game


@pytest.fixture
def opened(monkeypatch):
    """Pretend to be in a terminal and record what run_app is asked to open."""
    calls: list[dict] = []
    monkeypatch.setattr(cli.common, "interactive", lambda: True)
    monkeypatch.setattr("pipeline_tui.ui.run_app", lambda **kw: calls.append(kw))
    return calls


@pytest.fixture
def save(tmp_path):
    game = Game(GameSetup.default(2, seed=4))
    for _ in range(12):
        game.apply(game.legal_moves()[0])
    path = tmp_path / "g.json"
    save_game(game, path)
    return path


def test_no_command_in_a_terminal_opens_the_title_screen(opened, tmp_path):
    assert cli.main(["--saves", str(tmp_path), "--no-mouse"]) == 0
    assert opened == [{"mode": "title", "saves_dir": str(tmp_path), "mouse": False, "served": "local"}]


def test_a_web_tab_is_told_it_is_served(opened, tmp_path):
    """`pipeline-tui web` runs each tab as `title --served web` (serve/web.py, app_command)."""
    assert cli.main(["title", "--saves", str(tmp_path), "--served", "web"]) == 0
    assert opened[0]["served"] == "web"


def test_new_passes_players_seed_and_first_game(opened):
    assert cli.main(["new", "--players", "3", "--seed", "9", "--first-game"]) == 0
    assert opened == [
        {
            "mode": "new",
            "saves_dir": None,
            "mouse": True,
            "players": 3,
            "seed": 9,
            "first_game": True,
            "bots": None,
            "clock": None,
        }
    ]


def test_new_passes_a_clock_and_refuses_a_bad_one_in_one_line(opened, capsys):
    assert cli.main(["new", "--players", "2", "--clock", "20m+30s", "--on-timeout", "end"]) == 0
    clock = opened[0]["clock"]
    assert (clock.kind, clock.time_ms, clock.increment_ms, clock.on_flag) == (
        "fischer",
        1_200_000,
        30_000,
        "end",
    )
    assert cli.main(["new", "--clock", "5x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "clock 5x" in err


def test_new_with_bots_plays_you_against_computers_of_that_level(opened, capsys):
    assert cli.main(["new", "--bots", "normal"]) == 0
    assert opened[0]["players"] == 2 and opened[0]["bots"] == "heuristic"
    assert cli.main(["new", "--players", "4", "--bots", "easy"]) == 0
    assert opened[1]["players"] == 4 and opened[1]["bots"] == "random"
    assert cli.main(["new", "--bots", "grandmaster"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "grandmaster" in err


def test_new_help_names_every_level_bots_takes(opened, capsys):
    from pipeline_tui.ai import LEVELS

    assert cli.main(["new", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    offered = help_text.split("--bots LEVEL", 2)[-1]
    for level in LEVELS:
        assert level in offered
        assert cli.main(["new", "--bots", level]) == 0
    assert [o["bots"] for o in opened] == ["random", "heuristic", "search", "expert"]


def test_new_without_players_opens_the_new_game_screen(opened):
    assert cli.main(["new"]) == 0
    assert opened[0]["players"] is None and opened[0]["mode"] == "new"


def test_load_opens_a_good_save(opened, save):
    assert cli.main(["load", str(save)]) == 0
    assert opened[0]["mode"] == "load" and opened[0]["file"] == str(save)


def test_load_reports_a_broken_save_before_the_app_starts(opened, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert cli.main(["load", str(bad)]) == 1
    err = capsys.readouterr().err
    assert opened == [] and err.count("\n") == 1 and "bad.json" in err


def test_replay_in_a_terminal_opens_the_viewer(opened, save):
    assert cli.main(["replay", str(save)]) == 0
    assert opened[0]["mode"] == "replay"


@pytest.mark.parametrize("extra", [["--to", "3"], ["--json"], ["--text"]])
def test_replay_prints_text_when_asked(opened, save, capsys, extra):
    assert cli.main(["replay", str(save), *extra]) == 0
    assert opened == [] and capsys.readouterr().out


@pytest.mark.parametrize("argv", [["new"], ["title"], ["load", "x.json"]])
def test_app_commands_need_a_terminal(monkeypatch, capsys, argv, save):
    monkeypatch.setattr(cli.common, "interactive", lambda: False)
    if argv[0] == "load":
        argv = ["load", str(save)]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "needs a terminal" in err and err.count("\n") == 1


def test_no_command_without_a_terminal_plays_in_plain_text(monkeypatch, capsys):
    monkeypatch.setattr(cli.common, "interactive", lambda: False)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert cli.main(["--seed", "2"]) == 0
    assert "Year 1" in capsys.readouterr().out

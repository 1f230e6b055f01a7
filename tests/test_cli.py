"""The ``pipeline-tui`` command: exit codes, one-line errors, simulate, replay, check and play."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline_tui import __version__, cli, i18n
from pipeline_tui.cli import main
from pipeline_tui.engine import Game, GameSetup, IllegalMove, format_move, parse_move
from pipeline_tui.storage import load_game, read_save

from .latin import english_words

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "saves"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def saves(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv("PIPELINE_TUI_SAVES", str(folder))
    return folder


# --- version, usage errors --------------------------------------------------------------------


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"pipeline-tui {__version__}\n")


def test_python_dash_m_runs_in_a_real_process_without_textual_or_rich():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run(
        [sys.executable, "-m", "pipeline_tui", "--version"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (0, f"pipeline-tui {__version__}\n")
    probe = (
        "import sys, pipeline_tui.cli, pipeline_tui.text, pipeline_tui.storage;"
        "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("group", cli.GROUPS, ids=lambda group: group.__name__.rpartition(".")[2])
def test_each_groups_commands_are_those_it_registers(group):
    """``main`` builds only the chosen command's group (issue 38, point 3), found by its
    ``COMMANDS``: each names exactly what its ``register`` adds."""
    parser = cli.common.Parser(prog="pipeline-tui")
    sub = parser.add_subparsers(dest="command")
    group.register(sub)
    assert tuple(sub.choices) == group.COMMANDS


def test_a_command_parses_alike_with_its_group_alone_and_with_all():
    argv = ["new", "--players", "3", "--seed", "7", "--clock", "20m+30s", "--on-timeout", "end"]
    alone, whole = cli._assemble("new").parse_args(argv), cli.build_parser().parse_args(argv)
    assert vars(alone) == vars(whole) and alone.func is cli.app.cmd_new


def test_the_parsers_flag_rules_are_the_engines():
    """``--on-timeout`` offers the engine's FlagRule values, written out in cli/common.py so
    that the parser is built without the engine (issue 38, point 3)."""
    from pipeline_tui.cli.common import ON_TIMEOUT
    from pipeline_tui.engine import FlagRule

    assert ON_TIMEOUT == tuple(rule.value for rule in FlagRule)
    assert ON_TIMEOUT[0] == FlagRule.COMPUTER


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["bogus"], "unknown command 'bogus'"),
        (["simulate", "--players", "5"], "invalid choice: 5"),
        (["simulate", "--games", "0"], "expected 1 or more"),
        (["replay"], "the following arguments are required: FILE"),
        (["play", "--seed", "-3"], "expected 0 or more"),
    ],
)
def test_usage_errors_are_one_line_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert fragment in one_line_error(err)


# --- simulate ---------------------------------------------------------------------------------


def test_simulate_is_deterministic_apart_from_timing(capsys):
    first = run(capsys, "simulate", "--players", "3", "--games", "2", "--seed", "40")
    second = run(capsys, "simulate", "--players", "3", "--games", "2", "--seed", "40")
    assert first[0] == second[0] == 0
    lines, again = first[1].splitlines(), second[1].splitlines()
    assert lines[:-1] == again[:-1]
    assert lines[0].startswith("seed 40: winner ") and lines[1].startswith("seed 41: winner ")
    assert lines[-1].startswith("2 games in ") and lines[-1].endswith(" s")
    other = run(capsys, "simulate", "--players", "3", "--games", "1", "--seed", "41")
    assert other[1].splitlines()[0] == lines[1]


def test_simulate_out_writes_loadable_saves(capsys, tmp_path):
    out_dir = tmp_path / "sims"
    code, out, _ = run(
        capsys, "simulate", "--players", "2", "--games", "2", "--seed", "3", "--out", str(out_dir)
    )
    assert code == 0
    for seed, line in zip((3, 4), out.splitlines()):
        game = load_game(out_dir / f"sim-{seed}-2p.json")
        assert game.is_over() and game.setup.seed == seed
        assert line.endswith(f", {len(game.moves)} moves")
        assert f"winner {game.scores()[0].name}," in line


# --- replay -----------------------------------------------------------------------------------


@pytest.fixture
def fixture_save() -> Path:
    return FIXTURES / "v1-finished-2p.json"


def test_replay_to_a_move_prints_that_table(capsys, fixture_save):
    game = load_game(fixture_save)
    code, out, _ = run(capsys, "replay", str(fixture_save), "--to", "12")
    assert code == 0
    assert out.startswith(f"After move 12 of {len(game.moves)}: ")
    state = game.state_at(12)
    assert f"Year {state.year} of 3, Round {state.round} of" in out
    code, out, _ = run(capsys, "replay", str(fixture_save), "--to", "0")
    assert "After move 0 of" in out and "(the table after setup)" in out


def test_replay_default_is_the_end_with_scores(capsys, fixture_save):
    game = load_game(fixture_save)
    code, out, _ = run(capsys, "replay", str(fixture_save))
    assert code == 0 and f"After move {len(game.moves)} of {len(game.moves)}" in out
    assert out.rstrip().endswith(f"Winner: {game.scores()[0].name}")


def test_replay_json_is_the_public_view_and_the_log(capsys, fixture_save):
    game = load_game(fixture_save)
    code, out, _ = run(capsys, "replay", str(fixture_save), "--to", "30", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["at"] == 30
    assert [parse_move(text) for text in doc["moves"]] == game.moves
    state = game.state_at(30)
    assert doc["state"]["pipe_deck"] == {"count": len(state.pipe_deck)}
    assert doc["state"]["round"] == state.round
    assert [p["money"] for p in doc["state"]["players"]] == [p.money for p in state.players]
    assert "seed" not in out


def test_replay_to_out_of_range_is_one_line(capsys, fixture_save):
    total = len(load_game(fixture_save).moves)
    code, out, err = run(capsys, "replay", str(fixture_save), "--to", str(total + 1))
    assert code == 1 and out == ""
    assert one_line_error(err) == (
        f"pipeline-tui: --to {total + 1}: v1-finished-2p.json has moves 0 to {total}"
    )


# --- check ------------------------------------------------------------------------------------


def test_check_ok_summary(capsys, fixture_save):
    game = load_game(fixture_save)
    code, out, err = run(capsys, "check", str(fixture_save))
    best = game.scores()[0]
    assert code == 0 and err == ""
    assert out == (
        f"ok: v1-finished-2p.json: 2 players (Ada, Bo), {len(game.moves)} moves, "
        f"Year 3 Round 4, finished, winner {best.name} (${best.total})\n"
    )


def test_check_unfinished_names_who_is_to_act(capsys):
    path = FIXTURES / "v1-midgame-3p.json"
    game = load_game(path)
    code, out, _ = run(capsys, "check", str(path))
    name = game.state.players[game.current_player].name
    assert code == 0 and out.rstrip().endswith(f"in progress, {name} to act")


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"", "bad.json: the file is empty"),
        (b'{"hello": 1}', "bad.json: not a pipeline-tui save"),
        (b'{"format": "pipeline-tui-save", "version": 1, "setup": {"seed": "x"}}', "$.setup.seed"),
    ],
)
def test_check_bad_file_exit_1_one_line(capsys, tmp_path, content, fragment):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(capsys, "check", str(path))
    assert code == 1 and out == ""
    assert fragment in one_line_error(err)
    assert path.read_bytes() == content


def test_check_missing_file_and_directory(capsys, tmp_path):
    code, _, err = run(capsys, "check", str(tmp_path / "none.json"))
    assert code == 1 and "none.json: no such file" in one_line_error(err)
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 1 and "is a directory" in one_line_error(err)
    code, _, err = run(capsys, "replay", str(tmp_path / "none.json"))
    assert code == 1 and "no such file" in one_line_error(err)


def test_check_flags_meta_that_contradicts_the_log(capsys, tmp_path, fixture_save):
    data = json.loads(fixture_save.read_bytes())
    data["meta"]["moves"] = 3
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "check", str(path))
    assert code == 1
    assert "edited.json: meta says moves is 3 but the log gives" in one_line_error(err)


def test_saves_lists_broken_files(capsys, saves, fixture_save):
    saves.mkdir()
    (saves / "a.json").write_bytes(fixture_save.read_bytes())
    (saves / "b.json").write_text("{")
    code, out, _ = run(capsys, "saves")
    assert code == 0
    assert "a.json  Ada, Bo; Year 3 Round 4" in out
    assert "b.json  BROKEN: b.json: the file is truncated" in out


# --- play -------------------------------------------------------------------------------------


def play(capsys, monkeypatch, text: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run(capsys, "play", *argv)


def test_play_illegal_and_unparsable_input_lose_nothing_and_undo_works(capsys, monkeypatch, saves):
    script = "\n".join(
        [
            "start-tank H",  # legal
            "buy C-OC#1",  # parses, illegal during setup
            "frobnicate",  # does not parse
            "99",  # no such number
            "1",  # the first legal move
            "undo",
            "undo",
            "undo",  # nothing left
            "redo",
            "save mygame",
            "",
        ]
    )
    code, out, err = play(capsys, monkeypatch, script, "--seed", "12", "--players", "2")
    assert code == 0 and err == ""
    assert "illegal: Markets: buy and sell only during a market Action" in out
    assert "not understood: unknown move 'frobnicate'" in out
    assert "no move 99: choose 1 to 4" in out
    assert "undo: start-tank C" in out and "undo: start-tank H" in out
    assert "nothing to undo" in out and "redo: start-tank H" in out
    assert f"saved to {saves / 'mygame.json'}" in out
    assert out.rstrip().endswith(f"end of input; autosaved to {saves / 'autosave-12.json'}")
    auto = load_game(saves / "autosave-12.json")
    assert auto.moves == [parse_move("start-tank H")]
    assert load_game(saves / "mygame.json").moves == auto.moves


def test_play_settles_the_heap_once_its_game_is_loaded(capsys, monkeypatch, saves):
    """The parser loads no engine, so ``play`` freezes the heap itself, once the game's
    modules are in (cli.common.settle_heap), not ``main`` at the start."""
    from pipeline_tui.cli import common

    settled: list[bool] = []
    monkeypatch.setattr(
        common, "settle_heap", lambda: settled.append("pipeline_tui.cli.hotseat" in sys.modules)
    )
    code, _out, _err = play(capsys, monkeypatch, "quit\n", "--seed", "5")
    assert code == 0 and settled == [True]


def test_play_to_the_end_prints_scores(capsys, monkeypatch, saves):
    code, out, _ = play(capsys, monkeypatch, "1\n" * 400, "--seed", "5", "--players", "2")
    assert code == 0
    game = load_game(saves / "autosave-5.json")
    assert game.is_over()
    assert out.rstrip().endswith(f"Winner: {game.scores()[0].name}")
    assert read_save(saves / "autosave-5.json").meta["finished"] is True


def test_play_quit_and_no_command_means_play(capsys, monkeypatch, saves):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys)
    assert code == 0 and out.rstrip().endswith("game left")
    assert not saves.exists()  # nothing played, nothing autosaved
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    code, out, _ = run(capsys, "--players", "4", "--seed", "77")
    assert code == 0 and "Players: Ada (human), Bo (human), Cy (human), Di (human)" in out
    assert len(load_game(saves / "autosave-77.json").moves) == 1


def test_play_load_continues_a_save(capsys, monkeypatch, saves, tmp_path):
    path = FIXTURES / "v1-midgame-3p.json"
    before = load_game(path)
    code, out, _ = play(capsys, monkeypatch, "1\n", "--load", str(path))
    assert code == 0
    after = load_game(saves / f"autosave-{before.setup.seed}.json")
    assert after.moves[:-1] == before.moves and len(after.moves) == len(before.moves) + 1


def test_play_keeps_a_longer_autosave_of_the_same_seed(capsys, monkeypatch, saves):
    play(capsys, monkeypatch, "1\n1\n1\n", "--seed", "13")
    longer = load_game(saves / "autosave-13.json")
    assert len(longer.moves) == 3
    code, out, _ = play(capsys, monkeypatch, "1\n", "--seed", "13")
    assert code == 0
    assert (
        f"autosave-13.json holds another game or a later point of this one and is kept; "
        f"autosaving to {saves / 'autosave-13-2.json'}" in out
    )
    assert load_game(saves / "autosave-13.json").moves == longer.moves
    assert load_game(saves / "autosave-13-2.json").moves == longer.moves[:1]


def test_play_refuses_to_autosave_over_a_foreign_file(capsys, monkeypatch, saves):
    saves.mkdir()
    foreign = saves / "autosave-9.json"
    foreign.write_text("not mine")
    code, out, _ = play(capsys, monkeypatch, "1\n", "--seed", "9")
    assert code == 0
    assert "autosave failed: autosave-9.json: refusing to overwrite" in out
    assert foreign.read_text() == "not mine"


def test_ctrl_c_exits_130_quietly(capsys, monkeypatch, saves):
    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupted())
    code, _, err = run(capsys, "play", "--seed", "1")
    assert code == 130 and err == ""


def test_play_bad_load_file_is_one_line(capsys, monkeypatch, saves, tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("[]")
    code, _, err = play(capsys, monkeypatch, "", "--load", str(bad))
    assert code == 1 and "x.json: not a pipeline-tui save" in one_line_error(err)


# --- components -------------------------------------------------------------------------------


def test_components_prints_every_table_with_its_source(capsys):
    code, out, err = run(capsys, "components")
    assert (code, err) == (0, "")
    assert out.startswith("Pipeline components, edition 2: printed components")
    for heading in ("CONTRACTS", "ORDERS", "MARKETS", "SHOPS", "UPGRADES", "VALUATION", "REFINEMENT MARKERS"):
        assert f"\n{heading}\nSource" in out


def test_components_json_lists_contracts_and_orders_with_needs(capsys):
    code, out, _ = run(capsys, "components", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["edition"] == 2 and data["contracts"][0]["needs"] == ["SL", "SL", "SL"]
    assert all(set(o) >= {"id", "size", "needs", "pay", "text"} for o in data["orders"])


def test_components_of_edition_1(capsys):
    code, out, _ = run(capsys, "components", "--edition", "1", "--json")
    assert code == 0 and json.loads(out)["contracts"][0]["needs"] == ["OL", "OL"]


def test_components_refuses_an_unknown_edition_in_one_line(capsys):
    code, _, err = run(capsys, "components", "--edition", "7")
    assert code == 2 and "invalid choice: 7" in one_line_error(err)


# --- the chosen language (issue 15): words translated, notation and JSON the same --------------


def speak(monkeypatch, language: str) -> None:
    """Run the command line in ``language``, chosen both ways the command may read it."""
    monkeypatch.setenv("PIPELINE_TUI_LANG", language)
    i18n.set_language(language)


@pytest.fixture
def russian(monkeypatch):
    speak(monkeypatch, "ru")
    yield
    i18n.set_language("en")


def test_play_in_russian_takes_the_same_notation_and_refuses_in_russian(capsys, monkeypatch, saves, russian):
    script = "\n".join(["start-tank H", "buy C-OC#1", "frobnicate", "99", "undo", "redo", "help", "quit", ""])
    game = Game(GameSetup.default(players=2, seed=12))
    game.apply(parse_move("start-tank H"))
    with pytest.raises(IllegalMove) as refused:
        game.apply(parse_move("buy C-OC#1"))
    code, out, err = play(capsys, monkeypatch, script, "--seed", "12", "--players", "2")
    assert code == 0 and err == ""
    assert out.startswith("«Нефтепровод», зерно 12. Команды: введите «help».\nГод 1 из 3, раунд 1 из 8\n")
    assert "Возможные ходы:\n  1) start-tank C" in out
    area, _colon, detail = str(refused.value).partition(": ")
    assert f"нельзя ({area}): {detail}\n" in out  # one colon after the head, not two in a row
    assert "непонятно: неизвестный ход «frobnicate» (введите «help»)" in out
    assert "нет хода 99: выберите от 1 до 4" in out
    assert "отменён ход: start-tank H" in out and "возвращён ход: start-tank H" in out
    assert "save ФАЙЛ (сохранить)" in out
    assert out.rstrip().endswith(f"вы вышли из игры; автосохранено в {saves / 'autosave-12.json'}")
    for english in ("Legal moves", "illegal:", "not understood", "Year 1"):
        assert english not in out
    assert load_game(saves / "autosave-12.json").moves == [parse_move("start-tank H")]


def test_replay_text_in_russian(capsys, fixture_save, russian):
    game = load_game(fixture_save)
    total = len(game.moves)
    code, out, _ = run(capsys, "replay", str(fixture_save), "--to", "12", "--text")
    assert code == 0
    assert out.startswith(f"После хода 12 из {total}: {format_move(game.moves[11])}\n")
    state = game.state_at(12)
    assert f"Год {state.year} из 3, раунд {state.round} из" in out
    assert "Крест действий (конец луча / внутреннее поле, [рабочие]):" in out
    assert "  Парк цистерн:\n" in out
    code, out, _ = run(capsys, "replay", str(fixture_save), "--to", "0", "--text")
    assert out.startswith(f"После хода 0 из {total} (поле после подготовки к игре)\n")
    code, out, _ = run(capsys, "replay", str(fixture_save), "--text")
    assert "\nИтого " in out and "\nМесто " in out
    assert out.rstrip().endswith(f"Победитель: {game.scores()[0].name}")


@pytest.mark.parametrize(
    "argv",
    [
        ["components", "--json"],
        ["components", "--json", "--edition", "1"],
        ["replay", str(FIXTURES / "v1-finished-2p.json"), "--to", "30", "--json"],
        ["replay", str(FIXTURES / "v1-midgame-3p.json"), "--json"],
    ],
)
def test_json_output_is_the_same_in_every_language(capsys, monkeypatch, argv):
    outputs = []
    try:
        for language in ("en", "ru"):
            speak(monkeypatch, language)
            code, out, err = run(capsys, *argv)
            assert (code, err) == (0, "")
            outputs.append(out)
    finally:
        i18n.set_language("en")
    assert outputs[0] == outputs[1]
    json.loads(outputs[0])


def test_json_is_built_in_english_and_the_language_comes_back(russian):
    assert cli.common.in_english(lambda: i18n._("Legal moves:")) == "Legal moves:"
    assert i18n.current_language() == "ru" and i18n._("Legal moves:") == "Возможные ходы:"


def test_help_and_usage_errors_in_russian(capsys, russian):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert out.startswith("использование: pipeline-tui [-h] [--version] [--lang en|ru] COMMAND ...\n")
    assert "Настольная игра «Нефтепровод» (Pipeline) в терминале." in out
    assert "\nпараметры:\n  -h, --help " in out and "показать эту справку и выйти\n" in out
    assert "--lang en|ru  язык, с любой командой" in out
    assert "текстовая игра по очереди за одним компьютером" in out
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "зерно подготовки (случайное, если не указано)" in out
    code, _, err = run(capsys, "simulate", "--games", "0")
    assert code == 2 and one_line_error(err).endswith("ожидалось 1 или больше (см. --help)")
    code, _, err = run(capsys, "bogus")
    assert code == 2 and one_line_error(err).startswith("pipeline-tui: неизвестная команда «bogus» (есть: ")


def test_check_saves_and_simulate_in_russian_count_in_russian(capsys, saves, fixture_save, russian):
    game = load_game(fixture_save)
    best = game.scores()[0]
    code, out, _ = run(capsys, "check", str(fixture_save))
    assert code == 0
    assert out == (
        f"в порядке: v1-finished-2p.json: 2 игрока (Ada, Bo), {len(game.moves)} ходов, "
        f"год 3, раунд 4, окончена, победитель {best.name} (${best.total})\n"
    )
    saves.mkdir()
    (saves / "b.json").write_text("{")
    code, out, _ = run(capsys, "saves")
    assert "b.json  ПОВРЕЖДЁН: " in out
    code, out, _ = run(capsys, "simulate", "--games", "1", "--seed", "3")
    last = out.splitlines()[-1]
    assert code == 0 and last.startswith("1 партия за ") and last.endswith(" с")


@pytest.mark.parametrize("name", ["v2-ed2-finished-4p.json", "v2-ed2-midgame-3p.json"])
def test_replay_text_in_russian_has_no_english_word(capsys, russian, name):
    """The plain-text table in Russian, read as the UI audit reads screens (tests/latin.py):
    every word of Latin letters is notation, a code or a player's name."""
    game = load_game(FIXTURES / name)
    for to in (len(game.moves) // 2, len(game.moves)):
        code, out, _ = run(capsys, "replay", str(FIXTURES / name), "--to", str(to), "--text")
        assert code == 0
        names = tuple(p.name for p in game.setup.players)
        assert english_words(out, names=names, notation=tuple(map(format_move, game.moves))) == []

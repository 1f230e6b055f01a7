"""Each private hook in pipeline_tui/ui/compat.py still exists and does what the app needs.

An upgrade of Textual, Rich or textual-serve that moves or changes one of them fails here; the
first test fails on any upgrade at all, so the pins in pyproject.toml are raised knowingly.
"""

from __future__ import annotations

import io
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Vertical
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.geometry import Size
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widgets import Footer, Static

from pipeline_tui.ui import compat
from pipeline_tui.ui.footer import TranslatedFooter

from tests.ui.pilot import settled

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_installed_versions_are_the_pinned_and_tested_ones():
    pins = {}
    for requirement in tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]:
        name, _, pinned = requirement.partition("==")
        pins[name] = pinned
    for package, tested in compat.TESTED.items():
        assert pins[package] == tested, f"{package} is not pinned to {tested} in pyproject.toml"
        assert version(package) == tested


def test_line_breaks_are_those_of_text_wrap():
    console = Console(width=200)
    text = "refine 0,0/2 C>M  tile on 3,-1 south, a Pipeline of five segments abcdefghijklmnopq"
    for width in (6, 11, 24, 40):
        wrapped = [line.plain.rstrip() for line in Text(text).wrap(console, width)]
        divided = [line.plain.rstrip() for line in Text(text).divide(compat.line_breaks(text, width))]
        assert divided == wrapped and len(wrapped) > 1


class FooterApp(App):
    def compose(self) -> ComposeResult:
        yield Footer()


async def test_footer_keys_shown_turns_true_once_the_footer_has_its_keys():
    footer = Footer()
    assert compat.footer_keys_shown(footer) is False
    app = FooterApp()
    async with app.run_test() as pilot:
        footer = app.query_one(Footer)
        await pilot.pause()
        assert compat.footer_keys_shown(footer) is True


class KeysScreen(Screen):
    BINDINGS = [
        Binding("a", "note('a')", "A"),
        Binding("b", "note('b')", "B"),
        Binding("c", "note('c')", "C"),
    ]

    def __init__(self, own: bool) -> None:
        super().__init__()
        self.notes: list[str] = []
        if own:
            compat.bind_keys(
                self, [Binding("b", "note('b2')", "B2", show=False), Binding("d", "note('d')", "D")]
            )

    def action_note(self, what: str) -> None:
        self.notes.append(what)


async def test_bind_keys_gives_one_screen_keys_as_a_subclass_would():
    app = App()
    async with app.run_test() as pilot:
        own, plain = KeysScreen(own=True), KeysScreen(own=False)
        await app.push_screen(plain)
        await pilot.press("b", "d")
        await app.push_screen(own)
        await pilot.press("a", "b", "d")
        assert plain.notes == ["b"] and own.notes == ["a", "b2", "d"]
        keys = [
            (key, active.binding.description, active.binding.show)
            for key, active in own.active_bindings.items()
            if key in "abcd"
        ]
        assert keys == [("a", "A", True), ("b", "B2", False), ("c", "C", True), ("d", "D", True)]


class Lines(ScrollView):
    DEFAULT_CSS = "Lines { height: 10; width: 30; }"


class LinesApp(App):
    def compose(self) -> ComposeResult:
        yield Lines()


async def test_update_scrollbars_tells_the_bars_a_new_size_without_a_layout():
    app = LinesApp()
    async with app.run_test() as pilot:
        view = app.query_one(Lines)
        view.virtual_size = Size(30, 40)
        await pilot.pause()
        assert view.vertical_scrollbar.window_virtual_size == 40
        view.set_reactive(ScrollView.virtual_size, Size(30, 90))  # no watcher, no layout
        compat.update_scrollbars(view, Size(30, 90))
        assert view.vertical_scrollbar.window_virtual_size == 90


async def test_mark_stale_makes_textual_measure_and_draw_a_widget_again():
    """What ``refresh(layout=True)`` forgets, mark_stale forgets, without a refresh: the lines
    drawn, the widget's measures and its containers' arrangement."""
    app = LinesApp()
    async with app.run_test() as pilot:
        view = app.query_one(Lines)
        await pilot.pause()
        view.render_lines(view.size.region)
        assert view._styles_cache._cache
        screen, updates = app.screen, view._layout_updates
        screen.arrange(screen.size)
        assert len(screen._arrangement_cache)
        compat.mark_stale(view)
        assert not view._styles_cache._cache and view._layout_updates == updates + 1
        assert not len(screen._arrangement_cache)
        assert not view._repaint_required and not view._layout_required


class Prompt(compat.ValueWatchedInput):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[bool] = []

    def refresh(self, *args, **kwargs):
        self.seen.append(self.in_value_watcher)
        return super().refresh(*args, **kwargs)


class PromptApp(App):
    CSS = "Prompt { width: auto; }"  # an Input whose width follows its text asks for a layout

    def compose(self) -> ComposeResult:
        yield Prompt()


async def test_an_input_knows_when_it_is_in_its_value_watcher():
    app = PromptApp()
    async with app.run_test() as pilot:
        prompt = app.query_one(Prompt)
        await pilot.pause()
        prompt.seen.clear()
        prompt.value = "act crude"
        assert True in prompt.seen  # the watcher's own refresh
        assert prompt.in_value_watcher is False


async def test_serve_application_builds_textual_serves_routes(tmp_path):
    from textual_serve.server import Server

    application = await compat.serve_application(Server("true", host="127.0.0.1", port=0))
    names = {route.name for route in application.router.routes() if route.name}
    assert {"index", "websocket", "static"} <= names


def test_no_other_module_uses_a_private_hook():
    package = PYPROJECT.parent / "pipeline_tui"
    private = re.compile(
        r"\brich\._|\btextual\.\w+\._|\b_bindings_ready\b|\b_scroll_update\b|"
        r"\b_watch_value\b|\b_styles_cache\b|\b_border_title\b|\b_layout_updates\b|"
        r"\b_clear_arrangement_cache\b|"
        r"\b_make_app\b|\._bindings\b|\bdef _on_(focus|blur)\b"
    )
    users = [
        str(path.relative_to(package)) for path in package.rglob("*.py") if private.search(path.read_text())
    ]
    assert users == ["ui/compat.py"]


def test_the_palettes_no_matches_countdown_is_still_textuals():
    """SayingPalette replaces CommandPalette._start_no_matches_countdown, which uses these."""
    from textual.command import CommandPalette

    for name in (
        "_start_no_matches_countdown",
        "_stop_no_matches_countdown",
        "_NO_MATCHES",
        "_NO_MATCHES_COUNTDOWN",
    ):
        assert hasattr(CommandPalette, name), name
    palette = CommandPalette()
    assert palette._no_matches_timer is None and palette._list_visible is False
    assert compat.SayingPalette().no_matches() == "No matches found"


class Box(Vertical, compat.StyledFocus, can_focus=True):
    """A container whose focus shows (``#styled:focus``) or does not (``#plain``)."""


class FocusScreen(Screen):
    # as TableScreen: Textual's Screen repaints itself whole on every focus change
    focused: Reactive = Reactive(None, repaint=False)

    def compose(self) -> ComposeResult:
        for name in ("plain", "styled"):
            with Box(id=name):
                yield Static(name, id=f"{name}-text")


class FocusApp(App):
    CSS = "Box { border: round blue; } #styled:focus { border: round red; }"  # no new layout
    AUTO_FOCUS = None

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[str, str | None]] = []

    def on_mount(self) -> None:
        self.push_screen(FocusScreen())

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.told.append(("focus", event.widget.id))

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.told.append(("blur", event.widget.id))


async def test_styled_focus_restyles_and_repaints_only_what_its_focus_changes(monkeypatch):
    """Widget's focus and blur, less the restyle of the children and the repaint of a widget
    whose look the focus does not change; the ancestors are told as Widget tells them."""
    app = FocusApp()
    async with app.run_test() as pilot:
        await settled(pilot)
        restyled: set[str | None] = set()
        repainted: set[str | None] = set()
        real_apply, real_refresh = Stylesheet.apply, Screen._compositor_refresh

        def apply(stylesheet, node, **kwargs):
            restyled.add(node.id)
            return real_apply(stylesheet, node, **kwargs)

        def compositor_refresh(screen):
            repainted.update(widget.id for widget in screen._dirty_widgets)
            return real_refresh(screen)

        monkeypatch.setattr(Stylesheet, "apply", apply)
        monkeypatch.setattr(Screen, "_compositor_refresh", compositor_refresh)
        plain, styled = app.screen.query_one("#plain", Box), app.screen.query_one("#styled", Box)
        app.set_focus(plain)
        await settled(pilot)
        assert plain.has_focus and app.focused is plain
        assert restyled == {"plain"} and not repainted  # its look is as it was
        restyled.clear()
        app.set_focus(styled)
        await settled(pilot)
        assert styled.has_focus and not plain.has_focus
        assert restyled == {"plain", "styled"} and repainted == {"styled"}
        assert styled.styles.border_top[1] == Color.parse("red")
        assert app.told == [("focus", "plain"), ("blur", "plain"), ("focus", "styled")]


async def test_no_rule_at_the_table_styles_a_widget_by_its_ancestors_focus(tmp_path):
    """What StyledFocus relies on: restyling a focused widget without its children misses no
    rule. Only a widget's own component classes may follow its :focus (Textual restyles them
    with the widget); and no rule names :focus-within, which restyles whole subtrees."""
    from pipeline_tui.ui.app import PipelineApp

    app = PipelineApp(mode="new", players=2, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("n")  # the network view's widgets too
        await pilot.pause()
        selectors = [
            selector_set.selectors for rule in app.stylesheet.rules for selector_set in rule.selector_set
        ]
        assert len(selectors) > 50
        for chain in selectors:
            pseudo = set().union(*(selector.pseudo_classes for selector in chain))
            assert "focus-within" not in pseudo, chain
            if any("focus" in selector.pseudo_classes for selector in chain[:-1]):
                assert "--" in chain[-1].name, chain  # a component class, e.g. .move-list--highlighted


class TwoFootersApp(App):
    BINDINGS = [Binding("a", "bell", "A"), Binding("b", "app.bell", "B")]

    def compose(self) -> ComposeResult:
        yield TranslatedFooter(id="plain")
        yield TranslatedFooter(id="compact", compact=True)


async def test_settle_footer_key_gives_keys_their_footers_compact_without_restyling_them(monkeypatch):
    restyled: list[str] = []
    update_styles = App.update_styles

    def counting(self: App, node: object = None, animate: bool = True) -> None:
        if type(node).__name__ == "FooterKey" and not node.has_class("-command-palette"):
            restyled.append(str(node.parent.id if node.parent else ""))
        update_styles(self, node, animate)

    monkeypatch.setattr(App, "update_styles", counting)
    app = TwoFootersApp()
    async with app.run_test() as pilot:
        await settled(pilot)
        assert restyled == []
        for footer_id, compact in (("plain", False), ("compact", True)):
            keys = [k for k in app.query_one(f"#{footer_id}").children if type(k).__name__ == "FooterKey"]
            bound = [k for k in keys if not k.has_class("-command-palette")]
            assert len(bound) == 2  # a and b
            assert all(k.compact is compact and k.has_class("-compact") is compact for k in bound)
            # the palette's key is not bound to its footer: it stays compact, as Textual has it
            assert all(k.compact and k.has_class("-compact") for k in keys if k not in bound)


class Boxed(Static):
    DEFAULT_CSS = "Boxed { height: 3; background: $panel; }"


class StyledApp(App):
    CSS = "Boxed { width: 7; }"

    def compose(self) -> ComposeResult:
        yield Boxed("styled")
        yield TranslatedFooter()


def styled(app: App) -> tuple[object, ...]:
    """What the parsed rules of StyledApp's CSS and Boxed's DEFAULT_CSS make of a Boxed."""
    styles = app.query_one(Boxed).styles
    return (
        styles.height.value,
        styles.width.value,
        styles.background == Color.parse(app.get_css_variables()["panel"]),
    )


async def test_an_app_sharing_parsed_css_parses_nothing_that_was_parsed_ahead(monkeypatch):
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    assert compat.parse_ahead(StyledApp()) > 10  # the app's CSS and every widget's imported
    app = StyledApp()
    compat.share_parsed_css(app)
    async with app.run_test() as pilot:
        await settled(pilot)
        assert list(app.stylesheet._parse_cache.keys()) == []  # Stylesheet._parse_rules' own cache
        assert styled(app) == (3, 7, True)


async def test_an_app_sharing_parsed_css_parses_what_was_not_parsed_ahead(monkeypatch):
    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    app = StyledApp()
    compat.share_parsed_css(app)
    async with app.run_test() as pilot:
        await settled(pilot)
        assert len(app.stylesheet._parse_cache.keys()) > 3
        assert styled(app) == (3, 7, True)


def facts(rules: list[RuleSet]) -> list[tuple[object, ...]]:
    """What parsed rules hold, layouts by kind (a layout has no equality of its own)."""
    return [
        (
            rule.selector_set,
            {
                name: type(value) if name == "layout" else value
                for name, value in rule.styles.get_rules().items()
            },
            rule.styles.important,
            rule.errors,
            rule.is_default_rules,
            rule.tie_breaker,
            rule.selector_names,
            rule.pseudo_classes,
        )
        for rule in rules
    ]


def test_every_parsed_stylesheet_of_the_app_loads_back_the_same(monkeypatch):
    """dump_parsed_css / load_parsed_css (ui.css_cache) keep every source the app can parse:
    PARSED_CSS_GLOBALS names every class its rules hold."""
    import pipeline_tui.ui.lobby
    import pipeline_tui.ui.reference_screen
    import pipeline_tui.ui.screens
    import pipeline_tui.ui.table_screen
    import pipeline_tui.ui.tutorial  # noqa: F401 - every screen's widgets, with their CSS
    from pipeline_tui.ui.app import PipelineApp

    monkeypatch.setattr(compat.SharedStylesheet, "parsed", {})
    assert compat.parse_ahead(PipelineApp()) > 50
    parsed = compat.SharedStylesheet.parsed
    buffer = io.BytesIO()
    compat.dump_parsed_css(parsed, buffer)
    buffer.seek(0)
    loaded = compat.load_parsed_css(buffer)
    assert loaded.keys() == parsed.keys()
    for key, rules in parsed.items():
        assert facts(loaded[key]) == facts(rules), key[1]


class OnceScreen(compat.StyledOnce):
    def compose(self) -> ComposeResult:
        yield Boxed("once")


async def test_a_screen_styled_once_is_styled_again_when_it_is_shown_again(monkeypatch):
    restyled: list[object] = []
    update_styles = App.update_styles

    def counting(self: App, node: object = None, animate: bool = True) -> None:
        if isinstance(node, OnceScreen):
            restyled.append(node)
        update_styles(self, node, animate)

    monkeypatch.setattr(App, "update_styles", counting)
    app = StyledApp()
    async with app.run_test() as pilot:
        await app.push_screen(OnceScreen())
        await settled(pilot)
        assert restyled == []  # styled as its widgets were made, not again as first shown
        assert app.screen.query_one(Boxed).styles.height.value == 3
        app.screen.post_message(events.ScreenResume())  # as Textual resumes a screen shown again
        await settled(pilot)
        assert len(restyled) == 1  # styled again, as Textual does


class TitledApp(App):
    CSS = "Static { border: round red; height: 6; }"

    def compose(self) -> ComposeResult:
        yield Static("body")


async def test_retitle_sets_the_title_as_textual_does_and_repaints_only_its_row():
    app = TitledApp()
    async with app.run_test(size=(30, 8)) as pilot:
        box = app.query_one(Static)
        box.border_title = "[b]Player[/b] board 1: Ada"
        await pilot.pause()
        compat.retitle(box, "[b]Player[/b] board 2: Bo")
        assert box._styles_cache._dirty_lines == {0}  # the top border row alone
        ours = box._border_title
        await pilot.pause()
        assert "Player board 2: Bo" in box.render_lines(box.size.region)[0].text
        box.border_title = "[b]Player[/b] board 2: Bo"
        assert box._border_title == ours and box.border_title == "[b]Player[/b] board 2: Bo"

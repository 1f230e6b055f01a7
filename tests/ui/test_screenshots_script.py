"""docs/screenshots/make.py draws the README's pictures: each an SVG of the screen it names."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "docs" / "screenshots" / "make.py"


async def test_the_script_draws_the_table_the_network_view_and_the_chart(tmp_path) -> None:
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = await module.shoot(tmp_path)
    names = sorted(path.name for path in written)
    assert names == sorted(
        [
            "table-160x48.svg",
            "network-view-160x48.svg",
            "network-overview-160x48.svg",
            "scores-chart-160x48.svg",
        ]
    )
    text = {path.name: path.read_text() for path in written}
    assert all(t.startswith("<svg") for t in text.values())
    assert "Crude&#160;Market" in text["table-160x48.svg"] or "Crude Market" in text["table-160x48.svg"]
    assert (
        "Pipeline&#160;1&#160;of" in text["network-view-160x48.svg"]
        or "Pipeline 1 of" in text["network-view-160x48.svg"]
    )
    assert (
        "Money&#160;by&#160;Round" in text["scores-chart-160x48.svg"]
        or "Money by Round" in text["scores-chart-160x48.svg"]
    )
    for name in names:  # the README shows each one
        assert f"docs/screenshots/{name}" in (SCRIPT.parents[2] / "README.md").read_text()

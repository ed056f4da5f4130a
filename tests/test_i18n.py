"""Four languages everywhere: every catalog (the web interface's, the terminal's and every game's)
has every key in English, Hungarian, German and Chinese with the same placeholders; every rules
topic of a game is translated, with no number the English text does not have; and every key the
interfaces' code names literally exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import grimoire
from grimoire.core.registry import game_info

ROOT = Path(grimoire.__file__).parent
LANGS = ("en", "hu", "de", "zh")
INTERFACE_CATALOGS = [ROOT / "web" / "i18n", ROOT / "cli" / "i18n"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(folder: Path, lang: str) -> dict[str, str]:
    return json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))


def translated_games() -> list[str]:
    return [g for g in grimoire.games() if game_info(g).i18n is not None]


def is_rules_key(key: str) -> bool:
    return ".rules." in key


@pytest.mark.parametrize("folder", INTERFACE_CATALOGS, ids=lambda p: p.parent.name)
def test_interface_catalogs_have_every_key_in_every_language(folder):
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(LANGS)
    en = load(folder, "en")
    for lang in LANGS[1:]:
        cat = load(folder, lang)
        assert sorted(set(en) - set(cat)) == [], f"{folder.name}/{lang}.json lacks keys"
        assert sorted(set(cat) - set(en)) == [], f"{folder.name}/{lang}.json has keys English lacks"
        for key, text in en.items():
            assert set(PLACEHOLDER.findall(cat[key])) == set(PLACEHOLDER.findall(text)), (lang, key)
            assert cat[key].strip(), (lang, key)


@pytest.mark.parametrize("game", translated_games())
def test_game_catalogs_have_every_key_in_every_language(game):
    info = game_info(game)
    assert set(LANGS) <= set(info.languages())
    en = info.catalog("en")
    base = {k for k in en if not is_rules_key(k)}
    for lang in LANGS:
        cat = info.catalog(lang)
        keys = {k for k in cat if not is_rules_key(k)}
        assert sorted(base - keys) == [], f"{game} {lang} lacks keys"
        assert sorted(keys - base) == [], f"{game} {lang} has keys English lacks"
        assert all(k.startswith(f"{game}.") for k in cat), "a game's keys take its name as prefix"
        for key in base:
            assert set(PLACEHOLDER.findall(cat[key])) == set(PLACEHOLDER.findall(en[key])), (lang, key)
            assert cat[key].strip(), (lang, key)


@pytest.mark.parametrize("game", translated_games())
def test_every_rules_topic_is_translated_with_the_engines_numbers(game):
    info = game_info(game)
    topics = info.rules_topics() if info.rules_topics else {}
    assert topics
    for lang in LANGS[1:]:
        cat = info.catalog(lang)
        have = {k.split(".rules.", 1)[1] for k in cat if is_rules_key(k)}
        assert have == set(topics), f"{game} {lang}: rules topics {sorted(set(topics) ^ have)}"
        for topic, english in topics.items():
            text = cat[f"{game}.rules.{topic}"]
            # a translation may not invent numbers: costs, limits and rule sections come from the engine
            extra = set(re.findall(r"\d+", text)) - set(re.findall(r"\d+", english))
            assert not extra, f"{game} {lang} {topic}: numbers {sorted(extra)} are not in the English text"
            assert text.lstrip().startswith("# "), "a topic starts with its title"


def _is_list(prop: dict) -> bool:
    """An option the lobby gives no input (a list: set through the API or ``-o key=value``)."""
    alts = [a for a in prop.get("anyOf", [prop]) if a.get("type") != "null"]
    return any(a.get("type") == "array" for a in alts)


@pytest.mark.parametrize("game", translated_games())
def test_the_lobby_finds_a_label_for_every_option_and_agent(game):
    from grimoire.agents import agent_names
    info = game_info(game)
    ui = load(ROOT / "web" / "i18n", "en")
    cat = info.catalog("en")
    role = info.arena.role_option
    props = info.options.model_json_schema()["properties"]
    for name in info.options.model_fields:
        if name == role or _is_list(props[name]):    # per-seat roles have their own choice; lists are API-only
            continue
        assert f"{game}.option.{name}" in cat or f"option.{name}" in ui, f"no label for option {name}"
    for agent in agent_names(game):
        assert f"ai.{agent}" in ui or f"{game}.ai.{agent}" in cat, f"no label for agent {agent}"
    for value in info.arena.roles:
        assert f"{game}.role.{value}" in cat


def js_keys(path: Path) -> set[str]:
    """Catalog keys a script names literally: t("ui.x") / tr("...") and, in a board, `${P}.x` with its P."""
    src = path.read_text(encoding="utf-8")
    keys = set(re.findall(r"""\btr?\(["']([a-z_]+\.[\w.-]+)["']""", src))
    prefix = re.search(r'const P = "(\w+)"', src)
    if prefix:
        keys |= {f"{prefix.group(1)}.{k}" for k in re.findall(r"tr\(`\$\{P\}\.([\w.]+)`", src)}
    return keys


def test_every_key_named_in_the_pages_and_boards_exists():
    ui = load(ROOT / "web" / "i18n", "en")
    games = {g: game_info(g).catalog("en") for g in grimoire.games()}
    scripts = list((ROOT / "web" / "static").rglob("*.js"))
    for g in grimoire.games():
        if game_info(g).board is not None:
            scripts.append(game_info(g).package_dir / game_info(g).board.module)
    missing = []
    for path in scripts:
        for key in js_keys(path):
            prefix = key.split(".", 1)[0]
            known = games[prefix] if prefix in games else ui
            if key not in known:
                missing.append(f"{path.name}: {key}")
    assert not missing, "keys missing from the catalogs:\n" + "\n".join(sorted(missing))
    assert len(scripts) >= 6


def test_dynamic_key_families_of_the_boards_exist():
    """Keys a board builds from data (artifact names, score parts, colours, end reasons)."""
    zs = game_info("zauberschmiede")
    sheet = zs.static_data()["sheet"]
    for lang in LANGS:
        cat = zs.catalog(lang)
        for a in sheet["artifacts"]:
            assert f"zauberschmiede.art.{a['id'].lower()}" in cat
        for c in sheet["categories"]:
            assert f"zauberschmiede.cat.{c['id']}" in cat
        for c in sheet["colours"]:
            assert f"zauberschmiede.colour.{c}" in cat
        for k in ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"):
            assert f"zauberschmiede.score.{k}" in cat and f"zauberschmiede.score.{k}.help" in cat
        zav = game_info("zavandor").catalog(lang)
        for reason in ("sentinels", "max_rounds", "last_player"):       # flow.game_over's reasons
            assert f"zavandor.end_reason.{reason}" in zav


# Characters only Simplified Chinese writes (each has a different Traditional form): the Chinese
# catalogs are in Traditional characters throughout, so none of these may appear in them.
SIMPLIFIED_ONLY = set("这们说为么发动时会对还没过进开关门问间题线经让请应设输选择认错误级区户网络态连结数据读写"
                      "删试验证码观载轮胜负获处复专长现样标签单页听见游戏点个号须击战术剑钟尸弹枪该毁")


def test_the_chinese_catalogs_are_traditional_throughout():
    folders = INTERFACE_CATALOGS + [game_info(g).package_dir / "i18n" for g in translated_games()]
    found = {}
    for folder in folders:
        for key, text in load(folder, "zh").items():
            bad = sorted(set(text) & SIMPLIFIED_ONLY)
            if bad:
                found[f"{folder.parent.name}:{key}"] = "".join(bad)
    assert not found, found

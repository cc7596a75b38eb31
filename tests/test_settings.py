"""Host settings from one definition: flag over environment over the TOML
file over the default; a bad value or unknown key is one line naming the
setting and its source, exit status 2; the file example in
docs/operations.md parses and sets every setting."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamehost.cli.main import build_parser
from gamehost.host.ops.config import HostConfig
from gamehost.host.ops.settings_sources import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def no_host_variables(monkeypatch):
    import os

    for name in [name for name in os.environ if name.startswith("GAMEHOST_")]:
        monkeypatch.delenv(name)


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "gamehost.toml"
    path.write_text(text)
    return str(path)


def test_a_flag_beats_the_environment_which_beats_the_file_which_beats_the_default(tmp_path, monkeypatch):
    config_file = write(tmp_path, 'call_rate = 7\ncall_burst = 8\ncreate_rate = 9\n')
    monkeypatch.setenv("GAMEHOST_CALL_RATE", "70")
    monkeypatch.setenv("GAMEHOST_CALL_BURST", "80")
    settings = load_settings(HostConfig, {"call_rate": "700"}, config_file=config_file)
    assert (settings.call_rate, settings.call_burst, settings.create_rate, settings.create_burst) == (
        700.0, 80.0, 9.0, 40.0)


def test_the_file_takes_typed_values_lists_and_the_per_game_table(tmp_path):
    settings = load_settings(HostConfig, config_file=write(tmp_path, (
        'web_port = "off"\nmetrics_port = 9100\nauth_required = true\ntrusted_plugins = ["tictactoe", "scalino"]\n'
        'game_rules_timeouts = { kensington = 5 }\nisolation = "OFF"\n')))
    assert settings.web_port is None and settings.metrics_port == 9100 and settings.auth_required is True
    assert settings.trusted_plugins == "tictactoe,scalino" and settings.isolation == "off"
    assert settings.game_rules_timeouts == "kensington=5"


@pytest.mark.parametrize(("text", "env", "flags", "complaint"), [
    ("bogus = 1\n", {}, {}, "bogus in {file}: not a setting"),
    ('workers = 0\n', {}, {}, "workers in {file}: 0 is not from 1 to 256"),
    ('web_port = "http"\n', {}, {}, "web_port in {file}: must be a port number or 'off', not 'http'"),
    ('log_level = "loud"\n', {}, {}, "log_level in {file}: must be one of 'debug', 'info', 'warning', 'error', "
                                     "not 'loud'"),
    ('event_loop = "tokio"\n', {}, {}, "event_loop in {file}: must be one of 'auto', 'asyncio', 'uvloop', "
                                       "not 'tokio'"),
    ("", {"GAMEHOST_AUTH_REQUIRED": "maybe"}, {}, "GAMEHOST_AUTH_REQUIRED in the environment: must be true or false"),
    ("", {"GAMEHOST_MAX_WATCHERS": "many"}, {}, "GAMEHOST_MAX_WATCHERS in the environment: must be a whole number, "
                                                "not 'many'"),
    ("", {}, {"store": "postgres2://app:secret@db/games"}, "argument --store: must be 'sqlite', 'memory', "
                                                           "'sqlite:///path/file.db' or 'postgresql://user:password"
                                                           "@host:port/database', not 'postgres2://app:***@db/games'"),
    ("tls_key = '{file}'\n", {}, {}, "--tls-cert and --tls-key go together (--tls-cert from its default, "
                                     "--tls-key from {file})"),
    ("bot_timeout = 0.5\n", {"GAMEHOST_BOT_THINK_SCALE": "1"}, {},
     "--bot-think-scale must keep mcts-hard's 0.9 s times it under --bot-timeout (0.5 s), not 1.0 "
     "(--bot-think-scale from GAMEHOST_BOT_THINK_SCALE, --bot-timeout from {file})"),
])
def test_a_bad_setting_names_itself_and_its_source(tmp_path, monkeypatch, text, env, flags, complaint):
    config_file = str(tmp_path / "gamehost.toml")
    write(tmp_path, text.format(file=config_file))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        load_settings(HostConfig, flags, config_file=config_file)
    assert str(refused.value).startswith(complaint.format(file=config_file))
    assert "secret" not in str(refused.value)


def test_without_uvloop_auto_serves_on_asyncio_and_uvloop_is_refused(monkeypatch):
    from gamehost.host.ops.event_loops import serving_loop

    monkeypatch.setitem(sys.modules, "uvloop", None)  # as on a machine without it: not importable
    assert serving_loop(load_settings(HostConfig).event_loop) == "asyncio"
    with pytest.raises(SettingsError) as refused:
        load_settings(HostConfig, {"event_loop": "uvloop"})
    assert str(refused.value).startswith("argument --event-loop: uvloop is not installed here (pip install uvloop), "
                                         "or choose 'auto' or 'asyncio'")



@pytest.mark.parametrize("count", [1, 2])
def test_the_default_worker_count_is_the_cores_the_host_may_use_not_the_machines(count):
    """A host confined to some cores (taskset, a container's cpuset) starts one
    worker per core it may use: more would only compete for them."""
    import os

    usable = sorted(os.sched_getaffinity(0))
    if len(usable) < count:
        pytest.skip(f"this process may use fewer than {count} cores")
    cores = usable[:count]
    code = ("import os, sys; os.sched_setaffinity(0, set(map(int, sys.argv[1:])));"
            "from gamehost.host.ops.config import HostConfig; from gamehost.host.ops.settings_sources import load_settings;"
            "print(load_settings(HostConfig, {}).workers)")
    shown = subprocess.run([sys.executable, "-c", code, *map(str, cores)], capture_output=True, text=True, check=True)
    assert int(shown.stdout) == len(cores)


def test_a_missing_or_broken_file_is_named(tmp_path):
    with pytest.raises(SettingsError, match="no such file"):
        load_settings(HostConfig, config_file=str(tmp_path / "absent.toml"))
    with pytest.raises(SettingsError, match="not TOML"):
        load_settings(HostConfig, config_file=write(tmp_path, "web_port = \n"))


def test_serve_refuses_a_bad_file_in_one_line_with_exit_status_2(tmp_path):
    config_file = write(tmp_path, "web_port = 8080\nwrokers = 4\n")
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--config", config_file],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [f"gamehost serve: error: wrokers in {config_file}: not a setting (the "
                                           "file's keys are the flags' names with underscores, e.g. web_port)"]


def test_port_replaces_the_port_of_the_address_from_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEHOST_CONFIG", write(tmp_path, 'address = "0.0.0.0:50051"\nmax_strikes = 5\n'))
    from gamehost.cli.main import _load_settings

    parser = build_parser()
    args = parser.parse_args(["serve", "--port", "6000"])
    _load_settings(parser, args)
    assert args.settings.address == "0.0.0.0:6000" and args.settings.max_strikes == 5


def test_serve_help_lists_every_setting_with_its_variable_and_default():
    serve = build_parser()._subparsers._group_actions[0].choices["serve"]  # type: ignore[union-attr]
    text = " ".join(serve.format_help().split())
    for name in HostConfig.model_fields:
        flag = f"--{name.replace('_', '-')}"
        assert re.search(rf"{flag} .*?\(env GAMEHOST_{name.upper()}(=1)?, default [^)]+\)", text), flag


def test_the_settings_file_example_in_the_docs_parses_and_sets_every_setting(tmp_path):
    operations = (ROOT / "docs/operations.md").read_text()
    example = re.search(r"## The settings file\n.*?```toml\n(.*?)```", operations, re.S).group(1)
    import tomllib

    assert set(tomllib.loads(example)) == set(HostConfig.model_fields)
    settings = load_settings(HostConfig, config_file=write(tmp_path, example))
    assert settings.game_rules_timeouts == "kensington=5,scalino=5" and settings.metrics_port == 9090


def test_the_flags_the_readme_and_operations_md_name_exist():
    import argparse

    flags: set[str] = set()

    def collect(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            flags.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                for command in action.choices.values():
                    collect(command)

    collect(build_parser())
    for page, others in (("README.md", set()), ("docs/operations.md", {"--build"})):  # docker compose up --build
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", (ROOT / page).read_text()))
        assert named - others <= flags, (page, named - others - flags)


def test_client_commands_take_the_host_from_the_flag_over_gamehost_target(monkeypatch):
    from gamehost.cli.main import _load_settings

    monkeypatch.setenv("GAMEHOST_TARGET", "games.example:6000")
    monkeypatch.setenv("GAMEHOST_TOKEN", "key-from-env")
    parser = build_parser()
    for argv, host in ((["games"], "games.example:6000"), (["games", "--host", "127.0.0.1:7000"], "127.0.0.1:7000")):
        args = parser.parse_args(argv)
        _load_settings(parser, args)
        assert (args.host, args.bearer_token, args.tls, args.tls_ca) == (host, "key-from-env", False, "")

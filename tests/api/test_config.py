"""The configuration loader: defaults, the file, the environment, command-line overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament_wire.broker import MqttSettings, parse_mqtt_url
from web.config.settings import (
    ConfigError,
    Settings,
    SourceSpec,
    load_settings,
    parse_source,
    settings_to_toml,
)
from web_common.limits import DEFAULT_LIMITS
from web_common.pin import hash_pin

NO_DEFAULT_FILE = Path("/nonexistent/skitter.toml")


def load(tmp_path: Path, text: str | None = None, overrides=None, environ=None) -> Settings:
    """Load from a file holding ``text`` (or no file), with a clean environment."""
    env = {"HOME": str(tmp_path / "home")} if environ is None else environ
    path = None
    if text is not None:
        path = tmp_path / "skitter.toml"
        path.write_text(text)
    return load_settings(path, overrides, environ=env, default_path=NO_DEFAULT_FILE)


# ----------------------------------------------------------------------------- defaults


def test_every_key_has_a_default_without_any_file(tmp_path):
    s = load(tmp_path)
    assert s.source == "sim"
    assert s.profile is None
    assert s.data_dir == tmp_path / "home" / ".local" / "share" / "skitter"
    assert s.db == s.data_dir / "skitter.db"
    assert (s.host, s.port) == ("127.0.0.1", 8000)
    assert s.pin_hash is None
    assert (s.settle_ms, s.debounce_ms, s.record, s.board_id) == (None, None, None, None)
    assert s.mqtt.url is None and not s.mqtt.enabled
    assert s.mqtt.topic_prefix == "skitter" and s.mqtt.tls_insecure is False
    assert s.config_path is None
    assert set(s.origins.values()) == {"default"}


def test_skitter_data_moves_the_data_directory_and_the_database(tmp_path):
    s = load(tmp_path, environ={"SKITTER_DATA": str(tmp_path / "d")})
    assert s.data_dir == tmp_path / "d"
    assert s.db == tmp_path / "d" / "skitter.db"
    assert s.origins["data_dir"] == "environment"


def test_default_file_is_read_when_present(tmp_path):
    default = tmp_path / "etc.toml"
    default.write_text("port = 8123\n")
    s = load_settings(environ={}, default_path=default)
    assert s.port == 8123 and s.config_path == default


def test_missing_default_file_means_defaults(tmp_path):
    s = load_settings(environ={"HOME": str(tmp_path)}, default_path=tmp_path / "none.toml")
    assert s.port == 8000 and s.config_path is None


def test_skitter_config_names_another_file(tmp_path):
    other = tmp_path / "venue.toml"
    other.write_text('host = "0.0.0.0"\n')
    s = load_settings(environ={"SKITTER_CONFIG": str(other)}, default_path=NO_DEFAULT_FILE)
    assert s.host == "0.0.0.0" and s.config_path == other


# ----------------------------------------------------------------------------- file values


VENUE = """
# the venue's board
source = "mcp23017"
profile = "profiles/club.toml"
data_dir = "/var/lib/skitter"
host = "0.0.0.0"
port = 8080
settle_ms = 250
debounce_ms = 15
record = "events.log"
board_id = "table-3"

[mqtt]
url = "mqtts://broker.local"
username = "board3"
password = "s3cret"
topic_prefix = "cup"
tls_insecure = true
"""


def test_file_values_are_used_and_relative_paths_follow_the_file(tmp_path):
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "club.toml").write_text("cells = 4\n")
    s = load(tmp_path, VENUE)
    assert s.source == "mcp23017" and s.source_spec == SourceSpec("mcp23017")
    assert s.profile == tmp_path / "profiles" / "club.toml"
    assert s.data_dir == Path("/var/lib/skitter")
    assert s.db == Path("/var/lib/skitter/skitter.db")
    assert (s.host, s.port, s.settle_ms, s.debounce_ms) == ("0.0.0.0", 8080, 250, 15)
    assert s.record == tmp_path / "events.log"
    assert s.board_id == "table-3"
    assert s.mqtt.url == "mqtts://broker.local" and s.mqtt.port == 8883 and s.mqtt.tls
    assert (s.mqtt.username, s.mqtt.password, s.mqtt.topic_prefix) == ("board3", "s3cret", "cup")
    assert s.origins["port"] == "file" and s.origins["mqtt.url"] == "file"
    assert s.origins["db"] == "file"  # follows data_dir


def test_the_venues_connection_caps_reach_the_server(tmp_path):
    assert load(tmp_path).limits == DEFAULT_LIMITS
    s = load(tmp_path, "request_seconds = 2\nstall_seconds = 10\nconnections = 500\n")
    assert (s.limits.request_seconds, s.limits.stall_seconds, s.limits.connections) == (2, 10, 500)


def test_the_caller_speaks_the_venues_language_unless_told_otherwise(tmp_path):
    """Issue 29: a German venue (``language = "de"``) hears a German caller, whose lines the
    TV shows, without a second key; ``caller_language`` still wins."""
    german = load(tmp_path, 'language = "de"\n')
    assert (german.language, german.caller_language) == ("de", "de")
    assert german.origins["caller_language"] == "file"
    both = load(tmp_path, 'language = "de"\ncaller_language = "en"\n')
    assert both.caller_language == "en"
    assert load(tmp_path).caller_language == "en"


def test_pin_hash_from_the_file_is_accepted(tmp_path):
    hashed = hash_pin("2468")
    assert load(tmp_path, f'pin_hash = "{hashed}"\n').pin_hash == hashed


def test_mqtt_credentials_move_out_of_the_url(tmp_path):
    s = load(tmp_path, '[mqtt]\nurl = "mqtt://ref:p%40ss@10.0.0.5:1884"\n')
    assert s.mqtt.url == "mqtt://10.0.0.5:1884"
    assert (s.mqtt.username, s.mqtt.password) == ("ref", "p@ss")
    assert (s.mqtt.host, s.mqtt.port, s.mqtt.tls) == ("10.0.0.5", 1884, False)


def test_password_is_not_in_the_repr(tmp_path):
    s = load(tmp_path, '[mqtt]\nurl = "mqtt://b"\nusername = "u"\npassword = "hunter22"\n')
    assert "hunter22" not in repr(s)


def test_source_kinds_with_arguments(tmp_path):
    log = tmp_path / "match.log"
    log.write_text("")
    assert load(tmp_path, 'source = "serial"\n').source_spec == SourceSpec("serial")
    assert load(tmp_path, 'source = "serial:/dev/skitter-board"\n').source_spec == SourceSpec(
        "serial", "/dev/skitter-board"
    )
    assert load(tmp_path, 'source = "replay:match.log"\n').source_spec == SourceSpec(
        "replay", str(log)
    )


# ----------------------------------------------------------------------------- overrides


def test_command_line_overrides_win_over_the_file(tmp_path):
    s = load(tmp_path, "port = 8080\nhost = '0.0.0.0'\n", {"port": 9001, "host": None})
    assert s.port == 9001 and s.origins["port"] == "command line"
    assert s.host == "0.0.0.0" and s.origins["host"] == "file"


def test_data_dir_override_moves_the_database_too(tmp_path):
    s = load(tmp_path, None, {"data_dir": str(tmp_path / "x")})
    assert s.db == tmp_path / "x" / "skitter.db"
    assert s.origins["db"] == "command line"


def test_mqtt_url_override_with_dotted_key(tmp_path):
    s = load(tmp_path, None, {"mqtt.url": "mqtt://broker"})
    assert s.mqtt.url == "mqtt://broker" and s.mqtt.port == 1883


def test_none_overrides_are_ignored(tmp_path):
    assert load(tmp_path, None, dict.fromkeys(("port", "source", "mqtt.url"))) == load(tmp_path)


# ----------------------------------------------------------------------------- errors


def error_of(tmp_path: Path, text: str | None, overrides=None) -> str:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text, overrides)
    return str(info.value)


def test_unknown_key_is_named_with_a_suggestion(tmp_path):
    message = error_of(tmp_path, "prot = 8000\n")
    assert "unknown key 'prot'" in message and "did you mean 'port'" in message
    assert "skitter.toml" in message


def test_unknown_mqtt_key_is_named(tmp_path):
    assert "unknown key 'mqtt.passwd'" in error_of(tmp_path, "[mqtt]\npasswd = 'x'\n")


def test_unknown_table_is_named(tmp_path):
    assert "unknown key 'kiosk'" in error_of(tmp_path, "[kiosk]\nurl = 'x'\n")


def test_mqtt_must_be_a_table(tmp_path):
    assert "mqtt: expected a [mqtt] table" in error_of(tmp_path, 'mqtt = "mqtt://b"\n')


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('port = "8000"\n', "port: expected an integer, got '8000' (string)"),
        ("port = true\n", "port: expected an integer, got True (boolean)"),
        ("port = 70000\n", "port: must be between 1 and 65535, got 70000"),
        ("port = 0\n", "port: must be between 1 and 65535, got 0"),
        ("settle_ms = -5\n", "settle_ms: must be between 0 and 60000, got -5"),
        ("debounce_ms = 2.5\n", "debounce_ms: expected an integer, got 2.5 (number)"),
        ("host = 8000\n", "host: expected a string, got 8000 (integer)"),
        ('host = "not a host!"\n', "host: not an IP address or host name: 'not a host!'"),
        ('host = ""\n', "host: must not be empty"),
        ('data_dir = ""\n', "data_dir: must not be empty"),
        ("data_dir = 3\n", "data_dir: expected a string, got 3 (integer)"),
        ('profile = "missing.toml"\n', "profile: file not found:"),
        ('board_id = "table 3"\n', "board_id: 'table 3' may hold only letters"),
        ('pin_hash = "1234"\n', "pin_hash: not a PIN hash made by 'skitter set-pin'"),
        ('[mqtt]\ntls_insecure = "yes"\n', "mqtt.tls_insecure: expected true or false"),
        ('[mqtt]\ntopic_prefix = "a/b"\n', "mqtt.topic_prefix: 'a/b' may hold only"),
        ('[mqtt]\ntls_ca = "ca.pem"\n', "mqtt.tls_ca: file not found:"),
        ("request_seconds = 0\n", "request_seconds: must be between 1 and 600, got 0"),
    ],
)
def test_wrong_values_are_refused_naming_the_key_and_file(tmp_path, text, expected):
    message = error_of(tmp_path, text)
    assert expected in message
    assert str(tmp_path / "skitter.toml") in message


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("gpio", "source: unknown source 'gpio'"),
        ("sim:fast", "source: 'sim' takes no ':' argument"),
        ("mcp23017:0x20", "source: 'mcp23017' takes no ':' argument"),
        ("serial:", "source: 'serial:' needs a port"),
        ("replay", "source: 'replay' needs a file"),
        ("replay:nothing.log", "source: replay file not found:"),
    ],
)
def test_bad_source_specs_are_refused(tmp_path, source, expected):
    assert expected in error_of(tmp_path, f'source = "{source}"\n')


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://broker", "mqtt.url: must start with mqtt:// or mqtts://"),
        ("mqtt://", "mqtt.url: names no broker host"),
        ("mqtt://broker:99999", "mqtt.url: not a valid broker URL"),
        ("mqtt://broker/topic", "mqtt.url: must be mqtt[s]://[user:password@]host[:port] only"),
    ],
)
def test_bad_mqtt_urls_are_refused(tmp_path, url, expected):
    assert expected in error_of(tmp_path, f'[mqtt]\nurl = "{url}"\n')


def test_credentials_twice_are_refused(tmp_path):
    text = '[mqtt]\nurl = "mqtt://u:p@b"\nusername = "v"\n'
    assert "mqtt.username: given both in mqtt.url and as its own key" in error_of(tmp_path, text)


def test_password_without_username_is_refused(tmp_path):
    text = '[mqtt]\nurl = "mqtt://b"\npassword = "p"\n'
    assert "mqtt.password: needs mqtt.username as well" in error_of(tmp_path, text)


def test_wrong_password_type_does_not_echo_it(tmp_path):
    message = error_of(tmp_path, "[mqtt]\nusername = 'u'\npassword = 987654\n")
    assert "mqtt.password" in message and "987654" not in message


def test_client_certificate_needs_its_key(tmp_path):
    (tmp_path / "c.pem").write_text("x")
    text = '[mqtt]\nurl = "mqtts://b"\ntls_cert = "c.pem"\n'
    assert "mqtt.tls_cert: needs mqtt.tls_key as well" in error_of(tmp_path, text)


def test_toml_syntax_error_names_file_and_line(tmp_path):
    message = error_of(tmp_path, 'port = 8000\nhost = "0.0.0.0\n')
    assert "not valid TOML" in message and "line 2" in message
    assert "skitter.toml" in message


def test_missing_file_named_by_option_is_an_error(tmp_path):
    expected = r"configuration file not found: .*nope.toml \(named by --config\)"
    with pytest.raises(ConfigError, match=expected):
        load_settings(tmp_path / "nope.toml", environ={}, default_path=NO_DEFAULT_FILE)


def test_missing_file_named_by_environment_is_an_error(tmp_path):
    env = {"SKITTER_CONFIG": str(tmp_path / "gone.toml")}
    with pytest.raises(ConfigError, match=r"gone.toml \(named by SKITTER_CONFIG\)"):
        load_settings(environ=env, default_path=NO_DEFAULT_FILE)


def test_bad_override_is_named_as_command_line(tmp_path):
    message = error_of(tmp_path, None, {"port": 0})
    assert message == "port: must be between 1 and 65535, got 0 (on the command line)"


def test_unknown_override_key_is_refused(tmp_path):
    assert "unknown key 'colour'" in error_of(tmp_path, None, {"colour": "red"})


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


def test_parse_source_refuses_empty_text():
    with pytest.raises(ConfigError, match="source: must be one of"):
        parse_source("  ")


def test_a_bad_broker_url_is_refused_without_repeating_its_password(tmp_path):
    message = error_of(tmp_path, '[mqtt]\nurl = "mqtt://u:hunter22@broker/topic"\n')
    assert "mqtt.url: must be mqtt[s]://" in message and "hunter22" not in message


def test_the_broker_password_comes_from_a_file_or_the_environment(tmp_path):
    (tmp_path / "pw").write_text("from-file\n")
    s = load(tmp_path, '[mqtt]\nurl = "mqtt://u@b"\npassword_file = "pw"\n')
    assert s.mqtt.password == "from-file" and "from-file" not in settings_to_toml(s)
    s = load_settings(None, {"mqtt.url": "mqtt://u@b"}, environ={"SKITTER_MQTT_PASSWORD": "env"},
                      default_path=tmp_path / "none")
    assert s.mqtt.password == "env" and s.origins["mqtt.password"] == "environment"


@pytest.mark.parametrize(("url", "host", "port"), [
    ("mqtt://broker.local", "broker.local", 1883),
    ("mqtts://broker.local", "broker.local", 8883),
    ("mqtt://10.0.0.2:1884", "10.0.0.2", 1884),
    ("mqtts://[::1]", "::1", 8883),
])
def test_the_broker_address_is_read_by_the_one_url_parser(url: str, host: str,
                                                          port: int) -> None:
    split = parse_mqtt_url(url)
    assert (split.host, split.port) == (host, port)
    settings = MqttSettings(url=split.url)
    assert (settings.host, settings.port) == (host, port)
    assert MqttSettings().host is None and MqttSettings().port is None
    source = (Path(__file__).parents[2] / "web" / "config" / "settings.py").read_text()
    assert "urlsplit" not in source  # the settings use parse_mqtt_url, never their own split

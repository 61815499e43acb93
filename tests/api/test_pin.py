"""The referee PIN: generated once, kept only as a hash (0600), verified, replaced."""

from __future__ import annotations

import base64
import hashlib
import stat

import pytest

from web_common.pin import (
    PIN_FILE_NAME,
    PinError,
    PinStore,
    check_pin_format,
    generate_pin,
    hash_pin,
    is_pin_hash,
    verify_pin,
)


def test_first_start_generates_a_six_digit_pin_once(tmp_path):
    store = PinStore(tmp_path / "data")
    pin = store.ensure()
    assert pin is not None and len(pin) == 6 and pin.isdigit()
    assert store.ensure() is None
    assert store.verify(pin)


def test_pin_survives_a_restart(tmp_path):
    pin = PinStore(tmp_path).ensure()
    restarted = PinStore(tmp_path)
    assert restarted.ensure() is None
    assert restarted.verify(pin)


def test_pin_file_holds_only_a_hash_readable_by_the_owner_alone(tmp_path):
    pin = PinStore(tmp_path).ensure()
    path = tmp_path / PIN_FILE_NAME
    text = path.read_text()
    assert pin not in text and is_pin_hash(text.strip())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_wrong_pin_is_refused(tmp_path):
    store = PinStore(tmp_path)
    store.set("4321")
    assert not store.verify("1234")
    assert not store.verify("")
    assert not store.verify(None)
    assert not store.verify(4321)


def test_set_replaces_the_pin(tmp_path):
    store = PinStore(tmp_path)
    old = store.ensure()
    store.set("97531")
    assert store.verify("97531") and not store.verify(old)
    assert PinStore(tmp_path).verify("97531")


def test_surrounding_spaces_are_ignored(tmp_path):
    store = PinStore(tmp_path)
    store.set(" 2468\n")
    assert store.verify("2468 ")


@pytest.mark.parametrize(
    ("pin", "expected"),
    [
        ("123", "must have 4 to 12 digits, got 3"),
        ("1234567890123", "must have 4 to 12 digits, got 13"),
        ("12a4", "may contain only the digits 0-9"),
        ("١٢٣٤", "may contain only the digits 0-9"),  # Arabic-Indic digits
        ("  ", "is empty: it must have 4 to 12 digits"),
    ],
)
def test_bad_pins_are_refused_with_a_clear_message(tmp_path, pin, expected):
    store = PinStore(tmp_path)
    with pytest.raises(PinError, match=expected):
        store.set(pin)
    assert not (tmp_path / PIN_FILE_NAME).exists()


def test_error_message_does_not_repeat_the_pin():
    with pytest.raises(PinError) as info:
        check_pin_format("98765432109876")
    assert "98765432109876" not in str(info.value)


def test_configured_hash_wins_over_the_file(tmp_path):
    PinStore(tmp_path).set("1111")
    store = PinStore(tmp_path, pin_hash=hash_pin("2222"))
    assert store.from_config
    assert store.ensure() is None
    assert store.verify("2222") and not store.verify("1111")


def test_configured_hash_means_no_pin_is_generated(tmp_path):
    assert PinStore(tmp_path, pin_hash=hash_pin("5555")).ensure() is None
    assert not (tmp_path / PIN_FILE_NAME).exists()


def test_configured_hash_must_be_a_hash(tmp_path):
    with pytest.raises(PinError, match="pin_hash is not a PIN hash"):
        PinStore(tmp_path, pin_hash="5555")


def test_corrupt_pin_file_is_reported_not_replaced(tmp_path):
    (tmp_path / PIN_FILE_NAME).write_text("garbage\n")
    store = PinStore(tmp_path)
    with pytest.raises(PinError, match="does not hold a referee PIN hash; run 'skitter set-pin'"):
        store.ensure()
    assert not store.verify("123456")
    assert (tmp_path / PIN_FILE_NAME).read_text() == "garbage\n"


def test_hashes_are_salted():
    assert hash_pin("1234") != hash_pin("1234")
    assert verify_pin("1234", hash_pin("1234"))


def test_verify_pin_never_raises_on_bad_hashes():
    assert not verify_pin("1234", "scrypt$n=3,r=8,p=1$AAAA$AAAA")
    huge_n = "scrypt$n=1099511627776,r=8,p=1$c2FsdHNhbHQ=$AAAAAAAAAAAAAAAAAAAAAA=="
    assert not verify_pin("1234", huge_n)
    assert not verify_pin("1234", None)  # type: ignore[arg-type]
    assert not verify_pin("1" * 10_000, hash_pin("1234"))


def test_generated_pins_differ():
    pins = {generate_pin() for _ in range(20)}
    assert len(pins) > 15


def test_set_pin_from_another_process_takes_effect_without_restart(tmp_path):
    running = PinStore(tmp_path)
    running.set("1357")
    assert running.verify("1357")
    PinStore(tmp_path).set("2468")  # skitter set-pin, run beside the service
    assert running.verify("2468") and not running.verify("1357")


def test_pin_file_removed_while_running_keeps_the_last_pin(tmp_path):
    running = PinStore(tmp_path)
    running.set("1357")
    (tmp_path / PIN_FILE_NAME).unlink()
    assert running.verify("1357")


def test_pin_file_damaged_while_running_keeps_the_last_pin(tmp_path):
    running = PinStore(tmp_path)
    running.set("1357")
    (tmp_path / PIN_FILE_NAME).write_text("oops")
    assert running.verify("1357")


def test_set_replaces_a_configured_pin_in_this_process(tmp_path):
    store = PinStore(tmp_path, pin_hash=hash_pin("1111"))
    store.set("2222")
    assert store.verify("2222") and not store.verify("1111") and not store.from_config


@pytest.mark.real_pin_cost
def test_a_pin_check_needs_at_most_four_mib_of_memory() -> None:
    # The server's memory budget on a Pi is 80 MB; scrypt's work area is 128 * r * n bytes.
    params = dict(kv.split("=") for kv in hash_pin("2468").split("$")[1].split(","))
    assert 128 * int(params["r"]) * int(params["n"]) <= 4 * 1024 * 1024


@pytest.mark.real_pin_cost
def test_a_new_pin_is_hashed_at_the_full_cost_outside_the_tests() -> None:
    # The suite hashes at a token cost (tests/conftest.py); a program never does.
    assert hash_pin("2468").startswith("scrypt$n=4096,r=8,p=4$")


def test_the_tests_hash_pins_cheaply_and_the_hash_still_verifies() -> None:
    hashed = hash_pin("2468")
    assert hashed.startswith("scrypt$n=16,r=1,p=1$")
    assert verify_pin("2468", hashed) and not verify_pin("2469", hashed)


def test_a_pin_stored_with_older_stronger_settings_still_verifies() -> None:
    salt = b"0123456789abcdef"
    digest = hashlib.scrypt(b"2468", salt=salt, n=2**14, r=8, p=1, maxmem=2**26, dklen=32)
    stored = (
        f"scrypt$n=16384,r=8,p=1${base64.b64encode(salt).decode()}$"
        f"{base64.b64encode(digest).decode()}"
    )
    assert verify_pin("2468", stored)
    assert not verify_pin("2469", stored)


def test_the_pin_to_set_comes_from_the_option_the_file_or_the_environment(tmp_path) -> None:
    from web_common.pin import PinError, pin_given

    (tmp_path / "pin").write_text("  483920 \nignored\n")
    env = {"SKITTER_PIN": "111222"}
    assert pin_given(None, None, {}) is None
    assert pin_given(None, None, env) == "111222"
    assert pin_given(None, tmp_path / "pin", env).strip() == "483920"
    assert pin_given("999000", tmp_path / "pin", env) == "999000"
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(PinError, match="is empty"):
        pin_given(None, tmp_path / "empty", env)
    with pytest.raises(PinError, match="cannot read") as caught:
        pin_given(None, tmp_path / "missing", env)
    assert "111222" not in str(caught.value)

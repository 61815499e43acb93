#!/usr/bin/env bash
# Install skitter on a Raspberry Pi (64-bit Raspberry Pi OS Bookworm or Trixie): I2C, the
# skitter user, the virtual environment in /opt/skitter (the versions of constraints.txt),
# the systemd unit, the udev rule, the configuration and board profile in /etc/skitter and
# (with --kiosk) the full-screen scoreboard on the attached TV.
#
#   sudo hardware/pi/install.sh [--kiosk]        install on this Pi
#   hardware/pi/install.sh --root DIR [--kiosk]  stage into DIR (nothing outside DIR)
#
# Idempotent: run it again after `git pull` to update; files that already have the right
# content are left alone, and /etc/skitter/skitter.toml is never overwritten.
#
# With --root DIR the script writes only under DIR and runs no system command (useradd,
# usermod, groupadd, apt-get, pip, udevadm, systemctl, raspi-config): it prints each one as
# "would run: ..." so the staged tree can be inspected, packaged or copied to an SD card.
set -euo pipefail

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'EOF'

Options:
  --root DIR   install into DIR instead of /; print system commands instead of running them
  --kiosk      also open the scoreboard full screen when the desktop starts
  --board-credentials FILE
               join a tournament: the board id and broker user from FILE (written by
               `skitter hub boards add`) go into /etc/skitter
  -h, --help   show this help
EOF
}

ROOT=""
KIOSK=0
CREDENTIALS=""
while [ $# -gt 0 ]; do
    case "$1" in
        --root)
            [ $# -ge 2 ] || { echo "install.sh: --root needs a folder" >&2; exit 2; }
            ROOT="$2"; shift 2 ;;
        --root=*) ROOT="${1#--root=}"; shift ;;
        --kiosk) KIOSK=1; shift ;;
        --board-credentials)
            [ $# -ge 2 ] || { echo "install.sh: --board-credentials needs a file" >&2; exit 2; }
            CREDENTIALS="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done

# 32-bit Raspberry Pi OS is refused: Blinka needs the gpiod 2.x binding on every Pi, and
# PyPI has it (and several other dependencies) only as 64-bit wheels; on armhf pip would try
# to compile them on the Pi, a path nobody tests. The userland decides (dpkg), not the kernel:
# 32-bit Raspberry Pi OS runs a 64-bit kernel on a Pi 4 or 5.
ARCH="$(dpkg --print-architecture 2>/dev/null || uname -m)"
case "$ARCH" in
    armhf | armel | armv6l | armv7l | i386 | i686)
        echo "install.sh: this is a 32-bit system ($ARCH), which skitter does not support:" \
            "install the 64-bit Raspberry Pi OS (Bookworm or Trixie, arm64) with Raspberry Pi" \
            "Imager (Pi 3, 4, 5 and Zero 2 W all run it), then run install.sh again" >&2
        exit 1 ;;
esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$(cd "$HERE/../.." && pwd)"
PRINT_ONLY=0
if [ -n "$ROOT" ]; then
    mkdir -p "$ROOT"
    ROOT="$(cd "$ROOT" && pwd)"
    [ "$ROOT" = "/" ] && ROOT=""
    PRINT_ONLY=1
elif [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo $0), or stage it with --root DIR" >&2
    exit 1
fi

CHANGED=0
REBOOT=0

say() { printf '%s\n' "$*"; }

# Run a system command, or under --root only say what would run.
run() {
    local shown="" arg
    for arg in "$@"; do
        case "$arg" in
            "" | *[!A-Za-z0-9_./:=,@%+-]*) shown="$shown '$arg'" ;;
            *) shown="$shown $arg" ;;
        esac
    done
    if [ "$PRINT_ONLY" -eq 1 ]; then
        say "would run:$shown"
    else
        say "+$shown"
        "$@"
    fi
}

# Copy SOURCE to DEST (a path on the target system) with MODE, only when the content differs.
put() {
    local source="$1" dest="$ROOT$2" mode="$3"
    mkdir -p "$(dirname "$dest")"
    if [ -f "$dest" ] && cmp -s "$source" "$dest"; then
        chmod "$mode" "$dest"
        say "unchanged: $2"
        return 0
    fi
    install -m "$mode" "$source" "$dest"
    say "installed: $2"
    CHANGED=1
}

# Write TEXT to DEST like put().
put_text() {
    local text="$1" dest="$2" mode="$3" tmp
    tmp="$(mktemp)"
    printf '%s\n' "$text" >"$tmp"
    put "$tmp" "$dest" "$mode"
    rm -f "$tmp"
}

# Make DEST (a path on the target system) a symbolic link to TARGET, unless it already is.
link() {
    local target="$1" dest="$ROOT$2"
    mkdir -p "$(dirname "$dest")"
    if [ -L "$dest" ] && [ "$(readlink "$dest")" = "$target" ]; then
        say "unchanged: $2 -> $target"
        return 0
    fi
    if [ -e "$dest" ] && [ ! -L "$dest" ]; then
        say "kept: $2 (a file that is not ours; skitter is in $target)"
        return 0
    fi
    ln -sfn "$target" "$dest"
    say "installed: $2 -> $target"
    CHANGED=1
}

# --- I2C: the expanders' bus, /dev/i2c-1 -------------------------------------------------
enable_i2c() {
    local config="$ROOT/boot/firmware/config.txt"
    if [ ! -f "$config" ] && [ -f "$ROOT/boot/config.txt" ]; then
        config="$ROOT/boot/config.txt"  # Bullseye and older
    fi
    if [ ! -f "$config" ]; then
        if [ -z "$ROOT" ]; then
            say "warning: no /boot/firmware/config.txt: not a Raspberry Pi? I2C left as it is"
            return 0
        fi
        mkdir -p "$(dirname "$config")"
        : >"$config"
    fi
    local shown="${config#"$ROOT"}"
    if grep -Eq '^[[:space:]]*dtparam=i2c_arm=on([[:space:]]|$)' "$config"; then
        say "unchanged: $shown (I2C already on)"
    elif grep -Eq '^[[:space:]]*dtparam=i2c_arm=off' "$config"; then
        sed -i -E 's/^([[:space:]]*)dtparam=i2c_arm=off/\1dtparam=i2c_arm=on/' "$config"
        say "changed: $shown (dtparam=i2c_arm=off -> on)"
        CHANGED=1; REBOOT=1
    else
        # Lines after a [pi4]-style filter apply to that model only: add under [all].
        local last_section
        last_section="$({ grep -E '^[[:space:]]*\[' "$config" || true; } | tail -n 1 | tr -d '[:space:]')"
        {
            [ -s "$config" ] && [ -n "$(tail -c 1 "$config")" ] && echo
            [ -n "$last_section" ] && [ "$last_section" != "[all]" ] && echo "[all]"
            echo "# skitter: I2C bus for the MCP23017 sensor expanders"
            echo "dtparam=i2c_arm=on"
        } >>"$config"
        say "changed: $shown (added dtparam=i2c_arm=on)"
        CHANGED=1; REBOOT=1
    fi
    # The /dev/i2c-* device files come from the i2c-dev module.
    put_text "i2c-dev" /etc/modules-load.d/skitter-i2c.conf 0644
}

# --- the skitter user -----------------------------------------------------------------------
create_user() {
    local group
    for group in i2c gpio dialout; do
        if [ "$PRINT_ONLY" -eq 1 ] || ! getent group "$group" >/dev/null; then
            run groupadd --force --system "$group"
        fi
    done
    if [ "$PRINT_ONLY" -eq 1 ] || ! id skitter >/dev/null 2>&1; then
        run useradd --system --user-group --home-dir /var/lib/skitter --no-create-home \
            --shell /usr/sbin/nologin --comment "skitter scorekeeper" skitter
    fi
    run usermod --append --groups i2c,gpio,dialout skitter
}

# --- the program: /opt/skitter/venv -------------------------------------------------------------
install_program() {
    mkdir -p "$ROOT/opt/skitter/bin"
    run apt-get install -y --no-install-recommends python3-venv python3-lgpio i2c-tools espeak-ng
    # System site packages: gpiozero uses the lgpio that Raspberry Pi OS ships.
    if [ "$PRINT_ONLY" -eq 1 ] || [ ! -x /opt/skitter/venv/bin/python ]; then
        run python3 -m venv --system-site-packages /opt/skitter/venv
    fi
    # The wheel is built from a clean copy of the checkout into a temporary folder
    # (build-wheel.sh), so the checkout stays as cloned; then installed with the versions CI
    # tested (constraints.txt, made by `make lock`).
    local wheel
    if [ "$PRINT_ONLY" -eq 1 ]; then
        say "would run: $HERE/build-wheel.sh /opt/skitter/venv/bin/python WHEELDIR"
        wheel="WHEELDIR/skitter_scorekeeper-VERSION-py3-none-any.whl"
    else
        WHEELS="$(mktemp -d)"
        trap 'rm -rf "$WHEELS"' EXIT
        wheel="$("$HERE/build-wheel.sh" /opt/skitter/venv/bin/python "$WHEELS")"
    fi
    run /opt/skitter/venv/bin/pip install --quiet -c "$SRC/constraints.txt" "$wheel"
    run /opt/skitter/venv/bin/pip install --quiet --no-deps --force-reinstall "$wheel"
    # `skitter` on every user's PATH (and sudo's secure_path).
    link /opt/skitter/venv/bin/skitter /usr/local/bin/skitter
    if [ "$PRINT_ONLY" -eq 1 ]; then
        say "note: under --root the virtual environment is not built; on the Pi run"
        say "      python3 -m venv --system-site-packages /opt/skitter/venv &&"
        say "      $HERE/build-wheel.sh /opt/skitter/venv/bin/python WHEELDIR &&"
        say "      /opt/skitter/venv/bin/pip install -c $SRC/constraints.txt WHEELDIR/*.whl"
    fi
}

# --- configuration, service, device name ----------------------------------------------------
install_files() {
    if [ -e "$ROOT/etc/skitter/skitter.toml" ]; then
        say "kept: /etc/skitter/skitter.toml (never overwritten; example in $HERE/skitter.toml)"
    else
        put "$HERE/skitter.toml" /etc/skitter/skitter.toml 0640
        # Readable by the service (it may hold pin_hash and the MQTT password), not by others.
        run chown root:skitter /etc/skitter/skitter.toml
    fi
    # The board profile the service reads and `skitter calibrate` writes (never the copy in
    # site-packages, which every update replaces); a calibrated profile is never overwritten.
    if [ -e "$ROOT/etc/skitter/board.toml" ]; then
        say "kept: /etc/skitter/board.toml (never overwritten; reference in $SRC/hardware/boards)"
    else
        put "$SRC/hardware/boards/default.toml" /etc/skitter/board.toml 0644
    fi
    put "$HERE/skitter.service" /etc/systemd/system/skitter.service 0644
    put "$HERE/99-skitter.rules" /etc/udev/rules.d/99-skitter.rules 0644
    if [ "$KIOSK" -eq 1 ]; then
        put "$HERE/skitter-kiosk" /opt/skitter/bin/skitter-kiosk 0755
        put "$HERE/skitter-kiosk.desktop" /etc/xdg/autostart/skitter-kiosk.desktop 0644
        # No screen blanking on the scoreboard TV.
        run raspi-config nonint do_blanking 1
    fi
}

# --- tournament credentials (--board-credentials FILE from `skitter hub boards add`) ---------
# FILE holds KEY=value lines; it is read, never run. The board id and broker go into
# skitter.toml (only where it sets neither yet: a configured board is never changed), the
# password into /etc/skitter/broker-password, readable by the service only.
install_credentials() {
    [ -n "$CREDENTIALS" ] || return 0
    [ -r "$CREDENTIALS" ] || { echo "install.sh: cannot read $CREDENTIALS" >&2; exit 2; }
    local line key value board="" url="" user="" password="" number=0
    local toml="$ROOT/etc/skitter/skitter.toml"
    while IFS= read -r line || [ -n "$line" ]; do
        number=$((number + 1))
        case "$line" in "" | "#"*) continue ;; esac
        key="${line%%=*}" value="${line#*=}"
        case "$key" in
            SKITTER_BOARD_ID) board="$value" ;;
            SKITTER_MQTT_URL) url="$value" ;;
            SKITTER_MQTT_USERNAME) user="$value" ;;
            SKITTER_MQTT_PASSWORD) password="$value" ;;
            *) echo "install.sh: $CREDENTIALS, line $number: unknown key '$key'" >&2; exit 2 ;;
        esac
    done <"$CREDENTIALS"
    [[ "$board" =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || {
        echo "install.sh: $CREDENTIALS: SKITTER_BOARD_ID must be 1-64 letters, digits, '_', '.' or '-'" >&2; exit 2; }
    [ "$user" = "$board" ] || {
        echo "install.sh: $CREDENTIALS: SKITTER_MQTT_USERNAME must be the board id $board" >&2; exit 2; }
    [[ "$url" =~ ^mqtts?://[A-Za-z0-9._:-]+/?$ ]] || {
        echo "install.sh: $CREDENTIALS: SKITTER_MQTT_URL must be mqtt://host[:port] or mqtts://host[:port]" >&2; exit 2; }
    [[ "$password" =~ ^[!-~]{8,}$ ]] || {
        echo "install.sh: $CREDENTIALS: SKITTER_MQTT_PASSWORD must be 8 or more printable characters" >&2; exit 2; }
    put_text "$password" /etc/skitter/broker-password 0640
    run chown root:skitter /etc/skitter/broker-password
    if grep -Eq '^[[:space:]]*board_id[[:space:]]*=' "$toml"; then
        say "kept: board_id in /etc/skitter/skitter.toml (set already; $board not written)"
    else
        # before the file's first table, so it stays a top-level key
        awk -v line="board_id = \"$board\"" \
            '!done && /^[[:space:]]*\[/ { print line; done = 1 } { print } END { if (!done) print line }' \
            "$toml" >"$toml.new" && cat "$toml.new" >"$toml" && rm -f "$toml.new"
        say "installed: board_id = \"$board\" in /etc/skitter/skitter.toml"
        CHANGED=1
    fi
    if grep -Eq '^[[:space:]]*\[mqtt\]' "$toml"; then
        say "kept: [mqtt] in /etc/skitter/skitter.toml (set already; check url and username)"
    else
        printf '\n[mqtt]\nurl = "%s"\nusername = "%s"\npassword_file = "/etc/skitter/broker-password"\n' \
            "$url" "$board" >>"$toml"
        say "installed: [mqtt] ($url as $board) in /etc/skitter/skitter.toml"
        CHANGED=1
    fi
}

start_service() {
    run udevadm control --reload-rules
    run udevadm trigger --subsystem-match=tty --action=add
    run systemctl daemon-reload
    run systemctl enable skitter.service
    if [ "$REBOOT" -eq 1 ]; then
        say "I2C was just enabled: reboot the Pi (sudo reboot); skitter starts by itself."
    else
        run systemctl restart skitter.service
    fi
}

say "skitter install from $SRC into ${ROOT:-/}$([ "$PRINT_ONLY" -eq 1 ] && echo ' (print only)')"
enable_i2c
create_user
install_program
install_files
install_credentials
start_service
if [ "$CHANGED" -eq 0 ]; then
    say "done: every file was already in place."
else
    say "done."
fi
say "Next: set the referee PIN:  sudo -u skitter skitter set-pin"
say "      see the configuration: skitter config --show"

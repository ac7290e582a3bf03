"""Firmware-team sessions for the fidelity bench: a coding agent working for Okamura Sensing's firmware lead.

    from gen_firmware import make_session
    session = make_session(seed=1, messages=400)   # about 150k tokens
    session = make_session(seed=1, messages=3000)  # about 1.2M tokens

The domain: battery-powered environmental sensors on STM32 and nRF52, C on Zephyr RTOS and a newer Rust
(embassy) code base, west/CMake builds, cargo, ctest with Unity unit tests, a Go telemetry-ingest service and
hardware-in-the-loop (HIL) rigs in CI. The user, Jun Okamura-Berg, writes terse shorthand (now and then in
German, Japanese or Korean) and pastes a lot: serial console logs, logic-analyzer CSV exports, datasheet
excerpts, a colleague's review comments (imperatives that are not his), customer GitHub issues, crash dumps and
vendor errata, all listed in ``Session.pasted``. Once he adopts a team coding standard, whose rules become his
(that one is not listed as pasted).

The agent calls shell, read_file, write_file, edit_file, west_build, cargo, ctest, flash, serial_console, gdb,
hil_run, git and datasheet_search; every call is answered at once by a long, realistic tool message (compiler
warnings, linker memory-region reports, ctest/Unity/cargo/go test runs, timestamped serial logs with hex
dumps, gdb backtraces, HIL reports, git logs and diffs, datasheet register tables).

Planted (``session.facts``), eight kinds: standing instructions in many shapes (indirect, casual, reason
first, second paragraph, German/Japanese/Korean, hardware constraints, inside the adopted standard);
corrections said loosely and far from the stale value; decisions, some revised later; exact failing lines
from builds, tests, flashing and HIL runs, some resolved by a later passing run; files the agent wrote or
edited; identifiers (commit hashes, board revisions, tickets, rig serials); findings from tool output that
are needed later; and plans in prose, checklists or steps under a heading. Facts sit between 3% and 88% of
the session; a value occurs in no message before its own and in no filler (the agent may repeat it in the
few messages after). Most of the session is one-off filler. Same seed and size, same bytes.

Written from its own short spec, without reading the engine under test.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
Step = tuple[str, dict[str, Any], str]  # tool name, arguments, output
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "read_file", "write_file", "edit_file", "west_build", "cargo", "ctest", "flash",
         "serial_console", "gdb", "hil_run", "git", "datasheet_search")
CHARS_PER_MESSAGE = 1560  # 400 messages are about 150k tokens at 4 characters a token
LOW, HIGH = 0.05, 0.85  # where facts are aimed (the checks allow 3% to 88%)


def per_kind(messages: int) -> int:
    """Facts of each kind: 6 at 400 messages, 12 at 3000, linear in between, at least one."""
    if messages <= 400:
        return max(1, round(6 * messages / 400))
    return min(12, 6 + round(6 * (messages - 400) / 2600))


# --- vocabulary of the filler (facts draw from other pools, so their values cannot occur here) ---------------

PEOPLE = ("Aiko Tanaka", "Lena Vogt", "Minji Park", "Tomasz Wrobel", "Ravi Iyer", "Sofia Lindqvist", "Kenji Mori",
          "Jun Okamura-Berg")
BOARDS = ("nrf52840dk_nrf52840", "nucleo_l476rg", "okm_tempo_nrf52840", "okm_airq_stm32l476", "nrf52dk_nrf52832",
          "okm_soil_stm32wb55")
APPS = ("app/sensor_node", "app/gateway_bridge", "app/airq", "samples/okm_bringup", "app/soil_probe")
RIGS = ("hil-rig-01", "hil-rig-02", "hil-rig-04", "hil-rig-05", "hil-rig-06")
C_FILES = ("app/sensor_node/src/main.c", "app/sensor_node/src/sampler.c", "app/sensor_node/src/sensors/bme280_glue.c",
           "app/sensor_node/src/ble/adv.c", "app/sensor_node/src/lora/uplink.c", "app/airq/src/sgp40_task.c",
           "drivers/sensor/okm_lps22/lps22.c", "drivers/sensor/okm_lps22/lps22_trigger.c",
           "lib/okm_ringbuf/ringbuf.c", "lib/okm_pm/pm_policy.c", "lib/okm_crc/crc16.c", "lib/okm_cfg/settings.c",
           "app/soil_probe/src/moisture.c", "app/gateway_bridge/src/uart_bridge.c", "lib/okm_pm/battery.c")
RS_FILES = ("rust/crates/okm-hal/src/i2c.rs", "rust/crates/okm-hal/src/spi.rs", "rust/crates/okm-codec/src/lib.rs",
            "rust/crates/okm-codec/src/frame.rs", "rust/crates/okm-sampler/src/main.rs",
            "rust/crates/okm-radio/src/ble.rs", "rust/crates/okm-power/src/lib.rs")
GO_FILES = ("ingest/cmd/ingestd/main.go", "ingest/internal/decode/frame.go", "ingest/internal/store/pg.go",
            "ingest/internal/api/handlers.go", "ingest/internal/metrics/prom.go", "ingest/internal/auth/token.go")
CRATES = ("okm-hal", "okm-codec", "okm-sampler", "okm-radio", "okm-power")
GO_PKGS = ("internal/decode", "internal/store", "internal/api", "internal/auth", "cmd/ingestd", "internal/metrics")
THREADS = ("main", "sysworkq", "sampler", "ble_rx", "lora_tx", "idle", "logging", "shell_uart", "pm_monitor")
LOG_MODULES = ("main", "sampler", "sht4x", "lps22", "pm", "lora", "ble_adv", "fs", "dfu", "wdt", "settings")
PARTS = ("STM32L476", "nRF52840", "STM32WB55", "SHT40", "LPS22HH", "SGP40", "BME280", "MX25R6435F")
ZEPHYR_SRC = ("kernel/sched.c", "kernel/timeout.c", "kernel/work.c", "kernel/mutex.c", "kernel/sem.c",
              "lib/os/cbprintf_packaged.c", "lib/os/heap.c", "drivers/i2c/i2c_nrfx_twim.c", "drivers/spi/spi_nrfx_spim.c",
              "drivers/gpio/gpio_nrfx.c", "drivers/serial/uart_nrfx_uarte.c", "drivers/flash/soc_flash_nrf.c",
              "drivers/i2c/i2c_ll_stm32_v2.c", "drivers/spi/spi_ll_stm32.c", "drivers/adc/adc_stm32.c",
              "subsys/logging/log_core.c", "subsys/logging/log_msg.c", "subsys/pm/pm.c", "subsys/fs/littlefs_fs.c",
              "subsys/bluetooth/host/hci_core.c", "subsys/bluetooth/host/adv.c", "subsys/settings/src/settings.c",
              "subsys/shell/shell.c", "subsys/dfu/img_util/flash_img.c", "soc/arm/st_stm32/stm32l4/soc.c",
              "arch/arm/core/cortex_m/fault.c", "arch/arm/core/cortex_m/thread.c", "lib/libc/minimal/source/string/string.c")
C_IDENTS = ("raw_press", "sample_cnt", "vbat_mv", "ret", "buf", "rh_x100", "t_centi", "flags", "tick", "len", "crc",
            "slot", "frame", "err", "idx", "rc", "irq_key", "word")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
COMMIT_SUBJECTS = ("sensors: sht4x: retry once on NACK", "pm: drop HFCLK request after sample", "ble: shorten adv name",
                   "lora: fix frame counter persistence", "ringbuf: make put() ISR safe", "ci: bump zephyr sdk",
                   "codec: add v2 frame header", "ingest: reject frames older than 24h", "hal: spi: honour cs delay",
                   "docs: update bring-up notes", "tests: unity: add crc16 vectors", "boards: tempo: enable dcdc",
                   "settings: migrate to zms backend", "dfu: confirm image after self-test", "adc: oversample vbat x8",
                   "shell: add 'okm stats' command", "build: split release/debug overlays", "wdt: feed from main only")


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _pick(rng: random.Random, seq: tuple[str, ...] | list[str]) -> str:
    return seq[rng.randrange(len(seq))]


def _fill(make_line: Callable[[], str], size: int, lines: list[str] | None = None) -> list[str]:
    """Lines from ``make_line`` until they add up to ``size`` characters."""
    out = lines if lines is not None else []
    total = sum(len(x) + 1 for x in out)
    while total < size:
        line = make_line()
        out.append(line)
        total += len(line) + 1
    return out


def _stamp(ms: int) -> str:
    """A Zephyr log timestamp: [hh:mm:ss.mmm,uuu]."""
    m, s = divmod(ms // 1000, 60)
    h, m = divmod(m, 60)
    return f"[{h:02d}:{m:02d}:{s:02d}.{ms % 1000:03d},{(ms * 37) % 1000:03d}]"


def _date(rng: random.Random) -> str:
    return (f"{_pick(rng, WEEKDAYS)} {_pick(rng, MONTHS)} {rng.randint(1, 28)} "
            f"{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} 2024 +0{rng.choice('129')}00")


class _Chat:
    """The conversation under construction, with its size budget."""

    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng = rng
        self.n = n
        self.target = n * CHARS_PER_MESSAGE
        self.messages: list[Message] = []
        self.chars = 0
        self.pasted: list[tuple[int, str]] = []
        self.calls = 0

    def _add(self, message: Message) -> int:
        self.messages.append(message)
        self.chars += len(text_of(message))
        return len(self.messages) - 1

    def user(self, text: str) -> int:
        return self._add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def call(self, steps: list[Step], text: str | None = None) -> list[int]:
        """One assistant message calling every step's tool, then the tool messages: their indexes."""
        calls, ids = [], []
        for name, args, _out in steps:
            self.calls += 1
            ids.append(f"call_{self.calls:05d}")
            calls.append({"id": ids[-1], "type": "function",
                          "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
        at = [self._add({"role": "assistant", "content": text, "tool_calls": calls})]
        for (name, _args, out), cid in zip(steps, ids):
            at.append(self._add({"role": "tool", "tool_call_id": cid, "name": name, "content": out}))
        return at

    def budget(self) -> int:
        """Characters for the next long tool output, so the session lands near its target size."""
        left = max(1, self.n - len(self.messages))
        want = (self.target - self.chars) / left * 2.3
        return int(min(12_000, max(350, want)) * self.rng.uniform(0.65, 1.35))


# --- long tool outputs ------------------------------------------------------------------------------------

def _put(rng: random.Random, lines: list[str], extra: list[str] | None, lo: float = 0.3, hi: float = 0.8) -> None:
    """Insert ``extra`` lines somewhere in the middle of ``lines``."""
    if extra:
        at = int(len(lines) * rng.uniform(lo, hi))
        lines[at:at] = extra


def _region_table(rng: random.Random, flash_kb: int = 512, ram_kb: int = 128) -> list[str]:
    f_used, r_used = rng.randint(150_000, 470_000), rng.randint(30_000, 118_000)
    return ["Memory region         Used Size  Region Size  %age Used",
            f"           FLASH:  {f_used:>10} B  {flash_kb:>8} KB  {100 * f_used / (flash_kb * 1024):>8.2f}%",
            f"             RAM:  {r_used:>10} B  {ram_kb:>8} KB  {100 * r_used / (ram_kb * 1024):>8.2f}%",
            "        IDT_LIST:           0 GB        32 KB      0.00%"]


def build_output(rng: random.Random, size: int, board: str, app: str, extra: list[str] | None = None,
                 failed: bool = False, table: list[str] | None = None) -> str:
    total = rng.randint(180, 420)
    lines = ["-- west build: generating a build system", f"-- Board: {board}",
             f"-- Zephyr version: 3.6.{rng.randint(0, 9)} (/work/okm-fw/zephyr), build: v3.6.0-{rng.randint(1000, 4000)}"
             f"-g{_hex(rng, 10)}", "-- Found Python3: /usr/bin/python3.11 (found suitable version \"3.11.7\")",
             "-- Found toolchain: zephyr 0.16.8 (/opt/zephyr-sdk-0.16.8)", "-- Configuring done",
             "-- Generating done", f"-- Build files have been written to: /work/okm-fw/build/{board}",
             "-- west build: building application"]
    k = [0]

    def line() -> str:
        k[0] += 1
        r = rng.random()
        src = _pick(rng, ZEPHYR_SRC)
        if r < 0.07:
            f = _pick(rng, C_FILES)
            ln, col = rng.randint(20, 400), rng.randint(3, 30)
            var = _pick(rng, C_IDENTS)
            return (f"/work/okm-fw/{f}:{ln}:{col}: warning: unused variable '{var}' [-Wunused-variable]\n"
                    f"  {ln} |         int32_t {var};\n      |                 ^~~~~~~~~")
        if r < 0.1:
            f = _pick(rng, C_FILES)
            return (f"/work/okm-fw/{f}:{rng.randint(20, 400)}:{rng.randint(3, 30)}: warning: comparison of integer "
                    "expressions of different signedness: 'int' and 'uint32_t' [-Wsign-compare]")
        kind = "C object" if r < 0.9 else "ASM object"
        return f"[{min(k[0], total)}/{total}] Building {kind} zephyr/CMakeFiles/zephyr.dir/{src}.obj"

    _fill(line, size - 900, lines)
    _put(rng, lines, extra, 0.75, 0.98)
    if failed:
        lines += ["collect2: error: ld returned 1 exit status", "ninja: build stopped: subcommand failed.",
                  "FATAL ERROR: command exited with status 1: /usr/bin/cmake --build /work/okm-fw/build/" + board]
    else:
        lines += [f"[{total}/{total}] Linking C executable zephyr/zephyr.elf"] + (table or _region_table(rng))
        lines += [f"Generated zephyr.elf ({app})", "exit status 0"]
    return "\n".join(lines)


def ctest_output(rng: random.Random, size: int, extra: list[str] | None = None, failing: str | None = None) -> str:
    suites = ["unit_ringbuf", "unit_crc16", "unit_pm_policy", "unit_settings", "unit_lps22_conv", "unit_frame_enc",
              "unit_vbat_curve", "unit_sampler_sched", "unit_uplink_queue", "unit_moisture_cal", "unit_sgp40_voc"]
    lines = ["Test project /work/okm-fw/build/unit", "UpdateCTestConfiguration  from :/work/okm-fw/build/unit/DartConfiguration.tcl"]
    n = 0

    def line() -> str:
        nonlocal n
        n += 1
        s = _pick(rng, suites)
        case = f"test_{_pick(rng, ('wrap', 'empty', 'full', 'vectors', 'bounds', 'rollover', 'nan', 'zero', 'max'))}_{rng.randint(1, 40)}"
        if rng.random() < 0.55:
            return f"{s.replace('unit_', 'test_')}.c:{rng.randint(20, 300)}:{case}:PASS"
        return f"{n:>3}/{n + rng.randint(1, 30):<3} Test #{n:>3}: {s}_{rng.randint(1, 9)} {'.' * rng.randint(8, 30)}   Passed    0.{rng.randint(1, 99):02d} sec"

    _fill(line, size - 300, lines)
    _put(rng, lines, extra)
    if failing:
        lines += [f"{rng.randint(90, 99)}% tests passed, 1 tests failed out of {n}", "",
                  f"Total Test time (real) = {rng.uniform(2, 30):6.2f} sec", "", "The following tests FAILED:", failing,
                  "Errors while running CTest"]
    else:
        lines += [f"100% tests passed, 0 tests failed out of {n}", "",
                  f"Total Test time (real) = {rng.uniform(2, 30):6.2f} sec"]
    return "\n".join(lines)


def cargo_output(rng: random.Random, size: int, crate: str, extra: list[str] | None = None, failed: bool = False) -> str:
    lines = [f"   Compiling {c} v0.{rng.randint(1, 9)}.{rng.randint(0, 9)} (/work/okm-fw/rust/crates/{c})"
             for c in rng.sample(CRATES, 3)]
    lines += [f"   Compiling {d}" for d in rng.sample(("embassy-time v0.3.2", "embassy-executor v0.6.0",
                                                        "defmt v0.3.8", "heapless v0.8.0", "postcard v1.0.10",
                                                        "embassy-nrf v0.2.0", "cortex-m-rt v0.7.3"), 4)]
    lines += [f"    Finished `test` profile [unoptimized + debuginfo] target(s) in {rng.uniform(3, 60):.2f}s",
              f"     Running unittests src/lib.rs (target/debug/deps/{crate.replace('-', '_')}-{_hex(rng, 16)})", "",
              f"running {rng.randint(30, 120)} tests"]
    mods = ("frame", "codec", "crc", "sched", "i2c", "spi", "ble", "power", "units")

    def line() -> str:
        r = rng.random()
        if r < 0.08:
            return (f"warning: unused import: `{_pick(rng, ('core::fmt', 'heapless::Vec', 'defmt::info'))}`\n"
                    f"  --> src/{_pick(rng, mods)}.rs:{rng.randint(1, 30)}:{rng.randint(5, 9)}")
        return f"test {_pick(rng, mods)}::tests::{_pick(rng, ('roundtrip', 'rejects', 'accepts', 'decodes', 'clamps'))}_{_pick(rng, ('empty', 'max_len', 'bad_crc', 'v1', 'v2', 'nan', 'overflow', 'short'))}_{rng.randint(1, 60)} ... ok"

    _fill(line, size - 300, lines)
    _put(rng, lines, extra, 0.6, 0.95)
    if failed:
        lines += ["", "failures:", "", f"test result: FAILED. {rng.randint(30, 110)} passed; 1 failed; 0 ignored; 0 measured; "
                  f"0 filtered out; finished in 0.{rng.randint(10, 99)}s", "", f"error: test failed, to rerun pass `-p {crate} --lib`"]
    else:
        lines += ["", f"test result: ok. {rng.randint(30, 110)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
                  f"finished in 0.{rng.randint(10, 99)}s"]
    return "\n".join(lines)


def go_output(rng: random.Random, size: int, extra: list[str] | None = None, failed_pkg: str | None = None) -> str:
    lines: list[str] = []
    tests = ("TestDecodeFrame", "TestStoreBatch", "TestAuthToken", "TestHandlerIngest", "TestMetricsLabels",
             "TestReplayWindow", "TestGapFill", "TestRateLimit", "TestSchemaV2")

    def line() -> str:
        t = f"{_pick(rng, tests)}/{_pick(rng, ('empty', 'v1', 'v2', 'late', 'dup', 'bad_sig', 'batch_500'))}"
        if rng.random() < 0.5:
            return f"=== RUN   {t}"
        if rng.random() < 0.1:
            return f"ok  \tgithub.com/okamura-sensing/ingest/{_pick(rng, GO_PKGS)}\t{rng.uniform(0.1, 3):.3f}s"
        return f"--- PASS: {t} (0.{rng.randint(0, 40):02d}s)"

    _fill(line, size - 200, lines)
    _put(rng, lines, extra, 0.5, 0.9)
    if failed_pkg:
        lines += ["FAIL", f"FAIL\tgithub.com/okamura-sensing/ingest/{failed_pkg}\t{rng.uniform(0.1, 3):.3f}s", "FAIL"]
    else:
        lines += [f"ok  \tgithub.com/okamura-sensing/ingest/{p}\t{rng.uniform(0.1, 3):.3f}s" for p in GO_PKGS]
    return "\n".join(lines)


def serial_output(rng: random.Random, size: int, extra: list[str] | None = None, start_ms: int = 0) -> str:
    ms = start_ms + rng.randint(0, 50)
    lines = [f"*** Booting Zephyr OS build v3.6.0-{rng.randint(1000, 4000)}-g{_hex(rng, 10)} ***",
             f"{_stamp(ms)} <inf> main: okm fw 2.{rng.randint(3, 6)}.{rng.randint(0, 9)} ({_hex(rng, 7)}) reset cause 0x{rng.choice((1, 4, 8)):08x}"]

    def line() -> str:
        nonlocal ms
        ms += rng.randint(3, 1500)
        mod, r = _pick(rng, LOG_MODULES), rng.random()
        if r < 0.45:
            return (f"{_stamp(ms)} <dbg> sampler: t={rng.uniform(-5, 35):.2f}C rh={rng.uniform(20, 90):.1f}% "
                    f"p={rng.uniform(960, 1040):.2f}hPa vbat={rng.randint(2700, 3300)}mV")
        if r < 0.6:
            head = f"{_stamp(ms)} <dbg> {mod}: frame"
            rows = [head] + [" " * 33 + " ".join(_hex(rng, 2) for _ in range(8)) + "  " +
                             " ".join(_hex(rng, 2) for _ in range(8)) + " |" + "".join(rng.choice(".ABCDEFkmo0123") for _ in range(16)) + "|"
                             for _ in range(rng.randint(1, 4))]
            return "\n".join(rows)
        if r < 0.7:
            return f"{_stamp(ms)} <wrn> {mod}: {_pick(rng, ('retry 1/3 after NACK', 'tx queue 75% full', 'clock drift 41 ppm', 'slow flash erase'))}"
        return f"{_stamp(ms)} <inf> {mod}: {_pick(rng, ('sample scheduled', 'uplink ok', 'adv started', 'entering STANDBY', 'woke on RTC', 'settings saved', 'fs mounted'))}"

    _fill(line, size - 100, lines)
    _put(rng, lines, extra)
    return "\n".join(lines)


def gdb_output(rng: random.Random, size: int, frames: list[str] | None = None, extra: list[str] | None = None) -> str:
    lines = ["GNU gdb (Zephyr SDK 0.16.8) 12.1", "Reading symbols from build/zephyr/zephyr.elf...",
             "Remote debugging using localhost:3333",
             f"0x{rng.randint(0x08000000, 0x0807ffff):08x} in arch_cpu_idle () at /work/okm-fw/zephyr/arch/arm/core/cortex_m/cpu_idle.S:107",
             "(gdb) bt"]
    frames = frames or [f"#{i}  0x{rng.randint(0x08000000, 0x0807ffff):08x} in {_pick(rng, ('z_thread_entry', 'k_sem_take', 'z_swap', 'sampler_loop', 'log_process_thread_func', 'work_queue_main'))} () at {_pick(rng, ZEPHYR_SRC)}:{rng.randint(40, 900)}"
                        for i in range(rng.randint(4, 9))]
    lines += frames + ["(gdb) info registers"]
    regs = ("r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc", "xpsr",
            "msp", "psp", "primask", "basepri", "control")

    def line() -> str:
        if rng.random() < 0.8:
            v = rng.randint(0, 0x2003ffff)
            return f"{_pick(rng, regs):<15}0x{v:<16x}{v}"
        a = rng.randint(0x20000000, 0x2003fff0) & ~0xF
        return f"(gdb) x/4xw 0x{a:08x}\n0x{a:08x}:\t" + "\t".join(f"0x{_hex(rng, 8)}" for _ in range(4))

    _fill(line, size - 100, lines)
    _put(rng, lines, extra)
    lines.append("(gdb) detach\nDetaching from program: build/zephyr/zephyr.elf, Remote target")
    return "\n".join(lines)


def hil_output(rng: random.Random, size: int, rig: str, suite: str, extra: list[str] | None = None,
               fail: str | None = None) -> str:
    lines = [f"HIL run {rng.randint(10000, 99999)} on {rig} (PPK2 s/n C{rng.randint(10, 99)}{_hex(rng, 6).upper()}, relay board v3)",
             f"suite: {suite}   dut: {_pick(rng, BOARDS)}   firmware: build/{_pick(rng, BOARDS)}/zephyr/zephyr.hex",
             "-" * 72]
    checks = ("boot_to_adv", "sensor_selftest", "uplink_roundtrip", "dfu_swap_and_confirm", "wdt_recovery",
              "brownout_ride_through", "rtc_drift_1h", "i2c_bus_recovery", "flash_wear_counter", "ble_conn_param_update",
              "lora_join_otaa", "settings_persist_reboot", "adc_vbat_accuracy", "gpio_wakeup_latency")

    def line() -> str:
        c = _pick(rng, checks)
        r = rng.random()
        if r < 0.75:
            return f"[PASS] {c:<28} {rng.uniform(0.2, 40):7.2f} s"
        if r < 0.85:
            return f"[SKIP] {c:<28} needs {_pick(rng, ('LoRa gateway', 'climate chamber', 'second DUT'))}"
        return (f"       sample {rng.randint(1, 999):>4}: I={rng.uniform(1, 900):8.2f} uA  V={rng.uniform(2.8, 3.3):.3f} V  "
                f"t={rng.randint(0, 600000)} ms")

    _fill(line, size - 200, lines)
    _put(rng, lines, extra)
    if fail:
        lines += [fail, "-" * 72, f"summary: {rng.randint(8, 30)} passed, 1 failed, {rng.randint(0, 3)} skipped"]
    else:
        lines += ["-" * 72, f"summary: {rng.randint(8, 30)} passed, 0 failed, {rng.randint(0, 3)} skipped"]
    return "\n".join(lines)


def git_log_output(rng: random.Random, size: int, extra: list[str] | None = None) -> str:
    lines: list[str] = []

    def entry() -> str:
        who = _pick(rng, PEOPLE)
        mail = who.split()[0].lower() + "@okamura-sensing.jp"
        return (f"commit {_hex(rng, 40)}\nAuthor: {who} <{mail}>\nDate:   {_date(rng)}\n\n"
                f"    {_pick(rng, COMMIT_SUBJECTS)} (#{rng.randint(100, 999)})\n")

    _fill(entry, size, lines)
    _put(rng, lines, extra, 0.1, 0.6)
    return "\n".join(lines)


def code_line(rng: random.Random, lang: str) -> str:
    v, w = _pick(rng, C_IDENTS), _pick(rng, C_IDENTS)
    if lang == "rs":
        return _pick(rng, (f"    let {v} = self.{w}.read().await?;", f"    defmt::debug!(\"{v}={{}}\", {v});",
                           f"    if {v} > {rng.randint(2, 4096)} {{ return Err(Error::Range); }}",
                           f"    Timer::after_millis({rng.randint(1, 500)}).await;", "    }", "",
                           f"    {v}.push({w}).map_err(|_| Error::Full)?;", f"fn {v}_{w}(&mut self) -> Result<u16, Error> {{"))
    if lang == "go":
        return _pick(rng, (f"\t{v}, err := s.{w}(ctx)", "\tif err != nil {", "\t\treturn nil, fmt.Errorf(\"decode: %w\", err)",
                           "\t}", "", f"\tmetrics.{v.capitalize()}.Inc()", f"func (s *Store) {w.capitalize()}(ctx context.Context) error {{"))
    return _pick(rng, (f"\tint {v} = {w} + {rng.randint(1, 64)};", f"\tLOG_DBG(\"{v}=%d\", {v});",
                       f"\tif ({v} < 0) {{", f"\t\treturn {v};", "\t}", "", f"\tk_sem_give(&{w}_sem);",
                       f"\t{v} = sys_get_le16(&buf[{rng.randint(0, 30)}]);", f"static int {v}_{w}(const struct device *dev)",
                       f"\tret = i2c_write_read_dt(&cfg->bus, &reg, 1, buf, {rng.randint(1, 8)});", "{"))


def source_text(rng: random.Random, size: int, path: str) -> str:
    lang = path.rsplit(".", 1)[-1]
    lang = "c" if lang in ("c", "h") else lang
    head = {"rs": ["use embassy_time::Timer;", "use crate::error::Error;", ""],
            "go": ["package " + path.split("/")[-2], "", "import (", "\t\"context\"", "\t\"fmt\"", ")", ""],
            "c": ["/*", " * Copyright (c) 2024 Okamura Sensing K.K.", " * SPDX-License-Identifier: Apache-2.0", " */", "",
                  "#include <zephyr/kernel.h>", "#include <zephyr/logging/log.h>", ""]}.get(lang, [])
    return "\n".join(_fill(lambda: code_line(rng, lang), size, list(head)))


def numbered(text: str, start: int = 1) -> str:
    return "\n".join(f"{i:>5}\t{t}" for i, t in enumerate(text.split("\n"), start))


def diff_output(rng: random.Random, size: int, path: str) -> str:
    lang = path.rsplit(".", 1)[-1]
    lang = "c" if lang in ("c", "h") else lang
    lines = [f"diff --git a/{path} b/{path}", f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644", f"--- a/{path}", f"+++ b/{path}"]

    def hunk() -> str:
        start = rng.randint(10, 600)
        body = [f"@@ -{start},7 +{start},{rng.randint(6, 9)} @@"]
        for _ in range(rng.randint(5, 10)):
            body.append(rng.choice(" +- ") + code_line(rng, lang))
        return "\n".join(body)

    return "\n".join(_fill(hunk, size, lines))


def datasheet_output(rng: random.Random, size: int, part: str, query: str, extra: list[str] | None = None) -> str:
    lines = [f"{part} reference manual, {len(query.split()) + rng.randint(3, 9)} matches for \"{query}\"", ""]
    regs = ("CR1", "CR2", "SR", "DR", "CFGR", "ISR", "ICR", "PRER", "WUTR", "CALR", "TXDATA", "RXDATA", "EVENTS_END",
            "INTENSET", "CONFIG", "FREQUENCY", "ADDRESS", "SHORTS")

    def line() -> str:
        r = rng.random()
        if r < 0.35:
            return (f"§{rng.randint(5, 45)}.{rng.randint(1, 9)}.{rng.randint(1, 20)} {_pick(rng, regs)} register\n"
                    f"Address offset: 0x{rng.randint(0, 0x3FF):03X}\nReset value: 0x{_hex(rng, 4).upper()} {_hex(rng, 4).upper()}")
        if r < 0.75:
            hi = rng.randint(1, 31)
            lo = rng.randint(0, hi)
            return (f"  Bits {hi}:{lo}  {_pick(rng, ('PRESC', 'EN', 'MODE', 'DIV', 'SEL', 'IE', 'FLAG', 'CNT'))}"
                    f"[{hi - lo}:0]: {_pick(rng, ('prescaler value', 'enable', 'mode selection', 'reserved, must be kept at reset value', 'interrupt enable', 'counter'))}  (rw)")
        return (f"  {_pick(rng, ('tSU;STA', 'tHD;DAT', 'fSCL', 'IDD(stop2)', 'tSTART', 'VBOR1', 'IDD(sleep)'))}  "
                f"min {rng.uniform(0.1, 5):.2f}  typ {rng.uniform(1, 9):.2f}  max {rng.uniform(5, 60):.2f}  "
                f"{_pick(rng, ('us', 'ns', 'V', 'uA', 'kHz'))}")

    _fill(line, size, lines)
    _put(rng, lines, extra)
    return "\n".join(lines)


def flash_output(rng: random.Random, size: int, runner: str, extra: list[str] | None = None,
                 error: str | None = None) -> str:
    lines = [f"-- west flash: using runner {runner}", f"-- runners.{runner}: Flashing file: build/zephyr/zephyr.hex"]
    if runner == "openocd":
        lines += ["Open On-Chip Debugger 0.12.0+dev-01557-g1a6f5d6", "Licensed under GNU GPL v2",
                  "Info : clock speed 2000 kHz", "Info : STLINK V3J7M2 (API v3) VID:PID 0483:3754",
                  "Info : Target voltage: 3.28", "Info : [stm32l4x.cpu] Cortex-M4 r0p1 processor detected"]
    else:
        lines += [f"[ #################### ]   0.0{rng.randint(1, 9)}s | Erase file - Done erasing",
                  f"Using {runner} {_pick(rng, ('10.24.2', '0.24.0', '7.94e'))}"]

    def line() -> str:
        a = rng.randint(0x0, 0x3F) * 0x1000
        if runner == "openocd":
            return f"Info : Padding image section {rng.randint(0, 3)} at 0x{0x08000000 + a:08x} with {rng.randint(1, 7)} bytes"
        return f"[ {'#' * rng.randint(1, 20):<20} ] {rng.randint(1, 100):3d}% | Programming 0x{a:08x} ({rng.randint(1, 4)} KiB)"

    _fill(line, size - 200, lines)
    _put(rng, lines, extra)
    lines += [error] if error else ["Verified OK", "** Resetting Target **", "shutdown command invoked"]
    return "\n".join(lines)


def shell_output(rng: random.Random, size: int, command: str) -> str:
    if command.startswith("grep"):
        def line() -> str:
            f = _pick(rng, C_FILES + RS_FILES)
            return f"{f}:{rng.randint(1, 500)}:{code_line(rng, 'rs' if f.endswith('.rs') else 'c')}"
    elif "size" in command:
        def line() -> str:
            t, d, b = rng.randint(100, 60000), rng.randint(0, 4000), rng.randint(0, 9000)
            return f"{t:>7} {d:>7} {b:>7} {t + d + b:>7} {t + d + b:>7x} {_pick(rng, ZEPHYR_SRC)}.obj"
    elif "kernel stacks" in command:
        def line() -> str:
            s = rng.choice((512, 1024, 1536, 2048, 3072))
            u = rng.randint(8, s - 8)
            return (f"0x{rng.randint(0x20000000, 0x2003ffff):08x} {_pick(rng, THREADS):<24} (real size {s}):\t"
                    f"unused {s - u}\tusage {u} / {s} ({100 * u // s} %)")
    else:
        def line() -> str:
            return (f"-rw-r--r-- 1 jun okm {rng.randint(200, 90000):>6} {_pick(rng, MONTHS)} {rng.randint(1, 28):>2} "
                    f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} {_pick(rng, C_FILES + GO_FILES + RS_FILES)}")
    return "\n".join(_fill(line, size)) + "\nexit code: 0"


# --- pasted material (someone else's words; never the user's rules) -----------------------------------------

def paste_la_csv(rng: random.Random, size: int) -> tuple[str, str, str]:
    rows = ["Time [s],Packet ID,Address,Data,Read/Write,ACK/NAK"]
    t = rng.uniform(0.001, 0.01)

    def row() -> str:
        nonlocal t
        t += rng.uniform(0.00002, 0.0004)
        return (f"{t:.9f},{rng.randint(0, 400)},0x{rng.choice((0x44, 0x5C, 0x59, 0x76)):02X},0x{_hex(rng, 2).upper()},"
                f"{rng.choice(('Read', 'Write'))},{rng.choice(('ACK', 'ACK', 'ACK', 'NAK'))}")

    text = "\n".join(_fill(row, size, rows))
    return (_pick(rng, ("Saleae export from the bring-up board, I2C1:", "LA capture, I2C bus, Logic 2 CSV:",
                        "Minji's logic analyzer CSV of the bus while it hangs:")), text,
            _pick(rng, ("Any NAK pattern you can see?", "what's the gap before the NAKs?", "Sieht das nach clock stretching aus?")))


def paste_serial(rng: random.Random, size: int) -> tuple[str, str, str]:
    return (_pick(rng, ("boot log from the field unit, console:", "serial from rig 2 overnight:", "コンソールログ:")),
            serial_output(rng, size, start_ms=rng.randint(0, 10_000_000)),
            _pick(rng, ("why the retries?", "anything odd in there?", "check the vbat trend pls")))


def paste_review(rng: random.Random, size: int) -> tuple[str, str, str]:
    who = _pick(rng, PEOPLE[:-1])
    demands = ("Never call k_sleep in an ISR.", "Always check the return value of i2c_write_read_dt().",
               "You must not hold the bus mutex across a k_yield().", "Do not use floating point in the sampler thread.",
               "Always mark shared ISR state volatile or use atomic_t.", "Never log from the radio callback, it runs in IRQ context.",
               "Please split this function, it is over 80 lines.", "Use BUILD_ASSERT for the frame size instead of a runtime check.",
               "Don't unwrap() in the embassy tasks, propagate the error.", "Rename `tmp` to something meaningful.")
    rows = [f"Review by {who} on PR #{rng.randint(300, 999)} ({_pick(rng, COMMIT_SUBJECTS)})", ""]

    def comment() -> str:
        return f"{_pick(rng, C_FILES + RS_FILES)} line {rng.randint(10, 400)}:\n> {code_line(rng, 'c').strip()}\n{_pick(rng, demands)}\n"

    text = "\n".join(_fill(comment, size, rows))
    return (_pick(rng, (f"{who.split()[0]}'s review, fyi:", "review comments came in:", "Kommentare aus dem Review:")), text,
            _pick(rng, ("which of these are real bugs?", "triage these, just tell me which matter", "summarize, don't fix yet")))


def paste_issue(rng: random.Random, size: int) -> tuple[str, str, str]:
    n = rng.randint(100, 900)
    head = [f"#{n} Sensor stops reporting after {rng.randint(2, 30)} days", f"opened by {_pick(rng, ('hvac-ops-emea', 'greenhouse-data', 'sjlee-facilities', 'mbauer'))}",
            "", "**Describe the bug**", f"Our {rng.randint(3, 80)} units in building {rng.choice('ABCDE')} stop sending data. "
            "Battery still reads fine on the display.", "", "**Logs**", "```"]
    text = "\n".join(_fill(lambda: serial_output(rng, 400, start_ms=rng.randint(0, 10**7)).split("\n")[-1], size, head))
    text += "\n```\n\nWe need a fix before the next site rollout. Please provide an ETA."
    return ("customer issue, from GitHub:", text, _pick(rng, ("first guess?", "what would you look at first?", "어떻게 보세요?")))


def paste_crash(rng: random.Random, size: int) -> tuple[str, str, str]:
    lines = [f"{_stamp(rng.randint(10**6, 10**8))} <err> os: ***** HARD FAULT *****",
             f"{_stamp(rng.randint(10**6, 10**8))} <err> os:   Fault escalation (see below)",
             f"{_stamp(rng.randint(10**6, 10**8))} <err> os: ***** BUS FAULT *****"]
    regs = ("r0/a1", "r1/a2", "r2/a3", "r3/a4", "r12/ip", "r14/lr", "r15/pc", "xpsr", "s[ 0]", "s[ 1]", "fpscr")

    def line() -> str:
        return f"{_stamp(rng.randint(10**6, 10**8))} <err> os: {_pick(rng, regs)}:  0x{_hex(rng, 8)}"

    text = "\n".join(_fill(line, size, lines)) + f"\n<err> os: >>> ZEPHYR FATAL ERROR 25: Unknown error on CPU 0\n<err> os: Current thread: 0x{_hex(rng, 8)} ({_pick(rng, THREADS)})"
    return (_pick(rng, ("crash dump from a returned unit:", "RMA unit crash dump:", "クラッシュダンプ:")), text,
            _pick(rng, ("decode this?", "which thread?", "can you map the pc?")))


def paste_errata(rng: random.Random, size: int) -> tuple[str, str, str]:
    part = _pick(rng, ("STM32L476", "nRF52840", "STM32WB55"))
    rows = [f"{part} errata sheet (ES{rng.randint(1000, 9999)} rev {rng.randint(2, 9)})", ""]

    def item() -> str:
        return (f"2.{rng.randint(1, 12)}.{rng.randint(1, 9)} {_pick(rng, ('I2C', 'SPI', 'RTC', 'ADC', 'LPUART', 'DMA', 'PWR'))} "
                f"{_pick(rng, ('may lose the first byte after wakeup', 'flag not cleared in Stop 2', 'wrong reset value read back', 'spurious interrupt after disable'))}\n"
                f"Workaround: {_pick(rng, ('The application must insert a dummy read.', 'Software must clear the flag twice.', 'Do not use this mode with DMA.', 'Apply a delay of 2 APB cycles.'))}\n")

    return ("vendor errata, relevant bits:", "\n".join(_fill(item, size, rows)),
            _pick(rng, ("does any of this hit us?", "cross-check with our drivers", "betrifft uns das?")))


def paste_datasheet(rng: random.Random, size: int) -> tuple[str, str, str]:
    part = _pick(rng, PARTS)
    return (f"from the {part} datasheet:", datasheet_output(rng, size, part, "electrical characteristics"),
            _pick(rng, ("does our timing meet that?", "check against our config", "該当する値は？")))


PASTES = (paste_la_csv, paste_serial, paste_review, paste_issue, paste_crash, paste_errata, paste_datasheet)


# --- one-off filler requests: (request, lazy steps, answer) ---------------------------------------------

Lazy = Callable[[int], Step]  # a step whose output is sized when it is emitted
Task = tuple[str, list[Lazy], str]
OPENERS = ("", "", "", "ok. ", "next: ", "kurz: ", "quick one: ", "もう一つ: ", "그리고 ", "hm. ", "also ", "pls ",
           "before lunch: ", "btw ", "jetzt: ", "ついでに ")
TAILS = ("", "", "", " thx", " — no rush", ", then tell me", " pls", " danke", " お願いします", " 부탁해요", ".", " asap",
         " and keep it short", " (just report)")
NEW_TESTS = ("tests/unit/crc16/test_crc16_vectors.c", "tests/unit/ringbuf/test_ringbuf_fill.c",
             "rust/crates/okm-codec/tests/golden.rs", "ingest/internal/decode/frame_test.go",
             "tests/unit/pm_policy/test_pm_states.c", "scripts/hil/collect_logs.py")


def _ask(rng: random.Random, *bodies: str) -> str:
    return _pick(rng, OPENERS) + _pick(rng, bodies) + _pick(rng, TAILS)


def _generic(rng: random.Random) -> Lazy:
    """A follow-up step any episode can use to reach its length."""
    r = rng.random()
    if r < 0.3:
        path = _pick(rng, C_FILES + RS_FILES + GO_FILES)
        return lambda size: ("read_file", {"path": path}, numbered(source_text(rng, size, path)))
    if r < 0.5:
        pat = _pick(rng, C_IDENTS)
        cmd = f"grep -rn '{pat}' app lib drivers rust/crates --include=*.c --include=*.rs"
        return lambda size: ("shell", {"command": cmd}, shell_output(rng, size, "grep"))
    if r < 0.7:
        path = _pick(rng, C_FILES + RS_FILES)
        return lambda size: ("git", {"args": ["diff", "HEAD~1", "--", path]}, diff_output(rng, size, path))
    if r < 0.85:
        n = rng.randint(5, 40)
        return lambda size: ("git", {"args": ["log", f"-{n}"]}, git_log_output(rng, size))
    return lambda size: ("shell", {"command": "ls -la app/sensor_node/src lib drivers/sensor"}, shell_output(rng, size, "ls"))


def task_build(rng: random.Random) -> Task:
    board, app = _pick(rng, BOARDS), _pick(rng, APPS)
    req = _ask(rng, f"build {app} for {board}", f"west build {app} -b {board}, pristine", f"does {app} still build on {board}?",
               f"{board} build pls, {app}", f"compile {app} ({board}) and show me the memory report",
               f"{app} für {board} bauen", f"{board} で {app} をビルドして", f"{board}용으로 {app} 빌드해줘")
    steps = [lambda size: ("west_build", {"board": board, "app": app, "pristine": rng.random() < 0.5},
                           build_output(rng, size, board, app))]
    if rng.random() < 0.4:
        steps.append(lambda size: ("shell", {"command": "arm-zephyr-eabi-size -t build/zephyr/libzephyr.a | sort -n | tail -60"},
                                   shell_output(rng, size, "size")))
    ans = _pick(rng, (f"{app} builds for {board}. FLASH and RAM usage are in the report above; only the usual "
                      "-Wunused-variable noise in the sensor glue.",
                      f"Green on {board}. Nothing new in the warnings, and the image still fits with room to spare.",
                      f"Build ok ({board}). Two sign-compare warnings I left alone since they predate this change."))
    return req, steps, ans


def task_cargo(rng: random.Random) -> Task:
    crate = _pick(rng, CRATES)
    sub = _pick(rng, ("test", "test", "clippy", "build --release"))
    req = _ask(rng, f"cargo {sub} on {crate}", f"run the {crate} tests", f"{crate}: cargo {sub}, anything red?",
               f"check {crate} with cargo {sub}", f"{crate} のテスト回して", f"{crate} cargo {sub} 돌려줘")
    steps = [lambda size: ("cargo", {"args": sub.split() + ["-p", crate], "cwd": "rust"}, cargo_output(rng, size, crate))]
    ans = _pick(rng, (f"`cargo {sub} -p {crate}` is clean. One unused-import warning worth a follow-up cleanup.",
                      f"All {crate} tests pass; nothing flaky in this run.", f"{crate}: ok, no failures."))
    return req, steps, ans


def task_ctest(rng: random.Random) -> Task:
    pat = _pick(rng, ("ringbuf", "crc16", "pm_policy", "settings", "frame_enc", "sampler", "vbat", ""))
    req = _ask(rng, f"run the unit tests{' for ' + pat if pat else ''}", "ctest, all of it", f"ctest -R {pat or 'unit'} please",
               "Unity suite on the host, go", f"unit tests {pat} — still green?", f"ユニットテスト {pat}")
    args = ["--output-on-failure"] + (["-R", pat] if pat else [])
    steps = [lambda size: ("ctest", {"build_dir": "build/unit", "args": args}, ctest_output(rng, size))]
    ans = _pick(rng, ("All host unit tests pass.", f"ctest is green{' for ' + pat if pat else ''}; total run under 30 s.",
                      "Everything passes; the Unity output shows no ignored cases."))
    return req, steps, ans


def task_go(rng: random.Random) -> Task:
    pkg = _pick(rng, GO_PKGS)
    req = _ask(rng, f"go test the ingest {pkg}", "ingest service tests pls", f"run go test ./{pkg}/... -race",
               "is the ingest service green?", "ingest: go vet + go test", "Go-Tests vom Ingest laufen lassen")
    steps = [lambda size: ("shell", {"command": f"cd ingest && go test -race -count=1 ./{pkg}/..."}, go_output(rng, size))]
    ans = _pick(rng, ("Ingest tests pass with -race.", f"All green in {pkg}; no data races reported.",
                      "go test is clean across the packages it touched."))
    return req, steps, ans


def task_flash(rng: random.Random) -> Task:
    board, rig = _pick(rng, BOARDS), _pick(rng, RIGS)
    runner = "openocd" if "stm32" in board or "nucleo" in board else _pick(rng, ("nrfjprog", "probe-rs"))
    req = _ask(rng, f"flash {board} on {rig} and grab the boot log", f"put the current build on {rig}, then console",
               f"flash + serial, {rig}", f"{rig} に焼いてログ見せて", f"{rig}에 플래시하고 로그 확인")
    steps = [lambda size: ("flash", {"board": board, "runner": runner, "rig": rig}, flash_output(rng, size, runner)),
             lambda size: ("serial_console", {"port": "/dev/ttyACM0", "baud": 115200, "seconds": rng.randint(10, 120)},
                           serial_output(rng, size))]
    ans = _pick(rng, (f"Flashed {rig}; it boots, samples every cycle and the uplinks go out. A few NACK retries on the "
                      "sensor bus, same as before.", f"{rig} is running the new image. Boot log looks normal.",
                      "Flash verified, console shows a clean boot and regular samples."))
    return req, steps, ans


def task_gdb(rng: random.Random) -> Task:
    req = _ask(rng, "attach gdb and get me a backtrace", "where is it stuck? gdb pls", "halt it and dump registers",
               "gdb: bt + regs", "デバッガで止めて bt", "gdb로 bt 좀")
    steps = [lambda size: ("gdb", {"elf": "build/zephyr/zephyr.elf", "commands": ["target remote :3333", "bt", "info registers"]},
                           gdb_output(rng, size))]
    ans = _pick(rng, ("It is idling in arch_cpu_idle; the threads are parked on their semaphores, nothing stuck.",
                      "Backtrace is ordinary: the sampler waits on its semaphore. Registers look sane.",
                      "Nothing wedged; the CPU sits in idle between samples."))
    return req, steps, ans


def task_hil(rng: random.Random) -> Task:
    rig, suite = _pick(rng, RIGS), _pick(rng, ("power_smoke", "sensor_regression", "dfu_cycle", "radio_soak", "nightly_full"))
    req = _ask(rng, f"kick off {suite} on {rig}", f"HIL {suite} pls", f"run {suite} against the current build on {rig}",
               f"{rig}: {suite}", f"{suite} を {rig} で", f"HIL {suite} 돌려봐")
    steps = [lambda size: ("hil_run", {"suite": suite, "rig": rig, "firmware": "build/zephyr/zephyr.hex"},
                           hil_output(rng, size, rig, suite))]
    ans = _pick(rng, (f"{suite} passed on {rig}; skips are the checks that need the climate chamber.",
                      f"HIL {suite}: all pass.", f"Clean {suite} run on {rig}, nothing new."))
    return req, steps, ans


def task_git(rng: random.Random) -> Task:
    path = _pick(rng, C_FILES + RS_FILES + GO_FILES)
    req = _ask(rng, f"who touched {path} lately?", "git log, last few weeks", f"show me the diff on {path}",
               f"what changed in {path}?", "recent history of main pls", f"{path} の履歴")
    steps = [lambda size: ("git", {"args": ["log", "--since=3.weeks", "--", path]}, git_log_output(rng, size))]
    if rng.random() < 0.5:
        steps.append(lambda size: ("git", {"args": ["diff", "HEAD~3", "--", path]}, diff_output(rng, size, path)))
    ans = _pick(rng, (f"{path} changed in a handful of small commits; nothing structural.",
                      "History is quiet: mostly cleanups and one bug fix.", f"Last changes to {path} were the review fixes."))
    return req, steps, ans


def task_datasheet(rng: random.Random) -> Task:
    part = _pick(rng, PARTS)
    q = _pick(rng, ("stop 2 current", "I2C timing", "RTC wakeup timer", "SPI max clock", "ADC sampling time",
                    "brown-out thresholds", "deep power-down", "heater duty cycle"))
    req = _ask(rng, f"what does the {part} datasheet say about {q}?", f"{part}: {q}", f"look up {q} for the {part}",
               f"{part} の {q} 調べて", f"{part} {q} 찾아줘", f"{part} Datenblatt: {q}?")
    steps = [lambda size: ("datasheet_search", {"part": part, "query": q}, datasheet_output(rng, size, part, q))]
    ans = _pick(rng, (f"The {part} numbers for {q} are in the tables above; our config stays inside the typical values.",
                      f"{part}: {q} is covered in the electrical characteristics; nothing we violate.",
                      f"Found it for the {part}; the relevant limits are the min/max rows."))
    return req, steps, ans


def task_edit(rng: random.Random) -> Task:
    path = _pick(rng, C_FILES + RS_FILES + GO_FILES)
    lang = "rs" if path.endswith(".rs") else "go" if path.endswith(".go") else "c"
    old = new = ""
    while len(old) < 4 or len(new) < 4 or old == new:
        old, new = code_line(rng, lang).strip(), code_line(rng, lang).strip()
    req = _ask(rng, f"tidy up {path}", f"small cleanup in {path}, the log line", f"fix the obvious thing in {path}",
               f"{path}: rename that variable", f"{path} aufräumen", f"{path} 정리 좀")
    steps = [lambda size: ("read_file", {"path": path}, numbered(source_text(rng, size, path))),
             lambda size: ("edit_file", {"path": path, "old": old, "new": new}, f"edited {path}: 1 replacement")]
    ans = _pick(rng, (f"Done, one-line change in {path}.", f"Cleaned up {path}; behaviour unchanged.",
                      f"{path} edited, nothing else touched."))
    return req, steps, ans


def task_write(rng: random.Random) -> Task:
    path = _pick(rng, NEW_TESTS)
    req = _ask(rng, f"regenerate {path}", f"rewrite {path} from the current vectors", f"{path} neu schreiben",
               f"refresh {path}", f"{path} を作り直して")

    def write(size: int) -> Step:
        body = source_text(rng, max(300, size // 2), path)
        return "write_file", {"path": path, "content": body}, f"wrote {len(body)} bytes to {path}"

    ans = _pick(rng, (f"{path} rewritten.", f"Regenerated {path}; it compiles.", f"{path} is up to date now."))
    return req, [write], ans


def task_shell(rng: random.Random) -> Task:
    cmd = _pick(rng, ("grep -rn 'k_msleep' app lib", "grep -rn 'LOG_ERR' drivers", "ls -la build/zephyr",
                      "arm-zephyr-eabi-size -A build/zephyr/zephyr.elf", "grep -rn 'unsafe' rust/crates"))
    req = _ask(rng, f"run `{cmd}`", f"{cmd} — what comes up?", f"quick shell: {cmd}", f"`{cmd}` 해봐")
    steps = [lambda size: ("shell", {"command": cmd}, shell_output(rng, size, cmd))]
    ans = _pick(rng, ("Output above; nothing surprising.", "A long list, all expected call sites.",
                      "Nothing that needs action."))
    return req, steps, ans


def task_stacks(rng: random.Random) -> Task:
    req = _ask(rng, "stack usage on the shell?", "kernel stacks pls", "check thread stacks on the DUT", "スタック使用量")
    steps = [lambda size: ("serial_console", {"port": "/dev/ttyACM0", "baud": 115200, "send": "kernel stacks"},
                           shell_output(rng, size, "kernel stacks"))]
    ans = _pick(rng, ("No thread is close to its limit.", "Stacks have headroom everywhere.", "All threads below 80 %."))
    return req, steps, ans


TASKS = (task_build, task_build, task_cargo, task_ctest, task_go, task_flash, task_gdb, task_hil, task_git,
         task_datasheet, task_edit, task_write, task_shell, task_stacks)


# --- what gets planted -------------------------------------------------------------------------------------
# Each drawer returns a dict with the value, a query that paraphrases the fact without it, and what its carrier
# needs. Template ``i`` of a kind is used once per session, so a setting is never planted twice.

FACT_THREADS = ("env_fusion", "co2_calib", "flash_gc", "ota_rx", "uplink_retry", "baro_filter", "heater_ctl")
FACT_FUNCS = ("sht4x_crc_check", "baro_odr_apply", "heater_pulse_end", "frame_v3_pack", "gc_sweep_sector",
              "ota_chunk_commit", "vbat_curve_lookup", "adv_payload_fill", "soil_cal_apply", "co2_abc_update")
AREAS = ("pm", "sensors", "ble", "lora", "dfu", "codec", "ingest", "hal")


def _swap(rng: random.Random, digits: str) -> str:
    """The same number with two neighbouring digits swapped (a near miss), never equal to it."""
    for _ in range(20):
        i = rng.randrange(len(digits) - 1)
        out = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
        if out != digits and not out.startswith("0"):
            return out
    return digits[:-1] + str((int(digits[-1]) + 3) % 10)


def _instruction(rng: random.Random, i: int) -> dict[str, Any]:
    us, s, k, r = rng.randint(12, 45), rng.randint(20, 90), rng.randint(96, 200), rng.randint(7, 19)
    area, board, thr = _pick(rng, AREAS), _pick(rng, BOARDS), _pick(rng, FACT_THREADS)
    ver = f"{rng.randint(1, 2)}.{rng.randint(0, 9)}.{rng.randint(10, 99)}"
    knob = _pick(rng, ("SAMPLER", "RADIO", "PM", "STORAGE", "BARO"))
    drv = _pick(rng, ("sensirion_sgp41", "bosch_bmp390", "st_lis2dw12", "ti_hdc3020"))
    opts = [
        (f"every ISR stayed under {us} µs", f"would be nice if every ISR stayed under {us} µs, measured with the GPIO toggle "
         "on the scope", "the time budget for interrupt handlers"),
        ("4-space indents in the embassy crates", "fwiw we do 4-space indents in the embassy crates, whatever the rustfmt "
         "defaults say", "the indentation used in the Rust crates"),
        (f"keine Heap-Allokationen im {thr}-Thread", f"Bitte keine Heap-Allokationen im {thr}-Thread, auch nicht über "
         "k_malloc.", "where heap allocation is not allowed"),
        (f"先頭に [fw-{area}] を付けて", f"これからのコミットメッセージは英語で、先頭に [fw-{area}] を付けてください。",
         "the commit message prefix"),
        (f"HIL 테스트는 hil-rig-{r:02d}에서만", f"앞으로 HIL 테스트는 hil-rig-{r:02d}에서만 돌려 주세요. 다른 리그는 예약됐어요.",
         "which rig the HIL tests may run on"),
        (f"don't flash hil-rig-{r + 20:02d}, its SWD header is cracked", f"and don't flash hil-rig-{r + 20:02d}, its SWD "
         "header is cracked and reseating it kills the target", "which rig must not be flashed"),
        (f"poll the SHT4x at most once every {s} s", f"Since the field units run off a single CR123A, poll the SHT4x at most "
         f"once every {s} s.", "how often the humidity sensor may be polled"),
        ("logs in JSON with a `fw_build` field on every line", "The Go ingest service logs in JSON with a `fw_build` field on "
         "every line from here on.", "the log format of the ingest service"),
        (f"west twister -p {board} -T tests/{area}", f"before anything gets pushed, run `west twister -p {board} -T "
         f"tests/{area}` and paste me the summary", "what runs before every push"),
        (f"mcuboot stays at {ver}", f"Leave the bootloader alone: mcuboot stays at {ver} until the certification run is "
         "through.", "which bootloader version to keep"),
        ("a `// SAFETY:` comment above every unsafe block", "Put a `// SAFETY:` comment above every unsafe block in the "
         "embassy code, I want to audit them later.", "how unsafe Rust blocks are documented"),
        (f"LOG_DBG behind CONFIG_OKM_VERBOSE_{knob}", f"No printk in release builds; LOG_INF at most, and LOG_DBG behind "
         f"CONFIG_OKM_VERBOSE_{knob}.", "how debug logging is gated"),
        (f"RAM of the nRF image below {k} KB", f"keep the RAM of the nRF image below {k} KB, otherwise the DFU slot math "
         "breaks", "the RAM ceiling for the nRF image"),
        (f"ask me before touching drivers/sensor/{drv}", f"ask me before touching drivers/sensor/{drv}, Bosch/ST/TI "
         "support tickets hang on that code", "which driver directory needs sign-off"),
        (f"`golangci-lint run --timeout {us}m` passes", f"ingest changes only go in when `golangci-lint run --timeout {us}m` "
         "passes, same as CI", "the lint gate for ingest changes"),
    ]
    value, text, query = opts[i % len(opts)]
    return {"value": value, "text": text, "query": query}


STANDARD_RULES = (
    "Functions stay under 60 lines; split anything longer.", "Every public C function has a doxygen comment.",
    "Kconfig symbols of our own start with CONFIG_OKM_.", "No magic numbers in driver code; name them in the header.",
    "All shared state between threads goes through k_msgq, k_fifo or atomics.", "Devicetree is the single source of "
    "pin assignments; no pin numbers in C.", "Use LOG_MODULE_REGISTER with the file's subsystem name.",
    "Unit tests for every pure function in lib/.", "Rust crates deny(warnings) in CI but not locally.",
    "Errors are negative errno values in C and thiserror enums in Rust.", "No recursion anywhere in firmware.",
    "Interrupt handlers only set flags or give semaphores.", "Go code is formatted with gofumpt.",
    "Every TODO carries a ticket number.", "Use sys_le16_to_cpu and friends for wire data, never casts.")


def _standard(rng: random.Random, rule: str) -> str:
    """The team coding standard he adopts; ``rule`` sits deep in a middle section."""
    rules = list(STANDARD_RULES)
    rng.shuffle(rules)
    sections = ("General", "C and Zephyr", "Concurrency", "Rust", "Go ingest", "Testing", "Reviews")
    parts = [f"# Okamura Sensing firmware coding standard, v{rng.randint(2, 5)}.{rng.randint(0, 9)}",
             "Maintained by the firmware guild. Applies to app/, lib/, drivers/, rust/ and ingest/.", ""]
    filler = ("Rationale: consistency across the team matters more than any single preference.",
              "Exceptions need a comment with the reason and a reviewer's initials.",
              "Existing code is migrated when it is touched, not in bulk.",
              "Tooling enforces what it can; reviewers catch the rest.",
              "When two rules conflict, the more specific section wins and the guild gets a note.",
              "Field failures cost far more than review time, so err on the side of the boring solution.",
              "New hires read this page in their first week; keep it short enough to be read.")
    examples = {"C and Zephyr": ["static int sht4x_fetch(const struct device *dev)", "{", "\treturn -EIO;", "}"],
                "Concurrency": ["K_MSGQ_DEFINE(sample_q, sizeof(struct sample), 16, 4);", "k_msgq_put(&sample_q, &s, K_NO_WAIT);"],
                "Rust": ["#[embassy_executor::task]", "async fn sampler(mut bus: I2c<'static>) -> ! {", "    loop { /* ... */ }", "}"],
                "Go ingest": ["if err := store.Put(ctx, f); err != nil {", "\treturn fmt.Errorf(\"put frame: %w\", err)", "}"]}
    for n, title in enumerate(sections):
        parts.append(f"## {n + 1}. {title}")
        for _ in range(3):
            parts.append(f"- {rules.pop()}" if rules else f"- {_pick(rng, filler)}")
        if n == 3:
            parts.append(f"- {rule}")
        parts += ["", " ".join(rng.sample(filler, 3)), ""]
        if title in examples:
            parts += ["Example:", "```"] + examples[title] + ["```", ""]
    return "\n".join(parts)


def _standard_rule(rng: random.Random) -> dict[str, Any]:
    ms = rng.randint(3, 40)
    value = f"Every `k_work` handler returns within {ms} ms"
    return {"value": value, "rule": f"{value}; longer jobs get their own work queue.",
            "query": "the time limit for work-queue handlers in the team standard"}


def _correction(rng: random.Random, i: int) -> dict[str, Any]:
    port, pin = rng.choice("BC"), rng.randint(3, 8)
    baud = rng.choice(("921600", "460800", "230400", "250000"))
    n = rng.randint(2, 9)
    addr = rng.choice((0x5C, 0x44, 0x76, 0x18))
    wdt = str(rng.randint(12, 98) * 100)
    off = rng.randint(0x40, 0x7E) * 0x1000
    off2 = off + 0x2000
    bo = f"{rng.randint(2, 2)}.{rng.randint(6, 9)}{rng.randint(1, 5)}"
    tag = f"{rng.randint(1, 3)}.{rng.randint(10, 19)}.{rng.randint(2, 9)}"
    tag2 = tag.rsplit(".", 1)[0][:-1] + str((int(tag.rsplit(".", 1)[0][-1]) + 1) % 10) + "." + tag.rsplit(".", 1)[1]
    gport = str(rng.randint(6100, 8999))
    site = _pick(rng, ("nagoya", "hamburg", "busan", "osaka", "kiel"))
    every = str(rng.randint(13, 98))
    mah = rng.randint(12, 17) * 100
    pins = rng.sample(range(10, 32), 2)
    opts = [
        (f"SDA is P{port}{pin + 1}", f"SDA is P{port}{pin}", f"I2C1 for the SHT4x: SDA is P{port}{pin}, SCL is P{port}{pin + 1}.",
         f"other way round on those I2C pins: SDA is P{port}{pin + 1}, SCL P{port}{pin}", "the SDA pin of the SHT4x bus"),
        (f"{baud} baud", f"{_swap(rng, baud)} baud", "the gateway bridge UART runs at {old}, set the console to match",
         "gah, typo earlier: {new}, not what I wrote", "the baud rate of the gateway bridge UART"),
        (f"okm_env_nrf52_r{n}", f"okm_env_stm32l4_r{n}", "the leak shows up on {old}, build that one",
         "the nRF one, not the STM32: {new}. sorry", "the board the leak shows up on"),
        (f"address 0x{addr + 1:02X}", f"address 0x{addr:02X}", "the baro on the new carrier sits at {old}",
         "checked the schematic, SA0 is pulled high, so {new}", "the I2C address of the barometer on the new carrier"),
        (f"watchdog timeout of {_swap(rng, wdt)} ms", f"watchdog timeout of {wdt} ms", "give the sampler a {old}",
         "hm, I misread the old config. {new} is right", "the sampler watchdog timeout"),
        (f"0x{off2:08X}", f"0x{off:08X}", "storage_partition starts at {old}, 24 KB",
         "re the OTA thing: flashed the bridge fine, and — correction to what I said about the partition — it starts at "
         "{new}, mcuboot grew — anyway the bridge logs look ok", "where storage_partition starts"),
        (f"brown-out at {bo[0]}.{bo[3]}{bo[2]} V", f"brown-out at {bo} V", "set the {old} threshold for the LDO board",
         "digits swapped: {new}", "the brown-out threshold of the LDO board"),
        (f"fw-{tag2}", f"fw-{tag}", "last good release was {old}, bisect from there",
         "wait, {old} was already bad, last good one is {new}", "the last good release to bisect from"),
        (f"port {_swap(rng, gport)}", f"port {gport}", "the ingest staging instance listens on {old}",
         "staging ingest is on {new}, I had it backwards", "the port of the staging ingest instance"),
        (f"okm/v3/{site}/telemetry", f"okm/v2/{site}/telemetry", "the {site} site publishes to {old}".replace("{site}", site),
         "topic is {new} since the migration, not v2", "the MQTT topic of the site"),
        (f"sample every {_swap(rng, every)} s", f"sample every {every} s", "soil probes: {old} in the field config",
         "make that {new}, I swapped the digits", "the soil probe sampling interval"),
        (f"{mah + 50} mAh", f"{mah} mAh", "the new CR123A lot is rated {old}, use that for the SoC curve",
         "datasheet says {new} for that lot, so the curve needs that", "the rated capacity of the new cell lot"),
        (f"P0.{pins[1]}", f"P0.{pins[0]}", "the wake button is wired to {old} on rev C",
         "ugh — wake button is {new}, not what I told you, the rev C schematic moved it", "the GPIO of the wake button"),
    ]
    new, old, said, fixed, query = opts[i % len(opts)]
    if i % len(opts) == 0:
        return {"value": new, "stale": old, "said": said, "fixed": fixed, "query": query}
    return {"value": new, "stale": old, "said": said.format(old=old), "fixed": fixed.format(new=new, old=old),
            "query": query}


def _decision(rng: random.Random, i: int) -> dict[str, Any]:
    s, p, k, n = rng.randint(1, 3), rng.randint(18, 64), rng.choice((24, 32, 48, 64)), rng.randint(16, 240)
    opts = [
        (f"DMA on SPI{s} for the external flash", "polling", f"polling ate {p}% CPU during OTA writes",
         "how the external SPI flash is driven", f"interrupt-driven SPI{s} transfers without DMA",
         "the ADC needs that DMA channel after all"),
        (f"postcard with a {s + 3}-byte header for the telemetry frames", "CBOR", f"frames come out {p}% smaller",
         "the telemetry frame encoding", f"minicbor telemetry frames with a {s + 3}-byte preamble",
         "the Go side wants a self-describing format"),
        (f"LittleFS on a {k} KB storage partition", "NVS", "the calibration blobs want real files",
         "the storage backend for calibration data", f"ZMS on the {k} KB partition", "LittleFS wear in the soak was bad"),
        (f"a {n}-sample ring buffer in retained RAM", "a flash write per sample", "flash endurance over ten years",
         "where samples wait between uplinks", f"batching {n // 8} samples per flash page write",
         "retained RAM does not survive the brown-out path"),
        (f"TWIM with EasyDMA for the sensor bus at {100 * s + 300} kHz", "bit-banged I2C", f"bit-banging cost {p} µA",
         "the I2C driver on the nRF", None, None),
        (f"pgx batches of {n * 10} rows in ingest", "the ORM", f"the ORM path took {p} ms per frame",
         "how ingest writes to Postgres", "pgx.CopyFrom into a staging table", "the batches still time out at peak"),
        ("Unity for the C unit tests, driven by ctest", "ztest", "Unity runs on the host in milliseconds",
         "the C unit test framework", "ztest on native_sim for the C unit tests", "the Unity mocks drifted from the headers"),
        (f"a {s * 4} s hardware watchdog fed only from the main loop", "feeding it from every thread",
         "a stuck sampler must reset the unit", "how the watchdog is fed", None, None),
        (f"delta-encoded {s + 9}-bit samples", "raw 16-bit samples", f"that saves {p}% airtime on LoRa",
         "how samples are encoded on air", None, None),
        (f"a {n * 5} ms BLE advertising interval in normal mode", "the 100 ms default", f"it costs {p}% of the budget",
         "the BLE advertising interval", None, None),
        ("LTO for the STM32 release build", "plain -Os", f"it saves {k} KB of flash", "the STM32 release optimisation",
         "-Oz without LTO for the STM32 release", "LTO mangled the fault handler symbols in gdb"),
        ("probe-rs for flashing the Rust images", "openocd", "it speaks RTT and defmt out of the box",
         "the flashing tool for the Rust images", None, None),
        (f"a {s + 1} h nightly HIL window with PR runs on native_sim", "HIL on every PR", "the rigs cannot keep up",
         "when HIL runs in CI", None, None),
        (f"RTC1 at {2 ** (s + 12)} Hz as the embassy time driver", "the SysTick driver", "SysTick stops in System ON idle",
         "the embassy time driver", None, None),
    ]
    choice, alt, reason, query, revised, why = opts[i % len(opts)]
    says = (f"we go with {choice} instead of {alt}, because {reason}.", f"Decided: {choice}. {alt} was tempting, but {reason}.",
            f"Let's do {choice}; {reason}, so {alt} is out.", f"Wir nehmen {choice} statt {alt}, weil {reason}.",
            f"ok, {choice} it is ({reason}; {alt} doesn't cut it).", f"{reason}, so: {choice}, not {alt}.")
    out = {"value": choice, "query": query, "said": _pick(rng, says), "revised": revised}
    if revised:
        out["revise"] = _pick(rng, (f"scratch {choice}: we switch to {revised}, because {why}.",
                                    f"revisiting what we decided earlier: {why}. So {revised} instead.",
                                    f"{why}, so we go with {revised} after all.",
                                    f"Planänderung: {revised}, weil {why}."))
    return out


def _error(rng: random.Random, i: int) -> dict[str, Any]:
    """A failing run: the tool, its arguments, the failing line (the value), failing and passing outputs."""
    board, app = _pick(rng, BOARDS), _pick(rng, APPS)
    n, l_, c = rng.randint(40, 4000), rng.randint(20, 480), rng.randint(2, 40)
    fn = f"{_pick(rng, FACT_FUNCS)}"
    crate, mod = _pick(rng, CRATES), _pick(rng, ("frame", "codec", "sched", "units"))
    ld = "/opt/zephyr-sdk-0.16.8/arm-zephyr-eabi/bin/../lib/gcc/arm-zephyr-eabi/12.2.0/../../../../arm-zephyr-eabi/bin/ld.bfd"
    wb = ("west_build", {"board": board, "app": app, "pristine": True})
    case = f"{_pick(rng, ('wrap', 'full', 'vectors', 'rollover', 'clamp'))}_{rng.randint(41, 99)}"
    rig = _pick(rng, RIGS)
    hil = ("hil_run", {"suite": _pick(rng, ("power_smoke", "dfu_cycle")), "rig": rig, "firmware": "build/zephyr/zephyr.hex"})
    gt = ("shell", {"command": "cd ingest && go test -race -count=1 ./internal/decode/..."})
    ct = ("ctest", {"build_dir": "build/unit", "args": ["--output-on-failure"]})
    cg = ("cargo", {"args": ["test", "-p", crate], "cwd": "rust"})
    opts: list[tuple[tuple[str, dict[str, Any]], str, str, list[str], str]] = [
        (wb, f"region `FLASH' overflowed by {n} bytes", "build", [f"{ld}: zephyr/zephyr_pre0.elf section `rodata' will not fit in region `FLASH'"],
         f"how far the {board} image overflowed flash"),
        (wb, f"region `RAM' overflowed by {n} bytes", "build", [f"{ld}: zephyr/zephyr_pre0.elf section `noinit' will not fit in region `RAM'"],
         f"how far the {board} image overflowed RAM"),
        (wb, f"undefined reference to `{fn}'", "build", [f"{ld}: app/libapp.a(sampler.c.obj): in function `sampler_loop':"],
         "the unresolved symbol at link time"),
        (wb, f"{app}/src/{fn[:4]}_glue.c:{l_}:{c}: error: implicit declaration of function '{fn}'", "build", [],
         "the compile error in the glue code"),
        (ct, f"{rng.randint(20, 60)} - unit_{_pick(rng, ('ringbuf', 'crc16', 'pm_policy'))}_{case} (Failed)", "ctest", [],
         "the ctest case that failed"),
        (ct, f"test_{mod}.c:{l_}:test_{case}:FAIL: Expected {n} Was {n + rng.randint(1, 9)}", "unity", [],
         "the Unity assertion that failed"),
        (cg, f"thread '{mod}::tests::{case}' panicked at src/{mod}.rs:{l_}:{c}:", "cargo",
         ["assertion `left == right` failed", f"  left: {n}", f" right: {n - 1}"], f"the panicking {crate} test"),
        (cg, f"error[E0277]: the trait bound `FrameV{c}: defmt::Format` is not satisfied", "cargo",
         [f"  --> src/{mod}.rs:{l_}:{c}"], f"the compile error in {crate}"),
        (gt, f"frame_test.go:{l_}: got {n} frames, want {n + c}", "go", [f"--- FAIL: TestDecodeBatch/{case} (0.0{c % 10}s)"],
         "the failing ingest decode test"),
        (gt, f"internal/decode/frame.go:{l_}:{c}: undefined: frame.V{c}Header", "go", ["# github.com/okamura-sensing/ingest/internal/decode"],
         "the ingest build error"),
        (("flash", {"board": "nucleo_l476rg", "runner": "openocd", "rig": rig}),
         f"Error: error writing to flash at address 0x08000000 at offset 0x{n * 0x100:08x}", "openocd", [],
         "the openocd flash write failure"),
        (("flash", {"board": "nrf52840dk_nrf52840", "runner": "probe-rs", "rig": rig}),
         f"Error: Failed to erase flash sector at address 0x{n * 0x1000:08x}", "probe", [], "the probe-rs erase failure"),
        (hil, f"[FAIL] sleep_current_uA             avg {rng.uniform(7, 40):.2f} uA > limit 6.0 uA", "hil", [],
         "the HIL sleep-current failure"),
        (hil, f"[FAIL] dfu_swap_and_confirm         image not confirmed after {n // 10} s", "hil", [],
         "the HIL DFU failure"),
    ]
    (tool, args), value, how, context, query = opts[i % len(opts)]
    return {"value": value, "query": query, "tool": tool, "args": args, "how": how, "context": context}


def error_output(rng: random.Random, fact: dict[str, Any], size: int, failing: bool) -> str:
    """The run that fails on ``fact['value']`` or, later, passes."""
    args, how = fact["args"], fact["how"]
    lines = fact["context"] + [fact["value"]] if failing else None
    if failing and how == "cargo" and "panicked" in fact["value"]:
        lines = [fact["value"]] + fact["context"]
    if how == "build":
        return build_output(rng, size, args["board"], args["app"], lines, failed=failing)
    if how == "ctest":
        return ctest_output(rng, size, None, ("\t " + fact["value"]) if failing else None)
    if how == "unity":
        return ctest_output(rng, size, lines, f"\t  7 - unit_{fact['value'][5:10]} (Failed)" if failing else None)
    if how == "cargo":
        return cargo_output(rng, size, args["args"][2], lines, failed=failing)
    if how == "go":
        extra = [fact["context"][0], "    " + fact["value"]] if failing and "FAIL" in fact["context"][0] else lines
        return go_output(rng, size, extra, "internal/decode" if failing else None)
    if how in ("openocd", "probe"):
        return flash_output(rng, size, args["runner"], None, fact["value"] if failing else None)
    return hil_output(rng, size, args["rig"], args["suite"], None, fact["value"] if failing else None)


FILE_NOUNS = ("brownout_latch", "heater_duty", "baro_odr", "uplink_backoff", "vbat_filter", "co2_abc", "rtc_trim",
              "flash_gc", "frame_v3", "ota_chunks", "soil_cal", "adv_rotation", "dew_point", "tx_power_table")


def _file(rng: random.Random, i: int, noun: str) -> dict[str, Any]:
    words = noun.replace("_", " ")
    shapes = (
        (f"app/sensor_node/src/{_pick(rng, AREAS)}/{noun}.c", "c", f"add the {words} logic to the sensor node"),
        (f"rust/crates/okm-{_pick(rng, ('power', 'sampler', 'codec'))}/src/{noun}.rs", "rs", f"port the {words} code to the Rust crate"),
        (f"ingest/internal/{_pick(rng, ('decode', 'store', 'api'))}/{noun}.go", "go", f"ingest needs to understand the {words} fields"),
        (f"tests/unit/{noun}/test_{noun}.c", "c", f"write Unity tests for the {words} module"),
        (f"app/sensor_node/boards/okm_tempo_nrf52840_{noun}.overlay", "dts", f"devicetree overlay for the {words} variant"),
        (f"scripts/hil/check_{noun}.py", "py", f"a HIL check script for {words}"),
    )
    path, lang, ask = shapes[i % len(shapes)]
    op = "edit_file" if i % 3 == 1 else "write_file"
    what = {"write_file": "written", "edit_file": "edited"}[op]
    return {"value": path, "lang": lang, "ask": ask, "op": op, "query": f"the {words} file the agent {what}"}


def _identifier(rng: random.Random, i: int) -> dict[str, Any]:
    """``carrier`` user: ``text`` says it; carrier tool: ``step`` is (tool, args, line holding the value)."""
    h40, h12 = _hex(rng, 40), _hex(rng, 12)
    opts: list[tuple[str, str, Any, str]] = [
        ("user", f"FW-{rng.randint(1000, 9999)}", "this goes under {v} in Jira, put it in the branch name", "the Jira ticket for this work"),
        ("tool", h40, ("git", {"args": ["rev-parse", "HEAD"]}, "{v}"), "the commit at HEAD before the release build"),
        ("user", f"PCB {rng.randint(4000, 4999)}-{rng.choice('CDE')}{rng.randint(1, 4)}",
         "the units that came back are {v}, the ones with the new LDO", "the board revision of the returned units"),
        ("tool", f"OKS-HIL-{_hex(rng, 6).upper()}", ("hil_run", {"suite": "rig_selftest", "rig": "hil-rig-02", "firmware": "none"}, "rig serial: {v}"),
         "the serial number of the rig that ran the self-test"),
        ("user", f"OKS{rng.randint(22, 24)}{rng.randint(10, 52)}-{rng.randint(10000, 99999)}",
         "customer's unit is S/N {v}, they ship it back Monday", "the serial number of the customer's unit"),
        ("tool", f"{rng.randint(683000000, 683999999)}", ("flash", {"board": "nucleo_l476rg", "runner": "openocd", "rig": "hil-rig-04"},
                                                          "Info : J-Link V11 compiled Feb 2 2024, S/N {v}"), "the J-Link serial on rig 4"),
        ("user", h12, "last known good build was {v}, bisect from there", "the last known good commit"),
        ("tool", h12 + "0", ("git", {"args": ["log", "--oneline", "-1", "origin/release/2.5"]}, "{v} (origin/release/2.5) dfu: confirm image after self-test"),
         "the tip of the release/2.5 branch"),
        ("user", f"hil-nightly/{rng.randint(10000, 99999)}", "the failing CI job is {v}, logs are in the artifacts",
         "the failing nightly CI job"),
        ("tool", f"0x{_hex(rng, 16).upper()}", ("serial_console", {"port": "/dev/ttyACM1", "baud": 115200, "send": "okm id"},
                                                "FICR DEVICEID {v}"), "the device id of the unit on ACM1"),
        ("user", f"okm-fw#{rng.randint(1000, 1999)}", "Minji's fix is {v}, rebase onto it", "the pull request with Minji's fix"),
        ("tool", f"v2.{rng.randint(5, 9)}.{rng.randint(0, 9)}-{rng.randint(2, 60)}-g{_hex(rng, 8)}",
         ("git", {"args": ["describe", "--tags", "--long"]}, "{v}"), "what git describe says for the build"),
    ]
    carrier, value, text, query = opts[i % len(opts)]
    if carrier == "user":
        return {"carrier": carrier, "value": value, "text": text.format(v=value), "query": query}
    tool, args, line = text
    return {"carrier": carrier, "value": value, "tool": tool, "args": args, "line": line.format(v=value), "query": query}


def identifier_output(rng: random.Random, fact: dict[str, Any], size: int) -> str:
    tool, line = fact["tool"], fact["line"]
    if tool == "git" and fact["args"]["args"][0] in ("rev-parse", "describe"):
        return line
    if tool == "git":
        return line + "\n" + git_log_output(rng, size)
    if tool == "hil_run":
        return hil_output(rng, size, "hil-rig-02", "rig_selftest", [line])
    if tool == "flash":
        return flash_output(rng, size, "openocd", [line])
    return serial_output(rng, size, [line])


def _finding(rng: random.Random, i: int) -> dict[str, Any]:
    """A line a tool printed that is needed later: (tool, args, output maker taking the line)."""
    thr, fn = _pick(rng, FACT_THREADS), _pick(rng, FACT_FUNCS)
    s = rng.choice((1024, 1536, 2048))
    u = rng.randint(24, 120)
    part = _pick(rng, ("STM32L476", "nRF52840", "STM32WB55"))
    reg = _pick(rng, ("RTC_PRER", "PWR_CR3", "RCC_CSR", "POWER_RESETREAS", "SPIM_CONFIG", "LPUART_BRR"))
    used = rng.randint(400_000, 520_000)
    opts: list[tuple[str, dict[str, Any], str, str, str]] = [
        ("serial_console", {"port": "/dev/ttyACM0", "baud": 115200, "send": "kernel stacks"}, "stacks",
         f"{thr} (real size {s}):\tunused {u}\tusage {s - u} / {s} ({100 * (s - u) // s} %)",
         f"the stack headroom of the {thr} thread"),
        ("gdb", {"elf": "build/zephyr/zephyr.elf", "commands": ["target remote :3333", "bt"]}, "gdb",
         f"{fn} (dev=0x{rng.randint(0x08020000, 0x0803ffff):08x}) at app/sensor_node/src/{fn.split('_')[0]}.c:{rng.randint(40, 400)}",
         "the frame in the crash backtrace that points at the root cause"),
        ("datasheet_search", {"part": part, "query": f"{reg} reset value"}, "datasheet",
         f"{reg} (offset 0x{rng.randint(0, 0x3FF):03X}) reset value 0x{_hex(rng, 8).upper()}", f"the reset value of {reg}"),
        ("hil_run", {"suite": "power_smoke", "rig": "hil-rig-05", "firmware": "build/zephyr/zephyr.hex"}, "hil",
         f"sleep current avg {rng.uniform(1.5, 9):.2f} uA over {rng.choice((300, 600, 900))} s", "the measured sleep current"),
        ("west_build", {"board": "okm_airq_stm32l476", "app": "app/airq", "pristine": False}, "build",
         f"FLASH:  {used:>10} B       512 KB  {100 * used / 524288:8.2f}%", "how full flash is on the airq build"),
        ("git", {"args": ["bisect", "run", "scripts/hil/sleep_check.sh"]}, "bisect",
         f"{_hex(rng, 40)} is the first bad commit", "the first bad commit from the bisect"),
        ("hil_run", {"suite": "latency", "rig": "hil-rig-01", "firmware": "build/zephyr/zephyr.hex"}, "hil",
         f"gpio_wakeup ISR entry latency p99 {rng.randint(900, 4000)} ns", "the p99 ISR entry latency"),
        ("serial_console", {"port": "/dev/ttyACM0", "baud": 115200, "seconds": 30}, "serial",
         f"{_stamp(rng.randint(1, 900))} <inf> clock: HFXO ready after {rng.randint(250, 1400)} us", "the HFXO start-up time"),
        ("shell", {"command": "cd ingest && go test -run '^$' -bench DecodeFrame -benchmem ./internal/decode/"}, "go",
         f"BenchmarkDecodeFrame-8   \t{rng.randint(100, 999)}000\t {rng.randint(800, 3000)} ns/op\t {rng.randint(100, 900)} B/op",
         "the decode benchmark result"),
        ("serial_console", {"port": "/dev/ttyACM0", "baud": 115200, "send": "okm resetreas"}, "serial",
         f"RESETREAS=0x{rng.choice((2, 4, 8)) << 16 | rng.randint(1, 15):08x} (previous boot)", "the reset reason register value"),
        ("datasheet_search", {"part": "MX25R6435F", "query": "max SPI clock"}, "datasheet",
         f"fSCLK max {rng.randint(8, 33)} MHz in ultra low power mode (VCC {rng.uniform(1.65, 2.3):.2f} V)",
         "the SPI clock limit of the flash in low power mode"),
        ("hil_run", {"suite": "i2c_timing", "rig": "hil-rig-06", "firmware": "build/zephyr/zephyr.hex"}, "hil",
         f"SCL measured {rng.uniform(300, 399):.1f} kHz, tLOW {rng.uniform(1.3, 2.1):.2f} us", "the measured I2C clock"),
    ]
    tool, args, how, value, query = opts[i % len(opts)]
    return {"value": value, "tool": tool, "args": args, "how": how, "query": query}


def finding_output(rng: random.Random, fact: dict[str, Any], size: int) -> str:
    how, value, args = fact["how"], fact["value"], fact["args"]
    if how == "stacks":
        line = f"0x{rng.randint(0x20000000, 0x2003ffff):08x} {value}"
        return shell_output(rng, size // 2, "kernel stacks").replace("\nexit code: 0", "") + f"\n{line}\n" + \
            shell_output(rng, size // 2, "kernel stacks")
    if how == "gdb":
        frames = [f"#0  0x{rng.randint(0x08000000, 0x0807ffff):08x} in z_arm_usage_fault ()",
                  f"#1  0x{rng.randint(0x08000000, 0x0807ffff):08x} in {value}",
                  f"#2  0x{rng.randint(0x08000000, 0x0807ffff):08x} in sampler_loop () at app/sensor_node/src/sampler.c:{rng.randint(50, 300)}"]
        return gdb_output(rng, size, frames)
    if how == "datasheet":
        return datasheet_output(rng, size, args["part"], args["query"], [value])
    if how == "hil":
        return hil_output(rng, size, args["rig"], args["suite"], [value])
    if how == "build":
        table = _region_table(rng)
        table[1] = "           " + value
        return build_output(rng, size, args["board"], args["app"], table=table)
    if how == "bisect":
        return git_log_output(rng, size // 2) + f"\n{value}\ncommit {value[:40]}\nAuthor: Lena Vogt <lena@okamura-sensing.jp>\n"
    if how == "go":
        return go_output(rng, size, ["goos: linux", "goarch: amd64", value])
    return serial_output(rng, size, [value])


def _plan(rng: random.Random, i: int) -> dict[str, Any]:
    a, b, r, h = rng.randint(2, 4), rng.randint(0, 9), rng.randint(1, 6), rng.randint(6, 72)
    k, n = rng.choice((10, 50, 100)), rng.randint(3, 30)
    opts = [
        (f"rerun the sleep test on hil-rig-0{r} with the PPK2 at {k} kS/s",
         "first bisect between v{a}.{b}.1 and v{a}.{b1}.0, then {v}, and only after that touch the PM code"),
        (f"re-run the {h}-hour soak with the new LDO", "for the brown-out thing:\n- [ ] reproduce on the bench supply\n"
         "- [ ] {v}\n- [ ] compare reset reasons before/after\n- [ ] write it up for Aiko"),
        (f"diff the TWIM register dump against rev {chr(65 + r)}", "### Plan: I2C lockups\n1. capture with the LA at 25 MHz\n"
         "2. {v}\n3. try the bus-recovery patch\n4. only then talk to the vendor"),
        (f"dann die Frames mit {n} Bytes Header gegen die Go-Seite testen",
         "Erst den Encoder im Rust-Crate fertig machen, {v}, danach ingest deployen."),
        (f"{n} 台のユニットで DFU を連続 {h} 回", "まずブートローダのログを集めて、次に{v}、最後にリリースノート。"),
        (f"rig {r}에서 {h}시간 동안 전류 로그 수집", "순서: 펌웨어 고정 → {v} → 결과 정리."),
        (f"(2) pin the west manifest to the {n}-th nightly", "order: (1) freeze main, {v}, (3) tag, (4) HIL nightly full"),
        (f"swap the CR123A lot {h} cells into rigs 1 and 2", "Steps for the capacity question:\n\n"
         "1. pull the SoC curve from the last soak\n2. {v}\n3. rerun the discharge profile\n4. compare with the datasheet"),
        (f"measure the heater duty at {n} % on the SGP40", "before the airq release: first {v}, then the VOC index "
         "regression, then the flash size check"),
        (f"replay {h}k frames from the {r}-day capture into staging", "ingest migration, roughly: schema first, then {v}, "
         "then flip the write path, keep the old one for a week"),
        (f"bump the BLE adv interval only on hil-rig-0{r}", "# Next week\n- fix the NACK retries\n- {v}\n- review Tomasz's DMA PR"),
        (f"third, compare the {k} kS/s capture with the {n}-sample average", "first reproduce, second isolate the rail, {v}, "
         "and last the fix itself"),
    ]
    value, text = opts[i % len(opts)]
    text = text.replace("{a}", str(a)).replace("{b}", str(b)).replace("{b1}", str(b + 1)).replace("{v}", value)
    return {"value": value, "text": text, "query": _pick(rng, ("a step of the plan he laid out", "what the plan says to do "
                                                                "in the middle", "one of the planned steps"))}


# --- episodes ---------------------------------------------------------------------------------------------

SYSTEM = (
    "You are the coding agent of the Okamura Sensing firmware team. The code base: C on Zephyr RTOS for STM32L4, "
    "STM32WB and nRF52 sensor nodes (app/, lib/, drivers/, boards/), a newer Rust embassy code base under rust/, a Go "
    "telemetry-ingest service under ingest/, Unity unit tests run by ctest, and hardware-in-the-loop rigs in CI.\n"
    "Tools: shell, read_file, write_file, edit_file, west_build, cargo, ctest, flash, serial_console, gdb, hil_run, "
    "git, datasheet_search. Prefer running things over guessing; quote exact error lines when something fails; keep "
    "answers short. The user is the firmware lead, Jun Okamura-Berg.")
ACKS = {
    "instruction": ("Noted, I'll stick to that from now on.", "Got it.", "Understood — {v}, from here on.", "了解です。",
                    "알겠습니다, 앞으로 그렇게 할게요.", "Verstanden, mache ich so.", "OK, noted for everything that follows."),
    "fix": ("Thanks, switching to {v}.", "Updated: {v}.", "Got it, {v} it is; I'll use that from now on.", "OK, corrected.",
            "Noted the correction."),
    "stale": ("OK, {v}.", "Noted.", "Got it, {v}.", "OK."),
    "decision": ("Makes sense, I'll build around that.", "OK, going with that.", "Agreed; {v} it is.", "Fine by me.",
                 "了解、その方針で。"),
    "plan": ("Sounds good, I'll follow that order.", "OK — I'll start with the first step.", "Plan noted.",
             "Alright, step by step then."),
    "identifier": ("Noted: {v}.", "OK.", "Got it.", "Noted."),
}


def _fit(want: int, left: int, lo: int = 2) -> int:
    """An episode length near ``want`` (at least ``lo``) that leaves ``left`` splittable into more episodes."""
    ok = [x for x in range(lo, min(left, 16) + 1) if x != 3 and left - x not in (1, 3)]
    if left <= 16 and left != 3 and left >= lo:
        ok.append(left)
    return min(ok, key=lambda x: (abs(x - want), x))


def _body(chat: _Chat, lazies: list[Lazy], body: int, solo: int | None = None) -> list[list[int]]:
    """Exactly ``body`` messages of calls (0 or at least 2); an odd count groups the last two steps in one call
    message. ``solo`` is a step that must sit alone in its message. Returns each step's [assistant, tool] indexes."""
    if body <= 0:
        return []
    steps = body // 2 + (body % 2)
    todo = list(lazies[:steps])
    while len(todo) < steps:
        todo.append(_generic(chat.rng))
    made = [f(chat.budget()) for f in todo]
    out: list[list[int]] = []
    j = 0
    while j < len(made):
        pair = body % 2 == 1 and j == len(made) - 2 and solo not in (j, j + 1)
        group = made[j:j + 2] if pair else made[j:j + 1]
        text = _pick(chat.rng, ("", "", "Checking.", "Running it.", "One sec.", "Let me look.", "On it.")) or None
        at = chat.call(group, text)
        out += [[at[0], t] for t in at[1:]]
        j += len(group)
    return out


QUESTIONS = (
    ("does k_msleep({n}) round up to the next tick?", "Yes: with CONFIG_SYS_CLOCK_TICKS_PER_SEC at 32768 it converts to "
     "ticks rounding up, so {n} ms is never shorter than asked, only up to one tick longer."),
    ("is the TWIM on {part} able to do repeated start?", "Yes, via the SHORTS LASTTX_STARTRX path; Zephyr's "
     "i2c_write_read uses exactly that, so no STOP goes out between the register write and the read."),
    ("why would {mod} log twice on boot?", "Usually two LOG_MODULE_REGISTER lines for the same name or a deferred log "
     "flushed after a soft reset; the timestamps tell which."),
    ("what's the STOP2 wakeup latency on the L4 again, roughly?", "About 5 µs to HSI16 plus the regulator settling; "
     "with the flash in power-down add a few more µs."),
    ("embassy: can two tasks share one I2C bus without a mutex?", "Not safely; wrap it in an embassy-sync Mutex or use "
     "I2cDevice from embassy-embedded-hal, which does the locking per transaction."),
    ("go: does pgx release the conn if I forget rows.Close()?", "Only once the rows are fully read; on an early "
     "return the connection leaks back to the pool late, so defer rows.Close() anyway."),
    ("is {n} kHz I2C ok with 4.7k pull-ups and ~{c} pF?", "The rise time gets close to the fast-mode limit; "
     "2.2k pull-ups give margin at the cost of a bit of current while the bus is active."),
    ("ctest: how do I rerun only the failed ones?", "`ctest --rerun-failed --output-on-failure` from the build dir; it "
     "reads LastTestsFailed.log."),
    ("what does west build -p auto actually decide?", "It goes pristine when the source dir or board changed since "
     "the last configure, otherwise it builds incrementally."),
    ("quick sanity check: {mod} runs in which thread context?", "In the system work queue unless its Kconfig moves it "
     "to a dedicated queue; the callbacks themselves come from ISR context."),
    ("how long does the {part} take to come out of reset?", "Within a couple of milliseconds per the datasheet's "
     "power-up timing; the driver waits a bit longer to be safe."),
    ("do we need the LSE for the RTC on the tempo board?", "For the drift budget, yes; the LSI is off by a few percent "
     "over temperature, which breaks the sampling schedule within a day."),
)


def filler(chat: _Chat, length: int) -> None:
    if length == 2:
        rng = chat.rng
        q, a = _pick(rng, QUESTIONS)
        fill = {"{n}": str(rng.choice((1, 5, 10, 100, 250, 400))), "{part}": _pick(rng, PARTS),
                "{mod}": _pick(rng, LOG_MODULES), "{c}": str(rng.randint(80, 300))}
        for key, val in fill.items():
            q, a = q.replace(key, val), a.replace(key, val)
        chat.user(_pick(rng, OPENERS) + q)
        chat.say(a)
        return
    request, lazies, answer = _pick(chat.rng, TASKS)(chat.rng)
    chat.user(request)
    _body(chat, lazies, length - 2)
    chat.say(answer)


def paste(chat: _Chat, length: int, make: Callable[[random.Random, int], tuple[str, str, str]]) -> None:
    intro, text, ask = make(chat.rng, int(chat.budget() * chat.rng.uniform(0.6, 1.0)))
    at = chat.user(f"{intro}\n\n{text}\n\n{ask}")
    chat.pasted.append((at, text))
    _body(chat, [], length - 2)
    chat.say(_pick(chat.rng, ("Read through it. Nothing in there changes what we are doing; two items are worth a "
                              "follow-up ticket.", "Looked at it: the pattern is consistent, no single smoking gun yet.",
                              "Most of it is noise; the timing points are the relevant part.",
                              "Went through it line by line; I'd park it until the current fix is in.")))


def said(chat: _Chat, text: str, length: int, ack: str, mode: str) -> int:
    """A user message that says ``text`` (alone, before a task, or as a task's second paragraph); returns its index."""
    if mode == "alone" or length < 4:
        at = chat.user(text)
        _body(chat, [], length - 2)
        chat.say(ack)
        return at
    request, lazies, answer = _pick(chat.rng, TASKS)(chat.rng)
    if mode == "para2":
        at = chat.user(f"{request}\n\n{text}")
    else:
        at = chat.user(f"{text}. {_pick(chat.rng, ('Anyway:', 'Also,', 'Und:', 'それと', 'Now'))} {request}")
    _body(chat, lazies, length - 2)
    chat.say(f"{ack} {answer}")
    return at


def _ack(chat: _Chat, kind: str, value: str) -> str:
    return _pick(chat.rng, ACKS[kind]).replace("{v}", value)


def tool_fact(chat: _Chat, length: int, request: str, step: Lazy, answer: str) -> int:
    """A request whose fact step's tool output holds the value; returns the tool message index."""
    chat.user(request)
    body = length - 2
    pre = 1 if body >= 6 and chat.rng.random() < 0.5 else 0
    lazies = [_generic(chat.rng)] * pre + [step]
    at = _body(chat, lazies, body)
    chat.say(answer)
    return at[pre][1]


def error_request(rng: random.Random, fact: dict[str, Any]) -> str:
    args, how = fact["args"], fact["how"]
    if how == "build":
        return _ask(rng, f"build {args['app']} for {args['board']}", f"pristine build of {args['app']} on {args['board']}")
    if how in ("ctest", "unity"):
        return _ask(rng, "run the host unit tests", "ctest with output on failure", "Unity suite pls")
    if how == "cargo":
        return _ask(rng, f"cargo test -p {args['args'][2]}", f"run the {args['args'][2]} tests")
    if how == "go":
        return _ask(rng, "go test the decode package", "ingest decode tests, with -race")
    if how in ("openocd", "probe"):
        return _ask(rng, f"flash the {args['board']} on {args['rig']}", f"put the new image on {args['rig']}")
    return _ask(rng, f"run {args['suite']} on {args['rig']}", f"HIL {args['suite']} on {args['rig']} pls")


def file_fact(chat: _Chat, length: int, fact: dict[str, Any]) -> int:
    """The agent writes or edits the fact's file in a message of its own; returns that message's index."""
    rng, path = chat.rng, fact["value"]
    chat.user(_ask(rng, fact["ask"], fact["ask"] + ", small and reviewable", fact["ask"] + "; keep the diff tight"))
    body = length - 2 - (length % 2)  # even, so the write stays alone in its message
    if length % 2:
        chat.say(_pick(rng, ("Let me write it.", "Starting with the file itself.", "OK, writing it now.")))
    if fact["op"] == "write_file":
        content = source_text(rng, max(400, chat.budget() // 2), path) if fact["lang"] in ("c", "rs", "go") else "\n".join(
            _fill(lambda: f"# {_pick(rng, COMMIT_SUBJECTS)}" if fact["lang"] == "py" else
                  f"\t{_pick(rng, C_IDENTS)}-gpios = <&gpio0 {rng.randint(2, 31)} GPIO_ACTIVE_LOW>;", 600))
        step: Step = ("write_file", {"path": path, "content": content}, f"wrote {len(content)} bytes to {path}")
    else:
        lang = fact["lang"] if fact["lang"] in ("rs", "go") else "c"
        old, new = "", ""
        while len(old) < 4 or len(new) < 4 or old == new:
            old, new = code_line(rng, lang).strip(), code_line(rng, lang).strip()
        if fact["lang"] == "dts":
            old, new = 'status = "disabled";', f'status = "okay";\n\tclock-frequency = <{rng.choice((100000, 400000))}>;'
        elif fact["lang"] == "py":
            old, new = f"TIMEOUT_S = {rng.randint(10, 60)}", f"TIMEOUT_S = {rng.randint(61, 300)}"
        step = ("edit_file", {"path": path, "old": old, "new": new}, f"edited {path}: 1 replacement\n"
                + diff_output(rng, 600, path))
    lazies: list[Lazy] = [lambda size: step]
    if body >= 4:
        lazies.append(lambda size: ("west_build", {"board": "okm_tempo_nrf52840", "app": "app/sensor_node", "pristine": False},
                                    build_output(rng, size, "okm_tempo_nrf52840", "app/sensor_node")))
    at = _body(chat, lazies, max(2, body), solo=0)
    chat.say(_pick(rng, (f"Wrote {path}.", f"{path} is in place; builds clean.", f"Change is in {path}.",
                         f"Done — see {path}.")))
    return at[0][0]


REVISABLE = (0, 1, 2, 3, 5, 6, 10)  # decision templates that come with a revision


def _slots(rng: random.Random, count: int) -> list[float]:
    """``count`` targets spread evenly (with jitter) over the fact band."""
    return [LOW + (HIGH - LOW) * (j + rng.uniform(0.15, 0.85)) / count for j in range(count)]


def _plan_events(rng: random.Random, n: int) -> list[tuple[float, int, str, dict[str, Any]]]:
    """Every planting as (where, order, what, payload), sorted by where."""
    k = per_kind(n)
    slots = _slots(rng, 8 * k)
    revised_count = max(1, k // 3) if k >= 2 else 0
    draws: dict[str, list[dict[str, Any]]] = {}
    for kind, drawer, pool in (("instruction", _instruction, 15), ("correction", _correction, 13),
                               ("decision", _decision, 14), ("error", _error, 14), ("identifier", _identifier, 12),
                               ("finding", _finding, 12), ("plan", _plan, 12)):
        picks = rng.sample(range(pool), min(k, pool))
        if kind == "decision":  # the revisable ones first, enough of them
            can = [i for i in range(pool) if i % 14 in REVISABLE]
            first = rng.sample(can, revised_count)
            picks = first + [i for i in picks if i not in first][:k - revised_count]
        while len(picks) < k:
            picks.append(picks[len(picks) % pool] + pool)
        draws[kind] = [drawer(rng, i) for i in picks]
    # revise only decisions that have a revision, and put those with one first
    draws["decision"].sort(key=lambda d: d["revised"] is None)
    if sum(d["revised"] is not None for d in draws["decision"]) < revised_count:
        raise ValueError("not enough revisable decisions")
    nouns = rng.sample(FILE_NOUNS, k) if k <= len(FILE_NOUNS) else [f"{w}_{j}" for j, w in enumerate(FILE_NOUNS * 2)][:k]
    draws["file"] = [_file(rng, j, noun) for j, noun in enumerate(nouns)]
    if k >= 1:
        draws["instruction"][0] = {**_standard_rule(rng), "standard": True}
    two = [("correction", j) for j in range(k)] + [("decision", j) for j in range(revised_count)]
    late = [s for s in slots if s >= 0.2]
    rng.shuffle(late)
    chosen = late[:len(two)]
    rest = [s for s in slots if s not in chosen]
    rng.shuffle(rest)
    events: list[tuple[float, int, str, dict[str, Any]]] = []
    order = 0
    for (kind, j), t2 in zip(two, chosen):
        d = draws[kind][j]
        t1 = rng.uniform(0.055, t2 - 0.13)
        events += [(t1, order, "stale" if kind == "correction" else "decide", d), (t2, order + 1, "fix" if kind ==
                                                                                     "correction" else "revise", d)]
        order += 2
    singles = [(kind, d) for kind in KINDS for j, d in enumerate(draws[kind])
               if not (kind == "correction" or (kind == "decision" and j < revised_count))]
    for (kind, d), t in zip(singles, rest):
        events.append((t, order, kind, d))
        order += 1
        if kind == "error" and draws["error"].index(d) % 2 == 0:  # every other error is fixed later
            events.append((min(0.95, t + rng.uniform(0.04, 0.14)), order, "resolve", d))
            order += 1
    makers = list(PASTES)
    rng.shuffle(makers)
    for j in range(max(3, n // 90, min(len(PASTES), n // 55))):
        events.append((rng.uniform(0.02, 0.92), order, "paste", {"make": makers[j % len(makers)]}))
        order += 1
    events.sort(key=lambda e: (e[0], e[1]))
    return events


IDENT_ASKS = {"rev-parse": "what's HEAD right now? need it for the release notes", "hil_run": "run the rig self-test on rig 2",
              "flash": "flash the nucleo on rig 4, the old J-Link one", "serial_console": "read the device id off ACM1",
              "log": "what's the tip of release/2.5?", "describe": "git describe for the current build?"}
FINDING_ASKS = {"stacks": "stack usage on the DUT, all threads", "gdb": "attach to the crashed unit and get a backtrace",
                "datasheet": "look up that register's reset value", "hil": "HIL run pls, I need the numbers",
                "build": "build airq and show me the memory report", "bisect": "run the bisect with the sleep check script",
                "serial": "grab the console output after a cold boot", "go": "benchmark the frame decoder"}
CLOSERS = ("ok. next: the {x} stuff, but first tell me what's still open", "gut. was ist noch offen bei {x}?",
           "thx. {x} 의 상태 요약해줘", "次は {x} の件。まず現状をまとめて", "alright — where are we with {x}?")


def _run(chat: _Chat, what: str, d: dict[str, Any], length: int, seen: dict[int, int], facts: list[Fact],
         errors: dict[int, list[Any]], nth: int) -> None:
    rng = chat.rng
    mode = ("alone", "para2", "prefix")[nth % 3]
    if what == "paste":
        paste(chat, length, d["make"])
    elif what == "instruction" and d.get("standard"):
        doc = _standard(rng, d["rule"])
        at = chat.user(f"{_pick(rng, ('Aiko finished the team standard, here it is.', 'Coding standard from the guild wiki:'))}\n\n"
                       f"{doc}\n\n{_pick(rng, ('From now on we follow this, all of it.', 'Treat these as my rules from here on.'))}")
        _body(chat, [], length - 2)
        chat.say("Understood; I'll apply the standard to everything I touch from now on.")
        facts.append(Fact("instruction", d["value"], at, d["query"]))
    elif what in ("instruction", "plan", "decision", "decide", "stale", "fix", "revise") or (
            what == "identifier" and d["carrier"] == "user"):
        text = {"stale": "said", "fix": "fixed", "decide": "said", "decision": "said", "revise": "revise"}.get(what, "text")
        value = d["stale"] if what == "stale" else d["revised"] if what == "revise" else d["value"]
        ack = _ack(chat, {"decide": "decision", "revise": "decision"}.get(what, what), value)
        at = said(chat, d[text].rstrip("."), length, ack, "alone" if what == "plan" and nth % 2 else mode)
        if what in ("stale", "decide"):
            seen[id(d)] = at
        elif what == "fix":
            facts.append(Fact("correction", d["value"], at, d["query"], stale=d["stale"], stale_index=seen[id(d)]))
        elif what == "revise":
            facts.append(Fact("decision", d["revised"], at, d["query"], stale=d["value"], stale_index=seen[id(d)]))
        else:
            facts.append(Fact(what, d["value"], at, d["query"]))
    elif what == "identifier":
        key = d["args"].get("args", [d["tool"]])[0] if d["tool"] == "git" else d["tool"]
        key = {"--oneline": "log"}.get(d["args"].get("args", ["", ""])[1] if key == "log" else key, key)
        at = tool_fact(chat, length, _ask(rng, IDENT_ASKS[key]), lambda size: (d["tool"], d["args"], identifier_output(rng, d, size)),
                       _pick(rng, (f"That's {d['value']}.", "There it is, in the output above.", f"Noted: {d['value']}.")))
        facts.append(Fact("identifier", d["value"], at, d["query"]))
    elif what == "finding":
        at = tool_fact(chat, length, _ask(rng, FINDING_ASKS[d["how"]]),
                       lambda size: (d["tool"], d["args"], finding_output(rng, d, size)),
                       _pick(rng, (f"The line that matters: `{d['value']}`.", "Found it; see the highlighted line in the output.",
                                   "That answers it; I'll keep the number in mind for later.")))
        facts.append(Fact("finding", d["value"], at, d["query"]))
    elif what == "error":
        at = tool_fact(chat, length, error_request(rng, d), lambda size: (d["tool"], d["args"], error_output(rng, d, size, True)),
                       _pick(rng, (f"It fails: `{d['value']}`. Looking into it next.", "Red. The failing line is in the output above.",
                                   f"Failure: {d['value']}")))
        errors[id(d)] = [d, at, None]
    elif what == "resolve":
        fixed = _pick(rng, ("fixed it, ", "pushed a fix. ", "should be fixed now: ", "behoben, nochmal: ", "直したはず。",
                            "Minji's patch is in, "))
        at = tool_fact(chat, length, fixed + error_request(rng, d),
                       lambda size: (d["tool"], d["args"], error_output(rng, d, size, False)),
                       _pick(rng, ("Passes now.", "Green this time.", "That one is fixed.")))
        errors[id(d)][2] = at
    elif what == "file":
        at = file_fact(chat, length, d)
        facts.append(Fact("file", d["value"], at, d["query"]))
    else:  # pragma: no cover
        raise ValueError(what)


MIN_LENGTH = {"error": 4, "finding": 4, "resolve": 4, "file": 4}


def _build(rng: random.Random, n: int) -> Session:
    chat = _Chat(rng, n)
    chat._add({"role": "system", "content": SYSTEM})
    events = _plan_events(rng, n)
    seen: dict[int, int] = {}
    errors: dict[int, list[Any]] = {}
    facts: list[Fact] = []
    counts: dict[str, int] = {}

    def left() -> int:
        return n - 1 - len(chat.messages)

    for e, (where, _order, what, d) in enumerate(events):
        if what == "paste" and left() < 20:
            continue
        target = int(where * n)
        while target - len(chat.messages) >= 2 and left() > 16:
            filler(chat, _fit(min(target - len(chat.messages), rng.randint(4, 12)), left()))
        nxt = int(events[e + 1][0] * n) if e + 1 < len(events) else n
        lo = MIN_LENGTH.get(what, 4 if what == "identifier" and d["carrier"] == "tool" else 2)
        want = max(lo, min(8, nxt - len(chat.messages), rng.randint(lo, 8)))
        counts[what] = counts.get(what, 0) + 1
        _run(chat, what, d, _fit(want, left(), lo), seen, facts, errors, counts[what])
    while left() > 0:
        filler(chat, _fit(rng.randint(4, 12), left()))
    chat.user(_pick(rng, CLOSERS).replace("{x}", _pick(rng, ("brown-out", "DFU", "ingest", "I2C", "airq release"))))
    for d, at, resolved in errors.values():
        facts.append(Fact("error", d["value"], at, d["query"], resolved=resolved))
    return Session(messages=chat.messages, facts=facts, pasted=chat.pasted)


def _holders(joined: str, starts: list[int], needle: str) -> list[int]:
    """The messages whose text holds ``needle``."""
    out, at = [], joined.find(needle)
    while at >= 0:
        out.append(bisect_right(starts, at) - 1)
        at = joined.find(needle, at + 1)
    return sorted(set(out))


def _sound(session: Session, n: int) -> bool:
    """Every promise of the generator holds (values new, out of filler, placed in the band and spread)."""
    texts = [text_of(m) for m in session.messages]
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1
    joined = "\x00".join(texts)
    if len(session.messages) != n or len({f.value for f in session.facts}) != len(session.facts):
        return False
    for f in session.facts:
        if not 0.03 * n <= f.index <= 0.88 * n or f.value in f.query:
            return False
        held = _holders(joined, starts, f.value)
        if not held or held[0] != f.index or held[-1] > f.index + 8:
            return False
        if f.stale is not None and f.stale_index is not None:
            old = _holders(joined, starts, f.stale)
            if f.stale_index < 0.03 * n or not old or old[0] != f.stale_index or f.stale in f.value or f.value in f.stale:
                return False
            if any(not (f.stale_index <= i <= f.stale_index + 12 or f.index <= i <= f.index + 8) for i in old):
                return False
    thirds = [0, 0, 0]
    for f in session.facts:
        thirds[min(2, f.index * 3 // n)] += 1
    return min(thirds) >= len(session.facts) // 6


def make_session(seed: int, messages: int) -> Session:
    """A firmware-team session of exactly ``messages`` messages with planted facts; same seed, same bytes."""
    if messages < 100:
        raise ValueError("a session needs at least 100 messages")
    for attempt in range(8):
        rng = random.Random(seed if attempt == 0 else f"{seed}/{attempt}")
        session = _build(rng, messages)
        if _sound(session, messages):
            session.seed = seed
            return session
    raise RuntimeError(f"no sound session for seed {seed} at {messages} messages")

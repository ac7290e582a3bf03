"""Sessions of a robotics engineer in Osaka and a coding agent on a ROS 2 (Humble) mobile-robot stack (fidelity bench).

    from gen_amr import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

The user works at a warehouse-automation startup: terse English that slips into Japanese (sometimes whole
sentences), typos, and pasted texts that carry other people's rules (a German motor supplier's email, the
customer's site-acceptance checklist, the safety officer's memo, a teammate's Slack thread, a message from the
manager, a GitHub issue of the lidar driver). The agent runs long tool loops: colcon builds and tests (g++ and ld
errors, gtest and pytest runs), ``ros2 launch`` logs, topic, param, tf and doctor output, candump, dmesg, rosbag
tables, Valgrind and ASan reports, Gazebo logs, and reads package.xml, CMakeLists.txt, Nav2 YAML, launch files,
xacro and C++.

Facts (:class:`sessiongen.Fact`) are planted ``per_kind(messages)`` times per kind over the three thirds of the
session. The noise keeps out of their way by construction: a number a fact reads off an output comes in a format the
noise never prints with the same last digit parity (noise rates, loads and delays end in an even digit), a fact's
error line names a line number or offset of odd parity, and the names a fact uses (robot ids, bag names, ports,
tickets) come from pools the filler never draws from.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("bash", "read_file", "write_file", "edit_file", "grep", "colcon", "ros2_cli", "ros2_launch", "rosbag", "sim")
SMALLEST = 60  # below this a session cannot hold one fact of each kind with room around it
AFTER = 8  # messages after a fact's own that may repeat its value
STALE_AFTER = 12  # messages after a stale value's own that may repeat it
PER_MESSAGE = 1560  # characters a message carries on average (tool outputs most of it)

WS = "/ws"
PACKAGES = ("amr_msgs", "amr_description", "lumos_lidar_ros2", "amr_can_bridge", "amr_base", "amr_safety",
            "amr_localization_tools", "amr_navigation", "amr_sim", "amr_teleop", "amr_bringup")
CPP_PACKAGES = ("lumos_lidar_ros2", "amr_can_bridge", "amr_base", "amr_safety", "amr_localization_tools",
                "amr_navigation")
PY_PACKAGES = ("amr_bringup", "amr_sim", "amr_teleop")
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
HEX = "0123456789abcdef"

SYSTEM = """You are a coding agent working in a ROS 2 Humble colcon workspace mounted at /ws inside the team's \
`amr-dev` Docker image (Ubuntu 22.04, GCC 11.4, Python 3.10). The robot is a differential-drive autonomous mobile \
robot: a Lumos S2 2D lidar on a serial link, two Kessler KDM-48 motor controllers on CAN (SocketCAN, can0, CANopen), \
Nav2 for localization and navigation, Gazebo Classic 11 for simulation.

Tools:
- bash(command, timeout?): run a shell command in the container (the robot is reachable over ssh as `robot`).
- read_file(path, start_line?, end_line?): read a file.
- write_file(path, content): create or overwrite a file.
- edit_file(path, old, new): replace an exact snippet in a file.
- grep(pattern, path, flags?): search the workspace.
- colcon(args): run colcon in /ws (build, test, test-result).
- ros2_cli(args): run a `ros2` command (topic, node, param, service, doctor, run, lifecycle, interface).
- ros2_launch(package, launch_file, args?, duration_s?): start a launch file and return its log.
- rosbag(args): run `ros2 bag` (info, play, record).
- sim(world, args?, duration_s?): start Gazebo headless with a world and return its log.

Work in small verified steps. Report what you ran and what you saw; quote exact errors when they matter. Never move \
the real robot unless the user says so."""


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between, 12 beyond."""
    if messages <= 60:
        return 1
    if messages <= 400:
        return int(1 + 5 * (messages - 60) / 340 + 0.5)
    if messages <= 3000:
        return int(6 + 6 * (messages - 400) / 2600 + 0.5)
    return 12


class _S:
    """The session being written: messages, facts, the clock and the random stream."""

    def __init__(self, seed: int, n: int) -> None:
        self.r = random.Random(f"gen_amr:{seed}")
        self.n = n
        self.msgs: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.chars = 0
        self.t = 1733100000.0 + self.r.randint(0, 2_000_000)
        self.pid = 3100 + self.r.randint(0, 700)
        self.used: list[str] = []  # fact values and stale values drawn so far (none inside another)
        self.uses: dict[str, int] = {}
        self.orders: dict[str, list[int]] = {}
        self.covered: set[str] = set()
        self.surname = ""

    # --- random helpers -------------------------------------------------------------------------------------
    def pick(self, seq: Any) -> Any:
        return seq[self.r.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def fresh(self, key: str, seq: Any) -> Any:
        """An element of ``seq`` not handed out under ``key`` yet (reshuffled once all are used)."""
        seen = self.uses.get(key, 0)
        if seen % len(seq) == 0:
            order = list(range(len(seq)))
            self.r.shuffle(order)
            self.orders[key] = order
        self.uses[key] = seen + 1
        return seq[self.orders[key][seen % len(seq)]]

    def hexs(self, k: int) -> str:
        return "".join(self.r.choice(HEX) for _ in range(k))

    def odd(self, lo: int, hi: int) -> int:
        return self.r.randrange(lo | 1, hi, 2)

    def even(self, lo: int, hi: int) -> int:
        return self.r.randrange(lo + (lo & 1), hi, 2)

    def even_digits(self, lo: float, hi: float, places: int) -> str:
        """A decimal in [lo, hi) printed with ``places`` decimals whose last digit is even (noise)."""
        scale = 10 ** places
        v = self.r.randrange(int(lo * scale), int(hi * scale))
        v -= v & 1
        return f"{v / scale:.{places}f}"

    def odd_digits(self, lo: float, hi: float, places: int) -> str:
        """The same with an odd last digit (facts)."""
        scale = 10 ** places
        v = self.r.randrange(int(lo * scale), int(hi * scale)) | 1
        return f"{v / scale:.{places}f}"

    def reserve(self, value: str) -> bool:
        """Take ``value`` for a fact if no value drawn so far contains it or is contained in it."""
        if any(value in u or u in value for u in self.used):
            return False
        self.used.append(value)
        return True

    def draw(self, make: Callable[[], Any], key: Callable[[Any], list[str]]) -> Any:
        """Draw with ``make`` until every string ``key`` gives can be reserved."""
        for _ in range(200):
            got = make()
            values = key(got)
            if all(not any(v in u or u in v for u in self.used) for v in values) and len(set(values)) == len(values):
                for v in values:
                    self.used.append(v)
                return got
        raise RuntimeError("could not draw a fresh value")

    # --- clock ----------------------------------------------------------------------------------------------
    def tick(self, lo: float = 0.0005, hi: float = 0.4) -> float:
        self.t += self.r.uniform(lo, hi)
        return self.t

    def stamp(self, lo: float = 0.0005, hi: float = 0.4) -> str:
        t = self.tick(lo, hi)
        return f"{int(t)}.{int((t % 1) * 10 ** 6):06d}{self.r.randrange(1000):03d}"

    def date(self, fmt: str = "%Y-%m-%d-%H-%M-%S") -> str:
        return time.strftime(fmt, time.gmtime(self.t + 9 * 3600))

    def new_pid(self) -> int:
        self.pid += self.r.randint(3, 61)
        return self.pid

    # --- messages -------------------------------------------------------------------------------------------
    def add(self, m: Message) -> int:
        self.msgs.append(m)
        self.chars += len(text_of(m))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self.add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self.add({"role": "assistant", "content": text})

    def call_id(self) -> str:
        return "call_" + "".join(self.r.choice(ALNUM) for _ in range(24))

    def calls(self, items: list[tuple[str, dict[str, Any], str, bool]], pre: str = "") -> list[int]:
        """One assistant message calling every (tool, args, output, failed) at once, answered in order."""
        ids = [self.call_id() for _ in items]
        tool_calls = [{"id": cid, "type": "function",
                       "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                      for cid, (name, args, _o, _f) in zip(ids, items)]
        self.add({"role": "assistant", "content": pre, "tool_calls": tool_calls})
        out = []
        for cid, (name, _a, output, failed) in zip(ids, items):
            m: Message = {"role": "tool", "tool_call_id": cid, "name": name, "content": output}
            if failed:
                m["is_error"] = True
            out.append(self.add(m))
            self.covered.add(name)
        return out

    def step(self, name: str, args: dict[str, Any], output: str, pre: str = "", failed: bool = False) -> int:
        """One call and its result; returns the result's index."""
        return self.calls([(name, args, output, failed)], pre)[0]

    def want(self, scale: float = 1.0) -> int:
        """How long the next tool output should be, steering the session toward PER_MESSAGE on average."""
        deficit = PER_MESSAGE * (len(self.msgs) + 2) - self.chars
        base = self.r.uniform(0.35, 1.65) * 3300 * scale
        return int(min(max(base + 0.55 * deficit, 350), 15000))


# --- the stack: processes, their log lines -----------------------------------------------------------------------
def _fill(lines: list[str], want: int, make: Callable[[], list[str]], size: int | None = None) -> int:
    """Append what ``make`` returns until the lines hold ``want`` characters; returns the size."""
    total = sum(len(x) + 1 for x in lines) if size is None else size
    guard = 0
    while total < want and guard < 4000:
        for x in make():
            lines.append(x)
            total += len(x) + 1
        guard += 1
    return total


def _xy(s: _S) -> str:
    return f"{s.r.uniform(-4, 38):.2f}, {s.r.uniform(-3, 22):.2f}"


CONTROLLERS = ("dwb_core::DWBLocalPlanner", "nav2_regulated_pure_pursuit_controller::RegulatedPurePursuitController",
               "nav2_mppi_controller::MPPIController")
PLANNERS = ("nav2_navfn_planner/NavfnPlanner", "nav2_smac_planner/SmacPlannerHybrid", "nav2_smac_planner/SmacPlanner2D")
NAV_NODES = ("controller_server", "smoother_server", "planner_server", "behavior_server", "bt_navigator",
             "waypoint_follower", "velocity_smoother")


def _node_line(s: _S, node: str) -> tuple[str, str]:
    """(level, text) one line a node of the stack logs."""
    r = s.r
    if node == "amcl":
        return r.choice((
            ("INFO", f"Received a {r.randint(800, 1400)} X {r.randint(600, 1100)} map @ 0.050 m/pix"),
            ("INFO",
             f"Setting pose ({s.stamp()}): {r.uniform(0, 30):.3f} {r.uniform(0, 20):.3f} {r.uniform(-3, 3):.3f}"),
            ("INFO", "initialPoseReceived"), ("INFO", "createLaserObject"),
            ("WARN", "Message Filter dropping message: frame 'laser_link' at time "
                     f"{s.stamp()[:-6]} for reason 'the timestamp on the message is earlier than all the data in "
                     "the transform cache'"),
            ("WARN", "AMCL cannot publish a pose or update the transform. Please set the initial pose..."),
            ("INFO", "Creating bond (amcl) to lifecycle manager."),
            ("DEBUG" if r.random() < 0.1 else "INFO", f"Resampled particle set: {r.randint(500, 2000)} samples"),
        ))
    if node == "controller_server":
        return r.choice((
            ("INFO", "Received a goal, begin computing control effort."),
            ("INFO", "Passing new path to controller."),
            ("INFO", "Reached the goal!"),
            ("WARN", "Control loop missed its desired rate of 20.0000Hz"),
            ("INFO", f"Created controller : FollowPath of type {r.choice(CONTROLLERS)}"),
            ("INFO", "Setting transform_tolerance to 0.100000"),
            ("ERROR", "Failed to make progress"),
            ("INFO", "Optimizer reset"),
            ("WARN", "Unable to find a valid control in the allotted time; using last command"),
        ))
    if node == "planner_server":
        return r.choice((
            ("INFO", f"Created global planner plugin GridBased of type {r.choice(PLANNERS)}"),
            ("INFO", "Configuring plugin GridBased of type NavfnPlanner"),
            ("WARN", f"GridBased: failed to create plan, no valid path found to ({_xy(s)})"),
            ("INFO", f"Planner loop took {r.randint(4, 190)} ms"),
            ("WARN", "Planner loop missed its desired rate of 20.0000 Hz"),
        ))
    if node == "bt_navigator":
        return r.choice((
            ("INFO", f"Begin navigating from current location ({_xy(s)}) to ({_xy(s)})"),
            ("INFO", "Goal succeeded"), ("WARN", "Goal failed"),
            ("INFO", "Received goal preemption request"),
            ("WARN", "[navigate_to_pose] [ActionServer] Aborting handle."),
        ))
    if node.startswith("lifecycle_manager"):
        target = r.choice(NAV_NODES + ("amcl", "map_server"))
        return r.choice((
            ("INFO", "Starting managed nodes bringup..."), ("INFO", f"Configuring {target}"),
            ("INFO", f"Activating {target}"), ("INFO", "Managed nodes are active"),
            ("INFO", f"Server {target} connected with bond."),
            ("INFO", "Creating bond timer..."),
        ))
    if node == "map_server":
        return r.choice((
            ("INFO", f"Loading yaml file: {WS}/install/amr_navigation/share/amr_navigation/maps/warehouse_b.yaml"),
            ("INFO", f"Read map {WS}/install/amr_navigation/share/amr_navigation/maps/warehouse_b.pgm: "
                     f"{r.randint(800, 1400)} X {r.randint(600, 1100)} map @ 0.05 m/cell"),
            ("INFO", "Creating bond (map_server) to lifecycle manager."),
        ))
    if node == "lumos_lidar":
        return r.choice((
            ("INFO", "Connecting to /dev/lumos_lidar at 460800 baud"),
            ("INFO", f"Motor spinning up, target {r.choice((10, 12, 15))} Hz"),
            ("INFO", "Health status: OK"), ("INFO", "Scan frame_id: laser_link, angle_min -3.1416, angle_max 3.1416"),
            ("WARN", f"checksum mismatch in packet {r.randint(1000, 99999)}, dropping"),
            ("WARN", f"scan took {r.randint(70, 140)} ms (expected 66 ms)"),
            ("INFO", f"Publishing {r.choice((1440, 1800, 2160))} points per revolution"),
        ))
    if node == "can_bridge":
        nid = r.choice((0x21, 0x22))
        return r.choice((
            ("INFO", "Opened can0 (SocketCAN), bitrate from interface"),
            ("INFO", f"NMT start sent to node {nid:#04x}"),
            ("INFO", f"Heartbeat from node {nid:#04x}: OPERATIONAL"),
            ("WARN", f"heartbeat timeout on node {nid:#04x} ({r.randint(110, 480)} ms since last)"),
            ("INFO", f"SDO write {r.choice(('0x6083:00', '0x6084:00', '0x60ff:00', '0x6040:00'))} ok"),
            ("WARN", f"TX queue full, dropped {r.randint(1, 40)} frames"),
            ("INFO", "CiA 402 state: Operation enabled"),
        ))
    if node == "amr_base":
        return r.choice((
            ("INFO", "odom publishing at 50 Hz on /odom"),
            ("INFO", "Publishing odom -> base_footprint transform"),
            ("WARN", f"encoder jump on left wheel: {r.randint(400, 9000)} ticks in one cycle, ignoring"),
            ("INFO", f"cmd_vel timeout ({r.choice((250, 500))} ms), stopping motors"),
            ("WARN", "stale wheel feedback, odom not updated this cycle"),
        ))
    if node == "robot_state_publisher":
        return ("INFO",
                "got segment " + r.choice(("base_link", "base_footprint", "laser_link", "left_wheel_link",
                                           "right_wheel_link", "caster_link", "imu_link")))
    if node == "estop_monitor":
        return r.choice((("INFO", "E-stop chain closed"), ("INFO", "protective field clear"),
                         ("WARN", "warning field violated, limiting speed")))
    if node == "velocity_smoother":
        return r.choice((("INFO", "Configuring velocity smoother"),
                         ("WARN", "Velocity message stamp is too old, ignoring")))
    if node == "behavior_server":
        return r.choice((("INFO", "Configuring spin"), ("INFO", "Configuring backup"), ("INFO", "Running spin"),
                         ("WARN", "Collision Ahead - Exiting Spin")))
    return r.choice((("INFO", "Creating bond to lifecycle manager."), ("INFO", "Activating"),
                     ("INFO", "Configuring")))


BRINGUP = (("robot_state_publisher", "robot_state_publisher"), ("lumos_driver", "lumos_lidar"),
           ("can_bridge_node", "can_bridge"), ("base_node", "amr_base"), ("estop_monitor", "estop_monitor"))
LOCALIZATION = (("map_server", "map_server"), ("amcl", "amcl"),
                ("lifecycle_manager", "lifecycle_manager_localization"))
NAVIGATION = tuple((n, n) for n in NAV_NODES) + (("lifecycle_manager", "lifecycle_manager_navigation"),)
LAUNCHES = {
    ("amr_bringup", "bringup.launch.py"): BRINGUP + LOCALIZATION + NAVIGATION,
    ("amr_bringup", "robot.launch.py"): BRINGUP,
    ("amr_navigation", "navigation.launch.py"): NAVIGATION,
    ("amr_navigation", "localization.launch.py"): LOCALIZATION,
    ("amr_bringup", "lidar.launch.py"): BRINGUP[:2],
    ("amr_sim", "sim_nav.launch.py"): (("robot_state_publisher", "robot_state_publisher"),) + LOCALIZATION + NAVIGATION,
}


def _launch(s: _S, key: tuple[str, str], want: int, extra: list[tuple[str, str, str]] | None = None,
            at: float = 0.5, crash: tuple[str, str] | None = None, stop: bool = False) -> tuple[str, dict[str, str]]:
    """A ``ros2 launch`` log: started processes, their lines, ``extra`` (label, level, text) lines at fraction
    ``at``, and a process (``crash`` = (exe, node)) about to die. With ``crash`` or ``stop`` the log ends there, for
    the caller to finish. Returns the log and each exe's label."""
    procs = list(LAUNCHES[key]) + ([crash] if crash else [])
    labels: dict[str, str] = {}
    lines = [f"[INFO] [launch]: All log files can be found below /root/.ros/log/{s.date()}-"
             f"{s.r.randrange(10 ** 6):06d}-amr-dev-{s.new_pid()}",
             "[INFO] [launch]: Default logging verbosity is set to INFO"]
    for i, (exe, node) in enumerate(procs, 1):
        labels[exe if exe != "lifecycle_manager" else node] = f"{exe}-{i}"
        lines.append(f"[INFO] [{exe}-{i}]: process started with pid [{s.new_pid()}]")
    names = list(labels.items())
    nodes = {lab: node for (exe, node), lab in zip(procs, labels.values())}

    def make() -> list[str]:
        lab = s.pick(names)[1]
        level, text = _node_line(s, nodes[lab])
        return [f"[{lab}] [{level}] [{s.stamp()}] [{nodes[lab]}]: {text}"]

    _fill(lines, int(want * at), make)
    for lab_key, level, text in extra or []:
        lab = labels.get(lab_key, lab_key)
        node = nodes.get(lab, lab_key)
        lines.append(f"[{lab}] [{level}] [{s.stamp()}] [{node}]: {text}")
    if crash:
        lab = labels[crash[0]]
        lines.append(f"[{lab}] [INFO] [{s.stamp()}] [{crash[1]}]: spinning")
    if crash or stop:
        return "\n".join(lines), labels
    _fill(lines, want - 120, make)
    if s.chance(0.5):
        lines.append("[WARN] [launch]: user interrupted with ctrl-c (SIGINT)")
        for lab in list(labels.values())[:: s.r.choice((1, 2))]:
            lines.append(f"[INFO] [{lab}]: process has finished cleanly [pid {s.new_pid()}]")
    else:
        lines.append(f"[INFO] [launch]: duration_s reached ({s.r.choice((30, 60, 90, 120, 180))} s), shutting down")
    return "\n".join(lines), labels


# --- colcon ------------------------------------------------------------------------------------------------------
SOURCES = {
    "lumos_lidar_ros2": ("src/lumos_driver.cpp", "src/packet_parser.cpp", "include/lumos_lidar_ros2/packet.hpp"),
    "amr_can_bridge": ("src/can_bridge_node.cpp", "src/canopen_sdo.cpp", "include/amr_can_bridge/motor_frame.hpp"),
    "amr_base": ("src/base_node.cpp", "src/diff_drive_odometry.cpp", "include/amr_base/diff_drive_odometry.hpp"),
    "amr_safety": ("src/estop_monitor.cpp", "src/speed_limiter.cpp", "include/amr_safety/speed_limiter.hpp"),
    "amr_localization_tools": ("src/pose_error_node.cpp", "src/scan_stats.cpp"),
    "amr_navigation": ("src/bt_plugins/is_battery_low.cpp", "src/bt_plugins/wait_for_dock.cpp"),
}
FUNCS = {
    "lumos_lidar_ros2": ("void lumos::LumosDriver::publishScan(const lumos::Packet&)",
                         "bool lumos::PacketParser::feed(const uint8_t*, std::size_t)"),
    "amr_can_bridge": ("void amr_can_bridge::CanBridgeNode::onFrame(const can_frame&)",
                       "bool amr_can_bridge::SdoClient::write(uint16_t, uint8_t, uint32_t)"),
    "amr_base": ("void amr_base::DiffDriveOdometry::update(double, double, const rclcpp::Time&)",
                 "void amr_base::BaseNode::onCmdVel(geometry_msgs::msg::Twist::ConstSharedPtr)"),
    "amr_safety": ("void amr_safety::EstopMonitor::onTimer()", "double amr_safety::SpeedLimiter::limit(double) const"),
    "amr_localization_tools": ("void amr_localization_tools::PoseErrorNode::onPose(const PoseMsg&)",
                               "void amr_localization_tools::ScanStats::onScan(const LaserScan&)"),
    "amr_navigation": ("BT::NodeStatus amr_navigation::IsBatteryLow::tick()",
                       "BT::NodeStatus amr_navigation::WaitForDock::onRunning()"),
}
WARNINGS = (
    ("unused parameter 'request_header'", "-Wunused-parameter",
     "    const std::shared_ptr<rmw_request_id_t> request_header,"),
    ("comparison of integer expressions of different signedness: 'int' and 'std::vector<float>::size_type' "
     "{aka 'long unsigned int'}", "-Wsign-compare", "  for (int i = 0; i < scan.ranges.size(); ++i) {"),
    ("unused variable 'dt_ns'", "-Wunused-variable", "  const int64_t dt_ns = (stamp - last_stamp_).nanoseconds();"),
    ("narrowing conversion of 'rpm' from 'double' to 'int16_t' {aka 'short int'}", "-Wnarrowing",
     "  std::array<int16_t, 2> cmd{rpm, -rpm};"),
    ("'msg' may be used uninitialized in this function", "-Wmaybe-uninitialized", "  publisher_->publish(msg);"),
    ("'rclcpp::Duration::Duration(int32_t, uint32_t)' is deprecated", "-Wdeprecated-declarations",
     "  rclcpp::Duration timeout(0, 250000000);"),
    ("unused variable 'ok'", "-Wunused-variable", "  bool ok = sdo_.write(0x6083, 0, accel);"),
    ("enumeration value 'kPreOperational' not handled in switch", "-Wswitch", "  switch (state) {"),
)


def _dur(secs: float) -> str:
    if secs < 60:
        return f"{secs:.1f}s"
    return f"{int(secs // 60)}min {int(secs % 60)}s"


def _warning(s: _S, pkg: str) -> list[str]:
    path = f"{WS}/src/{pkg}/{s.pick(SOURCES.get(pkg, ('src/main.cpp',)))}"
    msg, flag, code = s.pick(WARNINGS)
    line, col = s.even(20, 400), s.r.randint(3, 40)
    return [f"{path}: In member function '{s.pick(FUNCS.get(pkg, ('void main()',)))}':",
            f"{path}:{line}:{col}: warning: {msg} [{flag}]",
            f"{line:5d} | {code}", f"      | {' ' * (col - 1)}^{'~' * s.r.randint(0, 8)}"]


def _colcon_build(s: _S, want: int, pkgs: tuple[str, ...] = PACKAGES, fail: tuple[str, list[str]] | None = None,
                  aborted: bool = True) -> str:
    """``colcon build`` output; ``fail`` = (package, its stderr lines) makes that package fail."""
    r = s.r
    lines: list[str] = []
    total = 0.0
    per_pkg = max(200, want // max(1, len(pkgs)))
    failed = fail[0] if fail else None
    done, aborts = [], []
    for i, pkg in enumerate(pkgs):
        if failed and pkg not in done and i > 0 and pkgs[i - 1] == failed and aborted:
            aborts.append(pkg)
            lines.append(f"Aborted  <<< {pkg} [{_dur(r.uniform(0.4, 9))}]")
            continue
        lines.append(f"Starting >>> {pkg}")
        secs = r.uniform(0.6, 70) if pkg in CPP_PACKAGES else r.uniform(0.5, 3)
        total += secs
        if pkg == failed and fail:
            lines.append(f"--- stderr: {pkg}")
            lines.extend(fail[1])
            lines.append("---")
            lines.append(f"Failed   <<< {pkg} [{_dur(secs)}, exited with code 2]")
            continue
        if pkg in CPP_PACKAGES and r.random() < 0.45:
            block = [f"--- stderr: {pkg}"]
            _fill(block, min(per_pkg, 2600), lambda p=pkg: _warning(s, p))
            lines.extend(block + ["---"])
        elif pkg in PY_PACKAGES and r.random() < 0.5:
            lines.extend([f"--- stderr: {pkg}",
                          "/usr/lib/python3/dist-packages/setuptools/command/install.py:34: "
                          "SetuptoolsDeprecationWarning: setup.py install is deprecated. Use build and pip and other "
                          "standards-based tools.", "  warnings.warn(", "---"])
        elif r.random() < 0.15:
            lines.extend([f"--- stderr: {pkg}", "CMake Warning:",
                          "  Manually-specified variables were not used by the project:", "",
                          "    CMAKE_EXPORT_COMPILE_COMMANDS", "", "", "---"])
        lines.append(f"Finished <<< {pkg} [{_dur(secs)}]")
        done.append(pkg)
    stderr = [p for p in pkgs if any(x == f"--- stderr: {p}" for x in lines)]
    lines.append("")
    lines.append(f"Summary: {len(done)} package{'s' if len(done) != 1 else ''} finished [{_dur(total * 0.55 + 3)}]")
    if failed:
        lines.append(f"  1 package failed: {failed}")
    if aborts:
        lines.append(f"  {len(aborts)} package{'s' if len(aborts) > 1 else ''} aborted: {' '.join(aborts)}")
    if stderr:
        lines.append(f"  {len(stderr)} package{'s' if len(stderr) > 1 else ''} had stderr output: {' '.join(stderr)}")
    not_started = [p for p in PACKAGES if p not in pkgs] if failed and len(pkgs) == len(PACKAGES) else []
    if not_started:
        lines.append(f"  {len(not_started)} packages not processed")
    return "\n".join(lines)


def _noise_compile_error(s: _S, pkg: str) -> list[str]:
    """A g++ error of the filler (even line numbers, so never a planted one)."""
    path = f"{WS}/src/{pkg}/{s.pick(SOURCES.get(pkg, ('src/main.cpp',)))}"
    line, col = s.even(30, 500), s.r.randint(5, 40)
    kind = s.r.randrange(3)
    if kind == 0:
        return [f"{path}: In member function '{s.pick(FUNCS[pkg])}':",
                f"{path}:{line}:{col}: error: 'kMaxRpm' was not declared in this scope; did you mean 'max_rpm_'?",
                f"{line:5d} |   const double rpm = std::clamp(target, -kMaxRpm, kMaxRpm);",
                f"      | {' ' * (col - 1)}^~~~~~~", "      |   max_rpm_",
                f"gmake[2]: *** [CMakeFiles/{pkg}_node.dir/build.make:{s.even(70, 200)}: "
                f"CMakeFiles/{pkg}_node.dir/{SOURCES[pkg][0]}.o] Error 1",
                f"gmake[1]: *** [CMakeFiles/Makefile2:{s.even(100, 300)}: CMakeFiles/{pkg}_node.dir/all] Error 2",
                "gmake: *** [Makefile:146: all] Error 2"]
    if kind == 1:
        return [f"{path}:{line}:{col}: error: expected ';' before '}}' token",
                f"{line:5d} |   RCLCPP_INFO(get_logger(), \"armed\")", f"      | {' ' * (col - 1)}^",
                f"      | {' ' * (col - 1)};",
                f"gmake[2]: *** [CMakeFiles/{pkg}_node.dir/build.make:{s.even(70, 200)}: "
                f"CMakeFiles/{pkg}_node.dir/{SOURCES[pkg][0]}.o] Error 1",
                "gmake: *** [Makefile:146: all] Error 2"]
    return [f"{path}:{line}:{col}: error: 'class rclcpp::Node' has no member named 'declare_parameters_atomically'",
            f"{line:5d} |   this->declare_parameters_atomically(\"\", params);", f"      | {' ' * (col - 1)}^~~~~~~~",
            "gmake: *** [Makefile:146: all] Error 2"]


GTESTS = {
    "amr_base": ("DiffDriveOdometryTest", ("StraightLine", "SpinInPlace", "ArcLeft", "ZeroDt", "ResetClearsPose",
                                           "WrapsYaw", "CovarianceGrowsWithDistance")),
    "amr_can_bridge": ("MotorFrameTest", ("EncodesVelocity", "DecodesStatusword", "RejectsShortFrame", "HeartbeatParse",
                                          "SdoAbortCode", "NmtStartFrame")),
    "lumos_lidar_ros2": ("PacketParserTest", ("SyncOnHeader", "ChecksumMismatch", "SplitAcrossReads", "AngleWrap",
                                              "IntensityOptional")),
    "amr_safety": ("SpeedLimiterTest", ("ClampsInWarningField", "StopsInProtectiveField", "RampsBackUp",
                                        "IgnoresStaleScan")),
    "amr_localization_tools": ("PoseErrorTest", ("ZeroForIdentity", "YawErrorWraps", "InterpolatesGroundTruth")),
    "amr_navigation": ("IsBatteryLowTest", ("BelowThreshold", "AboveThreshold", "MissingTopicIsFailure")),
}


def _gtest_run(s: _S, pkg: str, want: int, fails: list[tuple[str, list[str], int]] | None = None) -> list[str]:
    """A gtest binary's output; ``fails`` = (Suite.Test, detail lines, ms) that fail among the passing ones."""
    r = s.r
    suite, names = GTESTS[pkg]
    suites = [(suite, list(names))]
    other = s.pick([p for p in GTESTS if p != pkg])
    if r.random() < 0.6:
        suites.append((GTESTS[other][0].replace("Test", "Fixture"), list(GTESTS[other][1][:3])))
    fails = fails or []
    count = sum(len(t) for _s, t in suites) + len(fails)
    lines = [f"[==========] Running {count} tests from {len(suites) + (1 if fails else 0)} test suites.",
             "[----------] Global test environment set-up."]
    failed_names = []
    for su, tests in suites:
        lines.append(f"[----------] {len(tests)} tests from {su}")
        for t in tests:
            lines += [f"[ RUN      ] {su}.{t}", f"[       OK ] {su}.{t} ({r.choice((0, 0, 0, 1, 2, 4))} ms)"]
            if r.random() < 0.25:
                lines.insert(-1,
                             f"[INFO] [{s.stamp()}] [test_node]: {r.choice(('configured', 'activated', 'spinning'))}")
        lines.append(f"[----------] {len(tests)} tests from {su} ({r.randint(0, 30)} ms total)")
        lines.append("")
    if fails:
        fsuite = fails[0][0].split(".")[0]
        lines.append(f"[----------] {len(fails)} tests from {fsuite}")
        for name, detail, ms in fails:
            lines.append(f"[ RUN      ] {name}")
            lines.extend(detail)
            lines.append(f"[  FAILED  ] {name} ({ms} ms)")
            failed_names.append(name)
        lines.append(f"[----------] {len(fails)} tests from {fsuite} ({r.randint(3, 90)} ms total)")
        lines.append("")
    lines += ["[----------] Global test environment tear-down",
              f"[==========] {count} tests from {len(suites) + (1 if fails else 0)} test suites ran. "
              f"({r.randint(5, 400)} ms total)", f"[  PASSED  ] {count - len(fails)} tests."]
    if fails:
        lines.append(f"[  FAILED  ] {len(fails)} test{'s' if len(fails) > 1 else ''}, listed below:")
        lines += [f"[  FAILED  ] {n}" for n in failed_names]
        lines += ["", f" {len(fails)} FAILED TEST{'S' if len(fails) > 1 else ''}"]
    return lines


PY_TESTS = {
    "amr_bringup": ("test/test_copyright.py", "test/test_flake8.py", "test/test_pep257.py", "test/test_xmllint.py",
                    "test/test_bringup_launch.py", "test/test_param_files.py"),
    "amr_sim": ("test/test_copyright.py", "test/test_flake8.py", "test/test_pep257.py", "test/test_world_files.py"),
    "amr_teleop": ("test/test_copyright.py", "test/test_flake8.py", "test/test_pep257.py", "test/test_joy_bridge.py",
                   "test/test_deadman.py"),
}
PYTEST_HEAD = ("platform linux -- Python 3.10.12, pytest-6.2.5, py-1.10.0, pluggy-0.13.0",
               "plugins: launch-testing-ros-0.19.7, ament-pep257-0.12.11, ament-xmllint-0.12.11, ament-lint-0.12.11, "
               "launch-testing-1.0.6, ament-flake8-0.12.11, ament-copyright-0.12.11, colcon-core-0.15.2, cov-3.0.0, "
               "rerunfailures-10.2")


def _pytest_run(s: _S, pkg: str, fails: list[tuple[str, str, list[str]]] | None = None) -> list[str]:
    """pytest's output for a Python package; ``fails`` = (file, summary after 'FAILED file - ', detail lines)."""
    r = s.r
    files = list(PY_TESTS[pkg])
    fails = fails or []
    for f, _m, _d in fails:
        if f.split("::")[0] not in files:
            files.append(f.split("::")[0])
    counts = {f: r.randint(1, 4) if "launch" in f or "joy" in f or "param" in f else 1 for f in files}
    total = sum(counts.values())
    lines = ["=" * 29 + " test session starts " + "=" * 30, PYTEST_HEAD[0],
             f"cachedir: {WS}/build/{pkg}/.pytest_cache", f"rootdir: {WS}/src/{pkg}, configfile: pytest.ini",
             PYTEST_HEAD[1], f"collected {total} items", ""]
    done = 0
    bad = {f.split("::")[0] for f, _m, _d in fails}
    for f in files:
        marks = "." * counts[f]
        if f in bad:
            marks = marks[:-1] + "F"
        elif r.random() < 0.08:
            marks = marks[:-1] + "s"
        done += counts[f]
        lines.append(f"{f} {marks}".ljust(73) + f"[{100 * done // total:3d}%]")
    lines.append("")
    if fails:
        lines.append("=" * 35 + " FAILURES " + "=" * 35)
        for f, _m, detail in fails:
            name = f.split("::")[-1]
            lines.append(f"{'_' * 30} {name} {'_' * 30}")
            lines.extend(detail)
        lines.append("=" * 27 + " short test summary info " + "=" * 28)
        lines.extend(f"FAILED {f} - {m}" for f, m, _d in fails)
    secs = f"{r.uniform(0.4, 9):.2f}s"
    tail = f"{len(fails)} failed, {total - len(fails)} passed in {secs}" if fails else f"{total} passed in {secs}"
    lines.append(f" {tail} ".center(80, "="))
    return lines


def _colcon_test(s: _S, want: int, pkgs: tuple[str, ...] = PACKAGES,
                 pyfail: tuple[str, list[tuple[str, str, list[str]]]] | None = None) -> str:
    """``colcon test --event-handlers console_cohesion+``: ctest blocks for C++ packages, pytest for Python."""
    r = s.r
    lines: list[str] = []
    budget = max(400, want // max(1, len(pkgs)))
    failures = []
    for pkg in pkgs:
        lines.append(f"Starting >>> {pkg}")
        block = [f"--- output: {pkg}"]
        if pkg in PY_TESTS:
            block += _pytest_run(s, pkg, pyfail[1] if pyfail and pyfail[0] == pkg else None)
            if pyfail and pyfail[0] == pkg:
                failures.append(pkg)
        elif pkg in GTESTS:
            block.append(f"UpdateCTestConfiguration  from :{WS}/build/{pkg}/CTestConfiguration.ini")
            tests = ("test_" + pkg.split("_")[-1], "copyright", "cppcheck", "cpplint", "lint_cmake", "uncrustify",
                     "xmllint")
            for i, t in enumerate(tests, 1):
                block += [f"test {i}", f"    Start {i}: {t}", ""]
                if i == 1 and r.random() < 0.5:
                    block += [f"{i}: {x}" for x in _gtest_run(s, pkg, budget)]
                else:
                    block.append(f"{i}: -- run_test.py: verify result file "
                                 f"'{WS}/build/{pkg}/test_results/{pkg}/{t}.xunit.xml'")
                block.append(f"{i}/{len(tests)} Test #{i}: {t} " + "." * (30 - len(t)) + "   Passed    "
                             f"{r.uniform(0.05, 4):.2f} sec")
            block += ["", f"100% tests passed, 0 tests failed out of {len(tests)}", "",
                      f"Label Time Summary:\ncppcheck      =   {r.uniform(0.1, 2):.2f} sec*proc (1 test)",
                      f"gtest         =   {r.uniform(0.1, 2):.2f} sec*proc (1 test)"]
        else:
            block.append("No tests were found!!!")
        lines.extend(block + ["---"])
        tail = "\t[ with test failures ]" if pkg in failures else ""
        lines.append(f"Finished <<< {pkg} [{_dur(r.uniform(0.5, 40))}]{tail}")
        if sum(len(x) for x in lines) > want * 1.3:
            break
    done = sum(1 for x in lines if x.startswith("Finished"))
    lines += ["", f"Summary: {done} package{'s' if done != 1 else ''} finished [{_dur(r.uniform(20, 200))}]"]
    if failures:
        lines.append(f"  1 package had test failures: {failures[0]}")
    return "\n".join(lines)


def _test_result(s: _S, want: int) -> str:
    r = s.r
    lines = []
    tests = errors = fails = skipped = 0
    for pkg in PACKAGES:
        if pkg in GTESTS:
            n = len(GTESTS[pkg][1])
            lines.append(f"build/{pkg}/test_results/{pkg}/test_{pkg.split('_')[-1]}.gtest.xml: {n} tests, 0 errors, 0 "
                         "failures, 0 skipped")
            for lint in ("copyright", "cppcheck", "cpplint", "lint_cmake", "uncrustify", "xmllint"):
                k = r.randint(1, 40)
                lines.append(f"build/{pkg}/test_results/{pkg}/{lint}.xunit.xml: {k} tests, 0 errors, 0 failures, 0 "
                             "skipped")
                tests += k
            tests += n
        elif pkg in PY_TESTS:
            k = r.randint(4, 14)
            sk = r.choice((0, 0, 1))
            lines.append(f"build/{pkg}/pytest.xml: {k} tests, 0 errors, 0 failures, {sk} skipped")
            tests += k
            skipped += sk
    lines += ["", f"Summary: {tests} tests, {errors} errors, {fails} failures, {skipped} skipped"]
    return "\n".join(lines)


# --- ros2 cli ----------------------------------------------------------------------------------------------------
TOPICS = (("/scan", "sensor_msgs/msg/LaserScan"), ("/odom", "nav_msgs/msg/Odometry"), ("/tf", "tf2_msgs/msg/TFMessage"),
          ("/tf_static", "tf2_msgs/msg/TFMessage"), ("/cmd_vel", "geometry_msgs/msg/Twist"),
          ("/cmd_vel_nav", "geometry_msgs/msg/Twist"), ("/motor_state", "amr_msgs/msg/MotorState"),
          ("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray"), ("/amcl_pose",
                                                                    "geometry_msgs/msg/PoseWithCovarianceStamped"),
          ("/map", "nav_msgs/msg/OccupancyGrid"), ("/plan", "nav_msgs/msg/Path"), ("/local_costmap/costmap",
                                                                                   "nav_msgs/msg/OccupancyGrid"),
          ("/global_costmap/costmap", "nav_msgs/msg/OccupancyGrid"), ("/particle_cloud", "nav2_msgs/msg/ParticleCloud"),
          ("/estop", "std_msgs/msg/Bool"), ("/joy", "sensor_msgs/msg/Joy"), ("/rosout", "rcl_interfaces/msg/Log"),
          ("/parameter_events", "rcl_interfaces/msg/ParameterEvent"), ("/robot_description", "std_msgs/msg/String"),
          ("/initialpose", "geometry_msgs/msg/PoseWithCovarianceStamped"), ("/goal_pose",
                                                                            "geometry_msgs/msg/PoseStamped"),
          ("/speed_limit", "nav2_msgs/msg/SpeedLimit"), ("/battery_state", "sensor_msgs/msg/BatteryState"))
NODES = ("/amcl", "/behavior_server", "/bt_navigator", "/bt_navigator_navigate_through_poses_rclcpp_node",
         "/bt_navigator_navigate_to_pose_rclcpp_node", "/can_bridge", "/amr_base", "/controller_server",
         "/estop_monitor", "/global_costmap/global_costmap", "/lifecycle_manager_localization",
         "/lifecycle_manager_navigation", "/local_costmap/local_costmap", "/lumos_lidar", "/map_server",
         "/planner_server", "/robot_state_publisher", "/smoother_server", "/velocity_smoother", "/waypoint_follower")


def _header(s: _S, frame: str, indent: str = "") -> list[str]:
    t = s.stamp()
    sec, ns = t.split(".")
    return [f"{indent}header:", f"{indent}  stamp:", f"{indent}    sec: {sec}", f"{indent}    nanosec: {int(ns)}",
            f"{indent}  frame_id: {frame}"]


def _echo_one(s: _S, topic: str) -> list[str]:
    r = s.r
    if topic == "/odom":
        cov = [str(r.choice((0.0, 0.0, 0.001, 0.01, 0.05))) for _ in range(12)]
        return (_header(s, "odom") + ["child_frame_id: base_footprint", "pose:", "  pose:", "    position:",
                f"      x: {r.uniform(-5, 40):.15f}", f"      y: {r.uniform(-5, 25):.15f}", "      z: 0.0",
                "    orientation:", "      x: 0.0", "      y: 0.0", f"      z: {r.uniform(-1, 1):.15f}",
                f"      w: {r.uniform(0, 1):.15f}", "  covariance:"] + [f"  - {c}" for c in cov]
                + ["  - '...'", "twist:", "  twist:", "    linear:", f"      x: {r.uniform(0, 0.9):.15f}",
                   "      y: 0.0", "      z: 0.0", "    angular:", "      x: 0.0", "      y: 0.0",
                   f"      z: {r.uniform(-0.6, 0.6):.15f}", "  covariance:", "  - 0.0", "  - '...'", "---"])
    if topic == "/scan":
        n = r.randint(25, 60)
        return (_header(s, "laser_link") + ["angle_min: -3.1415927410125732", "angle_max: 3.1415927410125732",
                "angle_increment: 0.004363323096185923", "time_increment: 4.6296296204673126e-05",
                f"scan_time: {r.choice(('0.06666667014360428', '0.0833333358168602', '0.10000000149011612'))}",
                "range_min: 0.05000000074505806", "range_max: 25.0", "ranges:"]
                + [f"- {r.choice(('.inf', str(r.uniform(0.2, 24))))}" for _ in range(n)]
                + ["- '...'", "intensities: []", "---"])
    if topic == "/cmd_vel":
        return ["linear:", f"  x: {r.uniform(0, 0.8):.3f}", "  y: 0.0", "  z: 0.0", "angular:", "  x: 0.0", "  y: 0.0",
                f"  z: {r.uniform(-0.5, 0.5):.3f}", "---"]
    if topic == "/motor_state":
        return (_header(s, "base_link") + [f"left_rpm: {r.uniform(-900, 900):.1f}",
                                           f"right_rpm: {r.uniform(-900, 900):.1f}",
                f"bus_voltage: {s.even_digits(44.0, 47.9, 2)}", f"current_a: {r.uniform(0.2, 9):.2f}",
                f"winding_temp_c: {s.even_digits(28, 63, 1)}", f"statusword: {r.choice((1079, 1591, 5687, 4663))}",
                f"error_code: {r.choice((0, 0, 0, 0, 8992, 29456))}", "---"])
    if topic == "/diagnostics":
        names = ("lumos_lidar: Scan rate", "can_bridge: Motor left", "can_bridge: Motor right", "amr_base: Odometry",
                 "estop_monitor: Safety chain")
        out = _header(s, "")[:-1] + ["  frame_id: ''", "status:"]
        for nm in r.sample(names, 3):
            lvl = r.choice(("\\0", "\\0", "\\x01"))
            out += [f"- level: \"{lvl}\"", f"  name: '{nm}'",
                    f"  message: {r.choice(('OK', 'OK', 'desired rate not met'))}",
                    f"  hardware_id: {nm.split(':')[0]}", "  values:", "  - key: frequency",
                    f"    value: '{r.uniform(5, 50):.2f}'"]
        return out + ["---"]
    if topic == "/amcl_pose":
        return (_header(s, "map") + ["pose:", "  pose:", "    position:", f"      x: {r.uniform(0, 35):.6f}",
                f"      y: {r.uniform(0, 20):.6f}", "      z: 0.0", "    orientation:",
                f"      z: {r.uniform(-1, 1):.6f}", f"      w: {r.uniform(0, 1):.6f}", "  covariance:"]
                + [f"  - {r.uniform(0, 0.3):.6f}" for _ in range(8)] + ["  - '...'", "---"])
    # /tf
    out = ["transforms:"]
    for parent, child in r.sample((("odom", "base_footprint"), ("map", "odom"), ("base_link", "laser_link")), 2):
        out += ["- " + _header(s, parent)[0]] + _header(s, parent, "  ")[1:] + [
            f"  child_frame_id: {child}", "  transform:", "    translation:", f"      x: {r.uniform(-2, 30):.6f}",
            f"      y: {r.uniform(-2, 20):.6f}", "      z: 0.0", "    rotation:", "      x: 0.0", "      y: 0.0",
            f"      z: {r.uniform(-1, 1):.6f}", f"      w: {r.uniform(0, 1):.6f}"]
    return out + ["---"]


def _echo(s: _S, want: int, topic: str) -> str:
    lines: list[str] = []
    _fill(lines, want, lambda: _echo_one(s, topic))
    return "\n".join(lines)


def _hz_block(s: _S, rate: str, expected: float) -> list[str]:
    r = s.r
    period = 1 / max(float(rate), 0.5)
    return [f"average rate: {rate}",
            f"\tmin: {period * r.uniform(0.7, 0.95):.3f}s max: {period * r.uniform(1.05, 1.9):.3f}s std dev: "
            f"{period * r.uniform(0.01, 0.2):.5f}s window: {int(expected * r.uniform(1, 8)) + 1}"]


def _hz(s: _S, want: int, expected: float, planted: str | None = None) -> str:
    """``ros2 topic hz``: rates end in an even digit, but ``planted`` (near which the others then lie), once."""
    lines: list[str] = []
    around = float(planted) if planted else expected
    _fill(lines, min(want, 2600), lambda: _hz_block(s, s.even_digits(around * 0.97, around * 1.02, 3), expected))
    if planted:
        at = 2 * s.r.randrange(len(lines) // 2 + 1)
        lines[at:at] = _hz_block(s, planted, expected)
    return "\n".join(lines)


def _topic_list(s: _S) -> str:
    topics = sorted(s.r.sample(TOPICS, s.r.randint(14, len(TOPICS))))
    if s.chance(0.5):
        return "\n".join(f"{t} [{ty}]" for t, ty in topics)
    return "\n".join(t for t, _ty in topics)


def _topic_info(s: _S, topic: str, ty: str) -> str:
    r = s.r
    out = [f"Type: {ty}", "", "Publisher count: 1", ""]

    def ep(node: str, kind: str) -> list[str]:
        rel = r.choice(("RELIABLE", "BEST_EFFORT"))
        return [f"Node name: {node.strip('/')}", "Node namespace: /", f"Topic type: {ty}", f"Endpoint type: {kind}",
                "GID: " + ".".join(s.hexs(2) for _ in range(16)) + ".00" * 8, "QoS profile:",
                f"  Reliability: {rel}", f"  History (Depth): KEEP_LAST ({r.choice((1, 5, 10))})",
                f"  Durability: {r.choice(('VOLATILE', 'VOLATILE', 'TRANSIENT_LOCAL'))}", "  Lifespan: Infinite",
                "  Deadline: Infinite", "  Liveliness: AUTOMATIC", "  Liveliness lease duration: Infinite", ""]
    out += ep(r.choice(NODES), "PUBLISHER")
    subs = r.sample(NODES, r.randint(1, 4))
    out += [f"Subscription count: {len(subs)}", ""]
    for n in subs:
        out += ep(n, "SUBSCRIPTION")
    return "\n".join(out)


def _node_info(s: _S, node: str) -> str:
    r = s.r
    out = [node, "  Subscribers:"]
    out += [f"    {t}: {ty}" for t, ty in r.sample(TOPICS, r.randint(2, 6))]
    out += ["  Publishers:"] + [f"    {t}: {ty}" for t, ty in r.sample(TOPICS, r.randint(2, 6))]
    out += ["  Service Servers:"] + [f"    {node}/{x}: rcl_interfaces/srv/{y}" for x, y in (
        ("describe_parameters", "DescribeParameters"), ("get_parameter_types", "GetParameterTypes"),
        ("get_parameters", "GetParameters"), ("list_parameters", "ListParameters"),
        ("set_parameters", "SetParameters"), ("set_parameters_atomically", "SetParametersAtomically"))]
    out += ["  Service Clients:", "", "  Action Servers:", "", "  Action Clients:", ""]
    return "\n".join(out)


def _doctor(s: _S, want: int) -> str:
    r = s.r
    if r.random() < 0.4:
        warn = r.sample(("/diagnostics", "/speed_limit", "/battery_state", "/plan", "/particle_cloud"), 2)
        return "\n".join([f"/opt/ros/humble/lib/python3.10/site-packages/ros2doctor/api/topic.py: 42: UserWarning: "
                          f"Publisher without subscriber detected on {t}." for t in warn]
                         + ["/opt/ros/humble/lib/python3.10/site-packages/ros2doctor/api/package.py: 112: UserWarning: "
                            "nav2_bringup has been updated to a new version. local: 1.1.12 < latest: 1.1.17",
                            "", "1/5 checks failed", "", "Failed modules:  topic"])
    out = ["", "   NETWORK CONFIGURATION", "inet         : 127.0.0.1", "inet4        : ['127.0.0.1']",
           "inet6        : ['::1']", "netmask      : 255.0.0.0", "device       : lo",
           "flags        : 73<UP,LOOPBACK,RUNNING>",
           "mtu          : 65536", f"inet         : 172.17.0.{r.randint(2, 9)}", "netmask      : 255.255.0.0",
           "device       : eth0", "flags        : 4163<UP,BROADCAST,RUNNING,MULTICAST>", "mtu          : 1500", "",
           "   PACKAGE VERSIONS", "navigation2                               : latest=1.1.17, local=1.1.12",
           "rclcpp                                    : latest=16.0.10, local=16.0.8",
           "rmw_cyclonedds_cpp                        : latest=1.3.4, local=1.3.4", "",
           "   PLATFORM INFORMATION", "system           : Linux",
           "platform info    : Linux-5.15.136-tegra-aarch64-with-glibc2.35", "release          : 5.15.136-tegra",
           "processor        : aarch64", "", "   QOS COMPATIBILITY LIST",
           "compatibility status    : No publisher/subscriber pairs found",
           "", "   RMW MIDDLEWARE", f"middleware name    : {r.choice(('rmw_cyclonedds_cpp', 'rmw_fastrtps_cpp'))}", "",
           "   ROS 2 INFORMATION", "distribution name      : humble", "distribution type      : ros2",
           "distribution status    : active",
           "release platforms      : {'debian': ['bullseye'], 'rhel': ['8'], 'ubuntu': ['jammy']}", "",
           "   TOPIC LIST"]

    def topic() -> list[str]:
        t = r.choice(TOPICS)[0]
        return [f"topic               : {t}", f"publisher count     : {r.randint(0, 2)}",
                f"subscriber count    : {r.randint(0, 4)}"]
    _fill(out, min(want, 5000), topic)
    return "\n".join(out)


# --- bash: kernel, CAN, docker, memory tools, git, system ------------------------------------------------------
def _dmesg_line(s: _S, up: list[float]) -> str:
    r = s.r
    up[0] += r.uniform(0.001, 40)
    port = r.choice(("1-2.3", "1-2.4", "2-1"))
    msg = r.choice((
        f"usb {port}: new full-speed USB device number {r.randint(3, 30)} using tegra-xusb",
        f"usb {port}: New USB device found, idVendor=10c4, idProduct=ea60, bcdDevice= 1.00",
        f"usb {port}: Product: CP2102N USB to UART Bridge Controller",
        f"cp210x {port}:1.0: cp210x converter detected",
        f"usb {port}: USB disconnect, device number {r.randint(3, 30)}",
        "mttcan c310000.mttcan can0: entered error warning state",
        "mttcan c310000.mttcan can0: entered error passive state",
        "mttcan c310000.mttcan can0: bus-off, restarting in 100 ms",
        "IPv6: ADDRCONF(NETDEV_CHANGE): can0: link becomes ready",
        "can: controller area network core", "can: raw protocol", "can: netlink gateway - max_hops=1",
        f"soctherm: OC ALARM 0x0000000{r.choice((1, 2, 4))}",
        f"thermal thermal_zone{r.randint(0, 6)}: cpu-thermal: trip point {r.randint(0, 3)} crossed",
        "eqos 2310000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx",
        f"docker0: port 1(veth{s.hexs(7)}) entered forwarding state",
        f"audit: type=1400 audit({int(s.t)}.{r.randint(100, 999)}:{r.randint(100, 999)}): apparmor=\"DENIED\" "
        "operation=\"open\" profile=\"docker-default\" name=\"/sys/kernel/debug/\"",
        f"nvgpu: 17000000.ga10b gk20a_channel_timeout_handler:1517 [ERR]  Job on channel {r.randint(500, 511)} timed "
        "out",
        f"systemd-journald[{r.randint(300, 500)}]: Time jumped backwards, rotating.",
        f"wlan0: associated with {':'.join(s.hexs(2) for _ in range(6))}",
    ))
    return f"[{up[0]:12.6f}] {msg}"


def _dmesg(s: _S, want: int, planted: str = "") -> tuple[str, str]:
    """``dmesg`` lines; ``planted`` (a message) comes once in the middle. Returns the output and that line."""
    up = [s.r.uniform(100, 300000)]
    lines: list[str] = []
    line = ""
    _fill(lines, min(want, 7000) // 2, lambda: [_dmesg_line(s, up)])
    if planted:
        up[0] += s.r.uniform(0.001, 0.5)
        line = f"[{up[0]:12.6f}] {planted}"
        lines.append(line)
    _fill(lines, min(want, 7000), lambda: [_dmesg_line(s, up)])
    return "\n".join(lines), line


COB = ((0x080, 0), (0x1A1, 8), (0x1A2, 8), (0x221, 8), (0x222, 8), (0x721, 1), (0x722, 1), (0x2A1, 6), (0x2A2, 6))


def _candump(s: _S, want: int, timed: bool = True) -> str:
    r = s.r

    def frame() -> list[str]:
        cob, dlc = r.choice(COB)
        data = "05" if cob >= 0x700 else " ".join(s.hexs(2).upper() for _ in range(dlc))
        head = f" ({s.tick(0.0001, 0.004):.6f})" if timed else ""
        return [f"{head}  can0  {cob:03X}   [{dlc}]  {data}".rstrip()]
    lines: list[str] = []
    _fill(lines, min(want, 9000), frame)
    return "\n".join(lines)


def _ip_link(s: _S, berr: str = "berr-counter tx 0 rx 0", state: str = "ERROR-ACTIVE") -> str:
    r = s.r
    rx, tx = r.randint(10 ** 5, 10 ** 7), r.randint(10 ** 5, 10 ** 7)
    return "\n".join([
        "5: can0: <NOARP,UP,LOWER_UP,ECHO> mtu 16 qdisc pfifo_fast state UP mode DEFAULT group default qlen 10",
        "    link/can  promiscuity 0 minmtu 0 maxmtu 0",
        f"    can state {state} ({berr}) restart-ms 100",
        "\t  bitrate 500000 sample-point 0.875", "\t  tq 25 prop-seg 17 phase-seg1 17 phase-seg2 5 sjw 1",
        "\t  mttcan: tseg1 2..255 tseg2 0..127 sjw 1..127 brp 1..511 brp-inc 1", "\t  clock 40000000",
        "\t  re-started bus-errors arbit-lost error-warn error-pass bus-off",
        f"\t  {r.choice((0, 0, 1)):<10d} {0:<10d} 0          {r.choice((0, 1, 2)):<10d} 0          0          "
        "numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535",
        "    RX: bytes  packets  errors  dropped overrun mcast",
        f"    {rx * 8:<10d} {rx:<8d} 0       0       0       0",
        "    TX: bytes  packets  errors  dropped carrier collsns",
        f"    {tx * 8:<10d} {tx:<8d} 0       0       0       0"])


APT = ("ros-humble-navigation2", "ros-humble-nav2-bringup", "ros-humble-robot-localization", "ros-humble-laser-filters",
       "ros-humble-gazebo-ros-pkgs", "ros-humble-ros2-socketcan", "can-utils", "clang-format-14", "valgrind", "gdb",
       "ros-humble-rmw-cyclonedds-cpp", "ros-humble-xacro", "ros-humble-joint-state-publisher")


def _docker_build(s: _S, want: int, image_line: str | None = None) -> str:
    r = s.r
    lines = ['#0 building with "default" instance using docker driver', "",
             "#1 [internal] load build definition from Dockerfile",
             f"#1 transferring dockerfile: {r.uniform(1.5, 4):.2f}kB done", "#1 DONE 0.0s", "",
             "#2 [internal] load metadata for docker.io/osrf/ros:humble-desktop", f"#2 DONE {r.uniform(0.4, 3):.1f}s",
             "", "#3 [internal] load .dockerignore", "#3 transferring context: 2B done", "#3 DONE 0.0s", ""]
    step = 4
    pkgs = list(APT)
    r.shuffle(pkgs)
    t = 0.0

    def apt_block() -> list[str]:
        nonlocal step, t
        out = [f"#{step} [{step - 3}/11] RUN apt-get update && apt-get install -y --no-install-recommends "
               + " ".join(pkgs[: r.randint(3, 7)])]
        for i in range(r.randint(6, 20)):
            t += r.uniform(0.05, 2)
            name = r.choice(pkgs)
            out.append(f"#{step} {t:.3f} Get:{i + 1} http://packages.ros.org/ros2/ubuntu jammy/main arm64 "
                       f"{name} arm64 {r.randint(1, 4)}.{r.randint(0, 20)}.{r.randint(0, 30)}-1jammy.{s.hexs(8)} "
                       f"[{r.randint(20, 4000)} kB]")
        out += [f"#{step} {t:.3f} Setting up {r.choice(pkgs)} ...", f"#{step} DONE {t:.1f}s", ""]
        step += 1
        return out
    _fill(lines, min(want, 9000) - 500, apt_block)
    lines += [f"#{step} [10/11] COPY src/ /ws/src/", f"#{step} DONE {r.uniform(0.1, 2):.1f}s", "",
              f"#{step + 1} [11/11] RUN . /opt/ros/humble/setup.sh && colcon build --symlink-install "
              "--cmake-args -DCMAKE_BUILD_TYPE=RelWithDebInfo",
              f"#{step + 1} {r.uniform(100, 400):.2f} Summary: 11 packages finished [{r.randint(3, 7)}min "
              f"{r.randint(0, 59)}s]",
              f"#{step + 1} DONE {r.uniform(100, 400):.1f}s", "", f"#{step + 2} exporting to image",
              f"#{step + 2} exporting layers {r.uniform(2, 30):.1f}s done",
              image_line or f"#{step + 2} writing image sha256:{s.hexs(64)} done",
              f"#{step + 2} naming to ghcr.io/naniwa-robotics/amr-dev:humble done",
              f"#{step + 2} DONE {r.uniform(2, 30):.1f}s"]
    return "\n".join(lines)


def _docker_stats(s: _S, planted: tuple[str, str] | None = None) -> str:
    r = s.r
    rows = [("amr-dev", s.even_digits(20, 180, 2)), ("amr-sim", s.even_digits(10, 300, 2)),
            ("foxglove-bridge", s.even_digits(0, 12, 2)), ("registry-mirror", s.even_digits(0, 2, 2))]
    if planted:
        rows[[x for x, _c in rows].index(planted[0])] = planted
    out = ["CONTAINER ID   NAME              CPU %     MEM USAGE / LIMIT     MEM %     NET I/O           BLOCK I/O     "
           "    PIDS"]
    for name, cpu in rows:
        out.append(f"{s.hexs(12)}   {name:<17} {cpu + '%':<9} {r.uniform(0.1, 4):.3f}GiB / 30.6GiB   "
                   f"{s.even_digits(0.2, 14, 2) + '%':<9} {r.uniform(0.1, 900):.1f}MB / {r.randint(1, 900)}kB   "
                   f"0B / {r.uniform(0, 90):.1f}MB   {r.randint(4, 160)}")
    return "\n".join(out)


def _valgrind(s: _S, want: int, binary: str, lost: str = "0 bytes in 0 blocks", frames: list[str] | None = None) -> str:
    r = s.r
    pid = s.new_pid()
    p = f"=={pid}=="
    lines = [f"{p} Memcheck, a memory error detector",
             f"{p} Copyright (C) 2002-2017, and GNU GPL'd, by Julian Seward et al.",
             f"{p} Using Valgrind-3.18.1 and LibVEX; rerun with -h for copyright info", f"{p} Command: {binary}", p]
    lines += _gtest_run(s, s.pick(list(GTESTS)), want // 2)
    if frames:
        lines += [p,
                  f"{p} {lost.split(': ')[-1]} are definitely lost in loss record {r.randint(40, 90)} of "
                  f"{r.randint(91, 140)}"]
        lines += [f"{p}    {'at' if i == 0 else 'by'} 0x{s.hexs(7).upper()}: {f}" for i, f in enumerate(frames)]
    lines += [p, f"{p} HEAP SUMMARY:",
              f"{p}     in use at exit: {r.randint(100, 999)} bytes in {r.randint(1, 9)} blocks",
              f"{p}   total heap usage: {r.randint(1000, 90000):,} allocs, {r.randint(1000, 90000):,} frees, "
              f"{r.randint(10 ** 5, 10 ** 8):,} bytes allocated", p, f"{p} LEAK SUMMARY:",
              f"{p}    definitely lost: {lost}", f"{p}    indirectly lost: 0 bytes in 0 blocks",
              f"{p}      possibly lost: {r.choice((0, 304, 608))} bytes in {r.choice((0, 1, 2))} blocks",
              f"{p}    still reachable: {r.randint(100, 998)} bytes in {r.randint(1, 9)} blocks",
              f"{p}         suppressed: 0 bytes in 0 blocks",
              f"{p} Rerun with --leak-check=full to see details of leaked memory" if not frames else p,
              p, f"{p} For lists of detected and suppressed errors, rerun with: -s",
              f"{p} ERROR SUMMARY: {len(frames or []) and 1} errors from {len(frames or []) and 1} contexts "
              "(suppressed: 0 from 0)"]
    return "\n".join(lines)


def _asan(s: _S, binary: str, error: str, frames: list[str], pid: int) -> list[str]:
    """An AddressSanitizer report; ``error`` is its ERROR line (built by the caller)."""
    r = s.r
    addr = f"0x60{s.hexs(10)}"
    out = ["=" * 65, error, f"READ of size {r.choice((4, 8))} at {addr} thread T{r.randint(0, 6)}"]
    out += [f"    #{i} 0x55{s.hexs(10)} in {f}" for i, f in enumerate(frames)]
    out += [f"    #{len(frames)} 0x7f{s.hexs(10)} in start_thread nptl/pthread_create.c:442", "",
            f"{addr} is located {r.randint(0, 64)} bytes inside of {r.choice((48, 96, 144))}-byte region",
            "freed by thread T0 here:",
            f"    #0 0x7f{s.hexs(10)} in operator delete(void*) "
            "../../../../src/libsanitizer/asan/asan_new_delete.cpp:152",
            f"    #1 0x55{s.hexs(10)} in std::_Sp_counted_base<(__gnu_cxx::_Lock_policy)2>::_M_release() "
            "/usr/include/c++/11/bits/shared_ptr_base.h:168", "",
            f"SUMMARY: AddressSanitizer: heap-use-after-free {frames[0].split(' ')[-1]} in {frames[0].split('(')[0]}",
            "Shadow bytes around the buggy address:"]
    out += [f"  0x0c{s.hexs(10)}: " + " ".join(r.choice(("fa", "fd", "00", "00")) for _ in range(16)) for _ in range(8)]
    out += [f"=={pid}==ABORTING"]
    return out


PROCS = ("controller_serv", "planner_server", "amcl", "lumos_driver", "can_bridge_node", "base_node", "bt_navigator",
         "gzserver", "robot_state_pub", "behavior_server", "velocity_smoot", "map_server", "python3", "dockerd",
         "containerd", "Xorg", "rviz2", "ros2-daemon", "estop_monitor", "colcon", "cc1plus")


def _top(s: _S, want: int) -> str:
    r = s.r
    lines = [f"top - {s.date('%H:%M:%S')} up {r.randint(0, 9)} days, {r.randint(0, 23)}:{r.randint(0, 59):02d},  "
             f"{r.randint(1, 3)} user,  load average: {r.uniform(0.5, 9):.2f}, {r.uniform(0.5, 9):.2f}, "
             f"{r.uniform(0.5, 9):.2f}",
             f"Tasks: {r.randint(250, 400)} total,   {r.randint(1, 5)} running, {r.randint(240, 390)} sleeping,   "
             "0 stopped,   0 zombie",
             f"%Cpu(s): {r.uniform(5, 70):.1f} us,  {r.uniform(1, 9):.1f} sy,  0.0 ni, {r.uniform(20, 90):.1f} id,  "
             "0.0 wa,  0.3 hi,  0.4 si,  0.0 st",
             f"MiB Mem :  30536.2 total,  {r.uniform(5000, 20000):.1f} free,   {r.uniform(3000, 12000):.1f} used,   "
             f"{r.uniform(3000, 9000):.1f} buff/cache",
             "MiB Swap:  15268.1 total,  15268.1 free,      0.0 used.  23901.8 avail Mem", "",
             "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND"]

    def row() -> list[str]:
        return [f"{s.new_pid():7d} root      20   0 {r.randint(10 ** 5, 4 * 10 ** 6):7d} "
                f"{r.randint(10 ** 4, 9 * 10 ** 5):6d} "
                f"{r.randint(5000, 90000):6d} {r.choice('SSSR')} {r.uniform(0, 99):5.1f} {r.uniform(0, 5):5.1f} "
                f"{r.randint(0, 90):3d}:{r.randint(0, 59):02d}.{r.randint(0, 99):02d} {r.choice(PROCS)}"]
    _fill(lines, min(want, 4000), row)
    return "\n".join(lines)


BRANCHES = ("main", "dev", "feature/rpp-tuning", "feature/can-heartbeat", "yuki/costmap-voxel", "daniel/sim-worlds",
            "feature/lumos-v2-driver", "release/sat-1")
COMMIT_MSGS = (
    "amr_base: clamp wheel speed before sending", "amr_can_bridge: handle SDO abort 0x06090011",
    "nav2_params: lower controller_frequency to 20", "lumos: drop packets with bad checksum instead of throwing",
    "bringup: add use_sim_time arg", "amr_safety: unit tests for warning field ramp",
    "docker: pin cyclonedds to 0.10.4", "urdf: fix caster joint origin", "sim: narrow aisle world v2",
    "amr_localization_tools: eval script prints p95", "ci: cache ccache dir", "bt: retry on dock failure twice",
    "amr_teleop: deadman button on L1", "clang-format", "WIP", "merge dev into feature branch", "fix typo in launch",
    "costmap: voxel layer for the mast", "amr_base: publish odom covariance from params",
    "amr_can_bridge: heartbeat consumer 0x1016", "lidar.yaml: angle limits for the rear mount")


def _git_log(s: _S, want: int, head: str | None = None) -> str:
    r = s.r
    lines = [head] if head else []

    def row() -> list[str]:
        refs = ""
        if r.random() < 0.1:
            tag = "tag: v0." + str(r.randint(3, 9)) + ".0"
            refs = f" ({r.choice(('origin/dev', 'origin/main', tag))})"
        return [f"{s.hexs(12)}{refs} {r.choice(COMMIT_MSGS)}"]
    _fill(lines, min(want, 1800), row)
    if not head:
        lines[0] = lines[0].replace(" ", f" (HEAD -> {r.choice(BRANCHES[1:])}) ", 1)
    return "\n".join(lines)


def _git_status(s: _S) -> str:
    r = s.r
    files = [f"src/{p}/{f}" for p, fs in SOURCES.items() for f in fs] + [
        "src/amr_navigation/config/nav2_params.yaml", "src/amr_bringup/launch/bringup.launch.py",
        "src/amr_bringup/config/lidar.yaml", "docker/Dockerfile"]
    mod = r.sample(files, r.randint(1, 6))
    out = [f"On branch {r.choice(BRANCHES[1:])}", f"Your branch is ahead of 'origin/{r.choice(BRANCHES[:2])}' by "
           f"{r.randint(1, 6)} commits.", "  (use \"git push\" to publish your local commits)", "",
           "Changes not staged for commit:", "  (use \"git add <file>...\" to update what will be committed)",
           "  (use \"git restore <file>...\" to discard changes in working directory)"]
    out += [f"\tmodified:   {f}" for f in mod]
    out += ["", "Untracked files:", "  (use \"git add <file>...\" to include in what will be committed)",
            "\tbags/", "\tlog/", "", "no changes added to commit (use \"git add\" and/or \"git commit -a\")"]
    return "\n".join(out)


def _tegrastats(s: _S, want: int) -> str:
    r = s.r

    def row() -> list[str]:
        cpus = ",".join(f"{r.randint(2, 99)}%@{r.choice((1190, 1498, 2201))}" for _ in range(12))
        return [f"{s.date('%m-%d-%Y %H:%M:%S')} RAM {r.randint(3000, 14000)}/30536MB (lfb {r.randint(1, 90)}x4MB) "
                f"SWAP 0/15268MB (cached 0MB) CPU [{cpus}] EMC_FREQ {r.randint(0, 30)}%@3199 GR3D_FREQ "
                f"{r.randint(0, 60)}%@"
                f"[{r.randint(300, 1300)},0] cpu@{r.uniform(40, 70):.3f}C soc2@{r.uniform(40, 60):.3f}C "
                f"tj@{r.uniform(45, 72):.3f}C "
                f"VDD_GPU_SOC {r.randint(2000, 6000)}mW/{r.randint(2000, 6000)}mW VDD_CPU_CV {r.randint(1000, 9000)}mW/"
                f"{r.randint(1000, 9000)}mW"]
    lines: list[str] = []
    _fill(lines, min(want, 5000), row)
    s.tick(1, 30)
    return "\n".join(lines)


def _journal(s: _S, want: int) -> str:
    r = s.r

    def row() -> list[str]:
        s.tick(0.01, 20)
        return [f"{s.date('%b %d %H:%M:%S')} amr-proto "
                + r.choice(("systemd[1]", "can-setup.sh[" + str(s.new_pid()) + "]", "kernel",
                            "dockerd[" + str(r.randint(800, 990)) + "]")) + ": "
                + r.choice(("Starting CAN interface setup...",
                            "ip link set can0 type can bitrate 500000 restart-ms 100",
                            "Finished CAN interface setup.", "can-setup.service: Deactivated successfully.",
                            "Started Docker Application Container Engine.", "mttcan c310000.mttcan can0: bus-off",
                            "container amr-dev: health_status: healthy", "Started Session 14 of User nvidia.",
                            "NetworkManager: <info>  device (wlan0): state change: activated -> disconnected",
                            "chronyd: Selected source 10.42.0.1", "chronyd: System clock wrong by 0.8 seconds"))]
    lines: list[str] = []
    _fill(lines, min(want, 5000), row)
    return "\n".join(lines)


def _clang_format(s: _S, want: int) -> str:
    r = s.r
    files = [f"src/{p}/{f}" for p, fs in SOURCES.items() for f in fs]

    def row() -> list[str]:
        f = r.choice(files)
        line, col = s.even(10, 400), r.randint(1, 60)
        return [f"{f}:{line}:{col}: warning: code should be clang-formatted [-Wclang-format-violations]",
                r.choice(("  if(state==State::kFault){", "  auto   frame = makeFrame(id,data);",
                          "    RCLCPP_WARN(get_logger(),\"heartbeat timeout\");", "  for(auto &r : scan.ranges){",
                          "    return  false;")),
                " " * r.randint(2, 20) + "^"]
    lines: list[str] = []
    _fill(lines, min(want, 3500), row)
    return "\n".join(lines)


def _df_free(s: _S) -> str:
    r = s.r
    return "\n".join([
        "Filesystem      Size  Used Avail Use% Mounted on",
        f"/dev/nvme0n1p1  468G  {r.randint(120, 440)}G  {r.randint(10, 300)}G  {r.randint(30, 96)}% /",
        "tmpfs            15G     0   15G   0% /dev/shm", "tmpfs           5.0M  4.0K  5.0M   1% /run/lock",
        f"/dev/sda1       1.8T  {r.uniform(0.2, 1.7):.1f}T  {r.randint(100, 900)}G  {r.randint(10, 95)}% /mnt/bags",
        "", "               total        used        free      shared  buff/cache   available",
        f"Mem:            29Gi       {r.uniform(2, 14):.1f}Gi        {r.uniform(3, 20):.1f}Gi       "
        f"{r.randint(10, 400)}Mi       {r.uniform(2, 9):.1f}Gi        {r.uniform(10, 25):.1f}Gi",
        "Swap:           14Gi          0B        14Gi"])


def _ls(s: _S, path: str) -> str:
    r = s.r
    names = {"src": PACKAGES, "bags": ("warehouse_b_run1", "warehouse_b_run2", "warehouse_b_run3", "sim_regression_a",
                                       "sim_regression_b", "rosbag2_2024_11_21-10_02_44"),
             "log": ("latest", "latest_build", "latest_test", "build_" + s.date("%Y-%m-%d_%H-%M-%S"))}.get(path,
                 PACKAGES)
    out = [f"total {r.randint(20, 90)}", "drwxr-xr-x  14 root root 4096 " + s.date("%b %d %H:%M") + " .",
           "drwxr-xr-x   6 root root 4096 " + s.date("%b %d %H:%M") + " .."]
    out += [f"drwxr-xr-x {r.randint(2, 9):3d} root root {r.choice((4096, 4096, 12288))} {s.date('%b %d %H:%M')} {n}"
            for n in names]
    return "\n".join(out)


# --- Gazebo, rosbag, tf ------------------------------------------------------------------------------------------
WORLDS = ("warehouse_b.world", "narrow_aisle.world", "dock_area.world", "empty_floor.world", "ramp_test.world")


def _gazebo(s: _S, want: int, world: str, extra: Callable[[], list[str]] | None = None, at: float = 0.6) -> str:
    r = s.r
    gz, sp = f"gzserver-{1}", "spawn_entity.py-2"
    lines = ["[INFO] [launch]: All log files can be found below "
             f"/root/.ros/log/{s.date()}-{r.randrange(10 ** 6):06d}-amr-dev-{s.new_pid()}",
             "[INFO] [launch]: Default logging verbosity is set to INFO",
             f"[INFO] [{gz}]: process started with pid [{s.new_pid()}]",
             f"[INFO] [{sp}]: process started with pid [{s.new_pid()}]",
             f"[{gz}] Gazebo multi-robot simulator, version 11.10.2",
             f"[{gz}] Copyright (C) 2012 Open Source Robotics Foundation.",
             f"[{gz}] Released under the Apache 2 License.",
             f"[{gz}] http://gazebosim.org", f"[{gz}] ", f"[{gz}] [Msg] Waiting for master.",
             f"[{gz}] [Msg] Connected to gazebo master @ http://127.0.0.1:11345",
             f"[{gz}] [Msg] Publicized address: 172.17.0.{r.randint(2, 9)}",
             f"[{gz}] [Msg] Loading world file [{WS}/install/amr_sim/share/amr_sim/worlds/{world}]",
             f"[{sp}] [INFO] [{s.stamp()}] [spawn_entity]: Spawn Entity started",
             f"[{sp}] [INFO] [{s.stamp()}] [spawn_entity]: Loading entity published on topic robot_description",
             f"[{sp}] [INFO] [{s.stamp()}] [spawn_entity]: Waiting for service /spawn_entity",
             f"[{sp}] [INFO] [{s.stamp()}] [spawn_entity]: Calling service /spawn_entity",
             f"[{sp}] [INFO] [{s.stamp()}] [spawn_entity]: Spawn status: SpawnEntity: Successfully spawned entity "
             "[amr]",
             f"[INFO] [{sp}]: process has finished cleanly [pid {s.new_pid()}]",
             f"[{gz}] [INFO] [{s.stamp()}] [diff_drive]: Wheel pair 1 separation set to [0.410000m]",
             f"[{gz}] [INFO] [{s.stamp()}] [diff_drive]: Wheel pair 1 diameter set to [0.165000m]",
             f"[{gz}] [INFO] [{s.stamp()}] [diff_drive]: Subscribed to [/cmd_vel]",
             f"[{gz}] [INFO] [{s.stamp()}] [diff_drive]: Advertise odometry on [/odom]",
             f"[{gz}] [INFO] [{s.stamp()}] [diff_drive]: Publishing odom transforms between [odom] and "
             "[base_footprint]",
             f"[{gz}] [INFO] [{s.stamp()}] [gazebo_ros_ray_sensor]: Lidar plugin: publishing /scan as LaserScan"]

    def row() -> list[str]:
        k = r.randrange(9)
        if k == 0:
            return [f"[{gz}] [Wrn] [Event.cc:61] Warning: Deleting a connection right after creation. Make sure to "
                    "save the ConnectionPtr from a Connect call"]
        if k == 1:
            return [f"[{gz}] [Wrn] [Publisher.cc:135] Queue limit reached for topic /gazebo/default/pose/local/info, "
                    "deleting message. This warning is printed only once."]
        if k == 2:
            return [f"[{gz}] [Err] [REST.cc:205] Error in REST request", f"[{gz}] ",
                    f"[{gz}] libcurl: (6) Could not resolve host: api.ignitionrobotics.org"]
        if k == 3:
            return [f"[{gz}] [WARN] [{s.stamp()}] [gazebo_ros2_control]: Desired controller update period "
                    f"({r.choice(('0.01', '0.02'))} s) is slower than the gazebo simulation period (0.001 s)."]
        if k == 4:
            return [f"Factor[{s.even_digits(0.3, 1.0, 2)}] SimTime[{r.uniform(1, 900):.2f}] "
                    f"RealTime[{r.uniform(1, 1500):.2f}] Paused[F]"]
        if k == 5:
            return [f"[{gz}] [Dbg] [ODE.cc:{r.randint(300, 900)}] ODE {r.choice(('quick', 'world'))} step: contacts "
                    f"{r.randint(10, 400)}"]
        return [f"[{gz}] [INFO] [{s.stamp()}] [{r.choice(('diff_drive', 'gazebo_ros_ray_sensor', 'imu_plugin'))}]: "
                + r.choice(("publishing", "update rate 50.0 Hz", "Reset", "ray sensor updated",
                            f"odometry source: {r.choice(('encoder', 'world'))}"))]
    _fill(lines, int(min(want, 9000) * at), row)
    lines += extra() if extra else []
    _fill(lines, min(want, 9000), row)
    lines.append(f"[INFO] [{gz}]: sending signal 'SIGINT' to process[{gz}]")
    lines.append(f"[INFO] [{gz}]: process has finished cleanly [pid {s.new_pid()}]")
    return "\n".join(lines)


NOISE_BAGS = ("warehouse_b_run1", "warehouse_b_run2", "warehouse_b_run3", "sim_regression_a", "sim_regression_b",
              "rosbag2_2024_11_21-10_02_44")
BAG_TOPICS = (("/scan", "sensor_msgs/msg/LaserScan", 15), ("/odom", "nav_msgs/msg/Odometry", 50),
              ("/tf", "tf2_msgs/msg/TFMessage", 90), ("/tf_static", "tf2_msgs/msg/TFMessage", 0),
              ("/cmd_vel", "geometry_msgs/msg/Twist", 20), ("/motor_state", "amr_msgs/msg/MotorState", 50),
              ("/amcl_pose", "geometry_msgs/msg/PoseWithCovarianceStamped", 2), ("/diagnostics",
                                                                                 "diagnostic_msgs/msg/DiagnosticArray",
                                                                                 1),
              ("/imu/data", "sensor_msgs/msg/Imu", 100), ("/rosout", "rcl_interfaces/msg/Log", 3))


def _bag_info(s: _S, bag: str, duration: str | None = None) -> str:
    r = s.r
    dur = float(duration[:-1]) if duration else float(s.even_digits(60, 2400, 3))
    start = s.t - r.uniform(3600, 900000)
    storage = r.choice(("mcap", "sqlite3"))
    ext = "mcap" if storage == "mcap" else "db3"
    rows = []
    total = 0
    for t, ty, hz in BAG_TOPICS:
        c = 1 if hz == 0 else int(dur * hz * r.uniform(0.9, 1.0))
        total += c
        rows.append(f"Topic: {t} | Type: {ty} | Count: {c} | Serialization Format: cdr")
    st = time.strftime("%b %d %Y %H:%M:%S", time.gmtime(start + 9 * 3600))
    en = time.strftime("%b %d %Y %H:%M:%S", time.gmtime(start + dur + 9 * 3600))
    return "\n".join(["", f"Files:             {bag}/{bag}_0.{ext}", f"Bag size:          {r.uniform(0.2, 9):.1f} GiB",
                      f"Storage id:        {storage}", f"Duration:          {duration or f'{dur:.3f}s'}",
                      f"Start:             {st}.{r.randint(100, 999)} ({start:.3f})",
                      f"End:               {en}.{r.randint(100, 999)} ({start + dur:.3f})",
                      f"Messages:          {total}", "Topic information: " + rows[0]]
                     + ["                   " + x for x in rows[1:]] + [""])


def _bag_play(s: _S, want: int, bag: str) -> str:
    r = s.r
    ext = r.choice(("mcap", "db3"))
    lines = [f"[INFO] [{s.stamp()}] [rosbag2_storage]: Opened database 'bags/{bag}/{bag}_0.{ext}' for READ_ONLY.",
             f"[INFO] [{s.stamp()}] [rosbag2_player]: Set rate to {r.choice((1, 1, 0.5, 2))}",
             f"[INFO] [{s.stamp()}] [rosbag2_player]: Adding keyboard callbacks.",
             f"[INFO] [{s.stamp()}] [rosbag2_player]: Press SPACE for Pause/Resume",
             f"[INFO] [{s.stamp()}] [rosbag2_player]: Press CURSOR_RIGHT for Play Next Message",
             f"[INFO] [{s.stamp()}] [rosbag2_player]: Press CURSOR_UP for Increase Rate 10%",
             f"[INFO] [{s.stamp()}] [rosbag2_player]: Press CURSOR_DOWN for Decrease Rate 10%"]

    def row() -> list[str]:
        return [r.choice((
            f"[WARN] [{s.stamp(0.5, 20)}] [rosbag2_player]: Message on /tf_static is older than the playback start",
            f"[INFO] [{s.stamp(0.5, 20)}] [rosbag2_player]: Playback {r.choice(('paused', 'resumed'))}",
            f"[amcl] [WARN] [{s.stamp(0.5, 20)}]: Message Filter dropping message: frame 'laser_link' at time "
            f"{s.stamp()[:-6]} for reason 'discarding message because the queue is full'",
            f"[WARN] [{s.stamp(0.5, 20)}] [rosbag2_player]: Timestamp of message on /odom jumped backwards"))]
    _fill(lines, min(want, 2500), row)
    lines.append(f"[INFO] [{s.stamp()}] [rosbag2_player]: Playback until timestamp: -1 finished")
    return "\n".join(lines)


def _bag_record(s: _S, bag: str, topics: list[str], extra: list[str] | None = None) -> str:
    r = s.r
    ext = r.choice(("mcap", "db3"))
    lines = [f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Press SPACE for pausing/resuming",
             f"[INFO] [{s.stamp()}] [rosbag2_storage]: Opened database 'bags/{bag}/{bag}_0.{ext}' for READ_WRITE.",
             f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Listening for topics...",
             f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Event publisher thread: Starting"]
    lines += [f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Subscribed to topic '{t}'" for t in topics]
    lines += extra or []
    lines += [f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Recording...",
              f"[INFO] [{s.stamp(20, 400)}] [rosbag2_cpp]: Writing remaining messages from cache to the bag. "
              "It may take a while", f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Event publisher thread: Exiting",
              f"[INFO] [{s.stamp()}] [rosbag2_recorder]: Recording stopped"]
    return "\n".join(lines)


def _tf2_echo(s: _S, want: int, src: str, dst: str, extrapolation: bool = False) -> str:
    r = s.r
    lines = [f"[INFO] [{s.stamp()}] [tf2_echo]: Waiting for transform {src} ->  {dst}: Invalid frame ID \"{src}\" "
             "passed to canTransform argument target_frame - frame does not exist"]

    def block() -> list[str]:
        x, y, yaw = r.uniform(-3, 35), r.uniform(-3, 20), r.uniform(-3.1, 3.1)
        out = [f"At time {s.stamp(0.9, 1.1)}", f"- Translation: [{x:.3f}, {y:.3f}, 0.000]",
               f"- Rotation: in Quaternion [0.000, 0.000, {r.uniform(-1, 1):.3f}, {r.uniform(0, 1):.3f}]",
               f"- Rotation: in RPY (radian) [0.000, -0.000, {yaw:.3f}]",
               f"- Rotation: in RPY (degree) [0.000, -0.000, {yaw * 57.29578:.3f}]", "- Matrix:",
               f"  {r.uniform(-1, 1):.3f} {r.uniform(-1, 1):.3f}  0.000 {x:.3f}",
               f"  {r.uniform(-1, 1):.3f} {r.uniform(-1, 1):.3f}  0.000 {y:.3f}", "  0.000  0.000  1.000  0.000",
               "  0.000  0.000  0.000  1.000"]
        if extrapolation and r.random() < 0.3:
            t = s.stamp()
            out.append(f"[WARN] [{t}] [tf2_echo]: Lookup would require extrapolation into the future.  Requested "
                       f"time {t[:-3]} but the latest data is at time {float(t) - r.uniform(0.01, 0.3):.6f}, when "
                       f"looking up transform from frame [{dst}] to frame [{src}]")
        return out
    _fill(lines, min(want, 4500), block)
    return "\n".join(lines)


def _tf2_monitor(s: _S, planted: tuple[str, str] | None = None) -> str:
    r = s.r
    frames = ["base_footprint", "base_link", "laser_link", "imu_link", "odom", "left_wheel_link", "right_wheel_link"]
    out = ["Gathering data on all frames for 10 seconds...", "", "", "RESULTS: for all Frames", "", "Frames:"]
    for f in frames:
        if planted and planted[0] == f:
            out.append(f"Frame: {f}, published by <no authority available>, Average Delay: "
                       f"{float(planted[1].split(': ')[1]) * r.uniform(0.3, 0.6):.4f}, {planted[1]}")
        else:
            out.append(f"Frame: {f}, published by <no authority available>, Average Delay: {r.uniform(0, 0.01):.4f}, "
                       f"Max Delay: {s.even_digits(0.0, 0.04, 4)}")
    out += ["", "All Broadcasters:",
            f"Node: <no authority available> {r.uniform(40, 100):.1f} Hz, Average Delay: {r.uniform(0, 0.01):.4f} "
            f"Max Delay: {s.even_digits(0.0, 0.05, 4)}"]
    return "\n".join(out)


# --- files the agent reads ---------------------------------------------------------------------------------------
DEPENDS = {
    "amr_base": ("rclcpp", "nav_msgs", "geometry_msgs", "tf2_ros", "tf2_geometry_msgs", "amr_msgs", "amr_can_bridge"),
    "amr_can_bridge": ("rclcpp", "amr_msgs", "can_msgs", "diagnostic_updater"),
    "lumos_lidar_ros2": ("rclcpp", "sensor_msgs", "diagnostic_updater", "std_srvs"),
    "amr_safety": ("rclcpp", "sensor_msgs", "geometry_msgs", "std_msgs", "nav2_msgs"),
    "amr_localization_tools": ("rclcpp", "geometry_msgs", "nav_msgs", "tf2_ros", "message_filters"),
    "amr_navigation": ("rclcpp", "behaviortree_cpp_v3", "nav2_behavior_tree", "sensor_msgs"),
}


def _package_xml(s: _S, pkg: str) -> str:
    deps = DEPENDS.get(pkg, ("rclpy", "launch", "launch_ros", "nav2_bringup", "xacro"))
    cpp = pkg in CPP_PACKAGES
    out = ['<?xml version="1.0"?>',
           '<?xml-model href="http://download.ros.org/schema/package_format3.xsd" '
           'schematypens="http://www.w3.org/2001/XMLSchema"?>', '<package format="3">', f"  <name>{pkg}</name>",
           f"  <version>0.{s.r.randint(2, 9)}.{s.r.randint(0, 12)}</version>",
           f"  <description>{pkg.replace('_', ' ')} for the Naniwa AMR</description>",
           '  <maintainer email="dev@naniwa-robotics.jp">Naniwa Robotics dev team</maintainer>',
           "  <license>Proprietary</license>", "",
           f"  <buildtool_depend>{'ament_cmake' if cpp else 'ament_python'}</buildtool_depend>", ""]
    out += [f"  <depend>{d}</depend>" for d in deps]
    if not cpp:
        out += ["  <exec_depend>robot_state_publisher</exec_depend>", "  <exec_depend>lumos_lidar_ros2</exec_depend>"]
    out += ["", "  <test_depend>ament_lint_auto</test_depend>", "  <test_depend>ament_lint_common</test_depend>"]
    out += [f"  <test_depend>{'ament_cmake_gtest' if cpp else 'python3-pytest'}</test_depend>"]
    out += ["", "  <export>", f"    <build_type>{'ament_cmake' if cpp else 'ament_python'}</build_type>", "  </export>",
            "</package>"]
    return "\n".join(out)


def _cmakelists(s: _S, pkg: str) -> str:
    deps = DEPENDS.get(pkg, ("rclcpp",))
    srcs = [f for f in SOURCES.get(pkg, ("src/main.cpp",)) if f.endswith(".cpp")]
    exe = pkg.replace("amr_", "") + "_node"
    out = ["cmake_minimum_required(VERSION 3.8)", f"project({pkg})", "",
           'if(CMAKE_COMPILER_IS_GNUCXX OR CMAKE_CXX_COMPILER_ID MATCHES "Clang")',
           "  add_compile_options(-Wall -Wextra -Wpedantic)", "endif()", "", "set(CMAKE_CXX_STANDARD 17)", "",
           "find_package(ament_cmake REQUIRED)"]
    out += [f"find_package({d} REQUIRED)" for d in deps]
    out += ["", f"add_library({pkg}_core SHARED", *[f"  {x}" for x in srcs[1:] or srcs], ")",
            f"target_include_directories({pkg}_core PUBLIC",
            "  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>", "  $<INSTALL_INTERFACE:include>)",
            f"ament_target_dependencies({pkg}_core {' '.join(deps)})", "", f"add_executable({exe} {srcs[0]})",
            f"target_link_libraries({exe} {pkg}_core)", "", f"install(TARGETS {pkg}_core {exe}",
            f"  EXPORT export_{pkg}", "  ARCHIVE DESTINATION lib", "  LIBRARY DESTINATION lib",
            "  RUNTIME DESTINATION lib/${PROJECT_NAME})", "install(DIRECTORY include/ DESTINATION include)",
            "install(DIRECTORY config launch DESTINATION share/${PROJECT_NAME} OPTIONAL)", "",
            "if(BUILD_TESTING)", "  find_package(ament_lint_auto REQUIRED)",
            "  find_package(ament_cmake_gtest REQUIRED)",
            "  set(ament_cmake_copyright_FOUND TRUE)", "  ament_lint_auto_find_test_dependencies()",
            f"  ament_add_gtest(test_{pkg.split('_')[-1]} test/test_{pkg.split('_')[-1]}.cpp)",
            f"  target_link_libraries(test_{pkg.split('_')[-1]} {pkg}_core)", "endif()", "",
            f"ament_export_targets(export_{pkg} HAS_LIBRARY_TARGET)", f"ament_export_dependencies({' '.join(deps)})",
            "ament_package()"]
    return "\n".join(out)


def _nav2_sections(s: _S) -> dict[str, list[str]]:
    r = s.r
    ctrl = r.choice(CONTROLLERS)
    follow = [f"      plugin: \"{ctrl}\""]
    if "DWB" in ctrl:
        follow += ["      debug_trajectory_details: True", "      min_vel_x: 0.0",
                   f"      max_vel_x: {r.choice(('0.5', '0.6', '0.7'))}",
                   "      max_vel_theta: 1.0", "      min_speed_xy: 0.0", "      acc_lim_x: 1.0",
                   "      decel_lim_x: -1.0",
                   "      vx_samples: 20", "      vtheta_samples: 20", "      sim_time: 1.7",
                   "      critics: [\"RotateToGoal\", \"Oscillation\", \"BaseObstacle\", \"GoalAlign\", \"PathAlign\", "
                   "\"PathDist\", \"GoalDist\"]", "      BaseObstacle.scale: 0.02", "      PathAlign.scale: 32.0",
                   "      GoalAlign.scale: 24.0", "      PathDist.scale: 32.0", "      GoalDist.scale: 24.0"]
    elif "Pure" in ctrl:
        follow += [f"      desired_linear_vel: {r.choice(('0.5', '0.6', '0.8'))}", "      lookahead_dist: 0.6",
                   "      min_lookahead_dist: 0.3", "      max_lookahead_dist: 0.9", "      lookahead_time: 1.5",
                   "      rotate_to_heading_angular_vel: 1.8", "      use_velocity_scaled_lookahead_dist: false",
                   "      use_collision_detection: true", "      max_allowed_time_to_collision_up_to_carrot: 1.0",
                   "      use_regulated_linear_velocity_scaling: true",
                   "      regulated_linear_scaling_min_radius: 0.9",
                   "      allow_reversing: false"]
    else:
        follow += ["      time_steps: 56", "      model_dt: 0.05", "      batch_size: 2000", "      vx_std: 0.2",
                   "      wz_std: 0.4", f"      vx_max: {r.choice(('0.5', '0.6'))}", "      vx_min: -0.35",
                   "      iteration_count: 1", "      temperature: 0.3", "      motion_model: \"DiffDrive\"",
                   "      critics: [\"ConstraintCritic\", \"ObstaclesCritic\", \"GoalCritic\", \"GoalAngleCritic\", "
                   "\"PathAlignCritic\", \"PathFollowCritic\", \"PathAngleCritic\", \"PreferForwardCritic\"]"]

    def costmap(name: str, glob: bool) -> list[str]:
        out = [f"    update_frequency: {r.choice(('1.0', '5.0'))}",
               f"    publish_frequency: {r.choice(('1.0', '2.0'))}",
               f"    global_frame: {'map' if glob else 'odom'}", "    robot_base_frame: base_link",
               f"    rolling_window: {'false' if glob else 'true'}", "    resolution: 0.05",
               "    footprint: \"[[0.42, 0.31], [0.42, -0.31], [-0.42, -0.31], [-0.42, 0.31]]\"",
               "    plugins: [" + ('"static_layer", ' if glob else "") + '"obstacle_layer", "inflation_layer"]',
               "    obstacle_layer:", "      plugin: \"nav2_costmap_2d::ObstacleLayer\"", "      enabled: True",
               "      observation_sources: scan", "      scan:", "        topic: /scan",
               "        max_obstacle_height: 2.0", "        clearing: True", "        marking: True",
               "        data_type: \"LaserScan\"", f"        raytrace_max_range: {r.choice(('8.0', '10.0'))}",
               f"        obstacle_max_range: {r.choice(('6.0', '7.5'))}", "    inflation_layer:",
               "      plugin: \"nav2_costmap_2d::InflationLayer\"",
               f"      cost_scaling_factor: {r.choice(('3.0', '4.0', '5.0'))}",
               f"      inflation_radius: {r.choice(('0.45', '0.55', '0.7'))}", "    always_send_full_costmap: True"]
        return [f"{name}:", f"  {name}:", "    ros__parameters:"] + ["  " + x for x in out]
    return {
        "amcl": ["amcl:", "  ros__parameters:", "    use_sim_time: False",
                 f"    alpha1: {r.choice(('0.2', '0.15', '0.1'))}",
                 f"    alpha2: {r.choice(('0.2', '0.1'))}", "    alpha3: 0.2", "    alpha4: 0.2", "    alpha5: 0.2",
                 "    base_frame_id: \"base_footprint\"", "    beam_skip_distance: 0.5", "    do_beamskip: false",
                 "    global_frame_id: \"map\"", "    laser_likelihood_max_dist: 2.0",
                 f"    laser_max_range: {r.choice(('20.0', '25.0', '-1.0'))}",
                 "    laser_model_type: \"likelihood_field\"",
                 f"    max_beams: {r.choice((60, 120, 180))}", f"    max_particles: {r.choice((2000, 3000, 5000))}",
                 "    min_particles: 500", "    odom_frame_id: \"odom\"", "    resample_interval: 1",
                 "    robot_model_type: \"nav2_amcl::DifferentialMotionModel\"", "    save_pose_rate: 0.5",
                 "    sigma_hit: 0.2", "    tf_broadcast: true", f"    transform_tolerance: {r.choice(('0.5', '1.0'))}",
                 f"    update_min_a: {r.choice(('0.2', '0.1'))}", f"    update_min_d: {r.choice(('0.25', '0.1'))}",
                 "    z_hit: 0.5", "    z_max: 0.05", "    z_rand: 0.5", "    z_short: 0.05", "    scan_topic: scan"],
        "controller_server": ["controller_server:", "  ros__parameters:", "    use_sim_time: False",
                              f"    controller_frequency: {r.choice(('10.0', '20.0'))}",
                              "    min_x_velocity_threshold: 0.001", "    min_theta_velocity_threshold: 0.001",
                              "    failure_tolerance: 0.3", "    progress_checker_plugin: \"progress_checker\"",
                              "    goal_checker_plugins: [\"general_goal_checker\"]",
                              "    controller_plugins: [\"FollowPath\"]", "    progress_checker:",
                              "      plugin: \"nav2_controller::SimpleProgressChecker\"",
                              "      required_movement_radius: 0.5", "      movement_time_allowance: 10.0",
                              "    general_goal_checker:", "      stateful: True",
                              "      plugin: \"nav2_controller::SimpleGoalChecker\"",
                              f"      xy_goal_tolerance: {r.choice(('0.25', '0.1', '0.2'))}",
                              "      yaw_goal_tolerance: 0.25", "    FollowPath:"] + follow,
        "local_costmap": costmap("local_costmap", False),
        "global_costmap": costmap("global_costmap", True),
        "planner_server": ["planner_server:", "  ros__parameters:", "    expected_planner_frequency: 20.0",
                           "    planner_plugins: [\"GridBased\"]", "    GridBased:",
                           f"      plugin: \"{r.choice(PLANNERS)}\"", "      tolerance: 0.5", "      use_astar: false",
                           "      allow_unknown: true"],
        "velocity_smoother": ["velocity_smoother:", "  ros__parameters:", "    smoothing_frequency: 20.0",
                              "    scale_velocities: False", "    feedback: \"OPEN_LOOP\"",
                              f"    max_velocity: [{r.choice(('0.5', '0.6', '0.7'))}, 0.0, 1.0]",
                              "    min_velocity: [-0.35, 0.0, -1.0]", "    max_accel: [1.0, 0.0, 2.5]",
                              "    max_decel: [-1.0, 0.0, -2.5]", "    odom_topic: \"odom\"", "    odom_duration: 0.1",
                              "    deadband_velocity: [0.0, 0.0, 0.0]", "    velocity_timeout: 1.0"],
        "bt_navigator": ["bt_navigator:", "  ros__parameters:", "    global_frame: map",
                         "    robot_base_frame: base_link",
                         "    odom_topic: /odom", "    bt_loop_duration: 10", "    default_server_timeout: 20",
                         "    default_nav_to_pose_bt_xml: $(find-pkg-share amr_navigation)/behavior_trees/"
                         "navigate_w_recovery.xml", "    plugin_lib_names:",
                         "    - nav2_compute_path_to_pose_action_bt_node",
                         "    - nav2_follow_path_action_bt_node", "    - nav2_spin_action_bt_node",
                         "    - nav2_back_up_action_bt_node", "    - nav2_clear_costmap_service_bt_node",
                         "    - nav2_rate_controller_bt_node", "    - nav2_recovery_node_bt_node",
                         "    - amr_is_battery_low_bt_node", "    - amr_wait_for_dock_bt_node"],
    }


def _nav2_yaml(s: _S, want: int) -> str:
    secs = _nav2_sections(s)
    order = list(secs)
    lines = []
    for k in order:
        lines += secs[k] + [""]
        if sum(len(x) + 1 for x in lines) > want * 1.2:
            break
    return "\n".join(lines)


def _param_dump(s: _S, node: str) -> str:
    secs = _nav2_sections(s)
    body = secs.get(node.strip("/").split("/")[-1], secs["amcl"])
    lines = [f"/{node.strip('/')}:"] + body[1:]
    return "\n".join(lines)


CPP_BODIES = (
    ("  if (!frame_ok(frame)) {",
     "    RCLCPP_WARN_THROTTLE(get_logger(), *get_clock(), 2000, \"dropping malformed frame 0x%03x\", frame.can_id);",
     "    return;", "  }", "  const auto now = get_clock()->now();", "  last_rx_ = now;"),
    ("  std::lock_guard<std::mutex> lock(mutex_);", "  const double dt = (stamp - last_stamp_).seconds();",
     "  if (dt <= 0.0 || dt > 0.5) {", "    last_stamp_ = stamp;", "    return;", "  }",
     "  const double ds = 0.5 * (left + right) * wheel_radius_;",
     "  const double dtheta = (right - left) * wheel_radius_ / wheel_separation_;",
     "  x_ += ds * std::cos(theta_ + 0.5 * dtheta);", "  y_ += ds * std::sin(theta_ + 0.5 * dtheta);",
     "  theta_ = angles::normalize_angle(theta_ + dtheta);", "  last_stamp_ = stamp;"),
    ("  auto msg = std::make_unique<sensor_msgs::msg::LaserScan>();", "  msg->header.stamp = stamp_from_packet(pkt);",
     "  msg->header.frame_id = frame_id_;", "  msg->angle_min = -M_PI;", "  msg->angle_max = M_PI;",
     "  msg->angle_increment = 2.0 * M_PI / static_cast<double>(pkt.points.size());",
     "  msg->range_min = 0.05f;", "  msg->range_max = range_max_;",
     "  msg->ranges.reserve(pkt.points.size());", "  for (const auto & p : pkt.points) {",
     "    msg->ranges.push_back(p.valid ? p.range_m : std::numeric_limits<float>::infinity());", "  }",
     "  scan_pub_->publish(std::move(msg));"),
    ("  const double v = std::clamp(cmd->linear.x, -max_vel_, max_vel_);",
     "  const double w = std::clamp(cmd->angular.z, -max_omega_, max_omega_);",
     "  const double left = (v - 0.5 * w * wheel_separation_) / wheel_radius_;",
     "  const double right = (v + 0.5 * w * wheel_separation_) / wheel_radius_;",
     "  bridge_->send_velocity(kLeftNode, to_rpm(left));", "  bridge_->send_velocity(kRightNode, -to_rpm(right));",
     "  last_cmd_ = get_clock()->now();"),
    ("  if (!scan || scan->ranges.empty()) {", "    return BT::NodeStatus::FAILURE;", "  }",
     "  const auto it = std::min_element(scan->ranges.begin(), scan->ranges.end());",
     "  if (*it < protective_range_) {", "    publish_limit(0.0);", "    return BT::NodeStatus::RUNNING;", "  }",
     "  publish_limit(warning_limit_);", "  return BT::NodeStatus::SUCCESS;"),
    ("  uint8_t data[8] = {0x23, static_cast<uint8_t>(index & 0xff), static_cast<uint8_t>(index >> 8), sub, 0, 0, 0, "
     "0};",
     "  std::memcpy(&data[4], &value, sizeof(value));", "  can_frame f{};", "  f.can_id = 0x600 + node_id_;",
     "  f.can_dlc = 8;", "  std::memcpy(f.data, data, 8);", "  if (::write(sock_, &f, sizeof(f)) != sizeof(f)) {",
     "    RCLCPP_ERROR(logger_, \"SDO write 0x%04x:%02x failed: %s\", index, sub, std::strerror(errno));",
     "    return false;", "  }", "  return wait_for_sdo_ack(index, sub, std::chrono::milliseconds(100));"),
)
INCLUDES = ("#include <algorithm>", "#include <chrono>", "#include <cmath>", "#include <cstring>", "#include <memory>",
            "#include <mutex>", "#include <string>", "#include <vector>", "#include <rclcpp/rclcpp.hpp>",
            "#include <sensor_msgs/msg/laser_scan.hpp>", "#include <nav_msgs/msg/odometry.hpp>",
            "#include <geometry_msgs/msg/twist.hpp>", "#include <tf2_ros/transform_broadcaster.h>",
            "#include <linux/can.h>", "#include <linux/can/raw.h>", "#include <sys/socket.h>",
            "#include <angles/angles.h>", "#include <behaviortree_cpp_v3/action_node.h>")


def _cpp(s: _S, pkg: str, path: str, want: int) -> str:
    r = s.r
    ns = pkg if pkg != "lumos_lidar_ros2" else "lumos"
    cls = "".join(w.capitalize() for w in path.rsplit("/", 1)[-1].split(".")[0].split("_"))
    out = ["// Copyright 2024 Naniwa Robotics", "// SPDX-License-Identifier: LicenseRef-Proprietary", ""]
    if path.endswith(".hpp"):
        out += ["#pragma once", ""]
    else:
        out += [f"#include \"{pkg}/{path.rsplit('/', 1)[-1].replace('.cpp', '.hpp')}\"", ""]
    out += sorted(r.sample(INCLUDES, r.randint(5, 10))) + ["", f"namespace {ns}", "{", ""]
    if r.random() < 0.5:
        out += ["namespace", "{", f"constexpr double kMaxRpm = {r.choice((3000.0, 3500.0, 4200.0))};",
                "constexpr int kLeftNode = 0x21;", "constexpr int kRightNode = 0x22;", "}  // namespace", ""]
    methods = ("onFrame", "update", "publishScan", "onCmdVel", "tick", "writeSdo", "onTimer", "reset", "configure",
               "onHeartbeat", "checkTimeouts", "publishDiagnostics")

    def method() -> list[str]:
        body = r.choice(CPP_BODIES)
        m = r.choice(methods)
        params = r.choice(("", "const rclcpp::Time & stamp", "const can_frame & frame", "double left, double right"))
        return [f"void {cls}::{m}({params})",
                "{"] + list(body) + ["}", ""]
    _fill(out, min(want, 7000), method)
    out += [f"}}  // namespace {ns}", ""]
    return "\n".join(out)


def _launch_py(s: _S, name: str) -> str:
    r = s.r
    out = ["import os", "", "from ament_index_python.packages import get_package_share_directory",
           "from launch import LaunchDescription",
           "from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, TimerAction",
           "from launch.conditions import IfCondition",
           "from launch.launch_description_sources import PythonLaunchDescriptionSource",
           "from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution",
           "from launch_ros.actions import Node", "from launch_ros.substitutions import FindPackageShare", "", "",
           "def generate_launch_description():",
           "    bringup_dir = get_package_share_directory('amr_bringup')",
           "    use_sim_time = LaunchConfiguration('use_sim_time')",
           "    params_file = LaunchConfiguration('params_file')",
           "    robot_description = Command(['xacro ', PathJoinSubstitution(",
           "        [FindPackageShare('amr_description'), 'urdf', 'amr.urdf.xacro'])])", "",
           "    declare = [", "        DeclareLaunchArgument('use_sim_time', default_value='false'),",
           "        DeclareLaunchArgument(", "            'params_file',",
           "            default_value=os.path.join(bringup_dir, 'config', 'nav2_params.yaml')),",
           "        DeclareLaunchArgument('lidar_port', default_value='/dev/lumos_lidar'),",
           f"        DeclareLaunchArgument('with_nav', default_value='{r.choice(('true', 'false'))}'),", "    ]", "",
           "    rsp = Node(", "        package='robot_state_publisher',", "        executable='robot_state_publisher',",
           "        parameters=[{'robot_description': robot_description, 'use_sim_time': use_sim_time}],",
           "        output='screen')", "",
           "    lidar = Node(", "        package='lumos_lidar_ros2',", "        executable='lumos_driver',",
           "        name='lumos_lidar',", "        parameters=[os.path.join(bringup_dir, 'config', 'lidar.yaml'),",
           "                    {'port': LaunchConfiguration('lidar_port')}],",
           f"        respawn={r.choice(('True', 'False'))},", "        respawn_delay=2.0,", "        output='screen')",
           "",
           "    can = Node(", "        package='amr_can_bridge',", "        executable='can_bridge_node',",
           "        name='can_bridge',", "        parameters=[os.path.join(bringup_dir, 'config', 'can.yaml')],",
           "        output='screen')", "", "    base = Node(", "        package='amr_base',",
           "        executable='base_node',", "        name='amr_base',",
           "        parameters=[os.path.join(bringup_dir, 'config', 'base.yaml'), {'use_sim_time': use_sim_time}],",
           "        remappings=[('cmd_vel', 'cmd_vel_safe')],", "        output='screen')", "",
           "    nav = IncludeLaunchDescription(", "        PythonLaunchDescriptionSource(os.path.join(",
           "            get_package_share_directory('amr_navigation'), 'launch', 'navigation.launch.py')),",
           "        condition=IfCondition(LaunchConfiguration('with_nav')),",
           "        launch_arguments={'params_file': params_file, 'use_sim_time': use_sim_time}.items())", "",
           "    return LaunchDescription(declare + [rsp, lidar, can, base, "
           f"TimerAction(period={r.choice(('2.0', '3.0', '5.0'))}, actions=[nav])])", ""]
    if "sim" in name:
        out = [x.replace("'false'", "'true'", 1) for x in out]
    return "\n".join(out)


def _xacro(s: _S) -> str:
    r = s.r
    sep, rad = r.choice(("0.41", "0.412", "0.405")), r.choice(("0.0825", "0.083"))
    return "\n".join([
        '<?xml version="1.0"?>', '<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="amr">',
        f'  <xacro:property name="wheel_separation" value="{sep}"/>',
        f'  <xacro:property name="wheel_radius" value="{rad}"/>', '  <xacro:property name="base_length" value="0.84"/>',
        '  <xacro:property name="base_width" value="0.62"/>',
        '  <xacro:include filename="$(find amr_description)/urdf/wheels.xacro"/>',
        '  <xacro:include filename="$(find amr_description)/urdf/lidar.xacro"/>', "",
        '  <link name="base_footprint"/>', '  <link name="base_link">', "    <visual>",
        '      <geometry><mesh filename="package://amr_description/meshes/base.dae"/></geometry>', "    </visual>",
        "    <collision>", '      <geometry><box size="${base_length} ${base_width} 0.32"/></geometry>',
        "    </collision>",
        "    <inertial>", f'      <mass value="{r.choice((48.0, 52.5, 61.0))}"/>',
        '      <inertia ixx="1.2" ixy="0" ixz="0" iyy="2.1" iyz="0" izz="2.9"/>', "    </inertial>", "  </link>",
        '  <joint name="base_joint" type="fixed">', '    <parent link="base_footprint"/>',
        '    <child link="base_link"/>',
        f'    <origin xyz="0 0 {r.choice(("0.09", "0.095", "0.1"))}" rpy="0 0 0"/>', "  </joint>", "",
        '  <xacro:wheel prefix="left" reflect="1"/>', '  <xacro:wheel prefix="right" reflect="-1"/>',
        f'  <xacro:lumos_lidar parent="base_link" xyz="{r.choice(("0.36", "0.38"))} 0 0.24" rpy="0 0 '
        f'{r.choice(("0", "3.14159"))}"/>',
        "", '  <gazebo>', '    <plugin name="diff_drive" filename="libgazebo_ros_diff_drive.so">',
        "      <left_joint>left_wheel_joint</left_joint>", "      <right_joint>right_wheel_joint</right_joint>",
        "      <wheel_separation>${wheel_separation}</wheel_separation>",
        "      <wheel_diameter>${2*wheel_radius}</wheel_diameter>", "      <max_wheel_torque>40</max_wheel_torque>",
        "      <publish_odom>true</publish_odom>", "      <publish_odom_tf>true</publish_odom_tf>",
        "      <odometry_frame>odom</odometry_frame>", "      <robot_base_frame>base_footprint</robot_base_frame>",
        "    </plugin>", "  </gazebo>", "</robot>"])


def _misc_file(s: _S, which: str) -> str:
    r = s.r
    if which == "lidar.yaml":
        return "\n".join(["lumos_lidar:", "  ros__parameters:", "    port: /dev/lumos_lidar", "    baudrate: 460800",
                          "    frame_id: laser_link", f"    scan_frequency: {r.choice((10.0, 12.0, 15.0))}",
                          f"    angle_min_deg: {r.choice((-180.0, -135.0))}",
                          f"    angle_max_deg: {r.choice((180.0, 135.0))}",
                          "    range_max: 25.0", "    use_intensity: false", "    qos_reliability: best_effort",
                          "    diagnostics_period: 1.0"])
    if which == "can.yaml":
        return "\n".join(["can_bridge:", "  ros__parameters:", "    interface: can0", "    node_ids: [33, 34]",
                          "    sync_period_ms: 10", f"    heartbeat_timeout_ms: {r.choice((150, 200, 300))}",
                          "    velocity_mode: profile_velocity", "    max_rpm: 3500", "    publish_motor_state: true",
                          "    motor_state_rate: 50.0", "    sdo_timeout_ms: 100"])
    if which == "Dockerfile":
        return "\n".join(["FROM osrf/ros:humble-desktop", "", "ARG DEBIAN_FRONTEND=noninteractive",
                          "RUN apt-get update && apt-get install -y --no-install-recommends \\"]
                         + [f"    {p} \\" for p in APT] + ["  && rm -rf /var/lib/apt/lists/*", "",
                          "ENV RMW_IMPLEMENTATION=rmw_cyclonedds_cpp", "ENV CCACHE_DIR=/ccache", "WORKDIR /ws",
                          "COPY src/ /ws/src/",
                          "RUN . /opt/ros/humble/setup.sh && colcon build --symlink-install "
                          "--cmake-args -DCMAKE_BUILD_TYPE=RelWithDebInfo",
                          "COPY docker/entrypoint.sh /entrypoint.sh", 'ENTRYPOINT ["/entrypoint.sh"]', 'CMD ["bash"]'])
    return "\n".join(['<root main_tree_to_execute="MainTree">', '  <BehaviorTree ID="MainTree">',
                      f'    <RecoveryNode number_of_retries="{r.choice((2, 4, 6))}" name="NavigateRecovery">',
                      '      <PipelineSequence name="NavigateWithReplanning">',
                      f'        <RateController hz="{r.choice(("1.0", "0.5", "2.0"))}">',
                      '          <ComputePathToPose goal="{goal}" path="{path}" planner_id="GridBased"/>',
                      "        </RateController>", '        <FollowPath path="{path}" controller_id="FollowPath"/>',
                      "      </PipelineSequence>", '      <ReactiveFallback name="RecoveryFallback">',
                      "        <GoalUpdated/>", '        <SequenceStar name="RecoveryActions">',
                      '          <ClearEntireCostmap name="ClearLocalCostmap" '
                      'service_name="local_costmap/clear_entirely_local_costmap"/>',
                      '          <Spin spin_dist="1.57"/>', '          <Wait wait_duration="5"/>',
                      '          <BackUp backup_dist="0.30" backup_speed="0.05"/>', "        </SequenceStar>",
                      "      </ReactiveFallback>", "    </RecoveryNode>", "  </BehaviorTree>", "</root>"])


# --- what the user pastes: other people's texts, their rules not the user's --------------------------------------
REGISTERS = (("0x6083:00", "Profile acceleration", "rpm/s", (800, 1000, 1200, 1500)),
             ("0x6084:00", "Profile deceleration", "rpm/s", (1000, 1500, 2000)),
             ("0x1017:00", "Producer heartbeat time", "ms", (50, 100, 200)),
             ("0x2110:01", "Undervoltage limit", "mV", (36000, 38000, 40000)),
             ("0x2110:02", "Overvoltage limit", "mV", (50000, 52000)),
             ("0x6073:00", "Max current", "mA (x 0.1 % rated)", (800, 1000, 1200)),
             ("0x2201:00", "Velocity loop Kp", "", (320, 400, 450)),
             ("0x2202:00", "Velocity loop Ki", "", (12, 18, 25)),
             ("0x605A:00", "Quick stop option code", "", (2, 6)))
SUPPLIER = ("Matthias Brandt", "Sabine Krüger", "Jürgen Wolf")
SURNAMES = ("Mori", "Fujita", "Okada", "Ishikawa", "Nishimura")


def _supplier_email(s: _S, surname: str) -> str:
    r = s.r
    who = r.choice(SUPPLIER)
    regs = r.sample(REGISTERS, r.randint(3, 5))
    reg_lines = [f"  {a}  {b} = {r.choice(v)}{(' ' + u) if u else ''}" for a, b, u, v in regs]
    paras = [
        r.choice((f"Hello {surname}-san,", f"Dear Mr. {surname},", f"Hallo Herr {surname},")),
        r.choice(("thank you for the candump logs and the scope pictures.",
                  "vielen Dank für Ihre Nachricht und die Logs. I answer in English so your team can read it.",
                  "sorry for the late reply, we had the Hannover fair this week.")),
        "Please set the following registers before your next test:\n" + "\n".join(reg_lines),
        r.choice(("Bitte beachten Sie: the supply voltage must never exceed 48 V, also not during regenerative "
                  "braking. Do not exceed 48 V, otherwise the drive latches an overvoltage fault (0x3210) and needs "
                  "a power cycle.",
                  "Achtung: do not exceed 48 V on the DC bus under any condition. With your 13S battery fully "
                  "charged you are already at 54.6 V, so please add a brake chopper or limit the charge voltage.",
                  "Wichtig: Do not exceed 48 V. Please install the braking resistor (KBR-100) before driving down "
                  "the ramp at the customer site.")),
        r.choice(("Please update the firmware only with our tool KDM-Config 4.2 or newer. Do not flash through the "
                  "CANopen bootloader directly, this can brick the unit.",
                  "Always configure a consumer heartbeat (0x1016) on the master side, otherwise the drive cannot "
                  "detect a lost master and keeps the last velocity.",
                  "Make sure the bus is terminated with 120 Ohm at both ends; in your scope picture we see "
                  "reflections. Never run the bus unterminated above 250 kbit/s.")),
        r.choice(("If the fault persists, send us the EDS dump (object 0x1018) and the error history (0x1003).",
                  "Bei weiteren Fragen stehe ich Ihnen gerne zur Verfügung.",
                  "Please do not open the housing, otherwise the warranty is void.")),
        f"Mit freundlichen Grüßen / Best regards\n{who}\nApplikationsingenieur\nKessler Antriebstechnik GmbH · "
        f"Industriestr. 14 · 72764 Reutlingen\nTel. +49 7121 {r.randint(100000, 999999)}",
    ]
    subject = r.choice(("AW: KDM-48 / CAN timeouts on AMR", "AW: AW: Overvoltage fault 0x3210",
                        "RE: Register settings for profile velocity mode", "AW: Heartbeat configuration KDM-48"))
    mail = f"{who.split()[0][0].lower()}.{who.split()[1].lower().replace('ü', 'ue')}@kessler-antriebe.de"
    head = f"From: {who} <{mail}>\n" \
           f"Subject: {subject}\n"
    return head + "\n" + "\n\n".join(paras)


SAT_ITEMS = (
    "Robot shall complete {n} consecutive pick-up/drop-off cycles without operator intervention.",
    "Localization error must stay below {c} cm at every docking station.",
    "Robot must stop before contact when an obstacle appears {d} m ahead at maximum speed.",
    "Maximum speed in pedestrian aisles shall not exceed {v} m/s.",
    "Supplier must provide rosbag recordings of all SAT runs within 3 working days.",
    "Emergency stop must bring the robot to standstill within {t} s; test at all four e-stop buttons.",
    "Robot shall resume the mission automatically after the e-stop is released and reset.",
    "Battery must last one full {h}-hour shift including charging breaks.",
    "Do not use the customer Wi-Fi for software updates; use the supplier LTE router only.",
    "No software changes are allowed on the day of the SAT.",
    "Docking accuracy: ±{c} cm laterally, ±2° heading, {n} of {n} successful dockings.",
    "All error messages shown on the HMI must be in Japanese.",
    "Robot must pass through the 1.{w} m aisle between rack 14 and 15 without slowing below 0.3 m/s.",
)


def _sat_checklist(s: _S) -> str:
    r = s.r
    items = r.sample(SAT_ITEMS, r.randint(7, 11))
    vals = {"n": r.choice((30, 50, 100)), "c": r.choice((2, 3, 5)), "d": r.choice(("1.2", "1.5")),
            "v": r.choice(("1.0", "1.2")), "t": r.choice(("0.5", "0.8")), "h": r.choice((8, 10)),
            "w": r.choice((1, 2, 4))}
    lines = [r.choice(("HANSHIN LOGISTICS — Site Acceptance Test (SAT) — AMR fleet, Amagasaki DC",
                       "Site Acceptance Test checklist / 受入検査チェックリスト — Hanshin Logistics Amagasaki DC")),
             f"Rev. {r.choice('BCDE')} (customer copy) — supplier: Naniwa Robotics", ""]
    lines += [f"[ ] {i}. {t.format(**vals)}" for i, t in enumerate(items, 1)]
    lines += ["", r.choice(("Supplier must sign every item. Items not passed must be re-tested within 5 working days.",
                            "All items must be passed on the same day. Please bring two spare robots.")),
              "Sign-off: ____________  (Hanshin Logistics)   ____________  (Naniwa Robotics)"]
    return "\n".join(lines)


MEMO_ITEMS = {
    "estop": "All motion tests on real robots must be conducted with the physical emergency stop within reach of "
             "the operator.",
    "tower": "The mast light tower must flash amber during autonomous motion and red while the e-stop is pressed.",
    "speed": "Maximum speed in mixed-traffic zones shall not exceed {v} m/s.",
    "fields": "Safety-rated scanner fields shall only be modified by certified personnel and must be re-validated "
              "after every change.",
    "charging": "Lead-acid batteries must be charged in the ventilated charging room only.",
    "two": "Tests above walking speed require two people: one operator and one observer.",
    "log": "Every test with a real robot must be entered in the test logbook with date, robot and software version.",
    "bumper": "The mechanical bumper must be checked before every shift (press test on all four corners).",
}


def _memo(s: _S, keys: list[str], v: str = "") -> str:
    r = s.r
    v = v or r.choice(("0.8", "1.0", "1.2"))
    lines = ["MEMO — Safety", f"From: {r.choice(('T. Nakamura', 'K. Yoshida'))} (Safety Officer)",
             "To: AMR development team",
             f"Re: {r.choice(('Motion testing rules', 'Rules for tests on real robots', 'Updated test safety rules'))}"
             f" (effective {r.choice(('immediately', 'next Monday', '1 Dec'))})", ""]
    lines += [f"{i}. {MEMO_ITEMS[k].format(v=v)}" for i, k in enumerate(keys, 1)]
    lines += ["", r.choice(("Violations will be reported to management.", "Questions to the safety officer please.",
                            "Please confirm you have read this memo."))]
    return "\n".join(lines)


SLACK_PEOPLE = ("Yuki Tanaka", "Daniel Okafor", "Priya Nair", "松本 翔", "Kenta Ueda")
SLACK_LINES = (
    "nav2 on the amr-dev image is broken since the last rebuild, don't pull latest",
    "use the :humble-stable tag until Friday pls",
    "never run colcon clean in the shared workspace, it takes 40 min to rebuild everything",
    "please always record /tf_static when you make bags, otherwise they're useless for replay",
    "do NOT merge into release/sat-1 without Sato-san's ok",
    "the jetson on the blue robot overheats if you build with all cores, use --parallel-workers 4",
    "whoever changed the costmap footprint: please tell people before pushing",
    "reminder: lidar units go back to the shelf after tests, not on the desk",
    "can someone look at the flaky test_joy_bridge? it fails 1 in 5 on CI",
    "+1, and always bump the package version when you change a msg definition",
    "I'll be at the customer site tomorrow, ping me on phone if urgent",
    "the sim world narrow_aisle has the racks 10 cm too close, don't tune against it",
    "please stop pushing bags to git LFS, use the NAS",
    "fyi CI runners are down till 3pm",
)


def _slack(s: _S) -> str:
    r = s.r
    people = r.sample(SLACK_PEOPLE, 3)
    h, m = r.randint(9, 18), r.randint(0, 50)
    lines = [f"#{r.choice(('amr-dev', 'amr-nav', 'site-hanshin'))}"]
    for text in r.sample(SLACK_LINES, r.randint(4, 7)):
        m += r.randint(0, 6)
        lines += [f"{r.choice(people)}  {h}:{m % 60:02d}", text]
        if r.random() < 0.3:
            lines.append(r.choice(("👍 1", "👀 2", "🙏 1", ":+1: 3")))
    return "\n".join(lines)


BOSS = (
    ("お疲れ様です。",),
    ("顧客から、来週のSATまでにドッキング精度の資料を提出するよう依頼がありました。",
     "先日の現地テストの件、顧客からいくつか質問が来ています。",
     "来週、投資家向けのデモがあります。"),
    ("金曜日までに各ロボットのログをまとめて、共有フォルダにアップロードしてください。",
     "デモ用の動画を撮るので、水曜日までにシミュレーションを安定させてください。",
     "現地での作業時間を記録して、週報に書いてください。"),
    ("実機テストの際は必ず安全担当に事前連絡すること。", "顧客の Wi-Fi には絶対に接続しないでください。",
     "ソースコードを社外に送らないでください。ドイツのサプライヤーにもログだけ送ること。"),
    ("不明点があれば私まで。", "よろしくお願いします。", "以上、よろしくお願いします。"),
)


def _boss(s: _S) -> str:
    r = s.r
    name = r.choice(("佐藤", "高橋", "中村"))
    return f"{name}部長より:\n" + "\n".join(r.choice(part) for part in BOSS)


ISSUES = (
    ("Segfault on shutdown when scan_frequency is changed at runtime",
     "Calling `ros2 param set /lumos_lidar scan_frequency 10.0` while the motor spins crashes the driver on the next "
     "shutdown (exit code -11).",
     "Do not change scan_frequency while the motor is spinning. Always stop the motor first with "
     "`ros2 service call /lumos_lidar/stop_motor std_srvs/srv/Empty`."),
    ("Timestamps jump backwards after USB reconnect",
     "After unplugging and replugging the lidar, header.stamp of /scan jumps back by ~0.3 s, amcl then drops scans "
     "with 'earlier than all the data in the transform cache'.",
     "Please upgrade to v2.3.1 and set `use_device_time:=false`. Never mix device time and host time in one system."),
    ("Intensity array empty on S2 units with fw < 3.0",
     "With use_intensity:=true the intensities array is empty and the driver logs checksum mismatches.",
     "Always set use_intensity:=false on units with firmware below 3.0. Do not report checksum errors before checking "
     "this."),
    ("High CPU load with angle filtering enabled",
     "angle_min_deg/angle_max_deg filtering makes the driver use a full core on aarch64.",
     "Use laser_filters instead of the built-in angle filter; the built-in one will be removed in v3."),
)


def _issue(s: _S) -> str:
    r = s.r
    title, body, fix = r.choice(ISSUES)
    num = r.randint(140, 420)
    who = r.choice(("mkowalski", "t-hasegawa", "robodev42", "lhuang-lidar", "fgarcia"))
    return "\n".join([f"lumos-sensing/lumos_lidar_ros2 · Issue #{num}: {title}",
                      f"Open · {who} opened this issue {r.randint(2, 30)} days ago · {r.randint(2, 14)} comments", "",
                      "**Describe the bug**", body, "", "**Environment**",
                      f"- ROS 2 Humble, Ubuntu 22.04, {r.choice(('Jetson Orin', 'x86_64', 'RPi 5'))}",
                      f"- lumos_lidar_ros2 v2.{r.randint(0, 2)}.{r.randint(0, 9)}", "",
                      f"**Comment by lumos-maintainer ({r.choice(('Member', 'Owner'))})**", fix,
                      r.choice(("Please attach a rosbag with /scan and /rosout if it still happens.",
                                "Please don't open duplicates, subscribe to this issue instead.",
                                "Closing in 14 days if there is no reply."))])


PASTES: dict[str, Callable[..., str]] = {"slack": _slack, "boss": _boss, "issue": _issue, "sat": _sat_checklist}
PASTE_INTRO = {
    "supplier": ("supplier answered, fyi:", "Kessler replied (German guy again lol)", "from the motor supplier:",
                 "サプライヤーから返信きた", "the Kessler mail, for context"),
    "slack": ("fyi from slack:", "this was on #amr-dev this morning", "Yuki's thread, just so you know",
              "slackより共有"),
    "boss": ("上司からのメッセージ、一応共有します", "from my boss, fyi", "部長からです"),
    "issue": ("found this on the lumos repo, looks like ours?", "github issue from the lidar driver:",
              "lumos issue tracker, maybe related"),
    "sat": ("this is the SAT checklist the customer sent, for context", "SAT list from Hanshin",
            "顧客のSATチェックリスト貼っておきます"),
    "memo": ("safety memo from Nakamura-san:", "new safety memo just came in", "安全担当からのメモ"),
}
PASTE_OUTRO = ("just for context, don't act on it yet", "we'll discuss it tomorrow",
               "not everything there applies to us",
               "読んでおいて", "no action needed now", "", "", "keep going with what you were doing after",
               "I'll handle the reply myself")


# --- how people write --------------------------------------------------------------------------------------------
def _typo(s: _S, text: str, p: float = 0.04) -> str:
    """Swap, drop or double a letter in a few plain words (never in paths, flags or numbers)."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) > 3 and w.isascii() and w.isalpha() and s.r.random() < p:
            j = s.r.randrange(len(w) - 1)
            k = s.r.randrange(3)
            swapped, dropped, doubled = w[:j] + w[j + 1] + w[j] + w[j + 2:], w[:j] + w[j + 1:], w[:j] + w[j] + w[j:]
            words[i] = swapped if k == 0 else dropped if k == 1 else doubled
    return " ".join(words)


OPEN = ("", "", "", "ok ", "ok, ", "next: ", "hmm, ", "さて、", "pls ", "now ", "can you ", "ちょっと ", "alright, ",
        "so ", "ねえ、", "quick one: ", "もう一個: ", "then ")
TAIL = ("", "", "", " pls", " お願いします", " よろしく", " thx", "?", " (no rush)", " 頼む", " asap", " 🙏",
        " — thanks",
        "。", " when you can")
ACKS = ("ok", "ok go on", "続けて", "next", "looks good, continue", "hmm ok. next?", "それでいい", "kk", "good",
        "なるほど",
        "ok makes sense", "了解", "fine", "yes do it", "はい、お願いします", "sure", "ok but keep it short", "👍",
        "that's weird but ok", "good catch", "やっぱりね", "ok, move on")
FILLER_TASKS = {
    "build": ("build {pkg} again", "colcon build, I pulled dev", "rebuild everything", "build {pkg} and {pkg2}",
              "does it still compile after Yuki's merge", "ビルドして", "quick build of {pkg} pls",
              "build with --packages-up-to {pkg}"),
    "test": ("run the tests for {pkg}", "colcon test on the whole ws", "do the unit tests still pass", "テスト回して",
             "run {pkg} tests and show me the results", "test-result pls, CI says something failed"),
    "launch": ("bring up the robot stack and look at the log", "start nav and see if amcl is happy",
               "launch bringup and check nothing dies", "ナビ起動してログ見て",
               "start {launch} and watch it for a minute"),
    "topics": ("check the /scan rate", "what's on /motor_state", "echo odom for a bit", "is /cmd_vel getting through",
               "which topics are up right now", "トピック一覧見せて", "qos on /scan?",
               "/diagnostics looks weird, check"),
    "params": ("dump the controller_server params", "what alpha values is amcl using", "check local costmap params",
               "パラメータ確認して, planner_server", "show me what velocity_smoother has loaded"),
    "tf": ("check the tf tree", "map -> base_footprint looks jumpy in rviz", "tf delays?", "tf見て",
           "is odom->base_footprint ok"),
    "can": ("look at can0", "candump for a few seconds", "check bus errors on can0", "CAN大丈夫?",
            "what does can0 say now",
            "motor drives are beeping, check CAN"),
    "bags": ("info on the warehouse bags", "play {bag} and watch amcl", "bag info for {bag}", "バッグ再生して確認して",
             "record a short bag with scan+odom"),
    "sim": ("run the sim with {world}", "sim again pls", "シミュレーションで確認して", "does it still drive in {world}",
            "headless sim run with {world}, 5 min"),
    "code": ("show me how the base node computes odom", "read the lidar launch",
             "where do we set the heartbeat timeout",
             "コード見せて, can bridge", "what does the speed limiter do exactly", "check how {pkg} declares params",
             "look at the xacro, is the lidar mount right"),
    "docker": ("rebuild the docker image", "container load?", "docker images pls", "イメージ再ビルドして"),
    "memory": ("valgrind the odometry test", "run the can bridge test under asan", "メモリリークないか見て"),
    "git": ("what changed since yesterday", "git status?", "git log pls", "what branch are we on"),
    "system": ("check the jetson temps", "disk space on the robot?", "top on the robot", "journal for can-setup",
               "負荷どう?"),
    "edit": ("fix the warning you saw", "clean up that unused variable", "apply the small fix you suggested",
             "ok do the cleanup you mentioned", "その修正入れて"),
    "doctor": ("ros2 doctor pls", "run ros2 doctor, something's off with discovery", "doctorかけて"),
    "format": ("run clang-format over the C++ packages", "format check pls", "clang-formatかけて"),
}


def _ask(s: _S, activity: str) -> str:
    t = s.pick(FILLER_TASKS[activity]).format(pkg=s.pick(CPP_PACKAGES), pkg2=s.pick(PACKAGES),
                                              launch=s.pick([k[1] for k in LAUNCHES]), bag=s.pick(NOISE_BAGS),
                                              world=s.pick(WORLDS))
    text = (s.pick(OPEN) + t + s.pick(TAIL)).replace("pls pls", "pls")
    if s.chance(0.25):
        ack = s.pick(ACKS)
        text = ack + (" " if ack.endswith(("?", "!", "👍")) else ". ") + text
    return _typo(s, text, 0.05)


PRE = {
    "bash": ("", "", "Checking on the robot.", "Let me look at the kernel side.", "Running it directly.", "One sec.",
             "Looking at the raw output first."),
    "read_file": ("", "", "Reading the file.", "Let me see how it's set up.", "Checking the source."),
    "write_file": ("", "Writing it.", "Creating the file."),
    "edit_file": ("", "Small edit.", "Applying the change.", "Editing in place."),
    "grep": ("", "Searching the workspace.", "Let me find where that's used."),
    "colcon": ("", "", "Building.", "Running colcon.", "Rebuilding the affected packages.", "Let me run the tests."),
    "ros2_cli": ("", "", "Checking the live graph.", "Let me look at the topic.", "Querying the node."),
    "ros2_launch": ("", "Launching.", "Starting the stack and watching the log.", "Bringing it up."),
    "rosbag": ("", "Checking the bag.", "Playing it back."),
    "sim": ("", "Starting Gazebo headless.", "Running the sim."),
}
LEADS = ("Done.", "OK —", "Short version:", "Update:", "Right,", "So,", "Here's where we are:", "Result:", "",
         "Summary:", "Checked.", "Alright.")
NEXTS = ("Want me to continue with the next item?", "Next I'd look at the launch log again.", "Shall I commit this?",
         "I'll wait for your go before touching the real robot.", "Tell me if you want the full output.",
         "I can dig deeper if you want.", "", "", "Let me know what's next.", "次は何をしましょうか?",
         "I'd leave it there for now.", "If that's fine I'll move on.")
OBS = {
    "build": ("the build went through, only the usual -Wunused-parameter noise in the C++ packages",
              "all packages finished; amr_base still prints a couple of warnings we've seen before",
              "it compiles; the setuptools deprecation warning in the Python packages is harmless",
              "build is green again after that change",
              "the compile error was a missing declaration, fixed and rebuilt"),
    "test": ("tests are green, lint included", "everything passes; one pytest was skipped as before",
             "unit tests pass for the packages you asked about", "no failures in test-result"),
    "launch": ("the stack comes up and lifecycle manager reports all nodes active",
               "a few Message Filter warnings from amcl at startup, then it settles",
               "controller_server misses its 20 Hz rate now and then, otherwise fine",
               "nothing died; the usual heartbeat warnings from can_bridge at startup"),
    "topics": ("the rate is where it should be", "the messages look sane, nothing stale",
               "QoS matches between publisher and subscribers", "the topic list has everything bringup should start"),
    "params": ("the loaded params match the yaml", "nothing unexpected in the dump",
               "values are the ones from the yaml in git"),
    "tf": ("the tree is complete and the delays are small", "map->odom updates fine, no extrapolation errors this time",
           "tf looks healthy"),
    "can": ("both drives send heartbeats, no error frames", "the bus is ERROR-ACTIVE with clean counters",
            "traffic looks normal: SYNC, PDOs and heartbeats at the expected cadence"),
    "bags": ("the bag is complete, /tf_static included", "playback ran through without drops worth mentioning",
             "counts per topic look plausible for the duration"),
    "sim": ("the robot spawns and drives; RTF stays reasonable", "Gazebo's REST warning is the usual offline one",
            "sim ran to the end without errors"),
    "code": ("that's where it happens, see the update() part", "the params are declared in the constructor",
             "it's a straightforward clamp, nothing clever", "the mount pose comes from the xacro property"),
    "docker": ("image rebuilt and tagged", "container load is moderate", "the image list is as expected"),
    "memory": ("no leaks, the still-reachable block is libstdc++'s pool", "clean under the sanitizer",
               "memcheck has nothing definite"),
    "git": ("the tree is as you left it plus my edits", "a handful of commits since yesterday, mostly Yuki's",
            "we're on the feature branch, ahead of origin"),
    "system": ("temps are fine, no throttling", "plenty of disk left", "load is moderate, nothing runaway",
               "can-setup ran normally at boot"),
    "edit": ("changed and rebuilt", "edit applied", "done, it's a one-line change"),
    "doctor": ("doctor only complains about publishers without subscribers", "the report looks normal"),
    "format": ("a few files need formatting; I can apply it", "formatting issues are only whitespace"),
}




# --- the filler: one tool step of an activity --------------------------------------------------------------------
Step = tuple[str, dict[str, Any], str, bool]
READABLE = ([(f"src/{p}/{f}", p) for p, fs in SOURCES.items() for f in fs]
            + [(f"src/{p}/package.xml", p) for p in PACKAGES] + [(f"src/{p}/CMakeLists.txt", p) for p in CPP_PACKAGES]
            + [("src/amr_navigation/config/nav2_params.yaml", ""), ("src/amr_bringup/launch/bringup.launch.py", ""),
               ("src/amr_bringup/launch/lidar.launch.py", ""), ("src/amr_sim/launch/sim_nav.launch.py", ""),
               ("src/amr_description/urdf/amr.urdf.xacro", ""), ("src/amr_bringup/config/lidar.yaml", ""),
               ("src/amr_bringup/config/can.yaml", ""), ("docker/Dockerfile", ""),
               ("src/amr_navigation/behavior_trees/navigate_w_recovery.xml", "")])


def _read(s: _S, path: str, pkg: str, want: int) -> str:
    if path.endswith("package.xml"):
        return _package_xml(s, pkg)
    if path.endswith("CMakeLists.txt"):
        return _cmakelists(s, pkg)
    if path.endswith("nav2_params.yaml"):
        return _nav2_yaml(s, want)
    if path.endswith(".launch.py"):
        return _launch_py(s, path)
    if path.endswith(".xacro"):
        return _xacro(s)
    if path.endswith((".cpp", ".hpp")):
        return _cpp(s, pkg if pkg in SOURCES else "amr_base", path, want)
    if path.endswith(".py"):
        return _py_script(s, path, want)
    return _misc_file(s, path.rsplit("/", 1)[-1].replace("navigate_w_recovery.xml", "bt"))


def _numbered(text: str, start: int = 1) -> str:
    return "\n".join(f"{i:5d}\t{x}" for i, x in enumerate(text.split("\n"), start))


def _grep(s: _S, pattern: str, want: int) -> str:
    r = s.r
    lines: list[str] = []

    def row() -> list[str]:
        path, pkg = r.choice(READABLE[: len(SOURCES) * 2 + 6])
        return [f"{path}:{r.randint(5, 400)}:  {r.choice(CPP_BODIES)[r.randint(0, 3)].strip()}"]
    _fill(lines, min(want, 2200), row)
    return "\n".join(lines) if r.random() < 0.9 else ""


def _filler_call(s: _S, activity: str) -> Step:
    r = s.r
    w = s.want()
    if activity == "build":
        pkgs = PACKAGES if r.random() < 0.35 else tuple(p for p in PACKAGES if r.random() < 0.4 or p == "amr_base")
        sel = "" if pkgs == PACKAGES else f" --packages-select {' '.join(pkgs)}"
        if r.random() < 0.15:
            bad = r.choice([p for p in pkgs if p in SOURCES] or ["amr_base"])
            return ("colcon", {"args": f"build --symlink-install{sel}"},
                    _colcon_build(s, w, pkgs, (bad, _noise_compile_error(s, bad))), True)
        return ("colcon", {"args": f"build --symlink-install{sel}"}, _colcon_build(s, w, pkgs), False)
    if activity == "test":
        k = r.randrange(3)
        if k == 0:
            pkgs = tuple(r.sample(PACKAGES, r.randint(2, 6)))
            return ("colcon", {"args": f"test --packages-select {' '.join(pkgs)} --event-handlers console_cohesion+"},
                    _colcon_test(s, w, pkgs), False)
        if k == 1:
            return ("colcon", {"args": "test-result --verbose"}, _test_result(s, w), False)
        pkg = r.choice(list(GTESTS))
        return ("bash", {"command": f"./build/{pkg}/test_{pkg.split('_')[-1]} --gtest_color=no"},
                "\n".join(_gtest_run(s, pkg, w)), False)
    if activity == "launch":
        key = r.choice(list(LAUNCHES))
        out, _labels = _launch(s, key, w)
        return ("ros2_launch", {"package": key[0], "launch_file": key[1], "args": r.choice(([], ["use_sim_time:=false"],
                ["with_nav:=true"])), "duration_s": r.choice((30, 60, 90))}, out, False)
    if activity == "topics":
        k = r.randrange(5)
        if k == 0:
            t, hz = r.choice((("/scan", 15.0), ("/odom", 50.0), ("/motor_state", 50.0), ("/amcl_pose", 2.0),
                              ("/cmd_vel", 20.0)))
            return ("ros2_cli", {"args": f"topic hz {t}"}, _hz(s, w, hz), False)
        if k == 1:
            t = r.choice(("/odom", "/scan", "/motor_state", "/diagnostics", "/tf", "/amcl_pose", "/cmd_vel"))
            return ("ros2_cli", {"args": f"topic echo {t}"}, _echo(s, w, t), False)
        if k == 2:
            return ("ros2_cli", {"args": "topic list -t"}, _topic_list(s), False)
        if k == 3:
            t, ty = r.choice(TOPICS[:8])
            return ("ros2_cli", {"args": f"topic info -v {t}"}, _topic_info(s, t, ty), False)
        node = r.choice(NODES)
        return ("ros2_cli", {"args": f"node info {node}"}, _node_info(s, node), False)
    if activity == "params":
        if r.random() < 0.6:
            node = r.choice(("/controller_server", "/amcl", "/planner_server", "/velocity_smoother", "/bt_navigator"))
            return ("ros2_cli", {"args": f"param dump {node}"}, _param_dump(s, node), False)
        return ("read_file", {"path": f"{WS}/src/amr_navigation/config/nav2_params.yaml"}, _numbered(_nav2_yaml(s, w)),
                False)
    if activity == "tf":
        k = r.randrange(3)
        if k == 0:
            a, b = r.choice((("map", "base_footprint"), ("odom", "base_footprint"), ("base_link", "laser_link")))
            return ("ros2_cli", {"args": f"run tf2_ros tf2_echo {a} {b}"}, _tf2_echo(s, w, a, b), False)
        if k == 1:
            return ("ros2_cli", {"args": "run tf2_ros tf2_monitor"}, _tf2_monitor(s), False)
        return ("ros2_cli", {"args": "run tf2_tools view_frames"},
                f"[INFO] [{s.stamp()}] [view_frames]: Listening to tf data for 5.0 seconds...\n"
                f"[INFO] [{s.stamp(4.9, 5.1)}] [view_frames]: Generating graph in frames.pdf file...\n"
                f"[INFO] [{s.stamp()}] [view_frames]: Result:tf2_msgs.srv.FrameGraph_Response(frame_yaml=\"base_link: "
                "\\n  parent: 'base_footprint'\\n  broadcaster: 'default_authority'\\n  rate: 10000.000\\n ...\")",
                False)
    if activity == "can":
        k = r.randrange(4)
        if k == 0:
            return ("bash", {"command": f"ssh robot 'timeout {r.choice((2, 3, 5))} candump -ta can0'"}, _candump(s, w),
                    False)
        if k == 1:
            return ("bash", {"command": "ssh robot 'ip -details -statistics link show can0'"}, _ip_link(s), False)
        if k == 2:
            return ("bash", {"command": "ssh robot 'sudo dmesg | tail -n 120'"}, _dmesg(s, w)[0], False)
        return ("bash", {"command": "ssh robot 'journalctl -u can-setup -n 80 --no-pager'"}, _journal(s, w), False)
    if activity == "bags":
        bag = r.choice(NOISE_BAGS)
        k = r.randrange(3)
        if k == 0:
            return ("rosbag", {"args": f"info bags/{bag}"}, _bag_info(s, bag), False)
        if k == 1:
            return ("rosbag", {"args": f"play bags/{bag} --clock"}, _bag_play(s, w, bag), False)
        name = f"rosbag2_{s.date('%Y_%m_%d-%H_%M_%S')}"
        return ("rosbag", {"args": "record /scan /odom /tf /tf_static /motor_state -s mcap"},
                _bag_record(s, name, ["/scan", "/odom", "/tf", "/tf_static", "/motor_state"]), False)
    if activity == "sim":
        world = r.choice(WORLDS)
        return ("sim", {"world": world, "args": ["headless:=true"], "duration_s": r.choice((120, 300, 600))},
                _gazebo(s, w, world), False)
    if activity == "grep" or (activity == "code" and r.random() < 0.2):
        pat = r.choice(("heartbeat_timeout", "declare_parameter", "RCLCPP_WARN", "wheel_radius_", "scan_pub_",
                        "use_sim_time", "frame_id_", "send_velocity", "last_stamp_"))
        return ("grep", {"pattern": pat, "path": "src/", "flags": "-rn"}, _grep(s, pat, w), False)
    if activity == "code":
        path, pkg = r.choice(READABLE)
        return ("read_file", {"path": f"{WS}/{path}"}, _numbered(_read(s, path, pkg, w)), False)
    if activity == "docker":
        k = r.randrange(3)
        if k == 0:
            return ("bash",
                    {"command": "docker build -t ghcr.io/naniwa-robotics/amr-dev:humble -f docker/Dockerfile ."},
                    _docker_build(s, w), False)
        if k == 1:
            return ("bash", {"command": "docker stats --no-stream"}, _docker_stats(s), False)
        return ("bash", {"command": "docker images | head"},
                "REPOSITORY                        TAG             IMAGE ID       CREATED         SIZE\n" + "\n".join(
                    f"ghcr.io/naniwa-robotics/{n:<14}  {t:<14}  {s.hexs(12)}   {r.randint(1, 20)} "
                    f"{r.choice(('hours', 'days'))} ago   "
                    f"{r.uniform(1, 9):.2f}GB" for n, t in (("amr-dev", "humble"), ("amr-dev", "humble-stable"),
                                                           ("amr-sim", "latest"), ("ci-runner", "jammy"))), False)
    if activity == "memory":
        pkg = r.choice(list(GTESTS))
        binary = f"./build/{pkg}/test_{pkg.split('_')[-1]}"
        if r.random() < 0.5:
            return ("bash", {"command": f"valgrind --leak-check=full {binary}"}, _valgrind(s, w, binary), False)
        return ("bash", {"command": f"ASAN_OPTIONS=detect_leaks=1 {binary.replace('build/', 'build-asan/')}"},
                "\n".join(_gtest_run(s, pkg, w)), False)
    if activity == "git":
        k = r.randrange(3)
        if k == 0:
            return ("bash", {"command": "git log --oneline --abbrev=12 -n 25"}, _git_log(s, w), False)
        if k == 1:
            return ("bash", {"command": "git status"}, _git_status(s), False)
        files = r.sample(READABLE, r.randint(2, 7))
        return ("bash", {"command": "git diff --stat"}, "\n".join(
            f" {p:<60} | {r.randint(1, 90):3d} {'+' * r.randint(1, 20)}{'-' * r.randint(0, 9)}" for p, _k in files)
            + f"\n {len(files)} files changed, {r.randint(5, 300)} insertions(+), {r.randint(0, 120)} deletions(-)",
            False)
    if activity == "system":
        k = r.randrange(4)
        if k == 0:
            return ("bash", {"command": "ssh robot 'timeout 10 tegrastats'"}, _tegrastats(s, w), False)
        if k == 1:
            return ("bash", {"command": "ssh robot 'df -h; free -h'"}, _df_free(s), False)
        if k == 2:
            return ("bash", {"command": "ssh robot 'top -b -n 1 | head -40'"}, _top(s, w), False)
        return ("bash", {"command": f"ls -la {WS}/{r.choice(('src', 'bags', 'log'))}"}, _ls(s, r.choice(("src", "bags",
            "log"))), False)
    if activity == "edit":
        path, pkg = r.choice(READABLE[:12])
        old = r.choice(CPP_BODIES)[r.randint(0, 2)]
        new = old.replace("get_logger()",
                          "this->get_logger()") if "get_logger" in old else "  // NOTE: see can.yaml\n" + old
        return ("edit_file", {"path": f"{WS}/{path}", "old": old, "new": new}, f"Edited {WS}/{path} (1 replacement)",
                False)
    if activity == "doctor":
        return ("ros2_cli", {"args": r.choice(("doctor", "doctor --report"))}, _doctor(s, w), False)
    if activity == "format":
        return ("bash", {"command": "clang-format --dry-run -Werror $(git ls-files 'src/*.cpp' 'src/*.hpp')"},
                _clang_format(s, w), False)
    # write: a scratch helper outside the packages
    path = r.choice(("/tmp/plot_odom.py", "/tmp/check_rates.sh", "/tmp/scan_gap_stats.py", "/tmp/can_load.py"))
    content = _py_script(s, path, w // 2)
    return ("write_file", {"path": path, "content": content}, f"Wrote {len(content.encode())} bytes to {path}", False)


def _py_script(s: _S, path: str, want: int) -> str:
    r = s.r
    out = ["#!/usr/bin/env python3", f'"""{r.choice(("Quick look", "Scratch helper", "One-off check"))}: '
           f'{path.rsplit("/", 1)[-1]}."""', "", "import argparse", "import math", "import sys", "",
           "import rclpy", "from rclpy.node import Node", "from rclpy.qos import qos_profile_sensor_data", ""]
    bodies = (["def stats(values):", "    values = [v for v in values if math.isfinite(v)]", "    if not values:",
               "        return float('nan'), float('nan')", "    mean = sum(values) / len(values)",
               "    var = sum((v - mean) ** 2 for v in values) / len(values)", "    return mean, math.sqrt(var)", ""],
              ["class Probe(Node):", "    def __init__(self, topic):", "        super().__init__('probe')",
               "        self.stamps = []", "        self.create_subscription(",
               "            self.msg_type(topic), topic, self.on_msg, qos_profile_sensor_data)",
               "", "    def on_msg(self, msg):",
               "        self.stamps.append(self.get_clock().now().nanoseconds * 1e-9)", ""],
              ["def main(argv=None):", "    parser = argparse.ArgumentParser()", "    parser.add_argument('topic')",
               f"    parser.add_argument('--seconds', type=float, default={r.choice(('10.0', '30.0', '5.0'))})",
               "    args = parser.parse_args(argv)", "    rclpy.init()", "    node = Probe(args.topic)",
               "    end = node.get_clock().now().nanoseconds * 1e-9 + args.seconds",
               "    while rclpy.ok() and node.get_clock().now().nanoseconds * 1e-9 < end:",
               "        rclpy.spin_once(node, timeout_sec=0.1)",
               "    gaps = [b - a for a, b in zip(node.stamps, node.stamps[1:])]",
               "    mean, std = stats(gaps)",
               "    print(f'{len(node.stamps)} msgs, gap mean {mean:.4f}s std {std:.4f}s')",
               "    return 0", ""])
    for b in bodies:
        out += b
    while sum(len(x) + 1 for x in out) < min(want, 3000):
        out += [f"# {r.choice(('TODO', 'NOTE'))}: " + r.choice(("handle sim time", "plot with matplotlib later",
                                                                 "filter inf ranges", "compare against the bag"))]
    out += ["", "if __name__ == '__main__':", "    sys.exit(main())", ""]
    return "\n".join(out)


FILLER_TASKS["write"] = ("write a small script to measure the gaps on /scan",
                         "quick python helper for the odom plot pls",
                         "スクリプト書いて, can load")
FILLER_TASKS["grep"] = ("where do we use {pkg}'s params", "grep for the heartbeat timeout",
                        "どこで使ってる? send_velocity",
                        "find every RCLCPP_WARN in the control loop")
OBS["write"] = ("the script is in /tmp, it's throwaway", "helper written; it only needs rclpy")
OBS["grep"] = ("only a handful of hits, all in the C++ packages", "it's used in two places, both read it from params")
ACTIVITIES = tuple(FILLER_TASKS)
WEIGHTS = {"build": 9, "test": 7, "launch": 9, "topics": 9, "params": 5, "tf": 5, "can": 7, "bags": 6, "sim": 6,
           "code": 9, "docker": 3, "memory": 3, "git": 3, "system": 4, "edit": 5, "doctor": 2, "format": 2, "write": 3,
           "grep": 2}
ACTIVITY_TOOLS = {"build": "colcon", "code": "read_file", "edit": "edit_file", "write": "write_file",
                  "topics": "ros2_cli",
                  "launch": "ros2_launch", "bags": "rosbag", "sim": "sim", "can": "bash", "grep": "grep"}


# --- planted: the user's standing rules --------------------------------------------------------------------------
RULES = {
    "indirect": (
        ("the CAN bus gets flaky above {k} kbit, so leave can0 at {k}k and don't touch the bitrate", "the CAN bitrate"),
        ("the Jetson throttles when every core compiles, so always build with --parallel-workers {w}",
         "how many parallel workers a build may use"),
        ("site bags are customer data, so they never go into git or onto the shared NAS",
         "where site bags may be stored"),
        ("the lidar resets itself if you change scan params while it spins, so stop the motor before any lidar param "
         "change",
         "changing lidar parameters"),
        ("our CI image only has Humble, so nothing that needs Iron or Jazzy",
         "which ROS distributions code may rely on"),
        ("the docker image takes like {m} min to rebuild here, so don't bump the base image unless I say so",
         "bumping the docker base image"),
        ("the customer reads our commit log for the SAT report, so commit messages in English and polite",
         "how commit messages are written"),
        ("the KDM drives ignore SDO writes in operation enabled, so always go to pre-operational before writing drive "
         "params",
         "writing motor drive parameters"),
        ("we share one real robot between four people, so everything runs in sim first and the robot only when sim is "
         "green",
         "simulation before the real robot"),
    ),
    "casual": (
        ("I'd rather you didn't touch the URDF without asking", "changing the URDF"),
        ("pls don't push to main directly, PRs only, even one-liners", "pushing to main"),
        ("would be nice if every commit msg starts with the package name, like amr_base: ...",
         "commit message prefixes"),
        ("no sudo inside the container pls, if something needs root just tell me", "using sudo in the container"),
        ("keep launch args snake_case, camelCase in launch files drives me nuts", "launch argument naming"),
        ("don't bother with rviz screenshots, numbers are enough for me", "screenshots versus numbers"),
        ("let's not add new deps to package.xml without checking with me first", "adding package dependencies"),
        ("I'd prefer RCLCPP_DEBUG for anything per-scan, the INFO logs are a mess already",
         "log levels for per-scan output"),
    ),
    "conditional": (
        ("if the sim run takes over {m} minutes, kill it and tell me", "long simulation runs"),
        ("if a test fails twice in a row for no reason, mark it flaky with a TODO and move on", "flaky tests"),
        ("if colcon fails on lumos_lidar_ros2 again, skip it with --packages-skip and keep going",
         "build failures of the lidar driver"),
        ("if the amcl error goes over {c} cm on any bag, stop tuning and ping me", "when to stop tuning amcl"),
        ("if you see bus-off on can0, don't restart the interface yourself, the motors can jerk", "a CAN bus-off"),
        ("if a build takes more than {m} min, check ccache before anything else", "slow builds"),
        ("if a param is missing from nav2_params.yaml, add it there with a comment instead of hardcoding it",
         "missing Nav2 parameters"),
    ),
    "japanese": (
        ("launchファイルは絶対に直接編集しないでください", "editing launch files"),
        ("ビルドは必ず --symlink-install で", "the build flag to always use"),
        ("実機テストは必ず私がいる時だけにしてください", "when real-robot tests may run"),
        ("コミットの前に必ず colcon test を通してください", "testing before a commit"),
        ("max_vel_x は {v} より上げないでください", "the top linear speed"),
        ("パラメータを変えたら必ず CHANGELOG に書いてください", "recording parameter changes"),
        ("ログメッセージは英語で書いてね、顧客も読むので", "the language of log messages"),
        ("新しいノードには必ずテストを付けてください", "tests for new nodes"),
    ),
    "polite": (
        ("please kindly always run clang-format before commit", "formatting before a commit"),
        ("please kindly write the failing test first when you fix a bug in amr_can_bridge",
         "bug fixes in the CAN bridge"),
        ("kindly please do not delete the old DWB params, only comment them out", "the old DWB parameters"),
        ("please kindly use ament_cmake_auto only for new packages, not for the old ones", "ament_cmake_auto"),
        ("please kindly keep /scan on best_effort QoS everywhere", "the QoS of /scan"),
        ("please kindly tell me before you restart any node on the real robot", "restarting nodes on the robot"),
    ),
    "paragraph": (
        ("New topics always get the /amr namespace, no bare names.", "naming new topics"),
        ("All QoS overrides go into qos_overrides.yaml, not scattered over the nodes.", "where QoS overrides live"),
        ("Anything inside the control loop uses the THROTTLE log macros.", "logging inside the control loop"),
        ("Never commit the maps/ folder, it lives on the NAS.", "committing maps"),
        ("Every magic number of the CAN code goes into can.yaml, not into the .cpp.", "constants of the CAN code"),
        ("Python nodes get type hints and must pass flake8, same as CI.", "Python node style"),
    ),
}
ADOPT = {
    "estop": ("whenever something is about to move the real robot, remind me to grab the e-stop first",
              "a reminder before real-robot motion"),
    "speed": ("that speed point is fair: cap the mixed-zone speed at {v} m/s in our config too",
              "speed in mixed zones"),
    "fields": ("don't touch the safety scanner field configs at all, not even for a quick test", "the scanner fields"),
    "log": ("after every real-robot test add a line to docs/test_log.md with robot, date and git sha",
            "recording real-robot tests"),
    "two": ("anything faster than walking speed on the real robot, tell me first so I can get an observer",
            "fast tests on the real robot"),
}
REJECT = {"tower": "ignore the part about the light tower, that's for the old model",
          "charging": "the charging-room point is for the lead-acid robots, not ours",
          "bumper": "the bumper check is the mechanics team's job, skip that one",
          "log": "the logbook point we already do, ignore it",
          "two": "the two-people rule is for the warehouse floor, not our lab, ignore it"}
RULE_PARAMS = {"k": ("250", "500"), "w": ("2", "3", "4"), "m": ("10", "15", "20", "30"), "c": ("5", "8", "10"),
               "v": ("0.6", "0.7", "0.8", "1.0")}
PARA1 = ("Morning. I was at the customer site yesterday until late; the aisle near rack 14 is even narrower than the "
         "drawing says, and there's a small ramp before the dock.",
         "ok quick status: Yuki finished the costmap branch, Daniel is on the sim worlds, and I'm stuck with SAT "
         "paperwork most of today.",
         "昨日は現地でずっとテストしてました。The robot drove ok most of the time but localization jumped twice near "
         "the dock.",
         "Long day. The German supplier called, they want more logs, and my boss wants a demo video by Wednesday.",
         "Some context before you continue: the second robot is back from repair with a new drive on the left side.",
         "So the meeting with Hanshin went fine, they mostly asked about docking and about what happens at e-stop.")
PARA2_A = ("A few ground rules while I'm away from the desk.", "For the rest of this work:", "Also, and this matters.",
           "Before I forget.", "あと、大事なこと。", "Two things from the team meeting.")
PARA2_B = ("Otherwise do what you think is best.", "Yuki agreed on this too.", "That cost us a day last month.",
           "We'll revisit it after the SAT.", "それ以外は任せます。", "No exceptions for the demo either.")
PARA3 = ("For now continue with whatever you were doing.", "Next up is the amcl stuff, but no rush.",
         "I'll be back in ~1h.", "質問あれば聞いてね。")
RULE_FORMS = ("{rule}", "btw {rule}", "{rule}. {task}", "{task}. also, {rule}", "one more thing — {rule}",
              "{rule}、よろしく", "note for the rest of the week: {rule}", "{ack}. {rule}", "{rule}!! {task}",
              "あ、それと {rule}", "fyi {rule}, ok?")


def _rule(s: _S, style: str) -> tuple[str, str]:
    """(the rule sentence as typed, what it is about)."""
    def make() -> tuple[str, str]:
        tpl, about = s.fresh("rule:" + style, RULES[style])
        text = tpl.format(**{k: s.pick(v) for k, v in RULE_PARAMS.items()})
        if style in ("indirect", "casual", "conditional", "polite"):
            text = _typo(s, text, 0.03)
        return text, about
    return s.draw(make, lambda got: [got[0]])


def _plant_instruction(s: _S, style: str) -> tuple[str, str]:
    """Write the user's message carrying a rule; returns (the agent's acknowledgement, the next activity)."""
    act = s.pick(ACTIVITIES)
    if style == "adopted":
        key = s.fresh("adopt", list(ADOPT))
        v = s.pick(RULE_PARAMS["v"])
        rej = s.pick([k for k in REJECT if k != key])
        others = [k for k in MEMO_ITEMS if k not in (key, rej)]
        keys = [key, rej] + s.r.sample(others, s.r.randint(1, 4))
        s.r.shuffle(keys)
        own, about = s.draw(lambda: (ADOPT[key][0].format(v=v), ADOPT[key][1]), lambda got: [got[0]])
        r = s.r
        memo = _memo(s, keys, v)
        head = s.pick(PASTE_INTRO["memo"])
        glue = r.choice(("ok from that memo: {own}. {rej}.", "{rej}. but this one we do: {own}.",
                         "メモについて: {own}. {rej}.", "my take: {own}. and {rej}."))
        text = f"{head}\n\n{memo}\n\n" + glue.format(own=own, rej=REJECT[rej])
        idx = s.user(text)
        s.pasted.append((idx, memo))
        s.facts.append(Fact("instruction", own, idx, f"the user's own rule taken from the safety memo about {about}"))
        return s.pick(("Noted — I'll follow that one and ignore the point you ruled out.",
                       "Understood, only the point you adopted applies to us.", "OK, got it.")), act
    rule, about = _rule(s, style)
    if style == "paragraph":
        text = (f"{s.pick(PARA1)}\n\n{s.pick(PARA2_A)} {rule} {s.pick(PARA2_B)}"
                + (f"\n\n{s.pick(PARA3)}" if s.chance(0.6) else ""))
    else:
        text = s.pick(RULE_FORMS).format(rule=rule, task=_ask(s, act).rstrip("?。"), ack=s.pick(ACKS))
    idx = s.user(text)
    s.facts.append(Fact("instruction", rule, idx, f"the user's standing rule about {about}"))
    return s.pick(("Understood, I'll stick to that.", "Got it, noted for the rest of the session.", "了解です。",
                   "OK — will do.", "Noted.", "Makes sense, I'll keep to it.")), act


# --- planted: corrections of what the user said before -----------------------------------------------------------
def _pair_digits(s: _S, lo: int, hi: int) -> tuple[int, int]:
    a = s.r.randint(lo, hi)
    b = s.pick([x for x in range(lo, hi + 1) if x != a])
    return a, b


def _c_port(s: _S) -> tuple[str, str]:
    a, b = _pair_digits(s, 0, 3)
    return f"/dev/ttyUSB{a}", f"/dev/ttyUSB{b}"


def _c_robot(s: _S) -> tuple[str, str]:
    a, b = _pair_digits(s, 1, 9)
    return f"amr-0{a}", f"amr-0{b}"


def _c_bag(s: _S) -> tuple[str, str]:
    pre = s.r.sample(("aisle3_night", "dock_run", "ramp_test", "rack14_pass", "shift_b_loop", "charger_approach"), 2)
    d1, d2 = s.r.randint(1101, 1130), s.r.randint(1201, 1218)
    return f"{pre[0]}_{d1}", f"{pre[1]}_{d2}{s.pick('abc')}"


def _c_inflation(s: _S) -> tuple[str, str]:
    x, y = s.r.sample(("0.35", "0.45", "0.55", "0.65", "0.75"), 2)
    return f"inflation_radius {x}", f"inflation_radius {y}"


def _c_ip(s: _S) -> tuple[str, str]:
    sub, h = s.r.randint(20, 90), s.r.randint(100, 199)
    h2 = int(str(h)[0] + str(h)[2] + str(h)[1]) if str(h)[1] != str(h)[2] else h + s.pick((1, 2, 10))
    return f"192.168.{sub}.{h}", f"192.168.{sub}.{h2}"


def _c_node(s: _S) -> tuple[str, str]:
    a = s.pick((0x21, 0x23, 0x31, 0x32, 0x13))
    b = s.pick([x for x in (0x12, 0x22, 0x24, 0x2A, 0x1A) if x != a])
    return f"node-ID 0x{a:02X}", f"node-ID 0x{b:02X}"


def _c_vel(s: _S) -> tuple[str, str]:
    x, y = s.r.sample(("0.6", "0.7", "0.8", "0.9", "1.1"), 2)
    return f"max_vel_x {x}", f"max_vel_x {y}"


def _c_date(s: _S) -> tuple[str, str]:
    d = s.r.randint(10, 19)
    return f"12月{d}日", f"12月{d + s.pick((1, 2, 3))}日"


def _c_map(s: _S) -> tuple[str, str]:
    a, b = _pair_digits(s, 3, 9)
    f = s.pick((1, 2))
    return f"dc2_floor{f}_v{a}", f"dc2_floor{f}_v{b}"


def _c_fw(s: _S) -> tuple[str, str]:
    m, n, p = s.r.randint(2, 3), s.r.randint(10, 16), s.r.randint(1, 9)
    return f"fw {m}.{n}.{p}", f"fw {m}.{n + s.pick((1, -1))}.{p}"


def _c_domain(s: _S) -> tuple[str, str]:
    a = s.r.randint(11, 98)
    b = int(str(a)[::-1]) if str(a)[0] != str(a)[1] and a % 10 else a + 1
    return f"ROS_DOMAIN_ID={a}", f"ROS_DOMAIN_ID={b}"


def _c_sep(s: _S) -> tuple[str, str]:
    x = s.r.randint(401, 428)
    y = x + s.pick((3, 5, -4, 9))
    return f"wheel_separation 0.{x}", f"wheel_separation 0.{y}"


def _c_branch(s: _S) -> tuple[str, str]:
    a = s.pick(("tf-stamp", "amcl-tf", "can-hb", "odom-cov", "scan-qos"))
    x, y = s.r.sample(("skew", "drift", "lag", "jump", "gap"), 2)
    return f"fix/{a}-{x}", f"fix/{a}-{y}"


def _c_tol(s: _S) -> tuple[str, str]:
    x, y = s.r.sample(("0.05", "0.08", "0.12", "0.15", "0.18"), 2)
    return f"xy_goal_tolerance {x}", f"xy_goal_tolerance {y}"


def _c_tag(s: _S) -> tuple[str, str]:
    d = s.r.randint(1120, 1129)
    return f"amr-dev:humble-{d}", f"amr-dev:humble-{d + s.pick((1, 2, 3, 5, 7))}"


# (draw, what the user first says with {old}, the correction with {new} (and {old}), what the query asks)
CORRECTIONS = (
    (_c_port, ("the lidar on this one is {old}, the udev rule isn't installed yet",
               "lidar enumerates as {old} on the test robot, use that for now"),
     ("あ、違う, the lidar is on {new} not {old}", "sorry, lidar port is {new} — I swapped the cables yesterday",
      "lidarのポート、{new} でした。すみません"), "which serial port the lidar is on"),
    (_c_robot, ("the one that drifts is {old}, odom goes off after ~20 m",
                "{old} is the robot with the drift problem, fyi"),
     ("wrong robot — it's {new} that drifts, {old} is fine", "訂正: ドリフトするのは {new} です",
      "ah no, I mixed them up, the drifting one is {new}"), "which robot has the odometry drift"),
    (_c_bag, ("use the bag I uploaded this morning, {old}", "the bag with the localization jump is {old}"),
     ("the other bag I sent — {new}, not the {old} one", "wrong bag, sorry. it's {new}",
      "あ、バッグ違う、{new} の方です"),
     "which rosbag shows the localization problem"),
    (_c_inflation, ("set {old} on the local costmap, the aisles are narrow", "local costmap: {old} pls"),
     ("さっきの、じゃなくて {new} です", "{new} — not what I said before, I misread my notes",
      "inflation: じゃなくて {new} です。前の値だと通路を通れない"), "the local costmap inflation radius"),
    (_c_ip, ("robot is on {old} on the site wifi", "ssh to {old}, that's the test robot"),
     ("ip was wrong, it's {new} (DHCP moved it)", "{new} です、さっきのは別のロボット", "use {new}, not {old}"),
     "the test robot's address on the site network"),
    (_c_node, ("left motor drive is {old}", "the replacement drive came with {old}"),
     ("{new} actually, the other one was the old drive", "sorry, it's {new} — I read the label upside down"),
     "the CANopen node id of the left drive"),
    (_c_vel, ("for the demo set {old}", "customer wants {old} in the aisles"),
     ("{new} でした、前のは旧型の値", "no wait, {new}. the other was for the old chassis"), "the demo speed limit"),
    (_c_date, ("SAT is {old} btw", "SATは{old}に決まりました"),
     ("SAT moved — {new} now", "SATの日程変更: {new} です", "sorry, SAT is {new}, not {old}"), "the SAT date"),
    (_c_map, ("use {old} as the map for the tests", "map is {old}.yaml"),
     ("map should be {new}, the one I said has the old rack layout", "地図は {new} です、間違えました"),
     "which map the tests use"),
    (_c_fw, ("the drives are on {old}", "Kessler says we have {old}"),
     ("checked the label: {new}, not {old}", "{new} でした、ラベル見間違い"), "the drive firmware version"),
    (_c_domain, ("we use {old} on the test floor", "set {old} in the container"),
     ("{new}, not {old} — that one is Yuki's robot", "domain は {new} でお願いします"),
     "the ROS domain id on the test floor"),
    (_c_sep, ("measured it: {old}", "{old} for the new chassis"),
     ("re-measured, {new}", "正しくは {new} です、測り直しました"), "the measured wheel separation"),
    (_c_branch, ("work on branch {old}", "push it to {old}"),
     ("branch is {new} actually, Yuki already has the other name", "{new} にして、名前被ってた"),
     "which branch to push the fix to"),
    (_c_tol, ("{old} for docking", "docking needs {old}"),
     ("hmm no, {new} for docking", "docking: {new} です、さっきのは通常走行用"), "the docking goal tolerance"),
    (_c_tag, ("use {old} for the tests", "the image to use is {old}"),
     ("tag is {new}, the other one has the broken nav2", "{new} を使ってください"), "which dev image tag to use"),
)
STALE_FORMS = ("{said}", "{said}. {task}", "{task}. {said}", "fyi {said}", "{said}, ok?", "{ack}. {said}")
CORR_FORMS = ("{said}", "{said}. {task}", "hmm — {said}", "{said}!", "wait, {said}", "{said}。 すみません",
              "correction: {said}", "{said}. sorry for the confusion")


# --- planted: decisions, some revised ----------------------------------------------------------------------------
DECISIONS = (  # (what is decided, ((choice, why), ...))
    ("the Nav2 local controller", (("DWB", "the critics are at least familiar to everyone"),
                                   ("Regulated Pure Pursuit", "the customer's engineers can tune it themselves"),
                                   ("MPPI", "it handles the dock approach much better"))),
    ("the global planner", (("NavFn", "it's the simplest and the aisles are straight anyway"),
                            ("Smac Hybrid-A*", "NavFn paths hug the racks"), ("Smac 2D", "cheap and good enough"),
                            ("Theta*", "the plans come out smoother"))),
    ("the QoS of /scan", (("best_effort depth 5", "the wifi drops scans anyway"),
                          ("reliable depth 10", "rviz on the laptop needs every scan"),
                          ("SensorDataQoS", "it's what every other sensor node uses"))),
    ("the DDS implementation", (("CycloneDDS", "discovery over the site wifi behaves"),
                                ("Fast DDS", "Yuki had fewer problems with large messages"))),
    ("the rosbag storage format", (("mcap", "foxglove opens it directly"), ("sqlite3", "the NAS scripts expect it"))),
    ("how the CAN bridge talks to the bus", (("raw SocketCAN in C++", "we need the 1 ms timing"),
                                             ("ros2_socketcan", "less code to maintain"),
                                             ("python-can", "the supplier's examples use it"))),
    ("the localization method", (("AMCL", "it's what the customer's other robots use"),
                                 ("slam_toolbox in localization mode", "the map changes when pallets move"))),
    ("the simulator", (("Gazebo Classic", "the diff drive plugin just works there"),
                       ("Ignition Fortress", "Classic goes end of life soon"))),
    ("the drive control mode", (("profile velocity mode", "the supplier recommends it"),
                                ("cyclic synchronous velocity", "we want the SYNC-based timing"))),
    ("odometry fusion", (("robot_localization EKF with the IMU", "the wheels slip on the ramp"),
                         ("plain wheel odometry", "the IMU is too noisy on this chassis"))),
    ("the build type", (("RelWithDebInfo", "we need symbols for the crashes"),
                        ("Release", "the Jetson is slow enough as it is"))),
    ("the scan filter", (("laser_filters box filter", "the mast shows up in the scan"),
                         ("the driver's own angle filter", "one node less on the Jetson"))),
    ("the docking behavior tree", (("the default navigate_w_recovery tree", "less custom code before the SAT"),
                                   ("our own dock tree with a retry", "docking fails one in ten"))),
)
DECIDE = ("go with {x}", "let's use {x}", "{x} it is", "we'll take {x}", "decided: {x}", "{x} にします",
          "{x} で行きましょう", "{x} に決めました", "ok, {x} then", "final answer {x}")
FIRST = ("let's try {x} first", "{x} でいいと思う、とりあえず", "go with {x} for the first round", "start with {x}",
         "I'd say {x} for now")
REVISE = ("scrap the {o} idea, {x} it is", "やっぱり {x} にします", "changed my mind, {x} instead",
          "forget {o}, go with {x}",
          "{o} はやめて {x} で", "on second thought: {x}")
DECIDE_FORMS = ("{said}. {why}", "{why}, so {said}", "{said}.", "ok after those numbers: {said}. {why}.",
                "{said} — {why}", "決めた: {said}. {why}", "for {name}: {said}", "{name}: {said}. reason: {why}")
FIRST_FORMS = ("{said}. {why}", "for {name}, {said}", "{said}, we can change it later", "{name}: {said}?",
               "{said} — {why}", "hmm, {said}. {why}")


# --- planted: plans in prose -------------------------------------------------------------------------------------
PLAN_STEPS = ("fix the tf timestamps", "fix the lidar timestamp offset", "retune amcl", "retune amcl's alpha params",
              "rerun the {n} warehouse bags", "rebuild the docker image", "bump the lumos driver to v2.3.1",
              "write a gtest for the CAN frame encoder", "run the narrow-aisle world {n} times in sim",
              "record a fresh bag on the real robot", "compare RPP and MPPI on the dock approach",
              "clean up the CMake warnings in amr_base", "check the heartbeat timing on can0",
              "profile controller_server", "update the SAT checklist doc", "merge Yuki's costmap branch",
              "measure the wheel separation again", "set up the consumer heartbeat on both drives",
              "tune the velocity smoother limits", "look at the dock approach in the bags",
              "add the ramp to the sim world", "write the test log for last week", "check the e-stop latency",
              "retest docking {n} times on the real robot")
PLAN_FORMS = ("first {a}, then {b}, then {c}", "まず{a}、それから{b}、最後に{c}", "order: {a} → {b} → {c}",
              "{a} first; after that {b}; {c} last", "plan for today: 1) {a} 2) {b} 3) {c}",
              "let's do {a}, then {b}, and only then {c}", "{a}, then {b}", "step one {a}, step two {b}",
              "today: {a} → {b}", "first {a}, after that {b}, and if there's time {c}")
PLAN_WRAP = ("{plan}.", "ok here's the plan: {plan}.", "{plan}. don't jump ahead pls", "{plan}。よろしく",
             "{ack}. {plan}.", "so: {plan}. questions?", "{plan}. I'll check in after each one")


# --- planted: errors in tool output, some fixed by a later run of the same tool ----------------------------------
SIGS = {"amr_can_bridge": ("amr_can_bridge::MotorFrame::MotorFrame(uint32_t&, std::array<unsigned char, 8>&)",
                           "amr_can_bridge::SdoClient::write(int, int, double)"),
        "amr_base": ("amr_base::DiffDriveOdometry::integrate(double&, double&, rclcpp::Time&)",
                     "amr_base::BaseNode::sendVelocity(double)"),
        "lumos_lidar_ros2": ("lumos::PacketParser::feed(std::vector<unsigned char>&)",
                             "lumos::LumosDriver::setScanFrequency(float, bool)"),
        "amr_safety": ("amr_safety::SpeedLimiter::limit(double, bool)", "amr_safety::EstopMonitor::latch(const char*)"),
        "amr_localization_tools": ("amr_localization_tools::PoseErrorNode::compare(const PoseStamped&, bool)",
                                   "amr_localization_tools::ScanStats::ScanStats(rclcpp::Node*)"),
        "amr_navigation": ("amr_navigation::WaitForDock::WaitForDock(const std::string&)",
                           "amr_navigation::IsBatteryLow::IsBatteryLow(const char*, int)")}
SYMS = {"amr_base": ("amr_base::DiffDriveOdometry::reset(double, double)",),
        "amr_can_bridge": ("amr_can_bridge::SdoClient::readU32(unsigned short, unsigned char)",
                           "amr_can_bridge::HeartbeatConsumer::arm(std::chrono::duration<long, "
                           "std::ratio<1l, 1000l> >)"),
        "lumos_lidar_ros2": ("lumos::crc16_ccitt(unsigned char const*, unsigned long)",),
        "amr_safety": ("amr_safety::SpeedLimiter::setFields(std::vector<double, std::allocator<double> > const&)",),
        "amr_localization_tools": ("amr_localization_tools::loadGroundTruth(std::__cxx11::basic_string<char, "
                                   "std::char_traits<char>, std::allocator<char> > const&)",),
        "amr_navigation": ("amr_navigation::registerDockNodes(BT::BehaviorTreeFactory&)",)}
CMAKE_PKGS = ("can_msgs", "ros2_socketcan", "angles", "diagnostic_updater", "laser_filters", "robot_localization")
FACT_TESTS = ("CanFrameTest.EncodesNegativeRpm", "HeartbeatTest.TimesOutAfter150ms", "OdometryTest.RampIntegration",
              "SpeedLimiterTest.ProtectiveFieldStopsWithin50ms", "PacketParserTest.ResyncsAfterGarbage",
              "PoseErrorTest.HandlesYawWrapAt180", "SdoClientTest.RetriesOnAbort", "DockTreeTest.RetriesOnce",
              "EstopMonitorTest.LatchesUntilReset", "MotorStateTest.ScalesBusVoltage")
FACT_PYTESTS = (("test/test_param_files.py::test_nav2_params_have_all_plugins",
                 "AssertionError: missing plugin params: ['FollowPath.lookahead_time']"),
                ("test/test_param_files.py::test_lidar_angle_limits", "AssertionError: assert -135.0 <= -180.0"),
                ("test/test_bringup_launch.py::test_all_nodes_active",
                 "AssertionError: lifecycle state of /amcl is inactive"),
                ("test/test_deadman.py::test_release_stops_within_100ms", "AssertionError: assert 0.184 < 0.1"),
                ("test/test_joy_bridge.py::test_axis_mapping_reverse", "AssertionError: assert -0.5 == 0.5"),
                ("test/test_world_files.py::test_ramp_world_loads",
                 "FileNotFoundError: [Errno 2] No such file or directory: 'worlds/ramp_test.world'"))
DIED = (("lumos_driver", "lumos_lidar_ros2", -11), ("can_bridge_node", "amr_can_bridge", -6),
        ("base_node", "amr_base", -11), ("estop_monitor", "amr_safety", 1), ("controller_server", "nav2_controller",
                                                                             -6),
        ("amcl", "nav2_amcl", -11))


def _point(s: _S, value: str, since: int, quote: float = 0.5) -> str:
    """The agent naming a value it read (only while the value may still be repeated) or pointing back at it."""
    if len(s.msgs) - since <= AFTER and s.chance(quote):
        return s.pick(("This line: `{v}`.", "The relevant bit is `{v}`.", "It says `{v}`.", "→ `{v}`")).format(v=value)
    return s.pick(("That's the culprit.", "See the line I mentioned above.",
                   "That one line in the output is the problem.",
                   "It's the same thing as in the output above.", "That's what we were looking for.", "There it is."))


def _error_build(s: _S, kind: int) -> tuple[str, dict[str, Any], Callable[[], str], str, str, str]:
    """(tool, args, output maker, value, query, what the agent says it is) of one planted build error."""
    r = s.r
    pkg = s.pick(list(SOURCES))
    path = f"{WS}/src/{pkg}/{SOURCES[pkg][0]}"
    pkgs = PACKAGES if r.random() < 0.5 else tuple(p for p in PACKAGES if p in (pkg, "amr_msgs", "amr_can_bridge"))
    args = {"args": "build --symlink-install" + ("" if pkgs == PACKAGES else " --packages-up-to " + pkg)}
    if kind == 0:
        sig = s.pick(SIGS[pkg])
        line, col = s.odd(40, 600), r.randint(5, 40)
        value = f"{path}:{line}:{col}: error: no matching function for call to '{sig}'"
        cand = sig.split("(")[0]
        block = [f"{path}: In member function '{s.pick(FUNCS[pkg])}':", value,
                 f"{line:5d} |   auto result = {cand.split('::')[-1]}(id, payload);", f"      | {' ' * col}^",
                 f"In file included from {path}:12:",
                 f"{WS}/src/{pkg}/include/{pkg}/{cand.split('::')[-2].lower()}.hpp:{r.randint(20, 90)}:12: note: "
                 "candidate: "
                 f"'{cand}({sig.split('(')[1].replace('&', ' const&').rstrip(')')}, bool)'",
                 f"{WS}/src/{pkg}/include/{pkg}/{cand.split('::')[-2].lower()}.hpp:{r.randint(20, 90)}:12: note:   "
                 f"candidate expects {sig.count(',') + 2} arguments, {sig.count(',') + 1} provided",
                 f"gmake[2]: *** [CMakeFiles/{pkg}_node.dir/build.make:{s.even(70, 200)}: "
                 f"CMakeFiles/{pkg}_node.dir/{SOURCES[pkg][0]}.o] Error 1", "gmake: *** [Makefile:146: all] Error 2"]
        what = "a call that no longer matches the constructor/method signature"
    elif kind == 1:
        sym = s.pick(SYMS[pkg])
        obj = SOURCES[pkg][0].rsplit("/", 1)[-1]
        value = f"{obj}:(.text+0x{s.hexs(3)}{s.pick('13579bdf')}): undefined reference to `{sym}'"
        block = [f"/usr/bin/ld: CMakeFiles/{pkg}_node.dir/{SOURCES[pkg][0]}.o: in function "
                 f"`{s.pick(FUNCS[pkg]).split(' ', 1)[1]}':",
                 value, "collect2: error: ld returned 1 exit status",
                 f"gmake[2]: *** [CMakeFiles/{pkg}_node.dir/build.make:{s.even(100, 200)}: {pkg}_node] Error 1",
                 f"gmake[1]: *** [CMakeFiles/Makefile2:{s.even(100, 300)}: CMakeFiles/{pkg}_node.dir/all] Error 2",
                 "gmake: *** [Makefile:146: all] Error 2"]
        what = "a linker error: the symbol is declared but its definition isn't linked into the node"
    else:
        dep = s.pick(CMAKE_PKGS)
        value = f"CMake Error at CMakeLists.txt:{s.odd(11, 79)} (find_package):"
        block = [value, f"  By not providing \"Find{dep}.cmake\" in CMAKE_MODULE_PATH this project has",
                 f"  asked CMake to find a package configuration file provided by \"{dep}\", but",
                 "  CMake did not find one.", "",
                 f"  Could not find a package configuration file provided by \"{dep}\" with any",
                 "  of the following names:", "", f"    {dep}Config.cmake", f"    {dep.replace('_', '-')}-config.cmake",
                 "",
                 f"  Add the installation prefix of \"{dep}\" to CMAKE_PREFIX_PATH or set",
                 f"  \"{dep}_DIR\" to a directory containing one of the above files.  If",
                 f"  \"{dep}\" provides a separate development package or SDK, be sure it has", "  been installed.", "",
                 "",
                 "-- Configuring incomplete, errors occurred!",
                 f"See also \"{WS}/build/{pkg}/CMakeFiles/CMakeOutput.log\"."]
        what = f"CMake can't find {dep}; it's not installed in the image (or not in package.xml)"
    return ("colcon", args, lambda: _colcon_build(s, s.want(), pkgs, (pkg, block)), value,
            f"the build error of {pkg}", what)


def _error_spec(s: _S, kind: int) -> dict[str, Any]:
    """One planted error: the tool, its args, the output maker, the value (a whole output line), the query, what
    the agent makes of it, and how a passing rerun of the same tool looks."""
    r = s.r
    if kind < 3:
        tool, args, out, value, query, what = _error_build(s, kind)
        pkgs = tuple(PACKAGES)
        pkg = query.rsplit(" ", 1)[-1]
        return {"tool": tool, "args": args, "out": out, "value": value, "query": query, "what": what, "ask": "build",
                "fix_path": f"src/{pkg}/" + (SOURCES[pkg][0] if kind < 2 else "CMakeLists.txt"),
                "ask_text": s.pick((f"build {pkg} again", f"does {pkg} still build?", f"{pkg} ビルドして",
                                    f"rebuild up to {pkg}, I merged dev")),
                "rerun": lambda: (args, _colcon_build(s, s.want(), pkgs)), "fix": "src"}
    if kind == 3:
        name = s.fresh("ftest", FACT_TESTS)
        pkg = s.pick(list(GTESTS))
        ms = r.randint(1, 400)
        value = f"[  FAILED  ] {name} ({ms} ms)"
        detail = [f"{WS}/src/{pkg}/test/test_{pkg.split('_')[-1]}.cpp:{s.odd(20, 400)}: Failure",
                  "Expected equality of these values:",
                  f"  {r.choice(('frame.data[2]', 'odom.x()', 'limiter.limit(0.8)', 'hb.timed_out()', 'err.yaw'))}",
                  "    Which is: "
                  f"{r.choice(('0x9C', '0.99870000000000003', '0.29999999999999999', 'false', '-3.1415'))}",
                  f"  {r.choice(('0x64', '1.0', '0', 'true', '3.1415'))}"]
        binary = f"./build/{pkg}/test_{pkg.split('_')[-1]}"
        args = {"command": f"{binary} --gtest_color=no"}
        return {"tool": "bash", "args": args, "value": value,
                "out": lambda: "\n".join(_gtest_run(s, pkg, s.want(), [(name, detail, ms)])),
                "query": f"the failing unit test in {pkg}", "what": "a failing assertion in the new test",
                "fix_path": f"src/{pkg}/test/test_{pkg.split('_')[-1]}.cpp",
                "ask": "test", "ask_text": s.pick((f"run the {pkg} unit tests", f"{pkg} のテスト回して",
                                                    f"do the gtests in {pkg} pass?")), "rerun": lambda: (args,
                                                        "\n".join(_gtest_run(s, pkg, s.want()))), "fix": "src"}
    if kind == 4:
        node, msg = s.fresh("fpytest", FACT_PYTESTS)
        pkg = "amr_teleop" if "deadman" in node or "joy" in node else "amr_sim" if "world" in node else "amr_bringup"
        value = f"FAILED {node} - {msg}"
        detail = ["", f"    def {node.split('::')[1]}():", ">       " + msg.split(": ", 1)[-1].replace("assert",
            "assert", 1),
                  f"E       {msg}", "", f"{node.split('::')[0]}:{s.odd(11, 99)}: {msg.split(':')[0]}"]
        args = {"args": f"test --packages-select {pkg} --event-handlers console_cohesion+"}
        return {"tool": "colcon", "args": args, "value": value,
                "out": lambda: _colcon_test(s, s.want(), (pkg,), (pkg, [(node, msg, detail)])),
                "query": f"the failing Python test in {pkg}", "what": "an assumption in the test that no longer holds",
                "fix_path": f"src/{pkg}/{node.split('::')[0]}",
                "ask": "test", "ask_text": s.pick((f"colcon test {pkg}", f"run the {pkg} tests, CI is red")),
                "rerun": lambda: (args, _colcon_test(s, s.want(), (pkg,))), "fix": "src"}
    if kind in (5, 6):
        key = ("amr_bringup", "bringup.launch.py")
        args = {"package": key[0], "launch_file": key[1], "args": ["with_nav:=true"], "duration_s": 60}
        if kind == 5:
            exe, pkg, code = s.pick(DIED)
            pid = s.new_pid()
            holder: dict[str, str] = {}

            def out() -> str:
                log, labels = _launch(s, key, s.want(), at=0.7, stop=True)
                lab = labels.get(exe, f"{exe}-3")
                holder["v"] = (f"[ERROR] [{lab}]: process has died [pid {pid}, exit code {code}, cmd "
                               f"'{WS}/install/{pkg}/lib/{pkg}/{exe} --ros-args -r __node:={exe} --params-file "
                               f"/tmp/launch_params_{s.hexs(8)}'].")
                return (log + "\n" + holder["v"]
                        + f"\n[INFO] [launch]: process[{lab}] was required: shutting down launched system")
            text = out()
            return {"tool": "ros2_launch", "args": args, "value": holder["v"], "out": lambda: text,
                    "query": "the process that died in the bringup launch", "what": f"{exe} crashed on startup",
                    "ask": "launch", "ask_text": s.pick(("bring up the full stack with nav", "フル起動してみて",
                                                         "start bringup with nav, something dies")),
                                                         "rerun": lambda: (args, _launch(s, key, s.want())[0]),
                                                         "fix": "src"}
        text, value = _launch_with(s, key, lambda t: (
            f"[controller_server-{r.randint(8, 14)}] [ERROR] [{t}] [controller_server]: Exception in transformPose: "
            f"Lookup would require extrapolation into the future.  Requested time {float(t) + 0.1:.6f} but the "
            f"latest data is at time {float(t) - r.uniform(0.05, 0.4):.6f}, when looking up transform from frame "
            "[odom] to frame [map]"))
        return {"tool": "ros2_launch", "args": args, "value": value, "out": lambda: text,
                "query": "the tf error in the navigation launch", "what": "map->odom lags, the lidar stamps are behind",
                "ask": "launch", "ask_text": s.pick(("start nav and give it a goal", "bringup with nav, watch the tf",
                                                     "ナビ起動して、tfのエラー出てないか見て")), "rerun": lambda: (args,
                                                         _launch(s, key, s.want())[0]), "fix": "config"}
    if kind == 7:
        text, value = _dmesg(s, s.want(), "mttcan c310000.mttcan can0: bus-off")
        args = {"command": "ssh robot 'sudo dmesg | tail -n 120'"}
        return {"tool": "bash", "args": args, "value": value, "out": lambda: text,
                "query": "the CAN error in the robot's kernel log", "what": "the CAN controller went bus-off",
                "fix_path": "src/amr_bringup/config/can.yaml",
                "ask": "can", "ask_text": s.pick(("check dmesg on the robot, can0 acted up",
                                                  "kernel log on the robot pls",
                                                  "the drives stopped for a sec, dmesg?")),
                                                  "rerun": lambda: ({"command": "ssh robot 'ip -details -statistics "
                                                                     "link show can0'"}, _ip_link(s)),
                "fix": "config"}
    if kind == 8:
        pid = s.new_pid()
        pkg = s.pick(list(GTESTS))
        value = (f"=={pid}==ERROR: AddressSanitizer: heap-use-after-free on address 0x60{s.hexs(10)} at pc "
                 f"0x55{s.hexs(10)} bp 0x7ff{s.hexs(9)} sp 0x7ff{s.hexs(9)}")
        frames = [f"{s.pick(FUNCS[pkg]).split(' ', 1)[1]} {WS}/src/{pkg}/{SOURCES[pkg][0]}:{s.odd(40, 400)}",
                  "std::function<void ()>::operator()() const /usr/include/c++/11/bits/std_function.h:590",
                  "rclcpp::Executor::execute_any_executable(rclcpp::AnyExecutable&) ??:0"]
        binary = f"./build-asan/{pkg}/test_{pkg.split('_')[-1]}"
        args = {"command": f"ASAN_OPTIONS=detect_leaks=1 {binary}"}
        return {"tool": "bash", "args": args, "value": value,
                "out": lambda: "\n".join(_gtest_run(s, pkg, s.want() // 2)[:-2] + _asan(s, binary, value, frames, pid)),
                "query": f"the memory error ASan found in {pkg}",
                "what": "a callback uses an object after it was freed",
                "fix_path": f"src/{pkg}/{SOURCES[pkg][0]}",
                "ask": "memory", "ask_text": s.pick((f"run the {pkg} test under asan", f"{pkg} をASanで確認して")),
                "rerun": lambda: (args, "\n".join(_gtest_run(s, pkg, s.want()))), "fix": "src"}
    if kind == 9:
        world = s.pick(WORLDS)
        got: list[str] = []
        text = _gazebo(s, s.want(), world, lambda: got.append(
            f"[gzserver-1] [ERROR] [{s.stamp()}] [gazebo_ros2_control]: Error parsing URDF in gazebo_ros2_control "
            "plugin, plugin not active") or got, 0.3)
        value = got[0]
        args = {"world": world, "args": ["headless:=true"], "duration_s": 300}
        return {"tool": "sim", "args": args, "value": value, "out": lambda: text,
                "query": "the error Gazebo printed for the robot's control plugin",
                "what": "the xacro's ros2_control block is broken",
                "ask": "sim", "ask_text": s.pick((f"sim run in {world}", f"start gazebo with {world}")),
                "rerun": lambda: (args, _gazebo(s, s.want(), world)), "fix": "urdf"}
    bag = s.pick(NOISE_BAGS)
    value = (f"[ERROR] [{s.stamp()}] [rosbag2_storage]: Could not open 'bags/{bag}' with 'sqlite3'. Error: Failed to "
             "setup storage. Error: Could not read-only open database. SQLite error (10): disk I/O error")
    args = {"args": f"info bags/{bag}"}
    return {"tool": "rosbag", "args": args, "value": value,
            "out": lambda: value + "\n[ERROR] [rosbag2_storage]: Failed to open storage for 'bags/" + bag + "'\n"
            + "Error reading bag metadata: Failed to load metadata.yaml: bad file: bags/" + bag + "/metadata.yaml",
            "query": f"why the bag {bag} won't open", "what": "the bag on the NAS mount is unreadable (I/O error)",
            "ask": "bags", "ask_text": s.pick((f"bag info on {bag}", f"{bag} の中身見て")), "rerun": lambda: (args,
                _bag_info(s, bag)), "fix": "none"}


def _launch_with(s: _S, key: tuple[str, str], make: Callable[[str], str]) -> tuple[str, str]:
    """A launch log with the line ``make`` writes for a stamp in its middle; returns the log and that line."""
    log, _labels = _launch(s, key, s.want())
    lines = log.split("\n")
    at = len(lines) // 2 + s.r.randint(-3, 3)
    stamp = next((x.split("] [")[2] for x in reversed(lines[:at]) if x.count("] [") >= 3), s.stamp())
    line = make(f"{float(stamp) + s.r.uniform(0.001, 0.05):.9f}")
    lines.insert(at, line)
    return "\n".join(lines), line


# --- planted: findings read off an output ------------------------------------------------------------------------
CRASHERS = ("pallet_detector", "dock_aligner", "shelf_finder", "qr_localizer", "cliff_guard", "lift_controller",
            "fleet_bridge", "battery_watch")
CRASH_FNS = (("amr_safety::FieldMonitor::onScan", "amr_safety"), ("amr_navigation::DockAligner::fitLine",
                                                                  "amr_navigation"),
             ("amr_localization_tools::QrLocalizer::decode", "amr_localization_tools"),
             ("amr_base::SlipDetector::update", "amr_base"), ("amr_can_bridge::PdoMapper::unpack", "amr_can_bridge"),
             ("lumos::IntensityFilter::apply", "lumos_lidar_ros2"))


def _eval_localization(s: _S, want: int, result: str) -> str:
    r = s.r
    lines = [f"loading ground truth from bags/{s.pick(NOISE_BAGS)}/mocap.csv ({r.randint(2000, 30000)} poses)",
             f"aligning clocks: offset {r.uniform(-0.2, 0.2):+.4f} s",
             "segment  n     trans_err_m  p95_m   yaw_err_deg"]

    def row() -> list[str]:
        return [f"seg {r.randint(0, 40):02d}   {r.randint(40, 900):<5d} {r.uniform(0.005, 0.2):.4f}       "
                f"{r.uniform(0.02, 0.5):.4f}  {r.uniform(0.1, 6):.2f}"]
    _fill(lines, min(want, 3500), row)
    lines.append(result)
    return "\n".join(lines)


def _finding_spec(s: _S, kind: int) -> dict[str, Any]:
    r = s.r
    if kind == 0:
        topic, hz, lo, hi = s.pick((("/scan", 15.0, 6.0, 11.0), ("/odom", 50.0, 22.0, 41.0), ("/motor_state", 50.0,
            18.0, 37.0)))
        rate = s.odd_digits(lo, hi, 3)
        value = f"average rate: {rate}"
        return {"tool": "ros2_cli", "args": {"args": f"topic hz {topic}"}, "value": value,
                "out": lambda: _hz(s, s.want(), hz, rate), "query": f"the measured publish rate of {topic}",
                "say": f"{topic} is well below its nominal {hz:.0f} Hz", "ask": "topics",
                "ask_text": s.pick((f"check the {topic} rate", f"{topic} feels slow, hz?", f"{topic} の周期確認して"))}
    if kind in (1, 10):
        cm = s.odd_digits(3.0, 48.0, 1)
        value = f"{cm} cm" if kind == 1 else f"final drift {cm} cm"
        line = (f"RESULT amcl vs mocap: mean {value} over {r.randint(900, 9000)} poses" if kind == 1
                else f"odometry only, {r.randint(40, 120)} m loop: {value}, heading {r.uniform(1, 9):.1f} deg")
        script = "eval_localization.py" if kind == 1 else "eval_odom_drift.py"
        return {"tool": "bash", "args": {"command": f"python3 src/amr_localization_tools/scripts/{script} --bag bags/"
                                                     f"{s.pick(NOISE_BAGS)}"},
                "value": value, "out": lambda: _eval_localization(s, s.want(), line),
                "query": "the localization error against ground truth" if kind == 1 else "the odometry drift over the "
                "loop",
                "say": "that's the number to beat", "ask": "bags",
                "ask_text": s.pick(("run the localization eval on the bag",
                                    "how far off is amcl vs mocap?")) if kind == 1
                else s.pick(("odom drift eval pls", "how much does odom drift over the loop?"))}
    if kind == 2:
        cpu = s.odd_digits(112, 390, 2) + "%"
        return {"tool": "bash", "args": {"command": "docker stats --no-stream"}, "value": cpu,
                "out": lambda: _docker_stats(s, ("amr-dev", cpu)), "query": "the CPU load of the dev container",
                "say": "the container is using more than a core and a half", "ask": "docker",
                "ask_text": s.pick(("container load?", "the fan is screaming, check docker stats", "負荷どう?"))}
    if kind == 3:
        value = f"berr-counter tx {r.randint(9, 255)} rx {r.randrange(1, 128, 2)}"
        return {"tool": "bash", "args": {"command": "ssh robot 'ip -details -statistics link show can0'"},
                "value": value,
                "out": lambda: _ip_link(s, value, r.choice(("ERROR-WARNING", "ERROR-PASSIVE"))),
                "query": "the CAN error counters on can0", "say": "the error counters are way up", "ask": "can",
                "ask_text": s.pick(("check bus errors on can0", "CAN大丈夫? error counters", "can0 state?"))}
    if kind == 4:
        exe = s.fresh("crasher", CRASHERS)
        key = ("amr_bringup", "bringup.launch.py")
        holder: dict[str, str] = {}

        def out() -> str:
            log, labels = _launch(s, key, s.want(), at=0.8, crash=(exe, exe))
            lab = labels[exe]
            holder["v"] = lab
            return (log + f"\n[ERROR] [{lab}]: process has died [pid {s.new_pid()}, exit code -11, cmd "
                    f"'{WS}/install/amr_navigation/lib/amr_navigation/{exe} --ros-args -r __node:={exe}'].")
        text = out()
        return {"tool": "ros2_launch", "args": {"package": key[0], "launch_file": key[1],
                                                "args": [f"with_{exe.split('_')[0]}:=true"],
                                                "duration_s": 60},
                "value": holder["v"], "out": lambda: text, "query": "which node segfaulted in the bringup launch",
                "say": "exit code -11 is a segfault", "ask": "launch",
                "ask_text": s.pick((f"bring up everything incl. the {exe} node", f"{exe} 付きで起動してみて"))}
    if kind == 5:
        value = f"definitely lost: {r.randint(1, 40)},{r.randint(0, 999):03d} bytes in {r.randint(2, 90)} blocks"
        pkg = s.pick(list(GTESTS))
        binary = f"./build/{pkg}/test_{pkg.split('_')[-1]}"
        frames = ["operator new(unsigned long) (in /usr/libexec/valgrind/vgpreload_memcheck-arm64-linux.so)",
                  f"{s.pick(FUNCS[pkg]).split(' ', 1)[1]} ({SOURCES[pkg][0].rsplit('/', 1)[-1]}:{r.randint(30, 300)})",
                  "main (gtest_main.cc:22)"]
        return {"tool": "bash", "args": {"command": f"valgrind --leak-check=full {binary}"}, "value": value,
                "out": lambda: _valgrind(s, s.want(), binary, value.split(": ", 1)[1], frames),
                "query": f"how much memory the {pkg} test leaks", "say": "there's a real leak in the callback path",
                "ask": "memory", "ask_text": s.pick((f"valgrind the {pkg} test", f"memory leak in {pkg}? valgrind it"))}
    if kind == 6:
        value = f"Max Delay: {s.odd_digits(0.08, 0.6, 4)}"
        return {"tool": "ros2_cli", "args": {"args": "run tf2_ros tf2_monitor"}, "value": value,
                "out": lambda: _tf2_monitor(s, ("laser_link", value)), "query": "the worst tf delay of the laser frame",
                "say": "laser_link is the late one", "ask": "tf", "ask_text": s.pick(("tf delays?", "tf_monitor pls"))}
    if kind in (7, 11):
        field = "bus_voltage" if kind == 7 else "winding_temp_c"
        num = s.odd_digits(48.2, 53.9, 2) if kind == 7 else s.odd_digits(71, 96, 1)
        value = f"{field}: {num}"

        def out() -> str:
            block = _echo_one(s, "/motor_state")
            block = [value if x.startswith(field + ":") else x for x in block]
            lines: list[str] = []
            _fill(lines, s.want() // 2, lambda: _echo_one(s, "/motor_state"))
            return "\n".join(lines + block)
        return {"tool": "ros2_cli", "args": {"args": "topic echo /motor_state"}, "value": value, "out": out,
                "query": "the drive's bus voltage on the ramp" if kind == 7 else "the motor winding temperature",
                "say": "that's above the supplier's limit" if kind == 7 else "the left motor runs hot", "ask": "topics",
                "ask_text": s.pick(("echo /motor_state while I drive up the ramp", "what do the drives report now?"))}
    if kind == 8:
        value = f"Factor[{s.odd_digits(0.1, 0.6, 2)}]"
        world = s.pick(WORLDS)
        line = f"{value} SimTime[{r.uniform(10, 300):.2f}] RealTime[{r.uniform(300, 900):.2f}] Paused[F]"
        return {"tool": "sim", "args": {"world": world, "args": ["headless:=true"], "duration_s": 600}, "value": value,
                "out": lambda: _gazebo(s, s.want(), world, lambda: [line], 0.8),
                "query": "the real-time factor of the sim run",
                "say": "the sim runs far slower than real time", "ask": "sim",
                "ask_text": s.pick((f"how fast does the sim run in {world}?", f"{world} feels sluggish, run it"))}
    if kind == 9:
        value = f"packet loss {s.odd_digits(1.0, 19.0, 2)}%"
        key = ("amr_bringup", "lidar.launch.py")
        return {"tool": "ros2_launch", "args": {"package": key[0], "launch_file": key[1], "duration_s": 30},
                "value": value,
                "out": lambda: _launch(s, key, s.want(), [("lumos_driver", "WARN", f"{value} over the last 10 s")],
                                       0.6)[0],
                "query": "the lidar's packet loss", "say": "the serial link drops packets", "ask": "launch",
                "ask_text": s.pick(("start the lidar launch, scans look patchy", "lidar単体で起動して"))}
    fn, pkg = s.fresh("crashfn", CRASH_FNS)
    pid = s.new_pid()
    binary = f"./build-asan/{pkg}/test_{pkg.split('_')[-1]}"
    frames = [f"{fn}(sensor_msgs::msg::LaserScan_<std::allocator<void> > const&) {WS}/src/{pkg}/src/"
              f"{fn.split('::')[-2].lower()}.cpp:{r.randint(30, 300)}",
              "std::function<void ()>::operator()() const /usr/include/c++/11/bits/std_function.h:590"]
    err = (f"=={pid}==ERROR: AddressSanitizer: heap-use-after-free on address 0x60{s.hexs(10)} at pc 0x55{s.hexs(10)} "
           f"bp 0x7ff{s.hexs(9)} sp 0x7ff{s.hexs(9)}")
    return {"tool": "bash", "args": {"command": f"ASAN_OPTIONS=detect_leaks=1 {binary}"}, "value": fn,
            "out": lambda: "\n".join(_gtest_run(s, pkg, s.want() // 2)[:-2] + _asan(s, binary, err, frames, pid)),
            "query": "the function where ASan caught the use-after-free", "say": "the crash is in that callback",
            "ask": "memory", "ask_text": s.pick((f"asan run of the {pkg} test", f"{pkg} crashes randomly, try asan"))}


# --- planted: identifiers, said by the user or printed by a tool -------------------------------------------------
def _ident_user(s: _S, kind: int) -> tuple[str, str, str]:
    """(value, the sentence that says it, query)."""
    r = s.r
    if kind == 0:
        v = f"HNL-{r.randint(1000, 9999)}"
        return v, s.pick((f"the customer's ticket for this is {v}, put it in the commit msg",
                          f"Hanshin opened {v} for the docking thing",
                          f"チケット番号は {v} です")), "the customer's ticket number"
    if kind == 1:
        v = f"RMA-{r.randint(23, 24)}-{r.randint(10000, 99999)}"
        return v, s.pick((f"Kessler gave us {v} for the broken drive", f"RMA number is {v}, keep it somewhere",
                          f"返品番号: {v}")), "the supplier's RMA number for the broken drive"
    if kind == 2:
        v = f"NR-AMR-{r.randint(22, 24)}-{r.randint(0, 9999):04d}"
        return v, s.pick((f"the robot on the bench is {v} (label on the back)", f"serial of the blue one: {v}",
                          f"this is {v} btw")), "the serial number of the robot on the bench"
    if kind == 3:
        v = f"KES-CS-{r.randint(10000, 99999)}"
        return v, s.pick((f"supplier case number is {v}", f"if you write to Kessler, reference {v}",
                          f"ケース番号 {v} で問い合わせ中")), "the supplier's support case number"
    if kind == 4:
        v = f"vpn-osk-{r.randint(10, 99)}.naniwa.lan"
        return v, s.pick((f"the site robot is reachable through {v}", f"jump host is {v} now, the old one is gone")), \
            "the VPN host for the site robot"
    if kind == 5:
        v = f"NAV-{r.randint(100, 999)}"
        return v, s.pick((f"track all of this under {v}", f"jira epic is {v}", f"{v} のチケットで管理して")), \
            "the Jira epic the work is tracked under"
    if kind == 6:
        v = "60:4b:aa:" + ":".join(s.hexs(2) for _ in range(3))
        return v, s.pick((f"lidar MAC is {v} if you need it for the DHCP lease", f"the lidar's MAC: {v}")), \
            "the lidar's MAC address"
    v = f"PO-4500{r.randint(100000, 999999)}"
    return v, s.pick((f"the customer PO is {v}, finance asked", f"PO番号: {v}")), "the customer's purchase order number"


def _ident_tool(s: _S, kind: int) -> dict[str, Any]:
    r = s.r
    if kind == 0:
        v = s.hexs(12)
        return {"tool": "bash", "args": {"command": "docker images ghcr.io/naniwa-robotics/amr-dev"}, "value": v,
                "out": lambda: "REPOSITORY                        TAG             IMAGE ID       CREATED          "
                "SIZE\n"
                f"ghcr.io/naniwa-robotics/amr-dev   humble          {v}   {r.randint(2, 50)} seconds ago   "
                f"{r.uniform(5, 8):.2f}GB\n"
                f"ghcr.io/naniwa-robotics/amr-dev   humble-stable   {s.hexs(12)}   {r.randint(2, 9)} days ago       "
                f"{r.uniform(5, 8):.2f}GB",
                "query": "the image id of the freshly built dev image", "ask": "docker",
                "ask_text": s.pick(("rebuild done? docker images pls", "which image id did the build make?"))}
    if kind == 1:
        v = s.hexs(12)
        msg = s.pick(COMMIT_MSGS[:12])
        return {"tool": "bash", "args": {"command": f"git commit -am '{msg}' && git rev-parse --short=12 HEAD"},
                "value": v,
                "out": lambda: f"[{s.pick(BRANCHES[2:])} {v[:7]}] {msg}\n {r.randint(1, 6)} files changed, "
                f"{r.randint(2, 90)} insertions(+), {r.randint(0, 40)} deletions(-)\n{v}",
                "query": "the commit that holds the fix", "ask": "git", "ask_text": s.pick(("commit it",
                    "コミットして"))}
    if kind == 2:
        s.tick(2, 6)
        v = f"rosbag2_{s.date('%Y_%m_%d-%H_%M_%S')}"
        topics = ["/scan", "/odom", "/tf", "/tf_static", "/motor_state", "/amcl_pose", "/cmd_vel"]
        return {"tool": "rosbag", "args": {"args": "record -s mcap " + " ".join(topics)},
                "value": v, "out": lambda: _bag_record(s, v, topics), "query": "the name of the bag just recorded",
                "ask": "bags", "ask_text": s.pick(("record a bag while I drive it around",
                                                   "バッグ録って、今から走らせる"))}
    if kind == 3:
        v = f"LS2-{r.randint(2201, 2252)}-{r.randint(10000, 99999)}"
        key = ("amr_bringup", "lidar.launch.py")
        return {"tool": "ros2_launch", "args": {"package": key[0], "launch_file": key[1], "duration_s": 20}, "value": v,
                "out": lambda: _launch(s, key, s.want(), [("lumos_driver", "INFO",
                                                           f"Connected to LUMOS-S2, serial {v}, "
                                                           "firmware "
                                                           f"{r.randint(2, 3)}.{r.randint(0, 9)}.{r.randint(0, 9)}")],
                                                           0.2)[0],
                "query": "the serial number of the lidar on the robot", "ask": "launch",
                "ask_text": s.pick(("start the lidar alone, I swapped the unit", "new lidar is mounted, launch it"))}
    if kind == 4:
        v = f"0x{r.randint(0x00100000, 0x00FFFFFF):08X}"
        node = s.pick(("0x21", "0x22"))
        return {"tool": "ros2_cli", "args": {"args": f"run amr_can_bridge sdo_read {node} 0x1018 4"}, "value": v,
                "out": lambda: f"[INFO] [{s.stamp()}] [sdo_read]: SDO upload {node} 0x1018:01 -> 0x0000029A (vendor "
                "id)\n"
                f"[INFO] [{s.stamp()}] [sdo_read]: SDO upload {node} 0x1018:02 -> 0x00004B30 (product code)\n"
                f"[INFO] [{s.stamp()}] [sdo_read]: SDO upload {node} 0x1018:03 -> 0x00020E03 (revision)\n"
                f"[INFO] [{s.stamp()}] [sdo_read]: SDO upload {node} 0x1018:04 -> {v} (serial number)",
                "query": "the serial number the left drive reports over CANopen", "ask": "can",
                "ask_text": s.pick(("read the drive's serial over SDO", "which serial does the new drive report?"))}
    if kind == 5:
        full = s.hexs(64)
        v = full[:12]
        return {"tool": "bash", "args": {"command": "docker run -d --name amr-sim --network host --gpus all "
                                                     "ghcr.io/naniwa-robotics/amr-sim:latest sim_nav.launch.py"},
                "value": v, "out": lambda: full, "query": "the id of the sim container that was started",
                "ask": "docker",
                "ask_text": s.pick(("start the sim container", "sim container 立ち上げて"))}
    v = f"https://github.com/naniwa-robotics/amr_stack/pull/{r.randint(300, 999)}"
    return {"tool": "bash", "args": {"command": "gh pr create --fill --base dev"}, "value": v,
            "out": lambda: f"\nCreating pull request for {s.pick(BRANCHES[2:])} into dev in "
            f"naniwa-robotics/amr_stack\n\n{v}",
            "query": "the pull request opened for the fix", "ask": "git",
            "ask_text": s.pick(("open a PR against dev", "PR出して"))}


# --- planted: files the agent creates or edits -------------------------------------------------------------------
NEW_FILES = (("src/amr_can_bridge/src/heartbeat_watchdog.cpp", "a heartbeat watchdog for the drives"),
             ("src/amr_can_bridge/test/test_heartbeat_watchdog.cpp", "the watchdog's unit test"),
             ("src/amr_navigation/config/nav2_params_narrow_aisle.yaml", "the narrow-aisle Nav2 parameters"),
             ("src/amr_localization_tools/scripts/compare_amcl_runs.py", "comparing amcl runs across bags"),
             ("src/amr_bringup/launch/record_site_bag.launch.py", "recording bags on site"),
             ("src/amr_safety/test/test_speed_limiter_ramp.cpp", "the speed limiter's ramp test"),
             ("tools/can_replay.py", "replaying candump logs onto vcan0"),
             ("docker/entrypoint_robot.sh", "the robot container's entrypoint"),
             ("src/amr_description/urdf/bumper.xacro", "the bumper in the robot description"),
             ("src/amr_base/src/wheel_slip_detector.cpp", "detecting wheel slip"),
             ("src/amr_navigation/behavior_trees/dock_with_retry.xml", "a docking tree with one retry"),
             ("src/amr_localization_tools/scripts/tf_stamp_check.py", "checking tf stamps against scan stamps"),
             ("src/amr_sim/worlds/hanshin_ramp.world", "a sim world with the customer's ramp"),
             ("src/amr_bringup/config/cyclonedds_site.xml", "the DDS settings for the site network"))


def _file_content(s: _S, path: str) -> str:
    r = s.r
    if path.endswith(".cpp"):
        pkg = path.split("/")[1] if path.startswith("src/") else "amr_base"
        return _cpp(s, pkg if pkg in SOURCES else "amr_base", path, r.randint(1500, 4500))
    if path.endswith(".py") and "launch" not in path:
        return _py_script(s, path, r.randint(1200, 3000))
    if path.endswith(".launch.py"):
        return _launch_py(s, path)
    if path.endswith(".yaml"):
        return _nav2_yaml(s, r.randint(1500, 4000))
    if path.endswith(".xacro"):
        return _xacro(s)
    if path.endswith(".xml") and "behavior" in path:
        return _misc_file(s, "bt")
    if path.endswith(".sh"):
        return ("#!/bin/bash\nset -e\nsource /opt/ros/humble/setup.bash\nsource /ws/install/setup.bash\n"
                "export RMW_IMPLEMENTATION=rmw_cyclonedds_cpp\n"
                "ip link show can0 >/dev/null 2>&1 || echo 'can0 missing' >&2\nexec \"$@\"\n")
    if path.endswith(".world"):
        return "\n".join(['<?xml version="1.0"?>', '<sdf version="1.6">', '  <world name="hanshin_ramp">',
                          "    <include><uri>model://ground_plane</uri></include>",
                          "    <include><uri>model://sun</uri></include>",
                          '    <model name="ramp">', "      <static>true</static>",
                          f'      <pose>{r.uniform(5, 20):.2f} {r.uniform(1, 8):.2f} 0 0 {r.uniform(0.03, 0.08):.3f} '
                          '0</pose>',
                          '      <link name="link"><collision name="c"><geometry><box><size>3 1.6 0.1</size></box>'
                          "</geometry></collision></link>", "    </model>", "  </world>", "</sdf>"])
    return "\n".join(['<?xml version="1.0" encoding="UTF-8" ?>', "<CycloneDDS xmlns=\"https://cdds.io/config\">",
                      "  <Domain Id=\"any\">", "    <General>", "      <Interfaces>",
                      "        <NetworkInterface name=\"wlan0\" priority=\"default\" multicast=\"false\"/>",
                      "      </Interfaces>", "      <AllowMulticast>false</AllowMulticast>", "    </General>",
                      "    <Discovery>", "      <Peers><Peer address=\"localhost\"/></Peers>",
                      f"      <MaxAutoParticipantIndex>{r.choice((20, 40, 60))}</MaxAutoParticipantIndex>",
                      "    </Discovery>",
                      "  </Domain>", "</CycloneDDS>"])


# --- the plan: where each fact goes ------------------------------------------------------------------------------
STYLES = ("indirect", "casual", "conditional", "japanese", "polite", "paragraph")
PASTE_KINDS = ("supplier", "sat", "slack", "boss", "issue")


class _Event:
    __slots__ = ("target", "kind", "user", "data")

    def __init__(self, target: int, kind: str, user: bool, data: dict[str, Any] | None = None) -> None:
        self.target, self.kind, self.user, self.data = target + 1, kind, user, data or {}


def _spread(s: _S, k: int, lo: float, hi: float) -> list[float]:
    return [lo + (hi - lo) * (j + s.r.uniform(0.2, 0.8)) / k for j in range(k)]


def _plan(s: _S) -> list[_Event]:
    n, k, r = s.n, per_kind(s.n), s.r
    lo, hi = 0.045, 0.85 - 8 / n
    ev: list[_Event] = []
    styles = list(STYLES)
    r.shuffle(styles)
    order = styles[:2] + ["adopted"] + styles[2:]
    inst = [r.uniform(0.035, 0.06), r.uniform(0.075, 0.115)] + _spread(s, k - 2, 0.15, hi) if k >= 2 else [0.045]
    for j, f in enumerate(inst[:k]):
        ev.append(_Event(int(f * n), "instruction", True, {"style": order[j % len(order)]}))
    floor = int(0.04 * n) + 1

    def gap(at: int, least: int, most: int) -> int:
        room = at - floor
        return s.r.randint(min(least, room), max(min(least, room), min(most, room)))
    subjects = list(range(len(CORRECTIONS)))
    r.shuffle(subjects)
    for j, f in enumerate(_spread(s, k, 0.12 if k > 1 else 0.3, hi)):
        at = max(int(f * n), floor + 3)
        far = j % 2 == 0 and at - 110 >= floor
        data = {"subject": subjects[j % len(subjects)]}
        ev.append(_Event(at - (gap(at, 110, int(0.45 * n)) if far else gap(at, 14, min(60, int(0.12 * n)))), "stale",
                         True, data))
        ev.append(_Event(at, "correction", True, data))
    revised = set(r.sample(range(k), max(1, k // 3))) if k >= 2 else set()
    topics = list(range(len(DECISIONS)))
    r.shuffle(topics)
    for j, f in enumerate(_spread(s, k, lo + 0.03, hi)):
        at = max(int(f * n), floor + 3)
        data = {"topic": topics[j % len(topics)]}
        if j in revised:
            ev.append(_Event(at - gap(at, 16, int(0.25 * n)), "first_choice", True, data))
        ev.append(_Event(at, "decision", True, data))
    for f in _spread(s, k, lo, hi):
        ev.append(_Event(int(f * n), "plan", True))
    for j, f in enumerate(_spread(s, k, lo, hi)):
        ev.append(_Event(int(f * n), "identifier", j % 2 == 0, {"variant": j}))
    errs = list(range(11))
    r.shuffle(errs)
    fixed = set(r.sample(range(k), max(1, k // 2))) if k >= 2 else set()
    for j, f in enumerate(_spread(s, k, lo, hi)):
        ev.append(_Event(int(f * n), "error", False, {"variant": errs[j % len(errs)], "resolve": j in fixed}))
    finds = list(range(12))
    r.shuffle(finds)
    for j, f in enumerate(_spread(s, k, lo, hi)):
        ev.append(_Event(int(f * n), "finding", False, {"variant": finds[j % len(finds)]}))
    for f in _spread(s, k, lo, hi):
        ev.append(_Event(int(f * n), "file", False))
    pastes = min(10, max(1, round(n / 80)))
    kinds = list(PASTE_KINDS)
    r.shuffle(kinds)
    for j, f in enumerate(_spread(s, pastes, 0.05, 0.95)):
        ev.append(_Event(int(f * n), "paste", True, {"paste": kinds[j % len(kinds)]}))
    ev.sort(key=lambda e: (e.target, e.kind not in ("stale", "first_choice")))
    return ev


# --- writing the events ------------------------------------------------------------------------------------------
Ack = Callable[[], str]


def _within(s: _S, since: int, reach: int = AFTER) -> bool:
    """Whether the next message may still repeat a value said at ``since``."""
    return len(s.msgs) - since <= reach


def _user_event(s: _S, ev: _Event) -> tuple[Ack, str]:
    """Write a user event's message; returns what the agent will answer and the activity it goes on with."""
    r, d = s.r, ev.data
    act = s.pick(ACTIVITIES)
    if ev.kind == "instruction":
        ack, act = _plant_instruction(s, d["style"])
        return (lambda: ack), act
    if ev.kind == "stale":
        draw, said, _corr, _q = CORRECTIONS[d["subject"]]
        old, new = s.draw(lambda: draw(s), lambda p: [p[0], p[1]])
        d["pair"] = (old, new)
        text = s.pick(STALE_FORMS).format(said=s.pick(said).format(old=old), task=_ask(s, act).rstrip("?。"),
                                          ack=s.pick(ACKS))
        idx = s.user(text)
        d["stale_index"] = idx
        return (lambda: s.pick(("Noted: {o}.", "OK, {o} then.", "Got it — {o}.")).format(o=old)
                if _within(s, idx, STALE_AFTER) else s.pick(("Noted.", "OK, noted."))), act
    if ev.kind == "correction":
        old, new = d["pair"]
        _draw, _said, corr, query = CORRECTIONS[d["subject"]]
        said = s.pick(corr).format(new=new, old=old)
        text = s.pick(CORR_FORMS).format(said=said, task=_ask(s, act).rstrip("?。"))
        idx = s.user(text)
        s.facts.append(Fact("correction", new, idx, query, stale=old, stale_index=d["stale_index"]))
        return (lambda: s.pick(("OK, switching to {v}.", "Understood — {v} from now on.", "Thanks, using {v}."))
                .format(v=new) if _within(s, idx) else s.pick(("OK, using the corrected value from now on.",
                                                                "Understood, I'll use the new one."))), act
    if ev.kind == "first_choice":
        name, options = DECISIONS[d["topic"]]
        (o, why_o), (x, why_x) = r.sample(options, 2)
        stale, value = s.draw(lambda: (s.pick(FIRST).format(x=o), s.pick(REVISE).format(x=x, o=o)), lambda p: list(p))
        d.update(stale=stale, value=value, why=why_x)
        idx = s.user(s.pick(FIRST_FORMS).format(said=stale, why=why_o, name=name))
        d["stale_index"] = idx
        return (lambda: s.pick(("OK, starting with that.", "Sounds reasonable, I'll set it up.",
                                "了解、それで進めます。"))), act
    if ev.kind == "decision":
        name, options = DECISIONS[d["topic"]]
        if "value" in d:
            value, stale, stale_index, why = d["value"], d["stale"], d["stale_index"], d["why"]
        else:
            x, why = s.pick(options)
            value = s.draw(lambda: s.pick(DECIDE).format(x=x), lambda v: [v])
            stale = stale_index = None
        idx = s.user(s.pick(DECIDE_FORMS).format(said=value, why=why, name=name))
        s.facts.append(Fact("decision", value, idx, f"what the user decided for {name}", stale=stale,
                            stale_index=stale_index))
        return (lambda: s.pick(("OK, going with that.", "Decision noted, I'll switch the config.", "了解です。",
                                "Makes sense, switching."))), act
    if ev.kind == "plan":
        def make() -> str:
            a, b, c = r.sample(PLAN_STEPS, 3)
            n = str(r.choice((2, 3, 4, 5)))
            return s.pick(PLAN_FORMS).format(a=a, b=b, c=c).replace("{n}", n)
        value = s.draw(make, lambda v: [v])
        idx = s.user(s.pick(PLAN_WRAP).format(plan=value, ack=s.pick(ACKS)))
        s.facts.append(Fact("plan", value, idx, "the order of work the user laid out"))
        return (lambda: s.pick(("OK, starting with the first step.", "Got it, I'll go in that order.",
                                "Understood. First step now."))), act
    if ev.kind == "identifier":
        value, said, query = s.draw(lambda: _ident_user(s, s.fresh("ident_user", range(8))), lambda g: [g[0]])
        text = s.pick(("{said}", "{said}. {task}", "{task}. {said}", "btw {said}")).format(said=said, task=_ask(s,
            act).rstrip("?。"))
        idx = s.user(text)
        s.facts.append(Fact("identifier", value, idx, query))
        return (lambda: s.pick(("Noted.", "OK, I'll keep that at hand.", "Got it."))), act
    # a paste: someone else's text
    kind = d["paste"]
    body = _supplier_email(s, s.surname) if kind == "supplier" else PASTES[kind](s)
    wrap = r.choice(("```\n{p}\n```", "{p}", "-----\n{p}\n-----", "\"\"\"\n{p}\n\"\"\""))
    outro = s.pick(PASTE_OUTRO)
    text = s.pick(PASTE_INTRO[kind]) + "\n\n" + wrap.format(p=body) + (f"\n\n{outro}" if outro else "")
    idx = s.user(text)
    s.pasted.append((idx, body))
    return (lambda: s.pick(("Thanks, read it. Nothing there changes what I'm doing right now.",
                            "Read it. I'll only act on what you decide from it.",
                            "OK — noted as context, I won't act on their points unless you say so.",
                            "Got it. Some of it concerns the hardware side; I'll keep it in mind."))), "none"


def _fix_edit(s: _S, path: str) -> tuple[str, str]:
    """(old, new) of the edit that fixes an error in ``path``."""
    if path.endswith("CMakeLists.txt"):
        dep = s.pick(CMAKE_PKGS)
        return "find_package(ament_cmake REQUIRED)", f"find_package(ament_cmake REQUIRED)\nfind_package({dep} QUIET)"
    if path.endswith(".py"):
        return "import argparse", "import argparse\nimport time"
    if path.endswith("can.yaml"):
        return "    sync_period_ms: 10", f"    sync_period_ms: {s.pick((10, 20))}\n    bus_off_restart_ms: 100"
    if path.endswith("lidar.yaml"):
        return "    use_intensity: false", "    use_intensity: false\n    time_offset: -0.045"
    if path.endswith(".xacro"):
        return "  <gazebo>", '  <ros2_control name="GazeboSystem" type="system">\n  </ros2_control>\n  <gazebo>'
    body = s.pick(CPP_BODIES)
    old = body[s.r.randrange(len(body))]
    return old, old.replace("  ", "  // fixed: ", 1) if "return" in old else old + "  // checked"


def _prepare(s: _S, ev: _Event) -> str:
    """Draw a tool event's output and value before the turn that shows it; returns what the user asks for."""
    d = ev.data
    if "spec" not in d:
        if ev.kind == "error":
            d["spec"] = s.draw(lambda: _error_spec(s, d["variant"]), lambda sp: [sp["value"]])
        elif ev.kind == "finding":
            d["spec"] = s.draw(lambda: _finding_spec(s, d["variant"]), lambda sp: [sp["value"]])
        elif ev.kind == "identifier":
            d["spec"] = s.draw(lambda: _ident_tool(s, s.fresh("ident_tool", range(6))), lambda sp: [sp["value"]])
        else:
            path, purpose = s.draw(lambda: s.fresh("new_file", NEW_FILES), lambda g: [g[0]])
            d["spec"] = {"ask": "write", "path": path, "purpose": purpose,
                         "ask_text": s.pick(("can you add {p}", "{p} が欲しい", "we need {p}, new file pls",
                                             "write {p}", "next: {p}")).format(p=purpose)}
    return d["spec"]["ask"]


def _tool_event(s: _S, ev: _Event) -> Ack:
    """Run a tool event's steps inside the current turn; returns what the agent says about it."""
    r, d = s.r, ev.data
    _prepare(s, ev)
    if ev.kind == "error":
        spec = d["spec"]
        idx = s.step(spec["tool"], spec["args"], spec["out"](), s.pick(PRE[spec["tool"]]), failed=True)
        value = spec["value"]
        if not d["resolve"]:
            s.facts.append(Fact("error", value, idx, spec["query"]))
            return lambda: s.pick(("It fails: {w}. {p} I haven't touched it yet — your call whether we fix it now.",
                                   "Failure: {w}. {p} Leaving it as is for now; it's not blocking the rest.",
                                   "{p} Looks like {w}. Not fixing it in this pass.")).format(w=spec["what"],
                                                                                           p=_point(s, value, idx))
        pre = s.pick(("{p} Fixing it.", "So {w}. Let me look at it.", "{p}")).format(w=spec["what"], p=_point(s, value,
            idx, 0.7))
        if spec["fix"] == "none":
            s.step("bash", {"command": "ssh nas 'sudo mount -o remount,rw /mnt/bags' && ls /mnt/bags | head -3"},
                   "\n".join(NOISE_BAGS[:3]), pre)
        else:
            path, pkg = (spec["fix_path"], spec["fix_path"].split("/")[1]) if "fix_path" in spec else \
                ("src/amr_description/urdf/amr.urdf.xacro", "") if spec["fix"] == "urdf" else \
                ("src/amr_bringup/config/lidar.yaml", "")
            if r.random() < 0.6:
                s.step("read_file", {"path": f"{WS}/{path}"}, _numbered(_read(s, path, pkg, s.want(0.6))), pre)
                pre = ""
            old, new = _fix_edit(s, path)
            s.step("edit_file", {"path": f"{WS}/{path}", "old": old, "new": new}, f"Edited {WS}/{path} (1 replacement)",
                   pre)
        args, out = spec["rerun"]()
        again = s.step(spec["tool"], args, out, s.pick(("Rerunning.", "Same command again.", "", "Checking again.")))
        s.facts.append(Fact("error", value, idx, spec["query"], resolved=again))
        return lambda: s.pick(("Cause: {w}. Fixed, and the rerun is clean.", "Fixed — {w}. Second run passes.",
                               "Root cause: {w}. After the change the same command succeeds.")).format(w=spec["what"])
    if ev.kind == "finding":
        spec = d["spec"]
        idx = s.step(spec["tool"], spec["args"], spec["out"](), s.pick(PRE[spec["tool"]]))
        s.facts.append(Fact("finding", spec["value"], idx, spec["query"]))
        return lambda: f"{spec['say'][0].upper()}{spec['say'][1:]}. {_point(s, spec['value'], idx, 0.6)}"
    if ev.kind == "identifier":
        spec = d["spec"]
        idx = s.step(spec["tool"], spec["args"], spec["out"](), s.pick(PRE[spec["tool"]]))
        s.facts.append(Fact("identifier", spec["value"], idx, spec["query"]))
        return lambda: (s.pick(("That's `{v}`.", "For the record: {v}.", "Id: {v}.")).format(v=spec["value"])
                        if _within(s, idx) and s.chance(0.5)
                        else s.pick(("It's in the output above.", "Done, the id is printed above.", "Worked.")))
    path, purpose = d["spec"]["path"], d["spec"]["purpose"]
    content = _file_content(s, path)
    if r.random() < 0.3 and not path.endswith((".world", ".sh")):
        old = content.split("\n")[min(3, content.count("\n"))]
        args = {"path": path, "old": old, "new": old + "\n" + ("# " if path.endswith((".py", ".yaml")) else "// ")
                + "site tuning, see the SAT notes"}
        res = s.step("edit_file", args, f"Edited {path} (1 replacement)", s.pick(PRE["edit_file"]))
    else:
        res = s.step("write_file", {"path": path, "content": content}, f"Wrote {len(content.encode())} bytes to {path}",
                     s.pick(PRE["write_file"]))
    s.facts.append(Fact("file", path, res - 1, f"the file the agent wrote for {purpose}"))
    return lambda: (f"Added {path} for {purpose}." if _within(s, res - 1) and s.chance(0.5)
                    else s.pick((f"The new file for {purpose} is in place.", "File written.", f"Done with {purpose}.")))


# --- turns ------------------------------------------------------------------------------------------------------
INTRO = ("hi. context: I'm on the AMR stack at Naniwa Robotics (ROS 2 Humble, ws in /ws inside amr-dev). two KDM-48 "
         "drives on can0, Lumos S2 lidar, nav2. the customer SAT at Hanshin is in a few weeks so we need localization "
         "and docking solid. 今日は主にナビ周りを見てほしい。start by getting an overview of the workspace pls",
         "おはようございます。we're working on the warehouse robot today: colcon ws at /ws, nav2 + our own CAN bridge "
         "for the Kessler drives, sim in Gazebo classic. first: look around the workspace and tell me what you see",
         "Hi! quick intro: ROS 2 Humble AMR, packages under /ws/src (amr_base, amr_can_bridge, lumos driver, nav2 "
         "config...). The robot drifts and the lidar acts up sometimes. Let's start with a build and an overview.")


BIG = ("launch", "topics", "code", "can", "build", "test")
SMALL = ("git", "system", "doctor", "grep", "edit", "params", "tf")


def _filler_activity(s: _S) -> str:
    missing = [a for a, t in ACTIVITY_TOOLS.items() if t not in s.covered]
    if missing and s.chance(0.7):
        return s.pick(missing)
    deficit = PER_MESSAGE * len(s.msgs) - s.chars
    if deficit > 4000 and s.chance(0.8):
        return s.pick(BIG)
    if deficit < -6000 and s.chance(0.8):
        return s.pick(SMALL)
    acts = list(WEIGHTS)
    return s.r.choices(acts, weights=[WEIGHTS[a] for a in acts])[0]


ONE_SHOT = ("sim", "format", "doctor", "docker", "memory", "git", "system", "write", "edit", "grep", "launch")
CHAT = (
    ("why does amcl need the initial pose again after a restart?",
     "AMCL doesn't persist its last pose unless set_initial_pose/always_reset_initial_pose are configured; after a "
     "restart it starts from the default pose, so the particle cloud is wrong until someone sets it."),
    ("is 15 Hz enough for the lidar at 1.2 m/s?",
     "At 1.2 m/s the robot moves 8 cm between scans at 15 Hz. For the costmap that's fine; for the protective "
     "field the safety scanner is what matters, not this lidar."),
    ("どう思う? RPP or MPPI for the dock",
     "For the final docking meters I'd lean to RPP: predictable, few parameters. MPPI is nicer in clutter but "
     "harder to make repeatable to a few millimeters."),
    ("what's the difference between profile velocity and CSV mode again",
     "Profile velocity: the drive ramps itself with its own acceleration limits. CSV: we send a target every SYNC "
     "and the drive follows it directly, so the ramps are ours."),
    ("should we record /tf or only /tf_static for the replay tests?",
     "Both, if we want to replay without the robot_state_publisher; only /tf_static plus odom if we re-run "
     "localization on the bag. I'd record both and decide at replay time."),
    ("explain the heartbeat consumer thing in 2 lines pls",
     "The drive watches our heartbeat (0x1016). If we stop sending it for longer than the consumer time, the drive "
     "faults and stops instead of keeping the last velocity."),
    ("ok so what's left on the list?",
     "Open items as I see them: the localization jump near the dock, the CAN error counters, and the test coverage "
     "for the bridge. Tell me which one first."),
    ("lunch, back in 30", "OK. I'll not start anything on the robot meanwhile."),
    ("wait, did we commit the last change?", "Not yet — it's only in the working tree. I'll commit when you say."),
    ("what would you check first if the robot drifts only on one side?",
     "Wheel radius and separation first (one worn tire does it), then encoder counts per wheel over a straight "
     "run, then whether one drive saturates its current limit."),
    ("is the CAN load ok at 500k with two drives at 100 Hz?",
     "Roughly: two TPDOs and two RPDOs per cycle plus SYNC is about 500 frames/s, around 25 % bus load at 500 "
     "kbit/s. Fine, with room for SDOs and heartbeats."),
    ("do we need use_sim_time everywhere in the sim launch?",
     "Yes, every node that uses time: Nav2, amcl, robot_state_publisher. A single node on wall time gives exactly "
     "the extrapolation errors we've been seeing."),
    ("このエラー前にも見たことある?",
     "はい、似たものを前にも見ました。原因は同じ可能性が高いです — タイムスタンプのずれ。"),
    ("hmm why is the build so slow today", "Probably ccache got invalidated by the compiler flag change; the "
     "second build should be much faster."),
    ("明日は現地なので、今日中に終わらせたい", "了解です。優先度の高いものから片付けます。"),
    ("can the Jetson even run MPPI at 20 Hz?", "With batch_size around 1000 and 56 time steps it should, on the Orin "
     "it's mostly one core; I'd measure before committing to it."),
    ("what's a sane inflation for a 62 cm wide robot in a 1.2 m aisle?", "The inscribed radius is ~0.31 m, so the "
     "inflation has to stay small or the aisle center gets lethal cost; the cost_scaling_factor matters more."),
    ("do we really need the velocity smoother?", "It's what keeps the drives from seeing step changes in cmd_vel. "
     "Without it the profile velocity mode ramps anyway, but the controller and the drive then disagree."),
    ("is there a way to replay candump logs?", "canplayer from can-utils replays a candump -l file onto a vcan "
     "interface; the bridge can then run against vcan0 without hardware."),
    ("what happens if the lidar USB disconnects while navigating?", "The driver stops publishing; the costmap's "
     "observation source times out and the controller should stop with a failure after the expected_update_rate."),
    ("why two lifecycle managers?", "One for localization (map_server, amcl) and one for navigation, so we can "
     "restart navigation without losing the localization state."),
    ("しんどい、今日はここまでにする?", "はい、キリがいいので今日はここまでにしましょう。明日はテストの続きから。"),
    ("do you remember what the supplier said about the heartbeat?", "They recommended configuring a consumer "
     "heartbeat on our side; the details are in the mail you pasted."),
    ("is colcon test-result enough for CI or do we parse the xml?", "test-result returns non-zero on failures, "
     "that's enough for the gate; the XML is only needed for the report."),
    ("any idea why rviz shows the scan rotated?", "Usually the lidar mount yaw in the xacro or the driver's "
     "angle_min/angle_max convention; compare the tf of laser_link with the physical mount."),
    ("coffee break, 10 min", "OK."),
    ("what's the fastest way to check all nodes are active?", "ros2 lifecycle get on each managed node, or "
     "just look for 'Managed nodes are active' from both lifecycle managers in the launch log."),
    ("is it bad that the build prints setuptools warnings?", "No, that's the setup.py install deprecation in "
     "ament_python packages on Humble; harmless."),
    ("なんでいつもamclが最初に警告出すの?",
     "起動直後はtfがまだ揃っていないので、最初のスキャンが捨てられるだけです。数秒で落ち着きます。"),
    ("should the e-stop be a topic or hardware only?", "Hardware chain for the actual stop; a topic only to "
     "report the state, so the software knows why the drives disabled."),
)


def _ask_for(s: _S, step: Step, activity: str) -> str:
    """What the user typed to get ``step``: named after the call when it can be, else the activity's ask."""
    name, args = step[0], step[1]
    a = str(args.get("args") or args.get("command") or "")
    t = ""
    if name == "ros2_cli":
        w = a.split()
        if w[:2] == ["topic", "hz"]:
            t = s.pick(("check the {x} rate", "{x} hz?", "how fast is {x} coming in", "{x} の周期見て")).format(x=w[2])
        elif w[:2] == ["topic", "echo"]:
            t = s.pick(("echo {x} for a bit", "what's on {x}", "{x} 見せて")).format(x=w[2])
        elif w[:2] == ["param", "dump"]:
            t = s.pick(("dump the {x} params", "what does {x} have loaded", "{x} のパラメータ確認して")).format(x=w[2])
        elif w[:2] == ["node", "info"]:
            t = s.pick(("node info on {x}", "what is {x} subscribed to")).format(x=w[2])
        elif w[:2] == ["topic", "info"]:
            t = s.pick(("qos on {x}?", "who publishes {x}")).format(x=w[3])
    elif name == "read_file":
        base = args["path"].rsplit("/", 1)[-1]
        t = s.pick(("show me {x}", "read {x}", "{x} 見せて", "what's in {x} right now", "open {x}")).format(x=base)
    elif name == "ros2_launch":
        t = s.pick(("start {x} and watch it for a minute", "launch {x}", "{x} 起動してログ見て",
                    "bring up {x}, let's see what breaks")).format(x=args["launch_file"])
    elif name == "sim":
        t = s.pick(("run the sim with {x}", "headless sim in {x} pls",
                    "{x} でシミュレーションして")).format(x=args["world"])
    elif name == "rosbag":
        w = a.split()
        if w[0] == "info":
            t = s.pick(("bag info for {x}", "what's in {x}")).format(x=w[1].split("/")[-1])
        elif w[0] == "play":
            t = s.pick(("play {x} and watch amcl", "replay {x}", "{x} 再生して")).format(x=w[1].split("/")[-1])
    elif name == "colcon" and a.startswith("build") and "--packages-select" in a:
        t = s.pick(("build {x}", "quick build of {x}", "{x} ビルドして")).format(x=" and ".join(a.split()[3:5]))
    return s.pick(OPEN) + _typo(s, t, 0.05) + s.pick(TAIL) if t else _ask(s, activity)


CHAT_OPEN = ("", "", "", "ok, ", "random question: ", "ねえ、", "btw ", "hmm, ", "quick q: ")


def _chat(s: _S) -> tuple[str, str]:
    q, a = s.fresh("chat", CHAT)
    if a.isascii() and len(a) > 40:
        a = s.pick(("", "", "", "Short answer: ", "I'd say: ", "From what we've seen so far: ", "Good question. ",
                    "Honestly: ", "In short — ")) + a + s.pick(("", "", "", " Want me to check it on the robot?",
                                                               " I can show it in the code if useful.",
                                                               " We can verify that later in sim."))
    return _typo(s, s.pick(CHAT_OPEN) + q, 0.04), a


def _observe(s: _S, step: Step) -> str:
    """A sentence about what a filler step showed, in the agent's words (never a planted value)."""
    name, args, out, failed = step
    a = str(args.get("args") or args.get("command") or "")
    lines = out.split("\n")
    r = s.r
    if name == "colcon" and a.startswith("build"):
        summary = next((x for x in lines if x.startswith("Summary:")), "")
        stderr = next((x.split(": ", 1)[1] for x in lines if "had stderr output" in x), "")
        if failed:
            bad = next((x.split(": ", 1)[1] for x in lines if "package failed" in x), "one package")
            err = next((x.split("error: ", 1)[1] for x in lines if ": error: " in x), "a compile error")
            return s.pick((f"{bad} fails to compile: {err}",
                           f"Build broke in {bad} ({err}); the rest was fine or aborted"))
        done = summary.replace("Summary: ", "").capitalize()
        return s.pick((done + (f", warnings only in {stderr}" if stderr else ""),
                       "Build is clean" + (f" apart from warnings in {stderr.split()[0]}" if stderr else ""),
                       f"Built fine ({summary.split('[')[-1].rstrip(']') if '[' in summary else 'quick'})"))
    if name == "colcon":
        summary = next((x for x in lines if x.startswith("Summary:")), "Summary: done")
        return s.pick((f"Tests: {summary.split(': ', 1)[1]}", "No test failures",
                       f"Test run done — {summary.split(': ', 1)[1]}"))
    if name in ("ros2_launch", "sim"):
        warns = sum(" [WARN] " in x or "[Wrn]" in x for x in lines)
        errs = sum(" [ERROR] " in x or "[Err]" in x for x in lines)
        procs = sum("process started" in x for x in lines)
        what = args.get("launch_file") or args.get("world")
        return s.pick((f"{what}: {procs} processes up, {warns} warnings and {errs} errors in the log, nothing fatal",
                       f"{what} ran; {warns} WARN lines"
                       + (f" and {errs} ERROR lines (the known ones)" if errs else ""),
                       f"The {what} log is mostly noise: {warns} warnings, no process died"))
    if name == "ros2_cli":
        w = a.split()
        if w[:2] == ["topic", "hz"]:
            rates = [float(x.split(": ")[1]) for x in lines if x.startswith("average rate")]
            if not rates:
                return f"{w[2]} is silent"
            return f"{w[2]} runs at about {sum(rates) / len(rates):.1f} Hz, steady"
        if w[:2] == ["param", "dump"]:
            return s.pick((f"{w[2]} has {len(lines) - 2} parameter lines loaded, same as the yaml",
                           f"nothing surprising in the {w[2]} dump"))
        if w[:2] == ["topic", "echo"]:
            return s.pick((f"{w[2]} messages look sane ({out.count('---')} samples)", f"{w[2]} is publishing normally"))
        return s.pick((f"`ros2 {' '.join(w[:2])}` looks as expected", f"the {w[0]} output matches what bringup starts"))
    if name == "read_file":
        return s.pick((f"{args['path'].rsplit('/', 1)[-1]} is {len(lines)} lines",
                       f"read {args['path'].rsplit('/', 1)[-1]}"))
    if name == "grep":
        return f"{len([x for x in lines if x])} hits for {args['pattern']}"
    if name == "rosbag":
        return s.pick(("the bag looks complete", f"bag {a.split()[0]} done, no errors"))
    if "candump" in a:
        return f"{len(lines)} frames captured, PDOs and heartbeats from both drives, no error frames"
    if "ip -details" in a:
        return "can0 is ERROR-ACTIVE with zero error counters"
    if "dmesg" in a:
        return s.pick(("dmesg only shows the usual USB and thermal chatter", "nothing new in dmesg beyond known noise"))
    if "docker stats" in a:
        return "container load is moderate"
    if "valgrind" in a:
        return "memcheck: no definite leaks"
    if a.startswith("git log"):
        return f"last commit: \"{lines[0].split(' ', 1)[1].split(') ', 1)[-1]}\""
    if name in ("write_file", "edit_file"):
        return f"{args['path'].rsplit('/', 1)[-1]} updated"
    return r.choice(("output looks normal", "nothing unusual there", "as expected"))


def _steps(s: _S, activity: str, count: int, first: Step | None = None) -> list[tuple[str, Step]]:
    """``count`` tool steps, the first of ``activity`` (``first`` if given), the rest mostly of it; returns the
    (activity, step) run."""
    done: list[tuple[str, Step]] = []
    last = None
    for i in range(count):
        a = activity if activity in FILLER_TASKS and (i == 0 or (s.chance(0.6) and activity not in ONE_SHOT)) \
            else _filler_activity(s)
        name, args, out, failed = first if i == 0 and first else _filler_call(s, a)
        if (name, args) == last:
            a = _filler_activity(s)
            name, args, out, failed = _filler_call(s, a)
        last = (name, args)
        s.step(name, args, out, s.pick(PRE[name]), failed)
        done.append((a, (name, args, out, failed)))
    return done


def _double(s: _S, activity: str, first: Step | None = None) -> list[tuple[str, Step]]:
    a = activity if activity in FILLER_TASKS else _filler_activity(s)
    b = _filler_activity(s)
    one, two = first or _filler_call(s, a), _filler_call(s, b)
    s.calls([one, two], s.pick(("Two things at once.", "Checking both in parallel.", "", "")))
    return [(a, one), (b, two)]


def _sentence(text: str, lower: bool = False) -> str:
    """``text`` as a sentence: capitalized unless it starts with a name (a path, a file, a topic, code)."""
    head = text.split(" ", 1)[0]
    name = any(c in head for c in "._/`-0123456789") or head.isupper()
    if lower and not name and head.isalpha() and head[:1].isupper():
        text = text[0].lower() + text[1:]
    elif not lower and not name:
        text = text[0].upper() + text[1:]
    return text + ("" if text.endswith((".", "?", "!", "。")) else ".")


def _answer_turn(s: _S, head: list[str], ran: list[tuple[str, Step]]) -> None:
    """The agent's answer: what it acknowledges, what it saw, what's next."""
    parts = [p for p in head if p]
    lead = s.pick(LEADS) if ran and not parts and s.chance(0.6) else ""
    if ran and (not parts or s.chance(0.6)):
        seen = [_observe(s, step) for _a, step in ran[: s.r.randint(1,
                                                                    2)]] if s.chance(0.7) else [s.pick(OBS[ran[0][0]])]
        for i, obs in enumerate(seen):
            parts.append(_sentence(obs, lower=i == 0 and bool(lead) and not lead.endswith((".", ":"))))
    if not parts:
        parts.append(s.pick(("OK.", "Sure.", "了解です。")))
    s.say(" ".join(x for x in [lead] + parts + [s.pick(NEXTS)] if x))


def _filler_turn(s: _S, length: int) -> None:
    """A turn of exactly ``length`` messages: an ask, tool steps, an answer (or a question and a reply)."""
    inner = length - 2
    if inner <= 1:
        q, a = _chat(s)
        s.user(q)
        if inner == 1:
            q2, a = _chat(s)
            s.user(s.pick(("also ", "あと、", "and ", "")) + q2)
        s.say(a)
        return
    act = _filler_activity(s)
    first = _filler_call(s, act)
    s.user(_ask_for(s, first, act))
    ran = []
    if inner % 2:
        ran += _double(s, act, first)
        inner -= 3
        first = None
    ran += _steps(s, act, inner // 2, first)
    _answer_turn(s, [], ran)


def _max_steps(n: int) -> int:
    return max(1, min(7, n // 60))


def _run(s: _S) -> None:
    n, r = s.n, s.r
    s.add({"role": "system", "content": SYSTEM})
    pending = _plan(s)
    s.user(s.pick(INTRO))
    if n >= 200:
        _steps(s, "code", 1)
        s.step("bash", {"command": f"ls {WS}/src && git -C {WS} log --oneline --abbrev=12 -n 8"},
               "\n".join(PACKAGES) + "\n" + _git_log(s, 600))
    s.say("Workspace overview: 11 packages under /ws/src — the C++ nodes (amr_base, amr_can_bridge, amr_safety, the "
          "lumos driver, localization tools, nav BT plugins), the Python launch/sim/teleop packages, and the Nav2 "
          "config "
          "in amr_navigation. Ready for the first task.")
    while True:
        left = n - 1 - len(s.msgs)
        if left <= 0:
            break
        now = len(s.msgs)
        if not pending:
            most = 2 + 2 * _max_steps(n)
            length = left if left <= most else r.randint(2, most)
            if left - length == 1:
                length += 1 if length + 1 <= left else -1
            _filler_turn(s, length)
            continue
        due = [e for e in pending if e.user and e.target <= now]
        user_ev = next((e for e in due if e.kind == "instruction"), due[0] if due else None)
        tools = [e for e in pending if not e.user and e.target <= now + 1][:2]
        if user_ev is None and not tools:
            room = min(e.target for e in pending) - now
            length = r.randint(2, 3) if r.random() < 0.08 else \
                min(r.randint(4, 2 + 2 * max(2, _max_steps(n))), max(4, room + 1), left)
            if left - length == 1:
                length = max(2, length - 1)
            _filler_turn(s, length)
            continue
        if user_ev is not None:
            pending.remove(user_ev)
            ack, act = _user_event(s, user_ev)
        else:
            act = _prepare(s, tools[0])
            said = tools[0].data["spec"].get("ask_text")
            s.user(_typo(s, s.pick(OPEN) + said + s.pick(TAIL), 0.04) if said else _ask(s, act))
            ack = None
        later: list[Ack] = [ack] if ack else []
        for e in tools:
            pending.remove(e)
            later.append(_tool_event(s, e))
        backlog = sum(1 for e in pending if e.target <= len(s.msgs) + 4)
        count = r.randint(0, 1) if backlog else r.randint(0, _max_steps(n))
        count = min(count, max(0, (n - 1 - len(s.msgs) - 3) // 2))
        ran = _steps(s, act, count)
        if n - 1 - (len(s.msgs) + 1) == 1:
            s.user(s.pick(("wait", "hm?", "ちょっと待って", "and?")))
        _answer_turn(s, [say() for say in later], ran)


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more) with ``per_kind(messages)`` facts of each kind."""
    if messages < SMALLEST:
        raise ValueError(f"gen_amr needs at least {SMALLEST} messages, got {messages}")
    s = _S(seed, messages)
    s.surname = s.pick(SURNAMES)
    _run(s)
    s.user(_ask(s, _filler_activity(s)))
    return Session(messages=s.msgs, facts=sorted(s.facts, key=lambda f: f.index), seed=seed, pasted=s.pasted)

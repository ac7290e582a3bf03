"""Sessions of a robotics engineer and a coding agent on a ROS 2 warehouse robot, for the fidelity bench.

    from gen_robotics import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

The engineer (Shota Onishi, at a warehouse-automation startup in Osaka; writes mostly English, slips into
Japanese, sometimes whole sentences) and the agent work on the ROS 2 Humble stack of an autonomous mobile robot:
C++ and Python nodes in a colcon workspace, Nav2, a lidar driver, a motor controller over CAN, Gazebo, rosbags
and a Docker dev image. The agent reads, writes and edits files, runs bash (candump, ip, dmesg, top, valgrind,
docker, git), colcon, the ros2 CLI, rosbag and the simulator; their outputs carry most of the characters. The
user pastes the motor supplier's email (English with German), the customer's site-acceptance checklist, the
safety officer's memo, a teammate's Slack thread, the manager's Japanese message and an issue from the lidar
driver's repository: other people's imperatives, listed in ``session.pasted``, which the user adopts only in
their own words.

Planted facts (``session.facts``): standing instructions (indirect, casual, conditional, Japanese, polite
English, in the middle of a long message, adopted from the safety memo), loose corrections (near misses, some
100+ messages after what they correct, some in Japanese), decisions (some revised), plans in prose, files the
agent creates, errors (whole lines; some resolved by a later run of the same tool), identifiers (said by the
user and printed by tools) and findings read in an output (some only pointed at afterwards).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("read_file", "write_file", "edit_file", "bash", "colcon", "ros2", "rosbag", "sim")
SMALLEST = 60
RATE = 1560  # characters a message, on average: 400 messages ~ 624k, 3000 ~ 4.7M
WS = "/home/onishi/amr_ws"
T0 = 1733188000  # 2024-12-03, morning in Osaka
JST = dt.timezone(dt.timedelta(hours=9))


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000 (linear in between), 12 beyond."""
    if messages <= 60:
        return 1
    if messages >= 3000:
        return 12
    x = 1 + 5 * (messages - 60) / 340 if messages <= 400 else 6 + 6 * (messages - 400) / 2600
    return int(math.floor(x + 0.5))


# --- the filler's vocabulary (never a fact's) -----------------------------------------------------------------

PKGS = ("amr_msgs", "amr_description", "kaiyo_lidar_driver", "amr_base_controller", "amr_safety", "amr_localization",
        "amr_navigation", "amr_docking", "amr_teleop", "amr_diagnostics", "amr_gazebo", "amr_bringup")
CPP_PKGS = ("kaiyo_lidar_driver", "amr_base_controller", "amr_safety", "amr_navigation")
PY_PKGS = ("amr_localization", "amr_docking", "amr_teleop", "amr_diagnostics")
CPP_FILES = ("src/kaiyo_lidar_driver/src/kaiyo_lidar_node.cpp", "src/kaiyo_lidar_driver/src/scan_assembler.cpp",
             "src/kaiyo_lidar_driver/src/serial_port.cpp", "src/amr_base_controller/src/can_motor_driver.cpp",
             "src/amr_base_controller/src/odometry.cpp", "src/amr_base_controller/src/base_controller_node.cpp",
             "src/amr_safety/src/safety_monitor.cpp", "src/amr_safety/src/speed_limiter.cpp",
             "src/amr_navigation/src/keepout_publisher.cpp")
HPP_FILES = ("src/kaiyo_lidar_driver/include/kaiyo_lidar_driver/scan_assembler.hpp",
             "src/amr_base_controller/include/amr_base_controller/motor_frame.hpp",
             "src/amr_base_controller/include/amr_base_controller/can_motor_driver.hpp",
             "src/amr_safety/include/amr_safety/speed_limiter.hpp")
PY_FILES = ("src/amr_docking/amr_docking/dock_approach.py", "src/amr_docking/amr_docking/dock_server.py",
            "src/amr_teleop/amr_teleop/joy_bridge.py", "src/amr_diagnostics/amr_diagnostics/battery_monitor.py",
            "src/amr_diagnostics/amr_diagnostics/can_health.py", "src/amr_localization/amr_localization/initial_pose_setter.py")
LAUNCH_FILES = ("src/amr_bringup/launch/robot.launch.py", "src/amr_bringup/launch/navigation.launch.py",
                "src/amr_bringup/launch/lidar.launch.py", "src/amr_gazebo/launch/sim.launch.py")
YAML_FILES = ("src/amr_navigation/config/nav2_params.yaml", "src/amr_localization/config/amcl.yaml",
              "src/kaiyo_lidar_driver/config/kaiyo_lx16.yaml", "src/amr_base_controller/config/base.yaml",
              "src/amr_safety/config/zones.yaml")
XACRO_FILES = ("src/amr_description/urdf/amr.urdf.xacro", "src/amr_description/urdf/lidar.xacro",
               "src/amr_description/urdf/wheels.xacro")
PKG_XMLS = tuple(f"src/{p}/package.xml" for p in PKGS)
CMAKE_FILES = tuple(f"src/{p}/CMakeLists.txt" for p in CPP_PKGS + ("amr_msgs", "amr_bringup"))
DOCKERFILE = "docker/Dockerfile.dev"
CODE_FILES = CPP_FILES + HPP_FILES + PY_FILES
EDITABLE = CPP_FILES + HPP_FILES + PY_FILES + YAML_FILES  # never launch files or the URDF: the user's rules
READABLE = CODE_FILES + LAUNCH_FILES + YAML_FILES + XACRO_FILES + PKG_XMLS + CMAKE_FILES + (DOCKERFILE,)
CLASSES = {  # C++ class -> its source file
    "kaiyo::ScanAssembler": "src/kaiyo_lidar_driver/src/scan_assembler.cpp",
    "kaiyo::SerialPort": "src/kaiyo_lidar_driver/src/serial_port.cpp",
    "kaiyo::KaiyoLidarNode": "src/kaiyo_lidar_driver/src/kaiyo_lidar_node.cpp",
    "amr_base::CanMotorDriver": "src/amr_base_controller/src/can_motor_driver.cpp",
    "amr_base::Odometry": "src/amr_base_controller/src/odometry.cpp",
    "amr_base::BaseControllerNode": "src/amr_base_controller/src/base_controller_node.cpp",
    "amr_safety::SafetyMonitor": "src/amr_safety/src/safety_monitor.cpp",
    "amr_safety::SpeedLimiter": "src/amr_safety/src/speed_limiter.cpp",
    "amr_nav::KeepoutPublisher": "src/amr_navigation/src/keepout_publisher.cpp",
}
ROBOTS = ("amr-11", "amr-12", "amr-13", "amr-14", "amr-15", "amr-16")
TOPICS = {"/scan": 15.0, "/odom": 50.0, "/imu/data": 100.0, "/joint_states": 50.0, "/cmd_vel": 20.0,
          "/battery_state": 1.0, "/diagnostics": 1.0, "/safety/speed_limit": 10.0, "/can/motor_status": 50.0,
          "/local_costmap/costmap": 2.0, "/tf": 100.0}
BAGS = ("/data/bags/dc2_aisle_c_2024-11-28", "/data/bags/test_track_loop_2024-11-30", "/data/bags/dock3_approach_2024-12-01",
        "/data/bags/cold_store_morning_2024-11-29", "/data/bags/dc2_night_shift_2024-11-27")
WORLDS = ("dc2_aisles.world", "test_track.world", "cold_store.world", "dock_area.world")
SCENARIOS = ("aisle_loop_12_goals", "dock_and_undock_x10", "narrow_aisle_passing", "cold_store_round_trip",
             "pallet_dropoff_sequence", "estop_recovery")
NODES = ("controller_server", "planner_server", "bt_navigator", "behavior_server", "amcl", "map_server",
         "velocity_smoother", "collision_monitor", "kaiyo_lidar", "base_controller", "safety_monitor",
         "robot_state_publisher", "lifecycle_manager_navigation", "lifecycle_manager_localization", "dock_server",
         "battery_monitor", "waypoint_follower", "smoother_server")
GTESTS = ("SpeedLimiterTest.ClampsAtZoneBoundary", "SpeedLimiterTest.ZeroInStopField", "SpeedLimiterTest.RampsDownSmoothly",
          "SafetyMonitorTest.TripsOnStaleScan", "SafetyMonitorTest.ResetsAfterEstop", "SafetyMonitorTest.IgnoresSelfHits",
          "MotorFrameTest.EncodesRpmLittleEndian", "MotorFrameTest.RejectsOutOfRange", "CanMotorDriverTest.HeartbeatTimeout",
          "CanMotorDriverTest.ParsesStatusWord", "OdometryTest.IntegratesStraightLine", "OdometryTest.HandlesWrapAround",
          "ScanAssemblerTest.AssemblesFullRevolution", "ScanAssemblerTest.DropsShortPackets", "ScanAssemblerTest.StampsFirstPacket",
          "SerialPortTest.ReopensAfterUnplug", "KeepoutPublisherTest.LoadsMask")
PYTESTS = ("test_flake8.py::test_flake8", "test_pep257.py::test_pep257", "test_copyright.py::test_copyright",
           "test_dock_approach.py::test_approach_sequence", "test_dock_approach.py::test_aborts_on_timeout",
           "test_battery_monitor.py::test_percentage_from_voltage", "test_joy_bridge.py::test_deadman_required",
           "test_can_health.py::test_counts_error_frames", "test_initial_pose.py::test_pose_from_yaml")
SYMPTOMS = (("the drift in aisle C", "C通路のドリフト", "src/amr_localization/config/amcl.yaml"),
            ("the lidar dropouts", "lidar の途切れ", "src/kaiyo_lidar_driver/src/scan_assembler.cpp"),
            ("the jerky motion when docking", "ドッキング時のガクガク", "src/amr_docking/amr_docking/dock_approach.py"),
            ("the CAN timeouts on the right wheel", "右ホイールの CAN タイムアウト", "src/amr_base_controller/src/can_motor_driver.cpp"),
            ("the costmap ghosts near the racks", "ラック付近のコストマップのゴースト", "src/amr_navigation/config/nav2_params.yaml"),
            ("the random stops in the cold store", "冷凍庫で理由なく止まる件", "src/amr_safety/src/safety_monitor.cpp"),
            ("the battery percentage flickering", "バッテリー表示のチラつき", "src/amr_diagnostics/amr_diagnostics/battery_monitor.py"),
            ("the slow bringup", "bringup の起動が遅い件", "src/amr_bringup/launch/robot.launch.py"),
            ("the teleop lag over Wi-Fi", "Wi-Fi 越しの teleop の遅延", "src/amr_teleop/amr_teleop/joy_bridge.py"),
            ("the odometry jump after an e-stop", "非常停止後のオドメトリのジャンプ", "src/amr_base_controller/src/odometry.cpp"))

# --- the facts' vocabulary (never the filler's) ----------------------------------------------------------------

F_ROBOT_DIGITS = "123456789"  # amr-0N: the filler's robots are amr-1N
F_NODES = ("pallet_detector", "floor_marker_reader", "door_interlock_bridge", "elevator_bridge", "wms_gateway",
           "beacon_controller", "rack_mapper", "people_tracker", "shutter_door_client")
F_SEGV = ("reflector_tracker", "pallet_pose_filter", "shelf_leg_detector", "zone_arbiter", "lift_interlock",
          "dock_marker_tracker", "cart_hitch_monitor", "aisle_speed_governor")
F_BAGS = ("sat_dryrun_east", "freezer_door_loop", "night_pick_wave", "ramp_b_descent", "mezzanine_transfer",
          "cross_dock_rush", "pallet_jam_repro", "loading_bay_four", "chiller_aisle_sweep")
F_NICKS = ("Tanuki", "Kappa", "Tengu", "Kitsune", "Daruma", "Maneki", "Kodama", "Hanabi", "Onigiri", "Mochi")
F_TESTS = ("ZoneGovernor", "PalletPoseFilter", "ReflectorTracker", "LiftInterlock", "HitchMonitor", "ShelfLegDetector",
           "RampGuard", "DoorInterlock", "BeaconDriver", "WheelSlipEstimator")
F_TYPES = ("ZoneGovernor", "PalletPoseFilter", "ReflectorTracker", "ShelfLegDetector", "DoorInterlock", "ForkShadowMask",
           "AisleSpeedTable", "PalletJackGuard")  # never a stem of F_FILE_STEMS: their headers are named in compiler notes
F_CASES = ("ClampsInColdStore", "RejectsGhostReturns", "HoldsAfterEstop", "RecoversFromBusOff", "KeepsStampMonotonic",
           "StopsAtRampTop", "IgnoresForkShadow", "TimesOutWithoutHeartbeat", "LatchesLowBattery", "FiltersRetroGlare",
           "HandlesEmptyScan", "ReleasesOnDoorOpen")
F_SYMBOLS = ("SpeedTable::lookup(double) const", "RampGuard::onImu(sensor_msgs::msg::Imu const&)",
             "HitchMonitor::reset()", "ReflectorTracker::fit(std::vector<Eigen::Vector2d> const&)",
             "LiftInterlock::isEngaged() const", "ZoneTable::load(std::string const&)",
             "WheelSlipEstimator::update(double, double)", "BeaconDriver::setPattern(unsigned char)")
F_PYMODS = ("shelf_leg_detector", "ramp_guard", "hitch_monitor", "beacon_driver", "door_interlock", "wheel_slip")
F_FILE_STEMS = {
    "cpp": ("zone_speed_governor", "ramp_guard", "hitch_monitor", "wheel_slip_estimator", "reflector_fitter",
            "beacon_driver", "lift_interlock", "door_interlock_client", "estop_latch", "heartbeat_watchdog"),
    "py": ("shelf_leg_filter", "wms_status_bridge", "bag_uploader", "charge_scheduler", "rack_gap_checker",
           "mission_logger", "fleet_heartbeat"),
    "test": ("zone_speed_governor", "ramp_guard", "hitch_monitor", "wheel_slip_estimator", "estop_latch",
             "heartbeat_watchdog", "reflector_fitter"),
    "yaml": ("cold_store_zones", "ramp_limits", "dock_reflectors", "freezer_speed_table", "wms_endpoints"),
    "hpp": ("zone_speed_governor", "ramp_guard", "wheel_slip_estimator", "estop_latch", "heartbeat_watchdog"),
}
ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"
HEX = "0123456789abcdef"


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(HEX) for _ in range(n))


def _typo(text: str, rng: random.Random, p: float = 0.05) -> str:
    """A hurried typist: letters swapped, dropped or doubled in a few plain English words (never in names)."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) < 4 or not w.isascii() or not w.isalpha() or not w.islower() or rng.random() >= p:
            continue
        j = rng.randrange(1, len(w) - 1)
        how = rng.randrange(3)
        if how == 0:
            w = w[:j - 1] + w[j] + w[j - 1] + w[j + 1:]
        elif how == 1:
            w = w[:j] + w[j + 1:]
        else:
            w = w[:j] + w[j] + w[j:]
        words[i] = w
    return " ".join(words)


def _cap(text: str) -> str:
    """``text`` with a capital letter, unless it opens on a name (amcl, a path, a package) that keeps its case."""
    first = text.split(" ", 1)[0]
    keep = not first.isalpha() or first != first.lower() or first in ("amcl", "colcon", "candump", "valgrind", "udev", "git")
    return text if keep else text[0].upper() + text[1:]


def _pick(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def _lines_to(size: int, head: list[str], make: Callable[[], str], tail: list[str] | Callable[[], list[str]] | None = None,
              inserts: list[str] | None = None, rng: random.Random | None = None) -> str:
    """``head``, then lines from ``make`` until about ``size`` characters, ``inserts`` among them, then ``tail`` (made
    after the body when it is a function: its log times come last)."""
    budget = size - sum(len(x) + 1 for x in head) - (0 if callable(tail) else sum(len(x) + 1 for x in tail or []))
    body: list[str] = []
    used = 0
    while used < budget or len(body) < 3:
        line = make()
        body.append(line)
        used += len(line) + 1
    for extra in inserts or []:
        at = rng.randrange(len(body) // 4, len(body) + 1) if rng else len(body)
        body.insert(at, extra)
    return "\n".join(head + body + (tail() if callable(tail) else tail or []))


MARK = "\x00planted\x00"  # where a value drawn from the log around it goes
_STAMP = re.compile(r"\[(\d{10}\.\d{6,9})\]")


def _stamp_before(text: str) -> float:
    """The ROS time of the last stamped log line before ``MARK`` in ``text``."""
    stamps = _STAMP.findall(text[:text.index(MARK)])
    return float(stamps[-1]) if stamps else float(T0)


class _Clock:
    """ROS time that moves forward through the session (log lines, bag stamps)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.t: float = T0 + rng.randint(0, 3600)

    def tick(self, most: float = 0.4) -> str:
        self.t += self.rng.uniform(0.0005, most)
        return f"{self.t:.9f}"[:-3] + f"{self.rng.randint(0, 999):03d}"

    def jump(self) -> None:
        self.t += self.rng.uniform(20, 900)


# --- colcon: builds, tests, test results -----------------------------------------------------------------------

def _src(path: str) -> str:
    return f"{WS}/{path}"


WARNINGS = (
    ("unused variable ‘{v}’ [-Wunused-variable]", "  {ln} |   const auto {v} = {e};", "      |              ^~~~~~~~"),
    ("comparison of integer expressions of different signedness: ‘int’ and ‘std::vector<float>::size_type’ {{aka ‘long unsigned int’}} [-Wsign-compare]",
     "  {ln} |   for (int i = 0; i < ranges.size(); ++i) {{", "      |                   ~~^~~~~~~~~~~~~~~"),
    ("unused parameter ‘{v}’ [-Wunused-parameter]", "  {ln} | void onTimer(const rclcpp::TimerBase & {v})", "      |                                       ~~~~~~~~~~~~~~~~~~~~~~^~"),
    ("‘{v}’ will be initialized after [-Wreorder]", "  {ln} |   double {v};", "      |          ^~~~~~~~"),
    ("narrowing conversion of ‘{v}’ from ‘double’ to ‘float’ [-Wnarrowing]", "  {ln} |   msg.angle_increment = {{{v}}};", "      |                          ^~~~~~~"),
    ("‘void rclcpp::Node::declare_parameter’ is deprecated: use the typed overload [-Wdeprecated-declarations]",
     "  {ln} |   declare_parameter(\"{v}\");", "      |   ~~~~~~~~~~~~~~~~~^~~~~~~~"),
)
WARN_VARS = ("stamp_ns", "last_rpm", "packet_len", "scan_time", "crc_ok", "zone_id", "odom_dt", "node_id", "angle_min",
             "fault_mask", "retries", "rx_count")


def _warning(rng: random.Random) -> list[str]:
    path = rng.choice(CPP_FILES)
    msg, code, caret = rng.choice(WARNINGS)
    v, ln = rng.choice(WARN_VARS), rng.randint(20, 380)
    fn = rng.choice(("void kaiyo::ScanAssembler::push(const Packet&)", "void amr_base::CanMotorDriver::onFrame(const can_frame&)",
                     "void amr_safety::SpeedLimiter::update(double)", "bool kaiyo::SerialPort::readPacket(Packet&)",
                     "void amr_base::Odometry::integrate(double, double, double)"))
    return [f"{_src(path)}: In member function ‘{fn}’:",
            f"{_src(path)}:{ln}:{rng.randint(5, 40)}: warning: " + msg.format(v=v),
            code.format(ln=ln, v=v, e=rng.choice(("now()", "packet.size()", "0.0", "msg->header.stamp"))), caret]


LINTERS = (("copyright", "check source files for copyright and license information"), ("cppcheck", "perform static code analysis"),
           ("cpplint", "check code against the Google style"), ("lint_cmake", "check CMake code style"),
           ("uncrustify", "check C / C++ code style"), ("xmllint", "check XML markup files"))


def _configure(rng: random.Random, pkg: str) -> list[str]:
    """A CMake package's configure step under ``console_direct+``."""
    deps = rng.sample(("rclcpp", "sensor_msgs", "geometry_msgs", "tf2_ros", "diagnostic_updater", "nav2_costmap_2d", "rclcpp_lifecycle"), 4)
    return (["-- The C compiler identification is GNU 11.4.0", "-- The CXX compiler identification is GNU 11.4.0",
             "-- Detecting CXX compiler ABI info - done", f"-- Found ament_cmake: 1.3.{rng.randint(8, 11)} (/opt/ros/humble/share/ament_cmake/cmake)"]
            + [f"-- Found {d}: {rng.randint(2, 16)}.{rng.randint(0, 12)}.{rng.randint(0, 20)} (/opt/ros/humble/share/{d}/cmake)" for d in deps]
            + ["-- Using RMW implementation 'rmw_fastrtps_cpp' as default", "-- Found GTest: /opt/ros/humble/share/gtest_vendor/cmake"]
            + [f"-- Added test '{t}' to {what}" for t, what in LINTERS]
            + [f"-- Configuring done ({rng.uniform(0.3, 2):.1f}s)", f"-- Generating done ({rng.uniform(0.01, 0.1):.2f}s)",
               f"-- Build files have been written to: {WS}/build/{pkg}"])


def _make_row(rng: random.Random, pkg: str, phase: str, pct: list[int]) -> str:
    """One line of a CMake package's build or install output under ``console_direct+``."""
    sources = [p.rsplit("/", 1)[-1][:-4] for p in CPP_FILES if f"/{pkg}/" in p] or [f"{pkg}_node"]
    target = rng.choice(sources + [f"{pkg}_core"])
    if phase == "build":
        pct[0] = min(99, pct[0] + rng.randint(0, 3))
        r = rng.random()
        if r < 0.8:
            return f"[{pct[0]:3d}%] Building CXX object CMakeFiles/{target}.dir/src/{rng.choice(sources)}.cpp.o"
        return f"[{pct[0]:3d}%] Linking CXX {'shared library lib' + pkg + '_core.so' if r < 0.88 else 'executable ' + target}" if r < 0.95 \
            else f"[{pct[0]:3d}%] Built target {target}"
    return rng.choice((
        f"-- Symlinking: {WS}/install/{pkg}/share/{pkg}/{rng.choice(('config', 'launch', 'cmake', 'environment'))}/"
        f"{rng.choice(('params.yaml', 'ament_prefix_path.sh', 'path.dsv', f'{pkg}Config.cmake', 'library_path.sh'))}",
        f"-- Up-to-date: {WS}/install/{pkg}/lib/{pkg}/{target}", f"-- Installing: {WS}/install/{pkg}/lib/lib{pkg}_core.so",
        f"-- Set runtime path of \"{WS}/install/{pkg}/lib/{pkg}/{target}\" to \"$ORIGIN:/opt/ros/humble/lib\""))


def _py_row(rng: random.Random, pkg: str) -> str:
    mod = rng.choice(("__init__", "dock_approach", "dock_server", "joy_bridge", "battery_monitor", "can_health", "initial_pose_setter"))
    return rng.choice((
        "running egg_info", f"writing {pkg}.egg-info/PKG-INFO", f"writing dependency_links to {pkg}.egg-info/dependency_links.txt",
        f"writing entry points to {pkg}.egg-info/entry_points.txt", f"reading manifest file '{pkg}.egg-info/SOURCES.txt'",
        "running build", "running build_py", f"copying {pkg}/{mod}.py -> build/lib/{pkg}", "running develop",
        f"Creating {WS}/install/{pkg}/lib/python3.10/site-packages/{pkg}.egg-link (link to .)",
        f"Installing {mod} script to {WS}/install/{pkg}/lib/{pkg}",
        "running symlink_data", f"symbolically linking {WS}/build/{pkg}/resource/{pkg} -> {WS}/install/{pkg}/share/ament_index/resource_index/packages",
    ))


def cmake_missing(dep: str, line: int) -> list[str]:
    """What CMake prints when ``find_package(dep)`` finds nothing (a dependency rosdep has not installed)."""
    return [f"CMake Error at CMakeLists.txt:{line} (find_package):", f"  By not providing \"Find{dep}.cmake\" in CMAKE_MODULE_PATH this",
            "  project has asked CMake to find a package configuration file provided by", f"  \"{dep}\", but CMake did not find one.", "",
            "  Could not find a package configuration file provided by", f"  \"{dep}\" with any of the following names:", "",
            f"    {dep}Config.cmake", f"    {dep}-config.cmake", "", f"  Add the installation prefix of \"{dep}\" to CMAKE_PREFIX_PATH or",
            f"  set \"{dep}_DIR\" to a directory containing one of the above", f"  files.  If \"{dep}\" provides a separate development package or",
            "  SDK, be sure it has been installed.", "", "", "-- Configuring incomplete, errors occurred!"]


def colcon_build(rng: random.Random, size: int, pkgs: tuple[str, ...] | None = None, fail: tuple[str, list[str]] | None = None,
                 verbose: bool = True, code: int = 2) -> str:
    """``colcon build``; ``fail``: (package, its stderr lines) makes that package fail with exit ``code`` and the later
    ones abort."""
    order = list(pkgs or PKGS)
    warned = {p for p in order if p in CPP_PKGS and rng.random() < 0.35}
    per = max(120, (size - 700) // max(1, len(order))) if verbose else 0
    out: list[str] = []
    finished = 0
    stderr_pkgs: list[str] = []
    aborted: list[str] = []
    total = 0.0
    failed_at = order.index(fail[0]) if fail and fail[0] in order else None
    for k, pkg in enumerate(order):
        if failed_at is not None and k > failed_at:
            if rng.random() < 0.5 and len(aborted) < 1:
                out.append(f"Aborted  <<< {pkg} [{rng.uniform(1, 30):.1f}s]")
                aborted.append(pkg)
            continue
        out.append(f"Starting >>> {pkg}")
        if verbose:
            pct = [0]
            if pkg not in PY_PKGS:
                out += _configure(rng, pkg)
            used = 0
            while used < per:
                line = _py_row(rng, pkg) if pkg in PY_PKGS else _make_row(rng, pkg, "build" if used < per * 0.8 else "install", pct)
                out.append(line)
                used += len(line) + 1
            if pkg not in PY_PKGS:
                out.insert(len(out) - 1, f"[100%] Built target {pkg}_core")
        secs = rng.uniform(0.8, 4) if pkg in ("amr_description", "amr_bringup", "amr_gazebo") else rng.uniform(6, 70)
        total += secs
        if failed_at == k and fail:
            out += [f"--- stderr: {pkg}"] + fail[1] + ["---", f"Failed   <<< {pkg} [{secs:.1f}s, exited with code {code}]"]
            stderr_pkgs.append(pkg)
            continue
        if pkg in warned:
            out.append(f"--- stderr: {pkg}")
            for _ in range(rng.randint(1, 3)):
                out += _warning(rng)
            out.append("---")
            stderr_pkgs.append(pkg)
        if rng.random() < 0.15:
            out.append(f"[Processing: {pkg}]")
        out.append(f"Finished <<< {pkg} [{secs:.1f}s]")
        finished += 1
    m, s = divmod(int(total * 0.6) + rng.randint(5, 30), 60)
    took = f"{m}min {s}s" if m else f"{s}.{rng.randint(0, 9)}s"
    noun = "package" if finished == 1 else "packages"
    out += ["", f"Summary: {finished} {noun} finished [{took}]"]
    if fail:
        out.append(f"  1 package failed: {fail[0]}")
    if aborted:
        out.append(f"  {len(aborted)} package aborted: {' '.join(aborted)}")
    if stderr_pkgs:
        out.append(f"  {len(stderr_pkgs)} package{'s' if len(stderr_pkgs) > 1 else ''} had stderr output: {' '.join(stderr_pkgs)}")
    skipped = len(order) - finished - (1 if fail else 0) - len(aborted)
    if skipped > 0:
        out.append(f"  {skipped} package{'s' if skipped > 1 else ''} not processed")
    return "\n".join(out)


def _gtest_names(rng: random.Random, pkg: str, k: int) -> list[str]:
    own = [t for t in GTESTS if t.split("Test.")[0].lower() in pkg.replace("_", "")] or list(GTESTS)
    names = list(dict.fromkeys(rng.choice(own) for _ in range(k)))
    while len(names) < k:
        base = rng.choice(own)
        suite, case = base.split(".")
        names.append(f"{rng.choice(('ZoneSweep', 'RpmRange', 'Timing', 'Frames'))}/{suite}.{case}/{len(names)}")
    return names


def _gtest_block(rng: random.Random, n: int, names: list[str], failing: list[tuple[str, list[str]]]) -> list[str]:
    """One gtest binary's output, each line prefixed with ctest's test number ``n``; ``failing``: (test, what its
    failure prints, ending on its ``[  FAILED  ]`` line)."""
    order = names + [name for name, _d in failing]
    rng.shuffle(order)
    detail = dict(failing)
    suites = {t.split("/")[1] if "/" in t else t.split(".")[0] for t in order}
    lines = ["Running main() from /opt/ros/humble/src/gtest_vendor/src/gtest_main.cc",
             f"[==========] Running {len(order)} tests from {len(suites)} test suites.",
             "[----------] Global test environment set-up."]
    for name in order:
        lines.append(f"[ RUN      ] {name}")
        lines += detail.get(name) or [f"[       OK ] {name} ({rng.randint(0, 40)} ms)"]
    lines += ["[----------] Global test environment tear-down",
              f"[==========] {len(order)} tests from {len(suites)} test suites ran. ({rng.randint(3, 400)} ms total)",
              f"[  PASSED  ] {len(names)} tests."]
    if failing:
        lines += [f"[  FAILED  ] {len(failing)} test, listed below:"] + [f"[  FAILED  ] {t}" for t, _d in failing]
        lines += ["", f" {len(failing)} FAILED TEST"]
    return [f"{n}: {line}" for line in lines]


def _ctest_run(rng: random.Random, size: int, pkg: str, failing: list[tuple[str, list[str]]]) -> list[str]:
    unit = f"test_{pkg.split('_', 1)[-1]}"
    tests = ["copyright", "cppcheck", "cpplint", "lint_cmake", unit, "uncrustify", "xmllint"]
    out = [f"UpdateCTestConfiguration  from :{WS}/build/{pkg}/CTestConfiguration.ini",
           f"Parse Config file:{WS}/build/{pkg}/CTestConfiguration.ini", "   Site: onishi-ws", "   Build name: (empty)",
           " Add coverage exclude regular expressions.", f"Create new tag: 20241203-{rng.randint(10, 23)}{rng.randint(10, 59)} - Experimental"]
    results = []
    for n, test in enumerate(tests, 1):
        kind = "gtest" if test == unit else "xunit"
        out += [f"test {n}", f"      Start {n}: {test}", "",
                f"{n}: Test command: /usr/bin/python3 \"-u\" \"/opt/ros/humble/share/ament_cmake_test/cmake/run_test.py\" "
                f"\"{WS}/build/{pkg}/test_results/{pkg}/{test}.{kind}.xml\" \"--package-name\" \"{pkg}\" \"--output-file\" "
                f"\"{WS}/build/{pkg}/ament_{'cmake_gtest' if kind == 'gtest' else test}/{test}.txt\" \"--command\" "
                f"\"{WS}/build/{pkg}/{test}\" \"--gtest_output=xml:{WS}/build/{pkg}/test_results/{pkg}/{test}.{kind}.xml\"",
                f"{n}: Test timeout computed to be: {60 if kind == 'gtest' else 120}",
                f"{n}: -- run_test.py: invoking following command in '{WS}/build/{pkg}':"]
        if kind == "gtest":
            out += _gtest_block(rng, n, _gtest_names(rng, pkg, max(5, (size - 2500) // 110)), failing)
            ok = not failing
        else:
            for f in rng.sample(CPP_FILES + HPP_FILES, rng.randint(3, 8)):
                name = f.rsplit("/", 1)[-1]
                out.append(f"{n}: " + {"cpplint": f"Done processing {_src(f)}", "uncrustify": f"Code style divergence in file '{name}': none",
                                        "cppcheck": f"cppcheck 2.7: checking {_src(f)}",
                                        "copyright": f"{name}: copyright=Yodogawa Robotics Inc. (2024), license=apache2"}.get(test, f"{name}: OK"))
            out.append(f"{n}: No problems found")
            ok = True
        out += [f"{n}: -- run_test.py: return code {0 if ok else 1}",
                f"{n}: -- run_test.py: verify result file '{WS}/build/{pkg}/test_results/{pkg}/{test}.{kind}.xml'"]
        results.append(ok)
        out.append(f"{n}/{len(tests)} Test #{n}: {test} {'.' * max(3, 38 - len(test))}{'   Passed' if ok else '***Failed'} {rng.uniform(0.05, 9):7.2f} sec")
    passed = sum(results)
    out += ["", f"{100 * passed // len(tests)}% tests passed, {len(tests) - passed} tests failed out of {len(tests)}", "",
            "Label Time Summary:", f"copyright     = {rng.uniform(0.3, 2):6.2f} sec*proc (1 test)",
            f"cppcheck      = {rng.uniform(0.3, 4):6.2f} sec*proc (1 test)", f"gtest         = {rng.uniform(0.1, 9):6.2f} sec*proc (1 test)",
            f"linter        = {rng.uniform(2, 12):6.2f} sec*proc (6 tests)", "", f"Total Test time (real) = {rng.uniform(3, 20):7.2f} sec"]
    if passed < len(tests):
        out += ["", "The following tests FAILED:", f"\t  5 - {unit} (Failed)"]
    return out


def _pytest_run(rng: random.Random, size: int, pkg: str, summary: list[str]) -> list[str]:
    head = ["============================= test session starts ==============================",
            "platform linux -- Python 3.10.12, pytest-6.2.5, py-1.10.0, pluggy-0.13.0",
            f"cachedir: {WS}/build/{pkg}/.pytest_cache", f"rootdir: {WS}/src/{pkg}, configfile: pytest.ini",
            "plugins: ament-flake8-0.12.11, ament-pep257-0.12.11, ament-copyright-0.12.11, launch-testing-ros-0.19.7, "
            "launch-testing-1.0.6, ament-xmllint-0.12.11, ament-lint-0.12.11, colcon-core-0.15.2, cov-3.0.0, mock-3.6.1",
            f"collected {rng.randint(12, 60)} items", ""]
    count = [0]

    def row() -> str:
        count[0] += 1
        mod = rng.choice(PYTESTS).split("::")[0]
        if rng.random() < 0.3:
            return (f"{WS}/src/{pkg}/test/{mod}:{rng.randint(10, 90)}: DeprecationWarning: "
                    f"{rng.choice(('pkg_resources is deprecated as an API', 'The distutils package is deprecated', 'invalid escape sequence'))}")
        return f"test/{mod} {'.' * rng.randint(1, 9)}{' ' * rng.randint(1, 30)}[{min(99, count[0] * 3):3d}%]"
    lines = _lines_to(max(400, size - 1200), head, row).split("\n")
    took = rng.uniform(1, 30)
    if summary:
        case = summary[0].split("::")[-1].split(" ")[0]
        lines += ["", "=================================== FAILURES ===================================",
                  f"{'_' * 20} {case} {'_' * 20}", "", "    def " + case + "(node):", "        result = node.run_once()",
                  ">       assert result.ok", "E       AssertionError", "",
                  "=========================== short test summary info ============================"] + summary
        lines.append(f"========================= {len(summary)} failed, {count[0] * 3} passed in {took:.2f}s =========================")
    else:
        lines.append(f"============================== {count[0] * 3} passed in {took:.2f}s ==============================")
    return lines


def colcon_test(rng: random.Random, size: int, pkg: str, failing: list[tuple[str, list[str]]] | None = None,
                pytest_fail: list[str] | None = None) -> str:
    """``colcon test --packages-select pkg --event-handlers console_direct+`` then ``colcon test-result --verbose``:
    ``failing`` gtest cases for a C++ package, ``pytest_fail`` short-summary lines for a Python one."""
    failing, pytest_fail = failing or [], pytest_fail or []
    python = pkg in PY_PKGS
    out = [f"Starting >>> {pkg}"] + (_pytest_run(rng, size - 600, pkg, pytest_fail) if python else _ctest_run(rng, size - 600, pkg, failing))
    bad = bool(pytest_fail if python else failing)
    secs = rng.uniform(2, 40)
    if bad and not python:
        out += [f"--- stderr: {pkg}", "Errors while running CTest",
                f"Output from these tests are in: {WS}/build/{pkg}/Testing/Temporary/LastTest.log",
                "Use \"--rerun-failed --output-on-failure\" to re-run the failed cases verbosely.", "---"]
    out.append(f"Finished <<< {pkg} [{secs:.1f}s]" + ("\t[ with test failures ]" if bad else ""))
    out += ["", f"Summary: 1 package finished [{secs + rng.uniform(0.3, 2):.1f}s]"]
    if bad:
        out += ([] if python else [f"  1 package had stderr output: {pkg}"]) + [f"  1 package had test failures: {pkg}"]
    out += ["", f"$ colcon test-result --verbose --test-result-base build/{pkg}"]
    tests = fails = 0
    for xml in _result_files(pkg):
        t = rng.randint(1, 45)
        f = len(pytest_fail) if python else (len(failing) if xml.endswith(".gtest.xml") else 0)
        tests, fails = tests + t + f, fails + f
        out.append(f"build/{pkg}/test_results/{pkg}/{xml}: {t + f} tests, 0 errors, {f} failure{'' if f == 1 else 's'}, "
                   f"{rng.choice((0, 0, 1))} skipped")
        for name, _detail in (failing if f and not python else []):
            suite, case = name.rsplit(".", 1)
            out += [f"- {pkg}.{suite} {case}", "  <<< failure message",
                    f"    {WS}/src/{pkg}/test/{xml.split('.')[0]}.cpp:{rng.randint(30, 200)}", "    Expected equality of these values:",
                    "  >>>"]
        for line in (pytest_fail if f and python else []):
            out += [f"- {pkg}.{line.split(' ')[1].replace('/', '.').replace('.py::', ' ')}", "  <<< failure message",
                    "    AssertionError", "  >>>"]
    out += ["", f"Summary: {tests} tests, 0 errors, {fails} failures, {rng.randint(0, 4)} skipped"]
    return "\n".join(out)


def _result_files(pkg: str) -> list[str]:
    if pkg in PY_PKGS:
        return ["pytest.xml"]
    return ["copyright.xunit.xml", "cppcheck.xunit.xml", "cpplint.xunit.xml", "lint_cmake.xunit.xml",
            f"test_{pkg.split('_', 1)[-1]}.gtest.xml", "uncrustify.xunit.xml", "xmllint.xunit.xml"]


# --- ros2: launch logs, topics, params, doctor, tf ------------------------------------------------------------

PROCS = {  # launch file -> (process label, node name, package, executable)
    "robot.launch.py": (("robot_state_publisher", "robot_state_publisher", "robot_state_publisher", "robot_state_publisher"),
                        ("kaiyo_lidar_node", "kaiyo_lidar", "kaiyo_lidar_driver", "kaiyo_lidar_node"),
                        ("base_controller_node", "base_controller", "amr_base_controller", "base_controller_node"),
                        ("safety_monitor_node", "safety_monitor", "amr_safety", "safety_monitor_node"),
                        ("battery_monitor", "battery_monitor", "amr_diagnostics", "battery_monitor"),
                        ("joy_bridge", "joy_bridge", "amr_teleop", "joy_bridge")),
    "navigation.launch.py": (("map_server", "map_server", "nav2_map_server", "map_server"), ("amcl", "amcl", "nav2_amcl", "amcl"),
                             ("controller_server", "controller_server", "nav2_controller", "controller_server"),
                             ("smoother_server", "smoother_server", "nav2_smoother", "smoother_server"),
                             ("planner_server", "planner_server", "nav2_planner", "planner_server"),
                             ("behavior_server", "behavior_server", "nav2_behaviors", "behavior_server"),
                             ("bt_navigator", "bt_navigator", "nav2_bt_navigator", "bt_navigator"),
                             ("velocity_smoother", "velocity_smoother", "nav2_velocity_smoother", "velocity_smoother"),
                             ("collision_monitor", "collision_monitor", "nav2_collision_monitor", "collision_monitor"),
                             ("lifecycle_manager", "lifecycle_manager_navigation", "nav2_lifecycle_manager", "lifecycle_manager")),
    "lidar.launch.py": (("kaiyo_lidar_node", "kaiyo_lidar", "kaiyo_lidar_driver", "kaiyo_lidar_node"),
                        ("scan_to_scan_filter_chain", "scan_filter", "laser_filters", "scan_to_scan_filter_chain")),
}
NODE_LINES = {
    "robot_state_publisher": ("got segment {seg}",),
    "kaiyo_lidar": ("Opening /dev/kaiyo_lidar at 921600 baud", "Firmware 2.7.4, serial KLX16-2207-00318, 1440 points/rev",
                    "Publishing /scan in frame 'laser_link' at 15 Hz", "Dropped {k} packet(s): crc mismatch",
                    "Motor speed stable at {rpm} rpm", "Time sync: offset to host clock {us} us"),
    "base_controller": ("CAN interface can0 is up", "Motor node {node} ({side}) entered OPERATIONAL", "Heartbeat from node {node} OK",
                        "Publishing odometry at 50 Hz on /odom", "Wheel separation 0.520, wheel radius 0.0825",
                        "Received cmd_vel: v={v1} w={w1}"),
    "safety_monitor": ("Loaded {k} zones from zones.yaml", "Speed limit changed: {v1} -> {v2} (zone '{zone}')",
                       "Protective field OK", "Warning field occupied for {ms} ms"),
    "battery_monitor": ("Battery {pct}% ({volt} V), charging: {chg}",),
    "joy_bridge": ("Deadman released, publishing zero twist", "Joystick connected: Logitech F710"),
    "map_server": ("Loading yaml file: {WS}/install/amr_navigation/share/amr_navigation/maps/dc2_floor1.yaml",
                   "Read map {WS}/install/amr_navigation/share/amr_navigation/maps/dc2_floor1.pgm: 1840 X 960 map @ 0.05 m/cell"),
    "amcl": ("Configuring", "createLaserObject", "Subscribed to map topic.", "Received a 1840 X 960 map @ 0.050 m/pix",
             "initialPoseReceived", "Setting pose ({ts}): {x} {y} {yaw}",
             "AMCL cannot publish a pose or update the transform. Please set the initial pose..."),
    "controller_server": ("Creating controller server", "Controller frequency set to 20.0000Hz",
                          "Created controller : FollowPath of type nav2_regulated_pure_pursuit_controller::RegulatedPurePursuitController",
                          "Received a goal, begin computing control effort.", "Passing new path to controller.", "Reached the goal!",
                          "Control loop missed its desired rate of 20.0000Hz", "Optimizer fail to compute path", "Goal was canceled. Stopping the robot."),
    "smoother_server": ("Created smoother : simple_smoother of type nav2_smoother::SimpleSmoother",),
    "planner_server": ("Created global planner plugin GridBased of type nav2_navfn_planner/NavfnPlanner",
                       "Configuring plugin GridBased of type NavfnPlanner", "Planner loop missed its desired rate of 1.0000 Hz"),
    "behavior_server": ("Running spin", "spin completed successfully", "Running backup", "Collision Ahead - Exiting DriveOnHeading"),
    "bt_navigator": ("Begin navigating from current location ({x}, {y}) to ({x2}, {y2})", "Goal succeeded", "Goal failed",
                     "Received goal preemption request"),
    "velocity_smoother": ("Configuring velocity smoother", "Velocity smoother: feedback OPEN_LOOP"),
    "collision_monitor": ("Robot to slow down due to PolygonSlow polygon", "Robot to stop due to PolygonStop polygon",
                          "Collision monitor: using scan from /scan"),
    "lifecycle_manager_navigation": ("Creating", "Starting managed nodes bringup...", "Configuring {peer}", "Activating {peer}",
                                     "Server {peer} connected with bond.", "Managed nodes are active"),
    "scan_filter": ("Configured 2 filter(s): box_filter, angular_bounds", "Filter chain: {k} points removed from scan",
                    "Received scan with 1081 ranges", "angular_bounds: keeping -2.20 .. 2.20 rad"),
}
SEGMENTS = ("base_link", "base_footprint", "laser_link", "imu_link", "left_wheel", "right_wheel", "caster_front", "caster_rear",
            "bumper_front", "beacon_link")
WARN_BY_NODE = {
    "kaiyo_lidar": ("Dropped {k} packet(s): crc mismatch", "Scan incomplete: {k} sectors missing, publishing anyway"),
    "base_controller": ("Heartbeat from node {node} late by {ms} ms", "Motor node {node}: following error {k} increments"),
    "safety_monitor": ("Warning field occupied for {ms} ms", "Scan older than 150 ms, limiting speed"),
    "battery_monitor": ("Battery below 30%, requesting charge",), "joy_bridge": ("No joystick messages for 2 s",),
    "scan_filter": ("Box filter removed {k} points inside the footprint",),
}
WARN_LINES = ("Message Filter dropping message: frame 'laser_link' at time {ts} for reason 'the timestamp on the message is earlier than all the data in the transform cache'",
              "Timed out waiting for transform from base_footprint to map to become available, tf error: Invalid frame ID \"map\" passed to canTransform argument target_frame - frame does not exist",
              "New subscription discovered on topic '/scan', requesting incompatible QoS. No messages will be sent to it. Last incompatible policy: RELIABILITY_QOS_POLICY",
              "Sensor origin at (1.21, 0.44 -> 0.25) is out of map bounds (0.00, 0.00, 0.00) to (92.00, 48.00, 0.00). The costmap cannot raytrace for it.")


def _node_line(rng: random.Random, node: str, ts: str, tpl: str | None = None) -> str:
    tpl = tpl or rng.choice(NODE_LINES.get(node, ("initialized", "waiting for /scan", "first message received", "processing at {k} Hz")))
    return tpl.format(seg=rng.choice(SEGMENTS), k=rng.randint(1, 6), rpm=rng.randint(895, 905), us=rng.randint(-400, 400),
                      node=rng.randint(1, 2), side=rng.choice(("left", "right")), v1=f"{rng.uniform(0, 1.2):.3f}",
                      w1=f"{rng.uniform(-0.8, 0.8):.3f}", v2=f"{rng.uniform(0, 1):.1f}", zone=rng.choice(("aisle_A", "aisle_C", "dock_3", "crossing_2")),
                      ms=rng.randint(40, 900), pct=rng.randint(20, 99), volt=f"{rng.uniform(46.5, 52.5):.2f}", chg=rng.choice(("yes", "no")),
                      WS=WS, ts=ts, x=f"{rng.uniform(2, 90):.3f}", y=f"{rng.uniform(2, 46):.3f}", yaw=f"{rng.uniform(-3.1, 3.1):.3f}",
                      x2=f"{rng.uniform(2, 90):.2f}", y2=f"{rng.uniform(2, 46):.2f}", peer=rng.choice(NODES[:8]), node_name=node)


def ros2_launch(rng: random.Random, clock: _Clock, size: int, launch: str, robot: str, inserts: list[str] | None = None,
                extra: tuple[str, ...] = (), ending: list[str] | None = None) -> str:
    """``ros2 launch amr_bringup <launch>`` run for a while on ``robot``: the launch's own lines and every process's
    log; ``extra`` more process labels started by it (planted nodes), ``inserts`` lines placed among the logs,
    ``ending`` lines at the end (a process that died)."""
    procs = [(p[0], p[1]) for p in PROCS[launch]] + [(e, e) for e in extra]
    labels = {name: f"{label}-{k}" for k, (label, name) in enumerate(procs, 1)}
    clock.jump()
    stamp = clock.tick()
    day = f"2024-12-{3 + int((clock.t - T0) // 86400):02d}"
    head = [f"[INFO] [launch]: All log files can be found below /home/onishi/.ros/log/{day}-{rng.randint(7, 21):02d}-{rng.randint(10, 59)}-{rng.randint(10, 59)}-{rng.randint(100000, 999999)}-{robot}-{rng.randint(2000, 9000)}",
            "[INFO] [launch]: Default logging verbosity is set to INFO"]
    pid = rng.randint(2100, 9000)
    for _label, name in procs:
        pid += rng.randint(1, 4)
        head.append(f"[INFO] [{labels[name]}]: process started with pid [{pid}]")
    del stamp
    names = [name for _l, name in procs]

    def row() -> str:
        node = rng.choice(names)
        ts = clock.tick(0.05)
        r = rng.random()
        if r < 0.07:
            own = WARN_BY_NODE.get(node)
            text = _node_line(rng, node, ts, rng.choice(own)) if own else rng.choice(WARN_LINES).format(ts=ts[:-6])
            return f"[{labels[node]}] [WARN] [{ts}] [{node}]: {text}"
        if r < 0.09 and node in ("controller_server", "kaiyo_lidar", "base_controller"):
            return f"[{labels[node]}] [ERROR] [{ts}] [{node}]: " + rng.choice(
                ("Failed to make progress", "Packet timeout after 200 ms, re-syncing", "SDO abort 0x06090011 on node 2, retrying"))
        return f"[{labels[node]}] [INFO] [{ts}] [{node}]: {_node_line(rng, node, ts)}"
    tail = list(ending or [])
    if ending or rng.random() < 0.4:
        stopped = [n for n in names if not any(f"[{labels[n]}]" in e for e in tail)]
        tail += ["^C[WARNING] [launch]: user interrupted with ctrl-c (SIGINT)"] + [
            f"[INFO] [{labels[n]}]: process has finished cleanly [pid {rng.randint(2100, 9000)}]" for n in stopped[:rng.randint(min(2, len(stopped)), len(stopped))]]
    return _lines_to(size, head, row, tail, inserts, rng)


def topic_hz(rng: random.Random, size: int, topic: str, rate: float | None = None, value: str | None = None,
             avoid: list[str] | None = None) -> str:
    """``ros2 topic hz``; a planted ``value`` ("average rate: 7.418") is one of its report lines, and no other line says
    one of ``avoid`` (the session's other planted values)."""
    nominal = rate if rate is not None else TOPICS.get(topic, 10.0)
    lines: list[str] = []
    used, window = 0, 0
    target = min(size, rng.randint(900, 4000))
    at = rng.randint(3, 9)
    while used < target or len(lines) < 2 * at + 2:
        window += int(nominal) + rng.randint(0, 1)
        r = nominal * (1 + rng.uniform(-0.004, 0.004)) if rate is None else rate + rng.uniform(-0.6, 0.6)
        avg = f"average rate: {r:.3f}"
        if avoid and avg != value and any(v in avg for v in avoid):
            continue
        if value and len(lines) == 2 * at:
            avg = value
        period = 1 / max(r, 0.1)
        lines += [avg, f"\tmin: {period * 0.93:.3f}s max: {period * 1.08:.3f}s std dev: {period * rng.uniform(0.002, 0.06):.5f}s window: {window}"]
        used += len(lines[-1]) + len(lines[-2]) + 2
    return "\n".join(lines)


def topic_echo(rng: random.Random, clock: _Clock, size: int, topic: str) -> str:
    stamp = clock.tick()
    sec, nsec = stamp.split(".")
    head = ["header:", "  stamp:", f"    sec: {sec}", f"    nanosec: {int(nsec)}"]
    if topic == "/scan":
        head += ["  frame_id: laser_link", "angle_min: -2.356194496154785", "angle_max: 2.356194496154785",
                 "angle_increment: 0.004363323096185923", "time_increment: 4.6296296204673126e-05", "scan_time: 0.06666667014360428",
                 "range_min: 0.05000000074505806", "range_max: 25.0", "ranges:"]
        body = _lines_to(size - 300, head, lambda: "- " + (".inf" if rng.random() < 0.06 else repr(round(rng.uniform(0.3, 24), 7)))).split("\n")
        return "\n".join(body + ["intensities: '<sequence type: float, length: 1081>'", "---"])
    if topic == "/odom":
        cov = ", ".join(f"{rng.choice((0.0, 0.001, 0.01, 1000000.0))}" for _ in range(6))
        blocks = []
        used = 0
        while used < min(size, 6000):
            stamp = clock.tick(0.02)
            sec, nsec = stamp.split(".")
            b = (f"header:\n  stamp:\n    sec: {sec}\n    nanosec: {int(nsec)}\n  frame_id: odom\nchild_frame_id: base_footprint\n"
                 f"pose:\n  pose:\n    position:\n      x: {rng.uniform(-5, 60):.6f}\n      y: {rng.uniform(-5, 30):.6f}\n      z: 0.0\n"
                 f"    orientation:\n      x: 0.0\n      y: 0.0\n      z: {rng.uniform(-1, 1):.6f}\n      w: {rng.uniform(0, 1):.6f}\n"
                 f"  covariance:\n  - {cov}\n  - '...'\ntwist:\n  twist:\n    linear:\n      x: {rng.uniform(0, 1.1):.6f}\n      y: 0.0\n      z: 0.0\n"
                 f"    angular:\n      x: 0.0\n      y: 0.0\n      z: {rng.uniform(-0.6, 0.6):.6f}\n  covariance:\n  - '...'\n---")
            blocks.append(b)
            used += len(b)
        return "\n".join(blocks)
    if topic == "/battery_state":
        return "\n".join(head + ["  frame_id: battery", f"voltage: {rng.uniform(46.5, 52.8):.3f}", f"temperature: {rng.uniform(18, 34):.1f}",
                                 f"current: {rng.uniform(-22, 4):.3f}", "charge: .nan", "capacity: .nan", "design_capacity: 105.0",
                                 f"percentage: {rng.uniform(0.2, 0.99):.3f}", "power_supply_status: 2", "power_supply_health: 1",
                                 "power_supply_technology: 3", "present: true", "cell_voltage: []", "cell_temperature: []", "location: rear",
                                 "serial_number: ''", "---"])
    # /diagnostics and the rest: a diagnostic array
    def status() -> str:
        name = rng.choice(("kaiyo_lidar: scan", "base_controller: CAN bus", "base_controller: motor left", "base_controller: motor right",
                           "safety_monitor: fields", "battery_monitor: pack", "controller_server: loop"))
        level = rng.choice((b"\x00", b"\x00", b"\x00", b"\x01"))
        return (f"- level: \"{level.decode('latin-1').encode('unicode_escape').decode()}\"\n  name: '{name}'\n  message: "
                f"{rng.choice(('OK', 'OK', 'Frequency within bounds', 'Packet loss above 0.1%', 'Temperature high'))}\n  hardware_id: {rng.choice(ROBOTS)}\n"
                f"  values:\n  - key: {rng.choice(('rate', 'errors', 'temperature', 'bus_load'))}\n    value: '{rng.uniform(0, 100):.2f}'")
    return _lines_to(min(size, 7000), head + ["status:"], status, ["---"])


def topic_list(rng: random.Random, size: int) -> str:
    types = {"/scan": "sensor_msgs/msg/LaserScan", "/odom": "nav_msgs/msg/Odometry", "/imu/data": "sensor_msgs/msg/Imu",
             "/joint_states": "sensor_msgs/msg/JointState", "/cmd_vel": "geometry_msgs/msg/Twist", "/battery_state": "sensor_msgs/msg/BatteryState",
             "/diagnostics": "diagnostic_msgs/msg/DiagnosticArray", "/safety/speed_limit": "nav2_msgs/msg/SpeedLimit",
             "/can/motor_status": "amr_msgs/msg/MotorStatus", "/local_costmap/costmap": "nav_msgs/msg/OccupancyGrid",
             "/tf": "tf2_msgs/msg/TFMessage", "/amcl_pose": "geometry_msgs/msg/PoseWithCovarianceStamped", "/tf_static": "tf2_msgs/msg/TFMessage",
             "/plan": "nav_msgs/msg/Path", "/map": "nav_msgs/msg/OccupancyGrid", "/initialpose": "geometry_msgs/msg/PoseWithCovarianceStamped",
             "/goal_pose": "geometry_msgs/msg/PoseStamped", "/cmd_vel_nav": "geometry_msgs/msg/Twist", "/cmd_vel_smoothed": "geometry_msgs/msg/Twist",
             "/global_costmap/costmap": "nav_msgs/msg/OccupancyGrid", "/robot_description": "std_msgs/msg/String",
             "/parameter_events": "rcl_interfaces/msg/ParameterEvent", "/rosout": "rcl_interfaces/msg/Log",
             "/behavior_tree_log": "nav2_msgs/msg/BehaviorTreeLog", "/particle_cloud": "nav2_msgs/msg/ParticleCloud",
             "/dock/status": "amr_msgs/msg/DockStatus", "/joy": "sensor_msgs/msg/Joy", "/safety/field_state": "amr_msgs/msg/FieldState"}
    nav = rng.random() < 0.7  # is the navigation stack up?
    base = ("/scan", "/odom", "/imu/data", "/joint_states", "/cmd_vel", "/battery_state", "/diagnostics", "/safety/speed_limit",
            "/can/motor_status", "/tf", "/tf_static", "/robot_description", "/parameter_events", "/rosout", "/joy", "/safety/field_state")
    shown = [t for t in types if t in base or nav or rng.random() < 0.2]
    lines = [f"{t} [{types[t]}]" for t in sorted(shown)]
    spaces = ("controller_server", "planner_server", "amcl", "bt_navigator", "local_costmap", "global_costmap", "velocity_smoother",
              "collision_monitor") if nav else ()
    extra = [f"/{ns}/transition_event [lifecycle_msgs/msg/TransitionEvent]" for ns in spaces + ("kaiyo_lidar", "base_controller")]
    extra += [f"/{rng.choice(('rviz2', 'foxglove_bridge', 'rosbag2_recorder'))}/{leaf} [{typ}]" for leaf, typ in
              (("parameter_events_sub", "rcl_interfaces/msg/ParameterEvent"), ("clicked_point", "geometry_msgs/msg/PointStamped"))
              if rng.random() < 0.5]
    extra += [] if not nav else [f"/local_costmap/{leaf} [{typ}]" for leaf, typ in (("footprint", "geometry_msgs/msg/Polygon"), ("published_footprint", "geometry_msgs/msg/PolygonStamped"),
                                                                   ("costmap_updates", "map_msgs/msg/OccupancyGridUpdate"), ("clearing_endpoints", "sensor_msgs/msg/PointCloud2"),
                                                                   ("voxel_marked_cloud", "sensor_msgs/msg/PointCloud2"))]
    return "\n".join(sorted(set(lines + extra)))


def topic_info(rng: random.Random, topic: str, reliability: str = "BEST_EFFORT", depth: int = 5) -> str:
    def endpoint(kind: str, node: str) -> str:
        gid = ".".join(_hex(rng, 2) for _ in range(16)) + ".00.00.00.00.00.00.00.00"
        return (f"Node name: {node}\nNode namespace: /\nTopic type: sensor_msgs/msg/LaserScan\nEndpoint type: {kind}\nGID: {gid}\n"
                f"QoS profile:\n  Reliability: {reliability if kind == 'PUBLISHER' else rng.choice(('BEST_EFFORT', 'RELIABLE'))}\n"
                f"  History (Depth): KEEP_LAST ({depth if kind == 'PUBLISHER' else rng.choice((1, 5, 10))})\n  Durability: VOLATILE\n"
                "  Lifespan: Infinite\n  Deadline: Infinite\n  Liveliness: AUTOMATIC\n  Liveliness lease duration: Infinite\n")
    subs = rng.sample(("amcl", "local_costmap", "global_costmap", "collision_monitor", "safety_monitor", "scan_filter", "rosbag2_recorder"), rng.randint(2, 5))
    return (f"Type: sensor_msgs/msg/LaserScan\n\nPublisher count: 1\n\n{endpoint('PUBLISHER', 'kaiyo_lidar')}\nSubscription count: {len(subs)}\n\n"
            + "\n".join(endpoint("SUBSCRIPTION", s) for s in subs))


PARAMS = {
    "controller_server": {"controller_frequency": "20.0", "min_x_velocity_threshold": "0.001", "min_theta_velocity_threshold": "0.001",
                          "failure_tolerance": "0.3", "progress_checker_plugin": "progress_checker", "goal_checker_plugins": "\n    - general_goal_checker",
                          "controller_plugins": "\n    - FollowPath", "use_sim_time": "false",
                          "FollowPath.plugin": "nav2_regulated_pure_pursuit_controller::RegulatedPurePursuitController",
                          "FollowPath.desired_linear_vel": "0.8|0.7|0.9", "FollowPath.lookahead_dist": "0.6|0.7|0.55", "FollowPath.min_lookahead_dist": "0.3",
                          "FollowPath.max_lookahead_dist": "0.9", "FollowPath.use_velocity_scaled_lookahead_dist": "false",
                          "FollowPath.use_regulated_linear_velocity_scaling": "true", "FollowPath.regulated_linear_scaling_min_radius": "0.9",
                          "FollowPath.use_collision_detection": "true", "FollowPath.max_allowed_time_to_collision_up_to_carrot": "1.0",
                          "FollowPath.allow_reversing": "false", "FollowPath.rotate_to_heading_min_angle": "0.785",
                          "general_goal_checker.xy_goal_tolerance": "0.25|0.2|0.15", "general_goal_checker.yaw_goal_tolerance": "0.25",
                          "progress_checker.required_movement_radius": "0.5", "progress_checker.movement_time_allowance": "10.0"},
    "amcl": {"alpha1": "0.2", "alpha2": "0.2", "alpha3": "0.2", "alpha4": "0.2", "alpha5": "0.2", "base_frame_id": "base_footprint",
             "beam_skip_distance": "0.5", "global_frame_id": "map", "laser_likelihood_max_dist": "2.0|1.5", "laser_max_range": "25.0",
             "laser_min_range": "0.05", "laser_model_type": "likelihood_field", "max_beams": "60", "max_particles": "2000|3000|2500",
             "min_particles": "500", "odom_frame_id": "odom", "pf_err": "0.05", "pf_z": "0.99", "recovery_alpha_fast": "0.0",
             "recovery_alpha_slow": "0.0", "resample_interval": "1", "robot_model_type": "nav2_amcl::DifferentialMotionModel",
             "save_pose_rate": "0.5", "sigma_hit": "0.2", "tf_broadcast": "true", "transform_tolerance": "1.0|0.5|0.3",
             "update_min_a": "0.2", "update_min_d": "0.25|0.2|0.1", "z_hit": "0.5", "z_max": "0.05", "z_rand": "0.5", "z_short": "0.05",
             "scan_topic": "scan", "set_initial_pose": "false"},
    "kaiyo_lidar": {"port": "/dev/kaiyo_lidar", "baudrate": "921600", "frame_id": "laser_link", "scan_frequency": "15",
                    "angle_min_deg": "-135.0", "angle_max_deg": "135.0", "range_min": "0.05", "range_max": "25.0",
                    "reorder_window": "2|3|4", "use_sensor_time": "false", "publish_intensities": "false", "crc_check": "true"},
    "velocity_smoother": {"smoothing_frequency": "20.0", "scale_velocities": "false", "feedback": "OPEN_LOOP",
                          "max_velocity": "\n    - 1.0\n    - 0.0\n    - 1.2", "min_velocity": "\n    - -0.2\n    - 0.0\n    - -1.2",
                          "max_accel": "\n    - 0.6\n    - 0.0\n    - 1.5", "max_decel": "\n    - -1.0\n    - 0.0\n    - -2.0",
                          "odom_topic": "odom", "odom_duration": "0.1", "deadband_velocity": "\n    - 0.0\n    - 0.0\n    - 0.0",
                          "velocity_timeout": "1.0|0.5"},
    "collision_monitor": {"base_frame_id": "base_footprint", "odom_frame_id": "odom", "cmd_vel_in_topic": "cmd_vel_smoothed",
                          "cmd_vel_out_topic": "cmd_vel", "transform_tolerance": "0.2", "source_timeout": "1.0|0.5|0.8",
                          "stop_pub_timeout": "2.0", "polygons": "\n    - PolygonStop\n    - PolygonSlow",
                          "PolygonStop.type": "polygon", "PolygonStop.action_type": "stop", "PolygonStop.min_points": "4",
                          "PolygonSlow.type": "polygon", "PolygonSlow.action_type": "slowdown", "PolygonSlow.slowdown_ratio": "0.3|0.4|0.5",
                          "observation_sources": "\n    - scan", "scan.type": "scan", "scan.topic": "/scan"},
    "base_controller": {"can_interface": "can0", "left_node_id": "1", "right_node_id": "2", "wheel_radius": "0.0825",
                        "wheel_separation": "0.52", "gear_ratio": "24.0", "max_rpm": "3000", "heartbeat_timeout_ms": "300|250|400",
                        "publish_rate": "50.0|100.0", "odom_frame": "odom", "base_frame": "base_footprint", "publish_tf": "true"},
}


def param_dump(rng: random.Random, node: str) -> str:
    params = PARAMS[node]
    lines = [f"/{node}:", "  ros__parameters:"]
    groups: dict[str, list[tuple[str, str]]] = {}
    for key, val in params.items():
        head, _, leaf = key.rpartition(".")
        groups.setdefault(head, []).append((leaf, rng.choice(val.split("|"))))
    for head in sorted(groups):
        indent = "    "
        if head:
            lines.append(f"    {head}:")
            indent = "      "
        for leaf, val in sorted(groups[head]):
            lines.append(f"{indent}{leaf}:{val if val.startswith(chr(10)) else ' ' + val}".replace("\n    -", "\n" + indent + "-"))
    lines += ["    qos_overrides:", "      /parameter_events:", "        publisher:", "          depth: 1000", "          durability: volatile",
              "          history: keep_last", "          reliability: reliable", f"    use_sim_time: {rng.choice(('false', 'false', 'true'))}"]
    return "\n".join(lines)


def ros2_doctor(rng: random.Random, robot: str) -> str:
    warn = rng.random() < 0.5
    lines = (["/opt/ros/humble/lib/python3.10/site-packages/ros2doctor/api/topic.py: 42: UserWarning: Publisher without subscriber detected on /diagnostics_agg.", ""]
             if warn else []) + ["   NETWORK CONFIGURATION", "inet         : 127.0.0.1", "inet4        : ['127.0.0.1']", "inet6        : ['::1']", "netmask      : 255.0.0.0",
             "device       : lo", "flags        : 73<UP,LOOPBACK,RUNNING>", "mtu          : 65536",
             f"inet         : 10.40.{rng.randint(1, 9)}.{rng.randint(20, 200)}", "netmask      : 255.255.255.0", "device       : wlp2s0",
             "flags        : 4163<UP,BROADCAST,RUNNING,MULTICAST>", "mtu          : 1500", "", "   PACKAGE VERSIONS",
             f"rclcpp                                    : latest=16.0.10, local=16.0.{rng.choice((8, 9, 10))}",
             "nav2_bringup                              : latest=1.1.17, local=1.1.16", "rosbag2                                   : latest=0.15.12, local=0.15.12",
             "", "   PLATFORM INFORMATION", "system           : Linux", f"platform info    : Linux-5.15.0-{rng.choice((1045, 1051, 125))}-realtime-x86_64-with-glibc2.35",
             "release          : 5.15.0-1045-realtime", "processor        : x86_64", "", "   QOS COMPATIBILITY LIST", "compatibility status    : No publisher/subscriber pairs found",
             "", "   RMW MIDDLEWARE", "middleware name    : rmw_fastrtps_cpp", "", "   ROS 2 INFORMATION", "distribution name      : humble",
             "distribution type      : ros2", "distribution status    : active", "release platforms      : {'debian': ['bullseye'], 'rhel': ['8'], 'ubuntu': ['jammy']}",
             "", "   TOPIC LIST"]
    for t in sorted(TOPICS):
        lines += [f"topic               : {t}", "publisher count     : 1", f"subscriber count    : {rng.randint(0, 4)}"]
    lines += ["", f"{'1/5 checks failed' if warn else 'All 5 checks passed'}"] + (["", "Failed modules:  network"] if warn else [])
    return "\n".join(lines)


def tf2_echo(rng: random.Random, clock: _Clock, size: int, source: str, target: str) -> str:
    blocks = []
    if rng.random() < 0.5:
        blocks.append(f"[INFO] [{clock.tick()}] [tf2_echo]: Waiting for transform {source} ->  {target}: Invalid frame ID \"{source}\" passed to canTransform argument target_frame - frame does not exist")
    used = 0
    x, y, yaw = rng.uniform(-2, 40), rng.uniform(-2, 30), rng.uniform(-3, 3)
    while used < min(size, 5000):
        yaw += rng.uniform(-0.01, 0.01)
        qz, qw = math.sin(yaw / 2), math.cos(yaw / 2)
        b = (f"At time {clock.tick(1.0)[:-3]}000\n- Translation: [{x:.3f}, {y:.3f}, 0.000]\n- Rotation: in Quaternion [0.000, 0.000, {qz:.3f}, {qw:.3f}]\n"
             f"- Rotation: in RPY (radian) [0.000, -0.000, {yaw:.3f}]\n- Rotation: in RPY (degree) [0.000, -0.000, {math.degrees(yaw):.3f}]\n"
             f"- Matrix:\n {math.cos(yaw):6.3f} {-math.sin(yaw):6.3f}  0.000 {x:6.3f}\n {math.sin(yaw):6.3f} {math.cos(yaw):6.3f}  0.000 {y:6.3f}\n"
             "  0.000  0.000  1.000  0.000\n  0.000  0.000  0.000  1.000")
        blocks.append(b)
        used += len(b)
        x += rng.uniform(-0.02, 0.05)
    return "\n".join(blocks)


# --- bash: CAN, kernel, processes, memory checkers, docker, git ------------------------------------------------

def candump(rng: random.Random, clock: _Clock, size: int, errors: bool = False) -> str:
    """``candump -ta -e can0``: PDOs of the two motor nodes, heartbeats, SYNC, now and then an error frame."""
    def row() -> str:
        ts = clock.tick(0.004)[:-3]
        r = rng.random()
        if errors and r < 0.02:
            return f" ({ts})  can0  20000004   [8]  00 {rng.choice(('04', '08', '10', '20'))} 00 00 00 00 00 00   ERRORFRAME"
        if r < 0.1:
            return f" ({ts})  can0  080   [0] "
        if r < 0.18:
            return f" ({ts})  can0  70{rng.randint(1, 2)}   [1]  05"
        cob = rng.choice(("181", "182", "281", "282", "201", "202", "381", "382"))
        n = 8 if cob[0] in "12" else 6
        data = " ".join(f"{rng.randint(0, 255):02X}" for _ in range(n))
        return f" ({ts})  can0  {cob}   [{n}]  {data}"
    return _lines_to(size, [], row)


def can_stats(rng: random.Random, berr: str | None = None) -> str:
    counter = berr or "berr-counter tx 0 rx 0"
    state = "ERROR-PASSIVE" if berr else rng.choice(("ERROR-ACTIVE", "ERROR-ACTIVE", "ERROR-WARNING"))
    bus_errs, warns = (rng.randint(300, 5000), rng.randint(20, 90)) if berr else (rng.randint(0, 3), rng.randint(0, 1))
    return (f"4: can0: <NOARP,UP,LOWER_UP,ECHO> mtu 16 qdisc pfifo_fast state UP mode DEFAULT group default qlen 10\n"
            f"    link/can  promiscuity 0 minmtu 0 maxmtu 0 \n    can state {state} ({counter}) restart-ms 100 \n"
            f"\t  bitrate 500000 sample-point 0.875 \n\t  tq 125 prop-seg 6 phase-seg1 7 phase-seg2 2 sjw 1\n"
            f"\t  gs_usb: tseg1 1..16 tseg2 1..8 sjw 1..4 brp 1..1024 brp-inc 1\n\t  clock 48000000 \n"
            f"\t  re-started bus-errors arbit-lost error-warn error-pass bus-off\n"
            f"\t  {rng.randint(0, 2):<10} {bus_errs:<10} 0          {warns:<10} {rng.randint(0, 9) if berr else 0:<10} 0         "
            f" numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 \n"
            f"    RX:  bytes packets errors dropped  missed   mcast           \n"
            f"      {rng.randint(10 ** 6, 10 ** 8):>9} {rng.randint(10 ** 5, 10 ** 7):>7} {bus_errs if berr else 0:>6}       0       0       0 \n"
            f"    TX:  bytes packets errors dropped carrier collsns           \n"
            f"      {rng.randint(10 ** 6, 10 ** 8):>9} {rng.randint(10 ** 5, 10 ** 7):>7}      0       0       0       0 ")


def dmesg(rng: random.Random, size: int, inserts: list[str] | None = None) -> str:
    t = [rng.uniform(100, 20000)]

    def row() -> str:
        t[0] += rng.uniform(0.001, 40)
        ts = f"[{t[0]:12.6f}]"
        return ts + " " + rng.choice((
            f"usb 1-{rng.randint(1, 4)}: new full-speed USB device number {rng.randint(3, 30)} using xhci_hcd",
            f"usb 1-{rng.randint(1, 4)}: New USB device found, idVendor=1d50, idProduct=606f, bcdDevice= 0.00",
            "gs_usb 1-3:1.0: Configuring for 1 interfaces", "can: controller area network core",
            "can: raw protocol", "IPv6: ADDRCONF(NETDEV_CHANGE): can0: link becomes ready",
            "cdc_acm 1-2:1.0: ttyACM0: USB ACM device", f"usb 1-2: USB disconnect, device number {rng.randint(3, 30)}",
            f"iwlwifi 0000:00:14.3: Unhandled alg: 0x{rng.choice(('707', '703'))}",
            f"wlp2s0: disconnect from AP {':'.join(_hex(rng, 2) for _ in range(6))} for new auth to {':'.join(_hex(rng, 2) for _ in range(6))}",
            "wlp2s0: associated", "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.",
            f"audit: type=1400 audit({T0 - 20000 + t[0]:.3f}:{rng.randint(100, 999)}): apparmor=\"DENIED\" operation=\"open\" profile=\"snap.firefox\"",
            f"thermal thermal_zone{rng.randint(0, 3)}: failed to read out thermal zone (-61)",
            f"intel_rapl_common: Found RAPL domain {rng.choice(('package', 'core', 'uncore'))}",
        ))
    return _lines_to(size, [], row, None, inserts, rng)


def top_snapshot(rng: random.Random, load: str | None = None) -> str:
    la = load or f"load average: {rng.uniform(0.3, 3.9):.2f}, {rng.uniform(0.3, 3.9):.2f}, {rng.uniform(0.3, 3.9):.2f}"
    busy = load is not None
    us = rng.uniform(70, 95) if busy else rng.uniform(8, 45)
    head = [f"top - {rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} up {rng.randint(1, 40)} days, {rng.randint(0, 23)}:{rng.randint(10, 59)},  2 users,  {la}",
            f"Tasks: {rng.randint(280, 420)} total,   {rng.randint(1, 9)} running, {rng.randint(270, 400)} sleeping,   0 stopped,   0 zombie",
            f"%Cpu(s): {us:4.1f} us, {rng.uniform(2, 12):4.1f} sy,  0.0 ni, {100 - us - 6:4.1f} id,  0.3 wa,  0.0 hi,  0.8 si,  0.0 st",
            f"MiB Mem :  15787.4 total,   {rng.uniform(2000, 9000):6.1f} free,   {rng.uniform(4000, 9000):6.1f} used,   {rng.uniform(1000, 5000):6.1f} buff/cache",
            f"MiB Swap:   2048.0 total,   2048.0 free,      0.0 used.  {rng.uniform(5000, 11000):6.1f} avail Mem", "",
            "    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND"]
    procs = ["controller_serv", "kaiyo_lidar_nod", "amcl", "planner_server", "base_controlle", "safety_monitor_", "bt_navigator",
             "collision_monit", "velocity_smooth", "robot_state_pub", "python3", "gzserver", "ros2", "rviz2", "dockerd", "Xorg", "gnome-shell"]
    rows = []
    for k, p in enumerate(rng.sample(procs, len(procs))):
        cpu = rng.uniform(40, 190) / (k + 1) if busy else rng.uniform(0, 35) / (k + 1)
        rows.append(f"{rng.randint(900, 9999):7d} {'onishi' if p not in ('dockerd', 'Xorg') else 'root':<9} 20   0 {rng.randint(300000, 3000000):7d} "
                    f"{rng.randint(20000, 500000):6d} {rng.randint(9000, 60000):6d} {'R' if cpu > 20 else 'S'} {cpu:5.1f} {rng.uniform(0.1, 4):5.1f} "
                    f"{rng.randint(0, 90):3d}:{rng.randint(0, 59):02d}.{rng.randint(0, 99):02d} {p}")
    return "\n".join(head + rows)


def valgrind(rng: random.Random, clock: _Clock, size: int, exe: tuple[str, str], lost: str | None = None) -> str:
    pid = rng.randint(3000, 9999)
    p = f"=={pid}=="
    head = [f"{p} Memcheck, a memory error detector", f"{p} Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.",
            f"{p} Using Valgrind-3.18.1 and LibVEX; rerun with -h for copyright info",
            f"{p} Command: {WS}/install/{exe[0]}/lib/{exe[0]}/{exe[1]} --ros-args --params-file {WS}/install/{exe[0]}/share/{exe[0]}/config/params.yaml", p]

    def row() -> str:
        if rng.random() < 0.12:
            return (f"{p} Conditional jump or move depends on uninitialised value(s)\n{p}    at 0x{rng.choice('45')}{_hex(rng, 6)}: "
                    f"{rng.choice(('eprosima::fastrtps::rtps::RTPSParticipantImpl::createReceiverResources', 'rcl_init', 'rmw_create_node'))} "
                    f"(in /opt/ros/humble/lib/{rng.choice(('libfastrtps.so.2.6.7', 'librcl.so', 'librmw_fastrtps_cpp.so'))})\n{p}")
        ts = clock.tick(0.2)
        return f"[INFO] [{ts}] [{exe[1].replace('_node', '')}]: {rng.choice(('spinning', 'parameters loaded', 'timer fired', 'publisher ready', 'received first message'))}"
    tail = [f"{p} ", f"{p} HEAP SUMMARY:", f"{p}     in use at exit: {rng.randint(40000, 200000):,} bytes in {rng.randint(200, 900)} blocks",
            f"{p}   total heap usage: {rng.randint(10000, 90000):,} allocs, {rng.randint(9000, 89000):,} frees, {rng.randint(10 ** 6, 10 ** 8):,} bytes allocated",
            p, f"{p} LEAK SUMMARY:", f"{p}    {lost or 'definitely lost: 0 bytes in 0 blocks'}", f"{p}    indirectly lost: 0 bytes in 0 blocks",
            f"{p}      possibly lost: {rng.randint(0, 4000):,} bytes in {rng.randint(0, 9)} blocks",
            f"{p}    still reachable: {rng.randint(40000, 200000):,} bytes in {rng.randint(200, 900)} blocks",
            f"{p}         suppressed: 0 bytes in 0 blocks", f"{p} Rerun with --leak-check=full to see details of leaked memory", p,
            f"{p} Use --track-origins=yes to see where uninitialised values come from",
            f"{p} For lists of detected and suppressed errors, rerun with: -s",
            f"{p} ERROR SUMMARY: {rng.randint(0, 40)} errors from {rng.randint(0, 6)} contexts (suppressed: 0 from 0)"]
    return _lines_to(size, head, row, tail)


def asan_report(rng: random.Random, clock: _Clock, size: int, exe: tuple[str, str], error_line: str | None = None) -> str:
    """A sanitized run of a node; with ``error_line`` it ends in an AddressSanitizer report whose first line that is."""
    node = exe[1].replace("_node", "")

    def row() -> str:
        return f"[INFO] [{clock.tick(0.1)}] [{node}]: {rng.choice(('scan assembled', 'packet ok', 'frame sent', 'state OPERATIONAL', 'published', 'tick'))} #{rng.randint(1, 99999)}"
    head = [f"$ ASAN_OPTIONS=detect_leaks=0 {WS}/install/{exe[0]}/lib/{exe[0]}/{exe[1]} --ros-args -p use_sim_time:=false"]
    if not error_line:
        return _lines_to(size, head, row, [f"[INFO] [{clock.tick()}] [rclcpp]: signal_handler(signum=2)", "(exited normally after SIGINT)"])
    pid = error_line.split("==")[1]
    addr_s, pc = re.findall(r"0x[0-9a-f]+", error_line)[:2]
    addr = int(addr_s, 16)
    base, lib, line = f"0x55{pc[4:8]}", f"0x7f{_hex(rng, 4)}", rng.randint(120, 300)
    frames = [f"    #0 {pc} in kaiyo::ScanAssembler::push(kaiyo::Packet const&) {WS}/src/{exe[0]}/src/scan_assembler.cpp:{line}",
              f"    #1 {base}{_hex(rng, 6)} in kaiyo::KaiyoLidarNode::onPacket(std::vector<unsigned char, std::allocator<unsigned char> > const&) "
              f"{WS}/src/{exe[0]}/src/kaiyo_lidar_node.cpp:{rng.randint(80, 240)}",
              f"    #2 {base}{_hex(rng, 6)} in kaiyo::SerialPort::readLoop() {WS}/src/{exe[0]}/src/serial_port.cpp:{rng.randint(60, 200)}"]
    tail = ["=================================================================", error_line,
            f"READ of size 8 at {addr_s} thread T{rng.randint(1, 6)}"] + frames + [
            f"    #3 {lib}{_hex(rng, 6)} in std::execute_native_thread_routine(void*) ../../../../../src/libstdc++-v3/src/c++11/thread.cc:82",
            f"    #4 {lib}{_hex(rng, 6)} in start_thread nptl/pthread_create.c:442", "",
            f"{addr_s} is located 16 bytes inside of 104-byte region [{addr - 16:#x},{addr + 88:#x})",
            f"freed by thread T{rng.randint(1, 6)} here:", f"    #0 {lib}{_hex(rng, 6)} in operator delete(void*, unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:172",
            f"    #1 {base}{_hex(rng, 6)} in kaiyo::ScanAssembler::reset() {WS}/src/{exe[0]}/src/scan_assembler.cpp:{rng.randint(20, 110)}", "",
            f"SUMMARY: AddressSanitizer: heap-use-after-free {WS}/src/{exe[0]}/src/scan_assembler.cpp:{line} in kaiyo::ScanAssembler::push(kaiyo::Packet const&)",
            "Shadow bytes around the buggy address:"] + [
            f"  0x0c16{_hex(rng, 8)}: " + " ".join(rng.choice(("fa", "fd", "00", "fa")) for _ in range(16)) for _ in range(6)] + [
            f"=={pid}==ABORTING"]
    return _lines_to(size, head, row, tail)


def docker_build(rng: random.Random, size: int, digest: str | None = None) -> str:
    steps = ["FROM docker.io/osrf/ros:humble-desktop@sha256:" + _hex(rng, 64), "RUN apt-get update && apt-get install -y ros-humble-navigation2 ros-humble-nav2-bringup can-utils",
             "RUN apt-get install -y clang-format-14 valgrind gdb", "COPY docker/ros_entrypoint.sh /", "RUN pip3 install --no-cache-dir pyserial==3.5 python-can==4.2.2",
             "WORKDIR /home/onishi/amr_ws", "RUN rosdep update && rosdep install --from-paths src --ignore-src -y",
             "ENV RMW_IMPLEMENTATION=rmw_fastrtps_cpp", "USER onishi"]
    out = ["#0 building with \"default\" instance using docker driver", "", "#1 [internal] load build definition from Dockerfile.dev",
           f"#1 transferring dockerfile: {rng.uniform(1.5, 3.5):.2f}kB done", "#1 DONE 0.0s", "",
           "#2 [internal] load metadata for docker.io/osrf/ros:humble-desktop", f"#2 DONE {rng.uniform(0.5, 2.5):.1f}s", ""]
    k = 3
    for st in steps:
        cached = rng.random() < 0.5
        out.append(f"#{k} [{k - 2}/{len(steps)}] {st}")
        if st.startswith("FROM"):
            out += [f"#{k} resolve {st[5:]} {rng.uniform(0.1, 1.5):.1f}s done", f"#{k} CACHED"]
        elif cached or not st.startswith("RUN"):
            out.append(f"#{k} CACHED")
        else:
            for _ in range(rng.randint(3, max(4, size // (len(steps) * 90)))):
                out.append(f"#{k} {rng.uniform(0.1, 90):.3f} " + rng.choice((
                    f"Get:{rng.randint(1, 300)} http://packages.ros.org/ros2/ubuntu jammy/main amd64 ros-humble-{rng.choice(('nav2-amcl', 'nav2-core', 'nav2-costmap-2d', 'rclcpp', 'tf2-ros'))} amd64 {rng.randint(1, 2)}.{rng.randint(0, 16)}.{rng.randint(0, 20)}-1jammy.2024{rng.randint(1001, 1130)}.{_hex(rng, 6)} [{rng.randint(20, 900)} kB]",
                    f"Setting up ros-humble-{rng.choice(('nav2-util', 'nav2-msgs', 'behaviortree-cpp-v3', 'can-msgs'))} ({rng.randint(1, 4)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}-1jammy) ...",
                    f"Unpacking {rng.choice(('valgrind', 'gdb', 'clang-format-14', 'can-utils'))} ({rng.randint(1, 14)}.{rng.randint(0, 9)}-{rng.randint(1, 3)}ubuntu1) ...",
                    f"Collecting {rng.choice(('pyserial==3.5', 'python-can==4.2.2', 'wrapt', 'packaging'))}",
                    "#All required rosdeps installed successfully")))
            out.append(f"#{k} DONE {rng.uniform(0.3, 120):.1f}s")
        out.append("")
        k += 1
    out += [f"#{k} exporting to image", f"#{k} exporting layers {rng.uniform(0.5, 30):.1f}s done",
            f"#{k} writing image {digest or 'sha256:' + _hex(rng, 64)} done", f"#{k} naming to docker.io/yodogawa/amr-dev:humble done",
            f"#{k} DONE {rng.uniform(0.5, 30):.1f}s"]
    return "\n".join(out)


def _day(rng: random.Random) -> str:
    return rng.choice(("Fri Nov 29", "Sat Nov 30", "Mon Dec 2", "Tue Dec 3"))


GIT_SUBJECTS = ("kaiyo: re-sync on crc mismatch instead of dropping the revolution", "base: heartbeat timeout from params",
                "safety: zone table reload on SIGHUP", "nav: tighten goal tolerance at docks", "docking: abort after 3 failed approaches",
                "diagnostics: CAN bus load in /diagnostics", "bringup: split lidar launch", "teleop: deadman timeout 0.5 s",
                "localization: initial pose from last saved pose", "sim: dc2 aisles world with racks", "docker: pin python-can",
                "msgs: MotorStatus gets fault_code", "ci: run colcon test on PRs", "base: odometry covariance from params")


def git_out(rng: random.Random, size: int, mode: str, commit: tuple[str, str] | None = None) -> str:
    if mode == "commit" and commit:
        return (f"[{commit[1]} {commit[0]}] {rng.choice(GIT_SUBJECTS)}\n {rng.randint(1, 6)} files changed, {rng.randint(3, 200)} insertions(+), "
                f"{rng.randint(0, 90)} deletions(-)")
    if mode == "status":
        changed = rng.sample(EDITABLE, rng.randint(1, 5))
        return ("On branch " + rng.choice(("main", "fix/lidar-resync", "feature/zone-table", "sat/amagasaki")) + "\n"
                "Your branch is up to date with 'origin/main'.\n\nChanges not staged for commit:\n"
                "  (use \"git add <file>...\" to update what will be committed)\n  (use \"git restore <file>...\" to discard changes in working directory)\n"
                + "\n".join(f"\tmodified:   {c}" for c in changed) + "\n\nUntracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n"
                "\tlog/\n\nno changes added to commit (use \"git add\" and/or \"git commit -a\")")

    def row() -> str:
        return (f"commit {_hex(rng, 40)}\nAuthor: {rng.choice(('Shota Onishi <onishi@yodogawa-robotics.jp>', 'Daiki Kobayashi <kobayashi@yodogawa-robotics.jp>', 'Priya Raman <priya@yodogawa-robotics.jp>'))}\n"
                f"Date:   {_day(rng)} {rng.randint(8, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} 2024 +0900\n\n"
                f"    {rng.choice(GIT_SUBJECTS)}\n")
    return _lines_to(min(size, 6000), [], row)


GREP_HITS = {
    "heartbeat": (("cpp", "if (now() - last_heartbeat_ > heartbeat_timeout_) {"), ("cpp", "declare_parameter<int>(\"heartbeat_timeout_ms\", 300);"),
                  ("cpp", "last_heartbeat_ = now();"), ("py", "self.heartbeat_age = now - self.last_heartbeat")),
    "lookupTransform": (("cpp", "tf_buffer_->lookupTransform(\"base_footprint\", msg->header.frame_id, msg->header.stamp, 100ms);"),
                        ("cpp", "auto t = tf_buffer_->lookupTransform(\"map\", \"base_footprint\", tf2::TimePointZero);")),
    "best_effort": (("cpp", "create_publisher<sensor_msgs::msg::LaserScan>(\"scan\", rclcpp::QoS(5).best_effort());"),
                    ("py", "qos = QoSProfile(depth=5, reliability=ReliabilityPolicy.BEST_EFFORT)  # best_effort like the driver")),
    "declare_parameter": (("cpp", "declare_parameter<double>(\"max_linear_speed\", 1.0);"), ("py", "self.declare_parameter('dock_timeout', 30.0)"),
                          ("cpp", "declare_parameter<std::string>(\"frame_id\", \"laser_link\");")),
    "RCLCPP_WARN": (("cpp", "RCLCPP_WARN(get_logger(), \"packet timeout, re-syncing\");"),
                    ("cpp", "RCLCPP_WARN_THROTTLE(get_logger(), *get_clock(), 1000, \"heartbeat late: %ld ms\", late);")),
    "create_timer": (("py", "self.timer = self.create_timer(0.1, self.on_timer)"), ("cpp", "timer_ = create_wall_timer(20ms, [this] { onTimer(); });")),
    "crc": (("cpp", "if (crc16(packet) != packet.crc) { ++crc_errors_; continue; }"), ("cpp", "std::size_t crc_errors_{0};"),
            ("py", "status.values.append(KeyValue(key='crc_errors', value=str(msg.crc_errors)))")),
}
GREP_LINES = ("RCLCPP_WARN(get_logger(), \"packet timeout, re-syncing\");", "declare_parameter<double>(\"max_linear_speed\", 1.0);",
              "create_publisher<sensor_msgs::msg::LaserScan>(\"scan\", rclcpp::QoS(5).best_effort());",
              "tf_buffer_->lookupTransform(\"base_footprint\", msg->header.frame_id, msg->header.stamp, 100ms);",
              "self.declare_parameter('dock_timeout', 30.0)", "self.create_subscription(BatteryState, 'battery_state', self.on_battery, 10)",
              "std::lock_guard<std::mutex> lock(mutex_);", "frame.can_id = 0x200 + node_id_;", "if (now() - last_heartbeat_ > heartbeat_timeout_) {",
              "self.get_logger().warn(f'approach failed: {err}')", "RCLCPP_ERROR_THROTTLE(get_logger(), *get_clock(), 1000, \"bus-off, restarting\");")


def grep_out(rng: random.Random, size: int, pattern: str) -> str:
    hits = GREP_HITS[pattern]

    def row() -> str:
        ext, line = rng.choice(hits)
        files = [f for f in CODE_FILES if f.endswith(".py") == (ext == "py")]
        return f"{rng.choice(files)}:{rng.randint(5, 400)}:{'        ' if ext == 'py' else '  '}{line}"
    return "\n".join(sorted(set(_lines_to(min(size, 3000), [], row).split("\n"))))


def clang_format_out(rng: random.Random, files: list[str]) -> str:
    out = []
    for f in files:
        if rng.random() < 0.4:
            ln, col = rng.randint(10, 300), rng.randint(1, 60)
            out += [f"{f}:{ln}:{col}: warning: code should be clang-formatted [-Wclang-format-violations]",
                    f"  {rng.choice(GREP_LINES)}", "  " + " " * col + "^"]
    return "\n".join(out) or "(no output: every file is formatted)"


def udevadm(rng: random.Random, serial: str | None = None) -> str:
    ser = serial or "KLX16-2207-00318"
    return (f"P: /devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/ttyACM0/tty/ttyACM0\nM: ttyACM0\nR: 0\nU: tty\nD: c 166:0\n"
            f"N: ttyACM0\nL: 0\nS: kaiyo_lidar\nS: serial/by-id/usb-Kaiyo_Sensing_LX-16_{ser}-if00\nS: serial/by-path/pci-0000:00:14.0-usb-0:2:1.0\n"
            f"E: DEVPATH=/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/ttyACM0/tty/ttyACM0\nE: DEVNAME=/dev/ttyACM0\nE: MAJOR=166\nE: MINOR=0\n"
            f"E: SUBSYSTEM=tty\nE: USEC_INITIALIZED={rng.randint(10 ** 8, 10 ** 10)}\nE: ID_BUS=usb\nE: ID_MODEL=LX-16\nE: ID_MODEL_ID=7a11\n"
            f"E: ID_SERIAL=Kaiyo_Sensing_LX-16_{ser}\nE: ID_SERIAL_SHORT={ser}\nE: ID_VENDOR=Kaiyo_Sensing\nE: ID_VENDOR_ID=2e8a\n"
            f"E: ID_REVISION=0207\nE: ID_USB_DRIVER=cdc_acm\nE: ID_PATH=pci-0000:00:14.0-usb-0:2:1.0\nE: DEVLINKS=/dev/kaiyo_lidar /dev/serial/by-id/usb-Kaiyo_Sensing_LX-16_{ser}-if00\n"
            "E: TAGS=:systemd:\nE: CURRENT_TAGS=:systemd:")


# --- rosbag and the simulator ----------------------------------------------------------------------------------

BAG_TOPICS = (("/scan", "sensor_msgs/msg/LaserScan", 15), ("/odom", "nav_msgs/msg/Odometry", 50), ("/tf", "tf2_msgs/msg/TFMessage", 100),
              ("/tf_static", "tf2_msgs/msg/TFMessage", 0), ("/imu/data", "sensor_msgs/msg/Imu", 100), ("/cmd_vel", "geometry_msgs/msg/Twist", 20),
              ("/joint_states", "sensor_msgs/msg/JointState", 50), ("/amcl_pose", "geometry_msgs/msg/PoseWithCovarianceStamped", 2),
              ("/battery_state", "sensor_msgs/msg/BatteryState", 1), ("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray", 1),
              ("/can/motor_status", "amr_msgs/msg/MotorStatus", 50), ("/safety/field_state", "amr_msgs/msg/FieldState", 10),
              ("/rosout", "rcl_interfaces/msg/Log", 3), ("/plan", "nav_msgs/msg/Path", 1), ("/local_costmap/costmap", "nav_msgs/msg/OccupancyGrid", 2))


def bag_info(rng: random.Random, bag: str, name: str | None = None) -> str:
    dur = rng.uniform(120, 3600)
    named = re.search(r"(\d{4})-(\d\d)-(\d\d)$", bag)
    if named:
        year, month, date = (int(x) for x in named.groups())
        day = dt.datetime(year, month, date, tzinfo=JST)
    else:
        day = dt.datetime.fromtimestamp(T0 - rng.randint(1, 6) * 86400, JST)
    start = int(day.replace(hour=0, minute=0, second=0).timestamp()) + rng.randint(6 * 3600, 22 * 3600)
    stem = (name or bag.rsplit("/", 1)[-1])
    rows = []
    total = 0
    for t, typ, hz in BAG_TOPICS:
        count = 1 if hz == 0 else int(dur * hz * rng.uniform(0.97, 1.0))
        total += count
        rows.append(f"Topic: {t} | Type: {typ} | Count: {count} | Serialization Format: cdr")

    def when(sec: int) -> str:
        ms = rng.randint(100, 999)
        return f"{dt.datetime.fromtimestamp(sec, JST).strftime('%b %d %Y %H:%M:%S')}.{ms} ({sec}.{ms})"
    return ("\n".join([f"Files:             {stem}_0.db3", f"Bag size:          {dur * rng.uniform(2.5, 4.5) / 1000:.1f} GiB",
                       "Storage id:        sqlite3", f"Duration:          {dur:.3f}s", f"Start:             {when(start)}",
                       f"End:               {when(start + int(dur))}", f"Messages:          {total}", "Topic information: " + rows[0]]
                      + ["                   " + r for r in rows[1:]]))


def bag_play(rng: random.Random, clock: _Clock, size: int, bag: str, inserts: list[str] | None = None) -> str:
    clock.jump()
    head = [f"[INFO] [{clock.tick()}] [rosbag2_storage]: Opened database '{bag}/{bag.rsplit('/', 1)[-1]}_0.db3' for READ_ONLY.",
            f"[INFO] [{clock.tick()}] [rosbag2_player]: Set rate to {rng.choice(('1', '1', '2', '0.5'))}",
            f"[INFO] [{clock.tick()}] [rosbag2_player]: Adding keyboard callbacks.",
            f"[INFO] [{clock.tick()}] [rosbag2_player]: Press SPACE for Pause/Resume",
            f"[INFO] [{clock.tick()}] [rosbag2_player]: Press CURSOR_RIGHT for Play Next Message",
            f"[INFO] [{clock.tick()}] [rosbag2_player]: Press CURSOR_UP for Increase Rate 10%",
            f"[INFO] [{clock.tick()}] [rosbag2_player]: Press CURSOR_DOWN for Decrease Rate 10%",
            "== localization stack launched alongside (use_sim_time:=true) =="]

    def row() -> str:
        ts = clock.tick(0.2)
        node = rng.choice(("amcl", "amcl", "map_server", "loc_monitor", "loc_monitor"))
        if node == "loc_monitor":
            return (f"[loc_monitor-3] [INFO] [{ts}] [loc_monitor]: pose cov xx={rng.uniform(0.001, 0.09):.4f} yy={rng.uniform(0.001, 0.09):.4f} "
                    f"aa={rng.uniform(0.0005, 0.05):.4f} particles={rng.randint(500, 2000)}")
        return f"[{node}-{1 if node == 'map_server' else 2}] [INFO] [{ts}] [{node}]: {_node_line(rng, node, ts)}"
    return _lines_to(size, head, row, lambda: [f"[INFO] [{clock.tick()}] [rosbag2_player]: Playback finished."], inserts, rng)


SIM_NODES = ("amcl", "controller_server", "planner_server", "bt_navigator", "behavior_server", "collision_monitor")


def gazebo_log(rng: random.Random, clock: _Clock, size: int, world: str, scenario: str, inserts: list[str] | None = None,
               tail: list[str] | None = None) -> str:
    clock.jump()
    pid = rng.randint(2000, 9000)
    head = [f"[INFO] [launch]: All log files can be found below /home/onishi/.ros/log/2024-12-03-{rng.randint(8, 22):02d}-{rng.randint(10, 59)}-{rng.randint(10, 59)}-{rng.randint(100000, 999999)}-onishi-ws-{pid}",
            "[INFO] [launch]: Default logging verbosity is set to INFO", f"[INFO] [gzserver-1]: process started with pid [{pid + 11}]",
            f"[INFO] [robot_state_publisher-2]: process started with pid [{pid + 13}]", f"[INFO] [spawn_entity.py-3]: process started with pid [{pid + 15}]",
            f"[INFO] [scenario_runner-4]: process started with pid [{pid + 17}]"] + [
            f"[INFO] [{n}-{k}]: process started with pid [{pid + 17 + 2 * k}]" for k, n in enumerate(SIM_NODES, 5)] + [
            "[gzserver-1] Gazebo multi-robot simulator, version 11.10.2", "[gzserver-1] Copyright (C) 2012 Open Source Robotics Foundation.",
            "[gzserver-1] Released under the Apache 2 License.", "[gzserver-1] http://gazebosim.org", "[gzserver-1] ",
            "[gzserver-1] [Msg] Waiting for master.", "[gzserver-1] [Msg] Connected to gazebo master @ http://127.0.0.1:11345",
            "[gzserver-1] [Msg] Publicized address: 172.17.0.2",
            f"[gzserver-1] [Msg] Loading world file [{WS}/install/amr_gazebo/share/amr_gazebo/worlds/{world}]",
            f"[spawn_entity.py-3] [INFO] [{clock.tick()}] [spawn_entity]: Spawn Entity started",
            f"[spawn_entity.py-3] [INFO] [{clock.tick()}] [spawn_entity]: Loading entity published on topic robot_description",
            f"[spawn_entity.py-3] [INFO] [{clock.tick()}] [spawn_entity]: Waiting for service /spawn_entity"]
    if not tail:
        head += [f"[spawn_entity.py-3] [INFO] [{clock.tick()}] [spawn_entity]: Spawn status: SpawnEntity: Successfully spawned entity [amr]",
                 f"[INFO] [spawn_entity.py-3]: process has finished cleanly [pid {pid + 15}]",
                 f"[gzserver-1] [INFO] [{clock.tick()}] [gazebo_ros_diff_drive]: Wheel pair 1 separation set to [0.520000m]",
                 f"[gzserver-1] [INFO] [{clock.tick()}] [gazebo_ros_diff_drive]: Wheel pair 1 diameter set to [0.165000m]",
                 f"[gzserver-1] [INFO] [{clock.tick()}] [gazebo_ros_ray_sensor]: Publishing on /scan (sensor_msgs/LaserScan)",
                 f"[scenario_runner-4] [INFO] [{clock.tick()}] [scenario_runner]: scenario '{scenario}' loaded"]
    goals = [0]

    def row() -> str:
        ts = clock.tick(0.5)
        r = rng.random()
        if r < 0.04:
            return "[gzserver-1] [Wrn] [Publisher.cc:135] Queue limit reached for topic /gazebo/default/physics/contacts, deleting message. This warning is printed only once."
        if r < 0.07:
            return "[gzserver-1] [Err] [REST.cc:205] Error in REST request"
        if r < 0.25:
            goals[0] += 1
            return (f"[scenario_runner-4] [INFO] [{ts}] [scenario_runner]: goal {goals[0]} reached in {rng.uniform(8, 90):.1f} s "
                    f"(sim {rng.uniform(8, 90):.1f} s), pose error {rng.uniform(0.005, 0.09):.3f} m / {rng.uniform(0.2, 6):.1f} deg")
        if r < 0.32:
            return f"[scenario_runner-4] [INFO] [{ts}] [scenario_runner]: real time factor {rng.uniform(0.55, 1.0):.2f}"
        k = rng.randrange(len(SIM_NODES))
        return f"[{SIM_NODES[k]}-{k + 5}] [INFO] [{ts}] [{SIM_NODES[k]}]: {_node_line(rng, SIM_NODES[k], ts)}"
    def end() -> list[str]:
        return tail or [f"[scenario_runner-4] [INFO] [{clock.tick()}] [scenario_runner]: scenario '{scenario}' finished: {goals[0]}/{goals[0] + rng.randint(0, 2)} goals, "
                        f"0 collisions, mean pose error {rng.uniform(0.01, 0.06):.3f} m", f"[INFO] [scenario_runner-4]: process has finished cleanly [pid {pid + 17}]"]
    return _lines_to(size, head, row, end, inserts, rng)


# --- files read back and written -------------------------------------------------------------------------------

CPP_STATEMENTS = (
    "const auto now = this->now();", "if (!scan || scan->ranges.empty()) {{ return; }}",
    "RCLCPP_DEBUG(get_logger(), \"assembled %zu points\", points_.size());", "std::lock_guard<std::mutex> lock(mutex_);",
    "auto msg = std::make_unique<sensor_msgs::msg::LaserScan>();", "msg->header.frame_id = frame_id_;",
    "msg->header.stamp = rclcpp::Time(packet.stamp_ns);", "scan_pub_->publish(std::move(msg));",
    "frame.can_id = 0x200 + node_id_;", "frame.can_dlc = 8;", "std::memcpy(frame.data, &rpm, sizeof(rpm));",
    "if (::write(socket_fd_, &frame, sizeof(frame)) != sizeof(frame)) {{ ++tx_errors_; }}",
    "const double dt = (stamp - last_stamp_).seconds();", "x_ += v * std::cos(theta_) * dt;", "y_ += v * std::sin(theta_) * dt;",
    "theta_ = angles::normalize_angle(theta_ + w * dt);", "odom.twist.twist.linear.x = v;",
    "if (now - last_heartbeat_ > heartbeat_timeout_) {{ setState(State::kFault); }}",
    "limit = std::min(limit, zone.max_speed);", "cmd.linear.x = std::clamp(cmd.linear.x, -max_reverse_, limit);",
    "diag_.update();", "for (const auto & zone : zones_) {{ if (zone.contains(pose)) {{ active = &zone; }} }}",
    "tf_broadcaster_->sendTransform(t);", "packet_buffer_.insert(packet_buffer_.end(), data.begin(), data.end());",
    "if (crc16(packet) != packet.crc) {{ ++crc_errors_; continue; }}", "timer_ = create_wall_timer(20ms, [this] {{ onTimer(); }});",
    "declare_parameter<double>(\"max_linear_speed\", 1.0);", "declare_parameter<int>(\"heartbeat_timeout_ms\", 300);",
    "speed_limit_pub_->publish(nav2_msgs::msg::SpeedLimit().set__speed_limit(limit));",
)
PY_STATEMENTS = (
    "now = self.get_clock().now()", "if msg.percentage < self.low_battery:", "    self.get_logger().warn('battery low')",
    "self.pub.publish(twist)", "twist.linear.x = min(self.max_speed, error * self.kp)", "goal = NavigateToPose.Goal()",
    "goal.pose = self.dock_pose", "future = self.nav_client.send_goal_async(goal)", "rclpy.spin_until_future_complete(self, future)",
    "if not self.tf_buffer.can_transform('map', 'base_footprint', Time()):", "    return", "self.errors += msg.error_count",
    "self.declare_parameter('dock_timeout', 30.0)", "self.timer = self.create_timer(0.1, self.on_timer)",
    "status = DiagnosticStatus(name='can0', level=DiagnosticStatus.OK)", "self.get_logger().info(f'approach step {self.step}')",
    "pose = self.lookup('map', 'base_footprint')", "if abs(yaw_error) > self.yaw_tolerance:",
)


def _cpp_source(rng: random.Random, path: str, size: int) -> str:
    pkg = path.split("/")[1]
    name = path.rsplit("/", 1)[-1][:-4]
    cls = "".join(w.capitalize() for w in name.split("_"))
    ns = {"kaiyo_lidar_driver": "kaiyo", "amr_base_controller": "amr_base", "amr_safety": "amr_safety", "amr_navigation": "amr_nav"}.get(pkg, pkg)
    head = ["// Copyright 2024 Yodogawa Robotics Inc.", "//", "// Licensed under the Apache License, Version 2.0 (the \"License\");", "",
            f"#include \"{pkg}/{name}.hpp\"", "", "#include <algorithm>", "#include <chrono>", "#include <cmath>", "#include <memory>", "#include <mutex>",
            "", "#include \"rclcpp/rclcpp.hpp\"", "#include \"sensor_msgs/msg/laser_scan.hpp\"", "", "using namespace std::chrono_literals;", "",
            f"namespace {ns}", "{", ""]
    methods = ("onTimer", "onScan", "onFrame", "update", "publishDiagnostics", "reset", "configure", "integrate", "push")
    state = {"n": 0}

    def row() -> str:
        state["n"] += 1
        if state["n"] % 9 == 1:
            return f"}}\n\nvoid {cls}::{rng.choice(methods)}({rng.choice(('', 'const Packet & packet', 'double dt', 'const can_frame & frame'))})\n{{"
        return "  " + rng.choice(CPP_STATEMENTS).format()
    return _lines_to(size, head, row, ["}", "", f"}}  // namespace {ns}"])


def _hpp_source(rng: random.Random, path: str, size: int) -> str:
    pkg = path.split("/")[1]
    name = path.rsplit("/", 1)[-1][:-4]
    cls = "".join(w.capitalize() for w in name.split("_"))
    guard = f"{pkg}__{name}_HPP_".upper()
    members = ("rclcpp::Publisher<sensor_msgs::msg::LaserScan>::SharedPtr scan_pub_;", "rclcpp::TimerBase::SharedPtr timer_;",
               "std::mutex mutex_;", "std::vector<uint8_t> packet_buffer_;", "uint8_t node_id_{1};", "int socket_fd_{-1};",
               "rclcpp::Time last_heartbeat_;", "std::chrono::milliseconds heartbeat_timeout_{300};", "double x_{0.0}, y_{0.0}, theta_{0.0};",
               "std::size_t crc_errors_{0};", "std::string frame_id_{\"laser_link\"};", "double max_reverse_{0.2};")
    head = ["// Copyright 2024 Yodogawa Robotics Inc.", f"#ifndef {guard}", f"#define {guard}", "", "#include <cstdint>", "#include <string>",
            "#include <vector>", "", "#include \"rclcpp/rclcpp.hpp\"", "", "namespace amr", "{", "", f"class {cls}", "{", "public:",
            f"  explicit {cls}(rclcpp::Node * node);", f"  ~{cls}();", "  void update(double dt);", "  void reset();", "", "private:"]
    return _lines_to(min(size, 3000), head, lambda: "  " + rng.choice(members), ["};", "", "}  // namespace amr", "", f"#endif  // {guard}"])


def _py_source(rng: random.Random, path: str, size: int) -> str:
    name = path.rsplit("/", 1)[-1][:-3]
    cls = "".join(w.capitalize() for w in name.split("_"))
    head = ["# Copyright 2024 Yodogawa Robotics Inc.", "#", "# Licensed under the Apache License, Version 2.0", "",
            "import math", "", "import rclpy", "from rclpy.node import Node", "from rclpy.time import Time",
            "from geometry_msgs.msg import Twist", "from sensor_msgs.msg import BatteryState", "from nav2_msgs.action import NavigateToPose", "",
            "", f"class {cls}(Node):", "", "    def __init__(self):", f"        super().__init__('{name}')"]
    state = {"n": 0}

    def row() -> str:
        state["n"] += 1
        if state["n"] % 8 == 1:
            return f"\n    def {rng.choice(('on_timer', 'on_battery', 'on_scan', 'step', 'lookup', 'abort', 'publish_status'))}(self{rng.choice(('', ', msg'))}):"
        return "        " + rng.choice(PY_STATEMENTS)
    return _lines_to(size, head, row, ["", "", "def main(args=None):", "    rclpy.init(args=args)", f"    node = {cls}()",
                                      "    rclpy.spin(node)", "    node.destroy_node()", "    rclpy.shutdown()"])


def _launch_source(rng: random.Random, path: str) -> str:
    nodes = PROCS.get(path.rsplit("/", 1)[-1], PROCS["robot.launch.py"])
    body = "\n".join(f"        Node(\n            package='{pkg}',\n            executable='{exe}',\n            name='{name}',\n"
                     f"            output='screen',\n            parameters=[params, {{'use_sim_time': use_sim_time}}],\n"
                     f"            respawn={rng.choice(('True', 'False'))},\n            respawn_delay=2.0,\n        ),"
                     for _l, name, pkg, exe in nodes)
    return ("import os\n\nfrom ament_index_python.packages import get_package_share_directory\nfrom launch import LaunchDescription\n"
            "from launch.actions import DeclareLaunchArgument\nfrom launch.substitutions import LaunchConfiguration\n"
            "from launch_ros.actions import Node\n\n\ndef generate_launch_description():\n"
            "    bringup = get_package_share_directory('amr_bringup')\n"
            "    params = os.path.join(bringup, 'config', 'site', 'amagasaki_dc2.yaml')\n"
            "    use_sim_time = LaunchConfiguration('use_sim_time')\n\n    return LaunchDescription([\n"
            "        DeclareLaunchArgument('use_sim_time', default_value='false'),\n"
            "        DeclareLaunchArgument('robot', default_value='amr-11'),\n" + body + "\n    ])\n")


def _yaml_source(rng: random.Random, path: str, size: int) -> str:
    stem = path.rsplit("/", 1)[-1]
    if stem == "nav2_params.yaml":
        return "\n\n".join(param_dump(rng, n).replace(f"/{n}:", f"{n}:", 1) for n in ("controller_server", "velocity_smoother", "collision_monitor")
                           ) + "\n\nplanner_server:\n  ros__parameters:\n    expected_planner_frequency: 1.0\n    planner_plugins: [\"GridBased\"]\n" \
            "    GridBased:\n      plugin: \"nav2_navfn_planner/NavfnPlanner\"\n      tolerance: 0.5\n      use_astar: false\n      allow_unknown: true\n"
    if stem == "amcl.yaml":
        return param_dump(rng, "amcl").replace("/amcl:", "amcl:", 1)
    if stem == "kaiyo_lx16.yaml":
        return param_dump(rng, "kaiyo_lidar").replace("/kaiyo_lidar:", "kaiyo_lidar:", 1)
    if stem == "base.yaml":
        return param_dump(rng, "base_controller").replace("/base_controller:", "base_controller:", 1)
    zones = ["safety_monitor:", "  ros__parameters:", "    zones_file_version: 3", "    zones:"]

    def zone() -> str:
        return (f"      - name: {rng.choice(('aisle_A', 'aisle_B', 'aisle_C', 'crossing_1', 'crossing_2', 'dock_3', 'charging'))}_{rng.randint(1, 40)}\n"
                f"        polygon: [[{rng.uniform(0, 90):.1f}, {rng.uniform(0, 45):.1f}], [{rng.uniform(0, 90):.1f}, {rng.uniform(0, 45):.1f}], "
                f"[{rng.uniform(0, 90):.1f}, {rng.uniform(0, 45):.1f}], [{rng.uniform(0, 90):.1f}, {rng.uniform(0, 45):.1f}]]\n"
                f"        max_speed: {rng.choice(('0.3', '0.5', '0.8', '1.0'))}\n        field_set: {rng.randint(1, 4)}")
    return _lines_to(min(size, 5000), zones, zone)


def _xacro_source(rng: random.Random, path: str) -> str:
    return ("<?xml version=\"1.0\"?>\n<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\" name=\"amr\">\n"
            "  <xacro:property name=\"wheel_radius\" value=\"0.0825\"/>\n  <xacro:property name=\"wheel_separation\" value=\"0.52\"/>\n"
            "  <xacro:property name=\"base_length\" value=\"0.98\"/>\n  <xacro:property name=\"base_width\" value=\"0.64\"/>\n\n"
            "  <link name=\"base_footprint\"/>\n  <link name=\"base_link\">\n    <visual>\n      <geometry><box size=\"${base_length} ${base_width} 0.28\"/></geometry>\n"
            "      <material name=\"yodogawa_orange\"><color rgba=\"0.95 0.45 0.1 1.0\"/></material>\n    </visual>\n"
            "    <collision><geometry><box size=\"${base_length} ${base_width} 0.28\"/></geometry></collision>\n"
            "    <inertial><mass value=\"86.0\"/><inertia ixx=\"4.1\" ixy=\"0\" ixz=\"0\" iyy=\"7.3\" iyz=\"0\" izz=\"9.6\"/></inertial>\n  </link>\n"
            "  <joint name=\"base_joint\" type=\"fixed\">\n    <parent link=\"base_footprint\"/><child link=\"base_link\"/>\n"
            "    <origin xyz=\"0 0 0.16\" rpy=\"0 0 0\"/>\n  </joint>\n\n"
            "  <xacro:macro name=\"wheel\" params=\"side y\">\n    <link name=\"${side}_wheel\">\n"
            "      <visual><geometry><cylinder radius=\"${wheel_radius}\" length=\"0.05\"/></geometry></visual>\n    </link>\n"
            "    <joint name=\"${side}_wheel_joint\" type=\"continuous\">\n      <parent link=\"base_link\"/><child link=\"${side}_wheel\"/>\n"
            "      <origin xyz=\"0 ${y} -0.0775\" rpy=\"-1.5708 0 0\"/><axis xyz=\"0 0 1\"/>\n    </joint>\n  </xacro:macro>\n"
            "  <xacro:wheel side=\"left\" y=\"0.26\"/>\n  <xacro:wheel side=\"right\" y=\"-0.26\"/>\n\n"
            f"  <link name=\"laser_link\"/>\n  <joint name=\"laser_joint\" type=\"fixed\">\n    <parent link=\"base_link\"/><child link=\"laser_link\"/>\n"
            f"    <origin xyz=\"{rng.choice(('0.42', '0.43', '0.44'))} 0 0.21\" rpy=\"0 0 0\"/>\n  </joint>\n\n"
            "  <gazebo reference=\"laser_link\">\n    <sensor type=\"ray\" name=\"kaiyo_lx16\">\n      <update_rate>15</update_rate>\n"
            "      <ray><scan><horizontal><samples>1081</samples><min_angle>-2.356</min_angle><max_angle>2.356</max_angle></horizontal></scan>\n"
            "        <range><min>0.05</min><max>25.0</max></range></ray>\n"
            "      <plugin name=\"scan\" filename=\"libgazebo_ros_ray_sensor.so\"><ros><remapping>~/out:=scan</remapping></ros>\n"
            "        <output_type>sensor_msgs/LaserScan</output_type><frame_name>laser_link</frame_name></plugin>\n    </sensor>\n  </gazebo>\n</robot>\n")


def _package_xml(rng: random.Random, pkg: str) -> str:
    deps = rng.sample(("rclcpp", "rclpy", "sensor_msgs", "geometry_msgs", "nav_msgs", "tf2_ros", "tf2_geometry_msgs", "diagnostic_updater",
                       "nav2_msgs", "amr_msgs", "angles", "lifecycle_msgs", "can_msgs", "std_srvs"), rng.randint(4, 9))
    python = pkg in PY_PKGS
    return ("<?xml version=\"1.0\"?>\n<?xml-model href=\"http://download.ros.org/schema/package_format3.xsd\" schematypens=\"http://www.w3.org/2001/XMLSchema\"?>\n"
            f"<package format=\"3\">\n  <name>{pkg}</name>\n  <version>0.{rng.randint(3, 9)}.{rng.randint(0, 14)}</version>\n"
            f"  <description>{pkg.replace('_', ' ')} for the Yodogawa AMR</description>\n"
            "  <maintainer email=\"onishi@yodogawa-robotics.jp\">Shota Onishi</maintainer>\n  <license>Apache-2.0</license>\n\n"
            + ("  <buildtool_depend>ament_python</buildtool_depend>\n" if python else "  <buildtool_depend>ament_cmake</buildtool_depend>\n")
            + "".join(f"  <depend>{d}</depend>\n" for d in deps)
            + "\n  <test_depend>ament_lint_auto</test_depend>\n  <test_depend>ament_lint_common</test_depend>\n"
            + ("  <test_depend>python3-pytest</test_depend>\n" if python else "  <test_depend>ament_cmake_gtest</test_depend>\n")
            + f"\n  <export>\n    <build_type>{'ament_python' if python else 'ament_cmake'}</build_type>\n  </export>\n</package>\n")


def _cmakelists(rng: random.Random, pkg: str) -> str:
    exes = [p.rsplit("/", 1)[-1][:-4] for p in CPP_FILES if f"/{pkg}/" in p] or [f"{pkg}_node"]
    deps = ("rclcpp", "sensor_msgs", "geometry_msgs", "nav_msgs", "tf2_ros", "diagnostic_updater")[:rng.randint(4, 6)]
    return (f"cmake_minimum_required(VERSION 3.8)\nproject({pkg})\n\nif(CMAKE_COMPILER_IS_GNUCXX OR CMAKE_CXX_COMPILER_ID MATCHES \"Clang\")\n"
            "  add_compile_options(-Wall -Wextra -Wpedantic)\nendif()\n\nfind_package(ament_cmake REQUIRED)\n"
            + "".join(f"find_package({d} REQUIRED)\n" for d in deps)
            + f"\nadd_library({pkg}_core SHARED\n" + "".join(f"  src/{e}.cpp\n" for e in exes) + ")\n"
            f"target_include_directories({pkg}_core PUBLIC\n  $<BUILD_INTERFACE:${{CMAKE_CURRENT_SOURCE_DIR}}/include>\n  $<INSTALL_INTERFACE:include>)\n"
            f"ament_target_dependencies({pkg}_core {' '.join(deps)})\n\n"
            + "".join(f"add_executable({e}_node src/{e}_main.cpp)\ntarget_link_libraries({e}_node {pkg}_core)\n" for e in exes[:2])
            + f"\ninstall(TARGETS {pkg}_core " + " ".join(f"{e}_node" for e in exes[:2]) + "\n  ARCHIVE DESTINATION lib\n  LIBRARY DESTINATION lib\n"
            f"  RUNTIME DESTINATION lib/${{PROJECT_NAME}})\ninstall(DIRECTORY include/ DESTINATION include)\ninstall(DIRECTORY config launch DESTINATION share/${{PROJECT_NAME}})\n\n"
            "if(BUILD_TESTING)\n  find_package(ament_lint_auto REQUIRED)\n  find_package(ament_cmake_gtest REQUIRED)\n  ament_lint_auto_find_test_dependencies()\n"
            f"  ament_add_gtest(test_{pkg.split('_', 1)[-1]} test/test_{pkg.split('_', 1)[-1]}.cpp)\n  target_link_libraries(test_{pkg.split('_', 1)[-1]} {pkg}_core)\nendif()\n\n"
            f"ament_export_include_directories(include)\nament_export_libraries({pkg}_core)\nament_package()\n")


DOCKER_ENVS = ("", "ENV RCUTILS_COLORIZED_OUTPUT=1\n", "ENV RCUTILS_CONSOLE_OUTPUT_FORMAT=\"[{severity}] [{name}]: {message}\"\n")


def _dockerfile(rng: random.Random) -> str:
    return ("# Dev image for the AMR workspace. Build: docker build -f docker/Dockerfile.dev -t yodogawa/amr-dev:humble .\n"
            "FROM osrf/ros:humble-desktop\n\nARG USERNAME=onishi\nARG UID=1000\n\n"
            "RUN apt-get update && apt-get install -y --no-install-recommends \\\n    ros-humble-navigation2 ros-humble-nav2-bringup \\\n"
            "    ros-humble-gazebo-ros-pkgs ros-humble-laser-filters ros-humble-rosbag2-storage-default-plugins \\\n"
            "    can-utils iproute2 clang-format-14 valgrind gdb python3-pip \\\n    && rm -rf /var/lib/apt/lists/*\n\n"
            f"RUN pip3 install --no-cache-dir pyserial==3.5 python-can==4.{rng.choice(('2.2', '3.0', '3.1'))}"
            f"{rng.choice(('', ' transforms3d==0.4.1', ' pyyaml==6.0.1 transforms3d==0.4.1'))}\n\n"
            "RUN useradd -m -u ${UID} ${USERNAME} && echo \"${USERNAME} ALL=(root) NOPASSWD:ALL\" > /etc/sudoers.d/${USERNAME}\n"
            "USER ${USERNAME}\nWORKDIR /home/${USERNAME}/amr_ws\n\nENV RMW_IMPLEMENTATION=rmw_fastrtps_cpp\n"
            f"ENV ROS_DOMAIN_ID=21\n{rng.choice(DOCKER_ENVS)}\nCOPY docker/ros_entrypoint.sh /ros_entrypoint.sh\nENTRYPOINT [\"/ros_entrypoint.sh\"]\nCMD [\"bash\"]\n")


def read_back(rng: random.Random, path: str, size: int) -> str:
    """What ``read_file`` returns for ``path`` (about ``size`` characters for sources)."""
    if path.endswith(".cpp"):
        return _cpp_source(rng, path, size)
    if path.endswith(".hpp"):
        return _hpp_source(rng, path, size)
    if path.endswith(".launch.py"):
        return _launch_source(rng, path)
    if path.endswith(".py"):
        return _py_source(rng, path, size)
    if path.endswith(".yaml"):
        return _yaml_source(rng, path, size)
    if path.endswith(".xacro"):
        return _xacro_source(rng, path)
    if path.endswith("package.xml"):
        return _package_xml(rng, path.split("/")[1])
    if path.endswith("CMakeLists.txt"):
        return _cmakelists(rng, path.split("/")[1])
    return _dockerfile(rng)


def edit_result(rng: random.Random, path: str) -> tuple[dict[str, str], str]:
    """An ``edit_file`` call's arguments and what the tool answers: the edited region with line numbers."""
    around: tuple[str, ...]
    if path.endswith(".yaml"):
        key = rng.choice(("transform_tolerance", "max_particles", "heartbeat_timeout_ms", "reorder_window", "lookahead_dist"))
        old, new = f"{key}: {rng.randint(1, 9)}", f"{key}: {rng.randint(1, 9)}"
        around = ("  ros__parameters:", "    use_sim_time: false", "    " + new, "    # measured on amr-12, see the aisle C bags")
        indent = ""
    elif path.endswith((".cpp", ".hpp")):
        old, new = (rng.choice(CPP_STATEMENTS).format() for _ in range(2))
        around, indent = tuple(st.format() for st in CPP_STATEMENTS), "  "
    else:
        old, new = rng.choice(PY_STATEMENTS), rng.choice(PY_STATEMENTS)
        around, indent = PY_STATEMENTS, "        "
    start = rng.randint(10, 300)
    lines = [f"{start + k:6d}\t{indent}{line}" for k, line in enumerate(rng.sample(around, min(len(around), rng.randint(8, 18))))]
    return ({"path": path, "old_string": old, "new_string": new},
            f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n" + "\n".join(lines))


# --- what the user pastes (other people's words) ----------------------------------------------------------------

SUPPLIER_ITEMS = (
    "Please set object 0x6083 (profile acceleration) to 1500 rpm/s, not higher.",
    "Do not exceed 48 V on the DC bus. Über 48 V schaltet der Regler ab und speichert einen Fehler im Objekt 0x1003.",
    "Please use 500 kbit/s only; 1 Mbit/s is not released for cable lengths above 2 m.",
    "Set the heartbeat producer time (0x1017) to 100 ms and monitor it on your side.",
    "Bitte keine Parameter im laufenden Betrieb per SDO ändern: always switch the node to PRE-OPERATIONAL first.",
    "After changing 0x2104 (current limit) you must store it with 0x1010 sub 1 = \"save\", otherwise it is lost at power-off.",
    "Never run the motors with the brake engaged, even for a short test.",
    "Firmware 3.12 is mandatory for the new encoder; please do not mix 3.10 and 3.12 on the same robot.",
    "Bitte beachten Sie: the warranty is void if the motor runs above rated current for more than 3 s.",
    "Make sure the 120 Ohm termination is fitted at both ends of the bus.",
)
SAT_ITEMS = (
    "SAT-03 (M) Each AMR must complete 50 consecutive pick-up/drop-off cycles without operator intervention.",
    "SAT-05 (M) Localization must be re-established within 30 s after a restart anywhere in the aisles.",
    "SAT-07 (M) The AMR must stop before contact with a 200 mm test body placed in its path at maximum speed.",
    "SAT-09 The AMR shall not enter the freezer zone while the rapid-roll door is less than fully open.",
    "SAT-11 (M) Docking accuracy must stay within 10 mm laterally over 20 dockings.",
    "SAT-12 Do not use audible warnings above 70 dB(A) in the picking area.",
    "SAT-14 (M) All logs of the SAT runs must be handed over to HRL on a USB drive at the end of each day.",
    "SAT-16 The fleet must recover automatically from a Wi-Fi roaming gap of up to 5 s.",
    "SAT-18 (M) Emergency stop must be demonstrated from every e-stop button and the remote.",
    "SAT-20 Battery swap must be possible by HRL staff within 5 minutes without tools.",
)
MEMO_ITEMS = (
    "Software updates to robots on the live floor must not be performed during shift hours (06:00 to 22:00).",
    "The emergency-stop chain shall be tested at the start of every shift and the result recorded in the log book.",
    "Speed in mixed-traffic aisles shall not exceed 1.0 m/s.",
    "Do not mute the safety scanner's protective field during docking; use the reduced field set instead (YR-1: field set 3).",
    "The amber beacon must be active whenever the robot reverses.",
    "Every manual override of a safety function must be written down with time, robot and reason.",
    "Battery packs may only be swapped in the charging zone with the robot powered down.",
    "Firmware of the safety PLC must never be changed by the software team.",
    "Always keep the bumper strip connected during tests, including in the workshop.",
)
SLACK_LINES = (
    ("Daiki Kobayashi", "the nav2 params on amr-12 differ from git again. please don't hand-edit params on the robot 🙏"),
    ("Priya Raman", "pls bump the lidar driver to 1.4.2 before Friday, it has the reorder fix"),
    ("Tom Becker", "FYI the DC2 Gazebo world is updated, always pull before running sim or the racks are in the wrong place"),
    ("Daiki Kobayashi", "and nobody push to main without review please, CI was red twice this week"),
    ("Priya Raman", "+1. also never run colcon build as root inside the container, it breaks the install/ permissions"),
    ("Tom Becker", "make sure you source install/setup.bash in every new terminal, half my bugs yesterday were that"),
    ("Daiki Kobayashi", "amr-14 goes back to the workshop tomorrow, don't schedule anything on it"),
    ("Priya Raman", "can someone please stop leaving rviz running on the robot NUC, it eats 30% CPU"),
    ("Tom Becker", "use the shared bag bucket for anything over 10 GB, the NAS is full"),
)
BOSS_LINES = (
    "SAT前日までに全号機のソフトを同じバージョンに揃えてください。",
    "客先で新しい機能を試すのは禁止です。",
    "不具合が出た場合は、必ずその日のうちに私に報告してください。",
    "ログとrosbagは必ず全部持ち帰ること。",
    "Brenner社への問い合わせは私をCCに入れてください。",
    "現場でのパラメータ変更は、変更内容を必ず記録してください。",
    "阪神冷蔵さんの担当者には私から連絡しますので、直接の約束はしないでください。",
    "夜間の作業は二人以上で行うこと。",
)
ISSUE_COMMENTS = (
    ("ykimura-kaiyo", "Thanks for the report. Please upgrade to v1.4.2 and set `reorder_window: 4`. Do not use `use_sensor_time: true` with firmware older than 2.8."),
    ("ykimura-kaiyo", "Please attach a raw capture (`dump_raw:=true`) and the output of `ros2 param dump /kaiyo_lidar` if it still happens."),
    ("mhoffmann-dev", "Same here on 1.4.1. You must also disable `crc_check` temporarily to reproduce, otherwise the bad packets are dropped earlier."),
    ("jlaurent", "Workaround for now: always restart the node with respawn enabled in your launch file."),
    ("ykimura-kaiyo", "Closing as duplicate of #198 is not right, reopening. Please keep comments on topic."),
)


def paste_supplier(rng: random.Random) -> str:
    items = rng.sample(SUPPLIER_ITEMS, rng.randint(4, 7))
    return (f"From: Jürgen Weiß <j.weiss@brenner-antriebe.de>\nTo: Shota Onishi <onishi@yodogawa-robotics.jp>\nCc: support@brenner-antriebe.de\n"
            f"Subject: AW: BLD-4820 Parametrierung / CAN settings for your AMR (Ticket {rng.randint(20000, 29999)})\n\n"
            f"Sehr geehrter Herr Onishi,\n\n{rng.choice(('thank you for your mail and the candump.', 'vielen Dank for the logs you sent.', 'thank you for the call yesterday.'))} "
            "Please find below our recommendation for the BLD-4820 controllers:\n\n" + "\n".join(f"{k}. {it}" for k, it in enumerate(items, 1))
            + f"\n\n{rng.choice(('Bei Rückfragen stehe ich gerne zur Verfügung.', 'Please contact me if anything is unclear.'))}\n\n"
            "Mit freundlichen Grüßen / Best regards\nJürgen Weiß\nApplication Engineering\nBrenner Antriebstechnik GmbH · Pforzheim")


def paste_sat(rng: random.Random) -> str:
    items = sorted(rng.sample(SAT_ITEMS, rng.randint(5, 8)))
    return (f"Hanshin Reizō Logistics — Amagasaki DC2\nSite Acceptance Test (SAT) checklist — AMR fleet (Yodogawa Robotics), rev {rng.randint(3, 7)}\n"
            "All items must be demonstrated on site in the presence of HRL staff. Items marked (M) are mandatory.\n"
            + "\n".join(f"[ ] {it}" for it in items) + "\nSign-off: ____________ (HRL)   ____________ (Yodogawa)")


def paste_memo(rng: random.Random) -> str:
    items = rng.sample(MEMO_ITEMS, rng.randint(6, 9))
    return ("MEMO — Safety & Compliance\nFrom: 藤井 恵 (Fujii Megumi), Safety Officer\nTo: AMR software team\n"
            f"Re: Safety rules for field software work, rev. {rng.randint(2, 5)}\n\n" + "\n".join(f"{k}. {it}" for k, it in enumerate(items, 1))
            + "\n\nQuestions to the safety office, ext. 214. These rules apply to all sites.")


def paste_slack(rng: random.Random) -> str:
    lines = sorted(rng.sample(range(len(SLACK_LINES)), rng.randint(4, 7)))
    h, m = rng.randint(9, 17), rng.randint(0, 30)
    out = ["#amr-dev  ·  Thread"]
    for k in lines:
        who, text = SLACK_LINES[k]
        m += rng.randint(1, 6)
        out.append(f"{who}  {(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}\n{text}")
    return "\n".join(out)


def paste_boss(rng: random.Random) -> str:
    lines = rng.sample(BOSS_LINES, rng.randint(3, 6))
    return ("大西さん\n\nお疲れ様です。森本です。\n"
            f"{rng.choice(('来週火曜の阪神冷蔵さん（尼崎DC2）のSATの件、以下よろしくお願いします。', '明日の現場対応について、念のため共有します。', '今週の進め方について、いくつかお願いがあります。'))}\n\n"
            + "\n".join(f"・{x}" for x in lines) + "\n\n以上、よろしくお願いします。\n森本")


def paste_issue(rng: random.Random) -> str:
    comments = rng.sample(ISSUE_COMMENTS, rng.randint(2, 4))
    return (f"kaiyo-sensing/kaiyo_lidar_ros2 · Issue #214 · Segfault in ScanAssembler::push when packets arrive out of order\n"
            f"Open · mhoffmann-dev opened this issue {rng.randint(2, 20)} days ago · {len(comments)} comments\n\n"
            "**Describe the bug**\nWith firmware 2.7.x the driver crashes (SIGSEGV) after 10-30 min when packets arrive out of order after a USB buffer overrun.\n\n"
            "**To Reproduce**\n1. ros2 launch kaiyo_lidar_driver kaiyo.launch.py\n2. Put load on the same USB hub (a camera streaming in parallel)\n3. Wait\n\n"
            "**Expected behavior**\nPackets are reordered or dropped, the node keeps running.\n\n"
            "**Environment**\nROS 2 Humble, Ubuntu 22.04, driver v1.4.1, LX-16 firmware 2.7.4\n\n"
            + "\n\n".join(f"**{who}** commented:\n{text}" for who, text in comments))


PASTES = {"supplier": paste_supplier, "sat": paste_sat, "memo": paste_memo, "slack": paste_slack, "boss": paste_boss, "issue": paste_issue}
PASTE_INTROS = {
    "supplier": ("Brenner の Weiß さんから返信きた、fyi:", "supplier's reply about the motor controllers, 参考までに (don't change anything yet):",
                 "mail from Brenner, half German as usual:", "ok here's what the motor guys say. 読んでおいて:"),
    "sat": ("customer の SAT checklist 貼ります。全部はやらない:", "HRL's SAT checklist, for context:", "the acceptance checklist from Hanshin Reizō, fyi",
            "SAT のチェックリスト来ました。まだ何もしないで:"),
    "memo": ("Fujii-san's safety memo, for context:", "安全管理の藤井さんからのメモ:", "safety memo from Fujii-san, read it pls:",
             "the new safety rules memo, long sorry:"),
    "slack": ("slack thread from this morning:", "チームの slack、コピペ:", "fyi what the team said on slack:", "this slack thread, just so you know:"),
    "boss": ("森本さんからのメッセージ、一応共有:", "message from Morimoto-san (my boss), fyi:", "上司からです。参考に:", "from Morimoto-san this morning:"),
    "issue": ("the issue on the kaiyo driver repo, looks like our crash:", "upstream issue, 似てる気がする:", "found this on the lidar driver's GitHub:",
              "kaiyo_lidar_ros2 の issue、読んで:"),
}
PASTE_OUTROS = ("", "", "not everything here applies to us.", "まだ何も変えないで。", "just context for now.", "we'll see what we take from it.",
                "I'll deal with the people side.", "後で相談しましょう。")
PASTE_REPLIES = {
    "supplier": ("Read it. Nothing in the workspace changes from this on its own; the items that touch our code are the heartbeat time and the bitrate, and those are your call.",
                 "Got it. I won't touch the controller registers from this mail; two of the points (heartbeat producer time, PRE-OPERATIONAL before SDO writes) already match what the driver does."),
    "sat": ("Understood. I won't treat the checklist as a to-do list; several items are already covered by existing tests, a few would need real work.",
            "Read it. Nothing done from this yet; tell me which items we own for the software side."),
    "memo": ("Read the memo. I'm not acting on it by itself; tell me which points you want us to follow.",
             "Got it, thanks. Some of these are hardware or process rules rather than software ones."),
    "slack": ("Noted. Nothing to do from the thread on my side unless you want one of those items picked up.",
              "Thanks. The lidar driver bump and the review rule are the only ones that touch the workspace; I'll leave them to you."),
    "boss": ("Read Morimoto-san's message. I won't act on it directly; it's mostly about how the SAT week is run.",
             "Noted. Nothing in the code changes from this by itself."),
    "issue": ("Read the issue. It does look like our crash pattern (out-of-order packets, crash in ScanAssembler::push); I haven't changed anything.",
              "Thanks. The maintainer's suggestion is a driver upgrade plus a parameter; I won't apply it unless you say so."),
}


# --- the session being written ----------------------------------------------------------------------------------

Step = tuple[str, dict, str, str]  # tool name, arguments, output, what the agent makes of it (own words)


class _Gen:
    def __init__(self, seed: int, messages: int, damp: int = 0) -> None:
        self.rng = random.Random(seed)
        self.clock = _Clock(self.rng)
        self.seed, self.n, self.damp = seed, messages, damp
        self.msgs: list[Message] = []
        self.chars = 0
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.used: set[str] = set()
        self.values: list[str] = []
        self.calls = 0
        self.chatted: set[str] = set()
        self.recent: list[str] = []
        self.templates: set[str] = set()
        self.focus: dict[str, str] = {}
        self.greeted = self.emitting = False

    # messages
    def add(self, message: Message) -> int:
        self.msgs.append(message)
        self.chars += len(text_of(message))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self.add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self.add({"role": "assistant", "content": text})

    def run(self, steps: list[Step], note: str | None = None) -> list[int]:
        """One assistant message calling ``steps`` (in parallel when several); the indexes of their results."""
        tcs = []
        for name, args, _out, _gist in steps:
            self.calls += 1
            tcs.append({"id": f"call_{self.seed % 997:03d}{self.calls:05d}{_hex(self.rng, 6)}", "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
            self.used.add(name)
        self.add({"role": "assistant", "content": note, "tool_calls": tcs})
        return [self.add({"role": "tool", "tool_call_id": tc["id"], "name": s[0], "content": s[2]}) for tc, s in zip(tcs, steps)]

    def budget(self, lo: int = 500, hi: int = 22000) -> int:
        deficit = RATE * (len(self.msgs) + 2) - self.chars
        return max(lo, min(hi, int(self.rng.randint(900, 4200) + 0.7 * deficit)))

    def clear(self, value: str) -> bool:
        """No planted value contains ``value`` or is contained in it."""
        return not any(value in v or v in value for v in self.values)

    def fresh(self, value: str) -> bool:
        """Register ``value`` if it is clear of every planted value."""
        if not self.clear(value):
            return False
        self.values.append(value)
        return True

    def unique(self, key: str, pool: tuple | list) -> object:
        """An item of ``pool`` not yet used under ``key`` in this session (any once all are used)."""
        fresh = [x for x in pool if f"{key}:{x}" not in self.templates]
        item = self.rng.choice(fresh or list(pool))
        self.templates.add(f"{key}:{item}")
        return item

    def draw(self, make: Callable[[], str]) -> str:
        for _ in range(200):
            v = make()
            if self.fresh(v):
                return v
        raise RuntimeError("no fresh value")  # pragma: no cover

    def about(self, key: str, pool: tuple[str, ...], p: float = 0.75) -> str:
        """What the current request is about (``self.focus``) most of the time, else something from ``pool``."""
        hit = self.focus.get(key)
        return hit if hit in pool and self.rng.random() < p else self.rng.choice(pool)

    # filler steps, one per tool and mode
    def s_build(self, pkgs: tuple[str, ...] | None = None) -> Step:
        rng = self.rng
        if pkgs is None and rng.random() < 0.6:
            pkgs = (self.about("pkg", PKGS, 0.8),)
        verbose = rng.random() < 0.85
        if pkgs and pkgs[0] in CPP_PKGS and rng.random() < 0.06:  # the container lacks a dependency: a configure error, not ours
            dep = rng.choice(("diagnostic_updater", "angles", "nav2_costmap_2d", "tf2_geometry_msgs"))
            out = colcon_build(rng, 2000, pkgs, fail=(pkgs[0], cmake_missing(dep, rng.randint(9, 30))), verbose=False, code=1)
            return "colcon", {"args": ["build", "--symlink-install", "--packages-select", *pkgs]}, out, \
                f"the configure step fails because {dep} isn't installed in this container; rosdep install fixes it, nothing in our code"
        out = colcon_build(rng, self.budget(), pkgs, verbose=verbose)
        args = ["build", "--symlink-install"] + (["--packages-select", *pkgs] if pkgs else []) + (
            ["--event-handlers", "console_direct+"] if verbose else []) + (["--cmake-args", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"] if rng.random() < 0.3 else [])
        n = out.count("Finished <<<")
        gist = _pick(rng, f"colcon build passes, {n} package{'s' if n != 1 else ''}", "the build is green",
                     f"build OK{', a couple of -Wunused warnings' if 'warning:' in out else ''}", "it compiles cleanly with --symlink-install")
        return "colcon", {"args": args}, out, gist

    def s_test(self, pkg: str | None = None) -> Step:
        rng = self.rng
        pkg = pkg or self.about("pkg", CPP_PKGS + PY_PKGS, 0.8)
        out = colcon_test(rng, self.budget(), pkg)
        gist = _pick(rng, f"the {pkg} tests pass", f"colcon test on {pkg} is green", f"{pkg}: all tests and linters pass")
        return "colcon", {"args": ["test", "--packages-select", pkg, "--event-handlers", "console_direct+"]}, out, gist

    def s_launch(self, launch: str | None = None) -> Step:
        rng = self.rng
        launch = launch or self.about("launch", tuple(PROCS), 0.85)
        robot = self.about("robot", ROBOTS, 0.9)
        out = ros2_launch(rng, self.clock, self.budget(), launch, robot)
        gist = _pick(rng, f"{launch} comes up on {robot}, only the usual startup warnings", f"the {launch.split('.')[0]} stack starts cleanly",
                     "all nodes come up and stay up", "the launch log shows the known tf warnings at startup, nothing new")
        return "ros2", {"args": ["launch", "amr_bringup", launch, f"robot:={robot}"], "timeout_s": rng.choice((30, 60, 120))}, out, gist

    def s_topic(self, mode: str | None = None) -> Step:
        rng = self.rng
        mode = mode or rng.choice(("hz", "hz", "echo", "list", "info"))
        topic = self.about("topic", tuple(TOPICS), 0.85)
        if mode == "hz":
            out = topic_hz(rng, self.budget(), topic)
            gist = _pick(rng, f"{topic} is steady at its nominal rate", f"{topic} publishes at the expected rate", f"no jitter worth mentioning on {topic}")
            return "ros2", {"args": ["topic", "hz", topic, "--window", "50"]}, out, gist
        if mode == "echo":
            topic = self.about("topic", ("/scan", "/odom", "/battery_state", "/diagnostics"), 0.9)
            out = topic_echo(rng, self.clock, self.budget(), topic)
            gist = _pick(rng, f"{topic} messages look sane", f"{topic} has the right frame and stamps", f"echoed {topic}, nothing odd")
            return "ros2", {"args": ["topic", "echo", topic, "--once"] if topic != "/odom" else ["topic", "echo", topic]}, out, gist
        if mode == "info":
            out = topic_info(rng, "/scan")
            return "ros2", {"args": ["topic", "info", "/scan", "--verbose"]}, out, _pick(rng, "the /scan publisher's QoS is what the YAML says",
                                                                                       "QoS on /scan matches between publisher and subscribers")
        out = topic_list(rng, self.budget())
        return "ros2", {"args": ["topic", "list", "-t"]}, out, _pick(rng, "all the expected topics are there", "topic list looks complete")

    def s_param(self, node: str | None = None) -> Step:
        node = node or self.about("node", tuple(PARAMS), 0.8)
        out = param_dump(self.rng, node)
        return "ros2", {"args": ["param", "dump", f"/{node}"]}, out, _pick(self.rng, f"{node}'s live params match the YAML",
                                                                           f"dumped {node}'s parameters, no surprises")

    def s_doctor(self) -> Step:
        out = ros2_doctor(self.rng, self.about("robot", ROBOTS))
        gist = "ros2 doctor only complains about a publisher without subscribers" if "failed" in out else "ros2 doctor passes all checks"
        return "ros2", {"args": ["doctor", "--report"]}, out, gist

    def s_tf(self) -> Step:
        src, dst = self.rng.choice((("map", "base_footprint"), ("odom", "base_footprint"), ("base_link", "laser_link"), ("map", "odom")))
        out = tf2_echo(self.rng, self.clock, self.budget(), src, dst)
        return "ros2", {"args": ["run", "tf2_ros", "tf2_echo", src, dst]}, out, _pick(self.rng, f"the {src} -> {dst} transform is there and updating",
                                                                                     f"tf from {src} to {dst} looks fine")

    def s_bash(self, mode: str | None = None) -> Step:
        rng = self.rng
        mode = mode or rng.choice(("candump", "canstat", "dmesg", "top", "valgrind", "docker", "git", "grep", "format", "udev"))
        size = self.budget()
        if mode == "candump":
            secs = rng.choice((2, 5, 10))
            return "bash", {"command": f"timeout {secs} candump -ta -e can0"}, candump(rng, self.clock, min(size, 9000)), \
                _pick(rng, "the bus traffic looks normal: PDOs from both motor nodes, heartbeats, SYNC", "candump shows regular PDOs, no error frames to speak of")
        if mode == "canstat":
            return "bash", {"command": "ip -details -statistics link show can0"}, can_stats(rng), \
                _pick(rng, "can0 is ERROR-ACTIVE with clean counters", "the CAN interface looks healthy at 500 kbit")
        if mode == "dmesg":
            return "bash", {"command": "sudo dmesg -T | tail -n 200" if rng.random() < 0.3 else "sudo dmesg | tail -n 200"}, dmesg(rng, min(size, 8000)), \
                _pick(rng, "nothing alarming in dmesg, just USB and Wi-Fi noise", "the kernel log has no CAN or USB resets")
        if mode == "top":
            return "bash", {"command": "top -b -n 1 | head -n 30"}, top_snapshot(rng), _pick(rng, "CPU load is fine", "plenty of CPU headroom")
        if mode == "valgrind":
            exe = rng.choice((("kaiyo_lidar_driver", "kaiyo_lidar_node"), ("amr_base_controller", "base_controller_node"), ("amr_safety", "safety_monitor_node")))
            return "bash", {"command": f"valgrind --leak-check=summary install/{exe[0]}/lib/{exe[0]}/{exe[1]}"}, valgrind(rng, self.clock, size, exe), \
                _pick(rng, f"valgrind finds no leaks in {exe[1]}", f"{exe[1]} is clean under memcheck apart from the usual DDS noise")
        if mode == "docker":
            return "bash", {"command": "docker build -f docker/Dockerfile.dev -t yodogawa/amr-dev:humble ."}, docker_build(rng, size), \
                _pick(rng, "the dev image builds", "docker build finished, image tagged amr-dev:humble")
        if mode == "git":
            sub = rng.choice(("log", "status"))
            return "bash", {"command": "git log -n 12" if sub == "log" else "git status"}, git_out(rng, size, sub), \
                _pick(rng, "git history is what we expected", "the working tree has only our edits")
        if mode == "grep":
            pattern = rng.choice(("heartbeat", "lookupTransform", "best_effort", "declare_parameter", "RCLCPP_WARN", "create_timer", "crc"))
            return "bash", {"command": f"grep -rn \"{pattern}\" src/ --include=*.cpp --include=*.py"}, grep_out(rng, size, pattern), \
                _pick(rng, f"{pattern} shows up where I expected", f"grepped for {pattern}")
        if mode == "format":
            files = rng.sample(CPP_FILES + HPP_FILES, rng.randint(3, 7))
            return "bash", {"command": "clang-format-14 --dry-run " + " ".join(files)}, clang_format_out(rng, files), \
                _pick(rng, "clang-format flags only whitespace", "formatting is nearly clean")
        return "bash", {"command": "udevadm info -q all -n /dev/kaiyo_lidar"}, udevadm(rng), _pick(rng, "the lidar's udev symlink is in place",
                                                                                                  "udev sees the lidar as expected")

    def s_bag(self, mode: str | None = None) -> Step:
        rng = self.rng
        mode = mode or rng.choice(("info", "play"))
        bag = self.about("bag", BAGS, 0.9)
        if mode == "info":
            return "rosbag", {"action": "info", "bag": bag}, bag_info(rng, bag), _pick(rng, f"the bag {bag.rsplit('/', 1)[-1]} has every topic we need",
                                                                                  "the bag covers scan, odom and tf for the whole run")
        out = bag_play(rng, self.clock, self.budget(), bag)
        return "rosbag", {"action": "play", "bag": bag, "rate": 1.0, "with": "amr_bringup localization.launch.py use_sim_time:=true"}, out, \
            _pick(rng, "amcl stays converged through the replay", "the replay runs through, covariances stay small")

    def s_sim(self) -> Step:
        rng = self.rng
        world, scenario = self.about("world", WORLDS, 0.85), self.about("scenario", SCENARIOS, 0.85)
        out = gazebo_log(rng, self.clock, self.budget(), world, scenario)
        return "sim", {"world": world, "scenario": scenario, "headless": True, "timeout_min": rng.choice((5, 8, 10))}, out, \
            _pick(rng, f"the {scenario} scenario finishes without collisions", f"sim run in {world} completes, no collisions", "the scenario passes in sim")

    def s_read(self, path: str | None = None) -> Step:
        path = path or self.about("file", READABLE, 0.85)
        out = read_back(self.rng, path, min(self.budget(), 14000))
        name = path.rsplit("/", 1)[-1]
        return "read_file", {"path": path}, out, _pick(self.rng, f"{name} is what I expected", f"read {name}", f"{name} has no surprises")

    def s_edit(self, path: str | None = None) -> Step:
        path = path or self.about("file", EDITABLE, 0.8)
        if path not in EDITABLE:
            path = self.rng.choice(EDITABLE)
        args, out = edit_result(self.rng, path)
        return "edit_file", args, out, _pick(self.rng, f"edited {path.rsplit('/', 1)[-1]}", f"small fix in {path.rsplit('/', 1)[-1]}")

    def s_write(self) -> Step:
        path = self.about("file", CODE_FILES, 0.8)
        if path not in CODE_FILES:
            path = self.rng.choice(CODE_FILES)
        content = read_back(self.rng, path, self.rng.randint(900, 4000))
        return "write_file", {"path": path, "content": content}, f"File written: {path} ({len(content.encode()):,} bytes)", \
            _pick(self.rng, f"rewrote {path.rsplit('/', 1)[-1]}", f"{path.rsplit('/', 1)[-1]} rewritten")

    def step(self, name: str) -> Step:
        """A routine step for ``tool`` or ``tool:mode``."""
        tool, _, mode = name.partition(":")
        if tool == "colcon":
            return self.s_test() if mode == "test" else self.s_build()
        if tool == "ros2":
            return {"launch": self.s_launch, "param": self.s_param, "doctor": self.s_doctor, "tf": self.s_tf}.get(
                mode, lambda: self.s_topic(mode or None))()
        if tool == "bash":
            return self.s_bash(mode or None)
        if tool == "rosbag":
            return self.s_bag(mode or None)
        return {"read_file": self.s_read, "write_file": self.s_write, "edit_file": self.s_edit, "sim": self.s_sim}[tool]()


# --- the filler: the user's routine asks and the agent's tool loops ---------------------------------------------

NOTES_BY_TOOL = {
    "read_file": ("Reading it first.", "Let me look at the file.", "Checking the source.", "Opening it."),
    "write_file": ("Rewriting it.", "Writing the new version.", "Replacing the file."),
    "edit_file": ("Editing.", "Small fix:", "Applying the change.", "Patching that line."),
    "bash": ("Checking on the robot.", "Quick look with bash.", "Let me see what the system says.", "Running it."),
    "colcon": ("Rebuilding.", "Building with --symlink-install.", "colcon:", "Running the tests."),
    "ros2": ("Checking on the ROS side.", "ros2 CLI:", "Looking at it live.", "Let me see what ROS says."),
    "rosbag": ("Looking at the bag.", "Replaying.", "rosbag:"),
    "sim": ("Starting the sim.", "Gazebo, headless.", "Let me run it in simulation."),
}
GREETINGS = ("おはようございます. let's continue on the AMR stack.", "morning. coffee in hand, 続きやりましょう.", "ok, 今日もよろしく.",
             "hi, back on the robot stuff.", "おはよう. SAT week, let's go.")
REACTIONS = ("ok", "なるほど", "了解", "hmm", "うーん", "nice", "ありがとう", "助かる", "ok ok", "はい", "thx", "お", "まじか", "ふむ",
             "good", "よし", "あー", "i see", "ok good", "そうか", "了解です", "hm ok", "great", "えー")
QUALIFIERS = ("", "", "", "急ぎじゃないです", "when you have a minute", "quickly", "before lunch", "忘れないうちに", "pls", "お願いします",
              "thx", "and tell me if it's worse than yesterday", "昨日より悪かったら教えて", "for the standup notes", "meeting in 20 min",
              "よろしく", "just want to see it", "robot is on the bench now")
ASKS = {
    "build": ("colcon build して", "rebuild {pkg} pls", "build --packages-up-to amr_bringup お願い", "もう一回ビルド", "does it still build?",
              "I changed {cls}, rebuild", "ビルド通るか見て", "build {pkg} with console_direct+ so I see the warnings"),
    "test": ("colcon test 回して", "run the tests for {pkg}", "{pkg} のテスト通る？", "test-result 見せて", "run the unit tests again",
             "テスト回して, {pkg} だけでいい"),
    "launch": ("bringup 立ち上げて log 見て", "launch the nav stack on {robot} and check the log", "ros2 launch して様子見て",
               "{robot} で navigation.launch.py 起動して", "start the lidar launch on {robot}", "robot.launch.py on {robot} pls"),
    "topics": ("{topic} の hz 見て", "echo {topic} once", "topic list 見せて", "is {topic} publishing?", "{topic} のレート確認して"),
    "qos": ("check the QoS on /scan", "/scan の QoS 確認して", "amcl isn't getting scans on {robot}? check QoS", "QoS mismatch ないか見て"),
    "params": ("{node} の param dump して", "dump the {node} params", "what are {node}'s params right now?", "live の {node} パラメータ見せて"),
    "doctor": ("ros2 doctor 回して", "DDS まわり大丈夫？ doctor 見て", "run ros2 doctor on {robot}"),
    "tf": ("tf tree check して", "tf2_echo map base_footprint", "why is tf complaining?", "tf 大丈夫か見て"),
    "can": ("candump 見て", "CAN bus の状態見て", "check can0 stats", "can0 のエラーカウンタ見て", "is the CAN bus healthy?"),
    "bag": ("{bag} の info 見せて", "replay {bag} and watch amcl", "bag 再生して amcl 見て", "what's in {bag}?"),
    "sim": ("sim で {world} 回して", "run the {scenario} scenario in gazebo", "sim でナビのテスト", "simulation で {scenario} 確認して"),
    "review": ("read {file} and tell me", "{file} 読んで", "what does {file} do?", "{file} まだ使ってる？", "explain {file} to me"),
    "refactor": ("clean up {cls}", "{cls} 整理して", "move the magic numbers out of {cls}", "{cls} が読みにくい, refactor して"),
    "investigate": ("why {symptom}?", "{symptom_ja} 調べて", "look into {symptom}", "{symptom_ja} また出た. 見てくれる？", "any idea about {symptom}?"),
    "docker": ("dev image rebuild して", "docker build the dev image", "Dockerfile 更新したから image 作り直して"),
    "git": ("git status 見て", "what changed since yesterday?", "git log 見せて", "最近のコミット確認して"),
    "dmesg": ("dmesg 見て, USB まわり", "lidar reconnected? check dmesg", "kernel log 確認して"),
    "memcheck": ("valgrind で {exe} 回して", "run {exe} under valgrind", "memory leak ないか見て"),
    "format": ("clang-format かけて", "format check pls", "clang-format の差分見せて"),
    "load": ("CPU load 見て", "top 見せて, {robot} 重くない？", "is the NUC overloaded?"),
    "config": ("{cfg} 見せて", "what's in {cfg} again?", "{cfg} 確認して", "check {cfg}"),
    "urdf": ("what's the laser mount offset in the xacro? just read it, don't change it", "URDF の lidar の位置確認して (見るだけ)",
             "check the wheel separation in {xacro}", "{xacro} 読んで, 何も変えないで"),
    "rewrite": ("rewrite {py} properly", "{py} 書き直して, 古いコードなので", "redo {py} with proper typing"),
}
PLANS = {
    "build": ["colcon:build", "bash:grep", "read_file", "edit_file", "colcon:build"],
    "test": ["colcon:test", "read_file", "edit_file", "colcon:test"],
    "launch": ["ros2:launch", "ros2:hz", "read_file"],
    "topics": ["ros2:hz", "ros2:echo", "ros2:list"],
    "qos": ["ros2:info", "ros2:hz", "read_file"],
    "params": ["ros2:param", "read_file"],
    "doctor": ["ros2:doctor", "ros2:list"],
    "tf": ["ros2:tf", "ros2:launch", "read_file"],
    "can": ["bash:candump", "bash:canstat", "bash:dmesg"],
    "bag": ["rosbag:info", "rosbag:play", "ros2:hz"],
    "sim": ["sim", "read_file", "sim"],
    "review": ["read_file", "read_file"],
    "refactor": ["read_file", "edit_file", "edit_file", "colcon:build", "colcon:test"],
    "investigate": ["bash:grep", "read_file", "read_file", "edit_file", "colcon:build", "ros2:launch"],
    "docker": ["read_file", "bash:docker", "bash:git"],
    "git": ["bash:git", "bash:git"],
    "dmesg": ["bash:dmesg", "bash:udev"],
    "memcheck": ["bash:valgrind", "read_file", "edit_file"],
    "format": ["bash:format", "edit_file", "bash:format"],
    "load": ["bash:top", "ros2:hz"],
    "config": ["read_file", "ros2:param", "read_file"],
    "rewrite": ["read_file", "write_file", "colcon:build"],
    "urdf": ["read_file", "ros2:tf"],
}
LOOP = ("edit_file", "colcon:build", "read_file", "ros2:launch", "colcon:test", "bash:grep", "ros2:hz", "sim", "rosbag:play")
OPENERS = ("Done.", "OK:", "Alright.", "Here's where it stands:", "", "Short version:", "Finished.", "So,", "Result:", "Update:")
POINTERS = ("", "", "", "The log above has the details.", "Details are in the last run's output.", "The second output is the one that matters.",
            "Scroll up to the summary at the end of the run if you want the full list.")
CLOSERS = ("Want me to keep going on that?", "Next step would be a replay of the aisle bag, unless you want something else.",
           "I left the rest alone.", "Nothing committed.", "Tell me if you want the diff explained.", "", "", "Should I open a ticket for it?",
           "続けますか?", "Your call on the next one.")
CHATS = (
    ("QoS の best effort と reliable の違いって何だっけ?", "Reliable retransmits lost samples and makes the publisher wait on slow readers; best effort just sends. For sensor streams like /scan best effort is usual: a late scan is worthless anyway. The catch is compatibility: a reliable subscriber cannot receive from a best-effort publisher, and ROS 2 only warns once about it."),
    ("why does amcl need the odom->base tf at all?", "AMCL doesn't estimate motion itself; it uses the odometry transform between two scans as the motion model, then corrects with the laser. If odom->base_footprint is late or jumpy, the particle cloud spreads or lags, which looks like bad localization even when the map is fine."),
    ("--symlink-install って何がいいんだっけ", "It installs symlinks to the source files instead of copies, so edits to Python nodes, launch files and YAML take effect without rebuilding. C++ still needs a rebuild. The usual pitfall is mixing builds with and without it in the same workspace; then stale copies shadow the symlinks."),
    ("is Humble still the right distro for us?", "For a deployment in 2025, yes: it's the LTS until 2027 and Nav2 is mature on it. Jazzy is the next LTS; moving makes sense once the lidar driver and the CAN stack have releases for it."),
    ("CAN の 500 kbit と 1 Mbit, 何が違うの実際", "Mostly cable length and margin: at 1 Mbit/s the bit time is half, so propagation delay and reflections matter more; CANopen recommends short buses for it. Our bus load at 500 kbit is far from the limit, so there's no throughput reason to go faster."),
    ("what's the difference between the local and global costmap again?", "The global costmap covers the whole map and is used by the planner for the route; the local costmap is a small rolling window around the robot, updated fast from the lidar, used by the controller to avoid what's right in front of it."),
    ("rosbag の sqlite3 と mcap どっちがいい?", "sqlite3 is the Humble default and fine for short bags; MCAP writes faster, handles big bags better and opens in Foxglove directly. The change is a storage option on record and a plugin install, not a code change."),
    ("why do we get 'extrapolation into the future' so often at startup?", "A node asks tf for a transform at the stamp of a message that is newer than the latest transform it has: usually the scan arrives before the odometry of that instant. At startup clocks and buffers are still filling, so a few of those are normal; a steady stream means a clock or latency problem."),
)
STATUS_ASKS = ("今どんな感じ?", "status?", "where are we", "quick recap?", "ちょっと休憩. まとめてくれる?", "what's left?", "どこまで進んだ?",
               "summary before I go to the site", "まとめて", "what did we fix today?")
STARTERS = ("まず何からやる?", "where did we stop yesterday?", "what's on the list today?", "どこから始めようか?")
STARTER_REPLIES = (
    "Yesterday we stopped after a green build and a replay of the aisle C bag; the open items are the lidar dropouts and the CAN timeouts on the right wheel. I'd start with whatever blocks the next test on the robot.",
    "From the last session: tests green, the docking approach still jerky, and the sim run of the aisle loop was next. Your call.",
    "Where we left off: the nav stack launches cleanly on amr-12, the lidar driver bump isn't done, and the SAT items haven't been triaged. Tell me what you want first.",
)
STATUS_OPENERS = ("Where things stand:", "Quick recap:", "So far:", "まとめ:", "Last few things:", "Recap:")


NODE_YAML = {"controller_server": "src/amr_navigation/config/nav2_params.yaml", "velocity_smoother": "src/amr_navigation/config/nav2_params.yaml",
             "collision_monitor": "src/amr_navigation/config/nav2_params.yaml", "amcl": "src/amr_localization/config/amcl.yaml",
             "kaiyo_lidar": "src/kaiyo_lidar_driver/config/kaiyo_lx16.yaml", "base_controller": "src/amr_base_controller/config/base.yaml"}


class _Filler(_Gen):
    """Mixin: the routine turns between the planted episodes."""

    def ask(self, kind: str, react: bool = True, cls: str | None = None) -> str:
        """The user's terse request of ``kind``; what it is about becomes the focus of the calls after it."""
        rng = self.rng
        sym = rng.choice(SYMPTOMS)
        cls = cls or rng.choice(tuple(CLASSES))
        pkg, robot, topic = rng.choice(PKGS), rng.choice(ROBOTS), rng.choice(tuple(TOPICS))
        node, bag, world, scenario = rng.choice(tuple(PARAMS)), rng.choice(BAGS), rng.choice(WORLDS), rng.choice(SCENARIOS)
        file, py, cfg = rng.choice(CODE_FILES + LAUNCH_FILES), rng.choice(PY_FILES), rng.choice(YAML_FILES + CMAKE_FILES + (DOCKERFILE,))
        exe = rng.choice(("kaiyo_lidar_node", "base_controller_node", "safety_monitor_node"))
        xacro = rng.choice(XACRO_FILES)
        frame = rng.choice(ASKS[kind])
        text = frame.format(pkg=pkg, cls=cls, robot=robot, topic=topic, node=node, bag=bag.rsplit("/", 1)[-1], world=world, scenario=scenario,
                            file=file, py=py, cfg=cfg, symptom=sym[0], symptom_ja=sym[1], exe=exe, xacro=xacro)
        code = {"review": file, "rewrite": py, "investigate": sym[2], "config": cfg, "refactor": CLASSES[cls], "docker": DOCKERFILE,
                "params": NODE_YAML[node], "urdf": xacro,
                "qos": "src/kaiyo_lidar_driver/config/kaiyo_lx16.yaml"}.get(kind, CLASSES[cls])
        if kind == "build" and "{cls}" not in frame:
            pkg = pkg if "{pkg}" in frame else rng.choice(PKGS)
        self.focus = {"pkg": CLASSES[cls].split("/")[1] if "{cls}" in frame else pkg, "robot": robot, "topic": topic, "node": node,
                      "bag": bag, "world": world, "scenario": scenario, "file": code,
                      "launch": "navigation.launch.py" if "nav" in text else "lidar.launch.py" if "lidar" in text else ""}
        parts = []
        if self.emitting and not self.greeted:
            parts.append(rng.choice(GREETINGS))
            self.greeted = True
        elif react and rng.random() < 0.6:
            parts.append(rng.choice(REACTIONS) + rng.choice((".", ",", "", " -", "!")))
        parts.append(text)
        q = rng.choice(QUALIFIERS)
        if q:
            parts.append(("(" + q + ")") if rng.random() < 0.3 else q)
        return _typo(" ".join(parts), rng)

    def steps_for(self, kind: str, k: int) -> list[Callable[[], Step]]:
        """``k`` routine calls for a request of ``kind``, each made when it runs (its output sized then)."""
        plan = list(PLANS[kind])
        while len(plan) < k:
            plan.append(self.rng.choice(LOOP))
        for tool in TOOLS:  # a tool the session has not used yet, if this request uses it, comes early enough to run
            at = next((j for j, name in enumerate(plan) if name.partition(":")[0] == tool), None)
            if tool not in self.used and at is not None and at >= k > 1:
                plan.insert(k - 1, plan.pop(at))
        return [partial(self.step, name) for name in plan[:k]]

    def go(self, thunks: list[Callable[[], Step]]) -> list[tuple[int, Step]]:
        """Run routine calls one after the other: (result index, step) for each."""
        out = []
        for make in thunks:
            step = make()
            out.append((self.run([step], self.note(step[0]))[0], step))
        return out

    def note(self, tool: str) -> str | None:
        """What the agent says as it calls ``tool``: often nothing."""
        return self.rng.choice(NOTES_BY_TOOL[tool]) if self.rng.random() < 0.45 else None

    def answer(self, gists: list[str]) -> str:
        rng = self.rng
        picked = gists[-3:] if len(gists) > 3 else gists
        if len(picked) > 1 and rng.random() < 0.4:
            picked = rng.sample(picked, len(picked) - 1)
        body = "; ".join(picked)
        opener = rng.choice(OPENERS)
        body = (body if opener.endswith(",") else _cap(body)) + "."
        return " ".join(p for p in (opener, body, rng.choice(POINTERS), rng.choice(CLOSERS)) if p)

    def turn(self, length: int, kind: str | None = None) -> None:
        """A routine turn of exactly ``length`` messages (2, or 4 and more)."""
        assert length == 2 or length >= 4, length
        if length == 2:
            self.chat()
            return
        k = (length - 2) // 2
        if kind is None:
            missing = {t for t in TOOLS if t not in self.used}
            wanted = [a for a in ASKS if missing & {name.partition(":")[0] for name in PLANS[a]}]
            kind = self.rng.choice(wanted) if wanted and self.rng.random() < 0.5 else self.rng.choice(tuple(ASKS))
        self.user(self.ask(kind))
        thunks = self.steps_for(kind, k + (length % 2))
        gists: list[str] = []
        groups = [[t] for t in thunks]
        if length % 2:
            at = self.rng.randrange(len(groups) - 1)
            groups[at:at + 2] = [groups[at] + groups[at + 1]]
        for g in groups:
            steps = [make() for make in g]
            self.run(steps, self.note(steps[0][0]))
            gists += [s[3] for s in steps]
        self.recent += gists
        self.say(self.answer(gists))

    def chat(self) -> None:
        """Two messages: a question about ROS or the robot (each once a session) or a quick status check."""
        rng = self.rng
        if not self.greeted:
            self.greeted = True
            self.user(_typo(f"{rng.choice(GREETINGS)} {rng.choice(STARTERS)}", rng))
            self.say(rng.choice(STARTER_REPLIES))
            return
        fresh = [c for c in CHATS if c[0] not in self.chatted]
        if fresh and rng.random() < 0.5:
            q, a = rng.choice(fresh)
            self.chatted.add(q)
            self.user(_typo(q, rng))
            self.say(a)
            return
        self.user(_typo(" ".join(x for x in (rng.choice(REACTIONS + ("", "")), rng.choice(STATUS_ASKS), rng.choice(QUALIFIERS)) if x), rng))
        recent = list(dict.fromkeys(self.recent[-5:])) or ["nothing new has run since the last recap"]
        body = "; ".join(rng.sample(recent, min(len(recent), rng.randint(1, 3))))
        self.recent = []
        self.say(f"{rng.choice(STATUS_OPENERS)} {_cap(body)}. {rng.choice(CLOSERS)}".strip())

    def gap(self, g: int) -> None:
        """Exactly ``g`` messages of routine turns (``g`` is 0, 2, or 4 and more)."""
        assert g in (0, 2) or g >= 4, g
        while g:
            if g <= 14 or (g <= 40 and self.rng.random() < 0.2):
                self.turn(g)
                return
            length = 2 if self.rng.random() < 0.08 else self.rng.randint(4, min(30, g - 4))
            self.turn(length)
            g -= length


# --- what gets planted: the user's own words --------------------------------------------------------------------
# (style, value with {params}, {param: choices}, message frames around {v}, query)

INSTRUCTIONS: tuple[tuple[str, str, dict[str, tuple[int, ...]], tuple[str, ...], str], ...] = (
    ("indirect", "the CAN bus gets flaky above {k} kbit", {"k": (500,)},
     ("fyi {v}, so leave the bitrate alone", "{v}. だから bitrate は触らないで", "just so you know, {v}", "remember {v}, Brenner says the same"),
     "What did the user say happens to the CAN bus above a certain bitrate?"),
    ("indirect", "the NUC starts throttling once it goes past {c} °C", {"c": (85, 90, 95)},
     ("{v}, so no long sims on the robot itself", "fyi {v}", "{v}. 夏の倉庫は特に"),
     "At what temperature does the robot's NUC throttle, per the user?"),
    ("indirect", "Morimoto-san reads every single commit message", {},
     ("{v}, so write them properly", "fyi {v} 笑", "just saying, {v}"), "Who reads every commit message, according to the user?"),
    ("indirect", "the customer only lets us test on site before {h}:00", {"h": (8, 9, 10)},
     ("{v}, the shift starts right after", "heads up: {v}", "{v}. 遅れると怒られる"),
     "Until what time does the customer allow tests on site, per the user?"),
    ("indirect", "the rapid-roll door in the freezer needs {s} seconds to open fully", {"s": (6, 7, 8)},
     ("{v}, the robot has to wait for it", "fyi {v}", "{v}. 前回ぶつかりそうになった"),
     "How long does the freezer door take to open, per the user?"),
    ("indirect", "the Brenner controllers forget every setting if they are power-cycled before saving", {},
     ("{v}, learned that the hard way", "fyi {v}", "{v}. 二回やられた"), "What happens to the motor controllers' settings on a power cycle, per the user?"),
    ("casual", "I'd rather you didn't touch the URDF without asking", {},
     ("{v}", "also {v}, the sim and the real robot both depend on it", "btw {v}"), "What did the user say about changes to the URDF?"),
    ("casual", "I really don't like it when you bump versions in package.xml", {},
     ("also {v}", "{v}, releases do that", "small thing: {v}"), "What does the user dislike about package.xml edits?"),
    ("casual", "please stop spamming RCLCPP_INFO in the control loop, it drives me crazy", {},
     ("{v}", "ok small thing: {v}", "{v}. use DEBUG or throttle"), "What did the user ask about logging in the control loop?"),
    ("casual", "I hate it when topics get renamed, the fleet bridge breaks silently", {},
     ("{v}", "btw {v}", "{v}. 本当に"), "How does the user feel about renaming topics?"),
    ("casual", "no more global variables in the drivers please", {},
     ("and {v}", "{v} 笑", "{v}, I'm begging you"), "What did the user say about global variables in the drivers?"),
    ("conditional", "if the sim run takes over {m} minutes, kill it and tell me", {"m": (8, 10, 12, 15)},
     ("{v}", "also {v}, something's wrong when that happens", "rule: {v}"), "What should the agent do when a simulation runs too long?"),
    ("conditional", "if colcon test shows the same flaky test twice, mark it and tell me", {},
     ("{v}", "{v}, don't spend an hour on it", "from now on, {v}"), "What should happen to a test that is flaky twice?"),
    ("conditional", "if amcl loses localization during a bag replay, note the bag time and stop there", {},
     ("{v}", "important: {v}", "{v}, I want to look myself"), "What must the agent do when localization is lost during a replay?"),
    ("conditional", "if a change touches the CAN frames, run candump for a minute before and after", {},
     ("{v}", "and {v}", "{v}, I want to compare"), "What must accompany a change to the CAN frames?"),
    ("conditional", "if you see exit code -11 anywhere, rerun it under ASan before touching the code", {},
     ("{v}", "rule: {v}", "{v}. 推測で直さないで"), "What should the agent do after a segfault before changing code?"),
    ("conditional", "if the robot is on the floor, ask me before you launch anything on it", {},
     ("{v}", "important: {v}", "{v}, people work there"), "When must the agent ask before launching on a robot?"),
    ("japanese", "launchファイルは絶対に直接編集しないでください", {},
     ("{v}", "それと, {v}", "{v}. パラメータは YAML で"), "What did the user forbid about launch files?"),
    ("japanese", "ビルドは必ず --symlink-install で", {},
     ("{v}", "あと {v}", "{v}, お願いします"), "Which colcon option must every build use?"),
    ("japanese", "rosbag は必ず /data/bags に保存してください", {},
     ("{v}", "それから {v}", "{v}. ホームに置かないで"), "Where must rosbags be saved?"),
    ("japanese", "パラメータの YAML のコメントは消さないでください", {},
     ("{v}", "あ, {v}", "{v}. 理由が書いてあるので"), "What must not be removed from the parameter YAML files?"),
    ("japanese", "実機で試す前に必ずシミュレーションで確認すること", {},
     ("{v}", "ルール: {v}", "{v}. 例外なし"), "What must happen before anything is tried on the real robot?"),
    ("japanese", "main ブランチに直接 push しないでください", {},
     ("{v}", "念のため, {v}", "{v}. PR 経由で"), "What did the user forbid about the main branch?"),
    ("polite", "please kindly always run clang-format before commit", {},
     ("{v}", "and {v}", "{v}, thank you"), "What must the agent always run before committing?"),
    ("polite", "please kindly confirm with me before you restart any robot", {},
     ("{v}", "also {v}", "{v}, onegaishimasu"), "What must the agent do before restarting a robot?"),
    ("polite", "kindly always write the bag name in the commit message", {},
     ("{v}, onegaishimasu", "{v}", "also {v}, please"), "What should every commit message mention?"),
    ("polite", "please be so kind to run ros2 doctor after every DDS setting change", {},
     ("{v}", "and {v}", "{v}, thank you very much"), "What should follow any DDS setting change?"),
    ("polite", "please kindly do not delete any bags, even the broken ones", {},
     ("{v}", "{v}, I need them for the report", "also {v}"), "What did the user ask about deleting bags?"),
    ("plain", "the lidar driver stays in its own container, never in the main image", {}, ("{v}",),
     "Where must the lidar driver run, per the user?"),
    ("plain", "every parameter change goes into the YAML, never as a launch argument override", {}, ("{v}",),
     "How must parameter changes be made, per the user?"),
    ("plain", "the Amagasaki Nav2 params never get edited for the test track", {}, ("{v}",),
     "Which Nav2 params must not be edited for the test track?"),
    ("plain", "our software speed limits stay below the safety PLC's limits, always", {}, ("{v}",),
     "How must the software speed limits relate to the safety PLC's?"),
    ("plain", "anything that moves a real robot needs my OK in chat first", {}, ("{v}",),
     "What needs the user's approval first?"),
    ("adopted", "no software updates on robots that are on the floor during shift hours, only after 22:00", {}, (),
     "Which rule about updating robots on the floor did the user take from the safety memo?"),
    ("adopted", "every manual override gets written down with robot, time and reason", {}, (),
     "What did the user adopt from the safety memo about manual overrides?"),
    ("adopted", "reversing means the amber beacon is on, in sim too", {}, (),
     "What did the user adopt from the safety memo about reversing?"),
    ("adopted", "nobody deploys before that shift's e-stop chain check is in the log book", {}, (),
     "What did the user adopt from the safety memo about the e-stop check?"),
)
STYLES = ("indirect", "casual", "conditional", "japanese", "polite", "mid", "adopted")
MID_OPENERS = (
    "long day. morning at the Amagasaki site with Daiki, afternoon fighting the docking station, nothing finished obviously. amr-12 was on battery the whole time so some numbers might be off.",
    "ok so I talked with Morimoto-san this morning and the SAT is still on for Tuesday, but the customer wants a cleaner run than last time. Priya is off this week, so no new lidar firmware before Monday.",
    "今日は尼崎の現場でした。冷凍エリアはやっぱり寒い, lidar の窓が曇る. anyway, back on the nav stuff tomorrow and the dock after that.",
    "the night test went ok, 6 hours, 2 stops for no reason, one lidar dropout. the customer's shift lead was mostly happy. I'll look at the bags later.",
    "quick update: Brenner is sending the new controllers next week and the second dock station finally arrived, it's in the workshop, untouched.",
)
MID_LEADS = ("Anyway, a standing rule while I think of it:", "Also, something I should have said earlier:", "それと, 今後のルールとして:",
             "One thing before I forget —", "あと一つ:", "While I'm at it, a rule:")
MID_FOLLOWS = ("This is not negotiable.", "That applies to everything from now on.", "これで一度痛い目を見たので.", "I know it's annoying, but yeah.",
               "よろしくお願いします.", "We've been burned before.")
ADOPT_FRAMES = ("ok, from Fujii-san's memo: {v}. ignore the part about {ign}, that's for the old model",
                "memo の中で私たちが守るのはこれ: {v}. {ign} は無視して, 古いモデル用なので",
                "from the memo, in my words: {v}. skip {ign}, it doesn't apply to the YR-2",
                "安全メモ, うちに関係あるのは: {v}. ignore {ign}, that's the hardware team's job")
IGNORED = ("the scanner muting point", "the field set 3 thing", "the battery swap rule", "the safety PLC firmware point", "the bumper strip item")

DECISIONS = (
    ("controller", "local controller", "コントローラ", ("MPPI", "Regulated Pure Pursuit", "DWB")),
    ("planner", "global planner", "グローバルプランナー", ("Smac Hybrid-A*", "Smac 2D", "NavFn with A*", "Theta*")),
    ("qos", "/scan QoS", "/scan の QoS", ("best effort, depth 5", "reliable, depth 10", "the SensorDataQoS preset")),
    ("dds", "DDS implementation", "DDS", ("Cyclone DDS", "Fast DDS", "Zenoh")),
    ("can", "CAN stack", "CAN まわり", ("ros2_canopen", "our own SocketCAN wrapper", "CANopenNode")),
    ("sim", "simulator", "シミュレータ", ("Gazebo Classic", "Ignition Fortress", "Isaac Sim")),
    ("bagfmt", "rosbag storage", "rosbag のフォーマット", ("MCAP with zstd", "sqlite3 without compression")),
    ("slam", "mapping tool", "地図作成ツール", ("slam_toolbox", "Cartographer", "RTAB-Map")),
    ("ekf", "odometry fusion", "オドメトリの融合", ("robot_localization EKF", "wheel odometry only", "fuse_core")),
    ("docking", "docking approach", "ドッキング方式", ("opennav_docking", "reflector-based docking", "AprilTag docking")),
    ("ci", "CI", "CI", ("GitHub Actions", "GitLab CI", "Jenkins on the office NUC")),
    ("filter", "scan filtering", "スキャンのフィルタ", ("laser_filters box filter", "our own footprint filter in C++")),
    ("logging", "field logging", "現場ログ", ("rosbag on every run", "rosbag only on failures", "Foxglove live streaming")),
    ("fleet", "fleet manager", "フリート管理", ("Open-RMF", "our own FastAPI fleet server", "the customer's WMS directly")),
    ("smoothing", "velocity smoothing", "速度スムージング", ("nav2 velocity_smoother", "the smoother inside the base controller")),
)
DECIDE_FRAMES = ("ok decision: {v} for the {en}. {why}", "{ja}は {v} でいきます", "let's go with {v} for the {en}",
                 "決めました, {ja}は {v}. {why}", "{v} it is, for the {en}. {why}", "after thinking about it, {en} = {v}",
                 "decision: {ja} → {v}. {why}")
REVISE_FRAMES = ("やっぱり {v} にします, {ja}は", "scrap the {old} idea, {v} it is", "{old} はやめます. {v} で. {why}",
                 "change of plan: {v} instead of {old}", "ok I changed my mind on the {en}: {v}, not {old}", "{ja}はやっぱり {v} にします. {why}")
WHYS = ("the SAT is in two weeks", "less to maintain", "Priya knows it already", "it fits our footprint better", "時間がないので",
        "the docs are better", "the customer's IT prefers it", "it runs fine on the NUC", "it worked well in the last project",
        "サポートがしっかりしてる")

TASKS = ("fix the tf timestamps", "retune amcl", "rerun the 3 warehouse bags", "CAN のタイムアウト調査", "docking の再調整",
         "the SAT checklist answers", "lidar driver を 1.4.2 に上げる", "cold store のマップ作り直し", "clang-tidy の警告つぶす",
         "the e-stop recovery test", "amr_safety の unit test 追加", "clean up the Docker image", "costmap の obstacle layer 見直し",
         "odometry calibration", "the Wi-Fi roaming test", "battery monitor の修正", "split the nav2 params per site",
         "rosbag の自動アップロード", "the teleop deadman fix", "collision monitor の polygon 調整", "the 6-hour night test",
         "dock reflector の再測定", "update the SAT report")
PLAN_FRAMES = ("first {a}, then {b}, then {c}", "まず {a}, 次に {b}, 最後に {c}", "order: {a} → {b} → {c}",
               "{a} today, {b} tomorrow, {c} on Friday if there's time", "plan: 1) {a} 2) {b} 3) {c}",
               "{a} を先にやって, それから {b}, {c} は後回し", "priority is {a}, then {b}; {c} waits until after",
               "step one {a}, step two {b}, then {c}, then {d}")
PLAN_INTROS = ("ok, plan for today:", "順番はこう:", "here's the plan:", "", "for the rest of the week:", "ok listen,", "今週の計画:")
PLAN_OUTROS = ("commit between each.", "寄り道なしで.", "tell me when each is done.", "", "", "詰まったら言って.", "no refactors on the way please.")

# corrections: family -> (near miss?, contexts (Japanese, English), stale frames, correction frames, query); {s} the stale value,
# {v} the new one, {o} the old one said loosely, {c}/{ce} the context in Japanese/English
CORRECTIONS = {
    "robot": (True, (("C通路のドリフト", "the drift in aisle C"), ("ランプでのスリップ", "the wheel slip on the ramp"),
                     ("lidar の途切れ", "the lidar dropouts"), ("右ホイールの異音", "the noise from the right wheel")),
              ("{s} is the one with {ce}, start with its bags", "{c}は {s} です. ログ見て", "{ce}: it's {s}, check that one first"),
              ("wrong robot — it's {v} with {ce}", "あ, 違う. {c}は {v} でした", "sorry, {v}, not the one I said. {ce}", "{v} だった, 間違えました ({c})"),
              "Which robot has {ce}, after the user's correction?"),
    "port": (True, (("lidar", "the lidar"), ("IMU", "the IMU"), ("バーコードリーダー", "the barcode reader"), ("ビーコン", "the beacon controller")),
             ("{ce} is on {s} on the test robot", "テスト機の{c}は {s} につながってます"),
             ("あ, 違う, {ce} is on {v} not {o}", "wrong port, {v} for {ce}", "{v} です, {c}は. 失礼"),
             "Which serial port is {ce} on, per the correction?"),
    "speed": (True, (("冷凍エリアの速度制限", "the speed limit in the cold store"), ("ドック前の速度", "the approach speed at the dock"),
                     ("交差点の速度", "the speed at crossings"), ("ランプの下りの速度", "the speed down the ramp")),
              ("{ce} should be {s}", "{c}は {s} で"),
              ("{c}, {o} じゃなくて {v} です", "じゃなくて {v} です, {c}は", "sorry, {ce} is {v}, I misremembered"),
              "What is {ce}, after the user's correction?"),
    "rack": (True, (("ドリフトが始まる場所", "where the drift starts"), ("ゴーストが出るラック", "the rack with the costmap ghosts"),
                    ("止まった場所", "where it stopped for no reason")),
             ("{ce} is at rack {s}", "{c}はラック {s} の前です"),
             ("ラック {v} でした, {o} じゃなくて", "typo earlier, {ce} is at rack {v}", "あ, 違う, {v} です ({c})"),
             "At which rack is {ce}, per the correction?"),
    "bagstamp": (True, (("amcl が飛んだ bag", "the bag where amcl jumped"), ("lidar が落ちた bag", "the bag where the lidar dropped out"),
                        ("e-stop の bag", "the e-stop bag")),
                 ("{ce} is {s}", "{c}は {s} です"),
                 ("the other bag I sent: {v}", "{v} の方です, 間違えた. {c}", "wrong one, {v} is {ce}"),
                 "Which bag is {ce}, after the correction?"),
    "serial": (True, (("右のモーターコントローラ", "the right motor controller"), ("左のモーターコントローラ", "the left motor controller"),
                      ("リフトのモーターコントローラ", "the lift motor controller")),
               ("the RMA form for {ce} needs serial {s}", "{c}のシリアルは {s}"),
               ("serial is {v}, I swapped two digits", "シリアル間違えてた, {v} です", "{v} for {ce}, typo before"),
               "What is the serial number of {ce}, as corrected?"),
    "node": (False, (("CPU を食ってる", "eating the CPU"), ("ログを埋めてる", "flooding the log"), ("起動が遅い", "slow to start")),
             ("the node {ce} is {s}", "{c}のは {s} ノードです"),
             ("not {o}, it's {v} that's {ce}", "違った, {v} でした ({c})", "wrong node, {v}. {o} is innocent"),
             "Which node is {ce}, per the user's correction?"),
    "bag": (False, (("SAT のリハーサルの bag", "the SAT rehearsal bag"), ("夜勤テストの bag", "the night test bag"), ("ドリフトの再現 bag", "the drift repro bag")),
            ("{ce} is /data/bags/{s}", "{c}は /data/bags/{s} です"),
            ("the other bag I sent — {v}, not {o}", "{v} の方でした. {c}", "ugh, wrong name: {v}"),
            "Which bag is {ce}, as the user corrected?"),
    "nick": (False, (("ドリフトしてる子", "the one that drifts"), ("ドックでぶつかった子", "the one that bumped the dock"),
                     ("バッテリーがすぐ減る子", "the one whose battery drains fast")),
             ("{ce} is {s}", "{c}は {s} です"),
             ("wrong robot — it's {v}, {o} is fine", "違う違う, {v} の方 ({c})", "{v} だ, {o} じゃない"),
             "Which robot, by nickname, is {ce} after the correction?"),
}
NEAR, LOOSE = [k for k, c in CORRECTIONS.items() if c[0]], [k for k, c in CORRECTIONS.items() if not c[0]]
FAR_PREFIX = ("going back to something from earlier,", "remember what I said a while ago?", "昔の話に戻るけど,", "", "",
              "about that thing I told you way back:", "今気づいたんだけど,", "hmm, that thing from this morning:",
              "oh wait, earlier I said something wrong.", "前のメッセージの訂正:", "ちょっと前の話,")

IDENT_USER = {
    "rma": (("Brenner gave us RMA number {v} for the broken controller", "RMA 番号は {v} です, メモしておいて", "fyi RMA {v}, put it in the ticket"),
            "Which RMA number did the motor supplier give for the broken controller?"),
    "ticket": (("the customer's ticket for the random stops is {v}", "阪神冷蔵さんのチケット番号: {v}", "mention {v} in the commit, that's HRL's ticket"),
               "Which customer ticket did the user give?"),
    "issue": (("our upstream issue is {v}, link it in the code comment", "kaiyo の issue 番号は {v}, コメントに入れて"),
              "Which upstream issue of the lidar driver did the user name?"),
    "fw": (("the firmware build Brenner made for us is {v}", "Brenner の新しい firmware は {v} です"),
           "Which firmware build did the motor supplier make for the team?"),
    "map": (("the new map for floor 2 is {v}, use that one", "2階の地図は {v} です"), "What is the new floor-2 map called?"),
    "asset": (("HRL's asset tag for the loaner robot is {v}", "貸出機の資産番号は {v}"), "What asset tag does the customer use for the loaner robot?"),
}
IDENT_TOOL = ("digest", "recbag", "serial", "commit")
FILE_KINDS = ("cpp", "hpp", "py", "test", "yaml")
FILE_ASKS = ("we need a {w}, 作って", "write the {w} we talked about", "{w} を新しく書いて, シンプルに", "add a {w}, keep it small",
             "can you create the {w}?", "new file for the {w} please", "go ahead and make the {w}")
ERROR_KINDS = ("compile", "link", "gtest", "pytest", "died", "tf", "asan", "spawn")
FINDING_KINDS = ("rate", "loc", "load", "berr", "segv", "leak")
ACKS = {
    "instruction": ("Noted.", "Got it, I'll stick to that from now on.", "了解です.", "Understood, that applies to everything I touch.",
                    "OK. I'll flag it if something I'm about to do would break that.", "Noted, and sorry if I did that before.", "OK, rule taken."),
    "correction": ("Right, thanks for catching that.", "OK, switching to the corrected one.", "修正しました.", "Got it, I'll use that instead.",
                   "Ah, good catch.", "OK, updated my notes."),
    "decision": ("OK, going with that.", "Noted, I'll set things up around it.", "了解, それで進めます.", "Makes sense.", "Good call, I'll plan around it."),
    "plan": ("Sounds good, starting with the first item.", "OK, in that order.", "了解, その順番で.", "Got it. I'll report after each step.",
             "OK, I'll keep to that sequence."),
    "identifier": ("Noted.", "Got it, I'll use that.", "Saved for when we touch that.", "OK.", "Thanks, noted."),
    "stale": ("OK.", "Got it.", "Noted.", "了解.", "Understood."),
    "paste": ("Read it.", "Got it.", "OK, went through it.", "Thanks for pasting.", "Noted."),
}


@dataclass
class _Plan:
    """One scheduled episode: exactly ``length`` messages written by ``emit``, at nominal position ``x`` (0-1)."""

    length: int
    emit: Callable[[], None]
    x: float = 0.0
    label: str = ""


class _Link:
    """Where a pre-episode (a stale value, a first choice) landed, for the fact that refers back to it."""

    index: int | None = None


def _fill(frame: str, rng: random.Random, v: str = "", s: str = "", **slots: str) -> str:
    """A frame in the user's hurried typing; what fills its slots (the planted ``v`` and ``s`` too) is kept exactly."""
    names = ["v", "s", *slots]
    values = dict(slots, v=v, s=s)
    text = _typo(frame.format(**{n: f"\x01{k}\x02" for k, n in enumerate(names)}), rng)
    for k, n in enumerate(names):
        text = text.replace(f"\x01{k}\x02", str(values[n]))
    return text


def _then(text: str, tail: str) -> str:
    """``text`` and the request appended to it, without a doubled full stop."""
    if tail.startswith(".") and text.rstrip().endswith((".", "!", "?")):
        tail = tail[1:]
    return text + tail


class _Planted(_Filler):
    """Mixin: the episodes that plant facts."""

    def extra(self, most: int) -> int:
        """Routine calls an episode adds around its fact: more in longer sessions, none when ``damp`` is high."""
        p = (0.15 if self.n < 300 else min(0.6, 0.1 + self.n / 2500)) / (1 + 2 * self.damp) if self.damp < 3 else 0.0
        return sum(self.rng.random() < p for _ in range(most))

    def ask_tail(self, k: int) -> tuple[str, str]:
        """A request appended to a message that says something else, and its kind (for the tool loop after)."""
        req = self.rng.choice(("build", "test", "launch", "topics", "review", "can", "bag", "investigate", "config"))
        if not k:
            return "", req
        ask = self.ask(req, react=False)
        return self.rng.choice(("\n\n", "\n", ". ", "\nそれと, ", "\nand ", ". Also: ")) + ask, req

    def user_ep(self, label: str, text: str, k: int, req: str, ack: str, echo: str | None,
                done: Callable[[int], None], reach: int = 8) -> _Plan:
        focus = dict(self.focus)  # what the request just drawn is about

        def emit() -> None:
            self.focus = focus
            i = self.user(text)
            gists = [s[3] for _i, s in self.go(self.steps_for(req, k) if k else [])]
            self.recent += gists
            parts = [self.rng.choice(ACKS[ack])]
            if echo and 1 + 2 * k <= reach and self.rng.random() < 0.75:
                parts.append(echo)
            if gists:
                parts.append(self.answer(gists))
            self.say(" ".join(parts))
            done(i)
        return _Plan(2 + 2 * k, emit, label=label)

    def tool_ep(self, label: str, ask: str, req: str, pre: int, carrier: Callable[[], Step],
                post: Callable[[], list[Callable[[], Step]]], npost: int, final: Callable[[int, int], str],
                done: Callable[[int, list[int]], None]) -> _Plan:
        """user, ``pre`` routine calls, the carrier call, ``npost`` calls after it, an answer."""
        focus = dict(self.focus)

        def emit() -> None:
            self.focus = focus
            self.user(ask)
            self.go(self.steps_for(req, pre) if pre else [])
            step = carrier()
            at = self.run([step], self.note(step[0]))[0]
            later = [i for i, _s in self.go(post())]
            self.say(final(at, len(self.msgs) - at))
            done(at, later)
        return _Plan(4 + 2 * (pre + npost), emit, label=label)

    def record(self, kind: str, value: str, query: str, **more: object) -> Callable[[int], None]:
        def done(i: int) -> None:
            link = more.get("link")
            stale_index = link.index if isinstance(link, _Link) else None
            self.facts.append(Fact(kind, value, i, query, stale=more.get("stale"), stale_index=stale_index))  # type: ignore[arg-type]
        return done

    # instructions ----------------------------------------------------------------------------------------------
    def p_instruction(self, style: str) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        want = "plain" if style == "mid" else style
        pool = [t for t in INSTRUCTIONS if t[0] == want and t[1] not in self.templates]
        if not pool:
            pool = [t for t in INSTRUCTIONS if t[0] not in ("adopted", "plain") and t[1] not in self.templates]
        tpl = rng.choice(pool)
        self.templates.add(tpl[1])
        value = self.draw(lambda: tpl[1].format(**{p: rng.choice(c) for p, c in tpl[2].items()}))
        k = self.extra(3)
        tail, req = self.ask_tail(k)
        pre: list[tuple[_Plan, int]] = []
        if tpl[0] == "adopted":
            pre.append((self.p_paste("memo"), rng.randint(4, 24)))
            text = _then(_fill(rng.choice(ADOPT_FRAMES), rng, v=value, ign=rng.choice(IGNORED)), tail)
        elif tpl[0] == "plain":
            text = (rng.choice(MID_OPENERS) + "\n\n" + rng.choice(MID_LEADS) + " " + value + ". " + rng.choice(MID_FOLLOWS)
                    + ("\n\n" + tail.lstrip(" .\n") if tail else ""))
        else:
            text = _then(_fill(rng.choice(tpl[3]), rng, v=value), tail)
        echo = rng.choice((f"Rule noted: {value}.", f"I'll keep “{value}” in mind.", f"So: {value}. Understood.", f"(“{value}”, got it.)"))
        plan = self.user_ep("instruction", text, k, req, "instruction", echo, self.record("instruction", value, tpl[4]))
        return plan, pre

    # decisions -------------------------------------------------------------------------------------------------
    def p_decision(self, revised: bool) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        topic = rng.choice([t for t in DECISIONS if t[0] not in self.templates and all(self.clear(o) for o in t[3])])
        self.templates.add(topic[0])
        _key, en, ja, options = topic
        opts = rng.sample(options, 2)
        value = self.draw(lambda: opts[1] if revised else opts[0])
        pre: list[tuple[_Plan, int]] = []
        slots = {"en": en, "ja": ja}
        if revised:
            old = self.draw(lambda: opts[0])
            link = _Link()
            k0 = self.extra(2)
            tail0, req0 = self.ask_tail(k0)
            first = _then(_fill(rng.choice(DECIDE_FRAMES), rng, v=old, why=rng.choice(WHYS), **slots), tail0)

            def mark(i: int, link: _Link = link) -> None:
                link.index = i
            pre.append((self.user_ep("first", first, k0, req0, "decision", f"{old} it is.", mark, reach=12), rng.randint(15, 220)))
        k = self.extra(3)
        tail, req = self.ask_tail(k)
        if revised:
            text = _then(_fill(rng.choice(REVISE_FRAMES), rng, v=value, old=old, why=rng.choice(WHYS), **slots), tail)
            done = self.record("decision", value, f"Which {en} did the user settle on after changing their mind?", stale=old, link=link)
        else:
            text = _then(_fill(rng.choice(DECIDE_FRAMES), rng, v=value, why=rng.choice(WHYS), **slots), tail)
            done = self.record("decision", value, f"Which {en} did the user choose?")
        echo = rng.choice((f"{value} it is.", f"Going with {value}.", f"OK, {value}."))
        return self.user_ep("decision", text, k, req, "decision", echo, done), pre

    # plans -----------------------------------------------------------------------------------------------------
    def p_plan(self) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        frame = rng.choice(PLAN_FRAMES)
        first = str(self.unique("plan", TASKS))

        def make() -> str:
            b, c, d = rng.sample([t for t in TASKS if t != first], 3)
            return frame.format(a=first, b=b, c=c, d=d)
        value = self.draw(make)
        k = self.extra(3)
        tail, req = self.ask_tail(k)
        intro = "" if ":" in value[:8] else rng.choice(PLAN_INTROS)
        text = _then(" ".join(x for x in (intro, value + ".", rng.choice(PLAN_OUTROS)) if x), tail)
        query = f"In what order did the user want to do the batch of work that starts with “{first}”?"
        return self.user_ep("plan", text, k, req, "plan", None, self.record("plan", value, query)), []

    # corrections -----------------------------------------------------------------------------------------------
    def correction_pair(self, family: str) -> tuple[str, str, dict[str, str]]:
        """(stale, value, prose slots) for one correction family, both fresh."""
        rng = self.rng
        for _ in range(200):
            slots: dict[str, str] = {}
            if family == "robot":
                a, b = rng.sample(F_ROBOT_DIGITS, 2)
                stale, value = f"amr-0{a}", f"amr-0{b}"
            elif family == "port":
                n = rng.randint(0, 8)
                m = n + 1 if n == 0 or rng.random() < 0.6 else n - 1
                stale, value = f"/dev/ttyUSB{n}", f"/dev/ttyUSB{m}"
                slots["o"] = f"USB{n}"
            elif family == "speed":
                n, d = rng.randint(2, 9), rng.choice("05")
                m, e = (n, "5" if d == "0" else "0") if rng.random() < 0.3 else (min(9, max(2, n + rng.choice((-2, -1, 1, 2)))), d)
                stale, value = f"0.{n}{d} m/s", f"0.{m}{e} m/s"
                slots["o"] = f"0.{n}{d}"
            elif family == "rack":
                n, m = rng.randint(10, 30), rng.randint(1, 15)
                stale, value = f"R-{n}-{m:02d}", f"R-{n}-{m + rng.randint(1, 4):02d}"
            elif family == "bagstamp":
                day, hour, minute = rng.randint(1, 9), rng.randint(8, 22), rng.randint(10, 50)
                stale = f"dc2_run_120{day}_{hour:02d}{minute:02d}"
                value = f"dc2_run_120{day}_{hour:02d}{minute + rng.randint(1, 9):02d}"
            elif family == "serial":
                digits = [str(rng.randint(0, 9)) for _ in range(4)]
                while digits[1] == digits[2]:
                    digits[2] = str(rng.randint(0, 9))
                swapped = [digits[0], digits[2], digits[1], digits[3]]
                head = f"BR48-{rng.randint(21, 24)}{rng.randint(1, 12):02d}"
                stale, value = f"{head}-{''.join(digits)}", f"{head}-{''.join(swapped)}"
            else:
                pool = {"node": F_NODES, "bag": F_BAGS, "nick": F_NICKS}[family]
                stale, value = rng.sample(pool, 2)
                if family == "bag":
                    stale, value = f"{stale}_{rng.randint(1, 9):02d}", f"{value}_{rng.randint(1, 9):02d}"
            slots.setdefault("o", stale)
            if stale not in value and value not in stale and self.clear(stale) and self.clear(value):
                self.fresh(stale)
                self.fresh(value)
                return stale, value, slots
        raise RuntimeError("no fresh correction")  # pragma: no cover

    def p_correction(self, family: str, far: bool) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        _near, contexts, stale_frames, frames, query = CORRECTIONS[family]
        unused = [c for c in contexts if f"{family}:{c[1]}" not in self.templates] or list(contexts)
        c, ce = rng.choice(unused)
        self.templates.add(f"{family}:{ce}")
        stale, value, slots = self.correction_pair(family)
        slots = {"c": c, "ce": ce, **slots}
        link = _Link()
        k0 = self.extra(2)
        tail0, req0 = self.ask_tail(k0)
        said = _then(_fill(rng.choice(stale_frames), rng, s=stale, **slots), tail0)

        def mark(i: int) -> None:
            link.index = i
        echo0 = rng.choice((f"{stale}, noted.", f"OK, {stale}.", None))
        pre = self.user_ep("stale", said, k0, req0, "stale", echo0, mark, reach=12)
        k = self.extra(3)
        tail, req = self.ask_tail(k)
        lead = str(self.unique("far", FAR_PREFIX)) if far else ""
        text = _then((lead + " " if lead else "") + _fill(rng.choice(frames), rng, v=value, **slots), tail)
        echo = rng.choice((f"Using {value} from now on.", f"{value}, got it.", f"So it's {value}."))
        done = self.record("correction", value, query.format(**slots), stale=stale, link=link)
        distance = rng.randint(110, 420) if far else rng.randint(6, 60)
        return self.user_ep("correction", text, k, req, "correction", echo, done), [(pre, distance)]

    # identifiers -----------------------------------------------------------------------------------------------
    def p_identifier(self, carrier: str) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        if carrier == "user":
            family = rng.choice([f for f in IDENT_USER if f not in self.templates] or list(IDENT_USER))
            self.templates.add(family)
            make = {"rma": lambda: f"RMA-24{rng.randint(10, 12)}-{rng.randint(1000, 9999)}", "ticket": lambda: f"HRL-{rng.randint(1000, 9999)}",
                    "issue": lambda: f"kaiyo_lidar_ros2#{rng.randint(230, 480)}",
                    "fw": lambda: f"BLD-FW {rng.randint(3, 4)}.{rng.randint(13, 19)}.{rng.randint(0, 9)}-b{rng.randint(1000, 9999)}",
                    "map": lambda: f"dc2_f2_202412{rng.randint(1, 20):02d}_v{rng.randint(2, 9)}", "asset": lambda: f"HRL-AT-{rng.randint(10000, 99999)}"}[family]
            value = self.draw(make)
            frames, query = IDENT_USER[family]
            k = self.extra(3)
            tail, req = self.ask_tail(k)
            text = _then(_fill(rng.choice(frames), rng, v=value), tail)
            echo = rng.choice((f"{value}, noted.", f"Got {value}.", None))
            return self.user_ep("identifier", text, k, req, "identifier", echo, self.record("identifier", value, query)), []
        family = str(self.unique("ident-tool", IDENT_TOOL))
        pre, npost = self.extra(2), self.extra(2)
        robot = str(self.unique("ident-robot", ROBOTS))
        self.focus = {"robot": robot, "file": rng.choice(CODE_FILES)}
        if family == "digest":
            value = self.draw(lambda: "sha256:" + _hex(rng, 64))
            ask = _fill(rng.choice(("rebuild the dev image, I changed the Dockerfile", "Dockerfile 更新したので image 作り直して",
                                    "docker image を作り直して, {r} に入れるやつ")), rng, r=robot)
            query = f"What image ID did the dev image build for {robot} write?"

            def carrier_step() -> Step:
                return "bash", {"command": "docker build -f docker/Dockerfile.dev -t yodogawa/amr-dev:humble ."}, docker_build(rng, self.budget(), value), ""
            req, after = "docker", "git"
        elif family == "recbag":
            d, h, m, s = rng.randint(4, 9), rng.randint(8, 21), rng.randint(0, 59), rng.randint(0, 59)
            value = self.draw(lambda: f"rosbag2_2024_12_{d:02d}-{h:02d}_{m:02d}_{s + rng.randint(0, 0):02d}")
            ask = _fill(rng.choice(("record a bag on {r} while it does the aisle loop", "{r} で bag 録って, aisle loop の間",
                                    "start recording on {r}, scan odom tf")), rng, r=robot)
            query = f"What is the name of the bag the agent recorded on {robot}?"

            def carrier_step() -> Step:
                clock = self.clock
                lines = [f"[INFO] [{clock.tick()}] [rosbag2_recorder]: Press SPACE for pausing/resuming",
                         f"[INFO] [{clock.tick()}] [rosbag2_storage]: Opened database '/data/bags/{value}/{value}_0.db3' for READ_WRITE.",
                         f"[INFO] [{clock.tick()}] [rosbag2_recorder]: Listening for topics...",
                         f"[INFO] [{clock.tick()}] [rosbag2_recorder]: Event publisher thread: Starting"]
                lines += [f"[INFO] [{clock.tick(0.01)}] [rosbag2_recorder]: Subscribed to topic '{t}'" for t, _typ, _hz in BAG_TOPICS]
                lines += [f"[INFO] [{clock.tick()}] [rosbag2_recorder]: Recording..."]
                body = _lines_to(self.budget(), lines, lambda: f"[scenario_runner-4] [INFO] [{clock.tick(2.0)}] [scenario_runner]: "
                                 f"goal {rng.randint(1, 12)} reached in {rng.uniform(8, 90):.1f} s",
                                 lambda: [f"[INFO] [{clock.tick()}] [rosbag2_cpp]: Writing remaining messages from cache to the bag. It may take a while",
                                          f"[INFO] [{clock.tick()}] [rosbag2_recorder]: Event publisher thread: Exiting",
                                          f"[INFO] [{clock.tick()}] [rosbag2_recorder]: Recording stopped"])
                return "rosbag", {"action": "record", "robot": robot, "topics": ["/scan", "/odom", "/tf", "/tf_static", "/amcl_pose"], "output_dir": "/data/bags"}, body, ""
            req, after = "launch", "bag"
        elif family == "serial":
            value = self.draw(lambda: f"KLX16-23{rng.randint(10, 52)}-{rng.randint(10000, 99999)}")
            ask = _fill(rng.choice(("I swapped the lidar on {r}, check udev sees the new one", "{r} の lidar 交換した. udev 確認して",
                                    "new lidar on {r}, what serial does it report?")), rng, r=robot)
            query = f"What serial number does the replacement lidar on {robot} report?"

            def carrier_step() -> Step:
                return "bash", {"command": "udevadm info -q all -n /dev/kaiyo_lidar"}, udevadm(rng, value), ""
            req, after = "dmesg", "launch"
        else:
            value = self.draw(lambda: _hex(rng, 9))
            branch = str(self.unique("ident-branch", ("fix/lidar-resync", "feature/zone-table", "sat/amagasaki", "fix/can-heartbeat", "feature/dock-abort")))
            ask = _fill(rng.choice(("commit that on {b}", "{b} にコミットして", "ok commit it, branch {b}")), rng, b=branch)
            query = f"What commit hash did the agent's commit on {branch} get?"

            def carrier_step() -> Step:
                return "bash", {"command": f"git add -A && git commit -m \"{rng.choice(GIT_SUBJECTS)}\""}, git_out(rng, 0, "commit", (value, branch)), ""
            req, after = "format", "git"

        def post() -> list[Callable[[], Step]]:
            return self.steps_for(after, npost) if npost else []

        def final(at: int, dist: int) -> str:
            say = rng.choice(("Done, it's in the output above.", "There it is.", "OK, that's the one.", "Done."))
            if dist <= 8 and rng.random() < 0.7:
                say += " " + rng.choice((f"The id is {value}.", f"For your notes: {value}.", f"It's {value}."))
            return say

        def done(at: int, _later: list[int]) -> None:
            self.facts.append(Fact("identifier", value, at, query))
        return self.tool_ep("identifier", ask, req, pre, carrier_step, post, npost, final, done), []

    # files -----------------------------------------------------------------------------------------------------
    def p_file(self) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        kinds = list(FILE_KINDS)
        rng.shuffle(kinds)

        def paths(kind: str, stem: str) -> list[str]:
            return {"cpp": [f"src/amr_safety/src/{stem}.cpp", f"src/amr_base_controller/src/{stem}.cpp"],
                    "hpp": [f"src/amr_safety/include/amr_safety/{stem}.hpp", f"src/amr_base_controller/include/amr_base_controller/{stem}.hpp"],
                    "py": [f"src/amr_diagnostics/amr_diagnostics/{stem}.py", f"src/amr_docking/amr_docking/{stem}.py"],
                    "test": [f"src/amr_safety/test/test_{stem}.cpp", f"src/amr_base_controller/test/test_{stem}.cpp"],
                    "yaml": [f"src/amr_bringup/config/{stem}.yaml", f"src/amr_safety/config/{stem}.yaml"]}[kind]
        options: list[tuple[str, str]] = []
        kind = kinds[0]
        for kind in kinds:  # the first kind of file with a stem not used yet whose path is clear of every value
            options = [(st, pa) for st in F_FILE_STEMS[kind] if f"file:{kind}:{st}" not in self.templates
                       for pa in paths(kind, st) if self.clear(pa)]
            if options:
                break
        stem, path = rng.choice(options)
        self.fresh(path)
        self.templates.add(f"file:{kind}:{stem}")
        words = stem.replace("_", " ")
        words = {"test": f"unit test file for the {words}", "yaml": f"{words} config", "hpp": f"{words} header", "py": f"{words} node"}.get(kind, words)
        ask = _fill(rng.choice(FILE_ASKS), rng, w=words)
        pre, npost = self.extra(2), self.extra(2)

        def emit() -> None:
            self.user(ask)
            self.go(self.steps_for("review", pre) if pre else [])
            content = read_back(rng, path, rng.randint(1200, 6000))
            at = len(self.msgs)
            step: Step = ("write_file", {"path": path, "content": content}, f"File created successfully at: {path} ({len(content.encode()):,} bytes)", "")
            self.run([step], rng.choice((None, f"Creating {path.rsplit('/', 1)[-1]}.", "Writing it.", "New file:")))
            after = [st for _i, st in self.go(self.steps_for(rng.choice(("build", "test")), npost) if npost else [])]
            say = rng.choice(("Created.", "Done, new file in place.", "It's written.", "作成しました."))
            if len(self.msgs) - at <= 8 and rng.random() < 0.8:
                say += " " + rng.choice((f"It's at {path}.", f"See {path}.", f"Path: {path}."))
            if after:
                say += " " + self.answer([s[3] for s in after])
            self.say(say)
            self.facts.append(Fact("file", path, at, f"Which file did the agent create for the {words}?"))
        return _Plan(4 + 2 * (pre + npost), emit, label="file"), []

    # errors ----------------------------------------------------------------------------------------------------
    def error_line(self, family: str) -> tuple[Callable[[], str], str, str, Callable[[], Step], Callable[[], list[Callable[[], Step]]], str]:
        """(the value once its carrier ran, ask, query, the carrier step, fix steps, request kind). Most values are drawn
        here; those that carry a log time are drawn when their log is written, from the line before them."""
        rng = self.rng
        robot = str(self.unique(f"error-robot-{family}", ROBOTS))
        drawn: dict[str, str] = {}
        if family in ("compile", "link"):
            cls = str(self.unique("error-cls", tuple(CLASSES)))
            path = CLASSES[cls]
            pkg = path.split("/")[1]
            ns = cls.split("::")[0]
            exe = path.rsplit("/", 1)[-1][:-4]
            if family == "compile":
                typ = str(self.unique("error-type", F_TYPES))
                header = "".join("_" + ch.lower() if ch.isupper() and i else ch.lower() for i, ch in enumerate(typ))
                sig, call = rng.choice((("int&, double&", "node_id_, limit"), ("rclcpp::Node*, double&", "this, limit"),
                                        ("const std::string&, int", "frame_id_, 3"), ("uint8_t&, float", "node_id_, 0.5f")))
                ln, col, hl = rng.randint(40, 380), rng.randint(20, 48), rng.randint(20, 60)
                value = self.draw(lambda: f"{_src(path)}:{ln}:{col}: error: no matching function for call to ‘{ns}::{typ}::{typ}({sig})’")
                block = [f"{_src(path)}: In member function ‘void {cls}::configure()’:", value,
                         f"  {ln} |   {header}_ = std::make_unique<{typ}>({call});", "      |" + " " * col + "^",
                         f"In file included from {_src(path)}:14:",
                         f"{WS}/src/{pkg}/include/{pkg}/{header}.hpp:{hl}:12: note: candidate: ‘{ns}::{typ}::{typ}(rclcpp::Node*, double, uint16_t)’",
                         f"   {hl} |   explicit {typ}(rclcpp::Node * node, double limit, uint16_t mask);", "      |            ^~~~~~~~~~",
                         f"{WS}/src/{pkg}/include/{pkg}/{header}.hpp:{hl}:12: note:   candidate expects 3 arguments, 2 provided",
                         f"gmake[2]: *** [CMakeFiles/{pkg}_core.dir/build.make:{rng.randint(70, 160)}: CMakeFiles/{pkg}_core.dir/src/{exe}.cpp.o] Error 1",
                         f"gmake[1]: *** [CMakeFiles/Makefile2:{rng.randint(120, 260)}: CMakeFiles/{pkg}_core.dir/all] Error 2", "gmake: *** [Makefile:146: all] Error 2"]
                query = f"What exact compiler error did the build report in {path.rsplit('/', 1)[-1]}?"
            else:
                sym = str(self.unique("error-sym", F_SYMBOLS))
                value = self.draw(lambda: f"/usr/bin/ld: {_src(path)}:{rng.randint(30, 400)}: undefined reference to `{ns}::{sym}'")
                block = [f"/usr/bin/ld: CMakeFiles/{exe}_node.dir/src/{exe}.cpp.o: in function `{cls}::onTimer()':", value,
                         "collect2: error: ld returned 1 exit status",
                         f"gmake[2]: *** [CMakeFiles/{exe}_node.dir/build.make:{rng.randint(120, 200)}: {exe}_node] Error 1",
                         f"gmake[1]: *** [CMakeFiles/Makefile2:{rng.randint(120, 260)}: CMakeFiles/{exe}_node.dir/all] Error 2", "gmake: *** [Makefile:146: all] Error 2"]
                query = f"Which undefined reference did the linker report for {exe}?"
            self.focus = {"pkg": pkg, "file": path, "robot": robot}
            args = ["build", "--symlink-install", "--packages-select", pkg, "--event-handlers", "console_direct+"]
            return (lambda: value, self.ask("build", cls=cls), query,
                    lambda: ("colcon", {"args": args}, colcon_build(rng, self.budget(), (pkg,), fail=(pkg, block)), ""),
                    lambda: [lambda: self.s_edit(path), lambda: self.s_build((pkg,))], "build")
        if family == "gtest":
            pkg = str(self.unique("error-gtest", CPP_PKGS))
            name = self.draw(lambda: f"{rng.choice(F_TESTS)}Test.{rng.choice(F_CASES)}")
            ms = rng.randint(0, 40)
            value = f"5: [  FAILED  ] {name} ({ms} ms)"
            self.fresh(value)
            detail = [f"{WS}/src/{pkg}/test/test_{pkg.split('_', 1)[-1]}.cpp:{rng.randint(30, 220)}: Failure",
                      "Expected equality of these values:", f"  {rng.choice(('gov.limit(Zone::kColdStore)', 'latch.state()', 'guard.allowed(cmd)', 'est.slip()'))}",
                      f"    Which is: {rng.choice(('0.5', '1', 'false', 'kSlow', '3'))}", f"  {rng.choice(('0.3', '0', 'true', 'kStop', '2'))}",
                      f"[  FAILED  ] {name} ({ms} ms)"]
            self.focus = {"pkg": pkg, "robot": robot, "file": rng.choice([f for f in CPP_FILES if f"/{pkg}/" in f])}
            return (lambda: value, self.ask("test"), f"Which gtest case failed in the {pkg} unit tests?",
                    lambda: ("colcon", {"args": ["test", "--packages-select", pkg, "--event-handlers", "console_direct+"]},
                             colcon_test(rng, self.budget(), pkg, failing=[(name, detail)]), ""),
                    lambda: [lambda: self.s_edit(self.focus["file"]), lambda: self.s_test(pkg)], "test")
        if family == "pytest":
            pkg = str(self.unique("error-pytest", PY_PKGS))
            mod = str(self.unique("error-pymod", F_PYMODS))
            value = self.draw(lambda: f"FAILED test/test_{mod}.py::test_{rng.choice(('threshold', 'timeout', 'recovers', 'publishes_status', 'rejects_stale'))} - "
                                      f"AssertionError: assert {rng.uniform(0.02, 0.9):.3f} < {rng.choice(('0.02', '0.05', '0.1', '0.25'))}")
            self.focus = {"pkg": pkg, "robot": robot, "file": rng.choice([f for f in PY_FILES if f"/{pkg}/" in f] or list(PY_FILES))}
            return (lambda: value, self.ask("test"), f"Which pytest failure did the {pkg} tests report for the {mod} module?",
                    lambda: ("colcon", {"args": ["test", "--packages-select", pkg, "--event-handlers", "console_direct+"]},
                             colcon_test(rng, self.budget(), pkg, pytest_fail=[value]), ""),
                    lambda: [lambda: self.s_edit(self.focus["file"]), lambda: self.s_test(pkg)], "test")
        if family in ("died", "tf"):
            launch = "navigation.launch.py" if family == "tf" else rng.choice(("robot.launch.py", "lidar.launch.py"))
            launch_args: dict[str, object] = {"args": ["launch", "amr_bringup", launch, f"robot:={robot}"], "timeout_s": 60}
            self.focus = {"robot": robot, "launch": launch,
                          "file": "src/amr_localization/config/amcl.yaml" if family == "tf" else "src/kaiyo_lidar_driver/src/scan_assembler.cpp"}
            fix = [lambda: self.s_edit(self.focus["file"]), lambda: self.s_launch(launch)]
            if family == "died":
                label, node, pkg, exe = rng.choice([p for p in PROCS[launch] if p[0] != "robot_state_publisher"])
                k = [p[0] for p in PROCS[launch]].index(label) + 1
                value = self.draw(lambda: f"[ERROR] [{label}-{k}]: process has died [pid {rng.randint(2100, 9900)}, exit code -11, cmd "
                                          f"'{WS}/install/{pkg}/lib/{pkg}/{exe} --ros-args -r __node:={node} --params-file /tmp/launch_params_"
                                          f"{''.join(rng.choice(ALPHA) for _ in range(8))}']")
                return (lambda: value, self.ask("launch"), f"Which process died, and how, when the {launch} stack was launched on {robot}?",
                        lambda: ("ros2", launch_args, ros2_launch(rng, self.clock, self.budget(), launch, robot, ending=[value]), ""), lambda: fix, "launch")

            def tf_line(t: float) -> str:
                return (f"[amcl-2] [WARN] [{t:.9f}] [amcl]: Failed to transform initial pose in time (Lookup would require extrapolation "
                        f"into the future.  Requested time {t - rng.uniform(0.001, 0.01):.6f} but the latest data is at time {t - rng.uniform(0.02, 0.09):.6f}, "
                        "when looking up transform from frame [base_footprint] to frame [odom])")

            def tf_carrier() -> Step:
                out = ros2_launch(rng, self.clock, self.budget(), launch, robot, [MARK])
                drawn["v"] = self.draw(lambda: tf_line(_stamp_before(out) + rng.uniform(0.001, 0.02)))
                return "ros2", launch_args, out.replace(MARK, drawn["v"]), ""
            return (lambda: drawn["v"], self.ask("launch"), f"Which tf error did amcl print when navigation was launched on {robot}?",
                    tf_carrier, lambda: fix, "launch")
        if family == "asan":
            driver = ("kaiyo_lidar_driver", "kaiyo_lidar_node")
            pid = rng.randint(3000, 9999)
            value = self.draw(lambda: f"=={pid}==ERROR: AddressSanitizer: heap-use-after-free on address 0x60b0000{_hex(rng, 5)} at pc 0x55{_hex(rng, 10)} "
                                      f"bp 0x7ffd{_hex(rng, 8)} sp 0x7ffd{_hex(rng, 8)}")
            self.focus = {"robot": robot, "file": "src/kaiyo_lidar_driver/src/scan_assembler.cpp", "pkg": "kaiyo_lidar_driver"}

            def run_asan(v: str | None) -> Step:
                return "bash", {"command": f"ASAN_OPTIONS=detect_leaks=0 install/{driver[0]}/lib/{driver[0]}/{driver[1]} --ros-args -p use_sim_time:=false"}, \
                    asan_report(rng, self.clock, self.budget(), driver, v), "the sanitized lidar driver runs clean now"
            return (lambda: value, _fill(rng.choice(("run the lidar driver with the ASan build", "ASan ビルドで lidar driver 走らせて",
                                                     "sanitizer run of kaiyo_lidar_node pls")), rng),
                    f"What did AddressSanitizer report when the lidar driver ran on {robot}?", lambda: run_asan(value),
                    lambda: [lambda: self.s_edit("src/kaiyo_lidar_driver/src/scan_assembler.cpp"), lambda: run_asan(None)], "memcheck")
        world = str(self.unique("error-world", WORLDS))
        scenario = rng.choice(SCENARIOS)
        self.focus = {"world": world, "scenario": scenario, "robot": robot, "file": "src/amr_gazebo/launch/sim.launch.py"}

        def spawn_carrier() -> Step:
            tail = [MARK, f"[ERROR] [spawn_entity.py-3]: process has died [pid {rng.randint(2000, 9900)}, exit code 1, cmd "
                          "'/opt/ros/humble/lib/gazebo_ros/spawn_entity.py -entity amr -topic robot_description --ros-args']."]
            out = gazebo_log(rng, self.clock, min(self.budget(), 4000), world, scenario, tail=tail)
            t = _stamp_before(out) + rng.uniform(30, 31)  # spawn_entity gives up after 30 s
            drawn["v"] = self.draw(lambda: f"[spawn_entity.py-3] [ERROR] [{t:.9f}] [spawn_entity]: Service /spawn_entity unavailable. "
                                           "Was Gazebo started with GazeboRosFactory?")
            return "sim", {"world": world, "scenario": scenario, "headless": True, "timeout_min": 10}, out.replace(MARK, drawn["v"]), ""
        return (lambda: drawn["v"], self.ask("sim"), f"What error stopped the robot from spawning in {world}?", spawn_carrier,
                lambda: [lambda: self.s_bash("docker"), lambda: self.s_sim()], "sim")

    def p_error(self, family: str, resolved: bool) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        value_of, ask, query, carrier, fix, req = self.error_line(family)
        pre = self.extra(2)
        npost = 2 + self.extra(1) if resolved else self.extra(1)

        def post() -> list[Callable[[], Step]]:
            if not resolved:
                return self.steps_for("review", npost) if npost else []
            return [self.s_read] * (npost - 2) + fix()

        def final(at: int, dist: int) -> str:
            if resolved:
                say = rng.choice(("Fixed: the rerun is clean.", "That error is gone after the edit; the rerun is clean.", "Edited and re-ran, it passes now.",
                                  "直りました, the second run no longer shows it."))
            else:
                say = rng.choice(("That's a real error. I haven't touched it; fix it now or park it?", "It fails, see the error above. Want me to dig in, or is it for later?",
                                  "落ちてます. I left it as is for now, tell me if you want it fixed today."))
            if dist <= 8 and rng.random() < 0.5:
                say += f"\n\n```\n{value_of()}\n```"
            return say

        def done(at: int, later: list[int]) -> None:
            self.facts.append(Fact("error", value_of(), at, query, resolved=later[-1] if resolved else None))
        return self.tool_ep("error", ask, req, pre, carrier, post, npost, final, done), []

    # findings --------------------------------------------------------------------------------------------------
    def p_finding(self, family: str) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        robot = str(self.unique(f"finding-robot-{family}", ROBOTS))
        clock = self.clock
        if family == "rate":
            topic = str(self.unique("finding-topic", ("/scan", "/odom", "/imu/data", "/joint_states", "/can/motor_status")))
            value = self.draw(lambda: f"average rate: {rng.uniform(3.0, 8.9):.3f}")
            rate = float(value.rsplit(" ", 1)[-1])
            ask = _fill(rng.choice(("{t} の hz 見て, {r}", "check the rate of {t} on {r}", "is {t} on {r} publishing at full rate?")), rng, t=topic, r=robot)
            query = f"What rate did {topic} publish at on {robot}?"

            def carrier() -> Step:
                return "ros2", {"args": ["topic", "hz", topic, "--window", "50"], "robot": robot}, topic_hz(rng, self.budget(), topic, rate, value, self.values), ""
            point = ("That's way below nominal; the average lines say it all.", "The rate is the culprit, it should be several times that.",
                     "Look at the average lines: half the expected rate or worse.")
            req, after = "topics", "investigate"
        elif family == "loc":
            value = self.draw(lambda: f"{rng.uniform(6.0, 39.9):.1f} cm")
            world = str(self.unique("finding-world", WORLDS))
            scenario = rng.choice(SCENARIOS)
            ask = _fill(rng.choice(("run {s} in {w} and measure the localization error", "sim で {s} 回して, 自己位置の誤差見て",
                                    "how far off is amcl in {w}? run {s}")), rng, s=scenario, w=world)
            query = f"What mean localization error did the simulation in {world} measure?"
            poses, share = rng.randint(800, 4000), rng.randint(5, 40)

            def carrier() -> Step:
                out = gazebo_log(rng, clock, self.budget(), world, scenario, [MARK])
                line = (f"[loc_eval-5] [INFO] [{_stamp_before(out) + rng.uniform(0.001, 0.3):.9f}] [loc_eval]: mean translational error {value} "
                        f"over {poses} poses (ground truth from gazebo, {share} % of poses within the 5 cm target)")
                return "sim", {"world": world, "scenario": scenario, "headless": True, "timeout_min": 10, "eval": "localization"}, out.replace(MARK, line), ""
            point = ("That mean error line is the problem; the goals themselves are reached.", "The localization error is the culprit, not the controller.",
                     "See the loc_eval line: that's far off.")
            req, after = "sim", "params"
        elif family == "load":
            value = self.draw(lambda: f"load average: {rng.uniform(6, 12):.2f}, {rng.uniform(5, 10):.2f}, {rng.uniform(4, 8):.2f}")
            ask = _fill(rng.choice(("{r} feels sluggish, check the load", "{r} 重い? top 見て", "CPU on {r} pls")), rng, r=robot)
            query = f"What load average did top show on {robot}?"

            def carrier() -> Step:
                return "bash", {"command": "top -b -n 1 | head -n 30", "robot": robot}, top_snapshot(rng, value), ""
            point = ("The first line says it: that load is far past what the NUC has cores for.", "That's the culprit, the load is way too high.",
                     "Look at the load in the header; the controller server is at the top.")
            req, after = "load", "launch"
        elif family == "berr":
            value = self.draw(lambda: f"berr-counter tx {rng.randint(96, 255)} rx {rng.randint(96, 255)}")
            ask = _fill(rng.choice(("check can0 on {r}, the motors stuttered", "{r} の CAN 見て, モーターがカクついた", "CAN stats on {r}")), rng, r=robot)
            query = f"What bus error counters did can0 report on {robot}?"

            def carrier() -> Step:
                return "bash", {"command": "ip -details -statistics link show can0", "robot": robot}, can_stats(rng, value), ""
            point = ("The error counters are the culprit: the controller is error-passive.", "That counter line is the problem, the bus is close to bus-off.",
                     "Look at the state line: error-passive, and those counters.")
            req, after = "can", "can"
        elif family == "segv":
            node = str(self.unique("finding-segv", F_SEGV))
            launch = "robot.launch.py"
            value = f"{node}-{len(PROCS[launch]) + 1}"
            self.fresh(value)
            ask = _fill(rng.choice(("launch the perception bits on {r} too, with the new {n}", "{r} で robot.launch.py, 新しい {n} も一緒に",
                                    "bringup on {r} with {n} enabled")), rng, r=robot, n=node)
            query = f"Which process segfaulted when the bringup with the new node ran on {robot}?"
            died = (f"[ERROR] [{value}]: process has died [pid {rng.randint(2100, 9900)}, exit code -11, cmd "
                    f"'{WS}/install/amr_perception/lib/amr_perception/{node} --ros-args -r __node:={node}']")

            def carrier() -> Step:
                return "ros2", {"args": ["launch", "amr_bringup", launch, f"robot:={robot}", f"enable_{node}:=true"], "timeout_s": 60}, \
                    ros2_launch(rng, clock, self.budget(), launch, robot, extra=(node,), ending=[died]), ""
            point = ("That's the culprit: exit code -11, a segfault, right after it started.", "The process that died is the new one; the rest keep running.",
                     "See the ERROR line near the end: that one segfaults.")
            req, after = "launch", "memcheck"
        else:
            value = self.draw(lambda: f"definitely lost: {rng.randint(2, 96) * 512:,} bytes in {rng.randint(2, 64)} blocks")
            exe = rng.choice((("kaiyo_lidar_driver", "kaiyo_lidar_node"), ("amr_base_controller", "base_controller_node"), ("amr_safety", "safety_monitor_node")))
            ask = _fill(rng.choice(("run {e} under valgrind, memory grows on {r}", "{r} でメモリが増える. valgrind で {e} 見て", "valgrind {e} pls")), rng, e=exe[1], r=robot)
            query = f"How much memory did valgrind find definitely lost in {exe[1]} when its memory grew on {robot}?"

            def carrier() -> Step:
                return "bash", {"command": f"valgrind --leak-check=summary install/{exe[0]}/lib/{exe[0]}/{exe[1]}"}, valgrind(rng, clock, self.budget(), exe, value), ""
            point = ("The leak summary is the culprit: that's real, not DDS noise.", "Look at the first line of the leak summary.",
                     "That leak line is what grows on the robot.")
            req, after = "memcheck", "review"
        pre, npost = self.extra(2), self.extra(2)
        self.focus = dict(self.focus, robot=robot)

        def post() -> list[Callable[[], Step]]:
            return self.steps_for(after, npost) if npost else []

        def final(at: int, dist: int) -> str:
            say = rng.choice(point)
            if dist <= 8 and rng.random() < 0.5:
                say += " " + rng.choice((f"({value})", f"It reads {value}.", f"Number: {value}."))
            return say

        def done(at: int, _later: list[int]) -> None:
            self.facts.append(Fact("finding", value, at, query))
        return self.tool_ep("finding", ask, req, pre, carrier, post, npost, final, done), []

    # pastes ----------------------------------------------------------------------------------------------------
    def p_paste(self, kind: str) -> _Plan:
        rng = self.rng
        doc = PASTES[kind](rng)
        intro, outro = _typo(rng.choice(PASTE_INTROS[kind]), rng), rng.choice(PASTE_OUTROS)
        text = intro + "\n\n" + doc + ("\n\n" + outro if outro else "")
        k = self.extra(1) if kind in ("issue", "supplier") else 0

        def emit() -> None:
            i = self.user(text)
            self.pasted.append((i, doc))
            gists = [st[3] for _i, st in self.go(self.steps_for("can" if kind == "supplier" else "review", k) if k else [])]
            say = " ".join([rng.choice(ACKS["paste"]), rng.choice(PASTE_REPLIES[kind])] + ([self.answer(gists)] if gists else [])
                           + [rng.choice(("", "", "Tell me what you want to keep.", "Your call on all of it.", "I won't act on it unless you say so."))])
            self.say(say.strip())
        return _Plan(2 + 2 * k, emit, label="paste")


# --- the whole session -----------------------------------------------------------------------------------------

SYSTEM = (
    "You are a coding agent pairing with a robotics engineer at Yodogawa Robotics (Osaka) on the software of an autonomous "
    f"mobile robot for warehouses. The colcon workspace is {WS} (ROS 2 Humble, Ubuntu 22.04, a Docker dev image "
    "yodogawa/amr-dev:humble): C++ packages kaiyo_lidar_driver (the Kaiyo LX-16 lidar), amr_base_controller (two Brenner BLD-4820 "
    "motor controllers over CANopen on can0), amr_safety and amr_navigation; Python packages amr_localization, amr_docking, amr_teleop "
    "and amr_diagnostics; amr_description (URDF/xacro), amr_gazebo and amr_bringup (launch files and per-site parameters). Nav2 runs "
    "AMCL, the planner and controller servers, a velocity smoother and the collision monitor. The test fleet is amr-11 to amr-16; the "
    "customer site is Hanshin Reizō Logistics, Amagasaki DC2.\n\n"
    "Tools: read_file(path), write_file(path, content), edit_file(path, old_string, new_string), bash(command) on the dev machine or "
    "a robot, colcon(args) for builds and tests, ros2(args) for the ros2 CLI (launch, topic, param, doctor, run), rosbag(action, bag, ...) "
    "for info, play and record, and sim(world, scenario, ...) for headless Gazebo runs.\n\n"
    "Work in small steps, build after code changes, never move a real robot without the engineer's OK, and report what the tools "
    "said in your own words. The engineer writes in English and Japanese; answer in English unless asked otherwise."
)


class _Writer(_Planted):
    def build(self) -> Session:
        n, rng = self.n, self.rng
        each = per_kind(n)
        seq: list[str] = []
        for _ in range(each):
            r = list(KINDS)
            rng.shuffle(r)
            seq += r
        lead = max(2, math.ceil(0.03 * n))
        lead += lead == 3
        start, end = 1 + lead, math.floor(0.88 * n) + 1
        span = end - start
        xs = [(i + 0.5 + rng.uniform(-0.3, 0.3)) / len(seq) for i in range(len(seq))]

        styles = list(STYLES)
        rng.shuffle(styles)
        decisions = [i for i, k in enumerate(seq) if k == "decision"]
        revised = set(rng.sample(decisions[1:] or decisions, max(1, each // 3))) if each >= 2 else set()
        errors = [i for i, k in enumerate(seq) if k == "error"]
        resolved = set(rng.sample(errors, each // 2))
        corrections = [i for i, k in enumerate(seq) if k == "correction"]
        families = rng.sample(NEAR * 3, each - each // 3) + rng.sample(LOOSE * 3, each // 3)
        rng.shuffle(families)
        far_ok = [i for i in corrections if xs[i] * span >= 160]
        far = set(far_ok[1::2]) if len(far_ok) > 1 else set(far_ok)
        error_kinds = (list(ERROR_KINDS) * 2)[:each]
        finding_kinds = (list(FINDING_KINDS) * 2)[:each]
        rng.shuffle(error_kinds)
        rng.shuffle(finding_kinds)
        carrier_off = rng.randrange(2)

        events: list[_Plan] = []
        seen: dict[str, int] = {}
        for i, kind in enumerate(seq):
            o = seen[kind] = seen.get(kind, -1) + 1
            if kind == "instruction":
                plan, pres = self.p_instruction(styles[o % len(styles)])
            elif kind == "correction":
                plan, pres = self.p_correction(families[o], i in far)
            elif kind == "decision":
                plan, pres = self.p_decision(i in revised)
            elif kind == "plan":
                plan, pres = self.p_plan()
            elif kind == "identifier":
                plan, pres = self.p_identifier("user" if (o + carrier_off) % 2 == 0 else "tool")
            elif kind == "file":
                plan, pres = self.p_file()
            elif kind == "error":
                plan, pres = self.p_error(error_kinds[o], i in resolved)
            else:
                plan, pres = self.p_finding(finding_kinds[o])
            plan.x = xs[i]
            events.append(plan)
            for pre, distance in pres:
                pre.x = plan.x - distance / span
                if pre.x <= 0.002:
                    pre.x = plan.x * rng.uniform(0.2, 0.8)
                events.append(pre)
        kinds = list(PASTES)
        rng.shuffle(kinds)
        for j in range(max(1, min(6, n // 66)) + max(0, (n - 400) // 200)):
            paste = self.p_paste(kinds[j % len(kinds)])
            paste.x = rng.uniform(0.02, 0.98)
            events.append(paste)
        events.sort(key=lambda e: e.x)

        slack = span - sum(e.length for e in events)
        if slack < 0:
            raise _TooLong(n)
        gaps, used = [], 0
        for e in events:  # routine turns before each episode, so that it starts near its nominal position
            g = max(0, math.floor(slack * e.x) - used)
            g -= g in (1, 3)
            gaps.append(g)
            used += g

        self.add({"role": "system", "content": SYSTEM})
        self.emitting = True
        self.gap(lead)
        for e, g in zip(events, gaps):
            self.gap(g)
            at = len(self.msgs)
            e.emit()
            assert len(self.msgs) - at == e.length, (e.label, e.length, len(self.msgs) - at)
        self.gap(n - 1 - len(self.msgs))
        self.user(self.ask(rng.choice(tuple(ASKS))))
        facts = sorted(self.facts, key=lambda f: (f.index, f.kind))
        return Session(messages=self.msgs, facts=facts, seed=self.seed, pasted=self.pasted)


class _TooLong(Exception):
    """The planted episodes drawn do not fit; drawn again with fewer routine calls around them."""


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more) with ``per_kind(messages)`` facts of each kind."""
    if messages < SMALLEST:
        raise ValueError(f"a robotics session needs at least {SMALLEST} messages, not {messages}")
    for damp in range(4):
        try:
            return _Writer(seed, messages, damp).build()
        except _TooLong:
            continue
    raise RuntimeError(f"{messages} messages cannot hold the planted episodes")  # pragma: no cover

"""Long robotics sessions with planted facts, for the fidelity bench.

A robotics engineer at a warehouse-automation startup in Osaka works with their coding agent on a fleet of
autonomous mobile robots: ROS 2 Humble, C++ and Python nodes, colcon builds, gtest / launch_testing / pytest
runs, Nav2 and AMCL logs, rosbag2 recordings, CAN bus dumps, a Gazebo sim in Docker, the fleet manager's web
API, Grafana panels and motor-controller firmware. The user writes terse Japanese mixed with English and
pastes what others wrote (a lidar vendor's support reply, the safety officer's checklist, a customer's
incident report, a colleague's PR review, the team's Slack thread, a robot's crash log).

    from gen_robotics import make_session
    session = make_session(seed=1, messages=400)    # about 600k characters, six facts of each kind
    session = make_session(seed=1, messages=3000)   # about 4.8M characters, twelve of each kind
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "|", fact.query)
    for index, text in session.pasted:               # what the user pasted rather than wrote
        assert text in session.messages[index]["content"]

``session.messages`` is an OpenAI chat conversation: a system prompt, user turns, assistant turns whose
``tool_calls`` (shell, colcon, ros2, read_file, write_file, edit_file, git, fleet_api, grafana) are answered at
once by ``tool`` messages, and it ends on a user turn after an answer without calls. Most characters are tool
outputs: build logs, test runs, topic echoes, candump traces, JSON, Grafana tables, diffs and source files.

``session.facts`` are what a compacted context must keep: standing rules (some in Japanese, some adopted
from a pasted checklist), corrections of what the user said earlier (often near misses, often far away),
decisions (a third revise the user's own earlier choice), whole error lines (some fixed by a later run of
the same tool), files written, identifiers said or printed, findings and plans. A value occurs first in its
own message and afterwards only in the eight messages after it; the same seed and size give the same bytes.
"""

from __future__ import annotations

import functools
import json
import math
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "colcon", "ros2", "read_file", "write_file", "edit_file", "git", "fleet_api", "grafana")
MIN_MESSAGES = 60
AFTER = 8  # messages after a fact's own that may repeat its value

Out = Callable[[int], str]  # a filler tool output of about the size asked


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between and beyond."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return round(6 + 6 * (messages - 400) / 2600)


# --- filler pools (planted values never come from these) ------------------------------------------------------

ROBOTS = tuple(f"amr-{i:02d}" for i in range(1, 25))
PKGS = ("amr_nav", "amr_bringup", "amr_drivers", "amr_safety", "fleet_bridge", "amr_localization", "amr_msgs",
        "can_motor_driver", "amr_docking", "amr_sim")
FILLER_FILES = {
    "amr_nav": ("src/controller_node.cpp", "src/costmap_filter.cpp", "include/amr_nav/controller_node.hpp",
                "config/nav2_params.yaml", "test/test_costmap_filter.cpp"),
    "amr_bringup": ("launch/robot.launch.py", "launch/sim.launch.py", "config/robot.yaml"),
    "amr_drivers": ("src/lidar_driver.cpp", "src/imu_node.cpp", "config/lidar.yaml"),
    "amr_safety": ("src/safety_monitor.cpp", "amr_safety/field_switcher.py", "test/test_safety_monitor.cpp"),
    "fleet_bridge": ("fleet_bridge/bridge_node.py", "fleet_bridge/api_client.py", "test/test_api_client.py"),
    "amr_localization": ("src/amcl_watchdog.cpp", "config/amcl.yaml", "amr_localization/relocalize.py"),
    "amr_msgs": ("msg/RobotStatus.msg", "srv/SetZone.srv", "CMakeLists.txt"),
    "can_motor_driver": ("src/canopen_node.cpp", "src/motor_state.cpp", "config/motors.yaml"),
    "amr_docking": ("amr_docking/dock_server.py", "amr_docking/charger_iface.py", "test/test_dock_server.py"),
    "amr_sim": ("worlds/warehouse_b.sdf", "launch/gazebo.launch.py", "docker/compose.yaml"),
}
PEOPLE = ("Tanaka", "Sato", "Nakamura", "Ito", "Watanabe", "Yamamoto", "Kobayashi", "Priya", "Marco", "Jun", "Mori",
          "Hayashi")
TOPICS = ("/scan", "/odom", "/amcl_pose", "/cmd_vel", "/tf", "/diagnostics", "/plan", "/local_costmap/costmap",
          "/battery_state", "/joint_states", "/imu/data", "/initialpose")
NODES = ("amcl", "controller_server", "planner_server", "bt_navigator", "map_server", "lidar_driver",
         "canopen_node", "safety_monitor", "fleet_bridge", "dock_server", "robot_state_publisher", "velocity_smoother")
SUITES = ("CostmapFilter", "SafetyMonitor", "MotorState", "CanopenNode", "AmclWatchdog", "ControllerNode",
          "LidarDriver", "ZoneParser")
CASES = ("ClearsStaleObstacles", "HandlesEmptyScan", "RejectsNaN", "StopsOnEstop", "RampsDown", "ParsesHeartbeat",
         "KeepsLastGoodPose", "TimesOutAfterTwoCycles", "MapsSdoErrors", "IgnoresSelfHits", "RecoversAfterBusOff")
PYTESTS = ("test_api_client.py::test_retries_on_503", "test_api_client.py::test_mission_roundtrip",
           "test_dock_server.py::test_abort_on_low_current", "test_dock_server.py::test_ir_alignment",
           "test_relocalize.py::test_initialpose_published", "test_field_switcher.py::test_switch_on_speed",
           "test_launch.py::test_nodes_come_up", "test_bridge_node.py::test_status_forwarded")
FILLER_KEYS = ("max_vel_x", "min_vel_x", "acc_lim_x", "decel_lim_x", "xy_goal_tolerance", "yaw_goal_tolerance",
               "robot_radius", "resolution", "update_frequency", "publish_frequency", "laser_max_range",
               "min_particles", "max_particles", "alpha1", "alpha2", "z_hit", "z_rand", "sigma_hit", "scan_topic",
               "global_frame", "robot_base_frame", "odom_topic", "footprint_padding", "cost_scaling_factor")
KEY_VALUES = {"max_vel_x": ("0.8", "1.0", "1.2"), "min_vel_x": ("0.0", "-0.2"), "acc_lim_x": ("0.5", "0.8", "1.0"),
              "decel_lim_x": ("-0.8", "-1.2"), "xy_goal_tolerance": ("0.10", "0.15", "0.25"),
              "yaw_goal_tolerance": ("0.15", "0.25"), "robot_radius": ("0.38", "0.42"), "resolution": ("0.05",),
              "update_frequency": ("5.0", "10.0"), "publish_frequency": ("2.0", "5.0"), "laser_max_range": ("20.0", "25.0"),
              "min_particles": ("500", "800"), "max_particles": ("2000", "4000"), "alpha1": ("0.2", "0.15"),
              "alpha2": ("0.2", "0.1"), "z_hit": ("0.5", "0.95"), "z_rand": ("0.5", "0.05"), "sigma_hit": ("0.2",),
              "scan_topic": ("scan", "scan_filtered"), "global_frame": ("map", "odom"), "robot_base_frame": ("base_link",),
              "odom_topic": ("/odom", "/odometry/filtered"), "footprint_padding": ("0.01", "0.03"),
              "cost_scaling_factor": ("3.0", "5.0", "10.0")}
TOPIC_TYPES = {"/scan": "sensor_msgs/msg/LaserScan", "/odom": "nav_msgs/msg/Odometry",
               "/amcl_pose": "geometry_msgs/msg/PoseWithCovarianceStamped", "/cmd_vel": "geometry_msgs/msg/Twist",
               "/tf": "tf2_msgs/msg/TFMessage", "/diagnostics": "diagnostic_msgs/msg/DiagnosticArray",
               "/plan": "nav_msgs/msg/Path", "/local_costmap/costmap": "nav_msgs/msg/OccupancyGrid",
               "/battery_state": "sensor_msgs/msg/BatteryState", "/joint_states": "sensor_msgs/msg/JointState",
               "/imu/data": "sensor_msgs/msg/Imu", "/initialpose": "geometry_msgs/msg/PoseWithCovarianceStamped"}


def _kv(rng: random.Random) -> str:
    key = rng.choice(FILLER_KEYS)
    return f"{key}: {rng.choice(KEY_VALUES[key])}"


COMMIT_MSGS = ("nav: clamp lookahead when path is short", "safety: latch field switch for 200ms",
               "bringup: drop unused imu remap", "fleet_bridge: log mission ids at info", "docking: retry ir lock once",
               "drivers: handle lidar packet loss", "sim: bump gazebo world lighting", "can: decode emcy frames",
               "localization: publish covariance on reloc", "msgs: add zone field to RobotStatus",
               "ci: cache colcon build dir", "nav: fix costmap clearing on rotate", "chore: format launch files")
SHORT_USER = ("ok", "go", "ok go", "これでいい?", "うん", "続けて", "ちょっと待って", "looks fine", "next", "yes pls",
              "hmm ok", "sure", "やって", "ok, push it", "なるほど", "それで", "ok thx", "いいね", "了解", "k")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")

# --- planted pools (filler never says these) -----------------------------------------------------------------

P_HEADS = ("zone", "slip", "dock", "bag", "lift", "tote", "charge", "aisle", "estop", "shelf", "rack", "floor",
           "heartbeat", "caster", "bumper", "pallet")
P_TAILS = ("limiter", "estimator", "latch", "watchdog", "relay", "aligner", "pruner", "scheduler", "detector",
           "guard", "monitor", "checker", "arbiter", "tracker")
P_PEOPLE = ("Kaneshiro Aya", "Oshiro Ken", "Higa Mio", "Tamaki Ryo", "Chinen Sora", "Miyagi Rin", "Nakasone Yui",
            "Shimabukuro Tai", "Arakaki Nao", "Yonamine Kai")
P_FEATURES = ("tote_autolift", "blind_corner_slowdown", "aisle_overtake", "night_docking", "reverse_dock_v2",
              "dynamic_speed_zones", "shelf_nudge", "multi_robot_yield")
P_WORDS = ("kestrel", "tanuki", "sakura", "umeda", "namba", "kobe", "yodo", "tenma", "sumie", "hokko", "momo",
           "kuro")
P_SITES = ("sakai", "ibaraki", "suita", "kadoma", "toyonaka", "moriguchi")


def _hexs(rng: random.Random, n: int) -> str:
    return "%0*x" % (n, rng.getrandbits(4 * n))


def _alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(n))


def _ros_ts(rng: random.Random) -> str:
    return f"{rng.randint(1718000000, 1719999999)}.{rng.randint(0, 999999999):09d}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(8, 22):02d}:{rng.randint(0, 59):02d}"


def _swap_tail(digits: str) -> str:
    """A near miss: the last two digits swapped (or the last changed when they are equal)."""
    a, b = digits[-2], digits[-1]
    if a == b:
        return digits[:-1] + str((int(b) + 3) % 10)
    return digits[:-2] + b + a


class _Claims:
    """Planted strings, none inside another."""

    def __init__(self) -> None:
        self.taken: list[str] = []
        self.usage: dict[int, int] = {}  # template -> times drawn

    def take(self, *values: str) -> bool:
        fresh = list(values)
        for i, v in enumerate(fresh):
            others = self.taken + fresh[:i] + fresh[i + 1:]
            if any(v in t or t in v for t in others):
                return False
        self.taken.extend(fresh)
        return True


class _Mk:
    """Message factory: call ids, and tool messages whose filler output is sized later."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.count = 0
        self.pending: list[tuple[Message, Out, float]] = []

    def user(self, text: str) -> Message:
        return {"role": "user", "content": text}

    def say(self, text: str) -> Message:
        return {"role": "assistant", "content": text}

    def act(self, text: str, calls: list[tuple[str, dict[str, Any], str | Out]], weight: float = 1.0) -> list[Message]:
        """An assistant turn with calls and the tool messages answering them (an Out is sized at the end)."""
        ids = []
        for _ in calls:
            self.count += 1
            ids.append(f"call_{self.count:05d}{_hexs(self.rng, 12)}")
        head: Message = {"role": "assistant", "content": text, "tool_calls": [
            {"id": cid, "type": "function",
             "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
            for cid, (name, args, _out) in zip(ids, calls)]}
        msgs = [head]
        for cid, (name, _args, out) in zip(ids, calls):
            m: Message = {"role": "tool", "tool_call_id": cid, "name": name, "content": ""}
            if isinstance(out, str):
                m["content"] = out
            else:
                self.pending.append((m, out, weight))
            msgs.append(m)
        return msgs


# --- filler tool outputs ----------------------------------------------------------------------------------------

def _fill(size: int, head: list[str], make: Callable[[], str], tail: list[str] | None = None) -> str:
    out = list(head)
    tail = tail or []
    total = sum(len(x) + 1 for x in head) + sum(len(x) + 1 for x in tail)
    while total < size:
        line = make()
        out.append(line)
        total += len(line) + 1
    out.extend(tail)
    return "\n".join(out)


def _cpp_block(rng: random.Random) -> list[str]:
    member = rng.choice(("last_scan_stamp_", "last_odom_", "goal_handle_", "watchdog_timer_", "state_"))
    t = rng.choice(("0.25", "0.5", "1.0", "2.0"))
    blocks = [
        ["  auto now = this->get_clock()->now();",
         f"  if ((now - {member}).seconds() > {t}) {{",
         f'    RCLCPP_WARN_THROTTLE(get_logger(), *get_clock(), 2000, "{member} stale for %.2fs",',
         f"                         (now - {member}).seconds());",
         "    publishStop();", "    return;", "  }"],
        ["  std::lock_guard<std::mutex> lock(mutex_);",
         "  for (size_t i = 0; i < msg->ranges.size(); ++i) {",
         "    const float r = msg->ranges[i];",
         "    if (!std::isfinite(r) || r < msg->range_min) {", "      continue;", "    }",
         "    const double angle = msg->angle_min + i * msg->angle_increment;",
         "    points_.emplace_back(r * std::cos(angle), r * std::sin(angle));", "  }"],
        [f'  declare_parameter("{_kv(rng).replace(": ", chr(34) + ", ", 1)});',
         f'  sub_ = create_subscription<sensor_msgs::msg::LaserScan>("{rng.choice(TOPICS)}", rclcpp::SensorDataQoS(),',
         "    std::bind(&Node::onScan, this, std::placeholders::_1));",
         f"  timer_ = create_wall_timer(std::chrono::milliseconds({rng.choice((20, 50, 100, 200))}),",
         "    std::bind(&Node::onTimer, this));"],
        ["  if (frame.id == kEmcyBase + node_id_) {",
         "    const uint16_t code = frame.data[0] | (frame.data[1] << 8);",
         '    RCLCPP_ERROR(get_logger(), "EMCY from node %u: 0x%04X", node_id_, code);',
         "    state_ = MotorState::Fault;", "  }"],
        ["  geometry_msgs::msg::Twist cmd;",
         "  cmd.linear.x = std::clamp(v, -max_vel_x_, max_vel_x_);",
         "  cmd.angular.z = std::clamp(w, -max_vel_theta_, max_vel_theta_);",
         "  cmd_pub_->publish(cmd);"],
    ]
    return rng.choice(blocks)


def _py_block(rng: random.Random) -> list[str]:
    blocks = [
        ["    def _on_status(self, msg: RobotStatus) -> None:",
         "        self._last_status[msg.robot_id] = msg",
         "        if msg.battery_pct < self._low_battery:",
         "            self.get_logger().warn(f'{msg.robot_id} battery {msg.battery_pct:.0f}%')",
         "            self._request_dock(msg.robot_id)"],
        ["    async def _post(self, path: str, body: dict) -> dict:",
         "        for attempt in range(self._retries):",
         "            try:",
         "                r = await self._client.post(self._base + path, json=body, timeout=5.0)",
         "                r.raise_for_status()",
         "                return r.json()",
         "            except httpx.HTTPStatusError as exc:",
         "                self.get_logger().error(f'POST {path} failed: {exc.response.status_code}')",
         "                await asyncio.sleep(0.5 * 2 ** attempt)",
         "        raise FleetApiError(path)"],
        ["def generate_launch_description() -> LaunchDescription:",
         "    use_sim_time = LaunchConfiguration('use_sim_time', default='false')",
         "    return LaunchDescription([",
         f"        Node(package='{rng.choice(PKGS)}', executable='{rng.choice(NODES)}',",
         "             parameters=[params_file, {'use_sim_time': use_sim_time}], output='screen'),",
         "    ])"],
        ["    def test_roundtrip(self, client):",
         f"        mission = client.create(robot='{rng.choice(ROBOTS)}', goal=(12.4, 3.1))",
         "        assert mission['state'] == 'queued'",
         "        assert client.get(mission['id'])['robot'] == mission['robot']"],
    ]
    return rng.choice(blocks)


def _source(rng: random.Random, path: str, size: int) -> str:
    """A numbered source listing of about ``size`` characters (C++, Python or YAML by extension)."""
    start = rng.randint(1, 180)
    lines: list[str] = []
    total = 0
    while total < size:
        if path.endswith((".cpp", ".hpp")):
            chunk = _cpp_block(rng) + [""]
        elif path.endswith(".py"):
            chunk = _py_block(rng) + [""]
        else:
            chunk = [f"      {_kv(rng)}" for _ in range(rng.randint(3, 8))]
            chunk.insert(0, f"  {rng.choice(NODES)}:")
            chunk.insert(1, "    ros__parameters:")
        for line in chunk:
            s = f"{start + len(lines):5d}  {line}"
            lines.append(s)
            total += len(s) + 1
    return "\n".join(lines)


def _f_candump(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    iface = rng.choice(("can0", "can1"))
    t0 = rng.uniform(1000, 9000)

    def out(size: int) -> str:
        clock = [t0]

        def line() -> str:
            clock[0] += rng.uniform(0.0005, 0.02)
            cid = rng.choice(("181", "182", "281", "282", "701", "702", "081", "201", "202", "581", "601"))
            n = 1 if cid.startswith("7") else 8
            data = " ".join("%02X" % rng.randint(0, 255) for _ in range(n))
            return f" ({clock[0]:.6f})  {iface}  {cid}   [{n}]  {data}"
        return _fill(size, [], line)
    return "shell", {"command": f"candump -ta {iface} -n {rng.choice((200, 500, 1000))}"}, out


def _f_docker(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    def out(size: int) -> str:
        def line() -> str:
            r = rng.random()
            if r < 0.35:
                return (f"gazebo-1      | [Msg] [{rng.randint(10, 99)}.{rng.randint(0, 999):03d}] Loaded model "
                        f"[{rng.choice(('rack_a', 'rack_b', 'charger', 'tote', 'pallet'))}_{rng.randint(1, 40)}]")
            if r < 0.5:
                return (f"gazebo-1      | [Wrn] [SDFormat] XML Element[{rng.choice(('gravity', 'mu2', 'fdir1'))}], "
                        "child of element[surface], not defined in SDF. Copying[...] as children of [surface].")
            if r < 0.8:
                return (f"bridge-1      | [INFO] [{_ros_ts(rng)}] [ros_gz_bridge]: Creating GZ->ROS Bridge: "
                        f"[{rng.choice(TOPICS)} ({rng.choice(('sensor_msgs/msg/LaserScan', 'nav_msgs/msg/Odometry'))})]")
            return (f"nav-1         | [{rng.choice(NODES)}-{rng.randint(1, 12)}] [INFO] [{_ros_ts(rng)}] "
                    f"[{rng.choice(NODES)}]: {rng.choice(('Activating', 'Configuring', 'Creating bond', 'Managed nodes are active'))}")
        return _fill(size, [" Container sim-gazebo-1  Running", " Container sim-bridge-1  Running"], line)
    return "shell", {"command": "docker compose -f docker/compose.yaml logs --tail 300 gazebo bridge nav"}, out


def _f_journal(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    robot = rng.choice(ROBOTS)
    day = rng.randint(3, 28)

    def out(size: int) -> str:
        def line() -> str:
            svc = rng.choice(("bringup.sh", "can-up.service", "chrony", "NetworkManager", "docker"))
            msg = rng.choice((
                f"wlan0: roamed to {rng.choice(('ap-b2-03', 'ap-b2-07', 'ap-b1-11'))} rssi -{rng.randint(48, 79)}",
                f"[INFO] [{_ros_ts(rng)}] [{rng.choice(NODES)}]: heartbeat ok",
                f"System clock wrong by {rng.uniform(0.001, 0.2):.6f} seconds, adjusting",
                f"can0: bitrate 500000 sample-point {rng.choice(('0.875', '0.800'))}",
                f"container {_hexs(rng, 12)} health_status: healthy",
                "Started Robot bringup.",
            ))
            return f"Jun {day:02d} {_clock(rng)}:{rng.randint(0, 59):02d} {robot} {svc}[{rng.randint(300, 9000)}]: {msg}"
        return _fill(size, [f"-- Journal begins at Mon 2024-06-{max(1, day - 5):02d} 07:00:01 JST. --"], line)
    return "shell", {"command": f"ssh {robot} journalctl -u amr-bringup --since '{_clock(rng)}' --no-pager"}, out


def _f_grep(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    term = rng.choice(("RCLCPP_WARN", "declare_parameter", "get_logger().error", "SensorDataQoS", "TODO", "clamp("))

    def out(size: int) -> str:
        def line() -> str:
            pkg = rng.choice(PKGS)
            path = rng.choice(FILLER_FILES[pkg])
            return f"src/{pkg}/{path}:{rng.randint(12, 480)}:  {term} ... {rng.choice(('// checked', '', '// see #212', ''))}"
        return _fill(size, [], line)
    return "shell", {"command": f"grep -rn '{term}' src/ | head -80"}, out


def _f_bags(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    def out(size: int) -> str:
        def line() -> str:
            return (f"drwxr-xr-x 2 amr amr 4096 Jun {rng.randint(1, 28):2d} {_clock(rng)} "
                    f"rosbag2_2024_06_{rng.randint(1, 28):02d}-{rng.randint(8, 21):02d}_{rng.randint(0, 59):02d}_"
                    f"{rng.randint(0, 59):02d}   {rng.randint(120, 9800)}M")
        return _fill(size, ["total 0", "Filesystem      Size  Used Avail Use% Mounted on",
                            f"/dev/nvme0n1p2  916G  {rng.randint(300, 800)}G  {rng.randint(80, 500)}G  {rng.randint(40, 90)}% /"], line)
    return "shell", {"command": "ls -la /var/lib/amr/bags && df -h /"}, out


def _f_ping(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    host = f"192.168.40.{rng.randint(10, 60)}"

    def out(size: int) -> str:
        seq = [0]

        def line() -> str:
            seq[0] += 1
            return f"64 bytes from {host}: icmp_seq={seq[0]} ttl=64 time={rng.uniform(0.8, 40):.2f} ms"
        return _fill(size, [f"PING {host} ({host}) 56(84) bytes of data."], line,
                     [f"--- {host} ping statistics ---", f"rtt min/avg/max/mdev = 0.91/{rng.uniform(3, 9):.2f}/38.2/5.1 ms"])
    return "shell", {"command": f"ping -c 200 -i 0.2 {host}"}, out


def _f_build(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    sel = rng.sample(PKGS, rng.randint(2, 6))
    return "colcon", {"verb": "build", "args": ["--packages-up-to", *sel[:2], "--cmake-args", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"]}, \
        lambda size: _build_log(rng, size, sel)


def _build_log(rng: random.Random, size: int, sel: list[str], fail: list[str] | None = None) -> str:
    lines: list[str] = []
    total = 0
    i = 0
    while total < size or i < len(sel):
        pkg = sel[i % len(sel)]
        i += 1
        chunk = [f"Starting >>> {pkg}"]
        if rng.random() < 0.4:
            path = rng.choice(FILLER_FILES[pkg])
            chunk += [f"--- stderr: {pkg}",
                      f"/ws/src/{pkg}/{path}:{rng.randint(20, 400)}:{rng.randint(3, 40)}: warning: unused variable "
                      f"'{rng.choice(('dt', 'ok', 'idx', 'stamp', 'ret'))}' [-Wunused-variable]",
                      f"  {rng.randint(20, 400)} |   const auto {rng.choice(('dt', 'ok', 'idx'))} = now - last_;", "---"]
        chunk += [f"[Processing: {pkg}]" if rng.random() < 0.2 else f"[{rng.randint(1, 9)}.{rng.randint(0, 9)}s] {pkg}: "
                  f"{rng.randint(10, 99)}% built target {pkg}_{rng.choice(('node', 'lib', 'core', 'test'))}"]
        chunk.append(f"Finished <<< {pkg} [{rng.uniform(2, 95):.1f}s]")
        for s in chunk:
            lines.append(s)
            total += len(s) + 1
    if fail:
        at = rng.randint(0, len(lines))
        lines[at:at] = fail
    else:
        lines.append(f"\nSummary: {len(sel)} packages finished [{rng.randint(1, 6)}min {rng.randint(0, 59)}s]")
        lines.append(f"  {rng.randint(1, 5)} packages had stderr output: {' '.join(sel[:2])}")
    return "\n".join(lines)


def _test_log(rng: random.Random, size: int, extra: list[str] | None = None, failed: str | None = None) -> str:
    lines = [f"Starting >>> {rng.choice(PKGS)}", "[==========] Running tests from test suites."]
    total = 80
    runs = 0
    while total < size:
        suite, case = rng.choice(SUITES), rng.choice(CASES)
        if rng.random() < 0.65:
            chunk = [f"[ RUN      ] {suite}.{case}", f"[       OK ] {suite}.{case} ({rng.randint(0, 480)} ms)"]
        else:
            chunk = [f"test/{rng.choice(PYTESTS)} PASSED{' ' * rng.randint(1, 12)}[{rng.randint(1, 99):3d}%]"]
        runs += 1
        for s in chunk:
            lines.append(s)
            total += len(s) + 1
    if extra:
        at = rng.randint(2, len(lines))
        lines[at:at] = extra
    errors = 1 if failed else 0
    lines.append(f"Summary: {runs + 40} tests, 0 errors, {errors} failures, {rng.randint(0, 6)} skipped")
    return "\n".join(lines)


def _f_test(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    pkg = rng.choice(PKGS)
    return "colcon", {"verb": "test", "args": ["--packages-select", pkg, "--event-handlers", "console_direct+"]}, \
        lambda size: _test_log(rng, size)


def _f_results(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    def out(size: int) -> str:
        def line() -> str:
            pkg = rng.choice(PKGS)
            n = rng.randint(3, 60)
            return f"build/{pkg}/test_results/{pkg}/{rng.choice(('test_core', 'test_node', 'pytest', 'copyright', 'flake8', 'cppcheck'))}.xunit.xml: {n} tests, 0 errors, 0 failures, {rng.randint(0, 3)} skipped"
        return _fill(size, [], line, [f"\nSummary: {rng.randint(200, 900)} tests, 0 errors, 0 failures, {rng.randint(2, 20)} skipped"])
    return "colcon", {"verb": "test-result", "args": ["--all", "--verbose"]}, out


def _f_echo(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    topic = rng.choice(("/amcl_pose", "/odom", "/battery_state", "/diagnostics"))
    robot = rng.choice(ROBOTS)

    def out(size: int) -> str:
        def msg() -> str:
            head = f"header:\n  stamp:\n    sec: {rng.randint(1718000000, 1719999999)}\n    nanosec: {rng.randint(0, 999999999)}\n"
            if topic == "/battery_state":
                return (head + f"  frame_id: base_link\nvoltage: {rng.uniform(46, 53):.2f}\ncurrent: -{rng.uniform(2, 30):.2f}\n"
                        f"percentage: {rng.uniform(0.2, 1):.3f}\npower_supply_status: 2\n---")
            if topic == "/diagnostics":
                return (head + f"status:\n- level: \"\\0\"\n  name: '{rng.choice(NODES)}: {rng.choice(('heartbeat', 'rate', 'temperature'))}'\n"
                        f"  message: OK\n  hardware_id: {robot}\n  values:\n  - key: rate_hz\n    value: '{rng.uniform(9, 41):.1f}'\n---")
            return (head + f"  frame_id: {'map' if topic == '/amcl_pose' else 'odom'}\npose:\n  pose:\n    position:\n"
                    f"      x: {rng.uniform(-5, 60):.4f}\n      y: {rng.uniform(-5, 30):.4f}\n      z: 0.0\n    orientation:\n"
                    f"      z: {rng.uniform(-1, 1):.4f}\n      w: {rng.uniform(0, 1):.4f}\n  covariance: [{rng.uniform(0, 0.3):.4f}, 0.0, 0.0, "
                    f"0.0, 0.0, 0.0, 0.0, {rng.uniform(0, 0.3):.4f}, ...]\n---")
        return _fill(size, [], msg)
    return "ros2", {"command": f"topic echo {topic} --qos-reliability best_effort", "robot": robot}, out


def _f_nodes(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    node = rng.choice(NODES)

    def out(size: int) -> str:
        head = [f"/{node}", "  Subscribers:"] + [f"    {t}: {TOPIC_TYPES[t]}" for t in rng.sample(TOPICS, 3)]
        head += ["  Publishers:"] + [f"    {t}: {TOPIC_TYPES[t]}" for t in rng.sample(TOPICS, 3)]
        head += ["  Parameters:"]

        def line() -> str:
            return f"    {_kv(rng)}"
        return _fill(size, head, line)
    return "ros2", {"command": f"node info /{node} && ros2 param dump /{node}"}, out


def _f_hz(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    topic = rng.choice(("/scan", "/odom", "/tf", "/imu/data", "/local_costmap/costmap"))
    rate = rng.uniform(5, 45)

    def out(size: int) -> str:
        def line() -> str:
            r = rate * rng.uniform(0.93, 1.05)
            return (f"average rate: {r:.3f}\n\tmin: {1 / r * 0.8:.3f}s max: {1 / r * 1.7:.3f}s std dev: "
                    f"{rng.uniform(0.0005, 0.01):.5f}s window: {rng.randint(10, 600)}")
        return _fill(size, [], line)
    return "ros2", {"command": f"topic hz {topic} --window 600"}, out


def _f_baginfo(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    name = f"rosbag2_2024_06_{rng.randint(1, 28):02d}-{rng.randint(8, 21):02d}_{rng.randint(0, 59):02d}_{rng.randint(0, 59):02d}"

    def out(size: int) -> str:
        head = [f"Files:             {name}_0.db3", f"Bag size:          {rng.uniform(0.2, 9):.1f} GiB",
                "Storage id:        sqlite3", f"Duration:          {rng.uniform(60, 3000):.3f}s",
                f"Start:             Jun {rng.randint(1, 28)} 2024 {_clock(rng)}:{rng.randint(10, 59)}.{rng.randint(100, 999)}",
                f"Messages:          {rng.randint(10000, 900000)}", "Topic information:"]

        def line() -> str:
            t = rng.choice(TOPICS)
            return f"  Topic: {t} | Type: {TOPIC_TYPES[t]} | Count: {rng.randint(100, 90000)} | Serialization Format: cdr"
        return _fill(size, head, line)
    return "ros2", {"command": f"bag info /var/lib/amr/bags/{name}"}, out


def _nav_line(rng: random.Random) -> str:
    node = rng.choice(("amcl", "controller_server", "planner_server", "bt_navigator", "velocity_smoother"))
    lvl = rng.choices(("INFO", "WARN", "DEBUG"), (6, 2, 1))[0]
    msg = rng.choice((
        "Received a goal, begin computing control effort.",
        f"Passing new path to controller. Path length {rng.randint(12, 400)} poses",
        "Reached the goal!",
        f"Control loop missed its desired rate of {rng.choice(('20.0000', '10.0000'))}Hz",
        "Message Filter dropping message: frame 'laser' at time "
        f"{_ros_ts(rng)} for reason 'discarding message because the queue is full'",
        "initialPoseReceived",
        f"Setting pose ({_ros_ts(rng)}): {rng.uniform(0, 50):.3f} {rng.uniform(0, 30):.3f} {rng.uniform(-3, 3):.3f}",
        "Begin navigating from current location to "
        f"({rng.uniform(0, 50):.2f}, {rng.uniform(0, 30):.2f})",
        "Goal succeeded",
        f"Optimizer fail to compute path, trying to recover. Attempt {rng.randint(1, 3)}",
    ))
    return f"[{node}-{rng.randint(1, 14)}] [{lvl}] [{_ros_ts(rng)}] [{node}]: {msg}"


def _f_launch(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    robot = rng.choice(ROBOTS)
    return "ros2", {"command": "launch amr_bringup sim.launch.py headless:=true", "robot": robot, "timeout_s": 120}, \
        lambda size: _fill(size, ["[INFO] [launch]: All log files can be found below /home/amr/.ros/log/2024-06-"
                                  f"{rng.randint(1, 28):02d}-{_clock(rng).replace(':', '-')}-amr-sim-{rng.randint(1000, 9999)}",
                                  "[INFO] [launch]: Default logging verbosity is set to INFO"], lambda: _nav_line(rng))


def _f_read(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    pkg = rng.choice(PKGS)
    path = f"src/{pkg}/{rng.choice(FILLER_FILES[pkg])}"
    return "read_file", {"path": path}, lambda size: _source(rng, path, size)


def _f_gitlog(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    def out(size: int) -> str:
        def line() -> str:
            return (f"{_hexs(rng, 7)} {rng.choice(COMMIT_MSGS)} ({rng.choice(PEOPLE)}, {rng.randint(1, 30)} days ago)")
        return _fill(size, [], line)
    return "git", {"args": f"log --oneline --format='%h %s (%an, %ar)' -n {rng.choice((40, 80, 120))}"}, out


def _f_gitdiff(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    pkg = rng.choice(PKGS)
    path = f"src/{pkg}/{rng.choice(FILLER_FILES[pkg])}"

    def out(size: int) -> str:
        head = [f"diff --git a/{path} b/{path}", f"index {_hexs(rng, 7)}..{_hexs(rng, 7)} 100644", f"--- a/{path}", f"+++ b/{path}"]

        def hunk() -> str:
            at = rng.randint(10, 400)
            body = [f"@@ -{at},7 +{at},8 @@"]
            src = _cpp_block(rng) if path.endswith(("cpp", "hpp")) else _py_block(rng)
            for s in src:
                body.append(rng.choices((" ", "-", "+"), (6, 1, 2))[0] + s)
            return "\n".join(body)
        return _fill(size, head, hunk)
    return "git", {"args": f"diff HEAD~{rng.randint(1, 6)} -- {path}"}, out


def _f_gitstatus(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    def out(size: int) -> str:
        head = [f"On branch {rng.choice(('main', 'fix/amcl-watchdog', 'feat/dock-retry', 'wip/can-emcy'))}",
                "Your branch is up to date with 'origin/main'.", "", "Changes not staged for commit:"]

        def line() -> str:
            pkg = rng.choice(PKGS)
            return f"\tmodified:   src/{pkg}/{rng.choice(FILLER_FILES[pkg])}"
        return _fill(min(size, 2400), head, line, ["", "no changes added to commit (use \"git add\" and/or \"git commit -a\")"])
    return "git", {"args": "status"}, out


def _robot_json(rng: random.Random, robot: str) -> dict[str, Any]:
    return {"id": robot, "state": rng.choice(("idle", "executing", "charging", "error", "paused")),
            "battery_pct": rng.randint(12, 100), "pose": {"x": round(rng.uniform(0, 60), 2), "y": round(rng.uniform(0, 30), 2),
                                                          "map": "warehouse_b"},
            "firmware": {"main": f"2.{rng.randint(0, 9)}.{rng.randint(0, 20)}", "motor": f"1.{rng.randint(0, 9)}.{rng.randint(0, 9)}"},
            "last_seen": f"2024-06-{rng.randint(1, 28):02d}T{_clock(rng)}:{rng.randint(10, 59)}+09:00",
            "current_job": f"job-{rng.randint(40000, 49999)}" if rng.random() < 0.5 else None}


def _f_fleet(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    path = rng.choice(("/v2/robots", "/v2/jobs?state=failed&limit=50", "/v2/robots?site=osaka-b", "/v2/alerts?since=6h"))

    def out(size: int) -> str:
        items: list[dict[str, Any]] = []
        total = 40
        while total < size:
            if path.startswith("/v2/jobs"):
                item: dict[str, Any] = {"job": f"job-{rng.randint(40000, 49999)}", "robot": rng.choice(ROBOTS), "state": "failed",
                                        "reason": rng.choice(("NAV_TIMEOUT", "DOCK_ABORTED", "BLOCKED", "ESTOP", "LOCALIZATION_LOST")),
                                        "from": f"R{rng.randint(1, 40)}-{rng.randint(1, 9)}", "to": f"S{rng.randint(1, 12)}",
                                        "ended": f"2024-06-{rng.randint(1, 28):02d}T{_clock(rng)}:00+09:00"}
            elif path.startswith("/v2/alerts"):
                item = {"robot": rng.choice(ROBOTS), "severity": rng.choice(("warning", "critical", "info")),
                        "code": rng.choice(("BATT_LOW", "WIFI_ROAM", "MOTOR_TEMP", "LIDAR_DIRTY", "LOC_COV_HIGH")),
                        "at": f"{_clock(rng)}", "ack": rng.random() < 0.5}
            else:
                item = _robot_json(rng, rng.choice(ROBOTS))
            s = json.dumps(item)
            items.append(item)
            total += len(s) + 4
        return json.dumps({"status": 200, "data": items, "next": None}, indent=1)
    return "fleet_api", {"method": "GET", "path": path}, out


def _f_grafana(rng: random.Random) -> tuple[str, dict[str, Any], Out]:
    metric = rng.choice(("amr_cmd_vel_rate_hz", "amr_battery_voltage", "amr_motor_current_amps", "nav2_goal_duration_seconds",
                         "amr_wifi_rssi_dbm", "amr_cpu_temp_celsius", "amr_localization_covariance"))
    rng_h = rng.choice(("1h", "6h", "24h", "7d"))

    def out(size: int) -> str:
        head = [f"query: avg_over_time({metric}{{site=\"osaka-b\"}}[5m])   range: now-{rng_h}", "",
                "| time  | robot  | value   |", "|-------|--------|---------|"]

        def line() -> str:
            return f"| {_clock(rng)} | {rng.choice(ROBOTS)} | {rng.uniform(0, 100):7.2f} |"
        return _fill(size, head, line)
    return "grafana", {"query": f"avg_over_time({metric}[5m])", "range": rng_h, "dashboard": "AMR fleet overview"}, out


def _f_writefile(rng: random.Random) -> tuple[str, dict[str, Any], str]:
    pkg = rng.choice(PKGS)
    path = f"src/{pkg}/{rng.choice(FILLER_FILES[pkg])}"
    body = "\n".join(_cpp_block(rng) if path.endswith((".cpp", ".hpp")) else _py_block(rng))
    body = "\n\n".join([body] * rng.randint(2, 5))
    return "write_file", {"path": path, "content": body}, f"Wrote {len(body.encode())} bytes to {path}"


def _f_editfile(rng: random.Random) -> tuple[str, dict[str, Any], str]:
    pkg = rng.choice(PKGS)
    path = f"src/{pkg}/{rng.choice(FILLER_FILES[pkg])}"
    body = "\n".join(_cpp_block(rng) if path.endswith((".cpp", ".hpp")) else _py_block(rng))
    at = rng.randint(20, 300)
    return "edit_file", {"path": path, "old": body.splitlines()[0], "new": body}, \
        f"Applied 1 edit to {path} (lines {at}-{at + body.count(chr(10))})"


SHELL = (_f_candump, _f_docker, _f_journal, _f_grep, _f_bags, _f_ping)
FILLER_ACTIONS: dict[str, tuple[Callable[[random.Random], tuple[str, dict[str, Any], str | Out]], ...]] = {
    "shell": SHELL, "colcon": (_f_build, _f_test, _f_results),
    "ros2": (_f_echo, _f_nodes, _f_hz, _f_baginfo, _f_launch), "read_file": (_f_read,), "write_file": (_f_writefile,),
    "edit_file": (_f_editfile,), "git": (_f_gitlog, _f_gitdiff, _f_gitstatus), "fleet_api": (_f_fleet,),
    "grafana": (_f_grafana,),
}
TOOL_WEIGHTS = {"shell": 5, "colcon": 4, "ros2": 5, "read_file": 4, "write_file": 1, "edit_file": 1, "git": 2,
                "fleet_api": 2, "grafana": 2}


# --- pasted documents -----------------------------------------------------------------------------------------

def _doc_vendor(rng: random.Random) -> str:
    return (f"Subject: RE: [Case {rng.randint(200000, 299999)}] UST-20LX intermittent zero ranges\n\n"
            f"Dear customer,\n\nThank you for your patience. Our engineer reviewed the logs you sent on "
            f"{rng.randint(1, 28)} June. The zero-range packets correlate with window contamination above "
            f"{rng.randint(15, 40)}% and ambient temperature above 50 C.\n\n"
            "Please update the sensor to firmware 1.4.3 before further testing. Do not power-cycle the unit more than "
            "once per minute during the update. Please clean the optical window with the supplied cloth only; do not "
            f"use alcohol.\n\nIf the issue persists, please send the serial number and a 60 s capture at "
            f"{rng.choice((10, 20, 40))} Hz.\n\nBest regards,\n{rng.choice(('K. Morita', 'S. Endo'))}\nTechnical Support")


def _doc_safety(rng: random.Random) -> str:
    return ("AMR SAFETY CHECKLIST (ISO 3691-4 based) rev " + str(rng.randint(3, 9)) + "\n"
            "7.1  Verify the protective field switches with speed. Do not disable field switching for tests.\n"
            f"7.2  Speed shall be limited to 0.3 in operating hazard zones; mark zones on the floor ({rng.randint(2, 9)} zones on B).\n"
            "7.3  Personnel detection within 2.0 m shall trigger reduced speed.\n"
            "7.4  E-stop: test every robot before each shift. Record the result in the log book.\n"
            "7.5  Never bypass the bumper circuit. Report any bypass to the safety officer immediately.\n"
            f"7.6  Battery bays: keep {rng.randint(1, 3)} m clear. Do not charge damaged packs.\n"
            "Sign-off: ______  Date: ______")


def _doc_incident(rng: random.Random) -> str:
    robot = rng.choice(ROBOTS)
    return (f"Incident report #{rng.randint(1000, 9999)} - Osaka B fulfilment center\n"
            f"Date/time: 2024-06-{rng.randint(1, 28):02d} {_clock(rng)}\nUnit: {robot}\n\n"
            f"Description: the robot stopped in aisle {rng.randint(1, 14)} and rotated in place for about "
            f"{rng.randint(30, 300)} seconds, blocking two pickers. It then resumed without operator input.\n"
            "Impact: 14 orders delayed, no injury.\n"
            "Requested actions: Please provide a root cause within 5 business days. Do not redeploy the unit in "
            "aisles 3-5 until the cause is known. Please confirm the fix with a test video.\n"
            f"Contact: {rng.choice(('J. Walker', 'M. Chen', 'A. Silva'))}, operations manager")


def _doc_review(rng: random.Random) -> str:
    pkg = rng.choice(PKGS)
    path = rng.choice(FILLER_FILES[pkg])
    return (f"{rng.choice(PEOPLE)} reviewed PR #{rng.randint(300, 900)}:\n"
            f"src/{pkg}/{path}:{rng.randint(20, 300)}  nit: please rename `tmp` to something meaningful\n"
            f"src/{pkg}/{path}:{rng.randint(20, 300)}  this blocks the executor. Move it to a callback group or "
            "a separate thread.\n"
            "Please add a launch_test for the timeout path. Don't merge before CI is green on the sim job.\n"
            f"Otherwise LGTM. Also bump the package.xml version to 0.{rng.randint(3, 9)}.{rng.randint(0, 9)}.")


def _doc_slack(rng: random.Random) -> str:
    a, b, c = rng.sample(PEOPLE, 3)
    robot = rng.choice(ROBOTS)
    return (f"{a}  {_clock(rng)}\n{robot} dropped off wifi again near the charger wall\n"
            f"{b}  {_clock(rng)}\nsame as last week? please grab a bag next time before rebooting\n"
            f"{c}  {_clock(rng)}\nI rebooted it already sorry. don't touch the AP config, IT is on it\n"
            f"{a}  {_clock(rng)}\nok. fleet says battery {rng.randint(20, 80)}% and job-{rng.randint(40000, 49999)} failed\n"
            f"{b}  {_clock(rng)}\nplease file it under the wifi epic, port 8443 on the fleet box is also timing out")


def _doc_crash(rng: random.Random) -> str:
    node = rng.choice(NODES)
    return (f"[{node}-{rng.randint(3, 14)}] terminate called after throwing an instance of "
            "'tf2::ExtrapolationException'\n"
            f"[{node}-{rng.randint(3, 14)}]   what():  Lookup would require extrapolation into the past.  Requested time "
            f"{_ros_ts(rng)} but the earliest data is at time {_ros_ts(rng)}, when looking up transform from frame "
            "[base_link] to frame [map]\n"
            f"[ERROR] [{node}-{rng.randint(3, 14)}]: process has died [pid {rng.randint(3000, 30000)}, exit code -6, "
            f"cmd '/opt/ros/humble/lib/nav2_{node}/{node} --ros-args -r __node:={node}'].\n"
            "Please restart the robot and attach this log to the ticket. Do not clear the log directory.")


DOCS = (("hokuyo support replied", _doc_vendor), ("safety officer's checklist", _doc_safety),
        ("customer incident report", _doc_incident), ("PR review", _doc_review), ("slack", _doc_slack),
        ("crash log", _doc_crash))


# --- filler chatter -------------------------------------------------------------------------------------------

def _user_ask(rng: random.Random) -> str:
    r, p, t = rng.choice(ROBOTS), rng.choice(PKGS), _clock(rng)
    return rng.choice((
        f"check the amcl logs on {r}, it lost localization around {t}",
        f"{r} の candump 見てみて。{t} ごろ止まった",
        "can you run the nav2 tests again",
        f"grafana で {r} の battery 見て",
        f"what does the fleet api say about {r}?",
        f"git log for {p}?",
        f"{p} ビルド通る?",
        f"{rng.choice(PEOPLE)}さんが {r} がまたぐるぐる回ってるって。{t}",
        f"look at src/{p}/{rng.choice(FILLER_FILES[p])} — something's off around line {rng.randint(20, 300)}",
        "sim で再現できる?",
        f"why is the controller missing its rate on {r}",
        f"ok and the {rng.choice(TOPICS)} rate?",
        f"bag 一覧見せて、{t} 以降のやつ",
        "tests on the bridge pls",
    ))


def _user_filler(rng: random.Random, mk: _Mk, pasted: list[tuple[int, str]], at: int) -> Message:
    r = rng.random()
    if r < 0.3:
        return mk.user(rng.choice(SHORT_USER))
    if r < 0.9:
        return mk.user(_user_ask(rng))
    label, maker = rng.choice(DOCS)
    doc = maker(rng)
    lead = rng.choice((f"{label}:\n\n", f"fyi, {label} 貼っとく\n\n", f"{label} below. just context for now\n\n"))
    tail = rng.choice(("\n\nどう思う?", "\n\nanything we need from this?", "\n\n", "\n\nあとで見る"))
    pasted.append((at, doc))
    return mk.user(lead + doc + tail)


def _assistant_filler(rng: random.Random) -> str:
    """An agent's remark: what it saw, often a number in the second sentence, then maybe a next step or options."""
    r, p = rng.choice(ROBOTS), rng.choice(PKGS)
    f = rng.choice(FILLER_FILES[p])
    n = rng.randint(2, 40)
    seen = (
        f"The build is clean. {n} packages finished, the only stderr is the unused-variable warning in {p}.",
        f"AMCL on {r} looks healthy now. Covariance stays under 0.{rng.randint(10, 40)} for the whole window; the earlier "
        f"spike lines up with the robot rotating next to the glass wall around {_clock(rng)}.",
        f"Tests pass. {rng.randint(100, 400)} ran, {rng.randint(0, 6)} skipped (the hardware-in-the-loop ones).",
        f"The CAN trace is boring in a good way. Heartbeats from nodes 1 and 2 every ~{rng.choice((100, 200))} ms, no EMCY frames.",
        f"`{p}/{f}:{rng.randint(20, 300)}` is where the timer is created. It runs on the default callback group, "
        "so a slow service call there would block it.",
        f"Fleet API shows {r} {rng.choice(('idle', 'charging', 'executing'))}. Battery is at {rng.randint(20, 99)}%, and "
        f"its last failed job was at {_clock(rng)} with LOCALIZATION_LOST.",
        f"Looks like `{{\"state\": \"error\", \"battery_pct\": {rng.randint(5, 30)}}}` in the fleet response. It's the "
        "dock fault again, not navigation.",
        f"The /scan rate on {r} is steady. It averages {rng.uniform(9.5, 40.5):.1f} Hz with no gaps longer than "
        f"{rng.randint(90, 400)} ms.",
        f"Nothing in the journal on {r} around {_clock(rng)}. {rng.randint(2, 9)} wifi roams in that hour, all under a second.",
        f"The diff is small. {rng.randint(3, 40)} lines in {p}, mostly the parameter plumbing.",
        f"Grafana agrees with the logs. Motor current on {r} peaks at {rng.uniform(4, 19):.1f} A during the lift, which "
        "is inside the controller's envelope.",
        f"I went through {p}/{f}. Nothing touches the costmap there; the warning at line {rng.randint(20, 300)} is unrelated.",
        f"The sim run finished. {rng.randint(5, 40)} goals, {rng.randint(0, 3)} recoveries, no collisions.",
        f"{rng.choice(PEOPLE)}'s branch already has a fix for the launch file. It was merged {rng.randint(2, 9)} days ago.",
        f"The bag from {r} is {rng.uniform(0.4, 8):.1f} GiB. /tf and /scan are complete; /odom drops out for a few "
        "seconds near the end.",
        "That quoted bit from the vendor is about their firmware, not ours. Nothing to change on our side yet.",
    )
    nxt = (
        "", "", "",
        "\n\nNext I'd look at the controller rate warnings; they're noisy but might matter.",
        f"\n\nTwo options:\n1. raise the costmap update rate and eat the CPU\n2. keep it and throttle the warning\n\n"
        f"I'd take 2 for now, {r} is at {rng.randint(60, 90)}% CPU already.",
        f"\n\nTodo:\n- [x] reproduce in sim\n- [x] grab bag from {r}\n- [ ] check {p}/{f}:{rng.randint(20, 300)}\n"
        f"- [ ] ask {rng.choice(PEOPLE)} about the AP roaming\n- [ ] re-run launch tests",
        f"\n\n| item | state |\n|---|---|\n| build | green |\n| sim | up on :{rng.choice((8080, 11345, 7400))} |\n"
        f"| {r} | {rng.choice(('charging', 'idle', 'paused'))} |",
        " Want me to dig further or move on?",
        " 次は sim で確認します。",
        f" I'll keep an eye on it while the {rng.choice(('tests', 'build', 'sim'))} runs.",
        f" Pushed to the branch; CI job #{rng.randint(1000, 9999)} is running.",
    )
    return rng.choice(seen) + rng.choice(nxt)


ACT_TEXTS = {
    "shell": ("Checking on the box.", "Let me look at the logs first.", "見てみます。", "Grabbing the raw output."),
    "colcon": ("Building.", "Running the tests.", "I'll build first, then run the tests.", "ビルドします。"),
    "ros2": ("Checking the topics.", "Let me see what the nodes say.", "Launching it in the sim.", "見てみます。"),
    "read_file": ("Reading the file.", "Let me read that part.", "Opening it."),
    "write_file": ("Writing it.", "Adding that."),
    "edit_file": ("Small edit.", "Patching that line.", "直します。"),
    "git": ("Checking history.", "Let me look at what changed.", "git で確認します。"),
    "fleet_api": ("Asking the fleet manager.", "Pulling it from the fleet API.", "One sec."),
    "grafana": ("Checking Grafana.", "Let me pull the panel.", "Pulling the metrics."),
}


def _act_text(rng: random.Random, tool: str) -> str:
    if rng.random() < 0.35:
        return ""
    return rng.choice(ACT_TEXTS[tool])


class _Filler:
    """Makes exactly ``count`` filler messages at a time; every tool gets used early."""

    def __init__(self, rng: random.Random, mk: _Mk, pasted: list[tuple[int, str]]) -> None:
        self.rng, self.mk, self.pasted = rng, mk, pasted
        self.unused = list(TOOLS)
        rng.shuffle(self.unused)
        self.names = list(TOOL_WEIGHTS)
        self.weights = [TOOL_WEIGHTS[t] for t in self.names]

    def _tool(self) -> str:
        if self.unused:
            return self.unused.pop()
        return self.rng.choices(self.names, self.weights)[0]

    def _calls(self, k: int) -> list[tuple[str, dict[str, Any], str | Out]]:
        calls: list[tuple[str, dict[str, Any], str | Out]] = []
        for _ in range(k):
            tool = self._tool()
            name, args, out = self.rng.choice(FILLER_ACTIONS[tool])(self.rng)
            calls.append((name, args, out))
        return calls

    def make(self, count: int, at: int, prev: Message) -> list[Message]:
        """``count`` filler messages starting at index ``at``, after message ``prev``."""
        out: list[Message] = []
        rng = self.rng
        while len(out) < count:
            last = out[-1] if out else prev
            left = count - len(out)
            answered = last["role"] == "assistant" and not last.get("tool_calls") or last["role"] == "tool"
            if left == 1:
                out.append(_user_filler(rng, self.mk, self.pasted, at + len(out)) if answered and last["role"] != "tool"
                           else self.mk.say(_assistant_filler(rng)))
                continue
            if last["role"] == "assistant" and not last.get("tool_calls") and left >= 3 and rng.random() < 0.7:
                out.append(_user_filler(rng, self.mk, self.pasted, at + len(out)))
                continue
            k = min(left - 1, rng.choices((1, 2, 3), (6, 3, 1))[0])
            if self.unused and left - 1 >= 2:
                k = min(left - 1, max(k, len(self.unused)))
            calls = self._calls(k)
            out.extend(self.mk.act(_act_text(rng, calls[0][0]), calls))
            if count - len(out) >= 1 and rng.random() < 0.45:
                out.append(self.mk.say(_assistant_filler(rng)))
        return out


# --- planted episodes ---------------------------------------------------------------------------------------

@dataclass
class _Ep:
    msgs: list[Message]
    at: int  # offset of the message that carries the fact (or the stale value)
    kind: str
    value: str
    query: str
    key: float = 0.0
    stale: str | None = None
    stale_of: _Ep | None = None  # the earlier episode that said the stale value
    resolved_at: int | None = None
    pasted: list[tuple[int, str]] = field(default_factory=list)  # (offset, text)
    adopted: bool = False
    start: int = 0


def _draw(rng: random.Random, claims: _Claims, makers: list[Callable[[random.Random], dict[str, Any]]],
          fields: tuple[str, ...] = ("value",)) -> dict[str, Any]:
    """A fresh planted value from the least used of ``makers`` (so a session varies its templates)."""
    for attempt in range(300):
        if attempt < 100:
            least = min(claims.usage.get(id(m), 0) for m in makers)
            maker = rng.choice([m for m in makers if claims.usage.get(id(m), 0) == least])
        else:
            maker = rng.choice(makers)
        d = maker(rng)
        vals = [d[f] for f in fields if d.get(f)]
        if any(v in d["query"] for v in vals):
            continue
        if claims.take(*vals):
            claims.usage[id(maker)] = claims.usage.get(id(maker), 0) + 1
            return d
    raise RuntimeError("could not draw a fresh value")


def _stem(rng: random.Random) -> str:
    return f"{rng.choice(P_HEADS)}_{rng.choice(P_TAILS)}"


# instruction drawers: value, query, text (the rule in the user's words), lang
def _i_speed(rng: random.Random) -> dict[str, Any]:
    v = f"0.{rng.randint(2, 9)}5 m/s"
    return {"value": v, "query": "what top speed the user allows for tests on the real robots", "lang": "ja",
            "text": f"あと、実機テストは {v} 以下でお願いね。安全担当に怒られるので"}


def _i_reviewer(rng: random.Random) -> dict[str, Any]:
    v = rng.choice(P_PEOPLE)
    return {"value": v, "query": "who must review the team's PRs", "lang": "ja",
            "text": f"PR のレビューは必ず {v} さんにお願いしてね、他の人だと safety 周りがわからないから"}


def _i_shift(rng: random.Random) -> dict[str, Any]:
    h1 = rng.randint(6, 9)
    v = f"{h1:02d}:{rng.choice(('00', '30'))}–{h1 + rng.randint(9, 12)}:00 JST"
    return {"value": v, "query": "during which hours the fleet manager must not be restarted", "lang": "ja",
            "text": f"シフト中 ({v}) は fleet manager を再起動しないでね。現場が止まるから"}


def _i_flash(rng: random.Random) -> dict[str, Any]:
    v = f"fw {rng.randint(3, 6)}.{rng.randint(10, 30)}.{rng.randint(0, 9)}"
    return {"value": v, "query": "which firmware release has to be signed off before anything is flashed to the "
            "motor controllers", "lang": "ja",
            "text": f"{v} がサインオフされるまでは、モーターコントローラには何も書き込まないでね"}


def _i_topic(rng: random.Random) -> dict[str, Any]:
    v = f"/{rng.choice(P_WORDS)}/{rng.choice(('zone_speed_limit', 'estop_chain', 'lift_state', 'dock_ir_raw'))}"
    return {"value": v, "query": "which topic's QoS must be left alone", "lang": "ja",
            "text": f"それと {v} の QoS は触らないでね。reliable じゃないとだめな理由があるので"}


def _i_bags(rng: random.Random) -> dict[str, Any]:
    v = f"/data/bags/{rng.choice(P_WORDS)}{rng.randint(2, 9)}"
    return {"value": v, "query": "where recorded bags have to be stored", "lang": "en",
            "text": f"house rule: bags go under {v}, never on the robot's eMMC"}


def _i_domain(rng: random.Random) -> dict[str, Any]:
    v = f"ROS_DOMAIN_ID={rng.randint(60, 99)}"
    return {"value": v, "query": "which DDS domain the sim box must stay on", "lang": "en",
            "text": f"I'd rather we keep {v} on the sim box so it never talks to the real fleet"}


def _i_branch(rng: random.Random) -> dict[str, Any]:
    v = f"release/{rng.choice(P_SITES)}-{rng.randint(24, 25)}.{rng.randint(1, 12)}"
    return {"value": v, "query": "which branch nothing may be merged into without a sim run attached", "lang": "en",
            "text": f"we never merge into {v} without a sim run attached to the PR"}


def _i_rtf(rng: random.Random) -> dict[str, Any]:
    v = f"real_time_factor {rng.choice(('0.6', '0.7', '0.75', '0.8', '0.9'))}"
    return {"value": v, "query": "how fast the sim may run at most on the CI box", "lang": "en",
            "text": f"keep the sim at {v} max, the CI box can't keep up otherwise"}


def _i_params(rng: random.Random) -> dict[str, Any]:
    v = f"config/{_stem(rng)}_params.yaml"
    return {"value": v, "query": "where new parameters have to go instead of the launch file", "lang": "en",
            "text": f"new params go in {v}, not hardcoded in the launch file pls"}


def _i_feature(rng: random.Random) -> dict[str, Any]:
    v = rng.choice(P_FEATURES)
    return {"value": v, "query": "which feature stays off until the risk assessment is signed", "lang": "en",
            "text": f"until the risk assessment is signed, don't enable {v} on any real robot, sim only"}


def _i_dashboard(rng: random.Random) -> dict[str, Any]:
    v = f"d/{_alnum(rng, 4).lower()}{rng.choice(P_WORDS)}"
    return {"value": v, "query": "which Grafana dashboard the user wants used", "lang": "ja",
            "text": f"Grafana は {v} のダッシュボードを使って、古いのは単位が間違ってるから見ないで"}


INSTR_JA = [_i_speed, _i_reviewer, _i_shift, _i_flash, _i_topic, _i_dashboard]
INSTR_EN = [_i_bags, _i_domain, _i_branch, _i_rtf, _i_params, _i_feature]


def _i_adopt_safety(rng: random.Random) -> dict[str, Any]:
    v = f"{rng.choice(('2.5', '3.0', '3.5', '1.5'))} m personnel zone"
    return {"value": v, "query": "what the user adopted from the safety checklist as the team's own rule about people "
            "near robots", "doc": _doc_safety,
            "own": f"7.3 はうちのルールにする: {v} に人が入ったら slow mode, 例外なし. sim のテストでも同じ"}


def _i_adopt_vendor(rng: random.Random) -> dict[str, Any]:
    v = f"{rng.randint(41, 48)} °C enclosure"
    return {"value": v, "query": "above which lidar temperature the user stops tests, taken from the vendor's reply",
            "doc": _doc_vendor,
            "own": f"ok, from this our rule: above {v} temp we stop the test and let it cool. applies to every run"}


def _ep_instruction(rng: random.Random, mk: _Mk, claims: _Claims, lang: str, adopted: bool) -> _Ep:
    if adopted:
        d = _draw(rng, claims, [_i_adopt_safety, _i_adopt_vendor])
        doc = d["doc"](rng)
        text = (rng.choice(("safety officer の checklist 貼るね\n\n", "vendor から返事来た\n\n", "pasting this:\n\n"))
                + doc + "\n\n" + d["own"])
        ack = mk.say(f"Noted as a standing rule: {d['value']}. I'll check it before every sim or robot run. The rest "
                     "of the pasted text I've read as context, not as rules for me.")
        return _Ep([mk.user(text), ack], 0, "instruction", d["value"], d["query"], pasted=[(0, doc)], adopted=True)
    d = _draw(rng, claims, INSTR_JA if lang == "ja" else INSTR_EN)
    style = rng.randrange(3)
    if style == 0:  # second paragraph of a longer message
        first = _user_ask(rng)
        text = f"{first}\n\n{d['text']}"
    elif style == 1:
        text = d["text"]
    else:
        text = f"{d['text']}. {rng.choice(('ずっとね', 'from now on', 'always', 'これ大事'))}"
    ack = mk.say(rng.choice((f"Understood — {d['value']}, noted. I'll keep to it for the rest of this work.",
                             f"了解です。{d['value']} ですね、以後守ります。",
                             f"Got it ({d['value']}). Adding it to my checklist before any run.")))
    return _Ep([mk.user(text), ack], 0, "instruction", d["value"], d["query"])


# corrections: stale text, correction text; near: a near miss of the old value
def _c_serial(rng: random.Random) -> dict[str, Any]:
    digits = f"4{rng.randint(1000, 9999)}"
    old, new = f"MDC-{digits}", f"MDC-{_swap_tail(digits)}"
    return {"stale": old, "value": new, "near": True,
            "query": "which motor controller's fault log the user actually wants",
            "say": f"the left motor controller on {rng.choice(ROBOTS)} is {old}, can you pull its fault log from the fleet api",
            "fix": rng.choice((f"間違えた、{new} の方。{old} は棚にある予備", f"no wait, it's {new}. I gave you the spare's serial")),
            "tool": "fleet_api", "args": {"method": "GET", "path": "/v2/controllers/{v}/faults"}}


def _c_ip(rng: random.Random) -> dict[str, Any]:
    a, b, c = rng.randint(10, 99), rng.randint(1, 9), rng.choice([x for x in range(12, 99) if x % 10])
    cs = str(c)
    old, new = f"10.{a}.{b}.{cs}", f"10.{a}.{b}.{_swap_tail(cs)}"
    return {"stale": old, "value": new, "near": True, "query": "the IP address of the lidar the user meant",
            "say": f"the front lidar is on {old}, ping it from the robot",
            "fix": rng.choice((f"{old} じゃなくて {new} だった、ごめん", f"wrong ip, sorry — {new}")),
            "tool": "shell", "args": {"command": "ping -c 20 {v}"}}


def _c_bag(rng: random.Random) -> dict[str, Any]:
    aisle, day, hh = rng.randint(1, 14), rng.randint(1, 28), rng.randint(10, 19)
    t = f"{hh}{''.join(map(str, rng.sample(range(1, 6), 2)))}"
    old, new = f"aisle{aisle}_{day:02d}06_{t}", f"aisle{aisle}_{day:02d}06_{_swap_tail(t)}"
    return {"stale": old, "value": new, "near": True, "query": "which recording the user wants replayed",
            "say": f"replay {old} in the sim, that's the one where it spun",
            "fix": rng.choice((f"the other one — {new}. the {old} run was fine", f"間違えた、{new} の方")),
            "tool": "ros2", "args": {"command": "bag play /var/lib/amr/replay/{v} --clock"}}


def _c_ticket(rng: random.Random) -> dict[str, Any]:
    digits = str(rng.randint(10000, 99999))
    old, new = f"SAF-{digits}", f"SAF-{_swap_tail(digits)}"
    return {"stale": old, "value": new, "near": True, "query": "which safety ticket the fix should reference",
            "say": f"reference {old} in the commit, that's the safety ticket",
            "fix": rng.choice((f"I gave you the wrong ticket, it's {new}", f"チケット番号 {new} だった。{old} じゃない")),
            "tool": "git", "args": {"args": "log --grep {v} --oneline"}}


def _c_fw(rng: random.Random) -> dict[str, Any]:
    a, b, c = rng.randint(2, 5), rng.randint(1, 9), rng.randint(10, 98)
    cs = str(c)
    old, new = f"mc-{a}.{b}.{cs}", f"mc-{a}.{b}.{_swap_tail(cs)}"
    return {"stale": old, "value": new, "near": True, "query": "which motor-controller firmware the fleet should be on",
            "say": f"the motor controllers should all be on {old}, check which ones aren't",
            "fix": rng.choice((f"no wait, target is {new}. {old} was the broken build", f"{new} の方、ごめん")),
            "tool": "fleet_api", "args": {"method": "GET", "path": "/v2/robots?firmware.motor!={v}"}}


def _c_tag(rng: random.Random) -> dict[str, Any]:
    y, m, p = rng.randint(24, 25), rng.randint(1, 12), rng.randint(10, 98)
    ps = str(p)
    old, new = f"amr-sim:{y}.{m:02d}.{ps}", f"amr-sim:{y}.{m:02d}.{_swap_tail(ps)}"
    return {"stale": old, "value": new, "near": True, "query": "which sim image tag the user wants used",
            "say": f"use the {old} image for the sim runs",
            "fix": rng.choice((f"tag {new}, not {old} — my typo", f"イメージは {new} の方だった")),
            "tool": "shell", "args": {"command": "docker pull ghcr.io/osaka-amr/{v}"}}


def _c_map(rng: random.Random) -> dict[str, Any]:
    site = rng.choice(P_SITES)
    old, new = f"{site}_dc{rng.randint(1, 4)}_f1", f"{site}_dc{rng.randint(5, 8)}_mezz"
    return {"stale": old, "value": new, "near": False, "query": "which map the user wants loaded",
            "say": f"load the {old} map for this",
            "fix": rng.choice((f"the other map, {new}. the first floor one is outdated", f"map は {new} じゃないとだめだった")),
            "tool": "ros2", "args": {"command": "service call /map_server/load_map nav2_msgs/srv/LoadMap \"{map_url: maps/{v}.yaml}\""}}


def _c_person(rng: random.Random) -> dict[str, Any]:
    old, new = rng.sample(P_PEOPLE, 2)
    return {"stale": old, "value": new, "near": False, "query": "who is on call to unlock the charger bay",
            "say": f"{old} is on call tonight for the charger bay, ping them if the dock test needs the cage open",
            "fix": rng.choice((f"on-call は {old} じゃなくて {new} だった", f"scratch that, {new} is on call, not {old}")),
            "tool": None, "args": {}}


def _c_feature(rng: random.Random) -> dict[str, Any]:
    old, new = rng.sample(P_FEATURES, 2)
    return {"stale": old, "value": new, "near": False, "query": "which feature flag the user wants turned on in the sim",
            "say": f"turn on {old} in the sim config",
            "fix": rng.choice((f"wrong flag — I meant {new}", f"{old} じゃなくて {new} の方ね")),
            "tool": "edit_file", "args": {"path": "src/amr_sim/config/features.yaml", "old": "enabled: []", "new": "enabled: [{v}]"}}


CORR_NEAR = [_c_serial, _c_ip, _c_bag, _c_ticket, _c_fw, _c_tag]
CORR_LOOSE = [_c_map, _c_person, _c_feature]


def _use(mk: _Mk, rng: random.Random, d: dict[str, Any], v: str, text: str) -> list[Message]:
    """The agent acting on a value the user gave (the stale one, or the corrected one)."""
    if d["tool"] is None:
        return [mk.say(f"Noted, {v} for the charger bay tonight.")]
    args = json.loads(json.dumps(d["args"]).replace("{v}", v))
    if d["tool"] == "fleet_api":
        out = json.dumps({"status": 200, "query": v, "data": [_robot_json(rng, r) for r in rng.sample(ROBOTS, 3)]}, indent=1)
    elif d["tool"] == "shell" and "ping" in args.get("command", ""):
        out = "\n".join(f"64 bytes from {v}: icmp_seq={i} ttl=64 time={rng.uniform(0.3, 3):.2f} ms" for i in range(1, 21))
    elif d["tool"] == "shell":
        out = f"{v.split(':')[1]}: Pulling from osaka-amr/amr-sim\nDigest: sha256:{_hexs(rng, 64)}\nStatus: Downloaded newer image"
    elif d["tool"] == "ros2":
        out = "\n".join(_nav_line(rng) for _ in range(rng.randint(12, 30)))
    elif d["tool"] == "git":
        out = "\n".join(f"{_hexs(rng, 7)} {rng.choice(COMMIT_MSGS)}" for _ in range(rng.randint(1, 4)))
    else:
        out = f"Applied 1 edit to {args.get('path')}"
    return mk.act(text, [(d["tool"], args, out)])


def _ep_correction(rng: random.Random, mk: _Mk, claims: _Claims, near: bool) -> tuple[_Ep, _Ep]:
    d = _draw(rng, claims, CORR_NEAR if near else CORR_LOOSE, ("value", "stale"))
    old, new = d["stale"], d["value"]
    say = d["say"]
    if rng.random() < 0.5:
        say = f"{_user_ask(rng)}\n\n{say}"
    stale_msgs = [mk.user(say)] + _use(mk, rng, d, old, f"Using {old}.") + [
        mk.say(rng.choice((f"Done with {old}; nothing unusual in what came back.", "Done — output above, nothing alarming.")))]
    stale_ep = _Ep(stale_msgs, 0, "stale", old, "")
    fix = d["fix"]
    if rng.random() < 0.4:  # in the middle of a long message
        fix = f"{_user_ask(rng)}\n\n{fix}\n\n{rng.choice(('あとビルドも見て', 'also the tests pls', 'then continue'))}"
    msgs = [mk.user(fix)] + _use(mk, rng, d, new, f"Switching to {new}.") + [
        mk.say(f"Thanks for catching that — I'm using {new} from here on, not {old}.")]
    ep = _Ep(msgs, 0, "correction", new, d["query"], stale=old, stale_of=stale_ep)
    return ep, stale_ep


# decisions: value, alt (an earlier choice it may revise), query
def _d_num(fmt: str, query: str, lo: int, hi: int) -> Callable[[random.Random], dict[str, Any]]:
    def make(rng: random.Random) -> dict[str, Any]:
        a, b = rng.sample(range(lo, hi + 1), 2)
        return {"value": fmt.format(a), "alt": fmt.format(b), "query": query}
    return make


DECISIONS = [
    _d_num("AMCL max_particles {}000", "how many particles AMCL gets at most", 2, 9),
    _d_num("split bags every {}0 s", "how often the recordings get split", 3, 18),
    _d_num("canary on {} robots", "how big the first rollout group is", 2, 9),
    _d_num("dock at {}% battery", "at what charge robots go to the dock", 15, 35),
    _d_num("controller_frequency {} Hz", "how fast the Nav2 controller loop runs", 11, 30),
    _d_num("{} retries with 2 s backoff", "how the fleet bridge retries failed API calls", 3, 9),
    _d_num("alert on p95 > {}0 ms", "when the localization latency alert fires", 12, 40),
    _d_num("map resolution 0.0{} m", "which resolution the warehouse maps use", 2, 9),
    _d_num("RPP lookahead 0.{}5 m", "which lookahead the path follower uses", 3, 9),
    _d_num("humble image pinned to 2024-0{}-15", "which base image date the Docker builds pin", 1, 9),
]


def _ep_decision(rng: random.Random, mk: _Mk, claims: _Claims, revise: bool) -> tuple[_Ep, _Ep | None]:
    d = _draw(rng, claims, DECISIONS, ("value", "alt") if revise else ("value",))
    v = d["value"]
    if revise:
        old = d["alt"]
        first = rng.choice((f"let's do {old} for now", f"とりあえず {old} でいこう", f"ok: {old}. we can revisit"))
        stale_ep = _Ep([mk.user(first), mk.say(f"OK, {old} it is; I'll use it in the config.")], 0, "stale", old, "")
        text = rng.choice((f"やっぱり {v} にする。さっきのは無し", f"changed my mind — {v} instead of what I said before",
                           f"hmm no. let's go {v}, {old} was too aggressive"))
        msgs = [mk.user(text), mk.say(f"Switching from {old} to {v}. I'll update the params and note why in the PR.")]
        return _Ep(msgs, 0, "decision", v, d["query"], stale=old, stale_of=stale_ep), stale_ep
    text = rng.choice((f"let's go with {v}", f"{v} でいこう", f"ok decided: {v}. the other option is too risky",
                       f"{_user_ask(rng)}\n\nand re the thing from before: {v}, final"))
    msgs = [mk.user(text), mk.say(rng.choice((f"Decision noted: {v}. I'll apply it and mention it in the changelog.",
                                              f"了解、{v} で進めます。")))]
    return _Ep(msgs, 0, "decision", v, d["query"]), None


# errors: (tool, call args, the whole error line, context lines, query, fixed-run args)
def _e_compile(rng: random.Random) -> dict[str, Any]:
    pkg, stem = rng.choice(PKGS), _stem(rng)
    sym = rng.choice(("getCostRaw", "lookupTransformSync", "toMsgStamp", "clampSpeed", "resetFilter"))
    line = f"/ws/src/{pkg}/src/{stem}.cpp:{rng.randint(40, 480)}:{rng.randint(5, 40)}: error: '{sym}' was not declared in this scope"
    return {"tool": "colcon", "args": {"verb": "build", "args": ["--packages-select", pkg]}, "value": line, "pkg": pkg,
            "query": f"which compile error broke the {pkg} build", "mode": "build",
            "ctx": [f"  {rng.randint(40, 480)} |     auto c = {sym}(mx, my);", "      |              ^~~~~~~~~~"]}


def _e_gtest(rng: random.Random) -> dict[str, Any]:
    stem = _stem(rng)
    suite = "".join(p.capitalize() for p in stem.split("_"))
    case = rng.choice(CASES)
    line = f"[  FAILED  ] {suite}Test.{case} ({rng.randint(2, 900)} ms)"
    return {"tool": "colcon", "args": {"verb": "test", "args": ["--packages-select", rng.choice(PKGS)]}, "value": line,
            "query": "which gtest case failed in the test run", "mode": "test",
            "ctx": [f"/ws/src/amr_safety/test/test_{stem}.cpp:{rng.randint(30, 200)}: Failure",
                    "Expected equality of these values:", "  state.mode", f"    Which is: {rng.randint(1, 4)}", "  Mode::Stop"]}


def _e_pytest(rng: random.Random) -> dict[str, Any]:
    stem = _stem(rng)
    a, b = rng.randint(10, 40), rng.randint(41, 90)
    line = f"FAILED test/test_{stem}.py::test_{rng.choice(('timeout', 'ramp', 'handover', 'abort'))}_path - AssertionError: expected <= 0.{a} got 0.{b}"
    return {"tool": "colcon", "args": {"verb": "test", "args": ["--packages-select", "fleet_bridge", "--pytest-args", "-x"]},
            "value": line, "query": "which pytest failure showed up in the bridge tests", "mode": "test", "ctx": []}


def _e_nav(rng: random.Random) -> dict[str, Any]:
    line = (f"[planner_server-{rng.randint(3, 12)}] [ERROR] [{_ros_ts(rng)}] [planner_server]: GridBased plugin failed to "
            f"plan from ({rng.uniform(0, 50):.2f}, {rng.uniform(0, 30):.2f}) to ({rng.uniform(0, 50):.2f}, "
            f"{rng.uniform(0, 30):.2f}): \"Goal Coordinates of ({rng.randint(100, 999)}, {rng.randint(100, 999)}) was outside bounds\"")
    return {"tool": "ros2", "args": {"command": "launch amr_bringup sim.launch.py headless:=true", "timeout_s": 90},
            "value": line, "query": "which Nav2 planner error the sim run logged", "mode": "nav", "ctx": []}


def _e_fleet(rng: random.Random) -> dict[str, Any]:
    job = f"job-{rng.randint(50000, 59999)}"
    line = f"HTTP 409 Conflict: {job} is already assigned to {rng.choice(ROBOTS)} (lease expires in {rng.randint(10, 90)} s)"
    return {"tool": "fleet_api", "args": {"method": "POST", "path": "/v2/jobs/reassign", "body": {"job": job}},
            "value": line, "query": "what the fleet API said when the job was reassigned", "mode": "fleet", "ctx": []}


def _e_docker(rng: random.Random) -> dict[str, Any]:
    model = f"{_stem(rng)}_{rng.randint(10, 99)}"
    line = f"gazebo-1      | [Err] [SystemLoader.cc:{rng.randint(80, 140)}] Failed to load system plugin [lib{model}.so]"
    return {"tool": "shell", "args": {"command": "docker compose -f docker/compose.yaml up gazebo"}, "value": line,
            "query": "why the Gazebo container failed to start the world", "mode": "docker", "ctx": []}


def _e_can(rng: random.Random) -> dict[str, Any]:
    line = f"can{rng.randint(0, 1)}: bus-off, tx_err={rng.randint(128, 255)} rx_err={rng.randint(0, 127)} (node 0x{rng.randint(16, 99):02X} silent since {_clock(rng)}:{rng.randint(10, 59)})"
    return {"tool": "shell", "args": {"command": "ip -details -statistics link show can0; dmesg | tail -40"}, "value": line,
            "query": "what the CAN interface reported when the motors dropped out", "mode": "can", "ctx": []}


ERRORS = [_e_compile, _e_gtest, _e_pytest, _e_nav, _e_fleet, _e_docker, _e_can]


def _error_output(rng: random.Random, d: dict[str, Any], size: int, line: str | None) -> str:
    """The tool's output; with ``line`` the failing run, without it the same command passing."""
    mode = d["mode"]
    if mode == "build":
        sel = [d["pkg"], *rng.sample(PKGS, 2)]
        fail = None if line is None else [f"--- stderr: {d['pkg']}", line, *d["ctx"], "---",
                                          f"Failed   <<< {d['pkg']} [{rng.uniform(5, 40):.1f}s, exited with code 2]"]
        return _build_log(rng, size, sel, fail)
    if mode == "test":
        return _test_log(rng, size, None if line is None else [*d["ctx"], line], failed=line)
    if mode == "nav":
        head = ["[INFO] [launch]: Default logging verbosity is set to INFO"]
        body = _fill(size, head, lambda: _nav_line(rng))
        if line is None:
            return body
        parts = body.split("\n")
        parts.insert(rng.randint(1, len(parts)), line)
        return "\n".join(parts)
    if mode == "fleet":
        if line is None:
            return json.dumps({"status": 200, "data": {"state": "queued", "robot": rng.choice(ROBOTS)}}, indent=1)
        return f"{line}\n" + json.dumps({"status": 409, "error": "conflict", "retry_after": rng.randint(5, 60)}, indent=1)
    if mode == "docker":
        head = [" Container sim-gazebo-1  Created", "Attaching to gazebo-1"]
        body = _fill(size, head, lambda: f"gazebo-1      | [Msg] Loaded model [rack_{rng.choice('ab')}_{rng.randint(1, 40)}]")
        return body + (f"\n{line}\ngazebo-1 exited with code 255" if line else "\ngazebo-1      | [Msg] Serving world [warehouse_b]")
    ok = (f"2: can0: <NOARP,UP,LOWER_UP,ECHO> mtu 16 qdisc pfifo_fast state UP mode DEFAULT group default qlen 10\n"
          f"    can state ERROR-ACTIVE (berr-counter tx 0 rx 0) restart-ms 100\n"
          f"    bitrate 500000 sample-point 0.875\n    RX: bytes  packets  errors\n    {rng.randint(10**6, 10**8)}  {rng.randint(10**5, 10**7)}  0")
    if line is None:
        return ok
    return ok.replace("ERROR-ACTIVE", "BUS-OFF") + "\n" + "\n".join(
        f"[{rng.uniform(100, 9000):.6f}] can0: {rng.choice(('bus-error', 'error-warning', 'error-passive'))}" for _ in range(12)) + f"\n{line}"


def _ep_error(rng: random.Random, mk: _Mk, claims: _Claims, resolve: bool) -> _Ep:
    d = _draw(rng, claims, ERRORS)
    v = d["value"]
    size = rng.randint(1500, 5000)
    msgs = mk.act(rng.choice(("Running it.", "", "Let me reproduce.")), [(d["tool"], d["args"], _error_output(rng, d, size, v))])
    msgs.append(mk.say(f"It fails here:\n\n```\n{v}\n```\n\n" + rng.choice((
        "I think it's the change from this morning; I'll look at the diff before touching anything.",
        "Two ways to go: patch it now, or revert the last commit. Patching looks small.",
        "Not related to the localization issue, as far as I can tell."))))
    if not resolve:
        msgs.append(mk.user(rng.choice(("leave it for now", "あとで", "ok, park it, not urgent"))))
        return _Ep(msgs, 1, "error", v, d["query"])
    pkg = rng.choice(PKGS)
    path = f"src/{pkg}/{rng.choice([f for f in FILLER_FILES[pkg] if f.endswith(('.cpp', '.py'))] or ['src/node.cpp'])}"
    block = _cpp_block(rng) if path.endswith(".cpp") else _py_block(rng)
    msgs.append(mk.user(rng.choice(("fix it", "直して", "go ahead"))))
    msgs += mk.act(rng.choice(("Patching.", "Small fix.", "")), [("edit_file", {"path": path, "old": block[0], "new": "\n".join(block)},
                                                                 f"Applied 1 edit to {path}")])
    msgs += mk.act("Same command again.", [(d["tool"], d["args"], _error_output(rng, d, rng.randint(1200, 4000), None))])
    msgs.append(mk.say("It passes now — that error is gone from the output."))
    return _Ep(msgs, 1, "error", v, d["query"], resolved_at=len(msgs) - 2)


def _ep_file(rng: random.Random, mk: _Mk, claims: _Claims) -> _Ep:
    def make(r: random.Random) -> dict[str, Any]:
        pkg = r.choice(PKGS)
        stem = _stem(r)
        ext = r.choice(("cpp", "py", "yaml"))
        sub = {"cpp": "src", "py": pkg, "yaml": "config"}[ext]
        return {"value": f"src/{pkg}/{sub}/{stem}.{ext}", "query": f"which new file the agent added to {pkg}"}
    d = _draw(rng, claims, [make])
    path = d["value"]
    body = "\n".join(_cpp_block(rng) + _cpp_block(rng) if path.endswith("cpp") else
                     (_py_block(rng) + _py_block(rng) if path.endswith("py") else
                      [_kv(rng) for _ in range(12)]))
    tool = rng.choice(("write_file", "edit_file"))
    args: dict[str, Any] = {"path": path, "content": body} if tool == "write_file" else {"path": path, "old": "", "new": body}
    msgs = [mk.say(rng.choice(("I'll put this in its own file so the node stays small.", "Adding a separate module for it.")))]
    msgs += mk.act("", [(tool, args, f"{'Wrote' if tool == 'write_file' else 'Created'} {len(body)} bytes: {path}")])
    msgs.append(mk.say(f"Added `{path}`; it's registered in CMakeLists / setup.py and builds."))
    return _Ep(msgs, 1, "file", path, d["query"])


def _id_user(rng: random.Random, which: int) -> dict[str, Any]:
    if which == 0:
        v = f"INC-{rng.randint(100000, 999999)}"
        return {"value": v, "query": "the customer's incident number", "text": f"customer opened {v} for the spinning robot. 返信はそれに紐付けて"}
    if which == 1:
        v = f"ROBO-{rng.randint(1000, 9999)}"
        return {"value": v, "query": "the Jira ticket this work goes under", "text": f"これ {v} で管理してるから commit に入れてね"}
    if which == 2:
        v = f"AMR-S{rng.randint(100000, 999999)}"
        return {"value": v, "query": "the chassis serial of the robot that came back for repair",
                "text": f"the chassis label says {v}, that's the one that came back from the customer"}
    v = f"RMA-{rng.randint(100000, 999999)}"
    return {"value": v, "query": "the vendor's return number for the broken lidar", "text": f"vendor gave us {v} for the broken lidar"}


def _id_tool(r: random.Random, which: int) -> dict[str, Any]:
    if which == 0:
        return {"value": f"MSN-{_alnum(r, 8)}", "query": "the id of the test mission the fleet API created", "tool": "fleet_api"}
    if which == 1:
        return {"value": f"FLT-{r.randint(100000, 999999)}", "query": "the id of the fault record the fleet API opened",
                "tool": "fleet_api"}
    return {"value": f"snap-{_alnum(r, 10).lower()}", "query": "the Grafana snapshot the agent shared", "tool": "grafana"}


ID_USER = [functools.partial(_id_user, which=i) for i in range(4)]
ID_TOOL = [functools.partial(_id_tool, which=i) for i in range(3)]


def _ep_identifier(rng: random.Random, mk: _Mk, claims: _Claims, said: bool) -> _Ep:
    if said:
        d = _draw(rng, claims, ID_USER)
        v = d["value"]
        msgs = [mk.user(d["text"]), mk.say(f"Noted {v}; I'll reference it in the commit and the report.")]
        return _Ep(msgs, 0, "identifier", v, d["query"])

    d = _draw(rng, claims, ID_TOOL)
    v = d["value"]
    robot = rng.choice(ROBOTS)
    if d["tool"] == "grafana":
        call = ("grafana", {"action": "snapshot", "dashboard": "AMR fleet overview", "range": "6h"},
                json.dumps({"status": "success", "key": v, "url": f"https://grafana.osaka-amr.local/dashboard/snapshot/{v}",
                            "expires": "7d"}, indent=1))
    elif v.startswith("MSN"):
        call = ("fleet_api", {"method": "POST", "path": "/v2/missions", "body": {"robot": robot, "goal": "S4", "priority": 2}},
                json.dumps({"status": 201, "data": {"mission_id": v, "robot": robot, "state": "queued",
                                                    "created": f"2024-06-{rng.randint(1, 28):02d}T{_clock(rng)}:00+09:00"}}, indent=1))
    else:
        call = ("fleet_api", {"method": "POST", "path": f"/v2/robots/{robot}/faults", "body": {"code": "LOC_COV_HIGH"}},
                json.dumps({"status": 201, "data": {"fault_id": v, "robot": robot, "severity": "warning"}}, indent=1))
    msgs = mk.act("", [call])
    msgs.append(mk.say(f"Created: `{v}`. I'll keep that id for the follow-up."))
    return _Ep(msgs, 1, "identifier", v, d["query"])


def _finding(rng: random.Random, which: int) -> dict[str, Any]:
    robot = rng.choice(ROBOTS)
    if which == 0:
        v = f"wheel slip {rng.randint(6, 29)}.{rng.randint(0, 9)}%"
        return {"value": v, "tool": "grafana", "line": f"| {robot} | left drive | {v} over the last shift |",
                "query": f"how much the wheels of {robot} slip", "means": "that's enough to make odometry drift between scans"}
    if which == 1:
        v = f"odom drift {rng.randint(11, 89)} cm per 10 m"
        return {"value": v, "tool": "ros2", "line": f"[drift_check] {robot}: {v} (straight run, aisle {rng.randint(1, 14)})",
                "query": f"how far odometry drifts on {robot}", "means": "AMCL has to correct more than it should"}
    if which == 2:
        v = f"lidar stamp offset {rng.randint(31, 180)} ms"
        return {"value": v, "tool": "ros2", "line": f"  /scan vs /odom: {v} (mean over {rng.randint(500, 4000)} msgs)",
                "query": "how far the lidar timestamps lag the odometry", "means": "the scans are matched against stale poses"}
    if which == 3:
        v = f"fault code 0x{rng.randint(0x2300, 0x23FF):04X}"
        return {"value": v, "tool": "shell", "line": f"EMCY node 2: {v} (overcurrent, right drive) at {_clock(rng)}",
                "query": "which fault code the motor controller raised", "means": "the right drive trips on overcurrent"}
    if which == 4:
        v = f"inflation_radius: 0.{rng.randint(11, 99)}"
        return {"value": v, "tool": "read_file", "line": f"   41        {v}   # set by the customer tuning session",
                "query": "the inflation radius the robots actually run with", "means": "the robots hug the racks too tightly"}
    if which == 5:
        v = f"battery sag to {rng.randint(40, 44)}.{rng.randint(0, 9)} V"
        return {"value": v, "tool": "grafana", "line": f"| {_clock(rng)} | {robot} | {v} under lift load |",
                "query": f"how low the battery voltage of {robot} drops under load", "means": "the controller browns out on lifts"}
    if which == 6:
        v = f"roam gap {rng.randint(300, 2500)} ms"
        return {"value": v, "tool": "shell", "line": f"wlan0 ap-b2-03 -> ap-b2-07: {v}, {rng.randint(2, 40)} packets lost",
                "query": "how long the robots are offline when they roam between access points",
                "means": "the fleet bridge heartbeat times out during roaming"}
    v = f"heartbeat_timeout_ms\": {rng.randint(301, 999)}"
    return {"value": v, "tool": "fleet_api", "line": f"  \"{v},", "query": "the heartbeat timeout the fleet manager is configured with",
            "means": "that's shorter than a wifi roam, so robots get marked lost"}


FINDINGS = [functools.partial(_finding, which=i) for i in range(8)]


def _ep_finding(rng: random.Random, mk: _Mk, claims: _Claims) -> _Ep:
    d = _draw(rng, claims, FINDINGS)
    v = d["value"]
    tool = d["tool"]
    _name, args, out = rng.choice(FILLER_ACTIONS[tool])(rng)
    body = out(rng.randint(1500, 4500)).split("\n")
    body.insert(rng.randint(1, len(body)), d["line"])
    msgs = mk.act(rng.choice(("Measuring.", "Let me check the numbers.", "")), [(tool, args, "\n".join(body))])
    msgs.append(mk.say(f"Found it: {v}. In short, {d['means']}."))
    return _Ep(msgs, 1, "finding", v, d["query"])


def _plan(rng: random.Random, which: int) -> dict[str, Any]:
    if which == 0:
        v = f"{rng.randint(6, 72)}-hour soak"
        return {"value": v, "query": "how long the sim soak test runs before anything touches a real robot",
                "text": f"plan for this week: reproduce in the sim with the bag from the incident, fix, then a {v} in the "
                        "sim before anything touches a real robot. only then a small rollout."}
    if which == 1:
        v = f"replay the {rng.randint(11, 60)} worst bags"
        return {"value": v, "query": "which recordings get replayed after the fix",
                "text": f"順番: まず fix して unit test 通す、次に {v} して、最後に Grafana で before/after 比べる。"
                        "問題なければ来週 rollout"}
    if which == 2:
        v = f"shadow mode for {rng.randint(3, 14)} shifts"
        return {"value": v, "query": "how long the new planner runs in shadow mode",
                "text": f"steps:\n1. merge behind a flag\n2. {v} on two robots, logging only\n3. compare with the old planner\n4. flip the flag"}
    if which == 3:
        v = f"zone {rng.choice('CDEFGH')}{rng.randint(10, 40)} first"
        return {"value": v, "query": "which warehouse zone the rollout starts in",
                "text": f"rollout: {v}, it's the quietest, then the rest of the floor after a day without incidents"}
    v = f"freeze merges {rng.choice(DAYS)} {rng.randint(13, 18)}:30"
    return {"value": v, "query": "when merges stop before the customer demo",
            "text": f"demo prep: {v}, sim soak over the weekend, dry run with the customer's layout on Monday morning"}


PLANS = [functools.partial(_plan, which=i) for i in range(5)]


def _ep_plan(rng: random.Random, mk: _Mk, claims: _Claims) -> _Ep:
    d = _draw(rng, claims, PLANS)
    v = d["value"]
    msgs = [mk.user(d["text"]),
            mk.say(f"Sounds good. Todo updated:\n- [ ] fix + tests\n- [ ] {v}\n- [ ] write up results\n\nI'll start with the fix.")]
    return _Ep(msgs, 0, "plan", v, d["query"])


# --- assembly ------------------------------------------------------------------------------------------------

def _layout(rng: random.Random, n: int, facts: list[_Ep], stales: list[_Ep]) -> list[_Ep]:
    """Place the episodes (setting ``start``): the user's first two own rules first, the rest stratified over
    3.5%..86% of the session and over its thirds, each stale saying before its fix (half the corrections far)."""
    instr = [e for e in facts if e.kind == "instruction"]
    rest = [e for e in facts if e not in instr[:2]]
    base = max(3, math.ceil(0.035 * n))
    end = math.floor(0.86 * n)
    total = sum(len(e.msgs) for e in facts + stales)
    free = end - base - total
    if free < 0:
        raise RuntimeError(f"{n} messages cannot hold {len(facts) + len(stales)} episodes")
    episodes: list[_Ep] = []
    for _attempt in range(40):
        rng.shuffle(rest)
        for j, e in enumerate(instr[:2]):
            e.key = rng.uniform(0.0, 0.006) if j == 0 else rng.uniform(0.01, 0.03)
        lo = 0.04
        for j, e in enumerate(rest):
            e.key = lo + (1 - lo) * (j + rng.uniform(0.1, 0.9)) / len(rest)
        corrections = sorted((e for e in facts if e.kind == "correction"), key=lambda e: -e.key)
        far_wanted = max(1, math.ceil(len(corrections) / 2))
        for e in corrections + [e for e in facts if e.kind != "correction"]:
            if e.stale_of is None:
                continue
            room = e.key - 0.035
            if e.kind == "correction" and far_wanted > 0 and room > 0.12:
                far_wanted -= 1
                gap = rng.uniform(0.1, min(0.4, room))
            else:
                gap = min(room, rng.uniform(0.008, 0.03))
            e.stale_of.key = e.key - max(gap, 0.0005)
        episodes = sorted(facts + stales, key=lambda e: e.key)
        used = 0
        for e in episodes:
            e.start = base + used + math.floor(free * min(max(e.key, 0.0), 0.999))
            used += len(e.msgs)
        thirds = [0, 0, 0]
        for e in facts:
            thirds[min(2, (e.start + e.at) * 3 // n)] += 1
        if min(thirds) >= max(1, len(facts) // 6):
            break
    return episodes


SYSTEM = ("You are a coding agent working in the ROS 2 Humble workspace /ws of a warehouse-robotics team in Osaka. "
          "The fleet is ~24 AMRs (amr-01..amr-24) on the Osaka B site, running Nav2, AMCL and our own C++/Python nodes "
          "(amr_nav, amr_safety, amr_localization, can_motor_driver, fleet_bridge, amr_docking). Tools: shell (also ssh "
          "to robots), colcon, ros2, read_file, write_file, edit_file, git, fleet_api (the fleet manager's REST API), "
          "grafana (Prometheus queries and snapshots). Never command real robots to move without the user's go-ahead. "
          "Prefer the Gazebo sim (docker compose in src/amr_sim) for anything risky.")


def _intro(rng: random.Random) -> str:
    r = rng.sample(ROBOTS, 2)
    return (f"おはよう。{r[0]} and {r[1]} keep losing localization in aisles near the glass wall on B, customer is annoyed. "
            f"Also the dock tests are flaky since last week. Can you start by getting the workspace built and look at the "
            f"logs from yesterday around {_clock(rng)}?")


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A robotics session of exactly ``messages`` messages (at least MIN_MESSAGES) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a robotics session needs at least {MIN_MESSAGES} messages, not {messages}")
    n = messages
    rng = random.Random(seed)
    mk = _Mk(rng)
    claims = _Claims()
    k = per_kind(n)

    facts: list[_Ep] = []
    stales: list[_Ep] = []
    # instructions: alternate languages; the first two are the user's own, one in three later ones adopted
    lang0 = rng.choice(("ja", "en"))
    for i in range(k):
        lang = lang0 if i % 2 == 0 else ("en" if lang0 == "ja" else "ja")
        facts.append(_ep_instruction(rng, mk, claims, lang, adopted=i >= 2 and i % 3 == 2))
    near_count = max(1, math.ceil(2 * k / 3))
    for i in range(k):
        ep, st = _ep_correction(rng, mk, claims, near=i < near_count)
        facts.append(ep)
        stales.append(st)
    revised = max(1, k // 3)
    for i in range(k):
        ep, st2 = _ep_decision(rng, mk, claims, revise=i < revised)
        facts.append(ep)
        if st2 is not None:
            stales.append(st2)
    resolved = max(1, k // 2)
    for i in range(k):
        facts.append(_ep_error(rng, mk, claims, resolve=i < resolved))
    for _ in range(k):
        facts.append(_ep_file(rng, mk, claims))
    said0 = rng.random() < 0.5
    for i in range(k):
        facts.append(_ep_identifier(rng, mk, claims, said=(i % 2 == 0) == said0))
    for _ in range(k):
        facts.append(_ep_finding(rng, mk, claims))
    for _ in range(k):
        facts.append(_ep_plan(rng, mk, claims))

    episodes = _layout(rng, n, facts, stales)

    pasted: list[tuple[int, str]] = []
    filler = _Filler(rng, mk, pasted)
    called = {c["function"]["name"] for e in episodes for m in e.msgs for c in m.get("tool_calls") or []}
    filler.unused = [t for t in filler.unused if t not in called]
    out: list[Message] = [{"role": "system", "content": SYSTEM}, mk.user(_intro(rng))]
    for e in episodes:
        out.extend(filler.make(e.start - len(out), len(out), out[-1]))
        for off, text in e.pasted:
            pasted.append((e.start + off, text))
        out.extend(e.msgs)
    out.extend(filler.make(n - 2 - len(out), len(out), out[-1]))
    out.append(mk.say(_assistant_filler(rng)))
    out.append(mk.user(rng.choice(("ok, let's continue tomorrow. まとめて", "次は何?", "ok what's left on the todo",
                                   "summarize where we are pls"))))
    assert len(out) == n, (len(out), n)

    # size the filler tool outputs to the bench's budget
    per_msg = 1500 if n <= 400 else min(1620.0, 1500 + (n - 400) * 0.045)
    fixed = sum(len(text_of(m)) for m in out)
    budget = max(0.0, per_msg * n - fixed)
    weights = [w * rng.uniform(0.4, 1.6) for _m, _o, w in mk.pending]
    scale = budget / max(1e-9, sum(weights))
    for (m, make_out, _w), w in zip(mk.pending, weights):
        m["content"] = make_out(max(200, int(w * scale)))

    result = []
    for e in facts:
        stale_index = None
        if e.stale_of is not None:
            stale_index = e.stale_of.start + e.stale_of.at
        result.append(Fact(e.kind, e.value, e.start + e.at, e.query, stale=e.stale, stale_index=stale_index,
                           resolved=None if e.resolved_at is None else e.start + e.resolved_at))
    result.sort(key=lambda f: f.index)
    pasted.sort(key=lambda p: p[0])
    return Session(messages=out, facts=result, seed=seed, pasted=pasted)

"""Sessions of a solo indie developer and a coding agent on a Godot 4 game, for the fidelity bench.

    from gen_gamedev import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

The developer (Québécois, English mixed with French, a Spanish phrase now and then) ships *Lanterne*,
a 2.5D action-platformer in Godot 4.2 .NET (C# gameplay, GDScript for UI and tools), to Steam, the
Steam Deck and later the Switch. The agent reads and writes files, patches them, runs ``dotnet build``,
GdUnit4 / NUnit, Godot headless (runs, imports, exports), a profiler, the issue tracker and
``steamcmd``; their outputs carry most of the characters. The user pastes a publisher's milestone
email, playtester feedback copied from Discord, a certification checklist, the contract artist's
Spanish notes on asset naming and a store-page draft: other people's imperatives, listed in
``session.pasted``, which the user adopts only in their own words.

Planted facts (``session.facts``): standing instructions (indirect, casual, conditional, French,
Spanish, in the middle of a long message, adopted from the checklist), loose corrections (near
misses, some 100+ messages after what they correct), decisions (some revised), plans in prose,
files the agent creates, errors (whole lines; some resolved by a later run of the same tool),
identifiers (said by the user and printed by tools) and findings read in an output.
"""

from __future__ import annotations

import json
import math
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("read_file", "write_file", "apply_patch", "grep", "run_build", "run_tests", "godot_headless", "profiler",
         "tracker", "steamcmd")
SMALLEST = 60
RATE = 1560  # characters a message, on average: 400 messages ~ 624k, 3000 ~ 4.7M
ROOT = "/home/etienne/dev/lanterne"
CSPROJ = f"{ROOT}/Lanterne.csproj"
APP_ID = 2841170
DEPOTS = {"windows": 2841171, "linux": 2841172, "deck": 2841173}
GODOT = "Godot Engine v4.2.2.stable.mono.official.15073afe3 - https://godotengine.org"


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000 (linear in between), 12 beyond."""
    if messages <= 60:
        return 1
    if messages >= 3000:
        return 12
    if messages <= 400:
        x = 1 + 5 * (messages - 60) / 340
    else:
        x = 6 + 6 * (messages - 400) / 2600
    return int(math.floor(x + 0.5))


# --- the filler's vocabulary (never a fact's) -----------------------------------------------------------------

CS_FILES = (
    "scripts/player/Player.cs", "scripts/player/PlayerMotor.cs", "scripts/player/InputBuffer.cs",
    "scripts/player/PlayerAnimator.cs", "scripts/combat/HurtboxComponent.cs", "scripts/combat/HitboxComponent.cs",
    "scripts/combat/DamageInfo.cs", "scripts/combat/HealthComponent.cs", "scripts/enemies/EnemyBase.cs",
    "scripts/enemies/Mothling.cs", "scripts/enemies/Lampwraith.cs", "scripts/enemies/Gloomcrab.cs",
    "scripts/core/GameState.cs", "scripts/core/SaveService.cs", "scripts/core/SceneRouter.cs",
    "scripts/core/AudioDirector.cs", "scripts/core/EventBus.cs", "scripts/ui/HudController.cs",
    "scripts/ui/PauseMenu.cs", "scripts/ui/OptionsMenu.cs", "scripts/world/LanternPickup.cs",
    "scripts/world/Checkpoint.cs", "scripts/world/DoorTrigger.cs", "scripts/world/FerryPlatform.cs",
    "scripts/platform/SteamBridge.cs", "scripts/platform/DeckProfile.cs", "scripts/platform/PlatformServices.cs",
    "scripts/fx/CameraShake.cs", "scripts/fx/HitStop.cs", "scripts/world/RopeBridge.cs",
)
GD_FILES = (
    "scenes/ui/hud.gd", "scenes/ui/main_menu.gd", "scenes/ui/credits.gd", "scenes/world/ferry.gd",
    "scenes/world/bell.gd", "scenes/fx/lantern_flicker.gd", "scenes/fx/dust_motes.gd", "scenes/levels/old_town.gd",
    "tools/bake_lightmaps.gd", "tools/validate_assets.gd", "scenes/npc/ferryman.gd", "scenes/npc/shopkeeper.gd",
    "scenes/ui/options_menu.gd", "scenes/ui/toast.gd", "scenes/player/player_fx.gd",
)
SCENES = (
    "scenes/levels/forest_edge.tscn", "scenes/levels/old_town.tscn", "scenes/levels/harbor.tscn",
    "scenes/levels/cathedral.tscn", "scenes/levels/hub_village.tscn", "scenes/levels/undercroft.tscn",
    "scenes/player/player.tscn", "scenes/ui/hud.tscn", "scenes/ui/main_menu.tscn", "scenes/ui/pause_menu.tscn",
    "scenes/enemies/mothling.tscn", "scenes/enemies/lampwraith.tscn", "scenes/enemies/gloomcrab.tscn",
    "scenes/world/ferry.tscn", "scenes/world/checkpoint.tscn", "scenes/levels/lighthouse.tscn",
)
LEVELS = tuple(s for s in SCENES if "/levels/" in s)
SHADERS = ("shaders/water.gdshader", "shaders/fog_card.gdshader", "shaders/lantern_light.gdshader",
           "shaders/dither_fade.gdshader", "shaders/toon_ramp.gdshader", "shaders/foliage_sway.gdshader")
TRES = ("resources/enemies/mothling_stats.tres", "resources/enemies/lampwraith_stats.tres",
        "resources/themes/main_theme.tres", "resources/player/move_tuning.tres", "resources/env/old_town_env.tres",
        "resources/enemies/gloomcrab_stats.tres")
CONFIGS = ("Lanterne.csproj", "project.godot", "export_presets.cfg")
CLASSES = ("Player", "PlayerMotor", "InputBuffer", "HurtboxComponent", "HitboxComponent", "HealthComponent",
           "EnemyBase", "Mothling", "Lampwraith", "Gloomcrab", "GameState", "SaveService", "SceneRouter",
           "AudioDirector", "HudController", "LanternPickup", "Checkpoint", "FerryPlatform", "DeckProfile",
           "CameraShake", "HitStop", "RopeBridge", "DoorTrigger", "PauseMenu")
FIELDS = ("_velocity", "_hurtbox", "_health", "_stateTimer", "_target", "_anim", "_jumpBuffer", "_lanternFuel",
          "_router", "_bus", "_camera", "_spawnPoint", "_knockback", "_invulnTimer", "_isGrounded", "_facing",
          "_fuelDrainRate", "_checkpointId", "_ferrySpeed", "_shakeStrength", "_pending", "_audio", "_slot")
METHODS = ("ApplyGravity", "TryJump", "HandleDash", "OnHurtboxAreaEntered", "TakeDamage", "Respawn", "SaveSlot",
           "LoadSlot", "ChangeScene", "PlayOneShot", "UpdateFacing", "TickTimers", "RefillLantern", "Die",
           "OnBodyEntered", "StartShake", "Freeze", "SnapToFloor", "QueueTransition", "ResolveInput")
GD_VARS = ("speed", "fade_time", "bob_height", "flicker_amount", "target_alpha", "dock_position", "toast_queue",
           "menu_index", "fuel_ratio", "wave_offset", "shop_items", "line_delay", "dust_count", "bell_swing")
SIGNALS = ("died", "health_changed", "lantern_refilled", "checkpoint_reached", "ferry_docked", "menu_closed",
           "scene_ready", "damage_taken", "fuel_empty", "bell_rung", "toast_finished")
SYSTEMS = ("Player._PhysicsProcess", "PlayerMotor.Step", "EnemyBase._PhysicsProcess", "Mothling.Think",
           "Lampwraith.Think", "Gloomcrab.Think", "HudController._Process", "AudioDirector._Process",
           "SceneRouter._Process", "lantern_flicker.gd:_process", "dust_motes.gd:_process", "ferry.gd:_physics_process",
           "NavigationServer3D.sync", "PhysicsServer3D.step", "RenderingServer.sync", "GPUParticles3D.update",
           "AnimationTree.advance", "CameraShake._Process", "HitStop._Process", "RopeBridge._PhysicsProcess")
TESTS_NUNIT = ("JumpBufferExpires", "CoyoteTimeAllowsLateJump", "DashCooldownResets", "HurtboxIgnoresOwner",
               "DamageAppliesKnockback", "HealthNeverNegative", "LanternFuelDrains", "LanternRefillClamps",
               "CheckpointStoresPosition", "SaveRoundTripsSlot", "SaveRejectsCorruptHeader", "SceneRouterQueues",
               "FerryStopsAtDock", "AudioDirectorDucksMusic", "PauseFreezesTree", "OptionsPersistVolume",
               "MothlingFleesLight", "LampwraithTeleportCooldown", "GloomcrabShellBlocksFront", "HitStopRestoresTime",
               "CameraShakeDecays", "InputBufferKeepsLastPress", "DeckProfileLowersShadows", "RopeBridgeSnaps")
TESTS_GD = ("test_toast_queue_order", "test_menu_wraps_index", "test_credits_scroll_end", "test_fade_time_zero",
            "test_bell_swing_damps", "test_dust_count_deck", "test_ferryman_dialog_start", "test_shop_items_sorted",
            "test_hud_fuel_bar", "test_options_back_button", "test_flicker_seeded", "test_validate_assets_names")
TRACKER_TITLES = (
    "Softlock when dying during the ferry ride", "Lantern fuel bar desyncs after loading a slot",
    "Camera clips into the cathedral pillars", "Mothling swarm drops frames on Deck", "Pause menu ignores B on Switch Pro",
    "Audio pops when changing scene", "Checkpoint in undercroft respawns under the floor",
    "Steam overlay steals input after alt-tab", "Gloomcrab shell hitbox too wide", "Subtitles overlap HUD at 1280x800",
    "Rope bridge jitter at 40 Hz", "Hub village shop does not restock", "Shader stutter first time lighthouse loads",
    "Rebinding jump breaks dash buffer", "Crash on exit with controller unplugged", "Old town fog card z-fights",
)
TESTERS = ("mothkeeper", "pixelrat_92", "LaBelleJosee", "nox", "deckdaddy", "frogknight", "tuque_master",
           "sunny.exe", "gabou", "Ms_Poutine", "lowfps_larry", "chloe_plays")
PACKAGES = (("Chickensoft.GoDotTest", "1.5.0"), ("Chickensoft.GodotTestDriver", "3.0.0"), ("NUnit", "3.14.0"),
            ("NUnit3TestAdapter", "4.5.0"), ("Microsoft.NET.Test.Sdk", "17.9.0"), ("Serilog", "3.1.1"),
            ("Serilog.Sinks.File", "5.0.0"), ("System.Text.Json", "8.0.2"), ("Chickensoft.LogicBlocks", "5.0.0"))
WARNINGS = (
    ("CS8618", "Non-nullable field '{f}' must contain a non-null value when exiting constructor. Consider declaring the field as nullable."),
    ("CS8602", "Dereference of a possibly null reference."),
    ("CS0168", "The variable '{v}' is declared but never used"),
    ("CS0649", "Field '{c}.{f}' is never assigned to, and will always have its default value null"),
    ("CS0414", "The field '{c}.{f}' is assigned but its value is never used"),
    ("CS8600", "Converting null literal or possible null value to non-nullable type."),
    ("CS8604", "Possible null reference argument for parameter '{p}' in 'void {c}.{m}(Node3D {p})'."),
    ("CS0108", "'{c}.{m}()' hides inherited member 'EnemyBase.{m}()'. Use the new keyword if hiding was intended."),
    ("CS1998", "This async method lacks 'await' operators and will run synchronously. Consider using the 'await' operator to await non-blocking API calls, or 'await Task.Run(...)' to do CPU-bound work on a background thread."),
    ("CS0219", "The variable '{v}' is assigned but its value is never used"),
)
GD_WARNINGS = (
    "The local variable \"{v}\" is declared but never used in the block. If this is intended, prefix it with an underscore: \"_{v}\".",
    "The parameter \"delta\" is never used in the function \"_process()\". If this is intended, prefix it with an underscore: \"_delta\".",
    "Integer division, decimal part will be discarded.",
    "The signal \"{s}\" is declared but never emitted.",
    "The variable \"{v}\" has no static type.",
    "Narrowing conversion (float is converted to int and loses precision).",
)

# --- the facts' vocabulary (never the filler's) ---------------------------------------------------------------

F_SCENES = ("boss_arena", "bell_tower", "moth_nest", "sewer_gate", "crypt_hall", "market_roofs", "tide_caves",
            "chapel_loft", "salt_mines", "clock_works", "ember_forge", "quarry_pit")
F_SHADERS = ("rim_glow_v2", "ember_trail", "ink_bleed", "moth_wing_shimmer", "heat_haze_b", "caustics_fast",
             "soot_smear", "veil_ripple", "cinder_dissolve", "glint_sweep", "tide_foam_lite", "ash_drift")
F_ENEMIES = ("Bellhound", "Wickspider", "Sootling", "Cinderjaw", "Veilmoth", "Tidecrawler", "Thornback", "Glintfox",
             "Mirewight", "Ashwarden", "Quillbeast", "Runeleech")
F_TESTERS = ("LumenFox99", "cap_tain_bouee", "xX_ardoise_Xx", "peanutbrittle", "KaiserPoutine", "maple_rogue",
             "ventdouest", "Crabe_Royal", "hollowbones", "deckenjoyer42", "sirop_derable", "Zorglub_QC")
F_SIGNAL_PAIRS = (("parry_landed", "parry_linked"), ("ember_spent", "ember_spend"), ("tether_snapped", "tether_snipped"),
                  ("veil_lifted", "veil_lofted"), ("gust_started", "gust_starting"), ("ward_shattered", "ward_scattered"),
                  ("soot_cleared", "soot_cleaned"), ("cinder_faded", "cinder_fading"), ("rune_traced", "rune_tracked"),
                  ("thorn_grabbed", "thorn_grabbing"), ("glint_caught", "glint_catching"), ("husk_cracked", "husk_cracking"))
F_ACH_SUBJECTS = ("BELLHOUND", "WICKSPIDER", "CINDERJAW", "VEILMOTH", "TIDECRAWLER", "THORNBACK", "ASHWARDEN",
                  "QUILLBEAST", "RUNELEECH", "MIREWIGHT", "GLINTFOX", "SOOTLING")
F_ACH_PAIRS = (("NOHIT", "NO_HIT"), ("SPEEDRUN", "SPEED_RUN"), ("NODAMAGE", "NO_DAMAGE"), ("ALLWICKS", "ALL_WICKS"),
               ("ONELIFE", "ONE_LIFE"))
F_BRANCHES = ("deck-rc", "qa-deck", "perf-wk", "cert-rc", "pub-review", "fest-demo")
F_TYPES = ("Hitbox", "ParryState", "WickCharge", "StaggerMeter", "TetherJoint", "EmberPool", "VeilMask", "GustField",
           "WardTotem", "SootEmitter", "GlintTracker", "CinderBurst", "RuneSlot", "QuillVolley")
F_MEMBERS = ("ConsumeWick", "SpendEmber", "SnapTether", "LiftVeil", "RaiseWard", "ClearSoot", "TraceRune",
             "BraceFrames", "DriftBias", "LullWindow", "GustImpulse", "CrackHusk")
F_PROPS = ("wick_charge", "ember_stacks", "glint_timer", "tether_len", "veil_alpha", "stagger_meter", "brace_frames",
           "drift_bias", "lull_window", "soot_level", "gust_force", "ward_radius", "rune_index", "husk_hp")
F_FUNCS = ("apply_wick", "spend_ember", "snap_tether", "lift_veil", "raise_ward", "clear_soot", "trace_rune",
           "crack_husk", "drift_toward", "fire_quills")
F_SHADER_IDS = ("soot_mask", "ember_ramp", "veil_noise", "glint_speed", "cinder_edge", "tether_uv", "rune_glow",
                "husk_tint", "quill_fresnel", "ash_scroll")
F_WORDS = ("Wick", "Ember", "Tether", "Veil", "Gust", "Ward", "Soot", "Glint", "Cinder", "Rune", "Husk", "Quill",
           "Brace", "Drift", "Lull", "Thorn", "Mire", "Ash")
F_VERBS = ("Expires", "Refills", "Stacks", "Breaks", "Resets", "Decays", "Survives", "Persists", "Clamps", "Blocks",
           "Migrates", "Reloads")
F_CONDS = ("After_Pause", "On_Scene_Change", "Across_Saves", "When_Parried", "At_Zero_Fuel", "Under_Hitstop",
           "On_Deck_Suspend", "During_Ferry", "With_Two_Pads", "After_Respawn")
F_NPCS = ("LIGHTKEEPER", "NETMENDER", "TOLLMAN", "CANTOR", "SALTWIFE", "LAMPLIGHTER", "OARSMAN", "GRAVEDIGGER")
F_ACTIONS = ("parry_hold_alt", "tether_pull", "wick_toggle", "veil_peek", "ember_burst", "ward_plant", "rune_cycle",
             "quill_aim")
F_FILE_STEMS = ("ParryBuffer", "StaggerMeter", "WickCharge", "EmberTrail", "TetherRope", "VeilFader", "GustZone",
                "WardTotem", "SootCloud", "GlintPickup", "SuspendGuard", "DeckPerfOverlay", "SwitchSaveAdapter",
                "RumbleProfile", "AchievementRelay", "CaptionTrack", "RuneDoor", "HuskShell", "QuillTurret",
                "AshVolume", "MireSink", "ThornVine", "LullTimer", "DriftCamera")
ALPHABET = "abcdefghijklmnopqrstuvwxy0123456789"


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() and i else ch.lower() for i, ch in enumerate(name))


def _uid(rng: random.Random) -> str:
    return "uid://" + "".join(rng.choice(ALPHABET) for _ in range(13))


def _path_uid(path: str) -> str:
    """A scene's uid, stable for its path (the filler reads the same files again and again)."""
    r = random.Random(zlib.crc32(path.encode()))
    return "uid://" + "".join(r.choice(ALPHABET) for _ in range(13))


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _typo(text: str, rng: random.Random, p: float = 0.05) -> str:
    """A hurried typist: letters swapped, dropped or doubled in a few plain words (never in paths or names)."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) < 4 or not w.isalpha() or not w.islower() or rng.random() >= p:
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


def _pick(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def _lines_to(size: int, head: list[str], make: Callable[[], str], tail: list[str] | None = None,
              inserts: list[str] | None = None, rng: random.Random | None = None) -> str:
    """``head``, then lines from ``make`` until about ``size`` characters, ``inserts`` among them, then ``tail``."""
    tail = tail or []
    budget = size - sum(len(x) + 1 for x in head) - sum(len(x) + 1 for x in tail)
    body: list[str] = []
    used = 0
    while used < budget or len(body) < 3:
        line = make()
        body.append(line)
        used += len(line) + 1
    for extra in inserts or []:
        at = rng.randrange(len(body) // 4, len(body) + 1) if rng else len(body)
        body.insert(at, extra)
    return "\n".join(head + body + tail)


# --- files read back and written -------------------------------------------------------------------------------

CS_STATEMENTS = (
    "var input = Input.GetVector(\"move_left\", \"move_right\", \"move_up\", \"move_down\");",
    "_velocity.Y -= Gravity * (float)delta;",
    "if (_invulnTimer > 0f) {{ _invulnTimer -= (float)delta; return; }}",
    "EmitSignal(SignalName.HealthChanged, _health, MaxHealth);",
    "_anim.Play(_isGrounded ? \"run\" : \"fall\");",
    "GetTree().CreateTimer({f:.2f}).Timeout += () => _pending = false;",
    "GD.Print($\"[{c}] {m} -> {{_stateTimer:0.00}}\");",
    "var space = GetWorld3D().DirectSpaceState;",
    "var query = PhysicsRayQueryParameters3D.Create(GlobalPosition, GlobalPosition + Vector3.Down * {f:.1f}f);",
    "Velocity = _velocity;",
    "MoveAndSlide();",
    "_isGrounded = IsOnFloor();",
    "if (_target is null || !IsInstanceValid(_target)) return;",
    "_facing = Mathf.Sign(input.X) == 0 ? _facing : Mathf.Sign(input.X);",
    "_lanternFuel = Mathf.Clamp(_lanternFuel - _fuelDrainRate * (float)delta, 0f, 1f);",
    "_bus.Publish(new DamageInfo(this, {i}, _knockback));",
    "_camera.Call(\"add_trauma\", {f:.2f});",
    "_shakeStrength = Mathf.Lerp(_shakeStrength, 0f, (float)delta * {i});",
    "_jumpBuffer = Mathf.Max(0f, _jumpBuffer - (float)delta);",
    "if (Input.IsActionJustPressed(\"jump\")) _jumpBuffer = JumpBufferTime;",
    "_audio.PlayOneShot(\"sfx/{s}\", GlobalPosition);",
    "_slot.Data[\"checkpoint\"] = _checkpointId;",
    "await ToSignal(GetTree(), SceneTree.SignalName.ProcessFrame);",
    "foreach (var child in GetChildren()) if (child is HurtboxComponent hb) hb.Monitoring = enabled;",
    "_spawnPoint = GetNode<Marker3D>(\"%SpawnPoint\").GlobalPosition;",
    "Engine.TimeScale = {f:.2f};",
    "_router.QueueTransition(\"res://{scene}\");",
    "var tween = CreateTween().SetTrans(Tween.TransitionType.Sine);",
    "tween.TweenProperty(this, \"modulate:a\", 0f, {f:.2f});",
    "_stateTimer += (float)delta;",
    "if (_health <= 0) {{ EmitSignal(SignalName.Died); return; }}",
)
GD_STATEMENTS = (
    "var tween := create_tween().set_trans(Tween.TRANS_SINE)",
    "tween.tween_property(self, \"modulate:a\", {t}, fade_time)",
    "position.y = _base_y + sin(_t * TAU * {f:.1f}) * bob_height",
    "_t += delta",
    "if toast_queue.is_empty():\n\t\treturn",
    "var label: Label = %Title",
    "label.text = tr(\"{key}\")",
    "menu_index = wrapi(menu_index + dir, 0, _buttons.size())",
    "_buttons[menu_index].grab_focus()",
    "emit_signal(\"{sig}\")",
    "await get_tree().create_timer({f:.2f}).timeout",
    "for m in _motes:\n\t\tm.position += m.velocity * delta",
    "light.light_energy = base_energy + randf_range(-flicker_amount, flicker_amount)",
    "if not is_instance_valid(_player):\n\t\t_player = get_tree().get_first_node_in_group(\"player\")",
    "get_tree().paused = {b}",
    "%FuelBar.value = fuel_ratio * 100.0",
    "print_debug(\"[{mod}] \", {var})",
    "var err := ResourceLoader.load_threaded_request(\"res://{scene}\")",
    "assert(err == OK)",
    "dock_position = $Dock.global_position",
    "set_process({b})",
)
NODE_TYPES = ("Node3D", "MeshInstance3D", "CollisionShape3D", "Area3D", "StaticBody3D", "OmniLight3D", "SpotLight3D",
              "GPUParticles3D", "AnimationPlayer", "AudioStreamPlayer3D", "Marker3D", "Timer", "CSGBox3D",
              "NavigationRegion3D", "DirectionalLight3D", "Decal", "FogVolume", "ReflectionProbe")
PROP_NAMES = ("Lantern", "Crate", "Barrel", "Pillar", "Lamp", "Rope", "Fence", "Net", "Bench", "Sign", "Pew", "Candle",
              "Dock", "Rock", "Arch", "Window", "Bell", "Stall")


def _cs_code(rng: random.Random, path: str, size: int) -> str:
    cls = path.rsplit("/", 1)[-1][:-3]
    parts = path.split("/")
    area = "Tests." + parts[2] if parts[0] == "tests" else parts[1].capitalize()
    same = random.Random(zlib.crc32(path.encode()))  # what a file read twice keeps: its class, summary and fields
    base = same.choice(("CharacterBody3D", "Node3D", "Node", "Area3D", "Control", "EnemyBase", "RefCounted"))
    head = ["using Godot;", "using System;", "using System.Collections.Generic;", "", f"namespace Lanterne.{area};", "",
            f"/// <summary>{cls}: {_pick(same, 'owned by the player scene', 'autoload, see project.godot', 'lives on every enemy root', 'spawned by SceneRouter')}.</summary>",
            f"public partial class {cls} : {base}", "{"]
    for s in same.sample(SIGNALS, 2):
        head.append(f"    [Signal] public delegate void {''.join(w.capitalize() for w in s.split('_'))}EventHandler();")
    for f in same.sample(FIELDS, 5):
        head.append(f"    [Export] public float {f[1].upper()}{f[2:]} {{ get; set; }} = {same.uniform(0.1, 12):.2f}f;"
                    if same.random() < 0.4 else f"    private {same.choice(('float', 'int', 'bool', 'Node3D?', 'Vector3', 'Timer'))} {f};")
    head.append("")

    def method() -> str:
        name = rng.choice(METHODS)
        sig = rng.choice(("()", "(double delta)", "(Node3D body)", "(int amount)", "(bool enabled)"))
        lines = [f"    {rng.choice(('private', 'public', 'protected'))} void {name}{sig}", "    {"]
        for _ in range(rng.randint(3, 9)):
            lines.append("        " + rng.choice(CS_STATEMENTS).format(
                f=rng.uniform(0.05, 3), i=rng.randint(2, 40), c=cls, m=name, s=rng.choice(("hit", "dash", "land", "bell")),
                scene=rng.choice(LEVELS)))
        lines += ["    }", ""]
        return "\n".join(lines)
    return _lines_to(size, head, method, ["}"])


def _gd_code(rng: random.Random, path: str, size: int) -> str:
    mod = path.rsplit("/", 1)[-1][:-3]
    same = random.Random(zlib.crc32(path.encode()))
    head = [f"extends {same.choice(('Node3D', 'Control', 'CanvasLayer', 'Node', 'Label'))}",
            f"## {mod}: {_pick(same, 'UI glue, keep it dumb', 'tool script, editor only', 'fx only, no gameplay here', 'see HudController.cs for the C# side')}",
            ""]
    for s in same.sample(SIGNALS, 2):
        head.append(f"signal {s}")
    for v in same.sample(GD_VARS, 4):
        head.append(f"@export var {v}: {same.choice(('float', 'int', 'bool', 'Vector3', 'Array[String]'))}")
    head += ["", "var _t := 0.0", ""]

    def func() -> str:
        name = rng.choice(("_ready", "_process", "_physics_process", "_on_button_pressed", "show_toast", "_refresh",
                           "_on_body_entered", "open", "close", "_advance"))
        lines = [f"func {name}({rng.choice(('', 'delta: float', 'body: Node3D', 'text: String'))}) -> void:"]
        for _ in range(rng.randint(2, 7)):
            lines.append("\t" + rng.choice(GD_STATEMENTS).format(
                t=rng.choice(("0.0", "1.0")), f=rng.uniform(0.1, 4), key=rng.choice(("UI_CONTINUE", "UI_OPTIONS", "UI_QUIT")),
                sig=rng.choice(SIGNALS), b=rng.choice(("true", "false")), mod=mod, var=rng.choice(GD_VARS),
                scene=rng.choice(LEVELS)))
        return "\n".join(lines) + "\n"
    return _lines_to(size, head, func)


def _tscn(rng: random.Random, path: str, size: int) -> str:
    head = [f"[gd_scene load_steps={rng.randint(6, 40)} format=3 uid=\"{_path_uid(path)}\"]", ""]
    for k, res in enumerate(rng.sample(CS_FILES + GD_FILES, 3) + rng.sample(SHADERS, 1), 1):
        kind = "Shader" if res.endswith("gdshader") else "Script"
        head.append(f"[ext_resource type=\"{kind}\" uid=\"{_path_uid(res)}\" path=\"res://{res}\" id=\"{k}_{_hex(rng, 4)}\"]")
    head += ["", f"[sub_resource type=\"CapsuleShape3D\" id=\"CapsuleShape3D_{_hex(rng, 5)}\"]",
             f"radius = {rng.uniform(0.2, 0.6):.3f}", f"height = {rng.uniform(1.2, 2.2):.3f}", "",
             f"[node name=\"{path.rsplit('/', 1)[-1][:-5].title().replace('_', '')}\" type=\"Node3D\"]", ""]
    counter = [0]

    def node() -> str:
        counter[0] += 1
        typ = rng.choice(NODE_TYPES)
        name = f"{rng.choice(PROP_NAMES)}{counter[0]}"
        parent = rng.choice((".", "World", "World/Props", "Lights", "Gameplay"))
        out = [f"[node name=\"{name}\" type=\"{typ}\" parent=\"{parent}\"]",
               f"transform = Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, {rng.uniform(-80, 80):.3f}, {rng.uniform(-4, 18):.3f}, {rng.uniform(-6, 6):.3f})"]
        if typ in ("OmniLight3D", "SpotLight3D"):
            out += [f"light_color = Color({rng.random():.4f}, {rng.random():.4f}, {rng.random():.4f}, 1)",
                    f"light_energy = {rng.uniform(0.2, 4):.2f}", f"shadow_enabled = {rng.choice(('true', 'false'))}"]
        elif typ in ("Area3D", "StaticBody3D"):
            out += [f"collision_layer = {rng.choice((1, 2, 4, 8, 16, 33))}", f"collision_mask = {rng.choice((1, 3, 5, 7, 9))}"]
        elif typ == "GPUParticles3D":
            out += [f"amount = {rng.randint(8, 400)}", f"lifetime = {rng.uniform(0.3, 6):.2f}"]
        return "\n".join(out) + "\n"
    tail = [f"[connection signal=\"{rng.choice(SIGNALS)}\" from=\"Gameplay\" to=\".\" method=\"_on_{rng.choice(SIGNALS)}\"]"]
    return _lines_to(size, head, node, tail)


def _tres(rng: random.Random, path: str, size: int) -> str:
    head = [f"[gd_resource type=\"{rng.choice(('Resource', 'Theme', 'Environment'))}\" load_steps={rng.randint(2, 30)} format=3 uid=\"{_path_uid(path)}\"]",
            "", f"[ext_resource type=\"Script\" path=\"res://{rng.choice(CS_FILES)}\" id=\"1_{_hex(rng, 4)}\"]", ""]
    keys = ("max_health", "move_speed", "accel", "friction", "jump_velocity", "gravity_scale", "knockback", "fog_density",
            "ambient_light_energy", "glow_intensity", "tonemap_exposure", "font_size", "margin_left", "corner_radius")

    def sub() -> str:
        kind = rng.choice(("StyleBoxFlat", "Gradient", "Curve", "FontVariation"))
        rows = [f"[sub_resource type=\"{kind}\" id=\"{kind}_{_hex(rng, 5)}\"]"]
        rows += [f"{rng.choice(keys)} = {rng.uniform(0, 400):.3f}" for _ in range(rng.randint(3, 8))]
        return "\n".join(rows) + "\n"
    tail = ["[resource]", "script = ExtResource(\"1\")"] + [f"{k} = {rng.uniform(0, 90):.2f}" for k in rng.sample(keys, 6)]
    return _lines_to(size, head, sub, tail)


def _shader(rng: random.Random, path: str, size: int) -> str:
    head = ["shader_type spatial;", f"render_mode {rng.choice(('unshaded', 'blend_mix', 'depth_draw_opaque'))}, cull_back;", ""]
    uniforms = ("albedo_tint", "wave_speed", "fog_height", "flicker_rate", "dither_scale", "ramp_tex", "sway_amount",
                "foam_cutoff", "noise_tex", "light_falloff")

    def block() -> str:
        u = rng.choice(uniforms)
        return rng.choice((
            f"uniform float {u} : hint_range(0.0, {rng.randint(1, 20)}.0) = {rng.uniform(0, 1):.2f};",
            f"uniform sampler2D {u} : source_color, filter_linear_mipmap;",
            f"varying vec3 v_{u};",
            f"void vertex() {{\n\tVERTEX.y += sin(TIME * {u} + VERTEX.x * {rng.uniform(0.1, 4):.2f}) * {rng.uniform(0.01, 0.3):.3f};\n}}",
            f"void fragment() {{\n\tvec4 c = texture({u}, UV * {rng.uniform(0.5, 8):.2f});\n\tALBEDO = c.rgb * {rng.uniform(0.2, 1.5):.2f};\n\tALPHA = c.a;\n}}",
            f"// {_pick(rng, 'tuned on the Deck', 'Ximena wants this warmer', 'cheap path for Switch', 'do not touch, see tracker')}",
        ))
    return _lines_to(size, head, block)


def _csproj(rng: random.Random, size: int) -> str:
    head = ["<Project Sdk=\"Godot.NET.Sdk/4.2.2\">", "  <PropertyGroup>", "    <TargetFramework>net8.0</TargetFramework>",
            "    <TargetFramework Condition=\" '$(GodotTargetPlatform)' == 'android' \">net8.0</TargetFramework>",
            "    <EnableDynamicLoading>true</EnableDynamicLoading>", "    <Nullable>enable</Nullable>",
            "    <LangVersion>12</LangVersion>", "    <RootNamespace>Lanterne</RootNamespace>",
            "    <TreatWarningsAsErrors>false</TreatWarningsAsErrors>", "    <NoWarn>$(NoWarn);CA1822</NoWarn>",
            "  </PropertyGroup>", "  <ItemGroup>"]
    pkgs = iter(rng.sample(PACKAGES, len(PACKAGES)))

    def row() -> str:
        name, ver = next(pkgs, (None, None)) or (None, None)
        if name:
            return f"    <PackageReference Include=\"{name}\" Version=\"{ver}\" />"
        return rng.choice((f"    <Compile Remove=\"addons/**/*{rng.choice(('.cs', 'Tests.cs'))}\" />",
                           f"    <None Include=\"{rng.choice(CS_FILES)}.uid\" />",
                           f"    <Content Include=\"data/{rng.choice(('loc', 'tuning', 'credits'))}/*.json\" CopyToOutputDirectory=\"PreserveNewest\" />",
                           "    <!-- keep in sync with export_presets.cfg -->"))
    return _lines_to(size, head, row, ["  </ItemGroup>", "</Project>"])


def _project_godot(rng: random.Random, size: int) -> str:
    head = ["; Engine configuration file.", "; It's best edited using the editor UI and not directly,",
            "; since the parameters that go here are not all obvious.", ";", "; Format:",
            ";   [section] ; section goes between []", ";   param=value ; assign values to parameters", "",
            "config_version=5", "", "[application]", "", "config/name=\"Lanterne\"",
            "run/main_scene=\"res://scenes/ui/main_menu.tscn\"",
            "config/features=PackedStringArray(\"4.2\", \"C#\", \"Forward Plus\")", "config/icon=\"res://icon.svg\"", "",
            "[autoload]", "", "GameState=\"*res://scripts/core/GameState.cs\"", "SceneRouter=\"*res://scripts/core/SceneRouter.cs\"",
            "AudioDirector=\"*res://scripts/core/AudioDirector.cs\"", "EventBus=\"*res://scripts/core/EventBus.cs\"", "",
            "[display]", "", "window/size/viewport_width=1280", "window/size/viewport_height=800",
            "window/stretch/mode=\"canvas_items\"", "", "[dotnet]", "", "project/assembly_name=\"Lanterne\"", "",
            "[layer_names]", ""]
    for k, name in enumerate(("world", "player", "enemies", "hurtbox", "hitbox", "pickups", "triggers", "camera"), 1):
        head.append(f"3d_physics/layer_{k}=\"{name}\"")
    head += ["", "[input]", ""]
    actions = ("move_left", "move_right", "move_up", "move_down", "jump", "dash", "attack", "lantern", "interact",
               "pause", "ui_accept_alt", "map", "inventory", "camera_left", "camera_right")
    counter = [0]

    def action() -> str:
        a = actions[counter[0] % len(actions)] + ("" if counter[0] < len(actions) else f"_{counter[0] // len(actions)}")
        counter[0] += 1
        ev = []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.5:
                ev.append(f"Object(InputEventKey,\"resource_local_to_scene\":false,\"resource_name\":\"\",\"device\":-1,\"window_id\":0,\"alt_pressed\":false,\"shift_pressed\":false,\"ctrl_pressed\":false,\"meta_pressed\":false,\"pressed\":false,\"keycode\":0,\"physical_keycode\":{rng.randint(32, 4194330)},\"key_label\":0,\"unicode\":0,\"echo\":false,\"script\":null)")
            else:
                ev.append(f"Object(InputEventJoypadButton,\"resource_local_to_scene\":false,\"resource_name\":\"\",\"device\":-1,\"button_index\":{rng.randint(0, 15)},\"pressure\":0.0,\"pressed\":true,\"script\":null)")
        return f"{a}={{\n\"deadzone\": 0.5,\n\"events\": [{', '.join(ev)}]\n}}"
    tail = ["", "[physics]", "", "common/physics_ticks_per_second=60", "common/max_physics_steps_per_frame=4", "",
            "[rendering]", "", "textures/canvas_textures/default_texture_filter=0", "anti_aliasing/quality/msaa_3d=1",
            f"lights_and_shadows/directional_shadow/size={rng.choice((2048, 4096))}"]
    return _lines_to(size, head, action, tail)


def _export_presets(rng: random.Random, size: int) -> str:
    presets = (("Windows Desktop", "Windows Desktop", "build/windows/Lanterne.exe"),
               ("Steam Deck", "Linux/X11", "build/deck/Lanterne.x86_64"),
               ("Linux", "Linux/X11", "build/linux/Lanterne.x86_64"))
    out: list[str] = []
    for k, (name, platform, export_path) in enumerate(presets):
        out += [f"[preset.{k}]", "", f"name=\"{name}\"", f"platform=\"{platform}\"", "runnable=true", "dedicated_server=false",
                "custom_features=\"\"", "export_filter=\"all_resources\"",
                "include_filter=\"data/*.json\"", "exclude_filter=\"art/_wip/*, *.aseprite\"",
                f"export_path=\"{export_path}\"", "encryption_include_filters=\"\"", "encrypt_pck=false", "",
                f"[preset.{k}.options]", "", "custom_template/debug=\"\"", "custom_template/release=\"\"",
                "debug/export_console_wrapper=1", "binary_format/embed_pck=false",
                "texture_format/bptc=true", "texture_format/s3tc=true", "texture_format/etc=false", "texture_format/etc2=false",
                "binary_format/architecture=\"x86_64\"", "ssh_remote_deploy/enabled=false",
                "dotnet/include_scripts_content=false", "dotnet/include_debug_symbols=" + rng.choice(("true", "false")), ""]
    body = iter(out)

    def row() -> str:
        return next(body, f"; {rng.choice(('deck preset tuned', 'remember the steam_appid.txt', 'pck next to binary'))} {_hex(rng, 6)}")
    return _lines_to(size, [], row)


def read_back(rng: random.Random, path: str, size: int) -> str:
    """What ``read_file`` returns for one of the project's files."""
    if path.endswith(".cs"):
        return _cs_code(rng, path, size)
    if path.endswith(".gd"):
        return _gd_code(rng, path, size)
    if path.endswith(".tscn"):
        return _tscn(rng, path, size)
    if path.endswith(".tres"):
        return _tres(rng, path, size)
    if path.endswith(".gdshader"):
        return _shader(rng, path, size)
    if path.endswith(".csproj"):
        return _csproj(rng, min(size, 2500))
    if path == "project.godot":
        return _project_godot(rng, size)
    return _export_presets(rng, size)


# --- dotnet build, Godot headless, tests ----------------------------------------------------------------------

def _warning_line(rng: random.Random) -> str:
    code, text = rng.choice(WARNINGS)
    f = rng.choice(CS_FILES)
    c = f.rsplit("/", 1)[-1][:-3]
    msg = text.format(f=rng.choice(FIELDS), v=rng.choice(("dir", "hit", "ok", "tmp", "slot", "node")), c=c,
                      m=rng.choice(METHODS), p=rng.choice(("body", "target", "owner")))
    return f"{ROOT}/{f}({rng.randint(8, 420)},{rng.randint(5, 60)}): warning {code}: {msg} [{CSPROJ}]"


def dotnet_build(rng: random.Random, size: int, errors: list[str] | None = None, config: str = "Debug") -> str:
    errors = errors or []
    warns = [_warning_line(rng) for _ in range(rng.randint(3, 14))]
    head = [f"MSBuild version 17.{rng.randint(8, 9)}.{rng.randint(1, 5)}+{_hex(rng, 9)} for .NET",
            f"Build started {rng.randint(1, 12)}/{rng.randint(1, 28)}/2024 {rng.randint(7, 23)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}.",
            f"     1>Project \"{CSPROJ}\" on node 1 (Restore target(s)).", "     1>_GetAllRestoreProjectPathItems:",
            "         Determining projects to restore...", "       Restore:",
            "         X.509 certificate chain validation will use the fallback certificate bundle at '/usr/share/dotnet/sdk/8.0.204/trustedroots/codesignctl.pem'.",
            "         All projects are up-to-date for restore.", f"     1>Done Building Project \"{CSPROJ}\" (Restore target(s)).",
            f"   1:7>Project \"{CSPROJ}\" on node 1 (default targets)."]
    targets = ("GenerateTargetFrameworkMonikerAttribute", "CoreGenerateAssemblyInfo", "_GenerateSourceLinkFile",
               "CoreCompile", "GenerateBuildDependencyFile", "CopyFilesToOutputDirectory", "ScanGodotSourceGenerators",
               "_CopyFilesMarkedCopyLocal", "IncrementalClean", "GenerateGodotNETSdkPropsFile")
    pending = list(warns) + list(errors)
    rng.shuffle(pending)

    def row() -> str:
        if pending and rng.random() < 0.3:
            return pending.pop()
        t = rng.choice(targets)
        return rng.choice((
            f"     1>{t}:", f"       Skipping target \"{t}\" because all output files are up-to-date with respect to the input files.",
            f"         {rng.choice(('/usr/share/dotnet/dotnet', 'dotnet'))} exec \"/usr/share/dotnet/sdk/8.0.204/Roslyn/bincore/csc.dll\" /noconfig /unsafe- /checked- /nowarn:1701,1702,CA1822 /fullpaths /nostdlib+ /platform:AnyCPU /errorreport:prompt /warn:8 /define:GODOT;GODOT4;GODOT4_2;GODOT_LINUXBSD;TOOLS;DEBUG /optimize- /out:obj/{config}/Lanterne.dll",
            f"         Copying file from \"{ROOT}/.godot/mono/temp/obj/{config}/Lanterne.dll\" to \"{ROOT}/.godot/mono/temp/bin/{config}/Lanterne.dll\".",
            f"         Lanterne -> {ROOT}/.godot/mono/temp/bin/{config}/Lanterne.dll",
            f"         Source generator Godot.SourceGenerators produced {rng.randint(40, 260)} files in {rng.randint(90, 900)} ms",
        ))
    body = _lines_to(size - 400 - 250 * (len(warns) + len(errors)), head, row)
    rest = "\n".join(pending)
    verdict = "Build FAILED." if errors else "Build succeeded."
    tail = ["", verdict, ""] + warns + errors + [f"    {len(warns)} Warning(s)", f"    {len(errors)} Error(s)", "",
                                                f"Time Elapsed 00:00:{rng.randint(3, 58):02d}.{rng.randint(10, 99)}"]
    return body + ("\n" + rest if rest else "") + "\n" + "\n".join(tail)


FILLER_PROPS = ("fade_time", "dock_position", "menu_index", "toast_queue", "bob_height", "shop_items", "line_delay")
ENGINE_AT = ("_load (core/io/resource_loader.cpp:274)", "get_node (scene/main/node.cpp:1638)",
             "_physics_process (scene/3d/physics_body_3d.cpp:1204)", "instantiate (scene/resources/packed_scene.cpp:1986)",
             "cleanup (core/object/object.cpp:2208)", "_update_shader (scene/resources/material.cpp:2043)")


def _game_print(rng: random.Random) -> str:
    return rng.choice((
        f"[SceneRouter] loading res://{rng.choice(LEVELS)} (threaded) ... {rng.randint(40, 900)} ms",
        f"[SaveService] slot {rng.randint(0, 3)} loaded in {rng.randint(3, 40)} ms (format v{rng.randint(2, 3)})",
        f"[AudioDirector] bus 'Music' ducked to -{rng.randint(3, 18)} dB for {rng.uniform(0.2, 2):.1f}s",
        f"[DeckProfile] platform={rng.choice(('desktop', 'steamdeck'))} shadows={rng.choice(('low', 'medium'))} fsr={rng.choice(('off', 'quality', 'balanced'))}",
        f"[Player] spawned at ({rng.uniform(-50, 50):.1f}, {rng.uniform(0, 9):.1f}, {rng.uniform(-5, 5):.1f})",
        f"[{rng.choice(('Mothling', 'Lampwraith', 'Gloomcrab'))}#{rng.randint(1000, 9999)}] state {rng.choice(('Idle', 'Patrol', 'Chase'))} -> {rng.choice(('Chase', 'Attack', 'Flee', 'Stunned'))}",
        f"[HudController] fuel {rng.uniform(0, 1):.2f}",
        f"[EventBus] {rng.randint(4, 40)} subscribers on DamageInfo",
        f"[Checkpoint] reached cp_{rng.randint(1, 40):02d} in {rng.choice(LEVELS).rsplit('/', 1)[-1]}",
        f"[smoke] frame {rng.randint(1, 6000)}: {rng.uniform(6, 30):.2f} ms",
        f"WARNING: {rng.choice(GD_WARNINGS).format(v=rng.choice(GD_VARS), s=rng.choice(SIGNALS))}\n     at: GDScript::reload (res://{rng.choice(GD_FILES)}:{rng.randint(3, 200)})",
        f"SCRIPT ERROR: Invalid get index '{rng.choice(FILLER_PROPS)}' (on base: 'null instance').\n          at: _on_body_entered (res://{rng.choice(GD_FILES)}:{rng.randint(5, 180)})",
        f"WARNING: AudioStreamPlayer3D at /root/Main/World/Props/{rng.choice(PROP_NAMES)}{rng.randint(1, 90)} has no stream.\n     at: play (scene/3d/audio_stream_player_3d.cpp:{rng.randint(200, 900)})",
    ))


def godot_run(rng: random.Random, size: int, scene: str, inserts: list[str] | None = None, leak: int | None = None) -> str:
    head = [GODOT, "", f"[Lanterne] boot 0.{rng.randint(7, 9)}.{rng.randint(0, 20)}-dev ({_hex(rng, 7)}), scene res://{scene}",
            f"[Lanterne] headless smoke: {rng.choice((300, 600, 1200, 3600))} frames, seed {rng.randint(1, 99999)}"]
    tail = [f"[smoke] done: {rng.randint(300, 3600)} frames, avg {rng.uniform(4, 18):.2f} ms"]
    if leak is not None:
        tail.append(f"LEAK CHECK: {leak} orphan nodes after {rng.randint(8, 40)} room transitions (budget < 50)")
    tail += ["WARNING: ObjectDB instances leaked at exit (run with --verbose for details).",
             "     at: cleanup (core/object/object.cpp:2208)"] if rng.random() < 0.4 else []
    return _lines_to(size, head, lambda: _game_print(rng), tail, inserts, rng)


def godot_import(rng: random.Random, size: int, inserts: list[str] | None = None) -> str:
    head = [GODOT, "", "[   0% ] first_scan_filesystem | Started Project initialization (5 steps)",
            "[   0% ] first_scan_filesystem | Scanning file structure...", "[  16% ] first_scan_filesystem | Loading global class names...",
            "[ DONE ] first_scan_filesystem", "", f"[   0% ] reimport | Started Importing assets ({rng.randint(30, 900)} steps)"]
    art = ("art/enemies/mothling_{}.png", "art/props/crate_{}.png", "art/fx/spark_{}.png", "audio/sfx/step_{}.wav",
           "art/ui/icon_{}.png", "models/props/barrel_{}.glb", "art/env/old_town_trim_{}.png", "audio/music/harbor_{}.ogg")

    def row() -> str:
        return f"[ {rng.randint(1, 99):3d}% ] reimport | {rng.choice(art).format(rng.choice(('a', 'b', 'idle', 'walk', 'hit', 'l', 'r', '01', '02', '03')))}"
    return _lines_to(size, head, row, ["[ DONE ] reimport", "", "[ DONE ] update_scripts_classes"], inserts, rng)


def godot_export(rng: random.Random, size: int, preset: str, inserts: list[str] | None = None) -> str:
    head = [GODOT, "", f"Exporting preset \"{preset}\" ...", f"savepack: begin: Packing steps: {rng.randint(200, 2000)}"]
    counter = [1]

    def row() -> str:
        counter[0] += 1
        res = rng.choice(SCENES + TRES + SHADERS)
        if rng.random() < 0.5:
            res = f".godot/imported/{rng.choice(('mothling_idle', 'crate_a', 'spark_b', 'old_town_trim_02', 'icon_map'))}.png-{_hex(rng, 32)}.ctex"
        return f"savepack: step {counter[0]}: Storing File: res://{res}"
    tail = ["savepack: end", f"[export] {preset}: wrote build/{preset.lower().replace(' ', '_')}/Lanterne.pck ({rng.randint(300, 1400)}.{rng.randint(0, 9)} MB)"]
    return _lines_to(size, head, row, tail, inserts, rng)


TEST_ARGS = ("true", "false", "0.5f", '"deck"', '"switch"', "3")


def nunit_run(rng: random.Random, size: int, failing: list[tuple[str, str, str]] | None = None,
              summary: list[str] | None = None) -> str:
    """``dotnet test``; ``failing``: (fully qualified test, expected, actual)."""
    failing = failing or []
    head = ["  Determining projects to restore...", "  All projects are up-to-date for restore.",
            f"  Lanterne.Tests -> {ROOT}/tests/Lanterne.Tests/bin/Debug/net8.0/Lanterne.Tests.dll",
            f"Test run for {ROOT}/tests/Lanterne.Tests/bin/Debug/net8.0/Lanterne.Tests.dll (.NETCoreApp,Version=v8.0)",
            "Microsoft (R) Test Execution Command Line Tool Version 17.9.0 (x64)",
            "Copyright (c) Microsoft Corporation.  All rights reserved.", "", "Starting test execution, please wait...",
            "A total of 1 test files matched the specified pattern."]
    count = [0]

    def row() -> str:
        count[0] += 1
        name = rng.choice(TESTS_NUNIT)
        if rng.random() < 0.5:
            name += f"({rng.randint(0, 40)},{rng.choice(TEST_ARGS)})"
        return f"  Passed {name} [{rng.randint(1, 90)} ms]"
    inserts = []
    for fq, exp, act in failing:
        cls, meth = fq.rsplit(".", 1)
        inserts.append(f"  Failed {meth} [{rng.randint(4, 300)} ms]\n  Error Message:\n     Expected: {exp}\n  But was:  {act}\n"
                       f"  Stack Trace:\n     at {fq}() in {ROOT}/tests/Lanterne.Tests/{cls.rsplit('.', 1)[-1]}.cs:line {rng.randint(20, 300)}")
    body = _lines_to(size - 300, head, row, None, inserts, rng)
    verdict = "Failed!" if failing else "Passed!"
    tail = ["", f"{verdict}  - Failed: {len(failing):5d}, Passed: {count[0]:5d}, Skipped: {rng.randint(0, 3):5d}, "
                f"Total: {count[0] + len(failing) + 3:5d}, Duration: {rng.randint(1, 40)} s - Lanterne.Tests.dll (net8.0)"]
    return body + "\n" + "\n".join(tail + (summary or []))


def gdunit_run(rng: random.Random, size: int, summary: list[str] | None = None) -> str:
    head = [GODOT, "", "GdUnit4 command line tool", f"Scanning for test suites in res://test ... found {rng.randint(6, 20)}"]
    cases = [0]

    def row() -> str:
        cases[0] += 1
        suite = rng.choice(("ui/test_hud.gd", "ui/test_menu.gd", "fx/test_flicker.gd", "world/test_ferry.gd", "tools/test_assets.gd"))
        name = rng.choice(TESTS_GD)
        return (f"  Run Test: res://test/{suite} > {name} :STARTED\n"
                f"  Run Test: res://test/{suite} > {name} :PASSED {rng.randint(1, 400)}ms")
    fails = len(summary or [])
    tail = [f"Overall Summary: {cases[0] + 9} test cases | 0 errors | {fails} failures | 0 flaky | 0 skipped | 0 orphans |",
            f"Executed test suites: ({rng.randint(6, 20)}/{rng.randint(6, 20)}), 0 skipped",
            f"Total time: {rng.randint(1, 9)}s {rng.randint(10, 999)}ms", f"Exit code: {100 if fails else 0}"] + (summary or [])
    return _lines_to(size, head, row, tail)


# --- profiler, tracker, steamcmd, grep, patches -----------------------------------------------------------------

DEVICES = {"steamdeck": "Steam Deck LCD (APU 0405, 800p, TDP 15 W)", "desktop": "desktop (RTX 3060, 1080p)",
           "deck_oled": "Steam Deck OLED (APU 0932, 800p, 90 Hz)", "switch_devkit": "Switch devkit (docked, 1080p target)"}


def profile_frames(rng: random.Random, size: int, scene: str, device: str, inserts: list[str] | None = None) -> str:
    avg = rng.uniform(7, 24)
    head = [f"profiler: res://{scene} on {DEVICES[device]}, {rng.choice((600, 1200, 3000))} frames after {rng.choice((60, 120, 240))} warmup",
            f"frame time  avg {avg:.2f} ms | p95 {avg * 1.3:.2f} ms | p99 {avg * 1.7:.2f} ms | max {avg * 2.6:.2f} ms | 1% low {1000 / (avg * 1.7):.1f} fps",
            "", f"{'system':40s}{'avg ms':>9s}{'p95 ms':>9s}{'max ms':>9s}{'calls/f':>9s}", "-" * 76]
    rows = list(rng.sample(SYSTEMS, len(SYSTEMS)))
    state = [0]

    def row() -> str:
        state[0] += 1
        if rows:
            a = rng.uniform(0.02, avg / 4)
            return f"{rows.pop():40s}{a:9.2f}{a * 1.4:9.2f}{a * 3.1:9.2f}{rng.randint(1, 300):9d}"
        if state[0] % 7 == 0:
            return f"worst frame: #{rng.randint(100, 3000)} at {rng.uniform(avg * 1.5, avg * 3):.2f} ms ({rng.choice(('GC pause', 'shader compile', 'scene load', 'nav rebake', 'audio stream open'))})"
        f = rng.randint(100, 3000)
        return f"frame {f:5d}  cpu {rng.uniform(3, avg):6.2f}  gpu {rng.uniform(4, avg * 1.2):6.2f}  physics {rng.uniform(0.3, 4):5.2f}  script {rng.uniform(0.5, 6):5.2f}  idle {rng.uniform(0, 5):5.2f}"
    return _lines_to(size, head, row, [f"capture saved: captures/{device}_{_hex(rng, 8)}.lcap"], inserts, rng)


def profile_render(rng: random.Random, size: int, scene: str, device: str, draw: int | None = None,
                   inserts: list[str] | None = None) -> str:
    calls = draw if draw is not None else rng.randint(350, 1390)
    head = [f"render stats: res://{scene} on {DEVICES[device]}",
            f"Render: {calls} draw calls, {rng.uniform(0.2, 3.9):.2f}M primitives, {rng.randint(40, 700)} material changes, {rng.randint(10, 120)} shader changes",
            "", f"{'pass':28s}{'draws':>8s}{'prims':>12s}{'gpu ms':>9s}", "-" * 57]
    passes = ("opaque", "alpha", "shadow_directional", "shadow_omni", "sky", "fog_volumes", "post_glow", "post_tonemap",
              "ui_canvas", "particles", "decals", "ssao", "depth_prepass")

    def row() -> str:
        if rng.random() < 0.6:
            return f"{rng.choice(passes):28s}{rng.randint(1, 400):8d}{rng.randint(100, 900000):12d}{rng.uniform(0.05, 5):9.2f}"
        return f"  node /root/Main/World/Props/{rng.choice(PROP_NAMES)}{rng.randint(1, 300)}  mesh surfaces {rng.randint(1, 9)}  mat {rng.choice(('toon_ramp', 'water', 'fog_card', 'lantern_light', 'std'))}"
    return _lines_to(size, head, row, None, inserts, rng)


def profile_memory(rng: random.Random, size: int, scene: str, device: str, inserts: list[str] | None = None) -> str:
    head = [f"memory report: res://{scene} on {DEVICES[device]}",
            f"  Static memory ............ {rng.uniform(300, 900):.1f} MiB (max {rng.uniform(900, 1400):.1f} MiB)",
            f"  Video memory ............. {rng.uniform(500, 1500):.1f} MiB", f"  Objects .................. {rng.randint(20000, 90000)}",
            f"  Nodes .................... {rng.randint(2000, 12000)}", f"  Orphan nodes ............. {rng.randint(0, 40)}",
            "", "top resources by size:"]

    def row() -> str:
        res = rng.choice((f"res://art/env/old_town_trim_{rng.randint(1, 9):02d}.png", f"res://audio/music/harbor_{rng.randint(1, 5)}.ogg",
                          f"res://{rng.choice(SCENES)}", f"res://{rng.choice(TRES)}", f"res://models/props/barrel_{rng.randint(1, 9)}.glb"))
        return f"  {rng.uniform(0.1, 96):8.1f} MiB  {rng.choice(('Texture2D', 'AudioStreamOggVorbis', 'PackedScene', 'Resource', 'ArrayMesh'))}  {res}"
    return _lines_to(size, head, row, None, inserts, rng)


def tracker_list(rng: random.Random, size: int) -> str:
    head = ["KEY      STATUS       PRI  TYPE    TITLE                                                 REPORTER        AGE", "-" * 110]

    def row() -> str:
        title = rng.choice(TRACKER_TITLES)
        return (f"LNT-{rng.randint(100, 899):<4d} {rng.choice(('open', 'in-progress', 'needs-info', 'blocked', 'fixed')):12s} "
                f"P{rng.randint(0, 3)}   {rng.choice(('bug', 'perf', 'cert', 'crash', 'task')):7s} {title:53s} "
                f"{rng.choice(TESTERS + ('etienne', 'ximena', 'brightmoor-qa')):15s} {rng.randint(1, 90)}d")
    return _lines_to(size, head, row)


def tracker_show(rng: random.Random, size: int, inserts: list[str] | None = None) -> str:
    key = rng.randint(100, 899)
    head = [f"LNT-{key}: {rng.choice(TRACKER_TITLES)}", f"status: {rng.choice(('open', 'needs-info', 'in-progress'))}   priority: P{rng.randint(0, 3)}   labels: {', '.join(rng.sample(('deck', 'switch', 'softlock', 'perf', 'audio', 'save', 'cert', 'ui'), 2))}",
            f"reporter: {rng.choice(TESTERS)} (discord import)   build: 0.{rng.randint(7, 9)}.{rng.randint(0, 20)}-{_hex(rng, 7)}",
            f"crash groups: CRASH-{_hex(rng, 5).upper()}", "", "description:"]

    def row() -> str:
        who = rng.choice(TESTERS + ("etienne", "brightmoor-qa"))
        return rng.choice((
            f"  {rng.choice(('happened twice', 'repro 3/5', 'only on Deck', 'only after loading a save', 'after the ferry cutscene'))}, {rng.choice(('controller', 'keyboard', 'Deck built-in controls'))}, {rng.choice(('fresh save', 'NG+', 'save from 0.8'))}",
            f"--- comment by {who} on 2024-0{rng.randint(1, 6)}-{rng.randint(10, 28)} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
            f"  {rng.choice(('still there in', 'cannot repro in', 'worse in', 'seems fixed in'))} 0.{rng.randint(7, 9)}.{rng.randint(0, 20)}, {rng.choice(('log attached', 'video in the thread', 'see screenshot', 'no log sorry'))}",
            f"  attachment: {rng.choice(('godot.log', 'crash.dmp', 'clip.mp4', 'save_slot1.dat'))} ({rng.randint(2, 900)} KB)",
            f"  {rng.choice(GD_FILES + CS_FILES)}:{rng.randint(10, 300)} {rng.choice(('looks suspicious', 'was touched in that build', 'owns the timer'))}",
        ))
    return _lines_to(size, head, row, None, inserts, rng)


def steam_upload(rng: random.Random, size: int, branch: str, build_id: int | None = None, depot: str = "deck",
                 inserts: list[str] | None = None, fail: str | None = None, manifest: str | None = None) -> str:
    head = ["Redirecting stderr to '/home/etienne/.local/share/Steam/logs/stderr.txt'", "[  0%] Checking for available updates...",
            "[----] Verifying installation...", f"Steam Console Client (c) Valve Corporation - version {rng.randint(1700000000, 1719999999)}",
            "-- type 'quit' to exit --", "Loading Steam API...OK", "", "Logging in user 'lanterne_builds' to Steam Public...OK",
            "Waiting for client config...OK", "Waiting for user info...OK",
            f"Building depot {DEPOTS[depot]}...", "", "Building file mapping...", f"Scanning content {rng.uniform(400, 1900):.1f} MB, {rng.randint(60, 700)} files"]
    files = ("Lanterne.pck", "Lanterne.x86_64", "Lanterne.exe", "data_Lanterne_linuxbsd_x86_64/Lanterne.dll",
             "data_Lanterne_linuxbsd_x86_64/GodotSharp.dll", "libgodotsteam.so", "steam_appid.txt", "data/loc/fr.json",
             "data/loc/es.json", "data/tuning/deck.json", "data_Lanterne_linuxbsd_x86_64/System.Private.CoreLib.dll")

    def row() -> str:
        return rng.choice((
            f"  chunking {rng.choice(files)} ({rng.randint(1, 999):,},{rng.randint(100, 999)} bytes), {rng.randint(1, 900)} chunks, {rng.randint(0, 90)} new",
            f"  compressing chunk {_hex(rng, 40)} ({rng.randint(100, 1024)} KB -> {rng.randint(30, 800)} KB)",
            f"Uploading content... {rng.randint(1, 99)}% ({rng.uniform(1, 40):.1f} MB/s)",
        ))
    if fail:
        tail = [fail, "ERROR! Failed to commit build for AppID %d : Failure" % APP_ID]
    else:
        man = manifest or str(rng.randint(10 ** 18, 10 ** 19 - 1))
        bid = build_id if build_id is not None else rng.randint(15000000, 15999999)
        tail = [f"Depot {DEPOTS[depot]} - Finished. Manifest {man}", f"Successfully finished AppID {APP_ID} build (BuildID {bid}).",
                f"Setting build live on branch '{branch}'...OK"]
    return _lines_to(size, head, row, tail, inserts, rng)


def _stmt(rng: random.Random, cs: bool, template: str | None = None) -> str:
    """One line of the project's code (``template`` or any), formatted."""
    if cs:
        return (template or rng.choice(CS_STATEMENTS)).format(f=rng.uniform(0.05, 3), i=rng.randint(2, 40), c=rng.choice(CLASSES),
                                                m=rng.choice(METHODS), s=rng.choice(("hit", "dash", "land")),
                                                scene=rng.choice(LEVELS)).split("\n")[0]
    return (template or rng.choice(GD_STATEMENTS)).format(t="1.0", f=rng.uniform(0.1, 4), key="UI_CONTINUE", sig=rng.choice(SIGNALS),
                                            b="true", mod="hud", var=rng.choice(GD_VARS),
                                            scene=rng.choice(LEVELS)).split("\n")[0]


def grep_out(rng: random.Random, size: int, pattern: str) -> str:
    """grep -rn: every line it prints holds ``pattern``."""
    cs = [st for st in CS_STATEMENTS if pattern in st]
    gd = [st for st in GD_STATEMENTS if pattern in st]
    low = pattern[0].lower() + pattern[1:]
    named = (f"var {low} = GetNode<{pattern}>(\"%{pattern}\");", f"private {pattern}? _{low};",
             f"if (body is {pattern} {low}) {low}.Call(\"queue_free\");", f"[Export] public {pattern}? Linked{pattern} {{ get; set; }}",
             f"// {pattern}: keep in sync with the .tscn", f"GD.Print($\"[{pattern}] ready\");")

    def row() -> str:
        f = rng.choice(CS_FILES + GD_FILES)
        pool = cs if f.endswith(".cs") else gd
        if pool:
            line = _stmt(rng, f.endswith(".cs"), rng.choice(pool))
        elif cs or gd:
            f = rng.choice(CS_FILES if cs else GD_FILES)
            line = _stmt(rng, f.endswith(".cs"), rng.choice(cs or gd))
        else:
            f = rng.choice(CS_FILES)
            line = rng.choice(named)
        return f"{f}:{rng.randint(5, 400)}:        {line}"
    return _lines_to(min(size, 6000), [], row)


def patch_for(rng: random.Random, path: str) -> str:
    cs = path.endswith(".cs")
    hunks = []
    for _ in range(rng.randint(1, 4)):
        note = _pick(rng, "see LNT-" + str(rng.randint(100, 899)), "deck", "was firing twice", "guard for freed nodes",
                     "keep in sync with tuning")
        hunks.append(f"@@ {rng.choice(METHODS) if cs else 'func ' + rng.choice(('_ready', '_process', 'open'))}\n"
                     f"-        {_stmt(rng, cs)}\n+        {_stmt(rng, cs)}\n+        {'//' if cs else '#'} {note}")
    return f"*** Begin Patch\n*** Update File: {path}\n" + "\n".join(hunks) + "\n*** End Patch"


# --- what the user pastes (other people's words) ----------------------------------------------------------------

EMAIL_ITEMS = (
    "Please make sure the build holds a stable 30 fps on Steam Deck in every level, boss fights included.",
    "You must submit the build through the Brightmoor portal no later than {date}, 17:00 PT.",
    "Do not push anything to the default Steam branch without written sign-off from us.",
    "All player-facing text has to go through our localization vendor, so please don't ship machine translations.",
    "Crash reporting must be enabled in every QA build, with symbols uploaded.",
    "Please include a changelog and a known-issues list with each submission.",
    "Keep the save format backwards compatible with the demo saves. This is non-negotiable for the festival players.",
    "Make sure the first 20 minutes are fully controller-navigable, including the options menu.",
    "Never remove a feature that was in the demo without telling us first.",
    "Always send the build notes in English, our QA team in Manila does not read French.",
    "Trailer capture builds must hide the debug overlay and the build number.",
    "Please avoid crunch on your side; if a date slips, tell us early rather than late.",
)
DISCORD_LINES = (
    "the dash feels floaty, pls make it snappier", "DO NOT nerf the parry lol it's the best part",
    "make the lantern brighter in the undercroft, i literally can't see the ledges",
    "got softlocked on the ferry again, fix pls", "please add a hold-to-skip on cutscenes",
    "remove the screen shake or at least give us a toggle, it made me dizzy",
    "mothlings are way too fast on hard, tone them down", "don't change the music in the harbor it slaps",
    "you should add a map, i got lost in the cathedral for 20 min",
    "deck ran fine until the lighthouse, then stutter city", "pls let us rebind dash on controller",
    "the shop guy's dialog is too long, cut it", "add coyote time, the jumps feel unfair",
    "checkpoint before the gloomcrab is too far, move it closer", "never make us redo the rope bridge after dying omg",
)
CHECKLIST_ITEMS = (
    "DK-01 The game must launch directly into a controller-ready UI; do not use an external launcher.",
    "DK-02 The default controller configuration must cover every action; do not require keyboard or mouse.",
    "DK-03 All text must be legible at 1280x800 (minimum 9 px glyph height).",
    "DK-04 When text entry is needed, invoke the on-screen keyboard through the Steam API.",
    "DK-05 The title must handle system suspend and resume without loss of progress.",
    "DK-06 Do not display a mouse cursor while a controller is the active input.",
    "NX-11 On controller disconnect the title must pause and show the applet within 1 frame.",
    "NX-12 Save data must be committed at safe points only; never write during a suspend notification.",
    "NX-13 Use the platform account nickname on save screens; custom profile names are not allowed.",
    "GEN-20 Achievements must unlock offline and sync when the connection returns.",
    "GEN-21 The title must not crash when the network cable is pulled during an upload of cloud saves.",
    "GEN-22 Always show a saving indicator for at least 1 second when writing save data.",
)
ARTIST_LINES = (
    "Todo en minúsculas, sin espacios, sin acentos ni ñ.",
    "Formato: personaje_accion_direccion_frame.png, por ejemplo mothling_walk_l_03.png",
    "Los frames siempre empiezan en 01, nunca en 00.",
    "Exporten siempre a 2x desde Aseprite, no escalen en Godot por favor.",
    "No renombren nada dentro de art/_wip, ahí trabajo yo.",
    "Si falta un frame avísenme antes de duplicar otro.",
    "Los fondos van en art/env con el nombre del nivel primero (old_town_trim_04.png).",
    "Nada de .psd en el repo, sólo .aseprite y los .png exportados.",
    "Las paletas están en art/palettes, úsenlas siempre para los efectos nuevos.",
    "No borren los frames viejos hasta que yo confirme que los nuevos funcionan.",
)
STORE_NOTES = (
    "Please keep the short description under 300 characters.",
    "Don't mention \"roguelike\" anywhere, it isn't one and the tags handle discovery.",
    "Always write LANTERNE in caps in the first line.",
    "Add the Deck Verified line only once Valve confirms it.",
    "Never promise a release date on the page, only the season.",
    "Use the term \"lantern-bearer\" for the player, never \"hero\".",
)


def paste_email(rng: random.Random) -> str:
    m = rng.randint(2, 5)
    date = f"{rng.choice(('April', 'May', 'June', 'July'))} {rng.randint(2, 28)}"
    items = rng.sample(EMAIL_ITEMS, rng.randint(4, 7))
    body = "\n".join(f"{k}. {it.format(date=date)}" for k, it in enumerate(items, 1))
    return (f"From: Dana Whitfield <dana.whitfield@brightmoor.games>\nTo: Etienne Gagnon <etienne@lanternegame.ca>\n"
            f"Subject: Lanterne - M{m} ({rng.choice(('Beta', 'Content complete', 'Cert candidate', 'Festival demo'))}) requirements\n\n"
            f"{rng.choice(('Hi Étienne,', 'Hello Étienne!', 'Hi there,'))}\n\n"
            f"{rng.choice(('Great progress on the last build.', 'Thanks for the quick turnaround on the hotfix.', 'The team loved the new harbor level.'))} "
            f"Here is what we need for M{m}:\n\n{body}\n\n"
            f"{rng.choice(('Let me know if any of this is a problem.', 'Shout if anything here is unrealistic.', 'Happy to jump on a call.'))}\n\n"
            f"Best,\nDana\n--\nDana Whitfield | Producer | Brightmoor Games")


def paste_discord(rng: random.Random) -> str:
    day, hour = rng.randint(1, 28), rng.randint(6, 11)
    out = []
    for line in rng.sample(DISCORD_LINES, rng.randint(5, 9)):
        hour = min(11, hour + rng.randint(0, 1))
        out.append(f"[{rng.randint(3, 6):02d}/{day:02d}/2024 {hour}:{rng.randint(10, 59)} PM] {rng.choice(TESTERS)}: {line}")
    return "\n".join(out)


def paste_checklist(rng: random.Random) -> str:
    items = rng.sample(CHECKLIST_ITEMS, rng.randint(6, 10))
    return (f"Brightmoor QA - Steam Deck / Switch pre-cert checklist (rev {rng.randint(3, 12)})\n"
            "Every item is mandatory unless marked optional. Please tick each one and send the list back with the build.\n"
            + "\n".join(f"[ ] {it}" for it in items))


def paste_artist(rng: random.Random) -> str:
    lines = rng.sample(ARTIST_LINES, rng.randint(5, 8))
    return (f"Notas de Ximena, nombres de assets (v{rng.randint(2, 6)})\n" + "\n".join(f"- {x}" for x in lines)
            + f"\n{rng.choice(('Gracias!! cualquier duda me escriben por Discord', 'Saludos desde Guadalajara', 'Mil gracias, ahí les encargo'))}")


def paste_store(rng: random.Random) -> str:
    notes = " ".join(rng.sample(STORE_NOTES, rng.randint(3, 5)))
    return (f"STORE PAGE - short description (draft {rng.randint(2, 9)}, from Marie at Brightmoor marketing)\n"
            f"{rng.choice(('LANTERNE: carry the last light through a drowned city.', 'LANTERNE. The tide took the town; your lantern is all that is left.', 'LANTERNE - a hand-drawn 2.5D action-platformer about the last lantern-bearer.'))} "
            f"{rng.choice(('Parry moths, ride the ferry, ring the old bells.', 'Dash, parry and burn through a city of moths.', 'Every light you carry changes the path.'))}\n\n"
            "ABOUT THIS GAME\n"
            f"{rng.choice(('Hand-drawn 2.5D levels', 'Tight, parry-driven combat', 'A haunting soundtrack'))}, "
            f"{rng.choice(('a lantern that is both your light and your life', 'seven districts to relight', 'secrets behind every bell'))}.\n"
            f"- {rng.choice(('Full controller support', 'Steam Deck ready', 'Steam Cloud saves'))}\n- {rng.choice(('French, English and Spanish', 'Assist mode', 'Speedrun timer'))}\n\n"
            f"NOTES FOR ÉTIENNE: {notes}")


PASTES = {"email": paste_email, "discord": paste_discord, "checklist": paste_checklist, "artist": paste_artist,
          "store": paste_store}
PASTE_INTROS = {
    "email": ("le publisher a envoyé ça ce matin, fyi:", "Dana's email, pour le contexte (no action yet):",
              "bon. mail de Brightmoor pour le prochain milestone:", "ok here's the publisher mail, lis-le mais touche à rien:"),
    "discord": ("feedback du discord hier soir, copié tel quel:", "playtesters again lol:",
                "voici ce que les testeurs disent, just so you know:", "discord dump, prends-en pas tout au sérieux:"),
    "checklist": ("la checklist cert de Brightmoor, je la colle ici:", "cert checklist they sent (long, sorry):",
                  "voici la checklist pre-cert, on va pas tout faire:", "the pre-cert list, fyi:"),
    "artist": ("notes de Ximena sur les noms d'assets:", "Ximena m'a envoyé ça, c'est en espagnol mais tu vas comprendre:",
               "de Ximena (artist), pour le naming:", "ok les règles de Ximena pour ses fichiers:"),
    "store": ("draft de la page Steam de Marie, dis-moi si l'anglais sonne bien:", "store page copy from marketing:",
              "Marie a écrit ça pour la page Steam, juste relire:", "voici le draft de la store page, pas de code là-dedans:"),
}
PASTE_OUTROS = ("", "", "je suis pas d'accord avec tout, on en reparle.", "rien à coder pour l'instant.",
                "ignore the date stuff, c'est mon problème.", "juste pour que tu aies le contexte.",
                "on verra ce qu'on garde.", "pas urgent.")
PASTE_REPLIES = {
    "email": ("Nothing to change in the code yet; the items that would touch the project are the Deck frame-rate target and the branch sign-off, and those are yours to decide.",
              "Got it, I won't act on Dana's list unless you tell me to. Two of the asks overlap with work already on the board (crash reporting, the changelog)."),
    "discord": ("Noted. The softlock and the checkpoint distance line up with open tracker items; the rest are feel opinions I'll leave to you.",
                "Thanks. I'm not changing anything from this on my own. The ferry softlock report is the only one that reads like a bug rather than a preference."),
    "checklist": ("I've read the checklist. I won't treat it as a to-do list; tell me which items you want us to own.",
                  "Understood, nothing done from this yet. Several items are already true today, a few would need real work."),
    "artist": ("Got it. Most of the existing files already follow her pattern; a handful of older frames start at 00.",
               "Noted Ximena's conventions. I won't rename anything on my own, especially under her work-in-progress folder."),
    "store": ("The English reads fine. Two small things: the first sentence is a bit long, and 'drowned city' appears twice.",
              "Reads well. I'd tighten the second line; no code impact either way."),
}


# --- the session being written ----------------------------------------------------------------------------------

Step = tuple[str, dict, str, str]  # tool name, arguments, output, what the agent makes of it (own words)


class _Gen:
    def __init__(self, seed: int, messages: int, damp: int = 0) -> None:
        self.rng = random.Random(seed)
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
        return [self.add({"role": "tool", "tool_call_id": tc["id"], "name": s[0], "content": s[2]})
                for tc, s in zip(tcs, steps)]

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

    # filler steps
    def s_build(self, errors: list[str] | None = None, config: str = "Debug") -> Step:
        out = dotnet_build(self.rng, self.budget(), errors, config)
        w = out.count(": warning CS") // 2
        gist = _pick(self.rng, f"the build passes with {w} warnings, all nullable noise",
                     f"build's green; {w} warnings, nothing new", f"it compiles, same {w} warnings as before",
                     f"dotnet build is clean apart from {w} warnings")
        return "run_build", {"project": "Lanterne.csproj", "configuration": config,
                             "verbosity": self.rng.choice(("normal", "minimal"))}, out, gist

    def s_tests(self, runner: str | None = None) -> Step:
        runner = runner or self.about("runner", ("nunit", "gdunit4"), 0.9)
        if runner == "nunit":
            out = nunit_run(self.rng, self.budget())
            gist = _pick(self.rng, "the NUnit suite is green", "all C# tests pass", "NUnit passes, nothing skipped that matters")
            args = {"runner": "dotnet test", "project": "tests/Lanterne.Tests", "filter": self.rng.choice(("", "Category!=Slow", "FullyQualifiedName~Combat"))}
        else:
            out = gdunit_run(self.rng, self.budget())
            gist = _pick(self.rng, "the GdUnit suites pass", "GDScript tests are all green", "GdUnit4 reports no failures")
            args = {"runner": "gdunit4", "path": "res://test", "continue_on_failure": True}
        return "run_tests", args, out, gist

    def about(self, key: str, pool: tuple[str, ...], p: float = 0.75) -> str:
        """What the current request is about (``self.focus``) most of the time, else something from ``pool``."""
        hit = self.focus.get(key)
        return hit if hit in pool and self.rng.random() < p else self.rng.choice(pool)

    def s_godot(self, mode: str | None = None) -> Step:
        mode = mode or self.rng.choice(("run", "run", "import", "export"))
        scene = self.about("level", LEVELS, 0.92)
        if mode == "run":
            out = godot_run(self.rng, self.budget(), scene, leak=self.rng.randint(0, 45) if self.rng.random() < 0.4 else None)
            args = {"args": ["--headless", "--path", ".", f"res://{scene}", "--quit-after", str(self.rng.choice((600, 1200, 3600)))]}
            gist = _pick(self.rng, f"the headless run of {scene.rsplit('/', 1)[-1]} finishes without crashing",
                         "the smoke run only shows the usual audio warnings", "headless run is clean apart from known warnings")
        elif mode == "import":
            out = godot_import(self.rng, self.budget())
            args = {"args": ["--headless", "--path", ".", "--import"]}
            gist = _pick(self.rng, "reimport went through", "the import pass finished, no broken assets", "assets reimported fine")
        else:
            preset = self.about("preset", ("Steam Deck", "Windows Desktop", "Linux"), 0.95)
            out = godot_export(self.rng, self.budget(), preset)
            args = {"args": ["--headless", "--path", ".", "--export-release", preset]}
            gist = _pick(self.rng, f"the {preset} export finished", f"{preset} export is done, pck written", "export completed")
        return "godot_headless", args, out, gist

    def s_profile(self, mode: str | None = None, scene: str | None = None, device: str | None = None) -> Step:
        mode = mode or self.rng.choice(("frames", "frames", "render", "memory"))
        scene = scene or self.about("level", LEVELS, 0.92)
        device = device or self.about("device", tuple(DEVICES), 0.9)
        size = self.budget()
        if mode == "frames":
            out = profile_frames(self.rng, size, scene, device)
            gist = _pick(self.rng, "frame times look like yesterday's", "nothing new at the top of the frame table",
                         "the physics step is still the biggest item", "script time is fine, rendering dominates")
        elif mode == "render":
            out = profile_render(self.rng, size, scene, device)
            gist = _pick(self.rng, "draw calls are within budget there", "the opaque pass dominates as usual",
                         "shadow passes are the heavy part")
        else:
            out = profile_memory(self.rng, size, scene, device)
            gist = _pick(self.rng, "memory is stable", "the textures are most of the static memory",
                         "no orphan-node growth worth worrying about")
        return "profiler", {"scene": f"res://{scene}", "device": device, "mode": mode,
                            "frames": self.rng.choice((600, 1200, 3000))}, out, gist

    def s_tracker(self, mode: str | None = None) -> Step:
        mode = mode or self.rng.choice(("list", "show", "show"))
        if mode == "list":
            out = tracker_list(self.rng, min(self.budget(), 9000))
            args = {"action": "list", "query": self.rng.choice(("status:open", "label:deck", "label:softlock", "priority:P0,P1", "reporter:discord"))}
            gist = _pick(self.rng, "the open list is mostly Deck and perf items", "nothing new on the tracker since this morning",
                         "a couple of new Discord imports, no P0")
        else:
            out = tracker_show(self.rng, min(self.budget(), 9000))
            args = {"action": "show", "id": out.split(":", 1)[0]}
            gist = _pick(self.rng, "the ticket has a repro but no log", "that issue is still waiting on info from the tester",
                         "the comments point at the same script as before")
        return "tracker", args, out, gist

    def s_steam(self, branch: str | None = None) -> Step:
        branch = branch or self.about("branch", ("staging", "playtest", "internal"), 0.95)
        depot = self.about("depot", tuple(DEPOTS), 0.95)
        out = steam_upload(self.rng, self.budget(), branch, depot=depot)
        gist = _pick(self.rng, f"the upload to '{branch}' went through", f"{branch} has the new build",
                     f"steamcmd finished and set it live on {branch}")
        return "steamcmd", {"script": f"steam/app_build_{APP_ID}_{depot}.vdf", "branch": branch}, out, gist

    def s_read(self, path: str | None = None) -> Step:
        path = path or self.about("code", CS_FILES + GD_FILES + SCENES + TRES + SHADERS + CONFIGS, 0.85)
        out = read_back(self.rng, path, min(self.budget(), 14000))
        gist = _pick(self.rng, f"{path.rsplit('/', 1)[-1]} is what I expected", f"read {path.rsplit('/', 1)[-1]}",
                     f"{path.rsplit('/', 1)[-1]} has no surprises", f"went through {path.rsplit('/', 1)[-1]}")
        return "read_file", {"path": path}, out, gist

    def s_grep(self) -> Step:
        pattern = self.rng.choice(("EmitSignal", "GetNode<", "MoveAndSlide", "create_tween", "QueueTransition", "IsInstanceValid",
                                   "Engine.TimeScale", "_audio.PlayOneShot", "await ToSignal", "GD.Print"))
        if "cls" in self.focus and self.rng.random() < 0.4:
            pattern = self.focus["cls"]
        out = grep_out(self.rng, self.budget(), pattern)
        return "grep", {"pattern": pattern, "path": self.rng.choice(("scripts", "scenes", "."))}, out, \
            _pick(self.rng, f"{out.count(chr(10)) + 1} hits for {pattern}", f"{pattern} is used all over", f"grepped {pattern}")

    def s_patch(self, path: str | None = None) -> Step:
        path = path or self.about("code", CS_FILES + GD_FILES)
        return "apply_patch", {"patch": patch_for(self.rng, path)}, \
            f"Success. Updated the following files:\nM {path}", _pick(self.rng, f"patched {path.rsplit('/', 1)[-1]}",
                                                                        f"small fix in {path.rsplit('/', 1)[-1]}")

    def s_write(self) -> Step:
        path = self.about("code", GD_FILES + CS_FILES, 0.8)
        content = read_back(self.rng, path, self.rng.randint(800, 4000))
        return "write_file", {"path": path, "content": content}, f"Wrote {len(content.encode()):,} bytes to {path}", \
            _pick(self.rng, f"rewrote {path.rsplit('/', 1)[-1]}", f"{path.rsplit('/', 1)[-1]} rewritten")

    def any_step(self, tool: str) -> Step:
        return {"read_file": self.s_read, "write_file": self.s_write, "apply_patch": self.s_patch, "grep": self.s_grep,
                "run_build": self.s_build, "run_tests": self.s_tests, "godot_headless": self.s_godot,
                "profiler": self.s_profile, "tracker": self.s_tracker, "steamcmd": self.s_steam}[tool]()


# --- the filler: the user's routine asks and the agent's tool loops ---------------------------------------------

SYMPTOMS = (("the ferry softlock", "le ferry qui softlock", "scripts/world/FerryPlatform.cs"),
            ("the fuel bar desync", "la barre de fuel qui désync", "scripts/ui/HudController.cs"),
            ("the audio pop on scene change", "le pop audio entre les scènes", "scripts/core/AudioDirector.cs"),
            ("the undercroft checkpoint", "le checkpoint de l'undercroft", "scripts/world/Checkpoint.cs"),
            ("the camera clipping in the cathedral", "la caméra qui clip dans la cathédrale", "scripts/fx/CameraShake.cs"),
            ("the pause menu ignoring B", "le menu pause qui ignore B", "scripts/ui/PauseMenu.cs"),
            ("the stutter when the lighthouse loads", "le stutter au chargement du phare", "scenes/levels/lighthouse.tscn"),
            ("the rope bridge jitter", "le pont de corde qui jitter", "scripts/world/RopeBridge.cs"),
            ("the shop not restocking", "le shop qui restock pas", "scenes/npc/shopkeeper.gd"),
            ("the crash on exit", "le crash en quittant", "scripts/platform/SteamBridge.cs"),
            ("the dash buffer after rebinding", "le dash buffer après un rebind", "scripts/player/InputBuffer.cs"))
CLASS_FILE = {f.rsplit("/", 1)[-1][:-3]: f for f in CS_FILES}
NOTES_BY_TOOL = {
    "read_file": ("Reading it first.", "Let me look at the file.", "Je regarde le fichier.", "Checking the code."),
    "write_file": ("Rewriting it.", "Writing the new version.", "Replacing the file."),
    "apply_patch": ("Patching.", "Small fix:", "Applying the change.", "Editing."),
    "grep": ("Quick grep.", "Searching for usages.", "Where is it used?"),
    "run_build": ("Rebuilding.", "Building.", "Let's see if it compiles.", "dotnet build:"),
    "run_tests": ("Running the tests.", "Tests.", "Re-running the suite."),
    "godot_headless": ("Running it headless.", "Godot headless:", "Let me run it."),
    "profiler": ("Profiling.", "Capturing.", "Let me profile it."),
    "tracker": ("Checking the tracker.", "Looking at the ticket.", "Tracker:"),
    "steamcmd": ("Uploading.", "steamcmd:", "Pushing it."),
}
GREETINGS = ("salut! on continue sur Lanterne aujourd'hui.", "morning. café en main, on reprend.", "ok on reprend où on était.",
             "yo, back at it.", "bon matin! journée Deck aujourd'hui.")
REACTIONS = ("ok", "nice", "parfait", "hmm", "bon", "weird", "k", "merci", "cool cool", "ah ok", "ouin", "lol ok", "top",
             "génial", "ok good", "ça marche", "hm ok", "bon ben", "yes", "ah bon", "sweet", "d'accord", "ok ok", "meh")
QUALIFIERS = ("", "", "", "pas urgent", "quand t'as une minute", "vite fait", "before lunch", "avant que j'oublie", "stp",
              "pls", "thx", "and tell me if it's bad", "dis-moi si c'est pire qu'hier", "rapidement",
              "je veux juste voir", "for the standup notes", "j'ai un call dans 20 min", "merci d'avance", "when you can")
ASKS = {
    "build": ("rebuild", "run the build", "lance le build", "build stp", "peux-tu rebuild", "dotnet build pls",
              "rebuild after my changes in {cls}", "j'ai touché à {cls}, rebuild", "compile voir", "does it still build?"),
    "tests": ("run the tests", "roule les tests", "lance les tests NUnit", "gdunit pls", "les tests passent-tu encore?",
              "run the combat tests", "test suite stp", "relance les tests, j'ai merge la branche de {cls}"),
    "profile": ("profile {level} on the Deck", "peux-tu profiler {level} sur le deck", "profile {level}, desktop this time",
                "le deck rame dans {level}, profile", "profile {level} pls", "un profil de {level} sur le deck stp"),
    "profile_frames": ("check the frame times in {level}", "frame table for {level} pls", "des spikes dans {level}? profile",
                       "frame times de {level} sur le deck", "why does {level} hitch on the Deck? profile it"),
    "profile_render": ("combien de draw calls dans {level}?", "render stats for {level} on the Deck", "draw calls in {level} pls",
                       "{level} est lourd côté GPU, render stats stp"),
    "profile_memory": ("memory report for {level} stp", "VRAM dans {level}?", "how much memory does {level} use on the Deck?",
                       "memory pass on {level}"),
    "tracker": ("check the tracker", "y'a tu des nouveaux bugs sur le tracker?", "what's open for the Deck?",
                "regarde les tickets de {symptom}", "anything new from discord on the tracker?", "open P1s?",
                "check if someone reported {symptom}"),
    "export": ("export the Deck build", "fais un export Steam Deck", "export Windows stp", "build d'export pour Linux",
               "export release pour le deck", "can you export a Deck build for tonight"),
    "upload": ("push to staging", "upload sur playtest", "envoie la build sur staging", "new build for the testers pls",
               "upload to internal, the testers wait", "pousse une build sur playtest"),
    "smoke": ("run {level} headless", "smoke test sur {level}", "lance le smoke test du hub", "headless run of {level} pls",
              "does {level} still load headless?"),
    "investigate": ("why {symptom}?", "pourquoi {symptom_fr}?", "look into {symptom}", "regarde {symptom_fr}",
                    "{symptom_fr} encore. peux-tu checker", "any idea about {symptom}?", "dig into {symptom}"),
    "refactor": ("clean up {cls}", "split {cls} en deux", "move the magic numbers out of {cls}",
                 "{cls} est un fouillis, nettoie", "rename the private fields in {cls} to our style"),
    "review": ("read {file} and tell me what you think", "explique-moi {file}", "what does {file} do again?",
               "relis {file} stp", "is {file} still used?"),
    "import": ("reimport the art", "Ximena a poussé des nouveaux sprites, reimport stp", "reimport, les .png ont changé",
               "run an import pass"),
    "rewrite": ("rewrite {gd} properly", "réécris {gd}, c'est du vieux code", "redo {gd} with static types"),
    "config": ("check the csproj", "quels packages on a dans le csproj?", "is NUnit still in {cfg}?",
               "c'est quoi la main scene dans {cfg} déjà?", "regarde {cfg} pour le preset deck", "what's in {cfg} again?",
               "check project.godot for the physics tick", "project.godot: quels autoloads on a?",
               "what does the Steam Deck preset in export_presets.cfg exclude?"),
}
PLANS = {
    "build": ["run_build", "grep", "read_file", "apply_patch", "run_build"],
    "tests": ["run_tests", "read_file", "apply_patch", "run_tests"],
    "profile": ["profiler", "profiler", "read_file"],
    "profile_frames": ["profiler:frames", "read_file", "profiler:frames"],
    "profile_render": ["profiler:render", "read_file", "profiler:render"],
    "profile_memory": ["profiler:memory", "read_file", "profiler:memory"],
    "tracker": ["tracker", "tracker", "grep", "read_file"],
    "export": ["godot_headless:export", "steamcmd"],
    "upload": ["run_build", "godot_headless:export", "steamcmd"],
    "smoke": ["godot_headless:run", "read_file"],
    "investigate": ["grep", "read_file", "read_file", "apply_patch", "run_build", "godot_headless:run"],
    "refactor": ["read_file", "apply_patch", "apply_patch", "run_build", "run_tests"],
    "review": ["read_file", "read_file"],
    "import": ["godot_headless:import", "read_file"],
    "rewrite": ["read_file", "write_file", "run_build"],
    "config": ["read_file", "run_build", "read_file"],
}
LOOP = ("apply_patch", "run_build", "read_file", "godot_headless:run", "run_tests", "profiler", "grep")
NOTES = (None, None, None, "Rebuilding.", "Checking the file first.", "Let me look at that.", "Running it headless.",
         "One more pass.", "Profiling.", "Reading the scene.", "Quick grep.", "Patching.", "Re-running.", "Ok, next:",
         "Je regarde.", "Trying again with the fix.")
OPENERS = ("Done.", "OK:", "Alright.", "Voilà.", "Here's where it stands:", "", "Short version:", "Finished.", "So,",
           "Result:", "Ça y est.", "Update:")
POINTERS = ("", "", "", "The table above has the per-system numbers.", "Details are in the last run's output.",
            "The second output is the one that matters.", "You can see it in the log above.",
            "Scroll up to the summary at the end of the run if you want the full list.")
CLOSERS = ("Want me to keep going on that?", "Next step would be the Deck profile, unless you want something else.",
           "I left the rest alone.", "Nothing committed.", "Tell me if you want the diff explained.", "", "",
           "Should I open a ticket for it?", "Je continue?", "Your call on the next one.")
CHATS = (
    ("c'est quoi la diff entre _Process et _PhysicsProcess déjà?", "_PhysicsProcess runs at the fixed physics tick (60 here), _Process every rendered frame. Movement and anything touching bodies belongs in the physics one; visuals and UI in _Process. On the Deck at 40 fps the two drift apart, which is why the camera smoothing lives in _Process with interpolation."),
    ("should I worry about CS8618?", "Not much. It's the nullable analysis complaining that fields assigned in _Ready aren't set in the constructor. Godot initialises them later, so they're false alarms; marking them with `= null!` or making them nullable silences it. Real bugs would show up as CS8602 at the call sites."),
    ("tu penses qu'on peut tenir 40 fps sur le deck?", "In most levels, yes; the frame tables so far leave headroom outside the busy scenes. The risk is the scenes with lots of particles and omni lights, where the GPU side is close to the limit. I'd cap at 40 and measure the worst scenes first."),
    ("GDScript ou C# pour les menus, honnêtement?", "For menus GDScript is simpler: hot reload, less boilerplate, and the UI code doesn't need the speed. Keeping gameplay in C# and UI in GDScript is what the project already does, so I'd stay consistent."),
    ("why is the first load of a level so slow?", "Mostly shader compilation: the first time a material is drawn, the driver compiles its pipeline. Subsequent loads hit the cache. A warm-up scene that draws each material once during the splash screen usually hides it."),
    ("c'est grave les orphan nodes?", "A few are normal (nodes removed but kept on purpose). A count that grows with each room transition means something is removed from the tree without QueueFree, and that leaks memory over a long session."),
    ("est-ce que Steam Cloud marche tout seul avec user://?", "Only if the Auto-Cloud paths in Steamworks point at the folder Godot uses for user:// on each platform. On Linux/Deck that's under ~/.local/share/godot/app_userdata/Lanterne. It doesn't need code, just the right root and pattern."),
    ("pourquoi le build Debug est si lent sur le deck?", "Debug builds keep asserts, skip optimisations in the C# assembly and often run with the debugger hooks. For perf work on the Deck, profile a release export; debug numbers mislead by 20-40%."),
)


STATUS_ASKS = ("t'en es où?", "status?", "where are we at", "recap rapide?", "ok pause 10 min, tu me fais un résumé",
               "what's left?", "on est rendu où?", "quick summary before I go", "résumé stp", "what did we fix today?")
STARTERS = ("on fait quoi en premier?", "rappelle-moi où on était hier?", "what's on the board today?",
            "t'as une idée de par où commencer?")
STARTER_REPLIES = (
    "Yesterday we stopped after a green build and a Deck profile of the harbor; the open tracker items are mostly Deck perf and two softlocks. I'd start with whatever blocks the next upload.",
    "From the last session: the build was clean apart from nullable warnings, the ferry softlock was still open, and the Deck profile of old town was next. Your call.",
    "Where we left off: tests green, a few Discord reports not triaged yet, and the cert checklist waiting. Tell me what you want first.",
)
STATUS_OPENERS = ("Where things stand:", "Quick recap:", "So far:", "Résumé:", "Last few things:", "Recap:")


class _Filler:
    """Mixin: the routine turns between the planted episodes."""

    def ask(self: _Gen, kind: str, level: str | None = None, react: bool = True, cls: str | None = None) -> str:
        """The user's terse request of ``kind``; what it is about becomes the focus of the calls after it."""
        rng = self.rng
        sym = rng.choice(SYMPTOMS)
        level = level or rng.choice(LEVELS)
        cls, file, gd = cls or rng.choice(CLASSES), rng.choice(CS_FILES + GD_FILES + SCENES), rng.choice(GD_FILES)
        frame = rng.choice(ASKS[kind])
        cfg = next((c for c in CONFIGS if c in frame), "Lanterne.csproj" if "csproj" in frame else rng.choice(CONFIGS))
        text = frame.format(level=level.rsplit("/", 1)[-1][:-5], cls=cls, symptom=sym[0], symptom_fr=sym[1], file=file,
                            gd=gd, cfg=cfg)
        low = text.lower()
        device = ("desktop" if "desktop" in low else rng.choice(("steamdeck", "deck_oled")) if "deck" in low
                  else rng.choice(tuple(DEVICES)))
        code = {"review": file, "rewrite": gd, "investigate": sym[2], "tracker": sym[2], "config": cfg}.get(kind, CLASS_FILE[cls])
        runner = "gdunit4" if "gdunit" in low else "nunit" if ("nunit" in low or "combat" in low or "branche" in low) else ""
        platform = "windows" if "windows" in low else "linux" if "linux" in low else "deck" if "deck" in low else ""
        self.focus = {"level": level, "device": device, "code": code, "cls": cls, "runner": runner, "depot": platform,
                      "preset": {"windows": "Windows Desktop", "linux": "Linux", "deck": "Steam Deck"}.get(platform, ""),
                      "branch": next((b for b in ("staging", "playtest", "internal") if b in low), "")}
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
        out = " ".join(parts)
        if react and rng.random() < 0.3:
            out = out[0].upper() + out[1:]
        return _typo(out, rng)

    def steps_for(self: _Gen, kind: str, k: int) -> list[Callable[[], Step]]:
        """``k`` routine calls for a request of ``kind``, each made when it runs (its output sized then)."""
        plan = list(PLANS[kind])
        while len(plan) < k:
            plan.append(self.rng.choice(LOOP))
        for tool in TOOLS:  # a tool the session has not used yet, if this request uses it, comes early enough to run
            at = next((j for j, name in enumerate(plan) if name.partition(":")[0] == tool), None)
            if tool not in self.used and at is not None and at >= k > 1:
                plan.insert(k - 1, plan.pop(at))
        plan = plan[:k]
        steps: list[Callable[[], Step]] = []
        for name in plan:
            tool, _, mode = name.partition(":")
            if tool == "godot_headless":
                steps.append(lambda mode=mode: self.s_godot(mode or None))
            elif tool == "profiler":
                steps.append(lambda mode=mode: self.s_profile(mode or None))
            else:
                steps.append(lambda tool=tool: self.any_step(tool))
        return steps

    def go(self: _Gen, thunks: list[Callable[[], Step]]) -> list[tuple[int, Step]]:
        """Run routine calls one after the other: (result index, step) for each."""
        out = []
        for make in thunks:
            step = make()
            out.append((self.run([step], self.note(step[0]))[0], step))
        return out

    def note(self: _Gen, tool: str) -> str | None:
        """What the agent says as it calls ``tool``: often nothing."""
        return self.rng.choice(NOTES_BY_TOOL[tool]) if self.rng.random() < 0.45 else None

    def answer(self: _Gen, gists: list[str]) -> str:
        rng = self.rng
        picked = gists[-3:] if len(gists) > 3 else gists
        if len(picked) > 1 and rng.random() < 0.4:
            picked = rng.sample(picked, len(picked) - 1)
        body = "; ".join(picked)
        opener = rng.choice(OPENERS)
        body = (body if opener.endswith(",") else body[0].upper() + body[1:]) + "."
        parts = [opener, body, rng.choice(POINTERS), rng.choice(CLOSERS)]
        return " ".join(p for p in parts if p)

    def turn(self: _Gen, length: int, kind: str | None = None) -> None:
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

    def chat(self: _Gen) -> None:
        """Two messages: a question about the engine (each once a session) or a quick status check."""
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
        self.user(_typo(" ".join(x for x in (rng.choice(REACTIONS + ("", "")), rng.choice(STATUS_ASKS),
                                             rng.choice(QUALIFIERS)) if x), rng))
        recent = list(dict.fromkeys(self.recent[-5:])) or ["nothing new has run since the last recap"]
        body = "; ".join(rng.sample(recent, min(len(recent), rng.randint(1, 3))))
        self.recent = []
        self.say(f"{rng.choice(STATUS_OPENERS)} {body[0].upper() + body[1:]}. {rng.choice(CLOSERS)}".strip())

    def gap(self: _Gen, g: int) -> None:
        """Exactly ``g`` messages of routine turns (``g`` is 0, 2, or 4 and more)."""
        assert g in (0, 2) or g >= 4, g
        while g:
            if g <= 14 or (g <= 40 and self.rng.random() < 0.2):
                self.turn(g)
                return
            if self.rng.random() < 0.08:
                length = 2
            else:
                length = self.rng.randint(4, min(30, g - 4))
            self.turn(length)
            g -= length


# --- what gets planted: the user's own words --------------------------------------------------------------------
# (style, value with {params}, {param: choices}, message frames around {v}, query)

INSTRUCTIONS = (
    ("indirect", "the Deck chokes when we go over {dc} draw calls", {"dc": (1200, 1500, 1800, 2000)},
     ("fyi {v}, so count them when you add props", "{v}. garde ça en tête pour chaque passe de level",
      "just so you know, {v}", "rappel: {v} — the lighthouse is already close"),
     "Above how many draw calls does the Steam Deck start to struggle, according to the user?"),
    ("indirect", "the Switch devkit falls over once we pass {mb} MB resident", {"mb": (2600, 2800, 3000, 3200)},
     ("heads up, {v}", "{v}, learned that the hard way last week", "pour info {v}"),
     "At what resident memory does the Switch devkit fall over, per the user?"),
    ("indirect", "Brightmoor's QA plays with the sound off, so every hit needs a visual tell", {},
     ("oh and {v}", "{v}. c'est eux qui signent le milestone", "detail: {v}"),
     "What did the user say about how the publisher's QA plays, and what it means for hits?"),
    ("indirect", "Steam reviews murder games that stutter on first launch", {},
     ("{v}, so think shaders before anything else", "tsé, {v}", "remember {v}"),
     "What did the user say Steam reviewers punish?"),
    ("indirect", "the last time someone touched the physics tick the rope bridge exploded for a week", {},
     ("{v}, just saying", "petite histoire: {v}", "fun fact, {v}"),
     "What happened the last time the physics tick was changed, per the user?"),
    ("casual", "I hate it when you rename my signals", {},
     ("ah and {v}, keep the names even if they're ugly", "{v}. sérieux.", "btw {v}, the .tscn connections break silently"),
     "How does the user feel about the agent renaming signals?"),
    ("casual", "I can't stand magic numbers in the tuning code", {},
     ("{v}, they go in the .tres files", "honestly {v}", "ugh, {v}. put them in resources"),
     "What does the user dislike seeing in the tuning code?"),
    ("casual", "no more autoloads please, we have way too many already", {},
     ("and {v}", "{v} lol", "bon, {v}"),
     "What did the user say about adding autoloads?"),
    ("casual", "stop sprinkling GD.Print everywhere, it drives me nuts", {},
     ("{v}", "pis {v}, use the Log helper", "ok small thing: {v}"),
     "What did the user ask about debug printing?"),
    ("casual", "I really don't like when you reformat whole files for a one-line fix", {},
     ("also {v}", "{v}, the diffs get unreadable", "petit pet peeve: {v}"),
     "What does the user dislike about the agent's edits?"),
    ("conditional", "if a test is flaky twice, quarantine it and tell me", {},
     ("rule: {v}", "{v}, don't spend an hour on it", "à partir de maintenant, {v}"),
     "What should happen to a test that turns out flaky twice?"),
    ("conditional", "if a build takes more than {m} minutes, kill it and ping me", {"m": (3, 4, 5, 6)},
     ("{v}", "also {v}, something's wrong when that happens", "règle: {v}"),
     "What should the agent do when a build runs too long?"),
    ("conditional", "if you edit a .tscn by hand, reload it headless right after to check it still parses", {},
     ("{v}", "important: {v}", "{v}, it bit me twice"),
     "What must follow a hand edit of a .tscn file?"),
    ("conditional", "if the Deck frame time goes over {ms} ms in a profile, stop and show me before optimizing", {"ms": (25, 28, 30, 33)},
     ("{v}", "ok so {v}", "{v} — I want to see it first"),
     "When should the agent stop and show the user a Deck profile before optimizing?"),
    ("conditional", "si un shader compile pas sur le Deck, tu le désactives et tu me le dis", {},
     ("{v}", "pis {v}", "{v}, pas de workaround magique"),
     "What should happen when a shader fails to compile on the Deck?"),
    ("conditional", "if Ximena's sprites come in with the wrong names, rename them on import, never in her folder", {},
     ("{v}", "and {v}", "{v}, she gets mad otherwise"),
     "How should badly named sprites from the artist be handled?"),
    ("french", "toujours garder les .import hors du commit", {},
     ("{v}", "ah pis {v}", "{v}, ils se régénèrent"), "What did the user say about .import files and commits?"),
    ("french", "jamais de LINQ dans _Process", {},
     ("{v}", "règle d'or: {v}", "{v}, le GC du Deck aime pas ça"), "What is not allowed inside _Process?"),
    ("french", "pas de await dans les _Ready, ça fait planter le Switch", {},
     ("{v}", "note: {v}", "{v} — déjà vu"), "What did the user forbid in _Ready methods?"),
    ("french", "les noms de scènes toujours en snake_case, les classes C# en PascalCase", {},
     ("{v}", "convention: {v}", "{v}, pas d'exception"), "What naming convention did the user set for scenes and C# classes?"),
    ("french", "ne touche jamais au project.godot sans me demander", {},
     ("{v}", "sérieux, {v}", "{v}, même pour une petite affaire"), "Which project file must the agent never touch without asking the user?"),
    ("french", "chaque nouveau signal doit être documenté dans docs/signals.md", {},
     ("{v}", "aussi: {v}", "{v}, sinon je m'y retrouve pas"), "Where must new signals be documented?"),
    ("spanish", "nunca subas builds a Steam los viernes", {},
     ("y otra cosa: {v}", "{v}, ya aprendí", "regla: {v}"), "On which day must builds not be uploaded to Steam?"),
    ("spanish", "los archivos .aseprite no van al repo, solo los PNG exportados", {},
     ("{v}", "ojo: {v}", "{v}, digan lo que digan"), "What did the user say about .aseprite files and the repository?"),
    ("spanish", "no toques la carpeta art/_wip, es de Ximena", {},
     ("{v}", "importante: {v}", "{v}, de verdad"), "Which folder must the agent leave alone?"),
    ("spanish", "siempre pregunta antes de borrar una escena", {},
     ("{v}", "y {v}", "{v}, aunque parezca vieja"), "What must the agent do before deleting a scene?"),
    ("spanish", "las texturas del Deck nunca pasan de {px} píxeles", {"px": (1024, 2048)},
     ("{v}", "ojo, {v}", "{v}, por la memoria"), "What size limit did the user set for Deck textures?"),
    ("plain", "every enemy scene keeps its hurtbox on a child node, never on the root", {}, ("{v}",),
     "Where must an enemy scene's hurtbox live?"),
    ("plain", "no new NuGet packages without asking me, the Switch toolchain is picky", {}, ("{v}",),
     "What did the user say about adding NuGet packages?"),
    ("plain", "Deck-only tweaks go behind the DeckProfile checks, never behind #if blocks", {}, ("{v}",),
     "How should Deck-specific tweaks be gated?"),
    ("plain", "tuning values live in .tres resources and nowhere else", {}, ("{v}",),
     "Where do tuning values belong, per the user?"),
    ("plain", "a PR that touches SaveService needs a migration test, no exceptions", {}, ("{v}",),
     "What must accompany any change to the save service?"),
    ("adopted", "the game has to survive {h} hours of suspend on the Deck without losing the save", {"h": (4, 6, 8, 12)}, (),
     "Which requirement from the certification checklist did the user adopt about suspend?"),
    ("adopted", "no text smaller than {pt} px at 800p", {"pt": (10, 11, 12)}, (),
     "What minimum text size did the user adopt from the checklist?"),
    ("adopted", "yanking the controller mid-fight has to pause the game right away", {}, (),
     "What controller-disconnect behaviour did the user adopt from the checklist?"),
    ("adopted", "the cursor disappears the moment a gamepad is used", {}, (),
     "What did the user adopt from the checklist about the mouse cursor?"),
)
STYLES = ("indirect", "casual", "conditional", "french", "spanish", "mid", "adopted")
MID_OPENERS = (
    "grosse journée. j'ai passé le matin sur le trailer avec Marie, l'après-midi sur le ferry, rien de fini évidemment. the Deck was on battery the whole time so some numbers might be off.",
    "ok so I talked with Dana this morning and the milestone is still on, but they want a cleaner build than last time. Ximena is sick this week, so no new sprites before Monday.",
    "je reviens du 5 à 7 des devs de Québec, plein de monde a des problèmes de shader cache sur le Deck aussi, c'est rassurant. anyway, back on the boss stuff tomorrow.",
    "the playtest last night went ok, 14 people, 3 softlocks, one crash on exit. Discord is noisy but mostly positive. I'll triage later.",
    "petite mise à jour: the publisher moved the review call to Thursday and the Switch devkit finally arrived, it's on my desk, untouched.",
)
MID_LEADS = ("Anyway, petit rappel pendant que j'y pense:", "Also, something I should have said earlier:",
             "Et une règle pour la suite, parce que ça revient:", "One thing before I forget —", "Bon, sinon:",
             "While I'm at it, a standing rule:")
MID_FOLLOWS = ("C'est pas négociable.", "That applies to everything from now on.", "Ça m'a déjà coûté une journée.",
               "I know it's annoying, but yeah.", "Merci d'avance.", "We've been burned before.")
ADOPT_FRAMES = ("ok from that checklist: {v}. the rest ({ign}) je m'en fous pour l'instant",
                "de la liste je garde une chose: {v}. ignore {ign}, c'est pour plus tard",
                "from the cert list we actually do this one, in my words: {v}. {ign}, on skip",
                "bon, checklist. pour nous ça veut dire {v}. {ign}: pas maintenant")
IGNORED = ("the on-screen keyboard thing", "the achievements-offline item", "la nickname sur les saves",
           "the launcher stuff", "the saving indicator", "the network cable one")

DECISIONS = (
    ("physics", "physics engine", "le moteur physique", ("Jolt", "GodotPhysics", "Rapier3D")),
    ("input", "input system", "le système d'input", ("GUIDE addon", "Steam Input action sets", "plain InputMap actions")),
    ("saves", "save format", "le format de sauvegarde", ("MessagePack", "FlatBuffers", "SQLite", "ConfigFile")),
    ("dialogue", "dialogue tool", "l'outil de dialogue", ("Dialogic 2", "Dialogue Manager", "Yarn Spinner", "GodotInk")),
    ("audio", "audio middleware", "le middleware audio", ("FMOD", "Wwise")),
    ("steam", "Steamworks binding", "le binding Steamworks", ("GodotSteam", "Steamworks.NET", "Facepunch.Steamworks")),
    ("ai", "enemy AI framework", "le framework d'IA", ("LimboAI", "Beehave", "a hand-written enum FSM")),
    ("levels", "level blockout tool", "l'outil de blockout", ("TrenchBroom with func_godot", "Cyclops Level Builder", "CSG blockouts")),
    ("crash", "crash reporter", "le crash reporter", ("Sentry", "BugSplat", "Raygun")),
    ("vcs", "way to version the art", "la façon de versionner l'art", ("Git LFS", "Anchorpoint", "Perforce")),
    ("telemetry", "telemetry", "la télémétrie", ("GameAnalytics", "no telemetry at all")),
    ("ci", "CI", "la CI", ("GitHub Actions", "GitLab CI", "a self-hosted Jenkins")),
    ("loc", "localization pipeline", "le pipeline de loc", ("gettext .po files", "CSV translation tables", "Crowdin")),
    ("camera", "camera system", "le système de caméra", ("Phantom Camera", "a custom SpringArm rig")),
)
DECIDE_FRAMES = ("ok décision: {v} pour {fr}. {why}", "on part sur {v} for the {en}, {why}", "let's go with {v} for the {en}",
                 "j'ai tranché pour {fr}: {v}", "{v} it is, for the {en}. {why}", "après réflexion, {fr} ce sera {v}",
                 "decision time: {en} = {v}. {why}", "pour {fr}, on prend {v}. {why}")
REVISE_FRAMES = ("on oublie {old}, back to {v}", "scratch {old}, on revient à {v} pour {fr}", "{old} c'est non finalement, {v}. {why}",
                 "changement de plan: {v} au lieu de {old}", "ok I changed my mind on the {en}: {v}, not {old}",
                 "finalement pas {old}. {v}, {why}")
WHYS = ("c'est plus simple pour le port Switch", "the Deck build is what matters", "moins de dépendances",
        "Ximena knows it already", "it's what the publisher's QA can debug", "j'ai pas le temps d'apprendre autre chose",
        "the docs are better", "it's free for our revenue bracket", "less stuff to maintain solo",
        "le dernier jam m'a convaincu")

TASKS = ("fix the softlock", "la migration des saves", "the Deck profile", "le cert checklist", "cleanup des warnings CS8618",
         "the parry rework", "re-import les sprites de Ximena", "the Switch build", "l'upload staging", "the achievements pass",
         "la loc FR/ES", "le boss phase 2", "the input remap screen", "les fuites de nodes dans le hub", "the ferry desync",
         "shader prewarm", "le build du trailer", "the memory pass on Switch", "la passe audio", "captions",
         "le menu options", "the rumble profiles", "controller disconnect handling", "cloud saves", "the credits scroll",
         "la doc des signaux")
PLAN_FRAMES = ("d'abord {a}, then {b}, then {c}", "first {a}, ensuite {b}, et après ça {c}", "ordre: {a} → {b} → {c}",
               "{a} today, {b} tomorrow, {c} vendredi si on a le temps", "plan: 1) {a} 2) {b} 3) {c}",
               "on fait {a} en premier, puis {b}, et {c} en dernier", "priority is {a}, then {b}; {c} waits until after",
               "step one {a}, step two {b}, then {c}, then {d}", "{a} avant tout, ensuite {b}, pis {c}")
PLAN_INTROS = ("ok plan pour aujourd'hui:", "bon, voici l'ordre:", "here's the plan:", "", "pour la suite:",
               "ok listen,", "so, for the rest of the week:", "plan de match:")
PLAN_OUTROS = ("on commit entre chaque.", "pas de side quests.", "tell me when each is done.", "", "",
               "si ça bloque, tu me le dis.", "no refactors on the way please.")

# corrections: family -> (near miss?, contexts (French, English), stale frames, correction frames, query); {s} the
# stale value, {v} the new one, {o} the old number or name in prose, {c}/{ce} the context in French/English
CORRECTIONS = {
    "scene": (True, (("le softlock de la phase 2", "the phase 2 softlock"), ("le glitch de l'intro du boss", "the boss intro glitch"),
                     ("le bug d'éclairage", "the lighting bug"), ("le checkpoint qui mange les saves", "the checkpoint that eats saves")),
              ("{ce} is in {s}, start from there", "commence par {s}, c'est là qu'est {c}", "the scene with {ce} is {s}.tscn",
               "test {ce} in {s} stp"),
              ("wrong scene, it's {v}", "non attends, c'est {v}, pas celle-là", "oops, {v}: the other one is the old blockout",
               "je me suis trompé de scène tantôt, c'est {v}"),
              "Which scene has {ce}, after the user's correction?"),
    "layer": (True, (("les hurtbox des ennemis", "the enemy hurtboxes"), ("les pickups de fuel", "the fuel pickups"),
                     ("les projectiles du boss", "the boss projectiles"), ("les occluders de lumière", "the light occluders"),
                     ("les triggers de caméra", "the camera triggers"), ("les plateformes one-way", "the one-way platforms")),
              ("mets {c} sur le {s}", "{ce} go on {s} from now on", "{ce}: {s}, please"),
              ("non attends, c'est le {v} pas le {o}", "correction: {ce} are on {v}, I said the wrong number",
               "le {v} pour {c}, pas l'autre, my bad"),
              "Which physics layer do {ce} use, as corrected by the user?"),
    "color": (True, (("le glow de la lanterne", "lantern glow"), ("l'accent du UI", "UI accent"), ("le fog du port", "harbor fog tint"),
                     ("les particules d'ember", "ember particles")),
              ("the {ce} color Ximena picked is {s}", "la couleur pour {c} c'est {s}"),
              ("typo earlier, the {ce} is {v}", "c'est {v} la couleur, pas ce que j'ai écrit", "{v}* — fat fingers"),
              "What hex color did the user finally give for the {ce}?"),
    "branch": (True, (("la prochaine build Deck", "the next Deck build"), ("la démo du festival", "the festival demo"),
                      ("la build pour la review du publisher", "the publisher review build")),
               ("upload {ce} to the {s} branch", "{c} va sur {s}"),
               ("le branch c'est {v}, je me suis trompé", "wrong branch name, it's {v}", "{v}, not the one I said before"),
               "Which Steam branch should {ce} go to, after the correction?"),
    "signal": (True, (("le Player", "the Player"), ("le HUD", "the HUD"), ("le ferry", "the ferry"), ("le boss", "the boss")),
               ("the signal to hook on {ce} is {s}", "connecte {c} au signal {s}"),
               ("non, {v}. I mistyped the signal", "c'est {v} le signal, pas l'autre", "signal name is {v}, sorry"),
               "Which signal name is right for the hookup on {ce}?"),
    "achievement": (True, (("", ""),),
                    ("the {ce} achievement is {s} in Steamworks", "l'achievement {ce} s'appelle {s}"),
                    ("sorry, the API name is {v}, I checked the partner site", "c'est {v} dans Steamworks, j'avais mal copié"),
                    "What is the correct Steamworks API name of the {ce} achievement?"),
    "shader": (False, (("le flicker sur le Deck", "the flicker on the Deck"), ("le banding dans le fog", "the banding in the fog"),
                       ("les carrés noirs sur la Switch", "the black squares on the Switch"), ("le shimmer sur l'eau", "the shimmer on the water")),
               ("I think {ce} comes from {s}.gdshader", "{c}, je pense que c'est {s}.gdshader"),
               ("non, the other shader: {v}.gdshader, c'est lui le coupable", "not {o}, it's {v}.gdshader",
                "wait no, {v}.gdshader. {o} is innocent"),
               "Which shader causes {ce}, per the user's correction?"),
    "enemy": (False, (("le softlock de l'échelle", "the ladder softlock"), ("le softlock de l'ascenseur", "the elevator softlock"),
                      ("le softlock de la porte de la chapelle", "the chapel door softlock")),
              ("{ce} happens when the {s} grabs you", "{c}, c'est quand le {s} t'attrape"),
              ("c'est pas le {o}, c'est le {v} pour {c}", "wrong enemy, it's the {v}", "my bad, the {v}, not the {o}"),
              "Which enemy triggers {ce}, per the correction?"),
    "tester": (False, (("la corruption de save", "the save corruption"), ("le bug du dash infini", "the infinite dash bug"),
                       ("le crash avec la manette Switch Pro", "the Switch Pro controller crash")),
               ("{s} is the one who found {ce}, credit them in the patch notes", "c'est {s} qui a trouvé {c}, mets-le dans les notes"),
               ("oops, it was {v} not {o}", "c'était {v} le tester, pas l'autre", "credit {v} actually, I mixed them up"),
               "Which tester should be credited for finding {ce}?"),
}
NEAR, LOOSE = [k for k, c in CORRECTIONS.items() if c[0]], [k for k, c in CORRECTIONS.items() if not c[0]]
FAR_PREFIX = ("ok je reviens sur un truc de tantôt:", "remember what I said way back?", "going back to something from earlier,",
              "ah pis, une vieille affaire:", "about that thing I told you a while ago:", "", "", "petit retour en arrière:",
              "je viens de réaliser un truc:", "hmm, that thing from this morning:", "oh wait, earlier I said something wrong.",
              "euh, correction sur un vieux message:")

IDENT_USER = {
    "switch": (("the Nintendo title ID for Lanterne is {v}, put it in the Switch preset when we get there",
                "Nintendo nous a assigné le title ID {v}", "fyi title ID from the dev portal: {v}"),
               "What title ID did Nintendo assign to the game?"),
    "achievement": (("the API name for the new achievement is {v}, Marie set it up in Steamworks",
                     "nouvel achievement dans Steamworks: {v}, branche-le sur la fin du boss"),
                    "What API name did the user give for the new achievement?"),
    "uid": (("the uid that keeps breaking in the boss scene is {v}, check what points at it",
             "Godot me crie après {v}, missing dependency, trouve c'est quoi"),
            "Which Godot UID did the user say keeps breaking?"),
    "ticket": (("Brightmoor's ticket for the cert stuff is {v}, mention it in the changelog",
                "le ticket chez le publisher c'est {v}, garde-le quelque part"),
               "Which publisher ticket tracks the certification work?"),
    "lockey": (("the line that overflows in Spanish is {v}", "la clé de loc qui déborde en espagnol: {v}"),
               "Which localization key overflows in Spanish?"),
    "action": (("new input action: {v}, bind it to LB on pad and Q on keyboard", "ajoute l'action {v} dans l'input map"),
               "What is the new input action called?"),
}
IDENT_TOOL = ("tracker_new", "manifest", "new_uid", "crash_group")
FILE_KINDS = ("cs", "gd", "shader", "tres", "test", "tscn")
FILE_STEMS = {  # which of F_FILE_STEMS make sense as which kind of file
    "cs": ("ParryBuffer", "StaggerMeter", "WickCharge", "TetherRope", "GustZone", "WardTotem", "SuspendGuard",
           "DeckPerfOverlay", "SwitchSaveAdapter", "RumbleProfile", "AchievementRelay", "CaptionTrack", "RuneDoor",
           "HuskShell", "QuillTurret", "LullTimer", "DriftCamera"),
    "gd": ("EmberTrail", "VeilFader", "SootCloud", "GlintPickup", "CaptionTrack", "DeckPerfOverlay", "AshVolume", "ThornVine"),
    "shader": ("EmberTrail", "VeilFader", "SootCloud", "AshVolume", "MireSink", "ThornVine", "GlintPickup"),
    "tres": ("RumbleProfile", "StaggerMeter", "WickCharge", "QuillTurret", "HuskShell", "GustZone", "LullTimer"),
    "test": ("ParryBuffer", "StaggerMeter", "WickCharge", "TetherRope", "SuspendGuard", "SwitchSaveAdapter", "RuneDoor",
             "AchievementRelay", "LullTimer", "DriftCamera"),
    "tscn": ("RuneDoor", "WardTotem", "QuillTurret", "ThornVine", "MireSink", "GlintPickup", "TetherRope", "HuskShell"),
}
FILE_ASKS = ("on a besoin d'un {w}, crée-le stp", "write the {w} thing we talked about", "fais-moi un {w}, simple",
             "add a {w}, keep it small", "j'aurais besoin d'un {w} pour demain", "can you create the {w}?",
             "new file for the {w} please", "go ahead and make the {w}")
ERROR_KINDS = ("cs", "script", "engine", "shader", "steam", "test")
FINDING_KINDS = ("frame", "draw", "vram", "test", "build_id", "orphans")
CS_ERRORS = (
    ("CS0246", "The type or namespace name '{T}' could not be found (are you missing a using directive or an assembly reference?)"),
    ("CS1061", "'{C}' does not contain a definition for '{M}' and no accessible extension method '{M}' accepting a first argument of type '{C}' could be found (are you missing a using directive or an assembly reference?)"),
    ("CS0103", "The name '{M}' does not exist in the current context"),
    ("CS0117", "'{T}' does not contain a definition for '{M}'"),
    ("CS7036", "There is no argument given that corresponds to the required parameter '{p}' of '{T}.{T}(float, Node3D)'"),
)
ACKS = {
    "instruction": ("Noted.", "Got it, I'll stick to that from now on.", "Compris.", "Understood, that applies to everything I touch.",
                    "OK. I'll flag it if something I'm about to do would break that.", "Noted, and sorry if I did that before.",
                    "Parfait, noté.", "OK, rule taken."),
    "correction": ("Right, thanks for catching that.", "OK, switching to the corrected one.", "Corrigé de mon côté.",
                   "Got it, I'll use that instead.", "Ah, good catch.", "OK, updated my notes."),
    "decision": ("OK, going with that.", "Noted, I'll set things up around it.", "Parfait, je pars là-dessus.",
                 "Makes sense.", "Good call, I'll plan around it."),
    "plan": ("Sounds good, starting with the first item.", "OK, in that order.", "Parfait, on y va dans cet ordre.",
             "Got it. I'll report after each step.", "OK, I'll keep to that sequence."),
    "identifier": ("Noted.", "Got it, I'll use that.", "Saved for when we touch that.", "OK.", "Thanks, noted."),
    "stale": ("OK.", "Got it.", "Noted.", "D'accord.", "Understood."),
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


class _Planted:
    """Mixin: the episodes that plant facts."""

    def extra(self: _Gen, most: int) -> int:
        """Routine calls an episode adds around its fact: more in longer sessions, none when ``damp`` is high."""
        p = (0.15 if self.n < 300 else min(0.6, 0.1 + self.n / 2500)) / (1 + 2 * self.damp) if self.damp < 3 else 0.0
        return sum(self.rng.random() < p for _ in range(most))

    def ask_tail(self: _Gen, k: int) -> tuple[str, str]:
        """A request appended to a message that says something else, and its kind (for the tool loop after)."""
        req = self.rng.choice(("build", "tests", "profile", "smoke", "review", "tracker", "investigate", "config"))
        if not k:
            return "", req
        ask = self.ask(req, react=False)
        return self.rng.choice(("\n\n", "\n", ". ", "\nsinon, ", "\nand ", ". Also: ")) + ask, req

    def user_ep(self: _Gen, label: str, text: str, k: int, req: str, ack: str, echo: str | None,
                done: Callable[[int], None], reach: int = 8) -> _Plan:
        focus = dict(self.focus)  # what the request just drawn is about

        def emit() -> None:
            self.focus = focus
            i = self.user(text)
            gists = []
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

    def tool_ep(self: _Gen, label: str, ask: str, req: str, pre: int, carrier: Callable[[], Step],
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

    def record(self: _Gen, kind: str, value: str, query: str, **more: object) -> Callable[[int], None]:
        def done(i: int) -> None:
            link = more.get("link")
            stale_index = link.index if isinstance(link, _Link) else None
            self.facts.append(Fact(kind, value, i, query, stale=more.get("stale"), stale_index=stale_index))  # type: ignore[arg-type]
        return done

    # instructions ----------------------------------------------------------------------------------------------
    def p_instruction(self: _Gen, style: str) -> tuple[_Plan, list[tuple[_Plan, int]]]:
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
            pre.append((self.p_paste("checklist"), rng.randint(4, 24)))
            text = _then(_fill(rng.choice(ADOPT_FRAMES), rng, v=value, ign=rng.choice(IGNORED)), tail)
        elif style == "mid":
            text = (rng.choice(MID_OPENERS) + "\n\n" + rng.choice(MID_LEADS) + " " + value + ". " + rng.choice(MID_FOLLOWS)
                    + ("\n\n" + tail.lstrip(" .\n") if tail else ""))
        else:
            text = _then(_fill(rng.choice(tpl[3]), rng, v=value), tail)
        echo = rng.choice((f"Rule noted: {value}.", f"I'll keep “{value}” in mind.", f"So: {value}. Understood.",
                           f"(“{value}”, got it.)"))
        plan = self.user_ep("instruction", text, k, req, "instruction", echo, self.record("instruction", value, tpl[4]))
        return plan, pre

    # decisions -------------------------------------------------------------------------------------------------
    def p_decision(self: _Gen, revised: bool) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        topic = rng.choice([t for t in DECISIONS if t[0] not in self.templates and all(self.clear(o) for o in t[3])])
        self.templates.add(topic[0])
        _key, en, fr, options = topic
        opts = rng.sample(options, 2)
        value = self.draw(lambda: opts[1] if revised else opts[0])
        pre: list[tuple[_Plan, int]] = []
        if revised:
            old = self.draw(lambda: opts[0])
            link = _Link()
            k0 = self.extra(2)
            tail0, req0 = self.ask_tail(k0)
            first = _then(_fill(rng.choice(DECIDE_FRAMES), rng, v=old, en=en, fr=fr, why=rng.choice(WHYS)), tail0)

            def mark(i: int, link: _Link = link) -> None:
                link.index = i
            pre.append((self.user_ep("first", first, k0, req0, "decision", f"{old} it is.", mark, reach=12),
                        rng.randint(15, 220)))
        k = self.extra(3)
        tail, req = self.ask_tail(k)
        if revised:
            text = _then(_fill(rng.choice(REVISE_FRAMES), rng, v=value, old=old, en=en, fr=fr, why=rng.choice(WHYS)), tail)
            query = f"Which {en} did the user settle on after changing their mind?"
            done = self.record("decision", value, query, stale=old, link=link)
        else:
            text = _then(_fill(rng.choice(DECIDE_FRAMES), rng, v=value, en=en, fr=fr, why=rng.choice(WHYS)), tail)
            done = self.record("decision", value, f"Which {en} did the user choose?")
        echo = rng.choice((f"{value} it is.", f"Going with {value}.", f"OK, {value}."))
        return self.user_ep("decision", text, k, req, "decision", echo, done), pre

    # plans -----------------------------------------------------------------------------------------------------
    def p_plan(self: _Gen) -> tuple[_Plan, list[tuple[_Plan, int]]]:
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
        query = f"In what order did the user want to tackle the batch of work that starts with “{first}”?"
        return self.user_ep("plan", text, k, req, "plan", None, self.record("plan", value, query)), []

    # corrections -----------------------------------------------------------------------------------------------
    def correction_pair(self: _Gen, family: str) -> tuple[str, str, dict[str, str]]:
        """(stale, value, prose slots) for one correction family, both fresh."""
        rng = self.rng
        for _ in range(200):
            slots: dict[str, str] = {}
            if family == "scene":
                base, k = rng.choice(F_SCENES), rng.randint(2, 8)
                stale, value = f"{base}_{k:02d}", f"{base}_{k + rng.choice((-1, 1)):02d}"
            elif family == "layer":
                a = rng.randint(10, 30)
                b = a + 1 if a == 10 or rng.random() < 0.5 else a - 1
                stale, value = f"layer {a}", f"layer {b}"
                slots["o"] = str(a)
            elif family == "color":
                stale = "#" + "".join(rng.choice("0123456789ABCDEF") for _ in range(6))
                j = rng.randrange(1, 7)
                value = stale[:j] + rng.choice([c for c in "0123456789ABCDEF" if c != stale[j]]) + stale[j + 1:]
            elif family == "branch":
                prefix, k = rng.choice(F_BRANCHES), rng.randint(10, 58)
                sep = "" if prefix.endswith(("rc", "wk")) else "-"
                stale, value = f"{prefix}{sep}{k}", f"{prefix}{sep}{k + rng.choice((-1, 1))}"
            elif family == "signal":
                stale, value = rng.sample(rng.choice(F_SIGNAL_PAIRS), 2)
            elif family == "achievement":
                subj, pair = rng.choice(F_ACH_SUBJECTS), rng.sample(rng.choice(F_ACH_PAIRS), 2)
                stale, value = f"ACH_{subj}_{pair[0]}", f"ACH_{subj}_{pair[1]}"
                kind = {"NOHIT": "no-hit", "SPEEDRUN": "speedrun", "NODAMAGE": "no-damage", "ALLWICKS": "all-wicks",
                        "ONELIFE": "one-life"}[pair[0].replace("_", "")]
                slots["c"] = slots["ce"] = f"{kind} {subj.title()}"
                slots["reserve"] = subj.title()  # said in prose: no other value may be the same name
            else:
                pool = {"shader": F_SHADERS, "enemy": F_ENEMIES, "tester": F_TESTERS}[family]
                stale, value = rng.sample(pool, 2)
                slots["o"] = stale
            reserve = slots.pop("reserve", "")
            if (stale not in value and value not in stale and self.clear(stale) and self.clear(value)
                    and (not reserve or self.clear(reserve))):
                self.fresh(stale)
                self.fresh(value)
                if reserve:
                    self.fresh(reserve)
                return stale, value, slots
        raise RuntimeError("no fresh correction")  # pragma: no cover

    def p_correction(self: _Gen, family: str, far: bool) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        _near, contexts, stale_frames, frames, query = CORRECTIONS[family]
        unused = [c for c in contexts if f"{family}:{c[1]}" not in self.templates] or list(contexts)
        c, ce = rng.choice(unused)
        self.templates.add(f"{family}:{ce}")
        stale, value, slots = self.correction_pair(family)
        slots = {"c": c, "ce": ce, "o": "", **slots}
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
    def p_identifier(self: _Gen, carrier: str) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        if carrier == "user":
            family = rng.choice([f for f in IDENT_USER if f not in self.templates] or list(IDENT_USER))
            self.templates.add(family)
            make = {"switch": lambda: "0100" + _hex(rng, 9).upper() + "000",
                    "achievement": lambda: f"ACH_{rng.choice(('BEAT', 'RING', 'FIND', 'LIGHT', 'SPARE'))}_{rng.choice(F_ACH_SUBJECTS)}",
                    "uid": lambda: _uid(rng), "ticket": lambda: f"BRM-{rng.randint(1000, 9999)}",
                    "lockey": lambda: f"DLG_{rng.choice(F_NPCS)}_{rng.randint(1, 40):02d}",
                    "action": lambda: rng.choice(F_ACTIONS)}[family]
            value = self.draw(make)
            frames, query = IDENT_USER[family]
            k = self.extra(3)
            tail, req = self.ask_tail(k)
            text = _then(_fill(rng.choice(frames), rng, v=value), tail)
            echo = rng.choice((f"{value}, noted.", f"Got {value}.", None))
            return self.user_ep("identifier", text, k, req, "identifier", echo, self.record("identifier", value, query)), []
        family = rng.choice(IDENT_TOOL)
        pre, npost = self.extra(2), self.extra(2)
        sym: tuple[str, str, str] = self.unique("sym", SYMPTOMS)  # type: ignore[assignment]
        cls = rng.choice(CLASSES)
        self.focus = {"code": sym[2], "level": rng.choice(LEVELS), "device": "steamdeck", "cls": cls}
        if family == "tracker_new":
            value = self.draw(lambda: f"LNT-{rng.randint(1000, 1999)}")
            ask = _fill(rng.choice(("file a ticket for {x} stp", "open an issue for {x}, P1", "crée un ticket pour {x}")), rng, x=sym[0])
            query = f"Which ticket key did the tracker give the issue the agent filed about {sym[0]}?"

            def carrier_step() -> Step:
                out = (f"Created {value}: {sym[0].capitalize()}\nurl: https://tracker.lanternegame.ca/browse/{value}\n"
                       f"status: open   priority: P1   assignee: etienne\n\nopen issues now:\n" + tracker_list(rng, self.budget()))
                return "tracker", {"action": "create", "title": sym[0].capitalize(), "priority": "P1", "labels": ["bug"]}, out, ""
            req = "tracker"
        elif family == "manifest":
            value = self.draw(lambda: str(rng.randint(10 ** 18, 10 ** 19 - 1)))
            depot, branch = self.unique("manifest", [(d, b) for d in DEPOTS for b in ("staging", "playtest", "internal")])  # type: ignore[misc]
            ask = _fill(rng.choice(("upload the {d} depot to {b}", "pousse le depot {d} sur {b}", "{d} depot to {b} pls")), rng,
                        b=branch, d=depot)
            query = f"What manifest ID did the {depot} depot upload to {branch} produce?"

            def carrier_step() -> Step:
                return "steamcmd", {"script": f"steam/app_build_{APP_ID}_{depot}.vdf", "branch": branch}, \
                    steam_upload(rng, self.budget(), branch, depot=depot, manifest=value), ""
            req = "upload"
        elif family == "new_uid":
            word = str(self.unique("loot", F_WORDS)).lower()
            path = f"resources/loot/{word}_table.tres"
            self.fresh(path)
            value = self.draw(lambda: _uid(rng))
            ask = _fill(rng.choice(("Ximena added {p}, check it loads", "regarde {p} que Ximena a poussé", "is {p} wired correctly?")), rng, p=path)
            query = f"What uid does the new loot table resource ({word}) have?"

            def carrier_step() -> Step:
                body = _tres(rng, path, self.budget()).split("\n", 1)[1]
                head = f"[gd_resource type=\"Resource\" script_class=\"LootTable\" load_steps=3 format=3 uid=\"{value}\"]"
                return "read_file", {"path": path}, head + "\n" + body, ""
            req = "review"
        else:
            value = self.draw(lambda: "CRASH-" + _hex(rng, 6).upper())
            tester = str(self.unique("tester", TESTERS))
            ask = _fill(rng.choice(("look at the crash ticket from {t}", "le crash que {t} a reporté, regarde", "check {t}'s crash report")), rng, t=tester)
            query = f"Which crash group is linked to the crash {tester} reported?"

            def carrier_step() -> Step:
                out = tracker_show(rng, self.budget())
                out = out.replace("crash groups: ", f"crash groups: {value}, ", 1)
                return "tracker", {"action": "show", "id": out.split(":", 1)[0]}, out, ""
            req = "tracker"

        after = {"tracker_new": "investigate", "manifest": "tracker", "new_uid": "review", "crash_group": "investigate"}[family]

        def post() -> list[Callable[[], Step]]:
            return self.steps_for(after, npost) if npost else []

        def final(at: int, dist: int) -> str:
            say = rng.choice(("Done, it's in the output above.", "There it is.", "OK, that's the one.", "Voilà."))
            if dist <= 8 and rng.random() < 0.7:
                say += " " + rng.choice((f"The id is {value}.", f"For your notes: {value}.", f"It's {value}."))
            return say

        def done(at: int, _later: list[int]) -> None:
            self.facts.append(Fact("identifier", value, at, query))
        return self.tool_ep("identifier", ask, req, pre, carrier_step, post, npost, final, done), []

    # files -----------------------------------------------------------------------------------------------------
    def p_file(self: _Gen) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        kinds = list(FILE_KINDS)
        rng.shuffle(kinds)
        areas = ("combat", "player", "world", "platform", "fx", "core", "enemies", "ui")

        def paths(kind: str, stem: str) -> list[str]:
            snake = _snake(stem)
            return {"cs": [f"scripts/{a}/{stem}.cs" for a in areas], "gd": [f"scenes/{a}/{snake}.gd" for a in areas],
                    "shader": [f"shaders/fx/{snake}.gdshader"], "tres": [f"resources/{a}/{snake}.tres" for a in areas],
                    "test": [f"tests/Lanterne.Tests/{a.capitalize()}/{stem}Tests.cs" for a in areas],
                    "tscn": [f"scenes/{a}/{snake}.tscn" for a in areas]}[kind]
        options: list[tuple[str, str]] = []
        for kind in kinds:  # the first kind of file with a stem not used yet whose path is clear of every value
            options = [(st, pa) for st in FILE_STEMS[kind] if f"file:{st}" not in self.templates
                       for pa in paths(kind, st) if self.clear(pa)]
            if options:
                break
        chosen, path = rng.choice(options)
        self.fresh(path)
        self.templates.add(f"file:{chosen}")
        stem = path.rsplit("/", 1)[-1].split(".")[0]
        words = _snake(stem).replace("_", " ").replace(" tests", "")
        if kind == "test":
            words = f"tests for the {words}"
        elif kind == "shader":
            words = f"{words} shader"
        elif kind in ("tres", "tscn"):
            words = f"{words} {'resource' if kind == 'tres' else 'scene'}"
        ask = _fill(rng.choice(FILE_ASKS), rng, w=words)
        pre, npost = self.extra(2), self.extra(2)
        patchy = rng.random() < 0.3

        def emit() -> None:
            self.user(ask)
            self.go(self.steps_for("review", pre) if pre else [])
            content = read_back(rng, path, rng.randint(1200, 6000))
            if patchy:
                patch = f"*** Begin Patch\n*** Add File: {path}\n" + "\n".join("+" + ln for ln in content.split("\n")) + "\n*** End Patch"
                step: Step = ("apply_patch", {"patch": patch}, f"Success. Updated the following files:\nA {path}", "")
            else:
                step = ("write_file", {"path": path, "content": content}, f"Wrote {len(content.encode()):,} bytes to {path}", "")
            at = len(self.msgs)
            self.run([step], rng.choice((None, f"Creating {path.rsplit('/', 1)[-1]}.", "Writing it.", "New file:")))
            after = [st for _i, st in self.go(self.steps_for(rng.choice(("build", "smoke")), npost) if npost else [])]
            say = rng.choice(("Created.", "Done, new file in place.", "It's written.", "Voilà, c'est créé."))
            if len(self.msgs) - at <= 8 and rng.random() < 0.8:
                say += " " + rng.choice((f"It's at {path}.", f"See {path}.", f"Path: {path}."))
            if after:
                say += " " + self.answer([s[3] for s in after])
            self.say(say)
            self.facts.append(Fact("file", path, at, f"Which file did the agent create for the {words}?"))
        return _Plan(4 + 2 * (pre + npost), emit, label="file"), []

    # errors ----------------------------------------------------------------------------------------------------
    def error_line(self: _Gen, family: str) -> tuple[str, str, str, Callable[[str], Step],
                                                     Callable[[], list[Callable[[], Step]]], str]:
        """(value line, ask, query, carrier step from the value, fix steps, request kind)."""
        rng = self.rng
        level = str(self.unique(f"error-{family}", LEVELS))
        if family == "cs":
            cls = str(self.unique("error-cs", CLASSES))
            ask = self.ask("build", cls=cls)
            file = CLASS_FILE[cls]
            code, msg = rng.choice(CS_ERRORS)
            line = self.draw(lambda: f"{ROOT}/{file}({rng.randint(12, 400)},{rng.randint(5, 60)}): error {code}: " + msg.format(
                T=rng.choice(F_TYPES), M=rng.choice(F_MEMBERS), C=cls, p=rng.choice(F_PROPS)) + f" [{CSPROJ}]")
            return (line, ask, f"What exact compiler error did the build report in {cls}.cs?",
                    lambda v: ("run_build", {"project": "Lanterne.csproj", "configuration": "Debug", "verbosity": "normal"},
                               dotnet_build(rng, self.budget(), [v]), ""),
                    lambda: [lambda: self.s_patch(file), self.s_build], "build")
        if family in ("script", "engine", "shader"):
            gd = rng.choice(GD_FILES)
            if family == "script":
                line = self.draw(lambda: rng.choice((
                    f"SCRIPT ERROR: Invalid get index '{rng.choice(F_PROPS + ('velocity',))}' (on base: '{rng.choice(('Nil', 'Dictionary', 'CharacterBody3D', 'Array'))}').",
                    f"SCRIPT ERROR: Invalid call. Nonexistent function '{rng.choice(F_FUNCS)}' in base '{rng.choice(('Node3D (ferry.gd)', 'Area3D', 'RefCounted', 'Control (hud.gd)'))}'.")))
                extra = f"          at: {rng.choice(('_physics_process', '_process', '_on_body_entered', '_ready'))} (res://{gd}:{rng.randint(5, 220)})"
                query = f"Which script error did the headless run of {level.rsplit('/', 1)[-1]} print?"
            elif family == "engine":
                line = self.draw(lambda: rng.choice((
                    f"ERROR: Failed loading resource: res://art/enemies/{rng.choice(F_ENEMIES).lower()}_{rng.choice(('idle', 'attack', 'death', 'walk'))}.png. Make sure resources have been imported by opening the project in the editor at least once.",
                    f"ERROR: Node not found: \"World/Spawners/{rng.choice(F_ENEMIES)}Spawner\" (relative to \"/root/Main\").")))
                extra = "   at: " + (ENGINE_AT[0] if "loading" in line else ENGINE_AT[1])
                query = f"Which engine error did the headless run of {level.rsplit('/', 1)[-1]} print?"
            else:
                line = self.draw(lambda: f"SHADER ERROR: Unknown identifier in expression: '{rng.choice(F_SHADER_IDS)}'.")
                ident = line.split("'")[1]
                shader, ln = str(self.unique("error-shader", SHADERS)), rng.randint(12, 60)
                listing = [f"{n} | {rng.choice(('', 'uniform float wave_speed = 1.0;', 'ALBEDO = c.rgb;', 'vec4 c = texture(noise_tex, UV);', 'ALPHA = c.a;'))}"
                           for n in range(ln - 6, ln)]
                extra = "\n".join(["--Main Shader--"] + listing + [f"E {ln}-> \tfloat m = texture(noise_tex, UV).r * {ident};"])
                query = f"Which shader error did the prewarm run report for {shader.rsplit('/', 1)[-1]}?"
                return (line, _fill(rng.choice(("run the shader prewarm scene", "lance le prewarm des shaders", "shader prewarm headless pls")), rng),
                        query, lambda v: ("godot_headless", {"args": ["--headless", "--path", ".", "res://tools/shader_prewarm.tscn", "--quit-after", "300"]},
                                          godot_run(rng, self.budget(), "tools/shader_prewarm.tscn",
                                                    [extra + "\n" + v + f"\n          at: (null) (res://{shader}:{ln})\nERROR: Shader compilation failed."]), ""),
                        lambda: [lambda: self.s_patch(rng.choice(GD_FILES)), lambda: self.s_godot("run")], "smoke")
            return (line, self.ask("smoke", level), query,
                    lambda v: ("godot_headless", {"args": ["--headless", "--path", ".", f"res://{level}", "--quit-after", "1200"]},
                               godot_run(rng, self.budget(), level, [v + "\n" + extra]), ""),
                    lambda: [lambda: self.s_patch(gd), lambda: self.s_godot("run")], "smoke")
        if family == "steam":
            depot = str(self.unique("error-depot", tuple(DEPOTS)))
            line = self.draw(lambda: f"ERROR! Failed to build depot {DEPOTS[depot]}: content root '{ROOT}/build/{rng.choice(F_WORDS).lower()}_rc{rng.randint(2, 40)}' not found")
            branch = rng.choice(("staging", "playtest", "internal"))
            return (line, self.ask("upload"), f"What error did steamcmd print when the {depot} depot upload failed?",
                    lambda v: ("steamcmd", {"script": f"steam/app_build_{APP_ID}_{depot}.vdf", "branch": branch},
                               steam_upload(rng, self.budget(), branch, depot=depot, fail=v), ""),
                    lambda: [lambda: self.s_godot("export"), lambda: self.s_steam(branch)], "upload")
        area, stem = rng.choice(("Combat", "Save", "World", "Player")), str(self.unique("tests", F_FILE_STEMS))
        exp = rng.randint(1, 12)
        line = self.draw(lambda: f"FAIL Lanterne.Tests.{area}.{stem}Tests.{rng.choice(F_WORDS)}_{rng.choice(F_VERBS)}_{rng.choice(F_CONDS)}: "
                                 f"expected {exp} but was {exp + rng.randint(1, 5)}")
        fq, _, rest = line[5:].partition(": ")
        return (line, self.ask("tests"), f"Which assertion failure did the C# test run report for the {stem} tests?",
                lambda v: ("run_tests", {"runner": "dotnet test", "project": "tests/Lanterne.Tests", "filter": f"FullyQualifiedName~{area}"},
                           nunit_run(rng, self.budget(), [(fq, str(exp), rest.rsplit(" ", 1)[-1])],
                                     ["", "== tools/run_tests.sh: 1 failing ==", v]), ""),
                lambda: [lambda: self.s_patch(rng.choice(CS_FILES)), lambda: self.s_tests("nunit")], "tests")

    def p_error(self: _Gen, family: str, resolved: bool) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        value, ask, query, carrier, fix, req = self.error_line(family)
        pre = self.extra(2)
        npost = 2 + self.extra(1) if resolved else self.extra(1)

        def post() -> list[Callable[[], Step]]:
            if not resolved:
                return self.steps_for("review", npost) if npost else []
            return [self.s_read] * (npost - 2) + fix()

        def final(at: int, dist: int) -> str:
            if resolved and family == "steam":
                say = rng.choice(("Re-exported into the folder the depot script expects and re-ran the upload: it went through.",
                                  "The content root was missing; after a fresh export the upload succeeds."))
            elif resolved:
                say = rng.choice(("Fixed: the rerun is clean.", "That error is gone after the patch; rerun is clean.",
                                  "Patched and re-ran, it passes now.", "C'est réglé, the second run no longer shows it."))
            else:
                say = rng.choice(("That's a real error. I haven't touched it; fix it now or park it?",
                                  "It fails, see the error above. Want me to dig in, or is it for later?",
                                  "Ça plante. I left it as is for now, tell me if you want it fixed today."))
            if dist <= 8 and rng.random() < 0.5:
                say += f"\n\n```\n{value}\n```"
            return say

        def done(at: int, later: list[int]) -> None:
            self.facts.append(Fact("error", value, at, query, resolved=later[-1] if resolved else None))
        return self.tool_ep("error", ask, req, pre, lambda: carrier(value), post, npost, final, done), []

    # findings --------------------------------------------------------------------------------------------------
    def p_finding(self: _Gen, family: str) -> tuple[_Plan, list[tuple[_Plan, int]]]:
        rng = self.rng
        level = str(self.unique(f"finding-{family}", LEVELS))
        name = level.rsplit("/", 1)[-1][:-5]
        device = rng.choice(("steamdeck", "deck_oled", "switch_devkit"))
        scene_args = {"scene": f"res://{level}", "device": device, "frames": rng.choice((600, 1200, 3000))}
        if family == "frame":
            value = self.draw(lambda: f"{rng.uniform(26, 58):.3f} ms")
            ask = self.ask("profile_frames", level)
            device = self.focus["device"]
            scene_args["device"] = device
            query = f"How long did the worst spike frame take in the {name} profile on the {device}?"
            line = f"spike: frame #{rng.randint(100, 3000)} took {value} ({rng.choice(('shader compile', 'GC pause', 'nav rebake', 'streaming stall'))}), {rng.randint(2, 5)}x the average"

            def carrier() -> Step:
                return "profiler", dict(scene_args, mode="frames"), profile_frames(rng, self.budget(), level, device, [line]), ""
            point = ("That spike line is the culprit; everything else in the table is under budget.",
                     "The spike near the end is the one that hurts, the rest is noise.", "That one's the culprit.")
        elif family == "draw":
            value = self.draw(lambda: f"{rng.randint(1550, 3999)} draw calls")
            d = int(value.split()[0])
            query = f"How many draw calls did the render profile of {name} report?"
            ask = self.ask("profile_render", level)
            device = scene_args["device"] = self.focus["device"]

            def carrier() -> Step:
                return "profiler", dict(scene_args, mode="render"), profile_render(rng, self.budget(), level, device, d), ""
            point = ("The first line of the render stats is the problem.", "Look at the total at the top, that's way past what we want.",
                     "That total is the culprit; the props under World/Props account for most of it.")
        elif family == "vram":
            value = self.draw(lambda: f"{rng.uniform(1.6, 3.8):.2f} GiB")
            query = f"What VRAM peak did the memory report show for {name}?"
            ask = self.ask("profile_memory", level)
            device = scene_args["device"] = self.focus["device"]
            line = f"  VRAM peak ................ {value} (budget 1.5 GB on {device})"

            def carrier() -> Step:
                return "profiler", dict(scene_args, mode="memory"), profile_memory(rng, self.budget(), level, device, [line]), ""
            point = ("The VRAM peak line is what worries me.", "That peak is over budget; textures again.", "See the peak line: that's the issue.")
        elif family == "test":
            area, stem = rng.choice(("Combat", "Save", "World", "Player")), str(self.unique("tests", F_FILE_STEMS))
            value = self.draw(lambda: f"{rng.choice(F_WORDS)}_{rng.choice(F_VERBS)}_{rng.choice(F_CONDS)}")
            query = f"Which of the {stem} tests failed in the {area.lower()} test run?"
            ask = self.ask("tests")
            exp = rng.randint(0, 9)

            def carrier() -> Step:
                return "run_tests", {"runner": "dotnet test", "project": "tests/Lanterne.Tests", "filter": f"FullyQualifiedName~{area}"}, \
                    nunit_run(rng, self.budget(), [(f"Lanterne.Tests.{area}.{stem}Tests.{value}", str(exp), str(exp + 1))]), ""
            point = ("One failure, the new test; the rest pass.", "Only that one fails, off by one.", "That failing one is the culprit.")
        elif family == "build_id":
            value = self.draw(lambda: f"BuildID {rng.randint(16000000, 16999999)}")
            bid = int(value.split()[1])
            depot, branch = self.unique("build_id", [(d, b) for d in DEPOTS for b in ("staging", "playtest", "internal")])  # type: ignore[misc]
            query = f"What build ID did Steam assign to the {depot} depot upload to {branch}?"
            ask = _fill(rng.choice(("push the {d} build to {b}", "upload {d} sur {b} stp", "new {d} build on {b} for the testers")),
                        rng, b=branch, d=depot)

            def carrier() -> Step:
                return "steamcmd", {"script": f"steam/app_build_{APP_ID}_{depot}.vdf", "branch": branch}, \
                    steam_upload(rng, self.budget(), branch, bid, depot), ""
            point = ("It's live; the build ID is at the end of the log.", "Upload done, the ID is in the last lines.", "Done, set live.")
        else:
            value = self.draw(lambda: f"{rng.randint(1000, 9999)} orphan nodes")
            o = int(value.split()[0])
            query = f"How many orphan nodes did the leak check count in {name}?"
            ask = self.ask("smoke", level)

            def carrier() -> Step:
                return "godot_headless", {"args": ["--headless", "--path", ".", f"res://{level}", "--quit-after", "3600"]}, \
                    godot_run(rng, self.budget(), level, leak=o), ""
            point = ("Look at the leak line at the end, that's way over budget.", "The leak check at the bottom is the problem.",
                     "That leak count is the culprit; something skips QueueFree on room exit.")
        pre, npost = self.extra(2), self.extra(2)
        req, after = {"frame": ("profile_frames", "review"), "draw": ("profile_render", "review"), "vram": ("profile_memory", "profile"),
                      "test": ("build", "investigate"), "build_id": ("upload", "tracker"),
                      "orphans": ("smoke", "investigate")}[family]

        def post() -> list[Callable[[], Step]]:
            return self.steps_for(after, npost) if npost else []

        def final(at: int, dist: int) -> str:
            say = rng.choice(point)
            if dist <= 8 and rng.random() < 0.5:
                say += " " + rng.choice((f"({value})", f"We're at {value}.", f"Number: {value}."))
            return say

        def done(at: int, _later: list[int]) -> None:
            self.facts.append(Fact("finding", value, at, query))
        return self.tool_ep("finding", ask, req, pre, carrier, post, npost, final, done), []

    # pastes ----------------------------------------------------------------------------------------------------
    def p_paste(self: _Gen, kind: str) -> _Plan:
        rng = self.rng
        doc = PASTES[kind](rng)
        intro, outro = _typo(rng.choice(PASTE_INTROS[kind]), rng), rng.choice(PASTE_OUTROS)
        text = intro + "\n\n" + doc + ("\n\n" + outro if outro else "")
        k = self.extra(1) if kind in ("discord", "email") else 0

        def emit() -> None:
            i = self.user(text)
            self.pasted.append((i, doc))
            gists = []
            gists += [st[3] for _i, st in self.go(self.steps_for("tracker", k) if k else [])]
            say = " ".join([rng.choice(ACKS["paste"]), rng.choice(PASTE_REPLIES[kind])] + ([self.answer(gists)] if gists else [])
                           + [rng.choice(("", "", "Tell me what you want to keep.", "Your call on all of it.", "I won't act on it unless you say so."))])
            self.say(say.strip())
        return _Plan(2 + 2 * k, emit, label="paste")


# --- the whole session -----------------------------------------------------------------------------------------

SYSTEM = (
    "You are a coding agent pairing with a solo indie developer on LANTERNE, a 2.5D action-platformer made with "
    f"Godot 4.2 .NET. The repository is at {ROOT}: gameplay in C# (scripts/, Lanterne.csproj, net8.0), UI, fx and "
    "editor tools in GDScript (scenes/, tools/), tests in tests/Lanterne.Tests (NUnit) and res://test (GdUnit4). "
    f"Targets: Steam (AppID {APP_ID}; depots {DEPOTS['windows']} Windows, {DEPOTS['linux']} Linux, {DEPOTS['deck']} Deck), "
    "the Steam Deck as a first-class platform, and a Switch port later.\n\n"
    "Tools: read_file(path), write_file(path, content), apply_patch(patch), grep(pattern, path), "
    "run_build(project, configuration, verbosity) for dotnet build, run_tests(runner, ...) for dotnet test or GdUnit4, "
    "godot_headless(args) for headless runs, imports and exports, profiler(scene, device, mode, frames) for frame, render "
    "and memory captures on desktop, Steam Deck or the Switch devkit, tracker(action, ...) for the issue tracker, and "
    "steamcmd(script, branch) for depot uploads.\n\n"
    "Work in small steps, run the build after code changes, and report what the tools said in your own words. Never "
    "upload to the default branch. The developer writes in English and French (Québec), sometimes Spanish; answer "
    "in English unless asked otherwise."
)


class _Writer(_Filler, _Planted, _Gen):
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
        families = (rng.sample(NEAR * 3, each - each // 3) + rng.sample(LOOSE * 3, each // 3))
        rng.shuffle(families)
        far_ok = [i for i in corrections if xs[i] * span >= 160]
        far = set(far_ok[1::2]) if len(far_ok) > 1 else set(far_ok)
        error_kinds = (list(ERROR_KINDS) * 3)[:each]
        finding_kinds = (list(FINDING_KINDS) * 3)[:each]
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
        for j in range(max(1, min(5, n // 80)) + max(0, (n - 400) // 200)):
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
        raise ValueError(f"a game-dev session needs at least {SMALLEST} messages, not {messages}")
    for damp in range(4):
        try:
            return _Writer(seed, messages, damp).build()
        except _TooLong:
            continue
    raise RuntimeError(f"{messages} messages cannot hold the planted episodes")  # pragma: no cover

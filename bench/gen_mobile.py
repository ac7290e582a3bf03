"""A mobile studio's long coding-agent session with planted facts, for the fidelity bench.

    from gen_mobile import make_session
    session = make_session(seed=1, messages=400)    # about 600k characters, ~150k tokens
    session = make_session(seed=1, messages=3000)   # about 4.5M characters

Who talks: Rafael, developer-founder of a two-person studio in São Paulo that builds "Pitanga", a React Native
app with native modules (Swift on iOS, Kotlin on Android). He writes English, Brazilian Portuguese or both in one
line, mostly short and from his phone ("vlw", "blz", "pfv", "tmj"), sometimes long and careful. The agent answers
and calls ``shell``, ``read``, ``write``, ``patch``, ``search``, ``browser`` (fetches a URL), ``simulator`` (runs
the app in the iOS Simulator or an Android emulator and returns its logs) and ``store_api`` (App Store Connect and
Google Play Console). Every call is answered by a ``tool`` message carrying the tool's ``name``. Results are long:
xcodebuild and Gradle logs, Metro, Jest, tsc and Detox runs, symbolicated crash reports, tombstones, ANR traces and
logcat, Crashlytics tables, App Store Connect and Play Console JSON, pod install, fastlane lanes, Info.plist,
AndroidManifest.xml, build.gradle and package.json read with line numbers, git log and git diff. Most of the session
is routine work: one-off requests, chit-chat, build-fix-rebuild loops.

What he pastes (``Session.pasted``, the text exactly as it sits in his message): Apple's App Review rejection, the
designer's Figma handoff notes, a QA tester's bug report, a user's 1-star review, the backend dev's Slack message, a
Sentry alert email. Each speaks with its author's own imperatives ("you must ...", "please make sure ..."); none of
them is his rule. Once (twice from 1000 messages on) he pastes the studio's release checklist or code conventions and
adopts it ("this is how we ship from now on"): that document is his, it is not in ``pasted``, and one rule in the
middle of it is a planted instruction.

Facts (``Session.facts``), ``per_kind(messages)`` of each kind: 6 at 400 messages, 12 at 3000, 1 at 60.

- instruction: a standing rule of his, said casually, indirectly, reason first, trailing an unrelated request, in
  Portuguese, as a fact about himself, or inside the adopted document; the value is its distinctive piece.
- correction: a value he gave earlier (``stale``, said by him at ``stale_index``) corrected loosely, often far
  away and often as a near miss ("4815 not 4185", "the other keystore").
- decision: a choice he makes; some revise an earlier choice of his, which is then the ``stale``.
- error: a whole line of a tool's output (Swift or Kotlin compiler error, Gradle "What went wrong" line, Jest or
  Detox FAIL line, an uncaught exception, a Metro resolution error, ...). Some are ``resolved`` by a later run of
  the same command, with the same tool and arguments, whose output no longer has the line.
- file: the path of a file the agent writes or patches, in that message's only tool call.
- identifier: a build number, ticket, TestFlight group, commit, Crashlytics issue or App Store submission id, said
  by him or printed by a tool.
- finding: a piece of one tool-output line the work hangs on (the frame a crash blames, a value in a config file,
  the slowest screen of a trace, a guideline number, a crash-free rate).
- plan: a distinctive step of a plan he lays out, numbered, in bullets or in prose, in English or Portuguese.

Planted values come from a vocabulary the filler never draws from, and every piece of filler is checked against
them, so a value found in a compacted prompt was kept, not re-invented. Facts sit between 4% and 85% of the
session; the first instructions come early. Same seed and size, same bytes.
"""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Callable, Sequence
from functools import partial
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "read", "write", "patch", "search", "browser", "simulator", "store_api")
PER_MESSAGE = 1500  # characters a message on average: 400 messages ~ 600k, 3000 ~ 4.5M
OUT_MIN, OUT_MAX = 420, 14_000  # bounds of one long tool output
MIN_MESSAGES = 60
ROOT = "/Users/rafael/dev/pitanga"
BUNDLE = "br.com.pitanga.app"
KT_ROOT = "android/app/src/main/java/br/com/pitanga"


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linearly in between, 12 from then on."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return min(12, round(6 + 6 * (messages - 400) / 2600))


T = TypeVar("T")


def _pick(rng: random.Random, items: Sequence[T]) -> T:
    return items[rng.randrange(len(items))]


def _hex(rng: random.Random, digits: int) -> str:
    return f"{rng.getrandbits(4 * digits):0{digits}x}"


def _uuid(rng: random.Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(8, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


class _Ticker:
    """A wall clock that only moves forward, for the lines of one log."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.ms = rng, rng.randint(8 * 3600, 22 * 3600) * 1000

    def __call__(self, step: int = 900) -> str:
        self.ms += self.rng.randint(1, step)
        return self.at(self.ms)

    def at(self, ms: int) -> str:
        s = ms // 1000
        return f"{s // 3600 % 24:02d}:{s // 60 % 60:02d}:{s % 60:02d}.{ms % 1000:03d}"


def _numbered(lines: list[str], start: int = 1) -> str:
    """A file as the read tool prints it: right-aligned line numbers, a tab, the line."""
    return "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(lines, start))


class _Dirty(Exception):
    """A piece of filler drew a planted value; it is drawn again."""


@dataclass
class _Builder:
    """The conversation as it grows, its character budget, and the values filler must never draw."""

    rng: random.Random
    n: int
    forbidden: tuple[str, ...] = ()
    msgs: list[Message] = field(default_factory=list)
    pasted: list[tuple[int, str]] = field(default_factory=list)
    chars: int = 0
    calls_made: int = 0
    used: set[str] = field(default_factory=set)  # tools called so far
    asked: set[str] = field(default_factory=set)  # the quick questions he already asked

    def add(self, message: Message) -> int:
        self.msgs.append(message)
        self.chars += len(text_of(message))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self.add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self.add({"role": "assistant", "content": text})

    def call(self, name: str, args: dict[str, Any], text: str = "") -> tuple[int, str]:
        """One assistant message with one tool call; (its index, the call id)."""
        index, ids = self.calls([(name, args)], text)
        return index, ids[0]

    def calls(self, pairs: list[tuple[str, dict[str, Any]]], text: str = "") -> tuple[int, list[str]]:
        ids, tool_calls = [], []
        for name, args in pairs:
            self.calls_made += 1
            self.used.add(name)
            cid = f"call_{self.calls_made:05d}{self.rng.getrandbits(40):010x}"
            ids.append(cid)
            tool_calls.append({"id": cid, "type": "function",
                               "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
        return self.add({"role": "assistant", "content": text, "tool_calls": tool_calls}), ids

    def result(self, cid: str, name: str, content: str) -> int:
        return self.add({"role": "tool", "tool_call_id": cid, "name": name, "content": content})

    def want(self, share: float = 1.0) -> int:
        """How long the next long tool output should be to keep the session on its character budget."""
        deficit = PER_MESSAGE * (len(self.msgs) + 1) - self.chars
        size = int(deficit * self.rng.uniform(0.55, 1.45) * share)
        return max(int(OUT_MIN * share), min(int(OUT_MAX * share), size))

    def clean(self, text: str) -> bool:
        return not any(v in text for v in self.forbidden)

    def draw(self, make: Callable[[], str]) -> str:
        """``make()`` until it holds no planted value."""
        for _ in range(60):
            text = make()
            if self.clean(text):
                return text
        raise _Dirty(text[:200])


# --- the filler's own vocabulary (planted values are drawn from elsewhere) ---------------------------------------
SWIFT_FILES = ("Bridges/HapticsModule.swift", "Bridges/KeychainModule.swift", "Bridges/BiometricsModule.swift",
               "Bridges/ShareSheetModule.swift", "Bridges/AppInfoModule.swift", "Views/GradientView.swift",
               "Extensions/UIColor+Hex.swift", "Notifications/PushTokenStore.swift", "Bridges/ImageCacheModule.swift",
               "Support/AnalyticsBridge.swift")
KT_FILES = ("MainActivity.kt", "MainApplication.kt", "bridges/HapticsModule.kt", "bridges/SecurePrefsModule.kt",
            "bridges/BiometricsModule.kt", "bridges/ShareModule.kt", "bridges/AppInfoModule.kt",
            "push/PushTokenService.kt", "bridges/PitangaPackage.kt")
TS_FILES = ("src/screens/HomeScreen.tsx", "src/screens/ProductScreen.tsx", "src/screens/SearchScreen.tsx",
            "src/screens/ProfileScreen.tsx", "src/screens/SettingsScreen.tsx", "src/screens/LoginScreen.tsx",
            "src/components/PriceTag.tsx", "src/components/Avatar.tsx", "src/components/EmptyState.tsx",
            "src/components/QuantityStepper.tsx", "src/hooks/useDebounce.ts", "src/api/client.ts",
            "src/api/products.ts", "src/store/session.ts", "src/utils/format.ts", "src/navigation/RootStack.tsx",
            "src/theme/colors.ts", "src/hooks/useAppState.ts")
SCREENS = ("HomeScreen", "ProductScreen", "SearchScreen", "ProfileScreen", "SettingsScreen", "LoginScreen",
           "CartScreen", "OrdersScreen")
JEST_SUITES = ("src/utils/__tests__/format.test.ts", "src/hooks/__tests__/useDebounce.test.ts",
               "src/api/__tests__/client.test.ts", "src/store/__tests__/session.test.ts",
               "src/components/__tests__/PriceTag.test.tsx", "src/components/__tests__/Avatar.test.tsx",
               "src/components/__tests__/EmptyState.test.tsx", "src/screens/__tests__/HomeScreen.test.tsx",
               "src/screens/__tests__/LoginScreen.test.tsx", "src/screens/__tests__/SearchScreen.test.tsx",
               "src/screens/__tests__/ProductScreen.test.tsx", "src/api/__tests__/products.test.ts",
               "src/components/__tests__/QuantityStepper.test.tsx", "src/navigation/__tests__/RootStack.test.tsx",
               "src/hooks/__tests__/useAppState.test.ts", "src/utils/__tests__/money.test.ts")
E2E_SUITES = ("e2e/login.e2e.ts", "e2e/search.e2e.ts", "e2e/profile.e2e.ts", "e2e/productDetail.e2e.ts",
              "e2e/settings.e2e.ts")
PODS = (("React-Core", "0.73.6"), ("RNScreens", "3.29.0"), ("RNReanimated", "3.6.2"), ("RNGestureHandler", "2.14.1"),
        ("RNSVG", "14.1.0"), ("Firebase", "10.22.0"), ("FirebaseCrashlytics", "10.22.0"),
        ("GoogleUtilities", "7.13.0"), ("hermes-engine", "0.73.6"), ("Yoga", "1.14.0"),
        ("RCT-Folly", "2022.05.16.00"), ("SocketRocket", "0.6.1"), ("glog", "0.3.5"), ("fmt", "6.2.1"),
        ("boost", "1.83.0"), ("DoubleConversion", "1.1.6"), ("react-native-safe-area-context", "4.8.2"),
        ("RNDeviceInfo", "10.12.0"), ("RNPermissions", "4.1.1"), ("PromisesObjC", "2.4.0"),
        ("GoogleDataTransport", "9.3.0"), ("FirebaseInstallations", "10.22.0"), ("FirebaseSessions", "10.22.0"),
        ("React-RCTImage", "0.73.6"), ("React-hermes", "0.73.6"), ("ReactCommon", "0.73.6"))
POD_SOURCES = ("RCTImageLoader.mm", "REANodesManager.mm", "RNSScreen.mm", "FIRCLSReportManager.m",
               "GULAppDelegateSwizzler.m", "YGNode.cpp", "String.cpp", "RNSScreenStack.mm", "RNGestureHandler.m",
               "RNSVGRenderable.mm", "RCTSurfacePresenter.mm", "RNDeviceInfo.m", "SRWebSocket.m", "hermes.cpp",
               "RCTBridge.mm", "RCTTextView.mm", "FIRInstallations.m", "Conv.cpp", "RNPermissionsModule.mm")
GRADLE_MODULES = ("app", "react-native-screens", "react-native-reanimated", "react-native-gesture-handler",
                  "react-native-svg", "react-native-safe-area-context", "react-native-firebase_app",
                  "react-native-firebase_crashlytics", "react-native-device-info", "react-native-permissions",
                  "react-native-community_netinfo")
GRADLE_TASKS = ("preBuild", "generate{v}BuildConfig", "compile{v}Kotlin", "compile{v}JavaWithJavac",
                "merge{v}Resources", "process{v}Manifest", "merge{v}NativeLibs", "strip{v}DebugSymbols",
                "package{v}", "merge{v}Assets", "dexBuilder{v}", "mergeExtDex{v}", "check{v}AarMetadata",
                "javaPreCompile{v}", "bundleLibCompileToJar{v}", "write{v}AarMetadata",
                "compile{v}LibraryResources", "parse{v}LocalResources", "generate{v}RFile", "extractDeepLinks{v}",
                "process{v}JavaRes", "merge{v}JniLibFolders", "validateSigning{v}", "configureCMake{v}[arm64-v8a]",
                "buildCMake{v}[arm64-v8a]", "generateCodegenArtifactsFromSchema")
DEPRECATIONS = ("'setter for systemUiVisibility: Int' is deprecated. Deprecated in Java",
                "'getter for defaultDisplay: Display!' is deprecated. Deprecated in Java",
                "'onCatalystInstanceDestroy(): Unit' is deprecated. Deprecated in Java",
                "Parameter 'promise' is never used", "Variable 'density' is never used",
                "'getColor(Int): Int' is deprecated. Deprecated in Java")
IOS_DEVICES = ("iPhone 15", "iPhone 15 Pro", "iPhone SE (3rd generation)", "iPad (10th generation)", "iPhone 14")
AVDS = ("Pixel_7_API_34", "Pixel_4_API_30", "Medium_Phone_API_33", "Small_Phone_API_29")
LOG_TAGS = ("ReactNativeJS", "ReactNative", "unknown:ReactNative", "OpenGLRenderer", "Choreographer", "FirebaseApp",
            "FirebaseCrashlytics", "TrafficStats", "chromium", "SurfaceFlinger", "ActivityTaskManager")
JS_LOGS = ("'[api] GET /v1/products?page=2 200 in 312ms'", "'[nav] focus HomeScreen'", "'[nav] focus ProductScreen'",
           "'[session] token refreshed'", "'[api] GET /v1/me 200 in 188ms'", "'[push] permission status: granted'",
           "'[img] cache hit 42/50'", "'[search] debounce fired for \"banana\"'", "'[api] POST /v1/events 204'",
           "'Running \"Pitanga\" with {\"rootTag\":11,\"initialProps\":{}}'", "'[perf] HomeScreen TTI 870ms'",
           "'[nav] focus SettingsScreen'", "'[api] GET /v1/stores/nearby 200 in 540ms'")


def _grow(rng: random.Random, size: int, head: list[str], body: Callable[[], str], foot: list[str],
          mark: bool = False) -> str:
    """Header, body lines until about ``size`` characters, footer; with ``mark``, a NUL line where planted lines go
    (in the last third of the body)."""
    lines = list(head)
    budget = size - sum(len(x) + 1 for x in head) - sum(len(x) + 1 for x in foot)
    grown: list[str] = []
    while budget > 0 or len(grown) < 3:
        line = body()
        grown.append(line)
        budget -= len(line) + 1
    if mark:
        grown.insert(rng.randint(len(grown) * 2 // 3, len(grown)), "\x00")
    return "\n".join(lines + grown + foot)


def xcode_log(rng: random.Random, size: int, scheme: str = "Pitanga", config: str = "Debug",
              fail: str | None = None, mark: bool = False) -> str:
    """An xcodebuild log; ``fail`` is the failing build command named at the end."""
    sdk = "iphonesimulator" if config == "Debug" else "iphoneos"
    head = ["Command line invocation:",
            f"    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild -workspace Pitanga.xcworkspace "
            f"-scheme {scheme} -configuration {config} -sdk {sdk} build", "",
            "User defaults from command line:", "    IDEPackageSupportUseBuiltinSCM = YES", "",
            "Prepare packages", "", "ComputeTargetDependencyGraph", "note: Building targets in dependency order",
            f"note: Target dependency graph ({rng.randint(52, 71)} targets)", ""]
    objs = f"{ROOT}/ios/build/Build/Intermediates.noindex/Pods.build/{config}-{sdk}"

    def body() -> str:
        r = rng.random()
        pod = _pick(rng, PODS)[0]
        if r < 0.3:
            src = _pick(rng, POD_SOURCES)
            return (f"CompileC {objs}/{pod}.build/Objects-normal/arm64/{src.split('.')[0]}.o {ROOT}/ios/Pods/{pod}/{src} "
                    f"normal arm64 objective-c++ com.apple.compilers.llvm.clang.1_0.compiler (in target '{pod}' from project 'Pods')\n"
                    f"    cd {ROOT}/ios/Pods")
        if r < 0.5:
            f = _pick(rng, SWIFT_FILES)
            return (f"SwiftCompile normal arm64 {ROOT}/ios/Pitanga/{f} (in target 'Pitanga' from project 'Pitanga')\n"
                    f"    cd {ROOT}/ios\n    builtin-swiftTaskExecution -- /Applications/Xcode.app/Contents/Developer/"
                    f"Toolchains/XcodeDefault.xctoolchain/usr/bin/swift-frontend -frontend -c -primary-file "
                    f"{ROOT}/ios/Pitanga/{f} -emit-module-path ... -target arm64-apple-ios13.4-simulator")
        if r < 0.62:
            src = _pick(rng, POD_SOURCES)
            return (f"{ROOT}/ios/Pods/{pod}/{src}:{rng.randint(20, 900)}:{rng.randint(3, 60)}: warning: "
                    f"'{_pick(rng, ('keyWindow', 'openURL:', 'statusBarFrame', 'UIApplicationExitsOnSuspend'))}' is deprecated: "
                    f"first deprecated in iOS {rng.choice(('13.0', '10.0', '9.0'))} [-Wdeprecated-declarations]")
        if r < 0.75:
            return (f"Ld {ROOT}/ios/build/Build/Products/{config}-{sdk}/{pod}/lib{pod}.a normal "
                    f"(in target '{pod}' from project 'Pods')\n    cd {ROOT}/ios/Pods")
        if r < 0.85:
            return (f"ProcessInfoPlistFile {ROOT}/ios/build/Build/Products/{config}-{sdk}/{pod}/{pod}.bundle/Info.plist "
                    f"{ROOT}/ios/Pods/Target\\ Support\\ Files/{pod}/ResourceBundle-{pod}-Info.plist "
                    f"(in target '{pod}' from project 'Pods')")
        if r < 0.93:
            return (f"PhaseScriptExecution [CP-User]\\ [Hermes]\\ Replace\\ Hermes\\ for\\ the\\ right\\ configuration,\\ if\\ needed "
                    f"{objs}/hermes-engine.build/Script-{_hex(rng, 24).upper()}.sh (in target 'hermes-engine' from project 'Pods')")
        return f"CodeSign {ROOT}/ios/build/Build/Products/{config}-{sdk}/{pod}/{pod}.framework (in target '{pod}' from project 'Pods')"

    if fail is None:
        foot = ["", f"** BUILD SUCCEEDED ** [{rng.uniform(38, 260):.3f} sec]"]
    else:
        foot = ["", "** BUILD FAILED **", "", "", "The following build commands failed:", f"\t{fail}", "(1 failure)"]
    return _grow(rng, size, head, body, foot, mark)


def gradle_log(rng: random.Random, size: int, variant: str = "Debug", fail: list[str] | None = None,
               mark: bool = False) -> str:
    """A Gradle build; ``fail`` is what follows "* What went wrong:"."""
    head = ["> Configure project :app", f"Reading env from: .env.{'staging' if variant == 'Debug' else 'production'}",
            "> Configure project :react-native-reanimated", "Android gradle plugin: 8.1.1", "Gradle: 8.3", ""]

    def body() -> str:
        r = rng.random()
        module = _pick(rng, GRADLE_MODULES)
        task = _pick(rng, GRADLE_TASKS).format(v=variant)
        if r < 0.72:
            state = rng.choice(("", "", "", " UP-TO-DATE", " UP-TO-DATE", " NO-SOURCE", " FROM-CACHE", " SKIPPED"))
            return f"> Task :{module}:{task}{state}"
        if r < 0.86:
            f = _pick(rng, KT_FILES) if module == "app" else "ScreenStack.kt"
            where = f"{ROOT}/{KT_ROOT}/{f}" if module == "app" else f"{ROOT}/node_modules/{module}/android/src/main/java/{f}"
            return f"w: file://{where}:{rng.randint(10, 300)}:{rng.randint(3, 40)} {_pick(rng, DEPRECATIONS)}"
        if r < 0.93:
            return rng.choice(("Note: Some input files use or override a deprecated API.",
                               "Note: Recompile with -Xlint:deprecation for details.",
                               "warning: [options] source value 8 is obsolete and will be removed in a future release",
                               "Note: Some input files use unchecked or unsafe operations."))
        if variant == "Release" and r < 0.97:
            return (f"WARNING: R8: Missing class {_pick(rng, ('org.bouncycastle.jsse.BCSSLParameters', 'org.conscrypt.Conscrypt', 'org.openjsse.javax.net.ssl.SSLParameters'))} "
                    f"(referenced from: void okhttp3.internal.platform.{_pick(rng, ('BouncyCastlePlatform', 'ConscryptPlatform', 'OpenJSSEPlatform'))}.configureTlsExtensions(...))")
        return f"info: [{_clock(rng)}] Daemon will be stopped at the end of the build after running out of JVM memory" if r > 0.995 else f"> Task :{module}:{task}"

    if fail is None:
        n = rng.randint(380, 460)
        foot = ["", f"BUILD SUCCESSFUL in {rng.randint(0, 4)}m {rng.randint(1, 59)}s",
                f"{n} actionable tasks: {rng.randint(20, 90)} executed, {n - 95} up-to-date"]
    else:
        foot = ["", "FAILURE: Build failed with an exception.", "", "* What went wrong:", *fail, "", "* Try:",
                "> Run with --stacktrace option to get the stack trace.",
                "> Run with --info or --debug option to get more log output.",
                "> Run with --scan to get full insights.", "> Get more help at https://help.gradle.org.", "",
                f"BUILD FAILED in {rng.randint(12, 170)}s"]
    return _grow(rng, size, head, body, foot, mark)


JEST_NAMES = ("renders without crashing", "formats BRL prices with two decimals", "debounces the search input",
              "refreshes the token on 401", "shows the empty state", "matches snapshot", "handles offline mode",
              "clamps the quantity between 1 and 99", "navigates to ProductScreen on press", "persists the session")


def jest_log(rng: random.Random, size: int, suites: tuple[str, ...] = JEST_SUITES, fail: str | None = None,
             mark: bool = False) -> str:
    """A Jest run; every suite passes unless ``fail`` names the one that does not (its FAIL line is planted)."""
    head = ["yarn run v1.22.19", "$ jest --ci --silent"]
    order = list(suites)
    rng.shuffle(order)
    state = {"i": 0, "tests": 0}

    def body() -> str:
        i = state["i"]
        state["i"] += 1
        if i < len(order):
            n = rng.randint(3, 14)
            state["tests"] += n
            t = f" ({rng.uniform(5, 14):.3f} s)" if rng.random() < 0.3 else ""
            return f"PASS {order[i]}{t}"
        if rng.random() < 0.5:
            return ("  console.warn\n    Animated: `useNativeDriver` was not specified. This is a required option and must"
                    " be explicitly set to `true` or `false`\n\n      at warn (node_modules/react-native/Libraries/Animated/"
                    f"NativeAnimatedHelper.js:{rng.randint(400, 460)}:13)\n")
        return (f"  console.error\n    Warning: An update to {_pick(rng, SCREENS)} inside a test was not wrapped in act(...).\n\n"
                "    When testing, code that causes React state updates should be wrapped into act(...):\n\n"
                f"      at printWarning (node_modules/react-test-renderer/cjs/react-test-renderer.development.js:{rng.randint(60, 99)}:30)\n")

    total = len(order) + (1 if fail else 0)
    failed = 1 if fail else 0
    snaps, took = rng.randint(6, 19), rng.uniform(11, 49)
    tests = state["tests"] or rng.randint(90, 190)
    foot = ["", f"Test Suites: {failed} failed, {total - failed} passed, {total} total" if fail else
            f"Test Suites: {total} passed, {total} total",
            f"Tests:       {failed + rng.randint(0, 2) if fail else 0} failed, {tests + 60} passed, {tests + 62} total"
            if fail else f"Tests:       {tests + 60} passed, {tests + 60} total",
            f"Snapshots:   {snaps} passed, {snaps} total", f"Time:        {took:.3f} s", "Ran all test suites.",
            "error Command failed with exit code 1." if fail else f"✨  Done in {took + rng.uniform(0.8, 3):.2f}s."]
    return _grow(rng, size, head, body, foot, mark)


def eslint_log(rng: random.Random, size: int) -> str:
    head = ["yarn run v1.22.19", "$ eslint src --ext .ts,.tsx", ""]
    rules = (("'useMemo' is defined but never used", "@typescript-eslint/no-unused-vars"),
             ("React Hook useEffect has a missing dependency: 'load'. Either include it or remove the dependency array",
              "react-hooks/exhaustive-deps"),
             ("Unexpected any. Specify a different type", "@typescript-eslint/no-explicit-any"),
             ("Inline style: { marginTop: 12 }", "react-native/no-inline-styles"),
             ("Do not define components during render", "react/no-unstable-nested-components"),
             ("'navigation' is missing in props validation", "react/prop-types"))

    def body() -> str:
        lines = [f"{ROOT}/{_pick(rng, TS_FILES)}"]
        for _ in range(rng.randint(1, 5)):
            msg, rule = rules[rng.randrange(len(rules))]
            lines.append(f"  {rng.randint(3, 240)}:{rng.randint(2, 40)}  warning  {msg}  {rule}")
        return "\n".join(lines) + "\n"

    n = rng.randint(12, 60)
    return _grow(rng, size, head, body, [f"✖ {n} problems (0 errors, {n} warnings)", "", f"✨  Done in {rng.uniform(6, 19):.2f}s."])


def detox_log(rng: random.Random, size: int, suites: tuple[str, ...] = E2E_SUITES, mark: bool = False,
              failing: str | None = None) -> str:
    tick = _Ticker(rng)
    pid = rng.randint(30000, 69999)
    head = ["yarn run v1.22.19", "$ detox test -c ios.sim.debug --headless",
            f"{tick()} detox[{pid}] B jest --config e2e/jest.config.js"]
    order = list(suites)
    state = {"i": 0}
    cases = ("shows the form", "logs in with valid credentials", "filters by category", "opens the product sheet",
             "toggles notifications", "keeps the cart after relaunch", "scrolls to the end of the list")

    def body() -> str:
        i = state["i"]
        state["i"] += 1
        suite = order[i % len(order)]
        name = suite.split("/")[-1].split(".")[0]
        lines = [f"{tick()} detox[{pid}] i {name}.e2e.ts is assigned to {_pick(rng, IOS_DEVICES)}"]
        lines.append(f"PASS {suite} ({rng.uniform(20, 90):.3f} s)")
        for _ in range(rng.randint(2, 5)):
            lines.append(f"    ✓ {_pick(rng, cases)} ({rng.randint(900, 14000)} ms)")
        return "\n".join(lines)

    k = len(order) + (1 if failing else 0)
    foot = ["", f"Test Suites: {'1 failed, ' if failing else ''}{len(order)} passed, {k} total",
            f"Time:        {rng.uniform(120, 420):.1f} s", "Ran all test suites." if not failing else
            "error Command failed with exit code 1."]
    return _grow(rng, size, head, body, foot, mark)


def pod_log(rng: random.Random, size: int, fail: list[str] | None = None, mark: bool = False) -> str:
    head = ["Auto-linking React Native modules for target `Pitanga`: RNDeviceInfo, RNFBApp, RNFBCrashlytics, RNGestureHandler, "
            "RNPermissions, RNReanimated, RNSVG, RNScreens, react-native-safe-area-context",
            "[Codegen] Generating ./build/generated/ios/React-Codegen.podspec.json",
            "Analyzing dependencies"]
    state = {"phase": 0}

    def body() -> str:
        pod, ver = _pick(rng, PODS)
        state["phase"] += 1
        if state["phase"] % 9 == 0:
            return f"Fetching podspec for `{pod}` from `../node_modules/react-native/third-party-podspecs/{pod}.podspec`"
        if state["phase"] % 13 == 0:
            return "[Hermes] Using release tarball from URL: https://repo1.maven.org/maven2/com/facebook/react/react-native-artifacts/0.73.6/react-native-artifacts-0.73.6-hermes-ios-debug.tar.gz"
        return f"{'Installing' if rng.random() < 0.2 else 'Using'} {pod} ({ver})"

    if fail:
        foot = ["", *fail, "", "You have either:", " * out-of-date source repos which you can update with `pod repo update` "
                "or with `pod install --repo-update`.", " * mistyped the name or version.",
                " * not added the source repo that hosts the Podspec to your Podfile."]
    else:
        foot = ["Generating Pods project", "Integrating client project",
                f"Pod installation complete! There are {rng.randint(68, 75)} dependencies from the Podfile and "
                f"{rng.randint(80, 90)} total pods installed."]
    return _grow(rng, size, head, body, foot, mark)


def fastlane_log(rng: random.Random, size: int, lane: str = "beta", platform: str = "ios", mark: bool = False) -> str:
    tick = _Ticker(rng)
    head = ["[✔] 🚀 ", f"[{tick()[:8]}]: fastlane detected a Gemfile in the current directory",
            f"[{tick()[:8]}]: Driving the lane '{platform} {lane}' 🚀"]
    steps = ("ensure_git_status_clean", "increment_build_number", "match", "gym", "upload_to_testflight",
             "gradle", "upload_to_play_store", "slack", "update_code_signing_settings", "get_version_number")

    def body() -> str:
        t = tick(20000)[:8]
        step = _pick(rng, steps)
        lines = [f"[{t}]: ----------------------------", f"[{t}]: --- Step: {step} ---", f"[{t}]: ----------------------------"]
        for _ in range(rng.randint(1, 4)):
            lines.append(f"[{t}]: " + _pick(rng, ("Successfully loaded Appfile", "Cloning remote git repo...",
                                                    "All required keys, certificates and provisioning profiles are installed 🙌",
                                                    "$ xcodebuild -showBuildSettings -workspace Pitanga.xcworkspace -scheme Pitanga",
                                                    "▸ Archive Succeeded", "Generated plist file with the following values:",
                                                    "Successfully exported and compressed dSYM file",
                                                    "Waiting for App Store Connect to finish processing the new build",
                                                    "Successfully uploaded the new binary to App Store Connect")))
        return "\n".join(lines)

    foot = ["", "+------+------------------------+-------------+", "|           fastlane summary                   |",
            "+------+------------------------+-------------+", "| Step | Action                 | Time (in s) |",
            f"| 1    | gym                    | {rng.randint(180, 600):<11} |",
            f"| 2    | upload_to_testflight   | {rng.randint(60, 300):<11} |", "+------+------------------------+-------------+",
            "", f"[{tick.at(tick.ms + 2_400_000)[:8]}]: fastlane.tools finished successfully 🎉"]
    if mark:
        foot = ["\x00", "", f"[{tick.at(tick.ms + 2_400_000)[:8]}]: fastlane finished with errors", "",
                "[!] Error uploading ipa file, for more information see above"]
    return _grow(rng, size, head, body, foot)


METRO_WARNINGS = ("Require cycle: src/api/client.ts -> src/store/session.ts -> src/api/client.ts",
                  "Sending `onAnimatedValueUpdate` with no listeners registered.",
                  "new NativeEventEmitter() was called with a non-null argument without the required `addListener` method.",
                  "VirtualizedLists should never be nested inside plain ScrollViews with the same orientation")


def metro_log(rng: random.Random, size: int, mark: bool = False) -> str:
    head = ["yarn run v1.22.19", "$ react-native start --reset-cache", "",
            "                Welcome to Metro v0.80.6", "              Fast - Scalable - Integrated", "",
            "info Dev server ready", "", "i - run on iOS", "a - run on Android", "d - open Dev Menu", "r - reload app", ""]

    def body() -> str:
        r = rng.random()
        if r < 0.6:
            return f" LOG  {_pick(rng, JS_LOGS)}"
        if r < 0.85:
            return " WARN  " + _pick(rng, METRO_WARNINGS)
        n = rng.randint(1200, 1500)
        return f" BUNDLE  ./index.js ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓ 100.0% ({n}/{n}), done."

    return _grow(rng, size, head, body, [], mark)


SYS_FRAMES = (("libsystem_kernel.dylib", "__pthread_kill + 8"), ("libsystem_pthread.dylib", "pthread_kill + 268"),
              ("libsystem_c.dylib", "abort + 180"), ("libc++abi.dylib", "abort_message + 132"),
              ("libc++abi.dylib", "demangling_terminate_handler() + 348"), ("libobjc.A.dylib", "_objc_terminate() + 144"),
              ("CoreFoundation", "__exceptionPreprocess + 164"), ("CoreFoundation", "__CFRunLoopRun + 1996"),
              ("CoreFoundation", "CFRunLoopRunSpecific + 608"), ("GraphicsServices", "GSEventRunModal + 164"),
              ("UIKitCore", "-[UIApplication _run] + 888"), ("UIKitCore", "UIApplicationMain + 340"),
              ("libdispatch.dylib", "_dispatch_call_block_and_release + 32"), ("libdispatch.dylib", "_dispatch_client_callout + 20"),
              ("libdispatch.dylib", "_dispatch_main_queue_drain + 984"), ("libsystem_pthread.dylib", "start_wqthread + 8"),
              ("libsystem_kernel.dylib", "mach_msg2_trap + 8"), ("libsystem_kernel.dylib", "__psynch_cvwait + 8"),
              ("hermes", "hermes::vm::Interpreter::interpretFunction<false, false>(hermes::vm::Runtime&, hermes::vm::InterpreterState&) + 1228"),
              ("hermes", "hermes::vm::Runtime::runBytecode(std::__1::shared_ptr<hermes::hbc::BCProvider>&&, hermes::vm::RuntimeModuleFlags, llvh::StringRef, hermes::vm::Handle<hermes::vm::Environment>, hermes::vm::Handle<hermes::vm::HermesValue>) + 1084"),
              ("Pitanga", "facebook::react::ObjCTurboModule::performVoidMethodInvocation(facebook::jsi::Runtime&, char const*, NSInvocation*, NSMutableArray*) + 156"),
              ("Pitanga", "-[RCTModuleMethod invokeWithBridge:module:arguments:] + 388"),
              ("Pitanga", "HapticsModule.impact(_:) + 120"), ("Pitanga", "PushTokenStore.save(_:) + 212"),
              ("Foundation", "__NSThreadPerformPerform + 264"), ("dyld", "start + 2240"))


def _frames(rng: random.Random, k: int) -> list[str]:
    out = []
    for i in range(k):
        lib, sym = SYS_FRAMES[rng.randrange(len(SYS_FRAMES))]
        out.append(f"{i:<3} {lib:<30}\t0x{rng.randint(0x1a0000000, 0x1f0000000):016x} {sym}")
    return out


def ios_crash(rng: random.Random, size: int, version: str, mark: bool = False) -> str:
    """A symbolicated iOS crash report; with ``mark`` a NUL line sits among the crashed thread's top frames."""
    top = _frames(rng, rng.randint(8, 12))
    if mark:
        top.insert(rng.randint(3, 5), "\x00")
    head = [f"Incident Identifier: {_uuid(rng).upper()}", f"CrashReporter Key:   {_hex(rng, 40)}",
            f"Hardware Model:      {_pick(rng, ('iPhone14,5', 'iPhone15,2', 'iPhone13,2', 'iPhone12,8'))}",
            f"Process:             Pitanga [{rng.randint(300, 9000)}]",
            f"Path:                /private/var/containers/Bundle/Application/{_uuid(rng).upper()}/Pitanga.app/Pitanga",
            f"Identifier:          {BUNDLE}", f"Version:             {version}", "Code Type:           ARM-64 (Native)",
            "Role:                Foreground", "Parent Process:      launchd [1]", "",
            f"OS Version:          iPhone OS {_pick(rng, ('17.4.1 (21E236)', '17.3 (21D50)', '16.7.5 (20H307)'))}",
            "Release Type:        User", "", "Exception Type:  EXC_CRASH (SIGABRT)",
            "Exception Codes: 0x0000000000000000, 0x0000000000000000", "Termination Reason: SIGNAL 6 Abort trap: 6",
            "Triggered by Thread:  0", "", "Thread 0 name:  Dispatch queue: com.apple.main-thread", "Thread 0 Crashed:",
            *top, ""]
    state = {"t": 0}

    def body() -> str:
        state["t"] += 1
        name = _pick(rng, ("com.facebook.react.JavaScript", "com.apple.uikit.eventfetch-thread",
                           "com.facebook.react.ShadowQueue", "hermes-chrome-inspector-conn", ""))
        label = f"Thread {state['t']} name:   {name}\n" if name else ""
        return label + f"Thread {state['t']}:\n" + "\n".join(_frames(rng, rng.randint(3, 9))) + "\n"

    foot = ["", "Binary Images:",
            f"       0x{rng.randint(0x100000000, 0x104000000):x} -        0x{rng.randint(0x105000000, 0x106000000):x} Pitanga arm64  <{_hex(rng, 32)}> /private/var/containers/Bundle/Application/.../Pitanga.app/Pitanga",
            f"       0x{rng.randint(0x1a0000000, 0x1b0000000):x} -        0x{rng.randint(0x1b0000000, 0x1c0000000):x} CoreFoundation arm64e  <{_hex(rng, 32)}> /System/Library/Frameworks/CoreFoundation.framework/CoreFoundation",
            "", "EOF"]
    return _grow(rng, size, head, body, foot)


CONSOLE_LINES = ("[native] RCTBridge required dispatch_sync to load RNGestureHandlerModule. This may lead to deadlocks",
                 "[connection] nw_endpoint_handler_set_adaptive_read_handler [C3.1] failed",
                 "[SystemGestureGate] <0x10b5048c0> Gesture: System gesture gate timed out.",
                 "[FirebaseCrashlytics] Crashlytics skipped rotating the Install ID during urgent mode",
                 "[Common] Snapshot request 0x600000c8e2e0 complete with error",
                 "[native] Unbalanced calls start/end for tag 20")


def ios_console(rng: random.Random, size: int, mark: bool = False) -> str:
    """Simulator console output of a run."""
    tick = _Ticker(rng)
    pid = rng.randint(40000, 79999)
    head = [f"Launching {BUNDLE} on {_pick(rng, IOS_DEVICES)} (iOS 17.4)...", f"{BUNDLE}: {pid}"]

    def body() -> str:
        r = rng.random()
        stamp = f"{tick()}{rng.randint(100, 999)}-0300"
        if r < 0.55:
            return f"{stamp} Pitanga[{pid}:{rng.randint(1000000, 9999999)}] [javascript] {_pick(rng, JS_LOGS)[1:-1]}"
        if r < 0.75:
            return f"{stamp} Pitanga[{pid}:{rng.randint(1000000, 9999999)}] " + _pick(rng, CONSOLE_LINES)
        if r < 0.9:
            return f"{stamp} Pitanga[{pid}:{rng.randint(1000000, 9999999)}] [UIKitCore] Changing the translatesAutoresizingMaskIntoConstraints property of a UICollectionViewCell"
        return f"{stamp} Pitanga[{pid}:{rng.randint(1000000, 9999999)}] [javascript] '[perf] {_pick(rng, SCREENS)} render {rng.randint(8, 240)}ms'"

    return _grow(rng, size, head, body, [], mark)


def logcat(rng: random.Random, size: int, day: str, mark: bool = False) -> str:
    tick = _Ticker(rng)
    pid = rng.randint(8000, 29999)
    head = ["--------- beginning of main", f"{day} {tick()}  {pid}  {pid} I ActivityTaskManager: "
            f"START u0 {{act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp={BUNDLE}/.MainActivity}}"]

    def body() -> str:
        tag = _pick(rng, LOG_TAGS)
        level = rng.choice("DDIIIIWWE")
        tid = pid if rng.random() < 0.5 else pid + rng.randint(10, 90)
        if tag.endswith("ReactNativeJS"):
            msg = _pick(rng, JS_LOGS)[1:-1]
        elif tag == "Choreographer":
            msg = f"Skipped {rng.randint(31, 180)} frames!  The application may be doing too much work on its main thread."
        elif tag == "OpenGLRenderer":
            msg = f"Davey! duration={rng.randint(700, 2400)}ms; Flags=0, FrameTimelineVsyncId={rng.randint(10**6, 10**7)}, IntendedVsync={rng.randint(10**11, 10**12)}"
        else:
            msg = _pick(rng, ("Accessing hidden method Landroid/view/View;->computeFitSystemWindows(Landroid/graphics/Rect;Landroid/graphics/Rect;)Z (unsupported, reflection, allowed)",
                              "Tagging socket 118 with tag 0(0) for uid -1",
                              "Default FirebaseApp initialized successfully",
                              "Compat change id reported: 171979766; UID 10190; state: ENABLED",
                              "Background concurrent copying GC freed 2140(1175KB) AllocSpace objects, 12(480KB) LOS objects, 49% free, 5MB/11MB, paused 81us,1.2ms total 82.011ms",
                              "ReactInstanceManager.createReactContextFromBundleLoader()",
                              "NativeModule HapticsModule was registered twice, ignoring the second"))
        return f"{day} {tick()}  {pid}  {tid} {level} {tag}: {msg}"

    return _grow(rng, size, head, body, [], mark)


def anr_trace(rng: random.Random, size: int, mark: bool = False) -> str:
    """An ANR traces.txt excerpt; with ``mark`` a NUL line sits in the main thread's stack, under its first frames."""
    pid = rng.randint(8000, 29999)
    main = ["  at android.os.MessageQueue.nativePollOnce(Native method)", "  at android.os.MessageQueue.next(MessageQueue.java:335)",
            "  at android.os.Looper.loopOnce(Looper.java:161)", "  at android.os.Looper.loop(Looper.java:288)",
            "  at android.app.ActivityThread.main(ActivityThread.java:7918)"]
    if mark:
        main = ["  at java.lang.Object.wait(Native method)", "\x00", *main[2:]]
    head = [f"----- pid {pid} at 2024-{rng.randint(3, 11):02d}-{rng.randint(10, 28)} {_clock(rng)}.{rng.randint(100, 999)}-0300 -----",
            f"Cmd line: {BUNDLE}", "Build fingerprint: 'google/bluejay/bluejay:14/AP1A.240405.002/11480754:user/release-keys'",
            "ABI: 'arm64'", "", f"\"main\" prio=5 tid=1 {'Blocked' if mark else 'Native'}",
            f"  | group=\"main\" sCount=1 ucsCount=0 flags=1 obj=0x{_hex(rng, 8)} self=0xb400007{_hex(rng, 9)}",
            f"  | sysTid={pid} nice=-10 cgrp=top-app sched=0/0 handle=0x7{_hex(rng, 11)}", *main, ""]
    state = {"t": 1}

    def body() -> str:
        state["t"] += 1
        name = _pick(rng, ("mqt_js", "mqt_native_modules", "OkHttp Dispatcher", "FirebaseCrashlytics", "RenderThread",
                           "hwuiTask1", "Firebase Background Thread #0", "GmsDynamite"))
        return (f"\"{name}\" prio=5 tid={state['t']} {_pick(rng, ('Native', 'Waiting', 'TimedWaiting', 'Runnable'))}\n"
                f"  | group=\"main\" sCount=1 ucsCount=0 flags=1 obj=0x{_hex(rng, 8)}\n"
                "  at java.lang.Object.wait(Native method)\n  at java.lang.Thread.parkFor$(Thread.java:2137)\n"
                f"  at com.facebook.react.bridge.queue.MessageQueueThreadHandler.dispatchMessage(MessageQueueThreadHandler.java:{rng.randint(20, 40)})\n")

    return _grow(rng, size, head, body, ["----- end " + str(pid) + " -----"])


def _version(rng: random.Random) -> str:
    """A filler app version and build: 2.1-2.6, builds 500-899 (planted ones live elsewhere)."""
    return f"2.{rng.randint(1, 6)}.{rng.randint(0, 9)} ({rng.randint(500, 899)})"


def _iso(rng: random.Random) -> str:
    return f"2024-{rng.randint(3, 11):02d}-{rng.randint(10, 28)}T{_clock(rng)}-03:00"


def asc_builds(rng: random.Random, size: int) -> str:
    rows: list[dict[str, Any]] = []
    text = ""
    while len(text) < size:
        v = _version(rng)
        rows.append({"type": "builds", "id": _uuid(rng),
                     "attributes": {"version": v.split("(")[1][:-1], "appVersion": v.split(" ")[0], "uploadedDate": _iso(rng),
                                    "processingState": rng.choice(("VALID", "VALID", "VALID", "PROCESSING", "INVALID")),
                                    "minOsVersion": "13.4", "usesNonExemptEncryption": False,
                                    "expired": rng.random() < 0.3, "buildAudienceType": "APP_STORE_ELIGIBLE"},
                     "relationships": {"betaGroups": {"meta": {"paging": {"total": rng.randint(1, 3), "limit": 10}}}}})
        text = json.dumps({"data": rows, "links": {"self": "https://api.appstoreconnect.apple.com/v1/builds?limit=50"}}, indent=2)
    return text


def play_tracks(rng: random.Random, size: int) -> str:
    tracks: list[dict[str, Any]] = []
    text = ""
    while len(text) < size:
        v = _version(rng)
        code = "2" + v.split("(")[1][:-1] + str(rng.randint(10, 99))
        tracks.append({"track": rng.choice(("production", "beta", "internal", "alpha")),
                       "releases": [{"name": v, "versionCodes": [code],
                                     "status": rng.choice(("completed", "inProgress", "halted", "draft")),
                                     "userFraction": rng.choice((0.01, 0.2, 0.5, 1)),
                                     "releaseNotes": [{"language": "pt-BR", "text": "Correções de bugs e melhorias de desempenho."}]}]})
        text = json.dumps({"kind": "androidpublisher#tracksListResponse", "tracks": tracks}, indent=2, ensure_ascii=False)
    return text


def play_vitals(rng: random.Random, size: int) -> str:
    lines = ["Android vitals — br.com.pitanga.app — last 28 days", "",
             "| Version | Installs | User-perceived crash rate | User-perceived ANR rate | Slow cold start |",
             "|---|---|---|---|---|"]
    while sum(len(x) + 1 for x in lines) < size:
        lines.append(f"| {_version(rng)} | {rng.randint(800, 40000):,} | {rng.uniform(0.1, 0.9):.2f}% | "
                     f"{rng.uniform(0.05, 0.45):.2f}% | {rng.uniform(2, 14):.1f}% |")
    lines += ["", "Bad behavior threshold: crash rate 1.09%, ANR rate 0.47%"]
    return "\n".join(lines)


ISSUE_TITLES = ("HapticsModule.swift line 88 — HapticsModule.impact(_:)", "RCTImageLoader.mm line 512",
                "com.facebook.react.bridge.JSApplicationIllegalArgumentException", "PushTokenStore.swift line 41",
                "java.lang.OutOfMemoryError — Failed to allocate a 24 byte allocation", "libhermes.so — hermes::vm::GCBase",
                "okhttp3.internal.http2.StreamResetException: stream was reset: CANCEL", "UIKitCore — -[UIView layoutIfNeeded]",
                "android.view.WindowManager$BadTokenException", "SecurePrefsModule.kt line 63")


def crashlytics_page(rng: random.Random, size: int, platform: str = "ios") -> str:
    lines = [f"Crashlytics · Pitanga ({'iOS' if platform == 'ios' else 'Android'}) · last 7 days", "",
             f"Crash-free users: 99.{rng.randint(10, 89)}%   Crash-free sessions: 99.{rng.randint(50, 97)}%", "",
             "| Issue ID | Issue | Versions | Events | Users |", "|---|---|---|---|---|"]
    while sum(len(x) + 1 for x in lines) < size:
        lines.append(f"| {_hex(rng, 32)} | {_pick(rng, ISSUE_TITLES)} | {_version(rng).split(' ')[0]}–{_version(rng).split(' ')[0]} | "
                     f"{rng.randint(3, 900)} | {rng.randint(2, 400)} |")
    return "\n".join(lines)


DOC_PARAS = (
    "Native modules let JavaScript call platform APIs. On iOS a module is a class that exports methods to the bridge; "
    "on Android it extends ReactContextBaseJavaModule and is registered through a package. With the New Architecture, "
    "Turbo Native Modules are typed through Codegen specs and loaded lazily.",
    "Hermes is the default JavaScript engine. It precompiles JavaScript to bytecode at build time, which shortens start "
    "up and lowers memory use. Source maps for Hermes bundles must be composed with the packager map before upload.",
    "To publish on Google Play, generate an upload key, configure the release signing config in android/app/build.gradle "
    "and build an Android App Bundle with ./gradlew bundleRelease. Play App Signing re-signs the bundle with the app key.",
    "Apps that use required reason APIs declare the reasons in a privacy manifest (PrivacyInfo.xcprivacy). Third-party "
    "SDKs that ship their own manifests are aggregated into the app's privacy report when you archive.",
    "The Detox configuration lives in .detoxrc.js. Each configuration pairs a build command with a device, for example "
    "an iOS simulator type or an Android emulator AVD name, and the runner that executes the tests.",
    "Gradle resolves dependency conflicts by picking the newest version requested in the graph. Use the dependencyInsight "
    "task to see why a given version was selected and which module asked for it.",
    "Metro resolves modules relative to the project root and the watchFolders. Symlinked packages need to be listed "
    "explicitly, and the cache must be reset after changing the resolver configuration.",
    "App Store Connect processes an uploaded build before it can be tested. Builds that are still processing cannot be "
    "added to a TestFlight group, and builds expire ninety days after upload.",
    "FlatList renders items lazily through VirtualizedList. Provide getItemLayout when rows have a fixed height, and keep "
    "renderItem stable so rows are not re-rendered on every parent update.",
    "Crashlytics groups crashes into issues by the frames it considers most relevant. Upload dSYMs for every build so that "
    "iOS stack traces are symbolicated; missing dSYMs are listed in the console.",
)
DOC_URLS = ("https://reactnative.dev/docs/native-modules-intro", "https://reactnative.dev/docs/hermes",
            "https://reactnative.dev/docs/signed-apk-android", "https://developer.apple.com/documentation/bundleresources/privacy_manifest_files",
            "https://wix.github.io/Detox/docs/config/overview", "https://docs.gradle.org/current/userguide/dependency_resolution.html",
            "https://metrobundler.dev/docs/resolution", "https://developer.apple.com/help/app-store-connect/test-a-beta-version/overview-of-testflight",
            "https://reactnative.dev/docs/optimizing-flatlist-configuration", "https://firebase.google.com/docs/crashlytics/get-deobfuscated-reports")


def doc_page(rng: random.Random, size: int, url: str) -> str:
    """The page's own paragraph first, then the related pages the site links below it."""
    lines = [url, "", _pick(rng, ("Overview", "Getting started", "Guides", "Reference")), "", DOC_PARAS[DOC_URLS.index(url)], "",
             "Related pages", ""]
    while sum(len(x) + 1 for x in lines) < size:
        i = rng.randrange(len(DOC_URLS))
        lines += [DOC_URLS[i], DOC_PARAS[i], ""]
    return "\n".join(lines)


COMMITS = ("fix(home): banner carousel flicker on Android", "chore(deps): bump react-native-screens to 3.29.0",
           "feat(search): recent searches chip row", "fix(login): keyboard covering the password field on SE",
           "refactor(api): move interceptors to client.ts", "test(profile): snapshot for the avatar fallback",
           "fix(ios): haptics crash when feedback generator is nil", "chore: update pods", "fix(android): back handler on SettingsScreen",
           "feat(product): zoomable gallery", "ci: cache gradle between runs", "fix(price): BRL formatting with cents",
           "chore(i18n): missing pt-BR strings", "perf(home): memoize product cards", "fix(push): token refresh on reinstall")


WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def git_log(rng: random.Random, size: int, oneline: bool = False) -> str:
    lines: list[str] = []
    day = datetime.date(2024, 9, 27) - datetime.timedelta(days=rng.randint(0, 120))
    while sum(len(x) + 1 for x in lines) < size:
        day -= datetime.timedelta(days=rng.choice((0, 0, 1, 1, 2, 3)))
        sha = _hex(rng, 40)
        msg = _pick(rng, COMMITS)
        if oneline:
            lines.append(f"{sha[:7]} {msg}")
            continue
        lines += [f"commit {sha}", f"Author: {_pick(rng, ('Rafael Lima <rafael@pitanga.app>', 'Rafael Lima <rafa.lima@gmail.com>', 'dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>'))}",
                  f"Date:   {WEEKDAYS[day.weekday()]} {MONTHS[day.month - 1]} {day.day} {_clock(rng)} {day.year} -0300",
                  "", f"    {msg}", ""]
    return "\n".join(lines)


PACKAGE_JSON = """{
  "name": "pitanga",
  "version": "%s",
  "private": true,
  "scripts": {
    "android": "react-native run-android",
    "ios": "react-native run-ios",
    "lint": "eslint src --ext .ts,.tsx",
    "start": "react-native start",
    "test": "jest",
    "tsc": "tsc --noEmit",
    "e2e:ios": "detox test -c ios.sim.debug",
    "e2e:android": "detox test -c android.emu.debug",
    "postinstall": "patch-package"
  },
  "dependencies": {
    "@react-native-firebase/app": "^19.0.1",
    "@react-native-firebase/crashlytics": "^19.0.1",
    "@react-navigation/native": "^6.1.9",
    "@react-navigation/native-stack": "^6.9.17",
    "@tanstack/react-query": "^5.17.9",
    "axios": "^1.6.5",
    "date-fns": "^3.2.0",
    "react": "18.2.0",
    "react-native": "0.73.6",
    "react-native-device-info": "^10.12.0",
    "react-native-gesture-handler": "^2.14.1",
    "react-native-permissions": "^4.1.1",
    "react-native-reanimated": "^3.6.2",
    "react-native-safe-area-context": "^4.8.2",
    "react-native-screens": "^3.29.0",
    "react-native-svg": "^14.1.0"
  },
  "devDependencies": {
    "@babel/core": "^7.23.7",
    "@react-native/babel-preset": "0.73.21",
    "@react-native/eslint-config": "0.73.2",
    "@testing-library/react-native": "^12.4.3",
    "@types/react": "^18.2.48",
    "detox": "^20.17.0",
    "eslint": "^8.56.0",
    "jest": "^29.7.0",
    "patch-package": "^8.0.0",
    "typescript": "5.0.4"
  },
  "engines": {
    "node": ">=18"
  }
}"""

INFO_PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>CFBundleDevelopmentRegion</key>
	<string>pt-BR</string>
	<key>CFBundleDisplayName</key>
	<string>Pitanga</string>
	<key>CFBundleExecutable</key>
	<string>$(EXECUTABLE_NAME)</string>
	<key>CFBundleIdentifier</key>
	<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
	<key>CFBundleShortVersionString</key>
	<string>$(MARKETING_VERSION)</string>
	<key>CFBundleVersion</key>
	<string>$(CURRENT_PROJECT_VERSION)</string>
	<key>CFBundleURLTypes</key>
	<array>
		<dict>
			<key>CFBundleURLSchemes</key>
			<array>
				<string>pitanga</string>
			</array>
		</dict>
	</array>
	<key>ITSAppUsesNonExemptEncryption</key>
	<false/>
	<key>LSRequiresIPhoneOS</key>
	<true/>
	<key>NSAppTransportSecurity</key>
	<dict>
		<key>NSAllowsArbitraryLoads</key>
		<false/>
		<key>NSAllowsLocalNetworking</key>
		<true/>
	</dict>
	<key>NSCameraUsageDescription</key>
	<string>O Pitanga usa a câmera para você tirar a foto do seu perfil.</string>
	<key>NSFaceIDUsageDescription</key>
	<string>Use o Face ID para entrar mais rápido.</string>
	<key>NSLocationWhenInUseUsageDescription</key>
	<string>Usamos sua localização para mostrar as lojas perto de você.</string>
	<key>UIBackgroundModes</key>
	<array>
		<string>remote-notification</string>
	</array>
	<key>UILaunchStoryboardName</key>
	<string>LaunchScreen</string>
	<key>UIRequiredDeviceCapabilities</key>
	<array>
		<string>arm64</string>
	</array>
	<key>UISupportedInterfaceOrientations</key>
	<array>
		<string>UIInterfaceOrientationPortrait</string>
	</array>
	<key>UIViewControllerBasedStatusBarAppearance</key>
	<false/>
</dict>
</plist>"""

MANIFEST = """<manifest xmlns:android="http://schemas.android.com/apk/res/android"
    xmlns:tools="http://schemas.android.com/tools">

    <uses-permission android:name="android.permission.INTERNET" />
    <uses-permission android:name="android.permission.CAMERA" />
    <uses-permission android:name="android.permission.ACCESS_FINE_LOCATION" />
    <uses-permission android:name="android.permission.POST_NOTIFICATIONS" />
    <uses-permission android:name="android.permission.VIBRATE" />

    <application
      android:name=".MainApplication"
      android:label="@string/app_name"
      android:icon="@mipmap/ic_launcher"
      android:roundIcon="@mipmap/ic_launcher_round"
      android:allowBackup="false"
      android:theme="@style/AppTheme">
      <activity
        android:name=".MainActivity"
        android:label="@string/app_name"
        android:configChanges="keyboard|keyboardHidden|orientation|screenLayout|screenSize|smallestScreenSize|uiMode"
        android:launchMode="singleTask"
        android:windowSoftInputMode="adjustResize"
        android:exported="true">
        <intent-filter>
            <action android:name="android.intent.action.MAIN" />
            <category android:name="android.intent.category.LAUNCHER" />
        </intent-filter>
        <intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" android:host="pitanga.app" />
        </intent-filter>
      </activity>
      <service android:name=".push.PushTokenService" android:exported="false">
        <intent-filter>
          <action android:name="com.google.firebase.MESSAGING_EVENT" />
        </intent-filter>
      </service>
    </application>
</manifest>"""

BUILD_GRADLE = """apply plugin: "com.android.application"
apply plugin: "org.jetbrains.kotlin.android"
apply plugin: "com.facebook.react"
apply plugin: "com.google.gms.google-services"
apply plugin: "com.google.firebase.crashlytics"

react {
    bundleCommand = "bundle"
    hermesFlags = ["-O", "-output-source-map"]
}

def enableProguardInReleaseBuilds = true
def jscFlavor = 'org.webkit:android-jsc:+'

android {
    ndkVersion rootProject.ext.ndkVersion
    buildToolsVersion rootProject.ext.buildToolsVersion
    compileSdk rootProject.ext.compileSdkVersion

    namespace "br.com.pitanga.app"
    defaultConfig {
        applicationId "br.com.pitanga.app"
        minSdkVersion rootProject.ext.minSdkVersion
        targetSdkVersion rootProject.ext.targetSdkVersion
        versionCode %s
        versionName "%s"
    }
    signingConfigs {
        debug {
            storeFile file('debug.keystore')
            storePassword 'android'
            keyAlias 'androiddebugkey'
            keyPassword 'android'
        }
        release {
            storeFile file(PITANGA_UPLOAD_STORE_FILE)
            storePassword PITANGA_UPLOAD_STORE_PASSWORD
            keyAlias PITANGA_UPLOAD_KEY_ALIAS
            keyPassword PITANGA_UPLOAD_KEY_PASSWORD
        }
    }
    buildTypes {
        debug {
            signingConfig signingConfigs.debug
        }
        release {
            signingConfig signingConfigs.release
            minifyEnabled enableProguardInReleaseBuilds
            proguardFiles getDefaultProguardFile("proguard-android.txt"), "proguard-rules.pro"
        }
    }
}

dependencies {
    implementation("com.facebook.react:react-android")
    implementation("androidx.swiperefreshlayout:swiperefreshlayout:1.1.0")
    implementation("androidx.biometric:biometric:1.1.0")
    implementation("androidx.security:security-crypto:1.1.0-alpha06")
    implementation platform("com.google.firebase:firebase-bom:32.7.0")
    implementation("com.squareup.okhttp3:okhttp:4.12.0")
    implementation("com.facebook.react:hermes-android")
}

apply from: file("../../node_modules/@react-native-community/cli-platform-android/native_modules.gradle"); applyNativeModulesAppBuildGradle(project)"""


def config_file(rng: random.Random, path: str) -> str:
    v = _version(rng)
    if path == "package.json":
        return PACKAGE_JSON % v.split(" ")[0]
    if path.endswith("Info.plist"):
        return INFO_PLIST
    if path.endswith("AndroidManifest.xml"):
        return MANIFEST
    return BUILD_GRADLE % ("2" + v.split("(")[1][:-1] + "00", v.split(" ")[0])


CONFIGS = ("package.json", "ios/Pitanga/Info.plist", "android/app/src/main/AndroidManifest.xml", "android/app/build.gradle")


def _ident(path: str) -> str:
    return path.rsplit("/", 1)[-1].split(".")[0]


def code_file(rng: random.Random, path: str, size: int) -> str:
    """Plausible source for ``path`` (TypeScript, Swift or Kotlin), about ``size`` characters."""
    name = _ident(path)
    if path.endswith(".swift"):
        lines = ["import Foundation", "import UIKit", "import React", "", f"@objc({name})",
                 f"final class {name}: NSObject {{", "", "  @objc static func requiresMainQueueSetup() -> Bool { false }", ""]
        body = ("  @objc func {f}(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock,\n"
                "                 rejecter reject: @escaping RCTPromiseRejectBlock) {{\n"
                "    DispatchQueue.main.async {{\n      guard let value = options[\"{k}\"] as? String else {{\n"
                "        reject(\"E_{K}\", \"missing {k}\", nil)\n        return\n      }}\n"
                "      resolve([\"ok\": true, \"{k}\": value])\n    }}\n  }}\n")
        tail = ["}"]
    elif path.endswith(".kt"):
        lines = ["package br.com.pitanga.bridges", "", "import com.facebook.react.bridge.Promise",
                 "import com.facebook.react.bridge.ReactApplicationContext",
                 "import com.facebook.react.bridge.ReactContextBaseJavaModule", "import com.facebook.react.bridge.ReactMethod",
                 "import com.facebook.react.bridge.ReadableMap", "",
                 f"class {name}(reactContext: ReactApplicationContext) : ReactContextBaseJavaModule(reactContext) {{", "",
                 f"    override fun getName() = \"{name}\"", ""]
        body = ("    @ReactMethod\n    fun {f}(options: ReadableMap, promise: Promise) {{\n"
                "        val value = options.getString(\"{k}\") ?: return promise.reject(\"E_{K}\", \"missing {k}\")\n"
                "        try {{\n            promise.resolve(value)\n        }} catch (e: Exception) {{\n"
                "            promise.reject(\"E_{K}\", e)\n        }}\n    }}\n")
        tail = ["}"]
    else:
        lines = ["import React, { useCallback, useEffect, useMemo, useState } from 'react';",
                 "import { FlatList, Pressable, StyleSheet, Text, View } from 'react-native';",
                 "import { useNavigation } from '@react-navigation/native';", "import { useQuery } from '@tanstack/react-query';",
                 "import { colors } from '../theme/colors';", "import { formatPrice } from '../utils/format';", ""]
        body = ("export function {F}Row({{ item, onPress }}: {{ item: Item; onPress: (id: string) => void }}) {{\n"
                "  const label = useMemo(() => formatPrice(item.{k}), [item.{k}]);\n"
                "  return (\n    <Pressable testID=\"{k}-row\" onPress={{() => onPress(item.id)}} style={{styles.row}}>\n"
                "      <Text style={{styles.title}}>{{item.name}}</Text>\n      <Text style={{styles.price}}>{{label}}</Text>\n"
                "    </Pressable>\n  );\n}}\n")
        tail = [f"export default function {name}() {{", "  const navigation = useNavigation();",
                "  const { data, isLoading } = useQuery({ queryKey: ['items'], queryFn: fetchItems });",
                "  if (isLoading) return <EmptyState loading />;",
                "  return <FlatList data={data} renderItem={({ item }) => <Row item={item} onPress={navigation.navigate} />} />;",
                "}", "", "const styles = StyleSheet.create({", "  row: { flexDirection: 'row', padding: 16 },",
                "  title: { fontSize: 16, color: colors.text },", "  price: { marginLeft: 'auto', color: colors.primary },", "});"]
    words = ("load", "save", "refresh", "open", "track", "clear", "fetch", "sync", "prefetch", "reset")
    keys = ("token", "price", "amount", "sku", "locale", "userId", "storeId", "theme", "count", "cursor")
    used = sum(len(x) + 1 for x in lines + tail)
    while used < size:
        f, k = _pick(rng, words), _pick(rng, keys)
        block = body.format(f=f + k[0].upper() + k[1:], F=f.capitalize() + k[0].upper() + k[1:], k=k, K=k.upper())
        lines += block.split("\n")
        used += len(block) + 1
    return "\n".join(lines + tail)


def diff_for(rng: random.Random, path: str) -> str:
    start = rng.randint(8, 220)
    k = _pick(rng, ("token", "price", "amount", "locale", "count"))
    if path.endswith(".swift"):
        old, new = f"    guard let value = options[\"{k}\"] as? String else {{", f"    guard let value = options[\"{k}\"] as? String, !value.isEmpty else {{"
    elif path.endswith(".kt"):
        old, new = f"        val value = options.getString(\"{k}\")", f"        val value = options.getString(\"{k}\")?.trim()"
    else:
        old, new = f"  const label = formatPrice(item.{k});", f"  const label = useMemo(() => formatPrice(item.{k}), [item.{k}]);"
    return (f"--- a/{path}\n+++ b/{path}\n@@ -{start},6 +{start},6 @@\n   // {k}\n-{old}\n+{new}\n"
            f"     return\n   }}\n")


def git_diff(rng: random.Random, size: int) -> str:
    parts: list[str] = []
    while sum(len(p) for p in parts) < size:
        path = _pick(rng, TS_FILES + tuple(f"ios/Pitanga/{f}" for f in SWIFT_FILES))
        parts.append(f"diff --git a/{path} b/{path}\nindex {_hex(rng, 7)}..{_hex(rng, 7)} 100644\n" + diff_for(rng, path))
    return "\n".join(parts)


def search_hits(rng: random.Random, size: int, pattern: str) -> str:
    snippets = ("const {{ data }} = useQuery({{ queryKey: ['{p}'] }});", "import {{ {p} }} from '../api/client';",
                "  // TODO(rafa): {p} when offline", "  await {p}();", "export async function {p}() {{",
                "  track('{p}', {{ screen: 'HomeScreen' }});")
    lines: list[str] = []
    while sum(len(x) + 1 for x in lines) < size:
        lines.append(f"{_pick(rng, TS_FILES)}:{rng.randint(3, 300)}:{_pick(rng, snippets).format(p=pattern)}")
    return "\n".join(lines + ["", f"{len(lines)} matches"])


# --- filler: routine tool actions, one-off requests, chit-chat ---------------------------------------------------
Action = tuple[str, dict[str, Any], str]
IOS_CMD = "cd ios && xcodebuild -workspace Pitanga.xcworkspace -scheme Pitanga -configuration Debug -sdk iphonesimulator build 2>&1 | tail -n 600"
ANDROID_CMD = "cd android && ./gradlew assembleDebug --console=plain"
RELEASE_CMD = "cd android && ./gradlew bundleRelease --console=plain"
JEST_CMD = "yarn jest --ci --silent"
DETOX_CMD = "yarn detox test -c ios.sim.debug --headless"
POD_CMD = "cd ios && bundle exec pod install"
SANDBOX = ("error: Sandbox: rsync.samba(48231) deny(1) file-write-create "
           f"{ROOT}/ios/build/Build/Products/Debug-iphonesimulator/Pitanga.app/Frameworks/hermes.framework/.hermes.Tq2xLw")


def act_ios(b: _Builder) -> Action:
    size = b.want()
    if b.rng.random() < 0.12:
        out = b.draw(lambda: xcode_log(b.rng, size, fail="PhaseScriptExecution [CP]\\ Embed\\ Pods\\ Frameworks (in target 'Pitanga' from project 'Pitanga')", mark=True))
        return "shell", {"cmd": IOS_CMD}, out.replace("\x00", SANDBOX)
    return "shell", {"cmd": IOS_CMD}, b.draw(lambda: xcode_log(b.rng, size))


def act_android(b: _Builder) -> Action:
    size = b.want()
    if b.rng.random() < 0.1:
        fail = ["Execution failed for task ':app:installDebug'.", "> com.android.builder.testing.api.DeviceException: No connected devices!"]
        return "shell", {"cmd": ANDROID_CMD}, b.draw(lambda: gradle_log(b.rng, size, fail=fail))
    return "shell", {"cmd": ANDROID_CMD}, b.draw(lambda: gradle_log(b.rng, size))


def act_release(b: _Builder) -> Action:
    size = b.want()
    return "shell", {"cmd": RELEASE_CMD}, b.draw(lambda: gradle_log(b.rng, size, variant="Release"))


def act_jest(b: _Builder) -> Action:
    size = b.want()
    return "shell", {"cmd": JEST_CMD}, b.draw(lambda: jest_log(b.rng, size))


def act_lint(b: _Builder) -> Action:
    size = b.want()
    return "shell", {"cmd": "yarn lint"}, b.draw(lambda: eslint_log(b.rng, size))


def act_detox(b: _Builder) -> Action:
    size = b.want()
    return "shell", {"cmd": DETOX_CMD}, b.draw(lambda: detox_log(b.rng, size))


def act_pods(b: _Builder) -> Action:
    size = b.want()
    return "shell", {"cmd": POD_CMD}, b.draw(lambda: pod_log(b.rng, size))


def act_git(b: _Builder) -> Action:
    size = b.want(0.6)
    r = b.rng.random()
    if r < 0.4:
        return "shell", {"cmd": "git log -n 25"}, b.draw(lambda: git_log(b.rng, size))
    if r < 0.7:
        return "shell", {"cmd": "git log --oneline -n 60"}, b.draw(lambda: git_log(b.rng, size, oneline=True))
    return "shell", {"cmd": "git diff HEAD~2"}, b.draw(lambda: git_diff(b.rng, size))


def act_fastlane(b: _Builder) -> Action:
    size = b.want()
    platform, lane = b.rng.choice((("ios", "beta"), ("android", "internal")))
    return "shell", {"cmd": f"bundle exec fastlane {platform} {lane}"}, b.draw(lambda: fastlane_log(b.rng, size, lane, platform))


def act_metro(b: _Builder) -> Action:
    size = b.want()
    return "shell", {"cmd": "yarn start --reset-cache"}, b.draw(lambda: metro_log(b.rng, size))


def act_read_config(b: _Builder) -> Action:
    path = _pick(b.rng, CONFIGS)
    return "read", {"path": path}, b.draw(lambda: _numbered(config_file(b.rng, path).split("\n")))


def act_read_code(b: _Builder, kind: str = "") -> Action:
    pool = {"swift": tuple(f"ios/Pitanga/{f}" for f in SWIFT_FILES), "kt": tuple(f"{KT_ROOT}/{f}" for f in KT_FILES)}.get(kind, TS_FILES)
    path = _pick(b.rng, pool)
    size = b.want(0.8)
    return "read", {"path": path}, b.draw(lambda: _numbered(code_file(b.rng, path, size).split("\n")))


def act_search(b: _Builder) -> Action:
    pattern = _pick(b.rng, ("refreshToken", "useDebounce", "formatPrice", "track", "fetchItems", "useAppState", "Haptics"))
    size = b.want(0.4)
    return "search", {"pattern": pattern, "path": "src"}, b.draw(lambda: search_hits(b.rng, size, pattern))


def act_patch(b: _Builder, kind: str = "") -> Action:
    pool = {"swift": tuple(f"ios/Pitanga/{f}" for f in SWIFT_FILES), "kt": tuple(f"{KT_ROOT}/{f}" for f in KT_FILES)}.get(kind, TS_FILES)
    path = _pick(b.rng, pool)
    diff = b.draw(lambda: diff_for(b.rng, path))
    return "patch", {"path": path, "diff": diff}, f"Applied 1 hunk to {path} (+1 -1)."


def act_write(b: _Builder) -> Action:
    path = _pick(b.rng, JEST_SUITES)
    content = b.draw(lambda: code_file(b.rng, path, b.rng.randint(500, 1400)))
    return "write", {"path": path, "content": content}, f"Wrote {len(content.encode())} bytes to {path}."


def act_sim_ios(b: _Builder) -> Action:
    size = b.want()
    args = {"platform": "ios", "device": _pick(b.rng, IOS_DEVICES), "action": "run",
            "scenario": _pick(b.rng, ("cold start", "login", "browse home", "search", "open settings"))}
    return "simulator", args, b.draw(lambda: ios_console(b.rng, size))


def act_sim_android(b: _Builder) -> Action:
    size = b.want()
    day = f"{b.rng.randint(3, 11):02d}-{b.rng.randint(10, 28)}"
    args = {"platform": "android", "avd": _pick(b.rng, AVDS), "action": "run", "logcat": "*:I"}
    return "simulator", args, b.draw(lambda: logcat(b.rng, size, day))


def act_crash_ios(b: _Builder) -> Action:
    size = b.want()
    version = _version(b.rng)
    return "simulator", {"platform": "ios", "action": "crash_report", "symbolicate": True}, b.draw(lambda: ios_crash(b.rng, size, version))


def act_anr(b: _Builder) -> Action:
    size = b.want()
    return "simulator", {"platform": "android", "avd": _pick(b.rng, AVDS), "action": "pull_anr_traces"}, b.draw(lambda: anr_trace(b.rng, size))


def act_store(b: _Builder) -> Action:
    size = b.want(0.7)
    r = b.rng.random()
    if r < 0.4:
        return "store_api", {"service": "app_store_connect", "query": "builds", "limit": 50}, b.draw(lambda: asc_builds(b.rng, size))
    if r < 0.7:
        return "store_api", {"service": "play_console", "query": "tracks"}, b.draw(lambda: play_tracks(b.rng, size))
    return "store_api", {"service": "play_console", "query": "vitals", "days": 28}, b.draw(lambda: play_vitals(b.rng, size))


def act_crashlytics(b: _Builder) -> Action:
    size = b.want(0.8)
    platform = b.rng.choice(("ios", "android"))
    url = f"https://console.firebase.google.com/project/pitanga-prod/crashlytics/app/{platform}:{BUNDLE}/issues?time=last-seven-days"
    return "browser", {"url": url}, b.draw(lambda: crashlytics_page(b.rng, size, platform))


def act_docs(b: _Builder) -> Action:
    url = _pick(b.rng, DOC_URLS)
    size = b.want(0.6)
    return "browser", {"url": url}, b.draw(lambda: doc_page(b.rng, size, url))


@dataclass(frozen=True)
class Topic:
    """One kind of routine request: how he asks (English, Portuguese), what the agent runs, how it answers."""

    asks_en: tuple[str, ...]
    asks_pt: tuple[str, ...]
    first: tuple[Callable[[_Builder], Action], ...]
    then: tuple[Callable[[_Builder], Action], ...]
    done_en: tuple[str, ...]
    done_pt: tuple[str, ...]


TOPICS = (
    Topic(("run the ios build pls", "ios build?", "can you build iOS real quick", "xcode is complaining again, take a look"),
          ("roda o build ios", "builda o ios aí pfv", "xcode reclamando de novo 🙄 vê aí", "compila o ios no simulador"),
          (act_ios,), (lambda b: act_read_code(b, "swift"), lambda b: act_patch(b, "swift"), act_ios, act_pods, act_sim_ios),
          ("iOS debug build is green. Only deprecation warnings from the pods, nothing in our code.",
           "Built fine on the simulator. The warnings are all in Pods (keyWindow / statusBarFrame deprecations)."),
          ("Build do iOS passou. Só warning de deprecação nos pods, nada nosso.",
           "Tá verde no simulador. Os warnings são todos de Pods, dá pra ignorar por enquanto.")),
    Topic(("android build?", "run assembleDebug real quick", "build android and install it on the emulator"),
          ("roda o build android pfv", "gradle de novo, vê aí", "compila o android e instala no emulador"),
          (act_android,), (act_read_config, lambda b: act_read_code(b, "kt"), lambda b: act_patch(b, "kt"), act_android, act_sim_android),
          ("assembleDebug is fine. The Kotlin warnings come from react-native-screens (systemUiVisibility), safe to ignore.",
           "Android builds and installs; logcat looks normal on the emulator."),
          ("assembleDebug ok. Os warnings são do react-native-screens, pode ignorar.",
           "Android compilou e instalou no emulador, logcat limpo.")),
    Topic(("run jest pls", "can you run the unit tests", "are the tests passing?"),
          ("roda os testes", "roda o jest aí, mexi no format", "testes tão passando?", "roda jest + lint rapidinho"),
          (act_jest,), (act_lint, lambda b: act_read_code(b), lambda b: act_patch(b), act_write, act_jest),
          ("Jest is green. The act(...) warnings are noise from the HomeScreen test, not failures.",
           "All suites pass. Lint has only warnings (unused imports, exhaustive-deps)."),
          ("Jest verde, todos os suites passaram. Os warnings de act(...) são ruído.",
           "Tudo passando. O lint só tem warning (imports sobrando, exhaustive-deps).")),
    Topic(("run e2e on the sim", "is detox green?"), ("roda o detox no ios", "e2e tá verde?"),
          (act_detox,), (act_sim_ios, act_detox),
          ("Detox passed on the simulator, all suites.",), ("Detox passou no simulador, todos os suites.",)),
    Topic(("what did I push last week", "show me the diff", "git log real quick"),
          ("o que mudou desde ontem?", "me mostra o diff", "git log rapidinho pfv"),
          (act_git,), (act_git,),
          ("Mostly UI fixes and a deps bump; nothing touches the native side.",),
          ("Mais fix de UI e um bump de deps; nada no lado nativo.",)),
    Topic(("take a look at the screens code, something re-renders too much", "can you clean up that hook usage?",
           "check the code around the API calls"),
          ("dá uma olhada no código das telas", "acha onde a gente chama a API direto", "revisa esse código de formatação aí"),
          (act_search, lambda b: act_read_code(b)), (lambda b: act_read_code(b), lambda b: act_patch(b), act_write, act_search, act_jest),
          ("Found it and tightened the memo; behaviour is the same, fewer re-renders.",
           "It's called from two places; I left a small patch so both go through the client."),
          ("Achei. Ajustei o useMemo, comportamento igual, menos re-render.",
           "É chamado em dois lugares; deixei um patch pequeno pra passar tudo pelo client.")),
    Topic(("how are the TestFlight builds looking?", "check ASC for the latest build", "android vitals ok?"),
          ("status da Play Console?", "como tão os builds no TestFlight?", "vitals do android como tão"),
          (act_store,), (act_store,),
          ("Latest build is VALID on App Store Connect; nothing stuck in processing.",
           "Vitals are under the bad-behaviour thresholds on every version."),
          ("Último build VALID no ASC, nada travado em processamento.",
           "Vitals abaixo do limite em todas as versões.")),
    Topic(("any new crashes?", "anything new in Crashlytics?", "is there a new ANR on android?"),
          ("olha esse crash", "crashlytics tá chorando, vê aí", "tem ANR novo no android?"),
          (act_crashlytics, act_crash_ios, act_anr), (act_crash_ios, act_anr, lambda b: act_read_code(b, "swift"), act_crashlytics),
          ("Top issue is still the old haptics one, low volume. Nothing new since the last release.",
           "The ANR is the usual GC pause on low-end devices, same signature as before."),
          ("O topo ainda é o crash antigo do haptics, volume baixo. Nada novo desde o último release.",
           "O ANR é a pausa de GC de sempre em aparelho fraco, mesma assinatura.")),
    Topic(("check the docs on that pls", "what do the docs say about this?", "look it up in the docs"),
          ("pesquisa isso na doc pra mim", "o que a doc fala disso?", "lê a doc disso aí"),
          (act_docs,), (act_docs,),
          ("Short version: it's mostly configuration, nothing we need to change today.",),
          ("Resumo: é mais configuração, nada pra mudar hoje.",)),
    Topic(("push a beta to TestFlight", "send it to the internal track"), ("sobe um beta pro TestFlight", "fastlane beta pfv"),
          (act_fastlane,), (act_store, act_release),
          ("Uploaded; App Store Connect is processing it now.",), ("Subiu; o ASC tá processando agora.",)),
    Topic(("bundle is stale, restart metro",), ("metro tá estranho, reinicia com reset cache",),
          (act_metro,), (act_sim_ios, act_sim_android),
          ("Metro restarted with a clean cache, bundle loads fine.",), ("Metro reiniciado com cache limpo, bundle ok.",)),
    Topic(("profile the product screen pls", "home feels slow on android, check logcat"),
          ("o home tá lento no android, vê o logcat", "vê se o product screen tá engasgando"),
          (act_sim_android, act_sim_ios), (lambda b: act_read_code(b), act_sim_android),
          ("Some skipped frames on first render, nothing over a few hundred ms after warm-up.",),
          ("Uns skipped frames no primeiro render, depois do warm-up fica ok.",)),
)

CHAT = (("vlw!", "Tmj! Qualquer coisa me chama."), ("tmj", "👍"), ("blz, valeu", "Beleza, fico no aguardo."),
        ("boa!", "Valeu! Deixei tudo local, sem push."), ("ok thanks", "Anytime."),
        ("brb, café ☕", "Tranquilo."), ("voltei", "Bem-vindo de volta! O último build ficou verde."),
        ("kkkk perfeito", "😄"), ("nice, that's it for today", "Cool. Everything is committed locally, nothing pushed."),
        ("fechou", "Fechado."),
        ("show de bola", "Valeu!"), ("qual o RN que tamo usando?", "0.73.6, com Hermes e ainda na arquitetura antiga."),
        ("hermes tá ligado no android?", "Tá sim, hermesEnabled=true no gradle.properties."),
        ("do we use react-query everywhere now?", "Almost: HomeScreen, SearchScreen and ProductScreen do; ProfileScreen still calls axios directly."),
        ("quantos testes a gente tem?", "Uns 16 suites de Jest e 5 de Detox."),
        ("qual a versão do reanimated?", "3.6.2, pelo package.json."),
        ("a gente ainda usa patch-package?", "Usa, o postinstall roda o patch-package."),
        ("what's our targetSdk on android?", "34, from the ext block in the root build.gradle."),
        ("do we run detox on android too?", "It's configured (the e2e:android script), but CI only runs the iOS suites today."),
        ("o crashlytics tá no android também?", "Tá, via @react-native-firebase/crashlytics nas duas plataformas."),
        ("is hermes on for iOS too?", "Yes, hermes-engine is in the Podfile.lock, both platforms run Hermes."),
        ("qual node a gente exige?", ">=18, no engines do package.json."),
        ("how long does the ios build take these days?", "Around two minutes clean, under one incremental."))
GREETINGS = (("bom dia! bora", "Bom dia! Pronto quando você quiser."), ("morning! let's go", "Morning! Ready when you are."),
             ("e aí, bora trabalhar", "Bora! Último estado: build verde nas duas plataformas."))
FOLLOW_UPS = ("ah, e o android tb", "*também", "pfv", "opa, mandei antes da hora", "e o lint?", "sem pressa")


def _split(rng: random.Random, m: int, pairs: bool = False) -> list[int]:
    """``m`` messages of tool steps as single calls (2 messages) and parallel pairs (3); with ``pairs``, as many
    pairs as fit."""
    out = []
    while m > 0:
        step = m if m in (2, 3) else 2 if m == 4 else 3 if pairs else rng.choice((2, 2, 3))
        out.append(step)
        m -= step
    return out


LONG_ASKS = {  # the careful, longer messages he sometimes writes (topic index: English, Portuguese)
    11: ("Ok so here's what I'm seeing: on the emulator the home list stutters when images load, but only after the app "
         "comes back from background. Can you run it, grab the logs and tell me if it's the image cache or the JS thread? "
         "No changes yet, I just want to understand it first.",
         "Seguinte: no android a lista da home engasga quando as imagens carregam, mas só depois que o app volta do "
         "background. Roda aí, pega os logs e me diz se é o cache de imagem ou a thread de JS? Não muda nada ainda, só "
         "quero entender primeiro."),
    0: ("Before I go to sleep: can you do a clean iOS build and tell me if anything new shows up in the warnings? I "
        "bumped two pods this afternoon and I don't trust it. If it's only the usual deprecations, just say so.",
        "Antes de dormir: faz um build limpo do iOS e me fala se apareceu warning novo? Atualizei dois pods hoje à tarde "
        "e não confio muito. Se for só as deprecações de sempre, só me avisa."),
    2: ("I changed a lot in the formatting utils today, mostly moving things around. Can you run the whole Jest suite "
        "and lint, and if something breaks tell me which file before fixing anything?",
        "Mexi bastante nos utils de formatação hoje, mais mudando coisa de lugar. Roda o jest inteiro e o lint, e se "
        "quebrar alguma coisa me fala qual arquivo antes de corrigir?"),
}


def _ask(rng: random.Random, topic: Topic) -> tuple[str, bool]:
    """His request: usually a few words from the phone, sometimes a line of the other language tacked on, now and
    then a long careful message."""
    pt = rng.random() < 0.58
    long = LONG_ASKS.get(TOPICS.index(topic))
    if long and rng.random() < 0.15:
        return long[1] if pt else long[0], pt
    text = _pick(rng, topic.asks_pt if pt else topic.asks_en)
    if rng.random() < 0.35:
        text += _pick(rng, (" asap pls", " thx", " no rush", " when you can") if pt else (" pfv", " quando der", " valeu", " blz?"))
    elif rng.random() < 0.1:
        text += " 🙏"
    return text, pt


def routine(b: _Builder, length: int) -> None:
    """One filler exchange of exactly ``length`` messages (2 or more), starting with him, ending with the agent."""
    rng = b.rng
    if length == 2:
        ask, answer = CHAT[rng.randrange(len(CHAT))] if len(b.msgs) > 1 else GREETINGS[rng.randrange(len(GREETINGS))]
        b.user(ask)
        b.say(answer)
        return
    if length == 3:
        questions = [c for c in CHAT if c[0].endswith("?") and c[0] not in b.asked]
        ask, answer = questions[rng.randrange(len(questions))] if questions else CHAT[-1]
        b.asked.add(ask)
        b.user(ask)
        b.user(_pick(rng, FOLLOW_UPS))
        b.say(answer)
        return
    unused = [t for t in COVER if t not in b.used]
    cover: tuple[int, Callable[[_Builder], Action]] | None = COVER[unused[0]] if unused else None
    topic = TOPICS[cover[0]] if cover else TOPICS[rng.randrange(len(TOPICS))]
    ask, pt = _ask(rng, topic)
    b.user(ask)
    for n, step in enumerate(_split(rng, length - 2, pairs=len(unused) > 1)):
        pool = topic.first if n == 0 else topic.then
        count = 1 if step == 2 else 2
        picks = rng.sample(range(len(pool)), count) if len(pool) >= count else [0]
        actions = [pool[i](b) for i in picks]
        if count == 2 and (len(actions) < 2 or actions[1][1] == actions[0][1]):  # two calls at once differ
            actions[1:] = [act_read_config(b)]
        unused = [t for t in COVER if t not in b.used]
        for slot in range(min(count, len(unused))):  # tools the session has not used yet come first
            actions[slot] = COVER[unused[slot]][1](b)
        lead = _pick(rng, ("", "", "Vou rodar primeiro.", "Olhando.", "Um segundo.") if pt else
                     ("", "", "Running it first.", "Checking.", "One sec."))
        _, ids = b.calls([(a[0], a[1]) for a in actions], lead)
        for cid, (name, _args, out) in zip(ids, actions):
            b.result(cid, name, out)
    b.say(_pick(rng, topic.done_pt if pt else topic.done_en))


# For each tool, a topic whose requests it answers and the action that uses it (so every session uses all tools).
# In the order they are brought in: the ones the planted episodes call least first.
COVER: dict[str, tuple[int, Callable[[_Builder], Action]]] = {
    "store_api": (6, act_store), "simulator": (11, act_sim_android), "browser": (8, act_docs), "search": (5, act_search),
    "write": (2, act_write), "patch": (5, lambda b: act_patch(b)), "read": (5, lambda b: act_read_code(b)), "shell": (0, act_ios)}


def _pair_calls(length: int) -> int:
    """Tool calls in an exchange of ``length`` messages made of as many parallel pairs as fit."""
    steps = length - 2
    if steps < 2:
        return 0
    return {2: 1, 3: 2, 4: 2}.get(steps, 2 + _pair_calls(steps - 1))


def fill(b: _Builder, gap: int) -> None:
    """Routine exchanges totalling exactly ``gap`` messages (0 or 2 and more)."""
    weights = ((2, 18), (3, 4), (4, 34), (5, 10), (6, 16), (7, 5), (8, 8), (10, 5))
    while gap > 0:
        options = [(n, w) for n, w in weights if n <= gap and gap - n != 1]
        if len(b.used) < len(TOOLS) and any(n >= 4 for n, _ in options):
            # the exchange that calls the most tools (calls of an exchange of n messages: n - 2 steps, pairs first)
            most = max(_pair_calls(n) for n, _ in options)
            options = [min(((n, w) for n, w in options if _pair_calls(n) == most), key=lambda o: o[0])]
        pick = b.rng.uniform(0, sum(w for _, w in options))
        length = options[-1][0]
        for n, w in options:
            pick -= w
            if pick <= 0:
                length = n
                break
        routine(b, length)
        gap -= length


# --- what others wrote and he pastes (never his rules) -----------------------------------------------------------
def paste_apple(rng: random.Random) -> tuple[str, str]:
    device = _pick(rng, ("iPad Air (5th generation)", "iPhone 13 mini", "iPad Pro (12.9-inch) (6th generation)"))
    variants = (
        "Guideline 2.1 - Performance - App Completeness\n\nWe discovered one or more bugs in your app. Specifically, your app "
        f"crashed on launch when we tapped \"Entrar com Apple\".\n\nReview device details:\n\n- Device type: {device}\n"
        "- OS version: iPadOS 17.4\n\nNext Steps\n\nTest your app on supported devices to identify and resolve bugs and "
        "stability issues before submitting for review. You must make sure the app runs on iPad even if it is an iPhone "
        "app, because iPhone apps run on iPad in compatibility mode.\n\nResources\n\n- For information about testing "
        "apps and preparing them for review, see Testing a Release Build.\n- To learn about troubleshooting networking "
        "issues, see Networking Overview.",
        "Guideline 4.3(a) - Design - Spam\n\nWe noticed your app shares a similar binary, metadata, and/or concept as apps "
        "previously submitted by a terminated Apple Developer Program account.\n\nNext Steps\n\nSubmitting apps that "
        "share a similar binary, metadata, or concept as apps belonging to terminated developer accounts is considered "
        "a form of manipulation. Please do not resubmit this app until you have reviewed the guideline. You should "
        "provide details in the Review Notes about what makes your app unique.",
        "Guideline 2.3.10 - Performance - Accurate Metadata\n\nWe noticed that your app or its metadata includes "
        "irrelevant third-party platform information. Specifically, your screenshots show an Android status bar.\n\n"
        f"Review device details:\n\n- Device type: {device}\n\nNext Steps\n\nYou must remove all third-party platform "
        "references from your app and its metadata, including the screenshots, before resubmitting. Make sure the "
        "screenshots accurately reflect the app in use on the supported Apple devices.")
    intro = _pick(rng, ("olha o que a Apple mandou 🙄", "apple rejected us again. this is what they wrote:",
                        "recusaram de novo, segue a mensagem:"))
    return intro, _pick(rng, variants)


def paste_figma(rng: random.Random) -> tuple[str, str]:
    frame = _pick(rng, ("Home / Banner v2", "Perfil / Editar", "Busca / Resultados vazios"))
    return (_pick(rng, ("a Bia mandou o handoff:", "handoff from Bia, fyi:", "notas da Bia no Figma:")),
            f"Handoff — frame \"{frame}\" (Figma, page Mobile v3)\n\n"
            "- Títulos: Inter SemiBold 20/28, cor text/primary. Não usar bold no corpo.\n"
            "- Espaçamento: grid de 8pt, padding lateral 20. Please keep the 8pt grid everywhere, no 10s or 14s.\n"
            "- Botão primário: #E4572E, pressed #C7441F, disabled com 40% de opacidade.\n"
            "- Sombras: no iOS shadow 0/4/12 a 8%; no Android use elevation 2, não tenta imitar a sombra do iOS.\n"
            "- Ícones: sempre os do set Phosphor, 24px, stroke regular.\n"
            "- Estado vazio: ilustração centralizada, texto no máximo 2 linhas. Make sure it never scrolls.\n"
            "- Dark mode: usar os tokens, nunca hex direto.\n\nQualquer dúvida me chama! — Bia")


def paste_qa(rng: random.Random) -> tuple[str, str]:
    v = _version(rng)
    return (_pick(rng, ("QA abriu isso:", "Júlio from QA filed this:", "bug do Júlio, vê aí")),
            f"[BUG] Lista de favoritos some depois de trocar o tema\nBuild: {v}\n"
            f"Device: {_pick(rng, ('iPhone 12 / iOS 17.3', 'Galaxy S21 / Android 14', 'Pixel 7 / Android 14'))}\n"
            "Passos:\n1. Entrar com conta que tem favoritos\n2. Ir em Configurações > Aparência\n3. Trocar pro tema escuro\n"
            "4. Voltar pra Home e abrir Favoritos\nEsperado: favoritos continuam lá\nAtual: lista vazia até matar o app\n"
            "Severidade: média\nFrequência: 5/5\n\nFavor corrigir antes do próximo release e anexar vídeo da correção no "
            "ticket. Não fechar sem passar pelo QA.")


def paste_review(rng: random.Random) -> tuple[str, str]:
    variants = ("★☆☆☆☆  \"Não consigo nem abrir\"\nMarcia_SP · App Store\n\nDepois da atualização o app fecha sozinho "
                "quando abro a aba de perfil. Vocês precisam testar antes de lançar!!! Arrumem isso urgente, uso todo dia. "
                "Vou voltar pro concorrente se continuar assim.",
                "★☆☆☆☆  \"slow and keeps logging me out\"\nd.okafor · Google Play\n\nEvery time I switch apps I have to log "
                "in again. You should fix this before adding more features. Also the search takes forever on my phone. "
                "Uninstalled.")
    return _pick(rng, ("look at this review lol", "review de 1 estrela de hoje:", "mais uma review dessas 😩")), _pick(rng, variants)


def paste_slack(rng: random.Random) -> tuple[str, str]:
    return (_pick(rng, ("Caio no slack:", "from Caio (backend):", "o Caio mandou isso:")),
            f"Caio Mendes  {rng.randint(9, 18)}:{rng.randint(10, 59)}\n@rafael heads up: vou subir o /v2/orders hoje à noite. "
            "vocês precisam mandar o header X-App-Version em toda request a partir de amanhã, senão o gateway responde 426. "
            "also please stop calling /v1/profile on every focus, it's hammering the db. me avisa quando o app tiver "
            "isso em produção que eu desligo o v1 🙏")


def paste_sentry(rng: random.Random) -> tuple[str, str]:
    events = rng.randint(40, 400)
    return (_pick(rng, ("chegou esse email do Sentry:", "sentry is yelling:", "email do Sentry agora há pouco")),
            f"[Sentry] New issue: TypeError: undefined is not an object (evaluating 'user.addresses.length')\n"
            f"Project: pitanga-web-admin · Environment: production · Release: admin@{rng.randint(40, 90)}\n\n"
            f"Events: {events} · Users: {events // 2}\nFirst seen: {rng.randint(1, 9)} hours ago\n\n"
            "Stack trace\n  at AddressList (src/components/AddressList.tsx:31:18)\n  at renderWithHooks (react-dom.production.min.js)\n\n"
            "You should resolve this issue or assign it to a teammate. Review the suspect commits before the next deploy.\n"
            "Manage your notification settings: https://sentry.io/settings/account/notifications/")


PASTES = (paste_apple, paste_figma, paste_qa, paste_review, paste_slack, paste_sentry)
PASTE_REPLIES = ("Entendi. Resumo do que pedem e o que dá pra fazer hoje: dá pra resolver sem mexer no nativo, só no JS. Quer que eu comece?",
                 "Got it. Most of it is on our side; I can start with the smallest change and we re-test on a real device.",
                 "Vi. Não muda nada do que combinamos, só entra na fila. Quer que eu abra uma tarefa pra isso?")


def pasted(b: _Builder, make: Callable[[random.Random], tuple[str, str]]) -> None:
    """He pastes something somebody else wrote (``make`` draws it); the agent reads it."""
    for _ in range(60):
        intro, body = make(b.rng)
        if b.clean(intro + body):
            break
    else:
        raise _Dirty(body[:200])
    outro = _pick(b.rng, ("", "\n\no que acha?", "\n\nwhat do they want exactly?", "\n\ndá pra ver isso hoje?"))
    index = b.user(f"{intro}\n\n{body}{outro}")
    b.pasted.append((index, body))
    tool, look = PASTE_LOOKS[PASTES.index(make)]
    if tool not in b.used or b.rng.random() < 0.35:  # the agent looks something up about it first
        name, args, out = look(b)
        _, cid = b.call(name, args, _pick(b.rng, ("Deixa eu ver uma coisa antes.", "Let me check something first.")))
        b.result(cid, name, out)
    b.say(_pick(b.rng, PASTE_REPLIES))


def _asc_look(b: _Builder) -> Action:
    size = b.want(0.7)
    return "store_api", {"service": "app_store_connect", "query": "builds", "limit": 50}, b.draw(lambda: asc_builds(b.rng, size))


# What the agent looks at about each pasted source (same order as PASTES), and the tool that does it.
PASTE_LOOKS: tuple[tuple[str, Callable[[_Builder], Action]], ...] = (
    ("store_api", _asc_look), ("read", lambda b: act_read_code(b)), ("simulator", act_sim_ios),
    ("browser", act_crashlytics), ("search", act_search), ("search", act_search))


# --- planted facts -------------------------------------------------------------------------------------------------
@dataclass
class Plant:
    """A fact to plant: its value, how its episode is told, and where it landed."""

    kind: str
    value: str
    query: str
    tell: Callable[[_Builder, Plant], int]  # builds the episode, returns the index of the message holding the value
    stale: str | None = None
    tell_stale: Callable[[_Builder, Plant], int] | None = None  # his earlier message with the stale value
    rerun: Callable[[_Builder, Plant], int] | None = None  # a later run of the same command, without the error
    data: dict[str, Any] = field(default_factory=dict)
    index: int = -1
    stale_index: int | None = None
    resolved: int | None = None


def _told(text: str, reply: str, then: Callable[[_Builder], Action] | None = None) -> Callable[[_Builder, Plant], int]:
    """His message, optionally the request in it carried out with one tool call, then the agent's answer."""
    def tell(b: _Builder, _p: Plant) -> int:
        index = b.user(text)
        if then is not None:
            name, args, out = then(b)
            _, cid = b.call(name, args)
            b.result(cid, name, out)
        b.say(reply)
        return index
    return tell


def _swap(rng: random.Random, digits: str) -> str | None:
    """The same digits with two differing neighbours swapped (never the first digit), or None if there are none."""
    spots = [i for i in range(1, len(digits) - 1) if digits[i] != digits[i + 1]]
    if not spots:
        return None
    i = spots[rng.randrange(len(spots))]
    return digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]


def _choose(rng: random.Random, pool: tuple[str, ...]) -> str:
    return pool[rng.randrange(len(pool))]


def instructions(rng: random.Random) -> list[Callable[[], Plant]]:
    """His standing rules in many phrasings (the adopted documents are added separately)."""
    def make(pool: tuple[str, ...], query: str, text: str, reply: str,
             then: Callable[[_Builder], Action] | None = None) -> Callable[[], Plant]:
        def plant() -> Plant:
            v = _choose(rng, pool)
            return Plant("instruction", v, query, _told(text.format(v=v), reply.format(v=v), then))
        return plant

    return [
        make(("15.1", "15.4", "16.2"), "What is the lowest iOS version the app may target?",
             "btw min iOS is {v}, don't go lower even if some pod asks for it",
             "Got it: deployment target stays at iOS {v} or above, and I'll push back on pods that want less."),
        make(("gif do fluxo", "print do antes e depois", "vídeo curtinho do simulador"),
             "What should every pull request include before he reviews it?",
             "seria ótimo se todo PR tivesse {v}, fica bem mais fácil revisar pelo celular",
             "Combinado, todo PR vai com {v}."),
        make(("private API calls", "swizzling of UIKit internals", "dynamic framework downloads"),
             "What did he ban outright because App Review dislikes it?",
             "the reviewers hate it, so no {v} ever. not even behind a flag, not even in debug",
             "Understood: no {v}, in any build."),
        make(("plog()", "devLog()", "trace.say()"), "Which helper must all app logging go through?",
             "run the android build pls. oh and from now on every log goes through {v}, no raw console.log in PRs",
             "Android build is done. And noted: logging only through {v} from now on.", act_android),
        make(("bitcode desligado", "source map do Hermes anexado", "log de build arquivado"),
             "What must every release build have, by his rule?",
             "a partir de agora, todo build de release com {v}. sem exceção",
             "Beleza: todo build de release com {v}."),
        make(("Pixel 6a", "Galaxy A14", "Moto G54"), "Which Android phone does he test on?",
             "I test on a {v} so keep Android perf in mind, that thing is sloooow",
             "Noted, I'll keep the {v} in mind for anything heavy on Android."),
        make(("build_flavor", "release_channel", "js_bundle_hash"),
             "Which Crashlytics custom key must always be set at startup?",
             "o Crashlytics vira bagunça sem isso, então sempre seta a custom key {v} logo no boot",
             "Ok, a custom key {v} vai no boot, nos dois apps."),
        make(("sexta-feira", "véspera de feriado"), "On which day must releases never go out?",
             "pode fazer o merge. but never ship on {v}, se der ruim ninguém tá olhando",
             "Vou preparar o merge. E anotado: nada de release em {v}."),
        make(("NATIVE_CHANGES.md", "docs/native-log.md"), "Where must every native change be recorded?",
             "One thing I want to be strict about, because it bit us last year: any change under ios/ or android/ needs "
             "an entry in {v}. No exceptions, even one-line fixes, even if it's only a Podfile bump.",
             "Understood. Every native change gets an entry in {v}, however small."),
        make(("7% staged rollout", "3% staged rollout"), "How should each Play Store release start rolling out?",
             "would be nice if every Play release started as a {v}, then we look at vitals",
             "Makes sense, every Play release starts as a {v}."),
        make(("300 linhas", "250 linhas"), "How large may a pull request be at most?",
             "eu reviso tudo pelo celular, então nada de PR com mais de {v} pfv",
             "Fechado, PR de até {v}; se passar eu quebro em dois."),
        make(("cart-checkout-btn", "home-hero-banner"), "What format must testIDs follow?",
             "obs: testID sempre em kebab-case com o prefixo da tela, tipo {v}",
             "Ok, testID no formato {v} daqui pra frente."),
        make(("i18n.t()", "useT()"), "How must user-facing strings be written?",
             "also, strings: nothing hardcoded in pt-BR anymore, everything goes through {v}",
             "Got it, every string through {v}."),
    ]


CHECKLIST = ("Release branch cut from main as release/<versão>. Depois do corte só entra bugfix.",
             "CHANGELOG.md atualizado com tudo que o usuário percebe, em pt-BR.",
             "Jest, tsc e lint verdes no CI; Detox verde no iOS e no Android.",
             "Smoke test em aparelho físico: login, busca, carrinho, perfil.",
             "dSYMs e mapping.txt conferidos no Crashlytics antes de liberar.",
             "Release notes revisadas nas duas línguas.",
             "Depois de liberar: olhar Crashlytics e vitals por 48h antes de aumentar o rollout.")
CONVENTIONS = ("TypeScript strict. Nada de any sem comentário explicando o porquê.",
               "Componentes em PascalCase, hooks começam com use, um componente por arquivo.",
               "Estilos com StyleSheet.create; inline só pra valor dinâmico.",
               "Rede só via src/api/client.ts, nunca axios direto na tela.",
               "Testes de unidade ao lado do código, em __tests__.",
               "Nada de regra de negócio em módulo nativo; o nativo só expõe a API da plataforma.",
               "Descrição de PR com o porquê, não só o quê.")


def adopted_doc(rng: random.Random, which: int) -> Plant:
    """The studio's release checklist (0) or code conventions (1), pasted and adopted as his; one rule is planted."""
    if which == 0:
        v = _choose(rng, ("yarn bump:native", "fastlane bump_all", "scripts/bump.sh"))
        rule = f"Bump de versão só com `{v}`; nunca editar versionCode nem CURRENT_PROJECT_VERSION na mão."
        title, rules = "Pitanga — release checklist (v4)", list(CHECKLIST)
        query = "How must version numbers be bumped according to the release checklist?"
        intro = _choose(rng, ("this is how we ship from now on:", "achei o checklist de release, isso aqui vale a partir de agora:"))
    else:
        v = _choose(rng, ("150 KB", "120 KB", "80 KB"))
        rule = f"Imagem com mais de {v} vai pro CDN, nunca pro bundle."
        title, rules = "Pitanga — code conventions", list(CONVENTIONS)
        query = "Above what size must images be served from the CDN instead of the bundle?"
        intro = _choose(rng, ("nossas convenções de código, segue isso sempre:", "code conventions, this is how we write code from now on:"))
    at = rng.randint(3, len(rules) - 3)
    rules.insert(at, rule)
    doc = title + "\n\n" + "\n".join(f"{i}. {r}" for i, r in enumerate(rules, 1))
    outro = _choose(rng, ("isso aqui vale a partir de agora, blz?", "from now on this is the rule, ok?", "vale pra tudo daqui pra frente"))
    reply = f"Combinado, sigo isso a partir de agora. Destaque pra regra {at + 1}: {rule}"
    return Plant("instruction", v, query, _told(f"{intro}\n\n{doc}\n\n{outro}", reply), data={"doc": doc})


def corrections(rng: random.Random) -> list[Callable[[], Plant]]:
    """A value he gave, corrected later and loosely; most are near misses of what they replace."""
    def make(pair: Callable[[], tuple[str, str]], query: str, said: str, fixed: str, ack: str) -> Callable[[], Plant]:
        def plant() -> Plant:
            s, v = pair()
            p = Plant("correction", v, query, _told(fixed.format(v=v, s=s), ack.format(v=v, s=s)), stale=s)
            p.tell_stale = _told(said.format(s=s), _choose(rng, ("Anotado.", "Ok, noted.", "Beleza.", "👍 anotado")))
            return p
        return plant

    def digits(lo: int, hi: int) -> tuple[str, str]:
        while True:
            d = str(rng.randint(lo, hi))
            swapped = _swap(rng, d)
            if swapped is not None:
                return d, swapped

    def team() -> tuple[str, str]:
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        t = "".join(alphabet[rng.randrange(len(alphabet))] for _ in range(10))
        i = rng.randrange(2, 9)
        c = alphabet[(alphabet.index(t[i]) + 1 + rng.randrange(len(alphabet) - 1)) % len(alphabet)]
        return t, t[:i] + c + t[i + 1:]

    def years() -> tuple[str, str]:
        a, b = rng.sample(range(2019, 2025), 2)
        return f"~/keys/pitanga-upload-{a}.jks", f"~/keys/pitanga-upload-{b}.jks"

    def version() -> tuple[str, str]:
        a = rng.randint(0, 5)
        return f"2.8.{a}", f"2.8.{a + rng.randint(1, 3)}"

    def ticket() -> tuple[str, str]:
        a, b = digits(6000, 9999)
        return f"PIT-{a}", f"PIT-{b}"

    h = _hex(rng, 4)
    return [
        make(lambda: rng.choice(((f"{BUNDLE}.HomeWidget", f"{BUNDLE}.homewidget"), (f"{BUNDLE}.OrderWidget", f"{BUNDLE}.OrdersWidget"))),
             "What is the widget extension's bundle id?",
             "o bundle id da extensão do widget vai ser {s}, cria o target com esse",
             "ops, o bundle id do widget é {v} não {s}", "Corrigido: o target do widget fica com {v}."),
        make(lambda: digits(1000, 4999), "Which TestFlight build has the login crash?",
             "o build {s} no TestFlight tá com o crash do login, dá uma olhada depois",
             "wrong build number, {v} not {s}", "Ok, build {v} then."),
        make(years, "Which keystore must sign release builds?", "use the keystore at {s} for release signing",
             "no wait, the other keystore — {v}. {s} is the old one", "Switched the release signing to {v}."),
        make(lambda: (f"pitanga-prod-{h}", f"pitanga-stg-{h}"), "Which Firebase project should the debug build point to?",
             "aponta o google-services do debug pro projeto {s}", "I meant the staging Firebase project, {v}",
             "Right, debug points to {v}."),
        make(lambda: rng.choice((("api-stg.pitanga.app", "stg-api.pitanga.app"), ("staging-api.pitanga.app", "api-staging.pitanga.app"))),
             "What is the staging API host?", "the staging API is at {s}, point the debug env there",
             "typo earlier, staging is {v}", "Updated .env.staging to {v}."),
        make(team, "What is the Apple Team ID?", "nosso Team ID é {s}, se precisar pro match",
             "errei o team id, é {v}", "Valeu, Team ID {v} no Appfile."),
        make(version, "What version number will the next release have?",
             "a próxima versão vai ser {s}, já deixa o changelog com esse número",
             "a versão é {v}, não {s}, confundi", "Changelog ajustado pra {v}."),
        make(lambda: rng.choice((("Beta Amigos", "Amigos Beta"), ("Lojas Piloto", "Piloto Lojas"))),
             "Which TestFlight group should the testers be in?", "put the testers in the TestFlight group {s}",
             "actually the group is {v}, the other one doesn't exist", "Ok, group {v}."),
        make(lambda: rng.choice((("internal-qa", "qa-internal"), ("closed-sp", "sp-closed"))),
             "Which Play Console track does the aab go to?", "joga o aab no track {s}",
             "{v}, não {s}. foi mal", "Sem problema, vai pro {v}."),
        make(ticket, "Which ticket is this work tracked under?",
             "isso é do ticket {s}", "ticket errado kkk é o {v}", "Ok, linkei o {v}."),
        make(lambda: digits(6_400_000_000, 6_499_999_999), "What is the app's Apple ID in App Store Connect?",
             "o Apple ID do app no ASC é {s}", "opa, troquei dois dígitos: {v}", "Anotado, {v}."),
        make(lambda: rng.choice((("#mobile-alerts", "#alerts-mobile"), ("#releases-app", "#app-releases"))),
             "Which Slack channel receives the Crashlytics alerts?", "manda os alertas do Crashlytics pro canal {s}",
             "canal errado, é {v}", "Ok, alertas pro {v}."),
        make(lambda: ("links.pitanga.app", "link.pitanga.app"), "What is the universal links domain?",
             "o domínio dos universal links é {s}, configura o apple-app-site-association", "é {v}, sem o s. foi mal",
             "Ok, associated domains com {v}."),
    ]


DECISION_SUBJECTS = (("React Navigation 7", "Expo Router", "navegação", "navigation", "Which navigation approach did he settle on?"),
                     ("Zustand", "Jotai", "estado global", "global state", "Which library holds the app's global state?"),
                     ("MMKV", "WatermelonDB", "storage local", "local storage", "What will local persistence use?"),
                     ("CodePush", "EAS Update", "OTA", "OTA updates", "How will over-the-air updates ship?"),
                     ("FastImage", "expo-image", "imagens", "image loading", "Which image component will the app use?"),
                     ("FlashList", "LegendList", "listas longas", "long lists", "Which list component replaces the big lists?"),
                     ("react-hook-form", "Formik", "formulários", "forms", "Which forms library did he pick?"),
                     ("RevenueCat", "StoreKit 2 na mão", "assinaturas", "subscriptions", "How will in-app subscriptions be handled?"),
                     ("OneSignal", "Notifee", "notificações", "notifications", "Which notifications library did he choose?"),
                     ("Lottie", "Rive", "animações do onboarding", "the onboarding animations", "What will the onboarding animations be built with?"),
                     ("Bitrise", "Codemagic", "CI", "CI", "Which CI service will build the apps?"),
                     ("Amplitude", "PostHog", "analytics", "analytics", "Which analytics tool was chosen?"))
DECIDE = ("bora de {v} pra {pt} então", "ok, {v} for {en}. not discussing this again lol", "fechado: {v} pra {pt}",
          "decidi: {pt} vai de {v}. o outro dá trabalho demais com a new arch",
          "let's go with {v} for {en}, I'll eat the migration cost", "pode seguir com {v} pra {pt}")
FIRST = ("vamos de {s} pra {pt} por enquanto", "let's use {s} for {en} for now", "acho que {s} resolve {pt}, começa por ele")
REVISE = ("mudei de ideia: {v} em vez de {s}", "scratch {s}, we're going with {v}", "esquece o {s}. {v}, tá decidido",
          "on second thought, {v}. {s} was a mistake for {en}")


def decision(rng: random.Random, subject: tuple[str, ...] | None, revised: bool) -> Plant:
    """A choice he makes; ``revised`` ones replace an earlier choice of his (the stale value)."""
    if subject is None:  # the hotfix call
        v = f"2.{rng.choice((7, 9))}.{rng.randint(1, 9)}"
        text = _choose(rng, ("ok, ship {v} as a hotfix, no new features", "bora soltar a {v} como hotfix, sem feature nova"))
        return Plant("decision", v, "Which version goes out as the hotfix?",
                     _told(text.format(v=v), f"Ok: {v} only with the fixes, I'll branch it from the last release tag."))
    a, b2, pt, en, query = subject
    if not revised:
        v = rng.choice((a, b2))
        text = _choose(rng, DECIDE).format(v=v, pt=pt, en=en)
        return Plant("decision", v, query, _told(text, _choose(rng, (f"Fechado, {v}.", f"Ok, {v} it is.", f"Beleza, sigo com {v}."))))
    p = Plant("decision", b2, query, _told(_choose(rng, REVISE).format(v=b2, s=a, en=en), f"Ok, trocando pra {b2}."), stale=a)
    p.tell_stale = _told(_choose(rng, FIRST).format(s=a, pt=pt, en=en), f"Ok, começo com {a}.")
    return p


PLAN_STEPS = (("trocar o splash animado por um PNG estático", "What did he plan to do with the splash screen?", True),
              ("put the new checkout behind a remote config flag", "How is the new checkout gated in his plan?", False),
              ("gravar os vídeos de preview no iPhone 15 Pro Max", "Which step of his plan covers the store preview videos?", True),
              ("move the QR decoding off the JS thread", "What does his plan say about QR decoding?", False),
              ("congelar a branch release/3.0 na quinta", "When does his plan freeze the release branch?", True),
              ("ship the Android build to closed testing first", "Where does the Android build go first in his plan?", False),
              ("migrar as fontes pra expo-font", "What does his plan do about the fonts?", True),
              ("rodar o Detox em três simuladores em paralelo", "How does his plan run the e2e tests?", True),
              ("drop the v1 cart endpoints once 95% are on 3.x", "When do the old cart endpoints go away in his plan?", False),
              ("pedir pro Caio versionar a API de frete", "What does his plan ask of the backend dev?", True),
              ("add a kill switch for the stamp card", "What safety measure for the loyalty feature is in his plan?", False),
              ("revisar os textos de permissão com a Bia", "What review with the designer is in his plan?", True),
              ("lazy-load the map SDK to get under 40 MB", "How does his plan cut the app's download size?", False))
PLAN_FILLER_PT = ("rodar a suíte de e2e", "subir beta pro TestFlight", "avisar o Caio do backend", "atualizar o changelog",
                  "checar o Crashlytics no dia seguinte", "fazer o bump de versão")
PLAN_FILLER_EN = ("run the e2e suite", "smoke test on a real device", "tag the release", "update the store screenshots",
                  "write the release notes", "bump the version")


def plan(rng: random.Random, planted: tuple[str, str, bool]) -> Plant:
    """A plan he lays out; the planted step sits among ordinary ones."""
    step, query, pt = planted
    others = rng.sample(PLAN_FILLER_PT if pt else PLAN_FILLER_EN, 3)
    shape = rng.randrange(3)
    if shape == 0:
        steps = others[:1] + [step] + others[1:]
        head = _choose(rng, ("plano pra essa semana:", "ok, plano:", "the plan for the release:", "então, plano:"))
        text = head + "\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1)) + "\n" + _choose(rng, ("bora?", "makes sense?", "fechou?"))
    elif shape == 1:
        steps = others[:2] + [step] + others[2:]
        text = _choose(rng, ("here's how I want to do it:", "como eu quero fazer:")) + "\n" + "\n".join(f"- {s}" for s in steps)
    elif pt:
        text = f"primeiro {others[0]}, depois {step}, e só então {others[1]}. fechou?"
    else:
        text = f"first {others[0]}, then {step}, and only then {others[1]}. sound ok?"
    return Plant("plan", step, query,
                 _told(text, _choose(rng, ("Faz sentido. Começo pelo primeiro item.", "Sounds good, starting with step one.",
                                           f"Ok. O ponto mais chato é \"{step}\", deixo isso preparado."))))


ARCHIVE_CMD = ("cd ios && xcodebuild -workspace Pitanga.xcworkspace -scheme Pitanga -configuration Release archive "
               "-archivePath build/Pitanga.xcarchive 2>&1 | tail -n 600")
FIX_LINES = {".swift": ("        guard let request = pending else { return }", "        guard let request = pending, request.isValid else { return }"),
             ".kt": ("        val value = options.getString(\"key\")", "        val value = options.getString(\"key\") ?: return"),
             ".pbxproj": ("\t\t\t\tCODE_SIGN_STYLE = Manual;", "\t\t\t\tCODE_SIGN_STYLE = Automatic;"),
             ".plist": ("\t<key>UILaunchStoryboardName</key>", "\t<key>UILaunchStoryboardName</key>\n+\t<!-- purpose strings reviewed -->"),
             ".gradle": ("    implementation(\"com.google.mlkit:barcode-scanning:17.2.0\")", "    implementation(\"com.google.mlkit:barcode-scanning:17.3.0\")"),
             "Podfile": ("platform :ios, min_ios_version_supported", "platform :ios, '15.0'"),
             ".m": ("RCT_EXTERN_METHOD(open:(NSDictionary *)options)", "RCT_EXTERN_METHOD(open:(NSDictionary *)options resolver:(RCTPromiseResolveBlock)resolve rejecter:(RCTPromiseRejectBlock)reject)"),
             ".ts": ("  return value;", "  return value ?? '';")}


def fix_diff(rng: random.Random, path: str) -> str:
    ext = next((e for e in FIX_LINES if path.endswith(e)), ".ts")
    old, new = FIX_LINES[ext]
    line = rng.randint(12, 240)
    return f"--- a/{path}\n+++ b/{path}\n@@ -{line},4 +{line},4 @@\n-{old}\n+{new}\n"


@dataclass(frozen=True)
class Failure:
    """How one planted error shows up: the command, its failing output around the line, its passing output."""

    value: str
    query: str
    tool: str
    args: dict[str, Any]
    asks: tuple[str, ...]
    lines: tuple[str, ...]  # the value and its neighbours, put where the body's NUL line is
    body: Callable[[_Builder, int], str]
    ok: Callable[[_Builder, int], str]
    fix: str  # the file the agent patches before running it again


def failures(rng: random.Random) -> list[Callable[[], Failure]]:
    r = rng

    def swift() -> Failure:
        f = _choose(r, ("Checkout/ApplePayCoordinator.swift", "Notifications/RichPushHandler.swift", "Bridges/WalletBridge.swift", "Widgets/TimelineProvider.swift"))
        msg, src = r.choice((("value of type 'PKPaymentRequest' has no member 'merchantCapability'", "request.merchantCapability = .capability3DS"),
                             ("cannot find 'RCTPromiseResolveBlock' in scope", "resolver resolve: @escaping RCTPromiseResolveBlock,"),
                             ("missing argument for parameter 'completion' in call", "store.refresh(reason: .push)"),
                             ("'async' call in a function that does not support concurrency", "let content = await render(entry)")))
        value = f"{ROOT}/ios/Pitanga/{f}:{r.randint(20, 300)}:{r.randint(5, 40)}: error: {msg}"
        cmd = f"SwiftCompile normal arm64 {ROOT}/ios/Pitanga/{f} (in target 'Pitanga' from project 'Pitanga')"
        return Failure(value, "Which Swift compiler error broke the iOS build?", "shell", {"cmd": IOS_CMD},
                       ("roda o build ios, mexi no nativo", "ios build pls, touched the Swift side"),
                       (value, f"        {src}", "        ^"),
                       lambda b, n: xcode_log(b.rng, n, fail=cmd, mark=True), lambda b, n: xcode_log(b.rng, n), f"ios/Pitanga/{f}")

    def linker() -> Failure:
        c = _choose(r, ("PTWalletPassSigner", "PTCourierTracker", "PTCardScanner"))
        value = f"error: Undefined symbol: _OBJC_CLASS_$_{c}"
        cmd = f"Ld {ROOT}/ios/build/Build/Products/Debug-iphonesimulator/Pitanga.app/Pitanga normal (in target 'Pitanga' from project 'Pitanga')"
        return Failure(value, "Which symbol could the linker not find?", "shell", {"cmd": IOS_CMD},
                       ("build ios de novo pfv", "can you build iOS? added the new native module"),
                       ("Undefined symbols for architecture arm64:", f"  \"_OBJC_CLASS_$_{c}\", referenced from:",
                        f"      in {c}Module.o", value, "ld: symbol(s) not found for architecture arm64",
                        "clang: error: linker command failed with exit code 1 (use -v to see invocation)"),
                       lambda b, n: xcode_log(b.rng, n, fail=cmd, mark=True), lambda b, n: xcode_log(b.rng, n),
                       "ios/Pitanga.xcodeproj/project.pbxproj")

    def gradle_task() -> Failure:
        task, why = r.choice(((":app:checkReleaseDuplicateClasses", "> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckDuplicatesRunnable"),
                              (":app:minifyReleaseWithR8", "> Compilation failed to complete, origin: classes.dex"),
                              (":app:processReleaseMainManifest", "> Manifest merger failed with multiple errors, see logs"),
                              (":app:lintVitalAnalyzeRelease", "> Lint found fatal errors while assembling a release target.")))
        value = f"Execution failed for task '{task}'."
        return Failure(value, "Which Gradle task failed in the release build?", "shell", {"cmd": RELEASE_CMD},
                       ("gera o aab de release", "build the release bundle pls"), (value, why),
                       lambda b, n: gradle_log(b.rng, n, variant="Release", fail=["\x00"]),
                       lambda b, n: gradle_log(b.rng, n, variant="Release"), "android/app/build.gradle")

    def kotlin() -> Failure:
        path, name = r.choice((("pix/PixKeyFormatter.kt", "setPixKey"), ("wallet/GooglePayLauncher.kt", "PaymentsClient"),
                               ("tracking/CourierLocationService.kt", "FusedLocationProviderClient")))
        value = f"e: file://{ROOT}/{KT_ROOT}/{path}:{r.randint(12, 180)}:{r.randint(5, 40)} Unresolved reference: {name}"
        fail = ["Execution failed for task ':app:compileDebugKotlin'.",
                "> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction",
                "   > Compilation error. See log for more details"]
        return Failure(value, "Which Kotlin compile error broke the Android build?", "shell", {"cmd": ANDROID_CMD},
                       ("roda o android", "android build? mexi no kotlin"), (value,),
                       lambda b, n: gradle_log(b.rng, n, fail=fail, mark=True), lambda b, n: gradle_log(b.rng, n), f"{KT_ROOT}/{path}")

    def jest() -> Failure:
        suite, title, case, exp, got = r.choice((("src/features/cart/__tests__/FreteCalc.test.ts", "FreteCalc", "is free above R$ 99", "0", "9.9"),
                                                 ("src/features/checkout/__tests__/PixTimer.test.tsx", "PixTimer", "expires after 15 minutes", "\"expired\"", "\"pending\""),
                                                 ("src/features/coupons/__tests__/CouponMath.test.ts", "CouponMath", "caps the discount at 50%", "50", "62.5")))
        value = f"FAIL {suite}"
        return Failure(value, "Which Jest suite failed?", "shell", {"cmd": JEST_CMD},
                       ("roda os testes", "run jest, I changed the cart math"),
                       (value, f"  ● {title} › {case}", "", "    expect(received).toBe(expected) // Object.is equality", "",
                        f"    Expected: {exp}", f"    Received: {got}", "", f"      at Object.toBe ({suite}:{r.randint(10, 90)}:{r.randint(8, 30)})"),
                       lambda b, n: jest_log(b.rng, n, fail=suite, mark=True),
                       lambda b, n: jest_log(b.rng, n, suites=JEST_SUITES + (suite,)), suite.replace("__tests__/", "").replace(".test", ""))

    def tsc() -> Failure:
        path = _choose(r, ("src/features/coupons/CouponInput.tsx", "src/features/checkout/AddressForm.tsx", "src/features/cart/CartSummary.tsx"))
        line = r.randint(20, 160)
        value = f"{path}({line},{r.randint(5, 40)}): error TS2322: Type 'string | undefined' is not assignable to type 'string'."
        return Failure(value, "What type error did tsc report?", "shell", {"cmd": "yarn tsc --noEmit"},
                       ("roda o tsc", "typecheck pls"), (value,),
                       lambda b, n: f"yarn run v1.22.19\n$ tsc --noEmit\n\x00\n\nFound 1 error in {path}:{line}\n\nerror Command failed with exit code 2.",
                       lambda b, n: f"yarn run v1.22.19\n$ tsc --noEmit\n✨  Done in {b.rng.uniform(14, 40):.2f}s.", path)

    return [swift, linker, gradle_task, kotlin, jest, tsc] + failures_runtime(rng)


def failures_runtime(rng: random.Random) -> list[Callable[[], Failure]]:
    r = rng

    def ios_exception() -> Failure:
        cls, sel, scenario = r.choice((("PTCheckoutBridge", "setAmountCents:", "checkout with Pix"),
                                       ("RCTPixSheetManager", "presentWithPayload:", "open Pix sheet"),
                                       ("PTCourierMapView", "setRoutePolyline:", "track delivery")))
        value = (f"*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: '-[{cls} {sel}]: "
                 f"unrecognized selector sent to instance 0x6000{_hex(r, 8)}'")
        args = {"platform": "ios", "device": "iPhone 15", "action": "run", "scenario": scenario}
        return Failure(value, "What uncaught exception crashed the iOS app?", "simulator", args,
                       (f"roda o fluxo '{scenario}' no simulador", f"run '{scenario}' on the sim pls"),
                       (value, "*** First throw call stack:",
                        "(0x1804ae0f8 0x180087db4 0x1804c2f48 0x1804b25a0 0x1804b3a1c 0x104f2a1b8 0x104f29e50 0x180175b8c)",
                        "libc++abi: terminating due to uncaught exception of type NSException"),
                       lambda b, n: ios_console(b.rng, n, mark=True), lambda b, n: ios_console(b.rng, n), f"ios/Pitanga/Bridges/{cls}.m")

    def android_fatal() -> Failure:
        exc, scenario = r.choice(((f"java.lang.IllegalStateException: Fragment PaymentSheetFragment{{{_hex(r, 7)}}} not attached to a context.", "pay with card"),
                                  ("java.lang.NullPointerException: Attempt to invoke virtual method 'int android.graphics.Bitmap.getWidth()' on a null object reference", "share receipt"),
                                  ("java.lang.UnsatisfiedLinkError: dlopen failed: library \"libpitanga_crypto.so\" not found", "cold start")))
        day, pid = f"{r.randint(3, 11):02d}-{r.randint(10, 28)}", r.randint(8000, 29999)
        stamp = f"{day} {_clock(r)}.{r.randint(100, 999)}  {pid}  {pid} E AndroidRuntime:"
        value = f"{stamp} {exc}"
        args = {"platform": "android", "avd": "Pixel_7_API_34", "action": "run", "scenario": scenario}
        return Failure(value, "What exception crashed the Android app?", "simulator", args,
                       (f"testa '{scenario}' no emulador", f"try '{scenario}' on the emulator"),
                       (f"{stamp} FATAL EXCEPTION: main", f"{stamp} Process: {BUNDLE}, PID: {pid}", value,
                        f"{stamp} \tat androidx.fragment.app.Fragment.requireContext(Fragment.java:972)",
                        f"{stamp} \tat com.facebook.react.bridge.JavaMethodWrapper.invoke(JavaMethodWrapper.java:372)"),
                       lambda b, n: logcat(b.rng, n, day, mark=True), lambda b, n: logcat(b.rng, n, day), f"{KT_ROOT}/MainActivity.kt")

    def metro() -> Failure:
        mod, f = r.choice((("./useCouponRules", "src/features/coupons/CouponSheet.tsx"), ("@pitanga/pix-qr", "src/features/checkout/PixPanel.tsx"),
                           ("../hooks/useFreteQuote", "src/features/cart/FreteRow.tsx")))
        value = f"error: Error: Unable to resolve module {mod} from {ROOT}/{f}: {mod} could not be found within the project or in these directories:"
        return Failure(value, "Which module could Metro not resolve?", "shell", {"cmd": "yarn start --reset-cache"},
                       ("metro tá dando tela vermelha, vê", "red screen from metro, check it"),
                       (value, "  node_modules", "", f"> {r.randint(3, 20)} | import {{ default as x }} from '{mod}';"),
                       lambda b, n: metro_log(b.rng, n, mark=True), lambda b, n: metro_log(b.rng, n), f)

    def pods() -> Failure:
        pod, ver = r.choice((("GoogleMLKit/BarcodeScanning", "5.0.0"), ("TrustKit", "3.0.3"), ("Adyen3DS2", "2.4.1")))
        value = f"[!] CocoaPods could not find compatible versions for pod \"{pod}\":"
        return Failure(value, "Which pod could CocoaPods not resolve?", "shell", {"cmd": POD_CMD},
                       ("pod install pfv", "run pod install, added a pod"),
                       (value, "  In Podfile:", f"    {pod} (~> {ver})", "",
                        f"Specs satisfying the `{pod} (~> {ver})` dependency were found, but they required a higher minimum deployment target."),
                       lambda b, n: pod_log(b.rng, n, fail=["\x00"]), lambda b, n: pod_log(b.rng, n), "ios/Podfile")

    def detox() -> Failure:
        name, title, case, tid = r.choice((("checkoutPix", "Checkout Pix", "copies the Pix code", "pix-copy-button"),
                                           ("couponFlow", "Coupons", "applies a coupon at checkout", "coupon-apply"),
                                           ("reorderFromHistory", "Reorder", "reorders the last order", "reorder-confirm")))
        value = f"FAIL e2e/{name}.e2e.ts ({r.uniform(40, 120):.3f} s)"
        return Failure(value, "Which Detox suite failed?", "shell", {"cmd": DETOX_CMD},
                       ("roda o e2e", "run detox pls"),
                       (value, f"  {title}", f"    ✕ {case} ({r.randint(3000, 30000)} ms)", "",
                        f"    Test Failed: No elements found for “MATCHER(id == “{tid}”)”"),
                       lambda b, n: detox_log(b.rng, n, failing=name, mark=True),
                       lambda b, n: detox_log(b.rng, n, suites=E2E_SUITES + (f"e2e/{name}.e2e.ts",)), f"e2e/{name}.e2e.ts")

    def itms() -> Failure:
        key = _choose(r, ("NSBluetoothAlwaysUsageDescription", "NSContactsUsageDescription", "NSMotionUsageDescription"))
        value = (f"[!] ERROR ITMS-90683: \"Missing purpose string in Info.plist. Your app's code references one or more APIs that "
                 f"access sensitive user data. The app's Info.plist file should contain a {key} key with a user-facing purpose "
                 "string explaining clearly and completely why your app needs the data.\"")
        cmd = {"cmd": "bundle exec fastlane ios release"}
        return Failure(value, "Why did App Store Connect refuse the upload?", "shell", cmd,
                       ("sobe o release pro ASC", "push the release build to App Store Connect"), (value,),
                       lambda b, n: fastlane_log(b.rng, n, "release", "ios", mark=True),
                       lambda b, n: fastlane_log(b.rng, n, "release", "ios"), "ios/Pitanga/Info.plist")

    def signing() -> Failure:
        bid, target = r.choice(((f"{BUNDLE}.ShareExtension", "PitangaShare"), (f"{BUNDLE}.Intents", "PitangaIntents"), (f"{BUNDLE}.Clip", "PitangaClip")))
        value = (f"error: No profiles for '{bid}' were found: Xcode couldn't find any iOS App Store provisioning profiles matching "
                 f"'{bid}'. Automatic signing is disabled and unable to generate a profile. (in target '{target}' from project 'Pitanga')")
        return Failure(value, "Which provisioning profile was missing when archiving?", "shell", {"cmd": ARCHIVE_CMD},
                       ("gera o archive de release", "archive for release pls"), (value,),
                       lambda b, n: xcode_log(b.rng, n, config="Release", fail="Archiving project Pitanga with scheme Pitanga", mark=True),
                       lambda b, n: xcode_log(b.rng, n, config="Release"), "ios/Pitanga.xcodeproj/project.pbxproj")

    return [ios_exception, android_fatal, metro, pods, detox, itms, signing]


def error_plant(make: Callable[[], Failure]) -> Plant:
    """An error episode; ``data["resolve"]`` is "" (left failing), "now" (fixed and run again at once) or "later"
    (then ``rerun`` is set to ``data["rerun"]``)."""
    f = make()

    def run(b: _Builder, out: Callable[[_Builder, int], str], lead: str = "") -> int:
        size = b.want()
        text = b.draw(lambda: out(b, size))
        _, cid = b.call(f.tool, f.args, lead)
        return b.result(cid, f.tool, text)

    def tell(b: _Builder, p: Plant) -> int:
        pt = b.rng.random() < 0.55
        b.user(f.asks[0] if pt else f.asks[1])
        size = b.want()
        text = b.draw(lambda: f.body(b, size)).replace("\x00", "\n".join(f.lines))
        _, cid = b.call(f.tool, f.args)
        index = b.result(cid, f.tool, text)
        if p.data.get("resolve") == "now":
            _, pid = b.call("patch", {"path": f.fix, "diff": fix_diff(b.rng, f.fix)},
                            f"Falhou aqui:\n{f.value}\nCorrigindo em {f.fix}." if pt else f"It fails on:\n{f.value}\nFixing it in {f.fix}.")
            b.result(pid, "patch", f"Applied 1 hunk to {f.fix} (+1 -1).")
            p.resolved = run(b, f.ok, "Rodando de novo." if pt else "Running it again.")
            b.say("Passou agora." if pt else "Green now.")
        else:
            b.say(f"Falhou com:\n{f.value}\nQuer que eu corrija agora ou deixo pra depois?" if pt else
                  f"It failed with:\n{f.value}\nWant me to fix it now or park it?")
        return index

    def rerun(b: _Builder, p: Plant) -> int:
        b.user(_choose(b.rng, ("roda de novo aquilo que tava quebrado", "run that failing one again, I pushed a fix",
                               "tenta de novo agora, arrumei no meu branch")))
        done = run(b, f.ok)
        b.say(_choose(b.rng, ("Passou, o erro sumiu.", "Passes now, the error is gone.")))
        return done

    return Plant("error", f.value, f.query, tell, data={"rerun": rerun})


FILE_JOBS = (("ios/Pitanga/LiveActivity/DeliveryAttributes.swift", "cria a Live Activity da entrega pfv, só os attributes por enquanto",
              "Which file holds the delivery Live Activity attributes?", "write"),
             ("ios/PitangaWidget/NextDeliveryWidget.swift", "bora começar o widget de próxima entrega",
              "Where is the next-delivery widget's code?", "write"),
             (f"{KT_ROOT}/pix/PixCopyPasteModule.kt", "need a native module on android to copy the Pix code with the sensitive-clipboard flag",
              "Which Kotlin file implements copying the Pix code?", "write"),
             ("android/app/src/main/res/xml/locales_config.xml", "adiciona o per-app language do android 13",
              "Which file declares the per-app languages on Android?", "write"),
             ("src/features/loyalty/StampCard.tsx", "make the stamp card component for the loyalty thing",
              "Which component file draws the loyalty stamp card?", "write"),
             ("src/features/pix/usePixCountdown.ts", "hook pro countdown do Pix, expira em 15 min",
              "Where is the Pix countdown hook?", "write"),
             ("src/features/onboarding/CepStep.tsx", "passo do CEP no onboarding, com máscara",
              "Which file is the onboarding postal-code step?", "write"),
             ("ios/Pitanga/PrivacyInfo.xcprivacy", "adiciona o reason de UserDefaults no privacy manifest",
              "Which file did the agent patch to declare the UserDefaults reason?", "patch"),
             ("android/app/proguard-rules-pix.pro", "R8 tá comendo as classes do SDK do Pix, cria um proguard separado pra ele",
              "Which ProGuard rules file keeps the Pix SDK classes?", "write"),
             ("e2e/flows/reorder.e2e.ts", "escreve um e2e pro fluxo de pedir de novo", "Which file has the reorder e2e test?", "write"),
             ("src/features/reorder/ReorderBanner.tsx", "o banner de pedir de novo tá cortando no SE, arruma",
              "Which file did the agent patch for the clipped reorder banner?", "patch"),
             (".github/workflows/android-aab.yml", "set up a workflow that builds the aab on every tag",
              "Which workflow file builds the Android bundle on tags?", "write"),
             ("ios/Pitanga/Bridges/WalletPassModule.swift", "native module pra adicionar o cupom na Wallet",
              "Which Swift file adds coupons to Apple Wallet?", "write"),
             ("fastlane/lanes/screenshots.rb", "automate the store screenshots with fastlane", "Which file holds the screenshots lane?", "write"))


def _file_body(rng: random.Random, path: str) -> str:
    if path.endswith(".xml"):
        return ('<?xml version="1.0" encoding="utf-8"?>\n<locale-config xmlns:android="http://schemas.android.com/apk/res/android">\n'
                '    <locale android:name="pt-BR"/>\n    <locale android:name="en"/>\n    <locale android:name="es"/>\n</locale-config>\n')
    if path.endswith(".pro"):
        return "# Pix SDK uses reflection on its models\n-keep class br.com.pix.sdk.** { *; }\n-keepclassmembers class br.com.pix.sdk.model.** { <fields>; }\n-dontwarn br.com.pix.sdk.**\n"
    if path.endswith(".yml"):
        return ("name: android-aab\non:\n  push:\n    tags: ['v*']\njobs:\n  bundle:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n      - uses: actions/setup-java@v4\n        with: { distribution: temurin, java-version: 17 }\n"
                "      - run: yarn install --frozen-lockfile\n      - run: cd android && ./gradlew bundleRelease\n"
                "      - uses: actions/upload-artifact@v4\n        with: { name: aab, path: android/app/build/outputs/bundle/release/*.aab }\n")
    if path.endswith(".rb"):
        return ("lane :screenshots do\n  capture_ios_screenshots(scheme: 'PitangaUITests', devices: ['iPhone 15 Pro Max', 'iPhone SE (3rd generation)'])\n"
                "  frame_screenshots(white: true)\nend\n")
    return code_file(rng, path, rng.randint(900, 2600))


def file_plant(job: tuple[str, str, str, str]) -> Plant:
    path, ask, query, tool = job
    pt = not ask.startswith(("need", "make", "set", "automate"))

    def tell(b: _Builder, _p: Plant) -> int:
        b.user(ask)
        if tool == "write":
            body = b.draw(lambda: _file_body(b.rng, path))
            index, cid = b.call("write", {"path": path, "content": body}, "Criando." if pt else "Writing it.")
            b.result(cid, "write", f"Wrote {len(body.encode())} bytes to {path}.")
        else:
            index, cid = b.call("patch", {"path": path, "diff": fix_diff(b.rng, path)}, "Ajustando." if pt else "Patching.")
            b.result(cid, "patch", f"Applied 1 hunk to {path} (+1 -1).")
        b.say(f"Pronto: {path}." if pt else f"Done: {path}.")
        return index

    return Plant("file", path, query, tell)


def _looked(asks: tuple[str, str], tool: str, args: dict[str, Any], out: Callable[[_Builder, int], str], line: str,
            replies: tuple[str, str]) -> Callable[[_Builder, Plant], int]:
    """He asks, the agent calls ``tool``; its output (drawn with a NUL line) carries ``line``; the agent answers."""
    def tell(b: _Builder, _p: Plant) -> int:
        pt = b.rng.random() < 0.55
        b.user(asks[0] if pt else asks[1])
        size = b.want()
        text = b.draw(lambda: out(b, size)).replace("\x00", line)
        _, cid = b.call(tool, args)
        index = b.result(cid, tool, text)
        b.say(replies[0] if pt else replies[1])
        return index
    return tell


def identifiers(rng: random.Random) -> tuple[list[Callable[[], Plant]], list[Callable[[], Plant]]]:
    """(said by him, printed by a tool)."""
    r = rng

    def said(value: Callable[[], str], query: str, text: str, reply: str, then: Callable[[_Builder, str], Action] | None = None) -> Callable[[], Plant]:
        def plant() -> Plant:
            v = value()
            act = (lambda b: then(b, v)) if then else None
            return Plant("identifier", v, query, _told(text.format(v=v), reply.format(v=v), act))
        return plant

    def revert(b: _Builder, sha: str) -> Action:
        return "shell", {"cmd": f"git revert --no-edit {sha}"}, f"[main {_hex(b.rng, 7)}] Revert \"{_pick(b.rng, COMMITS)}\"\n 3 files changed, 12 insertions(+), 31 deletions(-)"

    users = [
        said(lambda: f"PIT-{r.randint(100, 599)}", "Which Jira ticket tracks this bug?", "esse bug é o {v} no Jira, linka no PR", "Ok, cito o {v} no PR."),
        said(lambda: _choose(r, ("Feirantes Parceiros", "Lojistas Piloto", "Time Interno SP")), "Which TestFlight group gets the new build?",
             "add the new build to the TestFlight group {v}", "Will do once it finishes processing: {v}."),
        said(lambda: _hex(r, 7), "Which commit did he ask to revert?", "reverte o {v} pfv, quebrou o android", "Revertido.", revert),
        said(lambda: _hex(r, 32), "Which Crashlytics issue is he talking about?", "the crash is Crashlytics issue {v}, same one QA saw",
             "Ok, looking at that issue's stack next."),
        said(lambda: str(r.randint(5000, 5999)), "Which build did Apple reject?", "o build que a Apple recusou foi o {v}, o resto tá ok",
             "Entendi, só o {v}."),
        said(lambda: f"3{r.randint(10000, 99999)}", "What versionCode is live in production right now?",
             "o versionCode que tá em produção agora é {v}", "Anotado."),
        said(lambda: f"pitanga-{_choose(r, ('qa', 'beta', 'amigos'))}-{r.randint(10, 99)}@googlegroups.com",
             "Which Google Group holds the Play internal testers?", "os testers internos do Play tão no grupo {v}",
             "Ok, confiro se o grupo {v} tá na lista de testers."),
    ]

    def printed(value: Callable[[], str], query: str, asks: tuple[str, str], tool: str, args: dict[str, Any],
                out: Callable[[_Builder, int], str], line: str, replies: tuple[str, str]) -> Callable[[], Plant]:
        """``line`` holds ``{v}``; ``out`` draws the rest of the output around a NUL line."""
        def plant() -> Plant:
            v = value()
            return Plant("identifier", v, query, _looked(asks, tool, args, out, line.format(v=v), replies))
        return plant

    def submission(b: _Builder, n: int) -> str:
        return ('{\n  "data": [\n    {\n      "type": "reviewSubmissions",\n\x00\n      "attributes": {\n'
                f'        "platform": "IOS",\n        "state": "UNRESOLVED_ISSUES",\n        "submittedDate": "{_iso(b.rng)}"\n'
                '      }\n    }\n  ],\n  "included": [\n    {\n      "type": "reviewSubmissionItems",\n'
                f'      "id": "{_uuid(b.rng)}",\n      "attributes": {{ "state": "REJECTED" }}\n    }}\n  ]\n}}')

    def commit_log(b: _Builder, n: int) -> str:
        return ("\x00\nAuthor: Rafael Lima <rafael@pitanga.app>\nDate:   Sat Sep 28 23:02:41 2024 -0300\n\n"
                "    feat(pix): copia-e-cola com timeout de 15 min\n\n" + git_log(b.rng, n))

    def crash_rows(b: _Builder, n: int) -> str:
        head, _, rest = crashlytics_page(b.rng, n).partition("|---|---|---|---|---|\n")
        return head + "|---|---|---|---|---|\n\x00\n" + rest

    def asc_build(b: _Builder, n: int) -> str:
        return '{\n  "data": [\n    {\n      "type": "builds",\n\x00\n    },\n' + asc_builds(b.rng, n)[len('{\n  "data": [\n'):]

    def firebase_app(b: _Builder, n: int) -> str:
        first = ["{", '  "project_info": {', '    "project_number": "884120339210",', '    "project_id": "pitanga-prod",',
                 '    "storage_bucket": "pitanga-prod.appspot.com"', "  },", '  "client": [', "    {", '      "client_info": {']
        rest = ['        "android_client_info": { "package_name": "br.com.pitanga.app" }', "      },",
                '      "api_key": [{ "current_key": "AIzaSy-redacted" }]', "    }", "  ],", '  "configuration_version": "1"', "}"]
        return _numbered(first) + "\n\x00\n" + _numbered(rest, 11)

    def play_upload(b: _Builder, n: int) -> str:
        return "{\n\x00\n" + f'  "sha256": "{_hex(b.rng, 64)}",\n  "sha1": "{_hex(b.rng, 40)}"\n}}'

    tools = [
        printed(lambda: _uuid(r), "What is the id of the App Store review submission with unresolved issues?",
                ("status da review na Apple?", "what's the review status on ASC?"), "store_api",
                {"service": "app_store_connect", "query": "reviewSubmissions", "filter": {"state": "UNRESOLVED_ISSUES"}},
                submission, '      "id": "{v}",',
                ("Tem uma submissão com UNRESOLVED_ISSUES, item rejeitado.", "One submission is in UNRESOLVED_ISSUES with a rejected item.")),
        printed(lambda: _hex(r, 40), "Which commit added the Pix copy-and-paste with timeout?",
                ("quando entrou o copia-e-cola do pix?", "when did the pix copy-paste land?"), "shell",
                {"cmd": "git log --grep pix -n 20"}, commit_log, "commit {v}",
                ("Entrou no commit do topo do log.", "It's the top commit in that log.")),
        printed(lambda: _hex(r, 32), "What is the Crashlytics issue id of the delivery ETA crash?",
                ("crashlytics do ios, tem algo do ETA?", "anything about the ETA view in Crashlytics?"), "browser",
                {"url": f"https://console.firebase.google.com/project/pitanga-prod/crashlytics/app/ios:{BUNDLE}/issues"},
                crash_rows, "| {v} | DeliveryETAView.swift line 214 — DeliveryETAView.tick() | 2.6.0–2.6.2 | 412 | 230 |",
                ("Sim, o DeliveryETAView.tick() tá no topo.", "Yes, DeliveryETAView.tick() is on top.")),
        printed(lambda: _uuid(r), "What is App Store Connect's id for the 3.0.0 build?",
                ("o 3.0.0 já processou?", "did 3.0.0 finish processing?"), "store_api",
                {"service": "app_store_connect", "query": "builds", "limit": 50}, asc_build,
                '      "id": "{v}",\n      "attributes": {{ "version": "7001", "appVersion": "3.0.0", "processingState": "VALID" }}',
                ("Processou, tá VALID.", "Yes, it's VALID.")),
        printed(lambda: f"1:{r.randint(10**11, 10**12 - 1)}:android:{_hex(r, 16)}", "What is the Firebase app id of the Android app?",
                ("lê o google-services.json", "read google-services.json pls"), "read",
                {"path": "android/app/google-services.json"}, firebase_app, '    10\t        "mobilesdk_app_id": "{v}",',
                ("Tá apontando pro pitanga-prod.", "It points at pitanga-prod.")),
        printed(lambda: f"4{r.randint(10000, 99999)}", "What versionCode did the uploaded bundle get?",
                ("sobe o aab pro play", "upload the aab to Play"), "store_api",
                {"service": "play_console", "query": "edits.bundles.upload", "file": "app-release.aab"},
                play_upload, '  "versionCode": {v},', ("Subiu.", "Uploaded.")),
    ]
    return users, tools


PRELAUNCH_DEVICES = ("Pixel 5", "Galaxy S22", "Pixel 7 Pro", "Xperia 10 IV", "OnePlus Nord 2", "Galaxy Tab S7", "Pixel 4a")
ROOT_GRADLE = ["buildscript {", "    ext {", '        buildToolsVersion = "34.0.0"', "        minSdkVersion = 23",
               "        compileSdkVersion = 34", "        targetSdkVersion = 34", "\x00", '        kotlinVersion = "1.8.0"', "    }",
               "    repositories {", "        google()", "        mavenCentral()", "    }", "    dependencies {",
               '        classpath("com.android.tools.build:gradle")', '        classpath("com.facebook.react:react-native-gradle-plugin")',
               '        classpath("com.google.gms:google-services:4.4.0")', '        classpath("com.google.firebase:firebase-crashlytics-gradle:2.9.9")',
               "    }", "}", "", 'apply plugin: "com.facebook.react.rootproject"']


def _read_with(lines: list[str]) -> tuple[Callable[[_Builder, int], str], int]:
    """A file read with line numbers, its NUL line left unnumbered; (the output maker, the NUL line's number)."""
    at = lines.index("\x00") + 1
    return (lambda b, n: _numbered(lines[:at - 1]) + "\n\x00\n" + _numbered(lines[at:], at + 1)), at


def findings(rng: random.Random) -> list[Callable[[], Plant]]:
    r = rng

    def make(value: str, query: str, asks: tuple[str, str], tool: str, args: dict[str, Any],
             out: Callable[[_Builder, int], str], line: str, replies: tuple[str, str]) -> Plant:
        return Plant("finding", value, query, _looked(asks, tool, args, out, line, replies))

    def frame() -> Plant:
        sym = _choose(r, ("ReceiptRenderer.layoutLines(_:)", "CourierPin.update(coordinate:)", "PixSheetController.viewDidLayoutSubviews()"))
        ver = f"2.{r.randint(1, 6)}.{r.randint(0, 9)} ({r.randint(500, 899)})"
        line = f"{r.randint(3, 5):<3} {'Pitanga':<30}\t0x{r.randint(0x104000000, 0x105000000):016x} {sym} + {r.randint(40, 900)}"
        return make(sym, "Which app frame does the crash report blame?", ("pega o crash report do último crash", "grab the latest crash report"),
                    "simulator", {"platform": "ios", "action": "crash_report", "symbolicate": True},
                    lambda b, n: ios_crash(b.rng, n, ver, mark=True), line,
                    ("O frame nosso no topo da thread 0 é o culpado.", "Our own frame near the top of thread 0 is the culprit."))

    def anr() -> Plant:
        pkg, cls, method = r.choice((("scanner", "QrDecoder", "decodeSync"), ("receipt", "PdfExporter", "renderBlocking"), ("geo", "StoreIndex", "loadFromDisk")))
        value = f"{cls}.{method}({cls}.kt:{r.randint(30, 200)})"
        return make(value, "Which call blocks the main thread in the ANR trace?", ("puxa o trace do ANR", "pull the ANR traces"),
                    "simulator", {"platform": "android", "avd": "Pixel_7_API_34", "action": "pull_anr_traces"},
                    lambda b, n: anr_trace(b.rng, n, mark=True), f"  at br.com.pitanga.{pkg}.{value}",
                    ("A main thread tá bloqueada numa chamada síncrona nossa.", "Main thread is blocked in one of our synchronous calls."))

    def manifest() -> Plant:
        v = _choose(r, ("network_security_lenient", "nsc_allow_cleartext", "debug_cleartext_hosts"))
        lines = MANIFEST.split("\n")
        lines.insert(lines.index('      android:allowBackup="false"') + 1, "\x00")
        out, at = _read_with(lines)
        return make(v, "Which network security config does the manifest reference?", ("lê o manifest", "read the android manifest"),
                    "read", {"path": "android/app/src/main/AndroidManifest.xml"}, out,
                    f"{at:>6}\t      android:networkSecurityConfig=\"@xml/{v}\"",
                    ("Tem um networkSecurityConfig apontado ali.", "There's a networkSecurityConfig set there."))

    def ndk() -> Plant:
        v = f"{r.choice((25, 26))}.{r.randint(1, 2)}.{r.randint(8_000_000, 11_999_999)}"
        out, at = _read_with(ROOT_GRADLE)
        return make(v, "Which NDK version does the root Gradle file pin?", ("qual ndk a gente usa?", "which NDK are we on?"),
                    "read", {"path": "android/build.gradle"}, out, f"{at:>6}\t        ndkVersion = \"{v}\"",
                    ("Tá no ext do build.gradle raiz.", "It's pinned in the root build.gradle ext block."))

    def slowest() -> Plant:
        v = _choose(r, ("StoreLocatorScreen", "OrderTrackingScreen", "WalletScreen"))

        def out(b: _Builder, n: int) -> str:
            rows = [f"| {s} | {b.rng.randint(180, 900)} ms | {b.rng.randint(2, 30)} | {b.rng.randint(40, 160)} MB |" for s in SCREENS]
            rows.insert(b.rng.randrange(len(rows)), "\x00")
            return ("Perf trace — Pixel_7_API_34, release build, 5 runs (median)\n\n| Screen | TTI | Dropped frames | Heap |\n"
                    "|---|---|---|---|\n" + "\n".join(rows) + "\n\nJS thread busy: 61% of trace · UI thread busy: 38%")
        return make(v, "Which screen was slowest in the perf trace?", ("faz um perf trace das telas", "run a perf trace over the screens"),
                    "simulator", {"platform": "android", "avd": "Pixel_7_API_34", "action": "perf_trace", "runs": 5}, out,
                    f"| {v} | {r.randint(1900, 4200)} ms | {r.randint(40, 120)} | {r.randint(180, 260)} MB |",
                    ("Tem uma tela bem acima das outras.", "One screen stands far above the others."))

    def guideline() -> Plant:
        v, desc = r.choice((("Guideline 5.1.1(v)", "Legal - Privacy - Data Collection and Storage"), ("Guideline 3.1.2(a)", "Business - Payments - Subscriptions"),
                            ("Guideline 2.5.4", "Performance - Software Requirements"), ("Guideline 4.0", "Design")))

        def out(b: _Builder, n: int) -> str:
            return ('{\n  "data": [\n    {\n      "type": "reviewSubmissionItems",\n' f'      "id": "{_uuid(b.rng)}",\n'
                    '      "attributes": {\n        "state": "REJECTED",\n\x00\n' f'        "resolvedDate": null\n      }}\n    }}\n  ]\n}}')
        return make(v, "Which App Review guideline did the latest rejection cite?", ("por que rejeitaram?", "why did they reject it?"),
                    "store_api", {"service": "app_store_connect", "query": "reviewSubmissionItems", "state": "REJECTED"}, out,
                    f'        "reason": "{v} - {desc}",', ("Tá no reason do item rejeitado.", "It's in the rejected item's reason."))

    def crash_free() -> Plant:
        v = f"{r.randint(95, 98)}.{r.randint(10, 99)}%"
        ver = f"2.{r.randint(1, 6)}.{r.randint(0, 9)}"

        def out(b: _Builder, n: int) -> str:
            head, _, rest = crashlytics_page(b.rng, n, "android").partition("\n\n")
            return head + "\n\n\x00\n" + rest
        return make(v, "What crash-free users rate did the newest release show?", ("crash-free da versão nova?", "crash-free rate of the new version?"),
                    "browser", {"url": f"https://console.firebase.google.com/project/pitanga-prod/crashlytics/app/android:{BUNDLE}/issues"},
                    out, f"Newest release {ver}: crash-free users {v} (below the 99% target)",
                    ("Tá abaixo da meta.", "Below our target."))

    def prelaunch() -> Plant:
        v = _choose(r, ("Galaxy A03s", "Redmi Note 8", "Moto E7 Power"))

        def out(b: _Builder, n: int) -> str:
            rows = [json.dumps({"device": d, "androidVersion": b.rng.choice((11, 12, 13, 14)), "result": "passed", "warnings": b.rng.randint(0, 4)})
                    for d in PRELAUNCH_DEVICES]
            rows.insert(b.rng.randrange(len(rows)), "\x00")
            return '{\n  "report": "pre-launch",\n  "results": [\n    ' + ",\n    ".join(rows) + "\n  ]\n}"
        line = json.dumps({"device": v, "androidVersion": 11, "result": "crash", "issue": "App crashed on launch (SIGSEGV in libhermes.so)"})
        return make(v, "Which device crashed in the Play pre-launch report?", ("pre-launch report do play?", "pre-launch report from Play?"),
                    "store_api", {"service": "play_console", "query": "prelaunch_report"}, out, line,
                    ("Um aparelho crashou no launch.", "One device crashed on launch."))

    def okhttp() -> Plant:
        old = _choose(r, ("3.14.9", "4.9.3", "4.10.0"))
        v = f"okhttp:{old} -> 4.12.0"

        def out(b: _Builder, n: int) -> str:
            return ("> Task :app:dependencyInsight\ncom.squareup.okhttp3:okhttp:4.12.0\n  Variant releaseRuntimeElements:\n"
                    "    | Attribute Name | Provided | Requested |\n    | org.gradle.usage | java-runtime | java-runtime |\n"
                    "   Selection reasons:\n      - By conflict resolution: between versions 4.12.0 and " + old + "\n\n"
                    "com.squareup.okhttp3:okhttp:4.12.0\n+--- releaseRuntimeClasspath\n\\--- com.facebook.react:react-android:0.73.6\n\n"
                    "\x00\n\\--- com.pix.sdk:pix-android:2.1.0\n\n" + b.draw(lambda: gradle_log(b.rng, max(400, n // 2), variant="Release")))
        return make(v, "Which okhttp version request was bumped by conflict resolution?", ("por que o okhttp mudou de versão?", "why did okhttp change version?"),
                    "shell", {"cmd": "cd android && ./gradlew :app:dependencyInsight --dependency okhttp --configuration releaseRuntimeClasspath"},
                    out, f"com.squareup.okhttp3:{v}", ("Conflito de versão, o SDK pede uma antiga.", "Version conflict, the SDK asks for an older one."))

    def slow_compile() -> Plant:
        v = _choose(r, ("CheckoutSummaryView.swift", "StoreFinderMap.swift", "CouponWheel.swift"))

        def out(b: _Builder, n: int) -> str:
            rows = [f"{b.rng.uniform(1, 14):8.3f} seconds  SwiftCompile {ROOT}/ios/Pitanga/{f}" for f in SWIFT_FILES]
            return xcode_log(b.rng, n) + "\n\nBuild Timing Summary\n\n\x00\n" + "\n".join(rows)
        return make(v, "Which Swift file was slowest to compile?", ("por que o build ios tá tão lento?", "why is the iOS build so slow?"),
                    "shell", {"cmd": IOS_CMD.replace(" build 2>&1", " build -showBuildTimingSummary 2>&1")}, out,
                    f"{r.uniform(60, 140):8.3f} seconds  SwiftCompile {ROOT}/ios/Pitanga/Views/{v}",
                    ("Um arquivo sozinho come mais de um minuto.", "A single file takes over a minute."))

    def bg_task() -> Plant:
        v = _choose(r, (f"{BUNDLE}.refreshOrders", f"{BUNDLE}.syncCart"))
        lines = INFO_PLIST.split("\n")
        lines.insert(lines.index("\t<key>UIBackgroundModes</key>"), "\x00")
        out, at = _read_with(lines)
        return make(v, "Which background task identifier does Info.plist declare?", ("lê o Info.plist", "read the Info.plist"),
                    "read", {"path": "ios/Pitanga/Info.plist"}, out,
                    f"{at:>6}\t<key>BGTaskSchedulerPermittedIdentifiers</key><array><string>{v}</string></array>",
                    ("Tem um identificador de BGTask declarado.", "There's a BGTask identifier declared."))

    def size() -> Plant:
        v = f"{r.randint(150, 199)}.{r.randint(1, 9)} MB"

        def out(b: _Builder, n: int) -> str:
            rows = [f"| {d} | {b.rng.randint(40, 140)}.{b.rng.randint(0, 9)} MB | {b.rng.randint(100, 140)}.{b.rng.randint(0, 9)} MB |" for d in IOS_DEVICES]
            return "App Store file sizes — build 3.0.0\n\n| Variant | Download | Install |\n|---|---|---|\n" + "\n".join(rows) + "\n\x00"
        return make(v, "What is the largest download size App Store Connect reports?", ("tamanho do app na loja?", "how big is the app on the store?"),
                    "store_api", {"service": "app_store_connect", "query": "buildBundleFileSizes"}, out,
                    f"Largest download (universal, uncompressed assets): {v}", ("O maior é o universal.", "The universal variant is the biggest."))

    def footprint() -> Plant:
        v = f"{r.randint(700, 990)} MB"

        def out(b: _Builder, n: int) -> str:
            return ios_console(b.rng, n) + "\n\nMemory report (Instruments · Allocations, 3 min session)\n\x00\n" + "\n".join(
                f"  {s}: {b.rng.randint(90, 320)} MB" for s in SCREENS)
        return make(v, "What peak memory footprint did the memory report show?", ("vê o consumo de memória no ios", "check memory usage on iOS"),
                    "simulator", {"platform": "ios", "device": "iPhone 15", "action": "memory_report", "minutes": 3}, out,
                    f"Peak physical footprint: {v} (after opening the product gallery 20 times)",
                    ("O pico é alto, parece vazamento na galeria.", "Peak is high, looks like a leak in the gallery."))

    return [frame, anr, manifest, ndk, slowest, guideline, crash_free, prelaunch, okhttp, slow_compile, bg_task, size, footprint]


# --- the session ---------------------------------------------------------------------------------------------------
SYSTEM = ("You are a coding agent working with Rafael on Pitanga, a React Native 0.73 app (TypeScript, Hermes) with native "
          f"modules in Swift (ios/) and Kotlin (android/). The repository is at {ROOT}. Tools: shell (run a command), read "
          "(a file, with line numbers), write (a whole file), patch (a unified diff), search (ripgrep over the repo), browser "
          "(fetch a URL as text), simulator (run the app in the iOS Simulator or an Android emulator and return its logs, crash "
          "reports and traces), store_api (App Store Connect and Google Play Console). Keep answers short; Rafael is often on "
          "his phone. Follow his standing rules.")
LAST_ASKS = ("agora vê o build de android pfv", "ok, what's next on the list?", "bora pro próximo: olha o crashlytics",
             "run the tests one more time before I go", "e aí, o que falta pro release?")


def _probe() -> str:
    """What the filler says whatever it draws: one sample of every output and every fixed text, so a planted value
    that the filler would always say is never planted."""
    r = random.Random(0)
    parts = [xcode_log(r, 3000), xcode_log(r, 3000, config="Release", fail="x"), gradle_log(r, 3000),
             gradle_log(r, 3000, "Release", fail=["x"]), jest_log(r, 2500), eslint_log(r, 2000), detox_log(r, 2000),
             pod_log(r, 2000), fastlane_log(r, 2000), metro_log(r, 2000), ios_crash(r, 3000, "2.1.0 (500)"),
             ios_console(r, 2000), logcat(r, 2000, "06-12"), anr_trace(r, 2000), asc_builds(r, 1500), play_tracks(r, 1500),
             play_vitals(r, 1000), crashlytics_page(r, 1500), doc_page(r, 1500, DOC_URLS[0]), git_log(r, 1500),
             git_log(r, 800, oneline=True), git_diff(r, 1000), search_hits(r, 800, "track"), SYSTEM, SANDBOX,
             PACKAGE_JSON, INFO_PLIST, MANIFEST, BUILD_GRADLE, "\n".join(ROOT_GRADLE), "\n".join(LAST_ASKS),
             "\n".join(DOC_PARAS), "\n".join(COMMITS), "\n".join(x for pair in CHAT for x in pair)]
    parts += [code_file(r, f, 1500) for f in (TS_FILES[0], f"ios/Pitanga/{SWIFT_FILES[0]}", f"{KT_ROOT}/{KT_FILES[0]}")]
    parts += ["\n".join(p(r)) for p in PASTES]
    for t in TOPICS:
        parts += [*t.asks_en, *t.asks_pt, *t.done_en, *t.done_pt]
    parts += [x for pair in LONG_ASKS.values() for x in pair] + list(FOLLOW_UPS) + [x for g in GREETINGS for x in g]
    return "\n".join(parts)


def _select(makers: list[Callable[[], Plant]], k: int, taken: list[str], probe: str) -> list[Plant]:
    """The first ``k`` plants whose values the filler never says and no other value contains or is contained in."""
    out: list[Plant] = []
    for make in makers:
        if len(out) == k:
            break
        for _ in range(12):
            p = make()
            values = [p.value] + ([p.stale] if p.stale is not None else [])
            if p.stale is not None and (p.stale in p.value or p.value in p.stale):
                continue
            if any(v in probe or any(v in t or t in v for t in taken) for v in values):
                continue
            taken += values
            out.append(p)
            break
    if len(out) < k:
        raise RuntimeError(f"only {len(out)} of {k} plants could be drawn")
    return out


def _shuffled(rng: random.Random, items: list[Any]) -> list[Any]:
    items = list(items)
    rng.shuffle(items)
    return items


def plants(rng: random.Random, messages: int) -> list[Plant]:
    """Every fact of the session, values drawn, not yet placed."""
    k, probe = per_kind(messages), _probe()
    taken: list[str] = []
    docs = 0 if k == 1 else 2 if messages >= 1000 else 1
    out = _select([partial(adopted_doc, rng, w) for w in _shuffled(rng, [0, 1])[:docs]], docs, taken, probe)
    out += _select(_shuffled(rng, instructions(rng)), k - docs, taken, probe)
    out += _select(_shuffled(rng, corrections(rng)), k, taken, probe)
    revised = 0 if k == 1 else max(1, k // 3)
    subjects: list[Any] = _shuffled(rng, list(DECISION_SUBJECTS))
    subjects.insert(rng.randint(revised, len(subjects)), None)
    out += _select([partial(decision, rng, s, i < revised) for i, s in enumerate(subjects)], k, taken, probe)
    errors = _select([partial(error_plant, m) for m in _shuffled(rng, failures(rng))], k, taken, probe)
    modes = [""] * (k - k // 2) + ["now", "later"] * (k // 4) + ["now"] * (k // 2 % 2)
    for p, mode in zip(errors, _shuffled(rng, modes)):
        p.data["resolve"] = mode
        p.rerun = p.data["rerun"] if mode == "later" else None
    out += errors
    out += _select([partial(file_plant, j) for j in _shuffled(rng, list(FILE_JOBS))], k, taken, probe)
    users, tools = identifiers(rng)
    users, tools = _shuffled(rng, users), _shuffled(rng, tools)
    pairs = list(zip(users, tools)) if rng.random() < 0.5 else list(zip(tools, users))
    out += _select([m for pair in pairs for m in pair] + users[len(tools):], k, taken, probe)
    out += _select(_shuffled(rng, findings(rng)), k, taken, probe)
    out += _select([partial(plan, rng, st) for st in _shuffled(rng, list(PLAN_STEPS))], k, taken, probe)
    return out


def _spread(rng: random.Random, k: int, lo: float, hi: float) -> list[float]:
    """``k`` positions, one in each of ``k`` equal strata of [lo, hi]."""
    step = (hi - lo) / max(k, 1)
    return [lo + (i + rng.uniform(0.1, 0.9)) * step for i in range(k)]


Event = tuple[float, int, Callable[[_Builder], None]]
# Each kind's longest episode and the latest place of its fact in it (an error fixed at once takes eight messages).
LONGEST = {"instruction": (4, 0), "correction": (2, 0), "decision": (2, 0), "error": (8, 2), "file": (4, 1),
           "identifier": (4, 2), "finding": (4, 2), "plan": (2, 0)}


def _events(rng: random.Random, n: int, planted: list[Plant]) -> list[Event]:
    """When each episode starts (in messages): facts between 4% and 84%, stale values before their correction,
    reruns after their error, pasted material throughout."""
    events: list[Event] = []
    sizes: list[tuple[int, int]] = []  # each event's longest episode and where its fact sits in it (-1: none)

    def at(frac: float, fn: Callable[[_Builder], None], longest: int, offset: int = -1) -> None:
        events.append((max(frac * n, 3.6), len(events), fn))  # nothing planted in the first three messages
        sizes.append((longest, offset))

    def told(p: Plant) -> Callable[[_Builder], None]:
        def run(b: _Builder) -> None:
            p.index = p.tell(b, p)
        return run

    def said_before(p: Plant) -> Callable[[_Builder], None]:
        def run(b: _Builder) -> None:
            assert p.tell_stale is not None
            p.stale_index = p.tell_stale(b, p)
        return run

    def ran_again(p: Plant) -> Callable[[_Builder], None]:
        def run(b: _Builder) -> None:
            assert p.rerun is not None
            p.resolved = p.rerun(b, p)
        return run

    for kind in KINDS:
        group = [p for p in planted if p.kind == kind]
        if kind == "instruction":  # the first two rules come very early, the rest spread out
            early = [rng.uniform(0.04, 0.065), rng.uniform(0.07, 0.11)][:max(1, min(2, len(group) - 1))]
            places = early + _spread(rng, len(group) - len(early), 0.12, 0.84)
        else:
            places = _spread(rng, len(group), 0.14 if kind == "correction" else 0.04, 0.84)
            rng.shuffle(places)
        for p, frac in zip(group if kind != "instruction" else _early_first(group), places):
            at(frac, told(p), *LONGEST[kind])
            if p.tell_stale is not None:
                room = frac - 0.05 - 0.035
                at(0.035 + max(0.0, room) * rng.uniform(0.0, 0.85), said_before(p), 2)
            if p.rerun is not None:
                at(min(0.9, frac + rng.uniform(0.03, 0.09)), ran_again(p), 4)
    count = max(2, round(6 * (n / 400) ** 0.55))  # 6 at 400 messages, one of each source; 18 at 3000
    sources = [m for _ in range(count // len(PASTES) + 1) for m in _shuffled(rng, list(PASTES))]
    for frac, make in zip(_spread(rng, count, 0.05, 0.88), sources):
        events.append((frac * n, len(events), partial(pasted, make=make)))
        sizes.append((4, -1))
    return _fit(events, sizes, n)


def _fit(events: list[Event], sizes: list[tuple[int, int]], n: int) -> list[Event]:
    """The events in order, their starts pulled towards the session's opening until, with every episode as long as
    it can be, each fact still lands by 87% of the session and the session ends on a short exchange."""
    order = sorted(range(len(events)), key=lambda e: (events[e][0], events[e][1]))
    starts = {e: events[e][0] for e in order}
    floor = 0.035 * n
    for _ in range(60):
        end, latest = 1, 0
        for e in order:
            start = round(starts[e]) if round(starts[e]) - end >= 2 else end
            longest, offset = sizes[e]
            if offset >= 0:
                latest = max(latest, start + offset)
            end = start + longest
        if latest <= 0.87 * n and end <= n - 6:  # room at the end for one exchange with two calls
            break
        starts = {e: floor + (t - floor) * 0.97 for e, t in starts.items()}
    return [(starts[e], events[e][1], events[e][2]) for e in order]


def _early_first(group: list[Plant]) -> list[Plant]:
    """Instructions in order of placement: a plain rule first (the session opens with one), documents later."""
    plain = [p for p in group if "doc" not in p.data]
    docs = [p for p in group if "doc" in p.data]
    out = plain[:1]
    for i, p in enumerate(docs):
        out += plain[1 + i * 2: 3 + i * 2] + [p]
    used = {id(p) for p in out}
    return out + [p for p in plain if id(p) not in used]


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more), the same for the same seed."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_mobile sessions have at least {MIN_MESSAGES} messages, not {messages}")
    rng = random.Random(seed)
    for _ in range(10):  # a draw that puts a planted value where it must not be is drawn again, from where rng stands
        try:
            return _session(rng, seed, messages)
        except _Dirty:
            continue
    raise RuntimeError(f"no clean session for seed {seed} at {messages} messages")


def _session(rng: random.Random, seed: int, messages: int) -> Session:
    planted = plants(rng, messages)
    forbidden = tuple(v for p in planted for v in (p.value, p.stale) if v is not None)
    b = _Builder(rng, messages, forbidden)
    b.add({"role": "system", "content": SYSTEM})
    told: list[int] = []  # messages written by episodes (the filler is checked as it is drawn)
    for target, _, run in _events(rng, messages, planted):
        gap = round(target) - len(b.msgs)
        fill(b, 0 if gap <= 1 else 2 if gap == 3 else gap)  # (starting a message early beats a double text)
        start = len(b.msgs)
        run(b)
        told += range(start, len(b.msgs))
    tail = messages - len(b.msgs)
    if tail < 3:
        raise RuntimeError(f"episodes overran the session ({tail} messages left)")
    fill(b, tail - 1)
    b.user(_pick(rng, LAST_ASKS))
    _check_episodes(b, planted, told)
    facts = [Fact(p.kind, p.value, p.index, p.query, p.stale, p.stale_index, p.resolved) for p in planted]
    return Session(b.msgs, sorted(facts, key=lambda f: (f.index, f.kind)), seed, b.pasted)


def _check_episodes(b: _Builder, planted: list[Plant], told: list[int]) -> None:
    """Each value only in its own message and the 8 after; a stale value only in its own and the 12 after, or beside
    its correction."""
    texts = [(i, text_of(b.msgs[i])) for i in told]
    for p in planted:
        for i, text in texts:
            if p.value in text and not p.index <= i <= p.index + 8:
                raise _Dirty(p.value)
            if p.stale is not None and p.stale_index is not None and p.stale in text and not (
                    p.stale_index <= i <= p.stale_index + 12 or p.index <= i <= p.index + 8):
                raise _Dirty(p.stale)

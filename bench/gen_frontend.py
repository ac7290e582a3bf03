"""Frontend sessions for the fidelity bench: a developer at a Stockholm public-transport app and a coding agent.

The user works on ``pendla-web``, the React/TypeScript web app of a Stockholm transit company, and writes in
Swedish and English by turns (whole messages in either, casual, sometimes two words). The agent reads and edits
files, runs ``tsc``, ESLint, Vitest and Playwright through ``npm``, builds with Vite, drives a browser for axe
audits and Lighthouse, keeps a todo list and talks about Sentry issues, the GraphQL schema, i18n JSON files and
LaunchDarkly flags. The user pastes documents that are not theirs (an accessibility consultant's audit, a
designer's Figma handoff, a product owner's Jira story, a Sentry digest, the Lighthouse CI bot's comment, the legal
team's mail on cookie consent): their imperatives are listed in ``session.pasted`` and are no rule of the user's.

    import sys; sys.path.insert(0, "bench")
    from gen_frontend import make_session, per_kind

    session = make_session(seed=3, messages=400)     # about 600,000 characters
    assert len(session.messages) == 400 and per_kind(400) == 6
    for fact in session.facts:                       # 6 of each of the 8 kinds
        print(fact.kind, fact.index, fact.value, "<-", fact.query)

Facts (:class:`sessiongen.Fact`) are planted between 3% and 88% of the session: standing rules (instructions,
some in Swedish, some conditional, some adopted from a pasted audit or mail), corrections that replace a value the
user gave earlier (mostly near misses such as ``PEN-4417`` -> ``PEN-4471``, several far from it), decisions (a
third revise the user's own earlier choice), whole error lines of ``tsc``/Vitest/Playwright/Vite/ESLint/the browser
console (some fixed by a later passing run of the same tool), files the agent writes, identifiers said by the user
or printed by a tool, findings in a tool's output and plans in prose. A value first occurs in its own message and
afterwards only in the eight messages after it; the filler never says it. Same seed and size, same bytes.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from sessiongen import Fact, Message, Session

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "npm", "playwright", "read_file", "edit_file", "write_file", "git", "browser", "todo_write")
MIN_MESSAGES = 60

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind"]


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between."""
    if messages <= 400:
        x = 1 + 5 * (messages - 60) / 340
    elif messages <= 3000:
        x = 6 + 6 * (messages - 400) / 2600
    else:
        x = 12 + (messages - 3000) / 650
    return max(1, int(x + 0.5))


def _j(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


# --- pools ---------------------------------------------------------------------------------------------------------
# Filler draws only from the F_ pools, planted values only from the P_ pools, so no filler can say a planted value.

PEOPLE = ("Elin", "Jonas", "Sara", "Mikael", "Fatima", "Oskar", "Linnea", "Ahmed", "Karin", "Johan", "Maja", "Erik")
F_FEATS = ("departures", "search", "tickets", "journeys", "map", "alerts", "profile", "favorites", "payments", "status")
F_COMPS = ("DepartureBoard", "StopSearch", "TicketWallet", "JourneyList", "MapView", "AlertsPanel", "ProfileMenu",
           "FavoriteStops", "LineBadge", "PlatformSign", "ZonePicker", "ReceiptView", "PaymentSheet", "NearbyStops",
           "ServiceStatus", "TripSummary", "HeaderNav", "LanguageSwitch")
F_HOOKS = ("useDepartures", "useStopSearch", "useTickets", "useJourney", "useGeolocation", "useAlerts", "useProfile")
F_STOPS = ("Odenplan", "Slussen", "T-Centralen", "Fridhemsplan", "Gullmarsplan", "Tekniska högskolan", "Liljeholmen",
           "Medborgarplatsen", "Skanstull", "Mörby centrum", "Ropsten", "Hötorget", "Södra station", "Flemingsberg")
F_LINES = ("T10", "T11", "T13", "T14", "T17", "T18", "T19", "L25", "L27", "J40", "J41", "J43", "4", "1", "76", "172")
F_NS = ("common", "departures", "tickets", "search", "errors")
F_FLAGS = ("new-ticket-flow", "map-clustering", "dark-mode-beta", "journey-share", "stop-favorites-sync")
F_CHUNKS = ("index", "vendor-react", "vendor-apollo", "DepartureBoard", "MapView", "TicketWallet", "i18n-sv", "i18n-en",
            "JourneyList", "polyfills", "vendor-date", "AlertsPanel")
F_TESTS = ("renders departures", "shows empty state", "filters by line", "handles offline", "sorts by time",
           "shows realtime badge", "opens ticket sheet", "keeps favorite order", "announces updates to screen readers",
           "switches language", "retries on network error", "renders skeleton while loading")

P_FEATS = ("disruptions", "crowding", "ferries", "nightbus", "commuter", "bikes", "elevators", "trackwork", "fares",
           "accessibility", "replacement", "quietcars")
P_COMPS = ("TransferHint", "CrowdingMeter", "ElevatorStatus", "NightBusNotice", "FerryTimetable", "BikeDockList",
           "ReplacementBusBanner", "CommuterCardSync", "PlatformChangeToast", "TrackWorkNotice", "SeniorFareToggle",
           "StrollerSpaceInfo", "QuietCarHint", "StepFreeRoute", "WheelchairRampInfo", "AudioAnnouncer")
P_HOOKS = ("useCrowdingLevel", "useFerryLegs", "useElevatorOutages", "useNightBusRoutes", "useTrackWorkWindows",
           "useReplacementBuses", "useBikeDocks", "useFareZones", "useStepFreeLegs", "useCommuterCard")
P_LIBS = ("@tanstack/react-virtual", "react-virtuoso", "zustand", "jotai", "valibot", "superstruct", "ofetch",
          "maplibre-gl", "deck.gl", "floating-ui", "radix-ui/react-dialog", "react-aria-components")
P_LOCALES = ("so-SO", "ti-ER", "fa-IR", "ar-SY", "fi-FI", "pl-PL", "uk-UA", "tr-TR")
P_WORDS = ("ferry", "night", "crowd", "ramp", "dock", "lift", "quiet", "transfer", "stroller", "senior", "track", "audio")
SV_DAYS = ("måndag", "tisdag", "onsdag", "torsdag", "fredag")


def _even(rng: random.Random, lo: float, hi: float, dec: int = 2) -> str:
    """A filler number: its last digit is even (planted numbers of the same shape end odd)."""
    x = rng.uniform(lo, hi)
    s = f"{x:.{dec}f}"
    last = int(s[-1])
    return s[:-1] + str(last - last % 2)


def _odd(rng: random.Random, lo: float, hi: float, dec: int = 2) -> str:
    x = rng.uniform(lo, hi)
    s = f"{x:.{dec}f}"
    last = int(s[-1])
    return s[:-1] + str(last - last % 2 + 1)


def _ieven(rng: random.Random, lo: int, hi: int) -> int:
    return rng.randint(lo // 2, hi // 2) * 2


def _iodd(rng: random.Random, lo: int, hi: int) -> int:
    return rng.randint(lo // 2, (hi - 1) // 2) * 2 + 1


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(7, 22):02d}:{rng.randint(0, 59):02d}"


# --- filler tool outputs -------------------------------------------------------------------------------------------

def _fpath(rng: random.Random) -> str:
    c = rng.choice(F_COMPS)
    return f"src/features/{rng.choice(F_FEATS)}/{c}{rng.choice(('.tsx', '.tsx', '.test.tsx', '.module.css', '.stories.tsx'))}"


def _tsx_lines(rng: random.Random, comp: str) -> list[str]:
    hook = rng.choice(F_HOOKS)
    ns = rng.choice(F_NS)
    lines = [
        "import { useTranslation } from 'react-i18next';",
        f"import {{ {hook} }} from '../../hooks/{hook}';",
        f"import styles from './{comp}.module.css';",
        "",
        f"export interface {comp}Props {{",
        "  stopId: string;",
        "  compact?: boolean;",
        "  onSelect?: (id: string) => void;",
        "}",
        "",
        f"export function {comp}({{ stopId, compact = false, onSelect }}: {comp}Props) {{",
        f"  const {{ t }} = useTranslation('{ns}');",
        f"  const {{ data, error, isLoading }} = {hook}(stopId);",
        "  if (isLoading) return <Skeleton rows={compact ? 3 : 8} />;",
        f"  if (error) return <ErrorState message={{t('{ns}.loadFailed')}} />;",
        "  return (",
        f"    <section className={{styles.root}} aria-label={{t('{ns}.title')}}>",
        "      <ul role=\"list\">",
        "        {data?.items.map((item) => (",
        "          <li key={item.id} className={styles.row}>",
        "            <LineBadge line={item.line} />",
        "            <span className={styles.destination}>{item.destination}</span>",
        "            <time dateTime={item.expected}>{formatTime(item.expected)}</time>",
        "            <button type=\"button\" onClick={() => onSelect?.(item.id)}>",
        f"              {{t('{ns}.details')}}",
        "            </button>",
        "          </li>",
        "        ))}",
        "      </ul>",
        "    </section>",
        "  );",
        "}",
    ]
    return lines


def _out_read(rng: random.Random) -> tuple[dict[str, Any], str]:
    kind = rng.random()
    if kind < 0.55:
        comp = rng.choice(F_COMPS)
        path = f"src/features/{rng.choice(F_FEATS)}/{comp}.tsx"
        lines = _tsx_lines(rng, comp)
        lines = lines + [""] + _tsx_lines(rng, comp + "Row")[4:]
    elif kind < 0.8:
        ns = rng.choice(F_NS)
        lang = rng.choice(("sv-SE", "en-GB"))
        path = f"src/i18n/{lang}/{ns}.json"
        lines = ["{"]
        sv = lang == "sv-SE"
        for i in range(rng.randint(28, 60)):
            stop = rng.choice(F_STOPS)
            key = f"{ns}.{rng.choice(('title', 'empty', 'loadFailed', 'details', 'realtime', 'late', 'cancelled', 'platform', 'track'))}{i}"
            val = (f"Avgångar från {stop}" if sv else f"Departures from {stop}") if i % 3 else (
                f"Spår {{{{track}}}} – {rng.randint(1, 9)} min" if sv else f"Track {{{{track}}}} – {rng.randint(1, 9)} min")
            lines.append(f'  "{key}": "{val}",')
        lines.append('  "_meta": "generated"')
        lines.append("}")
    else:
        path = rng.choice(("vite.config.ts", "playwright.config.ts", ".env.development", "codegen.ts"))
        lines = [
            "import { defineConfig } from 'vite';" if path.startswith("vite") else "// shared config",
            "export default defineConfig({",
            "  server: { port: 5173, proxy: { '/graphql': 'http://localhost:4000' } },",
            f"  build: {{ sourcemap: true, chunkSizeWarningLimit: {rng.choice((600, 800, 1000))} }},",
            "  test: { environment: 'jsdom', setupFiles: ['./src/test/setup.ts'] },",
            f"  retries: process.env.CI ? {rng.choice((1, 2))} : 0,",
            "  use: { baseURL: 'http://localhost:5173', trace: 'on-first-retry' },",
            "  projects: [",
            "    { name: 'chromium', use: { ...devices['Desktop Chrome'] } },",
            "    { name: 'webkit', use: { ...devices['Desktop Safari'] } },",
            "    { name: 'mobile', use: { ...devices['Pixel 5'] } },",
            "  ],",
            "});",
        ] * rng.randint(2, 4)
    numbered = "\n".join(f"{i + 1:>4}  {line}" for i, line in enumerate(lines))
    return {"path": path}, numbered


def _tsc_err(rng: random.Random) -> str:
    comp = rng.choice(F_COMPS)
    code, msg = rng.choice((
        ("TS2322", "Type 'string | undefined' is not assignable to type 'string'."),
        ("TS2339", f"Property 'platform' does not exist on type '{comp}Props'."),
        ("TS7006", "Parameter 'item' implicitly has an 'any' type."),
        ("TS2345", "Argument of type 'number' is not assignable to parameter of type 'string'."),
        ("TS18048", "'data.items' is possibly 'undefined'."),
    ))
    return f"src/features/{rng.choice(F_FEATS)}/{comp}.tsx({rng.randint(3, 240)},{rng.randint(1, 40)}): error {code}: {msg}"


def _out_npm(rng: random.Random) -> tuple[dict[str, Any], str]:
    script = rng.choice(("test", "build", "lint", "typecheck", "test", "build", "outdated"))
    head = f"> pendla-web@3.{rng.randint(10, 19)}.0 {script}\n"
    if script == "typecheck":
        head += "> tsc --noEmit -p tsconfig.app.json\n\n"
        errs = [_tsc_err(rng) for _ in range(rng.randint(0, 14))]
        body = "\n".join(errs) + (f"\n\nFound {len(errs)} errors in {max(1, len(errs) // 2)} files.\n" if errs else "")
        body += "\n" + "\n".join(f"  {_fpath(rng)}" for _ in range(rng.randint(10, 30)))
        return {"args": ["run", "typecheck"]}, head + body
    if script == "lint":
        head += "> eslint . --ext .ts,.tsx --report-unused-disable-directives\n\n"
        out = []
        for _ in range(rng.randint(3, 8)):
            out.append(_fpath(rng))
            for _ in range(rng.randint(1, 5)):
                rule = rng.choice(("react-hooks/exhaustive-deps", "@typescript-eslint/no-unused-vars",
                                   "jsx-a11y/no-autofocus", "import/order", "react/jsx-key", "jsx-a11y/alt-text"))
                level = rng.choice(("warning", "warning", "error"))
                out.append(f"  {rng.randint(1, 300)}:{rng.randint(1, 60)}  {level}  see rule docs  {rule}")
            out.append("")
        out.append(f"✖ {rng.randint(4, 40)} problems ({rng.randint(0, 6)} errors, {rng.randint(4, 30)} warnings)")
        return {"args": ["run", "lint"]}, head + "\n".join(out)
    if script == "build":
        head += "> tsc -b && vite build\n\nvite v5.4.11 building for production...\ntransforming...\n"
        out = [f"✓ {rng.randint(1800, 2600)} modules transformed.", "rendering chunks...", "computing gzip size..."]
        out.append(f"dist/index.html                          {_even(rng, 1, 3)} kB │ gzip:  {_even(rng, 0.5, 1.2)} kB")
        for _ in range(rng.randint(14, 30)):
            name = f"{rng.choice(F_CHUNKS)}-{_hex(rng, 8)}.js"
            out.append(f"dist/assets/{name:<36} {_even(rng, 2, 480):>8} kB │ gzip: {_even(rng, 1, 150):>7} kB │ map: "
                       f"{_even(rng, 10, 1900):>9} kB")
        if rng.random() < 0.3:
            out.append("\n(!) Some chunks are larger than 500 kB after minification. Consider:")
            out.append("- Using dynamic import() to code-split the application")
        out.append(f"✓ built in {_even(rng, 6, 30)}s")
        return {"args": ["run", "build"]}, head + "\n".join(out)
    if script == "outdated":
        out = ["Package                     Current   Wanted   Latest  Location"]
        for p in ("react", "react-dom", "@apollo/client", "vite", "vitest", "@playwright/test", "typescript", "eslint",
                  "i18next", "react-i18next", "date-fns", "launchdarkly-react-client-sdk", "@sentry/react",
                  "storybook", "@axe-core/playwright", "graphql", "msw", "prettier"):
            a, b = rng.randint(1, 18), rng.randint(0, 12)
            out.append(f"{p:<27} {a}.{b}.{rng.randint(0, 9):<5} {a}.{b + 1}.0    {a + rng.randint(0, 1)}.{b + 2}.1  "
                       f"node_modules/{p}")
        return {"args": ["outdated"]}, "\n".join(out * rng.randint(1, 2))
    head += "> vitest run\n\n"
    out = [f" RUN  v2.1.{rng.randint(1, 8)} /home/dev/pendla-web\n"]
    fails = 0
    for _ in range(rng.randint(8, 22)):
        comp = rng.choice(F_COMPS)
        ok = rng.random() > 0.12
        fails += not ok
        mark = "✓" if ok else "❯"
        out.append(f" {mark} src/features/{rng.choice(F_FEATS)}/{comp}.test.tsx ({rng.randint(2, 14)} tests) "
                   f"{rng.randint(20, 900)}ms")
        if not ok:
            out.append(f"   × {comp} > {rng.choice(F_TESTS)} {rng.randint(5, 80)}ms")
            out.append(f"     → expected 'Avgår {rng.randint(1, 9)} min' to be 'Avgår {rng.randint(1, 9)} min'")
    out.append("")
    out.append(f" Test Files  {fails} failed | {rng.randint(30, 90)} passed ({rng.randint(40, 95)})")
    out.append(f"      Tests  {fails} failed | {rng.randint(200, 600)} passed ({rng.randint(300, 700)})")
    out.append(f"   Start at  {_clock(rng)}:{rng.randint(10, 59)}")
    out.append(f"   Duration  {_even(rng, 4, 40)}s (transform {rng.randint(500, 3000)}ms, setup {rng.randint(200, 900)}ms)")
    return {"args": ["test", "--", "--run"]}, head + "\n".join(out)


def _out_playwright(rng: random.Random) -> tuple[dict[str, Any], str]:
    proj = rng.choice(("chromium", "webkit", "mobile"))
    total = rng.randint(12, 40)
    out = [f"Running {total} tests using {rng.choice((2, 4, 6))} workers", ""]
    failed = 0
    for i in range(total):
        feat = rng.choice(F_FEATS)
        ok = rng.random() > 0.08
        failed += not ok
        out.append(f"{'✓' if ok else '✘'}  {i + 1} [{proj}] › e2e/{feat}.spec.ts:{rng.randint(5, 200)}:"
                   f"{rng.randint(3, 9)} › {feat} › {rng.choice(F_TESTS)} ({_even(rng, 0.4, 9, 1)}s)")
    if failed:
        out += ["", "  1) locator.click: Target closed", "    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()",
                f"    Locator: getByRole('button', {{ name: '{rng.choice(('Köp biljett', 'Visa avgångar', 'Spara'))}' }})",
                "    Call log:", "      - waiting for getByRole('button')", ""]
    out.append(f"  {failed} failed" if failed else "")
    out.append(f"  {total - failed} passed ({_even(rng, 10, 120, 1)}s)")
    out.append("\nTo open last HTML report run:\n\n  npx playwright show-report\n")
    return {"project": proj, "args": ["--reporter=list"]}, "\n".join(out)


def _out_git(rng: random.Random) -> tuple[dict[str, Any], str]:
    sub = rng.choice(("status", "log", "diff", "log"))
    if sub == "status":
        out = [f"On branch feat/{rng.choice(F_FEATS)}-{rng.randint(100, 999)}",
               "Your branch is up to date with 'origin/main'.", "", "Changes not staged for commit:"]
        for _ in range(rng.randint(3, 12)):
            out.append(f"\tmodified:   {_fpath(rng)}")
        out.append("\nUntracked files:")
        for _ in range(rng.randint(1, 5)):
            out.append(f"\t{_fpath(rng)}")
        return {"args": ["status"]}, "\n".join(out)
    if sub == "log":
        out = []
        for _ in range(rng.randint(12, 30)):
            who = rng.choice(PEOPLE)
            out.append(f"{_hex(rng, 7)} {rng.choice(('fix', 'feat', 'chore', 'refactor', 'test'))}"
                       f"({rng.choice(F_FEATS)}): {rng.choice(F_TESTS)} (WEB-{rng.randint(1000, 3999)}) — {who}, "
                       f"{rng.randint(1, 11)} days ago")
        return {"args": ["log", "--oneline", "-n", "30"]}, "\n".join(out)
    path = _fpath(rng)
    comp = rng.choice(F_COMPS)
    out = [f"diff --git a/{path} b/{path}", f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644", f"--- a/{path}",
           f"+++ b/{path}"]
    for _ in range(rng.randint(3, 7)):
        out.append(f"@@ -{rng.randint(1, 200)},{rng.randint(3, 9)} +{rng.randint(1, 200)},{rng.randint(3, 12)} @@ "
                   f"export function {comp}")
        for line in rng.sample(_tsx_lines(rng, comp), 6):
            out.append(rng.choice(("+", "-", " ")) + line)
    return {"args": ["diff", "--", path]}, "\n".join(out)


def _out_shell(rng: random.Random) -> tuple[dict[str, Any], str]:
    kind = rng.choice(("grep", "dev", "curl", "sentry", "ls"))
    if kind == "grep":
        word = rng.choice(("t('", "useQuery(", "aria-live", "z-index", "ldClient", "Sentry.capture"))
        out = [f"{_fpath(rng)}:{rng.randint(1, 400)}:    {word}{rng.choice(F_NS)}.{rng.choice(F_TESTS)[:12]}"
               for _ in range(rng.randint(15, 45))]
        return {"command": f"rg -n \"{word}\" src | head -50"}, "\n".join(out)
    if kind == "dev":
        out = ["", "  VITE v5.4.11  ready in 612 ms", "", "  ➜  Local:   http://localhost:5173/",
               "  ➜  Network: use --host to expose", ""]
        for _ in range(rng.randint(15, 40)):
            out.append(f"{_clock(rng)}:{rng.randint(10, 59)} [vite] {rng.choice(('hmr update', 'page reload', 'hmr update'))} "
                       f"/{_fpath(rng)}")
            if rng.random() < 0.2:
                out.append(f"{_clock(rng)}:{rng.randint(10, 59)} [proxy] POST /graphql 200 in {rng.randint(20, 900)}ms "
                           f"(op: {rng.choice(('Departures', 'StopSearch', 'Tickets', 'Alerts'))})")
        return {"command": "npm run dev -- --port 5173 & sleep 20; kill %1"}, "\n".join(out)
    if kind == "curl":
        items = []
        for _ in range(rng.randint(6, 16)):
            items.append({"line": rng.choice(F_LINES), "destination": rng.choice(F_STOPS),
                          "expected": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{_clock(rng)}:00+01:00",
                          "platform": str(rng.randint(1, 4)), "realtime": rng.random() > 0.3,
                          "deviations": [] if rng.random() > 0.2 else [{"text": "Försenad", "importance": 5}]})
        body = json.dumps({"data": {"departures": {"stop": rng.choice(F_STOPS), "items": items}}}, ensure_ascii=False,
                          indent=2)
        return {"command": "curl -s localhost:4000/graphql -H 'content-type: application/json' "
                           "-d @queries/departures.json | jq"}, body
    if kind == "sentry":
        out = ["+--------------+------------------------------------------------------------+--------+-------+",
               "| Short ID     | Title                                                      | Events | Users |",
               "+--------------+------------------------------------------------------------+--------+-------+"]
        for _ in range(rng.randint(8, 20)):
            sid = f"PENDLA-WEB-{rng.choice('23456789ABCDEFGHJK')}{rng.choice('23456789ABCDEFGHJK')}"
            title = rng.choice((f"TypeError: Cannot read properties of null (reading '{rng.choice(('line', 'stop', 'id'))}')",
                                "ChunkLoadError: Loading chunk failed", "ApolloError: Response not successful",
                                "ResizeObserver loop completed with undelivered notifications",
                                f"Error: Hydration failed in {rng.choice(F_COMPS)}"))
            out.append(f"| {sid:<12} | {title[:58]:<58} | {_ieven(rng, 2, 4000):>6} | {_ieven(rng, 2, 900):>5} |")
        return {"command": "sentry-cli issues list --project pendla-web --status unresolved"}, "\n".join(out)
    out = []
    for _ in range(rng.randint(20, 50)):
        out.append(f"-rw-r--r--  1 dev  staff  {rng.randint(200, 30000):>6} {rng.choice(('jan', 'feb', 'mar', 'okt', 'nov'))} "
                   f"{rng.randint(1, 28):>2} {_clock(rng)} {_fpath(rng).split('/')[-1]}")
    return {"command": f"ls -la src/features/{rng.choice(F_FEATS)}"}, "\n".join(out)


def _out_browser(rng: random.Random) -> tuple[dict[str, Any], str]:
    kind = rng.choice(("axe", "lighthouse", "snapshot", "console"))
    url = f"http://localhost:5173/{rng.choice(F_FEATS)}?stop={rng.randint(1000, 9999)}"
    if kind == "axe":
        out = [f"axe-core 4.10.{rng.randint(0, 2)} — {url}", f"Violations: {rng.randint(1, 9)}", ""]
        for _ in range(rng.randint(4, 10)):
            rule = rng.choice(("color-contrast", "button-name", "label", "region", "aria-allowed-role", "link-name"))
            out.append(f"[{rng.choice(('serious', 'moderate', 'critical'))}] {rule}: {rng.randint(1, 12)} nodes")
            out.append(f"  .{rng.choice(F_COMPS).lower()}__{rng.choice(('row', 'time', 'badge', 'title'))}")
            if rule == "color-contrast":
                out.append(f"  Element has insufficient color contrast of {_even(rng, 2.0, 4.4)} (foreground color: "
                           f"#{_hex(rng, 3)}, background color: #fff, font size: 10.5pt (14px)). Expected contrast ratio "
                           "of 4.5:1")
            else:
                out.append("  Fix any of the following: Element does not have text that is visible to screen readers")
        return {"action": "axe", "url": url}, "\n".join(out)
    if kind == "lighthouse":
        out = [f"Lighthouse 12.2.1 — {url} (mobile, simulated slow 4G)", "",
               f"Performance      {_ieven(rng, 30, 98)}", f"Accessibility    {_ieven(rng, 70, 100)}",
               f"Best Practices   {_ieven(rng, 70, 100)}", f"SEO              {_ieven(rng, 70, 100)}", "",
               f"First Contentful Paint: {_even(rng, 0.8, 3.5)} s", f"Largest Contentful Paint: {_even(rng, 1.2, 6)} s",
               f"Total Blocking Time: {_ieven(rng, 20, 1400)} ms", f"Cumulative Layout Shift: {_even(rng, 0, 0.3, 3)}",
               f"Speed Index: {_even(rng, 1, 6)} s", "", "Opportunities:"]
        for _ in range(rng.randint(4, 9)):
            out.append(f"  - {rng.choice(('Reduce unused JavaScript', 'Properly size images', 'Avoid long main-thread tasks', 'Serve images in next-gen formats', 'Reduce unused CSS'))}: "
                       f"est. savings {_ieven(rng, 40, 900)} ms")
        return {"action": "lighthouse", "url": url}, "\n".join(out)
    if kind == "console":
        out = [f"[{_clock(rng)}:{rng.randint(10, 59)}] {rng.choice(('log', 'warn', 'info', 'debug'))} "
               f"{rng.choice(('[apollo] cache write Departures', '[i18n] missing key departures.platform0', '[ld] flags ready', '[sentry] breadcrumb navigation', 'Download the React DevTools for a better development experience'))}"
               for _ in range(rng.randint(15, 40))]
        return {"action": "console", "url": url}, "\n".join(out)
    out = [f"- document \"{rng.choice(F_STOPS)} – Pendla\""]
    for _ in range(rng.randint(20, 45)):
        role = rng.choice(("button", "link", "heading", "listitem", "text", "img"))
        out.append(f"  - {role} \"{rng.choice(F_STOPS)} {rng.choice(F_LINES)} {rng.randint(1, 15)} min\" [ref=e{rng.randint(1, 999)}]")
    return {"action": "snapshot", "url": url}, "\n".join(out)


def _out_edit(rng: random.Random) -> tuple[dict[str, Any], str]:
    path = _fpath(rng)
    comp = rng.choice(F_COMPS)
    old = rng.choice(_tsx_lines(rng, comp)[10:28]).strip()
    new = old.replace("compact", "dense") if "compact" in old else old + " // reviewed"
    lines = [f"Applied 1 edit to {path} (-1 +{rng.randint(1, 6)})", ""]
    for ln in rng.sample(_tsx_lines(rng, comp), 12):
        lines.append(f"  {rng.randint(1, 200):>4} {ln}")
    return {"path": path, "old_string": old, "new_string": new}, "\n".join(lines)


def _out_write(rng: random.Random) -> tuple[dict[str, Any], str]:
    comp = rng.choice(F_COMPS)
    path = f"src/features/{rng.choice(F_FEATS)}/{comp}.stories.tsx"
    body = "\n".join(["import type { Meta, StoryObj } from '@storybook/react';", f"import {{ {comp} }} from './{comp}';",
                      "", f"const meta: Meta<typeof {comp}> = {{ component: {comp}, args: {{ stopId: '{rng.randint(1000, 9999)}' }} }};",
                      "export default meta;", f"export const Default: StoryObj<typeof {comp}> = {{}};",
                      f"export const Compact: StoryObj<typeof {comp}> = {{ args: {{ compact: true }} }};"])
    return {"path": path, "content": body}, f"Wrote {len(body)} bytes to {path}"


def _out_todo(rng: random.Random) -> tuple[dict[str, Any], str]:
    items = rng.sample(("fix tsc errors in departures", "axe: contrast on line badges", "e2e: ticket purchase on webkit",
                        "bundle: split vendor-apollo", "i18n: missing sv keys", "Storybook: stories for AlertsPanel",
                        "Sentry: hydration error on /map", "LD flag cleanup: journey-share", "review PR comments from Sara",
                        "Lighthouse: LCP on start page"), rng.randint(4, 8))
    todos = [{"content": c, "status": rng.choice(("pending", "in_progress", "completed"))} for c in items]
    done = sum(t["status"] == "completed" for t in todos)
    return {"todos": todos}, f"Todos updated: {len(todos)} items ({done} completed)."


FILLERS: dict[str, Callable[[random.Random], tuple[dict[str, Any], str]]] = {
    "read_file": _out_read, "npm": _out_npm, "playwright": _out_playwright, "git": _out_git, "shell": _out_shell,
    "browser": _out_browser, "edit_file": _out_edit, "write_file": _out_write, "todo_write": _out_todo,
}
FILLER_WEIGHTS = (("read_file", 5), ("npm", 6), ("playwright", 2), ("git", 2), ("shell", 4), ("browser", 3),
                  ("edit_file", 3), ("write_file", 1), ("todo_write", 1))
_WEIGHTED = [name for name, w in FILLER_WEIGHTS for _ in range(w)]

# --- filler talk ---------------------------------------------------------------------------------------------------

USER_FILLER = (
    "ok", "go", "kör", "okej kör", "nice", "👍", "ja", "hmm varför?", "tack!", "fortsätt", "sounds good", "yes pls",
    "kan du kolla {comp} också?", "vänta, vad händer i {path}?", "kör testerna igen", "what's failing now?",
    "asså varför är {comp} så långsam på mobil", "can you run the e2e suite on webkit",
    "kolla bundle-storleken efter din ändring", "gör en axe-körning på /{feat}", "hur ser git status ut?",
    "jag är tillbaka, var var vi?", "lunch, back {clock}", "kan du sammanfatta läget", "fix the lint stuff first",
    "{person} frågar om {comp} är klar till standupen {clock}", "looks weird on my iPhone, check {feat}",
    "läs {path} och säg vad den gör", "uppdatera todo-listan", "any new Sentry issues on {feat}?",
    "ok men det där med {line} vid {stop}, funkar det nu?",
)
ASSISTANT_FILLER = (
    "Checked {path}. It renders {n} rows per stop and memoizes the row component; nothing obviously wrong there.",
    "Typecheck is clean on the {feat} feature. {n} warnings from ESLint remain, all `import/order`, I left them.",
    "Done. The change touches {path} only; {n} tests in that folder still pass.",
    "I see two options: (a) keep {comp} as is and add a skeleton, or (b) move the fetch up to the route loader. (a) is "
    "smaller; (b) fixes the waterfall on /{feat}. Which do you prefer?",
    "Summary so far: {comp} is refactored, the {feat} e2e tests pass on chromium, webkit still has {n} flaky ones. "
    "Next I'd look at the Sentry hydration error.",
    "The e2e run finished. {n} tests failed, all in {feat}.spec.ts and all on the same locator, so I think it's one cause.",
    "Found it: {path}:{line_no} reads `data.items` before the query resolves. I'll guard it.",
    "Lighthouse on /{feat} is about the same as yesterday. The main cost is still the map vendor chunk.",
    "Updated the todo list. {n} items left; the biggest is the webkit flake.",
    "Nothing new in Sentry since {clock} for {feat}; the top issue is still the ResizeObserver noise.",
    "Hmm, the dev server was still running from before on 5173, so my run hit the old build. Re-ran it, results above.",
    "git status shows {n} modified files, all under src/features/{feat}. Nothing staged yet.",
    "That JSON from the GraphQL endpoint has `realtime: false` for {n} of the items, which is why the badge is missing.",
    "I'd keep this PR small: {comp} plus its test. The i18n keys can go in a follow-up.",
    "Ran `rg` over src: {n} call sites of that hook. Only {comp} passes a stale stopId.",
)


def _fill_text(rng: random.Random, template: str) -> str:
    if "{" not in template:
        return template
    return template.format(comp=rng.choice(F_COMPS), path=_fpath(rng), feat=rng.choice(F_FEATS), n=rng.randint(2, 19),
                           clock=_clock(rng), person=rng.choice(PEOPLE), line=rng.choice(F_LINES),
                           stop=rng.choice(F_STOPS), line_no=rng.randint(12, 260))


def _assistant_text(rng: random.Random) -> str:
    """A filler answer: one to three remarks, sometimes a status table or a short list of options."""
    parts = [_fill_text(rng, t) for t in rng.sample(ASSISTANT_FILLER, rng.choice((1, 2, 2, 3)))]
    r = rng.random()
    if r < 0.25:
        rows = [f"| {c} | {res} |" for c, res in rng.sample((
            ("tsc", f"{rng.randint(0, 9)} errors"), ("eslint", f"{rng.randint(0, 30)} warnings"),
            ("vitest", f"{rng.randint(300, 600)} passed, {rng.randint(0, 3)} failed"),
            ("playwright chromium", f"{rng.randint(20, 40)}/{rng.randint(40, 44)}"),
            ("playwright webkit", f"{rng.randint(20, 40)}/{rng.randint(40, 44)}"),
            ("bundle (index)", f"{_even(rng, 80, 140)} kB gzip"), ("Lighthouse perf", str(_ieven(rng, 40, 96))),
            ("axe", f"{rng.randint(0, 12)} violations")), rng.randint(3, 6))]
        parts.append("\n".join(["| check | result |", "|---|---|", *rows]))
    elif r < 0.4:
        parts.append("Options:\n1. " + _fill_text(rng, "keep {comp} and only fix the test") + "\n2. "
                     + _fill_text(rng, "move the data loading for /{feat} into the route loader") + "\n3. leave it for now "
                     "and note it in the todo list")
    return "\n\n".join(parts) if rng.random() < 0.5 else " ".join(parts)


# --- the chat being built ------------------------------------------------------------------------------------------

class _Chat:
    def __init__(self, rng: random.Random, scale: float = 1.0, goal: float = 1550.0) -> None:
        self.rng = rng
        self.scale = scale
        self.goal = goal  # characters a message, on average, the filler steers towards
        self.chars = 0
        self.messages: list[Message] = []
        self.used: set[str] = set()
        self._calls = 0

    def __len__(self) -> int:
        return len(self.messages)

    def user(self, text: str) -> int:
        self.chars += len(text)
        self.messages.append({"role": "user", "content": text})
        return len(self.messages) - 1

    def say(self, text: str) -> int:
        self.chars += len(text)
        self.messages.append({"role": "assistant", "content": text})
        return len(self.messages) - 1

    def work(self, text: str, calls: list[tuple[str, dict[str, Any], str]]) -> tuple[int, list[int]]:
        """An assistant message with ``calls`` (name, arguments, output), answered at once; its index and the tools'."""
        ids: list[str] = []
        tool_calls: list[dict[str, Any]] = []
        for name, args, _out in calls:
            self._calls += 1
            cid = f"call_{self._calls:05d}{_hex(self.rng, 8)}"
            ids.append(cid)
            arguments = _j(args)
            tool_calls.append({"id": cid, "type": "function", "function": {"name": name, "arguments": arguments}})
            self.chars += len(arguments) + len(_out) + 1
            self.used.add(name)
        self.messages.append({"role": "assistant", "content": text, "tool_calls": tool_calls})
        at = len(self.messages) - 1
        outs = []
        for cid, (name, _args, out) in zip(ids, calls):
            self.messages.append({"role": "tool", "tool_call_id": cid, "name": name, "content": out})
            outs.append(len(self.messages) - 1)
        return at, outs

    # filler ---------------------------------------------------------------------------------------------------------

    def filler_call(self, name: str | None = None) -> tuple[str, dict[str, Any], str]:
        rng = self.rng
        if name is None:
            unused = [t for t in TOOLS if t not in self.used]
            name = unused[0] if unused else rng.choice(_WEIGHTED)
        args, out = FILLERS[name](rng)
        target = int(rng.randint(1800, 6000) * self.scale)
        deficit = self.goal * len(self.messages) - self.chars  # steer the running size towards the goal
        target = min(14000, max(900, target + int(deficit * 0.25)))
        if len(out) < target and name not in ("todo_write", "write_file"):
            parts = [out]
            size = len(out)
            while size < target:
                _a, more = FILLERS[name](rng)
                parts.append(more)
                size += len(more) + 1
            out = "\n".join(parts)
        return name, args, out

    def fill(self, g: int, exact: bool = False) -> None:
        """Append ``g`` messages of filler turns ending on an answer (``g == 1``: a short note; not when ``exact``)."""
        rng = self.rng
        while g > 0:
            if g == 1:
                if exact:
                    self.say(_assistant_text(rng))
                    return
                g = 2
            choices = [s for s in range(2, min(g, 11) + 1) if g - s != 1]
            s = rng.choice(choices)
            self.turn(s)
            g -= s

    def turn(self, s: int) -> None:
        rng = self.rng
        if s == 2:
            self.user(_fill_text(rng, rng.choice(USER_FILLER)))
            self.say(_assistant_text(rng))
            return
        r = s - 1
        if s >= 4 and rng.random() < 0.85:
            self.user(_fill_text(rng, rng.choice(USER_FILLER)))
            r = s - 2
        while r > 0:
            c = rng.choice([c for c in (1, 1, 2, 3) if r - (1 + c) not in (1,) and 1 + c <= r])
            self.work(rng.choice(("", "Let me check.", "Kollar.", "Running it.", "Looking at the file first.", "")),
                      [self.filler_call() for _ in range(c)])
            r -= 1 + c
        self.say(_assistant_text(rng))

    def ack(self, text: str, tool: bool) -> None:
        """The agent's answer to a user's message: a call and its result first when ``tool``, then ``text``."""
        if tool:
            self.work(self.rng.choice(("Okej.", "Noted.", "", "Got it, checking the current state.")),
                      [self.filler_call()])
        self.say(text)


# --- planted values ------------------------------------------------------------------------------------------------

class _Values:
    """Distinct planted values: none is a substring of another."""

    def __init__(self) -> None:
        self.taken: list[str] = []

    def ok(self, *values: str) -> bool:
        for v in values:
            if any(v in t or t in v for t in self.taken):
                return False
        return all(a not in b for a in values for b in values if a is not b) and len(set(values)) == len(values)

    def take(self, *values: str) -> None:
        self.taken.extend(values)


def _draw(rng: random.Random, vals: _Values, makers: Sequence[Callable[[random.Random], dict[str, Any]]],
          i: int) -> dict[str, Any]:
    for attempt in range(200):
        maker = makers[(i + attempt) % len(makers)] if attempt < len(makers) else rng.choice(makers)
        d = maker(rng)
        keys = [d["value"]] + ([d["stale"]] if d.get("stale") else [])
        if vals.ok(*keys):
            vals.take(*keys)
            return d
    raise RuntimeError("could not draw a distinct value")


def _near_digits(rng: random.Random, digits: str) -> str:
    """The same digits with two neighbours swapped or one digit changed."""
    for _ in range(20):
        i = rng.randrange(len(digits) - 1)
        if digits[i] != digits[i + 1]:
            return digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
    i = rng.randrange(len(digits))
    return digits[:i] + str((int(digits[i]) + 3) % 10) + digits[i + 1:]


# instructions: (value, query, text); later ones may be adopted from a pasted document

def _ins_legacy(rng: random.Random) -> dict[str, Any]:
    v = f"src/legacy/{rng.choice(P_COMPS)}Widget/"
    who = rng.choice(PEOPLE)
    return {"value": v, "query": "Which legacy folder belongs to another team and must be left alone?",
            "text": f"asså en grej innan du kör vidare.\n\nVi rör aldrig `{v}` — det är {who}s team som äger den, även "
                    "om tsc klagar där. Låt felen ligga.", "ack": f"Förstått, jag låter `{v}` vara helt."}


def _ins_flag(rng: random.Random) -> dict[str, Any]:
    v = f"{rng.choice(P_FEATS)}-{rng.choice(P_WORDS)}-rollout-{rng.randint(2, 9)}"
    t = rng.randint(4000, 4999)
    return {"value": v, "query": "Which LaunchDarkly flag must stay untouched until a pending ticket is merged?",
            "text": f"Thanks, that looks right.\n\nUntil WEB-{t} is merged, don't flip `{v}` in LaunchDarkly — not in "
                    "staging either, the PO demos from staging.", "ack": f"OK — `{v}` stays as it is until WEB-{t} lands."}


def _ins_shard(rng: random.Random) -> dict[str, Any]:
    b = rng.randint(3, 9)
    v = f"--shard={rng.randint(1, b)}/{b}"
    return {"value": v, "query": "How must the Playwright suite be split up when it runs on CI?",
            "text": f"hos oss kör Playwright alltid med `{v}` på CI, annars slår vi i timeouten på runnern. lokalt "
                    "spelar det ingen roll", "ack": "Noted, I'll keep the CI invocation sharded that way."}


def _ins_budget(rng: random.Random) -> dict[str, Any]:
    v = f"{_iodd(rng, 141, 239)} kB gzipped"
    return {"value": v, "query": "What size budget must the main entry chunk stay under?",
            "text": f"I'd rather we keep the main entry chunk under {v}. That's the number we promised the PO in the "
                    "perf review, so anything that pushes it over needs a lazy import.",
            "ack": f"Got it: main entry under {v}; I'll check the build table after each change."}


def _ins_script(rng: random.Random) -> dict[str, Any]:
    v = f"npm run seed:{rng.choice(P_FEATS)}-{rng.choice(P_WORDS)}"
    return {"value": v, "query": "Which npm script must never be run against the production API?",
            "text": f"vi kör aldrig `{v}` mot prod-API:t. bara mot mock-servern (msw) eller lokalt. den skriver riktiga "
                    "rader i trafikdatabasen", "ack": "Okej, det scriptet kör jag bara mot msw."}


def _ins_zindex(rng: random.Random) -> dict[str, Any]:
    v = f"--z-{rng.choice(P_WORDS)}-{rng.randint(3, 9)}{rng.choice('135')}0"
    return {"value": v, "query": "Which CSS custom property must be used instead of a hardcoded z-index for overlays?",
            "text": f"Looks good so far.\n\nOne thing though: we never hardcode z-index in this repo. Overlays use "
                    f"`{v}` and nothing else, it's in tokens.css.", "ack": "Understood, no literal z-index values."}


def _ins_snap(rng: random.Random) -> dict[str, Any]:
    who = rng.choice(PEOPLE)
    v = f"e2e/__snapshots__/{rng.choice(P_FEATS)}-{rng.choice(P_COMPS)}/"
    return {"value": v, "query": "Where must no screenshot snapshots be pushed until the designer approves?",
            "text": f"tills {who} har godkänt designen pushar vi inga snapshots till `{v}`. kör gärna lokalt men committa "
                    "inte dem", "ack": f"Okej — inga committade snapshots där innan {who} sagt ja."}


def _ins_format(rng: random.Random) -> dict[str, Any]:
    v = f"format{rng.choice(P_WORDS).capitalize()}Departure()"
    return {"value": v, "query": "Which helper must every departure time in the list be formatted with?",
            "text": f"Also, for anything touching the timetable UI: departure times always go through `{v}` — never "
                    "toLocaleTimeString, it breaks in Safari with the sv locale.",
            "ack": "Noted; I'll route the times through that helper."}


def _ins_coverage(rng: random.Random) -> dict[str, Any]:
    v = f"{_iodd(rng, 61, 89)}% branch coverage"
    return {"value": v, "query": "What test coverage must a new component have before it gets a PR?",
            "text": f"jag föredrar att alla nya komponenter har minst {v} i Vitest innan det blir en PR. annars blir "
                    "det bara skuld", "ack": "Okej, jag kollar coverage-rapporten innan jag föreslår en PR."}


def _ins_sv_review(rng: random.Random) -> dict[str, Any]:
    who = rng.choice(PEOPLE)
    v = f"@pendla/{rng.choice(P_WORDS)}-tokens"
    return {"value": v, "query": "Which package must never be upgraded without a designer's review?",
            "text": f"sorry, en sak till.\n\nvi uppgraderar aldrig `{v}` utan att {who} från design har kollat, även "
                    "patchar. renovate-PR:arna för den stänger vi bara", "ack": f"Okej, den rör jag inte utan {who}."}


INSTRUCTIONS = [_ins_legacy, _ins_flag, _ins_shard, _ins_budget, _ins_script, _ins_zindex, _ins_snap, _ins_format,
                _ins_coverage, _ins_sv_review]


def _audit_doc(rng: random.Random) -> str:
    name = rng.choice(("Annika Berglund", "Tomas Lind", "Helena Ek"))
    return "\n".join([
        f"Tillgänglighetsgranskning – pendla-web, version 3.{rng.randint(10, 19)} ({name}, Funka-certifierad)",
        "",
        "Sammanfattning: 14 avvikelser mot WCAG 2.2 AA, varav 4 allvarliga.",
        "",
        "1.4.3 Kontrast (minimum): Linjemärken för pendeltåg har för låg kontrast mot vit bakgrund. Åtgärd: Höj "
        "kontrasten till minst 4.5:1 för text under 18pt.",
        "2.4.7 Synligt fokus: Fokusmarkering saknas på biljettkorten. Do not remove the outline without a replacement.",
        "2.5.8 Target size: Interactive targets must be at least 24 by 24 CSS pixels (AA). Please fix the close buttons "
        "in the disruption sheet first.",
        "4.1.3 Statusmeddelanden: Realtidsuppdateringar annonseras inte. Use aria-live=\"polite\" on the departure list.",
        f"Granskat med NVDA 2024.{rng.randint(1, 4)}, VoiceOver iOS 17, TalkBack 14. Ärende A11Y-{rng.randint(200, 299)}.",
        "Återkoppla senast fredag vecka 12. Boka uppföljning via mail.",
    ])


def _legal_doc(rng: random.Random) -> str:
    return "\n".join([
        "From: Legal <legal@pendla.se>",
        f"Subject: Cookie consent – GDPR follow-up (ref LEG-{rng.randint(100, 199)})",
        "",
        "Hi team,",
        "Following the IMY guidance, please make sure that no non-essential cookies or local storage entries are set "
        "before the user has actively consented. Do not pre-tick any categories in the banner.",
        f"The consent record must be kept for {rng.choice((12, 13))} months. Reject must be as easy as accept (same "
        "level, same size).",
        "Please confirm by replying to this mail before the next release. Do not ship the new analytics tag until then.",
        "Best regards, Katarina (Legal counsel)",
    ])


def _figma_doc(rng: random.Random) -> str:
    return "\n".join([
        f"Figma handoff – Störningsinfo v{rng.randint(2, 5)} (from {rng.choice(PEOPLE)}, design)",
        "- Use the new 'Alert/Warning' component, not the old banner. Don't use red for planned track work, only for "
        "cancellations.",
        "- Card radius 12, padding 16/20, shadow elevation-2. Icons 20px from the SL icon set.",
        "- Dark mode: please check the yellow on dark surface, it was flagged last time.",
        "- Copy is final in Swedish, English is placeholder – don't ship English copy without review.",
        f"- Prototype: frame 'Disruption / Mobile / {rng.randint(3, 9)}', see comments from the PO.",
    ])


def _jira_doc(rng: random.Random) -> str:
    return "\n".join([
        f"WEB-{rng.randint(4000, 4999)}: Som resenär vill jag se hissavbrott på min resa",
        "",
        "Acceptance criteria:",
        "- Given a journey with a step-free leg, when an elevator on the route is out of order, then show a warning on "
        "the leg.",
        "- Show the estimated repair time if the operator provides one.",
        "- Do not hide the journey; offer an alternative instead.",
        f"Story points: {rng.choice((3, 5, 8))}   Sprint: Spårvagn {rng.randint(30, 45)}   Reporter: {rng.choice(PEOPLE)} (PO)",
        "Notes: please coordinate with the app team before changing the GraphQL schema.",
    ])


def _sentry_doc(rng: random.Random) -> str:
    rows = [f"- PENDLA-WEB-{rng.choice('23456789')}{rng.choice('ABCDEFGH')}  {t}  {_ieven(rng, 20, 3000)} events, "
            f"{_ieven(rng, 2, 800)} users" for t in ("ChunkLoadError: Loading chunk MapView failed",
                                                   "TypeError: Cannot read properties of null (reading 'stop')",
                                                   "ApolloError: Response not successful: Received status code 502")]
    return "\n".join([f"Sentry weekly digest – pendla-web (production) – week {rng.randint(2, 50)}", "", "Top new issues:",
                      *rows, "", "Resolve or assign these issues. Do not ignore regressions older than 14 days.",
                      "Manage your notification settings at sentry.io/settings/account/notifications/"])


def _lhci_doc(rng: random.Random) -> str:
    return "\n".join([
        "🤖 **Lighthouse CI** (lhci-bot)",
        "",
        "| URL | Performance | Accessibility | Best practices | SEO |",
        "|---|---|---|---|---|",
        f"| /departures | {_ieven(rng, 40, 90)} | {_ieven(rng, 80, 100)} | {_ieven(rng, 80, 100)} | {_ieven(rng, 80, 100)} |",
        f"| /map | {_ieven(rng, 30, 80)} | {_ieven(rng, 80, 100)} | {_ieven(rng, 80, 100)} | {_ieven(rng, 80, 100)} |",
        "",
        "⚠️ Assertion failed: categories:performance (expected >= 0.8). Please fix the regression before merging.",
        f"Report: https://lhci.pendla.dev/app/projects/pendla-web/compare/{_hex(rng, 12)}",
    ])


PASTE_DOCS: list[tuple[str, Callable[[random.Random], str], str]] = [
    ("a11y", _audit_doc, "här är auditen från konsulten, fick den nyss:"),
    ("legal", _legal_doc, "fwd from legal, fyi:"),
    ("figma", _figma_doc, "Handoff-anteckningarna från design:"),
    ("jira", _jira_doc, "storyn från PO:n, klistrar in:"),
    ("sentry", _sentry_doc, "veckans sentry-digest kom, kolla:"),
    ("lhci", _lhci_doc, "lhci-botten kommenterade på PR:en:"),
]


def _adopt_touch(rng: random.Random) -> dict[str, Any]:
    n = rng.choice((40, 42, 44, 46, 48))
    v = f"{n}×{n} px"
    return {"value": v, "query": "How large must every tap target be, as the user put the audit in their own words?",
            "doc": "a11y", "own": f"ok så, med mina ord, det här gäller hos oss från och med nu: alla klickytor minst {v}, "
                                  "inga undantag i mobilvyn. resten av auditen tar vi i ordning.",
            "ack": f"Noted — tap targets at least {v} everywhere, mobile included. I'll go through the rest of the audit."}


def _adopt_consent(rng: random.Random) -> dict[str, Any]:
    v = f"pendla_consent_v{rng.randint(2, 9)}"
    return {"value": v, "query": "Which cookie must say yes before anything from analytics loads?",
            "doc": "legal", "own": f"So, my version of that: nothing from analytics loads until the `{v}` cookie says yes. "
                                   "That's a hard rule for us now, not just for this release.",
            "ack": f"Understood: analytics stays off until `{v}` is set to yes."}


def _adopt_gap(rng: random.Random) -> dict[str, Any]:
    v = f"gap: var(--space-{rng.choice(('3', '5', '7'))}{rng.choice(('a', 'b', 'c'))})"
    return {"value": v, "query": "Which spacing rule did the user adopt for the cards from the design handoff?",
            "doc": "figma", "own": f"hos oss gäller nu, från handoffen: `{v}` mellan korten, även i dark mode. inga "
                                   "egna marginaler", "ack": "Okej, jag byter de egna marginalerna mot den spacingen."}


ADOPTED = [_adopt_touch, _adopt_consent, _adopt_gap]


# corrections: a stale value said first, a near miss (or another value) later

def _cor_ticket(rng: random.Random) -> dict[str, Any]:
    d = f"{rng.randint(1000, 9999)}"
    n = _near_digits(rng, d)
    return {"stale": f"PEN-{d}", "value": f"PEN-{n}", "query": "Which Jira ticket is the elevator-warning work tracked under?",
            "say": "kan du börja på PEN-{s}? det är hissvarningen på resan", "fix": "nej vänta, fel ticket av mig — det är PEN-{v}, inte PEN-{s}."}


def _cor_flag(rng: random.Random) -> dict[str, Any]:
    base = f"{rng.choice(P_FEATS)}-banner-v"
    a = rng.randint(2, 8)
    return {"stale": f"{base}{a}", "value": f"{base}{a + 1}", "query": "Which LaunchDarkly flag gates the new banner?",
            "say": "The banner should be behind `{s}` in LaunchDarkly, it already exists in staging.",
            "fix": "I gave you the wrong flag earlier. It's `{v}`, the older one is dead."}


def _cor_branch(rng: random.Random) -> dict[str, Any]:
    base = f"feat/{rng.choice(P_FEATS)}-{rng.choice(P_WORDS)}-"
    a = rng.randint(10, 89)
    return {"stale": f"{base}{a}", "value": f"{base}{a + rng.choice((1, 2, 10))}", "query": "Which branch should the work be based on?",
            "say": "basa det på branchen `{s}` så slipper vi konflikter med Saras grej",
            "fix": "sorry, fel av mig: branchen heter `{v}`. den andra är en gammal."}


def _cor_node(rng: random.Random) -> dict[str, Any]:
    a = rng.randint(1000, 9999)
    b = f"{rng.randint(1000, 9999)}"
    return {"stale": f"node-id={a}-{b}", "value": f"node-id={a}-{_near_digits(rng, b)}",
            "query": "Which Figma frame (node id) is the reference for the disruption card?",
            "say": "the frame to follow is `{s}` in the Störningsinfo file", "fix": "no wait, the other one: `{v}`. I copied the link from the wrong tab"}


def _cor_preview(rng: random.Random) -> dict[str, Any]:
    d = f"{rng.randint(100, 999)}"
    return {"stale": f"pr-{d}.preview.pendla.dev", "value": f"pr-{_near_digits(rng, d)}.preview.pendla.dev",
            "query": "Which preview environment should the e2e run be pointed at?",
            "say": "peka e2e mot {s} så ser vi om det är miljön", "fix": "inte {s} utan {v}, jag menade den andra PR:en."}


def _cor_viewport(rng: random.Random) -> dict[str, Any]:
    a, b = rng.choice(((390, 844), (393, 852), (375, 667), (412, 915), (360, 780)))
    c, d = a + rng.choice((2, 4, 8)), b + rng.choice((1, 3, 7))
    return {"stale": f"viewport {a}x{b}", "value": f"viewport {c}x{d}", "query": "Which viewport size should the screenshots be taken at?",
            "say": "ta screenshotsen i {s}, det är vad de flesta av våra användare har", "fix": "jag menade {v}, inte {s} — kollade statistiken igen"}


def _cor_account(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(("kalle", "pelle", "stina", "olle", "greta", "bosse", "lisa"), 2)
    n = rng.randint(10, 99)
    return {"stale": f"resenar.{a}{n}@test.pendla.se", "value": f"resenar.{b}{n + 1}@test.pendla.se",
            "query": "Which test account should the e2e login use?",
            "say": "use the test account {s} for the login step", "fix": "the other account — {v}. the first one got locked yesterday"}


CORRECTIONS = [_cor_ticket, _cor_flag, _cor_branch, _cor_node, _cor_preview, _cor_viewport, _cor_account, _cor_ticket]


# decisions: a chosen value; revised ones have a stale choice from the same maker

def _dec_stale_time(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(range(15, 95, 5), 2)
    return {"value": f"staleTime: {a}_000", "stale": f"staleTime: {b}_000",
            "query": "What staleTime did the user settle on for the departures query?",
            "say": "okej kör på `{x}` för avgångsqueryn, det räcker", "rev": "asså jag ändrar mig, vi kör `{x}` i stället. {y} var för länge"}


def _dec_debounce(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(range(150, 650, 25), 2)
    return {"value": f"debounce {a} ms", "stale": f"debounce {b} ms", "query": "How long should the stop search wait after typing?",
            "say": "let's go with {x} on the stop search", "rev": "changed my mind on the search: {x}, not {y}. it felt sluggish"}


def _dec_lib(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(P_LIBS, 2)
    return {"value": a, "stale": b, "query": "Which library did the user pick for the departure list?",
            "say": "vi tar `{x}` för listan, den verkar minst krånglig",
            "rev": "nej förresten, vi kör `{x}` ändå. `{y}` drog in för mycket"}


def _dec_rows(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(range(3, 16), 2)
    return {"value": f"max {a} departures per stop card", "stale": f"max {b} departures per stop card",
            "query": "How many departures may a stop card show?", "say": "Decision: {x}, the rest behind 'visa fler'.",
            "rev": "Let's revise that: {x}. With {y} the card was too tall on small phones."}


def _dec_skeleton(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(range(100, 600, 20), 2)
    return {"value": f"skeleton after {a} ms", "stale": f"skeleton after {b} ms", "query": "When should the loading skeleton appear?",
            "say": "kör på {x}, innan dess visar vi inget", "rev": "vi ändrar till {x}. {y} flimrade"}


def _dec_poll(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(range(5, 60, 5), 2)
    return {"value": f"poll realtime every {a} s", "stale": f"poll realtime every {b} s",
            "query": "How often should the realtime departures be refreshed?", "say": "let's do {x} while the tab is visible",
            "rev": "ok final answer: {x}. trafiklab complained about {y}"}


def _dec_retries(rng: random.Random) -> dict[str, Any]:
    a, b = rng.sample(range(1, 7), 2)
    return {"value": f"{a} retries on 5xx from the GraphQL gateway", "stale": f"{b} retries on 5xx from the GraphQL gateway",
            "query": "How many times should the client retry server errors from the gateway?",
            "say": "jag väljer {x}, med backoff", "rev": "vänta, vi ändrar: {x}. inte {y}"}


DECISIONS = [_dec_stale_time, _dec_debounce, _dec_lib, _dec_rows, _dec_skeleton, _dec_poll, _dec_retries]


# identifiers said by the user / printed by a tool

def _id_stop(rng: random.Random) -> dict[str, Any]:
    v = f"9021001{rng.randint(10000, 99999)}"
    return {"value": v, "query": "Which stop area id should the departure tests use?",
            "text": f"använd stop area-id {v} i testerna, det är Odenplan-bussarna och den har alltid avgångar"}


def _id_figma_key(rng: random.Random) -> dict[str, Any]:
    v = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") for _ in range(22))
    return {"value": v, "query": "What is the key of the Figma file the designs live in?",
            "text": f"the Figma file key is {v}, if the plugin asks for it"}


def _id_swish(rng: random.Random) -> dict[str, Any]:
    v = f"123{rng.randint(1000000, 9999999)}"
    return {"value": v, "query": "Which Swish test merchant number does the checkout use?",
            "text": f"swish-testhandlaren är {v} i MSS-miljön, lägg den i .env.test"}


def _id_chromatic(rng: random.Random) -> dict[str, Any]:
    v = _hex(rng, 24)
    return {"value": v, "query": "What is the Chromatic app id for the Storybook?",
            "text": f"Chromatic app id: {v} (it's not a secret, it's in the URL)"}


USER_IDS = [_id_stop, _id_figma_key, _id_swish, _id_chromatic]


def _tid_sha(rng: random.Random) -> dict[str, Any]:
    v = _hex(rng, 9)
    return {"value": v, "query": "Which commit introduced the regression, as git printed it?", "tool": "git",
            "args": {"args": ["log", "--oneline", "--abbrev=9", "-S", "platformCode"]},
            "lines": [f"{v} refactor(departures): map platform codes in the resolver layer"],
            "ask": "vilken commit införde det där? kolla git log", "say": "It's `{v}` — the refactor that moved platform mapping."}


def _tid_preview(rng: random.Random) -> dict[str, Any]:
    v = f"https://pendla-web-{''.join(rng.choice('abcdefghijkmnpqrstuvwxyz0123456789') for _ in range(9))}-pendla.vercel.app"
    return {"value": v, "query": "What is the preview deployment URL of this branch?", "tool": "shell",
            "args": {"command": "npx vercel deploy --prebuilt"}, "lines": ["Vercel CLI 37.4.2", "🔍  Inspect: "
                                                                           "https://vercel.com/pendla/pendla-web/inspect",
                                                                           f"✅  Preview: {v} [{rng.randint(20, 59)}s]"],
            "ask": "deploya en preview så jag kan visa PO:n", "say": "Preview is up: {v}"}


def _tid_sentry(rng: random.Random) -> dict[str, Any]:
    v = f"PENDLA-WEB-{''.join(rng.choice('23456789ABCDEFGHJKMNPQRSTVWXYZ') for _ in range(4))}"
    return {"value": v, "query": "What is the Sentry short id of the new elevator crash?", "tool": "shell",
            "args": {"command": "sentry-cli issues list --project pendla-web --query 'is:unresolved firstSeen:-24h'"},
            "lines": [f"| {v} | TypeError: outage.elevator is undefined (ElevatorStatus) | 212 | 97 |"],
            "ask": "any new Sentry issue since the deploy?", "say": "One new issue, {v}: the elevator status crash."}


def _tid_deploy(rng: random.Random) -> dict[str, Any]:
    v = "dpl_" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz123456789") for _ in range(20))
    return {"value": v, "query": "Which deployment id did the release get?", "tool": "shell",
            "args": {"command": "npx vercel inspect pendla-web.vercel.app"},
            "lines": ["  General", "", f"    id\t\t{v}", "    target\tproduction", "    status\t● Ready"],
            "ask": "vilket deployment-id fick releasen?", "say": "The production deployment is {v}."}


TOOL_IDS = [_tid_sha, _tid_preview, _tid_sentry, _tid_deploy]


# errors: (tool, arguments, failing output lines with the value, passing output)

def _err_tsc(rng: random.Random) -> dict[str, Any]:
    c = rng.choice(P_COMPS)
    code, msg = rng.choice((("TS2322", "Type 'number | null' is not assignable to type 'number'."),
                            ("TS2741", f"Property 'stopAreaId' is missing in type '{{}}' but required in type '{c}Props'."),
                            ("TS2551", "Property 'platfrom' does not exist on type 'Departure'. Did you mean 'platform'?")))
    v = f"src/components/{c}/{c}.tsx({rng.randint(10, 300)},{rng.randint(3, 40)}): error {code}: {msg}"
    return {"value": v, "query": "Which type error did the typecheck report?", "tool": "npm", "args": {"args": ["run", "typecheck"]},
            "head": "> pendla-web@3.14.0 typecheck\n> tsc --noEmit -p tsconfig.app.json\n",
            "pass": "> pendla-web@3.14.0 typecheck\n> tsc --noEmit -p tsconfig.app.json\n\n(no output — 0 errors)"}


def _err_vitest(rng: random.Random) -> dict[str, Any]:
    c = rng.choice(P_COMPS)
    title = rng.choice(("visar hissavbrott", "announces the platform change", "hides when the flag is off",
                        "rounds crowding to three levels", "shows replacement bus stop"))
    v = f"FAIL  src/components/{c}/{c}.test.tsx > {c} > {title}"
    return {"value": v, "query": "Which unit test failed in the Vitest run?", "tool": "npm", "args": {"args": ["test", "--", "--run"]},
            "head": "> pendla-web@3.14.0 test\n> vitest run\n",
            "pass": f"> pendla-web@3.14.0 test\n> vitest run\n\n ✓ src/components/{c}/{c}.test.tsx (7 tests) 88ms\n\n"
                    " Test Files  64 passed (64)\n      Tests  512 passed (512)"}


def _err_pw(rng: random.Random) -> dict[str, Any]:
    f = rng.choice(P_FEATS)
    v = (f"✘  {rng.randint(2, 30)} [webkit] › e2e/{f}.spec.ts:{rng.randint(10, 200)}:{rng.randint(3, 9)} › {f} › "
         f"{rng.choice(('shows the warning on the leg', 'buys a reduced fare', 'keeps focus in the sheet'))} "
         f"({rng.randint(5, 30)}.{rng.randint(0, 9)}s)")
    return {"value": v, "query": "Which end-to-end test failed on webkit?", "tool": "playwright",
            "args": {"project": "webkit", "grep": f}, "head": "Running 18 tests using 4 workers\n",
            "pass": "Running 18 tests using 4 workers\n\n" + "\n".join(f"✓  {i} [webkit] › e2e/{f}.spec.ts › ok" for i in range(1, 19))
                    + "\n\n  18 passed (41.2s)"}


def _err_vite(rng: random.Random) -> dict[str, Any]:
    c = rng.choice(P_COMPS)
    pkg = f"@pendla/{rng.choice(P_WORDS)}-icons"
    v = f"[vite]: Rollup failed to resolve import \"{pkg}\" from \"src/components/{c}/index.ts\"."
    return {"value": v, "query": "Why did the production build fail?", "tool": "npm", "args": {"args": ["run", "build"]},
            "head": "> pendla-web@3.14.0 build\n> tsc -b && vite build\n\nvite v5.4.11 building for production...\n"
                    "transforming...\nerror during build:",
            "pass": "> pendla-web@3.14.0 build\n> tsc -b && vite build\n\nvite v5.4.11 building for production...\n"
                    "✓ 2231 modules transformed.\n✓ built in 14.20s"}


def _err_eslint(rng: random.Random) -> dict[str, Any]:
    c = rng.choice(P_COMPS)
    var = rng.choice(("outageStart", "legIndex", "crowdLevel", "dockCount", "rampSide"))
    v = f"src/components/{c}/{c}.tsx:{rng.randint(5, 300)}:{rng.randint(3, 30)}: '{var}' is assigned a value but never used. [Error/@typescript-eslint/no-unused-vars]"
    return {"value": v, "query": "Which lint error did ESLint report?", "tool": "npm", "args": {"args": ["run", "lint", "--", "-f", "unix"]},
            "head": "> pendla-web@3.14.0 lint\n> eslint . -f unix\n", "pass": "> pendla-web@3.14.0 lint\n> eslint . -f unix\n\n"}


def _err_console(rng: random.Random) -> dict[str, Any]:
    c = rng.choice(P_COMPS)
    prop = rng.choice(("platformCode", "outages", "dockId", "level", "windowEnd"))
    v = f"Uncaught TypeError: Cannot read properties of undefined (reading '{prop}') at {c} ({c}.tsx:{rng.randint(10, 300)}:{rng.randint(3, 40)})"
    url = f"http://localhost:5173/{rng.choice(P_FEATS)}"
    return {"value": v, "query": "What did the browser console throw when the page was opened?", "tool": "browser",
            "args": {"action": "console", "url": url}, "head": f"[console] {url}",
            "pass": f"[console] {url}\n[log] [ld] flags ready\n[log] [apollo] cache write\n(no errors)"}


ERRORS = [_err_tsc, _err_vitest, _err_pw, _err_vite, _err_eslint, _err_console]


# findings: (tool, args, a line with the value, the agent's reading of it)

def _find_lcp(rng: random.Random) -> dict[str, Any]:
    v = f"Largest Contentful Paint: {_odd(rng, 2.5, 7.5)} s"
    return {"value": v, "query": "What LCP did Lighthouse measure on the disruptions page?", "tool": "browser",
            "args": {"action": "lighthouse", "url": "http://localhost:5173/disruptions"},
            "line": v, "mean": "That LCP is well above the 2.5 s 'good' threshold, so the hero image or the map is late."}


def _find_gzip(rng: random.Random) -> dict[str, Any]:
    v = f"gzip: {_odd(rng, 160, 420)} kB"
    return {"value": v, "query": "What gzip size did the build report for the largest vendor chunk?", "tool": "npm",
            "args": {"args": ["run", "build"]}, "line": f"dist/assets/vendor-maps-{_hex(rng, 8)}.js   {_odd(rng, 500, 1500)} kB │ {v}",
            "mean": "The map vendor chunk dominates; lazy-loading the map route would take it off the start page."}


def _find_querykey(rng: random.Random) -> dict[str, Any]:
    h = rng.choice(P_HOOKS)
    v = f"queryKey: ['{h[3:4].lower() + h[4:]}', stopId, Date.now()]"
    return {"value": v, "query": "What in the hook's query key makes it refetch on every render?", "tool": "read_file",
            "args": {"path": "src/hooks/queries.ts"}, "line": f"  18    {v},",
            "mean": "That's the root cause: the timestamp in the query key makes a new cache entry on every render."}


def _find_env(rng: random.Random) -> dict[str, Any]:
    v = f"VITE_{rng.choice(P_WORDS).upper()}_POLL_MS={_iodd(rng, 1001, 29999)}"
    return {"value": v, "query": "What poll interval is configured for production in the env file?", "tool": "read_file",
            "args": {"path": ".env.production"}, "line": v,
            "mean": "So production polls on that interval, not the 30 s we assumed."}


def _find_contrast(rng: random.Random) -> dict[str, Any]:
    v = f"insufficient color contrast of {_odd(rng, 2.0, 4.4)}"
    return {"value": v, "query": "What contrast did axe measure on the line badge?", "tool": "browser",
            "args": {"action": "axe", "url": "http://localhost:5173/departures"},
            "line": f"  Element has {v} (foreground color: #8a9bb0, background color: #ffffff, font size: 10.5pt (14px)). "
                    "Expected contrast ratio of 4.5:1",
            "mean": "The badge text fails AA; it needs a darker foreground token."}


def _find_p95(rng: random.Random) -> dict[str, Any]:
    v = f"p(95)={_iodd(rng, 601, 2999)}ms"
    return {"value": v, "query": "What p95 latency did the load test measure for the departures query?", "tool": "shell",
            "args": {"command": "k6 run perf/departures.js"},
            "line": f"     http_req_duration{{op:Departures}}...: avg=412ms min=88ms med=390ms max=3.2s {v}",
            "mean": "The p95 is what users on slow lines feel; the resolver fan-out is the likely cause."}


def _find_tbt(rng: random.Random) -> dict[str, Any]:
    v = f"Total Blocking Time: {_iodd(rng, 301, 2499)} ms"
    return {"value": v, "query": "How much total blocking time did Lighthouse report on the map page?", "tool": "browser",
            "args": {"action": "lighthouse", "url": "http://localhost:5173/map"}, "line": v,
            "mean": "That blocking time comes from parsing the map bundle on the main thread."}


def _find_rollout(rng: random.Random) -> dict[str, Any]:
    pct = _iodd(rng, 3, 97)
    flag = f"{rng.choice(P_FEATS)}-{rng.choice(P_WORDS)}-ui"
    v = f"{flag}: serving true to {pct}% of users"
    return {"value": v, "query": "How far is the flag rolled out in production?", "tool": "shell",
            "args": {"command": f"ldcli flags get --flag {flag} --environment production"}, "line": v,
            "mean": "So the flag is only partly rolled out; users outside the rollout never see the new UI."}


FINDINGS = [_find_lcp, _find_gzip, _find_querykey, _find_env, _find_contrast, _find_p95, _find_tbt, _find_rollout]


# plans: prose

def _plan_hook(rng: random.Random) -> dict[str, Any]:
    v = rng.choice(P_HOOKS)
    return {"value": v, "query": "Which hook does the plan extract first?",
            "text": f"planen: först bryter vi ut `{v}` ur komponenten, sen byter vi till den nya GraphQL-frågan, och sist "
                    "tar vi bort REST-klienten. en PR per steg, och vi mergar inte steg två innan steg ett har legat i prod "
                    "en dag"}


def _plan_rollout(rng: random.Random) -> dict[str, Any]:
    d1, d2 = rng.sample(SV_DAYS, 2)
    v = f"{_iodd(rng, 3, 49)}% on {d1}"
    return {"value": v, "query": "How much of the audience gets the feature first, and on which day?",
            "text": f"Plan for the rollout: we ship it behind the flag, {v}, then everyone on {d2} if Sentry stays quiet. "
                    "If the crash rate goes up we turn it off and I write the incident note."}


def _plan_component(rng: random.Random) -> dict[str, Any]:
    v = f"<{rng.choice(P_COMPS)}Card>"
    return {"value": v, "query": "Which new component does the plan migrate the old banners to?",
            "text": f"så här tänker jag:\n1. fixa a11y-blockers först\n2. migrera alla gamla banners till `{v}`\n3. sen "
                    "Lighthouse-regressionerna\n4. i18n sist. inga nya features innan 1 och 2 är klara"}


def _plan_train(rng: random.Random) -> dict[str, Any]:
    v = f"release train {rng.randint(24, 26)}.{rng.randint(10, 52)}"
    return {"value": v, "query": "Which release does the plan aim for?",
            "text": f"OK so the plan: finish the elevator warning this week, get design review on Monday, and aim for "
                    f"{v}. If review slips we take the next train, we don't squeeze it in."}


def _plan_locale(rng: random.Random) -> dict[str, Any]:
    v = rng.choice(P_LOCALES)
    return {"value": v, "query": "Which new locale comes next in the translation plan?",
            "text": f"ordning: först extraherar vi alla hårdkodade strängar, sen sv och en klart, och sedan `{v}` som "
                    "första nya språket eftersom trafikförvaltningen bad om det. RTL tar vi separat."}


def _plan_spike(rng: random.Random) -> dict[str, Any]:
    v = f"max {rng.randint(3, 16)} timmar"
    return {"value": v, "query": "How much time does the plan give the spike?",
            "text": f"vi gör en spike på {v} på virtualiseringen av avgångslistan, sen bestämmer vi. om den inte är klar "
                    "då så kör vi paginering i stället"}


PLANS = [_plan_hook, _plan_rollout, _plan_component, _plan_train, _plan_locale, _plan_spike]


# --- events --------------------------------------------------------------------------------------------------------

SCALE_AT_400 = 0.9  # filler outputs grow in short sessions, where planted episodes (with short outputs) are denser


class _Event:
    __slots__ = ("target", "kind", "data", "order")

    def __init__(self, target: int, kind: str, data: dict[str, Any], order: int) -> None:
        self.target, self.kind, self.data, self.order = target, kind, data, order


def _lead(kind: str) -> int:
    return {"error": 2, "finding": 2, "tool_id": 2, "file": 1}.get(kind, 0)


class _Session:
    def __init__(self, seed: int, n: int, hi: float = 0.84) -> None:
        self.hi = hi
        self.rng = random.Random(seed)
        self.n = n
        self.chat = _Chat(self.rng, 1.0 + SCALE_AT_400 * min(1.0, max(0.0, (3000 - n) / 2600)),
                          1500 + 117 * min(1.0, max(0.0, (n - 400) / 2600)))
        self.vals = _Values()
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.resolved: dict[int, int] = {}  # error event id -> resolution message index
        self.error_index: dict[int, int] = {}
        self.compact = n < 200

    # planning ------------------------------------------------------------------------------------------------------

    def plan(self) -> list[_Event]:
        rng, n = self.rng, self.n
        k = per_kind(n)
        t0 = max(3, math.ceil(0.03 * n) + 1)
        if t0 - 2 == 2:
            t0 += 1
        self.t0 = t0
        kinds = [kind for kind in KINDS if kind != "instruction" for _ in range(k)] + ["instruction"] * (k - 2 if k >= 2 else 0)
        rng.shuffle(kinds)
        kinds = ["instruction"] * min(2, k) + kinds
        total = len(kinds)
        lo, hi = t0, int(self.hi * n)
        step = (hi - lo) / max(1, total - 1)
        slots = [lo + round(i * step) for i in range(total)]
        if k >= 2:
            slots[1] = min(slots[1], int(n / 7) - 1)
        early = slots[1] + 1 if k >= 2 else t0 + 1
        events: list[_Event] = []
        order = 0
        counters = dict.fromkeys(KINDS, 0)
        revised = set(rng.sample(range(k), max(1, k // 3)))
        resolved_n = max(1, k // 2) if k < 2 else min(k - 1, max(1, k // 2))
        resolved = set(rng.sample(range(k), resolved_n))
        far_min = 110
        for kind, t in zip(kinds, slots):
            i = counters[kind]
            counters[kind] += 1
            order += 1
            floor_t = math.ceil(0.035 * n) + 1
            if kind == "instruction":
                adopt = i >= 2 and i % 3 == 2
                d = _draw(rng, self.vals, ADOPTED if adopt else INSTRUCTIONS, i)
                events.append(_Event(t, "instruction", d, order))
            elif kind == "correction":
                d = _draw(rng, self.vals, CORRECTIONS, i + rng.randrange(len(CORRECTIONS)))
                far = i % 2 == 0 and t - far_min - 40 >= floor_t
                dist = rng.randint(far_min + 5, min(t - floor_t, far_min + 300)) if far else rng.randint(5, 30)
                st = min(max(early, min(max(floor_t, t - dist), t - 4)), t - 1)
                d["long"] = rng.random() < 0.4
                events.append(_Event(st, "stale_say", d, order))
                events.append(_Event(t, "correction", d, order + 1))
                order += 1
            elif kind == "decision":
                d = _draw(rng, self.vals, DECISIONS, i + rng.randrange(len(DECISIONS)))
                if i in revised:
                    st = min(max(early, min(max(floor_t, t - rng.randint(8, max(9, n // 5))), t - 4)), t - 1)
                    events.append(_Event(st, "dec_first", d, order))
                    events.append(_Event(t, "decision", d, order + 1))
                    order += 1
                else:
                    d = dict(d)
                    self.vals.taken.remove(d["stale"])
                    d["stale"] = None
                    events.append(_Event(t, "decision", d, order))
            elif kind == "error":
                d = _draw(rng, self.vals, ERRORS, i + rng.randrange(len(ERRORS)))
                d["id"] = i
                events.append(_Event(t, "error", d, order))
                if i in resolved:
                    rt = min(int(0.93 * n), t + rng.randint(6, max(8, n // 25)))
                    events.append(_Event(rt, "resolve", d, order + 1))
                    order += 1
            elif kind == "file":
                d = _draw(rng, self.vals, [self._file_maker], i)
                d["tool"] = "write_file" if i % 2 == 0 else "edit_file"
                events.append(_Event(t, "file", d, order))
            elif kind == "identifier":
                if i % 2 == 0:
                    d = _draw(rng, self.vals, USER_IDS, i // 2 + rng.randrange(4))
                    events.append(_Event(t, "user_id", d, order))
                else:
                    d = _draw(rng, self.vals, TOOL_IDS, i // 2 + rng.randrange(4))
                    events.append(_Event(t, "tool_id", d, order))
            elif kind == "finding":
                d = _draw(rng, self.vals, FINDINGS, i + rng.randrange(len(FINDINGS)))
                events.append(_Event(t, "finding", d, order))
            else:
                d = _draw(rng, self.vals, PLANS, i + rng.randrange(len(PLANS)))
                events.append(_Event(t, "plan", d, order))
        docs = list(range(len(PASTE_DOCS)))
        rng.shuffle(docs)
        for j in range(min(18, 1 + n // 150)):
            order += 1
            t = max(early, rng.randint(int(0.05 * n), int(0.9 * n)))
            events.append(_Event(t, "paste", {"doc": docs[j % len(docs)]}, order))
        events.sort(key=lambda e: (e.target, e.order))
        return events

    def _file_maker(self, rng: random.Random) -> dict[str, Any]:
        f, c = rng.choice(P_FEATS), rng.choice(P_COMPS)
        v = rng.choice((f"src/features/{f}/{c}.tsx", f"src/features/{f}/{c}.stories.tsx", f"src/features/{f}/{c}.test.tsx",
                        f"src/features/{f}/{c}Skeleton.tsx", f"e2e/{f}-{c[:1].lower() + c[1:]}.spec.ts",
                        f"src/graphql/fragments/{c}Fields.graphql", f"src/features/{f}/{c}.module.css"))
        return {"value": v, "query": "Which file did the agent create or change for this step?", "comp": c}

    # rendering -----------------------------------------------------------------------------------------------------

    def render(self) -> Session:
        chat, rng, n = self.chat, self.rng, self.n
        events = self.plan()
        chat.messages.append({"role": "system", "content": SYSTEM_PROMPT})
        chat.user(rng.choice(OPENINGS))
        g = self.t0 - 2
        if g == 1:
            chat.say("Hej! I'll start with the repo state and the open items.")
        else:
            c = g - 2 if g <= 5 else (3 if g - 5 != 1 else 2)
            chat.work("Kollar läget.", [chat.filler_call(t) for t in ("git", "read_file", "todo_write")[:c]])
            chat.say("Branch is clean apart from a few local edits; the todo list is up to date.")
            chat.fill(g - c - 2, exact=True)
        explored = False
        for ev in events:
            gap = ev.target - _lead(ev.kind) - len(chat)
            if gap > 0:
                chat.fill(gap)
            getattr(self, "_ev_" + ev.kind)(ev.data)
            if not explored:
                explored = True
                self._explore()
        # close: tools never used yet, then filler up to the final answer and user turn
        missing = [t for t in TOOLS if t not in chat.used]
        g = n - 1 - len(chat)
        if missing and g >= len(missing) + 2:
            chat.work("Before I wrap up, a last look around.", [chat.filler_call(t) for t in missing])
            chat.say(_assistant_text(rng))
            g -= len(missing) + 2
        if g < 0:
            raise RuntimeError(f"events overflow the session by {-g} messages")
        chat.fill(g, exact=True)
        if chat.messages[-1]["role"] != "assistant" or chat.messages[-1].get("tool_calls"):
            raise RuntimeError("session does not end on an answer")
        chat.user(rng.choice(CLOSINGS))
        return Session(messages=chat.messages, facts=self.facts, seed=0, pasted=self.pasted)

    def _explore(self) -> None:
        tools = ["git", "read_file", "todo_write", "shell"]
        self.chat.work("Before I change anything, a wider look: recent commits, one of the main components, the todo list and the folder layout.",
                       [self.chat.filler_call(t) for t in tools])
        self.chat.say("Oriented. The repo is on a feature branch with local changes, typecheck and tests run through npm "
                      "scripts, and I've put the open items in the todo list.")

    def _fact(self, kind: str, d: dict[str, Any], index: int, stale: str | None = None,
              stale_index: int | None = None, resolved: int | None = None) -> None:
        self.facts.append(Fact(kind=kind, value=d["value"], index=index, query=d["query"], stale=stale,
                               stale_index=stale_index, resolved=resolved))

    def _ack_tool(self) -> bool:
        if self.compact:
            return len(self.chat.used) < len(TOOLS)
        return self.rng.random() < 0.5

    def _ev_instruction(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        if "doc" in d:
            kind = next(i for i, p in enumerate(PASTE_DOCS) if p[0] == d["doc"])
            _name, maker, intro = PASTE_DOCS[kind]
            doc = maker(rng)
            at = chat.user(f"{intro}\n\n{doc}\n\n{d['own']}")
            self.pasted.append((at, doc))
        else:
            at = chat.user(d["text"])
        first = not self.facts
        self._fact("instruction", d, at)
        chat.ack(d["ack"], not first and self._ack_tool())

    def _ev_stale_say(self, d: dict[str, Any]) -> None:
        text = d["say"].format(s=d["stale"], v="")
        at = self.chat.user(text)
        d["stale_index"] = at
        self.chat.ack(self.rng.choice(("Okej, noterat.", "On it.", "Got it.", "Kör.")), self._ack_tool())

    def _ev_correction(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        fix = d["fix"].format(s=d["stale"], v=d["value"])
        if d.get("long"):
            text = (f"{_fill_text(rng, rng.choice(USER_FILLER))}. också, {rng.choice(PEOPLE)} undrade om "
                    f"{rng.choice(F_COMPS)} – den ser konstig ut i dark mode.\n\n{fix}\n\nOch kan du köra lint efter det? "
                    f"Jag har möte {_clock(rng)} så svara kort.")
        else:
            text = fix
        at = chat.user(text)
        self._fact("correction", d, at, stale=d["stale"], stale_index=d["stale_index"])
        chat.ack(f"Thanks — switching to {d['value']}.", self._ack_tool())

    def _ev_dec_first(self, d: dict[str, Any]) -> None:
        at = self.chat.user(d["say"].format(x=d["stale"], y=""))
        d["stale_index"] = at
        self.chat.ack("OK, I'll wire it up that way.", self._ack_tool())

    def _ev_decision(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        if d.get("stale"):
            at = chat.user(d["rev"].format(x=d["value"], y=d["stale"]))
            self._fact("decision", d, at, stale=d["stale"], stale_index=d["stale_index"])
        else:
            chat.say("Options: keep it as it is, or change it — the trade-off is freshness against load on the "
                           "gateway. I'd lean towards changing it, but it's your call.")
            at = chat.user(d["say"].format(x=d["value"], y=""))
            self._fact("decision", d, at)
        chat.ack(f"Going with {d['value']}.", self._ack_tool() and rng.random() < 0.5)

    def _ev_plan(self, d: dict[str, Any]) -> None:
        at = self.chat.user(d["text"])
        self._fact("plan", d, at)
        self.chat.ack("Sounds like a plan. I'll put the steps in the todo list and start with the first.", self._ack_tool())

    def _ev_user_id(self, d: dict[str, Any]) -> None:
        at = self.chat.user(d["text"])
        self._fact("identifier", d, at)
        self.chat.ack(f"Noted: {d['value']}.", self._ack_tool())

    def _ev_tool_id(self, d: dict[str, Any]) -> None:
        chat = self.chat
        chat.user(d["ask"])
        _name, _args, noise = chat.filler_call(d["tool"]) if d["tool"] != "git" else ("git", {}, "")
        lines = list(d["lines"])
        if d["tool"] == "git":
            out = "\n".join(lines + [f"{_hex(self.rng, 9)} {t}" for t in ("chore: bump deps", "fix(map): cluster radius",
                                                                          "test: stabilize journeys e2e")])
        else:
            out = noise[: self.rng.randint(400, 1500)].rsplit("\n", 1)[0] + "\n" + "\n".join(lines)
        _at, outs = chat.work("Checking.", [(d["tool"], d["args"], out)])
        self._fact("identifier", d, outs[0])
        chat.say(d["say"].format(v=d["value"]))

    def _ev_error(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        chat.user(rng.choice(("kör typecheck och testerna", "run the checks again pls", "testa igen", "kolla om det bygger",
                              "öppna sidan och kolla konsolen", "kör e2e på webkit")))
        other = []
        if d["tool"] == "npm" and "typecheck" in d["args"]["args"]:
            other = [_tsc_err(rng) for _ in range(rng.randint(1, 5))]
        elif d["tool"] == "playwright":
            other = [f"✓  {i} [webkit] › e2e/{rng.choice(F_FEATS)}.spec.ts:{rng.randint(5, 90)}:5 › ok ({_even(rng, 0.4, 6, 1)}s)"
                     for i in range(1, rng.randint(6, 16))]
        body = [d["head"], *other[: len(other) // 2], d["value"], *other[len(other) // 2:]]
        if d["tool"] == "playwright":
            body.append("\n  1 failed\n  17 passed (44.0s)")
        out = "\n".join(body)
        _at, outs = chat.work("Running it.", [(d["tool"], d["args"], out)])
        self.error_index[d["id"]] = outs[0]
        d["index"] = outs[0]
        chat.say(f"It fails:\n\n    {d['value']}\n\nI'll look at the cause before changing anything.")
        self._fact("error", d, outs[0])

    def _ev_resolve(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        chat.user(rng.choice(("fixa det där felet och kör igen", "ok fix it and rerun", "kör om efter fixen")))
        chat.work("Applying the fix.", [chat.filler_call("edit_file")])
        _at, outs = chat.work("Re-running the same command.", [(d["tool"], d["args"], d["pass"])])
        chat.say("Passes now; the earlier failure is gone.")
        for i, f in enumerate(self.facts):
            if f.kind == "error" and f.index == d["index"]:
                self.facts[i] = Fact(kind=f.kind, value=f.value, index=f.index, query=f.query, resolved=outs[0])

    def _ev_file(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        chat.user(rng.choice(("gör en fil för det", "add it", "skriv komponenten", "go ahead and write it",
                              "lägg till en story/test för det")))
        c = d["comp"]
        if d["tool"] == "write_file":
            args = {"path": d["value"], "content": f"// {c}\nexport function {c}() {{\n  return null;\n}}\n"}
            out = f"Wrote {len(args['content'])} bytes."
        else:
            args = {"path": d["value"], "old_string": "return null;", "new_string": f"return <div className=\"{c}\" />;"}
            out = "Applied 1 edit (-1 +1)."
        at, _outs = chat.work("Writing it.", [(d["tool"], args, out)])
        self._fact("file", d, at)
        chat.say(f"Done: `{d['value']}`.")

    def _ev_finding(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        chat.user(rng.choice(("mät det", "what does it say?", "kolla siffrorna", "dig into it", "varför då?")))
        _n, _a, noise = chat.filler_call(d["tool"])
        cut = rng.randint(300, 1200)
        out = noise[:cut].rsplit("\n", 1)[0] + "\n" + d["line"] + "\n" + noise[cut:cut + 800].split("\n", 1)[-1]
        _at, outs = chat.work("Measuring.", [(d["tool"], d["args"], out)])
        self._fact("finding", d, outs[0])
        chat.say(f"The number that matters: {d['value']}. {d['mean']}")

    def _ev_paste(self, d: dict[str, Any]) -> None:
        chat, rng = self.chat, self.rng
        _name, maker, intro = PASTE_DOCS[d["doc"]]
        doc = maker(rng)
        at = chat.user(f"{intro}\n\n{doc}\n\nvad tycker du?")
        self.pasted.append((at, doc))
        chat.ack("Read it. Most of it matches what we have on the list; I'll note the parts that are new.", self._ack_tool())


SYSTEM_PROMPT = (
    "You are a coding agent working in the pendla-web repository (React 18, TypeScript, Vite, Apollo GraphQL, "
    "Vitest, Playwright, Storybook, i18next, LaunchDarkly, Sentry). Use the tools to read, edit and run things; "
    "explain what you did in short messages. The user is a frontend developer at a Stockholm public-transport company "
    "and writes in Swedish or English."
)
OPENINGS = (
    "hej! idag: störningsinfo-flödet i webbappen. börja med att kolla läget i repot",
    "Morning. We're continuing on the disruptions work in pendla-web, take a look at where the branch is.",
    "hej, vi ska jobba med tillgänglighet och prestanda på avgångssidorna idag. kolla repot först",
)
CLOSINGS = ("ok tack, vi fortsätter imorgon", "nice. what's left on the todo list?", "kör, pusha branchen",
            "bra jobbat. sammanfatta vad vi gjorde idag")


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A frontend session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a frontend session needs at least {MIN_MESSAGES} messages, not {messages}")
    session = None
    for hi in (0.84, 0.8, 0.76, 0.72, 0.68, 0.64, 0.6, 0.55, 0.5):
        try:
            built = _Session(seed, messages, hi).render()
        except RuntimeError:
            continue
        if all(f.index <= 0.88 * messages for f in built.facts) and _rules_early(built, messages):
            session = built
            break
    if session is None:
        raise RuntimeError(f"could not fit the facts into {messages} messages")
    session.seed = seed
    session.facts.sort(key=lambda f: (f.index, f.kind))
    if len(session.messages) != messages:
        raise RuntimeError(f"built {len(session.messages)} messages instead of {messages}")
    return session


def _rules_early(session: Session, messages: int) -> bool:
    rules = sorted(f.index for f in session.facts if f.kind == "instruction")
    return rules[0] <= messages / 10 and (len(rules) < 2 or rules[1] <= messages / 7)


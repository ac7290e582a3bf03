"""Long data-journalism sessions with planted facts, for the fidelity bench.

A data journalist on the data desk of a national paper in Milan (she writes Italian and English, often in the same
message, casually: "ok", "vai", "aspetta", "no scusa", "anzi") works with an agent on data stories: scraping public
sources (ISTAT, the regional health agencies' waiting lists, ANAC public-procurement open data, municipal budgets)
with requests, BeautifulSoup and pandas, cleaning CSV and XLSX files, joining tables, quick statistics, Datawrapper
charts, fact-checking numbers, editing copy in the newsroom CMS and committing with git.

    from gen_datajourno import make_session
    session = make_session(seed=1, messages=400)     # about 600k characters, six facts of each kind
    session = make_session(seed=1, messages=3000)    # about 4.7M characters, twelve of each kind
    for fact in session.facts:
        print(fact.kind, fact.index, fact.value, "-", fact.query)
    for index, text in session.pasted:               # mails, statements, style-book pages the user pasted
        assert text in session.messages[index]["content"]

``session.messages`` is an OpenAI chat: a system prompt, user turns, assistant turns with ``tool_calls``
(:data:`TOOLS`) each answered at once by a ``tool`` message, and most of the characters in tool outputs: pandas
tables, ``describe()``, statsmodels summaries, Python tracebacks, pytest runs of the scraper package, cron logs,
HTTP responses, CMS and Datawrapper JSON, git diffs of article drafts. It ends on an assistant answer without calls
and a last user turn. Noise a compactor can get wrong is everywhere: clock times, ``ribassi.py:121`` references,
port-like numbers, people's names, a todo list the agent keeps, pasted documents full of imperatives that are not
the user's.

``session.facts`` (:class:`sessiongen.Fact`) are what a compacted context must keep, ``per_kind(messages)`` of
each of :data:`KINDS`, planted between 3% and 88% of the session over all three thirds: the user's standing rules
(some in Italian, some conditional, some adopted from a pasted document in her own words), corrections of a value
she gave earlier (often a near miss of it, some far from it), decisions (a third revise her own earlier choice),
whole error lines of a tool's output (some resolved by a later passing run of the same command), files written,
identifiers said or printed, findings of a tool, and plans. A value first occurs in its own message and afterwards
only in the few messages after it, never in the filler. The same seed and size give the same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("run_python", "read_file", "write_file", "edit_file", "fetch_url", "cms_api", "datawrapper", "git", "shell")
MIN_MESSAGES = 60
CHARS_PER_MESSAGE = 1560  # 400 messages ~ 620k characters, 3000 ~ 4.7M
HOME = "/home/francesca/inchieste"

Call = tuple[str, dict[str, Any], str]  # (tool name, arguments, output)


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linear in between and beyond."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return round(6 + 6 * (messages - 400) / 2600)


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A data-journalism session of exactly ``messages`` messages with its planted facts (see the module doc)."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"a datajourno session needs at least {MIN_MESSAGES} messages, not {messages}")
    return _Builder(seed, messages).build()


# --- the newsroom ---------------------------------------------------------------------------------------------

DESK = ("Giulia Ferri", "Marco Bellini", "Sara Galli", "Luca Rinaldi", "Paolo Vitale", "Chiara Colombo",
        "Andrea Fontana", "Valentina Greco")
COMUNI = (("Milano", "015146"), ("Bergamo", "016024"), ("Brescia", "017029"), ("Monza", "108033"),
          ("Como", "013075"), ("Varese", "012133"), ("Pavia", "018110"), ("Cremona", "019036"),
          ("Mantova", "020030"), ("Lecco", "097042"), ("Lodi", "098031"), ("Sondrio", "014061"),
          ("Legnano", "015118"), ("Sesto San Giovanni", "015209"), ("Cinisello Balsamo", "015077"),
          ("Busto Arsizio", "012026"), ("Vigevano", "018177"), ("Gallarate", "012070"), ("Rho", "015182"),
          ("Cologno Monzese", "015081"), ("Seregno", "108039"), ("Desio", "108023"), ("Lissone", "108028"),
          ("Saronno", "012119"), ("Abbiategrasso", "015002"), ("Crema", "019035"), ("Treviglio", "016219"),
          ("Voghera", "018182"), ("Segrate", "015205"), ("San Donato Milanese", "015192"))
PROVINCE = ("MI", "BG", "BS", "MB", "CO", "VA", "PV", "CR", "MN", "LC", "LO", "SO")
ASST = ("ASST Santi Paolo e Carlo", "ASST Fatebenefratelli Sacco", "ASST Nord Milano", "ASST Rhodense",
        "ASST Ovest Milanese", "ASST Melegnano e Martesana", "ASST Lodi", "ASST Papa Giovanni XXIII",
        "ASST Bergamo Est", "ASST Spedali Civili", "ASST Franciacorta", "ASST Cremona", "ASST Mantova",
        "ASST Pavia", "ASST Lariana", "ASST Sette Laghi", "ASST Valle Olona", "ASST Lecco", "ASST Brianza")
PRESTAZIONI = ("Visita cardiologica", "Ecografia addome", "Colonscopia", "RM colonna", "TC torace",
               "Visita oculistica", "Mammografia", "Visita dermatologica", "Ecodoppler TSA", "Visita ortopedica",
               "Spirometria", "Visita neurologica")
STAZIONI = ("Comune di Milano", "Comune di Bergamo", "Comune di Brescia", "ARIA S.p.A.", "Comune di Monza",
            "Città metropolitana di Milano", "Comune di Varese", "Comune di Como", "ASST Rhodense",
            "Comune di Pavia", "Provincia di Cremona", "Comune di Lecco")
CPV = ("55524000-9", "15000000-8", "77310000-6", "90911200-8", "60130000-8", "98371000-0", "45233222-1",
       "39160000-1", "50720000-8", "79713000-5")
WEEKDAYS = ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

STORIES: dict[str, dict[str, Any]] = {
    "attese": {
        "it": "le liste d'attesa", "dir": "liste_attesa", "draft": "drafts/liste-attesa.md",
        "scraper": "scrapers/ats_liste.py", "script": "analysis/attese_mediane.py", "test": "tests/test_parse_ats.py",
        "raw": "data/raw/liste_attesa_2024-05.csv", "proc": "data/processed/attese_asst.csv",
        "url": "https://www.ats-milano.it/amministrazione-trasparente/tempi-di-attesa", "slug": "liste-attesa-lombardia",
        "cols": ("asst", "prestazione", "priorita", "mese", "prenotazioni", "attesa_gg", "entro_soglia"),
        "num": ("prenotazioni", "attesa_gg", "entro_soglia"), "chart": "Attese per ASST, classe B",
    },
    "appalti": {
        "it": "gli appalti delle mense", "dir": "appalti_mense", "draft": "drafts/appalti-mense.md",
        "scraper": "scrapers/anac_bulk.py", "script": "analysis/ribassi.py", "test": "tests/test_anac.py",
        "raw": "data/raw/anac_cig_2023.csv", "proc": "data/processed/gare_lombardia.csv",
        "url": "https://dati.anticorruzione.it/opendata/download/dataset/cig-2023", "slug": "appalti-mense-lombardia",
        "cols": ("cig", "stazione", "cpv", "importo_base", "importo_agg", "ribasso", "offerenti"),
        "num": ("importo_base", "importo_agg", "ribasso", "offerenti"), "chart": "Ribassi nelle gare per le mense",
    },
    "bilanci": {
        "it": "i bilanci dei comuni", "dir": "bilanci_comuni", "draft": "drafts/bilanci-comuni.md",
        "scraper": "scrapers/finanza_locale.py", "script": "analysis/spesa_procapite.py",
        "test": "tests/test_bilanci.py", "raw": "data/raw/rendiconti_2022.xlsx",
        "proc": "data/processed/spesa_comuni.csv",
        "url": "https://finanzalocale.interno.gov.it/apps/floc.php/certificati/index", "slug": "bilanci-comuni",
        "cols": ("comune", "cod_istat", "anno", "pop", "entrate_corr", "spesa_corr", "spesa_pers"),
        "num": ("pop", "entrate_corr", "spesa_corr", "spesa_pers"), "chart": "Spesa corrente pro capite",
    },
    "culle": {
        "it": "le culle vuote", "dir": "natalita", "draft": "drafts/culle-vuote.md",
        "scraper": "scrapers/istat_demo.py", "script": "analysis/natalita_trend.py", "test": "tests/test_istat.py",
        "raw": "data/raw/istat_bilancio_demo_2023.csv", "proc": "data/processed/natalita_comuni.csv",
        "url": "https://demo.istat.it/app/?i=D7B&l=it", "slug": "culle-vuote-lombardia",
        "cols": ("comune", "cod_istat", "anno", "nati", "pop_res", "tasso_nat", "eta_media"),
        "num": ("nati", "pop_res", "tasso_nat", "eta_media"), "chart": "Nati ogni mille abitanti",
    },
}
STORY_KEYS = tuple(STORIES)
UTILS = ("scrapers/common.py", "analysis/utils.py", "analysis/join_istat.py", "scrapers/http.py")


def _hex(rng: random.Random, n: int, alphabet: str = "0123456789abcdef") -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


# --- the tables a session works on (drawn once per session, shown in slices) ------------------------------------

def _rows(rng: random.Random, key: str, count: int) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for _ in range(count):
        if key == "attese":
            rows.append((rng.choice(ASST), rng.choice(PRESTAZIONI), rng.choice("UBDP"),
                         f"2024-{rng.randint(1, 5):02d}", str(rng.randint(40, 2400)), str(rng.randint(3, 240)),
                         f"{rng.uniform(0.2, 1.0):.3f}"))
        elif key == "appalti":
            base = rng.randint(40, 9000) * 1000 + rng.randint(0, 999)
            rib = rng.uniform(0.5, 38.0)
            rows.append((rng.choice("0123456789") + _hex(rng, 9, "0123456789ABCDEF"), rng.choice(STAZIONI),
                         rng.choice(CPV), f"{base:.2f}", f"{base * (1 - rib / 100):.2f}", f"{rib:.2f}",
                         str(rng.randint(1, 19))))
        elif key == "bilanci":
            com, cod = rng.choice(COMUNI)
            pop = rng.randint(9000, 1400000)
            rows.append((com, cod, str(rng.randint(2016, 2022)), str(pop), f"{pop * rng.uniform(0.8, 1.6):.0f}.00",
                         f"{pop * rng.uniform(0.7, 1.5):.0f}.00", f"{pop * rng.uniform(0.2, 0.45):.0f}.00"))
        else:
            com, cod = rng.choice(COMUNI)
            pop = rng.randint(9000, 1400000)
            nat = rng.uniform(5.1, 8.9)
            rows.append((com, cod, str(rng.randint(2012, 2023)), str(int(pop * nat / 1000)), str(pop),
                         f"{nat:.2f}", f"{rng.uniform(43.0, 48.9):.1f}"))
    return rows


def _table(cols: tuple[str, ...], rows: list[tuple[str, ...]], start: int = 0) -> list[str]:
    """pandas-like ``to_string`` lines: a header, then one line a row with its index."""
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    iw = len(str(start + len(rows)))
    lines = [" " * iw + "".join("  " + c.rjust(w) for c, w in zip(cols, widths))]
    for j, r in enumerate(rows):
        lines.append(str(start + j).ljust(iw) + "".join("  " + v.rjust(w) for v, w in zip(r, widths)))
    return lines


# --- prose the filler draws on ----------------------------------------------------------------------------------

SHORT_USER = ("ok", "vai", "go", "perfetto", "ok vai", "sì", "boh, prova", "ok grazie", "yes", "ok continua", "dai",
              "va bene", "ottimo", "mm ok", "k", "ok, avanti", "sure, go ahead", "sì sì", "perfetto grazie",
              "allora?", "e quindi?", "fammi vedere", "ok ma più corto", "good", "vai pure", "ok, e poi?",
              "aspetta... ok vai", "fine by me", "giusto", "ah ok")
ASKS: tuple[tuple[str, str], ...] = (  # what the journalist asks, and the tool the agent reaches for first
    ("puoi rilanciare {script} e farmi vedere le prime righe?", "run_python"),
    ("rilancia {script}, ho cambiato il file di input stamattina", "run_python"),
    ("check the totals against the ISTAT table again, {name} says {comune} looks off", "run_python"),
    ("rifai il grafico ma con le etichette più corte, su mobile non si legge niente", "datawrapper"),
    ("run the tests, I touched {scraper} this morning", "shell"),
    ("com'è andato il cron stanotte? {name} dice che alle {hh}:{mm} non è partito", "shell"),
    ("apri la bozza e dimmi se i numeri del terzo paragrafo tornano con il df", "read_file"),
    ("fai git status, non ricordo cosa ho committato ieri sera", "git"),
    ("quanto pesa {comune} sul totale? mi serve per il sommario", "run_python"),
    ("can you diff the draft against what's in the CMS? {name} edited something around {hh}:{mm}", "git"),
    ("scarica di nuovo la pagina, secondo me hanno aggiornato i dati", "fetch_url"),
    ("mostrami describe() sulle colonne numeriche, voglio vedere gli outlier", "run_python"),
    ("fammi un groupby per provincia, ordinato dal più alto", "run_python"),
    ("let's see the regression again but without {comune}", "run_python"),
    ("aggiorna la bozza nel CMS con il paragrafo nuovo", "cms_api"),
    ("il grafico su datawrapper ha ancora la fonte vecchia, sistemala", "datawrapper"),
    ("ma {comune} perché ha quel valore? controlla il file grezzo", "read_file"),
    ("leggimi {scraper}, non mi ricordo come gestisce le pagine vuote", "read_file"),
    ("quante righe ha il file adesso? prima erano {n}", "shell"),
    ("apri {utils} alla riga {line}, c'è qualcosa che non mi torna", "read_file"),
    ("can you check which rows fail the join? I bet it's the merged comuni again", "run_python"),
    ("mandami il link del grafico, lo giro a {name}", "datawrapper"),
    ("prova a vedere se il portale risponde, {name} dice che è giù dalle {hh}", "fetch_url"),
    ("scrivi un test per il parser, quello che rompe sempre con le celle unite", "write_file"),
    ("controlla nel log se ieri ha scaricato tutte le pagine", "shell"),
    ("sistema il titolo del grafico, è troppo lungo (l'ha detto {name})", "datawrapper"),
)
EDITORIAL = (
    "Allora, ci ho pensato stanotte. Il punto del pezzo non è che {comune} sta peggio degli altri, è che sta peggio "
    "da {n} anni di fila e nessuno l'ha mai scritto. {name} dice che basta un pezzo da 4.500 battute, io penso che ne "
    "servano almeno 6.000 con il box sul metodo.",
    "Ho sentito {name} al telefono alle {hh}:{mm}: la Regione ha i dati aggiornati a marzo ma non li pubblica prima "
    "di luglio. Quindi per ora lavoriamo con quello che c'è, e lo diciamo chiaramente nel pezzo.",
    "Honestly I'm not sure the chart works. On desktop it's fine, on mobile the {n} bars are unreadable and the "
    "labels overlap. Maybe we split it, or maybe we keep the top ten and put the rest in a table below.",
    "Il desk vuole il pezzo per le 18, ma io preferisco arrivare con numeri che tornano. Se i totali non quadrano "
    "per più dell'1% lo diciamo a Elena e slittiamo di un giorno, amen.",
    "Mi ha scritto un lettore che dice che l'anno scorso avevamo sbagliato il dato di {comune}. Non credo, ma "
    "ricontrollerei lo stesso il file di allora, giusto per dormire tranquilla.",
    "The thing I keep coming back to: {comune} looks like an outlier but it's also the only one that reports "
    "monthly. If we compare it with the others we're comparing apples and pears. Boh.",
    "Ieri in riunione {name} ha detto che i numeri assoluti non dicono niente e servono i valori per abitante. Ha "
    "ragione a metà: per {comune} il pro capite esplode perché la popolazione è piccola.",
    "sto rileggendo il pezzo e il secondo paragrafo è debole. i numeri ci sono ma non si capisce perché dovrebbe "
    "importare a chi legge. ci serve una persona, un caso concreto, magari a {comune}",
    "I talked to {name} about the methodology box. We agree it has to say where every number comes from and what "
    "we dropped, in plain words, no jargon. Maybe 800 characters.",
)
OPENERS = (
    "Buongiorno! Oggi si lavora su {story}. Ripartiamo da dove eravamo rimasti ieri: fammi vedere lo stato del "
    "repo e cosa c'è in data/.",
    "Ciao. Allora, {story}: Elena vuole qualcosa per il weekend. Dammi un quadro di dove siamo, repo, dati e bozza.",
    "Morning. We're on {story} today. Can you check the repo, the data folder and the notes from yesterday?",
)
AGENT_PRE = ("Lancio lo script.", "Controllo.", "Vediamo.", "Running it now.", "Guardo il file.", "Ok, un attimo.",
             "Let me check.", "", "", "", "Apro il file e rilancio.", "Verifico i numeri.")
CLOSERS = (
    "Fatto. {n1} righe in tutto, di cui {n2} con valori mancanti in `{col}`. Se vuoi le escludo e rifaccio i totali, "
    "oppure le segno nel box metodo.",
    "Ok. The numbers hold: {comune} is at {pct}% of the total, in line with last year. Two options: keep the "
    "absolute value in the headline, or use the share, which reads better on mobile.",
    "Ecco. Il totale torna con la tabella di origine, scarto di {n2} unità su {n1} (arrotondamenti). Il problema di "
    "`{util}:{line}` era la conversione delle virgole, l'ho lasciato com'era per ora.",
    "Done. Tests are green apart from a warning in `{scraper}`. I'd leave the warning for now, it comes from "
    "BeautifulSoup and doesn't change the output.",
    "Allora: {n1} righe, {n2} comuni. La colonna `{col}` ha qualche valore strano (vedi la riga {line}), ma non "
    "cambia il quadro. Vuoi che proceda con il grafico o prima ricontrolliamo {comune}?",
    "Fatto, ho aggiornato la todo:\n{todo}",
    "The page answered in {ms} ms and the table is the same as yesterday except for {n2} rows. I'll re-run the "
    "join only if you want the April figures in the piece.",
    "Ho salvato tutto. Riassunto veloce: {n1} record puliti, {n2} scartati, {comune} resta il caso più vistoso. "
    "Alle {hh}:{mm} c'è la riunione con il desk, ti preparo una tabellina?",
    "Risultato: la differenza tra i due file è di {n2} righe, tutte di {comune}. Posso (a) tenerle fuori e dirlo nel "
    "box, (b) recuperarle a mano dal PDF, (c) chiedere il file corretto all'ufficio stampa.",
    "Diff applied. The draft in the CMS now matches `{draft}` (revision {rev}); {name}'s edits in the third "
    "paragraph are kept.",
    "Il cron di stanotte è partito alle 03:{mm} e ha finito alle 03:{mm2}: {n1} pagine scaricate, nessun errore. "
    "Il file di oggi è identico a quello di ieri tranne {n2} righe.",
    "Ok. La mediana si muove poco, il {pct}% delle righe sta sotto la soglia. Il dato più solido per il titolo è "
    "secondo me quello su {comune}.",
    "Fatto. Ho tirato su l'anteprima dei grafici su http://localhost:{port}/ (porta {port}, la solita): {n1} punti, "
    "{comune} evidenziato. Il database locale è sempre sulla 5432 se ti serve.",
    "I re-ran it at {hh}:{mm}. Same result as this morning: {n1} rows, {n2} flagged, the outlier is still {comune} "
    "(see `{util}:{line}`).",
)
ANSWERS = (
    "Sì, si può fare in due modi. Il primo è rifare il join usando il codice ISTAT invece del nome del comune (più "
    "robusto, ma perdiamo i comuni fusi dopo il 2019); il secondo è una tabella di raccordo a mano. Io farei il "
    "primo e segnerei i casi persi nel box.",
    "Good question. The {n1} rows come from the raw file; after dropping duplicates and the summary rows at the "
    "bottom we have {n2}. The difference is all in `{col}`.",
    "Secondo me il grafico regge, ma il titolo no: è troppo lungo per mobile. Proposta: «{chart}», sottotitolo con "
    "la fonte e l'anno.",
    "Non ancora: manca la risposta dell'ufficio stampa e il controllo di {name} sui totali. La todo è questa:\n{todo}",
    "It depends on what we want to claim. If it's 'worse than the others', we need the same period for everyone; "
    "if it's 'worse than last year', {comune} alone is enough.",
    "Il valore di {comune} è alto perché il comune ha pochi abitanti: {n2} su {n1}. In valore assoluto è nella media. "
    "Lo scriverei così, senza forzare.",
)
TODO_ITEMS = ("scaricare di nuovo le pagine di aprile", "join con i codici ISTAT", "controllare i comuni fusi",
              "grafico per provincia", "box metodo", "domande all'ufficio stampa", "rileggere con Giulia",
              "test del parser sulle celle unite", "aggiornare la bozza nel CMS", "verifica totali con la fonte",
              "mandare il pezzo al legale", "sistemare il cron delle 03:15", "tabella per il sommario")

PASTE_INTROS = ("ti incollo la mail di Elena, leggila:", "here's what the press office sent:",
                "guarda cosa è arrivato:", "ti giro questo, così sai di cosa parliamo:", "fyi, pasted below:",
                "questo è arrivato adesso:", "te lo copio qui sotto:")
PASTE_OUTROS = ("che ne pensi?", "non rispondere tu, ci penso io.", "ok, tienilo presente per il contesto.",
                "boh. vediamo.", "anyway, let's keep going.", "la leggiamo meglio dopo.", "")


def _paste_editor(rng: random.Random) -> str:
    return (f"Da: Elena Marchetti <e.marchetti@cronacanazionale.it>\nA: desk-dati@cronacanazionale.it\n"
            f"Oggetto: note sulla bozza di {rng.choice(WEEKDAYS)}\nData: {rng.randint(2, 28)} giugno 2024 "
            f"{rng.randint(8, 19)}:{rng.randint(0, 59):02d}\n\nCiao a tutti,\nqualche nota sulla bozza "
            f"(rev. {rng.randint(3, 19)}):\n- Non aprite con un numero: aprite con una persona o con un luogo.\n"
            f"- Controllate ogni cifra con la tabella di origine, non con il nostro foglio.\n"
            f"- Tagliate il terzo paragrafo, ripete il sommario.\n- Per favore evitate «eclatante» e «incredibile».\n"
            f"- Massimo {rng.choice(['4.500', '5.200', '6.000'])} battute, spazi inclusi.\n"
            f"Chiudiamo entro le {rng.randint(17, 21)}:00. Grazie,\nElena")


def _paste_press(rng: random.Random) -> str:
    com = rng.choice(COMUNI)[0]
    return (f"COMUNICATO STAMPA\n{rng.choice(ASST)} — Milano, {rng.randint(2, 28)} giugno 2024\n\n"
            f"In merito agli articoli apparsi sulla stampa, si precisa che i tempi di attesa per le prestazioni in "
            f"classe B sono rientrati nei limiti di legge per il {rng.randint(61, 94)}% dei casi nel primo "
            f"trimestre. Il dato di {com} riflette un picco temporaneo dovuto alla chiusura di un ambulatorio.\n"
            f"Si invitano le testate a fare riferimento esclusivamente ai dati pubblicati sul portale ufficiale. "
            f"Non verranno rilasciate ulteriori dichiarazioni.\nPer informazioni: ufficio stampa, "
            f"tel. 02 {rng.randint(1000, 9999)} {rng.randint(1000, 9999)}, ufficiostampa@asst.example.it")


def _paste_legal(rng: random.Random) -> str:
    return (f"Cara Francesca,\nho letto la bozza (versione del {rng.randint(2, 28)}/06, ore "
            f"{rng.randint(9, 20)}:{rng.randint(0, 59):02d}). Tre punti:\n1) Togliete il nome della dirigente nel "
            f"paragrafo {rng.randint(3, 7)}: non è necessario ai fini della notizia.\n2) Prima di pubblicare "
            f"mandate le domande all'azienda e aspettate la risposta; conservate la mail.\n3) Non scrivete "
            f"«truccato»: scrivete «anomalo» se i dati lo sostengono.\nCon queste modifiche il rischio è basso. "
            f"Rif. pratica n. {rng.randint(100, 999)}/24.\nUn saluto,\nDavide Conti")


def _paste_istat(rng: random.Random) -> str:
    y = rng.randint(2011, 2019)
    return (f"Nota metodologica — Bilancio demografico\nLa popolazione residente al 1° gennaio è calcolata a partire "
            f"dai risultati del censimento permanente, con le iscrizioni e cancellazioni anagrafiche dell'anno. "
            f"Si raccomanda di non confrontare direttamente i dati precedenti al {y} con quelli successivi senza "
            f"la ricostruzione intercensuaria. Utilizzare i codici comunali in vigore alla data di riferimento; "
            f"per i comuni soppressi o istituiti nel periodo fare riferimento alla tavola di raccordo "
            f"(file Elenco-comuni-{y + 3}.xls, {rng.randint(7800, 7999)} righe). Il tasso di natalità è espresso "
            f"per 1.000 abitanti.")


def _paste_ombudsman(rng: random.Random) -> str:
    com = rng.choice(COMUNI)[0]
    return (f"---------- Messaggio inoltrato ---------\nDa: Roberto Sala (Garante dei lettori)\nOggetto: segnalazione "
            f"n. 2024/{rng.randint(100, 999)}\n\nFrancesca, ti giro questa, rispondi tu entro venerdì per favore.\n\n"
            f"> Gentile redazione, nell'articolo del {rng.randint(2, 28)} maggio scrivete che a {com} l'attesa per "
            f"una {rng.choice(PRESTAZIONI).lower()} è di {rng.randint(20, 90)} giorni. Io ho prenotato il "
            f"{rng.randint(2, 28)} aprile e mi hanno dato appuntamento dopo {rng.randint(100, 300)} giorni.\n"
            f"> Correggete il dato o spiegate da dove viene. Pubblicate una rettifica.\n> Cordiali saluti, "
            f"{rng.choice(['Anna', 'Giorgio', 'Maria', 'Ettore'])} {rng.choice(['Villa', 'Brambilla', 'Sormani'])}")


def _paste_slack(rng: random.Random) -> str:
    a, b, c = rng.sample(DESK, 3)
    h, m = rng.randint(9, 18), rng.randint(0, 50)
    return (f"#desk-dati\n{a}  {h}:{m:02d}\nchi ha toccato il foglio dei ribassi? i totali non tornano più\n"
            f"{b}  {h}:{m + 2:02d}\nio, ho aggiunto le gare di {rng.choice(COMUNI)[0]}. non rilanciate lo script "
            f"finché non ho finito\n{a}  {h}:{m + 3:02d}\nok. aggiornate anche il grafico, è ancora a "
            f"{rng.randint(12, 40)} righe\n{c}  {h}:{m + 7:02d}\n:+1: e qualcuno avvisi Elena che slittiamo")


def _paste_stylebook(rng: random.Random) -> str:
    c = rng.randint(3, 9)
    return (f"Libro di stile, cap. {c} — Numeri e fonti\n{c}.1 Le percentuali si scrivono con il simbolo %, "
            f"attaccato alla cifra.\n{c}.2 Non usate il maiuscolo per le cariche (il sindaco, la presidente).\n"
            f"{c}.3 Le sigle si scrivono senza punti: Istat, non I.S.T.A.T.\n{c}.4 Evitate i superlativi e gli "
            f"aggettivi che giudicano.\n{c}.5 Citate sempre la fonte nella stessa frase del dato.\n{c}.6 Le date "
            f"si scrivono per esteso nei testi, in forma numerica solo nelle tabelle.")


PASTES: tuple[Callable[[random.Random], str], ...] = (_paste_editor, _paste_press, _paste_legal, _paste_istat,
                                                      _paste_ombudsman, _paste_slack, _paste_stylebook)
ADOPT_FROM: tuple[tuple[Callable[[random.Random], str], str], ...] = (
    (_paste_editor, "la mail di Elena di stamattina, leggila:"), (_paste_legal, "ecco la risposta del legale:"),
    (_paste_stylebook, "pasting the style-book page for context:"))

DRAFT_PARAS = (
    "A {comune} si aspetta più che altrove. Secondo i dati pubblicati, nel primo trimestre le prenotazioni in classe "
    "B rispettavano i tempi in {pct} casi su cento.",
    "Il quadro cambia molto da provincia a provincia: tra il valore più basso e quello più alto ci sono {n2} punti di "
    "differenza, una distanza che negli ultimi anni non si è ridotta.",
    "Nel 2023 i comuni lombardi hanno affidato {n1} gare per la ristorazione scolastica. In {pct} casi su cento "
    "l'aggiudicazione è arrivata con un solo offerente.",
    "La spesa corrente per abitante va dai {n2} euro dei comuni più piccoli agli oltre {n1} di {comune}, che però "
    "sostiene servizi usati anche da chi non ci abita.",
    "Dal 2012 le nascite in Lombardia sono calate di quasi un quarto. A {comune} il calo è stato più lento, ma l'età "
    "media delle madri continua a salire.",
    "«Sono numeri che conosciamo», ha detto al telefono un dirigente che chiede di non essere citato. «Il problema "
    "è il personale, non la programmazione».",
    "I dati, elaborati dalla redazione, non comprendono le prestazioni erogate in regime privato, per le quali non "
    "esiste una rilevazione pubblica.",
)


# --- planted values: each drawer gives value, query and the words that carry it ---------------------------------

BANNED = ("clamoroso", "shock", "choc", "bufera", "boom", "stangata", "batosta", "sconcertante", "allarme rosso")
OUTLETS = ("Lombardia Press 24", "ilgiornaledeicomuni.net", "Milano Notizie Plus", "DatiFacili.it",
           "OpenSpesa Blog", "Il Foglio dei Sindaci", "Brianza Oggi Web", "SanitàInforma.net")
CLEAN_DIRS = ("data/lavorati/", "data/puliti/", "data/clean_fc/", "data/interim_desk/")
TONES = (("persone in attesa", "pazienti in coda"), ("persone senza documenti", "clandestini"),
         ("imprese aggiudicatarie", "i soliti noti"), ("chi vive da solo", "single"))
SOURCE_LABELS = ("ISTAT", "ANAC", "Regione Lombardia", "Ministero dell'Interno", "ATS Milano")
LEGAL_NAMES = ("Conti", "l'avvocato", "il legale")
FACT_COLS = ("cod_comune_2021", "importo_netto_iva", "data_pubblicazione_esito", "denominazione_ente",
             "codice_fiscale_sa", "tempo_medio_attesa", "nati_vivi_totale", "impegni_competenza",
             "prestazione_desc", "anno_riferimento", "id_procedura", "classe_priorita_ssn")


class _Slots(dict):  # type: ignore[type-arg]
    """The slots of a filler template ({name}, {comune}, {n1} ...), drawn when looked up."""

    def __init__(self, b: _Builder, st: dict[str, Any]) -> None:
        super().__init__()
        self.b, self.st = b, st

    def __missing__(self, key: str) -> Any:
        r, st = self.b.rng, self.st
        if key == "n2":
            value: Any = r.randint(2, max(3, self["n1"] // 20))
        else:
            value = {
                "script": lambda: st["script"], "scraper": lambda: st["scraper"], "name": lambda: r.choice(DESK),
                "comune": lambda: r.choice(COMUNI)[0], "hh": lambda: r.randint(8, 21),
                "mm": lambda: f"{r.randint(0, 59):02d}", "mm2": lambda: f"{r.randint(20, 59):02d}",
                "n": lambda: r.randint(12, 9000), "n1": lambda: r.randint(300, 9000), "utils": lambda: r.choice(UTILS),
                "util": lambda: r.choice(UTILS), "line": lambda: r.randint(12, 340), "col": lambda: r.choice(st["cols"]),
                "pct": lambda: r.randint(3, 92), "draft": lambda: st["draft"], "rev": lambda: r.randint(4, 40),
                "ms": lambda: r.randint(80, 2400), "port": lambda: r.choice((8050, 8888, 8000, 3000, 8501)),
                "chart": lambda: st["chart"], "todo": self.b.todo_text,
            }[key]()
        self[key] = value
        return value


class _Builder:
    """Lays the episodes out (planted facts at their targets, filler in between) and writes the messages."""

    def __init__(self, seed: int, n: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = n
        self.k = per_kind(n)
        self.msgs: list[Message] = []
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.chars = 0
        self.used: set[str] = set()
        self.call_no = 0
        self.story = self.rng.choice(STORY_KEYS)
        self.tables: dict[str, list[str]] = {}
        self.raw: dict[str, list[str]] = {}
        for key in STORY_KEYS:
            rows = _rows(self.rng, key, 260)
            self.tables[key] = _table(STORIES[key]["cols"], rows)
            self.raw[key] = [";".join(STORIES[key]["cols"])] + [";".join(row) for row in rows]
        self.todo = self.rng.sample(TODO_ITEMS, 6)
        self.done: set[str] = set()
        self.first_tool: str | None = None
        self.pending = 0

    # --- messages ---------------------------------------------------------------------------------------------
    def _add(self, message: Message) -> int:
        self.msgs.append(message)
        self.chars += len(text_of(message))
        return len(self.msgs) - 1

    def user(self, text: str) -> int:
        return self._add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def act(self, calls: list[Call], text: str = "") -> list[int]:
        """One assistant message with ``calls``, then their tool results; returns the results' indexes."""
        self.pending = 0
        tool_calls = []
        for name, args, _out in calls:
            self.call_no += 1
            cid = f"call_{self.call_no:04d}{_hex(self.rng, 12)}"
            tool_calls.append({"id": cid, "type": "function",
                               "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
        self._add({"role": "assistant", "content": text, "tool_calls": tool_calls})
        return [self._add({"role": "tool", "tool_call_id": tc["id"], "name": name, "content": out})
                for (name, _a, out), tc in zip(calls, tool_calls)]

    def want(self, lo: int = 1800, hi: int = 6500) -> int:
        """How long the next tool output should be: a typical size, pulled toward the session's character budget."""
        deficit = (len(self.msgs) + 3) * CHARS_PER_MESSAGE - self.chars - self.pending
        size = max(220, min(11000, self.rng.randint(lo, hi) + int(0.3 * deficit)))
        self.pending += size
        return size

    def fresh(self, draw: Callable[[], str], tries: int = 40) -> str | None:
        for _ in range(tries):
            value = draw()
            if value not in self.used and not any(value in u or u in value for u in self.used):
                self.used.add(value)
                return value
        return None

    def fact(self, kind: str, value: str, index: int, query: str, **extra: Any) -> None:
        self.facts.append(Fact(kind, value, index, query, **extra))

    # --- small random pieces ----------------------------------------------------------------------------------
    def st(self) -> dict[str, Any]:
        if self.rng.random() < 0.12:
            self.story = self.rng.choice(STORY_KEYS)
        return STORIES[self.story]

    def slots(self, st: dict[str, Any]) -> _Slots:
        """Template slots, each drawn only when a template asks for it."""
        return _Slots(self, st)

    def todo_text(self) -> str:
        if self.rng.random() < 0.3 and len(self.done) < len(self.todo):
            self.done.add(self.rng.choice([t for t in self.todo if t not in self.done]))
        if len(self.done) == len(self.todo):
            self.todo = self.rng.sample(TODO_ITEMS, 6)
            self.done = set()
        return "\n".join(f"- [{'x' if t in self.done else ' '}] {t}" for t in self.todo)

    def typo(self, text: str) -> str:
        if self.rng.random() > 0.3 or len(text) < 12:
            return text
        words = text.split(" ")
        i = self.rng.randrange(len(words))
        w = words[i]
        if len(w) > 4 and w.isalpha():
            j = self.rng.randrange(1, len(w) - 2)
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
        return " ".join(words)

    def ts(self) -> str:
        r = self.rng
        return f"2024-06-{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"

    # --- tool outputs ----------------------------------------------------------------------------------------
    def head_lines(self, key: str, size: int) -> list[str]:
        lines = self.tables[key]
        rows = max(4, min(len(lines) - 1, size // max(40, len(lines[1]) + 1)))
        start = self.rng.randint(1, len(lines) - rows)
        return [lines[0], *lines[start:start + rows]]

    def py_head(self, st: dict[str, Any], size: int) -> Call:
        key = self.key_of(st)
        code = (f"import pandas as pd\ndf = pd.read_csv('{st['proc']}', dtype={{'cod_istat': str}})\n"
                f"print(df.shape)\nprint(df.sample(40, random_state={self.rng.randint(1, 99)}).to_string())")
        body = self.head_lines(key, size)
        return "run_python", {"code": code}, f"({self.rng.randint(800, 12000)}, {len(st['cols'])})\n" + "\n".join(body)

    def key_of(self, st: dict[str, Any]) -> str:
        return next(k for k, v in STORIES.items() if v is st)

    def py_describe(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        cols = st["num"]
        stats = ("count", "mean", "std", "min", "25%", "50%", "75%", "max")
        lines = ["        " + "".join(f"{c:>16}" for c in cols)]
        for s in stats:
            lines.append(f"{s:<8}" + "".join(f"{r.uniform(0.5, 90000):16.4f}" for _ in cols))
        out = "\n".join(lines)
        extra = []
        while len(out) + sum(len(x) for x in extra) < size:
            col = r.choice(st["cols"])
            extra.append(f"\n>>> df['{col}'].isna().sum()\n{r.randint(0, 400)}\n>>> df['{col}'].nunique()\n"
                         f"{r.randint(4, 3000)}")
            extra.append("\n" + "\n".join(self.head_lines(self.key_of(st), min(size // 2, 1800))))
        code = f"import pandas as pd\ndf = pd.read_csv('{st['proc']}')\nprint(df.describe().to_string())"
        return "run_python", {"code": code}, out + "".join(extra)

    def py_group(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        col = r.choice(st["num"])
        lines = [f"provincia  {col}_mediana  n_righe  quota_pct"]
        while sum(len(x) + 1 for x in lines) < size:
            for p in PROVINCE:
                lines.append(f"{p:<9}  {r.uniform(1, 9000):14.2f}  {r.randint(10, 900):7d}  {r.uniform(0.5, 40):9.2f}")
            lines.append(f"# fine gruppo, totale righe {r.randint(2000, 12000)}")
        code = (f"import pandas as pd\ndf = pd.read_csv('{st['proc']}')\n"
                f"g = df.groupby('provincia')['{col}'].agg(['median', 'size'])\nprint(g.sort_values('median'))")
        return "run_python", {"code": code}, "\n".join(lines)

    def py_merge(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        both, left, right = r.randint(900, 9000), r.randint(3, 60), r.randint(0, 30)
        out = [f"_merge\nboth          {both}\nleft_only       {left}\nright_only      {right}\nName: count, dtype: int64",
               "", "# righe senza corrispondenza (prime):"]
        out += self.head_lines(self.key_of(st), size - 200)
        code = ("import pandas as pd\nfrom analysis.join_istat import carica_comuni\n"
                f"df = pd.read_csv('{st['proc']}', dtype=str)\nm = df.merge(carica_comuni(), on='cod_istat', "
                "how='outer', indicator=True)\nprint(m['_merge'].value_counts())")
        return "run_python", {"code": code}, "\n".join(out)

    def py_ols(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        y = r.choice(st["num"])
        xs = [c for c in st["num"] if c != y][:3]
        out = []
        while sum(len(x) for x in out) < size:
            rows = "\n".join(f"{x:<16}{r.uniform(-3, 3):10.4f}{r.uniform(0.01, 2):10.3f}{r.uniform(-5, 9):10.3f}"
                             f"{r.uniform(0, 0.9):10.3f}{r.uniform(-4, 0):10.3f}{r.uniform(0, 4):10.3f}"
                             for x in ["const", *xs])
            out.append(
                "                            OLS Regression Results\n" + "=" * 78 + "\n"
                f"Dep. Variable:     {y:<22}R-squared:                       {r.uniform(0.05, 0.8):.3f}\n"
                f"Model:             OLS                   Adj. R-squared:                  {r.uniform(0.05, 0.8):.3f}\n"
                f"Method:            Least Squares         F-statistic:                     {r.uniform(2, 90):.2f}\n"
                f"Date:              Tue, 11 Jun 2024      Prob (F-statistic):           {r.uniform(0, 0.05):.2e}\n"
                f"No. Observations:  {r.randint(80, 1500):<22}AIC:                             {r.uniform(900, 9000):.1f}\n"
                + "=" * 78 + "\n                  coef    std err          t      P>|t|      [0.025      0.975]\n"
                + "-" * 78 + "\n" + rows + "\n" + "=" * 78 + "\n"
                f"Omnibus:                      {r.uniform(1, 90):.3f}   Durbin-Watson:                   "
                f"{r.uniform(1, 2.5):.3f}\nNotes:\n[1] Standard Errors assume that the covariance matrix of the errors "
                "is correctly specified.\n")
        code = (f"import statsmodels.formula.api as smf\nimport pandas as pd\ndf = pd.read_csv('{st['proc']}')\n"
                f"print(smf.ols('{y} ~ {' + '.join(xs)}', data=df).fit().summary())")
        return "run_python", {"code": code}, "\n".join(out)

    def traceback(self, st: dict[str, Any], final: str, size: int) -> str:
        r = self.rng
        pre = []
        while sum(len(x) + 1 for x in pre) < size - 900:
            pre.append(f"{self.ts()} INFO  {st['dir']}: pagina {r.randint(1, 80)}/80 ok ({r.randint(20, 400)} righe)")
        frames = (f"Traceback (most recent call last):\n  File \"{HOME}/{st['dir']}/{st['script']}\", line "
                  f"{r.randint(12, 300)}, in <module>\n    df = carica(RAW)\n  File \"{HOME}/{st['dir']}/{r.choice(UTILS)}\", "
                  f"line {r.randint(12, 300)}, in carica\n    return pd.read_csv(path, sep=';', dtype={{'cod_istat': str}})\n"
                  f"  File \"{HOME}/.venv/lib/python3.11/site-packages/pandas/io/parsers/readers.py\", line 1026, "
                  f"in read_csv\n    return _read(filepath_or_buffer, kwds)\n  File \"{HOME}/.venv/lib/python3.11/"
                  f"site-packages/pandas/io/parsers/readers.py\", line 626, in _read\n    return parser.read(nrows)\n")
        return "\n".join(pre) + ("\n" if pre else "") + frames + final

    def py_fail(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        final = r.choice((f"FileNotFoundError: [Errno 2] No such file or directory: '{st['raw']}.bak'",
                          "TypeError: unsupported operand type(s) for +: 'float' and 'str'",
                          f"KeyError: '{r.choice(st['cols']).upper()}'",
                          "AttributeError: 'NoneType' object has no attribute 'find_all'",
                          "ValueError: could not convert string to float: 'n.d.'"))
        code = f"exec(open('{st['script']}').read())"
        return "run_python", {"code": code}, self.traceback(st, final, size)

    def sh_pytest(self, st: dict[str, Any], size: int, fail: str | None = None, count: int | None = None) -> Call:
        r = self.rng
        total = count or r.randint(30, 80)
        files = ("tests/test_parse_ats.py", "tests/test_anac.py", "tests/test_bilanci.py", "tests/test_istat.py",
                 "tests/test_join.py", "tests/test_http.py")
        lines = ["============================= test session starts ==============================",
                 "platform linux -- Python 3.11.9, pytest-8.2.1, pluggy-1.5.0",
                 f"rootdir: {HOME}", "configfile: pyproject.toml", "plugins: requests-mock-1.12.1, anyio-4.4.0",
                 f"collected {total} items", ""]
        done = 0
        for i, f in enumerate(files):
            c = total // len(files) + (1 if i < total % len(files) else 0)
            done += c
            mark = "." * c if not (fail and i == 0) else "." * (c - 1) + "F"
            lines.append(f"{f:<58} {mark:<14} [{100 * done // total:3d}%]")
        if fail:
            lines += ["", "=================================== FAILURES ===================================",
                      "_________________________________ test_totali _________________________________", ""]
            lines += [f"    def test_totali():\n        df = parse(FIXTURE)\n>       assert df['totale'].sum() == "
                      f"ATTESO\nE       {fail.split(' - ', 1)[-1]}", ""]
        while sum(len(x) + 1 for x in lines) < size - 300:
            lines.append(f"  {HOME}/.venv/lib/python3.11/site-packages/bs4/builder/__init__.py:{r.randint(300, 600)}: "
                         "XMLParsedAsHTMLWarning: It looks like you're parsing an XML document using an HTML parser.")
        if fail:
            lines.append("=========================== short test summary info ============================")
            lines.append(fail)
            lines.append(f"========================= 1 failed, {total - 1} passed in {r.uniform(1, 9):.2f}s "
                         "=========================")
        else:
            lines.append(f"============================== {total} passed, {r.randint(1, 6)} warnings in "
                         f"{r.uniform(1, 9):.2f}s ==============================")
        return "shell", {"command": "cd ~/inchieste && .venv/bin/pytest -q tests/"}, "\n".join(lines)

    def sh_cron(self, st: dict[str, Any], size: int, error: str | None = None) -> Call:
        r = self.rng
        day = int(error[8:10]) if error else r.randint(1, 27)
        lines = []
        h, m, s = 3, int(error[14:16]) - 2 if error else r.randint(0, 20), 0
        pos = r.randint(3, 12) if error else -1
        while sum(len(x) + 1 for x in lines) < size:
            s += r.randint(1, 9)
            m, s = m + s // 60, s % 60
            page = len(lines) + 1
            if page == pos and error:
                lines.append(error)
                continue
            lines.append(f"2024-06-{day:02d} {h:02d}:{m % 60:02d}:{s:02d},{r.randint(0, 999):03d} INFO "
                         f"scraper.{st['dir']}: GET {st['url']}?page={page} -> 200 ({r.randint(20, 400)} KB, "
                         f"{r.uniform(0.2, 4):.2f}s)")
            if r.random() < 0.08:
                lines.append(f"2024-06-{day:02d} {h:02d}:{m % 60:02d}:{s:02d},{r.randint(0, 999):03d} WARNING "
                             f"scraper.{st['dir']}: retry {r.randint(1, 3)}/5 in {r.choice([2, 5, 10])}s")
        if error and error not in lines:
            lines.insert(min(len(lines), 3), error)
        return "shell", {"command": f"tail -n {len(lines)} ~/inchieste/logs/cron_{st['dir']}.log"}, "\n".join(lines)

    def sh_misc(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        lines = [f"total {r.randint(20, 900)}M"]
        names = ["liste_attesa_2024-0", "anac_cig_2023_part", "rendiconti_", "istat_bilancio_demo_", "pagina_"]
        while sum(len(x) + 1 for x in lines) < size:
            nm = f"{r.choice(names)}{r.randint(1, 99):02d}.{r.choice(['csv', 'xlsx', 'html', 'json'])}"
            lines.append(f"-rw-r--r-- 1 francesca staff {r.randint(2000, 90000000):>10} Jun {r.randint(1, 28):2d} "
                         f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d} {nm}")
        return "shell", {"command": f"ls -la ~/inchieste/{st['dir']}/data/raw | head -n {len(lines)}"}, "\n".join(lines)

    def git_out(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        what = r.random()
        if what < 0.3:
            lines = ["On branch dati/" + st["dir"], "Changes not staged for commit:",
                     '  (use "git add <file>..." to update what will be committed)', ""]
            lines += [f"\tmodified:   {p}" for p in (st["script"], st["draft"], st["scraper"])]
            lines += ["", "Untracked files:", f"\t{st['proc']}"]
            cmd = "status"
            lines += self.log_lines(size - 300)
            cmd = "status && git log -n 12"
        elif what < 0.55:
            lines = self.log_lines(size)
            cmd = "log -n 20"
        else:
            lines = [f"diff --git a/{st['draft']} b/{st['draft']}", f"index {_hex(r, 7)}..{_hex(r, 7)} 100644",
                     f"--- a/{st['draft']}", f"+++ b/{st['draft']}"]
            while sum(len(x) + 1 for x in lines) < size:
                s = self.slots(st)
                lines.append(f"@@ -{r.randint(1, 60)},7 +{r.randint(1, 60)},7 @@")
                lines.append(" " + r.choice(DRAFT_PARAS).format_map(s))
                lines.append("-" + r.choice(DRAFT_PARAS).format_map(s))
                lines.append("+" + r.choice(DRAFT_PARAS).format_map(self.slots(st)))
            cmd = f"diff HEAD~1 -- {st['draft']}"
        return "git", {"args": cmd}, "\n".join(lines)

    def log_lines(self, size: int) -> list[str]:
        r = self.rng
        msgs = ("scraper: gestisce le celle unite", "bozza: secondo paragrafo riscritto", "join: codici ISTAT 2023",
                "grafico: etichette più corte", "fix: pagine vuote", "box metodo", "test: fixture aprile",
                "dati: aggiornamento cron", "bozza: note del legale")
        out = []
        while sum(len(x) + 1 for x in out) < size:
            name = r.choice(DESK + ("Francesca Moretti",))
            out += [f"commit {_hex(r, 40)}", f"Author: {name} <{name.split()[1].lower()}@cronacanazionale.it>",
                    f"Date:   Tue Jun {r.randint(1, 28)} {r.randint(8, 23):02d}:{r.randint(0, 59):02d}:00 2024 +0200",
                    "", f"    {r.choice(msgs)}", ""]
        return out

    def read_code(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        path = r.choice((st["scraper"], st["script"], r.choice(UTILS)))
        body = ["import time", "import requests", "import pandas as pd", "from bs4 import BeautifulSoup", "",
                f"BASE = \"{st['url']}\"", "PAUSA = 2.0", ""]
        funcs = ("def scarica(pagina: int) -> str:\n    r = requests.get(BASE, params={{'page': pagina}}, timeout=30)\n"
                 "    r.raise_for_status()\n    time.sleep(PAUSA)\n    return r.text\n",
                 "def parse(html: str) -> pd.DataFrame:\n    soup = BeautifulSoup(html, 'html.parser')\n"
                 "    t = soup.find('table')\n    righe = [[td.get_text(strip=True) for td in tr.find_all('td')]\n"
                 "             for tr in t.find_all('tr')[1:]]\n    return pd.DataFrame(righe, columns=COLONNE)\n",
                 "def pulisci(df: pd.DataFrame) -> pd.DataFrame:\n    df = df.dropna(how='all')\n"
                 "    df['cod_istat'] = df['cod_istat'].str.zfill(6)\n    # TODO: i comuni fusi nel 2019\n"
                 "    return df[~df['comune'].str.startswith('Totale')]\n",
                 "def a_numero(s: str) -> float:\n    s = s.replace('.', '').replace(',', '.')\n"
                 "    return float(s) if s not in ('', 'n.d.', '-') else float('nan')\n",
                 "def main() -> None:\n    pagine = [parse(scarica(p)) for p in range(1, 81)]\n"
                 "    df = pulisci(pd.concat(pagine))\n    df.to_csv(OUT, index=False)\n")
        while sum(len(x) + 1 for x in body) < size:
            body.append(r.choice(funcs))
        numbered = "\n".join(f"{i + 1:4d}\t{ln}" for i, ln in enumerate("\n".join(body).split("\n")))
        return "read_file", {"path": path}, numbered

    def read_draft(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        parts = [f"# {st['chart']}\n", f"<!-- bozza, ultima modifica {r.randint(8, 22)}:{r.randint(0, 59):02d} -->"]
        while sum(len(x) + 2 for x in parts) < size:
            parts.append(r.choice(DRAFT_PARAS).format_map(self.slots(st)))
        return "read_file", {"path": st["draft"]}, "\n\n".join(parts)

    def read_csv(self, st: dict[str, Any], size: int) -> Call:
        lines = self.raw[self.key_of(st)]
        raw = lines[: max(5, min(len(lines), size // max(30, len(lines[1]) + 1)))]
        return "read_file", {"path": st["raw"].replace(".xlsx", ".csv"), "limit": len(raw)}, "\n".join(raw)

    def fetch(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        head = (f"HTTP/1.1 200 OK\nDate: Tue, {r.randint(1, 28):02d} Jun 2024 {r.randint(6, 21):02d}:"
                f"{r.randint(0, 59):02d}:{r.randint(0, 59):02d} GMT\nContent-Type: text/html; charset=UTF-8\n"
                f"Server: nginx\nCache-Control: max-age={r.choice([60, 300, 3600])}\n\n")
        rows = ["<table class=\"dati\">", "<tr><th>Ente</th><th>Voce</th><th>Valore</th><th>Anno</th></tr>"]
        while sum(len(x) + 1 for x in rows) < size - len(head):
            rows.append(f"<tr><td>{r.choice(COMUNI)[0]}</td><td>{r.choice(PRESTAZIONI)}</td>"
                        f"<td>{r.randint(1, 9000):,}</td><td>{r.randint(2018, 2024)}</td></tr>")
        rows.append("</table>")
        return "fetch_url", {"url": st["url"], "page": r.randint(1, 80)}, head + "\n".join(rows)

    def cms(self, st: dict[str, Any], size: int, art: str | None = None) -> Call:
        r = self.rng
        aid = art or f"2024-LOM-{r.randint(10000, 49999)}"
        paras = []
        while sum(len(x) for x in paras) < size - 500:
            paras.append(r.choice(DRAFT_PARAS).format_map(self.slots(st)))
        doc = {"id": aid, "slug": st["slug"], "status": r.choice(["draft", "in_review"]),
               "section": "cronaca/milano", "title": st["chart"], "authors": ["f.moretti", r.choice(DESK)],
               "updated_at": f"2024-06-{r.randint(1, 28):02d}T{r.randint(8, 22):02d}:{r.randint(0, 59):02d}:00+02:00",
               "word_count": r.randint(600, 1400), "body": paras,
               "revisions": [{"rev": i, "by": r.choice(DESK)} for i in range(r.randint(2, 6))]}
        return "cms_api", {"method": "GET", "path": f"/articles/{aid}"}, json.dumps(doc, ensure_ascii=False, indent=2)

    def dw(self, st: dict[str, Any], size: int, chart: str | None = None) -> Call:
        r = self.rng
        cid = chart or (r.choice("abcdefghijkmnpqrstuvwxyz") + _hex(r, 4, "abcdefghijkmnpqrstuvwxyz0123456789"))
        doc = {"id": cid, "title": st["chart"], "type": r.choice(["d3-bars", "d3-maps-choropleth", "d3-lines"]),
               "publicUrl": f"https://datawrapper.dwcdn.net/{cid}/{r.randint(1, 9)}/",
               "metadata": {"describe": {"source-name": r.choice(SOURCE_LABELS), "byline": "Francesca Moretti"},
                            "visualize": {"x-grid": "off", "y-grid": "on", "base-color": r.choice(["#c71e1d", "#15607a"])}},
               "data": []}
        for _ in range(max(1, (size - 600) // 52)):
            doc["data"].append({"label": r.choice(COMUNI)[0], "value": round(r.uniform(1, 900), 1)})
        return "datawrapper", {"action": "get", "chart_id": cid}, json.dumps(doc, ensure_ascii=False, indent=1)

    def write(self, st: dict[str, Any], size: int) -> Call:
        r = self.rng
        path = r.choice((st["script"], st["test"], f"notes/{st['dir']}.md", r.choice(UTILS)))
        _name, _args, code = self.read_code(st, max(400, size // 2))
        content = "\n".join(ln.split("\t", 1)[-1] for ln in code.split("\n"))
        return "write_file", {"path": path, "content": content}, f"Wrote {len(content):,} bytes to {path}"

    def edit(self, st: dict[str, Any], size: int) -> Call:
        s = self.slots(st)
        old = self.rng.choice(DRAFT_PARAS).format_map(s)
        new = self.rng.choice(DRAFT_PARAS).format_map(self.slots(st))
        return ("edit_file", {"path": st["draft"], "old_string": old, "new_string": new},
                f"Edited {st['draft']}: 1 replacement (line {self.rng.randint(4, 80)})")

    def action(self, tool: str | None = None) -> Call:
        st = self.st()
        size = self.want()
        table: dict[str, tuple[Callable[[dict[str, Any], int], Call], ...]] = {
            "run_python": (self.py_head, self.py_describe, self.py_group, self.py_merge, self.py_ols, self.py_fail),
            "shell": (self.sh_pytest, self.sh_cron, self.sh_misc), "git": (self.git_out,),
            "read_file": (self.read_code, self.read_draft, self.read_csv), "fetch_url": (self.fetch,),
            "cms_api": (self.cms,), "datawrapper": (self.dw,), "write_file": (self.write,), "edit_file": (self.edit,),
        }
        if tool is None:
            tool = self.rng.choices(TOOLS, weights=(9, 5, 1, 1, 2, 2, 2, 2, 4))[0]
        return self.rng.choice(table[tool])(st, size)

    # --- filler ----------------------------------------------------------------------------------------------
    def filler_user(self) -> str:
        r = self.rng
        st = STORIES[self.story]
        x = r.random()
        if x < 0.3:
            return r.choice(SHORT_USER)
        if x < 0.4:
            return self.typo(r.choice(EDITORIAL).format_map(self.slots(st)))
        if x < 0.5:
            pasted = r.choice(PASTES)(r)
            text = f"{r.choice(PASTE_INTROS)}\n\n{pasted}\n\n{r.choice(PASTE_OUTROS)}".rstrip()
            self.pasted.append((len(self.msgs), pasted))
            return text
        ask, self.first_tool = r.choice(ASKS)
        return self.typo(ask.format_map(self.slots(st)))

    def closer(self) -> str:
        return self.rng.choice(CLOSERS).format_map(self.slots(STORIES[self.story]))

    def filler_turn(self, length: int) -> None:
        self.first_tool = None
        self.user(self.filler_user())
        if length == 2:
            self.say(self.rng.choice(ANSWERS).format_map(self.slots(STORIES[self.story])))
            return
        rest = length - 2
        while rest:
            c = rest - 1 if rest <= 4 else self.rng.choice((1, 1, 1, 2, 2, 3))
            if rest - (c + 1) == 1:
                c += 1
            first, self.first_tool = self.first_tool, None
            self.act([self.action(first if j == 0 else None) for j in range(c)], self.rng.choice(AGENT_PRE))
            rest -= c + 1
        self.say(self.closer())

    def fill(self, gap: int) -> None:
        assert gap >= 0 and gap not in (1, 3), gap
        while gap:
            if gap <= 14 and (gap <= 8 or self.rng.random() < 0.5):
                length = gap
            else:
                length = self.rng.choice((2, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12))
                while length in (1, 3) or gap - length in (1, 3):
                    length += 1
                length = min(length, gap)
            self.filler_turn(length)
            gap -= length

    # --- fixed parts -----------------------------------------------------------------------------------------
    def system(self) -> None:
        self._add({"role": "system", "content": (
            "You are the data desk's assistant at Cronaca Nazionale (Milan). You help journalists scrape public "
            "sources, clean and join tables, run statistics, make Datawrapper charts, fact-check numbers and edit "
            "drafts in the CMS. Tools: run_python (a Python 3.11 kernel with pandas, requests, bs4, scipy, "
            "statsmodels), read_file, write_file, edit_file (exact string replacement), fetch_url, cms_api (the "
            "newsroom CMS REST API), datawrapper (charts API), git, shell. Work in ~/inchieste. Answer in the "
            "language the journalist writes in. Never publish anything yourself; drafts only.")})

    def opening(self) -> None:
        st = STORIES[self.story]
        self.user(self.rng.choice(OPENERS).format(story=st["it"]))
        self.act([self.git_out(st, self.want(600, 1500)), self.sh_misc(st, self.want(600, 1500)),
                  self.read_draft(st, self.want(1200, 3000))], "Guardo repo, dati e bozza.")
        self.say(f"Siamo su `dati/{st['dir']}`, con {self.rng.randint(2, 5)} file modificati e non committati. "
                 f"In data/raw ci sono i file scaricati dal cron; la bozza è a metà (manca il box metodo).\n\n"
                 f"Todo:\n{self.todo_text()}")

    def coverage(self) -> None:
        st = STORIES[self.story]
        self.user(self.typo("ok, prima di tutto: riscarica la pagina, controlla bozza e grafico, e sistemiamo lo "
                            "script"))
        self.act([self.fetch(st, self.want()), self.cms(st, self.want()), self.dw(st, self.want())],
                 "Parto da pagina, CMS e grafico.")
        self.act([self.py_head(st, self.want()), self.write(st, self.want()), self.edit(st, self.want())],
                 "Rilancio lo script, aggiorno le note e correggo il refuso nella bozza.")
        self.say(self.closer())

    # --- the plan ----------------------------------------------------------------------------------------------
    def build(self) -> Session:
        n, r = self.n, self.rng
        self.system()
        self.opening()
        eps = self.plan_episodes()
        lo = max(len(self.msgs), -(-3 * n // 100) + 1)
        if lo - len(self.msgs) in (1, 3):
            lo += 1
        end = int(0.875 * n)
        free = end - lo - sum(e[0] for e in eps)
        if free < 0:
            raise RuntimeError(f"no room for the planted facts in {n} messages")
        gaps = [0] + [free // len(eps) + (1 if i < free % len(eps) else 0) for i in range(1, len(eps))]
        self.fill_to(lo)
        carry = 0
        for (_length, run), gap in zip(eps, gaps):
            gap += carry
            carry = 0
            if gap in (1, 3):
                gap, carry = gap - 1, 1
            self.fill(gap)
            run()
        self.fill_to(n - 1)
        st = STORIES[self.story]
        self.user(r.choice(("ok, per oggi basta. domani riprendiamo dal grafico",
                            "grazie, chiudo qui. ci sentiamo domani per la bozza",
                            f"ok. I'll send it to {r.choice(DESK)} and we'll see tomorrow",
                            f"perfetto, domattina ricontrolliamo {st['it']} con calma")))
        assert len(self.msgs) == n
        self.facts.sort(key=lambda f: (f.index, f.kind))
        return Session(messages=self.msgs, facts=self.facts, seed=self.seed, pasted=self.pasted)

    def fill_to(self, index: int) -> None:
        gap = index - len(self.msgs)
        if gap in (1, 3):  # never in practice: the episodes start one earlier instead
            gap -= 1
        self.fill(gap)
        while len(self.msgs) < index:  # a single missing message: one more answer
            self.say(self.rng.choice(ANSWERS).format_map(self.slots(STORIES[self.story])))

    def plan_episodes(self) -> list[tuple[int, Callable[[], None]]]:
        """The episodes in session order, each (its length, what writes it)."""
        n, k, r = self.n, self.k, self.rng
        kinds_order: list[tuple[float, str, int]] = []
        for kind in KINDS:
            for i in range(k):
                if kind == "instruction" and i < 2:
                    continue
                kinds_order.append((i + r.random() * 1.6, kind, i))
        kinds_order.sort()
        seq: list[tuple[str, int]] = [("instruction", 0)] + ([("instruction", 1)] if k > 1 else [])
        seq += [("coverage", 0)] + [(kind, i) for _t, kind, i in kinds_order]
        approx = max(1.0, (0.84 * n) / (len(seq) + 1.5 * k))
        revised = {0} if k == 1 else {1 + 3 * j for j in range(max(1, k // 3))}
        resolved = set() if k == 1 else {1 + 3 * j for j in range(max(1, k // 3))}
        corrections = [pos for pos, (kind, _i) in enumerate(seq) if kind == "correction"]
        inserts: list[tuple[int, tuple[str, int]]] = []
        for c, pos in enumerate(corrections):
            far = c % 2 == 1 and pos * approx > 150
            back = max(7, int(160 / approx) + 1) if far else r.randint(2, 4)
            inserts.append((max(2 + (k > 1), pos - back), ("stale_correction", seq[pos][1])))
        for pos, (kind, i) in enumerate(seq):
            if kind == "decision" and i in revised:
                inserts.append((max(2 + (k > 1), pos - r.randint(2, 5)), ("stale_decision", i)))
            if kind == "error" and i in resolved:
                inserts.append((pos + 1 + r.randint(1, 3), ("resolution", i)))
        for pos, item in sorted(inserts, key=lambda x: -x[0]):
            seq.insert(min(pos, len(seq)), item)
        # a resolution must follow its error
        for i in range(k):
            if i in resolved:
                e = seq.index(("error", i))
                s = seq.index(("resolution", i))
                if s < e:
                    seq.insert(e + 1, seq.pop(s))
        self.specs = self.draw_specs(revised, resolved)
        return [(self.length_of(item), self.runner(item)) for item in seq]

    # --- drawing the facts -------------------------------------------------------------------------------------
    def draw_specs(self, revised: set[int], resolved: set[int]) -> dict[tuple[str, int], dict[str, Any]]:
        k, r = self.k, self.rng
        specs: dict[tuple[str, int], dict[str, Any]] = {}
        adopted = {i for i in range(2, k) if i % 4 == 3}
        for kind, drawers in (("instruction", INSTRUCTIONS), ("correction", CORRECTIONS), ("decision", DECISIONS),
                              ("error", ERRORS), ("file", FILES), ("finding", FINDINGS), ("plan", PLANS)):
            order = list(range(len(drawers)))
            r.shuffle(order)
            for i in range(k):
                spec = None
                j = i
                while spec is None:
                    spec = drawers[order[j % len(order)]](self)
                    j += 1
                if kind == "decision" and i in revised:
                    spec["revise"] = True
                if kind == "error":
                    spec["resolve"] = i in resolved
                if kind == "instruction":
                    spec["adopted"] = i in adopted
                    spec["long"] = r.random() < 0.35
                if kind == "correction":
                    spec["style"] = r.randrange(8)
                specs[(kind, i)] = spec
        for i in range(k):
            spec = None
            while spec is None:
                spec = (_ident_user if i % 2 == 0 else _ident_tool)(self)
            specs[("identifier", i)] = spec
        return specs

    def length_of(self, item: tuple[str, int]) -> int:
        kind, i = item
        if kind == "coverage":
            return 10
        if kind in ("instruction", "decision", "plan", "stale_decision"):
            return 4 if kind == "instruction" and self.specs[item]["long"] and not self.specs[item]["adopted"] else 2
        if kind == "correction":
            return 2
        if kind == "identifier":
            return 2 if i % 2 == 0 else 4
        return 4  # error, resolution, file, finding, stale_correction

    def runner(self, item: tuple[str, int]) -> Callable[[], None]:
        kind, i = item
        if kind == "coverage":
            return self.coverage
        spec_key = (kind.replace("stale_", "") if kind.startswith("stale_") else
                    "error" if kind == "resolution" else kind, i)
        method = getattr(self, f"ep_{kind}")
        return lambda: method(self.specs[spec_key])

    # --- episodes ----------------------------------------------------------------------------------------------
    def ep_instruction(self, s: dict[str, Any]) -> None:
        r = self.rng
        st = STORIES[self.story]
        if s["adopted"]:
            paste, lead = r.choice(ADOPT_FROM)
            pasted = paste(r)
            own = r.choice(("Ok, quindi tradotto per noi, da qui in avanti: ", "In pratica, my own version of it: ",
                            "Detto a modo mio, e vale per tutto il pezzo: "))
            idx = self.user(f"{lead}\n\n{pasted}\n\n{own}{s['rule'][0].lower()}{s['rule'][1:]}")
            self.pasted.append((idx, pasted))
        else:
            first = r.choice(ASKS)[0].format_map(self.slots(st))
            first = self.typo(first[0].upper() + first[1:])
            third = r.choice(("", "", "\n\ngrazie", "\n\n(vale anche per i prossimi pezzi)", "\n\nanyway, vai"))
            idx = self.user(f"{first}\n\n{s['rule']}{third}")
        ack = r.choice(("Ricevuto, me lo segno: {v}.", "Ok, noted: {v}. I'll apply it from now on.",
                        "Chiaro. Lo aggiungo alle regole del pezzo ({v}) e ricontrollo la bozza.",
                        "Va bene, {v}: lo tengo presente anche nei prossimi passaggi."))
        if s["long"] and not s["adopted"]:
            note = f"- {s['value']}  ({s['query'].rstrip('?')})"
            self.act([("edit_file", {"path": "NOTES.md", "old_string": "## Regole\n", "new_string": f"## Regole\n{note}\n"},
                       "Edited NOTES.md: 1 replacement (line 3)")], "Lo segno nelle note del progetto.")
        self.say(ack.format(v=s["value"]))
        self.fact("instruction", s["value"], idx, s["query"])

    def ep_stale_correction(self, s: dict[str, Any]) -> None:
        r = self.rng
        st = STORIES[self.story]
        s["stale_index"] = self.user(s["say"])
        code = f"import pandas as pd\nfrom analysis.utils import cerca\nprint(cerca('{s['stale']}'))"
        out = "\n".join(self.head_lines(self.key_of(st), self.want(600, 2000)))
        self.act([("run_python", {"code": code}, f"# risultati per {s['stale']}\n{out}")],
                 f"Cerco {s['stale']} nei nostri file.")
        self.say(f"Ok, uso {s['stale']}. Nei file ci sono {r.randint(2, 40)} righe collegate, le ho messe da parte.")

    def ep_correction(self, s: dict[str, Any]) -> None:
        r = self.rng
        st = STORIES[self.story]
        v, old = s["value"], s["stale"]
        forms = (f"no aspetta, {s['noun_it']} è {v}, non {old}", f"correggo: {s['noun_it']} "
                 f"{'giusta' if s['noun_it'].startswith('la ') else 'giusto'} è {v}",
                 f"anzi no, scusa: {v}. mi sono confusa", f"mi sono sbagliata, ti ho dato {s['noun_it']} "
                 f"{'sbagliata' if s['noun_it'].startswith('la ') else 'sbagliato'}: è {v}",
                 f"I gave you the wrong {s['noun_en']} earlier, it's {v}",
                 f"the other one — {v}, not what I said before", f"intendevo {v}, scusa",
                 f"no wait, {s['noun_en']} is {v}")
        line = forms[s["style"]]
        if r.random() < 0.45:
            pre = r.choice(EDITORIAL).format_map(self.slots(st))
            post = r.choice(ASKS)[0].format_map(self.slots(st))
            text = f"{pre}\n\nPoi, {line}. {s['ctx_it']}\n\n{post}"
        else:
            text = f"{line} ({s['ctx_it']})"
        idx = self.user(text)
        self.say(r.choice((f"Ok, corretto: {v} al posto di {old}. Rifaccio i controlli con quello giusto.",
                           f"Got it — {v}, not {old}. I'll redo what depended on it.",
                           f"Perfetto, aggiorno: {v}. Le righe trovate con il valore vecchio le butto.")))
        self.fact("correction", v, idx, s["query"], stale=old, stale_index=s["stale_index"])

    def ep_stale_decision(self, s: dict[str, Any]) -> None:
        r = self.rng
        text = r.choice((f"per ora andiamo con {s['stale']}, poi vediamo", f"let's do {s['stale']} for now",
                         f"io farei {s['stale']}. ok?", f"proviamo con {s['stale']}, se non convince cambiamo"))
        s["stale_index"] = self.user(text)
        self.say(f"Ok, {s['stale']}. Preparo tutto in quel senso.")

    def ep_decision(self, s: dict[str, Any]) -> None:
        r = self.rng
        v = s["value"]
        if s.get("revise"):
            text = r.choice((f"ho cambiato idea: {v}. {s['why']}", f"ripensandoci, niente {s['stale']}: {v}. "
                             f"{s['why']}", f"scratch that, let's go with {v} instead. {s['why']}"))
        else:
            text = r.choice((f"ok, decidiamo: {v}. {s['why']}", f"let's go with {v}. {s['why']}",
                             f"allora {v}, chiuso. {s['why']}", f"va bene, scelgo {v}. {s['why']}"))
        idx = self.user(text)
        self.say(r.choice((f"Ok, {v}. Adeguo script e grafico.", f"Deciso: {v}. Lo segno nella todo.",
                           f"Fine, {v} it is. I'll update the draft accordingly.")))
        extra = {"stale": s["stale"], "stale_index": s["stale_index"]} if s.get("revise") else {}
        self.fact("decision", v, idx, s["query"], **extra)

    def ep_error(self, s: dict[str, Any]) -> None:
        r = self.rng
        self.user(self.typo(r.choice(s["asks"])))
        (idx,) = self.act([s["run"](self, s, False)], r.choice(AGENT_PRE))
        self.say(r.choice((f"Si ferma qui:\n\n    {s['value']}\n\n{s['why']}",
                           f"It fails with `{s['value']}`. {s['why']}",
                           f"Errore: `{s['value']}`. {s['why']} Vuoi che sistemi?")))
        self.fact("error", s["value"], idx, s["query"], resolved=None)
        s["index"] = len(self.facts) - 1

    def ep_resolution(self, s: dict[str, Any]) -> None:
        r = self.rng
        self.user(r.choice(("ok ho sistemato, rilancia", "riprova adesso", "try again now, I fixed the file",
                            "rifai girare, dovrebbe andare")))
        (idx,) = self.act([s["run"](self, s, True)], "Rilancio lo stesso comando.")
        self.say(r.choice(("Adesso passa, nessun errore.", "Now it goes through cleanly.",
                           "Ok, questa volta funziona: output regolare.")))
        f = self.facts[s["index"]]
        self.facts[s["index"]] = Fact(f.kind, f.value, f.index, f.query, resolved=idx)

    def ep_file(self, s: dict[str, Any]) -> None:
        r = self.rng
        st = STORIES[self.story]
        self.user(self.typo(s["ask"]))
        body = "\n".join(ln.split("\t", 1)[-1] for ln in self.read_code(st, self.want(600, 2500))[2].split("\n"))
        if s["edit"]:
            call = ("edit_file", {"path": s["value"], "old_string": "PAUSA = 2.0", "new_string": "PAUSA = 3.0"},
                    f"Edited {s['value']}: 1 replacement (line {r.randint(4, 40)})")
        else:
            call = ("write_file", {"path": s["value"], "content": body}, f"Wrote {len(body):,} bytes to {s['value']}")
        (_t,) = self.act([call], r.choice(("Lo scrivo.", "Creo il file.", "Writing it.")))
        idx = len(self.msgs) - 2
        self.say(f"Fatto: `{s['value']}`. {s['after']}")
        self.fact("file", s["value"], idx, s["query"])

    def ep_identifier(self, s: dict[str, Any]) -> None:
        r = self.rng
        st = STORIES[self.story]
        if s["carrier"] == "user":
            idx = self.user(s["say"])
            self.say(r.choice((f"Ok, {s['value']}: lo uso come riferimento.", f"Noted: {s['value']}.",
                               f"Segnato {s['value']}, lo cerco nei file appena serve.")))
        else:
            self.user(self.typo(s["ask"]))
            (idx,) = self.act([s["run"](self, st)], r.choice(AGENT_PRE))
            self.say(f"{s['after']} `{s['value']}`.")
        self.fact("identifier", s["value"], idx, s["query"])

    def ep_finding(self, s: dict[str, Any]) -> None:
        r = self.rng
        st = STORIES[self.story]
        self.user(self.typo(s["ask"]))
        (idx,) = self.act([s["run"](self, st)], r.choice(AGENT_PRE))
        self.say(s["means"])
        self.fact("finding", s["value"], idx, s["query"])

    def ep_plan(self, s: dict[str, Any]) -> None:
        r = self.rng
        idx = self.user(s["text"])
        self.say(r.choice(("Ok, la todo diventa:\n{t}", "Sounds good. Updated todo:\n{t}",
                           "Chiaro. Allora:\n{t}")).format(t="\n".join(f"- [ ] {x}" for x in s["steps"])))
        self.fact("plan", s["value"], idx, s["query"])


# --- instruction drawers: the value is the distinctive part of a rule -------------------------------------------

Spec = dict[str, Any]


def _rule(b: _Builder, draw: Callable[[], str], texts: tuple[str, ...], query: str) -> Spec | None:
    v = b.fresh(draw)
    if v is None:
        return None
    return {"value": v, "rule": b.rng.choice(texts).format(v=v), "query": query}


def _i_banned(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"«{b.rng.choice(BANNED)}»", (
        "Ricordati che da noi {v} non esiste: né nei titoli né nei sommari.",
        "house rule, in case nobody told you: {v} never goes in a headline. Elena deletes it on sight",
        "e per favore, la parola {v} non la voglio vedere nel pezzo, neanche tra virgolette."),
        "Which word does the house style ban from headlines and copy?")


def _i_sources(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"almeno {b.rng.choice(['due', 'tre'])} fonti indipendenti", (
        "Per noi vale sempre: nessuna cifra va nel pezzo se non la trovi in {v}.",
        "we never print a number unless it's confirmed by {v}, ok?"),
        "How many independent sources must confirm a number before it goes in the piece?")


def _i_outlet(b: _Builder) -> Spec | None:
    return _rule(b, lambda: b.rng.choice(OUTLETS), (
        "I'd rather we never cite {v}, they've been wrong too many times.",
        "Non citiamo mai {v} come fonte, nemmeno per un dato che sembra innocuo."),
        "Which outlet must never be cited as a source?")


def _i_minors(b: _Builder) -> Spec | None:
    return _rule(b, lambda: b.rng.choice(["nemmeno le iniziali", "neanche la classe frequentata",
                                          "nemmeno il quartiere dove vivono"]), (
        "Ricordati che dei minori non pubblichiamo mai i nomi, {v}.",
        "Non pubblicare mai niente che identifichi un minore: niente nomi, {v}."),
        "What else, besides names, must never be published about minors?")


def _i_reply(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"almeno {b.rng.choice([24, 36, 48, 72])} ore", (
        "Diritto di replica: chi viene citato deve avere {v} per rispondere prima che il pezzo vada online.",
        "right of reply, always: whoever we name gets {v} before we publish. non negoziabile"),
        "How much time must the people named get to reply before publication?")


def _i_legal(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"finché {b.rng.choice(LEGAL_NAMES)} non dà l'ok", (
        "E {v}, niente nomi delle aziende nel testo: scrivi «un'impresa di Bergamo» e basta.",
        "{v}, non mettere la bozza in stato pronto nel CMS."),
        "What has to happen before company names go in the text or the draft is marked ready?")


def _i_label(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"«Elaborazione Cronaca Nazionale su dati {b.rng.choice(SOURCE_LABELS)}»", (
        "Da qui in avanti la fonte nei grafici si scrive {v}, non il nome dell'ente e basta.",
        "from now on the source line on charts reads {v}, nothing else"),
        "How must the source line on the charts be written?")


def _i_letters(b: _Builder) -> Spec | None:
    return _rule(b, lambda: b.rng.choice(["da uno a nove in lettere", "da zero a dieci in lettere"]), (
        "Altra cosa di stile: i numeri {v}, sopra in cifre.",
        "style thing: numbers {v} please, Elena is picky about it"),
        "Which numbers are spelled out in words in the copy?")


def _i_colors(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"mai più di {b.rng.choice([3, 4, 5])} colori", (
        "Preferisco che i grafici abbiano {v}, anche se Datawrapper ne propone di più.",
        "I'd rather keep the charts to {v} — on mobile it's a mess otherwise"),
        "What is the limit on colours in a chart?")


def _i_embargo(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"embargo fino alle {b.rng.choice([7, 9, 10, 11, 12])}:{b.rng.choice(['00', '30'])}", (
        "Attenzione: i dati della Regione sono sotto {v} di domani, finché non scade niente sul sito né sui social.",
        "careful: {v} tomorrow, so until then nothing goes on the site, not even a teaser"),
        "Until when is the regional data under embargo?")


def _i_branch(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"«{b.rng.choice(['dati', 'fc', 'inchiesta', 'desk-dati'])}/nome-storia»", (
        "Ricordati che su main non si committa mai direttamente: i branch li chiamiamo sempre {v}.",
        "never commit straight to main; branches are always named {v}"),
        "How must git branches be named?")


def _i_clean_dir(b: _Builder) -> Spec | None:
    return _rule(b, lambda: b.rng.choice(CLEAN_DIRS), (
        "I'd rather keep the raw files untouched: anything cleaned goes in {v}.",
        "I file grezzi non si toccano mai; quello che pulisci lo salvi in {v}."),
        "Where do cleaned data files go?")


def _i_doctors(b: _Builder) -> Spec | None:
    return _rule(b, lambda: b.rng.choice(["mai i singoli medici", "mai i singoli primari", "mai i singoli reparti"]), (
        "Nei pezzi sulle liste d'attesa non nominiamo {v}: si parla di aziende, non di persone.",
        "on the waiting-list stories it's {v} — we talk about the hospital trusts, not people"),
        "Who must never be named in the waiting-list stories?")


def _i_tone(b: _Builder) -> Spec | None:
    def draw() -> str:
        good, _bad = b.rng.choice(TONES)
        return f"«{good}»"
    return _rule(b, draw, (
        "Preferisco scrivere {v}: le parole contano, soprattutto nei titoli.",
        "I'd rather we write {v}, the other wording is not ours"),
        "Which wording does the journalist prefer for the people in the story?")


def _i_rate(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"{b.rng.choice([6, 10, 12, 15, 20])} richieste al minuto", (
        "Sui siti delle ATS lo scraper non deve mai superare {v}, ci hanno già bloccato una volta.",
        "until they whitelist us, the scraper stays under {v} on the ATS sites"),
        "What request rate must the scraper stay under on the health agencies' sites?")


def _i_status(b: _Builder) -> Spec | None:
    return _rule(b, lambda: f"stato «{b.rng.choice(['pubblicato', 'pronto', 'in pagina'])}»", (
        "Nel CMS non mettere mai tu lo {v}: lo fa solo il desk.",
        "don't ever set {v} in the CMS yourself, that's the desk's call"),
        "Which CMS status must the agent never set itself?")


INSTRUCTIONS: tuple[Callable[[_Builder], Spec | None], ...] = (
    _i_banned, _i_sources, _i_outlet, _i_minors, _i_reply, _i_legal, _i_label, _i_letters, _i_colors, _i_embargo,
    _i_branch, _i_clean_dir, _i_doctors, _i_tone, _i_rate, _i_status)


# --- corrections: (stale, value) pairs, most of them near misses ------------------------------------------------

def _swap(s: str, lo: int, hi: int) -> str | None:
    for i in range(hi - 2, lo - 1, -1):
        if s[i] != s[i + 1]:
            return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    return None


def _correction(b: _Builder, draw: Callable[[], tuple[str, str]], noun_it: str, noun_en: str, ctx_it: str,
                say: str, query: str) -> Spec | None:
    for _ in range(30):
        old, new = draw()
        if (old == new or old in new or new in old or any(old in u or u in old or new in u or u in new
                                                            for u in b.used)):
            continue
        b.used.update((old, new))
        return {"stale": old, "value": new, "noun_it": noun_it, "noun_en": noun_en, "ctx_it": ctx_it,
                "say": say.format(old=old), "query": query}
    return None


def _near(draw_old: Callable[[], str], lo: int, hi: int) -> Callable[[], tuple[str, str]]:
    def draw() -> tuple[str, str]:
        old = draw_old()
        return old, _swap(old, lo, hi) or old
    return draw


def _c_cig(b: _Builder) -> Spec | None:
    ctx = b.rng.choice(("l'appalto delle mense di Bergamo", "la gara del trasporto scolastico di Monza",
                        "il lotto 3 della refezione di Brescia"))
    return _correction(b, _near(lambda: "Z" + _hex(b.rng, 9, "0123456789ABCDEF"), 5, 10), "il CIG", "CIG",
                       f"è per {ctx}",
                       f"Il CIG di {ctx} è {{old}}. Cercalo nel dump ANAC e dimmi quante offerte ci sono state.",
                       "What is the correct CIG of the contract the user asked about?")


def _c_prot(b: _Builder) -> Spec | None:
    return _correction(b, _near(lambda: f"prot. {b.rng.randint(10000, 999999):07d}/2024", 8, 13), "il protocollo",
                       "protocol number", "quello della risposta della Regione",
                       "La risposta della Regione all'accesso agli atti ha protocollo {old}, citiamolo nel box.",
                       "What is the protocol number of the Region's reply to the records request?")


def _c_version(b: _Builder) -> Spec | None:
    base = b.rng.choice(("ats_liste_2023", "anac_mense_lotti", "rendiconto_comuni", "natalita_province"))
    def draw() -> tuple[str, str]:
        a, c = b.rng.sample(range(2, 10), 2)
        return f"{base}_v{a}.xlsx", f"{base}_v{c}.xlsx"
    return _correction(b, draw, "il file", "file", "quello buono che ha mandato Giulia",
                       "Il file buono è {old}, quello che ha mandato Giulia ieri sera. Usa quello per i totali.",
                       "Which file version (the one Giulia sent) should the totals be computed from?")


def _c_sheet(b: _Builder) -> Spec | None:
    a = b.rng.randint(2, 9)
    def draw() -> tuple[str, str]:
        x, y = b.rng.sample(range(10, 30), 2)
        return f"Tavola {a}.{x}", f"Tavola {a}.{y}"
    return _correction(b, draw, "la tavola", "table", "nel PDF dell'ISTAT",
                       "Nel PDF dell'ISTAT il dato che ci serve è nella {old}, estrai quella.",
                       "Which table of the ISTAT PDF holds the figure the story needs?")


def _c_host(b: _Builder) -> Spec | None:
    def draw() -> tuple[str, str]:
        x, y = b.rng.sample(range(1, 13), 2)
        return f"vm-redaz-{x:02d}", f"vm-redaz-{y:02d}"
    return _correction(b, draw, "la macchina", "machine", "quella dove gira il cron",
                       "Il cron dello scraper gira su {old}, se devi guardare i log vai lì.",
                       "On which machine does the scraper's cron job run?")


def _c_count(b: _Builder) -> Spec | None:
    unit = b.rng.choice(("ricoveri", "prenotazioni", "nati", "gare"))
    return _correction(b, _near(lambda: f"{b.rng.randint(11, 99)}.{b.rng.randint(100, 999)} {unit}", 3, 6),
                       "il totale", "total", "il totale della tabella regionale",
                       "Il totale della tabella regionale è {old}, deve tornare con la somma delle righe.",
                       f"What total of {unit} does the regional table give?")


def _c_person(b: _Builder) -> Spec | None:
    pairs = (("Laura Sessa", "Laura Sassi"), ("Marta Riva", "Marta Rota"), ("Franco Bassi", "Franco Basso"),
             ("Elisa Porta", "Elisa Porro"), ("Gianni Moro", "Gianni Mori"))
    return _correction(b, lambda: b.rng.choice(pairs), "il nome", "name", "la portavoce dell'assessorato",
                       "La portavoce dell'assessorato si chiama {old}, le domande vanno a lei.",
                       "What is the name of the councillor's spokesperson?")


def _c_deadline(b: _Builder) -> Spec | None:
    def draw() -> tuple[str, str]:
        x, y = b.rng.sample(WEEKDAYS[:5], 2)
        h1, h2 = b.rng.sample((10, 12, 15, 17), 2)
        return f"entro {x} alle {h1}", f"entro {y} alle {h2}"
    return _correction(b, draw, "la scadenza", "deadline", "per mandare le domande all'azienda",
                       "Le domande all'azienda vanno mandate {old}, così hanno tempo di rispondere.",
                       "By when must the questions be sent to the company?")


CORRECTIONS = (_c_cig, _c_prot, _c_version, _c_sheet, _c_host, _c_count, _c_person, _c_deadline)


# --- decisions: a value, and an earlier choice of the same kind for the revised ones ------------------------------

def _decision(b: _Builder, options: Callable[[], str], why: str, query: str) -> Spec | None:
    v = b.fresh(options)
    old = b.fresh(options)
    if v is None or old is None:
        return None
    return {"value": v, "stale": old, "why": why, "query": query, "stale_index": None}


def _d_chart(b: _Builder) -> Spec | None:
    return _decision(b, lambda: b.rng.choice(("mappa coropletica", "barre orizzontali", "small multiples",
                                              "slope chart", "tabella ordinabile", "grafico a punti"))
                     + " " + b.rng.choice(("per comune", "per ASST", "per provincia")),
                     "Su mobile è l'unica cosa che si legge.", "Which chart form was chosen for the story?")


def _d_base(b: _Builder) -> Spec | None:
    return _decision(b, lambda: f"anno base {b.rng.randint(2010, 2021)}",
                     "Prima i dati non sono confrontabili.", "Which base year was chosen for the comparison?")


def _d_threshold(b: _Builder) -> Spec | None:
    return _decision(b, lambda: f"soglia dei {b.rng.choice([40, 70, 140, 150, 215, 500, 750])}.000 euro",
                     "Sotto ci sono solo affidamenti diretti.", "Above which amount are contracts included?")


def _d_metric(b: _Builder) -> Spec | None:
    return _decision(b, lambda: b.rng.choice(("la mediana, non la media", "la media ponderata per popolazione",
                                              "il 90° percentile", "la quota entro i tempi")),
                     "È quella che regge meglio gli outlier.", "Which statistic was chosen for the headline figure?")


def _d_day(b: _Builder) -> Spec | None:
    return _decision(b, lambda: f"uscita {b.rng.choice(WEEKDAYS)} {b.rng.randint(2, 28)}",
                     "Il desk ha spazio solo quel giorno.", "When does the piece come out?")


def _d_title(b: _Builder) -> Spec | None:
    return _decision(b, lambda: "titolo «" + b.rng.choice((
        "Mense, il ribasso che costa caro", "Sei mesi per una visita", "I comuni che spendono di più",
        "La Lombardia senza culle", "Gare con un solo concorrente", "Attese record in Brianza",
        "Il conto dei servizi", "Dove nascono ancora bambini")) + "»",
        "Elena lo preferisce.", "Which headline was chosen?")


def _d_capita(b: _Builder) -> Spec | None:
    return _decision(b, lambda: b.rng.choice(("valori pro capite", "valori assoluti", "euro per residente",
                                              "valori per mille abitanti")),
                     "Così i comuni piccoli non spariscono.", "In which unit are the values shown?")


def _d_window(b: _Builder) -> Spec | None:
    def draw() -> str:
        a = b.rng.randint(2012, 2019)
        return f"finestra {a}-{a + b.rng.randint(3, 5)}"
    return _decision(b, draw, "Più indietro le serie cambiano.", "Which period does the analysis cover?")


def _d_size(b: _Builder) -> Spec | None:
    return _decision(b, lambda: f"solo i comuni sopra i {b.rng.choice([5, 10, 15, 20, 30, 50])}.000 abitanti",
                     "Sotto i numeri ballano troppo.", "Which comuni are kept in the analysis?")


DECISIONS = (_d_chart, _d_base, _d_threshold, _d_metric, _d_day, _d_title, _d_capita, _d_window, _d_size)


# --- errors: a whole line of a tool's output, a run that shows it and a run that passes ---------------------------

def _err(b: _Builder, line: str | None, tool: str, asks: tuple[str, ...], why: str, query: str,
         run: Callable[[_Builder, Spec, bool], Call]) -> Spec | None:
    if line is None:
        return None
    st = STORIES[b.rng.choice(STORY_KEYS)]
    return {"value": line, "tool": tool, "asks": asks, "why": why, "query": query, "run": run, "st": st,
            "seed": b.rng.randrange(1 << 30)}


def _py_run(final: str) -> Callable[[_Builder, Spec, bool], Call]:
    def run(b: _Builder, s: Spec, ok: bool) -> Call:
        st = s["st"]
        code = f"%run {st['script']} --input {st['raw']}"
        if ok:
            return "run_python", {"code": code}, (f"({b.rng.randint(800, 9000)}, {len(st['cols'])})\n"
                                                  + "\n".join(b.head_lines(b.key_of(st), b.want())))
        return "run_python", {"code": code}, b.traceback(st, final, b.want(1500, 4000))
    return run


def _e_keyerror(b: _Builder) -> Spec | None:
    line = b.fresh(lambda: f"KeyError: '{b.rng.choice(FACT_COLS)}'")
    return _err(b, line, "run_python", ("rilancia lo script sul file nuovo", "run the analysis again on the new file"),
                "La colonna ha cambiato nome nel file nuovo.", "Which KeyError did the analysis script raise?",
                _py_run(line or ""))


def _e_unicode(b: _Builder) -> Spec | None:
    line = b.fresh(lambda: "UnicodeDecodeError: 'utf-8' codec can't decode byte "
                   f"0x{b.rng.choice(['e0', 'e8', 'e9', 'f2', 'f9'])} "
                   f"in position {b.rng.randint(1000, 999999)}: invalid continuation byte")
    return _err(b, line, "run_python", ("carica il csv della Regione", "load the regional csv please"),
                "Il file non è in UTF-8, probabilmente è latin-1.", "What decoding error did loading the file raise?",
                _py_run(line or ""))


def _e_parser(b: _Builder) -> Spec | None:
    def draw() -> str:
        a = b.rng.randint(6, 30)
        return ("pandas.errors.ParserError: Error tokenizing data. C error: "
                f"Expected {a} fields in line {b.rng.randint(100, 99999)}, saw {a + 1}")
    line = b.fresh(draw)
    return _err(b, line, "run_python", ("leggi il file grezzo", "read the raw file into a df"),
                "C'è un punto e virgola dentro un campo di testo.", "What parser error did reading the raw file give?",
                _py_run(line or ""))


def _e_date(b: _Builder) -> Spec | None:
    line = b.fresh(lambda: f"ValueError: time data '{b.rng.randint(29, 31)}/{b.rng.choice(['02', '04', '06', '09', '11'])}/"
                   f"{b.rng.randint(2015, 2023)}' does not match format '%d/%m/%Y'")
    return _err(b, line, "run_python", ("converti le date e rifai il conteggio per mese",),
                "C'è una data impossibile nel file di origine.", "What date-parsing error did the conversion raise?",
                _py_run(line or ""))


def _e_pytest(b: _Builder) -> Spec | None:
    def draw() -> str:
        a = b.rng.randint(1000, 99999)
        mod = b.rng.choice(("parse_ats", "anac", "bilanci", "istat", "join"))
        return (f"FAILED tests/test_{mod}.py::test_totale_{b.rng.choice(['mensile', 'annuo', 'provincia'])} - "
                f"AssertionError: assert {a} == {a + b.rng.randint(1, 90)}")
    line = b.fresh(draw)
    def run(bb: _Builder, s: Spec, ok: bool) -> Call:
        return bb.sh_pytest(s["st"], bb.want(1500, 3500), None if ok else s["value"], count=40 + s["seed"] % 30)
    return _err(b, line, "shell", ("run the tests", "lancia i test", "fai girare pytest"),
                "Il parser conta due volte la riga dei totali.", "Which test failed, with what assertion?", run)


def _e_cron(b: _Builder) -> Spec | None:
    host = b.rng.choice(("www.ats-brianza.it", "www.ats-insubria.it", "www.ats-montagna.it", "dati.comune.milano.it"))
    line = b.fresh(lambda: f"2024-06-{b.rng.randint(1, 28):02d} 03:{b.rng.randint(10, 59):02d}:{b.rng.randint(0, 59):02d},"
                   f"{b.rng.randint(0, 999):03d} ERROR scraper: ReadTimeout: HTTPSConnectionPool(host='{host}', port=443): "
                   "Read timed out. (read timeout=30)")
    def run(bb: _Builder, s: Spec, ok: bool) -> Call:
        return bb.sh_cron(s["st"], bb.want(1500, 3500), None if ok else s["value"])
    return _err(b, line, "shell", ("com'è andato il cron stanotte?", "check last night's cron log"),
                "Il sito ha smesso di rispondere a metà scaricamento.", "What error did last night's cron log show?", run)


def _e_http(b: _Builder) -> Spec | None:
    line = b.fresh(lambda: f"requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: "
                   f"https://dati.anticorruzione.it/opendata/api/cig?anno=2023&page={b.rng.randint(10, 999)}")
    def run(bb: _Builder, s: Spec, ok: bool) -> Call:
        st = s["st"]
        args = {"url": "https://dati.anticorruzione.it/opendata/api/cig?anno=2023", "retries": 0}
        if ok:
            return "fetch_url", args, bb.fetch(st, bb.want())[2]
        body = bb.fetch(st, bb.want(900, 2500))[2].split("\n")
        return "fetch_url", args, "\n".join(body[: len(body) // 2] + [s["value"], "HTTP/1.1 429 Too Many Requests",
                                                                     f"Retry-After: {bb.rng.randint(30, 600)}"])
    return _err(b, line, "fetch_url", ("scarica le pagine ANAC che mancano", "fetch the missing ANAC pages"),
                "L'API ci sta limitando: troppe richieste di fila.", "What HTTP error did the ANAC download hit?", run)


def _e_conflict(b: _Builder) -> Spec | None:
    line = b.fresh(lambda: f"CONFLICT (content): Merge conflict in drafts/{b.rng.choice(['box', 'scheda', 'sommario'])}-"
                   f"{b.rng.choice(COMUNI)[0].lower().replace(' ', '-')}.md")
    def run(bb: _Builder, s: Spec, ok: bool) -> Call:
        log = bb.log_lines(bb.want(800, 2500))
        if ok:
            return "git", {"args": "merge origin/main"}, "Merge made by the 'ort' strategy.\n" + "\n".join(log)
        return "git", {"args": "merge origin/main"}, ("Auto-merging drafts/\n" + s["value"]
                                                     + "\nAutomatic merge failed; fix conflicts and then commit the result.\n"
                                                     + "\n".join(log))
    return _err(b, line, "git", ("fai il merge di main, Marco ha sistemato la bozza",),
                "Marco ha toccato lo stesso paragrafo.", "Which file had a merge conflict?", run)


def _e_cms(b: _Builder) -> Spec | None:
    line = b.fresh(lambda: f"409 Conflict: article 2024-LOM-{b.rng.randint(50000, 99999)} is locked by "
                   f"{b.rng.choice(['m.bellini', 'g.ferri', 's.galli'])} "
                   f"since {b.rng.randint(8, 20)}:{b.rng.randint(0, 59):02d}")
    def run(bb: _Builder, s: Spec, ok: bool) -> Call:
        args = {"method": "PATCH", "path": "/articles/" + s["value"].split()[3], "body": {"section": "cronaca/milano"}}
        if ok:
            return "cms_api", args, bb.cms(s["st"], bb.want(), art=s["value"].split()[3])[2]
        return "cms_api", args, s["value"] + "\n" + bb.cms(s["st"], bb.want(800, 2000))[2]
    spec = _err(b, line, "cms_api", ("aggiorna la bozza nel CMS", "push the new paragraph to the CMS draft"),
                "Qualcuno ha la bozza aperta.", "What error did the CMS return when saving the draft?", run)
    return spec


ERRORS = (_e_keyerror, _e_unicode, _e_parser, _e_date, _e_pytest, _e_cron, _e_http, _e_conflict, _e_cms)


# --- files: a path written by one call ------------------------------------------------------------------------

def _file(b: _Builder, draw: Callable[[], str], ask: str, after: str, query: str, edit: bool = False) -> Spec | None:
    v = b.fresh(draw)
    if v is None:
        return None
    return {"value": v, "ask": ask, "after": after, "query": query, "edit": edit}


def _f_check(b: _Builder) -> Spec | None:
    what = ("scarti", "outlier", "pesi", "deflatore", "soglie", "campione")
    return _file(b, lambda: f"analysis/check_{b.rng.choice(what)}_{b.rng.randint(2, 9)}.py",
                 "scrivimi uno script a parte per il controllo incrociato, non toccare quello principale",
                 "Lo script gira da solo e stampa solo le righe che non tornano.",
                 "Which script was written for the cross-check?")


def _f_box(b: _Builder) -> Spec | None:
    what = ("box-metodo", "scheda", "replica")
    return _file(b, lambda: f"drafts/{b.rng.choice(what)}-{b.rng.choice(PROVINCE).lower()}-{b.rng.randint(2, 9)}.md",
                 "write the methodology box as a separate file, I'll paste it in the CMS myself",
                 "Sono circa 900 battute, fonti e scarti spiegati.", "Where was the methodology box written?")


def _f_chart(b: _Builder) -> Spec | None:
    form, unit = ("mappa", "barre", "punti", "linee"), ("asst", "province", "comuni")
    return _file(b, lambda: f"charts/{b.rng.choice(form)}_{b.rng.choice(unit)}_{b.rng.randint(10, 99)}.json",
                 "salva la configurazione del grafico in un file, così la rifacciamo uguale il mese prossimo",
                 "Contiene colori, etichette e note.", "Where was the chart configuration saved?")


def _f_scraper(b: _Builder) -> Spec | None:
    src, what = ("ats", "anac", "comuni", "istat"), ("pdf_tabelle", "archivio", "allegati", "storico")
    return _file(b, lambda: f"scrapers/{b.rng.choice(src)}_{b.rng.choice(what)}.py",
                 "ci serve uno scraper per l'archivio vecchio, fallo separato",
                 "Rispetta la pausa tra le richieste.", "Which new scraper file was written?",
                 edit=False)


def _f_notebook(b: _Builder) -> Spec | None:
    return _file(b, lambda: f"notebooks/{b.rng.randint(10, 99)}_verifica_{b.rng.choice(['totali', 'fonti', 'join'])}.py",
                 "can you put the fact-check steps in a notebook-style script so Giulia can rerun them?",
                 "Ogni cella stampa il numero e la fonte.", "Which file holds the fact-check steps for Giulia?")


def _f_edit(b: _Builder) -> Spec | None:
    return _file(b, lambda: f"scrapers/config_{b.rng.choice(['ats', 'anac', 'comuni'])}_{b.rng.randint(2, 9)}.py",
                 "alza la pausa dello scraper a 3 secondi, nel file di config giusto",
                 "La pausa ora è di 3 secondi.", "Which config file was edited to slow the scraper?", edit=True)


FILES = (_f_check, _f_box, _f_chart, _f_scraper, _f_notebook, _f_edit)


# --- findings: a value a tool found, within one line of its output --------------------------------------------

def _finding(b: _Builder, draw: Callable[[], str], line: str, ask: str, means: str, query: str,
             tool: str = "run_python") -> Spec | None:
    v = b.fresh(draw)
    if v is None:
        return None
    def run(bb: _Builder, st: dict[str, Any]) -> Call:
        size = bb.want()
        text_line = line.format(v=v)
        if tool == "run_python":
            body = bb.head_lines(bb.key_of(st), size)
            at = bb.rng.randint(1, len(body))
            body.insert(at, text_line)
            code = f"import pandas as pd\nfrom analysis.utils import riepilogo\nriepilogo('{st['proc']}')"
            return "run_python", {"code": code}, "\n".join(body)
        if tool == "shell":
            out = bb.sh_misc(st, size)[2].split("\n")
            out.insert(1, text_line)
            return "shell", {"command": f"file -i data/raw/* && ls -la ~/inchieste/{st['dir']}/data/raw"}, "\n".join(out)
        if tool == "fetch_url":
            out = bb.fetch(st, size)[2].split("\n")
            out.insert(4, text_line)
            return "fetch_url", {"url": st["url"], "headers_only": False}, "\n".join(out)
        out = bb.read_code(st, size)[2].split("\n")
        at = bb.rng.randint(3, len(out) - 1)
        out.insert(at, f"{at + 1:4d}\t{text_line}")
        return "read_file", {"path": st["scraper"]}, "\n".join(out)
    return {"value": v, "ask": ask, "means": means.format(v=v), "query": query, "run": run}


def _n_ribasso(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"ribasso medio del {b.rng.randint(8, 35)},{b.rng.randint(0, 9)}%",
                    "# {v} sulle gare con un solo offerente", "calcola il ribasso medio per le gare con un solo offerente",
                    "Quindi: {v}, molto più basso delle gare con più concorrenti. È il cuore del pezzo.",
                    "What average discount did single-bidder tenders show?")


def _n_mediana(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"mediana di {b.rng.randint(30, 240)} giorni",
                    "attesa classe B, {v} (prime visite)", "quanto si aspetta in mediana per le prime visite in classe B?",
                    "In pratica {v} per una prima visita che per legge dovrebbe arrivare in 10: va nel sommario.",
                    "What median wait did the priority-B first visits show?")


def _n_nomatch(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"{b.rng.randint(3, 90)} comuni senza corrispondenza",
                    "join ISTAT: {v} (fusioni 2019-2023)", "quanti comuni perdiamo nel join con i codici ISTAT?",
                    "Sono {v}: tutti comuni fusi dopo il 2019. Li recupero con la tavola di raccordo.",
                    "How many comuni failed to match in the ISTAT join?")


def _n_effect(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"+0,{b.rng.randint(100, 999)} punti per offerente",
                    "effetto n_offerenti sul ribasso: {v} (p<0,01)", "fai la regressione del ribasso sul numero di offerenti",
                    "Ogni concorrente in più vale {v} di ribasso: l'effetto è piccolo ma netto.",
                    "What effect does each extra bidder have on the discount?")


def _n_charset(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"charset={b.rng.choice(['iso-8859-1', 'windows-1252', 'utf-16le'])}",
                    "data/raw/export_regione.csv: text/csv; {v}", "perché il csv della Regione esce con i caratteri strani?",
                    "Il file è in {v}, non UTF-8: per questo le accentate saltano. Lo rileggo con l'encoding giusto.",
                    "Which character encoding does the Region's export use?", tool="shell")


def _n_ratelimit(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"X-RateLimit-Limit: {b.rng.choice([30, 45, 60, 90, 120])}",
                    "{v}", "controlla gli header del portale, quante richieste ci lasciano fare?",
                    "Il portale dichiara {v} richieste all'ora: dobbiamo rallentare lo scraper.",
                    "What rate limit does the portal declare in its headers?", tool="fetch_url")


def _n_filter(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"df['importo'] > {b.rng.choice([5000, 10000, 20000, 39999, 40000])}",
                    "    df = df[{v}]  # filtro vecchio", "perché mancano tutte le gare piccole? guarda lo scraper",
                    "Trovato: c'è un filtro vecchio, {v}, che butta via gli affidamenti piccoli.",
                    "Which leftover filter in the scraper dropped the small contracts?", tool="read_file")


def _n_dups(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"{b.rng.randint(12, 900)} CIG duplicati",
                    "controllo duplicati: {v} tra le due annate", "ci sono CIG ripetuti tra 2022 e 2023?",
                    "Sì, {v}: sono gare pubblicate a fine anno e aggiudicate nell'anno dopo. Le conto una volta sola.",
                    "How many duplicate CIGs are there between the two years?")


def _n_corr(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"r = 0,{b.rng.randint(10, 89)}",
                    "correlazione spesa/popolazione: {v}", "c'è correlazione tra spesa e popolazione?",
                    "La correlazione è {v}: c'è, ma non spiega tutto. Non la metterei nel titolo.",
                    "What correlation was found between spending and population?")


def _n_gap(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"scarto di {b.rng.randint(1, 40)},{b.rng.randint(1, 9)} milioni",
                    "rendiconto vs certificato: {v}", "i totali del rendiconto tornano con il certificato del ministero?",
                    "Non del tutto: {v}, quasi tutto in una voce. Chiederei al comune prima di scriverlo.",
                    "How large is the gap between the budget report and the ministry's certificate?")


def _n_share(b: _Builder) -> Spec | None:
    return _finding(b, lambda: f"{b.rng.randint(10, 80)},{b.rng.randint(1, 9)}% dei comuni",
                    "sotto la media regionale: {v}", "quanti comuni stanno sotto la media regionale di natalità?",
                    "Il {v} sta sotto la media: il calo non è solo delle città.",
                    "What share of comuni is below the regional birth-rate average?")


FINDINGS = (_n_ribasso, _n_mediana, _n_nomatch, _n_effect, _n_charset, _n_ratelimit, _n_filter, _n_dups, _n_corr,
            _n_gap, _n_share)


# --- identifiers: said by the user, or printed by a tool --------------------------------------------------------

def _ident_user(b: _Builder) -> Spec | None:
    r = b.rng
    forms = (
        (lambda: "Z" + _hex(r, 9, "0123456789ABCDEF"), "Il CIG da seguire è {v}, quello della gara di Lecco.",
         "Which CIG did the user ask to follow for the Lecco tender?"),
        (lambda: f"FOIA-2024-{r.randint(100, 99999):05d}", "la nostra richiesta di accesso civico è la {v}, "
         "se ti serve citarla", "What is the number of the desk's civic-access (FOIA) request?"),
        (lambda: "IT" + "".join(r.choice("0123456789") for _ in range(11)), "La partita IVA dell'azienda che vince "
         "sempre è {v}, cercala in tutte le annate", "Which VAT number belongs to the company that keeps winning?"),
        (lambda: f"GL-{r.randint(100, 9999):04d}/24", "ah, la segnalazione del garante ha numero {v}, mettilo "
         "nella risposta", "What is the ombudsman's reference number for the reader's complaint?"),
    )
    draw, say, query = r.choice(forms)
    v = b.fresh(draw)
    if v is None:
        return None
    return {"carrier": "user", "value": v, "say": say.format(v=v), "query": query}


def _dw_id(r: random.Random) -> str:
    while True:
        s = "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789") for _ in range(5))
        if any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s):
            return s


def _ident_tool(b: _Builder) -> Spec | None:
    r = b.rng
    if r.random() < 0.5:
        v = b.fresh(lambda: _dw_id(r))
        if v is None:
            return None
        def run_dw(bb: _Builder, st: dict[str, Any]) -> Call:
            name, _args, out = bb.dw(st, bb.want(), chart=v)
            return name, {"action": "create", "title": st["chart"], "type": "d3-bars"}, out
        return {"carrier": "tool", "value": v, "ask": "crea il grafico nuovo su datawrapper, poi lo sistemiamo",
                "after": "Grafico creato, l'id è", "query": "What id did Datawrapper give the new chart?", "run": run_dw}
    v = b.fresh(lambda: f"2024-LOM-{r.randint(50000, 99999)}")
    if v is None:
        return None
    def run_cms(bb: _Builder, st: dict[str, Any]) -> Call:
        _name, _args, out = bb.cms(st, bb.want(), art=v)
        return "cms_api", {"method": "POST", "path": "/articles", "body": {"slug": st["slug"]}}, out
    return {"carrier": "tool", "value": v, "ask": "apri una bozza nuova nel CMS per la scheda",
            "after": "Bozza creata nel CMS, id", "query": "Which id did the CMS assign to the new draft?", "run": run_cms}


# --- plans -------------------------------------------------------------------------------------------------------

def _plan(b: _Builder, draw: Callable[[], str], steps: Callable[[str], list[str]], query: str) -> Spec | None:
    v = b.fresh(draw)
    if v is None:
        return None
    st = steps(v)
    r = b.rng
    if r.random() < 0.5:
        text = (r.choice(("Allora, il piano per i prossimi giorni. ", "ok, piano: ", "Plan for the week, roughly. "))
                + "Prima " + st[0] + ", poi " + st[1] + ", e solo alla fine " + st[2] + ". " +
                r.choice(("Se qualcosa non torna ci fermiamo.", "Elena è d'accordo.", "ok?", "")))
    else:
        text = (r.choice(("Facciamo così:\n", "piano:\n", "Steps, in order:\n"))
                + "\n".join(f"{i + 1}. {s}" for i, s in enumerate(st)) + r.choice(("", "\n\npoi vediamo", "\n\ngo")))
    return {"value": v, "text": text, "steps": st, "query": query}


def _p_call(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"chiamare le {b.rng.randint(3, 9)} ASST con i dati anomali",
                 lambda v: ["rifare lo scraping di maggio", v, "scrivere il pezzo"],
                 "Which step of the plan involves contacting the health trusts?")


def _p_rescrape(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"rifare lo scraping da gennaio {b.rng.randint(2017, 2022)}",
                 lambda v: [v, "confrontare con il file vecchio", "aggiornare il grafico"],
                 "From when does the plan say to redo the scraping?")


def _p_cards(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"un pezzo principale più {b.rng.randint(4, 12)} schede provinciali",
                 lambda v: ["chiudere i numeri", "impaginare " + v, "mandare tutto al desk"],
                 "What is the planned format of the package?")


def _p_sample(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"verificare a mano un campione di {b.rng.randint(20, 90)} gare",
                 lambda v: ["estrarre le gare con un solo offerente", v, "scrivere il box metodo"],
                 "How big is the sample of tenders to verify by hand?")


def _p_legal(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"send the draft to legal by {b.rng.choice(WEEKDAYS_EN)} {b.rng.choice(['noon', '10am', '4pm'])}",
                 lambda v: ["finish the numbers", v, "publish after the right of reply"],
                 "When does the plan say the draft goes to the lawyer?")


def _p_freeze(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"freeze the dataset on {b.rng.randint(2, 28)} {b.rng.choice(['June', 'July'])}",
                 lambda v: [v, "run every check on the frozen copy", "write the piece"],
                 "On which date is the dataset frozen?")


def _p_biggest(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"prima i {b.rng.randint(10, 50)} appalti più grandi",
                 lambda v: [v, "poi la coda lunga", "infine le schede"],
                 "Which contracts does the plan say to look at first?")


def _p_mayors(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"sentire {b.rng.randint(3, 8)} sindaci prima di scrivere",
                 lambda v: ["chiudere la mappa", v, "scrivere il pezzo"],
                 "How many mayors does the plan say to interview before writing?")


def _p_micro(b: _Builder) -> Spec | None:
    return _plan(b, lambda: f"ask ISTAT for the {b.rng.randint(2015, 2022)} microdata",
                 lambda v: [v, "rebuild the series", "compare with the regional figures"],
                 "Which data does the plan say to request from ISTAT?")


PLANS = (_p_call, _p_rescrape, _p_cards, _p_sample, _p_legal, _p_freeze, _p_biggest, _p_mayors, _p_micro)
